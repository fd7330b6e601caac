/*
 * Latency by script class for the soak test's report: a fixed histogram per class with
 * logarithmic buckets (about 2 % wide, from 1 µs to about 1000 s), so that an hour's run
 * allocates nothing as it goes; p50 and p99 are read from the buckets. Also the clock every
 * measurement of the soak reads.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "soak.h"

long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

#define BUCKETS 1100
#define SMALLEST 1e-6
#define STEP 1.02

struct latency {
    pthread_mutex_t lock;
    uint64_t counts[CLASS_COUNT][BUCKETS];
    uint64_t totals[CLASS_COUNT];
};

struct latency *latency_create(void) {
    struct latency *latency = calloc(1, sizeof *latency);
    if (latency) pthread_mutex_init(&latency->lock, NULL);
    return latency;
}

void latency_add(struct latency *latency, enum script_class cls, double seconds) {
    int bucket = seconds <= SMALLEST ? 0 : (int)(log(seconds / SMALLEST) / log(STEP)) + 1;
    if (bucket >= BUCKETS) bucket = BUCKETS - 1;
    pthread_mutex_lock(&latency->lock);
    latency->counts[cls][bucket]++;
    latency->totals[cls]++;
    pthread_mutex_unlock(&latency->lock);
}

double latency_quantile(struct latency *latency, enum script_class cls, double q) {
    pthread_mutex_lock(&latency->lock);
    uint64_t total = latency->totals[cls], seen = 0;
    double value = 0;
    if (total) {
        uint64_t rank = (uint64_t)ceil(q * (double)total);
        if (rank == 0) rank = 1;
        for (int b = 0; b < BUCKETS; b++) {
            seen += latency->counts[cls][b];
            if (seen >= rank) {
                value = b == 0 ? SMALLEST : SMALLEST * pow(STEP, b);
                break;
            }
        }
    }
    pthread_mutex_unlock(&latency->lock);
    return value;
}

uint64_t latency_count(struct latency *latency, enum script_class cls) {
    pthread_mutex_lock(&latency->lock);
    uint64_t n = latency->totals[cls];
    pthread_mutex_unlock(&latency->lock);
    return n;
}

void latency_free(struct latency *latency) {
    pthread_mutex_destroy(&latency->lock);
    free(latency);
}

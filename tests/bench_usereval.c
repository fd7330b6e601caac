/*
 * Benchmark of usereval queries through the libdealer C API: the cost of one query answered by
 * an in-process metric (dealer_set_usereval with a trivial callback) and, when a server path is
 * given, by a DealerServer (the `server` option).
 *
 * Each measurement runs a job of DEALS deals whose condition asks a query that is never cached
 * (a new deal every time, so one round trip per deal) and is never true:
 *     generate DEALS / produce 1 / condition usereval(98, NS, 0) < 0
 * against the same job with `condition hcp(north) < 0` (the dealing cost). The cost of a query
 * is (t_usereval - t_baseline) / DEALS. Each job runs REPEAT times (the in-process jobs at
 * least 3 times: they are short); the fastest run counts.
 *
 * Usage: bench_usereval [DEALS [SERVER [REPEAT]]]   (defaults 200000, none, 1; an empty SERVER
 * measures the in-process path only)
 * Output, one line per path:  PATH DEALS SECONDS BASELINE_SECONDS US_PER_QUERY CALLS
 * With a server, a last line "floor N SECONDS 0 US_PER_ROUND_TRIP N" gives the machine's floor
 * for the protocol without libdealer: two processes passing the turn N times through two named
 * POSIX semaphores, both blocking in sem_wait as the DealerServer protocol does.
 *
 * Build: cc -O2 -std=c99 -Iinclude tests/bench_usereval.c target/lib/libdealer.a \
 *           -lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o bench_usereval
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dealer.h"

static long long calls;

static int32_t trivial_metric(const dealer_usereval_query *q, const dealer_deal *deal, const dealer_hand_stats *stats,
                              int32_t *results, void *userdata) {
    (void)deal;
    (void)stats;
    (void)userdata;
    calls++;
    results[0] = q->tag; /* never < 0: the condition stays false */
    return 0;
}

static int32_t discard(const uint8_t *data, uintptr_t len, void *userdata) {
    (void)data;
    (void)len;
    (void)userdata;
    return 0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Seconds for one run of `condition` over `deals` deals (in-process metric when server is
 * NULL), or a negative value on an error. */
static double time_job(long deals, const char *condition, const char *server, long long *generated) {
    char script[256];
    snprintf(script, sizeof script, "generate %ld\nproduce 1\ncondition %s\n", deals, condition);
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) return -1;
    dealer_set_option(s, "seed", "1");
    dealer_set_option(s, "statistics", "false");
    dealer_set_output(s, DEALER_STREAM_OUTPUT, discard, NULL);
    if (server) dealer_set_option(s, "server", server);
    else dealer_set_usereval(s, trivial_metric, NULL);
    if (dealer_load_script(s, (const uint8_t *)script, strlen(script)) != DEALER_OK) {
        fprintf(stderr, "bench_usereval: %s\n", dealer_last_error(s));
        dealer_free_session(s);
        return -1;
    }
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    double t0 = now_seconds();
    int rc = dealer_run(s, &report);
    double t = now_seconds() - t0;
    if (rc != DEALER_OK) {
        fprintf(stderr, "bench_usereval: run failed: %s\n", dealer_last_error(s));
        t = -1;
    }
    *generated = report.generated;
    dealer_free_session(s);
    return t;
}

static double best_of(int repeat, long deals, const char *condition, const char *server, long long *generated) {
    double best = -1;
    for (int i = 0; i < repeat; i++) {
        double t = time_job(deals, condition, server, generated);
        if (t < 0) return -1;
        if (best < 0 || t < best) best = t;
    }
    return best;
}

static int measure(const char *path, long deals, const char *server, int repeat) {
    long long generated = 0, baseline_generated = 0;
    double base = best_of(repeat, deals, "hcp(north) < 0", server, &baseline_generated);
    calls = 0;
    double t = best_of(repeat, deals, "usereval(98, NS, 0) < 0", server, &generated);
    if (base < 0 || t < 0 || generated != deals || baseline_generated != deals) {
        fprintf(stderr, "bench_usereval: %s: failed (generated %lld and %lld of %ld)\n", path, generated,
                baseline_generated, deals);
        return 1;
    }
    printf("%s %ld %.4f %.4f %.3f %lld\n", path, deals, t, base, (t - base) * 1e6 / (double)deals,
           server ? (long long)deals : calls / repeat);
    return 0;
}

/* Seconds for n round trips between this process and a child through two named semaphores. */
static double semaphore_floor(long n) {
    char qn[64], rn[64];
    snprintf(qn, sizeof qn, "/bench_q_%d", (int)getpid());
    snprintf(rn, sizeof rn, "/bench_r_%d", (int)getpid());
    sem_t *q = sem_open(qn, O_CREAT | O_EXCL, 0600, 0), *r = sem_open(rn, O_CREAT | O_EXCL, 0600, 0);
    sem_unlink(qn);
    sem_unlink(rn);
    if (q == SEM_FAILED || r == SEM_FAILED) return -1;
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        for (long i = 0; i < n; i++) {
            if (sem_wait(q) != 0 || sem_post(r) != 0) _exit(1);
        }
        _exit(0);
    }
    double t0 = now_seconds();
    for (long i = 0; i < n; i++) {
        sem_post(q);
        sem_wait(r);
    }
    double t = now_seconds() - t0;
    int status = 0;
    waitpid(child, &status, 0);
    sem_close(q);
    sem_close(r);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

int main(int argc, char **argv) {
    long deals = argc > 1 ? atol(argv[1]) : 200000;
    const char *server = argc > 2 && argv[2][0] ? argv[2] : NULL;
    int repeat = argc > 3 ? atoi(argv[3]) : 1;
    if (deals <= 0 || repeat <= 0) {
        fprintf(stderr, "usage: %s [DEALS [SERVER [REPEAT]]]\n", argv[0]);
        return 2;
    }
    int bad = measure("in-process", deals, NULL, repeat < 3 ? 3 : repeat);
    if (server) {
        bad |= measure("server-C-API", deals, server, repeat);
        double t = semaphore_floor(deals);
        if (t < 0) bad = 1;
        else printf("floor %ld %.4f 0 %.3f %ld\n", deals, t, t * 1e6 / (double)deals, deals);
    }
    return bad;
}

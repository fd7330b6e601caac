/*
 * The soak test (`make soak`, `make soak-short`): libdealer held under a server's load inside
 * one process. A pool of worker threads serves a stream of random requests (request.c) over a
 * corpus of practice, example, random and hostile scripts (corpus.c), in sessions created or
 * taken from a pool, under `untrusted` with ceilings; some runs are interrupted from another
 * thread (interrupts.c), some clients go away mid-run, some requests deal deal by deal and
 * evaluate expressions. Every answer is checked (check.c) against a reference run of the same
 * request done alone in a fresh session on one thread (reference.c caches their digests).
 *
 * Over the run it samples resident memory, the heap in use and open descriptors (resources.c)
 * and asserts that the resident set stays flat after warm-up (the last quarter's median at most
 * 5 % above the second quarter's, in runs of 5 minutes or more), that the heap in use is back
 * where it was before the first request once every session is freed (no leak), that the
 * descriptors stay flat, that no thread, child process or semaphore is left at the end, that
 * runs stop promptly (within STOP_BOUND_SECONDS of their interrupt or past their time
 * ceiling), and a watchdog fails the run when no request completes for 60 s. It prints
 * requests per second, p50/p99 latency by class (latency.c), outcomes by kind and class, then
 * `ok:`/`FAIL:` rows and `N passed, M failed`; exit status 1 on any failure.
 *
 * Usage: soak --seconds N [--workers 4..16] [--seed S] [--top DIR] [--shared DIR]
 *             [--classes practice,example,random,hostile,dd] [--modes run,interrupt,drop,eval]
 * (--classes and --modes serve only those, to find which part of the traffic a failure needs).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "soak.h"

#define MAX_WORKERS 16
#define WATCHDOG_SECONDS 60
#define OUTCOMES 16
#define FAILURES_SHOWN 30
/* The longest a run may go on after its interrupt was due or past its time ceiling: one
 * double-dummy solve in progress is finished (a table of a hard deal takes over a second of a
 * core), and the soak's workers share the machine's cores (a 60-minute run with 8 workers on 2
 * cores measured 5.2 s at worst). Before solving batches stopped, runs went on for 30 s. */
#define STOP_BOUND_SECONDS 10.0

static const char *const outcome_names[OUTCOMES] = {
    "ok", "ceiling-output", "ceiling-generate", "ceiling-time", "interrupted", "client-gone (io)", "script-error",
    "run-error", "not-allowed", "utf8-error", "option-error", "usage-error", "INTERNAL", "ceiling-?", "other", NULL};

static int outcome_index(const struct answer *answer) {
    const char *name = outcome_name(answer);
    for (int i = 0; i < OUTCOMES && outcome_names[i]; i++)
        if (strcmp(outcome_names[i], name) == 0) return i;
    return 14;
}

/* Everything the threads share; no global state. */
struct soak {
    struct corpus corpus;
    struct session_pool *pool;
    struct reference_cache *references;
    struct interrupt_service *interrupts;
    struct latency *latency;
    atomic_int stop;
    atomic_llong last_completion_ns;
    atomic_int dd_running;
    pthread_mutex_t counts_lock;
    uint64_t requests[CLASS_COUNT];
    uint64_t outcomes[CLASS_COUNT][OUTCOMES];
    uint64_t wrong, fresh_references, cached_checks, interrupts_sent, sessions_reused, sessions_freed;
    /* The slowest stop after an interrupt [0] and past the time ceiling [1], and its request. */
    double slowest_stop[2];
    char slowest_stop_request[2][300];
    char current[MAX_WORKERS][300];   /* what each worker serves, for the watchdog's report */
    pthread_mutex_t current_lock;
    uint64_t seed;
    unsigned classes, modes;          /* the classes and modes served (bit masks; all by default) */
};

struct worker { struct soak *soak; int index; pthread_t thread; };

static void set_current(struct soak *soak, int index, const char *text) {
    pthread_mutex_lock(&soak->current_lock);
    snprintf(soak->current[index], sizeof soak->current[index], "%s", text);
    pthread_mutex_unlock(&soak->current_lock);
}

/* Runs the reference of a request: alone in a fresh session, one thread, nothing interrupted. */
static int run_reference(const struct request *request, struct answer *reference) {
    struct request alone = *request;
    alone.threads = 1;
    if (alone.mode != MODE_EVAL) alone.mode = MODE_RUN;
    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) return -1;
    int rc = answer_request(&alone, session, reference, NULL, 0);
    dealer_free_session(session);
    answer_digest(reference);
    return rc;
}

static void record_failure(struct soak *soak, const struct request *request, const char *why) {
    char described[400];
    request_describe(request, described, sizeof described);
    pthread_mutex_lock(&soak->counts_lock);
    if (soak->wrong++ < FAILURES_SHOWN) printf("FAIL: %s: %s\n", described, why);
    pthread_mutex_unlock(&soak->counts_lock);
    fflush(stdout);
}

static void *serve(void *arg) {
    struct worker *worker = arg;
    struct soak *soak = worker->soak;
    uint64_t rng = soak->seed * 1000003 + (uint64_t)worker->index + 1;
    struct answer answer, reference;
    memset(&answer, 0, sizeof answer);
    memset(&reference, 0, sizeof reference);
    while (!atomic_load(&soak->stop)) {
        /* At most one double-dummy request at a time: each solver thread holds about 100 MB. */
        int expected = 0;
        int dd_allowed = atomic_compare_exchange_strong(&soak->dd_running, &expected, 1);
        struct request request;
        do request_draw(&request, &soak->corpus, &rng, dd_allowed);
        while (!(soak->classes & (1u << request.cls)) || !(soak->modes & (1u << request.mode)));
        if (dd_allowed && !request.dd) atomic_store(&soak->dd_running, 0);
        char described[300];
        request_describe(&request, described, sizeof described);
        set_current(soak, worker->index, described);

        long long started = now_ns();
        dealer_session *session = request.reuse ? pool_take(soak->pool) : NULL;
        int reused = session != NULL;
        if (!session && dealer_create_session(&session) != DEALER_OK) {
            record_failure(soak, &request, "dealer_create_session failed");
            continue;
        }
        int rc = answer_request(&request, session, &answer, soak->interrupts, worker->index);
        /* A session whose interrupt arrived after its run ended would stop its next run. */
        int pending = answer.interrupted && answer.status != DEALER_INTERRUPTED;
        if (request.free_after || pending || rc != 0) dealer_free_session(session);
        else pool_give(soak->pool, session);
        double seconds = (double)(now_ns() - started) / 1e9;
        answer_digest(&answer);
        latency_add(soak->latency, request.cls, seconds);

        /* The reference: cached by key, or run now (alone, in a fresh session). */
        uint64_t key = request_key(&request);
        struct reference cached;
        int found = references_find(soak->references, key, &cached);
        const struct answer *fresh = NULL;
        if (!found || answer_needs_fresh_reference(&request, &answer)) {
            run_reference(&request, &reference);
            fresh = &reference;
            int time_cut = reference.status == DEALER_CEILING_REACHED && reference.ceiling == DEALER_CEILING_TIME;
            if (!found && !time_cut && !request.script->time_bound) {
                struct reference stored = {key, reference.hash, reference.length, reference.status};
                references_store(soak->references, &stored);
            }
        }
        if (request.dd) atomic_store(&soak->dd_running, 0);
        char why[600];
        int wrong = rc != 0 ? (snprintf(why, sizeof why, "the request could not be set up: %s", answer.message), 1)
                            : check_answer(&request, &answer, found ? &cached : NULL, fresh, why, sizeof why);
        if (wrong) record_failure(soak, &request, why);

        pthread_mutex_lock(&soak->counts_lock);
        soak->requests[request.cls]++;
        soak->outcomes[request.cls][outcome_index(&answer)]++;
        if (fresh) soak->fresh_references++;
        else soak->cached_checks++;
        if (request.mode == MODE_INTERRUPT && answer.interrupted) soak->interrupts_sent++;
        int stop_kind = answer.status == DEALER_INTERRUPTED ? 0 : 1;
        if (answer.overrun > soak->slowest_stop[stop_kind]) {
            soak->slowest_stop[stop_kind] = answer.overrun;
            snprintf(soak->slowest_stop_request[stop_kind], sizeof soak->slowest_stop_request[stop_kind], "%s",
                     described);
        }
        if (reused) soak->sessions_reused++;
        if (request.free_after || pending) soak->sessions_freed++;
        pthread_mutex_unlock(&soak->counts_lock);
        atomic_store(&soak->last_completion_ns, now_ns());
    }
    free(answer.output.data);
    free(reference.output.data);
    set_current(soak, worker->index, "(finished)");
    return NULL;
}

/* Fails the run (exit status 1, at once) when no request has completed for 60 s. */
static void *watch(void *arg) {
    struct soak *soak = arg;
    while (!atomic_load(&soak->stop)) {
        struct timespec nap = {0, 250000000};
        nanosleep(&nap, NULL);
        long long idle = now_ns() - atomic_load(&soak->last_completion_ns);
        if (idle > (long long)WATCHDOG_SECONDS * 1000000000LL && !atomic_load(&soak->stop)) {
            printf("FAIL: watchdog: no request completed for %d s (a deadlock or a runaway run); the workers serve:\n",
                   WATCHDOG_SECONDS);
            pthread_mutex_lock(&soak->current_lock);
            for (int i = 0; i < MAX_WORKERS; i++)
                if (soak->current[i][0]) printf("  worker %d: %s\n", i, soak->current[i]);
            pthread_mutex_unlock(&soak->current_lock);
            printf("0 passed, 1 failed\n");
            fflush(stdout);
            _exit(1);
        }
    }
    return NULL;
}

struct sample { double t; long rss_kb, heap_kb; int fds; };

static int passed, failed;

static void row(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(int ok, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    printf("%s ", ok ? "ok:" : "FAIL:");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
    if (ok) passed++;
    else failed++;
}

static int by_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* What the samples taken between the fractions `from` and `to` of the run say. */
struct quarter { long peak_rss, median_rss, median_heap; int fds; };

static struct quarter quarter_of(const struct sample *samples, int n, double total, double from, double to) {
    struct quarter q = {0, 0, 0, 0};
    long *rss = calloc((size_t)n + 1, sizeof *rss), *heap = calloc((size_t)n + 1, sizeof *heap);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (samples[i].t < from * total || samples[i].t > to * total) continue;
        rss[k] = samples[i].rss_kb;
        heap[k++] = samples[i].heap_kb;
        if (samples[i].rss_kb > q.peak_rss) q.peak_rss = samples[i].rss_kb;
        if (samples[i].fds > q.fds) q.fds = samples[i].fds;
    }
    if (k) {
        qsort(rss, (size_t)k, sizeof *rss, by_long);
        qsort(heap, (size_t)k, sizeof *heap, by_long);
        q.median_rss = rss[k / 2];
        q.median_heap = heap[k / 2];
    }
    free(rss);
    free(heap);
    return q;
}

/* A bit mask of the names of `all` found in the comma-separated `list`; 0 for an unknown one. */
static unsigned mask_of(const char *list, const char *const *all, int count) {
    unsigned mask = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int i = 0; i < count; i++)
            if (strcmp(name, all[i]) == 0) found = i;
        if (found < 0) return 0;
        mask |= 1u << found;
    }
    return mask;
}

int main(int argc, char **argv) {
    static const char *const class_names[CLASS_COUNT] = {"practice", "example", "random", "hostile", "dd"};
    static const char *const mode_names[MODE_COUNT] = {"run", "interrupt", "drop", "eval"};
    unsigned classes = (1u << CLASS_COUNT) - 1, modes = (1u << MODE_COUNT) - 1;
    double duration = 60;
    int workers = 8;
    const char *top = ".", *shared = NULL;
    uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0) duration = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--workers") == 0) workers = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--top") == 0) top = argv[i + 1];
        else if (strcmp(argv[i], "--shared") == 0) shared = argv[i + 1];
        else if (strcmp(argv[i], "--classes") == 0) classes = mask_of(argv[i + 1], class_names, CLASS_COUNT);
        else if (strcmp(argv[i], "--modes") == 0) modes = mask_of(argv[i + 1], mode_names, MODE_COUNT);
        else {
            fprintf(stderr, "usage: soak --seconds N [--workers 4..16] [--seed S] [--top DIR] [--shared DIR]\n");
            return 2;
        }
    }
    if (workers < 4 || workers > MAX_WORKERS || duration <= 0 || !classes || !modes) {
        fprintf(stderr, "soak: --workers must be 4 to %d, --seconds above 0, --classes and --modes known names\n",
                MAX_WORKERS);
        return 2;
    }
    char shared_default[4096];
    if (!shared) {
        snprintf(shared_default, sizeof shared_default, "%s/../shared", top);
        shared = shared_default;
    }

    /* glibc raises its mmap threshold each time a large block is freed, after which the large
     * short-lived buffers of this traffic (1 MiB outputs, double-dummy tables) come from the
     * arenas and leave them fragmented: the resident set then follows the allocator's high-water
     * marks, not the memory in use (a 10-minute run with the default grew 25 % from the second
     * quarter to the last while the heap in use grew 5 %, and ended at 89 MB resident with 5 MB
     * in use). A fixed threshold, as long-running servers set it (MALLOC_MMAP_THRESHOLD_), makes
     * the resident set measure the library. SOAK_MALLOC_DEFAULT=1 keeps glibc's default. */
    const char *keep_default = getenv("SOAK_MALLOC_DEFAULT");
    int fixed_threshold = !(keep_default && strcmp(keep_default, "1") == 0);
#if defined(__GLIBC__)
    if (fixed_threshold) mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    struct resources start;
    resources_sample(&start);
    struct soak *soak = calloc(1, sizeof *soak);
    soak->seed = seed;
    soak->classes = classes;
    soak->modes = modes;
    if (corpus_load(&soak->corpus, top, shared, 200) != 0) return 1;
    soak->pool = pool_create(workers);
    soak->references = references_create(1 << 16);
    soak->latency = latency_create();
    soak->interrupts = interrupts_start(workers);
    pthread_mutex_init(&soak->counts_lock, NULL);
    pthread_mutex_init(&soak->current_lock, NULL);
    atomic_store(&soak->last_completion_ns, now_ns());
    printf("soak: %.0f s, %d workers, seed %llu, libdealer %s, malloc mmap threshold %s; corpus: %zu practice, "
           "%zu example, %zu random, %zu hostile\n",
           duration, workers, (unsigned long long)seed, dealer_version(), fixed_threshold ? "128 KiB" : "glibc's default", soak->corpus.by_class[CLASS_PRACTICE],
           soak->corpus.by_class[CLASS_EXAMPLE], soak->corpus.by_class[CLASS_RANDOM],
           soak->corpus.by_class[CLASS_HOSTILE]);
    fflush(stdout);

    struct resources loaded;
    resources_sample(&loaded);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    struct worker pool[MAX_WORKERS];
    pthread_t watchdog;
    pthread_create(&watchdog, NULL, watch, soak);
    for (int i = 0; i < workers; i++) {
        pool[i].soak = soak;
        pool[i].index = i;
        pthread_create(&pool[i].thread, &attr, serve, &pool[i]);
    }
    pthread_attr_destroy(&attr);

    /* Sample twice a second until the end; report progress every minute. */
    int capacity = (int)(duration * 2) + 16, n = 0;
    struct sample *samples = calloc((size_t)capacity, sizeof *samples);
    long long began = now_ns();
    double elapsed = 0, next_report = 60;
    while ((elapsed = (double)(now_ns() - began) / 1e9) < duration) {
        struct timespec nap = {0, 500000000};
        nanosleep(&nap, NULL);
        struct resources now;
        resources_sample(&now);
        if (n < capacity) samples[n++] = (struct sample){(double)(now_ns() - began) / 1e9, now.rss_kb, now.heap_kb, now.fds};
        if (elapsed >= next_report) {
            pthread_mutex_lock(&soak->counts_lock);
            uint64_t total = 0;
            for (int c = 0; c < CLASS_COUNT; c++) total += soak->requests[c];
            printf("soak: %.0f s, %llu requests, %llu wrong, resident %ld MB, heap in use %ld MB, %d descriptors\n",
                   elapsed, (unsigned long long)total, (unsigned long long)soak->wrong, now.rss_kb / 1024,
                   now.heap_kb / 1024, now.fds);
            pthread_mutex_unlock(&soak->counts_lock);
            fflush(stdout);
            next_report += 60;
        }
    }
    atomic_store(&soak->stop, 1);
    for (int i = 0; i < workers; i++) pthread_join(pool[i].thread, NULL);
    double served_seconds = (double)(now_ns() - began) / 1e9;
    double sampled_seconds = elapsed;
    pthread_join(watchdog, NULL);
    interrupts_stop(soak->interrupts);
    pool_free(soak->pool);
    struct resources end;
    resources_sample(&end);

    /* The report. */
    uint64_t total = 0;
    for (int c = 0; c < CLASS_COUNT; c++) total += soak->requests[c];
    printf("\nrequests: %llu in %.0f s, %.1f per second; %llu checked against a cached reference, %llu against a fresh "
           "reference run; %llu interrupts delivered, %llu sessions reused from the pool, %llu freed mid-stream\n",
           (unsigned long long)total, served_seconds, (double)total / served_seconds,
           (unsigned long long)soak->cached_checks, (unsigned long long)soak->fresh_references,
           (unsigned long long)soak->interrupts_sent, (unsigned long long)soak->sessions_reused,
           (unsigned long long)soak->sessions_freed);
    printf("%-9s %9s %10s %10s  outcomes\n", "class", "requests", "p50 ms", "p99 ms");
    for (int c = 0; c < CLASS_COUNT; c++) {
        printf("%-9s %9llu %10.2f %10.2f ", class_name((enum script_class)c), (unsigned long long)soak->requests[c],
               latency_quantile(soak->latency, (enum script_class)c, 0.5) * 1e3,
               latency_quantile(soak->latency, (enum script_class)c, 0.99) * 1e3);
        for (int k = 0; k < OUTCOMES && outcome_names[k]; k++)
            if (soak->outcomes[c][k]) printf(" %s %llu", outcome_names[k], (unsigned long long)soak->outcomes[c][k]);
        printf("\n");
    }
    struct quarter q2 = quarter_of(samples, n, sampled_seconds, 0.25, 0.5);
    struct quarter q4 = quarter_of(samples, n, sampled_seconds, 0.75, 1.0);
    printf("resident memory: %ld MB at start, %ld MB with the corpus loaded; second quarter median %ld MB (peak %ld), "
           "last quarter median %ld MB (peak %ld); %ld MB at the end\n",
           start.rss_kb / 1024, loaded.rss_kb / 1024, q2.median_rss / 1024, q2.peak_rss / 1024, q4.median_rss / 1024,
           q4.peak_rss / 1024, end.rss_kb / 1024);
    printf("heap in use: %ld MB with the corpus loaded; second quarter median %ld MB, last quarter median %ld MB; "
           "%ld MB at the end\n",
           loaded.heap_kb / 1024, q2.median_heap / 1024, q4.median_heap / 1024, end.heap_kb / 1024);
    printf("open descriptors: %d at start, peak %d in the second quarter, %d in the last, %d at the end\n", start.fds,
           q2.fds, q4.fds, end.fds);
    printf("threads: %d at start, %d at the end; child processes at the end: %d; semaphores: %d; references cached: "
           "%zu\n\n",
           start.threads, end.threads, end.children, end.semaphores, references_count(soak->references));

    row(soak->wrong == 0, "every answer right (%llu requests, %llu wrong)", (unsigned long long)total,
        (unsigned long long)soak->wrong);
    for (int kind = 0; kind < 2; kind++)
        row(soak->slowest_stop[kind] <= STOP_BOUND_SECONDS, "runs stop promptly %s: at most %.2f s later (bound %.0f s)%s%s",
            kind == 0 ? "when interrupted" : "at the time ceiling", soak->slowest_stop[kind], STOP_BOUND_SECONDS,
            soak->slowest_stop[kind] > 0 ? ", slowest: " : "", soak->slowest_stop_request[kind]);
    int every_class = 1;
    for (int c = 0; c < CLASS_COUNT; c++) every_class &= soak->requests[c] > 0 || !(classes & (1u << c));
    row(every_class, "every class asked for served (practice, example, random, hostile, dd)");
    /* The resident set follows the allocator's high-water marks as much as the memory in use:
     * a run of a few minutes is still warming up, so its growth is asserted from 5 minutes on. */
    if (sampled_seconds >= 300)
        row(q2.median_rss > 0 && q4.median_rss <= q2.median_rss + q2.median_rss / 20,
            "resident memory flat after warm-up: median %ld kB in the last quarter, %ld kB in the second (at most +5 %%)",
            q4.median_rss, q2.median_rss);
    else
        printf("resident memory: growth not asserted in a run under 5 minutes (median %ld kB in the last quarter, "
               "%ld kB in the second)\n", q4.median_rss, q2.median_rss);
    row(end.heap_kb >= 0 && end.heap_kb <= loaded.heap_kb + 1024,
        "no memory leaked: heap in use %ld kB at the end with every session freed, %ld kB before the first request",
        end.heap_kb, loaded.heap_kb);
    row(q2.fds > 0 && q4.fds <= q2.fds, "open descriptors flat: %d in the last quarter, %d in the second", q4.fds, q2.fds);
    row(end.fds <= start.fds, "no descriptor left: %d at the end, %d at start", end.fds, start.fds);
    row(end.threads == start.threads, "no thread left: %d at the end, %d at start", end.threads, start.threads);
    int reaped = waitpid(-1, NULL, WNOHANG);
    row(end.children == 0 && reaped == -1 && errno == ECHILD, "no child process left (no DealerServer, no watcher)");
    row(end.semaphores == 0, "no POSIX semaphore of this process left in /dev/shm");
    printf("%d passed, %d failed\n", passed, failed);

    latency_free(soak->latency);
    references_free(soak->references);
    corpus_free(&soak->corpus);
    free(samples);
    free(soak);
    return failed ? 1 : 0;
}

/*
 * The library's threads, for ThreadSanitizer (`make tsan`; also an ordinary test): what a
 * server does with sessions on many threads, each run itself on several threads.
 *
 *   - sessions on many threads: 8 threads serve 32 requests at once (ChaCha dealing in parallel
 *     on 2 to 4 workers, drand48 and glibc, PBN, CSV, statistics, a next-deal loop with compiled
 *     expressions, an in-process usereval metric); each output equals the request's solo run;
 *   - double dummy on 2 and 3 solver threads (drand48 dealing ahead, ChaCha, a condition and an
 *     action that solve), two sessions at a time: the same output as on 1 thread;
 *   - interrupts from other threads at random moments (two interrupters racing on one run as
 *     well), the session freed by its thread right after: whole lines, the interrupted status;
 *   - output and metric callbacks: called on the thread that runs the session, never on a
 *     worker; a callback that stops the run while the workers deal, then the session runs again.
 *
 * `test_threads_tsan --canary` races on purpose (two threads write one int) and must be
 * reported: `make tsan` runs it first to prove the sanitizer is live.
 * Prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dealer.h"
#include "thread_checks.h"

/* ---- Output kept by callbacks, with the thread that called. ---- */

/* What a session wrote to one stream, and whether every call came from `owner`. */
struct capture {
    char *data;
    size_t len, cap;
    pthread_t owner;
    int calls, foreign_calls;
    int stop_after; /* >0: the call after that many returns 1 (stops the run) */
};

static int append(struct capture *c, const void *data, size_t len) {
    if (c->len + len + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (c->len + len + 1 > cap) cap *= 2;
        char *p = realloc(c->data, cap);
        if (!p) return 1;
        c->data = p;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    c->data[c->len] = 0;
    return 0;
}

static int32_t capture_fn(const uint8_t *data, uintptr_t len, void *userdata) {
    struct capture *c = userdata;
    if (!pthread_equal(pthread_self(), c->owner)) c->foreign_calls++;
    if (c->stop_after > 0 && c->calls >= c->stop_after) return 1;
    c->calls++;
    return append(c, data, len);
}

static void capture_free(struct capture *c) {
    free(c->data);
    memset(c, 0, sizeof *c);
}

/* The footer's "Time needed …" line becomes "Time needed (masked)": the one line that may differ. */
static void mask_time(struct capture *c) {
    char *line = c->data;
    while (line && (line = strstr(line, "Time needed")) != NULL) {
        if (line == c->data || line[-1] == '\n') {
            char *end = strchr(line, '\n');
            size_t tail = end ? strlen(end) : 0;
            static const char masked[] = "Time needed (masked)";
            memmove(line + sizeof masked - 1, end ? end : line + strlen(line), tail + 1);
            memcpy(line, masked, sizeof masked - 1);
            c->len = strlen(c->data);
        }
        line += 1;
    }
}

/* ---- Requests. ---- */

enum mode { RUN, NEXT_DEAL_LOOP };

/* One server request: a script, its options, and how it is run. */
struct request {
    const char *name;
    enum mode mode;
    int32_t dialect, generator;
    int64_t seed;
    uint32_t threads;
    int usereval; /* 1: the in-process metric answers usereval */
    const char *script;
};

/* What a request gave. */
struct answer {
    struct capture out, diag;
    int32_t status;
    int foreign_metric_calls;
};

/* A usereval metric: results[0] is the side's high-card points. Counts calls from a thread
 * other than the session's. */
struct metric { pthread_t owner; int foreign_calls; };

static int32_t metric_fn(const dealer_usereval_query *query, const dealer_deal *deal, const dealer_hand_stats *stats,
                         int32_t *results, void *userdata) {
    struct metric *m = userdata;
    (void)deal;
    if (!pthread_equal(pthread_self(), m->owner)) m->foreign_calls++;
    for (int i = 0; i < 128; i++) results[i] = 0;
    results[0] = query->side == 0 ? stats[0].total_hcp + stats[2].total_hcp : stats[1].total_hcp + stats[3].total_hcp;
    return 0;
}

static const struct request requests[] = {
    {"chacha-4-workers", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 101, 4, 0,
     "generate 20000\nproduce 25\ncondition hcp(north) >= 12 && spades(south) >= 4\naction printoneline\n"},
    {"chacha-3-workers-pbn-stats", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 102, 3, 0,
     "produce 8\ncondition shape(west, any 5431 + any 5422) || losers(east) <= 6\n"
     "action printpbn, average \"hcp\" hcp(south), frequency \"hearts\" (hearts(north), 0, 13)\n"},
    {"chacha-2-workers-csv", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 103, 2, 0,
     "produce 6\ncondition controls(north) >= 4\naction csvrpt(deal, hcp(north)), printoneline\n"},
    {"drand48-printall", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_DRAND48, 104, 2, 0,
     "produce 4\ncondition hcp(east) >= 14\naction printall\n"},
    {"glibc-classic", RUN, DEALER_DIALECT_CLASSIC, DEALER_GENERATOR_GLIBC, 105, 2, 0,
     "produce 6\ncondition hcp(north) + hcp(south) >= 25\naction printoneline, average hcp(west)\n"},
    {"next-deal-loop-4", NEXT_DEAL_LOOP, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 106, 4, 0,
     "produce 40\nlong = spades(south) >= 5 || hearts(south) >= 5\ncondition hcp(south) >= 10 && long\n"},
    {"usereval-in-process", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 107, 3, 1,
     "produce 5\ncondition usereval(7, NS, 0) >= 26\naction printoneline\n"},
};
enum { NREQUESTS = sizeof requests / sizeof requests[0] };

/* The next-deal loop: each deal as PBN with its expressions' values, one line per deal. */
static int32_t next_deal_loop(dealer_session *s, struct answer *a) {
    static const char *const expressions[] = {"hcp(south)", "long", "losers(south)", "hcp(north) + hcp(south)"};
    uint32_t ids[4];
    for (int i = 0; i < 4; i++)
        if (dealer_compile_expression(s, expressions[i], &ids[i]) != DEALER_OK) return DEALER_ERROR_SCRIPT;
    dealer_deal d;
    int32_t status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        char line[256];
        size_t len = dealer_deal_to_pbn(&d, line, sizeof line);
        if (len >= sizeof line) return DEALER_ERROR_INTERNAL;
        for (int i = 0; i < 4; i++) {
            int32_t v;
            if ((status = dealer_eval_compiled(s, ids[i], &v)) != DEALER_OK) return status;
            len += (size_t)snprintf(line + len, sizeof line - len, " %d", (int)v);
        }
        line[len++] = '\n';
        if (append(&a->out, line, len)) return DEALER_ERROR_INTERNAL;
    }
    return status == DEALER_DONE ? DEALER_OK : status;
}

/* Runs `r` in a new session on this thread (with `threads` instead of r->threads when not 0). */
static void serve(const struct request *r, uint32_t threads, struct answer *a) {
    memset(a, 0, sizeof *a);
    a->out.owner = a->diag.owner = pthread_self();
    struct metric m = {pthread_self(), 0};
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) { a->status = DEALER_ERROR_INTERNAL; return; }
    int32_t st = dealer_set_dialect(s, r->dialect);
    if (st == DEALER_OK) st = dealer_set_generator(s, r->generator);
    if (st == DEALER_OK) st = dealer_set_seed(s, r->seed);
    if (st == DEALER_OK) st = dealer_set_threads(s, threads ? threads : r->threads);
    if (st == DEALER_OK) st = dealer_set_option(s, "dds_table_mb", "16");
    if (st == DEALER_OK) st = dealer_set_option(s, "pbn_date", "2026.05.17");
    if (st == DEALER_OK && r->usereval) st = dealer_set_usereval(s, metric_fn, &m);
    if (st == DEALER_OK) st = dealer_set_output(s, DEALER_STREAM_OUTPUT, capture_fn, &a->out);
    if (st == DEALER_OK) st = dealer_set_output(s, DEALER_STREAM_DIAGNOSTICS, capture_fn, &a->diag);
    if (st == DEALER_OK) st = dealer_load_script(s, (const uint8_t *)r->script, strlen(r->script));
    if (st == DEALER_OK) st = r->mode == RUN ? dealer_run(s, NULL) : next_deal_loop(s, a);
    if (st != DEALER_OK) fprintf(stderr, "%s: status %d: %s\n", r->name, (int)st, dealer_last_error(s));
    a->status = st;
    a->foreign_metric_calls = m.foreign_calls;
    dealer_free_session(s);
    mask_time(&a->out);
}

static void answer_free(struct answer *a) {
    capture_free(&a->out);
    capture_free(&a->diag);
}

/* `b` is `a`'s request served again: the same status and bytes, every callback on its thread. */
static void check_same(const char *name, const struct answer *a, const struct answer *b) {
    int same = a->out.len == b->out.len && (a->out.len == 0 || memcmp(a->out.data, b->out.data, a->out.len) == 0) &&
               a->diag.len == b->diag.len && (a->diag.len == 0 || memcmp(a->diag.data, b->diag.data, a->diag.len) == 0);
    if (!same) fprintf(stderr, "%s: the output differs from the reference run\n", name);
    CHECK(b->status == DEALER_OK && a->status == DEALER_OK);
    CHECK(same);
    CHECK(b->out.len > 0);
    CHECK(b->out.foreign_calls == 0 && b->diag.foreign_calls == 0 && b->foreign_metric_calls == 0);
}

/* ---- Sessions on many threads. ---- */

enum { WORKERS = 8, PER_WORKER = 4 };

static struct answer references[NREQUESTS];

struct worker { int index; struct answer answers[PER_WORKER]; };

static void *worker_main(void *arg) {
    struct worker *w = arg;
    for (int k = 0; k < PER_WORKER; k++) serve(&requests[(w->index + k * 3) % NREQUESTS], 0, &w->answers[k]);
    return NULL;
}

static void test_sessions_on_many_threads(void) {
    for (int i = 0; i < NREQUESTS; i++) {
        serve(&requests[i], 0, &references[i]);
        CHECK(references[i].status == DEALER_OK && references[i].out.len > 0);
    }
    static struct worker workers[WORKERS];
    pthread_t threads[WORKERS];
    int started[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        workers[w].index = w;
        started[w] = pthread_create(&threads[w], NULL, worker_main, &workers[w]) == 0;
    }
    for (int w = 0; w < WORKERS; w++) {
        CHECK(started[w]);
        if (started[w]) pthread_join(threads[w], NULL);
    }
    for (int w = 0; w < WORKERS; w++)
        for (int k = 0; k < PER_WORKER; k++) {
            int r = (w + k * 3) % NREQUESTS;
            if (started[w]) check_same(requests[r].name, &references[r], &workers[w].answers[k]);
            answer_free(&workers[w].answers[k]);
        }
    for (int i = 0; i < NREQUESTS; i++) answer_free(&references[i]);
}

/* ---- Double dummy on several solver threads. ---- */

static const struct request dd_requests[] = {
    {"dd-condition-drand48-ahead", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_DRAND48, 201, 0, 0,
     "generate 15\nproduce 2\ncondition hcp(north) >= 11 && tricks(north, notrump) >= 7\naction printoneline\n"},
    {"dd-condition-chacha", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 202, 0, 0,
     "generate 15\nproduce 2\ncondition hcp(south) >= 11 && tricks(south, spades) >= 6\naction printoneline\n"},
    {"dd-action-chacha", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 203, 0, 0,
     "produce 3\ncondition hcp(east) >= 12\naction printoneline(dds(east, hearts))\n"},
};
enum { NDD = sizeof dd_requests / sizeof dd_requests[0] };

struct dd_job { const struct request *request; uint32_t threads; struct answer answer; };

static void *dd_job_main(void *arg) {
    struct dd_job *j = arg;
    serve(j->request, j->threads, &j->answer);
    return NULL;
}

static void test_double_dummy_threads(void) {
    for (int i = 0; i < NDD; i++) {
        struct answer one;
        serve(&dd_requests[i], 1, &one);
        CHECK(one.status == DEALER_OK);
        /* 2 and 3 solver threads, the two sessions at the same time. */
        struct dd_job jobs[2];
        memset(jobs, 0, sizeof jobs);
        jobs[0].request = jobs[1].request = &dd_requests[i];
        jobs[0].threads = 2;
        jobs[1].threads = 3;
        pthread_t threads[2];
        int started[2];
        for (int k = 0; k < 2; k++) started[k] = pthread_create(&threads[k], NULL, dd_job_main, &jobs[k]) == 0;
        for (int k = 0; k < 2; k++) {
            CHECK(started[k]);
            if (started[k]) {
                pthread_join(threads[k], NULL);
                check_same(dd_requests[i].name, &one, &jobs[k].answer);
            }
            answer_free(&jobs[k].answer);
        }
        answer_free(&one);
    }
}

/* ---- Interrupts from other threads. ---- */

/* A long run, interrupted after `delay_ms` by one or two other threads. */
struct interrupted {
    const char *script;
    int32_t generator;
    uint32_t threads, delay_ms;
    int interrupters; /* 1 or 2 threads call dealer_interrupt at once */
    struct capture out;
    int32_t status;
    dealer_interrupter *interrupter;
    dealer_session *session;
    pthread_mutex_t ready_lock;
    pthread_cond_t ready;
    int is_ready;
    double returned_after; /* seconds from the start of the run to its return */
};

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void sleep_ms(unsigned ms) {
    struct timespec pause = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

static void *interrupter_main(void *arg) {
    struct interrupted *r = arg;
    pthread_mutex_lock(&r->ready_lock);
    while (!r->is_ready) pthread_cond_wait(&r->ready, &r->ready_lock);
    pthread_mutex_unlock(&r->ready_lock);
    sleep_ms(r->delay_ms);
    dealer_interrupt(r->interrupter);
    return NULL;
}

/* The session's own thread: creates it, hands out its interrupter, runs, frees it at once. */
static void *interrupted_main(void *arg) {
    struct interrupted *r = arg;
    r->out.owner = pthread_self();
    dealer_session *s = NULL;
    int ok = dealer_create_session(&s) == DEALER_OK;
    ok = ok && dealer_set_generator(s, r->generator) == DEALER_OK && dealer_set_seed(s, 9) == DEALER_OK;
    ok = ok && dealer_set_threads(s, r->threads) == DEALER_OK && dealer_set_option(s, "dds_table_mb", "16") == DEALER_OK;
    ok = ok && dealer_set_output(s, DEALER_STREAM_OUTPUT, capture_fn, &r->out) == DEALER_OK;
    ok = ok && dealer_load_script(s, (const uint8_t *)r->script, strlen(r->script)) == DEALER_OK;
    ok = ok && dealer_create_interrupter(s, &r->interrupter) == DEALER_OK;
    CHECK(ok);
    pthread_mutex_lock(&r->ready_lock);
    r->is_ready = 1;
    pthread_cond_broadcast(&r->ready);
    pthread_mutex_unlock(&r->ready_lock);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    r->status = ok ? dealer_run(s, NULL) : DEALER_ERROR_INTERNAL;
    r->returned_after = seconds_since(&start);
    dealer_free_session(s);
    return NULL;
}

static void test_interrupts(void) {
    static const char parallel_dealing[] = "generate 100000000\nproduce 100000000\ncondition hcp(north) >= 10\naction printoneline\n";
    static const char dd_ahead[] = "generate 100000000\nproduce 100000000\ncondition tricks(south, notrump) >= 6\naction printoneline\n";
    struct interrupted runs[] = {
        {parallel_dealing, DEALER_GENERATOR_CHACHA, 4, 50, 1, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
        {parallel_dealing, DEALER_GENERATOR_CHACHA, 2, 5, 2, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
        {parallel_dealing, DEALER_GENERATOR_CHACHA, 3, 0, 2, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
        {parallel_dealing, DEALER_GENERATOR_DRAND48, 2, 30, 1, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
        {dd_ahead, DEALER_GENERATOR_DRAND48, 2, 200, 1, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
        {dd_ahead, DEALER_GENERATOR_CHACHA, 3, 150, 2, {0}, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0},
    };
    enum { NRUNS = sizeof runs / sizeof runs[0] };
    pthread_t runners[NRUNS], interrupters[NRUNS][2];
    int started[NRUNS], istarted[NRUNS][2];
    /* All runs at once, each with its interrupters. */
    for (int i = 0; i < NRUNS; i++) {
        runs[i].status = -100;
        started[i] = pthread_create(&runners[i], NULL, interrupted_main, &runs[i]) == 0;
        for (int k = 0; k < 2; k++)
            istarted[i][k] = k < runs[i].interrupters && pthread_create(&interrupters[i][k], NULL, interrupter_main, &runs[i]) == 0;
    }
    for (int i = 0; i < NRUNS; i++) {
        CHECK(started[i]);
        for (int k = 0; k < 2; k++)
            if (istarted[i][k]) pthread_join(interrupters[i][k], NULL);
        if (started[i]) pthread_join(runners[i], NULL);
        CHECK(runs[i].status == DEALER_INTERRUPTED);
        /* Whole lines only (possibly none when the interrupt came first). */
        CHECK(runs[i].out.len == 0 || runs[i].out.data[runs[i].out.len - 1] == '\n');
        CHECK(runs[i].out.foreign_calls == 0);
        if (runs[i].status != DEALER_INTERRUPTED) fprintf(stderr, "interrupt run %d: status %d\n", i, (int)runs[i].status);
        printf("interrupt run %d (%u threads, after %u ms): returned after %.2f s\n", i, runs[i].threads, runs[i].delay_ms,
               runs[i].returned_after);
        dealer_interrupt(runs[i].interrupter); /* the session is gone: nothing happens */
        dealer_free_interrupter(runs[i].interrupter);
        capture_free(&runs[i].out);
    }
}

/* ---- A callback that stops the run while the workers deal. ---- */

static void test_callback_stops_parallel_run(void) {
    static const char script[] = "generate 1000000\nproduce 100000\naction printoneline\n";
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK);
    struct capture out = {0};
    out.owner = pthread_self();
    out.stop_after = 20;
    CHECK(dealer_set_threads(s, 4) == DEALER_OK && dealer_set_seed(s, 5) == DEALER_OK);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture_fn, &out) == DEALER_OK);
    CHECK(dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO);
    CHECK(out.calls == 20 && out.foreign_calls == 0);
    /* The same session runs again, to the end. */
    static const char small[] = "produce 10\naction printoneline\n";
    capture_free(&out);
    out.owner = pthread_self();
    CHECK(dealer_load_script(s, (const uint8_t *)small, strlen(small)) == DEALER_OK);
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_OK && report.produced == 10 && out.foreign_calls == 0);
    int deal_lines = 0;
    for (const char *p = out.data; p && (p = strstr(p, "n ")) != NULL; p++)
        if (p == out.data || p[-1] == '\n') deal_lines++;
    CHECK(deal_lines == 10);
    dealer_free_session(s);
    capture_free(&out);
}

/* ---- The canary: a race the sanitizer must report. ---- */

static void *racer(void *arg) {
    int *shared = arg;
    for (int i = 0; i < 1000; i++) *shared += 1;
    return NULL;
}

static int canary(void) {
    int *shared = calloc(1, sizeof *shared);
    pthread_t a, b;
    if (!shared || pthread_create(&a, NULL, racer, shared) != 0 || pthread_create(&b, NULL, racer, shared) != 0) return 2;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("canary: %d\n", *shared);
    free(shared);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--canary") == 0) return canary();
    static const struct { const char *name; void (*run)(void); } sections[] = {
        {"sessions on many threads", test_sessions_on_many_threads},
        {"double dummy on several solver threads", test_double_dummy_threads},
        {"interrupts from other threads", test_interrupts},
        {"a callback stops a parallel run", test_callback_stops_parallel_run},
    };
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        sections[i].run();
        clock_gettime(CLOCK_MONOTONIC, &end);
        printf("%s: %.1f s\n", sections[i].name, (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/*
 * Sessions are independent: several jobs, each with its own session, seed, generator, dialect
 * and script, are first run one after the other (solo), then all at once on their own threads,
 * twice. Every parallel output must be byte-identical to the job's solo output (and not
 * empty). Built against the shared and the static library by the Makefile (with -pthread).
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

/* A growing byte buffer, NUL-terminated. */
struct buffer { char *data; size_t len, cap; };

static int append(struct buffer *b, const void *data, size_t len) {
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + len + 1 > cap) cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p) return 1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

static int32_t capture(const uint8_t *data, size_t len, void *userdata) {
    return append(userdata, data, len);
}

/* The footer's "Time needed    0.012 sec" is the only output that may differ between runs: the
 * whole line becomes "Time needed (masked)". Masking only the digits is not enough: the field's
 * width is fixed, so a longer time has fewer blanks ("Time needed   12.345 sec" under valgrind
 * on a busy machine). */
static void mask_time(struct buffer *b) {
    static const char label[] = "Time needed";
    struct buffer masked = {0};
    const char *p = b->data ? b->data : "";
    while (*p) {
        size_t len = strcspn(p, "\n");
        int is_time = strncmp(p, label, sizeof label - 1) == 0;
        if (is_time) append(&masked, "Time needed (masked)", strlen("Time needed (masked)"));
        else append(&masked, p, len);
        if (p[len]) append(&masked, "\n", 1);
        p += len + (p[len] ? 1 : 0);
    }
    free(b->data);
    *b = masked;
}

/* Prints the first line where two outputs differ (with its number), or where one ends. */
static void print_first_difference(const char *name, const struct buffer *a, const struct buffer *b) {
    const char *p = a->data ? a->data : "", *q = b->data ? b->data : "";
    int line = 1;
    for (;;) {
        size_t la = strcspn(p, "\n"), lb = strcspn(q, "\n");
        if (la != lb || memcmp(p, q, la) != 0 || (p[la] == 0) != (q[lb] == 0)) {
            fprintf(stderr, "%s: first difference at line %d:\n  solo:     %.*s%s\n  parallel: %.*s%s\n", name, line,
                    (int)la, p, p[la] || la ? "" : "(end of output)", (int)lb, q, q[lb] || lb ? "" : "(end of output)");
            return;
        }
        if (p[la] == 0) return;
        p += la + 1;
        q += lb + 1;
        line++;
    }
}

enum mode { RUN, NEXT_DEAL_LOOP };

struct job {
    const char *name;
    enum mode mode;
    int32_t dialect, generator;
    int64_t seed;
    uint32_t threads; /* double-dummy solver threads; 0 leaves the default */
    const char *script;
    const char *expressions[6]; /* NEXT_DEAL_LOOP: evaluated with dealer_eval_compiled */
    /* Results of one execution. */
    struct buffer out, diag;
    int32_t status;
    dealer_run_report report;
    int deals;
};

static const struct job job_templates[] = {
    {"dds-v2-drand48-threads1", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_DRAND48, 11, 1,
     "generate 200\nproduce 3\ncondition hcp(north) >= 15\naction printoneline(dds(south, notrump))\n",
     {NULL}, {0}, {0}, 0, {0}, 0},
    {"dds-v2-drand48-threads2", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_DRAND48, 11, 2,
     "generate 200\nproduce 3\ncondition hcp(north) >= 15\naction printoneline(dds(south, notrump))\n",
     {NULL}, {0}, {0}, 0, {0}, 0},
    {"classic-glibc-printall", RUN, DEALER_DIALECT_CLASSIC, DEALER_GENERATOR_GLIBC, 5, 0,
     "produce 12\ncondition hcp(north) >= 12 && shape(south, any 4432 + any 5332)\naction printall\n",
     {NULL}, {0}, {0}, 0, {0}, 0},
    {"v2-chacha-pbn-average", RUN, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 77, 0,
     "produce 8\nnt = hcp(north) >= 15 && hcp(north) <= 17\ncondition nt\n"
     "action printpbn, average \"south hcp\" hcp(south), frequency \"spades\" (spades(south), 0, 13)\n",
     {NULL}, {0}, {0}, 0, {0}, 0},
    {"next-deal-eval-compiled", NEXT_DEAL_LOOP, DEALER_DIALECT_V2, DEALER_GENERATOR_CHACHA, 2024, 0,
     "produce 150\nlong = spades(south) >= 5 || hearts(south) >= 5\ncondition hcp(south) >= 10 && long\n",
     {"hcp(south)", "long", "losers(south)", "shape(north, any 4333)", "hcp(north) + hcp(south)", NULL},
     {0}, {0}, 0, {0}, 0},
};
enum { NJOBS = sizeof job_templates / sizeof job_templates[0] };

static void job_reset(struct job *j) {
    free(j->out.data);
    free(j->diag.data);
    memset(&j->out, 0, sizeof j->out);
    memset(&j->diag, 0, sizeof j->diag);
    j->status = -100;
    j->deals = 0;
    memset(&j->report, 0, sizeof j->report);
}

/* The next-deal loop: one text line per deal, written to j->out. */
static int32_t next_deal_loop(dealer_session *s, struct job *j) {
    uint32_t ids[6];
    int n = 0;
    for (; j->expressions[n]; n++)
        if (dealer_compile_expression(s, j->expressions[n], &ids[n]) != DEALER_OK) return DEALER_ERROR_SCRIPT;
    dealer_deal d;
    int32_t status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        char line[256];
        size_t len = dealer_deal_to_pbn(&d, line, sizeof line);
        if (len >= sizeof line) return DEALER_ERROR_INTERNAL;
        for (int i = 0; i < n; i++) {
            int32_t v;
            if ((status = dealer_eval_compiled(s, ids[i], &v)) != DEALER_OK) return status;
            len += (size_t)snprintf(line + len, sizeof line - len, " %d", (int)v);
        }
        line[len++] = '\n';
        if (append(&j->out, line, len)) return DEALER_ERROR_INTERNAL;
        j->deals++;
    }
    return status == DEALER_DONE ? DEALER_OK : status;
}

static void *run_job(void *arg) {
    struct job *j = arg;
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) { j->status = DEALER_ERROR_INTERNAL; return NULL; }
    int32_t st = dealer_set_dialect(s, j->dialect);
    if (st == DEALER_OK) st = dealer_set_generator(s, j->generator);
    if (st == DEALER_OK) st = dealer_set_seed(s, j->seed);
    if (st == DEALER_OK && j->threads) st = dealer_set_threads(s, j->threads);
    if (st == DEALER_OK) st = dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &j->out);
    if (st == DEALER_OK) st = dealer_set_output(s, DEALER_STREAM_DIAGNOSTICS, capture, &j->diag);
    if (st == DEALER_OK) st = dealer_load_script(s, (const uint8_t *)j->script, strlen(j->script));
    if (st == DEALER_OK) {
        if (j->mode == RUN) {
            j->report.size = sizeof j->report;
            st = dealer_run(s, &j->report);
        } else {
            st = next_deal_loop(s, j);
        }
    }
    if (st != DEALER_OK) fprintf(stderr, "%s: status %d: %s\n", j->name, (int)st, dealer_last_error(s));
    j->status = st;
    dealer_free_session(s);
    return NULL;
}

static struct job solo[NJOBS], para[NJOBS];

static void compare(const struct job *a, const struct job *b, int round) {
    int same_out = a->out.len == b->out.len && memcmp(a->out.data, b->out.data, a->out.len) == 0;
    int same_diag = a->diag.len == b->diag.len && (a->diag.len == 0 || memcmp(a->diag.data, b->diag.data, a->diag.len) == 0);
    if (!same_out || !same_diag) fprintf(stderr, "%s: parallel round %d differs from the solo run\n", a->name, round);
    if (!same_out) print_first_difference(a->name, &a->out, &b->out);
    if (!same_diag) print_first_difference(a->name, &a->diag, &b->diag);
    CHECK(b->status == DEALER_OK);
    CHECK(same_out);
    CHECK(same_diag);
    CHECK(a->report.generated == b->report.generated && a->report.produced == b->report.produced &&
          a->report.seed == b->report.seed);
    CHECK(a->deals == b->deals);
}

/* Output of an interrupted run. */
struct interrupted_run { dealer_session *session; struct buffer out; int32_t status; };

static int32_t keep_output(const uint8_t *data, size_t len, void *userdata) {
    return append(userdata, data, len);
}

static void *run_until_interrupted(void *arg) {
    struct interrupted_run *r = arg;
    r->status = dealer_run(r->session, NULL);
    return NULL;
}

/* Another thread interrupts a long run (on two dealing threads): the run returns
 * DEALER_INTERRUPTED, and the output it wrote ends with a complete line; the interrupter
 * outlives the session. */
static void test_interrupt_from_another_thread(void) {
    static const char script[] = "generate 100000000\nproduce 100000000\naction printoneline\n";
    struct interrupted_run r;
    memset(&r, 0, sizeof r);
    CHECK(dealer_create_session(&r.session) == DEALER_OK);
    CHECK(dealer_set_seed(r.session, 3) == DEALER_OK && dealer_set_threads(r.session, 2) == DEALER_OK);
    CHECK(dealer_load_script(r.session, (const uint8_t *)script, strlen(script)) == DEALER_OK);
    CHECK(dealer_set_output(r.session, DEALER_STREAM_OUTPUT, keep_output, &r.out) == DEALER_OK);
    dealer_interrupter *interrupter = NULL;
    CHECK(dealer_create_interrupter(r.session, &interrupter) == DEALER_OK && interrupter != NULL);
    pthread_t runner;
    r.status = -100;
    int started = pthread_create(&runner, NULL, run_until_interrupted, &r) == 0;
    CHECK(started);
    struct timespec pause = { 0, 300 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    dealer_interrupt(interrupter);
    if (started) pthread_join(runner, NULL);
    CHECK(r.status == DEALER_INTERRUPTED);
    CHECK(strcmp(dealer_last_error(r.session), "interrupted") == 0);
    CHECK(dealer_last_error_exit_code(r.session) == 130);
    CHECK(r.out.len > 77 * 100 && r.out.len % 77 == 0 && r.out.data[r.out.len - 1] == '\n');
    dealer_free_session(r.session);
    dealer_interrupt(interrupter);
    dealer_free_interrupter(interrupter);
    dealer_interrupt(NULL);
    dealer_free_interrupter(NULL);
    free(r.out.data);
}

/* The mask hides the footer's time whatever its width: a 10-second run under valgrind prints
 * one blank fewer than a 1-second one. */
static void test_mask_time(void) {
    struct buffer fast = {0}, slow = {0};
    const char *a = "Produced 3 hands\nTime needed    0.012 sec\n", *b = "Produced 3 hands\nTime needed   12.345 sec\n";
    append(&fast, a, strlen(a));
    append(&slow, b, strlen(b));
    mask_time(&fast);
    mask_time(&slow);
    CHECK(fast.len == slow.len && strcmp(fast.data, "Produced 3 hands\nTime needed (masked)\n") == 0 &&
          strcmp(fast.data, slow.data) == 0);
    free(fast.data);
    free(slow.data);
}

int main(void) {
    test_mask_time();
    test_interrupt_from_another_thread();
    /* Solo: one job after the other. */
    for (int i = 0; i < NJOBS; i++) {
        solo[i] = job_templates[i];
        job_reset(&solo[i]);
        run_job(&solo[i]);
        mask_time(&solo[i].out);
        CHECK(solo[i].status == DEALER_OK);
        CHECK(solo[i].out.len > 0);
        CHECK(solo[i].diag.len == 0);
    }
    /* What the solo outputs must contain. */
    const struct job *dd1 = &solo[0], *dd2 = &solo[1], *classic = &solo[2], *pbn = &solo[3], *loop = &solo[4];
    CHECK(dd1->report.produced == 3 && dd1->report.generated <= 200 && dd1->report.seed == 11);
    CHECK(strstr(dd1->out.data, "\nProduced  3 hands\n") != NULL);
    int dd_lines = 0;
    for (const char *p = dd1->out.data; (p = strstr(p, "n ")) != NULL; p++) {
        if (p != dd1->out.data && p[-1] != '\n') continue;
        const char *end = strchr(p, '\n');
        /* "n <hand> e <hand> s <hand> w <hand> <tricks>" */
        const char *w = strstr(p, " w ");
        const char *tricks = w ? strchr(w + 3, ' ') : NULL;
        int t = tricks ? atoi(tricks + 1) : -1;
        CHECK(end && w && tricks && tricks < end && t >= 0 && t <= 13);
        dd_lines++;
    }
    CHECK(dd_lines == 3);
    /* The number of solver threads does not change the output. */
    CHECK(dd1->out.len == dd2->out.len && memcmp(dd1->out.data, dd2->out.data, dd1->out.len) == 0);
    CHECK(classic->report.produced == 12 && classic->report.seed == 5);
    CHECK(strncmp(classic->out.data, "   1.\n", 6) == 0 && strstr(classic->out.data, "\n  12.\n") != NULL);
    CHECK(strstr(classic->out.data, "\nProduced 12 hands\nInitial random seed 5\n") != NULL);
    CHECK(pbn->report.produced == 8);
    CHECK(strncmp(pbn->out.data, "[Event ", 7) == 0 && strstr(pbn->out.data, "[Board \"8\"]") != NULL);
    CHECK(strstr(pbn->out.data, "south hcp: ") != NULL);
    CHECK(loop->deals == 150);
    CHECK(strncmp(loop->out.data, "N:", 2) == 0);

    /* Parallel, twice: every job on its own thread at the same time. */
    for (int round = 1; round <= 2; round++) {
        pthread_t threads[NJOBS];
        int started[NJOBS];
        for (int i = 0; i < NJOBS; i++) {
            job_reset(&para[i]);
            para[i] = job_templates[i];
            memset(&para[i].out, 0, sizeof para[i].out);
            memset(&para[i].diag, 0, sizeof para[i].diag);
            para[i].status = -100;
        }
        for (int i = 0; i < NJOBS; i++) started[i] = pthread_create(&threads[i], NULL, run_job, &para[i]) == 0;
        for (int i = 0; i < NJOBS; i++) {
            CHECK(started[i]);
            if (started[i]) pthread_join(threads[i], NULL);
        }
        for (int i = 0; i < NJOBS; i++) {
            mask_time(&para[i].out);
            compare(&solo[i], &para[i], round);
        }
    }
    for (int i = 0; i < NJOBS; i++) {
        job_reset(&solo[i]);
        job_reset(&para[i]);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

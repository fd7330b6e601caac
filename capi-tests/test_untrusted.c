/*
 * C tests of the `untrusted` option and the run ceilings, through include/dealer.h only. Built
 * against the shared and the static library by the Makefile (`untrusted`, part of `run`).
 * Prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dealer.h"

static int passed, failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) passed++;                                                    \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

/* Output collected in a growing buffer (NUL-terminated). */
struct output { char *data; size_t len, cap; };

static int32_t collect(const uint8_t *data, size_t len, void *userdata) {
    struct output *o = userdata;
    if (o->len + len + 1 > o->cap) {
        size_t cap = (o->len + len + 1) * 2;
        char *bigger = realloc(o->data, cap);
        if (!bigger) return 1;
        o->data = bigger;
        o->cap = cap;
    }
    memcpy(o->data + o->len, data, len);
    o->len += len;
    o->data[o->len] = 0;
    return 0;
}

/* A session with `untrusted` on, the options given (key, value, …, NULL) and its output
 * collected in `out`. */
static dealer_session *untrusted_session(struct output *out, const char *key, ...) {
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) return NULL;
    CHECK(dealer_set_untrusted(s, 1) == DEALER_OK);
    va_list args;
    va_start(args, key);
    for (const char *k = key; k; k = va_arg(args, const char *)) {
        const char *v = va_arg(args, const char *);
        CHECK(dealer_set_option(s, k, v) == DEALER_OK);
    }
    va_end(args);
    out->len = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, collect, out) == DEALER_OK);
    return s;
}

static int load(dealer_session *s, const char *script) {
    return dealer_load_script(s, (const uint8_t *)script, strlen(script));
}

/* Whether every line of `text` (len bytes) is a printoneline deal: 76 characters and a newline. */
static int whole_oneline_deals(const char *text, size_t len) {
    if (len == 0 || len % 77 != 0) return 0;
    for (size_t i = 0; i < len; i += 77)
        if (text[i] != 'n' || text[i + 76] != '\n' || memchr(text + i, '\n', 76) != NULL) return 0;
    return 1;
}

static void test_external_programs_refused(void) {
    struct output out = {0};
    uint32_t line = 0, col = 0;
    dealer_session *s = untrusted_session(&out, "opc_program", "/bin/true", NULL);
    CHECK(load(s, "produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n") == DEALER_ERROR_NOT_ALLOWED);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2 && col == 30);
    CHECK(strstr(dealer_last_error(s), "opc() is not allowed in an untrusted script") != NULL);
    CHECK(strcmp(dealer_last_error_summary(s),
                 "line 2: opc() is not allowed in an untrusted script: it runs an external program") == 0);
    CHECK(dealer_last_error_exit_code(s) == 5);

    /* usereval through a DealerServer: refused when the run starts, before anything is dealt
     * or started (the server path does not even exist). */
    CHECK(dealer_set_option(s, "server", "/nonexistent/DealerServer") == DEALER_OK);
    CHECK(load(s, "produce 1\naction printoneline, printes(usereval(1, NS, 2), \\n)\n") == DEALER_OK);
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_ERROR_NOT_ALLOWED);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2 && col == 30);
    CHECK(out.len == 0);
    dealer_deal deal;
    CHECK(dealer_next_deal(s, &deal) == DEALER_ERROR_NOT_ALLOWED);
    /* Trusted again, the server is started (and cannot be: a run error). */
    CHECK(dealer_set_untrusted(s, 0) == DEALER_OK);
    CHECK(dealer_run(s, &report) == DEALER_ERROR_RUN);
    dealer_free_session(s);
    free(out.data);
}

/* An in-process usereval metric: 7 in every slot. */
static int32_t sevens(const dealer_usereval_query *query, const dealer_deal *deal, const dealer_hand_stats *stats,
                      int32_t *results, void *userdata) {
    (void)query;
    (void)deal;
    (void)stats;
    (void)userdata;
    for (int i = 0; i < 128; i++) results[i] = 7;
    return 0;
}

static void test_in_process_usereval_allowed(void) {
    struct output out = {0};
    dealer_session *s = untrusted_session(&out, "seed", "1", "server", "/nonexistent/DealerServer", NULL);
    CHECK(dealer_set_usereval(s, sevens, NULL) == DEALER_OK);
    CHECK(load(s, "produce 2\ncondition usereval(1, NS, 2) == 7\naction printes(usereval(3, west, 1), \\n)\n") ==
          DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    CHECK(out.len >= 4 && strncmp(out.data, "7\n7\n", 4) == 0);
    int32_t value = 0;
    uint32_t id = 0;
    dealer_deal deal;
    CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
    CHECK(dealer_eval(s, "usereval(2, EW, 5)", &value) == DEALER_OK && value == 7);
    CHECK(dealer_compile_expression(s, "opc(EW)", &id) == DEALER_ERROR_NOT_ALLOWED);
    dealer_free_session(s);
    free(out.data);
}

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void test_ceilings(void) {
    struct output out = {0};
    dealer_run_report report;

    /* The output ceiling's default, 1 MiB: whole deals, then the footer's lines that fit. */
    dealer_session *s = untrusted_session(&out, "seed", "1", "statistics", "false", NULL);
    CHECK(load(s, "produce 100000\naction printoneline\n") == DEALER_OK);
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_CEILING_REACHED);
    CHECK(report.ceiling == DEALER_CEILING_OUTPUT);
    CHECK(report.produced == (1 << 20) / 77 && out.len == (size_t)report.produced * 77);
    CHECK(whole_oneline_deals(out.data, out.len));
    /* Overridden: 12 deals of 77 bytes fit in 1000. */
    CHECK(dealer_set_option(s, "max_output_bytes", "1000") == DEALER_OK);
    out.len = 0;
    CHECK(dealer_run(s, &report) == DEALER_CEILING_REACHED && report.ceiling == DEALER_CEILING_OUTPUT);
    CHECK(report.produced == 12 && out.len == 12 * 77 && whole_oneline_deals(out.data, out.len));
    /* No ceiling: the run goes to its end. */
    CHECK(dealer_set_option(s, "max_output_bytes", "0") == DEALER_OK);
    CHECK(load(s, "produce 20000\naction printoneline\n") == DEALER_OK);
    out.len = 0;
    CHECK(dealer_run(s, &report) == DEALER_OK && report.ceiling == DEALER_CEILING_NONE);
    CHECK(report.produced == 20000 && out.len == 20000 * 77);
    /* A caller built before `ceiling` existed passes the older size: accepted, field untouched. */
    report.size = (uint32_t)offsetof(dealer_run_report, ceiling);
    report.ceiling = -99;
    CHECK(dealer_set_option(s, "max_output_bytes", "default") == DEALER_OK);
    CHECK(load(s, "produce 100000\naction printoneline\n") == DEALER_OK);
    CHECK(dealer_run(s, &report) == DEALER_CEILING_REACHED && report.ceiling == -99);
    CHECK(report.produced == (1 << 20) / 77);
    dealer_free_session(s);

    /* The generate ceiling, overridden; the script's generate above it is capped. */
    s = untrusted_session(&out, "seed", "3", "max_generate", "5000", NULL);
    CHECK(load(s, "generate 100000\ncondition hcp(north) > 37\naction printoneline\n") == DEALER_OK);
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_CEILING_REACHED && report.ceiling == DEALER_CEILING_GENERATE);
    CHECK(report.generated == 5000 && report.produced == 0);
    CHECK(strstr(out.data, "Generated 5000 hands\n") != NULL);
    CHECK(load(s, "generate 4000\ncondition hcp(north) > 37\n") == DEALER_OK);
    CHECK(dealer_run(s, &report) == DEALER_OK && report.ceiling == DEALER_CEILING_NONE);
    dealer_free_session(s);

    /* The time ceiling, overridden: a run that would take hours stops after 0.2 s. */
    s = untrusted_session(&out, "seed", "1", "max_seconds", "0.2", "max_generate", "0", NULL);
    CHECK(load(s, "generate 2000000000\ncondition hcp(north) > 37\n") == DEALER_OK);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    CHECK(dealer_run(s, &report) == DEALER_CEILING_REACHED && report.ceiling == DEALER_CEILING_TIME);
    double elapsed = seconds_since(&start);
    CHECK(elapsed >= 0.2 && elapsed < 3.0);
    CHECK(strstr(out.data, "Produced  0 hands\n") != NULL);
    /* next_deal: each call gets the ceiling. */
    dealer_deal deal;
    CHECK(dealer_next_deal(s, &deal) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "time ceiling of 0.2 s") != NULL);

    /* Bad values are option errors. */
    CHECK(dealer_set_option(s, "max_seconds", "soon") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "max_generate", "-5") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "max_output_bytes", "1e6") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "untrusted", "maybe") == DEALER_ERROR_OPTION);
    dealer_free_session(s);
    free(out.data);
}

int main(void) {
    test_external_programs_refused();
    test_in_process_usereval_allowed();
    test_ceilings();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/*
 * C tests of the libdealer API, through include/dealer.h only. Built twice by the Makefile:
 * against the shared library and against the static one. Prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
/* Windows (mingw-w64, run under Wine by tests/windows.sh): the same tests but for what is
 * POSIX-only (output to descriptors, SIGPIPE, /dev/zero); the folder comes from the system's
 * temporary folder. */
#include <direct.h>
#include <io.h>
#include <windows.h>
#else
#include <sys/socket.h>
#endif

#include "dealer.h"

static int passed, failed;

/* Under valgrind (the Makefile's valgrind runs set CAPI_TEST_UNDER_VALGRIND=1) the double-dummy
 * tests solve one deal where they would solve several: each solve takes seconds there and runs
 * the same code for every deal, and the plain and sanitized runs still solve them all. */
static size_t dd_deals(size_t deals) {
    const char *v = getenv("CAPI_TEST_UNDER_VALGRIND");
    return v != NULL && strcmp(v, "1") == 0 ? 1 : deals;
}

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) passed++;                                                    \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

struct buffer { char data[1 << 16]; size_t len; };

static int32_t capture(const uint8_t *data, size_t len, void *userdata) {
    struct buffer *b = userdata;
    if (b->len + len >= sizeof b->data) return 1;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

/* A fresh, empty folder for this run (mkdtemp in main, removed at the end). The files and
 * programs the tests expect to be missing are named inside it, so nothing installed on the
 * machine can be found there. */
#ifdef _WIN32
static char scratch_dir[MAX_PATH + 32];
#else
static char scratch_dir[] = "/tmp/test_capi_dir_XXXXXX";
#endif

/* Writes scratch_dir/NAME, a path nothing creates, into BUF (MISSING_PATH bytes) and returns
 * BUF. */
#define MISSING_PATH (sizeof scratch_dir + 32)
static const char *missing_path(char *buf, const char *name) {
    snprintf(buf, MISSING_PATH, "%s/%s", scratch_dir, name);
    return buf;
}

static int popcount64(uint64_t v) { int n = 0; while (v) { v &= v - 1; n++; } return n; }

static dealer_session *session_with(const char *rng, const char *seed, const char *script) {
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) return NULL;
    if (rng && dealer_set_option(s, "rng", rng) != DEALER_OK) return NULL;
    if (seed && dealer_set_option(s, "seed", seed) != DEALER_OK) return NULL;
    if (script && dealer_load_script(s, (const uint8_t *)script, strlen(script)) != DEALER_OK) {
        fprintf(stderr, "load failed: %s\n", dealer_last_error(s));
        return NULL;
    }
    return s;
}

static void test_null_and_misuse(void) {
    CHECK(dealer_create_session(NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_set_option(NULL, "seed", "1") == DEALER_ERROR_NULL);
    CHECK(dealer_run(NULL, NULL) == DEALER_ERROR_NULL);
    dealer_free_session(NULL);
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK && s != NULL);
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "no script") != NULL);
    int32_t v;
    CHECK(dealer_eval(s, "hcp(north)", &v) == DEALER_ERROR_USAGE);
    CHECK(dealer_set_option(s, "no_such_option", "1") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "rng", "mersenne") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, NULL, "1") == DEALER_ERROR_NULL);
    CHECK(dealer_set_option(s, "title", "\xff\xfe") == DEALER_ERROR_UTF8);
    CHECK(strstr(dealer_last_error(s), "UTF-8") != NULL);
    CHECK(dealer_next_deal(s, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_load_script(s, NULL, 5) == DEALER_ERROR_NULL);
    char missing[MISSING_PATH];
    CHECK(dealer_load_script_file(s, missing_path(missing, "script.dl")) == DEALER_ERROR_IO);
    dealer_free_session(s);
}

/* dealer_check_script's callback: appends the lines to a buffer. */
struct check_text {
    char text[2048];
    size_t len;
    int calls;
};

static int32_t collect_check(const uint8_t *data, uintptr_t len, void *userdata) {
    struct check_text *t = userdata;
    if (t->len + len >= sizeof t->text) return 1;
    memcpy(t->text + t->len, data, len);
    t->len += len;
    t->text[t->len] = '\0';
    t->calls++;
    return 0;
}

static int32_t refuse_check(const uint8_t *data, uintptr_t len, void *userdata) {
    (void)data, (void)len, (void)userdata;
    return 1;
}

static void test_check_bbo(void) {
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK);
    const char *script = "produce 1 # x\n"
                         "condition dds(north, spades) > 9 && shape{north, 5+s}\n"
                         "action average score(NS, z3N, 9)\n";
    struct check_text t = {{0}, 0, 0};
    CHECK(dealer_check_script(s, (const uint8_t *)script, strlen(script), DEALER_CHECK_BBO, collect_check, &t) == 4);
    CHECK(t.calls == 4);
    CHECK(strcmp(t.text, "1:11: error: `#` not in column 1: classic dealer only reads `#` in column 1 as a comment "
                         "(syntax error here); use `//` or move `#` to column 1\n"
                         "2:11: error: `dds` is DealerV2 only\n"
                         "2:37: error: `shape{\xe2\x80\xa6}` is DealerV2 only\n"
                         "3:26: error: contract `z3N` is DealerV2 only: classic dealer knows `x` contracts without "
                         "doubling (x3N)\n") == 0);
    /* A clean script: no call, 0 errors; warnings are not counted. */
    struct check_text clean = {{0}, 0, 0};
    const char *ok = "# comment\ncondition hcp(north) > 10\n";
    CHECK(dealer_check_script(s, (const uint8_t *)ok, strlen(ok), DEALER_CHECK_BBO, collect_check, &clean) == 0);
    CHECK(clean.calls == 0);
    const char *warn = "condition 1\naction average 3 * 4 / 5\n";
    CHECK(dealer_check_script(s, (const uint8_t *)warn, strlen(warn), DEALER_CHECK_BBO, collect_check, &clean) == 0);
    CHECK(clean.calls == 1 && strncmp(clean.text, "2:16: warning: ", 15) == 0);
    /* NULL callback: just the count. Nothing is loaded. */
    CHECK(dealer_check_script(s, (const uint8_t *)script, strlen(script), DEALER_CHECK_BBO, NULL, NULL) == 4);
    int32_t v = 0;
    CHECK(dealer_eval(s, "1", &v) == DEALER_ERROR_USAGE);
    /* Misuse. */
    CHECK(dealer_check_script(s, (const uint8_t *)ok, strlen(ok), 7, NULL, NULL) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "flavour") != NULL);
    CHECK(dealer_check_script(s, NULL, 3, DEALER_CHECK_BBO, NULL, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_check_script(NULL, (const uint8_t *)ok, strlen(ok), DEALER_CHECK_BBO, NULL, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_check_script(s, (const uint8_t *)script, strlen(script), DEALER_CHECK_BBO, refuse_check, NULL) ==
          DEALER_ERROR_IO);
    CHECK(dealer_check_script(s, NULL, 0, DEALER_CHECK_BBO, NULL, NULL) == 0);
    dealer_free_session(s);
}

static void test_script_error_location(void) {
    dealer_session *s = session_with(NULL, NULL, NULL);
    const char *bad = "produce 3\ncondition hcp(north) > \naction printall\n";
    CHECK(dealer_load_script(s, (const uint8_t *)bad, strlen(bad)) == DEALER_ERROR_SCRIPT);
    uint32_t line = 0, col = 0;
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK);
    CHECK(line == 3);
    CHECK(strcmp(dealer_last_error_summary(s), "line 3: syntax error") == 0);
    CHECK(dealer_last_error_exit_code(s) == 255);
    const char *unknown = "condition foo > 3\n";
    CHECK(dealer_load_script(s, (const uint8_t *)unknown, strlen(unknown)) == DEALER_ERROR_SCRIPT);
    CHECK(strcmp(dealer_last_error_summary(s), "line 1: unknown variable") == 0);
    /* The full message: line, column, the offending text, the line and a caret under it. */
    const char *amp = "produce 3\ncondition hcp(north) &&& 3\n";
    CHECK(dealer_load_script(s, (const uint8_t *)amp, strlen(amp)) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2 && col == 24);
    CHECK(strcmp(dealer_last_error(s), "line 2, column 24: syntax error near '&'\n"
                                       "    condition hcp(north) &&& 3\n"
                                       "                           ^") == 0);
    CHECK(strcmp(dealer_last_error_summary(s), "line 2: syntax error") == 0);
    /* A word where a seat belongs: the peers' one line, and the word named in the full message. */
    const char *nrth = "produce 3\ncondition hcp(nrth) > 10\n";
    CHECK(dealer_load_script(s, (const uint8_t *)nrth, strlen(nrth)) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2 && col == 15);
    CHECK(strcmp(dealer_last_error(s), "line 2, column 15: unknown seat 'nrth' (north, east, south, west)\n"
                                       "    condition hcp(nrth) > 10\n"
                                       "                  ^") == 0);
    CHECK(strcmp(dealer_last_error_summary(s), "line 2: syntax error") == 0);
    /* A misspelled function: the peers' one line, and the word with the nearest function in
     * the full message. */
    const char *shpae = "condition shpae(south, any 4333)\n";
    CHECK(dealer_load_script(s, (const uint8_t *)shpae, strlen(shpae)) == DEALER_ERROR_SCRIPT);
    CHECK(strcmp(dealer_last_error(s), "line 1, column 11: unknown function 'shpae' (did you mean 'shape'?)\n"
                                       "    condition shpae(south, any 4333)\n"
                                       "              ^") == 0);
    CHECK(strcmp(dealer_last_error_summary(s), "line 1: unknown variable") == 0);
    /* A NUL byte inside the length given is an error at its line and column, not the end of
     * the script (the text after it would be ignored). */
    static const char nul[] = "produce 3\naction printoneline\n  \0 condition (((\n";
    CHECK(dealer_load_script(s, (const uint8_t *)nul, sizeof nul - 1) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 3 && col == 3);
    CHECK(strstr(dealer_last_error(s), "NUL byte") != NULL);
    /* A UTF-8 byte-order mark opening the script is skipped. */
    const char *bom = "\xEF\xBB\xBFproduce 2\n";
    CHECK(dealer_load_script(s, (const uint8_t *)bom, strlen(bom)) == DEALER_OK);
    /* A successful call clears the last error. */
    CHECK(dealer_set_seed(s, 1) == DEALER_OK);
    CHECK(strcmp(dealer_last_error(s), "") == 0 && strcmp(dealer_last_error_summary(s), "") == 0);
    dealer_free_session(s);
}

static void test_next_deal_and_eval(void) {
    const char *script = "strong = hcp(north) >= 15\ncondition strong && spades(south) >= 4\nproduce 25\n";
    dealer_session *s = session_with("chacha", "42", script);
    CHECK(s != NULL);
    if (!s) return;
    dealer_deal d;
    int n = 0, status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        uint64_t all = 0;
        int sizes_ok = 1;
        for (int h = 0; h < 4; h++) { all |= d.hands[h]; if (popcount64(d.hands[h]) != 13) sizes_ok = 0; }
        CHECK(sizes_ok && popcount64(all) == 52);
        int32_t hcp = -1, strong = -1;
        CHECK(dealer_eval(s, "hcp(north)", &hcp) == DEALER_OK && hcp >= 15);
        CHECK(dealer_eval(s, "strong", &strong) == DEALER_OK && strong == 1);
        int32_t spades = -1;
        CHECK(dealer_eval(s, "spades(south)", &spades) == DEALER_OK &&
              spades == popcount64((d.hands[2] >> 48) & 0x1FFF));
    }
    CHECK(status == DEALER_DONE);
    CHECK(n == 25);
    int32_t v;
    CHECK(dealer_eval(s, "hcp(north) +", &v) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_eval(s, "nosuchvar", &v) == DEALER_ERROR_SCRIPT);
    /* dealer_eval takes an expression: a statement, even `condition EXPR`, is refused clearly. */
    CHECK(dealer_eval(s, "condition 1", &v) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "line 1, column 1: expected a single expression, not a statement") != NULL);
    CHECK(dealer_eval(s, "  condition hcp(north) > 10", &v) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "column 3: expected a single expression, not a statement") != NULL);
    CHECK(dealer_eval(s, "produce 5", &v) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "not a statement") != NULL);
    uint32_t id;
    CHECK(dealer_compile_expression(s, "condition 1", &id) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "not a statement") != NULL);
    CHECK(dealer_eval(s, "hcp(north)", &v) == DEALER_OK); /* the deal is still current */
    /* Setting the seed, the thread count or the usereval callback ends the job and discards
     * the current deal, as every option does. */
    CHECK(dealer_set_seed(s, 42) == DEALER_OK);
    CHECK(dealer_eval(s, "hcp(north)", &v) == DEALER_ERROR_USAGE);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && dealer_eval(s, "hcp(north)", &v) == DEALER_OK);
    CHECK(dealer_set_threads(s, 2) == DEALER_OK);
    CHECK(dealer_eval(s, "hcp(north)", &v) == DEALER_ERROR_USAGE);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && dealer_eval(s, "hcp(north)", &v) == DEALER_OK);
    CHECK(dealer_set_usereval(s, NULL, NULL) == DEALER_OK);
    CHECK(dealer_eval(s, "hcp(north)", &v) == DEALER_ERROR_USAGE);
    dealer_free_session(s);
}

static void test_reproducible(void) {
    dealer_session *a = session_with("chacha", "7", "produce 10\n");
    dealer_session *b = session_with("chacha", "7", "produce 10\n");
    dealer_deal da, db;
    int same = 1;
    for (int i = 0; i < 10; i++) {
        CHECK(dealer_next_deal(a, &da) == DEALER_OK);
        CHECK(dealer_next_deal(b, &db) == DEALER_OK);
        if (memcmp(&da, &db, sizeof da) != 0) same = 0;
    }
    CHECK(same);
    dealer_free_session(a);
    dealer_free_session(b);
}

/* Whole-number options take a whole number and nothing else: no silent 0 for "abc", no 12 for
 * "12abc". A refused value leaves the option as it was. */
static void test_whole_number_options(void) {
    dealer_session *s = session_with("chacha", "7", "produce 3\n");
    CHECK(s != NULL);
    static const char *const keys[] = {"seed", "generate", "produce", "time_limit"};
    static const char *const bad[] = {"abc", "12abc", "", " 12", "1.5", "99999999999999999999"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        for (size_t v = 0; v < sizeof bad / sizeof *bad; v++) {
            char quoted[64];
            snprintf(quoted, sizeof quoted, "'%s'", bad[v]);
            CHECK(dealer_set_option(s, keys[k], bad[v]) == DEALER_ERROR_OPTION);
            CHECK(strstr(dealer_last_error(s), keys[k]) != NULL && strstr(dealer_last_error(s), quoted) != NULL);
        }
    }
    CHECK(dealer_set_option(s, "seed", "12abc") == DEALER_ERROR_OPTION);
    CHECK(strcmp(dealer_last_error_summary(s),
                 "option seed: expected a whole number from -9223372036854775808 to 9223372036854775807, got '12abc'") == 0);
    /* The seed is still 7: the same deals as a session seeded with 7. */
    dealer_session *seven = session_with("chacha", "7", "produce 3\n");
    dealer_deal a, b;
    CHECK(dealer_next_deal(s, &a) == DEALER_OK && dealer_next_deal(seven, &b) == DEALER_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(dealer_set_option(s, "seed", "-12") == DEALER_OK && dealer_set_option(s, "seed", "+12") == DEALER_OK);
    CHECK(dealer_set_option(s, "time_limit", "-1") == DEALER_ERROR_OPTION);
    /* Every other typed option is as strict (src/job/options.rs tests every key). */
    static const char *const other[][2] = {
        {"generate", "-5"}, {"produce", "-1"}, {"opener", "Q"}, {"debug", "abc"}, {"dds_mode", "3"},
        {"threads", "65"}, {"quiet", "maybe"}, {"export_file", ""}, {"predeal_east", "AK"},
    };
    for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "'%s'", other[k][1]);
        CHECK(dealer_set_option(s, other[k][0], other[k][1]) == DEALER_ERROR_OPTION);
        CHECK(strstr(dealer_last_error(s), other[k][0]) != NULL && strstr(dealer_last_error(s), quoted) != NULL);
    }
    dealer_free_session(seven);
    dealer_free_session(s);
}

/* Seed 0 (or none) means a random seed chosen by each job; dealer_get_seed reads it back, and
 * giving it back deals the same deals. The glibc generator takes 0 as classic dealer does. */
static void test_seed_read_back(void) {
    static const char script[] = "generate 100\n";
    static const char *const generators[] = {"chacha", "drand48"};
    for (size_t g = 0; g < 2; g++) {
        for (int explicit_zero = 0; explicit_zero <= 1; explicit_zero++) {
            dealer_session *s = session_with(generators[g], explicit_zero ? "0" : NULL, script);
            CHECK(s != NULL);
            int64_t seed = -1;
            CHECK(dealer_get_seed(s, &seed) == DEALER_OK && seed == 0); /* not chosen yet */
            dealer_deal first, again;
            CHECK(dealer_next_deal(s, &first) == DEALER_OK);
            CHECK(dealer_get_seed(s, &seed) == DEALER_OK && seed != 0);
            char text[24];
            snprintf(text, sizeof text, "%lld", (long long)seed);
            dealer_session *t = session_with(generators[g], text, script);
            int64_t same = 0;
            CHECK(dealer_get_seed(t, &same) == DEALER_OK && same == seed);
            CHECK(dealer_next_deal(t, &again) == DEALER_OK && memcmp(&first, &again, sizeof first) == 0);
            dealer_session *u = session_with(generators[g], explicit_zero ? "0" : NULL, script);
            int64_t other = 0;
            CHECK(dealer_next_deal(u, &again) == DEALER_OK && dealer_get_seed(u, &other) == DEALER_OK);
            CHECK(other != 0 && other != seed); /* each job chooses its own */
            /* A run reports the seed it chose; after it, dealer_get_seed gives that seed. */
            dealer_run_report report;
            memset(&report, 0, sizeof report);
            report.size = sizeof report;
            struct buffer out = {{0}, 0};
            CHECK(dealer_set_output(u, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
            CHECK(dealer_run(u, &report) == DEALER_OK);
            CHECK(dealer_get_seed(u, &other) == DEALER_OK && other != 0 && report.seed == (uint64_t)other);
            /* Setting an option forgets the last job's seed: the next job chooses again. */
            CHECK(dealer_set_option(u, "title", "t") == DEALER_OK);
            CHECK(dealer_get_seed(u, &other) == DEALER_OK && other == 0);
            CHECK(dealer_set_seed(u, -42) == DEALER_OK);
            CHECK(dealer_get_seed(u, &other) == DEALER_OK && other == -42);
            dealer_free_session(s);
            dealer_free_session(t);
            dealer_free_session(u);
        }
    }
    /* glibc: seed 0 is classic dealer's seed 0 (srandom(0), which deals as srandom(1)). */
    dealer_session *zero = session_with("glibc", "0", script);
    dealer_session *one = session_with("glibc", "1", script);
    dealer_deal a, b;
    int64_t seed = -1;
    CHECK(dealer_next_deal(zero, &a) == DEALER_OK && dealer_next_deal(one, &b) == DEALER_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(dealer_get_seed(zero, &seed) == DEALER_OK && seed == 0);
    CHECK(dealer_get_seed(zero, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_get_seed(NULL, &seed) == DEALER_ERROR_NULL);
    dealer_free_session(zero);
    dealer_free_session(one);
}

static void test_run_with_callback(void) {
    /* glibc mode reproduces classic dealer: seed 1's first deal is known. */
    dealer_session *s = session_with("glibc", "1", "produce 2\naction printoneline\n");
    static struct buffer out;
    out.len = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    dealer_run_report report;
    report.size = 4;
    CHECK(dealer_run(s, &report) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "size") != NULL);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_OK);
    CHECK(report.produced == 2 && report.generated == 2 && report.seed == 1);
    CHECK(strncmp(out.data, "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. \n", 77) == 0);
    CHECK(strstr(out.data, "Generated 2 hands\nProduced 2 hands\nInitial random seed 1\n") != NULL);
    CHECK(dealer_set_output(s, 99, capture, &out) == DEALER_ERROR_USAGE);
    dealer_free_session(s);
}

static void test_not_available(void) {
    /* classic dealer's bare evalcontract (it aborts on it): refused before any output. */
    dealer_session *s = session_with("glibc", "1", NULL);
    CHECK(s != NULL);
    if (!s) return;
    const char *bare = "produce 1\naction evalcontract\n";
    CHECK(dealer_load_script(s, (const uint8_t *)bare, strlen(bare)) == DEALER_ERROR_NOT_AVAILABLE);
    CHECK(strstr(dealer_last_error(s), "is not available") != NULL);
    CHECK(dealer_last_error_exit_code(s) == 3);
    dealer_free_session(s);
    /* opc() with no DOP program where the option points: a run error naming the program. */
    s = session_with(NULL, "1", "condition opc(NS) >= 9\n");
    CHECK(s != NULL);
    if (!s) return;
    char dop[MISSING_PATH], named[MISSING_PATH + 64];
    CHECK(dealer_set_option(s, "opc_program", missing_path(dop, "dop")) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_RUN);
    snprintf(named, sizeof named, "opc: %s: ", dop);
    /* Under valgrind the failed exec shows as the child's exit status 127 instead. */
    CHECK(strstr(dealer_last_error(s), named) != NULL &&
          (strstr(dealer_last_error(s), ": cannot start") != NULL ||
           strstr(dealer_last_error(s), "got '' (exit status: 127)") != NULL));
    dealer_free_session(s);
}

static void test_pbn(void) {
    dealer_session *s = session_with("glibc", "1", "produce 1\n");
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    char text[80];
    size_t n = dealer_deal_to_pbn(&d, text, sizeof text);
    CHECK(n == strlen("N:2.T98.K752.KJT84 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43."));
    CHECK(strcmp(text, "N:2.T98.K752.KJT84 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43.") == 0);
    char small[5];
    CHECK(dealer_deal_to_pbn(&d, small, sizeof small) == n && strcmp(small, "N:2.") == 0);
    CHECK(dealer_deal_to_pbn(&d, NULL, 0) == n);
    dealer_free_session(s);
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", DEALER_VERSION_MAJOR, DEALER_VERSION_MINOR, DEALER_VERSION_PATCH);
    CHECK(strcmp(dealer_version(), version) == 0);
}

/* A deal from "n <hand> e <hand> s <hand> w <hand>" (PBN dot hands, spades first). */
static dealer_deal deal_from_text(const char *text) {
    dealer_deal d = {{0, 0, 0, 0}};
    const char *ranks = "23456789TJQKA";
    int seat = -1, suit = 3;
    for (const char *p = text; *p; p++) {
        const char *r;
        if (*p == ' ') continue;
        if (strchr("nesw", *p) && p[1] == ' ') { seat = (int)(strchr("nesw", *p) - "nesw"); suit = 3; p++; continue; }
        if (*p == '.') { suit--; continue; }
        if (seat >= 0 && (r = strchr(ranks, *p)) != NULL) d.hands[seat] |= (uint64_t)1 << (16 * suit + (r - ranks));
    }
    return d;
}

/* Deals with their known results (DealerV2's library sample rpdd_10First and the reference
 * csvTrixDeal_s43.ref): declarer N, E, S, W in turn, each in clubs, diamonds, hearts, spades,
 * notrump. */
static const struct { const char *deal; int tricks[20]; } known_tables[] = {
    {"n J873.J42.Q65.KT2 e AT652.A976.AJ82. s Q4.85.KT9.A87643 w K9.KQT3.743.QJ95",
     {6, 3, 2, 4, 4, 7, 9, 10, 9, 9, 6, 3, 2, 4, 4, 7, 9, 11, 9, 9}},
    {"n KQT87.AQ842.94.T e 3.J73.QJ62.85432 s J5.96.AKT73.KQJ7 w A9642.KT5.85.A96",
     {8, 10, 9, 11, 10, 4, 3, 3, 2, 2, 8, 10, 9, 11, 10, 4, 3, 3, 2, 2}},
    {"n 965.AQ942.32.AT9 e J82.J73.AQT7.876 s AKQ4.8.KJ65.KJ54 w T73.KT65.984.Q32",
     {12, 11, 10, 12, 12, 1, 2, 3, 1, 1, 12, 11, 10, 12, 12, 1, 2, 3, 1, 1}},
    {"n J.AK97.J83.KJ863 e 953.QJT.T97542.2 s AKQT84.3.A6.AQ75 w 762.86542.KQ.T94",
     {13, 9, 10, 13, 13, 0, 4, 3, 0, 0, 13, 9, 10, 13, 13, 0, 4, 3, 0, 0}},
};

static void test_dds_table(void) {
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK);
    dealer_dds_results t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.par_vulnerability = -1;
    for (size_t i = 0; i < dd_deals(sizeof known_tables / sizeof known_tables[0]); i++) {
        dealer_deal d = deal_from_text(known_tables[i].deal);
        CHECK(dealer_dds_table(s, &d, &t) == DEALER_OK);
        int same = 1;
        for (int k = 0; k < 20; k++) same &= t.tricks[k / 5][k % 5] == known_tables[i].tricks[k];
        CHECK(same);
        CHECK(t.par_contract[0] == 0);
    }
    /* Par: North-South make 7NT and East-West have no sacrifice. */
    dealer_deal grand = deal_from_text(known_tables[3].deal);
    t.par_vulnerability = 0;
    CHECK(dealer_dds_table(s, &grand, &t) == DEALER_OK);
    CHECK(t.par_score_ns == 1520 && strcmp(t.par_contract, " 7N  by NS none") == 0);
    t.par_vulnerability = 3;
    CHECK(dealer_dds_table(s, &grand, &t) == DEALER_OK);
    CHECK(t.par_score_ns == 2220 && strcmp(t.par_contract, " 7N  by NS both") == 0);
    /* Misuse. */
    CHECK(dealer_dds_table(s, NULL, &t) == DEALER_ERROR_USAGE); /* no current deal */
    CHECK(dealer_dds_table(s, &grand, NULL) == DEALER_ERROR_NULL);
    t.par_vulnerability = 4;
    CHECK(dealer_dds_table(s, &grand, &t) == DEALER_ERROR_OPTION);
    t.par_vulnerability = -1;
    t.size = 4;
    CHECK(dealer_dds_table(s, &grand, &t) == DEALER_ERROR_USAGE);
    t.size = sizeof t;
    dealer_deal broken = grand;
    broken.hands[0] = broken.hands[1];
    CHECK(dealer_dds_table(s, &broken, &t) == DEALER_ERROR_USAGE);
    CHECK(dealer_dds_table(NULL, &grand, &t) == DEALER_ERROR_NULL);
    dealer_free_session(s);

    /* The current deal: the same results as the script's dds() and par(). */
    s = session_with(NULL, "5", "produce 2\n");
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    t.par_vulnerability = 1;
    CHECK(dealer_dds_table(s, NULL, &t) == DEALER_OK);
    int32_t v = -1;
    CHECK(dealer_eval(s, "dds(south, notrump)", &v) == DEALER_OK && v == t.tricks[2][4]);
    CHECK(dealer_eval(s, "dds(west, clubs)", &v) == DEALER_OK && v == t.tricks[3][0]);
    CHECK(dealer_eval(s, "par(NS, ns)", &v) == DEALER_OK && v == t.par_score_ns);
    dealer_dds_results again = t;
    CHECK(dealer_dds_table(s, &d, &again) == DEALER_OK);
    CHECK(memcmp(again.tricks, t.tricks, sizeof t.tricks) == 0);
    dealer_free_session(s);
}

/* ---- Helpers for the tests below. ---- */

static int load(dealer_session *s, const char *script) {
    return dealer_load_script(s, (const uint8_t *)script, strlen(script));
}

/* True when the session reports no error, in both forms, with no location and exit code 0. */
static int no_error(const dealer_session *s) {
    uint32_t line = 99, col = 99;
    return strcmp(dealer_last_error(s), "") == 0 && strcmp(dealer_last_error_summary(s), "") == 0 &&
           dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 0 && col == 0 &&
           dealer_last_error_exit_code(s) == 0;
}

/* Calls dealer_next_deal until it stops; returns the number of deals, the final status in *status. */
static int count_deals(dealer_session *s, int32_t *status) {
    dealer_deal d;
    int n = 0;
    while ((*status = dealer_next_deal(s, &d)) == DEALER_OK && n < 100000) n++;
    return n;
}

#define CARD(suit, rank) ((uint64_t)1 << (16 * (suit) + (rank)))
enum { CLUBS, DIAMONDS, HEARTS, SPADES };
enum { R2, R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA };

/* classic dealer's first deal for seed 1 (glibc random()), as printoneline prints it. */
static const char FIRST_GLIBC_SEED1[] =
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. ";

static int32_t refuse(const uint8_t *data, size_t len, void *userdata) {
    (void)data; (void)len;
    (*(int *)userdata)++;
    return 1;
}

/* Runs the session and returns its complete output (stream OUTPUT) in *out. */
static int32_t run_captured(dealer_session *s, struct buffer *out, dealer_run_report *report) {
    out->len = 0;
    out->data[0] = 0;
    if (dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, out) != DEALER_OK) return -100;
    return dealer_run(s, report);
}

#ifndef _WIN32
/* Reads everything from fd (until EOF) into b. */
static void read_all(int fd, struct buffer *b) {
    ssize_t n;
    b->len = 0;
    while (b->len + 1 < sizeof b->data && (n = read(fd, b->data + b->len, sizeof b->data - 1 - b->len)) > 0)
        b->len += (size_t)n;
    b->data[b->len] = 0;
}
#endif

/* ---- Board records: options format (lin, jsonl, script), start_board, rotate, board_title,
 * json_summary; the printlin and printjson actions. ---- */

/* The duplicate table: LIN dealer digit (1 S, 2 W, 3 N, 4 E) and sv letter of boards 1..16. */
static const char LIN_DEALER[16] = {'3', '4', '1', '2', '3', '4', '1', '2', '3', '4', '1', '2', '3', '4', '1', '2'};
static const char LIN_VUL[16] = {'o', 'n', 'e', 'b', 'n', 'e', 'b', 'o', 'e', 'b', 'o', 'n', 'b', 'o', 'n', 'e'};

static void test_board_records(void) {
    /* South is constrained (it holds every spade) and deals: rotated, the board's dealer holds it. */
    const char *script = "dealer south\npredeal south SAKQJT98765432\nproduce 20\naction printpbn\n";
    dealer_session *s = session_with("chacha", "3", script);
    static struct buffer out;
    dealer_run_report report = {.size = sizeof(dealer_run_report)};
    CHECK(s != NULL);
    CHECK(dealer_set_option(s, "format", "lin") == DEALER_OK);
    CHECK(dealer_set_option(s, "start_board", "5") == DEALER_OK);
    CHECK(dealer_set_option(s, "rotate", "true") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 20);
    int lines = 0, good = 0;
    for (char *line = out.data; *line; lines++) {
        char *end = strchr(line, '\n');
        if (!end) break;
        *end = 0;
        int board = 5 + lines;
        char head[32], title[32], tail[16];
        snprintf(head, sizeof head, "qx|o%d|md|%c", board, LIN_DEALER[(board - 1) % 16]);
        snprintf(title, sizeof title, "|rh||ah|Board %d|sv|", board);
        snprintf(tail, sizeof tail, "|sv|%c|pg||", LIN_VUL[(board - 1) % 16]);
        /* LIN's hands are S, W, N, E: the dealer digit is the hand's place. */
        const char *hand = line + strlen(head);
        for (int k = 1; k < LIN_DEALER[(board - 1) % 16] - '0'; k++) hand = strchr(hand, ',') + 1;
        if (strncmp(line, head, strlen(head)) == 0 && strstr(line, title) != NULL &&
            strcmp(line + strlen(line) - strlen(tail), tail) == 0 && strncmp(hand, "SAKQJT98765432HDC", 17) == 0)
            good++;
        line = end + 1;
    }
    CHECK(lines == 20 && good == 20);

    /* board_title off: no ah|. */
    CHECK(dealer_set_option(s, "board_title", "false") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && strstr(out.data, "ah|") == NULL &&
          strncmp(out.data, "qx|o5|md|3", 10) == 0 && strstr(out.data, "|rh||sv|n|pg||\n") != NULL);

    /* jsonl with the summary object last. */
    CHECK(dealer_set_option(s, "format", "jsonl") == DEALER_OK);
    CHECK(dealer_set_option(s, "json_summary", "true") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(strncmp(out.data, "{\"schema\":1,\"type\":\"deal\",\"board\":5,\"dealer\":\"N\",\"vulnerable\":\"NS\","
                            "\"deal\":\"N:AKQJT98765432...", 92) == 0);
    char *summary = strstr(out.data, "{\"schema\":1,\"type\":\"summary\",\"generated\":");
    CHECK(summary != NULL && strstr(summary, "\"produced\":20,\"seed\":3,") != NULL &&
          summary[strlen(summary) - 1] == '\n' && strchr(summary, '\n') == summary + strlen(summary) - 1);

    /* Back to the script's printpbn: the same options drive [Board], [Dealer], [Vulnerable]. */
    CHECK(dealer_set_option(s, "format", "script") == DEALER_OK);
    CHECK(dealer_set_option(s, "json_summary", "false") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(strstr(out.data, "[Board \"5\"]\n[West \"-\"]\n[North \"-\"]\n[East \"-\"]\n[South \"-\"]\n"
                           "[Dealer \"N\"]\n[Vulnerable \"NS\"]\n[Deal \"N:AKQJT98765432... ") != NULL);
    CHECK(strstr(out.data, "[Board \"6\"]") != NULL && strstr(out.data, "[Dealer \"E\"]\n[Vulnerable \"EW\"]\n[Deal \"N:") != NULL);
    CHECK(strstr(out.data, "Generated ") != NULL);
    /* Without rotate the script's dealer stays. */
    CHECK(dealer_set_option(s, "rotate", "false") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && strstr(out.data, "[Dealer \"N\"]") == NULL &&
          strstr(out.data, "[Board \"5\"]") != NULL && strstr(out.data, "[Dealer \"S\"]\n[Vulnerable \"NS\"]\n") != NULL);

    /* Bad values are refused and change nothing. */
    CHECK(dealer_set_option(s, "format", "PBN") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "option format: expected script, lin, jsonl or pbn") != NULL);
    CHECK(dealer_set_option(s, "start_board", "-2") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "rotate", "maybe") == DEALER_ERROR_OPTION);
    dealer_free_session(s);

    /* The actions: printlin and printjson with named values, in a script. */
    const char *actions = "produce 3\nn = hcp(north)\naction printlin, printjson(n, \"south\" hcp(south), 7)\n";
    s = session_with("glibc", "1", actions);
    CHECK(s != NULL);
    CHECK(dealer_set_option(s, "statistics", "false") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(strncmp(out.data, "qx|o1|md|3S", 11) == 0 && strstr(out.data, "\nqx|o2|md|4S") != NULL &&
          strstr(out.data, "\nqx|o3|md|1S") != NULL);
    CHECK(strstr(out.data, "\"board\":3,\"dealer\":\"S\",\"vulnerable\":\"EW\"") != NULL);
    CHECK(strstr(out.data, ",\"values\":{\"n\":") != NULL && strstr(out.data, ",\"south\":") != NULL &&
          strstr(out.data, ",\"v3\":7}}\n") != NULL);
    dealer_free_session(s);
}

/* ---- Double dummy in board records: options pbn_dd and json_dd. ---- */

static void test_board_dd(void) {
    const int deals = (int)dd_deals(4);
    char script[64];
    snprintf(script, sizeof script, "produce %d\naction printpbn\n", deals);
    dealer_session *s = session_with("chacha", "8", script);
    static struct buffer out;
    dealer_run_report report = {.size = sizeof(dealer_run_report)};
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "statistics", "false") == DEALER_OK);
    CHECK(dealer_set_option(s, "threads", "2") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && strstr(out.data, "Optimum") == NULL);
    CHECK(dealer_set_option(s, "pbn_dd", "true") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == deals);
    int tables = 0;
    for (const char *p = out.data; (p = strstr(p, "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\n")); p++)
        tables++;
    CHECK(tables == deals);
    /* Board 1 (dealer N, no one vulnerable): its rows and score equal dds() and par() of the same deal. */
    int nt = -1, clubs = -1, score = 99999;
    const char *t = strstr(out.data, "[OptimumResultTable");
    CHECK(t != NULL && sscanf(strchr(t, '\n') + 1, "N NT %d", &nt) == 1);
    const char *w = t ? strstr(t, "\nW  C ") : NULL;
    CHECK(w != NULL && sscanf(w, "\nW  C %d", &clubs) == 1);
    const char *o = t ? strstr(t, "[OptimumScore \"NS ") : NULL;
    CHECK(o != NULL && sscanf(o, "[OptimumScore \"NS %d\"]\n[ParContract \"", &score) == 1);
    CHECK(o != NULL && strstr(o, "\"]\n[ParContract \"") != NULL);
    dealer_session *e = session_with("chacha", "8", script);
    dealer_deal deal;
    int32_t v = -1;
    CHECK(e != NULL && dealer_next_deal(e, &deal) == DEALER_OK);
    CHECK(dealer_eval(e, "dds(north, notrump)", &v) == DEALER_OK && v == nt);
    CHECK(dealer_eval(e, "dds(west, clubs)", &v) == DEALER_OK && v == clubs);
    CHECK(dealer_eval(e, "par(NS, none)", &v) == DEALER_OK && v == score);
    dealer_free_session(e);

    /* json_dd: printjson objects (and format jsonl) carry "dd" and "par". */
    CHECK(dealer_set_option(s, "format", "jsonl") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && strstr(out.data, "\"dd\"") == NULL);
    CHECK(dealer_set_option(s, "json_dd", "true") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    char expect[64];
    snprintf(expect, sizeof expect, "},\"dd\":{\"north\":{\"notrump\":%d,\"spades\":", nt);
    CHECK(strstr(out.data, expect) != NULL);
    snprintf(expect, sizeof expect, ",\"par\":{\"score_ns\":%d,\"contracts\":\"", score);
    CHECK(strstr(out.data, expect) != NULL);

    /* Bad values are refused. */
    CHECK(dealer_set_option(s, "pbn_dd", "yes please") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "option pbn_dd: expected true or false") != NULL);
    CHECK(dealer_set_option(s, "json_dd", "2") == DEALER_ERROR_OPTION);
    dealer_free_session(s);
}

/* ---- dealer_set_seed and dealer_set_generator. ---- */

/* dealer_last_summary: the last run's JSON summary object whatever json_summary says — the
 * statistics with their intervals, what --precision reached, and a lead table solved by one
 * search of every lead per deal. */
static void test_last_summary(void) {
    CHECK(strcmp(dealer_last_summary(NULL), "") == 0);
    dealer_session *s = session_with("chacha", "3", "generate 100000\naction average hcp(north)\n");
    static struct buffer out;
    dealer_run_report report = {.size = sizeof(dealer_run_report)};
    CHECK(s != NULL);
    if (!s) return;
    CHECK(strcmp(dealer_last_summary(s), "") == 0);
    CHECK(dealer_set_option(s, "precision", "0.1") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced < 100000);
    const char *summary = dealer_last_summary(s);
    const char *head = "{\"schema\":1,\"type\":\"summary\",";
    CHECK(strncmp(summary, head, strlen(head)) == 0);
    CHECK(strstr(summary, "\"precision\":{\"wanted\":0.1,") != NULL && strstr(summary, "\"reached\":true}") != NULL);
    CHECK(strstr(summary, "\"statistics\":[{\"type\":\"average\",\"label\":null,\"count\":") != NULL);
    CHECK(strstr(out.data, "{\"schema\"") == NULL); /* printed only with json_summary */
    /* A failed run leaves none (a lead study without the leader's hand stops before dealing). */
    CHECK(dealer_set_option(s, "precision", "") == DEALER_OK);
    const char *failing = "action leads(west, notrump, 9)\n";
    CHECK(dealer_load_script(s, (const uint8_t *)failing, strlen(failing)) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) < 0 && strcmp(dealer_last_summary(s), "") == 0);
    /* A lead study (one deal under valgrind). */
    char script[200];
    snprintf(script, sizeof script,
             "predeal west SKJ74, HQ3, D9862, CJ75\ncondition hcp(north) + hcp(south) >= 32\nproduce %d\n"
             "action leads(west, notrump, 12)\n",
             (int)dd_deals(3));
    CHECK(dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    summary = dealer_last_summary(s);
    CHECK(strstr(summary, "\"leads\":[{\"leader\":\"west\",\"declarer\":\"south\",\"contract\":\"6NT\",") != NULL);
    CHECK(strstr(summary, "{\"cards\":\"D98\",\"tricks\":") != NULL);
    char want[40];
    snprintf(want, sizeof want, "\"leads\":%d}", (int)dd_deals(3));
    CHECK(strstr(summary, want) != NULL);
    CHECK(strstr(out.data, "Opening leads by West against 6NT by South") != NULL);
    dealer_free_session(s);
}

static void test_seed_and_generator(void) {
    CHECK(dealer_set_seed(NULL, 1) == DEALER_ERROR_NULL);
    CHECK(dealer_set_generator(NULL, DEALER_GENERATOR_GLIBC) == DEALER_ERROR_NULL);
    dealer_session *s = session_with(NULL, NULL, NULL);
    CHECK(s != NULL);
    if (!s) return;
    /* Out-of-range generators: an option error with a one-line message and no location. */
    CHECK(dealer_set_generator(s, 3) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "generator") != NULL && strstr(dealer_last_error(s), "3") != NULL);
    CHECK(strcmp(dealer_last_error_summary(s), dealer_last_error(s)) == 0);
    uint32_t line = 99, col = 99;
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 0 && col == 0);
    CHECK(dealer_set_generator(s, -1) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "-1") != NULL);
    CHECK(dealer_set_generator(s, INT32_MIN) == DEALER_ERROR_OPTION);
    /* Valid generators; each success clears the error. */
    CHECK(dealer_set_generator(s, DEALER_GENERATOR_CHACHA) == DEALER_OK && no_error(s));
    CHECK(dealer_set_generator(s, DEALER_GENERATOR_DRAND48) == DEALER_OK && no_error(s));
    CHECK(dealer_set_generator(s, DEALER_GENERATOR_GLIBC) == DEALER_OK && no_error(s));
    CHECK(dealer_set_seed(s, 1) == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 3\n") == DEALER_OK && no_error(s));
    dealer_deal first, d;
    char text[128];
    CHECK(dealer_next_deal(s, &first) == DEALER_OK && no_error(s));
    CHECK(dealer_deal_to_oneline(&first, text, sizeof text) == strlen(FIRST_GLIBC_SEED1));
    CHECK(strcmp(text, FIRST_GLIBC_SEED1) == 0);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && memcmp(&d, &first, sizeof d) != 0);
    /* Setting the seed again restarts the stream. */
    CHECK(dealer_set_seed(s, 1) == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && memcmp(&d, &first, sizeof d) == 0);
    /* A negative seed is printed as unsigned, as classic dealer prints -s -1. */
    static struct buffer out;
    dealer_run_report report;
    report.size = sizeof report;
    CHECK(dealer_set_seed(s, -1) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(report.seed == UINT64_MAX && report.produced == 3);
    CHECK(strstr(out.data, "Initial random seed 18446744073709551615\n") != NULL);
    dealer_free_session(s);

    /* For one seed the three generators deal differently; each is reproducible, and ChaCha is
     * the default. */
    dealer_deal firsts[3];
    for (int g = 0; g < 3; g++) {
        for (int again = 0; again < 2; again++) {
            dealer_session *t = session_with(NULL, NULL, NULL);
            CHECK(dealer_set_generator(t, g) == DEALER_OK);
            CHECK(dealer_set_seed(t, 12345) == DEALER_OK);
            CHECK(load(t, "produce 1\n") == DEALER_OK);
            CHECK(dealer_next_deal(t, &d) == DEALER_OK);
            if (again == 0) firsts[g] = d;
            else CHECK(memcmp(&d, &firsts[g], sizeof d) == 0);
            dealer_free_session(t);
        }
    }
    CHECK(memcmp(&firsts[0], &firsts[1], sizeof d) != 0);
    CHECK(memcmp(&firsts[0], &firsts[2], sizeof d) != 0);
    CHECK(memcmp(&firsts[1], &firsts[2], sizeof d) != 0);
    s = session_with(NULL, "12345", "produce 1\n");
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && memcmp(&d, &firsts[DEALER_GENERATOR_CHACHA], sizeof d) == 0);
    dealer_free_session(s);
    /* The rng option and dealer_set_generator agree. */
    s = session_with("drand48", "12345", "produce 1\n");
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && memcmp(&d, &firsts[DEALER_GENERATOR_DRAND48], sizeof d) == 0);
    dealer_free_session(s);
}

/* ---- dealer_set_dialect. ---- */

static void test_dialect(void) {
    CHECK(dealer_set_dialect(NULL, DEALER_DIALECT_V2) == DEALER_ERROR_NULL);
    dealer_session *s = session_with("glibc", "1", NULL);
    CHECK(dealer_set_dialect(s, 2) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "dialect") != NULL);
    CHECK(dealer_set_dialect(s, -1) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "dialect") != NULL);
    /* The footer differs: DealerV2 prints "Produced  N hands" (two spaces), classic one. */
    static struct buffer out;
    CHECK(dealer_set_dialect(s, DEALER_DIALECT_CLASSIC) == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 2\naction printoneline\n") == DEALER_OK);
    CHECK(run_captured(s, &out, NULL) == DEALER_OK);
    CHECK(strncmp(out.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    CHECK(strstr(out.data, "\nProduced 2 hands\n") != NULL);
    /* Classic dealer has no script variables: $1 is a syntax error there. */
    CHECK(dealer_set_variable(s, 1, "15") == DEALER_OK);
    CHECK(load(s, "condition hcp(north) >= $1\n") == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "near '$1'") != NULL);
    /* Nor dds(). */
    CHECK(load(s, "condition dds(south, notrump) > 9\n") == DEALER_ERROR_SCRIPT);
    CHECK(dealer_set_dialect(s, DEALER_DIALECT_V2) == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 2\naction printoneline\n") == DEALER_OK);
    CHECK(run_captured(s, &out, NULL) == DEALER_OK);
    CHECK(strncmp(out.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    CHECK(strstr(out.data, "\nProduced  2 hands\n") != NULL);
    dealer_free_session(s);
    /* V2 is the default, except that the glibc generator without an explicit dialect means
     * classic dealer (as the CLI's --rng=glibc). */
    s = session_with("drand48", "1", "produce 2\naction printoneline\n");
    CHECK(run_captured(s, &out, NULL) == DEALER_OK);
    CHECK(strstr(out.data, "\nProduced  2 hands\n") != NULL);
    dealer_free_session(s);
    s = session_with("glibc", "1", "produce 2\naction printoneline\n");
    CHECK(run_captured(s, &out, NULL) == DEALER_OK);
    CHECK(strncmp(out.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    CHECK(strstr(out.data, "\nProduced 2 hands\n") != NULL);
    CHECK(load(s, "condition hcp(north) >= $1\n") == DEALER_ERROR_SCRIPT); /* classic */
    dealer_free_session(s);
}

/* ---- dealer_set_generate and dealer_set_produce. ---- */

static void test_generate_and_produce(void) {
    CHECK(dealer_set_generate(NULL, 5) == DEALER_ERROR_NULL);
    CHECK(dealer_set_produce(NULL, 5) == DEALER_ERROR_NULL);
    int32_t status = 0;
    dealer_session *s = session_with(NULL, "3", NULL);
    CHECK(dealer_set_produce(s, 5) == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 3\n") == DEALER_OK);
    CHECK(count_deals(s, &status) == 5 && status == DEALER_DONE);
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_DONE); /* stays done */
    CHECK(no_error(s));
    /* 0 restores the script's limit. */
    CHECK(dealer_set_produce(s, 0) == DEALER_OK);
    CHECK(count_deals(s, &status) == 3 && status == DEALER_DONE);
    CHECK(dealer_set_produce(s, 1) == DEALER_OK);
    CHECK(count_deals(s, &status) == 1 && status == DEALER_DONE);
    /* dealer_run honours it too, and prints what it produced. */
    static struct buffer out;
    dealer_run_report report;
    report.size = sizeof report;
    CHECK(dealer_set_produce(s, 4) == DEALER_OK);
    CHECK(load(s, "produce 2\naction printoneline\n") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(report.produced == 4 && report.generated == 4);
    int deal_lines = strncmp(out.data, "n ", 2) == 0;
    for (const char *p = out.data; *p; p++) deal_lines += p[0] == '\n' && p[1] == 'n' && p[2] == ' ';
    CHECK(deal_lines == 4);
    CHECK(strstr(out.data, "\nProduced  4 hands\n") != NULL);
    dealer_free_session(s);

    /* The generate limit: an impossible condition generates exactly the limit. */
    s = session_with(NULL, "3", NULL);
    CHECK(dealer_set_generate(s, 7) == DEALER_OK && no_error(s));
    CHECK(load(s, "generate 9\ncondition hcp(north) > 37\n") == DEALER_OK);
    CHECK(count_deals(s, &status) == 0 && status == DEALER_DONE);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(report.generated == 7 && report.produced == 0);
    CHECK(strstr(out.data, "Generated 7 hands\n") != NULL);
    CHECK(dealer_set_generate(s, 0) == DEALER_OK); /* back to the script's generate 9 */
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(report.generated == 9 && report.produced == 0);
    /* Without produce limit, dealer_next_deal ends at the generate limit. */
    CHECK(load(s, "condition hcp(north) >= 10\n") == DEALER_OK);
    CHECK(dealer_set_generate(s, 20) == DEALER_OK);
    int n = count_deals(s, &status);
    CHECK(n > 0 && n < 20 && status == DEALER_DONE);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(report.generated == 20 && report.produced == n);
    /* A negative limit is refused, naming the option and the value. */
    CHECK(dealer_set_generate(s, -5) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "generate") != NULL && strstr(dealer_last_error(s), "'-5'") != NULL);
    CHECK(dealer_set_produce(s, -5) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "produce") != NULL && strstr(dealer_last_error(s), "'-5'") != NULL);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    dealer_free_session(s);
}

/* ---- dealer_set_threads. ---- */

static void test_threads(void) {
    CHECK(dealer_set_threads(NULL, 1) == DEALER_ERROR_NULL);
    dealer_session *s = session_with(NULL, NULL, NULL);
    CHECK(dealer_set_threads(s, 65) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "64") != NULL);
    CHECK(dealer_set_threads(s, UINT32_MAX) == DEALER_ERROR_OPTION);
    CHECK(dealer_set_threads(s, 64) == DEALER_OK && no_error(s));
    CHECK(dealer_set_threads(s, 0) == DEALER_OK && no_error(s));
    /* A table solved with two threads (the known results; test_parallel compares whole runs
     * with one and two threads). One table only: valgrind makes each one slow. */
    CHECK(dealer_set_threads(s, 2) == DEALER_OK);
    dealer_dds_results t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.par_vulnerability = -1;
    dealer_deal d = deal_from_text(known_tables[2].deal);
    CHECK(dealer_dds_table(s, &d, &t) == DEALER_OK && no_error(s));
    int same = 1;
    for (int k = 0; k < 20; k++) same &= t.tricks[k / 5][k % 5] == known_tables[2].tricks[k];
    CHECK(same);
    dealer_free_session(s);
}

/* ---- dealer_set_variable ($0..$9, DealerV2's -0 … -9). ---- */

static void test_variables(void) {
    CHECK(dealer_set_variable(NULL, 1, "15") == DEALER_ERROR_NULL);
    dealer_session *s = session_with(NULL, "11", NULL);
    CHECK(dealer_set_variable(s, 10, "15") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "$10") != NULL);
    CHECK(dealer_set_variable(s, UINT32_MAX, "15") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_variable(s, 1, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_set_variable(s, 1, "\xff\xfe") == DEALER_ERROR_UTF8);
    CHECK(strstr(dealer_last_error(s), "UTF-8") != NULL);
    CHECK(dealer_set_variable(s, 0, "x") == DEALER_OK && no_error(s));
    CHECK(dealer_set_variable(s, 9, "y") == DEALER_OK && no_error(s));
    CHECK(dealer_set_variable(s, 1, "15") == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 10\ncondition hcp(north) >= $1\n") == DEALER_OK);
    dealer_deal d;
    int n = 0, all = 1, below20 = 0;
    int32_t hcp = -1, status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        CHECK(dealer_eval(s, "hcp(north)", &hcp) == DEALER_OK);
        all &= hcp >= 15;
        below20 += hcp < 20;
    }
    CHECK(status == DEALER_DONE && n == 10 && all);
    CHECK(below20 > 0); /* so the second run below shows the new value */
    /* Substitution happens when a text is compiled: the loaded script keeps 15 until reloaded,
     * while a new expression sees the new value. */
    CHECK(dealer_set_variable(s, 1, "20") == DEALER_OK);
    CHECK(load(s, "produce 10\ncondition hcp(north) >= $1\n") == DEALER_OK);
    n = 0; all = 1;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        CHECK(dealer_eval(s, "hcp(north)", &hcp) == DEALER_OK);
        all &= hcp >= 20;
    }
    CHECK(status == DEALER_DONE && n == 10 && all);
    int32_t v = -1;
    CHECK(dealer_eval(s, "$1 + 1", &v) == DEALER_OK && v == 21);
    /* Token-level substitution: $3($4) becomes hcp(north). */
    CHECK(dealer_set_variable(s, 3, "hcp") == DEALER_OK);
    CHECK(dealer_set_variable(s, 4, "north") == DEALER_OK);
    CHECK(load(s, "produce 5\ncondition $3($4) >= $1\n") == DEALER_OK);
    n = 0; all = 1;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        int32_t a = -1, b = -2;
        CHECK(dealer_eval(s, "$3($4)", &a) == DEALER_OK && dealer_eval(s, "hcp(north)", &b) == DEALER_OK);
        all &= a == b && a >= 20;
    }
    CHECK(status == DEALER_DONE && n == 5 && all);
    /* An unset (or empty) variable expands to nothing. */
    CHECK(dealer_set_variable(s, 5, "") == DEALER_OK);
    CHECK(load(s, "produce 1\ncondition hcp(north) >= 10 $5 $6\n") == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_eval(s, "hcp(north)", &hcp) == DEALER_OK && hcp >= 10);
    CHECK(dealer_set_variable(s, 1, "") == DEALER_OK);
    CHECK(load(s, "condition hcp(north) >= $1\n") == DEALER_ERROR_SCRIPT);
    /* The variable option is the same thing. */
    CHECK(dealer_set_option(s, "var1", "12") == DEALER_OK);
    CHECK(load(s, "produce 1\ncondition hcp(north) >= $1\n") == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_eval(s, "$1", &v) == DEALER_OK && v == 12);
    dealer_free_session(s);
}

/* ---- dealer_set_predeal. ---- */

static void test_predeal(void) {
    CHECK(dealer_set_predeal(NULL, DEALER_NORTH, "SA") == DEALER_ERROR_NULL);
    dealer_session *s = session_with(NULL, "21", NULL);
    CHECK(dealer_set_predeal(s, -1, "SA") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "seat") != NULL);
    CHECK(dealer_set_predeal(s, 4, "SA") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "seat") != NULL);
    CHECK(dealer_set_predeal(s, DEALER_SOUTH, "S\xff") == DEALER_ERROR_UTF8);
    /* Text that is not cards is refused at once, quoted, and leaves no predeal behind. */
    CHECK(dealer_set_predeal(s, DEALER_NORTH, "QQQ!!") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "'QQQ!!'") != NULL);
    CHECK(dealer_set_option(s, "predeal_north", "!!garbage") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "predeal_north") != NULL && strstr(dealer_last_error(s), "'!!garbage'") != NULL);
    const uint64_t want = CARD(SPADES, RA) | CARD(SPADES, RK) | CARD(SPADES, RQ) | CARD(HEARTS, RJ);
    const uint64_t north_ha = CARD(HEARTS, RA);
    CHECK(dealer_set_predeal(s, DEALER_SOUTH, "SAKQ,HJ") == DEALER_OK && no_error(s));
    /* The switch replaces the script's own predeal lines (classic -N … -W). */
    CHECK(load(s, "produce 20\npredeal north HA\n") == DEALER_OK);
    dealer_deal d;
    int n = 0, south_has = 1, north_has = 1, full = 1;
    int32_t status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        south_has &= (d.hands[DEALER_SOUTH] & want) == want;
        north_has &= (d.hands[DEALER_NORTH] & north_ha) != 0;
        full &= popcount64(d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3]) == 52 &&
                popcount64(d.hands[DEALER_SOUTH]) == 13;
    }
    CHECK(status == DEALER_DONE && n == 20 && south_has && full);
    CHECK(!north_has);
    /* NULL removes the seat's predeal: the script's predeal applies again. */
    CHECK(dealer_set_predeal(s, DEALER_SOUTH, NULL) == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 20\npredeal north HA\n") == DEALER_OK);
    n = 0; south_has = 1; north_has = 1;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        south_has &= (d.hands[DEALER_SOUTH] & want) == want;
        north_has &= (d.hands[DEALER_NORTH] & north_ha) != 0;
    }
    CHECK(status == DEALER_DONE && n == 20 && north_has && !south_has);
    /* So does an empty string. */
    CHECK(dealer_set_predeal(s, DEALER_WEST, "CAKQJT98765432") == DEALER_OK);
    CHECK(load(s, "produce 5\n") == DEALER_OK);
    n = 0; int west_clubs = 1;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        west_clubs &= (d.hands[DEALER_WEST] & 0x1FFF) == 0x1FFF;
        int32_t c = -1;
        CHECK(dealer_eval(s, "clubs(west)", &c) == DEALER_OK && c == 13);
    }
    CHECK(n == 5 && west_clubs);
    CHECK(dealer_set_predeal(s, DEALER_WEST, "") == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 5\n") == DEALER_OK);
    n = 0; west_clubs = 1;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) { n++; west_clubs &= (d.hands[DEALER_WEST] & 0x1FFF) == 0x1FFF; }
    CHECK(n == 5 && !west_clubs);
    /* A card given to two seats is reported when the deals start. */
    CHECK(dealer_set_predeal(s, DEALER_NORTH, "SA") == DEALER_OK);
    CHECK(dealer_set_predeal(s, DEALER_EAST, "HK,SA") == DEALER_OK);
    CHECK(load(s, "produce 5\n") == DEALER_OK);
    status = dealer_next_deal(s, &d);
    CHECK(status != DEALER_OK && status != DEALER_DONE);
    CHECK(strstr(dealer_last_error(s), "twice") != NULL);
    CHECK(dealer_run(s, NULL) == status);
    CHECK(dealer_set_predeal(s, DEALER_EAST, NULL) == DEALER_OK);
    CHECK(load(s, "produce 5\n") == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK && (d.hands[DEALER_NORTH] & CARD(SPADES, RA)) != 0);
    dealer_free_session(s);
}

/* ---- Spot-card predeal (SQTxx): ChaCha deals it; the compatibility generators refuse it. ---- */

static void test_spot_cards(void) {
    const uint64_t spades = (uint64_t)0x1FFF << (16 * SPADES);
    const uint64_t small_spades = (uint64_t)0xFF << (16 * SPADES);
    const uint64_t qt = CARD(SPADES, RQ) | CARD(SPADES, RT);
    dealer_session *s = session_with(NULL, "5", "produce 50\npredeal north SQTxx\n");
    dealer_deal d;
    int n = 0, exact = 1;
    int32_t status;
    uint64_t seen_smalls = 0;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        uint64_t north = d.hands[DEALER_NORTH] & spades;
        n++;
        exact &= popcount64(north) == 4 && (north & ~small_spades) == qt;
        seen_smalls |= north & small_spades;
    }
    CHECK(status == DEALER_DONE && n == 50 && exact);
    CHECK(popcount64(seen_smalls) == 8);
    /* The switch-style predeal takes x as well. */
    CHECK(dealer_set_predeal(s, DEALER_EAST, "HAxx") == DEALER_OK && no_error(s));
    CHECK(load(s, "produce 20\n") == DEALER_OK);
    n = 0; exact = 1;
    const uint64_t hearts = (uint64_t)0x1FFF << (16 * HEARTS);
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        uint64_t east = d.hands[DEALER_EAST] & hearts;
        n++;
        exact &= popcount64(east) == 3 && (east & ~((uint64_t)0xFF << (16 * HEARTS))) == CARD(HEARTS, RA);
    }
    CHECK(status == DEALER_DONE && n == 20 && exact);
    /* drand48: the option's x is refused when the deals start. */
    CHECK(dealer_set_generator(s, DEALER_GENERATOR_DRAND48) == DEALER_OK);
    CHECK(load(s, "produce 20\n") == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "predeal_east") != NULL && strstr(dealer_last_error(s), "ChaCha") != NULL);
    dealer_free_session(s);
    /* glibc: a script with x is a script error at the holding's line and column. */
    s = session_with("glibc", "5", "produce 5\npredeal north SA, HQTxx\n");
    CHECK(s != NULL);
    uint32_t line = 0, col = 0;
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2 && col == 19);
    CHECK(strcmp(dealer_last_error_summary(s),
                 "line 2: spot cards (x) in predeal need the ChaCha generator: the glibc generator reproduces "
                 "classic dealer, which has none") == 0);
    dealer_free_session(s);
}

/* ---- dealer_set_output_fd. ---- */

#ifdef _WIN32
/* Windows: descriptors belong to one C runtime each, so the library refuses them and says
 * what to use instead; a negative fd still restores the default, checks come first. */
static void test_output_fd(void) {
    CHECK(dealer_set_output_fd(NULL, DEALER_STREAM_OUTPUT, 1) == DEALER_ERROR_NULL);
    dealer_session *s = session_with("glibc", "1", "produce 4\naction printoneline\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, 1) == DEALER_ERROR_NOT_AVAILABLE);
    CHECK(strstr(dealer_last_error(s), "not available on Windows") != NULL);
    CHECK(strstr(dealer_last_error(s), "dealer_set_output") != NULL);
    CHECK(dealer_last_error_exit_code(s) == 3);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_DEALS + 1, 1) == DEALER_ERROR_USAGE);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, -1) == DEALER_OK && no_error(s));
    static struct buffer by_callback;
    CHECK(dealer_set_option(s, "statistics", "false") == DEALER_OK);
    CHECK(run_captured(s, &by_callback, NULL) == DEALER_OK);
    CHECK(strncmp(by_callback.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    /* A callback that refuses stops the run with an I/O error. */
    int calls = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, refuse, &calls) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO && calls == 1);
    dealer_free_session(s);
}

/* No SIGPIPE on Windows. */
static void test_output_fd_closed_reader(void) {}
#else
static void test_output_fd(void) {
    CHECK(dealer_set_output_fd(NULL, DEALER_STREAM_OUTPUT, 1) == DEALER_ERROR_NULL);
    CHECK(dealer_set_output(NULL, DEALER_STREAM_OUTPUT, capture, NULL) == DEALER_ERROR_NULL);
    const char *job = "produce 4\naction printoneline\n";
    dealer_session *s = session_with("glibc", "1", job);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "statistics", "false") == DEALER_OK); /* no time in the output */
    static struct buffer by_callback, by_pipe, by_file, by_stdout;
    CHECK(run_captured(s, &by_callback, NULL) == DEALER_OK);
    CHECK(strncmp(by_callback.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    CHECK(by_callback.len > 4 * 60 && by_callback.data[by_callback.len - 1] == '\n');

    /* A pipe (the output is small enough for the pipe's buffer). */
    int fds[2];
    CHECK(pipe(fds) == 0);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, fds[1]) == DEALER_OK && no_error(s));
    CHECK(dealer_run(s, NULL) == DEALER_OK && no_error(s));
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &by_pipe) == DEALER_OK);
    close(fds[1]); /* no longer used by the session */
    read_all(fds[0], &by_pipe);
    close(fds[0]);
    CHECK(by_pipe.len == by_callback.len && memcmp(by_pipe.data, by_callback.data, by_pipe.len) == 0);

    /* A tmpfile(): the session writes but never closes it. */
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f) {
        CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, fileno(f)) == DEALER_OK);
        CHECK(dealer_run(s, NULL) == DEALER_OK);
        CHECK(dealer_run(s, NULL) == DEALER_OK); /* appended: the same bytes twice */
        CHECK(lseek(fileno(f), 0, SEEK_SET) == 0);
        read_all(fileno(f), &by_file);
        CHECK(by_file.len == 2 * by_callback.len);
        CHECK(memcmp(by_file.data, by_callback.data, by_callback.len) == 0 &&
              memcmp(by_file.data + by_callback.len, by_callback.data, by_callback.len) == 0);
        CHECK(fcntl(fileno(f), F_GETFD) != -1); /* still open */
        fclose(f);
    }

    /* Errors: not an open descriptor, an unknown stream, a read-only descriptor. */
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, 9999) == DEALER_ERROR_IO);
    CHECK(strstr(dealer_last_error(s), "9999") != NULL);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_DEALS + 1, 1) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "stream") != NULL);
    CHECK(dealer_set_output_fd(s, -1, 1) == DEALER_ERROR_USAGE);
    int ro = open("/dev/null", O_RDONLY);
    CHECK(ro >= 0);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, ro) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO);
    CHECK(strstr(dealer_last_error(s), "cannot write") != NULL);
    close(ro);

    /* A callback that refuses stops the run with an I/O error. */
    int calls = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, refuse, &calls) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO && calls == 1);

    /* A negative fd restores the default, standard output: catch it with dup2. */
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, -1) == DEALER_OK && no_error(s));
    CHECK(pipe(fds) == 0);
    fflush(stdout);
    int saved = dup(1);
    CHECK(saved >= 0 && dup2(fds[1], 1) == 1);
    int32_t status = dealer_run(s, NULL);
    fflush(stdout);
    CHECK(dup2(saved, 1) == 1);
    close(saved);
    close(fds[1]);
    read_all(fds[0], &by_stdout);
    close(fds[0]);
    CHECK(status == DEALER_OK);
    CHECK(by_stdout.len == by_callback.len && memcmp(by_stdout.data, by_callback.data, by_stdout.len) == 0);

    /* The diagnostics stream to a descriptor: the progress meter goes there, the deals not. */
    CHECK(pipe(fds) == 0);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &by_callback) == DEALER_OK);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_DIAGNOSTICS, fds[1]) == DEALER_OK);
    CHECK(dealer_set_option(s, "progress", "true") == DEALER_OK);
    by_callback.len = 0;
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_DIAGNOSTICS, -1) == DEALER_OK);
    close(fds[1]);
    read_all(fds[0], &by_pipe);
    close(fds[0]);
    CHECK(strstr(by_pipe.data, "complete") != NULL && strstr(by_pipe.data, "n 2.T98") == NULL);
    CHECK(strncmp(by_callback.data, FIRST_GLIBC_SEED1, strlen(FIRST_GLIBC_SEED1)) == 0);
    dealer_free_session(s);
}

/* Writing to a pipe or socket whose reader is gone: an I/O error, not death by SIGPIPE (the
 * disposition stays the default, which would kill this program), and the signal mask, the
 * disposition and the pending set are as before. */
static void test_output_fd_closed_reader(void) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    CHECK(sigaction(SIGPIPE, &dfl, NULL) == 0);
    sigset_t mask_before;
    CHECK(sigprocmask(SIG_SETMASK, NULL, &mask_before) == 0);
    CHECK(!sigismember(&mask_before, SIGPIPE));
    dealer_session *s = session_with("glibc", "1", "produce 4\naction printoneline\n");
    CHECK(s != NULL);
    if (!s) return;
    for (int kind = 0; kind < 2; kind++) {
        int fds[2];
        CHECK(kind == 0 ? pipe(fds) == 0 : socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        close(fds[0]); /* nobody reads */
        CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, fds[1]) == DEALER_OK);
        CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO);
        CHECK(strstr(dealer_last_error(s), "cannot write output") != NULL);
        CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, -1) == DEALER_OK);
        close(fds[1]);
        struct sigaction now;
        CHECK(sigaction(SIGPIPE, NULL, &now) == 0 && now.sa_handler == SIG_DFL);
        sigset_t mask_after, pending;
        CHECK(sigprocmask(SIG_SETMASK, NULL, &mask_after) == 0 && !sigismember(&mask_after, SIGPIPE));
        CHECK(sigpending(&pending) == 0 && !sigismember(&pending, SIGPIPE));
    }
    /* A SIGPIPE the host had blocked and pending before stays pending for the host. */
    sigset_t pipe_only, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    CHECK(sigprocmask(SIG_BLOCK, &pipe_only, NULL) == 0);
    CHECK(raise(SIGPIPE) == 0);
    int fds[2];
    CHECK(pipe(fds) == 0);
    close(fds[0]);
    CHECK(dealer_set_output_fd(s, DEALER_STREAM_OUTPUT, fds[1]) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_IO);
    close(fds[1]);
    CHECK(sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE));
    int sig = 0;
    CHECK(sigwait(&pipe_only, &sig) == 0 && sig == SIGPIPE);
    CHECK(sigprocmask(SIG_SETMASK, &mask_before, NULL) == 0);
    dealer_free_session(s);
}
#endif

/* ---- dealer_compile_expression and dealer_eval_compiled. ---- */

static void test_compiled_expressions(void) {
    uint32_t id = 0, id2 = 0;
    int32_t v = 0;
    CHECK(dealer_compile_expression(NULL, "hcp(north)", &id) == DEALER_ERROR_NULL);
    CHECK(dealer_eval_compiled(NULL, 0, &v) == DEALER_ERROR_NULL);
    dealer_session *s = session_with(NULL, "8", NULL);
    /* No script yet. */
    CHECK(dealer_compile_expression(s, "hcp(north)", &id) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "script") != NULL);
    CHECK(dealer_eval_compiled(s, 0, &v) == DEALER_ERROR_USAGE);
    CHECK(load(s, "produce 20\nlong = spades(south) >= 5\ncondition hcp(south) >= 8\n") == DEALER_OK);
    CHECK(dealer_compile_expression(s, NULL, &id) == DEALER_ERROR_NULL);
    CHECK(dealer_compile_expression(s, "hcp(north)", NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_compile_expression(s, "\xc3\x28", &id) == DEALER_ERROR_UTF8);
    /* A syntax error: line 1 and the column in the expression. */
    CHECK(dealer_compile_expression(s, "hcp(north) +", &id) == DEALER_ERROR_SCRIPT);
    uint32_t line = 0, col = 0;
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 1 && col == 13);
    CHECK(strncmp(dealer_last_error(s), "line 1, column 13: ", 19) == 0);
    CHECK(strcmp(dealer_last_error_summary(s), "line 1: syntax error") == 0);
    CHECK(dealer_compile_expression(s, "hcp(north) &&& 1", &id) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 1 && col == 14);
    CHECK(dealer_compile_expression(s, "nosuchvariable + 1", &id) == DEALER_ERROR_SCRIPT);
    CHECK(strcmp(dealer_last_error_summary(s), "line 1: unknown variable") == 0);
    CHECK(dealer_compile_expression(s, "", &id) == DEALER_ERROR_SCRIPT);

    static const char *const texts[] = {
        "hcp(north)", "long", "hcp(south) + 2 * spades(north)", "shape(east, any 4333 + any 4432)",
        "hascard(west, AS)", "losers(south)", "controls(north) * 10 - top4(south, hearts)",
        "hcp(north) > hcp(south) ? 1 : 0",
    };
    enum { NTEXTS = sizeof texts / sizeof texts[0] };
    uint32_t ids[NTEXTS];
    int compiled = 1, distinct = 1;
    for (int i = 0; i < NTEXTS; i++) {
        compiled &= dealer_compile_expression(s, texts[i], &ids[i]) == DEALER_OK && no_error(s);
        for (int j = 0; j < i; j++) distinct &= ids[j] != ids[i];
    }
    CHECK(compiled);
    CHECK(distinct);
    /* The same text compiled twice still gets a new id. */
    CHECK(dealer_compile_expression(s, "hcp(north)", &id2) == DEALER_OK);
    CHECK(id2 != ids[0]);
    /* Before next_deal: no current deal. */
    CHECK(dealer_eval_compiled(s, ids[0], &v) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "deal") != NULL);
    CHECK(dealer_eval_compiled(s, ids[0], NULL) == DEALER_ERROR_NULL);
    dealer_deal d;
    int n = 0, same = 1, ok = 1, saw_long = 0, saw_short = 0;
    int32_t status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        n++;
        for (int i = 0; i < NTEXTS; i++) {
            int32_t a = -12345, b = -54321;
            ok &= dealer_eval_compiled(s, ids[i], &a) == DEALER_OK && no_error(s);
            ok &= dealer_eval(s, texts[i], &b) == DEALER_OK;
            same &= a == b;
            if (i == 1) { saw_long += a == 1; saw_short += a == 0; }
        }
        int32_t h = -1;
        ok &= dealer_eval_compiled(s, ids[0], &h) == DEALER_OK;
        same &= h == (int32_t)(
            4 * popcount64(d.hands[0] & (CARD(0, RA) | CARD(1, RA) | CARD(2, RA) | CARD(3, RA))) +
            3 * popcount64(d.hands[0] & (CARD(0, RK) | CARD(1, RK) | CARD(2, RK) | CARD(3, RK))) +
            2 * popcount64(d.hands[0] & (CARD(0, RQ) | CARD(1, RQ) | CARD(2, RQ) | CARD(3, RQ))) +
            1 * popcount64(d.hands[0] & (CARD(0, RJ) | CARD(1, RJ) | CARD(2, RJ) | CARD(3, RJ))));
        int32_t has = -1;
        ok &= dealer_eval_compiled(s, ids[4], &has) == DEALER_OK;
        same &= has == ((d.hands[DEALER_WEST] & CARD(SPADES, RA)) != 0);
    }
    CHECK(status == DEALER_DONE && n == 20);
    CHECK(ok);
    CHECK(same);
    CHECK(saw_long > 0 && saw_short > 0);
    /* Unknown ids. */
    CHECK(dealer_eval_compiled(s, 100000, &v) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "unknown expression id") != NULL);
    /* A division by zero is a run error, with the location in the expression. */
    uint32_t div = 0;
    CHECK(dealer_compile_expression(s, "hcp(north) / 0", &div) == DEALER_OK);
    CHECK(dealer_eval_compiled(s, div, &v) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "division by zero") != NULL);
    CHECK(strcmp(dealer_last_error_summary(s), "line 1: division by zero") == 0);
    CHECK(dealer_eval(s, "hcp(north) % 0", &v) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "division by zero") != NULL);
    CHECK(dealer_eval(s, "(0 - 2147483647 - 1) / (0 - 1)", &v) == DEALER_ERROR_RUN);
    /* Reloading the script makes all earlier ids stale. */
    CHECK(load(s, "produce 3\n") == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_eval_compiled(s, ids[0], &v) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "unknown expression id") != NULL);
    CHECK(dealer_eval_compiled(s, div, &v) == DEALER_ERROR_USAGE);
    /* New ids are never reused. */
    uint32_t fresh = 0;
    CHECK(dealer_compile_expression(s, "hcp(north)", &fresh) == DEALER_OK);
    int reused = 0;
    for (int i = 0; i < NTEXTS; i++) reused |= fresh == ids[i];
    CHECK(!reused && fresh != id2 && fresh != div);
    int32_t a = -1, b = -2;
    CHECK(dealer_eval_compiled(s, fresh, &a) == DEALER_OK && dealer_eval(s, "hcp(north)", &b) == DEALER_OK && a == b);
    /* The script's variables are visible; a variable of the old script is not. */
    CHECK(dealer_compile_expression(s, "long", &id) == DEALER_ERROR_SCRIPT);
    dealer_free_session(s);
}

/* ---- dealer_deal_to_oneline. ---- */

static void test_oneline(void) {
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK);
    CHECK(dealer_set_generator(s, DEALER_GENERATOR_GLIBC) == DEALER_OK);
    CHECK(dealer_set_seed(s, 1) == DEALER_OK);
    CHECK(load(s, "produce 1\n") == DEALER_OK);
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    dealer_free_session(s);
    const size_t n = strlen(FIRST_GLIBC_SEED1);
    char text[128];
    memset(text, 'x', sizeof text);
    CHECK(dealer_deal_to_oneline(&d, text, sizeof text) == n);
    CHECK(strcmp(text, FIRST_GLIBC_SEED1) == 0);
    /* Exactly fitting buffer, one byte short, tiny, size 1, NULL with size 0. */
    char exact[sizeof FIRST_GLIBC_SEED1];
    CHECK(dealer_deal_to_oneline(&d, exact, sizeof exact) == n && strcmp(exact, FIRST_GLIBC_SEED1) == 0);
    memset(text, 'x', sizeof text);
    CHECK(dealer_deal_to_oneline(&d, text, n) == n);
    CHECK(strlen(text) == n - 1 && strncmp(text, FIRST_GLIBC_SEED1, n - 1) == 0);
    memset(text, 'x', sizeof text);
    CHECK(dealer_deal_to_oneline(&d, text, 6) == n && strcmp(text, "n 2.T") == 0 && text[6] == 'x');
    memset(text, 'x', sizeof text);
    CHECK(dealer_deal_to_oneline(&d, text, 1) == n && text[0] == 0 && text[1] == 'x');
    CHECK(dealer_deal_to_oneline(&d, NULL, 0) == n);
    memset(text, 'x', sizeof text);
    CHECK(dealer_deal_to_oneline(&d, text, 0) == n && text[0] == 'x'); /* size 0: nothing written */
    CHECK(dealer_deal_to_oneline(NULL, text, sizeof text) == 0);
    CHECK(dealer_deal_to_pbn(NULL, text, sizeof text) == 0);
    /* A void suit prints as nothing between the dots; round trip through deal_from_text. */
    dealer_deal back = deal_from_text(FIRST_GLIBC_SEED1);
    CHECK(memcmp(&back, &d, sizeof d) == 0);
    dealer_deal k = deal_from_text(known_tables[0].deal);
    CHECK(dealer_deal_to_oneline(&k, text, sizeof text) > 0);
    CHECK(strcmp(text, "n J873.J42.Q65.KT2 e AT652.A976.AJ82. s Q4.85.KT9.A87643 w K9.KQT3.743.QJ95 ") == 0);
}

/* ---- Versions. ---- */

static void test_version_number(void) {
    CHECK(dealer_version_number() ==
          (uint32_t)(DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100 + DEALER_VERSION_PATCH));
    unsigned major = 99, minor = 99, patch = 99;
    CHECK(sscanf(dealer_version(), "%u.%u.%u", &major, &minor, &patch) == 3);
    CHECK(dealer_version_number() == major * 10000 + minor * 100 + patch);
    CHECK(dealer_version() == dealer_version()); /* static, stays valid */
}

/* ---- Error texts: the full message and the peers' one-line summary. ---- */

static void test_error_texts(void) {
    CHECK(dealer_last_error(NULL) != NULL && dealer_last_error_summary(NULL) != NULL);
    CHECK(dealer_last_error_location(NULL, NULL, NULL) == DEALER_ERROR_NULL);
    for (int dialect = 0; dialect < 2; dialect++) {
        dealer_session *s = session_with(NULL, NULL, NULL);
        CHECK(dealer_set_dialect(s, dialect) == DEALER_OK);
        CHECK(no_error(s));
        const char *bad = "produce 3\ngenerate 100\ncondition hcp(north) > 3 &&& 4\n";
        CHECK(load(s, bad) == DEALER_ERROR_SCRIPT);
        CHECK(strcmp(dealer_last_error(s), "line 3, column 28: syntax error near '&'\n"
                                           "    condition hcp(north) > 3 &&& 4\n"
                                           "                               ^") == 0);
        CHECK(strcmp(dealer_last_error_summary(s), "line 3: syntax error") == 0);
        CHECK(dealer_last_error_exit_code(s) == 255);
        CHECK(dealer_last_error_location(s, NULL, NULL) == DEALER_OK);
        uint32_t line = 0;
        CHECK(dealer_last_error_location(s, &line, NULL) == DEALER_OK && line == 3);
        /* At the end of the input: no text to point at. */
        CHECK(load(s, "condition hcp(north) >\n") == DEALER_ERROR_SCRIPT);
        CHECK(strcmp(dealer_last_error_summary(s), "line 2: syntax error") == 0);
        CHECK(strncmp(dealer_last_error(s), "line 2, column 1: syntax error", 30) == 0);
        /* Unknown variable: message names the token. */
        CHECK(load(s, "produce 1\ncondition hcp(north) > foo\n") == DEALER_ERROR_SCRIPT);
        CHECK(strcmp(dealer_last_error_summary(s), "line 2: unknown variable") == 0);
        CHECK(strncmp(dealer_last_error(s), "line 2, column ", 15) == 0);
        CHECK(strstr(dealer_last_error(s), "unknown variable") != NULL);
        CHECK(strstr(dealer_last_error(s), "\n    condition hcp(north) > foo\n") != NULL);
        /* Invalid UTF-8 inside a script is a syntax error, and the message itself stays valid
         * UTF-8 (the byte is shown as U+FFFD). */
        CHECK(load(s, "produce 1\n\xff\n") == DEALER_ERROR_SCRIPT);
        CHECK(strcmp(dealer_last_error_summary(s), "line 2: syntax error") == 0);
        CHECK(strchr(dealer_last_error(s), '\xff') == NULL);
        /* A run error in the condition. */
        CHECK(load(s, "produce 1\ncondition hcp(north) / 0 > 1\n") == DEALER_OK && no_error(s));
        CHECK(dealer_run(s, NULL) == DEALER_ERROR_RUN);
        CHECK(strcmp(dealer_last_error_summary(s), "line 2: division by zero") == 0);
        CHECK(strncmp(dealer_last_error(s), "line 2, column 24: division by zero", 35) == 0);
        CHECK(dealer_last_error_exit_code(s) != 0);
        /* A non-script error: one line, the same in both forms, no location. */
        CHECK(dealer_set_option(s, "swap", "7") == DEALER_ERROR_OPTION);
        CHECK(strlen(dealer_last_error(s)) > 0 && strchr(dealer_last_error(s), '\n') == NULL);
        CHECK(strcmp(dealer_last_error(s), dealer_last_error_summary(s)) == 0);
        CHECK(dealer_last_error_location(s, &line, NULL) == DEALER_OK && line == 0);
        /* Every success clears it. */
        CHECK(dealer_set_option(s, "swap", "0") == DEALER_OK && no_error(s));
        dealer_free_session(s);
    }
}

/* ---- dealer_run's report size and the remaining NULL-session and misuse cases. ---- */

/* ---- DEALER_STREAM_DEALS: each produced deal as a PBN line, beside the output. ---- */
static void test_deals_stream(void) {
    const char *script = "condition hcp(north) >= 15\nproduce 6\naction printoneline\n";
    dealer_session *s = session_with("chacha", "7", script);
    static struct buffer out, deals;
    dealer_run_report report = {.size = sizeof(dealer_run_report)};
    CHECK(s != NULL);
    /* Not written without a sink; with one, one line per produced deal, each the deal printed. */
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 6);
    deals.len = 0;
    deals.data[0] = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_DEALS, capture, &deals) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 6);
    int lines = 0, printed = 0;
    for (char *line = deals.data; *line; lines++) {
        char *end = strchr(line, '\n');
        if (!end) break;
        *end = 0;
        dealer_deal d;
        char oneline[128];
        if (strncmp(line, "N:", 2) == 0 && dealer_deal_from_pbn(s, line, &d) == DEALER_OK &&
            dealer_deal_to_oneline(&d, oneline, sizeof oneline) > 0 && strstr(out.data, oneline) != NULL &&
            d.hands[DEALER_NORTH] != 0)
            printed++;
        line = end + 1;
    }
    CHECK(lines == 6 && printed == 6);
    /* The output ceiling: the deals stream holds exactly the deals written. */
    deals.len = 0;
    deals.data[0] = 0;
    CHECK(dealer_set_option(s, "max_output_bytes", "150") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_CEILING_REACHED && report.ceiling == DEALER_CEILING_OUTPUT);
    int written = 0;
    for (char *p = out.data; (p = strstr(p, "n ")) != NULL; p += 2) written++;
    int listed = 0;
    for (char *p = deals.data; (p = strchr(p, '\n')) != NULL; p++) listed++;
    CHECK(written >= 1 && report.produced == written && listed == written);
    /* A script whose actions read one hand: the deals stream still shows all four hands, and
     * the hand it reads is the same as without the stream. */
    CHECK(dealer_set_option(s, "max_output_bytes", "0") == DEALER_OK);
    const char *one = "condition hcp(north) >= 15\nproduce 3\naction average hcp(north)\n";
    CHECK(dealer_load_script(s, (const uint8_t *)one, strlen(one)) == DEALER_OK);
    deals.len = 0;
    deals.data[0] = 0;
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 3);
    CHECK(strstr(deals.data, "...") == NULL && strchr(deals.data, '\n') != NULL);
    /* Dealt on worker threads, which add up statistics by chunk: each deal still comes. */
    CHECK(dealer_set_threads(s, 4) == DEALER_OK);
    deals.len = 0;
    deals.data[0] = 0;
    static struct buffer threaded;
    CHECK(run_captured(s, &threaded, &report) == DEALER_OK && report.produced == 3);
    int threaded_lines = 0;
    for (char *p = deals.data; (p = strchr(p, '\n')) != NULL; p++) threaded_lines++;
    CHECK(threaded_lines == 3 && strstr(deals.data, "...") == NULL);
    CHECK(strncmp(threaded.data, out.data, strcspn(out.data, "\n")) == 0);
    CHECK(dealer_set_threads(s, 1) == DEALER_OK);
    deals.len = 0;
    deals.data[0] = 0;
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 3);
    static struct buffer with_stream;
    memcpy(with_stream.data, out.data, out.len + 1);
    CHECK(dealer_set_output(s, DEALER_STREAM_DEALS, NULL, NULL) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    CHECK(strncmp(out.data, with_stream.data, strcspn(out.data, "\n")) == 0);
    CHECK(dealer_set_output(s, DEALER_STREAM_DEALS, capture, &deals) == DEALER_OK);
    /* dealer_needs_double_dummy: no for this script, yes for one that reads tricks or prints
     * tables in its records, no without a script. */
    CHECK(dealer_needs_double_dummy(s) == 0);
    const char *dd = "condition tricks(north, notrump) >= 9\n";
    CHECK(dealer_load_script(s, (const uint8_t *)dd, strlen(dd)) == DEALER_OK && dealer_needs_double_dummy(s) == 1);
    CHECK(dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK && dealer_needs_double_dummy(s) == 0);
    CHECK(dealer_set_option(s, "format", "pbn") == DEALER_OK && dealer_set_option(s, "pbn_dd", "true") == DEALER_OK &&
          dealer_needs_double_dummy(s) == 1);
    CHECK(dealer_needs_double_dummy(NULL) == DEALER_ERROR_NULL);
    dealer_free_session(s);
    dealer_session *empty = session_with(NULL, NULL, NULL);
    CHECK(empty != NULL && dealer_needs_double_dummy(empty) == 0);
    dealer_free_session(empty);
}

static void test_run_report_and_misuse(void) {
    dealer_session *s = session_with(NULL, "2", "produce 2\n");
    static struct buffer out;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = 0;
    CHECK(dealer_run(s, &report) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(s), "size") != NULL);
    report.size = sizeof report - 1;
    CHECK(dealer_run(s, &report) == DEALER_ERROR_USAGE);
    report.size = (uint32_t)offsetof(dealer_run_report, seed);
    CHECK(dealer_run(s, &report) == DEALER_ERROR_USAGE);
    CHECK(report.produced == 0 && report.generated == 0); /* untouched */
    report.size = sizeof report;
    out.len = 0;
    CHECK(dealer_run(s, &report) == DEALER_OK && no_error(s));
    CHECK(report.size == sizeof report && report.produced == 2 && report.seed == 2);
    CHECK(dealer_run(s, NULL) == DEALER_OK);

    /* NULL sessions everywhere else. */
    dealer_deal d = deal_from_text(known_tables[1].deal);
    dealer_dds_results t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.par_vulnerability = -1;
    int32_t v;
    CHECK(dealer_load_script(NULL, (const uint8_t *)"produce 1\n", 10) == DEALER_ERROR_NULL);
    CHECK(dealer_load_script_file(NULL, "/dev/null") == DEALER_ERROR_NULL);
    CHECK(dealer_next_deal(NULL, &d) == DEALER_ERROR_NULL);
    CHECK(dealer_eval(NULL, "1", &v) == DEALER_ERROR_NULL);
    CHECK(dealer_dds_table(NULL, NULL, &t) == DEALER_ERROR_NULL);
    CHECK(dealer_set_output(NULL, 0, NULL, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_run(NULL, &report) == DEALER_ERROR_NULL);

    /* Other misuse of a live session. */
    CHECK(dealer_eval(s, NULL, &v) == DEALER_ERROR_NULL);
    CHECK(dealer_eval(s, "1", NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_eval(s, "\xe2\x82", &v) == DEALER_ERROR_UTF8);
    CHECK(dealer_load_script_file(s, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_load_script_file(s, "/tmp/\xff.dl") == DEALER_ERROR_UTF8);
    CHECK(dealer_load_script_file(s, "/") == DEALER_ERROR_IO);
    CHECK(dealer_set_option(s, "seed", NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_set_option(s, "\xff", "1") == DEALER_ERROR_UTF8);
    CHECK(dealer_set_option(s, "swap", "1") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "statistics", "maybe") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_output(s, DEALER_STREAM_DEALS + 1, capture, &out) == DEALER_ERROR_USAGE);
    CHECK(dealer_set_output(s, DEALER_STREAM_CSV, NULL, NULL) == DEALER_OK && no_error(s));
    /* dds_table: size 0 and a too-small size are usage errors, bad vulnerabilities option errors. */
    t.size = 0;
    CHECK(dealer_dds_table(s, &d, &t) == DEALER_ERROR_USAGE);
    t.size = sizeof t - 1;
    CHECK(dealer_dds_table(s, &d, &t) == DEALER_ERROR_USAGE);
    t.size = sizeof t;
    t.par_vulnerability = -2;
    CHECK(dealer_dds_table(s, &d, &t) == DEALER_ERROR_OPTION);
    t.par_vulnerability = INT32_MAX;
    CHECK(dealer_dds_table(s, &d, &t) == DEALER_ERROR_OPTION);
    t.par_vulnerability = -1;
    dealer_deal empty = {{0, 0, 0, 0}};
    CHECK(dealer_dds_table(s, &empty, &t) == DEALER_ERROR_USAGE);
    dealer_deal twelve = d;
    twelve.hands[0] &= twelve.hands[0] - 1; /* a card missing */
    CHECK(dealer_dds_table(s, &twelve, &t) == DEALER_ERROR_USAGE);
    dealer_deal doubled = d;
    doubled.hands[1] |= doubled.hands[0] & (0 - doubled.hands[0]); /* a card held twice */
    CHECK(dealer_dds_table(s, &doubled, &t) == DEALER_ERROR_USAGE);

    /* A script file: the path is the input name shown by printpbn. */
#ifdef _WIN32
    char path[MISSING_PATH];
    snprintf(path, sizeof path, "%s\\test_capi_XXXXXX", scratch_dir);
#else
    char path[] = "/tmp/test_capi_XXXXXX";
#endif
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        const char *script = "produce 1\naction printpbn\n";
        CHECK(write(fd, script, strlen(script)) == (ssize_t)strlen(script));
        close(fd);
        CHECK(dealer_set_seed(s, 4) == DEALER_OK);
        CHECK(dealer_load_script_file(s, path) == DEALER_OK && no_error(s));
        CHECK(run_captured(s, &out, NULL) == DEALER_OK);
        char event[128];
        snprintf(event, sizeof event, "[Event \"Hand simulated by DealerV2_4 with file %s, seed 4\"]\n", path);
        CHECK(strncmp(out.data, event, strlen(event)) == 0);
        CHECK(strstr(out.data, "[Deal \"N:") != NULL);
        unlink(path);
    }
    /* An empty script (NULL text, length 0) loads. */
    CHECK(dealer_load_script(s, NULL, 0) == DEALER_OK && no_error(s));
    dealer_free_session(s);
}

/* An output callback that calls back into the session that is running it. */
struct reentry { dealer_session *session; int32_t eval_status, run_status, calls; };

static int32_t reenter(const uint8_t *data, size_t len, void *userdata) {
    struct reentry *r = userdata;
    int32_t value = 0;
    (void)data;
    (void)len;
    r->calls++;
    r->eval_status = dealer_eval(r->session, "hcp(north)", &value);
    r->run_status = dealer_run(r->session, NULL);
    dealer_free_session(r->session);   /* ignored while the session is running */
    return 0;
}

static void test_reentry_from_a_callback(void) {
    dealer_session *s = session_with("chacha", "3", "produce 2\naction printoneline\n");
    CHECK(s != NULL);
    if (!s) return;
    struct reentry r = {s, 0, 0, 0};
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, reenter, &r) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    CHECK(r.calls > 0);
    CHECK(r.eval_status == DEALER_ERROR_USAGE && r.run_status == DEALER_ERROR_USAGE);
    /* The session is intact afterwards. */
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, NULL, NULL) == DEALER_OK);
    dealer_deal d;
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    dealer_free_session(s);
}

/* A loaded script keeps its dialect: expressions on its deals are read in it. */
static void test_dialect_stays_with_the_script(void) {
    dealer_session *s = session_with("chacha", "3", "produce 1\n");
    CHECK(s != NULL);
    if (!s) return;
    dealer_deal d;
    int32_t v = -1;
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_set_dialect(s, DEALER_DIALECT_CLASSIC) == DEALER_OK);
    CHECK(dealer_load_script(s, (const uint8_t *)"produce 1\n", 10) == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    /* ltc() is DealerV2-only: a classic script's expressions do not know it ... */
    CHECK(dealer_eval(s, "ltc(north)", &v) == DEALER_ERROR_SCRIPT);
    /* ... even after the dialect option changes, until a script is loaded in the new one. */
    CHECK(dealer_set_dialect(s, DEALER_DIALECT_V2) == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_eval(s, "ltc(north)", &v) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_load_script(s, (const uint8_t *)"produce 1\n", 10) == DEALER_OK);
    CHECK(dealer_next_deal(s, &d) == DEALER_OK);
    CHECK(dealer_eval(s, "ltc(north)", &v) == DEALER_OK && v >= 0 && v <= 1300);  /* LTC x 100 */
    dealer_free_session(s);
}

/* The limits on hostile scripts answer with errors (run under the sanitizers and valgrind too). */
static void test_limits(void) {
    dealer_session *s = session_with(NULL, "1", NULL);
    CHECK(s != NULL);
    /* 20,000 levels: the parser's limit. */
    size_t n = 20000, len = 0;
    char *deep = malloc(16 + 2 * n);
    CHECK(deep != NULL);
    if (deep) {
        len += (size_t)sprintf(deep, "condition 1");
        for (size_t i = 0; i < n; i++) len += (size_t)sprintf(deep + len, "+1");
        CHECK(dealer_load_script(s, (const uint8_t *)deep, len) == DEALER_ERROR_SCRIPT);
        CHECK(strcmp(dealer_last_error_summary(s), "line 1: memory exhausted") == 0);
        free(deep);
    }
    /* Variables built from variables: refused before they can run away. */
    char nested[2048];
    len = (size_t)sprintf(nested, "a0 = hcp(north) > 1\n");
    for (int i = 1; i <= 25; i++) len += (size_t)sprintf(nested + len, "a%d = a%d && a%d\n", i, i - 1, i - 1);
    len += (size_t)sprintf(nested + len, "condition a25\n");
    CHECK(dealer_load_script(s, (const uint8_t *)nested, len) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "expression too large") != NULL);
    /* print(compass) keeps its deals: bounded before anything is dealt. */
    static const char pages[] = "generate 5000000\nproduce 2000000\naction print(north)\n";
    CHECK(dealer_load_script(s, (const uint8_t *)pages, strlen(pages)) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "at most 1000000 deals") != NULL);
    /* An interruption before a run stops that run, and only that one. */
    static const char small[] = "produce 2\naction printoneline\n";
    struct buffer out = { .len = 0 };
    CHECK(dealer_load_script(s, (const uint8_t *)small, strlen(small)) == DEALER_OK);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    dealer_interrupter *interrupter = NULL;
    CHECK(dealer_create_interrupter(s, &interrupter) == DEALER_OK);
    CHECK(dealer_create_interrupter(s, NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_create_interrupter(NULL, &interrupter) == DEALER_ERROR_NULL);
    dealer_interrupt(interrupter);
    CHECK(dealer_run(s, NULL) == DEALER_INTERRUPTED && out.len == 0);
    CHECK(strcmp(dealer_last_error(s), "interrupted") == 0 && dealer_last_error_exit_code(s) == 130);
    CHECK(dealer_run(s, NULL) == DEALER_OK && out.len > 0);
    dealer_free_interrupter(interrupter);
    /* Found by the capi fuzzer: a time limit beyond any point in time (was a caught panic,
     * "overflow when adding duration to instant", DEALER_ERROR_INTERNAL). */
    CHECK(dealer_set_option(s, "time_limit", "18446744073709551615") == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    /* Scripts are capped (max_script_bytes, default 16 MiB) before they are read or copied: a
     * length of SIZE_MAX is refused without touching the bytes, /dev/zero is not read. */
    CHECK(dealer_load_script(s, (const uint8_t *)small, SIZE_MAX) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "more than 16777216 (option max_script_bytes)") != NULL);
#ifndef _WIN32
    CHECK(dealer_load_script_file(s, "/dev/zero") == DEALER_ERROR_IO);
    CHECK(strcmp(dealer_last_error(s), "/dev/zero: not a regular file") == 0);
#endif
    CHECK(dealer_load_script_file(s, scratch_dir) == DEALER_ERROR_IO);
    CHECK(strstr(dealer_last_error(s), "not a regular file") != NULL);
    CHECK(dealer_set_option(s, "max_script_bytes", "10") == DEALER_OK);
    CHECK(dealer_load_script(s, (const uint8_t *)small, strlen(small)) == DEALER_ERROR_SCRIPT);
    CHECK(dealer_set_option(s, "max_script_bytes", "0") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "max_script_bytes", "64") == DEALER_OK);
    CHECK(dealer_load_script(s, (const uint8_t *)small, strlen(small)) == DEALER_OK);
    /* A library file that is a folder says so. */
    CHECK(dealer_set_option(s, "library_file", scratch_dir) == DEALER_OK);
    CHECK(dealer_run(s, NULL) != DEALER_OK);
    CHECK(strstr(dealer_last_error(s), "not a regular file") != NULL);
    dealer_free_session(s);
}

/* dealer_next_deals gives the deals dealer_next_deal gives one by one, with the values of
 * compiled expressions; dealer_deal_from_pbn reads back dealer_deal_to_pbn's text, and
 * dealer_set_deal makes a deal read from PBN the one dealer_eval sees. */
static void test_bulk_and_pbn_deals(void) {
    const char *script = "condition hcp(north) >= 12\nproduce 40\n";
    dealer_session *one = session_with("chacha", "7", script);
    dealer_session *bulk = session_with("chacha", "7", script);
    CHECK(one != NULL && bulk != NULL);
    if (!one || !bulk) return;
    uint32_t ids[2];
    CHECK(dealer_compile_expression(bulk, "hcp(north)", &ids[0]) == DEALER_OK);
    CHECK(dealer_compile_expression(bulk, "spades(south) * 100 + hearts(west)", &ids[1]) == DEALER_OK);
    dealer_deal deals[50];
    int32_t values[100];
    size_t produced = 99;
    /* 30, then the 10 left of the produce limit of 40 (asked for 20: DEALER_DONE). */
    CHECK(dealer_next_deals(bulk, 30, deals, ids, 2, values, &produced) == DEALER_OK && produced == 30);
    CHECK(dealer_next_deals(bulk, 20, deals + 30, ids, 2, values + 60, &produced) == DEALER_DONE && produced == 10);
    CHECK(dealer_next_deals(bulk, 5, NULL, NULL, 0, NULL, &produced) == DEALER_DONE && produced == 0);
    int same = 1, values_ok = 1;
    for (int i = 0; i < 40; i++) {
        dealer_deal d;
        if (dealer_next_deal(one, &d) != DEALER_OK) { same = 0; break; }
        for (int h = 0; h < 4; h++) if (d.hands[h] != deals[i].hands[h]) same = 0;
        int32_t hcp = -1, mix = -1;
        dealer_eval(one, "hcp(north)", &hcp);
        dealer_eval(one, "spades(south) * 100 + hearts(west)", &mix);
        if (values[2 * i] != hcp || values[2 * i + 1] != mix || hcp < 12) values_ok = 0;
    }
    CHECK(same);
    CHECK(values_ok);
    /* Errors: an unknown id deals nothing; NULL arguments. */
    uint32_t bad = 999999;
    produced = 99;
    CHECK(dealer_next_deals(bulk, 1, deals, &bad, 1, values, &produced) == DEALER_ERROR_USAGE && produced == 0);
    CHECK(strstr(dealer_last_error(bulk), "unknown expression id") != NULL);
    CHECK(dealer_next_deals(bulk, 1, deals, ids, 1, NULL, &produced) == DEALER_ERROR_NULL);
    CHECK(dealer_next_deals(bulk, 1, deals, NULL, 0, NULL, NULL) == DEALER_ERROR_NULL);

    /* PBN both ways, then evaluation on a deal set by the caller. */
    char pbn[80];
    CHECK(dealer_deal_to_pbn(&deals[3], pbn, sizeof pbn) < sizeof pbn);
    dealer_deal back;
    CHECK(dealer_deal_from_pbn(one, pbn, &back) == DEALER_OK);
    CHECK(memcmp(&back, &deals[3], sizeof back) == 0);
    CHECK(dealer_set_deal(one, &back) == DEALER_OK);
    int32_t hcp = -1;
    CHECK(dealer_eval(one, "hcp(north)", &hcp) == DEALER_OK && hcp == values[6]);
    dealer_dds_results table;
    memset(&table, 0, sizeof table);
    table.size = sizeof table;
    table.par_vulnerability = -1;
    CHECK(dealer_dds_table(one, NULL, &table) == DEALER_OK);
    int32_t tricks = -1;
    CHECK(dealer_eval(one, "dds(north, notrump)", &tricks) == DEALER_OK && tricks == table.tricks[0][4]);
    const char *east_first = "E:AK.Q.J.T - - -";
    CHECK(dealer_deal_from_pbn(one, east_first, &back) == DEALER_OK && back.hands[1] != 0 && back.hands[0] == 0);
    CHECK(dealer_set_deal(one, &back) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(one), "52 cards") != NULL);
    uint32_t line = 0, col = 0;
    CHECK(dealer_deal_from_pbn(one, "N:AK.Q.J.T QX.. - -", &back) == DEALER_ERROR_USAGE);
    CHECK(dealer_last_error_location(one, &line, &col) == DEALER_OK && line == 1 && col == 13);
    CHECK(strstr(dealer_last_error(one), "unexpected character 'X'") != NULL);
    CHECK(dealer_deal_from_pbn(one, NULL, &back) == DEALER_ERROR_NULL);
    CHECK(dealer_deal_from_pbn(one, pbn, NULL) == DEALER_ERROR_NULL);
    dealer_session *empty = NULL;
    CHECK(dealer_create_session(&empty) == DEALER_OK);
    CHECK(dealer_set_deal(empty, &deals[0]) == DEALER_ERROR_USAGE);
    CHECK(strstr(dealer_last_error(empty), "no script") != NULL);
    dealer_free_session(empty);
    dealer_free_session(one);
    dealer_free_session(bulk);
}

/* Practice sets through the C API: levelling options on dealer_run (exact quotas of the
 * hand types), and a mixed board set of two scenarios (dealer_mix_add), their quotas, board
 * numbers and names; a scenario with a script error is refused naming it. */
static void test_practice_sets(void) {
    const char *ladder = "HandType_low = hcp(south) <= 11\nHandType_mid = hcp(south) >= 12 and hcp(south) <= 17\n"
                         "HandType_high = hcp(south) >= 18\ncondition 1\naction printpbn\n";
    dealer_session *s = session_with("chacha", "5", ladder);
    static struct buffer out;
    out.len = 0;
    CHECK(s != NULL);
    CHECK(dealer_set_option(s, "level", "true") == DEALER_OK);
    CHECK(dealer_set_option(s, "produce", "9") == DEALER_OK);
    CHECK(dealer_set_option(s, "format", "jsonl") == DEALER_OK);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    CHECK(dealer_run(s, &report) == DEALER_OK && report.produced == 9);
    int low = 0, mid = 0, high = 0;
    for (const char *p = out.data; (p = strstr(p, "\"hand_type\":\"")) != NULL; p++) {
        p += strlen("\"hand_type\":\"");
        low += strncmp(p, "low\"", 4) == 0;
        mid += strncmp(p, "mid\"", 4) == 0;
        high += strncmp(p, "high\"", 5) == 0;
    }
    CHECK(low == 3 && mid == 3 && high == 3);
    dealer_free_session(s);

    s = session_with("chacha", "6", NULL);
    out.len = 0;
    const char *a = "condition hcp(north) >= 20\n", *b = "dealer west\ncondition spades(west) >= 6\n";
    CHECK(dealer_mix_add(s, "strong", (const uint8_t *)a, strlen(a), 1.0, -1) == DEALER_OK);
    CHECK(dealer_mix_add(s, "weak2", (const uint8_t *)b, strlen(b), 0.0, 2) == DEALER_OK);
    CHECK(dealer_mix_add(s, "broken", (const uint8_t *)"condition hcp(north) >", 22, 1.0, -1) == DEALER_ERROR_SCRIPT);
    CHECK(strstr(dealer_last_error(s), "in scenario broken") != NULL);
    CHECK(dealer_mix_add(s, "bad weight", (const uint8_t *)a, strlen(a), -1.0, -1) == DEALER_ERROR_USAGE);
    CHECK(dealer_set_option(s, "produce", "6") == DEALER_OK);
    CHECK(dealer_set_option(s, "format", "jsonl") == DEALER_OK);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    CHECK(dealer_run(s, &report) == DEALER_OK && report.produced == 6);
    int strong = 0, weak2 = 0;
    for (const char *p = out.data; (p = strstr(p, "\"scenario\":\"")) != NULL; p++) {
        strong += strncmp(p + 12, "strong\"", 7) == 0;
        weak2 += strncmp(p + 12, "weak2\"", 6) == 0;
    }
    CHECK(strong == 4 && weak2 == 2);
    CHECK(strstr(out.data, "\"board\":6,") != NULL && strstr(out.data, "\"board\":7,") == NULL);
    CHECK(dealer_mix_clear(s) == DEALER_OK);
    CHECK(dealer_mix_clear(NULL) == DEALER_ERROR_NULL);
    dealer_free_session(s);
}

/* A job cut into three parts by deal numbers, each written to its part file, and merged: the
 * merge prints what one run prints (the "Time needed" line aside); a missing part is refused
 * before anything is written. */
static void test_scale_out(void) {
    const char *script = "condition hcp(south) >= 14\nproduce 20\naction printoneline, average hcp(north)\n";
    static struct buffer one, merged;
    one.len = merged.len = 0;
    dealer_session *s = session_with("chacha", "21", script);
    CHECK(s != NULL);
    CHECK(dealer_set_option(s, "generate", "300") == DEALER_OK);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &one) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    dealer_free_session(s);
    char paths[3][MISSING_PATH];
    for (int k = 0; k < 3; k++) {
        char name[32], part[32];
        snprintf(name, sizeof name, "part%d.bin", k);
        snprintf(part, sizeof part, "%d/3", k);
        missing_path(paths[k], name);
        s = session_with("chacha", "21", script);
        CHECK(s != NULL);
        CHECK(dealer_set_option(s, "generate", "300") == DEALER_OK);
        CHECK(dealer_set_option(s, "part", part) == DEALER_OK);
        CHECK(dealer_set_option(s, "part_file", paths[k]) == DEALER_OK);
        dealer_run_report report;
        memset(&report, 0, sizeof report);
        report.size = sizeof report;
        CHECK(dealer_run(s, &report) == DEALER_OK && report.generated > 0 && report.generated <= 100 && report.produced <= 20);
        dealer_free_session(s);
    }
    s = session_with(NULL, NULL, NULL);
    CHECK(s != NULL);
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &merged) == DEALER_OK);
    CHECK(dealer_merge_add(s, paths[0]) == DEALER_OK && dealer_merge_add(s, paths[2]) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_USAGE && strstr(dealer_last_error(s), "a part is missing") != NULL);
    CHECK(merged.len == 0);
    CHECK(dealer_merge_add(s, paths[1]) == DEALER_OK);
    CHECK(dealer_run(s, NULL) == DEALER_OK);
    /* Equal up to the "Time needed" line. */
    const char *time_one = strstr(one.data, "Time needed"), *time_merged = strstr(merged.data, "Time needed");
    CHECK(time_one && time_merged && time_one - one.data == time_merged - merged.data);
    CHECK(time_one && memcmp(one.data, merged.data, (size_t)(time_one - one.data)) == 0);
    CHECK(dealer_merge_clear(s) == DEALER_OK);
    CHECK(dealer_merge_add(NULL, paths[0]) == DEALER_ERROR_NULL && dealer_merge_clear(NULL) == DEALER_ERROR_NULL);
    CHECK(dealer_merge_add(s, NULL) == DEALER_ERROR_NULL);
    dealer_free_session(s);
    for (int k = 0; k < 3; k++) remove(paths[k]);
}

/* ---- Reading deals: dealer_set_input_data and the options input, input_format, verify_dd,
 * input_errors. ---- */

/* Records with one malformed hand on line 2 (column 75), as one-line text. */
static const char ONELINE_WITH_A_BAD_RECORD[] =
    "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.5432\n"
    "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.543X\n"
    "w AKQJ.AKQ.AKQ.AKQ n T987.JT9.JT9.JT9 e 6543.876.876.876 s 2.5432.5432.5432\n";

static void test_input_data(void) {
    const int deals = (int)dd_deals(3);
    char script[64], produce[16], want[320];
    snprintf(script, sizeof script, "produce %d\n", deals);
    snprintf(produce, sizeof produce, "%d", deals);
    static struct buffer pbn, expected, out, diagnostics;
    dealer_run_report report = {.size = sizeof(dealer_run_report)};
    /* The deals as PBN records from board 5 on, with their double-dummy tables... */
    dealer_session *gen = session_with("chacha", "12", script);
    CHECK(gen != NULL);
    if (!gen) return;
    CHECK(dealer_set_option(gen, "format", "pbn") == DEALER_OK);
    CHECK(dealer_set_option(gen, "pbn_dd", "true") == DEALER_OK);
    CHECK(dealer_set_option(gen, "start_board", "5") == DEALER_OK);
    CHECK(run_captured(gen, &pbn, &report) == DEALER_OK && report.produced == deals);
    dealer_free_session(gen);
    int nt_sum = 0, tables = 0;
    for (const char *t = pbn.data; (t = strstr(t, "[OptimumResultTable")) != NULL; t++) {
        int nt = -1;
        if (sscanf(strchr(t, '\n') + 1, "N NT %d", &nt) == 1) {
            nt_sum += nt;
            tables++;
        }
    }
    CHECK(tables == deals);
    /* ... and as printoneline prints them, dealt one by one. */
    expected.len = 0;
    expected.data[0] = 0;
    dealer_session *one = session_with("chacha", "12", script);
    CHECK(one != NULL);
    for (int k = 0; one && k < deals; k++) {
        dealer_deal d;
        char line[128];
        CHECK(dealer_next_deal(one, &d) == DEALER_OK);
        size_t n = dealer_deal_to_oneline(&d, line, sizeof line - 1);
        line[n] = '\n';
        capture((const uint8_t *)line, n + 1, &expected);
    }
    dealer_free_session(one);

    /* Read from memory through a script: the same deals, the records' tables read, not solved. */
    dealer_session *s = session_with(NULL, NULL, "action printoneline, average dds(north, notrump)\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_input_data(s, (const uint8_t *)pbn.data, pbn.len) == DEALER_OK && no_error(s));
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.generated == deals && report.produced == deals);
    CHECK(out.len > expected.len && memcmp(out.data, expected.data, expected.len) == 0);
    CHECK(strncmp(out.data + expected.len, "Mean=", 5) == 0);
    const char *summary = dealer_last_summary(s);
    snprintf(want, sizeof want,
             "\"input\":{\"name\":\"input data\",\"format\":\"pbn\",\"records_read\":%d,\"malformed_skipped\":0,"
             "\"off_predeal_skipped\":0,\"dd_read\":%d,\"dd_verified\":0}",
             deals, deals);
    CHECK(strstr(summary, want) != NULL);
    CHECK(strstr(summary, "\"dd\":{\"thresholds\":0,\"exact\":0,\"tables\":0,") != NULL);
    const char *mean = strstr(summary, "\"statistics\":[{\"type\":\"average\",");
    mean = mean ? strstr(mean, "\"mean\":") : NULL;
    double diff = mean ? strtod(mean + 7, NULL) - (double)nt_sum / deals : 1.0;
    CHECK(mean != NULL && diff < 1e-9 && diff > -1e-9);
    /* The records' board numbers, dealers and vulnerabilities are kept. */
    CHECK(dealer_set_option(s, "format", "jsonl") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK);
    const char *board5 = "{\"schema\":1,\"type\":\"deal\",\"board\":5,\"dealer\":\"N\",\"vulnerable\":\"NS\",";
    CHECK(strncmp(out.data, board5, strlen(board5)) == 0);
    CHECK(dealer_set_option(s, "format", "script") == DEALER_OK);
    /* dealer_next_deal reads them too, then says DEALER_DONE. */
    {
        dealer_deal d;
        char line[128];
        int n = 0, same = 0;
        int32_t status;
        const char *at = expected.data;
        while ((status = dealer_next_deal(s, &d)) == DEALER_OK && n < 10) {
            size_t len = dealer_deal_to_oneline(&d, line, sizeof line);
            if (strncmp(at, line, len) == 0 && at[len] == '\n') {
                same++;
                at += len + 1;
            }
            n++;
        }
        CHECK(status == DEALER_DONE && n == deals && same == deals);
    }
    /* verify_dd: the first table is solved again and agrees; a table that disagrees stops the
     * run, naming the record (not under valgrind, where a solve takes tens of seconds: the
     * plain and sanitizer runs check them). */
    if (deals > 1) {
        CHECK(dealer_set_option(s, "verify_dd", "1") == DEALER_OK);
        CHECK(run_captured(s, &out, &report) == DEALER_OK && memcmp(out.data, expected.data, expected.len) == 0);
        summary = dealer_last_summary(s);
        snprintf(want, sizeof want, "\"dd_read\":%d,\"dd_verified\":1}", deals - 1);
        CHECK(strstr(summary, want) != NULL && strstr(summary, "\"tables\":1,") != NULL);
        static struct buffer tampered;
        memcpy(tampered.data, pbn.data, pbn.len + 1);
        tampered.len = pbn.len;
        char *row = strstr(tampered.data, "\nN NT ");
        int nt = -1;
        CHECK(row != NULL && sscanf(row, "\nN NT %d", &nt) == 1);
        if (row) {
            char digits[4];
            snprintf(digits, sizeof digits, "%2d", (nt + 1) % 14);
            memcpy(row + 6, digits, 2);
        }
        CHECK(dealer_set_input_data(s, (const uint8_t *)tampered.data, tampered.len) == DEALER_OK);
        CHECK(run_captured(s, &out, &report) == DEALER_ERROR_RUN);
        snprintf(want, sizeof want, "input data:1: verify_dd: the double-dummy table disagrees with the solver: "
                 "North in notrump: %d in the input, %d solved", (nt + 1) % 14, nt);
        CHECK(strstr(dealer_last_error(s), want) != NULL);
        CHECK(strcmp(dealer_last_summary(s), "") == 0);
    }
    CHECK(dealer_set_option(s, "verify_dd", "0") == DEALER_OK);

    /* The input option reads a file: the same run; a missing file is an I/O error. */
    char path[MISSING_PATH], missing[MISSING_PATH];
    FILE *f = fopen(missing_path(path, "deals.pbn"), "wb");
    CHECK(f != NULL && fwrite(pbn.data, 1, pbn.len, f) == pbn.len);
    if (f) fclose(f);
    CHECK(dealer_set_option(s, "input", path) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == deals);
    CHECK(out.len > expected.len && memcmp(out.data, expected.data, expected.len) == 0);
    summary = dealer_last_summary(s);
    snprintf(want, sizeof want, "deals.pbn\",\"format\":\"pbn\",\"records_read\":%d,", deals);
    CHECK(strstr(summary, "\"input\":{\"name\":\"") != NULL && strstr(summary, want) != NULL);
    CHECK(dealer_set_option(s, "input", missing_path(missing, "none.pbn")) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_ERROR_IO && strstr(dealer_last_error(s), "none.pbn") != NULL);
    /* Bad values of the options are refused. */
    CHECK(dealer_set_option(s, "input_format", "csv") == DEALER_ERROR_OPTION);
    CHECK(strstr(dealer_last_error(s), "option input_format") != NULL);
    CHECK(dealer_set_option(s, "input_errors", "ignore") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "verify_dd", "-1") == DEALER_ERROR_OPTION);
    dealer_free_session(s);
    remove(path);

    /* A malformed record stops the run, naming the input, line and column; the deals before it
     * are written. With input_errors skip it is skipped, reported and counted. */
    s = session_with("chacha", "12", "action printoneline\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_input_data(s, (const uint8_t *)ONELINE_WITH_A_BAD_RECORD, strlen(ONELINE_WITH_A_BAD_RECORD)) == DEALER_OK);
    CHECK(dealer_set_option(s, "input_format", "oneline") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_ERROR_IO);
    CHECK(strstr(dealer_last_error(s), "input data:2:75: 'X' is not a card rank") != NULL);
    CHECK(strcmp(out.data, "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.5432 \n") == 0);
    CHECK(dealer_set_option(s, "input_errors", "skip") == DEALER_OK);
    diagnostics.len = 0;
    diagnostics.data[0] = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_DIAGNOSTICS, capture, &diagnostics) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 2);
    CHECK(strstr(out.data, "\nn T987.JT9.JT9.JT9 e 6543.876.876.876 s 2.5432.5432.5432 w AKQJ.AKQ.AKQ.AKQ \n") != NULL);
    CHECK(strstr(diagnostics.data, "skipped a malformed record: input data:2:75: ") != NULL);
    CHECK(strstr(dealer_last_summary(s), "\"format\":\"oneline\",\"records_read\":3,\"malformed_skipped\":1,") != NULL);
    /* An empty input has no records. (The report's generated count is DealerV2's, 1 for none.) */
    CHECK(dealer_set_input_data(s, (const uint8_t *)"", 0) == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == 0 && strstr(out.data, "AKQJ") == NULL);
    CHECK(strstr(dealer_last_summary(s), "\"records_read\":0,") != NULL);

    /* Removing the input (data NULL, length 0; or the input option empty) deals again. */
    CHECK(dealer_set_option(s, "produce", produce) == DEALER_OK);
    CHECK(dealer_set_input_data(s, NULL, 0) == DEALER_OK && no_error(s));
    CHECK(run_captured(s, &out, &report) == DEALER_OK && report.produced == deals);
    CHECK(strncmp(out.data, expected.data, expected.len) == 0 && strstr(dealer_last_summary(s), "\"input\"") == NULL);
    CHECK(dealer_set_option(s, "input", missing) == DEALER_OK && dealer_set_option(s, "input", "") == DEALER_OK);
    CHECK(run_captured(s, &out, &report) == DEALER_OK && strncmp(out.data, expected.data, expected.len) == 0);

    /* Bad arguments. */
    CHECK(dealer_set_input_data(NULL, NULL, 0) == DEALER_ERROR_NULL);
    CHECK(dealer_set_input_data(s, NULL, 5) == DEALER_ERROR_NULL && strstr(dealer_last_error(s), "data is NULL") != NULL);
    CHECK(dealer_set_input_data(s, (const uint8_t *)"x", SIZE_MAX) == DEALER_ERROR_USAGE);
    CHECK(dealer_set_input_data(s, NULL, 0) == DEALER_OK);
    dealer_free_session(s);
}

int main(void) {
#ifdef _WIN32
    DWORD n = GetTempPathA(MAX_PATH, scratch_dir);
    if (n == 0 || n >= MAX_PATH) return 1;
    snprintf(scratch_dir + n, sizeof scratch_dir - n, "test_capi_dir_%lu", (unsigned long)GetCurrentProcessId());
    if (_mkdir(scratch_dir) != 0) {
        perror(scratch_dir);
        return 1;
    }
#else
    if (mkdtemp(scratch_dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
#endif
    test_limits();
    test_null_and_misuse();
    test_reentry_from_a_callback();
    test_dialect_stays_with_the_script();
    test_script_error_location();
    test_next_deal_and_eval();
    test_reproducible();
    test_whole_number_options();
    test_seed_read_back();
    test_run_with_callback();
    test_practice_sets();
    test_scale_out();
    test_not_available();
    test_pbn();
    test_dds_table();
    test_seed_and_generator();
    test_dialect();
    test_generate_and_produce();
    test_threads();
    test_variables();
    test_predeal();
    test_spot_cards();
    test_output_fd();
    test_output_fd_closed_reader();
    test_compiled_expressions();
    test_bulk_and_pbn_deals();
    test_oneline();
    test_version_number();
    test_error_texts();
    test_run_report_and_misuse();
    test_board_records();
    test_deals_stream();
    test_board_dd();
    test_last_summary();
    test_input_data();
    test_check_bbo();
    CHECK(rmdir(scratch_dir) == 0);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

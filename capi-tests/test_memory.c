/*
 * Memory stays flat when sessions are created, used and freed in a loop, through the C API
 * (include/dealer.h only): a server creates a session per request for days. Each round creates a
 * session, fails to load a bad script, loads a good one, runs it on two threads with its output
 * sent to a callback, deals and evaluates (a bad expression too), solves a double-dummy table
 * (every 100th round), interrupts a run, and frees everything. The resident set size is read
 * after every round, once the C library has returned the memory it holds free to the system
 * (glibc's malloc_trim: otherwise the double-dummy solver's freed tables stay resident or not
 * depending on where later allocations land, which moves the reading by megabytes from one
 * round to the next); its floor (the least reading) over the WINDOW rounds after WARMUP rounds
 * and over the last WINDOW of WARMUP + ROUNDS rounds must differ by less than LIMIT_KB: a leak
 * raises the floor. (Not built for the sanitizer runs, whose allocators keep freed memory on
 * purpose.)
 *
 * First, the `dds_table_mb` option bounds the double-dummy solver's memory: the same run in a child
 * process with a 16 MB table and with the default (160 MB) prints the same results, and the small
 * table's peak resident set stays under SMALL_TABLE_PEAK_KB. Prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dealer.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

enum { WARMUP = 300, ROUNDS = 2000, WINDOW = 100, LIMIT_KB = 2048 };

/* The peak resident set of a run with a 16 MB solver table: the table, DDS's fixed 6 MB of hash
 * roots and the process (measured: 28 MB; 60 MB with the default table). */
enum { SMALL_TABLE_PEAK_KB = 40 * 1024 };

static int passed, failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) passed++;                                                    \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

/* Counts the bytes written and keeps nothing. */
static int32_t count_bytes(const uint8_t *data, size_t len, void *userdata) {
    (void)data;
    *(size_t *)userdata += len;
    return 0;
}

/* The process's resident set size in kilobytes. */
static long resident_kb(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* One round of a session's life; returns 0 when every call answered as expected. */
static int round_trip(int round) {
    static const char bad[] = "condition hcp(north) >\naction printall\n";
    static const char good[] =
        "generate 2000\nproduce 50\n"
        "nt = shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15\n"
        "condition nt || hcp(south) > 12\n"
        "action printoneline, average hcp(north), frequency (spades(north), 0, 13)\n";
    dealer_session *s = NULL;
    int ok = dealer_create_session(&s) == DEALER_OK;
    char seed[32];
    snprintf(seed, sizeof seed, "%d", round + 1);
    size_t written = 0;
    ok = ok && dealer_set_option(s, "seed", seed) == DEALER_OK;
    ok = ok && dealer_set_threads(s, 2) == DEALER_OK;
    ok = ok && dealer_load_script(s, (const uint8_t *)bad, strlen(bad)) == DEALER_ERROR_SCRIPT;
    ok = ok && dealer_load_script(s, (const uint8_t *)good, strlen(good)) == DEALER_OK;
    ok = ok && dealer_set_output(s, DEALER_STREAM_OUTPUT, count_bytes, &written) == DEALER_OK;
    ok = ok && dealer_run(s, NULL) == DEALER_OK && written > 0;
    dealer_deal deal;
    int32_t value = 0;
    ok = ok && dealer_next_deal(s, &deal) == DEALER_OK;
    ok = ok && dealer_eval(s, "hcp(north) + hcp(south)", &value) == DEALER_OK;
    ok = ok && dealer_eval(s, "hcp(", &value) == DEALER_ERROR_SCRIPT;
    if (round % 100 == 0) {
        dealer_dds_results table;
        memset(&table, 0, sizeof table);
        table.size = sizeof table;
        table.par_vulnerability = 0;
        ok = ok && dealer_dds_table(s, &deal, &table) == DEALER_OK;
    }
    dealer_interrupter *interrupter = NULL;
    ok = ok && dealer_create_interrupter(s, &interrupter) == DEALER_OK;
    dealer_interrupt(interrupter);
    ok = ok && dealer_run(s, NULL) == DEALER_INTERRUPTED;
    dealer_free_interrupter(interrupter);
    dealer_free_session(s);
    return ok ? 0 : 1;
}

/* Appends what is written to a fixed buffer (the results of one run). */
struct text {
    char bytes[4096];
    size_t len;
};

static int32_t keep_text(const uint8_t *data, size_t len, void *userdata) {
    struct text *t = userdata;
    size_t room = sizeof t->bytes - 1 - t->len;
    if (len > room) len = room;
    memcpy(t->bytes + t->len, data, len);
    t->len += len;
    t->bytes[t->len] = '\0';
    return 0;
}

/* The process's peak resident set in kilobytes (VmHWM), or -1. */
static long peak_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
    fclose(f);
    return kb;
}

/* Runs 40 deals with three double-dummy results each on one thread with `table_mb` of solver
 * table (NULL: the default) in a child process; `results` receives the run's output and the
 * return value is the child's peak resident set in KB, or -1. */
static long run_with_table(const char *table_mb, struct text *results) {
    static const char script[] =
        "generate 40\nproduce 40\n"
        "action average dds(north, notrump), average dds(south, spades), average dds(east, hearts)\n";
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        close(fds[0]);
        dealer_session *s = NULL;
        struct text out = {{0}, 0};
        int ok = dealer_create_session(&s) == DEALER_OK;
        ok = ok && dealer_set_option(s, "seed", "7") == DEALER_OK;
        ok = ok && dealer_set_option(s, "statistics", "false") == DEALER_OK;
        ok = ok && dealer_set_threads(s, 1) == DEALER_OK;
        if (table_mb) ok = ok && dealer_set_option(s, "dds_table_mb", table_mb) == DEALER_OK;
        ok = ok && dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK;
        ok = ok && dealer_set_output(s, DEALER_STREAM_OUTPUT, keep_text, &out) == DEALER_OK;
        ok = ok && dealer_run(s, NULL) == DEALER_OK;
        long peak = ok ? peak_kb() : -1;
        dealer_free_session(s);
        ssize_t wrote = write(fds[1], &peak, sizeof peak);
        wrote += write(fds[1], &out, sizeof out);
        _exit(wrote == (ssize_t)(sizeof peak + sizeof out) ? 0 : 1);
    }
    close(fds[1]);
    long peak = -1;
    FILE *f = fdopen(fds[0], "r");
    if (!f || fread(&peak, sizeof peak, 1, f) != 1 || fread(results, sizeof *results, 1, f) != 1) peak = -1;
    if (f) fclose(f);
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? peak : -1;
}

static void test_solver_table_memory(void) {
    struct text small = {{0}, 0}, standard = {{0}, 0};
    long small_peak = run_with_table("16", &small);
    long standard_peak = run_with_table(NULL, &standard);
    printf("peak resident set of 40 deals with three dds() each: %ld KB with dds_table_mb=16, %ld KB "
           "with the default\n", small_peak, standard_peak);
    CHECK(small_peak > 0 && standard_peak > 0);
    CHECK(small_peak < SMALL_TABLE_PEAK_KB);
    CHECK(small.len > 0 && strstr(small.bytes, "Mean=") != NULL);
    CHECK(small.len == standard.len && memcmp(small.bytes, standard.bytes, small.len) == 0);
}

int main(void) {
    test_solver_table_memory(); /* first: a child's peak includes what it inherits */
    int errors = 0;
    long before = -1, after = -1;
    for (int round = 0; round < WARMUP + ROUNDS; round++) {
        errors += round_trip(round);
        long now = resident_kb();
        if (round >= WARMUP && round < WARMUP + WINDOW && (before < 0 || now < before)) before = now;
        if (round >= WARMUP + ROUNDS - WINDOW && (after < 0 || now < after)) after = now;
    }
    CHECK(errors == 0);
    CHECK(before > 0 && after > 0);
    printf("least resident set over rounds %d..%d: %ld KB; over the last %d of %d: %ld KB\n", WARMUP,
           WARMUP + WINDOW, before, WINDOW, WARMUP + ROUNDS, after);
    CHECK(after - before < LIMIT_KB);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/*
 * C tests of usereval through the libdealer API (include/dealer.h only): the in-process metric
 * (dealer_set_usereval) and the DealerServer protocol (the `server` option), against the test
 * server built from examples-c/test_dealer_server.c, whose path is argv[1]:
 *
 *   - every form's slot mapping and the query fields the metric receives;
 *   - dealer_hand_stats and the deal passed to the metric against dealer_eval of the script's
 *     own functions (and literal values for a predealt hand);
 *   - the per-side (deal, tag) cache; a metric returning non-zero; a NULL callback going back to
 *     the server;
 *   - the same job through the server and through an in-process metric implementing the
 *     server's tags: the same output bytes;
 *   - failing servers (missing, dies, hangs) and sessions freed while a server runs: after each,
 *     no child process (waitpid gives ECHILD), no semaphore /dev/shm/sem.[qr]_sem_<pid>_*, no
 *     new /tmp/dealer_mmap_* file that nobody holds open, and no descriptor left open.
 *
 * Build (from the repository root):
 *   cc -O1 -g -Wall -Wextra -Werror -std=c99 -Iinclude capi-tests/test_usereval.c \
 *      -Ltarget/lib -ldealer -o target/lib/test_usereval_shared
 *   cc -O1 -g -Wall -Wextra -Werror -std=c99 -Iinclude capi-tests/test_usereval.c \
 *      target/lib/libdealer.a -lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc \
 *      -o target/lib/test_usereval_static
 * Run:
 *   LD_LIBRARY_PATH=target/lib target/lib/test_usereval_shared target/release/test_dealer_server
 *   target/lib/test_usereval_static target/release/test_dealer_server
 * Prints "N passed, M failed"; exit status 1 when a check failed, 2 on wrong use.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dealer.h"

static int passed, failed;
static const char *server_path;
/* A fresh folder for this run (mkdtemp in main, removed at the end) with a server path inside
 * it that nothing creates and a file that is not executable: whatever the machine has at fixed
 * paths plays no part. */
static char scratch_dir[] = "/tmp/test_usereval_dir_XXXXXX";
static char missing_server[64];
static char not_executable[64];

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) passed++;                                                                    \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); }     \
    } while (0)

/* CHECK with a formatted explanation on failure. */
#define CHECKF(cond, ...)                                                                      \
    do {                                                                                       \
        if (cond) passed++;                                                                    \
        else {                                                                                 \
            failed++;                                                                          \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                    \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

static const char *const SEATS[4] = {"north", "east", "south", "west"};
static const char *const SUITS[4] = {"clubs", "diamonds", "hearts", "spades"};
static const char SUIT_LETTERS[4] = {'C', 'D', 'H', 'S'};
static const char RANK_LETTERS[13] = {'2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'};

/* ---- output capture ---- */

struct buffer { char *data; size_t len, cap; };

static int32_t capture(const uint8_t *data, uintptr_t len, void *userdata) {
    struct buffer *b = userdata;
    if (b->len + len + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + len;
        char *bigger = realloc(b->data, cap);
        if (!bigger) return 1;
        b->data = bigger;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

static void buffer_reset(struct buffer *b) { b->len = 0; if (b->data) b->data[0] = 0; }
static void buffer_free(struct buffer *b) { free(b->data); b->data = NULL; b->len = b->cap = 0; }

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- what a run leaves behind ---- */

static int count_open_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1; /* the descriptor opendir itself uses */
}

/* Semaphores named after this process (/q_sem_<pid>..., /r_sem_<pid>...). */
static int own_semaphores(void) {
    char q[64], r[64];
    snprintf(q, sizeof q, "sem.q_sem_%06d", (int)getpid());
    snprintf(r, sizeof r, "sem.r_sem_%06d", (int)getpid());
    DIR *d = opendir("/dev/shm");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, q, strlen(q)) == 0 || strncmp(e->d_name, r, strlen(r)) == 0) {
            fprintf(stderr, "  left behind: /dev/shm/%s\n", e->d_name);
            n++;
        }
    }
    closedir(d);
    return n;
}

#define MAX_PAGE_FILES 256
static char page_files_before[MAX_PAGE_FILES][256];
static int n_page_files_before;

static int is_page_file(const char *name) { return strncmp(name, "dealer_mmap_", 12) == 0; }

static void remember_page_files(void) {
    n_page_files_before = 0;
    DIR *d = opendir("/tmp");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n_page_files_before < MAX_PAGE_FILES)
        if (is_page_file(e->d_name))
            snprintf(page_files_before[n_page_files_before++], 256, "%s", e->d_name);
    closedir(d);
}

/* Does any process hold `path` open? (then it belongs to a run still going on elsewhere) */
static int held_open(const char *path) {
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    struct dirent *p;
    int found = 0;
    while (!found && (p = readdir(proc)) != NULL) {
        if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
        char dir[300];
        snprintf(dir, sizeof dir, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(dir);
        if (!fds) continue;
        struct dirent *f;
        while (!found && (f = readdir(fds)) != NULL) {
            char link[600], target[PATH_MAX];
            snprintf(link, sizeof link, "%s/%s", dir, f->d_name);
            ssize_t n = readlink(link, target, sizeof target - 1);
            if (n > 0) {
                target[n] = 0;
                found = strcmp(target, path) == 0;
            }
        }
        closedir(fds);
    }
    closedir(proc);
    return found;
}

/* New page files since remember_page_files() that no process holds open. */
static int new_page_files(void) {
    DIR *d = opendir("/tmp");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_page_file(e->d_name)) continue;
        int old = 0;
        for (int i = 0; i < n_page_files_before; i++) old |= strcmp(page_files_before[i], e->d_name) == 0;
        if (old) continue;
        char path[300];
        snprintf(path, sizeof path, "/tmp/%s", e->d_name);
        if (!held_open(path)) {
            fprintf(stderr, "  left behind: %s\n", path);
            n++;
        }
    }
    closedir(d);
    return n;
}

static int baseline_fds;

/* Nothing of a server left: no child, no semaphore, no page file, no extra descriptor. */
static void check_clean(const char *what) {
    int status = 0;
    errno = 0;
    pid_t w = waitpid(-1, &status, WNOHANG);
    int child_errno = errno;
    CHECKF(w == -1 && child_errno == ECHILD, "%s: waitpid(-1, WNOHANG) = %d, errno %d (a child is left)", what,
           (int)w, child_errno);
    CHECKF(own_semaphores() == 0, "%s: semaphores left in /dev/shm", what);
    CHECKF(new_page_files() == 0, "%s: page files left in /tmp", what);
    int fds = count_open_fds();
    CHECKF(fds == baseline_fds, "%s: %d descriptors open, %d before", what, fds, baseline_fds);
}

/* ---- the in-process metric: the test server's tags ---- */

struct metric {
    int calls;                      /* every call */
    int fail_tag;                   /* return non-zero for this tag (-1: never) */
    int32_t fail_code;
    dealer_usereval_query last;     /* the last query */
    dealer_deal deal;               /* the last deal */
    dealer_hand_stats stats[4];     /* the last statistics */
};

static int popcount(uint64_t v) { int n = 0; while (v) { v &= v - 1; n++; } return n; }

static int suit_bits(uint64_t hand, int suit) { return (int)((hand >> (16 * suit)) & 0x1fff); }

static int hand_hcp(uint64_t hand) {
    int points = 0;
    for (int suit = 0; suit < 4; suit++) {
        int bits = suit_bits(hand, suit);
        points += 4 * !!(bits & (1 << 12)) + 3 * !!(bits & (1 << 11)) + 2 * !!(bits & (1 << 10)) + !!(bits & (1 << 9));
    }
    return points;
}

/*
 * Implements the test server's tags exactly (see examples-c/test_dealer_server.c):
 * 99 (and tags >= 1000) slot fill, 98 counter / curr_gen / curr_prod, 97 hand statistics echo
 * (no double-dummy results: dds_cache 0), any other tag -(HCP of N, E, S, W) in slots 0..3.
 */
static int32_t metric_fn(const dealer_usereval_query *q, const dealer_deal *deal, const dealer_hand_stats *stats,
                         int32_t *res, void *userdata) {
    struct metric *m = userdata;
    m->calls++;
    m->last = *q;
    m->deal = *deal;
    memcpy(m->stats, stats, sizeof m->stats);
    if (q->tag == m->fail_tag) return m->fail_code;
    memset(res, 0, 128 * sizeof *res);
    int side = q->side == 1 ? 1 : 0;
    if (q->tag == 99 || q->tag >= 1000) {
        for (int i = 0; i < 128; i++) res[i] = 1000 * (side + 1) + i;
    } else if (q->tag == 98) {
        res[0] = m->calls;
        res[1] = (int32_t)q->generated;
        res[2] = (int32_t)q->produced;
    } else if (q->tag == 97) {
        for (int h = 0; h < 2; h++) {
            int seat = side + 2 * h;
            const dealer_hand_stats *s = &stats[seat];
            int32_t *r = res + 32 * h;
            for (int i = 0; i < 4; i++) {
                r[i] = s->lengths[i];
                r[4 + i] = s->hcp[i];
                r[13 + i] = s->counts[10][i];
                r[18 + i] = popcount((uint64_t)suit_bits(deal->hands[seat], i));
            }
            r[8] = s->total_hcp;
            r[9] = s->total_losers;
            r[10] = s->total_controls;
            r[11] = s->total_ltc;
            r[12] = s->square_hand;
            r[17] = s->seat;
            r[22] = hand_hcp(deal->hands[seat]);
            int held = 0;
            for (int suit = 0; suit < 4; suit++)
                for (int rank = 0; rank < 13; rank++) held += s->has_card[suit][rank] != 0;
            r[23] = held;
        }
        res[64] = (int32_t)q->generated;
        res[65] = (int32_t)q->produced;
    } else {
        for (int seat = 0; seat < 4; seat++) res[seat] = -hand_hcp(deal->hands[seat]);
    }
    return 0;
}

/* ---- helpers ---- */

static dealer_session *new_session(const char *seed, const char *script) {
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) return NULL;
    dealer_set_option(s, "statistics", "false");
    if (seed) dealer_set_option(s, "seed", seed);
    if (script && dealer_load_script(s, (const uint8_t *)script, strlen(script)) != DEALER_OK) {
        fprintf(stderr, "load failed: %s\n", dealer_last_error(s));
        dealer_free_session(s);
        return NULL;
    }
    return s;
}

static int eval(dealer_session *s, const char *expression, int32_t *value) {
    int rc = dealer_eval(s, expression, value);
    if (rc != DEALER_OK) fprintf(stderr, "  dealer_eval(%s) = %d: %s\n", expression, rc, dealer_last_error(s));
    return rc;
}

/* The value of a script expression (INT32_MIN on an error). */
static int32_t value_of(dealer_session *s, const char *fmt, const char *a, const char *b) {
    char text[200];
    snprintf(text, sizeof text, fmt, a, b);
    int32_t v = 0;
    return eval(s, text, &v) == DEALER_OK ? v : INT32_MIN;
}

/* Runs the loaded script with output captured; returns dealer_run's status. */
static int run_captured(dealer_session *s, struct buffer *out) {
    buffer_reset(out);
    dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, out);
    return dealer_run(s, NULL);
}

/*
 * Whether a failed start reads as one. Under valgrind the library's spawn cannot report a failed
 * exec (valgrind runs the vfork child as a forked copy), so the child exits with status 127 and
 * the run fails with "ended (exit status: 127) without answering" instead.
 */
static int under_valgrind(void) {
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") != NULL;
}

static int start_failed(const char *message) {
    return strstr(message, "cannot start") != NULL ||
           (under_valgrind() && strstr(message, "exit status: 127") != NULL);
}

static int count_lines(const char *text) {
    int n = 0;
    for (; text && *text; text++) n += *text == '\n';
    return n;
}

/* ---- 1. slot mapping and query fields (in-process) ---- */

static void test_slot_mapping(void) {
    dealer_session *s = new_session("3", "generate 1000\ncondition hcp(north) >= 0\n");
    CHECK(s != NULL);
    if (!s) return;
    struct metric m = {.fail_tag = -1};
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    dealer_deal deal;
    int tag = 1000, wrong_value = 0, wrong_query = 0, checked = 0;
    for (int d = 0; d < 3; d++) {
        CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
        /* side forms */
        for (int side = 0; side < 2; side++) {
            int idx[] = {0, 7, 31, 127};
            for (int k = 0; k < 4; k++) {
                char e[100];
                snprintf(e, sizeof e, "usereval(%d, %s, %d)", tag, side ? "EW" : "NS", idx[k]);
                int32_t v = 0;
                int calls = m.calls;
                if (eval(s, e, &v) != DEALER_OK || v != 1000 * (side + 1) + idx[k]) wrong_value++;
                if (m.calls != calls + 1 || m.last.tag != tag || m.last.side != side || m.last.hand_flag != 0 ||
                    m.last.suit_flag != 0 || m.last.index != idx[k]) {
                    fprintf(stderr, "  query of %s: tag %d side %d hflag %d sflag %d index %d\n", e, m.last.tag,
                            m.last.side, m.last.hand_flag, m.last.suit_flag, m.last.index);
                    wrong_query++;
                }
                tag++;
                checked++;
            }
            /* side and suit */
            for (int suit = 0; suit < 4; suit++) {
                int max = 127 - 32 - 8 * suit;
                int idx2[] = {0, 7, 31, max};
                for (int k = 0; k < 4; k++) {
                    char e[100];
                    snprintf(e, sizeof e, "usereval(%d, %s, %s, %d)", tag, side ? "EW" : "NS", SUITS[suit], idx2[k]);
                    int32_t v = 0;
                    int calls = m.calls;
                    if (eval(s, e, &v) != DEALER_OK || v != 1000 * (side + 1) + 32 + 8 * suit + idx2[k]) wrong_value++;
                    if (m.calls != calls + 1 || m.last.side != side || m.last.hand_flag != 0 || m.last.suit_flag != 1 ||
                        m.last.suit != suit || m.last.index != idx2[k]) {
                        fprintf(stderr, "  query of %s: side %d hflag %d sflag %d suit %d index %d\n", e, m.last.side,
                                m.last.hand_flag, m.last.suit_flag, m.last.suit, m.last.index);
                        wrong_query++;
                    }
                    tag++;
                    checked++;
                }
            }
        }
        /* compass forms, with and without a suit */
        for (int seat = 0; seat < 4; seat++) {
            int side = seat & 1, h = seat / 2;
            int max = 127 - 64 - 16 * h;
            int idx[] = {0, 7, 31, max};
            for (int k = 0; k < 4; k++) {
                char e[100];
                snprintf(e, sizeof e, "usereval(%d, %s, %d)", tag, SEATS[seat], idx[k]);
                int32_t v = 0;
                int calls = m.calls;
                if (eval(s, e, &v) != DEALER_OK || v != 1000 * (side + 1) + 64 + 16 * h + idx[k]) wrong_value++;
                if (m.calls != calls + 1 || m.last.side != side || m.last.hand_flag != 1 || m.last.hand != seat ||
                    m.last.suit_flag != 0 || m.last.index != idx[k]) {
                    fprintf(stderr, "  query of %s: side %d hflag %d hand %d sflag %d index %d\n", e, m.last.side,
                            m.last.hand_flag, m.last.hand, m.last.suit_flag, m.last.index);
                    wrong_query++;
                }
                tag++;
                checked++;
            }
            for (int suit = 0; suit < 4; suit++) {
                int smax = 127 - 96 - 16 * h - 4 * suit;
                int idx2[] = {0, 7, 31, smax};
                for (int k = 0; k < 4; k++) {
                    if (idx2[k] > smax || (k < 3 && idx2[k] == smax)) continue;
                    char e[100];
                    snprintf(e, sizeof e, "usereval(%d, %s, %s, %d)", tag, SEATS[seat], SUITS[suit], idx2[k]);
                    int32_t v = 0;
                    int calls = m.calls;
                    if (eval(s, e, &v) != DEALER_OK || v != 1000 * (side + 1) + 96 + 16 * h + 4 * suit + idx2[k])
                        wrong_value++;
                    if (m.calls != calls + 1 || m.last.side != side || m.last.hand_flag != 1 || m.last.hand != seat ||
                        m.last.suit_flag != 1 || m.last.suit != suit || m.last.index != idx2[k]) {
                        fprintf(stderr, "  query of %s: side %d hflag %d hand %d sflag %d suit %d index %d\n", e,
                                m.last.side, m.last.hand_flag, m.last.hand, m.last.suit_flag, m.last.suit,
                                m.last.index);
                        wrong_query++;
                    }
                    tag++;
                    checked++;
                }
            }
        }
        /* the query carries the deal's number (no condition rejects a deal here) */
        CHECKF(m.last.generated == d + 1, "deal %d: query->generated = %lld", d + 1, (long long)m.last.generated);
        CHECKF(memcmp(&m.deal, &deal, sizeof deal) == 0, "deal %d: the metric saw another deal", d + 1);
    }
    CHECKF(wrong_value == 0, "%d of %d slot values wrong", wrong_value, checked);
    CHECKF(wrong_query == 0, "%d of %d queries wrong", wrong_query, checked);
    CHECK(checked == 300);

    /* the same through compiled expressions */
    uint32_t id1 = 0, id2 = 0;
    CHECK(dealer_compile_expression(s, "usereval(99, west, diamonds, 5)", &id1) == DEALER_OK);
    CHECK(dealer_compile_expression(s, "usereval(99, NS, spades, 71)", &id2) == DEALER_OK);
    int32_t v1 = 0, v2 = 0;
    CHECK(dealer_eval_compiled(s, id1, &v1) == DEALER_OK && v1 == 2000 + 96 + 16 + 4 + 5);
    CHECK(dealer_eval_compiled(s, id2, &v2) == DEALER_OK && v2 == 1000 + 32 + 24 + 71);

    /* a slot outside 0..127: a run error naming the slot, and no call */
    int calls = m.calls;
    int32_t v = 0;
    CHECK(dealer_eval(s, "usereval(99, south, spades, 4)", &v) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "slot 128") != NULL);
    CHECK(dealer_eval(s, "usereval(99, NS, 128)", &v) == DEALER_ERROR_RUN);
    CHECK(dealer_eval(s, "usereval(99, EW, -1)", &v) == DEALER_ERROR_RUN);
    CHECK(strstr(dealer_last_error(s), "outside 0..127") != NULL);
    CHECK(m.calls == calls);
    dealer_free_session(s);
}

/* ---- 2. hand statistics ---- */

static void check_stats_against_script(dealer_session *s, const dealer_hand_stats *st, const dealer_deal *deal,
                                       const char *what) {
    int wrong = 0;
#define SAME(got, fmt, a, b)                                                                              \
    do {                                                                                                  \
        int32_t want_ = value_of(s, fmt, a, b);                                                           \
        if ((got) != want_) {                                                                             \
            wrong++;                                                                                      \
            fprintf(stderr, "  %s: " fmt " = %d, stats say %d\n", what, a, b, (int)want_, (int)(got));    \
        }                                                                                                 \
    } while (0)
    for (int seat = 0; seat < 4; seat++) {
        const dealer_hand_stats *h = &st[seat];
        const char *c = SEATS[seat];
        if (h->seat != seat) { wrong++; fprintf(stderr, "  %s: stats[%d].seat = %d\n", what, seat, h->seat); }
        for (int suit = 0; suit < 4; suit++) {
            const char *su = SUITS[suit];
            SAME(h->lengths[suit], "%s(%s)", su, c);
            SAME(h->hcp[suit], "hcp(%s, %s)", c, su);
            SAME(h->losers[suit], "loser(%s, %s)", c, su);
            SAME(h->controls[suit], "control(%s, %s)", c, su);
            SAME(h->ltc[suit], "ltc(%s, %s)", c, su);
            SAME(h->counts[10][suit], "hcp(%s, %s)", c, su);
            for (int t = 0; t < 10; t++) {
                char fmt[40];
                snprintf(fmt, sizeof fmt, "pt%d(%%s, %%s)", t);
                int32_t want = value_of(s, fmt, c, su);
                if (h->counts[t][suit] != want) {
                    wrong++;
                    fprintf(stderr, "  %s: pt%d(%s, %s) = %d, stats say %d\n", what, t, c, su, want, h->counts[t][suit]);
                }
            }
            /* the three highest cards: weights from the deal */
            int bits = suit_bits(deal->hands[seat], suit), k = 0;
            int top[3] = {128, 128, 128};
            for (int rank = 12; rank >= 0 && k < 3; rank--) {
                if (!(bits & (1 << rank))) continue;
                top[k++] = rank == 12 ? 64 : rank == 11 ? 32 : rank == 10 ? 16 : rank == 9 ? 8 : rank == 8 ? 4 : 1;
            }
            for (k = 0; k < 3; k++)
                if (h->top_cards[suit][k] != top[k]) {
                    wrong++;
                    fprintf(stderr, "  %s: %s %s top card %d = %d, expected %d\n", what, c, su, k, h->top_cards[suit][k],
                            top[k]);
                }
            for (int rank = 0; rank < 13; rank++) {
                char card[3] = {RANK_LETTERS[rank], SUIT_LETTERS[suit], 0};
                SAME(h->has_card[suit][rank], "hascard(%s, %s)", c, card);
                if (h->has_card[suit][rank] != !!(bits & (1 << rank))) wrong++;
            }
        }
        SAME(h->total_hcp, "hcp(%s)%s", c, "");
        SAME(h->total_losers, "loser(%s)%s", c, "");
        SAME(h->total_controls, "control(%s)%s", c, "");
        SAME(h->total_ltc, "ltc(%s)%s", c, "");
        SAME(h->total_counts[10], "hcp(%s)%s", c, "");
        for (int t = 0; t < 10; t++) {
            char fmt[40];
            snprintf(fmt, sizeof fmt, "pt%d(%%s)%%s", t);
            int32_t want = value_of(s, fmt, c, "");
            if (h->total_counts[t] != want) {
                wrong++;
                fprintf(stderr, "  %s: pt%d(%s) = %d, stats say %d\n", what, t, c, want, h->total_counts[t]);
            }
        }
        int square = 1;
        for (int suit = 0; suit < 4; suit++) square &= h->lengths[suit] == 3 || h->lengths[suit] == 4;
        if (h->square_hand != square) { wrong++; fprintf(stderr, "  %s: %s square_hand %d\n", what, c, h->square_hand); }
    }
#undef SAME
    CHECKF(wrong == 0, "%s: %d statistics differ from the script's functions", what, wrong);
}

static void test_hand_stats(void) {
    /* North's hand is known: SAKQ2 HJT9 DA432 C32. */
    dealer_session *s = new_session("17", NULL);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_predeal(s, DEALER_NORTH, "SAKQ2,HJT9,DA432,C32") == DEALER_OK);
    const char *script = "generate 100000\ncondition hcp(south) >= 8\n";
    CHECK(dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK);
    struct metric m = {.fail_tag = -1};
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    dealer_deal deal;
    for (int d = 0; d < 4; d++) {
        char what[40];
        snprintf(what, sizeof what, "deal %d", d + 1);
        CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
        int32_t v = 0;
        int calls = m.calls;
        CHECK(eval(s, d % 2 ? "usereval(97, EW, 0)" : "usereval(97, NS, 0)", &v) == DEALER_OK);
        CHECK(m.calls == calls + 1);
        CHECK(memcmp(&m.deal, &deal, sizeof deal) == 0);
        CHECK(m.last.generated >= d + 1);
        check_stats_against_script(s, m.stats, &deal, what);
    }
    /* the literal values of the predealt hand */
    const dealer_hand_stats *n = &m.stats[DEALER_NORTH];
    CHECK(n->seat == 0);
    CHECK(n->lengths[0] == 2 && n->lengths[1] == 4 && n->lengths[2] == 3 && n->lengths[3] == 4);
    CHECK(n->hcp[0] == 0 && n->hcp[1] == 4 && n->hcp[2] == 1 && n->hcp[3] == 9 && n->total_hcp == 14);
    CHECK(n->controls[1] == 2 && n->controls[3] == 3 && n->total_controls == 5);
    CHECK(n->top_cards[3][0] == 64 && n->top_cards[3][1] == 32 && n->top_cards[3][2] == 16);
    CHECK(n->top_cards[2][0] == 8 && n->top_cards[2][1] == 4 && n->top_cards[2][2] == 1);
    CHECK(n->top_cards[1][0] == 64 && n->top_cards[1][1] == 1 && n->top_cards[1][2] == 1);
    CHECK(n->top_cards[0][0] == 1 && n->top_cards[0][1] == 1 && n->top_cards[0][2] == 128);
    CHECK(n->has_card[3][12] && n->has_card[3][11] && n->has_card[3][10] && n->has_card[3][0] && !n->has_card[3][9]);
    CHECK(n->has_card[2][9] && n->has_card[2][8] && n->has_card[2][7] && !n->has_card[2][12]);
    CHECK(n->square_hand == 0);
    CHECK(n->counts[4][1] == 1 && n->counts[4][3] == 1 && n->total_counts[4] == 2); /* aces */
    dealer_free_session(s);

    /* pointcount changes the statistics' HCP (and table 10), not the other tables */
    s = new_session("18", "pointcount 6 4 2 1 1\ngenerate 1000\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    for (int d = 0; d < 2; d++) {
        CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
        int32_t v = 0;
        CHECK(eval(s, "usereval(97, EW, 1)", &v) == DEALER_OK);
        check_stats_against_script(s, m.stats, &deal, "pointcount 6 4 2 1 1");
    }
    dealer_free_session(s);
}

/* ---- 3. the cache, metric errors, NULL callback ---- */

static void test_cache_and_errors(void) {
    dealer_session *s = new_session("5", "generate 1000\n");
    CHECK(s != NULL);
    if (!s) return;
    struct metric m = {.fail_tag = 50, .fail_code = 7};
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    dealer_deal deal;
    int32_t v = 0;
    CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
    CHECK(eval(s, "usereval(99, NS, 0)", &v) == DEALER_OK && v == 1000 && m.calls == 1);
    CHECK(eval(s, "usereval(99, NS, 5)", &v) == DEALER_OK && v == 1005 && m.calls == 1);
    CHECK(eval(s, "usereval(99, south, 3)", &v) == DEALER_OK && v == 1083 && m.calls == 1);
    CHECK(eval(s, "usereval(99, north, clubs, 1)", &v) == DEALER_OK && v == 1097 && m.calls == 1);
    CHECK(eval(s, "usereval(99, EW, 0)", &v) == DEALER_OK && v == 2000 && m.calls == 2);
    CHECK(eval(s, "usereval(99, west, 0)", &v) == DEALER_OK && v == 2080 && m.calls == 2);
    CHECK(eval(s, "usereval(98, NS, 0)", &v) == DEALER_OK && v == 3 && m.calls == 3);
    CHECK(eval(s, "usereval(98, NS, 0)", &v) == DEALER_OK && v == 3 && m.calls == 3);
    CHECK(eval(s, "usereval(99, EW, 7)", &v) == DEALER_OK && v == 2007 && m.calls == 3); /* EW still holds 99 */
    CHECK(eval(s, "usereval(99, NS, 0)", &v) == DEALER_OK && v == 1000 && m.calls == 4); /* NS held 98 */
    CHECK(eval(s, "usereval(98, NS, 0)", &v) == DEALER_OK && v == 5 && m.calls == 5);
    /* a tag given by an expression is the same tag */
    CHECK(eval(s, "usereval(97 + 1, NS, 1)", &v) == DEALER_OK && v == 1 && m.calls == 5);
    /* the next deal asks again */
    CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
    CHECK(eval(s, "usereval(98, NS, 0)", &v) == DEALER_OK && v == 6 && m.calls == 6);
    CHECK(eval(s, "usereval(98, NS, 1)", &v) == DEALER_OK && v == 2);

    /* a metric returning non-zero: a run error naming the tag */
    CHECK(dealer_eval(s, "usereval(50, EW, 0)", &v) == DEALER_ERROR_RUN);
    CHECKF(strstr(dealer_last_error(s), "tag 50") != NULL, "message: %s", dealer_last_error(s));
    CHECKF(strstr(dealer_last_error(s), "7") != NULL, "message: %s", dealer_last_error(s));
    /* ... which is not cached: the next query asks again */
    int calls = m.calls;
    CHECK(dealer_eval(s, "usereval(50, EW, 0)", &v) == DEALER_ERROR_RUN && m.calls == calls + 1);
    dealer_free_session(s);

    /* in dealer_run: the run stops with DEALER_ERROR_RUN, the deals before stay written */
    s = new_session("5", "produce 4\naction printrpt(rnd(0) == 3 ? usereval(50, NS, 0) : usereval(99, NS, 2))\n");
    CHECK(s != NULL);
    if (!s) return;
    m.calls = 0;
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    struct buffer out = {0};
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    CHECKF(strstr(dealer_last_error(s), "tag 50") != NULL, "message: %s", dealer_last_error(s));
    CHECKF(out.data && strcmp(out.data, " 1002\n 1002\n") == 0, "output: %s", out.data ? out.data : "(none)");
    uint32_t line = 0, col = 0;
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK && line == 2);
    dealer_free_session(s);

    /* the callback replaces the server: no server is started, even a missing one */
    s = new_session("5", "produce 2\naction printrpt(usereval(99, EW, 3))\n");
    CHECK(s != NULL);
    if (!s) { buffer_free(&out); return; }
    CHECK(dealer_set_option(s, "server", missing_server) == DEALER_OK);
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_OK);
    CHECK(out.data && strcmp(out.data, " 2003\n 2003\n") == 0);
    check_clean("in-process metric with a missing server set");
    /* a NULL callback goes back to the server */
    CHECK(dealer_set_usereval(s, NULL, NULL) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    CHECKF(start_failed(dealer_last_error(s)), "message: %s", dealer_last_error(s));
    check_clean("NULL callback, missing server");
    CHECK(dealer_set_option(s, "server", server_path) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_OK);
    CHECKF(out.data && strcmp(out.data, " 2003\n 2003\n") == 0, "output: %s", out.data ? out.data : "(none)");
    check_clean("NULL callback, the test server");
    dealer_free_session(s);
    buffer_free(&out);
}

/* ---- 4. server and in-process metric: the same output ---- */

static void test_server_equals_in_process(void) {
    char script[16384];
    size_t n = (size_t)snprintf(script, sizeof script,
        "produce 6\n"
        "condition usereval(99, NS, 3) == 1003 && hcp(north) >= 8 && usereval(98, EW, 1) > 0\n"
        "action printrpt(deal, usereval(99, EW, hearts, 2), usereval(99, south, 5), usereval(99, west, clubs, 1),\n"
        "  usereval(98, NS, 0), usereval(98, NS, 1), usereval(98, NS, 2), usereval(98, EW, 0), rnd(0),\n"
        "  usereval(5, NS, 0), usereval(5, NS, 3), usereval(120, EW, 1), usereval(120, EW, 2))");
    for (int side = 0; side < 2; side++) {
        n += (size_t)snprintf(script + n, sizeof script - n, ",\n  printrpt(\"%s\"", side ? "EW" : "NS");
        for (int slot = 0; slot < 128; slot++) {
            if (!(slot < 24 || (slot >= 32 && slot < 56) || (slot >= 64 && slot < 87))) continue;
            n += (size_t)snprintf(script + n, sizeof script - n, ", usereval(97, %s, %d)", side ? "EW" : "NS", slot);
        }
        n += (size_t)snprintf(script + n, sizeof script - n, ")");
    }
    n += (size_t)snprintf(script + n, sizeof script - n, "\n");
    CHECK(n < sizeof script);

    struct buffer by_server = {0}, in_process = {0};
    dealer_session *s = new_session("29", script);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "server", server_path) == DEALER_OK);
    int rc = run_captured(s, &by_server);
    CHECKF(rc == DEALER_OK, "server run: %d %s", rc, dealer_last_error(s));
    check_clean("run with the server");
    struct metric m = {.fail_tag = -1};
    CHECK(dealer_set_usereval(s, metric_fn, &m) == DEALER_OK);
    rc = run_captured(s, &in_process);
    CHECKF(rc == DEALER_OK, "in-process run: %d %s", rc, dealer_last_error(s));
    CHECK(count_lines(by_server.data) == 18);
    CHECKF(by_server.len == in_process.len && by_server.len > 0 &&
               memcmp(by_server.data, in_process.data, by_server.len) == 0,
           "outputs differ:\n--- server ---\n%s--- in-process ---\n%s", by_server.data ? by_server.data : "",
           in_process.data ? in_process.data : "");
    /* and again through the server (a second run of the same session starts a new server) */
    CHECK(dealer_set_usereval(s, NULL, NULL) == DEALER_OK);
    struct buffer again = {0};
    CHECK(run_captured(s, &again) == DEALER_OK);
    CHECK(again.len == by_server.len && memcmp(again.data, by_server.data, again.len) == 0);
    check_clean("second run with the server");
    dealer_free_session(s);
    buffer_free(&by_server);
    buffer_free(&in_process);
    buffer_free(&again);
}

/* ---- 5. failing servers ---- */

static void test_failures(void) {
    struct buffer out = {0};
    const char *script = "produce 3\naction printrpt(rnd(0) == 3 ? usereval(96, NS, 0) : usereval(99, NS, 0))\n";

    dealer_session *s = new_session("1", script);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "server", missing_server) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    CHECKF(start_failed(dealer_last_error(s)) && strstr(dealer_last_error(s), missing_server),
           "message: %s", dealer_last_error(s));
    CHECK(out.len == 0);
    CHECK(dealer_last_error_exit_code(s) == 4);
    check_clean("missing server");
    dealer_free_session(s);

    s = new_session("1", script);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "server", not_executable) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    CHECKF(start_failed(dealer_last_error(s)), "message: %s", dealer_last_error(s));
    check_clean("server not executable");
    dealer_free_session(s);

    /* tag 96: the server exits (status 3) without answering */
    s = new_session("1", script);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "server", server_path) == DEALER_OK);
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    CHECKF(strstr(dealer_last_error(s), "tag 96") != NULL && strstr(dealer_last_error(s), "exit status: 3"),
           "message: %s", dealer_last_error(s));
    CHECKF(out.data && strcmp(out.data, " 1000\n 1000\n") == 0, "output: %s", out.data ? out.data : "(none)");
    check_clean("server dies (tag 96)");
    /* the session can run again (a new server, which dies again the same way) */
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    check_clean("server dies again");
    dealer_free_session(s);

    /* tag 95: the server hangs; external_timeout 0.5 s */
    s = new_session("1", "produce 3\ncondition usereval(95, EW, 0) > 0\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "server", server_path) == DEALER_OK);
    CHECK(dealer_set_option(s, "external_timeout", "0.5") == DEALER_OK);
    double t0 = now_seconds();
    CHECK(run_captured(s, &out) == DEALER_ERROR_RUN);
    double took = now_seconds() - t0;
    CHECKF(took >= 0.5 && took < 2.0, "the hanging server stopped the run after %.2f s", took);
    CHECKF(strstr(dealer_last_error(s), "tag 95") != NULL && strstr(dealer_last_error(s), "within 0.5 s"),
           "message: %s", dealer_last_error(s));
    check_clean("server hangs (tag 95)");
    dealer_free_session(s);

    /* external_timeout must be a positive number of seconds */
    s = new_session(NULL, NULL);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_set_option(s, "external_timeout", "0") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "external_timeout", "-1") == DEALER_ERROR_OPTION);
    CHECK(dealer_set_option(s, "external_timeout", "soon") == DEALER_ERROR_OPTION);
    dealer_free_session(s);
    buffer_free(&out);
}

/* ---- 6. sessions freed with a server, in a loop ---- */

static void test_session_loop(void) {
    struct buffer out = {0};
    int bad_output = 0;
    for (int i = 0; i < 20; i++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", i + 1);
        dealer_session *s = new_session(seed, "produce 2\naction printrpt(usereval(99, EW, 3), usereval(98, NS, 0))\n");
        if (!s) { bad_output++; continue; }
        dealer_set_option(s, "server", server_path);
        if (run_captured(s, &out) != DEALER_OK || !out.data || strcmp(out.data, " 2003,2\n 2003,4\n") != 0) {
            bad_output++;
            fprintf(stderr, "  run %d: %s / %s\n", i + 1, out.data ? out.data : "(none)", dealer_last_error(s));
        }
        dealer_free_session(s);
    }
    CHECKF(bad_output == 0, "%d of 20 runs gave the wrong output", bad_output);
    check_clean("20 sessions, each running 2 deals with a server");

    /* sessions freed while their server runs (dealer_next_deal + dealer_eval keep it alive) */
    for (int i = 0; i < 5; i++) {
        dealer_session *s = new_session("9", "generate 100\ncondition usereval(99, NS, 1) == 1001\n");
        CHECK(s != NULL);
        if (!s) continue;
        dealer_set_option(s, "server", server_path);
        dealer_deal deal;
        int32_t v = 0;
        CHECK(dealer_next_deal(s, &deal) == DEALER_OK);
        CHECK(eval(s, "usereval(99, west, hearts, 3)", &v) == DEALER_OK && v == 2000 + 96 + 16 + 8 + 3);
        int status;
        CHECK(waitpid(-1, &status, WNOHANG) == 0); /* the server is running */
        dealer_free_session(s);
        check_clean("a session freed while its server runs");
    }

    /* two sessions with a server each at the same time: separate servers, no mix-up */
    dealer_session *a = new_session("11", "generate 100\ncondition usereval(98, NS, 1) > 0\n");
    dealer_session *b = new_session("12", "generate 100\ncondition usereval(98, NS, 1) > 0\n");
    CHECK(a && b);
    if (a && b) {
        dealer_set_option(a, "server", server_path);
        dealer_set_option(b, "server", server_path);
        dealer_deal deal;
        int32_t va = 0, vb = 0;
        for (int i = 0; i < 3; i++) {
            CHECK(dealer_next_deal(a, &deal) == DEALER_OK);
            CHECK(dealer_next_deal(b, &deal) == DEALER_OK);
        }
        CHECK(eval(a, "usereval(98, NS, 0)", &va) == DEALER_OK && va == 3); /* each server counted its own */
        CHECK(eval(b, "usereval(98, EW, 0)", &vb) == DEALER_OK && vb == 4);
    }
    dealer_free_session(a);
    dealer_free_session(b);
    check_clean("two sessions with a server each");
    buffer_free(&out);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH-OF-test_dealer_server\n", argv[0]);
        return 2;
    }
    if (access(argv[1], X_OK) != 0) {
        fprintf(stderr, "%s: not an executable file\n", argv[1]);
        return 2;
    }
    server_path = argv[1];
    if (mkdtemp(scratch_dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(missing_server, sizeof missing_server, "%s/DealerServer", scratch_dir);
    snprintf(not_executable, sizeof not_executable, "%s/not_executable", scratch_dir);
    FILE *text = fopen(not_executable, "w");
    if (text == NULL || fputs("not a program\n", text) == EOF || fclose(text) != 0) {
        perror(not_executable);
        return 2;
    }
    remember_page_files();
    baseline_fds = count_open_fds();

    test_slot_mapping();
    test_hand_stats();
    test_cache_and_errors();
    test_server_equals_in_process();
    test_failures();
    test_session_loop();
    check_clean("the end");
    CHECK(unlink(not_executable) == 0 && rmdir(scratch_dir) == 0);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

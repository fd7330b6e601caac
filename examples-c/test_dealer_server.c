/*
 * test_dealer_server.c -- a stand-in for DealerV2's DealerServer, for testing libdealer's
 * usereval() client.
 *
 * It speaks the DealerServer protocol of DealerV2 4.3.3 (one shared page of 4096 bytes and two
 * POSIX named semaphores, see the behaviour reference, section 5) and answers a few tags whose
 * results are simple enough to be predicted by a test.
 *
 * Build:
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror \
 *      -o test_dealer_server test_dealer_server.c -pthread
 *
 * Usage (normally only the client starts it):
 *   test_dealer_server FD [DEBUG]      FD = the client's page file descriptor (inherited), as
 *                                      text ("%4d"); DEBUG = debug level ("%4d"), default 0
 *   test_dealer_server -V | -h         print a version / usage line on stdout, exit 0
 *
 * Start-up: maps FD (4096 bytes, MAP_SHARED), checks that the header's six section offsets are
 * 152, 244, 312, 1696, 2208 and 2720, opens the semaphores named at header offsets 32 (query)
 * and 64 (reply) with sem_open(name, O_CREAT, 0666, 0), then loops: wait on the query semaphore,
 * read the query (offset 152: tag, side, hflag, hand, sflag, suit, idx), write the whole
 * res[128] block of the queried side (NS block at 1696, EW block at 2208), reply_tag (offset
 * 244, = the query tag) and reply_descr (offset 280, NUL-terminated), then post the reply
 * semaphore. The server never writes anything else (in particular never curdeal, the HANDSTATs
 * or the other side's block). All 128 slots of the block are rewritten on every answered query:
 * slots a tag does not define are 0. Page fields are read with memcpy in host byte order.
 *
 * Exit statuses:
 *   0  query tag < 0 (end of job: msync, munmap, post reply, close and unlink both
 *      semaphores), or -V / -h
 *   1  a semaphore operation failed
 *   2  wrong arguments, or FD is not a usable page (not open, shorter than 4096 bytes, not
 *      mappable, header offsets or semaphore names not as expected)
 *   3  tag 96 ("die")
 *   4  the process that started the server went away without ending the job (checked about
 *      once a second while waiting and while hanging); both semaphores are unlinked first
 *
 * Debug level > 0: start-up details and every query (and its reply) are logged on stderr;
 * level > 1 also prints the deal (each hand sorted in a private copy). stdout is never used
 * except for -V / -h.
 *
 * Odd input never crashes the server: any tag value is accepted, a query_side other than 0 or 1
 * is treated as 0 (NS), and curdeal bytes that are not valid cards (suit > 3 or rank > 12, e.g.
 * NO_CARD 0x7F) are ignored by every count made from curdeal.
 *
 * ---------------------------------------------------------------------------------------------
 * TAG CONTRACT (what the tests rely on). All values are ints. "side" = the query's side
 * (0 NS, 1 EW). The two seats of a side are, in order, h = 0: North (NS) / East (EW) and
 * h = 1: South (NS) / West (EW) -- the same h as the compass forms of usereval. HCP counted by
 * the server are A=4 K=3 Q=2 J=1, from curdeal (offset 1488; seat N = cards 0-12, E = 13-25,
 * S = 26-38, W = 39-51; card = suit<<4 | rank, suit C=0..S=3, rank 2=0..A=12). Suits are always
 * indexed C=0, D=1, H=2, S=3. Every slot not listed for a tag is 0. Client slot mapping:
 * usereval(tag, side, i) = res[i]; usereval(tag, side, SUIT, i) = res[32 + 8*suit + i];
 * usereval(tag, compass, i) = res[64 + 16*h + i]; usereval(tag, compass, SUIT, i) =
 * res[96 + 16*h + 4*suit + i].
 *
 * 99  slot fill. res[i] = 1000*(side+1) + i for i = 0..127 (NS block: 1000..1127, EW block:
 *     2000..2127). reply_descr "slot fill".
 *
 * 98  query counter. res[0] = number of queries this server has answered so far, this one
 *     included (every replied query counts, whatever its tag; the quit query and tags 95/96
 *     do not), res[1] = curr_gen (offset 312), res[2] = curr_prod (offset 316).
 *     reply_descr "query counter".
 *
 * 97  echo of the hand statistics. For h = 0, 1 (seat N, S for side 0; E, W for side 1), with
 *     the seat's HANDSTAT at offset 320 + 292*seat (shorts, sign-extended to int):
 *       res[32*h +  0.. 3] = hs_length[C,D,H,S]
 *       res[32*h +  4.. 7] = hs_points[C,D,H,S]
 *       res[32*h +  8]     = hs_totalpoints
 *       res[32*h +  9]     = hs_totalloser
 *       res[32*h + 10]     = hs_totalcontrol
 *       res[32*h + 11]     = hs_totalltc
 *       res[32*h + 12]     = square_hand
 *       res[32*h + 13..16] = hs_counts[10][C,D,H,S] (the HCP table row)
 *       res[32*h + 17]     = hs_seat
 *       res[32*h + 18..21] = the seat's number of cards in C,D,H,S, counted by the server from
 *                            curdeal (equals +0..3 when the seat was analysed)
 *       res[32*h + 22]     = the seat's HCP counted by the server from curdeal (equals +8)
 *       res[32*h + 23]     = how many of the seat's Has_card[4][13] entries are non-zero (13)
 *     res[64] = curr_gen, res[65] = curr_prod, res[66] = dds_cache (offset 1612),
 *     res[67 + 5*seat + strain] = dds_trix[seat][strain] (offset 1616; seat N,E,S,W = 0..3,
 *     strain C,D,H,S,NT = 0..4), i.e. res[67..86]. reply_descr "hand statistics echo".
 *
 * 3   Goren (a simple real metric). Per hand: HCP; short-suit points per suit = void 3,
 *     singleton 2, doubleton 1, otherwise 0; NT value = HCP; suit value = HCP + all short-suit
 *     points. The side's fit suit is the suit with the greatest combined length, ties going to
 *     the higher suit (S > H > D > C); a hand's value in the fit = HCP + short-suit points of
 *     the three other suits.
 *       res[0] = side NT value (res[1] + res[2])
 *       res[1] = hand h=0 NT value          res[2] = hand h=1 NT value
 *       res[3] = side value in the fit (res[4] + res[5])
 *       res[4] = hand h=0 value in the fit  res[5] = hand h=1 value in the fit
 *       res[6] = the fit suit (0 C .. 3 S)  res[7] = the fit's combined length
 *     suit forms, for each suit s:
 *       res[32 + 8*s + 0] = side HCP in s
 *       res[32 + 8*s + 1] = side length in s
 *     compass forms, for h = 0, 1:
 *       res[64 + 16*h + 0] = hand h NT value (HCP)
 *       res[64 + 16*h + 1] = hand h total short-suit points
 *       res[64 + 16*h + 2] = hand h suit value (HCP + total short-suit points)
 *       res[64 + 16*h + 3] = hand h value in the side's fit (= res[4 + h])
 *     compass-and-suit forms, for h = 0, 1 and each suit s:
 *       res[96 + 16*h + 4*s + 0] = hand h HCP in s
 *       res[96 + 16*h + 4*s + 1] = hand h length in s
 *       res[96 + 16*h + 4*s + 2] = hand h short-suit points in s
 *     reply_descr "Goren".
 *
 * 96  die: exit(3) at once, without replying and without touching the semaphores.
 *
 * 95  hang: never reply; sleeps until killed (or until the parent process goes away, then
 *     exit status 4).
 *
 * any other tag >= 0 (including 0..2, 4..94 and > 99): res[0..3] = -(HCP of N, E, S, W),
 *     written into the queried side's block. reply_descr "unknown tag".
 *
 * tag < 0: end of job (see exit status 0); no results are written.
 * ---------------------------------------------------------------------------------------------
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PROG "test_dealer_server"
#define VERSION "1.0"

/* ---- page layout (byte offsets, x86-64 gcc layout of DealerV2 4.3.3) ---- */
#define PAGE_BYTES 4096
#define NAME_BYTES 32

#define HDR_MAP_NAME 0
#define HDR_Q_SEMA_NAME 32
#define HDR_R_SEMA_NAME 64
#define HDR_Q_TYPE_OFF 96
#define HDR_R_TYPE_OFF 104
#define HDR_DEAL_DATA_OFF 112
#define HDR_NSVALS_OFF 120
#define HDR_EWVALS_OFF 128
#define HDR_CACHE_OFF 136
#define HDR_STDERR_FD 144

/* expected section offsets */
#define EXP_Q_TYPE 152
#define EXP_R_TYPE 244
#define EXP_DEAL_DATA 312
#define EXP_NSVALS 1696
#define EXP_EWVALS 2208
#define EXP_CACHE 2720

/* query_type_k, relative to the query section */
#define Q_TAG 0
#define Q_SIDE 4
#define Q_HFLAG 8
#define Q_HAND 12
#define Q_SFLAG 16
#define Q_SUIT 20
#define Q_IDX 24
#define Q_DESCR 60

/* reply_type_k, relative to the reply section */
#define R_TAG 0
#define R_DESCR 36

/* DEALDATA_k, relative to the deal data section */
#define D_CURR_GEN 0
#define D_CURR_PROD 4
#define D_HS 8
#define D_CURDEAL 1176
#define D_DDS_CACHE 1300
#define D_DDS_TRIX 1304

/* HANDSTAT_k, relative to one hand's struct */
#define HS_SIZE 292
#define HS_SEAT 0
#define HS_LENGTH 2
#define HS_POINTS 10
#define HS_TOTALPOINTS 18
#define HS_TOTALLOSER 30
#define HS_TOTALCONTROL 40
#define HS_COUNTS 42
#define HS_SQUARE_HAND 152
#define HS_TOTALLTC 162
#define HS_HAS_CARD 188

#define NRES 128

/* ---- state ---- */
static unsigned char *page;
static int debug_level;
static pid_t start_ppid;
static sem_t *q_sem = SEM_FAILED, *r_sem = SEM_FAILED;
static char q_name[NAME_BYTES + 1], r_name[NAME_BYTES + 1];
static size_t q_off, r_off, deal_off, nsvals_off, ewvals_off;
static long answered;

/* ---- page access (memcpy at byte offsets, host byte order) ---- */
static int32_t get_i32(size_t off) {
    int32_t v;
    memcpy(&v, page + off, sizeof v);
    return v;
}

static void put_i32(size_t off, int32_t v) { memcpy(page + off, &v, sizeof v); }

static int get_i16(size_t off) {
    int16_t v;
    memcpy(&v, page + off, sizeof v);
    return v;
}

static int64_t get_i64(size_t off) {
    int64_t v;
    memcpy(&v, page + off, sizeof v);
    return v;
}

static void put_descr(size_t off, const char *text) {
    char buf[NAME_BYTES];
    memset(buf, 0, sizeof buf);
    strncpy(buf, text, sizeof buf - 1);
    memcpy(page + off, buf, sizeof buf);
}

/* ---- hands counted from curdeal ---- */
struct hand {
    int len[4];   /* cards per suit C..S */
    int hcp[4];   /* A4 K3 Q2 J1 per suit */
    int tot_hcp;
    int shortp[4]; /* void 3, singleton 2, doubleton 1 */
    int tot_short;
};

static int short_points(int len) { return len == 0 ? 3 : len == 1 ? 2 : len == 2 ? 1 : 0; }

static void count_hands(struct hand h[4]) {
    memset(h, 0, 4 * sizeof h[0]);
    for (int seat = 0; seat < 4; seat++) {
        for (int i = 0; i < 13; i++) {
            unsigned c = page[deal_off + D_CURDEAL + 13 * seat + i];
            unsigned suit = c >> 4, rank = c & 0x0f;
            if (suit > 3 || rank > 12)
                continue; /* not a card (NO_CARD or garbage) */
            h[seat].len[suit]++;
            h[seat].hcp[suit] += rank >= 9 ? (int)rank - 8 : 0;
        }
        for (int s = 0; s < 4; s++) {
            h[seat].tot_hcp += h[seat].hcp[s];
            h[seat].shortp[s] = short_points(h[seat].len[s]);
            h[seat].tot_short += h[seat].shortp[s];
        }
    }
}

/* ---- logging ---- */
static void print_deal(void) {
    static const char seats[] = "NESW", ranks[] = "23456789TJQKA";
    unsigned char hand[13];
    for (int seat = 0; seat < 4; seat++) {
        /* private copy, sorted descending (SA first); curdeal itself is never written */
        memcpy(hand, page + deal_off + D_CURDEAL + 13 * seat, 13);
        for (int i = 1; i < 13; i++)
            for (int j = i; j > 0 && hand[j] > hand[j - 1]; j--) {
                unsigned char t = hand[j];
                hand[j] = hand[j - 1];
                hand[j - 1] = t;
            }
        fprintf(stderr, "%s:   %c ", PROG, seats[seat]);
        for (int s = 3; s >= 0; s--) {
            int any = 0;
            for (int i = 0; i < 13; i++)
                if ((hand[i] >> 4) == s && (hand[i] & 0x0f) <= 12) {
                    fputc(ranks[hand[i] & 0x0f], stderr);
                    any = 1;
                }
            if (!any)
                fputc('-', stderr);
            if (s > 0)
                fputc('.', stderr);
        }
        fputc('\n', stderr);
    }
}

/* ---- semaphores ---- */
static void unlink_sems(void) {
    sem_unlink(q_name);
    sem_unlink(r_name);
}

static void orphan_exit(const char *where) {
    if (debug_level > 0)
        fprintf(stderr, "%s: parent %ld went away (%s); unlinking semaphores, exit 4\n", PROG,
                (long)start_ppid, where);
    unlink_sems();
    _exit(4);
}

static int parent_gone(void) { return start_ppid > 1 && getppid() != start_ppid; }

/* Wait for the next query; every second check that the client still exists. */
static void wait_query(void) {
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        if (sem_timedwait(q_sem, &ts) == 0)
            return;
        if (errno == ETIMEDOUT) {
            if (parent_gone())
                orphan_exit("waiting for a query");
            continue;
        }
        if (errno == EINTR)
            continue;
        fprintf(stderr, "%s: sem_wait(%s): %s\n", PROG, q_name, strerror(errno));
        exit(1);
    }
}

static void post_reply(void) {
    if (sem_post(r_sem) != 0) {
        fprintf(stderr, "%s: sem_post(%s): %s\n", PROG, r_name, strerror(errno));
        exit(1);
    }
}

/* ---- tags ---- */
static void tag_slot_fill(int32_t res[NRES], int side) {
    for (int i = 0; i < NRES; i++)
        res[i] = 1000 * (side + 1) + i;
}

static void tag_counter(int32_t res[NRES]) {
    res[0] = (int32_t)answered;
    res[1] = get_i32(deal_off + D_CURR_GEN);
    res[2] = get_i32(deal_off + D_CURR_PROD);
}

static void tag_hs_echo(int32_t res[NRES], int side, const struct hand hands[4]) {
    for (int h = 0; h < 2; h++) {
        int seat = side + 2 * h; /* NS: N, S; EW: E, W */
        size_t hs = deal_off + D_HS + (size_t)HS_SIZE * seat;
        int32_t *r = res + 32 * h;
        for (int s = 0; s < 4; s++) {
            r[0 + s] = get_i16(hs + HS_LENGTH + 2 * s);
            r[4 + s] = get_i16(hs + HS_POINTS + 2 * s);
            r[13 + s] = get_i16(hs + HS_COUNTS + 8 * 10 + 2 * s);
            r[18 + s] = hands[seat].len[s];
        }
        r[8] = get_i16(hs + HS_TOTALPOINTS);
        r[9] = get_i16(hs + HS_TOTALLOSER);
        r[10] = get_i16(hs + HS_TOTALCONTROL);
        r[11] = get_i16(hs + HS_TOTALLTC);
        r[12] = get_i16(hs + HS_SQUARE_HAND);
        r[17] = get_i16(hs + HS_SEAT);
        r[22] = hands[seat].tot_hcp;
        int set = 0;
        for (int k = 0; k < 4 * 13; k++)
            set += get_i16(hs + HS_HAS_CARD + 2 * k) != 0;
        r[23] = set;
    }
    res[64] = get_i32(deal_off + D_CURR_GEN);
    res[65] = get_i32(deal_off + D_CURR_PROD);
    res[66] = get_i32(deal_off + D_DDS_CACHE);
    for (int k = 0; k < 20; k++)
        res[67 + k] = get_i32(deal_off + D_DDS_TRIX + 4 * k);
}

static void tag_goren(int32_t res[NRES], int side, const struct hand hands[4]) {
    const struct hand *hd[2] = {&hands[side], &hands[side + 2]};
    int fit = 0, fitlen = -1;
    for (int s = 0; s < 4; s++) {
        int l = hd[0]->len[s] + hd[1]->len[s];
        if (l >= fitlen) { /* >= : ties go to the higher suit */
            fit = s;
            fitlen = l;
        }
    }
    int fitval[2];
    for (int h = 0; h < 2; h++)
        fitval[h] = hd[h]->tot_hcp + hd[h]->tot_short - hd[h]->shortp[fit];

    res[0] = hd[0]->tot_hcp + hd[1]->tot_hcp;
    res[1] = hd[0]->tot_hcp;
    res[2] = hd[1]->tot_hcp;
    res[3] = fitval[0] + fitval[1];
    res[4] = fitval[0];
    res[5] = fitval[1];
    res[6] = fit;
    res[7] = fitlen;
    for (int s = 0; s < 4; s++) {
        res[32 + 8 * s + 0] = hd[0]->hcp[s] + hd[1]->hcp[s];
        res[32 + 8 * s + 1] = hd[0]->len[s] + hd[1]->len[s];
    }
    for (int h = 0; h < 2; h++) {
        res[64 + 16 * h + 0] = hd[h]->tot_hcp;
        res[64 + 16 * h + 1] = hd[h]->tot_short;
        res[64 + 16 * h + 2] = hd[h]->tot_hcp + hd[h]->tot_short;
        res[64 + 16 * h + 3] = fitval[h];
        for (int s = 0; s < 4; s++) {
            res[96 + 16 * h + 4 * s + 0] = hd[h]->hcp[s];
            res[96 + 16 * h + 4 * s + 1] = hd[h]->len[s];
            res[96 + 16 * h + 4 * s + 2] = hd[h]->shortp[s];
        }
    }
}

static void tag_unknown(int32_t res[NRES], const struct hand hands[4]) {
    for (int seat = 0; seat < 4; seat++)
        res[seat] = -hands[seat].tot_hcp;
}

/* ---- end of job ---- */
static void end_of_job(void) {
    if (debug_level > 0) {
        char descr[NAME_BYTES + 1];
        memcpy(descr, page + q_off + Q_DESCR, NAME_BYTES);
        descr[NAME_BYTES] = '\0';
        fprintf(stderr, "%s: end of job after %ld answered queries (query_descr \"%s\")\n", PROG,
                answered, descr);
    }
    msync(page, PAGE_BYTES, MS_SYNC);
    munmap(page, PAGE_BYTES);
    page = NULL;
    int rc = sem_post(r_sem) == 0 ? 0 : 1;
    sem_close(q_sem);
    sem_close(r_sem);
    unlink_sems();
    exit(rc);
}

static void hang(void) {
    for (;;) {
        sleep(1);
        if (parent_gone())
            orphan_exit("hanging on tag 95");
    }
}

/* ---- start-up ---- */
static void usage_line(FILE *f) {
    fprintf(f, "usage: %s FD [DEBUG] | -V | -h   (started by a DealerV2-compatible usereval client)\n",
            PROG);
}

static void bad_args(const char *fmt, const char *arg) {
    fprintf(stderr, "%s: ", PROG);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage_line(stderr);
    exit(2);
}

/* Parse a decimal int with optional surrounding blanks ("%4d" pads with spaces). */
static int parse_int(const char *s, int *out) {
    char *end;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0')
        return 0;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno != 0 || v < INT_MIN || v > INT_MAX)
        return 0;
    while (*end == ' ' || *end == '\t' || *end == '\n')
        end++;
    if (*end != '\0')
        return 0;
    *out = (int)v;
    return 1;
}

static void page_error(const char *what, const char *detail) {
    fprintf(stderr, "%s: %s%s%s\n", PROG, what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void check_offset(size_t hdr_field, int64_t expected, const char *name, size_t *out) {
    int64_t v = get_i64(hdr_field);
    if (v != expected) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s = %lld, expected %lld", name, (long long)v,
                 (long long)expected);
        page_error("unexpected page layout", msg);
    }
    *out = (size_t)v;
}

static void read_name(size_t off, char out[NAME_BYTES + 1], const char *which) {
    memcpy(out, page + off, NAME_BYTES);
    out[NAME_BYTES] = '\0';
    if (memchr(page + off, '\0', NAME_BYTES) == NULL || out[0] == '\0')
        page_error("bad semaphore name in page header", which);
}

int main(int argc, char **argv) {
    int fd = -1;

    if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
        printf("%s %s -- test DealerServer for libdealer (DealerV2 4.3.3 usereval protocol)\n",
               PROG, VERSION);
        return 0;
    }
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("%s %s -- ", PROG, VERSION);
        usage_line(stdout);
        return 0;
    }
    if (argc < 2 || argc > 3)
        bad_args("%s", argc < 2 ? "missing file descriptor argument" : "too many arguments");
    if (!parse_int(argv[1], &fd) || fd < 0)
        bad_args("bad file descriptor argument '%s'", argv[1]);
    if (argc == 3 && !parse_int(argv[2], &debug_level))
        bad_args("bad debug level argument '%s'", argv[2]);
    if (debug_level < 0)
        debug_level = 0;
    start_ppid = getppid();

    struct stat st;
    if (fstat(fd, &st) != 0)
        page_error("file descriptor argument not usable", strerror(errno));
    if (st.st_size < PAGE_BYTES)
        page_error("shared page file is shorter than 4096 bytes", NULL);
    void *p = mmap(NULL, PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        page_error("mmap of the shared page failed", strerror(errno));
    page = p;

    check_offset(HDR_Q_TYPE_OFF, EXP_Q_TYPE, "q_type_off", &q_off);
    check_offset(HDR_R_TYPE_OFF, EXP_R_TYPE, "r_type_off", &r_off);
    check_offset(HDR_DEAL_DATA_OFF, EXP_DEAL_DATA, "deal_data_off", &deal_off);
    check_offset(HDR_NSVALS_OFF, EXP_NSVALS, "user_nsvals_off", &nsvals_off);
    check_offset(HDR_EWVALS_OFF, EXP_EWVALS, "user_ewvals_off", &ewvals_off);
    size_t cache_off;
    check_offset(HDR_CACHE_OFF, EXP_CACHE, "mm_cache_off", &cache_off);
    read_name(HDR_Q_SEMA_NAME, q_name, "q_sema_name");
    read_name(HDR_R_SEMA_NAME, r_name, "r_sema_name");

    q_sem = sem_open(q_name, O_CREAT, 0666, 0);
    if (q_sem == SEM_FAILED) {
        fprintf(stderr, "%s: sem_open(%s): %s\n", PROG, q_name, strerror(errno));
        return 1;
    }
    r_sem = sem_open(r_name, O_CREAT, 0666, 0);
    if (r_sem == SEM_FAILED) {
        fprintf(stderr, "%s: sem_open(%s): %s\n", PROG, r_name, strerror(errno));
        return 1;
    }

    if (debug_level > 0) {
        char map_name[NAME_BYTES + 1], dbg[7];
        memcpy(map_name, page + HDR_MAP_NAME, NAME_BYTES);
        map_name[NAME_BYTES] = '\0';
        memcpy(dbg, page + PAGE_BYTES - 6, 6);
        dbg[6] = '\0';
        fprintf(stderr,
                "%s %s: fd=%d debug=%d page=%s q=%s r=%s stderr_fd=%d dealer_debug=%d ppid=%ld\n",
                PROG, VERSION, fd, debug_level, map_name, q_name, r_name,
                get_i32(HDR_STDERR_FD), atoi(dbg), (long)start_ppid);
    }

    for (;;) {
        wait_query();
        int tag = get_i32(q_off + Q_TAG);
        int qside = get_i32(q_off + Q_SIDE);
        if (debug_level > 0)
            fprintf(stderr,
                    "%s: query tag=%d side=%d hflag=%d hand=%d sflag=%d suit=%d idx=%d "
                    "gen=%d prod=%d\n",
                    PROG, tag, qside, get_i32(q_off + Q_HFLAG), get_i32(q_off + Q_HAND),
                    get_i32(q_off + Q_SFLAG), get_i32(q_off + Q_SUIT), get_i32(q_off + Q_IDX),
                    get_i32(deal_off + D_CURR_GEN), get_i32(deal_off + D_CURR_PROD));
        if (tag < 0)
            end_of_job();
        if (tag == 96) {
            if (debug_level > 0)
                fprintf(stderr, "%s: tag 96: exiting with status 3 without a reply\n", PROG);
            exit(3);
        }
        if (tag == 95) {
            if (debug_level > 0)
                fprintf(stderr, "%s: tag 95: hanging, no reply\n", PROG);
            hang();
        }
        int side = (qside == 1) ? 1 : 0;
        if (debug_level > 1)
            print_deal();

        answered++;
        struct hand hands[4];
        int32_t res[NRES];
        const char *descr;
        count_hands(hands);
        memset(res, 0, sizeof res);
        switch (tag) {
        case 99:
            tag_slot_fill(res, side);
            descr = "slot fill";
            break;
        case 98:
            tag_counter(res);
            descr = "query counter";
            break;
        case 97:
            tag_hs_echo(res, side, hands);
            descr = "hand statistics echo";
            break;
        case 3:
            tag_goren(res, side, hands);
            descr = "Goren";
            break;
        default:
            tag_unknown(res, hands);
            descr = "unknown tag";
            break;
        }
        size_t block = side == 0 ? nsvals_off : ewvals_off;
        for (int i = 0; i < NRES; i++)
            put_i32(block + 4 * (size_t)i, res[i]);
        put_i32(r_off + R_TAG, tag);
        put_descr(r_off + R_DESCR, descr);
        if (debug_level > 0)
            fprintf(stderr,
                    "%s: reply #%ld tag=%d \"%s\" %s block res[0..7] = %d %d %d %d %d %d %d %d\n",
                    PROG, answered, tag, descr, side == 0 ? "NS" : "EW", res[0], res[1], res[2],
                    res[3], res[4], res[5], res[6], res[7]);
        post_reply();
    }
}

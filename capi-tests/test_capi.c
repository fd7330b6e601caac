/*
 * C tests of the libdealer API, through include/dealer.h only. Built twice by the Makefile:
 * against the shared library and against the static one. Prints "N passed, M failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealer.h"

static int passed, failed;

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
    CHECK(dealer_load_script_file(s, "/nonexistent/script.dl") == DEALER_ERROR_IO);
    dealer_free_session(s);
}

static void test_script_error_location(void) {
    dealer_session *s = session_with(NULL, NULL, NULL);
    const char *bad = "produce 3\ncondition hcp(north) > \naction printall\n";
    CHECK(dealer_load_script(s, (const uint8_t *)bad, strlen(bad)) == DEALER_ERROR_SCRIPT);
    uint32_t line = 0, col = 0;
    CHECK(dealer_last_error_location(s, &line, &col) == DEALER_OK);
    CHECK(line == 3);
    CHECK(strcmp(dealer_last_error(s), "line 3: syntax error") == 0);
    CHECK(dealer_last_error_exit_code(s) == 255);
    const char *unknown = "condition foo > 3\n";
    CHECK(dealer_load_script(s, (const uint8_t *)unknown, strlen(unknown)) == DEALER_ERROR_SCRIPT);
    CHECK(strcmp(dealer_last_error(s), "line 1: unknown variable") == 0);
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

static void test_run_with_callback(void) {
    /* glibc mode reproduces classic dealer: seed 1's first deal is known. */
    dealer_session *s = session_with("glibc", "1", "produce 2\naction printoneline\n");
    static struct buffer out;
    out.len = 0;
    CHECK(dealer_set_output(s, DEALER_STREAM_OUTPUT, capture, &out) == DEALER_OK);
    dealer_run_report report;
    CHECK(dealer_run(s, &report) == DEALER_OK);
    CHECK(report.produced == 2 && report.generated == 2 && report.seed == 1);
    CHECK(strncmp(out.data, "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. \n", 77) == 0);
    CHECK(strstr(out.data, "Generated 2 hands\nProduced 2 hands\nInitial random seed 1\n") != NULL);
    CHECK(dealer_set_output(s, 99, capture, &out) == DEALER_ERROR_USAGE);
    dealer_free_session(s);
}

static void test_not_available(void) {
    dealer_session *s = session_with(NULL, "1", "condition opc(NS) >= 9\n");
    CHECK(s != NULL);
    if (!s) return;
    CHECK(dealer_run(s, NULL) == DEALER_ERROR_NOT_AVAILABLE);
    CHECK(strstr(dealer_last_error(s), "not available yet") != NULL);
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
    for (size_t i = 0; i < sizeof known_tables / sizeof known_tables[0]; i++) {
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

int main(void) {
    test_null_and_misuse();
    test_script_error_location();
    test_next_deal_and_eval();
    test_reproducible();
    test_run_with_callback();
    test_not_available();
    test_pbn();
    test_dds_table();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

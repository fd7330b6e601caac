/*
 * embed.c -- a practice-server-style loop over libdealer's C API: load a script once, then hand
 * out deals one by one as PBN boards (board number, dealer, vulnerability and deal).
 *
 *   embed [SEED [COUNT [SCRIPT_FILE]]]     defaults: seed 42, 4 boards, the 1NT script below
 *
 * The examples of the C# and Pascal bindings (bindings/csharp/examples/Boards.cs,
 * bindings/pascal/examples/boards.pas) print the same boards for the same seed. Exit status: 0, or 1 with libdealer's message on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealer.h"

/* North opens 1NT: 15-17 points, balanced. */
static const char default_script[] =
    "condition hcp(north) >= 15 && hcp(north) <= 17\n"
    "  && shape(north, any 4333 + any 4432 + any 5332)\n";

/* Board vulnerability by (board - 1) % 16, in PBN's words. */
static const char *const vulnerability[16] = {
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
};

static int fail(dealer_session *session, const char *what) {
    fprintf(stderr, "embed: %s: %s\n", what, dealer_last_error(session));
    dealer_free_session(session);
    return 1;
}

int main(int argc, char **argv) {
    long long seed = argc > 1 ? atoll(argv[1]) : 42;
    long count = argc > 2 ? atol(argv[2]) : 4;
    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) {
        fprintf(stderr, "embed: cannot create a session\n");
        return 1;
    }
    if (dealer_set_seed(session, seed) != DEALER_OK) return fail(session, "seed");
    int32_t status = argc > 3
        ? dealer_load_script_file(session, argv[3])
        : dealer_load_script(session, (const uint8_t *)default_script, strlen(default_script));
    if (status != DEALER_OK) return fail(session, "script");

    for (long board = 1; board <= count; board++) {
        dealer_deal deal;
        status = dealer_next_deal(session, &deal);
        if (status == DEALER_DONE) break;
        if (status != DEALER_OK) return fail(session, "next deal");
        char pbn[80];
        dealer_deal_to_pbn(&deal, pbn, sizeof pbn);
        printf("[Board \"%ld\"]\n[Dealer \"%c\"]\n[Vulnerable \"%s\"]\n[Deal \"%s\"]\n\n", board,
               "NESW"[(board - 1) % 4], vulnerability[(board - 1) % 16], pbn);
    }
    dealer_free_session(session);
    return 0;
}

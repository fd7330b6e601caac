/*
 * eval.c -- evaluating expressions on deals through libdealer's C API: a script's condition
 * picks the deals, expressions compiled once (dealer_compile_expression) are evaluated on every
 * deal (dealer_eval_compiled), and a one-off expression goes through dealer_eval.
 *
 *   eval [SEED [COUNT]]     defaults: seed 7, 5 deals
 *
 * For each deal South holds an opening hand with five or more spades; the program prints the
 * deal in the peers' one-line format and a few figures about it, then a summary line.
 * Exit status: 0, or 1 with libdealer's message on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealer.h"

static const char script[] =
    "opening = hcp(south) >= 12 && spades(south) >= 5\n"
    "condition opening\n";

/* Figures printed for every deal: a label and an expression in script syntax. */
static const char *const figures[][2] = {
    {"hcp S", "hcp(south)"},
    {"hcp N", "hcp(north)"},
    {"fit", "spades(north) + spades(south)"},
    {"losers S", "losers(south)"},
    {"game?", "hcp(north) + hcp(south) >= 25 && spades(north) >= 3"},
};
#define FIGURES (sizeof figures / sizeof figures[0])

static int fail(dealer_session *session, const char *what) {
    fprintf(stderr, "eval: %s: %s\n", what, dealer_last_error(session));
    dealer_free_session(session);
    return 1;
}

int main(int argc, char **argv) {
    long long seed = argc > 1 ? atoll(argv[1]) : 7;
    long count = argc > 2 ? atol(argv[2]) : 5;
    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) {
        fprintf(stderr, "eval: cannot create a session\n");
        return 1;
    }
    if (dealer_set_seed(session, seed) != DEALER_OK) return fail(session, "seed");
    if (dealer_load_script(session, (const uint8_t *)script, strlen(script)) != DEALER_OK)
        return fail(session, "script");

    /* Compile every figure once; the ids stay valid until another script is loaded. */
    uint32_t ids[FIGURES];
    for (size_t i = 0; i < FIGURES; i++)
        if (dealer_compile_expression(session, figures[i][1], &ids[i]) != DEALER_OK)
            return fail(session, figures[i][1]);

    long games = 0, deals = 0;
    for (; deals < count; deals++) {
        dealer_deal deal;
        int32_t status = dealer_next_deal(session, &deal);
        if (status == DEALER_DONE) break;
        if (status != DEALER_OK) return fail(session, "next deal");
        char line[80];
        dealer_deal_to_oneline(&deal, line, sizeof line);
        printf("%s\n", line);
        for (size_t i = 0; i < FIGURES; i++) {
            int32_t value;
            if (dealer_eval_compiled(session, ids[i], &value) != DEALER_OK)
                return fail(session, figures[i][1]);
            printf("  %-9s %3d\n", figures[i][0], (int)value);
            if (i == FIGURES - 1) games += value;
        }
    }
    /* A one-off expression: the script's variable `opening` is visible. */
    int32_t opening = 0;
    if (deals > 0 && dealer_eval(session, "opening", &opening) != DEALER_OK)
        return fail(session, "opening");
    printf("%ld deals, %ld with a spade game in reach; last deal opening = %d\n", deals, games,
           (int)opening);
    dealer_free_session(session);
    return 0;
}

/*
 * usereval_metric.c -- a hand-evaluation metric linked straight into the program: libdealer
 * calls it for `usereval(...)` instead of talking to a DealerServer process.
 *
 *   usereval_metric [SEED [COUNT]]     defaults: seed 3, 4 deals
 *
 * The metric is tag 3 of examples-c/test_dealer_server.c, Goren points (HCP, plus 3/2/1 for a
 * void/singleton/doubleton), in DealerV2's slot layout: slot 0 the side's total in notrump,
 * 1 and 2 each hand (North/East, South/West), 3 the side in its longest fit, 4 and 5 each hand
 * in it; the compass forms read 64 + 16*h + 0 (HCP) and + 2 (HCP + short-suit points). The
 * script below prints deals where North-South have 25+ Goren points in their fit, so the same
 * script run by the CLI with the test server (`dealer -U test_dealer_server`) prints the same
 * lines. Exit status 0, or 1 with libdealer's message on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealer.h"

static const char script[] =
    "condition usereval(3, NS, 3) >= 25\n"
    "action printoneline(usereval(3, NS, 3)), printoneline(usereval(3, south, 2))\n";

/* Short-suit points of a suit length. */
static int shortness(int length) { return length == 0 ? 3 : length == 1 ? 2 : length == 2 ? 1 : 0; }

/* Goren points for the side in query->side; the contract of dealer_usereval_fn. */
static int32_t goren(const dealer_usereval_query *query, const dealer_deal *deal,
                     const dealer_hand_stats *stats, int32_t *results, void *userdata) {
    (void)deal;
    (void)userdata;
    if (query->tag != 3) return 1; /* this program knows one metric */
    const dealer_hand_stats *hand[2] = {&stats[query->side], &stats[query->side + 2]};
    int fit = 0, fit_length = -1;
    for (int suit = 0; suit < 4; suit++) {
        int length = hand[0]->lengths[suit] + hand[1]->lengths[suit];
        if (length >= fit_length) { fit = suit; fit_length = length; } /* ties: higher suit */
    }
    results[0] = results[3] = 0;
    for (int h = 0; h < 2; h++) {
        int all_short = 0, short_outside_fit = 0;
        for (int suit = 0; suit < 4; suit++) {
            int points = shortness(hand[h]->lengths[suit]);
            all_short += points;
            if (suit != fit) short_outside_fit += points;
            results[32 + 8 * suit] += hand[h]->hcp[suit];
            results[32 + 8 * suit + 1] += hand[h]->lengths[suit];
            results[96 + 16 * h + 4 * suit] = hand[h]->hcp[suit];
            results[96 + 16 * h + 4 * suit + 1] = hand[h]->lengths[suit];
            results[96 + 16 * h + 4 * suit + 2] = points;
        }
        results[1 + h] = hand[h]->total_hcp;
        results[4 + h] = hand[h]->total_hcp + short_outside_fit;
        results[64 + 16 * h] = hand[h]->total_hcp;
        results[64 + 16 * h + 1] = all_short;
        results[64 + 16 * h + 2] = hand[h]->total_hcp + all_short;
        results[64 + 16 * h + 3] = results[4 + h];
    }
    results[0] = results[1] + results[2];
    results[3] = results[4] + results[5];
    results[6] = fit;
    results[7] = fit_length;
    return 0;
}

int main(int argc, char **argv) {
    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) return 1;
    char produce[32];
    snprintf(produce, sizeof produce, "%ld", argc > 2 ? atol(argv[2]) : 4L);
    int32_t status = dealer_set_seed(session, argc > 1 ? atoll(argv[1]) : 3);
    if (status == DEALER_OK) status = dealer_set_option(session, "produce", produce);
    if (status == DEALER_OK) status = dealer_set_option(session, "statistics", "false");
    if (status == DEALER_OK) status = dealer_set_usereval(session, goren, NULL);
    if (status == DEALER_OK)
        status = dealer_load_script(session, (const uint8_t *)script, strlen(script));
    if (status == DEALER_OK) status = dealer_run(session, NULL);
    if (status != DEALER_OK) fprintf(stderr, "usereval_metric: %s\n", dealer_last_error(session));
    dealer_free_session(session);
    return status == DEALER_OK ? 0 : 1;
}

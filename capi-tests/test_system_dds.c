/*
 * libdealer bundles its own copy of DDS. This program links libdealer together with the
 * system's DDS (Debian's libdds-dev: <dds/dll.h>, -ldds) and shows that the two do not clash:
 * CalcDDtable resolves to the system library, libdealer keeps using its own solver, and both
 * compute the same double-dummy tables for a few deals, called alternately. Built against
 * libdealer.a and against libdealer.so by the Makefile. Prints "N passed, M failed".
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dds/dll.h>

#include "dealer.h"

static int passed, failed;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) passed++;                                                    \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

/* dealer_deal (bit 16*suit + rank, suit clubs 0 … spades 3, rank 0 deuce … 12 ace) to DDS's
 * ddTableDeal (cards[hand][suit], suit 0 spades … 3 clubs, bit 1 << rank with rank 2 … 14). */
static struct ddTableDeal to_dds(const dealer_deal *d) {
    struct ddTableDeal t;
    memset(&t, 0, sizeof t);
    for (int hand = 0; hand < 4; hand++)
        for (int suit = 0; suit < 4; suit++)
            for (int rank = 0; rank < 13; rank++)
                if (d->hands[hand] & ((uint64_t)1 << (16 * suit + rank)))
                    t.cards[hand][3 - suit] |= 1u << (rank + 2);
    return t;
}

/* The file name of the object that defines the symbol at addr. */
static const char *defined_in(const void *addr) {
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (dladdr(addr, &info) == 0 || info.dli_fname == NULL) return "?";
    return info.dli_fname;
}

int main(void) {
    /* Where the two solvers come from. */
    const char *system_dds = defined_in((const void *)CalcDDtable);
    const char *ours = defined_in((const void *)dealer_dds_table);
    printf("CalcDDtable from %s, dealer_dds_table from %s\n", system_dds, ours);
    CHECK(strstr(system_dds, "libdds.so") != NULL);
    CHECK(strstr(ours, "libdds") == NULL);

    SetMaxThreads(0);
    dealer_session *s = NULL;
    CHECK(dealer_create_session(&s) == DEALER_OK);
    if (!s) return 1;
    CHECK(dealer_set_seed(s, 29) == DEALER_OK);
    const char *script = "produce 4\n";
    CHECK(dealer_load_script(s, (const uint8_t *)script, strlen(script)) == DEALER_OK);
    dealer_deal d;
    int deals = 0;
    int32_t status;
    while ((status = dealer_next_deal(s, &d)) == DEALER_OK) {
        deals++;
        dealer_dds_results ours_table;
        memset(&ours_table, 0, sizeof ours_table);
        ours_table.size = sizeof ours_table;
        ours_table.par_vulnerability = -1;
        struct ddTableResults sys;
        memset(&sys, 0, sizeof sys);
        /* Alternate which solver goes first. */
        int rc_ours, rc_sys;
        if (deals % 2) {
            rc_ours = dealer_dds_table(s, &d, &ours_table);
            rc_sys = CalcDDtable(to_dds(&d), &sys);
        } else {
            rc_sys = CalcDDtable(to_dds(&d), &sys);
            rc_ours = dealer_dds_table(s, NULL, &ours_table); /* the current deal */
        }
        CHECK(rc_ours == DEALER_OK);
        CHECK(rc_sys == RETURN_NO_FAULT);
        int agree = 0, sane = 1;
        for (int declarer = 0; declarer < 4; declarer++) {
            for (int strain = 0; strain < 5; strain++) {
                int dds_strain = strain < 4 ? 3 - strain : 4; /* C,D,H,S,NT -> S,H,D,C,NT */
                int a = ours_table.tricks[declarer][strain], b = sys.resTable[dds_strain][declarer];
                agree += a == b;
                sane &= a >= 0 && a <= 13;
                if (a != b)
                    fprintf(stderr, "deal %d: declarer %d strain %d: libdealer %d, system DDS %d\n", deals,
                            declarer, strain, a, b);
            }
        }
        CHECK(agree == 20);
        CHECK(sane);
        char pbn[80];
        dealer_deal_to_pbn(&d, pbn, sizeof pbn);
        printf("%s: %d of 20 agree\n", pbn, agree);
    }
    CHECK(status == DEALER_DONE && deals == 4);
    dealer_free_session(s);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/*
 * dd_reference.c -- independent double-dummy reference using Debian's
 * DDS 2.9 (package libdds-dev, library -ldds).  It links only libdds and
 * is used to check libdealer's trix()/par()/parcontract() results.
 *
 * Usage:   dd_reference < deals.txt > expected.txt
 *
 * Input: one deal per line as printed by libdealer's printrpt(deal):
 *     " n AKQ.JT9.876.5432 e ... s ... w ... "
 * (optional leading blanks, seat letter + space + PBN hand + space for
 * n, e, s, w; anything after the west hand, e.g. ",13,9,...", is ignored).
 * A malformed line -> message with the line number on stderr, exit 2.
 *
 * Output: one line per deal, identical to libdealer's
 *   printrpt(deal, trix(deal), par(NS,none), par(NS,ns), par(NS,ew),
 *            par(NS,both), parcontract(none), parcontract(ns),
 *            parcontract(ew), parcontract(both))
 * i.e.
 *   " n <N> e <E> s <S> w <W> ,t*20,p0,p1,p2,p3,'c0','c1','c2','c3'"
 * t: tricks for declarer N,E,S,W, each in strain order C,D,H,S,NT
 *    (CalcDDtable);
 * pv: SidesParBin(...)[0].score (NS view) for Dealer vulnerability v
 *    (0 none, 1 NS, 2 EW, 3 both; DDS coding 0 none, 1 both, 2 NS, 3 EW);
 * cv: DealerV2's par contract text of contracts[0], "%2d%c%c by %s %s"
 *    with level, "NSHDC"[denom], '*' if underTricks > 0 else ' ',
 *    {"N","E","S","W","NS","EW"}[seats], {"none","ns","ew","both"}[v].
 * Any DDS error: ErrorMessage() text and line number on stderr, exit 1.
 *
 * Build: cc -std=c99 -O2 -Wall -Wextra -Werror -o dd_reference \
 *            dd_reference.c -ldds
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dds/dll.h>

#include "deal_input.h"

/* Dealer vulnerability (0 none, 1 NS, 2 EW, 3 both) -> DDS coding. */
static const int dds_vul_of[4] = { 0, 2, 3, 1 };
static const char *const vul_name[4] = { "none", "ns", "ew", "both" };
static const char denom_char[] = "NSHDC";
static const char *const seats_name[6] = { "N", "E", "S", "W", "NS", "EW" };

static void dds_fail(int rc, const char *what, unsigned long lineno)
{
    char msg[128];
    memset(msg, 0, sizeof msg);
    ErrorMessage(rc, msg);
    fprintf(stderr, "dd_reference: line %lu: %s failed (%d): %s\n",
            lineno, what, rc, msg);
    exit(1);
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0;

    SetMaxThreads(0);   /* let DDS auto-configure (advised on Linux) */

    while ((n = getline(&line, &cap, stdin)) != -1) {
        struct parsed_deal d;
        struct ddTableResults table;
        const char *err;
        int h, s, v, rc;
        int par_score[4];
        char par_text[4][64];

        lineno++;
        (void)n;
        err = parse_deal_line(line, &d);
        if (err) {
            fprintf(stderr, "dd_reference: line %lu: malformed deal: %s\n",
                    lineno, err);
            free(line);
            return 2;
        }

        memset(&table, 0, sizeof table);
        rc = CalcDDtable(d.dd, &table);
        if (rc != RETURN_NO_FAULT)
            dds_fail(rc, "CalcDDtable", lineno);

        for (v = 0; v < 4; v++) {
            struct parResultsMaster res[2];
            const struct contractType *c;
            memset(res, 0, sizeof res);   /* deterministic if number == 0 */
            rc = SidesParBin(&table, res, dds_vul_of[v]);
            if (rc != RETURN_NO_FAULT)
                dds_fail(rc, "SidesParBin", lineno);
            par_score[v] = res[0].score;
            c = &res[0].contracts[0];
            if (c->denom < 0 || c->denom > 4 || c->seats < 0 || c->seats > 5) {
                fprintf(stderr, "dd_reference: line %lu: SidesParBin returned "
                        "out-of-range contract (denom %d, seats %d)\n",
                        lineno, c->denom, c->seats);
                exit(1);
            }
            snprintf(par_text[v], sizeof par_text[v], "%2d%c%c by %s %s",
                     c->level, denom_char[c->denom],
                     c->underTricks > 0 ? '*' : ' ',
                     seats_name[c->seats], vul_name[v]);
        }

        printf(" n %s e %s s %s w %s ", d.hand_text[0], d.hand_text[1],
               d.hand_text[2], d.hand_text[3]);
        for (h = 0; h < 4; h++) {
            for (s = 0; s < 5; s++) {
                /* Dealer strain C,D,H,S,NT -> DDS strain 3,2,1,0,4 */
                int dds_strain = s < 4 ? 3 - s : 4;
                printf(",%d", table.resTable[dds_strain][h]);
            }
        }
        for (v = 0; v < 4; v++)
            printf(",%d", par_score[v]);
        for (v = 0; v < 4; v++)
            printf(",'%s'", par_text[v]);
        putchar('\n');
    }
    free(line);
    if (ferror(stdin)) {
        perror("dd_reference: reading stdin");
        return 2;
    }
    return 0;
}

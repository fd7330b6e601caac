/*
 * dd_bench29.c -- benchmark full double-dummy tables with Debian's DDS 2.9
 * (package libdds-dev, library -ldds), as a baseline for libdealer.  It
 * links only libdds.
 *
 * Usage:   dd_bench29 THREADS [REPEAT [TABLES_OUT]] < deals.txt
 *
 * Reads deals from stdin in the same format as dd_reference (libdealer's
 * printrpt(deal) lines: " n <hand> e <hand> s <hand> w <hand> ...", extra
 * text after the west hand ignored; malformed line -> stderr, exit 2).
 * Then it configures DDS with SetMaxThreads(THREADS) and times REPEAT
 * (default 1) passes over the whole set, each pass solving every deal's
 * full 5-strain x 4-declarer table with the batch call CalcAllTables
 * (trumpFilter all 0, no par: mode -1) in chunks of MAXNOOFTABLES (40)
 * tables -- the largest batch DDS 2.9 accepts for 5 strains (its limit is
 * tables * strains <= MAXNOOFBOARDS = 200).  CalcAllTables is how DDS 2.9
 * spreads work over its threads.  Only the CalcAllTables calls are timed
 * (CLOCK_MONOTONIC); parsing and SetMaxThreads are not.
 *
 * Prints exactly one line on stdout:
 *   dds29 threads=T tables=N seconds=S tables_per_second=R
 * where N = deals * REPEAT.  If DDS configured a different number of
 * threads than requested, a warning goes to stderr.
 *
 * If TABLES_OUT is given, the tables of the first pass are written there,
 * one line per deal, as " n <N> e <E> s <S> w <W> ,t1,...,t20" (declarer
 * N,E,S,W each in strain order C,D,H,S,NT) -- the same prefix dd_reference
 * prints, so the two can be compared with cut -d, -f1-21.
 * Any DDS error: ErrorMessage() text on stderr, exit 1.
 *
 * Build: cc -std=c99 -O2 -Wall -Wextra -Werror -o dd_bench29 \
 *            dd_bench29.c -ldds
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dds/dll.h>

#include "deal_input.h"

#define CHUNK MAXNOOFTABLES   /* 5 strains * 40 tables = MAXNOOFBOARDS */

static void usage(void)
{
    fprintf(stderr, "usage: dd_bench29 THREADS [REPEAT [TABLES_OUT]] "
            "< deals.txt\n");
    exit(2);
}

static long parse_positive(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 1000000)
        usage();
    return v;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long threads, repeat = 1, r;
    const char *tables_out = NULL;
    struct parsed_deal *deals = NULL;
    struct ddTableResults *results;
    size_t ndeals = 0, capdeals = 0, i;
    char *line = NULL;
    size_t cap = 0;
    unsigned long lineno = 0;
    static struct ddTableDeals batch;     /* large: keep off the stack */
    static struct ddTablesRes batch_res;
    static struct allParResults par_unused;
    int trump_filter[DDS_STRAINS] = { 0, 0, 0, 0, 0 };
    struct DDSInfo info;
    double t0, elapsed;

    if (argc < 2 || argc > 4)
        usage();
    threads = parse_positive(argv[1]);
    if (argc >= 3)
        repeat = parse_positive(argv[2]);
    if (argc >= 4)
        tables_out = argv[3];

    while (getline(&line, &cap, stdin) != -1) {
        const char *err;
        lineno++;
        if (ndeals == capdeals) {
            size_t ncap = capdeals ? 2 * capdeals : 256;
            struct parsed_deal *p = realloc(deals, ncap * sizeof *deals);
            if (!p) {
                perror("dd_bench29: realloc");
                return 1;
            }
            deals = p;
            capdeals = ncap;
        }
        err = parse_deal_line(line, &deals[ndeals]);
        if (err) {
            fprintf(stderr, "dd_bench29: line %lu: malformed deal: %s\n",
                    lineno, err);
            return 2;
        }
        ndeals++;
    }
    free(line);
    if (ferror(stdin)) {
        perror("dd_bench29: reading stdin");
        return 2;
    }
    if (ndeals == 0) {
        fprintf(stderr, "dd_bench29: no deals on stdin\n");
        return 2;
    }
    results = calloc(ndeals, sizeof *results);
    if (!results) {
        perror("dd_bench29: calloc");
        return 1;
    }

    SetMaxThreads((int)threads);
    GetDDSInfo(&info);
    if (info.noOfThreads != threads)
        fprintf(stderr, "dd_bench29: warning: requested %ld threads, DDS "
                "configured %d\n", threads, info.noOfThreads);

    t0 = now_seconds();
    for (r = 0; r < repeat; r++) {
        for (i = 0; i < ndeals; i += CHUNK) {
            size_t k, n = ndeals - i < CHUNK ? ndeals - i : CHUNK;
            int rc;
            batch.noOfTables = (int)n;
            for (k = 0; k < n; k++)
                batch.deals[k] = deals[i + k].dd;
            rc = CalcAllTables(&batch, -1, trump_filter, &batch_res,
                               &par_unused);
            if (rc != RETURN_NO_FAULT) {
                char msg[128];
                memset(msg, 0, sizeof msg);
                ErrorMessage(rc, msg);
                fprintf(stderr, "dd_bench29: CalcAllTables failed (%d) on "
                        "deals %zu..%zu: %s\n", rc, i + 1, i + n, msg);
                return 1;
            }
            if (r == 0)
                for (k = 0; k < n; k++)
                    results[i + k] = batch_res.results[k];
        }
    }
    elapsed = now_seconds() - t0;

    if (tables_out) {
        FILE *f = fopen(tables_out, "w");
        int h, s;
        if (!f) {
            perror(tables_out);
            return 1;
        }
        for (i = 0; i < ndeals; i++) {
            fprintf(f, " n %s e %s s %s w %s ", deals[i].hand_text[0],
                    deals[i].hand_text[1], deals[i].hand_text[2],
                    deals[i].hand_text[3]);
            for (h = 0; h < 4; h++)
                for (s = 0; s < 5; s++)
                    fprintf(f, ",%d",
                            results[i].resTable[s < 4 ? 3 - s : 4][h]);
            fputc('\n', f);
        }
        if (fclose(f) != 0) {
            perror(tables_out);
            return 1;
        }
    }

    printf("dds29 threads=%ld tables=%zu seconds=%.3f "
           "tables_per_second=%.1f\n", threads, ndeals * (size_t)repeat,
           elapsed, elapsed > 0 ? (double)(ndeals * (size_t)repeat) / elapsed
                                : 0.0);
    free(results);
    free(deals);
    return 0;
}

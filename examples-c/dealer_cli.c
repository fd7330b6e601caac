/*
 * dealer: the libdealer command-line program.
 *
 * Accepts the switches of DealerV2 4.3.3 and, in the classic dialect, those of classic dealer
 * (Debian package `dealer`), plus libdealer's long options (see `long_options`): --rng= to choose
 * the random generator, --dialect= the language and output formats (default: classic with glibc,
 * DealerV2 otherwise), --explain/--no-explain the form of error messages, --untrusted for
 * scripts typed by users, --format=lin|jsonl with --start-board=, --rotate, --no-board-title and
 * --json-summary for BBO LIN and JSON Lines output, --pbn-dd and --json-dd for double-dummy
 * results in PBN (PBN 2.1 tags) and JSON Lines records, --check=bbo, --help, --version. Any
 * other "--word" is a usage error (status 2) in both dialects, with the nearest long option
 * suggested; the peers' short switches keep their messages and statuses.
 * Uses only the public header include/dealer.h.
 *
 * Builds on POSIX systems and, with mingw-w64, on Windows (the few differences are marked
 * _WIN32: binary standard streams, so that the bytes written are the same on every system, and
 * signal() for Ctrl-C where there is no sigaction).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "dealer.h"

enum dialect { DIALECT_CLASSIC, DIALECT_V2 };

static const char *V2_OPTIONS = "hmqvVg:p:s:x:C:D:L:M:O:P:R:T:N:E:S:W:X:U:Z:0:1:2:3:4:5:6:7:8:9:l:";
static const char *CLASSIC_OPTIONS = "023ehuvmqp:g:s:t:l:V";

/* How library errors are printed: the peers' one line (`line N: message`), or the library's full
 * text (line, column, the script line and a caret). EXPLAIN_AUTO: the full text when standard
 * error is a terminal. The exit statuses are the same either way. */
enum explain { EXPLAIN_AUTO, EXPLAIN_ON, EXPLAIN_OFF };

/* What --help / --version ask for. */
enum request { REQUEST_NONE, REQUEST_HELP, REQUEST_VERSION };

/* Why a "--word" is refused: not a long option, one without its =VALUE, a flag given a value. */
enum long_option_error { LONG_UNKNOWN, LONG_NEEDS_VALUE, LONG_TAKES_NO_VALUE };

/* The settings made by libdealer's long options. */
struct cli_options {
    const char *rng;
    const char *dialect;
    const char *external_timeout;
    const char *opc_program;
    const char *dds_table_mb;
    const char *pbn_date;
    const char *precision;
    const char *format;
    const char *start_board;
    const char *check;
    const char *smart;
    const char *write_leveled;
    const char *level_target;
    const char *level_budget;
    const char *level_measure;
    const char *level_timeout;
    int level;
    int interleave;
    char **mix;    /* --mix's scenario words (in argv), mix_count of them */
    int mix_count;
    const char *part;
    const char *deals;
    const char *part_file;
    char **merge;  /* --merge's part files (in argv), merge_count of them */
    int merge_count;
    int explain;
    int request;
    int untrusted;
    int rotate;
    int no_board_title;
    int json_summary;
    int intervals;
    int pbn_dd;
    int json_dd;
    const char *input;
    const char *input_format;
    const char *verify_dd;
    const char *input_errors;
    const char *bad_word; /* the first "--word" refused (NULL: none), reported by main */
    enum long_option_error bad_word_error;
};

static const struct cli_options CLI_DEFAULTS = {"chacha", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                                NULL, NULL, NULL, NULL, 0, 0, NULL, 0, NULL, NULL, NULL, NULL, 0, EXPLAIN_AUTO, REQUEST_NONE, 0,
                                                0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, LONG_UNKNOWN};

/* The long options' settings. */
static struct cli_options cli;

/* libdealer's long options; the peers have none. A row is either `--name=VALUE` (`value`
 * receives VALUE) or `--name` alone (`*flag` is set to `flag_value`); of several, the last wins.
 * A row with `next_word` also takes its value as the next word (`--name VALUE`), as Dealer3's
 * levelling options do. To add an option: a member of struct cli_options (and its default) and
 * a row here. */
struct long_option {
    const char *group; /* the heading --help prints before this row, or NULL */
    const char *name;  /* without the leading "--" */
    const char **value;
    int *flag;
    int flag_value;
    const char *help;
    int next_word;
};

static const struct long_option long_options[] = {
    {"Generator and dialect", "rng", &cli.rng, NULL, 0, "--rng=chacha|drand48|glibc   random generator (default chacha)", 0},
    {NULL, "dialect", &cli.dialect, NULL, 0, "--dialect=classic|v2         language and output dialect", 0},
    {NULL, "smart", &cli.smart, NULL, 0,
     "--smart=auto|off             ChaCha: deal the most constrained seat first, from the exact count of its hands (auto)", 0},
    {"Errors and untrusted scripts", "explain", NULL, &cli.explain, EXPLAIN_ON,
     "--explain                    full error messages: line, column, the line and a caret", 0},
    {NULL, "no-explain", NULL, &cli.explain, EXPLAIN_OFF,
     "--no-explain                 the peers' one-line errors, even on a terminal", 0},
    {NULL, "untrusted", NULL, &cli.untrusted, 1,
     "--untrusted                  a user's script: no opc/usereval programs; 10 s, 10^7 deals, 1 MiB", 0},
    {"Board records", "format", &cli.format, NULL, 0,
     "--format=script|lin|jsonl|pbn  the script's actions, or BBO LIN / JSON Lines / PBN records instead", 0},
    {NULL, "start-board", &cli.start_board, NULL, 0,
     "--start-board=N              number of the first board (dealer, vulnerability follow it)", 0},
    {NULL, "rotate", NULL, &cli.rotate, 1,
     "--rotate                     turn each deal: the script's dealer hand sits in the board's dealer seat", 0},
    {NULL, "no-board-title", NULL, &cli.no_board_title, 1,
     "--no-board-title             LIN records without the ah|Board N| title", 0},
    {NULL, "json-summary", NULL, &cli.json_summary, 1,
     "--json-summary               end the run with a JSON summary object, not the text statistics", 0},
    {"Reading deals (hand records, other programs' files)", "input", &cli.input, NULL, 0,
     "--input=FILE                 the deals of FILE (- standard input) through the script, board data kept", 0},
    {NULL, "input-format", &cli.input_format, NULL, 0,
     "--input-format=auto|pbn|lin|oneline|dl52|jsonl|zrd  the input's format (auto: from its first bytes)", 0},
    {NULL, "verify-dd", &cli.verify_dd, NULL, 0,
     "--verify-dd=N                solve the first N double-dummy tables the records carry; stop if one differs", 0},
    {NULL, "input-errors", &cli.input_errors, NULL, 0,
     "--input-errors=stop|skip     a malformed record stops the run (stop), or is skipped and counted", 0},
    {"Statistics", "intervals", NULL, &cli.intervals, 1,
     "--intervals                  the statistics with their 95 % intervals (averages, frequency shares)", 0},
    {NULL, "precision", &cli.precision, NULL, 0,
     "--precision=W                deal until every statistic's 95 % interval is at most W wide", 0},
    {NULL, "pbn-date", &cli.pbn_date, NULL, 0,
     "--pbn-date=YYYY.MM.DD        the [Date] of PBN records and printpbn (default: today)", 0},
    {"Double dummy and external programs", "pbn-dd", NULL, &cli.pbn_dd, 1,
     "--pbn-dd                     PBN records with double dummy: OptimumResultTable, OptimumScore, ParContract", 0},
    {NULL, "json-dd", NULL, &cli.json_dd, 1,
     "--json-dd                    JSON Lines records with the double-dummy table and par", 0},
    {NULL, "dds-table-mb", &cli.dds_table_mb, NULL, 0,
     "--dds-table-mb=MB            most solver table memory per double-dummy thread (160)", 0},
    {NULL, "external-timeout", &cli.external_timeout, NULL, 0,
     "--external-timeout=SECONDS   longest wait for a DealerServer answer or an opc run (30)", 0},
    {NULL, "opc-program", &cli.opc_program, NULL, 0,
     "--opc-program=PATH           the DOP program opc() runs (DealerV2's default path)", 0},
    {"Levelling hand types (Dealer3's HandType_NAME variables; VALUE may also be the next word)", "write-leveled",
     &cli.write_leveled, NULL, 0, "--write-leveled=FILE         write the script with its generated levelling block; no deals", 1},
    {NULL, "level", NULL, &cli.level, 1,
     "--level                      deal each hand type directly, in exact quotas of the target mix, interleaved", 0},
    {NULL, "level-target", &cli.level_target, NULL, 0,
     "--level-target=even|W,W,...  the target mix over the hand types (default: the _Share weights, else even)", 1},
    {NULL, "level-budget", &cli.level_budget, NULL, 0,
     "--level-budget=N             at most N deals dealt per deal kept (mix moved toward nature to fit)", 1},
    {NULL, "level-measure", &cli.level_measure, NULL, 0,
     "--level-measure=N            measure natural shares on at most N produced deals (2000000)", 1},
    {NULL, "level-timeout", &cli.level_timeout, NULL, 0,
     "--level-timeout=SECONDS      measure natural shares for at most this long (60)", 1},
    {NULL, "mix", NULL, &cli.mix_count, 0,
     "--mix A.dlr B.dlr:2 C.dlr=10 one board set from several scripts: by weight (:W) or count (=N)", 0},
    {NULL, "interleave", NULL, &cli.interleave, 1,
     "--interleave                 print the deals in rounds holding each hand type, boards numbered by position", 0},
    {"One job in parts, on many machines (ChaCha; README \"Scale-out\")", "part", &cli.part, NULL, 0,
     "--part=K/N                   deal part K (0 to N-1) of N equal ranges of the deal numbers into --part-file", 1},
    {NULL, "deals", &cli.deals, NULL, 0,
     "--deals=FIRST:COUNT          deal deal numbers FIRST to FIRST+COUNT-1 into --part-file", 1},
    {NULL, "part-file", &cli.part_file, NULL, 0,
     "--part-file=FILE             where a part writes its accepted deals (nothing is printed)", 1},
    {NULL, "merge", NULL, &cli.merge_count, 0,
     "--merge F1 F2 ...            merge part files: print what one run of the job prints", 0},
    {"Checking a script", "check", &cli.check, NULL, 0,
     "--check=bbo                  list what BBO's dealer (classic) rejects or reads differently; no deals", 0},
    {"Information", "help", NULL, &cli.request, REQUEST_HELP, "--help                       this help", 0},
    {NULL, "version", NULL, &cli.request, REQUEST_VERSION, "--version                    libdealer's version", 0},
};
enum { N_LONG_OPTIONS = sizeof long_options / sizeof long_options[0] };

/* The most scenarios --mix takes, and its words (pointers into argv). */
enum { MAX_MIX = 256 };
static char *mix_words[MAX_MIX];
/* The most part files --merge takes (more than a Slurm job array holds by default), and its
 * words (pointers into argv). */
enum { MAX_MERGE = 65536 };
static char *merge_words[MAX_MERGE];

/* The long option named by `arg` ("--name" or "--name=VALUE"), or NULL. */
static const struct long_option *find_long_option(const char *arg) {
    size_t n = strcspn(arg + 2, "=");
    for (int k = 0; k < N_LONG_OPTIONS; k++)
        if (strlen(long_options[k].name) == n && strncmp(arg + 2, long_options[k].name, n) == 0) return &long_options[k];
    return NULL;
}

/* Records the setting of the long option `arg` ("--name..."); a word that is none, or one used
 * without its value or with a value it does not take, is kept in cli.bad_word (the first such
 * word; main reports it). */
static void take_long_option(const char *arg) {
    const struct long_option *o = find_long_option(arg);
    const char *rest = arg + 2 + strcspn(arg + 2, "=");
    if (o && o->value && *rest == '=') *o->value = rest + 1;
    else if (o && o->flag && *rest == '\0') *o->flag = o->flag_value;
    else if (!cli.bad_word) {
        cli.bad_word = arg;
        cli.bad_word_error = !o ? LONG_UNKNOWN : o->value ? LONG_NEEDS_VALUE : LONG_TAKES_NO_VALUE;
    }
}

/* Takes libdealer's long options out of argv (into `cli`) before getopt parses the peers' short
 * switches (`optstring`), so that those parse exactly as in the peers. A long option counts
 * wherever getopt would see an option: not after "--", not as the argument of a short switch
 * (`-T --help` is a title), and with POSIXLY_CORRECT not after the first operand. Every "--word"
 * there is taken out: one that is not a long option is an error (cli.bad_word). Returns the
 * new argc. */
static int take_long_options(int argc, char **argv, const char *optstring) {
    int kept = 1, operands_only = 0;
    int posixly_correct = getenv("POSIXLY_CORRECT") != NULL;
    cli = CLI_DEFAULTS;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (operands_only) {
            /* after "--" or (POSIXLY_CORRECT) after an operand, every word is an operand */
        } else if (strcmp(arg, "--") == 0) {
            operands_only = 1;
        } else if (arg[0] != '-' || arg[1] == '\0') {
            operands_only = posixly_correct;
        } else if (strcmp(arg, "--mix") == 0) {
            /* --mix takes the words after it up to the next option: the scenarios */
            cli.mix = mix_words;
            cli.mix_count = 0;
            while (i + 1 < argc && argv[i + 1][0] != '-' && cli.mix_count < MAX_MIX) mix_words[cli.mix_count++] = argv[++i];
            continue;
        } else if (strcmp(arg, "--merge") == 0) {
            /* --merge takes the words after it up to the next option: the part files */
            cli.merge = merge_words;
            cli.merge_count = 0;
            while (i + 1 < argc && argv[i + 1][0] != '-' && cli.merge_count < MAX_MERGE) merge_words[cli.merge_count++] = argv[++i];
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                fprintf(stderr, "%s: --merge takes at most %d part files\n", argv[0], MAX_MERGE);
                exit(2);
            }
            continue;
        } else if (arg[1] == '-') {
            const struct long_option *o = find_long_option(arg);
            if (o && o->value && o->next_word && arg[2 + strlen(o->name)] == '\0' && i + 1 < argc) {
                *o->value = argv[++i];
                continue;
            }
            take_long_option(arg);
            continue;
        } else {
            /* short switches: the first that takes an argument takes the rest of the word, or
             * else the next word */
            for (const char *c = arg + 1; *c; c++) {
                const char *known = *c == ':' ? NULL : strchr(optstring, *c);
                if (!known || known[1] != ':') continue;
                if (c[1] == '\0' && i + 1 < argc) argv[kept++] = argv[i++];
                break;
            }
        }
        argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    return kept;
}

/* The edit distance (insertions, deletions, substitutions) between a and b; at most 99. */
static int edit_distance(const char *a, size_t la, const char *b) {
    size_t lb = strlen(b);
    int row[64];
    if (la > 60 || lb > 60) return 99;
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

/* The long option closest to the name in `arg` ("--name..."): one that starts with it, or within
 * a third of its length in edits (at least 1, at most 2). NULL when none is that close. */
static const struct long_option *nearest_long_option(const char *arg) {
    const char *name = arg + 2;
    size_t n = strcspn(name, "=");
    const struct long_option *best = NULL;
    int best_distance = 99;
    for (int k = 0; k < N_LONG_OPTIONS; k++) {
        const char *candidate = long_options[k].name;
        int d = n >= 2 && strncmp(candidate, name, n) == 0 ? 0 : edit_distance(name, n, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = &long_options[k];
        }
    }
    int allowed = n >= 6 ? 2 : 1;
    return best_distance <= allowed ? best : NULL;
}

/* Reports cli.bad_word on stderr (nothing on stdout); returns the usage-error status, 2. */
static int report_bad_word(const char *argv0) {
    const struct long_option *o = find_long_option(cli.bad_word);
    switch (cli.bad_word_error) {
    case LONG_NEEDS_VALUE:
        fprintf(stderr, "%s: option '--%s' needs a value: %.*s\n", argv0, o->name, (int)strcspn(o->help, " "), o->help);
        break;
    case LONG_TAKES_NO_VALUE:
        fprintf(stderr, "%s: option '--%s' takes no value: '%s'\n", argv0, o->name, cli.bad_word);
        break;
    case LONG_UNKNOWN: {
        const struct long_option *near = nearest_long_option(cli.bad_word);
        if (near) fprintf(stderr, "%s: unknown option '%s' (did you mean --%s?)\n", argv0, cli.bad_word, near->name);
        else fprintf(stderr, "%s: unknown option '%s' (--help lists the options)\n", argv0, cli.bad_word);
        break;
    }
    }
    return 2;
}

/* The dialect the long options choose: --dialect, else classic with glibc and DealerV2
 * otherwise. Returns 0 for an unknown --dialect value. */
static int choose_dialect(enum dialect *dialect) {
    *dialect = strcmp(cli.rng, "glibc") == 0 ? DIALECT_CLASSIC : DIALECT_V2;
    if (!cli.dialect) return 1;
    if (strcmp(cli.dialect, "classic") == 0) *dialect = DIALECT_CLASSIC;
    else if (strcmp(cli.dialect, "v2") == 0) *dialect = DIALECT_V2;
    else return 0;
    return 1;
}

/* Whether library errors are printed in full (set once the options are read). */
static int full_errors = 0;

/* The run's interrupter, for the signal handler. */
static dealer_interrupter *interrupter = NULL;

/* SIGINT/SIGTERM: asks the run to stop after the deal in progress, so that every line written
 * is complete (the run then fails with "interrupted", exit status 130). The handler is reset on
 * its first call: a second signal ends the program at once. */
static void on_interrupt(int signal_number) {
    (void)signal_number;
    dealer_interrupt(interrupter);
}

/* Prints the session's last error (the peers' one line, or the full text: see enum explain) and
 * returns the exit status the peers use for it. */
static int fail(dealer_session *session) {
    const char *full = dealer_last_error(session);
    fprintf(stderr, "%s\n", full_errors && full[0] ? full : dealer_last_error_summary(session));
    int code = dealer_last_error_exit_code(session);
    return code == 0 ? 1 : code;
}

/* Sets an option; on failure prints the error and exits. */
static void set(dealer_session *session, const char *key, const char *value) {
    if (dealer_set_option(session, key, value) != DEALER_OK) {
        int code = fail(session);
        dealer_free_session(session);
        exit(code);
    }
}

/* The long options' lines of the help texts. */
static void print_long_options(void) {
    for (int k = 0; k < N_LONG_OPTIONS; k++) printf("  %s\n", long_options[k].help);
}

static void v2_usage(const char *argv0) {
    printf("--- HELP %s COMING --- \n", dealer_version());
    printf("%s Usage: -[options] [input_filename | stdin] [>output_file]\n", argv0);
    printf("  -h            this help\n"
           "  -V            version\n"
           "  -m            progress meter on stderr\n"
           "  -q            suppress printpbn output\n"
           "  -v            toggle the end-of-run statistics\n"
           "  -g N          maximum number of deals generated\n"
           "  -p N          maximum number of deals produced\n"
           "  -s N          seed\n"
           "  -x 2|3        swapping mode\n"
           "  -C [w:]file   csvrpt output file (append; w: truncates)\n"
           "  -X file       export output file\n"
           "  -T \"text\"     title\n"
           "  -N/-E/-S/-W holdings   predeal, e.g. -E SQT,HK765,DAQT74,C97\n"
           "  -O N|E|S|W    opener (opc)\n"
           "  -P 0..3       default par vulnerability\n"
           "  -M 1|2        double-dummy mode\n"
           "  -R n          threads for dealing and double dummy, 0..64 (0 = one per core)\n"
           "  -D n[.m]      debug verbosity\n"
           "  -U path       DealerServer path\n"
           "  -L file|=     library mode: deals and double-dummy results from a ZRD file\n"
           "  -Z [w][N]:file  append (w: write) each produced deal to a ZRD file (N: no tricks)\n"
           "  -l [w]:file   append (w: write) each produced deal as 52 bytes\n"
           "  -0 .. -9 text script variables $0 .. $9\n");
    print_long_options();
    printf("--- HELP %s DONE --- \n", dealer_version());
}

static void classic_usage(const char *argv0) {
    fprintf(stderr, "Usage: %s [-023ehuvmqV] [-p n] [-g n] [-s seed] [-l n] [inputfile]\n", argv0);
}

/* --help, in both dialects: libdealer's own usage text (the peers' -h keeps its form). */
static void help_text(const char *argv0, enum dialect dialect) {
    printf("Usage: %s [switches] [long options] [script]\n"
           "Deals bridge hands that satisfy a script in the dealer language (classic dealer or DealerV2);\n"
           "the script is read from the file named, else from standard input.\n\n", argv0);
    if (dialect == DIALECT_V2) {
        printf("DealerV2's switches (this dialect; --dialect=classic or --rng=glibc for classic dealer's):\n"
               "  Dealing:   -g N  most deals generated    -p N  most deals produced    -s N  seed\n"
               "             -x 2|3  swapping mode    -R N  threads, 0..64 (0 = one per core)\n"
               "             -N/-E/-S/-W cards  predeal, e.g. -E SQT,HK765,DAQT74,C97    -O N|E|S|W  opener (opc)\n"
               "  Output:    -q  no printpbn output    -v  toggle the statistics    -m  progress meter\n"
               "             -T text  title    -C [w:]file  csvrpt file    -X file  export file\n"
               "             -Z [w][N]:file  ZRD file    -l [w]:file  52-byte deals    -D n[.m]  debug\n"
               "  Double dummy and servers:  -M 1|2  mode    -P 0..3  par vulnerability    -U path  DealerServer\n"
               "  Library mode:  -L file|=  deals from a ZRD file\n"
               "  Script variables:  -0 .. -9 text  $0 .. $9\n"
               "  Information:  -h  DealerV2's help    -V  version\n");
    } else {
        printf("Classic dealer's switches (this dialect; --dialect=v2 for DealerV2's):\n"
               "  Dealing:   -g N  most deals generated    -p N  most deals produced    -s N  seed\n"
               "             -t N  time limit in seconds    -0, -2, -3  swapping mode\n"
               "  Output:    -q  no printpbn output    -v  toggle the statistics    -m  progress meter\n"
               "  No effect or not available:  -u    -e (exhaust mode)    -l N (library mode)\n"
               "  Information:  -h  classic dealer's usage line    -V  version\n");
    }
    for (int k = 0; k < N_LONG_OPTIONS; k++) {
        if (long_options[k].group) printf("\n%s:\n", long_options[k].group);
        printf("  %s\n", long_options[k].help);
    }
    printf("\nExample:\n"
           "  %s -s 1 -p 5 example.dlr               five deals that satisfy example.dlr, seed 1\n"
           "  %s --rng=drand48 -s 11 script.dli      what DealerV2 4.3.3 prints for that script\n"
           "\nThe manual: man dealer (every option), and the book libdealer - the manual (the language,\n"
           "guides; docs/ in libdealer's source, make docs). A misspelled or misused long option\n"
           "exits with status 2.\n",
           argv0, argv0);
}

/* Reads a whole stream into memory. Returns NULL on a read error. */
/* The longest script the CLI reads: the library's default `max_script_bytes` (16 MiB). Reading
 * stops one byte past it, so that /dev/zero or an endless pipe cannot exhaust memory; the
 * caller refuses such a script. */
#define MAX_SCRIPT_BYTES ((size_t)16 << 20)

/* Reads a whole script, at most MAX_SCRIPT_BYTES + 1 bytes (more means too long); NULL when it
 * cannot be read. */
static char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    while (n <= MAX_SCRIPT_BYTES) {
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) { free(buf); return NULL; }
            buf = bigger;
        }
        size_t want = cap - n;
        if (want > MAX_SCRIPT_BYTES + 1 - n) want = MAX_SCRIPT_BYTES + 1 - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) { free(buf); return NULL; }
    *len = n;
    return buf;
}

/* Whether a script read by read_all is too long; if so, says so on stderr (status 255 follows,
 * as for the library's own refusal). */
static int script_too_long(const char *name, size_t len) {
    if (len <= MAX_SCRIPT_BYTES) return 0;
    fprintf(stderr, "%s: the script is longer than %zu bytes (option max_script_bytes)\n", name ? name : "standard input",
            MAX_SCRIPT_BYTES);
    return 1;
}

/* DealerV2 opens its report files and checks the server path while reading the options; a
 * failure there is fatal (status 255). The session reopens the files when it runs. */
static void v2_check_option_file(dealer_session *session, const char *what, const char *path, const char *mode) {
    FILE *f = NULL;
    struct stat st;
    int ok = strcmp(mode, "stat") == 0 ? stat(path, &st) == 0 : (f = fopen(path, mode)) != NULL;
    if (f) fclose(f);
    if (!ok) {
        fprintf(stderr, "%s %s: %s\n", what, path, strerror(errno));
        fprintf(stderr, "FATAL Error In GetOpts. Ending Program\n");
        dealer_free_session(session);
        exit(255);
    }
}

/* Reads a number switch (-s, -g, -p, -t) as the peers do, with atol: leading blanks, a sign and
 * digits; text after the digits is ignored, no digits gives 0, overflow gives LONG_MAX/LONG_MIN.
 * The library's options take whole numbers only, so the CLI passes the number it read. */
static long peer_number(const char *text) {
    return strtol(text, NULL, 10);
}

/* Sets a whole-number option to `value`. */
static void set_number(dealer_session *session, const char *key, long value) {
    char text[24];
    snprintf(text, sizeof text, "%ld", value);
    set(session, key, text);
}

/* Sets the seed from a -s value as the peers read it: a value at or beyond the limits of a long
 * is refused. */
static void set_seed(dealer_session *session, const char *text, enum dialect dialect) {
    long v = peer_number(text);
    /* ChaCha's seeds are 64-bit words, and the statistics print a random one unsigned: that
     * number, above LONG_MAX, is taken back as the same word (a peer has no such seeds). */
    const char *digits = text + strspn(text, " \t");
    if ((v == LONG_MAX) && strcmp(cli.rng, "chacha") == 0 && *digits && strspn(digits, "0123456789") == strlen(digits)) {
        errno = 0;
        unsigned long long word = strtoull(digits, NULL, 10);
        if (errno == 0 && word > (unsigned long long)LONG_MAX) {
            set_number(session, "seed", (long)(long long)word);
            return;
        }
    }
    if (v == LONG_MAX || v == LONG_MIN) {
        if (dialect == DIALECT_V2)
            fprintf(stderr, "Seed overflow: seed must be greater than -9223372036854775808 and less than 9223372036854775807\n");
        else
            fprintf(stderr, "Seed overflow: seed must be between -9223372036854775808 and 9223372036854775807\n");
        dealer_free_session(session);
        exit(255);
    }
    set_number(session, "seed", v);
}

/* --check: one diagnostic line to standard output; `userdata` counts the lines. */
static int32_t write_check_line(const uint8_t *data, uintptr_t len, void *userdata) {
    (*(long *)userdata)++;
    return fwrite(data, 1, len, stdout) == len ? 0 : 1;
}

/* Adds --mix's scenarios to the session: each word is FILE, FILE:WEIGHT or FILE=COUNT (the
 * last ':' or '=' followed by a number only; the file name labels its boards). Returns 0, or
 * the exit status after printing why not. */
static int add_mix_scenarios(dealer_session *session) {
    for (int k = 0; k < cli.mix_count; k++) {
        const char *word = cli.mix[k];
        size_t n = strlen(word);
        double weight = 1.0;
        long long count = -1;
        const char *cut = strrchr(word, ':');
        const char *eq = strrchr(word, '=');
        if (eq && (!cut || eq > cut)) cut = eq;
        if (cut && cut[1] != '\0' && strspn(cut + 1, "0123456789.") == strlen(cut + 1)) {
            char *end = NULL;
            if (*cut == '=') count = strtoll(cut + 1, &end, 10);
            else weight = strtod(cut + 1, &end);
            if (!end || *end != '\0') {
                fprintf(stderr, "--mix: '%s': a weight (FILE:W) or a whole count (FILE=N) after the name\n", word);
                return 2;
            }
            n = (size_t)(cut - word);
        }
        char *name = malloc(n + 1);
        if (!name) return 2;
        memcpy(name, word, n);
        name[n] = '\0';
        FILE *input = fopen(name, "rb");
        if (!input) {
            perror(name);
            free(name);
            return 255;
        }
        size_t len = 0;
        char *text = read_all(input, &len);
        fclose(input);
        if (!text) {
            fprintf(stderr, "%s: cannot read\n", name);
            free(name);
            return 2;
        }
        if (script_too_long(name, len)) {
            free(text);
            free(name);
            return 255;
        }
        int status = dealer_mix_add(session, name, (const uint8_t *)text, len, weight, count);
        free(text);
        free(name);
        if (status != DEALER_OK) return fail(session);
    }
    return 0;
}

int main(int argc, char **argv) {
    /* Long options are taken out before getopt sees the peers' short switches. Which short
     * switches take an argument depends on the dialect, which long options choose: a look at a
     * copy of argv (with DealerV2's switches) finds the dialect, then its switches are used. */
    enum dialect dialect;
#ifdef _WIN32
    /* Text mode would turn every "\n" the program writes into "\r\n": the output is the same
     * bytes as on other systems (and as the library's own writes, which bypass the C runtime). */
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    _setmode(_fileno(stdin), _O_BINARY);
#endif
    char **look = malloc(((size_t)argc + 1) * sizeof *look);
    if (!look) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    memcpy(look, argv, ((size_t)argc + 1) * sizeof *look);
    take_long_options(argc, look, V2_OPTIONS);
    free(look);
    if (choose_dialect(&dialect)) argc = take_long_options(argc, argv, dialect == DIALECT_V2 ? V2_OPTIONS : CLASSIC_OPTIONS);
    if (!choose_dialect(&dialect)) {
        fprintf(stderr, "unknown dialect '%s' (classic or v2)\n", cli.dialect);
        return 2;
    }
    /* A misspelled or misused long option is a usage error in both dialects (the peers have no
     * long options: their getopt would read "--frmat" as the switches -, f, r, …). */
    if (cli.bad_word) return report_bad_word(argv[0]);
    full_errors = cli.explain == EXPLAIN_ON || (cli.explain == EXPLAIN_AUTO && isatty(STDERR_FILENO));

    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) {
        fprintf(stderr, "cannot create a libdealer session\n");
        return 2;
    }
    set(session, "rng", cli.rng);
    if (cli.smart) set(session, "smart", cli.smart);
    if (cli.external_timeout) set(session, "external_timeout", cli.external_timeout);
    if (cli.dds_table_mb) set(session, "dds_table_mb", cli.dds_table_mb);
    if (cli.opc_program) set(session, "opc_program", cli.opc_program);
    /* --untrusted: the script may start no program, and the run ceilings apply (README "Limits
     * and errors"). */
    if (cli.untrusted) set(session, "untrusted", "true");
    /* Board records: LIN or JSON Lines in place of the script's actions, board numbering and
     * rotation (README "Board records: LIN and JSON Lines"). */
    if (cli.format) set(session, "format", cli.format);
    if (cli.start_board) set(session, "start_board", cli.start_board);
    if (cli.pbn_date) set(session, "pbn_date", cli.pbn_date);
    if (cli.rotate) set(session, "rotate", "true");
    if (cli.no_board_title) set(session, "board_title", "false");
    if (cli.json_summary) set(session, "json_summary", "true");
    if (cli.intervals) set(session, "intervals", "true");
    if (cli.precision) set(session, "precision", cli.precision);
    /* Double dummy in board records (README "Double dummy in PBN and JSON Lines records"). */
    if (cli.pbn_dd) set(session, "pbn_dd", "true");
    if (cli.json_dd) set(session, "json_dd", "true");
    /* Reading deals from board records (README "Reading deals"). */
    if (cli.input) set(session, "input", cli.input);
    if (cli.input_format) set(session, "input_format", cli.input_format);
    if (cli.verify_dd) set(session, "verify_dd", cli.verify_dd);
    if (cli.input_errors) set(session, "input_errors", cli.input_errors);
    /* Levelling (README "Practice sets: levelling hand types"). */
    if (cli.write_leveled) set(session, "write_leveled", cli.write_leveled);
    if (cli.level) set(session, "level", "true");
    if (cli.level_target) set(session, "level_target", cli.level_target);
    if (cli.level_budget) set(session, "level_budget", cli.level_budget);
    if (cli.level_measure) set(session, "level_measure", cli.level_measure);
    if (cli.level_timeout) set(session, "level_timeout", cli.level_timeout);
    if (cli.interleave) set(session, "interleave", "true");
    /* Parts of a job (README "Scale-out"). */
    if (cli.part) set(session, "part", cli.part);
    if (cli.deals) set(session, "deals", cli.deals);
    if (cli.part_file) set(session, "part_file", cli.part_file);
    set(session, "dialect", dialect == DIALECT_CLASSIC ? "classic" : "v2");
    if (cli.request == REQUEST_HELP) {
        help_text(argv[0], dialect);
        dealer_free_session(session);
        return 0;
    }
    if (cli.request == REQUEST_VERSION) {
        printf("dealer (libdealer) %s\n", dealer_version());
        printf("dialect: %s, random generator: %s\n",
               dialect == DIALECT_CLASSIC ? "classic dealer" : "DealerV2 4.3.3", cli.rng);
        dealer_free_session(session);
        return 0;
    }

    int statistics = 1, quiet = 0, help = 0, usage_error = 0;
    /* -g and -p as the peers read them (0: the script's); set once the switches are read. */
    long generate = 0, produce = 0;
    const char *not_available = NULL;
    int c;
    const char *optstring = dialect == DIALECT_V2 ? V2_OPTIONS : CLASSIC_OPTIONS;
    while ((c = getopt(argc, argv, optstring)) != -1) {
        if (dialect == DIALECT_CLASSIC) {
            switch (c) {
            case '0': set(session, "swap", "0"); break;
            case '2': set(session, "swap", "2"); break;
            case '3': set(session, "swap", "3"); break;
            case 'e':
                printf("Exhaust mode not included in this executable\n");
                dealer_free_session(session);
                return 1;
            case 'u': break; /* no effect in classic dealer either */
            case 'v': statistics = !statistics; break;
            case 'm': set(session, "progress", "true"); break;
            case 'q': quiet = !quiet; break;
            case 'p': produce = peer_number(optarg); break;
            case 'g': generate = peer_number(optarg); break;
            case 's': set_seed(session, optarg, dialect); break;
            case 't': { /* alarm(N) only for N > 0 */
                long seconds = peer_number(optarg);
                set_number(session, "time_limit", seconds > 0 ? seconds : 0);
                break;
            }
            case 'l': not_available = "-l (library mode)"; break;
            case 'V':
                printf("Version info....\n$Revision: libdealer %s $\n$Dialect: classic dealer $\n$Author: libdealer $\n",
                       dealer_version());
                dealer_free_session(session);
                return 1;
            default: /* -h, unknown option, missing argument: the usage after the other switches */
                usage_error = 1;
                break;
            }
            continue;
        }
        switch (c) {
        case 'h': help = 1; break;
        case 'V':
            printf("Version info....\nRevision: %s \nBuild: libdealer (DealerV2 4.3.3 dialect) \n", dealer_version());
            dealer_free_session(session);
            return 0;
        case 'm': set(session, "progress", "true"); break;
        case 'q': quiet = !quiet; break;
        case 'v': statistics = !statistics; break;
        case 'g': generate = peer_number(optarg); break;
        case 'p': produce = peer_number(optarg); break;
        case 's': set_seed(session, optarg, dialect); break;
        case 'x':
            if (strcmp(optarg, "2") == 0 || strcmp(optarg, "3") == 0) set(session, "swap", optarg);
            break;
        case 'C':
            v2_check_option_file(session, "-C", strncmp(optarg, "w:", 2) == 0 ? optarg + 2 : optarg,
                                 strncmp(optarg, "w:", 2) == 0 ? "w" : "a");
            set(session, "csv_file", optarg);
            break;
        case 'X':
            v2_check_option_file(session, "-X", optarg, "w");
            set(session, "export_file", optarg);
            break;
        case 'T': set(session, "title", optarg); break;
        case 'N': set(session, "predeal_north", optarg); break;
        case 'E': set(session, "predeal_east", optarg); break;
        case 'S': set(session, "predeal_south", optarg); break;
        case 'W': set(session, "predeal_west", optarg); break;
        case 'O': { /* DealerV2 reads the first character: N, E or S (any case), else West */
            char opener[2] = {(char)toupper((unsigned char)optarg[0]), 0};
            if (!strchr("NES", opener[0]) || !opener[0]) opener[0] = 'W';
            set(session, "opener", opener);
            break;
        }
        case 'P':
            if (strlen(optarg) == 1 && optarg[0] >= '0' && optarg[0] <= '3') {
                set(session, "par_vulnerability", optarg);
            } else {
                fprintf(stderr, "Invalid Vulnerability -- Setting to Nobody Vul\n");
                set(session, "par_vulnerability", "0");
            }
            break;
        case 'M': /* DealerV2 ignores other values */
            if (strcmp(optarg, "1") == 0 || strcmp(optarg, "2") == 0) set(session, "dds_mode", optarg);
            break;
        case 'R': /* 0 (one per core) to the library's most, 64; its message states the range */
            set(session, "threads", optarg);
            break;
        case 'D': { /* n[.m] read with atol, as DealerV2 does: the library takes digits only */
            const char *sep = strpbrk(optarg, ".:");
            long n = peer_number(optarg), m = sep ? peer_number(sep + 1) : 0;
            char text[32];
            snprintf(text, sizeof text, "%ld.%ld", n < 0 ? 0 : n > 99 ? 99 : n, m < 0 ? 0 : m > 9999 ? 9999 : m);
            set(session, "debug", text);
            break;
        }
        case 'U':
            v2_check_option_file(session, "-U", optarg, "stat");
            set(session, "server", optarg);
            break;
        case 'L': /* "=" names DealerV2's big library */
            set(session, "library_file", strcmp(optarg, "=") == 0 ? "/usr/local/games/DealerV2_4/dat/rpLib.zrd" : optarg);
            break;
        case 'Z': set(session, "zrd_file", optarg); break;
        case 'l': set(session, "dl52_file", optarg); break;
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9': {
            char key[5] = {'v', 'a', 'r', (char)c, 0};
            set(session, key, optarg);
            break;
        }
        default:
            v2_usage(argv[0]);
            fprintf(stderr, "Valid Options == [%s]\n\t\t\t[%c] is an invalid option\n", V2_OPTIONS, optopt ? optopt : '?');
            dealer_free_session(session);
            return 0;
        }
    }
    /* The peers deal nothing for a negative -g or -p; the library takes no negative limit. */
    if (generate < 0 || produce < 0) {
        set(session, "generate", "nothing");
    } else {
        set_number(session, "generate", generate);
        set_number(session, "produce", produce);
    }
    if (usage_error) {
        classic_usage(argv[0]);
        dealer_free_session(session);
        return 255;
    }
    if (help) {
        v2_usage(argv[0]);
        dealer_free_session(session);
        return 0;
    }
    int positional = argc - optind;
    if (positional > 2) {
        if (dialect == DIALECT_CLASSIC) classic_usage(argv[0]);
        else v2_usage(argv[0]);
        dealer_free_session(session);
        return 255;
    }
    if (not_available) {
        fprintf(stderr, "%s is not available yet in this version of libdealer\n", not_available);
        dealer_free_session(session);
        return 3;
    }
    set(session, "statistics", statistics ? "true" : "false");
    set(session, "quiet", quiet ? "true" : "false");

    const char *path = positional > 0 ? argv[optind] : NULL;
    if (cli.write_leveled && !path) {
        fprintf(stderr, "Error: --write-leveled needs the scenario as a file argument, since it writes a copy of it.\n");
        dealer_free_session(session);
        return 1;
    }
    int status = DEALER_OK;
    if (cli.merge_count > 0) {
        /* --merge: the part files hold the job (its script and options) */
        if (path) {
            fprintf(stderr, "%s: --merge takes the part files, which hold the script; give no script (%s)\n", argv[0], path);
            dealer_free_session(session);
            return 2;
        }
        for (int k = 0; k < cli.merge_count; k++) {
            if (dealer_merge_add(session, cli.merge[k]) != DEALER_OK) {
                int code = fail(session);
                dealer_free_session(session);
                return code;
            }
        }
    } else if (cli.mix_count > 0) {
        /* --mix: the scenarios make the board set (README "Mixing scenarios") */
        if (path) {
            fprintf(stderr, "%s: --mix takes the scenarios; give no other script (%s)\n", argv[0], path);
            dealer_free_session(session);
            return 2;
        }
        int code = add_mix_scenarios(session);
        if (code != 0) {
            dealer_free_session(session);
            return code;
        }
    } else {
        FILE *input = stdin;
        if (!path && cli.input && strcmp(cli.input, "-") == 0) {
            fprintf(stderr, "%s: --input=- reads the records from standard input: give the script as a file\n", argv[0]);
            dealer_free_session(session);
            return 2;
        }
        if (path) {
            input = fopen(path, "rb");
            if (!input) {
                perror(path);
                dealer_free_session(session);
                return 255;
            }
            set(session, "input_name", path);
        }
        size_t len = 0;
        char *text = read_all(input, &len);
        if (path) fclose(input);
        if (!text) {
            fprintf(stderr, "input in flex scanner failed\n");
            dealer_free_session(session);
            return 2;
        }
        if (script_too_long(path, len)) {
            free(text);
            dealer_free_session(session);
            return 255;
        }
        if (cli.check) {
            /* --check=bbo: the diagnostics on standard output, exit 1 when BBO rejects the script
             * (README "BBO check"); `statistics` is 0 after -v. */
            long lines = 0;
            int errors = strcmp(cli.check, "bbo") == 0
                             ? dealer_check_script(session, (const uint8_t *)text, len, DEALER_CHECK_BBO, write_check_line, &lines)
                             : -1;
            /* A clean script: one line, so that the user knows the check ran (stdout with -v). */
            if (errors == 0 && lines == 0) fprintf(statistics ? stderr : stdout, "no problems for BBO's dealer\n");
            free(text);
            if (errors < 0) {
                if (strcmp(cli.check, "bbo") != 0) fprintf(stderr, "unknown check '%s' (bbo)\n", cli.check);
                else fprintf(stderr, "%s\n", dealer_last_error(session));
                dealer_free_session(session);
                return 2;
            }
            dealer_free_session(session);
            return errors > 0 ? 1 : 0;
        }
        status = dealer_load_script(session, (const uint8_t *)text, len);
        free(text);
        if (status != DEALER_OK) {
            int code = fail(session);
            dealer_free_session(session);
            return code;
        }
    }
    fflush(stdout);
    if (dealer_create_interrupter(session, &interrupter) == DEALER_OK) {
#ifdef _WIN32
        /* The C runtime resets a handler to SIG_DFL before calling it, as SA_RESETHAND does
         * (Ctrl-C and Ctrl-Break arrive as SIGINT, on a thread of their own). */
        signal(SIGINT, on_interrupt);
        signal(SIGTERM, on_interrupt);
#else
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_interrupt;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, NULL);
        sigaction(SIGTERM, &action, NULL);
#endif
    }
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    status = dealer_run(session, &report);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    dealer_free_interrupter(interrupter);
    interrupter = NULL;
    if (status == DEALER_TIMED_OUT) {
        /* classic dealer: the -t alarm fired before any deal was produced */
        dealer_free_session(session);
        return 1;
    }
    if (status == DEALER_CEILING_REACHED) {
        /* The output written is whole; say why it stops there (exit 1, as classic -t). */
        const char *which = report.ceiling == DEALER_CEILING_TIME       ? "time ceiling (max_seconds)"
                            : report.ceiling == DEALER_CEILING_GENERATE ? "generate ceiling (max_generate)"
                                                                        : "output ceiling (max_output_bytes)";
        fprintf(stderr, "the run stopped early at the %s\n", which);
        dealer_free_session(session);
        return 1;
    }
    if (status != DEALER_OK) {
        int code = fail(session);
        dealer_free_session(session);
        return code;
    }
    dealer_free_session(session);
    return 0;
}

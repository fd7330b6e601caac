/*
 * dealer: the libdealer command-line program.
 *
 * Accepts the switches of DealerV2 4.3.3 and, in the classic dialect, those of classic dealer
 * (Debian package `dealer`), plus --rng=chacha|drand48|glibc to choose the random generator and
 * --dialect=classic|v2 to choose the language and output formats (default: classic with glibc,
 * DealerV2 otherwise), and --untrusted for scripts typed by users. Uses only the public header
 * include/dealer.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dealer.h"

enum dialect { DIALECT_CLASSIC, DIALECT_V2 };

static const char *V2_OPTIONS = "hmqvVg:p:s:x:C:D:L:M:O:P:R:T:N:E:S:W:X:U:Z:0:1:2:3:4:5:6:7:8:9:l:";
static const char *CLASSIC_OPTIONS = "023ehuvmqp:g:s:t:l:V";

/* The run's interrupter, for the signal handler. */
static dealer_interrupter *interrupter = NULL;

/* SIGINT/SIGTERM: asks the run to stop after the deal in progress, so that every line written
 * is complete (the run then fails with "interrupted", exit status 130). The handler is reset on
 * its first call: a second signal ends the program at once. */
static void on_interrupt(int signal_number) {
    (void)signal_number;
    dealer_interrupt(interrupter);
}

/* Prints the session's last error and returns the exit status the peers use for it. */
static int fail(dealer_session *session) {
    fprintf(stderr, "%s\n", dealer_last_error_summary(session));
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
           "  -R n          threads for dealing and double dummy (0 = one per core)\n"
           "  -D n[.m]      debug verbosity\n"
           "  -U path       DealerServer path\n"
           "  -L file|=     library mode: deals and double-dummy results from a ZRD file\n"
           "  -Z [w][N]:file  append (w: write) each produced deal to a ZRD file (N: no tricks)\n"
           "  -l [w]:file   append (w: write) each produced deal as 52 bytes\n"
           "  -0 .. -9 text script variables $0 .. $9\n"
           "  --rng=chacha|drand48|glibc   random generator (default chacha)\n"
           "  --dialect=classic|v2         language and output dialect\n"
           "  --external-timeout=SECONDS   longest wait for a DealerServer answer or an opc run (30)\n"
           "  --opc-program=PATH           the DOP program opc() runs (DealerV2's default path)\n"
           "  --untrusted                  a user's script: no opc/usereval programs; 10 s, 10^7 deals, 1 MiB\n");
    printf("--- HELP %s DONE --- \n", dealer_version());
}

static void classic_usage(const char *argv0) {
    fprintf(stderr, "Usage: %s [-023ehuvmqV] [-p n] [-g n] [-s seed] [-l n] [inputfile]\n", argv0);
}

/* Reads a whole stream into memory. Returns NULL on a read error. */
static char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) { free(buf); return NULL; }
            buf = bigger;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) { free(buf); return NULL; }
    *len = n;
    return buf;
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

/* Checks a -s value as the peers do: a value at or beyond the limits of a long is refused. */
static void check_seed(const char *text, enum dialect dialect) {
    errno = 0;
    long v = strtol(text, NULL, 10);
    if (v == LONG_MAX || v == LONG_MIN) {
        if (dialect == DIALECT_V2)
            fprintf(stderr, "Seed overflow: seed must be greater than -9223372036854775808 and less than 9223372036854775807\n");
        else
            fprintf(stderr, "Seed overflow: seed must be between -9223372036854775808 and 9223372036854775807\n");
        exit(255);
    }
}

int main(int argc, char **argv) {
    const char *rng = "chacha";
    const char *dialect_name = NULL;
    const char *external_timeout = NULL, *opc_program = NULL;
    int untrusted = 0;

    /* Long options are taken out before getopt sees the peers' short switches. */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--rng=", 6) == 0) rng = argv[i] + 6;
        else if (strncmp(argv[i], "--dialect=", 10) == 0) dialect_name = argv[i] + 10;
        else if (strncmp(argv[i], "--external-timeout=", 19) == 0) external_timeout = argv[i] + 19;
        else if (strncmp(argv[i], "--opc-program=", 14) == 0) opc_program = argv[i] + 14;
        else if (strcmp(argv[i], "--untrusted") == 0) untrusted = 1;
        else argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = NULL;

    enum dialect dialect = strcmp(rng, "glibc") == 0 ? DIALECT_CLASSIC : DIALECT_V2;
    if (dialect_name) {
        if (strcmp(dialect_name, "classic") == 0) dialect = DIALECT_CLASSIC;
        else if (strcmp(dialect_name, "v2") == 0) dialect = DIALECT_V2;
        else { fprintf(stderr, "unknown dialect '%s' (classic or v2)\n", dialect_name); return 2; }
    }

    dealer_session *session = NULL;
    if (dealer_create_session(&session) != DEALER_OK) {
        fprintf(stderr, "cannot create a libdealer session\n");
        return 2;
    }
    set(session, "rng", rng);
    if (external_timeout) set(session, "external_timeout", external_timeout);
    if (opc_program) set(session, "opc_program", opc_program);
    /* --untrusted: the script may start no program, and the run ceilings apply (README "Limits
     * and errors"). */
    if (untrusted) set(session, "untrusted", "true");
    set(session, "dialect", dialect == DIALECT_CLASSIC ? "classic" : "v2");

    int statistics = 1, quiet = 0, help = 0;
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
            case 'p': set(session, "produce", optarg); break;
            case 'g': set(session, "generate", optarg); break;
            case 's': check_seed(optarg, dialect); set(session, "seed", optarg); break;
            case 't': set(session, "time_limit", optarg); break;
            case 'l': not_available = "-l (library mode)"; break;
            case 'V':
                printf("Version info....\n$Revision: libdealer %s $\n$Dialect: classic dealer $\n$Author: libdealer $\n",
                       dealer_version());
                dealer_free_session(session);
                return 1;
            default: /* -h, unknown option, missing argument */
                classic_usage(argv[0]);
                dealer_free_session(session);
                return 255;
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
        case 'g': set(session, "generate", optarg); break;
        case 'p': set(session, "produce", optarg); break;
        case 's': check_seed(optarg, dialect); set(session, "seed", optarg); break;
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
        case 'O': set(session, "opener", optarg); break;
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
        case 'R': {
            long threads = strtol(optarg, NULL, 10);
            if (threads > 10) {
                fprintf(stderr, "Invalid value[%ld] for R opt(0..12) setting to 9.\n", threads);
                threads = 8; /* what DealerV2 then really sets */
            }
            char text[8];
            snprintf(text, sizeof text, "%ld", threads < 0 ? 0 : threads);
            set(session, "threads", text);
            break;
        }
        case 'D': set(session, "debug", optarg); break;
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
    FILE *input = stdin;
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
    int status = dealer_load_script(session, (const uint8_t *)text, len);
    free(text);
    if (status != DEALER_OK) {
        int code = fail(session);
        dealer_free_session(session);
        return code;
    }
    fflush(stdout);
    if (dealer_create_interrupter(session, &interrupter) == DEALER_OK) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_interrupt;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, NULL);
        sigaction(SIGTERM, &action, NULL);
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

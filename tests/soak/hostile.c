/*
 * The bad and hostile inputs the soak test serves, taken from the hardening tests: the rows of
 * tests/limits.sh (nesting depth, memory bounds, programs refused under `untrusted`, each
 * ceiling), script errors, random bytes, and every input of tests/fuzz-regressions. Each entry
 * carries its documented status and a piece of its documented message where the library's
 * documentation fixes them; otherwise (EXPECT_ANY) only that the status is a documented one and
 * the same on every run.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

/* A growing text for the generated inputs. */
static char *repeat_into(const char *head, const char *unit, size_t times, const char *tail) {
    size_t len = strlen(head) + strlen(unit) * times + strlen(tail) + 1;
    char *text = malloc(len);
    if (!text) return NULL;
    char *p = text;
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < times; i++) p += sprintf(p, "%s", unit);
    sprintf(p, "%s", tail);
    return text;
}

static struct script_entry *add_text(struct corpus *corpus, const char *name, const char *text, int status,
                                     const char *message) {
    char full[96];
    snprintf(full, sizeof full, "hostile/%s", name);
    struct script_entry *entry = corpus_add(corpus, full, CLASS_HOSTILE, text, strlen(text));
    if (entry) {
        entry->expect_status = status;
        entry->expect_message = message;
    }
    return entry;
}

/* Adds a generated text (freed here). */
static struct script_entry *add_owned(struct corpus *corpus, const char *name, char *text, int status,
                                      const char *message) {
    if (!text) return NULL;
    struct script_entry *entry = add_text(corpus, name, text, status, message);
    free(text);
    return entry;
}

/* Every file of a fuzz-regressions folder, as script bytes. */
static int add_folder(struct corpus *corpus, const char *top, const char *folder) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz-regressions/%s", top, folder);
    DIR *dir = opendir(path);
    if (!dir) return -1;
    struct dirent *item;
    int added = 0;
    while ((item = readdir(dir)) != NULL) {
        if (item->d_name[0] == '.') continue;
        char file[4608], name[96];
        snprintf(file, sizeof file, "%s/%s", path, item->d_name);
        snprintf(name, sizeof name, "hostile/fuzz-%s-%.60s", folder, item->d_name);
        if (corpus_add_file(corpus, name, CLASS_HOSTILE, file) == 0) added++;
    }
    closedir(dir);
    return added;
}

int hostile_add_all(struct corpus *corpus, const char *top) {
    struct script_entry *e;
    /* Script errors: status and the message's words. */
    add_text(corpus, "syntax-error", "produce 2\ncondition hcp(north) &&& 3\n", DEALER_ERROR_SCRIPT, "syntax error");
    add_text(corpus, "unknown-function", "condition hcpp(north) > 10\naction printoneline\n", DEALER_ERROR_SCRIPT,
             "line 1");
    add_text(corpus, "predeal-twice", "predeal north SA\npredeal south SA\naction printoneline\n", EXPECT_ANY, NULL);
    add_text(corpus, "empty", "", EXPECT_ANY, NULL);
    add_text(corpus, "not-utf8", "condition hcp(north) > 10 \xff\xfe\naction printoneline\n", EXPECT_ANY, NULL);
    e = corpus_add(corpus, "hostile/nul-inside", CLASS_HOSTILE, "condition hcp(north)\0 > 10\n", 27);
    if (e) e->expect_status = EXPECT_ANY;
    add_text(corpus, "division-by-zero", "produce 3\ncondition hcp(north) / (hcp(south) - hcp(south)) > 1\naction printoneline\n",
             EXPECT_ANY, NULL);

    /* Nesting depth (tests/limits.sh): refused with a message, never a crash of the thread. */
    add_owned(corpus, "deep-sum-9000", repeat_into("produce 2\ncondition hcp(north)", "+hcp(south)", 9000, " > 10\n"),
              DEALER_ERROR_SCRIPT, "expression nested too deeply for this thread's stack");
    add_owned(corpus, "deep-not-9000", repeat_into("produce 2\ncondition ", "!", 9000, "(hcp(north) > 10)\n"),
              DEALER_ERROR_SCRIPT, "expression nested too deeply for this thread's stack");
    add_owned(corpus, "deep-sum-20000", repeat_into("produce 2\ncondition hcp(north)", "+hcp(south)", 20000, " > 10\n"),
              DEALER_ERROR_SCRIPT, "memory exhausted");

    /* Memory bounds. */
    add_text(corpus, "frequency-range", "generate 100\naction frequency (hcp(north), 0, 2000000000)\n", DEALER_ERROR_SCRIPT,
             "frequency range too large (at most 10000000 values)");
    add_text(corpus, "frequency-table", "generate 100\naction frequency (hcp(north), 0, 5000, hcp(south), 0, 5000)\n",
             DEALER_ERROR_SCRIPT, "frequency table too large (at most 10000000 cells)");
    e = add_text(corpus, "print-keeps-deals", "generate 5000000\nproduce 2000000\naction print(north, south)\n",
                 DEALER_ERROR_RUN, "print(...) keeps every produced deal until the run ends: at most 1000000 deals");
    if (e) { e->keep_produce = 1; e->max_generate = 10000000; e->script_format = 1; }
    e = add_text(corpus, "generate-beyond-64-bits", "generate 99999999999999999999\nproduce 2\naction printoneline\n",
                 DEALER_OK, NULL);
    if (e) e->keep_produce = 1;
    /* A script longer than the `max_script_bytes` the server sets (262144). */
    add_owned(corpus, "longer-than-max-script-bytes",
              repeat_into("", "# a comment line of forty characters...\n", 8000, "action printoneline\n"), EXPECT_ANY,
              NULL);

    /* Programs refused under untrusted. */
    e = add_text(corpus, "opc", "produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n", DEALER_ERROR_NOT_ALLOWED,
                 "opc() is not allowed in an untrusted script");
    if (e) e->v2_only = 1;
    e = add_text(corpus, "usereval", "produce 1\nx = usereval(1, NS, 2)\ncondition x > 0\n", DEALER_ERROR_NOT_ALLOWED,
                 "usereval() is not allowed in an untrusted script");
    if (e) e->v2_only = 1;

    /* Each ceiling stops the run with whole output. */
    e = add_text(corpus, "output-ceiling", "produce 100000\naction printoneline\n", DEALER_CEILING_REACHED, NULL);
    if (e) { e->expect_ceiling = DEALER_CEILING_OUTPUT; e->keep_produce = 1; }
    e = add_text(corpus, "generate-ceiling", "generate 100000000\ncondition hcp(north) > 37\n", DEALER_CEILING_REACHED, NULL);
    if (e) { e->expect_ceiling = DEALER_CEILING_GENERATE; e->keep_produce = 1; }
    e = add_text(corpus, "time-ceiling", "generate 100000000\ncondition dds(north, notrump) + 0 > 13\n", DEALER_CEILING_REACHED,
                 NULL);
    if (e) { e->expect_ceiling = DEALER_CEILING_TIME; e->keep_produce = 1; e->max_seconds = 0.5; e->time_bound = 1; e->v2_only = 1; }

    /* Random bytes. */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        uint64_t rng = seed * 7777;
        unsigned char bytes[300];
        for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (unsigned char)rng_next(&rng);
        char name[96];
        snprintf(name, sizeof name, "hostile/random-bytes-%llu", (unsigned long long)seed);
        e = corpus_add(corpus, name, CLASS_HOSTILE, bytes, sizeof bytes);
        if (e) e->expect_status = EXPECT_ANY;
    }

    /* Every input the fuzzers found. */
    if (add_folder(corpus, top, "script") <= 0 || add_folder(corpus, top, "capi") <= 0) return -1;
    for (size_t i = 0; i < corpus->count; i++)
        if (strncmp(corpus->entries[i].name, "hostile/fuzz-", 13) == 0) corpus->entries[i].expect_status = EXPECT_ANY;
    return 0;
}

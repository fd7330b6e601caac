/*
 * A request drawn at random, as a server's clients would send them: a script of the corpus (by
 * class: practice 30 %, example 15 %, random 30 %, hostile 15 %, and 10 % of requests asking
 * for double-dummy results on a few boards), a variant (seed, produce and output ceiling), a
 * generator, an output format, 1 or 2 threads, and what happens to the run (plain, interrupted
 * from another thread, dropped by its client, or dealt deal by deal with expressions evaluated).
 */
#include <stdio.h>

#include "soak.h"

/* Per variant: the produce limit and whether the output ceiling is small. */
static const int64_t variant_produce[VARIANTS] = {1, 2, 3, 5, 8, 13, 40, 200};

static size_t pick_of_class(const struct corpus *corpus, enum script_class cls, uint64_t *rng) {
    size_t n = corpus->by_class[cls];
    size_t wanted = rng_below(rng, (uint32_t)n);
    for (size_t i = 0; i < corpus->count; i++)
        if (corpus->entries[i].cls == cls && wanted-- == 0) return i;
    return 0;
}

void request_draw(struct request *r, const struct corpus *corpus, uint64_t *rng, int allow_dd) {
    uint32_t roll = rng_below(rng, 100);
    enum script_class cls = roll < 30 ? CLASS_PRACTICE : roll < 45 ? CLASS_EXAMPLE : roll < 75 ? CLASS_RANDOM
                          : roll < 90 ? CLASS_HOSTILE : CLASS_DD;
    if (cls == CLASS_DD && !allow_dd) cls = CLASS_RANDOM;
    r->dd = cls == CLASS_DD;
    enum script_class source = r->dd ? (rng_below(rng, 2) ? CLASS_PRACTICE : CLASS_RANDOM) : cls;
    r->script_index = pick_of_class(corpus, source, rng);
    r->script = &corpus->entries[r->script_index];
    r->cls = cls;
    r->variant = (int)rng_below(rng, VARIANTS);
    r->seed = 1 + (int64_t)r->variant * 1000003;
    r->generator = (int)rng_below(rng, r->script->v2_only ? 2 : 3);
    r->threads = 1 + rng_below(rng, 2);
    roll = rng_below(rng, 100);
    r->format = roll < 40 ? FORMAT_SCRIPT : roll < 60 ? FORMAT_LIN : roll < 80 ? FORMAT_JSONL : FORMAT_PBN;
    if (r->script->script_format) r->format = FORMAT_SCRIPT;
    r->produce = r->script->keep_produce ? 0 : variant_produce[r->variant];
    r->max_output = r->variant % 4 == 3 ? 4096 : 1048576;
    if (r->dd) {
        /* Double dummy on a few boards: PBN with its tables or JSON Lines with "dd". */
        r->format = rng_below(rng, 2) ? FORMAT_PBN : FORMAT_JSONL;
        r->produce = 1 + r->variant % 2;
        r->max_output = 1048576;
    }
    roll = rng_below(rng, 100);
    r->mode = roll < 55 ? MODE_RUN : roll < 75 ? MODE_INTERRUPT : roll < 85 ? MODE_DROP : MODE_EVAL;
    if (r->dd && r->mode == MODE_EVAL) r->mode = MODE_RUN;
    r->reuse = rng_below(rng, 2);
    r->free_after = r->mode == MODE_DROP || rng_below(rng, 5) == 0;
    /* Delays from 1 µs to about 16 ms, each power of two as likely. */
    r->interrupt_after_us = 1 + rng_below(rng, 1u << rng_below(rng, 15));
    r->drop_after_bytes = 1 + rng_below(rng, 1u << rng_below(rng, 17));
}

uint64_t request_key(const struct request *r) {
    return ((uint64_t)r->script_index << 12) | ((uint64_t)r->variant << 5) | ((uint64_t)r->generator << 3) |
           ((uint64_t)r->format << 1) | (uint64_t)(r->dd ? 1 : 0) | ((uint64_t)(r->mode == MODE_EVAL) << 11);
}

void request_describe(const struct request *r, char *buffer, size_t size) {
    static const char *const generators[] = {"chacha", "drand48", "glibc"};
    static const char *const formats[] = {"script", "lin", "jsonl", "pbn"};
    static const char *const modes[] = {"run", "interrupt", "drop", "eval"};
    snprintf(buffer, size, "%s seed %lld rng %s format %s%s threads %u produce %lld max_output_bytes %lld mode %s",
             r->script->name, (long long)r->seed, generators[r->generator], formats[r->format], r->dd ? "+dd" : "",
             r->threads, (long long)r->produce, (long long)r->max_output, modes[r->mode]);
}

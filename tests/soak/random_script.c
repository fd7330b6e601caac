/*
 * Random valid scripts for the soak test: a condition of one to three terms over hcp, suit
 * lengths, shapes, losers and controls, sometimes through a variable, a dealer or a predeal,
 * and one or two actions. Only constructs both dialects read (classic dealer and DealerV2), so
 * that every generator can run them. Script `number` is the same text on every call.
 */
#include <stdio.h>
#include <string.h>

#include "soak.h"

static const char *const seats[] = {"north", "east", "south", "west"};
static const char *const suits[] = {"clubs", "diamonds", "hearts", "spades"};

/* Appends formatted text, never past the buffer. */
#define ADD(...)                                                                  \
    do {                                                                          \
        if (used < size) {                                                        \
            int n_ = snprintf(buffer + used, size - used, __VA_ARGS__);           \
            used += n_ > 0 ? (size_t)n_ : 0;                                      \
        }                                                                         \
    } while (0)

/* Writes one term of a condition. */
static size_t add_term(uint64_t *rng, char *buffer, size_t size, size_t used, int has_variable) {
    const char *seat = seats[rng_below(rng, 4)];
    switch (rng_below(rng, has_variable ? 7 : 6)) {
    case 0: ADD("hcp(%s) >= %u", seat, 5 + rng_below(rng, 12)); break;
    case 1: ADD("hcp(%s) <= %u", seat, 8 + rng_below(rng, 14)); break;
    case 2: ADD("%s(%s) >= %u", suits[rng_below(rng, 4)], seat, 3 + rng_below(rng, 3)); break;
    case 3: ADD("shape(%s, any 4333 + any 4432 + any 5332)", seat); break;
    case 4: ADD("losers(%s) <= %u", seat, 6 + rng_below(rng, 4)); break;
    case 5: ADD("controls(%s) >= %u", seat, 1 + rng_below(rng, 4)); break;
    default: ADD("pair > %u", 15 + rng_below(rng, 12)); break;
    }
    return used;
}

size_t random_script(uint64_t number, char *buffer, size_t size) {
    uint64_t rng = 0x5EED5C41A7ull ^ (number * 0x9E3779B97F4A7C15ull);
    size_t used = 0;
    ADD("# random script %llu\n", (unsigned long long)number);
    if (rng_below(&rng, 4) == 0) ADD("dealer %s\n", seats[rng_below(&rng, 4)]);
    if (rng_below(&rng, 6) == 0) ADD("predeal north SA%s\n", rng_below(&rng, 2) ? "K" : "");
    int has_variable = rng_below(&rng, 3) == 0;
    if (has_variable) ADD("pair = hcp(north) + hcp(south)\n");
    ADD("condition ");
    unsigned terms = 1 + rng_below(&rng, 3);
    for (unsigned t = 0; t < terms; t++) {
        if (t) ADD(rng_below(&rng, 4) ? " && " : " || ");
        used = add_term(&rng, buffer, size, used, has_variable);
    }
    ADD("\naction ");
    switch (rng_below(&rng, 5)) {
    case 0: ADD("printoneline"); break;
    case 1: ADD("printall"); break;
    case 2: ADD("printoneline, average \"hcp\" hcp(north)"); break;
    case 3: ADD("frequency \"south\" (hcp(south), 0, 37)"); break;
    default: ADD("printew, average \"spades\" spades(west)"); break;
    }
    ADD("\n");
    return used < size ? used : size;
}

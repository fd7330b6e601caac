/*
 * deal_input.h -- shared input parser for dd_reference.c and dd_bench29.c.
 *
 * Parses one line in the format printed by libdealer's printrpt(deal):
 *
 *     [spaces] n <hand> e <hand> s <hand> w <hand>[<anything>]
 *
 * where <hand> is PBN dot format "spades.hearts.diamonds.clubs" using the
 * rank letters AKQJT98765432 (a void is an empty group).  Seat letters and
 * the separating single spaces are mandatory; whatever follows the west
 * hand (it must be separated by whitespace or a comma, e.g. ",13,9,...")
 * is ignored.  Every hand must have exactly 13 cards and the four hands
 * must be disjoint (52 distinct cards).
 *
 * The parsed deal is stored directly in DDS 2.9 binary layout:
 * cards[hand][suit], hand 0=N 1=E 2=S 3=W, suit 0=S 1=H 2=D 3=C (the PBN
 * group order), rank r (2..14) as bit (1 << r).
 *
 * Header-only (static functions); written for this scratch tool, no code
 * taken from DDS or any other project.
 */
#ifndef DEAL_INPUT_H
#define DEAL_INPUT_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <dds/dll.h>

struct parsed_deal {
    struct ddTableDeal dd;      /* DDS binary deal */
    char hand_text[4][24];      /* hand texts exactly as read (max 16 chars) */
};

/* Rank letter -> rank 2..14, or 0 if not a rank letter. */
static int rank_of_char(char c)
{
    static const char letters[] = "23456789TJQKA";
    const char *p;
    if (c == '\0')
        return 0;
    p = strchr(letters, c);
    return p ? (int)(p - letters) + 2 : 0;
}

/*
 * Parse one hand starting at *pp; advance *pp past it.  Fills cards[4]
 * (DDS suit order) and the verbatim text.  Returns NULL on success or a
 * static error description.
 */
static const char *parse_hand(const char **pp, unsigned int cards[4],
                              char *text, size_t textsz)
{
    const char *p = *pp;
    const char *start = p;
    int suit = 0, count = 0;
    size_t len;

    cards[0] = cards[1] = cards[2] = cards[3] = 0;
    for (;;) {
        char c = *p;
        int r = rank_of_char(c);
        if (r) {
            unsigned int bit = 1u << r;
            if (cards[suit] & bit)
                return "card repeated within a hand";
            cards[suit] |= bit;
            count++;
            p++;
        } else if (c == '.') {
            if (++suit > 3)
                return "too many suits in a hand (more than 3 dots)";
            p++;
        } else {
            break;
        }
    }
    if (suit != 3)
        return "hand does not have 4 suits (3 dots)";
    if (count != 13)
        return "hand does not have 13 cards";
    len = (size_t)(p - start);
    if (len + 1 > textsz)
        return "hand text too long";
    memcpy(text, start, len);
    text[len] = '\0';
    *pp = p;
    return NULL;
}

/*
 * Parse a whole input line (trailing newline allowed).  Returns NULL on
 * success, otherwise a static error description.
 */
static const char *parse_deal_line(const char *line, struct parsed_deal *out)
{
    static const char seat_letters[4] = { 'n', 'e', 's', 'w' };
    const char *p = line;
    unsigned int seen[4] = { 0, 0, 0, 0 };
    int h, s;

    while (*p == ' ' || *p == '\t')
        p++;
    for (h = 0; h < 4; h++) {
        const char *err;
        if (h > 0) {
            if (*p != ' ')
                return "expected a single space after a hand";
            p++;
        }
        if (*p != seat_letters[h])
            return h == 0 ? "expected 'n' at start of line"
                 : h == 1 ? "expected 'e' after north hand"
                 : h == 2 ? "expected 's' after east hand"
                 :          "expected 'w' after south hand";
        p++;
        if (*p != ' ')
            return "expected a space after the seat letter";
        p++;
        err = parse_hand(&p, out->dd.cards[h], out->hand_text[h],
                         sizeof out->hand_text[h]);
        if (err)
            return err;
        for (s = 0; s < 4; s++) {
            if (seen[s] & out->dd.cards[h][s])
                return "card appears in more than one hand";
            seen[s] |= out->dd.cards[h][s];
        }
    }
    /* Anything after the west hand is ignored, but it must be separated. */
    if (!(*p == '\0' || *p == ',' || isspace((unsigned char)*p)))
        return "unexpected character right after the west hand";
    return NULL;
}

#endif /* DEAL_INPUT_H */

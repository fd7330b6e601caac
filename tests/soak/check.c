/*
 * The soak test's verdict on one answer. Every answer: a documented status (never
 * DEALER_ERROR_INTERNAL), output within `max_output_bytes` and ending at a line end (except a
 * dropped client's, whose last write failed). A hostile script: its documented status, ceiling
 * and message. A valid script: it loads and runs to DEALER_OK or a ceiling. Then against the
 * reference run of the same request done alone: byte-identical (output, status, ceiling,
 * message); a run interrupted or dropped, a prefix of it; a run stopped by the time ceiling
 * (whose report counts the deals of the time it had), whole lines only.
 */
#include <stdio.h>
#include <string.h>

#include "soak.h"

int status_is_documented(int32_t status) {
    switch (status) {
    case DEALER_OK: case DEALER_DONE: case DEALER_TIMED_OUT: case DEALER_CEILING_REACHED:
    case DEALER_ERROR_SCRIPT: case DEALER_ERROR_OPTION: case DEALER_ERROR_IO: case DEALER_ERROR_NOT_AVAILABLE:
    case DEALER_ERROR_RUN: case DEALER_ERROR_USAGE: case DEALER_ERROR_NULL: case DEALER_ERROR_UTF8:
    case DEALER_INTERRUPTED: case DEALER_ERROR_NOT_ALLOWED:
        return 1;
    default:
        return 0;
    }
}

const char *outcome_name(const struct answer *answer) {
    switch (answer->status) {
    case DEALER_OK: return "ok";
    case DEALER_CEILING_REACHED:
        return answer->ceiling == DEALER_CEILING_OUTPUT ? "ceiling-output"
             : answer->ceiling == DEALER_CEILING_GENERATE ? "ceiling-generate"
             : answer->ceiling == DEALER_CEILING_TIME ? "ceiling-time" : "ceiling-?";
    case DEALER_INTERRUPTED: return "interrupted";
    case DEALER_ERROR_IO: return "client-gone (io)";
    case DEALER_ERROR_SCRIPT: return "script-error";
    case DEALER_ERROR_RUN: return "run-error";
    case DEALER_ERROR_NOT_ALLOWED: return "not-allowed";
    case DEALER_ERROR_UTF8: return "utf8-error";
    case DEALER_ERROR_OPTION: return "option-error";
    case DEALER_ERROR_USAGE: return "usage-error";
    case DEALER_ERROR_INTERNAL: return "INTERNAL";
    default: return "other";
    }
}

/* Whether the answer was cut short in a way that makes it only a prefix of the whole. */
static int cut_short(const struct request *r, const struct answer *a) {
    return (a->interrupted && a->status == DEALER_INTERRUPTED) || (r->mode == MODE_DROP && a->status == DEALER_ERROR_IO) ||
           (a->status == DEALER_CEILING_REACHED && a->ceiling == DEALER_CEILING_TIME);
}

/* DealerV2 echoes the characters < > E O F of a script's block comments when it reads the
 * script, with no line end: an output of only those is the script's own text, not half a line. */
static int only_comment_echo(const struct answer *a) {
    for (size_t i = 0; i < a->output.len; i++)
        if (!strchr("<>EOF", a->output.data[i]) || a->output.data[i] == 0) return 0;
    return 1;
}

int answer_needs_fresh_reference(const struct request *r, const struct answer *a) {
    return cut_short(r, a) || r->script->time_bound;
}

#define WHY(...) do { snprintf(why, size, __VA_ARGS__); return 1; } while (0)

int check_answer(const struct request *r, const struct answer *a, const struct reference *cached,
                 const struct answer *fresh, char *why, size_t size) {
    const struct script_entry *script = r->script;
    if (!status_is_documented(a->status)) WHY("status %d is not a documented one: %s", (int)a->status, a->message);
    if ((int64_t)a->raw_length > r->max_output && r->mode != MODE_EVAL)
        WHY("%zu bytes of output, above max_output_bytes %lld", a->raw_length, (long long)r->max_output);
    if (r->mode != MODE_DROP && !answer_ends_at_line_end(a) && !only_comment_echo(a)) {
        size_t from = a->output.len > 120 ? a->output.len - 120 : 0;
        char tail[512];
        size_t t = 0;
        for (size_t i = from; i < a->output.len && t + 5 < sizeof tail; i++) {
            unsigned char c = a->output.data[i];
            if (c == '\n') { tail[t++] = '\\'; tail[t++] = 'n'; }
            else tail[t++] = (char)c;
        }
        tail[t] = 0;
        WHY("the output (%zu bytes, %s) does not end at a line end: ...%s", a->raw_length, outcome_name(a), tail);
    }
    if (a->status == DEALER_INTERRUPTED && !a->interrupted) WHY("interrupted, but no interrupt was sent");
    if (r->mode == MODE_EVAL && a->load_status == DEALER_OK) {
        const unsigned char *p = a->output.data;
        for (size_t i = 0; p && i + 4 <= a->output.len; i++)
            if (memcmp(p + i, "bad:", 4) == 0 && memcmp(p + i + 4, "-1\n", 3) != 0)
                WHY("dealer_eval of an expression with an error did not give DEALER_ERROR_SCRIPT");
    }
    int cut = cut_short(r, a);
    int ran = r->mode != MODE_EVAL || a->load_status != DEALER_OK;
    if (script->cls == CLASS_HOSTILE && !cut && ran) {
        if (script->expect_status != EXPECT_ANY && a->status != script->expect_status)
            WHY("status %d (%s), expected %d", (int)a->status, a->message, script->expect_status);
        if (script->expect_ceiling >= 0 && a->ceiling != script->expect_ceiling)
            WHY("ceiling %d, expected %d", (int)a->ceiling, script->expect_ceiling);
        if (script->expect_message && !strstr(a->message, script->expect_message))
            WHY("message '%.200s', expected '%s'", a->message, script->expect_message);
    } else if (script->cls != CLASS_HOSTILE) {
        if (a->load_status != DEALER_OK) WHY("a valid script does not load: %d %.300s", (int)a->load_status, a->message);
        if (!cut && a->status != DEALER_OK && a->status != DEALER_CEILING_REACHED)
            WHY("a valid script's run gave %d: %.300s", (int)a->status, a->message);
    }
    if (fresh) {
        int fresh_cut = fresh->status == DEALER_CEILING_REACHED && fresh->ceiling == DEALER_CEILING_TIME;
        int time_cut = (a->status == DEALER_CEILING_REACHED && a->ceiling == DEALER_CEILING_TIME) || fresh_cut;
        if (time_cut) {
            /* Stopped by the wall clock: its end-of-run report counts the deals generated in
             * the time it had, so only whole lines and the ceiling itself are asserted. */
        } else if (cut) {
            if (!answer_is_prefix_of(a, fresh))
                WHY("the output (%zu bytes, %s) is not a prefix of the reference's (%zu bytes, %s)", a->output.len,
                    outcome_name(a), fresh->output.len, outcome_name(fresh));
        } else if (a->hash != fresh->hash || a->length != fresh->length) {
            WHY("differs from the reference run: %zu bytes status %d (%s) vs %zu bytes status %d (%s)", a->length,
                (int)a->status, outcome_name(a), fresh->length, (int)fresh->status, outcome_name(fresh));
        }
    } else if (cached) {
        if (a->hash != cached->hash || a->length != cached->length)
            WHY("differs from the reference run: %zu bytes status %d (%s) vs %zu bytes status %d", a->length,
                (int)a->status, outcome_name(a), cached->length, (int)cached->status);
    }
    return 0;
}

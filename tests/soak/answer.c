/*
 * Running one request in a session, as the server's worker does: the session set up as a
 * server sets it up for a stranger's script (`untrusted`, each ceiling, the request's seed,
 * generator, format and threads), the script loaded, then a run (interrupted from another
 * thread, or with a client that goes away after some bytes) or a loop of dealer_next_deal with
 * expressions evaluated on each deal. The answer keeps the output, the statuses and the message;
 * answer_digest reduces it to what two runs of the same request must share. Also the pool of
 * sessions the workers reuse.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

int buffer_append(struct buffer *b, const void *data, size_t len) {
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + len + 1 > cap) cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown) return 1;
        b->data = grown;
        b->cap = cap;
    }
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

/* ------------------------------------------------------------------------- session pool */

struct session_pool {
    pthread_mutex_t lock;
    dealer_session **sessions;
    int count, capacity;
};

struct session_pool *pool_create(int capacity) {
    struct session_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->sessions = calloc((size_t)capacity, sizeof *pool->sessions);
    pool->capacity = capacity;
    pthread_mutex_init(&pool->lock, NULL);
    return pool;
}

dealer_session *pool_take(struct session_pool *pool) {
    dealer_session *session = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->count > 0) session = pool->sessions[--pool->count];
    pthread_mutex_unlock(&pool->lock);
    return session;
}

void pool_give(struct session_pool *pool, dealer_session *session) {
    pthread_mutex_lock(&pool->lock);
    if (pool->count < pool->capacity) {
        pool->sessions[pool->count++] = session;
        session = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
    dealer_free_session(session);
}

void pool_free(struct session_pool *pool) {
    for (int i = 0; i < pool->count; i++) dealer_free_session(pool->sessions[i]);
    free(pool->sessions);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

/* ------------------------------------------------------------------------------ the run */

/* The output stream's receiver: the bytes kept; a dropping client fails the write that would
 * take it past its byte count (the server's socket has gone). */
struct receiver { struct buffer *output; size_t fail_after; };

static int32_t receive(const uint8_t *data, uintptr_t len, void *userdata) {
    struct receiver *receiver = userdata;
    if (receiver->fail_after && receiver->output->len + len > receiver->fail_after) return 1;
    return buffer_append(receiver->output, data, len) ? 1 : 0;
}

static int32_t discard(const uint8_t *data, uintptr_t len, void *userdata) {
    (void)data, (void)len, (void)userdata;
    return 0;
}

/* The expressions evaluated on each deal in MODE_EVAL: both dialects read them. */
static const char *const expressions[] = {"hcp(north)", "spades(south) + hearts(south)",
                                          "shape(west, any 4333 + any 4432)", "losers(east)"};

static void keep_message(const dealer_session *session, struct answer *answer) {
    snprintf(answer->message, sizeof answer->message, "%s", dealer_last_error(session));
}

/* The request's `max_seconds` ceiling. */
static double max_seconds_of(const struct request *r) {
    return r->script->max_seconds > 0 ? r->script->max_seconds : 10.0;
}

/* Sets every option a request touches, the same list on every request, so that a pooled
 * session carries nothing over. Returns the first failing status. */
static int32_t set_up(const struct request *r, dealer_session *s, struct receiver *receiver) {
    static const char *const formats[] = {"script", "lin", "jsonl", "pbn"};
    char number[64];
    int32_t rc = DEALER_OK;
#define SET(call) do { int32_t rc_ = (call); if (rc_ != DEALER_OK && rc == DEALER_OK) rc = rc_; } while (0)
    SET(dealer_set_untrusted(s, 1));
    snprintf(number, sizeof number, "%lld", (long long)(r->script->max_generate ? r->script->max_generate : 200000));
    SET(dealer_set_option(s, "max_generate", number));
    snprintf(number, sizeof number, "%lld", (long long)r->max_output);
    SET(dealer_set_option(s, "max_output_bytes", number));
    snprintf(number, sizeof number, "%g", max_seconds_of(r));
    SET(dealer_set_option(s, "max_seconds", number));
    SET(dealer_set_option(s, "max_script_bytes", "262144"));
    SET(dealer_set_generator(s, r->generator));
    SET(dealer_set_seed(s, r->seed));
    SET(dealer_set_generate(s, 0));
    SET(dealer_set_produce(s, r->produce));
    SET(dealer_set_threads(s, r->threads));
    SET(dealer_set_option(s, "format", formats[r->format]));
    SET(dealer_set_option(s, "pbn_dd", r->dd ? "true" : "false"));
    SET(dealer_set_option(s, "json_dd", r->dd ? "true" : "false"));
    SET(dealer_set_option(s, "pbn_date", "2026.01.01"));
    /* DDS's own default, as a server would keep it: a smaller table makes some deals' tables
     * many times slower (a practice deal: 27 s at 32 MB against 1.1 s at 160), and a solve in
     * progress finishes before an interrupt or the time ceiling can stop the run. */
    SET(dealer_set_option(s, "dds_table_mb", "160"));
    SET(dealer_set_output(s, DEALER_STREAM_OUTPUT, receive, receiver));
    SET(dealer_set_output(s, DEALER_STREAM_DIAGNOSTICS, discard, NULL));
#undef SET
    return rc;
}

/* Deals up to a few deals one by one and writes each with its expressions' values. */
static int32_t eval_loop(const struct request *r, dealer_session *s, struct answer *answer) {
    int32_t rc = DEALER_OK;
    for (int n = 0; n < 1 + r->variant; n++) {
        dealer_deal deal;
        rc = dealer_next_deal(s, &deal);
        if (rc != DEALER_OK) break;
        char line[256];
        dealer_deal_to_pbn(&deal, line, sizeof line);
        buffer_append(&answer->output, line, strlen(line));
        for (size_t e = 0; e < sizeof expressions / sizeof *expressions; e++) {
            int32_t value = 0;
            int32_t status = dealer_eval(s, expressions[e], &value);
            int len = snprintf(line, sizeof line, " %d:%d", (int)status, (int)value);
            buffer_append(&answer->output, line, (size_t)len);
        }
        /* An expression with an error: the documented status, every time. */
        int32_t value = 0;
        int len = snprintf(line, sizeof line, " bad:%d\n", (int)dealer_eval(s, "hcp(north) +", &value));
        buffer_append(&answer->output, line, (size_t)len);
    }
    return rc == DEALER_DONE ? DEALER_OK : rc;
}

int answer_request(const struct request *r, dealer_session *s, struct answer *answer,
                   struct interrupt_service *interrupts, int slot) {
    answer->output.len = 0;
    answer->status = answer->load_status = DEALER_OK;
    answer->ceiling = DEALER_CEILING_NONE;
    answer->message[0] = 0;
    answer->interrupted = 0;
    answer->overrun = -1;
    struct receiver receiver = {&answer->output, r->mode == MODE_DROP ? r->drop_after_bytes : 0};
    int32_t rc = set_up(r, s, &receiver);
    if (rc != DEALER_OK) {
        answer->status = rc;
        keep_message(s, answer);
        snprintf(answer->message + strlen(answer->message), sizeof answer->message - strlen(answer->message),
                 " (setting the options)");
        return -1;
    }
    answer->load_status = dealer_load_script(s, r->script->text, r->script->len);
    if (answer->load_status != DEALER_OK) {
        answer->status = answer->load_status;
        keep_message(s, answer);
        return 0;
    }
    if (r->mode == MODE_EVAL) {
        answer->status = eval_loop(r, s, answer);
        keep_message(s, answer);
        return 0;
    }
    dealer_interrupter *interrupter = NULL;
    long long started = now_ns();
    if (r->mode == MODE_INTERRUPT && interrupts) {
        if (dealer_create_interrupter(s, &interrupter) != DEALER_OK) return -1;
        started = now_ns();
        interrupts_arm(interrupts, slot, interrupter, r->interrupt_after_us);
    }
    dealer_run_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    answer->status = dealer_run(s, &report);
    answer->ceiling = report.ceiling;
    double ran = (double)(now_ns() - started) / 1e9;
    if (answer->status == DEALER_INTERRUPTED)
        answer->overrun = ran - r->interrupt_after_us / 1e6;
    else if (answer->status == DEALER_CEILING_REACHED && answer->ceiling == DEALER_CEILING_TIME)
        answer->overrun = ran - max_seconds_of(r);
    if (interrupter) {
        answer->interrupted = interrupts_disarm(interrupts, slot);
        dealer_free_interrupter(interrupter);
    }
    keep_message(s, answer);
    return 0;
}

int answer_ends_at_line_end(const struct answer *answer) {
    return answer->output.len == 0 || answer->output.data[answer->output.len - 1] == '\n';
}

/* FNV-1a, 64 bits. */
static uint64_t mix(uint64_t hash, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) hash = (hash ^ p[i]) * 0x100000001B3ull;
    return hash;
}

/* The end-of-run report's "Time needed" line is the only output no two runs share: it is
 * removed from the output (lines are kept whole, so the line-end check is unchanged). */
void answer_digest(struct answer *answer) {
    static const char timing[] = "Time needed";
    struct buffer *out = &answer->output;
    size_t read = 0, write = 0;
    while (read < out->len) {
        unsigned char *end = memchr(out->data + read, '\n', out->len - read);
        size_t line = end ? (size_t)(end - (out->data + read)) + 1 : out->len - read;
        int skip = line >= sizeof timing - 1 && memcmp(out->data + read, timing, sizeof timing - 1) == 0;
        if (!skip) {
            memmove(out->data + write, out->data + read, line);
            write += line;
        }
        read += line;
    }
    answer->raw_length = out->len;
    out->len = write;
    uint64_t hash = mix(0xCBF29CE484222325ull, out->data ? out->data : (unsigned char *)"", out->len);
    hash = mix(hash, &answer->status, sizeof answer->status);
    hash = mix(hash, &answer->ceiling, sizeof answer->ceiling);
    hash = mix(hash, answer->message, strlen(answer->message));
    answer->hash = hash;
    answer->length = out->len;
}

int answer_is_prefix_of(const struct answer *part, const struct answer *whole) {
    return part->output.len <= whole->output.len &&
           (part->output.len == 0 || memcmp(part->output.data, whole->output.data, part->output.len) == 0);
}

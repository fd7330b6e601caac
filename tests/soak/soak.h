/*
 * The soak test's shared declarations: a server inside one process (tests/soak/soak.c) serving
 * a stream of requests from a pool of worker threads, each request a script of the corpus run
 * under `untrusted` with ceilings, checked against a reference run of the same request done
 * alone. One concept per file:
 *
 *   corpus.c         the scripts served: practice, examples, random, hostile (with expectations)
 *   random_script.c  random valid scripts, the same for the same number
 *   hostile.c        the bad and hostile inputs of the hardening tests and their documented errors
 *   request.c        a request drawn at random: script, seed, generator, format, threads, mode
 *   answer.c         running a request in a session: output captured, status, error, whole lines
 *   reference.c      the reference answers, cached by request key (hash and length only)
 *   check.c          comparing an answer with its reference and its script's expectations
 *   interrupts.c     the thread that interrupts runs after a random delay
 *   resources.c      resident memory, descriptors, threads, children and semaphores
 *   latency.c        latency histograms by script class, p50/p99
 *   soak.c           the worker pool, the watchdog, the run and its verdict
 */
#ifndef SOAK_H
#define SOAK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dealer.h"

/* The classes latency and counts are reported by. DD is a request's class when it asks for
 * double-dummy results, whatever its script. */
enum script_class { CLASS_PRACTICE, CLASS_EXAMPLE, CLASS_RANDOM, CLASS_HOSTILE, CLASS_DD, CLASS_COUNT };

/* The output formats a request asks for (the `format` option), and the eval mode's stand-in. */
enum output_format { FORMAT_SCRIPT, FORMAT_LIN, FORMAT_JSONL, FORMAT_PBN, FORMAT_COUNT };

/* What a request does beyond a plain run. */
enum request_mode {
    MODE_RUN,        /* dealer_run, the session back to the pool */
    MODE_INTERRUPT,  /* interrupted from another thread after a random delay */
    MODE_DROP,       /* the client goes away: the writer fails after some bytes, the session is freed */
    MODE_EVAL,       /* dealer_next_deal and dealer_eval on the deals, no actions */
    MODE_COUNT
};

/* "Any status": a hostile input whose exact outcome is not documented, only that it is one of
 * the documented statuses and the same every time. */
#define EXPECT_ANY 1000

/* One script of the corpus. */
struct script_entry {
    char name[96];            /* "practice/BART.dlr", "random/17", "hostile/deep-sum" … */
    enum script_class cls;
    unsigned char *text;      /* owned, not NUL-terminated (hostile bytes may hold NUL) */
    size_t len;
    /* Hostile inputs: the documented status (EXPECT_ANY when not fixed), the ceiling that must
     * stop the run (DEALER_CEILING_*, -1 for no check) and a piece of the message. */
    int expect_status;
    int expect_ceiling;
    const char *expect_message;
    double max_seconds;       /* the `max_seconds` ceiling (0: the untrusted default) */
    int keep_produce;         /* run with the script's own produce (no `produce` option) */
    int time_bound;           /* stopped by the time ceiling: compared as a prefix only */
    int64_t max_generate;     /* the `max_generate` ceiling (0: 200,000) */
    int v2_only;              /* DealerV2's language only: never run with the glibc generator */
    int script_format;        /* its error comes from its actions: always the `script` format */
};

struct corpus {
    struct script_entry *entries;
    size_t count, capacity;
    size_t by_class[CLASS_COUNT];
};

/* corpus.c */
int corpus_load(struct corpus *corpus, const char *top, const char *shared, int random_scripts);
void corpus_free(struct corpus *corpus);
struct script_entry *corpus_add(struct corpus *corpus, const char *name, enum script_class cls,
                                const void *text, size_t len);
int corpus_add_file(struct corpus *corpus, const char *name, enum script_class cls, const char *path);
const char *class_name(enum script_class cls);

/* random_script.c */
size_t random_script(uint64_t number, char *buffer, size_t size);

/* hostile.c */
int hostile_add_all(struct corpus *corpus, const char *top);

/* A small fast generator (splitmix64), one per thread: no shared state. */
static inline uint64_t rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t rng_below(uint64_t *state, uint32_t n) { return (uint32_t)(rng_next(state) % n); }

/* The number of variants per script: a variant fixes seed, produce and output ceiling, so
 * that the references of a run fill a bounded cache. */
#define VARIANTS 8

/* One request. */
struct request {
    const struct script_entry *script;
    size_t script_index;
    int variant;
    int64_t seed;
    int generator;            /* DEALER_GENERATOR_* */
    enum output_format format;
    int dd;                   /* double-dummy results in the records (pbn_dd / json_dd) */
    uint32_t threads;         /* 1 or 2: the output does not depend on it */
    enum request_mode mode;
    int64_t produce;          /* the `produce` option, 0 for the script's */
    int64_t max_output;       /* the `max_output_bytes` ceiling */
    int reuse;                /* take a session from the pool */
    int free_after;           /* free the session afterwards instead of pooling it */
    uint32_t interrupt_after_us;
    size_t drop_after_bytes;
    enum script_class cls;    /* the class reported: the script's, or CLASS_DD */
};

/* request.c */
void request_draw(struct request *request, const struct corpus *corpus, uint64_t *rng, int allow_dd);
uint64_t request_key(const struct request *request);
void request_describe(const struct request *request, char *buffer, size_t size);

/* A growing byte buffer, reused from request to request. */
struct buffer { unsigned char *data; size_t len, cap; };
int buffer_append(struct buffer *buffer, const void *data, size_t len);

/* interrupts.c: another thread fires a session's interrupter at a given time. */
struct interrupt_slot;
struct interrupt_service;
struct interrupt_service *interrupts_start(int slots);
void interrupts_stop(struct interrupt_service *service);
void interrupts_arm(struct interrupt_service *service, int slot, dealer_interrupter *interrupter,
                    uint32_t after_us);
/* Disarms the slot; returns whether the interrupter was fired. */
int interrupts_disarm(struct interrupt_service *service, int slot);

/* answer.c: what one run of a request gave. */
struct answer {
    int32_t status;           /* the last status (dealer_run, or the eval loop's) */
    int32_t load_status;      /* dealer_load_script's */
    int32_t ceiling;          /* dealer_run_report.ceiling */
    char message[512];        /* dealer_last_error, cut */
    struct buffer output;     /* what the output stream received */
    uint64_t hash;            /* of the output without timing lines, status, ceiling and message */
    size_t length;            /* of the output without timing lines */
    size_t raw_length;        /* of the output as received */
    int interrupted;          /* the interrupter fired (MODE_INTERRUPT) */
    double overrun;           /* seconds the run went on after it was told to stop: after the
                                 interrupt was due (an interrupted run) or past max_seconds (a run
                                 stopped by the time ceiling); -1 for any other run */
};

struct session_pool;
struct session_pool *pool_create(int capacity);
dealer_session *pool_take(struct session_pool *pool);
/* Puts the session back, or frees it when the pool is full. */
void pool_give(struct session_pool *pool, dealer_session *session);
void pool_free(struct session_pool *pool);

int answer_request(const struct request *request, dealer_session *session, struct answer *answer,
                   struct interrupt_service *interrupts, int slot);
void answer_digest(struct answer *answer);
int answer_ends_at_line_end(const struct answer *answer);
int answer_is_prefix_of(const struct answer *part, const struct answer *whole);

/* reference.c */
struct reference { uint64_t key, hash; size_t length; int32_t status; };
struct reference_cache;
struct reference_cache *references_create(size_t slots);
int references_find(struct reference_cache *cache, uint64_t key, struct reference *out);
void references_store(struct reference_cache *cache, const struct reference *reference);
size_t references_count(const struct reference_cache *cache);
void references_free(struct reference_cache *cache);

/* check.c: the verdict on one answer. Returns 0 when it is right, else writes why. */
int answer_needs_fresh_reference(const struct request *request, const struct answer *answer);
int check_answer(const struct request *request, const struct answer *answer, const struct reference *cached,
                 const struct answer *fresh, char *why, size_t size);
int status_is_documented(int32_t status);
const char *outcome_name(const struct answer *answer);

/* resources.c */
struct resources { long rss_kb, heap_kb; int fds; int threads; int children; int semaphores; };
void resources_sample(struct resources *now);

/* latency.c: fixed histograms (no memory grows with the run), and the monotonic clock in ns. */
long long now_ns(void);
struct latency;
struct latency *latency_create(void);
void latency_add(struct latency *latency, enum script_class cls, double seconds);
double latency_quantile(struct latency *latency, enum script_class cls, double q);
uint64_t latency_count(struct latency *latency, enum script_class cls);
void latency_free(struct latency *latency);

#endif

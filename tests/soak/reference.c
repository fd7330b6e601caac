/*
 * The reference answers of the soak test: for each request key (script, variant, generator,
 * format, double dummy, eval), the digest of the request's answer when it ran alone in a fresh
 * session (hash of the output, status, ceiling and message; the output's length). A fixed table
 * allocated and touched at start-up, so that the cache does not grow the resident set while the
 * run measures it; when it is full, references are simply not kept (each request then runs its
 * own).
 */
#include <stdlib.h>
#include <string.h>

#include "soak.h"

struct reference_cache {
    pthread_mutex_t lock;
    struct reference *slots;   /* key 0: empty (no request key is 0: the script index is > 0 or other bits set) */
    size_t size, count;
    int has_zero;
    struct reference zero;
};

struct reference_cache *references_create(size_t slots) {
    struct reference_cache *cache = calloc(1, sizeof *cache);
    if (!cache) return NULL;
    size_t size = 1;
    while (size < slots * 2) size *= 2;
    cache->slots = malloc(size * sizeof *cache->slots);
    if (!cache->slots) {
        free(cache);
        return NULL;
    }
    memset(cache->slots, 0, size * sizeof *cache->slots);
    cache->size = size;
    pthread_mutex_init(&cache->lock, NULL);
    return cache;
}

static size_t home(const struct reference_cache *cache, uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cache->size - 1);
}

int references_find(struct reference_cache *cache, uint64_t key, struct reference *out) {
    int found = 0;
    pthread_mutex_lock(&cache->lock);
    if (key == 0) {
        found = cache->has_zero;
        if (found) *out = cache->zero;
    } else {
        for (size_t i = home(cache, key);; i = (i + 1) & (cache->size - 1)) {
            if (cache->slots[i].key == key) { *out = cache->slots[i]; found = 1; break; }
            if (cache->slots[i].key == 0) break;
        }
    }
    pthread_mutex_unlock(&cache->lock);
    return found;
}

void references_store(struct reference_cache *cache, const struct reference *reference) {
    pthread_mutex_lock(&cache->lock);
    if (reference->key == 0) {
        cache->zero = *reference;
        cache->has_zero = 1;
    } else if (cache->count < cache->size / 2) {
        for (size_t i = home(cache, reference->key);; i = (i + 1) & (cache->size - 1)) {
            if (cache->slots[i].key == reference->key) break;
            if (cache->slots[i].key == 0) {
                cache->slots[i] = *reference;
                cache->count++;
                break;
            }
        }
    }
    pthread_mutex_unlock(&cache->lock);
}

size_t references_count(const struct reference_cache *cache) { return cache->count + (size_t)cache->has_zero; }

void references_free(struct reference_cache *cache) {
    pthread_mutex_destroy(&cache->lock);
    free(cache->slots);
    free(cache);
}

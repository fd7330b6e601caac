/*
 * The interrupting thread of the soak test: a worker arms its slot with a session's
 * interrupter and a delay; this thread, waking every 200 µs, fires each armed interrupter whose
 * time has come, from a thread that is not the session's (as a server's "cancel" request
 * would). Disarming under the slot's lock tells the worker whether the interrupter fired, so
 * that a session whose interrupt came after its run ended (and would stop its next run) is not
 * pooled again.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <time.h>

#include "soak.h"

struct interrupt_slot {
    pthread_mutex_t lock;
    dealer_interrupter *interrupter;
    struct timespec at;
    int fired;
};

struct interrupt_service {
    struct interrupt_slot *slots;
    int count;
    pthread_t thread;
    pthread_mutex_t stop_lock;
    int stop;
};

static int due(const struct timespec *at, const struct timespec *now) {
    return now->tv_sec > at->tv_sec || (now->tv_sec == at->tv_sec && now->tv_nsec >= at->tv_nsec);
}

static void *serve(void *arg) {
    struct interrupt_service *service = arg;
    for (;;) {
        pthread_mutex_lock(&service->stop_lock);
        int stop = service->stop;
        pthread_mutex_unlock(&service->stop_lock);
        if (stop) break;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (int i = 0; i < service->count; i++) {
            struct interrupt_slot *slot = &service->slots[i];
            pthread_mutex_lock(&slot->lock);
            if (slot->interrupter && due(&slot->at, &now)) {
                dealer_interrupt(slot->interrupter);
                slot->interrupter = NULL;
                slot->fired = 1;
            }
            pthread_mutex_unlock(&slot->lock);
        }
        struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
    }
    return NULL;
}

struct interrupt_service *interrupts_start(int slots) {
    struct interrupt_service *service = calloc(1, sizeof *service);
    if (!service) return NULL;
    service->slots = calloc((size_t)slots, sizeof *service->slots);
    service->count = slots;
    for (int i = 0; i < slots; i++) pthread_mutex_init(&service->slots[i].lock, NULL);
    pthread_mutex_init(&service->stop_lock, NULL);
    if (pthread_create(&service->thread, NULL, serve, service) != 0) return NULL;
    return service;
}

void interrupts_stop(struct interrupt_service *service) {
    pthread_mutex_lock(&service->stop_lock);
    service->stop = 1;
    pthread_mutex_unlock(&service->stop_lock);
    pthread_join(service->thread, NULL);
    for (int i = 0; i < service->count; i++) pthread_mutex_destroy(&service->slots[i].lock);
    pthread_mutex_destroy(&service->stop_lock);
    free(service->slots);
    free(service);
}

void interrupts_arm(struct interrupt_service *service, int slot, dealer_interrupter *interrupter, uint32_t after_us) {
    struct interrupt_slot *s = &service->slots[slot];
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_nsec += (long)(after_us % 1000000) * 1000;
    at.tv_sec += after_us / 1000000 + at.tv_nsec / 1000000000;
    at.tv_nsec %= 1000000000;
    pthread_mutex_lock(&s->lock);
    s->interrupter = interrupter;
    s->at = at;
    s->fired = 0;
    pthread_mutex_unlock(&s->lock);
}

int interrupts_disarm(struct interrupt_service *service, int slot) {
    struct interrupt_slot *s = &service->slots[slot];
    pthread_mutex_lock(&s->lock);
    int fired = s->fired;
    s->interrupter = NULL;
    s->fired = 0;
    pthread_mutex_unlock(&s->lock);
    return fired;
}

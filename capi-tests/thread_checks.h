/*
 * The tally of a C API test whose checks run on several threads: CHECK(cond) counts a pass or
 * prints the failing condition with its file and line, under one lock, into `passed` and
 * `failed` (each test program prints them at the end). Header-only: include it once per program.
 */
#ifndef THREAD_CHECKS_H
#define THREAD_CHECKS_H

#include <pthread.h>
#include <stdio.h>

static int passed, failed;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond)                                                            \
    do {                                                                       \
        int ok_ = (cond) ? 1 : 0;                                              \
        pthread_mutex_lock(&count_lock);                                       \
        if (ok_) passed++;                                                     \
        else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
        pthread_mutex_unlock(&count_lock);                                     \
    } while (0)

#endif

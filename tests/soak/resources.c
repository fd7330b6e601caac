/*
 * What the soak test measures of its own process, from /proc and /dev/shm: resident memory
 * (/proc/self/statm), open descriptors (/proc/self/fd), threads (/proc/self/task), child
 * processes (each task's children file: a DealerServer or a watcher left behind would be one)
 * and POSIX named semaphores the DealerServer client names after this process
 * (/dev/shm/sem.q_sem_PID_…, sem.r_sem_PID_…). Beside the resident set, the heap in use
 * (glibc's mallinfo2: bytes allocated and not freed, in every arena and in mmap'd blocks),
 * which tells a leak from memory the allocator keeps for reuse.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "soak.h"

static int count_entries(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return -1;
    int n = 0;
    struct dirent *item;
    while ((item = readdir(dir)) != NULL)
        if (item->d_name[0] != '.') n++;
    closedir(dir);
    return n;
}

static int count_children(void) {
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return -1;
    int n = 0;
    struct dirent *item;
    while ((item = readdir(dir)) != NULL) {
        if (item->d_name[0] == '.') continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/children", item->d_name);
        FILE *file = fopen(path, "r");
        if (!file) continue;
        int c;
        int in_number = 0;
        while ((c = fgetc(file)) != EOF) {
            if (c >= '0' && c <= '9') {
                if (!in_number) n++;
                in_number = 1;
            } else {
                in_number = 0;
            }
        }
        fclose(file);
    }
    closedir(dir);
    return n;
}

static int count_semaphores(void) {
    DIR *dir = opendir("/dev/shm");
    if (!dir) return 0;
    char mine[64];
    snprintf(mine, sizeof mine, "_sem_%06ld_", (long)getpid());
    int n = 0;
    struct dirent *item;
    while ((item = readdir(dir)) != NULL)
        if (strstr(item->d_name, mine)) n++;
    closedir(dir);
    return n;
}

void resources_sample(struct resources *now) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm) {
        if (fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(statm);
    }
    now->rss_kb = resident * (sysconf(_SC_PAGESIZE) / 1024);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 heap = mallinfo2();
    now->heap_kb = (long)((heap.uordblks + heap.hblkhd) / 1024);
#else
    now->heap_kb = -1;
#endif
    /* The listing's own descriptor is counted each time alike. */
    now->fds = count_entries("/proc/self/fd");
    now->threads = count_entries("/proc/self/task");
    now->children = count_children();
    now->semaphores = count_semaphores();
}

/*
 * The soak test's corpus: every script a request may load, read once at start-up. The practice
 * scripts of ../shared/parity/pbs/scripts (BBO's practice tables), the project's examples
 * (examples-c/example.dlr, examples/levelling, tests/bench), random valid scripts
 * (random_script.c) and the hostile inputs (hostile.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

const char *class_name(enum script_class cls) {
    static const char *const names[CLASS_COUNT] = {"practice", "example", "random", "hostile", "dd"};
    return cls < CLASS_COUNT ? names[cls] : "?";
}

struct script_entry *corpus_add(struct corpus *corpus, const char *name, enum script_class cls, const void *text,
                                size_t len) {
    if (corpus->count == corpus->capacity) {
        size_t capacity = corpus->capacity ? corpus->capacity * 2 : 256;
        struct script_entry *grown = realloc(corpus->entries, capacity * sizeof *grown);
        if (!grown) return NULL;
        corpus->entries = grown;
        corpus->capacity = capacity;
    }
    struct script_entry *entry = &corpus->entries[corpus->count];
    memset(entry, 0, sizeof *entry);
    snprintf(entry->name, sizeof entry->name, "%s", name);
    entry->cls = cls;
    entry->text = malloc(len ? len : 1);
    if (!entry->text) return NULL;
    if (len) memcpy(entry->text, text, len);
    entry->len = len;
    entry->expect_status = DEALER_OK;
    entry->expect_ceiling = -1;
    corpus->count++;
    corpus->by_class[cls]++;
    return entry;
}

int corpus_add_file(struct corpus *corpus, const char *name, enum script_class cls, const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    struct buffer text = {0};
    unsigned char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, file)) > 0) buffer_append(&text, chunk, n);
    fclose(file);
    struct script_entry *entry = corpus_add(corpus, name, cls, text.data, text.len);
    free(text.data);
    return entry ? 0 : -1;
}

/* Every file of `folder` whose name ends with one of the suffixes, sorted by name. */
static int add_folder(struct corpus *corpus, const char *folder, const char *prefix, enum script_class cls) {
    struct dirent **items;
    int n = scandir(folder, &items, NULL, alphasort);
    if (n < 0) return -1;
    int added = 0;
    for (int i = 0; i < n; i++) {
        const char *file = items[i]->d_name;
        size_t len = strlen(file);
        int script = (len > 3 && strcmp(file + len - 3, ".dl") == 0) || (len > 4 && strcmp(file + len - 4, ".dlr") == 0);
        if (script) {
            char path[4096], name[96];
            snprintf(path, sizeof path, "%s/%s", folder, file);
            snprintf(name, sizeof name, "%s/%.80s", prefix, file);
            if (corpus_add_file(corpus, name, cls, path) == 0) added++;
        }
        free(items[i]);
    }
    free(items);
    return added;
}

int corpus_load(struct corpus *corpus, const char *top, const char *shared, int random_scripts) {
    char path[4096];
    snprintf(path, sizeof path, "%s/parity/pbs/scripts", shared);
    if (add_folder(corpus, path, "practice", CLASS_PRACTICE) <= 0) {
        fprintf(stderr, "soak: no practice scripts in %s\n", path);
        return -1;
    }
    static const char *const example_folders[] = {"examples-c", "examples/levelling", "tests/bench",
                                                  "tests/bench/levelling", "tests/bench/rare"};
    for (size_t i = 0; i < sizeof example_folders / sizeof *example_folders; i++) {
        snprintf(path, sizeof path, "%s/%s", top, example_folders[i]);
        char prefix[96];
        snprintf(prefix, sizeof prefix, "example/%s", example_folders[i]);
        if (add_folder(corpus, path, prefix, CLASS_EXAMPLE) <= 0) {
            fprintf(stderr, "soak: no example scripts in %s\n", path);
            return -1;
        }
    }
    for (int number = 1; number <= random_scripts; number++) {
        char text[2048], name[96];
        size_t len = random_script((uint64_t)number, text, sizeof text);
        snprintf(name, sizeof name, "random/%d", number);
        if (!corpus_add(corpus, name, CLASS_RANDOM, text, len)) return -1;
    }
    if (hostile_add_all(corpus, top) != 0) {
        fprintf(stderr, "soak: cannot read %s/tests/fuzz-regressions\n", top);
        return -1;
    }
    return 0;
}

void corpus_free(struct corpus *corpus) {
    for (size_t i = 0; i < corpus->count; i++) free(corpus->entries[i].text);
    free(corpus->entries);
    memset(corpus, 0, sizeof *corpus);
}

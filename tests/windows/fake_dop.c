/*
 * A stand-in for DealerV2's `dop`, built for Linux and for Windows by tests/windows.sh: run as
 * `dop -O<opener> -N <hand> -S <hand> -q` (or -E/-W), it prints eight numbers computed from its
 * arguments (the high-card points of each hand, their sum, the opener's letter), so the same
 * script gives the same output on both systems only if the hands arrived intact. Named with
 * "hang" in its name, it prints nothing and waits for a minute (for the time limit).
 */
#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

static int points(const char *hand) {
    int p = 0;
    for (; *hand; hand++) p += *hand == 'A' ? 4 : *hand == 'K' ? 3 : *hand == 'Q' ? 2 : *hand == 'J' ? 1 : 0;
    return p;
}

int main(int argc, char **argv) {
    if (strstr(argv[0], "hang") != NULL) {
#ifdef _WIN32
        Sleep(60000);
#else
        sleep(60);
#endif
        return 0;
    }
    int first = -1, second = -1, opener = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-O", 2) == 0) opener = argv[i][2];
        else if (i + 1 < argc && (strcmp(argv[i], "-N") == 0 || strcmp(argv[i], "-E") == 0)) first = points(argv[++i]);
        else if (i + 1 < argc && (strcmp(argv[i], "-S") == 0 || strcmp(argv[i], "-W") == 0)) second = points(argv[++i]);
    }
    if (first < 0 || second < 0) return 2;
    printf("%d.25 %d.50 %d.00 %d.75 %d.00 %d.50  1.50  2.00\n", first, second, first + second, opener, first * 2,
           first + second + 1);
    return 1; /* the real `dop -q` exits with 1 */
}

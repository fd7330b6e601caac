/*
 * A minimal program that uses an installed libdealer, built by tests/consumer.sh with
 * pkg-config and with CMake (find_package(dealer)), against the shared and the static library.
 * Deals one hand with classic dealer's generator and seed 1 and prints it on standard output.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dealer.h>

int main(void) {
    static const char script[] = "produce 1\naction printoneline\n";
    dealer_session *s = NULL;
    if (dealer_create_session(&s) != DEALER_OK) {
        fprintf(stderr, "consumer: dealer_create_session failed\n");
        return 1;
    }
    if (dealer_set_option(s, "rng", "glibc") != DEALER_OK || dealer_set_option(s, "seed", "1") != DEALER_OK
        || dealer_load_script(s, (const uint8_t *)script, strlen(script)) != DEALER_OK
        || dealer_run(s, NULL) != DEALER_OK) {
        fprintf(stderr, "consumer: %s\n", dealer_last_error(s));
        dealer_free_session(s);
        return 1;
    }
    dealer_free_session(s);
    return 0;
}

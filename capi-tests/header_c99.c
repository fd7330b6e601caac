/* Compiles include/dealer.h as strict ISO C99 (-std=c99 -pedantic, every warning an error) and
 * checks that its types, constants and declarations are usable from plain C. */
#include "dealer.h"

/* Compile-time checks without C11's _Static_assert. */
#define STATIC_CHECK(name, cond) typedef char static_check_##name[(cond) ? 1 : -1]
STATIC_CHECK(deal_is_four_hands, sizeof(dealer_deal) == 4 * sizeof(uint64_t));
STATIC_CHECK(status_values, DEALER_OK == 0 && DEALER_DONE == 1 && DEALER_TIMED_OUT == 2);
STATIC_CHECK(error_values, DEALER_ERROR_SCRIPT == -1 && DEALER_ERROR_OPTION == -2 && DEALER_ERROR_IO == -3 &&
                           DEALER_ERROR_NOT_AVAILABLE == -4 && DEALER_ERROR_RUN == -5 &&
                           DEALER_ERROR_USAGE == -6 && DEALER_ERROR_NULL == -7 && DEALER_ERROR_UTF8 == -8 &&
                           DEALER_ERROR_INTERNAL == -9 && DEALER_INTERRUPTED == -10 &&
                           DEALER_ERROR_NOT_ALLOWED == -11);
STATIC_CHECK(ceilings, DEALER_CEILING_REACHED == 3 && DEALER_CEILING_NONE == 0 && DEALER_CEILING_TIME == 1 &&
                       DEALER_CEILING_GENERATE == 2 && DEALER_CEILING_OUTPUT == 3);
STATIC_CHECK(streams, DEALER_STREAM_OUTPUT == 0 && DEALER_STREAM_DIAGNOSTICS == 1 && DEALER_STREAM_CSV == 2 &&
                      DEALER_STREAM_EXPORT == 3 && DEALER_STREAM_DEALS == 4);
STATIC_CHECK(seats, DEALER_NORTH == 0 && DEALER_EAST == 1 && DEALER_SOUTH == 2 && DEALER_WEST == 3);
STATIC_CHECK(choices, DEALER_GENERATOR_CHACHA == 0 && DEALER_GENERATOR_DRAND48 == 1 &&
                      DEALER_GENERATOR_GLIBC == 2 && DEALER_DIALECT_V2 == 0 && DEALER_DIALECT_CLASSIC == 1);
STATIC_CHECK(par_contract_room, sizeof(((dealer_dds_results *)0)->par_contract) == 32);

static int32_t ignore_output(const uint8_t *data, uintptr_t len, void *userdata) {
    (void)data;
    (void)len;
    (void)userdata;
    return 0;
}

int main(void) {
    dealer_session *session = NULL;
    dealer_write_fn write_fn = ignore_output;
    dealer_run_report report = {sizeof(dealer_run_report), 0, 0, 0, 0};
    dealer_dds_results results;
    dealer_deal deal = {{0, 0, 0, 0}};
    int ok;
    if (dealer_create_session(&session) != DEALER_OK) return 1;
    results.size = sizeof results;
    results.par_vulnerability = -1;
    ok = dealer_set_output(session, DEALER_STREAM_OUTPUT, write_fn, NULL) == DEALER_OK &&
         dealer_dds_table(session, NULL, &results) == DEALER_ERROR_USAGE && /* no current deal */
         dealer_run(session, &report) == DEALER_ERROR_USAGE &&             /* no script */
         dealer_set_untrusted(session, 1) == DEALER_OK &&
         dealer_deal_to_pbn(&deal, NULL, 0) > 0 &&
         dealer_version_number() == DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100 + DEALER_VERSION_PATCH;
    dealer_free_session(session);
    return ok ? 0 : 1;
}

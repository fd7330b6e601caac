// Compiles include/dealer.h as C++ with every warning an error, and checks that its types are
// usable from C++ (the header is also compiled as C99 by test_capi.c).
#include "dealer.h"

static_assert(sizeof(dealer_deal) == 4 * sizeof(uint64_t), "dealer_deal is four 64-bit hands");
static_assert(DEALER_OK == 0 && DEALER_DONE == 1, "fixed status values");

int main() {
    dealer_session *session = nullptr;
    if (dealer_create_session(&session) != DEALER_OK) return 1;
    dealer_dds_results results{};
    results.size = sizeof results;
    results.par_vulnerability = -1;
    int status = dealer_dds_table(session, nullptr, &results);  // no current deal: a usage error
    dealer_free_session(session);
    return status == DEALER_ERROR_USAGE ? 0 : 1;
}

/* test_concurrency with one more thread passing garbage, destroyed and wrong-kind handles and
 * descriptors (including the shared handle passed as a descriptor) to every function that
 * takes one, while the others work: every such call is BAD_PARAM, nothing else is disturbed.
 * The body is tests/c/sweep/concurrency.h. */
#define _GNU_SOURCE
#include "sweep/concurrency.h"

int main(void) { return run_concurrency(1); }

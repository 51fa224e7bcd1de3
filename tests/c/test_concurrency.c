/* 16 threads building, finalizing and executing plans on one shared handle, 4 threads
 * creating and destroying handles and descriptors, one thread hammering the last error, the
 * log level and user log callbacks; ~3 s, numbers checked, watchdog against deadlock.
 * The body is tests/c/sweep/concurrency.h. */
#define _GNU_SOURCE
#include "sweep/concurrency.h"

int main(void) { return run_concurrency(0); }

/* Test stand-in for cuBLASLt's header: only the version query the samples gate on. Version 0:
 * no cuBLASLt here, so samples that need one skip themselves. Never installed. */
#pragma once
#include <stddef.h>
static inline size_t cublasLtGetVersion(void) { return 0; }

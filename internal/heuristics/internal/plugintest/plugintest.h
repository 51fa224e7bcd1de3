#ifndef HIPDNN_GO_PLUGINTEST_H
#define HIPDNN_GO_PLUGINTEST_H
#include <stddef.h>
#include <stdint.h>
// Calls hipdnnTestHeuristicGetLastFinalize of the already loaded plugin file path. Returns its
// answer (0 or 1), -1 when the file is not loaded, -2 when it lacks the accessor.
int hd_plugintest_last_finalize(const char* path, int32_t* used, uint32_t* version, size_t* size, char* metric, size_t metric_len,
                                char* arch, size_t arch_len);
// Calls hipdnnTestGetLastLogLevel of the already loaded plugin file path; -2 when the file is
// not loaded or lacks the accessor.
int hd_plugintest_last_log_level(const char* path);
#endif

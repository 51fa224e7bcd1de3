// cudnn_frontend_Logging.h - the frontend's log, driven by upstream's two variables.
//
// CUDNN_FRONTEND_LOG_INFO=1 turns it on (off by default, like upstream); CUDNN_FRONTEND_LOG_FILE
// names where it goes: "stdout", "stderr" or a file path (appended). Both are read once, at the
// first log call. The backend's own log (HIPDNN_LOG_LEVEL, HIPDNN_LOG_FILE) is separate.
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <ostream>

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

namespace detail {

// log_state holds the sink chosen from the environment; one per process.
struct log_state {
    bool enabled = false;
    std::ostream* out = nullptr;
    std::ofstream file;
    std::mutex mu;

    log_state() {
        const char* on = std::getenv("CUDNN_FRONTEND_LOG_INFO");
        enabled = on != nullptr && on[0] != '\0' && std::strcmp(on, "0") != 0;
        if (!enabled) return;
        const char* where = std::getenv("CUDNN_FRONTEND_LOG_FILE");
        if (where == nullptr || std::strcmp(where, "stdout") == 0) {
            out = &std::cout;
        } else if (std::strcmp(where, "stderr") == 0) {
            out = &std::cerr;
        } else {
            file.open(where, std::ios::app);
            out = file.is_open() ? static_cast<std::ostream*>(&file) : &std::cerr;
        }
    }

    static log_state& get() {
        static log_state s;
        return s;
    }
};

}  // namespace detail

// isLoggingEnabled says whether CUDNN_FRONTEND_LOG_INFO switched the log on.
inline bool
isLoggingEnabled() {
    return detail::log_state::get().enabled;
}

// getLogger is the stream log lines go to; only meaningful when logging is enabled.
inline std::ostream&
getLogger() {
    auto& s = detail::log_state::get();
    return s.out != nullptr ? *s.out : std::cerr;
}

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend

// The disabled path tests one bool and builds nothing.
#define CUDNN_FE_LOG(X)                                                                      \
    do {                                                                                     \
        if (::hipdnn_frontend::compatibility::cudnn_frontend::isLoggingEnabled()) {          \
            ::hipdnn_frontend::compatibility::cudnn_frontend::getLogger() << X;              \
        }                                                                                    \
    } while (0)

#define CUDNN_FE_LOG_LABEL(X) CUDNN_FE_LOG("[cudnn_frontend] " << X)

#define CUDNN_FE_LOG_LABEL_ENDL(X) CUDNN_FE_LOG("[cudnn_frontend] " << X << std::endl)

#define CUDNN_FE_LOG_BANNER(X) CUDNN_FE_LOG_LABEL_ENDL("===== " << X << " =====")

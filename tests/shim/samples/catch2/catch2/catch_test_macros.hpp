// A minimal stand-in for Catch2 v3's test macros (Debian 12 ships only Catch2 v2), enough to
// build and run NVIDIA's cudnn-frontend samples unchanged. Test code only, never installed.
//
// The runner (catch_main.cpp) prints one line per test case for run_samples.sh to parse:
//   PASS <name>
//   SKIP <name> :: <reason>
//   FAIL <name> :: <first failure>
// Options: --list (one name per line), a test name (exact) or "[tag]" to select cases.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace catch_standin {

struct TestCase {
    std::string name;
    std::string tags;
    std::string file;
    int line;
    void (*fn)();
};

inline std::vector<TestCase>&
registry() {
    static std::vector<TestCase> cases;
    return cases;
}

struct Registrar {
    Registrar(void (*fn)(), const char* file, int line, std::string name, std::string tags = "") {
        registry().push_back({std::move(name), std::move(tags), file, line, fn});
    }
};

// Thrown to end a test case: REQUIRE/FAIL failures and SKIP.
struct Failure {
    std::string message;
};
struct Skipped {
    std::string message;
};

// One SECTION tree per test case. Each run enters at most one unfinished child per level;
// the case is rerun until every section discovered has finished (Catch2's leaf-per-run rule).
struct SectionNode {
    std::string name;
    std::vector<std::unique_ptr<SectionNode>> kids;
    bool done           = false;
    bool entered_a_kid  = false;  // this run
};

// A GENERATE site: its values are chosen by index, advanced like an odometer between runs.
struct GeneratorState {
    size_t index = 0;
    size_t size  = 1;
};

struct RunState {
    SectionNode root;
    SectionNode* current = &root;
    std::vector<GeneratorState> generators;
    size_t generator_cursor = 0;  // which GENERATE call of this run comes next
    std::vector<std::string> failures;  // CHECK failures (REQUIRE throws instead)
    std::vector<std::string> info;      // INFO messages in scope
};

inline RunState*&
state() {
    static RunState* s = nullptr;
    return s;
}

inline std::string
where(const char* file, int line) {
    std::string f(file);
    auto slash = f.find_last_of('/');
    if (slash != std::string::npos) f = f.substr(slash + 1);
    return f + ":" + std::to_string(line);
}

inline std::string
with_info(std::string msg) {
    if (state()) {
        for (auto const& i : state()->info) msg += " [info: " + i + "]";
    }
    return msg;
}

// ---- expression decomposition: REQUIRE(a == b) reports both values when they print ----
template <typename T, typename = void>
struct printable : std::false_type {};
template <typename T>
struct printable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<T const&>())>>
    : std::true_type {};

template <typename T>
std::string
show(T const& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(v));
    } else if constexpr (printable<T>::value) {
        std::ostringstream o;
        o << v;
        return o.str();
    } else {
        return "?";
    }
}

struct Result {
    bool ok;
    std::string expanded;
};

template <typename L>
struct Lhs {
    L const& lhs;
    operator Result() const {  // a bare value: REQUIRE(x)
        return {static_cast<bool>(lhs), show(lhs)};
    }
#define CATCH_STANDIN_CMP(op)                                                   \
    template <typename R>                                                       \
    Result operator op(R const& rhs) const {                                    \
        return {static_cast<bool>(lhs op rhs), show(lhs) + " " #op " " + show(rhs)}; \
    }
    CATCH_STANDIN_CMP(==)
    CATCH_STANDIN_CMP(!=)
    CATCH_STANDIN_CMP(<)
    CATCH_STANDIN_CMP(>)
    CATCH_STANDIN_CMP(<=)
    CATCH_STANDIN_CMP(>=)
#undef CATCH_STANDIN_CMP
};

struct Decomposer {
    template <typename L>
    Lhs<L>
    operator<=(L const& lhs) const {
        return {lhs};
    }
};

inline void
report(Result const& r, bool expect, bool fatal, const char* macro, const char* expr, const char* file, int line) {
    if (r.ok == expect) return;
    std::string msg = std::string(macro) + "(" + expr + ") failed at " + where(file, line);
    if (!r.expanded.empty() && r.expanded != expr) msg += " with " + r.expanded;
    msg = with_info(msg);
    if (fatal) throw Failure{msg};
    if (state()) state()->failures.push_back(msg);
}

inline std::string
describe(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (std::exception const& ex) {
        return std::string("exception: ") + ex.what();
    } catch (...) {
        return "unknown exception";
    }
}

// Msg collects a streamed message (SKIP("a" << b)).
struct Msg {
    std::ostringstream out;
    template <typename T>
    Msg&
    operator<<(T const& v) {
        out << v;
        return *this;
    }
    std::string
    str() const {
        return out.str();
    }
};

// ---- INFO: a message kept while its scope lives ----
struct ScopedInfo {
    explicit ScopedInfo(std::string m) {
        if (state()) state()->info.push_back(std::move(m));
    }
    ~ScopedInfo() {
        if (state() && !state()->info.empty()) state()->info.pop_back();
    }
};

// ---- SECTION ----
struct Section {
    SectionNode* node   = nullptr;
    SectionNode* parent = nullptr;
    bool entered        = false;

    explicit Section(std::string const& name) {
        RunState* s = state();
        if (!s) return;
        parent = s->current;
        for (auto& k : parent->kids)
            if (k->name == name) node = k.get();
        if (!node) {
            parent->kids.push_back(std::make_unique<SectionNode>());
            node       = parent->kids.back().get();
            node->name = name;
        }
        if (node->done || parent->entered_a_kid) return;
        parent->entered_a_kid = true;
        node->entered_a_kid   = false;
        s->current            = node;
        entered               = true;
    }
    ~Section() {
        if (!entered) return;
        bool all = true;
        for (auto& k : node->kids) all = all && k->done;
        node->done       = all;
        state()->current = parent;
    }
    explicit operator bool() const { return entered; }
};

// ---- GENERATE ----
template <typename T>
struct RangeGenerator {
    T from, to;  // [from, to)
};

template <typename T>
RangeGenerator<T>
range(T from, T to) {
    return {from, to};
}

inline GeneratorState&
next_generator(size_t size) {
    RunState* s = state();
    if (s->generator_cursor == s->generators.size()) s->generators.push_back({0, size});
    auto& g = s->generators[s->generator_cursor++];
    g.size  = size;
    return g;
}

template <typename T, typename... Rest>
T
generate(T first, Rest... rest) {
    std::vector<T> values{first, static_cast<T>(rest)...};
    return values[next_generator(values.size()).index];
}

template <typename T>
T
generate(RangeGenerator<T> r) {
    size_t n = r.to > r.from ? static_cast<size_t>(r.to - r.from) : 1;
    return static_cast<T>(r.from + static_cast<T>(next_generator(n).index));
}

}  // namespace catch_standin

namespace Catch {
using catch_standin::range;
namespace Generators {
using catch_standin::range;
}
}  // namespace Catch

#define CATCH_STANDIN_CAT2(a, b) a##b
#define CATCH_STANDIN_CAT(a, b) CATCH_STANDIN_CAT2(a, b)
#define CATCH_STANDIN_UNIQUE(base) CATCH_STANDIN_CAT(base, __COUNTER__)

#define CATCH_STANDIN_TEST_CASE2(fn, ...)                                                          \
    static void fn();                                                                              \
    static ::catch_standin::Registrar CATCH_STANDIN_CAT(fn, _reg)(&fn, __FILE__, __LINE__, __VA_ARGS__); \
    static void fn()
#define TEST_CASE(...) CATCH_STANDIN_TEST_CASE2(CATCH_STANDIN_UNIQUE(catch_standin_case_), __VA_ARGS__)

#define CATCH_STANDIN_ASSERT(macro, expect, fatal, ...)                                                  \
    do {                                                                                                 \
        ::catch_standin::Result catch_standin_r{false, ""};                                              \
        try {                                                                                            \
            _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wparentheses\"")          \
            catch_standin_r = ::catch_standin::Decomposer() <= __VA_ARGS__;                              \
            _Pragma("GCC diagnostic pop")                                                                \
        } catch (...) {                                                                                  \
            catch_standin_r = {!(expect), ::catch_standin::describe(std::current_exception())};          \
        }                                                                                                \
        ::catch_standin::report(catch_standin_r, expect, fatal, macro, #__VA_ARGS__, __FILE__, __LINE__); \
    } while (false)

#define REQUIRE(...) CATCH_STANDIN_ASSERT("REQUIRE", true, true, __VA_ARGS__)
#define CHECK(...) CATCH_STANDIN_ASSERT("CHECK", true, false, __VA_ARGS__)
#define REQUIRE_FALSE(...) CATCH_STANDIN_ASSERT("REQUIRE_FALSE", false, true, __VA_ARGS__)
#define CHECK_FALSE(...) CATCH_STANDIN_ASSERT("CHECK_FALSE", false, false, __VA_ARGS__)

#define CATCH_STANDIN_NOTHROW(macro, fatal, ...)                                                   \
    do {                                                                                           \
        try {                                                                                      \
            (void)(__VA_ARGS__);                                                                   \
        } catch (...) {                                                                            \
            ::catch_standin::report({false, ::catch_standin::describe(std::current_exception())}, \
                                    true, fatal, macro, #__VA_ARGS__, __FILE__, __LINE__);         \
        }                                                                                          \
    } while (false)
#define REQUIRE_NOTHROW(...) CATCH_STANDIN_NOTHROW("REQUIRE_NOTHROW", true, __VA_ARGS__)
#define CHECK_NOTHROW(...) CATCH_STANDIN_NOTHROW("CHECK_NOTHROW", false, __VA_ARGS__)

#define CATCH_STANDIN_THROWS(macro, fatal, ...)                                                              \
    do {                                                                                                     \
        bool catch_standin_threw = false;                                                                    \
        try {                                                                                                \
            (void)(__VA_ARGS__);                                                                             \
        } catch (...) {                                                                                      \
            catch_standin_threw = true;                                                                      \
        }                                                                                                    \
        ::catch_standin::report({catch_standin_threw, "no exception"}, true, fatal, macro, #__VA_ARGS__,     \
                                __FILE__, __LINE__);                                                         \
    } while (false)
#define REQUIRE_THROWS(...) CATCH_STANDIN_THROWS("REQUIRE_THROWS", true, __VA_ARGS__)
#define CHECK_THROWS(...) CATCH_STANDIN_THROWS("CHECK_THROWS", false, __VA_ARGS__)

// Message macros take Catch2's stream form: SKIP("needs " << x).
#define CATCH_STANDIN_MSG(...) (::catch_standin::Msg() __VA_OPT__(<< __VA_ARGS__)).str()
#define SKIP(...) throw ::catch_standin::Skipped{CATCH_STANDIN_MSG(__VA_ARGS__)}
#define FAIL(...)                                                                                   \
    throw ::catch_standin::Failure {                                                                \
        ::catch_standin::with_info("FAIL at " + ::catch_standin::where(__FILE__, __LINE__) + ": " + \
                                   CATCH_STANDIN_MSG(__VA_ARGS__))                                  \
    }
#define FAIL_CHECK(...)                                                                                  \
    do {                                                                                                 \
        if (::catch_standin::state())                                                                    \
            ::catch_standin::state()->failures.push_back("FAIL_CHECK at " +                              \
                                                         ::catch_standin::where(__FILE__, __LINE__) + \
                                                         ": " + CATCH_STANDIN_MSG(__VA_ARGS__));         \
    } while (false)
#define SUCCEED(...) ((void)0)
#define WARN(...) ((void)CATCH_STANDIN_MSG(__VA_ARGS__))
#define INFO(...) \
    ::catch_standin::ScopedInfo CATCH_STANDIN_UNIQUE(catch_standin_info_)(CATCH_STANDIN_MSG(__VA_ARGS__))
#define CAPTURE(x) INFO(#x " := " << (x))

#define SECTION(...) if (::catch_standin::Section CATCH_STANDIN_UNIQUE(catch_standin_section_){__VA_ARGS__})

// As in Catch2, the generator helpers (range, ...) need no qualification inside GENERATE.
#define GENERATE(...)                            \
    [&] {                                        \
        using namespace ::Catch::Generators;     \
        return ::catch_standin::generate(__VA_ARGS__); \
    }()

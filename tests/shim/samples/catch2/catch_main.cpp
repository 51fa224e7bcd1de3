// The stand-in's runner: runs every registered test case (or the ones named on the command
// line) and prints one PASS / SKIP / FAIL line per case. Exit status 1 when any case failed.
//   <prog> --list            names, one per line
//   <prog> [name|"[tag]"]... only the cases with that exact name or tag
//   --file F                 only cases defined in a source whose path ends with F (a program
//                            linked from several sample files, as upstream links them all)
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "catch2/catch_test_macros.hpp"

namespace cs = catch_standin;

namespace {

bool
selected(cs::TestCase const& tc, std::vector<std::string> const& filters) {
    if (filters.empty()) return true;
    for (auto const& f : filters) {
        if (f == tc.name) return true;
        if (f.size() > 2 && f.front() == '[' && tc.tags.find(f) != std::string::npos) return true;
    }
    return false;
}

bool
all_generators_done(cs::RunState const& s) {
    for (auto const& g : s.generators)
        if (g.index + 1 < g.size) return false;
    return true;
}

// advance moves the generator odometer one step (last GENERATE fastest), as Catch2 does.
void
advance(cs::RunState& s) {
    for (size_t i = s.generators.size(); i-- > 0;) {
        if (s.generators[i].index + 1 < s.generators[i].size) {
            ++s.generators[i].index;
            s.generators.resize(i + 1);
            return;
        }
    }
}

// run_case runs one test case through every generator value and every leaf section.
// It returns 0 pass, 1 skip, 2 fail and fills `why` with the first reason.
int
run_case(cs::TestCase const& tc, std::string& why) {
    cs::RunState s;
    cs::state() = &s;
    int verdict = 0;
    for (int guard = 0; guard < 100000; ++guard) {
        s.root                  = cs::SectionNode{};
        s.current               = &s.root;
        bool sections_left      = true;
        while (sections_left) {
            s.current             = &s.root;
            s.root.entered_a_kid  = false;
            s.generator_cursor    = 0;
            s.info.clear();
            try {
                tc.fn();
            } catch (cs::Skipped const& e) {
                cs::state() = nullptr;
                why = e.message.empty() ? "skipped" : e.message;
                return verdict == 2 ? 2 : 1;
            } catch (cs::Failure const& e) {
                if (verdict != 2) why = e.message;
                verdict = 2;
            } catch (...) {
                if (verdict != 2) why = "unexpected " + cs::describe(std::current_exception());
                verdict = 2;
            }
            if (!s.failures.empty() && verdict != 2) {
                why     = s.failures.front();
                verdict = 2;
            }
            bool all = true;
            for (auto& k : s.root.kids) all = all && k->done;
            sections_left = !all && !s.root.kids.empty();
        }
        if (all_generators_done(s)) break;
        advance(s);
    }
    cs::state() = nullptr;
    return verdict;
}

std::string
one_line(std::string s) {
    for (auto& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    return s;
}

}  // namespace

int
main(int argc, char** argv) {
    std::vector<std::string> filters;
    std::string file;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--list") == 0) {
            list = true;
        } else if (std::strcmp(argv[i], "--file") == 0 && i + 1 < argc) {
            file = argv[++i];
        } else {
            filters.emplace_back(argv[i]);
        }
    }
    int failed = 0, ran = 0;
    for (auto const& tc : cs::registry()) {
        if (!selected(tc, filters)) continue;
        if (!file.empty() && (tc.file.size() < file.size() || tc.file.compare(tc.file.size() - file.size(), file.size(), file) != 0))
            continue;
        if (list) {
            std::printf("%s\n", tc.name.c_str());
            continue;
        }
        ++ran;
        std::string why;
        std::fflush(stdout);
        int v = run_case(tc, why);
        if (v == 0) std::printf("PASS %s\n", tc.name.c_str());
        if (v == 1) std::printf("SKIP %s :: %s\n", tc.name.c_str(), one_line(why).c_str());
        if (v == 2) {
            std::printf("FAIL %s :: %s\n", tc.name.c_str(), one_line(why).c_str());
            ++failed;
        }
        std::fflush(stdout);
    }
    if (!list && ran == 0 && !filters.empty()) {
        std::fprintf(stderr, "no test case matches the selection\n");
        return 2;
    }
    return failed ? 1 : 0;
}

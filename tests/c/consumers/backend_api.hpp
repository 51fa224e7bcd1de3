// The backend's functions as a table of pointers, one per function of the installed header
// (header_functions.h is generated from it), and the conv -> bias -> ReLU check every consumer
// test runs through such a table.
#pragma once

#include <string>
#include <vector>

#include <hipdnn_backend.h>

#include "header_functions.h"

struct BackendApi {
#define X(name) decltype(&::name) name = nullptr;
    HIPDNN_HEADER_FUNCTIONS(X)
#undef X
};

// Fills api from lib with dlsym; returns the names that did not resolve.
std::vector<std::string> resolveAll(void* lib, BackendApi& api);

// Builds conv -> bias -> ReLU with the descriptor API, plans it on the CPU reference engine
// through the heuristic, executes it on host buffers and checks every output element against a
// double loop. Prints what failed (prefixed with who) and returns false on any failure.
bool runConvBiasRelu(const BackendApi& api, const char* who);

// The path of the loaded object that defines fn (dladdr), or "" when none does.
std::string loadedFrom(const void* fn);

#!/usr/bin/env bash
# run_samples.sh - build NVIDIA's cudnn-frontend samples/cpp unchanged against the cuDNN shim of a
# staged hipdnn_backend install, run every test case, and write per-file and per-case tables.
#
#   tests/shim/samples/run_samples.sh --src DIR [--stage DIR] [--out DIR] [--jobs N] [--reuse]
#                                     [--cuda] [--cuda-home DIR] [--timeout S] [--only REGEX]
#
#   --src DIR     a cudnn-frontend checkout (or any folder holding samples/cpp); default
#                 $CUDNN_FRONTEND_SRC
#   --stage DIR   the staged install (include/, lib/); default build/stage of this repository
#   --out DIR     where binaries, logs and tables go; default build/shim-samples (-cuda with --cuda)
#   --jobs N      parallel compiles and test-case runs (default 2)
#   --reuse       keep binaries built by an earlier run when newer than their source
#   --cuda        real CUDA headers and libcudart (CUDA_HOME or /usr/local/cuda) instead of the
#                 host-memory stand-ins in tests/shim/fake_cuda: the GPU run
#   --timeout S   per test case (default 300)
#   --only REGEX  only sample files whose path (e.g. norm/layernorm.cpp) matches
#
# Only the include path is repointed (plus upstream's forced include of cudnn_frontend.h, its
# precompiled header): <cudnn_frontend.h> and <cudnn.h> are the shim's,
# <catch2/...> is tests/shim/samples/catch2 (a minimal Catch2 v3 stand-in). Each test case runs
# in its own process (a crash or timeout costs one case), with the frontend log on; a failure's
# reason is the last error the frontend logged before the case stopped (the one its failed check
# saw; a sample may provoke errors it expects earlier), else the stand-in's failed check.
# Outputs: samples_cases.tsv, samples_files.tsv, samples.md in --out. Exit 1 if any file failed
# to compile or any case failed, crashed or timed out.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
src="${CUDNN_FRONTEND_SRC:-}"
stage="$repo/build/stage"
out=""
jobs=2
reuse=0
cuda=0
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
timeout_s=300
only=""

while [ $# -gt 0 ]; do
    case "$1" in
        --src) src="$2"; shift 2 ;;
        --stage) stage="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --reuse) reuse=1; shift ;;
        --cuda) cuda=1; shift ;;
        --cuda-home) cuda_home="$2"; shift 2 ;;
        --timeout) timeout_s="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "run_samples.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

[ -n "$src" ] || { echo "run_samples.sh: give --src DIR or CUDNN_FRONTEND_SRC" >&2; exit 2; }
samples="$src/samples/cpp"
[ -d "$samples" ] || samples="$src"  # a folder that is samples/cpp itself
[ -f "$samples/utils/helpers.h" ] || { echo "run_samples.sh: no samples/cpp/utils/helpers.h under $src" >&2; exit 2; }
[ -f "$stage/include/hipdnn_compatibility/cudnn/cudnn_frontend.h" ] || {
    echo "run_samples.sh: $stage is not a staged install with the shim (make stage)" >&2; exit 2; }
[ -n "$out" ] || out="$repo/build/shim-samples$([ $cuda = 1 ] && echo -cuda)"
stage="$(cd "$stage" && pwd)"
mkdir -p "$out/bin" "$out/logs" "$out/cases"
out="$(cd "$out" && pwd)"

CXX="${CXX:-g++}"
# set_flags fills cxxflags and ldflags from the options (workers call it again: arrays do not
# cross processes).
set_flags() {
    # Upstream's samples build force-includes cudnn_frontend.h (its _cudnn_frontend_pch
    # precompiled header), and utils/helpers.h relies on that; -include does the same. Warnings
    # are upstream's set without -Werror.
    cxxflags=(-std=c++17 -O1 -Wall -Wextra -Wno-unused-function -I "$here/catch2"
              -I "$stage/include/hipdnn_compatibility/cudnn" -I "$stage/include" -include cudnn_frontend.h)
    ldflags=(-L "$stage/lib" -Wl,-rpath,"$stage/lib" -lhipdnn_backend -lpthread)
    if [ "$cuda" = 1 ]; then
        cxxflags+=(-I "$cuda_home/include")
        ldflags+=(-L "$cuda_home/lib64" -Wl,-rpath,"$cuda_home/lib64" -lcudart)
    else
        cxxflags+=(-I "$repo/tests/shim/fake_cuda")
    fi
}
set_flags

# The stand-in's runner, compiled once per run.
main_obj="$out/bin/catch_main.o"
if [ $reuse = 0 ] || [ ! -f "$main_obj" ] || [ "$here/catch2/catch_main.cpp" -nt "$main_obj" ]; then
    "$CXX" "${cxxflags[@]}" -c "$here/catch2/catch_main.cpp" -o "$main_obj" || exit 1
fi

mapfile -t files < <(cd "$samples" && find . -name '*.cpp' | sed 's|^\./||' | LC_ALL=C sort)
if [ -n "$only" ]; then
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -E "$only")
fi
key() { echo "${1%.cpp}" | tr '/' '_'; }

# Each sample compiles to an object; its program links that object and the stand-in's runner.
# A few samples call helpers defined in another sample file (upstream links every sample into
# one program): those also link the objects that define what they miss, and run only their own
# cases (--file).
compile_one() {
    local f="$1" k obj log
    k="$(key "$f")"; obj="$out/obj/$k.o"; log="$out/logs/$k.compile.log"
    if [ $reuse = 1 ] && [ -f "$obj" ] && [ "$obj" -nt "$samples/$f" ]; then return 0; fi
    rm -f "$obj" "$out/bin/$k"
    "$CXX" "${cxxflags[@]}" -c "$samples/$f" -o "$obj" >"$log" 2>&1
}

link_one() {
    local f="$1" k obj bin log extra=() sym o
    k="$(key "$f")"; obj="$out/obj/$k.o"; bin="$out/bin/$k"; log="$out/logs/$k.compile.log"
    [ -f "$obj" ] || return 1
    if [ $reuse = 1 ] && [ -x "$bin" ] && [ "$bin" -nt "$obj" ]; then return 0; fi
    for sym in $(nm -u "$obj" | awk '{print $2}' | grep -E '^_Z[0-9]' | sort -u); do
        for o in "$out"/obj/*.o; do
            [ "$o" = "$obj" ] && continue
            if nm --defined-only "$o" 2>/dev/null | awk '$2 == "T" {print $3}' | grep -qxF "$sym"; then
                case " ${extra[*]} " in *" $o "*) ;; *) extra+=("$o") ;; esac
                break
            fi
        done
    done
    "$CXX" "$obj" "${extra[@]}" "$main_obj" "${ldflags[@]}" -o "$bin" >>"$log" 2>&1
}
export -f compile_one link_one key set_flags
export out samples reuse CXX main_obj here repo stage cuda cuda_home
mkdir -p "$out/obj"
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} bash -c 'set_flags; compile_one "$1"' _ {}
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} bash -c 'set_flags; link_one "$1"' _ {}

# Cases that are benchmarks at GPU scale: on the CPU engines they are reported as skipped by
# the runner, with why, instead of being run (on --cuda runs they run).
long_case_reason() {
    case "$1" in
        "Convolution fprop large")
            echo "runner: long benchmark on the CPU (3-D conv of 2.2 G outputs x 3456 MACs = 7.5 T MACs on 8.6 GB of fp16 tensors)" ;;
        "Toy sdpa forward with paged caches")
            echo "runner: long benchmark on the CPU (1000 timed runs of each of 48 paged decode shapes, b up to 8 and s_kv up to 32768: 9.5 T FLOP)" ;;
    esac
}

# Each case in its own process, with the frontend log on (its ERROR lines give the reason).
run_case() {
    local k="$1" i="$2" name log rc line
    name="$(sed -n "${i}p" "$out/cases/$k.list")"
    log="$out/logs/$k.$i.log"
    local long
    long="$(long_case_reason "$name")"
    if [ "$cuda" != 1 ] && [ -n "$long" ]; then
        printf '%s\t%s\tSKIP\t0\t%s\n' "$k" "$name" "$long" >"$out/cases/$k.$i.result"
        return
    fi
    local t0=$SECONDS
    CUDNN_FRONTEND_LOG_INFO=1 CUDNN_FRONTEND_LOG_FILE=stderr CATCH_STANDIN_SKIP_BENCHMARKS="${CATCH_STANDIN_SKIP_BENCHMARKS:-0}" \
        timeout -k 10 "$timeout_s" "$out/bin/$k" --file "$(cat "$out/cases/$k.file")" "$name" >"$log" 2>&1
    rc=$?
    local secs=$((SECONDS - t0))
    line="$(grep -m1 -E '^(PASS|SKIP|FAIL) ' "$log")"
    local status reason=""
    case "$line" in
        PASS*) status=PASS ;;
        SKIP*) status=SKIP; reason="${line#* :: }" ;;
        FAIL*) status=FAIL
               reason="$(last_error "$log" | sed 's/.*ERROR: //')"
               [ -n "$reason" ] || reason="${line#* :: }" ;;
        *) if [ $rc = 124 ] || [ $rc = 137 ]; then status=TIMEOUT; reason="no result after ${timeout_s} s"
           else status=CRASH
                reason="exit $rc$([ $rc -gt 128 ] && echo " (signal $((rc - 128)))"): $(grep -m1 -iE 'error|terminate|assert|abort|fault|what\(\)' "$log")"
           fi ;;
    esac
    # Refusals are counted apart from real failures: STUB when the shim declares but does not
    # lower what the case needs (Tier-2), NOSUP when hipDNN's engines or backend refused it.
    if [ $status = FAIL ]; then
        last="$(last_error "$log")"
        if printf '%s' "$last" | grep -qE 'Tier-2 stub|by the shim yet|CUDA-only'; then status=STUB
        elif printf '%s' "$last" | grep -qE 'ERROR: (GRAPH_NOT_SUPPORTED|GRAPH_EXECUTION_PLAN_CREATION_FAILED|HEURISTIC_QUERY_FAILED)'; then status=NOSUP
        fi
    fi
    reason="$(printf '%s' "$reason" | tr '\t\r\n' '   ' | cut -c1-400)"
    printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$name" "$status" "$secs" "$reason" >"$out/cases/$k.$i.result"
}
# last_error prints the last error object the frontend logged before the stand-in's verdict line
# ("ERROR: CODE: message"; the "ERROR: expr at file:line" lines that follow it trace its way up).
last_error() {
    sed -n '/^\(PASS\|SKIP\|FAIL\) /q;p' "$1" | grep -E 'ERROR: [A-Z][A-Z_]+: ' | tail -n 1
}

export -f run_case long_case_reason last_error
export timeout_s

rm -f "$out"/cases/*.result
: >"$out/cases/all.queue"
for f in "${files[@]}"; do
    k="$(key "$f")"
    if [ -x "$out/bin/$k" ]; then
        echo "$f" >"$out/cases/$k.file"
        "$out/bin/$k" --file "$f" --list >"$out/cases/$k.list" 2>/dev/null || true
        n=$(wc -l <"$out/cases/$k.list")
        for ((i = 1; i <= n; i++)); do echo "$k $i" >>"$out/cases/all.queue"; done
    fi
done
xargs -P "$jobs" -L1 bash -c 'run_case "$1" "$2"' _ <"$out/cases/all.queue"

# Tables.
cases_tsv="$out/samples_cases.tsv"; files_tsv="$out/samples_files.tsv"; md="$out/samples.md"
printf 'file\tcase\tstatus\tseconds\treason\n' >"$cases_tsv"
printf 'file\tcompiles\tcases\tpass\tskip\tstub\tnosup\tfail\treason\n' >"$files_tsv"
{
    echo "| file | compiles | cases | pass | skip | stub | no support | fail | reasons (first error) |"
    echo "|---|---|---|---|---|---|---|---|---|"
} >"$md"
bad=0; T_files=0; T_comp=0; T_cases=0; T_pass=0; T_skip=0; T_stub=0; T_nosup=0; T_fail=0
for f in "${files[@]}"; do
    k="$(key "$f")"; T_files=$((T_files + 1))
    if [ ! -x "$out/bin/$k" ]; then
        why="$(grep -m1 -E 'error|undefined reference' "$out/logs/$k.compile.log" | tr '\t|' '  ' | cut -c1-300)"
        printf '%s\tno\t0\t0\t0\t0\t0\t0\t%s\n' "$f" "$why" >>"$files_tsv"
        echo "| $f | **no** | | | | | | | $why |" >>"$md"
        bad=1; continue
    fi
    T_comp=$((T_comp + 1))
    n=$(wc -l <"$out/cases/$k.list"); p=0; s=0; st=0; ns=0; fl=0; reasons=""
    for ((i = 1; i <= n; i++)); do
        r="$out/cases/$k.$i.result"
        [ -f "$r" ] || continue
        cat "$r" | sed "s|^$k\t|$f\t|" >>"$cases_tsv"
        IFS=$'\t' read -r _ name status _ reason <"$r"
        case "$status" in
            PASS) p=$((p + 1)) ;;
            SKIP) s=$((s + 1)) ;;
            STUB) st=$((st + 1)); reasons+="${name}: stub: ${reason}; " ;;
            NOSUP) ns=$((ns + 1)); reasons+="${name}: no support: ${reason}; " ;;
            *) fl=$((fl + 1)); bad=1; reasons+="${name}: ${status}: ${reason}; " ;;
        esac
    done
    T_cases=$((T_cases + n)); T_pass=$((T_pass + p)); T_skip=$((T_skip + s)); T_stub=$((T_stub + st))
    T_nosup=$((T_nosup + ns)); T_fail=$((T_fail + fl))
    reasons="$(printf '%s' "$reasons" | tr '|\t' '/ ')"
    printf '%s\tyes\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$n" "$p" "$s" "$st" "$ns" "$fl" "$reasons" >>"$files_tsv"
    echo "| $f | yes | $n | $p | $s | $st | $ns | $fl | $reasons |" >>"$md"
done
echo "| **total** | $T_comp / $T_files | $T_cases | $T_pass | $T_skip | $T_stub | $T_nosup | $T_fail | |" >>"$md"
echo "files compiling: $T_comp / $T_files; cases: $T_cases (pass $T_pass, skip $T_skip, stub $T_stub, no support $T_nosup, fail $T_fail)"
echo "tables: $md, $files_tsv, $cases_tsv"
exit $bad

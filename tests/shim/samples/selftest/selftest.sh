#!/usr/bin/env bash
# selftest.sh BIN - runs the Catch2 stand-in's self-test and compares each verdict line with
# what the stand-in must report (run_samples.sh parses these lines).
set -u
bin="$1"
want='PASS passes
FAIL require fails with values :: REQUIRE(a == 5) failed at standin_selftest.cpp:26 with 2 == 5 [info: a is 2]
FAIL check fails but continues :: CHECK(1 == 2) failed at standin_selftest.cpp:30
SKIP skips :: needs 42
FAIL fail macro :: FAIL at standin_selftest.cpp:40: explicit 1
FAIL throws :: unexpected exception: boom
PASS sections
PASS sections result
PASS generators
PASS generators result
PASS benchmarks run once'
got="$(CATCH_STANDIN_SKIP_BENCHMARKS=0 "$bin" 2>/dev/null)"
rc=$?
[ "$got" = "$want" ] || { echo "verdicts differ:"; diff <(echo "$want") <(echo "$got"); exit 1; }
[ $rc = 1 ] || { echo "exit status $rc, want 1 (some cases fail)"; exit 1; }
# Listing and selection by name and by tag.
[ "$("$bin" --list | wc -l)" = 11 ] || { echo "--list"; exit 1; }
[ "$("$bin" skips)" = "SKIP skips :: needs 42" ] || { echo "select by name"; exit 1; }
[ "$("$bin" '[good]' 2>/dev/null | grep -c '^PASS')" = 6 ] || { echo "select by tag"; exit 1; }
"$bin" '[good]' >/dev/null 2>&1 || { echo "exit status of passing cases"; exit 1; }
"$bin" 'no such case' >/dev/null 2>&1; [ $? = 2 ] || { echo "unknown selection"; exit 1; }
# --file keeps the cases of one source (programs that link several sample files).
[ "$("$bin" --file selftest/standin_selftest.cpp --list | wc -l)" = 11 ] || { echo "--file"; exit 1; }
[ -z "$("$bin" --file other.cpp --list)" ] || { echo "--file of another source"; exit 1; }
echo "catch2 stand-in self-test: ok"

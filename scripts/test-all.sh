#!/usr/bin/env bash
# `make test` after the lints: every step of the suite, in two phases so that both cores
# stay busy and the timing tests still run on a quiet machine.
#
# 1. Side by side, three lanes:
#    - the release build, the Rust tests in release with the ignored ones, the same with the
#      SIMD capped at AVX2, the fuzz targets;
#    - the Rust tests in the dev profile, the Rust tests built for i686, the benches'
#      cross-checks (on the release build's dependencies, in target/release: should the
#      first lane still be building there, cargo's lock has one wait for the other);
#    - the UCI fault checks' faulty runs (load only makes a faulty engine fail sooner).
# 2. One after the other, nothing else running: the UCI tests, the fault checks' baseline
#    (the same tests on the engine with no fault, which must pass), the UCI tests on the
#    i686 binary, the report drawn from docs/data.
#
# Each step writes its output to target/test-logs/STEP.log and prints it whole when it ends
# (one step's log at a time), with `STEP: ok in N s` into target/test-steps.log for the
# summary. Every step runs even when another failed; the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
logs=target/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log target/test-steps.log "${CCR_SIMD_SKIP_LOG:-target/simd-skips.log}"

# step NAME COMMAND…: runs COMMAND through scripts/test-step.sh into the step's log, then
# prints the log under a lock so that lanes ending together do not interleave.
step() {
    local name="$1"
    shift
    local slug
    slug=$(printf '%s' "$name" | tr -cs 'A-Za-z0-9' '-' | sed 's/-$//')
    local log="$logs/$slug.log"
    bash scripts/test-step.sh "$name" "$@" >"$log" 2>&1
    local status=$?
    (
        flock 9
        echo "== $name (log: $log)"
        cat "$log"
    ) 9>"$logs/.print"
    return "$status"
}

# lane STEP…: the steps one after another (each a quoted "NAME|COMMAND"), all of them run;
# fails if any failed.
lane() {
    local failed=0 spec
    for spec in "$@"; do
        # shellcheck disable=SC2086 # the command's words
        step "${spec%%|*}" ${spec#*|} || failed=1
    done
    return "$failed"
}

m="$MAKE --no-print-directory"
started=$(date +%s)

lane "release build|$m build" \
    "rust tests (release, with the ignored ones)|cargo test --release --workspace -- --include-ignored" \
    "rust tests with the SIMD capped at AVX2|$m test-avx2" \
    "fuzz targets|$m test-fuzz" &
release=$!
lane "rust tests (debug)|$m test-debug" \
    "rust tests (i686)|$m test32" \
    "bench cross-checks|$m test-benches" &
debug=$!
lane "uci fault checks (faults injected)|python3 -B tests/uci/check_faults.py --faults" &
faults=$!

failed=0
wait "$release" || failed=1
wait "$debug" || failed=1
wait "$faults" || failed=1
echo "== phase 1 (side by side) done in $(($(date +%s) - started)) s"

lane "uci tests|$m test-uci" \
    "uci fault checks (no fault)|python3 -B tests/uci/check_faults.py --baseline" \
    "uci tests (i686)|$m test-uci32" \
    "report drawn from docs/data|$m report-check" || failed=1
echo "== every step done in $(($(date +%s) - started)) s"
exit "$failed"

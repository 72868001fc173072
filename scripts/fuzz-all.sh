#!/usr/bin/env bash
# Builds every fuzz target that fuzz/Cargo.toml declares (`cargo fuzz list`, so a target
# added there is picked up) and runs each for FUZZ_SECONDS (default 25) with scripts/fuzz.sh;
# `make test` runs this. The targets run FUZZ_JOBS at a time (default: one per core), each a
# single libFuzzer process with a core of its own, and each one's output is printed whole
# when it ends. Fails if any target found a crash (its input lands in
# fuzz/artifacts/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-fuzz.sh
seconds="${FUZZ_SECONDS:-25}"
jobs="${FUZZ_JOBS:-$(nproc)}"
targets=$(cd fuzz && cargo fuzz list)
if [ -z "$targets" ]; then
    echo "error: fuzz/Cargo.toml declares no fuzz target" >&2
    exit 1
fi
# Built once, all together, with the flags scripts/fuzz.sh runs them with, so that the runs
# side by side start fuzzing at once instead of waiting on each other's build.
echo "fuzz: building $(echo $targets)"
RUSTC_BOOTSTRAP=1 cargo fuzz build --debug-assertions

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# run TARGET: one target's run into its log, then the log, whole.
run() {
    local status=0
    echo "fuzz: target $1 for $seconds s" >"$logs/$1.log"
    FUZZ_TARGET="$1" FUZZ_SECONDS="$seconds" bash scripts/fuzz.sh >>"$logs/$1.log" 2>&1 || status=$?
    (
        flock 9
        cat "$logs/$1.log"
        [ "$status" -eq 0 ] || echo "fuzz: target $1 failed (exit status $status)"
    ) 9>"$logs/.print"
    return "$status"
}

failed=()
running=()
names=()
for target in $targets; do
    if [ "${#running[@]}" -ge "$jobs" ]; then
        wait "${running[0]}" || failed+=("${names[0]}")
        running=("${running[@]:1}")
        names=("${names[@]:1}")
    fi
    run "$target" &
    running+=($!)
    names+=("$target")
done
for i in "${!running[@]}"; do
    wait "${running[$i]}" || failed+=("${names[$i]}")
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: ${failed[*]} found a crash or failed"
    exit 1
fi
echo "fuzz: every target ran $seconds s without a crash: $(echo $targets)"

#!/usr/bin/env bash
# Builds every fuzz target that fuzz/Cargo.toml declares (`cargo fuzz list`, so a target
# added there is picked up) and runs each for FUZZ_SECONDS (default 25) with scripts/fuzz.sh;
# `make test` runs this. Stops at the first target that finds a crash (its input lands in
# fuzz/artifacts/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-fuzz.sh
seconds="${FUZZ_SECONDS:-25}"
targets=$(cd fuzz && cargo fuzz list)
if [ -z "$targets" ]; then
    echo "error: fuzz/Cargo.toml declares no fuzz target" >&2
    exit 1
fi
for target in $targets; do
    echo "fuzz: target $target for $seconds s"
    FUZZ_TARGET="$target" FUZZ_SECONDS="$seconds" bash scripts/fuzz.sh
done
echo "fuzz: every target ran $seconds s without a crash: $(echo $targets)"

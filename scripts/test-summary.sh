#!/usr/bin/env bash
# The end of `make test`: each step and its time, the SIMD tiers this CPU has, and every test
# that could not run a tier (the lines the Rust tests wrote to CCR_SIMD_SKIP_LOG).
set -euo pipefail
cd "$(dirname "$0")/.."

log="${CCR_SIMD_SKIP_LOG:-target/simd-skips.log}"
echo "== make test summary"
if [ -f target/test-steps.log ]; then
    cat target/test-steps.log
fi
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { case " ${flags#*:} " in *" $1 "*) echo yes ;; *) echo no ;; esac; }
echo "SIMD tiers of this CPU: ssse3 $(has ssse3), avx2 $(has avx2), avx512 $(has avx512f)"
if [ -s "$log" ]; then
    echo "SIMD tiers NOT tested here ($(sort -u "$log" | wc -l) skips; CCR_REQUIRE_SIMD=TIER makes them fail):"
    sort -u "$log" | sed 's/^/  /'
else
    echo "SIMD tiers: every tier was tested"
fi

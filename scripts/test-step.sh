#!/usr/bin/env bash
# One step of `make test`: runs the command after NAME, and appends `NAME: ok in N s` (or
# FAILED) to target/test-steps.log for scripts/test-summary.sh. Exits with the command's status.
set -uo pipefail
name="$1"
shift
mkdir -p target
start=$(date +%s)
echo "== $name: $*"
"$@"
status=$?
took=$(($(date +%s) - start))
if [ "$status" -eq 0 ]; then
    echo "$name: ok in $took s" >>target/test-steps.log
else
    echo "$name: FAILED (exit status $status) after $took s" | tee -a target/test-steps.log
fi
exit "$status"

#!/usr/bin/env bash
# Installs cargo-fuzz (the fuzz targets' runner, with libFuzzer) if it is missing. Idempotent:
# a second run only asks `cargo fuzz --version`.
set -euo pipefail

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

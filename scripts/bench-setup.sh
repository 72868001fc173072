#!/usr/bin/env bash
# Installs what `make bench` needs beyond `make setup`, idempotently: valgrind and the
# iai-callgrind runner at exactly the version of the iai-callgrind library pinned in
# Cargo.toml (the library refuses to run with any other runner version).
set -euo pipefail
cd "$(dirname "$0")/.."

IAI_VERSION=0.16.1

if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo not found; install Rust (rustup) first" >&2
    exit 1
fi

if ! command -v valgrind >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
        $SUDO apt-get update
        $SUDO apt-get install -y valgrind
    else
        echo "error: valgrind not found and apt-get is not available; install valgrind" >&2
        exit 1
    fi
fi

# The runner has no usable `--version` (it expects to be started by the library and only prints a
# version mismatch error), so ask cargo which version it installed.
if command -v iai-callgrind-runner >/dev/null 2>&1 \
    && cargo install --list | grep -qx "iai-callgrind-runner v$IAI_VERSION:"; then
    :
else
    echo "installing iai-callgrind-runner $IAI_VERSION"
    cargo install iai-callgrind-runner --version "$IAI_VERSION" --locked
fi

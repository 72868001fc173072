#!/usr/bin/env bash
# Installs what `make report` needs to draw docs/plots/: matplotlib, at exactly the version that
# drew the committed plots (MATPLOTLIB_VERSION), for the python3 on PATH, with pip. The plots
# are SVG that `make report-check` compares byte for byte, and another matplotlib version draws
# other bytes. Debian's own python3 is "externally managed" (PEP 668): pip is given leave to
# install there (and python3-pip is installed with apt when it is missing).
# Idempotent: a second run only checks. Errors: one line `error: …`, exit 1.
set -euo pipefail

MATPLOTLIB_VERSION=3.11.2

die() {
    echo "error: $*" >&2
    exit 1
}

have() {
    python3 -c "import matplotlib, sys; sys.exit(matplotlib.__version__ != '$MATPLOTLIB_VERSION')" >/dev/null 2>&1
}

command -v python3 >/dev/null 2>&1 || die "python3 not found on PATH"
have && exit 0
py=$(readlink -f "$(command -v python3)")
echo "setup-report: installing matplotlib $MATPLOTLIB_VERSION for $py with pip"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" "matplotlib==$MATPLOTLIB_VERSION" >"$log" 2>&1
}
if ! pip_install; then
    if grep -q "No module named pip" "$log" && [[ $py == /usr/bin/* ]]; then
        echo "setup-report: apt-get install python3-pip (Debian's python3 has no pip)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null 2>&1 \
            || die "apt-get install python3-pip failed (for $py)"
        pip_install || true
    fi
    if ! have && grep -q "externally-managed" "$log"; then
        pip_install --break-system-packages || true
    fi
fi
have || die "matplotlib $MATPLOTLIB_VERSION not importable by $py after pip install: $(grep -v '^\s*$' "$log" | tail -1)"
echo "setup-report: matplotlib $MATPLOTLIB_VERSION"

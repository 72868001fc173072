#!/usr/bin/env bash
# Installs what `make report` needs to draw docs/plots/: matplotlib for the python3 on PATH
# (Debian's python3-matplotlib, 3.6 on bookworm; pip's where python3 is not Debian's).
# Idempotent: a second run only checks. Root on Debian. Errors: one line `error: …`, exit 1.
set -euo pipefail

die() {
    echo "error: $*" >&2
    exit 1
}

command -v python3 >/dev/null 2>&1 || die "python3 not found on PATH"
python3 -c 'import matplotlib' >/dev/null 2>&1 && exit 0
py=$(readlink -f "$(command -v python3)")
if [[ $py == /usr/bin/* ]]; then
    echo "setup-report: installing Debian's python3-matplotlib"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-matplotlib >/dev/null 2>&1; then
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-matplotlib >/dev/null 2>&1 \
            || die "apt-get install python3-matplotlib failed"
    fi
else
    echo "setup-report: installing matplotlib for $py with pip"
    python3 -m pip install --quiet --disable-pip-version-check matplotlib >/dev/null 2>&1 \
        || die "pip install matplotlib failed (for $py)"
fi
python3 -c 'import matplotlib' >/dev/null 2>&1 || die "matplotlib still not importable by $py"
echo "setup-report: matplotlib $(python3 -c 'import matplotlib; print(matplotlib.__version__)')"

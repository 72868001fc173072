#!/usr/bin/env bash
# Installs what the UCI tests (tests/uci/) and the strength matches (scripts/match.py) need:
# python-chess for the python3 on PATH, Debian's chess engines and PolyGlot (the UCI-to-xboard
# adapter; they land in /usr/games, which is not on PATH: the tests and scripts use absolute
# paths).
# Idempotent: every step checks first, so a second run takes a fraction of a second.
# Run as root on Debian (bookworm). Errors are one line `error: …` on stderr, exit status 1.
set -euo pipefail

PYTHON_CHESS_VERSION=1.11.2
ENGINES=(fairymax phalanx sjeng glaurung gnuchess toga2 stockfish ethereal-chess polyglot)
# apt lists older than this (seconds) are refreshed before an install.
LISTS_MAX_AGE=$((24 * 3600))

die() {
    echo "error: $*" >&2
    exit 1
}

# --- python-chess -------------------------------------------------------------------------
command -v python3 >/dev/null 2>&1 || die "python3 not found on PATH"
if ! python3 -c 'import chess, chess.engine, chess.pgn' >/dev/null 2>&1; then
    py=$(command -v python3)
    echo "setup-uci: installing python-chess $PYTHON_CHESS_VERSION for $py"
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    pip_install() {
        python3 -m pip install --quiet --disable-pip-version-check "$@" \
            "chess==$PYTHON_CHESS_VERSION" >"$log" 2>&1
    }
    if ! pip_install; then
        if grep -q "No module named pip" "$log" && [[ $(readlink -f "$py") == /usr/bin/* ]]; then
            # Debian's own python3 without pip.
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null 2>&1 \
                || die "apt-get install python3-pip failed (for $py)"
            pip_install || true
        fi
        # Debian's own python3 is "externally managed" (PEP 668): pip needs leave to install.
        if ! python3 -c 'import chess' >/dev/null 2>&1 && grep -q "externally-managed" "$log"; then
            pip_install --break-system-packages || true
        fi
        python3 -c 'import chess' >/dev/null 2>&1 \
            || die "pip install chess==$PYTHON_CHESS_VERSION failed for $py: $(grep -v '^\s*$' "$log" | tail -1)"
    fi
    python3 -c 'import chess, chess.engine, chess.pgn' >/dev/null 2>&1 \
        || die "python-chess installed but 'import chess' still fails for $py"
fi

# --- Debian engines -----------------------------------------------------------------------
missing=()
for pkg in "${ENGINES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [[ $status == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install ${missing[*]} by hand"
    [[ $(id -u) == 0 ]] || die "root needed to install ${missing[*]} (run: sudo bash $0)"
    export DEBIAN_FRONTEND=noninteractive
    # Refresh the package lists only when they are absent or stale.
    newest=$(find /var/lib/apt/lists -maxdepth 1 -type f -name '*_Packages*' \
        -printf '%T@\n' 2>/dev/null | sort -n | tail -1 | cut -d. -f1)
    now=$(date +%s)
    if [[ -z $newest ]] || ((now - newest > LISTS_MAX_AGE)); then
        echo "setup-uci: apt-get update"
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
    fi
    echo "setup-uci: apt-get install ${missing[*]}"
    if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
        # Lists that are fresh by date can still name versions the mirror dropped: refresh once.
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
            || die "apt-get install ${missing[*]} failed"
    fi
fi

# The engines' binaries, where the tests look for them.
for bin in "${ENGINES[@]}"; do
    [[ -x /usr/games/$bin ]] || die "/usr/games/$bin missing after install"
done

# --- test data: python-chess's Polyglot book and 3-4-piece Syzygy tables ---------------------
# python-chess's source distribution ships them for its own tests; they go to
# target/test-data/ (ignored by git), where the book and tablebase tests look for them.
DATA_DIR="$(cd "$(dirname "$0")/.." && pwd)/target/test-data"
if [[ ! -f $DATA_DIR/polyglot/performance.bin || ! -f $DATA_DIR/syzygy/KQvK.rtbw ]]; then
    echo "setup-uci: python-chess $PYTHON_CHESS_VERSION's test data (its source distribution, pip download) into $DATA_DIR"
    work=$(mktemp -d)
    trap 'rm -rf "$work"; rm -f "${log:-}"' EXIT
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
        --dest "$work" "chess==$PYTHON_CHESS_VERSION" >"$work/log" 2>&1 \
        || die "pip download chess==$PYTHON_CHESS_VERSION failed: $(grep -v '^\s*$' "$work/log" | tail -1)"
    tar -xzf "$work"/chess-*.tar.gz -C "$work" || die "cannot unpack python-chess's source distribution"
    src=$(echo "$work"/chess-*/data)
    [[ -f $src/polyglot/performance.bin && -f $src/syzygy/regular/KQvK.rtbw ]] \
        || die "python-chess's source distribution lacks data/polyglot/performance.bin or data/syzygy/regular"
    mkdir -p "$DATA_DIR/polyglot" "$DATA_DIR/syzygy"
    cp "$src/polyglot/performance.bin" "$DATA_DIR/polyglot/"
    cp "$src"/syzygy/regular/*.rtb[wz] "$DATA_DIR/syzygy/"
fi

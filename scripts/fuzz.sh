#!/usr/bin/env bash
# Fuzzes FEN parsing, to_fen and make on every accepted position (FUZZ_TARGET=fen,
# fuzz/fuzz_targets/fen.rs), every board representation against the C.C.R. on every
# accepted position (FUZZ_TARGET=representations), random games through every
# representation with keys and invariants checked after every move (FUZZ_TARGET=games) or
# the UCI command loop on sequences of command lines, one bestmove per go (FUZZ_TARGET=uci,
# fuzz/fuzz_targets/uci.rs) with cargo-fuzz and libFuzzer. Installs cargo-fuzz if it is
# missing.
#
#   FUZZ_SECONDS   how long to run (default 300)
#   FUZZ_TARGET    which target (default fen)
#   extra arguments go to libFuzzer, e.g. `bash scripts/fuzz.sh -jobs=4 -workers=4`
#
# Crashes land in fuzz/artifacts/<target>/; replay one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run -a <target> fuzz/artifacts/<target>/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-300}"
target="${FUZZ_TARGET:-fen}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# cargo fuzz passes nightly-only flags (-Zsanitizer=address, …); there is no nightly
# toolchain here, so let the stable compiler accept them.
export RUSTC_BOOTSTRAP=1

# Seed the corpus (gitignored): FEN targets with the standard positions and a few special
# cases, the games with a start of each kind and a few plies, the UCI loop with short
# sessions.
corpus="fuzz/corpus/$target"
mkdir -p "$corpus"
seed() {
    local name
    name="seed-$(printf '%s' "$1" | cksum | cut -d' ' -f1)"
    printf '%s' "$1" >"$corpus/$name"
}
if [[ $target == uci ]]; then
    seed $'uci\nisready\nposition startpos moves e2e4\ngo depth 3\n'
    seed $'go infinite\nstop\nposition startpos moves e2e4\ngo depth 2\n'
    seed $'go infinite\nstop\nsetoption name Hash value 2\nucinewgame\ngo nodes 100\nstop\n'
    seed $'go ponder\nponderhit\ngo infinite\ngo depth 1\nstop\nquit\n'
    seed $'setoption name Threads value 256\ngo wtime 100 btime 100\nstop\nstop\n'
    seed $'position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo\n\x00\x1b[2J\ngo searchmoves\n'
    seed $'setoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/RK5R w AH - 0 1 moves b1a1\ngo depth 2\n'
elif [[ $target == games ]]; then
    # A start position's byte, then one byte per move (no zero byte: bash strings end there).
    for start in 1 2 4 7 11 12 13 14; do
        seed "$(printf "\\$(printf %o "$start")")$(printf '\001\007\023\041\005\177\377\100')"
    done
else
    while IFS= read -r line; do
        case "$line" in '#'* | '') continue ;; esac
        fen="${line%%;*}"
        seed "${fen%"${fen##*[![:space:]]}"}"
    done <tests/data/standard-perft.epd
    seed "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    seed "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    seed "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"
    seed "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 37 112"
    seed "8/8/4k3/8/8/3K4/8/8 w - -"
    seed "4k3/8/8/8/8/8/8/4RK2 b - - 149 9999"
    seed "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3"
    # Chess960 setups: Shredder-FEN, X-FEN with an inner rook, king on its castling target.
    seed "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    seed "r1k3rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1"
    seed "4k3/8/8/8/8/8/8/R5KR w AH - 0 1"
fi

# Each target's own dictionary where it has one (fuzz/<target>.dict), else the FEN one; the
# games read bytes, not text, and take none.
dict=(-dict="fuzz/$target.dict")
[[ -f fuzz/$target.dict ]] || dict=(-dict=fuzz/fen.dict)
[[ $target == games ]] && dict=()
# UCI sessions need room for several commands from the start (libFuzzer would begin with
# inputs of a few dozen bytes and grow them slowly).
length=()
[[ $target == uci ]] && length=(-max_len=512 -len_control=0)

exec cargo fuzz run --debug-assertions "$target" "$corpus" -- \
    -max_total_time="$seconds" "${dict[@]}" -print_final_stats=1 "${length[@]}" "$@"

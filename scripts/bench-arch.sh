#!/usr/bin/env bash
# The 32-bit/64-bit measurement (docs/BENCHMARKS.md, "32-bit and 64-bit"): the same perft on
# x86_64 (rustup's cargo) and i686 (Debian's cargo, as `make build32`), for every
# representation x implementation of `ccr perft` and for the oracle crates (criterion,
# benches/movegen.rs), then one summary table (scripts/bench-report.py --arch).
#
# Usage: scripts/bench-arch.sh [OUT]   (default OUT: target/bench-arch; `make bench-arch`)
# Environment: RUNS (timed runs of each ccr combination, default 5), SKIP_BUILD=1 (reuse the
# binaries already in OUT), SKIP_TIMING=1, SKIP_CALLGRIND=1, SKIP_CRITERION=1 (reuse the
# earlier results of that step), CRITERION_ROUNDS (default 3), CRITERION_FROM=n (resume at
# round n).
#
# Every leaf is made (copy-make), over the six standard positions at the depths of
# benches/common/mod.rs `perft_depth()`. Why it is built this way:
# - The binaries are copied into OUT before anything runs, so a rebuild by someone else in the
#   shared target directory cannot change them halfway.
# - The two architectures' runs alternate (x86_64 then i686, then the other way round), so load
#   from other users of the machine falls on both alike; the load average is logged with
#   every run and the medians are taken over RUNS runs.
# - Instructions are counted by callgrind (valgrind's amd64 build runs the i686 binaries with
#   its x86 tools) at depth 3, where a run takes seconds: `ccr perft` minus its depth-1 run
#   (the start-up and the first use of its tables), and the crates through the criterion
#   binary in its test mode (one iteration of each selected benchmark, CCR_BENCH_DEPTH=3)
#   minus a run that selects nothing.
# - The crates' wall clock is criterion's, in rounds that alternate which architecture goes
#   first; each benchmark's median over the rounds is taken, as one round is at the mercy of
#   the load.
# - An implementation a binary does not offer (`--impl asm` before the assembly lands) is
#   recorded as such, and the summary shows its slot as pending: rerunning fills it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/bench-arch}
runs=${RUNS:-5}
mkdir -p "$out"
out=$(cd "$out" && pwd)

target32=i686-unknown-linux-gnu
# Where `make build32` builds (Debian's target directory, beside rustup's).
dir32=target/debian-rustc
# Debian's toolchain for i686, as the Makefile's CARGO32_RUN (rustup's has no i686 std here).
cargo32=(env RUSTC="${RUSTC32:-/usr/bin/rustc}" RUSTDOC="${RUSTDOC32:-/usr/bin/rustdoc}" "${CARGO32:-/usr/bin/cargo}")
reprs=(ccr x88 bitboard bitboard-native rotated)
impls=(portable simd asm)
archs=(x86_64 i686)
# Position, depth: benches/common/mod.rs `perft_depth()` (make every leaf).
declare -A depth=([startpos]=5 [kiwipete]=4 [position3]=5 [position4]=4 [position5]=4 [position6]=4)
positions=(startpos kiwipete position3 position4 position5 position6)
idepth=3
epd=tests/data/standard-perft.epd

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# The FEN and published count at a depth of the position named `id` in the EPD file.
fen_of() { grep ";id $1\$\|;id $1 " "$epd" | sed 's/ *;.*//'; }
count_of() { grep ";id $1\$\|;id $1 " "$epd" | tr ';' '\n' | awk -v d="D$2" '$1 == d { print $2 }'; }

# The path of a bench executable from cargo's JSON messages on stdin.
bench_exe() { python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "movegen":
        print(m["executable"])'; }

if [ "${SKIP_BUILD:-}" != 1 ]; then
    log "building x86_64 (rustup cargo) and i686 (Debian cargo)"
    make --no-print-directory build >&2
    make --no-print-directory build32 >&2
    cp target/release/ccr "$out/ccr-x86_64"
    cp $dir32/$target32/release/ccr "$out/ccr-i686"
    exe=$(cargo bench --features benches --bench movegen --no-run --message-format=json | bench_exe)
    cp "$exe" "$out/movegen-x86_64"
    exe=$("${cargo32[@]}" bench --target $target32 --target-dir $dir32 --features benches --bench movegen --no-run \
        --message-format=json | bench_exe)
    cp "$exe" "$out/movegen-i686"
fi
for a in "${archs[@]}"; do
    file "$out/ccr-$a" "$out/movegen-$a" | sed 's/, BuildID.*//' >&2
done

# Which representation x implementation combinations each binary offers.
: >"$out/combos.tsv"
for a in "${archs[@]}"; do
    for r in "${reprs[@]}"; do
        for i in "${impls[@]}"; do
            if msg=$("$out/ccr-$a" perft 1 --repr "$r" --impl "$i" 2>&1 >/dev/null); then
                printf '%s\t%s\t%s\tok\t\n' "$a" "$r" "$i" >>"$out/combos.tsv"
            else
                printf '%s\t%s\t%s\tno\t%s\n' "$a" "$r" "$i" "$msg" >>"$out/combos.tsv"
            fi
        done
    done
done
# The combinations either architecture offers (the assembly may land on one first).
mapfile -t combos < <(awk -F'\t' '$4 == "ok" { print $2 " " $3 }' "$out/combos.tsv" | sort -u)
offers() { grep -q "^$1	$2	$3	ok" "$out/combos.tsv"; }

# One timed run: arch repr impl position -> a line of perft.tsv. The time is the binary's own
# (stderr `time S s`), which leaves out process start-up and FEN parsing.
perft_run() {
    local a=$1 r=$2 i=$3 p=$4 run=$5 d=${depth[$4]} got secs
    got=$("$out/ccr-$a" perft "$d" --fen "$(fen_of "$p")" --repr "$r" --impl "$i" 2>"$out/stderr")
    got=${got##*Nodes searched: }
    [ "$got" = "$(count_of "$p" "$d")" ] || { log "MISMATCH $a $r $i $p d$d: $got"; exit 1; }
    secs=$(sed -n 's/^time \([0-9.]*\) s.*/\1/p' "$out/stderr")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$a" "$r" "$i" "$p" "$d" "$got" "$secs" "$run" \
        "$(load)" >>"$out/perft.tsv"
}

if [ "${SKIP_TIMING:-}" != 1 ]; then
    log "timing ${#combos[@]} combinations x 6 positions x ${#archs[@]} architectures, $runs runs; load $(load)"
    : >"$out/perft.tsv"
    for run in $(seq 1 "$runs"); do
        order=("${archs[@]}")
        [ $((run % 2)) = 0 ] && order=(i686 x86_64)
        for c in "${combos[@]}"; do
            read -r r i <<<"$c"
            for p in "${positions[@]}"; do
                for a in "${order[@]}"; do
                    if offers "$a" "$r" "$i"; then perft_run "$a" "$r" "$i" "$p" "$run"; fi
                done
            done
        done
        log "run $run done, load $(load)"
    done
fi

# Total instructions (callgrind's `Collected`) of a command. A process it forks before an exec
# (criterion probing for gnuplot) reports its own small count: the largest is the command's.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/^==[0-9]*== Collected : \([0-9]*\)/\1/p' | sort -n | tail -n 1
}

if [ "${SKIP_CALLGRIND:-}" != 1 ]; then
    log "callgrind: ccr perft at depth $idepth"
    : >"$out/instructions.tsv"
    for a in "${archs[@]}"; do
        for c in "${combos[@]}"; do
            read -r r i <<<"$c"
            offers "$a" "$r" "$i" || continue
            for p in "${positions[@]}"; do
                # Depth 1 of the same position and implementation is the baseline: start-up,
                # parsing and the first use of any table are in it, not per node.
                base=$(instructions "$out/ccr-$a" perft 1 --fen "$(fen_of "$p")" --repr "$r" --impl "$i")
                n=$(instructions "$out/ccr-$a" perft $idepth --fen "$(fen_of "$p")" --repr "$r" --impl "$i")
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$a" "$r" "$i" "$p" $idepth \
                    $(($(count_of "$p" $idepth) - $(count_of "$p" 1))) $((n - base)) >>"$out/instructions.tsv"
            done
        done
        log "callgrind: the crates on $a (criterion test mode, CCR_BENCH_DEPTH=$idepth)"
        for kind in perft_make perft_bulk; do
            # Every group's setup (positions, count checks of all engines) runs whatever the
            # filter: the run that selects no engine is what each engine's run subtracts.
            base=$(CRITERION_HOME="$out/criterion-test" CCR_BENCH_DEPTH=$idepth instructions "$out/movegen-$a" "^$kind/.*/none/")
            for e in ccr shakmaty cozy-chess chess; do
                n=$(CRITERION_HOME="$out/criterion-test" CCR_BENCH_DEPTH=$idepth instructions "$out/movegen-$a" "^$kind/.*/$e/")
                nodes=0
                for p in "${positions[@]}"; do nodes=$((nodes + $(count_of "$p" $idepth))); done
                printf '%s\tcrate:%s\t%s\tall\t%s\t%s\t%s\n' "$a" "$e" "$kind" $idepth "$nodes" \
                    $((n - base)) >>"$out/instructions.tsv"
            done
        done
    done
fi

if [ "${SKIP_CRITERION:-}" != 1 ]; then
    # Each round times every position's group (the four engines) on one architecture, then at
    # once on the other; the summary takes each benchmark's median over the rounds. One round
    # is about 9 minutes.
    rounds=${CRITERION_ROUNDS:-3}
    if [ "${CRITERION_FROM:-1}" = 1 ]; then : >"$out/criterion-load.tsv"; fi
    for round in $(seq "${CRITERION_FROM:-1}" "$rounds"); do
        order=("${archs[@]}")
        [ $((round % 2)) = 0 ] && order=(i686 x86_64)
        log "criterion round $round of $rounds: benches/movegen.rs perft_make and perft_bulk"
        for a in "${archs[@]}"; do
            rm -rf "$out/criterion-$a-$round"
            : >"$out/criterion-$a-$round.log"
        done
        for kind in perft_make perft_bulk; do
            for p in "${positions[@]}"; do
                for a in "${order[@]}"; do
                    printf '%s\t%s\t%s\t%s\t%s\n' "$a" "$round" "$kind" "$p" "$(load)" \
                        >>"$out/criterion-load.tsv"
                    CRITERION_HOME="$out/criterion-$a-$round" "$out/movegen-$a" --bench "^$kind/$p/" \
                        >>"$out/criterion-$a-$round.log" 2>&1
                done
            done
        done
        log "criterion round $round done, load $(load)"
    done
fi

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "commit: $(git rev-parse --short=10 HEAD)$(git diff --quiet HEAD -- src asm build.rs benches Cargo.toml || echo ' (with uncommitted changes)')"
    echo "x86_64: $(cargo --version), $(rustc --version)"
    echo "i686: $("${cargo32[@]}" --version), $("${RUSTC32:-/usr/bin/rustc}" --version)"
    echo "valgrind: $(valgrind --version)"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"
    echo "load at the end: $(load)"
} >"$out/machine.txt"
python3 scripts/bench-report.py --arch "$out" | tee "$out/summary.md"

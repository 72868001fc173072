#!/usr/bin/env python3
"""A whole bitboard engine's speed on x86_64 against i686, in interleaved rounds.

Usage: scripts/engine-arch-pairs.py [--rounds N] [--depth D] [--out FILE] KIND...

KIND is one of:
  stockfish-classical  Stockfish 15.1's `bench` with its hand-written evaluation
  stockfish-nnue       the same with its neural network
  glaurung             Glaurung 2.2 over UCI, one thread, 16 MiB, `go depth D` on each of
                       `ccr bench`'s 24 positions (src/bench.rs)

Debian's amd64 builds (/usr/games) against its i386 builds, which scripts/setup-engines32.sh
unpacks under target/engines32 (run it first). Both are Debian's generic builds for their
architecture. A round runs each engine on both architectures, in an order rotated from round
to round; a run's speed is the engine's own node count over its own time (Stockfish's `Nodes
searched` and `Total time (ms)`; Glaurung's last `info` line of each search). Prints each
round, the medians, and per KIND the median of the rounds' i686 / x86_64 ratios; with --out
writes every run as a TSV row after comment lines naming machine, commit and date.
Defaults: 5 rounds; depth 13 for Stockfish, 10 for Glaurung.
"""

import os
import re
import statistics
import subprocess
import sys

import pairs  # scripts/pairs.py

BINARIES = {
    "x86_64": "/usr/games",
    "i686": os.path.join(pairs.ROOT, "target", "engines32", "usr", "games"),
}
KINDS = ("stockfish-classical", "stockfish-nnue", "glaurung")


def bench_positions():
    """The FENs of `ccr bench`, read from src/bench.rs."""
    text = open(os.path.join(pairs.ROOT, "src", "bench.rs")).read()
    block = text[text.index("pub const POSITIONS"):]
    block = block[:block.index("];")]
    return re.findall(r'"([^"]+)"', block)


def stockfish(binary, depth, evaluation):
    run = subprocess.run([binary, "bench", "16", "1", str(depth), "default", "depth", evaluation],
                         capture_output=True, text=True, check=True, timeout=3600)
    nodes = int(re.search(r"Nodes searched\s*:\s*(\d+)", run.stderr).group(1))
    ms = int(re.search(r"Total time \(ms\)\s*:\s*(\d+)", run.stderr).group(1))
    return nodes, ms / 1000


def glaurung(binary, depth, fens):
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait(prefix):
        last = None
        for line in engine.stdout:
            if line.startswith("info") and " nodes " in line and " time " in line:
                last = line
            if line.startswith(prefix):
                return last
        raise RuntimeError(f"{binary} ended before {prefix!r}")

    send("uci")
    wait("uciok")
    send("setoption name Threads value 1")
    send("setoption name Hash value 16")
    nodes = ms = 0
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send("isready")
        wait("readyok")
        send(f"go depth {depth}")
        info = wait("bestmove")
        nodes += int(re.search(r" nodes (\d+)", info).group(1))
        ms += int(re.search(r" time (\d+)", info).group(1))
    send("quit")
    engine.wait(timeout=10)
    return nodes, ms / 1000


def run(kind, arch, depth, fens):
    folder = BINARIES[arch]
    if kind == "glaurung":
        return glaurung(os.path.join(folder, "glaurung"), depth or 10, fens)
    evaluation = "classical" if kind == "stockfish-classical" else "NNUE"
    return stockfish(os.path.join(folder, "stockfish"), depth or 13, evaluation)


def main():
    argv = sys.argv[1:]
    given = pairs.options(argv, __doc__)
    rounds, depth, out = given["rounds"], given["depth"], given["out"]
    if rounds is None:
        rounds = 5
    if not argv or any(k not in KINDS for k in argv):
        sys.exit(__doc__)
    for arch, folder in BINARIES.items():
        if not os.access(os.path.join(folder, "stockfish"), os.X_OK):
            sys.exit(f"error: no {arch} stockfish in {folder}; run scripts/setup-engines32.sh")
    fens = bench_positions()
    runs = [(kind, arch) for kind in argv for arch in BINARIES]
    rates = {r: [] for r in runs}
    rows, loads = [], []
    for r in range(rounds):
        for kind, arch in pairs.order(runs, r):
            nodes, seconds = run(kind, arch, depth, fens)
            rates[(kind, arch)].append(nodes / seconds / 1e6)
            rows.append((r + 1, kind, arch, nodes, seconds, nodes / seconds / 1e6))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}: " + " ".join(f"{k}/{a} {rates[(k, a)][-1]:.3f}" for k, a in runs)
              + f"  load {loads[-1]:.2f}", flush=True)
    for kind in argv:
        x64, x86 = rates[(kind, "x86_64")], rates[(kind, "i686")]
        ratios = [b / a for a, b in zip(x64, x86)]
        print(f"{kind}: x86_64 median {statistics.median(x64):.3f} M nodes/s, i686 median "
              f"{statistics.median(x86):.3f}; i686 / x86_64 median {statistics.median(ratios):.3f} "
              f"(rounds {min(ratios):.3f}-{max(ratios):.3f})")
    print(pairs.load_line(loads))
    if out:
        engines = "# engines: Debian bookworm stockfish 15.1-4 and glaurung 2.2-4, amd64 and i386 builds"
        pairs.write_tsv(out, pairs.machine_header() + [engines, f"# depth {depth or 'default'}, {rounds} rounds"],
                        ("round", "kind", "arch", "nodes", "seconds", "mnps"), rows)

if __name__ == "__main__":
    main()

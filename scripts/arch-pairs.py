#!/usr/bin/env python3
"""Wall clock of `ccr perft` on x86_64 against i686, in interleaved rounds.

Usage: scripts/arch-pairs.py [--rounds N] [--depth D] [--repr R] X86_64 I686 [X86_64_2 I686_2]

Each argument pair is one state of the code (an x86_64 and an i686 binary, e.g. copies of
target/release/ccr and target/i686-unknown-linux-gnu/release/ccr). A round runs every binary
once, one after another in an order rotated from round to round (so that a change of the
machine's load falls on all of them alike); one run is `ccr perft D` (every leaf made) on each
position of tests/data/standard-perft.epd, its time the binaries' own (`time S s` on
stderr: no start-up, no FEN parsing) summed over the positions. Prints each round, each
binary's median M nodes/s, per state the median over the rounds of the round's i686 / x86_64
speed ratio, with two states each architecture's median second / first ratio, and the
1-minute load average. Defaults: 10 rounds, depth 5 (469,080,960 leaves a run), the
binaries' default representation (`--repr R` passes `--repr R` to every run).
"""

import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPD = os.path.join(ROOT, "tests", "data", "standard-perft.epd")


def rate(binary, depth, fens, repr_args):
    nodes = seconds = 0
    for fen in fens:
        run = subprocess.run([binary, "perft", str(depth), "--fen", fen, *repr_args],
                             capture_output=True, text=True, check=True)
        nodes += int(run.stdout.strip().splitlines()[-1].split(": ")[1])
        seconds += float(re.search(r"time ([\d.]+) s", run.stderr).group(1))
    return nodes / seconds / 1e6


def main():
    argv = sys.argv[1:]
    rounds, depth, repr_args = 10, 5, []
    while argv and argv[0].startswith("--") and len(argv) > 1:
        flag, value, argv = argv[0], argv[1], argv[2:]
        if flag == "--rounds":
            rounds = int(value)
        elif flag == "--depth":
            depth = int(value)
        elif flag == "--repr":
            repr_args = ["--repr", value]
        else:
            sys.exit(f"unknown option {flag}")
    if len(argv) not in (2, 4):
        sys.exit(__doc__)
    fens = [line.split(";")[0].strip() for line in open(EPD)
            if line.strip() and not line.startswith("#")]
    n = len(argv)
    rates, loads = [[] for _ in argv], []
    for r in range(rounds):
        order = list(range(n))
        order = order[r % n:] + order[:r % n]
        if r % 2:
            order.reverse()
        for i in order:
            rates[i].append(rate(argv[i], depth, fens, repr_args))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}: " + " ".join(f"{rates[i][-1]:.1f}" for i in range(n))
              + f"  load {loads[-1]:.2f}", flush=True)
    for i, binary in enumerate(argv):
        print(f"{binary}: median {statistics.median(rates[i]):.1f} M nodes/s "
              f"({' '.join(f'{v:.1f}' for v in rates[i])})")
    for state in range(n // 2):
        ratios = [b / a for a, b in zip(rates[2 * state], rates[2 * state + 1])]
        print(f"state {state + 1}: i686 / x86_64 median {statistics.median(ratios):.3f} "
              f"(rounds {min(ratios):.3f}-{max(ratios):.3f})")
    if n == 4:
        for arch, i in (("x86_64", 0), ("i686", 1)):
            ratios = [b / a for a, b in zip(rates[i], rates[i + 2])]
            print(f"{arch}: state 2 / state 1 median {statistics.median(ratios):.3f}")
    print(f"load (1 min): median {statistics.median(loads):.2f}, "
          f"{min(loads):.2f}-{max(loads):.2f}")


if __name__ == "__main__":
    main()

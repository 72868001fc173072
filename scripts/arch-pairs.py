#!/usr/bin/env python3
"""Wall clock of ccr on x86_64 against i686, in interleaved rounds: perft or the search.

Usage: scripts/arch-pairs.py [--rounds N] [--depth D] [--bench] [--instructions] [--out FILE]
                             X86_64 I686 [X86_64_2 I686_2 ...]

Each argument pair is one state of the code (or one option) (an x86_64 and an i686 run, e.g. copies of
target/release/ccr and target/debian-rustc/i686-unknown-linux-gnu/release/ccr). An argument is a binary
with optional arguments of its own in one word ("/tmp/ccr-x64 --eval bitboards"), so that a
second pair can be the same binaries with another option.

A round runs every argument once, one after another in an order rotated from round to round
(so that a change of the machine's load falls on all of them alike). One run is, by default,
`ccr perft D` (every leaf made) on each position of tests/data/standard-perft.epd, its time
the binaries' own (`time S s` on stderr: no start-up, no FEN parsing) summed over the
positions; with --bench, `ccr bench D` (the search's fixed positions, its own `N nodes N
nps`). Prints each round, each argument's median speed, per state the median over the
rounds of the round's i686 / x86_64 speed ratio, with two states each architecture's median
second / first ratio, and the 1-minute load average. With --out, every run is also written to
FILE as a TSV row (round, argument, architecture, nodes, seconds, M nodes/s), after comment
lines naming the machine, the binaries' versions, the commit and the date.

With --instructions, each argument then runs once more under `valgrind --tool=callgrind`
(the whole process; the timed rounds are not slowed), which prints its instructions and
writes them as one more row (round `callgrind`, the instructions in the last column, empty
in the timed rows).

Defaults: 10 rounds; depth 5 for perft (469,080,960 leaves a run), 11 for the bench (its
default).
"""

import os
import re
import shlex
import statistics
import subprocess
import sys

import pairs  # scripts/pairs.py

EPD = os.path.join(pairs.ROOT, "tests", "data", "standard-perft.epd")


def perft(command, depth, fens):
    """Nodes and the binary's own seconds of perft D over the positions."""
    nodes = seconds = 0
    for fen in fens:
        run = subprocess.run(command[:1] + ["perft", str(depth), "--fen", fen] + command[1:],
                             capture_output=True, text=True, check=True)
        nodes += int(run.stdout.strip().splitlines()[-1].split(": ")[1])
        seconds += float(re.search(r"time ([\d.]+) s", run.stderr).group(1))
    return nodes, seconds


def bench(command, depth):
    """Nodes and seconds of `ccr bench D` (seconds from its nodes and nps)."""
    run = subprocess.run(command[:1] + ["bench", str(depth)] + command[1:],
                         capture_output=True, text=True, check=True)
    nodes, nps = re.fullmatch(r"(\d+) nodes (\d+) nps", run.stdout.strip().splitlines()[-1]).groups()
    return int(nodes), int(nodes) / int(nps)


def instructions(command, mode, depth, fens):
    """Nodes and callgrind's instruction count of one run (for perft, summed over the positions)."""
    runs = ([["bench", str(depth)]] if mode == "bench"
            else [["perft", str(depth), "--fen", fen] for fen in fens])
    nodes = total = 0
    for run_args in runs:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                             + command[:1] + run_args + command[1:],
                             capture_output=True, text=True, check=True)
        last = run.stdout.strip().splitlines()[-1]
        nodes += int(last.split()[0] if mode == "bench" else last.split(": ")[1])
        total += int(re.search(r"refs:\s+([\d,]+)", run.stderr).group(1).replace(",", ""))
    return nodes, total


def architecture(binary):
    """x86_64 or i686, from the ELF header's class byte."""
    with open(binary, "rb") as f:
        return "x86_64" if f.read(5)[4] == 2 else "i686"


def compilers():
    """The rustc versions on this machine: rustup's (x86_64 builds) and Debian's (i686)."""
    found = []
    for rustc in ("rustc", "/usr/bin/rustc"):
        try:
            found.append(f"{rustc}: " + subprocess.run([rustc, "-V"], capture_output=True, text=True).stdout.strip())
        except OSError:
            pass
    return "; ".join(found)


def header(commands):
    """Comment lines: machine, commit, date, compilers and binaries."""
    lines = pairs.machine_header() + [f"# compilers here: {compilers()}"]
    for command in commands:
        version = subprocess.run([command[0], "--version"], capture_output=True, text=True).stdout.strip()
        lines.append(f"# {' '.join(command)}: {architecture(command[0])}, {version}")
    return lines


def main():
    argv = sys.argv[1:]
    given = pairs.options(argv, __doc__, switches=("bench", "instructions"))
    mode = "bench" if given["bench"] else "perft"
    rounds, depth, out, count = given["rounds"], given["depth"], given["out"], given["instructions"]
    if rounds is None:
        rounds = 10
    if not argv or len(argv) % 2:
        sys.exit(__doc__)
    if depth is None:
        depth = 11 if mode == "bench" else 5
    commands = [shlex.split(a) for a in argv]
    fens = [line.split(";")[0].strip() for line in open(EPD)
            if line.strip() and not line.startswith("#")]
    n = len(argv)
    rates, loads, rows = [[] for _ in argv], [], []
    for r in range(rounds):
        for i in pairs.order(list(range(n)), r):
            if mode == "bench":
                nodes, seconds = bench(commands[i], depth)
            else:
                nodes, seconds = perft(commands[i], depth, fens)
            rates[i].append(nodes / seconds / 1e6)
            rows.append((r + 1, argv[i], architecture(commands[i][0]), nodes, seconds, rates[i][-1]))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}: " + " ".join(f"{rates[i][-1]:.3f}" for i in range(n))
              + f"  load {loads[-1]:.2f}", flush=True)
    for i, arg in enumerate(argv):
        print(f"{arg}: median {statistics.median(rates[i]):.3f} M nodes/s "
              f"({' '.join(f'{v:.3f}' for v in rates[i])})")
    for state in range(n // 2):
        ratios = [b / a for a, b in zip(rates[2 * state], rates[2 * state + 1])]
        print(f"state {state + 1}: i686 / x86_64 median {statistics.median(ratios):.3f} "
              f"(rounds {min(ratios):.3f}-{max(ratios):.3f})")
    if n == 4:
        for arch, i in (("x86_64", 0), ("i686", 1)):
            ratios = [b / a for a, b in zip(rates[i], rates[i + 2])]
            print(f"{arch}: state 2 / state 1 median {statistics.median(ratios):.3f}")
    print(pairs.load_line(loads))
    counted = []
    if count:
        for i, arg in enumerate(argv):
            nodes, total = instructions(commands[i], mode, depth, fens)
            counted.append(("callgrind", arg, architecture(commands[i][0]), nodes, "", "", total))
            print(f"{arg}: {total:,} instructions, {total / nodes:,.0f} a node", flush=True)
    if out:
        pairs.write_tsv(out, header(commands) + [f"# run: {mode} depth {depth}, {rounds} rounds"],
                        ("round", "argument", "arch", "nodes", "seconds", "mnps", "instructions"),
                        [row + ("",) for row in rows] + counted)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs every measurement docs/PAPER.md quotes and writes the raw results under docs/data/.

Usage: scripts/reproduce.py [--quick] [--data DIR] [--steps a,b,...] [--no-build] [--resume]
(`make reproduce`)

Steps, in order (each writes DIR/<step>.tsv, or the files named):
  tests        the paper's reference vectors and exact claims: the Rust tests that check them,
               each test's name and outcome (x86_64; with the full size also i686)
  perft        wall clock of perft, every leaf made and the last ply bulk-counted, on the six
               standard positions: `ccr perft` for every representation x implementation and
               the oracle crates (examples/crate_perft.rs: shakmaty, cozy-chess, chess), on
               x86_64 and i686, in rounds that alternate the architectures; every count is
               checked against tests/data/standard-perft.epd
  instructions perft 3 counted by callgrind, start-up left out (perft 1 of the start
               position subtracted), per leaf
  costs        instructions per call of the operations the paper prices (attack tables and
               queries, the conversion, keys, the two evaluators, the assembly routines):
               the iai-callgrind benches benches/instructions.rs and benches/asm_instructions.rs
  bench        `ccr bench` on both architectures with each evaluator (the search's nodes per
               second; stderr's quiescence share and copy-make bytes go to bench-profile.tsv),
               then callgrind's instructions per node of a shallower bench (bench-instructions.tsv)
  engines      Debian's Stockfish 15.1 (classical, NNUE) and Glaurung 2.2, amd64 against their
               i386 builds (scripts/engine-arch-pairs.py; scripts/setup-engines32.sh fetches them)
  keys         `ccr keystats`: the rotation key against Zobrist over N distinct positions
               (full and truncated collisions against the birthday bound, cost per key); then
               the same run as four shards, merged: keys-shards.tsv says whether the merged
               report equals the one process's, and what each process cost
  strength     the ladder: ccr against Phalanx, Sjeng, Glaurung 2.2, Toga II 3.0 (200 games
               each for these two) and Stockfish 15.1 at 10+0.1 (scripts/match.py); games in
               strength.pgn, the tally in strength.tsv; --resume keeps the games played
Asked for by name only (--steps scale), as it takes hours:
  scale        `ccr keystats` at 10^9 distinct positions in 16 shards, each shard's partial
               result (keys-scale/) and cost (keys-scale-shards.tsv) kept, merged into
               keystats-scale.md and keys-scale.tsv once all are in; a stopped run resumes,
               and a second process of this step takes the next free shard (two cores, about
               25 GB of disk each)

Every TSV opens with comment lines: machine, CPU features, compilers, commit, date, the
size (full or quick) and what was run. --quick runs smaller sizes (one perft
round, fewer positions under callgrind, 10^6 keys, a few fast games): under ten minutes of measuring on a 2-core machine.
Progress goes to stderr. scripts/report.py then draws the tables and plots from these files.

The arguments are checked before anything is built or measured: --steps names at least one
step, all known; --data is a directory that can be written (made if missing); with
--no-build, every binary the steps run is in target/reproduce/ (else the error names the
missing one and the command that builds it); valgrind is installed for the steps that count
instructions. A bad argument is one `error:` line with exit status 2; a measurement that
fails, one `error:` line with exit status 1.
"""

import argparse
import datetime
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPD = os.path.join(ROOT, "tests", "data", "standard-perft.epd")
TARGET32 = "i686-unknown-linux-gnu"
STEPS = ("tests", "perft", "instructions", "costs", "bench", "engines", "keys", "strength")
# Steps run only when asked for (--steps): hours of machine.
EXTRA_STEPS = ("scale",)
# ccr's representations and the implementations each offers (`ccr perft --repr --impl`).
CCR_SUBJECTS = [("ccr", "portable"), ("ccr", "simd"), ("ccr", "asm"),
                ("bitboard", "portable"), ("bitboard", "simd"), ("bitboard", "asm"),
                ("bitboard-native", "portable"), ("rotated", "portable"), ("x88", "portable")]
CRATES = ["shakmaty", "cozy-chess", "chess"]
# Perft depths per position (benches/common `perft_depth`: 10-100 ms a run), made and bulk.
DEPTHS = {"startpos": (5, 5), "kiwipete": (4, 4), "position3": (5, 6),
          "position4": (4, 5), "position5": (4, 4), "position6": (4, 4)}
# The Rust tests that check the paper's exact claims: the unit tests (Table 1, the geometry, the
# worked examples, sizes, the conversion) and the test files of the paper's figures, the attack
# tables, the keys and the hybrid's evaluator.
PAPER_TESTS = ["--lib", "paper", "attacks", "keys", "eval"]

STARTED = time.monotonic()


def log(message):
    """A progress line on stderr, with the elapsed time."""
    elapsed = int(time.monotonic() - STARTED)
    print(f"[{elapsed // 60:3d}:{elapsed % 60:02d}] {message}", file=sys.stderr, flush=True)


class UsageError(Exception):
    """Bad arguments or a missing prerequisite, found before anything runs: one `error:` line,
    exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one `error:` line with exit status 2."""

    def error(self, message):
        self.exit(2, f"error: {message} (see --help)\n")


def run(command, **kwargs):
    """Runs a command, its output captured; raises with its stderr when it fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    except OSError as err:
        raise RuntimeError(f"{command[0]}: {err.strerror or err}") from None
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    return done


def cpu():
    """The CPU's model name and the SIMD features ccr can use."""
    info = open("/proc/cpuinfo").read()
    model = re.search(r"^model name\s*:\s*(.*)$", info, re.M)
    flags = set(re.search(r"^flags\s*:\s*(.*)$", info, re.M).group(1).split())
    simd = [f for f in ("avx2", "bmi2", "avx512f", "avx512bw", "avx512vl") if f in flags]
    return (model.group(1) if model else platform.processor()), simd


def compilers():
    """The two Rust compilers: rustup's (x86_64) and Debian's (i686)."""
    found = []
    for name, rustc in (("x86_64", "rustc"), ("i686", "/usr/bin/rustc")):
        try:
            found.append(f"{name} {run([rustc, '--version']).stdout.strip()}")
        except (OSError, RuntimeError):
            found.append(f"{name} none")
    return "; ".join(found)


# What goes into the binaries and the measurements: a change there (not in the documents)
# marks the commit `+dirty`.
MEASURED = ["src", "asm", "benches", "examples", "keystats", "build.rs", "Cargo.toml", "Cargo.lock",
            "tests/data", "scripts/reproduce.py", "scripts/match.py", "scripts/engine-arch-pairs.py",
            "scripts/setup-engines32.sh"]


def commit():
    """The commit measured, with `+dirty` when what is measured has uncommitted changes."""
    head = run(["git", "-C", ROOT, "rev-parse", "--short=10", "HEAD"]).stdout.strip()
    dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--"] + MEASURED).stdout.strip()
    return head + ("+dirty" if dirty else "")


class Table:
    """One TSV file of results: comment lines naming the run, a header row, then rows."""

    def __init__(self, path, size, what, columns, measured_commit=None):
        self.path = path
        model, simd = cpu()
        self.lines = [
            f"# machine: {model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
            f"# cpu features: {' '.join(simd) or 'none of avx2/avx512'}",
            f"# compilers: {compilers()}",
            f"# commit: {measured_commit or commit()}",
            f"# date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
            f"# size: {size}",
            f"# what: {what}",
            "\t".join(columns),
        ]

    def row(self, *values):
        """Adds a row (written out at once, so that a run cut short keeps what it measured)."""
        self.lines.append("\t".join(str(v) for v in values))
        self.save()

    def save(self):
        write_whole(self.path, "\n".join(self.lines) + "\n")


def write_whole(path, text):
    """Writes `text` to `path` whole: into a temporary file beside the file a link names,
    then renamed over it, so the link stays a link; a path that exists and is not a regular
    file (a FIFO, a device, a directory) is an error, never replaced."""
    real = os.path.realpath(path)
    if os.path.lexists(real) and not os.path.isfile(real):
        raise RuntimeError(f"{path} exists and is not a regular file: not replaced")
    part = f"{real}.{os.getpid()}.part"  # two processes of the scale step may write at once
    with open(part, "w") as f:
        f.write(text)
    os.replace(part, real)


def standard():
    """(id, FEN, counts by depth) of the six standard positions."""
    positions = []
    for line in open(EPD):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        ident = next(f[3:].strip() for f in fields if f.startswith("id "))
        counts = {int(f[1:].split()[0]): int(f.split()[1]) for f in fields[1:] if re.match(r"D\d+ ", f)}
        positions.append((ident, fields[0], counts))
    return positions


class Binaries:
    """The binaries measured, copied out of target/ so that a rebuild cannot change them."""

    def __init__(self):
        self.dir = os.path.join(ROOT, "target", "reproduce")
        os.makedirs(self.dir, exist_ok=True)

    def build(self):
        log("building x86_64 (cargo) and i686 (Debian's cargo): ccr and examples/crate_perft")
        subprocess.run(["make", "--no-print-directory", "-C", ROOT, "build", "setup32", "build32"],
                       check=True, stdout=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--example", "crate_perft"], cwd=ROOT,
                       check=True, stdout=sys.stderr)
        env = dict(os.environ, RUSTC="/usr/bin/rustc", RUSTDOC="/usr/bin/rustdoc")
        subprocess.run(["/usr/bin/cargo", "build", "--release", "--target", TARGET32, "--example",
                        "crate_perft"], cwd=ROOT, env=env, check=True, stdout=sys.stderr)
        for path, (built, _) in self.sources().items():
            if not os.path.isfile(built):
                raise RuntimeError(f"the build left no {built}")
            shutil.copy(built, path)

    def sources(self):
        """Each binary measured: where the build leaves it and the command that builds it."""
        i686 = f"RUSTC=/usr/bin/rustc /usr/bin/cargo build --release --target {TARGET32}"
        out = {}
        for arch, sub, ccr, crates in (("x86_64", "", "make build", "cargo build --release"),
                                       ("i686", TARGET32, "make build32", i686)):
            release = os.path.join(ROOT, "target", sub, "release")
            out[self.ccr(arch)] = (os.path.join(release, "ccr"), ccr)
            out[self.crates(arch)] = (os.path.join(release, "examples", "crate_perft"),
                                      f"{crates} --example crate_perft")
        return out

    def needed(self, args, steps):
        """The binaries the steps run: {path: [steps]}."""
        everything = [self.ccr("x86_64"), self.ccr("i686"), self.crates("x86_64"), self.crates("i686")]
        uses = {"perft": everything, "instructions": everything,
                "bench": [self.ccr("x86_64"), self.ccr("i686")],
                "keys": [self.ccr("x86_64")], "strength": [self.ccr("x86_64")],
                # The scale step runs its own frozen copy once it has one.
                "scale": [] if os.path.exists(scale_binary(args)) else [self.ccr("x86_64")]}
        found = {}
        for step in steps:
            for path in uses.get(step, []):
                found.setdefault(path, []).append(step)
        return found

    def check(self, args, steps):
        """With --no-build: the binaries the steps need must be there already."""
        for path, users in self.needed(args, steps).items():
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                built, command = self.sources()[path]
                state = "is not executable" if os.path.exists(path) else "is missing"
                raise UsageError(
                    f"--no-build: {path} {state} (the {', '.join(users)} step needs it); build it with "
                    f"`{command} && cp {os.path.relpath(built, ROOT)} {os.path.relpath(path, ROOT)}` in {ROOT}, "
                    "or run without --no-build")

    def ccr(self, arch):
        return os.path.join(self.dir, f"ccr-{arch}")

    def crates(self, arch):
        return os.path.join(self.dir, f"crate_perft-{arch}")

    def perft_command(self, arch, subject, impl, depth, fen, bulk):
        """The perft command line of a subject (a ccr representation or a crate)."""
        if subject in CRATES:
            command = [self.crates(arch), subject, str(depth), "--fen", fen]
        else:
            command = [self.ccr(arch), "perft", str(depth), "--fen", fen, "--repr", subject, "--impl", impl]
        return command + (["--bulk"] if bulk else [])


def offered(binaries):
    """(subject, implementation) pairs both binaries run: the assembly and SIMD where built."""
    pairs = []
    for subject, impl in CCR_SUBJECTS:
        ok = all(subprocess.run([binaries.ccr(a), "perft", "1", "--repr", subject, "--impl", impl],
                                capture_output=True).returncode == 0 for a in ("x86_64", "i686"))
        if ok:
            pairs.append((subject, impl))
        else:
            log(f"skipping {subject} {impl}: not offered on both architectures")
    return pairs + [(c, "-") for c in CRATES]


def step_tests(args, binaries):
    """The Rust tests of the paper's exact claims: name and outcome, per architecture."""
    table = Table(os.path.join(args.data, "tests.tsv"), args.size,
                  "cargo test --release: --lib and --test paper, attacks, keys, eval; one row per test",
                  ["arch", "file", "test", "outcome"])
    runs = [("x86_64", ["cargo"], {})]
    if not args.quick:
        runs.append(("i686", ["/usr/bin/cargo"], {"RUSTC": "/usr/bin/rustc", "RUSTDOC": "/usr/bin/rustdoc"}))
    for arch, cargo, env in runs:
        for name in PAPER_TESTS:
            log(f"tests: {name} on {arch}")
            target = ["--target", TARGET32] if arch == "i686" else []
            which = [name] if name == "--lib" else ["--test", name]
            done = subprocess.run(cargo + ["test", "--release"] + which + target, cwd=ROOT,
                                  capture_output=True, text=True, env=dict(os.environ, **env))
            found = re.findall(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", done.stdout, re.M)
            if done.returncode != 0 or not found:
                print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
            for test, outcome in found:
                table.row(arch, "lib" if name == "--lib" else name, test, outcome)


def timed_perft(binaries, arch, subject, impl, ident, fen, depth, bulk, expected):
    """(nodes, seconds) of one perft run, the count checked against the published one."""
    done = run(binaries.perft_command(arch, subject, impl, depth, fen, bulk))
    nodes = int(done.stdout.strip().splitlines()[-1].split(": ")[1])
    if nodes != expected:
        raise RuntimeError(f"{arch} {subject} {impl} {ident} depth {depth}: {nodes} leaves, published {expected}")
    return nodes, float(re.search(r"time ([\d.]+) s", done.stderr).group(1))


def step_perft(args, binaries):
    """Perft wall clock, every subject on both architectures, made and bulk-counted leaves."""
    rounds = 1 if args.quick else 7
    table = Table(os.path.join(args.data, "perft.tsv"), args.size,
                  f"perft on the six standard positions, {rounds} round(s) alternating the architectures; "
                  "seconds are the binary's own (`time S s`, no start-up or parsing)",
                  ["round", "arch", "subject", "impl", "leaves", "position", "depth", "nodes", "seconds"])
    subjects = offered(binaries)
    for r in range(1, rounds + 1):
        archs = ("x86_64", "i686") if r % 2 else ("i686", "x86_64")
        log(f"perft: round {r} of {rounds} ({len(subjects)} subjects x 6 positions x 2 x 2)")
        for subject, impl in subjects:
            for ident, fen, counts in standard():
                for leaves, bulk in (("made", False), ("bulk", True)):
                    depth = DEPTHS[ident][bulk]
                    for arch in archs:
                        nodes, secs = timed_perft(binaries, arch, subject, impl, ident, fen, depth,
                                                  bulk, counts[depth])
                        table.row(r, arch, subject, impl, leaves, ident, depth, nodes, f"{secs:.6f}")


def callgrind(command):
    """callgrind's instruction count of a command (the largest process: criterion-free)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"callgrind {' '.join(command)}: {done.stderr.strip()[-1000:]}")
    counts = re.findall(r"Collected : (\d+)", done.stderr)
    return max(int(c) for c in counts)


def step_instructions(args, binaries):
    """Instructions per leaf of perft 3 under callgrind, every subject, start-up subtracted."""
    positions = [p for p in standard() if not args.quick or p[0] == "kiwipete"]
    start = standard()[0]
    table = Table(os.path.join(args.data, "instructions.tsv"), args.size,
                  "valgrind --tool=callgrind: perft 3 (every leaf made) minus the same binary's perft 1 "
                  "of the start position (start-up, parsing, first use of the tables); leaves = D3",
                  ["arch", "subject", "impl", "position", "leaves", "instructions"])
    subjects = offered(binaries)
    for arch in ("x86_64", "i686"):
        log(f"instructions: {arch}, {len(subjects)} subjects x {len(positions)} position(s)")
        for subject, impl in subjects:
            base = callgrind(binaries.perft_command(arch, subject, impl, 1, start[1], False))
            for ident, fen, counts in positions:
                full = callgrind(binaries.perft_command(arch, subject, impl, 3, fen, False))
                table.row(arch, subject, impl, ident, counts[3], full - base)


def step_costs(args, binaries):
    """iai-callgrind's instruction counts per call (x86_64): every benchmark of the two benches."""
    table = Table(os.path.join(args.data, "costs.tsv"), args.size,
                  "cargo bench --bench instructions; cargo bench --bench asm_instructions (iai-callgrind "
                  "0.16.1, callgrind; x86_64, the SIMD tier the CPU has under valgrind)",
                  ["bench", "group", "function", "input", "instructions"])
    for bench in ("instructions", "asm_instructions"):
        log(f"costs: cargo bench --bench {bench}")
        done = run(["cargo", "bench", "--bench", bench], cwd=ROOT)
        name = None
        for line in done.stdout.splitlines():
            head = re.match(r"^(\w+)::(\w+)::(\w+) (\S+)", line)
            if head:
                name = head.groups()
                continue
            count = re.match(r"^\s+Instructions:\s+(\d+)", line)
            if count and name:
                table.row(*name, count.group(1))
                name = None


def step_bench(args, binaries):
    """`ccr bench` speed on both architectures and evaluators, then its instructions per node."""
    rounds, depth, idepth = (1, 9, 4) if args.quick else (5, 11, 6)
    table = Table(os.path.join(args.data, "bench.tsv"), args.size,
                  f"ccr bench {depth} --eval E, {rounds} round(s), runs in an order rotated each round",
                  ["round", "arch", "eval", "nodes", "nps"])
    profile = Table(os.path.join(args.data, "bench-profile.tsv"), args.size,
                    f"ccr bench {depth} --eval E, stderr of the last round: quiescence share (nodes "
                    "counted, time sampled each ms) and copy-make bytes per node",
                    ["arch", "eval", "metric", "value"])
    runs = [(a, e) for a in ("x86_64", "i686") for e in ("frame", "bitboards")]
    for r in range(1, rounds + 1):
        log(f"bench: round {r} of {rounds}")
        shift = (r - 1) % len(runs)
        for arch, evaluator in runs[shift:] + runs[:shift]:
            done = run([binaries.ccr(arch), "bench", str(depth), "--eval", evaluator])
            nodes, nps = re.fullmatch(r"(\d+) nodes (\d+) nps", done.stdout.strip().splitlines()[-1]).groups()
            table.row(r, arch, evaluator, nodes, nps)
            if r == rounds:
                for metric, value in bench_profile(done.stderr):
                    profile.row(arch, evaluator, metric, value)
    instructions = Table(os.path.join(args.data, "bench-instructions.tsv"), args.size,
                         f"valgrind --tool=callgrind ccr bench {idepth} --eval E",
                         ["arch", "eval", "nodes", "instructions"])
    for arch, evaluator in runs:
        log(f"bench: callgrind {arch} {evaluator}")
        command = [binaries.ccr(arch), "bench", str(idepth), "--eval", evaluator]
        nodes = re.match(r"(\d+) nodes", run(command).stdout.strip().splitlines()[-1]).group(1)
        instructions.row(arch, evaluator, nodes, callgrind(command))


def bench_profile(stderr):
    """(metric, value) pairs of `ccr bench`'s profile lines."""
    found = []
    q = re.search(r"quiescence ([\d.]+) % of nodes \((\d+) of (\d+)\), ([\d.]+) % of time \((\d+) of (\d+)", stderr)
    if q:
        found += [("quiescence_nodes", q.group(2)), ("nodes", q.group(3)),
                  ("quiescence_samples", q.group(5)), ("samples", q.group(6))]
    c = re.search(r"copy-make ([\d.]+) positions per node", stderr)
    if c:
        found.append(("copies_per_node", c.group(1)))
    for name, size in re.findall(r"([\w-]+) [\d.]+ \((\d+) B\)", stderr):
        found.append((f"bytes:{name}", size))
    return found


def step_engines(args, binaries):
    """Stockfish and Glaurung, amd64 against i386 (scripts/engine-arch-pairs.py)."""
    log("engines: fetching Debian's i386 builds (scripts/setup-engines32.sh)")
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "setup-engines32.sh")], check=True, stdout=sys.stderr)
    out = os.path.join(args.data, "engines.tsv")
    command = [sys.executable, "-B", os.path.join(ROOT, "scripts", "engine-arch-pairs.py"), "--out", out]
    command += ["--rounds", "1", "--depth", "9"] if args.quick else ["--rounds", "5"]
    log("engines: " + " ".join(command[2:]))
    subprocess.run(command + ["stockfish-classical", "stockfish-nnue", "glaurung"], check=True, stdout=sys.stderr)
    prepend(out, args.size)


def prepend(path, size):
    """Adds the size and CPU feature lines to a TSV another script wrote."""
    text = open(path).read()
    _, simd = cpu()
    with open(path, "w") as f:
        f.write(f"# size: {size}\n# cpu features: {' '.join(simd)}\n" + text)


def measured(command, workdir, stdout):
    """Runs `command` with its stdout to the file `stdout`, its stderr passed on; returns its
    wall seconds, CPU seconds, peak memory (MB), the peak disk under `workdir` (GB, sampled
    every second) and its stderr. Raises when it fails."""
    os.makedirs(workdir, exist_ok=True)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.wait(1.0):
            size = 0
            for parent, _, files in os.walk(workdir):
                for name in files:
                    try:
                        size += os.lstat(os.path.join(parent, name)).st_blocks * 512
                    except OSError:
                        pass  # removed while walking
            peak[0] = max(peak[0], size)

    sampler = threading.Thread(target=sample, daemon=True)
    began = time.monotonic()
    with open(stdout, "w") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, text=True)
        sampler.start()
        lines = []
        try:
            for line in proc.stderr:
                lines.append(line)
                print(line, end="", file=sys.stderr, flush=True)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        finally:
            if proc.returncode is None:  # stopped (Ctrl-C, SIGTERM): the child goes too
                proc.terminate()
                proc.wait()
    wall = time.monotonic() - began
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}: {''.join(lines)[-2000:]}")
    return {"wall_s": round(wall, 1), "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
            "peak_mb": round(usage.ru_maxrss / 1024), "peak_disk_gb": round(peak[0] / 1e9, 2),
            "stderr": "".join(lines)}


def key_rows(table, report):
    """The rows of keys.tsv from a keystats report: collisions and cost per key."""
    n_distinct = int(re.search(r"n = ([\d,]+) distinct", report).group(1).replace(",", ""))
    # keystats writes counts with thousands separators (1,224,152).
    for key, _, _, pairs, expected in re.findall(
            r"^\| (rotation|zobrist) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d.,e+-]+) \|", report, re.M):
        table.row("collisions", key, "full 64", n_distinct, pairs.replace(",", ""), expected.replace(",", ""))
    for key, bits, pairs, expected in re.findall(
            r"^\| (rotation|zobrist) \| ((?:top|low) \d+) \| ([\d,]+) \| ([\d.,e+-]+) \|", report, re.M):
        table.row("collisions", key, bits, n_distinct, pairs.replace(",", ""), expected.replace(",", ""))
    cost = re.search(r"### Cost per key.*?(?=\n###|\Z)", report, re.S).group(0)
    for label, rotation, zobrist in re.findall(r"^\| (.+?) \| ([\d.]+) \| ([\d.]+) \|$", cost, re.M):
        label = re.sub(r"[*`]", "", label)
        table.row("ns", "rotation", label, n_distinct, rotation, "")
        table.row("ns", "zobrist", label, n_distinct, zobrist, "")


def untimed(report):
    """A keystats report without what depends on the clock: the time line and the cost table."""
    report = re.sub(r"^- time.*\n", "", report, flags=re.M)
    return re.sub(r"### Cost per key.*?(?=\n###|\Z)", "", report, flags=re.S)


def kept_by_shard(stderr):
    """The positions a shard kept, from its last progress line."""
    found = re.findall(r"([\d,]+) kept by shard", stderr)
    return int(found[-1].replace(",", "")) if found else ""


def step_keys(args, binaries):
    """`ccr keystats`: collisions against the birthday bound and cost, both keys; then the same
    run as four shards, merged, which must give the same report."""
    n = 10**6 if args.quick else 10**8
    ccr = binaries.ccr("x86_64")
    workdir = os.path.join(ROOT, "target", "reproduce", "keys")
    shutil.rmtree(workdir, ignore_errors=True)
    runs = Table(os.path.join(args.data, "keys-shards.tsv"), args.size,
                 f"ccr keystats --positions {n} --seed 1 in one process, then as --shard K/4 one after "
                 "another and --merge; equal: the merged report is the one process's but for the "
                 "time line and the cost table (the clock's); peak disk of the working directory "
                 "sampled every second",
                 ["run", "wall_s", "cpu_s", "peak_mb", "peak_disk_gb", "generated", "kept", "equal"])
    log(f"keys: ccr keystats --positions {n} (progress below)")
    report = os.path.join(args.data, "keystats.md")
    one = measured([ccr, "keystats", "--positions", str(n), "--dir", workdir], workdir, report)
    text = open(report).read()
    generated = re.search(r"from ([\d,]+) generated", text).group(1).replace(",", "")
    runs.row("one process", one["wall_s"], one["cpu_s"], one["peak_mb"], one["peak_disk_gb"], generated,
             generated, "")
    table = Table(os.path.join(args.data, "keys.tsv"), args.size,
                  f"ccr keystats --positions {n} --seed 1 (its report: keystats.md)",
                  ["table", "key", "what", "n", "observed", "expected"])
    key_rows(table, text)
    shards = 4
    parts = []
    for k in range(1, shards + 1):
        log(f"keys: shard {k}/{shards} of the same run")
        part = os.path.join(workdir, f"part-{k}.tsv")
        run_ = measured([ccr, "keystats", "--positions", str(n), "--dir", workdir, "--shard", f"{k}/{shards}",
                         "--out", part], workdir, os.devnull)
        generated = re.search(r"^generated\t(\d+)\t(\d+)$", open(part).read(), re.M)
        runs.row(f"shard {k}/{shards}", run_["wall_s"], run_["cpu_s"], run_["peak_mb"], run_["peak_disk_gb"],
                 int(generated.group(1)) + int(generated.group(2)), kept_by_shard(run_["stderr"]), "")
        parts.append(part)
    merged = run([ccr, "keystats", "--merge"] + parts).stdout
    equal = untimed(merged) == untimed(text)
    runs.row("merged", "", "", "", "", "", "", "yes" if equal else "no")
    if not equal:
        with open(os.path.join(args.data, "keystats-merged.md"), "w") as f:
            f.write(merged)
        raise RuntimeError("keys: the merged shards' report differs from the one process's "
                           "(both in the data directory: keystats.md, keystats-merged.md)")
    shutil.rmtree(workdir, ignore_errors=True)


def step_scale(args, binaries):
    """The keys at scale: 10^9 distinct positions in 16 shards (10^7 in 4
    with --quick), each shard's partial result and cost kept, then merged. Hours of machine:
    not among the default steps. A run that stops resumes where it stopped: the binary is
    frozen in target/reproduce/scale-<n>/ and a shard whose partial result of that binary
    exists is not run again."""
    n, shards = scale_size(args)
    ccr = scale_binary(args)
    frozen_dir = os.path.dirname(ccr)
    os.makedirs(frozen_dir, exist_ok=True)
    parts_dir = os.path.join(args.data, "keys-scale")
    if not os.path.exists(ccr):
        # A new binary: the partial results of another one cannot be merged with its own.
        shutil.rmtree(parts_dir, ignore_errors=True)
        shutil.copy(binaries.ccr("x86_64"), ccr + ".part")
        os.replace(ccr + ".part", ccr)
    os.makedirs(parts_dir, exist_ok=True)
    for k in range(1, shards + 1):
        scale_shard(args, frozen_dir, n, shards, k)
    scale_tables(args.data, args.size, n, shards)


def scale_size(args):
    """The scale step's positions and shards."""
    return (10**7, 4) if args.quick else (10**9, 16)


def scale_binary(args):
    """The scale step's frozen copy of ccr (target/reproduce/scale-<n>/ccr)."""
    return os.path.join(ROOT, "target", "reproduce", f"scale-{scale_size(args)[0]}", "ccr")


def claim(path):
    """Claims a shard for this process: True if `path` was made (holding our pid) or held a
    dead process's pid; False while a live process holds it."""
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(open(path).read().strip() or "0")
                os.kill(pid, 0)
                return False
            except (ValueError, ProcessLookupError, FileNotFoundError):
                try:
                    os.remove(path)  # a stopped run's claim
                except FileNotFoundError:
                    pass
                continue
            except PermissionError:
                return False  # alive, another user's
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True


def scale_shard(args, frozen_dir, n, shards, k):
    """Runs shard k of the scale step, unless its partial result and cost are there or another
    process is running it (a second `--steps scale` process on the same checkout takes the
    next free shard, so two cores run two shards, disk permitting): its partial result and a
    row of its cost in DATA/keys-scale/, then the tables."""
    parts_dir = os.path.join(args.data, "keys-scale")
    part = os.path.join(parts_dir, f"shard-{k}.tsv")
    row = os.path.join(parts_dir, f"shard-{k}.row")
    if os.path.exists(part) and os.path.exists(row):
        log(f"scale: shard {k}/{shards} done before, kept")
        return
    claimed = os.path.join(frozen_dir, f"shard-{k}.claim")
    if not claim(claimed):
        log(f"scale: shard {k}/{shards} is being run by another process")
        return
    try:
        workdir = os.path.join(frozen_dir, f"work-{k}")
        shutil.rmtree(workdir, ignore_errors=True)
        log(f"scale: shard {k}/{shards} of ccr keystats --positions {n}")
        cost = measured([os.path.join(frozen_dir, "ccr"), "keystats", "--positions", str(n), "--seed", "1",
                         "--dir", workdir, "--shard", f"{k}/{shards}", "--out", part], workdir, os.devnull)
    finally:
        shutil.rmtree(os.path.join(frozen_dir, f"work-{k}"), ignore_errors=True)
        os.remove(claimed)
    text = open(part).read()
    generated = re.search(r"^generated\t(\d+)\t(\d+)$", text, re.M)
    distinct = re.search(r"^distinct\t(\d+)", text, re.M).group(1)
    seconds = re.search(r"^seconds\t(\S+)\t(\S+)\t(\S+)", text, re.M)
    values = [k, cost["wall_s"], cost["cpu_s"], cost["peak_mb"], cost["peak_disk_gb"],
              int(generated.group(1)) + int(generated.group(2)), kept_by_shard(cost["stderr"]), distinct]
    values += [round(float(s), 1) for s in seconds.groups()]
    write_whole(row, "\t".join(str(v) for v in values) + "\n")
    scale_tables(args.data, args.size, n, shards)


def scale_tables(data, size, n, shards):
    """keys-scale-shards.tsv from the shards done so far; once all are done, their merge:
    keystats-scale.md and keys-scale.tsv."""
    parts_dir = os.path.join(data, "keys-scale")
    done = [k for k in range(1, shards + 1) if os.path.exists(os.path.join(parts_dir, f"shard-{k}.row"))]
    if not done:
        return
    # The frozen binary's commit (from its partial results), not the checkout's.
    frozen_commit = re.search(r"^commit\t(\S+)$", open(os.path.join(parts_dir, f"shard-{done[0]}.tsv")).read(),
                              re.M).group(1)
    table = Table(os.path.join(data, "keys-scale-shards.tsv"), size,
                  f"ccr keystats --positions {n} --seed 1 --shard K/{shards} --out keys-scale/shard-K.tsv, "
                  f"K = 1..{shards}, each a process of its own; peak disk of its working directory sampled every "
                  "second", ["shard", "wall_s", "cpu_s", "peak_mb", "peak_disk_gb", "generated", "kept", "distinct",
                             "generate_s", "deduplicate_s", "count_s"], frozen_commit)
    for k in done:
        table.row(*open(os.path.join(parts_dir, f"shard-{k}.row")).read().strip().split("\t"))
    if len(done) < shards:
        return
    ccr = os.path.join(ROOT, "target", "reproduce", f"scale-{n}", "ccr")
    parts = [os.path.join(parts_dir, f"shard-{k}.tsv") for k in done]
    report = run([ccr, "keystats", "--merge"] + parts).stdout
    merged = os.path.join(data, "keystats-scale.md")
    write_whole(merged, report)
    keys = Table(os.path.join(data, "keys-scale.tsv"), size,
                 "ccr keystats --merge keys-scale/shard-*.tsv (its report: keystats-scale.md)",
                 ["table", "key", "what", "n", "observed", "expected"], frozen_commit)
    key_rows(keys, report)


# The ladder of Debian's engines and the games against each: Toga II 3.0 and Glaurung 2.2,
# the engines the strength goal is set against, at the 200 games it asks for; Stockfish 15.1
# only as the ceiling, so fewer.
LADDER = (("phalanx", 40), ("sjeng", 40), ("glaurung", 200), ("toga2", 200), ("stockfish", 20))


def step_strength(args, binaries):
    """The ladder: ccr against Debian's engines at 10+0.1, Hash 64, one thread each; PGN and tally."""
    tc = "2+0.05" if args.quick else "10+0.1"
    ladder = [(engine, 2 if args.quick else games) for engine, games in LADDER]
    pgn = os.path.join(args.data, "strength.pgn")
    if os.path.exists(pgn) and not args.resume:
        os.remove(pgn)
    total = sum(games for _, games in ladder)
    log(f"strength: {', '.join(f'{g} games against {e}' for e, g in ladder)} at {tc}, two at once "
        f"(about {total * (5 if args.quick else 30) // 120 + 1} min{'; resuming ' + pgn if args.resume else ''})")
    for engine, games in ladder:
        # --resume keeps the games already in the PGN (the same opponent, game number, opening
        # and time control) and plays only the others.
        subprocess.run([sys.executable, "-B", os.path.join(ROOT, "scripts", "match.py"), "--engines", engine,
                        "--games", str(games), "--tc", tc, "--concurrency", "2", "--pgn", pgn, "--resume",
                        "--ccr", binaries.ccr("x86_64"), "--ccr-option", "Hash=64"],
                       check=True, stdout=sys.stderr)
    table = Table(os.path.join(args.data, "strength.tsv"), args.size,
                  f"scripts/match.py --engines E --games N --tc {tc} --concurrency 2 --ccr-option Hash=64 for "
                  f"{', '.join(f'{e} {g}' for e, g in ladder)} (games: strength.pgn); W/D/L from ccr's side",
                  ["opponent", "tc", "wins", "draws", "losses"])
    tally = {}
    text = open(pgn).read()
    for game in re.split(r"\n\n(?=\[Event )", text.strip()):
        white = re.search(r'\[White "(.*)"\]', game).group(1)
        black = re.search(r'\[Black "(.*)"\]', game).group(1)
        result = re.search(r'\[Result "(.*)"\]', game).group(1)
        if "[Void " in game:
            continue
        ccr_white = white.startswith("ccr")
        opponent = black if ccr_white else white
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        if points is None:
            continue
        score = points if ccr_white else 1.0 - points
        w, d, l = tally.get(opponent, (0, 0, 0))
        tally[opponent] = (w + (score == 1.0), d + (score == 0.5), l + (score == 0.0))
    for opponent, (w, d, l) in sorted(tally.items()):
        table.row(opponent, tc, w, d, l)


# Programs some steps run that no build provides: the make target that installs each.
TOOLS = {"valgrind": ("instructions", "costs", "bench"), "/usr/bin/cargo": ("tests",)}
INSTALLED_BY = {"valgrind": "make bench-setup", "/usr/bin/cargo": "make setup32"}


def check_tools(args, steps):
    """The programs the steps run must be installed. Debian's cargo (the i686 tests of the
    full size) is installed by the build itself (make setup32), so it is checked with
    --no-build only."""
    for tool, steps_using in TOOLS.items():
        users = [s for s in steps if s in steps_using]
        if tool == "/usr/bin/cargo" and (args.quick or not args.no_build):
            continue
        if users and not shutil.which(tool):
            raise UsageError(f"{tool} not found (the {', '.join(users)} step needs it); install it with "
                             f"`{INSTALLED_BY[tool]}`")


def check_data(path):
    """--data made absolute, and a directory this process can write to (made if need be)."""
    path = os.path.abspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--data {path} is not a directory")
    ancestor = os.path.dirname(path)
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise UsageError(f"--data {path}: {ancestor} is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".write-check-")
        os.close(fd)
        os.remove(probe)
    except OSError as err:
        raise UsageError(f"--data {path}: cannot write there: {err.strerror or err}") from None
    return path


def main():
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, under ten minutes of measuring")
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data"),
                    help="output directory, made if need be (default docs/data)")
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"comma-separated subset of {','.join(STEPS + EXTRA_STEPS)}, at least one (default: all "
                         f"but {','.join(EXTRA_STEPS)})")
    ap.add_argument("--no-build", action="store_true",
                    help="reuse the binaries in target/reproduce (an error names a missing one)")
    ap.add_argument("--resume", action="store_true",
                    help="the strength step keeps the games already in strength.pgn (give it the build that "
                         "played them) and plays only the rest")
    args = ap.parse_args()
    # SIGTERM unwinds like Ctrl-C: the running measurement is stopped and a shard's claim freed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    if not steps:
        ap.error(f"--steps {args.steps!r} names no step; choose from {', '.join(STEPS + EXTRA_STEPS)}")
    unknown = [s for s in steps if s not in STEPS + EXTRA_STEPS]
    if unknown:
        ap.error(f"unknown step(s) {', '.join(unknown)}; choose from {', '.join(STEPS + EXTRA_STEPS)}")
    args.size = "quick" if args.quick else "full"
    args.data = check_data(args.data)
    check_tools(args, steps)
    binaries = Binaries()
    if args.no_build:
        binaries.check(args, steps)
    else:
        binaries.build()
    for step in STEPS + EXTRA_STEPS:
        if step in steps:
            began = time.monotonic()
            globals()[f"step_{step}"](args, binaries)
            log(f"{step}: done in {time.monotonic() - began:.0f} s")
    log(f"all done; scripts/report.py draws the report from {args.data}")


if __name__ == "__main__":
    try:
        main()
    except UsageError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)

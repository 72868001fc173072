#!/usr/bin/env python3
"""Runs every measurement docs/PAPER.md quotes and writes the raw results under docs/data/.

Usage: scripts/reproduce.py [--quick] [--data DIR] [--steps a,b,...] [--no-build]
                            [--[no-]same-compiler] [--report] [--resume] [--tally]
                            (`make reproduce`)

First the build, unless --no-build: ccr and examples/crate_perft for x86_64 by rustup's rustc
(as `make build`) and for i686 by Debian's (as `make build32`), and, unless --quick or
--no-same-compiler, for x86_64 by Debian's rustc too (target/debian-rustc), so that i686 can be
set against x86_64 built by the same compiler; rustup's and Debian's builds run at once. Rows
measured per build name the rustc that built it (column `compiler`).

Steps, in order (each writes DIR/<step>.tsv, or the files named):
  tests        the paper's reference vectors and exact claims: the Rust tests that check them,
               each test's name, outcome and what it printed (x86_64; with the full size also
               i686; --quick builds them without link-time optimisation)
  perft        wall clock of perft, every leaf made and the last ply bulk-counted, on the six
               standard positions: `ccr perft` for every representation x implementation and
               the oracle crates (examples/crate_perft.rs: shakmaty, cozy-chess, chess), on
               every build, in rounds that rotate the builds' order; every count is checked
               against tests/data/standard-perft.epd. On a CPU with AVX-512F also the kernel
               held to AVX2 (CCR_SIMD_MAX=avx2), to set the two against each other
  instructions perft 3 counted by callgrind, start-up left out (perft 1 of the start
               position subtracted), per leaf
  costs        instructions per call of the operations the paper prices (attack tables and
               queries, the conversion, keys, the two evaluators, the assembly routines):
               the iai-callgrind benches benches/instructions.rs and benches/asm_instructions.rs
  bench        `ccr bench` on both architectures with each evaluator (the search's nodes per
               second; stderr's quiescence share and copy-make bytes go to bench-profile.tsv),
               then callgrind's instructions per node of a shallower bench (bench-instructions.tsv)
  engines      Debian's Stockfish 15.1 (classical, NNUE) and Glaurung 2.2, amd64 against their
               i386 builds (scripts/engine-arch-pairs.py; `make setup-engines32` fetches them)
  keys         `ccr keystats`: the rotation key against Zobrist over N distinct positions
               (full and truncated collisions against the birthday bound, cost per key); then
               the same run as four shards, merged: keys-shards.tsv says whether the merged
               report equals the one process's, and what each process cost
  strength     the ladder: ccr against Phalanx, Sjeng, Glaurung 2.2, Toga II 3.0, Ethereal
               12.00 (200 games each for these three) and Stockfish 15.1 at 10+0.1
               (scripts/match.py); games in strength.pgn, the tally in strength.tsv; --resume
               keeps the games played; --tally plays none and tallies the games there (a ladder
               cut short, without building)
  limit        the strength limit's calibration: ccr at each calibrated UCI_Elo (a node budget a
               move) against Fairy-Max, Phalanx and Glaurung 2.2 at 10+0.1; games in
               limit-NODES.pgn, the tally in limit.tsv; --resume keeps the games played
Asked for by name only (--steps scale), as it takes hours:
  scale        `ccr keystats` at 10^9 distinct positions in 16 shards, each shard's partial
               result (keys-scale/) and cost (keys-scale-shards.tsv) kept, merged into
               keystats-scale.md and keys-scale.tsv once all are in; a stopped run resumes,
               and a second process of this step takes the next free shard (two cores, about
               25 GB of disk each)

Every TSV opens with comment lines: machine, CPU features, compilers, commit, date, the
size (full or quick) and what was run. --quick runs smaller sizes (no second x86_64 build, the
tests without LTO, one perft round, Kiwipete alone under callgrind, `ccr bench 9` once, 10^6
keys, two fast games per opponent). Progress goes to stderr: a line as each step starts, saying
which steps are left, and lines within the long ones. --report then draws the documents
(scripts/report.py: from docs/data the tracked ones, from any other --data into that directory).

This script installs nothing. The arguments and what the steps need are checked before
anything is built or measured: --steps names at least one step, all known; --data is a
directory that can be written (made if missing); with --no-build, every binary the steps run
is in target/reproduce/ (else the error names the missing one and the command that builds
it); every program and package the steps run is installed (else the error names each, the
steps that need it and the make target that installs it: `make setup` installs them all). A
bad argument or a missing prerequisite is one `error:` line with exit status 2; a measurement
that fails, one `error:` line with exit status 1.
"""

import argparse
import datetime
import glob
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
STEPS = ("tests", "perft", "instructions", "costs", "bench", "engines", "keys", "strength", "limit")
# Steps run only when asked for (--steps): hours of machine.
EXTRA_STEPS = ("scale",)
# ccr's representations and the implementations each offers (`ccr perft --repr --impl`).
CCR_SUBJECTS = [("ccr", "portable"), ("ccr", "simd"), ("ccr", "asm"),
                ("bitboard", "portable"), ("bitboard", "simd"), ("bitboard", "asm"),
                ("bitboard-native", "portable"), ("rotated", "portable"), ("x88", "portable")]
# The engine's kernel held to AVX2 (CCR_SIMD_MAX), perft only and only on a CPU with AVX-512F,
# where `--impl simd` would otherwise run the AVX-512 kernels: the one figure that sets them
# against AVX2 on the same machine.
CAPPED = ("ccr", "simd-avx2")
CRATES = ["shakmaty", "cozy-chess", "chess"]
# Perft depths per position, made (benches/common `perft_depth`: 10-100 ms a run) and bulk
# (0.05-1 s a run on the fastest subjects: the depths at which pure generation is judged).
DEPTHS = {"startpos": (5, 6), "kiwipete": (4, 5), "position3": (5, 7),
          "position4": (4, 5), "position5": (4, 5), "position6": (4, 5)}
# The subjects whose bulk count is broken down by function under callgrind, and the depths.
COUNT_PROFILED = [("ccr", "portable"), ("ccr", "simd"), ("bitboard-native", "portable")]
COUNT_PROFILE_DEPTHS = {"startpos": 4, "kiwipete": 3, "position3": 5, "position4": 4,
                        "position5": 3, "position6": 3}
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


# The builds measured. x86_64 by rustup's compiler, as `make build` makes the engine; i686 by
# Debian's, as `make build32` does (rustup has no i686 std here); and x86_64 by Debian's too, so
# that i686 against x86_64 can compare one compiler's code and the report can show what the
# compiler alone does to the x86_64 figures. Debian's builds go to their own target directory,
# so that they run beside rustup's build instead of waiting on its lock.
TARGET64 = "x86_64-unknown-linux-gnu"
DEBIAN_ENV = {"RUSTC": "/usr/bin/rustc", "RUSTDOC": "/usr/bin/rustdoc"}
DEBIAN_DIR = os.path.join("target", "debian-rustc")
BUILDS = {
    "x86_64": {"arch": "x86_64", "rustc": "rustc", "cargo": "cargo", "env": {}, "target": None, "dir": "target"},
    "i686": {"arch": "i686", "rustc": "/usr/bin/rustc", "cargo": "/usr/bin/cargo", "env": DEBIAN_ENV,
             "target": TARGET32, "dir": DEBIAN_DIR},
    "x86_64-debian": {"arch": "x86_64", "rustc": "/usr/bin/rustc", "cargo": "/usr/bin/cargo", "env": DEBIAN_ENV,
                      "target": TARGET64, "dir": DEBIAN_DIR},
}
COMPILERS = {}


def compiler(build):
    """`rustc X.Y.Z` of the compiler that makes a build (the column every per-build row
    carries), or `none`."""
    rustc = BUILDS[build]["rustc"]
    if rustc not in COMPILERS:
        try:
            COMPILERS[rustc] = " ".join(run([rustc, "--version"]).stdout.split()[:2])
        except (OSError, RuntimeError):
            COMPILERS[rustc] = "none"
    return COMPILERS[rustc]


def compilers():
    """The Rust compilers of the builds, in full: rustup's (x86_64) and Debian's (i686, and
    x86_64-debian when that build is measured)."""
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

    def __init__(self, builds):
        self.dir = os.path.join(ROOT, "target", "reproduce")
        self.builds = builds
        os.makedirs(self.dir, exist_ok=True)

    def commands(self, build):
        """The cargo commands that make a build's ccr and examples/crate_perft, with their
        environment."""
        b = BUILDS[build]
        where = (["--target", b["target"]] if b["target"] else []) + \
            (["--target-dir", os.path.join(ROOT, b["dir"])] if b["dir"] != "target" else [])
        env = dict(os.environ, **b["env"])
        return [([b["cargo"], "build", "--release"] + where, env),
                ([b["cargo"], "build", "--release"] + where + ["--features", "benches", "--example", "crate_perft"], env)]

    def built(self, build):
        """Where a build's cargo leaves its release binaries."""
        b = BUILDS[build]
        return os.path.join(ROOT, b["dir"], b["target"] or "", "release")

    def build(self):
        """rustup's build and Debian's builds (one after the other) run at once, two lanes for
        two cores; each lane's output goes to target/reproduce/build-LANE.log."""
        lanes = {"rustup": [b for b in self.builds if BUILDS[b]["cargo"] == "cargo"],
                 "debian": [b for b in self.builds if BUILDS[b]["cargo"] != "cargo"]}
        log("build: " + "; ".join(f"{lane}'s compiler: {', '.join(builds)} (ccr and examples/crate_perft)"
                                  for lane, builds in lanes.items() if builds) + ", two at once")
        failed = []

        def lane(name, builds):
            path = os.path.join(self.dir, f"build-{name}.log")
            with open(path, "w") as out:
                for build in builds:
                    for command, env in self.commands(build):
                        out.write("$ " + " ".join(command) + "\n")
                        out.flush()
                        began = time.monotonic()
                        if subprocess.run(command, cwd=ROOT, env=env, stdout=out, stderr=out).returncode:
                            failed.append((" ".join(command), path))
                            return
                        log(f"build: {' '.join(command[1:])} done in {time.monotonic() - began:.0f} s")

        threads = [threading.Thread(target=lane, args=(n, b)) for n, b in lanes.items() if b]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if failed:
            command, path = failed[0]
            tail = open(path).read()[-2000:]
            raise RuntimeError(f"build failed: {command} (its output: {path}):\n{tail}")
        for path, (built, _) in self.sources().items():
            if not os.path.isfile(built):
                raise RuntimeError(f"the build left no {built}")
            shutil.copy(built, path)

    def sources(self):
        """Each binary measured: where the build leaves it and the command that builds it (the
        commands `make` uses where there is one: they make the same binary)."""
        shown = {"x86_64": ("make build", "cargo build --release"),
                 "i686": ("make build32", f"RUSTC=/usr/bin/rustc /usr/bin/cargo build --release --target {TARGET32} "
                          f"--target-dir {DEBIAN_DIR}"),
                 "x86_64-debian": (f"RUSTC=/usr/bin/rustc /usr/bin/cargo build --release --target {TARGET64} "
                                   f"--target-dir {DEBIAN_DIR}",) * 2}
        out = {}
        for build in self.builds:
            release = self.built(build)
            ccr, crates = shown[build]
            out[self.ccr(build)] = (os.path.join(release, "ccr"), ccr)
            out[self.crates(build)] = (os.path.join(release, "examples", "crate_perft"),
                                       f"{crates} --features benches --example crate_perft")
        return out

    def needed(self, args, steps):
        """The binaries the steps run: {path: [steps]}."""
        everything = [p for b in self.builds for p in (self.ccr(b), self.crates(b))]
        uses = {"perft": everything, "instructions": everything,
                "bench": [self.ccr(b) for b in self.builds],
                "keys": [self.ccr("x86_64")], "strength": [] if args.tally else [self.ccr("x86_64")],
                "limit": [self.ccr("x86_64")],
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

    def ccr(self, build):
        return os.path.join(self.dir, f"ccr-{build}")

    def crates(self, build):
        return os.path.join(self.dir, f"crate_perft-{build}")

    def perft_command(self, build, subject, impl, depth, fen, bulk):
        """The perft command line of a subject (a ccr representation or a crate)."""
        if subject in CRATES:
            command = [self.crates(build), subject, str(depth), "--fen", fen]
        elif (subject, impl) == CAPPED:
            command = ["env", "CCR_SIMD_MAX=avx2", self.ccr(build), "perft", str(depth), "--fen", fen,
                       "--repr", subject, "--impl", "simd"]
        else:
            command = [self.ccr(build), "perft", str(depth), "--fen", fen, "--repr", subject, "--impl", impl]
        return command + (["--bulk"] if bulk else [])


def offered(binaries):
    """(subject, implementation) pairs every build runs: the assembly and SIMD where built."""
    pairs = []
    for subject, impl in CCR_SUBJECTS:
        ok = all(subprocess.run([binaries.ccr(b), "perft", "1", "--repr", subject, "--impl", impl],
                                capture_output=True).returncode == 0 for b in binaries.builds)
        if ok:
            pairs.append((subject, impl))
        else:
            log(f"skipping {subject} {impl}: not offered by every build")
    return pairs + [(c, "-") for c in CRATES]


def test_outputs(stdout):
    """{test: what it printed} from `cargo test -- --show-output` (one line, tabs out)."""
    found = {}
    for name, text in re.findall(r"^---- (\S+) stdout ----\n(.*?)(?=^----|^successes:|^failures:|\Z)",
                                 stdout, re.M | re.S):
        text = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
        if text:
            found[name] = text.replace("\t", " ")[:300]
    return found


def step_tests(args, binaries):
    """The Rust tests of the paper's exact claims: name, outcome and what each printed (the
    counts docs/PAPER.md quotes), per architecture. --quick builds them without link-time
    optimisation in a target directory of their own (target/reproduce/tests): the outcomes
    are the same, the build takes a fraction of the time."""
    table = Table(os.path.join(args.data, "tests.tsv"), args.size,
                  "cargo test --release: --lib, and --test integration with the modules paper, attacks, keys, eval; "
                  "-- --show-output; one row "
                  "per test, with the first 300 characters it printed" +
                  ("; built without LTO (--quick)" if args.quick else ""),
                  ["arch", "file", "test", "outcome", "output"])
    runs = [("x86_64", ["cargo"], {}, [])]
    if args.quick:
        runs = [("x86_64", ["cargo"], {"CARGO_PROFILE_RELEASE_LTO": "false", "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": "16"},
                 ["--target-dir", os.path.join(ROOT, "target", "reproduce", "tests")])]
    else:
        runs.append(("i686", ["/usr/bin/cargo"], DEBIAN_ENV, ["--target", TARGET32, "--target-dir", DEBIAN_DIR]))
    for arch, cargo, env, where in runs:
        for name in PAPER_TESTS:
            log(f"tests: {name} on {arch}")
            # Each file of tests/ is a module, named as the file, of the one integration-test binary.
            which, module = (["--lib"], "") if name == "--lib" else (["--test", "integration"], f"{name}::")
            filters = [module] if module else []
            done = subprocess.run(cargo + ["test", "--release"] + which + where + ["--"] + filters + ["--show-output"],
                                  cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, **env))
            found = [(test.removeprefix(module), outcome)
                     for test, outcome in re.findall(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", done.stdout, re.M)
                     if test.startswith(module)]
            if done.returncode != 0 or not found:
                print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
            printed = {test.removeprefix(module): text for test, text in test_outputs(done.stdout).items()}
            for test, outcome in found:
                table.row(arch, "lib" if name == "--lib" else name, test, outcome, printed.get(test, ""))


def timed_perft(binaries, build, subject, impl, ident, fen, depth, bulk, expected):
    """(nodes, seconds) of one perft run, the count checked against the published one."""
    done = run(binaries.perft_command(build, subject, impl, depth, fen, bulk))
    nodes = int(done.stdout.strip().splitlines()[-1].split(": ")[1])
    if nodes != expected:
        raise RuntimeError(f"{build} {subject} {impl} {ident} depth {depth}: {nodes} leaves, published {expected}")
    return nodes, float(re.search(r"time ([\d.]+) s", done.stderr).group(1))


def step_perft(args, binaries):
    """Perft wall clock, every subject on every build, made and bulk-counted leaves."""
    rounds = 1 if args.quick else 7
    table = Table(os.path.join(args.data, "perft.tsv"), args.size,
                  f"perft on the six standard positions, {rounds} round(s), the builds ({', '.join(binaries.builds)}) "
                  "in an order rotated each round; seconds are the binary's own (`time S s`, no start-up or "
                  "parsing); compiler: the rustc that built the binary",
                  ["round", "arch", "compiler", "subject", "impl", "leaves", "position", "depth", "nodes", "seconds"])
    subjects = offered(binaries)
    if ("ccr", "simd") in subjects and "avx512f" in cpu()[1]:
        subjects.insert(subjects.index(("ccr", "simd")) + 1, CAPPED)
    builds = binaries.builds
    for r in range(1, rounds + 1):
        shift = (r - 1) % len(builds)
        order = builds[shift:] + builds[:shift]
        log(f"perft: round {r} of {rounds} ({len(subjects)} subjects x 6 positions x 2 x {len(builds)} builds)")
        for subject, impl in subjects:
            for ident, fen, counts in standard():
                for leaves, bulk in (("made", False), ("bulk", True)):
                    depth = DEPTHS[ident][bulk]
                    for build in order:
                        nodes, secs = timed_perft(binaries, build, subject, impl, ident, fen, depth,
                                                  bulk, counts[depth])
                        table.row(r, BUILDS[build]["arch"], compiler(build), subject, impl, leaves, ident, depth,
                                  nodes, f"{secs:.6f}")


def callgrind(command):
    """callgrind's instruction count of a command (the largest process: criterion-free)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"callgrind {' '.join(command)}: {done.stderr.strip()[-1000:]}")
    counts = re.findall(r"Collected : (\d+)", done.stderr)
    return max(int(c) for c in counts)


def callgrind_functions(command):
    """callgrind's instructions per function of a command, {symbol: instructions}, each
    function's own (what it inlined counts as its own)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"callgrind {' '.join(command)}: {done.stderr.strip()[-1000:]}")
        shown = run(["callgrind_annotate", "--threshold=100", out]).stdout
    functions = {}
    for count, name in re.findall(r"^\s*([\d,]+) \([\s\d.]+%\)\s+\S*?:(.+?)(?: \[.*\])?$", shown, re.M):
        functions[name] = functions.get(name, 0) + int(count.replace(",", ""))
    return functions


def step_count_profile(args, binaries):
    """The bulk count's instructions by function under callgrind: the C.C.R. (portable and
    as the engine generates) and ccr's magic bitboards, on every build. valgrind decodes no
    AVX-512, so the SIMD kernel measured is the AVX2 one (the portable code on i686, where
    valgrind's 32-bit mode decodes no AVX2 either)."""
    positions = [p for p in standard() if not args.quick or p[0] == "kiwipete"]
    table = Table(os.path.join(args.data, "count-functions.tsv"), args.size,
                  "valgrind --tool=callgrind ccr perft D --bulk (D per position: " +
                  ", ".join(f"{k} {v}" for k, v in COUNT_PROFILE_DEPTHS.items()) +
                  "); every function's own instructions (inlined code counts as its caller's), those "
                  "under 0.5% of the run summed as `(other)`; compiler: the rustc that built the binary",
                  ["arch", "compiler", "subject", "impl", "position", "leaves", "function", "instructions"])
    for build in binaries.builds:
        log(f"instructions: bulk counts by function, {build}")
        for subject, impl in COUNT_PROFILED:
            for ident, fen, counts in positions:
                depth = COUNT_PROFILE_DEPTHS[ident]
                command = binaries.perft_command(build, subject, impl, depth, fen, True)
                functions = callgrind_functions(command)
                total = sum(functions.values())
                other = 0
                for name, count in sorted(functions.items(), key=lambda kv: -kv[1]):
                    if count >= total / 200:
                        table.row(BUILDS[build]["arch"], compiler(build), subject, impl, ident, counts[depth],
                                  name.replace("\t", " "), count)
                    else:
                        other += count
                table.row(BUILDS[build]["arch"], compiler(build), subject, impl, ident, counts[depth], "(other)",
                          other)


def step_instructions(args, binaries):
    """Instructions per leaf of perft 3 under callgrind, every subject and build, start-up
    subtracted; then the bulk count by function ([`step_count_profile`])."""
    positions = [p for p in standard() if not args.quick or p[0] == "kiwipete"]
    start = standard()[0]
    table = Table(os.path.join(args.data, "instructions.tsv"), args.size,
                  "valgrind --tool=callgrind: perft 3 (every leaf made) minus the same binary's perft 1 "
                  "of the start position (start-up, parsing, first use of the tables); leaves = D3; "
                  "compiler: the rustc that built the binary",
                  ["arch", "compiler", "subject", "impl", "position", "leaves", "instructions"])
    subjects = offered(binaries)
    for build in binaries.builds:
        log(f"instructions: {build}, {len(subjects)} subjects x {len(positions)} position(s)")
        for subject, impl in subjects:
            base = callgrind(binaries.perft_command(build, subject, impl, 1, start[1], False))
            for ident, fen, counts in positions:
                full = callgrind(binaries.perft_command(build, subject, impl, 3, fen, False))
                table.row(BUILDS[build]["arch"], compiler(build), subject, impl, ident, counts[3], full - base)
    step_count_profile(args, binaries)


def step_costs(args, binaries):
    """iai-callgrind's instruction counts per call (x86_64): every benchmark of the two benches."""
    table = Table(os.path.join(args.data, "costs.tsv"), args.size,
                  "cargo bench --features benches --bench instructions; cargo bench --features benches --bench asm_instructions (iai-callgrind "
                  "0.16.1, callgrind; x86_64, the SIMD tier the CPU has under valgrind)",
                  ["bench", "group", "function", "input", "instructions"])
    for bench in ("instructions", "asm_instructions"):
        log(f"costs: cargo bench --features benches --bench {bench}")
        done = run(["cargo", "bench", "--features", "benches", "--bench", bench], cwd=ROOT)
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
    """`ccr bench` speed on every build and evaluator, then its instructions per node."""
    rounds, depth, idepth = (1, 9, 4) if args.quick else (5, 11, 6)
    table = Table(os.path.join(args.data, "bench.tsv"), args.size,
                  f"ccr bench {depth} --eval E, {rounds} round(s), runs in an order rotated each round; "
                  "compiler: the rustc that built the binary",
                  ["round", "arch", "compiler", "eval", "nodes", "nps"])
    profile = Table(os.path.join(args.data, "bench-profile.tsv"), args.size,
                    f"ccr bench {depth} --eval E, stderr of the last round: quiescence share (nodes "
                    "counted, time sampled each ms) and copy-make bytes per node",
                    ["arch", "compiler", "eval", "metric", "value"])
    runs = [(b, e) for b in binaries.builds for e in ("frame", "bitboards")]
    for r in range(1, rounds + 1):
        log(f"bench: round {r} of {rounds} ({len(runs)} runs)")
        shift = (r - 1) % len(runs)
        for build, evaluator in runs[shift:] + runs[:shift]:
            done = run([binaries.ccr(build), "bench", str(depth), "--eval", evaluator, "--profile"])
            nodes, nps = re.fullmatch(r"(\d+) nodes (\d+) nps", done.stdout.strip().splitlines()[-1]).groups()
            table.row(r, BUILDS[build]["arch"], compiler(build), evaluator, nodes, nps)
            if r == rounds:
                for metric, value in bench_profile(done.stderr):
                    profile.row(BUILDS[build]["arch"], compiler(build), evaluator, metric, value)
    instructions = Table(os.path.join(args.data, "bench-instructions.tsv"), args.size,
                         f"valgrind --tool=callgrind ccr bench {idepth} --eval E; compiler: the rustc that built "
                         "the binary",
                         ["arch", "compiler", "eval", "nodes", "instructions"])
    for build, evaluator in runs:
        log(f"bench: callgrind {build} {evaluator}")
        command = [binaries.ccr(build), "bench", str(idepth), "--eval", evaluator]
        nodes = re.match(r"(\d+) nodes", run(command).stdout.strip().splitlines()[-1]).group(1)
        instructions.row(BUILDS[build]["arch"], compiler(build), evaluator, nodes, callgrind(command))


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


# The ladder of Debian's engines and the games against each: Toga II 3.0, Glaurung 2.2 and
# Ethereal 12.00, the engines the strength goals are set against, at the 200 games they ask
# for; Stockfish 15.1 only as the ceiling, so fewer.
LADDER = (("phalanx", 40), ("sjeng", 40), ("glaurung", 200), ("toga2", 200), ("ethereal", 200),
          ("stockfish", 20))


def step_strength(args, binaries):
    """The ladder: ccr against Debian's engines at 10+0.1, Hash 64, one thread each; PGN and tally."""
    tc = "2+0.05" if args.quick else "10+0.1"
    ladder = [(engine, 2 if args.quick else games) for engine, games in LADDER]
    pgn = os.path.join(args.data, "strength.pgn")
    if args.tally:
        # A ladder cut short: the table says which games it holds, and --resume plays the rest.
        played = games_by_engine(pgn)
        ladder = [(engine, played[engine]) for engine, _ in ladder if played.get(engine)]
        log(f"strength: no games played; tallying {pgn}: "
            f"{', '.join(f'{g} games against {e}' for e, g in ladder) or 'none'}")
    elif os.path.exists(pgn) and not args.resume:
        os.remove(pgn)
    if not args.tally:
        # The estimate counts only the games still to play: those --resume keeps are not replayed.
        kept = games_by_engine(pgn) if args.resume and os.path.exists(pgn) else {}
        left = sum(max(games - kept.get(engine, 0), 0) for engine, games in ladder)
        log(f"strength: {', '.join(f'{g} games against {e}' for e, g in ladder)} at {tc}, {args.concurrency} at "
            f"once (about {left * (5 if args.quick else 30) // 120 + 1} min"
            f"{f'; resuming {pgn}, {left} games left' if args.resume else ''})")
    for engine, games in [] if args.tally else ladder:
        # --resume keeps the games already in the PGN (the same opponent, game number, opening
        # and time control) and plays only the others.
        subprocess.run([sys.executable, "-B", os.path.join(ROOT, "scripts", "match.py"), "--engines", engine,
                        "--games", str(games), "--tc", tc, "--concurrency", str(args.concurrency), "--pgn", pgn, "--resume",
                        "--ccr", binaries.ccr("x86_64"), "--ccr-option", "Hash=64"],
                       check=True, stdout=sys.stderr)
    table = Table(os.path.join(args.data, "strength.tsv"), args.size,
                  f"scripts/match.py --engines E --games N --tc {tc} --concurrency {args.concurrency} --ccr-option Hash=64 for "
                  f"{', '.join(f'{e} {g}' for e, g in ladder)} (games: strength.pgn){' (the games played so far)' if args.tally else ''}; "
                  "W/D/L from ccr's side",
                  ["opponent", "tc", "wins", "draws", "losses"])
    for opponent, (w, d, l) in sorted(tally_games(pgn).items()):
        table.row(opponent, tc, w, d, l)


POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def counted_games(pgn):
    """The counted games of `pgn` (neither void nor unfinished), each as (its text, White's points)."""
    text = open(pgn).read() if os.path.exists(pgn) else ""
    for game in re.split(r"\n\n(?=\[Event )", text.strip()):
        if not game or "[Void " in game:
            continue
        points = POINTS.get(re.search(r'\[Result "(.*)"\]', game).group(1))
        if points is not None:
            yield game, points


def games_by_engine(pgn):
    """{engine: games} over the counted games of `pgn`, by match.py's name of the opponent (the
    `Round` header's `engine.number`)."""
    counts = {}
    for game, _ in counted_games(pgn):
        engine = re.search(r'\[Round "(.*)\.\d+"\]', game).group(1)
        counts[engine] = counts.get(engine, 0) + 1
    return counts


def tally_games(pgn):
    """{opponent: (wins, draws, losses)} from ccr's side over the counted games of `pgn`."""
    tally = {}
    for game, points in counted_games(pgn):
        white = re.search(r'\[White "(.*)"\]', game).group(1)
        black = re.search(r'\[Black "(.*)"\]', game).group(1)
        ccr_white = white.startswith("ccr")
        opponent = black if ccr_white else white
        score = points if ccr_white else 1.0 - points
        w, d, l = tally.get(opponent, (0, 0, 0))
        tally[opponent] = (w + (score == 1.0), d + (score == 0.5), l + (score == 0.0))
    return tally


# The strength limit's opponents, and the one whose rating fixes the scale's origin (a round
# figure, chosen): every other rating, the opponents' and the settings', is fitted to the games.
LIMIT_OPPONENTS = ("fairymax", "phalanx", "glaurung")
ANCHOR = ("glaurung", 2650)
# The calibrated settings of src/search/strength.rs (UCI_Elo, its nodes a move) and the games
# each plays: most against the opponent nearest its rating, some against a neighbour.
LIMIT = ((1720, 6_000, (("fairymax", 40), ("phalanx", 20))),
         (2070, 20_000, (("fairymax", 40), ("phalanx", 40))),
         (2270, 50_000, (("phalanx", 100), ("glaurung", 60), ("fairymax", 20))),
         (2420, 100_000, (("glaurung", 80), ("phalanx", 80))),
         (2530, 200_000, (("glaurung", 60), ("phalanx", 40))))


def limit_budget(binary, elo):
    """The nodes a move ccr says `UCI_Elo elo` means (its `info string`)."""
    session = "uci\nsetoption name UCI_LimitStrength value true\n" \
              f"setoption name UCI_Elo value {elo}\nquit\n"
    out = subprocess.run([binary], input=session, capture_output=True, text=True, check=True).stdout
    m = re.search(rf"info string UCI_Elo {elo}: (\d+) nodes a move", out)
    if not m:
        raise RuntimeError(f"{binary} does not take UCI_Elo {elo} (the calibrated range changed?)")
    return int(m.group(1))


def step_limit(args, binaries):
    """The strength limit's calibration games: each setting against its opponents; PGN and tally."""
    tc = "2+0.05" if args.quick else "10+0.1"
    ccr = binaries.ccr("x86_64")
    table = Table(os.path.join(args.data, "limit.tsv"), args.size,
                  f"scripts/match.py --engines E --games N --tc {tc} --concurrency {args.concurrency} --ccr-option Hash=64 "
                  "--ccr-option UCI_LimitStrength=true --ccr-option UCI_Elo=ELO (games: limit-NODES.pgn); "
                  f"W/D/L from ccr's side; the scale's anchor: {ANCHOR[0]} at {ANCHOR[1]}",
                  ["elo", "nodes", "opponent", "anchor", "tc", "wins", "draws", "losses"])
    for elo, nodes, games in LIMIT:
        said = limit_budget(ccr, elo)
        if said != nodes:
            raise RuntimeError(f"UCI_Elo {elo} is {said} nodes a move in {ccr}, {nodes} in this script's "
                               "LIMIT: make the two tables agree (src/search/strength.rs)")
        # One file per budget: the games depend on the nodes, not on the rating they are called.
        pgn = os.path.join(args.data, f"limit-{nodes}.pgn")
        if os.path.exists(pgn) and not args.resume:
            os.remove(pgn)
        for engine, count in games:
            count = 2 if args.quick else count
            log(f"limit: UCI_Elo {elo} ({nodes} nodes a move) against {engine}, {count} games at {tc}")
            subprocess.run([sys.executable, "-B", os.path.join(ROOT, "scripts", "match.py"), "--engines", engine,
                            "--games", str(count), "--tc", tc, "--concurrency", str(args.concurrency), "--pgn", pgn,
                            "--resume",
                            "--ccr", ccr, "--ccr-option", "Hash=64", "--ccr-option", "UCI_LimitStrength=true",
                            "--ccr-option", f"UCI_Elo={elo}"], check=True, stdout=sys.stderr)
        for opponent, (w, d, l) in sorted(tally_games(pgn).items()):
            # The engine's own name ("Glaurung 2.2") holds its key once only letters are kept.
            anchor = ANCHOR[1] if ANCHOR[0] in re.sub(r"[^a-z]", "", opponent.lower()) else "-"
            table.row(elo, nodes, opponent, anchor, tc, w, d, l)


def sysroot_has_std(target):
    """Whether Debian's rustc has the standard library of `target` in its sysroot."""
    try:
        root = run(["/usr/bin/rustc", "--print", "sysroot"]).stdout.strip()
    except RuntimeError:
        return False
    return bool(glob.glob(os.path.join(root, "lib", "rustlib", target, "lib", "libstd-*.rlib")))


def debian_toolchain(targets):
    """Debian's cargo and rustc with the std of each target (and gcc-multilib for i686)."""
    def ready():
        if not all(os.access(p, os.X_OK) for p in ("/usr/bin/cargo", "/usr/bin/rustc", "/usr/bin/rustdoc")):
            return False
        if TARGET32 in targets and not glob.glob("/usr/lib/gcc/x86_64-linux-gnu/*/32/crtbegin.o"):
            return False
        return all(sysroot_has_std(t) for t in targets)
    return ready


def engines32():
    """Debian's i386 Stockfish and Glaurung unpacked under target/engines32, beside the amd64
    ones, with the i386 C++ runtime (what scripts/setup-engines32.sh checks)."""
    folder = os.path.join(ROOT, "target", "engines32", "usr", "games")
    return (all(os.access(os.path.join(d, e), os.X_OK) for d in (folder, "/usr/games") for e in ("stockfish", "glaurung"))
            and os.path.exists("/lib32/libstdc++.so.6"))


def importable(module):
    """Whether the python running this script can import `module`."""
    return subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode == 0


def requirements(args, steps):
    """What the steps need that no build of ccr provides: (what, ready(), steps, make target that
    installs it). `make setup` installs all of it; this script installs nothing."""
    builds = [] if args.no_build else ["build"]
    need = []
    need.append(("rustup's cargo", lambda: shutil.which("cargo") is not None,
                 builds + [s for s in steps if s in ("tests", "costs")], "rustup (https://rustup.rs), then `make setup`"))
    targets = [TARGET32] + ([TARGET64] if "x86_64-debian" in args.builds else [])
    need.append((f"Debian's Rust toolchain (rustc-web, cargo-web, gcc-multilib, the std of {', '.join(targets)})",
                 debian_toolchain(targets), builds, "setup32"))
    if not args.quick:
        need.append(("Debian's Rust toolchain for the i686 tests", debian_toolchain([TARGET32]),
                     [s for s in steps if s == "tests"], "setup32"))
    need.append(("valgrind", lambda: shutil.which("valgrind") is not None,
                 [s for s in steps if s in ("instructions", "costs", "bench")], "bench-setup"))
    need.append(("iai-callgrind-runner 0.16.1", lambda: shutil.which("iai-callgrind-runner") is not None,
                 [s for s in steps if s == "costs"], "bench-setup"))
    need.append(("Debian's i386 Stockfish and Glaurung (target/engines32) and the i386 C++ runtime", engines32,
                 [s for s in steps if s == "engines"], "setup-engines32"))
    for step, engines in (("strength", [e for e, _ in LADDER]), ("limit", list(LIMIT_OPPONENTS))):
        need.append((f"python-chess and Debian's {', '.join(engines)} in /usr/games",
                     lambda engines=engines: importable("chess") and
                     all(os.access(path, os.X_OK) for path in opponent_binaries(engines)),
                     [s for s in steps if s == step and not (s == "strength" and args.tally)], "setup-uci"))
    need.append(("matplotlib", lambda: importable("matplotlib"), ["report"] if args.report else [], "setup-report"))
    return [(what, ready, users, target if target.startswith("rustup") else f"`make {target}`")
            for what, ready, users, target in need if users]


def opponent_binaries(engines):
    """The executables scripts/match.py starts for `engines` (Ethereal's is `ethereal-chess`),
    from match.py's own table; python-chess must be importable, as match.py needs it."""
    import match  # beside this script, so on its path; imported here, once python-chess is there
    known = match.known_engines("ccr")
    return [known[engine].command[0] for engine in engines]


def check_requirements(args, steps):
    """Everything the steps need must be installed; an error names what is missing, the steps
    that need it and the make targets that install it (all of them: `make setup`)."""
    missing = [(what, users, target) for what, ready, users, target in requirements(args, steps) if not ready()]
    if missing:
        raise UsageError("not installed: " + "; ".join(
            f"{what} (needed by {', '.join(users)}; {target})" for what, users, target in missing) +
            ". `make setup` installs all of it and says what it installs first")


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
    ap.add_argument("--quick", action="store_true", help="smaller sizes (see above)")
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data"),
                    help="output directory, made if need be (default docs/data)")
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"comma-separated subset of {','.join(STEPS + EXTRA_STEPS)}, at least one (default: all "
                         f"but {','.join(EXTRA_STEPS)})")
    ap.add_argument("--no-build", action="store_true",
                    help="reuse the binaries in target/reproduce (an error names a missing one)")
    ap.add_argument("--same-compiler", action=argparse.BooleanOptionalAction, default=None,
                    help="also build x86_64 with Debian's rustc, the i686 build's compiler, and measure it in "
                         "the perft, instructions and bench steps (default: yes, but not with --quick)")
    ap.add_argument("--report", action="store_true",
                    help="then draw the documents from --data (scripts/report.py; into --data itself unless "
                         "it is docs/data)")
    ap.add_argument("--concurrency", type=int, default=2, choices=range(1, 9), metavar="N",
                    help="games at once in the strength and limit steps, 1 to 8 (default 2, one a core)")
    ap.add_argument("--resume", action="store_true",
                    help="the strength and limit steps keep the games already in their PGNs (give them the "
                         "build that played them) and play only the rest")
    ap.add_argument("--tally", action="store_true",
                    help="the strength step plays no game: it writes strength.tsv from the games already in "
                         "strength.pgn (a ladder cut short; --resume later plays the rest)")
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
    same = (not args.quick) if args.same_compiler is None else args.same_compiler
    args.builds = ["x86_64", "i686"] + (["x86_64-debian"] if same else [])
    check_requirements(args, steps)
    if same and compiler("x86_64") == compiler("x86_64-debian"):
        log(f"rustup's and Debian's compilers are both {compiler('x86_64')}: no second x86_64 build")
        args.builds.remove("x86_64-debian")
    binaries = Binaries(args.builds)
    if args.no_build:
        binaries.check(args, steps)
    # Tallying the ladder's games needs no binary.
    tally_only = args.tally and set(steps) == {"strength"}
    plan = ([] if args.no_build or tally_only else ["build"]) + [s for s in STEPS + EXTRA_STEPS if s in steps] + \
        (["report"] if args.report else [])
    for k, step in enumerate(plan, 1):
        rest = plan[k:]
        log(f"step {k} of {len(plan)}: {step}; left after it: {', '.join(rest) if rest else 'nothing'}")
        began = time.monotonic()
        if step == "build":
            binaries.build()
        elif step == "report":
            subprocess.run([sys.executable, "-B", os.path.join(ROOT, "scripts", "report.py"), "--data", args.data],
                           check=True, stdout=sys.stderr)
        else:
            globals()[f"step_{step}"](args, binaries)
        log(f"{step}: done in {time.monotonic() - began:.0f} s")
    log(f"all done; the data is in {args.data}" +
        ("" if args.report else f"; `scripts/report.py --data {args.data}` draws the documents from it"))


if __name__ == "__main__":
    try:
        main()
    except UsageError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)

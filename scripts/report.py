#!/usr/bin/env python3
"""Draws docs/PAPER.md, docs/BENCHMARKS.md, the figures of README.md and docs/STRENGTH.md and docs/plots/ from docs/data/.

Usage: scripts/report.py [--data DIR] [--check]   (`make report`; `make reproduce` runs it last)

Reads only the files scripts/reproduce.py writes (plus the paper's own figures, constants
below, quoted from the paper), fills the `{{name}}` placeholders of docs/templates/*.md and
writes the documents; README.md's text between `<!-- report:NAME -->` and `<!-- /report -->`
is replaced by docs/templates/README-NAME.md. Plots are SVG from
matplotlib (Debian's python3-matplotlib, installed by scripts/setup-report.sh).
With --check nothing is written: the documents are drawn in memory and compared with the
committed ones (exit 1 when they differ), so that a figure edited by hand, or data committed
without its report, is caught.
"""

import argparse
import math
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(ROOT, "docs", "templates")

# The paper's own figures (Vučković 2012), quoted where the report sets ccr's beside them.
RYBKA_32, RYBKA_64 = 104, 166  # kN/s, Rybka's 32-bit and 64-bit builds on one AMD64 at 2.4 GHz
PAPER_MATCHES = [  # Achilles (the parallel C.C.R. engine) in the paper's section 6.1
    ("Fruit 2.1", 22, 86.4, 27.3, 320),
    ("Shredder 9", 40, 66.2, 27.5, 118),
    ("Aristarch 4.50", 26, 67.3, 26.9, 126),
]
# Where the performance goals started: the same ratios measured on the code before the work
# toward them (whole process, the six positions, alternating pairs), in the goals' order;
# None where no figure was measured then.
GOALS_BEFORE = [0.85, 1.37, 0.59, None, 0.89, None]
GOALS_BEFORE_COMMIT = "b64ce01"
# The names the report gives the subjects measured.
SUBJECT_NAMES = {
    ("ccr", "portable"): "C.C.R. (portable)",
    ("ccr", "simd"): "C.C.R. + AVX2 attack table",
    ("ccr", "asm"): "C.C.R. + assembly",
    ("bitboard", "portable"): "C.C.R. → bitboards (portable conversion)",
    ("bitboard", "simd"): "C.C.R. → bitboards (SIMD conversion)",
    ("bitboard", "asm"): "C.C.R. → bitboards (assembly conversion)",
    ("bitboard-native", "portable"): "bitboards (magic)",
    ("rotated", "portable"): "rotated bitboards",
    ("x88", "portable"): "0x88",
    ("shakmaty", "-"): "shakmaty 0.27.3",
    ("cozy-chess", "-"): "cozy-chess 0.3.4",
    ("chess", "-"): "chess 3.2.0",
}


class Data:
    """One TSV of docs/data: its comment lines as a dict, its rows as dicts."""

    def __init__(self, path):
        self.meta, self.rows, columns = {}, [], None
        for line in open(path):
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                self.meta.setdefault(key.strip(), value.strip())
            elif columns is None:
                columns = line.split("\t")
            elif line:
                self.rows.append(dict(zip(columns, line.split("\t"))))

    def where(self, **match):
        return [r for r in self.rows if all(r[k] == v for k, v in match.items())]


def load(data_dir):
    found = {}
    for name in ("tests", "perft", "instructions", "costs", "bench", "bench-profile", "bench-instructions",
                 "engines", "keys", "keys-shards", "strength"):
        path = os.path.join(data_dir, name + ".tsv")
        if not os.path.exists(path):
            sys.exit(f"error: {path} is missing: run scripts/reproduce.py (make reproduce) first")
        found[name] = Data(path)
    # The keys at scale: a step asked for by name, hours long, so possibly not run (or not
    # finished: its shards' costs come before their merge).
    # The search-speed goal: two commits' builds compared by scripts/arch-pairs.py, not a step.
    # The table's memory (prefetch, huge pages): the same, before and after that change.
    for name in ("keys-scale-shards", "keys-scale", "search-speed", "table-memory"):
        path = os.path.join(data_dir, name + ".tsv")
        found[name] = Data(path) if os.path.exists(path) else None
    return found


def median(values):
    return statistics.median(values) if values else float("nan")


def fmt(x, digits=2):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:,.{digits}f}"


def table(header, rows, align=None):
    """A markdown table."""
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


class Perft:
    """Perft speed: M nodes/s per subject, architecture and leaves, medians over rounds."""

    def __init__(self, data):
        self.data = data
        self.subjects = []
        for r in data.rows:
            key = (r["subject"], r["impl"])
            if key not in self.subjects:
                self.subjects.append(key)
        self.rounds = sorted({int(r["round"]) for r in data.rows})

    def round_speed(self, subject, arch, leaves, rnd):
        rows = self.data.where(subject=subject[0], impl=subject[1], arch=arch, leaves=leaves, round=str(rnd))
        if len(rows) != 6:
            return None
        return sum(int(r["nodes"]) for r in rows) / sum(float(r["seconds"]) for r in rows) / 1e6

    def speed(self, subject, arch, leaves="made"):
        return median([s for s in (self.round_speed(subject, arch, leaves, r) for r in self.rounds) if s])

    def ratio(self, subject, leaves="made"):
        """i686 / x86_64: the median over rounds of each round's ratio."""
        ratios = []
        for r in self.rounds:
            a, b = self.round_speed(subject, "i686", leaves, r), self.round_speed(subject, "x86_64", leaves, r)
            if a and b:
                ratios.append(a / b)
        return median(ratios)


def instructions_per_leaf(data, subject, arch):
    rows = data.where(subject=subject[0], impl=subject[1], arch=arch)
    if not rows:
        return float("nan")
    return sum(int(r["instructions"]) for r in rows) / sum(int(r["leaves"]) for r in rows)


def goals_table(perft, instructions, engine, portable):
    """The performance goals: the C.C.R. as the engine generates (`engine`, the SIMD kernel)
    against the crates and against itself on the other architecture, each with its target and
    whether it is met; the portable generator's figure beside it."""
    crates = [c for c in (("shakmaty", "-"), ("cozy-chess", "-"), ("chess", "-")) if c in perft.subjects]

    def against(ccr, arch, leaves, subjects):
        """The C.C.R.'s speed over the fastest of `subjects`, and that subject's name."""
        best = max(subjects, key=lambda c: perft.speed(c, arch, leaves))
        return perft.speed(ccr, arch, leaves) / perft.speed(best, arch, leaves), SUBJECT_NAMES[best]

    def ipl(ccr):
        return instructions_per_leaf(instructions, ccr, "x86_64") / instructions_per_leaf(instructions, ccr, "i686")

    rows = []
    for goal, arch, leaves, subjects, target in (
            ("every leaf made, x86_64, ÷ shakmaty", "x86_64", "made", crates[:1], 1.25),
            ("every leaf made, i686, ÷ the fastest crate", "i686", "made", crates, 1.5),
            ("last ply bulk-counted, x86_64, ÷ shakmaty", "x86_64", "bulk", crates[:1], 1.0),
            ("last ply bulk-counted, i686, ÷ the fastest crate", "i686", "bulk", crates, 1.0)):
        ratio, name = against(engine, arch, leaves, subjects)
        plain, _ = against(portable, arch, leaves, subjects)
        rows.append([goal, f"≥ {target:.2f}", f"{fmt(ratio, 2)} ({name})", fmt(plain, 2),
                     "yes" if ratio >= target else "no"])
    speed = perft.ratio(engine)
    rows.append(["C.C.R. i686 ÷ x86_64, speed, every leaf made", "≥ 0.92", fmt(speed, 2),
                 fmt(perft.ratio(portable), 2), "yes" if speed >= 0.92 else "no"])
    # valgrind's 32-bit mode decodes no AVX2, so under callgrind the i686 SIMD kernel runs its
    # portable fallback: only the portable generator compares like with like here.
    rows.append(["C.C.R. x86_64 ÷ i686, instructions per leaf (perft 3, made; portable on both)", "≥ 0.92",
                 "—", fmt(ipl(portable), 2), "yes" if ipl(portable) >= 0.92 else "no"])
    for row, before in zip(rows, GOALS_BEFORE):
        row.insert(2, "—" if before is None else fmt(before, 2))
    return table(["goal (speed ratio, above 1: the C.C.R. is faster)", "target",
                  f"before (`{GOALS_BEFORE_COMMIT}`)", "the engine's kernel (SIMD)", "portable", "met"],
                 rows, ["---", "---:", "---:", "---:", "---:", "---"])


def before_after(data, name):
    """Per architecture, from scripts/arch-pairs.py's TSV of four binaries (before then after,
    each on x86_64 and i686): the two binaries, the median speed of each over the timed
    rounds, and each round's after ÷ before."""
    arguments = list(dict.fromkeys(r["argument"] for r in data.rows))
    if len(arguments) != 4:
        sys.exit(f"error: {name}.tsv must hold four binaries: before and after, x86_64 and i686")
    for arch, before, after in (("x86_64", arguments[0], arguments[2]), ("i686", arguments[1], arguments[3])):
        timed = {a: {r["round"]: float(r["mnps"]) for r in data.rows
                     if r["argument"] == a and r["round"] != "callgrind"} for a in (before, after)}
        ratios = [timed[after][r] / timed[before][r] for r in timed[before] if r in timed[after]]
        yield (arch, before, after, median(list(timed[before].values())),
               median(list(timed[after].values())), ratios)


def build_name(argument):
    """A binary's name without its architecture (the copies are named ccr-COMMIT-ARCH)."""
    return re.sub(r"-(x86_64|i686)$", "", os.path.basename(argument))


def search_speed(data):
    """The search-speed goal from scripts/arch-pairs.py's TSV (`--bench --instructions`, the
    code before then after, each on x86_64 and i686): `ccr bench`'s nodes per second after
    ÷ before, the median of the rounds' ratios, and the instructions per node of each."""
    rows = []
    for arch, before, after, speed_before, speed_after, ratios in before_after(data, "search-speed"):
        per_node = [int(r["instructions"]) / int(r["nodes"])
                    for a in (before, after) for r in data.where(argument=a, round="callgrind")]
        ratio = median(ratios)
        below = sum(r < 1.25 for r in ratios)
        rows.append([arch, fmt(speed_before * 1000, 0), fmt(speed_after * 1000, 0),
                     f"{fmt(ratio, 2)} ({fmt(min(ratios), 2)}-{fmt(max(ratios), 2)}; "
                     f"{below} of {len(ratios)} below 1.25)",
                     f"{per_node[0]:,.0f} → {per_node[1]:,.0f} ({per_node[1] / per_node[0] - 1:+.1%})",
                     "≥ 1.25", "no" if ratio < 1.25 else "yes" if not below else "at the median only"])
    header = ["", f"before, kN/s (`{build_name(before)}`)",
              f"after, kN/s (`{build_name(after)}`)", "after ÷ before, median (rounds)",
              "instructions per node (callgrind)", "target", "met"]
    return table(header, rows, ["---", "---:", "---:", "---:", "---:", "---:", "---"])


def table_memory(data):
    """`ccr bench`'s speed before and after the table's prefetch and huge pages (the same
    tree), from scripts/arch-pairs.py's TSV: per architecture, each build's median and the
    median of the rounds' after ÷ before."""
    rows = []
    for arch, before, after, speed_before, speed_after, ratios in before_after(data, "table-memory"):
        rows.append([arch, fmt(speed_before * 1000, 0), fmt(speed_after * 1000, 0),
                     f"{fmt(median(ratios), 3)} ({fmt(min(ratios), 2)}-{fmt(max(ratios), 2)})"])
    header = ["", f"before, kN/s (`{build_name(before)}`)", f"after, kN/s (`{build_name(after)}`)",
              "after ÷ before, median (rounds)"]
    return table(header, rows)


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def tally(w, d, l):
    """Score, Elo difference and its 95 % interval (normal approximation over the games).

    A score of 0 or 100 % has no finite Elo and no spread to take an interval from: its Elo is
    None and the open end of the interval comes from the one-sided 95 % bound on a score no
    game has gone against (1 - 0.05^(1/n), counting the games as wins and losses), the other
    end is infinite."""
    n = w + d + l
    s = (w + d / 2) / n
    if s in (0.0, 1.0):
        bound = elo(1 - 0.05 ** (1 / n))  # the Elo of the highest score a loss of every game allows
        return (s, None, -math.inf, bound) if s == 0.0 else (s, None, -bound, math.inf)
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    # An end past 0 or 100 % is an infinite Elo difference, not the clamp's.
    lo = elo(s - half) if s - half > 0 else -math.inf
    hi = elo(s + half) if s + half < 1 else math.inf
    return s, elo(s), lo, hi


def elo_text(e, lo, hi):
    """An Elo difference and its 95 % interval, in words where an end is open."""
    def signed(x):
        if math.isinf(x):
            return "+∞" if x > 0 else "-∞"
        return f"{round(x):+d}"  # round() makes -0.4 a plain 0, printed +0

    if e is None:
        return f"below {signed(hi)}" if math.isinf(lo) else f"above {signed(lo)}"
    return f"{signed(e)} ({signed(lo)} … {signed(hi)})"


def birthday(n, bits):
    return n * (n - 1) / 2 / 2.0 ** bits


def values(d):
    """Every `{{name}}` the templates may use."""
    v = {}
    perft = Perft(d["perft"])
    meta = d["perft"].meta
    v["machine"] = meta.get("machine", "?")
    v["cpu_features"] = meta.get("cpu features", "?")
    v["compilers"] = meta.get("compilers", "?")
    v["commit"] = meta.get("commit", "?")
    v["date"] = meta.get("date", "?")[:10]
    # Steps run apart from the perft step: their commit and date (and machine, when it is
    # another), where they differ from the perft step's.
    other = []
    for step, names in (("instructions", ("instructions",)), ("costs", ("costs",)),
                        ("keys", ("keys", "keys-shards")), ("bench", ("bench", "bench-profile", "bench-instructions")),
                        ("strength", ("strength",)), ("engines", ("engines",))):
        m = d[names[0]].meta
        commit = m.get("commit", "?")
        # Short hashes of different lengths name the same commit when one begins the other.
        if not (commit.startswith(v["commit"]) or v["commit"].startswith(commit)):
            where = "" if m.get("machine") == meta.get("machine") else \
                f", {m.get('machine', '?')} ({m.get('cpu features', '?')})"
            other.append(f"{step} at `{commit}` ({m.get('date', '?')[:10]}{where})")
    v["commits_note"] = (" Steps from other runs: " + "; ".join(other) + ".") if other else ""
    v["size"] = meta.get("size", "?")
    v["size_note"] = ("" if v["size"] == "full" else
                      "**This is a quick run (`make reproduce QUICK=1`): one perft round, callgrind on "
                      "Kiwipete only, one bench round, 10^6 keys, two games per opponent at 2+0.05. "
                      "Its figures are rough.**")
    v["perft_rounds"] = str(len(perft.rounds))
    ccr = ("ccr", "portable")
    native = ("bitboard-native", "portable")
    rotated = ("rotated", "portable")

    # Perft: made and bulk leaves, both architectures, every subject.
    rows = []
    for s in perft.subjects:
        rows.append([SUBJECT_NAMES.get(s, f"{s[0]} {s[1]}"),
                     fmt(perft.speed(s, "x86_64"), 1), fmt(perft.speed(s, "x86_64", "bulk"), 1),
                     fmt(perft.speed(s, "i686"), 1), fmt(perft.speed(s, "i686", "bulk"), 1),
                     fmt(perft.ratio(s), 2), fmt(instructions_per_leaf(d["instructions"], s, "x86_64"), 0),
                     fmt(instructions_per_leaf(d["instructions"], s, "i686"), 0)])
    v["table_perft"] = table(
        ["perft, six positions", "x86_64 made", "x86_64 bulk", "i686 made", "i686 bulk",
         "i686 / x86_64 (made)", "instr./leaf x86_64", "instr./leaf i686"], rows)
    for s in perft.subjects:
        slug = s[0] if s[1] in ("-", "portable") else f"{s[0]}_{s[1]}"
        slug = slug.replace("-", "_")
        for arch in ("x86_64", "i686"):
            v[f"perft_{slug}_{arch}"] = fmt(perft.speed(s, arch), 1)
            v[f"perft_{slug}_{arch}_bulk"] = fmt(perft.speed(s, arch, "bulk"), 1)
            v[f"ipl_{slug}_{arch}"] = fmt(instructions_per_leaf(d["instructions"], s, arch), 0)
        v[f"ratio_{slug}"] = fmt(perft.ratio(s), 2)
        v[f"ratio_{slug}_bulk"] = fmt(perft.ratio(s, "bulk"), 2)
    best = max(perft.speed(s, "x86_64") for s in perft.subjects if s[0] in ("shakmaty", "cozy-chess", "chess"))
    v["ccr_vs_best_crate"] = fmt(perft.speed(ccr, "x86_64") / best, 2)
    v["table_goals"] = goals_table(perft, d["instructions"], ("ccr", "simd"), ccr)
    speed = d["search-speed"]
    v["table_search_speed"] = (search_speed(speed) if speed else
                               "*Not measured in this data directory (no search-speed.tsv).*")
    memory = d["table-memory"]
    v["table_table_memory"] = (table_memory(memory) if memory else
                               "*Not measured in this data directory (no table-memory.tsv).*")
    v["table_memory_run"] = (f"{memory.meta.get('machine', '?')}, {memory.meta.get('date', '?')[:10]}, "
                             f"{memory.meta.get('run', '?')}" if memory else "not measured")
    speed_meta = speed.meta if speed else {}
    v["search_speed_run"] = (f"{speed_meta.get('machine', '?')}, {speed_meta.get('date', '?')[:10]}, "
                             f"{speed_meta.get('run', '?')}")
    for leaves in ("made", "bulk"):
        for crate in ("shakmaty", "cozy-chess"):
            key = f"ccr_vs_{crate.replace('-', '_')}_{leaves}"
            v[key] = fmt(perft.speed(ccr, "x86_64", leaves) / perft.speed((crate, "-"), "x86_64", leaves), 2)
    # SIMD and assembly against the portable code, per architecture.
    speedups = []
    for base, names in ((ccr, ["simd", "asm"]), (("bitboard", "portable"), ["simd", "asm"])):
        for impl in names:
            s = (base[0], impl)
            if s not in perft.subjects:
                continue
            cells = []
            for arch in ("x86_64", "i686"):
                x = perft.speed(s, arch) / perft.speed(base, arch)
                i = instructions_per_leaf(d["instructions"], base, arch) / instructions_per_leaf(d["instructions"], s, arch)
                cells += [fmt(x, 2), fmt(i, 2)]
                v[f"speedup_{s[0]}_{impl}_{arch}"] = fmt(x, 2)
            speedups.append([SUBJECT_NAMES[s]] + cells)
    v["table_speedups"] = table(["against its portable twin", "x86_64 speed", "x86_64 instr.",
                                 "i686 speed", "i686 instr."], speedups)

    # The search: ccr bench on both architectures.
    bench = d["bench"]
    bench_rounds = sorted({int(r["round"]) for r in bench.rows})
    brows = []
    for evaluator in ("frame", "bitboards"):
        nps = {a: median([int(r["nps"]) for r in bench.where(arch=a, eval=evaluator)]) for a in ("x86_64", "i686")}
        ratios = []
        for rnd in bench_rounds:
            a = bench.where(arch="i686", eval=evaluator, round=str(rnd))
            b = bench.where(arch="x86_64", eval=evaluator, round=str(rnd))
            if a and b:
                ratios.append(int(a[0]["nps"]) / int(b[0]["nps"]))
        ins = {a: d["bench-instructions"].where(arch=a, eval=evaluator)[0] for a in ("x86_64", "i686")}
        ipn = {a: int(ins[a]["instructions"]) / int(ins[a]["nodes"]) for a in ins}
        v[f"bench_{evaluator}_x86_64"] = fmt(nps["x86_64"] / 1e3, 0)
        v[f"bench_{evaluator}_i686"] = fmt(nps["i686"] / 1e3, 0)
        v[f"bench_ratio_{evaluator}"] = fmt(median(ratios), 2)
        v[f"bench_ipn_{evaluator}_x86_64"] = fmt(ipn["x86_64"], 0)
        v[f"bench_ipn_{evaluator}_i686"] = fmt(ipn["i686"], 0)
        brows.append([f"ccr, {evaluator} evaluator", fmt(nps["x86_64"] / 1e3, 0), fmt(nps["i686"] / 1e3, 0),
                      fmt(median(ratios), 2), fmt(ipn["x86_64"], 0), fmt(ipn["i686"], 0)])
    v["bench_nodes"] = f"{int(bench.rows[0]['nodes']):,}"
    v["bench_depth"] = re.search(r"bench (\d+)", bench.meta["what"]).group(1)
    v["bench_idepth"] = re.search(r"bench (\d+)", d["bench-instructions"].meta["what"]).group(1)
    v["bench_rounds"] = str(len(bench_rounds))
    engines = d["engines"]
    names = {"stockfish-classical": "Stockfish 15.1, classical evaluation",
             "stockfish-nnue": "Stockfish 15.1, NNUE", "glaurung": "Glaurung 2.2"}
    for kind, name in names.items():
        speed = {a: median([float(r["mnps"]) for r in engines.where(kind=kind, arch=a)]) for a in ("x86_64", "i686")}
        ratios = []
        for rnd in sorted({r["round"] for r in engines.rows}):
            a, b = engines.where(kind=kind, arch="i686", round=rnd), engines.where(kind=kind, arch="x86_64", round=rnd)
            if a and b:
                ratios.append(float(a[0]["mnps"]) / float(b[0]["mnps"]))
        slug = kind.replace("-", "_")
        v[f"engine_{slug}_ratio"] = fmt(median(ratios), 2)
        brows.append([name, fmt(speed["x86_64"] * 1e3, 0), fmt(speed["i686"] * 1e3, 0), fmt(median(ratios), 2), "", ""])
    brows.append(["Rybka (the paper: one AMD64 at 2.4 GHz)", f"{RYBKA_64}", f"{RYBKA_32}",
                  fmt(RYBKA_32 / RYBKA_64, 2), "", ""])
    v["rybka_ratio"] = fmt(RYBKA_32 / RYBKA_64, 2)
    v["table_engines"] = table(["whole engine", "x86_64 kN/s", "i686 kN/s", "i686 / x86_64",
                                "instr./node x86_64", "instr./node i686"], brows)

    # Where the search spends its time, and bytes copied.
    prof = d["bench-profile"]

    def pval(metric, arch="x86_64", evaluator="frame"):
        r = prof.where(arch=arch, eval=evaluator, metric=metric)
        return float(r[0]["value"]) if r else float("nan")

    v["qs_nodes"] = fmt(100 * pval("quiescence_nodes") / pval("nodes"), 1)
    qs_time = [100 * pval("quiescence_samples", a, e) / pval("samples", a, e)
               for a in ("x86_64", "i686") for e in ("frame", "bitboards")]
    v["qs_time_min"], v["qs_time_max"] = fmt(min(qs_time), 0), fmt(max(qs_time), 0)
    copies = pval("copies_per_node")
    v["copies_per_node"] = fmt(copies, 2)
    sizes = [(m[6:], pval(m)) for m in sorted({r["metric"] for r in prof.rows if r["metric"].startswith("bytes:")})]
    order = ["ccr", "bitboard", "bitboard-native", "rotated", "x88"]
    sizes.sort(key=lambda s: order.index(s[0]) if s[0] in order else 99)
    for name, size in sizes:
        v[f"bytes_{name.replace('-', '_')}"] = fmt(size, 0)
    stderr_order = ["ccr", "x88", "bitboard", "bitboard-native", "rotated"]
    v["bench_stderr"] = (
        f"quiescence {fmt(100 * pval('quiescence_nodes') / pval('nodes'), 1)} % of nodes "
        f"({pval('quiescence_nodes'):.0f} of {pval('nodes'):.0f}), "
        f"{fmt(100 * pval('quiescence_samples') / pval('samples'), 1)} % of time "
        f"({pval('quiescence_samples'):.0f} of {pval('samples'):.0f} samples)\n"
        f"copy-make {copies:.3f} positions per node; bytes copied per node (position size): " +
        ", ".join(f"{n} {copies * pval('bytes:' + n):.1f} ({pval('bytes:' + n):.0f} B)" for n in stderr_order))
    v["table_bytes"] = table(["position", "bytes", "bytes copied per node"],
                             [[SUBJECT_NAMES.get((n, "portable"), n), fmt(s, 0), fmt(s * copies, 0)] for n, s in sizes])

    # Costs per call (iai-callgrind): the mean over each benchmark's inputs.
    costs = {}
    for r in d["costs"].rows:
        costs.setdefault((r["bench"], r["group"], r["function"]), []).append(int(r["instructions"]))
    crows = []
    for (bench_name, group, function), counts in costs.items():
        mean = sum(counts) / len(counts)
        v[f"iai_{group}_{function}"] = fmt(mean, 0)
        crows.append([f"`{group}::{function}`", len(counts), fmt(mean, 0), fmt(min(counts), 0), fmt(max(counts), 0)])
    v["table_costs"] = table(["benchmark", "inputs", "mean instructions", "min", "max"], crows)
    if ("instructions", "attacks", "ccr_is_attacked_x64") in costs:
        c = costs[("instructions", "attacks", "ccr_is_attacked_x64")]
        v["per_square_is_attacked"] = fmt(sum(c) / len(c) / 64, 1)
    short = {"ccr": "C.C.R.", "bitboard-native": "magic bitboards", "rotated": "rotated bitboards", "x88": "0x88"}
    v["table_bytes_inline"] = ", ".join(f"{short.get(n, n)} {fmt(sz * copies, 0)} B per node "
                                        f"({fmt(sz, 0)} B a position)" for n, sz in sizes if n != "bitboard")
    if ("instructions", "attacks", "ccr_ray_scan_x64") in costs:
        c = costs[("instructions", "attacks", "ccr_ray_scan_x64")]
        v["per_square_ray_scan"] = fmt(sum(c) / len(c) / 64, 0)
    verdicts(v, perft)

    # Keys.
    keys = d["keys"]
    n = int(keys.rows[0]["n"])
    v["keys_n"] = f"{n:,}"
    v["keys_n_exp"] = f"10^{round(math.log10(n))}"
    krows = []
    for what in ["full 64"] + [f"{e} {b}" for b in (56, 48, 40, 32) for e in ("top", "low")]:
        cells = [what]
        for key in ("rotation", "zobrist"):
            r = keys.where(table="collisions", key=key, what=what)
            cells.append(r[0]["observed"] if r else "–")
        r = keys.where(table="collisions", key="rotation", what=what)
        bits = int(what.split()[-1])
        cells.append(f"{float(r[0]['expected']):.3g}" if r else "–")
        cells.append(f"{n * 2 ** ((64 - bits) / 2):.2g}")
        krows.append(cells)
    v["table_keys"] = table(["bits compared", "rotation pairs", "Zobrist pairs", "expected (birthday)",
                             "stands for the full key at n ="], krows)
    key_figures(keys, "keys", v)
    v["birthday_1e11"] = fmt(birthday(1e11, 64), 0)
    for label, slug in (("incremental update", "update"), ("from scratch", "scratch")):
        for key in ("rotation", "zobrist"):
            r = [x for x in keys.where(table="ns", key=key) if x["what"].startswith(label)]
            v[f"keys_ns_{slug}_{key}"] = fmt(float(r[0]["observed"]), 1) if r else "–"
    keys_shards(d, v)
    keys_scale(d, v)
    # The paper's claim is read on the largest run there is: the 10^9 merge once every shard is in.
    largest = d["keys-scale"] if v.get("keys_scale_complete") else keys
    key_figures(largest, "largest", v)
    v["largest_how"] = (f"{v['keys_scale_count']} shards merged, `make reproduce STEPS=scale`"
                        if v.get("keys_scale_complete") else "`make reproduce`'s keys step")

    # Strength.
    srows = []
    strength = d["strength"]
    # The ladder from the top down: ccr's best score first.
    by_score = sorted(strength.rows, key=lambda r: -tally(int(r["wins"]), int(r["draws"]), int(r["losses"]))[0])
    for r in by_score:
        w, dr, l = int(r["wins"]), int(r["draws"]), int(r["losses"])
        s, e, lo, hi = tally(w, dr, l)
        srows.append([r["opponent"], r["tc"], f"{w}/{dr}/{l}", w + dr + l, fmt(100 * s, 1),
                      elo_text(e, lo, hi)])
        name = re.sub(r"[^a-z]", "", r["opponent"].split()[0].lower())
        v["strength_" + name] = f"{fmt(100 * s, 1)} % ({w + dr + l} games)"
        v["strength_elo_" + name] = elo_text(e, lo, hi)
    for name in ("phalanx", "sjeng", "glaurung", "toga", "stockfish"):  # the ladder, where a run left one out
        v.setdefault("strength_" + name, "not played")
        v.setdefault("strength_elo_" + name, "not played")
    v["strength_tc"] = " and ".join(sorted({r["tc"] for r in strength.rows})) or "–"
    m = strength.meta
    v["strength_run"] = (f"{m.get('machine', '?')}; commit {m.get('commit', '?')}, {m.get('date', '?')[:10]}; "
                         f"{m.get('what', '?')}")
    v["table_strength"] = table(["opponent", "time control", "W/D/L", "games", "ccr's score %",
                                 "Elo difference (95 %)"], srows)
    v["table_paper_matches"] = table(["Achilles against", "games", "score %", "draws %", "Elo difference"],
                                     [[o, g, fmt(s, 1), fmt(dr, 1), f"+{e}"] for o, g, s, dr, e in PAPER_MATCHES])

    # The paper's reference vectors: the tests.
    tests = d["tests"]
    trows = []
    for arch in ("x86_64", "i686"):
        for f in ("lib", "paper", "attacks", "keys", "eval"):
            rows_f = tests.where(arch=arch, file=f)
            if rows_f:
                ok = sum(r["outcome"] == "ok" for r in rows_f)
                ignored = sum(r["outcome"] == "ignored" for r in rows_f)
                where = "unit tests (src/)" if f == "lib" else f"tests/{f}.rs"
                trows.append([where, arch, ok, len(rows_f) - ok - ignored, ignored])
    v["table_tests"] = table(["test file", "arch", "passed", "failed", "ignored (slow: `make test` runs them)"], trows)
    failed = [r for r in tests.rows if r["outcome"] == "FAILED"]
    v["tests_verdict"] = "every one passes" if not failed else f"**{len(failed)} fail**"

    def test_outcome(name):
        rows_t = [r for r in tests.rows if r["test"] == name or r["test"].endswith("::" + name)]
        if not rows_t:
            raise KeyError(f"no test named {name} in tests.tsv")
        archs = sorted({r["arch"] for r in rows_t if r["outcome"] == "ok"})
        return "passes (" + ", ".join(archs) + ")" if len(archs) == len({r["arch"] for r in rows_t}) else "FAILS"

    v["test"] = test_outcome
    return v, perft


def key_figures(keys, prefix, v):
    """The collision figures the documents quote from one keystats run, as `{prefix}_n`,
    `{prefix}_full_rotation`, `{prefix}_full_zobrist`, `{prefix}_birthday_n`, `{prefix}_max_z`,
    `{prefix}_verdict` and `{prefix}_top40_*`."""
    n = int(keys.rows[0]["n"])
    v[f"{prefix}_n"] = f"{n:,}"
    full = {k: int(keys.where(table="collisions", key=k, what="full 64")[0]["observed"]) for k in ("rotation", "zobrist")}
    v[f"{prefix}_full_rotation"], v[f"{prefix}_full_zobrist"] = str(full["rotation"]), str(full["zobrist"])
    v[f"{prefix}_birthday_n"] = f"{birthday(n, 64):.2g}"
    dev = []
    for r in keys.where(table="collisions", key="rotation"):
        e, o = float(r["expected"]), int(r["observed"])
        if e >= 10:
            dev.append(abs(o - e) / math.sqrt(e))
    v[f"{prefix}_max_z"] = fmt(max(dev), 1) if dev else "–"
    v[f"{prefix}_verdict"] = ("birthday level" if dev and max(dev) <= 4 and full["rotation"] <= 3
                              else "above the birthday level")
    # 40 bits at n stands for the full key at n * 2^12.
    forty = keys.where(table="collisions", key="rotation", what="top 40")
    v[f"{prefix}_top40_observed"] = f"{int(forty[0]['observed']):,}" if forty else "–"
    v[f"{prefix}_top40_expected"] = fmt(float(forty[0]["expected"]), 0) if forty else "–"
    v[f"{prefix}_top40_stands_for"] = f"{n * 2 ** 12:.2g}"


def gb(x):
    return fmt(float(x), 1)


def keys_shards(d, v):
    """The keys step's run as one process and as four shards: equal, and what each cost."""
    runs = d["keys-shards"]
    rows = []
    for r in runs.rows:
        if r["run"] == "merged":
            v["keys_shards_equal"] = ("equal in every figure but the time line and the cost table"
                                      if r["equal"] == "yes" else "**different**")
            continue
        rows.append([r["run"], fmt(float(r["wall_s"]), 0), fmt(float(r["cpu_s"]), 0), r["peak_mb"],
                     gb(r["peak_disk_gb"]), f"{int(r['generated']):,}", f"{int(r['kept']):,}"])
    v["table_keys_shards"] = table(["run", "wall s", "CPU s", "peak memory MB", "peak disk GB",
                                    "positions generated", "kept"], rows)
    shards = [r for r in runs.rows if r["run"].startswith("shard")]
    one = runs.where(run="one process")[0]
    v["keys_shards_n"] = str(len(shards))
    v["keys_shards_cpu_ratio"] = fmt(sum(float(r["cpu_s"]) for r in shards) / float(one["cpu_s"]), 1)
    v["keys_shards_disk_max"] = gb(max(float(r["peak_disk_gb"]) for r in shards))
    v["keys_one_disk"] = gb(one["peak_disk_gb"])
    v["keys_one_wall"] = fmt(float(one["wall_s"]), 0)
    v["keys_one_mb"] = one["peak_mb"]


def keys_scale(d, v):
    """The keys at scale: each shard's cost, the merged statistics when every shard is done, and
    a 10^11 run's cost estimated from the shards' measured rates."""
    shards = d["keys-scale-shards"]
    if shards is None:
        v["keys_scale"] = ("Not run here (`make reproduce STEPS=scale`: 10^9 distinct positions in "
                           "16 shards, about 20 minutes of one core each).")
        return
    size = re.search(r"--positions (\d+)", shards.meta["what"])
    n = int(size.group(1))
    count = int(re.search(r"--shard K/(\d+)", shards.meta["what"]).group(1))
    rows = shards.rows
    rows_md = [[r["shard"], fmt(float(r["wall_s"]), 0), fmt(float(r["cpu_s"]), 0), r["peak_mb"],
                gb(r["peak_disk_gb"]), f"{int(r['generated']):,}", f"{int(r['kept']):,}",
                f"{int(r['distinct']):,}"] for r in rows]
    cpu = sum(float(r["cpu_s"]) for r in rows)
    wall = sum(float(r["wall_s"]) for r in rows)
    exponent = round(math.log10(n))
    n_text = f"10^{exponent}" if 10 ** exponent == n else f"{n:,}"
    lines = [f"`ccr keystats --positions {n_text} --seed 1` run as {count} shards, each a process of its own "
             f"(commit {shards.meta['commit']}, {shards.meta['date'][:10]}; "
             f"`docs/data/keys-scale-shards.tsv`, the partial results in `docs/data/keys-scale/`). "
             "Each shard generates the whole stream and keeps its own part: its disk is bounded by "
             "the shard count, its memory by the bucket size.", "",
             table(["shard", "wall s", "CPU s", "peak memory MB", "peak disk GB", "positions generated",
                    "kept", "distinct (own)"], rows_md), ""]
    if len(rows) < count:
        lines.append(f"{len(rows)} of the {count} shards {'is' if len(rows) == 1 else 'are'} measured; the "
                     "merged statistics wait for the rest (the step resumes where it stopped).")
    else:
        lines.append(f"All {count} shards: {fmt(wall / 3600, 1)} hours of wall clock added over the shards "
                     f"(several may run at once) and {fmt(cpu / 3600, 1)} CPU hours, at most {max(int(r['peak_mb']) for r in rows)} MB "
                     f"of memory and {gb(max(float(r['peak_disk_gb']) for r in rows))} GB of disk at once.")
    keys = d["keys-scale"]
    v["keys_scale_complete"] = keys is not None and len(rows) == count
    v["keys_scale_count"] = count
    if v["keys_scale_complete"]:
        m = int(keys.rows[0]["n"])
        krows = []
        for what in ["full 64"] + [f"{e} {b}" for b in (56, 48, 40, 32) for e in ("top", "low")]:
            cells = [what]
            for key in ("rotation", "zobrist"):
                r = keys.where(table="collisions", key=key, what=what)
                cells.append(f"{int(r[0]['observed']):,}" if r else "–")
            r = keys.where(table="collisions", key="rotation", what=what)
            bits = int(what.split()[-1])
            cells.append(f"{float(r[0]['expected']):.3g}" if r else "–")
            cells.append(f"{m * 2 ** ((64 - bits) / 2):.2g}")
            krows.append(cells)
        lines += ["", f"Over n = {m:,} distinct positions (`docs/data/keystats-scale.md` is the merged "
                  "report):", "",
                  table(["bits compared", "rotation pairs", "Zobrist pairs", "expected (birthday)",
                         "stands for the full key at n ="], krows), "",
                  f"Here the 48-bit truncations stand for the full key at {m * 2 ** 8:.2g} positions and "
                  f"the 40-bit ones at {m * 2 ** 12:.2g}. A random 64-bit key expects "
                  f"{fmt(birthday(1e11, 64), 0)} colliding pairs among 10^11 positions, so \"no "
                  "collisions in hundreds of billions\" cannot hold literally for any 64-bit key; the "
                  "truncations test whether the rotation key collides as a random key would."]
    # A 10^11 run from the measured rates: generation per CPU second, deduplication and counting
    # per kept position, disk per kept position; generated positions per distinct one as here.
    gen_rate = sum(int(r["generated"]) for r in rows) / sum(float(r["generate_s"]) for r in rows)
    work = sum(float(r["deduplicate_s"]) + float(r["count_s"]) for r in rows) / sum(int(r["kept"]) for r in rows)
    disk = max(float(r["peak_disk_gb"]) * 1e9 / int(r["kept"]) for r in rows)
    per_distinct = int(rows[0]["generated"]) / (sum(int(r["distinct"]) for r in rows) * count / len(rows))
    target = 1e11
    generated = target * per_distinct
    est = []
    for shards_n in (100, 400, 1000):
        kept = generated * (1 - (1 - 1 / shards_n) ** 4)
        hours = (generated / gen_rate + kept * work) / 3600
        est.append([f"{shards_n:,}", fmt(hours, 0), fmt(hours * shards_n, 0), fmt(kept * disk / 1e9, 0)])
    lines += ["", f"**10^11 on many machines, estimated** from these shards' rates ({fmt(gen_rate / 1e6, 2)} "
              f"million positions generated per second of generation (wall clock, on this shared machine), {fmt(work * 1e6, 2)} µs of deduplication and "
              f"counting per kept position, {fmt(disk, 0)} bytes of disk per kept position at the peak, "
              f"{fmt(per_distinct, 2)} positions generated per distinct one): every shard generates "
              f"{generated:.2g} positions, so the generation alone is {fmt(generated / gen_rate / 3600, 0)} "
              "hours of one core per shard whatever the shard count, and more shards buy less disk each "
              "with more machine time in all:", "",
              table(["shards", "hours per shard", "core-hours in all", "disk per shard GB"], est)]
    v["keys_scale"] = "\n".join(lines)


def num(text):
    return float(text.replace(",", ""))


def verdicts(v, perft):
    """The verdicts that follow from a comparison, so that another run's figures decide them."""
    bitboards = {"magic bitboards": "ratio_bitboard_native", "rotated": "ratio_rotated",
                 "shakmaty": "ratio_shakmaty", "cozy-chess": "ratio_cozy_chess", "chess": "ratio_chess"}
    kept = {name: num(v[key]) for name, key in bitboards.items()}
    best_name = max(kept, key=kept.get)
    best = kept[best_name]
    v["verdict_bitboards32"] = (
        f"reproduced: every bitboard generator keeps at most {best:.2f} of its 64-bit speed ({best_name})"
        if best < 0.8 else f"differs: {best_name} keeps {best:.2f} of its 64-bit speed")
    ccr = num(v["ratio_ccr"])
    v["verdict_ccr32"] = (
        f"reproduced in direction: the C.C.R. keeps {ccr:.2f} of its speed on i686, more than any bitboard "
        f"generator (at most {best:.2f}), but not all of it: i686 has half the registers"
        if ccr > best else f"differs: the C.C.R. keeps {ccr:.2f}, a bitboard generator ({best_name}) {best:.2f}")
    proxies = [num(v["engine_stockfish_classical_ratio"]), num(v["engine_glaurung_ratio"])]
    rybka = RYBKA_32 / RYBKA_64
    near = all(abs(p - rybka) <= 0.1 for p in proxies)
    v["verdict_rybka"] = ("cannot be reproduced here (Rybka is commercial); the proxies, Debian's bitboard engines "
                          "on one CPU, " + ("land within 0.1 of Rybka's ratio" if near else
                                            f"keep {min(proxies):.2f}-{max(proxies):.2f}, not Rybka's {rybka:.2f}"))
    names = {"ccr": "the C.C.R.", "x88": "0x88", "bitboard_native": "magic bitboards", "rotated": "rotated bitboards"}
    for arch in ("x86_64", "i686"):
        order = sorted(names, key=lambda k: -num(v[f"perft_{k}_{arch}"]))
        v[f"movegen_rank_{arch}"] = f"{order.index('ccr') + 1} of {len(order)}"
    v["verdict_movegen"] = (f"the C.C.R. ranks {v['movegen_rank_x86_64']} on x86_64 and {v['movegen_rank_i686']} on "
                            "i686: the edge test is free, generation one nibble at a time is not")
    qmax = num(v["qs_time_max"])
    v["verdict_quiescence"] = ("differs: ccr's quiescence search (captures and queen promotions) is leaner than the "
                               "paper's (checks, promotions)" if qmax < 50 else "reproduced")
    simd = num(v["speedup_ccr_simd_x86_64"])
    v["verdict_registers"] = (("reproduced" if simd > 1 else "differs in speed") +
                              " for a 256-bit register; as printed for MMX an erratum (E3)")
    conv_simd, conv_asm = num(v["speedup_bitboard_simd_x86_64"]), num(v["speedup_bitboard_asm_x86_64"])
    v["verdict_conversion"] = (
        ("reproduced for SIMD" if conv_simd > 1 else "differs for SIMD") + "; the assembly " +
        ("is faster" if conv_asm > 1 else "is not faster") + " than the compiled loop in perft; it runs on i686 too, "
        "so \"needs 64-bit\" differs")
    per_call = num(v["iai_eval_eval_bitboards"]) < num(v["iai_eval_eval_frame"])
    search = num(v["bench_bitboards_x86_64"]) / num(v["bench_frame_x86_64"])
    v["verdict_hybrid"] = (("reproduced per call" if per_call else "differs per call") +
                           f"; the whole search runs {search:.2f}x as fast with it on x86_64" +
                           (", no gain: the search builds the attack tables at every node for its own use"
                            if search < 1.03 else ""))


def render(template, v):
    """Fills `{{name}}` and `{{test:name}}` placeholders; an unknown name is an error."""

    def fill(match):
        name = match.group(1).strip()
        if name.startswith("test:"):
            return v["test"](name[5:].strip())
        if name not in v:
            raise KeyError(f"unknown placeholder {{{{{name}}}}}")
        return v[name]

    return re.sub(r"\{\{([^}]+)\}\}", fill, template)


def plots(d, v, perft, out):
    """The SVG plots: speed on i686 against x86_64, keys against the birthday bound, strength."""
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
    matplotlib.rcParams.update({"svg.hashsalt": "ccr", "font.size": 9, "svg.fonttype": "none"})
    meta = {"Date": None}
    os.makedirs(out, exist_ok=True)

    def caption(*names):
        """The machine, commit and date of the data behind a plot, once per run it comes from."""
        parts = []
        for name in names:
            m = d[name].meta
            part = f"{m.get('machine', '?')}; commit {m.get('commit', '?')}, {m.get('date', '?')[:10]}"
            if part not in parts:
                parts.append(part)
        return "\n".join(parts)

    # 1. i686 / x86_64 speed for every representation, crate and engine, beside Rybka's.
    labels, ratios, colours = [], [], []
    for s in perft.subjects:
        labels.append(SUBJECT_NAMES.get(s, s[0]) + " — perft")
        ratios.append(perft.ratio(s))
        colours.append("#1f77b4" if s[0] in ("ccr", "bitboard") else "#7f7f7f" if s[1] == "-" else "#ff7f0e")
    for evaluator in ("frame", "bitboards"):
        labels.append(f"ccr search, {evaluator} evaluator — bench")
        ratios.append(float(v[f"bench_ratio_{evaluator}"]))
        colours.append("#1f77b4")
    for kind, name in (("stockfish_classical", "Stockfish 15.1 classical"), ("stockfish_nnue", "Stockfish 15.1 NNUE"),
                       ("glaurung", "Glaurung 2.2")):
        labels.append(f"{name} — search")
        ratios.append(float(v[f"engine_{kind}_ratio"]))
        colours.append("#2ca02c")
    labels.append("Rybka (the paper)")
    ratios.append(RYBKA_32 / RYBKA_64)
    colours.append("#d62728")
    fig, ax = plt.subplots(figsize=(7.5, 0.28 * len(labels) + 1.2))
    y = range(len(labels))[::-1]
    ax.barh(list(y), ratios, color=colours)
    for yy, r in zip(y, ratios):
        ax.text(r + 0.01, yy, f"{r:.2f}", va="center", fontsize=8)
    ax.axvline(RYBKA_32 / RYBKA_64, color="#d62728", linestyle="--", linewidth=1)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(list(y), labels)
    ax.set_xlabel("speed on i686 / speed on x86_64 (same machine; 1 = no loss)")
    fig.suptitle("32-bit against 64-bit on one CPU\n(blue: the C.C.R.; orange: ccr's other boards; "
                 "grey: crates; green: engines; red: the paper)", fontsize=9)
    ax.set_xlim(0, max(1.15, max(ratios) + 0.15))
    runs = caption("perft", "bench", "engines")
    fig.text(0.01, 0.005, runs, fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02 * (runs.count("\n") + 1), 1, 1))
    fig.savefig(os.path.join(out, "arch-ratio.svg"), metadata=meta)
    plt.close(fig)

    # 2. Perft speed on both architectures.
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(perft.subjects) + 1.2))
    y = list(range(len(perft.subjects)))[::-1]
    for offset, arch, colour in ((0.2, "x86_64", "#1f77b4"), (-0.2, "i686", "#ff7f0e")):
        speeds = [perft.speed(s, arch) for s in perft.subjects]
        ax.barh([yy + offset for yy in y], speeds, height=0.4, color=colour, label=arch)
    ax.set_yticks(y, [SUBJECT_NAMES.get(s, s[0]) for s in perft.subjects])
    ax.set_xlabel("perft, every leaf made: M nodes/s over the six standard positions (median of rounds)")
    ax.legend(loc="lower right")
    fig.text(0.01, 0.005, caption("perft"), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(os.path.join(out, "perft-speed.svg"), metadata=meta)
    plt.close(fig)

    # 3. Colliding pairs against key bits, both keys, beside the birthday expectation.
    keys = d["keys"]
    n = int(keys.rows[0]["n"])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    bits = [32, 40, 48, 56, 64]
    fine = [b / 4 for b in range(128, 257)]
    ax.plot(fine, [birthday(n, b) for b in fine], color="black", linewidth=1,
            label=f"expected for a random key, n = {n:.2g}")
    floor = 1e-4
    markers = {("rotation", "top"): ("o", "#1f77b4"), ("rotation", "low"): ("s", "#1f77b4"),
               ("zobrist", "top"): ("^", "#ff7f0e"), ("zobrist", "low"): ("v", "#ff7f0e")}
    for (key, end), (marker, colour) in markers.items():
        xs, ys = [], []
        for b in bits:
            if b == 64 and end == "low":
                continue  # the full key has no ends: drawn once
            what = "full 64" if b == 64 else f"{end} {b}"
            r = keys.where(table="collisions", key=key, what=what)
            if r:
                xs.append(b + (0.4 if key == "zobrist" else -0.4) + (0.2 if end == "low" else 0))
                ys.append(max(int(r[0]["observed"]), floor))
        ax.scatter(xs, ys, marker=marker, color=colour, label=f"{key}, {end} bits" if xs else None,
                   facecolors="none" if end == "low" else colour)
    ax.axhline(floor, color="#999999", linestyle=":", linewidth=0.8)
    ax.text(31.5, floor * 1.6, "none observed", fontsize=7, color="#666666")
    ax.set_yscale("log")
    ax.set_xlabel("key bits compared (k bits at n positions stand for the 64-bit key at n·2^((64−k)/2))")
    ax.set_ylabel("colliding pairs of distinct positions")
    ax.set_title(f"Keys against the birthday bound, {v['keys_n']} distinct positions\n"
                 f"(among 10^11 positions a random 64-bit key expects {v['birthday_1e11']} colliding pairs)",
                 fontsize=9)
    ax.legend(fontsize=7)
    fig.text(0.01, 0.005, caption("keys"), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(os.path.join(out, "keys-birthday.svg"), metadata=meta)
    plt.close(fig)

    # 4. The ladder: each opponent's Elo relative to ccr, beside Achilles' opponents relative to
    # Achilles in the paper (two scales with their own zero: the engines never met).
    rows = []
    for r in d["strength"].rows:
        w, dr, l = int(r["wins"]), int(r["draws"]), int(r["losses"])
        _, e, lo, hi = tally(w, dr, l)
        # The opponent's Elo relative to ccr is minus ccr's against it.
        rows.append((f"{r['opponent']} ({w + dr + l} games, {r['tc']})",
                     None if e is None else -e, -hi, -lo, "#1f77b4"))
    rows.sort(key=lambda row: row[2] if row[1] is None else row[1])
    paper = [(f"{o} (the paper, {g} games)", -e, None, None, "#d62728") for o, g, _, _, e in PAPER_MATCHES]
    rows = rows + sorted(paper, key=lambda row: row[1])
    fig, ax = plt.subplots(figsize=(7.5, 0.35 * len(rows) + 1.5))
    # Wide enough for every point and its label; intervals beyond it are cut at the edge.
    limit = max(600, 100 * math.ceil((max(abs(row[1]) for row in rows if row[1] is not None) + 150) / 100))
    for y, (_, e, lo, hi, colour) in enumerate(rows):
        if e is None:
            # An open interval: every game went one way; an arrow from the bound outwards.
            start, towards = (lo, limit) if math.isinf(hi) else (hi, -limit)
            ax.annotate("", xy=(towards, y), xytext=(start, y),
                        arrowprops={"arrowstyle": "->", "color": colour})
            ax.plot([start], [y], "|", color=colour, markersize=10)
            ax.text(start, y + 0.25, f"{'above' if math.isinf(hi) else 'below'} {start:+.0f}",
                    fontsize=7, ha="center", color=colour)
            continue
        err = None if lo is None else [[e - max(lo, -limit)], [min(hi, limit) - e]]
        ax.errorbar([e], [y], xerr=err, fmt="o", color=colour, capsize=3)
        ax.text(e, y + 0.25, f"{e:+.0f}", fontsize=7, ha="center", color=colour)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.text(0, len(rows) - 0.4, " ccr (blue) / Achilles (red)", fontsize=7, va="bottom")
    ax.set_yticks(range(len(rows)), [row[0] for row in rows], fontsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.1)
    ax.set_xlim(-limit, limit)
    ax.set_xlabel("Elo relative to the engine that played them (bars: 95 % interval)")
    fig.suptitle("The ladder: Debian's engines relative to ccr (blue), Achilles' opponents relative to "
                 "Achilles in the paper (red)", fontsize=9)
    fig.text(0.01, 0.005, caption("strength"), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(os.path.join(out, "strength.svg"), metadata=meta)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data"))
    ap.add_argument("--check", action="store_true", help="compare with the committed documents, write nothing")
    args = ap.parse_args()
    d = load(args.data)
    try:
        v, perft = values(d)
        docs = {}
        for name in ("PAPER.md", "BENCHMARKS.md"):
            docs[os.path.join(ROOT, "docs", name)] = render(open(os.path.join(TEMPLATES, name)).read(), v)
        # Hand-written documents with regions drawn from the data: `<!-- report:NAME -->` up to
        # `<!-- /report -->` is filled from the template DOC-NAME.md.
        for path in (os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "STRENGTH.md")):
            prefix = os.path.splitext(os.path.basename(path))[0]

            def region(match, prefix=prefix):
                part = os.path.join(TEMPLATES, f"{prefix}-{match.group(2)}.md")
                return match.group(1) + render(open(part).read(), v) + match.group(3)

            docs[path] = re.sub(r"(<!-- report:([\w-]+) -->\n).*?(<!-- /report -->)", region,
                                open(path).read(), flags=re.S)
    except KeyError as err:
        sys.exit(f"error: {err.args[0]}")
    if args.check:
        stale = [p for p, text in docs.items() if not os.path.exists(p) or open(p).read() != text]
        stale += [p for p in ("arch-ratio.svg", "perft-speed.svg", "keys-birthday.svg", "strength.svg")
                  if not os.path.exists(os.path.join(ROOT, "docs", "plots", p))]
        if stale:
            sys.exit("error: not drawn from docs/data (run `make report`): " + ", ".join(os.path.relpath(p, ROOT) for p in stale))
        print("report: the documents match docs/data")
        return
    for path, text in docs.items():
        with open(path, "w") as f:
            f.write(text)
    plots(d, v, perft, os.path.join(ROOT, "docs", "plots"))
    print(f"report: wrote {', '.join(os.path.relpath(p, ROOT) for p in docs)} and docs/plots/*.svg", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws docs/PAPER.md, docs/BENCHMARKS.md, the figures of README.md and docs/STRENGTH.md and docs/plots/ from docs/data/.

Usage: scripts/report.py [--data DIR] [--out DIR] [--check]   (`make report`; `make reproduce` runs
it last)

From docs/data/ it draws the tracked documents in place. From any other data directory it
writes PAPER.md, BENCHMARKS.md, README.md, STRENGTH.md and plots/ into that directory (or
--out DIR) and leaves the tracked tree as it is, so that `make reproduce DATA=dir` measures and
draws a run of one's own beside the committed one.

Reads only the files scripts/reproduce.py writes (plus the paper's own figures, constants
below, quoted from the paper), fills the `{{name}}` placeholders of docs/templates/*.md and
writes the documents; README.md's text between `<!-- report:NAME -->` and `<!-- /report -->`
is replaced by docs/templates/README-NAME.md. Plots are SVG from matplotlib, at the version
scripts/setup-report.sh pins; they carry no date and a fixed hash salt, so the same data draws
the same bytes. With --check nothing is written: the documents are drawn in memory and the
plots into a temporary directory, and both are compared with the committed ones (exit 1 when
they differ), so that a figure edited by hand, or data committed without its report, is caught.
"""

import argparse
import math
import os
import re
import statistics
import sys
import tempfile

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
    ("ccr", "simd"): "C.C.R. + SIMD kernel",
    ("ccr", "simd-avx2"): "C.C.R. + SIMD kernel held to AVX2",
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
        self.path = path
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
        self.columns = columns or []

    def where(self, **match):
        return [r for r in self.rows if all(r[k] == v for k, v in match.items())]


def compilers_by_arch(meta):
    """{arch: "rustc X.Y.Z"} from a header's `compilers:` line ("x86_64 rustc 1.95.0 (...); i686
    rustc 1.85.0 (...)"), for the rows of a file written before rows named their compiler."""
    found = {}
    for part in meta.get("compilers", "").split(";"):
        m = re.match(r"\s*(x86_64|i686) (rustc \S+)", part)
        if m:
            found.setdefault(m.group(1), m.group(2))
    return found


def name_compilers(data):
    """Every row of a table measured per architecture gets a `compiler` (the rustc that built
    the binary): its own column where the file has one, else the header's compiler of its
    architecture."""
    if data is None:
        return
    by_arch = compilers_by_arch(data.meta)
    for r in data.rows:
        if not r.get("compiler"):
            r["compiler"] = by_arch.get(r.get("arch"), "?")
    _, data.c32, data.main64, data.same64 = builds_of(data.rows)


def build_compiler(data, arch, compiler=None):
    """The compiler of the build that stands for `arch` in `data` (or `compiler` when given)."""
    return compiler or (data.c32 if arch == "i686" else data.main64)


def builds_of(rows):
    """The builds measured, (arch, compiler) in order of appearance; the i686 build's compiler;
    the x86_64 build that stands for x86_64 (not by the i686's compiler when there is another:
    `make build`'s rustup compiler); and the x86_64 build by the i686's compiler, if measured."""
    builds = list(dict.fromkeys((r["arch"], r["compiler"]) for r in rows))
    c32 = next((c for a, c in builds if a == "i686"), None)
    c64 = [c for a, c in builds if a == "x86_64"]
    main64 = next((c for c in c64 if c != c32), c64[0] if c64 else None)
    same64 = c32 if c32 in c64 and c32 != main64 else None
    return builds, c32, main64, same64


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
    # The win/draw/loss model: fitted by scripts/wdl.py to the games, not a step.
    # The strength limit's calibration: its own step, run apart from the ladder.
    for name in ("keys-scale-shards", "keys-scale", "search-speed", "table-memory", "count-functions", "wdl",
                 "limit"):
        path = os.path.join(data_dir, name + ".tsv")
        found[name] = Data(path) if os.path.exists(path) else None
    for name in ("perft", "instructions", "bench", "bench-instructions", "bench-profile", "count-functions"):
        if found[name] is not None:
            name_compilers(found[name])
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



class Cmp:
    """A ratio measured in rounds: the median of the rounds' own ratios and their range."""

    def __init__(self, ratios):
        self.ratios = [r for r in ratios if r is not None]
        self.median = median(self.ratios)
        self.lo = min(self.ratios) if self.ratios else float("nan")
        self.hi = max(self.ratios) if self.ratios else float("nan")

    @property
    def level(self):
        """The rounds' range holds 1: no difference this run can tell from its noise."""
        return self.lo <= 1 <= self.hi

    def relation(self, faster="faster than", slower="slower than", level="level with"):
        if not self.ratios:
            return "not measured against"
        return level if self.level else faster if self.median > 1 else slower

    def text(self, digits=2, x=""):
        """"2.05x (1.91-2.20)": the median and, with more than one round, the rounds' range."""
        if not self.ratios:
            return "–"
        if len(self.ratios) == 1:
            return f"{fmt(self.median, digits)}{x}"
        return f"{fmt(self.median, digits)}{x} ({fmt(self.lo, digits)}–{fmt(self.hi, digits)})"


class Perft:
    """Perft speed: M nodes/s per subject, build (architecture and compiler) and leaves, per
    round; medians over rounds."""

    def __init__(self, data):
        self.data = data
        self.subjects = []
        for r in data.rows:
            key = (r["subject"], r["impl"])
            if key not in self.subjects:
                self.subjects.append(key)
        self.rounds = sorted({int(r["round"]) for r in data.rows})
        self.builds, self.c32, self.main64, self.same64 = builds_of(data.rows)
        self.index = {}
        for r in data.rows:
            key = (r["subject"], r["impl"], r["arch"], r["compiler"], r["leaves"], int(r["round"]))
            self.index.setdefault(key, []).append(r)

    def compiler(self, arch):
        return self.c32 if arch == "i686" else self.main64

    def round_speed(self, subject, arch, leaves, rnd, compiler=None):
        rows = self.index.get((subject[0], subject[1], arch, compiler or self.compiler(arch), leaves, rnd), [])
        if len(rows) != 6:
            return None
        return sum(int(r["nodes"]) for r in rows) / sum(float(r["seconds"]) for r in rows) / 1e6

    def speeds(self, subject, arch, leaves="made", compiler=None):
        found = (self.round_speed(subject, arch, leaves, r, compiler) for r in self.rounds)
        return [s for s in found if s]

    def speed(self, subject, arch, leaves="made", compiler=None):
        return median(self.speeds(subject, arch, leaves, compiler))

    def versus(self, a, b, arch, leaves="made", arch_b=None, compiler=None, compiler_b=None):
        """a on `arch` over b on `arch_b` (the same by default), round by round."""
        arch_b = arch_b or arch
        ratios = []
        for r in self.rounds:
            x = self.round_speed(a, arch, leaves, r, compiler)
            y = self.round_speed(b, arch_b, leaves, r, compiler_b)
            ratios.append(x / y if x and y else None)
        return Cmp(ratios)

    def arch_cmp(self, subject, leaves="made"):
        """i686 / x86_64 of one subject, against the x86_64 build by the i686's compiler where
        it was measured (then the ratio is the architecture's alone), else against rustup's."""
        return self.versus(subject, subject, "i686", leaves, "x86_64", self.c32, self.same64 or self.main64)

    def ratio(self, subject, leaves="made"):
        return self.arch_cmp(subject, leaves).median

    def compiler_cmp(self, subject, leaves="made"):
        """x86_64 by the i686's compiler over x86_64 by rustup's: the compiler alone; None when
        no x86_64 build by the i686's compiler was measured."""
        if not self.same64:
            return None
        return self.versus(subject, subject, "x86_64", leaves, "x86_64", self.same64, self.main64)


def instructions_per_leaf(data, subject, arch, compiler=None):
    rows = data.where(subject=subject[0], impl=subject[1], arch=arch, compiler=build_compiler(data, arch, compiler))
    if not rows:
        return float("nan")
    return sum(int(r["instructions"]) for r in rows) / sum(int(r["leaves"]) for r in rows)


class Bench:
    """`ccr bench`'s nodes per second per round, build (architecture and compiler) and
    evaluator."""

    def __init__(self, data):
        self.data = data
        self.rounds = sorted({int(r["round"]) for r in data.rows})
        self.builds, self.c32, self.main64, self.same64 = builds_of(data.rows)
        self.index = {(r["arch"], r["compiler"], r["eval"], int(r["round"])): int(r["nps"]) for r in data.rows}

    def nps(self, arch, evaluator, rnd, compiler=None):
        return self.index.get((arch, build_compiler(self, arch, compiler), evaluator, rnd))

    def speeds(self, arch, evaluator, compiler=None):
        found = (self.nps(arch, evaluator, r, compiler) for r in self.rounds)
        return [x for x in found if x]

    def versus(self, arch, evaluator, arch_b, compiler=None, compiler_b=None, evaluator_b=None):
        return Cmp([(lambda x, y: x / y if x and y else None)(self.nps(arch, evaluator, r, compiler),
                                                             self.nps(arch_b, evaluator_b or evaluator, r, compiler_b))
                    for r in self.rounds])

    def arch_cmp(self, evaluator):
        """i686 / x86_64, against the x86_64 build by the i686's compiler where measured."""
        return self.versus("i686", evaluator, "x86_64", self.c32, self.same64 or self.main64)

    def compiler_cmp(self, evaluator):
        if not self.same64:
            return None
        return self.versus("x86_64", evaluator, "x86_64", self.same64, self.main64)


POSITION_NAMES = {"startpos": "the start position", "kiwipete": "Kiwipete", "position3": "position 3",
                  "position4": "position 4", "position5": "position 5", "position6": "position 6"}


def per_position(perft, a, b, arch, leaves, arch_b=None):
    """a over b position by position (the median over rounds of each round's ratio): {id: Cmp}."""
    arch_b = arch_b or arch
    found = {}
    for ident in POSITION_NAMES:
        ratios = []
        for rnd in perft.rounds:
            x = perft.index.get((a[0], a[1], arch, perft.compiler(arch), leaves, rnd), [])
            y = perft.index.get((b[0], b[1], arch_b, perft.compiler(arch_b), leaves, rnd), [])
            x = [r for r in x if r["position"] == ident]
            y = [r for r in y if r["position"] == ident]
            if x and y:
                ratios.append(int(x[0]["nodes"]) / float(x[0]["seconds"]) / (int(y[0]["nodes"]) / float(y[0]["seconds"])))
        found[ident] = Cmp(ratios)
    return found


def positions_text(found):
    """"the start position 1.11, Kiwipete 1.31, ..." from per_position's result."""
    return ", ".join(f"{POSITION_NAMES[k]} {fmt(c.median, 2)}" for k, c in found.items() if c.ratios)


def spread_text(values, digits=1, scale=1.0):
    """A median with the range of its rounds: "84.1 (80.2–86.0)"."""
    values = [x * scale for x in values]
    if not values:
        return "–"
    if len(values) == 1:
        return fmt(values[0], digits)
    return f"{fmt(median(values), digits)} ({fmt(min(values), digits)}–{fmt(max(values), digits)})"


# The C.C.R. as the paper prints it and as the engine generates, and the boards it is set
# against on the first screen of docs/PAPER.md.
CCR = ("ccr", "portable")
KERNEL = ("ccr", "simd")


def one_board_register(perft):
    """The kernel that holds one board in a 256-bit register (the kernel held to AVX2 where the
    CPU has AVX-512, else the kernel itself), and its speed against the portable frame per
    architecture and measure."""
    capped = ("ccr", "simd-avx2")
    ymm = capped if capped in perft.subjects else KERNEL
    return ymm, {(a, l): perft.versus(ymm, ("ccr", "portable"), a, l)
                 for a in ("x86_64", "i686") for l in ("made", "bulk")}
HEADLINE_BOARDS = [(("bitboard-native", "portable"), "magic bitboards"),
                   (("rotated", "portable"), "rotated bitboards"),
                   (("x88", "portable"), "0x88")]
LEAVES = {"made": "every leaf made", "bulk": "last ply counted"}


def headline(perft, bench, v):
    """The first screen of docs/PAPER.md: the C.C.R. against bitboards and 0x88, made and
    counted, on i686 and x86_64 (each a median of the rounds' own ratios with their range), the
    whole engine's speed, and what that says in words."""
    archs = ("i686", "x86_64")
    columns = [(a, s) for a in archs for s in (CCR, KERNEL)]

    def cell(c):
        return c.text(2, "×") + (", level" if c.ratios and c.level and len(c.ratios) > 1 else "")

    rows = []
    for board, name in HEADLINE_BOARDS:
        for leaves in ("made", "bulk"):
            rows.append([f"÷ {name}, {LEAVES[leaves]}"] +
                        [cell(perft.versus(s, board, a, leaves)) for a, s in columns])
    for leaves in ("made", "bulk"):
        rows.append([f"the C.C.R. itself, {LEAVES[leaves]}, M nodes/s"] +
                    [spread_text(perft.speeds(s, a, leaves)) for a, s in columns])
    engine = {a: spread_text(bench.speeds(a, "frame"), 0, 1e-3) for a in archs}
    rows.append([f"the whole engine, `ccr bench {v['bench_depth']}`, kN/s"] +
                [engine[a] if s == KERNEL else "—" for a, s in columns])
    header = ["perft, six positions: the C.C.R.'s speed ÷ another board's (above 1: the C.C.R. is faster)"]
    for a, s in columns:
        header.append(f"{a} ({perft.compiler(a)}), {'portable' if s == CCR else 'engine kernel'}")
    v["headline_table"] = table(header, rows)
    for arch in archs:
        for leaves in ("made", "bulk"):
            c = perft.versus(CCR, HEADLINE_BOARDS[0][0], arch, leaves)
            v[f"headline_magic_{leaves}_{arch}"] = ("level, " if c.level and len(c.ratios) > 1 else "") + c.text(2, "×")
    engine_cmp = bench.arch_cmp("frame")
    v["headline_engine"] = (f"The whole engine searches {engine['i686']} kN/s on i686 and {engine['x86_64']} on "
                            f"x86_64 (i686 ÷ x86_64 {engine_cmp.text(2, '×')}).")

    magic, rotated, x88 = (b for b, _ in HEADLINE_BOARDS)

    def standing(subject, arch, leaves):
        """Against both bitboard layouts at once: (words, figures)."""
        c = [perft.versus(subject, b, arch, leaves) for b in (magic, rotated)]
        r = [x.relation() for x in c]
        words = f"{r[0]} both bitboard layouts" if r[0] == r[1] else f"{r[0]} magic bitboards and {r[1]} rotated ones"
        figures = [x.text(2, "×") if x.level else fmt(x.median, 2) + "×" for x in c]
        return words, f"{arch}: magic {figures[0]}, rotated {figures[1]}"

    def clause(subject, leaves):
        found = {}
        for arch in archs:
            words, figures = standing(subject, arch, leaves)
            found.setdefault(words, []).append(figures)
        return "; ".join(f"{words} ({'; '.join(figures)})" for words, figures in found.items())

    def verdict(arch, leaves):
        r = {perft.versus(CCR, b, arch, leaves).relation() for b in (magic, rotated)}
        return "holds" if r == {"faster than"} else "fails" if "slower than" in r else "level"

    where = {"made": "with every leaf made", "bulk": "with the last ply counted"}
    found = {}
    for leaves in ("made", "bulk"):
        for arch in archs:
            found.setdefault(verdict(arch, leaves), {}).setdefault(leaves, []).append(arch)
    says = {"holds": "holds", "level": "is level", "fails": "does not hold"}
    summary = "; it ".join(f"{says[k]} on " + " and on ".join(f"{' and '.join(a)} {where[l]}"
                                                               for l, a in found[k].items())
                           for k in says if k in found)
    x88_found = {}
    for leaves in ("made", "bulk"):
        for arch in archs:
            c = perft.versus(CCR, x88, arch, leaves)
            x88_found.setdefault(c.relation(), []).append(f"{arch} {where[leaves]} "
                                                          f"({c.text(2, '×') if c.level else fmt(c.median, 2) + '×'})")
    x88_words = "; ".join(f"{rel} it on {', '.join(p)}" for rel, p in x88_found.items())
    v["headline_text"] = (
        f"**In words.** With every leaf made, the portable C.C.R., the paper's design, is {clause(CCR, 'made')}. "
        f"With the last ply counted, which is move generation alone, it is {clause(CCR, 'bulk')}. The engine's "
        f"kernel is {clause(KERNEL, 'made')} with every leaf made, and {clause(KERNEL, 'bulk')} counted. So the "
        f"paper's \"faster than bitboards\", for its own design, {summary}. Against 0x88, the array board of "
        f"the paper's section 2, the portable C.C.R. is {x88_words}. Level (the rounds' range in brackets) means "
        "the rounds fall on both sides of 1: no rank.")


def goal_met(c, target):
    """Whether a ratio measured in rounds meets its target: yes when every round does, no when
    none does, else it lies within the rounds' spread."""
    if not c.ratios:
        return "–"
    if c.lo >= target:
        return "yes"
    if c.hi < target:
        return "no"
    return f"within the rounds ({'above' if c.median >= target else 'below'} at the median)"


# The pure generation goals (bulk counts against ccr's magic bitboards and cozy-chess):
# (key, goal, architecture, the C.C.R. (None: its best kernel), against, target, before).
# "Before" is docs/data/perft.tsv at 126b684174 (shallower bulk depths, AVX2, AMD EPYC).
GENERATION_GOALS = [
    ("portable_i686", "portable C.C.R. ÷ magic bitboards, i686", "i686", ("ccr", "portable"),
     ("bitboard-native", "portable"), 1.0, 0.79),
    ("portable_x86_64", "portable C.C.R. ÷ magic bitboards, x86_64", "x86_64", ("ccr", "portable"),
     ("bitboard-native", "portable"), 0.6, 0.41),
    ("best_i686", "best C.C.R. kernel ÷ magic bitboards, i686", "i686", None,
     ("bitboard-native", "portable"), 1.3, 1.10),
    ("best_x86_64", "best C.C.R. kernel ÷ magic bitboards, x86_64", "x86_64", None,
     ("bitboard-native", "portable"), 1.0, 0.64),
    ("best_cozy_x86_64", "best C.C.R. kernel ÷ cozy-chess, x86_64", "x86_64", None,
     ("cozy-chess", "-"), 1.0, None),
]


def generation_goals(perft, v):
    """The pure generation goals: the C.C.R.'s bulk count (portable, and its best kernel by
    median speed, SIMD or assembly) against ccr's magic bitboards and cozy-chess, round by round."""
    kernels = [k for k in (("ccr", "simd"), ("ccr", "asm")) if k in perft.subjects]
    rows = []
    for key, goal, arch, subject, base, target, before in GENERATION_GOALS:
        subject = subject or max(kernels, key=lambda k: perft.speed(k, arch, "bulk"))
        c = perft.versus(subject, base, arch, "bulk")
        met = goal_met(c, target)
        v[f"generation_{key}"] = c.text(2)
        v[f"generation_{key}_met"] = met
        v[f"generation_{key}_positions"] = positions_text(per_position(perft, subject, base, arch, "bulk"))
        rows.append([goal, f"≥ {target:.2f}", "—" if before is None else fmt(before, 2),
                     f"{c.text(2)} ({SUBJECT_NAMES[subject]})", met])
    return table(["goal (bulk count, speed ratio; rounds in brackets)", "target", "before (`126b684`)",
                  "this run", "met"], rows, ["---", "---:", "---:", "---:", "---"])


def short_function(name):
    """A symbol as the table shows it: its last two path segments, generics dropped."""
    name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))
    return "::".join(name.split("::")[-2:]).strip(":") or name


def count_profile(data, v):
    """The bulk count's instructions per leaf by function (callgrind, the six positions
    summed), the C.C.R. portable and with its SIMD kernel against magic bitboards, per
    architecture; functions under 2 per leaf in every column summed as `(other)`."""
    if data is None:
        return "*Not measured in this data (`scripts/reproduce.py --steps instructions` measures it).*"
    # On i686 valgrind runs the SIMD kernel's portable fallback: no column of its own.
    columns = [("x86_64", ("ccr", "portable")), ("x86_64", ("ccr", "simd")),
               ("x86_64", ("bitboard-native", "portable")), ("i686", ("ccr", "portable")),
               ("i686", ("bitboard-native", "portable"))]
    per_leaf, totals = {}, {}
    for arch, subject in columns:
        rows = data.where(subject=subject[0], impl=subject[1], arch=arch,
                          compiler=build_compiler(data, arch))
        leaves = sum(int(r["leaves"]) for r in rows if r["function"] == "(other)")
        if not leaves:
            continue
        for r in rows:
            name = short_function(r["function"]) if r["function"] != "(other)" else "(other)"
            key = (arch, subject)
            per_leaf.setdefault(name, {}).setdefault(key, 0.0)
            per_leaf[name][key] += int(r["instructions"]) / leaves
            totals[key] = totals.get(key, 0.0) + int(r["instructions"]) / leaves
    shown = {n: c for n, c in per_leaf.items() if n != "(other)" and max(c.values()) >= 2}
    other = {k: totals[k] - sum(c.get(k, 0.0) for c in shown.values()) for k in totals}
    order = sorted(shown, key=lambda n: -max(shown[n].values()))
    body = [[f"`{n}`"] + [fmt(shown[n][k], 0) if k in shown[n] else "" for k in columns] for n in order]
    body.append(["(other)"] + [fmt(other[k], 0) if k in other else "" for k in columns])
    body.append(["**total**"] + [f"**{fmt(totals[k], 0)}**" if k in totals else "" for k in columns])
    groups = {"table": r"^attacks::", "handlers": r"^movegen::(pawn|knight|bishop|rook|queen|king|pinned_pieces)$",
              "kernel": r"^avx2::attacks_and_moves$", "pins": r"^checks::king_lines$", "walk": r"^perft::count"}
    for k in totals:
        slug = f"{k[1][0]}_{k[1][1]}_{k[0]}".replace("-", "_")
        v[f"count_ipl_{slug}"] = fmt(totals[k], 0)
        for group, pattern in groups.items():
            v[f"count_ipl_{slug}_{group}"] = fmt(sum(c.get(k, 0.0) for n, c in per_leaf.items()
                                                     if re.search(pattern, n)), 0)
        v[f"count_ipl_{slug}_without_table"] = fmt(totals[k] - sum(
            c.get(k, 0.0) for n, c in per_leaf.items() if re.search(groups["table"], n)), 0)
    names = {("ccr", "portable"): "C.C.R. portable", ("ccr", "simd"): "C.C.R. SIMD (AVX2)",
             ("bitboard-native", "portable"): "magic bitboards"}
    return table(["function (instructions per leaf)"] + [f"{names[s]}, {a}" for a, s in columns], body,
                 ["---"] + ["---:"] * len(columns))


def goals_table(perft, instructions, engine, portable, v):
    """The performance goals: the C.C.R. as the engine generates (`engine`, the SIMD kernel)
    against the crates and against itself on the other architecture, each with its target and
    whether it is met (every round, none, or the target within the rounds' spread); the portable
    generator's figure beside it."""
    crates = [c for c in (("shakmaty", "-"), ("cozy-chess", "-"), ("chess", "-")) if c in perft.subjects]

    def against(ccr, arch, leaves, subjects):
        """The C.C.R. over the fastest of `subjects` (by its median speed), round by round."""
        best = max(subjects, key=lambda c: perft.speed(c, arch, leaves))
        return perft.versus(ccr, best, arch, leaves), SUBJECT_NAMES[best]

    def ipl(ccr):
        return instructions_per_leaf(instructions, ccr, "x86_64") / instructions_per_leaf(instructions, ccr, "i686")

    rows = []
    for key, goal, arch, leaves, subjects, target in (
            ("made_x86_64", "every leaf made, x86_64, ÷ shakmaty", "x86_64", "made", crates[:1], 1.25),
            ("made_i686", "every leaf made, i686, ÷ the fastest crate", "i686", "made", crates, 1.5),
            ("bulk_x86_64", "last ply counted, x86_64, ÷ shakmaty", "x86_64", "bulk", crates[:1], 1.0),
            ("bulk_i686", "last ply counted, i686, ÷ the fastest crate", "i686", "bulk", crates, 1.0)):
        ratio, name = against(engine, arch, leaves, subjects)
        plain, _ = against(portable, arch, leaves, subjects)
        met = goal_met(ratio, target)
        rows.append([goal, f"≥ {target:.2f}", f"{ratio.text(2)} ({name})", plain.text(2), met])
        v[f"goal_{key}_words"] = (
            f"The engine's kernel stands at {ratio.text(2)} of {name}'s speed (median of the rounds, lowest and "
            f"highest round), the goal at {target:.2f}: " +
            {"yes": "met in every round.", "no": "missed in every round."}.get(
                met, "the target lies within the rounds' spread, so this run neither meets nor misses it."))
    # The goal was set against `make build`'s x86_64 binary (rustup's compiler).
    speed = perft.versus(engine, engine, "i686", "made", "x86_64", perft.c32, perft.main64)
    plain = perft.versus(portable, portable, "i686", "made", "x86_64", perft.c32, perft.main64)
    rows.append(["C.C.R. i686 ÷ x86_64, speed, every leaf made", "≥ 0.92", speed.text(2), plain.text(2),
                 goal_met(speed, 0.92)])
    # valgrind's 32-bit mode decodes no AVX2, so under callgrind the i686 SIMD kernel runs its
    # portable fallback: only the portable generator compares like with like here.
    rows.append(["C.C.R. x86_64 ÷ i686, instructions per leaf (perft 3, made; portable on both)", "≥ 0.92",
                 "—", fmt(ipl(portable), 2), "yes" if ipl(portable) >= 0.92 else "no"])
    for row, before in zip(rows, GOALS_BEFORE):
        row.insert(2, "—" if before is None else fmt(before, 2))
    return table(["goal (speed ratio, above 1: the C.C.R. is faster; rounds in brackets)", "target",
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


def paper_tally(games, score, draws):
    """Wins, draws and losses from the paper's games, score % and draws % (the paper prints no
    W/D/L): the whole numbers that give back its percentages."""
    d = round(games * draws / 100)
    w = round(games * score / 100 - d / 2)
    return w, d, games - w - d


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
    v["perft_cpu_features_word"] = ("this run's CPU does" if "avx512f" in v["cpu_features"].split() else
                                    "this run's CPU does not: its counts are the AVX2 kernel's")
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
                      "**This is a quick run (`make reproduce QUICK=1`): one perft round (so no ratio has a "
                      "spread, and none is called level), callgrind on Kiwipete only, no x86_64 build by the "
                      "i686's compiler, one bench round, 10^6 keys, two games per opponent at 2+0.05. Its "
                      "figures are rough.**")
    v["perft_rounds"] = str(len(perft.rounds))
    values_perft(d, v, perft)
    values_simd(d, v, perft)
    values_search(d, v, perft)
    values_profile(d, v, perft)
    values_costs(d, v, perft)
    verdicts(v, perft, Bench(d["bench"]))
    values_keys(d, v, perft)
    values_strength(d, v, perft)
    values_tests(d, v, perft)
    return v, perft


def values_perft(d, v, perft):
    """The perft tables: made and counted leaves, both architectures, every subject."""
    ccr = ("ccr", "portable")
    ins = d["instructions"]
    rows = []
    for s in perft.subjects:
        row = [SUBJECT_NAMES.get(s, f"{s[0]} {s[1]}")]
        for arch in ("x86_64", "i686"):
            row += [fmt(perft.speed(s, arch), 1), fmt(perft.speed(s, arch, "bulk"), 1)]
        row += [perft.arch_cmp(s).text(2), perft.arch_cmp(s, "bulk").text(2)]
        if perft.same64:
            row += [fmt(perft.speed(s, "x86_64", "made", perft.same64), 1),
                    perft.compiler_cmp(s).text(2), perft.compiler_cmp(s, "bulk").text(2)]
        row += [fmt(instructions_per_leaf(ins, s, "x86_64"), 0), fmt(instructions_per_leaf(ins, s, "i686"), 0)]
        rows.append(row)
    header = ["perft, six positions (M nodes/s)", f"x86_64 made", "x86_64 counted", "i686 made",
              "i686 counted", "i686 ÷ x86_64, made (rounds)", "i686 ÷ x86_64, counted (rounds)"]
    if perft.same64:
        header += [f"x86_64 by {perft.same64}, made", f"{perft.same64} ÷ {perft.main64}, x86_64 made",
                   "the same, counted"]
    header += ["instr./leaf x86_64", "instr./leaf i686"]
    v["table_perft"] = table(header, rows)
    v["arch_pairing"] = (
        f"i686 ÷ x86_64 divides the i686 build by an x86_64 build of the same compiler ({perft.c32})"
        if perft.same64 else
        f"i686 ÷ x86_64 divides the i686 build ({perft.c32}) by the x86_64 build of another compiler "
        f"({perft.main64})")
    if perft.same64:
        c, cb = perft.compiler_cmp(CCR), perft.compiler_cmp(CCR, "bulk")
        v["compiler_note"] = (
            f"The x86_64 columns are {perft.main64}'s build (`make build`), i686 is {perft.c32}'s; every i686 ÷ "
            f"x86_64 ratio divides by an x86_64 build of {perft.c32} too, so it is the architecture's alone. "
            f"The compiler alone moves the portable C.C.R.'s x86_64 speed by {c.text(2, '×')} with every leaf "
            f"made and {cb.text(2, '×')} counted ({perft.same64} ÷ {perft.main64}; the 32-bit and 64-bit "
            "section has every subject).")
    else:
        v["compiler_note"] = (
            f"x86_64 is built by {perft.main64} and i686 by {perft.c32}, so every i686 ÷ x86_64 ratio in this "
            "run mixes the architecture with the compiler; how much the compiler alone moves the x86_64 "
            "figures is not yet measured (`make reproduce STEPS=perft,bench` now also measures an x86_64 "
            f"build by {perft.c32}, and the report then divides like by like).")
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
    v["table_goals"] = goals_table(perft, d["instructions"], ("ccr", "simd"), ccr, v)
    v["table_generation_goals"] = generation_goals(perft, v)
    v["table_count_profile"] = count_profile(d["count-functions"], v)
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


def values_simd(d, v, perft):
    """SIMD and assembly against the portable code, per architecture, made and counted."""
    ccr = ("ccr", "portable")
    ins = d["instructions"]
    speedups = []
    for base, names in ((ccr, ["simd", "asm"]), (("bitboard", "portable"), ["simd", "asm"])):
        for impl in names:
            s = (base[0], impl)
            if s not in perft.subjects:
                continue
            cells = []
            for arch in ("x86_64", "i686"):
                x = perft.versus(s, base, arch)
                xb = perft.versus(s, base, arch, "bulk")
                i = instructions_per_leaf(ins, base, arch) / instructions_per_leaf(ins, s, arch)
                cells += [x.text(2), xb.text(2), fmt(i, 2)]
                v[f"speedup_{s[0]}_{impl}_{arch}"] = fmt(x.median, 2)
                v[f"speedup_{s[0]}_{impl}_{arch}_bulk"] = fmt(xb.median, 2)
            speedups.append([SUBJECT_NAMES[s]] + cells)
    # The 256-bit register: the kernel held to AVX2 where the CPU has AVX-512, else the kernel itself.
    capped = ("ccr", "simd-avx2")
    ymm, narrow = one_board_register(perft)
    v["registers_claim"] = (
        "an AVX2 `ymm` register holds one board: the kernel with AVX2" +
        (" alone (`CCR_SIMD_MAX=avx2`)" if ymm == capped else "") + " runs perft, against the portable frame, " +
        ", ".join(f"{a} {narrow[(a, 'made')].text(2, '×')} made and {narrow[(a, 'bulk')].text(2, '×')} counted"
                  for a in ("x86_64", "i686")) +
        ". An AVX-512 `zmm` register holds two: the search builds both colours' attack tables in one, and a counted "
        "ply is one pass with the board in both halves of a register, two directions of travel per fill")
    if ymm == capped:
        wide = {(a, l): perft.versus(KERNEL, capped, a, l) for a in ("x86_64", "i686") for l in ("made", "bulk")}
        v["registers_claim"] += (
            ". On this run's CPU the kernel with AVX-512 runs perft, against the same build held to AVX2, " +
            ", ".join(f"{a} {wide[(a, 'bulk')].text(2, '×')} counted and {wide[(a, 'made')].text(2, '×')} made"
                      for a in ("x86_64", "i686")) +
            " (a made leaf builds one colour's table, by AVX2 either way)")
    else:
        v["registers_claim"] += (", where the CPU has AVX-512F. This run's CPU has none, so no figure here sets "
                                 "AVX-512 against AVX2")
    v["table_speedups"] = table(["against its portable twin (rounds)", "x86_64 speed, made", "x86_64 speed, counted",
                                 "x86_64 instr. (made)", "i686 speed, made", "i686 speed, counted",
                                 "i686 instr. (made)"], speedups)


def values_search(d, v, perft):
    """The search: `ccr bench` on both architectures, and the engines it is compared with."""
    bench = d["bench"]
    bench_speed = Bench(bench)
    # The search's signature: the nodes of `ccr bench` with the frame evaluator, which every
    # build and round must agree on.
    signatures = sorted({int(r["nodes"]) for r in bench.rows if r["eval"] == "frame"})
    v["bench_signature"] = " and ".join(f"{n:,}" for n in signatures)
    brows = []
    for evaluator in ("frame", "bitboards"):
        nps = {a: median(bench_speed.speeds(a, evaluator)) for a in ("x86_64", "i686")}
        arch = bench_speed.arch_cmp(evaluator)
        ins = d["bench-instructions"]
        ipn = {}
        for a in ("x86_64", "i686"):
            r = ins.where(arch=a, eval=evaluator, compiler=build_compiler(ins, a))[0]
            ipn[a] = int(r["instructions"]) / int(r["nodes"])
        v[f"bench_{evaluator}_x86_64"] = fmt(nps["x86_64"] / 1e3, 0)
        v[f"bench_{evaluator}_i686"] = fmt(nps["i686"] / 1e3, 0)
        v[f"bench_ratio_{evaluator}"] = fmt(arch.median, 2)
        v[f"bench_ratio_{evaluator}_spread"] = arch.text(2)
        v[f"bench_ipn_{evaluator}_x86_64"] = fmt(ipn["x86_64"], 0)
        v[f"bench_ipn_{evaluator}_i686"] = fmt(ipn["i686"], 0)
        brows.append([f"ccr, {evaluator} evaluator", spread_text(bench_speed.speeds("x86_64", evaluator), 0, 1e-3),
                      spread_text(bench_speed.speeds("i686", evaluator), 0, 1e-3),
                      arch.text(2), fmt(ipn["x86_64"], 0), fmt(ipn["i686"], 0)])
    v["bench_nodes"] = f"{int(bench.rows[0]['nodes']):,}"
    v["bench_depth"] = re.search(r"bench (\d+)", bench.meta["what"]).group(1)
    v["bench_idepth"] = re.search(r"bench (\d+)", d["bench-instructions"].meta["what"]).group(1)
    v["bench_rounds"] = str(len(bench_speed.rounds))
    headline(perft, bench_speed, v)
    if bench_speed.same64:
        v["compiler_note"] += (f" On `ccr bench`'s speed the compiler alone gives "
                               f"{bench_speed.compiler_cmp('frame').text(2, '×')} ({bench_speed.same64} ÷ "
                               f"{bench_speed.main64}, x86_64).")
    engines = d["engines"]
    names = {"stockfish-classical": "Stockfish 15.1, classical evaluation",
             "stockfish-nnue": "Stockfish 15.1, NNUE", "glaurung": "Glaurung 2.2"}
    for kind, name in names.items():
        ratios = []
        for rnd in sorted({r["round"] for r in engines.rows}):
            a, b = engines.where(kind=kind, arch="i686", round=rnd), engines.where(kind=kind, arch="x86_64", round=rnd)
            if a and b:
                ratios.append(float(a[0]["mnps"]) / float(b[0]["mnps"]))
        slug = kind.replace("-", "_")
        v[f"engine_{slug}_ratio"] = fmt(median(ratios), 2)
        brows.append([name, spread_text([float(r["mnps"]) for r in engines.where(kind=kind, arch="x86_64")], 0, 1e3),
                      spread_text([float(r["mnps"]) for r in engines.where(kind=kind, arch="i686")], 0, 1e3),
                      Cmp(ratios).text(2), "", ""])
    brows.append(["Rybka (the paper: one AMD64 at 2.4 GHz)", f"{RYBKA_64}", f"{RYBKA_32}",
                  fmt(RYBKA_32 / RYBKA_64, 2), "", ""])
    v["rybka_ratio"] = fmt(RYBKA_32 / RYBKA_64, 2)
    v["table_engines"] = table(["whole engine", "x86_64 kN/s (rounds)", "i686 kN/s (rounds)", "i686 ÷ x86_64 (rounds)",
                                "instr./node x86_64", "instr./node i686"], brows)


def values_profile(d, v, perft):
    """Where the search spends its time, and the bytes it copies."""
    prof = d["bench-profile"]

    def pval(metric, arch="x86_64", evaluator="frame"):
        r = prof.where(arch=arch, eval=evaluator, metric=metric, compiler=build_compiler(prof, arch))
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
    short = {"ccr": "C.C.R.", "bitboard-native": "magic bitboards", "rotated": "rotated bitboards", "x88": "0x88"}
    v["table_bytes_inline"] = ", ".join(f"{short.get(n, n)} {fmt(sz * copies, 0)} B per node "
                                        f"({fmt(sz, 0)} B a position)" for n, sz in sizes if n != "bitboard")


def values_costs(d, v, perft):
    """Costs per call (iai-callgrind): the mean over each benchmark's inputs."""
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
    if ("instructions", "attacks", "ccr_ray_scan_x64") in costs:
        c = costs[("instructions", "attacks", "ccr_ray_scan_x64")]
        v["per_square_ray_scan"] = fmt(sum(c) / len(c) / 64, 0)


def values_keys(d, v, perft):
    """The keys: collisions, spread and cost."""
    keys = d["keys"]
    n = int(keys.rows[0]["n"])
    v["keys_n"] = f"{n:,}"
    v["keys_n_exp"] = f"10^{round(math.log10(n))}"
    v["table_keys"] = keys_table(keys)
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
    d["keys-largest"] = largest
    key_figures(largest, "largest", v)
    v["table_keys_largest"] = keys_table(largest)
    v["largest_how"] = (f"{v['keys_scale_count']} shards merged, `make reproduce STEPS=scale`"
                        if v.get("keys_scale_complete") else "`make reproduce`'s keys step")


def values_strength(d, v, perft):
    """The strength ladder and the paper's matches."""
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
    for name in ("phalanx", "sjeng", "glaurung", "toga", "ethereal", "stockfish"):  # the ladder, where a run left one out
        v.setdefault("strength_" + name, "not played")
        v.setdefault("strength_elo_" + name, "–")
    v["strength_games"] = f"{sum(int(r['wins']) + int(r['draws']) + int(r['losses']) for r in strength.rows):,}"
    v["strength_tc"] = " and ".join(sorted({r["tc"] for r in strength.rows})) or "–"
    m = strength.meta
    v["strength_run"] = (f"{m.get('machine', '?')}; commit {m.get('commit', '?')}, {m.get('date', '?')[:10]}; "
                         f"{m.get('what', '?')}")
    v["table_strength"] = table(["opponent", "time control", "W/D/L", "games", "ccr's score %",
                                 "Elo difference (95 %)"], srows)
    v["ladder_names"] = ", ".join(r["opponent"] for r in by_score) or "no opponent"
    prows = []
    for o, g, sc, dr, e in PAPER_MATCHES:
        w, dd, l = paper_tally(g, sc, dr)
        _, _, lo, hi = tally(w, dd, l)
        prows.append([o, g, fmt(sc, 1), fmt(dr, 1), f"{w}/{dd}/{l}", f"+{e}", elo_text(e, lo, hi).split(" ", 1)[1].strip("()")])
    v["table_paper_matches"] = table(["Achilles against", "games", "score %", "draws %",
                                      "W/D/L (from score and draws)", "Elo difference", "95 % interval"], prows)


def values_tests(d, v, perft):
    """The paper's reference vectors: the tests."""
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
    benchmarks_values(perft, d, v)

    def printed(name, pattern):
        """A figure a test printed (tests.tsv's `output`, x86_64), or None."""
        for r in tests.rows:
            if r["test"].split("::")[-1] == name and r.get("output"):
                m = re.search(pattern, r["output"])
                if m:
                    return m
        return None

    m = printed("attack_tables_agree_with_shakmaty", r"([\d,]+) positions checked")
    v["attack_test_positions"] = (f"{int(m.group(1).replace(',', '')):,} positions of random games" if m else
                                  "every position of the test's random games (their number is recorded in "
                                  "`tests.tsv` from the next `make reproduce STEPS=tests`)")
    m = printed("equal_on_random_games", r"([\d,]+) positions of ([\d,]+) random games")
    v["eval_test_positions"] = (f"{int(m.group(1).replace(',', '')):,} positions of {m.group(2)} random games" if m
                                else "every position of the test's random games (their number is recorded in "
                                "`tests.tsv` from the next `make reproduce STEPS=tests`)")
    v["run"] = lambda names: provenance(d, names)
    wdl_values(d["wdl"], v)
    limit_values(d["limit"], v)


def wdl_values(data, v):
    """The win/draw/loss model's fit: its size, parameters and a(m), b(m) at a few moves."""
    if data is None:
        v["wdl_fit"] = "*Not fitted in this data directory (no wdl.tsv).*"
        return
    params = {r["key"]: float(r["value"]) for r in data.rows if r["table"] == "param"}
    a = [params[k] for k in ("a0", "a1", "a2", "a3")]
    b = [params[k] for k in ("b0", "b1", "b2", "b3")]

    def cubic(c, move):
        m = min(max(move, 8), 120) / 32
        return ((c[0] * m + c[1]) * m + c[2]) * m + c[3]

    rows = [[str(move), fmt(cubic(a, move), 0), fmt(cubic(b, move), 0),
             fmt(100 / (1 + math.exp((cubic(a, move) - 100) / cubic(b, move))) * 10, 0)]
            for move in (10, 20, 30, 40, 60, 80)]
    v["wdl_fit"] = (
        f"Fitted to {data.meta.get('samples', '?')}; mean log-likelihood {data.meta.get('mean log-likelihood', '?')} "
        f"(`{data.meta.get('what', '?')}`). Parameters: a = ({', '.join(f'{x:.3f}' for x in a)}), "
        f"b = ({', '.join(f'{x:.3f}' for x in b)}), highest power first.\n\n" +
        table(["move", "a(m): the score that wins half the games, cp", "b(m): its spread, cp",
               "a score of +100 cp wins, per mille"], rows))


def rating_fit(edges, fixed):
    """Maximum-likelihood ratings (the Elo logistic, a draw half a point, as Ordo and BayesElo
    fit them) of every player in `edges`, [(a, b, w, d, l)] from a's side, with the players of
    `fixed` {name: rating} held: ({name: rating}, {name: half-width of its 95 % interval}) from
    the likelihood's curvature (0 for the fixed)."""
    players = sorted({p for a, b, *_ in edges for p in (a, b)})
    free = [p for p in players if p not in fixed]
    r = {p: fixed.get(p, 2000.0) for p in players}
    k = math.log(10) / 400

    def curvature():
        grad = {p: 0.0 for p in free}
        hess = {(i, j): 0.0 for i in free for j in free}
        for a, b, w, d, l in edges:
            n, points = w + d + l, w + d / 2
            p = 1 / (1 + 10 ** ((r[b] - r[a]) / 400))
            g, h = k * (points - n * p), k * k * n * p * (1 - p)
            for x, sign in ((a, 1), (b, -1)):
                if x in grad:
                    grad[x] += sign * g
            for x, y, sign in ((a, a, -1), (b, b, -1), (a, b, 1), (b, a, 1)):
                if (x, y) in hess:
                    hess[(x, y)] += sign * h
        return grad, hess

    def solve(matrix, vector):
        """x with matrix x = vector (Gauss-Jordan, partial pivoting)."""
        m = [[matrix[(i, j)] for j in free] + [vector[i]] for i in free]
        for c in range(len(free)):
            pivot = max(range(c, len(free)), key=lambda row: abs(m[row][c]))
            m[c], m[pivot] = m[pivot], m[c]
            for row in range(len(free)):
                if row != c:
                    f = m[row][c] / m[c][c]
                    m[row] = [x - f * y for x, y in zip(m[row], m[c])]
        return [m[i][-1] / m[i][i] for i in range(len(free))]

    for _ in range(200):
        grad, hess = curvature()
        # Newton's step, at most 200 Elo a player at a time (a score of 0 or 100 % pulls hard).
        step = solve({key: -h for key, h in hess.items()}, grad)
        for p, x in zip(free, step):
            r[p] += max(-200.0, min(200.0, x))
        if max((abs(x) for x in step), default=0) < 1e-6:
            break
    _, hess = curvature()
    half = {p: 0.0 for p in fixed}
    for i, p in enumerate(free):
        unit = {q: float(q == p) for q in free}
        half[p] = 1.96 * math.sqrt(max(solve({key: -h for key, h in hess.items()}, unit)[i], 0.0))
    return r, half


def limit_settings(data):
    """{(UCI_Elo, nodes): [(opponent, w, d, l)]} of the calibration, by rising Elo, and the
    scale's anchor {opponent: rating}."""
    settings, anchor = {}, {}
    for r in data.rows:
        key = (int(r["elo"]), int(r["nodes"]))
        settings.setdefault(key, []).append((r["opponent"], int(r["wins"]), int(r["draws"]), int(r["losses"])))
        if r["anchor"] != "-":
            anchor[r["opponent"]] = float(r["anchor"])
    return dict(sorted(settings.items())), anchor


def limit_fit(data):
    """The calibration's ratings: ({player: rating}, {player: 95 % half-width}, settings,
    anchor); a setting is the player `nodes` (its node budget)."""
    settings, anchor = limit_settings(data)
    edges = [(setting_name(nodes), name, w, d, l) for (_, nodes), games in settings.items()
             for name, w, d, l in games]
    ratings, half = rating_fit(edges, anchor)
    for _, nodes in settings:
        ratings[nodes], half[nodes] = ratings[setting_name(nodes)], half[setting_name(nodes)]
    return ratings, half, settings, anchor


def setting_name(nodes):
    """The player a calibrated setting is in the fit."""
    return f"ccr at {nodes:,} nodes"


def limit_values(data, v):
    """The strength limit's calibration: the opponents' and the settings' fitted ratings."""
    if data is None:
        v["limit_table"] = "*Not calibrated in this data directory (no limit.tsv).*"
        v["limit_verdict"] = ""
        return
    ratings, half, settings, anchor = limit_fit(data)
    opponents = sorted({name for games in settings.values() for name, *_ in games}, key=lambda n: ratings[n])
    scale = [[name, f"{ratings[name]:.0f}" + (" (the anchor)" if name in anchor else f" ± {half[name]:.0f}"),
              sum(w + d + l for games in settings.values() for o, w, d, l in games if o == name)]
             for name in opponents]
    rows, misses, widths, residuals = [], [], [], []
    for (elo, nodes), games in settings.items():
        r = ratings[nodes]
        for name, w, d, l in games:
            n = w + d + l
            expected = 1 / (1 + 10 ** ((ratings[name] - r) / 400))
            rows.append([f"{elo}", f"{nodes:,}", name, f"{w}/{d}/{l}", n, fmt(100 * (w + d / 2) / n, 1),
                         fmt(100 * expected, 1)])
            residuals.append((abs((w + d / 2) / n - expected) * 100, f"{elo} against {name.split()[0]}"))
        n = sum(w + d + l for _, w, d, l in games)
        rows.append([f"**{elo}**", f"{nodes:,}", "**all**", "", n, "",
                     f"**rated {r:.0f} ± {half[nodes]:.0f}**, {elo - r:+.0f} from the setting"])
        misses.append(abs(elo - r))
        widths.append(half[nodes])
    v["limit_table"] = (
        table(["opponent", "rating (95 %)", "games"], scale) + "\n\n" +
        table(["UCI_Elo", "nodes a move", "opponent", "W/D/L", "games", "ccr's score %",
               "expected by the fit %"], rows) +
        f"\n\nThe run: {caption_of(data)}; {data.meta.get('what', '?')}.")
    off = max(residuals)
    within = [f"{elo} (± {w:.0f})" for (elo, _), w in zip(settings, widths) if w <= 100]
    beyond = [f"{elo} (± {w:.0f})" for (elo, _), w in zip(settings, widths) if w > 100]
    v["limit_verdict"] = (
        f"Each setting's `UCI_Elo` lies within {max(misses):.0f} Elo of the rating its games give it. "
        "How well that rating is known (95 %) decides whether the mapping holds within the 100 Elo the "
        "goal asks: " + (f"it does at {', '.join(within)}" if within else "it does at no setting yet")
        + (f"; not yet at {', '.join(beyond)}, where more games (and games nearer the anchor) would narrow "
           "it." if beyond else ".")
        + f" The fit's largest miss of a score is {off[0]:.0f} points in a hundred ({off[1]}).")


def benchmarks_values(perft, d, v):
    """The figures docs/BENCHMARKS.md's prose quotes position by position."""
    shakmaty, chess, cozy = ("shakmaty", "-"), ("chess", "-"), ("cozy-chess", "-")
    v["pp_kernel_shakmaty_x86_64_made"] = positions_text(per_position(perft, KERNEL, shakmaty, "x86_64", "made"))
    v["pp_kernel_arch_made"] = positions_text(per_position(perft, KERNEL, KERNEL, "i686", "made", "x86_64"))
    bulk = [c.median for c in per_position(perft, KERNEL, KERNEL, "i686", "bulk", "x86_64").values() if c.ratios]
    v["pp_kernel_arch_bulk_range"] = f"{fmt(min(bulk), 2)}-{fmt(max(bulk), 2)}"
    v["pp_kernel_chess_i686_bulk"] = positions_text(per_position(perft, KERNEL, chess, "i686", "bulk"))
    ahead = [c.median for crate in (cozy, chess) for c in per_position(perft, KERNEL, crate, "x86_64", "bulk").values()
             if c.ratios]
    v["pp_kernel_cozy_chess_x86_64_bulk_range"] = f"{fmt(min(ahead), 2)}-{fmt(max(ahead), 2)}"
    versus_shakmaty = per_position(perft, KERNEL, shakmaty, "x86_64", "bulk")
    below = [f"{POSITION_NAMES[k]}: {fmt(c.median, 2)}" for k, c in versus_shakmaty.items() if c.ratios and c.median < 1]
    passed = sum(1 for c in versus_shakmaty.values() if c.ratios and c.median >= 1)
    v["pp_kernel_shakmaty_x86_64_bulk"] = (f"passes on {passed} positions of {len(versus_shakmaty)}" +
                                           (f" ({'; '.join(below)})" if below else ""))
    ins = d["instructions"]
    for arch in ("x86_64", "i686"):
        rows = ins.where(subject="ccr", impl="portable", arch=arch, position="kiwipete",
                         compiler=build_compiler(ins, arch))
        v[f"ipl_kiwipete_ccr_{arch}"] = (fmt(int(rows[0]["instructions"]) / int(rows[0]["leaves"]), 1)
                                         if rows else "–")
    hybrid = ("bitboard", "simd")
    words = []
    for arch in ("x86_64", "i686"):
        parts = [f"{perft.versus(hybrid, b, arch, 'bulk').relation()} {n} ({perft.versus(hybrid, b, arch, 'bulk').text(2, '×')})"
                 for b, n in ((("bitboard-native", "portable"), "native bitboards"), (CCR, "the portable C.C.R."),
                              (KERNEL, "the C.C.R.'s kernel"))]
        words.append(f"on {arch}, " + ", ".join(parts))
    v["hybrid_bulk"] = "; ".join(words)
    v["ccr_x86_64_bulk_standing"] = against(perft, CCR, "x86_64", "bulk", HEADLINE_BOARDS)
    for leaves in ("made", "bulk"):
        for crate in ("shakmaty", "cozy-chess"):
            c = perft.versus(CCR, (crate, "-"), "x86_64", leaves)
            v[f"ccr_vs_{crate.replace('-', '_')}_{leaves}"] = fmt(c.median, 2)


def provenance(d, names):
    """Where the figures of a section come from: each data file named, grouped by the run
    (machine, commit and day) its header names."""
    runs = {}
    for name in names:
        data = d.get(name)
        if data is None:
            runs.setdefault("not measured in this data directory", []).append(f"{name}.tsv")
            continue
        m = data.meta
        machine = m.get("machine", "machine not recorded")
        if m.get("cpu features"):
            machine += f" ({m['cpu features']})"
        where = f"{machine}; commit `{m.get('commit', '?')}`, {m.get('date', '?')[:10]}"
        runs.setdefault(where, []).append(os.path.basename(data.path))
    return "; ".join(f"{', '.join(f'`{n}`' for n in files)}: {where}" for where, files in runs.items())


def keys_table(keys):
    """Colliding pairs of one keystats run, full and truncated, against the birthday bound."""
    n = int(keys.rows[0]["n"])
    rows = []
    for what in ["full 64"] + [f"{e} {b}" for b in (56, 48, 40, 32) for e in ("top", "low")]:
        cells = [what]
        for key in ("rotation", "zobrist"):
            r = keys.where(table="collisions", key=key, what=what)
            cells.append(f"{int(r[0]['observed']):,}" if r else "–")
        r = keys.where(table="collisions", key="rotation", what=what)
        bits = int(what.split()[-1])
        cells.append(f"{float(r[0]['expected']):.3g}" if r else "–")
        cells.append(f"{n * 2 ** ((64 - bits) / 2):.2g}")
        rows.append(cells)
    return table(["bits compared", "rotation pairs", "Zobrist pairs", "expected (birthday)",
                  "stands for the full key at n ="], rows)


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
        lines += ["", f"Over n = {m:,} distinct positions (`docs/data/keystats-scale.md` is the merged "
                  "report):", "",
                  keys_table(keys), "",
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


def against(perft, subject, arch, leaves, boards):
    """How `subject` stands against each of `boards` ([(subject, name)]) on one build and
    measure, grouped: "faster than 0x88 (1.31×), slower than magic bitboards (0.79×) and ..."."""
    found = {}
    for board, name in boards:
        c = perft.versus(subject, board, arch, leaves)
        found.setdefault(c.relation(), []).append(f"{name} ({c.text(2, '×')})")
    return ", ".join(f"{rel} {' and '.join(names)}" for rel, names in found.items())


def verdicts(v, perft, bench):
    """The verdicts that follow from a comparison, so that another run's figures decide them.
    Each names the measure it rests on; a ratio whose rounds fall on both sides of 1 is level."""
    bitboards = [(("bitboard-native", "portable"), "magic bitboards"), (("rotated", "portable"), "rotated"),
                 (("shakmaty", "-"), "shakmaty"), (("cozy-chess", "-"), "cozy-chess"), (("chess", "-"), "chess")]
    bitboards = [(s, n) for s, n in bitboards if s in perft.subjects]
    kept, held, ccr_kept = {}, {}, {}
    for leaves in ("made", "bulk"):
        ratios = {n: perft.arch_cmp(s, leaves) for s, n in bitboards}
        name = max(ratios, key=lambda n: ratios[n].median)
        kept[leaves] = (name, ratios[name])
        held[leaves] = ratios[name].hi < 0.8
        ccr_kept[leaves] = perft.arch_cmp(CCR, leaves)
    words = {"made": "with every leaf made", "bulk": "with the last ply counted"}
    parts = [f"{words[l]} every bitboard generator keeps at most {kept[l][1].text(2)} of its x86_64 speed "
             f"({kept[l][0]})" for l in ("made", "bulk")]
    if all(held.values()):
        v["verdict_bitboards32"] = "reproduced on both measures: " + "; ".join(parts)
    else:
        v["verdict_bitboards32"] = ("differs where a generator keeps 0.8 or more in a round: " + "; ".join(parts))
    ahead = {l: ccr_kept[l].lo > kept[l][1].hi for l in ("made", "bulk")}
    ccr_words = "; ".join(f"{words[l]} the C.C.R. keeps {ccr_kept[l].text(2)}, the best bitboard generator "
                          f"{kept[l][1].text(2)}" for l in ("made", "bulk"))
    if all(ahead.values()):
        v["verdict_ccr32"] = (f"reproduced in direction on both measures ({ccr_words}), but not all of the speed: "
                              "i686 has half the registers")
    else:
        v["verdict_ccr32"] = f"differs where the rounds overlap: {ccr_words}"
    if not perft.same64:
        confound = (f" Both ratios mix the architecture with the compiler ({perft.c32} for i686, "
                    f"{perft.main64} for x86_64).")
        v["verdict_bitboards32"] += "." + confound
        v["verdict_ccr32"] += "." + confound
    proxies = [num(v["engine_stockfish_classical_ratio"]), num(v["engine_glaurung_ratio"])]
    rybka = RYBKA_32 / RYBKA_64
    near = all(abs(p - rybka) <= 0.1 for p in proxies)
    v["verdict_rybka"] = ("cannot be reproduced here (Rybka is commercial); on whole-engine speed, i686 ÷ x86_64, "
                          "the proxies, Debian's bitboard engines on one CPU, " +
                          ("land within 0.1 of Rybka's ratio" if near else
                           f"keep {min(proxies):.2f}-{max(proxies):.2f}, not Rybka's {rybka:.2f}"))
    others = [(("bitboard-native", "portable"), "magic bitboards"), (("rotated", "portable"), "rotated bitboards"),
              (("x88", "portable"), "0x88")]
    generation = {a: against(perft, CCR, a, "bulk", others) for a in ("x86_64", "i686")}
    made = {a: against(perft, CCR, a, "made", others) for a in ("x86_64", "i686")}
    slower = all(perft.versus(CCR, others[0][0], a, "bulk").relation() == "slower than" for a in ("x86_64", "i686"))
    v["verdict_movegen"] = (
        ("differs for generation" if slower else "reproduced for generation") +
        f": with the last ply counted (move generation alone) the C.C.R. is {generation['x86_64']} on x86_64 and "
        f"{generation['i686']} on i686; with every leaf made (generation and copy-make) it is {made['x86_64']} on "
        f"x86_64 and {made['i686']} on i686" +
        (". The edge test is free, but generating one nibble at a time does not beat a bitboard's target sets"
         if slower else ""))
    mailbox = {(a, l): perft.versus(CCR, ("x88", "portable"), a, l) for a in ("x86_64", "i686") for l in ("made", "bulk")}
    v["verdict_mailbox"] = (
        "a proxy (0x88 is not 12×12), on perft speed: " +
        "; ".join(f"{words[l]} the C.C.R. is " +
                  ", ".join(f"{mailbox[(a, l)].relation()} 0x88 on {a} ({mailbox[(a, l)].text(2, '×')})"
                            for a in ("i686", "x86_64")) for l in ("made", "bulk")))
    qmax = num(v["qs_time_max"])
    v["verdict_quiescence"] = ("differs, on `ccr bench`'s sampled time: ccr's quiescence search (captures and queen "
                               "promotions) is leaner than the paper's (checks, promotions)" if qmax < 50 else
                               "reproduced, on `ccr bench`'s sampled time")
    _, simd = one_board_register(perft)
    faster = all(c.relation() == "faster than" for c in simd.values())
    v["verdict_registers"] = (
        ("reproduced" if faster else "differs in speed") + " for a 256-bit register, on perft speed against the "
        "portable frame: " + ", ".join(f"{a} {simd[(a, 'made')].text(2, '×')} made, {simd[(a, 'bulk')].text(2, '×')} "
                                        "counted" for a in ("x86_64", "i686")) +
        "; for the 32-bit and 64-bit registers the paper names, a reading (E3)")
    bb = ("bitboard", "portable")
    conv = {(i, a, l): perft.versus(("bitboard", i), bb, a, l) for i in ("simd", "asm") for a in ("x86_64", "i686")
            for l in ("made", "bulk") if ("bitboard", i) in perft.subjects}

    def conv_words(i):
        return ", ".join(f"{a} {conv[(i, a, 'made')].text(2, '×')} made, {conv[(i, a, 'bulk')].text(2, '×')} counted"
                         for a in ("x86_64", "i686") if (i, a, "made") in conv)

    conv_simd = all(conv[(i, a, l)].relation() == "faster than" for i, a, l in conv if i == "simd")
    asm = [conv[(i, a, "made")].relation() for i, a, l in conv if i == "asm" and l == "made"]
    v["verdict_conversion"] = (
        ("reproduced for SIMD" if conv_simd else "differs for SIMD") + f", on perft speed against the paper's loop "
        f"({conv_words('simd')}); the assembly is " + ("faster than" if set(asm) == {"faster than"} else
                                                      "not always faster than") +
        f" the compiled loop ({conv_words('asm')}); it runs on i686 too, so \"needs 64-bit\" differs")
    per_call = num(v["iai_eval_eval_bitboards"]) < num(v["iai_eval_eval_frame"])
    search = bench.versus("x86_64", "bitboards", "x86_64", evaluator_b="frame")
    v["verdict_hybrid"] = (("reproduced per call (callgrind instructions)" if per_call else
                            "differs per call (callgrind instructions)") +
                           f"; on `ccr bench`'s speed the whole search runs {search.text(2, '×')} as fast with it on "
                           "x86_64" + (", level: the search builds the attack tables at every node for its own use"
                                       if search.level else ""))


def render(template, v):
    """Fills `{{name}}`, `{{test:name}}` and `{{run:file,file}}` placeholders; an unknown name is
    an error."""

    def fill(match):
        name = match.group(1).strip()
        if name.startswith("test:"):
            return v["test"](name[5:].strip())
        if name.startswith("run:"):
            return v["run"]([n.strip() for n in name[4:].split(",")])
        if name not in v:
            raise KeyError(f"unknown placeholder {{{{{name}}}}}")
        return v[name]

    return re.sub(r"\{\{([^}]+)\}\}", fill, template)


def plots(d, v, perft, out):
    """The SVG plots: speed on i686 against x86_64, keys against the birthday bound, strength."""
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.hashsalt": "ccr", "font.size": 9, "svg.fonttype": "none"})
    os.makedirs(out, exist_ok=True)
    plot_arch_ratio(d, v, perft, out)
    plot_perft_speed(d, perft, out)
    plot_keys(d, v, out)
    plot_strength(d, out)
    plot_versus(d, perft, out)
    if d["wdl"] is not None:
        plot_wdl(d, out)
    if d["limit"] is not None:
        plot_limit(d, out)


def caption(d, *names):
    """The machine, commit and date of the data behind a plot, once per run it comes from."""
    parts = []
    for name in names:
        part = caption_of(d[name])
        if part not in parts:
            parts.append(part)
    return "\n".join(parts)


def save_plot(fig, out, name, text, bottom, fontsize=7):
    """`fig` with `text` (where its data comes from) at its foot, laid out above `bottom`
    (a share of its height), written to `out`/`name` and closed."""
    import matplotlib.pyplot as plt
    fig.text(0.01, 0.005, text, fontsize=fontsize, color="#555555")
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.savefig(os.path.join(out, name), metadata={"Date": None})
    plt.close(fig)


def leaves_title(leaves):
    """A perft plot's panel title: what is done at the leaves."""
    return LEAVES[leaves] + (" (copy-make)" if leaves == "made" else " (generation alone)")


def plot_arch_ratio(d, v, perft, out):
    """i686 / x86_64 speed for every representation, crate and engine, beside Rybka's."""
    import matplotlib.pyplot as plt
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
    runs = caption(d, "perft", "bench", "engines")
    save_plot(fig, out, "arch-ratio.svg", runs, 0.02 * (runs.count("\n") + 1))


def plot_perft_speed(d, perft, out):
    """Perft speed on both architectures, every leaf made and the last ply counted: medians
    with the range of the rounds."""
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(9, 0.3 * len(perft.subjects) + 1.6), sharey=True)
    y = list(range(len(perft.subjects)))[::-1]
    for ax, leaves in zip(axes, ("made", "bulk")):
        for offset, arch, colour in ((0.2, "x86_64", "#1f77b4"), (-0.2, "i686", "#ff7f0e")):
            runs = [perft.speeds(s, arch, leaves) for s in perft.subjects]
            mids = [median(r) for r in runs]
            err = [[m - min(r) for m, r in zip(mids, runs)], [max(r) - m for m, r in zip(mids, runs)]]
            ax.barh([yy + offset for yy in y], mids, height=0.4, color=colour, xerr=err,
                    error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
                    label=f"{arch} ({perft.compiler(arch)})")
        ax.set_title(leaves_title(leaves), fontsize=9)
        ax.set_xlabel("M nodes/s")
    axes[0].set_yticks(y, [SUBJECT_NAMES.get(s, s[0]) for s in perft.subjects])
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, bbox_to_anchor=(0.5, 0.03))
    fig.suptitle("Perft on the six standard positions: median of rounds (whiskers: lowest and highest round)",
                 fontsize=9)
    save_plot(fig, out, "perft-speed.svg", caption(d, "perft"), 0.09)


def plot_keys(d, v, out):
    """Colliding pairs against key bits, both keys, beside the birthday expectation: the
    largest run there is (the one the documents quote)."""
    import matplotlib.pyplot as plt
    keys = d["keys-largest"]
    n = int(keys.rows[0]["n"])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    bits = [32, 40, 48, 56, 64]
    fine = [b / 4 for b in range(128, 257)]
    ax.plot(fine, [birthday(n, b) for b in fine], color="black", linewidth=1,
            label=f"expected for a random key, n = {n:.3g}")
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
    ax.set_title(f"Keys against the birthday bound, {v['largest_n']} distinct positions\n"
                 f"(among 10^11 positions a random 64-bit key expects {v['birthday_1e11']} colliding pairs)",
                 fontsize=9)
    ax.legend(fontsize=7)
    save_plot(fig, out, "keys-birthday.svg", f"{os.path.basename(keys.path)}: " + caption_of(keys), 0.02)


def plot_strength(d, out):
    """The ladder: each opponent's Elo relative to ccr, beside Achilles' opponents relative to
    Achilles in the paper (two scales with their own zero: the engines never met). An interval
    open at one end (no game went the other way, or its end lies past 0 or 100 %) is drawn as
    an arrow to the plot's edge at that end."""
    import matplotlib.pyplot as plt
    rows = []
    for r in d["strength"].rows:
        w, dr, l = int(r["wins"]), int(r["draws"]), int(r["losses"])
        _, e, lo, hi = tally(w, dr, l)
        # The opponent's Elo relative to ccr is minus ccr's against it.
        rows.append((f"{r['opponent']} ({w + dr + l} games, {r['tc']})",
                     None if e is None else -e, -hi, -lo, "#1f77b4"))
    rows.sort(key=lambda row: row[2] if row[1] is None else row[1])
    paper = []
    for o, g, sc, dr, e in PAPER_MATCHES:
        _, _, lo, hi = tally(*paper_tally(g, sc, dr))
        # The paper's Elo as printed; the interval from the games its score and draws imply.
        paper.append((f"{o} (the paper, {g} games)", -e, -hi, -lo, "#d62728"))
    rows = rows + sorted(paper, key=lambda row: row[1])
    fig, ax = plt.subplots(figsize=(7.5, 0.35 * len(rows) + 1.5))
    # Wide enough for every point and its label; intervals beyond it are cut at the edge.
    limit = max(600, 100 * math.ceil((max(abs(row[1]) for row in rows if row[1] is not None) + 150) / 100))
    for y, (_, e, lo, hi, colour) in enumerate(rows):
        arrow = {"arrowstyle": "->", "color": colour}
        if e is None:
            # Every game went one way: only one end is known.
            start, towards = (lo, limit) if math.isinf(hi) else (hi, -limit)
            ax.annotate("", xy=(towards, y), xytext=(start, y), arrowprops=arrow)
            ax.plot([start], [y], "|", color=colour, markersize=10)
            ax.text(start, y + 0.25, f"{'above' if math.isinf(hi) else 'below'} {start:+.0f}",
                    fontsize=7, ha="center", color=colour)
            continue
        ax.plot([e], [y], "o", color=colour)
        for end, edge in ((lo, -limit), (hi, limit)):
            if math.isinf(end) or abs(end) > limit:
                ax.annotate("", xy=(edge, y), xytext=(e, y), arrowprops=arrow)
            else:
                ax.plot([e, end], [y, y], color=colour, linewidth=1.2)
                ax.plot([end], [y], "|", color=colour, markersize=7)
        ax.text(e, y + 0.25, f"{e:+.0f}", fontsize=7, ha="center", color=colour)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.text(0, len(rows) - 0.4, " ccr (blue) / Achilles (red)", fontsize=7, va="bottom")
    ax.set_yticks(range(len(rows)), [row[0] for row in rows], fontsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.1)
    ax.set_xlim(-limit, limit)
    ax.set_xlabel("Elo relative to the engine that played them\n(bars: 95 % interval; an arrow: the interval is open at that end)")
    fig.suptitle("The ladder: Debian's engines relative to ccr (blue), Achilles' opponents relative to "
                 "Achilles in the paper (red)", fontsize=9)
    save_plot(fig, out, "strength.svg", caption(d, "strength"), 0.02)


def plot_versus(d, perft, out):
    """The C.C.R. against bitboards and 0x88: the first screen's table as a plot."""
    import matplotlib.pyplot as plt
    boards = [(b, n, c, m) for (b, n), c, m in zip(HEADLINE_BOARDS, ("#1f77b4", "#2ca02c", "#7f7f7f"), ("o", "s", "D"))]
    lines = [(a, s, f"{a}, {'portable' if s == CCR else 'engine kernel'}") for a in ("i686", "x86_64")
             for s in (CCR, KERNEL)]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.9), sharey=True)
    low, high = [], []
    for ax, leaves in zip(axes, ("made", "bulk")):
        for k, (board, name, colour, marker) in enumerate(boards):
            for j, (arch, subject, _) in enumerate(lines):
                c = perft.versus(subject, board, arch, leaves)
                if not c.ratios:
                    continue
                yy = len(lines) - 1 - j + (1 - k) * 0.22
                ax.errorbar([c.median], [yy], xerr=[[c.median - c.lo], [c.hi - c.median]], fmt=marker,
                            color=colour, markersize=5, capsize=2, elinewidth=1,
                            label=name if j == 0 else None)
                low.append(c.lo)
                high.append(c.hi)
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_title(leaves_title(leaves), fontsize=9)
        ax.set_xlabel("the C.C.R.'s speed ÷ the other board's\n(above 1: the C.C.R. is faster)")
    span = (min(low + [0.5]) / 1.15, max(high + [2.0]) * 1.15)
    for ax in axes:
        ax.set_xlim(*span)
        ticks = [t for t in (0.25, 0.33, 0.5, 0.67, 1, 1.5, 2, 3, 4) if span[0] <= t <= span[1]]
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.minorticks_off()
    axes[0].set_yticks(range(len(lines))[::-1], [label for _, _, label in lines])
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, [f"÷ {label}" for label in labels], loc="lower center", ncol=3, fontsize=8,
               bbox_to_anchor=(0.5, 0.04))
    fig.suptitle("The C.C.R. against bitboards and 0x88: perft on six positions, median of rounds "
                 "(whiskers: lowest and highest round)", fontsize=9)
    save_plot(fig, out, "ccr-vs-bitboards.svg", caption(d, "perft"), 0.11)


def plot_wdl(d, out):
    """The win/draw/loss model against the games it was fitted to, per group of move numbers."""
    import matplotlib.pyplot as plt
    bins = [r for r in d["wdl"].rows if r["table"] == "bin"]
    groups = list(dict.fromkeys(r["key"] for r in bins))
    fig, axes = plt.subplots(1, len(groups), figsize=(3 * len(groups), 3.2), sharey=True, squeeze=False)
    for ax, group in zip(axes[0], groups):
        rows_g = [r for r in bins if r["key"] == group]
        x = [int(r["value"]) for r in rows_g]
        for kind, colour in (("win", "#2ca02c"), ("draw", "#7f7f7f"), ("loss", "#d62728")):
            ax.plot(x, [float(r[f"games_{kind}"]) for r in rows_g], "o", color=colour, markersize=3,
                    label=f"games: {kind}")
            ax.plot(x, [float(r[f"model_{kind}"]) for r in rows_g], "-", color=colour, linewidth=1,
                    label=f"model: {kind}")
        ax.set_title(f"moves {group.replace('-999', ' and later')}", fontsize=8)
        ax.set_xlabel("ccr's score, centipawns")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("share of the games")
    axes[0][0].legend(fontsize=6, loc="center left")
    fig.suptitle("UCI_ShowWDL's model against ccr's games (points: the games' outcomes per 50 cp bin; "
                 "lines: the model)", fontsize=8)
    save_plot(fig, out, "wdl.svg", f"{d['wdl'].meta.get('samples', '?')[:110]}", 0.04, fontsize=6)


def plot_limit(d, out):
    """The strength limit: each setting's fitted rating against its UCI_Elo, beside the opponents'."""
    import matplotlib.pyplot as plt
    ratings, half, settings, anchor = limit_fit(d["limit"])
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    elos = [elo for elo, _ in settings]
    span = (min(elos) - 250, max(elos) + 250)
    ax.fill_between(span, [span[0] - 100, span[1] - 100], [span[0] + 100, span[1] + 100], color="#dddddd",
                    label="within 100 Elo of the setting")
    ax.plot(span, span, color="black", linewidth=0.8, label="rating = UCI_Elo")
    for k, (elo, nodes) in enumerate(settings):
        ax.errorbar([elo], [ratings[nodes]], yerr=[[half[nodes]], [half[nodes]]], fmt="o", color="#1f77b4",
                    capsize=4, label="a setting's rating in the games (95 %)" if k == 0 else None)
        ax.annotate(f"{nodes:,} nodes", (elo, ratings[nodes]), textcoords="offset points", xytext=(8, -12),
                    fontsize=7)
    names = sorted({name for games in settings.values() for name, *_ in games}, key=lambda n: ratings[n])
    for name in names:
        ax.axhline(ratings[name], color="#999999", linewidth=0.6, linestyle="--")
        what = "the anchor" if name in anchor else f"fitted, ± {half[name]:.0f}"
        ax.text(span[0] + 10, ratings[name] + 8, f"{name} {ratings[name]:.0f} ({what})", fontsize=7,
                color="#555555")
    ax.set_xlim(*span)
    ax.set_ylim(min(span[0], min(ratings.values()) - 100), max(span[1], max(ratings.values()) + 100))
    ax.set_xlabel("UCI_Elo (the setting)")
    ax.set_ylabel("rating fitted to the calibration games")
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    fig.suptitle("UCI_LimitStrength: each calibrated setting's rating in its games (dashed: the opponents')",
                 fontsize=9)
    save_plot(fig, out, "limit.svg", caption(d, "limit"), 0.03)


PLOTS = ("ccr-vs-bitboards.svg", "arch-ratio.svg", "perft-speed.svg", "keys-birthday.svg", "strength.svg",
         "wdl.svg", "limit.svg")


def caption_of(data):
    m = data.meta
    return f"{m.get('machine', '?')}; commit {m.get('commit', '?')}, {m.get('date', '?')[:10]}"


def targets(data_dir, out):
    """Where each document goes: {source: destination}. From docs/data the documents are the
    tracked ones; from any other data directory (or with --out) they go into that directory
    (PAPER.md, BENCHMARKS.md, README.md, STRENGTH.md and plots/), and the tracked tree is left
    as it is."""
    sources = [os.path.join(ROOT, "docs", "PAPER.md"), os.path.join(ROOT, "docs", "BENCHMARKS.md"),
               os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "STRENGTH.md")]
    tracked = os.path.realpath(data_dir) == os.path.realpath(os.path.join(ROOT, "docs", "data"))
    if out is None and tracked:
        return {p: p for p in sources}, os.path.join(ROOT, "docs", "plots")
    out = out or data_dir
    return {p: os.path.join(out, os.path.basename(p)) for p in sources}, os.path.join(out, "plots")


def shown(path):
    """A path as the messages give it: relative to the checkout when inside it."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def drawn_by(path):
    """The matplotlib version an SVG names as its creator, or None."""
    m = re.search(r"Matplotlib v([\w.]+),", open(path).read(4000)) if os.path.exists(path) else None
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data"))
    ap.add_argument("--out", help="directory for the documents and plots (default: the tracked documents "
                                  "from docs/data, else the data directory itself)")
    ap.add_argument("--check", action="store_true",
                    help="compare with the documents and plots already there, write nothing")
    args = ap.parse_args()
    d = load(args.data)
    where, plot_dir = targets(args.data, args.out)
    try:
        v, perft = values(d)
        tracked = os.path.realpath(args.data) == os.path.realpath(os.path.join(ROOT, "docs", "data"))
        v["data_dir"] = "docs/data/" if tracked else os.path.abspath(args.data) + "/"
        docs = {}
        for name in ("PAPER.md", "BENCHMARKS.md"):
            docs[where[os.path.join(ROOT, "docs", name)]] = render(open(os.path.join(TEMPLATES, name)).read(), v)
        # Hand-written documents with regions drawn from the data: `<!-- report:NAME -->` up to
        # `<!-- /report -->` is filled from the template DOC-NAME.md.
        for path in (os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "STRENGTH.md")):
            prefix = os.path.splitext(os.path.basename(path))[0]

            def region(match, prefix=prefix):
                part = os.path.join(TEMPLATES, f"{prefix}-{match.group(2)}.md")
                return match.group(1) + render(open(part).read(), v) + match.group(3)

            docs[where[path]] = re.sub(r"(<!-- report:([\w-]+) -->\n).*?(<!-- /report -->)", region,
                                       open(path).read(), flags=re.S)
    except KeyError as err:
        sys.exit(f"error: {err.args[0]}")
    if args.check:
        import matplotlib
        stale = [p for p, text in docs.items() if not os.path.exists(p) or open(p).read() != text]
        versions = {drawn_by(os.path.join(plot_dir, p)) for p in PLOTS} - {None}
        if versions and versions != {matplotlib.__version__}:
            sys.exit(f"error: the plots in {shown(plot_dir)} were drawn by matplotlib "
                     f"{', '.join(sorted(versions))} and this python has {matplotlib.__version__}; SVGs compare "
                     "byte for byte only under the same version (`make setup-report` installs the pinned one)")
        with tempfile.TemporaryDirectory(prefix="ccr-report-") as fresh:
            plots(d, v, perft, fresh)
            for p in PLOTS:
                # A plot of data the directory lacks (no limit.tsv, say) is drawn by neither.
                mine, theirs = os.path.join(plot_dir, p), os.path.join(fresh, p)
                drawn = [open(f, "rb").read() if os.path.exists(f) else None for f in (mine, theirs)]
                if drawn[0] != drawn[1]:
                    stale.append(mine)
        if stale:
            sys.exit(f"error: not drawn from {shown(os.path.abspath(args.data))} (run `make report`): " +
                     ", ".join(shown(p) for p in stale))
        print(f"report: the documents and plots match {shown(os.path.abspath(args.data))}")
        return
    for path, text in docs.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    plots(d, v, perft, plot_dir)
    print(f"report: wrote {', '.join(shown(p) for p in docs)} and {shown(plot_dir)}/*.svg", file=sys.stderr)


if __name__ == "__main__":
    main()

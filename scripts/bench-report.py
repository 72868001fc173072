#!/usr/bin/env python3
"""Markdown tables for docs/BENCHMARKS.md from the last benchmark runs.

Usage: python3 scripts/bench-report.py [IAI_LOG]
       python3 scripts/bench-report.py --arch OUT

Reads criterion's medians from target/criterion/*/*/*/new/ (written by
`cargo bench --features benches --bench movegen`, `cargo bench --features benches --bench attacks` and `cargo bench --features benches --bench keys`)
and, if IAI_LOG is given, the instruction counts from the saved output of
`cargo bench --features benches --bench instructions`.

With --arch, the one 32-bit/64-bit table from the results scripts/bench-arch.sh left in OUT.
"""

import json
import pathlib
import re
import statistics
import sys

ENGINES = ["ccr", "shakmaty", "cozy-chess", "chess"]
POSITIONS = ["startpos", "kiwipete", "position3", "position4", "position5", "position6"]
KINDS = {
    "perft_make": "Perft, every leaf move made (copy-make)",
    "perft_bulk": "Perft, last ply bulk-counted",
    "movegen": "Legal move generation (one call; elements = moves generated)",
}
# The attack-table workloads (benches/attacks.rs and the `attacks` group of
# benches/instructions.rs), in table order, with their descriptions.
ATTACKS = {
    "ccr_block_new": "ccr `AttackBlock::new` (board + both tables, one pass)",
    "ccr_attacks_of": "ccr `attacks_of` (the enemy's table)",
    "ccr_attacks_of_avx2": "ccr `simd::attacks_of` (the same, the board in one AVX2 register)",
    "shakmaty_attack_map": "shakmaty: union of the enemy's attack sets (bitboard, no classes)",
    "ccr_in_check": "ccr `in_check` (side to move, built block)",
    "shakmaty_is_check": "shakmaty `is_check`",
    "ccr_is_attacked_x64": "ccr `is_attacked` x 64 squares (built block)",
    "ccr_cheapest_x64": "ccr `cheapest_attacker` x 64 squares (built block)",
    "ccr_ray_scan_x64": "ccr ray scan `checks::is_attacked` x 64 squares (no table)",
    "shakmaty_attacks_to_x64": "shakmaty `attacks_to` x 64 squares",
    "shakmaty_cheapest_x64": "shakmaty `attacks_to` + cheapest role x 64 squares",
}

# The key workloads (benches/keys.rs and the `keys` group of benches/instructions.rs), in
# table order, with their descriptions. Each computes one key per legal move.
KEYS = {
    "make": "`make` alone (baseline)",
    "make_keyed": "`make_keyed` (rotation, incremental)",
    "make_rotation_update": "`make` + `RotationKey.update`",
    "make_zobrist_update": "`make` + `Zobrist::update`",
    "make_rotation_key": "`make` + `RotationKey.key` (from scratch)",
    "make_zobrist_key": "`make` + `Zobrist::key` (from scratch)",
    "rotation_key": "`RotationKey.key` of the child (from scratch, no `make`)",
    "zobrist_key": "`Zobrist::key` of the child (from scratch, no `make`)",
}


def legal_moves():
    """{position: number of legal moves}, the D1 counts of tests/data/standard-perft.epd."""
    epd = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "standard-perft.epd"
    out = {}
    for line in epd.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        ident = next(f[3:] for f in fields if f.startswith("id "))
        out[ident] = int(next(f.split()[1] for f in fields if f.startswith("D1 ")))
    return out


def position_table(names, rows, fmt, unit):
    """Prints the head and a row per workload that has all six positions; returns those rows.
    `names` maps a workload to its row label; `rows` is [(workload, [cost per position])]."""
    rows = [(w, r) for w, r in rows if all(v is not None for v in r)]
    if not rows:
        return rows
    print(f"| workload ({unit}) | " + " | ".join(POSITIONS) + " | mean |")
    print("|---|" + "---:|" * (len(POSITIONS) + 1))
    for w, r in rows:
        cells = " | ".join(fmt(v) for v in r)
        print(f"| {names[w]} | {cells} | **{fmt(sum(r) / len(r))}** |")
    return rows


def keys_table(per_key, fmt, unit):
    """Rows: the key workloads, then each key's cost over `make`; columns: the six positions
    and their mean. `per_key` is {(workload, position): cost per key}."""
    rows = [(w, [per_key.get((w, p)) for p in POSITIONS]) for w in KEYS]
    rows = position_table(KEYS, rows, fmt, unit)
    if not rows:
        return
    base = dict(rows).get("make")
    if base:
        for w, r in rows:
            if w.startswith("make_"):
                extra = [v - b for v, b in zip(r, base)]
                cells = " | ".join(fmt(v) for v in extra)
                print(
                    f"| the key in {KEYS[w].split(' (')[0]}, over `make` | {cells} "
                    f"| **{fmt(sum(extra) / len(extra))}** |"
                )
    print()


def criterion_keys(data):
    moves = legal_moves()
    per_key = {(k[2], k[1]): v[2] / moves[k[1]] for k, v in data.items() if k[0] == "keys"}
    if per_key:
        print("### Keys, wall clock (ns per key, criterion medians over the legal moves)\n")
        keys_table(per_key, lambda ns: f"{ns:.2f}", "ns/key")


def iai_keys(data):
    moves = legal_moves()
    per_key = {(k[2], k[1]): n / moves[k[1]] for k, n in data.items() if k[0] == "keys"}
    if per_key:
        print("### Keys (instructions per key)\n")
        keys_table(per_key, lambda n: f"{n:,.1f}", "instructions/key")


def criterion(root):
    """{(kind, position, engine or workload): (param, elements or None, median_ns)}"""
    out = {}
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        kind, position = meta["group_id"].split("/")
        elements = (meta.get("throughput") or {}).get("Elements")
        out[(kind, position, meta["function_id"])] = (
            meta.get("value_str") or "",
            elements,
            est["median"]["point_estimate"],
        )
    return out


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.1f} ns"


def criterion_tables(data):
    for kind, title in KINDS.items():
        # The engines measured (runs from before the `chess` oracle have three).
        engines = [e for e in ENGINES if any((kind, p, e) in data for p in POSITIONS)]
        rows = [(p, {e: data.get((kind, p, e)) for e in engines}) for p in POSITIONS]
        if "ccr" not in engines or not any(all(v for v in r.values()) for _, r in rows):
            continue
        unit = "M moves/s" if kind == "movegen" else "M nodes/s"
        print(f"### {title}\n")
        heads = " | ".join(f"{e} {unit}" for e in engines)
        print(f"| position | depth | elements | {heads} | ccr / shakmaty | ccr / fastest |")
        print("|---|---|---:|" + "---:|" * len(engines) + "---:|---:|")
        totals = {e: [0, 0.0] for e in engines}
        for position, r in rows:
            if not all(r.values()):
                continue
            param, elements, _ = r["ccr"]
            rate = {e: r[e][1] / r[e][2] * 1e3 for e in engines}  # M elements / s
            for e in engines:
                totals[e][0] += r[e][1]
                totals[e][1] += r[e][2]
            cells = " | ".join(f"{rate[e]:.1f} ({fmt_time(r[e][2])})" for e in engines)
            print(
                f"| {position} | {param or '-'} | {elements:,} | {cells} "
                f"| {rate['ccr'] / rate['shakmaty']:.2f} | {rate['ccr'] / max(rate.values()):.2f} |"
            )
        rate = {e: totals[e][0] / totals[e][1] * 1e3 for e in engines}
        cells = " | ".join(f"**{rate[e]:.1f}** ({fmt_time(totals[e][1])})" for e in engines)
        print(
            f"| **all six** | | {totals['ccr'][0]:,} | {cells} "
            f"| **{rate['ccr'] / rate['shakmaty']:.2f}** | **{rate['ccr'] / max(rate.values()):.2f}** |"
        )
        print()


# The board representations (benches/representations.rs and the repr_* groups of
# benches/instructions.rs): criterion label, iai function prefix, description.
REPRS = [
    ("ccr", "ccr_repr", "C.C.R. (`Position`)"),
    ("x88", "x88", "0x88"),
    ("bitboard", "bitboard", "converted: C.C.R. + SIMD conversion + bitboard generator"),
    ("bitboard-portable", "bitboard_portable", "converted with the paper's portable conversion loop"),
    ("bitboard-native", "bitboard_native", "native bitboards (made move by move)"),
    ("rotated", "rotated", "rotated bitboards (occupancy four ways, Hyatt's lookups)"),
    ("ccr-simd", None, "C.C.R., enemy attack table by AVX2 (`--impl simd`)"),
    ("ccr-asm", None, "C.C.R., enemy attack table by assembly (`--impl asm`)"),
    ("bitboard-asm", None, "converted with the assembly conversion (`--impl asm`)"),
]
REPR_KINDS = ["repr_movegen", "repr_captures", "repr_perft_make", "repr_perft_bulk"]
CONVERSIONS = ["portable", "ssse3", "avx2"]


def sizes():
    path = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion" / "representation-sizes.json"
    return json.loads(path.read_text()) if path.exists() else {}


def representations_table(crit, instr):
    """The one table of the representations: size, wall clock (criterion medians summed
    over the six positions) and instructions (iai), each with its ratio to the C.C.R."""
    size = sizes()
    have_crit = any(k[0] in REPR_KINDS for k in crit)
    have_instr = any(k[0] in ("repr_movegen", "repr_captures", "repr_perft") for k in instr)
    if not (have_crit or have_instr):
        return
    print("### Board representations side by side\n")
    print(
        "| representation | bytes | movegen ns (sum of six) | captures ns (sum of six) "
        "| perft make M nodes/s | perft bulk M nodes/s | movegen instr. (sum of six) "
        "| captures instr. | perft 3 make instr. (startpos + kiwipete) | perft 3 bulk instr. |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def crit_sum(kind, label):
        rows = [crit.get((kind, p, label)) for p in POSITIONS]
        if not all(rows):
            return None
        if kind in ("repr_movegen", "repr_captures"):
            return sum(r[2] for r in rows)
        return sum(r[1] for r in rows) / sum(r[2] for r in rows) * 1e3  # M nodes/s

    def instr_sum(group, prefix, suffix, positions):
        if prefix is None:
            return None
        vals = [instr.get((group, p, prefix + suffix)) for p in positions]
        return sum(vals) if all(v is not None for v in vals) else None

    base = {}
    for label, prefix, description in REPRS:
        cells = [
            crit_sum("repr_movegen", label),
            crit_sum("repr_captures", label),
            crit_sum("repr_perft_make", label),
            crit_sum("repr_perft_bulk", label),
            instr_sum("repr_movegen", prefix, "_movegen", POSITIONS),
            instr_sum("repr_captures", prefix, "_captures", POSITIONS),
            instr_sum("repr_perft", prefix, "_perft_make", ["startpos", "kiwipete"]),
            instr_sum("repr_perft", prefix, "_perft_bulk", ["startpos", "kiwipete"]),
        ]
        if all(c is None for c in cells):
            continue
        if label == "ccr":
            base = cells
        out = []
        for i, (v, b) in enumerate(zip(cells, base)):
            if v is None:
                out.append("-")
                continue
            text = f"{v:,.0f}" if i in (0, 1) or i >= 4 else f"{v:.1f}"
            # Every ratio reads "times as fast as the C.C.R." (above 1 = faster): rates
            # divide by the C.C.R.'s, times and instruction counts divide it.
            speedup = v / b if i in (2, 3) else b / v
            ratio = "" if label == "ccr" or b is None else f" ({speedup:.2f}x)"
            out.append(text + ratio)
        size_text = str(size.get(label, "-"))
        print(f"| `{label}`: {description} | {size_text} | " + " | ".join(out) + " |")
    print()
    conv_crit = {c: [crit.get(("convert", p, c)) for p in POSITIONS] for c in CONVERSIONS}
    conv_instr = {c: [instr.get(("convert", p, "convert_" + c)) for p in POSITIONS] for c in CONVERSIONS}
    if any(all(v) for v in conv_crit.values()) or any(all(v) for v in conv_instr.values()):
        print("| conversion | ns per call (mean of six) | instructions per call (mean of six) |")
        print("|---|---:|---:|")
        for c in CONVERSIONS:
            ns = conv_crit[c]
            ins = conv_instr[c]
            ns_text = f"{sum(r[2] for r in ns) / len(ns):.1f}" if all(ns) else "-"
            ins_text = f"{sum(ins) / len(ins):,.0f}" if all(ins) else "-"
            print(f"| {c} | {ns_text} | {ins_text} |")
        print()


HEADER = re.compile(r"^instructions::(\w+)::(\w+) (\w+):")
INSTR = re.compile(r"^\s+Instructions:\s+(\d+)\|")


def attacks_table(data, fmt, unit):
    """Rows: the attack workloads; columns: the six positions and their mean."""
    rows = [(w, [data.get(("attacks", p, w)) for p in POSITIONS]) for w in ATTACKS]
    if position_table(ATTACKS, rows, fmt, unit):
        print()


def fmt_ns(ns):
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def criterion_attacks(data):
    ns = {k: v[2] for k, v in data.items() if k[0] == "attacks"}
    if ns:
        print("### Attack tables, wall clock (ns per call, criterion medians)\n")
        attacks_table(ns, fmt_ns, "ns/call")


def iai_attacks(data):
    if any(k[0] == "attacks" for k in data):
        print("### Attack tables (instructions per call)\n")
        attacks_table(data, lambda n: f"{n:,.0f}", "instructions/call")


def engine_of(func):
    """The engine a benchmark function belongs to, by its name's prefix."""
    return next((e for e in ENGINES if func.startswith(e.replace("-", "_"))), None)


def iai(log):
    """{(group, position, engine): instructions} for the engine comparisons, and
    {("attacks" or "keys", position, function): instructions} for the attack and key
    workloads."""
    out = {}
    current = None
    for line in pathlib.Path(log).read_text().splitlines():
        m = HEADER.match(line)
        if m:
            group, func, position = m.groups()
            # The benches' ids `six_N` and `two_N` are indices into the standard positions.
            index = re.fullmatch(r"(?:six|two)_(\d)", position)
            if index:
                position = POSITIONS[int(index.group(1))]
            per_function = group in ("attacks", "keys", "repr_movegen", "repr_captures", "repr_perft", "convert")
            current = (group, position, func if per_function else engine_of(func))
            continue
        m = INSTR.match(line)
        if m and current is not None:
            out[current] = int(m.group(1))
            current = None  # later Instructions lines are comparisons
    return out


# The engines of benches/instructions.rs (the `chess` oracle is counted by bench-arch.sh).
IAI_ENGINES = ["ccr", "shakmaty", "cozy-chess"]


def iai_tables(data):
    for group, title in [
        ("movegen", "One legal move generation"),
        ("perft_make", "Perft depth 3, every leaf move made"),
    ]:
        positions = [
            p for p in POSITIONS if all((group, p, e) in data for e in IAI_ENGINES)
        ]
        if not positions:
            continue
        print(f"### {title} (instructions)\n")
        print("| position | ccr | shakmaty | cozy-chess | ccr / shakmaty | ccr / cozy-chess |")
        print("|---|---:|---:|---:|---:|---:|")
        total = {e: 0 for e in IAI_ENGINES}
        for p in positions:
            n = {e: data[(group, p, e)] for e in IAI_ENGINES}
            for e in IAI_ENGINES:
                total[e] += n[e]
            cells = " | ".join(f"{n[e]:,}" for e in IAI_ENGINES)
            print(
                f"| {p} | {cells} | {n['ccr'] / n['shakmaty']:.2f} | {n['ccr'] / n['cozy-chess']:.2f} |"
            )
        cells = " | ".join(f"**{total[e]:,}**" for e in IAI_ENGINES)
        print(
            f"| **total** | {cells} | **{total['ccr'] / total['shakmaty']:.2f}** "
            f"| **{total['ccr'] / total['cozy-chess']:.2f}** |"
        )
        print()


# The 32-bit/64-bit table (scripts/bench-arch.sh): architectures, the crates, and the paper's
# figure (a bitboard engine, thousand nodes per second, 64-bit vs 32-bit) to set beside ours.
ARCHS = ["x86_64", "i686"]
CRATES = ["shakmaty", "cozy-chess", "chess"]
CRATE_VERSIONS = {"ccr": "ccr", "shakmaty": "shakmaty 0.27.3", "cozy-chess": "cozy-chess 0.3.4", "chess": "chess 3.2.0"}
PAPER = (166, 104)
LOSS_TARGET = 0.15


def tsv(path):
    return [line.split("\t") for line in path.read_text().splitlines() if line] if path.exists() else []


def arch_rates(out):
    """{(arch, repr, impl): median over the runs of M nodes/s over the six positions}, and
    the 1-minute load averages the runs saw."""
    per_run, loads = {}, []
    for arch, repr_, impl, _pos, _d, nodes, secs, run, load in tsv(out / "perft.tsv"):
        total = per_run.setdefault((arch, repr_, impl, run), [0, 0.0])
        total[0] += int(nodes)
        total[1] += float(secs)
        loads.append(float(load.split()[0]))
    rates = {}
    for (arch, repr_, impl, _run), (nodes, secs) in per_run.items():
        rates.setdefault((arch, repr_, impl), []).append(nodes / secs / 1e6)
    return {k: (statistics.median(v), len(v), min(v), max(v)) for k, v in rates.items()}, loads


def arch_instructions(out):
    """{(arch, repr or "crate:NAME", impl or kind): (instructions per node, depth)}"""
    sums = {}
    for arch, repr_, impl, _pos, depth, nodes, instr in tsv(out / "instructions.tsv"):
        total = sums.setdefault((arch, repr_, impl), [0, 0, depth])
        total[0] += int(instr)
        total[1] += int(nodes)
    return {k: (i / n, d) for k, (i, n, d) in sums.items()}


def arch_criterion(out):
    """{(arch, kind, engine): M nodes/s over the six positions}, each position's time the
    median over the rounds (criterion-ARCH-ROUND) of criterion's medians; and the rounds."""
    rates, rounds = {}, 0
    for arch in ARCHS:
        runs = [criterion(root) for root in sorted(out.glob(f"criterion-{arch}-*")) if root.is_dir()]
        rounds = max(rounds, len(runs))
        for kind in ("perft_make", "perft_bulk"):
            for engine in ENGINES:
                rows = []
                for p in POSITIONS:
                    found = [run[(kind, p, engine)] for run in runs if (kind, p, engine) in run]
                    if found:
                        rows.append((found[0][1], statistics.median(r[2] for r in found)))
                if len(rows) == len(POSITIONS):
                    rates[(arch, kind, engine)] = (
                        sum(r[0] for r in rows) / sum(r[1] for r in rows) * 1e3
                    )
    return rates, rounds


def arch_table(out):
    """The one table: every representation x implementation of `ccr perft` and the crates,
    M nodes/s on each architecture, their ratio, instructions per node on each."""
    out = pathlib.Path(out)
    rates, loads = arch_rates(out)
    instr = arch_instructions(out)
    crit, rounds = arch_criterion(out)
    crit_loads = [float(row[4].split()[0]) for row in tsv(out / "criterion-load.tsv")]
    combos = tsv(out / "combos.tsv")
    machine = (out / "machine.txt").read_text() if (out / "machine.txt").exists() else ""

    def ratio(a, b):
        return f"{a / b:.2f}x" if a and b else "-"

    def loss(x64, x32):
        return f"{(1 - x32 / x64) * 100:.0f} %" if x64 and x32 else "-"

    def ipn(key):
        v = instr.get(key)
        return f"{v[0]:,.0f}" if v else "-"

    if machine:
        print("```")
        print(machine.rstrip())
        if loads:
            print(
                f"load (1-min) during the ccr runs: median {statistics.median(loads):.2f}, "
                f"min {min(loads):.2f}, max {max(loads):.2f}"
            )
        if crit_loads:
            print(
                f"load (1-min) during the criterion runs: median {statistics.median(crit_loads):.2f}, "
                f"min {min(crit_loads):.2f}, max {max(crit_loads):.2f}"
            )
        print("```\n")
    depth = next(iter(instr.values()))[1] if instr else "?"
    print(
        "| what (every leaf made unless marked bulk) | x86_64 M nodes/s | i686 M nodes/s "
        "| 64/32 | i686 loss | x86_64 instr./node | i686 instr./node | 32/64 instr. |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    seen = []
    for _arch, repr_, impl, *_ in combos:
        if (repr_, impl) not in seen:
            seen.append((repr_, impl))
    available = {(a, r, i): ok == "ok" for a, r, i, ok, *_ in combos}
    # An implementation a binary announces but does not have yet ("not built yet"), as against
    # one that does not apply to the representation.
    unbuilt = {(a, r, i) for a, r, i, ok, msg, *_ in combos if ok != "ok" and "not built yet" in msg}

    def rate(key):
        if key in unbuilt:
            return "not built"
        v = rates.get(key)
        return f"{v[0]:.1f}" if v else "-"

    pending = []
    for repr_, impl in seen:
        if not any(available.get((a, repr_, impl)) for a in ARCHS):
            if any((a, repr_, impl) in unbuilt for a in ARCHS) and repr_ not in pending:
                pending.append(repr_)
            continue
        keys = [(a, repr_, impl) for a in ARCHS]
        x64, x32 = (rates.get(k, (None,))[0] for k in keys)
        i64, i32 = (instr.get(k, (None,))[0] for k in keys)
        print(
            f"| `ccr perft --repr {repr_} --impl {impl}` | {rate(keys[0])} "
            f"| {rate(keys[1])} | {ratio(x64, x32)} | {loss(x64, x32)} "
            f"| {ipn(keys[0])} | {ipn(keys[1])} | {ratio(i32, i64)} |"
        )
    if pending:
        impls = sorted({i for _a, r, i in unbuilt if r in pending})
        print(
            f"| `ccr perft --impl {'/'.join(impls)}` ({', '.join(pending)}) | pending: not built into "
            "the binaries of this run; `make bench-arch` fills this slot once they are | | | | | | |"
        )
    for kind, label in (("perft_make", ""), ("perft_bulk", ", bulk")):
        for engine in ["ccr"] + CRATES:
            x64, x32 = (crit.get((a, kind, engine)) for a in ARCHS)
            if not (x64 or x32):
                continue
            name = CRATE_VERSIONS[engine] + (" (criterion, benches/movegen.rs)" if engine == "ccr" else "")
            keys = [(a, f"crate:{engine}", kind) for a in ARCHS]
            i64, i32 = (instr.get(k, (None,))[0] for k in keys)
            print(
                f"| {name}{label} | {x64 or 0:.1f} | {x32 or 0:.1f} | {ratio(x64, x32)} | {loss(x64, x32)} "
                f"| {ipn(keys[0])} | {ipn(keys[1])} | {ratio(i32, i64)} |"
            )
    print(
        f"| the paper: a bitboard engine, 64-bit vs 32-bit (thousand nodes/s) | {PAPER[0] / 1e3:.3f} "
        f"| {PAPER[1] / 1e3:.3f} | {ratio(*PAPER)} | {loss(*PAPER)} | - | - | - |"
    )
    print()
    print(
        f"M nodes/s: `ccr perft` rows, the median over the runs of the six positions' nodes over their "
        f"summed time (the binary's own clock); criterion rows (the crates, and ccr in the same "
        f"harness), each position's median over {rounds} rounds of criterion's median, summed "
        f"over the six. "
        f"Instructions per node: callgrind at depth {depth} over the six positions, start-up "
        f"subtracted. i686 loss = 1 - i686 / x86_64 speed."
    )
    print()
    # The verdict: the C.C.R. (`--repr ccr`, its fastest implementation on i686) against the
    # target, by each measure: `ccr perft`'s own timing, criterion (the harness the crates are
    # timed in, the same minutes), and instructions.
    best = max(
        ((rates[("i686", r, i)][0], i) for r, i in seen if r == "ccr" and ("i686", r, i) in rates),
        default=None,
    )
    if best is None:
        return
    x32, impl = best
    x64 = rates[("x86_64", "ccr", impl)][0]

    def verdict(lost):
        points = round((lost - LOSS_TARGET) * 100)
        return "met" if lost < LOSS_TARGET else f"missed by {points} point{'s' * (points != 1)}"

    print(f"**Target, the C.C.R. (`--repr ccr --impl {impl}`), every leaf made:**\n")
    lost = 1 - x32 / x64
    line = (f"- loses under 15 % on i686? `ccr perft`: it loses {lost * 100:.0f} % "
            f"({x64:.1f} -> {x32:.1f} M nodes/s): **{verdict(lost)}**")
    c64, c32 = (crit.get((a, "perft_make", "ccr")) for a in ARCHS)
    if c64 and c32:
        line += f"; criterion: {(1 - c32 / c64) * 100:.0f} % ({verdict(1 - c32 / c64)})"
    n64, n32 = (instr.get((a, "ccr", impl), (None,))[0] for a in ARCHS)
    if n64 and n32:
        line += (f"; instructions: {n32 / n64:.2f}x as many on i686, {(1 - n64 / n32) * 100:.0f} % "
                 f"slower at equal instructions per cycle ({verdict(1 - n64 / n32)})")
    print(line + ".")
    for kind, what in (("perft_make", "every leaf made"), ("perft_bulk", "bulk counting")):
        mine = crit.get(("i686", kind, "ccr"))
        crates32 = {e: crit.get(("i686", kind, e)) for e in CRATES if crit.get(("i686", kind, e))}
        if not (mine and crates32):
            continue
        v, e = max((v, e) for e, v in crates32.items())
        others = ", ".join(f"{c} {r:.1f}" for c, r in crates32.items())
        ours = instr.get(("i686", "crate:ccr", kind), (None,))[0]
        fewest = min((instr[("i686", f"crate:{c}", kind)][0], c) for c in crates32
                     if ("i686", f"crate:{c}", kind) in instr)
        status = "**met**" if mine > v else "**missed**"
        print(f"- beats every crate on i686, {what} (criterion): {status}: ccr {mine:.1f} M nodes/s "
              f"against {others}; {mine / v:.2f}x the fastest ({e})"
              + (f"; it would need {v / mine:.2f}x" if mine <= v else "")
              + (f". Instructions per node: ccr {ours:,.0f}, the fewest among the crates "
                 f"{fewest[0]:,.0f} ({fewest[1]})" if ours and fewest else "") + ".")
    print()

def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--arch":
        arch_table(sys.argv[2])
        return
    root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
    crit, instr = {}, {}
    if root.is_dir():
        crit = criterion(root)
        criterion_tables({k: v for k, v in crit.items() if k[0] in KINDS})
        criterion_attacks(crit)
        criterion_keys(crit)
    if len(sys.argv) > 1:
        instr = iai(sys.argv[1])
        iai_tables(instr)
        iai_attacks(instr)
        iai_keys(instr)
    representations_table(crit, instr)


if __name__ == "__main__":
    main()

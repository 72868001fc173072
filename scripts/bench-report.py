#!/usr/bin/env python3
"""Markdown tables for docs/BENCHMARKS.md from the last benchmark runs.

Usage: python3 scripts/bench-report.py [IAI_LOG]

Reads criterion's medians from target/criterion/*/*/*/new/ (written by
`cargo bench --bench movegen`, `cargo bench --bench attacks` and `cargo bench --bench keys`)
and, if IAI_LOG is given, the instruction counts from the saved output of
`cargo bench --bench instructions`.
"""

import json
import pathlib
import re
import sys

ENGINES = ["ccr", "shakmaty", "cozy-chess"]
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


def keys_table(per_key, fmt, unit):
    """Rows: the key workloads, then each key's cost over `make`; columns: the six positions
    and their mean. `per_key` is {(workload, position): cost per key}."""
    rows = [(w, [per_key.get((w, p)) for p in POSITIONS]) for w in KEYS]
    rows = [(w, r) for w, r in rows if all(v is not None for v in r)]
    if not rows:
        return
    print(f"| workload ({unit}) | " + " | ".join(POSITIONS) + " | mean |")
    print("|---|" + "---:|" * (len(POSITIONS) + 1))
    for w, r in rows:
        cells = " | ".join(fmt(v) for v in r)
        print(f"| {KEYS[w]} | {cells} | **{fmt(sum(r) / len(r))}** |")
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
        rows = [(p, {e: data.get((kind, p, e)) for e in ENGINES}) for p in POSITIONS]
        if not any(all(v for v in r.values()) for _, r in rows):
            continue
        unit = "M moves/s" if kind == "movegen" else "M nodes/s"
        print(f"### {title}\n")
        print(
            f"| position | depth | elements | ccr {unit} | shakmaty {unit} | cozy-chess {unit} "
            "| ccr / shakmaty | ccr / fastest |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        totals = {e: [0, 0.0] for e in ENGINES}
        for position, r in rows:
            if not all(r.values()):
                continue
            param, elements, _ = r["ccr"]
            rate = {e: r[e][1] / r[e][2] * 1e3 for e in ENGINES}  # M elements / s
            for e in ENGINES:
                totals[e][0] += r[e][1]
                totals[e][1] += r[e][2]
            cells = " | ".join(f"{rate[e]:.1f} ({fmt_time(r[e][2])})" for e in ENGINES)
            print(
                f"| {position} | {param or '-'} | {elements:,} | {cells} "
                f"| {rate['ccr'] / rate['shakmaty']:.2f} | {rate['ccr'] / max(rate.values()):.2f} |"
            )
        rate = {e: totals[e][0] / totals[e][1] * 1e3 for e in ENGINES}
        cells = " | ".join(f"**{rate[e]:.1f}** ({fmt_time(totals[e][1])})" for e in ENGINES)
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
    ("bitboard", "bitboard", "hybrid: C.C.R. + SIMD conversion + bitboard generator"),
    ("bitboard-portable", "bitboard_portable", "hybrid with the paper's portable conversion loop"),
    ("bitboard-native", "bitboard_native", "native bitboards (made move by move)"),
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
    rows = [(w, r) for w, r in rows if all(v is not None for v in r)]
    if not rows:
        return
    print(f"| workload ({unit}) | " + " | ".join(POSITIONS) + " | mean |")
    print("|---|" + "---:|" * (len(POSITIONS) + 1))
    for w, r in rows:
        cells = " | ".join(fmt(v) for v in r)
        print(f"| {ATTACKS[w]} | {cells} | **{fmt(sum(r) / len(r))}** |")
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
            per_function = group in ("attacks", "keys", "repr_movegen", "repr_captures", "repr_perft", "convert")
            current = (group, position, func if per_function else engine_of(func))
            continue
        m = INSTR.match(line)
        if m and current is not None:
            out[current] = int(m.group(1))
            current = None  # later Instructions lines are comparisons
    return out


def iai_tables(data):
    for group, title in [
        ("movegen", "One legal move generation"),
        ("perft_make", "Perft depth 3, every leaf move made"),
    ]:
        positions = [p for p in POSITIONS if (group, p, "ccr") in data]
        if not positions:
            continue
        print(f"### {title} (instructions)\n")
        print("| position | ccr | shakmaty | cozy-chess | ccr / shakmaty | ccr / cozy-chess |")
        print("|---|---:|---:|---:|---:|---:|")
        total = {e: 0 for e in ENGINES}
        for p in positions:
            n = {e: data[(group, p, e)] for e in ENGINES}
            for e in ENGINES:
                total[e] += n[e]
            cells = " | ".join(f"{n[e]:,}" for e in ENGINES)
            print(
                f"| {p} | {cells} | {n['ccr'] / n['shakmaty']:.2f} | {n['ccr'] / n['cozy-chess']:.2f} |"
            )
        cells = " | ".join(f"**{total[e]:,}**" for e in ENGINES)
        print(
            f"| **total** | {cells} | **{total['ccr'] / total['shakmaty']:.2f}** "
            f"| **{total['ccr'] / total['cozy-chess']:.2f}** |"
        )
        print()


def main():
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

#!/usr/bin/env python3
"""Markdown tables for docs/BENCHMARKS.md from the last benchmark runs.

Usage: python3 scripts/bench-report.py [IAI_LOG]

Reads criterion's medians from target/criterion/*/*/*/new/ (written by
`cargo bench --bench movegen`) and, if IAI_LOG is given, the instruction counts from the
saved output of `cargo bench --bench instructions`.
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


def criterion(root):
    """{(kind, position, engine): (param, elements, median_ns)}"""
    out = {}
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        kind, position = meta["group_id"].split("/")
        elements = meta["throughput"]["Elements"]
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


HEADER = re.compile(r"^instructions::(\w+)::(\w+) (\w+):")
INSTR = re.compile(r"^\s+Instructions:\s+(\d+)\|")


def iai(log):
    """{(group, position, engine): instructions}"""
    out = {}
    current = None
    for line in pathlib.Path(log).read_text().splitlines():
        m = HEADER.match(line)
        if m:
            group, func, position = m.groups()
            engine = next(e for e in ENGINES if func.startswith(e.replace("-", "_")))
            current = (group, position, engine)
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
    if root.is_dir():
        criterion_tables(criterion(root))
    if len(sys.argv) > 1:
        iai_tables(iai(sys.argv[1]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where a `ccr perft` spends its instructions, per function and per kind of instruction.

Usage: scripts/arch-profile.py [--depth D] [--out DIR] LABEL=BINARY[:ARGS] ...

For each labelled binary (`ARGS`: extra `ccr perft` arguments separated by commas, e.g.
`x86_64=target/release/ccr:--impl,asm`) runs `ccr perft D` and `ccr perft 1` on the six
positions of tests/data/standard-perft.epd under `valgrind --tool=callgrind
--dump-instr=yes` (the callgrind files go to DIR, default target/arch-profile/LABEL) and
prints three markdown tables, every figure in instructions per leaf (depth D minus depth 1,
so start-up, parsing and the first use of lazy tables are not counted):

1. the totals;
2. each function's own instructions (callgrind's "self" cost; what LTO inlined into a
   function counts as that function's);
3. the instructions of the binary's own code (not the C library's) by kind, from each
   executed address's disassembly (objdump, Intel syntax): stack-relative loads and stores (spills, reloads, arguments, locals), push/pop,
   stack-pointer adjustments, the position-independent code's base register set-up on i686
   (`call` to the next instruction, `pop`, `add` of the GOT offset), 64-bit arithmetic in
   two halves (adc, sbb, shld, shrd), and the rest.

valgrind 3.19's amd64 build carries the x86 tools and runs i686 binaries as they are.
"""

import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPD = os.path.join(ROOT, "tests", "data", "standard-perft.epd")


def positions():
    for line in open(EPD):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen = line.split(";")[0].strip()
        counts = {int(d): int(n) for d, n in re.findall(r";D(\d+) (\d+)", line)}
        yield line.split(";id ")[1].strip(), fen, counts


def callgrind(binary, args, depth, fen, out):
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}",
         binary, "perft", str(depth), "--fen", fen, *args],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def parse(path, binary):
    """Self cost per function (every object: the C library's allocator too) and per
    instruction address of `binary`'s own code."""
    names = {"fn": {}, "ob": {}}
    fn = ob = None
    per_fn, per_addr = collections.Counter(), collections.Counter()
    last, skip = 0, False
    own = os.path.basename(binary)
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        if line[0].isdigit() or line[0] in "+-*":
            parts = line.split()
            a = parts[0]
            if a.startswith("0x"):
                last = int(a, 16)
            elif a[0] in "+-":
                last += int(a)
            elif a != "*":
                last = int(a)
            if skip:  # the inclusive cost of a call, not this line's own
                skip = False
                continue
            cost = int(parts[2]) if len(parts) > 2 else 0
            per_fn[fn] += cost
            if ob and os.path.basename(ob) == own:
                per_addr[last] += cost
            continue
        m = re.match(r"^(c?fn|c?ob|calls)=(.*)$", line)
        if not m:
            continue
        key, val = m.groups()
        if key == "calls":
            skip = True
            continue
        kind = key.lstrip("c")
        mm = re.match(r"^\((\d+)\)(?: (.*))?$", val)
        if mm:
            if mm.group(2) is not None:
                names[kind][mm.group(1)] = mm.group(2)
            val = names[kind][mm.group(1)]
        if key == "fn":
            fn = val
        elif key == "ob":
            ob = val
    return per_fn, per_addr


def short(name):
    name = name.replace("<ccr::asm::AsmPosition as ccr::repr::Representation>::make",
                        "make (AsmPosition::make, folded)")
    name = re.sub(r"<impl ccr::ccr::board::Position>::", "", name)
    return name.replace("ccr::ccr::", "").replace("ccr::", "")


def kinds(binary, per_addr):
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", binary],
                         check=True, capture_output=True, text=True).stdout
    insns, order = {}, []
    for line in dis.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s*(\S+)\s*(.*)$", line)
        if m:
            a = int(m.group(1), 16)
            insns[a] = (m.group(2), m.group(3))
            order.append(a)
    pic = set()
    for i, a in enumerate(order[:-1]):
        op, args = insns[a]
        target = re.match(r"^([0-9a-f]+)\b", args)
        if op == "call" and target and int(target.group(1), 16) == order[i + 1]:
            pic.update((a, order[i + 1]))
            for b in order[i + 1:i + 4]:
                if insns[b][0] == "add" and "0x" in insns[b][1]:
                    pic.add(b)
                    break
    by_kind = collections.Counter()
    for a, cost in per_addr.items():
        op, args = insns.get(a, ("?", ""))
        if a in pic:
            k = "PIC base set-up (call, pop, add)"
        elif op in ("push", "pop"):
            k = "push / pop"
        elif op in ("call", "ret"):
            k = "call / ret"
        elif op in ("adc", "sbb", "shld", "shrd"):
            k = "64-bit in halves (adc, sbb, shld, shrd)"
        elif op in ("add", "sub") and re.match(r"^[er]sp,", args):
            k = "stack pointer adjustment"
        elif re.search(r"\[[er]sp", args):
            k = ("stack loads/stores, SSE (copies)" if "xmm" in args
                 else "stack loads/stores, general registers (spills, arguments, locals)")
        elif re.search(r"\[", args):
            k = "other memory operands"
        else:
            k = "register-only (ALU, branches, SSE)"
        by_kind[k] += cost
    return by_kind


def breakdown(head, rule, title, counters, runs, label, cutoff):
    """Prints one table of instructions per leaf: a row per key of `counters` (one Counter per
    run), heaviest over all runs first, stopping below `cutoff` per leaf per run (0: all)."""
    print("\n" + head.replace("| |", f"| {title} |", 1) + "\n" + rule)
    weight = collections.Counter()
    for counter in counters:
        for k, v in counter.items():
            weight[k] += abs(v)
    leaves = [n for _, n, _, _ in runs]
    for name, w in weight.most_common():
        if cutoff and w / leaves[0] < cutoff * len(runs):
            break
        cells = " | ".join(f"{c[name] / n:.1f}" for c, n in zip(counters, leaves))
        print(f"| {label(name)} | {cells} |")


def main():
    argv = sys.argv[1:]
    depth, out = 3, os.path.join(ROOT, "target", "arch-profile")
    while argv and argv[0].startswith("--"):
        flag, value, argv = argv[0], argv[1], argv[2:]
        if flag == "--depth":
            depth = int(value)
        elif flag == "--out":
            out = value
        else:
            sys.exit(f"unknown option {flag}")
    if not argv:
        sys.exit(__doc__)
    runs = []
    for spec in argv:
        label, _, rest = spec.partition("=")
        binary, _, args = rest.partition(":")
        args = [a for a in args.split(",") if a]
        leaves, fns, addrs = 0, collections.Counter(), collections.Counter()
        os.makedirs(os.path.join(out, label), exist_ok=True)
        for pid, fen, counts in positions():
            leaves += counts[depth] - counts[1]
            for d, sign in ((depth, 1), (1, -1)):
                path = os.path.join(out, label, f"{pid}.d{d}.callgrind")
                callgrind(binary, args, d, fen, path)
                per_fn, per_addr = parse(path, binary)
                for k, v in per_fn.items():
                    fns[short(k)] += sign * v
                for k, v in per_addr.items():
                    addrs[k] += sign * v
        runs.append((label, leaves, fns, kinds(binary, addrs)))
    head = "| | " + " | ".join(label for label, *_ in runs) + " |"
    rule = "|---|" + "---:|" * len(runs)
    print(f"Instructions per leaf, `ccr perft {depth}` minus `ccr perft 1`, six positions "
          f"({runs[0][1]:,} leaves).\n")
    print(head + "\n" + rule)
    print("| total | " + " | ".join(f"{sum(f.values()) / n:.1f}" for _, n, f, _ in runs) + " |")
    functions = [f for _, _, f, _ in runs]
    breakdown(head, rule, "function", functions, runs, lambda name: f"`{name}`", 0.05)
    breakdown(head, rule, "kind", [k for _, _, _, k in runs], runs, lambda name: name, 0)


if __name__ == "__main__":
    main()

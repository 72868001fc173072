"""What scripts/arch-pairs.py and scripts/engine-arch-pairs.py share: their options, the
order of a round's runs, the load line and the TSV they write."""

import datetime
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def options(argv, usage, switches=()):
    """Takes the leading options off argv: --rounds N, --depth N, --out FILE and the bare
    --SWITCHes named; returns them by name (None or False where not given)."""
    found = {"rounds": None, "depth": None, "out": None} | {s: False for s in switches}
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        name = flag[2:]
        if name in switches:
            found[name] = True
        elif name in ("rounds", "depth", "out") and argv:
            value = argv.pop(0)
            if name != "out" and not value.isdigit():
                sys.exit(f"error: {flag} takes a number, not {value!r}")
            found[name] = value if name == "out" else int(value)
        else:
            sys.exit(f"error: unknown option {flag}\n{usage}")
    return found


def order(runs, r):
    """Round r's order of the runs: rotated by r, and reversed on odd rounds, so that a change
    of the machine's load falls on all of them alike."""
    turned = runs[r % len(runs):] + runs[:r % len(runs)]
    return turned[::-1] if r % 2 else turned


def load_line(loads):
    """The closing line on the 1-minute load averages of the rounds."""
    return f"load (1 min): median {statistics.median(loads):.2f}, {min(loads):.2f}-{max(loads):.2f}"


def machine_header():
    """Comment lines naming the machine, the commit and the date."""
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return [f"# machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
            f"# commit: {commit}", f"# date: {now}"]


def write_tsv(path, comments, columns, rows):
    """The comment lines, then a header of the columns and a line a row (floats to 6 places)."""
    with open(path, "w") as f:
        f.write("\n".join(comments) + "\n")
        f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(f"{v:.6f}" if isinstance(v, float) else str(v) for v in row) + "\n")

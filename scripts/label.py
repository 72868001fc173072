#!/usr/bin/env python3
"""Labels training positions with a blend of the game's result and a deeper evaluation.

    python3 scripts/label.py --in target/tune/selfplay.txt --out target/tune/labelled.txt \\
        --nodes 20000 --lambda 0.5 --jobs 2

Reads `FEN;RESULT` lines (`ccr datagen`: RESULT 1.0, 0.5 or 0.0 for White), evaluates each
position with Debian's Stockfish 15.1 (one thread, `go nodes N` or `go depth D`), turns the
score into White's expected score by Stockfish 15.1's own win-draw-loss model at the
position's move number (python-chess `wdl(model="sf15.1")`), and writes
`FEN;LABEL` with LABEL = lambda * RESULT + (1 - lambda) * expected score, which `ccr tune`
reads. The output keeps the input's order. A run that stops resumes: the lines already in
--out are kept (their FENs must be the input's first ones) and labelling goes on after them.
Progress (positions, rate, time left) goes to stderr.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import queue
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    sys.stderr.write("error: python-chess missing; run scripts/setup-uci.sh (make setup-uci)\n")
    sys.exit(2)

STOCKFISH = "/usr/games/stockfish"
# Positions per batch: one engine labels a batch, batches are written in input order.
BATCH = 256


class LabelError(Exception):
    """Bad input: one `error:` line, exit status 2."""


def parse_line(line: str, number: int) -> tuple[str, float]:
    """A `FEN;RESULT` line: the FEN and White's result (0 to 1)."""
    fen, sep, result = line.rpartition(";")
    try:
        value = float(result)
    except ValueError:
        value = -1.0
    if not sep or not 0.0 <= value <= 1.0:
        raise LabelError(f"line {number}: not FEN;RESULT with RESULT from 0 to 1: {line[:80]!r}")
    return fen.strip(), value


def expected_score(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit) -> float:
    """White's expected score by Stockfish's evaluation and its win-draw-loss model."""
    info = engine.analyse(board, limit)
    return info["score"].white().wdl(model="sf15.1", ply=board.ply()).expectation()


def label_batch(lines, args, idle):
    """The labelled lines of one batch, by an engine taken from the queue `idle` (and put back)."""
    engine = idle.get()
    try:
        return label_lines(lines, args, engine)
    finally:
        idle.put(engine)


def label_lines(lines, args, engine):
    limit = chess.engine.Limit(nodes=args.nodes) if args.nodes else chess.engine.Limit(depth=args.depth)
    out = []
    for number, line in lines:
        fen, result = parse_line(line, number)
        try:
            board = chess.Board(fen)
        except ValueError as err:
            raise LabelError(f"line {number}: {err}") from None
        if not board.is_valid():
            raise LabelError(f"line {number}: not a legal position ({board.status()!r}): {fen}")
        engine.configure({"Clear Hash": None})
        score = expected_score(engine, board, limit)
        out.append(f"{fen};{args.blend * result + (1 - args.blend) * score:.4f}\n")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--in", dest="inp", required=True, help="FEN;RESULT lines (ccr datagen)")
    ap.add_argument("--out", required=True, help="FEN;LABEL lines (for ccr tune); resumed if it exists")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--nodes", type=int, help="Stockfish nodes per position (default 20000)")
    group.add_argument("--depth", type=int, help="Stockfish depth per position instead of nodes")
    ap.add_argument("--lambda", dest="blend", type=float, default=0.5,
                    help="weight of the game's result in the label, 0 to 1 (default 0.5)")
    ap.add_argument("--jobs", type=int, default=1, help="Stockfish processes at once (default 1)")
    ap.add_argument("--engine", default=STOCKFISH, help=f"the UCI engine (default {STOCKFISH})")
    args = ap.parse_args()
    if args.nodes is None and args.depth is None:
        args.nodes = 20000
    if (args.nodes is not None and args.nodes < 1) or (args.depth is not None and args.depth < 1):
        ap.error("--nodes and --depth must be at least 1")
    if not 0.0 <= args.blend <= 1.0:
        ap.error("--lambda must be from 0 to 1")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not os.path.exists(args.engine):
        ap.error(f"{args.engine} not found (make setup-uci)")
    if os.path.abspath(args.inp) == os.path.abspath(args.out):
        ap.error("--out is the --in file")
    try:
        lines = [(i + 1, line.strip()) for i, line in enumerate(open(args.inp)) if line.strip()]
    except OSError as err:
        ap.error(f"--in {args.inp}: {err.strerror}")

    done = 0
    if os.path.exists(args.out):
        with open(args.out) as f:
            kept = [line for line in f if line.endswith("\n")]
        done = len(kept)
        if done > len(lines) or (done and kept[-1].rpartition(";")[0] != lines[done - 1][1].rpartition(";")[0].strip()):
            ap.error(f"--out {args.out} does not continue --in {args.inp} (remove it to start again)")
        with open(args.out, "w") as f:  # drops a cut-off last line
            f.writelines(kept)
    todo = lines[done:]
    print(f"label: {len(lines):,} positions, {done:,} labelled before; Stockfish "
          f"{'nodes ' + str(args.nodes) if args.nodes else 'depth ' + str(args.depth)}, lambda {args.blend}, "
          f"{args.jobs} job(s)", file=sys.stderr, flush=True)

    engines = []
    try:
        for _ in range(args.jobs):
            # Stockfish loads its network at start: allow for a loaded machine.
            engine = chess.engine.SimpleEngine.popen_uci(
                args.engine, stderr=open(os.devnull, "w"), timeout=120)
            engine.configure({"Threads": 1, "Hash": 16})
            engines.append(engine)
        batches = [todo[i:i + BATCH] for i in range(0, len(todo), BATCH)]
        started, last = time.monotonic(), 0.0
        written = 0
        with open(args.out, "a") as out, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            # Each batch takes an idle engine; results are written in order.
            idle = queue.Queue()
            for engine in engines:
                idle.put(engine)
            pending = [pool.submit(label_batch, batch, args, idle) for batch in batches]
            for future in pending:
                out.writelines(future.result())
                out.flush()
                written += BATCH
                now = time.monotonic()
                if now - last >= 10 or future is pending[-1]:
                    last = now
                    count = min(written, len(todo))
                    rate = count / max(now - started, 1e-9)
                    left = (len(todo) - count) / rate if rate else 0
                    print(f"label: {done + count:,}/{len(lines):,} ({rate:,.0f}/s, {now - started:.0f} s, "
                          f"eta {left:.0f} s)", file=sys.stderr, flush=True)
    finally:
        for engine in engines:
            engine.quit()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except LabelError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)

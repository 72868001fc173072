#!/usr/bin/env python3
"""Fits the win/draw/loss model behind `UCI_ShowWDL` to ccr's own games.

Usage: scripts/wdl.py [--out docs/data/wdl.tsv] PGN...   (.pgn or .pgn.xz)

Every move ccr made in those games with a score in its comment (`{ +0.33/11 0.427s }`, the
engine's own score in pawns, from its side; mate scores are left out) is a sample: the score
x in centipawns, the move number, and how the game ended for the side that moved. The model
is Stockfish's win-rate model: with m the move number, clamped to [8, 120] and divided by 32,

    a(m) = ((a0 m + a1) m + a2) m + a3,   b(m) = ((b0 m + b1) m + b2) m + b3,
    win  = 1 / (1 + exp((a - x) / b)),    loss = 1 / (1 + exp((a + x) / b)),
    draw = 1 - win - loss,

so that a is the score that wins half the games at that move and b how fast the chance
rises around it. As Stockfish fits it: the a and b of the highest likelihood for each group of
four move numbers, then the cubics fitted to those by least squares (numpy). The output TSV holds the parameters, the fit's size and
log-likelihood, and per move-number group and score bin the games' shares against the
model's, which `make report` plots; src/search/wdl.rs carries the same parameters, and a
test holds the two equal.
"""

from __future__ import annotations

import argparse
import lzma
import os
import re
import sys

import numpy as np

ENGINE = "ccr"
MOVE_CLAMP = (8, 120)
MOVE_SCALE = 32.0
SCORE_LIMIT = 2000  # centipawns: beyond this a score says little about how likely a draw is
SCORE = re.compile(r"^\{\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")
TOKEN = re.compile(r"\{[^}]*\}|\d+\.(?:\.\.)?|[^\s{}]+")
RESULTS = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}


def games(paths):
    """(headers, movetext) of every game in the PGN files."""
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            headers, moves = {}, []
            for line in f:
                if line.startswith("["):
                    if moves:
                        yield headers, " ".join(moves)
                        headers, moves = {}, []
                    m = re.match(r'\[(\w+) "(.*)"\]', line)
                    if m:
                        headers[m.group(1)] = m.group(2)
                elif line.strip():
                    moves.append(line.strip())
            if moves:
                yield headers, " ".join(moves)


def samples(paths):
    """Arrays of scores (centipawns), move numbers and outcomes (+1 win, 0 draw, -1 loss) for
    the side that moved, over every scored move of ccr's."""
    xs, ms, ys = [], [], []
    for headers, text in games(paths):
        result = RESULTS.get(headers.get("Result"))
        if result is None:
            continue
        fen = headers.get("FEN", "").split()
        white_to_move = len(fen) < 2 or fen[1] == "w"
        move = int(fen[5]) if len(fen) >= 6 and fen[5].isdigit() else 1
        ccr = {"w": headers.get("White", "").startswith(ENGINE), "b": headers.get("Black", "").startswith(ENGINE)}
        side = "w" if white_to_move else "b"
        moved = False  # whether the current side has made its move (the comment follows it)
        for token in TOKEN.findall(text):
            if token[0].isdigit() and token.rstrip(".").isdigit():
                continue  # a move number
            if token in RESULTS or token == "*":
                break
            if token.startswith("{"):
                if not moved:
                    continue  # a comment before any move (the opening line)
                m = SCORE.match(token)
                mover = "b" if side == "w" else "w"
                if m and not m.group(2) and ccr[mover]:
                    cp = float(m.group(3)) * 100 * (-1 if m.group(1) == "-" else 1)
                    if abs(cp) <= SCORE_LIMIT:
                        # After Black's move the number has already counted up.
                        number = move if mover == "w" else move - 1
                        xs.append(cp)
                        ms.append(number)
                        ys.append(result if mover == "w" else -result)
                continue
            # A move: the side to move changes; a move number counts up after Black's.
            if side == "b":
                move += 1
            side = "b" if side == "w" else "w"
            moved = True
    return np.array(xs), np.array(ms, dtype=float), np.array(ys)


def model(params, x, m):
    """(win, draw, loss) probabilities for scores x at move numbers m."""
    a = np.polyval(params[:4], m)
    b = np.polyval(params[4:], m)
    win = 1 / (1 + np.exp((a - x) / b))
    loss = 1 / (1 + np.exp((a + x) / b))
    return win, 1 - win - loss, loss


def scaled(ms):
    return np.clip(ms, *MOVE_CLAMP) / MOVE_SCALE


def log_likelihood(params, x, m, y):
    win, draw, loss = model(params, x, m)
    p = np.where(y > 0, win, np.where(y < 0, loss, draw))
    return float(np.mean(np.log(np.clip(p, 1e-12, 1))))


def gradient(params, x, m, y):
    """The mean log-likelihood's gradient in the eight parameters."""
    a = np.polyval(params[:4], m)
    b = np.polyval(params[4:], m)
    u, v = (x - a) / b, (-x - a) / b
    win, loss = 1 / (1 + np.exp(-u)), 1 / (1 + np.exp(-v))
    draw = np.clip(1 - win - loss, 1e-12, 1)
    # d log p / da and d log p / db for each outcome.
    da = np.where(y > 0, -(1 - win) / b, np.where(y < 0, -(1 - loss) / b,
                                                   (win * (1 - win) + loss * (1 - loss)) / b / draw))
    db = np.where(y > 0, -(1 - win) * u / b, np.where(y < 0, -(1 - loss) * v / b,
                                                       (win * (1 - win) * u + loss * (1 - loss) * v) / b / draw))
    powers = np.stack([m ** 3, m ** 2, m, np.ones_like(m)])
    return np.concatenate([powers @ da, powers @ db]) / len(x)


def fit_constant(x, y, m):
    """The best constant a and b for one group of samples: a coarse grid, then Newton's
    method on the two (the likelihood is smooth and, near the grid's best, concave)."""
    best = max(((log_likelihood(np.array([0, 0, 0, a, 0, 0, 0, b], float), x, m, y), a, b)
                for a in range(0, 401, 20) for b in range(20, 241, 20)))
    ab = np.array(best[1:], float)

    def grad2(v):
        g = gradient(np.array([0, 0, 0, v[0], 0, 0, 0, v[1]], float), x, m, y)
        return np.array([g[3], g[7]])

    for _ in range(30):
        g = grad2(ab)
        h = np.zeros((2, 2))
        for i in range(2):
            d = np.zeros(2)
            d[i] = 1e-2
            h[:, i] = (grad2(ab + d) - grad2(ab - d)) / 2e-2
        try:
            step = -np.linalg.solve((h + h.T) / 2, g)
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(step)) or np.abs(step).max() > 200:
            break
        ab = ab + step
        ab[1] = max(ab[1], 5.0)
        if np.abs(step).max() < 1e-3:
            break
    return ab


def fit(x, m, y, moves):
    """Stockfish's way: the best constant a and b per move number (groups of four moves over
    the clamped range), then cubics in m fitted to them by least squares, each point
    weighted by its samples."""
    points, a_s, b_s, weights = [], [], [], []
    clamped = np.clip(moves, *MOVE_CLAMP)
    for low in range(MOVE_CLAMP[0], MOVE_CLAMP[1] + 1, 4):
        chosen = (clamped >= low) & (clamped < low + 4)
        if np.sum(chosen) < 2000:
            continue
        a, b = fit_constant(x[chosen], y[chosen], m[chosen])
        points.append(np.mean(m[chosen]))
        a_s.append(a)
        b_s.append(b)
        weights.append(np.sqrt(np.sum(chosen)))
    a_fit = np.polyfit(points, a_s, 3, w=weights)
    b_fit = np.polyfit(points, b_s, 3, w=weights)
    return np.concatenate([a_fit, b_fit])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs/data/wdl.tsv")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args(argv)
    for path in args.pgn:
        if not os.path.isfile(path):
            print(f"error: {path}: no such file", file=sys.stderr)
            return 2
    x, moves, y = samples(args.pgn)
    if len(x) < 1000:
        print(f"error: only {len(x)} scored moves of ccr's in the PGNs", file=sys.stderr)
        return 2
    m = scaled(moves)
    params = fit(x, m, y, moves)
    ll = log_likelihood(params, x, m, y)
    lines = [
        f"# what: scripts/wdl.py {' '.join(os.path.relpath(p) for p in args.pgn)}",
        f"# samples: {len(x)} moves of ccr's with a score (|score| <= {SCORE_LIMIT} cp, mates left out), "
        f"wins {int(np.sum(y > 0))}, draws {int(np.sum(y == 0))}, losses {int(np.sum(y < 0))}",
        f"# mean log-likelihood: {ll:.6f}",
        "table\tkey\tvalue\tgames_win\tgames_draw\tgames_loss\tmodel_win\tmodel_draw\tmodel_loss\tcount",
    ]
    for i, name in enumerate(["a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"]):
        lines.append(f"param\t{name}\t{params[i]:.6f}\t\t\t\t\t\t\t")
    # The games' shares against the model's, per group of move numbers and bin of 50 cp.
    for low, high in ((1, 20), (21, 40), (41, 60), (61, 999)):
        group = (moves >= low) & (moves <= high)
        for centre in range(-400, 401, 50):
            chosen = group & (np.abs(x - centre) <= 25)
            n = int(np.sum(chosen))
            if n < 50:
                continue
            yy = y[chosen]
            win, draw, loss = model(params, x[chosen], m[chosen])
            lines.append(f"bin\t{low}-{high}\t{centre}\t{np.mean(yy > 0):.4f}\t{np.mean(yy == 0):.4f}\t"
                         f"{np.mean(yy < 0):.4f}\t{np.mean(win):.4f}\t{np.mean(draw):.4f}\t{np.mean(loss):.4f}\t{n}")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wdl: {len(x)} samples, mean log-likelihood {ll:.4f}; parameters "
          + " ".join(f"{p:.4f}" for p in params) + f"; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

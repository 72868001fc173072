"""Bullet clocks on raw pipes: ccr plays itself at 1+0.01 and 0.5+0.01, on an idle machine
and on one loaded with a busy loop per core, and must neither lose on time nor let its
clock fall below its Move Overhead; also at 1+0.01 loaded with `Move Overhead 0`, where
only the engine's own reserve keeps it from losing on time.

The harness is the GUI: it keeps both clocks and charges each move's wall time, from just
before it writes `go` to the moment its reader thread has read `bestmove`, to the mover
(pipe, scheduling and the reader's own latency included, as a GUI would), then adds the
increment. A clock below zero after a move is a loss on time. A game ends by checkmate,
stalemate, insufficient material, fivefold repetition or the 75-move rule (what ends a game
without a claim: threefold repetitions are played on, so that games run long), or is
adjudicated a draw after 150 moves each, long enough to reach endgames where the budget is
a few milliseconds a move.

Per configuration it prints one summary line (games, results, the least time left on ccr's
clock over all games and the median of the games' least) and writes every move's clock to
target/uci-tests/bullet-<tc>-<load>-<overhead>ms.tsv. Six games per configuration (four at
Move Overhead 0), 28 in all: about a minute, two at most.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time
import unittest
from typing import Dict, List, Optional

import chess

from harness import ENGINE, OUT_DIR, RawEngine, WatchdogCase

import match  # scripts/match.py, for the openings (harness put scripts/ on sys.path)

GAMES = 6
# Plies after the opening before a game is adjudicated a draw: 150 moves each.
MAX_PLIES = 300
# How long past its clock an engine may stay silent before the test fails as a hang (s).
HANG_GRACE = 5.0
COLUMNS = ["game", "opening", "ply", "side", "clock_before_ms", "think_ms", "left_ms", "clock_after_ms", "move"]


def move_overhead_ms(uci_lines) -> int:
    """The default of the engine's `Move Overhead` option (0 if it has none)."""
    for line in uci_lines:
        toks = line.text.split()
        if toks[:2] == ["option", "name"] and "type" in toks:
            name = " ".join(toks[2:toks.index("type")])
            if name == "Move Overhead" and "default" in toks:
                return int(toks[toks.index("default") + 1])
    return 0


class Game:
    """One game's record: result, how it ended, and every move's clock."""

    def __init__(self, number: int, opening: str):
        self.number = number
        self.opening = opening
        self.result = "*"
        self.reason = ""
        self.flagged: Optional[chess.Color] = None
        self.rows: List[list] = []
        self.least = math.inf  # seconds

    def record(self, ply, side, before, think, left, after, move) -> None:
        self.least = min(self.least, left)
        self.rows.append([self.number, self.opening, ply, "white" if side == chess.WHITE else "black",
                          f"{before * 1000:.1f}", f"{think * 1000:.1f}", f"{left * 1000:.1f}",
                          f"{after * 1000:.1f}", move])


def play(engines: Dict[chess.Color, RawEngine], opening: match.Opening, base: float, inc: float,
         number: int) -> Game:
    """One game between the two engines (ccr both), the harness keeping the clocks."""
    game = Game(number, opening.name)
    board = opening.board.copy()
    root = board.root()
    start = "position startpos" if root.fen() == chess.STARTING_FEN else f"position fen {root.fen()}"
    for e in engines.values():
        e.send("ucinewgame")
        e.isready()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    inc_ms = round(inc * 1000)
    opening_plies = len(board.move_stack)
    while True:
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            game.result = outcome.result()
            game.reason = outcome.termination.name.lower().replace("_", " ")
            return game
        plies = len(board.move_stack) - opening_plies
        if plies >= MAX_PLIES:
            game.result, game.reason = "1/2-1/2", f"adjudicated a draw after {plies} plies"
            return game
        side = board.turn
        e = engines[side]
        e.send(f"{start} moves {' '.join(m.uci() for m in board.move_stack)}")
        sent = e.send(f"go wtime {int(clocks[chess.WHITE] * 1000)} btime {int(clocks[chess.BLACK] * 1000)} "
                      f"winc {inc_ms} binc {inc_ms}")
        line, _ = e.expect("bestmove", clocks[side] + HANG_GRACE, "bestmove within the clock")
        think = line.t - sent
        before = clocks[side]
        left = before - think
        toks = line.text.split()
        mv = toks[1] if len(toks) > 1 else ""
        if left < 0:
            game.record(plies + 1, side, before, think, left, left, mv)
            game.flagged = side
            game.reason = f"{'white' if side == chess.WHITE else 'black'} lost on time ({left * 1000:+.1f} ms)"
            # A side that cannot be mated does not lose on time.
            game.result = "1/2-1/2" if board.has_insufficient_material(not side) else (
                "0-1" if side == chess.WHITE else "1-0")
            return game
        clocks[side] = left + inc
        game.record(plies + 1, side, before, think, left, clocks[side], mv)
        try:
            move = chess.Move.from_uci(mv)
        except ValueError:
            raise e.fail(f"bestmove {mv!r} is not a move") from None
        if move not in board.legal_moves:
            raise e.fail(f"bestmove {mv} is illegal in {board.fen()}")
        board.push(move)


@unittest.skipUnless(os.path.exists(ENGINE), f"{ENGINE} not built")
class Bullet(WatchdogCase):
    """ccr against itself; both clocks are ccr's."""

    timeout = 150

    def setUp(self):
        super().setUp()
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        self.openings = match.load_openings(match.DEFAULT_OPENINGS)

    def start_load(self) -> None:
        """A busy loop per core, at the test's own priority, until the test ends."""
        for _ in range(os.cpu_count() or 2):
            proc = subprocess.Popen([sys.executable, "-c", "while 1: pass"])
            self.addCleanup(proc.wait)
            self.addCleanup(proc.kill)
        time.sleep(0.5)

    def engines(self, overhead: Optional[int]) -> Dict[chess.Color, RawEngine]:
        """Both engines after the handshake, with `Move Overhead` set to `overhead` unless None."""
        out = {}
        for side in (chess.WHITE, chess.BLACK):
            e = RawEngine()
            self.addCleanup(e.close)
            self.uci_lines = e.uci()
            if overhead is not None:
                e.send(f"setoption name Move Overhead value {overhead}")
            e.isready()
            out[side] = e
        return out

    def run_config(self, base: float, inc: float, loaded: bool, overhead: Optional[int] = None,
                   games_played: int = GAMES) -> None:
        """`games_played` games at base+inc, with the default Move Overhead or `overhead` ms."""
        tc = match.TimeControl(base, inc).pgn()
        label = f"{tc} {'loaded' if loaded else 'idle'}"
        if overhead is not None:
            label += f" Move Overhead {overhead}"
        if loaded:
            self.start_load()
        engines = self.engines(overhead)
        if overhead is None:
            overhead = move_overhead_ms(self.uci_lines)
        games = []
        for g in range(games_played):
            opening = self.openings[(7 * g + 3) % len(self.openings)]
            games.append(play(engines, opening, base, inc, g + 1))
        for e in engines.values():
            e.quit()

        path = OUT_DIR / f"bullet-{tc}-{'loaded' if loaded else 'idle'}-{overhead}ms.tsv"
        with open(path, "w") as f:
            f.write(f"# ccr self-play at {tc}, {label}; harness clocks (wall time from writing go to reading "
                    f"bestmove); Move Overhead {overhead} ms\n")
            f.write("\t".join(COLUMNS) + "\n")
            for game in games:
                for row in game.rows:
                    f.write("\t".join(str(v) for v in row) + "\n")
        white = sum(g.result == "1-0" for g in games)
        draws = sum(g.result == "1/2-1/2" for g in games)
        black = sum(g.result == "0-1" for g in games)
        leasts = [g.least * 1000 for g in games]
        flags = [g for g in games if g.flagged is not None]
        print(f"\nbullet {label}: {len(games)} games, W/D/L {white}/{draws}/{black} (White's side), "
              f"{len(flags)} lost on time, least time left {min(leasts):.1f} ms, median of the games' least "
              f"{statistics.median(leasts):.1f} ms "
              f"(per game: {' '.join(f'{x:.0f}' for x in leasts)} ms; plies: "
              f"{' '.join(str(len(g.rows)) for g in games)}); Move Overhead {overhead} ms; {path}", flush=True)
        ends = "; ".join(f"game {g.number} ({g.opening}): {g.result} {g.reason}" for g in games)
        if flags:
            self.fail(f"bullet {label}: {len(flags)} of {len(games)} games lost on time: {ends}; clocks in {path}")
        self.assertGreaterEqual(min(leasts), overhead,
                                f"bullet {label}: ccr's clock fell to {min(leasts):.1f} ms, below its Move Overhead "
                                f"of {overhead} ms (per game: {' '.join(f'{x:.0f}' for x in leasts)} ms); "
                                f"clocks in {path}")

    def test_1s_idle(self):
        self.run_config(1.0, 0.01, loaded=False)

    def test_half_s_idle(self):
        self.run_config(0.5, 0.01, loaded=False)

    def test_1s_loaded(self):
        self.run_config(1.0, 0.01, loaded=True)

    def test_half_s_loaded(self):
        self.run_config(0.5, 0.01, loaded=True)

    def test_1s_loaded_without_overhead(self):
        # Move Overhead 0 still keeps the engine's own latency in hand.
        self.run_config(1.0, 0.01, loaded=True, overhead=0, games_played=4)


if __name__ == "__main__":
    unittest.main()

"""ccr through PolyGlot 2.0.4 (Debian's `polyglot`, the usual way to play a UCI engine in
xboard/WinBoard), driven as an xboard engine by python-chess with pondering on.

On a ponder miss PolyGlot sends `stop`, `position …` and `go …` to the engine at once,
without waiting for the stopped search's `bestmove`: the `go` must still be carried out.
The test plays short games at a fast clock in which the opponent mostly plays a move other
than the one ccr ponders on, and checks that ccr moves every time, inside its clock, and
that PolyGlot's log never shows a `go` turned away.
"""

from __future__ import annotations

import concurrent.futures
import os
import random
import shlex
import tempfile
import time
import unittest

import chess
import chess.engine

from harness import ENGINE, ENGINE_ARGS, IS_CCR, WatchdogCase

POLYGLOT = "/usr/games/polyglot"
# Each game: ccr's clock and increment (seconds), and how many of its moves to play.
CLOCK, INCREMENT, MOVES = 4.0, 0.05, 30
GAMES = 2
# How long a move may take beyond ccr's clock before python-chess gives up (seconds): long
# enough to tell "no move ever" from "a slow move", which the clock check catches.
SLACK = 5.0


@unittest.skipUnless(os.path.exists(POLYGLOT), f"{POLYGLOT} missing (make setup-uci)")
class PolyGlotPonder(WatchdogCase):
    timeout = 240

    def write_ini(self, directory: str) -> str:
        ini = os.path.join(directory, "ccr.ini")
        with open(ini, "w") as f:
            f.write("[PolyGlot]\n")
            f.write(f"EngineCommand = {shlex.join([ENGINE] + ENGINE_ARGS)}\n")
            f.write(f"EngineDir = {directory}\n")
            f.write("Book = false\n")
            f.write("Log = true\n")
            f.write(f"LogFile = {os.path.join(directory, 'polyglot.log')}\n")
            f.write("[Engine]\n")
            if IS_CCR:
                f.write("Hash = 16\n")
        return ini

    def play_game(self, seed: int, directory: str) -> int:
        """Plays one game (ccr White); returns how many ponder misses it went through."""
        rng = random.Random(seed)
        log = os.path.join(directory, "polyglot.log")
        engine = chess.engine.SimpleEngine.popen_xboard(
            [POLYGLOT, self.write_ini(directory)], timeout=10, cwd=directory)
        board = chess.Board()
        clock = {chess.WHITE: CLOCK, chess.BLACK: CLOCK}
        transcript = []

        def context() -> str:
            try:
                with open(log, errors="replace") as f:
                    tail = f.read().splitlines()[-40:]
            except OSError:
                tail = ["(no PolyGlot log)"]
            return (f"game {seed}, moves {' '.join(transcript)}\nPolyGlot log, last lines:\n"
                    + "\n".join(tail))

        try:
            for _ in range(MOVES):
                limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                           black_clock=clock[chess.BLACK],
                                           white_inc=INCREMENT, black_inc=INCREMENT)
                t = time.monotonic()
                pool = concurrent.futures.ThreadPoolExecutor(1)
                try:
                    result = pool.submit(engine.play, board, limit, ponder=True).result(
                        clock[chess.WHITE] + SLACK)
                except concurrent.futures.TimeoutError:
                    self.fail(f"no move within {clock[chess.WHITE] + SLACK:.1f} s (clock "
                              f"{clock[chess.WHITE]:.2f} s)\n{context()}")
                finally:
                    pool.shutdown(wait=False)
                took = time.monotonic() - t
                clock[chess.WHITE] -= took
                if clock[chess.WHITE] <= 0:
                    self.fail(f"lost on time: the move took {took:.3f} s\n{context()}")
                clock[chess.WHITE] += INCREMENT
                if result.move is None or result.move not in board.legal_moves:
                    self.fail(f"move {result.move} is not legal in {board.fen()}\n{context()}")
                board.push(result.move)
                transcript.append(result.move.uci())
                if board.is_game_over():
                    break
                # PolyGlot ponders on the reply ccr expects (its `bestmove … ponder`); a
                # random reply is nearly always another move: a ponder miss.
                reply = rng.choice(list(board.legal_moves))
                board.push(reply)
                transcript.append(reply.uci())
                if board.is_game_over():
                    break
        finally:
            try:
                engine.quit()
            except Exception:
                engine.close()
        with open(log, errors="replace") as f:
            lines = f.read().splitlines()
        turned_away = [line for line in lines if "Engine->Adapter: info string" in line
                       and any(w in line for w in ("ignored", "not changed", "stopping"))]
        if turned_away:
            self.fail(f"ccr turned a command away: {turned_away[:3]}\n{context()}")
        # Each ponder miss: PolyGlot stops the pondering search, then sends the position and
        # `go` at once.
        return sum(line.endswith("Adapter->Engine: stop") for line in lines)

    def test_games_with_ponder_misses(self):
        misses = 0
        for seed in range(GAMES):
            with tempfile.TemporaryDirectory(prefix="ccr-polyglot-") as directory:
                misses += self.play_game(seed, directory)
        # The test is about ponder misses: make sure the games went through several.
        self.assertGreaterEqual(misses, 5, "too few ponder misses to test anything")


if __name__ == "__main__":
    unittest.main()

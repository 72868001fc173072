"""MultiPV through python-chess: `info multipv k` lines for the k best root moves, each with
its own score and principal variation, best first, with searchmoves, go mate, analysis
streams and pondering; and 256 lines on the pipe of a GUI that reads slowly: `readyok` is
not kept waiting behind them, and the last iteration's lines all come before `bestmove`."""

from __future__ import annotations

import logging
import os
import statistics
import subprocess
import threading
import time
import unittest

import chess
import chess.engine

from harness import (ENGINE, IS_CCR, KIWIPETE, ClientCase, EngineCase, WatchdogCase, bestmove_of, board_after,
                     parse_info)

logging.getLogger("chess.engine").setLevel(logging.CRITICAL)

# White has 218 legal moves, the most a position can have.
MOST_MOVES = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"

# Two rooks and two mates in one on the back rank (a1a8, b1b8); every other move mates later
# or not at all.
TWO_MATES = "7k/6pp/8/8/8/8/8/RR4K1 w - - 0 1"


def ordering(score: chess.engine.PovScore) -> int:
    """A white-relative score as one number: mates beyond every centipawn value."""
    return score.white().score(mate_score=100_000)


class ThroughPythonChess(ClientCase):
    def check_lines(self, board, infos, count):
        """`count` lines, numbered 1.., distinct legal first moves, legal variations, best first."""
        self.assertEqual([i.get("multipv") for i in infos], list(range(1, count + 1)), infos)
        firsts = [i["pv"][0] for i in infos]
        self.assertEqual(len(set(firsts)), count, firsts)
        for info in infos:
            b = board.copy()
            for move in info["pv"]:
                self.assertIn(move, b.legal_moves, f"pv {info['pv']} of {board.fen()}")
                b.push(move)
        scores = [ordering(i["score"]) * (1 if board.turn == chess.WHITE else -1) for i in infos]
        self.assertEqual(scores, sorted(scores, reverse=True), infos)

    def test_the_option_and_its_range(self):
        option = self.engine.options["MultiPV"]
        self.assertEqual((option.type, option.default, option.min), ("spin", 1, 1))
        if IS_CCR:
            self.assertEqual(option.max, 256)
        else:
            self.assertGreaterEqual(option.max, 256)

    def test_lines_best_first(self):
        board = chess.Board(KIWIPETE)
        infos = self.engine.analyse(board, chess.engine.Limit(depth=7), multipv=4)
        self.check_lines(board, infos, 4)
        self.assertTrue(all(i["depth"] == 7 for i in infos), infos)

    def test_the_two_mates_come_first(self):
        board = chess.Board(TWO_MATES)
        infos = self.engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        self.check_lines(board, infos, 3)
        self.assertEqual({i["pv"][0].uci() for i in infos[:2]}, {"a1a8", "b1b8"})
        self.assertTrue(all(i["score"].white() == chess.engine.Mate(1) for i in infos[:2]), infos)
        self.assertNotEqual(infos[2]["score"].white(), chess.engine.Mate(1), infos)

    def test_more_lines_than_moves(self):
        board = chess.Board("7k/8/8/8/8/8/8/K7 w - - 0 1")  # three king moves
        infos = self.engine.analyse(board, chess.engine.Limit(depth=4), multipv=256)
        self.check_lines(board, infos, 3)

    def test_searchmoves_bound_the_lines(self):
        board = chess.Board()
        allowed = [chess.Move.from_uci(m) for m in ("a2a3", "g1f3", "e2e4")]
        infos = self.engine.analyse(board, chess.engine.Limit(depth=5), multipv=5, root_moves=allowed)
        self.check_lines(board, infos, 3)
        self.assertEqual({i["pv"][0] for i in infos}, set(allowed))

    def test_an_analysis_stream_stops_with_a_legal_move(self):
        board = chess.Board(KIWIPETE)
        with self.engine.analysis(board, multipv=3) as analysis:
            time.sleep(0.5)
            analysis.stop()
            best = analysis.wait()
        self.assertIn(best.move, board.legal_moves)
        lines = analysis.multipv
        self.assertEqual(len(lines), 3, lines)


class OnThePipe(EngineCase):
    """What python-chess does not send itself: MultiPV set by `setoption` for `go mate`, a
    game's `go` and pondering, as a GUI or a match runner sends them."""

    def lines_of(self, infos, depth):
        found = [parse_info(i) for i in infos if i.startswith("info depth")]
        return [i for i in found if i["depth"] == depth]

    def test_go_mate(self):
        e = self.e
        e.send("setoption name MultiPV value 2")
        e.send(f"position fen {TWO_MATES}")
        infos, best, _ = e.go("mate 1")
        self.assertIn(bestmove_of(best), {"a1a8", "b1b8"})
        last = [parse_info(i) for i in infos if i.startswith("info depth")][-2:]
        self.assertEqual([i["multipv"] for i in last], [1, 2], infos)
        self.assertEqual({i["pv"][0] for i in last}, {"a1a8", "b1b8"}, infos)
        self.assertTrue(all(i["score"][:2] == ("mate", 1) for i in last), infos)

    def test_bestmove_and_ponder_are_the_first_line(self):
        e = self.e
        e.send("setoption name MultiPV value 3")
        e.send(f"position fen {KIWIPETE}")
        infos, best, _ = e.go("depth 6")
        lines = self.lines_of(infos, 6)
        self.assertEqual([i["multipv"] for i in lines], [1, 2, 3], infos)
        words = best.split()
        self.assertEqual(words[1], lines[0]["pv"][0], best)
        if len(lines[0]["pv"]) > 1:
            self.assertEqual(words[1:], [lines[0]["pv"][0], "ponder", lines[0]["pv"][1]], best)

    def test_the_last_iteration_comes_whole_before_bestmove(self):
        e = self.e
        e.send("setoption name MultiPV value 256")
        e.send(f"position fen {MOST_MOVES}")
        infos, _, _ = e.go("depth 3")
        lines = self.lines_of(infos, 3)
        self.assertEqual([i["multipv"] for i in lines], list(range(1, 219)), [i["multipv"] for i in lines])

    def test_pondering_with_lines(self):
        e = self.e
        e.send("setoption name MultiPV value 2")
        e.send(f"position fen {KIWIPETE} moves e2a6 b4c3")
        t = e.send("go ponder wtime 2000 btime 2000 winc 100 binc 100")
        early = e.drain(0.3)
        self.assertFalse([l.text for l in early if l.text.startswith("bestmove")], "bestmove while pondering")
        e.send("ponderhit")
        line, before = e.expect("bestmove", 10.0, "bestmove after ponderhit")
        board = board_after(f"position fen {KIWIPETE} moves e2a6 b4c3")
        self.assert_legal_bestmove(line.text, board, "ponderhit")
        multipv = {parse_info(l.text).get("multipv") for l in early + before if l.text.startswith("info depth")}
        self.assertEqual(multipv, {1, 2})
        self.assertLess(line.t - t, 5.0)


@unittest.skipUnless(os.path.exists(ENGINE), f"{ENGINE} not built")
class SlowReader(WatchdogCase):
    """A GUI that reads 4 KiB every 80 ms (about 50 KB/s), during a `go infinite` with
    MultiPV 256 in a position of 218 moves: the first iterations' lines came faster than that
    (about a megabyte a second), the pipe filled, and `readyok` waited behind 64 KiB of them,
    more than a second."""

    CHUNK = 4096
    PAUSE = 0.08

    def test_readyok_is_not_kept_behind_the_lines(self):
        proc = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.addCleanup(proc.wait, 5)
        self.addCleanup(proc.kill)
        seen = []  # when each readyok was read
        def read():
            tail = b""
            while True:
                chunk = proc.stdout.read(self.CHUNK)
                if not chunk:
                    return
                now = time.monotonic()
                seen.extend(now for _ in range((tail + chunk).count(b"readyok\n") - tail.count(b"readyok\n")))
                tail = chunk[-8:]
                time.sleep(self.PAUSE)
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        proc.stdin.write(f"setoption name MultiPV value 256\nposition fen {MOST_MOVES}\ngo infinite\n".encode())
        latencies = []
        for i in range(5):
            time.sleep(0.3)
            t = time.monotonic()
            proc.stdin.write(b"isready\n")
            while len(seen) <= i and time.monotonic() - t < 20:
                time.sleep(0.005)
            self.assertGreater(len(seen), i, "no readyok within 20 s")
            latencies.append(seen[i] - t)
        proc.stdin.write(b"stop\nquit\n")
        shown = " ".join(f"{1000 * x:.0f}" for x in latencies)
        self.assertLess(statistics.median(latencies), 0.4, f"readyok after {shown} ms")


if __name__ == "__main__":
    unittest.main()

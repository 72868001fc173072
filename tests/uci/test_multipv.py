"""MultiPV through python-chess: `info multipv k` lines for the k best root moves, each with
its own score and principal variation, best first, with searchmoves, go mate, analysis
streams and pondering."""

from __future__ import annotations

import logging
import time
import unittest

import chess
import chess.engine

from harness import IS_CCR, KIWIPETE, ClientCase, EngineCase, bestmove_of, board_after, parse_info

logging.getLogger("chess.engine").setLevel(logging.CRITICAL)

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


if __name__ == "__main__":
    unittest.main()

"""scripts/match.py's own bookkeeping: void games for a failing opponent, losses for a
failing counted side, the clock, and the statistics. The engines here are Stockfish behind
faulty_engine.py (a fault by $FAULT), not ccr."""

from __future__ import annotations

import math
import os
import unittest

import chess

from harness import HERE_UCI, OUT_DIR, WatchdogCase

import match

STOCKFISH = "/usr/games/stockfish"
FAULTY = str(HERE_UCI / "faulty_engine.py")


def faulty(name: str, fault: str = "") -> match.EngineSpec:
    # env is per process: the fault goes in through `env FAULT=...`.
    return match.EngineSpec(name, "uci", ["/usr/bin/env", f"FAULT={fault}", FAULTY])


@unittest.skipUnless(os.path.exists(STOCKFISH), "needs /usr/games/stockfish (make setup-uci)")
class MatchBookkeeping(WatchdogCase):
    timeout = 60

    def setUp(self):
        super().setUp()
        self.players = []

    def tearDown(self):
        for p in self.players:
            p.close()
        super().tearDown()

    def player(self, spec):
        p = match.Player(spec, OUT_DIR / "work")
        self.players.append(p)
        return p

    def game(self, white, black, counted, tc=match.TimeControl(1.0, 0.01), on_move=None):
        return match.play_game(self.player(white), self.player(black), None, tc,
                               counted_side=counted, on_move=on_move)

    def test_opponent_illegal_move_is_void(self):
        res = self.game(faulty("ccr"), faulty("opp", "illegal_bestmove"), chess.WHITE)
        self.assertTrue(res.void, res.reason)
        self.assertEqual(res.result, "*")
        self.assertEqual(res.termination, "rules infraction")
        self.assertIn("Void", res.game.headers)

    def test_counted_side_illegal_move_loses(self):
        res = self.game(faulty("opp"), faulty("ccr", "illegal_bestmove"), chess.BLACK)
        self.assertFalse(res.void)
        self.assertEqual(res.result, "1-0")
        self.assertEqual(res.failed, chess.BLACK)

    def test_opponent_crash_is_void(self):
        opp = faulty("opp")

        def kill_after(board, move, seconds, clock):
            if len(board.move_stack) == 3:
                self.players[1].kill()

        res = self.game(faulty("ccr"), opp, chess.WHITE, on_move=kill_after)
        self.assertTrue(res.void, res.reason)
        self.assertEqual(res.termination, "abandoned")
        self.assertIn("crashed", res.reason)

    def test_loss_on_time(self):
        res = self.game(faulty("ccr", "time_hog"), faulty("opp"), chess.WHITE)
        self.assertFalse(res.void)
        self.assertEqual((res.result, res.termination, res.failed), ("0-1", "time forfeit", chess.WHITE), res.reason)
        # The opponent's time loss counts too (not void): a loss on time is a loss.
        res = self.game(faulty("ccr"), faulty("opp", "time_hog"), chess.WHITE)
        self.assertEqual((res.result, res.termination, res.void), ("1-0", "time forfeit", False), res.reason)

    def test_pgn_headers(self):
        opening = match.load_openings(match.DEFAULT_OPENINGS)[0]
        res = match.play_game(self.player(faulty("ccr")), self.player(faulty("opp", "illegal_bestmove")),
                              opening, match.TimeControl(1.0, 0.01), counted_side=chess.WHITE)
        h = res.game.headers
        for key in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "SetUp",
                    "TimeControl", "Termination"):
            self.assertIn(key, h)
        self.assertEqual(h["FEN"], opening.board.fen())
        self.assertEqual(h["TimeControl"], "1+0.01")


class Statistics(unittest.TestCase):
    def test_elo(self):
        self.assertAlmostEqual(match.elo_from_score(0.75), 190.85, places=1)
        self.assertEqual(match.elo_from_score(0.5), 0.0)
        self.assertEqual(match.elo_from_score(1.0), math.inf)

    def test_interval_and_los(self):
        t = match.Tally(wins=30, draws=40, losses=30)
        st = t.stats()
        self.assertAlmostEqual(st["score"], 0.5)
        # Per-game variance 0.6 * 0.25 = 0.15; se = sqrt(0.15 / 100).
        self.assertAlmostEqual(st["se"], math.sqrt(0.15 / 100))
        self.assertAlmostEqual(st["elo_hi"], -st["elo_lo"])
        self.assertAlmostEqual(st["elo_hi"], match.elo_from_score(0.5 + 1.959963984540054 * math.sqrt(0.0015)))
        self.assertAlmostEqual(st["los"], 0.5)
        self.assertAlmostEqual(match.Tally(wins=10, losses=0).stats()["los"], 0.5 * (1 + math.erf(10 / math.sqrt(20))))

    def test_time_control(self):
        self.assertEqual(match.TimeControl.parse("10+0.1"), match.TimeControl(10.0, 0.1, 0))
        self.assertEqual(match.TimeControl.parse("40/60"), match.TimeControl(60.0, 0.0, 40))
        with self.assertRaises(match.MatchError):
            match.TimeControl.parse("fast")


if __name__ == "__main__":
    unittest.main()

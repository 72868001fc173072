"""scripts/match.py's own bookkeeping: void games for a failing opponent, losses for a
failing counted side, the clock, and the statistics. The engines here are Stockfish behind
faulty_engine.py (a fault by $FAULT), not ccr."""

from __future__ import annotations

import math
import os
import unittest
from pathlib import Path

import chess
import chess.pgn

from harness import ENGINE, HERE_UCI, OUT_DIR, WatchdogCase

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


@unittest.skipUnless(os.path.exists("/usr/games/fairymax"), "needs /usr/games/fairymax (make setup-uci)")
class SequentialMatch(WatchdogCase):
    """A real SPRT match stops at its decision: ccr against Fairy-Max (which it beats nearly
    every game) accepts H1 of [0, 100] Elo long before the 40 games allowed."""

    timeout = 240

    def test_sprt_stops_at_the_decision(self):
        import contextlib
        import io
        out = io.StringIO()
        pgn = OUT_DIR / "sprt.pgn"
        if pgn.exists():
            pgn.unlink()
        with contextlib.redirect_stdout(out):
            status = match.main(["--ccr", ENGINE, "--engines", "fairymax", "--games", "40", "--tc", "2+0.02",
                                 "--sprt", "0,100", "--elo-model", "logistic", "--pgn", str(pgn)])
        text = out.getvalue()
        self.assertEqual(status, 0, text)
        self.assertIn("H1 accepted", text)
        self.assertRegex(text, r"SPRT Elo \[0, 100\] alpha 0.05 beta 0.05: LLR \+\d")
        games = pgn.read_text().count("[Event ")
        self.assertLess(games, 40, text)


def pgn_game(round_: str, result: str, opening: str, tc: str = "2+0.02", void: str = "") -> str:
    """A recorded game's headers as match.py writes them (no moves: only the headers count)."""
    void_tag = f'[Void "{void}"]\n' if void else ""
    return (f'[Event "ccr gauntlet"]\n[Round "{round_}"]\n[White "a"]\n[Black "b"]\n[Result "{result}"]\n'
            f'[TimeControl "{tc}"]\n[Opening "{opening}"]\n{void_tag}\n{result}\n\n')


class ResumedMatch(unittest.TestCase):
    """--resume takes the counted games of the same match from its PGN and no others."""

    def setUp(self):
        self.openings = match.load_openings(match.DEFAULT_OPENINGS)
        self.tc = match.TimeControl.parse("2+0.02")
        self.pgn = OUT_DIR / "resume.pgn"
        OUT_DIR.mkdir(parents=True, exist_ok=True)

    def recorded(self, text: str):
        self.pgn.write_text(text)
        return match.recorded_games(self.pgn, ["base"], self.tc, self.openings)

    def test_counted_games_only(self):
        first, second = self.openings[0].name, self.openings[1].name
        found = self.recorded(pgn_game("base.1", "1-0", first) + pgn_game("base.2", "*", first, void="crashed")
                              + pgn_game("base.2", "1/2-1/2", first) + pgn_game("other.3", "0-1", second)
                              + pgn_game("base.3", "*", second, void="crashed"))
        self.assertEqual(found, {("base", 0): "1-0", ("base", 1): "1/2-1/2"})
        self.assertEqual(match.recorded_games(OUT_DIR / "missing.pgn", ["base"], self.tc, self.openings), {})

    def test_another_match_is_refused(self):
        first, second = self.openings[0].name, self.openings[1].name
        with self.assertRaisesRegex(match.MatchError, "5\\+0.05"):
            self.recorded(pgn_game("base.1", "1-0", first, tc="5+0.05"))
        with self.assertRaisesRegex(match.MatchError, "opened with"):
            self.recorded(pgn_game("base.1", "1-0", second))


@unittest.skipUnless(os.path.exists("/usr/games/fairymax"), "needs /usr/games/fairymax (make setup-uci)")
class ResumedSequentialMatch(WatchdogCase):
    """A stopped SPRT match goes on from its PGN: the games already played are counted once,
    in the tally and in the pairs, and only the rest are played."""

    timeout = 240

    def run_match(self, pgn, games, *extra):
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = match.main(["--ccr", ENGINE, "--engines", "fairymax", "--games", str(games), "--tc", "1+0.02",
                                 "--sprt", "0,1000", "--elo-model", "logistic", "--pgn", str(pgn), *extra])
        self.assertEqual(status, 0, out.getvalue())
        return out.getvalue()

    def test_resume_counts_the_recorded_pairs(self):
        pgn = OUT_DIR / "sprt-resume.pgn"
        if pgn.exists():
            pgn.unlink()
        first = self.run_match(pgn, 4)
        played = pgn.read_text().count("[Event ")
        counted = played - pgn.read_text().count("[Void ")
        self.assertEqual(counted, 4, first)
        text = self.run_match(pgn, 6, "--resume")
        self.assertIn("resumed: 4 counted games", text)
        # Two more games, one more pair: the SPRT line after it counts 3 pairs.
        self.assertEqual(pgn.read_text().count("[Event ") - played, 2 + text.count("void ("), text)
        self.assertRegex(text, r"LLR [-+][\d.]+ \[[-+][\d.]+, [-+][\d.]+\]  pairs 3 ")
        self.assertRegex(text, r"fairymax +6 games")


@unittest.skipUnless(os.path.exists("/usr/games/fairymax"), "needs /usr/games/fairymax (make setup-uci)")
class InterruptedMatch(WatchdogCase):
    """SIGTERM ends a match at once: no new game starts, the games under way are dropped
    rather than recorded as losses, the summary is printed, the exit status is 143, and the
    PGN is left fit for --resume; an SPRT's summary says it was interrupted."""

    timeout = 120

    def test_sigterm_drops_the_games_under_way(self):
        import signal
        import subprocess
        import sys
        import time
        pgn = OUT_DIR / "interrupted.pgn"
        if pgn.exists():
            pgn.unlink()
        script = Path(match.__file__).resolve()
        proc = subprocess.Popen([sys.executable, "-B", str(script), "--ccr", ENGINE, "--engines", "fairymax",
                                 "--games", "40", "--tc", "5+0.05", "--concurrency", "2", "--sprt", "0,5",
                                 "--pgn", str(pgn)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # Wait for the first finished game, then stop the match in the middle of others.
            for line in proc.stdout:
                if line.startswith("[1/40"):
                    break
            time.sleep(1.0)
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=20)
        finally:
            proc.kill()
        self.assertEqual(proc.returncode, 143, err)
        self.assertIn("interrupted", err)
        self.assertIn("fairymax", out)
        self.assertRegex(out, r"\(interrupted after \d+ games; --resume goes on\)")
        with open(pgn) as f:
            results = []
            while (headers := chess.pgn.read_headers(f)) is not None:
                results.append((headers["Result"], headers.get("Termination"), "Void" in headers))
        self.assertGreaterEqual(len(results), 1)
        self.assertLess(len(results), 6, results)
        for result, termination, void in results:
            self.assertFalse(void, results)
            # A game cut short by the kill would read as a crash: abandoned (a loss or void).
            self.assertNotEqual(termination, "abandoned", results)


def simulate(sprt: match.Sprt, elo: float, draw: float, rng, most: int = 20000):
    """Game pairs of a side `elo` stronger (logistic) with draw rate `draw`, until the SPRT
    decides (or `most` pairs): the decision."""
    score = match.score_of_elo(elo)
    win = score - draw / 2
    for _ in range(most):
        points = 0.0
        for _ in range(2):
            r = rng.random()
            points += 1.0 if r < win else 0.5 if r < win + draw else 0.0
        sprt.add_pair(points)
        decision = sprt.decision()
        if decision:
            return decision
    return None


class SequentialTest(unittest.TestCase):
    """The SPRT decides as its error rates promise, in both Elo models."""

    def decisions(self, model, bounds, elo, runs=100, seed=1):
        import random
        rng = random.Random(seed)
        found = {"H0": 0, "H1": 0, None: 0}
        for _ in range(runs):
            sprt = match.Sprt.parse(bounds, 0.05, 0.05, model)
            found[simulate(sprt, elo, 0.4, rng)] += 1
        return found

    def test_logistic_accepts_the_truth(self):
        self.assertGreaterEqual(self.decisions("logistic", "0,10", 25)["H1"], 90)
        self.assertGreaterEqual(self.decisions("logistic", "0,10", -15)["H0"], 90)

    def test_logistic_false_positives_near_alpha(self):
        # At Elo = ELO0 the test accepts H1 with probability alpha = 5 %: 100 runs, 12 or fewer.
        self.assertLessEqual(self.decisions("logistic", "0,10", 0)["H1"], 12)

    def test_normalized_accepts_the_truth(self):
        # 25 Elo with 40 % draws is about 33 nElo, -15 Elo about -20.
        self.assertGreaterEqual(self.decisions("normalized", "0,10", 25)["H1"], 90)
        self.assertGreaterEqual(self.decisions("normalized", "0,10", -15)["H0"], 90)
        self.assertLessEqual(self.decisions("normalized", "0,10", 0)["H1"], 12)

    def test_llr_and_bounds(self):
        sprt = match.Sprt.parse("0,10", 0.05, 0.05, "logistic")
        self.assertEqual(sprt.llr(), 0.0)
        lower, upper = sprt.bounds
        self.assertAlmostEqual(upper, math.log(19))
        self.assertAlmostEqual(lower, -math.log(19))
        # Pentanomial 10/20/40/20/10 and the prior's pseudo-pairs, p/5 on each outcome: mean
        # 1/2, variance of a pair's average (2 (10 + p/5) / 4 + 2 (20 + p/5) / 16) / (100 + p);
        # LLR = N ((m - s0)^2 - (m - s1)^2) / (2 v) with s1 the score of +10 Elo.
        for points, count in zip((0, 0.5, 1, 1.5, 2), (10, 20, 40, 20, 10)):
            for _ in range(count):
                sprt.add_pair(points)
        p = match.PRIOR_PAIRS
        var = (2 * (10 + p / 5) / 4 + 2 * (20 + p / 5) / 16) / (100 + p)
        s1 = 1 / (1 + 10 ** (-10 / 400))
        self.assertAlmostEqual(sprt.llr(), 100 * (0 - (0.5 - s1) ** 2) / (2 * var))
        self.assertIsNone(sprt.decision())
        self.assertIn("pentanomial [10, 20, 40, 20, 10]", sprt.line())
        # nElo 0 and its half-width 1.96 * 800 / ln 10 / sqrt(2 N).
        nelo, half = sprt.nelo()
        self.assertAlmostEqual(nelo, 0.0)
        self.assertAlmostEqual(half, 1.959963984540054 * 800 / math.log(10) / math.sqrt(200))

    def test_bad_arguments(self):
        for text, alpha, model in (("5,0", 0.05, "normalized"), ("x", 0.05, "normalized"),
                                   ("0,5", 0.7, "normalized"), ("0,5", 0.05, "bayes"), ("nan,5", 0.05, "logistic")):
            with self.assertRaises(match.MatchError, msg=text):
                match.Sprt.parse(text, alpha, 0.05, model)


if __name__ == "__main__":
    unittest.main()

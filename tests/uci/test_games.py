"""Whole games through python-chess, with clocks kept here (scripts/match.py's game loop):
bullet self-play that must never lose on time (at full strength and with the strength
limited), and full games against ccr itself and Debian's Fairy-Max and Phalanx (xboard).
PGNs go to target/uci-tests/."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import unittest

import chess
import chess.pgn

from harness import ENGINE, ENGINE_ARGS, IS_CCR, OUT_DIR, WatchdogCase

import match  # scripts/match.py (harness put scripts/ on sys.path)

logging.getLogger("chess.engine").setLevel(logging.CRITICAL)

WORK = OUT_DIR / "work"
RULE_ENDINGS = {"checkmate", "stalemate", "insufficient material", "seventyfive moves",
                "fivefold repetition", "fifty moves", "threefold repetition"}


def setUpModule():
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name in ("bullet", "limited", "selfplay", "fairymax", "phalanx"):
        (OUT_DIR / f"{name}.pgn").unlink(missing_ok=True)


def ccr_spec(name: str = "ccr") -> match.EngineSpec:
    return match.EngineSpec(name, "uci", [ENGINE] + ENGINE_ARGS)


class Games(WatchdogCase):
    timeout = 120

    def setUp(self):
        super().setUp()
        if not os.path.exists(ENGINE):
            raise unittest.SkipTest(f"{ENGINE} not built")
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        self.openings = match.load_openings(match.DEFAULT_OPENINGS)
        self.players = []

    def tearDown(self):
        for p in self.players:
            p.close()
        super().tearDown()

    def player(self, spec: match.EngineSpec) -> match.Player:
        if not os.path.exists(spec.command[0]):
            raise unittest.SkipTest(f"{spec.command[0]} missing (make setup-uci)")
        p = match.Player(spec, WORK)
        self.players.append(p)
        return p

    def play(self, white, black, opening, tc, pgn_name, counted_side, max_plies):
        moves = []

        def on_move(board, move, seconds, clock):
            moves.append((board.turn, seconds, clock))

        res = match.play_game(white, black, opening, tc, event="ccr UCI tests", round_=pgn_name,
                              counted_side=counted_side, on_move=on_move,
                              adjudication=match.Adjudication(max_plies=max_plies))
        with open(OUT_DIR / f"{pgn_name}.pgn", "a") as f:
            print(res.game, file=f, end="\n\n")
        # The PGN replays legally to the same end.
        game = chess.pgn.read_game(io.StringIO(str(res.game)))
        self.assertFalse(game.errors, game.errors)
        board = game.end().board()
        self.assertEqual(len(list(game.mainline_moves())), res.plies)
        return res, board, moves

    def assert_clean_end(self, res, context):
        where = f"{context}: {res.result} ({res.termination}: {res.reason}); PGN in {OUT_DIR}"
        if res.failed is not None or res.void:
            self.fail(where)
        if res.termination == "normal":
            # By a rule of chess, or the xboard opponent resigned.
            if res.reason not in RULE_ENDINGS and not res.reason.endswith("resigns"):
                self.fail(where)
        else:
            self.assertEqual(res.termination, "adjudication", where)

    def test_bullet_selfplay_never_flags(self):
        """Self-play at 1+0.01 (1 s, 10 ms increment): no loss on time. At least two games
        and 150 plies in all (a quick repetition draw is legal but tests few clocks), at
        most five games."""
        tc = match.TimeControl(1.0, 0.01)
        plies = games = 0
        while games < 5 and (games < 2 or plies < 150):
            white, black = self.player(ccr_spec("ccr-a")), self.player(ccr_spec("ccr-b"))
            opening = self.openings[(7 * games + 3) % len(self.openings)]
            res, _, moves = self.play(white, black, opening, tc, "bullet", None, 400)
            games += 1
            plies += len(moves)
            self.assert_clean_end(res, f"bullet game {games} ({opening.name})")
            lowest = min((clock for _, _, clock in moves), default=0.0)
            if lowest < 0:
                self.fail(f"bullet game {games}: a clock went to {lowest:.3f} s")
            white.close()
            black.close()
        self.assertGreaterEqual(plies, 150, f"{games} bullet games, only {plies} plies in all")

    @unittest.skipUnless(IS_CCR, "ccr's own calibration range")
    def test_limited_strength_keeps_its_clock(self):
        """The weakest and the strongest `UCI_Elo`, limited, against full strength at 1+0.01:
        every move legal (the PGN replays), no loss on time, an end by the rules."""
        answer = subprocess.run([ENGINE] + ENGINE_ARGS, input="uci\nquit\n", capture_output=True,
                                text=True, timeout=30).stdout
        found = re.search(r"option name UCI_Elo type spin default \d+ min (\d+) max (\d+)", answer)
        self.assertIsNotNone(found, answer)
        tc = match.TimeControl(1.0, 0.01)
        for k, elo in enumerate(found.groups()):
            options = {"UCI_LimitStrength": True, "UCI_Elo": int(elo)}
            weak = self.player(match.EngineSpec("ccr-limited", "uci", [ENGINE] + ENGINE_ARGS, options))
            full = self.player(ccr_spec("ccr-full"))
            opening = self.openings[11 + 5 * k]
            white, black, side = (weak, full, chess.WHITE) if k == 0 else (full, weak, chess.BLACK)
            res, _, moves = self.play(white, black, opening, tc, "limited", side, 300)
            self.assert_clean_end(res, f"UCI_Elo {elo} ({opening.name})")
            lowest = min((clock for turn, _, clock in moves if turn == side), default=0.0)
            self.assertGreaterEqual(lowest, 0, f"UCI_Elo {elo}: its clock went to {lowest:.3f} s")
            weak.close()
            full.close()

    def test_full_game_selfplay(self):
        tc = match.TimeControl(2.0, 0.03)
        white, black = self.player(ccr_spec("ccr-a")), self.player(ccr_spec("ccr-b"))
        res, board, _ = self.play(white, black, None, tc, "selfplay", None, 200)
        self.assert_clean_end(res, "ccr - ccr")

    def test_full_game_vs_fairymax(self):
        spec = match.known_engines(ENGINE)["fairymax"]
        tc = match.TimeControl(2.0, 0.03)
        ccr, other = self.player(ccr_spec()), self.player(spec)
        res, _, _ = self.play(ccr, other, None, tc, "fairymax", chess.WHITE, 200)
        if res.void:
            self.fail(f"Fairy-Max failed, not ccr: {res.reason}")
        self.assert_clean_end(res, "ccr - Fairy-Max")

    def test_full_game_vs_phalanx(self):
        spec = match.known_engines(ENGINE)["phalanx"]
        tc = match.TimeControl(2.0, 0.03)
        ccr, other = self.player(ccr_spec()), self.player(spec)
        opening = self.openings[0]
        res, _, _ = self.play(other, ccr, opening, tc, "phalanx", chess.BLACK, 200)
        if res.void:
            self.fail(f"Phalanx failed, not ccr: {res.reason}")
        self.assert_clean_end(res, "Phalanx - ccr")


if __name__ == "__main__":
    unittest.main()

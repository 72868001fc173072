"""UCI_ShowWDL through python-chess: `wdl W D L` on every info line when asked, per mille,
adding up to 1000, from the side to move's view, following the score; none when not asked."""

from __future__ import annotations

import unittest

import chess
import chess.engine

from harness import IS_CCR, ClientCase


class ShowWDL(ClientCase):
    def wdl(self, fen, depth=6):
        info = self.engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))
        self.assertIn("wdl", info, info)
        wdl = info["wdl"].relative
        self.assertEqual(wdl.wins + wdl.draws + wdl.losses, 1000, info)
        return info, wdl

    def test_the_option(self):
        option = self.engine.options["UCI_ShowWDL"]
        self.assertEqual((option.type, option.default), ("check", False))
        info = self.engine.analyse(chess.Board(), chess.engine.Limit(depth=4))
        self.assertNotIn("wdl", info, "wdl without UCI_ShowWDL")

    def test_chances_follow_the_score(self):
        self.engine.configure({"UCI_ShowWDL": True})
        _, level = self.wdl(chess.STARTING_FEN)
        self.assertGreater(level.draws, 250, level)
        self.assertLess(abs(level.wins - level.losses), 300, level)
        # A queen up, either side to move: the side with the queen wins nearly always.
        _, up = self.wdl("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 20")
        self.assertGreater(up.wins, 900, up)
        _, down = self.wdl("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 20")
        self.assertGreater(down.losses, 900, down)

    def test_a_mate_is_certain(self):
        self.engine.configure({"UCI_ShowWDL": True})
        info, wdl = self.wdl("8/8/5R2/8/8/R1K5/1p1p4/1k6 w - - 0 1")
        self.assertEqual(info["score"].relative, chess.engine.Mate(2), info)
        self.assertEqual((wdl.wins, wdl.draws, wdl.losses), (1000, 0, 0))
        info, wdl = self.wdl("k7/8/1K6/8/8/8/8/7R b - - 0 1")  # 1... Kb8 2. Rh8#
        self.assertEqual(info["score"].relative, chess.engine.Mate(-1), info)
        self.assertEqual((wdl.wins, wdl.draws, wdl.losses), (0, 0, 1000), info)

    def test_every_line_has_it(self):
        if not IS_CCR:
            self.skipTest("ccr's own multipv and wdl together")
        self.engine.configure({"UCI_ShowWDL": True})
        infos = self.engine.analyse(chess.Board(), chess.engine.Limit(depth=5), multipv=3)
        self.assertTrue(all("wdl" in i for i in infos), infos)


if __name__ == "__main__":
    unittest.main()

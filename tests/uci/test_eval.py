"""The `Eval` option (README, "UCI"): `network` (the default), `frame` or `bitboards` picks the
static evaluation of the next search. The frame and the bitboards give the same score on every
position, so a fixed-depth search finds the same move with the same node count either way; the
network corrects that score, so its search differs; a limited strength searches with the frame,
its calibration's evaluator; a bad value is ignored with an `info string`."""

from __future__ import annotations

import unittest

from harness import IS_CCR, KIWIPETE, STANDARD, EngineCase, board_after, parse_info

OPTION = "option name Eval type combo default network var network var frame var bitboards"

POSITIONS = (
    "position startpos",
    f"position fen {KIWIPETE}",
    f"position fen {STANDARD['position3']}",
    "position fen 3r1rk1/p4ppp/1qp1b3/2b1P3/8/1BN1Q3/PPP3PP/3R1R1K b - - 0 20",
)


@unittest.skipUnless(IS_CCR, "ccr's own option (Eval)")
class EvalOption(EngineCase):
    timeout = 120

    def test_listed(self):
        e = self.e
        lines = [line.text for line in e.uci()]
        self.assertIn(OPTION, lines, e.log())

    def search(self, position: str, depth: int):
        """A fresh table, `position`, `go depth`: (bestmove line, nodes of the last info)."""
        e = self.e
        e.send("ucinewgame")
        e.isready()
        e.send(position)
        infos, best, _ = e.go(f"depth {depth}")
        self.assert_legal_bestmove(best, board_after(position), position)
        nodes = [parse_info(i)["nodes"] for i in infos if " nodes " in i]
        self.assertTrue(nodes, e.log())
        return best, nodes[-1]

    def test_bitboards_search_like_frame(self):
        e = self.e
        for position in POSITIONS:
            e.send("setoption name Eval value frame")
            e.isready()
            frame = self.search(position, 7)
            e.send("setoption name Eval value bitboards")
            before = e.isready()
            self.assertFalse([l for l in before if l.text.startswith("info string")], e.log())
            bitboards = self.search(position, 7)
            e.send("setoption name Eval value frame")
            e.isready()
            self.assertEqual(frame, bitboards, f"{position}\n{e.log()}")

    def test_network_is_the_default_and_not_the_frame(self):
        e = self.e
        default = [self.search(p, 7) for p in POSITIONS]
        e.send("setoption name Eval value network")
        e.isready()
        network = [self.search(p, 7) for p in POSITIONS]
        self.assertEqual(default, network, e.log())
        e.send("setoption name Eval value frame")
        e.isready()
        frame = [self.search(p, 7) for p in POSITIONS]
        self.assertNotEqual([n for _, n in network], [n for _, n in frame], e.log())

    def test_a_limited_strength_searches_with_the_frame(self):
        e = self.e
        budgeted = []
        for evaluator in ("network", "frame"):
            e.send(f"setoption name Eval value {evaluator}")
            e.send("setoption name UCI_LimitStrength value true")
            e.isready()
            budgeted.append(self.search("position startpos moves e2e4", 5))
        e.send("setoption name UCI_LimitStrength value false")
        e.isready()
        self.assertEqual(budgeted[0], budgeted[1], e.log())

    def test_bad_value_is_ignored_with_an_info_string(self):
        e = self.e
        for junk in ("setoption name Eval value nnue", "setoption name Eval value",
                     "setoption name Eval"):
            e.send(junk)
            before = e.isready()
            strings = [l.text for l in before if l.text.startswith("info string")]
            self.assertEqual(len(strings), 1, f"{junk!r}\n{e.log()}")
            self.assertIn("Eval", strings[0], e.log())
        # Still the engine it was: it searches.
        self.search("position startpos", 4)


if __name__ == "__main__":
    unittest.main()

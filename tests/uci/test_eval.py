"""The `Eval` option (README, "UCI"): `frame` or `bitboards` picks the static evaluation of the
next search. Both evaluators give the same score on every position, so a fixed-depth search
finds the same move with the same node count either way; a bad value is ignored with an
`info string`."""

from __future__ import annotations

import unittest

from harness import IS_CCR, KIWIPETE, STANDARD, EngineCase, board_after, parse_info

OPTION = "option name Eval type combo default frame var frame var bitboards"

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
            frame = self.search(position, 7)
            e.send("setoption name Eval value bitboards")
            before = e.isready()
            self.assertFalse([l for l in before if l.text.startswith("info string")], e.log())
            bitboards = self.search(position, 7)
            e.send("setoption name Eval value frame")
            e.isready()
            self.assertEqual(frame, bitboards, f"{position}\n{e.log()}")

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

"""The engine driven by python-chess exactly as a GUI would (SimpleEngine.popen_uci)."""

from __future__ import annotations

import logging
import time
import unittest

import chess
import chess.engine

from harness import KIWIPETE, ClientCase

logging.getLogger("chess.engine").setLevel(logging.CRITICAL)

MATE_IN_2 = ("8/8/5R2/8/8/R1K5/1p1p4/1k6 w - - 0 1", "f6f1")


class Client(ClientCase):
    def play(self, board, limit, **kw) -> chess.engine.PlayResult:
        res = self.engine.play(board, limit, **kw)
        if res.move is None or res.move not in board.legal_moves:
            self.fail(f"play({board.fen()}, {limit}): move {res.move} is not legal")
        return res

    def test_id_and_options(self):
        e = self.engine
        self.assertTrue(e.id.get("name"), "id name")
        self.assertTrue(e.id.get("author"), "id author")
        want = {"Hash": "spin", "Threads": "spin", "Clear Hash": "button", "Move Overhead": "spin"}
        for name, kind in want.items():
            self.assertIn(name, e.options, f"option {name}")
            self.assertEqual(e.options[name].type, kind, f"type of option {name}")
        e.configure({"Hash": 32, "Threads": 1, "Move Overhead": 30})
        e.configure({"Clear Hash": None})
        e.ping()
        self.play(chess.Board(), chess.engine.Limit(depth=4))

    def test_threads_2(self):
        e = self.engine
        if e.options["Threads"].max < 2:
            self.skipTest("Threads max is 1")
        e.configure({"Threads": 2})
        board = chess.Board(KIWIPETE)
        self.play(board, chess.engine.Limit(depth=6))
        self.play(board, chess.engine.Limit(time=0.2))
        e.configure({"Threads": 1})
        self.play(board, chess.engine.Limit(depth=5))

    def test_analyse_info(self):
        board = chess.Board(KIWIPETE)
        info = self.engine.analyse(board, chess.engine.Limit(depth=8))
        for key in ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"):
            self.assertIn(key, info, f"analyse(depth 8) info lacks {key}: {info}")
        self.assertEqual(info["depth"], 8)
        b = board.copy()
        for m in info["pv"]:
            self.assertIn(m, b.legal_moves, f"pv {info['pv']}")
            b.push(m)

    def test_play_limits(self):
        """Each limit is obeyed: depth 5 reports depth 5 and no deeper, nodes 5000 at most
        5000 nodes (1 % slack for engines that check every few nodes), the time limits end
        in time."""
        board = chess.Board()
        for uci in "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3".split():
            board.push_uci(uci)
        for limit in (chess.engine.Limit(depth=5), chess.engine.Limit(nodes=5000),
                      chess.engine.Limit(time=0.1),
                      chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05),
                      chess.engine.Limit(white_clock=2, black_clock=2, remaining_moves=10)):
            t = time.monotonic()
            res = self.play(board, limit, info=chess.engine.INFO_BASIC)
            took = time.monotonic() - t
            if limit.depth is not None and res.info.get("depth") != limit.depth:
                self.fail(f"play with {limit}: last info depth {res.info.get('depth')}")
            if limit.nodes is not None:
                nodes = res.info.get("nodes")
                if nodes is None or nodes > limit.nodes * 1.01:
                    self.fail(f"play with {limit}: last info nodes {nodes}")
            if limit.time is not None and took > limit.time + 0.15:
                self.fail(f"play with {limit} took {took:.3f} s")
            if limit.white_clock is not None and took > 1.0:
                self.fail(f"play with {limit} took {took:.3f} s")

    def test_mate(self):
        fen, key = MATE_IN_2
        board = chess.Board(fen)
        res = self.play(board, chess.engine.Limit(mate=2), info=chess.engine.INFO_SCORE)
        self.assertEqual(res.move.uci(), key)
        self.assertEqual(res.info.get("score"), chess.engine.PovScore(chess.engine.Mate(2), chess.WHITE))
        info = self.engine.analyse(board, chess.engine.Limit(depth=6))
        self.assertEqual(info["score"].white(), chess.engine.Mate(2), info)

    def test_root_moves(self):
        board = chess.Board()
        allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
        res = self.play(board, chess.engine.Limit(depth=5), root_moves=allowed)
        self.assertIn(res.move, allowed)

    def test_analysis_infinite_and_stop(self):
        board = chess.Board(KIWIPETE)
        with self.engine.analysis(board) as analysis:
            time.sleep(0.5)
            t = time.monotonic()
            analysis.stop()
            best = analysis.wait()
            took = time.monotonic() - t
        self.assertIsNotNone(best.move)
        self.assertIn(best.move, board.legal_moves)
        self.assertLess(took, 0.2, "stop → bestmove")
        self.assertIn("pv", analysis.info)
        # The engine is still usable.
        self.play(board, chess.engine.Limit(depth=3))

    def test_game_over_positions(self):
        mate = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        res = self.engine.play(mate, chess.engine.Limit(depth=3))
        self.assertIsNone(res.move, "bestmove in a checkmate")
        stale = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        res = self.engine.play(stale, chess.engine.Limit(depth=3))
        self.assertIsNone(res.move, "bestmove in a stalemate")

    def test_new_games(self):
        """python-chess sends ucinewgame when the game object changes, and the engine then
        forgets the previous game: the same depth-limited search (one thread, so the count is
        deterministic) counts as many nodes in a new game as it did first, while in the same
        game the hash table it kept makes the search cheaper."""
        e = self.engine
        e.configure({"Threads": 1})
        board = chess.Board(KIWIPETE)
        limit = chess.engine.Limit(depth=7)
        first = e.analyse(board, limit, game="first")["nodes"]
        again = e.analyse(board, limit, game="first")["nodes"]
        new = e.analyse(board, limit, game="second")["nodes"]
        self.assertLess(again, first, "the same search in the same game (hash table kept)")
        self.assertEqual(new, first, "the same search after ucinewgame")
        for game in range(3):
            board = chess.Board()
            for _ in range(6):
                res = self.play(board, chess.engine.Limit(nodes=2000), game=game)
                board.push(res.move)


if __name__ == "__main__":
    unittest.main()

"""Chess960 through python-chess and on the raw pipe: `UCI_Chess960`, castling fields in
X-FEN and Shredder-FEN, castling sent and read as the king taking its own rook, and games
from Chess960 start positions with every move legal."""

from __future__ import annotations

import logging
import random
import unittest

import chess
import chess.engine

from harness import IS_CCR, ClientCase, EngineCase, bestmove_of, parse_info

logging.getLogger("chess.engine").setLevel(logging.CRITICAL)

# White mates in one only by castling queen side (king b1 to c1, rook a1 to d1): the rook
# cannot reach d1 alone, the king stands in its way.
CASTLING_MATE = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"
# The same rights in X-FEN (`Q`, the outermost rook) for a GUI that writes X-FEN.
CASTLING_MATE_XFEN = "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1"
# Chess960 start position 0 after a few moves, both sides still holding all four rights.
SHREDDER = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


def castling_positions(count: int):
    """`count` seeded (board, castling move) pairs from random play from Chess960 starts,
    king or rook off the standard squares."""
    rng = random.Random(9600)
    found = []
    while len(found) < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(40):
            castles = [m for m in board.legal_moves if board.is_castling(m)]
            if castles and board.has_chess960_castling_rights():
                found.append((board.copy(), rng.choice(castles)))
                break
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    return found


class ThroughPythonChess(ClientCase):
    def test_the_option(self):
        option = self.engine.options["UCI_Chess960"]
        self.assertEqual((option.type, option.default), ("check", False))

    def test_mate_by_castling(self):
        board = chess.Board(CASTLING_MATE, chess960=True)
        result = self.engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        self.assertTrue(board.is_castling(result.move), result)
        self.assertEqual(result.move.uci(), "b1a1")
        self.assertEqual(result.info["score"].relative, chess.engine.Mate(1), result.info)

    def test_variations_are_legal_chess960_moves(self):
        board = chess.Board(SHREDDER, chess960=True)
        infos = self.engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        self.assertEqual(len(infos), 3, infos)
        for info in infos:
            b = board.copy()
            for move in info["pv"]:
                self.assertIn(move, b.legal_moves, f"pv {info['pv']} of {board.fen()}")
                b.push(move)

    def test_games_from_chess960_starts(self):
        """ccr against itself from seeded Chess960 start positions: python-chess rejects any
        illegal move; the games must castle."""
        rng = random.Random(960)
        castles = 0
        for _ in range(4):
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            for _ in range(60):
                if board.is_game_over(claim_draw=True):
                    break
                result = self.engine.play(board, chess.engine.Limit(nodes=3000))
                self.assertIn(result.move, board.legal_moves, board.fen())
                castles += board.is_castling(result.move)
                board.push(result.move)
        self.assertGreater(castles, 0)


class OnThePipe(EngineCase):
    def position(self, fen: str, moves: str = "") -> None:
        tail = f" moves {moves}" if moves else ""
        self.e.send(f"position fen {fen}{tail}")

    def test_castling_is_the_king_taking_its_rook(self):
        e = self.e
        e.send("setoption name UCI_Chess960 value true")
        for fen in (CASTLING_MATE, CASTLING_MATE_XFEN):
            self.position(fen)
            infos, best, _ = e.go("depth 3")
            self.assertEqual(bestmove_of(best), "b1a1", infos)
            last = [parse_info(i) for i in infos if i.startswith("info depth")][-1]
            self.assertEqual(last["score"][:2], ("mate", 1), infos)
        # Read back as castling: Black is mated.
        self.position(CASTLING_MATE, "b1a1")
        _, best, _ = e.go("depth 1")
        self.assertEqual(bestmove_of(best), "(none)")

    def test_searchmoves_take_chess960_text(self):
        e = self.e
        e.send("setoption name UCI_Chess960 value true")
        for board, castle in castling_positions(6):
            self.position(board.fen())
            _, best, _ = e.go(f"depth 2 searchmoves {castle.uci()}")
            self.assertEqual(bestmove_of(best), castle.uci(), board.fen())
            # Read back as castling, in Shredder-FEN too.
            self.position(board.shredder_fen(), castle.uci())
            after = board.copy()
            after.push(castle)
            _, best, _ = e.go("depth 2")
            self.assertIn(chess.Move.from_uci(bestmove_of(best)), after.legal_moves, after.fen())

    def test_the_notation_follows_the_position_when_chess960_is_turned_off(self):
        """A Chess960 position set with the option on keeps its castling as the king taking
        its rook after `UCI_Chess960 false`, in bestmove, in the PV and in searchmoves (the
        king's target would be `b1c1`, a king's step, or `g1g1` with the king on g1),
        until another position is set."""
        e = self.e
        cases = [(chess.Board(CASTLING_MATE, chess960=True), chess.Move.from_uci("b1a1"))]
        cases += castling_positions(6)
        for board, castle in cases:
            e.send("setoption name UCI_Chess960 value true")
            self.position(board.fen())
            e.send("setoption name UCI_Chess960 value false")
            infos, best, _ = e.go(f"depth 2 searchmoves {castle.uci()}")
            self.assertEqual(bestmove_of(best), castle.uci(), f"{board.fen()}: {best}")
            pvs = [parse_info(i)["pv"] for i in infos if i.startswith("info depth")]
            self.assertTrue(pvs, infos)
            for pv in pvs:
                line = board.copy()
                for text in pv:
                    move = chess.Move.from_uci(text)
                    self.assertIn(move, line.legal_moves, f"pv {pv} of {board.fen()}")
                    line.push(move)
        # The mate by castling, found and written so with the option off.
        e.send("setoption name UCI_Chess960 value true")
        self.position(CASTLING_MATE)
        e.send("setoption name UCI_Chess960 value false")
        infos, best, _ = e.go("depth 3")
        self.assertEqual(bestmove_of(best), "b1a1", infos)
        # A new position is read and written as standard chess.
        self.position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
        _, best, _ = e.go("depth 2 searchmoves e8g8")
        self.assertEqual(bestmove_of(best), "e8g8")

    def test_without_chess960_a_chess960_setup_is_refused(self):
        e = self.e
        self.position(CASTLING_MATE)
        line, _ = e.expect(lambda t: t.startswith("info string"), what="the refusal")
        if IS_CCR:
            self.assertIn("Chess960", line.text)
        # The standard position stays and is searched.
        _, best, _ = e.go("depth 1")
        self.assertIn(chess.Move.from_uci(bestmove_of(best)), chess.Board().legal_moves)

    def test_standard_castling_text_without_chess960(self):
        e = self.e
        self.position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1")
        _, best, _ = e.go("depth 1")
        board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        board.push_uci("e1g1")
        self.assertIn(chess.Move.from_uci(bestmove_of(best)), board.legal_moves)
        # Black castles: written as the king's move to its target.
        e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
        _, best, _ = e.go("depth 2 searchmoves e8g8")
        self.assertEqual(bestmove_of(best), "e8g8")


if __name__ == "__main__":
    unittest.main()

"""Syzygy tablebases (`SyzygyPath`, `ccr probe`) on python-chess's 3-4-piece tables (put in
target/test-data/syzygy by `make setup-uci`): the prober against python-chess's own
(`chess.syzygy`) over random positions, WDL and DTZ exactly."""

from __future__ import annotations

import random
import subprocess
import unittest

import chess
import chess.syzygy

from harness import ENGINE, IS_CCR, REPO

TABLES = REPO / "target" / "test-data" / "syzygy"


def need_tables(case: unittest.TestCase) -> None:
    if not (TABLES / "KQvK.rtbw").is_file():
        case.skipTest(f"{TABLES} missing: make setup-uci")


def materials() -> list:
    """The tables' materials, `KRPvKN` (White first as named; the generator swaps colours)."""
    return sorted(p.stem for p in TABLES.glob("*.rtbw"))


def place(rng: random.Random, pieces, board: chess.Board) -> None:
    """Puts `pieces` ((colour, symbol) pairs) on random empty squares, pawns off the back ranks."""
    for colour, symbol in pieces:
        piece = chess.Piece.from_symbol(symbol.upper() if colour == chess.WHITE else symbol.lower())
        while True:
            square = rng.randrange(64)
            if board.piece_at(square) is None and (symbol != "P" or 8 <= square < 56):
                board.set_piece_at(square, piece)
                break


def random_position(rng: random.Random, material: str) -> chess.Board:
    """A random legal position of `material`, either colour the named first side, either to move."""
    first, second = material.split("v")
    swap = rng.random() < 0.5
    colours = (chess.BLACK, chess.WHITE) if swap else (chess.WHITE, chess.BLACK)
    pieces = [(colours[0], c) for c in first] + [(colours[1], c) for c in second]
    while True:
        board = chess.Board(None)
        place(rng, pieces, board)
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def en_passant_position(rng: random.Random) -> chess.Board:
    """A random legal KPvKP position in which the side to move's pawn stands beside the enemy
    pawn that has just skipped a square: the en-passant square is set (the capture may still
    be illegal, or be the only move, or lose)."""
    while True:
        turn = rng.random() < 0.5
        board = chess.Board(None)
        board.turn = turn
        file = rng.randrange(8)
        side = rng.choice([d for d in (-1, 1) if 0 <= file + d < 8])
        rank = 4 if turn == chess.WHITE else 3
        step = 1 if turn == chess.WHITE else -1
        board.set_piece_at(chess.square(file + side, rank), chess.Piece(chess.PAWN, turn))
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not turn))
        board.ep_square = chess.square(file, rank + step)
        if board.piece_at(chess.square(file, rank + 2 * step)) is not None:
            continue
        place(rng, [(chess.WHITE, "K"), (chess.BLACK, "K")], board)
        if board.piece_at(board.ep_square) or board.piece_at(chess.square(file, rank + 2 * step)):
            continue
        if board.is_valid():
            return board


def probe(fens: list, path=TABLES) -> subprocess.CompletedProcess:
    return subprocess.run([ENGINE, "probe", "--syzygy", str(path)], input="\n".join(fens) + "\n",
                          capture_output=True, text=True, timeout=60)


class AgainstPythonChess(unittest.TestCase):
    def setUp(self):
        if not IS_CCR:
            self.skipTest("ccr's own command line: ccr probe")
        need_tables(self)

    def test_wdl_and_dtz_equal_python_chess(self):
        rng = random.Random(42)
        boards = [random_position(rng, m) for m in materials() for _ in range(100)]
        boards += [en_passant_position(rng) for _ in range(500)]
        fens = [b.fen(en_passant="fen") for b in boards]
        done = probe(fens)
        self.assertEqual(done.returncode, 0, done.stderr)
        got = done.stdout.splitlines()
        self.assertEqual(len(got), len(boards))
        wrong = []
        legal_ep = 0
        with chess.syzygy.open_tablebase(str(TABLES)) as tb:
            for board, fen, line in zip(boards, fens, got):
                want = f"wdl {tb.probe_wdl(board)} dtz {tb.probe_dtz(board)}"
                legal_ep += board.has_legal_en_passant()
                if line != want:
                    wrong.append((fen, line, want))
        self.assertEqual(wrong[:10], [], f"{len(wrong)} of {len(boards)} differ (fen, ccr, python-chess)")
        self.assertGreater(legal_ep, 250, "too few positions with a legal en-passant capture")
        self.assertGreater(sum(1 for line in got if line != "wdl 0 dtz 0"), len(got) // 3, "too few decided")

    def test_positions_out_of_the_tables(self):
        done = probe(["4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",  # castling rights
                      "4k3/8/8/8/8/8/8/RR2K2R w - - 0 1",  # five pieces
                      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                      "8/8/8/8/8/8/8/K1k5 w - - 0 1"])  # bare kings: a draw
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.splitlines(), [
            "not in tables: castling rights", "not in tables: 5 pieces, the tables hold at most 4",
            "not in tables: 32 pieces, the tables hold at most 4", "wdl 0 dtz 0"])

    def test_bad_input_is_one_error_line(self):
        for fens, path, message in [(["8/8/8/8 w - - 0 1"], TABLES, "error: invalid FEN: line 1"),
                                    (["8/8/8/8/8/8/8/K1k5 w - - 0 1"], "/no/such/dir", "error: --syzygy: no such directory"),
                                    (["8/8/8/8/8/8/8/K1k5 w - - 0 1"], REPO / "tests", "error: --syzygy: no Syzygy tables")]:
            done = probe(fens, path)
            self.assertEqual(done.returncode, 2, done)
            self.assertEqual(done.stdout, "")
            self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
            self.assertTrue(done.stderr.startswith(message), done.stderr)


"""The Polyglot book: keys equal to python-chess's `chess.polyglot.zobrist_hash`, and moves
played from a real book (python-chess's data/polyglot/performance.bin, put in
target/test-data by `make setup-uci`) as its entries and weights say, through `OwnBook` and
`BookFile`."""

from __future__ import annotations

import collections
import os
import random
import struct
import subprocess
import tempfile
import unittest

import chess
import chess.polyglot

from harness import ENGINE, IS_CCR, REPO, EngineCase, bestmove_of, board_after

BOOK = REPO / "target" / "test-data" / "polyglot" / "performance.bin"


def random_positions(count: int, seed: int) -> list:
    """Positions of random games, each FEN written with its en-passant square whenever a pawn
    has just skipped one (legal capture or not), so that both cases of the key are met."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Pawn moves first half of the time: more double pushes beside enemy pawns.
            pawn = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            board.push(rng.choice(pawn if pawn and rng.random() < 0.5 else moves))
            fens.append((board.fen(en_passant="fen"), chess.polyglot.zobrist_hash(board)))
    return fens[:count]


class Keys(unittest.TestCase):
    def test_equal_to_python_chess(self):
        if not IS_CCR:
            self.skipTest("ccr's own command line: ccr key --polyglot")
        cases = random_positions(5000, 1)
        done = subprocess.run([ENGINE, "key", "--polyglot"], input="\n".join(f for f, _ in cases),
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        keys = done.stdout.split()
        self.assertEqual(len(keys), len(cases))
        wrong = [(fen, got, f"{want:016x}") for (fen, want), got in zip(cases, keys) if got != f"{want:016x}"]
        self.assertEqual(wrong[:5], [], f"{len(wrong)} of {len(cases)} keys differ")
        with_ep = sum(1 for fen, _ in cases if fen.split()[3] != "-")
        self.assertGreater(with_ep, 100, "too few positions with an en-passant square")


def write_book(path: str, entries: list) -> None:
    """A Polyglot book of (board, uci move, weight) entries, sorted by key as the format wants;
    castling written as the king taking its rook."""
    raw = []
    for board, uci, weight in entries:
        move = chess.Move.from_uci(uci)
        to = move.to_square
        if board.is_castling(move):
            to = chess.square(7 if chess.square_file(to) > 4 else 0, chess.square_rank(to))
        promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion]
        code = (chess.square_file(to) | chess.square_rank(to) << 3 | chess.square_file(move.from_square) << 6
                | chess.square_rank(move.from_square) << 9 | promotion << 12)
        raw.append(struct.pack(">QHHI", chess.polyglot.zobrist_hash(board), code, weight, 0))
    with open(path, "wb") as f:
        f.write(b"".join(sorted(raw)))


class Play(EngineCase):
    def setUp(self):
        super().setUp()
        if not IS_CCR:
            self.skipTest("ccr's own book options")
        if not BOOK.is_file():
            self.skipTest(f"{BOOK} missing: make setup-uci")

    def use_book(self, path) -> None:
        self.e.send(f"setoption name BookFile value {path}")
        self.e.send("setoption name OwnBook value true")
        lines = self.e.isready()
        self.assertFalse([l.text for l in lines if l.text.startswith("info string")], "the book was refused")

    def test_options(self):
        lines = [l.text for l in self.e.uci()]
        self.assertIn("option name OwnBook type check default false", lines)
        self.assertIn("option name BookFile type string default <empty>", lines)

    def test_moves_come_from_the_book_by_weight(self):
        self.use_book(BOOK)
        board = chess.Board()
        with chess.polyglot.open_reader(str(BOOK)) as reader:
            weights = {e.move.uci(): e.weight for e in reader.find_all(board)}
        self.assertGreater(len(weights), 2)
        self.e.send("position startpos")
        seen = collections.Counter()
        for _ in range(300):
            infos, best, took = self.e.go("wtime 60000 btime 60000")
            seen[bestmove_of(best)] += 1
            self.assertLess(took, 0.5, "a book move is answered at once")
            self.assertFalse([i for i in infos if i.startswith("info depth")], "a book move needs no search")
        self.assertLessEqual(set(seen), {m for m, w in weights.items() if w > 0}, seen)
        total = sum(weights.values())
        for move, weight in weights.items():
            expected = 300 * weight / total
            # Five standard deviations of a binomial count: fails by chance about once in 10^6.
            spread = 5 * (300 * (weight / total) * (1 - weight / total)) ** 0.5 + 1
            self.assertLess(abs(seen[move] - expected), spread, f"{move}: {seen[move]} of 300, weights {weights}")

    def test_a_game_leaves_the_book_and_searches(self):
        self.use_book(BOOK)
        board = chess.Board()
        moves = []
        searched = False
        for _ in range(40):
            position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
            self.e.send(position)
            infos, best, _ = self.e.go("depth 3")
            move = self.assert_legal_bestmove(best, board, position)
            with chess.polyglot.open_reader(str(BOOK)) as reader:
                in_book = {e.move for e in reader.find_all(board) if e.weight > 0}
            if in_book:
                self.assertIn(move, in_book, f"{position}: {move} is not a book move")
            else:
                searched = True
                self.assertTrue([i for i in infos if i.startswith("info depth")], f"{position}: no search")
            board.push(move)
            moves.append(move.uci())
            if board.is_game_over():
                break
        self.assertTrue(searched, "the game never left the book")

    def test_castling_is_the_king_taking_its_rook(self):
        board = chess.Board("r3k2r/pppq1ppp/2n2n2/4p3/4P3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "castle.bin")
            write_book(path, [(board, "e1g1", 1)])
            self.use_book(path)
            self.e.send(f"position fen {board.fen()}")
            _, best, _ = self.e.go("depth 5")
            self.assertEqual(bestmove_of(best), "e1g1")
            write_book(path, [(board, "e1c1", 1)])
            self.use_book(path)
            _, best, _ = self.e.go("depth 5")
            self.assertEqual(bestmove_of(best), "e1c1")

    def test_searchmoves_and_weightless_entries(self):
        board = chess.Board()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "small.bin")
            write_book(path, [(board, "e2e4", 10), (board, "d2d4", 0), (board, "g1f3", 1)])
            self.use_book(path)
            self.e.send("position startpos")
            for _ in range(30):
                _, best, _ = self.e.go("depth 2 searchmoves g1f3 d2d4")
                self.assertEqual(bestmove_of(best), "g1f3")
            # Only a weightless entry left: the engine searches.
            infos, best, _ = self.e.go("depth 2 searchmoves d2d4")
            self.assertEqual(bestmove_of(best), "d2d4")
            self.assertTrue([i for i in infos if i.startswith("info depth")], "no search")

    def test_no_book_when_off_or_analysing(self):
        self.use_book(BOOK)
        self.e.send("setoption name OwnBook value false")
        self.e.send("position startpos")
        infos, _, _ = self.e.go("depth 3")
        self.assertTrue([i for i in infos if i.startswith("info depth 3")], "OwnBook false still searches")
        self.e.send("setoption name OwnBook value true")
        self.e.send("go infinite")
        lines = self.e.drain(0.3)
        self.assertFalse([l.text for l in lines if l.text.startswith("bestmove")], "go infinite answered from the book")
        self.e.send("stop")
        self.e.expect("bestmove", 5.0, "bestmove after stop")
        infos, _, _ = self.e.go("mate 1 depth 3")
        self.assertTrue([i for i in infos if i.startswith("info depth")], "go mate answered from the book")

    def test_bad_book_files_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            odd = os.path.join(tmp, "odd.bin")
            with open(odd, "wb") as f:
                f.write(b"\0" * 17)
            empty = os.path.join(tmp, "empty.bin")
            open(empty, "wb").close()
            for path in (os.path.join(tmp, "missing.bin"), tmp, odd, empty):
                self.e.send(f"setoption name BookFile value {path}")
                lines = [l.text for l in self.e.isready()]
                self.assertTrue([l for l in lines if l.startswith("info string option BookFile not changed")],
                                f"{path}: {lines}")
            self.e.send("setoption name OwnBook value maybe")
            lines = [l.text for l in self.e.isready()]
            self.assertIn("info string option OwnBook is true or false", lines)
            # No book: the engine searches as ever.
            self.e.send("setoption name OwnBook value true")
            self.e.send("position startpos")
            infos, best, _ = self.e.go("depth 3")
            self.assert_legal_bestmove(best, chess.Board(), "no book")
            self.assertTrue([i for i in infos if i.startswith("info depth 3")])

    def test_a_fifo_is_refused_at_once(self):
        """A FIFO named as the book is never opened for reading (that would wait for a
        writer): refused at once, the book opened before kept."""
        self.use_book(BOOK)
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "book.bin")
            os.mkfifo(fifo)
            self.e.send(f"setoption name BookFile value {fifo}")
            lines = [l.text for l in self.e.isready()]
            self.assertEqual(len(lines), 1, lines)
            self.assertTrue(lines[0].startswith("info string option BookFile not changed"), lines)
            self.assertIn("not a regular file", lines[0])
        self.e.send("position startpos")
        infos, best, _ = self.e.go("wtime 60000 btime 60000")
        self.assertTrue([i for i in infos if i.startswith("info string book move")], infos)

    def test_a_book_replaced_under_the_engine(self):
        """The book file shrunk after it was opened: reads fail, the engine says so and searches."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "book.bin")
            with open(BOOK, "rb") as src, open(path, "wb") as dst:
                dst.write(src.read())
            self.use_book(path)
            with open(path, "r+b") as f:
                f.truncate(16)
            self.e.send("position startpos moves e2e4")
            infos, best, _ = self.e.go("depth 3")
            self.assert_legal_bestmove(best, board_after("position startpos moves e2e4"), "shrunk book")


if __name__ == "__main__":
    unittest.main()

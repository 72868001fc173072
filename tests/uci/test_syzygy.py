"""Syzygy tablebases (`SyzygyPath`, `ccr probe`) on python-chess's 3-4-piece tables (put in
target/test-data/syzygy by `make setup-uci`): the prober against python-chess's own
(`chess.syzygy`) over random positions, WDL and DTZ exactly; the options through a real
client; the root move kept in the tables' best rank; and won endings converted against
Stockfish without tables, within the fifty-move rule."""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.syzygy

from harness import ENGINE, ENGINE_ARGS, IS_CCR, OUT_DIR, REPO, ClientCase, EngineCase, parse_info

STOCKFISH = "/usr/games/stockfish"
# Stockfish's scale of root ranks (`Tablebases::root_probe`).
MAX_DTZ = 1 << 18
# Scores at or beyond this (centipawns) are ccr's tablebase wins; mates are reported as mates.
TB_WIN_BELOW = 31_000

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

    def test_little_memory_is_an_error_not_an_abort(self):
        # The prober maps a table at its first probe and aborts if it cannot: the tables'
        # room is asked for at load time instead.
        fen = "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1"
        outcomes = set()
        for kib in range(4000, 20001, 1000):
            done = subprocess.run(["bash", "-c", f'ulimit -v {kib}; exec "$0" probe --syzygy "$1"',
                                   ENGINE, str(TABLES)], input=fen + "\n", capture_output=True, text=True,
                                  timeout=60)
            if "error while loading shared libraries" in done.stderr:
                continue  # too little for the dynamic loader: ccr never ran
            if done.returncode == 0:
                self.assertEqual(done.stdout, "wdl -2 dtz -53\n", kib)
            else:
                self.assertEqual(done.returncode, 2, (kib, done))
                self.assertEqual(done.stdout, "", kib)
                self.assertRegex(done.stderr, r"^error: [^\n]*\n$", kib)
            outcomes.add(done.returncode)
        self.assertEqual(outcomes, {0, 2}, "the limits should span both")

    def test_bad_input_is_one_error_line(self):
        for fens, path, message in [(["8/8/8/8 w - - 0 1"], TABLES, "error: invalid FEN: line 1"),
                                    (["8/8/8/8/8/8/8/K1k5 w - - 0 1"], "/no/such/dir", "error: --syzygy: no such directory"),
                                    (["8/8/8/8/8/8/8/K1k5 w - - 0 1"], REPO / "tests", "error: --syzygy: no Syzygy tables")]:
            done = probe(fens, path)
            self.assertEqual(done.returncode, 2, done)
            self.assertEqual(done.stdout, "")
            self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
            self.assertTrue(done.stderr.startswith(message), done.stderr)



def root_ranks(tb: chess.syzygy.Tablebase, board: chess.Board) -> dict:
    """The rank of each root move, from python-chess's probes: the move's DTZ from the root,
    then Stockfish's rank with the half-move clock (`Tablebases::root_probe`; no repetitions:
    a position from a FEN), except that a win the fifty-move rule cannot spoil ranks by its
    DTZ too (ccr's departure: it plays a DTZ-optimal winning move)."""
    cnt50 = board.halfmove_clock
    ranks = {}
    for move in board.legal_moves:
        board.push(move)
        if board.halfmove_clock == 0:
            dtz = {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-tb.probe_wdl(board)]
        else:
            dtz = -tb.probe_dtz(board)
            dtz = dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0
        if board.is_checkmate():
            dtz = 1
        board.pop()
        if dtz > 0:
            rank = MAX_DTZ - dtz if dtz + cnt50 <= 99 else MAX_DTZ - (dtz + cnt50)
        elif dtz < 0:
            rank = -MAX_DTZ if -dtz * 2 + cnt50 < 100 else -MAX_DTZ + (-dtz + cnt50)
        else:
            rank = 0
        ranks[move] = rank
    return ranks


# Won endings for White (checked against the tables by the tests), and a KQvKR win.
WINS = {
    "KQvK": "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
    "KRvK": "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "KBNvK": "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
    "KPvK": "8/8/8/2k5/8/8/2KP4/8 w - - 0 1",
}
KQVKR = "8/8/8/4k3/8/2r5/8/3QK3 w - - 0 1"
# Five pieces: every capture of Black's rook reaches the 4-piece tables.
FIVE = "8/8/8/4k3/8/2r5/8/R2QK3 w - - 0 1"


class Options(ClientCase):
    """Through python-chess, as a GUI sees them."""

    def setUp(self):
        super().setUp()
        need_tables(self)

    def test_standard_names_and_defaults(self):
        o = self.engine.options
        self.assertEqual((o["SyzygyPath"].type, o["SyzygyPath"].default), ("string", "<empty>"))
        self.assertEqual((o["SyzygyProbeDepth"].type, o["SyzygyProbeDepth"].default), ("spin", 1))
        self.assertEqual((o["SyzygyProbeDepth"].min, o["SyzygyProbeDepth"].max), (1, 100))
        self.assertEqual((o["Syzygy50MoveRule"].type, o["Syzygy50MoveRule"].default), ("check", True))
        self.assertEqual((o["SyzygyProbeLimit"].type, o["SyzygyProbeLimit"].default), ("spin", 7))
        self.assertEqual((o["SyzygyProbeLimit"].min, o["SyzygyProbeLimit"].max), (0, 7))

    def test_tbhits_below_the_root(self):
        self.engine.configure({"SyzygyPath": str(TABLES)})
        info = self.engine.analyse(chess.Board(FIVE), chess.engine.Limit(depth=6))
        self.assertGreater(info.get("tbhits", 0), 0, info)
        self.assertTrue(info["score"].relative > chess.engine.Cp(0), info)

    def test_a_tablebase_win_scores_below_mate_and_above_evaluations(self):
        if not IS_CCR:
            self.skipTest("ccr's own scale of tablebase scores")
        self.engine.configure({"SyzygyPath": str(TABLES)})
        for fen in WINS.values():
            for board, sign in [(chess.Board(fen), 1), (chess.Board(fen).mirror(), 1)]:
                info = self.engine.analyse(board, chess.engine.Limit(depth=4))
                score = info["score"].relative
                self.assertFalse(score.is_mate(), (fen, info))
                self.assertGreaterEqual(sign * score.score(), TB_WIN_BELOW, (fen, info))
                self.assertGreater(info["tbhits"], 0, info)
        # The side that loses, to move: a win for the other side, by sign.
        board = chess.Board(WINS["KRvK"].replace(" w ", " b "))
        info = self.engine.analyse(board, chess.engine.Limit(depth=4))
        self.assertLessEqual(info["score"].relative.score(), -TB_WIN_BELOW, info)
        # A mate the search proves is still shown as the mate.
        info = self.engine.analyse(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"), chess.engine.Limit(depth=4))
        self.assertEqual(info["score"].relative, chess.engine.Mate(1), info)

    def test_the_root_move_keeps_the_best_rank(self):
        if not IS_CCR:
            self.skipTest("ccr's own root ranking (Stockfish searches some of the same rank differently)")
        self.engine.configure({"SyzygyPath": str(TABLES)})
        with chess.syzygy.open_tablebase(str(TABLES)) as tb:
            for fen in list(WINS.values()) + [KQVKR]:
                for clock in (0, 60, 90):
                    fields = fen.split()
                    fields[4] = str(clock)
                    board = chess.Board(" ".join(fields))
                    self.assertEqual(tb.probe_wdl(board), 2, board.fen())
                    ranks = root_ranks(tb, board)
                    move = self.engine.play(board, chess.engine.Limit(depth=5)).move
                    self.assertEqual(ranks[move], max(ranks.values()), f"{board.fen()}: {move} {ranks}")
                    board.push(move)
                    self.assertEqual(tb.probe_wdl(board), -2, f"{fen}: {move} lets the win go")

    def test_multipv_lines_come_by_rank(self):
        if not IS_CCR:
            self.skipTest("ccr's own root ranking")
        self.engine.configure({"SyzygyPath": str(TABLES)})
        board = chess.Board(KQVKR)
        infos = self.engine.analyse(board, chess.engine.Limit(depth=4), multipv=5)
        self.assertEqual(len(infos), 5, infos)
        with chess.syzygy.open_tablebase(str(TABLES)) as tb:
            ranks = root_ranks(tb, board)
        got = [ranks[i["pv"][0]] for i in infos]
        self.assertEqual(got, sorted(ranks.values(), reverse=True)[:5], infos)


class Pipe(EngineCase):
    """On the raw pipe: the info strings and the search without tables."""

    def setUp(self):
        super().setUp()
        if not IS_CCR:
            self.skipTest("ccr's own info strings")
        need_tables(self)

    def strings(self, command: str) -> list:
        self.e.send(command)
        return [l.text for l in self.e.isready() if l.text.startswith("info string")]

    def test_paths_without_tables_are_refused(self):
        for path, why in [("/no/such/dir", "no such directory"), (str(REPO / "tests"), "no Syzygy tables")]:
            said = self.strings(f"setoption name SyzygyPath value {path}")
            self.assertEqual(len(said), 1, said)
            self.assertIn("SyzygyPath not changed", said[0])
            self.assertIn(why, said[0])
        said = self.strings(f"setoption name SyzygyPath value {TABLES}")
        self.assertEqual(said, ["info string SyzygyPath: 35 WDL and 35 DTZ tables found, up to 4 pieces, copied into memory"])
        # A bad path later keeps the tables loaded.
        self.strings("setoption name SyzygyPath value /no/such/dir")
        self.e.send(f"position fen {WINS['KRvK']}")
        infos, _, _ = self.e.go("depth 3")
        self.assertTrue(any("tbhits" in parse_info(i) for i in infos if i.startswith("info depth")), infos)

    def test_bad_values_are_ignored_with_a_reason(self):
        for command in ["setoption name SyzygyProbeDepth value 0", "setoption name SyzygyProbeLimit value 8",
                        "setoption name SyzygyProbeLimit value x", "setoption name Syzygy50MoveRule value yes"]:
            said = self.strings(command)
            self.assertEqual(len(said), 1, (command, said))

    def nodes(self, fen: str, depth: int) -> tuple:
        self.e.send("ucinewgame")
        self.e.send(f"position fen {fen}")
        infos, best, _ = self.e.go(f"depth {depth}")
        last = parse_info([i for i in infos if i.startswith("info depth")][-1])
        return last["nodes"], best, "tbhits" in last

    def test_no_path_no_change(self):
        # Without tables, unloaded, or with tables the search never reaches: the same search.
        fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
        before = self.nodes(fen, 8)
        self.assertFalse(before[2], "tbhits without tables")
        self.strings(f"setoption name SyzygyPath value {TABLES}")
        loaded = self.nodes(fen, 8)
        self.assertEqual(loaded[:2], before[:2])
        self.strings("setoption name SyzygyPath value <empty>")
        self.assertEqual(self.nodes(fen, 8), before)
        self.assertFalse(self.nodes(WINS["KRvK"], 4)[2], "tbhits after <empty>")
        # Loaded again after being unloaded (the prober's global state freed and rebuilt).
        said = self.strings(f"setoption name SyzygyPath value {TABLES}:")
        self.assertEqual(len(said), 1, said)
        self.assertIn("35 WDL and 35 DTZ tables", said[0])
        self.assertTrue(self.nodes(WINS["KRvK"], 4)[2], "no tbhits after loading again")


# Tables cut short, each to a length the prober's own check (16 more than a multiple of 64)
# lets through, but one: the file, its new length from its old, and a position it holds.
CUTS = [
    ("KQvK.rtbw", lambda n: 16, "8/8/8/8/8/1k6/8/KQ6 b - - 0 1"),
    ("KRvKP.rtbw", lambda n: 16 + 65536, "8/8/8/8/8/1k6/7p/KR6 b - - 0 1"),
    ("KQvKR.rtbw", lambda n: 16 + 64 * 100, KQVKR),
    ("KBNvK.rtbz", lambda n: n - 64, WINS["KBNvK"]),
    ("KPvKP.rtbw", lambda n: n - 1, "8/8/8/4k3/2p5/8/3P4/4K3 w - - 0 1"),
]


def copy_tables(into: Path) -> Path:
    """A copy of the test tables in a directory of `into`."""
    tables = into / "syzygy"
    shutil.copytree(TABLES, tables)
    return tables


def cut(tables: Path, name: str, length) -> Path:
    """Truncates `name` in `tables` to `length(its size)` in place; returns its path."""
    path = tables / name
    os.truncate(path, length(path.stat().st_size))
    return path


class Damaged(unittest.TestCase):
    """`ccr probe` on tables cut short, a FIFO among them, many directories."""

    def setUp(self):
        if not IS_CCR:
            self.skipTest("ccr's own command line: ccr probe")
        need_tables(self)
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)

    def assert_refused(self, done: subprocess.CompletedProcess, name: str) -> None:
        what = f"exit {done.returncode}, stdout {done.stdout!r}, stderr {done.stderr!r}"
        self.assertEqual(done.returncode, 2, what)
        self.assertEqual(done.stdout, "", what)
        self.assertEqual(len(done.stderr.splitlines()), 1, what)
        self.assertTrue(done.stderr.startswith("error: --syzygy: "), what)
        self.assertIn(name, done.stderr, what)

    def test_a_table_cut_short_is_refused(self):
        for name, length, fen in CUTS:
            with self.subTest(table=name):
                tables = copy_tables(self.tmp / name)
                cut(tables, name, length)
                done = probe([fen, WINS["KQvK"]], tables)
                self.assert_refused(done, name)
                self.assertRegex(done.stderr, "cut short|not a whole table")

    def test_a_fifo_for_a_table_is_refused_at_once(self):
        tables = copy_tables(self.tmp)
        os.remove(tables / "KQvK.rtbw")
        os.mkfifo(tables / "KQvK.rtbw")
        done = probe([WINS["KQvK"]], tables)
        self.assert_refused(done, "KQvK.rtbw")
        self.assertIn("not a regular file", done.stderr)

    def test_each_directory_costs_little(self):
        # Two hundred empty directories and the tables' own named three ways: read once each.
        empty = []
        for i in range(200):
            (self.tmp / f"d{i}").mkdir()
            empty.append(str(self.tmp / f"d{i}"))
        path = ":".join(empty + [str(TABLES), f"{TABLES}/.", f"{TABLES}//"])
        start = time.monotonic()
        done = probe([WINS["KQvK"]], path)
        took = time.monotonic() - start
        self.assertEqual((done.returncode, done.stdout), (0, "wdl 2 dtz 17\n"), done.stderr)
        self.assertLess(took, 2.0, f"{len(empty) + 3} directories took {took:.2f} s")


class DamagedUnderTheEngine(EngineCase):
    """`SyzygyPath` values whose tables are cut short or FIFOs are refused at once with the
    tables loaded before kept; tables changed on disk while loaded change nothing."""

    def setUp(self):
        super().setUp()
        if not IS_CCR:
            self.skipTest("ccr's own info strings")
        need_tables(self)
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)

    def strings(self, command: str) -> list:
        self.e.send(command)
        return [l.text for l in self.e.isready() if l.text.startswith("info string")]

    def assert_probes(self, fen: str, win: bool = True) -> None:
        """A search of `fen` answered from the tables: tbhits and a tablebase score."""
        self.e.send(f"position fen {fen}")
        infos, best, _ = self.e.go("depth 3")
        self.assertTrue(best.startswith("bestmove "), best)
        last = parse_info([i for i in infos if i.startswith("info depth")][-1])
        self.assertGreater(last.get("tbhits", 0), 0, (fen, infos))
        if win:
            self.assertGreaterEqual(last["score"][1], TB_WIN_BELOW, (fen, infos))

    def load(self, tables) -> None:
        said = self.strings(f"setoption name SyzygyPath value {tables}")
        self.assertEqual(len(said), 1, said)
        self.assertIn("35 WDL and 35 DTZ tables found", said[0])

    def test_cut_tables_are_refused_and_the_loaded_ones_kept(self):
        self.load(TABLES)
        for name, length, _ in CUTS:
            tables = copy_tables(self.tmp / name)
            cut(tables, name, length)
            said = self.strings(f"setoption name SyzygyPath value {tables}")
            self.assertEqual(len(said), 1, said)
            self.assertIn("SyzygyPath not changed", said[0])
            self.assertIn(name, said[0])
            self.assert_probes(WINS["KQvK"])
            self.assert_probes(KQVKR)

    def test_a_fifo_for_a_table_is_refused_at_once(self):
        self.load(TABLES)
        tables = copy_tables(self.tmp)
        os.remove(tables / "KRvK.rtbz")
        os.mkfifo(tables / "KRvK.rtbz")
        self.e.send(f"setoption name SyzygyPath value {tables}")
        lines = [l.text for l in self.e.isready(timeout=5)]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("SyzygyPath not changed", lines[0])
        self.assertIn("KRvK.rtbz' is not a regular file", lines[0])
        self.assert_probes(WINS["KRvK"])

    def test_tables_changed_while_loaded_change_nothing(self):
        tables = copy_tables(self.tmp)
        self.load(tables)
        self.assert_probes(WINS["KRvK"])
        # Every file changed: cut to nothing or to a header's worth in place, replaced by
        # garbage under the same name, removed.
        for i, path in enumerate(sorted(tables.iterdir())):
            if i % 4 == 0:
                os.truncate(path, 0)
            elif i % 4 == 1:
                os.truncate(path, 16)
            elif i % 4 == 2:
                junk = path.with_suffix(".junk")
                junk.write_bytes(b"\xff" * 80)
                os.rename(junk, path)
            else:
                os.remove(path)
        for fen in list(WINS.values()) + [KQVKR]:
            self.assert_probes(fen)
        self.assert_probes(FIVE, win=False)
        self.assert_probes(WINS["KRvK"].replace(" w ", " b "), win=False)

    def test_a_set_without_room_keeps_the_loaded_tables(self):
        # Under `ulimit -v`, a small set loads and the whole set finds no room; the small
        # one still answers (and where the whole set fits, it answers instead).
        small = self.tmp / "small"
        small.mkdir()
        for name in ("KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"):
            shutil.copy(TABLES / name, small)
        refused = []
        for kib in range(14000, 40001, 2000):
            lines = self.limited(kib, [f"setoption name SyzygyPath value {small}", "isready",
                                       f"position fen {WINS['KQvK']}", "go depth 3",
                                       f"setoption name SyzygyPath value {TABLES}", "isready",
                                       f"position fen {WINS['KQvK']}", "go depth 3"])
            text = "\n".join(lines)
            depth_3 = [l for l in lines if l.startswith("info depth 3 ")]
            if "2 WDL and 2 DTZ tables found" not in text or len(depth_3) != 2 or "tbhits" not in depth_3[0]:
                continue  # too little room for the small set or the search: nothing to keep
            self.assertNotIn("no tables loaded", text, f"{kib} KiB")
            self.assertIn("tbhits", depth_3[1], f"{kib} KiB: the tables were lost:\n{text}")
            if "SyzygyPath not changed: no room" in text:
                refused.append(kib)
        self.assertTrue(refused, "no limit refused the whole set: the test checks nothing")

    def limited(self, kib: int, commands: list) -> list:
        """The engine's lines for `commands` under `ulimit -v kib`, each `go` and `isready`
        answered before the next is sent."""
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (kib * 1024, kib * 1024))

        proc = subprocess.Popen([ENGINE] + ENGINE_ARGS, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, preexec_fn=limit, text=True)
        lines = []
        try:
            for command in ["uci", "setoption name Hash value 1"] + commands + ["quit"]:
                proc.stdin.write(command + "\n")
                proc.stdin.flush()
                until = {"uci": "uciok", "isready": "readyok"}.get(command)
                until = "bestmove" if command.startswith("go") else until
                while until:
                    line = proc.stdout.readline()
                    if not line:
                        break
                    lines.append(line.strip())
                    if line.startswith(until):
                        break
            self.assertEqual(proc.wait(timeout=30), 0, f"{kib} KiB: {lines[-20:]}")
        finally:
            proc.kill()
            proc.wait()
            proc.stdin.close()
            proc.stdout.close()
        return lines


class AgainstStockfish(unittest.TestCase):
    """ccr with the tables converts won endings against Stockfish without them, within the
    fifty-move rule (PGNs in target/uci-tests/syzygy-*.pgn)."""

    def setUp(self):
        if not IS_CCR:
            self.skipTest("ccr's own tablebase play against Stockfish")
        need_tables(self)
        if not os.path.exists(STOCKFISH):
            self.skipTest(f"{STOCKFISH} missing: make setup-uci")
        self.ccr = chess.engine.SimpleEngine.popen_uci([ENGINE] + ENGINE_ARGS, timeout=10, cwd=str(REPO))
        self.addCleanup(self.ccr.quit)
        self.ccr.configure({"SyzygyPath": str(TABLES)})
        self.stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=10)
        self.addCleanup(self.stockfish.quit)

    def play(self, name: str, fen: str, colour: chess.Color) -> chess.Board:
        board = chess.Board(fen)
        engines = {colour: self.ccr, not colour: self.stockfish}
        for engine in engines.values():
            engine.configure({"Clear Hash": None}) if "Clear Hash" in engine.options else None
        while not board.is_game_over(claim_draw=True):
            board.push(engines[board.turn].play(board, chess.engine.Limit(time=0.05)).move)
        game = chess.pgn.Game.from_board(board)
        game.headers.update(Event=f"syzygy {name}", White="ccr" if colour else "stockfish",
                            Black="stockfish" if colour else "ccr", Result=board.result(claim_draw=True))
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        (OUT_DIR / f"syzygy-{name}.pgn").write_text(str(game) + "\n")
        return board

    def test_won_endings_are_won(self):
        with chess.syzygy.open_tablebase(str(TABLES)) as tb:
            for name, fen in WINS.items():
                for colour, board in [(chess.WHITE, fen), (chess.BLACK, chess.Board(fen).mirror().fen())]:
                    self.assertEqual(tb.probe_wdl(chess.Board(board)), 2, board)
                    with self.subTest(ending=name, ccr="white" if colour else "black"):
                        label = f"{name}-{'white' if colour else 'black'}"
                        end = self.play(label, board, colour)
                        outcome = end.outcome(claim_draw=True)
                        self.assertTrue(end.is_checkmate(), f"{label}: {outcome} after {len(end.move_stack)} plies")
                        self.assertEqual(outcome.winner, colour, label)

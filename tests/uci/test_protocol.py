"""The UCI contract on raw pipes: handshake, isready, go and its limits, stop, quit, info
lines, positions with castling, en passant and promotions, and malformed input.

Every read has a timeout, so a hung engine fails a test instead of hanging the run; a
failure prints the transcript of the conversation (`>` sent, `<` received, `!` stderr).
"""

from __future__ import annotations

import random
import time
import unittest

import chess

from harness import (IS_CCR, KIWIPETE, REPLY, STANDARD, EngineCase, RawEngine, WatchdogCase, board_after,
                     bestmove_of, mates_in_one, parse_info)

# Contract latencies (seconds), with room for a loaded 2-core machine.
STOP_LATENCY = 0.200  # stop → bestmove
READY_LATENCY = 0.200  # isready → readyok while searching
QUIT_LATENCY = 1.0  # quit → process gone
# Move Overhead (ms) the clock tests set: a move must come within the clock less this.
MOVE_OVERHEAD = 30
# A clock search may take this many fair shares (the clock over the moves to go) at most.
FAIR_SHARES = 6
# `go nodes N` may report up to N * (1 + NODE_SLACK) nodes (ccr checks the limit at every
# node on one thread and reports exactly N at most; Stockfish checks it every few nodes).
NODE_SLACK = 0.01

# Kiwipete with Black to move: its legal moves share none with the initial position's, so a
# bestmove shows which position the engine holds.
KIWIPETE_BLACK = KIWIPETE.replace(" w ", " b ")
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # White is mated
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"  # Black to move, no legal move, not in check
# Mate in 2 with one key move (checked by brute force in test_fixtures_are_right): 1. Rf1+ ...
MATE_IN_2 = ("8/8/5R2/8/8/R1K5/1p1p4/1k6 w - - 0 1", "f6f1")
# Black to move: every legal move allows mate in one (score mate -1).
MATED_IN_1 = "k7/4K3/8/8/2R5/3p4/1R6/8 b - - 0 1"

# (name, position command, the mating moves expected next). Each position exists only if the
# special move was made right: the mate uses the rook the castling moved, the square the
# en-passant capture emptied, or the promoted piece (and is no mate had it been another).
SPECIAL_MOVE_MATES = [
    ("white O-O (e1g1), rook to f1",
     "position fen 7k/p5pp/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 a7a6", {"f1f8"}),
    ("white O-O-O (e1c1), rook to d1",
     "position fen k7/pp5p/8/8/8/8/8/R3K3 w Q - 0 1 moves e1c1 h7h6", {"d1d8"}),
    ("black O-O (e8g8), rook to f8",
     "position fen 4k2r/8/8/8/8/8/P5PP/7K b k - 0 1 moves e8g8 a2a3", {"f8f1"}),
    ("black O-O-O (e8c8), rook to d8",
     "position fen r3k3/8/8/8/8/8/PP5P/K7 b q - 0 1 moves e8c8 h2h3", {"d8d1"}),
    ("white b5xc6 en passant removes c5 (the pawn that gave check)",
     "position fen 3b4/2p5/1p6/1P6/1k1K4/5q2/8/8 b - - 0 1 moves c7c5 b5c6", {"d8f6"}),
    ("black en passant (mirror)",
     "position fen 8/8/5Q2/1K1k4/1p6/1P6/2P5/3B4 w - - 0 1 moves c2c4 b4c3", {"d1f3"}),
    ("promotion e7e8q",
     "position fen 8/4P3/1n6/8/8/8/2K5/k7 w - - 0 1 moves e7e8q b6c8", {"e8a4"}),
    ("under-promotion e7e8r",
     "position fen 8/4P3/2p5/5K2/7k/8/8/8 w - - 0 1 moves e7e8r h4h5", {"e8h8"}),
    ("under-promotion e7e8b",
     "position fen k7/2K1P3/8/2b5/8/8/8/8 w - - 0 1 moves e7e8b c5a7", {"e8c6"}),
    ("under-promotion e7e8n",
     "position fen k1K5/4P3/8/2b5/8/8/8/8 w - - 0 1 moves e7e8n c5a7", {"e8c7"}),
    ("black promotion e2e1q (mirror)",
     "position fen K7/2k5/8/8/8/1N6/4p3/8 b - - 0 1 moves e2e1q b3c1", {"e1a5"}),
    ("black under-promotion e2e1r (mirror)",
     "position fen 8/8/8/7K/5k2/2P5/4p3/8 b - - 0 1 moves e2e1r h5h4", {"e1h1"}),
    ("black under-promotion e2e1b (mirror)",
     "position fen 8/8/8/8/2B5/8/2k1p3/K7 b - - 0 1 moves e2e1b c4a2", {"e1c3"}),
    ("black under-promotion e2e1n (mirror)",
     "position fen 8/8/8/8/2B5/8/4p3/K1k5 b - - 0 1 moves e2e1n c4a2", {"e1c2"}),
]


def mates_in_one_after(board: chess.Board, move: chess.Move) -> set:
    """The mates in one after `move` (the board is left as it was)."""
    board.push(move)
    try:
        return mates_in_one(board)
    finally:
        board.pop()


class Handshake(EngineCase):
    def test_uci_ids_options_uciok(self):
        e = self.e
        e.send("uci")
        _, before = e.expect("uciok")
        texts = [l.text for l in before]
        names = [t for t in texts if t.startswith("id name ")]
        authors = [t for t in texts if t.startswith("id author ")]
        if len(names) != 1 or len(names[0]) <= len("id name ") or len(authors) != 1:
            raise e.fail(f"want one non-empty 'id name' and one 'id author' before uciok, got {texts}")
        options = {}
        for t in texts:
            if t.startswith("option "):
                toks = t.split()
                if "name" not in toks or "type" not in toks:
                    raise e.fail(f"malformed option line {t!r}")
                name = " ".join(toks[toks.index("name") + 1:toks.index("type")])
                rest = toks[toks.index("type") + 1:]
                fields = {"type": rest[0]}
                for key in ("default", "min", "max"):
                    if key in rest and rest.index(key) + 1 < len(rest):
                        fields[key] = rest[rest.index(key) + 1]
                options[name] = fields
        want = {"Hash": "spin", "Threads": "spin", "Clear Hash": "button", "Move Overhead": "spin"}
        for name, kind in want.items():
            if name not in options:
                raise e.fail(f"option {name!r} missing; options: {sorted(options)}")
            if options[name]["type"] != kind:
                raise e.fail(f"option {name!r} has type {options[name]['type']}, want {kind}")
            if kind == "spin":
                try:
                    lo, hi, d = (int(options[name][k]) for k in ("min", "max", "default"))
                except (KeyError, ValueError):
                    raise e.fail(f"spin option {name!r} needs integer default/min/max: {options[name]}") from None
                if not lo <= d <= hi:
                    raise e.fail(f"option {name!r}: default {d} outside [{lo}, {hi}]")
        if int(options["Hash"]["min"]) < 1 or int(options["Threads"]["min"]) < 1:
            raise e.fail(f"Hash and Threads must have min >= 1: {options['Hash']}, {options['Threads']}")

    def test_isready_answers_at_once(self):
        t = self.e.send("isready")
        line, before = self.e.expect("readyok")
        if line.t - t > READY_LATENCY:
            raise self.e.fail(f"readyok after {1000 * (line.t - t):.0f} ms")
        if before:
            raise self.e.fail(f"unexpected output before readyok: {before}")

    def test_ucinewgame_then_search(self):
        e = self.e
        for _ in range(2):
            e.send("ucinewgame")
            e.isready()
            e.send("position startpos moves e2e4")
            _, best, _ = e.go("depth 3")
            self.assert_legal_bestmove(best, board_after("position startpos moves e2e4"), "after ucinewgame")

    def test_clear_hash_button_and_options(self):
        e = self.e
        for cmd in ("setoption name Hash value 32", "setoption name Clear Hash",
                    "setoption name Move Overhead value 50", "setoption name Threads value 1"):
            e.send(cmd)
            before = e.isready()
            if any(l.text.startswith("bestmove") for l in before):
                raise e.fail(f"bestmove after {cmd!r}")
        e.send("position startpos")
        infos, best, _ = e.go("depth 4")
        self.assert_legal_bestmove(best, chess.Board(), "after setoption")
        self.assert_searched(infos, 4, "go depth 4 after setoption")


@unittest.skipUnless(IS_CCR, "ccr's own command line (`ccr uci`)")
class UciArgument(WatchdogCase):
    def test_ccr_uci_argument(self):
        e = RawEngine(["uci"])
        self.addCleanup(e.close)
        e.uci()
        e.isready()
        e.send("position startpos")
        _, best, _ = e.go("depth 2")
        bestmove_of(best)
        if e.quit() != 0:
            raise e.fail("`ccr uci`: quit did not exit with status 0")


class GoLimits(EngineCase):
    def test_go_depth(self):
        e = self.e
        e.send("position startpos")
        infos, best, _ = e.go("depth 5")
        self.assert_legal_bestmove(best, chess.Board(), "go depth 5")
        self.assert_searched(infos, 5, "go depth 5")
        deeper = [t for t in infos if "depth" in t.split() and "string" not in t.split()
                  and parse_info(t).get("depth", 0) > 5]
        if deeper:
            raise e.fail(f"go depth 5 reported deeper iterations: {deeper[:3]}")

    def test_go_nodes(self):
        """Every info line's node count stays within the limit (a search that checks it
        only every so many nodes may pass it by NODE_SLACK), and some line reports one."""
        e = self.e
        for limit in (20000, 3000):
            e.send(f"position fen {KIWIPETE}")
            infos, best, took = e.go(f"nodes {limit}")
            self.assert_legal_bestmove(best, chess.Board(KIWIPETE), f"go nodes {limit}")
            nodes = [parse_info(t)["nodes"] for t in infos if "nodes" in t.split() and "string" not in t.split()]
            if not nodes:
                raise e.fail(f"go nodes {limit}: no info line reported nodes")
            if max(nodes) > limit * (1 + NODE_SLACK):
                raise e.fail(f"go nodes {limit} searched {max(nodes)} nodes (allowed {limit * (1 + NODE_SLACK):.0f})")
            if took > 10:
                raise e.fail(f"go nodes {limit} took {took:.1f} s")

    def test_go_movetime(self):
        e = self.e
        e.send("position startpos moves e2e4 e7e5")
        _, best, took = e.go("movetime 100")
        self.assert_legal_bestmove(best, board_after("position startpos moves e2e4 e7e5"), "go movetime 100")
        if took > 0.150:
            raise e.fail(f"go movetime 100: bestmove after {1000 * took:.0f} ms (allowed 150)")

    def set_move_overhead(self) -> float:
        """Sets Move Overhead to MOVE_OVERHEAD ms (ccr's default); returns it in seconds."""
        self.e.send(f"setoption name Move Overhead value {MOVE_OVERHEAD}")
        self.e.isready()
        return MOVE_OVERHEAD / 1000

    def test_go_clock_uses_own_side(self):
        """The side to move's clock counts: each case must answer within that clock less
        Move Overhead even though the other side's clock is huge."""
        e = self.e
        overhead = self.set_move_overhead()
        cases = [("position startpos", "wtime 300 btime 100000", 300),
                 ("position startpos moves e2e4", "wtime 100000 btime 300", 300),
                 ("position startpos moves d2d4", "wtime 100000 btime 300 winc 0 binc 0", 300),
                 ("position startpos", "wtime 150 btime 150 winc 0 binc 0", 150)]
        for pos, args, own in cases:
            e.send(pos)
            _, best, took = e.go(args)
            self.assert_legal_bestmove(best, board_after(pos), f"go {args}")
            limit = own / 1000 - overhead
            if took >= limit:
                raise e.fail(f"{pos} / go {args}: bestmove after {1000 * took:.0f} ms, "
                             f"allowed {1000 * limit:.0f} (the clock less Move Overhead)")

    def test_go_clock_increment_movestogo(self):
        """Every clock search ends within the clock less Move Overhead, and within a fair
        share: FAIR_SHARES times the clock divided by the moves to go (movestogo, or 30
        without it), plus the increment. A move that spends most of the clock early fails."""
        e = self.e
        overhead = self.set_move_overhead()
        board = board_after("position startpos moves g1f3 d7d5")
        for args in ("wtime 10000 btime 10000", "wtime 10000 btime 10000 winc 100 binc 100",
                     "wtime 1000 btime 1000 movestogo 1", "wtime 3000 btime 3000 movestogo 40",
                     "wtime 500 btime 500 winc 400 binc 400"):
            a = dict(zip(args.split()[::2], map(int, args.split()[1::2])))
            clock, inc, moves = a["wtime"] / 1000, a.get("winc", 0) / 1000, a.get("movestogo", 30)
            limit = clock - overhead
            if moves > 1:
                limit = min(limit, FAIR_SHARES * clock / moves + inc)
            e.send("position startpos moves g1f3 d7d5")
            _, best, took = e.go(args)
            self.assert_legal_bestmove(best, board, f"go {args}")
            if took >= limit:
                raise e.fail(f"go {args}: bestmove after {took:.3f} s (allowed {limit:.3f} s)")

    def test_searchmoves(self):
        e = self.e
        e.send("position startpos")
        infos, best, _ = e.go("depth 5 searchmoves a2a3 h2h3")
        if bestmove_of(best) not in ("a2a3", "h2h3"):
            raise e.fail(f"searchmoves a2a3 h2h3: bestmove {best}")
        # White can take a queen (d1xd8... no: e4xd5 wins the queen); searchmoves excludes it.
        pos = "position fen rnb1kbnr/pppp1ppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
        e.send(pos)
        infos, best, _ = e.go("depth 6 searchmoves g1f3 b1c3")
        if bestmove_of(best) not in ("g1f3", "b1c3"):
            raise e.fail(f"searchmoves g1f3 b1c3 (e4xd5 wins the queen): bestmove {best}")
        for t in infos:
            if " pv " in t and "string" not in t.split():
                pv = parse_info(t)["pv"]
                if pv and pv[0] not in ("g1f3", "b1c3"):
                    raise e.fail(f"pv outside searchmoves: {t}")

    def test_mate_in_2_depth(self):
        e = self.e
        fen, key = MATE_IN_2
        e.send(f"position fen {fen}")
        infos, best, _ = e.go("depth 6")
        scores = [parse_info(t)["score"] for t in infos if " score " in t and "string" not in t.split()]
        if not scores or scores[-1][:2] != ("mate", 2):
            raise e.fail(f"mate in 2 ({fen}), go depth 6: last score {scores[-1] if scores else None}, want mate 2")
        if bestmove_of(best) != key:
            raise e.fail(f"mate in 2: bestmove {best}, the only mating move is {key}")

    def test_go_mate(self):
        e = self.e
        fen, key = MATE_IN_2
        e.send(f"position fen {fen}")
        infos, best, took = e.go("mate 2", timeout=20)
        if bestmove_of(best) != key:
            raise e.fail(f"go mate 2: bestmove {best}, want {key}")
        scores = [parse_info(t)["score"] for t in infos if " score " in t and "string" not in t.split()]
        if not scores or scores[-1][:2] != ("mate", 2):
            raise e.fail(f"go mate 2: last score {scores[-1] if scores else None}, want mate 2")

    def test_mated_in_1_score(self):
        e = self.e
        e.send(f"position fen {MATED_IN_1}")
        infos, best, _ = e.go("depth 5")
        self.assert_legal_bestmove(best, chess.Board(MATED_IN_1), "mated in 1")
        scores = [parse_info(t)["score"] for t in infos if " score " in t and "string" not in t.split()]
        if not scores or scores[-1][:2] != ("mate", -1):
            raise e.fail(f"side to move is mated in 1 ({MATED_IN_1}): last score {scores[-1] if scores else None}, want mate -1")

    def test_bestmove_none_only_when_no_move(self):
        e = self.e
        for fen, what in ((FOOLS_MATE, "checkmate"), (STALEMATE, "stalemate")):
            for args in ("depth 3", "movetime 50", "wtime 1000 btime 1000"):
                e.send(f"position fen {fen}")
                _, best, _ = e.go(args, timeout=5)
                if best.split()[:2] != ["bestmove", "(none)"]:
                    raise e.fail(f"{what} ({fen}), go {args}: {best!r}, want 'bestmove (none)'")


class InfoLines(EngineCase):
    REQUIRED = ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv")

    def check_infos(self, fen: str, infos, best: str):
        e = self.e
        board = chess.Board(fen)
        pv_lines = [t for t in infos if t.startswith("info") and "string" not in t.split()
                    and ("pv" in t.split() or "score" in t.split())]
        if not pv_lines:
            raise e.fail("no info lines with score/pv")
        last_nodes = -1
        for t in pv_lines:
            try:
                info = parse_info(t)
            except (ValueError, IndexError) as err:
                raise e.fail(f"malformed info line {t!r}: {err}") from None
            missing = [k for k in self.REQUIRED if k not in info]
            if missing:
                raise e.fail(f"info line lacks {missing}: {t}")
            if info["score"][0] not in ("cp", "mate"):
                raise e.fail(f"score kind: {t}")
            if not 0 <= info["hashfull"] <= 1000:
                raise e.fail(f"hashfull outside 0..1000: {t}")
            if info["depth"] < 1 or info["seldepth"] < 1 or info["nodes"] < 0 or info["nps"] < 0 or info["time"] < 0:
                raise e.fail(f"bad numbers: {t}")
            if info["nodes"] < last_nodes:
                raise e.fail(f"nodes went down: {t}")
            last_nodes = info["nodes"]
            b = board.copy()
            if not info["pv"]:
                raise e.fail(f"empty pv: {t}")
            for mv in info["pv"]:
                try:
                    b.push_uci(mv)
                except ValueError:
                    raise e.fail(f"pv move {mv} illegal in {b.fen()}: {t}") from None
        last_pv = parse_info(pv_lines[-1])["pv"]
        if last_pv[0] != bestmove_of(best):
            raise e.fail(f"bestmove {best} differs from the last pv {last_pv}")

    def test_info_fields_and_pv(self):
        e = self.e
        for fen in (KIWIPETE, chess.STARTING_FEN, STANDARD["position3"]):
            e.send(f"position fen {fen}")
            infos, best, _ = e.go("depth 7")
            self.assert_legal_bestmove(best, chess.Board(fen), "go depth 7")
            self.assert_searched(infos, 7, "go depth 7")
            self.check_infos(fen, infos, best)

    def test_info_on_timed_search(self):
        e = self.e
        e.send(f"position fen {KIWIPETE}")
        infos, best, _ = e.go("movetime 300")
        self.check_infos(KIWIPETE, infos, best)


class StopAndReady(EngineCase):
    def test_go_infinite_waits_for_stop(self):
        self.assert_held("position startpos", "go infinite", chess.Board(), "go infinite / stop", hold=1.0,
                         latency=STOP_LATENCY)

    def test_isready_during_search_keeps_searching(self):
        e = self.e
        e.send(f"position fen {KIWIPETE}")
        e.send("go infinite")
        time.sleep(0.3)
        t = e.send("isready")
        line, before = e.expect("readyok", REPLY)
        if any(l.text.startswith("bestmove") for l in before):
            raise e.fail("bestmove before readyok: isready stopped the search")
        if line.t - t > READY_LATENCY:
            raise e.fail(f"readyok during search after {1000 * (line.t - t):.0f} ms")
        nodes_before = max([parse_info(l.text).get("nodes", 0) for l in before
                            if l.text.startswith("info") and "string" not in l.text.split()] or [0])
        after = e.drain(1.5)
        if any(l.text.startswith("bestmove") for l in after):
            raise e.fail("bestmove after isready without stop: the search ended")
        e.send("stop")
        best, more = e.expect("bestmove", REPLY)
        self.assert_legal_bestmove(best.text, chess.Board(KIWIPETE), "isready / stop")
        nodes_after = max([parse_info(l.text).get("nodes", 0) for l in after + more
                           if l.text.startswith("info") and "string" not in l.text.split()] or [0])
        if nodes_after <= nodes_before:
            raise e.fail(f"no info with more nodes after readyok (before {nodes_before}, after {nodes_after}): "
                         "did the search go on?")

    def test_stop_right_after_go(self):
        e = self.e
        for args in ("infinite", "depth 30", "movetime 10000", "wtime 60000 btime 60000",
                     "nodes 100000000", "mate 20", "infinite searchmoves e2e4 d2d4"):
            e.send("position startpos moves e2e4" if args.startswith("wtime") else "position startpos")
            board = chess.Board() if not args.startswith("wtime") else board_after("position startpos moves e2e4")
            e.send(f"go {args}")
            t = e.send("stop")
            line, _ = e.expect("bestmove", REPLY, f"bestmove after 'go {args}' + stop")
            self.assert_legal_bestmove(line.text, board, f"go {args} + stop")
            if line.t - t > STOP_LATENCY:
                raise e.fail(f"go {args} + stop: bestmove after {1000 * (line.t - t):.0f} ms")
            extra = [l.text for l in e.isready() if l.text.startswith("bestmove")]
            if extra:
                raise e.fail(f"go {args} + stop: more than one bestmove: {extra}")
            if args.endswith("searchmoves e2e4 d2d4") and bestmove_of(line.text) not in ("e2e4", "d2d4"):
                raise e.fail(f"searchmoves e2e4 d2d4 + immediate stop: bestmove {line.text}")

    def test_stop_latency_deep_search(self):
        e = self.e
        e.send(f"position fen {KIWIPETE}")
        for args, wait in (("infinite", 1.0), ("depth 60", 0.7), ("movetime 60000", 0.4)):
            e.send(f"go {args}")
            time.sleep(wait)
            t = e.send("stop")
            line, _ = e.expect("bestmove", REPLY)
            self.assert_legal_bestmove(line.text, chess.Board(KIWIPETE), f"go {args}")
            if line.t - t > STOP_LATENCY:
                raise e.fail(f"go {args}, stop after {wait} s: bestmove after {1000 * (line.t - t):.0f} ms")

    def test_stop_after_search_does_not_leak(self):
        e = self.e
        # a) stop right after the bestmove, then a new search at once
        # b) the same with isready in between
        # c) a stale stop before go infinite: that search must still wait for its own stop
        for variant in ("a", "b", "c"):
            e.send("position startpos")
            _, best, _ = e.go("depth 1")
            self.assert_legal_bestmove(best, chess.Board(), "go depth 1")
            e.send("stop")
            if variant == "b":
                extra = [l.text for l in e.isready() if l.text.startswith("bestmove")]
                if extra:
                    raise e.fail(f"stop after a finished search produced a bestmove: {extra}")
            e.send("position startpos moves e2e4")
            board = board_after("position startpos moves e2e4")
            if variant in ("a", "b"):
                infos, best, _ = e.go("depth 5")
                self.assert_legal_bestmove(best, board, f"go depth 5 after a stale stop ({variant})")
                self.assert_searched(infos, 5, f"go depth 5 after a stale stop ({variant})")
            else:
                self.assert_held(None, "go infinite", board, "go infinite after a stale stop")

    def test_one_bestmove_per_go_in_sequence(self):
        e = self.e
        sent = 0
        for i, args in enumerate(["depth 1", "depth 2", "nodes 1000", "movetime 20", "depth 3",
                                  "wtime 200 btime 200", "depth 1"] * 2):
            e.send("position startpos")
            e.send(f"go {args}")
            sent += 1
            line, _ = e.expect("bestmove")
            self.assert_legal_bestmove(line.text, chess.Board(), f"go {args}")
        extra = [l.text for l in e.isready() if l.text.startswith("bestmove")]
        if extra:
            raise e.fail(f"{sent} go commands, extra bestmove lines: {extra}")


class Ponder(EngineCase):
    """`go ponder` holds its `bestmove` until `ponderhit` or `stop`; after `ponderhit` the
    search goes on as the same `go` without `ponder` would, to its own limits: only
    `go infinite` waits for `stop`."""

    def ponder_then_hit(self, position: str, limits: str, board: chess.Board) -> None:
        e = self.e
        # A ponder that has reached its limit owes its bestmove at once on ponderhit.
        self.assert_held(position, f"go ponder {limits}", board, f"go ponder {limits}", release="ponderhit",
                         latency=STOP_LATENCY)
        e.isready()

    def test_ponderhit_ends_a_depth_limited_ponder(self):
        self.ponder_then_hit("position startpos", "depth 3", chess.Board())

    def test_ponderhit_ends_a_node_limited_ponder(self):
        self.ponder_then_hit("position startpos moves e2e4", "nodes 20000",
                             board_after("position startpos moves e2e4"))

    def test_ponderhit_ends_a_mate_limited_ponder(self):
        position = "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
        self.ponder_then_hit(position, "mate 1", board_after(position))

    def test_ponderhit_then_the_clock(self):
        self.assert_held("position startpos", "go ponder wtime 2000 btime 2000 winc 0 binc 0", chess.Board(),
                         "ponderhit on a 2 s clock", release="ponderhit", timeout=3, latency=2.0)

    def test_stop_ends_a_ponder(self):
        self.assert_held("position startpos", "go ponder depth 30", chess.Board(), "go ponder + stop", hold=0.3,
                         latency=STOP_LATENCY)

    def test_infinite_with_a_depth_still_waits_for_stop(self):
        self.assert_held("position startpos", "go infinite depth 2", chess.Board(), "go infinite depth 2")


class Quit(WatchdogCase):
    def start(self, args=None) -> RawEngine:
        e = RawEngine(args)
        self.addCleanup(e.close)
        return e

    def assert_quits(self, e: RawEngine, context: str):
        t = time.monotonic()
        code = e.quit(timeout=5)
        took = time.monotonic() - t
        if code is None:
            raise e.fail(f"{context}: still running 5 s after quit")
        if code != 0:
            raise e.fail(f"{context}: exit status {code} after quit")
        if took > QUIT_LATENCY:
            raise e.fail(f"{context}: took {took:.2f} s to exit after quit")
        panics = [s for s in e.stderr if "panick" in s or "RUST_BACKTRACE" in s]
        if panics:
            raise e.fail(f"{context}: panic on stderr: {panics}")

    def test_quit_idle(self):
        e = self.start()
        e.uci()
        e.isready()
        self.assert_quits(e, "quit when idle")

    def test_quit_before_uci(self):
        e = self.start()
        self.assert_quits(e, "quit as the first command")

    def test_quit_mid_search(self):
        for args in ("infinite", "depth 60", "movetime 60000", "wtime 100000 btime 100000"):
            e = self.start()
            e.uci()
            e.send(f"position fen {KIWIPETE}")
            e.send(f"go {args}")
            time.sleep(0.3)
            self.assert_quits(e, f"quit during go {args}")

    def test_quit_right_after_go(self):
        e = self.start()
        e.uci()
        e.send("position startpos")
        e.send("go infinite")
        self.assert_quits(e, "quit right after go infinite")

    def test_stdin_closed_exits(self):
        """A GUI that dies closes the pipe: the engine must not spin or hang (not strictly
        UCI, but every GUI relies on it)."""
        e = self.start()
        e.uci()
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(0.2)
        e.proc.stdin.close()
        try:
            e.proc.wait(3)
        except Exception:
            raise e.fail("engine still running 3 s after its stdin was closed (during go infinite)") from None


class Positions(EngineCase):
    def test_fixtures_are_right(self):
        """The fixtures themselves, by python-chess (so a failure below is the engine's)."""
        for name, pos, want in SPECIAL_MOVE_MATES:
            board = board_after(pos)
            self.assertEqual(mates_in_one(board), want, name)
        board = chess.Board(MATE_IN_2[0])
        self.assertFalse(mates_in_one(board))
        # Brute force: the key move is the only one after which every reply allows a mate.
        keys = set()
        for m in list(board.legal_moves):
            board.push(m)
            replies = list(board.legal_moves)
            if replies and all(mates_in_one_after(board, r) for r in replies):
                keys.add(m.uci())
            board.pop()
        self.assertEqual(keys, {MATE_IN_2[1]})
        self.assertTrue(chess.Board(FOOLS_MATE).is_checkmate())
        self.assertTrue(chess.Board(STALEMATE).is_stalemate())
        b = chess.Board(MATED_IN_1)
        for m in list(b.legal_moves):
            b.push(m)
            self.assertTrue(mates_in_one(b), m)
            b.pop()

    def test_special_moves_applied(self):
        e = self.e
        failures = []
        for name, pos, want in SPECIAL_MOVE_MATES:
            e.send("ucinewgame")
            e.send(pos)
            _, best, _ = e.go("depth 4")
            mv = bestmove_of(best)
            if mv not in want:
                board = board_after(pos)
                legal = chess.Move.from_uci(mv) in board.legal_moves if mv not in ("(none)", "0000") else False
                failures.append(f"{name}: sent '{pos}', 'go depth 4' → '{best}'"
                                f" ({'legal but not' if legal else 'ILLEGAL, not'} the mate {sorted(want)})")
        if failures:
            raise e.fail("positions with special moves:\n  " + "\n  ".join(failures))

    def test_random_games_with_special_moves(self):
        """Positions right after castling, en passant and promotions from seeded random
        games, as `position startpos moves ...` and as `position fen ... moves ...`: the
        bestmove must be legal in each."""
        e = self.e
        rng = random.Random(20240501)
        picked = []
        kinds = {"castle": 0, "ep": 0, "promo": 0}
        for _ in range(400):
            board = chess.Board()
            while not board.is_game_over() and len(board.move_stack) < 300:
                moves = list(board.legal_moves)
                # Prefer the special moves when they are there.
                special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
                m = rng.choice(special) if special and rng.random() < 0.7 else rng.choice(moves)
                kind = ("castle" if board.is_castling(m) else "ep" if board.is_en_passant(m)
                        else "promo" if m.promotion else None)
                board.push(m)
                if kind and kinds[kind] < 8 and not board.is_game_over():
                    kinds[kind] += 1
                    picked.append(board.copy())
            if min(kinds.values()) >= 8:
                break
        self.assertGreaterEqual(min(kinds.values()), 8, kinds)
        for i, board in enumerate(picked):
            moves = " ".join(m.uci() for m in board.move_stack)
            if i % 2:
                # From a FEN some plies back, the rest as moves.
                k = min(6, len(board.move_stack))
                root = board.copy()
                for _ in range(k):
                    root.pop()
                tail = " ".join(m.uci() for m in board.move_stack[-k:])
                pos = f"position fen {root.fen()} moves {tail}"
            else:
                pos = f"position startpos moves {moves}"
            e.send(pos)
            _, best, _ = e.go("depth 3")
            self.assert_legal_bestmove(best, board, f"random game position #{i} ({board.fen()})")

    def test_long_move_list(self):
        """800 plies of knight shuffles (a long line, repetitions everywhere)."""
        e = self.e
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 200
        pos = "position startpos moves " + " ".join(shuffle + ["e2e4"])
        e.send(pos)
        _, best, _ = e.go("depth 3")
        self.assert_legal_bestmove(best, board_after(pos), "after 801 plies")

    def test_position_forms(self):
        e = self.e
        for pos in ("position startpos",
                    "position startpos moves",
                    f"position fen {KIWIPETE}",
                    f"position fen {KIWIPETE} moves e1g1 e8c8",
                    "position fen 4k3/8/8/8/8/8/8/4K2R w K -",  # clocks left out
                    "position fen 8/8/8/8/8/8/8/K6k w - - 99 150"):
            e.send(pos)
            _, best, _ = e.go("depth 3")
            board = board_after(pos.replace(" w K -", " w K - 0 1"))
            self.assert_legal_bestmove(best, board, pos)


class Malformed(EngineCase):
    """Malformed and unknown input never crashes or hangs the engine: it answers
    `info string ...`, and keeps working."""

    PREVIOUS = f"position fen {KIWIPETE_BLACK}"

    def survive(self, junk, info_string=True, boards=None, maybe_search=False):
        """Sends the previous position, then `junk` (one line or several), then isready.
        Checks the answer, and that `go depth 3` then searches and plays a move legal in one
        of `boards` (default: the previous position)."""
        try:
            self._survive(junk, info_string, boards, maybe_search)
        except AssertionError as err:
            shown = [j[:60] for j in (junk if isinstance(junk, list) else [junk])]
            raise AssertionError(f"after sending {shown!r}: {err}") from None

    def _survive(self, junk, info_string, boards, maybe_search):
        e = self.e
        e.send(self.PREVIOUS)
        lines = junk if isinstance(junk, list) else [junk]
        for j in lines:
            e.send(j)
        before = e.isready()
        texts = [l.text for l in before]
        if maybe_search:
            # `go` with a bad argument may search anyway (with the bad limit ignored): that
            # search must end by stop, with one bestmove.
            texts += [l.text for l in e.drain(0.3)]
            if not any(t.startswith("bestmove") for t in texts):
                e.send("stop")
                texts += [l.text for l in e.drain(0.5)]
            bms = [t for t in texts if t.startswith("bestmove")]
            if len(bms) > 1:
                raise e.fail(f"{len(bms)} bestmove lines")
        elif any(t.startswith("bestmove") for t in texts):
            raise e.fail("bestmove without go")
        if info_string and not any(t.startswith("info string") for t in texts):
            raise e.fail("no 'info string' answer")
        candidates = boards or [board_after(self.PREVIOUS)]
        infos, best, _ = e.go("depth 3")
        mv = bestmove_of(best)
        try:
            move = chess.Move.from_uci(mv)
        except ValueError:
            move = None
        if move is None or not any(move in b.legal_moves for b in candidates):
            raise e.fail(f"then go depth 3: bestmove {best} is legal in none of "
                         f"{[b.fen() for b in candidates]}")
        self.assert_searched(infos, 3, "then go depth 3")

    def test_unknown_command(self):
        # (Not "stop now please": UCI says to skip unknown tokens, so that is a stop.)
        for junk in ("garbage", "hello world", "go2", "isreadyy", "position2 startpos", "debug2 on"):
            self.survive(junk)

    def test_empty_and_blank_lines(self):
        self.survive(["", "   ", "\t", "", " \t "], info_string=False)

    def test_bad_fen_keeps_previous_position(self):
        for fen in ("not a fen",
                    "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",  # short rank
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  # side
                    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 9
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
                    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",  # castling without rooks
                    "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1",  # side not to move in check
                    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",  # impossible en passant square
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -5 1",  # clock
                    ""):
            self.survive(f"position fen {fen}".rstrip())
        self.survive("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 zzzz",
                     boards=[board_after(self.PREVIOUS), board_after("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2")])

    def test_illegal_moves_in_position(self):
        prev = board_after(self.PREVIOUS)
        for pos, prefix in (("position startpos moves e2e5", "position startpos"),
                            ("position startpos moves e2e4 e7e5 e1e3", "position startpos moves e2e4 e7e5"),
                            ("position startpos moves e2e4 xyz", "position startpos moves e2e4"),
                            ("position startpos moves e2e4 e7e5 e1g1", "position startpos moves e2e4 e7e5"),
                            ("position startpos moves e7e5", "position startpos"),
                            ("position startpos moves a7a8q", "position startpos")):
            # The engine may keep the previous position or the moves up to the bad one.
            self.survive(pos, boards=[prev, board_after(prefix)])
        self.survive("position", boards=[prev])
        self.survive("position garbage", boards=[prev])

    def test_bad_go_arguments(self):
        for junk in ("go wtime abc", "go depth abc", "go nodes -5", "go movetime -100",
                     "go depth 99999999999999999999999", "go wtime 1000 btime", "go searchmoves zz99",
                     "go movestogo 0 wtime 1000 btime 1000"):
            self.survive(junk, maybe_search=True,
                         info_string=junk not in ("go movestogo 0 wtime 1000 btime 1000",))

    def test_bad_setoption(self):
        for junk in ("setoption name Hash value -5", "setoption name Hash value abc",
                     "setoption name Hash value 99999999999999999999", "setoption name Hash value 1000000000",
                     "setoption name Threads value 0", "setoption name Threads value 100000",
                     "setoption name Move Overhead value -1", "setoption name NoSuchOption value 3",
                     "setoption name Hash", "setoption", "setoption name", "setoption value 5"):
            self.survive(junk)

    def test_very_long_lines(self):
        self.survive("x" * 1_000_000)
        self.survive("go " + "depth 1 " * 20000, maybe_search=True, info_string=False)
        self.survive("position startpos moves " + "e2e4 " * 5000, boards=[
            board_after(self.PREVIOUS), board_after("position startpos"), board_after("position startpos moves e2e4")])

    def test_binary_junk(self):
        rng = random.Random(7)
        junk = [bytes(b for b in range(256) if b != 10),
                b"\x00\x00\x00",
                b"\xff\xfe\xfd invalid utf-8 \xc3\x28",
                bytes(rng.randrange(256) for _ in range(4096)).replace(b"\n", b"")]
        self.survive(junk)

    def test_whitespace_and_crlf(self):
        """UCI allows any white space between tokens; GUIs on Windows send CRLF."""
        e = self.e
        e.send("   isready   ")
        e.expect("readyok")
        e.send("isready\r")
        e.expect("readyok")
        pos = "position   startpos    moves   e2e4\t e7e5 "
        e.send(pos)
        _, best, _ = e.go("depth 2")
        self.assert_legal_bestmove(best, board_after("position startpos moves e2e4 e7e5"), repr(pos))
        e.send("position startpos moves e2e4\r")
        _, best, _ = e.go("depth 2")
        self.assert_legal_bestmove(best, board_after("position startpos moves e2e4"), "position ... e2e4 with CRLF")


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""A UCI engine made to be wrong on purpose, to check that the UCI tests can fail
(tests/uci/check_faults.py runs them against it).

It wraps a real engine ($FAULTY_BASE, default /usr/games/stockfish) and first makes it obey
ccr's contract where Stockfish does not: malformed or unknown input is checked here and
answered with `info string ...` (Stockfish prints "Unknown command" and crashes on some bad
FENs and option values), a `bestmove` that Stockfish sends while pondering (it does on a
mate found) is held until `ponderhit` or `stop`, as the UCI protocol asks, and `bench`
prints `N nodes N nps`. With no $FAULT it passes the
whole suite. $FAULT names one fault to inject; see FAULTS below.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

import chess

FAULTS = {
    "no_move_overhead": "the Move Overhead option is missing from the uci answer",
    "slow_isready": "readyok comes 300 ms late",
    "isready_stops": "isready during a search stops the search",
    "slow_stop": "stop is obeyed 400 ms late",
    "stop_leak": "a stop while idle stops the next search at once",
    "double_bestmove": "every bestmove is sent twice",
    "infinite_returns": "go infinite is searched as go depth 8 (bestmove without stop)",
    "illegal_bestmove": "the bestmove's from and to squares are swapped",
    "null_instead_of_none": "bestmove 0000 instead of bestmove (none) when there is no move",
    "ignore_searchmoves": "searchmoves is ignored",
    "ponderhit_waits": "a ponder without a clock holds its bestmove after ponderhit until stop",
    "queen_promotions": "every promotion in position ... moves is taken as a queen",
    "no_hashfull": "info lines lack hashfull",
    "bad_pv": "pv moves come reversed",
    "quit_exit1": "quit exits with status 1",
    "slow_quit_in_search": "quit during a search takes 2 s",
    "crash_on_garbage": "an unknown command kills the engine",
    "no_info_string": "malformed and unknown input get no info string",
    "slow_movetime": "go movetime N searches N + 100 ms",
    "wrong_clock": "wtime/btime (and winc/binc) are swapped",
    "time_hog": "a clock search takes 1.3 times the side's remaining time",
    "ignores_overhead": "a clock search takes the side's remaining time less 10 ms (no Move Overhead)",
    "clock_hog_early": "a clock search without movestogo takes 22 % of the remaining time (over 6 shares of 30)",
    "nodes_overshoot": "go nodes N searches 1.15 N nodes",
    "depth_plus_one": "go depth N searches to depth N + 1",
    "ucinewgame_ignored": "ucinewgame is ignored (the hash table is kept)",
    "exit_after_bestmove": "the engine exits (status 0) right after its first bestmove",
    "mate_as_cp": "score mate N is reported as score cp +-32000",
    "bench_random": "bench prints a different node count each run",
    "bad_fen_resets": "a bad FEN resets the position to the start",
    "eof_hang": "end of input does not end the engine",
    "long_line_hang": "a line over 100,000 characters hangs the input loop",
    "utf8_crash": "input that is not UTF-8 kills the engine",
    "multipv_ignored": "setoption name MultiPV is accepted and ignored (one line per depth)",
    "multipv_reversed": "the lines of a depth are numbered worst first (multipv k becomes N + 1 - k)",
}

FAULT = os.environ.get("FAULT", "")
BASE = os.environ.get("FAULTY_BASE", "/usr/games/stockfish")
if FAULT and FAULT not in FAULTS:
    sys.stderr.write(f"error: unknown FAULT {FAULT!r}\n")
    sys.exit(2)

out_lock = threading.Lock()


def say(line: str) -> None:
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def bench() -> int:
    n = 1234567 if FAULT != "bench_random" else random.randrange(10 ** 6, 10 ** 7)
    print("ccr bench (faulty_engine.py stand-in)")
    print(f"{n} nodes 1000000 nps")
    return 0


class Proxy:
    def __init__(self):
        self.base = subprocess.Popen([BASE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.board = chess.Board()
        self.searching = False
        self.pending_stop = False
        # While pondering, a bestmove from the engine waits here for ponderhit or stop.
        self.pondering = False
        self.held: list = []
        self.ponder_lock = threading.Lock()
        self.options = {}  # name -> (type, min, max)
        self.multipv = 1
        threading.Thread(target=self.pump, daemon=True).start()

    def send(self, line: str) -> None:
        self.base.stdin.write((line + "\n").encode())
        self.base.stdin.flush()

    def bad(self, why: str) -> None:
        if FAULT == "no_info_string":
            return
        say(f"info string {why}")

    # engine → GUI
    def pump(self) -> None:
        for raw in iter(self.base.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            toks = line.split()
            if not toks:
                continue
            if toks[0] == "option":
                name = " ".join(toks[toks.index("name") + 1:toks.index("type")])
                rest = toks[toks.index("type") + 1:]
                lo = int(rest[rest.index("min") + 1]) if "min" in rest else None
                hi = int(rest[rest.index("max") + 1]) if "max" in rest else None
                self.options[name] = (rest[0], lo, hi)
                if FAULT == "no_move_overhead" and name == "Move Overhead":
                    continue
            elif toks[0] == "readyok" and FAULT == "slow_isready":
                time.sleep(0.3)
            elif toks[0] == "info":
                if FAULT == "no_hashfull" and "hashfull" in toks:
                    i = toks.index("hashfull")
                    del toks[i:i + 2]
                if FAULT == "bad_pv" and "pv" in toks:
                    i = toks.index("pv")
                    toks = toks[:i + 1] + toks[i + 1:][::-1]
                if FAULT == "multipv_reversed" and "multipv" in toks and self.multipv > 1:
                    i = toks.index("multipv") + 1
                    toks[i] = str(self.multipv + 1 - int(toks[i]))
                if FAULT == "mate_as_cp" and "score" in toks and toks[toks.index("score") + 1] == "mate":
                    i = toks.index("score")
                    toks[i + 1:i + 3] = ["cp", "32000" if int(toks[i + 2]) > 0 else "-32000"]
                line = " ".join(toks)
            elif toks[0] == "bestmove":
                self.searching = False
                if FAULT == "illegal_bestmove" and len(toks[1]) >= 4 and toks[1] != "(none)":
                    toks[1] = toks[1][2:4] + toks[1][0:2]
                    line = " ".join(toks[:2])
                if FAULT == "null_instead_of_none" and toks[1] == "(none)":
                    line = "bestmove 0000"
                with self.ponder_lock:
                    if self.pondering:
                        self.held.append(line)
                        continue
                say(line)
                if FAULT == "double_bestmove":
                    say(line)
                if FAULT == "exit_after_bestmove":
                    self.base.kill()
                    os._exit(0)
                continue
            elif toks[0] in ("Stockfish", "Unknown"):
                continue
            say(line)

    def release_held(self) -> None:
        """Pondering is over: a bestmove the engine sent meanwhile goes out now."""
        with self.ponder_lock:
            self.pondering = False
            held, self.held = self.held, []
        for line in held:
            say(line)

    # GUI → engine
    def position(self, toks) -> None:
        board = None
        i = 1
        if len(toks) > 1 and toks[1] == "startpos":
            board, i = chess.Board(), 2
        elif len(toks) > 1 and toks[1] == "fen":
            end = toks.index("moves") if "moves" in toks else len(toks)
            try:
                board = chess.Board(" ".join(toks[2:end]))
                if not board.is_valid():
                    raise ValueError(board.status())
            except ValueError as err:
                self.bad(f"bad fen: {err}")
                if FAULT == "bad_fen_resets":
                    self.board = chess.Board()
                    self.send("position startpos")
                return
            i = end
        if board is None:
            self.bad("position needs startpos or fen")
            return
        moves = toks[i + 1:] if i < len(toks) and toks[i] == "moves" else []
        if i < len(toks) and toks[i] != "moves":
            self.bad(f"unexpected {toks[i]!r}")
            return
        for m in moves:
            if FAULT == "queen_promotions" and len(m) == 5:
                m = m[:4] + "q"
            try:
                board.push_uci(m)
            except ValueError:
                self.bad(f"illegal move {m}")
                return
        self.board = board
        self.send(f"position fen {board.root().fen()} moves " + " ".join(x.uci() for x in board.move_stack))

    def go(self, toks) -> None:
        ints = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"}
        args = {}
        searchmoves = []
        flags = []
        i = 1
        while i < len(toks):
            t = toks[i]
            if t in ints:
                try:
                    v = int(toks[i + 1])
                    if v < 0 or v > 10 ** 12 or (t == "movestogo" and v == 0):
                        raise ValueError
                except (IndexError, ValueError):
                    self.bad(f"go: bad value for {t}")
                    return
                args[t] = v
                i += 2
            elif t in ("infinite", "ponder"):
                flags.append(t)
                i += 1
            elif t == "searchmoves":
                i += 1
                while i < len(toks) and toks[i] not in ints and toks[i] not in ("infinite", "ponder"):
                    try:
                        mv = chess.Move.from_uci(toks[i])
                        if mv not in self.board.legal_moves:
                            raise ValueError
                    except ValueError:
                        self.bad(f"go: searchmoves {toks[i]} is not legal")
                        return
                    searchmoves.append(toks[i])
                    i += 1
            else:
                self.bad(f"go: unknown token {t}")
                return
        if FAULT == "slow_movetime" and "movetime" in args:
            args["movetime"] += 100
        if FAULT == "wrong_clock":
            for a, b in (("wtime", "btime"), ("winc", "binc")):
                if a in args or b in args:
                    args[a], args[b] = args.get(b, 0), args.get(a, 0)
        if FAULT == "time_hog" and ("wtime" in args or "btime" in args):
            own = args.get("wtime" if self.board.turn else "btime", 1000)
            args = {"movetime": int(own * 1.3)}
        if FAULT == "ignores_overhead" and ("wtime" in args or "btime" in args):
            own = args.get("wtime" if self.board.turn else "btime", 1000)
            args = {"movetime": max(own - 10, 1)}
        if FAULT == "clock_hog_early" and ("wtime" in args or "btime" in args) and "movestogo" not in args:
            own = args.get("wtime" if self.board.turn else "btime", 1000)
            args = {"movetime": own * 22 // 100}
        if FAULT == "nodes_overshoot" and "nodes" in args:
            args["nodes"] = args["nodes"] * 115 // 100
        if FAULT == "depth_plus_one" and "depth" in args:
            args["depth"] += 1
        if FAULT == "infinite_returns" and "infinite" in flags:
            flags.remove("infinite")
            args["depth"] = 8
        if FAULT == "ignore_searchmoves":
            searchmoves = []
        if FAULT == "ponderhit_waits" and "ponder" in flags and not {"wtime", "btime", "movetime"} & set(args):
            flags = ["infinite"]
        cmd = "go " + " ".join(f"{k} {v}" for k, v in args.items()) + " " + " ".join(flags)
        if searchmoves:
            cmd += " searchmoves " + " ".join(searchmoves)
        self.searching = True
        with self.ponder_lock:
            self.pondering = "ponder" in flags
        self.send(" ".join(cmd.split()))
        if self.pending_stop:
            self.pending_stop = False
            self.send("stop")

    def setoption(self, toks) -> None:
        if "name" not in toks:
            self.bad("setoption needs a name")
            return
        n = toks.index("name")
        v = toks.index("value") if "value" in toks else len(toks)
        name = " ".join(toks[n + 1:v])
        value = " ".join(toks[v + 1:]) if v < len(toks) else None
        if name not in self.options:
            self.bad(f"no option {name!r}")
            return
        kind, lo, hi = self.options[name]
        if name == "MultiPV":
            self.multipv = int(value or "1")
            if FAULT == "multipv_ignored":
                return
        if kind == "spin":
            try:
                x = int(value or "")
                if not lo <= x <= hi or (name == "Hash" and x > 4096):
                    raise ValueError
            except ValueError:
                self.bad(f"option {name}: bad value {value!r}")
                return
        self.send(" ".join(toks))

    def run(self) -> int:
        stdin = sys.stdin.buffer
        while True:
            raw = stdin.readline()
            if not raw:
                if FAULT == "eof_hang":
                    time.sleep(3600)
                self.send("quit")
                return 0
            if FAULT == "long_line_hang" and len(raw) > 100_000:
                time.sleep(3600)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                if FAULT == "utf8_crash":
                    self.base.kill()
                    return 1
                line = raw.decode("utf-8", "replace")
            toks = line.split()
            if not toks:
                continue
            cmd = toks[0]
            if cmd == "ucinewgame" and FAULT == "ucinewgame_ignored":
                continue
            if cmd in ("ponderhit", "stop"):
                self.release_held()
            if cmd in ("uci", "ucinewgame", "ponderhit", "debug", "register"):
                self.send(" ".join(toks))
            elif cmd == "isready":
                if FAULT == "isready_stops" and self.searching:
                    self.send("stop")
                self.send("isready")
            elif cmd == "stop":
                if FAULT == "slow_stop":
                    time.sleep(0.4)
                if FAULT == "stop_leak" and not self.searching:
                    self.pending_stop = True
                self.send("stop")
            elif cmd == "quit":
                if FAULT == "slow_quit_in_search" and self.searching:
                    time.sleep(2)
                self.send("quit")
                try:
                    self.base.wait(5)
                except subprocess.TimeoutExpired:
                    self.base.kill()
                return 1 if FAULT == "quit_exit1" else 0
            elif cmd == "position":
                self.position(toks)
            elif cmd == "go":
                self.go(toks)
            elif cmd == "setoption":
                self.setoption(toks)
            else:
                if FAULT == "crash_on_garbage":
                    self.base.kill()
                    os._exit(3)
                self.bad(f"unknown command {cmd[:40]!r}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["bench"]:
        sys.exit(bench())
    sys.exit(Proxy().run())

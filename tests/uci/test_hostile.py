"""Hostile use of the UCI loop on raw pipes: commands that race a stopped search, thread
counts far beyond the machine's cores, a small address space, `Hash` resized, and control
characters and binary junk that `info string` repeats.
"""

from __future__ import annotations

import os
import resource
import shlex
import subprocess
import time
import unittest

import chess

from harness import (ENGINE, ENGINE_ARGS, IS_CCR, EngineCase, RawEngine, WatchdogCase,
                     board_after, bestmove_of)

# Contract latencies (seconds), with room for a loaded 2-core machine.
STOP_LATENCY = 0.100  # stop → bestmove
REPLY_LIMIT = 10.0  # a go with small limits → bestmove
QUIT_LATENCY = 0.300  # quit → process gone


def write_raw(e: RawEngine, data: bytes) -> None:
    """Writes `data` to the engine in one write (several commands arrive together)."""
    e._log(">", f"{data[:120]!r}{'...' if len(data) > 120 else ''} ({len(data)} bytes, one write)")
    e.proc.stdin.write(data)
    e.proc.stdin.flush()


def bestmoves(lines) -> list:
    return [l.text for l in lines if l.text.startswith("bestmove")]


class StopThenGo(EngineCase):
    """A command read after `stop` waits for the stopped search's `bestmove`, then is
    carried out: one `bestmove` per `go`, whatever the timing."""

    def test_go_right_after_stop_is_answered(self):
        e = self.e
        write_raw(e, b"isready\nposition startpos\ngo infinite\nstop\n"
                     b"position startpos moves e2e4\ngo depth 5\n")
        e.expect("readyok")
        first, _ = e.expect("bestmove", what="the stopped search's bestmove")
        self.assert_legal_bestmove(first.text, chess.Board(), "go infinite + stop")
        second, infos = e.expect("bestmove", what="a bestmove for the go after the stop")
        board = board_after("position startpos moves e2e4")
        self.assert_legal_bestmove(second.text, board, "go depth 5 right after stop")
        self.assert_searched([l.text for l in infos], 5, "go depth 5 right after stop")
        ignored = [l.text for l in infos if "ignored" in l.text]
        if ignored:
            raise e.fail(f"a command was turned away: {ignored}")

    def test_thousand_go_stop_pairs_in_one_write(self):
        e = self.e
        write_raw(e, b"position startpos\n" + b"go infinite\nstop\n" * 1000 + b"isready\n")
        lines = []
        deadline = time.monotonic() + 60
        while len(bestmoves(lines)) < 1000 and time.monotonic() < deadline:
            line = e.recv(deadline - time.monotonic())
            if line is None:
                break
            lines.append(line)
        lines += e.drain(0.3)
        best = bestmoves(lines)
        if len(best) != 1000:
            raise e.fail(f"1000 go infinite/stop pairs: {len(best)} bestmoves")
        for text in best:
            self.assert_legal_bestmove(text, chess.Board(), "go infinite + stop")
        if not any(l.text == "readyok" for l in lines):
            raise e.fail("no readyok after the 1000 pairs")

    def test_setoption_and_ucinewgame_right_after_stop(self):
        e = self.e
        rounds = 50
        write_raw(e, b"position startpos moves e2e4\ngo infinite\nstop\nsetoption name Clear Hash\n"
                     b"ucinewgame\ngo infinite\nstop\n" * rounds + b"isready\n")
        lines = []
        while len(bestmoves(lines)) < 2 * rounds:
            line = e.recv(10)
            if line is None:
                raise e.fail(f"{len(bestmoves(lines))} bestmoves for {2 * rounds} go commands")
            lines.append(line)
        strings = [l.text for l in lines if l.text.startswith("info string")]
        if strings:
            raise e.fail(f"commands after stop were not carried out: {strings[:3]}")
        after_e4 = board_after("position startpos moves e2e4")
        for i, text in enumerate(bestmoves(lines)):
            # The second search of each round starts from the initial position again, after
            # ucinewgame (Black's and White's moves here have none in common).
            board = chess.Board() if i % 2 else after_e4
            self.assert_legal_bestmove(text, board, f"search {i + 1}")

    def test_go_while_searching_stops_the_search_first(self):
        e = self.e
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(0.1)
        e.send("position startpos moves d2d4")
        e.send("go depth 4")
        first, _ = e.expect("bestmove")
        self.assert_legal_bestmove(first.text, chess.Board(), "go infinite, then go")
        second, infos = e.expect("bestmove")
        self.assert_legal_bestmove(second.text, board_after("position startpos moves d2d4"),
                                   "the second go")
        self.assert_searched([l.text for l in infos], 4, "the second go")


class StopThenGoPipeline(WatchdogCase):
    def test_printf_sequence_gives_two_bestmoves(self):
        """The shell pipeline of a user who types fast: two go, two bestmove."""
        script = ("(printf 'uci\\nisready\\nposition startpos\\ngo infinite\\nstop\\n"
                  "position startpos moves e2e4\\ngo depth 5\\n'; sleep 1; printf 'quit\\n') | "
                  + " ".join(shlex.quote(a) for a in [ENGINE] + ENGINE_ARGS))
        done = subprocess.run(["sh", "-c", script], capture_output=True, timeout=30)
        out = done.stdout.decode(errors="replace")
        best = [l for l in out.splitlines() if l.startswith("bestmove")]
        self.assertEqual(len(best), 2, out)
        self.assertIn(chess.Move.from_uci(bestmove_of(best[0])), chess.Board().legal_moves, out)
        after = board_after("position startpos moves e2e4")
        self.assertIn(chess.Move.from_uci(bestmove_of(best[1])), after.legal_moves, out)
        self.assertEqual(done.returncode, 0, out)


@unittest.skipUnless(IS_CCR, "ccr's Threads cap")
class ThreadsBeyondCores(EngineCase):
    """At Threads 256 on a machine with a few cores, moves come inside the clock and
    stop and quit are answered at once."""

    def setUp(self):
        super().setUp()
        self.e.send("setoption name Threads value 256")
        self.e.isready()

    def test_bullet_moves_inside_the_clock(self):
        e = self.e
        board = chess.Board()
        for ply in range(8):
            moves = " ".join(m.uci() for m in board.move_stack)
            e.send(f"position startpos moves {moves}" if moves else "position startpos")
            _, best, took = e.go("wtime 200 btime 200 winc 10 binc 10", timeout=10)
            move = self.assert_legal_bestmove(best, board, f"ply {ply}")
            if took >= 0.200:
                raise e.fail(f"ply {ply}: the move took {1000 * took:.0f} ms on a 200 ms clock")
            board.push(move)

    def test_stop_answered_at_once(self):
        e = self.e
        e.send("position startpos")
        for wait in (0.3, 0.05, 0.5):
            self.assert_held(None, "go infinite", chess.Board(), f"go infinite, stop after {wait} s", hold=wait,
                             latency=STOP_LATENCY)

    def test_quit_answered_at_once(self):
        e = self.e
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(0.3)
        self.expect_exit()
        t = time.monotonic()
        code = e.quit(timeout=5)
        took = time.monotonic() - t
        if code != 0:
            raise e.fail(f"quit during a search: exit status {code}")
        if took > QUIT_LATENCY:
            raise e.fail(f"quit during a search took {1000 * took:.0f} ms")
        # Read to the end of the output, so that closing the pipes races no reader.
        while e.lines.get(timeout=5) is not None:
            pass
        e.eof = True


@unittest.skipUnless(IS_CCR, "ccr's own fallbacks")
class SmallAddressSpace(WatchdogCase):
    """`ulimit -v 16000`: too small for the default table and the search thread's stack.
    The engine takes what fits, says so, and plays; RUST_BACKTRACE=1 changes nothing."""

    LIMIT_KIB = 16000

    def run_limited(self, commands: str, timeout: float = 30) -> subprocess.CompletedProcess:
        def limit():
            size = self.LIMIT_KIB * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

        env = dict(os.environ, RUST_BACKTRACE="1")
        try:
            return subprocess.run([ENGINE, "uci"] + ENGINE_ARGS, input=commands.encode(),
                                  capture_output=True, timeout=timeout, preexec_fn=limit, env=env)
        except subprocess.TimeoutExpired as err:
            self.fail(f"hung under ulimit -v {self.LIMIT_KIB}: stdout {err.stdout!r}, "
                      f"stderr {err.stderr!r}")

    def check(self, done: subprocess.CompletedProcess, gos: int) -> str:
        out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
        context = f"\nstdout:\n{out[-3000:]}\nstderr:\n{err[-2000:]}"
        self.assertEqual(done.returncode, 0, f"exit status {done.returncode}{context}")
        self.assertNotIn("panicked", err, context)
        self.assertIn("uciok", out, context)
        best = [l for l in out.splitlines() if l.startswith("bestmove")]
        self.assertEqual(len(best), gos, f"{gos} go commands{context}")
        return out

    def test_uci_and_search_under_a_small_address_space(self):
        done = self.run_limited("uci\nisready\nposition startpos moves e2e4\ngo depth 5\n"
                                "go wtime 1000 btime 1000\nquit\n")
        out = self.check(done, 2)
        self.assertRegex(out, r"info string Hash 16: not enough memory, the table has "
                              r"(\d+ MiB|one bucket)", out)
        board = board_after("position startpos moves e2e4")
        for line in out.splitlines():
            if line.startswith("bestmove"):
                self.assertIn(chess.Move.from_uci(bestmove_of(line)), board.legal_moves, out)

    def test_hash_and_threads_under_a_small_address_space(self):
        done = self.run_limited("uci\nsetoption name Hash value 1024\nsetoption name Threads "
                                "value 4\nisready\ngo depth 4\ngo infinite\nstop\nquit\n")
        out = self.check(done, 2)
        self.assertRegex(out, r"info string Hash 1024: not enough memory, the table has", out)


    def test_every_small_address_space_searches(self):
        """From 11 MB to 26 MB (the table takes every power of two from one bucket to the
        default 16 MiB there), the table leaves the search thread its room: every `go` is
        searched, none answered with the fallback move."""
        failures = []
        for kib in range(11000, 26001, 1000):
            out = self.searches_under(kib, ["position startpos", "go depth 4",
                                            "setoption name Threads value 2", "go depth 4",
                                            "setoption name Hash value 1", "go depth 4"])
            depth_4 = [l for l in out.splitlines() if l.startswith("info depth 4 ")]
            if "cannot start the search thread" in out or len(depth_4) != 3:
                failures.append(f"{kib} KiB: {len(depth_4)} of 3 searches reached depth 4:\n"
                                f"{out[-1500:]}")
        if failures:
            self.fail("\n".join(failures))

    def searches_under(self, kib: int, commands: list) -> str:
        """Runs `commands` one at a time under `ulimit -v kib`, each `go` to its bestmove;
        returns stdout."""
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (kib * 1024, kib * 1024))

        proc = subprocess.Popen([ENGINE, "uci"] + ENGINE_ARGS, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=limit, text=True)
        out = []
        try:
            for command in ["uci"] + commands + ["quit"]:
                proc.stdin.write(command + "\n")
                proc.stdin.flush()
                while command.startswith("go") or command == "uci":
                    line = proc.stdout.readline()
                    if not line:
                        break
                    out.append(line)
                    if line.startswith(("bestmove", "uciok")):
                        break
            out.append(proc.stdout.read())
            self.assertEqual(proc.wait(timeout=30), 0, f"{kib} KiB: {''.join(out)[-1500:]}")
        finally:
            proc.kill()
            proc.wait()
            proc.stdin.close()
            proc.stdout.close()
            err = proc.stderr.read()
            proc.stderr.close()
        self.assertNotIn("panicked", err)
        return "".join(out)


@unittest.skipUnless(IS_CCR, "ccr's own replies")
class OutOfRange(EngineCase):
    """Numbers beyond an i64 saturate (negative: the least value, positive: the largest);
    tokens by the thousand get one line of complaint."""

    def test_a_clock_below_the_range_is_taken_as_empty(self):
        e = self.e
        e.send("position startpos")
        infos, best, took = e.go("wtime -99999999999999999999 btime 100", timeout=REPLY_LIMIT)
        self.assert_legal_bestmove(best, chess.Board(), "wtime below an i64")
        if took > 1.0:
            raise e.fail(f"wtime below an i64: bestmove after {took:.2f} s")
        if not any("wtime" in l and "taken as 0" in l for l in infos):
            raise e.fail(f"no word that wtime was taken as 0: {infos[:5]}")

    def test_a_movetime_beyond_the_range_is_a_long_search_that_stops(self):
        self.assert_held("position startpos", "go movetime 18446744073709551615", chess.Board(),
                         "movetime beyond an i64", timeout=REPLY_LIMIT)

    def test_other_limits_beyond_the_range(self):
        e = self.e
        e.send("position startpos")
        for args in ("depth 99999999999999999999 nodes 3000", "nodes 99999999999999999999 depth 3",
                     "movestogo 99999999999999999999 wtime 300 btime 300",
                     "depth -99999999999999999999"):
            infos, best, took = e.go(args, timeout=REPLY_LIMIT)
            self.assert_legal_bestmove(best, chess.Board(), f"go {args}")
            bad = [l for l in infos if "bad value" in l]
            if bad:
                raise e.fail(f"go {args}: a saturated number was turned away: {bad}")

    def test_thousands_of_illegal_searchmoves_get_one_line(self):
        e = self.e
        e.send("position startpos")
        junk = " ".join(f"z{i}" for i in range(3000))
        infos, best, _ = e.go(f"depth 3 searchmoves e2e4 {junk} d2d4 a1a8", timeout=REPLY_LIMIT)
        if bestmove_of(best) not in ("e2e4", "d2d4"):
            raise e.fail(f"searchmoves e2e4 d2d4: {best}")
        strings = [l for l in infos if l.startswith("info string")]
        if len(strings) != 1:
            raise e.fail(f"{len(strings)} info strings for the illegal searchmoves: {strings[:3]}")
        if "3001 more" not in strings[0] and "2998 more" not in strings[0]:
            raise e.fail(f"the line does not count the rest: {strings[0][:200]}")


@unittest.skipUnless(IS_CCR, "ccr's table")
class HashResize(EngineCase):
    """`setoption name Hash` frees the old table before it takes the new one, and keeps the
    table of an unchanged size: the peak resident memory stays near one table."""

    def peak_mib(self) -> float:
        with open(f"/proc/{self.e.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        self.skipTest("no VmHWM in /proc")

    def test_peak_memory_stays_near_one_table(self):
        e = self.e
        for mib in (256, 256):
            e.send(f"setoption name Hash value {mib}")
            strings = [l.text for l in e.isready(timeout=30) if l.text.startswith("info string")]
            self.assertEqual(strings, [], e.log())
        # One table of 256 MiB (and the 16 MiB one it replaced, gone first).
        peak = self.peak_mib()
        if peak > 256 + 64:
            raise e.fail(f"Hash 16 -> 256 -> 256: peak resident {peak:.0f} MiB")
        e.send("setoption name Hash value 512")
        e.isready(timeout=30)
        peak = self.peak_mib()
        if peak > 512 + 64:
            raise e.fail(f"Hash 256 -> 512: peak resident {peak:.0f} MiB")
        _, best, _ = e.go("depth 5")
        self.assert_legal_bestmove(best, chess.Board(), "go depth 5 after the resizes")


class Escaping(EngineCase):
    """What `info string` repeats of the input has its control characters escaped: nothing
    but printable text reaches the GUI."""

    JUNK = [
        b"\x00\x1b[2J\x1b]0;owned\x07hello",
        b"\xff\xfe\x00binary\x01\x02\x7f",
        b"setoption name \x1b[31mred\x00 value 1",
        b"position startpos moves e2e4 \x00\x1b",
        b"\xc2\x9b31m \xe2\x80\xae right-to-left",
    ]

    def test_info_string_escapes_control_characters(self):
        e = self.e
        for junk in self.JUNK:
            e.send(junk)
        lines = e.isready()
        strings = [l.text for l in lines if l.text.startswith("info string")]
        self.assertEqual(len(strings), len(self.JUNK), e.log())
        for text in strings:
            bad = [c for c in text if ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c == "\u202e"]
            if bad:
                raise e.fail(f"control characters {bad!r} in {text!r}")
        if IS_CCR:
            joined = "\n".join(strings)
            for escaped in (r"\x00\x1b[2J\x1b]0;owned\x07hello", r"binary\x01\x02\x7f",
                            r"\x1b[31mred\x00", r"'\x00\x1b'", r"\u{9b}31m \u{202e}"):
                self.assertIn(escaped, joined, e.log())


if __name__ == "__main__":
    unittest.main()

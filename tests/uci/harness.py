"""Shared helpers for the UCI tests: the engine under test, a raw-pipe driver with a
transcript and timeouts everywhere, and per-test watchdogs.

The engine is `target/release/ccr`, or `$CCR_BIN` (any UCI engine: the suite was developed
against /usr/games/stockfish, which obeys the same contract except `bench`). Extra
arguments: `$CCR_ARGS` (split like a shell would).
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import chess

HERE_UCI = Path(__file__).resolve().parent
REPO = HERE_UCI.parents[1]
ENGINE = os.environ.get("CCR_BIN") or str(REPO / "target" / "release" / "ccr")
ENGINE_ARGS = shlex.split(os.environ.get("CCR_ARGS", ""))
# ccr's own commands (`ccr uci`, `ccr bench`) are tested only on ccr.
IS_CCR = os.path.basename(ENGINE).startswith("ccr")
OUT_DIR = REPO / "target" / "uci-tests"

sys.path.insert(0, str(REPO / "scripts"))

def standard_positions() -> dict[str, str]:
    """The six standard positions by their `;id` in tests/data/standard-perft.epd (the file the
    Rust tests and ccr::positions read): id -> FEN."""
    positions = {}
    for line in (REPO / "tests" / "data" / "standard-perft.epd").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fen, *fields = [field.strip() for field in line.split(";")]
            ids = [field[3:] for field in fields if field.startswith("id ")]
            positions[ids[0] if ids else fen] = fen
    return positions


STANDARD = standard_positions()
KIWIPETE = STANDARD["kiwipete"]

# The default wait for a reply that should come at once (seconds); generous for a loaded
# 2-core machine. Latency limits that are part of the contract are asserted separately.
REPLY = 5.0
# Every test is killed after this many seconds (a hang fails the test, not the run).
TEST_TIMEOUT = 90


class TestTimeout(AssertionError):
    pass


class Line:
    __slots__ = ("t", "text")

    def __init__(self, t: float, text: str):
        self.t = t
        self.text = text

    def __repr__(self) -> str:
        return repr(self.text)


class RawEngine:
    """The engine on raw pipes: lines are read by a thread, timestamped, and kept in a
    transcript for failure messages ("> sent", "< received", "! stderr")."""

    def __init__(self, args: Optional[Sequence[str]] = None):
        cmd = [ENGINE] + (ENGINE_ARGS if args is None else list(args))
        if not os.path.exists(ENGINE):
            raise unittest.SkipTest(f"{ENGINE} not built")
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, cwd=str(REPO))
        self.lines: "queue.Queue[Optional[Line]]" = queue.Queue()
        self.transcript: List[Tuple[float, str, str]] = []
        self.stderr: List[str] = []
        self.eof = False
        self._lock = threading.Lock()
        self.readers = [threading.Thread(target=self._read, args=(self.proc.stdout, False), daemon=True),
                        threading.Thread(target=self._read, args=(self.proc.stderr, True), daemon=True)]
        for reader in self.readers:
            reader.start()

    # -- plumbing --

    def _log(self, direction: str, text: str) -> None:
        with self._lock:
            self.transcript.append((time.monotonic() - self.t0, direction, text))

    def _read(self, pipe, is_err: bool) -> None:
        for raw in iter(pipe.readline, b""):
            t = time.monotonic()
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if is_err:
                self.stderr.append(text)
                self._log("!", text)
            else:
                self._log("<", text)
                self.lines.put(Line(t, text))
        if not is_err:
            self.lines.put(None)

    def log(self, last: int = 30) -> str:
        with self._lock:
            rows = self.transcript[-last:]
            skipped = len(self.transcript) - len(rows)
        out = [f"  ... {skipped} earlier lines"] if skipped else []
        for t, d, text in rows:
            if len(text) > 200:
                text = text[:200] + f"... ({len(text)} chars)"
            out.append(f"  {t:8.3f} {d} {text}")
        code = self.proc.poll()
        if code is not None:
            out.append(f"  (process exited with {code})")
        return "\n".join(out)

    def fail(self, msg: str) -> AssertionError:
        return AssertionError(f"{msg}\ntranscript ({ENGINE}):\n{self.log()}")

    # -- sending --

    def send(self, cmd: Union[str, bytes]) -> float:
        """Sends one line (a newline is appended); returns the time just before the write."""
        data = cmd if isinstance(cmd, bytes) else cmd.encode()
        shown = cmd if isinstance(cmd, str) else repr(cmd)
        self._log(">", shown if len(shown) <= 200 else shown[:150] + f"... ({len(data)} bytes)")
        t = time.monotonic()
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise self.fail(f"engine's stdin closed while sending {shown[:80]!r}: {err}")
        return t

    # -- receiving --

    def recv(self, timeout: float) -> Optional[Line]:
        """The next line, or None on timeout; raises on end of output."""
        if self.eof:
            raise self.fail(f"engine output ended (exit status {self.proc.poll()})")
        try:
            line = self.lines.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None
        if line is None:
            self.eof = True
            try:
                code = self.proc.wait(1)
            except subprocess.TimeoutExpired:
                code = "none yet: stdout closed, process still running"
            raise self.fail(f"engine output ended (exit status {code})")
        return line

    def expect(self, pred: Union[str, Callable[[str], bool]], timeout: float = REPLY,
               what: str = "") -> Tuple[Line, List[Line]]:
        """Reads until a line matches (`pred` a prefix or a predicate); returns it and the
        lines before it. Fails with the transcript on timeout."""
        if isinstance(pred, str):
            prefix = pred
            pred = lambda s: s == prefix or s.startswith(prefix + " ")  # noqa: E731
            what = what or repr(prefix)
        deadline = time.monotonic() + timeout
        before: List[Line] = []
        while True:
            line = self.recv(deadline - time.monotonic())
            if line is None:
                raise self.fail(f"no {what or 'expected line'} within {timeout:.2f} s")
            if pred(line.text):
                return line, before
            before.append(line)

    def drain(self, duration: float) -> List[Line]:
        """Every line that arrives within `duration` seconds."""
        out = []
        deadline = time.monotonic() + duration
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return out
            line = self.recv(left)
            if line is None:
                return out
            out.append(line)

    # -- UCI conveniences --

    def uci(self) -> List[Line]:
        self.send("uci")
        _, before = self.expect("uciok", what="uciok")
        return before

    def isready(self, timeout: float = REPLY) -> List[Line]:
        """isready → readyok; returns the lines before readyok (no bestmove allowed there
        unless the caller expects one, so they are returned for checking)."""
        self.send("isready")
        _, before = self.expect("readyok", timeout, "readyok")
        return before

    def go(self, args: str, timeout: float = 30.0) -> Tuple[List[str], str, float]:
        """`go ARGS` → (info lines, bestmove line, seconds from the send to the bestmove)."""
        t = self.send(f"go {args}".strip())
        line, before = self.expect("bestmove", timeout, f"bestmove for 'go {args}'")
        return [b.text for b in before], line.text, line.t - t

    def quit(self, timeout: float = 2.0) -> Optional[int]:
        try:
            self.send("quit")
        except AssertionError:
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Kills the engine if it still runs and closes the pipes once the reader threads
        have seen their end: closing a pipe under a reader would free its descriptor number
        for the next engine's pipe, and the reader (which reads byte by byte) would steal
        that engine's output."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        try:
            self.proc.stdin.close()
        except Exception:
            pass
        for reader, pipe in zip(self.readers, (self.proc.stdout, self.proc.stderr)):
            reader.join(5)
            if not reader.is_alive():
                pipe.close()


# --- parsing -----------------------------------------------------------------------------

INFO_KEYS_WITH_VALUE = {"depth", "seldepth", "time", "nodes", "multipv", "currmove", "currmovenumber",
                        "hashfull", "nps", "tbhits", "sbhits", "cpuload", "refutation", "currline"}


def parse_info(line: str) -> Dict[str, object]:
    """`info ...` → dict; `score` → ("cp"|"mate", int, bound or None); `pv` → list of moves;
    `string` → the rest of the line. Raises ValueError on a malformed line."""
    toks = line.split()
    if not toks or toks[0] != "info":
        raise ValueError(f"not an info line: {line!r}")
    out: Dict[str, object] = {}
    i = 1
    while i < len(toks):
        k = toks[i]
        if k == "string":
            out["string"] = " ".join(toks[i + 1:])
            break
        if k == "pv":
            out["pv"] = toks[i + 1:]
            break
        if k == "score":
            kind, val = toks[i + 1], int(toks[i + 2])
            if kind not in ("cp", "mate"):
                raise ValueError(f"score kind {kind!r}")
            bound = None
            i += 3
            if i < len(toks) and toks[i] in ("lowerbound", "upperbound"):
                bound = toks[i]
                i += 1
            out["score"] = (kind, val, bound)
            continue
        if k in ("currmove", "refutation", "currline"):
            out[k] = toks[i + 1]
            i += 2
            continue
        if k in INFO_KEYS_WITH_VALUE:
            out[k] = int(toks[i + 1])
            i += 2
            continue
        raise ValueError(f"unknown info token {k!r} in {line!r}")
    return out


def bestmove_of(line: str) -> str:
    toks = line.split()
    if len(toks) < 2 or toks[0] != "bestmove":
        raise ValueError(f"not a bestmove line: {line!r}")
    return toks[1]


def board_after(position: str) -> chess.Board:
    """python-chess board for a `position ...` command (a well-formed one)."""
    toks = position.split()
    assert toks[0] == "position"
    i = 1
    if toks[i] == "startpos":
        board = chess.Board()
        i += 1
    else:
        assert toks[i] == "fen"
        end = toks.index("moves") if "moves" in toks else len(toks)
        board = chess.Board(" ".join(toks[i + 1:end]))
        i = end
    if i < len(toks) and toks[i] == "moves":
        for m in toks[i + 1:]:
            board.push_uci(m)
    return board


def mates_in_one(board: chess.Board) -> set:
    out = set()
    for m in board.legal_moves:
        board.push(m)
        if board.is_checkmate():
            out.add(m.uci())
        board.pop()
    return out


def unwritable_dir(parent: Path) -> Optional[str]:
    """A directory this process cannot create a file in, or None: a read-only one made in
    `parent` when not root; root writes there, so then a pseudo file system's (/sys)."""
    own = parent / "read-only"
    own.mkdir(parents=True, exist_ok=True)
    own.chmod(0o500)
    for candidate in (str(own), "/sys", "/proc"):
        if not os.path.isdir(candidate):
            continue
        try:
            fd, probe = tempfile.mkstemp(dir=candidate)
        except OSError:
            return candidate
        os.close(fd)
        os.remove(probe)
    return None


# --- test base ---------------------------------------------------------------------------


class WatchdogCase(unittest.TestCase):
    """Each test gets TEST_TIMEOUT seconds (SIGALRM), so a hang fails it."""

    timeout = TEST_TIMEOUT

    def setUp(self) -> None:
        super().setUp()

        def on_alarm(signum, frame):
            raise TestTimeout(f"test took longer than {self.timeout} s (engine hung?)")

        self._old_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(self.timeout)

    def tearDown(self) -> None:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self._old_handler)
        super().tearDown()

    def assert_usage_error(self, command: str, status: int, out: str, err: str,
                           fragments: Sequence[str]) -> Tuple[str, str]:
        """A script's refusal of its command line: no traceback, exit status 2 and one
        `error:` line naming every fragment. Returns the line and the run's transcript."""
        what = f"{command}\nstdout:\n{out[-1500:]}\nstderr:\n{err[-1500:]}"
        self.assertNotIn("Traceback", err, what)
        self.assertEqual(status, 2, what)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, what)
        self.assertTrue(lines[0].startswith("error: "), what)
        for fragment in fragments:
            self.assertIn(fragment, lines[0], what)
        return lines[0], what


class ClientCase(WatchdogCase):
    """The engine driven by python-chess as a GUI would (`SimpleEngine.popen_uci`), one per
    test, in `self.engine`."""

    def setUp(self) -> None:
        super().setUp()
        if not os.path.exists(ENGINE):
            raise unittest.SkipTest(f"{ENGINE} not built")
        import chess.engine
        self.engine = chess.engine.SimpleEngine.popen_uci([ENGINE] + ENGINE_ARGS, timeout=10, cwd=str(REPO))
        self.addCleanup(self.close)

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            self.engine.close()


class EngineCase(WatchdogCase):
    """A fresh engine per test, after `uci`/`uciok`; at the end the engine must still be
    running, answer isready with no stray bestmove, and quit with exit status 0. A test that
    ends the engine on purpose (`quit`, closing its stdin) calls `expect_exit()` first; then
    the engine must have exited with status 0 instead."""

    def setUp(self) -> None:
        super().setUp()
        self.exit_expected = False
        self.e = RawEngine()
        self.addCleanup(self.e.close)
        self.e.uci()
        self.e.isready()

    def expect_exit(self) -> None:
        """Declares that the engine ends before the test does (the test sent `quit`)."""
        self.exit_expected = True

    def tearDown(self) -> None:
        try:
            if self._outcome_ok():
                self._check_end()
        finally:
            super().tearDown()

    def _check_end(self) -> None:
        e = self.e
        if self.exit_expected:
            try:
                code = e.proc.wait(2)
            except subprocess.TimeoutExpired:
                raise e.fail("the test expected the engine to exit; it still runs 2 s later") from None
            if code != 0:
                raise e.fail(f"the engine exited with status {code}, want 0")
            return
        if e.proc.poll() is not None or e.eof:
            try:
                code = e.proc.wait(1)
            except subprocess.TimeoutExpired:
                code = "none yet: stdout closed, process still running"
            raise e.fail(f"the engine ended before the test did (exit status {code})")
        before = e.isready()
        stray = [l.text for l in before if l.text.startswith("bestmove")]
        if stray:
            raise e.fail(f"stray bestmove after the test: {stray}")
        code = e.quit()
        if code != 0:
            raise e.fail(f"quit at the end: exit status {code} (None: still running after 2 s)")

    def _outcome_ok(self) -> bool:
        result = getattr(getattr(self, "_outcome", None), "result", None)
        if result is None:
            return True
        done = list(result.failures) + list(result.errors) + list(result.skipped)
        return not any(test is self for test, _ in done)

    # -- checks shared by the tests --

    def assert_legal_bestmove(self, line: str, board: chess.Board, context: str = "") -> chess.Move:
        mv = bestmove_of(line)
        if mv == "(none)" or mv == "0000":
            raise self.e.fail(f"{context}: '{line}' in {board.fen()}, which has legal moves")
        try:
            move = chess.Move.from_uci(mv)
        except ValueError:
            raise self.e.fail(f"{context}: bestmove {mv!r} is not a UCI move") from None
        if move not in board.legal_moves:
            raise self.e.fail(f"{context}: bestmove {mv} is illegal in {board.fen()}")
        return move

    def assert_held(self, position: Optional[str], go: str, board: chess.Board, context: str,
                    release: str = "stop", hold: float = 0.5, timeout: float = REPLY,
                    latency: Optional[float] = None) -> None:
        """Sends `position` (unless None) and `go`: no bestmove may come within `hold` seconds;
        after `release` (stop or ponderhit) a legal one must come within `timeout`, and
        within `latency` seconds if given."""
        e = self.e
        if position is not None:
            e.send(position)
        e.send(go)
        early = [l.text for l in e.drain(hold) if l.text.startswith("bestmove")]
        if early:
            raise e.fail(f"{context}: bestmove before {release}: {early}")
        t = e.send(release)
        line, _ = e.expect("bestmove", timeout, f"bestmove after {release} ({context})")
        self.assert_legal_bestmove(line.text, board, context)
        if latency is not None and line.t - t > latency:
            raise e.fail(f"{context}: bestmove {1000 * (line.t - t):.0f} ms after {release} "
                         f"(allowed {1000 * latency:.0f})")

    def assert_searched(self, infos: List[str], depth: int, context: str) -> None:
        depths = []
        for text in infos:
            if text.startswith("info") and " string " not in f"{text} " and "depth" in text.split():
                depths.append(parse_info(text).get("depth"))
        if depth not in depths:
            raise self.e.fail(f"{context}: no info line with depth {depth} (depths seen: {depths})")

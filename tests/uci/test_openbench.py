"""ccr as OpenBench's worker runs it, the contract written out here: `ccr bench` with stderr
merged into stdout, its signature read from the last lines (the last `N nodes` and `N nps`
found from the end); `ccr "genfens N seed S book B" quit`, its openings read from
`info string genfens FEN` lines, each within 15 seconds, a book given as EPD lines (a FIFO
refused at once, a book of lost positions given up on within seconds; on stdin `isready`,
`stop` and `quit` answered while it runs); the argument form's `go`, run to its limit (one
without a limit refused); and the
engine configuration an OpenBench instance is given (`docs/openbench/ccr.json`), checked as
OpenBench's server loads it and against the options and build ccr has."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import chess
import chess.engine

from harness import ENGINE, IS_CCR, REPLY, REPO, RawEngine, WatchdogCase, parse_info

NPS = re.compile(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)", re.I)
NODES = re.compile(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)", re.I)


# The keys OpenBench's server accepts in an engine's test and datagen presets.
PRESET_KEYS = {f"{side}_{what}" for side in ("both", "dev", "base")
               for what in ("branch", "bench", "network", "options", "time_control")} | {
    "book_name", "upload_pgns", "priority", "throughput", "workload_size", "syzygy_wdl",
    "syzygy_adj", "win_adj", "draw_adj"}
TEST_KEYS = PRESET_KEYS | {"test_bounds", "test_confidence", "test_max_games"}
DATAGEN_KEYS = PRESET_KEYS | {"datagen_custom_genfens", "datagen_play_reverses", "datagen_max_games"}


def worker_reads(output: str):
    """(nodes, nps) as OpenBench's worker reads a bench: from the last line back, the first
    match of each, after every character that is not a letter, digit or space became one."""
    nodes = nps = None
    for line in output.strip().split("\n")[::-1]:
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
        found_nps, found_nodes = NPS.search(line), NODES.search(line)
        nps = nps or (found_nps and found_nps.group())
        nodes = nodes or (found_nodes and found_nodes.group())
    number = lambda text: int(re.search(r"\d+", text).group()) if text else None
    return number(nodes), number(nps)


@unittest.skipUnless(IS_CCR, "ccr's own commands (bench, genfens)")
class OpenBench(WatchdogCase):
    timeout = 240

    def merged(self, args, timeout=120) -> str:
        done = subprocess.run([ENGINE] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout)
        self.assertEqual(done.returncode, 0, done.stdout[-2000:])
        return done.stdout

    def test_bench_signature_read_as_the_worker_reads_it(self):
        for args in (["bench", "6"], ["bench", "6", "--profile"]):
            out = self.merged(args)
            last = re.fullmatch(r"(\d+) nodes (\d+) nps", out.strip().split("\n")[-1])
            self.assertIsNotNone(last, f"{args}: the last line is not the signature:\n{out[-800:]}")
            self.assertEqual(worker_reads(out), (int(last.group(1)), int(last.group(2))),
                             f"{args}: the worker reads another signature:\n{out[-800:]}")

    def genfens(self, count: int, seed: int, book: str = "None") -> list:
        out = self.merged([f"genfens {count} seed {seed} book {book}", "quit"], timeout=15 * count)
        fens = [l.split("genfens ", 1)[1].rstrip() for l in out.splitlines()
                if l.startswith("info string genfens ")]
        self.assertEqual(len(fens), count, out[-2000:])
        for fen in fens:
            halfmove, fullmove = fen.split()[4:]  # what the worker turns into hmvc and fmvn
            board = chess.Board(fen)
            self.assertTrue(board.is_valid(), fen)
            self.assertIsNone(board.outcome(), fen)
            self.assertGreaterEqual(int(fullmove), 1, fen)
        return fens

    def test_genfens_is_seeded(self):
        first = self.genfens(8, 11)
        self.assertEqual(first, self.genfens(8, 11), "the same seed gave other openings")
        self.assertNotEqual(first, self.genfens(8, 12), "another seed gave the same openings")
        self.assertGreater(len(set(first)), 4, first)

    def test_genfens_starts_from_the_book(self):
        with tempfile.TemporaryDirectory() as tmp:
            book = Path(tmp) / "no-queens.epd"
            book.write_text("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - hmvc 0; fmvn 1;\n"
                            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - hmvc 0; fmvn 2;\n")
            for fen in self.genfens(6, 5, str(book)):
                board = chess.Board(fen)
                self.assertFalse(board.pieces(chess.QUEEN, chess.WHITE) or board.pieces(chess.QUEEN, chess.BLACK),
                                 f"{fen} is not from the book")

    def test_genfens_bad_requests_say_why(self):
        for command in ("genfens 0 seed 1 book None", "genfens 10001 seed 1 book None",
                        "genfens 5 seed x book None", "genfens 5 seed 1 book /nonexistent/book.epd",
                        "genfens 5 seed 1 book /dev/zero", "genfens 5 seed 1 book /etc/passwd",
                        "genfens 5 seed 1 book /tmp", "genfens 5"):
            out = self.merged([command, "quit"])
            self.assertNotIn("info string genfens ", out, command)
            self.assertIn("info string genfens", out, f"{command}: no word why:\n{out}")

    def test_genfens_refuses_a_fifo_at_once(self):
        # Opening it for reading waited for a writer that never came: no `quit` was read.
        with tempfile.TemporaryDirectory() as tmp:
            fifo = Path(tmp) / "book.epd"
            os.mkfifo(fifo)
            out = self.merged([f"genfens 5 seed 1 book {fifo}", "quit"], timeout=10)
        self.assertNotIn("info string genfens ", out)
        self.assertIn("info string genfens: book", out)
        self.assertIn("not a regular file", out)

    def test_genfens_gives_up_on_a_book_of_lost_positions(self):
        # Every line far ahead for one side: no continuation is within 120 cp. Ten thousand
        # positions asked for took 10,000,000 searches of 5,000 nodes: hours.
        with tempfile.TemporaryDirectory() as tmp:
            book = Path(tmp) / "lost.epd"
            book.write_text("4k3/8/8/8/8/8/8/QQQQK3 w - -\n4k3/8/8/8/8/8/8/QQQQK3 b - -\n"
                            "rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq -\n")
            t = time.monotonic()
            out = self.merged([f"genfens 10000 seed 1 book {book}", "quit"], timeout=60)
            took = time.monotonic() - t
        lines = out.splitlines()
        self.assertFalse([l for l in lines if l.startswith("info string genfens ")], out[-2000:])
        said = [l for l in lines if l.startswith("info string genfens:")]
        self.assertEqual(len(said), 1, out[-2000:])
        self.assertIn("0 of 10000 positions", said[0])
        self.assertIn("giving up", said[0])
        self.assertLess(took, 30, out[-2000:])

    def test_genfens_answers_isready_stop_and_quit(self):
        """genfens runs on the search thread: `isready` is answered while it writes, `stop`
        ends it with a line saying how many it wrote, and so does `quit`, at once."""
        e = RawEngine()
        self.addCleanup(e.close)
        try:
            e.send("genfens 10000 seed 1 book None")
            e.expect(lambda t: t.startswith("info string genfens "), what="a first position")
            t = e.send("isready")
            line, before = e.expect("readyok", REPLY, "readyok during genfens")
            self.assertLess(line.t - t, 1.0, e.log())
            t = e.send("stop")
            line, before = e.expect(lambda text: text.startswith("info string genfens:"), REPLY,
                                    "the line after stop")
            self.assertLess(line.t - t, 1.0, e.log())
            self.assertRegex(line.text, r"^info string genfens: stopped after \d+ of 10000 positions$")
            self.assertLess(int(line.text.split()[5]), 10000)
            e.isready()
            # The engine searches as before, and `quit` ends a second genfens at once.
            _, best, _ = e.go("depth 3")
            self.assertTrue(best.startswith("bestmove "), best)
            e.send("genfens 10000 seed 2 book None")
            e.expect(lambda t: t.startswith("info string genfens "), what="a first position")
            t = e.send("quit")
            e.proc.wait(REPLY)
            self.assertLess(time.monotonic() - t, 2.0, e.log())
            self.assertEqual(e.proc.returncode, 0, e.log())
        except subprocess.TimeoutExpired:
            raise e.fail("quit did not end genfens") from None

    def test_a_go_on_the_command_line_runs_to_its_limit(self):
        # The end of the arguments stopped the search at once: an unsearched first move.
        args = ["position startpos moves e2e4", "go depth 8"]
        out = self.merged(args).splitlines()
        self.assertTrue([l for l in out if l.startswith("info depth 8 ")], out)
        best = [l for l in out if l.startswith("bestmove")]
        self.assertEqual(len(best), 1, out)
        # The same search on stdin (one thread, a fresh table: the same tree).
        e = RawEngine()
        self.addCleanup(e.close)
        e.send(args[0])
        infos, line, _ = e.go("depth 8")
        self.assertEqual(best[0], line, e.log())
        self.assertEqual(parse_info([l for l in out if l.startswith("info depth 8 ")][-1])["pv"],
                         parse_info([i for i in infos if i.startswith("info depth 8 ")][-1])["pv"])
        e.quit()
        # Each argument waits for the one before: the second search starts after the first.
        out = self.merged(["position startpos", "go depth 6", "position startpos moves d2d4",
                           "go depth 6", "quit"]).splitlines()
        best = [l for l in out if l.startswith("bestmove")]
        self.assertEqual(len(best), 2, out)
        self.assertEqual(len([l for l in out if l.startswith("info depth 6 ")]), 2, out)

    def test_a_go_without_end_on_the_command_line_is_refused(self):
        # Nothing can send stop there: a search that only stop ends would never end.
        for go in ("go infinite", "go ponder depth 5", "go", "go searchmoves e2e4"):
            with self.subTest(go=go):
                done = subprocess.run([ENGINE, "position startpos", go], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, timeout=10)
                self.assertEqual(done.returncode, 0, done.stdout)
                lines = done.stdout.splitlines()
                self.assertEqual(len(lines), 1, done.stdout)
                self.assertRegex(lines[0], r"^info string go ignored: on the command line nothing can send stop")

    def test_engine_config_is_what_openbench_loads_and_ccr_takes(self):
        conf = json.loads((REPO / "docs" / "openbench" / "ccr.json").read_text())
        self.assertIs(type(conf["private"]), bool)
        self.assertIs(type(conf["nps"]), int)
        self.assertGreater(conf["nps"], 0)
        self.assertIsInstance(conf["source"], str)
        build = conf["build"]
        for key in ("cpuflags", "systems", "compilers"):
            self.assertTrue(all(isinstance(x, str) for x in build[key]), key)
        # The worker runs `make -j EXE=NAME` in the build path, with the compiler's version
        # at least the one named: the Makefile's EXE and Cargo.toml's rust-version.
        makefile = (REPO / build["path"] / "Makefile").read_text()
        self.assertRegex(makefile, r"cp target/release/ccr \$\(EXE\)")
        version = re.search(r'^rust-version = "([\d.]+)"', (REPO / "Cargo.toml").read_text(), re.M)
        self.assertEqual(build["compilers"], [f"cargo>={version.group(1)}"])
        self.assertIn("default", conf["test_presets"])
        self.assertIn("default", conf["datagen_presets"])
        with chess.engine.SimpleEngine.popen_uci(ENGINE) as engine:
            declared = dict(engine.options)
        for kind, keys in (("test_presets", TEST_KEYS), ("datagen_presets", DATAGEN_KEYS)):
            for name, preset in conf[kind].items():
                self.assertLessEqual(set(preset), keys, f"{kind} {name}")
                for option in preset.get("both_options", "").split():
                    key, value = option.split("=")
                    self.assertIn(key, declared, f"{kind} {name}: ccr has no option {key}")
                    spin = declared[key]
                    self.assertTrue(spin.min <= int(value) <= spin.max, f"{kind} {name}: {option}")
                control = preset.get("both_time_control", "1+0")
                self.assertRegex(control, r"^(\d+(\.\d+)?\+\d+(\.\d+)?|N=\d+)$", f"{kind} {name}")
                if "test_bounds" in preset:
                    low, high = json.loads(preset["test_bounds"])
                    self.assertLess(low, high, f"{kind} {name}")


if __name__ == "__main__":
    unittest.main()

"""scripts/match.py refuses bad arguments before it plays: every numeric argument out of its
range, a PGN it could not write, a FIFO as --pgn or --openings (at once, not waiting for its
other end), an option value of the wrong type (a mistyped check value), an --event with a
control character, usage errors, each as one `error:` line on stderr with exit status 2 and
no traceback. Tag values with quotes and backslashes are written escaped, as the PGN
standard says, and --resume reads them back. A relative engine path is taken from the caller's directory (the
engines run in target/match/work/), and a PGN that becomes unwritable during the match stops
it with one error line.

Each check that should refuse the arguments gets a short match (ccr against Fairy-Max, two
games at 0.5+0.01), so that a check that is missing shows as a match played, not a long run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

from harness import ENGINE, OUT_DIR, REPO, WatchdogCase, unwritable_dir

SCRIPT = REPO / "scripts" / "match.py"
FAIRYMAX = "/usr/games/fairymax"
PGN = OUT_DIR / "match-args.pgn"
# A short match, so that arguments that are wrongly accepted cost seconds.
SHORT = ["--ccr", ENGINE, "--engines", "fairymax", "--games", "2", "--tc", "0.5+0.01", "--pgn", str(PGN)]


def run_match(args, cwd=None, timeout=60):
    proc = subprocess.run([sys.executable, "-B", str(SCRIPT)] + list(args), capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr



class UsageErrors(WatchdogCase):
    timeout = 240

    def setUp(self):
        super().setUp()
        OUT_DIR.mkdir(parents=True, exist_ok=True)

    def assert_refused(self, args, *fragments, cwd=None):
        """One `error:` line naming the fragments, exit status 2, no game played."""
        status, out, err = run_match(args, cwd)
        _, what = self.assert_usage_error(f"match.py {' '.join(args)}", status, out, err, fragments)
        self.assertNotRegex(out, r"(?m)^\[1/", what)

    def test_chess960_needs_opponents_that_play_it(self):
        # Phalanx (xboard, no fischerandom) and Toga II (no UCI_Chess960) would read
        # Chess960 castling as a king's move.
        for engine in ("phalanx", "toga2"):
            with self.subTest(engine=engine):
                args = SHORT + ["--chess960"]
                args[args.index("fairymax")] = engine
                self.assert_refused(args, engine, "does not play Chess960")

    def test_time_margin_range(self):
        # -100000 ms made every game a time forfeit against ccr.
        for value in ("-100000", "-1", "nan", "inf", "5001"):
            with self.subTest(value=value):
                self.assert_refused(SHORT + ["--time-margin", value], "--time-margin", "out of range")

    def test_max_replays_range(self):
        # -1 played no game at all and exited 0.
        for value in ("-1", "101"):
            with self.subTest(value=value):
                self.assert_refused(SHORT + ["--max-replays", value], "--max-replays", "out of range")

    def test_other_numbers_range(self):
        cases = [
            (["--max-plies", "-3"], "--max-plies"),  # drew every game at its first ply
            (["--concurrency", "1000"], "--concurrency"),
            (["--games", "2000000"], "--games"),
            (["--sprt-alpha", "2"], "--sprt-alpha"),  # checked only with --sprt
            (["--sprt-beta", "nan"], "--sprt-beta"),
            (["--resign", "0:4"], "CP 0"),  # switched the adjudication off silently
            (["--resign=-100:4"], "CP -100"),  # resigned games at +100 cp
            (["--resign", "1000:0"], "MOVES 0"),
            (["--draw", "10:0:40"], "MOVES 0"),
            (["--draw=-5:8:40"], "CP -5"),
            (["--draw", "10:8:-1"], "FROM -1"),
            (["--resign", "1000:4:2"], "CP:MOVES"),
            (["--tc", "0/1"], "at least one move"),  # a period of no moves: the whole game
            (["--tc", "9" * 400], "at most"),  # an infinite clock: a traceback in a timer
        ]
        for extra, fragment in cases:
            with self.subTest(args=extra):
                # The last --tc given wins, so SHORT's is overridden.
                self.assert_refused(SHORT + extra, fragment)

    def test_usage_errors_are_one_line(self):
        for extra, fragment in ((["--games", "x"], "--games"), (["--bogus"], "--bogus"),
                                (["--elo-model", "bayes"], "--elo-model")):
            with self.subTest(args=extra):
                self.assert_refused(SHORT + extra, fragment)

    def test_openings_not_text(self):
        path = OUT_DIR / "not-openings.epd"
        path.write_bytes(b"\xff\xfe\x00\x81 binary junk\n")
        self.assert_refused(SHORT + ["--openings", str(path)], "not a text file")

    def test_pgn_checked_before_the_first_game(self):
        # A directory played a game, then ended in a traceback.
        directory = OUT_DIR / "pgn-directory"
        directory.mkdir(parents=True, exist_ok=True)
        self.assert_refused(SHORT[:-1] + [str(directory)], "--pgn", "is a directory")
        # A path through a file.
        blocker = OUT_DIR / "pgn-blocker"
        blocker.write_text("a file, not a directory\n")
        self.assert_refused(SHORT[:-1] + [str(blocker / "sub" / "games.pgn")], "--pgn", "not a directory")
        place = unwritable_dir(OUT_DIR)
        if place is None:
            self.skipTest("no unwritable directory here")
        self.assert_refused(SHORT[:-1] + [os.path.join(place, "games.pgn")], "--pgn", "cannot write")

    def test_a_fifo_is_refused_at_once(self):
        # Opening it waited for its other end, before the first game, for ever.
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "fifo")
            os.mkfifo(fifo)
            self.assert_refused(SHORT + ["--openings", fifo], "cannot read openings", "not a regular file")
            self.assert_refused(SHORT[:-1] + [fifo], "--pgn", "not a regular file")

    def test_a_mistyped_check_value_is_refused(self):
        # 'ture' was read as false, and the match played without the option.
        self.assert_refused(SHORT + ["--ccr-option", "UCI_ShowWDL=ture"], "UCI_ShowWDL", "'ture' is not true or false")
        self.assert_refused(SHORT + ["--ccr-option", "Hash=big"], "Hash", "not an integer")

    def test_a_control_character_in_a_tag_is_refused(self):
        # A newline in the Event tag cut the PGN's header in two: --resume lost the game.
        for event in ("two\nlines", "a\rb", "tab\there"):
            with self.subTest(event=event):
                self.assert_refused(SHORT + ["--event", event], "--event", "control character")
        self.assert_refused(SHORT + ["--uci-engine", f"a\nb={ENGINE}", "--engines", "a\nb"], "--uci-engine",
                            "control character")

    def test_missing_engine_is_named_absolute(self):
        with tempfile.TemporaryDirectory() as cwd:
            self.assert_refused(SHORT[2:] + ["--ccr", "no-such-ccr"], os.path.join(os.path.realpath(cwd), "no-such-ccr"),
                                cwd=os.path.realpath(cwd))


@unittest.skipUnless(os.path.exists(ENGINE), f"{ENGINE} not built")
class EnginePaths(WatchdogCase):
    timeout = 120

    def test_relative_engine_paths(self):
        """--ccr and --uci-engine relative to the caller's directory (the engines run in
        target/match/work/, where the relative path names nothing)."""
        cwd = OUT_DIR / "relative" / "a" / "b"
        cwd.mkdir(parents=True, exist_ok=True)
        rel = os.path.relpath(ENGINE, cwd)
        # From the engines' directory the same relative path must name nothing.
        work = REPO / "target" / "match" / "work"
        self.assertFalse(os.path.exists(os.path.join(work, rel)), f"{rel} from {work} exists: pick another cwd")
        pgn = OUT_DIR / "match-relative.pgn"
        pgn.unlink(missing_ok=True)
        status, out, err = run_match(["--ccr", rel, "--uci-engine", f"opp={rel}", "--engines", "opp", "--games", "2",
                                      "--tc", "0.5+0.01", "--pgn", str(pgn)], cwd=str(cwd))
        self.assertEqual(status, 0, f"--ccr {rel} from {cwd}\n{out[-1500:]}\n{err[-1500:]}")
        self.assertRegex(out, r"(?m)^opp +2 games", out)


# A PGN tag as the standard has it: a quoted string, `\"` and `\\` its only escapes.
STRICT_TAG = re.compile(r'\[([A-Za-z0-9_]+) "((?:[^"\\]|\\["\\])*)"\]')


def strict_tags(pgn: str):
    """The PGN's games' tags read as the standard says: a list of {name: value} per game;
    a tag line that does not parse fails."""
    games, tags = [], None
    for line in pgn.splitlines():
        if line.startswith("["):
            found = STRICT_TAG.fullmatch(line)
            if found is None:
                raise AssertionError(f"not a PGN tag: {line!r}")
            if tags is None:
                tags = {}
                games.append(tags)
            tags[found.group(1)] = re.sub(r'\\(["\\])', r"\1", found.group(2))
        elif line.strip():
            tags = None
    return games


@unittest.skipUnless(os.path.exists(ENGINE), f"{ENGINE} not built")
class TagsReadBack(WatchdogCase):
    timeout = 120

    def test_resume_reads_back_escaped_tags(self):
        """An --event and an opening name with quotes and backslashes: written escaped, read
        back by --resume as the same match (no game played again)."""
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        pgn = OUT_DIR / "match-tags.pgn"
        pgn.unlink(missing_ok=True)
        event = 'say "hi" \\ to \\"x\\" \\'
        name = 'King\'s "pawn" \\ line\\'
        epd = OUT_DIR / "match-tags.epd"
        escaped = name.replace("\\", "\\\\").replace('"', '\\"')
        epd.write_text(f'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "{escaped}";\n')
        args = ["--ccr", ENGINE, "--uci-engine", f"opp={ENGINE}", "--engines", "opp", "--games", "2",
                "--tc", "0.5+0.01", "--openings", str(epd), "--event", event, "--pgn", str(pgn)]
        status, out, err = run_match(args)
        self.assertEqual(status, 0, f"{out[-1500:]}\n{err[-1500:]}")
        games = strict_tags(pgn.read_text())
        self.assertEqual(len(games), 2, pgn.read_text())
        for tags in games:
            self.assertEqual(tags["Event"], event)
            self.assertEqual(tags["Opening"], name)
        status, out, err = run_match(args + ["--resume"])
        what = f"{out[-1500:]}\n{err[-1500:]}"
        self.assertEqual(status, 0, what)
        self.assertIn("resumed: 2 counted games", out, what)
        self.assertNotRegex(out, r"(?m)^\[1/", what)


@unittest.skipUnless(os.path.exists(ENGINE) and os.path.exists(FAIRYMAX), "needs ccr and /usr/games/fairymax")
class PgnLost(WatchdogCase):
    timeout = 120

    def test_unwritable_pgn_stops_the_match(self):
        """The PGN replaced by a directory after the first game: the next game's append fails;
        the match stops with one error line instead of a traceback (or playing on)."""
        pgn = OUT_DIR / "match-lost.pgn"
        if pgn.is_dir():
            pgn.rmdir()
        pgn.unlink(missing_ok=True)
        proc = subprocess.Popen([sys.executable, "-B", str(SCRIPT), "--ccr", ENGINE, "--engines", "fairymax",
                                 "--games", "8", "--tc", "0.5+0.01", "--pgn", str(pgn)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            first = ""
            for line in proc.stdout:
                if line.startswith("[1/8"):
                    first = line
                    break
            self.assertTrue(first, "no first game")
            pgn.unlink()
            pgn.mkdir()
            t = time.monotonic()
            out, err = proc.communicate(timeout=60)
            took = time.monotonic() - t
        finally:
            proc.kill()
            proc.wait()
            if pgn.is_dir():
                pgn.rmdir()
        what = f"stdout:\n{out[-1500:]}\nstderr:\n{err[-1500:]}"
        self.assertNotIn("Traceback", err, what)
        self.assertEqual(proc.returncode, 2, what)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, what)
        self.assertRegex(lines[0], r"^error: --pgn .*cannot append a game", what)
        # Stopped at the failed game, not after the other six.
        self.assertNotRegex(out, r"(?m)^\[[2-8]/8", what)
        self.assertLess(took, 30, what)


if __name__ == "__main__":
    unittest.main()

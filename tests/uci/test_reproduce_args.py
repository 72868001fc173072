"""scripts/reproduce.py refuses bad arguments before it measures or builds anything: no step
or an unknown one, a --data that is a file or cannot be written, --no-build without a binary
a step needs (named, with the command that builds it), a missing tool; each as one `error:`
line with exit status 2 and no traceback.

The script runs from a scratch checkout (its own ROOT: a git repository holding links to
scripts/reproduce.py and the perft data), so that target/reproduce/ holds exactly the
binaries a test puts there, never the real build's. Every run passes --no-build: nothing is
built, whatever the outcome."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from harness import REPO, WatchdogCase, unwritable_dir

import reproduce  # scripts/reproduce.py (harness put scripts/ on sys.path)

SCRIPT = REPO / "scripts" / "reproduce.py"
# A stand-in for a measured binary: `ccr bench` prints its last line like this.
STUB = "#!/bin/sh\necho '1 nodes 1 nps'\n"


class Arguments(WatchdogCase):
    timeout = 120

    def setUp(self):
        super().setUp()
        self.root = Path(tempfile.mkdtemp(prefix="ccr-reproduce-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        (self.root / "scripts").mkdir()
        (self.root / "scripts" / "reproduce.py").symlink_to(SCRIPT)
        (self.root / "tests" / "data").mkdir(parents=True)
        (self.root / "tests" / "data" / "standard-perft.epd").symlink_to(REPO / "tests" / "data" / "standard-perft.epd")
        git = ["git", "-C", str(self.root), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "scratch"], check=True)
        self.data = self.root / "data"

    def stub(self, *names):
        """Stand-ins for target/reproduce/NAME (ccr-x86_64, crate_perft-i686, ...)."""
        binaries = self.root / "target" / "reproduce"
        binaries.mkdir(parents=True, exist_ok=True)
        for name in names:
            path = binaries / name
            path.write_text(STUB)
            path.chmod(0o755)

    def run_script(self, args, env=None):
        command = [sys.executable, "-B", str(self.root / "scripts" / "reproduce.py")] + list(args)
        proc = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, cwd=str(self.root))
        return proc.returncode, proc.stdout, proc.stderr

    def assert_refused(self, args, *fragments, env=None):
        line, _ = self.assert_usage_error(f"reproduce.py {' '.join(args)}", *self.run_script(args, env), fragments)
        return line

    def test_no_step(self):
        # `--steps ''` ran nothing and said `all done`.
        for steps in ("", ",", " , "):
            with self.subTest(steps=steps):
                self.assert_refused(["--no-build", "--data", str(self.data), "--steps", steps], "names no step")

    def test_unknown_step(self):
        self.assert_refused(["--no-build", "--data", str(self.data), "--steps", "perft,nonsense"],
                            "unknown step(s) nonsense")

    def test_usage_error_is_one_line(self):
        self.assert_refused(["--no-build", "--bogus"], "--bogus")

    def test_data_not_a_directory(self):
        afile = self.root / "a-file"
        afile.write_text("not a directory\n")
        self.assert_refused(["--no-build", "--steps", "keys", "--data", str(afile)], str(afile), "not a directory")
        self.assert_refused(["--no-build", "--steps", "keys", "--data", str(afile / "sub")], "not a directory")

    def test_data_unwritable(self):
        place = unwritable_dir(self.root)
        if place is None:
            self.skipTest("no unwritable directory here")
        # The binary the step runs is there: only the data directory is wrong.
        self.stub("ccr-x86_64")
        self.assert_refused(["--no-build", "--steps", "keys", "--data", place], "--data", "cannot write")

    def test_no_build_names_the_missing_binary(self):
        line = self.assert_refused(["--no-build", "--steps", "keys", "--data", str(self.data)],
                                   "ccr-x86_64", "make build")
        self.assertIn("keys", line)

    def test_no_build_without_the_i686_binary(self):
        self.stub("ccr-x86_64")
        self.assert_refused(["--no-build", "--quick", "--steps", "bench", "--data", str(self.data)],
                            "ccr-i686", "make build32")

    def test_no_build_without_the_crates_binary(self):
        self.stub("ccr-x86_64", "ccr-i686")
        self.assert_refused(["--no-build", "--quick", "--steps", "perft", "--data", str(self.data)],
                            "crate_perft-x86_64", "--example crate_perft")

    def test_missing_tool(self):
        """valgrind off the PATH: the instructions step names it and `make bench-setup`."""
        self.stub("ccr-x86_64", "ccr-i686", "crate_perft-x86_64", "crate_perft-i686")
        bin_dir = self.root / "bin"
        bin_dir.mkdir()
        (bin_dir / "git").symlink_to(shutil.which("git"))
        env = dict(os.environ, PATH=str(bin_dir))
        self.assert_refused(["--no-build", "--quick", "--steps", "instructions", "--data", str(self.data)],
                            "valgrind", "make bench-setup", env=env)

    def test_missing_prerequisite_is_named_not_installed(self):
        """The engines step needs Debian's i386 engines under target/engines32 (none in the
        scratch checkout): refused with the target that installs them, nothing run."""
        self.assert_refused(["--no-build", "--quick", "--steps", "engines", "--data", str(self.data)],
                            "target/engines32", "make setup-engines32", "make setup")

    def test_tally_writes_the_games_played_without_building_or_playing(self):
        """--tally: strength.tsv tallies strength.pgn's counted games by opponent (a void game
        and an unfinished one aside), and names the games per engine; no binary is needed."""
        self.data.mkdir()

        def game(rnd, white, black, result, void=False):
            return (f'[Event "ccr gauntlet"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
                    f'[Result "{result}"]\n' + ('[Void "time"]\n' if void else '') + f'\n1. e4 {result}\n')
        (self.data / "strength.pgn").write_text("\n".join([
            game("toga2.1", "ccr 0.1.0", "Toga II 3.0", "1-0"),
            game("toga2.2", "Toga II 3.0", "ccr 0.1.0", "1-0"),
            game("toga2.3", "ccr 0.1.0", "Toga II 3.0", "1/2-1/2"),
            game("toga2.4", "Toga II 3.0", "ccr 0.1.0", "0-1", void=True),
            game("ethereal.1", "Ethereal 12.00", "ccr 0.1.0", "0-1"),
            game("ethereal.2", "ccr 0.1.0", "Ethereal 12.00", "*"),
        ]))
        code, _, err = self.run_script(["--steps", "strength", "--tally", "--data", str(self.data)])
        self.assertEqual(code, 0, err)
        table = (self.data / "strength.tsv").read_text()
        self.assertIn("for toga2 3, ethereal 1 (games: strength.pgn) (the games played so far)", table)
        rows = [line.split("\t") for line in table.splitlines() if not line.startswith("#")]
        self.assertEqual(rows, [["opponent", "tc", "wins", "draws", "losses"],
                                ["Ethereal 12.00", "10+0.1", "1", "0", "0"],
                                ["Toga II 3.0", "10+0.1", "1", "1", "1"]])
        built = self.root / "target" / "reproduce"
        self.assertEqual(list(built.iterdir()) if built.exists() else [], [], "something was built")

    def test_make_reproduce_installs_nothing(self):
        """`make reproduce` runs reproduce.py (which checks) and nothing that installs."""
        shutil.copy(REPO / "Makefile", self.root / "Makefile")
        done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(self.root), "reproduce", "QUICK=1",
                               f"DATA={self.data}"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        commands = [line for line in done.stdout.splitlines() if line.strip()]
        self.assertEqual(len(commands), 1, done.stdout)
        self.assertIn("scripts/reproduce.py --quick", commands[0])
        self.assertIn("--report", commands[0])


class DataElsewhere(WatchdogCase):
    """`make report DATA=dir` (the last step of `make reproduce DATA=dir`) writes the redrawn
    documents and plots into dir and leaves the tracked tree as it is: run in a scratch git
    repository that holds the Makefile, the report's script and templates and copies of the
    tracked documents, on a copy of docs/data whose perft run names another commit (so that it
    draws other documents)."""

    timeout = 300
    DOCS = ["README.md", "docs/PAPER.md", "docs/BENCHMARKS.md", "docs/STRENGTH.md"]

    def setUp(self):
        super().setUp()
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.fail("matplotlib missing: `make setup-report` installs it")
        self.root = Path(tempfile.mkdtemp(prefix="ccr-report-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        for name in ("scripts", "docs"):
            (self.root / name).mkdir()
        shutil.copy(REPO / "Makefile", self.root / "Makefile")
        for name in ("report.py", "setup-report.sh"):
            (self.root / "scripts" / name).symlink_to(REPO / "scripts" / name)
        (self.root / "docs" / "templates").symlink_to(REPO / "docs" / "templates")
        for name in self.DOCS:
            shutil.copy(REPO / name, self.root / name)
        shutil.copytree(REPO / "docs" / "plots", self.root / "docs" / "plots")
        shutil.copytree(REPO / "docs" / "data", self.root / "docs" / "data")
        self.git = ["git", "-C", str(self.root), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(self.git + ["init", "-q"], check=True)
        subprocess.run(self.git + ["add", "-A"], check=True)
        subprocess.run(self.git + ["commit", "-q", "-m", "scratch"], check=True)
        self.data = Path(tempfile.mkdtemp(prefix="ccr-report-data-"))
        self.addCleanup(shutil.rmtree, self.data, True)
        shutil.rmtree(self.data)
        shutil.copytree(REPO / "docs" / "data", self.data)
        perft = self.data / "perft.tsv"
        text = perft.read_text()
        self.assertIn("# commit: ", text)
        perft.write_text("\n".join("# commit: 0123456789" if line.startswith("# commit: ") else line
                                   for line in text.split("\n")))

    def status(self):
        return subprocess.run(self.git + ["status", "--porcelain", "--untracked-files=all"],
                              capture_output=True, text=True, check=True).stdout

    def test_make_report_writes_into_the_data_directory(self):
        # -o setup-report: installing is `make setup`'s business, not this test's.
        done = subprocess.run(["make", "--no-print-directory", "-C", str(self.root), "-o", "setup-report",
                               "report", f"DATA={self.data}"], capture_output=True, text=True, timeout=240)
        what = f"stdout:\n{done.stdout[-1500:]}\nstderr:\n{done.stderr[-1500:]}"
        self.assertEqual(done.returncode, 0, what)
        self.assertEqual(self.status(), "", "the tracked tree changed:\n" + what)
        for name in self.DOCS:
            drawn = self.data / os.path.basename(name)
            self.assertTrue(drawn.is_file(), f"{drawn} not written\n{what}")
        self.assertIn("0123456789", (self.data / "PAPER.md").read_text())
        plots = sorted(p.name for p in (self.data / "plots").glob("*.svg"))
        self.assertEqual(plots, sorted(p.name for p in (REPO / "docs" / "plots").glob("*.svg")), what)
        # What was drawn there checks against its own data, and the tracked tree against its own.
        for data in (self.data, self.root / "docs" / "data"):
            done = subprocess.run([sys.executable, "-B", str(self.root / "scripts" / "report.py"), "--data",
                                   str(data), "--check"], capture_output=True, text=True, timeout=240)
            self.assertEqual(done.returncode, 0, f"--check on {data}: {done.stderr[-1500:]}")


class WholeFiles(unittest.TestCase):
    """The data files reproduce.py writes by rename: a link stays a link and its target gets
    the text; a FIFO or a directory in the way is an error, never replaced."""

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="ccr-whole-"))
        self.addCleanup(shutil.rmtree, self.dir, True)

    def test_a_link_stays_a_link(self):
        target = self.dir / "elsewhere" / "perft.tsv"
        target.parent.mkdir()
        target.write_text("old\n")
        link = self.dir / "perft.tsv"
        link.symlink_to(target)
        reproduce.write_whole(str(link), "new\n")
        self.assertTrue(link.is_symlink(), "the link was replaced by a file")
        self.assertEqual(target.read_text(), "new\n")
        self.assertEqual(sorted(p.name for p in target.parent.iterdir()), ["perft.tsv"])

    def test_what_is_not_a_regular_file_is_refused(self):
        fifo = self.dir / "fifo.tsv"
        os.mkfifo(fifo)
        directory = self.dir / "dir.tsv"
        directory.mkdir()
        for path in (fifo, directory, self.dir / "link-to-fifo"):
            if path.name == "link-to-fifo":
                path.symlink_to(fifo)
            with self.assertRaises(RuntimeError, msg=str(path)):
                reproduce.write_whole(str(path), "text\n")
        self.assertTrue(fifo.is_fifo())
        self.assertTrue(directory.is_dir())


class Opponents(unittest.TestCase):
    """The strength and limit steps check for the executables match.py starts, by match.py's
    own table: Ethereal 12.00 is Debian's `ethereal-chess`, not `ethereal`."""


    def test_ethereal_is_debians_ethereal_chess(self):
        self.assertEqual(reproduce.opponent_binaries(["ethereal"]), ["/usr/games/ethereal-chess"])

    def test_every_opponent_is_installed_by_setup_uci(self):
        engines = [e for e, _ in reproduce.LADDER] + list(reproduce.LIMIT_OPPONENTS)
        for engine, path in zip(engines, reproduce.opponent_binaries(engines)):
            self.assertTrue(os.access(path, os.X_OK), f"{engine}: {path} is not executable (make setup-uci)")


if __name__ == "__main__":
    unittest.main()

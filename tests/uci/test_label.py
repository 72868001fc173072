"""scripts/label.py: labels blend the game's result with Stockfish's expected score, keep the
input's order, resume after a stop, and bad input is one error line with exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest

from harness import OUT_DIR, REPO, WatchdogCase

LABEL = str(REPO / "scripts" / "label.py")
STOCKFISH = "/usr/games/stockfish"
# White mates in one (Ra8#), bare kings, and White a queen down; each with a game result
# that contradicts the evaluation, so that the blend shows which part a label came from.
POSITIONS = [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40", "0.0"),
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 60", "1.0"),
    ("3qk3/8/8/8/8/8/8/4K3 w - - 0 30", "1.0"),
]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-B", LABEL, *args], capture_output=True, text=True, timeout=120)


@unittest.skipUnless(os.path.exists(STOCKFISH), "needs /usr/games/stockfish (make setup-uci)")
class Labels(WatchdogCase):
    timeout = 180

    def setUp(self):
        super().setUp()
        self.dir = OUT_DIR / "label"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data = self.dir / "data.txt"
        self.data.write_text("".join(f"{fen};{result}\n" for fen, result in POSITIONS))
        self.out = self.dir / "labelled.txt"
        if self.out.exists():
            self.out.unlink()

    def labels(self):
        lines = self.out.read_text().splitlines()
        self.assertEqual([line.rpartition(";")[0] for line in lines], [fen for fen, _ in POSITIONS])
        return [float(line.rpartition(";")[2]) for line in lines]

    def test_blend_of_result_and_evaluation(self):
        done = run("--in", str(self.data), "--out", str(self.out), "--nodes", "2000", "--lambda", "0")
        self.assertEqual(done.returncode, 0, done.stderr)
        mate, drawn, lost = self.labels()
        # Stockfish alone: the mate is won, the bare kings drawn, the queen down lost.
        self.assertEqual(mate, 1.0)
        self.assertAlmostEqual(drawn, 0.5, delta=0.01)
        self.assertLess(lost, 0.05)
        # The result alone.
        self.out.unlink()
        done = run("--in", str(self.data), "--out", str(self.out), "--nodes", "2000", "--lambda", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.labels(), [0.0, 1.0, 1.0])
        # A quarter of the result and three quarters of the evaluation.
        self.out.unlink()
        done = run("--in", str(self.data), "--out", str(self.out), "--nodes", "2000", "--lambda", "0.25")
        self.assertEqual(done.returncode, 0, done.stderr)
        blended = self.labels()
        self.assertAlmostEqual(blended[0], 0.75, delta=0.001)
        self.assertAlmostEqual(blended[1], 0.25 + 0.75 * drawn, delta=0.01)
        self.assertAlmostEqual(blended[2], 0.25 + 0.75 * lost, delta=0.03)

    def test_resumes_after_the_lines_written(self):
        self.out.write_text(f"{POSITIONS[0][0]};0.1234\n{POSITIONS[1][0]};0.5")  # a cut-off line
        done = run("--in", str(self.data), "--out", str(self.out), "--nodes", "1000", "--lambda", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("1 labelled before", done.stderr)
        self.assertEqual(self.labels(), [0.1234, 1.0, 1.0])
        # An output of other positions is not continued.
        self.out.write_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1;0.5\n")
        done = run("--in", str(self.data), "--out", str(self.out))
        self.assertEqual(done.returncode, 2)
        self.assertIn("does not continue", done.stderr)

    def test_bad_input_is_one_error_line(self):
        for content in ("not a line\n", "8/8/8/8/8/8/8/8 w - - 0 1;0.5\n", f"{POSITIONS[0][0]};1.5\n"):
            self.data.write_text(content)
            if self.out.exists():
                self.out.unlink()
            done = run("--in", str(self.data), "--out", str(self.out), "--nodes", "500")
            self.assertEqual(done.returncode, 2, content)
            errors = [line for line in done.stderr.splitlines() if "error:" in line]
            self.assertEqual(len(errors), 1, done.stderr)
            self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()

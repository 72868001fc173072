"""`ccr bench` (README, "Command line"): OpenBench style, last stdout line `N nodes N nps`, the node
count the same on every run."""

from __future__ import annotations

import re
import subprocess
import unittest

from harness import ENGINE, IS_CCR, REPO, WatchdogCase

BENCH_LINE = re.compile(r"^(\d+) nodes (\d+) nps$")


@unittest.skipUnless(IS_CCR, "ccr's own command (bench)")
class Bench(WatchdogCase):
    timeout = 150

    def run_bench(self):
        proc = subprocess.run([ENGINE, "bench"], capture_output=True, text=True, timeout=70, cwd=str(REPO))
        where = f"`{ENGINE} bench`: exit {proc.returncode}\nstdout tail: {proc.stdout[-500:]!r}\nstderr tail: {proc.stderr[-500:]!r}"
        self.assertEqual(proc.returncode, 0, where)
        lines = proc.stdout.rstrip("\n").split("\n")
        m = BENCH_LINE.match(lines[-1]) if lines else None
        self.assertIsNotNone(m, f"last stdout line is not 'N nodes N nps'; {where}")
        nodes, nps = int(m.group(1)), int(m.group(2))
        self.assertGreater(nodes, 0, where)
        self.assertGreater(nps, 0, where)
        return nodes

    def test_bench_deterministic(self):
        first = self.run_bench()
        second = self.run_bench()
        self.assertEqual(first, second, "ccr bench node count differs between two runs")


if __name__ == "__main__":
    unittest.main()

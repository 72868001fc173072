#!/usr/bin/env python3
"""Runs the UCI tests (tests/uci/test_*.py) with the standard library's unittest.

    python3 tests/uci/run.py                       # all of them, on target/release/ccr
    CCR_BIN=/usr/games/stockfish python3 tests/uci/run.py test_protocol.StopAndReady
    python3 tests/uci/run.py -q                     # one character per test

Ends with the line `uci: N passed, N failed, N skipped`; exit status 1 if anything failed.
`python3 tests/uci/check_faults.py` checks that the tests can fail: it runs them against
faulty_engine.py (Stockfish with one injected fault at a time; about two minutes).
"""

from __future__ import annotations

import os
import sys
import time
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in tests/uci/ or scripts/
HERE = Path(__file__).resolve().parent


def main(argv) -> int:
    quiet = "-q" in argv
    names = [a for a in argv if not a.startswith("-")]
    try:
        import chess  # noqa: F401
    except ImportError:
        print("error: python-chess missing; run `make setup-uci` (scripts/setup-uci.sh)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    import harness

    if not os.path.exists(harness.ENGINE):
        print(f"error: {harness.ENGINE} not found; build it (cargo build --release) or set CCR_BIN",
              file=sys.stderr)
        return 2
    print(f"UCI tests on {harness.ENGINE} {' '.join(harness.ENGINE_ARGS)}".rstrip(), flush=True)
    loader = unittest.defaultTestLoader
    suite = loader.loadTestsFromNames(names) if names else loader.discover(str(HERE), pattern="test_*.py")
    t = time.monotonic()
    result = unittest.TextTestRunner(verbosity=1 if quiet else 2, stream=sys.stdout).run(suite)
    took = time.monotonic() - t
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    print(f"UCI tests took {took:.0f} s; PGNs of the test games in {harness.OUT_DIR}")
    print(f"uci: {passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

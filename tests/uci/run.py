#!/usr/bin/env python3
"""Runs the UCI tests (tests/uci/test_*.py) with the standard library's unittest.

    python3 tests/uci/run.py                       # all of them, on target/release/ccr
    CCR_BIN=/usr/games/stockfish python3 tests/uci/run.py test_protocol.StopAndReady
    python3 tests/uci/run.py -q                     # one character per test

Ends with the line `uci: N passed, N failed, N skipped`; exit status 1 if anything failed,
if no test ran, or if a test was skipped without leave. Leave to skip: a test of ccr's own
command line (skip reason "ccr's own ...") when CCR_BIN is another engine, and any test whose
id starts with an entry of CCR_UCI_ALLOW_SKIPS (comma-separated, e.g.
`CCR_UCI_ALLOW_SKIPS=test_client.Client.test_threads_2`).
`python3 tests/uci/check_faults.py` checks that the tests can fail: it runs them against
faulty_engine.py (Stockfish with one injected fault at a time; about four minutes).
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
    unexcused = [(test.id(), why) for test, why in result.skipped if not skip_allowed(test.id(), why, harness.IS_CCR)]
    for test_id, why in unexcused:
        print(f"uci: {test_id} skipped ({why}) without leave (CCR_UCI_ALLOW_SKIPS)")
    if result.testsRun == 0:
        print("uci: no test ran")
        return 1
    return 0 if failed == 0 and not unexcused else 1


def skip_allowed(test_id: str, why: str, is_ccr: bool) -> bool:
    """Whether a skipped test may pass the run: a ccr-only test on another engine, or one
    that CCR_UCI_ALLOW_SKIPS names (by a prefix of its id)."""
    if not is_ccr and why.startswith("ccr's own"):
        return True
    allowed = [a.strip() for a in os.environ.get("CCR_UCI_ALLOW_SKIPS", "").split(",") if a.strip()]
    return any(test_id.startswith(a) for a in allowed)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

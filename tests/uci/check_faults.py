#!/usr/bin/env python3
"""Checks that the UCI tests can fail: runs them against faulty_engine.py, first with no
fault (every listed test must pass), then once per fault (each test listed for it must
fail). Needs /usr/games/stockfish (make setup-uci); takes about four minutes. Every test
is listed under some fault except test_fixtures_are_right, which checks the fixtures
themselves with python-chess.

    python3 tests/uci/check_faults.py              # every fault
    python3 tests/uci/check_faults.py slow_stop    # some of them
    python3 tests/uci/check_faults.py --baseline   # only the run with no fault
    python3 tests/uci/check_faults.py --faults     # only the runs with a fault

`make test` runs the two halves apart: the faults while the Rust tests keep both cores busy
(a loaded machine can only make a faulty engine fail more), the baseline on a quiet machine,
where its timing tests mean something.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

P = "test_protocol."
M = "test_multipv."
# fault -> tests that must fail with it.
EXPECT = {
    "no_move_overhead": [P + "Handshake.test_uci_ids_options_uciok", "test_client.Client.test_id_and_options"],
    "slow_isready": [P + "Handshake.test_isready_answers_at_once", P + "StopAndReady.test_isready_during_search_keeps_searching"],
    "isready_stops": [P + "StopAndReady.test_isready_during_search_keeps_searching"],
    "slow_stop": [P + "StopAndReady.test_go_infinite_waits_for_stop", P + "StopAndReady.test_stop_right_after_go",
                  P + "Ponder.test_stop_ends_a_ponder",
                  P + "StopAndReady.test_stop_latency_deep_search", "test_client.Client.test_analysis_infinite_and_stop"],
    "stop_leak": [P + "StopAndReady.test_stop_after_search_does_not_leak"],
    "double_bestmove": [P + "StopAndReady.test_one_bestmove_per_go_in_sequence", P + "StopAndReady.test_stop_right_after_go",
                        P + "GoLimits.test_go_depth"],
    "infinite_returns": [P + "StopAndReady.test_go_infinite_waits_for_stop",
                         P + "Ponder.test_infinite_with_a_depth_still_waits_for_stop",
                         P + "StopAndReady.test_isready_during_search_keeps_searching"],
    "illegal_bestmove": [P + "GoLimits.test_go_depth", P + "GoLimits.test_go_nodes",
                         P + "Positions.test_random_games_with_special_moves", P + "Positions.test_position_forms",
                         P + "Positions.test_long_move_list", P + "Handshake.test_ucinewgame_then_search",
                         P + "Handshake.test_clear_hash_button_and_options", P + "Malformed.test_illegal_moves_in_position",
                         P + "Malformed.test_empty_and_blank_lines", P + "Malformed.test_whitespace_and_crlf",
                         "test_client.Client.test_play_limits", "test_client.Client.test_threads_2",
                         "test_client.Client.test_new_games", "test_games.Games.test_full_game_selfplay",
                         "test_games.Games.test_full_game_vs_fairymax", "test_games.Games.test_full_game_vs_phalanx"],
    "null_instead_of_none": [P + "GoLimits.test_bestmove_none_only_when_no_move",
                             "test_client.Client.test_game_over_positions"],
    "ignore_searchmoves": [P + "GoLimits.test_searchmoves", "test_client.Client.test_root_moves"],
    "ponderhit_waits": [P + "Ponder.test_ponderhit_ends_a_depth_limited_ponder",
                        P + "Ponder.test_ponderhit_ends_a_node_limited_ponder",
                        P + "Ponder.test_ponderhit_ends_a_mate_limited_ponder"],
    "queen_promotions": [P + "Positions.test_special_moves_applied"],
    "no_hashfull": [P + "InfoLines.test_info_fields_and_pv", P + "InfoLines.test_info_on_timed_search",
                    "test_client.Client.test_analyse_info"],
    "bad_pv": [P + "InfoLines.test_info_fields_and_pv", "test_client.Client.test_analyse_info"],
    "quit_exit1": [P + "Quit.test_quit_idle", P + "Quit.test_quit_mid_search", P + "Quit.test_quit_before_uci",
                   P + "UciArgument.test_ccr_uci_argument", P + "GoLimits.test_go_depth"],
    "slow_quit_in_search": [P + "Quit.test_quit_mid_search", P + "Quit.test_quit_right_after_go"],
    "crash_on_garbage": [P + "Malformed.test_unknown_command"],
    "no_info_string": [P + "Malformed.test_unknown_command", P + "Malformed.test_bad_fen_keeps_previous_position",
                       P + "Malformed.test_bad_setoption", P + "Malformed.test_bad_go_arguments"],
    "slow_movetime": [P + "GoLimits.test_go_movetime"],
    "wrong_clock": [P + "GoLimits.test_go_clock_uses_own_side"],
    "time_hog": [P + "GoLimits.test_go_clock_uses_own_side", P + "GoLimits.test_go_clock_increment_movestogo",
                 P + "Ponder.test_ponderhit_then_the_clock",
                 "test_games.Games.test_bullet_selfplay_never_flags"],
    "ignores_overhead": [P + "GoLimits.test_go_clock_uses_own_side", P + "GoLimits.test_go_clock_increment_movestogo"],
    "clock_hog_early": [P + "GoLimits.test_go_clock_increment_movestogo"],
    "nodes_overshoot": [P + "GoLimits.test_go_nodes", "test_client.Client.test_play_limits"],
    "depth_plus_one": ["test_client.Client.test_play_limits", P + "GoLimits.test_go_depth"],
    "ucinewgame_ignored": ["test_client.Client.test_new_games"],
    "exit_after_bestmove": [P + "GoLimits.test_go_depth", P + "GoLimits.test_mate_in_2_depth",
                            P + "GoLimits.test_go_movetime"],
    "mate_as_cp": [P + "GoLimits.test_mate_in_2_depth", P + "GoLimits.test_go_mate", P + "GoLimits.test_mated_in_1_score",
                   "test_client.Client.test_mate"],
    "bench_random": ["test_bench.Bench.test_bench_deterministic"],
    "bad_fen_resets": [P + "Malformed.test_bad_fen_keeps_previous_position"],
    "eof_hang": [P + "Quit.test_stdin_closed_exits"],
    "long_line_hang": [P + "Malformed.test_very_long_lines"],
    "utf8_crash": [P + "Malformed.test_binary_junk"],
    "multipv_ignored": [M + "ThroughPythonChess.test_lines_best_first", M + "ThroughPythonChess.test_the_two_mates_come_first",
                        M + "ThroughPythonChess.test_searchmoves_bound_the_lines", M + "OnThePipe.test_go_mate",
                        M + "OnThePipe.test_bestmove_and_ponder_are_the_first_line",
                        M + "OnThePipe.test_pondering_with_lines"],
    "multipv_reversed": [M + "ThroughPythonChess.test_lines_best_first", M + "ThroughPythonChess.test_the_two_mates_come_first",
                         M + "OnThePipe.test_go_mate", M + "OnThePipe.test_bestmove_and_ponder_are_the_first_line"],
}


def run(tests, fault: str, link: Path):
    env = dict(os.environ, CCR_BIN=str(link), FAULT=fault)
    env.pop("CCR_ARGS", None)
    proc = subprocess.run([sys.executable, "-B", str(HERE / "run.py"), "-q"] + tests, env=env,
                          capture_output=True, text=True, errors="replace", cwd=str(REPO))
    failed = set(re.findall(r"^(?:FAIL|ERROR): \w+ \(([\w.]+)\)", proc.stdout, re.M))
    return failed, proc.stdout


def main(argv) -> int:
    if not os.path.exists("/usr/games/stockfish"):
        print("error: /usr/games/stockfish missing (make setup-uci)", file=sys.stderr)
        return 2
    baseline = "--faults" not in argv
    with_faults = "--baseline" not in argv
    argv = [a for a in argv if a not in ("--baseline", "--faults")]
    if not (baseline or with_faults):
        print("error: --baseline and --faults exclude each other", file=sys.stderr)
        return 2
    faults = argv or list(EXPECT)
    for f in faults:
        if f not in EXPECT:
            print(f"error: unknown fault {f!r}", file=sys.stderr)
            return 2
    # Named ccr-… so that the ccr-only tests (bench, `ccr uci`) run too.
    link = REPO / "target" / "uci-tests" / "ccr-faulty"
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(HERE / "faulty_engine.py")
    all_tests = sorted({t for f in faults for t in EXPECT[f]})
    t0 = time.monotonic()
    if baseline:
        failed, out = run(all_tests, "", link)
        if failed:
            print(f"baseline (no fault): these tests fail already: {sorted(failed)}\n{out[-3000:]}")
            return 1
        print(f"baseline (no fault): {len(all_tests)} tests pass")
    if not with_faults:
        print(f"{time.monotonic() - t0:.0f} s")
        return 0
    bad = 0
    for f in faults:
        failed, out = run(EXPECT[f], f, link)
        missed = [t for t in EXPECT[f] if t not in failed]
        if missed:
            bad += 1
            print(f"FAULT {f} NOT CAUGHT by {missed}")
        else:
            print(f"fault {f:<20} caught by {len(EXPECT[f])} test(s)")
    print(f"{time.monotonic() - t0:.0f} s; faults: {len(faults) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

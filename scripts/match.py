#!/usr/bin/env python3
"""Strength matches: a gauntlet of ccr against Debian's chess engines (docs/STRENGTH.md).

    python3 scripts/match.py --engines phalanx,sjeng --games 40 --tc 10+0.1

Each opening of tests/data/openings.epd is played twice against every opponent, ccr once
with White and once with Black. Every engine has its own clock, kept here (python-chess
does not flag): a move that takes longer than the mover's remaining time loses on time.
Games end only by the rules (checkmate, stalemate, insufficient material, threefold
repetition and the fifty-move rule claimed at once, as python-chess's
`Board.outcome(claim_draw=True)` says), by an engine's own resignation, or by a clearly
flagged adjudication that is off by default (--resign, --draw, --max-plies).

A game in which the opponent crashes, hangs past its clock or sends an illegal move is
void: it goes to the PGN with Result "*" and is counted apart, never as a ccr win, and the
same opening and colours are replayed (up to --max-replays times per game). The same
failures on ccr's side are losses for ccr, reported as such.

The engines' processes run in target/match/work/ (their log and learning files land
there; a relative --ccr or --uci-engine path is taken from the caller's directory); each
engine's stderr goes to target/match/work/NAME.stderr. Every argument is checked before the
first game (numbers against their ranges, --pgn writable, the engines executable, their
options taken, a check option's value true or false); a bad one is one `error:` line on
stderr and exit status 2. --openings and --pgn must be regular files (a FIFO is refused
without waiting for its other end). The PGN's tag values are escaped as the PGN standard
says (a backslash before each quote and backslash), and --resume reads them back so; an
--event or --uci-engine name holding a control character (a newline: a tag is one line) is
refused, and one in a name an engine or the openings give becomes a space.

With --chess960 the games are Chess960: each pair starts from a seeded Chess960 start position
(or from --openings read as Chess960 FENs), every engine gets UCI_Chess960 and castles as the
king taking its own rook; an opponent that does not play Chess960 is refused before the first
game (of Debian's engines Glaurung, Ethereal and Stockfish do):

    python3 scripts/match.py --chess960 --engines glaurung,ethereal --games 20 --tc 10+0.1

Output per opponent: W/D/L from ccr's side, score, Elo difference with a 95 % interval
(logistic model; standard error of the mean game score from the per-game trinomial
variance) and LOS. Used by the UCI tests (tests/uci/) for their full games too.

With --sprt ELO0,ELO1 the match is a sequential probability ratio test against one opponent,
usually the base build of a change (--uci-engine base=PATH --engines base): after every game
pair it prints the LLR with its stopping bounds, the pentanomial counts and the normalised
Elo, and it stops once the LLR leaves the bounds: H1 accepted says the change is worth
about ELO1 or more, H0 accepted that it is worth about ELO0 or less:

    python3 scripts/match.py --uci-engine base=/tmp/ccr-base --engines base --games 2000 \
        --tc 5+0.05 --concurrency 2 --sprt 0,5
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import dataclasses
import datetime
import errno
import logging
import math
import os
import random
import re
import signal
import socket
import stat
import sys
import threading
import time
import unicodedata
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.stderr.write("error: python-chess missing; run scripts/setup-uci.sh (make setup-uci)\n")
    sys.exit(2)

REPO = Path(__file__).resolve().parent.parent
GAMES = "/usr/games"
DEFAULT_CCR = os.environ.get("CCR_BIN") or str(REPO / "target" / "release" / "ccr")
DEFAULT_OPENINGS = REPO / "tests" / "data" / "openings.epd"
WORK_DIR = REPO / "target" / "match" / "work"

# How long past its clock an engine may stay silent before it is killed as hung (seconds).
HANG_GRACE = 5.0
# Start-up (uci/xboard handshake) and option/ping timeout (seconds).
HANDSHAKE_TIMEOUT = 20.0
# The longest base time or increment a time control may give (seconds): a day.
LONGEST_CLOCK = 86400.0
# The ranges of the numeric arguments. A margin past HANG_GRACE is never honoured (the
# engine is killed as hung first); more games, games at once or replays than these are
# typing errors (a million games at 10+0.1 take years on two cores).
MOST_MARGIN_MS = HANG_GRACE * 1000
MOST_GAMES = 1_000_000
MOST_CONCURRENCY = 64
MOST_REPLAYS = 100
MOST_PLIES = 1_000_000
# Adjudication thresholds: a score beyond a mate's (100000 cp here) is never reached.
MOST_CP = 100_000
MOST_MOVES = 10_000


class MatchError(Exception):
    """A setup error: reported as one `error:` line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors (an unknown option, a value that is not a number) are one
    `error:` line with exit status 2, like the script's own."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"error: {message} (see --help)\n")


def number(x: float) -> str:
    """A number as typed: 1000000, not 1e+06; 0.5; nan."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_range(option: str, value: float, low: float, high: float, unit: str = "") -> None:
    """Refuses a numeric argument outside [low, high] (NaN included)."""
    if not low <= value <= high:
        raise MatchError(f"{option} {number(value)}{unit} is out of range: "
                         f"from {number(low)} to {number(high)}{unit}")


# --- engines ----------------------------------------------------------------------------


class NoSetboardXBoard(chess.engine.XBoardProtocol):
    """python-chess refuses xboard engines without `feature setboard=1` (Fairy-Max 5.0b
    declares setboard=0 and has only `edit`). Such an engine can still play every game that
    starts from the initial position, with the opening as moves (`new`, `force`, moves):
    this protocol accepts the engine and refuses to send it a `setboard`."""

    def _line_received(self, line: str) -> None:
        if not self.initialized and line.startswith("feature ") and "setboard=0" in line:
            self.no_setboard = True
            line = line.replace("setboard=0", "setboard=1")
        super()._line_received(line)

    def send_line(self, line: str) -> None:
        if line.startswith("setboard") and getattr(self, "no_setboard", False):
            raise chess.engine.EngineError(
                "engine has no setboard: it can only play games from the initial position"
            )
        super().send_line(line)


@dataclasses.dataclass
class EngineSpec:
    name: str
    protocol: str  # "uci" or "xboard"
    command: List[str]
    options: Dict[str, object] = dataclasses.field(default_factory=dict)
    # False: the engine can only start from the initial position (openings as moves).
    setboard: bool = True


def known_engines(ccr: str) -> Dict[str, EngineSpec]:
    """The engines --engines may name. Opponents play without their own opening books
    (the openings come from the EPD file) and on one thread."""
    g = GAMES
    return {
        "ccr": EngineSpec("ccr", "uci", [ccr]),
        # -l- no learning file, -b- no book, -t hash in KB.
        "phalanx": EngineSpec("phalanx", "xboard", [f"{g}/phalanx", "-l-", "-b-", "-t", "65536"]),
        "sjeng": EngineSpec("sjeng", "xboard", [f"{g}/sjeng"]),
        "fairymax": EngineSpec("fairymax", "xboard", [f"{g}/fairymax"], setboard=False),
        "glaurung": EngineSpec(
            "glaurung", "uci", [f"{g}/glaurung"], {"Threads": 1, "Hash": 64, "OwnBook": False}
        ),
        "toga2": EngineSpec(
            "toga2", "uci", [f"{g}/toga2"], {"Number of Threads": 1, "Hash": 64, "OwnBook": False}
        ),
        "gnuchess": EngineSpec(
            "gnuchess", "uci", [f"{g}/gnuchess", "--uci"], {"Hash": 64, "OwnBook": False}
        ),
        "stockfish": EngineSpec("stockfish", "uci", [f"{g}/stockfish"], {"Threads": 1, "Hash": 64}),
        "ethereal": EngineSpec("ethereal", "uci", [f"{g}/ethereal-chess"], {"Threads": 1, "Hash": 64}),
    }


def open_regular(path: Path, append: bool = False, **kwargs):
    """`path` opened for reading (or appending, created if missing) if it is a regular file,
    without waiting: opening a FIFO waits for its other end, so the path is looked at first,
    then opened with O_NONBLOCK and looked at again (it may have changed in between). Other
    files raise OSError "not a regular file"."""
    def refuse() -> OSError:
        return OSError(errno.EINVAL, "not a regular file", str(path))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise refuse()
    except FileNotFoundError:
        if not append:
            raise
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT) if append else os.O_RDONLY
    fd = os.open(path, flags | os.O_NONBLOCK, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise refuse()
        os.set_blocking(fd, True)
        return open(fd, "a" if append else "r", **kwargs)
    except BaseException:
        os.close(fd)
        raise


def pgn_tag(text: str) -> str:
    """`text` as a PGN tag's value: a control character (a tag is one line) made a space,
    then backslash and quote escaped, as the PGN standard says."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    return text.replace("\\", "\\\\").replace('"', '\\"')


def pgn_untag(value: str) -> str:
    """A tag's value as read (python-chess leaves its escapes): the text `pgn_tag` was given."""
    return re.sub(r'\\(["\\])', r"\1", value)


def one_line_text(option: str, text: str) -> str:
    """An argument that goes into a PGN tag: refused if it holds a control character."""
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise MatchError(f"{option} {text!r} holds a control character; a PGN tag is one line")
    return text


def parse_option(text: str) -> Tuple[str, str]:
    if "=" not in text:
        raise MatchError(f"option {text!r} is not NAME=VALUE")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def coerce_option(engine: chess.engine.SimpleEngine, name: str, value: object) -> object:
    opt = engine.options.get(name)
    if opt is None:
        raise MatchError(f"{engine.id.get('name', '?')} has no option {name!r}")
    if isinstance(value, str):
        if opt.type == "spin":
            try:
                return int(value)
            except ValueError:
                raise MatchError(f"option {name}: {value!r} is not an integer") from None
        if opt.type == "check":
            for truth, words in ((True, ("1", "true", "on", "yes")), (False, ("0", "false", "off", "no"))):
                if value.lower() in words:
                    return truth
            raise MatchError(f"option {name}: {value!r} is not true or false (nor 1/0, on/off, yes/no)")
    return value


class Player:
    """One engine process, restarted after a crash."""

    def __init__(self, spec: EngineSpec, work_dir: Path = WORK_DIR):
        self.spec = spec
        self.work_dir = work_dir
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.id_name = spec.name
        self._stderr = None

    def start(self) -> chess.engine.SimpleEngine:
        if self.engine is not None:
            return self.engine
        self.work_dir.mkdir(parents=True, exist_ok=True)
        if self._stderr is None:
            self._stderr = open(self.work_dir / f"{self.spec.name}.stderr", "ab")
        cmd = self.spec.command
        if not os.path.exists(cmd[0]):
            raise MatchError(f"{self.spec.name}: {cmd[0]} not found (make setup-uci / cargo build --release)")
        kwargs = dict(timeout=HANDSHAKE_TIMEOUT, cwd=str(self.work_dir), stderr=self._stderr)
        try:
            if self.spec.protocol == "uci":
                engine = chess.engine.SimpleEngine.popen_uci(cmd, **kwargs)
            elif self.spec.setboard:
                engine = chess.engine.SimpleEngine.popen_xboard(cmd, **kwargs)
            else:
                engine = chess.engine.SimpleEngine.popen(NoSetboardXBoard, cmd, **kwargs)
        except (chess.engine.EngineError, OSError, asyncio.TimeoutError, concurrent.futures.TimeoutError) as err:
            raise MatchError(f"{self.spec.name}: failed to start {' '.join(cmd)}: {err!r}") from None
        try:
            if self.spec.options:
                engine.configure(
                    {k: coerce_option(engine, k, v) for k, v in self.spec.options.items()}
                )
        except (chess.engine.EngineError, MatchError) as err:
            engine.close()
            raise MatchError(f"{self.spec.name}: setting options failed: {err}") from None
        self.engine = engine
        self.id_name = engine.id.get("name", self.spec.name)
        return engine

    def pid(self) -> Optional[int]:
        try:
            return self.engine.transport.get_pid()  # type: ignore[union-attr]
        except Exception:
            return None

    def kill(self) -> None:
        pid = self.pid()
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def new_game(self, key: object) -> None:
        """ucinewgame / new before the clock starts (python-chess would otherwise send it
        inside the first `play` and charge its reply time to the engine's clock)."""
        engine = self.start()
        proto = engine.protocol

        async def prepare() -> None:
            if isinstance(proto, chess.engine.UciProtocol):
                proto.game = key
                proto._ucinewgame()
            await proto.ping()

        coroutine = prepare()
        try:
            asyncio.run_coroutine_threadsafe(coroutine, proto.loop).result(HANDSHAKE_TIMEOUT)
        except BaseException:
            # An engine killed meanwhile (the match stopping) may leave the coroutine never
            # started: close it, or Python warns of it on stderr at exit.
            try:
                coroutine.close()
            except RuntimeError:  # running after all: the loop ends it
                pass
            raise

    def close(self) -> None:
        if self.engine is not None:
            try:
                self.engine.quit()
                self.engine = None
            except Exception:
                self.discard()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def discard(self) -> None:
        """After a crash, hang or protocol error: kill the process; the next game starts anew."""
        if self.engine is not None:
            self.kill()
            try:
                self.engine.close()
            except Exception:
                pass
            self.engine = None


# --- time control -----------------------------------------------------------------------


@dataclasses.dataclass
class TimeControl:
    base: float  # seconds
    inc: float = 0.0  # seconds per move
    moves: int = 0  # moves per period (0: the whole game)

    @staticmethod
    def parse(text: str) -> "TimeControl":
        m = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", text.strip())
        if not m or float(m.group(2)) <= 0:
            raise MatchError(f"bad time control {text!r}; expected [MOVES/]BASE[+INC] in seconds, e.g. 10+0.1")
        tc = TimeControl(float(m.group(2)), float(m.group(3) or 0), int(m.group(1) or 0))
        # A longer clock is a typing error, and Python's timers overflow on the largest
        # numbers the pattern admits.
        if tc.base > LONGEST_CLOCK or tc.inc > LONGEST_CLOCK:
            raise MatchError(f"time control {text!r}: base and increment are at most {number(LONGEST_CLOCK)} s")
        if m.group(1) is not None and tc.moves < 1:
            raise MatchError(f"time control {text!r}: a period has at least one move")
        return tc

    def pgn(self) -> str:
        def f(x: float) -> str:
            return f"{x:g}"

        s = f"{f(self.base)}+{f(self.inc)}" if self.inc else f(self.base)
        return f"{self.moves}/{s}" if self.moves else s

    def __str__(self) -> str:
        return self.pgn()


# --- openings ---------------------------------------------------------------------------


@dataclasses.dataclass
class Opening:
    name: str
    board: chess.Board  # the opening position, with the opening moves on its stack if known


def chess960_openings(count: int, seed: int) -> List[Opening]:
    """`count` Chess960 start positions (distinct while there are any left), drawn by a
    generator seeded with `seed`, named by their number (Scharnagl's numbering, 518 being
    the standard position)."""
    rng = random.Random(seed)
    numbers = rng.sample(range(960), min(count, 960))
    numbers += [rng.randrange(960) for _ in range(count - len(numbers))]
    return [Opening(f"Chess960 #{n}", chess.Board.from_chess960_pos(n)) for n in numbers]


def load_openings(path: Path, chess960: bool = False) -> List[Opening]:
    """EPD lines; `#` lines are comments. The `c1` operation, if present, holds the opening
    as UCI moves from the initial position (needed by engines without setboard); `id` or
    `c0` names it. With `chess960` the castling fields are read as X-FEN or Shredder-FEN
    and castling moves as the king taking its rook."""
    out: List[Opening] = []
    try:
        with open_regular(path) as f:
            lines = f.read().splitlines()
    except OSError as err:
        raise MatchError(f"cannot read openings {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise MatchError(f"cannot read openings {path}: not a text file") from None
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(line, chess960=chess960)
        except ValueError as err:
            raise MatchError(f"{path}:{n}: bad EPD: {err}") from None
        # As the PGN's Opening tag holds it (--resume compares the two).
        name = pgn_untag(pgn_tag(str(ops.get("id") or ops.get("c0") or f"line {n}")))
        moves = ops.get("c1")
        if moves:
            replay = chess.Board(chess960=chess960)
            for uci in str(moves).split():
                try:
                    replay.push_uci(uci)
                except ValueError:
                    raise MatchError(f"{path}:{n}: c1 move {uci!r} illegal") from None
            if replay.epd() != board.epd():
                raise MatchError(f"{path}:{n}: c1 moves reach {replay.epd()}, not the EPD position")
            board = replay
        out.append(Opening(name, board))
    if not out:
        raise MatchError(f"{path}: no openings")
    return out


# --- one game ---------------------------------------------------------------------------


@dataclasses.dataclass
class GameResult:
    result: str  # "1-0", "0-1", "1/2-1/2" or "*"
    termination: str  # PGN Termination: normal, time forfeit, rules infraction, abandoned, adjudication
    reason: str  # human-readable: "checkmate", "white lost on time (-0.012 s)", ...
    void: bool  # opponent failure: not counted
    game: chess.pgn.Game
    # Which side failed (crash/illegal/time), if any.
    failed: Optional[chess.Color] = None
    plies: int = 0


@dataclasses.dataclass
class Adjudication:
    max_plies: int = 0  # 0: off; else a draw by adjudication after that many plies
    resign_cp: int = 0  # 0: off; both engines agree one side is this far behind ...
    resign_moves: int = 0  # ... for this many moves each
    draw_cp: int = 0  # 0: off; both scores within ±draw_cp ...
    draw_moves: int = 0  # ... for this many moves each
    draw_after: int = 0  # ... from this full move number on


def outcome_reason(outcome: chess.Outcome) -> str:
    return outcome.termination.name.lower().replace("_", " ")


def new_pgn_game(start: chess.Board, opening: Optional[Opening], tc: TimeControl, event: str,
                 round_: str) -> chess.pgn.Game:
    """A game's PGN from `start`, its headers but the players and the result set."""
    game = chess.pgn.Game()
    game.setup(start)
    game.headers["Event"] = pgn_tag(event)
    game.headers["Site"] = pgn_tag(socket.gethostname())
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = pgn_tag(round_)
    game.headers["TimeControl"] = tc.pgn()
    if opening:
        game.headers["Opening"] = pgn_tag(opening.name)
        if opening.board.move_stack:
            game.comment = "opening: " + " ".join(m.uci() for m in opening.board.move_stack)
    return game


def timed_play(player: Player, engine: chess.engine.SimpleEngine, board: chess.Board,
               limit: chess.engine.Limit, key: object, hang_after: float):
    """One move asked of `engine`, the player killed as hung if none comes in `hang_after`
    seconds: (the engine's answer or None, its error or None, the seconds taken, hung)."""
    hung = threading.Event()

    def on_hang() -> None:
        hung.set()
        player.kill()

    timer = threading.Timer(hang_after, on_hang)
    timer.daemon = True
    t0 = time.perf_counter()
    timer.start()
    try:
        result = engine.play(board, limit, game=key, info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
        error = None
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, asyncio.TimeoutError,
            concurrent.futures.TimeoutError) as err:
        result, error = None, err
    finally:
        timer.cancel()
    return result, error, time.perf_counter() - t0, hung.is_set()


def move_comment(info: chess.engine.InfoDict, side: chess.Color, elapsed: float) -> Tuple[Optional[int], str]:
    """The mover's score in centipawns (None without one) and the move's PGN comment: the
    score, the depth and the seconds taken."""
    score = info.get("score")
    cp: Optional[int] = None
    comment = ""
    if score is not None:
        pov = score.pov(side)
        cp = pov.score(mate_score=100000)
        comment = (f"{pov.score() / 100:+.2f}" if not pov.is_mate() else f"{'+' if pov.mate() > 0 else '-'}M{abs(pov.mate())}")
        if "depth" in info:
            comment += f"/{info['depth']}"
        comment += " "
    return cp, comment + f"{elapsed:.3f}s"


def play_game(
    white: Player,
    black: Player,
    opening: Optional[Opening],
    tc: TimeControl,
    *,
    event: str = "ccr gauntlet",
    round_: str = "?",
    counted_side: Optional[chess.Color] = None,
    adjudication: Adjudication = Adjudication(),
    time_margin: float = 0.0,
    on_move: Optional[Callable[[chess.Board, chess.Move, float, float], None]] = None,
) -> GameResult:
    """Plays one game. `counted_side` is the side whose failures are losses (ccr); the
    other side's crash, hang or illegal move makes the game void. `time_margin` (seconds)
    is tolerated past zero on the clock before a flag. `on_move(board_before, move, seconds,
    clock_left)` is called after each move."""
    board = opening.board.copy() if opening else chess.Board()
    start = board.copy(stack=False)
    players = {chess.WHITE: white, chess.BLACK: black}
    clocks = {chess.WHITE: tc.base, chess.BLACK: tc.base}
    moves_in_period = {chess.WHITE: 0, chess.BLACK: 0}
    key = object()
    evals: List[Tuple[chess.Color, Optional[int]]] = []

    game = new_pgn_game(start, opening, tc, event, round_)
    node: chess.pgn.GameNode = game

    def finish(result: str, termination: str, reason: str, void: bool = False, failed=None) -> GameResult:
        for side, player in players.items():
            game.headers["White" if side else "Black"] = pgn_tag(player.id_name)
        game.headers["Result"] = result
        game.headers["Termination"] = termination
        game.headers["PlyCount"] = str(len(board.move_stack) - len(opening.board.move_stack if opening else []))
        if void:
            game.headers["Void"] = pgn_tag(reason)
        node.comment = (node.comment + " " if node.comment else "") + reason
        return GameResult(result, termination, reason, void, game, failed, int(game.headers["PlyCount"]))

    def lose(side: chess.Color, termination: str, reason: str, failure: bool = True) -> GameResult:
        """`side` loses. A failure (crash, hang, illegal move, protocol error) of the side
        that is not counted makes the game void instead."""
        void = failure and counted_side is not None and side != counted_side
        result = "*" if void else ("0-1" if side == chess.WHITE else "1-0")
        if termination == "time forfeit" and not void and board.has_insufficient_material(not side):
            return finish("1/2-1/2", termination, reason + "; the opponent cannot mate: draw", failed=side)
        return finish(result, termination, reason, void=void, failed=side if failure or termination == "time forfeit" else None)

    for side in (chess.WHITE, chess.BLACK):
        try:
            players[side].new_game(key)
        except (chess.engine.EngineError, concurrent.futures.TimeoutError, asyncio.TimeoutError) as err:
            players[side].discard()
            return lose(side, "abandoned", f"{players[side].spec.name} failed to start a game: {err!r}")

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return finish(outcome.result(), "normal", outcome_reason(outcome))
        plies = len(board.move_stack) - (len(opening.board.move_stack) if opening else 0)
        if adjudication.max_plies and plies >= adjudication.max_plies:
            return finish("1/2-1/2", "adjudication", f"draw adjudicated after {plies} plies (--max-plies)")

        side = board.turn
        player = players[side]
        engine = player.start()
        limit = chess.engine.Limit(
            white_clock=max(clocks[chess.WHITE], 0.001),
            black_clock=max(clocks[chess.BLACK], 0.001),
            white_inc=tc.inc if tc.inc else None,
            black_inc=tc.inc if tc.inc else None,
            remaining_moves=(tc.moves - moves_in_period[side]) if tc.moves else None,
            clock_id=key,
        )
        result, error, elapsed, hung = timed_play(player, engine, board, limit, key, clocks[side] + HANG_GRACE)
        name = player.spec.name
        colour = "white" if side else "black"
        if hung:
            player.discard()
            return lose(side, "time forfeit",
                        f"{colour} ({name}) lost on time: no move after {elapsed:.3f} s, killed as hung")
        if error is not None:
            player.discard()
            if isinstance(error, chess.engine.EngineTerminatedError):
                return lose(side, "abandoned", f"{colour} ({name}) crashed: {error}")
            if "illegal" in str(error).lower():
                return lose(side, "rules infraction", f"{colour} ({name}) sent an illegal move: {error}")
            return lose(side, "abandoned", f"{colour} ({name}) protocol error: {error}")

        clocks[side] -= elapsed
        if clocks[side] < -time_margin:
            return lose(side, "time forfeit",
                        f"{colour} ({name}) lost on time: {elapsed:.3f} s for the move, clock {clocks[side]:+.3f} s",
                        failure=False)
        clocks[side] += tc.inc
        if tc.moves:
            moves_in_period[side] += 1
            if moves_in_period[side] == tc.moves:
                moves_in_period[side] = 0
                clocks[side] += tc.base

        if result.resigned:
            return lose(side, "normal", f"{colour} ({name}) resigns", failure=False)
        move = result.move
        if move is None or move not in board.legal_moves:
            player.discard()
            return lose(side, "rules infraction", f"{colour} ({name}) sent an illegal move {move}")

        cp, comment = move_comment(result.info, side, elapsed)
        before = board.copy() if on_move else board
        board.push(move)
        node = node.add_variation(move, comment=comment)
        evals.append((side, cp))
        if on_move:
            on_move(before, move, elapsed, clocks[side])

        # Optional adjudications (off by default): both engines' own scores must agree.
        adj = adjudication_result(evals, board, adjudication)
        if adj:
            return finish(*adj)


def adjudication_result(evals, board: chess.Board, adj: Adjudication) -> Optional[Tuple[str, str, str]]:
    """Scores are from the mover's point of view; both engines' last N scores count."""
    if adj.resign_cp and adj.resign_moves:
        n = 2 * adj.resign_moves
        last = evals[-n:]
        if len(last) == n and all(cp is not None for _, cp in last):
            # From White's point of view.
            white = [cp if side == chess.WHITE else -cp for side, cp in last]
            if all(s <= -adj.resign_cp for s in white):
                return "0-1", "adjudication", f"resign adjudication: White behind >= {adj.resign_cp} cp for {adj.resign_moves} moves by both engines"
            if all(s >= adj.resign_cp for s in white):
                return "1-0", "adjudication", f"resign adjudication: Black behind >= {adj.resign_cp} cp for {adj.resign_moves} moves by both engines"
    if adj.draw_cp and adj.draw_moves and board.fullmove_number >= adj.draw_after:
        n = 2 * adj.draw_moves
        last = evals[-n:]
        if len(last) == n and all(cp is not None and abs(cp) <= adj.draw_cp for _, cp in last):
            return "1/2-1/2", "adjudication", f"draw adjudication: |score| <= {adj.draw_cp} cp for {adj.draw_moves} moves by both engines"
    return None


# --- statistics -------------------------------------------------------------------------


def elo_from_score(s: float) -> float:
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def ccr_points(result: str, ccr_white: bool) -> float:
    """ccr's points in a finished game: 1, 1/2 or 0."""
    if result == "1/2-1/2":
        return 0.5
    return float((result == "1-0") == ccr_white)


@dataclasses.dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    void: int = 0
    ccr_failures: int = 0  # ccr losses by crash, illegal move or time
    opp_time_losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points: float) -> None:
        """Counts a finished game by ccr's points in it."""
        if points == 0.5:
            self.draws += 1
        elif points == 1.0:
            self.wins += 1
        else:
            self.losses += 1

    def stats(self) -> Dict[str, float]:
        """Score, Elo with a 95 % interval and LOS. The standard error is that of the mean
        game score: per-game variance from the observed win/draw/loss frequencies."""
        n = self.games
        if n == 0:
            return {}
        w, d, l = self.wins / n, self.draws / n, self.losses / n
        s = w + d / 2
        var = w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2
        se = math.sqrt(var / n)
        z = 1.959963984540054
        lo, hi = max(s - z * se, 0.0), min(s + z * se, 1.0)
        decisive = self.wins + self.losses
        los = 0.5 * (1 + math.erf((self.wins - self.losses) / math.sqrt(2 * decisive))) if decisive else 0.5
        return {"score": s, "elo": elo_from_score(s), "elo_lo": elo_from_score(lo),
                "elo_hi": elo_from_score(hi), "los": los, "se": se}

    def line(self, name: str) -> str:
        st = self.stats()
        if not st:
            return f"{name:<10} no games"

        def e(x: float) -> str:
            if not math.isfinite(x):
                return "+inf" if x > 0 else "-inf"
            return f"{round(x) or 0:+d}"

        elo, lo, hi = st["elo"], st["elo_lo"], st["elo_hi"]
        err = ""
        if math.isfinite(elo) and math.isfinite(lo) and math.isfinite(hi):
            err = f" ±{(hi - lo) / 2:.0f}"
        extra = []
        if self.void:
            extra.append(f"void {self.void}")
        if self.ccr_failures:
            extra.append(f"ccr crash/illegal/time losses {self.ccr_failures}")
        if self.opp_time_losses:
            extra.append(f"opponent time losses {self.opp_time_losses}")
        return (f"{name:<10} {self.games:>4} games  +{self.wins} ={self.draws} -{self.losses}  "
                f"score {100 * st['score']:.1f}%  Elo {e(elo)}{err} [{e(lo)}, {e(hi)}]  "
                f"LOS {100 * st['los']:.1f}%" + (f"  ({', '.join(extra)})" if extra else ""))


# --- the sequential probability ratio test ----------------------------------------------

# Per-game score of a game pair's average: 0, 1/4, 1/2, 3/4, 1 (the pentanomial's outcomes).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
# Pseudo-pairs, spread over the five outcomes, in the SPRT's mean and variance: the first few
# pairs would otherwise give a variance near zero and a decision from a handful of games (in
# simulation, a third of the tests at Elo = ELO0 accepted H1 without them).
PRIOR_PAIRS = 2.0
# Normalised Elo per unit of t-value: nElo = (score - 1/2) / per-game sd * 800 / ln 10.
NELO_PER_T = 800.0 / math.log(10.0)


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclasses.dataclass
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1, on game
    pairs (the same opening with both colours: the pentanomial model, which the pairing's
    correlation makes tighter than counting games alone).

    The log-likelihood ratio is the normal approximation of the generalised SPRT: with N pairs
    of mean per-game score m and variance v of a pair's average, a hypothesis of per-game score
    s has log-likelihood -N (m - s)^2 / (2 v), so LLR = N ((m - s0)^2 - (m - s1)^2) / (2 v).
    Logistic bounds give s = 1 / (1 + 10^(-Elo/400)); normalised bounds (nElo, as fishtest and
    OpenBench use) give s = 1/2 + nElo / (800 / ln 10) * sd, where sd = sqrt(2 v) is the
    per-game standard deviation. The test stops at LLR <= ln(beta / (1 - alpha)) (H0) or
    >= ln((1 - beta) / alpha) (H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    normalized: bool = True
    pairs: List[int] = dataclasses.field(default_factory=lambda: [0] * 5)

    @staticmethod
    def parse(text: str, alpha: float, beta: float, model: str) -> "Sprt":
        try:
            elo0, elo1 = (float(x) for x in text.split(","))
        except ValueError:
            raise MatchError(f"--sprt {text!r} is not ELO0,ELO1 (e.g. 0,5)") from None
        if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
            raise MatchError(f"--sprt {text!r}: ELO0 must be below ELO1")
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise MatchError("--sprt-alpha and --sprt-beta must be between 0 and 0.5")
        if model not in ("normalized", "logistic"):
            raise MatchError(f"--elo-model {model!r}: choose normalized or logistic")
        return Sprt(elo0, elo1, alpha, beta, model == "normalized")

    @property
    def bounds(self) -> Tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def add_pair(self, points: float) -> None:
        """Adds a finished pair: the tested side's points in its two games (0 to 2)."""
        self.pairs[round(points * 2)] += 1

    def moments(self, prior: float = 0.0) -> Tuple[int, float, float]:
        """Pairs, mean per-game score, variance of a pair's average score; `prior` pseudo-pairs
        spread evenly over the five outcomes are added to the counts."""
        n = sum(self.pairs)
        if n == 0:
            return 0, 0.5, 0.0
        counts = [c + prior / 5 for c in self.pairs]
        total = n + prior
        mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / total
        var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / total
        return n, mean, var

    def llr(self) -> float:
        n, mean, var = self.moments(PRIOR_PAIRS)
        if n == 0:
            return 0.0
        if self.normalized:
            sd = math.sqrt(2 * var)
            s0, s1 = (0.5 + e / NELO_PER_T * sd for e in (self.elo0, self.elo1))
        else:
            s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return n * ((mean - s0) ** 2 - (mean - s1) ** 2) / (2 * var)

    def decision(self) -> Optional[str]:
        lower, upper = self.bounds
        value = self.llr()
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def nelo(self) -> Tuple[float, float]:
        """Normalised Elo of the pairs and its 95 % half-width."""
        n, mean, var = self.moments()
        if n == 0 or var <= 0:
            return 0.0, math.inf
        sd = math.sqrt(2 * var)
        return (mean - 0.5) / sd * NELO_PER_T, 1.959963984540054 / math.sqrt(2 * n) * NELO_PER_T

    def line(self) -> str:
        lower, upper = self.bounds
        unit = "nElo" if self.normalized else "Elo"
        nelo, half = self.nelo()
        verdict = {"H1": "  H1 accepted", "H0": "  H0 accepted", None: ""}[self.decision()]
        return (f"SPRT {unit} [{self.elo0:g}, {self.elo1:g}] alpha {self.alpha:g} beta {self.beta:g}: "
                f"LLR {self.llr():+.2f} [{lower:+.2f}, {upper:+.2f}]  pairs {sum(self.pairs)} "
                f"pentanomial {self.pairs}  nElo {nelo:+.1f} ±{half:.1f}{verdict}")


# --- the gauntlet -----------------------------------------------------------------------


def recorded_games(pgn_path: Path, names: List[str], tc: TimeControl,
                   openings: List[Opening]) -> Dict[Tuple[str, int], str]:
    """The counted games an earlier run of the same match left in `pgn_path`: (opponent, game
    index) -> result. A void game is not counted (it is played again); a game of another
    opponent is ignored; one of these opponents at another time control or from another
    opening than its number gives there is an error, since it belongs to another match."""
    found: Dict[Tuple[str, int], str] = {}
    if not pgn_path.exists():
        return found
    try:
        f = open_regular(pgn_path, encoding="utf-8", errors="replace")
    except OSError as err:
        raise MatchError(f"--resume: cannot read {pgn_path}: {err.strerror or err}") from None
    with f:
        while (headers := chess.pgn.read_headers(f)) is not None:
            opp, _, number = pgn_untag(headers.get("Round", "")).rpartition(".")
            if opp not in names or not number.isdigit() or int(number) < 1:
                continue
            if "Void" in headers or headers.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
                continue
            i = int(number) - 1
            where = f"--resume: {pgn_path}, game {opp}.{i + 1}"
            if headers.get("TimeControl") != tc.pgn():
                raise MatchError(f"{where} was played at {headers.get('TimeControl')}, not {tc.pgn()}")
            opening = openings[(i // 2) % len(openings)]
            played = pgn_untag(headers.get("Opening", ""))
            if played != opening.name:
                raise MatchError(f"{where} opened with {played!r}, not {opening.name!r}")
            found[(opp, i)] = headers["Result"]
    return found


def main(argv: Optional[List[str]] = None) -> int:
    ap = Parser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engines", default="phalanx,sjeng",
                    help="comma-separated opponents: phalanx, sjeng, fairymax, glaurung, toga2, gnuchess, stockfish, "
                         "ethereal (default: phalanx,sjeng)")
    ap.add_argument("--games", type=int, default=40,
                    help=f"games per opponent, rounded up to even, 1 to {MOST_GAMES} (default 40)")
    ap.add_argument("--tc", default="10+0.1", help="time control [MOVES/]BASE[+INC] in seconds (default 10+0.1)")
    ap.add_argument("--concurrency", type=int, default=1,
                    help=f"games at once, 1 to {MOST_CONCURRENCY} (default 1; the machine has 2 cores)")
    ap.add_argument("--openings", default=None,
                    help="EPD file (default tests/data/openings.epd; with --chess960, Chess960 start positions)")
    ap.add_argument("--chess960", action="store_true",
                    help="play Chess960 (UCI_Chess960): each game pair starts from a Chess960 start position "
                         "drawn by a generator seeded with --chess960-seed, or from --openings read as "
                         "Chess960 FENs (X-FEN or Shredder-FEN castling)")
    ap.add_argument("--chess960-seed", type=int, default=960,
                    help="the seed of --chess960's start positions (default 960)")
    ap.add_argument("--pgn", default=str(REPO / "target" / "match" / "games.pgn"),
                    help="PGN output (appended; checked writable before the first game)")
    ap.add_argument("--ccr", default=DEFAULT_CCR,
                    help="the ccr binary (default $CCR_BIN or target/release/ccr; a relative path is "
                         "taken from the current directory)")
    ap.add_argument("--ccr-option", action="append", default=[], metavar="NAME=VALUE",
                    help="UCI option for ccr, repeatable (e.g. Hash=64)")
    ap.add_argument("--uci-engine", action="append", default=[], metavar="NAME=PATH",
                    help="another UCI opponent, e.g. an older ccr build (repeatable; then --engines NAME; "
                         "a relative path is taken from the current directory)")
    ap.add_argument("--engine-option", action="append", default=[], metavar="ENGINE:NAME=VALUE",
                    help="option for an opponent, repeatable (e.g. toga2:Hash=128)")
    ap.add_argument("--time-margin", type=float, default=0.0,
                    help=f"milliseconds tolerated past zero on a clock before a flag, 0 to {number(MOST_MARGIN_MS)} "
                         "(default 0)")
    ap.add_argument("--max-replays", type=int, default=2,
                    help=f"replays of a void game, 0 to {MOST_REPLAYS} (default 2)")
    ap.add_argument("--resign", default="", metavar="CP:MOVES",
                    help="resign adjudication, off by default: both engines score a side <= -CP for MOVES moves each")
    ap.add_argument("--draw", default="", metavar="CP:MOVES:FROM",
                    help="draw adjudication, off by default: both |score| <= CP for MOVES moves each from move FROM")
    ap.add_argument("--max-plies", type=int, default=0, help="draw adjudication after that many plies (default 0: off)")
    ap.add_argument("--event", default="ccr gauntlet", help="PGN Event")
    ap.add_argument("--sprt", default="", metavar="ELO0,ELO1",
                    help="a sequential probability ratio test against one opponent (e.g. a base build "
                         "given by --uci-engine): H0 Elo = ELO0 against H1 Elo = ELO1 on game pairs; "
                         "the match stops when the LLR leaves its bounds, --games is then the most")
    ap.add_argument("--resume", action="store_true",
                    help="continue the match recorded in --pgn: its counted games (same opponent, game number, "
                         "opening and time control) are taken as played, in the tallies and the SPRT, and only "
                         "the others are played; give each match its own --pgn")
    for name, error in (("alpha", "false-positive"), ("beta", "false-negative")):
        ap.add_argument(f"--sprt-{name}", type=float, default=0.05,
                        help=f"the SPRT's {error} rate, above 0 and below 0.5 (default 0.05)")
    ap.add_argument("--elo-model", default="normalized", metavar="MODEL", choices=("normalized", "logistic"),
                    help="the SPRT bounds' unit: normalized (nElo, as fishtest and OpenBench) or logistic "
                         "(default normalized)")
    args = ap.parse_args(argv)
    # A match killed with SIGTERM (kill, timeout, a CI runner) unwinds like Ctrl-C, so the
    # engines are closed rather than left running as orphans (seen: a pondering sjeng).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    logging.getLogger("chess.engine").setLevel(logging.CRITICAL)
    try:
        return run(args)
    except MatchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def check_numbers(args: argparse.Namespace) -> None:
    """Every numeric argument in its range (--sprt-alpha and --sprt-beta even without --sprt)."""
    check_range("--games", args.games, 1, MOST_GAMES)
    check_range("--concurrency", args.concurrency, 1, MOST_CONCURRENCY)
    check_range("--time-margin", args.time_margin, 0, MOST_MARGIN_MS, " ms")
    check_range("--max-replays", args.max_replays, 0, MOST_REPLAYS)
    check_range("--max-plies", args.max_plies, 0, MOST_PLIES)
    for option, rate in (("--sprt-alpha", args.sprt_alpha), ("--sprt-beta", args.sprt_beta)):
        if not 0 < rate < 0.5:
            raise MatchError(f"{option} {number(rate)} is out of range: above 0 and below 0.5")


def parse_numbers(option: str, text: str, form: str, example: str, ranges: List[Tuple[str, int, int]]) -> List[int]:
    """`A:B[:C]` of an adjudication option: integers, each in its range."""
    try:
        values = [int(x) for x in text.split(":")]
    except ValueError:
        values = []
    if len(values) != len(ranges):
        raise MatchError(f"{option} wants {form}, e.g. {example}")
    for value, (name, low, high) in zip(values, ranges):
        if not low <= value <= high:
            raise MatchError(f"{option} {text}: {name} {value} is out of range: from {low} to {high}")
    return values


def engine_path(path: str) -> str:
    """An engine's path made absolute against the current directory: the engines run in
    WORK_DIR, where a relative path would name another file or none."""
    return os.path.abspath(os.path.expanduser(path))


def check_engine(name: str, path: str) -> None:
    if not os.path.exists(path):
        raise MatchError(f"{name}: {path} not found (make setup-uci / cargo build --release)")
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise MatchError(f"{name}: {path} is not an executable file")


def check_chess960(spec: EngineSpec) -> None:
    """The engine plays Chess960: a UCI engine offers UCI_Chess960, an xboard engine the
    variant fischerandom (python-chess would otherwise send it Chess960 castling it reads
    as a king's move)."""
    player = Player(spec)
    try:
        engine = player.start()
        if spec.protocol == "uci":
            plays = "UCI_Chess960" in engine.options
        else:
            plays = "fischerandom" in str(getattr(engine.protocol, "features", {}).get("variants", ""))
    finally:
        player.close()
    if not plays:
        raise MatchError(f"{spec.name} does not play Chess960 (no UCI_Chess960 / variant fischerandom)")


def check_pgn(path: Path) -> None:
    """The PGN must be a file this process can append to, before any game is played (a
    directory or an unwritable place would otherwise fail after the first game)."""
    if path.is_dir():
        raise MatchError(f"--pgn {path} is a directory; give a file")
    if path.exists() and not path.is_file():
        raise MatchError(f"--pgn {path} is not a regular file")
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise MatchError(f"--pgn {path}: {ancestor} is not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open_regular(path, append=True):
            pass
    except OSError as err:
        raise MatchError(f"--pgn {path}: cannot write there: {err.strerror or err}") from None


def engine_specs(args: argparse.Namespace) -> Tuple[Dict[str, EngineSpec], List[str]]:
    """Every engine by name, ccr's (`args.ccr`) and the --uci-engine ones with theirs, each
    with its options, and the opponents' names, checked."""
    specs = known_engines(args.ccr)
    for text in args.uci_engine:
        name, path = parse_option(text)
        if not name or not path:
            raise MatchError(f"--uci-engine {text!r} is not NAME=PATH")
        if name in specs:
            raise MatchError(f"--uci-engine: {name!r} is already an engine's name")
        one_line_text("--uci-engine", name)
        specs[name] = EngineSpec(name, "uci", [engine_path(path)])
    names = [n.strip() for n in args.engines.split(",") if n.strip()]
    if not names:
        raise MatchError("--engines names no engine")
    for n in names:
        if n not in specs or n == "ccr":
            raise MatchError(f"unknown opponent {n!r}; known: {', '.join(k for k in specs if k != 'ccr')}")
    for text in args.ccr_option:
        k, v = parse_option(text)
        specs["ccr"].options[k] = v
    for text in args.engine_option:
        if ":" not in text:
            raise MatchError(f"--engine-option {text!r} is not ENGINE:NAME=VALUE")
        eng, kv = text.split(":", 1)
        if eng not in specs:
            raise MatchError(f"--engine-option: unknown engine {eng!r}")
        k, v = parse_option(kv)
        specs[eng].options[k] = v
    return specs, names


def adjudication(args: argparse.Namespace) -> Adjudication:
    """The adjudications --max-plies, --resign and --draw ask for."""
    adj = Adjudication(max_plies=args.max_plies)
    if args.resign:
        adj.resign_cp, adj.resign_moves = parse_numbers(
            "--resign", args.resign, "CP:MOVES", "1000:4", [("CP", 1, MOST_CP), ("MOVES", 1, MOST_MOVES)])
    if args.draw:
        adj.draw_cp, adj.draw_moves, adj.draw_after = parse_numbers(
            "--draw", args.draw, "CP:MOVES:FROM", "10:8:40",
            [("CP", 1, MOST_CP), ("MOVES", 1, MOST_MOVES), ("FROM", 1, MOST_MOVES)])
    return adj


def match_openings(args: argparse.Namespace, games_per: int, opponents: List[EngineSpec]) -> List[Opening]:
    """The match's openings, one a game pair, with `args.openings` set to where they come
    from; an opponent without setboard needs every opening given by its moves."""
    if args.chess960 and args.openings is None:
        openings = chess960_openings(games_per // 2, args.chess960_seed)
        args.openings = f"Chess960 start positions, seed {args.chess960_seed}"
    else:
        args.openings = args.openings or str(DEFAULT_OPENINGS)
        openings = load_openings(Path(args.openings), args.chess960)
    for spec in opponents:
        if not spec.setboard and any(not o.board.move_stack for o in openings):
            raise MatchError(f"{spec.name} has no setboard: every opening needs its moves (c1) in {args.openings}")
    return openings


def tally_game(t: Tally, res: GameResult, ccr_side: chess.Color) -> str:
    """Counts a game in ccr's tally `t` against one opponent (a void game as void only) and
    says how it ended."""
    if res.void:
        t.void += 1
        return f"void ({res.reason})"
    points = ccr_points(res.result, ccr_side == chess.WHITE)
    t.add(points)
    if points == 1.0 and res.failed is not None and res.termination == "time forfeit":
        t.opp_time_losses += 1
    if points == 0.0 and res.failed == ccr_side:
        t.ccr_failures += 1
    return f"{res.result} ({res.reason})"


def check_setup(args: argparse.Namespace, engines: List[EngineSpec]) -> Optional[Sprt]:
    """Before any game: every engine (ccr first) runs, and plays Chess960 if asked; the PGN
    and the engines' directory can be written; the SPRT asked for, if any, against one
    opponent."""
    for spec in engines:
        check_engine(spec.name, spec.command[0])
    for spec in engines:
        if spec.options:
            # Started once with its options: a mistyped one fails here (Player.start).
            player = Player(spec)
            try:
                player.start()
            finally:
                player.close()
    if args.chess960:
        for spec in engines:
            check_chess960(spec)
    sprt = None
    if args.sprt:
        sprt = Sprt.parse(args.sprt, args.sprt_alpha, args.sprt_beta, args.elo_model)
        if len(engines) != 2:
            raise MatchError("--sprt tests against one opponent: give --engines one name")
    check_pgn(Path(args.pgn))
    try:
        WORK_DIR.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise MatchError(f"cannot make the engines' directory {WORK_DIR}: {err.strerror or err}") from None
    return sprt


def print_tallies(tallies: Dict[str, Tally]) -> None:
    """A line an opponent, and their sum when there are several."""
    total = Tally()
    for n, tally in tallies.items():
        print(tally.line(n))
        for f in dataclasses.fields(Tally):
            setattr(total, f.name, getattr(total, f.name) + getattr(tally, f.name))
    if len(tallies) > 1:
        print(total.line("total"))


def run(args: argparse.Namespace) -> int:
    check_numbers(args)
    one_line_text("--event", args.event)
    tc = TimeControl.parse(args.tc)
    args.ccr = engine_path(args.ccr)
    specs, names = engine_specs(args)
    adj = adjudication(args)
    games_per = args.games + (args.games % 2)
    openings = match_openings(args, games_per, [specs[n] for n in names])
    sprt = check_setup(args, [specs[n] for n in ["ccr"] + names])

    # Jobs: (opponent, game index); game 2k and 2k+1 share opening k, ccr White then Black.
    jobs = [(n, i) for n in names for i in range(games_per)]
    pgn_path = Path(args.pgn)
    tallies = {n: Tally() for n in names}
    lock = threading.Lock()
    local = threading.local()
    all_players: List[Player] = []
    done = [0]
    t_start = time.monotonic()
    # The SPRT's pairs: ccr's points in each game of a pair, until both are in.
    pair_points: Dict[int, List[float]] = {}
    stop = threading.Event()
    # Set when the match is interrupted: the games cut short then are not results.
    interrupted = threading.Event()

    print(f"ccr: {args.ccr}  tc {tc}  openings {len(openings)} ({args.openings})  "
          f"{games_per} games x {len(names)} opponents, concurrency {args.concurrency}  -> {pgn_path}", flush=True)

    def players_for(opp: str) -> Tuple[Player, Player]:
        if not hasattr(local, "players"):
            local.players = {}
        for n in ("ccr", opp):
            if n not in local.players:
                p = Player(specs[n])
                local.players[n] = p
                with lock:
                    all_players.append(p)
        return local.players["ccr"], local.players[opp]

    def count_pair_game(i: int, result: str) -> None:
        """Adds a counted game's points to its pair, and a finished pair to the SPRT."""
        pair = pair_points.setdefault(i // 2, [])
        pair.append(ccr_points(result, i % 2 == 0))
        if len(pair) == 2:
            sprt.add_pair(sum(pair))
            print(sprt.line(), flush=True)
            if sprt.decision() is not None:
                stop.set()

    if args.resume:
        recorded = recorded_games(pgn_path, names, tc, openings)
        for (opp, i), result in sorted(recorded.items(), key=lambda item: item[0][1]):
            if i >= games_per:
                continue
            tallies[opp].add(ccr_points(result, i % 2 == 0))
            done[0] += 1
            if sprt is not None and not stop.is_set():
                count_pair_game(i, result)
        jobs = [j for j in jobs if j not in recorded]
        print(f"resumed: {done[0]} counted games from {pgn_path}"
              + "".join(f" | {tallies[n].line(n)}" for n in names), flush=True)

    def run_job(job: Tuple[str, int]) -> None:
        opp, i = job
        if stop.is_set():
            return
        ccr, other = players_for(opp)
        opening = openings[(i // 2) % len(openings)]
        ccr_white = i % 2 == 0
        white, black = (ccr, other) if ccr_white else (other, ccr)
        ccr_side = chess.WHITE if ccr_white else chess.BLACK
        for attempt in range(args.max_replays + 1):
            res = play_game(white, black, opening, tc, event=args.event, round_=f"{opp}.{i + 1}",
                            counted_side=ccr_side, adjudication=adj, time_margin=args.time_margin / 1000)
            if interrupted.is_set():
                return
            with lock:
                t = tallies[opp]
                try:
                    with open_regular(pgn_path, append=True, encoding="utf-8") as f:
                        print(res.game, file=f, end="\n\n")
                except OSError as err:
                    # No next game may start before the main thread hears of it.
                    stop.set()
                    raise MatchError(f"--pgn {pgn_path}: cannot append a game: {err.strerror or err}") from None
                status = tally_game(t, res, ccr_side)
                if res.void:
                    status += ", replaying" if attempt < args.max_replays else ", giving up"
                if not res.void or attempt == args.max_replays:
                    done[0] += 1
                print(f"[{done[0]}/{games_per * len(names)} {time.monotonic() - t_start:.0f}s] "
                      f"{pgn_untag(res.game.headers['White'])} - {pgn_untag(res.game.headers['Black'])} "
                      f"[{opening.name}]: {status} | {t.line(opp)}", flush=True)
                if sprt is not None and not res.void and not stop.is_set():
                    count_pair_game(i, res.result)
            if not res.void:
                break

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency)
    exit_status = 0

    def abort() -> None:
        """No new game starts, the running ones end as their engines are killed and are not
        recorded, so the PGN holds only finished games (--resume). The pool is then waited
        for and the players closed below, as after a whole match."""
        interrupted.set()
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        with lock:
            players = list(all_players)
        for p in players:
            p.kill()

    try:
        futures = [pool.submit(run_job, j) for j in jobs]
        for fut in futures:
            fut.result()
    except MatchError:
        # An engine that fails to start, a PGN that can no longer be written: the match
        # stops with the error rather than playing its other games in vain.
        abort()
        raise
    except (KeyboardInterrupt, SystemExit) as stopped_by:
        # Ctrl-C or SIGTERM.
        abort()
        print("interrupted: the games under way are dropped", file=sys.stderr, flush=True)
        exit_status = 130 if isinstance(stopped_by, KeyboardInterrupt) else 143
    finally:
        pool.shutdown(wait=True)
        for p in all_players:
            p.close()

    print(f"\nccr ({args.ccr}) at {tc}, {len(openings)} openings, both colours; W/D/L from ccr's side:")
    print_tallies(tallies)
    if sprt is not None:
        if sprt.decision():
            print(sprt.line())
        elif interrupted.is_set():
            print(sprt.line() + f"  (interrupted after {done[0]} games; --resume goes on)")
        else:
            print(sprt.line() + f"  (no decision in {games_per} games)")
    print(f"PGN: {pgn_path}")
    return exit_status


if __name__ == "__main__":
    sys.exit(main())

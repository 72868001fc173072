//! Training data made by the engine itself: self-play games from randomised openings, each
//! move searched to a fixed node count, every position not in check resolved by a quiescence
//! search (the quiet position its best capture line ends in) and labelled with the game's
//! result.
//!
//! Output: one line per position, `FEN;RESULT` with RESULT 1.0, 0.5 or 0.0 for White.
//!
//! With [`Config::scores`] the data is the network's instead (`ccr train`): each position
//! as it was searched, not resolved, when it is quiet by the search's own verdict (not in
//! check, its best move neither a capture nor a promotion, the score not a mate), written
//! `FEN;RESULT;SCORE` with SCORE the search's score for White in centipawns.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, OnceLock};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::{Portable, Position};
use crate::eval::Evaluator;
use crate::history::History;
use crate::moves::MoveList;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, MATE_BOUND, Search};
use crate::tune::texel::parse_record;
use crate::types::{Move, MoveKind};

/// How a data run is made.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games to play.
    pub games: u32,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies played before the search takes over.
    pub random_plies: u32,
    /// Seed of the random openings (game `i` uses `seed + i`).
    pub seed: u64,
    /// Start positions, game `i` from the `i`-th (cycling) before its random plies; none:
    /// the initial position.
    pub starts: Vec<Position>,
    /// Write the searched quiet positions with their search scores (`FEN;RESULT;SCORE`)
    /// instead of the resolved positions with their results only.
    pub scores: bool,
    /// The evaluator the games' searches use.
    pub evaluator: Evaluator,
}

/// Captures searched beyond the position at most (a bound on the resolution's work; capture
/// sequences are far shorter in games).
const RESOLVE_PLIES: u32 = 16;

/// The quiet position that a quiescence search over captures reaches from `pos` along its
/// best line: `pos` itself when standing pat is best, else the end of the best capture
/// sequence (alpha-beta on the frame evaluation, most valuable victim first). The static
/// evaluation is fitted to this position, where no pending capture makes it wrong.
pub fn resolve(pos: &Position) -> Position {
    quiesce(pos, -i32::MAX, i32::MAX, 0).1
}

fn quiesce(pos: &Position, mut alpha: i32, beta: i32, ply: u32) -> (i32, Position) {
    let stand_pat = crate::eval::evaluate(pos);
    let mut best = (stand_pat, *pos);
    if stand_pat >= beta || ply >= RESOLVE_PLIES {
        return best;
    }
    alpha = alpha.max(stand_pat);
    let mut list = MoveList::new();
    pos.generate_captures(Portable, &mut list);
    let mut captures: Vec<Move> = list.as_slice().to_vec();
    // Most valuable victim first (the piece code's kind: pawn 1 up to queen; en passant and
    // promotions without a victim come last).
    captures.sort_by_key(|mv| std::cmp::Reverse(pos.board().get(mv.to()).piece_type()));
    for mv in captures {
        let (score, leaf) = quiesce(&pos.make(mv), -beta, -alpha, ply + 1);
        if -score > best.0 {
            best = (-score, leaf);
            alpha = alpha.max(-score);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The result of one game, from White's point of view.
fn result_text(white_score: f32) -> &'static str {
    if white_score > 0.75 {
        "1.0"
    } else if white_score < 0.25 {
        "0.0"
    } else {
        "0.5"
    }
}

/// The plies after which a game is called a draw, its random opening included.
pub const GAME_PLIES: u32 = 400;

/// Plays game number `index` and returns its labelled positions.
pub fn play_game(config: &Config, index: u64, tt: &TranspositionTable) -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed.wrapping_add(index));
    let control = Control::default();
    let mut pos = if config.starts.is_empty() {
        Position::startpos()
    } else {
        config.starts[(index % config.starts.len() as u64) as usize]
    };
    let mut history = History::new();
    history.push(pos.key(), pos.halfmove_clock());
    // A random opening; a game that it ends (no legal move, or a draw by repetition or
    // the fifty-move rule) gives no positions.
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let mv = moves.as_slice()[rng.next_u32() as usize % moves.len()];
        pos = pos.make(mv);
        history.push(pos.key(), pos.halfmove_clock());
        if history.is_threefold() || history.is_fifty_move_draw() {
            return Vec::new();
        }
    }
    tt.clear();
    let mut quiet_positions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut decisive_plies = 0;
    let white_score: f32 = loop {
        if pos.legal_moves().is_empty() {
            break if !pos.in_check() {
                0.5
            } else if pos.side() == crate::types::Colour::White {
                0.0
            } else {
                1.0
            };
        }
        if history.is_threefold()
            || history.is_fifty_move_draw()
            || history.len() > GAME_PLIES as usize
        {
            break 0.5;
        }
        let search = Search {
            tt,
            control: &control,
            root: pos,
            history: history.clone(),
            limits: Limits {
                nodes: Some(config.nodes),
                ..Limits::default()
            },
            threads: 1,
            profile: None,
            evaluator: config.evaluator,
            syzygy: None,
        };
        let outcome = search.run(&mut |_| {});
        let Some(best) = outcome.best else {
            break 0.5;
        };
        // Scores from White's side; a clear result for eight plies ends the game.
        let white = if pos.side() == crate::types::Colour::White {
            outcome.score
        } else {
            -outcome.score
        };
        if white.abs() >= 1000 {
            decisive_plies += 1;
            if decisive_plies >= 8 || white.abs() >= MATE_BOUND {
                break if white > 0 { 1.0 } else { 0.0 };
            }
        } else {
            decisive_plies = 0;
        }
        if config.scores {
            // The position as searched, where the search itself found nothing to capture.
            let quiet_best = pos.board().get(best.to()).code() == 0
                && best.promotion().is_none()
                && best.kind() != MoveKind::EnPassant;
            if !pos.in_check() && quiet_best && white.abs() < MATE_BOUND && seen.insert(pos) {
                quiet_positions.push(format!("{};{white}", pos.to_fen()));
            }
        } else if !pos.in_check() {
            // Every position not in check, resolved to a quiet one (once per game:
            // neighbouring positions can resolve to the same), unless the resolution ends in
            // check.
            let quiet = resolve(&pos);
            if !quiet.in_check() && seen.insert(quiet) {
                quiet_positions.push(quiet.to_fen());
            }
        }
        pos = pos.make(best);
        history.push(pos.key(), pos.halfmove_clock());
    };
    let label = result_text(white_score);
    quiet_positions
        .into_iter()
        .map(|record| match record.split_once(';') {
            Some((fen, score)) => format!("{fen};{label};{score}"),
            None => format!("{record};{label}"),
        })
        .collect()
}

/// Why a data run failed.
#[derive(Debug)]
pub enum Error {
    /// The tables or the threads could not be had (nothing was written, no file was made).
    NoMemory(String),
    /// The output could not be opened.
    Open(std::io::Error),
    /// Another process holds the output's lock (another run writing to it): nothing was
    /// written.
    Locked,
    /// The output holds something other than records: nothing was written to it.
    NotData(NotData),
    /// A game's records could not be written.
    Write {
        /// The write's error.
        error: std::io::Error,
        /// The whole games of this run in the file, before the one that failed.
        games: u64,
        /// Their positions.
        positions: u64,
        /// Why the part of the failed game's records that was written could not be cut off
        /// (the file may then end in a partial record); `None` when nothing is left of it.
        cut: Option<std::io::Error>,
    },
}

/// How an existing output shows that it is not data.
#[derive(Debug)]
pub enum NotData {
    /// Its last whole line is not a record.
    LastLine,
    /// Its last line has no newline and is neither a record nor a record cut short (or is
    /// longer than any record).
    Tail,
}

/// What opening the output did with a last line that has no newline.
#[derive(Debug)]
pub enum Unterminated {
    /// The line is a whole record (`FEN;RESULT` as `ccr tune` reads it): its newline was
    /// added and it is kept.
    Completed,
    /// The line is a record cut short (a writer stopped in the middle of it): it was cut
    /// off.
    Dropped {
        /// Its length in bytes.
        bytes: u64,
        /// Its first characters.
        start: String,
    },
}

/// The output file and what this run wrote to it.
struct Output {
    file: File,
    games: u64,
    positions: u64,
    failed: bool,
}

impl Output {
    /// Appends one game's records; on failure cuts off the part of them that was written,
    /// so that the file holds whole records only. The error comes with the cut's own error,
    /// if a part was written and could not be cut off.
    fn append(
        &mut self,
        records: &[u8],
        lines: u64,
    ) -> Result<(), (std::io::Error, Option<std::io::Error>)> {
        let mut done = 0;
        // Where the written part lies: each write lands at the file's end (append mode) and
        // leaves the offset where it ended; unknown once a write did not follow the last.
        let mut span: Option<Range<u64>> = None;
        while done < records.len() {
            let error = match self.file.write(&records[done..]) {
                Ok(0) => std::io::Error::from(std::io::ErrorKind::WriteZero),
                Ok(n) => {
                    let end = self.file.stream_position().ok();
                    let start = end.and_then(|end| end.checked_sub(n as u64));
                    span = match (span, start, end) {
                        (None, Some(start), Some(end)) if done == 0 => Some(start..end),
                        (Some(span), Some(start), Some(end)) if start == span.end => {
                            Some(span.start..end)
                        }
                        _ => None,
                    };
                    done += n;
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => e,
            };
            self.failed = true;
            let cut = (done > 0)
                .then(|| cut_off(&self.file, span))
                .and_then(Result::err);
            return Err((error, cut));
        }
        self.games += 1;
        self.positions += lines;
        Ok(())
    }
}

/// Cuts off `written`, the bytes of a failed game's records, if the file still ends where
/// they do: whatever another writer put after them is never cut, nor is anything when where
/// they went is unknown.
fn cut_off(file: &File, written: Option<Range<u64>>) -> std::io::Result<()> {
    let Some(written) = written else {
        return Err(std::io::Error::other("where its bytes went is unknown"));
    };
    if file.metadata()?.len() != written.end {
        return Err(std::io::Error::other(
            "the file no longer ends where this run's bytes did",
        ));
    }
    file.set_len(written.start)
}

/// The longest line that is read to see whether it is a record (a FEN is below 100 bytes).
const LONGEST_RECORD: u64 = 1024;

/// Opens `path` for appending (made if missing) and takes its lock for the run. An existing
/// file must be data: its last whole line a record and what follows its last newline, if
/// anything, a record (kept, its newline added) or a record cut short (a writer stopped in
/// the middle of it: cut off, as the next record would be glued onto it). Anything else is
/// refused with the file as it was.
fn open(path: &Path) -> Result<(File, Option<Unterminated>), Error> {
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(Error::Open)?;
    if !lock(&file).map_err(Error::Open)? {
        return Err(Error::Locked);
    }
    let len = file.metadata().map_err(Error::Open)?.len();
    // An empty file, a pipe or a device: nothing to read back (and no seeking in a pipe).
    if len == 0 {
        return Ok((file, None));
    }
    let Some(tail) = line_start(&mut file, len).map_err(Error::Open)? else {
        return Err(Error::NotData(NotData::Tail));
    };
    if tail > 0 {
        let last = line_start(&mut file, tail - 1).map_err(Error::Open)?;
        let record = match last {
            Some(start) => read_at(&mut file, start..tail - 1)
                .map_err(Error::Open)?
                .is_some_and(|line| parse_record(&line).is_some()),
            None => false,
        };
        if !record {
            return Err(Error::NotData(NotData::LastLine));
        }
    }
    if tail == len {
        return Ok((file, None));
    }
    let Some(line) = read_at(&mut file, tail..len).map_err(Error::Open)? else {
        return Err(Error::NotData(NotData::Tail));
    };
    if parse_record(&line).is_some() {
        file.write_all(b"\n").map_err(Error::Open)?;
        return Ok((file, Some(Unterminated::Completed)));
    }
    if !could_begin_record(&line) {
        return Err(Error::NotData(NotData::Tail));
    }
    file.set_len(tail).map_err(Error::Open)?;
    let dropped = Unterminated::Dropped {
        bytes: len - tail,
        start: line.chars().take(40).collect(),
    };
    Ok((file, Some(dropped)))
}

/// Takes the file's exclusive advisory lock without waiting (held until the file is
/// closed); `false` if another process holds it.
#[cfg(unix)]
fn lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open through the call.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    if error.kind() == std::io::ErrorKind::WouldBlock {
        Ok(false)
    } else {
        Err(error)
    }
}

/// Other systems lock nothing here: a second writer there is not detected.
#[cfg(not(unix))]
fn lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

/// Where the line that ends at `end` starts: after the last newline before `end`, or at 0.
/// `None` if no newline is found within a record's length before `end` (a line too long to
/// be a record).
fn line_start(file: &mut File, end: u64) -> std::io::Result<Option<u64>> {
    let from = end.saturating_sub(LONGEST_RECORD + 1);
    let mut window = vec![0; (end - from) as usize];
    file.seek(SeekFrom::Start(from))?;
    file.read_exact(&mut window)?;
    Ok(match window.iter().rposition(|&b| b == b'\n') {
        Some(i) => Some(from + i as u64 + 1),
        None => (from == 0).then_some(0),
    })
}

/// The bytes of `range` as text; `None` if they are not UTF-8.
fn read_at(file: &mut File, range: Range<u64>) -> std::io::Result<Option<String>> {
    let mut bytes = vec![0; (range.end - range.start) as usize];
    file.seek(SeekFrom::Start(range.start))?;
    file.read_exact(&mut bytes)?;
    Ok(String::from_utf8(bytes).ok())
}

/// Whether `text` can be the start of a record cut short: a FEN's board first, then only
/// the characters of a FEN, a label and a score, at most two `;`.
fn could_begin_record(text: &str) -> bool {
    text.starts_with(|c: char| "pnbrqkPNBRQK12345678".contains(c))
        && text.matches(';').count() <= 2
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " /;.-".contains(c))
}

/// Plays `config.games` games on `threads` threads (no more threads than games), appending
/// each game's lines to `path` as the game ends. The tables (16 MiB each) and
/// the threads are had before the file is opened: without them it fails with
/// [`Error::NoMemory`] and makes no file. The file is locked for the run: another run
/// writing to it is [`Error::Locked`]. An existing file that is not data is
/// [`Error::NotData`], left as it was. `opened` hears, once the file is open, what was done
/// with a last line without its newline. A failed write leaves the file with whole games
/// only. Returns the lines written.
pub fn run(
    config: &Config,
    threads: usize,
    path: &Path,
    opened: &mut dyn FnMut(&Unterminated),
) -> Result<u64, Error> {
    let workers = threads.clamp(1, config.games.max(1) as usize);
    let mut tables = Vec::new();
    tables
        .try_reserve_exact(workers)
        .map_err(|_| Error::NoMemory(format!("no memory for {workers} tables of 16 MiB")))?;
    for _ in 0..workers {
        let table = TranspositionTable::new(16)
            .ok_or_else(|| Error::NoMemory(format!("no memory for {workers} tables of 16 MiB")))?;
        tables.push(table);
    }
    let next = AtomicU64::new(0);
    // Filled once every worker has started; until then the workers wait.
    let output: OnceLock<Mutex<Output>> = OnceLock::new();
    let (start_tx, start_rx) = std::sync::mpsc::channel::<bool>();
    let start_rx = Mutex::new(start_rx);
    std::thread::scope(|scope| -> Result<(), Error> {
        let mut handles = Vec::new();
        handles
            .try_reserve_exact(workers)
            .map_err(|_| Error::NoMemory(format!("no memory for {workers} threads")))?;
        for tt in &tables {
            let worker = std::thread::Builder::new().spawn_scoped(scope, || {
                // Wait for the go (true) or the call-off (false, or the sender gone).
                let go = start_rx
                    .lock()
                    .map(|rx| rx.recv().unwrap_or(false))
                    .unwrap_or(false);
                if !go {
                    return Ok(());
                }
                let Some(output) = output.get() else {
                    return Ok(());
                };
                loop {
                    let index = next.fetch_add(1, Relaxed);
                    if index >= config.games as u64 {
                        return Ok(());
                    }
                    let lines = play_game(config, index, tt);
                    let mut records = String::new();
                    for line in &lines {
                        records.push_str(line);
                        records.push('\n');
                    }
                    let mut out = output.lock().unwrap_or_else(|p| p.into_inner());
                    if out.failed {
                        return Ok(());
                    }
                    if let Err(e) = out.append(records.as_bytes(), lines.len() as u64) {
                        // The other threads take no new game.
                        next.store(u64::MAX / 2, Relaxed);
                        return Err(e);
                    }
                }
            });
            match worker {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    // Dropping the sender calls off the threads already started.
                    drop(start_tx);
                    for handle in handles {
                        let _ = handle.join();
                    }
                    return Err(Error::NoMemory(format!(
                        "cannot start {workers} threads: {e}"
                    )));
                }
            }
        }
        let opened_file = open(path);
        let go = opened_file.is_ok();
        let open_error = match opened_file {
            Ok((file, unterminated)) => {
                if let Some(unterminated) = &unterminated {
                    opened(unterminated);
                }
                let _ = output.set(Mutex::new(Output {
                    file,
                    games: 0,
                    positions: 0,
                    failed: false,
                }));
                None
            }
            Err(e) => Some(e),
        };
        for _ in 0..workers {
            let _ = start_tx.send(go);
        }
        let mut failure = None;
        for handle in handles {
            let outcome = handle
                .join()
                .unwrap_or_else(|_| Err((std::io::Error::other("a data thread panicked"), None)));
            if let (Err(e), None) = (outcome, &failure) {
                failure = Some(e);
            }
        }
        if let Some(e) = open_error {
            return Err(e);
        }
        match failure {
            None => Ok(()),
            Some((error, cut)) => {
                let (games, positions) = written(&output);
                Err(Error::Write {
                    error,
                    games,
                    positions,
                    cut,
                })
            }
        }
    })?;
    Ok(written(&output).1)
}

/// The games and positions written to the output, once the workers are done.
fn written(output: &OnceLock<Mutex<Output>>) -> (u64, u64) {
    output.get().map_or((0, 0), |out| {
        let out = out.lock().unwrap_or_else(|p| p.into_inner());
        (out.games, out.positions)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game_gives_labelled_fens() {
        let config = Config {
            games: 1,
            nodes: 300,
            random_plies: 6,
            seed: 7,
            starts: Vec::new(),
            scores: false,
            evaluator: Evaluator::Frame,
        };
        let tt = TranspositionTable::new(1).unwrap();
        let lines = play_game(&config, 0, &tt);
        assert!(!lines.is_empty());
        let label = lines[0].rsplit(';').next().unwrap().to_string();
        for line in &lines {
            let (fen, result) = line.split_once(';').unwrap();
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
            assert_eq!(result, label);
        }
        // The same seed plays the same game.
        assert_eq!(play_game(&config, 0, &tt), lines);
    }

    #[test]
    fn the_games_are_searched_with_the_given_evaluator() {
        let frame = Config {
            games: 1,
            nodes: 300,
            random_plies: 6,
            seed: 7,
            starts: Vec::new(),
            scores: true,
            evaluator: Evaluator::Frame,
        };
        let network = Config {
            evaluator: Evaluator::Network,
            ..frame.clone()
        };
        let tt = TranspositionTable::new(1).unwrap();
        let by_frame = play_game(&frame, 0, &tt);
        tt.clear();
        let by_network = play_game(&network, 0, &tt);
        // The same opening searched by another evaluator scores otherwise.
        assert_ne!(by_frame, by_network);
        tt.clear();
        assert_eq!(play_game(&network, 0, &tt), by_network);
    }

    #[test]
    fn resolution_plays_out_the_winning_capture_and_stands_pat_when_quiet() {
        // White's queen takes the undefended rook on a8: the resolved position is after it.
        let hanging = Position::from_fen("r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        assert_eq!(resolve(&hanging).to_fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
        // A rook defended by a knight is not worth the queen: standing pat is best.
        let defended = Position::from_fen("r3k3/8/1n6/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        assert_eq!(resolve(&defended), defended);
        // Quiet already.
        let start = Position::startpos();
        assert_eq!(resolve(&start), start);
    }

    #[test]
    fn games_start_from_the_given_positions() {
        let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let config = Config {
            games: 1,
            nodes: 200,
            random_plies: 0,
            seed: 1,
            starts: vec![start],
            scores: false,
            evaluator: Evaluator::Frame,
        };
        let tt = TranspositionTable::new(1).unwrap();
        let lines = play_game(&config, 0, &tt);
        assert!(
            lines[0].starts_with("4k3/8/8/8/8/8/4P3/4K3 w"),
            "{}",
            lines[0]
        );
    }

    /// A failed game's bytes are cut off only while the file ends where they do: what
    /// another writer appended after them stays, and so do they.
    #[test]
    fn a_cut_takes_back_only_this_runs_bytes_at_the_end() {
        let path = std::env::temp_dir().join(format!("ccr-cut-off-{}", std::process::id()));
        let ours = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1.0\n4k3/8/8/8/8/8/4P3/4K3 b";
        let theirs = "8/8/8/8/8/8/8/K1k5 w - - 0 1;0.5\n";
        for (other_writer, after) in [
            (false, "earlier;1.0\n".to_string()),
            (true, format!("earlier;1.0\n{ours}{theirs}")),
        ] {
            std::fs::write(&path, "earlier;1.0\n").unwrap();
            let file = OpenOptions::new().append(true).open(&path).unwrap();
            (&file).write_all(ours.as_bytes()).unwrap();
            let end = 12 + ours.len() as u64;
            if other_writer {
                let mut other = OpenOptions::new().append(true).open(&path).unwrap();
                other.write_all(theirs.as_bytes()).unwrap();
            }
            let cut = cut_off(&file, Some(12..end));
            assert_eq!(cut.is_err(), other_writer, "{cut:?}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
            // Where the bytes went unknown: nothing is cut.
            assert!(cut_off(&file, None).is_err());
            assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
        }
        std::fs::remove_file(&path).unwrap();
    }
}

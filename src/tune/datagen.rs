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
    // A random opening; start again if it ends the game or leaves no legal move.
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let mv = moves.as_slice()[rng.next_u32() as usize % moves.len()];
        pos = pos.make(mv);
        history.push(pos.key(), pos.halfmove_clock());
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
        if history.is_threefold() || history.is_fifty_move_draw() || history.len() > 400 {
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

/// What opening the output did with a last line that has no newline.
#[derive(Debug)]
pub enum Unterminated {
    /// The line is a whole record (`FEN;RESULT` as `ccr tune` reads it): its newline was
    /// added and it is kept.
    Completed,
    /// The line is not a record (a writer stopped in the middle of it): it was cut off.
    Dropped {
        /// Its length in bytes.
        bytes: u64,
        /// Its first characters.
        start: String,
    },
}

/// The output file, its length after the last whole game written, and what this run wrote.
struct Output {
    file: File,
    len: u64,
    games: u64,
    positions: u64,
    failed: bool,
}

impl Output {
    /// Appends one game's records; on failure cuts the file back to its length before them,
    /// so that it holds whole records only. The error comes with the cut's own error, if
    /// a part was written and could not be cut off.
    fn append(
        &mut self,
        records: &[u8],
        lines: u64,
    ) -> Result<(), (std::io::Error, Option<std::io::Error>)> {
        let mut done = 0;
        while done < records.len() {
            let error = match self.file.write(&records[done..]) {
                Ok(0) => std::io::Error::from(std::io::ErrorKind::WriteZero),
                Ok(n) => {
                    done += n;
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => e,
            };
            self.failed = true;
            let cut = if done > 0 {
                self.file.set_len(self.len).err()
            } else {
                None
            };
            return Err((error, cut));
        }
        self.len += records.len() as u64;
        self.games += 1;
        self.positions += lines;
        Ok(())
    }
}

/// The longest last line without a newline that is read to see whether it is a record
/// (a FEN is below 100 bytes).
const LONGEST_RECORD: u64 = 1024;

/// Opens `path` for appending (made if missing) and gives its length. A last line without
/// its newline is kept, its newline added, if it is a record; otherwise (a writer stopped in
/// the middle of it) it is cut off, as the next record would be glued onto it.
fn open(path: &Path) -> std::io::Result<(File, u64, Option<Unterminated>)> {
    let (mut file, made) = match OpenOptions::new().append(true).create_new(true).open(path) {
        Ok(file) => (file, true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => (
            OpenOptions::new().read(true).append(true).open(path)?,
            false,
        ),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    let whole = if made {
        0
    } else {
        whole_lines(&mut file, len)?
    };
    if whole == len {
        return Ok((file, len, None));
    }
    let mut last = vec![0; (len - whole).min(LONGEST_RECORD) as usize];
    file.seek(SeekFrom::Start(whole))?;
    file.read_exact(&mut last)?;
    let record = len - whole <= LONGEST_RECORD
        && std::str::from_utf8(&last).is_ok_and(|line| parse_record(line).is_some());
    if record {
        file.write_all(b"\n")?;
        return Ok((file, len + 1, Some(Unterminated::Completed)));
    }
    file.set_len(whole)?;
    let start: String = String::from_utf8_lossy(&last).chars().take(40).collect();
    let dropped = Unterminated::Dropped {
        bytes: len - whole,
        start,
    };
    Ok((file, whole, Some(dropped)))
}

/// The length of the part of a file that ends in a newline (0 if none does).
fn whole_lines(file: &mut File, len: u64) -> std::io::Result<u64> {
    let mut end = len;
    let mut chunk = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Plays `config.games` games on `threads` threads (no more threads than games), appending
/// each game's lines to `path` as the game ends. The tables (16 MiB each) and
/// the threads are had before the file is opened: without them it fails with
/// [`Error::NoMemory`] and makes no file. `opened` hears, once the file is open, what was
/// done with a last line without its newline. A failed write leaves the file with whole games
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
            Ok((file, len, unterminated)) => {
                if let Some(unterminated) = &unterminated {
                    opened(unterminated);
                }
                let _ = output.set(Mutex::new(Output {
                    file,
                    len,
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
            return Err(Error::Open(e));
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
}

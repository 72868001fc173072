//! Training data made by the engine itself: self-play games from randomised openings, each
//! move searched to a fixed node count, every quiet position labelled with the game's result.
//!
//! Output: one line per position, `FEN;RESULT` with RESULT 1.0, 0.5 or 0.0 for White.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, OnceLock};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::Position;
use crate::eval::Evaluator;
use crate::history::History;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, MATE_BOUND, Search};

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
    let mut pos = Position::startpos();
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
            evaluator: Evaluator::Frame,
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
        // Quiet: not in check, and the best move is not a capture or promotion.
        let capture = pos.board().get(best.to()).code() != 0
            || best.kind() == crate::types::MoveKind::EnPassant
            || best.promotion().is_some();
        if !pos.in_check() && !capture {
            quiet_positions.push(pos.to_fen());
        }
        pos = pos.make(best);
        history.push(pos.key(), pos.halfmove_clock());
    };
    let label = result_text(white_score);
    quiet_positions
        .into_iter()
        .map(|fen| format!("{fen};{label}"))
        .collect()
}

/// Why a data run failed.
#[derive(Debug)]
pub enum Error {
    /// The tables or the threads could not be had (nothing was written, no file was made).
    NoMemory(String),
    /// The output could not be opened.
    Open(std::io::Error),
    /// A game's records could not be written; the file was cut back to its length before
    /// them.
    Write(std::io::Error),
}

/// The output file and its length after the last whole game written.
struct Output {
    file: File,
    len: u64,
    failed: bool,
}

impl Output {
    /// Appends one game's records with one write; on failure cuts the file back to its
    /// length before them, so that it holds whole records only.
    fn append(&mut self, records: &[u8]) -> std::io::Result<()> {
        match self.file.write_all(records) {
            Ok(()) => {
                self.len += records.len() as u64;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                self.file.set_len(self.len).map_err(|cut| {
                    std::io::Error::new(
                        e.kind(),
                        format!("{e}; cutting back the partial record failed too: {cut}"),
                    )
                })?;
                Err(e)
            }
        }
    }
}

/// Opens `path` for appending (made if missing) and gives its length. A last line
/// without its newline, which only an interrupted writer leaves, is cut off: it is a
/// partial record, and the next record would otherwise be glued onto it.
fn open(path: &Path) -> std::io::Result<(File, u64)> {
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
    if whole < len {
        file.set_len(whole)?;
    }
    Ok((file, whole))
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
/// each game's lines to `path` with one write as the game ends. The tables (16 MiB each) and
/// the threads are had before the file is opened: without them it fails with
/// [`Error::NoMemory`] and makes no file. A failed write leaves the file with whole games
/// only. Returns the lines written.
pub fn run(config: &Config, threads: usize, path: &Path) -> Result<u64, Error> {
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
    let written = AtomicU64::new(0);
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
                    if let Err(e) = out.append(records.as_bytes()) {
                        // The other threads take no new game.
                        next.store(u64::MAX / 2, Relaxed);
                        return Err(e);
                    }
                    written.fetch_add(lines.len() as u64, Relaxed);
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
        let opened = open(path);
        let go = opened.is_ok();
        let open_error = match opened {
            Ok((file, len)) => {
                let _ = output.set(Mutex::new(Output {
                    file,
                    len,
                    failed: false,
                }));
                None
            }
            Err(e) => Some(e),
        };
        for _ in 0..workers {
            let _ = start_tx.send(go);
        }
        let mut result = Ok(());
        for handle in handles {
            let outcome = handle
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("a data thread panicked")));
            if let (Err(e), Ok(())) = (outcome, &result) {
                result = Err(Error::Write(e));
            }
        }
        match open_error {
            Some(e) => Err(Error::Open(e)),
            None => result,
        }
    })?;
    Ok(written.into_inner())
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
}

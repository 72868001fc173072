//! Training data made by the engine itself: self-play games from randomised openings, each
//! move searched to a fixed node count, every quiet position labelled with the game's result.
//!
//! Output: one line per position, `FEN;RESULT` with RESULT 1.0, 0.5 or 0.0 for White.

use std::io::Write;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::Position;
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
    history.push(pos.key(), pos.halfmove_clock);
    // A random opening; start again if it ends the game or leaves no legal move.
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let mv = moves.as_slice()[rng.next_u32() as usize % moves.len()];
        pos = pos.make(mv);
        history.push(pos.key(), pos.halfmove_clock);
    }
    tt.clear();
    let mut quiet_positions = Vec::new();
    let mut decisive_plies = 0;
    let white_score: f32 = loop {
        if pos.legal_moves().is_empty() {
            break if !pos.in_check() {
                0.5
            } else if pos.side == crate::types::Colour::White {
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
        };
        let outcome = search.run(&mut |_| {});
        let Some(best) = outcome.best else {
            break 0.5;
        };
        // Scores from White's side; a clear result for eight plies ends the game.
        let white = if pos.side == crate::types::Colour::White {
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
        let capture = pos.board.get(best.to()).0 != 0
            || best.kind() == crate::types::MoveKind::EnPassant
            || best.promotion().is_some();
        if !pos.in_check() && !capture {
            quiet_positions.push(pos.to_fen());
        }
        pos = pos.make(best);
        history.push(pos.key(), pos.halfmove_clock);
    };
    let label = result_text(white_score);
    quiet_positions
        .into_iter()
        .map(|fen| format!("{fen};{label}"))
        .collect()
}

/// Plays `config.games` games on `threads` threads, writing each game's lines as it ends.
/// Fails with `OutOfMemory` if the threads' tables (16 MiB each, taken before any game)
/// or the threads themselves cannot be had.
pub fn run(config: &Config, threads: usize, out: &mut (dyn Write + Send)) -> std::io::Result<u64> {
    let threads = threads.max(1);
    let tables: Vec<TranspositionTable> = (0..threads)
        .map(|_| TranspositionTable::new(16))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!("no memory for {threads} tables of 16 MiB"),
            )
        })?;
    let next = std::sync::atomic::AtomicU64::new(0);
    let out = std::sync::Mutex::new(out);
    let written = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers = tables
            .iter()
            .map(|tt| {
                std::thread::Builder::new().spawn_scoped(scope, || -> std::io::Result<()> {
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if index >= config.games as u64 {
                            return Ok(());
                        }
                        let lines = play_game(config, index, tt);
                        let mut out = out.lock().unwrap_or_else(|p| p.into_inner());
                        for line in &lines {
                            writeln!(out, "{line}")?;
                        }
                        out.flush()?;
                        written.fetch_add(lines.len() as u64, std::sync::atomic::Ordering::Relaxed);
                    }
                })
            })
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(|e| {
                // The threads already started take no new game.
                next.store(u64::MAX / 2, std::sync::atomic::Ordering::Relaxed);
                std::io::Error::new(std::io::ErrorKind::OutOfMemory, e)
            })?;
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a data thread panicked"))
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

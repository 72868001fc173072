//! Random opening positions, as OpenBench's data-generation workloads ask for them
//! (`genfens N seed S book B`): a few random legal plies from the start position or from a
//! book line, kept when a short search finds the position balanced. The same seed and book
//! give the same positions.

use std::sync::atomic::Ordering::Relaxed;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::Position;
use crate::ccr::fen::data_lines;
use crate::eval::Evaluator;
use crate::files::{Refused, open_regular};
use crate::history::History;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Search};

/// The random plies played from the start: this many, or one more (chosen at random, so
/// that either side may be to move).
const RANDOM_PLIES: u64 = 8;
/// The nodes of the search that judges a candidate.
const JUDGE_NODES: u64 = 5_000;
/// A candidate is kept when that search scores it within this many centipawns of level.
const BALANCED_CP: i32 = 120;
/// Candidates tried in a row without a balanced one before giving up (a book of lost
/// positions finds none): a second or two of searches.
const MISSES_IN_A_ROW: usize = 1_000;
/// The judging search's table, MiB.
const TABLE_MB: usize = 1;

/// Writes `count` balanced opening positions to `emit`, each reached by random legal plies
/// from a line of `book` chosen at random (the start position when `book` is empty).
/// Fails, saying how many were written, when `control` is told to stop (which also ends the
/// judging search under way), or when [`MISSES_IN_A_ROW`] candidates in a row are not
/// balanced.
pub(crate) fn generate(
    count: usize,
    seed: u64,
    book: &[Position],
    control: &Control,
    mut emit: impl FnMut(&Position),
) -> Result<(), String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tt =
        TranspositionTable::fitting(TABLE_MB).map_or_else(TranspositionTable::empty, |(tt, _)| tt);
    let mut found = 0;
    let mut misses = 0;
    while found < count {
        if control.stop.load(Relaxed) {
            return Err(format!("stopped after {found} of {count} positions"));
        }
        if misses == MISSES_IN_A_ROW {
            return Err(format!(
                "{found} of {count} positions: none of the last {misses} tries was balanced, \
                 giving up"
            ));
        }
        let start = if book.is_empty() {
            Position::startpos()
        } else {
            book[(rng.next_u64() % book.len() as u64) as usize]
        };
        let plies = RANDOM_PLIES + rng.next_u64() % 2;
        let balanced = random_plies(start, plies, &mut rng)
            .filter(|candidate| is_balanced(candidate, &tt, control));
        // A search cut short by a stop judged nothing.
        match balanced {
            Some(candidate) if !control.stop.load(Relaxed) => {
                emit(&candidate);
                found += 1;
                misses = 0;
            }
            _ => misses += 1,
        }
    }
    Ok(())
}

/// `plies` random legal moves from `start`; `None` if the game ends on the way or at the end.
fn random_plies(start: Position, plies: u64, rng: &mut Xoshiro256PlusPlus) -> Option<Position> {
    let mut position = start;
    for _ in 0..plies {
        let moves = position.legal_moves();
        let moves = moves.as_slice();
        if moves.is_empty() {
            return None;
        }
        position = position.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
    }
    (!position.legal_moves().as_slice().is_empty()).then_some(position)
}

/// Whether a short search scores `position` within [`BALANCED_CP`] of level.
fn is_balanced(position: &Position, tt: &TranspositionTable, control: &Control) -> bool {
    tt.clear();
    let mut history = History::new();
    history.push(position.key(), position.halfmove_clock());
    let search = Search {
        tt,
        control,
        root: *position,
        history,
        limits: Limits {
            nodes: Some(JUDGE_NODES),
            ..Limits::default()
        },
        threads: 1,
        profile: None,
        // The frame, so that a seed's openings do not change with the network's weights.
        evaluator: Evaluator::Frame,
        syzygy: None,
    };
    search.run(&mut |_| {}).score.abs() <= BALANCED_CP
}

/// The largest book read, bytes (OpenBench's books are a few MiB).
const MAX_BOOK_BYTES: u64 = 64 << 20;

/// The positions of the book file at `path` (see [`read_book`]); a path that is not a
/// regular file (a FIFO is refused without waiting for a writer), or a file over 64 MiB, is
/// refused before it is read.
pub(crate) fn load_book(path: &str) -> Result<Vec<Position>, String> {
    use std::io::Read;
    let (file, len) =
        open_regular(std::path::Path::new(path)).map_err(|refused| match refused {
            Refused::NotRegular => "not a regular file".to_string(),
            Refused::Io(e) => e.to_string(),
        })?;
    if len > MAX_BOOK_BYTES {
        return Err(format!("larger than {} MiB", MAX_BOOK_BYTES >> 20));
    }
    let mut text = String::new();
    file.take(MAX_BOOK_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    read_book(&text)
}

/// The positions of a book file, one per line: a FEN or EPD (the first four fields are
/// read, the clocks when they are numbers); blank lines and `#` comments are skipped.
/// Fails on a line that is not a position, naming it, and on a book without any.
pub fn read_book(text: &str) -> Result<Vec<Position>, String> {
    let mut book = Vec::new();
    for (number, line) in data_lines(text) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let clocks = match fields.get(4..6) {
            Some([half, full]) if half.parse::<u32>().is_ok() && full.parse::<u32>().is_ok() => {
                format!("{half} {full}")
            }
            _ => "0 1".to_string(),
        };
        let fen = format!("{} {clocks}", fields[..fields.len().min(4)].join(" "));
        let position =
            Position::from_fen(&fen).map_err(|e| format!("line {number}: not a position ({e})"))?;
        book.push(position);
    }
    if book.is_empty() {
        return Err("no positions in the book".to_string());
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fens(count: usize, seed: u64, book: &[Position]) -> Vec<String> {
        let mut out = Vec::new();
        generate(count, seed, book, &Control::default(), |p| {
            out.push(p.to_fen())
        })
        .unwrap();
        out
    }

    #[test]
    fn a_seed_gives_the_same_positions_and_another_seed_others() {
        let first = fens(4, 7, &[]);
        assert_eq!(first.len(), 4);
        assert_eq!(first, fens(4, 7, &[]));
        assert_ne!(first, fens(4, 8, &[]));
        for fen in &first {
            let position = Position::from_fen(fen).unwrap();
            assert!(!position.legal_moves().as_slice().is_empty(), "{fen}");
            let plies = u32::from(position.fullmove_number()) * 2 - 2 + position.side() as u32;
            assert!((8..=9).contains(&plies), "{fen}: {plies} plies");
        }
    }

    #[test]
    fn book_lines_are_the_starting_points() {
        let book = read_book(
            "# no queens\nrnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - hmvc 0; fmvn 1;\n",
        )
        .unwrap();
        for fen in fens(3, 1, &book) {
            let board = fen.split(' ').next().unwrap();
            assert!(!board.contains('q') && !board.contains('Q'), "{fen}");
        }
    }

    #[test]
    fn a_book_of_lost_positions_is_given_up_on() {
        // Four queens against a bare king: no random continuation is level.
        let book = read_book("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1\n").unwrap();
        let mut written = 0;
        let error = generate(10_000, 1, &book, &Control::default(), |_| written += 1).unwrap_err();
        assert_eq!(written, 0);
        assert!(
            error.starts_with("0 of 10000 positions: none of the last 1000"),
            "{error}"
        );
    }

    #[test]
    fn a_stop_ends_the_generation() {
        let control = Control::default();
        let mut written = 0;
        let error = generate(100, 1, &[], &control, |_| {
            written += 1;
            control.stop.store(written == 3, Relaxed);
        })
        .unwrap_err();
        assert_eq!(written, 3);
        assert_eq!(error, "stopped after 3 of 100 positions");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("ccr-fifo-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("book.epd").to_str().unwrap().to_string();
        let path = std::ffi::CString::new(fifo.clone()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        // On another thread, so that a wait for a writer fails the test instead of hanging it.
        let (sender, answer) = std::sync::mpsc::channel();
        let opened = fifo.clone();
        std::thread::spawn(move || {
            let _ = sender.send(load_book(&opened));
        });
        let refused = answer
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the book's open waited for a writer");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(refused.unwrap_err(), "not a regular file");
    }

    #[test]
    fn a_bad_book_is_refused() {
        assert!(read_book("").is_err());
        assert!(
            read_book("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n")
                .unwrap_err()
                .starts_with("line 2:")
        );
    }
}

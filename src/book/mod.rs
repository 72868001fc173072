//! Polyglot opening books: the format's own key of a position, and a move drawn from a
//! book's entries for it in proportion to their weights.
//!
//! A book is a file of 16-byte entries sorted by key: the key (64 bits), the move (16), its
//! weight (16) and a learning field (32, unused), all big-endian. The file is searched in
//! place, never loaded, so a book of any size costs a few reads a probe.

mod random;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use random::RANDOM64;

use crate::ccr::{CastlingRights, Position};
use crate::files::{Refused, open_regular};
use crate::types::{Colour, Move, PieceCode, PieceType, Square};

/// Where the castling, en-passant and side-to-move numbers start in [`RANDOM64`].
const CASTLING_BASE: usize = 768;
const EN_PASSANT_BASE: usize = 772;
const WHITE_TO_MOVE: usize = 780;
/// One entry's bytes.
const ENTRY: u64 = 16;

/// The Polyglot key of `pos`, as the format defines it: the en-passant file counts only when
/// a pawn of the side to move stands beside the pawn that skipped the square (whether or not
/// the capture is legal).
pub fn polyglot_key(pos: &Position) -> u64 {
    let board = pos.board();
    let mut key = 0;
    for index in 0..64 {
        let square = Square::new(index);
        let code = board.get(square);
        let Some(piece_type) = code.piece_type() else {
            continue;
        };
        let kind = 2 * piece_type.index() + usize::from(code.colour() == Colour::White);
        key ^= RANDOM64[64 * kind + 8 * usize::from(square.rank()) + usize::from(square.file())];
    }
    let rights = pos.castling();
    for (i, right) in [
        CastlingRights::WHITE_KING,
        CastlingRights::WHITE_QUEEN,
        CastlingRights::BLACK_KING,
        CastlingRights::BLACK_QUEEN,
    ]
    .into_iter()
    .enumerate()
    {
        if rights.contains(right) {
            key ^= RANDOM64[CASTLING_BASE + i];
        }
    }
    let us = pos.side();
    if let Some(target) = pos.en_passant() {
        // Our pawns capture from the rank the skipping pawn landed on.
        let rank = if us == Colour::White { 4 } else { 3 };
        let pawn = PieceCode::new(us, PieceType::Pawn);
        let beside = [target.file().wrapping_sub(1), target.file() + 1]
            .into_iter()
            .filter(|&file| file < 8)
            .any(|file| board.get(Square::from_file_rank(file, rank)) == pawn);
        if beside {
            key ^= RANDOM64[EN_PASSANT_BASE + usize::from(target.file())];
        }
    }
    if us == Colour::White {
        key ^= RANDOM64[WHITE_TO_MOVE];
    }
    key
}

/// One book move for a position, with its weight.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct BookMove {
    /// The legal move the entry names.
    pub mv: Move,
    /// Its weight: how often, relative to the others, it is to be played.
    pub weight: u16,
}

/// An open Polyglot book.
#[derive(Debug)]
pub(crate) struct Book {
    file: File,
    entries: u64,
}

impl Book {
    /// Opens the book at `path`: a regular file (anything else is refused without waiting
    /// on it) whose length is a whole number of entries.
    pub(crate) fn open(path: &Path) -> Result<Book, String> {
        let shown = path.display();
        let (file, len) = open_regular(path).map_err(|refused| match refused {
            Refused::NotRegular => format!("{shown} is not a regular file"),
            Refused::Io(e) => format!("cannot open {shown}: {e}"),
        })?;
        if len == 0 || len % ENTRY != 0 {
            return Err(format!(
                "{shown} is not a Polyglot book: {len} bytes is not a whole number of 16-byte entries"
            ));
        }
        Ok(Book {
            file,
            entries: len / ENTRY,
        })
    }

    /// The moves the book gives `pos`, in the book's order; entries that name no legal move
    /// (another position with the same key, or a damaged book) are left out.
    pub(crate) fn moves(&mut self, pos: &Position) -> io::Result<Vec<BookMove>> {
        let key = polyglot_key(pos);
        // The first entry whose key is not below `key`.
        let (mut low, mut high) = (0, self.entries);
        while low < high {
            let middle = low + (high - low) / 2;
            if self.entry(middle)?.0 < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        let mut found = Vec::new();
        for index in low..self.entries {
            let (entry_key, raw, weight) = self.entry(index)?;
            if entry_key != key {
                break;
            }
            if let Some(mv) = decode(pos, raw) {
                found.push(BookMove { mv, weight });
            }
        }
        Ok(found)
    }

    /// Entry `index`: key, move and weight.
    fn entry(&mut self, index: u64) -> io::Result<(u64, u16, u16)> {
        let mut bytes = [0u8; ENTRY as usize];
        self.file.seek(SeekFrom::Start(index * ENTRY))?;
        self.file.read_exact(&mut bytes)?;
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, ..] = bytes;
        let key = u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]);
        Ok((
            key,
            u16::from_be_bytes([m0, m1]),
            u16::from_be_bytes([w0, w1]),
        ))
    }
}

/// The move of `moves` that `draw` (any number, uniform over a large range) picks when each
/// is chosen in proportion to its weight; `None` when no move has weight.
pub(crate) fn pick(moves: &[BookMove], draw: u64) -> Option<Move> {
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut point = draw % total;
    for m in moves {
        let weight = u64::from(m.weight);
        if point < weight {
            return Some(m.mv);
        }
        point -= weight;
    }
    None
}

/// The legal move of `pos` a Polyglot move names: files and ranks of both squares and a
/// promotion piece, castling written as the king taking its own rook.
fn decode(pos: &Position, raw: u16) -> Option<Move> {
    let field = |shift: u16| (raw >> shift) as u8 & 7;
    let (to_file, to_rank, from_file, from_rank) = (field(0), field(3), field(6), field(9));
    let promotion = match field(12) {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => return None,
    };
    let from = Square::from_file_rank(from_file, from_rank);
    let mut to = Square::from_file_rank(to_file, to_rank);
    let us = pos.side();
    if pos.board().get(from) == PieceCode::new(us, PieceType::King)
        && pos.board().get(to) == PieceCode::new(us, PieceType::Rook)
    {
        // The king's own target: two files toward the rook.
        to = Square::from_file_rank(if to_file > from_file { 6 } else { 2 }, from_rank);
    }
    pos.parse_uci_move(&format!("{from}{to}{promotion}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(fen: &str) -> u64 {
        polyglot_key(&Position::from_fen(fen).unwrap())
    }

    /// The keys the format's specification lists for a line from the start.
    #[test]
    fn keys_of_the_specification() {
        let cases = [
            (crate::positions::STARTPOS, 0x463b96181691fc9c),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c9b50fd114196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756b94461c50fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662fafb965db29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a48b5a8e47ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a607ca3f242c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fdd303c946bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c8123ea7b067637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f9b829b279560,
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(key(fen), want, "{fen}");
        }
    }

    #[test]
    fn picks_in_proportion_to_the_weights() {
        let pos = Position::startpos();
        let mv = |text| pos.parse_uci_move(text).unwrap();
        let moves = [
            BookMove {
                mv: mv("e2e4"),
                weight: 3,
            },
            BookMove {
                mv: mv("d2d4"),
                weight: 0,
            },
            BookMove {
                mv: mv("g1f3"),
                weight: 1,
            },
        ];
        let picked: Vec<Option<Move>> = (0..8).map(|draw| pick(&moves, draw)).collect();
        let count = |m| picked.iter().filter(|&&p| p == Some(mv(m))).count();
        assert_eq!((count("e2e4"), count("d2d4"), count("g1f3")), (6, 0, 2));
        let unweighted = [BookMove {
            mv: mv("e2e4"),
            weight: 0,
        }];
        assert_eq!(pick(&unweighted, 7), None);
        assert_eq!(pick(&[], 7), None);
    }

    #[test]
    fn castling_is_read_as_the_king_taking_its_rook() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        // e1h1 and e1a1: from file 4, rank 0 to file 7 or 0, rank 0.
        let short = (4 << 6) | 7;
        let long = 4 << 6;
        assert_eq!(
            decode(&pos, short).map(|m| m.to_string()),
            Some("e1g1".into())
        );
        assert_eq!(
            decode(&pos, long).map(|m| m.to_string()),
            Some("e1c1".into())
        );
        // A move that is not legal here is no book move.
        let e2e4 = (4 << 6) | (1 << 9) | 4 | (3 << 3);
        assert_eq!(decode(&pos, e2e4), None);
    }
}

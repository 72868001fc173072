//! Tables computed at compile time (`const fn`): leaper attacks, empty-board slider rays,
//! and the `between` / `line` tables behind pins and check evasions.
//!
//! Everything is in the C.C.R. bit order of the module docs (bit 0 = h8, bit 63 = a1):
//! geometry is written once in files and ranks ([`square`]) and the tables are filled from
//! it, so no shift direction has to be remembered here.

/// File a: nibble 7 of every rank word, the top bit of every byte.
pub(crate) const FILE_A: u64 = 0x8080_8080_8080_8080;
/// File h: nibble 0 of every rank word, the bottom bit of every byte.
pub(crate) const FILE_H: u64 = 0x0101_0101_0101_0101;

/// The squares of a rank (0 = rank 1 … 7 = rank 8): rank word `7 - rank`.
pub(crate) const fn rank(rank: u8) -> u64 {
    0xFF << (8 * (7 - rank as u32))
}

/// The C.C.R. index of (file, rank) (0 = a / rank 1), or `None` off the board.
pub(crate) const fn square(file: i32, rank: i32) -> Option<usize> {
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        Some(((7 - rank) * 8 + (7 - file)) as usize)
    } else {
        None
    }
}

/// The file (0 = a) of a C.C.R. index.
const fn file_of(sq: usize) -> i32 {
    7 - (sq & 7) as i32
}

/// The rank (0 = rank 1) of a C.C.R. index.
const fn rank_of(sq: usize) -> i32 {
    7 - (sq >> 3) as i32
}

/// The rook's four directions as (file, rank) steps.
pub(crate) const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The bishop's four directions as (file, rank) steps.
pub(crate) const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a slider on `sq` attacks along `directions` given the occupancy `occupied`,
/// by walking each ray until it leaves the board or hits a piece (included).
///
/// The slow reference: it fills the magic attack table and the tests compare against it.
pub(crate) const fn ray_attacks(sq: usize, occupied: u64, directions: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let (mut f, mut r) = (file_of(sq) + df, rank_of(sq) + dr);
        while let Some(to) = square(f, r) {
            attacks |= 1 << to;
            if occupied >> to & 1 != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// For every square, the union of the squares one `(file, rank)` step away.
const fn leaper(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = square(
                file_of(sq) + steps[i].0 as i32,
                rank_of(sq) + steps[i].1 as i32,
            ) {
                table[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The knight's eight steps as (file, rank).
pub(crate) const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Knight attacks per square.
pub(crate) static KNIGHT: [u64; 64] = leaper(&KNIGHT_STEPS);

/// King attacks per square.
pub(crate) static KING: [u64; 64] = leaper(&[
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
]);

/// Pawn attacks per colour (indexed by [`crate::types::Colour`]) and square: White's
/// pawns take toward rank 8, Black's toward rank 1.
pub(crate) static PAWN: [[u64; 64]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

/// For every square, the rays a slider on an empty board attacks along `directions`.
const fn rays(directions: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = ray_attacks(sq, 0, directions);
        sq += 1;
    }
    table
}

/// Rook attacks on an empty board (the candidates for pins along ranks and files).
pub(crate) static ROOK_RAYS: [u64; 64] = rays(&ROOK_DIRECTIONS);
/// Bishop attacks on an empty board (the candidates for diagonal pins).
pub(crate) static BISHOP_RAYS: [u64; 64] = rays(&BISHOP_DIRECTIONS);

/// The unit step from `a` toward `b` when they share a rank, file or diagonal.
const fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (df, dr) = (file_of(b) - file_of(a), rank_of(b) - rank_of(a));
    if a == b || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// `between[a][b]`: the squares strictly between two aligned squares (0 otherwise);
/// `line[a][b]`: the whole line through them, edge to edge, both included (0 otherwise).
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if let Some((df, dr)) = direction(a, b) {
                let (mut f, mut r) = (file_of(a) + df, rank_of(a) + dr);
                while let Some(sq) = square(f, r) {
                    if sq == b {
                        break;
                    }
                    between[a][b] |= 1 << sq;
                    f += df;
                    r += dr;
                }
                let mut full = 1 << a;
                let ends = [(df, dr), (-df, -dr)];
                let mut e = 0;
                while e < 2 {
                    let (mut f, mut r) = (file_of(a) + ends[e].0, rank_of(a) + ends[e].1);
                    while let Some(sq) = square(f, r) {
                        full |= 1 << sq;
                        f += ends[e].0;
                        r += ends[e].1;
                    }
                    e += 1;
                }
                line[a][b] = full;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Both tables, computed once by the compiler.
const BETWEEN_AND_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

/// The squares strictly between two squares on one line, 0 when they share none.
pub(crate) static BETWEEN: [[u64; 64]; 64] = BETWEEN_AND_LINE.0;

/// The full line (edge to edge) through two squares, 0 when they share none.
pub(crate) static LINE: [[u64; 64]; 64] = BETWEEN_AND_LINE.1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    /// The bitboard of squares given in algebraic notation.
    fn bb(squares: &[&str]) -> u64 {
        squares
            .iter()
            .map(|s| 1u64 << Square::parse(s).unwrap().index())
            .fold(0, |a, b| a | b)
    }

    fn at(s: &str) -> usize {
        Square::parse(s).unwrap().index()
    }

    #[test]
    fn bit_order_is_the_ccr_order() {
        assert_eq!(square(7, 7), Some(0)); // h8
        assert_eq!(square(0, 7), Some(7)); // a8
        assert_eq!(square(7, 0), Some(56)); // h1
        assert_eq!(square(0, 0), Some(63)); // a1
        assert_eq!(bb(&["a1", "a8"]), FILE_A & (rank(0) | rank(7)));
        assert_eq!(bb(&["h1", "h8"]), FILE_H & (rank(0) | rank(7)));
        assert_eq!(rank(7), 0xFF);
    }

    #[test]
    fn leaper_spot_checks() {
        assert_eq!(KNIGHT[at("a1")], bb(&["b3", "c2"]));
        assert_eq!(KNIGHT[at("g4")], bb(&["e3", "e5", "f2", "f6", "h2", "h6"]));
        assert_eq!(KING[at("h8")], bb(&["g8", "g7", "h7"]));
        assert_eq!(KING[at("e1")], bb(&["d1", "d2", "e2", "f2", "f1"]));
        assert_eq!(PAWN[0][at("e4")], bb(&["d5", "f5"]));
        assert_eq!(PAWN[0][at("a2")], bb(&["b3"]));
        assert_eq!(PAWN[1][at("h7")], bb(&["g6"]));
        assert_eq!(PAWN[1][at("e5")], bb(&["d4", "f4"]));
        for sq in 0..64 {
            assert!((3..=8).contains(&KING[sq].count_ones()));
            assert!((2..=8).contains(&KNIGHT[sq].count_ones()));
            assert_eq!(ROOK_RAYS[sq].count_ones(), 14);
        }
    }

    #[test]
    fn between_and_line_spot_checks() {
        assert_eq!(BETWEEN[at("a1")][at("d4")], bb(&["b2", "c3"]));
        assert_eq!(
            BETWEEN[at("e1")][at("e8")],
            bb(&["e2", "e3", "e4", "e5", "e6", "e7"])
        );
        assert_eq!(BETWEEN[at("h1")][at("g1")], 0);
        assert_eq!(BETWEEN[at("a1")][at("b3")], 0);
        assert_eq!(LINE[at("a1")][at("b3")], 0);
        assert_eq!(
            LINE[at("c3")][at("d4")],
            bb(&["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"])
        );
        assert_eq!(
            LINE[at("e4")][at("e5")],
            ROOK_RAYS[at("e4")] & (FILE_A >> 4) | bb(&["e4"])
        );
        for a in 0..64 {
            for b in 0..64 {
                assert_eq!(BETWEEN[a][b], BETWEEN[b][a]);
                assert_eq!(LINE[a][b], LINE[b][a]);
                assert_eq!(BETWEEN[a][b] & !LINE[a][b], 0);
            }
        }
    }
}

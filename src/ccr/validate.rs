//! Invariants of a position, checked from scratch (as Fruit's `board_is_ok` and Stockfish's
//! `pos_is_ok`): [`Position::validate`] recomputes from the 32-byte board what the position
//! caches or promises and names the first invariant that does not hold. The FEN parser
//! shares the checks a FEN can break ([`king_square`], [`back_rank_pawn`],
//! [`material_is_possible`], [`castling_pieces_present`], [`en_passant_is_possible`]), so a
//! position is valid by one definition whether it was parsed or made. Each other
//! representation checks what it caches itself and reports it in its own error type, which
//! wraps this one.
//!
//! Make checks in debug builds, after every move of every representation, only what that
//! move could have broken ([`check_move`]: a few squares and the state beside the board), so
//! that debug builds stay fast; by induction from a validated FEN that keeps every invariant
//! but the attack tables, which make does not cache. With the slow checks on
//! ([`set_slow_checks`], or `CCR_SLOW_CHECKS=1` in the environment) a debug build's make
//! checks the made position in full instead and the keyed make compares its key with the
//! key computed from scratch, as Stockfish's `Fast = false` does. Release builds never read
//! the switch and run no check. `tests/validate.rs` calls the full validation at every node of
//! perft in every representation.

use std::cell::Cell;
use std::fmt;
use std::sync::OnceLock;

use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::{
    CastlingRights, Ccr, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK, Position, RookFiles,
};
use crate::ccr::checks::is_attacked;
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// An invariant of a position that does not hold.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Invariant {
    /// A square holds a code that is no piece (7, 8 or 15).
    BadCode(Square),
    /// A side does not have exactly one king.
    KingCount {
        /// The side in question.
        colour: Colour,
        /// How many kings it has.
        count: u32,
    },
    /// The cached king square of a side does not hold its king.
    KingSquare(Colour),
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A side has more pawns or promoted pieces than a game can produce.
    ImpossibleMaterial(Colour),
    /// The castling rights have bits beyond the four rights.
    CastlingBits(u8),
    /// A castling right (its FEN letter) whose king or rook is not on its home square.
    CastlingWithoutPieces(char),
    /// An en-passant square that no pawn of the side that just moved can have skipped.
    EnPassantSquare(Square),
    /// The half-move clock is above the largest value a FEN may carry.
    HalfmoveClock(u16),
    /// The move number is 0 or above the largest value a FEN may carry.
    FullmoveNumber(u16),
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// The attack tables built for the CPU disagree with the frame's, or with the attack
    /// test of one square.
    AttackTables,
    /// The rotation key made move by move differs from the key computed from scratch
    /// ([`Position::check_key`]).
    Key {
        /// The key make updated.
        incremental: u64,
        /// The key of the whole position.
        computed: u64,
    },
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invariant::BadCode(sq) => write!(f, "square {sq} holds a code that is no piece"),
            Invariant::KingCount { colour, count } => {
                write!(f, "{colour:?} has {count} kings instead of 1")
            }
            Invariant::KingSquare(colour) => {
                write!(
                    f,
                    "the cached {colour:?} king square does not hold its king"
                )
            }
            Invariant::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, a first or last rank"),
            Invariant::ImpossibleMaterial(colour) => write!(
                f,
                "{colour:?} has more pawns or promoted pieces than a game can produce"
            ),
            Invariant::CastlingBits(bits) => {
                write!(
                    f,
                    "castling rights {bits:#04x} have bits beyond the four rights"
                )
            }
            Invariant::CastlingWithoutPieces(c) => write!(
                f,
                "castling right '{c}' without king and rook on their home squares"
            ),
            Invariant::EnPassantSquare(sq) => write!(
                f,
                "en-passant square {sq} does not follow a two-square pawn advance"
            ),
            Invariant::HalfmoveClock(n) => {
                write!(f, "half-move clock {n} is above {MAX_HALFMOVE_CLOCK}")
            }
            Invariant::FullmoveNumber(n) => {
                write!(f, "move number {n} is not in 1..={MAX_FULLMOVE_NUMBER}")
            }
            Invariant::OpponentInCheck => write!(f, "the side not to move is in check"),
            Invariant::AttackTables => write!(
                f,
                "the attack tables disagree with the frame's or with the square attack test"
            ),
            Invariant::Key {
                incremental,
                computed,
            } => write!(
                f,
                "the incremental key {incremental:016x} differs from the key computed from \
                 scratch, {computed:016x}"
            ),
        }
    }
}

impl std::error::Error for Invariant {}

/// A castling right: its bit, its FEN letter, and the king's and the rook's home squares
/// as (file, rank).
pub(crate) type CastlingHome = (u8, char, (u8, u8), (u8, u8));

/// Each castling right's [`CastlingHome`], in the order of the bits.
pub(crate) const CASTLING_HOMES: [CastlingHome; 4] = [
    (CastlingRights::WHITE_KING.bits(), 'K', (4, 0), (7, 0)),
    (CastlingRights::WHITE_QUEEN.bits(), 'Q', (4, 0), (0, 0)),
    (CastlingRights::BLACK_KING.bits(), 'k', (4, 7), (7, 7)),
    (CastlingRights::BLACK_QUEEN.bits(), 'q', (4, 7), (0, 7)),
];

/// For each square (C.C.R. index), the castling rights whose king or rook starts there.
const RIGHTS_AT: [u8; 64] = {
    let mut rights = [0; 64];
    let mut i = 0;
    while i < CASTLING_HOMES.len() {
        let (bit, _, (king_file, king_rank), (rook_file, rook_rank)) = CASTLING_HOMES[i];
        rights[Square::from_file_rank(king_file, king_rank).index()] |= bit;
        rights[Square::from_file_rank(rook_file, rook_rank).index()] |= bit;
        i += 1;
    }
    rights
};

/// The square of `colour`'s only king, or how many kings it has when that is not one.
pub(crate) fn king_square(board: &Ccr, colour: Colour) -> Result<Square, u32> {
    let king = PieceCode::new(colour, PieceType::King);
    let count = (0..64)
        .filter(|&i| board.get(Square::new(i)) == king)
        .count() as u32;
    match (count, board.find(king)) {
        (1, Some(sq)) => Ok(sq),
        _ => Err(count),
    }
}

/// The first pawn (in C.C.R. order) on rank 8 or rank 1, if any.
pub(crate) fn back_rank_pawn(board: &Ccr) -> Option<Square> {
    (0..8)
        .chain(56..64)
        .map(Square::new)
        .find(|&sq| board.get(sq).piece_type() == Some(PieceType::Pawn))
}

/// Whether `colour` has at most 8 pawns plus queens, rooks, bishops and knights beyond the
/// initial ones (each promotion costs a pawn), on the board `piece` reads.
pub(crate) fn material_is_possible(piece: impl Fn(Square) -> PieceCode, colour: Colour) -> bool {
    // One pass over the board: the count of every code.
    let mut counts = [0i32; 16];
    for i in 0..64 {
        counts[piece(Square::new(i)).code() as usize & 15] += 1;
    }
    let count = |piece_type: PieceType| counts[PieceCode::new(colour, piece_type).code() as usize];
    let pawns = count(PieceType::Pawn);
    let promoted = (count(PieceType::Queen) - 1).max(0)
        + (count(PieceType::Rook) - 2).max(0)
        + (count(PieceType::Bishop) - 2).max(0)
        + (count(PieceType::Knight) - 2).max(0);
    pawns + promoted <= 8
}

/// Whether the king and the rook of castling right `right` (one of [`CASTLING_HOMES`]) stand
/// on their home squares of the board `piece` reads.
pub(crate) fn castling_pieces_present(piece: impl Fn(Square) -> PieceCode, right: usize) -> bool {
    let (_, letter, (king_file, king_rank), (rook_file, rook_rank)) = CASTLING_HOMES[right & 3];
    let colour = if letter.is_ascii_uppercase() {
        Colour::White
    } else {
        Colour::Black
    };
    piece(Square::from_file_rank(king_file, king_rank)) == PieceCode::new(colour, PieceType::King)
        && piece(Square::from_file_rank(rook_file, rook_rank))
            == PieceCode::new(colour, PieceType::Rook)
}

/// Whether `sq` can be the square a pawn of the side not to move just skipped: on rank 6
/// (White to move) or 3, empty, that pawn one rank past it and the square it came from empty,
/// on the board `piece` reads.
pub(crate) fn en_passant_is_possible(
    piece: impl Fn(Square) -> PieceCode,
    side: Colour,
    sq: Square,
) -> bool {
    let (skipped_rank, pawn_rank, origin_rank) = match side {
        Colour::White => (5, 4, 6),
        Colour::Black => (2, 3, 1),
    };
    let mover = side.flip();
    sq.rank() == skipped_rank
        && piece(Square::from_file_rank(sq.file(), pawn_rank))
            == PieceCode::new(mover, PieceType::Pawn)
        && piece(sq) == PieceCode::EMPTY
        && piece(Square::from_file_rank(sq.file(), origin_rank)) == PieceCode::EMPTY
}

/// The state a position keeps beside its board, as every representation can give it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct State {
    /// Whose turn it is.
    pub side: Colour,
    /// The castling rights' bits.
    pub castling: u8,
    /// The files of the castling rooks.
    pub rook_files: RookFiles,
    /// The en-passant square, if any.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u16,
    /// The move number.
    pub fullmove_number: u16,
    /// The cached king squares, indexed by [`Colour`].
    pub kings: [Square; 2],
}

/// Whether `code` is no piece (7, 8 and 15 are unused).
fn is_bad_code(code: PieceCode) -> bool {
    matches!(code.code(), 7 | 8 | 15)
}

/// Checks the castling rights against the board `piece` reads: no bits beyond the four
/// rights, and each right's king and rook on their home squares (in a Chess960 setup, the
/// king on its back rank and the rook on its file there, on the right's side of the king).
fn check_castling(state: &State, piece: &impl Fn(Square) -> PieceCode) -> Result<(), Invariant> {
    let castling = state.castling;
    if castling > 0xF {
        return Err(Invariant::CastlingBits(castling));
    }
    for (right, &(bit, letter, _, _)) in CASTLING_HOMES.iter().enumerate() {
        if castling & bit == 0 {
            continue;
        }
        let present = if state.rook_files.is_standard() {
            castling_pieces_present(piece, right)
        } else {
            let colour = if right < 2 {
                Colour::White
            } else {
                Colour::Black
            };
            let (king, rook) = (
                state.kings[colour as usize],
                state.rook_files.rook_square(right),
            );
            let king_side = right & 1 == 0;
            piece(king) == PieceCode::new(colour, PieceType::King)
                && king.rank() == rook.rank()
                && piece(rook) == PieceCode::new(colour, PieceType::Rook)
                && (rook.file() > king.file()) == king_side
        };
        if !present {
            return Err(Invariant::CastlingWithoutPieces(letter));
        }
    }
    Ok(())
}

/// Checks the clocks against the largest values a FEN may carry.
fn check_clocks(state: &State) -> Result<(), Invariant> {
    if state.halfmove_clock > MAX_HALFMOVE_CLOCK {
        return Err(Invariant::HalfmoveClock(state.halfmove_clock));
    }
    if !(1..=MAX_FULLMOVE_NUMBER).contains(&state.fullmove_number) {
        return Err(Invariant::FullmoveNumber(state.fullmove_number));
    }
    Ok(())
}

/// The squares `mv` changes and how many there are: its origin and target, then the
/// castling rook's two squares or the square of the pawn taken en passant. Every other
/// square is as it was before the move, so a representation's per-square caches need
/// checking only here.
pub(crate) fn touched(mv: Move, rook_files: RookFiles) -> ([Square; 4], usize) {
    let (from, to) = (mv.from(), mv.to());
    match mv.kind() {
        MoveKind::Castle => {
            let (rook_from, rook_to) = rook_files.castling_rook(mv);
            ([from, to, rook_from, rook_to], 4)
        }
        MoveKind::EnPassant => {
            let taken = Square::from_file_rank(to.file(), from.rank());
            ([from, to, taken, taken], 3)
        }
        _ => ([from, to, to, to], 2),
    }
}

/// Checks the invariants that `mv` could have broken in the position it produced (`state`
/// beside the board `piece` reads), given that the position before held them all and that
/// the board changed only on [`touched`] squares. Make runs it after every move in debug
/// builds, so it reads only what the move decides: the piece on the target (a real code; a
/// king there is the cached one and no longer on the origin; no pawn on a back rank), the
/// castling rights when one that is held starts on the origin or the target (a castling
/// move starts on the king's), the en-passant square when there is one, and the clocks. Whether the mover left its king in check is the legality of `mv`,
/// not make's to keep (the generators make pseudo-legal en-passant captures to test it);
/// material and the other squares are [`Position::validate`]'s.
pub(crate) fn check_move(
    mv: Move,
    state: &State,
    piece: impl Fn(Square) -> PieceCode,
) -> Result<(), Invariant> {
    let (from, to) = (mv.from(), mv.to());
    let mover = state.side.flip();
    let placed = piece(to);
    if is_bad_code(placed) {
        return Err(Invariant::BadCode(to));
    }
    match placed.piece_type() {
        Some(PieceType::King) if state.kings[mover as usize] != to => {
            return Err(Invariant::KingSquare(mover));
        }
        // A Chess960 king may castle without leaving its square.
        Some(PieceType::King) if from != to && piece(from) == placed => {
            return Err(Invariant::KingCount {
                colour: mover,
                count: 2,
            });
        }
        Some(PieceType::Pawn) if matches!(to.rank(), 0 | 7) => {
            return Err(Invariant::PawnOnBackRank(to));
        }
        _ => {}
    }
    let at_risk = if state.rook_files.is_standard() {
        RIGHTS_AT[from.index()] | RIGHTS_AT[to.index()]
    } else {
        0xF
    };
    if state.castling & (at_risk | !0xF) != 0 {
        check_castling(state, &piece)?;
    }
    if let Some(sq) = state
        .en_passant
        .filter(|&sq| !en_passant_is_possible(&piece, state.side, sq))
    {
        return Err(Invariant::EnPassantSquare(sq));
    }
    check_clocks(state)
}

/// Checks every invariant of a position given as its board and the state beside it, and
/// returns the first that does not hold: [`Position::validate`], and the other
/// representations' own, which keep the same state in their own fields.
pub(crate) fn validate_board(board: &Ccr, state: &State) -> Result<(), Invariant> {
    let piece = |sq| board.get(sq);
    if let Some(sq) = (0..64).map(Square::new).find(|&sq| is_bad_code(piece(sq))) {
        return Err(Invariant::BadCode(sq));
    }
    for colour in [Colour::White, Colour::Black] {
        let king =
            king_square(board, colour).map_err(|count| Invariant::KingCount { colour, count })?;
        if state.kings[colour as usize] != king {
            return Err(Invariant::KingSquare(colour));
        }
    }
    if let Some(sq) = back_rank_pawn(board) {
        return Err(Invariant::PawnOnBackRank(sq));
    }
    for colour in [Colour::White, Colour::Black] {
        if !material_is_possible(piece, colour) {
            return Err(Invariant::ImpossibleMaterial(colour));
        }
    }
    check_castling(state, &piece)?;
    if let Some(sq) = state
        .en_passant
        .filter(|&sq| !en_passant_is_possible(piece, state.side, sq))
    {
        return Err(Invariant::EnPassantSquare(sq));
    }
    check_clocks(state)?;
    let block = AttackBlock::new(board);
    let square_disagrees = |i| {
        let sq = Square::new(i);
        [Colour::White, Colour::Black]
            .into_iter()
            .any(|by| block.is_attacked(by, sq) != is_attacked(board, sq, by))
    };
    if block != AttackBlock::by_frame(board) || (0..64).any(square_disagrees) {
        return Err(Invariant::AttackTables);
    }
    // Last, so that a position made by an illegal move has passed every other check (see
    // `check_made`).
    if is_attacked(board, state.kings[state.side.flip() as usize], state.side) {
        return Err(Invariant::OpponentInCheck);
    }
    Ok(())
}

/// The slow checks' default in every thread: on when the environment has
/// `CCR_SLOW_CHECKS=1`, read once.
fn slow_checks_by_default() -> bool {
    static FROM_ENV: OnceLock<bool> = OnceLock::new();
    *FROM_ENV.get_or_init(|| std::env::var_os("CCR_SLOW_CHECKS").is_some_and(|v| v == "1"))
}

thread_local! {
    /// Whether make runs the slow checks in this thread (read by debug builds only).
    static SLOW_CHECKS: Cell<bool> = Cell::new(slow_checks_by_default());
}

/// Whether make runs the slow checks in this thread: the full validation of every made
/// position and, in the keyed make, the key computed from scratch. Always false in release
/// builds, which never read the switch.
pub(crate) fn slow_checks() -> bool {
    cfg!(debug_assertions) && SLOW_CHECKS.with(Cell::get)
}

/// Turns the slow checks on or off for this thread (a thread starts with them on when the
/// environment has `CCR_SLOW_CHECKS=1`). Per thread, so that a test that turns them on slows
/// no other test. Only debug builds run them.
pub fn set_slow_checks(on: bool) {
    SLOW_CHECKS.with(|slow| slow.set(on));
}

/// The check after every make of a debug build (make calls it under
/// `cfg!(debug_assertions)`): `full` (the whole position) when the slow
/// checks are on, else `cheap` (what the move could have broken); panics with the made
/// position (`describe`), the move and the first invariant broken.
///
/// Whether the mover left its king in check is the legality of `mv`, not make's to keep (the
/// generators make pseudo-legal en-passant captures to test it), so the full check lets
/// [`Invariant::OpponentInCheck`] pass: [`validate_board`] checks it last, so that everything
/// else has held by then.
#[track_caller]
pub(crate) fn check_made<E: fmt::Display + PartialEq + From<Invariant>>(
    mv: Move,
    describe: impl FnOnce() -> String,
    cheap: impl FnOnce() -> Result<(), E>,
    full: impl FnOnce() -> Result<(), E>,
) {
    let checked = if slow_checks() {
        full().or_else(|broken| match broken == Invariant::OpponentInCheck.into() {
            true => Ok(()),
            false => Err(broken),
        })
    } else {
        cheap()
    };
    if let Err(broken) = checked {
        panic!("{} after {mv}: {broken}", describe());
    }
}

impl Position {
    /// Checks every invariant of the position against its board and returns the first
    /// that does not hold.
    ///
    /// ```
    /// # use ccr::{Invariant, Position};
    /// let p = Position::startpos();
    /// assert_eq!(p.validate(), Ok(()));
    /// ```
    pub fn validate(&self) -> Result<(), Invariant> {
        validate_board(&self.board, &self.state())
    }

    /// The state beside the board, for [`check_move`].
    pub(crate) fn state(&self) -> State {
        State {
            side: self.side(),
            castling: self.castling.bits(),
            rook_files: self.rook_files,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock(),
            fullmove_number: self.fullmove_number(),
            kings: self.kings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`check_move`] on the position `fen` after `uci`, with `corrupt` applied to it (as a
    /// make that forgot something would leave it).
    fn after(fen: &str, uci: &str, corrupt: impl FnOnce(&mut Position)) -> Result<(), Invariant> {
        let mut pos = Position::from_fen(fen).expect("a valid FEN");
        let mv = pos.parse_uci_move(uci).expect("a legal move");
        pos.play(mv);
        corrupt(&mut pos);
        check_move(mv, &pos.state(), |sq| pos.board.get(sq))
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square name")
    }

    /// A start FEN, a move, how to corrupt the position after it, and what that breaks.
    type Case = (&'static str, &'static str, fn(&mut Position), Invariant);

    const CORNERS: &str = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";

    #[test]
    fn check_move_sees_what_the_move_broke() {
        let white_king = PieceCode::new(Colour::White, PieceType::King);
        let cases: [Case; 6] = [
            // The king moved but its cached square did not.
            (
                CORNERS,
                "e1f1",
                |p| p.kings[0] = sq("e1"),
                Invariant::KingSquare(Colour::White),
            ),
            // The king also stayed on its origin.
            (
                CORNERS,
                "e1f1",
                |p| {
                    p.board
                        .set(sq("e1"), PieceCode::new(Colour::White, PieceType::King))
                },
                Invariant::KingCount {
                    colour: Colour::White,
                    count: 2,
                },
            ),
            // The rook taken on a8 but Black's queen-side right kept.
            (
                CORNERS,
                "b7a8q",
                |p| p.castling = p.castling.with(CastlingRights::BLACK_QUEEN),
                Invariant::CastlingWithoutPieces('q'),
            ),
            // The promotion left the pawn.
            (
                CORNERS,
                "b7b8q",
                |p| {
                    p.board
                        .set(sq("b8"), PieceCode::new(Colour::White, PieceType::Pawn))
                },
                Invariant::PawnOnBackRank(sq("b8")),
            ),
            // The king's code half-written.
            (
                CORNERS,
                "e1g1",
                |p| p.board.set(sq("g1"), PieceCode::from_nibble(15)),
                Invariant::BadCode(sq("g1")),
            ),
            // An en-passant square after a single push.
            (
                "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
                "e2e3",
                |p| p.en_passant = Some(sq("e2")),
                Invariant::EnPassantSquare(sq("e2")),
            ),
        ];
        for (fen, uci, corrupt, broken) in cases {
            assert_eq!(after(fen, uci, |_| {}), Ok(()), "{uci} as played");
            assert_eq!(after(fen, uci, corrupt), Err(broken), "{uci}");
        }
        // A king off the squares the move touched is not the move's doing.
        assert_eq!(
            after(CORNERS, "a1a2", |p| p.board.set(sq("d4"), white_king)),
            Ok(())
        );
    }

    /// The message make panics with on `pos` after `mv` (keyed from `key`), if it panics.
    #[cfg(debug_assertions)]
    fn make_panics(pos: &Position, mv: Move, key: u64) -> Option<String> {
        let made = std::panic::catch_unwind(|| pos.make_keyed(mv, key));
        made.err().map(|payload| {
            let text = payload
                .downcast_ref::<String>()
                .expect("a formatted message");
            text.clone()
        })
    }

    #[cfg(debug_assertions)]
    #[test]
    fn slow_checks_see_what_the_cheap_check_cannot() {
        let mut pos = Position::from_fen(CORNERS).expect("a valid FEN");
        let mv = pos.parse_uci_move("a1a2").expect("a legal move");
        let key = pos.key();
        // A second white king, off the squares the move touches, and a wrong key.
        pos.board
            .set(sq("d4"), PieceCode::new(Colour::White, PieceType::King));
        set_slow_checks(false);
        assert_eq!(make_panics(&pos, mv, key ^ 1), None);
        set_slow_checks(true);
        let broken = make_panics(&pos, mv, key).expect("the full check fails");
        assert!(
            broken.ends_with("after a1a2: White has 2 kings instead of 1"),
            "{broken}"
        );
        let pos = Position::from_fen(CORNERS).expect("a valid FEN");
        let broken = make_panics(&pos, mv, key ^ 1).expect("the key check fails");
        assert!(
            broken.contains("after a1a2: the incremental key"),
            "{broken}"
        );
        assert_eq!(make_panics(&pos, mv, key), None);
        set_slow_checks(false);
    }
}

/// One hand-broken position per invariant of a [`Position`], so that the checks are seen to
/// fail (the fields are the core's own, so these live beside it). Castling bits beyond the
/// four rights cannot be built: [`CastlingRights`] holds no other value.
#[cfg(test)]
mod broken_positions {
    use super::*;
    use crate::ccr::fen::STARTPOS;

    fn square(name: &str) -> Square {
        Square::parse(name).expect("a square name")
    }

    fn position(fen: &str) -> Position {
        let pos = Position::from_fen(fen).expect("a valid FEN");
        assert_eq!(pos.validate(), Ok(()), "{fen}");
        pos
    }

    /// The position `fen` with `corrupt` applied, validated.
    fn broken(fen: &str, corrupt: impl FnOnce(&mut Position)) -> Result<(), Invariant> {
        let mut pos = position(fen);
        corrupt(&mut pos);
        pos.validate()
    }

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

    #[test]
    fn codes_that_are_no_piece() {
        for code in [7, 8, 15] {
            assert_eq!(
                broken(STARTPOS, |p| p
                    .board
                    .set(square("e4"), PieceCode::from_nibble(code))),
                Err(Invariant::BadCode(square("e4"))),
                "code {code}"
            );
        }
    }

    #[test]
    fn king_count_and_cached_king_square() {
        assert_eq!(
            broken(STARTPOS, |p| p.board.set(square("e1"), PieceCode::EMPTY)),
            Err(Invariant::KingCount {
                colour: Colour::White,
                count: 0
            })
        );
        assert_eq!(
            broken(STARTPOS, |p| p.board.set(
                square("e5"),
                PieceCode::new(Colour::Black, PieceType::King)
            )),
            Err(Invariant::KingCount {
                colour: Colour::Black,
                count: 2
            })
        );
        assert_eq!(
            broken(STARTPOS, |p| p.kings[Colour::Black as usize] = square("d8")),
            Err(Invariant::KingSquare(Colour::Black))
        );
    }

    #[test]
    fn pawn_on_a_back_rank() {
        assert_eq!(
            broken("4k3/8/8/8/8/8/8/4K3 w - - 0 1", |p| p.board.set(
                square("a1"),
                PieceCode::new(Colour::Black, PieceType::Pawn)
            )),
            Err(Invariant::PawnOnBackRank(square("a1")))
        );
    }

    #[test]
    fn material_no_game_reaches() {
        assert_eq!(
            broken(STARTPOS, |p| p.board.set(
                square("e4"),
                PieceCode::new(Colour::White, PieceType::Pawn)
            )),
            Err(Invariant::ImpossibleMaterial(Colour::White))
        );
    }

    #[test]
    fn castling_rights_against_the_pieces() {
        for (emptied, letter) in [("h1", 'K'), ("a1", 'Q'), ("h8", 'k'), ("a8", 'q')] {
            assert_eq!(
                broken(STARTPOS, |p| p.board.set(square(emptied), PieceCode::EMPTY)),
                Err(Invariant::CastlingWithoutPieces(letter)),
                "{emptied}"
            );
        }
        // The king off its home square breaks both rights of its side; K is checked first.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(
            broken(fen, |p| {
                p.board.set(square("e1"), PieceCode::EMPTY);
                p.board
                    .set(square("f1"), PieceCode::new(Colour::White, PieceType::King));
                p.kings[Colour::White as usize] = square("f1");
            }),
            Err(Invariant::CastlingWithoutPieces('K'))
        );
    }

    #[test]
    fn en_passant_square_that_no_push_made() {
        // A file without the pushed pawn, the skipped square for the wrong side, the skipped
        // square occupied, and the square the pawn came from occupied.
        assert_eq!(
            broken(AFTER_E4, |p| p.en_passant = Some(square("d3"))),
            Err(Invariant::EnPassantSquare(square("d3")))
        );
        assert_eq!(
            broken(AFTER_E4, |p| p.ply ^= 1),
            Err(Invariant::EnPassantSquare(square("e3")))
        );
        assert_eq!(
            broken(AFTER_E4, |p| {
                p.board.set(square("g1"), PieceCode::EMPTY);
                p.board.set(
                    square("e3"),
                    PieceCode::new(Colour::White, PieceType::Knight),
                );
            }),
            Err(Invariant::EnPassantSquare(square("e3")))
        );
        assert_eq!(
            broken(AFTER_E4, |p| {
                p.board.set(square("d2"), PieceCode::EMPTY);
                p.board
                    .set(square("e2"), PieceCode::new(Colour::White, PieceType::Pawn));
            }),
            Err(Invariant::EnPassantSquare(square("e3")))
        );
    }

    #[test]
    fn clocks_read_stopped_at_their_largest_values() {
        // A position holds its clocks as plies, which run on: the clocks read stopped.
        let mut pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 150 10000");
        for uci in ["a1a2", "e8d8", "a2a1", "d8e8"] {
            pos = pos.make(pos.parse_uci_move(uci).expect("a legal move"));
            assert_eq!(pos.validate(), Ok(()), "{uci}");
            assert_eq!(
                (pos.halfmove_clock(), pos.fullmove_number()),
                (MAX_HALFMOVE_CLOCK, MAX_FULLMOVE_NUMBER),
                "{uci}"
            );
        }
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 150 10000");
        assert_eq!(pos, position(&pos.to_fen()));
    }

    #[test]
    fn side_not_to_move_in_check() {
        assert_eq!(
            broken("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", |p| p.ply ^= 1),
            Err(Invariant::OpponentInCheck)
        );
    }
}

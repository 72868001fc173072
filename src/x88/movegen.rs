//! Legal move generation on the 0x88 board.
//!
//! One pass over the enemy's piece list finds the checkers and the pins: the difference
//! table says whether an enemy piece could reach the king at all, and only for a slider it
//! lets through do we walk from the king along the table's step toward it. The first piece
//! met is the slider itself (a check) or ours with the slider next (a pin).
//!
//! Moves are then legal as generated: the king steps only onto squares no enemy piece
//! attacks (nor the square behind it on a checking slider's line, which the king itself
//! shadows); in check the other pieces land only on the evasion squares; a pinned piece
//! moves only along its pin line (and not at all in check: a move along the pin line can
//! neither capture nor block another checker). En passant alone is tested by making it,
//! because it empties two squares of one rank.
//!
//! The generator is monomorphised on the side to move, on captures-only and on being in
//! check, so the inner loops carry none of those branches.

use super::X88;
use super::tables::{
    ATTACKS, BISHOP_DIRS, CODE_FLAGS, DELTAS, KING_DIRS, KNIGHT_STEPS, ROOK_DIRS, SLIDERS,
    SQUARE_OF, diff,
};
use crate::ccr::CastlingRights;
use crate::moves::MoveList;
use crate::types::{Colour, Move, MoveKind, PieceType};

/// The bit of an on-board 0x88 square in a 128-bit square set.
#[inline(always)]
fn bit(sq: u8) -> u128 {
    1 << (sq & 0x7F)
}

/// Whether `set` holds the on-board square `sq`.
#[inline(always)]
fn holds(set: u128, sq: u8) -> bool {
    (set >> (sq & 0x7F)) & 1 != 0
}

/// Appends a move between two 0x88 squares.
#[inline(always)]
fn push(list: &mut MoveList, from: u8, to: u8, kind: MoveKind) {
    list.push(Move::new(
        SQUARE_OF[from as usize & 0x7F],
        SQUARE_OF[to as usize & 0x7F],
        kind,
    ));
}

/// Whether a code is an enemy piece of the side `WHITE` says is moving (codes 9-14 for
/// White, 1-6 for Black; one compare each).
#[inline(always)]
fn enemy<const WHITE: bool>(code: u8) -> bool {
    if WHITE {
        code > 8
    } else {
        code.wrapping_sub(1) < 7
    }
}

/// Whether a piece of the moving side may land on a square holding `code`: empty or enemy.
#[inline(always)]
fn landable<const WHITE: bool>(code: u8) -> bool {
    if WHITE {
        code.wrapping_sub(1) >= 8
    } else {
        code < 8
    }
}

/// The checks and pins around the side to move's king.
struct Threats {
    /// How many enemy pieces give check.
    checkers: u32,
    /// With one checker, where a move other than the king's may land: the checker's square
    /// and the squares between a checking slider and the king.
    evasions: u128,
    /// The squares behind the king on each checking slider's line.
    behind: u128,
    /// The pinned pieces' squares.
    pinned: u128,
    /// Each pinned piece's square and the step from the king toward it.
    pins: [(u8, i8); 8],
    /// How many entries of `pins` are used.
    pin_count: usize,
}

impl X88 {
    /// Fills `list` with the legal moves.
    pub fn generate_legal(&self, list: &mut MoveList) {
        list.clear();
        match self.side() {
            Colour::White => self.generate::<true, false>(list),
            Colour::Black => self.generate::<false, false>(list),
        }
    }

    /// Fills `list` with the legal captures: every move that takes a piece, en passant and
    /// capturing promotions included, quiet promotions not.
    pub fn generate_captures(&self, list: &mut MoveList) {
        list.clear();
        match self.side() {
            Colour::White => self.generate::<true, true>(list),
            Colour::Black => self.generate::<false, true>(list),
        }
    }

    /// The legal moves of the position.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    #[inline(always)]
    fn generate<const WHITE: bool, const CAPTURES: bool>(&self, list: &mut MoveList) {
        let us = if WHITE { Colour::White } else { Colour::Black };
        let king = self.king(us);
        let (own, theirs) = (self.pieces(us), self.pieces(us.flip()));
        let theirs = theirs.as_slice();
        let threats = self.threats::<WHITE>(king, theirs);
        self.king_moves::<WHITE, CAPTURES>(king, theirs, threats.behind, list);
        match threats.checkers {
            0 => {
                self.piece_moves::<WHITE, CAPTURES, false>(own.as_slice(), king, &threats, list);
                if !CAPTURES {
                    self.castle_moves::<WHITE>(theirs, list);
                }
            }
            1 => self.piece_moves::<WHITE, CAPTURES, true>(own.as_slice(), king, &threats, list),
            _ => {}
        }
    }

    /// Checkers, evasion squares and pins, from one table lookup per enemy piece.
    #[inline(always)]
    fn threats<const WHITE: bool>(&self, king: u8, theirs: &[u8]) -> Threats {
        let mut t = Threats {
            checkers: 0,
            evasions: 0,
            behind: 0,
            pinned: 0,
            pins: [(0, 0); 8],
            pin_count: 0,
        };
        // The enemy king (slot 0) can neither check nor pin.
        for &s in &theirs[1..] {
            let d = diff(s, king);
            let hit = ATTACKS[d] & CODE_FLAGS[self.board[s as usize & 0x7F] as usize & 15];
            if hit == 0 {
                continue;
            }
            if hit & SLIDERS == 0 {
                t.checkers += 1;
                t.evasions |= bit(s);
                continue;
            }
            // Walk from the king toward the slider; the slider itself ends every walk.
            let step = DELTAS[diff(king, s)] as u8;
            let mut sq = king.wrapping_add(step);
            while self.board[sq as usize & 0x7F] == 0 {
                sq = sq.wrapping_add(step);
            }
            if sq == s {
                t.checkers += 1;
                let mut between = king.wrapping_add(step);
                while between != s {
                    t.evasions |= bit(between);
                    between = between.wrapping_add(step);
                }
                t.evasions |= bit(s);
                let behind = king.wrapping_sub(step);
                if behind & 0x88 == 0 {
                    t.behind |= bit(behind);
                }
            } else if !enemy::<WHITE>(self.board[sq as usize & 0x7F]) {
                let pinned = sq;
                sq = sq.wrapping_add(step);
                while self.board[sq as usize & 0x7F] == 0 {
                    sq = sq.wrapping_add(step);
                }
                if sq == s {
                    t.pinned |= bit(pinned);
                    t.pins[t.pin_count & 7] = (pinned, step as i8);
                    t.pin_count += 1;
                }
            }
        }
        t
    }

    /// King steps onto squares that hold no own piece and that no enemy piece attacks.
    #[inline(always)]
    fn king_moves<const WHITE: bool, const CAPTURES: bool>(
        &self,
        king: u8,
        theirs: &[u8],
        behind: u128,
        list: &mut MoveList,
    ) {
        let safe = |to: u8| !holds(behind, to) && !self.attacked_by(to, theirs);
        for d in KING_DIRS {
            self.leap::<WHITE, CAPTURES>(king, d, safe, list);
        }
    }

    /// The moves of every piece but the king; `CHECK` restricts them to the evasions.
    #[inline(always)]
    fn piece_moves<const WHITE: bool, const CAPTURES: bool, const CHECK: bool>(
        &self,
        own: &[u8],
        king: u8,
        t: &Threats,
        list: &mut MoveList,
    ) {
        let evasions = t.evasions;
        let ok = move |to: u8| !CHECK || holds(evasions, to);
        for &from in &own[1..] {
            if t.pinned != 0 && holds(t.pinned, from) {
                if !CHECK {
                    self.pinned_moves::<WHITE, CAPTURES>(from, king, t, list);
                }
                continue;
            }
            match PieceType::from_bits(self.board[from as usize & 0x7F] & 7) {
                Some(PieceType::Pawn) => self.pawn::<WHITE, CAPTURES>(from, ok, list),
                Some(PieceType::Knight) => {
                    for d in KNIGHT_STEPS {
                        self.leap::<WHITE, CAPTURES>(from, d, ok, list);
                    }
                }
                Some(PieceType::Bishop) => {
                    for d in BISHOP_DIRS {
                        self.slide::<WHITE, CAPTURES>(from, d, ok, list);
                    }
                }
                Some(PieceType::Rook) => {
                    for d in ROOK_DIRS {
                        self.slide::<WHITE, CAPTURES>(from, d, ok, list);
                    }
                }
                _ => {
                    for d in KING_DIRS {
                        self.slide::<WHITE, CAPTURES>(from, d, ok, list);
                    }
                }
            }
        }
    }

    /// The moves of a pinned piece: along the line through its king and the pinner only.
    #[cold]
    #[inline(never)]
    fn pinned_moves<const WHITE: bool, const CAPTURES: bool>(
        &self,
        from: u8,
        king: u8,
        t: &Threats,
        list: &mut MoveList,
    ) {
        let Some(&(_, dir)) = t.pins[..t.pin_count].iter().find(|p| p.0 == from) else {
            return;
        };
        let code = self.board[from as usize & 0x7F];
        match PieceType::from_bits(code & 7) {
            Some(PieceType::Pawn) => {
                let on_line = |to: u8| DELTAS[diff(king, to)] == dir;
                self.pawn::<WHITE, CAPTURES>(from, on_line, list);
            }
            Some(PieceType::Knight) => {}
            _ => {
                // A slider keeps its pin line if it moves along lines of that kind.
                if ATTACKS[(0x77 + dir as isize) as usize]
                    & CODE_FLAGS[code as usize & 15]
                    & SLIDERS
                    != 0
                {
                    self.slide::<WHITE, CAPTURES>(from, dir, |_| true, list);
                    self.slide::<WHITE, CAPTURES>(from, dir.wrapping_neg(), |_| true, list);
                }
            }
        }
    }

    /// One knight's or king's leap, if it stays on the board, lands on an empty or enemy square
    /// and `ok` takes its target.
    #[inline(always)]
    fn leap<const WHITE: bool, const CAPTURES: bool>(
        &self,
        from: u8,
        d: i8,
        ok: impl Fn(u8) -> bool,
        list: &mut MoveList,
    ) {
        let to = from.wrapping_add(d as u8);
        if to & 0x88 != 0 {
            return;
        }
        let code = self.board[to as usize & 0x7F];
        let target = if CAPTURES {
            enemy::<WHITE>(code)
        } else {
            landable::<WHITE>(code)
        };
        if target && ok(to) {
            push(list, from, to, MoveKind::Normal);
        }
    }

    /// One slider ray: empty squares, then the first piece if it is an enemy.
    #[inline(always)]
    fn slide<const WHITE: bool, const CAPTURES: bool>(
        &self,
        from: u8,
        d: i8,
        ok: impl Fn(u8) -> bool,
        list: &mut MoveList,
    ) {
        let step = d as u8;
        let mut to = from.wrapping_add(step);
        while to & 0x88 == 0 {
            let code = self.board[to as usize & 0x7F];
            if code != 0 {
                if enemy::<WHITE>(code) && ok(to) {
                    push(list, from, to, MoveKind::Normal);
                }
                return;
            }
            if !CAPTURES && ok(to) {
                push(list, from, to, MoveKind::Normal);
            }
            to = to.wrapping_add(step);
        }
    }

    /// Pawn pushes (not when generating captures), captures and en passant.
    #[inline(always)]
    fn pawn<const WHITE: bool, const CAPTURES: bool>(
        &self,
        from: u8,
        ok: impl Fn(u8) -> bool,
        list: &mut MoveList,
    ) {
        let forward: u8 = if WHITE { 16 } else { 16u8.wrapping_neg() };
        let rank = from >> 4;
        let promotes = rank == if WHITE { 6 } else { 1 };
        // A pawn never stands on its last rank, so the square ahead is on the board.
        let ahead = from.wrapping_add(forward);
        if !CAPTURES && self.board[ahead as usize & 0x7F] == 0 {
            if promotes {
                if ok(ahead) {
                    promotions(list, from, ahead);
                }
            } else {
                if ok(ahead) {
                    push(list, from, ahead, MoveKind::Normal);
                }
                let two = ahead.wrapping_add(forward);
                if rank == if WHITE { 1 } else { 6 }
                    && self.board[two as usize & 0x7F] == 0
                    && ok(two)
                {
                    push(list, from, two, MoveKind::DoublePush);
                }
            }
        }
        for side in [forward.wrapping_sub(1), forward.wrapping_add(1)] {
            let to = from.wrapping_add(side);
            if to & 0x88 != 0 {
                continue;
            }
            let code = self.board[to as usize & 0x7F];
            if enemy::<WHITE>(code) {
                if ok(to) {
                    if promotes {
                        promotions(list, from, to);
                    } else {
                        push(list, from, to, MoveKind::Normal);
                    }
                }
            } else if to == self.ep() {
                self.en_passant(from, to, list);
            }
        }
    }

    /// An en-passant capture, if it leaves the king safe: it empties two squares of one
    /// rank and may answer a check by the pawn it takes, so it is tested by making it.
    #[cold]
    #[inline(never)]
    fn en_passant(&self, from: u8, to: u8, list: &mut MoveList) {
        let mv = Move::new(
            SQUARE_OF[from as usize & 0x7F],
            SQUARE_OF[to as usize & 0x7F],
            MoveKind::EnPassant,
        );
        let after = self.make(mv);
        if !after.is_attacked(after.king(self.side()), after.side()) {
            list.push(mv);
        }
    }

    /// Castling: the right, empty squares between king and rook, and the squares the king
    /// crosses and reaches not attacked (the caller has checked it is not in check).
    #[inline(always)]
    fn castle_moves<const WHITE: bool>(&self, theirs: &[u8], list: &mut MoveList) {
        let (king_side, queen_side, e) = if WHITE {
            (
                CastlingRights::WHITE_KING.bits(),
                CastlingRights::WHITE_QUEEN.bits(),
                0x04u8,
            )
        } else {
            (
                CastlingRights::BLACK_KING.bits(),
                CastlingRights::BLACK_QUEEN.bits(),
                0x74u8,
            )
        };
        if self.castling() & (king_side | queen_side) == 0 {
            return;
        }
        let empty = |sq: u8| self.board[sq as usize & 0x7F] == 0;
        if self.castling() & king_side != 0
            && empty(e + 1)
            && empty(e + 2)
            && !self.attacked_by(e + 1, theirs)
            && !self.attacked_by(e + 2, theirs)
        {
            push(list, e, e + 2, MoveKind::Castle);
        }
        if self.castling() & queen_side != 0
            && empty(e - 1)
            && empty(e - 2)
            && empty(e - 3)
            && !self.attacked_by(e - 1, theirs)
            && !self.attacked_by(e - 2, theirs)
        {
            push(list, e, e - 2, MoveKind::Castle);
        }
    }
}

/// The four promotions of one pawn move, queen first.
#[inline(always)]
fn promotions(list: &mut MoveList, from: u8, to: u8) {
    for kind in [
        MoveKind::PromoteQueen,
        MoveKind::PromoteKnight,
        MoveKind::PromoteRook,
        MoveKind::PromoteBishop,
    ] {
        push(list, from, to, kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;
    use crate::perft::{Leaves, perft};
    use crate::positions::random_games;
    use crate::repr::Representation;
    use crate::types::Move;

    fn sorted(list: &MoveList) -> Vec<Move> {
        let mut v = list.as_slice().to_vec();
        v.sort_by_key(|m| m.to_string());
        v
    }

    /// The six standard positions: perft in 0x88 equal to perft on the C.C.R. at depths 1 to
    /// 3 (the published counts are checked for every representation by `tests/perft.rs`).
    #[test]
    fn standard_perft() {
        for fen in crate::positions::STANDARD {
            let (x, pos) = (
                X88::from_fen(fen).unwrap(),
                Position::from_fen(fen).unwrap(),
            );
            for depth in 1..=3 {
                let nodes = perft(&pos, depth, Leaves::Make);
                assert_eq!(perft(&x, depth, Leaves::Make), nodes, "{fen} depth {depth}");
            }
        }
    }

    /// Positions with castling, promotions, en passant, pins and checks close at hand, played
    /// after the six standard positions.
    const FENS: [&str; 4] = [
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
        "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
        "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
        "8/8/3k4/8/1q6/8/3PP3/3K4 w - - 0 1",
    ];

    #[test]
    fn agrees_with_the_ccr_over_random_games() {
        let (mut xl, mut pl) = (MoveList::new(), MoveList::new());
        let mut nodes = 0;
        let starts = crate::positions::STANDARD.into_iter().chain(FENS);
        random_games(
            starts,
            30,
            88,
            200,
            X88::from_position,
            |x, pos, _, line| {
                if let Some(&mv) = line.last() {
                    *x = x.make(mv);
                }
                assert_eq!(x.to_position(), *pos);
                assert_eq!(
                    Representation::in_check(x),
                    pos.in_check(),
                    "{}",
                    pos.to_fen()
                );
                x.generate_captures(&mut xl);
                pos.generate_captures(crate::Portable, &mut pl);
                assert_eq!(sorted(&xl), sorted(&pl), "captures of {}", pos.to_fen());
                x.generate_legal(&mut xl);
                pos.generate_legal(crate::Portable, &mut pl);
                assert_eq!(sorted(&xl), sorted(&pl), "moves of {}", pos.to_fen());
                nodes += 1;
                for &mv in pl.as_slice() {
                    assert_eq!(
                        x.make(mv).to_position(),
                        pos.make(mv),
                        "{mv} in {}",
                        pos.to_fen()
                    );
                }
                true
            },
        );
        assert!(nodes > 10_000, "{nodes} positions compared");
    }

    #[test]
    fn special_moves() {
        let moves = |fen: &str| X88::from_fen(fen).unwrap().legal_moves().sorted_names();
        // The horizontal pin through two pawns forbids b5c6; with the king away it is legal.
        assert!(!moves("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2").contains(&"b5c6".to_string()));
        assert!(moves("8/8/8/1Pp4r/8/K7/8/4k3 w - c6 0 2").contains(&"b5c6".to_string()));
        // Castling through an attacked f1: queen side only.
        let all = moves("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
        assert!(all.contains(&"e1c1".to_string()) && !all.contains(&"e1g1".to_string()));
        // A pinned bishop moves along the pin only, up to taking the pinner.
        let all = moves("4k3/8/8/8/q7/8/2B5/3K4 w - - 0 1");
        let bishop: Vec<_> = all.iter().filter(|m| m.starts_with("c2")).collect();
        assert_eq!(bishop, ["c2a4", "c2b3"]);
        // In check from a rook the king may not step back along its line.
        let all = moves("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        assert_eq!(all, ["e1d2", "e1e2", "e1f2"]);
        let x = X88::from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let promo: Vec<_> = x
            .legal_moves()
            .as_slice()
            .iter()
            .filter(|m| m.to().rank() == 7)
            .map(|m| m.to_string())
            .collect();
        assert_eq!(
            promo,
            [
                "a7a8q", "a7a8n", "a7a8r", "a7a8b", "a7b8q", "a7b8n", "a7b8r", "a7b8b"
            ]
        );
        let mut caps = MoveList::new();
        x.generate_captures(&mut caps);
        assert_eq!(
            caps.as_slice()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>(),
            ["a7b8q", "a7b8n", "a7b8r", "a7b8b"]
        );
    }
}

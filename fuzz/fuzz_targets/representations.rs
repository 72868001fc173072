//! Every board representation against the C.C.R. on arbitrary accepted positions.
//!
//! Any FEN the C.C.R. accepts: the 0x88 board, the native and rotated bitboards and the
//! converted bitboard generator (both conversions) hold the same position, generate the
//! same legal moves and captures (as sets, with their kinds), agree on check, and reach the
//! same child by every move (the C.C.R. itself on the portable kernel; every other kernel is
//! a variant, `simd` the best tier this CPU has); the SIMD conversions equal the portable
//! one; the C.C.R. with the AVX2 and assembly attack tables (and those tables themselves) and
//! the converted generator with the assembly conversion likewise (the assembly is built on
//! Linux x86 and x86-64, where ccr's build.rs sets `ccr_asm`).

#![no_main]

use ccr::kernels::convert::{self, portable};
use ccr::kernels::frame::attacks_of;
use ccr::{
    Colour, Move, MoveList, Portable, Position, Representation, Variant, WithRepresentation,
};
use libfuzzer_sys::fuzz_target;

/// The generated moves as sorted text: UCI and kind.
fn sorted(fill: impl FnOnce(&mut MoveList)) -> Vec<String> {
    let mut list = MoveList::new();
    fill(&mut list);
    let mut moves: Vec<String> = list
        .as_slice()
        .iter()
        .map(|mv: &Move| format!("{mv} {:?}", mv.kind()))
        .collect();
    moves.sort();
    moves
}

/// [`check`] in one variant.
struct Check<'a> {
    pos: &'a Position,
    fen: &'a str,
}

impl WithRepresentation for Check<'_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        check::<R>(self.pos, self.fen, &variant.name());
    }
}

fn check<R: Representation>(pos: &Position, fen: &str, name: &str) {
    let board = R::from_position(pos);
    assert_eq!(board.to_position(), *pos, "{name}: {fen}");
    assert_eq!(board.in_check(), pos.in_check(), "{name} in_check: {fen}");
    assert_eq!(
        sorted(|l| board.generate_legal(l)),
        sorted(|l| pos.generate_legal(Portable, l)),
        "{name} moves: {fen}"
    );
    assert_eq!(
        sorted(|l| board.generate_captures(l)),
        sorted(|l| pos.generate_captures(Portable, l)),
        "{name} captures: {fen}"
    );
    for &mv in pos.legal_moves().as_slice() {
        assert_eq!(
            board.make(mv).to_position(),
            pos.make(mv),
            "{name}: {fen} then {mv}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    let fen = pos.to_fen();
    let boards = portable(pos.board());
    for way in convert::available() {
        assert_eq!(
            convert::function(way)(pos.board()),
            boards,
            "{}: {fen}",
            convert::name(way)
        );
    }
    for variant in Variant::all() {
        variant.dispatch(Check {
            pos: &pos,
            fen: &fen,
        });
    }
    #[cfg(all(target_os = "linux", any(target_arch = "x86", target_arch = "x86_64")))]
    {
        assert_eq!(
            ccr::kernels::asm::convert(pos.board()),
            boards,
            "asm conversion: {fen}"
        );
        for by in [Colour::White, Colour::Black] {
            assert_eq!(
                ccr::kernels::asm::attacks_of(pos.board(), by),
                attacks_of(pos.board(), by),
                "asm attacks {by:?}: {fen}"
            );
        }
    }
    for by in [Colour::White, Colour::Black] {
        assert_eq!(
            ccr::kernels::attacks::attacks_of(pos.board(), by, attacks_of),
            attacks_of(pos.board(), by),
            "simd attacks {by:?}: {fen}"
        );
    }
});

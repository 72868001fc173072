//! Make updates everything a special move changes, in every board representation: en
//! passant, castling both ways, an under-promotion with capture, the rook captured on its
//! corner (its castling right goes), a double push's en-passant square, and the clocks
//! stopping at the largest values a FEN may carry.

use ccr::positions::STARTPOS;
use ccr::{Position, Representation, Variant, WithRepresentation};

/// (start FEN, UCI moves, FEN after them).
const CASES: [(&str, &[&str], &str); 5] = [
    (
        STARTPOS,
        &["e2e4", "d7d5", "e4d5", "c7c5", "d5c6"],
        "rnbqkbnr/pp2pppp/2P5/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9",
        &["e1g1", "e8c8"],
        "2kr3r/8/8/8/8/8/8/R4RK1 w - - 7 10",
    ),
    (
        "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["b7a8n", "h8h1"],
        "N3k3/8/8/8/8/8/8/R3K2r w Q - 0 2",
    ),
    (
        "8/8/8/4k3/8/8/8/R3K3 b - - 149 10000",
        &["e5d5", "a1a2"],
        "8/8/8/3k4/8/8/R7/4K3 b - - 150 10000",
    ),
    (
        "4k3/8/8/8/8/8/4P3/4K3 w - - 150 10000",
        &["e1d1", "e8d8", "e2e4"],
        "3k4/8/8/8/4P3/8/8/3K4 b - e3 0 10000",
    ),
];

/// Plays each case in `R` and compares the result with the position its FEN gives (the
/// C.C.R. position compares its cached king squares too).
fn special_moves<R: Representation>(variant: Variant) {
    for (fen, moves, expected) in CASES {
        let mut pos = R::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for text in moves {
            let mv = pos
                .to_position()
                .parse_uci_move(text)
                .unwrap_or_else(|| panic!("{text} is legal after {moves:?} from {fen}"));
            pos = pos.make(mv);
        }
        let after = pos.to_position();
        assert_eq!(
            after.to_fen(),
            expected,
            "{} {fen} {moves:?}",
            variant.name()
        );
        assert_eq!(
            Ok(after),
            Position::from_fen(expected),
            "{} {fen} {moves:?}",
            variant.name()
        );
    }
}

/// [`special_moves`] for [`Variant::dispatch`].
struct SpecialMoves;

impl WithRepresentation for SpecialMoves {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        special_moves::<R>(variant);
    }
}

#[test]
fn special_moves_in_every_representation() {
    for variant in Variant::all() {
        variant.dispatch(SpecialMoves);
    }
}

//! Random games through every representation, every move checked against what is computed
//! from scratch.
//!
//! The first byte picks the start position (the six standard positions, en-passant,
//! castling and promotion edge cases, Chess960 setups), each further byte the next legal
//! move (its index modulo their number) until the bytes or the moves run out. After every
//! move the C.C.R.'s incremental rotation key (`make_keyed`, and `RotationKey::update` from
//! the position before) equals the key of the whole position, as does the key of the null
//! move from there, and the position validates. Every representation ([`Variant::all`];
//! only the C.C.R.'s kernels for Chess960, which no other castles by) plays the same game
//! with its own make: after every move it validates (its own caches and the position) and
//! holds the C.C.R.'s position (`to_position`). The C.C.R. is the only one with an
//! incremental key: 0x88, the native and rotated bitboards keep none, so for them the
//! position they hold is what is checked, and its key is the C.C.R.'s by that. (The slow
//! checks stay off: they would validate each made position a second time, inside make.)

#![no_main]

use ccr::RotationKey;
use ccr::{Move, Position, Repr, Representation, Variant, WithRepresentation};
use libfuzzer_sys::fuzz_target;

/// The start positions, each with whether it is read as Chess960.
const STARTS: [(&str, bool); 14] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        false,
    ),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        false,
    ),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
    ("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3", false),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", false),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 37 112", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("r1k3rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1", true),
    ("4k3/8/8/8/8/8/8/R5KR w AH - 0 1", true),
];

/// One representation plays the game and is checked after every move.
struct Replay<'a> {
    start: &'a Position,
    /// Each move with the C.C.R.'s position after it.
    game: &'a [(Move, Position)],
}

impl WithRepresentation for Replay<'_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        let name = variant.name();
        let mut board = R::from_position(self.start);
        for (mv, expected) in self.game {
            board.play(*mv);
            if let Err(broken) = board.validate() {
                panic!("{name}: {} after {mv}: {broken}", expected.to_fen());
            }
            assert_eq!(board.to_position(), *expected, "{name} after {mv}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, moves)) = data.split_first() else {
        return;
    };
    let (fen, chess960) = STARTS[choice as usize % STARTS.len()];
    let start = Position::parse_fen(fen, chess960).expect("a valid start position");
    let (mut pos, mut key) = (start, start.key());
    let mut game = Vec::new();
    for &byte in moves {
        let legal = pos.legal_moves();
        let Some(&mv) = legal.as_slice().get(byte as usize % legal.len().max(1)) else {
            break;
        };
        let before = pos;
        (pos, key) = before.make_keyed(mv, key);
        let fen = pos.to_fen();
        assert_eq!(pos.check_key(key), Ok(()), "{fen} after {mv}");
        assert_eq!(RotationKey.update(before.key(), &before, &pos), key, "{fen}");
        if let Err(broken) = pos.validate() {
            panic!("{fen} after {mv}: {broken}");
        }
        if !pos.in_check() {
            let (null, null_key) = pos.make_null_keyed(key);
            assert_eq!(null.check_key(null_key), Ok(()), "{fen} then the null move");
        }
        game.push((mv, pos));
    }
    for variant in Variant::all() {
        if !chess960 || variant.repr == Repr::Ccr {
            variant.dispatch(Replay {
                start: &start,
                game: &game,
            });
        }
    }
});

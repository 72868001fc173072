//! FEN parsing, writing and making moves on arbitrary accepted positions, read as standard
//! chess and with Chess960's castling fields.
//!
//! Any input: `from_fen` returns, never panics. An accepted position: its FEN parses back to
//! the same position and is a fixed point of `to_fen`; every legal move can be made (and
//! `play` agrees with `make`), and every child writes a FEN that parses back to the child.
//! The last check also proves each generated move legal, since `from_fen` rejects a position
//! whose side not to move is in check.

#![no_main]

use ccr::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let standard = check(&text, false);
    let chess960 = check(&text, true);
    // Chess960's reading takes every standard position as the same position.
    if let Some(pos) = standard {
        assert_eq!(chess960, Some(pos), "{text:?} read with Chess960");
    }
});

/// Checks one reading of `text`; returns the position if it was accepted.
fn check(text: &str, chess960: bool) -> Option<Position> {
    let parse = |fen: &str| Position::parse_fen(fen, chess960);
    let pos = parse(text).ok()?;
    let fen = pos.to_fen();
    match parse(&fen) {
        Ok(back) => assert_eq!(back, pos, "{text:?} wrote {fen:?}"),
        Err(e) => panic!("{text:?} was accepted but its FEN {fen:?} is rejected: {e}"),
    }
    assert_eq!(parse(&fen).map(|p| p.to_fen()), Ok(fen.clone()));

    for &mv in pos.legal_moves().as_slice() {
        let child = pos.make(mv);
        let mut played = pos;
        played.play(mv);
        assert_eq!(played, child, "{fen} then {mv}: play and make differ");
        let child_fen = child.to_fen();
        match parse(&child_fen) {
            Ok(back) => assert_eq!(back, child, "{fen} then {mv} gives {child_fen}"),
            Err(e) => panic!("{fen} then {mv} gives {child_fen}, which is rejected: {e}"),
        }
        // The child's own move generation must not panic either.
        let _ = child.legal_moves().len();
    }
    Some(pos)
}

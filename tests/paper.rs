//! The paper's own reference vectors (Vučković 2012, Figure 1 / Table 2 and section 4.3).

use ccr::ccr::Position;
use ccr::types::Square;

const FIGURE_1: &str = "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1";

#[test]
fn figure_1_rank_words() {
    let board = Position::from_fen(FIGURE_1).unwrap().board;
    assert_eq!(
        board.0,
        [
            0x0000_E000,
            0,
            0,
            0,
            0x0000_0020,
            0x0000_1000,
            0x4030_6000,
            0
        ]
    );
    // The same vector as the paper prints it in decimal.
    assert_eq!(board.0, [57344, 0, 0, 0, 32, 4096, 1076912128, 0]);
}

#[test]
fn figure_2_knight_tests_by_mask_shifts() {
    let board = Position::from_fen(FIGURE_1).unwrap().board;
    let g4 = Square::parse("g4").unwrap();
    // "For white knight, displacement is +16 and a value is 00000020h … The rank mask is 000000F0h."
    assert_eq!(
        (g4.displacement(), board.0[g4.word()], g4.mask()),
        (16, 0x20, 0xF0)
    );
    let ccr = |displacement: usize| board.0[displacement / 4];
    let mask = g4.mask();
    // "if (CCR(+20) and (MASK shl 8)) = 0 then move_G4_E3 is legal" — e3 holds the white
    // pawn, so the test finds it occupied; h6 is empty.
    assert_ne!(ccr(20) & (mask << 8), 0);
    assert_eq!(ccr(8) & (mask >> 4), 0);
    // The bishop on c2: mask 00F00000h, displacement +24.
    let c2 = Square::parse("c2").unwrap();
    assert_eq!((c2.mask(), c2.displacement()), (0x00F0_0000, 24));
}

//! The paper's own reference vectors (Vučković 2012, Figure 1 / Table 2, section 4.3, and
//! Figure 3 / Tables 4-6 of section 4.4, with the paper's errata corrected).

use ccr::{AttackBlock, Colour, Position, Square};

const FIGURE_1: &str = "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1";

#[test]
fn figure_1_rank_words() {
    let board = *Position::from_fen(FIGURE_1).unwrap().board();
    assert_eq!(
        *board.words(),
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
    assert_eq!(*board.words(), [57344, 0, 0, 0, 32, 4096, 1076912128, 0]);
}

#[test]
fn figure_2_knight_tests_by_mask_shifts() {
    let board = *Position::from_fen(FIGURE_1).unwrap().board();
    let g4 = Square::parse("g4").unwrap();
    // "For white knight, displacement is +16 and a value is 00000020h … The rank mask is 000000F0h."
    assert_eq!(
        (g4.displacement(), board.words()[g4.word()], g4.mask()),
        (16, 0x20, 0xF0)
    );
    let ccr = |displacement: usize| board.words()[displacement / 4];
    let mask = g4.mask();
    // "if (CCR(+20) and (MASK shl 8)) = 0 then move_G4_E3 is legal" — e3 holds the white
    // pawn, so the test finds it occupied; h6 is empty.
    assert_ne!(ccr(20) & (mask << 8), 0);
    assert_eq!(ccr(8) & (mask >> 4), 0);
    // The bishop on c2: mask 00F00000h, displacement +24.
    let c2 = Square::parse("c2").unwrap();
    assert_eq!((c2.mask(), c2.displacement()), (0x00F0_0000, 24));
}

// ---------------------------------------------------------------------------------------
// Figure 3 and Tables 4-6 (paper 4.4): the board and both attack tables of one position.
//
// Reconstruction from the text extraction (seeds/004, lines 706-932). The extraction prints
// 24 runs of eight 4-bit nibbles. Each run is one *column* (file) of a table, read top to
// bottom, rank 8 first (+0/+32/+64 first): Table 4 shows it, its runs R1 = 0E000030 (black
// king on b7, white bishop on b2) and R7 = 0B000004 (black bishop h7, white rook h1) can
// only be files b and h. The runs, in extraction order, as hex columns (rank 8 .. rank 1):
//
//   R0  00000000  Table 4 file a      R12 42222331  Table 5 file h
//   R1  0E000030  Table 4 file b      R13 242A2600  Table 6 file d
//   R2  000A0000  Table 4 file c      R14 02404000  Table 6 file e
//   R3  0C000100  Table 4 file d      R15 020C0000  Table 6 file f
//   R4  00900020  Table 4 file e      R16 42400000  Table 6 file g
//   R5  00000000  Table 4 file f      R17 06000000  Table 6 file h (erratum at h7)
//   R6  00000060  Table 4 file g      -- "Table 5: WHITE_ATTACKS definition", +32..+60 --
//   R7  0B000004  Table 4 file h      R18 00000406  Table 5 file a
//   R8  00004002  Table 5 file d      R19 00000002  Table 5 file b
//   R9  00048002  Table 5 file e      R20 00008406  Table 5 file c
//   R10 00404113  Table 5 file f      -- "Table 6: BLACK_ATTACKS definition", +64..+92 --
//   R11 04000507  Table 5 file g      R21 11504000  Table 6 file a
//                                     R22 16100400  Table 6 file b
//                                     R23 13100000  Table 6 file c
//
// So the extraction emits Table 4's columns a..h in order (R0..R7; R0 and R5 are both
// empty, so which of them is a and which f cannot be told, and does not matter), then
// columns d..h of Table 5 (R8..R12) and of Table 6 (R13..R17) *before* either header, then
// columns a..c of each table after its header. Every attack column was placed by matching
// it against the columns the rules of chess give for this position: R8..R12 and R18..R23
// match a rules column exactly and no other; R17 is the only run left for Table 6 file h
// and matches it but for one nibble (h7, below). No column is ambiguous.
//
// What the paper counts, as its tables show: attacks onto a side's own pieces (White's king
// g2 on its rook h1: 0001; Black's rook d7 on its king b7 and bishop h7); not a piece's own
// square (g2 in Table 5, b7/d7/c5/e6 in Table 6 carry only other pieces' classes); no
// x-rays (d2, d1 behind the pawn d3 and h8 behind the bishop h7 get no rook class; c2
// behind d3 no bishop class); pawn attacks on empty squares (c4, e4, d5, f5). No pawn
// attacks an occupied square in Figures 1 or 3, so the paper is silent on that; the rules
// (and ccr) count them.
//
// Erratum: Table 6 (BLACK_ATTACKS), h7, displacement +68, mask 0000000Fh. The paper prints
// 0110b (a light piece and a rook); the rules give 0010b (the rook d7 along e7-g7 alone).
// The only black light pieces are the knight c5, which does not reach h7, and the bishop on
// h7 itself — and a piece does not attack its own square, which the paper itself keeps for
// every other piece. Rank word +68 is 16342226h in the paper and 16342222h by the rules.
// ---------------------------------------------------------------------------------------

const FIGURE_3: &str = "8/1k1r3b/4p3/2n5/8/3P4/1B2N1K1/7R w - - 0 1";

/// Table 4: the C.C.R. of Figure 3, displacements +0..+28.
///
/// ```text
///        a    b    c    d    e    f    g    h
/// +0   0000 0000 0000 0000 0000 0000 0000 0000   rank 8
/// +4   0000 1110 0000 1100 0000 0000 0000 1011   rank 7: k b7, r d7, b h7
/// +8   0000 0000 0000 0000 1001 0000 0000 0000   rank 6: p e6
/// +12  0000 0000 1010 0000 0000 0000 0000 0000   rank 5: n c5
/// +16  0000 0000 0000 0000 0000 0000 0000 0000   rank 4
/// +20  0000 0000 0000 0001 0000 0000 0000 0000   rank 3: P d3
/// +24  0000 0011 0000 0000 0010 0000 0110 0000   rank 2: B b2, N e2, K g2
/// +28  0000 0000 0000 0000 0000 0000 0000 0100   rank 1: R h1
/// ```
const TABLE_4: [u32; 8] = [
    0x0000_0000,
    0x0E0C_000B,
    0x0000_9000,
    0x00A0_0000,
    0x0000_0000,
    0x0001_0000,
    0x0300_2060,
    0x0000_0004,
];

/// Table 5: WHITE_ATTACKS of Figure 3, displacements +32..+60 (the paper's values; the
/// rules agree on every square). P = pawn d3, B = bishop b2, N = knight e2, K = king g2,
/// R = rook h1.
///
/// ```text
///        a    b    c    d    e    f    g    h
/// +32  0000 0000 0000 0000 0000 0000 0000 0100   rank 8: h8 B
/// +36  0000 0000 0000 0000 0000 0000 0100 0010   rank 7: g7 B, h7 R (on the black bishop)
/// +40  0000 0000 0000 0000 0000 0100 0000 0010   rank 6: f6 B, h6 R
/// +44  0000 0000 0000 0000 0100 0000 0000 0010   rank 5: e5 B, h5 R
/// +48  0000 0000 1000 0100 1000 0100 0000 0010   rank 4: c4 e4 P, d4 B+N, f4 N, h4 R
/// +52  0100 0000 0100 0000 0000 0001 0101 0011   rank 3: a3 B, c3 B+N, f3 K, g3 N+K, h3 R+K
/// +56  0000 0000 0000 0000 0000 0001 0000 0011   rank 2: f2 K, h2 R+K
/// +60  0110 0010 0110 0010 0010 0011 0111 0001   rank 1: a1 B+R, c1 B+N+R, f1 R+K,
///                                                        g1 N+R+K, h1 K; b1 d1 e1 R
/// ```
const TABLE_5: [u32; 8] = [
    0x0000_0004,
    0x0000_0042,
    0x0000_0402,
    0x0000_4002,
    0x0084_8402,
    0x4040_0153,
    0x0000_0103,
    0x6262_2371,
];

/// Table 6: BLACK_ATTACKS of Figure 3, displacements +64..+92, as the rules give it (the
/// paper's h7 erratum corrected). k = king b7, r = rook d7, b = bishop h7, p = pawn e6,
/// n = knight c5.
///
/// ```text
///        a    b    c    d    e    f    g    h
/// +64  0001 0001 0001 0010 0000 0000 0100 0000   rank 8: a8 b8 c8 k, d8 r, g8 b
/// +68  0001 0110 0011 0100 0010 0010 0010 0010   rank 7: a7 k, b7 r+n, c7 r+k, d7 n,
///                                                        e7 f7 g7 r, h7 r (paper: 0110)
/// +72  0101 0001 0001 0010 0100 0000 0100 0000   rank 6: a6 n+k, b6 c6 k, d6 r, e6 n, g6 b
/// +76  0000 0000 0000 1010 0000 1100 0000 0000   rank 5: d5 p+r, f5 p+b
/// +80  0100 0000 0000 0010 0100 0000 0000 0000   rank 4: a4 n, d4 r, e4 n+b
/// +84  0000 0100 0000 0110 0000 0000 0000 0000   rank 3: b3 n, d3 n+b+r (the worked example)
/// +88  0000 0000 0000 0000 0000 0000 0000 0000   rank 2
/// +92  0000 0000 0000 0000 0000 0000 0000 0000   rank 1
/// ```
const TABLE_6: [u32; 8] = [
    0x1112_0040,
    0x1634_2222, // paper: 1634_2226 (h7 0110b), see the erratum above
    0x5112_4040,
    0x000A_0C00,
    0x4002_4000,
    0x0406_0000,
    0x0000_0000,
    0x0000_0000,
];

/// The 24 runs of the extraction, verbatim and in its order (R0..R23 above).
const EXTRACTED_RUNS: [&str; 24] = [
    "0000 0000 0000 0000 0000 0000 0000 0000",
    "0000 1110 0000 0000 0000 0000 0011 0000",
    "0000 0000 0000 1010 0000 0000 0000 0000",
    "0000 1100 0000 0000 0000 0001 0000 0000",
    "0000 0000 1001 0000 0000 0000 0010 0000",
    "0000 0000 0000 0000 0000 0000 0000 0000",
    "0000 0000 0000 0000 0000 0000 0110 0000",
    "0000 1011 0000 0000 0000 0000 0000 0100",
    "0000 0000 0000 0000 0100 0000 0000 0010",
    "0000 0000 0000 0100 1000 0000 0000 0010",
    "0000 0000 0100 0000 0100 0001 0001 0011",
    "0000 0100 0000 0000 0000 0101 0000 0111",
    "0100 0010 0010 0010 0010 0011 0011 0001",
    "0010 0100 0010 1010 0010 0110 0000 0000",
    "0000 0010 0100 0000 0100 0000 0000 0000",
    "0000 0010 0000 1100 0000 0000 0000 0000",
    "0100 0010 0100 0000 0000 0000 0000 0000",
    "0000 0110 0000 0000 0000 0000 0000 0000",
    "0000 0000 0000 0000 0000 0100 0000 0110",
    "0000 0000 0000 0000 0000 0000 0000 0010",
    "0000 0000 0000 0000 1000 0100 0000 0110",
    "0001 0001 0101 0000 0100 0000 0000 0000",
    "0001 0110 0001 0000 0000 0100 0000 0000",
    "0001 0011 0001 0000 0000 0000 0000 0000",
];

/// Where each run goes: (table 0 = Table 4, 1 = Table 5, 2 = Table 6; file, a = 0).
const RUN_PLACES: [(usize, usize); 24] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (0, 5),
    (0, 6),
    (0, 7),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (1, 7),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (2, 7),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
];

/// The paper's errata in Tables 4-6: (table, displacement, mask, paper's nibble, rules').
const FIGURE_3_ERRATA: [(usize, usize, u32, u32, u32); 1] = [(2, 68, 0x0000_000F, 0b0110, 0b0010)];

/// Asserts the eight words of one table, read through the paper's displacements
/// (`base + 4 * r`, r = 0 for rank 8).
fn assert_table(block: &AttackBlock, base: usize, expected: &[u32; 8], name: &str) {
    for (r, &word) in expected.iter().enumerate() {
        let displacement = base + 4 * r;
        assert_eq!(
            block.at(displacement),
            word,
            "{name}(+{displacement}), rank {}: {:08x} instead of {word:08x}",
            8 - r,
            block.at(displacement)
        );
    }
}

fn figure_3_block() -> AttackBlock {
    AttackBlock::new(Position::from_fen(FIGURE_3).unwrap().board())
}

#[test]
fn figure_3_table_4_is_the_board() {
    let board = *Position::from_fen(FIGURE_3).unwrap().board();
    assert_eq!(*board.words(), TABLE_4);
    assert_table(&AttackBlock::new(&board), 0, &TABLE_4, "C.C.R.");
}

#[test]
fn figure_3_table_5_white_attacks() {
    let block = figure_3_block();
    assert_table(&block, 32, &TABLE_5, "WHITE_ATTACKS");
    assert_eq!(block.attacks(Colour::White), &TABLE_5);
}

#[test]
fn figure_3_table_6_black_attacks() {
    let block = figure_3_block();
    assert_table(&block, 64, &TABLE_6, "BLACK_ATTACKS");
    assert_eq!(block.attacks(Colour::Black), &TABLE_6);
    // The erratum square: only the rook d7 attacks h7, not a light piece.
    let h7 = Square::parse("h7").unwrap();
    assert_eq!(block.classes(Colour::Black, h7), 0b0010);
}

#[test]
fn figure_3_the_extraction_reassembles_to_the_tables_but_for_the_errata() {
    let mut paper = [[0u32; 8]; 3];
    for (run, &(table, file)) in EXTRACTED_RUNS.iter().zip(&RUN_PLACES) {
        let nibbles: Vec<u32> = run
            .split(' ')
            .map(|n| u32::from_str_radix(n, 2).unwrap())
            .collect();
        assert_eq!(nibbles.len(), 8);
        for (rank_word, nibble) in nibbles.into_iter().enumerate() {
            paper[table][rank_word] |= nibble << (4 * (7 - file));
        }
    }
    // Every file of every table placed exactly once.
    let mut places = RUN_PLACES;
    places.sort();
    assert!(places.iter().enumerate().all(|(i, &p)| p == (i / 8, i % 8)));
    // Correct the errata (checking that the paper really prints what we say it does).
    for (table, displacement, mask, printed, rules) in FIGURE_3_ERRATA {
        let word = &mut paper[table][displacement / 4 % 8];
        let shift = mask.trailing_zeros();
        assert_eq!((*word & mask) >> shift, printed);
        *word = (*word & !mask) | (rules << shift);
    }
    assert_eq!(paper, [TABLE_4, TABLE_5, TABLE_6]);
    assert_eq!(figure_3_block().words().as_slice(), paper.concat());
}

#[test]
fn figure_3_worked_example() {
    // "Third rank in C.C.R. has offset +20 … +20+32+32 = +84. Mask is … 000F0000h.
    // BLACK_ATTACK(+84) AND 000F0000h gives 00060000h": the pawn d3 is attacked by a light
    // piece (knight c5, bishop h7) and a rook (d7).
    let block = figure_3_block();
    let d3 = Square::parse("d3").unwrap();
    assert_eq!((d3.displacement(), d3.mask()), (20, 0x000F_0000));
    assert_eq!(block.at(20 + 32 + 32) & 0x000F_0000, 0x0006_0000);
    assert_eq!(block.at(20) & d3.mask(), 0x0001_0000); // the white pawn itself
}

// Figure 1: the paper prints no attack tables for it; these are derived by hand from the
// rules. White: Ra2, Bc2, Ke2, Pe3, Ng4. Black: Ke8.
//
// WHITE_ATTACKS
//        a    b    c    d    e    f    g    h
// +32  0010 0000 0000 0000 0000 0000 0000 0000   rank 8: a8 R (the a-file is open)
// +36  0010 0000 0000 0000 0000 0000 0000 0100   rank 7: a7 R, h7 B (c2-d3-e4-f5-g6-h7)
// +40  0010 0000 0000 0000 0000 0100 0100 0100   rank 6: a6 R, f6 N, g6 B, h6 N
// +44  0010 0000 0000 0000 0100 0100 0000 0000   rank 5: a5 R, e5 N, f5 B
// +48  0110 0000 0000 1000 0100 1000 0000 0000   rank 4: a4 R+B, d4 P, e4 B, f4 P
// +52  0010 0100 0000 0101 0101 0001 0000 0000   rank 3: a3 R, b3 B, d3 B+K, e3 N+K (own
//                                                        pawn), f3 K
// +56  0000 0010 0010 0001 0000 0101 0000 0100   rank 2: b2 R, c2 R (own bishop; the ray
//                                                        stops there), d2 K, f2 N+K, h2 N
// +60  0010 0100 0000 0101 0001 0001 0000 0000   rank 1: a1 R, b1 B, d1 B+K, e1 K, f1 K
//
// BLACK_ATTACKS: the king e8 alone.
// +64  0000 0000 0000 0001 0000 0001 0000 0000   rank 8: d8 f8
// +68  0000 0000 0000 0001 0001 0001 0000 0000   rank 7: d7 e7 f7
// +72..+92 all 0000.
const FIGURE_1_WHITE_ATTACKS: [u32; 8] = [
    0x2000_0000,
    0x2000_0004,
    0x2000_0444,
    0x2000_4400,
    0x6008_4800,
    0x2405_5100,
    0x0221_0504,
    0x2405_1100,
];
const FIGURE_1_BLACK_ATTACKS: [u32; 8] = [0x0001_0100, 0x0001_1100, 0, 0, 0, 0, 0, 0];

#[test]
fn figure_1_attack_tables() {
    let block = AttackBlock::new(Position::from_fen(FIGURE_1).unwrap().board());
    assert_table(&block, 32, &FIGURE_1_WHITE_ATTACKS, "WHITE_ATTACKS");
    assert_table(&block, 64, &FIGURE_1_BLACK_ATTACKS, "BLACK_ATTACKS");
    // Neither king is in check.
    let e2 = Square::parse("e2").unwrap();
    let e8 = Square::parse("e8").unwrap();
    assert!(!block.in_check(Colour::White, e2));
    assert!(!block.in_check(Colour::Black, e8));
}

//! FEN in and out: round trips on canonical FENs, the four-field form, a table of rejected
//! FENs with the error each gives (every [`FenError`] variant), and hostile input (empty,
//! non-ASCII, very long).

use crate::common;

use ccr::positions::STARTPOS;
use ccr::{CastlingRights, Ccr, FenError, Position};
use ccr::{Colour, PieceCode, Square};

/// The FENs of the standard perft file, without their `;D…` annotations.
fn epd_fens() -> Vec<String> {
    let fens = common::epd::fens("standard-perft.epd");
    assert_eq!(fens.len(), 6, "the standard file holds six positions");
    fens
}

/// Canonical six-field FENs that must survive `to_fen(from_fen(s)) == s` unchanged.
fn canonical_fens() -> Vec<String> {
    let mut fens = epd_fens();
    fens.extend(
        [
            // Black to move, with the en-passant square of 1. e4.
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            // White to move with a capturable en-passant pawn (f7-f5).
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // En passant on the a and h files.
            "rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq a6 0 3",
            "rnbqkbnr/ppppppp1/8/8/6Pp/8/PPPPPP1P/RNBQKBNR b KQkq g3 0 3",
            // Partial castling rights.
            "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 5 20",
            "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b q - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            // Clocks.
            "8/8/4k3/8/8/3K4/8/8 w - - 37 112",
            "8/8/4k3/8/8/3K4/8/8 b - - 150 10000",
            "8/8/4k3/8/8/3K4/8/8 w - - 0 9999",
            // Side to move in check (legal), promotions pending, kings in corners.
            "4k3/8/8/8/8/8/8/4RK2 b - - 0 1",
            "k7/2P5/8/8/8/8/5p2/7K w - - 0 1",
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            // The paper's Figure 1.
            "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1",
        ]
        .map(String::from),
    );
    fens
}

fn parse(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen:?} was rejected: {e}"))
}

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen:?} was accepted as {}", p.to_fen()),
        Err(e) => e,
    }
}

fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square name")
}

/// Replaces field `index` (0-based) of the start position.
fn startpos_with(index: usize, value: &str) -> String {
    let mut fields: Vec<&str> = STARTPOS.split(' ').collect();
    fields[index] = value;
    fields.join(" ")
}

// ---------------------------------------------------------------------------------------
// Round trips

#[test]
fn canonical_fens_round_trip_as_text() {
    for fen in canonical_fens() {
        assert_eq!(parse(&fen).to_fen(), fen);
    }
}

#[test]
fn positions_round_trip_through_fen() {
    for fen in canonical_fens() {
        let p = parse(&fen);
        assert_eq!(parse(&p.to_fen()), p, "{fen}");
    }
}

#[test]
fn positions_after_every_move_round_trip() {
    // Two plies from every canonical position: castling, en passant, promotions and
    // clock updates all go through to_fen and back.
    // Positions at the clock limits are left to `moves_at_the_clock_limits_round_trip`.
    for fen in canonical_fens() {
        let root = parse(&fen);
        if root.halfmove_clock() >= 149 || root.fullmove_number() >= 9999 {
            continue;
        }
        for &mv in root.legal_moves().as_slice() {
            let child = root.make(mv);
            let text = child.to_fen();
            assert_eq!(parse(&text), child, "{fen} then {mv}");
            assert_eq!(parse(&text).to_fen(), text);
            for &reply in child.legal_moves().as_slice() {
                let grandchild = child.make(reply);
                assert_eq!(
                    parse(&grandchild.to_fen()),
                    grandchild,
                    "{fen} then {mv} {reply}"
                );
            }
        }
    }
}

/// Every move from a position at the clocks' limits (halfmove 150, move 10000) writes a FEN
/// that `from_fen` accepts and reads back as the same position: `make` keeps the clocks
/// within what the parser takes.
#[test]
fn moves_at_the_clock_limits_round_trip() {
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 150 1",
        "8/8/4k3/8/8/3K4/8/8 b - - 0 10000",
    ] {
        let root = parse(fen);
        for &mv in root.legal_moves().as_slice() {
            let child = root.make(mv);
            let text = child.to_fen();
            assert_eq!(
                Position::from_fen(&text).ok(),
                Some(child),
                "{fen} then {mv} gives {text}"
            );
        }
    }
}

#[test]
fn parsed_fields_are_the_ones_written() {
    let p = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.side(), Colour::Black);
    assert_eq!(p.en_passant(), Some(sq("e3")));
    assert_eq!(p.castling().bits(), 0b1111);
    assert_eq!(p.king(Colour::White), sq("e1"));
    assert_eq!(p.king(Colour::Black), sq("e8"));

    let p = parse("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
    assert_eq!(p.castling().bits(), 0b1001);
    assert_eq!(p.en_passant(), None);

    let p = parse("8/8/4k3/8/8/3K4/8/8 w - - 37 112");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (37, 112));
}

#[test]
fn four_field_form_defaults_the_clocks_to_0_1() {
    for fen in canonical_fens() {
        let four: Vec<&str> = fen.split(' ').take(4).collect();
        let four = four.join(" ");
        let p = parse(&four);
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1), "{four}");
        assert_eq!(p.to_fen(), format!("{four} 0 1"));
        let full = parse(&fen);
        assert_eq!(
            (
                p.board(),
                p.side(),
                p.castling(),
                p.en_passant(),
                [p.king(Colour::White), p.king(Colour::Black)]
            ),
            (
                full.board(),
                full.side(),
                full.castling(),
                full.en_passant(),
                [full.king(Colour::White), full.king(Colour::Black)]
            )
        );
    }
}

#[test]
fn five_field_form_defaults_the_move_number() {
    let p = parse("8/8/4k3/8/8/3K4/8/8 w - - 37");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (37, 1));
    assert_eq!(p.to_fen(), "8/8/4k3/8/8/3K4/8/8 w - - 37 1");
}

#[test]
fn extra_ascii_whitespace_between_fields_is_tolerated() {
    let p = parse("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq -\n0 1 \r\n");
    assert_eq!(p.to_fen(), STARTPOS);
}

#[test]
fn castling_letters_in_any_order_mean_the_same_rights() {
    let p = parse("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

// ---------------------------------------------------------------------------------------
// Rejections: every FenError variant, each with the text it shows

/// FENs the parser must reject, each with its error's text (which carries the variant's
/// data: the count, character, rank, square or field found).
const REJECTED: &[(&str, &str)] = &[
    // Field count (missing clocks default; any other count is an error).
    (
        "",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 0",
    ),
    (
        " ",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 0",
    ),
    (
        " \t\r\n  \u{c} ",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 0",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 1",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 2",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 3",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 7",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0 1 2 3",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 10",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 3",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 7 33 1",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 7",
    ),
    // Characters that are no piece.
    (
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unexpected character 'x' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1",
        "unexpected character 'x' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unexpected character '0' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unexpected character '0' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unexpected character '9' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/p9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "unexpected character '9' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN- w KQkq - 0 1",
        "unexpected character '-' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN. w KQkq - 0 1",
        "unexpected character '.' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w KQkq - 0 1",
        "unexpected character '*' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNё w KQkq - 0 1",
        "unexpected character 'ё' in the piece placement",
    ),
    // Two digits in a row.
    (
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "two digits in a row on rank 6",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/71/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "two digits in a row on rank 3",
    ),
    (
        "4k3/8/8/8/8/8/8/3K13 w - - 0 1",
        "two digits in a row on rank 1",
    ),
    // Too few or too many ranks.
    (
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "expected 8 ranks separated by '/', found 7",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "expected 8 ranks separated by '/', found 9",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        "expected 8 ranks separated by '/', found 9",
    ),
    ("8 w - - 0 1", "expected 8 ranks separated by '/', found 1"),
    ("/ w - - 0 1", "expected 8 ranks separated by '/', found 2"),
    // Ranks short, long with a digit, long with pieces only (nothing past file h).
    (
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 covers 7 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6 covers 7 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/ w KQkq - 0 1",
        "rank 1 covers 0 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6 covers 0 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6 covers 9 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1",
        "rank 1 covers 9 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/8R7 w KQkq - 0 1",
        "rank 1 covers 16 squares instead of 8",
    ),
    (
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 covers 9 squares instead of 8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRRRRRRRRRRRRR w KQkq - 0 1",
        "rank 1 covers 20 squares instead of 8",
    ),
    (
        "kkkkkkkkkk/8/8/8/8/8/8/4K3 w - - 0 1",
        "rank 8 covers 10 squares instead of 8",
    ),
    // Not one king a side.
    (
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "White has 0 kings instead of 1",
    ),
    (
        "8/8/8/8/8/8/8/4K3 b - - 0 1",
        "Black has 0 kings instead of 1",
    ),
    (
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "White has 0 kings instead of 1",
    ),
    (
        "k6k/8/8/8/8/8/8/4K3 w - - 0 1",
        "Black has 2 kings instead of 1",
    ),
    (
        "4k3/8/8/8/8/8/8/K3K3 b - - 0 1",
        "White has 2 kings instead of 1",
    ),
    (
        "4k3/8/8/8/8/8/KKKKKKKK/KKKKKKKK w - - 0 1",
        "White has 16 kings instead of 1",
    ),
    // A pawn on a back rank.
    (
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "pawn on a8, a first or last rank",
    ),
    (
        "4k2p/8/8/8/8/8/8/4K3 w - - 0 1",
        "pawn on h8, a first or last rank",
    ),
    (
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
        "pawn on a1, a first or last rank",
    ),
    (
        "4k3/8/8/8/8/8/8/4K2P b - - 0 1",
        "pawn on h1, a first or last rank",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",
        "pawn on h1, a first or last rank",
    ),
    // Material no game reaches: nine pawns; eight and a promoted piece of each kind; seven and two promoted; ten queens; more than sixteen men.
    (
        "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1",
        "Black has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/8/8/8/8/Q7/PPPPPPPP/3QK3 w - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/8/8/8/8/R7/PPPPPPPP/R2RK3 w - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/8/8/8/8/B7/PPPPPPPP/1BB1K3 w - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/nnn5/pppppppp/8/8/8/8/4K3 w - - 0 1",
        "Black has more pawns or promoted pieces than a game can produce",
    ),
    (
        "4k3/8/8/8/8/QQ6/PPPPPPP1/3QK3 w - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "QQQQQQQQ/QQ6/8/8/8/8/8/k6K b - - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "White has more pawns or promoted pieces than a game can produce",
    ),
    // Side to move.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"x\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"W\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR B KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"B\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"-\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"white\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ww KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"ww\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"wb\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR 0 KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"0\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ё KQkq - 0 1",
        "side to move must be 'w' or 'b', found \"ё\"",
    ),
    // The side not to move in check: by rook, bishop, knight, pawn, queen; kings side by side.
    (
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/8/1B6/8/8/8/4K3 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/5N2/8/8/8/8/4K3 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/8/8/Q7/8/8/4K3 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/8/8/8/8/8/r3K3 b - - 0 1",
        "the side not to move is in check",
    ),
    (
        "4k3/8/8/8/8/3n4/8/4K3 b - - 0 1",
        "the side not to move is in check",
    ),
    (
        "8/8/8/3kK3/8/8/8/8 w - - 0 1",
        "the side not to move is in check",
    ),
    (
        "8/8/8/3kK3/8/8/8/8 b - - 0 1",
        "the side not to move is in check",
    ),
    // Castling field.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"KK\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w X - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"X\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"KQkqK\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kk - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"kk\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qq - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"qq\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -- - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"--\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"K-\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -K - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"-K\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq- - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"KQkq-\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w x - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"x\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"0\"",
    ),
    (
        // Shredder-FEN names the rook's file: a knight stands on b1.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w B - 0 1",
        "castling right 'B' without king and rook on their home squares",
    ),
    (
        // The same right twice, by its letter and by its rook's file.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"KH\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqkq - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"KQkqkq\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K🙂 - 0 1",
        "castling field must be '-' or distinct rights, each a letter of 'KQkq' or a rook's file (A-H, a-h), found \"K🙂\"",
    ),
    // Castling rights without king or rook at home: no rook; king off home; rook on the wrong square or of the wrong colour; another piece there.
    (
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "castling right 'K' without king and rook on their home squares",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
        "castling right 'Q' without king and rook on their home squares",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 b k - 0 1",
        "castling right 'k' without king and rook on their home squares",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 b q - 0 1",
        "castling right 'q' without king and rook on their home squares",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1",
        "castling right 'Q' without king and rook on their home squares",
    ),
    (
        "r2k3r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        "castling right 'k' without king and rook on their home squares",
    ),
    (
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "castling right 'q' without king and rook on their home squares",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",
        "castling right 'K' without king and rook on their home squares",
    ),
    (
        "r3k2R/8/8/8/8/8/8/R3K3 b Qk - 0 1",
        "castling right 'k' without king and rook on their home squares",
    ),
    (
        "r3k2r/8/8/8/8/8/8/N3K2R w KQkq - 0 1",
        "castling right 'Q' without king and rook on their home squares",
    ),
    // En-passant field.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "en-passant field must be '-' or a square, found \"e9\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z3 0 1",
        "en-passant field must be '-' or a square, found \"z3\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1",
        "en-passant field must be '-' or a square, found \"e\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e33 0 1",
        "en-passant field must be '-' or a square, found \"e33\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E3 0 1",
        "en-passant field must be '-' or a square, found \"E3\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq 3e 0 1",
        "en-passant field must be '-' or a square, found \"3e\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e0 0 1",
        "en-passant field must be '-' or a square, found \"e0\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1",
        "en-passant field must be '-' or a square, found \"i6\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq 33 0 1",
        "en-passant field must be '-' or a square, found \"33\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -- 0 1",
        "en-passant field must be '-' or a square, found \"--\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3e6 0 1",
        "en-passant field must be '-' or a square, found \"e3e6\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq ee 0 1",
        "en-passant field must be '-' or a square, found \"ee\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e🙂 0 1",
        "en-passant field must be '-' or a square, found \"e🙂\"",
    ),
    // En-passant squares no push made: wrong rank for the side; no pawn, a pawn of the wrong colour or a piece in front; the skipped square or the origin occupied.
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR b KQkq d6 0 1",
        "en-passant square d6 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
        "en-passant square e4 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
        "en-passant square d6 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4N3/8/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkb1r/ppp1pppp/3n4/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
        "en-passant square d6 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1",
        "en-passant square e3 does not follow a two-square pawn advance",
    ),
    (
        "rnbqkb1r/pppnpppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
        "en-passant square d6 does not follow a two-square pawn advance",
    ),
    // Half-move clocks.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "bad halfmove clock \"-1\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "bad halfmove clock \"x\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +3 1",
        "bad halfmove clock \"+3\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1",
        "bad halfmove clock \"1.5\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 151 1",
        "bad halfmove clock \"151\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1000 1",
        "bad halfmove clock \"1000\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1",
        "bad halfmove clock \"65536\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
        "bad halfmove clock \"99999999999999999999\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0x1 1",
        "bad halfmove clock \"0x1\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1e2 1",
        "bad halfmove clock \"1e2\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ١ 1",
        "bad halfmove clock \"١\"",
    ),
    // Move numbers.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "bad fullmove number \"0\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
        "bad fullmove number \"-1\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        "bad fullmove number \"x\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +3",
        "bad fullmove number \"+3\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5",
        "bad fullmove number \"1.5\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10001",
        "bad fullmove number \"10001\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 65536",
        "bad fullmove number \"65536\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
        "bad fullmove number \"99999999999999999999\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -0",
        "bad fullmove number \"-0\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 00",
        "bad fullmove number \"00\"",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1🙂",
        "bad fullmove number \"1🙂\"",
    ),
    // Non-ASCII whitespace separates no fields.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\u{a0}w KQkq - 0 1",
        "unexpected character '\\u{a0}' in the piece placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\u{3000}w\u{3000}KQkq\u{3000}-\u{3000}0\u{3000}1",
        "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found 1",
    ),
];

#[test]
fn rejected_fens_give_their_error() {
    let mut wrong = Vec::new();
    for &(fen, expected) in REJECTED {
        match Position::from_fen(fen) {
            Ok(p) => wrong.push(format!("{fen:?} was accepted as {}", p.to_fen())),
            Err(e) if e.to_string() != expected => {
                wrong.push(format!("{fen:?}: {e:?} shows {e}, expected {expected}"))
            }
            Err(e) => assert!(!expected.is_empty() && !expected.contains('\n'), "{e:?}"),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The accepted neighbours of the rejections: four, five or six fields (missing clocks
/// default to 0 and 1), material a game reaches, a blocked line, the clocks' limits.
#[test]
fn accepted_next_to_the_rejections() {
    let board = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq -";
    for (fen, clocks) in [
        (board.to_string(), (0, 1)),
        (format!("{board} 7"), (7, 1)),
        (format!("{board} 7 33"), (7, 33)),
    ] {
        let p = parse(&fen);
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), clocks, "{fen}");
        assert_eq!(
            p.to_fen(),
            format!("{board} {} {}", clocks.0, clocks.1),
            "{fen}"
        );
    }
    // Nine queens and no pawns (the 218-move position), a promoted piece for every missing
    // pawn, and the full army.
    parse("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    parse("4k3/8/8/8/8/Q7/1PPPPPPP/3QK3 w - - 0 1");
    parse("4k3/8/8/8/8/QRBN4/PPPP4/RNBQK1NB w - - 0 1");
    parse(STARTPOS);
    // Shredder-FEN's rook files for standard chess's rights: the same position as KQkq.
    let shredder = parse("r3k2r/8/8/8/8/8/8/R3K2R b HAha - 0 1");
    assert_eq!(shredder, parse("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"));
    assert!(shredder.to_fen().contains(" b KQkq - "));
    // A blocked line is no check.
    parse("4k3/8/8/8/8/8/4P3/4RK2 w - - 0 1");
    parse("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1");
    // The clocks' limits themselves.
    parse(&startpos_with(4, "150"));
    parse(&startpos_with(5, "10000"));
    parse(&startpos_with(4, "0"));
    parse(&startpos_with(5, "1"));
}

// ---------------------------------------------------------------------------------------
// Hostile input: always an error, never a panic

#[test]
fn non_ascii_anywhere_is_rejected() {
    // Every insertion point of the start position, with several kinds of non-ASCII text.
    for insert in [
        "ё", "🙂", "\u{a0}", "\u{200b}", "\u{feff}", "é", "Ｋ", "８", "\u{0}",
    ] {
        for (i, _) in STARTPOS.char_indices().chain([(STARTPOS.len(), ' ')]) {
            let fen = format!("{}{insert}{}", &STARTPOS[..i], &STARTPOS[i..]);
            assert!(
                Position::from_fen(&fen).is_err(),
                "{fen:?} was accepted with {insert:?} at byte {i}"
            );
        }
    }
    assert!(Position::from_fen("ё").is_err());
    assert!(Position::from_fen("🙂 🙂 🙂 🙂 🙂 🙂").is_err());
}

#[test]
fn single_character_mutations_never_panic_and_accepted_ones_round_trip() {
    let alphabet: Vec<char> = (' '..='~').chain(['ё', '🙂', '\t']).collect();
    let round_trips_if_accepted = |chars: &[char]| {
        let text: String = chars.iter().collect();
        if let Ok(p) = Position::from_fen(&text) {
            assert_eq!(parse(&p.to_fen()), p, "{text}");
        }
    };
    for fen in epd_fens() {
        let chars: Vec<char> = fen.chars().collect();
        for i in 0..chars.len() {
            for &c in &alphabet {
                let mut m = chars.clone();
                m[i] = c;
                round_trips_if_accepted(&m);
                m.remove(i);
                round_trips_if_accepted(&m);
            }
        }
    }
}

#[test]
fn very_long_input_is_rejected() {
    // Many ranks.
    let many_ranks = format!("{} w - - 0 1", vec!["8"; 200_000].join("/"));
    assert!(matches!(err(&many_ranks), FenError::RankCount(200_000)));
    // One enormous rank of pieces, and one of alternating digits and pieces.
    for (eighth, width) in [
        ("Q".repeat(1_000_000), 1_000_000),
        ("8p".repeat(500_000), 4_500_000),
    ] {
        let wide = format!("{eighth}/8/8/8/8/8/8/4K2k w - - 0 1");
        assert!(
            matches!(err(&wide), FenError::RankWidth { rank: 8, squares } if squares == width),
            "a rank of {width} squares"
        );
    }
    // Long clocks and fields.
    let clock = format!("{STARTPOS}{}", "0".repeat(1_000_000));
    assert!(matches!(err(&clock), FenError::BadClock { .. }));
    let clock = startpos_with(4, &format!("{}1", "0".repeat(1_000_000)));
    // Leading zeros make no number bigger: 000…01 is 1.
    assert_eq!(parse(&clock).halfmove_clock(), 1);
    let castling = startpos_with(2, &"K".repeat(1_000_000));
    assert!(matches!(err(&castling), FenError::BadCastlingField(_)));
    // Whitespace only, and many fields.
    assert!(matches!(
        err(&" ".repeat(1_000_000)),
        FenError::FieldCount(0)
    ));
    let many_fields = format!("{STARTPOS}{}", " 1".repeat(100_000));
    assert!(matches!(err(&many_fields), FenError::FieldCount(100_006)));
    // Long non-ASCII.
    assert!(Position::from_fen(&"ё".repeat(1_000_000)).is_err());
}

// ---------------------------------------------------------------------------------------
// Building from parts

/// The parts of a FEN whose fields are well formed, read without any of the parser's
/// checks on what they describe.
fn parts(fen: &str) -> (Ccr, Colour, CastlingRights, Option<Square>, u16, u16) {
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut board = Ccr::default();
    for (word, rank) in fields[0].split('/').enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => file += d as u8,
                None => {
                    let code = PieceCode::from_fen_char(c).expect("a piece letter");
                    board.set(Square::from_file_rank(file, 7 - word as u8), code);
                    file += 1;
                }
            }
        }
    }
    let side = if fields[1] == "w" {
        Colour::White
    } else {
        Colour::Black
    };
    let mut castling = CastlingRights::NONE;
    for right in CastlingRights::EACH {
        if fields[2].contains(right.fen_char().expect("a single right")) {
            castling = castling.with(right);
        }
    }
    let en_passant = Square::parse(fields[3]);
    let clock = |i: usize| fields[i].parse().expect("a clock that fits in u16");
    (board, side, castling, en_passant, clock(4), clock(5))
}

#[test]
fn from_parts_accepts_and_rejects_what_from_fen_does() {
    let mut fens = canonical_fens();
    fens.extend(
        [
            // One king, three kings.
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/2K1K3 w - - 0 1",
            // A pawn on a back rank.
            "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
            // Nine pawns.
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            // The side not to move in check.
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
            // Castling rights without their rook, without their king at home.
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "r2k3r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
            // En-passant squares no pawn can just have skipped.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
            // Clocks out of range.
            "4k3/8/8/8/8/8/8/4K3 w - - 151 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 10001",
        ]
        .map(String::from),
    );
    let mut rejected = 0;
    for fen in &fens {
        let (board, side, castling, en_passant, halfmove, fullmove) = parts(fen);
        let built = Position::from_parts(board, side, castling, en_passant, halfmove, fullmove);
        assert_eq!(built, Position::from_fen(fen), "{fen}");
        rejected += usize::from(built.is_err());
    }
    assert_eq!(rejected, 12);
}

#[test]
fn changed_clocks_are_checked_as_a_fen_s_are() {
    let start = parse(STARTPOS);
    let later = start.with_clocks(150, 10_000).expect("the largest clocks");
    assert_eq!(
        later.to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 150 10000"
    );
    assert_eq!(later.board(), start.board());
    for (halfmove, fullmove) in [(151, 1), (0, 0), (0, 10_001)] {
        let text = format!("{halfmove} {fullmove}");
        let fen = STARTPOS.replace("0 1", &text);
        assert_eq!(
            start
                .with_clocks(halfmove, fullmove)
                .map_err(|e| e.to_string()),
            Position::from_fen(&fen).map_err(|e| e.to_string()),
            "{fen}"
        );
    }
}

//! FEN in and out: round trips on canonical FENs, the four-field form, and one rejection
//! test per [`FenError`] class, including hostile input (empty, non-ASCII, very long).

mod common;

use ccr::ccr::{FenError, Position};
use ccr::positions::STARTPOS;
use ccr::types::{Colour, Square};

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
        if root.halfmove_clock >= 149 || root.fullmove_number >= 9999 {
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
    assert_eq!(p.side, Colour::Black);
    assert_eq!(p.en_passant, Some(sq("e3")));
    assert_eq!(p.castling.0, 0b1111);
    assert_eq!(p.king(Colour::White), sq("e1"));
    assert_eq!(p.king(Colour::Black), sq("e8"));

    let p = parse("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
    assert_eq!(p.castling.0, 0b1001);
    assert_eq!(p.en_passant, None);

    let p = parse("8/8/4k3/8/8/3K4/8/8 w - - 37 112");
    assert_eq!((p.halfmove_clock, p.fullmove_number), (37, 112));
}

#[test]
fn four_field_form_defaults_the_clocks_to_0_1() {
    for fen in canonical_fens() {
        let four: Vec<&str> = fen.split(' ').take(4).collect();
        let four = four.join(" ");
        let p = parse(&four);
        assert_eq!((p.halfmove_clock, p.fullmove_number), (0, 1), "{four}");
        assert_eq!(p.to_fen(), format!("{four} 0 1"));
        let full = parse(&fen);
        assert_eq!(
            (p.board, p.side, p.castling, p.en_passant, p.kings),
            (
                full.board,
                full.side,
                full.castling,
                full.en_passant,
                full.kings
            )
        );
    }
}

#[test]
fn five_field_form_defaults_the_move_number() {
    let p = parse("8/8/4k3/8/8/3K4/8/8 w - - 37");
    assert_eq!((p.halfmove_clock, p.fullmove_number), (37, 1));
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
// Rejections, one block per FenError variant

#[test]
fn wrong_field_count() {
    assert!(matches!(err(""), FenError::FieldCount(0)));
    assert!(matches!(err(" "), FenError::FieldCount(0)));
    assert!(matches!(err(" \t\r\n  \x0c "), FenError::FieldCount(0)));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
        FenError::FieldCount(1)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        FenError::FieldCount(2)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
        FenError::FieldCount(3)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"),
        FenError::FieldCount(7)
    ));
    assert!(matches!(
        err(&format!("{STARTPOS} 0 1 2 3")),
        FenError::FieldCount(10)
    ));
}

/// Four, five or six fields: missing clocks default to 0 and 1, and the error for any other
/// count says so.
#[test]
fn four_five_or_six_fields() {
    let board = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq -";
    for (fen, clocks) in [
        (board.to_string(), (0, 1)),
        (format!("{board} 7"), (7, 1)),
        (format!("{board} 7 33"), (7, 33)),
    ] {
        let p = parse(&fen);
        assert_eq!((p.halfmove_clock, p.fullmove_number), clocks, "{fen}");
        assert_eq!(
            p.to_fen(),
            format!("{board} {} {}", clocks.0, clocks.1),
            "{fen}"
        );
    }
    for (fen, n) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq".to_string(), 3),
        (format!("{board} 7 33 1"), 7),
    ] {
        let e = err(&fen);
        assert_eq!(e, FenError::FieldCount(n), "{fen}");
        assert_eq!(
            e.to_string(),
            format!("expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found {n}")
        );
    }
}

#[test]
fn bad_piece_characters() {
    for (bad, c) in [
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            'x',
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1",
            'x',
        ),
        (
            "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            '0',
        ),
        (
            "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            '0',
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            '9',
        ),
        (
            "rnbqkbnr/pppppppp/p9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            '9',
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN- w KQkq - 0 1",
            '-',
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN. w KQkq - 0 1",
            '.',
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w KQkq - 0 1",
            '*',
        ),
    ] {
        let e = err(bad);
        assert!(
            matches!(e, FenError::BadPieceChar(found) if found == c),
            "{bad}: {e:?}"
        );
    }
}

#[test]
fn adjacent_digits() {
    assert!(matches!(
        err("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::AdjacentDigits { rank: 6 }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .replace("/8/8/8/8/", "/8/8/8/71/")
            .as_str()),
        FenError::AdjacentDigits { rank: 3 }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K13 w - - 0 1"),
        FenError::AdjacentDigits { rank: 1 }
    ));
}

#[test]
fn too_few_or_too_many_ranks() {
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(7)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(9)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"),
        FenError::RankCount(9)
    ));
    assert!(matches!(err("8 w - - 0 1"), FenError::RankCount(1)));
    assert!(matches!(err("/ w - - 0 1"), FenError::RankCount(2)));
}

#[test]
fn rank_width_not_eight() {
    // Short.
    assert!(matches!(
        err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 7,
            squares: 7
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 6,
            squares: 7
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/ w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 1,
            squares: 0
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 6,
            squares: 0
        }
    ));
    // Long, with a digit.
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 6,
            squares: 9
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 1,
            squares: 9
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/8R7 w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 1,
            squares: 16
        }
    ));
    // Long, pieces only: nothing past file h may be written anywhere.
    assert!(matches!(
        err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 7,
            squares: 9
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRRRRRRRRRRRRR w KQkq - 0 1"),
        FenError::RankWidth {
            rank: 1,
            squares: 20
        }
    ));
    assert!(matches!(
        err("kkkkkkkkkk/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::RankWidth {
            rank: 8,
            squares: 10
        }
    ));
}

#[test]
fn king_count() {
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::KingCount {
            colour: Colour::White,
            count: 0
        }
    ));
    assert!(matches!(
        err("8/8/8/8/8/8/8/4K3 b - - 0 1"),
        FenError::KingCount {
            colour: Colour::Black,
            count: 0
        }
    ));
    assert!(matches!(
        err("8/8/8/8/8/8/8/8 w - - 0 1"),
        FenError::KingCount { count: 0, .. }
    ));
    assert!(matches!(
        err("k6k/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            colour: Colour::Black,
            count: 2
        }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/K3K3 b - - 0 1"),
        FenError::KingCount {
            colour: Colour::White,
            count: 2
        }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/KKKKKKKK/KKKKKKKK w - - 0 1"),
        FenError::KingCount {
            colour: Colour::White,
            count: 16
        }
    ));
}

#[test]
fn pawn_on_back_rank() {
    for (fen, at) in [
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8"),
        ("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "h8"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "a1"),
        ("4k3/8/8/8/8/8/8/4K2P b - - 0 1", "h1"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",
            "h1",
        ),
    ] {
        let e = err(fen);
        assert!(
            matches!(e, FenError::PawnOnBackRank(s) if s == sq(at)),
            "{fen}: {e:?}"
        );
    }
}

#[test]
fn impossible_material() {
    for (fen, colour) in [
        // Nine pawns.
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Colour::White),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1", Colour::Black),
        // Eight pawns and a promoted piece of each kind.
        ("4k3/8/8/8/8/Q7/PPPPPPPP/3QK3 w - - 0 1", Colour::White),
        ("4k3/8/8/8/8/R7/PPPPPPPP/R2RK3 w - - 0 1", Colour::White),
        ("4k3/8/8/8/8/B7/PPPPPPPP/1BB1K3 w - - 0 1", Colour::White),
        ("4k3/nnn5/pppppppp/8/8/8/8/4K3 w - - 0 1", Colour::Black),
        // Seven pawns and two promoted pieces.
        ("4k3/8/8/8/8/QQ6/PPPPPPP1/3QK3 w - - 0 1", Colour::White),
        // Ten queens and no pawns.
        ("QQQQQQQQ/QQ6/8/8/8/8/8/k6K b - - 0 1", Colour::White),
        // More than sixteen men with all piece kinds.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
                .replace("/8/8/8/8/", "/8/8/8/N7/")
                .leak(),
            Colour::White,
        ),
    ] {
        let e = err(fen);
        assert!(
            matches!(e, FenError::ImpossibleMaterial(c) if c == colour),
            "{fen}: {e:?}"
        );
    }
    // Reachable material: nine queens and no pawns (the 218-move position), a promoted
    // piece for every missing pawn, and the full army.
    parse("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    parse("4k3/8/8/8/8/Q7/1PPPPPPP/3QK3 w - - 0 1");
    parse("4k3/8/8/8/8/QRBN4/PPPP4/RNBQK1NB w - - 0 1");
    parse(STARTPOS);
}

#[test]
fn bad_side_to_move() {
    for side in ["x", "W", "B", "-", "white", "ww", "wb", "0"] {
        let e = err(&startpos_with(1, side));
        assert!(
            matches!(&e, FenError::BadSideToMove(s) if s == side),
            "{side}: {e:?}"
        );
    }
}

#[test]
fn side_not_to_move_in_check() {
    for fen in [
        // White to move while the black king is attacked: rook, bishop, knight, pawn, queen.
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        "4k3/8/8/1B6/8/8/8/4K3 w - - 0 1",
        "4k3/8/5N2/8/8/8/8/4K3 w - - 0 1",
        "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/Q7/8/8/4K3 w - - 0 1",
        // Black to move while the white king is attacked.
        "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/r3K3 b - - 0 1",
        "4k3/8/8/8/8/3n4/8/4K3 b - - 0 1",
        // Kings side by side.
        "8/8/8/3kK3/8/8/8/8 w - - 0 1",
        "8/8/8/3kK3/8/8/8/8 b - - 0 1",
    ] {
        let e = err(fen);
        assert!(matches!(e, FenError::OpponentInCheck), "{fen}: {e:?}");
    }
    // A blocked line is no check.
    parse("4k3/8/8/8/8/8/4P3/4RK2 w - - 0 1");
    parse("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1");
}

#[test]
fn bad_castling_field() {
    for field in [
        "KK", "X", "KQkqK", "kk", "qq", "--", "K-", "-K", "KQkq-", "x", "0", "A", "H", "KQkqkq",
    ] {
        let e = err(&startpos_with(2, field));
        assert!(
            matches!(&e, FenError::BadCastlingField(s) if s == field),
            "{field}: {e:?}"
        );
    }
}

#[test]
fn castling_without_king_or_rook_at_home() {
    for (fen, right) in [
        // No rook at all.
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", 'K'),
        ("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", 'Q'),
        ("4k3/8/8/8/8/8/8/4K3 b k - 0 1", 'k'),
        ("4k3/8/8/8/8/8/8/4K3 b q - 0 1", 'q'),
        // King off its home square.
        ("r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1", 'Q'),
        ("r2k3r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 'k'),
        // Rook on the wrong square or of the wrong colour.
        ("1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 'q'),
        ("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", 'K'),
        ("r3k2R/8/8/8/8/8/8/R3K3 b Qk - 0 1", 'k'),
        // Another piece where the rook should be.
        ("r3k2r/8/8/8/8/8/8/N3K2R w KQkq - 0 1", 'Q'),
    ] {
        let e = err(fen);
        assert!(
            matches!(e, FenError::CastlingWithoutPieces(c) if c == right),
            "{fen}: {e:?}"
        );
    }
}

#[test]
fn bad_en_passant_field() {
    for field in [
        "e9", "z3", "e", "e33", "E3", "3e", "e0", "i6", "33", "--", "e3e6", "ee",
    ] {
        let e = err(&startpos_with(3, field));
        assert!(
            matches!(&e, FenError::BadEnPassantField(s) if s == field),
            "{field}: {e:?}"
        );
    }
}

#[test]
fn impossible_en_passant() {
    for (fen, at) in [
        // White to move: the square must be on rank 6, not 3.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
            "e3",
        ),
        // Black to move: the square must be on rank 3, not 6.
        (
            "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR b KQkq d6 0 1",
            "d6",
        ),
        // Right rank but some other rank altogether.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
            "e4",
        ),
        // No pawn in front of the square.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
            "e3",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
            "d6",
        ),
        // A pawn of the wrong colour in front.
        (
            "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "e3",
        ),
        // A piece, not a pawn, in front.
        (
            "rnbqkbnr/pppppppp/8/8/4N3/8/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
            "e3",
        ),
        // The skipped square is occupied.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
            "e3",
        ),
        (
            "rnbqkb1r/ppp1pppp/3n4/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
            "d6",
        ),
        // The square the pawn came from is occupied.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1",
            "e3",
        ),
        (
            "rnbqkb1r/pppnpppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
            "d6",
        ),
    ] {
        let e = err(fen);
        assert!(
            matches!(e, FenError::ImpossibleEnPassant(s) if s == sq(at)),
            "{fen}: {e:?}"
        );
    }
}

#[test]
fn absurd_clocks() {
    let halfmove = [
        "-1",
        "x",
        "+3",
        "1.5",
        "151",
        "1000",
        "65536",
        "99999999999999999999",
        "0x1",
        "1e2",
        "١",
    ];
    for text in halfmove {
        let e = err(&startpos_with(4, text));
        assert!(
            matches!(&e, FenError::BadClock { which: "halfmove clock", text: t } if t == text),
            "{text}: {e:?}"
        );
    }
    let fullmove = [
        "0",
        "-1",
        "x",
        "+3",
        "1.5",
        "10001",
        "65536",
        "99999999999999999999",
        "-0",
        "00",
    ];
    for text in fullmove {
        let e = err(&startpos_with(5, text));
        assert!(
            matches!(&e, FenError::BadClock { which: "fullmove number", text: t } if t == text),
            "{text}: {e:?}"
        );
    }
    // The limits themselves are accepted.
    parse(&startpos_with(4, "150"));
    parse(&startpos_with(5, "10000"));
    parse(&startpos_with(4, "0"));
    parse(&startpos_with(5, "1"));
}

// ---------------------------------------------------------------------------------------
// Hostile input: always an error, never a panic

#[test]
fn non_ascii_anywhere_is_rejected() {
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNё w KQkq - 0 1"),
        FenError::BadPieceChar('ё')
    ));
    assert!(matches!(
        err(&startpos_with(1, "ё")),
        FenError::BadSideToMove(_)
    ));
    assert!(matches!(
        err(&startpos_with(2, "K🙂")),
        FenError::BadCastlingField(_)
    ));
    assert!(matches!(
        err(&startpos_with(3, "e🙂")),
        FenError::BadEnPassantField(_)
    ));
    assert!(matches!(
        err(&startpos_with(5, "1🙂")),
        FenError::BadClock { .. }
    ));
    // Non-ASCII whitespace does not separate fields.
    assert!(matches!(
        err(&STARTPOS.replace(" w ", "\u{a0}w ")),
        FenError::BadPieceChar('\u{a0}')
    ));
    assert!(matches!(
        err(&STARTPOS.replace(' ', "\u{3000}")),
        FenError::FieldCount(1)
    ));
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
    for fen in epd_fens() {
        let chars: Vec<char> = fen.chars().collect();
        for i in 0..chars.len() {
            for &c in &alphabet {
                let mut m = chars.clone();
                m[i] = c;
                let text: String = m.iter().collect();
                if let Ok(p) = Position::from_fen(&text) {
                    assert_eq!(parse(&p.to_fen()), p, "{text}");
                }
                m.remove(i);
                let text: String = m.iter().collect();
                if let Ok(p) = Position::from_fen(&text) {
                    assert_eq!(parse(&p.to_fen()), p, "{text}");
                }
            }
        }
    }
}

#[test]
fn very_long_input_is_rejected() {
    // Many ranks.
    let many_ranks = format!("{} w - - 0 1", vec!["8"; 200_000].join("/"));
    assert!(matches!(err(&many_ranks), FenError::RankCount(200_000)));
    // One enormous rank of pieces.
    let wide = format!("{}/8/8/8/8/8/8/4K2k w - - 0 1", "Q".repeat(1_000_000));
    assert!(matches!(
        err(&wide),
        FenError::RankWidth {
            rank: 8,
            squares: 1_000_000
        }
    ));
    // One enormous rank of alternating digits and pieces.
    let wide = format!("{}/8/8/8/8/8/8/4K2k w - - 0 1", "8p".repeat(500_000));
    assert!(matches!(
        err(&wide),
        FenError::RankWidth {
            rank: 8,
            squares: 4_500_000
        }
    ));
    // Long clocks and fields.
    let clock = format!("{STARTPOS}{}", "0".repeat(1_000_000));
    assert!(matches!(err(&clock), FenError::BadClock { .. }));
    let clock = startpos_with(4, &format!("{}1", "0".repeat(1_000_000)));
    // Leading zeros make no number bigger: 000…01 is 1.
    assert_eq!(parse(&clock).halfmove_clock, 1);
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

#[test]
fn errors_display_as_one_line() {
    let fens = [
        "",
        "8/8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1",
        &startpos_with(1, "x"),
        &startpos_with(2, "X"),
        &startpos_with(3, "e9"),
        &startpos_with(4, "-1"),
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
    ];
    for fen in fens {
        let text = err(fen).to_string();
        assert!(!text.is_empty() && !text.contains('\n'), "{fen}: {text:?}");
    }
}

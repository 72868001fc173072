//! The command-line contract (README, "Command line") for `ccr perft`, `ccr tables`,
//! `ccr bitboards` and `ccr key`, run on the built binary.
//!
//! Results go to stdout (last line `Nodes searched: N`), timing to stderr; every error is
//! exactly one stderr line `error: …`, exit status 2, nothing on stdout and no panic text.

use crate::common;

use std::collections::BTreeSet;
use std::process::{Command, Output};

use ccr::Position;
use ccr::positions::{KIWIPETE, STARTPOS as STARTPOS_FEN};
use common::cli::{assert_no_panic, ccr, text};
use common::epd;

/// Runs a command that must succeed; returns its stdout lines.
fn success(args: &[&str]) -> Vec<String> {
    let out = ccr(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "ccr {args:?} failed with {:?}\nstdout: {stdout}\nstderr: {stderr}",
        out.status
    );
    assert_no_panic(&stderr);
    assert!(
        !stderr.contains("Nodes searched"),
        "ccr {args:?}: results on stderr: {stderr}"
    );
    assert!(stdout.ends_with('\n'), "ccr {args:?}: {stdout:?}");
    stdout.lines().map(String::from).collect()
}

/// The node count of a successful perft run, from its last stdout line.
fn nodes(args: &[&str]) -> u64 {
    let lines = success(args);
    let last = lines.last().expect("some output");
    last.strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("ccr {args:?}: last line {last:?}"))
}

/// Runs a command that must fail by the contract; returns its one stderr line.
fn failure(args: &[&str]) -> String {
    failed(ccr(args), args)
}

/// The one stderr line of a run of `ccr args` that failed by the contract.
fn failed(out: Output, args: &[&str]) -> String {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(2),
        "ccr {args:?}: exit status\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.is_empty(), "ccr {args:?}: stdout {stdout:?}");
    assert_no_panic(&stderr);
    assert_eq!(
        stderr.lines().count(),
        1,
        "ccr {args:?}: stderr must be one line: {stderr:?}"
    );
    assert!(stderr.ends_with('\n'), "ccr {args:?}: {stderr:?}");
    let line = stderr.trim_end_matches('\n').to_string();
    assert!(
        line.starts_with("error: ") && line.len() > "error: ".len(),
        "ccr {args:?}: {line:?}"
    );
    line
}

/// Parses `--divide` output: the `move: count` lines and the total.
fn divide(args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let lines = success(args);
    let (last, moves) = lines.split_last().expect("some output");
    let total = last
        .strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("ccr {args:?}: last line {last:?}"));
    let moves = moves
        .iter()
        .map(|line| {
            let (mv, n) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("ccr {args:?}: line {line:?}"));
            assert!(is_uci_move(mv), "ccr {args:?}: move {mv:?}");
            let n = n
                .parse()
                .unwrap_or_else(|_| panic!("ccr {args:?}: count in {line:?}"));
            (mv.to_string(), n)
        })
        .collect();
    (moves, total)
}

fn is_uci_move(mv: &str) -> bool {
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"nbrq".contains(&b[4]),
        _ => false,
    }
}

/// The legal moves of three positions in UCI text, listed by python-chess
/// (`sorted(m.uci() for m in chess.Board(fen).legal_moves)`), independently of ccr.
const STARTPOS_MOVES: &str = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 \
    f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4";
const KIWIPETE_MOVES: &str = "a1b1 a1c1 a1d1 a2a3 a2a4 b2b3 c3a4 c3b1 c3b5 c3d1 d2c1 d2e3 \
    d2f4 d2g5 d2h6 d5d6 d5e6 e1c1 e1d1 e1f1 e1g1 e2a6 e2b5 e2c4 e2d1 e2d3 e2f1 e5c4 e5c6 e5d3 \
    e5d7 e5f7 e5g4 e5g6 f3d3 f3e3 f3f4 f3f5 f3f6 f3g3 f3g4 f3h3 f3h5 g2g3 g2g4 g2h3 h1f1 h1g1";
const PROMOTION_MOVES: &str = "b7b8b b7b8n b7b8q b7b8r e1d1 e1d2 e1e2 e1f1 e1f2";

fn move_set(moves: &str) -> BTreeSet<String> {
    moves.split_whitespace().map(String::from).collect()
}

#[test]
fn depth_zero_is_one_node() {
    assert_eq!(success(&["perft", "0"]), ["Nodes searched: 1"]);
    assert_eq!(success(&["perft", "0", "--divide"]), ["Nodes searched: 1"]);
    assert_eq!(success(&["perft", "0", "--bulk"]), ["Nodes searched: 1"]);
    assert_eq!(
        success(&["perft", "0", "--fen", KIWIPETE]),
        ["Nodes searched: 1"]
    );
}

#[test]
fn divide_from_the_start() {
    let (moves, total) = divide(&["perft", "2", "--divide"]);
    assert_eq!(moves.len(), 20);
    assert_eq!(total, 400);
    for (mv, n) in &moves {
        assert_eq!(*n, 20, "{mv}");
    }
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), total);
    let printed: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(printed.len(), 20, "no move printed twice");
    assert_eq!(printed, move_set(STARTPOS_MOVES));
    assert!(printed.contains("e2e4") && printed.contains("g1f3"));
}

/// A Chess960 position (start position 0 after eight plies), both sides with all rights.
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

#[test]
fn perft_chess960_counts_and_writes_castling_as_the_king_taking_its_rook() {
    for (depth, count) in [("1", "21"), ("2", "528"), ("3", "12189"), ("4", "326672")] {
        let args = ["perft", depth, "--chess960", "--fen", CHESS960];
        assert_eq!(success(&args), [format!("Nodes searched: {count}")]);
    }
    // Castling at the root: the king on b1 takes its rook on a1 (queen side).
    let fen = "4k3/8/8/8/8/8/8/RK5R w AH - 0 1";
    let (moves, total) = divide(&["perft", "1", "--divide", "--chess960", "--fen", fen]);
    let printed: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
    assert!(
        printed.contains("b1a1") && printed.contains("b1h1"),
        "{printed:?}"
    );
    assert_eq!(total, moves.len() as u64);
    // The same setup read without Chess960, and a representation that keeps standard
    // chess's squares, are refused.
    let err = failure(&["perft", "1", "--fen", fen]);
    assert!(err.contains("Chess960"), "{err}");
    for repr in ["x88", "bitboard", "bitboard-native", "rotated"] {
        let err = failure(&["perft", "1", "--chess960", "--repr", repr, "--fen", fen]);
        assert!(err.contains("Chess960") && err.contains(repr), "{err}");
    }
    // A standard setup runs in every representation with or without the flag.
    for repr in ["ccr", "x88", "rotated"] {
        let args = [
            "perft",
            "3",
            "--chess960",
            "--repr",
            repr,
            "--fen",
            KIWIPETE,
        ];
        assert_eq!(success(&args), ["Nodes searched: 97862"], "{repr}");
    }
}

#[test]
fn divide_kiwipete_sums_to_the_total() {
    let (moves, total) = divide(&["perft", "2", "--divide", "--fen", KIWIPETE]);
    assert_eq!(moves.len(), 48);
    assert_eq!(total, 2039);
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), total);
    let printed: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(printed, move_set(KIWIPETE_MOVES));
    // Castling is printed as the king's move.
    assert!(printed.contains("e1g1") && printed.contains("e1c1"));
}

#[test]
fn divide_prints_promotions_with_their_piece() {
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    let (moves, total) = divide(&["perft", "1", "--divide", "--fen", fen]);
    let printed: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
    for promo in ["b7b8q", "b7b8r", "b7b8b", "b7b8n"] {
        assert!(printed.contains(promo), "{printed:?}");
    }
    assert_eq!(printed, move_set(PROMOTION_MOVES));
    assert_eq!(total, 9);
    assert!(moves.iter().all(|&(_, n)| n == 1));
}

#[test]
fn bulk_gives_the_same_counts() {
    assert_eq!(nodes(&["perft", "3", "--bulk"]), 8902);
    assert_eq!(nodes(&["perft", "1", "--bulk"]), 20);
    assert_eq!(
        divide(&["perft", "2", "--divide", "--bulk"]),
        divide(&["perft", "2", "--divide"])
    );
    assert_eq!(
        divide(&["perft", "3", "--bulk", "--divide", "--fen", KIWIPETE]),
        divide(&["perft", "3", "--divide", "--fen", KIWIPETE])
    );
}

#[test]
fn fen_option() {
    assert_eq!(nodes(&["perft", "2", "--fen", KIWIPETE]), 2039);
    // Options before the depth, and the four-field form.
    let four_fields = KIWIPETE.strip_suffix(" 0 1").expect("Kiwipete's clocks");
    assert_eq!(nodes(&["perft", "--fen", four_fields, "2"]), 2039);
    assert_eq!(nodes(&["perft", &format!("--fen={KIWIPETE}"), "1"]), 48);
}

#[test]
fn depth_2_counts_of_the_six_positions() {
    let mut checked = 0;
    for case in epd::load("standard-perft.epd") {
        let fen = case.fen.as_str();
        let expected = case.count(2).expect("a D2 count");
        assert_eq!(nodes(&["perft", "2", "--fen", fen]), expected, "{fen}");
        assert_eq!(
            nodes(&["perft", "2", "--bulk", "--fen", fen]),
            expected,
            "{fen}"
        );
        checked += 1;
    }
    assert_eq!(checked, 6, "the six standard positions");
}

#[test]
fn each_implementation_runs_the_kernel_it_names() {
    // The timing line names the kernel that ran: `simd` is this CPU's best tier (capped by
    // `CCR_SIMD_MAX`, which the child inherits), the others are themselves; the
    // representations without kernel choices run the portable code.
    let best = ccr::kernels::best_tier().map_or("portable", |tier| tier.name());
    let mut runs = vec![("ccr", "portable", "portable"), ("ccr", "simd", best)];
    runs.extend([
        ("bitboard", "portable", "portable"),
        ("bitboard", "simd", best),
    ]);
    runs.push(("x88", "portable", "portable"));
    if cfg!(ccr_asm) {
        runs.extend([("ccr", "asm", "asm"), ("bitboard", "asm", "asm")]);
    }
    for (repr, implementation, kernel) in runs {
        let args = ["perft", "2", "--repr", repr, "--impl", implementation];
        let out = ccr(&args);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "ccr {args:?}: {stderr}");
        assert!(
            stderr.trim_end().ends_with(&format!(", kernel {kernel}")),
            "ccr {args:?} should run {kernel}: {stderr}"
        );
    }
}

#[test]
fn representation_and_implementation_choices() {
    for repr in ["ccr", "x88", "bitboard", "bitboard-native", "rotated"] {
        assert_eq!(nodes(&["perft", "2", "--repr", repr]), 400, "{repr}");
        assert_eq!(
            nodes(&["perft", "3", "--repr", repr, "--impl", "portable", "--bulk"]),
            8902,
            "{repr}"
        );
        assert_eq!(
            nodes(&["perft", "3", "--fen", KIWIPETE, "--repr", repr]),
            97862,
            "{repr}"
        );
    }
    // The C.C.R. builds the enemy's attack table with AVX2 or assembly, `bitboard` converts
    // with SIMD or assembly; the assembly exists where build.rs found asm/ for the
    // architecture.
    for repr in ["ccr", "bitboard"] {
        let kiwipete = |implementation| {
            [
                "perft",
                "3",
                "--fen",
                KIWIPETE,
                "--repr",
                repr,
                "--impl",
                implementation,
            ]
        };
        assert_eq!(nodes(&kiwipete("simd")), 97862, "{repr}");
        if cfg!(ccr_asm) {
            assert_eq!(nodes(&kiwipete("asm")), 97862, "{repr}");
        } else {
            assert!(failure(&kiwipete("asm")).contains("asm"));
        }
    }
    for args in [
        ["perft", "2", "--repr", "foo"],
        ["perft", "2", "--repr", "CCR"],
        ["perft", "2", "--impl", "foo"],
    ] {
        let line = failure(&args);
        assert!(line.contains(args[3]), "{args:?}: {line}");
    }
    // 0x88, native and rotated bitboards have no SIMD or assembly path.
    for repr in ["x88", "bitboard-native", "rotated"] {
        for implementation in ["simd", "asm"] {
            let line = failure(&["perft", "2", "--repr", repr, "--impl", implementation]);
            assert!(
                line.contains(implementation) && line.contains(repr),
                "{line}"
            );
        }
    }
}

/// The divide of every representation lists the same root moves with the same counts.
#[test]
fn divide_agrees_across_representations() {
    let reference = divide(&["perft", "3", "--fen", KIWIPETE, "--divide"]);
    for repr in ["x88", "bitboard", "bitboard-native", "rotated"] {
        let (mut moves, total) =
            divide(&["perft", "3", "--fen", KIWIPETE, "--divide", "--repr", repr]);
        let mut expected = reference.0.clone();
        moves.sort();
        expected.sort();
        assert_eq!((moves, total), (expected, reference.1), "{repr}");
    }
}

// ---------------------------------------------------------------------------------------
// Errors

#[test]
fn bad_fen_is_one_error_line() {
    for fen in [
        "x",
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNё w KQkq - 0 1",
        "🙂",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\nw KQkq - 0 1 extra",
    ] {
        let line = failure(&["perft", "1", "--fen", fen]);
        assert!(line.starts_with("error: invalid FEN: "), "{fen:?}: {line}");
    }
    let long = "Q".repeat(100_000);
    let line = failure(&["perft", "1", "--fen", &long]);
    assert!(line.starts_with("error: invalid FEN: "));
}

#[test]
fn bad_depth() {
    for depth in [
        "-1",
        "abc",
        "99",
        "31",
        "1.5",
        "",
        "+",
        "3x",
        "99999999999999999999",
    ] {
        failure(&["perft", depth]);
    }
}

#[test]
fn missing_depth() {
    failure(&["perft"]);
    failure(&["perft", "--fen", KIWIPETE]);
    failure(&["perft", "--divide"]);
}

#[test]
fn unknown_flags_and_values() {
    failure(&["perft", "3", "--foo"]);
    failure(&["perft", "3", "-x"]);
    failure(&["perft", "3", "--fen"]);
    failure(&["perft", "3", "--repr"]);
    failure(&["perft", "3", "4"]);
    failure(&["perft", "3", "--divide=yes"]);
    failure(&["--foo"]);
}

#[test]
fn unknown_subcommand() {
    failure(&["frob"]);
    failure(&["perf", "3"]);
    failure(&["PERFT", "3"]);
    failure(&["ё"]);
}

#[cfg(unix)]
#[test]
fn non_utf8_arguments() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let bad = OsStr::from_bytes(b"\xff\xfe");
    for args in [
        vec![OsStr::new("perft"), bad],
        vec![bad],
        vec![
            OsStr::new("perft"),
            OsStr::new("2"),
            OsStr::new("--fen"),
            bad,
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(&args)
            .output()
            .expect("the ccr binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_no_panic(&stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

#[test]
fn repeated_flags_are_errors() {
    failure(&["perft", "2", "--divide", "--divide"]);
    failure(&["perft", "2", "--fen", KIWIPETE, "--fen", KIWIPETE]);
}

#[test]
fn help_and_version_succeed() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["perft", "--help"],
        &["--version"],
    ] {
        let out = ccr(args);
        assert!(out.status.success(), "ccr {args:?}: {:?}", out.status);
        assert!(!out.stdout.is_empty(), "ccr {args:?} prints to stdout");
        assert_no_panic(&text(&out.stderr));
    }
    let help = text(&ccr(&["perft", "--help"]).stdout);
    for option in ["--fen", "--repr", "--impl", "--bulk", "--divide"] {
        assert!(help.contains(option), "perft --help lacks {option}");
    }
}

/// Error messages keep what went wrong: the missing argument's name (on clap's second line),
/// not the program's description.
#[test]
fn error_lines_say_what_is_wrong() {
    let line = failure(&["perft"]);
    assert!(line.contains("DEPTH"), "{line}");
    let line = failure(&["frob"]);
    assert!(
        !line.contains("Compact Chessboard Representation"),
        "{line}"
    );
}

/// `ccr tables --fen FEN`: three lines of eight 8-digit lowercase hex words.
fn tables(fen: &str) -> Vec<String> {
    let lines = success(&["tables", "--fen", fen]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, name) in lines.iter().zip(["ccr", "white_attacks", "black_attacks"]) {
        let words = line
            .strip_prefix(&format!("{name}: "))
            .unwrap_or_else(|| panic!("{line:?} starts with {name}"));
        let words: Vec<&str> = words.split(' ').collect();
        assert_eq!(words.len(), 8, "{line:?}");
        for w in words {
            assert!(
                w.len() == 8
                    && w.bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "{line:?}"
            );
        }
    }
    lines
}

#[test]
fn tables_of_the_paper_figures() {
    // Figure 1: the board words of the paper; White's knight, bishop, rook and king.
    let lines = tables("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1");
    assert_eq!(
        lines[0],
        "ccr: 0000e000 00000000 00000000 00000000 00000020 00001000 40306000 00000000"
    );
    // Figure 3: BLACK_ATTACKS(+84) & 000F0000h == 00060000h (word 5 of the black table).
    let lines = tables("8/1k1r3b/4p3/2n5/8/3P4/1B2N1K1/7R w - - 0 1");
    let black: Vec<u32> = lines[2]["black_attacks: ".len()..]
        .split(' ')
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect();
    assert_eq!(black[5] & 0x000F_0000, 0x0006_0000);
}

/// The three tables (board, WHITE_ATTACKS, BLACK_ATTACKS) of three positions, computed with
/// python-chess, independently of ccr: word `y` is rank `8 - y`, nibble `x` file `h - x`; the
/// board nibble is the piece code (White P N B R Q K = 1..6, Black + 8), an attack nibble ORs
/// `8` for each pawn, `4` knight or bishop, `2` rook, `1` queen or king among
/// `board.attackers(colour, square)`.
const TABLES: [(&str, [&str; 3]); 3] = [
    (
        STARTPOS_FEN,
        [
            "cabdebac 99999999 00000000 00000000 00000000 00000000 11111111 42356324",
            "00000000 00000000 00000000 00000000 00000000 c8c88c8c 24155142 02111120",
            "02111120 24155142 c8c88c8c 00000000 00000000 00000000 00000000 00000000",
        ],
    ),
    (
        KIWIPETE,
        [
            "c000e00c 9099d9b0 ba009a90 00012000 09001000 00200509 11133111 40006004",
            "00000000 00040400 40c08144 040c0941 40405550 88dddc99 60015112 06676720",
            "42637764 24051106 08899586 041c080e 41404042 80840002 00004080 00000000",
        ],
    ),
    (
        ccr::positions::POSITION_3,
        [
            "00000000 00900000 00090000 6100000c 0400090e 00000000 00001010 00000000",
            "00000000 00000000 91800000 03000000 31222200 02080808 02000000 02000000",
            "00000002 00000002 08080002 02a2a231 00000012 00008091 00000000 00000000",
        ],
    ),
];

#[test]
fn tables_match_python_chess() {
    for (fen, expected) in TABLES {
        let lines = tables(fen);
        assert_eq!(lines.len(), 3, "{fen}: {lines:?}");
        for (line, words) in lines.iter().zip(expected) {
            assert!(line.ends_with(words), "{fen}: {line}, want {words}");
        }
    }
}

#[test]
fn tables_errors() {
    assert!(failure(&["tables"]).contains("--fen"));
    assert!(
        failure(&["tables", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"])
            .starts_with("error: invalid FEN: ")
    );
    failure(&["tables", "--fen"]);
    failure(&["tables", "--fen", STARTPOS_FEN, "--bulk"]);
}

/// `ccr bitboards --fen FEN`: sixteen `CODE: HEX16` lines, codes 0..15 in order.
fn bitboards(fen: &str) -> Vec<u64> {
    let lines = success(&["bitboards", "--fen", fen]);
    assert_eq!(lines.len(), 16, "{lines:?}");
    lines
        .iter()
        .enumerate()
        .map(|(code, line)| {
            let hex = line
                .strip_prefix(&format!("{code}: "))
                .unwrap_or_else(|| panic!("line {code}: {line:?}"));
            assert!(
                hex.len() == 16
                    && hex
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "line {code}: {line:?}"
            );
            u64::from_str_radix(hex, 16).expect("hex")
        })
        .collect()
}

#[test]
fn bitboards_of_the_start_position() {
    let boards = bitboards(STARTPOS_FEN);
    // Bit 8 * word + nibble, word 0 = rank 8, nibble 0 = file h.
    assert_eq!(boards[0], 0x0000_FFFF_FFFF_0000, "empty: ranks 6 to 3");
    assert_eq!(boards[1], 0x00FF_0000_0000_0000, "white pawns: word 6");
    assert_eq!(
        boards[4], 0x8100_0000_0000_0000,
        "white rooks: a1 bit 63, h1 bit 56"
    );
    assert_eq!(boards[6], 0x0800_0000_0000_0000, "white king: e1 bit 59");
    assert_eq!(boards[9], 0x0000_0000_0000_FF00, "black pawns: word 1");
    assert_eq!(boards[13], 0x0000_0000_0000_0010, "black queen: d8 bit 4");
    assert_eq!(boards[14], 0x0000_0000_0000_0008, "black king: e8 bit 3");
    for code in [7, 8, 15] {
        assert_eq!(boards[code], 0, "code {code} is no piece");
    }
    // The figure 1 knight on g4: word 4, nibble 1.
    assert_eq!(
        bitboards("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1")[2],
        1 << 33
    );
}

/// The piece code of each square read straight from a FEN's board field (White P N B R Q K
/// = 1..6, Black + 8, empty 0), indexed `8 * (8 - rank) + (h - file)` like the bitboards.
fn codes_from_fen(fen: &str) -> [usize; 64] {
    let mut codes = [0; 64];
    let board = fen.split(' ').next().expect("a board field");
    let ranks: Vec<&str> = board.split('/').collect();
    assert_eq!(ranks.len(), 8, "{fen}");
    for (word, rank) in ranks.iter().enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(empty) = c.to_digit(10) {
                file += empty as usize;
                continue;
            }
            let kind = "PNBRQK"
                .find(c.to_ascii_uppercase())
                .unwrap_or_else(|| panic!("{fen}: piece {c}"));
            let colour = if c.is_ascii_lowercase() { 8 } else { 0 };
            codes[8 * word + (7 - file)] = kind + 1 + colour;
            file += 1;
        }
        assert_eq!(file, 8, "{fen}: rank {rank}");
    }
    codes
}

#[test]
fn bitboards_partition_the_board() {
    let mut checked = 0;
    for fen in epd::fens("standard-perft.epd") {
        let fen = fen.as_str();
        let boards = bitboards(fen);
        let codes = codes_from_fen(fen);
        for (i, &code) in codes.iter().enumerate() {
            for (c, board) in boards.iter().enumerate() {
                assert_eq!(
                    board >> i & 1 == 1,
                    c == code,
                    "{fen}: square {i}, board {c}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 6, "the six standard positions");
}

#[test]
fn bitboards_errors() {
    assert!(failure(&["bitboards"]).contains("--fen"));
    assert!(failure(&["bitboards", "--fen", "x"]).starts_with("error: invalid FEN: "));
    failure(&["bitboards", "--fen"]);
    failure(&["bitboards", "--fen", STARTPOS_FEN, "--divide"]);
}

/// Runs `ccr key ARGS` with `input` on stdin.
fn key_run(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ccr"))
        .arg("key")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the ccr binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("ccr key finishes")
}

/// Rotation keys computed in Python from the key's definition (src/ccr/keys.rs: splitmix64's
/// output function, the finaliser of the word plus 0x9E3779B97F4A7C15, of each rank word
/// rotated by its prime, XOR the state terms; side, castling and
/// a legal en passant from python-chess's board), independently of ccr: the six standard
/// positions, one with a legal en-passant capture on f6 and one whose e3 cannot be taken.
const ROTATION_KEYS: [(&str, &str); 8] = [
    (STARTPOS_FEN, "f015263a20019f09"),
    (KIWIPETE, "ac5de384c91a7d8b"),
    (ccr::positions::POSITION_3, "db6d0c4049108fcc"),
    (ccr::positions::POSITION_4, "874e3dbc8fa8433d"),
    (ccr::positions::POSITION_5, "f993cf2fc21b8909"),
    (ccr::positions::POSITION_6, "50b685ed4a446f16"),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "780156aed6199716",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "225d9edbf1b4951a",
    ),
];

#[test]
fn key_one_line_per_fen() {
    let fens: Vec<&str> = ROTATION_KEYS.iter().map(|(fen, _)| *fen).collect();
    let input = fens.join("\r\n") + "\n\n";
    let out = key_run(&[], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), fens.len());
    for (line, (fen, key)) in lines.iter().zip(ROTATION_KEYS) {
        assert_eq!(line, key, "{fen}");
    }
    // Zobrist keys come from a seeded table of random numbers, which only the key-statistics
    // crate has: the command must print its keys.
    let out = key_run(&["--zobrist"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), fens.len());
    for (line, fen) in lines.iter().zip(&fens) {
        let expected = common::zobrist::key(&Position::from_fen(fen).unwrap());
        assert_eq!(line, &format!("{expected:016x}"), "{fen}");
    }
    let rotation = text(&key_run(&[], &input).stdout);
    let zobrist = text(&key_run(&["--zobrist"], &input).stdout);
    assert_ne!(rotation, zobrist);
}

#[test]
fn key_polyglot_gives_the_formats_keys() {
    // The keys the Polyglot book format's specification lists for a line from the start:
    // after 1. e4 no black pawn stands beside e4, so e3 does not count; after 2. e5 f5 the
    // e5 pawn does, so f6 counts.
    let cases = [
        (STARTPOS_FEN, "463b96181691fc9c"),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "823c9b50fd114196",
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "22a48b5a8e47ff78",
        ),
        (
            "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
            "00fdd303c946bdd9",
        ),
    ];
    let input: String = cases.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    let out = key_run(&["--polyglot"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    let want: Vec<&str> = cases.iter().map(|(_, key)| *key).collect();
    assert_eq!(lines, want);
    // Refused before standard input is read.
    let out = key_run(&["--polyglot", "--zobrist"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn key_chess960_tells_rook_files_apart() {
    let fens = "4k3/8/8/8/8/8/8/4K1RR w G - 0 1\n4k3/8/8/8/8/8/8/4K1RR w H - 0 1\n";
    let out = key_run(&["--chess960"], fens);
    assert!(out.status.success());
    let keys = text(&out.stdout);
    let keys: Vec<&str> = keys.lines().collect();
    assert_eq!(keys.len(), 2);
    assert_ne!(keys[0], keys[1]);
    // The standard start keys the same either way.
    let standard = key_run(&[], &format!("{STARTPOS_FEN}\n"));
    let chess960 = key_run(&["--chess960"], &format!("{STARTPOS_FEN}\n"));
    assert_eq!(text(&standard.stdout), text(&chess960.stdout));
    // Without the flag a Chess960 setup is a bad line.
    let out = key_run(&[], fens);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Chess960"));
    let out = key_run(&["--chess960", "--zobrist"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn key_rejects_a_bad_line_and_writes_nothing() {
    let out = key_run(&[], &format!("{STARTPOS_FEN}\nnot a fen\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: invalid FEN: line 2: "),
        "{stderr}"
    );
    let out = key_run(&[], "");
    assert!(out.status.success() && out.stdout.is_empty());
    let out = key_run(&["--bogus"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// The node count of `ccr bench` at its default depth (with the network evaluator, the
/// engine as it plays): the search's signature, the same on every build (x86_64 and i686).
/// It changes exactly when what the engine searches changes; update it then, and say why in
/// the commit.
const BENCH_SIGNATURE: u64 = 777_398;

/// The signature with the frame evaluator (and the bitboard one, which scores alike): the
/// search the paper's measurements run.
const FRAME_SIGNATURE: u64 = 728_422;

/// `ccr bench`, at the default depth, counts exactly the signature's nodes.
#[test]
fn bench_signature() {
    let lines = success(&["bench"]);
    let last = lines.last().unwrap();
    let nodes: u64 = last.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(nodes, BENCH_SIGNATURE, "{last}");
}

/// `ccr bench --eval bitboards` searches the frame's tree: the bitboard evaluator gives the
/// frame's score on every position, so the signature is the same; `--eval network` is the
/// default's.
#[test]
fn bench_signature_with_each_evaluator() {
    for (eval, signature) in [
        ("bitboards", FRAME_SIGNATURE),
        ("frame", FRAME_SIGNATURE),
        ("network", BENCH_SIGNATURE),
    ] {
        let lines = success(&["bench", "--eval", eval]);
        let last = lines.last().unwrap();
        let nodes: u64 = last.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(nodes, signature, "--eval {eval}: {last}");
    }
}

/// `ccr bench [DEPTH]`: one line per position, then `N nodes N nps`; the same count each run.
#[test]
fn bench_prints_a_deterministic_signature() {
    let run = || {
        let lines = success(&["bench", "4"]);
        let last = lines.last().unwrap().clone();
        let fields: Vec<&str> = last.split(' ').collect();
        assert_eq!(fields.len(), 4, "{last}");
        assert_eq!((fields[1], fields[3]), ("nodes", "nps"), "{last}");
        assert!(fields[0].parse::<u64>().unwrap() > 1000, "{last}");
        assert!(fields[2].parse::<u64>().is_ok(), "{last}");
        assert_eq!(lines.len(), ccr::bench::POSITIONS.len() + 1);
        fields[0].to_string()
    };
    assert_eq!(run(), run());
    failure(&["bench", "0"]);
    failure(&["bench", "x"]);
    failure(&["bench", "4", "5"]);
}

/// `ccr bench --profile` reports on stderr where the search went: the quiescence search's
/// share of the nodes (out of the total the last stdout line gives) and of the sampled time,
/// and the bytes copy-make copies per node for every representation's position. Without
/// `--profile` stderr is empty: the signature is the last line on either stream.
#[test]
fn bench_profile_on_stderr() {
    let quiet = ccr(&["bench", "5"]);
    assert!(quiet.status.success());
    assert_eq!(text(&quiet.stderr), "", "bench without --profile");
    let out = ccr(&["bench", "5", "--profile"]);
    assert!(out.status.success());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_no_panic(&stderr);
    let total: u64 = stdout
        .lines()
        .last()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    // quiescence P % of nodes (Q of N), T % of time (S of M samples)
    let fields: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(
        (fields[0], fields[2], fields[9], fields[15]),
        ("quiescence", "%", "%", "samples)"),
        "{}",
        lines[0]
    );
    let number = |f: &str| {
        f.trim_matches(|c| c == '(' || c == ')' || c == ',')
            .parse::<f64>()
            .unwrap()
    };
    let (quiescence, nodes) = (number(fields[5]), number(fields[7]));
    assert_eq!(nodes as u64, total, "{}", lines[0]);
    assert!(quiescence > 0.0 && quiescence < nodes, "{}", lines[0]);
    assert!(
        (number(fields[1]) - 100.0 * quiescence / nodes).abs() < 0.06,
        "{}",
        lines[0]
    );
    let (in_quiescence, samples) = (number(fields[12]), number(fields[14]));
    assert!(in_quiescence <= samples, "{}", lines[0]);
    // copy-make C positions per node; bytes copied per node (position size): ccr B (48 B), …
    let (copies, sizes) = lines[1]
        .split_once("; bytes copied per node (position size): ")
        .unwrap();
    let per_node = number(
        copies
            .strip_prefix("copy-make ")
            .unwrap()
            .strip_suffix(" positions per node")
            .unwrap(),
    );
    assert!(per_node > 0.5, "{}", lines[1]);
    let mut names = Vec::new();
    for entry in sizes.split(", ") {
        let parts: Vec<&str> = entry.split(' ').collect();
        let (bytes, size) = (number(parts[1]), number(parts[2]));
        assert!((bytes - per_node * size).abs() < 0.1, "{entry}");
        names.push(parts[0]);
    }
    let expected: Vec<&str> = ccr::Repr::ALL.iter().map(|r| r.name()).collect();
    assert_eq!(names, expected);
    assert!(
        sizes.starts_with(&format!(
            "ccr {:.1} ({} B)",
            per_node * size_of::<Position>() as f64,
            size_of::<Position>()
        )),
        "{sizes}"
    );
}

/// `ccr` alone and `ccr uci` speak UCI on stdin/stdout and end at `quit` or end of input.
#[test]
fn bare_command_and_uci_speak_the_protocol() {
    use std::io::Write;
    use std::process::Stdio;
    for args in [&[][..], &["uci"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 3\n")
            .unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let stdout = text(&out.stdout);
        assert!(stdout.contains("uciok\nreadyok\n"), "{stdout}");
        assert_eq!(stdout.matches("bestmove ").count(), 1, "{stdout}");
        assert!(text(&out.stderr).is_empty());
    }
}

/// `ccr datagen` then `ccr tune`, end to end on a tiny run; their errors are one line.
#[test]
fn datagen_and_tune_run_end_to_end() {
    let dir = std::env::temp_dir().join(format!("ccr-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (data, weights) = (dir.join("data.txt"), dir.join("weights.rs"));
    let _ = std::fs::remove_file(&data);
    let (data_arg, weights_arg) = (data.to_str().unwrap(), weights.to_str().unwrap());
    success(&[
        "datagen", "--games", "2", "--nodes", "300", "--out", data_arg,
    ]);
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.lines().count() > 20, "{lines}");
    for line in lines.lines() {
        let (fen, result) = line.split_once(';').unwrap();
        assert!(Position::from_fen(fen).is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
    }
    let args = [
        "tune",
        "--data",
        data_arg,
        "--epochs",
        "20",
        "--from-move",
        "1",
    ];
    success(&[&args[..], &["--out", weights_arg]].concat());
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(
        text.contains("pub const WEIGHTS: [S; param::COUNT] = ["),
        "{text}"
    );
    assert_eq!(text.matches("s(").count(), ccr::tune::param::COUNT);

    failure(&[
        "tune",
        "--data",
        "/nonexistent/ccr-data",
        "--out",
        weights_arg,
    ]);
    failure(&[&args[..], &["--out", weights_arg, "--freeze", "bogus"]].concat());
    failure(&["datagen", "--games", "0", "--out", data_arg]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ccr datagen --scores` then `ccr train`, end to end on a tiny run: the records carry the
/// search's score, the network written is one `ccr eval --via network` could load (the
/// built-in network's length and magic), and the errors are one line.
#[test]
fn datagen_scores_and_train_run_end_to_end() {
    let dir = std::env::temp_dir().join(format!("ccr-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (data, network) = (dir.join("data.txt"), dir.join("network.bin"));
    let _ = std::fs::remove_file(&data);
    let (data_arg, network_arg) = (data.to_str().unwrap(), network.to_str().unwrap());
    success(&[
        "datagen", "--games", "2", "--nodes", "300", "--scores", "--out", data_arg,
    ]);
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.lines().count() > 20, "{lines}");
    for line in lines.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let pos = Position::from_fen(fields[0]).unwrap();
        assert!(!pos.in_check(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[1]), "{line}");
        let score: i32 = fields[2].parse().unwrap();
        assert!(score.abs() < 30_000, "{line}");
    }
    // The tuner reads the same records, its score aside.
    let weights = dir.join("weights.rs");
    let tune = [
        "tune",
        "--data",
        data_arg,
        "--epochs",
        "2",
        "--from-move",
        "1",
    ];
    success(&[&tune[..], &["--out", weights.to_str().unwrap()]].concat());

    let train = [
        "train", "--data", data_arg, "--epochs", "2", "--batch", "64",
    ];
    success(&[&train[..], &["--out", network_arg]].concat());
    let written = std::fs::read(&network).unwrap();
    let built_in = include_bytes!("../src/eval/network.bin");
    assert_eq!(written.len(), built_in.len());
    assert_eq!(written[..8], built_in[..8]);
    assert_ne!(written, built_in);

    failure(&[
        "train",
        "--data",
        "/nonexistent/ccr-data",
        "--out",
        network_arg,
    ]);
    failure(&["train", "--data", data_arg, "--out", data_arg]);
    failure(&[&train[..], &["--out", network_arg, "--lambda", "2"]].concat());
    failure(&[&train[..], &["--out", network_arg, "--rate", "nan"]].concat());
    failure(&[&train[..], &["--out", network_arg, "--epochs", "0"]].concat());
    // Records without scores are no network's data.
    let unscored = dir.join("unscored.txt");
    std::fs::write(&unscored, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1.0\n").unwrap();
    let line = failure(&[
        "train",
        "--data",
        unscored.to_str().unwrap(),
        "--out",
        network_arg,
    ]);
    assert!(line.contains("--scores"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Threads whose tables do not fit in memory are one error line, not a panic (the address
/// space limited to 1.5 GB, 200 games on 200 threads, a 16 MiB table each).
#[cfg(target_os = "linux")]
#[test]
fn datagen_without_memory_is_one_error_line() {
    let out_file = std::env::temp_dir().join(format!("ccr-oom-{}.txt", std::process::id()));
    let out_arg = out_file.to_str().unwrap();
    let args = [
        "datagen",
        "--games",
        "200",
        "--nodes",
        "100",
        "--threads",
        "200",
        "--out",
        out_arg,
    ];
    let out = Command::new("sh")
        .args(["-c", "ulimit -v 1500000 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_ccr"))
        .args(args)
        .output()
        .expect("sh runs");
    let line = failed(out, &args);
    assert!(line.contains("no memory"), "{line}");
    let _ = std::fs::remove_file(&out_file);
}

//! What the integration tests share: the reader of the perft files in `tests/data/`,
//! running the built `ccr` binary, the move choice of the random games and the Zobrist
//! baseline on the engine's positions (the standard positions by name are `ccr::positions`).

/// The Zobrist baseline's view of a position, shared with the binary.
#[path = "../../src/cli/on_board.rs"]
pub mod on_board;

/// The perft files of `tests/data/`, read by the library's reader (`ccr::positions::parse_perft`).
pub mod epd {
    pub use ccr::positions::PerftCase as Case;

    /// The positions of `tests/data/{file}`, in file order.
    pub fn load(file: &str) -> Vec<Case> {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        ccr::positions::parse_perft(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The FENs of `tests/data/{file}`, without their annotations.
    pub fn fens(file: &str) -> Vec<String> {
        load(file).into_iter().map(|case| case.fen).collect()
    }
}

/// Running the built binary.
pub mod cli {
    use std::path::Path;
    use std::process::{Command, Output};

    /// Runs `ccr args` to the end, with no standard input.
    pub fn ccr(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(args)
            .output()
            .expect("the ccr binary runs")
    }

    /// Output bytes as text; the binary writes only UTF-8.
    pub fn text(bytes: &[u8]) -> String {
        String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
    }

    /// A path as a command-line argument (the test directories are UTF-8).
    pub fn arg(path: &Path) -> &str {
        path.to_str().expect("a UTF-8 temp path")
    }

    /// `ccr tune` fitting `data` for `epochs` epochs from move 1 into `weights`.
    pub fn tune_args<'a>(data: &'a Path, weights: &'a Path, epochs: &'a str) -> Vec<&'a str> {
        let (data, weights) = (arg(data), arg(weights));
        let args = ["tune", "--data", data, "--out", weights, "--epochs", epochs];
        [&args[..], &["--from-move", "1"]].concat()
    }

    /// `ccr datagen` of `games` games at `nodes` nodes a move, appended to `out`.
    pub fn datagen_args<'a>(out: &'a Path, games: &'a str, nodes: &'a str) -> Vec<&'a str> {
        vec![
            "datagen",
            "--games",
            games,
            "--nodes",
            nodes,
            "--out",
            arg(out),
        ]
    }

    /// Fails the test if `stderr` shows a panic.
    pub fn assert_no_panic(stderr: &str) {
        for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace", "thread '"] {
            assert!(!stderr.contains(bad), "panic text in stderr: {stderr}");
        }
    }
}

/// Seeded random games: the library's walker (`ccr::positions::random_game`) over many starts.
pub mod games {
    pub use ccr::positions::random_game;
    use ccr::{Move, Position};

    /// Moves as UCI text, one space between them.
    pub fn line_text(moves: &[Move]) -> String {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `games` random games of at most `max_plies` moves from each of the FENs `starts`, game
    /// `g` of start `s` seeded `seed + 1000 s + g`: `visit` sees every position with its start
    /// FEN and the moves from there. Returns how many positions it saw.
    pub fn random_games<S: AsRef<str>>(
        starts: &[S],
        games: u64,
        seed: u64,
        max_plies: usize,
        mut visit: impl FnMut(&Position, &str, &[Move]),
    ) -> usize {
        let mut positions = 0;
        for (s, fen) in starts.iter().map(AsRef::as_ref).enumerate() {
            let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for game in 0..games {
                let seed = seed + 1000 * s as u64 + game;
                random_game(start, seed, max_plies, |pos, _, line| {
                    visit(pos, fen, line);
                    positions += 1;
                    true
                });
            }
        }
        positions
    }
}

/// The Zobrist baseline of the key statistics (`ccr_keystats::Zobrist`) on the engine's positions.
pub mod zobrist {
    use ccr::Position;
    use ccr_keystats::Zobrist;

    use super::on_board::OnBoard;

    /// The Zobrist key of a position, from scratch.
    pub fn key(pos: &Position) -> u64 {
        Zobrist::get().key(&OnBoard(pos))
    }

    /// The Zobrist key of `after`, updated from `key`, the key of `before`.
    pub fn update(key: u64, before: &Position, after: &Position) -> u64 {
        Zobrist::get().update(key, &OnBoard(before), &OnBoard(after))
    }
}

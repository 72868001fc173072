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

    /// The positions of `standard-perft.epd`, then of `tricky-perft.epd`, each with its case.
    pub fn perft_positions() -> Vec<(Case, ccr::Position)> {
        let mut positions = Vec::new();
        for file in ["standard-perft.epd", "tricky-perft.epd"] {
            for case in load(file) {
                let pos = ccr::Position::from_fen(&case.fen);
                let pos = pos.unwrap_or_else(|e| panic!("{}: {e}", case.id));
                positions.push((case, pos));
            }
        }
        positions
    }
}

/// Running the built binary.
pub mod cli {
    use std::fmt::Display;
    use std::path::Path;
    use std::process::{Child, Command, Output, Stdio};
    use std::time::{Duration, Instant};

    /// Runs `ccr args` to the end, with no standard input.
    pub fn ccr(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(args)
            .output()
            .expect("the ccr binary runs")
    }

    /// Starts `ccr args` with its stdout and stderr piped.
    pub fn spawn_ccr(args: &[&str]) -> Child {
        Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the ccr binary runs")
    }

    /// Waits for `child` (the run `what`) to end and returns its output; kills it and fails
    /// the test if it still runs after `limit`.
    pub fn wait_within(mut child: Child, limit: Duration, what: impl Display) -> Output {
        let start = Instant::now();
        while child.try_wait().expect("wait works").is_none() {
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{what} still ran after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        child.wait_with_output().expect("output")
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

    /// `ccr keystats` of `positions` positions with the arguments `more`, its working files
    /// in `dir`.
    pub fn keystats_args<'a>(positions: &'a str, dir: &'a Path, more: &[&'a str]) -> Vec<&'a str> {
        let args = ["keystats", "--positions", positions, "--dir", arg(dir)];
        [&args[..], more].concat()
    }

    /// Fails the test if `stderr` shows a panic.
    pub fn assert_no_panic(stderr: &str) {
        for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace", "thread '"] {
            assert!(!stderr.contains(bad), "panic text in stderr: {stderr}");
        }
    }

    /// Fails the test unless the run `what` failed by the contract: exit status 2, nothing
    /// on stdout, no panic and one stderr line `error: …`, which it returns.
    pub fn assert_one_error_line(out: &Output, what: impl std::fmt::Debug) -> String {
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{what:?}: {stdout}\n{stderr}");
        assert!(stdout.is_empty(), "{what:?}: stdout {stdout:?}");
        assert_no_panic(&stderr);
        assert_eq!(stderr.lines().count(), 1, "{what:?}: {stderr:?}");
        assert!(stderr.starts_with("error: "), "{what:?}: {stderr:?}");
        stderr
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

    /// The start FEN and the seed of each of `games` games from each of `starts`: game `g` of
    /// start `s` is seeded `seed + 1000 s + g`.
    pub fn seeds<'a>(
        starts: impl IntoIterator<Item = &'a str>,
        games: u64,
        seed: u64,
    ) -> impl Iterator<Item = (&'a str, u64)> {
        let starts = starts.into_iter().enumerate();
        starts.flat_map(move |(s, fen)| (0..games).map(move |g| (fen, seed + 1000 * s as u64 + g)))
    }

    /// Seeded random games from a few start positions, and the positions they must reach.
    pub struct Plan {
        /// How many of the standard positions (`ccr::positions::STANDARD`, in order) the games
        /// start from.
        pub standard: usize,
        /// The FENs of the other start positions.
        pub more: &'static [&'static str],
        /// Games from each start position.
        pub games_per_start: u64,
        /// A game ends after this many plies at the latest.
        pub max_plies: usize,
        /// The fewest positions the games must reach between them.
        pub min_positions: usize,
        /// The seed of the first game of the first start; the others as [`seeds`] says.
        pub seed: u64,
    }

    impl Plan {
        /// The start positions' FENs.
        pub fn starts(&self) -> impl Iterator<Item = &'static str> {
            let standard = &ccr::positions::STANDARD[..self.standard];
            standard.iter().chain(self.more).copied()
        }

        /// The start FEN and the seed of each game.
        pub fn games(&self) -> impl Iterator<Item = (&'static str, u64)> {
            seeds(self.starts(), self.games_per_start, self.seed)
        }

        /// Fails the test unless the games reached `positions` at least `min_positions`.
        pub fn assert_reached(&self, positions: usize) {
            let min = self.min_positions;
            assert!(
                positions >= min,
                "only {positions} positions checked, want at least {min}"
            );
        }
    }

    /// `games` random games of at most `max_plies` moves from each of the FENs `starts`, seeded
    /// as [`seeds`] says: `visit` sees every position with its start FEN and the moves from
    /// there. Returns how many positions it saw.
    pub fn random_games<S: AsRef<str>>(
        starts: &[S],
        games: u64,
        seed: u64,
        max_plies: usize,
        mut visit: impl FnMut(&Position, &str, &[Move]),
    ) -> usize {
        let mut positions = 0;
        for (fen, seed) in seeds(starts.iter().map(AsRef::as_ref), games, seed) {
            let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            random_game(start, seed, max_plies, |pos, _, line| {
                visit(pos, fen, line);
                positions += 1;
                true
            });
        }
        positions
    }

    /// Ten random games of at most 199 plies from each position of `standard-perft.epd`, seeded
    /// as [`seeds`] says: `visit` sees every position. Fails the test unless they reach 3000
    /// positions at least; returns how many they reached.
    pub fn standard_games(seed: u64, mut visit: impl FnMut(&Position)) -> usize {
        let starts = super::epd::fens("standard-perft.epd");
        let positions = random_games(&starts, 10, seed, 199, |pos, _, _| visit(pos));
        assert!(positions >= 3000, "only {positions} positions");
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

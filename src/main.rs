//! The `ccr` command line (SPEC section 8). Errors are one line `error: …` on stderr and
//! exit status 2; results go to stdout, timing to stderr.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

#[cfg(ccr_asm)]
use ccr::asm::AsmPosition;
use ccr::bitboard::{Bitboards, Hybrid};
use ccr::ccr::Position;
use ccr::ccr::attacks::AttackBlock;
use ccr::ccr::fen::STARTPOS;
use ccr::ccr::keys::{KeyScheme, RotationKey, Zobrist};
use ccr::ccr::simd::SimdPosition;
#[cfg(ccr_asm)]
use ccr::convert::Asm;
use ccr::convert::{Portable, Simd, to_bitboards};
use ccr::perft::{self, Leaves};
use ccr::repr::Representation;
use ccr::x88::X88;

/// A chess engine on the Compact Chessboard Representation.
#[derive(Parser)]
#[command(name = "ccr", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games and write their quiet positions labelled with the results
    /// (`FEN;RESULT` lines), the tuner's training data.
    Datagen {
        /// Games to play.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Nodes per move.
        #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Where to write (appended to).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the evaluation's weights to labelled positions (Texel's method) and write them
    /// in the form of src/eval/weights.rs.
    Tune {
        /// `FEN;RESULT` lines (as `ccr datagen` writes them).
        #[arg(long)]
        data: std::path::PathBuf,
        /// Gradient steps.
        #[arg(long, default_value_t = 2_000)]
        epochs: usize,
        /// Adam's step size (centipawns).
        #[arg(long, default_value_t = 0.5)]
        rate: f64,
        /// Pull toward the starting weights (L2, per centipawn²).
        #[arg(long, default_value_t = 1e-9)]
        l2: f64,
        /// Skip positions before this move number (close to the random opening).
        #[arg(long, default_value_t = 10)]
        from_move: u16,
        /// Weight groups to keep as they are, comma-separated: material, pst.
        #[arg(long, default_value = "")]
        freeze: String,
        /// Where to write the weights file.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Speak UCI on stdin/stdout (also what `ccr` alone does).
    Uci,
    /// Search a fixed set of positions to a fixed depth (OpenBench style; last line
    /// `N nodes N nps`). The node count is the search's signature.
    Bench {
        /// The depth of every search.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=64), default_value_t = ccr::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
    /// Count the leaves of the legal move tree (last stdout line: `Nodes searched: N`).
    Perft {
        /// Plies to search.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
        depth: u32,
        /// Start from this position instead of the initial one.
        #[arg(long, default_value = STARTPOS)]
        fen: String,
        /// Board representation: ccr, x88, bitboard (the paper's hybrid: C.C.R. in the
        /// tree, converted to bitboards for move generation) or bitboard-native (bitboards
        /// made move by move).
        #[arg(long, default_value = "ccr")]
        repr: String,
        /// Implementation: portable, simd or asm (hand-written x86, where built). With --repr
        /// ccr they build the enemy's attack table (AVX2 / assembly; the assembly also gives
        /// the sliders' targets), with --repr bitboard they convert the board; 0x88 and
        /// bitboard-native are portable only.
        #[arg(long = "impl", default_value = "portable")]
        implementation: String,
        /// Count the last ply's legal moves without making them.
        #[arg(long)]
        bulk: bool,
        /// Print `move: count` for each root move first.
        #[arg(long)]
        divide: bool,
    },
    /// Read FEN lines on stdin, write one 16-hex-digit key per line (SPEC section 8).
    Key {
        /// The Zobrist baseline instead of the rotation key.
        #[arg(long)]
        zobrist: bool,
    },
    /// Print the board and both attack tables as hex rank words (SPEC section 8).
    Tables {
        /// The position.
        #[arg(long)]
        fen: String,
    },
    /// Print the 16 bitboards converted from the C.C.R., one `CODE: HEX16` line per piece
    /// code (SPEC sections 6 and 8).
    Bitboards {
        /// The position.
        #[arg(long)]
        fen: String,
    },
    /// Measure the rotation key against Zobrist over N distinct positions: collisions,
    /// truncated keys against the birthday bound, avalanche, table-index spread, cost
    /// (markdown tables on stdout, progress on stderr).
    Keystats {
        /// Distinct positions to collect, at least (1000000, 1e8, 100M, …).
        #[arg(long, value_name = "N", default_value = "1000000", value_parser = ccr::keystats::parse_count)]
        positions: u64,
        /// Seed of the random games.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Directory for the working files (a subdirectory ccr-keystats-<pid>, removed at the
        /// end; about 120 bytes per position) [default: the system temp directory].
        #[arg(long, value_name = "PATH")]
        dir: Option<std::path::PathBuf>,
    },
}

/// A failure to report as `error: …` with exit status 2.
struct Failure(String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print and succeed.
            let _ = write!(io::stdout(), "{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&Failure(one_line(&e))),
    };
    let Some(command) = cli.command else {
        return uci();
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => fail(&failure),
    }
}

/// Clap's message on one line: what precedes its usage block, without tips, whitespace
/// collapsed.
fn one_line(error: &clap::Error) -> String {
    let text = error.to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .filter(|line| !line.trim_start().starts_with("tip:"))
        .flat_map(str::split_whitespace)
        .collect();
    let message = message.join(" ");
    match message.strip_prefix("error: ") {
        Some(rest) => rest.to_string(),
        None if message.is_empty() => "bad arguments (see 'ccr --help')".to_string(),
        None => message,
    }
}

fn fail(failure: &Failure) -> ExitCode {
    let _ = writeln!(io::stderr(), "error: {}", failure.0);
    ExitCode::from(2)
}

/// Checks a `--repr` or `--impl` choice against what this build offers.
fn check_choice(
    option: &str,
    value: &str,
    available: &[&str],
    planned: &[&str],
) -> Result<(), Failure> {
    if available.contains(&value) {
        Ok(())
    } else if planned.contains(&value) {
        Err(Failure(format!(
            "{option} {value} is not built yet; available: {}",
            available.join(", ")
        )))
    } else {
        Err(Failure(format!(
            "unknown {option} '{value}'; available: {}",
            available.join(", ")
        )))
    }
}

/// Parses a FEN for a command, as the contract's one-line error on failure.
fn position(fen: &str) -> Result<Position, Failure> {
    Position::from_fen(fen).map_err(|e| Failure(format!("invalid FEN: {e}")))
}

/// Writes all of a command's output at once, so an error leaves nothing half-written.
fn emit(out: &str) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure(format!("cannot write the result: {e}")))
}

/// The UCI loop on stdin/stdout.
fn uci() -> ExitCode {
    let out = ccr::uci::Output::new(Box::new(io::stdout()));
    ccr::uci::Uci::new(out).run(io::stdin().lock());
    ExitCode::SUCCESS
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Datagen {
            games,
            nodes,
            random_plies,
            seed,
            threads,
            out,
        } => {
            let config = ccr::tune::datagen::Config {
                games,
                nodes,
                random_plies,
                seed,
            };
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .map_err(|e| Failure(format!("cannot open {}: {e}", out.display())))?;
            let start = Instant::now();
            let written = ccr::tune::datagen::run(&config, threads as usize, &mut file).map_err(
                |e| match e.kind() {
                    io::ErrorKind::OutOfMemory => Failure(format!("datagen: {e}")),
                    _ => Failure(format!("cannot write {}: {e}", out.display())),
                },
            )?;
            emit(&format!(
                "{games} games, {written} positions written to {} in {:.1} s\n",
                out.display(),
                start.elapsed().as_secs_f64()
            ))
        }
        Command::Tune {
            data,
            epochs,
            rate,
            l2,
            freeze,
            from_move,
            out,
        } => {
            use ccr::tune::texel;
            let mut frozen = Vec::new();
            for name in freeze.split(',').filter(|n| !n.is_empty()) {
                let group = texel::FREEZABLE
                    .iter()
                    .find(|(n, _)| *n == name)
                    .ok_or_else(|| {
                        Failure(format!(
                            "--freeze: unknown group '{name}'; groups: material, pst"
                        ))
                    })?;
                frozen.push(group.1.clone());
            }
            let text = std::fs::read_to_string(&data)
                .map_err(|e| Failure(format!("cannot read {}: {e}", data.display())))?;
            let (samples, skipped) = texel::load(&text, from_move);
            if samples.is_empty() {
                return Err(Failure(format!(
                    "no usable positions in {}",
                    data.display()
                )));
            }
            let start = ccr::eval::weights::WEIGHTS;
            let _ = writeln!(
                io::stderr(),
                "{} positions ({skipped} skipped)",
                samples.len()
            );
            // Every tenth position is held out to watch for overfitting.
            let (validation, train): (Vec<_>, Vec<_>) = samples
                .into_iter()
                .enumerate()
                .partition(|(i, _)| i % 10 == 9);
            let strip =
                |v: Vec<(usize, texel::Sample)>| v.into_iter().map(|(_, s)| s).collect::<Vec<_>>();
            let (train, validation) = (strip(train), strip(validation));
            let settings = texel::Settings {
                epochs,
                rate,
                l2,
                frozen,
            };
            let (weights, k) = texel::tune(
                &train,
                &validation,
                &start,
                &settings,
                &mut |epoch, train, valid| {
                    let _ = writeln!(
                        io::stderr(),
                        "epoch {epoch}: error {train:.6}, held out {valid:.6}"
                    );
                },
            );
            let held_out = |w: &[ccr::eval::S]| texel::error_of(&validation, w, k);
            let summary = format!(
                "K {k:.3}; held-out error {:.6} before, {:.6} after; weights written to {}\n",
                held_out(&start),
                held_out(&weights),
                out.display()
            );
            let provenance = format!(
                "//! Fitted by `ccr tune --epochs {epochs} --rate {rate} --l2 {l2} --freeze '{freeze}' --from-move {from_move}`\n\
                 //! (Texel's method, K = {k:.3}) to {} positions of `ccr datagen` self-play\n\
                 //! ({} more held out; docs/STRENGTH.md, \"Tuning\").",
                train.len(),
                validation.len()
            );
            std::fs::write(&out, texel::weights_file(&weights, &provenance))
                .map_err(|e| Failure(format!("cannot write {}: {e}", out.display())))?;
            emit(&summary)
        }
        Command::Uci => {
            uci();
            Ok(())
        }
        Command::Bench { depth } => {
            let (lines, elapsed) = ccr::bench::run(depth);
            let mut out = String::new();
            for (i, line) in lines.iter().enumerate() {
                let best = line
                    .outcome
                    .best
                    .map_or("(none)".to_string(), |m| m.to_string());
                out.push_str(&format!(
                    "position {:2} bestmove {best:5} nodes {:9} {}\n",
                    i + 1,
                    line.outcome.nodes,
                    line.fen
                ));
            }
            let nodes: u64 = lines.iter().map(|l| l.outcome.nodes).sum();
            let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
            out.push_str(&format!("{nodes} nodes {nps} nps\n"));
            emit(&out)
        }
        Command::Keystats {
            positions,
            seed,
            dir,
        } => {
            let dir = dir.unwrap_or_else(std::env::temp_dir);
            let config = ccr::keystats::Config::new(positions, seed, dir);
            let report = ccr::keystats::run(&config).map_err(Failure)?;
            emit(&report.to_markdown())
        }
        Command::Key { zobrist } => {
            let input = io::read_to_string(io::stdin())
                .map_err(|e| Failure(format!("cannot read standard input: {e}")))?;
            let scheme: &dyn KeyScheme = if zobrist {
                Zobrist::get()
            } else {
                &RotationKey
            };
            let mut out = String::new();
            // Blank lines are skipped; any bad line fails the whole run before anything is written.
            for (number, line) in input
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let pos = Position::from_fen(line)
                    .map_err(|e| Failure(format!("invalid FEN: line {}: {e}", number + 1)))?;
                out.push_str(&format!("{:016x}\n", scheme.key(&pos)));
            }
            emit(&out)
        }
        Command::Tables { fen } => {
            let block = AttackBlock::new(&position(&fen)?.board);
            let mut out = String::new();
            for (name, part) in ["ccr", "white_attacks", "black_attacks"]
                .iter()
                .zip(block.parts())
            {
                let words: Vec<String> = part.iter().map(|w| format!("{w:08x}")).collect();
                out.push_str(&format!("{name}: {}\n", words.join(" ")));
            }
            emit(&out)
        }
        Command::Bitboards { fen } => {
            let boards = to_bitboards(&position(&fen)?.board);
            let out: String = boards
                .iter()
                .enumerate()
                .map(|(code, board)| format!("{code}: {board:016x}\n"))
                .collect();
            emit(&out)
        }
        Command::Perft {
            depth,
            fen,
            repr,
            implementation,
            bulk,
            divide,
        } => {
            const REPRS: [&str; 4] = ["ccr", "x88", "bitboard", "bitboard-native"];
            check_choice("--repr", &repr, &REPRS, &[])?;
            // The assembly is there when build.rs found asm/ for this architecture.
            let (impls, missing): (&[&str], &[&str]) = if cfg!(ccr_asm) {
                (&["portable", "simd", "asm"], &[])
            } else {
                (&["portable", "simd"], &["asm"])
            };
            check_choice("--impl", &implementation, impls, missing)?;
            let built = implementations(&repr);
            if !built.contains(&implementation.as_str()) {
                return Err(Failure(format!(
                    "--impl {implementation} is not built for --repr {repr}; built: {}",
                    built.join(", ")
                )));
            }
            let pos = position(&fen)?;
            let leaves = if bulk { Leaves::Bulk } else { Leaves::Make };
            let start = Instant::now();
            let (out, nodes) = match (repr.as_str(), implementation.as_str()) {
                ("ccr", "simd") => count::<SimdPosition>(&pos, depth, leaves, divide),
                #[cfg(ccr_asm)]
                ("ccr", "asm") => count::<AsmPosition>(&pos, depth, leaves, divide),
                ("ccr", _) => count::<Position>(&pos, depth, leaves, divide),
                ("x88", _) => count::<X88>(&pos, depth, leaves, divide),
                ("bitboard", "simd") => count::<Hybrid<Simd>>(&pos, depth, leaves, divide),
                #[cfg(ccr_asm)]
                ("bitboard", "asm") => count::<Hybrid<Asm>>(&pos, depth, leaves, divide),
                ("bitboard", _) => count::<Hybrid<Portable>>(&pos, depth, leaves, divide),
                _ => count::<Bitboards>(&pos, depth, leaves, divide),
            };
            let seconds = start.elapsed().as_secs_f64();
            emit(&out)?;
            let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
            let _ = writeln!(io::stderr(), "time {seconds:.3} s, {rate:.1} M nodes/s");
            Ok(())
        }
    }
}

/// The implementations built for a representation: the C.C.R. takes the enemy's attack
/// table from AVX2 (`simd`) or the assembly (`asm`), the bitboard hybrid its conversion;
/// 0x88 and native bitboards are portable only.
fn implementations(repr: &str) -> Vec<&'static str> {
    let asm = cfg!(ccr_asm);
    match repr {
        "ccr" | "bitboard" if asm => vec!["portable", "simd", "asm"],
        "ccr" | "bitboard" => vec!["portable", "simd"],
        _ => vec!["portable"],
    }
}

/// Perft (or divide) in representation `R`: the output text and the node count.
fn count<R: Representation>(
    pos: &Position,
    depth: u32,
    leaves: Leaves,
    divide: bool,
) -> (String, u64) {
    let board = R::from_position(pos);
    let mut out = String::new();
    let nodes = if divide {
        let split = perft::divide(&board, depth, leaves);
        for (mv, n) in &split {
            out.push_str(&format!("{mv}: {n}\n"));
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|&(_, n)| n).sum()
        }
    } else {
        perft::perft(&board, depth, leaves)
    };
    out.push_str(&format!("Nodes searched: {nodes}\n"));
    (out, nodes)
}

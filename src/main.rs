//! The `ccr` command line (README, "Command line"). Errors are one line `error: …` on stderr and
//! exit status 2; results go to stdout, timing to stderr. A result that cannot be written
//! (a full disk, a closed or broken stdout) is such an error too.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use ccr::bitboard::to_bitboards;
use ccr::ccr::fen::STARTPOS;
use ccr::ccr::keys::{KeyScheme, RotationKey, Zobrist};
use ccr::perft::{self, Leaves};
use ccr::{AttackBlock, Impl, Position, Repr, Representation, Variant, WithRepresentation};

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
        /// Adam's step size (centipawns; finite, above 0).
        #[arg(long, default_value_t = 0.5, value_parser = positive_finite, allow_hyphen_values = true)]
        rate: f64,
        /// Pull toward the starting weights (L2, per centipawn²; finite, at least 0).
        #[arg(long, default_value_t = 1e-9, value_parser = non_negative_finite, allow_hyphen_values = true)]
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
    /// Read FEN lines on stdin, write one 16-hex-digit key per line.
    Key {
        /// The Zobrist baseline instead of the rotation key.
        #[arg(long)]
        zobrist: bool,
    },
    /// Print the board and both attack tables as hex rank words.
    Tables {
        /// The position.
        #[arg(long)]
        fen: String,
    },
    /// Print the 16 bitboards converted from the C.C.R., one `CODE: HEX16` line per piece
    /// code (square bit `8 * word + nibble`, word 0 = rank 8, nibble 0 = file h).
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

/// A floating-point argument that is finite and above 0.
fn positive_finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(_) => Err(format!("'{text}' is not a finite number above 0")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

/// A floating-point argument that is finite and at least 0.
fn non_negative_finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Ok(_) => Err(format!("'{text}' is not a finite number of at least 0")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

fn main() -> ExitCode {
    // The CPU's features, once, before any command uses a kernel.
    ccr::arch::init();
    // A write past a file-size limit fails with an error to report (and a partial record to
    // take back) instead of killing the process.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" runs no code of ours.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    if let Err(failure) = check_stdout() {
        return fail(&failure);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print and succeed, if the text gets out.
            return match emit(&e.to_string()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(failure) => fail(&failure),
            };
        }
        Err(e) => return fail(&Failure(one_line(&e))),
    };
    let Some(command) = cli.command else {
        return uci();
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let code = fail(&failure);
            // A run stopped by a signal ends with the shell's status for it, 128 + N.
            match ccr::keystats::stopped_by() {
                Some(signal) => ExitCode::from((128 + signal) as u8),
                None => code,
            }
        }
    }
}

/// Fails if the standard output was closed when the program started: every command writes
/// its result there, and the output would be lost in silence. The Rust runtime puts the null
/// device, opened for reading and writing, in place of a closed standard descriptor before
/// `main`; a shell's `>/dev/null` opens it for writing only, so that one is still accepted.
fn check_stdout() -> Result<(), Failure> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let fd = libc::STDOUT_FILENO;
        // SAFETY: F_GETFL only queries the descriptor's flags.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        let closed = flags == -1
            || (flags & libc::O_ACCMODE == libc::O_RDWR && {
                let null = std::fs::metadata("/dev/null");
                // SAFETY: a zeroed stat is a valid value for fstat to fill.
                let mut stat: libc::stat = unsafe { std::mem::zeroed() };
                // SAFETY: fstat writes into the stat it is given and nothing else.
                let fstat = unsafe { libc::fstat(fd, &mut stat) };
                null.is_ok_and(|null| {
                    fstat == 0
                        && null.file_type().is_char_device()
                        && stat.st_rdev as u64 == null.rdev()
                })
            });
        if closed {
            return Err(Failure(
                "cannot write the result: standard output is closed".to_string(),
            ));
        }
    }
    Ok(())
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

/// Checks a `--repr` or `--impl` choice against what this build offers: its place in
/// `available`.
fn check_choice(
    option: &str,
    value: &str,
    available: &[&str],
    planned: &[&str],
) -> Result<usize, Failure> {
    if let Some(index) = available.iter().position(|&a| a == value) {
        Ok(index)
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

/// Reads a whole text file into a buffer reserved fallibly (training data can be large).
fn read_text(path: &std::path::Path) -> Result<String, Failure> {
    use std::io::Read;
    let cannot = |e: io::Error| Failure(format!("cannot read {}: {e}", path.display()));
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    let mut text = String::new();
    let size = usize::try_from(len).unwrap_or(usize::MAX);
    text.try_reserve_exact(size).map_err(|_| {
        Failure(format!(
            "no memory to read {} ({len} bytes)",
            path.display()
        ))
    })?;
    file.read_to_string(&mut text).map_err(cannot)?;
    Ok(text)
}

/// All of standard input as text, in a buffer grown fallibly (it can be as long as the user
/// likes).
fn read_stdin() -> Result<String, Failure> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1 << 14];
    let mut stdin = io::stdin().lock();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure(format!("cannot read standard input: {e}"))),
        };
        bytes.try_reserve(n).map_err(|_| {
            Failure(format!(
                "no memory to read standard input (after {} bytes)",
                bytes.len()
            ))
        })?;
        bytes.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure("cannot read standard input: stream did not contain valid UTF-8".to_string())
    })
}

/// Whether two paths name one existing file (the same device and inode, whatever the
/// spelling: links, `..`, symbolic links).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
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
            use ccr::tune::datagen::{self, Error};
            let start = Instant::now();
            let written = datagen::run(&config, threads as usize, &out).map_err(|e| match e {
                Error::NoMemory(e) => Failure(format!("datagen: {e}")),
                Error::Open(e) => Failure(format!("cannot open {}: {e}", out.display())),
                Error::Write(e) => Failure(format!(
                    "cannot write {}: {e} (it keeps the games written before)",
                    out.display()
                )),
            })?;
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
            if same_file(&data, &out) {
                return Err(Failure(format!(
                    "--out {} is the --data file; the weights would overwrite the training data",
                    out.display()
                )));
            }
            let text = read_text(&data)?;
            let (samples, skipped) = texel::load(&text, from_move).map_err(Failure)?;
            drop(text);
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
            let held = samples.len() / 10;
            let mut validation = texel::buffer(held, "the held-out positions").map_err(Failure)?;
            let mut train =
                texel::buffer(samples.len() - held, "the training positions").map_err(Failure)?;
            for (i, sample) in samples.into_iter().enumerate() {
                if i % 10 == 9 {
                    validation.push(sample);
                } else {
                    train.push(sample);
                }
            }
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
            )
            .map_err(|e| Failure(format!("tune: {e}")))?;
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
            let (lines, elapsed) = ccr::bench::run(depth).map_err(Failure)?;
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
            let (dir, option) = match dir {
                Some(dir) => (dir, "--dir"),
                None => (std::env::temp_dir(), "the temporary directory"),
            };
            if !dir.is_dir() {
                let what = if dir.exists() {
                    "not a directory"
                } else {
                    "no such directory"
                };
                return Err(Failure(format!("{option} {}: {what}", dir.display())));
            }
            ccr::keystats::catch_signals();
            let config = ccr::keystats::Config::new(positions, seed, dir);
            let report = ccr::keystats::run(&config).map_err(Failure)?;
            emit(&report.to_markdown())
        }
        Command::Key { zobrist } => {
            let input = read_stdin()?;
            let scheme: &dyn KeyScheme = if zobrist {
                Zobrist::get()
            } else {
                &RotationKey
            };
            // 17 bytes per key line, reserved fallibly: the input can be as long as the user likes.
            let mut out = String::new();
            out.try_reserve_exact(input.lines().count().saturating_mul(17))
                .map_err(|_| Failure("no memory for the keys".to_string()))?;
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
            let reprs = Repr::ALL.map(Repr::name);
            let chosen = Repr::ALL[check_choice("--repr", &repr, &reprs, &[])?];
            // The assembly is there when build.rs found asm/ for this architecture.
            let (impls, missing): (Vec<Impl>, Vec<Impl>) =
                Impl::ALL.into_iter().partition(|i| i.is_built());
            let names = |list: &[Impl]| list.iter().map(|i| i.name()).collect::<Vec<_>>();
            let index = check_choice("--impl", &implementation, &names(&impls), &names(&missing))?;
            let Some(variant) = Variant::new(chosen, impls[index]) else {
                return Err(Failure(format!(
                    "--impl {implementation} is not built for --repr {repr}; built: {}",
                    names(&chosen.implementations()).join(", ")
                )));
            };
            let pos = position(&fen)?;
            let leaves = if bulk { Leaves::Bulk } else { Leaves::Make };
            let start = Instant::now();
            let (out, nodes) = variant.dispatch(Count {
                pos: &pos,
                depth,
                leaves,
                divide,
            });
            let seconds = start.elapsed().as_secs_f64();
            emit(&out)?;
            let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
            let _ = writeln!(io::stderr(), "time {seconds:.3} s, {rate:.1} M nodes/s");
            Ok(())
        }
    }
}

/// Perft (or divide) of `pos` to `depth`.
struct Count<'a> {
    pos: &'a Position,
    depth: u32,
    leaves: Leaves,
    divide: bool,
}

impl WithRepresentation for Count<'_> {
    /// The output text and the node count.
    type Output = (String, u64);

    fn run<R: Representation>(self, _: Variant) -> (String, u64) {
        let Count {
            pos,
            depth,
            leaves,
            divide,
        } = self;
        count::<R>(pos, depth, leaves, divide)
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

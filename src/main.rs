//! The `ccr` command line (README, "Command line"). Errors are one line `error: …` on stderr and
//! exit status 2; results go to stdout, timing to stderr. A result that cannot be written
//! (a full disk, a closed or broken stdout) is such an error too. Each command is a module of
//! [`cli`]: its arguments and the function that runs it.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};

use cli::{Failure, emit};

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
    Datagen(cli::tune::DatagenArgs),
    /// Fit the evaluation's weights to labelled positions (Texel's method) and write them
    /// in the form of src/eval/weights.rs.
    Tune(cli::tune::TuneArgs),
    /// Train the network evaluation on positions with search scores (`ccr datagen
    /// --scores`) and write it in the form of src/eval/network.bin.
    Train(cli::tune::TrainArgs),
    /// Speak UCI on stdin/stdout (also what `ccr` alone does).
    Uci,
    /// Search a fixed set of positions to a fixed depth (OpenBench style; last line
    /// `N nodes N nps`). The node count is the search's signature.
    Bench(cli::bench::Args),
    /// Print a position's static evaluation by term group (last line: centipawns from the
    /// side to move's view).
    Eval(cli::eval::Args),
    /// Count the leaves of the legal move tree (last stdout line: `Nodes searched: N`).
    Perft(cli::perft::Args),
    /// Read FEN lines on stdin, write one 16-hex-digit key per line.
    Key(cli::key::Args),
    /// Read FEN lines on stdin, write each one's Syzygy tablebase values: `wdl W dtz D`
    /// (from the side to move's view) or `not in tables: WHY`.
    Probe(cli::probe::Args),
    /// Print the board and both attack tables as hex rank words.
    Tables(cli::tables::Args),
    /// Print the 16 bitboards converted from the C.C.R., one `CODE: HEX16` line per piece
    /// code (square bit `8 * word + nibble`, word 0 = rank 8, nibble 0 = file h).
    Bitboards(cli::tables::Args),
    /// Measure the rotation key against Zobrist over N distinct positions: collisions,
    /// truncated keys against the birthday bound, avalanche, table-index spread, cost
    /// (markdown tables on stdout, progress on stderr).
    Keystats(cli::keystats::Args),
}

fn main() -> ExitCode {
    // The CPU's features, once, before any command uses a kernel.
    ccr::init();
    // A panic is a bug: it ends the process (after its message), as `panic = "abort"` would,
    // instead of ending one thread and leaving the others to wait on it. The release
    // profile unwinds only so that the tests share its build (Cargo.toml).
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        std::process::abort();
    }));
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
    // `ccr "genfens 10 seed 1 book None" quit`: arguments that hold a space are UCI commands,
    // one per argument (how OpenBench's worker runs an engine); no subcommand holds one.
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if words
        .first()
        .is_some_and(|w| w.contains(char::is_whitespace))
    {
        return uci_commands(&words);
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
            match ccr_keystats::stopped_by() {
                Some(signal) => ExitCode::from((128 + signal) as u8),
                None => code,
            }
        }
    }
}

/// Whether descriptor 1 was closed when the process started, as [`look_at_stdout`] saw it.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// [`look_at_stdout`] as a constructor: the C library runs the functions of `.init_array`
/// before `main`, and so before the Rust runtime, which opens the null device in place of a
/// closed standard descriptor (and would hide a closed output from any later look).
// SAFETY: the function has the signature the C library calls `.init_array` entries with, and
// it only queries a descriptor and stores to an atomic, which needs nothing set up.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static LOOK_AT_STDOUT: extern "C" fn(libc::c_int, *const *const u8, *const *const u8) =
    look_at_stdout;

/// Records whether descriptor 1 is closed (`fcntl` fails with `EBADF`).
#[cfg(target_os = "linux")]
extern "C" fn look_at_stdout(_argc: libc::c_int, _argv: *const *const u8, _env: *const *const u8) {
    // SAFETY: F_GETFL only queries the descriptor's flags.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    let closed = flags == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Fails if the standard output was closed when the program started: every command writes
/// its result there, and the output would be lost in silence. Output thrown away on purpose
/// (the null device, opened for writing or for reading and writing) is not lost. Only Linux
/// builds have the constructor that sees the descriptor before the Rust runtime does;
/// elsewhere a closed standard output goes unnoticed.
fn check_stdout() -> Result<(), Failure> {
    #[cfg(target_os = "linux")]
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Err(Failure(
            "cannot write the result: standard output is closed".to_string(),
        ));
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

/// The UCI loop on stdin/stdout.
fn uci() -> ExitCode {
    uci_on(io::stdin().lock())
}

/// The UCI loop on `input`, answering on stdout.
fn uci_on(input: impl io::BufRead) -> ExitCode {
    let out = ccr::UciOutput::new(Box::new(io::stdout()));
    ccr::Uci::new(out).run(input);
    ExitCode::SUCCESS
}

/// The UCI commands of the command line, each carried out to its end; nothing is read from
/// stdin.
fn uci_commands(commands: &[String]) -> ExitCode {
    let out = ccr::UciOutput::new(Box::new(io::stdout()));
    ccr::Uci::new(out).run_arguments(commands);
    ExitCode::SUCCESS
}

/// Runs one command.
fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Datagen(args) => cli::tune::datagen(args),
        Command::Tune(args) => cli::tune::tune(args),
        Command::Train(args) => cli::tune::train(args),
        Command::Uci => {
            uci();
            Ok(())
        }
        Command::Bench(args) => cli::bench::run(args),
        Command::Eval(args) => cli::eval::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Key(args) => cli::key::run(args),
        Command::Probe(args) => cli::probe::run(args),
        Command::Tables(args) => cli::tables::tables(args),
        Command::Bitboards(args) => cli::tables::bitboards(args),
        Command::Keystats(args) => cli::keystats::run(args),
    }
}

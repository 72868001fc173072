//! `ccr datagen` (self-play training data) and `ccr tune` (Texel's method on it).

use std::io::{self, Write};
use std::time::Instant;

use super::whole_file::WholeFile;
use super::{Failure, emit};

/// The arguments of `ccr datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Random plies at the start of each game, below 400 (the plies after which a game is
    /// called a draw, these included); a game that they end, by mate, stalemate, repetition
    /// or the fifty-move rule, gives no positions.
    #[arg(
        long,
        default_value_t = 8,
        value_parser = clap::value_parser!(u32).range(..i64::from(ccr::tune::datagen::GAME_PLIES))
    )]
    random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Start positions, one per line as FEN or EPD (its first four fields; `#` lines are
    /// comments): game `i` starts from the `i`-th, cycling, before its random plies.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Write the positions as searched where the search found them quiet, with the search's
    /// score for White (`FEN;RESULT;SCORE`, the network's data for `ccr train`), instead of
    /// the resolved positions with their results.
    #[arg(long)]
    scores: bool,
    /// The evaluator the games are searched with: frame (the evaluator `ccr tune` fits),
    /// network (the engine as it plays, for the network's own data) or bitboards.
    #[arg(long, value_name = "EVAL", default_value = "frame", value_parser = super::parse_evaluator)]
    eval: ccr::Evaluator,
    /// Where to write (appended to; locked for the run, and refused if it holds something
    /// other than records).
    #[arg(long)]
    out: std::path::PathBuf,
}

/// The arguments of `ccr tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// `FEN;LABEL` lines: LABEL a result for White (1.0, 0.5, 0.0, 1-0, 1/2-1/2, 0-1, as
    /// `ccr datagen` writes them) or an expected score from 0 to 1 (`scripts/label.py`).
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
    /// Where to write the weights file, whole or not at all.
    #[arg(long)]
    out: std::path::PathBuf,
}

/// The arguments of `ccr train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// `FEN;RESULT;SCORE` lines (`ccr datagen --scores`); may be given more than once.
    #[arg(long, required = true)]
    data: Vec<std::path::PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    batch: u32,
    /// Adam's first step size (finite, above 0); a tenth over the last 40 % of the epochs,
    /// a hundredth over the last 15 %.
    #[arg(long, default_value_t = 0.001, value_parser = positive_finite, allow_hyphen_values = true)]
    rate: f64,
    /// The search score's share of the label, the rest the game's result (0 to 1).
    #[arg(long, default_value_t = 1.0, value_parser = unit_interval, allow_hyphen_values = true)]
    lambda: f64,
    /// Threads summing each step's gradient (at most the CPUs the system gives the process).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Seed of the first weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the network (the form of src/eval/network.bin), whole or not at all.
    #[arg(long)]
    out: std::path::PathBuf,
}

/// Runs `ccr train`.
pub fn train(args: TrainArgs) -> Result<(), Failure> {
    use ccr::tune::{texel, train};
    let TrainArgs {
        data,
        epochs,
        batch,
        rate,
        lambda,
        threads,
        seed,
        out,
    } = args;
    if let Some(path) = data.iter().find(|path| same_file(path, &out)) {
        return Err(Failure(format!(
            "--out {} is a --data file; the network would overwrite the training data",
            path.display()
        )));
    }
    let out_file = WholeFile::check("--out", &out)?;
    let mut text = String::new();
    for path in &data {
        let part = read_text(path)?;
        text.try_reserve(part.len() + 1)
            .map_err(|_| Failure(format!("no memory to read {}", path.display())))?;
        text.push_str(&part);
        text.push('\n');
    }
    let (samples, skipped) = train::load(&text).map_err(Failure)?;
    drop(text);
    if samples.is_empty() {
        return Err(Failure(
            "no FEN;RESULT;SCORE positions in the --data files (ccr datagen --scores writes them)"
                .to_string(),
        ));
    }
    let _ = writeln!(
        io::stderr(),
        "{} positions ({skipped} skipped)",
        samples.len()
    );
    // Every hundredth position is held out to watch for overfitting (in the lines' sorted
    // order, whatever order the data's threads wrote them in).
    let held_count = samples.len() / 100;
    let mut held = texel::buffer(held_count, "the held-out positions").map_err(Failure)?;
    let mut kept =
        texel::buffer(samples.len() - held_count, "the training positions").map_err(Failure)?;
    for (i, sample) in samples.into_iter().enumerate() {
        if i % 100 == 99 {
            held.push(sample);
        } else {
            kept.push(sample);
        }
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = train::Config {
        epochs: epochs as usize,
        batch: batch as usize,
        rate: rate as f32,
        lambda: lambda as f32,
        threads: (threads as usize).min(cpus),
        seed,
    };
    let start = Instant::now();
    let trained = train::train(&config, &mut kept, &held, &mut |epoch, error, held| {
        let held = match held {
            Some(held) => format!("held out {held:.6}"),
            None => "none held out".to_string(),
        };
        let _ = writeln!(
            io::stderr(),
            "epoch {epoch}: error {error:.6}, {held} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
    });
    let failed = |e: String| Failure(format!("train: {e}"));
    let network = trained.map_err(failed)?;
    let trained_error = train::error(&network, &kept, config.lambda).map_err(failed)?;
    let summary = if held.is_empty() {
        format!(
            "{} positions trained, none held out (fewer than 100 positions); error \
             {trained_error:.6} trained",
            kept.len()
        )
    } else {
        let held_error = train::error(&network, &held, config.lambda).map_err(failed)?;
        format!(
            "{} positions trained, {} held out; error {trained_error:.6} trained, \
             {held_error:.6} held out",
            kept.len(),
            held.len()
        )
    };
    out_file.write(network.to_bytes().map_err(failed)?)?;
    emit(&format!(
        "{summary}; network written to {}\n",
        out.display()
    ))
}

/// Runs `ccr datagen`.
pub fn datagen(args: DatagenArgs) -> Result<(), Failure> {
    let DatagenArgs {
        games,
        nodes,
        random_plies,
        seed,
        threads,
        openings,
        scores,
        eval,
        out,
    } = args;
    let starts = match &openings {
        Some(path) => start_positions(path)?,
        None => Vec::new(),
    };
    let config = ccr::tune::datagen::Config {
        games,
        nodes,
        random_plies,
        seed,
        starts,
        scores,
        evaluator: eval,
    };
    use ccr::tune::datagen::{self, Error, NotData, Unterminated};
    let start = Instant::now();
    let shown = out.display();
    let mut opened = |unterminated: &Unterminated| {
        let said = match unterminated {
            Unterminated::Completed => format!(
                "datagen: the last line of {shown} had no newline; it is a record, kept with \
                 its newline added"
            ),
            Unterminated::Dropped { bytes, start } => format!(
                "datagen: the last line of {shown} had no newline and is not a record; \
                 dropped it ({bytes} bytes, starting {start:?})"
            ),
        };
        let _ = writeln!(io::stderr(), "{said}");
    };
    let written = datagen::run(&config, threads as usize, &out, &mut opened).map_err(|e| {
        Failure(match e {
            Error::NoMemory(e) => format!("datagen: {e}"),
            Error::Open(e) => format!("cannot open {shown}: {e}"),
            Error::Locked => format!(
                "cannot write {shown}: another process holds its lock (another ccr datagen \
                 writing to it); nothing was written"
            ),
            Error::NotData(NotData::LastLine) => format!(
                "{shown} is not datagen data (its last line is not a FEN;RESULT record); \
                 nothing was written to it"
            ),
            Error::NotData(NotData::Tail) => format!(
                "{shown} is not datagen data (it ends in a line without its newline that is \
                 neither a record nor a record cut short); nothing was written to it"
            ),
            Error::Write {
                error,
                cut: Some(cut),
                ..
            } => format!(
                "cannot write {shown}: {error}; cutting off the partial record failed too \
                 ({cut}): the file may end in part of a record"
            ),
            Error::Write {
                error, games: 0, ..
            } => format!("cannot write {shown}: {error}; no game was written to it"),
            Error::Write {
                error,
                games,
                positions,
                cut: None,
            } => {
                let plural = if games == 1 { "" } else { "s" };
                format!(
                    "cannot write {shown}: {error}; it keeps the {games} whole game{plural} \
                     ({positions} positions) written before"
                )
            }
        })
    })?;
    emit(&format!(
        "{games} games, {written} positions written to {} in {:.1} s\n",
        out.display(),
        start.elapsed().as_secs_f64()
    ))
}

/// The positions of an openings file: FEN lines, or EPD lines whose first four fields are
/// the position (their operations are ignored); blank and `#` lines skipped.
fn start_positions(path: &std::path::Path) -> Result<Vec<ccr::Position>, Failure> {
    ccr::tune::read_book(&read_text(path)?)
        .map_err(|e| Failure(format!("--openings {}: {e}", path.display())))
}

/// Runs `ccr tune`.
pub fn tune(args: TuneArgs) -> Result<(), Failure> {
    let TuneArgs {
        data,
        epochs,
        rate,
        l2,
        freeze,
        from_move,
        out,
    } = args;
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
    let out_file = WholeFile::check("--out", &out)?;
    let text = read_text(&data)?;
    let (samples, skipped) = texel::load(&text, from_move).map_err(Failure)?;
    drop(text);
    if samples.is_empty() {
        return Err(Failure(format!(
            "no usable positions in {}",
            data.display()
        )));
    }
    let start = ccr::tune::WEIGHTS;
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
    let held_out = |w: &[ccr::tune::S]| texel::error_of(&validation, w, k);
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
    out_file.write(texel::weights_file(&weights, &provenance))?;
    emit(&summary)
}

/// A floating-point argument that is finite and above 0.
fn positive_finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(_) => Err(format!("'{text}' is not a finite number above 0")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

/// A floating-point argument from 0 to 1.
fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Ok(_) => Err(format!("'{text}' is not a number from 0 to 1")),
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

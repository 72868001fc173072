//! The UCI protocol: commands read on one thread, the search on another, so `isready`,
//! `stop`, `ponderhit` and `quit` are answered while the engine thinks.
//!
//! Every line goes out whole and flushed. Each `go` gets exactly one `bestmove`; under
//! `go infinite` and while pondering only after `stop` (or `ponderhit`). A command read
//! after `stop` waits for the stopped search to print its `bestmove`, then is carried out;
//! a `go` that finds a search running unstopped stops it first (it gets its `bestmove`).
//! Commands that are unknown, malformed or out of place are ignored with an `info string`
//! saying why, with what they repeat of the input escaped; a bad `position` leaves the
//! previous position as it was.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::book::{Book, pick};
use crate::ccr::{Notation, Position};
use crate::eval::Evaluator;
use crate::history::History;
use crate::search::room::{Reservation, give_back_freed_memory};
use crate::search::strength;
use crate::search::tablebase::{Syzygy, Tablebases};
use crate::search::time::{self, Clock};
use crate::search::tt::TranspositionTable;
use crate::search::wdl::wdl;
use crate::search::{Control, Info, Limits, SEARCH_HEADROOM, SEARCH_STACKS, Search};
use crate::types::{Colour, Move};

/// The engine's name as `id name` gives it.
pub(crate) const NAME: &str = concat!("ccr ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub(crate) const AUTHOR: &str = "the ccr developers";

/// Default, smallest and largest transposition table, MiB.
const HASH: (usize, usize, usize) = (16, 1, 65_536);
/// Default, smallest and largest thread count.
const THREADS: (usize, usize, usize) = (1, 1, 256);
/// Default, smallest and largest move overhead, ms.
const OVERHEAD: (u64, u64, u64) = (30, 0, 5_000);
/// Default, smallest and largest number of best lines reported (MultiPV).
const MULTIPV: (usize, usize, usize) = (1, 1, 256);
/// Default, smallest and largest `SyzygyProbeDepth`.
const SYZYGY_DEPTH: (u64, u64, u64) = (1, 1, 100);
/// Default, smallest and largest `SyzygyProbeLimit` (pieces, kings included).
const SYZYGY_LIMIT: (u64, u64, u64) = (7, 0, 7);
/// The most positions one `genfens` writes: a few milliseconds a position, about a minute.
const GENFENS_MAX: usize = 10_000;
/// Longest command text quoted back in an `info string`.
const QUOTE: usize = 60;
/// Where protocol lines go: shared by the command and search threads, one line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Lines to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line and flushes it. A closed pipe means the GUI is gone: nothing to do.
    pub fn line(&self, text: &str) {
        let mut out = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    /// Lines kept in memory, and the transcript that reads them back (for tests and fuzzing).
    pub fn transcribed() -> (Output, Transcript) {
        let transcript = Transcript::default();
        (Output::new(Box::new(transcript.clone())), transcript)
    }
}

/// What an [`Output::transcribed`] wrote, shared with it.
#[derive(Clone, Default)]
pub struct Transcript(Arc<Mutex<Vec<u8>>>);

impl Transcript {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).expect("the engine writes UTF-8")
    }
}

impl Write for Transcript {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The thread that runs the searches (and `genfens`), one task after another. It is started
/// at the first `go` with the largest stack that fits and kept: a new thread per search
/// would need a new stack each time, which under an address-space limit may find no room
/// (glibc keeps the last thread's stack mapped for reuse), and costs time on a bullet clock.
struct Searcher {
    jobs: mpsc::Sender<Task>,
    /// One message per job, sent when it has ended (helper threads joined).
    done: mpsc::Receiver<()>,
}

/// A running search (or `genfens`) and what the command thread needs to steer it.
struct Running {
    /// Cleared by the search thread just before it prints `bestmove` (a `genfens` its last
    /// line).
    active: Arc<AtomicBool>,
    /// `stop` was read: the search is ending and its `bestmove` is on the way.
    stopped: bool,
}

/// The protocol state.
pub struct Uci {
    out: Output,
    position: Position,
    history: History,
    tt: Arc<TranspositionTable>,
    /// What `uci` reports about the table (a smaller one than the default, for lack of
    /// memory).
    table_note: Option<String>,
    control: Arc<Control>,
    threads: usize,
    /// How many threads the machine runs at once: the search uses no more.
    cores: usize,
    overhead: Duration,
    /// The `MultiPV` option: how many best root moves the next search reports.
    multipv: usize,
    /// The `UCI_ShowWDL` option: `info` lines carry win, draw and loss chances.
    show_wdl: bool,
    /// The `UCI_LimitStrength` option: play at `UCI_Elo`, on one thread.
    limit_strength: bool,
    /// The `UCI_Elo` option: the rating played at while the strength is limited.
    elo: u32,
    /// The `Eval` option: the evaluator of the next search.
    evaluator: Evaluator,
    /// The `OwnBook` option: play from the book while it has a move.
    own_book: bool,
    /// The `UCI_Chess960` option: FEN castling fields read as X-FEN or Shredder-FEN on any
    /// setup, castling written and read as the king taking its own rook (as it is on a
    /// Chess960 position with the option off, see [`Uci::chess960_notation`]).
    chess960: bool,
    /// The book `BookFile` names, if it could be opened.
    book: Option<Book>,
    /// Draws the book's moves (seeded from the clock: games differ).
    draws: Xoshiro256PlusPlus,
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// The `SyzygyPath` tables and the other `Syzygy…` options.
    syzygy: SyzygyOptions,
    /// Commands come from the command line ([`Uci::run_arguments`]): nothing can send
    /// `stop`, so a `go` that only `stop` would end is refused.
    from_arguments: bool,
}

/// The Syzygy options: the tables `SyzygyPath` loaded, `SyzygyProbeDepth`,
/// `Syzygy50MoveRule` and `SyzygyProbeLimit`.
#[derive(Clone, Debug)]
struct SyzygyOptions {
    tables: Option<Arc<Tablebases>>,
    probe_depth: i32,
    rule50: bool,
    probe_limit: u32,
}

impl Default for SyzygyOptions {
    fn default() -> SyzygyOptions {
        SyzygyOptions {
            tables: None,
            probe_depth: SYZYGY_DEPTH.0 as i32,
            rule50: true,
            probe_limit: SYZYGY_LIMIT.0 as u32,
        }
    }
}

impl SyzygyOptions {
    /// How a search uses them (`None` without tables).
    fn for_search(&self) -> Option<Syzygy<'_>> {
        Some(Syzygy {
            tables: self.tables.as_deref()?,
            probe_depth: self.probe_depth,
            rule50: self.rule50,
            probe_limit: self.probe_limit,
        })
    }
}

/// Whether to keep reading commands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit`.
    Quit,
}

impl Uci {
    /// A fresh engine writing to `out`. Without the memory for the default table it takes
    /// the largest power-of-two fraction of it that fits (or none), and says so after `uci`.
    pub fn new(out: Output) -> Uci {
        let position = Position::startpos();
        let (tt, had) = match TranspositionTable::fitting(HASH.0) {
            Some((tt, had)) => (tt, Some(had)),
            None => (TranspositionTable::empty(), None),
        };
        Uci {
            out,
            position,
            history: history_of(&position),
            tt: Arc::new(tt),
            table_note: table_note(HASH.0, had),
            control: Arc::new(Control::default()),
            threads: THREADS.0,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            overhead: Duration::from_millis(OVERHEAD.0),
            multipv: MULTIPV.0,
            show_wdl: false,
            limit_strength: false,
            elo: strength::ELO.0,
            evaluator: Evaluator::default(),
            own_book: false,
            chess960: false,
            book: None,
            draws: Xoshiro256PlusPlus::seed_from_u64(clock_seed()),
            searcher: None,
            running: None,
            syzygy: SyzygyOptions::default(),
            from_arguments: false,
        }
    }

    /// Reads commands until `quit` or the end of input, then stops any search cleanly.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        self.stop_and_wait();
    }

    /// Runs `commands` as the command line gives them, one command each, and nothing from
    /// stdin: each is carried out to its end before the next (a `go` or `genfens` runs to
    /// its limit), so that `ccr "position startpos" "go depth 8"` prints that search. A `go`
    /// that only `stop` would end (`infinite`, `ponder`, no limit) is refused.
    pub fn run_arguments(&mut self, commands: &[String]) {
        self.from_arguments = true;
        for command in commands {
            let flow = self.handle(command);
            if self.running.take().is_some() {
                self.wait_for_the_job();
            }
            if flow == Flow::Quit {
                break;
            }
        }
    }

    /// An `info string` line; control and other invisible characters in `text` are escaped.
    fn info_string(&self, text: &str) {
        self.out.line(&format!("info string {}", escape(text)));
    }

    /// Whether a search is running (its `bestmove` not yet printed).
    fn searching(&mut self) -> bool {
        match &self.running {
            Some(r) if r.active.load(Relaxed) => true,
            Some(_) => {
                self.running = None;
                self.wait_for_the_job();
                false
            }
            None => false,
        }
    }

    /// Waits until the search thread has ended its job (a thread that is gone is
    /// forgotten, to be started again at the next `go`).
    fn wait_for_the_job(&mut self) {
        if let Some(searcher) = &self.searcher {
            if searcher.done.recv().is_err() {
                self.searcher = None;
            }
        }
    }

    /// Whether a search runs that has not been told to stop. One that has (or that has
    /// ended) is waited for first, its `bestmove` printed, so that the command read after
    /// `stop` is carried out after the search it stopped.
    fn busy(&mut self) -> bool {
        match &self.running {
            Some(r) if r.stopped => {
                self.stop_and_wait();
                false
            }
            _ => self.searching(),
        }
    }

    fn stop_and_wait(&mut self) {
        if self.running.take().is_some() {
            self.control.stop.store(true, Relaxed);
            self.control.pondering.store(false, Relaxed);
            self.wait_for_the_job();
        }
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "debug" => {}
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                if self.busy() {
                    self.info_string("ucinewgame ignored: a search is running (send stop first)");
                } else {
                    self.tt.clear();
                    self.position = Position::startpos();
                    self.history = history_of(&self.position);
                }
            }
            "position" => self.set_position(args),
            "genfens" => self.genfens(args),
            "go" => self.go(args),
            "stop" => {
                if self.searching() {
                    self.control.stop.store(true, Relaxed);
                    if let Some(r) = &mut self.running {
                        r.stopped = true;
                    }
                }
            }
            "ponderhit" => {
                if self.searching() {
                    self.control.pondering.store(false, Relaxed);
                }
            }
            "quit" => return Flow::Quit,
            _ => self.info_string(&format!("unknown command: {}", quote(line))),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.out.line(&format!("id name {NAME}"));
        self.out.line(&format!("id author {AUTHOR}"));
        self.out.line(&spin_option("Hash", HASH));
        self.out.line(&spin_option("Threads", THREADS));
        self.out.line("option name Clear Hash type button");
        self.out.line(&spin_option("Move Overhead", OVERHEAD));
        self.out.line("option name Ponder type check default false");
        self.out
            .line("option name UCI_Chess960 type check default false");
        self.out.line(&spin_option("MultiPV", MULTIPV));
        self.out
            .line("option name UCI_ShowWDL type check default false");
        self.out
            .line("option name UCI_LimitStrength type check default false");
        self.out.line(&spin_option("UCI_Elo", strength::ELO));
        self.out
            .line("option name OwnBook type check default false");
        self.out
            .line("option name BookFile type string default <empty>");
        let vars: Vec<String> = Evaluator::ALL
            .iter()
            .map(|e| format!("var {}", e.name()))
            .collect();
        self.out
            .line("option name SyzygyPath type string default <empty>");
        self.out
            .line(&spin_option("SyzygyProbeDepth", SYZYGY_DEPTH));
        self.out
            .line("option name Syzygy50MoveRule type check default true");
        self.out
            .line(&spin_option("SyzygyProbeLimit", SYZYGY_LIMIT));
        self.out.line(&format!(
            "option name Eval type combo default {} {}",
            Evaluator::default().name(),
            vars.join(" ")
        ));
        self.out.line("uciok");
        if let Some(note) = &self.table_note {
            self.info_string(note);
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <words…> [value <words…>]
        let Some(("name", rest)) = args.split_first().map(|(a, r)| (*a, r)) else {
            return self.info_string("setoption needs 'name <option>'");
        };
        let split = rest.iter().position(|&t| t == "value");
        let (name, value) = match split {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        if self.busy() {
            return self.info_string(&format!(
                "option {} not changed: a search is running (send stop first)",
                quote(&name)
            ));
        }
        // A check option's value; the error names the option as the GUI spelt it.
        let check = |option: &str| match value.as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(format!("option {option} is true or false")),
        };
        let number = |range: (u64, u64)| -> Result<u64, String> {
            let text = value.as_deref().unwrap_or("");
            match text.parse::<u64>() {
                Ok(n) if (range.0..=range.1).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option {name} needs a value from {} to {}, not '{}'",
                    range.0,
                    range.1,
                    quote(text)
                )),
            }
        };
        let lowered = name.to_ascii_lowercase();
        let strength_option = matches!(lowered.as_str(), "uci_elo" | "uci_limitstrength");
        let result = match lowered.as_str() {
            "hash" => number((HASH.1 as u64, HASH.2 as u64)).and_then(|mb| {
                let mb = mb as usize;
                let had = self.resize_table(mb);
                table_note(mb, had).map_or(Ok(()), Err)
            }),
            "threads" => number((THREADS.1 as u64, THREADS.2 as u64)).and_then(|n| {
                self.threads = n as usize;
                if self.threads > self.cores {
                    Err(format!(
                        "Threads {n}: this machine runs {} at once, the search uses {}",
                        count(self.cores, "thread"),
                        self.cores
                    ))
                } else {
                    Ok(())
                }
            }),
            "move overhead" => number((OVERHEAD.1, OVERHEAD.2)).map(|ms| {
                self.overhead = Duration::from_millis(ms);
            }),
            "multipv" => number((MULTIPV.1 as u64, MULTIPV.2 as u64)).map(|n| {
                self.multipv = n as usize;
            }),
            "uci_showwdl" => check("UCI_ShowWDL").map(|on| self.show_wdl = on),
            "uci_limitstrength" => check("UCI_LimitStrength").map(|on| self.limit_strength = on),
            "uci_elo" => number((u64::from(strength::ELO.1), u64::from(strength::ELO.2)))
                .map(|elo| self.elo = elo as u32),
            "clear hash" => {
                self.tt.clear();
                Ok(())
            }
            "ownbook" => check("OwnBook").map(|on| self.own_book = on),
            "bookfile" => match value.as_deref().unwrap_or("") {
                "" | "<empty>" => {
                    self.book = None;
                    Ok(())
                }
                path => Book::open(std::path::Path::new(path))
                    .map(|book| self.book = Some(book))
                    .map_err(|e| format!("option BookFile not changed: {}", quote(&e))),
            },
            "ponder" => check("Ponder").map(|_| ()),
            "uci_chess960" => check("UCI_Chess960").map(|on| self.chess960 = on),
            "syzygypath" => self.set_syzygy_path(value.as_deref().unwrap_or("")),
            "syzygyprobedepth" => number((SYZYGY_DEPTH.1, SYZYGY_DEPTH.2)).map(|n| {
                self.syzygy.probe_depth = n as i32;
            }),
            "syzygy50moverule" => check("Syzygy50MoveRule").map(|on| self.syzygy.rule50 = on),
            "syzygyprobelimit" => number((SYZYGY_LIMIT.1, SYZYGY_LIMIT.2)).map(|n| {
                self.syzygy.probe_limit = n as u32;
            }),
            "eval" => {
                let text = value.as_deref().unwrap_or("");
                match Evaluator::from_name(&text.to_ascii_lowercase()) {
                    Some(evaluator) => {
                        self.evaluator = evaluator;
                        Ok(())
                    }
                    None => Err(format!(
                        "option Eval is network, frame or bitboards, not '{}'",
                        quote(text)
                    )),
                }
            }
            _ => Err(format!("unknown option: {}", quote(&name))),
        };
        match result {
            Err(e) => self.info_string(&e),
            // What the setting means, for the player and for the calibration's records.
            Ok(()) if self.limit_strength && strength_option => self.info_string(&format!(
                "UCI_Elo {}: {} nodes a move, on one thread, frame evaluator",
                self.elo,
                strength::nodes_for(self.elo)
            )),
            Ok(()) => {}
        }
    }

    /// `genfens N seed S book None|FILE`: N balanced opening positions, each on an
    /// `info string genfens FEN` line (OpenBench's data-generation workloads), written on the
    /// search thread, so that `isready` is answered meanwhile and `stop` or `quit` ends it.
    /// Tokens after the book are ignored. Complaints, and the line saying why fewer than N
    /// came, start `info string genfens:`, which OpenBench's worker, reading
    /// `info string genfens ` lines, never takes for a position.
    fn genfens(&mut self, args: &[&str]) {
        if self.busy() {
            return self.info_string("genfens: ignored, a search is running (send stop first)");
        }
        let (count, seed, book) = match args {
            [count, "seed", seed, "book", book, ..] => (*count, *seed, *book),
            _ => return self.info_string("genfens: needs 'N seed S book None|FILE'"),
        };
        let Some(count) = count
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=GENFENS_MAX).contains(n))
        else {
            return self.info_string(&format!(
                "genfens: N is a count from 1 to {GENFENS_MAX}, not '{}'",
                quote(count)
            ));
        };
        let Ok(seed) = seed.parse::<u64>() else {
            return self.info_string(&format!(
                "genfens: the seed is a number from 0 to {}, not '{}'",
                u64::MAX,
                quote(seed)
            ));
        };
        let book = if book.eq_ignore_ascii_case("none") {
            Vec::new()
        } else {
            match crate::openings::load_book(book) {
                Ok(book) => book,
                Err(e) => {
                    return self.info_string(&format!("genfens: book '{}': {e}", quote(book)));
                }
            }
        };
        self.control.stop.store(false, Relaxed);
        self.control.pondering.store(false, Relaxed);
        let active = Arc::new(AtomicBool::new(true));
        let task = Task::Genfens(Genfens {
            count,
            seed,
            book,
            control: Arc::clone(&self.control),
            out: self.out.clone(),
            active: Arc::clone(&active),
        });
        match self.submit(task) {
            Ok(()) => {
                self.running = Some(Running {
                    active,
                    stopped: false,
                })
            }
            Err(e) => self.info_string(&format!("genfens: cannot start the search thread ({e})")),
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        match parse_position(args, self.chess960) {
            Ok((position, history)) => {
                self.position = position;
                self.history = history;
            }
            Err(e) => self.info_string(&format!("position ignored: {e}")),
        }
    }

    /// Loads the Syzygy tables of `path` (`<empty>` or nothing unloads them) and says what
    /// was found. A path refused (no tables, a file that is no table, no room for them) keeps
    /// the tables loaded before: everything that can fail is done before they are let go.
    fn set_syzygy_path(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() || path == "<empty>" {
            self.syzygy.tables = None;
            return Ok(());
        }
        let found = Tablebases::scan(path)
            .map_err(|e| format!("option SyzygyPath not changed: {}", quote(&e)))?;
        // The prober holds one set at a time: the old one goes first.
        self.syzygy.tables = None;
        let tables = found
            .load()
            .map_err(|e| format!("option SyzygyPath: no tables loaded: {}", quote(&e)))?;
        let (wdl, dtz) = tables.table_counts();
        let kept = if tables.in_memory() {
            "copied into memory"
        } else {
            "read in place"
        };
        self.info_string(&format!(
            "SyzygyPath: {wdl} WDL and {dtz} DTZ tables found, up to {} pieces, {kept}",
            tables.max_pieces()
        ));
        self.syzygy.tables = Some(Arc::new(tables));
        Ok(())
    }

    /// Makes the table `mb` MiB (an unchanged size keeps it), freeing the old one first;
    /// returns the MiB had (`None`: no table at all).
    fn resize_table(&mut self, mb: usize) -> Option<usize> {
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            return tt.resize(mb);
        }
        // Still shared (no search runs here, so this is only defensive): let go of it first.
        self.tt = Arc::new(TranspositionTable::empty());
        let (tt, had) = TranspositionTable::fitting(mb)?;
        self.tt = Arc::new(tt);
        Some(had)
    }

    fn go(&mut self, args: &[&str]) {
        if self.busy() {
            // A GUI should send `stop` first; ending that search (it gets its `bestmove`)
            // keeps one `bestmove` per `go` for both.
            self.info_string("go: stopping the running search first");
            self.stop_and_wait();
        }
        let chess960 = self.chess960_notation();
        let (request, problems) = parse_go(args, &self.position, chess960);
        for problem in problems {
            self.info_string(&problem);
        }
        let us = self.position.side();
        let limited = request.depth.is_some()
            || request.nodes.is_some()
            || request.mate.is_some()
            || request.movetime.is_some()
            || request.time[us as usize].is_some()
            || self.limit_strength;
        if self.from_arguments && (request.infinite || request.ponder || !limited) {
            return self.info_string(
                "go ignored: on the command line nothing can send stop; \
                 give it depth, nodes, mate, movetime or a clock",
            );
        }
        let notation = self.position.notation(chess960);
        // A Polyglot book keys standard castling only.
        let bookable = !self.position.is_chess960();
        if self.own_book
            && bookable
            && !request.infinite
            && !request.ponder
            && request.mate.is_none()
        {
            if let Some(mv) = self.book_move(&request.searchmoves) {
                let text = notation.text(mv);
                self.info_string(&format!("book move {text}"));
                return self.out.line(&format!("bestmove {text}"));
            }
        }
        // A limited strength is a node budget a move, searched on one thread so that the
        // budget means the same on every machine, with the frame evaluator its calibration
        // games were played with.
        let budget = self.limit_strength.then(|| strength::nodes_for(self.elo));
        let evaluator = match budget {
            Some(_) => Evaluator::Frame,
            None => self.evaluator,
        };
        let nodes = [request.nodes, budget].into_iter().flatten().min();
        let threads = if budget.is_some() { 1 } else { self.threads };
        let mut limits = Limits {
            depth: request.depth,
            nodes,
            mate: request.mate,
            time: None,
            searchmoves: request.searchmoves,
            multipv: self.multipv,
        };
        if let Some(movetime) = request.movetime {
            limits.time = Some(time::fixed(movetime, self.overhead));
        } else if let Some(left) = request.time[us as usize] {
            let clock = Clock {
                time: left,
                increment: request.increment[us as usize].unwrap_or_default(),
                moves_to_go: request.moves_to_go,
            };
            limits.time = Some(time::budget(clock, self.overhead));
        }
        self.control.stop.store(false, Relaxed);
        self.control.pondering.store(request.ponder, Relaxed);
        let active = Arc::new(AtomicBool::new(true));
        let job = Job {
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            out: self.out.clone(),
            active: Arc::clone(&active),
            root: self.position,
            history: self.history.clone(),
            limits,
            threads: threads.min(self.cores),
            evaluator,
            infinite: request.infinite,
            show_wdl: self.show_wdl,
            notation,
            syzygy: self.syzygy.clone(),
        };
        match self.submit(Task::Search(job)) {
            Ok(()) => {
                self.running = Some(Running {
                    active,
                    stopped: false,
                })
            }
            Err(e) => {
                // Not even the smallest stack beside the smallest table: answer at once
                // with a legal move.
                self.info_string(&format!(
                    "cannot start the search thread ({e}): playing the first legal move"
                ));
                let best = self.position.legal_moves().as_slice().first().copied();
                self.out.line(&match best {
                    Some(mv) => format!("bestmove {}", notation.text(mv)),
                    None => "bestmove (none)".to_string(),
                });
            }
        }
    }
}

impl Uci {
    /// Whether castling is written and read as the king taking its own rook: with
    /// `UCI_Chess960` on, and on a position that needs Chess960's rules whatever the option
    /// says now (it was set while the option was on, and no other notation can say its
    /// castling: the king's target square may be where it stands, or a rook's).
    fn chess960_notation(&self) -> bool {
        self.chess960 || self.position.is_chess960()
    }

    /// A move of the book for the position, drawn by the entries' weights, among
    /// `searchmoves` if any; `None` out of book (or when the book cannot be read, which an
    /// `info string` says).
    fn book_move(&mut self, searchmoves: &[Move]) -> Option<Move> {
        let book = self.book.as_mut()?;
        let moves = match book.moves(&self.position) {
            Ok(moves) => moves,
            Err(e) => {
                let text = format!("cannot read the book: {e}; searching");
                self.info_string(&text);
                return None;
            }
        };
        let allowed: Vec<_> = moves
            .into_iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(&m.mv))
            .collect();
        pick(&allowed, self.draws.next_u64())
    }

    /// Hands `task` to the search thread, starting it first if there is none (or it is gone).
    fn submit(&mut self, task: Task) -> std::io::Result<()> {
        let task = match &self.searcher {
            Some(searcher) => match searcher.jobs.send(task) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(task)) => task,
            },
            None => task,
        };
        self.searcher = None;
        // The table may have to shrink for the thread: the task lets go of it meanwhile.
        let task = task.with_table(Arc::new(TranspositionTable::empty()));
        let searcher = self.start_searcher()?;
        let task = task.with_table(Arc::clone(&self.tt));
        searcher
            .jobs
            .send(task)
            .map_err(|_| std::io::Error::other("the search thread ended at its start"))?;
        self.searcher = Some(searcher);
        Ok(())
    }

    /// Starts the search thread; where there is no room for it, halves the table (and says
    /// so) until there is, down to one bucket.
    fn start_searcher(&mut self) -> std::io::Result<Searcher> {
        loop {
            let error = match spawn_searcher() {
                Ok(searcher) => return Ok(searcher),
                Err(_) => {
                    // Freed memory the allocator kept may be all that is missing.
                    give_back_freed_memory();
                    match spawn_searcher() {
                        Ok(searcher) => return Ok(searcher),
                        Err(error) => error,
                    }
                }
            };
            let asked = self.tt.megabytes();
            if asked == 0 {
                return Err(error);
            }
            let had = self.resize_table(asked / 2);
            self.info_string(&format!(
                "Hash {asked}: no room for the search thread beside the table, {}",
                match had {
                    Some(0) => "the table has one bucket (4 entries)".to_string(),
                    Some(had) => format!("the table has {had} MiB"),
                    None => "searching without a table".to_string(),
                }
            ));
            if had.is_none() {
                return spawn_searcher();
            }
        }
    }
}

/// Starts the search thread with the largest stack in [`SEARCH_STACKS`] that the system
/// gives with room for the search's own allocations beside it ([`SEARCH_HEADROOM`]): both
/// are probed together, then given back for the thread to take.
fn spawn_searcher() -> std::io::Result<Searcher> {
    let mut error = std::io::Error::other("no room for a 2 MiB stack and the search");
    for stack in SEARCH_STACKS {
        if Reservation::hold(stack + SEARCH_HEADROOM).is_none() {
            continue;
        }
        let (jobs, inbox) = mpsc::channel::<Task>();
        let (finished, done) = mpsc::channel();
        match std::thread::Builder::new()
            .name("search".into())
            .stack_size(stack)
            .spawn(move || {
                for task in inbox {
                    task.run();
                    if finished.send(()).is_err() {
                        break;
                    }
                }
            }) {
            Ok(_) => return Ok(Searcher { jobs, done }),
            Err(e) => error = e,
        }
    }
    Err(error)
}

/// What the search thread runs.
enum Task {
    /// A `go`.
    Search(Job),
    /// A `genfens`.
    Genfens(Genfens),
}

impl Task {
    fn run(self) {
        match self {
            Task::Search(job) => job.run(),
            Task::Genfens(genfens) => genfens.run(),
        }
    }

    /// The task with `tt` as the engine's table (a `genfens` has its own).
    fn with_table(self, tt: Arc<TranspositionTable>) -> Task {
        match self {
            Task::Search(job) => Task::Search(Job { tt, ..job }),
            genfens @ Task::Genfens(_) => genfens,
        }
    }
}

/// One `genfens`, run on the search thread.
struct Genfens {
    count: usize,
    seed: u64,
    book: Vec<Position>,
    control: Arc<Control>,
    out: Output,
    active: Arc<AtomicBool>,
}

impl Genfens {
    fn run(self) {
        let out = &self.out;
        let result = crate::openings::generate(
            self.count,
            self.seed,
            &self.book,
            &self.control,
            |position| out.line(&format!("info string genfens {}", position.to_fen())),
        );
        if let Err(e) = result {
            out.line(&format!("info string genfens: {}", escape(&e)));
        }
        self.active.store(false, Relaxed);
    }
}

/// One search, run on the search thread.
#[derive(Clone)]
struct Job {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    out: Output,
    active: Arc<AtomicBool>,
    root: Position,
    history: History,
    limits: Limits,
    threads: usize,
    evaluator: Evaluator,
    /// `go infinite`: hold `bestmove` until `stop`. (A pondering search holds it until
    /// `ponderhit` or `stop`, then ends as the same search without pondering would.)
    infinite: bool,
    /// `UCI_ShowWDL`: each `info` line with win, draw and loss chances.
    show_wdl: bool,
    /// How the moves are written (castling in Chess960).
    notation: Notation,
    /// The Syzygy tables and options.
    syzygy: SyzygyOptions,
}

impl Job {
    fn run(self) {
        let search = Search {
            tt: &self.tt,
            control: &self.control,
            root: self.root,
            history: self.history,
            limits: self.limits,
            threads: self.threads,
            profile: None,
            evaluator: self.evaluator,
            syzygy: self.syzygy.for_search(),
        };
        let wdl_at = self.show_wdl.then(|| self.root.fullmove_number());
        // `bestmove` goes out as soon as the main thread has it, before the helper threads
        // are joined.
        let notation = self.notation;
        let lines = RefCell::new(InfoLines::new(self.out.clone()));
        let report = &mut |info: &Info| {
            let text = info_line(info, wdl_at, notation);
            lines.borrow_mut().report(info.multipv, text);
        };
        search.run_then(report, |outcome| {
            lines.borrow_mut().flush();
            while !self.control.stop.load(Relaxed)
                && (self.infinite || self.control.pondering.load(Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let text = |mv| notation.text(mv);
            let line = match (outcome.best, outcome.ponder) {
                (Some(best), Some(ponder)) => {
                    format!("bestmove {} ponder {}", text(best), text(ponder))
                }
                (Some(best), None) => format!("bestmove {}", text(best)),
                (None, _) => "bestmove (none)".to_string(),
            };
            self.active.store(false, Relaxed);
            self.out.line(&line);
        });
    }
}

/// How often a MultiPV search's iterations go out: an iteration of k lines waits this long
/// for each line of the last one written, about 200 lines a second.
const LINE_GAP: Duration = Duration::from_millis(5);

/// A search's `info` lines. An iteration of several lines (`MultiPV`) goes out whole, unless
/// the last one written is less than [`LINE_GAP`] a line ago: then it is held, and dropped
/// when the next iteration comes. The fast first iterations of 256 lines otherwise filled the
/// pipe faster than a GUI read it, and `readyok` waited behind them. What is held at the end
/// goes out before `bestmove`: the last iteration is always seen.
struct InfoLines {
    out: Output,
    /// The current iteration's lines, while it is held.
    held: Vec<String>,
    /// Whether the current iteration goes out.
    writing: bool,
    /// When the last iteration written started going out, and its lines.
    written: Option<(Instant, u32)>,
}

impl InfoLines {
    fn new(out: Output) -> InfoLines {
        InfoLines {
            out,
            held: Vec::new(),
            writing: true,
            written: None,
        }
    }

    /// Line `multipv` of an iteration (1 starts a new one), as `text`.
    fn report(&mut self, multipv: usize, text: String) {
        if multipv == 1 {
            self.held.clear();
            self.writing = match self.written {
                Some((at, lines)) if lines > 1 => at.elapsed() >= LINE_GAP * lines,
                _ => true,
            };
            if self.writing {
                self.written = Some((Instant::now(), 0));
            }
        }
        if self.writing {
            if let Some((_, lines)) = &mut self.written {
                *lines += 1;
            }
            self.out.line(&text);
        } else {
            self.held.push(text);
        }
    }

    /// Writes the iteration held, if any.
    fn flush(&mut self) {
        for text in self.held.drain(..) {
            self.out.line(&text);
        }
    }
}

/// The `uci` answer's line for a spin option of (default, min, max) `range`.
fn spin_option<T: std::fmt::Display>(name: &str, range: (T, T, T)) -> String {
    let (default, min, max) = range;
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// A seed that differs from one engine start to the next.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32)
}

/// An iteration's `info` line, its moves in `notation`; with `wdl_at`, the root's move
/// number, it gives the score's win, draw and loss chances too (`wdl W D L`, per mille).
pub(crate) fn info_line(info: &Info, wdl_at: Option<u16>, notation: Notation) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let wdl = wdl_at.map_or(String::new(), |move_number| {
        let [w, d, l] = wdl(info.score, move_number);
        format!(" wdl {w} {d} {l}")
    });
    let tbhits = info
        .tbhits
        .map_or(String::new(), |n| format!(" tbhits {n}"));
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {}{} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        wdl,
        info.nodes,
        nps,
        info.hashfull,
        tbhits,
        ms,
        notation.line(&info.pv)
    )
}

/// The first characters of a command, for quoting it back: backslashes doubled, so that
/// the escapes of [`escape`] read unambiguously.
fn quote(text: &str) -> String {
    let text = text.trim();
    let cut = match text.char_indices().nth(QUOTE) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    };
    cut.replace('\\', "\\\\")
}

/// `text` with what a terminal would not show as a character escaped: control characters
/// (NUL, escape, carriage return, C1 codes…) as `\xNN` (ASCII) or `\u{NN}`, and invisible
/// format characters (zero-width, direction overrides, line separators, byte-order mark) as
/// `\u{…}`. Printable text, UTF-8 included, is kept.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let invisible = c.is_control()
            || matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}');
        if !invisible {
            out.push(c);
        } else if c.is_ascii() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out
}

/// What to report when a table of `asked` MiB came out as `had` (`None`: no table at all).
fn table_note(asked: usize, had: Option<usize>) -> Option<String> {
    match had {
        Some(had) if had == asked => None,
        Some(0) => Some(format!(
            "Hash {asked}: not enough memory, the table has one bucket (4 entries)"
        )),
        Some(had) => Some(format!(
            "Hash {asked}: not enough memory, the table has {had} MiB"
        )),
        None => Some(format!(
            "Hash {asked}: not enough memory for any table, searching without one"
        )),
    }
}

/// `n` and the noun, singular for one.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The history of a game that starts at `position`.
fn history_of(position: &Position) -> History {
    let mut history = History::new();
    history.push(position.key(), position.halfmove_clock());
    history
}

/// `position startpos|fen <fen> [moves <m>…]`: the position and the game's keys.
fn parse_position(args: &[&str], chess960: bool) -> Result<(Position, History), String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut position = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"startpos", extra)) => {
            return Err(format!(
                "unexpected '{}' after startpos",
                quote(&extra.join(" "))
            ));
        }
        Some((&"fen", fen)) => Position::parse_fen(&fen.join(" "), chess960)
            .map_err(|e| format!("invalid FEN: {e}"))?,
        _ => return Err("expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    let mut history = history_of(&position);
    for (i, &text) in moves.iter().enumerate() {
        let mv = position
            .parse_move(text, chess960)
            .ok_or_else(|| format!("move {} '{}' is not legal here", i + 1, quote(text)))?;
        position = position.make(mv);
        history.push(position.key(), position.halfmove_clock());
    }
    Ok((position, history))
}

/// What `go` asked for.
#[derive(Default, Debug)]
struct GoRequest {
    time: [Option<Duration>; 2],
    increment: [Option<Duration>; 2],
    moves_to_go: Option<u32>,
    depth: Option<i32>,
    nodes: Option<u64>,
    mate: Option<i32>,
    movetime: Option<Duration>,
    infinite: bool,
    ponder: bool,
    searchmoves: Vec<Move>,
}

/// Parses `go`'s arguments; what cannot be understood is reported and left out.
fn parse_go(args: &[&str], position: &Position, chess960: bool) -> (GoRequest, Vec<String>) {
    let mut request = GoRequest::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1).copied();
        // A number below the smallest sensible value is raised to it, and said so (some
        // GUIs send a negative time once a clock has run out): never a search without end.
        // One beyond an i64 saturates, to the least or the largest value.
        let mut number = |least: i64| -> Option<i64> {
            let n = saturating_integer(value?)?;
            if n == i64::MAX && value?.parse::<i64>().is_err() {
                problems.push(format!(
                    "go: {key} {} is beyond the range, taken as the largest value",
                    quote(value?)
                ));
            }
            if n < least {
                problems.push(format!("go: {key} {n} taken as {least}"));
            }
            Some(n.max(least))
        };
        let millis = |n: i64| Duration::from_millis(n as u64);
        let mut takes_value = true;
        let ok = match key {
            "wtime" => number(0).map(|n| request.time[Colour::White as usize] = Some(millis(n))),
            "btime" => number(0).map(|n| request.time[Colour::Black as usize] = Some(millis(n))),
            "winc" => {
                number(0).map(|n| request.increment[Colour::White as usize] = Some(millis(n)))
            }
            "binc" => {
                number(0).map(|n| request.increment[Colour::Black as usize] = Some(millis(n)))
            }
            "movetime" => number(0).map(|n| request.movetime = Some(millis(n))),
            "movestogo" => number(1).map(|n| request.moves_to_go = Some(n.min(1_000) as u32)),
            "depth" => number(1).map(|n| request.depth = Some(n.min(1_000) as i32)),
            "nodes" => number(1).map(|n| request.nodes = Some(n as u64)),
            "mate" => number(1).map(|n| request.mate = Some(n.min(1_000) as i32)),
            "infinite" | "ponder" => {
                takes_value = false;
                if key == "infinite" {
                    request.infinite = true;
                } else {
                    request.ponder = true;
                }
                Some(())
            }
            "searchmoves" => {
                takes_value = false;
                let mut illegal = Vec::new();
                while let Some(text) = args.get(i + 1) {
                    match position.parse_move(text, chess960) {
                        Some(mv) => request.searchmoves.push(mv),
                        None if is_go_keyword(text) => break,
                        None => illegal.push(*text),
                    }
                    i += 1;
                }
                if !illegal.is_empty() {
                    problems.push(not_legal_here(&illegal));
                }
                Some(())
            }
            _ => {
                takes_value = false;
                problems.push(format!("go: unknown argument '{}' ignored", quote(key)));
                Some(())
            }
        };
        if ok.is_none() {
            problems.push(format!(
                "go: bad value '{}' for {key} ignored",
                quote(value.unwrap_or(""))
            ));
        }
        i += if takes_value { 2 } else { 1 };
    }
    (request, problems)
}

/// One line for the `searchmoves` tokens that are not legal moves here, however many:
/// the first few quoted, the rest counted.
fn not_legal_here(illegal: &[&str]) -> String {
    const SHOWN: usize = 3;
    let quoted: Vec<String> = illegal
        .iter()
        .take(SHOWN)
        .map(|t| format!("'{}'", quote(t)))
        .collect();
    let more = match illegal.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let verb = if illegal.len() == 1 { "is" } else { "are" };
    format!(
        "searchmoves: {}{more} {verb} not legal here",
        quoted.join(", ")
    )
}

/// A decimal integer (an optional sign, then digits), saturated to the range of an `i64`;
/// `None` if `text` is not one.
fn saturating_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i64>().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn is_go_keyword(text: &str) -> bool {
    matches!(
        text,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> (Uci, Transcript) {
        let (out, lines) = Output::transcribed();
        (Uci::new(out), lines)
    }

    /// Runs commands one by one, letting each search end by itself.
    fn session(commands: &str) -> String {
        let (mut uci, lines) = engine();
        for line in commands.lines() {
            uci.handle(line);
            uci.wait_for_end();
        }
        lines.text()
    }

    #[test]
    fn handshake_lists_the_options() {
        let out = session("uci\n");
        assert!(out.starts_with(&format!("id name {NAME}\nid author ")));
        for option in [
            "Hash",
            "Threads",
            "Clear Hash",
            "Move Overhead",
            "MultiPV",
            "UCI_LimitStrength",
            "UCI_Elo",
            "OwnBook",
            "BookFile",
            "Eval",
        ] {
            assert!(out.contains(&format!("option name {option} type")), "{out}");
        }
        assert!(out.ends_with("uciok\n"));
    }

    #[test]
    fn go_depth_gives_info_and_one_legal_bestmove() {
        let out = session("position startpos moves e2e4 e7e5\ngo depth 4\n");
        let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{out}");
        let mv = best[0].split_whitespace().nth(1).unwrap();
        let pos = parse_position(&["startpos", "moves", "e2e4", "e7e5"], false)
            .unwrap()
            .0;
        assert!(pos.parse_uci_move(mv).is_some(), "{out}");
        assert!(out.contains("info depth 4 "), "{out}");
        for field in [
            "seldepth", "score cp", "nodes", "nps", "hashfull", "time", "pv",
        ] {
            assert!(out.contains(field), "{field}: {out}");
        }
    }

    #[test]
    fn bad_position_keeps_the_last_one() {
        let (mut uci, lines) = engine();
        uci.handle("position fen 7k/8/8/8/8/8/8/K5R1 w - - 0 1");
        let before = uci.position;
        for bad in [
            "position fen 7k/8/8/8/8/8/8/K5R1 w - - x 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "position startpos moves e2e5",
            "position startpos moves e2e4 e2e4",
            "position",
            "position fen",
            "position startpos junk",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            uci.handle(bad);
            assert_eq!(uci.position, before, "{bad}");
        }
        let out = lines.text();
        assert_eq!(out.lines().count(), 8, "{out}");
        assert!(
            out.lines()
                .all(|l| l.starts_with("info string position ignored: ")),
            "{out}"
        );
    }

    #[test]
    fn position_moves_cover_castling_en_passant_and_promotion() {
        let (pos, history) = parse_position(
            &[
                "fen",
                "r3k2r/1P6/8/3pP3/8/8/8/R3K2R",
                "w",
                "KQkq",
                "d6",
                "0",
                "1",
                "moves",
                "e5d6",
                "e8g8",
                "e1c1",
                "f8d8",
                "b7b8n",
            ],
            false,
        )
        .unwrap();
        assert_eq!(pos.to_fen(), "rN1r2k1/8/3P4/8/8/8/8/2KR3R b - - 0 3");
        assert_eq!(history.len(), 6);
    }

    #[test]
    fn malformed_commands_are_reported_and_ignored() {
        let out = session(
            "hello\n\n   \nsetoption name Hash value -5\nsetoption name Nope value 1\n\
             setoption foo\ngo wtime abc depth 2\nisready\n",
        );
        assert_says(
            &out,
            &[
                "info string unknown command: hello",
                "info string option Hash needs a value",
                "info string unknown option: Nope",
                "info string go: bad value 'abc' for wtime",
                "readyok",
            ],
        );
        assert_eq!(out.matches("bestmove").count(), 1, "{out}");
    }

    #[test]
    fn limits_below_their_least_are_raised_and_reported() {
        let pos = Position::startpos();
        let (request, problems) = parse_go(
            &[
                "wtime", "-100", "btime", "50", "depth", "-3", "nodes", "-5", "mate", "0",
            ],
            &pos,
            false,
        );
        assert_eq!(request.time[0], Some(Duration::ZERO));
        assert_eq!(request.depth, Some(1));
        assert_eq!(request.nodes, Some(1));
        assert_eq!(request.mate, Some(1));
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(
            problems[0].contains("wtime -100 taken as 0"),
            "{problems:?}"
        );
    }

    #[test]
    fn no_legal_move_answers_none() {
        let out = session("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
        assert!(out.contains("bestmove (none)"), "{out}");
    }

    #[test]
    fn infinite_waits_for_stop() {
        let (mut uci, lines) = engine();
        uci.handle("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        assert!(!lines.text().contains("bestmove"));
        uci.handle("isready");
        assert!(lines.text().contains("readyok"));
        uci.handle("stop");
        uci.stop_and_wait();
        assert_eq!(lines.text().matches("bestmove").count(), 1);
    }

    #[test]
    fn a_late_stop_does_not_reach_the_next_search() {
        let (mut uci, lines) = engine();
        uci.handle("go depth 1");
        uci.wait_for_end();
        uci.handle("stop");
        uci.handle("go depth 5");
        uci.wait_for_end();
        assert!(lines.text().contains("info depth 5 "), "{}", lines.text());
    }

    #[test]
    fn end_of_input_stops_the_search_with_a_bestmove() {
        let (mut uci, lines) = engine();
        uci.run("go infinite\n".as_bytes());
        assert_eq!(lines.text().matches("bestmove").count(), 1);
    }

    /// Asserts that `out` holds each of `texts`.
    fn assert_says(out: &str, texts: &[&str]) {
        for text in texts {
            assert!(out.contains(text), "{text:?} missing from {out}");
        }
    }

    fn bestmoves(lines: &Transcript) -> usize {
        lines
            .text()
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .count()
    }

    /// The transcript once the last search has ended, which must hold `expected` bestmoves.
    fn ended(uci: &mut Uci, lines: &Transcript, expected: usize) -> String {
        uci.wait_for_end();
        let out = lines.text();
        assert_eq!(bestmoves(lines), expected, "{out}");
        out
    }

    #[test]
    fn every_go_after_stop_gets_its_bestmove() {
        // No pause between the commands: each `go` comes while the search before it is
        // ending and has not printed its `bestmove` yet.
        let (mut uci, lines) = engine();
        for _ in 0..200 {
            uci.handle("go infinite");
            uci.handle("stop");
        }
        uci.handle("position startpos moves e2e4");
        uci.handle("go depth 3");
        let out = ended(&mut uci, &lines, 201);
        assert!(!out.contains("ignored"), "{out}");
        assert!(out.contains("info depth 3 "), "{out}");
    }

    #[test]
    fn the_eval_option_picks_the_next_searchs_evaluator() {
        let (mut uci, lines) = engine();
        assert_eq!(uci.evaluator, Evaluator::Network);
        uci.handle("setoption name Eval value bitboards");
        assert_eq!(uci.evaluator, Evaluator::Bitboards);
        uci.handle("setoption name Eval value nnue");
        assert_eq!(uci.evaluator, Evaluator::Bitboards);
        uci.handle("setoption name Eval");
        uci.handle("setoption name Eval value Frame");
        assert_eq!(uci.evaluator, Evaluator::Frame);
        let out = lines.text();
        assert_says(
            &out,
            &[
                "info string option Eval is network, frame or bitboards, not 'nnue'",
                "info string option Eval is network, frame or bitboards, not ''",
            ],
        );
        uci.handle("uci");
        assert!(
            lines.text().contains(
                "option name Eval type combo default network var network var frame var bitboards\n"
            ),
            "{}",
            lines.text()
        );
    }

    #[test]
    fn setoption_and_ucinewgame_after_stop_are_carried_out() {
        let (mut uci, lines) = engine();
        uci.handle("position startpos moves e2e4");
        uci.handle("go infinite");
        uci.handle("stop");
        uci.handle("setoption name Move Overhead value 77");
        assert_eq!(uci.overhead, Duration::from_millis(77));
        uci.handle("go infinite");
        uci.handle("stop");
        uci.handle("ucinewgame");
        assert_eq!(uci.position, Position::startpos());
        let out = ended(&mut uci, &lines, 2);
        assert!(!out.contains("info string"), "{out}");
    }

    #[test]
    fn go_during_a_running_search_stops_it_first() {
        let (mut uci, lines) = engine();
        uci.handle("go infinite");
        std::thread::sleep(Duration::from_millis(20));
        uci.handle("setoption name Move Overhead value 77");
        uci.handle("ucinewgame");
        uci.handle("go depth 2");
        let out = ended(&mut uci, &lines, 2);
        assert_eq!(uci.overhead, Duration::from_millis(OVERHEAD.0), "{out}");
        assert_says(
            &out,
            &[
                "info string option Move Overhead not changed: a search is running",
                "info string ucinewgame ignored: a search is running",
                "info string go: stopping the running search first",
                "info depth 2 ",
            ],
        );
    }

    /// The nodes of the last `info` line with a node count.
    fn last_nodes(out: &str) -> u64 {
        let line = out.lines().rfind(|l| l.contains(" nodes ")).expect(out);
        let mut words = line.split_whitespace().skip_while(|&w| w != "nodes");
        words.nth(1).and_then(|n| n.parse().ok()).expect(line)
    }

    #[test]
    fn a_limited_strength_searches_its_budget_on_one_thread() {
        let (low, high) = (strength::ELO.1, strength::ELO.2);
        let budget = strength::nodes_for(low);
        let (mut uci, lines) = engine();
        uci.handle(&format!("setoption name UCI_Elo value {low}"));
        uci.handle("setoption name UCI_LimitStrength value true");
        uci.handle("setoption name Threads value 2");
        uci.handle("position startpos moves e2e4");
        uci.handle("go wtime 60000 btime 60000");
        ended(&mut uci, &lines, 1);
        let nodes = last_nodes(&lines.text());
        assert!(
            nodes <= budget,
            "{nodes} nodes against a budget of {budget}"
        );
        // `go nodes` asks for fewer: the smaller limit holds.
        uci.handle("go nodes 50");
        ended(&mut uci, &lines, 2);
        assert!(last_nodes(&lines.text()) <= 50);
        // Out of range: refused, the setting kept.
        uci.handle(&format!("setoption name UCI_Elo value {}", high + 1));
        uci.handle("setoption name UCI_Elo value strong");
        assert_eq!(uci.elo, low);
        assert_eq!(
            lines.text().matches("option UCI_Elo needs a value").count(),
            2
        );
        let said = format!(
            "info string UCI_Elo {low}: {budget} nodes a move, on one thread, frame evaluator"
        );
        assert_eq!(lines.text().matches(&said).count(), 1, "{}", lines.text());
        // Unlimited again: the same clock searches far more than the weakest budget. (A
        // depth limit would not show it: with the table the searches before it filled, a
        // fixed depth can take fewer nodes than the budget.)
        uci.handle("setoption name UCI_LimitStrength value false");
        uci.handle("go wtime 60000 btime 60000");
        let out = ended(&mut uci, &lines, 3);
        assert!(last_nodes(&out) > budget, "{out}");
    }

    #[test]
    fn threads_beyond_the_machine_are_capped_and_reported() {
        let (mut uci, lines) = engine();
        uci.handle("setoption name Threads value 256");
        assert_eq!(uci.threads, 256);
        let out = lines.text();
        if uci.cores < 256 {
            let cores = uci.cores;
            assert!(
                out.contains(&format!(
                    "info string Threads 256: this machine runs {} at once, \
                     the search uses {cores}",
                    count(cores, "thread")
                )),
                "{out}"
            );
        }
        uci.handle("go depth 4");
        ended(&mut uci, &lines, 1);
        uci.handle(&format!("setoption name Threads value {}", uci.cores));
        assert_eq!(lines.text().matches("this machine runs").count(), 1);
    }

    #[test]
    fn one_core_is_one_thread() {
        let (mut uci, lines) = engine();
        uci.cores = 1;
        uci.handle("setoption name Threads value 2");
        assert!(
            lines.text().contains(
                "info string Threads 2: this machine runs 1 thread at once, the search uses 1\n"
            ),
            "{}",
            lines.text()
        );
    }

    #[test]
    fn saturating_integers() {
        assert_eq!(saturating_integer("42"), Some(42));
        assert_eq!(saturating_integer("+7"), Some(7));
        assert_eq!(saturating_integer("-99999999999999999999"), Some(i64::MIN));
        assert_eq!(saturating_integer("18446744073709551615"), Some(i64::MAX));
        for bad in ["", "-", "+", "1e9", "12a", " 1", "--1", "0x10"] {
            assert_eq!(saturating_integer(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_unchanged_hash_keeps_the_table_and_its_entries() {
        let (mut uci, lines) = engine();
        uci.handle("go depth 4");
        uci.wait_for_end();
        let table = Arc::as_ptr(&uci.tt);
        let key = Position::startpos().key();
        let entry = uci.tt.probe(key);
        assert!(entry.is_some());
        uci.handle(&format!("setoption name Hash value {}", HASH.0));
        assert_eq!(Arc::as_ptr(&uci.tt), table);
        assert_eq!(uci.tt.probe(key), entry);
        uci.handle("setoption name Hash value 2");
        assert_eq!(uci.tt.megabytes(), 2);
        assert_eq!(uci.tt.probe(key), None);
        assert!(!lines.text().contains("info string"), "{}", lines.text());
    }

    #[test]
    fn info_strings_escape_what_they_repeat() {
        let out = session(
            "\0\x1b[2J\x07hello\u{9b}31m\u{202e}é♞\\x00\n\
             setoption name \x1b]0;title\x07 value 1\n\
             position startpos moves e2e4 \x00\x7f\n",
        );
        assert_eq!(out.lines().count(), 3, "{out}");
        assert_says(
            &out,
            &[
                "info string unknown command: \\x00\\x1b[2J\\x07hello\\u{9b}31m\\u{202e}é♞\\\\x00\n",
                "unknown option: \\x1b]0;title\\x07\n",
                "move 2 '\\x00\\x7f' is not legal",
            ],
        );
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    }

    #[test]
    fn a_table_that_does_not_fit_is_reported() {
        assert_eq!(table_note(16, Some(16)), None);
        assert_eq!(
            table_note(16, Some(4)).as_deref(),
            Some("Hash 16: not enough memory, the table has 4 MiB")
        );
        assert!(table_note(16, Some(0)).unwrap().contains("one bucket"));
        assert!(table_note(16, None).unwrap().contains("without one"));
    }

    impl Uci {
        fn wait_for_end(&mut self) {
            while self.searching() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

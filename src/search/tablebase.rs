//! Syzygy endgame tablebases: the tables of `SyzygyPath`, probed through the `pyrrhic-rs`
//! prober, which generates its moves with ccr's own attack tables (the leaper tables and
//! magics of [`crate::bitboard`]) turned to its a1 = 0 bit order, the C.C.R. order reversed.
//!
//! The prober keeps its tables in global state, so one set is loaded at a time in a process:
//! [`Tablebases::load`] fails while another set is held, and a set is unloaded (its files
//! unmapped) when its [`Tablebases`] is dropped. Any number of threads may probe the WDL
//! tables at once (the prober maps a table on its first probe, under a lock); the DTZ probe of
//! a root ([`Tablebases::probe_root`]) runs while no other thread probes: before the search
//! threads start, or in `ccr probe`.
//!
//! Before the prober sees a table, [`Tablebases::scan`] reads the directories itself: the
//! tables' names say which materials are there, so a position whose table is missing is
//! never handed to the prober; every table is opened only if it is a regular file (a FIFO
//! would hold the thread) and walked as the prober will walk it when it maps the table
//! (`header`: its header whole and sound, and the file exactly as long as the header
//! says), so that no stray, cut or inconsistent file reaches it. On Linux the prober then
//! reads the checked files, held open, through a directory of links made for the set
//! (`copies`; a set of up to 256 MiB is copied into sealed memory first): what it maps at a
//! first probe is what was checked, whatever becomes of the names meanwhile (and, for a
//! copied set, of the files), and it is given one directory however many
//! `SyzygyPath` names (at loading it tries every table's name up to 7 pieces in each of its
//! directories, some 30 ms a directory). The tables' compressed contents are trusted, as
//! every Syzygy prober trusts them.
//!
//! In the search ([`Syzygy`], [`Plan`]) the tables are used as Stockfish uses them: the root
//! moves are ranked by DTZ with the fifty-move rule and the game's half-move clock, and only
//! the best-ranked are searched (so a won ending stays won and makes progress); below the
//! root, positions just after a capture or pawn move probe the WDL tables, and a win or loss
//! scores between every evaluation and every mate ([`TB_WIN`]). One departure: Stockfish
//! ranks every win the fifty-move rule cannot spoil alike and lets its search choose among
//! them, which leaves ccr's evaluation (no knowledge of how to mate with bishop and knight)
//! to wander until the rule's clock forces the shortest way; ccr ranks those wins by DTZ
//! too, so it plays a DTZ-optimal winning move at every turn.

#[cfg(target_os = "linux")]
mod copies;
#[cfg(not(target_os = "linux"))]
#[path = "tablebase/in_place.rs"]
mod copies;
mod header;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::Path;

use pyrrhic_rs::{Color, DtzProbeValue, EngineAdapter, Piece, TBError, TableBases, WdlProbeResult};

use super::{MATE_BOUND, MAX_PLY};
use crate::bitboard::magic::Sliders;
use crate::bitboard::tables::{KING, KNIGHT, PAWN};
use crate::ccr::Position;
use crate::ccr::board::{count_nibbles, occupied_nibbles};
use crate::files::{Refused, open_regular};
use crate::history::History;
use crate::types::{Colour, Move, PieceCode, PieceType, Square};
use copies::Copies;
use header::{Kind, Shape};

/// A tablebase win found at ply `p` scores `TB_WIN - p`: below every mate ([`MATE_BOUND`]),
/// above every evaluation.
pub(crate) const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this are decided: tablebase wins and mates (a tablebase loss at or
/// below its negation).
pub(crate) const DECISIVE: i32 = TB_WIN - MAX_PLY as i32;
/// The most pieces (kings included) of any table the prober knows.
pub(crate) const MAX_PIECES: u32 = 7;
/// Stockfish's scale of root ranks: a win certain under the fifty-move rule ranks this.
const MAX_DTZ: i32 = 1 << 18;
/// Piece letters in the tables' names, strongest first; index + 1 is no piece type, see
/// [`letter_type`].
const LETTERS: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];

/// ccr's attack tables in the prober's a1 = 0 bit order.
#[derive(Clone)]
struct Attacks;

/// The C.C.R. index of an a1 = 0 square (the reversal, masked to the board).
fn ccr_index(square: u64) -> usize {
    63 - (square as usize & 63)
}

impl EngineAdapter for Attacks {
    fn pawn_attacks(color: Color, square: u64) -> u64 {
        let colour = match color {
            Color::White => Colour::White,
            Color::Black => Colour::Black,
        };
        PAWN[colour as usize][ccr_index(square)].reverse_bits()
    }

    fn knight_attacks(square: u64) -> u64 {
        KNIGHT[ccr_index(square)].reverse_bits()
    }

    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        Sliders::get()
            .bishop(ccr_index(square), occupied.reverse_bits())
            .reverse_bits()
    }

    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        Sliders::get()
            .rook(ccr_index(square), occupied.reverse_bits())
            .reverse_bits()
    }

    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        Sliders::get()
            .queen(ccr_index(square), occupied.reverse_bits())
            .reverse_bits()
    }

    fn king_attacks(square: u64) -> u64 {
        KING[ccr_index(square)].reverse_bits()
    }
}

/// A position as the prober takes it: bitboards in a1 = 0 order (bit 0 = a1, bit 7 = h1,
/// bit 63 = h8), the en-passant square (0 for none) and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Setup {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Both kings.
    pub kings: u64,
    /// Both sides' queens.
    pub queens: u64,
    /// Both sides' rooks.
    pub rooks: u64,
    /// Both sides' bishops.
    pub bishops: u64,
    /// Both sides' knights.
    pub knights: u64,
    /// Both sides' pawns.
    pub pawns: u64,
    /// The en-passant square's a1 = 0 index, 0 for none (a1 is never one).
    pub en_passant: u32,
    /// Whether White is to move.
    pub white_to_move: bool,
}

/// Calls the prober's method with a [`Setup`]'s fields in the order pyrrhic takes them,
/// which passes each bitboard as an argument of its own; `rule50`, where given, goes before
/// the en-passant square as the root probe wants.
macro_rules! with_setup {
    ($($method:ident).+, $s:expr $(, $rule50:expr)?) => {{
        let s = &$s;
        $($method).+(
            s.white, s.black, s.kings, s.queens, s.rooks, s.bishops, s.knights, s.pawns,
            $($rule50,)? s.en_passant, s.white_to_move,
        )
    }};
}

/// The a1 = 0 index of a square.
pub(crate) fn a1_index(square: Square) -> u32 {
    63 - square.index() as u32
}

/// The square of an a1 = 0 index.
fn square_of(index: u8) -> Square {
    Square::new(63 - (index & 63))
}

impl Setup {
    /// The prober's view of `pos` (castling rights and clocks are not part of it).
    pub(crate) fn of(pos: &Position) -> Setup {
        let boards = crate::arch::convert::best(pos.board());
        let board_of = |c: Colour, t: PieceType| boards[PieceCode::new(c, t).code() as usize];
        let of_type =
            |t: PieceType| (board_of(Colour::White, t) | board_of(Colour::Black, t)).reverse_bits();
        let of_colour = |c: Colour| {
            PieceType::ALL
                .iter()
                .fold(0, |all, &t| all | board_of(c, t))
                .reverse_bits()
        };
        Setup {
            white: of_colour(Colour::White),
            black: of_colour(Colour::Black),
            kings: of_type(PieceType::King),
            queens: of_type(PieceType::Queen),
            rooks: of_type(PieceType::Rook),
            bishops: of_type(PieceType::Bishop),
            knights: of_type(PieceType::Knight),
            pawns: of_type(PieceType::Pawn),
            en_passant: pos.en_passant().map_or(0, a1_index),
            white_to_move: pos.side() == Colour::White,
        }
    }

    /// How many pieces, kings included.
    pub(crate) fn pieces(&self) -> u32 {
        (self.white | self.black).count_ones()
    }

    /// Each side's count of queens, rooks, bishops, knights and pawns ([`LETTERS`]' order),
    /// White first.
    fn counts(&self) -> [[u8; 5]; 2] {
        let types = [
            self.queens,
            self.rooks,
            self.bishops,
            self.knights,
            self.pawns,
        ];
        let side = |own: u64| types.map(|t| (t & own).count_ones() as u8);
        [side(self.white), side(self.black)]
    }
}

/// A material as one number: four bits per side and piece type (White's first), so that a
/// table and a position compare by equality.
fn material_key(counts: &[[u8; 5]; 2]) -> u64 {
    counts
        .iter()
        .flatten()
        .fold(0, |key, &n| key << 4 | u64::from(n.min(15)))
}

/// The table name of a material (`KRPvKQ`), in the orientation the prober files it under:
/// the side with more pieces first, or with as many the stronger (by pieces, queens first).
fn table_name(counts: &[[u8; 5]; 2]) -> String {
    let letters = |side: &[u8; 5]| -> Vec<usize> {
        (0..5)
            .flat_map(|i| std::iter::repeat_n(i, side[i] as usize))
            .collect()
    };
    let (white, black) = (letters(&counts[0]), letters(&counts[1]));
    let white_first = white.len() > black.len() || (white.len() == black.len() && white <= black);
    let (first, second) = if white_first {
        (white, black)
    } else {
        (black, white)
    };
    let spell = |side: &[usize]| side.iter().map(|&i| LETTERS[i]).collect::<String>();
    format!("K{}vK{}", spell(&first), spell(&second))
}

/// The material of a table's name if the prober would open a file of that name: `K`, pieces
/// strongest first, `v`, `K`, pieces, the first side filed first (see [`table_name`]), seven
/// pieces at most.
fn parse_table_name(stem: &str) -> Option<[[u8; 5]; 2]> {
    let (first, second) = stem.split_once('v')?;
    let side = |text: &str| -> Option<[u8; 5]> {
        let pieces = text.strip_prefix('K')?;
        let mut counts = [0u8; 5];
        let mut last = 0;
        for c in pieces.chars() {
            let i = LETTERS.iter().position(|&l| l == c)?;
            if i < last {
                return None;
            }
            last = i;
            counts[i] += 1;
        }
        Some(counts)
    };
    let counts = [side(first)?, side(second)?];
    let pieces: u32 = counts.iter().flatten().map(|&n| u32::from(n)).sum::<u32>() + 2;
    (pieces <= MAX_PIECES && pieces > 2 && table_name(&counts) == stem).then_some(counts)
}

/// Win, draw or loss for the side to move, as the tables say it with the half-move clock at
/// zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost, but the fifty-move rule saves a draw.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but the fifty-move rule makes it a draw.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// The value -2..=2.
    pub fn value(self) -> i32 {
        self as i32
    }

    fn of(result: WdlProbeResult) -> Wdl {
        match result {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }
}

/// Why a position cannot be probed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Absent {
    /// It has castling rights, which no table holds.
    Castling,
    /// It has more pieces than the loaded tables: its count and theirs.
    Pieces(u32, u32),
    /// The table of its material is not loaded (the WDL one, or for DTZ the DTZ one).
    Missing(String),
    /// The prober failed (a table the probe needed could not be read).
    Failed,
}

impl std::fmt::Display for Absent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Absent::Castling => write!(f, "castling rights"),
            Absent::Pieces(n, most) => write!(f, "{n} pieces, the tables hold at most {most}"),
            Absent::Missing(name) => write!(f, "no {name} table"),
            Absent::Failed => write!(f, "the probe failed"),
        }
    }
}

/// The root's DTZ probe: the root's own value and each legal move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The root's WDL (with the half-move clock at zero).
    pub wdl: Wdl,
    /// The root's DTZ (Syzygy's, as python-chess gives it: positive when the side to move
    /// wins, 0 drawn, -1 checkmated).
    pub dtz: i32,
    /// Each legal move and the root's DTZ if it is played: a zeroing move into a win scores
    /// 1 (101 cursed), a mate 1, any other move one ply more than its position's DTZ from
    /// the other side (negative when the root side loses, 0 for a draw).
    pub moves: Vec<(Move, i32)>,
}

/// A loaded set of tables.
pub struct Tablebases {
    /// The prober (dropped first, unmapping what it mapped).
    prober: TableBases<Attacks>,
    /// The tables it reads.
    copies: Copies,
    /// The materials with a WDL table, both orientations, sorted.
    wdl: Vec<u64>,
    /// The materials with a DTZ table, both orientations, sorted.
    dtz: Vec<u64>,
    /// How many WDL and DTZ tables were found.
    counts: (usize, usize),
    /// The most pieces of a loaded WDL table.
    max_pieces: u32,
    /// The directories the tables were read from, `:`-separated.
    path: String,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("path", &self.path)
            .field("copies", &self.copies)
            .field("counts", &self.counts)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// The address space kept free beside the tables when they are loaded: the prober's own
/// allocations (its table entries take about 2 MiB).
const ROOM_BESIDE: u64 = 4 << 20;

/// The tables found in a path, checked and copied, ready for the prober ([`Found::load`]).
#[derive(Debug)]
pub struct Found {
    copies: Copies,
    wdl: Vec<u64>,
    dtz: Vec<u64>,
    counts: (usize, usize),
    max_pieces: u32,
    path: String,
}

impl Found {
    /// Hands the tables to the prober. Fails while another set is loaded (everything else
    /// that can fail was done by [`Tablebases::scan`]).
    pub fn load(self) -> Result<Tablebases, String> {
        let prober_path = self.copies.path().unwrap_or_else(|| self.path.clone());
        let prober = TableBases::<Attacks>::new(&prober_path).map_err(|e| match e {
            TBError::AlreadyInitialized | TBError::NotSingleton => {
                "another set of tables is still loaded".to_string()
            }
            _ => format!("the prober could not load '{}'", self.path),
        })?;
        Ok(Tablebases {
            prober,
            copies: self.copies,
            wdl: self.wdl,
            dtz: self.dtz,
            counts: self.counts,
            max_pieces: self.max_pieces,
            path: self.path,
        })
    }

    /// How many WDL and DTZ tables were found.
    pub fn table_counts(&self) -> (usize, usize) {
        self.counts
    }

    /// The most pieces of a table found.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }
}

/// A table file chosen for a name, open.
struct Chosen {
    /// Its file name (`KQvK.rtbw`).
    name: String,
    counts: [[u8; 5]; 2],
    kind: Kind,
    /// Its path, for messages.
    shown: String,
    file: File,
    len: u64,
}

impl Chosen {
    /// Walks the header of the table `file` holds (the table's own, or its copy).
    fn check(&self, file: &File) -> Result<(), String> {
        header::check(file, self.len, self.kind, &Shape::of(&self.counts))
            .map_err(|damage| format!("'{}' {damage}", self.shown))
    }
}

/// What makes two names of a directory the same directory.
#[cfg(unix)]
fn identity(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir).ok()?;
    meta.is_dir().then(|| (meta.dev(), meta.ino()))
}

/// What makes two names of a directory the same directory.
#[cfg(not(unix))]
fn identity(dir: &Path) -> Option<std::path::PathBuf> {
    std::fs::canonicalize(dir).ok().filter(|d| d.is_dir())
}

/// The directories `path` names (`:`-separated, empty parts skipped), each once however
/// it is named, in order; fails when there is none.
fn directories(path: &str) -> Result<Vec<&str>, String> {
    let parts: Vec<&str> = path.split(':').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return Err("no directory given".to_string());
    }
    let mut seen = BTreeSet::new();
    let mut dirs = Vec::new();
    let mut missing = Vec::new();
    for part in parts {
        match identity(Path::new(part)).filter(|_| !part.contains('\0')) {
            Some(id) => {
                if seen.insert(id) {
                    dirs.push(part);
                }
            }
            None => missing.push(format!("'{part}'")),
        }
    }
    if dirs.is_empty() {
        return Err(format!("no such directory: {}", missing.join(", ")));
    }
    Ok(dirs)
}

/// Every table name in `dirs` the prober could read, with its material and kind.
fn table_names(dirs: &[&str]) -> BTreeMap<String, ([[u8; 5]; 2], Kind)> {
    let mut names = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some((stem, suffix)) = name.rsplit_once('.') else {
                continue;
            };
            let Some(kind) = Kind::ALL.into_iter().find(|k| k.suffix() == suffix) else {
                continue;
            };
            let Some(counts) = parse_table_name(stem) else {
                continue;
            };
            names.entry(name.to_string()).or_insert((counts, kind));
        }
    }
    names
}

/// Opens the table of each name: the first directory's file of that name, which must be a
/// regular file.
fn choose(
    dirs: &[&str],
    names: BTreeMap<String, ([[u8; 5]; 2], Kind)>,
) -> Result<Vec<Chosen>, String> {
    let mut chosen = Vec::new();
    for (name, (counts, kind)) in names {
        let path = dirs
            .iter()
            .map(|dir| Path::new(dir).join(&name))
            .find(|path| std::fs::metadata(path).is_ok());
        let Some(path) = path else { continue };
        let shown = path.display().to_string();
        let (file, len) = open_regular(&path).map_err(|refused| match refused {
            Refused::NotRegular => format!("'{shown}' is not a regular file"),
            Refused::Io(e) => format!("cannot open '{shown}': {e}"),
        })?;
        chosen.push(Chosen {
            name,
            counts,
            kind,
            shown,
            file,
            len,
        });
    }
    Ok(chosen)
}

/// Fails unless `bytes` of tables fit in the address space, to be mapped (the prober maps
/// a table at its first probe and cannot fail gracefully there).
fn check_room(bytes: u64) -> Result<(), String> {
    let room = usize::try_from(bytes + ROOM_BESIDE)
        .ok()
        .and_then(super::room::Reservation::hold);
    if room.is_none() {
        return Err(format!(
            "no room to map the tables ({} MiB) in this process's address space",
            bytes.div_ceil(1 << 20)
        ));
    }
    Ok(())
}

impl Tablebases {
    /// Loads the tables in `path`'s directories: [`Tablebases::scan`], then `Found::load`.
    pub fn load(path: &str) -> Result<Tablebases, String> {
        Tablebases::scan(path)?.load()
    }

    /// Finds the tables in `path`'s directories (separated by `:`; empty parts are skipped,
    /// a directory named twice is read once), checks them and copies them (see the module
    /// docs), without loading them. Fails with a message when no directory exists, none
    /// holds a table, a file named as a table is none (or is cut short, or cannot be read),
    /// or the tables do not fit in the memory or address space left.
    pub fn scan(path: &str) -> Result<Found, String> {
        let dirs = directories(path)?;
        let chosen = choose(&dirs, table_names(&dirs))?;
        for table in &chosen {
            table.check(&table.file)?;
        }
        if !chosen.iter().any(|t| t.kind == Kind::Wdl) {
            return Err(format!("no Syzygy tables in {}", quoted(&dirs)));
        }
        let bytes = chosen.iter().map(|t| t.len).sum();
        check_room(bytes)?;
        let mut copies = Copies::new(bytes)?;
        let (mut wdl, mut dtz) = (Vec::new(), Vec::new());
        let mut max_pieces = 0;
        let mut tally = (0, 0);
        for table in chosen {
            // A copy is what the prober reads, so it is walked too; a table read in place
            // is the file already walked.
            let copy = copies.copy(&table.shown, &table.file, table.len)?;
            if copies.copying() {
                table.check(&copy)?;
            }
            copies.link(&table.name, copy)?;
            let counts = &table.counts;
            let mirrored = [counts[1], counts[0]];
            let keys = [material_key(counts), material_key(&mirrored)];
            match table.kind {
                Kind::Wdl => {
                    tally.0 += 1;
                    wdl.extend(keys);
                    let pieces: u32 = counts.iter().flatten().map(|&n| u32::from(n)).sum();
                    max_pieces = max_pieces.max(pieces + 2);
                }
                Kind::Dtz => {
                    tally.1 += 1;
                    dtz.extend(keys);
                }
            }
        }
        for keys in [&mut wdl, &mut dtz] {
            keys.sort_unstable();
            keys.dedup();
        }
        Ok(Found {
            copies,
            wdl,
            dtz,
            counts: tally,
            max_pieces,
            path: dirs.join(":"),
        })
    }

    /// The most pieces, kings included, of a loaded table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Whether the prober reads copies of the tables in memory (not the files).
    pub fn in_memory(&self) -> bool {
        self.copies.copying()
    }

    /// How many WDL and DTZ tables were found.
    pub fn table_counts(&self) -> (usize, usize) {
        self.counts
    }

    /// The directories loaded, `:`-separated.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether `pos` (seen as `setup`) can be probed: no castling rights, no more pieces than
    /// the tables, its material's table loaded (`dtz`: the DTZ table too). Bare kings are a
    /// draw the prober knows without a table.
    fn check(&self, pos: &Position, setup: &Setup, dtz: bool) -> Result<(), Absent> {
        if !pos.castling().is_empty() {
            return Err(Absent::Castling);
        }
        let pieces = setup.pieces();
        if pieces > self.max_pieces {
            return Err(Absent::Pieces(pieces, self.max_pieces));
        }
        let counts = setup.counts();
        let key = material_key(&counts);
        if key == 0 {
            return Ok(());
        }
        let loaded = |keys: &[u64]| keys.binary_search(&key).is_ok();
        if !loaded(&self.wdl) || (dtz && !loaded(&self.dtz)) {
            let suffix = if dtz && loaded(&self.wdl) { " DTZ" } else { "" };
            return Err(Absent::Missing(format!("{}{suffix}", table_name(&counts))));
        }
        Ok(())
    }

    fn wdl_of(&self, s: &Setup) -> Result<Wdl, Absent> {
        with_setup!(self.prober.probe_wdl, s)
            .map(Wdl::of)
            .map_err(|_| Absent::Failed)
    }

    /// The WDL of `pos` for the side to move, as if its half-move clock were zero (the search
    /// asks only there).
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, Absent> {
        let setup = Setup::of(pos);
        self.check(pos, &setup, false)?;
        self.wdl_of(&setup)
    }

    /// The DTZ probe of a root: its WDL and DTZ and each legal move's DTZ, with the half-move
    /// clock at zero. Not to be run while another thread probes (see the module docs).
    pub fn probe_root(&self, pos: &Position) -> Result<RootProbe, Absent> {
        let s = Setup::of(pos);
        self.check(pos, &s, true)?;
        let wdl = self.wdl_of(&s)?;
        let probe = with_setup!(self.prober.probe_root, s, 0).map_err(|_| Absent::Failed)?;
        let signed = |wdl: WdlProbeResult, dtz: u16| i32::from(dtz) * Wdl::of(wdl).value().signum();
        let dtz = match probe.root {
            DtzProbeValue::Checkmate => {
                return Ok(RootProbe {
                    wdl,
                    dtz: -1,
                    moves: Vec::new(),
                });
            }
            DtzProbeValue::Stalemate => {
                return Ok(RootProbe {
                    wdl,
                    dtz: 0,
                    moves: Vec::new(),
                });
            }
            DtzProbeValue::Failed => return Err(Absent::Failed),
            DtzProbeValue::DtzResult(r) => signed(r.wdl, r.dtz),
        };
        let legal = pos.legal_moves();
        let mut moves = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves.min(probe.moves.len())] {
            let DtzProbeValue::DtzResult(r) = value else {
                return Err(Absent::Failed);
            };
            let (from, to) = (square_of(r.from_square), square_of(r.to_square));
            let promotion = match r.promotion {
                Piece::Queen => Some(PieceType::Queen),
                Piece::Rook => Some(PieceType::Rook),
                Piece::Bishop => Some(PieceType::Bishop),
                Piece::Knight => Some(PieceType::Knight),
                _ => None,
            };
            let mv = legal
                .as_slice()
                .iter()
                .copied()
                .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
                .ok_or(Absent::Failed)?;
            moves.push((mv, signed(r.wdl, r.dtz)));
        }
        if moves.len() != legal.len() {
            return Err(Absent::Failed);
        }
        Ok(RootProbe { wdl, dtz, moves })
    }
}

/// Directories for a message: `'a', 'b'`.
fn quoted(dirs: &[&str]) -> String {
    let quoted: Vec<String> = dirs.iter().map(|d| format!("'{d}'")).collect();
    quoted.join(", ")
}

/// How a search uses the tables: the loaded set and the `Syzygy…` options.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Syzygy<'a> {
    /// The tables.
    pub tables: &'a Tablebases,
    /// `SyzygyProbeDepth`: the least depth at which the search probes positions with as many
    /// pieces as the largest tables it uses.
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: the most pieces of a position probed.
    pub probe_limit: u32,
}

/// One root move's place in a tablebase root: its rank (higher is better; the search plays
/// among the best-ranked) and the score shown for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RankedMove {
    /// The move.
    pub mv: Move,
    /// The root rank: a win certain under the fifty-move rule ranks [`MAX_DTZ`] less its
    /// DTZ, a win the rule may spoil lower the longer it takes (Stockfish's), draws 0,
    /// losses below (Stockfish's: equal while certain, then the longer the better).
    pub rank: i32,
    /// The score reported for the move (unless the search proves a mate).
    pub score: i32,
}

/// What one search does with the tables, decided at its root.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// The most pieces of a position the search probes (0: it does not probe).
    pub cardinality: u32,
    /// The least depth of a probe at `cardinality` pieces.
    pub probe_depth: i32,
    /// Whether cursed wins and blessed losses are draws.
    pub rule50: bool,
    /// The root moves ranked, when the root is in the tables.
    pub root: Option<Vec<RankedMove>>,
    /// Probes made at the root (reported as tablebase hits).
    pub root_hits: u64,
}

impl Syzygy<'_> {
    /// The plan of a search of `root` with the game `history` (the root's key last), as
    /// Stockfish's `rank_root_moves`: a root in the tables is ranked by DTZ (by WDL where a
    /// DTZ table is missing); the search then probes below only where DTZ was not available
    /// and the root is won.
    pub(crate) fn plan(&self, root: &Position, history: &History) -> Plan {
        let mut plan = Plan {
            cardinality: self.probe_limit.min(self.tables.max_pieces()),
            probe_depth: self.probe_depth,
            rule50: self.rule50,
            root: None,
            root_hits: 0,
        };
        if self.probe_limit > self.tables.max_pieces() {
            plan.probe_depth = 0;
        }
        let setup = Setup::of(root);
        if setup.pieces() > plan.cardinality || !root.castling().is_empty() {
            return plan;
        }
        let (ranked, dtz_available) = match self.rank_by_dtz(root, history) {
            Some(ranked) => (ranked, true),
            None => match self.rank_by_wdl(root) {
                Some(ranked) => (ranked, false),
                None => return plan,
            },
        };
        let best = ranked.iter().map(|r| r.rank).max().unwrap_or(0);
        let best_score = ranked
            .iter()
            .filter(|r| r.rank == best)
            .map(|r| r.score)
            .max()
            .unwrap_or(0);
        plan.root_hits = ranked.len() as u64;
        if dtz_available || best_score <= 0 {
            plan.cardinality = 0;
        }
        plan.root = Some(ranked);
        plan
    }

    /// Stockfish's `root_probe`: each move's DTZ from the root, ranked with the half-move
    /// clock and whether the game repeated since its last zeroing move (but certain wins by
    /// their DTZ: see the module docs).
    fn rank_by_dtz(&self, root: &Position, history: &History) -> Option<Vec<RankedMove>> {
        let probe = self.tables.probe_root(root).ok()?;
        if probe.moves.is_empty() {
            return None;
        }
        let cnt50 = i32::from(root.halfmove_clock());
        let repeated = history.has_repeated();
        let bound = if self.rule50 { MAX_DTZ - 100 } else { 1 };
        let ranked = probe
            .moves
            .iter()
            .map(|&(mv, dtz)| {
                let child = root.make(mv);
                // A move into a draw by the game's rules (a repetition, the fifty moves)
                // draws whatever the tables say.
                let drawn = child.halfmove_clock() != 0 && {
                    let mut game = history.clone();
                    game.push(child.key(), child.halfmove_clock());
                    game.is_repetition()
                        || (game.is_fifty_move_draw()
                            && !(child.in_check() && child.legal_moves().is_empty()))
                };
                let dtz = if drawn { 0 } else { dtz };
                let rank = if dtz > 0 {
                    if dtz + cnt50 <= 99 && !repeated {
                        MAX_DTZ - dtz
                    } else {
                        MAX_DTZ - (dtz + cnt50)
                    }
                } else if dtz < 0 {
                    if -dtz * 2 + cnt50 < 100 {
                        -MAX_DTZ
                    } else {
                        -MAX_DTZ + (-dtz + cnt50)
                    }
                } else {
                    0
                };
                RankedMove {
                    mv,
                    rank,
                    score: rank_score(rank, bound),
                }
            })
            .collect();
        Some(ranked)
    }

    /// Stockfish's `root_probe_wdl`: each move ranked by its WDL alone.
    fn rank_by_wdl(&self, root: &Position) -> Option<Vec<RankedMove>> {
        const RANK: [i32; 5] = [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ];
        const SCORE: [i32; 5] = [-TB_WIN, -2, 0, 2, TB_WIN];
        let legal = root.legal_moves();
        if legal.is_empty() {
            return None;
        }
        legal
            .as_slice()
            .iter()
            .map(|&mv| {
                let child = root.make(mv);
                let mut wdl = -self.tables.probe_wdl(&child).ok()?.value();
                if !self.rule50 {
                    wdl = 2 * wdl.signum();
                }
                let i = (wdl + 2) as usize;
                Some(RankedMove {
                    mv,
                    rank: RANK[i],
                    score: SCORE[i],
                })
            })
            .collect()
    }
}

/// Stockfish's root score of a rank: a certain win or loss is [`TB_WIN`] either way; a win
/// or loss the fifty-move rule turns into a draw (`bound`: the rank from which a win counts)
/// shows a few centipawns, more the nearer it is to a real one.
fn rank_score(rank: i32, bound: i32) -> i32 {
    if rank >= bound {
        TB_WIN
    } else if rank > 0 {
        (rank - (MAX_DTZ - 200)).max(3) * 100 / 200
    } else if rank == 0 {
        0
    } else if rank > -bound {
        (rank + (MAX_DTZ - 200)).min(-3) * 100 / 200
    } else {
        -TB_WIN
    }
}

/// How many pieces, kings included, `pos` has (read from the rank words).
#[inline]
pub(crate) fn piece_count(pos: &Position) -> u32 {
    pos.board()
        .words()
        .iter()
        .map(|&w| count_nibbles(occupied_nibbles(w)))
        .sum()
}

/// The 3-4-piece tables `scripts/setup-uci.sh` puts in target/test-data (python-chess's),
/// loaded once for every test of the process (the prober holds one set at a time), or
/// `None` where they are missing (the test says so and checks nothing more).
#[cfg(test)]
pub(crate) fn test_tables() -> Option<&'static Tablebases> {
    static TABLES: std::sync::OnceLock<Option<Tablebases>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-data/syzygy");
        if !Path::new(dir).join("KQvK.rtbw").is_file() {
            return None;
        }
        Some(Tablebases::load(dir).expect("the test tables load"))
    });
    if tables.is_none() {
        eprintln!("target/test-data/syzygy missing (make setup-uci): tablebase test skipped");
    }
    tables.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("a valid FEN")
    }

    #[test]
    fn setup_bitboards_are_in_a1_order() {
        let s = Setup::of(&Position::startpos());
        assert_eq!(s.white, 0xFFFF);
        assert_eq!(s.black, 0xFFFF << 48);
        assert_eq!(s.kings, 1 << 4 | 1 << 60);
        assert_eq!(s.queens, 1 << 3 | 1 << 59);
        assert_eq!(s.rooks, 0x81 | 0x81 << 56);
        assert_eq!(s.bishops, 0x24 | 0x24 << 56);
        assert_eq!(s.knights, 0x42 | 0x42 << 56);
        assert_eq!(s.pawns, 0xFF << 8 | 0xFF << 48);
        assert_eq!((s.en_passant, s.white_to_move, s.pieces()), (0, true, 32));

        // White king a1, pawn e5; Black king h8, pawn d5 just pushed: d6 is the square.
        let s = Setup::of(&pos("7k/8/8/3pP3/8/8/8/K7 w - d6 0 1"));
        assert_eq!((s.white, s.black), (1 | 1 << 36, 1 << 63 | 1 << 35));
        assert_eq!((s.kings, s.pawns), (1 | 1 << 63, 1 << 35 | 1 << 36));
        assert_eq!((s.en_passant, s.white_to_move), (43, true));
        assert_eq!(s.counts(), [[0, 0, 0, 0, 1], [0, 0, 0, 0, 1]]);

        let s = Setup::of(&pos("8/8/8/8/8/2k5/8/KQ2r3 b - - 3 60"));
        assert_eq!(
            (s.queens, s.rooks, s.white_to_move),
            (1 << 1, 1 << 4, false)
        );
        assert_eq!(s.counts(), [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0]]);
        assert_eq!(piece_count(&pos("8/8/8/8/8/2k5/8/KQ2r3 b - - 3 60")), 4);
        assert_eq!(table_name(&s.counts()), "KQvKR");
    }

    #[test]
    fn attacks_are_in_a1_order() {
        // Knight b1: a3, c3, d2.
        assert_eq!(Attacks::knight_attacks(1), 1 << 16 | 1 << 18 | 1 << 11);
        // King a1: a2, b1, b2.
        assert_eq!(Attacks::king_attacks(0), 1 << 8 | 1 << 1 | 1 << 9);
        // Pawns on e2 (White) and e7 (Black).
        assert_eq!(Attacks::pawn_attacks(Color::White, 12), 1 << 19 | 1 << 21);
        assert_eq!(Attacks::pawn_attacks(Color::Black, 52), 1 << 43 | 1 << 45);
        // Rook a1 blocked on a3 and c1; bishop c1 blocked on e3.
        let occupied = 1 << 16 | 1 << 2 | 1 << 20;
        assert_eq!(
            Attacks::rook_attacks(0, occupied),
            1 << 8 | 1 << 16 | 1 << 1 | 1 << 2
        );
        assert_eq!(
            Attacks::bishop_attacks(2, occupied),
            1 << 9 | 1 << 16 | 1 << 11 | 1 << 20
        );
        assert_eq!(
            Attacks::queen_attacks(0, 0),
            (0x0101_0101_0101_0101 | 0xFF | 0x8040_2010_0804_0201) & !1
        );
    }

    #[test]
    fn table_names_as_the_prober_files_them() {
        for good in [
            "KQvK", "KQvKR", "KRvKR", "KPvKP", "KQRvK", "KRPvKQ", "KBNvKNN",
        ] {
            assert!(parse_table_name(good).is_some(), "{good}");
        }
        for bad in [
            "KvK",
            "KvKQ",
            "KRvKQ",
            "KRQvK",
            "KQvKRR",
            "KQQQQQQvK",
            "KQv",
            "QvK",
            "KXvK",
        ] {
            assert!(parse_table_name(bad).is_none(), "{bad}");
        }
        assert_eq!(
            parse_table_name("KRPvKQ"),
            Some([[0, 1, 0, 0, 1], [1, 0, 0, 0, 0]])
        );
        assert_eq!(table_name(&[[0, 0, 0, 0, 1], [1, 0, 0, 0, 0]]), "KQvKP");
    }

    #[test]
    fn scores_lie_between_evaluations_and_mates() {
        assert!(TB_WIN < MATE_BOUND && DECISIVE + MAX_PLY as i32 == TB_WIN);
        // The largest material the rules allow, and more, evaluates far below DECISIVE.
        for fen in [
            "QQQQQQQQ/QRRBBNN1/8/8/8/8/8/K6k b - - 0 1",
            "7K/8/8/8/8/8/qrrbbnnk/qqqqqqqq w - - 0 1",
        ] {
            let score = crate::eval::evaluate(&pos(fen));
            assert!(score.abs() < DECISIVE, "{fen}: {score}");
        }
        assert_eq!(rank_score(MAX_DTZ, MAX_DTZ - 100), TB_WIN);
        assert_eq!(rank_score(-MAX_DTZ, MAX_DTZ - 100), -TB_WIN);
        assert_eq!(rank_score(MAX_DTZ - 150, MAX_DTZ - 100), 25);
        assert_eq!(rank_score(MAX_DTZ - 150, 1), TB_WIN);
        assert_eq!(rank_score(0, 1), 0);
    }

    #[test]
    fn bad_paths_are_refused_before_the_prober() {
        assert!(Tablebases::load("").is_err());
        assert!(Tablebases::load(":::").is_err());
        let err = Tablebases::load("/no/such/dir:/nor/this").unwrap_err();
        assert!(err.contains("no such directory"), "{err}");
        let dir = std::env::temp_dir().join(format!("ccr-tb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = Tablebases::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("no Syzygy tables"), "{err}");
        // A file named as a table that is none.
        std::fs::write(dir.join("KQvK.rtbw"), [0u8; 80]).unwrap();
        let err = Tablebases::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("wrong magic"), "{err}");
        std::fs::write(dir.join("KQvK.rtbw"), [0u8; 7]).unwrap();
        let err = Tablebases::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("not a whole table"), "{err}");
        std::fs::remove_file(dir.join("KQvK.rtbw")).unwrap();
        std::fs::create_dir(dir.join("KRvK.rtbz")).unwrap();
        let err = Tablebases::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        std::fs::remove_dir(dir.join("KRvK.rtbz")).unwrap();
        let fifo = std::ffi::CString::new(dir.join("KRvK.rtbz").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated name only.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let err = Tablebases::load(dir.to_str().unwrap()).unwrap_err();
        assert!(err.contains("KRvK.rtbz' is not a regular file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_read_once_however_named() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-data/syzygy");
        let path = format!("{dir}:{dir}/.:{dir}//:/no/such/dir:{dir}/../syzygy");
        assert_eq!(directories(&path), Ok(vec![dir]));
        let Some(tables) = test_tables() else { return };
        let found = Tablebases::scan(&path).expect("the tables are found");
        assert_eq!(found.table_counts(), tables.table_counts());
    }

    #[test]
    fn a_table_cut_short_is_refused() {
        let Some(tables) = test_tables() else { return };
        let dir = std::env::temp_dir().join(format!("ccr-tb-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(tables.path()).unwrap() {
            let from = entry.unwrap().path();
            std::fs::copy(&from, dir.join(from.file_name().unwrap())).unwrap();
        }
        let path = dir.to_str().unwrap();
        assert!(Tablebases::scan(path).is_ok());
        let table = dir.join("KRvKP.rtbw");
        File::options()
            .write(true)
            .open(&table)
            .unwrap()
            .set_len(16 + 65536)
            .unwrap();
        let err = Tablebases::scan(path).unwrap_err();
        assert!(
            err.ends_with(
                "KRvKP.rtbw' is not a whole table (65552 bytes, its header gives 179408)"
            ),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn known_positions_probe_as_python_chess_says() {
        let Some(tables) = test_tables() else { return };
        assert_eq!(tables.max_pieces(), 4);
        assert_eq!(tables.table_counts(), (35, 35));
        // Another set cannot be loaded beside it.
        assert!(Tablebases::load(tables.path()).is_err());
        // (FEN, WDL, DTZ) as chess.syzygy gives them.
        for (fen, wdl, dtz) in [
            ("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", -2, -53),
            ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", -2, -1),
            ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", 0, 0),
            ("8/8/8/8/8/1k6/8/KQ6 b - - 0 1", -2, -14),
            ("8/8/8/8/8/8/8/K1k5 w - - 0 1", 0, 0),
        ] {
            let p = pos(fen);
            assert_eq!(tables.probe_wdl(&p).map(Wdl::value), Ok(wdl), "{fen}");
            let root = tables.probe_root(&p).expect("in the tables");
            assert_eq!((root.wdl.value(), root.dtz), (wdl, dtz), "{fen}");
        }
        assert_eq!(
            tables.probe_wdl(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
            Err(Absent::Castling)
        );
        assert_eq!(
            tables.probe_wdl(&pos("4k3/8/8/8/8/8/8/RR2K2R w - - 0 1")),
            Err(Absent::Pieces(5, 4))
        );
    }

    #[test]
    fn root_moves_keep_the_win() {
        let Some(tables) = test_tables() else { return };
        // KRvK, White to move: each move's DTZ, wins for every rook move that keeps the rook.
        let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
        let root = tables.probe_root(&p).unwrap();
        assert_eq!(root.wdl, Wdl::Win);
        assert_eq!(root.moves.len(), p.legal_moves().len());
        let best = root.moves.iter().map(|&(_, d)| d).filter(|&d| d > 0).min();
        assert_eq!(best, Some(root.dtz));
        let syzygy = Syzygy {
            tables,
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        };
        let mut history = History::new();
        history.push(p.key(), p.halfmove_clock());
        let plan = syzygy.plan(&p, &history);
        let ranked = plan.root.expect("the root is in the tables");
        assert_eq!(plan.cardinality, 0, "DTZ at the root: no probes below");
        for r in &ranked {
            let dtz = root.moves.iter().find(|m| m.0 == r.mv).unwrap().1;
            assert_eq!(
                r.rank,
                if dtz > 0 { MAX_DTZ - dtz } else { r.rank },
                "{}",
                r.mv
            );
            assert_eq!(r.rank > MAX_DTZ - 100, dtz > 0, "{}", r.mv);
            assert_eq!(r.score == TB_WIN, dtz > 0, "{}", r.mv);
        }
        // The best-ranked moves are the fastest wins.
        let top = ranked.iter().map(|r| r.rank).max().unwrap();
        assert_eq!(top, MAX_DTZ - best.unwrap());
        // Near the fifty-move limit only the fastest win keeps the top rank.
        let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 95 60");
        let mut history = History::new();
        history.push(p.key(), p.halfmove_clock());
        let ranked = syzygy.plan(&p, &history).root.unwrap();
        let top = ranked.iter().map(|r| r.rank).max().unwrap();
        for r in ranked.iter().filter(|r| r.rank == top) {
            let dtz = root.moves.iter().find(|m| m.0 == r.mv).unwrap().1;
            assert_eq!(Some(dtz), best, "{}", r.mv);
        }
    }
}

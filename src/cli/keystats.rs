//! `ccr keystats`: the engine's side of the key statistics (the measurement itself is the
//! `ccr-keystats` crate, which knows identities and keys only). Here are the positions:
//! walks of the perft trees of the six standard positions and seeded random games
//! (xoshiro256++, uniform legal moves; a game ends at mate or stalemate, at the fifty-move
//! rule, with bare kings or after 400 plies), the identity of a position, both keys carried
//! incrementally, and the timing of the key operations.

use std::hint::black_box;
use std::path::PathBuf;

use ccr_keystats::cost::{Costs, ns_per_call};
use ccr_keystats::{Engine, FROM_GAME, FROM_TREE, Identity, Zobrist};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use ccr::FenError;
use ccr::RotationKey;
use ccr::kernels::nibbles::occupied_nibbles;
use ccr::{CastlingRights, Ccr};
use ccr::{Colour, Move, Square};
use ccr::{MoveList, Portable, Position};

use super::on_board::OnBoard;
use super::whole_file::WholeFile;
use super::{Failure, emit};

/// A game ends after this many plies at the latest.
const MAX_GAME_PLIES: u32 = 400;

/// The arguments of `ccr keystats`.
#[derive(clap::Args)]
pub struct Args {
    /// Distinct positions to collect, at least (1000000, 1e8, 100M, …).
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = ccr_keystats::parse_count)]
    positions: u64,
    /// Seed of the random games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Directory for the working files (a subdirectory ccr-keystats-<pid>, removed at the
    /// end; about 120 bytes per position) [default: the system temp directory].
    #[arg(long, value_name = "PATH")]
    dir: Option<PathBuf>,
    /// List the positions whose keys agree in this truncation (`low48`, `top40`, …): every
    /// group of each scheme, with the keys and FENs (up to 100,000 keys a scheme).
    #[arg(long, value_name = "BITS", value_parser = ccr_keystats::Truncation::parse)]
    pairs: Option<ccr_keystats::Truncation>,
    /// Run shard K of N (1 <= K <= N): every shard generates the same positions and keeps
    /// about 4/N of them; writes a partial result for --merge instead of the tables.
    #[arg(long, value_name = "K/N", value_parser = ccr_keystats::Shard::parse)]
    shard: Option<ccr_keystats::Shard>,
    /// Write the shard's partial result to FILE, made whole or not at all (FILE, or the file a
    /// symbolic link points to, must be a regular file or missing) [default: stdout].
    #[arg(long, value_name = "FILE", requires = "shard")]
    out: Option<PathBuf>,
    /// Merge the partial results of all N shards of one run into the tables one process
    /// prints.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["positions", "seed", "dir", "pairs", "shard", "out"]
    )]
    merge: Vec<PathBuf>,
}

/// Runs `ccr keystats`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args {
        positions,
        seed,
        dir,
        pairs,
        shard,
        out,
        merge,
    } = args;
    if !merge.is_empty() {
        return emit(&merged(&merge)?.to_markdown());
    }
    // Before hours of work: `--out` must be able to take the result.
    let out = out.map(|out| WholeFile::check("--out", &out)).transpose()?;
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
    ccr_keystats::catch_signals();
    let mut config = ccr_keystats::Config::new(positions, seed, dir, env!("CCR_COMMIT"));
    config.keep = pairs;
    config.shard = shard;
    let report = ccr_keystats::run(&config, &mut Generator::new(seed)).map_err(Failure)?;
    match shard {
        None => emit(&report.to_markdown()),
        Some(shard) => {
            let partial = ccr_keystats::write_partial(shard, &report);
            match out {
                None => emit(&partial),
                Some(out) => out.write(&partial),
            }
        }
    }
}

/// The report merged from the partial results in `files`, each read line by line.
fn merged(files: &[PathBuf]) -> Result<ccr_keystats::Report, Failure> {
    let mut parts = Vec::new();
    for file in files {
        let name = file.display().to_string();
        let reader = std::fs::File::open(file)
            .map(std::io::BufReader::new)
            .map_err(|e| Failure(format!("--merge {name}: cannot read: {e}")))?;
        let (shard, report) = ccr_keystats::read_partial(reader)
            .map_err(|e| Failure(format!("--merge {name}: {e}")))?;
        parts.push((name, shard, report));
    }
    ccr_keystats::merge(parts).map_err(|e| Failure(format!("--merge: {e}")))
}

/// The identity of a position: its rank words and keyed state (what the Zobrist baseline
/// keys).
fn identity(pos: &Position) -> Identity {
    Identity::of(&OnBoard(pos))
}

/// A position with this identity (clocks zero and one), for showing a collision, or why the
/// identity (read back from a bucket file) is no position.
fn position(id: &Identity) -> Result<Position, FenError> {
    let board = Ccr::from_words(id.ranks());
    let side = if id.black_to_move() {
        Colour::Black
    } else {
        Colour::White
    };
    let en_passant = id.en_passant_file().map(|file| {
        let rank = if side == Colour::White { 5 } else { 2 };
        Square::from_file_rank(file, rank)
    });
    Position::from_parts(
        board,
        side,
        CastlingRights::from_bits_truncate(id.castling()),
        en_passant,
        0,
        1,
    )
}

/// The FEN of [`position`], or what keeps the identity from being a position.
fn fen(id: &Identity) -> String {
    position(id).map_or_else(|e| format!("(not a position: {e})"), |p| p.to_fen())
}

/// A position with both keys, its parent's keys and its source.
#[derive(Copy, Clone)]
struct Visit {
    pos: Position,
    keys: [u64; 2],
    parent: Option<[u64; 2]>,
    source: u8,
}

fn keys_of(pos: &Position) -> [u64; 2] {
    [RotationKey.key(pos), Zobrist::get().key(&OnBoard(pos))]
}

/// The child of `pos` by `mv` with both keys updated incrementally: the rotation key by the
/// engine's `make_keyed`, the Zobrist key by `Zobrist::update`.
#[inline]
fn child(pos: &Position, keys: [u64; 2], mv: Move) -> (Position, [u64; 2]) {
    let (next, rotation) = pos.make_keyed(mv, keys[0]);
    let zobrist = Zobrist::get().update(keys[1], &OnBoard(pos), &OnBoard(&next));
    (next, [rotation, zobrist])
}

/// The six standard positions.
fn standard_positions() -> Vec<Position> {
    ccr::positions::STANDARD
        .iter()
        .map(|fen| Position::from_fen(fen).expect("the standard perft positions parse"))
        .collect()
}

struct Frame {
    pos: Position,
    keys: [u64; 2],
    moves: MoveList,
    next: usize,
}

/// A depth-first walk of one tree yielding the nodes at exactly one ply.
struct Walk {
    stack: Vec<Frame>,
    ply: usize,
}

impl Walk {
    fn new(root: &Position, ply: usize) -> Walk {
        let mut frame = Frame {
            pos: *root,
            keys: keys_of(root),
            moves: MoveList::new(),
            next: 0,
        };
        if ply > 0 {
            root.generate_legal(Portable, &mut frame.moves);
        }
        let mut stack = Vec::with_capacity(ply + 1);
        stack.push(frame);
        Walk { stack, ply }
    }

    fn next(&mut self) -> Option<Visit> {
        if self.ply == 0 {
            let root = self.stack.pop()?;
            return Some(Visit {
                pos: root.pos,
                keys: root.keys,
                parent: None,
                source: FROM_TREE,
            });
        }
        loop {
            let depth = self.stack.len();
            let top = self.stack.last_mut()?;
            if top.next == top.moves.len() {
                self.stack.pop();
                continue;
            }
            let mv = top.moves.as_slice()[top.next];
            top.next += 1;
            let parent = top.keys;
            let (pos, keys) = child(&top.pos, parent, mv);
            if depth == self.ply {
                return Some(Visit {
                    pos,
                    keys,
                    parent: Some(parent),
                    source: FROM_TREE,
                });
            }
            let mut frame = Frame {
                pos,
                keys,
                moves: MoveList::new(),
                next: 0,
            };
            pos.generate_legal(Portable, &mut frame.moves);
            self.stack.push(frame);
        }
    }
}

/// The perft trees of the six positions, ply by ply, the six walks of a ply interleaved.
struct Trees {
    roots: Vec<Position>,
    /// The ply being walked (the next one once `walks` is empty).
    ply: usize,
    walks: Vec<Walk>,
    turn: usize,
}

impl Trees {
    fn new(roots: Vec<Position>) -> Trees {
        let walks = roots.iter().map(|root| Walk::new(root, 0)).collect();
        Trees {
            roots,
            ply: 0,
            walks,
            turn: 0,
        }
    }

    fn next(&mut self) -> Visit {
        loop {
            if self.walks.is_empty() {
                self.ply += 1;
                self.walks = self
                    .roots
                    .iter()
                    .map(|root| Walk::new(root, self.ply))
                    .collect();
                self.turn = 0;
            }
            let i = self.turn % self.walks.len();
            match self.walks[i].next() {
                Some(visit) => {
                    self.turn = i + 1;
                    return visit;
                }
                None => {
                    self.walks.remove(i);
                    self.turn = i;
                }
            }
        }
    }
}

struct Game {
    pos: Position,
    keys: [u64; 2],
    plies: u32,
}

/// Seeded random games, one after another, from the six positions in turn.
struct Games {
    rng: Xoshiro256PlusPlus,
    starts: Vec<(Position, [u64; 2])>,
    started: u64,
    current: Option<Game>,
    moves: MoveList,
}

/// Whether only the two kings are left.
fn bare_kings(pos: &Position) -> bool {
    pos.board()
        .words()
        .iter()
        .map(|&w| occupied_nibbles(w).count_ones())
        .sum::<u32>()
        <= 2
}

/// A uniform index below `len` from 64 random bits.
#[inline]
fn pick(random: u64, len: usize) -> usize {
    ((random as u128 * len as u128) >> 64) as usize
}

impl Games {
    fn new(starts: &[Position], seed: u64) -> Games {
        Games {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            starts: starts.iter().map(|pos| (*pos, keys_of(pos))).collect(),
            started: 0,
            current: None,
            moves: MoveList::new(),
        }
    }

    fn next(&mut self) -> Visit {
        if let Some(game) = &mut self.current {
            let pos = &game.pos;
            if game.plies < MAX_GAME_PLIES && pos.halfmove_clock() < 100 && !bare_kings(pos) {
                pos.generate_legal(Portable, &mut self.moves);
                if !self.moves.is_empty() {
                    let mv = self.moves.as_slice()[pick(self.rng.next_u64(), self.moves.len())];
                    let parent = game.keys;
                    let (pos, keys) = child(&game.pos, parent, mv);
                    *game = Game {
                        pos,
                        keys,
                        plies: game.plies + 1,
                    };
                    return Visit {
                        pos,
                        keys,
                        parent: Some(parent),
                        source: FROM_GAME,
                    };
                }
            }
        }
        let (pos, keys) = self.starts[(self.started % self.starts.len() as u64) as usize];
        self.started += 1;
        self.current = Some(Game {
            pos,
            keys,
            plies: 0,
        });
        Visit {
            pos,
            keys,
            parent: None,
            source: FROM_GAME,
        }
    }
}

/// Both sources, taking turns.
struct Generator {
    trees: Trees,
    games: Games,
    turn: bool,
    /// Positions generated by the trees and by the games, for the check of the keys.
    generated: [u64; 2],
}

impl Generator {
    fn new(seed: u64) -> Generator {
        let positions = standard_positions();
        Generator {
            games: Games::new(&positions, seed),
            trees: Trees::new(positions),
            turn: false,
            generated: [0; 2],
        }
    }

    #[inline]
    fn next(&mut self) -> Visit {
        self.turn = !self.turn;
        if self.turn {
            self.trees.next()
        } else {
            self.games.next()
        }
    }
}

impl Engine for Generator {
    /// The next position of the two sources, its keys checked against the keys from scratch
    /// now and then (the first of every 4096 of each source).
    fn next_visit(&mut self) -> Result<ccr_keystats::Visit, String> {
        let visit = self.next();
        let index = usize::from(visit.source == FROM_GAME);
        self.generated[index] += 1;
        if self.generated[index] % 4096 == 1 && keys_of(&visit.pos) != visit.keys {
            return Err(format!(
                "internal error: an incremental key differs from the key computed from scratch at {}",
                visit.pos.to_fen()
            ));
        }
        Ok(ccr_keystats::Visit {
            id: identity(&visit.pos),
            keys: visit.keys,
            parent: visit.parent,
            source: visit.source,
        })
    }

    fn describe(&self, id: &Identity) -> String {
        fen(id)
    }

    fn tree_ply(&self) -> usize {
        self.trees.ply
    }

    fn games(&self) -> u64 {
        self.games.started
    }

    fn measure_costs(&self, seed: u64, calls: u64) -> Result<Costs, String> {
        measure_costs(seed, calls)
    }
}

/// One timed move: the position, the move and the position's keys.
struct Sample {
    pos: Position,
    mv: Move,
    keys: [u64; 2],
}

/// Times the key operations over moves of seeded random games (at most 2^18 of them,
/// replayed to make `calls` calls); an error if the sample cannot be had.
fn measure_costs(seed: u64, calls: u64) -> Result<Costs, String> {
    let size = calls.clamp(1, 1 << 18) as usize;
    let mut games = Games::new(&standard_positions(), seed ^ 0xC057_C057_C057_C057);
    let mut samples = ccr_keystats::buckets::buffer(size, "the sample of moves timed")?;
    let mut moves = MoveList::new();
    while samples.len() < size {
        let visit = games.next();
        visit.pos.generate_legal(Portable, &mut moves);
        if let Some(&mv) = moves
            .as_slice()
            .get(pick(games.rng.next_u64(), moves.len()))
        {
            samples.push(Sample {
                pos: visit.pos,
                mv,
                keys: visit.keys,
            });
        }
    }
    let rounds = calls.div_ceil(size as u64).max(1);
    let zobrist = Zobrist::get();
    Ok(Costs {
        calls: rounds * size as u64,
        make: ns_per_call(&samples, rounds, |s| {
            black_box(s.pos.make(s.mv));
        }),
        make_keyed: ns_per_call(&samples, rounds, |s| {
            black_box(s.pos.make_keyed(s.mv, s.keys[0]));
        }),
        make_rotation_update: ns_per_call(&samples, rounds, |s| {
            let next = s.pos.make(s.mv);
            let key = RotationKey.update(s.keys[0], &s.pos, &next);
            black_box((next, key));
        }),
        make_zobrist_update: ns_per_call(&samples, rounds, |s| {
            let next = s.pos.make(s.mv);
            let key = zobrist.update(s.keys[1], &OnBoard(&s.pos), &OnBoard(&next));
            black_box((next, key));
        }),
        rotation_scratch: ns_per_call(&samples, rounds, |s| {
            black_box(RotationKey.key(&s.pos));
        }),
        zobrist_scratch: ns_per_call(&samples, rounds, |s| {
            black_box(zobrist.key(&OnBoard(&s.pos)));
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_ignore_the_clocks_and_show_the_position() {
        let a = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        let b = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 7 30")
            .unwrap();
        assert_eq!(identity(&a), identity(&b));
        assert_eq!(fen(&identity(&a)), a.to_fen());
        // An en-passant square with no legal capture is not part of the identity.
        let quiet =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .unwrap();
        let none = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
        assert_eq!(identity(&quiet), identity(&none));
        assert_ne!(identity(&a).hash(), identity(&none).hash());
    }

    #[test]
    fn an_identity_that_is_no_position_is_shown_as_such() {
        // No kings at all (a corrupt bucket file), and the start position with rights it
        // cannot have after its rooks left.
        let empty = Identity {
            board: [0; 4],
            state: 0,
        };
        assert_eq!(
            fen(&empty),
            "(not a position: White has 0 kings instead of 1)"
        );
        let start = Position::startpos();
        let mut rookless = identity(&start);
        rookless.board =
            *Position::from_fen("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w - - 0 1")
                .unwrap()
                .board()
                .as_u64s();
        assert_eq!(
            fen(&rookless),
            "(not a position: castling right 'K' without king and rook on their home squares)"
        );
    }
    #[test]
    fn sources_walk_the_trees_and_play_games() {
        let roots = standard_positions();
        assert_eq!(roots.len(), 6);
        let mut trees = Trees::new(vec![roots[0]]);
        let mut per_ply = [0u64; 3];
        while trees.ply < 3 {
            let visit = trees.next();
            if trees.ply < 3 {
                per_ply[trees.ply] += 1;
                assert_eq!(keys_of(&visit.pos), visit.keys);
            }
        }
        assert_eq!(per_ply, [1, 20, 400]);
        let mut games = Games::new(&roots, 1);
        let mut moves = 0;
        for _ in 0..2000 {
            let visit = games.next();
            assert_eq!(keys_of(&visit.pos), visit.keys);
            moves += u64::from(visit.parent.is_some());
        }
        assert!(moves > 1900);
    }

    #[test]
    fn a_small_run_reports_and_cleans_up() {
        let parent = std::env::temp_dir().join(format!("ccr-keystats-run-{}", std::process::id()));
        let config = ccr_keystats::Config {
            positions: 5000,
            seed: 9,
            parent_dir: parent.clone(),
            progress: false,
            cost_calls: 1000,
            commit: env!("CCR_COMMIT").to_string(),
            keep: None,
            kept_keys: ccr_keystats::KEPT_KEYS,
            shard: None,
        };
        std::fs::create_dir_all(&parent).unwrap();
        let report = ccr_keystats::run(&config, &mut Generator::new(9)).unwrap();
        assert!(report.distinct.n >= 5000);
        assert!(report.distinct.n < 5500);
        assert_eq!(report.pairs[2].pairs_at(64), 0);
        assert!(report.tree_ply >= 2 && report.games > 0);
        let text = report.to_markdown();
        for row in [
            "| rotation | top 32 |",
            "| zobrist | low 48 |",
            "| rotation | 2^20 |",
        ] {
            assert!(text.contains(row), "{row}\n{text}");
        }
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 0);
        std::fs::remove_dir(&parent).unwrap();
    }
}

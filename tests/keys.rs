//! The transposition keys (`ccr::RotationKey`): every incremental key equals the key computed
//! from scratch, transpositions key alike, and the rotation key tells positions apart exactly
//! as shakmaty's Zobrist hash does.
//!
//! - **Incremental = from scratch**, for the rotation key by `Position::make_keyed` and by
//!   `RotationKey.update`, and for the Zobrist baseline (`ccr_keystats::Zobrist`, on the
//!   positions' identities) by `Zobrist::update`: each carried along seeded random games (ccr
//!   and shakmaty in lockstep, moves biased toward captures and pawn moves, as in
//!   `tests/differential.rs`) and along every path of the depth-3 perft trees of
//!   `tests/data/standard-perft.epd` and `tests/data/tricky-perft.epd`, and also taken one
//!   step from every position of the games for every legal move.
//! - **The Zobrist baseline's keys** of a dozen positions are the recorded ones (the tables'
//!   seed and draw order are part of the baseline).
//! - **What the keys depend on:** transpositions key alike (including a double push that allows
//!   no en-passant capture against the same position reached by single pushes), the clocks do
//!   not count; the side to move, each castling right and a legal en-passant square do.
//! - **Against shakmaty:** over all positions of the random games and of the perft
//!   trees, two positions have equal rotation keys (and equal Zobrist keys) exactly when
//!   shakmaty's `Zobrist64` hashes with `EnPassantMode::Legal` are equal.
//!
//! Failures print the FENs and the moves that led to them.

use crate::common;

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::OnceLock;

use ccr::CastlingRights;
use ccr::RotationKey;
use ccr::{Colour, Move, MoveKind, PieceCode, PieceType, Position};
use common::games::{Plan, line_text as line, random_game};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// The random games, from the first five standard positions (the initial position, Kiwipete,
/// position 3: en passant, rook checks along the rank; position 4: promotions, one side's
/// castling rights; position 5) and a position with pawns on both sides of each other's double
/// pushes.
const PLAN: Plan = Plan {
    standard: 5,
    more: &["r3k2r/p1p1p1p1/8/1P1P1P1P/1p1p1p1p/8/P1P1P1P1/R3K2R w KQkq - 0 1"],
    games_per_start: 100,
    max_plies: 160,
    min_positions: 20_000,
    seed: 0x00CC_4E75_0000,
};

/// The depth of the perft trees walked.
const TREE_DEPTH: usize = 3;

/// The key of a position by each scheme, and shakmaty's.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Keys {
    rotation: u64,
    zobrist: u64,
    shakmaty: u64,
}

/// Where a position came from, to print on failure.
#[derive(Copy, Clone, Debug)]
enum Origin {
    /// Ply `ply` of random game `game`.
    Game { game: usize, ply: usize },
    /// A node of the perft tree of `TREES[tree]`, reached by `path[..len]`.
    Tree {
        tree: usize,
        path: [Move; TREE_DEPTH],
        len: usize,
    },
}

/// One random game: its start position and its moves.
struct Game {
    start: &'static str,
    moves: Vec<Move>,
}

/// The positions of the random games, each with its keys.
struct Games {
    games: Vec<Game>,
    positions: Vec<(Position, Keys, Origin)>,
}

/// What the games are made of, counted over the moves checked (every legal move of every
/// position is made once, so these are moves tried, not moves played).
#[derive(Debug, Default)]
struct Coverage {
    moves: usize,
    captures: usize,
    pawn_moves: usize,
    castles: usize,
    en_passant: usize,
    promotions: usize,
    /// Double pushes after which an en-passant capture is legal (the square is keyed).
    double_push_keyed: usize,
    /// Double pushes after which none is (the square is recorded, but not keyed).
    double_push_unkeyed: usize,
    /// Moves that change the castling rights.
    rights_lost: usize,
}

impl Coverage {
    fn count(&mut self, pos: &Position, mv: Move, after: &Position) {
        let piece = pos.board().get(mv.from());
        self.moves += 1;
        self.captures += usize::from(
            pos.board().get(mv.to()) != PieceCode::EMPTY || mv.kind() == MoveKind::EnPassant,
        );
        self.pawn_moves += usize::from(piece.piece_type() == Some(PieceType::Pawn));
        self.castles += usize::from(mv.kind() == MoveKind::Castle);
        self.en_passant += usize::from(mv.kind() == MoveKind::EnPassant);
        self.promotions += usize::from(mv.promotion().is_some());
        if mv.kind() == MoveKind::DoublePush {
            if after.keyed_en_passant().is_some() {
                self.double_push_keyed += 1;
            } else {
                self.double_push_unkeyed += 1;
            }
        }
        self.rights_lost += usize::from(pos.castling() != after.castling());
    }

    fn all_seen(&self) -> bool {
        [
            self.captures,
            self.pawn_moves,
            self.castles,
            self.en_passant,
            self.promotions,
            self.double_push_keyed,
            self.double_push_unkeyed,
            self.rights_lost,
        ]
        .iter()
        .all(|&n| n > 0)
    }
}

fn parse(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("ccr rejects {fen}: {e}"))
}

fn shakmaty_position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot parse {fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e:?}"))
}

fn shakmaty_hash(sh: &Chess) -> u64 {
    sh.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// shakmaty's move for ccr's `mv`.
fn shakmaty_move(sh: &Chess, mv: Move) -> shakmaty::Move {
    let uci = mv.to_string();
    UciMove::from_ascii(uci.as_bytes())
        .expect("ccr writes UCI")
        .to_move(sh)
        .unwrap_or_else(|_| {
            let fen = Fen::from_position(sh.clone(), EnPassantMode::Always);
            panic!("shakmaty has no move {uci} in {fen}")
        })
}

/// The three keys of a position, from scratch.
fn keys_of(pos: &Position, sh: &Chess) -> Keys {
    Keys {
        rotation: pos.key(),
        zobrist: common::zobrist::key(pos),
        shakmaty: shakmaty_hash(sh),
    }
}

/// Checks that the keys of `after`, reached from `before` (whose keys from scratch are
/// `rotation` and `zobrist`) by `mv`, are the same incrementally as from scratch, and returns
/// them. `context` names the position `before` for the failure message.
fn check_step(
    before: &Position,
    rotation: u64,
    zobrist: u64,
    mv: Move,
    context: &dyn Fn() -> String,
) -> (Position, u64, u64) {
    let (after, keyed) = before.make_keyed(mv, rotation);
    let made = before.make(mv);
    let fail = |what: &str| {
        format!(
            "{what} after {mv}\n  before: {}\n  after:  {}\n{}",
            before.to_fen(),
            made.to_fen(),
            context()
        )
    };
    assert_eq!(after, made, "{}", fail("make_keyed and make differ"));
    let scratch = after.key();
    assert_eq!(
        keyed,
        scratch,
        "{}",
        fail("make_keyed's key differs from key()")
    );
    assert_eq!(
        RotationKey.update(rotation, before, &after),
        scratch,
        "{}",
        fail("RotationKey.update differs from key()")
    );
    let zobrist_scratch = common::zobrist::key(&after);
    assert_eq!(
        common::zobrist::update(zobrist, before, &after),
        zobrist_scratch,
        "{}",
        fail("Zobrist::update differs from Zobrist::key")
    );
    (after, scratch, zobrist_scratch)
}

/// The games, played once and shared by the tests, with their coverage.
fn games() -> &'static (Games, Coverage) {
    static GAMES: OnceLock<(Games, Coverage)> = OnceLock::new();
    GAMES.get_or_init(play_all_games)
}

fn play_all_games() -> (Games, Coverage) {
    let mut games = Games {
        games: Vec::new(),
        positions: Vec::new(),
    };
    let mut coverage = Coverage::default();
    for (start, seed) in PLAN.games() {
        play_game(start, seed, &mut games, &mut coverage);
    }
    (games, coverage)
}

/// Plays one random game, carrying the three keys incrementally from the start position and
/// checking them against the keys from scratch after every move; at every position, also makes
/// every legal move once from the keys from scratch. Appends the game and its positions.
fn play_game(start: &'static str, seed: u64, games: &mut Games, coverage: &mut Coverage) {
    let game = games.games.len();
    let first = parse(start);
    let mut sh = shakmaty_position(start);
    // Carried incrementally over the whole game, never recomputed.
    let (mut keyed, mut rotated, mut zobrist) =
        (first.key(), first.key(), common::zobrist::key(&first));
    let mut before = first;
    let moves = random_game(first, seed, PLAN.max_plies, |pos, legal, moves| {
        let context = || format!("  start FEN: {start}\n  moves:     {}", line(moves));
        if let Some(&mv) = moves.last() {
            let made;
            (made, keyed) = before.make_keyed(mv, keyed);
            assert_eq!(made, *pos, "make_keyed differs from play\n{}", context());
            rotated = RotationKey.update(rotated, &before, pos);
            zobrist = common::zobrist::update(zobrist, &before, pos);
            let sh_move = shakmaty_move(&sh, mv);
            sh.play_unchecked(&sh_move);
        }
        before = *pos;
        let fen = pos.to_fen();
        assert_eq!(
            fen,
            Fen::from_position(sh.clone(), EnPassantMode::Always).to_string(),
            "ccr and shakmaty disagree on the position\n{}",
            context()
        );
        let keys = keys_of(pos, &sh);
        assert_eq!(
            (keyed, rotated, zobrist),
            (keys.rotation, keys.rotation, keys.zobrist),
            "the keys carried over the game (make_keyed, RotationKey.update, Zobrist::update) \
             differ from the keys from scratch (rotation, rotation, Zobrist) at {fen}\n{}",
            context()
        );
        games.positions.push((
            *pos,
            keys,
            Origin::Game {
                game,
                ply: moves.len(),
            },
        ));
        for &mv in legal {
            let (after, _, _) = check_step(pos, keys.rotation, keys.zobrist, mv, &context);
            coverage.count(pos, mv, &after);
        }
        true
    });
    games.games.push(Game { start, moves });
}

/// The perft positions: (file, id, FEN, leaves at depth 3).
fn trees() -> &'static [(&'static str, String, String, u64)] {
    static TREES: OnceLock<Vec<(&'static str, String, String, u64)>> = OnceLock::new();
    TREES.get_or_init(|| {
        let mut trees = Vec::new();
        for file in ["standard-perft.epd", "tricky-perft.epd"] {
            for case in common::epd::load(file) {
                let leaves = case
                    .count(TREE_DEPTH as u32)
                    .unwrap_or_else(|| panic!("no D{TREE_DEPTH} count in {}", case.id));
                trees.push((file, case.id, case.fen, leaves));
            }
        }
        trees
    })
}

/// The tree and the moves of a node, for failure messages.
fn tree_context(tree: usize, path: &[Move]) -> String {
    let (file, id, fen, _) = &trees()[tree];
    format!(
        "  tree:      {id} ({file}) {fen}\n  moves:     {}",
        line(path)
    )
}

/// The depth-3 tree under `pos`: the keys carried down each path (by `make_keyed`,
/// `RotationKey.update` and `Zobrist::update`) equal the keys from scratch at every node, and
/// every move of every node is checked by [`check_step`]. ccr and shakmaty (`sh`) walk the tree
/// in lockstep, and every node is pushed to `nodes` with its keys and shakmaty's hash. Returns
/// the leaves.
fn walk(
    tree: usize,
    pos: &Position,
    carried: (u64, u64, u64),
    sh: &Chess,
    path: &mut Vec<Move>,
    depth: usize,
    nodes: &mut Vec<(Position, Keys, Origin)>,
) -> u64 {
    let (rotation, zobrist) = (pos.key(), common::zobrist::key(pos));
    assert_eq!(
        carried,
        (rotation, rotation, zobrist),
        "the keys carried down the tree (make_keyed, RotationKey.update, Zobrist::update) \
         differ from the keys from scratch (rotation, rotation, Zobrist) at {}\n{}",
        pos.to_fen(),
        tree_context(tree, path)
    );
    let mut stored = [Move::default(); TREE_DEPTH];
    stored[..path.len()].copy_from_slice(path);
    nodes.push((
        *pos,
        Keys {
            rotation,
            zobrist,
            shakmaty: shakmaty_hash(sh),
        },
        Origin::Tree {
            tree,
            path: stored,
            len: path.len(),
        },
    ));
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for &mv in pos.legal_moves().as_slice() {
        check_step(pos, rotation, zobrist, mv, &|| tree_context(tree, path));
        let (child, keyed) = pos.make_keyed(mv, carried.0);
        let rotated = RotationKey.update(carried.1, pos, &child);
        let zobrist = common::zobrist::update(carried.2, pos, &child);
        let mut sh_child = sh.clone();
        sh_child.play_unchecked(&shakmaty_move(sh, mv));
        path.push(mv);
        leaves += walk(
            tree,
            &child,
            (keyed, rotated, zobrist),
            &sh_child,
            path,
            depth - 1,
            nodes,
        );
        path.pop();
    }
    leaves
}

/// The nodes of all the depth-3 trees (standard and tricky), with their keys and shakmaty's
/// hash: the trees are walked, and checked, once.
fn tree_nodes() -> &'static Vec<(Position, Keys, Origin)> {
    static NODES: OnceLock<Vec<(Position, Keys, Origin)>> = OnceLock::new();
    NODES.get_or_init(|| {
        let mut nodes = Vec::new();
        for (tree, (file, id, fen, expected)) in trees().iter().enumerate() {
            let root = parse(fen);
            let carried = (root.key(), root.key(), common::zobrist::key(&root));
            let sh = shakmaty_position(fen);
            let leaves = walk(
                tree,
                &root,
                carried,
                &sh,
                &mut Vec::new(),
                TREE_DEPTH,
                &mut nodes,
            );
            assert_eq!(
                leaves, *expected,
                "perft({TREE_DEPTH}) of {id} ({file}) {fen}"
            );
        }
        nodes
    })
}

/// A position's origin: its FEN and the start FEN and moves that led to it.
fn describe(pos: &Position, origin: Origin) -> String {
    let (start, moves) = match origin {
        Origin::Game { game, ply } => {
            let g = &games().0.games[game];
            (g.start.to_string(), line(&g.moves[..ply]))
        }
        Origin::Tree { tree, path, len } => (trees()[tree].2.clone(), line(&path[..len])),
    };
    format!(
        "    FEN:       {}\n    start FEN: {start}\n    moves:     {moves}",
        pos.to_fen()
    )
}

/// Two positions whose keys should agree, printed with where they came from.
fn pair(what: &str, a: (&Position, Origin), b: (&Position, Origin), keys: (Keys, Keys)) -> String {
    format!(
        "{what}\n  first ({:x?}):\n{}\n  second ({:x?}):\n{}",
        keys.0,
        describe(a.0, a.1),
        keys.1,
        describe(b.0, b.1)
    )
}

/// Over `positions`, checks that equal shakmaty hashes go with equal rotation and Zobrist keys
/// and the other way round; returns (distinct positions, positions seen again).
fn check_equivalence(positions: &[(Position, Keys, Origin)]) -> (usize, usize) {
    type Seen = HashMap<u64, usize>;
    let (mut by_shakmaty, mut by_rotation, mut by_zobrist) =
        (Seen::new(), Seen::new(), Seen::new());
    let mut repeats = 0;
    for (i, (pos, keys, origin)) in positions.iter().enumerate() {
        let mut first_seen = true;
        for (map, key, name) in [
            (&mut by_shakmaty, keys.shakmaty, "shakmaty hash"),
            (&mut by_rotation, keys.rotation, "rotation key"),
            (&mut by_zobrist, keys.zobrist, "Zobrist key"),
        ] {
            match map.entry(key) {
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
                Entry::Occupied(slot) => {
                    first_seen = false;
                    let (other, other_keys, other_origin) = &positions[*slot.get()];
                    assert!(
                        other_keys == keys,
                        "{}",
                        pair(
                            &format!("equal {name}, but not all keys equal"),
                            (other, *other_origin),
                            (pos, *origin),
                            (*other_keys, *keys)
                        )
                    );
                }
            }
        }
        repeats += usize::from(!first_seen);
    }
    assert_eq!(by_rotation.len(), by_shakmaty.len());
    assert_eq!(by_zobrist.len(), by_shakmaty.len());
    (by_shakmaty.len(), repeats)
}

#[test]
fn incremental_keys_follow_random_games() {
    let (games, coverage) = games();
    println!(
        "{} games, {} positions, {} moves made with keys; {coverage:?}",
        games.games.len(),
        games.positions.len(),
        coverage.moves
    );
    PLAN.assert_reached(games.positions.len());
    assert!(
        coverage.all_seen(),
        "the games missed a kind of move: {coverage:?}"
    );
}

#[test]
fn incremental_keys_follow_perft_trees() {
    let nodes = tree_nodes();
    let standard = trees()
        .iter()
        .filter(|(file, ..)| *file == "standard-perft.epd")
        .count();
    println!(
        "{standard} standard and {} tricky trees walked to depth {TREE_DEPTH}: {} nodes",
        trees().len() - standard,
        nodes.len()
    );
    assert_eq!(standard, 6);
    assert!(trees().len() - standard >= 20);
}

#[test]
fn rotation_keys_are_equal_exactly_when_shakmaty_hashes_are() {
    let (games, _) = games();
    let (distinct, repeats) = check_equivalence(&games.positions);
    println!(
        "random games: {} positions, {distinct} distinct, {repeats} seen again",
        games.positions.len()
    );
    // The games of one start position share their first position at least.
    assert!(repeats >= PLAN.starts().count() * (PLAN.games_per_start as usize - 1));

    let nodes = tree_nodes();
    let (distinct, repeats) = check_equivalence(nodes);
    println!(
        "perft trees: {} nodes, {distinct} distinct, {repeats} transpositions",
        nodes.len()
    );
    assert!(repeats > 10_000, "the trees transpose often: {repeats}");
}

/// Plays `moves` (UCI) from `fen`, checking the carried keys at every step, and returns the
/// position and its rotation, Zobrist and shakmaty keys.
fn play_line(fen: &str, moves: &str) -> (Position, Keys) {
    let mut pos = parse(fen);
    let mut sh = shakmaty_position(fen);
    let (mut keyed, mut zobrist) = (pos.key(), common::zobrist::key(&pos));
    for uci in moves.split_whitespace() {
        let mv = pos
            .parse_uci_move(uci)
            .unwrap_or_else(|| panic!("{uci} is not legal in {} ({moves})", pos.to_fen()));
        let before = pos;
        (pos, keyed) = pos.make_keyed(mv, keyed);
        zobrist = common::zobrist::update(zobrist, &before, &pos);
        sh.play_unchecked(&shakmaty_move(&sh, mv));
    }
    let keys = keys_of(&pos, &sh);
    assert_eq!(
        (keyed, zobrist),
        (keys.rotation, keys.zobrist),
        "{fen} {moves}"
    );
    (pos, keys)
}

#[test]
fn transpositions_key_alike() {
    let start = ccr::positions::STARTPOS;
    for (start, a, b, clocks_differ) in [
        (start, "g1f3 g8f6 b1c3 b8c6", "b1c3 b8c6 g1f3 g8f6", false),
        // The double push leaves e6 in the FEN but allows no capture: no e.p. key.
        (start, "e2e4 e7e5", "e2e3 e7e6 e3e4 e6e5", true),
        // The same with Black to move right after the double push (d3 in the FEN only).
        (start, "e2e4 e7e5 d2d4", "e2e3 e7e6 d2d4 e6e5 e3e4", true),
        // En passant against a plain capture of the same pawn one square later.
        (
            start,
            "e2e4 a7a6 e4e5 d7d5 e5d6 a6a5",
            "e2e4 a7a6 e4e5 d7d6 e5d6 a6a5",
            false,
        ),
        // Castling against walking king and rook there (no rights left on either line).
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            "h1h2 e8d8 e1f1 d8e8 f1g1 e8d8 h2f2 d8e8 f2f1",
            true,
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "e1c1",
            "a1a2 e8d8 e1d1 d8e8 d1c1 e8d8 a2d2 d8e8 d2d1",
            true,
        ),
        (
            "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
            "e8c8",
            "a8a7 e1d1 e8d8 d1e1 d8c8 e1d1 a7d7 d1e1 d7d8",
            true,
        ),
    ] {
        let (pa, ka) = play_line(start, a);
        let (pb, kb) = play_line(start, b);
        let context = format!(
            "\n  start: {start}\n  {}  after {a}\n  {}  after {b}",
            pa.to_fen(),
            pb.to_fen()
        );
        assert_eq!(
            (pa.board(), pa.side(), pa.castling()),
            (pb.board(), pb.side(), pb.castling()),
            "not a transposition{context}"
        );
        assert_eq!(
            ka.shakmaty, kb.shakmaty,
            "shakmaty's hashes differ{context}"
        );
        assert_eq!(ka.rotation, kb.rotation, "rotation keys differ{context}");
        assert_eq!(ka.zobrist, kb.zobrist, "Zobrist keys differ{context}");
        assert_eq!(
            (pa.halfmove_clock(), pa.fullmove_number())
                != (pb.halfmove_clock(), pb.fullmove_number()),
            clocks_differ,
            "{context}"
        );
    }
}

/// The keys by both schemes.
fn both(pos: &Position) -> [u64; 2] {
    [pos.key(), common::zobrist::key(pos)]
}

#[test]
fn keys_ignore_the_clocks_and_see_side_castling_and_legal_en_passant() {
    let key = |fen: &str| both(&parse(fen));
    // The clocks do not count.
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(key(base), key("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 200"));
    // The side, and each castling right, do.
    let different = |a: &str, b: &str| {
        let (ka, kb) = (key(a), key(b));
        assert!(
            ka[0] != kb[0] && ka[1] != kb[1],
            "equal keys (rotation, Zobrist) {ka:x?} {kb:x?} for\n  {a}\n  {b}"
        );
    };
    different(base, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    for rights in ["Kkq", "Qkq", "KQq", "KQk", "-"] {
        different(base, &format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1"));
    }
    // A legal en-passant square counts (d5xe6 is possible) ...
    different(
        "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3",
        "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3",
    );
    // ... one no pawn can use does not, nor one whose capture exposes the king (b5xc6 here).
    assert_eq!(
        key("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
        key("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert_eq!(
        key("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2"),
        key("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2")
    );

    // The same over every position of the random games.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x00CC_C10C);
    let mut counts = [0usize; 5];
    for (pos, keys, origin) in &games().0.positions {
        let keys = [keys.rotation, keys.zobrist];
        let fail = |what: &str, other: &Position| {
            format!(
                "{what}: {keys:x?} and {:x?}\n{}\n    other:     {}",
                both(other),
                describe(pos, *origin),
                other.to_fen()
            )
        };
        let clocks = pos
            .with_clocks(
                (rng.next_u32() % 100) as u16,
                1 + (rng.next_u32() % 500) as u16,
            )
            .expect("clocks in range");
        assert_eq!(both(&clocks), keys, "{}", fail("the clocks count", &clocks));

        let no_ep = pos.without_en_passant();
        // The null move: the side flips and the en-passant square lapses.
        let (flipped, _) = pos.make_null_keyed(pos.key());
        let [a, b] = both(&no_ep);
        let [c, d] = both(&flipped);
        assert!(
            a != c && b != d,
            "{}",
            fail("the side does not count", &flipped)
        );
        counts[0] += 1;

        if pos.en_passant().is_some() {
            let cleared = both(&no_ep);
            if pos.keyed_en_passant().is_some() {
                assert!(
                    cleared[0] != keys[0] && cleared[1] != keys[1],
                    "{}",
                    fail("a legal en-passant square does not count", &no_ep)
                );
                counts[1] += 1;
            } else {
                assert_eq!(
                    cleared,
                    keys,
                    "{}",
                    fail("an en-passant square no capture can use counts", &no_ep)
                );
                counts[2] += 1;
            }
        }

        for right in CastlingRights::EACH {
            if pos.castling().contains(right) {
                let lost = pos.without_castling(right);
                let lost_keys = both(&lost);
                assert!(
                    lost_keys[0] != keys[0] && lost_keys[1] != keys[1],
                    "{}",
                    fail(
                        &format!(
                            "castling right {} does not count",
                            right.fen_char().unwrap_or('?')
                        ),
                        &lost
                    )
                );
                counts[3] += 1;
            }
        }
        counts[4] += usize::from(pos.side() == Colour::Black);
    }
    println!(
        "side flips {}, legal e.p. squares {}, unusable e.p. squares {}, castling rights \
         removed {}, Black to move {}",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

/// Zobrist keys of positions covering every part of the key (the six standard positions, Black
/// to move, an en-passant square with and without a legal capture, partial castling rights,
/// promotions, bare kings), as the tables drawn from `ccr_keystats::zobrist::ZOBRIST_SEED` give them: they change if
/// the seed, the generator or the order in which the tables are drawn does.
const ZOBRIST_KEYS: [(&str, u64); 13] = [
    (ccr::positions::STARTPOS, 0x701b589187b080c0),
    (ccr::positions::KIWIPETE, 0x9e5c216d22ac46d0),
    (ccr::positions::POSITION_3, 0x96314ee892b12de8),
    (ccr::positions::POSITION_4, 0xec2d14c5bbd463b7),
    (ccr::positions::POSITION_5, 0x78afee78577a07a1),
    (ccr::positions::POSITION_6, 0x8f2c0a289083537d),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0xd5676acd9b6b6e36,
    ),
    (
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x6ad9621bdbc459fe,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0xb4b1f13945c378b0,
    ),
    ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", 0x355c0a38876f4804),
    ("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1", 0x2b79ae1efcf914cc),
    ("4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1", 0x4627bcb13404ef31),
    ("8/8/8/8/8/8/8/K6k w - - 0 1", 0x99c27ef996e71fbb),
];

#[test]
fn zobrist_keys_are_the_recorded_ones() {
    for (fen, key) in ZOBRIST_KEYS {
        assert_eq!(common::zobrist::key(&parse(fen)), key, "{fen}");
    }
}

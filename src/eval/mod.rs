//! Static evaluation through the frame, fed by WHITE_ATTACKS and BLACK_ATTACKS as the paper's
//! evaluator is (section 4.4).
//!
//! One [`AttackBlock`] (board and both attack tables) serves the whole evaluation. The frame
//! walks every piece and jumps through the evaluation's own handler table, indexed by the
//! piece code like the move generator's: each handler scores its piece (material, square,
//! pawn structure, open files, the shelter in front of a king) and reads the two tables at
//! its own square (attacked by a cheaper class, hanging). What is a property of the tables
//! rather than of one piece is read off them with nibble masks after the frame: the squares
//! each class controls (mobility) and the enemy classes around each king (king safety).
//!
//! Every term is a weight times a count, in a middle-game and an end-game half, tapered by
//! the material left. The weights live in [`weights`] as one flat table indexed by the
//! [`param`] constants, so the evaluation is linear in them: the tuner (`ccr tune`, Texel's
//! method) reads the counts through a [`Trace`] and fits the table to game results.
//!
//! [`bitboards`] computes the same terms with the same weights on the sixteen bitboards
//! converted from the C.C.R. (the paper's hybrid, section 5.5); the pieces both share (the
//! running `Sum`, the king-zone and passed-pawn terms, the material draw, the phase, the
//! end-game scale and the taper) live here once. [`Evaluator`] picks one at run time.

pub(crate) mod bitboards;
pub(crate) mod network;
pub(crate) mod weights;

use crate::ccr::Position;
use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::{NIBBLE_LOW_BITS, colour_nibbles, nibbles_equal};
use crate::ccr::frame::{self, Handler, Pieces, skip};
use crate::types::{Colour, PieceCode, PieceType, Square};
use weights::WEIGHTS;

/// A weight or score in two halves: middle game and end game.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct S {
    /// The middle-game half.
    pub mg: i32,
    /// The end-game half.
    pub eg: i32,
}

/// Shorthand for an [`S`].
pub(crate) const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// Where each group of weights starts in [`weights::WEIGHTS`].
pub mod param {
    /// Material, pawn to queen (5).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables, pawn to king: 32 squares each (ranks from the piece's own side,
    /// files folded a-d), 6 × 32.
    pub const PST: usize = MATERIAL + 5;
    /// Squares not holding an own piece nor attacked by an enemy pawn that the side attacks
    /// with a minor piece, a rook, a queen or king: one weight per class (3).
    pub const MOBILITY: usize = PST + 6 * 32;
    /// Attacks on the squares around the enemy king (the king's square and its neighbours),
    /// per class: pawn, minor, rook, queen or king (4).
    pub const KING_ATTACK: usize = MOBILITY + 3;
    /// The attack on the enemy king by a side that still has a queen, by attack units (the
    /// king-zone attacks weighted by class, see `KING_UNITS`), capped at 31: one weight per
    /// count, so the bonus can grow faster than the attacks and stays linear in the weights
    /// (32).
    pub const KING_DANGER: usize = KING_ATTACK + 4;
    /// Own pawns on the two ranks in front of the king, on its file and the adjacent ones.
    pub const PAWN_SHIELD: usize = KING_DANGER + 32;
    /// The king's file and its neighbours without an own pawn, each.
    pub const KING_OPEN_FILE: usize = PAWN_SHIELD + 1;
    /// A piece (knight to queen) the enemy attacks and no own piece defends.
    pub const HANGING: usize = KING_OPEN_FILE + 1;
    /// A knight, bishop, rook or queen attacked by an enemy pawn.
    pub const THREAT_BY_PAWN: usize = HANGING + 1;
    /// A rook or queen attacked by an enemy knight or bishop.
    pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
    /// A queen attacked by an enemy rook.
    pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
    /// A passed pawn, by its rank counted from its own side (8; ranks 2-7 used).
    pub const PASSED: usize = THREAT_BY_ROOK + 1;
    /// The terms below count a passed pawn by its advance: relative rank minus 2, from 0
    /// on the third rank to 4 on the seventh. The square in front of it empty and not
    /// attacked by the enemy.
    pub const PASSED_FREE: usize = PASSED + 8;
    /// The square in front of a passed pawn occupied.
    pub const PASSED_BLOCKED: usize = PASSED_FREE + 1;
    /// The own king's distance to the square in front of a passed pawn.
    pub const PASSED_OWN_KING: usize = PASSED_BLOCKED + 1;
    /// The enemy king's distance to the square in front of a passed pawn.
    pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
    /// A pawn with no own pawn on the adjacent files.
    pub const ISOLATED: usize = PASSED_ENEMY_KING + 1;
    /// A pawn with an own pawn in front of it on its file.
    pub const DOUBLED: usize = ISOLATED + 1;
    /// Both bishops.
    pub const BISHOP_PAIR: usize = DOUBLED + 1;
    /// A rook on a file without pawns.
    pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
    /// A rook on a file without own pawns but with enemy ones.
    pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
    /// The side to move.
    pub const TEMPO: usize = ROOK_SEMI_OPEN + 1;
    /// How many weights there are.
    pub const COUNT: usize = TEMPO + 1;

    /// The weights grouped by term for display: each group's name and its weights.
    pub const GROUPS: [(&str, std::ops::Range<usize>); 15] = [
        ("material", MATERIAL..PST),
        ("piece squares", PST..MOBILITY),
        ("mobility", MOBILITY..KING_ATTACK),
        ("king zone attacks", KING_ATTACK..KING_DANGER),
        ("king danger", KING_DANGER..PAWN_SHIELD),
        ("pawn shield", PAWN_SHIELD..KING_OPEN_FILE),
        ("king open files", KING_OPEN_FILE..HANGING),
        ("hanging", HANGING..THREAT_BY_PAWN),
        ("threats", THREAT_BY_PAWN..PASSED),
        ("passed pawns", PASSED..ISOLATED),
        ("isolated pawns", ISOLATED..DOUBLED),
        ("doubled pawns", DOUBLED..BISHOP_PAIR),
        ("bishop pair", BISHOP_PAIR..ROOK_OPEN),
        ("rook files", ROOK_OPEN..TEMPO),
        ("tempo", TEMPO..COUNT),
    ];
}

/// Receives every count the evaluation multiplies by a weight (positive for White).
pub(crate) trait Trace {
    /// Records `count` uses of weight `param` (negative counts are Black's).
    fn add(&mut self, param: usize, count: i32);

    /// Records `count` (never negative) uses of weight `param` by `colour`: by default the
    /// net count, White's positive and Black's negative.
    #[inline(always)]
    fn term(&mut self, colour: Colour, param: usize, count: i32) {
        self.add(
            param,
            match colour {
                Colour::White => count,
                Colour::Black => -count,
            },
        );
    }

    /// Records the game phase the counts are tapered by.
    fn phase(&mut self, _phase: i32) {}

    /// Records the end-game half's scale.
    fn scale(&mut self, _scale: i32) {}
}

/// The trace of play: records nothing, compiles to nothing.
pub(crate) struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// The counts of one position, for tuning: the evaluation is `Σ weight × count`, tapered.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Net count (White minus Black) per weight.
    pub counts: Vec<i32>,
    /// The game phase, 0 (bare kings and pawns) to [`MAX_PHASE`] (all pieces).
    pub phase: i32,
    /// The end-game half's scale, out of [`FULL_SCALE`] (less in drawish endings).
    pub scale: i32,
}

impl Features {
    /// No counts yet, full scale.
    fn new() -> Features {
        Features {
            counts: vec![0; param::COUNT],
            phase: 0,
            scale: FULL_SCALE,
        }
    }
}

impl Trace for Features {
    fn add(&mut self, param: usize, count: i32) {
        self.counts[param] += count;
    }

    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn scale(&mut self, scale: i32) {
        self.scale = scale;
    }
}

/// The evaluation of one position term by term, each colour's counts apart, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct Breakdown {
    /// The count of each weight, per colour ([`Colour`] index).
    pub counts: [[i32; param::COUNT]; 2],
    /// The game phase (see `Features::phase`).
    pub phase: i32,
    /// The end-game half's scale (see `Features::scale`).
    pub scale: i32,
    /// The evaluation from White's point of view.
    pub white: i32,
    /// Whether the material rule made it a draw (then `white` is 0, not the weighted sum).
    pub drawn: bool,
}

impl Breakdown {
    /// No counts yet.
    fn new() -> Breakdown {
        Breakdown {
            counts: [[0; param::COUNT]; 2],
            phase: 0,
            scale: FULL_SCALE,
            white: 0,
            drawn: false,
        }
    }

    /// The weighted sum of `colour`'s counts in `params` (not tapered): its part of a group.
    pub fn sum(&self, colour: Colour, params: std::ops::Range<usize>) -> S {
        let mut total = S::default();
        for p in params {
            let count = self.counts[colour as usize][p];
            total.mg += WEIGHTS[p].mg * count;
            total.eg += WEIGHTS[p].eg * count;
        }
        total
    }
}

impl Trace for Breakdown {
    fn add(&mut self, param: usize, count: i32) {
        let colour = if count < 0 { 1 } else { 0 };
        self.counts[colour][param] += count.abs();
    }

    fn term(&mut self, colour: Colour, param: usize, count: i32) {
        self.counts[colour as usize][param] += count;
    }

    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn scale(&mut self, scale: i32) {
        self.scale = scale;
    }
}

/// The phase with every piece on the board (knight and bishop 1, rook 2, queen 4).
pub const MAX_PHASE: i32 = 24;

/// The end-game half at full weight: most positions; drawish endings get less.
pub const FULL_SCALE: i32 = 64;

/// Attack units per king-zone attack, by class (pawn, minor, rook, queen or king).
const KING_UNITS: [u32; 4] = [1, 2, 2, 3];

/// Phase weight by piece type (index 1 = pawn … 6 = king).
const PHASE: [i32; 8] = [0, 0, 1, 1, 2, 4, 0, 0];

/// Which evaluator a search or a command uses. The frame and the bitboards compute the same
/// terms with the same weights and give the same score on every position; they differ in
/// what they read. The network evaluator adds a learnt correction to the frame's score
/// (`network`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Evaluator {
    /// The frame over the C.C.R. with WHITE_ATTACKS and BLACK_ATTACKS (this module).
    Frame,
    /// The sixteen bitboards converted from the C.C.R. (paper 5.5, `bitboards`).
    Bitboards,
    /// The frame's score corrected by the learnt network over the rank words' nibbles
    /// (`network`): the engine's evaluation for play.
    #[default]
    Network,
}

impl Evaluator {
    /// Every evaluator, the default first.
    pub const ALL: [Evaluator; 3] = [Evaluator::Network, Evaluator::Frame, Evaluator::Bitboards];

    /// The name on the command line and in the UCI option (`frame`, `bitboards`,
    /// `network`).
    pub const fn name(self) -> &'static str {
        match self {
            Evaluator::Frame => "frame",
            Evaluator::Bitboards => "bitboards",
            Evaluator::Network => "network",
        }
    }

    /// The evaluator named `name`, if any.
    pub fn from_name(name: &str) -> Option<Evaluator> {
        Evaluator::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Evaluates `pos` from the side to move's point of view; `block` is the position's
    /// attack block, which the frame evaluator reads and the bitboard one ignores.
    #[inline]
    pub fn evaluate(self, pos: &Position, block: &AttackBlock) -> i32 {
        match self {
            Evaluator::Frame => evaluate_with(pos, block),
            Evaluator::Bitboards => bitboards::evaluate(pos),
            Evaluator::Network => evaluate_with(pos, block) + network::evaluate(pos),
        }
    }

    /// The counts behind the evaluation (see `features`); `None` where the material rule
    /// makes it a draw, and for the network, which has no terms.
    pub fn features(self, pos: &Position) -> Option<Features> {
        let (_, features, drawn) = self.run(pos, Features::new())?;
        (!drawn).then_some(features)
    }

    /// The evaluation term by term and colour by colour, for display; `None` for the
    /// network, which has no terms.
    pub fn breakdown(self, pos: &Position) -> Option<Breakdown> {
        let (white, mut breakdown, drawn) = self.run(pos, Breakdown::new())?;
        breakdown.white = white;
        breakdown.drawn = drawn;
        Some(breakdown)
    }

    /// The evaluation from White's point of view with every count sent to `trace`, and
    /// whether the material rule made it a draw; `None` for the network.
    fn run<T: Trace>(self, pos: &Position, trace: T) -> Option<(i32, T, bool)> {
        match self {
            Evaluator::Frame => Some(run(pos, &AttackBlock::new(pos.board()), trace)),
            Evaluator::Bitboards => Some(bitboards::run(pos, trace)),
            Evaluator::Network => None,
        }
    }
}

/// Evaluates `pos` from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &AttackBlock::new(pos.board()))
}

/// [`evaluate`] with the position's attack block already built (the search builds one per
/// node and shares it with move ordering and pruning).
#[inline]
pub fn evaluate_with(pos: &Position, block: &AttackBlock) -> i32 {
    let (white, NoTrace, _) = run(pos, block, NoTrace);
    match pos.side() {
        Colour::White => white,
        Colour::Black => -white,
    }
}

/// The counts behind the evaluation of `pos`, for the tuner; `None` where the evaluation
/// is a draw by material rather than the weighted sum.
pub(crate) fn features(pos: &Position) -> Option<Features> {
    Evaluator::Frame.features(pos)
}

/// The weighted sum of `features` with `weights`, tapered, from White's point of view:
/// what [`evaluate`] computes with [`weights::WEIGHTS`] (the tests' check of the tuner's
/// linear model).
#[cfg(test)]
fn weighted(features: &Features, weights: &[S]) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for (w, &c) in weights.iter().zip(&features.counts) {
        mg += w.mg * c;
        eg += w.eg * c;
    }
    taper(mg, eg * features.scale / FULL_SCALE, features.phase)
}

/// The two halves blended by the game phase.
#[inline(always)]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The king's distance between two squares (moves a king needs).
#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Per colour and file, the ranks (bit 0 = rank 1) holding a pawn of that colour.
type PawnRanks = [[u8; 8]; 2];

/// The running sum of one evaluation, the same for both evaluators: the score so far
/// (White's point of view) and the trace of its counts.
struct Sum<T: Trace> {
    score: S,
    trace: T,
}

impl<T: Trace> Sum<T> {
    /// Nothing counted yet.
    #[inline(always)]
    fn new(trace: T) -> Sum<T> {
        Sum {
            score: S::default(),
            trace,
        }
    }

    /// Adds `count` times weight `param` for `colour`.
    #[inline(always)]
    fn add(&mut self, colour: Colour, param: usize, count: i32) {
        let signed = match colour {
            Colour::White => count,
            Colour::Black => -count,
        };
        let w = WEIGHTS[param];
        self.score.mg += w.mg * signed;
        self.score.eg += w.eg * signed;
        self.trace.term(colour, param, count);
    }

    /// The king-zone terms of `us` from the classes attacking the enemy king's square and
    /// its neighbours (pawn, minor, rook, queen or king): one weight per class, and the
    /// danger by attack units when `us` has a queen.
    #[inline(always)]
    fn king_zone(&mut self, us: Colour, classes: [u32; 4], queen: bool) {
        for (class, &count) in classes.iter().enumerate() {
            self.add(us, param::KING_ATTACK + class, count as i32);
        }
        if queen {
            let units: u32 = classes.iter().zip(KING_UNITS).map(|(&c, u)| c * u).sum();
            self.add(us, param::KING_DANGER + units.min(31) as usize, 1);
        }
    }

    /// A passed pawn of `us` on `rank_from_home`; `front` reads the square in front of it,
    /// only for a pawn past its third rank (the terms that count by advance).
    #[inline(always)]
    fn passed(&mut self, us: Colour, rank_from_home: u8, front: impl FnOnce() -> Front) {
        self.add(us, param::PASSED + rank_from_home as usize, 1);
        let advance = rank_from_home as i32 - 2;
        if advance > 0 {
            let front = front();
            if front.occupied {
                self.add(us, param::PASSED_BLOCKED, advance);
            } else if !front.attacked {
                self.add(us, param::PASSED_FREE, advance);
            }
            self.add(us, param::PASSED_OWN_KING, advance * front.own_king);
            self.add(us, param::PASSED_ENEMY_KING, advance * front.enemy_king);
        }
    }

    /// The terms of the whole position: the bishop pair and the tempo.
    #[inline(always)]
    fn closing_terms(&mut self, material: &Material, side: Colour) {
        for colour in [Colour::White, Colour::Black] {
            if material.bishops[colour as usize] >= 2 {
                self.add(colour, param::BISHOP_PAIR, 1);
            }
        }
        self.add(side, param::TEMPO, 1);
    }

    /// Ends the evaluation: the draw by material, the phase, the end-game scale and the
    /// taper. Returns the score from White's point of view, the trace, and whether the
    /// material rule made it a draw (then the score is 0, not the sum).
    #[inline(always)]
    fn finish(mut self, material: &Material) -> (i32, T, bool) {
        // No pawns and at most a minor piece each: nobody can mate.
        let no_pawns = !material.pawns[0] && !material.pawns[1];
        if no_pawns && material.pieces[0] <= 1 && material.pieces[1] <= 1 {
            return (0, self.trace, true);
        }
        let phase = (material.pieces[0] + material.pieces[1]).min(MAX_PHASE);
        self.trace.phase(phase);
        let scale = endgame_scale(self.score.eg, material);
        self.trace.scale(scale);
        let score = taper(self.score.mg, self.score.eg * scale / FULL_SCALE, phase);
        (score, self.trace, false)
    }
}

/// What a passed pawn's terms read of the square in front of it.
struct Front {
    /// A piece stands on it.
    occupied: bool,
    /// The enemy attacks it.
    attacked: bool,
    /// The own king's distance to it.
    own_king: i32,
    /// The enemy king's distance to it.
    enemy_king: i32,
}

/// The material facts the end of the evaluation reads, by colour.
#[derive(Default)]
struct Material {
    /// Non-pawn material in phase units: the game phase, and bare endings.
    pieces: [i32; 2],
    /// Bishops.
    bishops: [i32; 2],
    /// The square colours the bishops stand on (bit 0 dark, bit 1 light).
    bishop_squares: [u8; 2],
    /// Whether the colour has a pawn.
    pawns: [bool; 2],
}

/// Evaluation state for one position: the tables, the pawn files, the running sums.
struct Eval<T: Trace> {
    /// Board, WHITE_ATTACKS, BLACK_ATTACKS.
    tables: [[u32; 8]; 3],
    pawns: PawnRanks,
    kings: [Square; 2],
    material: Material,
    queens: [i32; 2],
    sum: Sum<T>,
}

impl<T: Trace> Eval<T> {
    /// The evaluation's handler table, indexed by piece code.
    const HANDLERS: [Handler<Self>; 16] = handlers::<T>();

    /// Adds `count` times weight `param` for `colour`.
    #[inline(always)]
    fn add(&mut self, colour: Colour, param: usize, count: i32) {
        self.sum.add(colour, param, count);
    }

    /// The classes `colour` attacks `sq` with.
    #[inline(always)]
    fn attacks_on(&self, colour: Colour, sq: Square) -> u32 {
        (self.tables[1 + colour as usize][sq.word()] >> sq.shift()) & 0xF
    }
}

const fn handlers<T: Trace>() -> [Handler<Eval<T>>; 16] {
    let mut table: [Handler<Eval<T>>; 16] = [skip; 16];
    side_handlers::<T, true>(&mut table);
    side_handlers::<T, false>(&mut table);
    table
}

/// Puts the handlers of one colour's piece codes into `table`.
const fn side_handlers<T: Trace, const WHITE: bool>(table: &mut [Handler<Eval<T>>; 16]) {
    let base = colour_of(WHITE).code_bit() as usize;
    table[base + 1] = pawn::<T, WHITE>;
    table[base + 2] = piece::<T, WHITE, { PieceType::Knight.bits() }>;
    table[base + 3] = piece::<T, WHITE, { PieceType::Bishop.bits() }>;
    table[base + 4] = piece::<T, WHITE, { PieceType::Rook.bits() }>;
    table[base + 5] = piece::<T, WHITE, { PieceType::Queen.bits() }>;
    table[base + 6] = king::<T, WHITE>;
}

/// The colour a handler serves.
const fn colour_of(white: bool) -> Colour {
    if white { Colour::White } else { Colour::Black }
}

/// A square's rank counted from `colour`'s side (0 = its first rank).
#[inline(always)]
fn relative_rank(colour: Colour, sq: Square) -> u8 {
    match colour {
        Colour::White => sq.rank(),
        Colour::Black => 7 - sq.rank(),
    }
}

/// The piece-square table index of `sq` for `colour`: relative rank × 4 + folded file.
#[inline(always)]
fn pst_index(colour: Colour, sq: Square) -> usize {
    let file = sq.file().min(7 - sq.file());
    relative_rank(colour, sq) as usize * 4 + file as usize
}

/// Material and square of any piece.
#[inline(always)]
fn place<T: Trace>(e: &mut Eval<T>, colour: Colour, piece_type: PieceType, sq: Square) {
    if piece_type != PieceType::King {
        e.add(colour, param::MATERIAL + piece_type.index(), 1);
    }
    let pst = param::PST + piece_type.index() * 32 + pst_index(colour, sq);
    e.add(colour, pst, 1);
}

fn pawn<T: Trace, const WHITE: bool>(e: &mut Eval<T>, word: usize, mask: u32) {
    let us = colour_of(WHITE);
    let sq = Square::from_word_mask(word, mask);
    place(e, us, PieceType::Pawn, sq);
    let (file, rank) = (sq.file() as usize, sq.rank());
    let own = e.pawns[us as usize];
    let theirs = e.pawns[us.flip() as usize];
    // The ranks in front of the pawn, from its own side.
    let ahead: u8 = if WHITE {
        !0u8 << 1 << rank
    } else {
        (1u8 << rank) - 1
    };
    let neighbours = |ranks: &[u8; 8]| {
        (if file > 0 { ranks[file - 1] } else { 0 }) | (if file < 7 { ranks[file + 1] } else { 0 })
    };
    if (theirs[file] | neighbours(&theirs)) & ahead == 0 {
        let front = || {
            let front = Square::from_file_rank(file as u8, if WHITE { rank + 1 } else { rank - 1 });
            Front {
                occupied: (e.tables[0][front.word()] >> front.shift()) & 0xF != 0,
                attacked: e.tables[1 + us.flip() as usize][front.word()] & front.mask() != 0,
                own_king: distance(e.kings[us as usize], front),
                enemy_king: distance(e.kings[us.flip() as usize], front),
            }
        };
        e.sum.passed(us, relative_rank(us, sq), front);
    }
    if neighbours(&own) == 0 {
        e.add(us, param::ISOLATED, 1);
    }
    if own[file] & ahead != 0 {
        e.add(us, param::DOUBLED, 1);
    }
}

/// A knight's, bishop's, rook's or queen's terms; `TYPE` is its [`PieceType::bits`] (a const
/// parameter cannot be the enum itself).
fn piece<T: Trace, const WHITE: bool, const TYPE: u8>(e: &mut Eval<T>, word: usize, mask: u32) {
    let piece_type = const { PieceType::from_bits(TYPE).expect("a piece type's bits") };
    let us = colour_of(WHITE);
    let sq = Square::from_word_mask(word, mask);
    place(e, us, piece_type, sq);
    e.material.pieces[us as usize] += PHASE[TYPE as usize];
    let (attacked, defended) = (e.attacks_on(us.flip(), sq), e.attacks_on(us, sq));
    if attacked != 0 && defended == 0 {
        e.add(us, param::HANGING, 1);
    }
    if attacked & 8 != 0 {
        e.add(us, param::THREAT_BY_PAWN, 1);
    }
    if piece_type >= PieceType::Rook && attacked & 4 != 0 {
        e.add(us, param::THREAT_BY_MINOR, 1);
    }
    if piece_type == PieceType::Queen && attacked & 2 != 0 {
        e.add(us, param::THREAT_BY_ROOK, 1);
    }
    match piece_type {
        PieceType::Bishop => {
            e.material.bishops[us as usize] += 1;
            e.material.bishop_squares[us as usize] |= 1 << ((sq.file() + sq.rank()) & 1);
        }
        PieceType::Queen => e.queens[us as usize] += 1,
        PieceType::Rook => {
            let file = sq.file() as usize;
            if e.pawns[us as usize][file] == 0 {
                let open = e.pawns[us.flip() as usize][file] == 0;
                let term = if open {
                    param::ROOK_OPEN
                } else {
                    param::ROOK_SEMI_OPEN
                };
                e.add(us, term, 1);
            }
        }
        _ => {}
    }
}

fn king<T: Trace, const WHITE: bool>(e: &mut Eval<T>, word: usize, mask: u32) {
    let us = colour_of(WHITE);
    let sq = Square::from_word_mask(word, mask);
    place(e, us, PieceType::King, sq);
    // The shield: own pawns one and two ranks ahead on the king's file and its neighbours.
    let (file, rank) = (sq.file() as usize, sq.rank());
    let front = if WHITE {
        0b110u16 << rank
    } else {
        (0b011u16 << rank) >> 2
    } as u8;
    // And the files among them without an own pawn.
    let own = e.pawns[us as usize];
    let (mut shield, mut open_files) = (0, 0);
    for ranks in &own[file.saturating_sub(1)..=(file + 1).min(7)] {
        shield += (ranks & front).count_ones() as i32;
        open_files += (*ranks == 0) as i32;
    }
    e.add(us, param::PAWN_SHIELD, shield);
    e.add(us, param::KING_OPEN_FILE, open_files);
}

/// The pawn ranks of both colours, read off the rank words.
fn pawn_ranks(pos: &Position) -> PawnRanks {
    let mut pawns = [[0u8; 8]; 2];
    for (word, &rank_word) in pos.board().words().iter().enumerate() {
        for colour in [Colour::White, Colour::Black] {
            let code = PieceCode::new(colour, PieceType::Pawn).code();
            let mut found = nibbles_equal(rank_word, code) & NIBBLE_LOW_BITS;
            while found != 0 {
                let sq = Square::from_word_mask(word, 0xF << found.trailing_zeros());
                pawns[colour as usize][sq.file() as usize] |= 1 << sq.rank();
                found &= found - 1;
            }
        }
    }
    pawns
}

/// The terms read off the tables as a whole: controlled squares and king attacks.
fn table_terms<T: Trace>(e: &mut Eval<T>, pos: &Position) {
    for us in [Colour::White, Colour::Black] {
        let them = us.flip();
        let ours = e.tables[1 + us as usize];
        let theirs = e.tables[1 + them as usize];
        let (mut minor, mut rook, mut queen) = (0, 0, 0);
        for word in 0..8 {
            let own = colour_nibbles(e.tables[0][word], us) * 0xF;
            let pawn_attacked = ((theirs[word] >> 3) & NIBBLE_LOW_BITS) * 0xF;
            let safe = ours[word] & !own & !pawn_attacked;
            minor += (safe & 0x4444_4444).count_ones();
            rook += (safe & 0x2222_2222).count_ones();
            queen += (safe & 0x1111_1111).count_ones();
        }
        e.add(us, param::MOBILITY, minor as i32);
        e.add(us, param::MOBILITY + 1, rook as i32);
        e.add(us, param::MOBILITY + 2, queen as i32);

        // The enemy king's square and its neighbours, class by class.
        let king = pos.king(them);
        let mask = king.mask();
        let three = (mask << 4) | mask | (mask >> 4);
        let mut classes = [0u32; 4];
        for w in [king.word().wrapping_sub(1), king.word(), king.word() + 1] {
            if w < 8 {
                let hits = ours[w] & three;
                classes[0] += (hits & 0x8888_8888).count_ones();
                classes[1] += (hits & 0x4444_4444).count_ones();
                classes[2] += (hits & 0x2222_2222).count_ones();
                classes[3] += (hits & 0x1111_1111).count_ones();
            }
        }
        e.sum.king_zone(us, classes, e.queens[us as usize] > 0);
    }
}

/// The evaluation, from White's point of view, with every count sent to `trace`.
/// Also says whether the material rule made it a draw (then the score is 0, not the sum).
fn run<T: Trace>(pos: &Position, block: &AttackBlock, trace: T) -> (i32, T, bool) {
    let parts = block.parts();
    let mut e = Eval {
        tables: *parts,
        pawns: pawn_ranks(pos),
        kings: [pos.king(Colour::White), pos.king(Colour::Black)],
        material: Material::default(),
        queens: [0; 2],
        sum: Sum::new(trace),
    };
    frame::run(pos.board(), Pieces::All, &Eval::<T>::HANDLERS, &mut e);
    table_terms(&mut e, pos);
    for colour in [Colour::White, Colour::Black] {
        e.material.pawns[colour as usize] = e.pawns[colour as usize].iter().any(|&r| r != 0);
    }
    e.sum.closing_terms(&e.material, pos.side());
    e.sum.finish(&e.material)
}

/// How much of the end-game half counts, given the end-game sum `eg` (White's point of
/// view): less where the side ahead has little to win with.
fn endgame_scale(eg: i32, m: &Material) -> i32 {
    let strong = if eg >= 0 { 0 } else { 1 };
    let weak = 1 - strong;
    // No pawns and at most a minor piece more (a rook against a minor, a rook and a minor
    // against a rook): hard to win.
    if !m.pawns[strong] && m.pieces[strong] - m.pieces[weak] <= 1 {
        return FULL_SCALE / 4;
    }
    // Bishops on opposite colours and nothing else: the weaker side holds a blockade.
    let lone_bishops = m.pieces == [1, 1] && m.bishops == [1, 1];
    if lone_bishops && m.bishop_squares[0] != m.bishop_squares[1] {
        return FULL_SCALE / 2;
    }
    FULL_SCALE
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 6] = crate::positions::STANDARD;

    #[test]
    fn colour_symmetric() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                evaluate(&pos),
                evaluate(&Position::from_fen(&crate::positions::mirror(fen).unwrap()).unwrap()),
                "{fen}"
            );
        }
    }

    #[test]
    fn the_weighted_features_are_the_evaluation() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let white = weighted(&features(&pos).unwrap(), &WEIGHTS);
            let ours = if pos.side() == Colour::White {
                white
            } else {
                -white
            };
            assert_eq!(ours, evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn bare_minor_endings_are_draws() {
        for fen in [
            "8/8/4k3/8/8/2N5/4K3/8 w - - 0 1",
            "8/8/4k3/3b4/8/2N5/4K3/8 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), 0);
            assert!(features(&pos).is_none());
        }
        let rook = Position::from_fen("8/8/4k3/8/8/2R5/4K3/8 w - - 0 1").unwrap();
        assert!(evaluate(&rook) > 300);
    }

    /// The attack units of the side with a queen on the other king (None: no queen).
    fn danger_units(fen: &str) -> Option<usize> {
        let counts = features(&Position::from_fen(fen).unwrap()).unwrap().counts;
        (0..32).find(|&u| counts[param::KING_DANGER + u] == 1)
    }

    #[test]
    fn king_danger_grows_with_the_attack() {
        // The same white pieces far from the black king, then around it.
        let far = danger_units("6k1/5ppp/8/8/8/8/PPP5/QRN1K3 w - - 0 1").unwrap();
        let near = danger_units("6k1/5ppp/8/4N2Q/8/8/PPP5/1R2K3 w - - 0 1").unwrap();
        assert!(far <= 1 && near >= 6, "{far} {near}");
        // The danger is the attacker's gain: around the king the evaluation without the
        // danger weights is lower for White, and by clearly more than far from it (where the
        // fitted table's first entries are a few centipawns either way).
        let gain = |fen: &str| {
            let f = features(&Position::from_fen(fen).unwrap()).unwrap();
            let mut without = WEIGHTS;
            without[param::KING_DANGER..param::KING_DANGER + 32].fill(S::default());
            weighted(&f, &WEIGHTS) - weighted(&f, &without)
        };
        let (far_gain, near_gain) = (
            gain("6k1/5ppp/8/8/8/8/PPP5/QRN1K3 w - - 0 1"),
            gain("6k1/5ppp/8/4N2Q/8/8/PPP5/1R2K3 w - - 0 1"),
        );
        assert!(
            near_gain > 0 && near_gain > far_gain + 10,
            "{far_gain} {near_gain}"
        );
        // Without a queen there is no danger term.
        assert_eq!(
            danger_units("6k1/5ppp/8/4N3/8/8/PPP5/1R2K3 w - - 0 1"),
            None
        );
        let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
        // An open file in front of the own king costs.
        assert!(
            eval("6k1/5ppp/8/8/8/8/PPP5/1K6 w - - 0 1")
                > eval("6k1/5ppp/8/8/8/8/P1P5/1K6 w - - 0 1") + 50
        );
    }

    #[test]
    fn drawish_endings_count_less_of_the_end_game() {
        let scale = |fen: &str| features(&Position::from_fen(fen).unwrap()).unwrap().scale;
        // A rook against a bishop; bishops on opposite colours; bishops on the same colour.
        assert_eq!(scale("4k3/8/8/8/8/8/8/3RK2b w - - 0 1"), FULL_SCALE / 4);
        assert_eq!(
            scale("4k3/5p2/8/2b5/8/8/5PP1/3BK3 w - - 0 1"),
            FULL_SCALE / 2
        );
        assert_eq!(scale("4k3/5p2/8/3b4/8/8/5PP1/3BK3 w - - 0 1"), FULL_SCALE);
        // A rook and a pawn against a bishop is worth winning.
        assert_eq!(scale("4k3/8/8/8/8/8/P7/3RK2b w - - 0 1"), FULL_SCALE);
    }

    #[test]
    fn passed_pawns_want_their_king_near_and_the_enemy_far() {
        let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
        // The pawn on b6: the white king beside its path, then in the far corner.
        assert!(eval("8/8/1P6/2K5/8/8/8/7k w - - 0 1") > eval("8/8/1P6/8/8/8/8/k6K w - - 0 1"));
        // The black king in front of it, then far away.
        assert!(eval("1k6/8/1P6/8/8/8/8/7K w - - 0 1") < eval("7k/8/1P6/8/8/8/8/7K w - - 0 1"));
    }

    #[test]
    fn material_and_structure_point_the_right_way() {
        let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
        // A queen up is a lot; a passed pawn on the seventh beats one on the third.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1"));
        // Doubled isolated pawns are worse than two connected ones.
        assert!(
            eval("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1") < eval("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1")
        );
    }
}

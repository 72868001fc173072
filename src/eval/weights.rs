//! The evaluation's weights, indexed by [`super::param`].
//!
//! Fitted by `make tune-data`: `ccr tune --epochs 1500 --rate 1 --l2 0.000000001 --freeze ''
//! --from-move 10` (Texel's method, K = 3.094) to 146,048 quiescence-resolved positions of
//! `ccr datagen` self-play, each labelled with its game's result blended half and half with
//! Stockfish 15.1's expected score at 5,000 nodes (16,227 more held out). They beat the
//! hand-set weights they replace by SPRT (docs/STRENGTH.md, "Decided by SPRT").

use super::{S, param, s};

/// Every weight of the evaluation (middle game, end game), in centipawns.
#[rustfmt::skip]
pub const WEIGHTS: [S; param::COUNT] = [
    // MATERIAL: pawn, knight, bishop, rook, queen
    s(97, 72), s(438, 242), s(438, 263), s(537, 499), s(1135, 921),
    // PST pawn: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(3, 9), s(7, -6), s(5, 2), s(-12, 17),
    s(1, 9), s(2, -4), s(-2, 9), s(16, -8),
    s(15, 3), s(2, 6), s(13, 3), s(39, -2),
    s(0, 18), s(14, 18), s(32, 4), s(36, 18),
    s(0, 50), s(-25, 39), s(72, 47), s(-16, 62),
    s(71, -12), s(-13, 79), s(35, 95), s(25, 43),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    // PST knight: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-20, -46), s(-21, -21), s(6, -33), s(4, -38),
    s(-7, -25), s(-20, -35), s(15, -2), s(20, -9),
    s(-20, -34), s(10, 2), s(11, 4), s(29, 16),
    s(0, 5), s(-1, 22), s(37, 15), s(42, 45),
    s(66, -15), s(31, 10), s(24, 26), s(60, 24),
    s(-88, 24), s(-28, 18), s(3, 57), s(63, 18),
    s(-44, 36), s(11, -6), s(10, -4), s(-4, 3),
    s(-64, -66), s(-24, -20), s(-9, -6), s(10, -5),
    // PST bishop: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-7, -20), s(-42, 3), s(-16, -22), s(6, -17),
    s(4, -21), s(37, -27), s(25, -6), s(17, -7),
    s(1, -28), s(3, 25), s(29, -13), s(17, 15),
    s(-15, 1), s(-9, 2), s(17, 6), s(16, 20),
    s(24, -17), s(28, -11), s(-26, 0), s(46, 35),
    s(4, -33), s(13, 15), s(52, 15), s(30, 23),
    s(-31, -42), s(-32, 21), s(12, 29), s(-36, 29),
    s(-52, -39), s(-30, 6), s(5, 25), s(-20, 0),
    // PST rook: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-14, -17), s(-1, 2), s(17, -29), s(15, -25),
    s(-6, -36), s(12, -8), s(11, -21), s(14, -29),
    s(-13, -28), s(-45, -7), s(-6, -16), s(-30, -14),
    s(-12, -10), s(-9, 10), s(-17, -3), s(7, -5),
    s(14, 11), s(10, 15), s(34, -8), s(13, -2),
    s(13, 17), s(31, 9), s(17, 19), s(60, -8),
    s(26, 15), s(42, 28), s(-7, 26), s(70, -11),
    s(0, 32), s(21, 29), s(-29, 24), s(-17, 29),
    // PST queen: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-44, -22), s(-44, -16), s(-21, 15), s(5, -1),
    s(30, -45), s(-33, -1), s(24, -46), s(15, 7),
    s(33, -36), s(2, 0), s(13, 9), s(14, -2),
    s(7, -6), s(-6, 10), s(17, 10), s(29, 38),
    s(-6, 2), s(28, 3), s(34, -5), s(15, 22),
    s(-37, 29), s(16, -20), s(37, 14), s(4, 5),
    s(-26, -8), s(-43, 29), s(23, 9), s(-19, 28),
    s(24, -28), s(7, -21), s(4, 1), s(8, 8),
    // PST king: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(2, -27), s(32, -26), s(-15, 2), s(-4, 2),
    s(13, -27), s(-1, -2), s(-9, 3), s(-37, 13),
    s(-27, -7), s(-39, -14), s(-25, 1), s(-72, 17),
    s(-83, -25), s(-56, 1), s(-60, 11), s(-60, 23),
    s(-88, -34), s(-46, 0), s(-63, 17), s(-56, 37),
    s(-89, -19), s(-61, 14), s(-64, 35), s(-92, 22),
    s(-101, -66), s(-91, 41), s(-92, 32), s(-81, 14),
    s(-107, -36), s(-107, -11), s(-88, 1), s(-85, 9),
    // MOBILITY: minor, rook, queen or king
    s(7, 3), s(6, 3), s(4, -1),
    // KING_ATTACK: pawn, minor, rook, queen or king
    s(23, -12), s(5, -1), s(3, -4), s(11, -15),
    // KING_DANGER: attack units 0-31
    s(4, -12), s(-31, -9), s(17, -33), s(-3, 13),
    s(6, -4), s(-5, 1), s(8, 31), s(9, -40),
    s(61, 11), s(50, 24), s(66, 1), s(51, 14),
    s(105, 3), s(78, 23), s(121, 46), s(141, 28),
    s(139, 22), s(160, 18), s(162, 7), s(184, 24),
    s(198, 19), s(226, 25), s(245, 23), s(278, 29),
    s(287, 23), s(310, 24), s(338, 26), s(364, 27),
    s(392, 28), s(400, 29), s(400, 30), s(400, 31),
    // PAWN_SHIELD
    s(23, -7),
    // KING_OPEN_FILE
    s(-23, -5),
    // HANGING
    s(-27, -13),
    // THREAT_BY_PAWN, THREAT_BY_MINOR, THREAT_BY_ROOK
    s(-58, -19), s(-33, -20), s(-41, -9),
    // PASSED: ranks 1-8 from its own side
    s(0, 0), s(26, 5), s(-3, 29), s(0, 17),
    s(1, 31), s(52, 25), s(99, 75), s(0, 0),
    // PASSED_FREE, PASSED_BLOCKED, PASSED_OWN_KING, PASSED_ENEMY_KING
    s(-15, 26), s(-3, -6), s(4, -4), s(-1, 9),
    // ISOLATED, DOUBLED
    s(-14, -16), s(-2, -10),
    // BISHOP_PAIR
    s(63, 33),
    // ROOK_OPEN, ROOK_SEMI_OPEN
    s(49, -1), s(10, 13),
    // TEMPO
    s(24, 6),
];

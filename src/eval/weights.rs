//! The evaluation's weights, indexed by [`super::param`].
//!
//! Hand-set values (material near the usual centipawn scale, simple centralisation tables).
//! `ccr tune` fits them to self-play results in this file's form (`make tune`); none of the
//! fits of 2026-11-23 played better than these in matches, so these stay (docs/STRENGTH.md,
//! "Tuning").

use super::{S, param, s};

/// Every weight of the evaluation (middle game, end game), in centipawns.
#[rustfmt::skip]
pub const WEIGHTS: [S; param::COUNT] = [
    // MATERIAL: pawn, knight, bishop, rook, queen
    s(82, 94), s(337, 281), s(365, 297), s(477, 512), s(1025, 936),
    // PST pawn: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(0, 5), s(0, 5), s(5, 5), s(10, 5),
    s(0, 10), s(5, 10), s(15, 10), s(25, 10),
    s(5, 20), s(10, 20), s(20, 20), s(30, 20),
    s(10, 35), s(20, 35), s(30, 35), s(40, 35),
    s(20, 60), s(20, 60), s(20, 60), s(20, 60),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    // PST knight: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-30, -30), s(-20, -20), s(-10, -10), s(0, 0),
    s(-20, -20), s(-10, -10), s(0, 0), s(10, 10),
    s(-10, -10), s(0, 0), s(10, 10), s(20, 20),
    s(0, 0), s(10, 10), s(20, 20), s(30, 30),
    s(0, 0), s(10, 10), s(20, 20), s(30, 30),
    s(-10, -10), s(0, 0), s(10, 10), s(20, 20),
    s(-20, -20), s(-10, -10), s(0, 0), s(10, 10),
    s(-30, -30), s(-20, -20), s(-10, -10), s(0, 0),
    // PST bishop: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-15, -15), s(-10, -10), s(-5, -5), s(0, 0),
    s(-10, -10), s(-5, -5), s(0, 0), s(5, 5),
    s(-5, -5), s(0, 0), s(5, 5), s(10, 10),
    s(0, 0), s(5, 5), s(10, 10), s(15, 15),
    s(0, 0), s(5, 5), s(10, 10), s(15, 15),
    s(-5, -5), s(0, 0), s(5, 5), s(10, 10),
    s(-10, -10), s(-5, -5), s(0, 0), s(5, 5),
    s(-15, -15), s(-10, -10), s(-5, -5), s(0, 0),
    // PST rook: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    s(20, 0), s(20, 0), s(25, 0), s(25, 0),
    s(0, 0), s(0, 0), s(5, 0), s(5, 0),
    // PST queen: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(-9, -15), s(-6, -10), s(-3, -5), s(0, 0),
    s(-6, -10), s(-3, -5), s(0, 0), s(3, 5),
    s(-3, -5), s(0, 0), s(3, 5), s(6, 10),
    s(0, 0), s(3, 5), s(6, 10), s(9, 15),
    s(0, 0), s(3, 5), s(6, 10), s(9, 15),
    s(-3, -5), s(0, 0), s(3, 5), s(6, 10),
    s(-6, -10), s(-3, -5), s(0, 0), s(3, 5),
    s(-9, -15), s(-6, -10), s(-3, -5), s(0, 0),
    // PST king: ranks 1-8 from its own side, files a-d (h-e mirrored)
    s(20, -30), s(30, -20), s(10, -10), s(0, 0),
    s(10, -20), s(10, -10), s(-10, 0), s(-20, 10),
    s(-50, -10), s(-50, 0), s(-50, 10), s(-50, 20),
    s(-60, 0), s(-60, 10), s(-60, 20), s(-60, 30),
    s(-70, 0), s(-70, 10), s(-70, 20), s(-70, 30),
    s(-80, -10), s(-80, 0), s(-80, 10), s(-80, 20),
    s(-90, -20), s(-90, -10), s(-90, 0), s(-90, 10),
    s(-100, -30), s(-100, -20), s(-100, -10), s(-100, 0),
    // MOBILITY: minor, rook, queen or king
    s(4, 4), s(2, 4), s(1, 2),
    // KING_ATTACK: pawn, minor, rook, queen or king
    s(5, 0), s(8, 0), s(8, 0), s(10, 0),
    // KING_DANGER: attack units 0-31
    s(0, 0), s(0, 1), s(2, 2), s(4, 3),
    s(8, 4), s(12, 5), s(18, 6), s(24, 7),
    s(32, 8), s(40, 9), s(50, 10), s(60, 11),
    s(72, 12), s(84, 13), s(98, 14), s(112, 15),
    s(128, 16), s(144, 17), s(162, 18), s(180, 19),
    s(200, 20), s(220, 21), s(242, 22), s(264, 23),
    s(288, 24), s(312, 25), s(338, 26), s(364, 27),
    s(392, 28), s(400, 29), s(400, 30), s(400, 31),
    // PAWN_SHIELD
    s(10, 0),
    // KING_OPEN_FILE
    s(-15, 0),
    // HANGING
    s(-30, -20),
    // THREAT_BY_PAWN, THREAT_BY_MINOR, THREAT_BY_ROOK
    s(-40, -30), s(-30, -20), s(-30, -20),
    // PASSED: ranks 1-8 from its own side
    s(0, 0), s(5, 10), s(10, 15), s(15, 25),
    s(25, 45), s(40, 70), s(60, 110), s(0, 0),
    // PASSED_FREE, PASSED_BLOCKED, PASSED_OWN_KING, PASSED_ENEMY_KING
    s(4, 10), s(-2, -6), s(0, -3), s(0, 6),
    // ISOLATED, DOUBLED
    s(-10, -10), s(-10, -20),
    // BISHOP_PAIR
    s(30, 50),
    // ROOK_OPEN, ROOK_SEMI_OPEN
    s(25, 10), s(10, 5),
    // TEMPO
    s(15, 5),
];

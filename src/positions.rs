//! The standard test positions by name (the six of `tests/data/standard-perft.epd`), written
//! out once for the unit tests, integration tests and benches.

/// The initial position.
pub use crate::ccr::fen::STARTPOS;

/// "Kiwipete" (position 2): castling both ways, pins, en passant and promotions near.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Position 3: a rook and pawn ending rich in en passant and checks along the rank.
pub const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Position 4: promotions, and castling rights of one side only.
pub const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// Position 5: a promotion with capture and a knight check next to the king.
pub const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
/// Position 6: a symmetrical middlegame.
pub const POSITION_6: &str =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// The six standard positions in file order.
pub const STANDARD: [&str; 6] = [
    STARTPOS, KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6,
];

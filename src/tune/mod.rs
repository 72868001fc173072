//! Tuning the evaluation on data the engine makes itself: `ccr datagen` plays self-play
//! games and labels their quiet positions with the results ([`datagen`]); `ccr tune` fits
//! the weights to them by Texel's method ([`texel`]) and writes `src/eval/weights.rs`.
//! `make tune` runs both (docs/STRENGTH.md says how the shipped weights were made).
//! `ccr datagen --scores` keeps the search's scores too, and `ccr train` fits the network
//! evaluation to them ([`train`]).

pub mod datagen;
pub mod texel;
pub mod train;

pub use crate::eval::network::Network;
pub use crate::eval::weights::WEIGHTS;
pub use crate::eval::{FULL_SCALE, MAX_PHASE, S, param};
pub use crate::openings::read_book;

//! Tuning the evaluation on data the engine makes itself: `ccr datagen` plays self-play
//! games and labels their quiet positions with the results ([`datagen`]); `ccr tune` fits
//! the weights to them by Texel's method ([`texel`]) and writes `src/eval/weights.rs`.
//! `make tune` runs both (docs/STRENGTH.md says how the shipped weights were made).

pub mod datagen;
pub mod texel;

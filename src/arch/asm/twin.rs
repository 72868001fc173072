//! The portable twin of the assembly's slider targets: the ray walk, one direction at a time.
//! The unit tests prove the assembly equal to it, and `benches/common/asm.rs` includes this
//! file to time it against the assembly.

use super::Square;

/// The steps (rank words, files toward h) of the direction bits, in bit order.
const STEPS: [(isize, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

/// The squares a slider on `sq` reaches along `directions` over `occupied`, one ray at a
/// time, each including its first occupied square.
// Public for the benches, which include this file and re-export it from another module.
#[allow(unreachable_pub)]
pub fn ray_walk(occupied: &[u32; 8], sq: Square, directions: u32) -> [u32; 8] {
    let mut out = [0; 8];
    for (bit, &(dw, df)) in STEPS.iter().enumerate() {
        if directions & (1 << bit) == 0 {
            continue;
        }
        let (mut word, mut mask) = (sq.word(), sq.mask());
        loop {
            word = word.wrapping_add_signed(dw);
            mask = match df {
                -1 => mask << 4,
                1 => mask >> 4,
                _ => mask,
            };
            if word >= 8 || mask == 0 {
                break;
            }
            out[word] |= mask;
            if occupied[word] & mask != 0 {
                break;
            }
        }
    }
    out
}

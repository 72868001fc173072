//! The layout of a network's weights file (`src/eval/network.bin`, what `ccr train` writes):
//! read by the engine, and checked by `build.rs`, which refuses to build with a file the
//! engine could not read. It names nothing of the crate, so that the build script can
//! include it on its own.

/// Inputs: two sides (own, enemy) × six piece types × 64 squares.
pub(crate) const INPUTS: usize = 2 * 6 * 64;
/// The hidden layer's width, each side's accumulator.
pub(crate) const HIDDEN: usize = 128;
/// The first bytes of a weights file, naming the layout and the width.
pub(crate) const MAGIC: &[u8; 8] = b"ccrnet01";
/// The length of a weights file: the magic, then every weight as a little-endian i16
/// (columns input by input, the hidden bias, the output weights) and the output bias as an
/// i32.
pub(crate) const FILE_LEN: usize = MAGIC.len() + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// `Ok` if `bytes` are a weights file of this layout and width, else why they are not one.
pub(crate) fn check(bytes: &[u8]) -> Result<(), String> {
    if !bytes.starts_with(MAGIC) {
        return Err("does not start with the magic ccrnet01".to_string());
    }
    if bytes.len() != FILE_LEN {
        return Err(format!(
            "is {} bytes long, a ccrnet01 file {FILE_LEN}",
            bytes.len()
        ));
    }
    Ok(())
}

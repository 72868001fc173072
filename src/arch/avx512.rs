//! Two boards in one `zmm` register (AVX-512F): board `a` in lanes 0-7, board `b` in lanes
//! 8-15, each with its own colour, so one pass builds two tables — of two boards, or of both
//! colours of one.
//!
//! Written with `asm!`, not intrinsics: the AVX-512 intrinsics and `target_feature(enable =
//! "avx512f")` are stable only from Rust 1.89, and the crate builds with 1.85 (its
//! `rust-version`, and Debian's compiler for the i686 build). The assembler takes the
//! instructions whatever the compiler's target features, and the kernel names its registers
//! itself, zmm0-zmm7 only: the eight that 32-bit mode has, and the only ones the clobber list
//! can declare without the `avx512f` feature (zmm16-31 and the mask registers k0-k7 would
//! need it). So no masked operations: a rank move is `vpermi2d` from the board and a zero
//! table (index 16 takes a zero), which keeps each half's lanes on its own board. The
//! constants are memory operands (`{1to16}` broadcasts and 64-byte rows), so the eight
//! registers suffice: words, empty squares, table, two slider sets, and three for a fill.
//!
//! The algorithm is [`super::avx2`]'s (SWAR piece sets, leaper shifts, Kogge–Stone fills
//! carrying the class bits) with AVX-512's three-input `vpternlogd` doing a fill step's
//! `g |= p & t` in one instruction, and the colour handled by an XOR: each half's words are
//! XORed with its colour bit, so the side whose table is built always reads as white.

use std::arch::asm;
use std::mem::offset_of;

use crate::ccr::board::Ccr;
use crate::types::{Colour, PieceCode};

/// The constant rows of one pair of colours (64-byte aligned for `vmovdqa32`).
#[repr(C, align(64))]
struct Lanes {
    /// `vpermi2d` indices that move every lane 1, 2 and 4 ranks toward rank 8, per board.
    up: [[u32; 16]; 3],
    /// The same toward rank 1.
    down: [[u32; 16]; 3],
    /// Each half's pawn direction, one rank (toward rank 8 for White, rank 1 for Black).
    pawn: [u32; 16],
    /// `0x8888_8888` on the lanes of a board whose black table is built, else 0.
    colour: [u32; 16],
    /// The second `vpermi2d` table: the zeroes a rank move shifts in.
    zero: [u32; 16],
    /// `0x7777_7777`, the low three bits of every nibble.
    low: u32,
    /// `0x8888_8888`, the high bit of every nibble.
    high: u32,
    /// The white piece codes pawn..king in every nibble.
    codes: [u32; 6],
}

/// Lane indices moving each board's lanes `k` ranks: toward rank 8 (`up`) lane `i` takes
/// lane `i + k`, toward rank 1 lane `i − k`; a lane with no source takes 16, the zero table.
const fn rank_move(k: u32, up: bool) -> [u32; 16] {
    let mut index = [16u32; 16];
    let mut lane = 0;
    while lane < 16 {
        let (board, rank) = (lane / 8 * 8, lane as u32 % 8);
        if up && rank + k < 8 {
            index[lane] = board as u32 + rank + k;
        } else if !up && rank >= k {
            index[lane] = board as u32 + rank - k;
        }
        lane += 1;
    }
    index
}

/// The rows for tables of colour `a` on the first board and `b` on the second.
const fn lanes(a: Colour, b: Colour) -> Lanes {
    let (mut pawn, mut colour) = ([0u32; 16], [0u32; 16]);
    let (up, down) = (rank_move(1, true), rank_move(1, false));
    let mut lane = 0;
    while lane < 16 {
        let black = matches!(if lane < 8 { a } else { b }, Colour::Black);
        pawn[lane] = if black { down[lane] } else { up[lane] };
        colour[lane] = if black { 0x8888_8888 } else { 0 };
        lane += 1;
    }
    Lanes {
        up: [up, rank_move(2, true), rank_move(4, true)],
        down: [down, rank_move(2, false), rank_move(4, false)],
        pawn,
        colour,
        zero: [0; 16],
        low: 0x7777_7777,
        high: 0x8888_8888,
        codes: [
            PieceCode::PAWN as u32 * 0x1111_1111,
            PieceCode::KNIGHT as u32 * 0x1111_1111,
            PieceCode::BISHOP as u32 * 0x1111_1111,
            PieceCode::ROOK as u32 * 0x1111_1111,
            PieceCode::QUEEN as u32 * 0x1111_1111,
            PieceCode::KING as u32 * 0x1111_1111,
        ],
    }
}

/// The rows of every pair of colours, indexed by `2 * a + b`.
static LANES: [Lanes; 4] = [
    lanes(Colour::White, Colour::White),
    lanes(Colour::White, Colour::Black),
    lanes(Colour::Black, Colour::White),
    lanes(Colour::Black, Colour::Black),
];

/// Lines of the template that move `$src` into `$dst` by `$k` (1, 2 or 4) squares: ranks
/// `up` (toward rank 8), `down` or `none`, then files `a` (a left shift), `h` or `none`.
macro_rules! step {
    ($dst:literal, $src:literal, none, a, $k:literal) => {
        concat!("vpslld ", $dst, ", ", $src, ", {s", $k, "}\n")
    };
    ($dst:literal, $src:literal, none, h, $k:literal) => {
        concat!("vpsrld ", $dst, ", ", $src, ", {s", $k, "}\n")
    };
    ($dst:literal, $src:literal, $ranks:ident, none, $k:literal) => {
        concat!(
            "vmovdqa32 ",
            $dst,
            ", zmmword ptr [{k} + {",
            stringify!($ranks),
            $k,
            "}]\n",
            "vpermi2d ",
            $dst,
            ", ",
            $src,
            ", zmmword ptr [{k} + {zero}]\n",
        )
    };
    ($dst:literal, $src:literal, $ranks:ident, $files:ident, $k:literal) => {
        concat!(
            step!($dst, $src, $ranks, none, $k),
            step!($dst, $dst, none, $files, $k),
        )
    };
}

/// The template lines of one slider direction: the Kogge–Stone occluded fill of the class
/// bits in `$sliders` through the empty squares (zmm1), ORed into the table (zmm7). zmm3 is
/// the generator, zmm4 the propagator, zmm2 each step's moved copy; `0xF8` is `A | (B & C)`.
macro_rules! ray {
    ($sliders:literal, $ranks:ident, $files:ident) => {
        concat!(
            "vmovdqa32 zmm3, ",
            $sliders,
            "\n",
            "vmovdqa32 zmm4, zmm1\n",
            step!("zmm2", "zmm3", $ranks, $files, "1"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            step!("zmm2", "zmm4", $ranks, $files, "1"),
            "vpandd zmm4, zmm4, zmm2\n",
            step!("zmm2", "zmm3", $ranks, $files, "2"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            step!("zmm2", "zmm4", $ranks, $files, "2"),
            "vpandd zmm4, zmm4, zmm2\n",
            step!("zmm2", "zmm3", $ranks, $files, "4"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            step!("zmm2", "zmm3", $ranks, $files, "1"),
            "vpord zmm7, zmm7, zmm2\n",
        )
    };
}

/// Template lines leaving in `$dst` the high bit (`1000b`) of every nibble of the words
/// (zmm0, colour-flipped) equal to white piece code number `$piece` (0 = pawn); `0x02` is
/// `!(A | B) & C`, a nibble with no bit set. Uses zmm2.
macro_rules! squares_of {
    ($dst:literal, $piece:literal) => {
        concat!(
            "vpxord zmm2, zmm0, dword ptr [{k} + {codes} + 4 * ",
            $piece,
            "]{{1to16}}\n",
            "vpandd ",
            $dst,
            ", zmm2, dword ptr [{k} + {low}]{{1to16}}\n",
            "vpaddd ",
            $dst,
            ", ",
            $dst,
            ", dword ptr [{k} + {low}]{{1to16}}\n",
            "vpternlogd ",
            $dst,
            ", zmm2, dword ptr [{k} + {high}]{{1to16}}, 0x02\n",
        )
    };
}

/// `$dst = ($src << 4n) | ($src >> 4n)`: a set moved `n` files either way (`$n` = 1 or 2).
/// Uses zmm2.
macro_rules! sideways {
    ($dst:literal, $src:literal, $n:literal) => {
        concat!(
            "vpslld ",
            $dst,
            ", ",
            $src,
            ", {s",
            $n,
            "}\n",
            "vpsrld zmm2, ",
            $src,
            ", {s",
            $n,
            "}\n",
            "vpord ",
            $dst,
            ", ",
            $dst,
            ", zmm2\n",
        )
    };
}

/// The attack tables of `by.0` on `a` and of `by.1` on `b`, into `out[0]` and `out[1]`.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
pub unsafe fn attacks_of_pair(a: &Ccr, b: &Ccr, by: (Colour, Colour), out: &mut [[u32; 8]; 2]) {
    let lanes = &LANES[2 * by.0 as usize + by.1 as usize];
    // SAFETY: the CPU has AVX-512F (the caller's contract). The template reads 32 bytes at
    // `a` and at `b` (two boards), aligned 64-byte rows and dwords inside `*lanes` (offsets
    // from `offset_of!`), and writes the 64 bytes of `out`; it uses zmm0-zmm7 only, all
    // declared clobbered by the C ABI, which also covers `vzeroupper`'s clearing of the upper
    // halves of every vector register (zmm0-15 are caller-saved), touches no flags and no
    // stack.
    unsafe {
        asm!(
            // The two boards, then the empty squares (zmm1, 0xF per nibble: full nibbles from
            // their high bits by e | (e − e >> 3)), then each half's colour flipped to white.
            "vmovdqu ymm0, ymmword ptr [{a}]",
            "vinserti64x4 zmm0, zmm0, ymmword ptr [{b}], 1",
            "vpandd zmm1, zmm0, dword ptr [{k} + {low}]{{1to16}}",
            "vpaddd zmm1, zmm1, dword ptr [{k} + {low}]{{1to16}}",
            "vpternlogd zmm1, zmm0, dword ptr [{k} + {high}]{{1to16}}, 0x02",
            "vpsrld zmm2, zmm1, 3",
            "vpsubd zmm2, zmm1, zmm2",
            "vpord zmm1, zmm1, zmm2",
            "vpxord zmm0, zmm0, zmmword ptr [{k} + {colour}]",
            // Pawns: their high bits are the pawn class; one file either side, one rank ahead.
            squares_of!("zmm3", "0"),
            sideways!("zmm4", "zmm3", "1"),
            "vmovdqa32 zmm7, zmmword ptr [{k} + {pawn}]",
            "vpermi2d zmm7, zmm4, zmmword ptr [{k} + {zero}]",
            // Knights (class 0100b): one file and two ranks, two files and one rank.
            squares_of!("zmm3", "1"),
            "vpsrld zmm3, zmm3, 1",
            sideways!("zmm4", "zmm3", "1"),
            sideways!("zmm5", "zmm3", "2"),
            step!("zmm3", "zmm4", up, none, "2"),
            "vpord zmm7, zmm7, zmm3",
            step!("zmm3", "zmm4", down, none, "2"),
            "vpord zmm7, zmm7, zmm3",
            step!("zmm3", "zmm5", up, none, "1"),
            "vpord zmm7, zmm7, zmm3",
            step!("zmm3", "zmm5", down, none, "1"),
            "vpord zmm7, zmm7, zmm3",
            // The king (0001b): beside, and the three squares above and below.
            squares_of!("zmm3", "5"),
            "vpsrld zmm3, zmm3, 3",
            sideways!("zmm4", "zmm3", "1"),
            "vpord zmm7, zmm7, zmm4",
            "vpord zmm4, zmm4, zmm3",
            step!("zmm3", "zmm4", up, none, "1"),
            "vpord zmm7, zmm7, zmm3",
            step!("zmm3", "zmm4", down, none, "1"),
            "vpord zmm7, zmm7, zmm3",
            // Sliders: rooks 0010b and queens 0001b along ranks and files (zmm5), bishops
            // 0100b and queens on the diagonals (zmm6).
            squares_of!("zmm4", "4"),
            "vpsrld zmm4, zmm4, 3",
            squares_of!("zmm5", "3"),
            "vpsrld zmm5, zmm5, 2",
            "vpord zmm5, zmm5, zmm4",
            squares_of!("zmm6", "2"),
            "vpsrld zmm6, zmm6, 1",
            "vpord zmm6, zmm6, zmm4",
            ray!("zmm5", up, none),
            ray!("zmm5", down, none),
            ray!("zmm5", none, a),
            ray!("zmm5", none, h),
            ray!("zmm6", up, a),
            ray!("zmm6", up, h),
            ray!("zmm6", down, a),
            ray!("zmm6", down, h),
            "vmovdqu32 zmmword ptr [{out}], zmm7",
            "vzeroupper",
            a = in(reg) a.0.as_ptr(),
            b = in(reg) b.0.as_ptr(),
            k = in(reg) std::ptr::from_ref(lanes),
            out = in(reg) out.as_mut_ptr(),
            up1 = const offset_of!(Lanes, up),
            up2 = const offset_of!(Lanes, up) + 64,
            up4 = const offset_of!(Lanes, up) + 128,
            down1 = const offset_of!(Lanes, down),
            down2 = const offset_of!(Lanes, down) + 64,
            down4 = const offset_of!(Lanes, down) + 128,
            pawn = const offset_of!(Lanes, pawn),
            colour = const offset_of!(Lanes, colour),
            zero = const offset_of!(Lanes, zero),
            low = const offset_of!(Lanes, low),
            high = const offset_of!(Lanes, high),
            codes = const offset_of!(Lanes, codes),
            s1 = const 4,
            s2 = const 8,
            s4 = const 16,
            clobber_abi("C"),
            options(nostack, preserves_flags),
        );
    }
}

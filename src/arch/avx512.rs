//! Two boards in one `zmm` register (AVX-512F): board `a` in lanes 0-7, board `b` in lanes
//! 8-15, each with its own colour, so one pass builds two tables — of two boards, or of both
//! colours of one ([`attacks_of_pair`]). The bulk count's kernel ([`attacks_and_moves`])
//! holds one board in both halves instead and moves each half its own way, so that one fill
//! makes two directions of travel.
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
use crate::types::{Colour, PieceType};

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
            PieceType::Pawn.bits() as u32 * 0x1111_1111,
            PieceType::Knight.bits() as u32 * 0x1111_1111,
            PieceType::Bishop.bits() as u32 * 0x1111_1111,
            PieceType::Rook.bits() as u32 * 0x1111_1111,
            PieceType::Queen.bits() as u32 * 0x1111_1111,
            PieceType::King.bits() as u32 * 0x1111_1111,
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
            a = in(reg) a.words().as_ptr(),
            b = in(reg) b.words().as_ptr(),
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

/// The constant rows of [`attacks_and_moves`] for one colour of `them`.
#[repr(C, align(64))]
struct CountRows {
    /// `vpermi2d` indices moving the first half's lanes 1, 2 and 4 ranks toward rank 8 and
    /// the second half's as many toward rank 1 (index 16 takes a zero).
    up_down: [[u32; 16]; 3],
    /// The first half's lanes in place, the second half's 1, 2 and 4 ranks toward rank 8.
    still_up: [[u32; 16]; 3],
    /// The first half's lanes in place, the second half's 1, 2 and 4 ranks toward rank 1.
    still_down: [[u32; 16]; 3],
    /// `vpsllvd` / `vpsrlvd` counts moving the first half 1, 2 and 4 files and leaving the
    /// second half in place.
    first_half_files: [[u32; 16]; 3],
    /// Both halves one rank in the enemy pawns' direction.
    pawn: [u32; 16],
    /// Both halves one rank in our pawns' direction.
    ahead: [u32; 16],
    /// All ones on the lanes of the rank our double pushes cross, in both halves.
    third: [u32; 16],
    /// All ones on the first half and on the second half's lane of our last rank: what of
    /// the pawns' count each half keeps (the second counts the promotions three more times).
    pawn_keep: [u32; 16],
    /// All ones on the second half.
    second_half: [u32; 16],
    /// The second `vpermi2d` table: the zeroes a rank move shifts in.
    zero: [u32; 16],
    /// `0x8888_8888` when the enemy is Black (its pieces then read as white), else 0.
    colour: u32,
    /// `0x7777_7777`, the low three bits of every nibble.
    low: u32,
    /// `0x8888_8888`, the high bit of every nibble.
    high: u32,
    /// `0x1111_1111`, the low bit of every nibble.
    ones: u32,
    /// `0x0F0F_0F0F`, the low nibble of every byte.
    byte_low: u32,
    /// The white piece codes pawn..king in every nibble, then the black ones.
    codes: [u32; 12],
}

/// `vpermi2d` indices: the first half's lanes `first` ranks and the second half's `second`
/// ranks (positive toward rank 8, lane `i` takes lane `i + k`), a lane with no source 16.
const fn ranks_by_half(first: i32, second: i32) -> [u32; 16] {
    let mut index = [16u32; 16];
    let mut lane = 0;
    while lane < 16 {
        let (half, rank) = (lane / 8 * 8, (lane % 8) as i32);
        let k = if lane < 8 { first } else { second };
        let source = rank + k;
        if source >= 0 && source < 8 {
            index[lane] = (half as i32 + source) as u32;
        }
        lane += 1;
    }
    index
}

/// The rows for the table of `them` (and the count of the other side's moves).
const fn count_rows(them: Colour) -> CountRows {
    let mut codes = [0u32; 12];
    let mut piece = 0;
    while piece < 6 {
        codes[piece] = (PieceType::Pawn.bits() as u32 + piece as u32) * 0x1111_1111;
        codes[piece + 6] = (8 + PieceType::Pawn.bits() as u32 + piece as u32) * 0x1111_1111;
        piece += 1;
    }
    let mut first_half_files = [[0u32; 16]; 3];
    let mut k = 0;
    while k < 3 {
        let mut lane = 0;
        while lane < 8 {
            first_half_files[k][lane] = 4 << k;
            lane += 1;
        }
        k += 1;
    }
    let black = matches!(them, Colour::Black);
    // Our third and last ranks' lanes.
    let (third_lane, last_lane) = if black { (5, 0) } else { (2, 7) };
    let (mut third, mut pawn_keep, mut second_half) = ([0u32; 16], [0u32; 16], [0u32; 16]);
    let mut lane = 0;
    while lane < 16 {
        third[lane] = if lane % 8 == third_lane { !0 } else { 0 };
        pawn_keep[lane] = if lane < 8 || lane == 8 + last_lane {
            !0
        } else {
            0
        };
        second_half[lane] = if lane < 8 { 0 } else { !0 };
        lane += 1;
    }
    CountRows {
        up_down: [
            ranks_by_half(1, -1),
            ranks_by_half(2, -2),
            ranks_by_half(4, -4),
        ],
        still_up: [
            ranks_by_half(0, 1),
            ranks_by_half(0, 2),
            ranks_by_half(0, 4),
        ],
        still_down: [
            ranks_by_half(0, -1),
            ranks_by_half(0, -2),
            ranks_by_half(0, -4),
        ],
        first_half_files,
        pawn: if black {
            ranks_by_half(-1, -1)
        } else {
            ranks_by_half(1, 1)
        },
        ahead: if black {
            ranks_by_half(1, 1)
        } else {
            ranks_by_half(-1, -1)
        },
        third,
        pawn_keep,
        second_half,
        zero: [0; 16],
        colour: if black { 0x8888_8888 } else { 0 },
        low: 0x7777_7777,
        high: 0x8888_8888,
        ones: 0x1111_1111,
        byte_low: 0x0F0F_0F0F,
        codes,
    }
}

/// The rows for `them` White and Black.
static COUNT_ROWS: [CountRows; 2] = [count_rows(Colour::White), count_rows(Colour::Black)];

/// What [`attacks_and_moves`] writes in memory: the kernel has eight vector registers
/// in 32-bit mode, so the sets it keeps for later go here, and the table comes back here.
#[repr(C, align(64))]
struct CountFrame {
    /// The sliders of both sides with their fill bits (rook directions, then diagonals), the
    /// enemy pawns' attacks, `0xF` on every square without a piece of the side to move, and
    /// `0x1` on our king's steps onto those (first half): written and read by the kernel.
    sets: [[u32; 16]; 5],
    table: [u32; 8],
}

/// A move of `$src` into zmm2 by `$k` (1, 2 or 4) steps: the rank move of index row
/// `$ranks`, then the file shift `$files` (`none`, `a`/`h` for both halves, `first_a`/`first_h`
/// for the first half only).
macro_rules! pair_move {
    ($src:literal, $ranks:ident, $files:ident, $k:literal) => {
        concat!(
            "vmovdqa32 zmm2, zmmword ptr [{k} + {",
            stringify!($ranks),
            $k,
            "}]\n",
            "vpermi2d zmm2, ",
            $src,
            ", zmmword ptr [{k} + {zero}]\n",
            pair_move!(@files $files, $k),
        )
    };
    (@files none, $k:literal) => { "" };
    (@files a, $k:literal) => { concat!("vpslld zmm2, zmm2, {s", $k, "}\n") };
    (@files h, $k:literal) => { concat!("vpsrld zmm2, zmm2, {s", $k, "}\n") };
    (@files first_a, $k:literal) => {
        concat!("vpsllvd zmm2, zmm2, zmmword ptr [{k} + {files", $k, "}]\n")
    };
    (@files first_h, $k:literal) => {
        concat!("vpsrlvd zmm2, zmm2, zmmword ptr [{k} + {files", $k, "}]\n")
    };
}

/// Adds one move set in zmm2 (the last direction's squares, the pieces' fill bits on them)
/// to the table (zmm7, ORed) and its bit 3s, the side to move's, to the count (zmm6, one per
/// nibble). Leaves zmm2 spent.
macro_rules! take_moves {
    () => {
        concat!(
            "vpord zmm7, zmm7, zmm2\n",
            "vpsrld zmm2, zmm2, 3\n",
            "vpandd zmm2, zmm2, dword ptr [{k} + {ones}]{{1to16}}\n",
            "vpaddd zmm6, zmm6, zmm2\n",
        )
    };
}

/// The Kogge–Stone fill of two directions at once, one per half, from the sliders in frame
/// set `$set` through the empty squares (zmm1), taken by [`take_moves`]. zmm3 is the
/// generator, zmm4 the propagator; `0xF8` is `A | (B & C)`.
macro_rules! pair_ray {
    ($set:literal, $ranks:ident, $files:ident) => {
        concat!(
            "vmovdqa32 zmm3, zmmword ptr [{f} + 64 * ",
            $set,
            "]\n",
            "vmovdqa32 zmm4, zmm1\n",
            pair_move!("zmm3", $ranks, $files, "1"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            pair_move!("zmm4", $ranks, $files, "1"),
            "vpandd zmm4, zmm4, zmm2\n",
            pair_move!("zmm3", $ranks, $files, "2"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            pair_move!("zmm4", $ranks, $files, "2"),
            "vpandd zmm4, zmm4, zmm2\n",
            pair_move!("zmm3", $ranks, $files, "4"),
            "vpternlogd zmm3, zmm4, zmm2, 0xF8\n",
            pair_move!("zmm3", $ranks, $files, "1"),
            take_moves!(),
        )
    };
}

/// One knight leap of both halves (toward rank 8 in the first, rank 1 in the second) from
/// the knights in zmm3, taken by [`take_moves`].
macro_rules! knight_pair {
    ($ranks:ident, $files:ident, $k:literal, $shift:literal) => {
        concat!(
            "vmovdqa32 zmm2, zmmword ptr [{k} + {", stringify!($ranks), $k, "}]\n",
            "vpermi2d zmm2, zmm3, zmmword ptr [{k} + {zero}]\n",
            pair_move!(@files $files, $shift),
            take_moves!(),
        )
    };
}

/// [`attacks_and_moves`]'s first part: the board and the sets it keeps in the frame, the enemy
/// pawns' and king's attacks into the table (zmm7), the knights' set.
macro_rules! count_sets {
    () => {
        concat!(
            // Both halves: the board, its empty squares (zmm1, 0xF each), then the colours
            // flipped so that the enemy reads as white (zmm0).
            "vmovdqu xmm0, xmmword ptr [{board}]\n",
            "vinserti128 ymm0, ymm0, xmmword ptr [{board} + 16], 1\n",
            "vinserti64x4 zmm0, zmm0, ymm0, 1\n",
            "vpandd zmm1, zmm0, dword ptr [{k} + {low}]{{1to16}}\n",
            "vpaddd zmm1, zmm1, dword ptr [{k} + {low}]{{1to16}}\n",
            "vpternlogd zmm1, zmm0, dword ptr [{k} + {high}]{{1to16}}, 0x02\n",
            "vpsrld zmm2, zmm1, 3\n",
            "vpsubd zmm2, zmm1, zmm2\n",
            "vpord zmm1, zmm1, zmm2\n",
            "vpxord zmm0, zmm0, dword ptr [{k} + {colour}]{{1to16}}\n",
            // Bit 3 where no pinned piece stands (zmm5).
            "vmovdqu xmm5, xmmword ptr [{pinned}]\n",
            "vinserti128 ymm5, ymm5, xmmword ptr [{pinned} + 16], 1\n",
            "vinserti64x4 zmm5, zmm5, ymm5, 1\n",
            "vpandnd zmm5, zmm5, dword ptr [{k} + {high}]{{1to16}}\n",
            // Set 3: 0xF off our pieces (bit 3 now, unless empty), `~A | B` = 0xCF.
            "vpandd zmm3, zmm0, dword ptr [{k} + {high}]{{1to16}}\n",
            "vpsrld zmm2, zmm3, 3\n",
            "vpsubd zmm2, zmm3, zmm2\n",
            "vpord zmm3, zmm3, zmm2\n",
            "vpternlogd zmm3, zmm1, zmm1, 0xCF\n",
            "vmovdqa32 zmmword ptr [{f} + 192], zmm3\n",
            // Set 4: our king's steps (0001b) onto set 3, both halves' rank moves ORed into
            // the first (a VEX instruction clears the second).
            squares_of!("zmm3", "11"),
            "vpsrld zmm3, zmm3, 3\n",
            sideways!("zmm4", "zmm3", "1"),
            "vpord zmm3, zmm3, zmm4\n",
            "vmovdqa32 zmm2, zmmword ptr [{k} + {up_down1}]\n",
            "vpermi2d zmm2, zmm3, zmmword ptr [{k} + {zero}]\n",
            "vpord zmm4, zmm4, zmm2\n",
            "vextracti64x4 ymm2, zmm4, 1\n",
            "vpor ymm4, ymm4, ymm2\n",
            "vpandd zmm4, zmm4, zmmword ptr [{f} + 192]\n",
            "vmovdqa32 zmmword ptr [{f} + 256], zmm4\n",
            // Set 2: the enemy pawns' attacks (the pawn class, 1000b, is their high bit).
            squares_of!("zmm3", "0"),
            sideways!("zmm4", "zmm3", "1"),
            "vmovdqa32 zmm3, zmmword ptr [{k} + {pawn}]\n",
            "vpermi2d zmm3, zmm4, zmmword ptr [{k} + {zero}]\n",
            "vmovdqa32 zmmword ptr [{f} + 128], zmm3\n",
            // The enemy king (0001b): beside in the table, the three squares above in the
            // first half and below in the second.
            squares_of!("zmm3", "5"),
            "vpsrld zmm3, zmm3, 3\n",
            sideways!("zmm7", "zmm3", "1"),
            "vpord zmm3, zmm3, zmm7\n",
            "vmovdqa32 zmm4, zmmword ptr [{k} + {up_down1}]\n",
            "vpermi2d zmm4, zmm3, zmmword ptr [{k} + {zero}]\n",
            "vpord zmm7, zmm7, zmm4\n",
            // Knights: theirs 0100b, our free ones bit 3 (`A | (B & C)` = 0xF8); two ranks
            // and one file, one rank and two files, toward rank 8 and rank 1 in the halves.
            squares_of!("zmm3", "1"),
            "vpsrld zmm3, zmm3, 1\n",
            squares_of!("zmm4", "7"),
            "vpternlogd zmm3, zmm4, zmm5, 0xF8\n",
            "vmovdqa32 zmmword ptr [{f} + 64], zmm3\n",
        )
    };
}

/// [`attacks_and_moves`]'s count of our free pawns' moves (zmm6).
macro_rules! count_pawns {
    () => {
        concat!(
            // Our free pawns (bit 3), one rank ahead (zmm4): captures onto the enemy's
            // pieces (zmm2, set 3 but the empty squares) from either side, pushes onto empty
            // squares, double pushes from those on the third rank; one per move and nibble in
            // the count (zmm6), at most two. The first half keeps it, the second only the last
            // rank's, tripled: a promotion is four moves.
            squares_of!("zmm3", "6"),
            "vpandd zmm3, zmm3, zmm5\n",
            "vmovdqa32 zmm4, zmmword ptr [{k} + {ahead}]\n",
            "vpermi2d zmm4, zmm3, zmmword ptr [{k} + {zero}]\n",
            "vpandnd zmm2, zmm1, zmmword ptr [{f} + 192]\n",
            "vpslld zmm3, zmm4, 4\n",
            "vpandd zmm3, zmm3, zmm2\n",
            "vpsrld zmm6, zmm3, 3\n",
            "vpsrld zmm3, zmm4, 4\n",
            "vpandd zmm3, zmm3, zmm2\n",
            "vpsrld zmm3, zmm3, 3\n",
            "vpaddd zmm6, zmm6, zmm3\n",
            "vpandd zmm4, zmm4, zmm1\n",
            "vpsrld zmm3, zmm4, 3\n",
            "vpaddd zmm6, zmm6, zmm3\n",
            "vpandd zmm4, zmm4, zmmword ptr [{k} + {third}]\n",
            "vmovdqa32 zmm3, zmmword ptr [{k} + {ahead}]\n",
            "vpermi2d zmm3, zmm4, zmmword ptr [{k} + {zero}]\n",
            "vpandd zmm3, zmm3, zmm1\n",
            "vpsrld zmm3, zmm3, 3\n",
            "vpaddd zmm6, zmm6, zmm3\n",
            "vpandd zmm6, zmm6, zmmword ptr [{k} + {pawn_keep}]\n",
            "vpslld zmm3, zmm6, 1\n",
            "vpandd zmm3, zmm3, zmmword ptr [{k} + {second_half}]\n",
            "vpaddd zmm6, zmm6, zmm3\n",
        )
    };
}

/// [`attacks_and_moves`]'s end: the table stored, our king's steps added, the count summed into
/// eax.
macro_rules! count_total {
    () => {
        concat!(
            // The table: the halves ORed, our bit 3s out, the pawns' class in.
            "vpandd zmm7, zmm7, dword ptr [{k} + {low}]{{1to16}}\n",
            "vextracti64x4 ymm2, zmm7, 1\n",
            "vpor ymm7, ymm7, ymm2\n",
            "vpor ymm7, ymm7, ymmword ptr [{f} + 128]\n",
            "vmovdqu ymmword ptr [{f} + {table}], ymm7\n",
            // Our king's steps onto squares the table leaves free (`(A | B) & C` = 0xA8: the
            // high bit of every attacked square), into the count's first half.
            "vpandd zmm2, zmm7, dword ptr [{k} + {low}]{{1to16}}\n",
            "vpaddd zmm2, zmm2, dword ptr [{k} + {low}]{{1to16}}\n",
            "vpternlogd zmm2, zmm7, dword ptr [{k} + {high}]{{1to16}}, 0xA8\n",
            "vpsrld zmm2, zmm2, 3\n",
            "vpandnd zmm2, zmm2, zmmword ptr [{f} + 256]\n",
            // The count: our moves onto set 3 and the king's, at most 11 a nibble in the
            // first half and 14 in the second; nibble sums to byte sums, the halves added,
            // then all bytes.
            "vpandd zmm6, zmm6, zmmword ptr [{f} + 192]\n",
            "vpaddd zmm6, zmm6, zmm2\n",
            "vpsrld zmm2, zmm6, 4\n",
            "vpandd zmm6, zmm6, dword ptr [{k} + {byte_low}]{{1to16}}\n",
            "vpandd zmm2, zmm2, dword ptr [{k} + {byte_low}]{{1to16}}\n",
            "vpaddd zmm6, zmm6, zmm2\n",
            "vextracti64x4 ymm2, zmm6, 1\n",
            "vpaddb ymm6, ymm6, ymm2\n",
            "vpxor xmm2, xmm2, xmm2\n",
            "vpsadbw ymm6, ymm6, ymm2\n",
            "vextracti128 xmm2, ymm6, 1\n",
            "vpaddq xmm6, xmm6, xmm2\n",
            "vpshufd xmm2, xmm6, 0x4E\n",
            "vpaddq xmm6, xmm6, xmm2\n",
            "vmovd eax, xmm6\n",
        )
    };
}

/// [`super::avx2::attacks_and_moves`] with two directions in each `zmm` register: the
/// attack table of `them` on `board` and how many moves the other side's knights, bishops,
/// rooks and queens not on `pinned` (`0xF` per square) have onto the squares its own pieces
/// leave free.
///
/// The board is in both halves of every register, and each fill moves the first half one
/// way and the second half another: the rook lines as (toward file a, toward rank 8) and
/// (toward file h, toward rank 1), a per-half shift count and a per-half lane index doing
/// both at once; the diagonals as the pairs toward rank 8 and rank 1 that share a file
/// direction; the knight leaps likewise. So four fills make the eight rays, and the table is
/// the two halves ORed. As in the AVX2 kernel the enemy's pieces carry their class bits and
/// ours bit 3; per half no two pieces reach a square from the same direction, so the count
/// of a nibble stays below 16 until the halves' byte sums are added.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
pub unsafe fn attacks_and_moves(board: &Ccr, pinned: &[u32; 8], them: Colour) -> ([u32; 8], u32) {
    let rows = &COUNT_ROWS[them as usize];
    let mut frame = std::mem::MaybeUninit::<CountFrame>::uninit();
    let f = frame.as_mut_ptr();
    let count: u32;
    // SAFETY: the CPU has AVX-512F (the caller's contract). The template reads the 32 bytes
    // of `board` and of `pinned` (read where they are: a copy's narrower stores would stall
    // the 32-byte loads), writes the frame's four sets before it reads them and writes
    // `table`, all at offsets inside `*f` (from `offset_of!`, 64-byte aligned where a `zmm`
    // moves whole), and reads aligned rows and dwords inside `*rows`.
    // It uses zmm0-zmm7 only, declared clobbered by the C ABI (which also covers
    // `vzeroupper`), one output register, the flags (its branches) and no stack.
    unsafe {
        asm!(
            count_sets!(),
            count_pawns!(),
            // A kind of piece neither side has is skipped (endings have few kinds, and the
            // same ones all through a search, so the branches predict well); both halves
            // hold the same sets, so the first tells.
            "vmovdqa32 zmm3, zmmword ptr [{f} + 64]",
            "vptest ymm3, ymm3",
            "jz 3f",
            knight_pair!(up_down, a, "2", "1"),
            knight_pair!(up_down, h, "2", "1"),
            knight_pair!(up_down, a, "1", "2"),
            knight_pair!(up_down, h, "1", "2"),
            "3:",
            // Sliders: queens 0001b (theirs) in both sets (zmm3), rooks 0010b in set 0,
            // bishops 0100b in set 1, our free ones bit 3 (`(A & B) | C` = 0xEA).
            squares_of!("zmm3", "4"),
            "vpsrld zmm3, zmm3, 3",
            squares_of!("zmm4", "10"),
            "vpternlogd zmm3, zmm4, zmm5, 0xF8",
            squares_of!("zmm4", "9"),
            "vpternlogd zmm4, zmm5, zmm3, 0xEA",
            "vmovdqa32 zmmword ptr [{f}], zmm4",
            squares_of!("zmm4", "8"),
            "vpternlogd zmm4, zmm5, zmm3, 0xEA",
            squares_of!("zmm3", "2"),
            "vpsrld zmm3, zmm3, 1",
            "vpord zmm4, zmm4, zmm3",
            "vmovdqa32 zmmword ptr [{f} + 64], zmm4",
            squares_of!("zmm3", "3"),
            "vpsrld zmm3, zmm3, 2",
            "vpord zmm3, zmm3, zmmword ptr [{f}]",
            "vmovdqa32 zmmword ptr [{f}], zmm3",
            // The eight rays, two per fill.
            "vptest ymm3, ymm3",
            "jz 4f",
            pair_ray!("0", still_up, first_a),
            pair_ray!("0", still_down, first_h),
            "4:",
            "vmovdqa ymm3, ymmword ptr [{f} + 64]",
            "vptest ymm3, ymm3",
            "jz 5f",
            pair_ray!("1", up_down, a),
            pair_ray!("1", up_down, h),
            "5:",
            count_total!(),
            "vzeroupper",
            f = in(reg) f,
            k = in(reg) std::ptr::from_ref(rows),
            board = in(reg) board.words().as_ptr(),
            pinned = in(reg) pinned.as_ptr(),
            out("eax") count,
            table = const offset_of!(CountFrame, table),
            up_down1 = const offset_of!(CountRows, up_down),
            up_down2 = const offset_of!(CountRows, up_down) + 64,
            up_down4 = const offset_of!(CountRows, up_down) + 128,
            still_up1 = const offset_of!(CountRows, still_up),
            still_up2 = const offset_of!(CountRows, still_up) + 64,
            still_up4 = const offset_of!(CountRows, still_up) + 128,
            still_down1 = const offset_of!(CountRows, still_down),
            still_down2 = const offset_of!(CountRows, still_down) + 64,
            still_down4 = const offset_of!(CountRows, still_down) + 128,
            files1 = const offset_of!(CountRows, first_half_files),
            files2 = const offset_of!(CountRows, first_half_files) + 64,
            files4 = const offset_of!(CountRows, first_half_files) + 128,
            pawn = const offset_of!(CountRows, pawn),
            ahead = const offset_of!(CountRows, ahead),
            third = const offset_of!(CountRows, third),
            pawn_keep = const offset_of!(CountRows, pawn_keep),
            second_half = const offset_of!(CountRows, second_half),
            zero = const offset_of!(CountRows, zero),
            colour = const offset_of!(CountRows, colour),
            low = const offset_of!(CountRows, low),
            high = const offset_of!(CountRows, high),
            ones = const offset_of!(CountRows, ones),
            byte_low = const offset_of!(CountRows, byte_low),
            codes = const offset_of!(CountRows, codes),
            s1 = const 4,
            s2 = const 8,
            s4 = const 16,
            clobber_abi("C"),
            options(nostack),
        );
        (std::ptr::addr_of!((*f).table).read(), count)
    }
}

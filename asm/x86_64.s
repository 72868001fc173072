# x86-64 assembly of the C.C.R. routines (the interface of src/arch/asm.rs), assembled by
# `global_asm!` (Intel syntax, no prefixes), System V calling convention: arguments in rdi,
# rsi, rdx, rcx, r8; u32 arguments arrive with the upper half of their register undefined,
# so every index is zero-extended with a 32-bit move before it addresses memory. Scalar
# general-purpose-register code only; no data tables, so nothing needs RIP-relative
# addressing. No brace characters anywhere in this file: `global_asm!` reads it as a
# format template.
#
# Against its portable twin (the compiler's output, inlined into the caller), each routine
# either beats it or is kept for what it shows; the figures are in docs/BENCHMARKS.md,
# "SIMD and assembly", from `cargo bench --bench asm` (time) and
# `cargo bench --bench asm_instructions` (instructions).
#
# - convert: beats the compiler in time with about as many instructions, so the gain is in
#   the schedule, not the work: the paper's loop ORs into one u64 per code, a
#   read-modify-write chain through memory as long as the code's count (32 for the empty
#   squares of the start position); the byte-per-rank ORs here cut every chain to at most 8.
# - board_key: does not beat the compiler. The routine is 14 straight-line instructions per
#   word and the compiler's is as short; the eight words' multiply chains are independent,
#   so out-of-order execution overlaps them in any order, and the assembly only adds the
#   call and the constant loads an inlined twin can keep out of the loop. It shows where
#   nothing is left to win by hand.
# - attacks_of: beats the compiler in time and instructions by changing the algorithm
#   (bit-plane decoding and fills for all pieces of a word at once, no piece scan, no jump
#   table, no data-dependent branch but "this word / pair of words has none") rather than
#   by out-scheduling it.
# - knight_targets, king_targets: do not beat the compiler. The geometry is 4 to 6 shifts;
#   the inlined twin needs no call, while the routine pays the call, clears the 32 bytes
#   with four stores and redirects each off-board store through lea, cmp and cmov. They are
#   the paper's branch-free edge test in its plainest form.
# - slider_targets: beats the compiler in time and instructions: the rank in one
#   subtraction and one BSR, the other six rays in two loops of three masks, where the twin
#   (the ray walk of src/arch/asm.rs's tests) walks each ray on its own.

    .text

# Clears the eight words of an out array at \base (eax must be 0).
.macro ZERO_OUT base
    mov qword ptr [\base], rax
    mov qword ptr [\base + 8], rax
    mov qword ptr [\base + 16], rax
    mov qword ptr [\base + 24], rax
.endm

# ---------------------------------------------------------------------------------------
# ccr_asm_convert(board: *const u32, out: *mut u64)
# The paper's loop fully unrolled, the piece code as the table index. Each square ORs one
# bit into the BYTE of its rank in the board of its code (bit 8y+x of a little-endian u64
# is bit x of byte y), so the read-modify-write chains through memory run per (code, rank)
# and are at most 8 long; one chain per code, as in the portable loop, runs 32 long through
# the empty squares.
# ---------------------------------------------------------------------------------------
.macro CONVERT_NIBBLE W, X
    mov ecx, eax
  .if \X > 0
    shr ecx, 4*\X
  .endif
  .if \X < 7
    and ecx, 15
  .endif
    or byte ptr [rsi + 8*rcx + \W], 1 << \X
.endm

.macro CONVERT_WORD W
    mov eax, dword ptr [rdi + 4*\W]
    CONVERT_NIBBLE \W, 0
    CONVERT_NIBBLE \W, 1
    CONVERT_NIBBLE \W, 2
    CONVERT_NIBBLE \W, 3
    CONVERT_NIBBLE \W, 4
    CONVERT_NIBBLE \W, 5
    CONVERT_NIBBLE \W, 6
    CONVERT_NIBBLE \W, 7
.endm

    .globl ccr_asm_convert
    .type ccr_asm_convert,@function
    .p2align 4
ccr_asm_convert:
    xor eax, eax
.irp off, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120
    mov qword ptr [rsi + \off], rax
.endr
    CONVERT_WORD 0
    CONVERT_WORD 1
    CONVERT_WORD 2
    CONVERT_WORD 3
    CONVERT_WORD 4
    CONVERT_WORD 5
    CONVERT_WORD 6
    CONVERT_WORD 7
    ret
    .size ccr_asm_convert, . - ccr_asm_convert

# ---------------------------------------------------------------------------------------
# ccr_asm_board_key(board: *const u32) -> u64
# splitmix64's output function per word (the word plus the offset in rbx, then the
# finaliser), rotated by the word's prime, XORed into rax. The terms alternate between three
# register pairs so that the multiply chains of neighbouring words overlap.
# ---------------------------------------------------------------------------------------
.macro KEY_TERM W, R, T, TD, S, SD
    mov \TD, dword ptr [rdi + 4*\W]
    add \T, rbx
    mov \S, \T
    shr \S, 30
    xor \T, \S
    imul \T, r8
    mov \S, \T
    shr \S, 27
    xor \T, \S
    imul \T, r9
    mov \S, \T
    shr \S, 31
    xor \T, \S
    rol \T, \R
.endm

    .globl ccr_asm_board_key
    .type ccr_asm_board_key,@function
    .p2align 4
ccr_asm_board_key:
    push rbx
    movabs rbx, 0x9E3779B97F4A7C15
    movabs r8, 0xBF58476D1CE4E5B9
    movabs r9, 0x94D049BB133111EB
    KEY_TERM 0, 3, rax, eax, rcx, ecx
    KEY_TERM 1, 7, rdx, edx, rsi, esi
    KEY_TERM 2, 13, r10, r10d, r11, r11d
    xor rax, rdx
    KEY_TERM 3, 19, rcx, ecx, rdx, edx
    xor rax, r10
    KEY_TERM 4, 23, rsi, esi, r10, r10d
    xor rax, rcx
    KEY_TERM 5, 31, r11, r11d, rdx, edx
    xor rax, rsi
    KEY_TERM 6, 41, rcx, ecx, r10, r10d
    xor rax, r11
    KEY_TERM 7, 47, rsi, esi, rdx, edx
    xor rax, rcx
    xor rax, rsi
    pop rbx
    ret
    .size ccr_asm_board_key, . - ccr_asm_board_key

# ---------------------------------------------------------------------------------------
# ccr_asm_knight_targets(word: u32, mask: u32, out: *mut u32)
# ccr_asm_king_targets(word: u32, mask: u32, out: *mut u32)
# Branch-free: the out array is cleared, the target masks are shifts of the piece's mask
# (a nibble shifted off the word is the file edge), and each target word's store goes to
# its slot, or with cmov to a scratch slot in the red zone when the word index leaves 0..8
# (the rank edge).
# ---------------------------------------------------------------------------------------
# The leapers' prologue: edi the word index (zero-extended), the out array (rdx) cleared,
# r11 the scratch slot, eax the mask one file each way (clobbers ecx).
.macro LEAPER_START
    mov edi, edi
    xor eax, eax
    ZERO_OUT rdx
    lea r11, [rsp - 8]
    mov eax, esi
    shl eax, 4
    mov ecx, esi
    shr ecx, 4
    or eax, ecx
.endm

# Stores \value to out[rdi + \delta] through \reg, or to the scratch slot (r11) when that
# word is off the board: the unsigned compare of the word index with its edge picks by cmov.
.macro STORE_TARGET reg, delta, value
    lea \reg, [rdx + 4*rdi + 4*(\delta)]
.if \delta < 0
    cmp edi, -(\delta)
    cmovb \reg, r11
.else
    cmp edi, 8 - (\delta)
    cmovae \reg, r11
.endif
    mov dword ptr [\reg], \value
.endm

    .globl ccr_asm_knight_targets
    .type ccr_asm_knight_targets,@function
    .p2align 4
ccr_asm_knight_targets:
    LEAPER_START
    # ecx two files aside.
    mov ecx, esi
    shl ecx, 8
    shr esi, 8
    or ecx, esi
    STORE_TARGET r8, -2, eax
    STORE_TARGET r9, -1, ecx
    STORE_TARGET r8, 1, ecx
    STORE_TARGET r9, 2, eax
    ret
    .size ccr_asm_knight_targets, . - ccr_asm_knight_targets

    .globl ccr_asm_king_targets
    .type ccr_asm_king_targets,@function
    .p2align 4
ccr_asm_king_targets:
    LEAPER_START
    mov dword ptr [rdx + 4*rdi], eax
    # eax the three squares of the next words.
    or eax, esi
    STORE_TARGET r8, -1, eax
    STORE_TARGET r9, 1, eax
    ret
    .size ccr_asm_king_targets, . - ccr_asm_king_targets

# ---------------------------------------------------------------------------------------
# ccr_asm_slider_targets(occupied: *const u32, word: u32, mask: u32, directions: u32,
#                        out: *mut u32)
# The rank without a loop (the subtraction borrows through the empty squares toward file
# a; BSR finds the nearest blocker toward file h); then one loop per vertical direction
# carrying three masks (toward file a, the file, toward file h), each cleared on its first
# blocker, the loop ending when all three are gone or the word index leaves the board.
# ---------------------------------------------------------------------------------------
# r9d, r10d, r11d := the mask (edx) where direction bits \a, \f, \h of ecx are set, else 0.
.macro RAY_MASKS a, f, h
    bt ecx, \a
    sbb r9d, r9d
    and r9d, edx
    bt ecx, \f
    sbb r10d, r10d
    and r10d, edx
    bt ecx, \h
    sbb r11d, r11d
    and r11d, edx
.endm

# One vertical direction from word eax: \next steps the word index and jumps to \done when
# it leaves the board; each step shifts the diagonal masks, stores their union with the
# file mask and drops every mask that met an occupied square.
.macro RAY_WALK next, done, loop
\loop:
    \next \done
    shl r9d, 4
    shr r11d, 4
    mov ebx, r9d
    or ebx, r10d
    or ebx, r11d
    jz \done
    mov dword ptr [r8 + 4*rax], ebx
    and ebx, dword ptr [rdi + 4*rax]
    not ebx
    and r9d, ebx
    and r10d, ebx
    and r11d, ebx
    jmp \loop
.endm

.macro STEP_NORTH done
    sub eax, 1
    jb \done
.endm

.macro STEP_SOUTH done
    add eax, 1
    cmp eax, 8
    jae \done
.endm

    .globl ccr_asm_slider_targets
    .type ccr_asm_slider_targets,@function
    .p2align 4
ccr_asm_slider_targets:
    push rbx
    mov esi, esi
    xor eax, eax
    ZERO_OUT r8
    test cl, 0x0C
    jz .Lslider_north
    mov eax, dword ptr [rdi + 4*rsi]
    and eax, 0x11111111
    mov r9d, edx
    and r9d, 0x11111111
    mov r10d, r9d
    shl r10d, 4
    mov r11d, eax
    sub r11d, r10d
    xor r11d, eax
    lea r10d, [r9 - 1]
    and r10d, eax
    or r10d, 1
    bsr r10d, r10d
    xor eax, eax
    bts eax, r10d
    mov r10d, r9d
    sub r10d, eax
    bt ecx, 2
    sbb eax, eax
    and r11d, eax
    bt ecx, 3
    sbb eax, eax
    and r10d, eax
    or r11d, r10d
    and r11d, 0x11111111
    imul r11d, r11d, 15
    mov dword ptr [r8 + 4*rsi], r11d
.Lslider_north:
    test cl, 0x31
    jz .Lslider_south
    RAY_MASKS 4, 0, 5
    mov eax, esi
    RAY_WALK STEP_NORTH, .Lslider_south, .Lslider_north_step
.Lslider_south:
    test cl, 0xC2
    jz .Lslider_done
    RAY_MASKS 6, 1, 7
    mov eax, esi
    RAY_WALK STEP_SOUTH, .Lslider_done, .Lslider_south_step
.Lslider_done:
    pop rbx
    ret
    .size ccr_asm_slider_targets, . - ccr_asm_slider_targets

# ---------------------------------------------------------------------------------------
# ccr_asm_attacks_of(board: *const u32, black: u32, out: *mut u32)
# No scan of the pieces and no jump table: per rank word, bit-plane logic on the nibbles
# gives every piece type of the colour at once (one bit per nibble), the leapers of a word
# mark their targets with one shift each, and the sliders become fill sources whose nibbles
# carry their class bits (bishop 4, rook 2, queen 1 in both), so one fill per direction
# serves all three: the ranks by Kogge-Stone occluded fills, two words per register, the
# files and diagonals by one pass toward rank 8 and one toward rank 1 carrying three fills
# each. A word without a piece of the colour skips its decoding, a pair of words without
# a rook or queen its rank fills. The general registers hold the decoding; the empty
# squares and the fill sources of the eight words wait in the red zone (below the six
# saved registers):
#   [rsp - 32 + 4w] empty squares of word w (0xF each)
#   [rsp - 64 + 4w] diagonal sources of word w (class bits)
#   [rsp - 96 + 4w] orthogonal sources of word w (class bits)
# esi flips bit 3 of each nibble for White (0x11111111; 0 for Black); r14d is all ones
# for White (pawns take toward rank 8), r15d its complement (toward rank 1).
# ---------------------------------------------------------------------------------------
.macro ATTACK_WORD W
    mov eax, dword ptr [rdi + 4*\W]
    mov r8d, eax
    shr r8d, 1
    and r8d, 0x11111111
    mov r9d, eax
    shr r9d, 2
    and r9d, 0x11111111
    mov r10d, eax
    shr r10d, 3
    and r10d, 0x11111111
    and eax, 0x11111111
    mov r11d, eax
    or r11d, r8d
    or r11d, r9d
    mov ecx, r11d
    or ecx, r10d
    imul ecx, ecx, 15
    not ecx
    mov dword ptr [rsp - 32 + 4*\W], ecx
    # r10d: the colour's nibbles (empty and type-0 ones too: no type below matches them).
    xor r10d, esi
    and r11d, r10d
    jz .Lattack_none_\W
    and eax, r10d
    and r8d, r10d
    and r9d, r10d
    # Type 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king (bits 0-2 in eax, r8d, r9d).
    mov ecx, r8d
    or ecx, r9d
    not ecx
    and ecx, eax
    mov ebx, r8d
    and ebx, r9d
    xor r8d, ebx
    xor r9d, ebx
    mov ebp, ebx
    and ebp, eax
    xor ebx, ebp
    mov r12d, r8d
    and r12d, eax
    xor r8d, r12d
    mov r13d, r9d
    and r13d, eax
    xor r9d, r13d
    # ecx pawns, r8d knights, r12d bishops, r9d rooks, r13d queens, ebx kings.
    shl r12d, 2
    or r12d, r13d
    add r9d, r9d
    or r9d, r13d
    mov dword ptr [rsp - 64 + 4*\W], r12d
    mov dword ptr [rsp - 96 + 4*\W], r9d
    # Pawns: class 8 on both neighbours of the file, one word ahead.
    shl ecx, 3
    mov eax, ecx
    shl eax, 4
    shr ecx, 4
    or ecx, eax
  .if \W > 0
    mov eax, ecx
    and eax, r14d
    or dword ptr [rdx + 4*(\W - 1)], eax
  .endif
  .if \W < 7
    and ecx, r15d
    or dword ptr [rdx + 4*(\W + 1)], ecx
  .endif
    # Knights: class 4, one file over two words away, two files over one word away.
    shl r8d, 2
    mov eax, r8d
    shl eax, 4
    mov ecx, r8d
    shr ecx, 4
    or eax, ecx
    mov ebp, r8d
    shl ebp, 8
    shr r8d, 8
    or r8d, ebp
  .if \W >= 2
    or dword ptr [rdx + 4*(\W - 2)], eax
  .endif
  .if \W >= 1
    or dword ptr [rdx + 4*(\W - 1)], r8d
  .endif
  .if \W <= 6
    or dword ptr [rdx + 4*(\W + 1)], r8d
  .endif
  .if \W <= 5
    or dword ptr [rdx + 4*(\W + 2)], eax
  .endif
    # Kings: class 1 beside and on three squares of each neighbouring word.
    mov eax, ebx
    shl eax, 4
    mov ecx, ebx
    shr ecx, 4
    or eax, ecx
    or ebx, eax
  .if \W >= 1
    or dword ptr [rdx + 4*(\W - 1)], ebx
  .endif
  .if \W <= 6
    or dword ptr [rdx + 4*(\W + 1)], ebx
  .endif
    or dword ptr [rdx + 4*\W], eax
    jmp .Lattack_done_\W
.Lattack_none_\W:
    mov dword ptr [rsp - 64 + 4*\W], r11d
    mov dword ptr [rsp - 96 + 4*\W], r11d
.Lattack_done_\W:
.endm

# The rank attacks of two words at once (qword K: words 2K and 2K + 1), occluded fills of
# the orthogonal sources through the empty squares by Kogge-Stone, toward file a (left
# shifts) and toward file h, each shifted one square more so that the first blocker is
# included. r12 and r13 close the seam between the two words: no fill crosses from one
# word's file a into the next word's file h, or back. The words go in and out as dwords, as
# they were stored: a qword load of two dword stores would miss store forwarding. A pair
# of words without a rook or queen of the colour is skipped.
.macro ATTACK_RANKS K
    mov r9d, dword ptr [rsp - 96 + 8*\K]
    mov eax, dword ptr [rsp - 92 + 8*\K]
    shl rax, 32
    or r9, rax
    jz .Lattack_ranks_none_\K
    mov r11d, dword ptr [rsp - 32 + 8*\K]
    mov eax, dword ptr [rsp - 28 + 8*\K]
    shl rax, 32
    or r11, rax
    mov r10, r9
    mov r8, r11
    and r8, r12
    mov rcx, r10
    shl rcx, 4
    and rcx, r8
    or r10, rcx
    mov rbx, r8
    shl rbx, 4
    and r8, rbx
    mov rcx, r10
    shl rcx, 8
    and rcx, r8
    or r10, rcx
    mov rbx, r8
    shl rbx, 8
    and r8, rbx
    mov rcx, r10
    shl rcx, 16
    and rcx, r8
    or r10, rcx
    shl r10, 4
    and r10, r12
    mov rax, r9
    mov r8, r11
    and r8, r13
    mov rcx, rax
    shr rcx, 4
    and rcx, r8
    or rax, rcx
    mov rbx, r8
    shr rbx, 4
    and r8, rbx
    mov rcx, rax
    shr rcx, 8
    and rcx, r8
    or rax, rcx
    mov rbx, r8
    shr rbx, 8
    and r8, rbx
    mov rcx, rax
    shr rcx, 16
    and rcx, r8
    or rax, rcx
    shr rax, 4
    and rax, r13
    or rax, r10
    or dword ptr [rdx + 8*\K], eax
    shr rax, 32
    or dword ptr [rdx + 8*\K + 4], eax
.Lattack_ranks_none_\K:
.endm

# One word of the pass toward rank 8 or toward rank 1 (the caller orders the words): the
# three fills (eax the file, ecx toward file a, r8d toward file h) arrive at word W and
# mark it; unless W is the LAST of the pass, they stop on its pieces and take on its
# sources.
.macro ATTACK_PASS W, LAST
    shl ecx, 4
    shr r8d, 4
    mov r9d, eax
    or r9d, ecx
    or r9d, r8d
    or dword ptr [rdx + 4*\W], r9d
  .if \LAST == 0
    mov r9d, dword ptr [rsp - 32 + 4*\W]
    and eax, r9d
    and ecx, r9d
    and r8d, r9d
    or eax, dword ptr [rsp - 96 + 4*\W]
    mov r9d, dword ptr [rsp - 64 + 4*\W]
    or ecx, r9d
    or r8d, r9d
  .endif
.endm

    .globl ccr_asm_attacks_of
    .type ccr_asm_attacks_of,@function
    .p2align 4
ccr_asm_attacks_of:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    mov r14d, esi
    sub r14d, 1
    mov r15d, r14d
    not r15d
    mov esi, r14d
    and esi, 0x11111111
    xor eax, eax
    ZERO_OUT rdx
    ATTACK_WORD 0
    ATTACK_WORD 1
    ATTACK_WORD 2
    ATTACK_WORD 3
    ATTACK_WORD 4
    ATTACK_WORD 5
    ATTACK_WORD 6
    ATTACK_WORD 7
    movabs r12, 0xFFFFFFF0FFFFFFFF
    movabs r13, 0xFFFFFFFF0FFFFFFF
    ATTACK_RANKS 0
    ATTACK_RANKS 1
    ATTACK_RANKS 2
    ATTACK_RANKS 3
    # Toward rank 8, from word 7.
    mov eax, dword ptr [rsp - 96 + 28]
    mov ecx, dword ptr [rsp - 64 + 28]
    mov r8d, ecx
    ATTACK_PASS 6, 0
    ATTACK_PASS 5, 0
    ATTACK_PASS 4, 0
    ATTACK_PASS 3, 0
    ATTACK_PASS 2, 0
    ATTACK_PASS 1, 0
    ATTACK_PASS 0, 1
    # Toward rank 1, from word 0.
    mov eax, dword ptr [rsp - 96]
    mov ecx, dword ptr [rsp - 64]
    mov r8d, ecx
    ATTACK_PASS 1, 0
    ATTACK_PASS 2, 0
    ATTACK_PASS 3, 0
    ATTACK_PASS 4, 0
    ATTACK_PASS 5, 0
    ATTACK_PASS 6, 0
    ATTACK_PASS 7, 1
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
    .size ccr_asm_attacks_of, . - ccr_asm_attacks_of

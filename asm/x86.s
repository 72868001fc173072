# 32-bit x86 (i686) assembly of the C.C.R. routines, assembled by `global_asm!` (Intel
# syntax, no prefixes); the interface is the one src/arch/asm.rs declares, cdecl: arguments on
# the stack, a u64 returned in edx:eax, ebx/esi/edi/ebp saved by the callee. Scalar
# general-purpose-register code in the paper's style: rank words in registers, shifts and
# `and` as the edge test (a mask shifted off the word, a word index leaving 0..8), BSR/BSF
# for the nearest blocker and the next slider. No data tables, so no PIC base register.
#
# Routines and register use:
# - ccr_asm_board_key: ebp board, esi:edi the key (lo:hi), eax/edx the word's 64-bit value
#   (mul needs them), ebx/ecx the cross products and shifted copies. splitmix64's output
#   function on 32-bit registers: the word plus the 64-bit offset, then each 64-bit product
#   as lo*lo plus both cross products. 64-bit shifts and the rotation are pairs of 32-bit
#   shifts, not shrd/shld, which AMD's cores microcode.
# - ccr_asm_convert: esi board, edi out. Each square ORs one bit into the BYTE of its rank
#   in the board of its code (bit 8y+x of a little-endian u64 is bit x of byte y), always a
#   byte, straight into out.
# - ccr_asm_knight_targets / ccr_asm_king_targets: ecx out, edx the mask, ebx and edx the
#   two target masks, eax the word; a target off the board is skipped by the unsigned
#   compare of its word index (a cmov to a dummy slot would need two more registers, which
#   cdecl leaves none of).
# - ccr_asm_slider_targets: the rank by the subtraction trick toward file a and BSR toward
#   file h; the files and diagonals by one loop per vertical direction carrying three masks
#   (eax toward file a, ebx the file, edx toward file h), each cleared on its first blocker;
#   ebp the word index, esi occupied, edi out.
# - ccr_asm_attacks_of: no scan of single pieces. Per rank word, bit-plane logic on the
#   nibbles finds every piece type of the colour at once (one bit per nibble); leapers mark
#   the targets of all their pieces in a word with one shift each; sliders become fill
#   sources whose nibbles carry their class bits (bishop 4, rook 2, queen 1), so one fill
#   per direction serves all three: the rank by a Kogge-Stone fill inside the word, the
#   files and diagonals by one loop up and one down the words (eax, ebx, ecx the rays toward
#   file a, along the file, toward file h), which jumps by BSR/BSF to the next word holding
#   a slider once the rays stop. The per-word empty squares and fill sources live in a
#   100-byte frame. Branches skip what a word lacks (pieces, pawns, knights, king, rooks).
#
# Against its portable twin (the compiler's output for i686), each routine either beats it
# or is kept for what it shows; the figures are in docs/BENCHMARKS.md, "SIMD and
# assembly", from `cargo bench --target i686-unknown-linux-gnu --bench
# asm` (time) and `--bench asm_instructions` (instructions). Why:
# - convert: the same instruction count, less time. The compiler's twin ORs most bits as
#   bytes too, but the bit of file h (x = 0) as a dword, into an array on its stack that it
#   then copies out: a dword load cannot be forwarded from the byte stores still pending on
#   the same bytes, so the chain stalls. Here every OR is a byte, into out.
# - board_key loses and shows why: the compiler vectorises the eight independent word
#   terms with SSE2 (pmuludq, two 32x32->64 products an instruction), where here a 64-bit
#   product costs three scalar multiplies (six a word) and every 64-bit shift two shifts
#   and two XORs. On 32-bit x86 the paper's register style cannot beat a key made of 64-bit
#   multiplies.
# - attacks_of: fewer instructions; the twin's frame calls a handler per piece and walks
#   each slider's rays, this code treats a word's pieces of one kind at once and fills all
#   sliders' rays together.
# - knight_targets / king_targets lose and show why: a dozen stores of work, less than the
#   call (cdecl arguments on the stack, ebx saved) and eight scalar stores to clear out,
#   where the inlined twin clears with two 16-byte SSE2 stores and needs no call.
# - slider_targets: the three rays of a vertical direction in one loop and the rank without
#   a loop, against the twin's one loop per direction.

.pushsection .text.ccr_asm_x86,"ax",@progbits

# ---------------------------------------------------------------------------------------
# u64 ccr_asm_board_key(const u32 *board)
# ---------------------------------------------------------------------------------------

# The term of word \idx, rotated by \rot, XORed into esi:edi.
.macro CCR_KEY_WORD idx, rot
    # x = word + offset (64 bits: edx:eax)
    mov eax, dword ptr [ebp + 4*\idx]
    mov edx, 0x9E3779B9
    add eax, 0x7F4A7C15
    adc edx, 0
    # x ^= x >> 30
    mov ecx, eax
    shr ecx, 30
    mov ebx, edx
    shl ebx, 2
    or ecx, ebx
    xor eax, ecx
    mov ecx, edx
    shr ecx, 30
    xor edx, ecx
    # x *= 0xBF58476D1CE4E5B9
    imul ebx, edx, 0x1CE4E5B9
    imul ecx, eax, 0xBF58476D
    add ebx, ecx
    mov ecx, 0x1CE4E5B9
    mul ecx
    add edx, ebx
    # x ^= x >> 27
    mov ecx, eax
    shr ecx, 27
    xor eax, ecx
    mov ecx, edx
    shl ecx, 5
    xor eax, ecx
    mov ecx, edx
    shr ecx, 27
    xor edx, ecx
    imul ebx, edx, 0x133111EB
    imul ecx, eax, 0x94D049BB
    add ebx, ecx
    mov ecx, 0x133111EB
    mul ecx
    add edx, ebx
    # x ^= x >> 31
    mov ecx, eax
    shr ecx, 31
    xor eax, ecx
    lea ecx, [edx + edx]
    xor eax, ecx
    mov ecx, edx
    shr ecx, 31
    xor edx, ecx
    # rotate left by \rot and XOR into esi:edi, half by half
.if \rot < 32
    .set ccr_r, \rot
.else
    .set ccr_r, \rot - 32
    xchg eax, edx
.endif
    mov ecx, eax
    shl ecx, ccr_r
    xor esi, ecx
    mov ecx, edx
    shr ecx, 32 - ccr_r
    xor esi, ecx
    mov ecx, edx
    shl ecx, ccr_r
    xor edi, ecx
    shr eax, 32 - ccr_r
    xor edi, eax
.endm

    .globl ccr_asm_board_key
    .type ccr_asm_board_key, @function
    .p2align 4
ccr_asm_board_key:
    push ebp
    push ebx
    push esi
    push edi
    mov ebp, dword ptr [esp + 20]
    xor esi, esi
    xor edi, edi
    CCR_KEY_WORD 0, 3
    CCR_KEY_WORD 1, 7
    CCR_KEY_WORD 2, 13
    CCR_KEY_WORD 3, 19
    CCR_KEY_WORD 4, 23
    CCR_KEY_WORD 5, 31
    CCR_KEY_WORD 6, 41
    CCR_KEY_WORD 7, 47
    mov eax, esi
    mov edx, edi
    pop edi
    pop esi
    pop ebx
    pop ebp
    ret
    .size ccr_asm_board_key, . - ccr_asm_board_key

# ---------------------------------------------------------------------------------------
# void ccr_asm_convert(const u32 *board, u64 *out)
# ---------------------------------------------------------------------------------------

# Board byte \k: its low nibble is square x = 2(k mod 4), its high nibble x + 1, of rank
# word y = k / 4.
.macro CCR_CONVERT_BYTE k
    movzx eax, byte ptr [esi + \k]
    mov ecx, eax
    and eax, 15
    shr ecx, 4
    or byte ptr [edi + 8*eax + \k / 4], 1 << (2 * (\k % 4))
    or byte ptr [edi + 8*ecx + \k / 4], 2 << (2 * (\k % 4))
.endm

    .globl ccr_asm_convert
    .type ccr_asm_convert, @function
    .p2align 4
ccr_asm_convert:
    push esi
    push edi
    mov esi, dword ptr [esp + 12]
    mov edi, dword ptr [esp + 16]
    xor eax, eax
.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    mov dword ptr [edi + 4*\i], eax
.endr
.irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    CCR_CONVERT_BYTE \k
.endr
    pop edi
    pop esi
    ret
    .size ccr_asm_convert, . - ccr_asm_convert

# ---------------------------------------------------------------------------------------
# void ccr_asm_knight_targets(u32 word, u32 mask, u32 *out)
# void ccr_asm_king_targets(u32 word, u32 mask, u32 *out)
# ---------------------------------------------------------------------------------------

# Stores \value to out[eax + \delta] (ecx = out) unless that word is off the board: the
# unsigned compare of the word index with its edge, and a branch (the compiler's twin
# branches too; a cmov to a dummy address would cost a register, so a push and a pop).
.macro CCR_STORE_TARGET delta, value, skip
.if \delta < 0
    cmp eax, -(\delta)
    jb \skip
.else
    cmp eax, 8 - (\delta)
    jae \skip
.endif
    mov dword ptr [ecx + 4*eax + 4*(\delta)], \value
\skip:
.endm

# The leapers' prologue: ecx out (zeroed), edx the mask, ebx (saved) the mask one file each
# way; clobbers eax.
.macro CCR_LEAPER_START
    push ebx
    mov edx, dword ptr [esp + 12]
    mov ecx, dword ptr [esp + 16]
    xor eax, eax
.irp i, 0,1,2,3,4,5,6,7
    mov dword ptr [ecx + 4*\i], eax
.endr
    mov eax, edx
    shl eax, 4
    mov ebx, edx
    shr ebx, 4
    or ebx, eax
.endm

    .globl ccr_asm_knight_targets
    .type ccr_asm_knight_targets, @function
    .p2align 4
ccr_asm_knight_targets:
    CCR_LEAPER_START
    # edx two files aside.
    mov eax, edx
    shl eax, 8
    shr edx, 8
    or edx, eax
    mov eax, dword ptr [esp + 8]
    CCR_STORE_TARGET -2, ebx, .Lccr_knight_up2
    CCR_STORE_TARGET -1, edx, .Lccr_knight_up1
    CCR_STORE_TARGET 1, edx, .Lccr_knight_down1
    CCR_STORE_TARGET 2, ebx, .Lccr_knight_down2
    pop ebx
    ret
    .size ccr_asm_knight_targets, . - ccr_asm_knight_targets

    .globl ccr_asm_king_targets
    .type ccr_asm_king_targets, @function
    .p2align 4
ccr_asm_king_targets:
    CCR_LEAPER_START
    # edx the three squares of the next words.
    or edx, ebx
    mov eax, dword ptr [esp + 8]
    mov dword ptr [ecx + 4*eax], ebx
    CCR_STORE_TARGET -1, edx, .Lccr_king_up
    CCR_STORE_TARGET 1, edx, .Lccr_king_down
    pop ebx
    ret
    .size ccr_asm_king_targets, . - ccr_asm_king_targets

# ---------------------------------------------------------------------------------------
# void ccr_asm_slider_targets(const u32 *occupied, u32 word, u32 mask, u32 directions,
#                             u32 *out)
# ---------------------------------------------------------------------------------------

# Arguments after the four pushes.
.set CCR_SL_OCC, 20
.set CCR_SL_WORD, 24
.set CCR_SL_MASK, 28
.set CCR_SL_DIRS, 32
.set CCR_SL_OUT, 36

# eax, ebx, edx := the mask where direction bits \a, \f, \h are set, else 0 (clobbers ecx).
.macro CCR_RAY_MASKS a, f, h
    mov ecx, dword ptr [esp + CCR_SL_DIRS]
    mov edx, dword ptr [esp + CCR_SL_MASK]
    bt ecx, \a
    sbb eax, eax
    and eax, edx
    bt ecx, \f
    sbb ebx, ebx
    and ebx, edx
    bt ecx, \h
    sbb ecx, ecx
    and edx, ecx
.endm

# One vertical direction from word ebp: \next steps the word index and jumps to \done when
# it leaves the board; each step shifts the diagonal masks, stores their union with the
# file mask and drops every mask that met an occupied square.
.macro CCR_RAY_WALK next, done, loop
\loop:
    \next \done
    shl eax, 4
    shr edx, 4
    mov ecx, eax
    or ecx, ebx
    or ecx, edx
    jz \done
    mov dword ptr [edi + 4*ebp], ecx
    and ecx, dword ptr [esi + 4*ebp]
    not ecx
    and eax, ecx
    and ebx, ecx
    and edx, ecx
    jmp \loop
\done:
.endm

# The word index ebp one word toward rank 8 (up) or rank 1 (down); off the board, a jump to
# \done.
.macro CCR_STEP_UP done
    dec ebp
    js \done
.endm

.macro CCR_STEP_DOWN done
    inc ebp
    cmp ebp, 8
    jae \done
.endm

    .globl ccr_asm_slider_targets
    .type ccr_asm_slider_targets, @function
    .p2align 4
ccr_asm_slider_targets:
    push ebp
    push ebx
    push esi
    push edi
    mov esi, dword ptr [esp + CCR_SL_OCC]
    mov edi, dword ptr [esp + CCR_SL_OUT]
    xor eax, eax
.irp i, 0,1,2,3,4,5,6,7
    mov dword ptr [edi + 4*\i], eax
.endr
    # The rank (see rank_attacks_from in src/ccr/attacks.rs): edx the piece's low bit,
    # ebx the rank's occupancy, one low bit per nibble.
    mov ebp, dword ptr [esp + CCR_SL_WORD]
    mov edx, dword ptr [esp + CCR_SL_MASK]
    and edx, 0x11111111
    mov ebx, dword ptr [esi + 4*ebp]
    and ebx, 0x11111111
    # Toward file a: the borrow runs through the empty squares to the first occupied one.
    mov eax, edx
    shl eax, 4
    mov ecx, ebx
    sub ecx, eax
    xor ecx, ebx
    mov eax, dword ptr [esp + CCR_SL_DIRS]
    bt eax, 2
    sbb eax, eax
    and ecx, eax
    # Toward file h: the highest occupied square below the piece (bit 0 when none).
    lea eax, [edx - 1]
    and eax, ebx
    or eax, 1
    bsr eax, eax
    xor ebx, ebx
    bts ebx, eax
    sub edx, ebx
    mov eax, dword ptr [esp + CCR_SL_DIRS]
    bt eax, 3
    sbb eax, eax
    and edx, eax
    or edx, ecx
    and edx, 0x11111111
    imul edx, edx, 15
    mov dword ptr [edi + 4*ebp], edx
    # Toward rank 8: directions 4 (file a), 0 (the file), 5 (file h).
    CCR_RAY_MASKS 4, 0, 5
    CCR_RAY_WALK CCR_STEP_UP, .Lccr_slider_up_done, .Lccr_slider_up
    # Toward rank 1: directions 6, 1, 7.
    mov ebp, dword ptr [esp + CCR_SL_WORD]
    CCR_RAY_MASKS 6, 1, 7
    CCR_RAY_WALK CCR_STEP_DOWN, .Lccr_slider_down_done, .Lccr_slider_down
    pop edi
    pop esi
    pop ebx
    pop ebp
    ret
    .size ccr_asm_slider_targets, . - ccr_asm_slider_targets

# ---------------------------------------------------------------------------------------
# void ccr_asm_attacks_of(const u32 *board, u32 black, u32 *out)
# ---------------------------------------------------------------------------------------

# The frame: 100 bytes of locals under the four pushes. Per rank word y: the empty squares
# (0xF each) at 4y, the diagonal fill sources (bishop 4, queen 1 per nibble) at 32 + 4y,
# the file and rank fill sources (rook 2, queen 1) at 64 + 4y; at 96 one bit per word that
# holds a slider.
.set CCR_AT_EMPTY, 0
.set CCR_AT_DIAG, 32
.set CCR_AT_ORTH, 64
.set CCR_AT_SLIDERS, 96
.set CCR_AT_FRAME, 100
.set CCR_AT_BOARD, CCR_AT_FRAME + 20
.set CCR_AT_BLACK, CCR_AT_FRAME + 24
.set CCR_AT_OUT, CCR_AT_FRAME + 28

# ORs \reg into out[\y] if \y is a word of the board.
.macro CCR_MARK y, reg
.if (\y >= 0) && (\y < 8)
    or dword ptr [edi + 4*(\y)], \reg
.endif
.endm

# ORs \reg into the words above and below word \y (those of the board).
.macro CCR_MARK_AROUND y, reg
    CCR_MARK (\y-1), \reg
    CCR_MARK (\y+1), \reg
.endm

# edx := the colour's pieces of type \t (1 pawn, 2 knight, 6 king), one bit per nibble, from
# the type bit planes ebx (bit 0), ecx (bit 1) and eax (bit 2).
.macro CCR_TYPE t
.if \t == 1
    mov edx, ecx
    or edx, eax
    not edx
    and edx, ebx
.elseif \t == 2
    mov edx, ebx
    or edx, eax
    not edx
    and edx, ecx
.else
    mov edx, ebx
    not edx
    and edx, ecx
    and edx, eax
.endif
.endm
# \dst := \src shifted \n bits toward each end (one file aside each way for 4, two for 8);
# \src is clobbered.
.macro CCR_ASIDE dst, src, n
    mov \dst, \src
    shl \src, \n
    shr \dst, \n
    or \dst, \src
.endm

# Rank word \y of the colour \black (0 or 1; its pawns attack word y - 1 or y + 1). Each
# kind of piece the word lacks is skipped by a branch: most words hold none of the colour's
# pieces, and a word's mix of pieces changes seldom from one position to the next.
.macro CCR_ATTACK_WORD y, black
    mov eax, dword ptr [esi + 4*\y]
    test eax, eax
    jz .Lccr_attacks_empty_\black\()_\y
    # Occupied: bit 3 of every nonzero nibble (the add carries into it from any of the
    # three bits below); the empty squares go to the frame.
    mov ebx, eax
    and ebx, 0x77777777
    add ebx, 0x77777777
    or ebx, eax
    and ebx, 0x88888888
    shr ebx, 3
    imul ecx, ebx, 15
    not ecx
    mov dword ptr [esp + CCR_AT_EMPTY + 4*\y], ecx
    # The types (low three bits) of the colour's pieces, 0 elsewhere: the colour bit
    # selects 7 or 0 per nibble.
    mov ecx, eax
    shr ecx, 3
    and ecx, 0x11111111
.if \black == 0
    xor ecx, 0x11111111
.endif
    imul ecx, ecx, 7
    and eax, ecx
    jz .Lccr_attacks_next_\black\()_\y
    # Type bit planes, one bit per nibble: ebx bit 0, ecx bit 1, eax bit 2. Pawn 001,
    # knight 010, bishop 011, rook 100, queen 101, king 110 (0 and 7 are no piece).
    mov ebx, eax
    and ebx, 0x11111111
    mov ecx, eax
    shr ecx, 1
    and ecx, 0x11111111
    shr eax, 2
    and eax, 0x11111111
    # Pawns (class 8), one word ahead, one file to each side.
.if \black == 0
    .set ccr_ahead, \y - 1
.else
    .set ccr_ahead, \y + 1
.endif
.if (ccr_ahead >= 0) && (ccr_ahead < 8)
    CCR_TYPE 1
    jz .Lccr_attacks_pawns_\black\()_\y
    CCR_ASIDE ebp, edx, 4
    shl ebp, 3
    or dword ptr [edi + 4*ccr_ahead], ebp
.Lccr_attacks_pawns_\black\()_\y:
.endif
    # Knights (class 4): one file aside two words away, two files aside one word away.
    CCR_TYPE 2
    jz .Lccr_attacks_knights_\black\()_\y
    shl edx, 2
    CCR_ASIDE ebp, edx, 4
    CCR_MARK (\y-2), ebp
    CCR_MARK (\y+2), ebp
    CCR_TYPE 2
    shl edx, 2
    CCR_ASIDE ebp, edx, 8
    CCR_MARK_AROUND \y, ebp
.Lccr_attacks_knights_\black\()_\y:
    # The king (class 1): both neighbours in its word, three squares in the next ones.
    CCR_TYPE 6
    jz .Lccr_attacks_king_\black\()_\y
    CCR_ASIDE ebp, edx, 4
    CCR_MARK \y, ebp
    CCR_TYPE 6
    or ebp, edx
    CCR_MARK_AROUND \y, ebp
.Lccr_attacks_king_\black\()_\y:
    # Sliders: edx rooks and queens (10x), ebp queens (101); rooks get class 2, queens 1;
    # bishops (011) class 4.
    mov edx, ecx
    not edx
    and edx, eax
    mov ebp, edx
    and ebp, ebx
    xor edx, ebp
    add edx, edx
    or edx, ebp
    mov dword ptr [esp + CCR_AT_ORTH + 4*\y], edx
    not eax
    and eax, ebx
    and eax, ecx
    shl eax, 2
    or eax, ebp
    mov dword ptr [esp + CCR_AT_DIAG + 4*\y], eax
    or eax, edx
    jz .Lccr_attacks_done_\black\()_\y
    or dword ptr [esp + CCR_AT_SLIDERS], 1 << \y
    # The rank: a Kogge-Stone fill of the rook and queen sources through the empty squares
    # (eax/ebx toward file h, ecx/edx toward file a: generator and propagator), then one
    # step more for the first blocker.
    mov eax, edx
    test eax, eax
    jz .Lccr_attacks_done_\black\()_\y
    mov ebx, dword ptr [esp + CCR_AT_EMPTY + 4*\y]
    mov ecx, eax
    mov edx, ebx
.irp s, 4, 8, 16
    mov ebp, ecx
    shl ebp, \s
    and ebp, edx
    or ecx, ebp
.if \s < 16
    mov ebp, edx
    shl ebp, \s
    and edx, ebp
.endif
.endr
    shl ecx, 4
.irp s, 4, 8, 16
    mov ebp, eax
    shr ebp, \s
    and ebp, ebx
    or eax, ebp
.if \s < 16
    mov ebp, ebx
    shr ebp, \s
    and ebx, ebp
.endif
.endr
    shr eax, 4
    or eax, ecx
    or dword ptr [edi + 4*\y], eax
    jmp .Lccr_attacks_done_\black\()_\y
.Lccr_attacks_empty_\black\()_\y:
    mov dword ptr [esp + CCR_AT_EMPTY + 4*\y], -1
.Lccr_attacks_next_\black\()_\y:
    mov dword ptr [esp + CCR_AT_ORTH + 4*\y], eax
    mov dword ptr [esp + CCR_AT_DIAG + 4*\y], eax
.Lccr_attacks_done_\black\()_\y:
.endm

# A vertical fill: \step moves ebp one word (toward rank 8 or rank 1) and jumps to \done off
# the board; \scan (bsr or bsf) picks the next word with sliders from the set in esi, the
# nearest to where the fill goes. eax carries the rays toward file a, ebx the files, ecx
# toward file h; once they all stop, the fill jumps to the next slider.
.macro CCR_FILL scan, step, done, source, loop
\source:
    \scan ebp, esi
    jz \done
    btr esi, ebp
    mov eax, dword ptr [esp + CCR_AT_DIAG + 4*ebp]
    mov ecx, eax
    mov ebx, dword ptr [esp + CCR_AT_ORTH + 4*ebp]
\loop:
    \step \done
    shl eax, 4
    shr ecx, 4
    mov edx, eax
    or edx, ebx
    or edx, ecx
    jz \source
    or dword ptr [edi + 4*ebp], edx
    mov edx, dword ptr [esp + CCR_AT_EMPTY + 4*ebp]
    and eax, edx
    and ebx, edx
    and ecx, edx
    mov edx, dword ptr [esp + CCR_AT_DIAG + 4*ebp]
    or eax, edx
    or ecx, edx
    or ebx, dword ptr [esp + CCR_AT_ORTH + 4*ebp]
    btr esi, ebp
    jmp \loop
\done:
.endm

    .globl ccr_asm_attacks_of
    .type ccr_asm_attacks_of, @function
    .p2align 4
ccr_asm_attacks_of:
    push ebp
    push ebx
    push esi
    push edi
    sub esp, CCR_AT_FRAME
    mov esi, dword ptr [esp + CCR_AT_BOARD]
    mov edi, dword ptr [esp + CCR_AT_OUT]
    xor eax, eax
.irp i, 0,1,2,3,4,5,6,7
    mov dword ptr [edi + 4*\i], eax
.endr
    mov dword ptr [esp + CCR_AT_SLIDERS], eax
    cmp dword ptr [esp + CCR_AT_BLACK], eax
    jne .Lccr_attacks_black
.irp y, 0,1,2,3,4,5,6,7
    CCR_ATTACK_WORD \y, 0
.endr
    jmp .Lccr_attacks_fill
.Lccr_attacks_black:
.irp y, 0,1,2,3,4,5,6,7
    CCR_ATTACK_WORD \y, 1
.endr
.Lccr_attacks_fill:
    # Toward rank 8, from the slider nearest rank 1.
    mov esi, dword ptr [esp + CCR_AT_SLIDERS]
    CCR_FILL bsr, CCR_STEP_UP, .Lccr_attacks_up_done, .Lccr_attacks_up_source, .Lccr_attacks_up
    # Toward rank 1, from the slider nearest rank 8.
    mov esi, dword ptr [esp + CCR_AT_SLIDERS]
    CCR_FILL bsf, CCR_STEP_DOWN, .Lccr_attacks_down_done, .Lccr_attacks_down_source, .Lccr_attacks_down
    add esp, CCR_AT_FRAME
    pop edi
    pop esi
    pop ebx
    pop ebp
    ret
    .size ccr_asm_attacks_of, . - ccr_asm_attacks_of

.popsection

// x86-64: CRC folding with carry-less multiplication, after Gopal, Ozturk, Guilford et al.,
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), and
// CRC-32C with SSE4.2's `crc32`. Each function carries its own target attribute, so the file
// builds without global -m flags; crc_fold.c calls one only after CPUID said it may.
//
// The algebra, for a reflected CRC (the stream's first bit is the highest-degree coefficient):
// a 128-bit register loaded little-endian from 16 bytes holds a polynomial S(x) of degree < 128
// with bit i the coefficient of x^(127-i), so its low 64-bit half H holds the high-degree terms:
// S = H·x^64 + L. The CRC of a stream whose last block is S is S(x)·x^32 mod P(x), so any S' ≡ S
// (mod P) will do in its place. To fold S onto the block F bits further on, D:
//
//     S·x^F + D ≡ H·(x^(F+64) mod P) + L·(x^F mod P) + D    (degree < 96 + 0: fits 128 bits)
//
// PCLMULQDQ multiplies two 64-bit halves into 128 bits; with reflected operands the product
// comes out one bit low (bit i of the product is x^(126-i)), and a constant c kept in the low 32
// bits of its half stands for c·x^32. So clmul(H, x^e mod P) holds H·(x^e mod P)·x^33, and the
// constants are x^(F+31) for the low half and x^(F-33) for the high half: x^159 and x^95 to fold
// 128 bits forward, x^543 and x^479 for 512 (four 128-bit lanes), x^2079 and x^2015 for 2048
// (four 512-bit lanes). The final reduction of S·x^32 mod P:
//
//     128 → 96 bits:  H·(x^96 mod P) + L·x^32          (clmul by x^95; L moves down a half)
//      96 → 64 bits:  A·(x^64 mod P) + B, A the top 32  (clmul by x^63)
//      64 → 32 bits:  Barrett: q = ⌊⌊R/x^32⌋·µ / x^32⌋ with µ = ⌊x^64/P⌋, CRC = (R - q·P) mod x^32
//
// The initial value enters by XOR into the first four bytes (the CRC is linear; the register
// before a stream of n ≥ 4 bytes is worth the same as those bits of the stream).
#if defined(__x86_64__)

#include <immintrin.h>
#include "crc_fold.h"

#define TARGET_PCLMUL __attribute__((target("pclmul,ssse3,sse4.1,sse4.2")))
#define TARGET_VPCLMUL256 __attribute__((target("pclmul,ssse3,sse4.1,sse4.2,avx,avx2,vpclmulqdq")))
#define TARGET_VPCLMUL512 __attribute__((target("pclmul,ssse3,sse4.1,sse4.2,avx512f,vpclmulqdq")))

static inline TARGET_PCLMUL __m128i load128(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)p);
}

/// `state` carried `k` bits forward (k = the constants' F) and added to `next`.
static inline TARGET_PCLMUL __m128i fold128(__m128i state, __m128i constants, __m128i next) {
    __m128i high = _mm_clmulepi64_si128(state, constants, 0x00);
    __m128i low = _mm_clmulepi64_si128(state, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(high, low), next);
}

/// Index masks for PSHUFB: 16 bytes from offset r give byte i = i + r - 16 where that is ≥ 0,
/// else 0x80 | (i + r) (a zero byte, and with 0x80 flipped the index i + r).
static const uint8_t shift_masks[32] = {
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
};

/// Folds the last `r` (1...15) bytes, which end at `end`, onto `state`, the block just before
/// them: the 16 + r bytes are split as the first r (shifted to the top of a register and folded
/// 128 bits forward) and the last 16. Reads the 16 bytes before `end`, which are in the buffer.
static inline TARGET_PCLMUL __m128i fold_tail(__m128i state, const uint8_t *end, size_t r, __m128i k128) {
    __m128i to_top = _mm_loadu_si128((const __m128i *)(shift_masks + r));
    __m128i to_bottom = _mm_xor_si128(to_top, _mm_set1_epi8((char)0x80));
    __m128i head = _mm_shuffle_epi8(state, to_top);
    __m128i rest = _mm_shuffle_epi8(state, to_bottom);
    // Bytes 16 - r ... 15 of the last 16 are the tail; below them, the rest of `state`.
    __m128i last = _mm_blendv_epi8(load128(end - 16), rest, to_top);
    return fold128(head, k128, last);
}

/// S·x^32 mod P for the 128-bit state S, as a reflected register (not yet complemented).
static inline TARGET_PCLMUL uint32_t reduce(__m128i state, const crcfold_constants *k) {
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i reduction = _mm_set_epi64x((long long)k->x63, (long long)k->x95);
    __m128i r96 = _mm_xor_si128(_mm_clmulepi64_si128(state, reduction, 0x00), _mm_srli_si128(state, 8));
    __m128i r64 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(r96, low32), reduction, 0x10),
                                _mm_srli_si128(r96, 4));
    __m128i barrett = _mm_set_epi64x((long long)k->poly, (long long)k->mu);
    __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(r64, low32), barrett, 0x00), low32);
    __m128i remainder = _mm_xor_si128(r64, _mm_clmulepi64_si128(q, barrett, 0x10));
    return (uint32_t)_mm_extract_epi32(remainder, 1);
}

/// A register of fewer than 16 bytes, folded in steps of 4 bytes or fewer: for n = 1...4 bytes
/// D, the register c becomes (c >> 8n) ^ ((c ^ D) mod x^8n)·x^32 mod P, which Barrett reduces
/// once the low 8n bits are moved up to the top of a 64-bit operand.
static inline TARGET_PCLMUL uint32_t short_update(uint32_t reg, const uint8_t *p, size_t count, const crcfold_constants *k) {
    const __m128i barrett = _mm_set_epi64x((long long)k->poly, (long long)k->mu);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    while (count > 0) {
        size_t n = count < 4 ? count : 4;
        uint32_t data = 0;
        __builtin_memcpy(&data, p, n);
        uint32_t mixed = reg ^ data;
        uint32_t kept = n == 4 ? 0 : reg >> (8 * n);
        uint64_t top = n == 4 ? mixed : (uint64_t)(mixed & ((1u << (8 * n)) - 1)) << (32 - 8 * n);
        __m128i r64 = _mm_cvtsi64_si128((long long)top);
        __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(r64, low32), barrett, 0x00), low32);
        __m128i remainder = _mm_xor_si128(r64, _mm_clmulepi64_si128(q, barrett, 0x10));
        reg = kept ^ (uint32_t)_mm_extract_epi32(remainder, 1);
        p += n;
        count -= n;
    }
    return reg;
}

/// After the bulk loops: `state` is the block just before `p`, `count` bytes remain.
static inline TARGET_PCLMUL uint32_t finish(__m128i state, const uint8_t *p, size_t count, const crcfold_constants *k) {
    const __m128i k128 = _mm_set_epi64x((long long)k->x95, (long long)k->x159);
    while (count >= 16) {
        state = fold128(state, k128, load128(p));
        p += 16;
        count -= 16;
    }
    if (count > 0) state = fold_tail(state, p + count, count, k128);
    return ~reduce(state, k);
}

/// The four lanes of a 64-byte block folded into one register (each 128 bits onto the next),
/// then the `count` bytes at `p` and the reduction: the end of every multi-lane fold.
static inline TARGET_PCLMUL uint32_t fold_lanes_and_finish(const __m128i lanes[4], const uint8_t *p, size_t count, const crcfold_constants *k) {
    const __m128i k128 = _mm_set_epi64x((long long)k->x95, (long long)k->x159);
    __m128i x = lanes[0];
    for (int lane = 1; lane < 4; lane++) x = fold128(x, k128, lanes[lane]);
    return finish(x, p, count, k);
}

TARGET_PCLMUL
uint32_t crcfold_x86_pclmul(uint32_t crc, const uint8_t *p, size_t count, const crcfold_constants *k) {
    if (count < 16) return ~short_update(~crc, p, count, k);
    __m128i x0 = _mm_xor_si128(load128(p), _mm_cvtsi32_si128((int)~crc));
    p += 16;
    count -= 16;
    if (count >= 48) {
        // Four independent lanes, each folded 512 bits forward onto its next block.
        const __m128i k512 = _mm_set_epi64x((long long)k->x479, (long long)k->x543);
        __m128i x[4] = {x0, load128(p), load128(p + 16), load128(p + 32)};
        p += 48;
        count -= 48;
        for (; count >= 64; p += 64, count -= 64) {
            for (int lane = 0; lane < 4; lane++) x[lane] = fold128(x[lane], k512, load128(p + 16 * lane));
        }
        return fold_lanes_and_finish(x, p, count, k);
    }
    return finish(x0, p, count, k);
}

// 256-bit registers (VPCLMULQDQ with AVX2, no AVX-512: AMD Zen 3 and 4's client parts, Intel's
// Alder Lake and later client cores): a 64-byte block is a pair of registers, the low one
// holding lanes 0 and 1, the high one lanes 2 and 3, so the lanes are the other paths' lanes.

static inline TARGET_VPCLMUL256 __m256i fold256(__m256i state, __m256i constants, __m256i next) {
    __m256i high = _mm256_clmulepi64_epi128(state, constants, 0x00);
    __m256i low = _mm256_clmulepi64_epi128(state, constants, 0x11);
    return _mm256_xor_si256(_mm256_xor_si256(high, low), next);
}

static inline TARGET_VPCLMUL256 __m256i load256(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}

static inline TARGET_VPCLMUL256 __m256i broadcast128(uint64_t high, uint64_t low) {
    return _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)high, (long long)low));
}

/// The first 32 bytes of a stream with the finished CRC `crc` it continues in them.
static inline TARGET_VPCLMUL256 __m256i with_initial256(const uint8_t *p, uint32_t crc) {
    return _mm256_xor_si256(load256(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)~crc)));
}

/// fold_blocks512 on register pairs: the 64-byte blocks at `*p` folded onto the block
/// (`*low`, `*high`) just before them; while 256 bytes or more remain, in four pairs, every lane
/// folded 2048 bits forward (eight independent registers keep the multiplier busy), then back
/// into one pair.
static inline TARGET_VPCLMUL256 void fold_blocks256(__m256i *low, __m256i *high, const uint8_t **bytes, size_t *remaining,
                                                    const crcfold_constants *k) {
    const uint8_t *p = *bytes;
    size_t count = *remaining;
    const __m256i k512 = broadcast128(k->x479, k->x543);
    __m256i y0 = *low, y1 = *high;
    if (count >= 256) {
        const __m256i k2048 = broadcast128(k->x2015, k->x2079);
        __m256i y[8] = {fold256(y0, k512, load256(p)), fold256(y1, k512, load256(p + 32))};
        for (int reg = 2; reg < 8; reg++) y[reg] = load256(p + 32 * reg);
        p += 256;
        count -= 256;
        for (; count >= 256; p += 256, count -= 256) {
            for (int reg = 0; reg < 8; reg++) y[reg] = fold256(y[reg], k2048, load256(p + 32 * reg));
        }
        y0 = y[0];
        y1 = y[1];
        for (int pair = 1; pair < 4; pair++) {
            y0 = fold256(y0, k512, y[2 * pair]);
            y1 = fold256(y1, k512, y[2 * pair + 1]);
        }
    }
    for (; count >= 64; p += 64, count -= 64) {
        y0 = fold256(y0, k512, load256(p));
        y1 = fold256(y1, k512, load256(p + 32));
    }
    *low = y0;
    *high = y1;
    *bytes = p;
    *remaining = count;
}

TARGET_VPCLMUL256
uint32_t crcfold_x86_vpclmul256(uint32_t crc, const uint8_t *p, size_t count, const crcfold_constants *k) {
    if (count < CRCFOLD_X86_WIDE_MIN) return crcfold_x86_pclmul(crc, p, count, k);
    __m256i low = with_initial256(p, crc), high = load256(p + 32);
    p += 64;
    count -= 64;
    fold_blocks256(&low, &high, &p, &count, k);
    const __m128i lanes[4] = {_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1),
                              _mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1)};
    return fold_lanes_and_finish(lanes, p, count, k);
}

static inline TARGET_VPCLMUL512 __m512i fold512(__m512i state, __m512i constants, __m512i next) {
    __m512i high = _mm512_clmulepi64_epi128(state, constants, 0x00);
    __m512i low = _mm512_clmulepi64_epi128(state, constants, 0x11);
    return _mm512_ternarylogic_epi64(high, low, next, 0x96);  // high ^ low ^ next
}

static inline TARGET_VPCLMUL512 __m512i load512(const uint8_t *p) {
    return _mm512_loadu_si512((const void *)p);
}

/// Folds the whole 64-byte blocks at `*p` onto `z0`, the block just before them, and moves
/// `*p` and `*count` past them: while 256 bytes or more remain, in four registers of four
/// 128-bit lanes each, every lane folded 2048 bits forward, then back in one register.
static inline TARGET_VPCLMUL512 __m512i fold_blocks512(__m512i z0, const uint8_t **bytes, size_t *remaining, const crcfold_constants *k) {
    const uint8_t *p = *bytes;
    size_t count = *remaining;
    const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k->x479, (long long)k->x543));
    if (count >= 256) {
        const __m512i k2048 = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k->x2015, (long long)k->x2079));
        __m512i z[4] = {fold512(z0, k512, load512(p)), load512(p + 64), load512(p + 128), load512(p + 192)};
        p += 256;
        count -= 256;
        for (; count >= 256; p += 256, count -= 256) {
            for (int reg = 0; reg < 4; reg++) z[reg] = fold512(z[reg], k2048, load512(p + 64 * reg));
        }
        z0 = z[0];
        for (int reg = 1; reg < 4; reg++) z0 = fold512(z0, k512, z[reg]);
    }
    for (; count >= 64; p += 64, count -= 64) z0 = fold512(z0, k512, load512(p));
    *bytes = p;
    *remaining = count;
    return z0;
}

TARGET_VPCLMUL512
uint32_t crcfold_x86_vpclmul512(uint32_t crc, const uint8_t *p, size_t count, const crcfold_constants *k) {
    if (count < CRCFOLD_X86_WIDE_MIN) return crcfold_x86_pclmul(crc, p, count, k);
    __m512i z0 = _mm512_xor_si512(load512(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)~crc)));
    p += 64;
    count -= 64;
    z0 = fold_blocks512(z0, &p, &count, k);
    const __m128i lanes[4] = {_mm512_extracti32x4_epi32(z0, 0), _mm512_extracti32x4_epi32(z0, 1),
                              _mm512_extracti32x4_epi32(z0, 2), _mm512_extracti32x4_epi32(z0, 3)};
    return fold_lanes_and_finish(lanes, p, count, k);
}

// The running state (crcfold_state): the bulk loops above, with their lanes kept in memory
// between calls and the bytes short of a 64-byte block kept for the next call. A segment of a
// stream costs its blocks' folds, one load and store of the lanes, and two short copies.

/// Copies `count` (< 64) bytes in a few fixed-size, possibly overlapping moves: no loop (which
/// the compiler could turn into a call to libc's memcpy) and no byte-at-a-time tail.
static inline void copy_short(uint8_t *to, const uint8_t *from, size_t count) {
    if (count >= 16) {
        __builtin_memcpy_inline(to, from, 16);
        if (count > 32) __builtin_memcpy_inline(to + 16, from + 16, 16);
        if (count > 48) __builtin_memcpy_inline(to + 32, from + 32, 16);
        __builtin_memcpy_inline(to + count - 16, from + count - 16, 16);
    } else if (count >= 8) {
        __builtin_memcpy_inline(to, from, 8);
        __builtin_memcpy_inline(to + count - 8, from + count - 8, 8);
    } else if (count >= 4) {
        __builtin_memcpy_inline(to, from, 4);
        __builtin_memcpy_inline(to + count - 4, from + count - 4, 4);
    } else if (count > 0) {
        to[0] = from[0];
        to[count / 2] = from[count / 2];
        to[count - 1] = from[count - 1];
    }
}

/// The next whole 64-byte block of the stream: the pending bytes completed from the input, or
/// the input's first 64 bytes; NULL when the input only adds to the pending bytes.
static inline const uint8_t *next_block(crcfold_state *s, const uint8_t **p, size_t *count) {
    uint8_t *pending = s->pending + 16;
    size_t have = s->pending_count, taken = 64 - have;
    if (*count < taken) {
        copy_short(pending + have, *p, *count);
        s->pending_count = (uint32_t)(have + *count);
        return NULL;
    }
    const uint8_t *block = pending;
    if (have == 0) block = *p;
    else copy_short(pending + have, *p, taken);
    *p += taken;
    *count -= taken;
    return block;
}

/// Keeps the input's last `count` (< 64) bytes for the next call.
static inline void keep_pending(crcfold_state *s, const uint8_t *p, size_t count) {
    copy_short(s->pending + 16, p, count);
    s->pending_count = (uint32_t)count;
}

TARGET_PCLMUL
void crcfold_x86_pclmul_state(crcfold_state *s, const uint8_t *p, size_t count, const crcfold_constants *k) {
    const uint8_t *block = next_block(s, &p, &count);
    if (!block) return;
    const __m128i k512 = _mm_set_epi64x((long long)k->x479, (long long)k->x543);
    __m128i x[4];
    if (s->started) {
        for (int lane = 0; lane < 4; lane++) x[lane] = fold128(load128(s->lanes + 16 * lane), k512, load128(block + 16 * lane));
    } else {
        // The first block, with the initial value in it, is the lanes (as in crcfold_x86_pclmul).
        for (int lane = 0; lane < 4; lane++) x[lane] = load128(block + 16 * lane);
        x[0] = _mm_xor_si128(x[0], _mm_cvtsi32_si128((int)~s->crc));
        s->started = 1;
    }
    for (; count >= 64; p += 64, count -= 64) {
        for (int lane = 0; lane < 4; lane++) x[lane] = fold128(x[lane], k512, load128(p + 16 * lane));
    }
    for (int lane = 0; lane < 4; lane++) _mm_storeu_si128((__m128i *)(s->lanes + 16 * lane), x[lane]);
    keep_pending(s, p, count);
}

TARGET_VPCLMUL512
void crcfold_x86_vpclmul512_state(crcfold_state *s, const uint8_t *p, size_t count, const crcfold_constants *k) {
    const uint8_t *block = next_block(s, &p, &count);
    if (!block) return;
    __m512i z0;
    if (s->started) {
        const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k->x479, (long long)k->x543));
        z0 = fold512(load512(s->lanes), k512, load512(block));
    } else {
        z0 = _mm512_xor_si512(load512(block), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)~s->crc)));
        s->started = 1;
    }
    z0 = fold_blocks512(z0, &p, &count, k);
    _mm512_storeu_si512((void *)s->lanes, z0);
    keep_pending(s, p, count);
}

TARGET_VPCLMUL256
void crcfold_x86_vpclmul256_state(crcfold_state *s, const uint8_t *p, size_t count, const crcfold_constants *k) {
    const uint8_t *block = next_block(s, &p, &count);
    if (!block) return;
    __m256i low, high;
    if (s->started) {
        const __m256i k512 = broadcast128(k->x479, k->x543);
        low = fold256(load256(s->lanes), k512, load256(block));
        high = fold256(load256(s->lanes + 32), k512, load256(block + 32));
    } else {
        low = with_initial256(block, s->crc);
        high = load256(block + 32);
        s->started = 1;
    }
    fold_blocks256(&low, &high, &p, &count, k);
    _mm256_storeu_si256((__m256i *)s->lanes, low);
    _mm256_storeu_si256((__m256i *)(s->lanes + 32), high);
    keep_pending(s, p, count);
}

/// The lanes folded into one register, then the pending bytes and the reduction: the end of
/// crcfold_x86_pclmul, once per stream. Every folding path leaves the same lanes.
TARGET_PCLMUL
uint32_t crcfold_x86_finish_lanes(const crcfold_state *s, const crcfold_constants *k) {
    const __m128i lanes[4] = {load128(s->lanes), load128(s->lanes + 16), load128(s->lanes + 32), load128(s->lanes + 48)};
    return fold_lanes_and_finish(lanes, s->pending + 16, s->pending_count, k);
}

__attribute__((target("sse4.2")))
uint32_t crcfold_x86_crc32c(uint32_t crc, const uint8_t *p, size_t count) {
    uint64_t reg = ~crc;
    while (count >= 8) {
        uint64_t word;
        __builtin_memcpy(&word, p, 8);
        reg = _mm_crc32_u64(reg, word);
        p += 8;
        count -= 8;
    }
    uint32_t reg32 = (uint32_t)reg;
    while (count > 0) {
        reg32 = _mm_crc32_u8(reg32, *p);
        p += 1;
        count -= 1;
    }
    return ~reg32;
}

#endif

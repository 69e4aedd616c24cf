// CRC-32 (zlib's, reflected polynomial 0xEDB88320) and CRC-32C (Castagnoli, 0x82F63B78) with the
// CPU's carry-less multiply and CRC instructions: FrameCodec's fast path (Sources/FrameCodec/
// CRC32Acceleration.swift). The portable path is FrameCodec's own Swift; this target has no
// portable code and no library dependency (compiler intrinsics only), so FrameCodec stays
// embeddable and fuzzable alone.
//
// Every CRC here continues a finished value the way zlib's crc32(crc, buf, len) does: 0 to start,
// the result of the previous call to go on.
#ifndef CCRCFOLD_H
#define CCRCFOLD_H

#include <stddef.h>
#include <stdint.h>

/// The instruction set a CRC is computed with; where several run, the highest number is the fastest.
enum {
    /// No instructions here: the caller's portable code.
    CRCFOLD_PORTABLE = 0,
    /// x86-64 PCLMULQDQ folding on 128-bit registers, SSE4.2 `crc32` for short CRC-32C.
    CRCFOLD_PCLMUL = 1,
    /// x86-64 VPCLMULQDQ folding on 256-bit registers (AVX2, no AVX-512), then the PCLMUL path's tail.
    CRCFOLD_VPCLMUL256 = 2,
    /// x86-64 VPCLMULQDQ folding on 512-bit registers (AVX-512F), then the PCLMUL path's tail.
    CRCFOLD_VPCLMUL512 = 3,
    /// ARMv8 CRC32 instructions (`crc32x`, `crc32cx`), when the compiler targets them.
    CRCFOLD_ARMV8 = 4,
};

/// The two polynomials.
enum {
    CRCFOLD_CRC32 = 0,
    CRCFOLD_CRC32C = 1,
};

/// The best path this CPU supports (CPUID on x86-64, read once), or CRCFOLD_PORTABLE.
int crcfold_best_path(void);

/// Whether `path` can run on this CPU.
int crcfold_supports(int path);

/// Makes `path` the one crcfold_path() returns; returns 0 (and changes nothing) when the CPU
/// does not support it. For tests: the first call of crcfold_path() selects the best path.
int crcfold_select(int path);

/// The selected path, chosen on first use; atomic, so tests may switch it while CRCs run.
extern int crcfold_selected_path_;
static inline int crcfold_path(void) {
    int path = __atomic_load_n(&crcfold_selected_path_, __ATOMIC_RELAXED);
    return path >= 0 ? path : crcfold_best_path();
}

/// Continues the finished CRC `crc` of `algorithm` (CRCFOLD_CRC32 or CRCFOLD_CRC32C) over
/// `count` bytes at `bytes` on `path`, which must be one the CPU supports and not
/// CRCFOLD_PORTABLE. Any length and alignment; reads only the `count` bytes.
uint32_t crcfold_update(int path, int algorithm, uint32_t crc, const void *bytes, size_t count);

/// A CRC carried across calls and reduced once, at the end: a frame that arrives in many
/// segments folds each segment's whole 64-byte blocks into four 128-bit lanes (the same lanes
/// on the 128-, 256- and 512-bit paths: two 256-bit registers or one 512-bit register hold all
/// four) and keeps the rest for the next call, instead of paying the tail, the 128 → 32-bit
/// reduction and the dispatch once per segment. On the ARMv8 path, whose instructions carry the
/// 32-bit register itself, `crc` is the whole state. Zero-filled and then `crc` set to a
/// finished CRC (0 to start), it is ready for its first update.
typedef struct crcfold_state {
    /// Lane i (bytes 16i ..< 16i + 16) is the fold so far of every 64-byte block's bytes
    /// 16i ..< 16i + 16, loaded little-endian; meaningful once `started`.
    uint8_t lanes[64];
    /// The bytes not yet folded (fewer than 64) are `pending[16 ..< 16 + pending_count]`. The
    /// 16 bytes before them are read but never used: the tail fold loads the 16 bytes that end
    /// at the last pending byte and keeps only the pending ones.
    uint8_t pending[16 + 64];
    /// The finished CRC the state continues; unused once `started` (it is in the lanes).
    uint32_t crc;
    uint32_t pending_count;
    /// Whether the first 64-byte block (with `crc` in it) has been folded into the lanes.
    uint32_t started;
} crcfold_state;

/// Continues `state` over `count` bytes at `bytes` on `path` (as for crcfold_update): any
/// length, 0 and 1 included, any alignment.
void crcfold_state_update(int path, int algorithm, crcfold_state *state, const void *bytes, size_t count);

/// The finished CRC of everything `state` was updated with; `state` may go on being updated.
uint32_t crcfold_state_finish(int path, int algorithm, const crcfold_state *state);

/// The folding constants of one polynomial. Each `xN` is x^N mod P(x), bit-reflected into the
/// low 32 bits (bit i holds the coefficient of x^(31-i)); `mu` is floor(x^64 / P(x)) and `poly`
/// P(x) itself, both 33 bits reflected (bit i holds the coefficient of x^(32-i)). Which exponent
/// serves which step is explained in crc_fold_x86.c; the tests recompute every value.
typedef struct crcfold_constants {
    uint64_t x2079, x2015;   // fold 512-bit lanes 2048 bits forward (4 x 64 bytes a step)
    uint64_t x543, x479;     // fold 128 bits 512 bits forward (4 x 16 bytes a step)
    uint64_t x159, x95;      // fold 128 bits 128 bits forward
    uint64_t x63;            // final reduction, 96 to 64 bits
    uint64_t mu, poly;       // Barrett reduction, 64 to 32 bits
} crcfold_constants;

/// The constants of `algorithm` (CRCFOLD_CRC32 or CRCFOLD_CRC32C).
const crcfold_constants *crcfold_constants_of(int algorithm);

#endif

// What the dispatcher (crc_fold.c) and the per-architecture files share.
#ifndef CRC_FOLD_INTERNAL_H
#define CRC_FOLD_INTERNAL_H

#include "CCRCFold.h"

#if defined(__x86_64__)
/// Bytes from which the 256- and 512-bit folds run (their bulk loop takes 256 bytes a step).
#define CRCFOLD_X86_WIDE_MIN 256
/// Bytes from which CRC-32C folds rather than using the `crc32` instruction: where the wide
/// folds start. Shorter, the instruction's plain loop beats a fold and its reduction chain; the
/// exact crossover against the 128-bit fold (CPUs without VPCLMULQDQ) was not measured.
#define CRCFOLD_X86_CRC32C_FOLD_MIN 256

uint32_t crcfold_x86_pclmul(uint32_t crc, const uint8_t *bytes, size_t count, const crcfold_constants *k);
uint32_t crcfold_x86_vpclmul256(uint32_t crc, const uint8_t *bytes, size_t count, const crcfold_constants *k);
uint32_t crcfold_x86_vpclmul512(uint32_t crc, const uint8_t *bytes, size_t count, const crcfold_constants *k);
uint32_t crcfold_x86_crc32c(uint32_t crc, const uint8_t *bytes, size_t count);
void crcfold_x86_pclmul_state(crcfold_state *state, const uint8_t *bytes, size_t count, const crcfold_constants *k);
void crcfold_x86_vpclmul256_state(crcfold_state *state, const uint8_t *bytes, size_t count, const crcfold_constants *k);
void crcfold_x86_vpclmul512_state(crcfold_state *state, const uint8_t *bytes, size_t count, const crcfold_constants *k);
uint32_t crcfold_x86_finish_lanes(const crcfold_state *state, const crcfold_constants *k);
#endif

#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
uint32_t crcfold_armv8(int algorithm, uint32_t crc, const uint8_t *bytes, size_t count);
#endif

#endif

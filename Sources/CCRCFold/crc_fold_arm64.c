// arm64: the ARMv8 CRC32 instructions, 8 bytes a step. Built only where the compiler targets
// them (__ARM_FEATURE_CRC32: every Apple silicon Mac, or -march=armv8-a+crc), so no run-time
// detection. Neither built nor run on this project's x86-64 machines: kept to this one loop.
#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)

#include <arm_acle.h>
#include "crc_fold.h"

uint32_t crcfold_armv8(int algorithm, uint32_t crc, const uint8_t *p, size_t count) {
    uint32_t reg = ~crc;
    int castagnoli = algorithm == CRCFOLD_CRC32C;
    while (count >= 8) {
        uint64_t word;
        __builtin_memcpy(&word, p, 8);  // little-endian, as the reflected register expects
        reg = castagnoli ? __crc32cd(reg, word) : __crc32d(reg, word);
        p += 8;
        count -= 8;
    }
    while (count > 0) {
        reg = castagnoli ? __crc32cb(reg, *p) : __crc32b(reg, *p);
        p += 1;
        count -= 1;
    }
    return ~reg;
}

#endif

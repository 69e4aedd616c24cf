// Run-time choice of the CRC path, and the folding constants.
#include "crc_fold.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

// The constants (see CCRCFold.h for the layout); CRC32Tests.foldingConstantsAreTheirDefinitions
// recomputes each one from its definition.
static const crcfold_constants constants[2] = {
    [CRCFOLD_CRC32] = {
        .x2079 = 0xCE3371CB, .x2015 = 0xE95C1271, .x543 = 0x8F352D95, .x479 = 0x1D9513D7,
        .x159 = 0xAE689191, .x95 = 0xCCAA009E, .x63 = 0xB8BC6765,
        .mu = 0x1F7011641, .poly = 0x1DB710641,
    },
    [CRCFOLD_CRC32C] = {
        .x2079 = 0xDCB17AA4, .x2015 = 0xB9E02B86, .x543 = 0x740EEF02, .x479 = 0x9E4ADDF8,
        .x159 = 0xF20C0DFE, .x95 = 0x493C7D27, .x63 = 0xDD45AAB8,
        .mu = 0x0DEA713F1, .poly = 0x105EC76F1,
    },
};

const crcfold_constants *crcfold_constants_of(int algorithm) {
    return &constants[algorithm == CRCFOLD_CRC32C];
}

// Bit i set: path i runs here. Computed once; racing first calls compute the same value.
static int supported_paths = -1;

static int detect(void) {
    int paths = 1 << CRCFOLD_PORTABLE;
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return paths;
    const unsigned pclmul = 1u << 1, ssse3 = 1u << 9, sse41 = 1u << 19, sse42 = 1u << 20, osxsave = 1u << 27;
    if ((ecx & (pclmul | ssse3 | sse41 | sse42)) != (pclmul | ssse3 | sse41 | sse42)) return paths;
    paths |= 1 << CRCFOLD_PCLMUL;
    const unsigned avx = 1u << 28;
    const int has_avx = (ecx & avx) != 0;
    if (!(ecx & osxsave) || !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return paths;
    const unsigned avx2 = 1u << 5, avx512f = 1u << 16, vpclmulqdq = 1u << 10;
    if (!(ecx & vpclmulqdq)) return paths;
    // The OS must save the register state each path uses (XCR0): SSE and AVX (bits 1, 2), and
    // for AVX-512 also the opmask and both ZMM halves (bits 5, 6, 7).
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if (has_avx && (ebx & avx2) && (xcr0_low & 0x06) == 0x06) paths |= 1 << CRCFOLD_VPCLMUL256;
    if ((ebx & avx512f) && (xcr0_low & 0xE6) == 0xE6) paths |= 1 << CRCFOLD_VPCLMUL512;
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    // The compiler was told every target CPU has the CRC32 instructions (all Apple silicon does).
    paths |= 1 << CRCFOLD_ARMV8;
#endif
    return paths;
}

static int supported(void) {
    int paths = __atomic_load_n(&supported_paths, __ATOMIC_RELAXED);
    if (paths < 0) {
        paths = detect();
        __atomic_store_n(&supported_paths, paths, __ATOMIC_RELAXED);
    }
    return paths;
}

int crcfold_supports(int path) {
    return path >= 0 && path < 31 && (supported() >> path & 1);
}

int crcfold_best_path(void) {
    int paths = supported();
    int best = 31 - __builtin_clz((unsigned)paths);
    // Selected once here when nothing was selected yet; an explicit crcfold_select wins.
    int unset = -1;
    __atomic_compare_exchange_n(&crcfold_selected_path_, &unset, best, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return best;
}

int crcfold_selected_path_ = -1;

int crcfold_select(int path) {
    if (!crcfold_supports(path)) return 0;
    __atomic_store_n(&crcfold_selected_path_, path, __ATOMIC_RELAXED);
    return 1;
}

uint32_t crcfold_update(int path, int algorithm, uint32_t crc, const void *bytes, size_t count) {
    // Where no path is compiled in, the switch below uses none of these.
    (void)algorithm, (void)crc, (void)bytes, (void)count;
    switch (path) {
#if defined(__x86_64__)
    case CRCFOLD_VPCLMUL512:
        if (count >= CRCFOLD_X86_WIDE_MIN) return crcfold_x86_vpclmul512(crc, bytes, count, crcfold_constants_of(algorithm));
        // fall through: shorter buffers fold faster in 128-bit registers
    case CRCFOLD_VPCLMUL256:
        if (count >= CRCFOLD_X86_WIDE_MIN) return crcfold_x86_vpclmul256(crc, bytes, count, crcfold_constants_of(algorithm));
        // fall through
    case CRCFOLD_PCLMUL:
        if (algorithm == CRCFOLD_CRC32C && count < CRCFOLD_X86_CRC32C_FOLD_MIN) return crcfold_x86_crc32c(crc, bytes, count);
        return crcfold_x86_pclmul(crc, bytes, count, crcfold_constants_of(algorithm));
#endif
#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    case CRCFOLD_ARMV8:
        return crcfold_armv8(algorithm, crc, bytes, count);
#endif
    default:
        // A path this CPU lacks would fault on its first instruction anyway: stop at the bug.
        __builtin_trap();
    }
}

void crcfold_state_update(int path, int algorithm, crcfold_state *state, const void *bytes, size_t count) {
    (void)algorithm, (void)state, (void)bytes, (void)count;
    switch (path) {
#if defined(__x86_64__)
    case CRCFOLD_VPCLMUL512:
        crcfold_x86_vpclmul512_state(state, bytes, count, crcfold_constants_of(algorithm));
        return;
    case CRCFOLD_VPCLMUL256:
        crcfold_x86_vpclmul256_state(state, bytes, count, crcfold_constants_of(algorithm));
        return;
    case CRCFOLD_PCLMUL:
        // CRC-32C folds too: a stream of segments is long, where folding beats `crc32`.
        crcfold_x86_pclmul_state(state, bytes, count, crcfold_constants_of(algorithm));
        return;
#endif
#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    case CRCFOLD_ARMV8:
        state->crc = crcfold_armv8(algorithm, state->crc, bytes, count);
        return;
#endif
    default:
        __builtin_trap();
    }
}

uint32_t crcfold_state_finish(int path, int algorithm, const crcfold_state *state) {
    // Fewer than 64 bytes in all (or the ARMv8 path, where nothing is pending): a plain CRC.
    if (!state->started) return crcfold_update(path, algorithm, state->crc, state->pending + 16, state->pending_count);
#if defined(__x86_64__)
    return crcfold_x86_finish_lanes(state, crcfold_constants_of(algorithm));
#else
    __builtin_trap();
#endif
}

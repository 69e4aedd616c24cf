// The floor of framedump-bench's "decoder h12 64KiB bodies, 1448B segments" row (bodies held):
// the least any decoder that hands out whole frames must do with those segments, without
// framing. The same 256 frames of 65,548 bytes (16 MiB) arrive in 1,448-byte segments; each
// segment's part inside a frame is checksummed with framedump's running fold
// (crcfold_state_update) and the segment is appended to one reused buffer, whose unconsumed tail
// moves to its front when a frame completes, as FrameDecoder's does. The row's ratio is against
// the CRC alone over the same bytes, one call per frame, which this also times.
// Not part of CI; the figures are in docs/performance.md ("Seventh pass").
//
//   clang -O2 -ISources/CCRCFold/include -ISources/CCRCFold scripts/bench-held-floor.c \
//       Sources/CCRCFold/crc_fold.c Sources/CCRCFold/crc_fold_x86.c -o /tmp/held-floor
//   /tmp/held-floor [SEGMENT_BYTES]
//
// Prints the best of 30 repetitions (of 10 passes each) for: the CRC alone; the running CRC
// over the segments; the running CRC and the append (libc's memcpy); the append alone.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "CCRCFold.h"

enum { FRAMES = 256, FRAME_BYTES = 65548, PASSES = 10, REPETITIONS = 30 };
enum mode { CRC_ALONE, RUNNING_CRC, RUNNING_CRC_AND_APPEND, APPEND_ALONE };

static double milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

static uint32_t pass(enum mode mode, const uint8_t *stream, size_t count, size_t segment, uint8_t *buffer, int path) {
    uint32_t sum = 0;
    if (mode == CRC_ALONE) {
        for (size_t frame = 0; frame < FRAMES; frame++) sum += crcfold_update(path, CRCFOLD_CRC32, 0, stream + frame * FRAME_BYTES, FRAME_BYTES);
        return sum;
    }
    crcfold_state state;
    memset(&state, 0, sizeof state);
    size_t buffered = 0, frameEnd = FRAME_BYTES;
    for (size_t offset = 0; offset < count; offset += segment) {
        size_t length = count - offset < segment ? count - offset : segment;
        size_t inFrame = offset + length <= frameEnd ? length : frameEnd - offset;
        if (mode != APPEND_ALONE) crcfold_state_update(path, CRCFOLD_CRC32, &state, stream + offset, inFrame);
        if (mode != RUNNING_CRC) memcpy(buffer + buffered, stream + offset, length);
        buffered += length;
        if (offset + length >= frameEnd) {
            size_t rest = offset + length - frameEnd;
            if (mode != APPEND_ALONE) {
                sum += crcfold_state_finish(path, CRCFOLD_CRC32, &state);
                memset(&state, 0, sizeof state);
                if (rest) crcfold_state_update(path, CRCFOLD_CRC32, &state, stream + frameEnd, rest);
            }
            if (mode != RUNNING_CRC) {
                sum += buffer[buffered / 2];
                memmove(buffer, buffer + buffered - rest, rest);
            }
            buffered = rest;
            frameEnd += FRAME_BYTES;
        }
    }
    return sum;
}

int main(int argc, char **argv) {
    size_t segment = argc > 1 ? strtoul(argv[1], NULL, 10) : 1448;
    if (segment == 0 || segment > 65536) {
        fprintf(stderr, "usage: held-floor [SEGMENT_BYTES (1...65536)]\n");
        return 2;
    }
    size_t count = (size_t)FRAMES * FRAME_BYTES;
    uint8_t *stream = malloc(count), *buffer = malloc(FRAME_BYTES + 65536);
    if (!stream || !buffer) return 1;
    for (size_t i = 0; i < count; i++) stream[i] = (uint8_t)(i * 7 + (i >> 9));
    int path = crcfold_best_path();
    const char *names[] = {"crc alone, one call per frame", "running crc over the segments",
                           "running crc, then append (memcpy)", "append alone (memcpy)"};
    volatile uint32_t sink = 0;
    for (int mode = CRC_ALONE; mode <= APPEND_ALONE; mode++) {
        double best = 1e9;
        for (int repetition = 0; repetition < REPETITIONS; repetition++) {
            double start = milliseconds();
            for (int i = 0; i < PASSES; i++) sink += pass(mode, stream, count, segment, buffer, path);
            double elapsed = (milliseconds() - start) / PASSES;
            if (elapsed < best) best = elapsed;
        }
        printf("%-36s %.3f ms per 16 MiB (%.1f GB/s)\n", names[mode], best, count / best / 1e6);
    }
    return 0;
}

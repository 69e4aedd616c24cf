// The floor of `decode --format h12 --json --payload none` on a capture: the least any program
// doing that job must do, without framing, reassembly or rendering. It maps the capture, walks
// its records, computes one CRC-32 over each packet's TCP payload (framedump's fold, the fastest
// path the CPU has), and writes as many bytes of output as framedump would, in 64 KiB writes.
// Not part of CI; the figures are in docs/performance.md ("The job's floor").
//
//   clang -O2 -ISources/CCRCFold/include -ISources/CCRCFold scripts/bench-e2e-floor.c \
//       Sources/CCRCFold/crc_fold.c Sources/CCRCFold/crc_fold_x86.c -lpthread -o /tmp/floor
//   /tmp/floor MODE CAPTURE OUTPUT OUTPUT_BYTES
//
// MODE: `read` (map, walk and CRC only), `write` (the output only), `both` (one thread, one
// after the other), `two` (the walk on one thread while another writes). Ethernet + IPv4 + TCP
// records in a classic pcap file only (what scripts/bench-e2e records).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "CCRCFold.h"

static const uint8_t *capture;
static size_t captureSize;
static int outputDescriptor;
static size_t outputBytes;
static uint32_t checksum;

static void walk(void) {
    int path = crcfold_best_path();
    uint32_t crc = 0;
    for (size_t offset = 24; offset + 16 <= captureSize;) {
        uint32_t captured;
        memcpy(&captured, capture + offset + 8, 4);
        const uint8_t *packet = capture + offset + 16;
        if (captured > 54 && offset + 16 + captured <= captureSize) {
            size_t ipHeader = (packet[14] & 15) * 4;
            size_t headers = 14 + ipHeader + 13 <= captured ? 14 + ipHeader + (packet[14 + ipHeader + 12] >> 4) * 4 : captured;
            if (headers < captured) crc = crcfold_update(path, 0, crc, packet + headers, captured - headers);
        }
        offset += 16 + captured;
    }
    checksum = crc;
}

static void *writeOutput(void *unused) {
    (void)unused;
    static char block[64 << 10];
    memset(block, 'x', sizeof block);
    for (size_t left = outputBytes; left > 0;) {
        size_t count = left < sizeof block ? left : sizeof block;
        if (write(outputDescriptor, block, count) != (ssize_t)count) { perror("write"); exit(1); }
        left -= count;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s read|write|both|two CAPTURE OUTPUT OUTPUT_BYTES\n", argv[0]); return 2; }
    const char *mode = argv[1];
    int descriptor = open(argv[2], O_RDONLY);
    struct stat status;
    if (descriptor < 0 || fstat(descriptor, &status) != 0) { perror(argv[2]); return 1; }
    captureSize = (size_t)status.st_size;
    capture = mmap(NULL, captureSize, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (capture == MAP_FAILED) { perror("mmap"); return 1; }
    madvise((void *)capture, captureSize, MADV_SEQUENTIAL);
    outputDescriptor = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (outputDescriptor < 0) { perror(argv[3]); return 1; }
    outputBytes = strtoull(argv[4], NULL, 10);
    if (!strcmp(mode, "read")) {
        walk();
    } else if (!strcmp(mode, "write")) {
        writeOutput(NULL);
    } else if (!strcmp(mode, "both")) {
        walk();
        writeOutput(NULL);
    } else if (!strcmp(mode, "two")) {
        pthread_t writer;
        pthread_create(&writer, NULL, writeOutput, NULL);
        walk();
        pthread_join(writer, NULL);
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    printf("%08x\n", checksum);
    return 0;
}

#ifndef FRAMEDUMP_CPCAP_SHIM_H
#define FRAMEDUMP_CPCAP_SHIM_H
#include <pcap/pcap.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * glibc's fopencookie(3), declared here because Swift's Glibc module is built without
 * _GNU_SOURCE and so does not export it. The struct has the layout of glibc's
 * cookie_io_functions_t (four function pointers, in this order) and the asm label binds the
 * declaration to the real `fopencookie` symbol, so no C code is compiled: this stays a
 * header-only system library target.
 *
 * PacketCapture uses it to give libpcap a FILE* that first replays bytes the caller has
 * already read (the 4-byte magic the CLI peeks at on standard input) and then continues
 * with the rest of a file descriptor. The BSDs and macOS have funopen(3) in <stdio.h> instead,
 * which their Swift module exports, so this declaration is glibc's only.
 */
#if defined(__GLIBC__)
typedef struct {
    ssize_t (*read)(void *cookie, char *buffer, size_t size);
    ssize_t (*write)(void *cookie, const char *buffer, size_t size);
    int (*seek)(void *cookie, long long *offset, int whence);
    int (*close)(void *cookie);
} framedump_cookie_io_functions;

extern FILE *framedump_fopencookie(void *cookie, const char *mode,
                                   framedump_cookie_io_functions functions) __asm__("fopencookie");
#endif

/*
 * A hint to load the cache line at `address` ahead of its use (x86 PREFETCHT0, arm64 PRFM
 * PLDL1KEEP), which Swift cannot spell. PacketCapture's mapped reader walks a capture file a
 * record at a time; each record's header is the first touch of its line, a stall per packet
 * that the hardware prefetcher, stopping at page boundaries, does not hide.
 */
static inline void framedump_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif

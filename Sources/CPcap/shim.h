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

#endif

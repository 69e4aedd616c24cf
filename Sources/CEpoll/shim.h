#ifndef FRAMEDUMP_CEPOLL_SHIM_H
#define FRAMEDUMP_CEPOLL_SHIM_H
/*
 * Linux epoll(7), which Swift's Glibc module does not include. Header-only: the functions are
 * glibc's own; the live commands (listen, connect, proxy) run their sockets on it.
 */
#include <sys/epoll.h>
#endif

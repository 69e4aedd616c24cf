#ifndef FRAMEDUMP_CNETWORKNAMESPACE_SHIM_H
#define FRAMEDUMP_CNETWORKNAMESPACE_SHIM_H
/*
 * unshare(2) and setns(2): glibc declares them in <sched.h> only under _GNU_SOURCE, which Swift's
 * Glibc module is built without, so they are declared here as glibc defines them. Header-only:
 * the functions are glibc's own. The live capture tests run in a network namespace of their own
 * (Tests/TestSupport/PrivateNetwork.swift), where no other traffic reaches lo.
 */
int unshare(int flags);
int setns(int fd, int nstype);

/* <linux/sched.h>: the flag that gives the caller a new network namespace. */
#define FRAMEDUMP_CLONE_NEWNET 0x40000000
#endif

/* SPDX-License-Identifier: MIT */
/* tcpstate: is anyone connected to a local TCP port? From the kernel's socket tables
 * (/proc/net/tcp and tcp6 of the caller's network namespace), for a server's supervisor that
 * must not wait for ever on a client that never comes (iops k8s-pod). */
#ifndef IOPS_TCPSTATE_H
#define IOPS_TCPSTATE_H

#include <stdbool.h>
#include <stddef.h>

/* Established connections in the text of /proc/net/tcp (v6 false) or /proc/net/tcp6 (true)
 * whose local port is port and, when addr is not NULL, whose local address is addr (4 bytes,
 * as struct in_addr, or 16, as struct in6_addr). Lines that are not socket entries are skipped. */
unsigned tcpstate_count(const char *text, bool v6, unsigned port, const void *addr);

/* The same over both files of the running system, addr a numeric address ("127.0.0.3",
 * "::1") or NULL for any: the count, or -errno when neither file can be read (or addr is no
 * address: -EINVAL). */
int tcpstate_established(unsigned port, const char *addr);

#endif

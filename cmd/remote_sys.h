/* SPDX-License-Identifier: MIT */
/* remote_sys: what the client and the server ask of the system: sockets from lib/remote's
 * addresses (listen, connect with a bound), the peer's name, and the signal thread of a
 * process forked from the server (the session child, the daemon), which main()'s thread does
 * not follow across fork(). */
#ifndef IOPS_REMOTE_SYS_H
#define IOPS_REMOTE_SYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctl.h"
#include "core/err.h"
#include "remote/addr.h"

/* A listening socket on a (SO_REUSEADDR; a unix socket path must not exist, or be a socket
 * nobody listens on). Returns the fd or -errno with err set. */
int remote_sys_listen(const struct addr *a, struct iops_err *err);
/* Connects to a within timeout_ms, once (every address the name resolves to in turn).
 * Returns the fd or -errno with err set (-EAGAIN: the name did not resolve, yet?). */
int remote_sys_connect(const struct addr *a, int timeout_ms, struct iops_err *err);
/* The peer's address of a connected socket, for logs ("127.0.0.1", "unix"). */
void remote_sys_peer(int fd, char *buf, size_t len);

/* Starts a detached signal thread for this process: SIGINT, SIGTERM and SIGHUP (blocked in
 * every thread, as main() leaves them) become ctl_stop(), SIGCHLD reaps children into
 * ctl_child_exited(). 0 or -errno. */
int remote_sys_sigthread(struct ctl *ctl);

/* A decimal number of 0..max, digits only. 0 or -EINVAL. */
int remote_sys_uint(const char *s, unsigned long long max, unsigned long long *out);

/* Wall clock, ms since the epoch. */
uint64_t remote_sys_epoch_ms(void);

#endif

/* resolve: a host name to one IPv4 address, without libc's resolver (musl's getaddrinfo would
 * cost 12 KB of the binary's budget). In order: a dotted address; /etc/hosts (the first line
 * naming it, case-insensitive); then DNS: an A query over UDP to the nameservers of
 * /etc/resolv.conf, with its search list and ndots (Kubernetes pods: ndots:5 and
 * <ns>.svc.cluster.local ...), bounded retries and timeout. */
#ifndef IOPS_SYS_RESOLVE_H
#define IOPS_SYS_RESOLVE_H

#include <netinet/in.h>

#include "core/err.h"

/* Returns 0 with *addr set (network order), or -errno with ERR set to one line naming HOST
 * (-ENOENT: no such name, -ETIMEDOUT: no nameserver answered). */
int sys_resolve4(const char *host, struct in_addr *addr, struct iops_err *err);

#endif

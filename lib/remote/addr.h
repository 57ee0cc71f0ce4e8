/* SPDX-License-Identifier: MIT */
/* addr: fio's server and client address syntax, parsed (no name resolution here).
 *   --server[=ARGS]  ARGS: "" (every IPv4 address, port 8765), HOST, ",PORT", HOST,PORT,
 *                    ip:HOST[,PORT], ip6:HOST[,PORT], sock:PATH (a unix socket)
 *   --client=HOST[,PORT]  the same forms (HOST required), the host a name or an address. */
#ifndef IOPS_REMOTE_ADDR_H
#define IOPS_REMOTE_ADDR_H

#include <stdbool.h>

#include "core/err.h"

#define ADDR_PORT_DEFAULT	8765
#define ADDR_HOST_MAX		256	/* a DNS name is at most 253 bytes */
#define ADDR_PATH_MAX		108	/* sun_path */

enum addr_family { ADDR_ANY, ADDR_INET, ADDR_INET6, ADDR_UNIX };

struct addr {
	enum addr_family family;	/* ADDR_ANY: a name, resolved to IPv4 or IPv6 */
	char host[ADDR_HOST_MAX];	/* "" = every address (a server only) */
	char path[ADDR_PATH_MAX];	/* ADDR_UNIX */
	unsigned port;
};

/* The --server value (NULL or "": the default). 0 or -EINVAL with err set. */
int addr_parse_server(struct addr *a, const char *spec, struct iops_err *err);
/* One --client value or hosts-file line. 0 or -EINVAL with err set. */
int addr_parse_client(struct addr *a, const char *spec, struct iops_err *err);
/* "host,port", "[v6],port" or "sock:path", for messages. */
void addr_format(const struct addr *a, char *buf, unsigned len);

#endif

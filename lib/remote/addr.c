/* SPDX-License-Identifier: MIT */
/* addr: fio's address syntax (addr.h). */
#include "remote/addr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


static int addr_port(const char *s, unsigned *port, const char *spec, struct iops_err *err)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; s[i] >= '0' && s[i] <= '9' && v <= 65535; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	if (!i || s[i] || v < 1 || v > 65535) {
		iops_err_set(err, EINVAL, "bad port '%s' in '%s' (1 to 65535)", s, spec);
		return -EINVAL;
	}
	*port = (unsigned)v;
	return 0;
}

static bool addr_host_ok(const char *h)
{
	for (; *h; h++)
		if (!(*h >= 'a' && *h <= 'z') && !(*h >= 'A' && *h <= 'Z') && !(*h >= '0' && *h <= '9') &&
		    !strchr(".-_:%", *h))
			return false;
	return true;
}

static int addr_parse(struct addr *a, const char *spec, bool server, struct iops_err *err)
{
	const char *rest = spec, *comma;
	size_t hlen;

	memset(a, 0, sizeof(*a));
	a->port = ADDR_PORT_DEFAULT;
	if (!strncmp(spec, "sock:", 5)) {
		size_t n = strlen(spec + 5);

		if (!n || n >= ADDR_PATH_MAX) {
			iops_err_set(err, EINVAL, "bad unix socket path in '%s' (1 to %d bytes)", spec, ADDR_PATH_MAX - 1);
			return -EINVAL;
		}
		a->family = ADDR_UNIX;
		memcpy(a->path, spec + 5, n + 1);
		a->port = 0;
		return 0;
	}
	if (!strncmp(spec, "ip:", 3)) {
		a->family = ADDR_INET;
		rest += 3;
	} else if (!strncmp(spec, "ip6:", 4)) {
		a->family = ADDR_INET6;
		rest += 4;
	}
	/* ip6 addresses hold ':' but never ','; "[::1],8765" is accepted too */
	comma = strrchr(rest, ',');
	hlen = comma ? (size_t)(comma - rest) : strlen(rest);
	if (hlen >= 2 && rest[0] == '[' && rest[hlen - 1] == ']') {
		rest++;
		hlen -= 2;
	}
	if (hlen >= ADDR_HOST_MAX) {
		iops_err_set(err, EINVAL, "host name too long in '%s' (at most %d bytes)", spec, ADDR_HOST_MAX - 1);
		return -EINVAL;
	}
	memcpy(a->host, rest, hlen);
	a->host[hlen] = '\0';
	if (!addr_host_ok(a->host)) {
		iops_err_set(err, EINVAL, "bad host '%s' in '%s'", a->host, spec);
		return -EINVAL;
	}
	if (!a->host[0] && !server) {
		iops_err_set(err, EINVAL, "no host in '%s' (HOST[,PORT], ip:HOST, ip6:HOST or sock:PATH)", spec);
		return -EINVAL;
	}
	if (a->family == ADDR_INET && strchr(a->host, ':')) {
		iops_err_set(err, EINVAL, "'%s' is not an IPv4 host (ip6:%s?)", a->host, a->host);
		return -EINVAL;
	}
	if (a->family == ADDR_ANY && strchr(a->host, ':'))
		a->family = ADDR_INET6;	/* a bare IPv6 address */
	if (comma && addr_port(comma + 1, &a->port, spec, err))
		return -EINVAL;
	return 0;
}

int addr_parse_server(struct addr *a, const char *spec, struct iops_err *err)
{
	return addr_parse(a, spec ? spec : "", true, err);
}

int addr_parse_client(struct addr *a, const char *spec, struct iops_err *err)
{
	return addr_parse(a, spec, false, err);
}

void addr_format(const struct addr *a, char *buf, unsigned len)
{
	int n;

	if (a->family == ADDR_UNIX)
		n = snprintf(buf, len, "sock:%s", a->path);
	else if (a->family == ADDR_INET6)
		n = snprintf(buf, len, "[%s],%u", a->host[0] ? a->host : "::", a->port);
	else
		n = snprintf(buf, len, "%s,%u", a->host[0] ? a->host : "0.0.0.0", a->port);
	if (n < 0 || (unsigned)n >= len)	/* cut: still NUL-terminated */
		buf[len ? len - 1 : 0] = '\0';
}

/* SPDX-License-Identifier: MIT */
/* tcpstate: established connections to a local port; see tcpstate.h.
 *
 * A line of /proc/net/tcp: "  N: LOCAL REMOTE ST ...", LOCAL as ADDR:PORT in hex. ADDR is the
 * address's 32-bit words as the kernel holds them, each printed as a number (so they read
 * back into the same words on the same machine, whatever its byte order); PORT is in host
 * order; ST 01 is ESTABLISHED. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/tcpstate.h"

#define TCPSTATE_READ_MAX	(4u << 20)	/* a few thousand sockets */

/* count hex digits at s into *out (at most 8): the next character, or NULL when malformed. */
static const char *tcpstate_hex(const char *s, size_t count, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = 0; i < count; i++) {
		char ch = s[i];
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) :
			     ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) : 16;

		if (d == 16)
			return NULL;
		v = v << 4 | d;
	}
	*out = v;
	return s + count;
}

/* One entry: is it established, on port, at addr? */
static bool tcpstate_line(const char *line, bool v6, unsigned port, const void *addr)
{
	uint32_t words[4], lport, rport, st, w;
	const char *p = line + strspn(line, " ");
	size_t nw = v6 ? 4 : 1;

	p += strspn(p, "0123456789");
	if (*p++ != ':')
		return false;
	p += strspn(p, " ");
	for (size_t i = 0; i < nw; i++)
		if (!p || !(p = tcpstate_hex(p, 8, &words[i])))
			return false;
	if (*p++ != ':' || !(p = tcpstate_hex(p, 4, &lport)) || *p++ != ' ')
		return false;
	for (size_t i = 0; i < nw; i++)	/* the remote address: skipped, checked for shape */
		if (!p || !(p = tcpstate_hex(p, 8, &w)))
			return false;
	if (*p++ != ':' || !(p = tcpstate_hex(p, 4, &rport)) || *p++ != ' ' || !tcpstate_hex(p, 2, &st))
		return false;
	return st == 1 && lport == port && (!addr || !memcmp(words, addr, nw * 4));
}

unsigned tcpstate_count(const char *text, bool v6, unsigned port, const void *addr)
{
	unsigned n = 0;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");

		n += tcpstate_line(line, v6, port, addr);
		line += len + (line[len] == '\n');
	}
	return n;
}

/* The file's text (NUL-terminated, heap) or NULL with errno set. */
static char *tcpstate_read(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 65536;
	char *text = fd >= 0 ? malloc(cap) : NULL;
	ssize_t n;

	while (text && (n = read(fd, text + len, cap - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(text);
			text = NULL;
			break;
		}
		len += (size_t)n;
		if (len == cap - 1) {
			char *more = cap < TCPSTATE_READ_MAX ? realloc(text, cap * 2) : NULL;

			if (!more) {
				free(text);
				text = NULL;
				errno = E2BIG;
				break;
			}
			text = more;
			cap *= 2;
		}
	}
	if (text)
		text[len] = '\0';
	if (fd >= 0)
		close(fd);
	return text;
}

int tcpstate_established(unsigned port, const char *addr)
{
	unsigned char a4[4], a6[16];
	bool v4 = addr && inet_pton(AF_INET, addr, a4) == 1, is6 = addr && !v4 && inet_pton(AF_INET6, addr, a6) == 1;
	int total = 0, e = ENOENT, read_ok = 0;

	if (addr && !v4 && !is6)
		return -EINVAL;
	for (int f = 0; f < 2; f++) {
		char *text;

		if ((f == 0 && is6) || (f == 1 && v4))
			continue;
		text = tcpstate_read(f ? "/proc/net/tcp6" : "/proc/net/tcp");
		if (!text) {
			e = errno;
			continue;
		}
		read_ok = 1;
		total += (int)tcpstate_count(text, f == 1, port, !addr ? NULL : f ? (const void *)a6 : (const void *)a4);
		free(text);
	}
	return read_ok ? total : -e;
}

/* SPDX-License-Identifier: MIT */
/* pattern: fio's byte-pattern syntax (pattern.h). */
#include "fio/data/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define PATTERN_PATH_MAX	4096

static int pattern_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int pattern_put(struct pattern_out *out, const unsigned char *b, size_t n)
{
	if (n > out->cap - out->len)
		return -EINVAL;
	memcpy(out->buf + out->len, b, n);
	out->len += (unsigned)n;
	return 0;
}

/* 'file': its first bytes, as many as fit (fio reads at most the pattern size). */
static int pattern_file(struct pattern_out *out, const char *name, size_t n)
{
	char path[PATTERN_PATH_MAX];
	size_t room = out->cap - out->len, got = 0;
	int fd;

	if (n == 0 || n >= sizeof(path) || room == 0)
		return -EINVAL;
	memcpy(path, name, n);
	path[n] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -EINVAL;
	while (got < room) {
		ssize_t r = read(fd, out->buf + out->len + got, room - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got == 0)
		return -EINVAL;
	out->len += (unsigned)got;
	return 0;
}

/* fio 3.33 starts a new number where "0x" begins: 00xdeadbeef is 0, then 0xdeadbeef */
static bool pattern_at_0x(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

static const char *pattern_hex_run(const char *s, struct pattern_out *out)
{
	unsigned char b;
	size_t nd = 0;

	while (pattern_hex(s[nd]) >= 0 && !pattern_at_0x(s + nd))	/* 0xdeadbee0xff: two runs */
		nd++;
	if (nd == 0)
		return NULL;
	for (size_t k = 0; k < nd;) {
		int v = 0;

		if (k > 0 || nd % 2 == 0)
			v = pattern_hex(s[k++]) << 4;
		v |= pattern_hex(s[k++]);
		b = (unsigned char)v;
		if (pattern_put(out, &b, 1))
			return NULL;
	}
	return s + nd;
}

static const char *pattern_int(const char *s, struct pattern_out *out)
{
	unsigned char le[4];
	const char *digits;
	bool neg;
	int64_t v = 0;
	uint32_t u;
	size_t n = 1;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))	/* a number may follow spaces (strtol's) */
		s++;
	neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	digits = s;
	for (; *s >= '0' && *s <= '9' && (s == digits || !pattern_at_0x(s)); s++) {
		v = v * 10 + (*s - '0');
		if (v > 2147483648ll)
			return NULL;
	}
	if (s == digits)
		return NULL;
	if (neg)
		v = -v;
	if (v > 2147483647ll)
		return NULL;
	u = (uint32_t)v;
	while (n < 4 && (u >> (8 * n)))
		n++;
	for (size_t i = 0; i < 4; i++)
		le[i] = (unsigned char)(u >> (8 * i));
	return pattern_put(out, le, n) ? NULL : s;
}

int pattern_parse(const char *s, struct pattern_out *out)
{
	static const unsigned char zero8[8];

	out->len = 0;
	out->nr_o = 0;
	if (!*s)
		return -EINVAL;
	/* elements follow each other without separators; a number may follow spaces, nothing
	 * else may (1 2 is two numbers, 1 0x2 and a trailing space are refused, as fio 3.33) */
	while (*s) {
		if (*s == '"' || *s == '\'') {
			const char *e = strchr(s + 1, *s);
			size_t n;

			if (!e || e == s + 1)
				return -EINVAL;
			n = (size_t)(e - s - 1);
			if (*s == '"' ? pattern_put(out, (const unsigned char *)s + 1, n) : pattern_file(out, s + 1, n))
				return -EINVAL;
			s = e + 1;
		} else if (s[0] == '%' && s[1] == 'o') {
			if (!out->o_pos || out->nr_o >= out->o_cap)
				return -EINVAL;
			out->o_pos[out->nr_o++] = (unsigned short)out->len;
			if (pattern_put(out, zero8, sizeof(zero8)))
				return -EINVAL;
			s += 2;
		} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s = pattern_hex_run(s + 2, out);
		} else {
			s = pattern_int(s, out);
		}
		if (!s)
			return -EINVAL;
	}
	return 0;
}

void pattern_repeat(void *dst, size_t len, const unsigned char *pat, unsigned pat_len)
{
	unsigned char *p = dst;
	size_t done;

	if (!len)
		return;
	if (!pat_len) {
		memset(p, 0, len);
		return;
	}
	done = pat_len < len ? pat_len : len;
	memcpy(p, pat, done);
	while (done < len) {	/* double what is there */
		size_t n = done < len - done ? done : len - done;

		memcpy(p + done, p, n);
		done += n;
	}
}

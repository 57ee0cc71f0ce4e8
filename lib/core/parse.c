/* SPDX-License-Identifier: MIT */
#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int parse_strip(const char *s, char *out, size_t n)
{
	size_t len;

	while (is_blank(*s))
		s++;
	len = strlen(s);
	while (len && is_blank(s[len - 1]))
		len--;
	if (len >= n)
		return -ENAMETOOLONG;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

/* Multiply with overflow detection. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return -ERANGE;
	*out = a * b;
	return 0;
}

static uint64_t ipow(uint64_t base, unsigned exp)
{
	uint64_t v = 1;

	while (exp--)
		v *= base;	/* exp <= 6: 1024^6 = 2^60 fits */
	return v;
}

uint64_t parse_suffix_mult(const char *sfx, unsigned kb_base)
{
	static const char prefixes[] = "kmgtpe";
	const char *p;
	unsigned other = kb_base == 1000 ? 1024 : 1000;
	char c = (char)tolower((unsigned char)sfx[0]);

	if (!c)
		return 1;
	p = strchr(prefixes, c);
	if (!p)
		return 1;	/* b, B, or anything unknown: bytes */
	/* "kib", "MiB": the IEC spelling takes the other base (fio's compatibility rule) */
	if (tolower((unsigned char)sfx[1]) == 'i' && tolower((unsigned char)sfx[2]) == 'b')
		return ipow(other, (unsigned)(p - prefixes) + 1);
	return ipow(kb_base, (unsigned)(p - prefixes) + 1);
}

/* Digits of s (decimal, or hex after 0x) into *out; *end after them. */
static int parse_digits(const char *s, uint64_t *out, const char **end, bool *hex)
{
	uint64_t v = 0;
	unsigned base = 10;
	const char *p = s;

	*hex = false;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
		*hex = true;
	}
	if (!isxdigit((unsigned char)*p) || (base == 10 && !isdigit((unsigned char)*p)))
		return -EINVAL;
	for (; *p; p++) {
		unsigned d;

		if (isdigit((unsigned char)*p))
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	*end = p;
	return 0;
}

/* Core: unsigned number with suffix; s already stripped. */
static int size_core(const char *s, unsigned kb_base, uint64_t *out)
{
	const char *end;
	uint64_t v, mult;
	bool hex;
	int ret;

	if (kb_base != 1000)
		kb_base = 1024;
	ret = parse_digits(s, &v, &end, &hex);
	if (ret)
		return ret;
	if (*end == '.')
		return -EINVAL;	/* fio truncates 1.5k to 1 byte; we refuse the surprise */
	if (hex) {
		*out = v;	/* fio ignores a suffix after a hex number */
		return 0;
	}
	mult = parse_suffix_mult(end, kb_base);
	ret = mul_u64(v, mult, &v);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	char buf[128];
	uint64_t v;
	int ret;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	if (strchr(buf, '%'))
		return -EINVAL;
	ret = size_core(buf, kb_base, &v);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct)
{
	char buf[128];
	size_t len;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	len = strlen(buf);
	if (len && buf[len - 1] == '%') {
		const char *end;
		uint64_t v;
		bool hex;
		int ret;

		buf[len - 1] = '\0';
		ret = parse_digits(buf, &v, &end, &hex);
		if (ret)
			return ret;
		if (*end || hex)
			return -EINVAL;
		if (v == 0 || v > 100)
			return -ERANGE;
		*pct = (unsigned)v;
		*out = 0;
		return 0;
	}
	*pct = 0;
	return parse_size(buf, kb_base, out);
}

int parse_int(const char *s, unsigned kb_base, int64_t *out)
{
	char buf[128];
	uint64_t v;
	bool neg = false;
	const char *p = buf;
	int ret;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	if (*p == '-') {
		neg = true;
		p++;
	} else if (*p == '+') {
		p++;
	}
	ret = size_core(p, kb_base, &v);
	if (ret)
		return ret;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return -ERANGE;
		*out = (int64_t)v;
	}
	return 0;
}

struct time_unit {
	char name[8];
	uint64_t ns;
};

static const struct time_unit time_units[] = {
	{ "us", 1000ull }, { "usec", 1000ull },
	{ "ms", 1000000ull }, { "msec", 1000000ull },
	{ "s", 1000000000ull }, { "sec", 1000000000ull },
	{ "m", 60000000000ull }, { "min", 60000000000ull },
	{ "h", 3600000000000ull }, { "hour", 3600000000000ull },
	{ "d", 86400000000000ull }, { "day", 86400000000000ull },
};

int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out_ns)
{
	char buf[128];
	const char *end;
	uint64_t v, unit = default_unit_ns;
	bool hex;
	int ret;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	ret = parse_digits(buf, &v, &end, &hex);
	if (ret)
		return ret;
	if (*end) {
		size_t i;

		if (hex)
			return -EINVAL;
		for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
			if (!strcasecmp(end, time_units[i].name))
				break;
		if (i == sizeof(time_units) / sizeof(time_units[0]))
			return -EINVAL;
		unit = time_units[i].ns;
	}
	ret = mul_u64(v, unit, &v);
	if (ret)
		return ret;
	*out_ns = v;
	return 0;
}

int parse_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi)
{
	char buf[128];
	char *sep;
	uint64_t a, b;
	int ret;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	sep = strchr(buf, '-');
	if (!sep)
		sep = strchr(buf, ':');
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	ret = parse_size(buf, kb_base, &a);
	if (ret)
		return ret;
	ret = parse_size(sep + 1, kb_base, &b);
	if (ret)
		return ret;
	if (a > b)
		return -ERANGE;	/* fio swaps "8k-4k"; iops refuses it */
	*lo = a;
	*hi = b;
	return 0;
}

int parse_dir_list(const char *s, char parts[3][PARSE_DIR_PART_MAX], bool present[3])
{
	const char *p = s;
	int n = 0;
	size_t len = strlen(s);
	bool trailing_comma = len && s[len - 1] == ',';

	for (int i = 0; i < 3; i++) {
		parts[i][0] = '\0';
		present[i] = false;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		char tmp[PARSE_DIR_PART_MAX];

		if (n == 3) {
			/* "a,b,c," is fine; a fourth element is not */
			if (l == 0 && !comma)
				break;
			return -EINVAL;
		}
		if (l >= sizeof(tmp))
			return -EINVAL;
		memcpy(tmp, p, l);
		tmp[l] = '\0';
		if (parse_strip(tmp, parts[n], PARSE_DIR_PART_MAX))
			return -EINVAL;
		present[n] = parts[n][0] != '\0';
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!trailing_comma && n < 3 && present[n - 1]) {
		for (int i = n; i < 3; i++) {
			memcpy(parts[i], parts[n - 1], PARSE_DIR_PART_MAX);
			present[i] = true;
		}
		n = 3;
	}
	return n;
}

int parse_float_list(const char *s, double *vals, unsigned max, unsigned *nr,
		     unsigned *precision, double lo, double hi, double *bad)
{
	const char *p = s;
	unsigned n = 0, prec = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return -EINVAL;
	for (;;) {
		char tmp[64];
		const char *colon = strchr(p, ':');
		size_t l = colon ? (size_t)(colon - p) : strlen(p);
		char *end;
		const char *dot;
		double v;

		if (l == 0 || l >= sizeof(tmp))
			return -EINVAL;
		memcpy(tmp, p, l);
		tmp[l] = '\0';
		{
			char stripped[64];

			if (parse_strip(tmp, stripped, sizeof(stripped)))
				return -EINVAL;
			memcpy(tmp, stripped, sizeof(stripped));
		}
		/* digits with an optional fraction only: no nan/inf/exponents/hex */
		for (const char *c = tmp; *c; c++)
			if (!isdigit((unsigned char)*c) && *c != '.' && !(c == tmp && (*c == '-' || *c == '+')))
				return -EINVAL;
		errno = 0;
		v = strtod(tmp, &end);
		if (end == tmp || *end || errno || !isfinite(v))
			return -EINVAL;
		if (v < lo || v > hi) {
			if (bad)
				*bad = v;
			return -ERANGE;
		}
		if (n >= max)
			return -E2BIG;
		dot = strchr(tmp, '.');
		if (dot) {
			unsigned d = (unsigned)strlen(dot + 1);

			if (d > prec)
				prec = d;
		}
		vals[n++] = v;
		if (!colon)
			break;
		p = colon + 1;
	}
	*nr = n;
	*precision = prec;
	return 0;
}

int parse_flag(const char *s, bool *out, int64_t *ival)
{
	char buf[64];
	int64_t v;
	int ret;

	if (parse_strip(s, buf, sizeof(buf)))
		return -EINVAL;
	if (!buf[0]) {
		*out = true;
		*ival = 1;
		return 0;
	}
	ret = parse_int(buf, 1024, &v);
	if (ret)
		return ret;
	*ival = v;
	*out = v != 0;
	return 0;
}

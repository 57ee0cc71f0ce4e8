/* SPDX-License-Identifier: MIT */
#include "fio/optval.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const ptype_names[OPTVAL_NR] = {
	[OPTVAL_STR_STORE] = "OPT_STR_STORE", [OPTVAL_STR] = "OPT_STR", [OPTVAL_STR_MULTI] = "OPT_STR_MULTI",
	[OPTVAL_STR_ULL] = "OPT_STR_ULL", [OPTVAL_STR_SET] = "OPT_STR_SET", [OPTVAL_BOOL] = "OPT_BOOL",
	[OPTVAL_INT] = "OPT_INT", [OPTVAL_ULL] = "OPT_ULL", [OPTVAL_STR_VAL] = "OPT_STR_VAL",
	[OPTVAL_STR_VAL_ZONE] = "OPT_STR_VAL_ZONE", [OPTVAL_STR_VAL_TIME] = "OPT_STR_VAL_TIME",
	[OPTVAL_RANGE] = "OPT_RANGE", [OPTVAL_FLOAT_LIST] = "OPT_FLOAT_LIST",
};

const char *optval_ptype_name(enum optval_ptype t)
{
	return (unsigned)t < OPTVAL_NR ? ptype_names[t] : "OPT_UNSUPPORTED";
}

bool optval_is_number(enum optval_ptype t)
{
	switch (t) {
	case OPTVAL_STR_SET:
	case OPTVAL_BOOL:
	case OPTVAL_INT:
	case OPTVAL_ULL:
	case OPTVAL_STR_VAL:
	case OPTVAL_STR_VAL_ZONE:
	case OPTVAL_STR_VAL_TIME:
		return true;
	default:
		return false;
	}
}

unsigned optval_split(enum optval_ptype t, const char *val, size_t *off, size_t *len, bool *more, unsigned max)
{
	size_t total, pos = 0;
	unsigned n = 0;
	bool commas_only = t == OPTVAL_RANGE || t == OPTVAL_STR_MULTI;
	bool whole = t == OPTVAL_STR_STORE || t == OPTVAL_STR || t == OPTVAL_STR_ULL;

	if (!val || !max)
		return 0;
	total = strlen(val);
	for (;;) {
		const char *p = val + pos, *next;

		off[n] = pos;
		len[n] = total - pos;
		more[n] = false;
		n++;
		if (whole)
			break;
		if (t == OPTVAL_FLOAT_LIST) {
			next = strchr(p, ':');
		} else {
			next = strchr(p, ',');
			if (next && (size_t)(next - val) == total - 1)
				len[n - 1] = total - 1 - pos;	/* fio cuts a ',' at the very end off */
			if (!next && !commas_only) {
				next = strchr(p, ':');
				if (!next)
					next = strchr(p, '-');
			}
		}
		if (!next || n == max)
			break;
		more[n - 1] = true;
		pos = (size_t)(next - val) + 1;
	}
	return n;
}

/* The multiplier of a size's suffix, by fio's get_mult_bytes(): after the digits (and the signs
 * before the first digit: "1-k" is 1), a letter (or '%') must follow at once; k m g t p are
 * powers of kb_base, their "...ib" spelling powers of the other base; any other letter is x1.
 * A text of one character has no suffix. */
static uint64_t mult_bytes(const char *s, unsigned kb_base, bool *pct)
{
	static const char prefixes[] = "kmgtp";
	const char *p = s, *w;
	unsigned other = kb_base == 1000 ? 1024 : 1000, base = kb_base == 1000 ? 1000 : 1024;
	uint64_t m = 1;
	bool digit = false;

	*pct = false;
	if (strlen(s) < 2)
		return 1;
	while (isdigit((unsigned char)*p) || (!digit && (*p == '+' || *p == '-')))
		digit |= isdigit((unsigned char)*p++) != 0;
	if (*p == '%') {
		*pct = true;
		return 1;
	}
	if (!isalpha((unsigned char)*p))
		return 1;
	w = strchr(prefixes, tolower((unsigned char)*p));
	if (!w)
		return 1;
	if (tolower((unsigned char)p[1]) == 'i' && tolower((unsigned char)p[2]) == 'b')
		base = other;
	for (long i = 0; i <= w - prefixes; i++)
		m *= base;
	return m;
}

/* strtoll as fio's str_to_decimal() calls it; 0 or 1 (no digits, or the top overflow). */
static int decimal_core(const char *s, int64_t *v)
{
	int base = strstr(s, "0x") || strstr(s, "0X") ? 16 : 10;
	char *end;
	long long x;

	if (!*s)
		return 1;	/* *v left as it was */
	errno = 0;
	x = strtoll(s, &end, base);
	*v = (int64_t)x;
	if (x == 0 && end == s)
		return 1;
	if (x == LLONG_MAX && errno == ERANGE)
		return 1;
	return 0;
}

/* s up to its first ',' (at most 127 characters, as fio's copy of it) into buf[128]. */
static void part_text(const char *s, char *buf)
{
	size_t n = strcspn(s, ",");

	if (n > 127)
		n = 127;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

int optval_decimal(const char *s, unsigned kb_base, int64_t *v)
{
	char buf[128];
	uint64_t m;
	bool pct;

	part_text(s, buf);
	if (decimal_core(buf, v))
		return 1;
	m = mult_bytes(buf, kb_base, &pct);
	if (pct)
		*v = (int64_t)(UINT64_MAX - (uint64_t)*v);
	else
		*v = (int64_t)((uint64_t)*v * m);	/* fio's product wraps */
	return 0;
}

/* fio's unit of a time: the text after the leading digits and signs. Not a letter there ("1.5ms",
 * "1 s", "10"): the option's own unit. Else "ms..." and "us..." by their first two letters, "s",
 * "m", "h", "d" whole, and anything else ("sec", "min", "e3ms") counts as microseconds. */
static uint64_t time_mult(const char *s, bool seconds)
{
	static const struct { const char *unit; uint64_t us; } whole[] = {
		{ "s", 1000000 }, { "m", 60000000ull }, { "h", 3600000000ull }, { "d", 86400000000ull },
	};
	char u[128];
	size_t n = 0;

	while (isdigit((unsigned char)*s) || *s == '+' || *s == '-')
		s++;
	if (!isalpha((unsigned char)*s))
		return seconds ? 1000000 : 1;
	for (; s[n] && n < sizeof(u) - 1; n++)
		u[n] = (char)tolower((unsigned char)s[n]);
	u[n] = '\0';
	if (!strncmp(u, "ms", 2))
		return 1000;
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		if (!strcmp(u, whole[i].unit))
			return whole[i].us;
	return 1;	/* "us", "usec" and the words fio does not know */
}

int optval_time(const char *s, bool seconds, int64_t *v)
{
	char buf[128];

	part_text(s, buf);
	if (decimal_core(buf, v))
		return 1;
	*v = (int64_t)((uint64_t)*v * time_mult(buf, seconds));
	return 0;
}

int optval_int(const char *s, int *v)
{
	bool hex = strstr(s, "0x") || strstr(s, "0X");
	char *end;
	unsigned long x;

	if (!*s)
		return 1;
	x = strtoul(s, &end, hex ? 16 : 10);
	if (end == s)
		return 1;
	*v = (int)(unsigned)x;
	return 0;
}

int optval_float(const char *s, double *v, size_t *used)
{
	const char *h = s;
	char *end;

	while (*h == ' ' || (*h >= '\t' && *h <= '\r'))
		h++;
	if (*h == '+' || *h == '-')
		h++;
	/* "0x" with no hex digit after it: fio 3.33 refuses it (strtod reads the 0) */
	if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X') && !isxdigit((unsigned char)h[2]) &&
	    !(h[2] == '.' && isxdigit((unsigned char)h[3]))) {
		*v = 0;
		*used = 0;
		return 1;
	}
	*v = strtod(s, &end);
	*used = (size_t)(end - s);
	return end == s;
}

bool optval_word_match(const char *word, const char *val)
{
	const char *cut = strchr(val, ',');
	size_t n;

	if (!cut)
		cut = strchr(val, ':');
	n = cut ? (size_t)(cut - val) : strlen(val);
	return n == strlen(word) && !strncmp(word, val, n);
}

bool optval_zone_suffix(const char *part, size_t len)
{
	return len && part[len - 1] == 'z';
}

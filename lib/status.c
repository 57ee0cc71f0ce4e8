#include "status.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <strings.h>

static const struct {
	const char *name;
	uint64_t us;
} status_units[] = {
	{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 }, { "s", 1000000 },
	{ "sec", 1000000 }, { "m", 60000000 }, { "min", 60000000 }, { "h", 3600000000ull },
	{ "hour", 3600000000ull }, { "d", 86400000000ull }, { "day", 86400000000ull },
};

/* Unit of the suffix in microseconds; "" = seconds; unknown = 1 (fio keeps the number). */
static uint64_t status_unit_us(const char *sfx)
{
	char buf[8];
	size_t n = 0;

	while (*sfx == ' ' || *sfx == '\t')
		sfx++;
	while (sfx[n] && sfx[n] != ' ' && sfx[n] != '\t' && n < sizeof(buf) - 1) {
		buf[n] = sfx[n];
		n++;
	}
	buf[n] = '\0';
	if (!n)
		return 1000000;
	for (const char *t = sfx + n; *t; t++)
		if (*t != ' ' && *t != '\t')
			return 1;
	for (size_t i = 0; i < sizeof(status_units) / sizeof(status_units[0]); i++)
		if (!strcasecmp(buf, status_units[i].name))
			return status_units[i].us;
	return 1;
}

int status_parse_interval(const char *val, uint64_t *ns)
{
	const char *p = val;
	uint64_t ip = 0, unit, us, frac_us = 0, scale = 1;
	bool neg = false;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		uint64_t f = 0;

		for (p++; isdigit((unsigned char)*p); p++)
			if (scale < 1000000000000ull) {	/* finer than that cannot matter */
				f = f * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
		unit = status_unit_us(p);
		frac_us = (uint64_t)((double)f / (double)scale * (double)unit);
	} else {
		unit = status_unit_us(p);
	}
	if (ip > UINT64_MAX / 1000 / unit)
		return -EINVAL;
	us = ip * unit + frac_us;
	if (neg && us)
		return -ERANGE;
	if (us < 1000)
		return -ERANGE;
	*ns = us / 1000 * 1000000;	/* whole milliseconds, as fio */
	return 0;
}

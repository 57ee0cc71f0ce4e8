/* SPDX-License-Identifier: MIT */
#include "fio/progress/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <strings.h>

#include "core/parse.h"

/* Unit of the suffix in microseconds: "" = seconds, a time unit parse_time_ns() knows, or
 * 1 for anything else (fio keeps the number as it is). */
static uint64_t status_unit_us(const char *sfx)
{
	char buf[16] = "1";
	size_t n = 1;
	uint64_t ns;

	for (; *sfx && n < sizeof(buf) - 1; sfx++)
		if (*sfx != ' ' && *sfx != '\t')
			buf[n++] = *sfx;
	if (*sfx)
		return 1;
	buf[n] = '\0';
	if (parse_time_ns(buf, 1000000000ull, &ns) || ns < 1000)
		return 1;
	return ns / 1000;
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

/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_fmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

struct fmt_unit {
	char name[8];
	int64_t mul;
};

static const struct fmt_unit fmt_time[] = {
	{ "hour", 3600000000000ll }, { "min", 60000000000ll }, { "s", 1000000000ll },
	{ "ms", 1000000ll }, { "us", 1000ll }, { "ns", 1 },
};

static const struct fmt_unit fmt_size[] = {
	{ "PiB", 1ll << 50 }, { "TiB", 1ll << 40 }, { "GiB", 1ll << 30 },
	{ "MiB", 1ll << 20 }, { "KiB", 1ll << 10 }, { "B", 1 },
};

static const struct fmt_unit fmt_count[] = {
	{ "T", 1000000000000ll }, { "G", 1000000000ll }, { "M", 1000000ll },
	{ "k", 1000ll }, { "", 1 },
};

int64_t ioping_fmt_to_i64(double v)
{
	if (isnan(v) || v >= 9223372036854775808.0 || v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

int ioping_fmt_suffix(char *buf, size_t len, int64_t val, enum ioping_fmt_unit unit)
{
	const struct fmt_unit *tab;
	size_t nr, i;
	int dec, ret;

	switch (unit) {
	case IOPING_FMT_TIME:
		tab = fmt_time, nr = sizeof(fmt_time) / sizeof(fmt_time[0]);
		break;
	case IOPING_FMT_SIZE:
		tab = fmt_size, nr = sizeof(fmt_size) / sizeof(fmt_size[0]);
		break;
	default:
		tab = fmt_count, nr = sizeof(fmt_count) / sizeof(fmt_count[0]);
		break;
	}
	for (i = 0; i + 1 < nr; i++)
		if (val >= tab[i].mul)
			break;
	if (val % tab[i].mul == 0)
		dec = 0;
	else if (val >= 10 * tab[i].mul)
		dec = 1;
	else
		dec = 2;
	ret = snprintf(buf, len, "%.*f%s%s", dec, (double)val / (double)tab[i].mul,
		       tab[i].name[0] ? " " : "", tab[i].name);
	if (ret < 0)
		return -EINVAL;
	if ((size_t)ret >= len)
		return -ENOSPC;
	return ret;
}

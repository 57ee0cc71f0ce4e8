/* SPDX-License-Identifier: MIT */
#include "core/num2str.h"

#include <stdio.h>
#include <string.h>

#define N2S_PREFIX_NR	7

unsigned num2str_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

char *num2str(char *buf, uint64_t num, unsigned maxlen, unsigned base, bool pow2,
	      enum n2s_unit unit)
{
	static const char prefixes[2][N2S_PREFIX_NR][3] = {	/* SI, IEC */
		{ "", "k", "M", "G", "T", "P", "E" }, { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" },
	};
	static const char units[][6] = { "", "/s", "B", "bit", "B/s", "bit/s" };
	const char (*prefix)[3] = prefixes[pow2];
	const unsigned thousand = pow2 ? 1024u : 1000u;
	const char *ustr = (unsigned)unit < sizeof(units) / sizeof(units[0]) ? units[unit] : "";
	unsigned idx = 0, modulo = 0, len, decimals;
	bool divided = false, carry = false;
	char frac[32];
	int rc;

	if (maxlen == 0)
		maxlen = 1;
	for (unsigned b = base; b > 1 && idx < N2S_PREFIX_NR - 1; idx++)
		b /= thousand;
	if (unit == N2S_BIT || unit == N2S_BITPERSEC)
		num = num > UINT64_MAX / 8 ? UINT64_MAX : num * 8;

	/* Divide by k/Ki until the decimal string fits in maxlen digits (truncating). */
	while (idx < N2S_PREFIX_NR - 1 && num2str_digits(num) > maxlen) {
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		divided = true;
		idx++;
	}

	len = num2str_digits(num);
	if (!divided || len + 1 >= maxlen) {
		if (divided && carry)
			num++;
		snprintf(buf, N2S_BUF_LEN, "%llu%s%s", (unsigned long long)num, prefix[idx], ustr);
		return buf;
	}

	/* Decimals come from the last remainder only; "0.x" may round up to "1.0". */
	decimals = maxlen - len - 1;
	rc = snprintf(frac, sizeof(frac), "%.*f", (int)decimals, (double)modulo / (double)thousand);
	if (rc < 3 || (size_t)rc >= sizeof(frac)) {	/* cannot happen: decimals <= 19 */
		snprintf(buf, N2S_BUF_LEN, "%llu%s%s", (unsigned long long)num, prefix[idx], ustr);
		return buf;
	}
	if (frac[0] == '1')
		num++;
	snprintf(buf, N2S_BUF_LEN, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[idx],
		 ustr);
	return buf;
}

enum n2s_unit num2str_rate_unit(unsigned unit_base)
{
	return unit_base == 1 ? N2S_BITPERSEC : N2S_BYTEPERSEC;
}

unsigned num2str_lat_scale(uint64_t min_ns, uint64_t max_ns, double stdev_ns)
{
	if (min_ns > 2000000 && max_ns > 99999999ull && stdev_ns > 1000000.0)
		return 2;
	if (min_ns > 2000 && max_ns > 99999 && stdev_ns > 1000.0)
		return 1;
	return 0;
}

unsigned num2str_pct_scale(uint64_t minv_ns, uint64_t maxv_ns)
{
	if (minv_ns > 2000000 && maxv_ns > 99999999ull)
		return 2;
	if (minv_ns > 2000 && maxv_ns > 99999)
		return 1;
	return 0;
}

const char *num2str_scale_name(unsigned scale)
{
	static const char names[][5] = { "nsec", "usec", "msec" };

	return scale < 3 ? names[scale] : names[0];
}

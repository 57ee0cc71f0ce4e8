/* SPDX-License-Identifier: MIT */
/* num2str: fio 3.33's human-readable number scaling (num2str(), display_lat()).
 *
 * Same significant-figure rule, same truncating division loop with the last remainder as the
 * only source of decimals ("carry rounding error" included), so 4194304 bytes print 4096KiB
 * and 5617123 IOPS print 5617k, exactly like fio. */
#ifndef IOPS_NUM2STR_H
#define IOPS_NUM2STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Output unit suffixes, numbered as fio's enum n2s_unit (unit_base stores these values). */
enum n2s_unit {
	N2S_NONE = 0,		/* "" */
	N2S_PERSEC = 1,		/* "/s" */
	N2S_BYTE = 2,		/* "B" */
	N2S_BIT = 3,		/* "bit", value multiplied by 8 */
	N2S_BYTEPERSEC = 4,	/* "B/s" */
	N2S_BITPERSEC = 5,	/* "bit/s", value multiplied by 8 */
};

#define N2S_BUF_LEN	48	/* always enough for any uint64_t, prefix and unit */

/* Format num into buf (at least N2S_BUF_LEN bytes) and return buf.
 * maxlen: significant figures (1..20; 0 is treated as 1); base: unit of num (1 = plain,
 * 1024 or 1000 = num is already in kilo-units); pow2: 1024 and Ki/Mi/... instead of 1000 and
 * k/M/...; unit: suffix. */
char *num2str(char *buf, uint64_t num, unsigned maxlen, unsigned base, bool pow2,
	      enum n2s_unit unit);

/* Number of decimal digits of v (1 for 0). */
unsigned num2str_digits(uint64_t v);

/* Map job->unit_base (0 = auto, 8 = bytes, 1 = bits) to the per-second unit fio prints. */
enum n2s_unit num2str_rate_unit(unsigned unit_base);

/* fio's latency unit choice for one stat line: 2 = msec, 1 = usec, 0 = nsec. */
unsigned num2str_lat_scale(uint64_t min_ns, uint64_t max_ns, double stdev_ns);

/* The unit choice for a percentile block: from the smallest/largest percentile value. */
unsigned num2str_pct_scale(uint64_t minv_ns, uint64_t maxv_ns);

/* "nsec", "usec", "msec" for a scale from the two functions above. */
const char *num2str_scale_name(unsigned scale);

#endif

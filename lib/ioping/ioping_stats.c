/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_stats.h"

#include <math.h>
#include <string.h>

/* More valid requests than this in the accumulator before fast/slow marks are given. */
#define IOPING_NOTICE_MIN_VALID	5

void ioping_stats_init(struct ioping_stats *st)
{
	memset(st, 0, sizeof(*st));
}

static int64_t dtoi64(double v)
{
	if (isnan(v) || v >= 9223372036854775808.0 || v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

enum ioping_notice ioping_stats_add(struct ioping_stats *st, const struct ioping_limits *lim,
				    int64_t request, int64_t time_ns)
{
	double t = (double)time_ns;
	int64_t avg;

	st->nr_count++;
	if (request <= lim->warmup)
		return IOPING_NOTICE_WARMUP;
	if (time_ns < lim->min_time_ns) {
		st->nr_too_fast++;
		return IOPING_NOTICE_TOO_FAST;
	}
	if (time_ns > lim->max_time_ns) {
		st->nr_too_slow++;
		return IOPING_NOTICE_TOO_SLOW;
	}
	if (!st->nr_valid || time_ns < st->min_ns)
		st->min_ns = time_ns;
	if (!st->nr_valid || time_ns > st->max_ns)
		st->max_ns = time_ns;
	st->nr_valid++;
	st->sum_ns += t;
	st->sum2 += t * t;
	if (st->nr_valid <= IOPING_NOTICE_MIN_VALID)
		return IOPING_NOTICE_NONE;
	avg = dtoi64(st->sum_ns / (double)st->nr_valid);
	/* Compare in double: time*2 and avg*2 may not fit in int64 for absurd times. */
	if (2.0 * t < (double)avg)
		return IOPING_NOTICE_FAST;
	if (t > 2.0 * (double)avg)
		return IOPING_NOTICE_SLOW;
	return IOPING_NOTICE_NONE;
}

void ioping_stats_merge(struct ioping_stats *dst, const struct ioping_stats *src)
{
	if (src->nr_valid) {
		if (!dst->nr_valid || src->min_ns < dst->min_ns)
			dst->min_ns = src->min_ns;
		if (!dst->nr_valid || src->max_ns > dst->max_ns)
			dst->max_ns = src->max_ns;
	}
	dst->nr_count += src->nr_count;
	dst->nr_valid += src->nr_valid;
	dst->nr_too_fast += src->nr_too_fast;
	dst->nr_too_slow += src->nr_too_slow;
	dst->sum_ns += src->sum_ns;
	dst->sum2 += src->sum2;
}

void ioping_stats_summary(const struct ioping_stats *st, uint64_t size_bytes, uint64_t load_ns,
			  struct ioping_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->nr_valid = st->nr_valid;
	out->nr_count = st->nr_count;
	out->nr_too_fast = st->nr_too_fast;
	out->nr_too_slow = st->nr_too_slow;
	out->valid_bytes = st->nr_valid * size_bytes;
	out->count_bytes = st->nr_count * size_bytes;
	out->load_ns = load_ns;
	if (st->nr_valid) {
		double n = (double)st->nr_valid;

		out->sum_ns = st->sum_ns;
		out->avg_ns = st->sum_ns / n;
		out->mdev_ns = sqrt(st->sum2 / n - out->avg_ns * out->avg_ns);
		out->min_ns = st->min_ns;
		out->max_ns = st->max_ns;
		out->iops = st->sum_ns > 0 ? 1e9 * n / st->sum_ns : 0;
		out->bytes_per_s = out->iops * (double)size_bytes;
	}
	if (load_ns) {
		out->load_iops = 1e9 * (double)st->nr_count / (double)load_ns;
		out->load_bytes_per_s = out->load_iops * (double)size_bytes;
	}
}

const char *ioping_notice_name(enum ioping_notice n)
{
	switch (n) {
	case IOPING_NOTICE_WARMUP: return "warmup";
	case IOPING_NOTICE_TOO_FAST: return "too fast";
	case IOPING_NOTICE_TOO_SLOW: return "too slow";
	case IOPING_NOTICE_FAST: return "fast";
	case IOPING_NOTICE_SLOW: return "slow";
	case IOPING_NOTICE_EAGAIN: return "EAGAIN";
	default: return NULL;
	}
}

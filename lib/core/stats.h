/* SPDX-License-Identifier: MIT */
/* stats: min/max/mean/variance accumulators (Welford), and their merges.
 * lat_stat_add() is in the I/O hot path: inline, no branches beyond min/max. */
#ifndef IOPS_STATS_H
#define IOPS_STATS_H

#include <stdint.h>

struct lat_stat {
	uint64_t n;		/* samples */
	uint64_t min, max;	/* exact; both 0 when n == 0 */
	double mean;
	double m2;		/* sum of squared deviations (Welford's S) */
};

static inline void lat_stat_add(struct lat_stat *s, uint64_t v)
{
	double x = (double)v, delta = x - s->mean;

	if (s->n == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (x - s->mean);
}

/* Sample standard deviation sqrt(S/(n-1)); 0 when n < 2 (fio's rule). */
double lat_stat_stdev(const struct lat_stat *s);

/* Merge src into dst with Chan's parallel formula (latency stats under group_reporting). */
void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src);

/* fio's "pure sum" merge for bw/iops stats: min, max, mean, S and n are each summed. */
void lat_stat_sum(struct lat_stat *dst, const struct lat_stat *src);

#endif

/* SPDX-License-Identifier: MIT */
#include "core/stats.h"

#include <math.h>

double lat_stat_stdev(const struct lat_stat *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	double n1 = (double)dst->n, n2 = (double)src->n, delta;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	delta = src->mean - dst->mean;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->mean = (dst->mean * n1 + src->mean * n2) / (n1 + n2);
	dst->m2 += src->m2 + delta * delta * n1 * n2 / (n1 + n2);
	dst->n += src->n;
}

void lat_stat_sum(struct lat_stat *dst, const struct lat_stat *src)
{
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
	dst->n += src->n;
}

/* SPDX-License-Identifier: MIT */
#include "core/hist.h"

uint64_t hist_idx_to_val(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	if (idx >= HIST_NR)
		idx = HIST_NR - 1;
	if (idx < 2 * HIST_VAL)
		return idx;
	error_bits = (idx >> HIST_BITS) - 1;
	base = (uint64_t)1 << (error_bits + HIST_BITS);
	k = idx % HIST_VAL;
	/* base + (k + 0.5) * 2^error_bits, truncated: error_bits >= 1 here, so exact in integers. */
	return base + k * ((uint64_t)1 << error_bits) + ((uint64_t)1 << (error_bits - 1));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		dst->bucket[i] += src->bucket[i];
	dst->total += src->total;
}

unsigned hist_percentiles(const struct hist *h, const double *pcts, unsigned n, uint64_t *out)
{
	unsigned j = 0;
	uint64_t sum = 0;

	if (!h->total || !n)
		return 0;
	for (unsigned i = 0; i < HIST_NR && j < n; i++) {
		sum += h->bucket[i];
		while (j < n && (long double)sum >= (long double)pcts[j] / 100.0L * (long double)h->total) {
			out[j] = hist_idx_to_val(i);
			j++;
		}
	}
	return j;
}

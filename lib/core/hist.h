/* SPDX-License-Identifier: MIT */
/* hist: fio's log-linear latency histogram (FIO_IO_U_PLAT_BITS=6, 29 groups, 1856 buckets).
 * Values are nanoseconds. Index/value rules are fio 3.33's (plat_val_to_idx(), plat_idx_to_val()), so
 * percentiles and json+ bins match fio's exactly. hist_add() is in the hot path: inline. */
#ifndef IOPS_HIST_H
#define IOPS_HIST_H

#include <stdint.h>

#define HIST_BITS	6
#define HIST_VAL	(1u << HIST_BITS)	/* 64 */
#define HIST_GROUPS	29
#define HIST_NR		(HIST_GROUPS * HIST_VAL)	/* 1856 */

struct hist {
	uint64_t bucket[HIST_NR];
	uint64_t total;
};

static inline unsigned hist_idx(uint64_t v)
{
	unsigned msb, error_bits, idx;

	if (v < (2u * HIST_VAL))	/* msb <= 6: exact */
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	error_bits = msb - HIST_BITS;
	idx = ((error_bits + 1) << HIST_BITS) + (unsigned)((v >> error_bits) & (HIST_VAL - 1));
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_idx(v)]++;
	h->total++;
}

/* The bucket's representative value (midpoint, truncated), as fio's plat_idx_to_val(). */
uint64_t hist_idx_to_val(unsigned idx);

/* Add src's buckets into dst. */
void hist_merge(struct hist *dst, const struct hist *src);

/* fio's calc_clat_percentiles(): pcts sorted ascending (0 < p <= 100), n of them; out[i] gets
 * the value (ns) of the bucket where the running count first reaches pcts[i]/100*total.
 * Returns the number of entries filled (n when total > 0, 0 when the histogram is empty). */
unsigned hist_percentiles(const struct hist *h, const double *pcts, unsigned n, uint64_t *out);

#endif

/* SPDX-License-Identifier: MIT */
/* unified: fio's unified_rw_reporting, in the normal and JSON reports.
 *
 * none:  read/write/trim reported apart (the default);
 * mixed: each reporting unit's directions are merged into one "mixed" direction (kept in
 *        ddir[DDIR_READ], the others zeroed), and the group line says "  MIXED";
 * both:  the normal report plus a "mixed" block per unit and a "  MIXED" group line.
 * Merging is fio's: latency stats by Chan's formula, histograms bucket-wise, bw/iops sample
 * stats as pure sums, counters summed, runtime = max (report_merge_ddir()). */
#ifndef IOPS_UNIFIED_H
#define IOPS_UNIFIED_H

#include "fio/report/report.h"
#include "fio/result.h"

enum unified_mode { UNIFIED_NONE = 0, UNIFIED_MIXED = 1, UNIFIED_BOTH = 2 };

/* Pseudo-direction the out_* modules use for the extra "mixed" block of mode both. */
#define UNIFIED_DDIR	DDIR_NR

/* dst = src[READ] + src[WRITE] + src[TRIM] (dst may be &src[DDIR_READ]: merged in place). */
void unified_merge(struct ddir_result *dst, const struct ddir_result *src);

/* Apply each unit's mode (its first member's job) to a built report's units, before the
 * groups are summed: mixed collapses the unit's result (copied first if not owned), both
 * allocates unit->mixed. Also sets each group's mode (fio ORs the units' modes).
 * Returns 0 or -ENOMEM. */
int unified_apply(struct report *rep);

/* The direction's name in a unit's block: "read"/"write"/"trim" or "mixed". */
const char *unified_ddir_name(const struct report_unit *u, unsigned ddir);

/* The result shown for ddir (UNIFIED_DDIR: the unit's mixed block). */
static inline const struct ddir_result *unified_ddir(const struct report_unit *u, unsigned ddir)
{
	return ddir < DDIR_NR ? &u->res->ddir[ddir] : u->mixed;
}

/* The group aggregate index a direction's bw share is taken against (mixed: READ's, as fio). */
static inline unsigned unified_agg_idx(unsigned ddir)
{
	return ddir < DDIR_NR ? ddir : DDIR_READ;
}

#endif

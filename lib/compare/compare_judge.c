/* SPDX-License-Identifier: MIT */
/* compare_judge: the verdict of one figure (docs/compare.md, "The statistics").
 *
 * The figure of a side is the mean of its runs. A change is beyond noise when it exceeds the
 * threshold, the largest of:
 *  - repeats (two runs or more on a side): Welch's interval of the two means at the chosen
 *    confidence (one side repeated: its variance stands for both, Student's t on its runs);
 *  - single runs, from what each run says of itself: IOPS and bandwidth, Welch's interval on
 *    the per-window samples; the mean latency, the larger of its interval from N and stddev
 *    (iid) and the IOPS windows' relative interval (Little's law: at a fixed number of I/Os in
 *    flight the mean latency moves as 1 / IOPS); a percentile, the larger of the root-sum-square
 *    of the two runs' order-statistic intervals and the IOPS windows' relative interval; then
 *    the figure's stated band (a single run cannot show run-to-run variation);
 *  - the floor, under which no change is called. */
#include <math.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/noise.h"

const char *const compare_how_names[COMPARE_BY_NR] = {
	"repeats", "windows", "little", "iid", "order", "band", "floor",
};
const char *const compare_fig_names[COMPARE_NR] = { "iops", "bw", "mean", "p50", "p99", "p99.9" };
const char *const compare_verdict_names[4] = { "n/a", "within noise", "better", "worse" };

static bool compare_higher_better(enum compare_fig f)
{
	return f == COMPARE_IOPS || f == COMPARE_BW;
}

/* The values of figure f in the runs that measured it; returns how many. */
static unsigned compare_values(const struct compare_entry *const *r, unsigned n, enum compare_dir_id dir,
			       enum compare_fig f, double *sum, double *sumsq, const struct compare_dir **one)
{
	unsigned k = 0;

	*sum = *sumsq = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct compare_dir *d = &r[i]->dir[dir];

		if (!d->present || !d->has[f])
			continue;
		*sum += d->val[f];
		*sumsq += d->val[f] * d->val[f];
		*one = d;
		k++;
	}
	return k;
}

/* Welch's interval on the per-window samples of IOPS (w 0) or bandwidth (w 1), in the units of
 * a and b (the figures judged: the windows' relative errors applied to them); < 0: no windows. */
static double compare_windows(const struct compare_dir *da, const struct compare_dir *db, double a, double b,
			      unsigned w, const struct compare_opts *o, double *df)
{
	if (da->win_rse[w] < 0 || db->win_rse[w] < 0)
		return -1;
	return noise_welch(da->win_rse[w] * a, da->win_df[w], db->win_rse[w] * b, db->win_df[w], o->conf, df);
}

/* The threshold of single runs from their own data (no band, no floor): 0 with how unchanged
 * when they say nothing. */
static double compare_single(const struct compare_dir *da, const struct compare_dir *db, double a, double b,
			     enum compare_fig f, const struct compare_opts *o, enum compare_how *how, double *df)
{
	double thr = 0, t, dfx;
	unsigned p = f >= COMPARE_P50 ? (unsigned)(f - COMPARE_P50) : 0;

	if (f == COMPARE_IOPS || f == COMPARE_BW) {
		if ((t = compare_windows(da, db, a, b, f == COMPARE_BW, o, df)) >= 0) {
			thr = t;
			*how = COMPARE_BY_WINDOWS;
		}
		return thr;
	}
	if (f == COMPARE_MEAN && da->lat_se >= 0 && db->lat_se >= 0) {
		thr = noise_welch(da->lat_se, INFINITY, db->lat_se, INFINITY, o->conf, df);
		*how = COMPARE_BY_IID;
	}
	if (f >= COMPARE_P50 && da->pct_half[p] >= 0 && db->pct_half[p] >= 0) {
		thr = sqrt(da->pct_half[p] * da->pct_half[p] + db->pct_half[p] * db->pct_half[p]);
		*df = INFINITY;
		*how = COMPARE_BY_ORDER;
	}
	/* latency: the run's own unsteadiness, its IOPS windows' (Little's law) */
	if ((t = compare_windows(da, db, a, b, 0, o, &dfx)) > thr) {
		thr = t;
		*df = dfx;
		*how = COMPARE_BY_LITTLE;
	}
	return thr;
}

void compare_judge(const struct compare_entry *const *a, unsigned na, const struct compare_entry *const *b,
		   unsigned nb, enum compare_dir_id dir, enum compare_fig f, const struct compare_opts *o,
		   struct compare_cell *cell)
{
	const struct compare_dir *da = NULL, *db = NULL;
	double sa, ssa, sb, ssb, A, B, thr = 0, band;
	unsigned ka = compare_values(a, na, dir, f, &sa, &ssa, &da);
	unsigned kb = compare_values(b, nb, dir, f, &sb, &ssb, &db);

	memset(cell, 0, sizeof(*cell));
	cell->verdict = COMPARE_NA;
	cell->runs_base = ka;
	cell->runs = kb;
	cell->df = INFINITY;
	cell->how = COMPARE_BY_FLOOR;
	if (!ka || !kb) {
		cell->why = ka ? "not measured here" : "not measured in the baseline";
		return;
	}
	A = sa / ka;
	B = sb / kb;
	cell->base = A;
	cell->value = B;
	if (f >= COMPARE_P50 && strcmp(da->pct_kind, db->pct_kind)) {
		cell->why = "percentiles of different latencies (lat and clat)";
		return;
	}
	if (!(A > 0)) {
		cell->why = "the baseline is 0";
		return;
	}
	cell->change_pct = (B - A) / A * 100.0;
	if (ka >= 2 || kb >= 2) {
		double va = ka >= 2 ? (ssa - sa * sa / ka) / (ka - 1) : -1;
		double vb = kb >= 2 ? (ssb - sb * sb / kb) / (kb - 1) : -1;

		va = va < 0 && ka >= 2 ? 0 : va;	/* rounding of equal values */
		vb = vb < 0 && kb >= 2 ? 0 : vb;
		if (ka >= 2 && kb >= 2) {
			thr = noise_welch(sqrt(va / ka), ka - 1, sqrt(vb / kb), kb - 1, o->conf, &cell->df);
		} else {	/* one side repeated: its variance for both */
			double v = ka >= 2 ? va : vb;

			cell->df = (ka >= 2 ? ka : kb) - 1.0;
			thr = v > 0 ? noise_t((1.0 + o->conf) / 2.0, cell->df) * sqrt(v * (1.0 / ka + 1.0 / kb)) : 0;
		}
		cell->how = COMPARE_BY_REPEATS;
	} else {
		thr = compare_single(da, db, A, B, f, o, &cell->how, &cell->df);
		band = o->band_pct[f] / 100.0 * A;
		if (band > thr) {
			thr = band;
			cell->how = COMPARE_BY_BAND;
			cell->df = INFINITY;
		}
	}
	if (o->floor_pct / 100.0 * A > thr || !isfinite(thr)) {
		thr = o->floor_pct / 100.0 * A;
		cell->how = COMPARE_BY_FLOOR;
		cell->df = INFINITY;
	}
	cell->thr_pct = thr / A * 100.0;
	if (fabs(B - A) <= thr)
		cell->verdict = COMPARE_NOISE;
	else
		cell->verdict = (B > A) == compare_higher_better(f) ? COMPARE_BETTER : COMPARE_WORSE;
}

bool compare_cell_fails(const struct compare_cell *cell, enum compare_fig f, const struct compare_opts *o)
{
	double worse_by = compare_higher_better(f) ? -cell->change_pct : cell->change_pct;

	return cell->verdict == COMPARE_WORSE && o->fail_on_pct[f] >= 0 && worse_by > o->fail_on_pct[f];
}

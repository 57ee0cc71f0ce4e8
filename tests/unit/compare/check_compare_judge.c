/* SPDX-License-Identifier: MIT */
/* compare_judge: verdicts, table-driven: equal, better, worse (each figure's sense), zero
 * variance (the floor), one sample (the band), repeats on both sides and on one, missing
 * figures, a zero baseline, percentiles of different latencies; and --fail-on's limit. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/noise.h"

struct jcase {
	const char *name;
	enum compare_fig f;
	unsigned na, nb;
	double a[3], b[3];	/* the figure in each run */
	double rse_a, rse_b;	/* the runs' window rse (IOPS and bw), < 0: none */
	double se_a, se_b;	/* stddev / sqrt(N) of the mean latency, < 0: none */
	double half_a, half_b;	/* percentile interval half-widths, < 0: none */
	enum compare_verdict want;
	enum compare_how how;
	double thr_pct;		/* expected threshold, < 0: not checked */
};

static const struct jcase cases[] = {
	{ "equal, windows", COMPARE_IOPS, 1, 1, { 1000 }, { 1000 }, 0.02, 0.02, -1, -1, -1, -1, COMPARE_NOISE,
	  COMPARE_BY_WINDOWS, -1 },
	{ "iops halved", COMPARE_IOPS, 1, 1, { 1000 }, { 500 }, 0.01, 0.01, -1, -1, -1, -1, COMPARE_WORSE,
	  COMPARE_BY_WINDOWS, -1 },
	{ "bw up by half", COMPARE_BW, 1, 1, { 1e6 }, { 1.5e6 }, 0.01, 0.01, -1, -1, -1, -1, COMPARE_BETTER,
	  COMPARE_BY_WINDOWS, -1 },
	{ "iops up, within wide windows", COMPARE_IOPS, 1, 1, { 1000 }, { 1100 }, 0.1, 0.1, -1, -1, -1, -1,
	  COMPARE_NOISE, COMPARE_BY_WINDOWS, -1 },
	{ "mean latency up: worse", COMPARE_MEAN, 1, 1, { 1000 }, { 1500 }, -1, -1, 1, 1, -1, -1, COMPARE_WORSE,
	  COMPARE_BY_BAND, 5 },
	{ "mean latency down: better", COMPARE_MEAN, 1, 1, { 1000 }, { 500 }, -1, -1, 1, 1, -1, -1, COMPARE_BETTER,
	  COMPARE_BY_BAND, 5 },
	{ "mean by iid", COMPARE_MEAN, 1, 1, { 1000 }, { 1100 }, -1, -1, 30, 40, -1, -1, COMPARE_NOISE,
	  COMPARE_BY_IID, -1 },
	{ "mean by Little", COMPARE_MEAN, 1, 1, { 1000 }, { 1200 }, 0.2, 0.2, 1, 1, -1, -1, COMPARE_NOISE,
	  COMPARE_BY_LITTLE, -1 },
	{ "zero variance: the band", COMPARE_IOPS, 1, 1, { 1000 }, { 1015 }, 0, 0, -1, -1, -1, -1, COMPARE_NOISE,
	  COMPARE_BY_BAND, 2 },
	{ "zero variance, 3% up", COMPARE_IOPS, 1, 1, { 1000 }, { 1030 }, 0, 0, -1, -1, -1, -1, COMPARE_BETTER,
	  COMPARE_BY_BAND, 2 },
	{ "one sample: the band", COMPARE_IOPS, 1, 1, { 1000 }, { 1015 }, -1, -1, -1, -1, -1, -1, COMPARE_NOISE,
	  COMPARE_BY_BAND, 2 },
	{ "one sample, 3% down", COMPARE_IOPS, 1, 1, { 1000 }, { 970 }, -1, -1, -1, -1, -1, -1, COMPARE_WORSE,
	  COMPARE_BY_BAND, 2 },
	{ "one side without windows", COMPARE_BW, 1, 1, { 1000 }, { 1015 }, 0.001, -1, -1, -1, -1, -1,
	  COMPARE_NOISE, COMPARE_BY_BAND, 2 },
	{ "p99 by order statistics", COMPARE_P99, 1, 1, { 1000 }, { 1250 }, -1, -1, -1, -1, 150, 200,
	  COMPARE_NOISE, COMPARE_BY_ORDER, 25 },
	{ "p99 beyond them", COMPARE_P99, 1, 1, { 1000 }, { 1300 }, -1, -1, -1, -1, 150, 200, COMPARE_WORSE,
	  COMPARE_BY_ORDER, 25 },
	{ "p50 band", COMPARE_P50, 1, 1, { 1000 }, { 1040 }, -1, -1, -1, -1, 1, 1, COMPARE_NOISE, COMPARE_BY_BAND, 5 },
	{ "p99.9 band 20%", COMPARE_P999, 1, 1, { 1000 }, { 1250 }, -1, -1, -1, -1, -1, -1, COMPARE_WORSE,
	  COMPARE_BY_BAND, 20 },
	{ "repeats both sides", COMPARE_IOPS, 3, 3, { 100, 102, 98 }, { 90, 91, 89 }, -1, -1, -1, -1, -1, -1,
	  COMPARE_WORSE, COMPARE_BY_REPEATS, -1 },
	{ "repeats, overlapping", COMPARE_IOPS, 3, 3, { 100, 110, 90 }, { 95, 105, 100 }, -1, -1, -1, -1, -1, -1,
	  COMPARE_NOISE, COMPARE_BY_REPEATS, -1 },
	{ "repeats, identical: the floor", COMPARE_MEAN, 2, 2, { 100, 100 }, { 100.5, 100.5 }, -1, -1, -1, -1, -1,
	  -1, COMPARE_NOISE, COMPARE_BY_FLOOR, 1 },
	{ "repeats on one side", COMPARE_P99, 3, 1, { 100, 104, 96 }, { 160 }, -1, -1, -1, -1, -1, -1,
	  COMPARE_WORSE, COMPARE_BY_REPEATS, -1 },
	{ "missing here", COMPARE_P99, 1, 0, { 100 }, { 0 }, -1, -1, -1, -1, -1, -1, COMPARE_NA, COMPARE_BY_FLOOR, -1 },
	{ "missing in the baseline", COMPARE_P99, 0, 1, { 0 }, { 100 }, -1, -1, -1, -1, -1, -1, COMPARE_NA,
	  COMPARE_BY_FLOOR, -1 },
	{ "zero baseline", COMPARE_IOPS, 1, 1, { 0 }, { 100 }, -1, -1, -1, -1, -1, -1, COMPARE_NA, COMPARE_BY_FLOOR, -1 },
};

static void mk(struct compare_entry *e, const struct jcase *c, double v, bool base, bool has)
{
	struct compare_dir *d = &e->dir[COMPARE_READ];

	memset(e, 0, sizeof(*e));
	d->present = true;
	for (unsigned f = 0; f < COMPARE_NR; f++) {
		d->has[f] = true;
		d->val[f] = 1000;
	}
	d->has[c->f] = has;
	d->val[c->f] = v;
	d->win_rse[0] = d->win_rse[1] = base ? c->rse_a : c->rse_b;
	d->win_df[0] = d->win_df[1] = 19;
	d->lat_se = base ? c->se_a : c->se_b;
	for (unsigned p = 0; p < 3; p++)
		d->pct_half[p] = base ? c->half_a : c->half_b;
	strcpy(d->pct_kind, "clat");	/* lint: test fixture, fits */
}

START_TEST(test_judge)
{
	const struct jcase *c = &cases[_i];
	struct compare_entry ea[3], eb[3];
	const struct compare_entry *pa[3], *pb[3];
	struct compare_opts o;
	struct compare_cell cell;
	unsigned na = c->na ? c->na : 1, nb = c->nb ? c->nb : 1;

	compare_opts_init(&o);
	for (unsigned i = 0; i < na; i++) {
		mk(&ea[i], c, c->a[i], true, c->na > 0);
		pa[i] = &ea[i];
	}
	for (unsigned i = 0; i < nb; i++) {
		mk(&eb[i], c, c->b[i], false, c->nb > 0);
		pb[i] = &eb[i];
	}
	compare_judge(pa, na, pb, nb, COMPARE_READ, c->f, &o, &cell);
	ck_assert_msg(cell.verdict == c->want, "%s: verdict %s, want %s (thr %.2f%% %s)", c->name,
		      compare_verdict_names[cell.verdict], compare_verdict_names[c->want], cell.thr_pct,
		      compare_how_names[cell.how]);
	if (cell.verdict == COMPARE_NA) {
		ck_assert_ptr_nonnull(cell.why);
		return;
	}
	ck_assert_msg(cell.how == c->how, "%s: by %s, want %s", c->name, compare_how_names[cell.how],
		      compare_how_names[c->how]);
	if (c->thr_pct >= 0)
		ck_assert_double_eq_tol(cell.thr_pct, c->thr_pct, 1e-9);
	ck_assert(cell.thr_pct >= o.floor_pct);
}
END_TEST

/* The figures of the repeats' test by hand: Welch on (100, 102, 98) and (90, 91, 89). */
START_TEST(test_repeats_by_hand)
{
	const struct jcase *c = &cases[17];
	struct compare_entry ea[3], eb[3];
	const struct compare_entry *pa[3] = { &ea[0], &ea[1], &ea[2] }, *pb[3] = { &eb[0], &eb[1], &eb[2] };
	struct compare_opts o;
	struct compare_cell cell;
	double se_a = sqrt(4.0 / 3), se_b = sqrt(1.0 / 3), df, thr;

	compare_opts_init(&o);
	for (unsigned i = 0; i < 3; i++) {
		mk(&ea[i], c, c->a[i], true, true);
		mk(&eb[i], c, c->b[i], false, true);
	}
	compare_judge(pa, 3, pb, 3, COMPARE_READ, COMPARE_IOPS, &o, &cell);
	ck_assert_int_eq(cell.how, COMPARE_BY_REPEATS);
	thr = noise_welch(se_a, 2, se_b, 2, 0.99, &df);
	ck_assert_double_eq_tol(cell.thr_pct, thr / 100 * 100, 1e-9);
	ck_assert_double_eq_tol(cell.df, df, 1e-9);
	ck_assert_double_eq_tol(cell.change_pct, -10, 1e-9);
	ck_assert_uint_eq(cell.runs_base, 3);
	ck_assert_uint_eq(cell.runs, 3);
}
END_TEST

/* Bands off: zero variance leaves the floor, and --floor moves it. */
START_TEST(test_floor)
{
	struct compare_entry a, b;
	const struct compare_entry *pa = &a, *pb = &b;
	struct compare_opts o;
	struct compare_cell cell;

	compare_opts_init(&o);
	memset(o.band_pct, 0, sizeof(o.band_pct));
	mk(&a, &cases[8], 1000, true, true);
	mk(&b, &cases[8], 1005, false, true);
	compare_judge(&pa, 1, &pb, 1, COMPARE_READ, COMPARE_IOPS, &o, &cell);
	ck_assert_int_eq(cell.verdict, COMPARE_NOISE);
	ck_assert_int_eq(cell.how, COMPARE_BY_FLOOR);
	ck_assert_double_eq_tol(cell.thr_pct, 1, 1e-12);
	o.floor_pct = 0.1;
	compare_judge(&pa, 1, &pb, 1, COMPARE_READ, COMPARE_IOPS, &o, &cell);
	ck_assert_int_eq(cell.verdict, COMPARE_BETTER);
	o.floor_pct = 0;	/* no floor, no variance: any change is called */
	compare_judge(&pa, 1, &pb, 1, COMPARE_READ, COMPARE_IOPS, &o, &cell);
	ck_assert_int_eq(cell.verdict, COMPARE_BETTER);
	ck_assert_double_eq(cell.thr_pct, 0);
}
END_TEST

START_TEST(test_pct_kinds_differ)
{
	struct compare_entry a, b;
	const struct compare_entry *pa = &a, *pb = &b;
	struct compare_opts o;
	struct compare_cell cell;

	compare_opts_init(&o);
	mk(&a, &cases[13], 1000, true, true);
	mk(&b, &cases[13], 1000, false, true);
	strcpy(b.dir[COMPARE_READ].pct_kind, "lat");	/* lint: test fixture, fits */
	compare_judge(&pa, 1, &pb, 1, COMPARE_READ, COMPARE_P99, &o, &cell);
	ck_assert_int_eq(cell.verdict, COMPARE_NA);
	compare_judge(&pa, 1, &pb, 1, COMPARE_READ, COMPARE_MEAN, &o, &cell);	/* the mean is the mean */
	ck_assert_int_eq(cell.verdict, COMPARE_NOISE);
	compare_judge(&pa, 1, &pb, 1, COMPARE_WRITE, COMPARE_IOPS, &o, &cell);	/* no such direction */
	ck_assert_int_eq(cell.verdict, COMPARE_NA);
}
END_TEST

START_TEST(test_fail_on)
{
	struct compare_opts o;
	struct compare_cell worse = { .verdict = COMPARE_WORSE, .change_pct = -50 };
	struct compare_cell lat = { .verdict = COMPARE_WORSE, .change_pct = 30 };
	struct compare_cell better = { .verdict = COMPARE_BETTER, .change_pct = 80 };
	struct compare_cell noise = { .verdict = COMPARE_NOISE, .change_pct = -50 };

	compare_opts_init(&o);
	ck_assert(!compare_cell_fails(&worse, COMPARE_IOPS, &o));	/* no --fail-on */
	for (unsigned f = 0; f < COMPARE_NR; f++)
		o.fail_on_pct[f] = 10;
	ck_assert(compare_cell_fails(&worse, COMPARE_IOPS, &o));
	ck_assert(compare_cell_fails(&lat, COMPARE_P99, &o));
	ck_assert(!compare_cell_fails(&better, COMPARE_P99, &o));
	ck_assert(!compare_cell_fails(&noise, COMPARE_IOPS, &o));
	o.fail_on_pct[COMPARE_IOPS] = 50;	/* by more than the limit */
	ck_assert(!compare_cell_fails(&worse, COMPARE_IOPS, &o));
	o.fail_on_pct[COMPARE_P99] = 0;
	ck_assert(compare_cell_fails(&lat, COMPARE_P99, &o));
}
END_TEST

Suite *compare_judge_suite(void)
{
	Suite *s = suite_create("compare_judge");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_judge, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_repeats_by_hand);
	tcase_add_test(tc, test_floor);
	tcase_add_test(tc, test_pct_kinds_differ);
	tcase_add_test(tc, test_fail_on);
	suite_add_tcase(s, tc);
	return s;
}

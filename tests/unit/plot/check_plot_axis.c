/* SPDX-License-Identifier: MIT */
/* plot_axis: 1-2-5 steps, linear ranges and ticks on the shown unit (fio's scaling), log
 * decades (with 2 and 5 over short spans), the percentile axis' mapping and ticks, positions
 * and labels; edge cases: empty, flat, NaN, negative, zero on a log axis. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "plot/plot_axis.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static const struct {
	double raw, want;
} nices[] = {
	{ 0.7, 1 }, { 1, 1 }, { 1.01, 2 }, { 2, 2 }, { 2.1, 5 }, { 5, 5 }, { 5.5, 10 }, { 37, 50 }, { 0.013, 0.02 },
	{ 1e9, 1e9 }, { 0, 1 }, { -3, 1 }, { 5.72, 10 }, { 25.7, 50 }, { 0.2, 0.2 }, { 1e-300, 1e-300 },
};

START_TEST(test_nice)
{
	ck_assert_msg(near(plot_axis_nice(nices[_i].raw), nices[_i].want), "nice(%g) = %g, want %g", nices[_i].raw,
		      plot_axis_nice(nices[_i].raw), nices[_i].want);
}
END_TEST

START_TEST(test_nice_inf)
{
	ck_assert(plot_axis_nice(INFINITY) == 1);
	ck_assert(plot_axis_nice(NAN) == 1);
}
END_TEST

#define T(...) { __VA_ARGS__ }
static const struct {
	double lo, hi;
	bool zero;
	const struct plot_unit *u;
	const char *shown;
	unsigned nr;
	double ticks[12];	/* raw units */
} lins[] = {
	/* 28.6k IOPS from 0: x1000, step 10 */
	{ 0, 28591, true, &plot_u_iops, "x1000", 4, T(0, 10000, 20000, 30000) },
	/* 128 MiB/s from 0: step 50 MiB/s */
	{ 0, 134557696, true, &plot_u_bytes_s, "MiB/s", 4, T(0, 50 * 1048576.0, 100 * 1048576.0, 150 * 1048576.0) },
	/* 13..87 without zero: 0..100 by 20 */
	{ 13, 87, false, &plot_u_none, "", 6, T(0, 20, 40, 60, 80, 100) },
	/* a small span far from zero */
	{ 1001, 1003, false, &plot_u_none, "", 5, T(1001, 1001.5, 1002, 1002.5, 1003) },
	/* latency in ns shown in usec: 40..95 us, step 20 us */
	{ 40000, 95000, false, &plot_u_ns, "usec", 4, T(40000, 60000, 80000, 100000) },
	/* flat data, with zero: from 0 */
	{ 1, 1, true, &plot_u_none, "", 6, T(0, 0.2, 0.4, 0.6, 0.8, 1) },
	/* flat data without zero: around it */
	{ 4, 4, false, &plot_u_none, "", 5, T(2, 3, 4, 5, 6) },
	/* empty (0..0), with zero: 0..1 */
	{ 0, 0, true, &plot_u_none, "", 6, T(0, 0.2, 0.4, 0.6, 0.8, 1) },
	/* negative values */
	{ -30, 10, false, &plot_u_none, "", 5, T(-30, -20, -10, 0, 10) },
	/* NaN: as empty */
	{ NAN, 5, true, &plot_u_none, "", 6, T(0, 0.2, 0.4, 0.6, 0.8, 1) },
	/* lo > hi: as empty */
	{ 9, 1, false, &plot_u_none, "", 5, T(-1, -0.5, 0, 0.5, 1) },
};

START_TEST(test_lin)
{
	struct plot_axis a;

	plot_axis_init(&a, PLOT_LIN, lins[_i].u, "t");
	a.zero = lins[_i].zero;
	plot_axis_fit(&a, lins[_i].lo, lins[_i].hi);
	ck_assert_str_eq(a.shown, lins[_i].shown);
	ck_assert_msg(a.nr_ticks == lins[_i].nr, "case %d: %u ticks, want %u (step %g)", _i, a.nr_ticks, lins[_i].nr,
		      a.step);
	for (unsigned k = 0; k < a.nr_ticks; k++)
		ck_assert_msg(near(a.tick[k], lins[_i].ticks[k]), "case %d tick %u: %.17g, want %g", _i, k, a.tick[k],
			      lins[_i].ticks[k]);
	ck_assert(near(a.lo, a.tick[0]) && near(a.hi, a.tick[a.nr_ticks - 1]));
	if (!isnan(lins[_i].lo) && lins[_i].lo <= lins[_i].hi)
		ck_assert(a.lo <= lins[_i].lo + 1e-9 && a.hi >= lins[_i].hi - 1e-9);
}
END_TEST

/* Every step is 1, 2 or 5 x 10^k and 4 to 11 ticks cover the data, over many ranges. */
START_TEST(test_lin_125)
{
	for (double hi = 0.003; hi < 1e12; hi *= 1.37) {
		struct plot_axis a;
		double m;

		plot_axis_init(&a, PLOT_LIN, &plot_u_none, "t");
		a.zero = true;
		plot_axis_fit(&a, 0, hi);
		m = a.step / pow(10, floor(log10(a.step) + 1e-9));
		ck_assert_msg(near(m, 1) || near(m, 2) || near(m, 5), "hi %g: step %g", hi, a.step);
		ck_assert_msg(a.nr_ticks >= 4 && a.nr_ticks <= 11, "hi %g: %u ticks", hi, a.nr_ticks);
		ck_assert(a.hi >= hi && a.tick[0] == 0);
	}
}
END_TEST

static const struct {
	double lo, hi;
	const struct plot_unit *u;
	const char *shown;
	unsigned nr;
	double first, last;
} logs[] = {
	/* 100 ns .. 33.8 ms: msec, decades 1e-4 .. 1e2 msec, no 2s and 5s */
	{ 100, 33816576, &plot_u_ns, "msec", 7, 100, 1e8 },
	/* 20 .. 900 ns: 10, 20, 50, 100, 200, 500, 1000 */
	{ 20, 900, &plot_u_ns, "nsec", 7, 10, 1000 },
	/* a flat value: its decade */
	{ 5, 5, &plot_u_none, "", 4, 1, 10 },
	/* zero and negative values ignored: the decade of what is left */
	{ 0, 100, &plot_u_none, "", 4, 100, 1000 },
	{ -5, -1, &plot_u_none, "", 4, 1, 10 },
};

START_TEST(test_log)
{
	struct plot_axis a;

	plot_axis_init(&a, PLOT_LOG, logs[_i].u, "t");
	plot_axis_fit(&a, logs[_i].lo, logs[_i].hi);
	ck_assert_str_eq(a.shown, logs[_i].shown);
	ck_assert_msg(a.nr_ticks == logs[_i].nr, "case %d: %u ticks", _i, a.nr_ticks);
	ck_assert_msg(near(a.tick[0], logs[_i].first), "case %d: first %g", _i, a.tick[0]);
	ck_assert_msg(near(a.tick[a.nr_ticks - 1], logs[_i].last), "case %d: last %g", _i, a.tick[a.nr_ticks - 1]);
	ck_assert(near(a.lo, a.tick[0]) && near(a.hi, a.tick[a.nr_ticks - 1]));
}
END_TEST

START_TEST(test_log_short_span)
{
	static const double want[] = { 10, 20, 50, 100, 200, 500, 1000 };
	struct plot_axis a;

	plot_axis_init(&a, PLOT_LOG, &plot_u_ns, "lat");
	plot_axis_fit(&a, 20, 900);
	for (unsigned k = 0; k < a.nr_ticks; k++)
		ck_assert(near(a.tick[k], want[k]));
	ck_assert(near(plot_axis_pos(&a, 100), 0.5));
}
END_TEST

static const struct {
	double p, x;
} pcts[] = {
	{ 0, 0 }, { -5, 0 }, { 50, 0.30102999566398120 }, { 90, 1 }, { 99, 2 }, { 99.9, 3 }, { 99.99, 4 },
	{ 99.999, 5 }, { 100, PLOT_PCT_DECADES_MAX }, { 99.9999999, PLOT_PCT_DECADES_MAX }, { 120, PLOT_PCT_DECADES_MAX },
};

START_TEST(test_pct_x)
{
	ck_assert_msg(fabs(plot_axis_pct_x(pcts[_i].p) - pcts[_i].x) < 1e-9, "p %g: %.12g", pcts[_i].p,
		      plot_axis_pct_x(pcts[_i].p));
}
END_TEST

static const struct {
	double hi;
	unsigned nr;
	double last;
} pct_fits[] = {
	{ 99, 4, 99 }, { 50, 4, 99 }, { 0, 4, 99 }, { 99.99, 6, 99.99 }, { 99.995, 7, 99.999 }, { 99.9, 5, 99.9 },
	{ 99.99999999, 10, 99.999999 },
};

START_TEST(test_pct_fit)
{
	struct plot_axis a;

	plot_axis_init(&a, PLOT_PCT, &plot_u_pct, "percentile");
	plot_axis_fit(&a, 0, pct_fits[_i].hi);
	ck_assert_msg(a.nr_ticks == pct_fits[_i].nr, "hi %g: %u ticks", pct_fits[_i].hi, a.nr_ticks);
	ck_assert(a.tick[0] == 0 && a.tick[1] == 50 && a.tick[2] == 90);
	ck_assert_msg(near(a.tick[a.nr_ticks - 1], pct_fits[_i].last), "hi %g: last %.10g", pct_fits[_i].hi,
		      a.tick[a.nr_ticks - 1]);
	ck_assert(near(a.hi, pct_fits[_i].last));
}
END_TEST

START_TEST(test_pct_pos)
{
	struct plot_axis a;
	char buf[64];

	plot_axis_init(&a, PLOT_PCT, &plot_u_pct, "percentile");
	plot_axis_fit(&a, 0, 99.99);
	ck_assert(near(plot_axis_pos(&a, 99), 0.5));	/* 2 decades of 4 */
	ck_assert(near(plot_axis_pos(&a, 99.9), 0.75));
	ck_assert(near(plot_axis_pos(&a, 90), 0.25));
	ck_assert(plot_axis_pos(&a, 0) == 0 && plot_axis_pos(&a, 100) == 1 && plot_axis_pos(&a, 99.9999) == 1);
	ck_assert_str_eq(plot_axis_tick_text(&a, 5, buf, sizeof(buf)), "99.99");
	ck_assert_str_eq(plot_axis_tick_text(&a, 0, buf, sizeof(buf)), "0");
}
END_TEST

START_TEST(test_pos_clamp)
{
	struct plot_axis a;

	plot_axis_init(&a, PLOT_LIN, &plot_u_none, "x");
	plot_axis_fit(&a, 0, 10);
	ck_assert(plot_axis_pos(&a, 0) == 0 && plot_axis_pos(&a, 10) == 1 && near(plot_axis_pos(&a, 5), 0.5));
	ck_assert(plot_axis_pos(&a, -100) == 0 && plot_axis_pos(&a, 1e9) == 1 && plot_axis_pos(&a, NAN) == 0);
	plot_axis_init(&a, PLOT_LOG, &plot_u_none, "x");
	plot_axis_fit(&a, 1, 100);
	ck_assert(plot_axis_pos(&a, 0) == 0 && plot_axis_pos(&a, -1) == 0 && near(plot_axis_pos(&a, 10), 0.5));
}
END_TEST

START_TEST(test_labels)
{
	struct plot_axis a;
	char buf[128];

	plot_axis_init(&a, PLOT_LOG, &plot_u_ns, "clat");
	plot_axis_fit(&a, 1000, 5000000);
	ck_assert_str_eq(plot_axis_label(&a, buf, sizeof(buf)), "clat (usec, log scale)");
	ck_assert_str_eq(plot_axis_tick_text(&a, 0, buf, sizeof(buf)), "1");
	plot_axis_init(&a, PLOT_LIN, &plot_u_iops, "IOPS");
	plot_axis_fit(&a, 0, 500);
	ck_assert_str_eq(plot_axis_label(&a, buf, sizeof(buf)), "IOPS");
	plot_axis_fit(&a, 0, 50000);
	ck_assert_str_eq(plot_axis_label(&a, buf, sizeof(buf)), "IOPS (x1000)");
	ck_assert_str_eq(plot_axis_tick_text(&a, 1, buf, sizeof(buf)), "10");
	plot_axis_init(&a, PLOT_LIN, &plot_u_none, "value");
	plot_axis_fit(&a, 0, 1);
	ck_assert_str_eq(plot_axis_label(&a, buf, sizeof(buf)), "value");
	ck_assert_str_eq(plot_axis_tick_text(&a, 1, buf, sizeof(buf)), "0.2");
	plot_axis_init(&a, PLOT_PCT, &plot_u_pct, "percentile");
	plot_axis_fit(&a, 0, 99);
	ck_assert(strstr(plot_axis_label(&a, buf, sizeof(buf)), "1 - p") != NULL);
}
END_TEST

Suite *plot_axis_suite(void)
{
	Suite *s = suite_create("plot_axis");
	TCase *t = tcase_create("core");

	tcase_add_loop_test(t, test_nice, 0, sizeof(nices) / sizeof(nices[0]));
	tcase_add_test(t, test_nice_inf);
	tcase_add_loop_test(t, test_lin, 0, sizeof(lins) / sizeof(lins[0]));
	tcase_add_test(t, test_lin_125);
	tcase_add_loop_test(t, test_log, 0, sizeof(logs) / sizeof(logs[0]));
	tcase_add_test(t, test_log_short_span);
	tcase_add_loop_test(t, test_pct_x, 0, sizeof(pcts) / sizeof(pcts[0]));
	tcase_add_loop_test(t, test_pct_fit, 0, sizeof(pct_fits) / sizeof(pct_fits[0]));
	tcase_add_test(t, test_pct_pos);
	tcase_add_test(t, test_pos_clamp);
	tcase_add_test(t, test_labels);
	suite_add_tcase(s, t);
	return s;
}

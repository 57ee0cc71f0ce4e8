/* SPDX-License-Identifier: MIT */
/* plot_decim: per pixel column, the count, the lowest and highest point (their indices) and
 * the x span, left to right; checked against a brute force over 600,000 points (a 10-minute
 * log at 1 ms), plus spikes, NaN, out-of-range x, one column, no column. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "plot/plot_decim.h"

#define COLS	726

static void axis(struct plot_axis *a, double lo, double hi)
{
	plot_axis_init(a, PLOT_LIN, &plot_u_none, "x");
	plot_axis_fit(a, lo, hi);
}

START_TEST(test_few_points)
{
	static const double x[] = { 0, 10, 20, 30, 40, 50 }, y[] = { 5, 1, 7, 3, 9, 2 };
	struct plot_decim_col *c = malloc(COLS * sizeof(*c));
	struct plot_axis a;
	size_t n;

	axis(&a, 0, 50);
	n = plot_decim(&a, x, y, 6, COLS, c);
	ck_assert_uint_eq(n, 6);	/* each point its own column */
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(c[i].n, 1);
		ck_assert(c[i].ymin == y[i] && c[i].ymax == y[i] && c[i].imin == i && c[i].x0 == x[i]);
	}
	free(c);
}
END_TEST

START_TEST(test_600k)
{
	size_t n = 600000, k, total = 0;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	struct plot_decim_col *c = malloc(COLS * sizeof(*c));
	struct plot_axis a;
	unsigned long long r = 12345;

	for (size_t i = 0; i < n; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		x[i] = (double)i + 1;			/* ms */
		y[i] = 70000 + (double)(r >> 48);	/* KiB/s, noisy */
	}
	y[123456] = 1e7;	/* a spike and a dip: both must survive */
	y[500000] = 1;
	axis(&a, 1, (double)n);
	k = plot_decim(&a, x, y, n, COLS, c);
	ck_assert(k > COLS - 5 && k <= COLS);
	for (size_t i = 0; i < k; i++) {
		double lo = INFINITY, hi = -INFINITY;
		size_t from = (size_t)c[i].x0 - 1, to = (size_t)c[i].x1 - 1;

		total += c[i].n;
		ck_assert_uint_eq(to - from + 1, c[i].n);	/* consecutive points */
		for (size_t j = from; j <= to; j++) {
			lo = fmin(lo, y[j]);
			hi = fmax(hi, y[j]);
		}
		ck_assert(c[i].ymin == lo && c[i].ymax == hi);
		ck_assert(y[c[i].imin] == lo && y[c[i].imax] == hi);
		ck_assert(c[i].imin >= from && c[i].imin <= to && c[i].imax >= from && c[i].imax <= to);
		if (i)
			ck_assert(c[i].x0 > c[i - 1].x1);	/* left to right */
	}
	ck_assert_uint_eq(total, n);
	{
		bool spike = false, dip = false;

		for (size_t i = 0; i < k; i++) {
			spike |= c[i].ymax == 1e7 && c[i].imax == 123456;
			dip |= c[i].ymin == 1 && c[i].imin == 500000;
		}
		ck_assert(spike && dip);
	}
	free(x);
	free(y);
	free(c);
}
END_TEST

START_TEST(test_edges)
{
	static const double x[] = { -100, 5, NAN, 5, 1e9, 7 }, y[] = { 1, 2, 3, NAN, 4, 6 };
	struct plot_decim_col c[4];
	struct plot_axis a;
	size_t n, total = 0;

	axis(&a, 0, 10);
	n = plot_decim(&a, x, y, 6, 4, c);
	for (size_t i = 0; i < n; i++)
		total += c[i].n;
	ck_assert_uint_eq(total, 4);	/* NaN x and NaN y skipped */
	ck_assert(c[0].x0 == -100);	/* clamped into the first column */
	ck_assert(c[n - 1].x0 == 1e9 && c[n - 1].ymax == 4 && c[n - 1].ymin == 4);	/* and the last */
	ck_assert(n == 3 && c[1].n == 2 && c[1].ymin == 2 && c[1].ymax == 6);	/* 5 and 7 share column 2 */
	ck_assert_uint_eq(plot_decim(&a, x, y, 6, 0, c), 0);
	ck_assert_uint_eq(plot_decim(&a, x, y, 0, 4, c), 0);
	n = plot_decim(&a, x, y, 6, 1, c);	/* one column holds them all */
	ck_assert_uint_eq(n, 1);
	ck_assert(c[0].n == 4 && c[0].ymin == 1 && c[0].ymax == 6 && c[0].imin == 0 && c[0].imax == 5);
}
END_TEST

START_TEST(test_equal_values)
{
	static const double x[] = { 1, 1, 1 }, y[] = { 3, 3, 3 };
	struct plot_decim_col c[8];
	struct plot_axis a;

	axis(&a, 0, 10);
	ck_assert_uint_eq(plot_decim(&a, x, y, 3, 8, c), 1);
	ck_assert(c[0].imin == 0 && c[0].imax == 0);	/* the first of equals */
}
END_TEST

Suite *plot_decim_suite(void)
{
	Suite *s = suite_create("plot_decim");
	TCase *t = tcase_create("core");

	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_few_points);
	tcase_add_test(t, test_600k);
	tcase_add_test(t, test_edges);
	tcase_add_test(t, test_equal_values);
	suite_add_tcase(s, t);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* noise: quantiles against scipy's (scipy.stats 1.10) and the closed forms of df 1 and 2,
 * the CDF at its own quantile, Welch's interval (equal errors, one side zero, both zero), the
 * curves (steps and interpolation), the order-statistic interval at the edges. */
#include <check.h>
#include <math.h>

#include "compare/noise.h"

static const struct {
	double df, p, t;
} t_table[] = {
	{ 1, 0.995, 63.6567411629 }, { 1, 0.975, 12.7062047364 }, { 1, 0.9995, 636.619249432 },
	{ 2, 0.995, 9.92484320092 }, { 2, 0.975, 4.30265272991 }, { 2, 0.9995, 31.599054577 },
	{ 3, 0.995, 5.84090929976 }, { 3, 0.975, 3.18244630528 }, { 3, 0.9995, 12.9239786366 },
	{ 4.5, 0.995, 4.27282399302 }, { 4.5, 0.975, 2.6589123472 }, { 4.5, 0.9995, 7.58074049937 },
	{ 10, 0.995, 3.16927266718 }, { 10, 0.975, 2.22813885196 }, { 10, 0.9995, 4.5868938587 },
	{ 30, 0.995, 2.74999565357 }, { 30, 0.975, 2.0422724563 }, { 30, 0.9995, 3.645958635 },
	{ 120, 0.995, 2.61742114477 }, { 120, 0.975, 1.97993040505 }, { 120, 0.9995, 3.37345376507 },
	{ INFINITY, 0.995, 2.5758293035489 }, { 1e9, 0.975, 1.95996398454005 },
};

START_TEST(test_t_quantiles)
{
	double t = noise_t(t_table[_i].p, t_table[_i].df);

	/* scipy's stdtri is good to about 1e-9; ours meets its own CDF to 1e-12 */
	ck_assert_double_eq_tol(t, t_table[_i].t, 1e-8 * t_table[_i].t);
	ck_assert_double_eq_tol(noise_t_cdf(t, t_table[_i].df), t_table[_i].p, 1e-12);
	ck_assert_double_eq_tol(noise_t(1 - t_table[_i].p, t_table[_i].df), -t, 1e-9 * t);
}
END_TEST

START_TEST(test_closed_forms)
{
	static const double ps[] = { 0.6, 0.9, 0.975, 0.995, 0.99999 };

	for (unsigned i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double p = ps[i], t1 = tan(M_PI * (p - 0.5)), t2 = (2 * p - 1) / sqrt(2 * p * (1 - p));

		ck_assert_double_eq_tol(noise_t(p, 1), t1, 1e-10 * t1);
		ck_assert_double_eq_tol(noise_t(p, 2), t2, 1e-10 * t2);
	}
	ck_assert_double_eq(noise_t(0.5, 3), 0.0);
	ck_assert_double_eq_tol(noise_t_cdf(-2.5, 3), 0.04385332350403277, 1e-14);
	ck_assert_double_eq_tol(noise_t_cdf(1.5, 2.5), 0.876081773456852, 1e-14);
	ck_assert_double_eq_tol(noise_z(1e-6), -4.7534243088229, 1e-11);
	ck_assert_double_eq_tol(noise_z(0.9), 1.2815515655446, 1e-12);
	ck_assert_double_eq(noise_z(0.5), 0.0);
}
END_TEST

START_TEST(test_bad_input)
{
	ck_assert(isnan(noise_z(0)));
	ck_assert(isnan(noise_z(1)));
	ck_assert(isnan(noise_z(NAN)));
	ck_assert(isnan(noise_t(0.9, 0)));
	ck_assert(isnan(noise_t(0.9, -1)));
	ck_assert(isnan(noise_t(1.5, 3)));
	ck_assert(isnan(noise_t_cdf(NAN, 3)));
	ck_assert(isnan(noise_t_cdf(1, NAN)));
	ck_assert_double_eq(noise_t_cdf(INFINITY, 3), 1.0);
	ck_assert_double_eq(noise_t_cdf(-INFINITY, 3), 0.0);
}
END_TEST

START_TEST(test_welch)
{
	double df;

	/* equal errors, equal df: nu = 2 df */
	ck_assert_double_eq_tol(noise_welch(1, 9, 1, 9, 0.99, &df), noise_t(0.995, 18) * sqrt(2), 1e-12);
	ck_assert_double_eq_tol(df, 18, 1e-12);
	/* one side exact: its partner's df */
	ck_assert_double_eq_tol(noise_welch(0, 3, 2, 4, 0.95, &df), noise_t(0.975, 4) * 2, 1e-12);
	ck_assert_double_eq_tol(df, 4, 1e-12);
	/* normal errors */
	ck_assert_double_eq_tol(noise_welch(3, INFINITY, 4, INFINITY, 0.99, &df), 5 * noise_z(0.995), 1e-12);
	ck_assert(isinf(df));
	/* nothing to go on: 0 */
	ck_assert_double_eq(noise_welch(0, 5, 0, 5, 0.99, &df), 0);
	ck_assert(isinf(df));
	ck_assert_double_eq(noise_welch(0, 5, 0, 5, 0.99, NULL), 0);
	/* Welch-Satterthwaite by hand: se 1 (df 4) and 2 (df 9) */
	noise_welch(1, 4, 2, 9, 0.99, &df);
	ck_assert_double_eq_tol(df, 25.0 / (1.0 / 4 + 16.0 / 9), 1e-12);
}
END_TEST

START_TEST(test_curves)
{
	static const double sf[] = { 0.25, 0.5, 0.75, 1.0 }, sv[] = { 10, 20, 30, 40 };
	static const double lf[] = { 0, 0.9, 0.99, 1.0 }, lv[] = { 1, 100, 200, 1000 };
	struct noise_curve steps = { sf, sv, 4, true }, list = { lf, lv, 4, false }, empty = { sf, sv, 0, true };

	ck_assert_double_eq(noise_curve_at(&steps, 0.0), 10);
	ck_assert_double_eq(noise_curve_at(&steps, 0.25), 10);	/* fio: the count reaches p */
	ck_assert_double_eq(noise_curve_at(&steps, 0.2500001), 20);
	ck_assert_double_eq(noise_curve_at(&steps, 0.9), 40);
	ck_assert_double_eq(noise_curve_at(&steps, 7), 40);
	ck_assert_double_eq(noise_curve_at(&list, -1), 1);
	ck_assert_double_eq(noise_curve_at(&list, 0.9), 100);
	/* p99.9-ish between p90 (x=1) and p99 (x=2) on -log10(1-f): halfway at f = 1 - 10^-1.5 */
	ck_assert_double_eq_tol(noise_curve_at(&list, 1 - pow(10, -1.5)), 150, 1e-9);
	ck_assert_double_eq_tol(noise_curve_at(&list, 0.45), 1 - 99 * log10(0.55), 1e-9);	/* from the minimum too */
	ck_assert_double_eq_tol(noise_curve_at(&list, 0.995), 600, 1e-9);	/* up to the maximum: linear in f */
	ck_assert_double_eq(noise_curve_at(&list, 1), 1000);
	ck_assert(isnan(noise_curve_at(&empty, 0.5)));
}
END_TEST

START_TEST(test_pct_interval)
{
	double lo, hi;

	noise_pct_interval(10000, 50, 0.99, &lo, &hi);
	ck_assert_double_eq_tol(hi - 0.5, noise_z(0.995) * 0.005, 1e-12);
	ck_assert_double_eq_tol(0.5 - lo, hi - 0.5, 1e-12);
	noise_pct_interval(10, 99.9, 0.99, &lo, &hi);	/* few values: clamped at the top */
	ck_assert_double_eq(hi, 1.0);
	ck_assert(lo < 0.999 && lo > 0.9);
	noise_pct_interval(0, 50, 0.99, &lo, &hi);	/* no values: anything */
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq(hi, 1);
	noise_pct_interval(100, 100, 0.99, &lo, &hi);
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq(hi, 1);
}
END_TEST

Suite *noise_suite(void)
{
	Suite *s = suite_create("noise");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_t_quantiles, 0, sizeof(t_table) / sizeof(t_table[0]));
	tcase_add_test(tc, test_closed_forms);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_welch);
	tcase_add_test(tc, test_curves);
	tcase_add_test(tc, test_pct_interval);
	suite_add_tcase(s, tc);
	return s;
}

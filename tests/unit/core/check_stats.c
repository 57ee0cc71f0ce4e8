/* SPDX-License-Identifier: MIT */
/* stats: Welford accumulation and fio's two merges (stat.c's __sum_stat()). */
#include <check.h>
#include <math.h>

#include "core/stats.h"

static const uint64_t samples[] = {
	281, 293, 297, 302, 302, 306, 310, 318, 326, 338, 375, 396, 848, 2868, 4293, 4948, 15270,
	42, 36094, 1, 7, 100000, 123456789, 5, 5, 5,
};
#define NR_SAMPLES (sizeof(samples) / sizeof(samples[0]))

static void two_pass(const uint64_t *v, unsigned n, double *mean, double *sd)
{
	double m = 0, s = 0;

	for (unsigned i = 0; i < n; i++)
		m += (double)v[i];
	m /= n;
	for (unsigned i = 0; i < n; i++)
		s += ((double)v[i] - m) * ((double)v[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(s / (n - 1)) : 0.0;
}

START_TEST(test_welford_matches_two_pass)
{
	struct lat_stat s = { 0 };
	double mean, sd;

	for (unsigned i = 0; i < NR_SAMPLES; i++)
		lat_stat_add(&s, samples[i]);
	two_pass(samples, NR_SAMPLES, &mean, &sd);
	ck_assert_uint_eq(s.n, NR_SAMPLES);
	ck_assert_uint_eq(s.min, 1);
	ck_assert_uint_eq(s.max, 123456789);
	ck_assert_double_eq_tol(s.mean, mean, mean * 1e-12);
	ck_assert_double_eq_tol(lat_stat_stdev(&s), sd, sd * 1e-9);
}
END_TEST

START_TEST(test_small_n)
{
	struct lat_stat s = { 0 };

	ck_assert_double_eq(lat_stat_stdev(&s), 0.0);
	lat_stat_add(&s, 0);
	ck_assert_uint_eq(s.min, 0);
	ck_assert_uint_eq(s.max, 0);
	lat_stat_add(&s, 0);
	ck_assert_double_eq(lat_stat_stdev(&s), 0.0);
	s = (struct lat_stat){ 0 };
	lat_stat_add(&s, 7);
	ck_assert_uint_eq(s.min, 7);
	ck_assert_double_eq(lat_stat_stdev(&s), 0.0);	/* n == 1: 0, like fio */
}
END_TEST

START_TEST(test_chan_merge_equals_concatenation)
{
	for (unsigned split = 0; split <= NR_SAMPLES; split++) {
		struct lat_stat a = { 0 }, b = { 0 }, all = { 0 };

		for (unsigned i = 0; i < NR_SAMPLES; i++) {
			lat_stat_add(i < split ? &a : &b, samples[i]);
			lat_stat_add(&all, samples[i]);
		}
		lat_stat_merge(&a, &b);
		ck_assert_uint_eq(a.n, all.n);
		ck_assert_uint_eq(a.min, all.min);
		ck_assert_uint_eq(a.max, all.max);
		ck_assert_double_eq_tol(a.mean, all.mean, all.mean * 1e-12);
		ck_assert_double_eq_tol(lat_stat_stdev(&a), lat_stat_stdev(&all),
					lat_stat_stdev(&all) * 1e-9);
	}
}
END_TEST

START_TEST(test_merge_with_empty_keeps_min)
{
	struct lat_stat a = { 0 }, e = { 0 };

	lat_stat_add(&a, 50);
	lat_stat_merge(&a, &e);
	ck_assert_uint_eq(a.min, 50);
	ck_assert_uint_eq(a.n, 1);
	lat_stat_merge(&e, &a);	/* empty destination takes src as is */
	ck_assert_uint_eq(e.min, 50);
	ck_assert_uint_eq(e.max, 50);
	ck_assert_uint_eq(e.n, 1);
}
END_TEST

START_TEST(test_pure_sum)
{
	/* fio's group bw: two jobs with one 500 ms sample each -> min == max == sum, samples=2 */
	struct lat_stat a = { 0 }, b = { 0 }, c = { 0 };

	lat_stat_add(&a, 48000);
	lat_stat_add(&b, 49254);
	lat_stat_sum(&c, &a);
	lat_stat_sum(&c, &b);
	ck_assert_uint_eq(c.min, 97254);
	ck_assert_uint_eq(c.max, 97254);
	ck_assert_double_eq(c.mean, 97254.0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_double_eq(lat_stat_stdev(&c), 0.0);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_welford_matches_two_pass);
	tcase_add_test(tc, test_small_n);
	tcase_add_test(tc, test_chan_merge_equals_concatenation);
	tcase_add_test(tc, test_merge_with_empty_keeps_min);
	tcase_add_test(tc, test_pure_sum);
	suite_add_tcase(s, tc);
	return s;
}

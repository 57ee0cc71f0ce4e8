/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <math.h>
#include <stdint.h>

#include "ioping/ioping_stats.h"

static const struct ioping_limits default_lim = { .warmup = 1, .min_time_ns = 0,
						  .max_time_ns = INT64_MAX };

START_TEST(test_stats_mdev_population)
{
	struct ioping_stats st;
	struct ioping_summary s;

	ioping_stats_init(&st);
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, 1, 137174), IOPING_NOTICE_WARMUP);
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, 2, 52308), IOPING_NOTICE_NONE);
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, 3, 44506), IOPING_NOTICE_NONE);
	ioping_stats_summary(&st, 4096, 300497, &s);
	/* the JSON example of the reference: count 2, time 96814, avg 48407, mdev 3901 */
	ck_assert_uint_eq(s.nr_valid, 2);
	ck_assert_uint_eq(s.nr_count, 3);
	ck_assert(s.sum_ns == 96814);
	ck_assert(s.min_ns == 44506 && s.max_ns == 52308);
	ck_assert(round(s.avg_ns) == 48407);
	ck_assert(round(s.mdev_ns) == 3901);
	ck_assert(fabs(s.iops - 20658.169273) < 1e-5);
	ck_assert(round(s.bytes_per_s) == 84615861);
	ck_assert_uint_eq(s.valid_bytes, 8192);
	ck_assert_uint_eq(s.count_bytes, 12288);
	ck_assert(fabs(s.load_iops - 9983.460733) < 1e-5);
	ck_assert(round(s.load_bytes_per_s) == 40892255);
}
END_TEST

START_TEST(test_stats_empty)
{
	struct ioping_stats st;
	struct ioping_summary s;

	ioping_stats_init(&st);
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, 1, 67901), IOPING_NOTICE_WARMUP);
	ioping_stats_summary(&st, 4096, 67901, &s);
	ck_assert(s.nr_valid == 0 && s.nr_count == 1);
	ck_assert(s.sum_ns == 0 && s.avg_ns == 0 && s.mdev_ns == 0 && s.iops == 0);
	ck_assert(s.min_ns == 0 && s.max_ns == 0);
	ioping_stats_summary(&st, 4096, 0, &s);	/* zero wall time: no division */
	ck_assert(s.load_iops == 0);
}
END_TEST

START_TEST(test_stats_filters)
{
	struct ioping_limits lim = { .warmup = 2, .min_time_ns = 100, .max_time_ns = 1000 };
	struct ioping_stats st;

	ioping_stats_init(&st);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 1, 5), IOPING_NOTICE_WARMUP);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 2, 5000), IOPING_NOTICE_WARMUP);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 3, 99), IOPING_NOTICE_TOO_FAST);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 4, 1001), IOPING_NOTICE_TOO_SLOW);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 5, 100), IOPING_NOTICE_NONE);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 6, 1000), IOPING_NOTICE_NONE);
	ck_assert_uint_eq(st.nr_count, 6);
	ck_assert_uint_eq(st.nr_valid, 2);
	ck_assert_uint_eq(st.nr_too_fast, 1);
	ck_assert_uint_eq(st.nr_too_slow, 1);
	ck_assert(st.min_ns == 100 && st.max_ns == 1000);
	/* warmup 0: the first request counts */
	lim.warmup = 0;
	ioping_stats_init(&st);
	ck_assert_int_eq(ioping_stats_add(&st, &lim, 1, 500), IOPING_NOTICE_NONE);
	ck_assert_uint_eq(st.nr_valid, 1);
}
END_TEST

/* fast/slow: only once more than 5 requests are valid; avg includes the current one. */
START_TEST(test_stats_fast_slow)
{
	struct ioping_stats st;
	int64_t req = 1;

	ioping_stats_init(&st);
	(void)ioping_stats_add(&st, &default_lim, req++, 1000);	/* warmup */
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(ioping_stats_add(&st, &default_lim, req++, 100), IOPING_NOTICE_NONE);
	/* 5th valid: not yet eligible even though far above 2x avg */
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, req++, 10000), IOPING_NOTICE_NONE);
	/* sum 10400 + t, 6 valid */
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, req++, 100), IOPING_NOTICE_FAST);
	/* sum 10500, avg(7 valid incl. 5000) = 15500/7 = 2214: 5000 > 4428 */
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, req++, 5000), IOPING_NOTICE_SLOW);
	/* 20500 + 1200 = 21700 / 8 = 2712: neither */
	ck_assert_int_eq(ioping_stats_add(&st, &default_lim, req++, 1200), IOPING_NOTICE_NONE);
}
END_TEST

START_TEST(test_stats_merge_periods)
{
	struct ioping_stats a, b, total;
	struct ioping_summary s;

	ioping_stats_init(&a);
	ioping_stats_init(&b);
	ioping_stats_init(&total);
	(void)ioping_stats_add(&a, &default_lim, 1, 999);
	(void)ioping_stats_add(&a, &default_lim, 2, 300);
	(void)ioping_stats_add(&a, &default_lim, 3, 100);
	(void)ioping_stats_add(&b, &default_lim, 4, 200);
	(void)ioping_stats_add(&b, &default_lim, 5, 50);
	ioping_stats_merge(&total, &a);
	ioping_stats_merge(&total, &b);
	ioping_stats_summary(&total, 512, 1000000, &s);
	ck_assert_uint_eq(s.nr_count, 5);
	ck_assert_uint_eq(s.nr_valid, 4);
	ck_assert(s.min_ns == 50 && s.max_ns == 300);
	ck_assert(s.sum_ns == 650);
	ck_assert(s.avg_ns == 162.5);
	/* merging an empty period changes nothing */
	ioping_stats_init(&a);
	ioping_stats_merge(&total, &a);
	ck_assert(total.min_ns == 50 && total.max_ns == 300 && total.nr_valid == 4);
}
END_TEST

START_TEST(test_notice_names)
{
	ck_assert_ptr_null(ioping_notice_name(IOPING_NOTICE_NONE));
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_WARMUP), "warmup");
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_TOO_FAST), "too fast");
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_TOO_SLOW), "too slow");
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_FAST), "fast");
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_SLOW), "slow");
	ck_assert_str_eq(ioping_notice_name(IOPING_NOTICE_EAGAIN), "EAGAIN");
}
END_TEST

Suite *ioping_stats_suite(void)
{
	Suite *s = suite_create("ioping_stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stats_mdev_population);
	tcase_add_test(tc, test_stats_empty);
	tcase_add_test(tc, test_stats_filters);
	tcase_add_test(tc, test_stats_fast_slow);
	tcase_add_test(tc, test_stats_merge_periods);
	tcase_add_test(tc, test_notice_names);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rng.h"

START_TEST(test_rng_same_seed_same_stream)
{
	struct rng a, b;

	rng_init(&a, 0x89);
	rng_init(&b, 0x89);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(rng_next(&a), rng_next(&b));
}
END_TEST

START_TEST(test_rng_different_seeds_differ)
{
	struct rng a, b;
	int same = 0;

	rng_init(&a, 1);
	rng_init(&b, 2);
	for (int i = 0; i < 100; i++)
		same += rng_next(&a) == rng_next(&b);
	ck_assert_int_lt(same, 2);
}
END_TEST

static const uint64_t below_cases[] = { 1, 2, 3, 7, 100, 4096, 1000003, (1ull << 32) + 1, UINT64_MAX };

START_TEST(test_rng_below_range)
{
	struct rng r;
	uint64_t n = below_cases[_i];

	rng_init(&r, 42);
	for (int i = 0; i < 20000; i++)
		ck_assert_uint_lt(rng_below(&r, n), n);
}
END_TEST

START_TEST(test_rng_below_zero_and_uniform)
{
	struct rng r;
	unsigned counts[10] = { 0 };

	rng_init(&r, 7);
	ck_assert_uint_eq(rng_below(&r, 0), 0);
	for (int i = 0; i < 100000; i++)
		counts[rng_below(&r, 10)]++;
	for (int i = 0; i < 10; i++) {
		ck_assert_uint_gt(counts[i], 9500);
		ck_assert_uint_lt(counts[i], 10500);
	}
}
END_TEST

START_TEST(test_rng_percent_edges)
{
	struct rng r;
	unsigned hits = 0;

	rng_init(&r, 3);
	for (int i = 0; i < 1000; i++) {
		ck_assert(!rng_percent(&r, 0));
		ck_assert(rng_percent(&r, 100));
		ck_assert(rng_percent(&r, 250));
	}
	for (int i = 0; i < 100000; i++)
		hits += rng_percent(&r, 30);
	ck_assert_uint_gt(hits, 29000);
	ck_assert_uint_lt(hits, 31000);
}
END_TEST

START_TEST(test_rng_job_seed_rules)
{
	/* repeatable: same inputs, same seed; clones and streams differ */
	ck_assert_uint_eq(rng_job_seed(0x89, true, 1, RNG_OFFSET), rng_job_seed(0x89, true, 1, RNG_OFFSET));
	ck_assert_uint_ne(rng_job_seed(0x89, true, 1, RNG_OFFSET), rng_job_seed(0x89, true, 2, RNG_OFFSET));
	ck_assert_uint_ne(rng_job_seed(0x89, true, 1, RNG_OFFSET), rng_job_seed(0x89, true, 1, RNG_RWMIX));
	ck_assert_uint_ne(rng_job_seed(0x89, true, 1, RNG_OFFSET), rng_job_seed(0x8a, true, 1, RNG_OFFSET));
	/* not repeatable: entropy, two draws differ */
	ck_assert_uint_ne(rng_job_seed(0x89, false, 1, RNG_OFFSET), rng_job_seed(0x89, false, 1, RNG_OFFSET));
}
END_TEST

START_TEST(test_rng_fill_odd_lengths)
{
	struct rng r;
	unsigned char buf[37];

	rng_init(&r, 5);
	memset(buf, 0, sizeof(buf));
	rng_fill(&r, buf, 13);
	ck_assert_uint_eq(buf[13], 0);
	rng_fill(&r, buf, sizeof(buf));
	rng_fill(&r, buf, 0);
}
END_TEST

START_TEST(test_clock_monotonic)
{
	uint64_t a = clock_now_ns(), b = clock_now_ns();
	struct timespec ts;

	ck_assert_uint_ge(b, a);
	ck_assert_uint_gt(a, 0);
	ck_assert_uint_eq(clock_us_between(5000, 2000), 0);
	ck_assert_uint_eq(clock_us_between(2000, 7999), 5);
	clock_ns_to_timespec(3500000001ull, &ts);
	ck_assert_int_eq(ts.tv_sec, 3);
	ck_assert_int_eq(ts.tv_nsec, 500000001);
}
END_TEST

Suite *rng_suite(void);
Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rng_same_seed_same_stream);
	tcase_add_test(tc, test_rng_different_seeds_differ);
	tcase_add_loop_test(tc, test_rng_below_range, 0, (int)(sizeof(below_cases) / sizeof(below_cases[0])));
	tcase_add_test(tc, test_rng_below_zero_and_uniform);
	tcase_add_test(tc, test_rng_percent_edges);
	tcase_add_test(tc, test_rng_job_seed_rules);
	tcase_add_test(tc, test_rng_fill_odd_lengths);
	tcase_add_test(tc, test_clock_monotonic);
	suite_add_tcase(s, tc);
	return s;
}

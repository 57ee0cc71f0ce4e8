/* SPDX-License-Identifier: MIT */
/* hist: fio's log-linear latency histogram (fio's stat.h and stat.c: plat_val_to_idx(), calc_clat_percentiles()). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"

START_TEST(test_exact_below_128)
{
	for (uint64_t v = 0; v < 128; v++) {
		ck_assert_uint_eq(hist_idx(v), v);
		ck_assert_uint_eq(hist_idx_to_val((unsigned)v), v);
	}
}
END_TEST

START_TEST(test_worked_example)
{
	/* 300000 ns: msb 18, error_bits 12, base 832, offset 9 -> idx 841 -> 301056 */
	ck_assert_uint_eq(hist_idx(300000), 841);
	ck_assert_uint_eq(hist_idx_to_val(841), 301056);
	/* json+ bin keys seen in fio output: 256-ns steps in the 16-32 us group */
	ck_assert_uint_eq(hist_idx_to_val(hist_idx(21632)), 21632);
	ck_assert_uint_eq(hist_idx_to_val(hist_idx(24192)), 24192);
	ck_assert_uint_eq(hist_idx_to_val(hist_idx(24448)), 24448);
	ck_assert_uint_eq(hist_idx(128), 128);
	ck_assert_uint_eq(hist_idx_to_val(128), 129);	/* 128 + 0.5 * 2 */
}
END_TEST

START_TEST(test_round_trip_every_bucket)
{
	for (unsigned idx = 0; idx < HIST_NR; idx++)
		ck_assert_uint_eq(hist_idx(hist_idx_to_val(idx)), idx);
}
END_TEST

START_TEST(test_error_bound)
{
	/* every value below 2^34 ns is represented within 1/2^7 (0.78 %) */
	uint64_t v = 1;

	for (unsigned i = 0; i < 200000; i++) {
		uint64_t rep = hist_idx_to_val(hist_idx(v));
		uint64_t diff = rep > v ? rep - v : v - rep;

		ck_assert_msg(diff * 128 <= v, "v=%llu rep=%llu", (unsigned long long)v,
			      (unsigned long long)rep);
		v = v * 1000003 / 1000000 + 1;
		if (v >= (1ull << 34))
			v = v % 1000 + 1;
	}
}
END_TEST

START_TEST(test_overflow_last_bucket)
{
	ck_assert_uint_eq(hist_idx(1ull << 34), HIST_NR - 1);
	ck_assert_uint_eq(hist_idx(UINT64_MAX), HIST_NR - 1);
	ck_assert_uint_eq(hist_idx_to_val(HIST_NR - 1), hist_idx_to_val(HIST_NR + 5));
	/* the last bucket's value is about 17.11 s */
	ck_assert_uint_gt(hist_idx_to_val(HIST_NR - 1), 17000000000ull);
	ck_assert_uint_lt(hist_idx_to_val(HIST_NR - 1), 17200000000ull);
}
END_TEST

static const double default_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_percentiles_exact_small)
{
	/* values below 128 are exact: nearest rank, no interpolation */
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t out[17];

	for (uint64_t v = 1; v <= 100; v++)
		hist_add(h, v);
	ck_assert_uint_eq(hist_percentiles(h, default_pcts, 17, out), 17);
	ck_assert_uint_eq(out[0], 1);
	ck_assert_uint_eq(out[1], 5);
	ck_assert_uint_eq(out[6], 50);
	ck_assert_uint_eq(out[12], 99);
	ck_assert_uint_eq(out[13], 100);	/* 99.5 % of 100 = 99.5 -> rank 100 */
	ck_assert_uint_eq(out[16], 100);
	free(h);
}
END_TEST

START_TEST(test_percentiles_against_exact)
{
	/* pseudo-random latencies 1 us .. 50 ms; each percentile is the bucket value of the
	 * nearest-rank sample, so within 0.78 % of the exact order statistic */
	enum { N = 20000 };
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t *v = malloc(N * sizeof(*v)), out[17], x = 88172645463325252ull;

	for (unsigned i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = 1000 + x % 50000000;
		hist_add(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	ck_assert_uint_eq(hist_percentiles(h, default_pcts, 17, out), 17);
	for (unsigned k = 0; k < 17; k++) {
		unsigned rank = (unsigned)((default_pcts[k] / 100.0) * N + 0.999999);
		uint64_t exact = v[rank - 1];
		uint64_t diff = out[k] > exact ? out[k] - exact : exact - out[k];

		ck_assert_msg(diff * 128 <= exact, "p%.2f: %llu vs exact %llu", default_pcts[k],
			      (unsigned long long)out[k], (unsigned long long)exact);
		ck_assert_uint_eq(out[k], hist_idx_to_val(hist_idx(exact)));
	}
	free(v);
	free(h);
}
END_TEST

START_TEST(test_percentiles_empty_and_merge)
{
	struct hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	uint64_t out[17];

	ck_assert_uint_eq(hist_percentiles(a, default_pcts, 17, out), 0);
	hist_add(a, 10);
	hist_add(b, 1000000);
	hist_add(b, 1000000);
	hist_merge(a, b);
	ck_assert_uint_eq(a->total, 3);
	ck_assert_uint_eq(a->bucket[10], 1);
	ck_assert_uint_eq(a->bucket[hist_idx(1000000)], 2);
	ck_assert_uint_eq(hist_percentiles(a, default_pcts, 17, out), 17);
	ck_assert_uint_eq(out[0], 10);	/* 1 % of 3 -> first sample */
	ck_assert_uint_eq(out[4], 10);	/* 30 % of 3 = 0.9 -> still first */
	ck_assert_uint_eq(out[5], hist_idx_to_val(hist_idx(1000000)));	/* 40 % -> 1.2 */
	free(a);
	free(b);
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_exact_below_128);
	tcase_add_test(tc, test_worked_example);
	tcase_add_test(tc, test_round_trip_every_bucket);
	tcase_add_test(tc, test_error_bound);
	tcase_add_test(tc, test_overflow_last_bucket);
	tcase_add_test(tc, test_percentiles_exact_small);
	tcase_add_test(tc, test_percentiles_against_exact);
	tcase_add_test(tc, test_percentiles_empty_and_merge);
	suite_add_tcase(s, tc);
	return s;
}

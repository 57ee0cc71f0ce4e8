/* SPDX-License-Identifier: MIT */
/* lfsr: every value of [0, n) exactly once per cycle, for sizes around every power of two;
 * the order depends on the seed and is not sequential; reset repeats the cycle. */
#include <check.h>
#include <stdbool.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lfsr.h"

static const uint64_t cycle_sizes[] = {
	1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256,
	257, 1000, 1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536, 65537, 100000, 262143, 262144,
	262145, 1048575, 1048576, 1048577,
};

START_TEST(test_lfsr_each_value_once)
{
	uint64_t n = cycle_sizes[_i], v, got = 0;
	unsigned char *seen = calloc(n, 1);
	struct lfsr l;

	ck_assert_ptr_nonnull(seen);
	ck_assert_int_eq(lfsr_init(&l, n, 0x89 + n), 0);
	/* plain tests in the loop: every ck_assert writes a mark point, a million are slow */
	while (lfsr_next(&l, &v)) {
		if (v >= n)
			ck_abort_msg("n=%llu: value %llu out of range", (unsigned long long)n, (unsigned long long)v);
		if (seen[v])
			ck_abort_msg("n=%llu: value %llu twice", (unsigned long long)n, (unsigned long long)v);
		seen[v] = 1;
		got++;
	}
	ck_assert_uint_eq(got, n);
	ck_assert(!lfsr_next(&l, &v));
	free(seen);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every register width: the first 5000 values (or all) are distinct and in range. */
START_TEST(test_lfsr_every_width_no_repeat)
{
	unsigned k = (unsigned)_i;	/* 2..63 */
	uint64_t n = (1ull << k) - 1, v, prev[5000];
	unsigned nr = 0;
	struct lfsr l;

	ck_assert_int_eq(lfsr_init(&l, n, 12345), 0);
	while (nr < 5000 && lfsr_next(&l, &v)) {
		if (v >= n)
			ck_abort_msg("k=%u: value out of range", k);
		prev[nr++] = v;
	}
	qsort(prev, nr, sizeof(prev[0]), cmp_u64);
	for (unsigned i = 1; i < nr; i++)
		if (prev[i] == prev[i - 1])
			ck_abort_msg("k=%u: a value came twice", k);
}
END_TEST

START_TEST(test_lfsr_seed_reset_order)
{
	uint64_t a[64], b[64], v;
	unsigned seq = 0;
	struct lfsr l, m;

	ck_assert_int_eq(lfsr_init(&l, 64, 1), 0);
	ck_assert_int_eq(lfsr_init(&m, 64, 2), 0);
	for (int i = 0; i < 64; i++) {
		ck_assert(lfsr_next(&l, &a[i]));
		ck_assert(lfsr_next(&m, &b[i]));
		if (i && a[i] == a[i - 1] + 1)
			seq++;
	}
	ck_assert_msg(memcmp(a, b, sizeof(a)) != 0, "two seeds, one order");
	ck_assert_uint_lt(seq, 16);	/* scrambled, not sequential */
	/* fio's reset steps once from the seed where init stepped twice: the state init skipped
	 * (here in range, so the last of the first pass) comes first, then the same order */
	lfsr_reset(&l);
	{
		uint64_t r[64];
		bool same = true, rotated = true;

		for (int i = 0; i < 64; i++)
			ck_assert(lfsr_next(&l, &r[i]));
		ck_assert(!lfsr_next(&l, &v));
		for (int i = 0; i < 64; i++) {
			same = same && r[i] == a[i];
			rotated = rotated && r[i] == a[(i + 63) % 64];
		}
		ck_assert_msg(same || rotated, "reset: not the first pass's order");
	}
	ck_assert_int_eq(lfsr_init(&l, 0, 1), -EINVAL);
	ck_assert_int_eq(lfsr_init(&l, UINT64_MAX, 1), -EINVAL);	/* fio's widths end at 63 bits */
	ck_assert_int_eq(lfsr_init(&l, 64, 127), -EINVAL);		/* all ones: fio refuses the seed */
	ck_assert_int_eq(lfsr_init(&l, (1ull << 63) - 1, 5), 0);
	ck_assert(lfsr_next(&l, &v));
	ck_assert_uint_lt(v, (1ull << 63) - 1);
}
END_TEST

/* fio 3.33's order, observed: 512 blocks, the random block seed of job 1 (randrepeat) */
START_TEST(test_lfsr_fio_order)
{
	static const uint64_t want[] = { 443, 503 };
	struct lfsr l;
	uint64_t v;

	ck_assert_int_eq(lfsr_init(&l, 512, 0xb1899bedull), 0);
	for (unsigned i = 0; i < 2; i++) {
		ck_assert(lfsr_next(&l, &v));
		ck_assert_uint_eq(v, want[i]);
	}
}
END_TEST

Suite *lfsr_suite(void)
{
	Suite *s = suite_create("lfsr");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_lfsr_each_value_once, 0, (int)(sizeof(cycle_sizes) / sizeof(cycle_sizes[0])));
	tcase_add_loop_test(tc, test_lfsr_every_width_no_repeat, 2, 64);
	tcase_add_test(tc, test_lfsr_seed_reset_order);
	tcase_add_test(tc, test_lfsr_fio_order);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>

#include "core/frand.h"

/* fio 3.33's draws, observed (--debug=random prints each raw offset draw): job 1 with
 * randrepeat seeds its random block generator with 0xb1899bed. */
START_TEST(test_frand_fio_streams)
{
	static const uint64_t want32[] = { 259043585u, 3179521932u, 3621444214u, 2018697059u };
	static const uint64_t want64[] = { 17311067694306724737ull, 485009114434689783ull };
	struct frand f;

	frand_init(&f, 0xb1899bedull, false);
	ck_assert_uint_eq(frand_max(&f), UINT32_MAX);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(frand_next(&f), want32[i]);
	frand_init(&f, 0xb1899bedull, true);
	ck_assert_uint_eq(frand_max(&f), UINT64_MAX);
	for (unsigned i = 0; i < 2; i++)
		ck_assert_uint_eq(frand_next(&f), want64[i]);
}
END_TEST

/* Seeds the component minimums catch: 0, all ones, values that make a component small. */
static const uint64_t seed_cases[] = { 0, 1, 7, 15, 0xffffffffull, UINT64_MAX, 0x100000000ull, 53 * 69069 };

START_TEST(test_frand_seeds_never_stall)
{
	struct frand f;

	for (int w = 0; w < 2; w++) {
		uint64_t prev, same = 0;

		frand_init(&f, seed_cases[_i], w == 1);
		prev = frand_next(&f);
		for (int i = 0; i < 10000; i++) {
			uint64_t v = frand_next(&f);

			same += v == prev;
			prev = v;
		}
		if (same > 2)
			ck_abort_msg("seed %llu (%d-bit): %llu repeats", (unsigned long long)seed_cases[_i],
				     w ? 64 : 32, (unsigned long long)same);
		/* the 32-bit generator takes the seed's low 32 bits, as fio's */
		if (!w) {
			struct frand g;

			frand_init(&g, seed_cases[_i] & 0xffffffffull, false);
			frand_init(&f, seed_cases[_i], false);
			if (frand_next(&f) != frand_next(&g))
				ck_abort_msg("seed %llu: high bits used", (unsigned long long)seed_cases[_i]);
		}
	}
}
END_TEST

static const uint64_t scale_cases[] = { 0, 1, 2, 3, 100, 4096, 1ull << 32, (1ull << 53) + 1, UINT64_MAX };

START_TEST(test_frand_scale_range)
{
	uint64_t n = scale_cases[_i];
	struct frand f;

	for (int w = 0; w < 2; w++) {
		frand_init(&f, 0x89 + n, w == 1);
		for (int i = 0; i < 20000; i++) {
			uint64_t b = frand_scale(&f, n);

			if (n ? b >= n : b != 0)
				ck_abort_msg("n=%llu: %llu out of range", (unsigned long long)n, (unsigned long long)b);
		}
	}
}
END_TEST

START_TEST(test_frand_between_bounds)
{
	struct frand f;
	unsigned hits[101] = { 0 };

	for (int w = 0; w < 2; w++) {
		frand_init(&f, 42, w == 1);
		for (int i = 0; i < 100000; i++) {
			uint64_t v = frand_between(&f, 1, 100);

			if (v < 1 || v > 100)
				ck_abort_msg("%llu outside 1..100", (unsigned long long)v);
			hits[v]++;
		}
		ck_assert_uint_eq(frand_between(&f, 7, 7), 7);
		ck_assert_uint_eq(frand_between(&f, 0, 0), 0);
	}
	for (int v = 1; v <= 100; v++)	/* 2000 expected per value */
		if (hits[v] < 1600 || hits[v] > 2400)
			ck_abort_msg("value %d drawn %u times of 200000", v, hits[v]);
}
END_TEST

/* fio's rwmix choice for job 1: the first draws of the 32-bit generator from the mix seed
 * scale as fio's rand_between() (end + 1) * r / 2^32. */
START_TEST(test_frand_between_is_fio_mapping)
{
	struct frand a, b;

	frand_init(&a, 12345, false);
	frand_init(&b, 12345, false);
	for (int i = 0; i < 1000; i++) {
		uint64_t r = frand_next(&b), want = 1 + (uint64_t)(100.0 * ((double)r / 4294967296.0));

		if (frand_between(&a, 1, 100) != want)
			ck_abort_msg("draw %d differs", i);
	}
}
END_TEST

Suite *frand_suite(void)
{
	Suite *s = suite_create("frand");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_frand_fio_streams);
	tcase_add_loop_test(tc, test_frand_seeds_never_stall, 0, (int)(sizeof(seed_cases) / sizeof(seed_cases[0])));
	tcase_add_loop_test(tc, test_frand_scale_range, 0, (int)(sizeof(scale_cases) / sizeof(scale_cases[0])));
	tcase_add_test(tc, test_frand_between_bounds);
	tcase_add_test(tc, test_frand_between_is_fio_mapping);
	suite_add_tcase(s, tc);
	return s;
}

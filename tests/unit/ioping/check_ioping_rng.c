/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ioping/ioping_rng.h"

/* ioping -e 42 -c 4 -i 0 -q DIR (4 KiB requests, 1 MiB working file) reads these offsets:
 * one buffer fill, 255 more preparation chunk fills, then one draw per request. */
START_TEST(test_rng_ioping_vector)
{
	static const uint64_t want[] = { 57344, 962560, 245760, 942080 };
	struct ioping_rng rng;
	unsigned char *buf = malloc(4096);

	ck_assert_ptr_nonnull(buf);
	ioping_rng_seed(&rng, 42);
	ioping_rng_fill(&rng, buf, 4096);
	for (int i = 1; i < 256; i++)
		ioping_rng_fill(&rng, buf, 4096);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(ioping_rng_next(&rng) % 256 * 4096, want[i]);
	free(buf);
}
END_TEST

/* Regular 1 MiB file, -e 7 -s 12: 2 fill draws (one for the 4-byte tail), then offsets. */
START_TEST(test_rng_file_vector_tail)
{
	static const uint64_t want[] = { 802680, 630204, 879228, 643980, 713280 };
	struct ioping_rng rng;
	unsigned char buf[12];

	ioping_rng_seed(&rng, 7);
	ioping_rng_fill(&rng, buf, sizeof(buf));
	for (int i = 0; i < 5; i++)
		ck_assert_uint_eq(ioping_rng_next(&rng) % (1048576 / 12) * 12, want[i]);
}
END_TEST

START_TEST(test_rng_fill_consumes_ceil_words)
{
	struct ioping_rng a, b;
	unsigned char buf[24];
	uint64_t w;

	for (size_t len = 0; len <= 17; len++) {
		ioping_rng_seed(&a, 99);
		ioping_rng_seed(&b, 99);
		ioping_rng_fill(&a, buf, len);
		for (size_t i = 0; i < (len + 7) / 8; i++)
			(void)ioping_rng_next(&b);
		ck_assert_uint_eq(ioping_rng_next(&a), ioping_rng_next(&b));
	}
	/* the bytes are the outputs, little-endian words */
	ioping_rng_seed(&a, 5);
	ioping_rng_seed(&b, 5);
	ioping_rng_fill(&a, buf, 8);
	w = ioping_rng_next(&b);
	ck_assert(memcmp(buf, &w, 8) == 0);
}
END_TEST

START_TEST(test_rng_seeds_differ)
{
	struct ioping_rng a, b;

	ioping_rng_seed(&a, 0);
	ioping_rng_seed(&b, 1);
	ck_assert_uint_ne(ioping_rng_next(&a), ioping_rng_next(&b));
	ioping_rng_seed(&a, UINT64_MAX);
	ck_assert_uint_ne(ioping_rng_next(&a), 0);
}
END_TEST

Suite *ioping_rng_suite(void)
{
	Suite *s = suite_create("ioping_rng");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rng_ioping_vector);
	tcase_add_test(tc, test_rng_file_vector_tail);
	tcase_add_test(tc, test_rng_fill_consumes_ceil_words);
	tcase_add_test(tc, test_rng_seeds_differ);
	suite_add_tcase(s, tc);
	return s;
}

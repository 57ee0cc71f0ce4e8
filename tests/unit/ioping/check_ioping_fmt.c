/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ioping/ioping_fmt.h"

struct fmt_case {
	int64_t val;
	enum ioping_fmt_unit unit;
	const char *want;
};

/* ioping 1.3's number formatting (print_suffix(): not "3 significant digits"), plus edges. */
static const struct fmt_case fmt_cases[] = {
	{ 601, IOPING_FMT_TIME, "601 ns" },
	{ 1000, IOPING_FMT_TIME, "1 us" },
	{ 1500, IOPING_FMT_TIME, "1.50 us" },
	{ 9999, IOPING_FMT_TIME, "10.00 us" },
	{ 253900, IOPING_FMT_TIME, "253.9 us" },
	{ 999999, IOPING_FMT_TIME, "1000.0 us" },
	{ 2350000, IOPING_FMT_TIME, "2.35 ms" },
	{ 90000000000ll, IOPING_FMT_TIME, "1.50 min" },
	{ 3000000000ll, IOPING_FMT_TIME, "3 s" },
	{ 7200000000000ll, IOPING_FMT_TIME, "2 hour" },
	{ 0, IOPING_FMT_TIME, "0 ns" },
	{ INT64_MIN, IOPING_FMT_TIME, "-9223372036854775808 ns" },
	{ 1023, IOPING_FMT_SIZE, "1023 B" },
	{ 10239, IOPING_FMT_SIZE, "10.00 KiB" },
	{ 1048575, IOPING_FMT_SIZE, "1024.0 KiB" },
	{ 270553174016ll, IOPING_FMT_SIZE, "252.0 GiB" },
	{ 4096, IOPING_FMT_SIZE, "4 KiB" },
	{ 1536, IOPING_FMT_SIZE, "1.50 KiB" },
	{ 1000, IOPING_FMT_SIZE, "1000 B" },
	{ 0, IOPING_FMT_SIZE, "0 B" },
	{ INT64_MAX, IOPING_FMT_SIZE, "8192.0 PiB" },
	{ 1, IOPING_FMT_COUNT, "1" },
	{ 4097, IOPING_FMT_COUNT, "4.10 k" },
	{ 29300, IOPING_FMT_COUNT, "29.3 k" },
	{ 3060000, IOPING_FMT_COUNT, "3.06 M" },
	{ 0, IOPING_FMT_COUNT, "0" },
	{ 1000000000000ll, IOPING_FMT_COUNT, "1 T" },
};

START_TEST(test_fmt_vectors)
{
	const struct fmt_case *c = &fmt_cases[_i];
	char buf[IOPING_FMT_LEN];
	int n = ioping_fmt_suffix(buf, sizeof(buf), c->val, c->unit);

	ck_assert_int_eq(n, (int)strlen(c->want));
	ck_assert_str_eq(buf, c->want);
}
END_TEST

START_TEST(test_fmt_small_buffer)
{
	char buf[4];

	ck_assert_int_lt(ioping_fmt_suffix(buf, sizeof(buf), 253900, IOPING_FMT_TIME), 0);
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
}
END_TEST

START_TEST(test_fmt_to_i64)
{
	ck_assert(ioping_fmt_to_i64(1.249) == 1);
	ck_assert(ioping_fmt_to_i64(-1.9) == -1);
	ck_assert(ioping_fmt_to_i64(NAN) == INT64_MIN);
	ck_assert(ioping_fmt_to_i64(INFINITY) == INT64_MIN);
	ck_assert(ioping_fmt_to_i64(9223372036854775808.0) == INT64_MIN);
	ck_assert(ioping_fmt_to_i64(9223372036854774784.0) == 9223372036854774784ll);
	ck_assert(ioping_fmt_to_i64(-9223372036854775808.0) == INT64_MIN);
}
END_TEST

Suite *ioping_fmt_suite(void)
{
	Suite *s = suite_create("ioping_fmt");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_fmt_vectors, 0, sizeof(fmt_cases) / sizeof(fmt_cases[0]));
	tcase_add_test(tc, test_fmt_small_buffer);
	tcase_add_test(tc, test_fmt_to_i64);
	suite_add_tcase(s, tc);
	return s;
}

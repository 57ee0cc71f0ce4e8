/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"

struct size_case {
	const char *in;
	unsigned kb_base;
	int ret;
	uint64_t out;
};

static const struct size_case size_cases[] = {
	{ "0", 1024, 0, 0 },
	{ "4096", 1024, 0, 4096 },
	{ "4k", 1024, 0, 4096 },
	{ "4K", 1024, 0, 4096 },
	{ "4kb", 1024, 0, 4096 },
	{ "4KB", 1024, 0, 4096 },
	{ "4kB", 1024, 0, 4096 },
	{ "4ki", 1024, 0, 4096 },	/* fio: only the "ib" spelling is inverted */
	{ "4kib", 1024, 0, 4000 },	/* inverted compatibility rule */
	{ "4KiB", 1024, 0, 4000 },
	{ "4m", 1024, 0, 4ull << 20 },
	{ "4mb", 1024, 0, 4ull << 20 },
	{ "4MiB", 1024, 0, 4000000 },
	{ "1g", 1024, 0, 1ull << 30 },
	{ "1G", 1024, 0, 1ull << 30 },
	{ "1GiB", 1024, 0, 1000000000ull },
	{ "1t", 1024, 0, 1ull << 40 },
	{ "1p", 1024, 0, 1ull << 50 },
	{ "1e", 1024, 0, 1ull << 60 },
	{ "15e", 1024, 0, 15ull << 60 },
	{ "16e", 1024, -ERANGE, 0 },	/* 2^64: overflow */
	{ "16384p", 1024, -ERANGE, 0 },
	{ "16777216t", 1024, -ERANGE, 0 },
	{ "17179869184g", 1024, -ERANGE, 0 },
	{ "17592186044416m", 1024, -ERANGE, 0 },
	{ "18014398509481984k", 1024, -ERANGE, 0 },
	{ "18446744073709551615", 1024, 0, UINT64_MAX },
	{ "18446744073709551616", 1024, -ERANGE, 0 },
	{ "4k", 1000, 0, 4000 },
	{ "4kib", 1000, 0, 4096 },
	{ "4KiB", 1000, 0, 4096 },
	{ "1m", 1000, 0, 1000000 },
	{ "1mib", 1000, 0, 1048576 },
	{ "4q", 1024, 0, 4 },		/* unknown suffix: x1, fio quirk */
	{ "4b", 1024, 0, 4 },
	{ "4B", 1024, 0, 4 },
	{ "4kq", 1024, 0, 4096 },
	{ "0x10", 1024, 0, 16 },
	{ "0X1f", 1024, 0, 31 },
	{ "0x10k", 1024, 0, 16 },	/* fio ignores suffixes after hex */
	{ "010", 1024, 0, 10 },		/* decimal, not octal */
	{ "  4k  ", 1024, 0, 4096 },
	{ "", 1024, -EINVAL, 0 },
	{ "   ", 1024, -EINVAL, 0 },
	{ "k", 1024, -EINVAL, 0 },
	{ "abc", 1024, -EINVAL, 0 },
	{ "nan", 1024, -EINVAL, 0 },
	{ "inf", 1024, -EINVAL, 0 },
	{ "-1", 1024, -EINVAL, 0 },
	{ "1.5k", 1024, -EINVAL, 0 },
	{ "0x", 1024, 0, 0 },		/* "0" with an unknown suffix "x" */
	{ "50%", 1024, -EINVAL, 0 },
};

START_TEST(test_size_table)
{
	const struct size_case *c = &size_cases[_i];
	uint64_t v = 12345;
	int ret = parse_size(c->in, c->kb_base, &v);

	ck_assert_msg(ret == c->ret, "'%s' kb=%u: ret %d, want %d", c->in, c->kb_base, ret, c->ret);
	if (!ret)
		ck_assert_msg(v == c->out, "'%s' kb=%u: %llu, want %llu", c->in, c->kb_base,
			      (unsigned long long)v, (unsigned long long)c->out);
	else
		ck_assert_msg(v == 12345, "'%s': output touched on error", c->in);
}
END_TEST

START_TEST(test_suffix_mult)
{
	ck_assert_uint_eq(parse_suffix_mult("", 1024), 1);
	ck_assert_uint_eq(parse_suffix_mult("K", 1024), 1024);
	ck_assert_uint_eq(parse_suffix_mult("kIb", 1024), 1000);
	ck_assert_uint_eq(parse_suffix_mult("T", 1000), 1000000000000ull);
	ck_assert_uint_eq(parse_suffix_mult("TiB", 1000), 1ull << 40);
	ck_assert_uint_eq(parse_suffix_mult("x", 1000), 1);
}
END_TEST

START_TEST(test_size_pct)
{
	uint64_t v;
	unsigned pct;

	ck_assert_int_eq(parse_size_pct("50%", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 50);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse_size_pct("100%", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 100);
	ck_assert_int_eq(parse_size_pct(" 25% ", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 25);
	ck_assert_int_eq(parse_size_pct("8m", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 0);
	ck_assert_uint_eq(v, 8u << 20);
	ck_assert_int_eq(parse_size_pct("0%", 1024, &v, &pct), -ERANGE);
	ck_assert_int_eq(parse_size_pct("101%", 1024, &v, &pct), -ERANGE);
	ck_assert_int_eq(parse_size_pct("5k%", 1024, &v, &pct), -EINVAL);
	ck_assert_int_eq(parse_size_pct("%", 1024, &v, &pct), -EINVAL);
	ck_assert_int_eq(parse_size_pct("0x10%", 1024, &v, &pct), -EINVAL);
}
END_TEST

START_TEST(test_int)
{
	int64_t v;

	ck_assert_int_eq(parse_int("-1", 1024, &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(parse_int("1k", 1024, &v), 0);
	ck_assert_int_eq(v, 1024);
	ck_assert_int_eq(parse_int("+7", 1024, &v), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(parse_int("9223372036854775807", 1024, &v), 0);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_int_eq(parse_int("9223372036854775808", 1024, &v), -ERANGE);
	ck_assert_int_eq(parse_int("-9223372036854775808", 1024, &v), 0);
	ck_assert_int_eq(v, INT64_MIN);
	ck_assert_int_eq(parse_int("-9223372036854775809", 1024, &v), -ERANGE);
	ck_assert_int_eq(parse_int("8e", 1024, &v), -ERANGE);
	ck_assert_int_eq(parse_int("abc", 1024, &v), -EINVAL);
	ck_assert_int_eq(parse_int("", 1024, &v), -EINVAL);
	ck_assert_int_eq(parse_int("--1", 1024, &v), -EINVAL);
}
END_TEST

struct time_case {
	const char *in;
	uint64_t unit;
	int ret;
	uint64_t ns;
};

static const struct time_case time_cases[] = {
	{ "10", 1000000000ull, 0, 10000000000ull },
	{ "10s", 1000000ull, 0, 10000000000ull },
	{ "10S", 1, 0, 10000000000ull },
	{ "10sec", 1, 0, 10000000000ull },
	{ "250ms", 1, 0, 250000000ull },
	{ "250msec", 1, 0, 250000000ull },
	{ "7us", 1, 0, 7000ull },
	{ "7usec", 1, 0, 7000ull },
	{ "2m", 1, 0, 120000000000ull },
	{ "2min", 1, 0, 120000000000ull },
	{ "1h", 1, 0, 3600000000000ull },
	{ "1d", 1, 0, 86400000000000ull },
	{ "0", 1000000000ull, 0, 0 },
	{ "10x", 1, -EINVAL, 0 },
	{ "1.5", 1, -EINVAL, 0 },
	{ "", 1, -EINVAL, 0 },
	{ "abc", 1, -EINVAL, 0 },
	{ "-5", 1, -EINVAL, 0 },
	{ "213503982335d", 1, -ERANGE, 0 },
	{ "18446744073709551615", 1000000000ull, -ERANGE, 0 },
};

START_TEST(test_time_table)
{
	const struct time_case *c = &time_cases[_i];
	uint64_t v = 0;
	int ret = parse_time_ns(c->in, c->unit, &v);

	ck_assert_msg(ret == c->ret, "'%s': ret %d, want %d", c->in, ret, c->ret);
	if (!ret)
		ck_assert_msg(v == c->ns, "'%s': %llu ns, want %llu", c->in, (unsigned long long)v,
			      (unsigned long long)c->ns);
}
END_TEST

START_TEST(test_range)
{
	uint64_t lo, hi;

	ck_assert_int_eq(parse_range("4k-64k", 1024, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 4096);
	ck_assert_uint_eq(hi, 65536);
	ck_assert_int_eq(parse_range("4k:4k", 1024, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 4096);
	ck_assert_uint_eq(hi, 4096);
	lo = hi = 7;
	ck_assert_int_eq(parse_range("64k-4k", 1024, &lo, &hi), -ERANGE);	/* fio swaps it */
	ck_assert_uint_eq(lo, 7);
	ck_assert_uint_eq(hi, 7);
	ck_assert_int_eq(parse_range("4097:4096", 1024, &lo, &hi), -ERANGE);
	ck_assert_int_eq(parse_range("8k", 1024, &lo, &hi), -EINVAL);
	ck_assert_int_eq(parse_range("8k-", 1024, &lo, &hi), -EINVAL);
	ck_assert_int_eq(parse_range("-8k", 1024, &lo, &hi), -EINVAL);
	ck_assert_int_eq(parse_range("1k-16e", 1024, &lo, &hi), -ERANGE);
}
END_TEST

START_TEST(test_dir_list)
{
	char p[3][PARSE_DIR_PART_MAX];
	bool present[3];

	ck_assert_int_eq(parse_dir_list("8k", p, present), 3);	/* propagates */
	ck_assert_str_eq(p[0], "8k");
	ck_assert_str_eq(p[2], "8k");
	ck_assert(present[1] && present[2]);

	ck_assert_int_eq(parse_dir_list("8k,16k", p, present), 3);
	ck_assert_str_eq(p[0], "8k");
	ck_assert_str_eq(p[1], "16k");
	ck_assert_str_eq(p[2], "16k");

	ck_assert_int_eq(parse_dir_list(",16k", p, present), 3);	/* reads keep the default */
	ck_assert(!present[0]);
	ck_assert(present[1] && present[2]);

	ck_assert_int_eq(parse_dir_list("8k,", p, present), 2);	/* trailing comma: no propagation */
	ck_assert(present[0] && !present[1] && !present[2]);

	ck_assert_int_eq(parse_dir_list("8k,,16k", p, present), 3);
	ck_assert(present[0] && !present[1] && present[2]);

	ck_assert_int_eq(parse_dir_list("1,2,3,", p, present), 3);
	ck_assert_int_eq(parse_dir_list("1,2,3,4", p, present), -EINVAL);
}
END_TEST

START_TEST(test_float_list)
{
	double v[20], bad = 0;
	unsigned nr, prec;

	ck_assert_int_eq(parse_float_list("1:5:99.5:99.99", v, 20, &nr, &prec, 0, 100, &bad), 0);
	ck_assert_uint_eq(nr, 4);
	ck_assert_uint_eq(prec, 2);
	ck_assert(v[3] == 99.99);
	ck_assert_int_eq(parse_float_list("50", v, 20, &nr, &prec, 0, 100, &bad), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_uint_eq(prec, 0);
	ck_assert_int_eq(parse_float_list("99.999", v, 20, &nr, &prec, 0, 100, &bad), 0);
	ck_assert_uint_eq(prec, 3);
	ck_assert_int_eq(parse_float_list("101", v, 20, &nr, &prec, 0, 100, &bad), -ERANGE);
	ck_assert(bad == 101.0);
	ck_assert_int_eq(parse_float_list("-1", v, 20, &nr, &prec, 0, 100, &bad), -ERANGE);
	ck_assert_int_eq(parse_float_list("nan", v, 20, &nr, &prec, 0, 100, &bad), -EINVAL);
	ck_assert_int_eq(parse_float_list("inf", v, 20, &nr, &prec, 0, 100, &bad), -EINVAL);
	ck_assert_int_eq(parse_float_list("1e1", v, 20, &nr, &prec, 0, 100, &bad), -EINVAL);
	ck_assert_int_eq(parse_float_list("", v, 20, &nr, &prec, 0, 100, &bad), -EINVAL);
	ck_assert_int_eq(parse_float_list("1::2", v, 20, &nr, &prec, 0, 100, &bad), -EINVAL);
	ck_assert_int_eq(parse_float_list("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20", v, 20,
					  &nr, &prec, 0, 100, &bad), 0);
	ck_assert_uint_eq(nr, 20);
	ck_assert_int_eq(parse_float_list("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21", v,
					  20, &nr, &prec, 0, 100, &bad), -E2BIG);
}
END_TEST

START_TEST(test_flag)
{
	bool b = false;
	int64_t iv;

	ck_assert_int_eq(parse_flag("", &b, &iv), 0);
	ck_assert(b);
	ck_assert_int_eq(parse_flag("0", &b, &iv), 0);
	ck_assert(!b);
	ck_assert_int_eq(parse_flag("1", &b, &iv), 0);
	ck_assert(b);
	ck_assert_int_eq(parse_flag("2", &b, &iv), 0);
	ck_assert_int_eq(iv, 2);
	ck_assert_int_eq(parse_flag("yes", &b, &iv), -EINVAL);
}
END_TEST

START_TEST(test_strip)
{
	char out[8];

	ck_assert_int_eq(parse_strip("  a b \t", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "a b");
	ck_assert_int_eq(parse_strip("", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(parse_strip("12345678", out, sizeof(out)), -ENAMETOOLONG);
}
END_TEST

Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_size_table, 0, sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_test(tc, test_suffix_mult);
	tcase_add_test(tc, test_size_pct);
	tcase_add_test(tc, test_int);
	tcase_add_loop_test(tc, test_time_table, 0, sizeof(time_cases) / sizeof(time_cases[0]));
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_dir_list);
	tcase_add_test(tc, test_float_list);
	tcase_add_test(tc, test_flag);
	tcase_add_test(tc, test_strip);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of fio 3.33's value reading (lib/fio/optval.c): the parts a value is cut into,
 * numbers, times, integers and words, table-driven, with the edge cases (empty, zero, the
 * largest values, overflow, garbage). Expected results are fio's, measured with its
 * --debug=parse (tests/fidelity/optdiff.py). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fio/optval.h"

static const struct split_case {
	enum optval_ptype t;
	const char *val;
	unsigned nr;
	const char *parts;	/* each part's text, '|' separated */
} split_cases[] = {
	{ OPTVAL_INT, "4k", 1, "4k" },
	{ OPTVAL_INT, "4k,8k", 2, "4k,8k|8k" },
	{ OPTVAL_INT, "4k,", 2, "4k|" },		/* a final ',' is cut off, an empty part follows */
	{ OPTVAL_INT, "4k,,", 3, "4k,,||" },
	{ OPTVAL_INT, ",4k", 2, ",4k|4k" },
	{ OPTVAL_INT, "1-2", 2, "1-2|2" },		/* no ',': a ':' or a '-' ends a part */
	{ OPTVAL_INT, "1:2-3", 3, "1:2-3|2-3|3" },	/* a part at a time: ":" then "-" */
	{ OPTVAL_INT, "--1", 3, "--1|-1|1" },
	{ OPTVAL_INT, "", 1, "" },
	{ OPTVAL_RANGE, "1k-4k,2k-8k", 2, "1k-4k,2k-8k|2k-8k" },	/* ',' only */
	{ OPTVAL_STR_MULTI, "a:b", 1, "a:b" },
	{ OPTVAL_FLOAT_LIST, "1:2,3", 2, "1:2,3|2,3" },	/* ':' only */
	{ OPTVAL_STR, "read:8,x", 1, "read:8,x" },	/* one part */
	{ OPTVAL_STR_STORE, "a,b", 1, "a,b" },
};

START_TEST(test_split)
{
	const struct split_case *c = &split_cases[_i];
	size_t off[OPTVAL_PARTS_MAX], len[OPTVAL_PARTS_MAX];
	bool more[OPTVAL_PARTS_MAX];
	char got[256] = "";
	size_t used = 0;
	unsigned n = optval_split(c->t, c->val, off, len, more, OPTVAL_PARTS_MAX);

	ck_assert_msg(n == c->nr, "%s: %u parts", c->val, n);
	for (unsigned i = 0; i < n; i++) {
		int w = snprintf(got + used, sizeof(got) - used, "%s%.*s", i ? "|" : "", (int)len[i], c->val + off[i]);

		ck_assert(w >= 0 && (size_t)w < sizeof(got) - used);
		used += (size_t)w;
		ck_assert(more[i] == (i + 1 < n));
	}
	ck_assert_msg(!strcmp(got, c->parts), "%s: [%s], want [%s]", c->val, got, c->parts);
}
END_TEST

START_TEST(test_split_edges)
{
	size_t off[2], len[2];
	bool more[2];

	ck_assert_uint_eq(optval_split(OPTVAL_INT, NULL, off, len, more, 2), 0);
	ck_assert_uint_eq(optval_split(OPTVAL_INT, "1,2,3", off, len, more, 2), 2);	/* at most max */
	ck_assert_uint_eq(optval_split(OPTVAL_INT, "1,2", off, len, more, 0), 0);
}
END_TEST

static const struct dec_case {
	const char *s;
	unsigned kb;
	int ret;
	int64_t v;
} dec_cases[] = {
	{ "4k", 1024, 0, 4096 }, { "4K", 1024, 0, 4096 }, { "4kib", 1024, 0, 4000 }, { "4ki", 1024, 0, 4096 },
	{ "4k", 1000, 0, 4000 }, { "4kib", 1000, 0, 4096 }, { "1m", 1024, 0, 1048576 }, { "1g", 1024, 0, 1073741824 },
	{ "1t", 1024, 0, 1099511627776LL }, { "1p", 1024, 0, 1125899906842624LL },
	{ "1e", 1024, 0, 1 }, { "16e", 1024, 0, 16 }, { "1EiB", 1024, 0, 1 },	/* no 'e' suffix */
	{ "1.5k", 1024, 0, 1 }, { "1 k", 1024, 0, 1 }, { " 1k", 1024, 0, 1 }, { "1k ", 1024, 0, 1024 },
	{ "1x", 1024, 0, 1 }, { "10x", 1024, 0, 16 }, { "0x10", 1024, 0, 16 }, { "0X1F", 1024, 0, 31 },
	{ "0x10k", 1024, 0, 16 }, { "010", 1024, 0, 10 }, { "0x", 1024, 0, 0 }, { "+1k", 1024, 0, 1024 },
	{ "-1", 1024, 0, -1 }, { "-1k", 1024, 0, -1024 }, { "1bb", 1024, 0, 1 }, { "2kk", 1024, 0, 2048 },
	{ "50%", 1024, 0, -51 }, { "0%", 1024, 0, -1 }, { "100%", 1024, 0, -101 }, { "-5%", 1024, 0, 4 },
	{ "50%%", 1024, 0, -51 }, { "50.5%", 1024, 0, 50 }, { "50 %", 1024, 0, 50 }, { "1%k", 1024, 0, -2 },
	{ "16384p", 1024, 0, 0 },				/* the product wraps, as fio's */
	{ "4k,8k", 1024, 0, 4096 },				/* a part stops at ',' */
	{ "9223372036854775807", 1024, 0, INT64_MAX },
	{ "99999999999999999999", 1024, 1, INT64_MAX },		/* overflow: fio's ret 1 */
	{ "x", 1024, 1, 0 }, { ".5k", 1024, 1, 0 }, { "(1+1)", 1024, 1, 0 }, { "%", 1024, 1, 0 },
};

START_TEST(test_decimal)
{
	const struct dec_case *c = &dec_cases[_i];
	int64_t v = 12345;
	int r = optval_decimal(c->s, c->kb, &v);

	ck_assert_msg(r == c->ret, "%s: ret %d", c->s, r);
	ck_assert_msg(v == c->v, "%s: %lld, want %lld", c->s, (long long)v, (long long)c->v);
}
END_TEST

START_TEST(test_decimal_empty)
{
	int64_t v = 4096;

	ck_assert_int_eq(optval_decimal("", 1024, &v), 1);
	ck_assert_int_eq(v, 4096);	/* left as it was: fio prints the last part's value */
}
END_TEST

static const struct time_case {
	const char *s;
	bool seconds;
	int ret;
	int64_t us;
} time_cases[] = {
	{ "10", true, 0, 10000000 }, { "10", false, 0, 10 }, { "10s", true, 0, 10000000 }, { "10S", true, 0, 10000000 },
	{ "10ms", true, 0, 10000 }, { "10msec", true, 0, 10000 }, { "10us", true, 0, 10 }, { "10usec", true, 0, 10 },
	{ "10m", true, 0, 600000000 }, { "10h", true, 0, 36000000000LL }, { "10d", true, 0, 864000000000LL },
	{ "10sec", true, 0, 10 }, { "10min", true, 0, 10 }, { "10ns", true, 0, 10 }, { "10s ", true, 0, 10 },
	{ "1.5s", true, 0, 1000000 }, { "1.5", true, 0, 1000000 }, { "0.5", true, 0, 0 }, { "10 s", true, 0, 10000000 },
	{ "0x10", true, 0, 16 }, { "1e3ms", true, 0, 1 }, { "-1", true, 0, -1000000 }, { "+5", true, 0, 5000000 },
	{ "s", true, 1, 0 }, { "x", true, 1, 0 },
	/* fio 3.33 reads the unit after the digits and signs only: "1.5us" is 1 in the option's unit */
	{ "1.5us", true, 0, 1000000 }, { "1.5ms", true, 0, 1000000 }, { "1.5ms", false, 0, 1 },
	{ "1 us", true, 0, 1000000 }, { "1%ms", true, 0, 1000000 }, { "2.5m", true, 0, 2000000 },
	{ "1ms5", true, 0, 1000 }, { "1msx", true, 0, 1000 }, { "1-ms", true, 0, 1000 }, { "1+5s", true, 0, 1000000 },
	{ "1xus", true, 0, 1 }, { "1sx", true, 0, 1 }, { "1hours", true, 0, 1 }, { "1USEC", true, 0, 1 },
};

START_TEST(test_time)
{
	const struct time_case *c = &time_cases[_i];
	int64_t v = 0;
	int r = optval_time(c->s, c->seconds, &v);

	ck_assert_msg(r == c->ret, "%s: ret %d", c->s, r);
	if (!r)
		ck_assert_msg(v == c->us, "%s: %lld us, want %lld", c->s, (long long)v, (long long)c->us);
}
END_TEST

static const struct int_case {
	const char *s;
	int ret, v;
} int_cases[] = {
	{ "0", 0, 0 }, { "1", 0, 1 }, { "-1", 0, -1 }, { " 1", 0, 1 }, { "1k", 0, 1 }, { "1.0", 0, 1 }, { "0x1", 0, 1 },
	{ "10x", 0, 16 }, { "0x", 0, 0 }, { "4294967296", 0, 0 }, { "4294967295", 0, -1 }, { "", 1, 0 }, { "x", 1, 0 },
	{ "true", 1, 0 },
};

START_TEST(test_int)
{
	const struct int_case *c = &int_cases[_i];
	int v = 0;
	int r = optval_int(c->s, &v);

	ck_assert_msg(r == c->ret, "%s: ret %d", c->s, r);
	if (!r)
		ck_assert_msg(v == c->v, "%s: %d, want %d", c->s, v, c->v);
}
END_TEST

START_TEST(test_words)
{
	ck_assert(optval_word_match("read", "read"));
	ck_assert(optval_word_match("read", "read:8"));
	ck_assert(optval_word_match("read", "read,x"));
	ck_assert(optval_word_match("read", "read,x:y"));
	ck_assert(optval_word_match("iops", "iops,x:5"));
	ck_assert(!optval_word_match("read", "rea"));
	ck_assert(!optval_word_match("read", "read "));
	ck_assert(!optval_word_match("read", " read"));
	ck_assert(!optval_word_match("read", "READ"));
	ck_assert(!optval_word_match("read", "readx"));
	ck_assert(!optval_word_match("read", ""));
	ck_assert(optval_word_match("", ""));
}
END_TEST

START_TEST(test_float_zone_names)
{
	double f;
	size_t used;

	ck_assert_int_eq(optval_float("1.5:2", &f, &used), 0);
	ck_assert(f == 1.5 && used == 3);
	ck_assert_int_eq(optval_float("1e2", &f, &used), 0);
	ck_assert(f == 100.0);
	ck_assert_int_eq(optval_float("x", &f, &used), 1);
	ck_assert_int_eq(optval_float("", &f, &used), 1);
	/* fio 3.33 refuses "0x" without a hex digit (optdiff: percentile_list=0x), takes 0x1 */
	ck_assert_int_eq(optval_float("0x", &f, &used), 1);
	ck_assert_int_eq(optval_float("-0xg", &f, &used), 1);
	ck_assert_int_eq(optval_float("0x1", &f, &used), 0);
	ck_assert(f == 1.0 && used == 3);
	ck_assert_int_eq(optval_float("1x", &f, &used), 0);
	ck_assert(f == 1.0 && used == 1);
	ck_assert(optval_zone_suffix("4z", 2));
	ck_assert(!optval_zone_suffix("4z-8", 4));
	ck_assert(!optval_zone_suffix("", 0));
	ck_assert_str_eq(optval_ptype_name(OPTVAL_STR_VAL_ZONE), "OPT_STR_VAL_ZONE");
	ck_assert_str_eq(optval_ptype_name(OPTVAL_NR), "OPT_UNSUPPORTED");
	ck_assert(optval_is_number(OPTVAL_STR_SET) && optval_is_number(OPTVAL_STR_VAL_TIME));
	ck_assert(!optval_is_number(OPTVAL_STR) && !optval_is_number(OPTVAL_FLOAT_LIST) && !optval_is_number(OPTVAL_RANGE));
}
END_TEST

Suite *optval_suite(void);
Suite *optval_suite(void)
{
	Suite *s = suite_create("optval");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_split, 0, sizeof(split_cases) / sizeof(split_cases[0]));
	tcase_add_test(tc, test_split_edges);
	tcase_add_loop_test(tc, test_decimal, 0, sizeof(dec_cases) / sizeof(dec_cases[0]));
	tcase_add_test(tc, test_decimal_empty);
	tcase_add_loop_test(tc, test_time, 0, sizeof(time_cases) / sizeof(time_cases[0]));
	tcase_add_loop_test(tc, test_int, 0, sizeof(int_cases) / sizeof(int_cases[0]));
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_float_zone_names);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* compare_wl: normalisation of the workload options (sizes, aliases, booleans, defaults) and
 * the list of what differs. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "compare/compare_int.h"

static const struct {
	const char *key, *a, *b;
	bool same;
} pairs[] = {
	{ "bs", "4k", "4096", true },
	{ "bs", "4K", "4096", true },
	{ "bs", "4k,8k", "4096,8192", true },
	{ "bs", "4k,8k", "4k,4k", false },
	{ "blocksize", "1m", "1024k", true },
	{ "size", "1g", "1024m", true },
	{ "size", "1g", "1000m", false },
	{ "size", "50%", "50%", true },
	{ "size", "garbage", "garbage", true },
	{ "rw", "readwrite", "rw", true },
	{ "rw", "randrw", "rw", false },
	{ "readwrite", "randread:8", "randread:8", true },
	{ "iodepth", "32", "0x20", true },
	{ "numjobs", "4", "5", false },
	{ "direct", "1", "true", false },	/* fio: direct takes 0 or 1 */
	{ "direct", "1", "", true },		/* a bare flag is 1 */
	{ "ioengine", "libaio", "io_uring", false },
	{ "group_reporting", "1", "", true },
};

START_TEST(test_pairs)
{
	struct compare_wl a, b;
	char diff[256];

	compare_wl_init(&a);
	compare_wl_init(&b);
	ck_assert(compare_wl_set(&a, pairs[_i].key, pairs[_i].a));
	ck_assert(compare_wl_set(&b, pairs[_i].key, pairs[_i].b));
	ck_assert_msg((compare_wl_diff(&a, &b, diff, sizeof(diff)) == 0) == pairs[_i].same, "%s=%s vs %s: '%s'",
		      pairs[_i].key, pairs[_i].a, pairs[_i].b, diff);
}
END_TEST

START_TEST(test_defaults_and_diff)
{
	struct compare_wl a, b;
	char diff[256], line[256];

	compare_wl_init(&a);
	compare_wl_init(&b);
	ck_assert_uint_eq(compare_wl_diff(&a, &b, diff, sizeof(diff)), 0);
	ck_assert_str_eq(diff, "");
	/* fio's defaults stand for what a document leaves out */
	ck_assert(compare_wl_set(&b, "bs", "4096"));
	ck_assert(compare_wl_set(&b, "rw", "read"));
	ck_assert(compare_wl_set(&b, "buffered", "1"));	/* direct=0 */
	ck_assert_uint_eq(compare_wl_diff(&a, &b, diff, sizeof(diff)), 0);
	ck_assert(compare_wl_set(&b, "buffered", "0"));	/* direct=1 */
	ck_assert(compare_wl_set(&b, "iodepth", "16"));
	ck_assert(compare_wl_set(&b, "size", "1g"));
	ck_assert(!compare_wl_set(&b, "runtime", "10"));	/* not a workload field */
	ck_assert_uint_eq(compare_wl_diff(&a, &b, diff, sizeof(diff)), 3);
	ck_assert_str_eq(diff, "iodepth 1 vs 16, size (none) vs 1g, direct 0 vs 1");
	/* unknown on one side: not compared */
	b.known[COMPARE_WL_SIZE] = false;
	ck_assert_uint_eq(compare_wl_diff(&a, &b, diff, sizeof(diff)), 2);
	/* a small buffer is cut with "..." */
	ck_assert_uint_eq(compare_wl_diff(&a, &b, diff, 12), 2);
	ck_assert_uint_le(strlen(diff), 11);
	ck_assert(strstr(diff, "...") != NULL);
	compare_wl_line(&a, line, sizeof(line));
	ck_assert_str_eq(line, "rw=read bs=4k iodepth=1 numjobs=1 ioengine=psync direct=0");
	/* a value too long to keep whole is refused, not cut (two would compare equal) */
	ck_assert_int_eq(compare_wl_set(&a, "ioengine", "external:/a/very/long/path/to/an/engine/that/is/too/long/to/keep.so"),
			 -ENAMETOOLONG);
	ck_assert_str_eq(a.raw[COMPARE_WL_ENGINE], "psync");
	ck_assert_int_eq(compare_wl_set(&a, "size", "18446744073709551615"), 1);
	ck_assert_int_eq(compare_wl_set(&a, "bs", "18446744073709551615,18446744073709551615"), 1);
	ck_assert_str_eq(a.norm[COMPARE_WL_BS], "18446744073709551615,18446744073709551615,18446744073709551615");
	ck_assert(compare_wl_set(&a, "group_reporting", "1"));
	compare_wl_line(&a, line, sizeof(line));
	ck_assert(strstr(line, " group_reporting=1") != NULL);
}
END_TEST

Suite *compare_wl_suite(void)
{
	Suite *s = suite_create("compare_wl");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_pairs, 0, sizeof(pairs) / sizeof(pairs[0]));
	tcase_add_test(tc, test_defaults_and_diff);
	suite_add_tcase(s, tc);
	return s;
}

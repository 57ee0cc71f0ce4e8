/* SPDX-License-Identifier: MIT */
/* Unit tests of the table of fio's parser types (lib/fio/opt_ftype.c): in name order (it is
 * searched), every entry an option of iops' table under its main name, its bounds and float
 * list lengths sane, and every option fio 3.33 parses as a number there. */
#include <check.h>
#include <string.h>

#include "fio/conf/opt.h"
#include "fio/conf/opt_ftype.h"

START_TEST(test_sorted_and_known)
{
	unsigned n = opt_ftype_count();

	ck_assert_uint_gt(n, 200);
	for (unsigned i = 0; i < n; i++) {
		const struct opt_ftype *f = opt_ftype_at(i);
		const struct opt_def *od = opt_find(f->name);

		ck_assert_msg(od != NULL && !strcmp(od->name, f->name), "%s: not an option of iops' table", f->name);
		ck_assert_msg(od->type != OPT_T_UNSUPPORTED, "%s: refused by iops, yet typed", f->name);
		if (i)
			ck_assert_msg(strcmp(opt_ftype_at(i - 1)->name, f->name) < 0, "%s: out of order", f->name);
		ck_assert_ptr_eq(opt_ftype_find(f->name), f);
		ck_assert_msg(!f->max || f->max >= f->min, "%s: bounds", f->name);
		ck_assert_msg(f->ptype != OPTVAL_FLOAT_LIST || f->maxlen >= 1, "%s: a float list of no values", f->name);
		ck_assert_msg(f->ptype != OPTVAL_BOOL || f->max == 1, "%s: a boolean's max is 1", f->name);
		ck_assert_msg(!f->cb || f->ptype == OPTVAL_STR, "%s: cb is for words", f->name);
	}
	ck_assert_ptr_null(opt_ftype_at(n));
	ck_assert_ptr_null(opt_ftype_find("no_such_option"));
	ck_assert_ptr_null(opt_ftype_find(""));
}
END_TEST

/* Spot checks against fio 3.33's --debug=parse types. */
START_TEST(test_types)
{
	static const struct { const char *name; enum optval_ptype t; } want[] = {
		{ "bs", OPTVAL_ULL }, { "size", OPTVAL_STR_VAL_ZONE }, { "iodepth", OPTVAL_INT },
		{ "direct", OPTVAL_BOOL }, { "time_based", OPTVAL_STR_SET }, { "runtime", OPTVAL_STR_VAL_TIME },
		{ "rw", OPTVAL_STR }, { "filename", OPTVAL_STR_STORE }, { "bsrange", OPTVAL_RANGE },
		{ "bssplit", OPTVAL_STR_ULL }, { "percentile_list", OPTVAL_FLOAT_LIST }, { "sync_file_range", OPTVAL_STR_MULTI },
		{ "max_latency", OPTVAL_ULL }, { "randseed", OPTVAL_STR_VAL },
	};

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct opt_ftype *f = opt_ftype_find(want[i].name);

		ck_assert_msg(f && f->ptype == want[i].t, "%s", want[i].name);
	}
	ck_assert_int_eq(opt_ftype_find("max_latency")->num, OPT_NUM_TIME_US);
	ck_assert_int_eq(opt_ftype_find("runtime")->num, OPT_NUM_TIME_S);
	ck_assert_int_eq(opt_ftype_find("bs")->store, OPT_STORE_DDIR);
	ck_assert_int_eq(opt_ftype_find("size")->store, OPT_STORE_LAST);
	ck_assert_str_eq(opt_ftype_find("offset")->pct, "start_offset_percent");
}
END_TEST

Suite *opt_ftype_suite(void);
Suite *opt_ftype_suite(void)
{
	Suite *s = suite_create("opt_ftype");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sorted_and_known);
	tcase_add_test(tc, test_types);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdlib.h>

#include "fio/opt_diag.h"

static struct opt_diag *diag;

static void setup(void)
{
	diag = malloc(sizeof(*diag));
	opt_diag_init(diag);
}

static void teardown(void)
{
	free(diag);
}

START_TEST(test_diag_overflow)
{
	for (int i = 0; i < OPT_DIAG_LINES + 5; i++)
		opt_diag_add(diag, false, "line %d", i);
	ck_assert_uint_eq(diag->nr, OPT_DIAG_LINES);
	ck_assert(diag->overflow);
	/* the first lines stay, the last ones roll: the newest (the refusal) is kept */
	ck_assert_str_eq(diag->line[0], "line 0");
	ck_assert_str_eq(diag->line[OPT_DIAG_LINES - OPT_DIAG_TAIL - 1], "line 31");
	ck_assert_str_eq(diag->line[OPT_DIAG_LINES - OPT_DIAG_TAIL], "line 37");
	ck_assert_str_eq(diag->line[OPT_DIAG_LINES - 1], "line 44");
}
END_TEST

START_TEST(test_diag_tail_stream)
{
	for (int i = 0; i < OPT_DIAG_LINES + 3; i++)
		opt_diag_add(diag, i == OPT_DIAG_LINES + 2, "line %d", i);
	ck_assert(diag->to_stdout[OPT_DIAG_LINES - 1]);
	ck_assert(!diag->to_stdout[OPT_DIAG_LINES - 2]);
	ck_assert_str_eq(diag->line[OPT_DIAG_LINES - 2], "line 41");
}
END_TEST

Suite *opt_diag_suite(void)
{
	Suite *s = suite_create("opt_diag");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_diag_overflow);
	tcase_add_test(tc, test_diag_tail_stream);
	suite_add_tcase(s, tc);
	return s;
}

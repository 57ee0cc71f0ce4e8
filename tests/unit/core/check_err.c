#include <check.h>
#include <string.h>

#include "core/err.h"

START_TEST(test_err_set_and_clear)
{
	struct iops_err err = { 0 };

	ck_assert(!iops_err_isset(&err));
	iops_err_set(&err, 22, "invalid block size '%s'", "3x");
	ck_assert(iops_err_isset(&err));
	ck_assert_int_eq(err.code, 22);
	ck_assert_str_eq(err.msg, "invalid block size '3x'");
	iops_err_clear(&err);
	ck_assert(!iops_err_isset(&err));
	ck_assert_int_eq(err.code, 0);
}
END_TEST

START_TEST(test_err_truncates)
{
	struct iops_err err;
	char big[2000];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	iops_err_set(&err, 1, "%s", big);
	ck_assert_uint_eq(strlen(err.msg), sizeof(err.msg) - 1);
}
END_TEST

START_TEST(test_err_null_is_harmless)
{
	iops_err_set(NULL, 1, "x");
	iops_err_clear(NULL);
	ck_assert(!iops_err_isset(NULL));
}
END_TEST

Suite *err_suite(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_err_set_and_clear);
	tcase_add_test(tc, test_err_truncates);
	tcase_add_test(tc, test_err_null_is_harmless);
	suite_add_tcase(s, tc);
	return s;
}

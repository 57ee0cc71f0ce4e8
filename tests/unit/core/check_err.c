/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "core/err.h"

/* glibc's words, as fio prints them (observed with Python's os.strerror on glibc). */
START_TEST(test_err_str_glibc_words)
{
	static const struct { int e; const char *msg; } rows[] = {
		{ 0, "Success" },
		{ EPERM, "Operation not permitted" },
		{ EIO, "Input/output error" },		/* musl: I/O error */
		{ ENOMEM, "Cannot allocate memory" },	/* musl: Out of memory */
		{ EBUSY, "Device or resource busy" },
		{ ENOTTY, "Inappropriate ioctl for device" },
		{ ENOSPC, "No space left on device" },
		{ EOPNOTSUPP, "Operation not supported" },
		{ ETIMEDOUT, "Connection timed out" },	/* musl: Operation timed out */
		{ EDQUOT, "Disk quota exceeded" },
		{ EILSEQ, "Invalid or incomplete multibyte or wide character" },
		{ 133, "Memory page has hardware error" },	/* the last one */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_str_eq(err_str(rows[i].e), rows[i].msg);
	/* no word of our own for these: the C library's, never NULL */
	ck_assert_ptr_nonnull(err_str(41));
	ck_assert_ptr_nonnull(err_str(-1));
	ck_assert_ptr_nonnull(err_str(134));
	ck_assert_ptr_nonnull(err_str(1 << 30));
}
END_TEST

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

	tcase_add_test(tc, test_err_str_glibc_words);
	tcase_add_test(tc, test_err_set_and_clear);
	tcase_add_test(tc, test_err_truncates);
	tcase_add_test(tc, test_err_null_is_harmless);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* k8s_argv: arguments fill argv and the store exactly to their ends, one more is -ENOSPC. */
#include <check.h>
#include <errno.h>

#include "k8s/k8s_argv.h"

START_TEST(test_fill)
{
	struct k8s_argv a;
	char *argv[3], store[8];

	k8s_argv_init(&a, argv, 3, store, sizeof(store));
	k8s_argv_add(&a, "ab");
	k8s_argv_add(&a, "--%d", 12);	/* "ab\0--12\0": 8 bytes, the whole store */
	ck_assert_int_eq(k8s_argv_end(&a), 2);
	ck_assert_str_eq(argv[1], "--12");
	ck_assert_ptr_null(argv[2]);
	k8s_argv_add(&a, "x");	/* argv full (the NULL needs its slot) */
	ck_assert_int_eq(k8s_argv_end(&a), -ENOSPC);
	k8s_argv_init(&a, argv, 3, store, sizeof(store));
	k8s_argv_add(&a, "abcdefgh");	/* 9 bytes with its NUL */
	k8s_argv_add(&a, "a");	/* the error sticks */
	ck_assert_int_eq(k8s_argv_end(&a), -ENOSPC);
	k8s_argv_init(&a, argv, 0, store, sizeof(store));
	ck_assert_int_eq(k8s_argv_end(&a), -ENOSPC);
	k8s_argv_init(&a, argv, 1, store, sizeof(store));
	ck_assert_int_eq(k8s_argv_end(&a), 0);
	ck_assert_ptr_null(argv[0]);
}
END_TEST

Suite *k8s_argv_suite(void)
{
	Suite *s = suite_create("k8s_argv");
	TCase *tc = tcase_create("k8s");

	tcase_add_test(tc, test_fill);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* suite_env: defaults, every variable, and one-line errors naming the variable. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite_env.h"

/* The environment of one case: "NAME=value" strings. */
static const char *const *case_env;

static const char *fake_getenv(const char *name)
{
	size_t n = strlen(name);

	for (const char *const *e = case_env; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

START_TEST(test_defaults_and_echo)
{
	static const char *const none[] = { NULL };
	struct suite_env env;
	struct iops_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	case_env = none;
	ck_assert_int_eq(suite_env_load(&env, fake_getenv, "/iops/data", &err), 0);
	ck_assert_uint_eq(env.nr_bench, 2);
	ck_assert_int_eq(env.bench[0], SUITE_BENCH_FIO);
	ck_assert_int_eq(env.bench[1], SUITE_BENCH_META);
	f = open_memstream(&text, &len);
	suite_env_print(&env, f);
	fclose(f);
	ck_assert_str_eq(text,
			 "Configuration:\n"
			 "List of benchmarks to run: fio meta (BENCHMARKS)\n"
			 "Target path for tests: /iops/data (TARGET_PATH)\n"
			 "Number of test iterations to run: 1 (ITERATIONS)\n"
			 "Random startup delay (s): 0 (STARTUP_DELAY)\n"
			 "Random delay between iterations (s): 0 (RAND_THINK)\n"
			 "Delete contents of target dir on startup: 0 (DELETE_FIRST)\n"
			 "File size for fio benchmark: 500 (FIO_CAPACITY_MB)\n"
			 "Runtime for individual fio tests (s): 120 (FIO_RUNTIME)\n");
	free(text);
}
END_TEST

START_TEST(test_values)
{
	static const char *const vals[] = {
		"BENCHMARKS=meta,fio  meta", "TARGET_PATH=/target", "ITERATIONS=3", "STARTUP_DELAY=0",
		"RAND_THINK=86400", "DELETE_FIRST=1", "FIO_CAPACITY_MB=64", "FIO_RUNTIME=1", NULL,
	};
	struct suite_env env;
	struct iops_err err = { 0 };

	case_env = vals;
	ck_assert_int_eq(suite_env_load(&env, fake_getenv, "/x", &err), 0);
	ck_assert_uint_eq(env.nr_bench, 3);
	ck_assert_int_eq(env.bench[0], SUITE_BENCH_META);
	ck_assert_int_eq(env.bench[1], SUITE_BENCH_FIO);
	ck_assert_str_eq(env.target, "/target");
	ck_assert_uint_eq(env.iterations, 3);
	ck_assert_uint_eq(env.rand_think_s, 86400);
	ck_assert(env.delete_first);
	ck_assert_uint_eq(env.capacity_mb, 64);
	ck_assert_uint_eq(env.runtime_s, 1);
}
END_TEST

static const struct {
	const char *var;
	const char *msg;
} bad[] = {
	{ "ITERATIONS=abc", "ITERATIONS=abc: not a whole number" },
	{ "ITERATIONS=0", "ITERATIONS=0: at least 1" },
	{ "ITERATIONS=", "ITERATIONS is empty (unset it for the default, 1)" },
	{ "ITERATIONS=99999999999999999999999", "ITERATIONS=99999999999999999999999: at most 1000000" },
	{ "FIO_CAPACITY_MB=-1", "FIO_CAPACITY_MB=-1: not a whole number" },
	{ "FIO_CAPACITY_MB=63", "FIO_CAPACITY_MB=63: at least 64" },
	{ "FIO_CAPACITY_MB=1g", "FIO_CAPACITY_MB=1g: not a whole number" },
	{ "FIO_RUNTIME=0", "FIO_RUNTIME=0: at least 1" },
	{ "FIO_RUNTIME= 5", "FIO_RUNTIME= 5: not a whole number" },
	{ "STARTUP_DELAY=86401", "STARTUP_DELAY=86401: at most 86400" },
	{ "RAND_THINK=1.5", "RAND_THINK=1.5: not a whole number" },
	{ "DELETE_FIRST=yes", "DELETE_FIRST=yes: 0 or 1" },
	{ "DELETE_FIRST=", "DELETE_FIRST=: 0 or 1" },
	{ "TARGET_PATH=", "TARGET_PATH is empty (unset it for the working directory)" },
	{ "BENCHMARKS=", "BENCHMARKS is empty (iops has fio, meta)" },
	{ "BENCHMARKS= , ", "BENCHMARKS is empty (iops has fio, meta)" },
	{ "BENCHMARKS=fio disk", "BENCHMARKS: unknown benchmark 'disk' (iops has fio, meta)" },
	{ "BENCHMARKS=fiox", "BENCHMARKS: unknown benchmark 'fiox' (iops has fio, meta)" },
	{ "BENCHMARKS=clone fio kernel", "BENCHMARKS: clone needs the network (it downloads a Git repository); "
	  "use meta, which creates, stats and removes a source-like file tree offline" },
	{ "BENCHMARKS=kernel", "BENCHMARKS: kernel needs the network (it downloads a kernel tarball); "
	  "use meta, which creates, stats and removes a source-like file tree offline" },
	{ "BENCHMARKS=fio fio fio fio fio fio fio fio fio", "BENCHMARKS=fio fio fio fio fio fio fio fio fio: at most 8 benchmarks" },
};

START_TEST(test_bad)
{
	const char *vals[] = { bad[_i].var, NULL };
	struct suite_env env;
	struct iops_err err = { 0 };

	case_env = vals;
	ck_assert_int_lt(suite_env_load(&env, fake_getenv, "/x", &err), 0);
	ck_assert_str_eq(err.msg, bad[_i].msg);
}
END_TEST

START_TEST(test_long_target)
{
	static char var[SUITE_PATH_MAX + 32];
	const char *vals[] = { var, NULL };
	struct suite_env env;
	struct iops_err err = { 0 };

	memcpy(var, "TARGET_PATH=", 12);
	memset(var + 12, 'a', SUITE_PATH_MAX);
	var[12 + SUITE_PATH_MAX] = '\0';
	case_env = vals;
	ck_assert_int_lt(suite_env_load(&env, fake_getenv, "/x", &err), 0);
	ck_assert_str_eq(err.msg, "TARGET_PATH is too long (4096 bytes)");
}
END_TEST

Suite *suite_env_suite(void)
{
	Suite *s = suite_create("suite_env");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults_and_echo);
	tcase_add_test(tc, test_values);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_long_target);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/debug.h"
#include "fio/progress/idleprof.h"

struct dbg_case {
	const char *val;
	int ret;
	unsigned mask;
	const char *bad;
};

static const struct dbg_case dbg_cases[] = {
	{ "parse", 0, 1u << DEBUG_PARSE, NULL },
	{ "process,file,io", 0, (1u << DEBUG_PROCESS) | (1u << DEBUG_FILE) | (1u << DEBUG_IO), NULL },
	{ "zbd", 0, 1u << DEBUG_ZBD, NULL },
	{ "steadystate,helperthread", 0, (1u << DEBUG_STEADYSTATE) | (1u << DEBUG_HELPERTHREAD), NULL },
	{ "all", 0, DEBUG_ALL, NULL },
	{ "parse,all", 0, DEBUG_ALL, NULL },
	{ "?", 1, 0, NULL },
	{ "help", 1, 0, NULL },
	{ "foo", -EINVAL, 0, "foo" },
	{ "parse,foo", -EINVAL, 0, "foo" },
	{ "", -EINVAL, 0, "" },
	{ "parse,", -EINVAL, 0, "" },
	{ "Parse", -EINVAL, 0, "Parse" },
	{ "pars", -EINVAL, 0, "pars" },
	{ "parsex", -EINVAL, 0, "parsex" },
};

START_TEST(test_parse)
{
	const struct dbg_case *c = &dbg_cases[_i];
	unsigned mask = 0;
	char bad[64] = "unset";
	int r = debug_parse(c->val, &mask, bad, sizeof(bad));

	ck_assert_msg(r == c->ret, "%s: %d", c->val, r);
	ck_assert_uint_eq(mask, c->mask);	/* nothing added on error */
	if (c->bad)
		ck_assert_str_eq(bad, c->bad);
}
END_TEST

START_TEST(test_names_and_line)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_str_eq(debug_names(), "process,file,io,mem,blktrace,verify,random,parse,diskutil,job,"
			 "mutex,profile,time,net,rate,compress,steadystate,helperthread,zbd,all");
	ck_assert_str_eq(debug_name(DEBUG_PARSE), "parse");
	ck_assert_str_eq(debug_name(DEBUG_NR), "");
	ck_assert(debug_on(1u << DEBUG_IO, DEBUG_IO) && !debug_on(1u << DEBUG_IO, DEBUG_FILE));
	ck_assert_ptr_nonnull(f);
	debug_line(f, DEBUG_PARSE, "set steady state IOPS threshold to %f", 10.0);
	fclose(f);
	ck_assert_msg(!strncmp(buf, "parse    ", 9), "%s", buf);	/* 8 columns and a blank */
	ck_assert_ptr_nonnull(strstr(buf, " set steady state IOPS threshold to 10.000000\n"));
	free(buf);
}
END_TEST

START_TEST(test_idle_parse)
{
	ck_assert_int_eq(idleprof_parse("system"), IDLE_SYSTEM);
	ck_assert_int_eq(idleprof_parse("percpu"), IDLE_PERCPU);
	ck_assert_int_eq(idleprof_parse("calibrate"), IDLE_CALIBRATE_ONLY);
	ck_assert_int_eq(idleprof_parse("foo"), -EINVAL);
	ck_assert_int_eq(idleprof_parse(""), -EINVAL);
	ck_assert_int_eq(idleprof_parse(NULL), -EINVAL);
	ck_assert_int_eq(idleprof_parse("System"), -EINVAL);
}
END_TEST

START_TEST(test_idle_measure)
{
	struct idleprof ip;
	struct idle_result *r = calloc(1, sizeof(*r));
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	ck_assert_int_eq(idleprof_start(&ip, IDLE_PERCPU), 0);
	idleprof_begin(&ip);
	idleprof_stop(&ip, r);
	ck_assert_uint_ge(r->nr_cpus, 1);
	ck_assert(r->unit_mean > 0 && r->unit_stddev >= 0);
	ck_assert(r->system >= 0 && r->system <= 100);
	for (unsigned c = 0; c < r->nr_cpus; c++)
		ck_assert(r->percpu[c] >= 0 && r->percpu[c] <= 100);
	f = open_memstream(&buf, &n);
	idleprof_print_normal(f, r);
	fclose(f);
	ck_assert_msg(!strncmp(buf, "\nCPU idleness:\n  system: ", 25), "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "\n  percpu: "));
	ck_assert_ptr_nonnull(strstr(buf, "\n  unit work: mean="));
	free(buf);
	free(r);
}
END_TEST

Suite *debug_suite(void)
{
	Suite *s = suite_create("debug");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse, 0, (int)(sizeof(dbg_cases) / sizeof(dbg_cases[0])));
	tcase_add_test(tc, test_names_and_line);
	tcase_add_test(tc, test_idle_parse);
	tcase_add_test(tc, test_idle_measure);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* suite: fio command lines (argv building, shell quoting), test file sizing from free space
 * (the 1/share cap, the 64 MiB floor and its error), file names, directory checks, and the
 * figures read from a report. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

struct size_vec {
	uint64_t free_bytes, want;
	bool explicit_want;
	unsigned share;
	int ret;
	uint64_t size;
};

static const struct size_vec size_vecs[] = {
	{ 100 * GIB, GIB, false, 10, 0, GIB },			/* plenty: the 1 GiB default */
	{ 5 * GIB, GIB, false, 10, 0, 512 * MIB },		/* lowered to 1/10, whole MiB */
	{ 5 * GIB + 12345, GIB, false, 10, 0, 512 * MIB },
	{ 640 * MIB, GIB, false, 10, 0, 64 * MIB },		/* exactly the floor */
	{ 640 * MIB - 1, GIB, false, 10, -ENOSPC, 0 },		/* just under it */
	{ 52 * MIB, GIB, false, 10, -ENOSPC, 0 },		/* a 64 MiB file system */
	{ 0, GIB, false, 10, -ENOSPC, 0 },			/* full */
	{ 100 * GIB, 8 * MIB, true, 10, 0, 8 * MIB },		/* asked for less: allowed */
	{ 70 * MIB, 8 * MIB, true, 10, -ENOSPC, 0 },		/* 7 MiB: under what was asked for */
	{ 100 * GIB, 8 * MIB + 5, true, 10, 0, 8 * MIB },	/* rounded down to MiB */
	{ 100 * GIB, 8 * MIB, false, 10, -ENOSPC, 0 },		/* not asked: the 64 MiB floor */
	{ UINT64_MAX, UINT64_MAX, true, 2, 0, UINT64_MAX / 2 - (UINT64_MAX / 2) % MIB },	/* no overflow */
	{ 100 * GIB, 10 * GIB, false, 2, 0, 10 * GIB },
	{ 4 * GIB, 160 * GIB, false, 2, 0, 2 * GIB },
	{ 100 * MIB, 10 * GIB, false, 2, -ENOSPC, 0 },
	{ 1000 * MIB, 0, true, 10, -ENOSPC, 0 },		/* nothing asked for */
};

START_TEST(test_plan_size)
{
	const struct size_vec *v = &size_vecs[_i];
	struct iops_err err = { 0 };
	uint64_t size = 12345;
	int r = suite_plan_size(v->free_bytes, v->want, v->explicit_want, v->share, "quick", "/d", &size, &err);

	ck_assert_int_eq(r, v->ret);
	if (!r) {
		ck_assert_uint_eq(size, v->size);
		ck_assert(!iops_err_isset(&err));
	} else {
		ck_assert_uint_eq(size, 12345);	/* untouched */
		ck_assert(iops_err_isset(&err));
	}
}
END_TEST

START_TEST(test_plan_size_message)
{
	struct iops_err err = { 0 };
	uint64_t size;

	ck_assert_int_eq(suite_plan_size(52 * MIB + 7, GIB, false, 10, "quick", "/mnt/small", &size, &err), -ENOSPC);
	ck_assert_str_eq(err.msg, "iops: quick: not enough free space in '/mnt/small': 52 MiB free, and the test "
			 "file (64 MiB at least) must stay within 1/10 of it: 640 MiB free needed");
	ck_assert_int_eq(err.code, ENOSPC);
}
END_TEST

START_TEST(test_file_name)
{
	char buf[64], tiny[8];

	ck_assert_int_eq(suite_file_name(buf, sizeof(buf), "quick", 1234, 0), 0);
	ck_assert_str_eq(buf, "iops-quick.1234.0");
	ck_assert_int_eq(suite_file_name(buf, sizeof(buf), "latency", 1, 17), 0);
	ck_assert_str_eq(buf, "iops-latency.1.17");
	ck_assert_int_eq(suite_file_name(buf, sizeof(buf), "quick", 4194304, 4294967295u), 0);
	ck_assert_str_eq(buf, "iops-quick.4194304.4294967295");
	ck_assert_int_eq(suite_file_name(tiny, sizeof(tiny), "quick", 1, 0), -ENAMETOOLONG);
	ck_assert_int_eq(suite_file_name(buf, 18, "quick", 1234, 0), 0);	/* exactly fits */
	ck_assert_int_eq(suite_file_name(buf, 17, "quick", 1234, 0), -ENAMETOOLONG);
}
END_TEST

START_TEST(test_check_dir)
{
	struct iops_err err = { 0 };

	ck_assert_int_eq(suite_check_dir("/data", "quick", &err), 0);
	ck_assert_int_eq(suite_check_dir(".", "quick", &err), 0);
	ck_assert_int_eq(suite_check_dir("with space", "quick", &err), 0);
	ck_assert_int_eq(suite_check_dir("", "quick", &err), -EINVAL);
	ck_assert_int_eq(suite_check_dir("/a:b", "iops", &err), -EINVAL);
	ck_assert(strstr(err.msg, "'/a:b'") != NULL);
}
END_TEST

struct quote_vec {
	const char *args[4];
	const char *line;
};

static const struct quote_vec quote_vecs[] = {
	{ { "fio", "--name=x", "--directory=/data", NULL }, "fio --name=x --directory=/data" },
	{ { "fio", "--directory=/my data", NULL }, "fio '--directory=/my data'" },
	{ { "fio", "--filename_format=a.$jobnum", NULL }, "fio '--filename_format=a.$jobnum'" },
	{ { "fio", "--directory=it's", NULL }, "fio '--directory=it'\\''s'" },
	{ { "fio", "", NULL }, "fio ''" },
	{ { "fio", "--bs=4k,8k", "--x=a:b+c@d%", NULL }, "fio --bs=4k,8k --x=a:b+c@d%" },
	{ { "fio", "a;b", "c*", NULL }, "fio 'a;b' 'c*'" },
};

START_TEST(test_argv_line)
{
	const struct quote_vec *v = &quote_vecs[_i];
	struct suite_argv a;
	char line[256];

	suite_argv_init(&a);
	for (int i = 0; v->args[i]; i++)
		ck_assert_int_eq(suite_argv_add(&a, "%s", v->args[i]), 0);
	ck_assert_ptr_null(a.argv[a.argc]);
	ck_assert_uint_eq(suite_argv_line(&a, line, sizeof(line)), strlen(v->line));
	ck_assert_str_eq(line, v->line);
}
END_TEST

START_TEST(test_argv_limits)
{
	struct suite_argv *a = malloc(sizeof(*a));
	char big[SUITE_ARGV_BUF + 10], line[8];

	suite_argv_init(a);
	for (int i = 0; i < SUITE_ARGV_MAX; i++)
		ck_assert_int_eq(suite_argv_add(a, "--o%d", i), 0);
	ck_assert_int_eq(suite_argv_add(a, "one too many"), -E2BIG);
	ck_assert(a->overflow);
	ck_assert_int_eq(a->argc, SUITE_ARGV_MAX);

	suite_argv_init(a);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(suite_argv_add(a, "%s", big), -E2BIG);
	ck_assert_int_eq(a->argc, 0);
	ck_assert_int_eq(suite_argv_add(a, "fio"), -E2BIG);	/* sticky */

	suite_argv_init(a);
	suite_argv_add(a, "fio");
	suite_argv_add(a, "--name=long");
	ck_assert_uint_eq(suite_argv_line(a, line, sizeof(line)), 15);	/* truncated, length told */
	ck_assert_str_eq(line, "fio --n");
	free(a);
}
END_TEST

/* The psync fallback's job count: depth x numjobs, 1 at least, SUITE_PSYNC_MAX_JOBS at most,
 * no overflow at the edges. */
static const struct {
	unsigned depth, numjobs, want;
} psync_vecs[] = {
	{ 1, 1, 1 },	{ 16, 1, 16 },	 { 32, 2, 64 },	   { 32, 4, SUITE_PSYNC_MAX_JOBS },
	{ 32, 16, 64 }, { 0, 0, 1 },	 { 0, 7, 7 },	   { 5, 0, 5 },
	{ 63, 1, 63 },	{ 65, 1, 64 },	 { 4294967295u, 4294967295u, 64 },
};

START_TEST(test_psync_jobs)
{
	ck_assert_uint_eq(suite_psync_jobs(psync_vecs[_i].depth, psync_vecs[_i].numjobs), psync_vecs[_i].want);
}
END_TEST

START_TEST(test_figures)
{
	struct report rep;
	struct report_unit unit;
	struct report_group grp;
	struct job_result *res = calloc(1, sizeof(*res));
	struct suite_figures f;
	struct ddir_result *d = &res->ddir[DDIR_WRITE];

	memset(&rep, 0, sizeof(rep));
	memset(&unit, 0, sizeof(unit));
	memset(&grp, 0, sizeof(grp));
	unit.res = res;
	rep.units = &unit;
	rep.groups = &grp;
	rep.nr_units = rep.nr_groups = 1;

	suite_figures_get(&rep, DDIR_WRITE, &f);	/* no I/O: not valid */
	ck_assert(!f.valid);

	d->io_bytes = 4096ull * 2000;
	d->total_ios = d->issued_ios = 2000;
	d->runtime_us = 999500;		/* 1000 ms, as fio rounds */
	grp.agg_bps[DDIR_WRITE] = 8192000;
	for (unsigned i = 0; i < 1000; i++) {	/* total latency 1..1000 us */
		lat_stat_add(&d->lat, (i + 1) * 1000ull);
		hist_add(&d->lat_hist, (i + 1) * 1000ull);
		lat_stat_add(&d->clat, 7);
		hist_add(&d->clat_hist, 7);
	}
	suite_figures_get(&rep, DDIR_WRITE, &f);
	ck_assert(f.valid);
	ck_assert_uint_eq(f.runtime_ms, 1000);
	ck_assert(f.iops > 1999.9 && f.iops < 2000.1);
	ck_assert(f.bw_bps > 8191999.0 && f.bw_bps < 8192001.0);
	ck_assert(f.lat_mean_ns > 500499.0 && f.lat_mean_ns < 500501.0);
	ck_assert(f.p50_ns > 490000 && f.p50_ns < 510000);	/* histogram buckets: within 2% */
	ck_assert(f.p99_ns > 970000 && f.p99_ns < 1010000);
	ck_assert(f.p999_ns >= f.p99_ns);

	memset(&d->lat_hist, 0, sizeof(d->lat_hist));	/* no lat histogram: clat's */
	suite_figures_get(&rep, DDIR_WRITE, &f);
	ck_assert_uint_eq(f.p50_ns, 7);
	suite_figures_get(&rep, DDIR_READ, &f);
	ck_assert(!f.valid);
	free(res);
}
END_TEST

Suite *suite_suite(void)
{
	Suite *s = suite_create("suite");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_plan_size, 0, (int)(sizeof(size_vecs) / sizeof(size_vecs[0])));
	tcase_add_test(tc, test_plan_size_message);
	tcase_add_test(tc, test_file_name);
	tcase_add_test(tc, test_check_dir);
	tcase_add_loop_test(tc, test_argv_line, 0, (int)(sizeof(quote_vecs) / sizeof(quote_vecs[0])));
	tcase_add_test(tc, test_argv_limits);
	tcase_add_test(tc, test_figures);
	tcase_add_loop_test(tc, test_psync_jobs, 0, (int)(sizeof(psync_vecs) / sizeof(psync_vecs[0])));
	suite_add_tcase(s, tc);
	return s;
}

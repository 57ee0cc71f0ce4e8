/* SPDX-License-Identifier: MIT */
/* quick: the quick suite's options (defaults, bad values), its six fio command lines (the
 * shared file, the multi-job steps, the line iops runs), numjobs from the CPU count, and the
 * seed's summary lines. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/quick.h"

struct opt_vec {
	const char *args[5];
	int ret;
	const char *dir;
	uint64_t runtime_s, size;
	bool json, help;
	const char *msg;	/* part of the error */
};

static const struct opt_vec opt_vecs[] = {
	{ { NULL }, 0, ".", 10, 1ull << 30, false, false, NULL },
	{ { "/data", NULL }, 0, "/data", 10, 1ull << 30, false, false, NULL },
	{ { "--runtime=1", "d", "--size=64m", NULL }, 0, "d", 1, 64ull << 20, false, false, NULL },
	{ { "--runtime=2m", NULL }, 0, ".", 120, 1ull << 30, false, false, NULL },
	{ { "--runtime=86400", NULL }, 0, ".", 86400, 1ull << 30, false, false, NULL },
	{ { "--size=1M", NULL }, 0, ".", 10, 1ull << 20, false, false, NULL },
	{ { "--output-format=json", NULL }, 0, ".", 10, 1ull << 30, true, false, NULL },
	{ { "--output-format=normal", NULL }, 0, ".", 10, 1ull << 30, false, false, NULL },
	{ { "--output-format=json,openmetrics", "--output=m.prom", NULL }, 0, ".", 10, 1ull << 30, true, false, NULL },
	{ { "--output-format=openmetrics", NULL }, 0, ".", 10, 1ull << 30, false, false, NULL },
	{ { "--help", "--runtime=abc", NULL }, 0, ".", 10, 1ull << 30, false, true, NULL },
	{ { "-h", NULL }, 0, ".", 10, 1ull << 30, false, true, NULL },
	{ { "--runtime=0", NULL }, -EINVAL, NULL, 0, 0, false, false, "bad value '0' for --runtime" },
	{ { "--runtime=86401", NULL }, -EINVAL, NULL, 0, 0, false, false, "--runtime" },
	{ { "--runtime=abc", NULL }, -EINVAL, NULL, 0, 0, false, false, "'abc'" },
	{ { "--runtime=", NULL }, -EINVAL, NULL, 0, 0, false, false, "--runtime" },
	{ { "--runtime=1500ms", NULL }, -EINVAL, NULL, 0, 0, false, false, "whole seconds" },
	{ { "--runtime=99999999999999999999", NULL }, -EINVAL, NULL, 0, 0, false, false, "--runtime" },
	{ { "--size=0", NULL }, -EINVAL, NULL, 0, 0, false, false, "--size" },
	{ { "--size=1023k", NULL }, -EINVAL, NULL, 0, 0, false, false, "1 MiB" },
	{ { "--size=-1", NULL }, -EINVAL, NULL, 0, 0, false, false, "--size" },
	{ { "--size=2p", NULL }, -EINVAL, NULL, 0, 0, false, false, "--size" },
	{ { "--size=99999999999999999999999", NULL }, -EINVAL, NULL, 0, 0, false, false, "--size" },
	{ { "--size=lots", NULL }, -EINVAL, NULL, 0, 0, false, false, "--size" },
	{ { "--output-format=terse", NULL }, -EINVAL, NULL, 0, 0, false, false, "normal, json, json+ or openmetrics" },
	{ { "--output-format=json,", NULL }, -EINVAL, NULL, 0, 0, false, false, "normal, json, json+ or openmetrics" },
	{ { "--output-format=", NULL }, -EINVAL, NULL, 0, 0, false, false, "normal, json, json+ or openmetrics" },
	{ { "--output=", NULL }, -EINVAL, NULL, 0, 0, false, false, "bad value '' for --output" },
	{ { "--bs=4k", NULL }, -EINVAL, NULL, 0, 0, false, false, "unknown option '--bs=4k'" },
	{ { "--runtime", NULL }, -EINVAL, NULL, 0, 0, false, false, "--runtime" },
	{ { "a", "b", NULL }, -EINVAL, NULL, 0, 0, false, false, "one directory only" },
	{ { "", NULL }, -EINVAL, NULL, 0, 0, false, false, "empty" },
	{ { "/x:y", NULL }, -EINVAL, NULL, 0, 0, false, false, "':'" },
};

START_TEST(test_opts)
{
	const struct opt_vec *v = &opt_vecs[_i];
	char *argv[6] = { "quick" };
	int argc = 1;
	struct quick_opts o;
	struct iops_err err = { 0 };

	for (; v->args[argc - 1]; argc++)
		argv[argc] = (char *)v->args[argc - 1];
	ck_assert_int_eq(quick_opts_parse(argc, argv, NULL, &o, &err), v->ret);
	if (v->ret) {
		ck_assert_msg(strstr(err.msg, v->msg) != NULL, "'%s' lacks '%s'", err.msg, v->msg);
		ck_assert(strncmp(err.msg, "iops: quick: ", 13) == 0);
		return;
	}
	ck_assert(o.help == v->help);
	if (v->help)
		return;
	ck_assert_str_eq(o.dir, v->dir);
	ck_assert_uint_eq(o.runtime_s, v->runtime_s);
	ck_assert_uint_eq(o.size, v->size);
	ck_assert(o.json == v->json);
	ck_assert(o.openmetrics == (strstr(v->args[0] ? v->args[0] : "", "openmetrics") != NULL));
	ck_assert(o.normal == !(v->args[0] && !strncmp(v->args[0], "--output-format=", 16) &&
				strcmp(v->args[0], "--output-format=normal")));
	ck_assert_str_eq(o.output, v->args[1] && !strncmp(v->args[1], "--output=", 9) ? v->args[1] + 9 : "");
}
END_TEST

/* IOPS_QUICK: options before argv's (argv wins), options only */
static const struct {
	const char *env, *arg;
	int ret;
	uint64_t runtime_s, size;
	const char *msg;
} env_vecs[] = {
	{ "--runtime=1 --size=64m", NULL, 0, 1, 64ull << 20, NULL },
	{ "  --runtime=2\t", "--runtime=3", 0, 3, 1ull << 30, NULL },
	{ "", NULL, 0, 10, 1ull << 30, NULL },
	{ "--runtime=0", NULL, -EINVAL, 0, 0, "--runtime" },
	{ "/data", NULL, -EINVAL, 0, 0, "IOPS_QUICK holds options only" },
	{ "--runtime=1 x", NULL, -EINVAL, 0, 0, "not 'x'" },
	{ "--bogus", NULL, -EINVAL, 0, 0, "unknown option '--bogus'" },
};

START_TEST(test_opts_env)
{
	char *argv[3] = { "quick", (char *)env_vecs[_i].arg, NULL };
	struct quick_opts o;
	struct iops_err err = { 0 };

	ck_assert_int_eq(quick_opts_parse(env_vecs[_i].arg ? 2 : 1, argv, env_vecs[_i].env, &o, &err),
			 env_vecs[_i].ret);
	if (env_vecs[_i].ret) {
		ck_assert_msg(strstr(err.msg, env_vecs[_i].msg) != NULL, "'%s' lacks '%s'", err.msg, env_vecs[_i].msg);
		return;
	}
	ck_assert_uint_eq(o.runtime_s, env_vecs[_i].runtime_s);
	ck_assert_uint_eq(o.size, env_vecs[_i].size);
}
END_TEST

START_TEST(test_numjobs)
{
	ck_assert_uint_eq(quick_numjobs(-1), 1);
	ck_assert_uint_eq(quick_numjobs(0), 1);
	ck_assert_uint_eq(quick_numjobs(1), 1);
	ck_assert_uint_eq(quick_numjobs(2), 2);
	ck_assert_uint_eq(quick_numjobs(4), 4);
	ck_assert_uint_eq(quick_numjobs(64), 4);
}
END_TEST

static struct quick_plan test_plan(void)
{
	struct quick_plan p = { .dir = "/data", .size = 1ull << 30, .runtime_s = 10, .numjobs = 4, .direct = true };

	snprintf(p.file, sizeof(p.file), "iops-quick.42.0");
	return p;
}

START_TEST(test_step_lines)
{
	static const char *const want[QUICK_STEPS] = {
		"fio --name=seqread --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=read --bs=1m --iodepth=16 --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=seqwrite --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=write --bs=1m --iodepth=16 --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randread-qd1 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=randread --bs=4k --iodepth=1 --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randwrite-qd1 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=randwrite --bs=4k --iodepth=1 --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randread-qd32 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=randread --bs=4k --iodepth=32 --numjobs=4 --group_reporting --time_based "
		"--runtime=10 --lat_percentiles=1",
		"fio --name=randwrite-qd32 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=libaio "
		"--direct=1 --rw=randwrite --bs=4k --iodepth=32 --numjobs=4 --group_reporting --time_based "
		"--runtime=10 --lat_percentiles=1",
	};
	struct quick_plan p = test_plan();
	struct suite_argv *a = malloc(sizeof(*a)), *r = malloc(sizeof(*r));
	char line[SUITE_LINE_MAX];

	for (unsigned k = 0; k < QUICK_STEPS; k++) {
		ck_assert_int_eq(quick_step_argv(a, &p, k, false), 0);
		suite_argv_line(a, line, sizeof(line));
		ck_assert_str_eq(line, want[k]);
		/* the line iops runs: the same, and allow_overwrite after the layout step */
		ck_assert_int_eq(quick_step_argv(r, &p, k, true), 0);
		ck_assert_int_eq(r->argc, a->argc + (k > 0));
		for (int i = 0; i < a->argc; i++)
			ck_assert_str_eq(r->argv[i], a->argv[i]);
		if (k)
			ck_assert_str_eq(r->argv[a->argc], "--allow_overwrite=1");
	}
	p.numjobs = 1;	/* one CPU: no numjobs, no group_reporting */
	p.direct = false;
	p.dir = "/my dir";
	ck_assert_int_eq(quick_step_argv(a, &p, 5, false), 0);
	suite_argv_line(a, line, sizeof(line));
	ck_assert_str_eq(line, "fio --name=randwrite-qd32 '--directory=/my dir' --filename=iops-quick.42.0 --size=1024m "
			 "--ioengine=libaio --direct=0 --rw=randwrite --bs=4k --iodepth=32 --time_based --runtime=10 "
			 "--lat_percentiles=1");
	free(a);
	free(r);
}
END_TEST

/* Where libaio cannot run: psync, no iodepth, the depth as numjobs (with group_reporting); the
 * table shows what ran (depth 1, the jobs). */
START_TEST(test_step_lines_psync)
{
	static const char *const want[QUICK_STEPS] = {
		"fio --name=seqread --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=read --bs=1m --numjobs=16 --group_reporting --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=seqwrite --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=write --bs=1m --numjobs=16 --group_reporting --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randread-qd1 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=randread --bs=4k --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randwrite-qd1 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=randwrite --bs=4k --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randread-qd32 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=randread --bs=4k --numjobs=64 --group_reporting --time_based --runtime=10 --lat_percentiles=1",
		"fio --name=randwrite-qd32 --directory=/data --filename=iops-quick.42.0 --size=1024m --ioengine=psync "
		"--direct=1 --rw=randwrite --bs=4k --numjobs=64 --group_reporting --time_based --runtime=10 --lat_percentiles=1",
	};
	static const unsigned want_jobs[QUICK_STEPS] = { 16, 16, 1, 1, 64, 64 };
	struct quick_plan p = test_plan();
	struct suite_argv *a = malloc(sizeof(*a));
	struct suite_figures f[QUICK_STEPS];
	char line[SUITE_LINE_MAX], buf[2048];
	unsigned depth, jobs;
	FILE *m;

	p.psync = true;
	for (unsigned k = 0; k < QUICK_STEPS; k++) {
		ck_assert_int_eq(quick_step_argv(a, &p, k, false), 0);
		suite_argv_line(a, line, sizeof(line));
		ck_assert_str_eq(line, want[k]);
		quick_step_shape(&p, k, &depth, &jobs);
		ck_assert_uint_eq(depth, 1);
		ck_assert_uint_eq(jobs, want_jobs[k]);
	}
	p.numjobs = 1;	/* one CPU: QD32 x 1 */
	quick_step_shape(&p, 4, &depth, &jobs);
	ck_assert_uint_eq(jobs, 32);
	memset(f, 0, sizeof(f));
	f[4] = (struct suite_figures){ .valid = true, .iops = 1000 };
	m = fmemopen(buf, sizeof(buf), "w");
	quick_table_print(m, &p, f);
	fclose(m);
	ck_assert_ptr_nonnull(strstr(buf, "\nrandread-qd32   randread   4k     1   32      1000 "));
	free(a);
}
END_TEST

START_TEST(test_summary)
{
	struct suite_figures f[QUICK_STEPS];
	char buf[2048];
	FILE *m;

	memset(f, 0, sizeof(f));
	f[0] = (struct suite_figures){ .valid = true, .bw_bps = 475.4 * 1048576 };
	f[1] = (struct suite_figures){ .valid = true, .bw_bps = 146.0 * 1048576 };
	f[2] = (struct suite_figures){ .valid = true, .lat_mean_ns = 132000 };
	f[3] = (struct suite_figures){ .valid = true, .lat_mean_ns = 45400 };
	f[4] = (struct suite_figures){ .valid = true, .iops = 64914.2 };
	f[5] = (struct suite_figures){ .valid = true, .iops = 60155.4 };
	m = fmemopen(buf, sizeof(buf), "w");
	quick_summary_print(m, f);
	fclose(m);
	ck_assert_str_eq(buf, "Max write bandwidth: 146 MiB/s\n"
			 "Max read bandwidth: 475 MiB/s\n"
			 "Write I/O latency: 0.045 ms\n"
			 "Read I/O latency: 0.132 ms\n"
			 "Max write throughput: 60155 IOPS\n"
			 "Max read throughput: 64914 IOPS\n");
	f[1].valid = f[3].valid = f[4].valid = f[5].valid = false;	/* partial: stopped in step 3 */
	m = fmemopen(buf, sizeof(buf), "w");
	quick_summary_print(m, f);
	fclose(m);
	ck_assert_str_eq(buf, "Max read bandwidth: 475 MiB/s\nRead I/O latency: 0.132 ms\n");
}
END_TEST

Suite *quick_suite(void)
{
	Suite *s = suite_create("quick");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_opts, 0, (int)(sizeof(opt_vecs) / sizeof(opt_vecs[0])));
	tcase_add_loop_test(tc, test_opts_env, 0, (int)(sizeof(env_vecs) / sizeof(env_vecs[0])));
	tcase_add_test(tc, test_numjobs);
	tcase_add_test(tc, test_step_lines);
	tcase_add_test(tc, test_step_lines_psync);
	tcase_add_test(tc, test_summary);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* sweep_conf: config.file and option parsing (good and bad values), the step matrix and its
 * order, the result directory names, the steps' fio arguments, the space plan. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "suite/sweep_conf.h"

static const char *const bad_opts[][2] = {
	{ "rw", "randwrite,bogus" }, { "rw", "" }, { "rw", " , " }, { "rw", "trim" }, { "rw", NULL },
	{ "bs", "0" }, { "bs", "4q" }, { "bs", "-4k" }, { "bs", "4k,abc" }, { "bs", "512m" },
	{ "bs", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17" }, { "bs", "123456789012345678901234567890" },
	{ "samples", "0" }, { "samples", "1001" }, { "samples", "abc" }, { "samples", "-1" },
	{ "samples", "99999999999999999999999" }, { "sample", "1.5" },
	{ "prefill", "maybe" }, { "keep", "2" }, { "direct", "yes please" },
	{ "numjobs", "0" }, { "numjobs", "65" }, { "numjobs", "4k" }, { "iodepth", "0" }, { "iodepth", "65537" },
	{ "size", "0" }, { "size", "abc" }, { "size", "50%" }, { "size", "-1" }, { "size", "" },
	{ "runtime", "0" }, { "runtime", "abc" }, { "runtime", "500ms" },
	{ "rwmixread", "101" }, { "rwmixread", "-1" }, { "rate_iops", "0" }, { "log_avg_msec", "x" },
	{ "directory", "" }, { "directory", "/a:/b" }, { "filename", "a:b" },
	{ "ioengine", "spdk" }, { "ioengine", "" }, { "ioengine", "sync psync" }, { "ioengine", "lib" },
	{ "output-format", "terse" }, { "results", "" }, { "nope", "1" }, { "server", "3" },
};

START_TEST(test_bad_option)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };

	sweep_conf_init(&c);
	ck_assert_msg(sweep_conf_set(&c, bad_opts[_i][0], bad_opts[_i][1], false, &err) == -EINVAL,
		      "accepted %s=%s", bad_opts[_i][0], bad_opts[_i][1] ? bad_opts[_i][1] : "(none)");
	ck_assert_msg(strstr(err.msg, bad_opts[_i][0]), "message does not name %s: %s", bad_opts[_i][0], err.msg);
}
END_TEST

START_TEST(test_lists_and_values)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };

	sweep_conf_init(&c);
	ck_assert_uint_eq(sweep_nr_steps(&c), 1);
	ck_assert_int_eq(sweep_conf_set(&c, "rw", "read,randread  randwrite", false, &err), 0);
	ck_assert_uint_eq(c.nr_rw, 3);
	ck_assert_str_eq(c.rw[2], "randwrite");
	ck_assert_int_eq(sweep_conf_set(&c, "bs", "8k 16k", false, &err), 0);
	ck_assert_int_eq(sweep_conf_set(&c, "samples", "3", false, &err), 0);
	ck_assert_uint_eq(sweep_nr_steps(&c), 18);
	ck_assert_int_eq(sweep_conf_set(&c, "direct", "true", false, &err), 0);
	ck_assert_str_eq(c.pass[SWEEP_P_DIRECT], "1");
	ck_assert_int_eq(sweep_conf_set(&c, "time_based", NULL, false, &err), 0);
	ck_assert_str_eq(c.pass[SWEEP_P_TIME_BASED], "1");
	ck_assert_int_eq(sweep_conf_set(&c, "numjobs", "64", false, &err), 0);
	ck_assert_uint_eq(c.numjobs, 64);
	ck_assert_int_eq(sweep_conf_set(&c, "size", "4m", false, &err), 0);
	ck_assert(c.size == 4u << 20);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "csv", false, &err), 0);
	ck_assert_int_eq(c.out, SWEEP_OUT_CSV);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "json", false, &err), 0);
	ck_assert_int_eq(c.out, SWEEP_OUT_JSON);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "normal", false, &err), 0);
	ck_assert_int_eq(c.out, SWEEP_OUT_NORMAL);
	ck_assert(!c.openmetrics);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "json,openmetrics", false, &err), 0);
	ck_assert_int_eq(c.out, SWEEP_OUT_JSON);
	ck_assert(c.openmetrics);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "openmetrics", false, &err), 0);
	ck_assert_int_eq(c.out, SWEEP_OUT_NONE);
	ck_assert(c.openmetrics);
	ck_assert_int_eq(sweep_conf_set(&c, "output-format", "csv", false, &err), 0);
	ck_assert(!c.openmetrics);
	for (unsigned i = 0; i < 5; i++) {
		static const char *const badf[] = { "openmetrics,json", "json,csv", "json,", ",openmetrics",
						     "json,openmetrics,openmetrics" };

		ck_assert_int_eq(sweep_conf_set(&c, "output-format", badf[i], false, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, "normal, csv, json or openmetrics") != NULL, "%s", err.msg);
	}
	ck_assert_int_eq(sweep_conf_set(&c, "output", "/tmp/s.prom", false, &err), 0);
	ck_assert_str_eq(c.output, "/tmp/s.prom");
	ck_assert_int_eq(sweep_conf_set(&c, "output", "", false, &err), -EINVAL);
	ck_assert_int_eq(sweep_conf_set(&c, "direct", "off", false, &err), 0);
	ck_assert_str_eq(c.pass[SWEEP_P_DIRECT], "0");
	ck_assert_int_eq(sweep_conf_set(&c, "direct", "on", false, &err), 0);
	ck_assert_str_eq(c.pass[SWEEP_P_DIRECT], "1");
	ck_assert_int_eq(sweep_conf_set(&c, "prefill", "no", false, &err), 0);
	ck_assert(!c.prefill);
	ck_assert_int_eq(sweep_conf_set(&c, "keep", NULL, false, &err), 0);
	ck_assert(c.keep);
	ck_assert_int_eq(sweep_conf_set(&c, "prefill", NULL, false, &err), 0);
	ck_assert(c.prefill);
	ck_assert_int_eq(sweep_conf_set(&c, "rwmixread", "0", false, &err), 0);
	ck_assert_int_eq(sweep_conf_set(&c, "bs", "256m", false, &err), 0);
}
END_TEST

START_TEST(test_config_file)
{
	static const char text[] =
		"# simple-fio config.file\n"
		"server=3\n"
		"storageclass=ocs-storagecluster-ceph-rbd   # a comment after the value\n"
		"storage(Gi)=100\n"
		"  \n"
		"sample=2\r\n"
		"prefill=false\n"
		"direct=1\n"
		"rw=randwrite randread\n"
		"bs=\"4K 8K 16K\"\n"
		"numjobs = 4\n"
		"time_based=1\n"
		"runtime=120\n"
		"size=1g\n"
		"iodepth=8\n"
		"log_avg_msec=5000";
	struct sweep_conf c;
	struct iops_err err = { 0 };
	char names[128];

	sweep_conf_init(&c);
	ck_assert_int_eq(sweep_conf_file(&c, text, "config.file", &err), 0);
	ck_assert_uint_eq(sweep_nr_steps(&c), 2 * 3 * 2);
	ck_assert_str_eq(c.bs[0], "4K");
	ck_assert_str_eq(c.pass[SWEEP_P_IODEPTH], "8");
	ck_assert_str_eq(c.pass[SWEEP_P_LOG_AVG_MSEC], "5000");
	ck_assert(!c.prefill);
	sweep_conf_k8s_names(&c, names, sizeof(names));
	ck_assert_str_eq(names, "server, storageclass, storage(Gi)");
	ck_assert_str_eq(sweep_conf_k8s_value(&c, "server"), "3");
	ck_assert_str_eq(sweep_conf_k8s_value(&c, "storage(Gi)"), "100");
	ck_assert_ptr_null(sweep_conf_k8s_value(&c, "volumemode"));
	ck_assert_ptr_null(sweep_conf_k8s_value(&c, "rw"));
}
END_TEST

static const char *const bad_files[] = {
	"rw=read\nnot a setting\n", "bs=4k\nrw=bogus\n", "=3\n", "sample=0\n", "keep=1\n",
	"output-format=json\n", "numjobs=\n",
};

START_TEST(test_bad_file)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };

	sweep_conf_init(&c);
	ck_assert_int_eq(sweep_conf_file(&c, bad_files[_i], "cf", &err), -EINVAL);
	ck_assert_msg(!strncmp(err.msg, "cf:", 3), "no line in: %s", err.msg);
}
END_TEST

START_TEST(test_matrix_order_and_names)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };
	struct sweep_step st;
	struct tm tm = { .tm_year = 123, .tm_mon = 10, .tm_mday = 21, .tm_hour = 11, .tm_min = 23 };
	char name[128];

	sweep_conf_init(&c);
	sweep_conf_set(&c, "rw", "randread,write", false, &err);
	sweep_conf_set(&c, "bs", "8k,16k", false, &err);
	sweep_conf_set(&c, "samples", "2", false, &err);
	sweep_step_at(&c, 0, &st);
	ck_assert(!strcmp(st.rw, "randread") && !strcmp(st.bs, "8k") && st.sample == 1);
	sweep_step_at(&c, 1, &st);
	ck_assert(!strcmp(st.rw, "randread") && !strcmp(st.bs, "8k") && st.sample == 2);
	sweep_step_at(&c, 2, &st);
	ck_assert(!strcmp(st.bs, "16k") && st.sample == 1);
	sweep_step_at(&c, 7, &st);
	ck_assert(!strcmp(st.rw, "write") && !strcmp(st.bs, "16k") && st.sample == 2);
	ck_assert_int_eq(sweep_step_dirname(&st, &tm, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "fio_16k_write_sample2_23_11_21_11_23");
	ck_assert_int_eq(sweep_step_dirname(&st, &tm, name, 10), -ENAMETOOLONG);
	sweep_step_at(&c, -1, &st);
	ck_assert(!strcmp(st.rw, "write") && !strcmp(st.bs, "256k") && st.sample == 0);
	ck_assert_int_eq(sweep_step_dirname(&st, &tm, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "prefill_23_11_21_11_23");
	ck_assert(sweep_rw_writes("randrw") && sweep_rw_writes("readwrite") && !sweep_rw_writes("randread"));
	ck_assert(sweep_rw_random("randrw") && !sweep_rw_random("write"));
}
END_TEST

static void join(char **argv, int argc, char *out, size_t n)
{
	out[0] = '\0';
	for (int i = 0; i < argc; i++) {
		strncat(out, argv[i], n - strlen(out) - 2);
		if (i + 1 < argc)
			strncat(out, " ", n - strlen(out) - 1);
	}
}

START_TEST(test_step_argv)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };
	struct sweep_step st;
	char *argv[48], store[4096], line[4096];
	int argc;

	sweep_conf_init(&c);
	sweep_conf_set(&c, "rw", "randwrite", false, &err);
	sweep_conf_set(&c, "directory", "/d", false, &err);
	sweep_conf_set(&c, "runtime", "1", false, &err);
	sweep_conf_set(&c, "rate_iops", "100", false, &err);
	sweep_step_at(&c, 0, &st);
	argc = sweep_step_argv(&c, &st, "f.$jobnum", "/r/x.json", NULL, argv, 48, store, sizeof(store));
	ck_assert_int_gt(argc, 0);
	ck_assert_ptr_null(argv[argc]);
	join(argv, argc, line, sizeof(line));
	ck_assert_str_eq(line, "fio --name=sweep --directory=/d --ioengine=libaio --size=1g --numjobs=1 --iodepth=1 --runtime=1 "
			 "--rate_iops=100 --filename_format=f.$jobnum --rw=randwrite --bs=4k --fsync_on_close=1 "
			 "--create_on_open=1 --randrepeat=0 --allrandrepeat=0 --group_reporting "
			 "--output-format=json --output=/r/x.json");
	/* prefill: no runtime, rate or depth of the steps; sequential, QD1, logs when asked */
	sweep_step_at(&c, -1, &st);
	argc = sweep_step_argv(&c, &st, "f.$jobnum", "/r/p.json", "/r/fio", argv, 48, store, sizeof(store));
	join(argv, argc, line, sizeof(line));
	ck_assert_str_eq(line, "fio --name=prefill --directory=/d --ioengine=libaio --size=1g --numjobs=1 --filename_format=f.$jobnum "
			 "--rw=write --bs=256k --iodepth=1 --fsync_on_close=1 --create_on_open=1 "
			 "--write_bw_log=/r/fio --write_iops_log=/r/fio --write_lat_log=/r/fio --group_reporting "
			 "--output-format=json --output=/r/p.json");
	/* too small a store or argv: refused, never cut */
	ck_assert_int_eq(sweep_step_argv(&c, &st, "f", "/j", NULL, argv, 48, store, 40), -ENOSPC);
	ck_assert_int_eq(sweep_step_argv(&c, &st, "f", "/j", NULL, argv, 5, store, sizeof(store)), -ENOSPC);
}
END_TEST

START_TEST(test_space)
{
	struct sweep_conf c;
	struct iops_err err = { 0 };

	sweep_conf_init(&c);
	sweep_conf_set(&c, "size", "1g", false, &err);
	sweep_conf_set(&c, "numjobs", "4", false, &err);
	ck_assert(sweep_space_needed(&c) == 4ull << 30);
	sweep_conf_set(&c, "filename", "/dev/x", false, &err);
	ck_assert(sweep_space_needed(&c) == 1ull << 30);
	c.pass[SWEEP_P_FILENAME][0] = '\0';
	c.size = UINT64_MAX / 2;
	ck_assert(sweep_space_needed(&c) == UINT64_MAX);	/* saturates, never wraps */
	ck_assert(!sweep_space_fits(UINT64_MAX, UINT64_MAX));
	ck_assert(sweep_space_fits(900ull << 20, 1000ull << 20));
	ck_assert(!sweep_space_fits(901ull << 20, 1000ull << 20));
	ck_assert(!sweep_space_fits(1, 16u << 20));	/* 16 MiB stays free at least */
	ck_assert(!sweep_space_fits(0, 0));
	ck_assert(sweep_space_fits(1, (16u << 20) + 1));
}
END_TEST

Suite *sweep_conf_suite(void)
{
	Suite *s = suite_create("sweep_conf");
	TCase *tc = tcase_create("suite");

	tcase_add_loop_test(tc, test_bad_option, 0, (int)(sizeof(bad_opts) / sizeof(bad_opts[0])));
	tcase_add_loop_test(tc, test_bad_file, 0, (int)(sizeof(bad_files) / sizeof(bad_files[0])));
	tcase_add_test(tc, test_lists_and_values);
	tcase_add_test(tc, test_config_file);
	tcase_add_test(tc, test_matrix_order_and_names);
	tcase_add_test(tc, test_step_argv);
	tcase_add_test(tc, test_space);
	suite_add_tcase(s, tc);
	return s;
}

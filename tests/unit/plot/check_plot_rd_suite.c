/* SPDX-License-Identifier: MIT */
/* plot_rd_suite: a real sweep's JSON and a real suite run's output read back (every value
 * compared with the text), and what is refused. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_rd_suite.h"
#include "plot_fixture.h"

START_TEST(test_sweep)
{
	struct iops_err err = { 0 };
	struct plot_sweep s;
	struct jsonr j, ref;
	size_t len;
	char *text = plot_fixture("sweep.json", &len);

	ck_assert_int_eq(jsonr_parse(&j, text, len, &err), 0);
	ck_assert_int_eq(jsonr_parse(&ref, text, len, &err), 0);
	ck_assert(plot_rd_sweep_is(&j));
	ck_assert_int_eq(plot_rd_sweep(&s, &j, "sweep.json", &err), 0);
	ck_assert_uint_eq(s.nr_steps, 8);
	for (unsigned i = 0; i < s.nr_steps; i++) {
		const struct jsonr_node *n = jsonr_child(&ref, jsonr_get(&ref, NULL, "steps"), i);
		double v;

		ck_assert_str_eq(s.step[i].rw, jsonr_str(&ref, n, "rw"));
		ck_assert_str_eq(s.step[i].bs, jsonr_str(&ref, n, "bs"));
		ck_assert(jsonr_num(&ref, n, "iops", &v) && v == s.step[i].iops);
		ck_assert(jsonr_num(&ref, n, "bw_bytes", &v) && v == s.step[i].bw_bytes);
		ck_assert(jsonr_num(&ref, n, "clat_p99_us", &v) && v == s.step[i].clat_p99_us);
		ck_assert(jsonr_num(&ref, n, "lat_mean_us", &v) && v == s.step[i].lat_mean_us);
		ck_assert(jsonr_num(&ref, n, "sample", &v) && v == s.step[i].sample);
	}
	ck_assert_str_eq(s.step[0].rw, "randread");
	ck_assert_str_eq(s.step[7].rw, "write");
	plot_rd_sweep_free(&s);
	jsonr_free(&ref);
	free(text);
}
END_TEST

static const struct {
	const char *doc;
	bool is;
	const char *why;
} bad_sweeps[] = {
	{ "{\"steps\": [{\"rw\": \"read\"}]}", false, NULL },	/* no iops: not a sweep */
	{ "{\"steps\": 1}", false, NULL }, { "{\"jobs\": [], \"steps\": []}", false, NULL },
	{ "{\"steps\": []}", true, "without any step" },
	{ "{\"steps\": [{\"rw\": \"read\", \"iops\": 1, \"bs\": \"4k\", \"bw_bytes\": 1}, {\"rw\": 1}]}", true, "step 2" },
	{ "{\"steps\": [{\"rw\": \"read\", \"iops\": 1}]}", true, "step 1 has no" },
};

START_TEST(test_sweep_bad)
{
	struct iops_err err = { 0 };
	struct plot_sweep s;
	struct jsonr j;
	const char *d = bad_sweeps[_i].doc;

	ck_assert_int_eq(jsonr_parse(&j, d, strlen(d), &err), 0);
	ck_assert_msg(plot_rd_sweep_is(&j) == bad_sweeps[_i].is, "%s", d);
	if (!bad_sweeps[_i].is) {
		jsonr_free(&j);
		return;
	}
	ck_assert_int_eq(plot_rd_sweep(&s, &j, "s.json", &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "s.json: ") == err.msg && strstr(err.msg, bad_sweeps[_i].why), "%s", err.msg);
}
END_TEST

START_TEST(test_suite)
{
	struct iops_err err = { 0 };
	struct plot_suite s;
	size_t len;
	char *text = plot_fixture("suite.txt", &len);
	const struct plot_suite_fig *f;

	ck_assert(plot_rd_suite_is(text, len));
	ck_assert_int_eq(plot_rd_suite(&s, "suite.txt", text, len, &err), 0);
	ck_assert_uint_eq(s.iterations, 2);
	ck_assert_uint_eq(s.nr_conf, 8);
	ck_assert_str_eq(s.conf[0], "List of benchmarks to run: fio meta (BENCHMARKS)");
	ck_assert_uint_eq(s.nr_figs, 11);	/* six of fio, five of the tree ("Files in the tree" is none) */
	f = &s.fig[0];
	ck_assert_str_eq(f->name, "Max write bandwidth");
	ck_assert_str_eq(f->bench, "fio");
	ck_assert(f->unit == &plot_u_mibs && f->nr == 2 && f->v[0] == 1019 && f->v[1] == 1426);
	ck_assert(f->iter[0] == 1 && f->iter[1] == 2);
	f = &s.fig[2];
	ck_assert_str_eq(f->name, "Write I/O latency");
	ck_assert(f->unit == &plot_u_ms_lat && f->v[0] == 0.047);
	f = &s.fig[10];
	ck_assert_str_eq(f->name, "Remove rate");
	ck_assert(f->unit == &plot_u_files_s && !strcmp(f->bench, "meta") && f->v[1] == 761);
	plot_rd_suite_free(&s);
	free(text);
}
END_TEST

static const char *const bad_suites[] = {
	"Configuration:\n", "Configuration:\nBenchmark: fio\n", "Configuration:\nBenchmark: fio\nMax: x MiB/s\n",
	"Configuration:\nBenchmark: fio\nMax: 5 furlongs\n", "Configuration:\nIteration: 1 of 1\nMax: 5MiB/s\n",
};

START_TEST(test_suite_bad)
{
	struct iops_err err = { 0 };
	struct plot_suite s;
	const char *t = bad_suites[_i];

	ck_assert_int_eq(plot_rd_suite(&s, "s.txt", t, strlen(t), &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "without any figure"), "%s", err.msg);
	ck_assert(s.text == NULL && s.fig == NULL);
}
END_TEST

START_TEST(test_suite_is)
{
	ck_assert(plot_rd_suite_is("Configuration:", 14));
	ck_assert(plot_rd_suite_is("Configuration:\r\n", 16));
	ck_assert(!plot_rd_suite_is("Configuration: x\n", 17));
	ck_assert(!plot_rd_suite_is("Configuratio", 12));
	ck_assert(!plot_rd_suite_is("", 0));
	{
		struct iops_err err = { 0 };
		struct plot_suite s;

		ck_assert_int_eq(plot_rd_suite(&s, "x", "hello", 5, &err), -EINVAL);
		ck_assert(strstr(err.msg, "not a suite run's output"));
	}
}
END_TEST

Suite *plot_rd_suite_suite(void)
{
	Suite *s = suite_create("plot_rd_suite");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_sweep);
	tcase_add_loop_test(t, test_sweep_bad, 0, sizeof(bad_sweeps) / sizeof(bad_sweeps[0]));
	tcase_add_test(t, test_suite);
	tcase_add_loop_test(t, test_suite_bad, 0, sizeof(bad_suites) / sizeof(bad_suites[0]));
	tcase_add_test(t, test_suite_is);
	suite_add_tcase(s, t);
	return s;
}

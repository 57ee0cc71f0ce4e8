/* SPDX-License-Identifier: MIT */
/* compare_out: the normal table (header, a block per job and direction, units scaled by the
 * baseline, n/a cells, the verdict counts, the fail-on lines) and the JSON document, read
 * back with our reader. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/jsonr.h"

#define JOB(iops, bw, mean) "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"seq\",\"job options\":{\"rw\":\"read\"," \
	"\"bs\":\"1m\"},\"read\":{\"total_ios\":100,\"iops\":" #iops ",\"bw_bytes\":" #bw ",\"lat_ns\":{\"N\":100," \
	"\"mean\":" #mean ",\"stddev\":1.0},\"clat_ns\":{\"N\":100,\"percentile\":{\"50.000000\":1000,\"99.000000\":2000}}}}]}"

static char *run(enum compare_fmt fmt, const char *limit, unsigned *failures)
{
	static const char a[] = JOB(300.0, 314572800, 2500000.0), b[] = JOB(150.0, 157286400, 2500000.0);
	struct compare_opts o;
	struct compare *c;
	struct iops_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	compare_opts_init(&o);
	if (limit)
		ck_assert_int_eq(compare_limits_parse(limit, o.fail_on_pct, "--fail-on", &err), 0);
	c = compare_new(&o);
	ck_assert_int_eq(compare_add(c, "a.json", a, strlen(a), &err), 0);
	ck_assert_int_eq(compare_add(c, "b.json", b, strlen(b), &err), 0);
	ck_assert_int_eq(compare_run(c, NULL, &err), 0);
	ck_assert_int_eq(compare_write(c, f, fmt), 0);
	*failures = compare_failures(c);
	fclose(f);
	compare_free(c);
	return text;
}

START_TEST(test_normal)
{
	unsigned failures;
	char *t = run(COMPARE_OUT_NORMAL, "iops:10", &failures);

	ck_assert_uint_eq(failures, 1);
	ck_assert(!strncmp(t, "iops compare: a.json (baseline, fio, 1 run) vs b.json (fio, 1 run)\n"
			   "noise: 99% confidence; floor 1%; single-run bands: iops 2% bw 2% mean 5% p50 5% p99 10% p99.9 20%\n"
			   "\njob 'seq', read: rw=read bs=1m iodepth=1 numjobs=1 ioengine=psync direct=0\n", 236));
	ck_assert_msg(strstr(t, "  figure                a.json           b.json   change  threshold      verdict\n"
			    "  iops                   300.0            150.0   -50.0%  2.0% band      worse\n"
			    "  bw              300.00 MiB/s     150.00 MiB/s   -50.0%  2.0% band      worse\n"
			    "  mean                2.500 ms         2.500 ms    +0.0%  5.0% band      within noise\n"
			    "  p50 (clat)          1.000 us         1.000 us    +0.0%  5.4% order     within noise\n"
			    "  p99 (clat)          2.000 us         2.000 us    +0.0%  11.5% order    within noise\n"
			    "  p99.9 (clat)               -                -                          n/a: not measured "
			    "in the baseline\n") != NULL, "%s", t);
	ck_assert(strstr(t, "\nverdicts: 2 worse, 0 better, 3 within noise, 1 n/a\n") != NULL);
	ck_assert(strstr(t, "fail-on: 1 figure worse beyond noise by more than the limit:\n"
			    "  'seq' read iops: b.json is 50.0% worse than a.json (limit 10%, noise 2.0%)\n") != NULL);
	free(t);
}
END_TEST

START_TEST(test_json)
{
	unsigned failures;
	char *t = run(COMPARE_OUT_JSON, NULL, &failures);
	struct jsonr j;
	struct iops_err err = { 0 };
	double v;

	ck_assert_uint_eq(failures, 0);
	ck_assert_int_eq(jsonr_parse(&j, t, strlen(t), &err), 0);
	ck_assert_str_eq(jsonr_str(&j, NULL, "mode"), "compare");
	ck_assert(jsonr_num(&j, NULL, "confidence", &v) && v == 0.99);
	ck_assert_uint_eq(jsonr_get(&j, NULL, "fail_on_pct")->count, 0);
	ck_assert_str_eq(jsonr_str(&j, NULL, "inputs/1/name"), "b.json");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/job"), "seq");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/direction"), "read");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/workload/bs"), "1m");
	ck_assert(jsonr_num(&j, NULL, "rows/0/figures/iops/baseline", &v) && v == 300);
	ck_assert(jsonr_num(&j, NULL, "rows/0/figures/iops/against/0/value", &v) && v == 150);
	ck_assert(jsonr_num(&j, NULL, "rows/0/figures/iops/against/0/change_pct", &v) && v == -50);
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/figures/iops/against/0/verdict"), "worse");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/figures/iops/against/0/noise"), "band");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/figures/p99.9/against/0/verdict"), "n/a");
	ck_assert_str_eq(jsonr_str(&j, NULL, "rows/0/figures/p99.9/against/0/why"), "not measured in the baseline");
	ck_assert(jsonr_num(&j, NULL, "verdicts/worse", &v) && v == 2);
	ck_assert(jsonr_num(&j, NULL, "failures", &v) && v == 0);
	jsonr_free(&j);
	free(t);
}
END_TEST

Suite *compare_out_suite(void)
{
	Suite *s = suite_create("compare_out");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* out_json: document-level rules. Whole json+ documents of real fio runs are compared byte
 * for byte in check_report.c; these cases pin options, escaping, and optional keys. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/report/out_json.h"
#include "fio/report/write.h"

struct doc {
	struct fio_config cfg;
	struct job job;
	struct job_result *res;
	struct report rep;
	char *buf;
	size_t len;
};

static void doc_init(struct doc *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->job.name, sizeof(d->job.name), "j");
	d->job.kb_base = 1024;
	d->job.sig_figs = 4;
	d->job.iodepth = 8;
	d->job.lat_pct = 100.0;	/* latency_percentile */
	d->job.clat_percentiles = true;
	d->cfg.jobs = &d->job;
	d->cfg.nr_jobs = 1;
	d->cfg.nr_groups = 1;
	d->cfg.output_format = OUT_JSON;
	d->res = calloc(1, sizeof(*d->res));
	ck_assert_ptr_nonnull(d->res);
}

static const char *doc_print(struct doc *d)
{
	FILE *fp;

	ck_assert_int_eq(report_build(&d->rep, &d->cfg, &d->res, 1), 0);
	d->rep.now.tv_sec = 1796054400;
	d->rep.now.tv_nsec = 123456789;
	fp = open_memstream(&d->buf, &d->len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(out_json_print(fp, &d->rep, false), 0);
	fclose(fp);
	return d->buf;
}

static void doc_release(struct doc *d)
{
	report_release(&d->rep);
	free(d->res);
	free(d->buf);
}

START_TEST(test_top_level_and_options)
{
	struct doc d;
	struct job_kv gopts[2] = { { (char *)"group_reporting", (char *)"" },
				   { (char *)"runtime", (char *)"1" } };
	struct job_kv jopts[3] = { { (char *)"name", (char *)"j" },
				   { (char *)"time_based", (char *)"" },
				   { (char *)"size", (char *)"64m" } };
	const char *out;

	doc_init(&d);
	d.cfg.global_opts = gopts;
	d.cfg.nr_global_opts = 2;
	d.job.opts = jopts;
	d.job.nr_opts = 3;
	setenv("TZ", "UTC", 1);
	tzset();
	out = doc_print(&d);
	static const char head[] =
		"{\n"
		"  \"fio version\" : \"fio-3.33\",\n"
		"  \"timestamp\" : 1796054400,\n"
		"  \"timestamp_ms\" : 1796054400123,\n"
		"  \"time\" : \"Mon Nov 30 16:00:00 2026\",\n";

	ck_assert_int_eq(strncmp(out, head, strlen(head)), 0);
	ck_assert_ptr_nonnull(strstr(out,
		"  \"global options\" : {\n"
		"    \"runtime\" : \"1\"\n"
		"  },\n"
		"  \"jobs\" : [\n"
		"    {\n"
		"      \"jobname\" : \"j\",\n"
		"      \"groupid\" : 0,\n"
		"      \"error\" : 0,\n"
		"      \"eta\" : 2147483647,\n"	/* elapsed < 3 s: ETA unknown, like fio */
		"      \"elapsed\" : 0,\n"
		"      \"job options\" : {\n"
		"        \"name\" : \"j\",\n"
		"        \"size\" : \"64m\"\n"
		"      },\n"
		"      \"read\" : {\n"));
	/* a direction without I/O still has every key; no percentile object without samples */
	ck_assert_ptr_nonnull(strstr(out,
		"        \"clat_ns\" : {\n"
		"          \"min\" : 0,\n"
		"          \"max\" : 0,\n"
		"          \"mean\" : 0.000000,\n"
		"          \"stddev\" : 0.000000,\n"
		"          \"N\" : 0\n"
		"        },\n"));
	ck_assert_ptr_nonnull(strstr(out,
		"      \"latency_depth\" : 8,\n"
		"      \"latency_target\" : 0,\n"
		"      \"latency_percentile\" : 100.000000,\n"
		"      \"latency_window\" : 0\n"
		"    }\n"
		"  ]\n"
		"}\n"));
	ck_assert_ptr_null(strstr(out, "disk_util"));
	ck_assert_ptr_null(strstr(out, "\"desc\""));
	ck_assert_ptr_null(strstr(out, "time_based"));
	doc_release(&d);
}
END_TEST

START_TEST(test_flag_only_globals_print_empty_object)
{
	/* fio 3.33 prints the object even when every value was dropped */
	struct doc d;
	struct job_kv gopts[1] = { { (char *)"group_reporting", (char *)"" } };

	doc_init(&d);
	d.cfg.global_opts = gopts;
	d.cfg.nr_global_opts = 1;
	ck_assert_ptr_nonnull(strstr(doc_print(&d), "  \"global options\" : {\n\n  },\n"));
	doc_release(&d);

	doc_init(&d);	/* no global options at all: no key */
	ck_assert_ptr_null(strstr(doc_print(&d), "global options"));
	doc_release(&d);
}
END_TEST

START_TEST(test_names_escaped_valid_json)
{
	struct doc d;
	const char *out;

	doc_init(&d);
	snprintf(d.job.name, sizeof(d.job.name), "a\tb\"c\\");
	d.job.description = (char *)"line1\nline2";
	d.res->elapsed_s = 3;
	d.res->error = 5;
	out = doc_print(&d);
	ck_assert_ptr_nonnull(strstr(out, "\"jobname\" : \"a\\tb\\\"c\\\\\",\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"error\" : 5,\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"eta\" : 0,\n      \"elapsed\" : 3,\n"));
	ck_assert_ptr_nonnull(strstr(out, "      \"desc\" : \"line1\\nline2\"\n    }\n"));
	for (const char *p = out; *p; p++)	/* no raw control character but newlines */
		ck_assert(*p == '\n' || (unsigned char)*p >= 0x20);
	doc_release(&d);
}
END_TEST

START_TEST(test_disk_util_and_plus_bins)
{
	struct doc d;
	struct disk_result disk;
	FILE *fp;

	doc_init(&d);
	memset(&disk, 0, sizeof(disk));
	snprintf(disk.name, sizeof(disk.name), "vda");
	disk.read_ios = 7;
	disk.util = 82.991048;
	d.res->ddir[0].io_bytes = 4096;
	d.res->ddir[0].total_ios = d.res->ddir[0].issued_ios = 1;
	d.res->ddir[0].runtime_us = 1000;
	lat_stat_add(&d.res->ddir[0].clat, 300000);
	hist_add(&d.res->ddir[0].clat_hist, 300000);
	ck_assert_int_eq(report_build(&d.rep, &d.cfg, &d.res, 1), 0);
	d.rep.disks = &disk;
	d.rep.nr_disks = 1;
	fp = open_memstream(&d.buf, &d.len);
	ck_assert_int_eq(out_json_print(fp, &d.rep, true), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(d.buf,
		"          \"percentile\" : {\n"
		"            \"1.000000\" : 301056,\n"));
	ck_assert_ptr_nonnull(strstr(d.buf,
		"            \"99.990000\" : 301056\n"
		"          },\n"
		"          \"bins\" : {\n"
		"            \"301056\" : 1\n"
		"          }\n"));
	ck_assert_ptr_nonnull(strstr(d.buf,
		"  \"disk_util\" : [\n"
		"    {\n"
		"      \"name\" : \"vda\",\n"
		"      \"read_ios\" : 7,\n"));
	ck_assert_ptr_nonnull(strstr(d.buf, "      \"util\" : 82.991048\n    }\n  ]\n}\n"));
	/* the bandwidth of one 4 KiB I/O in 1 ms */
	ck_assert_ptr_nonnull(strstr(d.buf, "        \"bw_bytes\" : 4096000,\n        \"bw\" : 4000,\n"
					    "        \"iops\" : 1000.000000,\n"));
	doc_release(&d);
}
END_TEST

/* latency_target: the settings (target ns, window usec) and the depth the job settled at. */
START_TEST(test_latency_target_fields)
{
	struct doc d;
	const char *out;

	doc_init(&d);
	d.job.lat_target_ns = 2500000;
	d.job.lat_window_ns = 300000000;
	d.job.lat_pct = 99.5;
	d.res->lat_depth = 5;
	out = doc_print(&d);
	ck_assert_ptr_nonnull(strstr(out,
		"      \"latency_depth\" : 5,\n"
		"      \"latency_target\" : 2500000,\n"
		"      \"latency_percentile\" : 99.500000,\n"
		"      \"latency_window\" : 300000\n"));
	doc_release(&d);
}
END_TEST

Suite *out_json_suite(void)
{
	Suite *s = suite_create("out_json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_top_level_and_options);
	tcase_add_test(tc, test_latency_target_fields);
	tcase_add_test(tc, test_flag_only_globals_print_empty_object);
	tcase_add_test(tc, test_names_escaped_valid_json);
	tcase_add_test(tc, test_disk_util_and_plus_bins);
	suite_add_tcase(s, tc);
	return s;
}

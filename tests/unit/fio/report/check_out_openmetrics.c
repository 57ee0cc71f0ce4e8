/* SPDX-License-Identifier: MIT */
/* out_openmetrics: the families of a report model, their samples: a direction only when it did
 * I/O, jobnum among units of one name, host and step labels, the summary's quantiles (fio's
 * percentiles) with count and sum as JSON has them, the histogram's cumulative buckets at fio's
 * distribution bounds (a bin counts below le when its value is at most le), no histogram
 * without percentiles or when asked not to, unified_rw_reporting=mixed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/report/out_openmetrics.h"
#include "fio/report/unified.h"
#include "fio/report/write.h"

struct om_doc {
	struct fio_config cfg;
	struct job job[2];
	struct job_result *res[2];
	struct report rep;
	char *buf;
	size_t len;
};

static void add_lat(struct ddir_result *d, const uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		lat_stat_add(&d->clat, v[i]);
		hist_add(&d->clat_hist, v[i]);
		lat_stat_add(&d->lat, v[i] + 10);
		hist_add(&d->lat_hist, v[i] + 10);
	}
}

static void om_init(struct om_doc *d, unsigned nr)
{
	static const uint64_t lat[] = { 1, 2, 3, 150, 1500, 1500, 3000000, 2500000000ull };

	memset(d, 0, sizeof(*d));
	for (unsigned j = 0; j < nr; j++) {
		snprintf(d->job[j].name, sizeof(d->job[j].name), "%s", j ? "same" : "same");
		d->job[j].kb_base = 1024;
		d->job[j].sig_figs = 4;
		d->job[j].clat_percentiles = true;
		d->res[j] = calloc(1, sizeof(*d->res[j]));
		ck_assert_ptr_nonnull(d->res[j]);
		d->res[j]->ddir[DDIR_READ].io_bytes = 8 * 4096;
		d->res[j]->ddir[DDIR_READ].total_ios = 8;
		d->res[j]->ddir[DDIR_READ].runtime_us = 2000;
		d->res[j]->run_ms = 2;
		add_lat(&d->res[j]->ddir[DDIR_READ], lat, 8);
	}
	d->cfg.jobs = d->job;
	d->cfg.nr_jobs = nr;
	d->cfg.nr_groups = 1;
	d->cfg.output_format = OUT_OPENMETRICS;
}

static const char *om_print(struct om_doc *d, const char *host, const char *step, bool hist)
{
	FILE *fp;
	struct out_om_unit units[2];

	ck_assert_int_eq(report_build(&d->rep, &d->cfg, d->res, d->cfg.nr_jobs), 0);
	d->rep.now.tv_sec = 1796054400;
	d->rep.now.tv_nsec = 123456789;
	for (unsigned i = 0; i < d->rep.nr_units; i++)
		units[i] = (struct out_om_unit){ &d->rep, &d->rep.units[i], host, step };
	fp = open_memstream(&d->buf, &d->len);
	ck_assert_int_eq(out_openmetrics_units(fp, units, d->rep.nr_units, hist), 0);
	fclose(fp);
	return d->buf;
}

static void om_release(struct om_doc *d)
{
	report_release(&d->rep);
	for (unsigned j = 0; j < 2; j++)
		free(d->res[j]);
	free(d->buf);
}

#define L "{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\",direction=\"read\",kind=\"clat\""

START_TEST(test_families)
{
	struct om_doc d;
	const char *t;

	om_init(&d, 2);
	t = om_print(&d, "h", "s", true);
	ck_assert(!strncmp(t, "# TYPE iops_info gauge\n", 23));
	ck_assert(strstr(t, "iops_report_timestamp_seconds{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\"} 1796054400.123\n"));
	ck_assert(strstr(t, "iops_job_runtime_seconds{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"1\"} 0.002\n"));
	ck_assert(strstr(t, "# TYPE iops_io_bytes counter\n# UNIT iops_io_bytes bytes\n"));
	ck_assert(strstr(t, "iops_io_bytes_total{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\",direction=\"read\"} 32768\n"));
	ck_assert(strstr(t, "iops_ios_total{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"1\",direction=\"read\"} 8\n"));
	ck_assert(strstr(t, "iops_bandwidth_bytes_per_second{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\",direction=\"read\"} 16384000\n"));
	ck_assert(strstr(t, "iops_operations_per_second{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\",direction=\"read\"} 4000.0\n"));
	ck_assert(!strstr(t, "direction=\"write\""));	/* no I/O: no series */
	ck_assert(!strstr(t, "kind=\"slat\""));		/* no samples */
	/* the summary: fio's percentiles of the histogram, count, sum = mean x N */
	ck_assert(strstr(t, "iops_latency_seconds" L ",quantile=\"0.5\"} 1.51e-07\n"));	/* fio's bucket value */
	ck_assert(strstr(t, "iops_latency_seconds" L ",quantile=\"0.99\"} 2.499805184\n"));
	ck_assert(strstr(t, "iops_latency_seconds_count" L "} 8\n"));
	ck_assert(strstr(t, "iops_latency_seconds_sum" L "} 2.503003156\n"));
	/* the histogram: bins at most le, cumulated; +Inf and count = N */
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"2e-09\"} 2\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"4e-09\"} 3\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"1e-07\"} 3\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"2.5e-07\"} 4\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"2e-06\"} 6\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"0.004\"} 7\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"2.0\"} 7\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_bucket" L ",le=\"+Inf\"} 8\n"));
	ck_assert(strstr(t, "iops_latency_histogram_seconds_count" L "} 8\n"));
	ck_assert(!strstr(t, "iops_latency_histogram_seconds_bucket{host=\"h\",step=\"s\",jobname=\"same\",jobnum=\"0\",direction=\"read\",kind=\"lat\""));
	ck_assert(!strcmp(t + d.len - 6, "# EOF\n"));
	om_release(&d);
}
END_TEST

START_TEST(test_no_histogram_mixed_no_labels)
{
	struct om_doc d;
	const char *t;

	om_init(&d, 1);
	d.res[0]->ddir[DDIR_WRITE].io_bytes = 4096;
	d.res[0]->ddir[DDIR_WRITE].total_ios = 1;
	d.res[0]->ddir[DDIR_WRITE].runtime_us = 1000;
	d.job[0].unified_rw_rep = UNIFIED_MIXED;
	t = om_print(&d, NULL, NULL, false);
	ck_assert(strstr(t, "iops_ios_total{jobname=\"same\",jobnum=\"0\",direction=\"mixed\"} 9\n"));
	ck_assert(!strstr(t, "direction=\"read\""));
	ck_assert(!strstr(t, "iops_latency_histogram_seconds_bucket"));	/* hist false */
	ck_assert(strstr(t, "# TYPE iops_latency_histogram_seconds histogram\n"));
	ck_assert(strstr(t, "iops_latency_seconds{jobname=\"same\",jobnum=\"0\",direction=\"mixed\",kind=\"clat\",quantile=\"0.5\"}"));
	om_release(&d);
}
END_TEST

Suite *out_openmetrics_suite(void)
{
	Suite *s = suite_create("out_openmetrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_families);
	tcase_add_test(tc, test_no_histogram_mixed_no_labels);
	suite_add_tcase(s, tc);
	return s;
}

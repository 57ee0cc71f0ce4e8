/* SPDX-License-Identifier: MIT */
/* out_normal: line formats of fio 3.33's normal report. Whole reports of real runs are
 * compared byte for byte in check_report.c; these cases pin the individual rules. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/report/out_normal.h"
#include "fio/report/write.h"

struct cap {
	FILE *fp;
	char *buf;
	size_t len;
};

static FILE *cap_open(struct cap *c)
{
	c->buf = NULL;
	c->fp = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->fp);
	return c->fp;
}

static char *cap_close(struct cap *c)
{
	fclose(c->fp);
	return c->buf;
}

static void set_stat(struct lat_stat *s, uint64_t min, uint64_t max, double mean, double sd,
		     uint64_t n)
{
	s->n = n;
	s->min = min;
	s->max = max;
	s->mean = mean;
	s->m2 = sd * sd * (double)(n - 1);
}

struct lat_case {
	uint64_t min, max;
	double mean, sd;
	const char *name, *want;
};

static const struct lat_case lat_cases[] = {
	/* lines of real fio 3.33 reports; the unit is chosen as fio's display_lat() (stat.c) does */
	{ 140, 6297712, 341899.34, 263323.49, "clat",
	  "    clat (nsec): min=140, max=6297.7k, avg=341899.34, stdev=263323.49\n" },
	{ 39123, 6301456, 346250.0, 263470.0, " lat",
	  "     lat (usec): min=39, max=6301, avg=346.25, stdev=263.47\n" },
	{ 2345, 1888000, 4300.0, 4530.0, "slat",
	  "    slat (usec): min=2, max=1888, avg= 4.30, stdev= 4.53\n" },
	{ 10, 4899412, 19.65, 2054.13, "clat",
	  "    clat (nsec): min=10, max=4899.4k, avg=19.65, stdev=2054.13\n" },
	{ 2000001, 100000000, 5000000.0, 1000001.0, "clat",
	  "    clat (msec): min=2, max=100, avg= 5.00, stdev= 1.00\n" },
	{ 2000000, 100000000, 5000000.0, 1000001.0, "clat",	/* min not > 2 ms */
	  "    clat (usec): min=2000, max=100000, avg=5000.00, stdev=1000.00\n" },
	{ 950749, 25721983, 7295346.095238, 5509320.054783, "sync",
	  "    sync (usec): min=950, max=25721, avg=7295.35, stdev=5509.32\n" },
};

START_TEST(test_lat_line)
{
	const struct lat_case *c = &lat_cases[_i];
	struct lat_stat s;
	struct cap cap;

	set_stat(&s, c->min, c->max, c->mean, c->sd, 1000);
	out_normal_lat_line(cap_open(&cap), c->name, &s);
	ck_assert_str_eq(cap_close(&cap), c->want);
	free(cap.buf);
}
END_TEST

START_TEST(test_lat_line_no_samples)
{
	struct lat_stat s = { 0 };
	struct cap cap;

	out_normal_lat_line(cap_open(&cap), "slat", &s);
	ck_assert_str_eq(cap_close(&cap), "");
	free(cap.buf);
}
END_TEST

static struct job *pct_job(const double *p, unsigned n, unsigned precision)
{
	struct job *j = calloc(1, sizeof(*j));

	for (unsigned i = 0; i < n; i++)
		j->percentiles[i] = p[i];
	j->nr_percentiles = n;
	j->percentile_precision = precision;
	return j;
}

static uint64_t usec_up(uint64_t v)
{
	return (hist_idx_to_val(hist_idx(v)) + 999) / 1000;
}

START_TEST(test_percentiles_three_decimals)
{
	/* verified: --percentile_list=50:99:99.999 -> one line of three */
	static const double p[] = { 50, 99, 99.999 };
	struct job *j = pct_job(p, 3, 3);
	struct hist *h = calloc(1, sizeof(*h));
	struct cap cap;
	char want[256];

	for (unsigned i = 0; i < 5000; i++)
		hist_add(h, 30500);
	for (unsigned i = 0; i < 4949; i++)
		hist_add(h, 49800);
	for (unsigned i = 0; i < 51; i++)
		hist_add(h, 995000);
	out_normal_percentiles(cap_open(&cap), "clat", h, j);
	snprintf(want, sizeof(want),
		 "    clat percentiles (usec):\n"
		 "     | 50.000th=[%5llu], 99.000th=[%5llu], 99.999th=[%5llu]\n",
		 (unsigned long long)usec_up(30500), (unsigned long long)usec_up(49800),
		 (unsigned long long)usec_up(995000));
	ck_assert_str_eq(cap_close(&cap), want);
	free(cap.buf);
	free(h);
	free(j);
}
END_TEST

START_TEST(test_percentiles_four_decimals_three_per_line)
{
	static const double p[] = { 10, 20, 30, 40, 50, 60, 70, 90 };
	struct job *j = pct_job(p, 8, 4);
	struct hist *h = calloc(1, sizeof(*h));
	struct cap cap;
	const char *got;

	for (unsigned i = 0; i < 100; i++)
		hist_add(h, 13000);
	out_normal_percentiles(cap_open(&cap), "clat", h, j);
	got = cap_close(&cap);
	ck_assert_str_eq(got,
		"    clat percentiles (nsec):\n"
		"     | 10.0000th=[12992], 20.0000th=[12992], 30.0000th=[12992],\n"
		"     | 40.0000th=[12992], 50.0000th=[12992], 60.0000th=[12992],\n"
		"     | 70.0000th=[12992], 90.0000th=[12992]\n");
	free(cap.buf);
	free(h);
	free(j);
}
END_TEST

START_TEST(test_percentiles_default_list_and_widths)
{
	/* nr_percentiles 0: fio's default 17-entry list; nsec values up to 8 digits widen the
	 * field to 8, so 73 / (2 + 10 + 8) = 3 entries per line */
	struct job *j = pct_job(NULL, 0, 2);
	struct hist *h = calloc(1, sizeof(*h));
	struct cap cap;
	const char *got;

	for (unsigned i = 0; i < 200; i++)
		hist_add(h, 1000);	/* 1st percentile 1004 ns (not > 2 us): stays nsec */
	for (unsigned i = 0; i < 9800; i++)
		hist_add(h, 20578304);
	out_normal_percentiles(cap_open(&cap), "clat", h, j);
	got = cap_close(&cap);
	ck_assert_str_eq(got,
		"    clat percentiles (nsec):\n"
		"     |  1.00th=[    1004],  5.00th=[20578304], 10.00th=[20578304],\n"
		"     | 20.00th=[20578304], 30.00th=[20578304], 40.00th=[20578304],\n"
		"     | 50.00th=[20578304], 60.00th=[20578304], 70.00th=[20578304],\n"
		"     | 80.00th=[20578304], 90.00th=[20578304], 95.00th=[20578304],\n"
		"     | 99.00th=[20578304], 99.50th=[20578304], 99.90th=[20578304],\n"
		"     | 99.95th=[20578304], 99.99th=[20578304]\n");
	free(cap.buf);

	/* 4 per line with width 5; msec with rounding up */
	memset(h, 0, sizeof(*h));
	for (unsigned i = 0; i < 100; i++)
		hist_add(h, 150000000);	/* bucket value 149946368 -> 150 ms (rounded up twice) */
	out_normal_percentiles(cap_open(&cap), "sync", h, j);
	got = cap_close(&cap);
	ck_assert_str_eq(got,
		"    sync percentiles (msec):\n"
		"     |  1.00th=[  150],  5.00th=[  150], 10.00th=[  150], 20.00th=[  150],\n"
		"     | 30.00th=[  150], 40.00th=[  150], 50.00th=[  150], 60.00th=[  150],\n"
		"     | 70.00th=[  150], 80.00th=[  150], 90.00th=[  150], 95.00th=[  150],\n"
		"     | 99.00th=[  150], 99.50th=[  150], 99.90th=[  150], 99.95th=[  150],\n"
		"     | 99.99th=[  150]\n");
	free(cap.buf);

	/* an empty histogram prints nothing */
	memset(h, 0, sizeof(*h));
	out_normal_percentiles(cap_open(&cap), "clat", h, j);
	ck_assert_str_eq(cap_close(&cap), "");
	free(cap.buf);
	free(h);
	free(j);
}
END_TEST

START_TEST(test_lat_dist)
{
	/* as real fio 3.33 reports print them: 5 entries a line, prefix repeated, zero buckets skipped */
	static const double u[LAT_U_NR] = { 0, 0, 0, 0, 0.01, 0.01, 0.29, 98.01, 0.64, 0.14 };
	static const double m[LAT_M_NR] = { 0.31, 0.45, 0.15, 0.01, 0.01 };
	static const double z[LAT_N_NR] = { 0 };
	struct cap cap;
	FILE *fp = cap_open(&cap);

	out_normal_lat_dist(fp, "nsec", z, LAT_N_NR);
	out_normal_lat_dist(fp, "usec", u, LAT_U_NR);
	out_normal_lat_dist(fp, "msec", m, LAT_M_NR);
	ck_assert_str_eq(cap_close(&cap),
		"  lat (usec)   : 50=0.01%, 100=0.01%, 250=0.29%, 500=98.01%, 750=0.64%\n"
		"  lat (usec)   : 1000=0.14%\n"
		"  lat (msec)   : 2=0.31%, 4=0.45%, 10=0.15%, 20=0.01%, 50=0.01%\n");
	free(cap.buf);
}
END_TEST

START_TEST(test_group_lines)
{
	struct report_group g = { 0 };
	struct cap cap;

	g.group_id = 3;
	g.kb_base = 1024;
	g.sig_figs = 4;
	g.agg_bps[0] = g.min_bps[0] = g.max_bps[0] = 372000000;
	g.io_bytes[0] = 3722000000ull;
	g.min_run_ms[0] = g.max_run_ms[0] = 10001;
	g.agg_bps[1] = 126ull << 20;
	g.min_bps[1] = 65700000;
	g.max_bps[1] = 65900000;
	g.io_bytes[1] = 100ull << 20;
	g.min_run_ms[1] = 290;
	g.max_run_ms[1] = 291;
	out_normal_group(cap_open(&cap), &g);
	ck_assert_str_eq(cap_close(&cap),
		"\nRun status group 3 (all jobs):\n"
		"   READ: bw=355MiB/s (372MB/s), 355MiB/s-355MiB/s (372MB/s-372MB/s), io=3550MiB (3722MB), run=10001-10001msec\n"
		"  WRITE: bw=126MiB/s (132MB/s), 62.7MiB/s-62.8MiB/s (65.7MB/s-65.9MB/s), io=100MiB (105MB), run=290-291msec\n");
	free(cap.buf);

	/* kb_base=1000 swaps the units; unit_base=1 prints bits */
	memset(&g, 0, sizeof(g));
	g.kb_base = 1000;
	g.sig_figs = 4;
	g.agg_bps[0] = g.min_bps[0] = g.max_bps[0] = 74800000;
	g.io_bytes[0] = 74800000;
	g.min_run_ms[0] = g.max_run_ms[0] = 1000;
	out_normal_group(cap_open(&cap), &g);
	ck_assert_str_eq(cap_close(&cap),
		"\nRun status group 0 (all jobs):\n"
		"   READ: bw=74.8MB/s (71.3MiB/s), 74.8MB/s-74.8MB/s (71.3MiB/s-71.3MiB/s), io=74.8MB (71.3MiB), run=1000-1000msec\n");
	free(cap.buf);
	g.kb_base = 1024;
	g.unit_base = 1;
	out_normal_group(cap_open(&cap), &g);
	ck_assert_str_eq(cap_close(&cap),
		"\nRun status group 0 (all jobs):\n"
		"   READ: bw=571Mibit/s (598Mbit/s), 571Mibit/s-571Mibit/s (598Mbit/s-598Mbit/s), io=71.3MiB (74.8MB), run=1000-1000msec\n");
	free(cap.buf);

	/* a group without I/O: the header only */
	memset(&g, 0, sizeof(g));
	g.kb_base = 1024;
	g.sig_figs = 4;
	out_normal_group(cap_open(&cap), &g);
	ck_assert_str_eq(cap_close(&cap), "\nRun status group 0 (all jobs):\n");
	free(cap.buf);
}
END_TEST

START_TEST(test_disks)
{
	struct disk_result d[2];
	struct cap cap;

	memset(d, 0, sizeof(d));
	snprintf(d[0].name, sizeof(d[0].name), "vda");
	d[0].read_ios = 908092;
	d[0].write_ios = 166;
	d[0].write_merges = 43;
	d[0].read_ticks = 220333;
	d[0].write_ticks = 1711;
	d[0].in_queue = 222066;
	d[0].util = 90.77;
	snprintf(d[1].name, sizeof(d[1].name), "sdb");
	out_normal_disks(cap_open(&cap), d, 2);
	ck_assert_str_eq(cap_close(&cap),
		"\nDisk stats (read/write):\n"
		"  vda: ios=908092/166, merge=0/43, ticks=220333/1711, in_queue=222066, util=90.77%\n"
		"  sdb: ios=0/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%\n");
	free(cap.buf);
	out_normal_disks(cap_open(&cap), d, 0);
	ck_assert_str_eq(cap_close(&cap), "");
	free(cap.buf);
}
END_TEST

static void one_job_report(struct report *rep, struct fio_config *cfg, struct job *j,
			   struct job_result **res)
{
	memset(cfg, 0, sizeof(*cfg));
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "x");
	j->kb_base = 1024;
	j->sig_figs = 4;
	j->iodepth = 1;
	j->lat_pct = 100.0;	/* latency_percentile */
	j->clat_percentiles = true;
	cfg->jobs = j;
	cfg->nr_jobs = 1;
	cfg->nr_groups = 1;
	cfg->output_format = OUT_NORMAL;
	*res = calloc(1, sizeof(**res));
	ck_assert_ptr_nonnull(*res);
	(*res)->pid = 12133;
	(void)rep;
}

START_TEST(test_error_job_block)
{
	/* an I/O error with no bytes: no read line, the rest still printed (verified on fio) */
	struct report rep;
	struct fio_config cfg;
	struct job j;
	struct job_result *r;
	struct cap cap;

	one_job_report(&rep, &cfg, &j, &r);
	r->error = 22;
	snprintf(r->verror, sizeof(r->verror),
		 "file:io_u.c:1876, func=io_u error, error=Invalid argument");
	r->ddir[0].issued_ios = 1;
	r->depth_map[0] = 1;
	r->submit_map[1] = 1;
	r->nr_submit_calls = 1;
	ck_assert_int_eq(report_build(&rep, &cfg, &r, 1), 0);
	rep.now.tv_sec = 1796054400;	/* Mon Nov 30 16:00:00 2026 UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(out_normal_print(cap_open(&cap), &rep), 0);
	ck_assert_str_eq(cap_close(&cap),
		"\n"
		"x: (groupid=0, jobs=1): err=22 (file:io_u.c:1876, func=io_u error, error=Invalid argument): pid=12133: Mon Nov 30 16:00:00 2026\n"
		"  cpu          : usr=0.00%, sys=0.00%, ctx=0, majf=0, minf=0\n"
		"  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     issued rwts: total=1,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
		"     latency   : target=0, window=0, percentile=100.00%, depth=1\n"
		"\nRun status group 0 (all jobs):\n");
	free(cap.buf);
	report_release(&rep);
	free(r);
}
END_TEST

START_TEST(test_idle_job_skipped)
{
	struct report rep;
	struct fio_config cfg;
	struct job j;
	struct job_result *r;
	struct cap cap;

	one_job_report(&rep, &cfg, &j, &r);
	ck_assert_int_eq(report_build(&rep, &cfg, &r, 1), 0);
	ck_assert_int_eq(out_normal_print(cap_open(&cap), &rep), 0);
	ck_assert_str_eq(cap_close(&cap), "\n\nRun status group 0 (all jobs):\n");
	free(cap.buf);
	report_release(&rep);
	free(r);
}
END_TEST

Suite *out_normal_suite(void)
{
	Suite *s = suite_create("out_normal");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_lat_line, 0, (int)(sizeof(lat_cases) / sizeof(lat_cases[0])));
	tcase_add_test(tc, test_lat_line_no_samples);
	tcase_add_test(tc, test_percentiles_three_decimals);
	tcase_add_test(tc, test_percentiles_four_decimals_three_per_line);
	tcase_add_test(tc, test_percentiles_default_list_and_widths);
	tcase_add_test(tc, test_lat_dist);
	tcase_add_test(tc, test_group_lines);
	tcase_add_test(tc, test_disks);
	tcase_add_test(tc, test_error_job_block);
	tcase_add_test(tc, test_idle_job_skipped);
	suite_add_tcase(s, tc);
	return s;
}

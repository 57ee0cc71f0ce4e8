/* SPDX-License-Identifier: MIT */
/* report: reporting units, group merges, group statistics, and the full normal / json+ reports
 * compared byte for byte with real fio 3.33 output (tests/unit/report_fixtures.h). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fio/report/out_json.h"
#include "fio/report/out_normal.h"
#include "fio/report/out_terse.h"
#include "fio/report/report.h"
#include "fio/report/write.h"
#include "unit_stream.h"

struct fx {
	struct job job;
	unsigned numjobs;
	struct job_kv opts[32];
	unsigned nr_opts;
	struct job_result *res;
	struct disk_result disks[4];
	unsigned nr_disks;
	struct timespec now;
	const char *header, *normal, *json, *json_plain, *terse;
	unsigned terse_version;
};

static void fx_job_defaults(struct job *j, const char *name)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", name);
	j->kb_base = 1024;
	j->sig_figs = 4;
	j->clat_percentiles = true;
	j->iodepth = 1;
	j->numjobs = 1;
	j->wait_for = -1;
	j->lat_pct = 100.0;	/* latency_percentile */
}

static void fx_lat(struct lat_stat *s, uint64_t min, uint64_t max, double mean, double sd,
		   uint64_t n)
{
	s->n = n;
	s->min = min;
	s->max = max;
	s->mean = mean;
	s->m2 = n > 1 ? sd * sd * (double)(n - 1) : 0.0;
}

static void fx_bin(struct hist *h, uint64_t v, uint64_t c)
{
	unsigned idx = hist_idx(v);

	/* json+ bin keys are bucket values: they must map back onto themselves */
	ck_assert_uint_eq(hist_idx_to_val(idx), v);
	h->bucket[idx] += c;
	h->total += c;
}

#include "report_fixtures.h"

/* Compare line by line so a failure names the first differing line. */
static void assert_same_text(const char *what, const char *got, const char *want)
{
	unsigned line = 1;
	const char *g = got, *w = want;

	while (*g && *w && *g == *w) {
		if (*g == '\n')
			line++;
		g++;
		w++;
	}
	if (*g || *w) {
		const char *gl = g, *wl = w;
		char gbuf[160], wbuf[160];

		/* show up to 60 characters before the difference and what follows */
		for (int k = 0; k < 60 && gl > got && gl[-1] != '\n'; k++) {
			gl--;
			wl--;
		}
		snprintf(gbuf, sizeof(gbuf), "%.*s", (int)strcspn(gl, "\n"), gl);
		snprintf(wbuf, sizeof(wbuf), "%.*s", (int)strcspn(wl, "\n"), wl);
		ck_abort_msg("%s differs at line %u:\n got: [%s]\nwant: [%s]", what, line, gbuf, wbuf);
	}
}

struct fx_run {
	struct fx *f;
	struct fio_config cfg;
	struct job_result **res;
	struct report rep;
};

static void fx_run_init(struct fx_run *run, unsigned i)
{
	struct fx *f = calloc(1, sizeof(*f));

	ck_assert_ptr_nonnull(f);
	f->res = calloc(1, sizeof(*f->res));
	ck_assert_ptr_nonnull(f->res);
	fx_all[i](f);
	memset(run, 0, sizeof(*run));
	run->f = f;
	run->cfg.nr_jobs = f->numjobs;
	run->cfg.nr_groups = 1;
	run->cfg.output_format = OUT_NORMAL;
	run->cfg.terse_version = f->terse_version;
	run->cfg.jobs = calloc(f->numjobs, sizeof(struct job));
	run->res = calloc(f->numjobs, sizeof(*run->res));
	ck_assert_ptr_nonnull(run->cfg.jobs);
	ck_assert_ptr_nonnull(run->res);
	for (unsigned k = 0; k < f->numjobs; k++) {
		struct job *j = &run->cfg.jobs[k];

		*j = f->job;
		j->subjob = k;
		j->job_index = k;
		j->thread_number = k + 1;
		j->numjobs = f->numjobs;
		j->opts = f->opts;
		j->nr_opts = f->nr_opts;
		/* the fixture holds the merged result; the clones contribute nothing */
		run->res[k] = k ? calloc(1, sizeof(struct job_result)) : f->res;
		ck_assert_ptr_nonnull(run->res[k]);
		run->res[k]->job = j;
	}
	ck_assert_int_eq(report_build(&run->rep, &run->cfg, run->res, f->numjobs), 0);
	run->rep.now = f->now;
	run->rep.disks = f->disks;
	run->rep.nr_disks = f->nr_disks;
}

static void fx_run_release(struct fx_run *run)
{
	report_release(&run->rep);
	for (unsigned k = 0; k < run->f->numjobs; k++)
		free(run->res[k]);
	free(run->res);
	free(run->cfg.jobs);
	free(run->f);
}

static char *capture_begin(FILE **fp, size_t *len, char **buf)
{
	*buf = NULL;
	*fp = open_memstream(buf, len);
	ck_assert_ptr_nonnull(*fp);
	return NULL;
}

START_TEST(test_fixture_normal)
{
	struct fx_run run;
	FILE *fp;
	size_t len;
	char *buf, what[64];

	setenv("TZ", "UTC", 1);
	tzset();
	fx_run_init(&run, (unsigned)_i);
	capture_begin(&fp, &len, &buf);
	ck_assert_int_eq(out_normal_print(fp, &run.rep), 0);
	fclose(fp);
	snprintf(what, sizeof(what), "%s normal report", fx_names[_i]);
	assert_same_text(what, buf, run.f->normal);
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_fixture_json_plus)
{
	struct fx_run run;
	FILE *fp;
	size_t len;
	char *buf, what[64];

	setenv("TZ", "UTC", 1);
	tzset();
	fx_run_init(&run, (unsigned)_i);
	capture_begin(&fp, &len, &buf);
	ck_assert_int_eq(out_json_print(fp, &run.rep, true), 0);
	fclose(fp);
	snprintf(what, sizeof(what), "%s json+ report", fx_names[_i]);
	assert_same_text(what, buf, run.f->json);
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_fixture_json_plain)
{
	struct fx_run run;
	FILE *fp;
	size_t len;
	char *buf, what[64];

	setenv("TZ", "UTC", 1);
	tzset();
	fx_run_init(&run, (unsigned)_i);
	capture_begin(&fp, &len, &buf);
	ck_assert_int_eq(out_json_print(fp, &run.rep, false), 0);
	fclose(fp);
	snprintf(what, sizeof(what), "%s json report", fx_names[_i]);
	assert_same_text(what, buf, run.f->json_plain);
	ck_assert_ptr_null(strstr(buf, "\"bins\""));
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_fixture_terse)
{
	struct fx_run run;
	FILE *fp;
	size_t len;
	char *buf, what[64];

	fx_run_init(&run, (unsigned)_i);
	capture_begin(&fp, &len, &buf);
	ck_assert_int_eq(out_terse_print(fp, &run.rep), 0);
	fclose(fp);
	snprintf(what, sizeof(what), "%s terse line", fx_names[_i]);
	assert_same_text(what, buf, run.f->terse);
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_fixture_all_formats)
{
	struct fx_run run;
	FILE *fp;
	size_t len, lt, lj;
	char *buf;

	setenv("TZ", "UTC", 1);
	tzset();
	fx_run_init(&run, (unsigned)_i);
	run.cfg.output_format = OUT_TERSE | OUT_JSON_PLUS | OUT_NORMAL;
	capture_begin(&fp, &len, &buf);
	ck_assert_int_eq(report_write(fp, &run.rep), 0);
	fclose(fp);
	/* fio's order: terse, json, normal */
	lt = strlen(run.f->terse);
	lj = strlen(run.f->json);
	ck_assert_uint_eq(len, lt + lj + strlen(run.f->normal));
	ck_assert_int_eq(memcmp(buf, run.f->terse, lt), 0);
	ck_assert_int_eq(memcmp(buf + lt, run.f->json, lj), 0);
	ck_assert_str_eq(buf + lt + lj, run.f->normal);
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_fixture_header)
{
	struct fx_run run;
	FILE *fp;
	size_t len;
	char *buf;

	fx_run_init(&run, (unsigned)_i);
	capture_begin(&fp, &len, &buf);
	report_job_headers(fp, &run.cfg);
	fclose(fp);
	/* the first line is fio's; a numjobs set adds "..." once */
	ck_assert_int_eq(strncmp(buf, run.f->header, strlen(run.f->header)), 0);
	if (run.f->numjobs > 1)
		ck_assert_str_eq(buf + strlen(run.f->header), "...\n");
	else
		ck_assert_str_eq(buf + strlen(run.f->header), "");
	free(buf);
	fx_run_release(&run);
}
END_TEST

START_TEST(test_report_print_write_error)
{
	struct fx_run run;
	FILE *fp = unit_full_stream();

	ck_assert_ptr_nonnull(fp);
	fx_run_init(&run, 0);
	setvbuf(fp, NULL, _IONBF, 0);
	ck_assert_int_lt(report_write(fp, &run.rep), 0);
	fclose(fp);
	fx_run_release(&run);
}
END_TEST

/* ---- synthetic merges ------------------------------------------------------------------- */

static struct job_result *mk_result(uint64_t bytes, uint64_t runtime_us, uint64_t ios)
{
	struct job_result *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->ddir[DDIR_READ].io_bytes = bytes;
	r->ddir[DDIR_READ].total_ios = r->ddir[DDIR_READ].issued_ios = ios;
	r->ddir[DDIR_READ].runtime_us = runtime_us;
	return r;
}

static void mk_jobs(struct fio_config *cfg, struct job *jobs, unsigned n, bool group_reporting)
{
	memset(cfg, 0, sizeof(*cfg));
	for (unsigned i = 0; i < n; i++) {
		fx_job_defaults(&jobs[i], "g");
		jobs[i].group_reporting = group_reporting;
		jobs[i].job_index = i;
	}
	cfg->jobs = jobs;
	cfg->nr_jobs = n;
	cfg->nr_groups = 1;
	cfg->output_format = OUT_NORMAL;
}

START_TEST(test_group_reporting_merges_two_jobs)
{
	struct job jobs[2];
	struct fio_config cfg;
	struct job_result *res[2];
	struct report rep;
	const struct job_result *m;

	mk_jobs(&cfg, jobs, 2, true);
	res[0] = mk_result(1000000, 1000000, 100);
	res[1] = mk_result(3000000, 2000500, 300);
	for (unsigned i = 0; i < 10; i++)
		lat_stat_add(&res[0]->ddir[0].clat, 100 + i);
	for (unsigned i = 0; i < 30; i++)
		lat_stat_add(&res[1]->ddir[0].clat, 1000 + i);
	lat_stat_add(&res[0]->ddir[0].bw_kib, 500);
	lat_stat_add(&res[1]->ddir[0].bw_kib, 700);
	lat_stat_add(&res[1]->ddir[0].bw_kib, 900);
	hist_add(&res[0]->ddir[0].clat_hist, 100);
	hist_add(&res[1]->ddir[0].clat_hist, 1000);
	res[0]->pid = 11;
	res[1]->pid = 12;
	res[1]->error = 5;
	snprintf(res[1]->verror, sizeof(res[1]->verror), "io error");
	res[0]->ctx = 3;
	res[1]->ctx = 4;
	res[0]->depth_map[0] = 7;
	res[1]->depth_map[0] = 8;

	ck_assert_int_eq(report_build(&rep, &cfg, res, 2), 0);
	ck_assert_uint_eq(rep.nr_units, 1);
	ck_assert_uint_eq(rep.units[0].members, 2);
	/* fio: name/description/pid from the first member, options and percentile settings
	 * from the last (verified: a group of [a] libaio iodepth=4 and [b] psync prints
	 * jobname a, job options of b, latency depth=1) */
	ck_assert_ptr_eq(rep.units[0].job, &jobs[0]);
	ck_assert_ptr_eq(rep.units[0].last, &jobs[1]);
	m = rep.units[0].res;
	ck_assert(rep.units[0].owned);
	ck_assert_uint_eq(m->ddir[0].io_bytes, 4000000);
	ck_assert_uint_eq(m->ddir[0].total_ios, 400);
	ck_assert_uint_eq(m->ddir[0].runtime_us, 2000500);	/* max */
	ck_assert_uint_eq(report_runtime_ms(&m->ddir[0]), 2001);
	ck_assert_uint_eq(m->ddir[0].clat.n, 40);
	ck_assert_uint_eq(m->ddir[0].clat.min, 100);
	ck_assert_uint_eq(m->ddir[0].clat.max, 1029);
	ck_assert_double_eq_tol(m->ddir[0].clat.mean, (10 * 104.5 + 30 * 1014.5) / 40, 1e-9);
	/* bw: fio's pure sums */
	ck_assert_uint_eq(m->ddir[0].bw_kib.n, 3);
	ck_assert_uint_eq(m->ddir[0].bw_kib.min, 1200);
	ck_assert_uint_eq(m->ddir[0].bw_kib.max, 1400);
	ck_assert_double_eq_tol(m->ddir[0].bw_kib.mean, 1300.0, 1e-9);
	ck_assert_uint_eq(m->ddir[0].clat_hist.total, 2);
	ck_assert_int_eq(m->pid, 11);
	ck_assert_int_eq(m->error, 5);
	ck_assert_str_eq(m->verror, "io error");
	ck_assert_uint_eq(m->ctx, 7);
	ck_assert_uint_eq(m->depth_map[0], 15);
	/* the inputs are untouched */
	ck_assert_uint_eq(res[0]->ddir[0].io_bytes, 1000000);
	/* group: one unit, so min == max */
	ck_assert_uint_eq(rep.nr_groups, 1);
	ck_assert_uint_eq(rep.groups[0].min_run_ms[0], 2001);
	ck_assert_uint_eq(rep.groups[0].max_run_ms[0], 2001);
	ck_assert_uint_eq(rep.groups[0].agg_bps[0], 4000000ull * 1000 / 2001);
	ck_assert_uint_eq(rep.groups[0].min_bps[0], rep.groups[0].max_bps[0]);
	report_release(&rep);
	free(res[0]);
	free(res[1]);
}
END_TEST

START_TEST(test_without_group_reporting_two_units)
{
	struct job jobs[3];
	struct fio_config cfg;
	struct job_result *res[3];
	struct report rep;

	mk_jobs(&cfg, jobs, 3, false);
	jobs[2].group_id = 1;
	cfg.nr_groups = 2;
	res[0] = mk_result(1000000, 1000000, 100);	/* 1000000 B/s */
	res[1] = mk_result(3000000, 2000000, 300);	/* 1500000 B/s */
	res[2] = NULL;					/* never ran: no unit, but its group prints */
	ck_assert_int_eq(report_build(&rep, &cfg, res, 3), 0);
	ck_assert_uint_eq(rep.nr_units, 2);
	ck_assert(!rep.units[0].owned);
	ck_assert_uint_eq(rep.units[1].members, 1);
	/* fio prints "Run status group 1 (all jobs):" with no lines for a group whose job never ran */
	ck_assert_uint_eq(rep.nr_groups, 2);
	ck_assert_uint_eq(rep.groups[1].group_id, 1);
	ck_assert_uint_eq(rep.groups[1].nr_units, 0);
	ck_assert_uint_eq(rep.groups[1].max_run_ms[0], 0);
	ck_assert_uint_eq(rep.groups[0].min_bps[0], 1000000);
	ck_assert_uint_eq(rep.groups[0].max_bps[0], 1500000);
	ck_assert_uint_eq(rep.groups[0].min_run_ms[0], 1000);
	ck_assert_uint_eq(rep.groups[0].max_run_ms[0], 2000);
	ck_assert_uint_eq(rep.groups[0].io_bytes[0], 4000000);
	ck_assert_uint_eq(rep.groups[0].agg_bps[0], 2000000);
	ck_assert_uint_eq(rep.groups[0].max_run_ms[1], 0);	/* no WRITE line */
	report_release(&rep);
	free(res[0]);
	free(res[1]);
}
END_TEST

START_TEST(test_group_reporting_respects_groups)
{
	struct job jobs[3];
	struct fio_config cfg;
	struct job_result *res[3];
	struct report rep;

	mk_jobs(&cfg, jobs, 3, true);
	jobs[2].group_id = 1;
	cfg.nr_groups = 2;
	for (unsigned i = 0; i < 3; i++)
		res[i] = mk_result(1000, 1000, 1);
	ck_assert_int_eq(report_build(&rep, &cfg, res, 3), 0);
	ck_assert_uint_eq(rep.nr_units, 2);
	ck_assert_uint_eq(rep.units[0].members, 2);
	ck_assert_uint_eq(rep.units[1].members, 1);
	ck_assert_uint_eq(rep.nr_groups, 2);
	ck_assert_uint_eq(rep.groups[1].group_id, 1);
	ck_assert_uint_eq(rep.units[1].group, 1);
	report_release(&rep);
	for (unsigned i = 0; i < 3; i++)
		free(res[i]);
}
END_TEST

/* A group takes kb_base, unit_base and sig_figs from its last unit (fio 3.33: job a default,
 * job b kb_base=1000 prints both jobs and the group MB first; a third default job c makes
 * them all MiB first again); a job that never ran does not join. Job lines keep their own
 * sig_figs (out_normal). */
static const struct {
	unsigned kb[3], sf[3];
	bool ran[3], group_reporting;
	unsigned want_kb, want_sf;
} group_base_cases[] = {
	{ { 1024, 1000, 0 }, { 4, 6, 0 }, { true, true, false }, false, 1000, 6 },
	{ { 1000, 1024, 1000 }, { 6, 4, 5 }, { true, true, true }, false, 1000, 5 },
	{ { 1024, 1000, 1024 }, { 4, 6, 4 }, { true, true, true }, false, 1024, 4 },
	{ { 1000, 1024, 1024 }, { 2, 4, 4 }, { true, true, false }, false, 1024, 4 },
	{ { 1000, 1024, 1024 }, { 3, 4, 4 }, { true, false, false }, false, 1000, 3 },
	/* one merged unit: its first job's values */
	{ { 1000, 1024, 1024 }, { 3, 4, 4 }, { true, true, true }, true, 1000, 3 },
};

START_TEST(test_group_takes_last_units_base)
{
	struct job jobs[3];
	struct fio_config cfg;
	struct job_result *res[3];
	struct report rep;

	mk_jobs(&cfg, jobs, 3, group_base_cases[_i].group_reporting);
	for (unsigned i = 0; i < 3; i++) {
		jobs[i].kb_base = group_base_cases[_i].kb[i];
		jobs[i].sig_figs = group_base_cases[_i].sf[i];
		res[i] = group_base_cases[_i].ran[i] ? mk_result(1000, 1000, 1) : NULL;
	}
	ck_assert_int_eq(report_build(&rep, &cfg, res, 3), 0);
	ck_assert_uint_eq(rep.nr_groups, 1);
	ck_assert_uint_eq(rep.groups[0].kb_base, group_base_cases[_i].want_kb);
	ck_assert_uint_eq(rep.groups[0].sig_figs, group_base_cases[_i].want_sf);
	report_release(&rep);
	for (unsigned i = 0; i < 3; i++)
		free(res[i]);
}
END_TEST

START_TEST(test_rate_and_share)
{
	ck_assert_uint_eq(report_rate(0, 0), 0);
	ck_assert_uint_eq(report_rate(5, 0), 0);
	ck_assert_uint_eq(report_rate(1000, 3), 333333);
	/* no overflow where bytes * 1000 would wrap */
	ck_assert_uint_eq(report_rate(UINT64_MAX / 10, 1000), UINT64_MAX / 10);
	ck_assert_double_eq_tol(report_bw_share(512.0, 1024 * 1024), 50.0, 1e-9);
	ck_assert_double_eq_tol(report_bw_share(512.9, 1024 * 1024), 50.0, 1e-9);	/* int mean */
	/* fio 3.33 sample: mean 15426.666667 KiB/s, agg 16202000 B/s -> 97.495519 */
	ck_assert_double_eq_tol(report_bw_share(15426.666667, 16202000), 97.495519, 1e-6);
	ck_assert_double_eq(report_bw_share(5000.0, 1024 * 1024), 100.0);	/* capped */
	ck_assert_double_eq(report_bw_share(1.0, 1024), 100.0);	/* agg <= 1 KiB/s */
}
END_TEST

START_TEST(test_calc_floors)
{
	uint64_t c[3] = { 1, 0, 99999 };
	double p[3];

	report_calc_lat(c, 3, 100000, p);
	ck_assert_double_eq(p[0], 0.01);	/* 0.001% shown as 0.01 */
	ck_assert_double_eq(p[1], 0.0);
	ck_assert_double_eq_tol(p[2], 99.999, 1e-9);
	report_calc_dist(c, 3, 100000, p);
	ck_assert_double_eq(p[0], 0.1);
	report_calc_dist(c, 3, 0, p);
	ck_assert_double_eq(p[2], 0.0);	/* no total: zeros, no division */
}
END_TEST

START_TEST(test_pct_list)
{
	struct job j;
	const double *p;
	unsigned prec;

	memset(&j, 0, sizeof(j));
	ck_assert_uint_eq(report_pct_list(&j, &p, &prec), 17);	/* fio's default list */
	ck_assert_double_eq(p[0], 1.0);
	ck_assert_double_eq(p[16], 99.99);
	ck_assert_uint_eq(prec, 2);
	j.nr_percentiles = 3;
	j.percentiles[0] = 50;
	j.percentiles[1] = 99;
	j.percentiles[2] = 99.999;
	j.percentile_precision = 3;
	ck_assert_uint_eq(report_pct_list(&j, &p, &prec), 3);
	ck_assert_uint_eq(prec, 3);
	ck_assert_ptr_eq(p, j.percentiles);
	j.percentiles[1] = 0.0;	/* 0.0 ends the list, like fio */
	ck_assert_uint_eq(report_pct_list(&j, &p, &prec), 1);
	j.percentiles[0] = 0.0;
	ck_assert_uint_eq(report_pct_list(&j, &p, &prec), 0);
	j.nr_percentiles = 1000;	/* bounded */
	for (unsigned i = 0; i < JOB_MAX_PERCENTILES; i++)
		j.percentiles[i] = i + 1;
	ck_assert_uint_eq(report_pct_list(&j, &p, &prec), JOB_MAX_PERCENTILES);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");
	int nfx = (int)(sizeof(fx_all) / sizeof(fx_all[0]));

	tcase_add_loop_test(tc, test_fixture_normal, 0, nfx);
	tcase_add_loop_test(tc, test_fixture_json_plus, 0, nfx);
	tcase_add_loop_test(tc, test_fixture_header, 0, nfx);
	tcase_add_loop_test(tc, test_fixture_terse, 0, nfx);
	tcase_add_loop_test(tc, test_fixture_json_plain, 0, nfx);
	tcase_add_loop_test(tc, test_fixture_all_formats, 0, nfx);
	tcase_add_test(tc, test_report_print_write_error);
	tcase_add_test(tc, test_group_reporting_merges_two_jobs);
	tcase_add_test(tc, test_without_group_reporting_two_units);
	tcase_add_test(tc, test_group_reporting_respects_groups);
	tcase_add_loop_test(tc, test_group_takes_last_units_base, 0,
			    (int)(sizeof(group_base_cases) / sizeof(group_base_cases[0])));
	tcase_add_test(tc, test_rate_and_share);
	tcase_add_test(tc, test_calc_floors);
	tcase_add_test(tc, test_pct_list);
	suite_add_tcase(s, tc);
	return s;
}

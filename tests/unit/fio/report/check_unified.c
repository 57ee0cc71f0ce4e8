/* SPDX-License-Identifier: MIT */
/* unified: unified_rw_reporting's merge of read+write+trim (fio 3.33's stat.c sums) and
 * how a report applies the modes (mixed collapses a unit, both adds a mixed block). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fio/report/report.h"
#include "fio/report/write.h"
#include "fio/report/unified.h"

static const uint64_t rd[] = { 281, 293, 297, 302, 302, 306, 310, 318, 326, 338, 375, 396, 848, 2868 };
static const uint64_t wr[] = { 4293, 4948, 15270, 42, 36094, 1, 7, 100000, 123456789, 5, 5 };
static const uint64_t tr[] = { 77, 7777777 };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* One direction fed sample by sample, as the runner does; bw/iops get two window samples. */
static void feed(struct ddir_result *d, const uint64_t *v, unsigned n, uint64_t bs, uint64_t bw0)
{
	for (unsigned i = 0; i < n; i++) {
		lat_stat_add(&d->clat, v[i]);
		hist_add(&d->clat_hist, v[i]);
		lat_stat_add(&d->lat, v[i] + 10);
		hist_add(&d->lat_hist, v[i] + 10);
		d->io_bytes += bs;
		d->total_ios++;
		d->issued_ios++;
	}
	d->runtime_us = 1000 * (n + 1);
	lat_stat_add(&d->bw_kib, bw0);
	lat_stat_add(&d->bw_kib, bw0 * 3);
	lat_stat_add(&d->iops, bw0 / 4);
	lat_stat_add(&d->iops, bw0 / 2);
}

static struct ddir_result *alloc_ddirs(void)
{
	struct ddir_result *d = calloc(DDIR_NR + 2, sizeof(*d));

	ck_assert_ptr_nonnull(d);
	feed(&d[DDIR_READ], rd, NR(rd), 4096, 1000);
	feed(&d[DDIR_WRITE], wr, NR(wr), 8192, 2000);
	feed(&d[DDIR_TRIM], tr, NR(tr), 512, 64);
	/* d[3]: every sample in one stream (what the merge must equal) */
	feed(&d[3], rd, NR(rd), 4096, 0);
	feed(&d[3], wr, NR(wr), 8192, 0);
	feed(&d[3], tr, NR(tr), 512, 0);
	return d;
}

START_TEST(test_merge_equals_one_stream)
{
	struct ddir_result *d = alloc_ddirs(), *m = &d[4], *all = &d[3];
	static const double pcts[] = { 1, 10, 50, 90, 99, 99.9, 100 };
	uint64_t pm[NR(pcts)], pa[NR(pcts)];

	unified_merge(m, d);
	ck_assert_uint_eq(m->total_ios, NR(rd) + NR(wr) + NR(tr));
	ck_assert_uint_eq(m->issued_ios, m->total_ios);
	ck_assert_uint_eq(m->io_bytes, NR(rd) * 4096 + NR(wr) * 8192 + NR(tr) * 512);
	ck_assert_uint_eq(m->runtime_us, 1000 * (NR(rd) + 1));	/* the longest direction */
	ck_assert_uint_eq(m->clat.n, all->clat.n);
	ck_assert_uint_eq(m->clat.min, 1);
	ck_assert_uint_eq(m->clat.max, 123456789);
	ck_assert_double_eq_tol(m->clat.mean, all->clat.mean, all->clat.mean * 1e-12);
	ck_assert_double_eq_tol(lat_stat_stdev(&m->clat), lat_stat_stdev(&all->clat),
				lat_stat_stdev(&all->clat) * 1e-9);
	ck_assert_double_eq_tol(m->lat.mean, all->lat.mean, all->lat.mean * 1e-12);
	ck_assert_uint_eq(m->lat.min, 11);
	/* histograms add bucket-wise: percentiles are exactly those of the single stream */
	ck_assert_int_eq(memcmp(&m->clat_hist, &all->clat_hist, sizeof(m->clat_hist)), 0);
	ck_assert_uint_eq(hist_percentiles(&m->clat_hist, pcts, NR(pcts), pm), NR(pcts));
	ck_assert_uint_eq(hist_percentiles(&all->clat_hist, pcts, NR(pcts), pa), NR(pcts));
	for (unsigned i = 0; i < NR(pcts); i++)
		ck_assert_uint_eq(pm[i], pa[i]);
	ck_assert_int_eq(memcmp(&m->lat_hist, &all->lat_hist, sizeof(m->lat_hist)), 0);
	/* bw/iops: fio's pure sums (min, max, mean, S, n each summed) */
	ck_assert_uint_eq(m->bw_kib.n, 6);
	ck_assert_uint_eq(m->bw_kib.min, 1000 + 2000 + 64);
	ck_assert_uint_eq(m->bw_kib.max, 3000 + 6000 + 192);
	ck_assert_double_eq_tol(m->bw_kib.mean, 2000.0 + 4000.0 + 128.0, 1e-9);
	ck_assert_uint_eq(m->iops.min, 250 + 500 + 16);
	/* slat had no samples anywhere: stays empty */
	ck_assert_uint_eq(m->slat.n, 0);
	ck_assert_uint_eq(m->slat.min, 0);
	free(d);
}
END_TEST

START_TEST(test_merge_in_place_and_empty)
{
	struct ddir_result *d = calloc(DDIR_NR, sizeof(*d)), *z = calloc(1, sizeof(*z));

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(z);
	/* nothing at all: the merge is empty too */
	unified_merge(z, d);
	ck_assert_uint_eq(z->total_ios, 0);
	ck_assert_uint_eq(z->clat.n, 0);
	ck_assert_uint_eq(z->runtime_us, 0);
	/* only writes, merged into READ's place (mixed mode) */
	feed(&d[DDIR_WRITE], wr, NR(wr), 8192, 2000);
	unified_merge(&d[DDIR_READ], d);
	ck_assert_uint_eq(d[DDIR_READ].total_ios, NR(wr));
	ck_assert_uint_eq(d[DDIR_READ].clat.min, 1);
	ck_assert_uint_eq(d[DDIR_READ].clat.max, 123456789);
	ck_assert_uint_eq(d[DDIR_READ].bw_kib.min, 2000);
	ck_assert_uint_eq(d[DDIR_READ].clat_hist.total, NR(wr));
	free(d);
	free(z);
}
END_TEST

/* report_build applies the modes: mixed collapses a copy (the job's own result untouched),
 * both adds the merged block; the group gets the OR of the modes. */
START_TEST(test_report_modes)
{
	static const unsigned modes[] = { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };

	for (unsigned k = 0; k < NR(modes); k++) {
		struct fio_config cfg = { 0 };
		struct job jobs[1];
		struct job_result *res = calloc(1, sizeof(*res));
		struct job_result *resp[1] = { res };
		struct report rep;
		struct ddir_result *d = alloc_ddirs();

		ck_assert_ptr_nonnull(res);
		memset(jobs, 0, sizeof(jobs));
		snprintf(jobs[0].name, sizeof(jobs[0].name), "u");
		jobs[0].unified_rw_rep = modes[k];
		jobs[0].kb_base = 1024;
		jobs[0].sig_figs = 4;
		cfg.jobs = jobs;
		cfg.nr_jobs = 1;
		cfg.nr_groups = 1;
		res->job = &jobs[0];
		memcpy(res->ddir, d, sizeof(res->ddir));
		ck_assert_int_eq(report_build(&rep, &cfg, resp, 1), 0);
		ck_assert_uint_eq(rep.nr_units, 1);
		ck_assert_uint_eq(rep.units[0].unified, modes[k]);
		ck_assert_uint_eq(rep.groups[0].unified, modes[k]);
		/* the job's own result is never modified */
		ck_assert_uint_eq(res->ddir[DDIR_WRITE].total_ios, NR(wr));
		if (modes[k] == UNIFIED_MIXED) {
			const struct job_result *u = rep.units[0].res;

			ck_assert(rep.units[0].owned);
			ck_assert_ptr_null(rep.units[0].mixed);
			ck_assert_uint_eq(u->ddir[DDIR_READ].total_ios, NR(rd) + NR(wr) + NR(tr));
			ck_assert_uint_eq(u->ddir[DDIR_WRITE].total_ios, 0);
			ck_assert_uint_eq(u->ddir[DDIR_TRIM].io_bytes, 0);
			ck_assert_uint_eq(rep.groups[0].io_bytes[DDIR_READ], d[3].io_bytes);
			ck_assert_uint_eq(rep.groups[0].max_run_ms[DDIR_WRITE], 0);
			ck_assert_str_eq(unified_ddir_name(&rep.units[0], DDIR_READ), "mixed");
		} else if (modes[k] == UNIFIED_BOTH) {
			ck_assert_ptr_nonnull(rep.units[0].mixed);
			ck_assert_uint_eq(rep.units[0].mixed->io_bytes, d[3].io_bytes);
			ck_assert_ptr_eq(unified_ddir(&rep.units[0], UNIFIED_DDIR), rep.units[0].mixed);
			ck_assert_uint_eq(rep.groups[0].io_bytes[DDIR_WRITE], NR(wr) * 8192);
			ck_assert_str_eq(unified_ddir_name(&rep.units[0], DDIR_WRITE), "write");
			ck_assert_str_eq(unified_ddir_name(&rep.units[0], UNIFIED_DDIR), "mixed");
		} else {
			ck_assert_ptr_null(rep.units[0].mixed);
			ck_assert_str_eq(unified_ddir_name(&rep.units[0], DDIR_TRIM), "trim");
		}
		report_release(&rep);
		free(res);
		free(d);
	}
}
END_TEST

Suite *unified_suite(void)
{
	Suite *s = suite_create("unified");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_merge_equals_one_stream);
	tcase_add_test(tc, test_merge_in_place_and_empty);
	tcase_add_test(tc, test_report_modes);
	suite_add_tcase(s, tc);
	return s;
}

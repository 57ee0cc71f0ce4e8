/* SPDX-License-Identifier: MIT */
/* Runner unit tests of flows, io_submit_mode=offload and serialize_overlap, on the null
 * engine (no files): exact totals and maps with offload, the depth serialize_overlap allows
 * over one block, and flow ratios between jobs run together. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "fio/run/runner.h"
#include "runner_testjob.h"

#define NJ 3

struct fcfg {
	struct fio_config cfg;
	struct job jobs[NJ];
	struct job_result *res[NJ];
	struct ctl ctl;
};

static void fcfg_init(struct fcfg *r, unsigned nr, enum rw_mode rw)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < nr; i++) {
		testjob_init(&r->jobs[i], rw);
		r->jobs[i].job_index = i;
		r->jobs[i].thread_number = i + 1;
		r->jobs[i].size = 8 * 1024 * 1024;
		r->res[i] = calloc(1, sizeof(struct job_result));
		ck_assert_ptr_nonnull(r->res[i]);
	}
	r->cfg.jobs = r->jobs;
	r->cfg.nr_jobs = nr;
	r->cfg.nr_groups = 1;
	ck_assert_int_eq(ctl_init(&r->ctl), 0);
}

static void fcfg_release(struct fcfg *r)
{
	for (unsigned i = 0; i < NJ; i++)
		free(r->res[i]);
	ctl_release(&r->ctl);
}

static int frun(struct fcfg *r)
{
	struct iops_err err = { 0 };
	FILE *diag = fopen("/dev/null", "w");	/* the expected error lines of the fault test */
	int ret;

	ck_assert_ptr_nonnull(diag);
	ret = runner_run(&r->cfg, r->res, NULL, diag, &r->ctl, &err);
	fclose(diag);
	return ret;
}

/* offload at depths 1, 16 and 64: the same I/O as inline, every request timed once */
START_TEST(test_offload_exact_totals)
{
	static const unsigned depth[] = { 1, 16, 64 };
	struct fcfg r;
	uint64_t sum = 0;
	struct ddir_result *d;

	fcfg_init(&r, 1, RW_RANDWRITE);
	r.jobs[0].iodepth = depth[_i];
	r.jobs[0].iodepth_batch_complete_max = depth[_i];
	r.jobs[0].submit_offload = true;
	ck_assert_int_eq(frun(&r), 0);
	d = &r.res[0]->ddir[DDIR_WRITE];
	ck_assert_uint_eq(d->total_ios, 2048);
	ck_assert_uint_eq(d->issued_ios, 2048);
	ck_assert_uint_eq(d->io_bytes, 8 * 1024 * 1024);
	ck_assert_uint_eq(d->clat.n, 2048);
	ck_assert_uint_eq(d->lat.n, 2048);
	ck_assert_uint_eq(d->slat.n, 2048);	/* handed over at commit: an async engine now */
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		sum += r.res[0]->depth_map[i];
	ck_assert_uint_eq(sum, 2048);
	ck_assert_int_eq(r.res[0]->error, 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 0);
	fcfg_release(&r);
}
END_TEST

/* offload with the null engine's fault injection: the job fails with the injected error */
START_TEST(test_offload_error_fails_job)
{
	struct fcfg r;

	fcfg_init(&r, 1, RW_RANDREAD);
	r.jobs[0].iodepth = 8;
	r.jobs[0].submit_offload = true;
	setenv("IOPS_NULL_FAIL", "100:5", 1);
	ck_assert_int_eq(frun(&r), 1);
	unsetenv("IOPS_NULL_FAIL");
	ck_assert_int_eq(r.res[0]->error, EIO);
	ck_assert_uint_lt(r.res[0]->ddir[DDIR_READ].total_ios, 2048);
	fcfg_release(&r);
}
END_TEST

/* serialize_overlap over a single 4k block: every I/O overlaps the one before it, so no
 * two are ever in flight (depth 1 throughout); without it some are. And over
 * a large range, random blocks rarely collide: the depth stays high. */
START_TEST(test_serialize_overlap_depth)
{
	struct fcfg r;

	fcfg_init(&r, 3, RW_RANDWRITE);
	for (unsigned i = 0; i < 3; i++) {
		r.jobs[i].iodepth = 8;
		r.jobs[i].iodepth_batch_complete_max = 8;
		r.jobs[i].norandommap = true;
	}
	r.jobs[0].size = 4096;
	r.jobs[0].loops = 500;
	r.jobs[0].serialize_overlap = true;
	r.jobs[1].size = 4096;
	r.jobs[1].loops = 500;
	r.jobs[2].serialize_overlap = true;	/* 8 MiB: 2048 blocks */
	r.jobs[2].submit_offload = _i == 1;
	r.jobs[0].submit_offload = _i == 1;
	ck_assert_int_eq(frun(&r), 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_WRITE].total_ios, 500);
	ck_assert_uint_eq(r.res[0]->depth_map[0], 500);
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_WRITE].total_ios, 500);
	/* without it, loops of one block still overlap in flight (each loop restarts the pass) */
	ck_assert_uint_lt(r.res[1]->depth_map[0], 450);
	ck_assert_uint_eq(r.res[2]->ddir[DDIR_WRITE].total_ios, 2048);
	ck_assert_uint_gt(r.res[2]->depth_map[3], 200);	/* ~1 commit in 8 at depth 8, as inline */
	fcfg_release(&r);
}
END_TEST

/* flows: weights 1 and 3 in one flow, a job in no flow beside them; then 1:1:2 */
START_TEST(test_flow_ratio)
{
	static const unsigned w[2][3] = { { 1, 3, 0 }, { 1, 1, 2 } };
	struct fcfg r;
	double ratio;

	fcfg_init(&r, 3, RW_RANDREAD);
	for (unsigned i = 0; i < 3; i++) {
		r.jobs[i].size = 1ull << 30;
		r.jobs[i].time_based = true;
		r.jobs[i].runtime_ns = 400 * CLOCK_NS_PER_MS;
		r.jobs[i].flow = w[_i][i];
		r.jobs[i].flow_id = 5;
		r.jobs[i].flow_sleep_ns = _i ? 20000 : 0;
	}
	ck_assert_int_eq(frun(&r), 0);
	if (_i == 0) {
		ratio = (double)r.res[1]->ddir[DDIR_READ].total_ios / (double)r.res[0]->ddir[DDIR_READ].total_ios;
		ck_assert_msg(ratio > 2.7 && ratio < 3.3, "flow 3 / flow 1: %.3f", ratio);
		/* the job in no flow is held by nothing */
		ck_assert_uint_gt(r.res[2]->ddir[DDIR_READ].total_ios, r.res[0]->ddir[DDIR_READ].total_ios);
	} else {
		ratio = (double)r.res[1]->ddir[DDIR_READ].total_ios / (double)r.res[0]->ddir[DDIR_READ].total_ios;
		ck_assert_msg(ratio > 0.9 && ratio < 1.1, "flow 1 / flow 1: %.3f", ratio);
		ratio = (double)r.res[2]->ddir[DDIR_READ].total_ios / (double)r.res[0]->ddir[DDIR_READ].total_ios;
		ck_assert_msg(ratio > 1.8 && ratio < 2.2, "flow 2 / flow 1: %.3f", ratio);
	}
	fcfg_release(&r);
}
END_TEST

/* a stop before the start: nobody waits at the gate for a job that never runs */
START_TEST(test_flow_stopped_run_ends)
{
	struct fcfg r;

	fcfg_init(&r, 2, RW_RANDREAD);
	r.jobs[0].flow = r.jobs[1].flow = 1;
	(void)ctl_stop(&r.ctl, 15);
	ck_assert_int_eq(frun(&r), 0);
	fcfg_release(&r);
}
END_TEST

Suite *runner_flow_suite(void);
Suite *runner_flow_suite(void)
{
	Suite *s = suite_create("runner_flow");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_offload_exact_totals, 0, 3);
	tcase_add_test(tc, test_offload_error_fails_job);
	tcase_add_loop_test(tc, test_serialize_overlap_depth, 0, 2);
	tcase_add_loop_test(tc, test_flow_ratio, 0, 2);
	tcase_add_test(tc, test_flow_stopped_run_ends);
	suite_add_tcase(s, tc);
	return s;
}

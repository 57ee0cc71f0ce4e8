/* SPDX-License-Identifier: MIT */
/* Unit tests of the runner's latency_target (lib/fio/run/runner_lat.c) and sync_file_range
 * (lib/fio/run/runner_sync.c), through runner_run(): the depth a null job settles at and how its
 * probing ends it, a target no I/O meets at depth 1 failing the job, and the number of
 * sync_file_range calls for N (alone, and beside an fsync due after the same write). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "fio/run/runner.h"
#include "runner_testjob.h"

static char ltmp[128];

static void lt_setup(void)
{
	snprintf(ltmp, sizeof(ltmp), "/tmp/iops-runlat-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(ltmp));
}

static void lt_teardown(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ltmp);
	ck_assert_int_eq(system(cmd), 0);
}

struct one_run {
	struct fio_config cfg;
	struct job job;
	struct job_result *res;
	char path[256];
	char *names[1];
	struct ctl ctl;
	FILE *diag;
	char *diag_buf;
	size_t diag_len;
};

static void one_init(struct one_run *r, enum rw_mode rw, const char *file)
{
	memset(r, 0, sizeof(*r));
	testjob_init(&r->job, rw);
	r->job.thread_number = 1;
	r->job.size = 1024 * 1024;
	if (rw == RW_WRITE || rw == RW_RANDWRITE) {
		r->job.rw_has_read = false;
		r->job.rw_has_write = true;
	}
	if (file) {
		snprintf(r->path, sizeof(r->path), "%s/%s", ltmp, file);
		r->names[0] = r->path;
		r->job.filenames = r->names;
		r->job.nr_files = 1;
		snprintf(r->job.ioengine, sizeof(r->job.ioengine), "psync");
	}
	r->res = calloc(1, sizeof(*r->res));
	ck_assert_ptr_nonnull(r->res);
	r->cfg.jobs = &r->job;
	r->cfg.nr_jobs = 1;
	r->cfg.nr_groups = 1;
	ck_assert_int_eq(ctl_init(&r->ctl), 0);
	r->diag = open_memstream(&r->diag_buf, &r->diag_len);
	ck_assert_ptr_nonnull(r->diag);
}

static int one_run(struct one_run *r)
{
	struct iops_err err = { 0 };
	int ret = runner_run(&r->cfg, &r->res, NULL, r->diag, &r->ctl, &err);

	ck_assert_int_eq(fflush(r->diag), 0);
	return ret;
}

static void one_release(struct one_run *r)
{
	free(r->res);
	ctl_release(&r->ctl);
	fclose(r->diag);
	free(r->diag_buf);
}

/* A target every null I/O meets: doubling to iodepth, one last window, then the end. */
struct settle_case {
	unsigned iodepth;
	bool keep_going;	/* latency_run */
};

static const struct settle_case settle_cases[] = { { 1, false }, { 8, false }, { 6, false }, { 4, true } };

START_TEST(test_lat_settles)
{
	const struct settle_case *c = &settle_cases[_i];
	struct one_run r;
	uint64_t t0;

	one_init(&r, RW_RANDREAD, NULL);
	r.job.size = 1ull << 36;
	r.job.iodepth = r.job.iodepth_low = c->iodepth;
	r.job.time_based = true;
	r.job.runtime_ns = c->keep_going ? 300 * CLOCK_NS_PER_MS : 20 * CLOCK_NS_PER_SEC;
	r.job.lat_target_ns = CLOCK_NS_PER_SEC;
	r.job.lat_window_ns = 5 * CLOCK_NS_PER_MS;
	r.job.lat_pct = 100.0;
	r.job.lat_run = c->keep_going;
	t0 = clock_now_ns();
	ck_assert_int_eq(one_run(&r), 0);
	ck_assert_int_eq(r.res->error, 0);
	ck_assert_uint_eq(r.res->lat_depth, c->iodepth);
	ck_assert_uint_gt(r.res->ddir[DDIR_READ].total_ios, 0);
	if (c->keep_going)	/* never settles: runs out its 300 ms */
		ck_assert_uint_ge(clock_now_ns() - t0, 250 * CLOCK_NS_PER_MS);
	else	/* ended by the probing, far from its 20 s */
		ck_assert_uint_lt(clock_now_ns() - t0, 10 * CLOCK_NS_PER_SEC);
	one_release(&r);
}
END_TEST

/* 1 ns: no I/O is that fast; at depth 1 with percentile 100 the first one fails the job, with
 * a lower percentile the job stays at depth 1 and does all its I/O. */
START_TEST(test_lat_unmeetable)
{
	for (int pct = 0; pct < 2; pct++) {
		struct one_run r;

		one_init(&r, RW_READ, "data");
		r.job.size = 64 * 4096;
		r.job.iodepth = r.job.iodepth_low = 4;
		r.job.lat_target_ns = 1;
		r.job.lat_window_ns = CLOCK_NS_PER_MS;
		r.job.lat_pct = pct ? 50.0 : 100.0;
		(void)one_run(&r);
		if (pct) {
			ck_assert_int_eq(r.res->error, 0);
			ck_assert_uint_eq(r.res->ddir[DDIR_READ].total_ios, 64);
			ck_assert_uint_eq(r.res->lat_depth, 1);
		} else {
			ck_assert_int_eq(r.res->error, ETIMEDOUT);
			ck_assert_ptr_nonnull(strstr(r.diag_buf, "exceeds specified max (1 nsec)"));
			ck_assert_uint_lt(r.res->ddir[DDIR_READ].total_ios, 64);
		}
		one_release(&r);
	}
}
END_TEST

/* sync_file_range=write:N over 16 sequential writes: a call after every Nth write that has
 * one after it (as fio: none after the last); with fsync=F the fsync takes the place of a
 * sync_file_range due after the same write. */
struct sfr_case {
	unsigned every, fsync;
	uint64_t syncs;
};

static const struct sfr_case sfr_cases[] = {
	{ 1, 0, 15 }, { 3, 0, 5 }, { 4, 0, 3 }, { 16, 0, 0 }, { 100, 0, 0 },
	{ 2, 3, 5 + 5 },	/* fsync after 3,6,9,12,15; sync_file_range after 2,4,8,10,14 */
};

START_TEST(test_sfr_counts)
{
	const struct sfr_case *c = &sfr_cases[_i];
	struct one_run r;
	char name[32];

	snprintf(name, sizeof(name), "w%d", _i);
	one_init(&r, RW_WRITE, name);
	r.job.size = 16 * 4096;
	r.job.sfr_every = c->every;
	r.job.sfr_flags = 2;	/* SYNC_FILE_RANGE_WRITE */
	r.job.fsync_every = c->fsync;
	ck_assert_int_eq(one_run(&r), 0);
	ck_assert_int_eq(r.res->error, 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].total_ios, 16);
	ck_assert_uint_eq(r.res->sync_ios, c->syncs);
	ck_assert_uint_eq(r.res->sync_lat.n, c->syncs);
	one_release(&r);
}
END_TEST

Suite *runner_lat_suite(void);

Suite *runner_lat_suite(void)
{
	Suite *s = suite_create("runner_lat");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, lt_setup, lt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_lat_settles, 0, (int)(sizeof(settle_cases) / sizeof(settle_cases[0])));
	tcase_add_test(tc, test_lat_unmeetable);
	tcase_add_loop_test(tc, test_sfr_counts, 0, (int)(sizeof(sfr_cases) / sizeof(sfr_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

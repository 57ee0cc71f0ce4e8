/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "fio/debug.h"
#include "fio/run/runner.h"
#include "runner_testjob.h"

#define NJ 3

struct rcfg {
	struct fio_config cfg;
	struct job jobs[NJ];
	struct job_result *res[NJ];
	char paths[NJ][256];
	char *names[NJ][1];
	struct ctl ctl;
	FILE *diag;		/* the runner's diagnostics, captured (diag_text()) */
	char *diag_buf;
	size_t diag_len;
};

static char tmpdir[128];

static void rcfg_init(struct rcfg *r, unsigned nr)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < nr; i++) {
		testjob_init(&r->jobs[i], RW_RANDREAD);
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
	r->diag = open_memstream(&r->diag_buf, &r->diag_len);
	ck_assert_ptr_nonnull(r->diag);
}

/* What the runner wrote on its diag stream so far. */
static const char *diag_text(struct rcfg *r)
{
	ck_assert_int_eq(fflush(r->diag), 0);
	return r->diag_buf;
}

static void rcfg_file(struct rcfg *r, unsigned i, const char *name)
{
	snprintf(r->paths[i], sizeof(r->paths[i]), "%s/%s", tmpdir, name);
	r->names[i][0] = r->paths[i];
	r->jobs[i].filenames = r->names[i];
	r->jobs[i].nr_files = 1;
	snprintf(r->jobs[i].ioengine, sizeof(r->jobs[i].ioengine), "psync");
}

static void rcfg_release(struct rcfg *r)
{
	for (unsigned i = 0; i < NJ; i++)
		free(r->res[i]);
	ctl_release(&r->ctl);
	fclose(r->diag);
	free(r->diag_buf);
}

static int run(struct rcfg *r)
{
	struct iops_err err = { 0 };

	return runner_run(&r->cfg, r->res, NULL, r->diag, &r->ctl, &err);
}

static void setup_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iops-runner-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_tmp(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_runner_null_exact_totals)
{
	struct rcfg r;
	struct ddir_result *d;

	rcfg_init(&r, 1);
	ck_assert_int_eq(run(&r), 0);
	d = &r.res[0]->ddir[DDIR_READ];
	ck_assert_uint_eq(d->total_ios, 2048);
	ck_assert_uint_eq(d->issued_ios, 2048);
	ck_assert_uint_eq(d->io_bytes, 8 * 1024 * 1024);
	ck_assert_uint_eq(d->clat.n, 2048);
	ck_assert_uint_eq(d->clat_hist.total, 2048);
	ck_assert_uint_eq(d->lat.n, 2048);
	ck_assert_uint_eq(d->slat.n, 0);	/* sync completion: no slat */
	ck_assert_uint_eq(r.res[0]->depth_map[0], 2048);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_WRITE].total_ios, 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_WRITE].runtime_us, 0);
	ck_assert_ptr_eq(r.res[0]->job, &r.jobs[0]);
	ck_assert_int_eq(r.res[0]->error, 0);
	ck_assert_str_eq(diag_text(&r), "");	/* a clean run says nothing */
	rcfg_release(&r);
}
END_TEST

/* --debug=io wraps the engine; its cleanup frees the wrapper, and the worker reads its engine's
 * flags after that (a use after free the sanitizer build showed, t_fio_steady): the run ends
 * cleanly and the lines are there. */
START_TEST(test_runner_debug_io_wrapper)
{
	struct rcfg r;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	rcfg_init(&r, 1);
	r.jobs[0].size = 64 * 1024;
	r.cfg.debug_mask = 1u << DEBUG_IO;
	r.cfg.debug_out = out;
	ck_assert_int_eq(run(&r), 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 16);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "free ioengine null"));
	free(buf);
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_null_depth_and_files)
{
	struct rcfg r;
	uint64_t sum = 0;

	rcfg_init(&r, 2);
	r.jobs[0].iodepth = 16;
	r.jobs[0].iodepth_batch_submit = 8;
	r.jobs[0].iodepth_batch_complete_max = 16;
	r.jobs[1].nr_files = 3;	/* diskless: size split over three ranges like fio's nrfiles */
	r.jobs[1].rw = RW_READ;
	r.jobs[1].rw_random = false;
	r.jobs[1].percentage_random = 0;
	ck_assert_int_eq(run(&r), 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 2048);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].slat.n, 2048);
	for (int i = 0; i < DEPTH_MAP_NR; i++)
		sum += r.res[0]->depth_map[i];
	ck_assert_uint_eq(sum, 2048);
	ck_assert_uint_eq(r.res[0]->depth_map[3] + r.res[0]->depth_map[4], 2048);	/* committed at 8 and 16 in use */
	ck_assert_uint_gt(r.res[0]->submit_map[2], 0);		/* batches of 5..8 */
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].total_ios, 2046);
	rcfg_release(&r);
}
END_TEST

/* Batching by readiness (job.batch_ready): at depth 16 on the null engine, which completes
 * a whole commit at once, every reap takes a quarter of the depth, 4, and every commit submits
 * 4. Given batch sizes (not ready) and paced jobs (thinktime) keep one request per call. */
static const struct {
	bool ready;
	uint64_t think_ns;
	unsigned submit_idx;	/* the submit_map bucket every call lands in */
	uint64_t calls;
} batch_cases[] = {
	{ true, 0, 1, 2048 / 4 },
	{ false, 0, 1, 2048 },
	{ true, 1000, 1, 2048 },
};

START_TEST(test_runner_batch_ready)
{
	struct rcfg r;

	rcfg_init(&r, 1);
	r.jobs[0].iodepth = 16;
	r.jobs[0].batch_ready = batch_cases[_i].ready;
	r.jobs[0].thinktime_ns = batch_cases[_i].think_ns;
	r.jobs[0].thinktime_blocks = 64;
	ck_assert_int_eq(run(&r), 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 2048);
	ck_assert_uint_eq(r.res[0]->nr_submit_calls, batch_cases[_i].calls);
	ck_assert_uint_eq(r.res[0]->submit_map[batch_cases[_i].submit_idx], batch_cases[_i].calls);
	ck_assert_uint_eq(r.res[0]->nr_complete_calls, batch_cases[_i].calls);
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_time_based_stops_near_runtime)
{
	struct rcfg r;
	uint64_t t0 = clock_now_ns(), el;

	rcfg_init(&r, 1);
	r.jobs[0].time_based = true;
	r.jobs[0].runtime_ns = 300 * CLOCK_NS_PER_MS;
	ck_assert_int_eq(run(&r), 0);
	el = clock_now_ns() - t0;
	ck_assert_uint_ge(el, 300 * CLOCK_NS_PER_MS);
	/* generous upper bounds: the test machine may be heavily loaded */
	ck_assert_uint_lt(el, 5000 * CLOCK_NS_PER_MS);
	ck_assert_uint_ge(r.res[0]->ddir[DDIR_READ].runtime_us, 300000);
	ck_assert_uint_lt(r.res[0]->ddir[DDIR_READ].runtime_us, 5000000);
	ck_assert_uint_gt(r.res[0]->ddir[DDIR_READ].total_ios, 2048);	/* wrapped */
	ck_assert_uint_ge(r.res[0]->run_ms, 300);
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_ramp_resets_stats)
{
	struct rcfg r;
	uint64_t t0 = clock_now_ns(), el;

	rcfg_init(&r, 1);
	r.jobs[0].time_based = true;
	r.jobs[0].runtime_ns = 300 * CLOCK_NS_PER_MS;
	r.jobs[0].ramp_time_ns = 300 * CLOCK_NS_PER_MS;
	r.jobs[0].gtod_reduce = true;
	ck_assert_int_eq(run(&r), 0);
	el = clock_now_ns() - t0;
	ck_assert_uint_ge(el, 600 * CLOCK_NS_PER_MS);
	/* only the post-ramp part is reported */
	ck_assert_uint_lt(r.res[0]->ddir[DDIR_READ].runtime_us, 600000 + 2000000);	/* not ramp + runtime... */
	ck_assert_uint_lt(r.res[0]->ddir[DDIR_READ].runtime_us, (clock_now_ns() - t0) / 1000 - 290000);	/* ...ramp excluded */
	ck_assert_uint_ge(r.res[0]->ddir[DDIR_READ].runtime_us, 300000);	/* never short, even if the ramp end is seen late */
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].clat.n, 0);	/* gtod_reduce: no latencies */
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, r.res[0]->ddir[DDIR_READ].issued_ios);
	rcfg_release(&r);
}
END_TEST

static void *stopper(void *arg)
{
	struct ctl *ctl = arg;

	usleep(150000);
	ctl_stop(ctl, 2);
	return NULL;
}

START_TEST(test_runner_stop_flag_honoured)
{
	struct rcfg r;
	pthread_t tid;
	uint64_t t0 = clock_now_ns();

	rcfg_init(&r, 2);
	for (int i = 0; i < 2; i++) {
		r.jobs[i].time_based = true;
		r.jobs[i].runtime_ns = 30 * CLOCK_NS_PER_SEC;
	}
	r.jobs[1].stonewall = true;	/* never starts: the stop comes first */
	ck_assert_int_eq(pthread_create(&tid, NULL, stopper, &r.ctl), 0);
	ck_assert_int_eq(run(&r), 0);
	pthread_join(tid, NULL);
	ck_assert_uint_lt(clock_now_ns() - t0, 10 * CLOCK_NS_PER_SEC);	/* far below the 30 s runtime */
	ck_assert_uint_gt(r.res[0]->ddir[DDIR_READ].total_ios, 0);	/* results kept */
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, r.res[0]->ddir[DDIR_READ].issued_ios);
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].total_ios, 0);
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_io_error_fails_job)
{
	struct rcfg r;
	const char *diag;

	setenv("IOPS_NULL_FAIL", "100:5", 1);
	rcfg_init(&r, 2);
	r.jobs[1].size = 64 * 1024;	/* 16 ios: never reaches the 100th */
	ck_assert_int_eq(run(&r), 1);
	unsetenv("IOPS_NULL_FAIL");
	ck_assert_int_eq(r.res[0]->error, EIO);
	ck_assert_ptr_nonnull(strstr(r.res[0]->verror, "func=io_u error"));
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 99);
	ck_assert_int_eq(r.res[1]->error, 0);
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].total_ios, 16);
	/* fio's two lines, on diag: the failed I/O (strerror() words vary by libc), then the job's */
	diag = diag_text(&r);
	ck_assert_ptr_nonnull(strstr(diag, "fio: io_u error on file t: "));
	ck_assert_ptr_nonnull(strstr(diag, ": read offset="));
	ck_assert_ptr_nonnull(strstr(diag, ", buflen=4096\nfio: pid="));
	ck_assert_ptr_nonnull(strstr(diag, ", err=5/file:io_u.c:1876, func=io_u error, error="));
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_psync_file_and_fsync)
{
	struct rcfg r;
	struct stat st;

	rcfg_init(&r, 2);
	rcfg_file(&r, 0, "w");
	r.jobs[0].rw = RW_WRITE;
	r.jobs[0].rw_has_read = false;
	r.jobs[0].rw_has_write = true;
	r.jobs[0].rw_random = false;
	r.jobs[0].percentage_random = 0;
	r.jobs[0].size = 16 * 4096;
	r.jobs[0].fsync_every = 3;
	rcfg_file(&r, 1, "w");
	r.jobs[1].size = 16 * 4096;
	r.jobs[1].stonewall = true;
	ck_assert_int_eq(run(&r), 0);
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_WRITE].total_ios, 16);
	ck_assert_uint_eq(r.res[0]->sync_ios, 5);	/* fio: floor(16/3), none after the last write */
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].total_ios, 16);
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].io_bytes, 16 * 4096);
	ck_assert_int_eq(stat(r.paths[0], &st), 0);
	ck_assert_int_eq(st.st_size, 16 * 4096);
	ck_assert_str_eq(diag_text(&r), "");
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_missing_size_only_that_job)
{
	struct rcfg r;

	rcfg_init(&r, 2);
	rcfg_file(&r, 0, "nosuch");
	r.jobs[0].size = 0;
	ck_assert_int_eq(run(&r), 1);
	ck_assert(r.res[0]->not_run);
	ck_assert_int_eq(r.res[0]->error, EINVAL);
	ck_assert(!r.res[1]->not_run);
	ck_assert_uint_eq(r.res[1]->ddir[DDIR_READ].total_ios, 2048);
	ck_assert_int_ne(access(r.paths[0], F_OK), 0);
	ck_assert_str_eq(diag_text(&r), "t: you need to specify size=\n"
			 "fio: pid=0, err=22/file:filesetup.c:1155, func=total_file_size, error=Invalid argument\n");
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_refusal_runs_nothing)
{
	struct rcfg r;
	struct iops_err err = { 0 };
	FILE *f;

	rcfg_init(&r, 2);
	rcfg_file(&r, 1, "precious");
	f = fopen(r.paths[1], "w");
	ck_assert_ptr_nonnull(f);
	fputs("user data", f);
	fclose(f);
	r.jobs[1].rw = RW_RANDWRITE;
	r.jobs[1].rw_has_read = false;
	r.jobs[1].rw_has_write = true;
	r.jobs[1].size = 4096;
	ck_assert_int_eq(runner_run(&r.cfg, r.res, NULL, r.diag, &r.ctl, &err), -EPERM);
	ck_assert(iops_err_isset(&err));
	ck_assert_str_eq(diag_text(&r), "");	/* the refusal is err's, for cmd/ to print */
	ck_assert_uint_eq(r.res[0]->ddir[DDIR_READ].total_ios, 0);	/* nothing ran */
	rcfg_release(&r);
}
END_TEST

START_TEST(test_runner_map_indexes)
{
	static const unsigned depth_in[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 1000 };
	static const unsigned depth_out[] = { 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 };
	static const unsigned batch_in[] = { 0, 1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65 };
	static const unsigned batch_out[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6 };

	for (unsigned i = 0; i < sizeof(depth_in) / sizeof(depth_in[0]); i++)
		ck_assert_uint_eq(runner_depth_idx(depth_in[i]), depth_out[i]);
	for (unsigned i = 0; i < sizeof(batch_in) / sizeof(batch_in[0]); i++)
		ck_assert_uint_eq(runner_batch_idx(batch_in[i]), batch_out[i]);
}
END_TEST

Suite *runner_suite(void);
Suite *runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_tmp, teardown_tmp);	/* runs even when a test fails */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_runner_null_exact_totals);
	tcase_add_test(tc, test_runner_null_depth_and_files);
	tcase_add_test(tc, test_runner_debug_io_wrapper);
	tcase_add_loop_test(tc, test_runner_batch_ready, 0, sizeof(batch_cases) / sizeof(batch_cases[0]));
	tcase_add_test(tc, test_runner_time_based_stops_near_runtime);
	tcase_add_test(tc, test_runner_ramp_resets_stats);
	tcase_add_test(tc, test_runner_stop_flag_honoured);
	tcase_add_test(tc, test_runner_io_error_fails_job);
	tcase_add_test(tc, test_runner_psync_file_and_fsync);
	tcase_add_test(tc, test_runner_missing_size_only_that_job);
	tcase_add_test(tc, test_runner_refusal_runs_nothing);
	tcase_add_test(tc, test_runner_map_indexes);
	suite_add_tcase(s, tc);
	return s;
}

/* runner: the jobs as threads (fio/runner.h): each job's thread (worker_main: set-up, the I/O
 * loop, final figures, teardown), groups (stonewall, wait_for), runner_run_progress, join. The
 * job's parts are in runner_setup.c, runner_io.c, runner_stats.c, runner_rate.c and
 * runner_verify.c (runner_int.h). */
#include "fio/runner_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fio/eta.h"

struct runner_thread {
	pthread_t tid;
	bool started, joined;
	struct worker w;
};

/* ---- the job's thread ------------------------------------------------------------------- */

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job *job = w->job;
	struct job_result *res = w->res;
	struct iops_err err = { 0 };
	uint64_t end;

	res->job = job;
	res->pid = (int)syscall(SYS_gettid);
	if (job->startdelay_ns && !ctl_sleep_until(w->ctl, clock_now_ns() + job->startdelay_ns))
		return NULL;
	if (ctl_stopped(w->ctl))
		return NULL;

	w->clat_on = !job->disable_clat && !job->gtod_reduce;
	w->lat_on = !job->disable_lat && !job->gtod_reduce;
	w->slat_on = !job->disable_slat && !job->gtod_reduce && !(w->ops->flags & ENGINE_F_SYNC);
	w->lat_hist_on = w->lat_on && job->lat_percentiles;
	w->slat_hist_on = w->slat_on && job->slat_percentiles;
	w->clock_per_io = w->clat_on || w->lat_on || w->slat_on;
	w->check_every = 1;
	w->issue_at_queue = (w->ops->flags & ENGINE_F_SYNC) || job->iodepth <= 1;
	w->paths = (w->ops->flags & ENGINE_F_PATHS) != 0;
	w->exit_on_io_done = job->eng.cpuio.exit_on_io_done && (w->ops->flags & ENGINE_F_BURN);

	/* fio's note, once per job as it starts (on stdout with normal output, like fio) */
	if ((w->ops->flags & ENGINE_F_SYNC) && job->iodepth > 1)
		fprintf(w->info ? w->info : w->diag, "note: both iodepth >= 1 and synchronous I/O engine are selected, "
			"queue depth will be capped at 1\n");
	worker_set_state(w, ETA_ST_SETUP);
	if (worker_setup(w, &err) < 0) {
		fprintf(w->diag, "%s\n", err.msg);
		worker_set_error(w, err.code ? err.code : EINVAL, "backend.c:0", "job setup");
		goto out;
	}

	worker_rusage(&w->ru0);
	w->start_ns = w->sample_t0_ns = w->now_ns = clock_src_now(w->clk);
	w->iops_t0_ns = w->start_ns;
	w->bw_win_ns = iolog_sample_ms(job, IOLOG_BW) * CLOCK_NS_PER_MS;	/* logs may change the windows */
	w->iops_win_ns = iolog_sample_ms(job, IOLOG_IOPS) * CLOCK_NS_PER_MS;
	if (iolog_job_wants(job)) {
		w->iolog = malloc(sizeof(*w->iolog));
		if (!w->iolog || iolog_job_init(w->iolog, job) < 0) {
			fprintf(w->diag, "fio: %s: out of memory for its logs\n", job->name);
			free(w->iolog);
			w->iolog = NULL;
			worker_set_error(w, ENOMEM, "backend.c:0", "job setup");
			goto out;
		}
	}
	if (job->ramp_time_ns) {
		w->in_ramp = true;
		w->ramp_end_ns = w->start_ns + job->ramp_time_ns;
	}
	if (job->runtime_ns)
		w->deadline_ns = w->start_ns + job->ramp_time_ns + job->runtime_ns;
	w->publish_ns = w->start_ns + RUNNER_PROGRESS_NS;
	w->vseg_t0_ns = w->start_ns;	/* verify */
	{
		uint64_t t = clock_now_ns();

		atomic_store_explicit(&w->prog->start_ns, t, memory_order_relaxed);
		uint64_t once = job->io_size ? job->io_size : w->ts->jobs[w->idx].total_size;
		uint64_t loops = job->loops ? job->loops : 1;
		uint64_t total = once > UINT64_MAX / loops ? UINT64_MAX : once * loops;

		if (w->vfy_phases && total <= UINT64_MAX / 2)	/* verify: fio's ETA counts the read-back (the written share of a mix) */
			total += total / 100 * (job->rw_has_read ? 100 - job->rwmixread : 100);
		atomic_store_explicit(&w->prog->bytes_total, total, memory_order_relaxed);
		atomic_store_explicit(&w->prog->epoch_ns, t, memory_order_relaxed);
	}
	worker_set_state(w, w->in_ramp ? ETA_ST_RAMP : eta_run_char(job));
	worker_plan_check(w);
	worker_rate_setup(w);	/* rate */

	worker_loop(w);
	worker_publish(w);
	worker_set_state(w, ETA_ST_FINISHING);
	worker_end_fsync(w);
	end = clock_src_now(w->clk);
	if (w->iolog)	/* logs: close the open windows */
		iolog_finish(w->iolog, (end - w->start_ns) / CLOCK_NS_PER_MS);

	worker_cpu(w, res);
	for (int d = 0; d < DDIR_NR; d++)
		if (res->ddir[d].io_bytes)
			res->ddir[d].runtime_us = clock_us_between(w->start_ns, end);
	if (w->nr_vphases) {	/* verify: fio adds I/O segments and verify phases up per direction */
		uint64_t t0 = w->vseg_t0_ns > w->start_ns ? w->vseg_t0_ns : w->start_ns;
		uint64_t tail = end > t0 ? end - t0 : 0;
		uint64_t io_ns = w->vio_ns + (w->vfy_in_phase ? 0 : tail);
		uint64_t rd_ns = w->vread_ns + (w->vfy_in_phase ? tail : 0);

		if (res->ddir[DDIR_WRITE].io_bytes)
			res->ddir[DDIR_WRITE].runtime_us = io_ns / CLOCK_NS_PER_US;
		if (res->ddir[DDIR_READ].io_bytes)
			res->ddir[DDIR_READ].runtime_us = ((job->rw_has_read ? io_ns : 0) + rd_ns) / CLOCK_NS_PER_US;
	}
	res->run_ms = (end - w->start_ns) / CLOCK_NS_PER_MS;
	res->elapsed_s = (end - w->run_t0_ns + CLOCK_NS_PER_SEC - 1) / CLOCK_NS_PER_SEC;

out:
	worker_teardown(w);
	if (!(w->ops->flags & ENGINE_F_BURN))	/* cpuio's exit_on_io_done counts these */
		atomic_fetch_sub_explicit(w->io_jobs_left, 1, memory_order_release);
	if (w->error)
		fprintf(w->diag, "fio: pid=%d, err=%d/%s\n", res->pid, res->error, res->verror);
	else if (job->unlink)
		target_unlink(w->ts, w->idx, w->diag);
	atomic_store_explicit(&w->prog->snap_final, true, memory_order_release);	/* status-interval */
	worker_set_state(w, ETA_ST_EXITED);
	return NULL;
}

/* ---- scheduling ------------------------------------------------------------------------- */

/* A job that will not run after all: no longer awaited by cpuio's exit_on_io_done. */
static void runner_io_job_gone(struct runner_thread *t)
{
	if (!(t->w.ops->flags & ENGINE_F_BURN))
		atomic_fetch_sub_explicit(t->w.io_jobs_left, 1, memory_order_release);
}

static void runner_join(struct runner_thread *t)
{
	if (t->started && !t->joined) {
		pthread_join(t->tid, NULL);
		t->joined = true;
		worker_set_state(&t->w, t->w.error ? ETA_ST_REAPED_ERR : ETA_ST_REAPED);
	}
}

int runner_run(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
	       struct ctl *ctl, struct iops_err *err)
{
	return runner_run_progress(cfg, res, info, diag, ctl, err, NULL, NULL, NULL);
}

int runner_run_hooked(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
		      struct ctl *ctl, struct iops_err *err,
		      void (*after_layout)(void *arg, const bool *runs), void *arg)
{
	return runner_run_progress(cfg, res, info, diag, ctl, err, after_layout, arg, NULL);
}

int runner_run_progress(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
			struct ctl *ctl, struct iops_err *err,
			void (*after_layout)(void *arg, const bool *runs), void *arg,
			struct runner_progress *prog)
{
	struct runner_thread *threads = NULL;
	atomic_uint io_jobs_left = 0;	/* cpuio's exit_on_io_done */
	struct target_set ts;
	pthread_attr_t attr;
	bool *diskless = NULL;
	struct clock_src clk;
	uint64_t t0;
	int ret, failed = 0;

	if (!cfg->nr_jobs)
		return 0;
	diskless = calloc(cfg->nr_jobs, sizeof(*diskless));
	threads = calloc(cfg->nr_jobs, sizeof(*threads));
	if (!diskless || !threads) {
		free(diskless);
		free(threads);
		iops_err_set(err, ENOMEM, "fio: out of memory");
		return -ENOMEM;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct engine_ops *ops = engine_find(cfg->jobs[j].ioengine);

		if (!ops) {
			iops_err_set(err, EINVAL, "fio: engine %s not loadable (iops has: %s)", cfg->jobs[j].ioengine,
				     engine_names());
			ret = -EINVAL;
			goto free_arrays;
		}
		threads[j].w.ops = ops;
		threads[j].w.prog = prog ? &prog[j] : &threads[j].w.prog_local;
		diskless[j] = (ops->flags & ENGINE_F_DISKLESS) != 0;
	}

	ret = iolog_check(cfg, err);	/* logs: refuse before anything is touched */
	if (ret < 0)
		goto free_arrays;
	ret = target_plan(&ts, cfg, diskless, err);
	if (ret < 0)
		goto free_arrays;
	ret = target_layout(&ts, info, ctl, err);
	if (ret < 0)
		goto release_targets;
	if (ctl_stopped(ctl)) {
		ret = 0;
		goto release_targets;
	}
	if (after_layout) {
		for (unsigned j = 0; j < cfg->nr_jobs; j++)
			diskless[j] = !ts.jobs[j].error;	/* reused as "runs" */
		after_layout(arg, diskless);
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		threads[j].w.io_jobs_left = &io_jobs_left;
		if (ts.jobs[j].error)	/* will not run: shown as failed from the start */
			worker_set_state(&threads[j].w, ETA_ST_REAPED_ERR);
		else if (!(threads[j].w.ops->flags & ENGINE_F_BURN))
			atomic_fetch_add_explicit(&io_jobs_left, 1, memory_order_relaxed);
	}
	clock_src_init(&clk);
	t0 = clock_src_now(&clk);

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RUNNER_STACK_BYTES);
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		struct runner_thread *t = &threads[j];
		int r;

		if (job->stonewall && job->subjob == 0)
			for (unsigned k = 0; k < j; k++)
				runner_join(&threads[k]);
		if (job->wait_for >= 0 && (unsigned)job->wait_for < j) {
			/* fio waits while any job of that name runs: every clone of it */
			const char *waitee = cfg->jobs[job->wait_for].name;

			for (unsigned k = 0; k < j; k++)
				if (!strcmp(cfg->jobs[k].name, waitee))
					runner_join(&threads[k]);
		}
		res[j]->job = job;
		if (ts.jobs[j].error) {
			fprintf(diag, "%s: you need to specify size=\n"
				"fio: pid=0, err=22/file:filesetup.c:1155, func=total_file_size, error=Invalid argument\n",
				job->name);
			res[j]->error = EINVAL;
			res[j]->not_run = true;
			snprintf(res[j]->verror, sizeof(res[j]->verror),
				 "file:filesetup.c:1155, func=total_file_size, error=Invalid argument");
			continue;	/* never counted in io_jobs_left */
		}
		if (ctl_stopped(ctl)) {
			runner_io_job_gone(t);
			continue;
		}
		t->w.job = job;
		t->w.res = res[j];
		t->w.ctl = ctl;
		t->w.diag = diag;
		t->w.info = info;
		t->w.ts = &ts;
		t->w.idx = j;
		t->w.run_t0_ns = t0;
		t->w.clk = &clk;
		r = pthread_create(&t->tid, &attr, worker_main, &t->w);
		if (r) {
			res[j]->error = r;
			snprintf(res[j]->verror, sizeof(res[j]->verror), "file:backend.c:0, func=pthread_create, error=%s",
				 strerror(r));
			fprintf(diag, "fio: cannot start job %s: %s\n", job->name, strerror(r));
			runner_io_job_gone(t);
			continue;
		}
		t->started = true;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		runner_join(&threads[j]);
	pthread_attr_destroy(&attr);
	for (unsigned j = 0; j < cfg->nr_jobs; j++)	/* logs: written once every job is done, in job order */
		if (threads[j].w.iolog) {
			(void)iolog_write(threads[j].w.iolog, &cfg->jobs[j], diag);
			iolog_job_release(threads[j].w.iolog);
			free(threads[j].w.iolog);
		}
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (res[j]->error)
			failed++;
	ret = failed;

release_targets:
	target_release(&ts);
free_arrays:
	free(diskless);
	free(threads);
	return ret;
}

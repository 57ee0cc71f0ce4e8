/* SPDX-License-Identifier: MIT */
/* runner: the jobs as threads: each job's thread (worker_main: placement, set-up, the I/O loop,
 * final figures, teardown), what a job that ends ends of the others (exitall), and the join of a
 * thread (or its abandonment when it will not end). The run's stages, which start and join the
 * threads, are in runner_stages.c; the job's parts in runner_setup.c, runner_io.c,
 * runner_stats.c, runner_rate.c and runner_verify.c (runner_int.h). */
#include "fio/run/runner_int.h"
#include "fio/ioprio.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fio/debug.h"
#include "fio/progress/eta.h"
#include "sys/cpuset.h"
#include "core/err.h"

static void runner_exit_others(struct worker *w)
{
	const struct job *job = w->job;
	struct runner_exit *ex = w->exit;
	/* exitall_on_error ends the jobs running now (fio: a later stonewall still starts) */
	unsigned what = w->error && job->exitall_on_error ? EXIT_STONEWALL : job->exit_what;

	if (!ex || !(job->exitall || (w->error && job->exitall_on_error)))
		return;
	for (unsigned k = 0; k < ex->cfg->nr_jobs; k++) {
		const struct job *o = &ex->cfg->jobs[k];

		if (k == job->job_index || (what == EXIT_GROUP && o->group_id != job->group_id) ||
		    (what == EXIT_STONEWALL && o->segment != job->segment))
			continue;
		atomic_store_explicit(&ex->threads[k].w.killed, true, memory_order_relaxed);
	}
	if (what == EXIT_ALL)
		atomic_store_explicit(&ex->no_more, true, memory_order_relaxed);
}

/* ---- the job's thread ------------------------------------------------------------------- */

/* cpumask / cpus_allowed (split: one CPU per job, by thread number, as fio), numa_cpu_nodes,
 * numa_mem_policy: before the job allocates anything, so its buffers follow the policy. */
static int worker_place(struct worker *w)
{
	const struct job *job = w->job;
	int ret;

	if (job->mpol_set && (ret = cpuset_apply_mpol(job->mpol_mode, &job->mpol_nodes)) < 0)
		fprintf(w->diag, "set_mempolicy: %s\n", err_str(-ret));	/* fio goes on too */
	if (job->cpus_set || job->numa_cpus_set) {
		struct cpuset set = job->cpus_set ? job->cpus : job->numa_cpus;

		if (job->cpus_set && job->numa_cpus_set)
			for (unsigned i = 0; i < CPUSET_WORDS; i++)
				set.bits[i] &= job->numa_cpus.bits[i];
		if (job->cpus_split)
			cpuset_split(&set, job->thread_number - 1);
		ret = cpuset_apply(&set);
		if (ret < 0) {
			worker_set_error(w, -ret, "backend.c:1716", "cpu_set_affinity");
			return ret;
		}
	}
	return 0;
}

/* ms since the epoch (CLOCK_REALTIME), for job_start */
static uint64_t runner_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct job_result *res = w->res;
	struct iops_err err = { 0 };
	uint64_t end;

	res->job = job;
	res->pid = (int)syscall(SYS_gettid);
	res->cont_on_err = job->cont_on_err != 0;	/* continue_on_error: fio's errors line */
	worker_debug(w, DEBUG_PROCESS, "jobs pid=%d started", res->pid);	/* --debug=process */
	if (job->startdelay_ns && !ctl_sleep_until(w->ctl, clock_now_ns() + job->startdelay_ns))
		return;
	if (ctl_stopped(w->ctl))
		return;
	if (worker_proc_ids(w) < 0)	/* gid, uid: first, as fio */
		goto out;
	if (worker_place(w) < 0)
		goto out;

	w->clat_on = !job->disable_clat && !job->gtod_reduce;
	w->max_lat_on = job->max_latency_ns[DDIR_READ] || job->max_latency_ns[DDIR_WRITE] ||
			job->max_latency_ns[DDIR_TRIM];
	w->lt_on = job->lat_target_ns > 0;	/* latency_target: judged on the total latency, like max_latency */
	w->max_lat_on = w->max_lat_on || w->lt_on;
	w->lat_on = (!job->disable_lat && !job->gtod_reduce) || w->max_lat_on;	/* max_latency needs it */
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
	if (ioprio_set_thread(job) < 0) {	/* prio, prioclass */
		int e = errno;

		fprintf(w->diag, "fio: ioprio_set: %s\n", err_str(e));
		worker_set_error(w, e, "backend.c:0", "ioprio_set");
		goto out;
	}
	if (worker_proc_enter(w) < 0)	/* lockmem, cgroup, nice, ioscheduler, exec_prerun */
		goto out;
	if (worker_setup(w, &err) < 0) {
		fprintf(w->diag, "%s\n", err.msg);
		worker_set_error(w, err.code ? err.code : EINVAL, "backend.c:0", "job setup");
		goto out;
	}
	if (job->write_hint && !worker_write_hint(w))	/* write_hint */
		goto out;

	worker_debug(w, DEBUG_PROCESS, "pid=%d: runstate CREATED -> INITIALIZED", res->pid);
	worker_rusage(&w->ru0);
	w->start_ns = w->sample_t0_ns = w->now_ns = clock_src_now(w->clk);
	if (w->gate) {	/* flow: start with the jobs launched together, at their common start */
		w->start_ns = w->sample_t0_ns = flow_gate_wait(w->gate, w->clk);
		w->now_ns = clock_src_now(w->clk);
		w->gate_passed = true;
		worker_rusage(&w->ru0);
	}
	w->iops_t0_ns = w->start_ns;
	res->job_start_ms = runner_epoch_ms();	/* JSON's job_start (a server's run): the wall clock now */
	w->bw_win_ns = iolog_sample_ms(job, IOLOG_BW) * CLOCK_NS_PER_MS;	/* logs may change the windows */
	w->iops_win_ns = iolog_sample_ms(job, IOLOG_IOPS) * CLOCK_NS_PER_MS;
	if (iolog_job_wants(job)) {
		w->iolog = malloc(sizeof(*w->iolog));
		int r = w->iolog ? iolog_job_init(w->iolog, job, &err) : -ENOMEM;

		if (r < 0) {
			if (w->iolog)
				iolog_job_release(w->iolog);
			else
				iops_err_set(&err, ENOMEM, "fio: %s: out of memory for its logs", job->name);
			fprintf(w->diag, "%s\n", err.msg);
			free(w->iolog);
			w->iolog = NULL;
			worker_set_error(w, -r, "backend.c:0", "job setup");
			goto out;
		}
	}
	if (histlog_wanted(job)) {	/* write_hist_log */
		w->hlog = malloc(sizeof(*w->hlog));
		if (!w->hlog || histlog_init(w->hlog, job) < 0) {
			fprintf(w->diag, "fio: %s: out of memory for its logs\n", job->name);
			if (w->hlog)
				histlog_release(w->hlog);
			free(w->hlog);
			w->hlog = NULL;
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
	if ((job->write_iolog || job->replay_log) && !worker_iolog_start(w))	/* iolog */
		goto out;
	worker_set_state(w, w->in_ramp ? ETA_ST_RAMP : eta_run_char(job));
	if (w->ss_unit)	/* steady state */
		ss_member_start(&w->ss, w->ss_unit, w->ss_idx, w->start_ns);
	worker_plan_check(w);
	worker_rate_setup(w);	/* rate */

	worker_debug(w, DEBUG_PROCESS, "pid=%d: runstate INITIALIZED -> RUNNING", res->pid);
	if (w->lt_on)	/* latency_target: from depth 1 */
		worker_lat_start(w);
	if (!job->create_only)	/* create_only: the files are laid out, nothing more */
		worker_loop(w);
	if (w->lt_on)
		res->lat_depth = w->lt.qd;
	worker_debug(w, DEBUG_PROCESS, "pid=%d: runstate RUNNING -> FINISHING", res->pid);
	ss_member_exit(&w->ss);	/* steady state */
	worker_publish(w);
	worker_set_state(w, ETA_ST_FINISHING);
	worker_end_fsync(w);
	worker_iolog_end(w);	/* iolog */
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
	if (w->vonly)	/* verify_only: fio's skipped writes take no time */
		res->ddir[DDIR_WRITE].runtime_us = 0;
	res->run_ms = (end - w->start_ns) / CLOCK_NS_PER_MS;
	res->elapsed_s = (end - w->run_t0_ns + CLOCK_NS_PER_SEC - 1) / CLOCK_NS_PER_SEC;

out:
	runner_exit_others(w);	/* exitall */
	worker_iolog_end(w);	/* iolog: after a failed start */
	worker_teardown(w);
	worker_proc_leave(w);	/* exec_postrun, lockmem */
	if (!(w->ops->flags & ENGINE_F_BURN))	/* cpuio's exit_on_io_done counts these */
		atomic_fetch_sub_explicit(w->io_jobs_left, 1, memory_order_release);
	if (w->error)
		fprintf(w->diag, "fio: pid=%d, err=%d/%s\n", res->pid, res->error, res->verror);
	else if (job->unlink)
		target_unlink(w->ts, w->idx, w->diag);
	atomic_store_explicit(&w->prog->snap_final, true, memory_order_release);	/* status-interval */
	worker_debug(w, DEBUG_PROCESS, "pid=%d: runstate FINISHING -> EXITED", res->pid);
	worker_set_state(w, ETA_ST_EXITED);
	return;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;

	worker_run(w);
	if (w->gate && !w->gate_passed)
		flow_gate_skip(w->gate);
	if (w->flow)	/* flow: as in fio, a job's weight counts until it ends */
		flow_leave(w->flow, w->job->flow, w->flow_ios);
	return NULL;
}

/* ---- scheduling ------------------------------------------------------------------------- */

/* A job that will not run after all: no longer awaited by cpuio's exit_on_io_done. */
void runner_io_job_gone(struct runner_thread *t)
{
	if (!(t->w.ops->flags & ENGINE_F_BURN))
		atomic_fetch_sub_explicit(t->w.io_jobs_left, 1, memory_order_release);
}

/* A job whose thread is stuck in the kernel: report what it completed (a copy of its results,
 * which the thread may still write to should its I/O ever return) and leave the thread. */
static void runner_abandon(struct runner_thread *t, struct job_result **res, bool stopped, uint64_t now)
{
	struct worker *w = &t->w;
	struct job_result *snap = malloc(sizeof(*snap));
	uint64_t end = w->deadline_ns && now > w->deadline_ns ? w->deadline_ns : now;	/* runtime: its end */
	uint64_t ran = end > w->start_ns && w->start_ns ? end - w->start_ns : 0;

	t->abandoned = t->joined = true;
	if (!snap)
		snap = w->res;	/* no copy: the live results, as they are */
	else
		memcpy(snap, w->res, sizeof(*snap));
	for (int d = 0; d < DDIR_NR; d++)
		if (snap->ddir[d].io_bytes && !snap->ddir[d].runtime_us)
			snap->ddir[d].runtime_us = ran / CLOCK_NS_PER_US;
	if (!snap->run_ms)
		snap->run_ms = ran / CLOCK_NS_PER_MS;
	if (!snap->elapsed_s)
		snap->elapsed_s = (now - w->run_t0_ns + CLOCK_NS_PER_SEC - 1) / CLOCK_NS_PER_SEC;
	snap->abandoned = true;
	snap->abandoned_ios = w->in_flight ? w->in_flight : 1;
	if (!stopped && !snap->error) {
		snap->error = ETIMEDOUT;
		snprintf(snap->verror, sizeof(snap->verror), "file:backend.c:0, func=stalled I/O, error=%s",
			 err_str(ETIMEDOUT));
	}
	fprintf(w->diag, "fio: %s: %u I/O stalled, abandoned (not counted)\n", w->job->name, snap->abandoned_ios);
	res[w->idx] = snap;
	worker_set_state(w, ETA_ST_REAPED_ERR);
}

/* Join t's thread, unless it is stuck in the kernel (RUNNER_STOP_WAIT_NS after a stop, or
 * RUNNER_STALL_NS past its runtime with nothing completed meanwhile, while still in its I/O
 * loop: end_fsync and fsync_on_close may rightly take longer on slow storage): then abandon it. */
void runner_join(struct runner_thread *t, struct job_result **res)
{
	uint64_t stop_ns = 0, seen = UINT64_MAX, moved_ns = 0;

	if (t->started && !t->joined) {
		for (;;) {
			struct timespec ts;
			uint64_t now, done = 0;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50000000;	/* 50 ms */
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			if (pthread_timedjoin_np(t->tid, NULL, &ts) == 0)
				break;
			now = clock_src_now(t->w.clk);
			for (int d = 0; d < DDIR_NR; d++)
				done += t->w.res->ddir[d].total_ios;
			if (done != seen)
				seen = done, moved_ns = now;
			if (!stop_ns && ctl_stopped(t->w.ctl))
				stop_ns = now;
			if ((stop_ns && now - stop_ns > RUNNER_STOP_WAIT_NS) ||
			    (t->w.deadline_ns && now > t->w.deadline_ns + RUNNER_STALL_NS && now - moved_ns > RUNNER_STALL_NS &&
			     atomic_load_explicit(&t->w.prog->state, memory_order_relaxed) != ETA_ST_FINISHING)) {
				runner_abandon(t, res, stop_ns != 0, now);
				return;
			}
		}
		t->joined = true;
		worker_debug(&t->w, DEBUG_PROCESS, "pid=%d: runstate EXITED -> REAPED", t->w.res->pid);
		worker_set_state(&t->w, t->w.error ? ETA_ST_REAPED_ERR : ETA_ST_REAPED);
	}
}

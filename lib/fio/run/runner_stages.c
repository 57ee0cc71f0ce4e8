/* SPDX-License-Identifier: MIT */
/* runner_stages: the run (fio/run/runner.h) as its stages: check, plan, lay out, start (the
 * jobs in order, stonewall and wait_for), finish, clean up; steady state's units across the
 * jobs. The jobs' threads are runner.c's (worker_main, runner_join). */
#include "fio/run/runner_int.h"
#include "fio/log/blktrace.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fio/progress/eta.h"
#include "core/err.h"

/* steady state: one unit per job with ss_dur, or per group with group_reporting (the unit of
 * job j is units[unit_of[j]]). */
struct runner_ss {
	struct ss_unit *units;
	unsigned *unit_of;
	unsigned nr;
};

static int runner_ss_setup(struct runner_ss *rs, const struct fio_config *cfg)
{
	unsigned *members;

	memset(rs, 0, sizeof(*rs));
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (cfg->jobs[j].ss.dur_ns)
			break;
		else if (j + 1 == cfg->nr_jobs)
			return 0;
	rs->units = calloc(cfg->nr_jobs, sizeof(*rs->units));
	rs->unit_of = calloc(cfg->nr_jobs, sizeof(*rs->unit_of));
	members = calloc(cfg->nr_jobs, sizeof(*members));
	if (!rs->units || !rs->unit_of || !members)
		goto nomem;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		unsigned u = rs->nr;

		if (job->group_reporting)
			for (unsigned k = 0; k < j; k++)
				if (cfg->jobs[k].group_reporting && cfg->jobs[k].group_id == job->group_id) {
					u = rs->unit_of[k];
					break;
				}
		if (u == rs->nr)
			rs->nr++;
		rs->unit_of[j] = u;
		members[u]++;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		unsigned u = rs->unit_of[j];

		if (!rs->units[u].active && cfg->jobs[j].ss.dur_ns &&
		    ss_unit_init(&rs->units[u], &cfg->jobs[j].ss, members[u]))
			goto nomem;
	}
	free(members);
	return 0;
nomem:
	free(members);
	if (rs->units)
		for (unsigned u = 0; u < rs->nr; u++)
			ss_unit_release(&rs->units[u]);
	free(rs->units);
	free(rs->unit_of);
	memset(rs, 0, sizeof(*rs));
	return -ENOMEM;
}

/* Each job of a unit gets the unit's outcome in its result (fio reports the group's). */
static void runner_ss_finish(struct runner_ss *rs, const struct fio_config *cfg, struct job_result **res)
{
	if (!rs->units)
		return;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct ss_unit *u = &rs->units[rs->unit_of[j]];

		if (u->active && cfg->jobs[j].ss.dur_ns && !res[j]->not_run) {
			free(res[j]->ss);
			res[j]->ss = ss_unit_result(u);
		}
	}
	for (unsigned u = 0; u < rs->nr; u++)
		ss_unit_release(&rs->units[u]);
	free(rs->units);
	free(rs->unit_of);
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

/* ---- the run: its stages ----------------------------------------------------------------- */

/* One run, from its checks to its clean-up. Each stage calls the entry points of the folder
 * that owns the feature (logs, process options, verify state, steady state, flow, files); the
 * workers point into it (exit, targets, clock, flow gate, process options, io_jobs_left). */
struct run {
	const struct fio_config *cfg;
	struct job_result **res;
	FILE *info, *diag;
	struct ctl *ctl;
	struct iops_err *err;
	struct runner_progress *prog;	/* the caller's, per job, or NULL */
	struct runner_thread *threads;
	struct runner_exit ex;
	struct runner_ss rss;
	struct proc_run pr;		/* memory and process options */
	atomic_uint io_jobs_left;	/* cpuio's exit_on_io_done */
	struct target_set ts;
	struct flow_set flows;
	bool flows_on, targets_on;	/* what the clean-up releases */
	bool no_start;			/* stopped during the layout: no job starts */
	bool abandoned;			/* a thread that would not end: its state is kept */
	bool *diskless;			/* per job; after the layout, "runs" (after_layout) */
	struct clock_src clk;
	struct vstate **vstates;	/* verify_state_load, per job */
	uint64_t t0;
};

static int run_nomem(struct run *r)
{
	iops_err_set(r->err, ENOMEM, "fio: out of memory");
	return -ENOMEM;
}

/* Each job's engine, found and attached to its worker. */
static int run_engines(struct run *r)
{
	const struct fio_config *cfg = r->cfg;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct worker *w = &r->threads[j].w;
		const struct engine_ops *ops = engine_find(cfg->jobs[j].ioengine);

		atomic_init(&w->killed, false);
		if (!ops) {
			iops_err_set(r->err, EINVAL, "fio: engine %s not loadable (iops has: %s)",
				     cfg->jobs[j].ioengine, engine_names());
			return -EINVAL;
		}
		w->ops = ops;
		worker_io_attach(w);
		w->prog = r->prog ? &r->prog[j] : &w->prog_local;
		r->diskless[j] = (ops->flags & ENGINE_F_DISKLESS) != 0;
	}
	return 0;
}

/* Steady state: each job with ss_dur gets its unit and its place in it. */
static int run_steady_state(struct run *r)
{
	const struct fio_config *cfg = r->cfg;

	if (runner_ss_setup(&r->rss, cfg))
		return run_nomem(r);
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (r->rss.units && cfg->jobs[j].ss.dur_ns) {
			unsigned u = r->rss.unit_of[j], idx = 0;

			for (unsigned k = 0; k < j; k++)
				idx += r->rss.unit_of[k] == u;
			r->threads[j].w.ss_unit = &r->rss.units[u];
			r->threads[j].w.ss_idx = idx;
		}
	return 0;
}

/* Check: everything that can refuse the run does so here, before anything is touched. */
static int run_check(struct run *r)
{
	const struct fio_config *cfg = r->cfg;
	int ret;

	r->diskless = calloc(cfg->nr_jobs, sizeof(*r->diskless));
	r->threads = calloc(cfg->nr_jobs, sizeof(*r->threads));
	r->vstates = calloc(cfg->nr_jobs, sizeof(*r->vstates));
	if (!r->diskless || !r->threads || !r->vstates)
		return run_nomem(r);
	r->ex.cfg = cfg;
	r->ex.threads = r->threads;
	atomic_init(&r->ex.no_more, false);
	if ((ret = run_engines(r)) < 0 ||
	    (ret = iolog_check(cfg, r->err)) < 0 ||		/* bw/iops/lat logs */
	    (ret = iolog_write_check(cfg, r->err)) < 0 ||	/* write_iolog */
	    (ret = histlog_check(cfg, r->err)) < 0 ||		/* write_hist_log */
	    (ret = proc_run_init(&r->pr, cfg, r->err)) < 0 ||	/* huge pages, lockmem, cgroups */
	    (ret = runner_vstate_load(cfg, r->vstates, r->err)) < 0 ||	/* verify_state_load */
	    (ret = run_steady_state(r)) < 0)
		return ret;
	if (flow_set_init(&r->flows, cfg) < 0)
		return run_nomem(r);
	r->flows_on = true;
	return 0;
}

/* Plan: the files each job uses, and their zones. */
static int run_plan(struct run *r)
{
	int ret = target_plan(&r->ts, r->cfg, r->diskless, r->err);

	if (ret < 0)
		return ret;
	r->targets_on = true;
	ret = target_zbd_plan(&r->ts, r->info, r->err);
	return ret < 0 ? ret : 0;
}

/* Lay out: the files made and filled; merge_blktrace_file written (once per job); then the
 * caller's hook (the start barrier of a server) learns which jobs will run. */
static int run_lay_out(struct run *r, void (*after_layout)(void *arg, const bool *runs), void *arg)
{
	const struct fio_config *cfg = r->cfg;
	int ret = target_layout(&r->ts, r->info, r->ctl, r->err);

	if (ret < 0)
		return ret;
	if (ctl_stopped(r->ctl)) {
		r->no_start = true;
		return 0;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (cfg->jobs[j].merge_blktrace_file && cfg->jobs[j].subjob == 0 &&
		    (ret = blktrace_merge_write(&cfg->jobs[j], r->err)) < 0)
			return ret;
	if (after_layout) {
		for (unsigned j = 0; j < cfg->nr_jobs; j++)
			r->diskless[j] = !r->ts.jobs[j].error;	/* reused as "runs" */
		after_layout(arg, r->diskless);
	}
	return 0;
}

static void run_close_gate(struct run *r)
{
	if (r->flows.gate_ok)	/* flow: the jobs launched so far may start */
		flow_gate_close(&r->flows.gate);
}

/* stonewall and wait_for: job j starts once the jobs it waits for have ended. */
static void run_wait_for(struct run *r, unsigned j)
{
	const struct fio_config *cfg = r->cfg;
	const struct job *job = &cfg->jobs[j];

	if (job->stonewall && job->subjob == 0) {
		run_close_gate(r);
		for (unsigned k = 0; k < j; k++)
			runner_join(&r->threads[k], r->res);
	}
	if (job->wait_for >= 0 && (unsigned)job->wait_for < j) {
		/* fio waits while any job of that name runs: every clone of it */
		const char *waitee = cfg->jobs[job->wait_for].name;

		run_close_gate(r);
		for (unsigned k = 0; k < j; k++)
			if (!strcmp(cfg->jobs[k].name, waitee))
				runner_join(&r->threads[k], r->res);
	}
}

/* Job j does not start: no size (failed from the start), a stop, or exit_what=all. */
static bool run_skips(struct run *r, unsigned j)
{
	const struct job *job = &r->cfg->jobs[j];
	struct job_result *res = r->res[j];

	if (r->ts.jobs[j].error || ctl_stopped(r->ctl)) {	/* flow: never runs, weighs nothing */
		struct flow *f = flow_set_of(&r->flows, job);

		if (f)
			flow_leave(f, job->flow, 0);
	}
	if (r->ts.jobs[j].error) {
		fprintf(r->diag, "%s: you need to specify size=\n"
			"fio: pid=0, err=22/file:filesetup.c:1155, func=total_file_size, error=Invalid argument\n",
			job->name);
		res->error = EINVAL;
		res->not_run = true;
		snprintf(res->verror, sizeof(res->verror),
			 "file:filesetup.c:1155, func=total_file_size, error=Invalid argument");
		return true;	/* never counted in io_jobs_left */
	}
	if (ctl_stopped(r->ctl) || atomic_load_explicit(&r->ex.no_more, memory_order_relaxed)) {
		runner_io_job_gone(&r->threads[j]);
		return true;
	}
	return false;
}

/* Job j's thread, given what it points to of the run, started. */
static void run_launch(struct run *r, unsigned j, const pthread_attr_t *attr)
{
	const struct job *job = &r->cfg->jobs[j];
	struct runner_thread *t = &r->threads[j];
	struct worker *w = &t->w;
	int e;

	w->job = job;
	w->vs_load = r->vstates[j];	/* verify_state_load */
	w->exit = &r->ex;
	w->res = r->res[j];
	w->ctl = r->ctl;
	w->diag = r->diag;
	w->info = r->info;
	w->ts = &r->ts;
	w->idx = j;
	w->run_t0_ns = r->t0;
	w->clk = &r->clk;
	w->flow = flow_set_of(&r->flows, job);
	/* flow: a job with a startdelay starts on its own, as fio launches it later */
	w->gate = w->flow && !job->startdelay_ns ? &r->flows.gate : NULL;
	if (w->gate)
		flow_gate_starting(w->gate);
	w->dbg_out = r->cfg->debug_mask ? r->cfg->debug_out : NULL;	/* --debug */
	w->dbg_mask = r->cfg->debug_mask;
	w->proc = &r->pr;
	e = pthread_create(&t->tid, attr, worker_main, w);
	if (!e) {
		t->started = true;
		return;
	}
	if (w->gate)
		flow_gate_failed(w->gate);
	if (w->flow)
		flow_leave(w->flow, job->flow, 0);
	w->res->error = e;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:backend.c:0, func=pthread_create, error=%s",
		 err_str(e));
	fprintf(r->diag, "fio: cannot start job %s: %s\n", job->name, err_str(e));
	runner_io_job_gone(t);
}

/* Start: the jobs in order, each after those it waits for; then wait for all of them. */
static void run_start(struct run *r)
{
	const struct fio_config *cfg = r->cfg;
	pthread_attr_t attr;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct worker *w = &r->threads[j].w;

		w->io_jobs_left = &r->io_jobs_left;
		if (r->ts.jobs[j].error)	/* will not run: shown as failed from the start */
			worker_set_state(w, ETA_ST_REAPED_ERR);
		else if (!(w->ops->flags & ENGINE_F_BURN))
			atomic_fetch_add_explicit(&r->io_jobs_left, 1, memory_order_relaxed);
	}
	clock_src_init(&r->clk);
	r->t0 = clock_src_now(&r->clk);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RUNNER_STACK_BYTES);
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		run_wait_for(r, j);
		r->res[j]->job = &cfg->jobs[j];
		if (!run_skips(r, j))
			run_launch(r, j, &attr);
	}
	run_close_gate(r);
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		runner_join(&r->threads[j], r->res);
	pthread_attr_destroy(&attr);
}

/* Finish: the logs written once every job is done, in job order; the failed jobs counted. */
static int run_finish(struct run *r)
{
	const struct fio_config *cfg = r->cfg;
	int failed = 0;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		struct worker *w = &r->threads[j].w;

		if (w->iolog) {
			(void)iolog_write(w->iolog, &cfg->jobs[j], r->diag);
			iolog_job_release(w->iolog);
			free(w->iolog);
		}
		if (w->hlog) {	/* write_hist_log */
			(void)histlog_write(w->hlog, &cfg->jobs[j], r->diag);
			histlog_release(w->hlog);
			free(w->hlog);
		}
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		if (r->res[j]->error && !r->res[j]->err_continued)
			failed++;
		r->abandoned |= r->threads[j].abandoned;
	}
	return failed;
}

/* Clean up: a failed or stopped run leaves nothing it created; schedulers restored, cgroups
 * removed; each job gets its steady-state outcome. */
static void run_clean_up(struct run *r, int ret)
{
	if (r->targets_on) {
		if (ctl_settle(r->ctl) || ret)
			target_remove_created(&r->ts);
		target_release(&r->ts);
	}
	if (r->flows_on)
		flow_set_release(&r->flows);
	proc_run_finish(&r->pr, r->diag);
	for (unsigned j = 0; r->vstates && j < r->cfg->nr_jobs; j++)
		free(r->vstates[j]);
	free(r->vstates);
	runner_ss_finish(&r->rss, r->cfg, r->res);
	free(r->diskless);
	free(r->threads);
}

int runner_run_progress(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
			struct ctl *ctl, struct iops_err *err,
			void (*after_layout)(void *arg, const bool *runs), void *arg,
			struct runner_progress *prog)
{
	struct run r = { .cfg = cfg, .res = res, .info = info, .diag = diag, .ctl = ctl, .err = err,
			 .prog = prog };
	int ret;

	if (!cfg->nr_jobs)
		return 0;
	ret = run_check(&r);
	if (!ret)
		ret = run_plan(&r);
	if (!ret)
		ret = run_lay_out(&r, after_layout, arg);
	if (!ret && !r.no_start) {
		run_start(&r);
		ret = run_finish(&r);
		if (r.abandoned) {	/* a stuck thread still holds the run's state (and its file's
					 * lock, which an unlink would wait for): keep it all, files too */
			proc_run_finish(&r.pr, diag);
			return ret;
		}
	}
	run_clean_up(&r, ret);
	return ret;
}

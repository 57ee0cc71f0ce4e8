/* SPDX-License-Identifier: MIT */
/* runner_stats: the statistics side of a job (runner_int.h) beyond the per-I/O counters: the
 * reset at ramp end, bw/iops samples, when the periodic check (runner_check.c) is due next, cpu
 * figures, status-interval snapshots (both sides) and the per-I/O log entries. */
#include "fio/run/runner_int.h"

#include <string.h>
#include <time.h>

#include "fio/progress/eta.h"

/* ---- statistics helpers ----------------------------------------------------------------- */

void worker_rusage(struct rusage *ru)
{
	if (getrusage(RUSAGE_THREAD, ru) < 0)
		memset(ru, 0, sizeof(*ru));
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

/* Microseconds from t0 to t (0 when t is not later). */
static uint64_t tv_us_since(const struct timeval *t, const struct timeval *t0)
{
	return tv_us(t) > tv_us(t0) ? tv_us(t) - tv_us(t0) : 0;
}

static uint64_t diff_u64(long a, long b)
{
	return a > b ? (uint64_t)(a - b) : 0;
}

/* Forget everything measured so far (fio's reset_all_stats()). */
void worker_reset_stats(struct worker *w, uint64_t now)
{
	struct job_result *res = w->res;
	const struct job *job = res->job;
	int pid = res->pid;

	memset(res, 0, sizeof(*res));
	res->job = job;
	res->pid = pid;
	worker_prio_slots(w);	/* cmdprio: the priorities, with no samples */
	w->start_ns = now;
	w->sample_t0_ns = now;
	w->iops_t0_ns = now;
	memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
	memset(w->sample_ios, 0, sizeof(w->sample_ios));
	worker_rusage(&w->ru0);
	if (w->ss.u)	/* steady state: its counters restart with the job's */
		ss_member_reset(&w->ss, now);
	if (w->hlog)	/* write_hist_log */
		histlog_reset(w->hlog);
	worker_publish(w);
	atomic_store_explicit(&w->prog->epoch_ns, clock_now_ns(), memory_order_relaxed);
	worker_set_state(w, eta_run_char(job));
}

/* One bw (or iops) window is over (fio's __add_samples()): a sample per direction that moved,
 * into the summary statistics and the log; the next window starts where this one should have
 * ended, so windows do not drift. */
static void worker_sample(struct worker *w, uint64_t now, bool bw)
{
	uint64_t *t0 = bw ? &w->sample_t0_ns : &w->iops_t0_ns;
	uint64_t win = bw ? w->bw_win_ns : w->iops_win_ns;
	uint64_t spent_ms = (now - *t0) / CLOCK_NS_PER_MS;

	if (spent_ms == 0)
		return;
	for (int d = 0; d < DDIR_NR; d++) {
		struct ddir_result *dr = &w->res->ddir[d];
		uint64_t *last = bw ? &w->sample_bytes[d] : &w->sample_ios[d];
		uint64_t cur = bw ? dr->io_bytes : dr->total_ios;

		if (cur != *last) {
			uint64_t v = bw ? (cur - *last) * 1000 / spent_ms / 1024 : (cur - *last) * 1000 / spent_ms;

			lat_stat_add(bw ? &dr->bw_kib : &dr->iops, v);
			if (w->iolog)
				iolog_add(w->iolog, bw ? IOLOG_BW : IOLOG_IOPS, (now - w->start_ns) / CLOCK_NS_PER_MS, v,
					  (unsigned)d, 0, 0, 0);
		}
		*last = cur;
	}
	*t0 = now - *t0 < 2 * win ? *t0 + win : now;
}

void worker_sample_due(struct worker *w, uint64_t now)
{
	if (w->in_ramp)
		return;
	if (w->bw_win_ns && now - w->sample_t0_ns >= w->bw_win_ns)
		worker_sample(w, now, true);
	if (w->iops_win_ns && now - w->iops_t0_ns >= w->iops_win_ns)
		worker_sample(w, now, false);
}

void worker_plan_check(struct worker *w)
{
	uint64_t next = UINT64_MAX;

	if (w->in_ramp)
		next = w->ramp_end_ns;
	else if (w->bw_win_ns && (!w->iops_win_ns || w->sample_t0_ns + w->bw_win_ns <= w->iops_t0_ns + w->iops_win_ns))
		next = w->sample_t0_ns + w->bw_win_ns;
	else if (w->iops_win_ns)
		next = w->iops_t0_ns + w->iops_win_ns;
	if (w->deadline_ns && w->deadline_ns < next)
		next = w->deadline_ns;
	if (w->publish_ns < next)
		next = w->publish_ns;
	if (w->ss.u && w->ss.next_ns < next)	/* steady state */
		next = w->ss.next_ns;
	if (w->hlog && !w->in_ramp && w->hlog->due_ms != UINT64_MAX &&	/* write_hist_log */
	    w->start_ns + w->hlog->due_ms * CLOCK_NS_PER_MS < next)
		next = w->start_ns + w->hlog->due_ms * CLOCK_NS_PER_MS;
	if (w->lt_on) {	/* latency_target: a depth change asked for now, else the window's end */
		uint64_t e = w->lt_act != LAT_TARGET_NONE || w->lt_redo ? 0
			     : w->in_ramp ? UINT64_MAX : w->lt.t0_ns + w->lt.window_ns;

		if (e < next)
			next = e;
	}
	w->next_check_ns = next;
}

/* cpu figures since the job's start (getrusage of this thread): the final result and, with
 * status-interval, every snapshot. */
void worker_cpu(struct worker *w, struct job_result *r)
{
	struct rusage ru;

	worker_rusage(&ru);
	r->usr_us = tv_us_since(&ru.ru_utime, &w->ru0.ru_utime);
	r->sys_us = tv_us_since(&ru.ru_stime, &w->ru0.ru_stime);
	r->ctx = diff_u64(ru.ru_nvcsw + ru.ru_nivcsw, w->ru0.ru_nvcsw + w->ru0.ru_nivcsw);
	r->majf = diff_u64(ru.ru_majflt, w->ru0.ru_majflt);
	r->minf = diff_u64(ru.ru_minflt, w->ru0.ru_minflt);
}

/* status-interval: answer a snapshot request (runner_snapshot) with the results as of now;
 * runtimes and cpu as fio's __show_running_run_stats() computes them for a running job. */
void worker_snapshot(struct worker *w, uint64_t now)
{
	struct runner_progress *p = w->prog;
	struct job_result *snap = p->snap;
	int wanted = RUNNER_SNAP_WANTED;

	if (!atomic_compare_exchange_strong(&p->snap_state, &wanted, RUNNER_SNAP_COPYING))
		return;	/* the reporter gave up meanwhile */
	memcpy(snap, w->res, sizeof(*snap));
	for (int d = 0; d < DDIR_NR; d++)
		if (snap->ddir[d].io_bytes)
			snap->ddir[d].runtime_us = (now - w->start_ns) / 1000;
	snap->run_ms = (now - w->start_ns) / CLOCK_NS_PER_MS;
	snap->elapsed_s = (now - w->run_t0_ns + CLOCK_NS_PER_SEC - 1) / CLOCK_NS_PER_SEC;
	worker_cpu(w, snap);
	atomic_store_explicit(&p->snap_state, RUNNER_SNAP_IDLE, memory_order_release);
}

/* ---- logs ------------------------------------------------------------------------------- */

/* logs: one completed read/write (fio's account_io_completion() for logs): per-I/O bw and iops
 * samples when those logs are per unit, and the log entries. Never during ramp time. */
void worker_prio_add(struct worker *w, struct ddir_result *dr, const struct io_req *req, uint64_t now)
{
	uint64_t from = w->job->lat_percentiles ? req->start_ns : req->issue_ns;
	uint64_t v = now > from ? now - from : 0;

	if (!w->clat_on)
		return;
	for (unsigned i = 0; i < dr->nr_prio; i++)
		if (dr->prio[i].ioprio == req->ioprio) {
			lat_stat_add(&dr->prio[i].lat, v);
			hist_add(&dr->prio[i].hist, v);
			return;
		}
}

/* One entry of req's in log kind at ms since the job's start. */
static void worker_log_req(struct worker *w, enum iolog_type kind, uint64_t ms, uint64_t v, const struct io_req *req)
{
	iolog_add(w->iolog, kind, ms, v, (unsigned)req->op, (uint64_t)req->result, req->offset, req->ioprio);
}

/* noinline: its calls stay out of worker_complete(), the I/O path (logs are the exception) */
__attribute__((noinline)) void worker_log_io(struct worker *w, const struct io_req *req, uint64_t now)
{
	struct ddir_result *dr = &w->res->ddir[req->op];
	uint64_t ms = (now - w->start_ns) / CLOCK_NS_PER_MS, bytes = (uint64_t)req->result;

	if (w->in_ramp || now < w->start_ns)
		return;
	if (w->clat_on) {
		uint64_t clat = now > req->issue_ns ? now - req->issue_ns : 0;

		worker_log_req(w, IOLOG_CLAT, ms, clat, req);
		if (!w->bw_win_ns) {
			uint64_t rate = clat ? bytes * 1000000u / clat : 0;

			lat_stat_add(&dr->bw_kib, rate);
			worker_log_req(w, IOLOG_BW, ms, rate, req);
		}
		if (!w->iops_win_ns) {
			lat_stat_add(&dr->iops, 1);
			worker_log_req(w, IOLOG_IOPS, ms, 1, req);
		}
	}
	if (w->lat_on)
		worker_log_req(w, IOLOG_LAT, ms, now > req->start_ns ? now - req->start_ns : 0, req);
}

/* ---- status-interval snapshots ----------------------------------------------------------- */

void runner_snapshot(struct runner_progress *prog, struct job_result *const *res, unsigned nr,
		     uint64_t timeout_ns, struct job_result **out)
{
	uint64_t deadline = clock_now_ns() + timeout_ns;
	bool waiting = false;

	for (unsigned j = 0; j < nr; j++) {
		int st = atomic_load_explicit(&prog[j].state, memory_order_relaxed);

		if (prog[j].snap && st && st != ETA_ST_PENDING && st != ETA_ST_REAPED_ERR && st != ETA_ST_REAPED &&
		    !atomic_load_explicit(&prog[j].snap_final, memory_order_acquire)) {
			atomic_store(&prog[j].snap_state, RUNNER_SNAP_WANTED);
			waiting = true;
		}
	}
	while (waiting) {
		struct timespec ts = { 0, 1000000 };	/* 1 ms: jobs answer within ~10 ms */
		bool late = clock_now_ns() >= deadline;

		waiting = false;
		for (unsigned j = 0; j < nr; j++) {
			int want = RUNNER_SNAP_WANTED;

			if (atomic_load_explicit(&prog[j].snap_state, memory_order_acquire) == RUNNER_SNAP_IDLE)
				continue;
			if (atomic_load_explicit(&prog[j].snap_final, memory_order_acquire) || late) {
				/* over, or blocked: withdraw unless the copy already began */
				if (atomic_compare_exchange_strong(&prog[j].snap_state, &want, RUNNER_SNAP_IDLE))
					continue;
			}
			waiting = true;
		}
		if (waiting)
			nanosleep(&ts, NULL);
	}
	for (unsigned j = 0; j < nr; j++) {
		int st = atomic_load_explicit(&prog[j].state, memory_order_relaxed);

		if (atomic_load_explicit(&prog[j].snap_final, memory_order_acquire))
			out[j] = res[j]->not_run ? NULL : res[j];
		else if (st == ETA_ST_REAPED_ERR || !prog[j].snap)
			out[j] = NULL;	/* will never run (its files could not be planned) */
		else
			out[j] = prog[j].snap;
	}
}

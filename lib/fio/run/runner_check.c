/* SPDX-License-Identifier: MIT */
/* runner_check: the periodic work of a running job (runner_int.h), between two I/Os when
 * worker_plan_check() said it is due: the runtime's end, exitall, steady state, progress
 * publication and status-interval snapshots, the end of ramp_time, bw/iops samples,
 * write_hist_log entries and latency_target's windows. The I/O loop calls it; it calls the
 * statistics (runner_stats.c) and latency (runner_lat.c) files. */
#include "fio/run/runner_int.h"

/* write_hist_log: an entry per direction whose window is over. */
static void worker_hist_tick(struct worker *w, uint64_t now)
{
	const struct hist *clat[DDIR_NR];
	uint64_t bs[DDIR_NR];

	for (int d = 0; d < DDIR_NR; d++) {
		clat[d] = w->clat_on ? &w->res->ddir[d].clat_hist : NULL;
		bs[d] = w->job->bs_min[d];
	}
	histlog_tick(w->hlog, clat, bs, now > w->start_ns ? (now - w->start_ns) / CLOCK_NS_PER_MS : 0);
}

/* Periodic work at time now. Returns true when the job's time is up. */
bool worker_check(struct worker *w, uint64_t now)
{
	if (w->deadline_ns && now >= w->deadline_ns)
		return true;
	if (atomic_load_explicit(&w->killed, memory_order_relaxed))
		return true;	/* exitall: another job ended this one */
	if (w->ss.u) {	/* steady state: a check once a second; the unit may be done */
		if (now >= w->ss.next_ns) {
			const struct ddir_result *dr = w->res->ddir;

			ss_member_tick(&w->ss, now, dr[0].io_bytes + dr[1].io_bytes + dr[2].io_bytes,
				       dr[0].total_ios + dr[1].total_ios + dr[2].total_ios);
		}
		if (ss_unit_attained(w->ss.u))
			return true;
	}
	if (w->exit_on_io_done && !atomic_load_explicit(w->io_jobs_left, memory_order_acquire))
		return true;	/* cpuio: the I/O jobs are done */
	if (now >= w->publish_ns) {
		worker_publish(w);
		if (__builtin_expect(atomic_load_explicit(&w->prog->snap_state, memory_order_relaxed) ==
				     RUNNER_SNAP_WANTED, 0))	/* status-interval */
			worker_snapshot(w, now);
		w->publish_ns = now + RUNNER_PROGRESS_NS;
	}
	if (w->in_ramp) {
		if (now >= w->ramp_end_ns) {
			w->in_ramp = false;
			worker_reset_stats(w, now);
			if (w->lt_on)	/* latency_target: the probing starts over */
				worker_lat_restart(w, now);
			/* the runtime counts from here, as fio's: a ramp end noticed late (a long I/O,
			 * a busy machine) must not shorten the measured part */
			if (w->job->runtime_ns)
				w->deadline_ns = now + w->job->runtime_ns;
		}
	} else {
		worker_sample_due(w, now);
		if (w->hlog)	/* write_hist_log */
			worker_hist_tick(w, now);
	}
	if (w->lt_on && worker_lat_tick(w))	/* latency_target: the last window passed */
		return true;
	worker_plan_check(w);
	return false;
}

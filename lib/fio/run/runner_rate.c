/* SPDX-License-Identifier: MIT */
/* runner_rate: rate limiting, minimum rates and think time in the runner (fio/control/rate.h,
 * runner_int.h). The I/O loop calls in here only when one of them is on (w->rate_any). */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <sched.h>

/* Sleep until the clock_src time until_ns (or a stop). Returns false on a stop. */
static bool worker_sleep_until(struct worker *w, uint64_t until_ns)
{
	uint64_t now = clock_src_now(w->clk);
	bool ok = true;

	if (until_ns > now)
		ok = ctl_sleep_until(w->ctl, clock_now_ns() + (until_ns - now));
	w->now_ns = clock_src_now(w->clk);
	return ok;
}

/* The end of the job's time (runtime), or UINT64_MAX. */
static uint64_t worker_rate_limit_ns(const struct worker *w)
{
	return w->deadline_ns ? w->deadline_ns : UINT64_MAX;
}

/* Before an I/O: wait until the rate allows it (fio's rate_ddir(): a mixed job may switch
 * direction; in-flight I/O is completed before sleeping). False: stop the job. */
static bool worker_rate_wait(struct worker *w)
{
	enum ddir d = offgen_peek_ddir(&w->og), nd;
	uint64_t now = clock_src_now(w->clk), until;

	nd = rate_pick(&w->rate, d, now - w->rate_t0_ns, &until);
	if (nd != d)
		offgen_set_ddir(&w->og, nd);
	if (!until)
		return true;
	until = until > UINT64_MAX - w->rate_t0_ns ? UINT64_MAX : until + w->rate_t0_ns;
	if (until > worker_rate_limit_ns(w)) {
		if (now >= worker_rate_limit_ns(w))
			return false;
		until = worker_rate_limit_ns(w);
	}
	w->drain(w);
	return worker_sleep_until(w, until) && !w->error;
}

int worker_rate_before(struct worker *w)
{
	if (w->flow && !flow_may_issue(w->flow, &w->flow_ios, w->job->flow)) {
		/* fio: completes what is in flight, sleeps flow_sleep, or tries again at once */
		if (w->job->flow_sleep_ns) {
			uint64_t until = clock_src_now(w->clk) + w->job->flow_sleep_ns;

			w->drain(w);
			if (until > worker_rate_limit_ns(w))
				until = worker_rate_limit_ns(w);
			if (!worker_sleep_until(w, until))
				return -1;
		} else {
			/* fio tries again at once; letting the others run first is what lets the
			 * job that holds it back catch up on a busy machine */
			sched_yield();
			w->now_ns = clock_src_now(w->clk);
		}
		return 0;
	}
	if (w->rate_on && !worker_rate_wait(w))
		return -1;
	return 1;
}

/* fio's handle_thinktime(): after the I/O, think when thinktime_blocks I/Os (or
 * thinktime_iotime) have passed: complete what is in flight, spin, then sleep. */
static void worker_think(struct worker *w, enum ddir d)
{
	const struct job *job = w->job;
	const struct ddir_result *dr = w->res->ddir;
	uint64_t b = job->thinktime_blocks_issue ? dr[0].issued_ios + dr[1].issued_ios :
			dr[0].total_ios + dr[1].total_ios;
	uint64_t now = clock_src_now(w->clk), t0, end, limit = worker_rate_limit_ns(w);

	if (b < w->think_last_blocks)	/* counters restarted after ramp_time */
		w->think_last_blocks = 0;
	if (!rate_think_due(job, b, w->think_last_blocks, now - w->think_last_ns))
		return;
	w->drain(w);
	t0 = clock_src_now(w->clk);
	end = t0 + job->thinktime_spin_ns;
	if (end > limit)
		end = limit;
	while ((now = clock_src_now(w->clk)) < end && !ctl_stopped(w->ctl))
		;	/* thinktime_spin: busy on purpose */
	end = t0 + job->thinktime_ns;
	if (end > limit)
		end = limit;
	(void)worker_sleep_until(w, end);
	if (w->rate_on && job->rate_ignore_thinktime)
		rate_credit(&w->rate, d, w->now_ns - t0);
	w->think_last_blocks = b;
	w->think_last_ns = w->now_ns;
}

/* After an I/O was queued: account it, check minimum rates, think. False: stop the job. */
bool worker_rate_after(struct worker *w, enum ddir d, uint64_t len)
{
	if (w->rate_on)
		rate_issued(&w->rate, d, len);
	if (w->rate_min_on && !w->in_ramp) {
		uint64_t now = clock_src_now(w->clk);
		char msg[JOB_NAME_MAX + 96];

		for (int k = 0; k < 2; k++) {
			const struct ddir_result *dr = &w->res->ddir[k];

			if (rate_min_failed(&w->rate_min, w->job->name, (enum ddir)k, now - w->start_ns, dr->io_bytes,
					    dr->total_ios, msg, sizeof(msg))) {
				fprintf(w->diag, "%s\n", msg);
				worker_set_error(w, EIO, "backend.c:1131", "check_min_rate");
				/* fio's (glibc's) wording for EIO; musl says "I/O error" */
				snprintf(w->res->verror, sizeof(w->res->verror),
					 "file:backend.c:1131, func=check_min_rate, error=Input/output error");
				return false;
			}
		}
	}
	if (w->think_on)
		worker_think(w, d);
	return true;
}

void worker_rate_setup(struct worker *w)
{
	const struct job *job = w->job;

	w->rate_on = rate_enabled(job);
	w->rate_min_on = rate_min_enabled(job);
	w->think_on = job->thinktime_ns > 0;
	w->rate_any = w->rate_on || w->rate_min_on || w->think_on || w->flow;
	w->rate_t0_ns = w->think_last_ns = w->start_ns;
	if (w->rate_on)
		rate_init(&w->rate, job, rng_job_seed(job->randseed, job->randrepeat || job->allrandrepeat ||
						      job->randseed_set, job->thread_number, RNG_FILE) ^ 0x7261746570726f63ull);
	if (w->rate_min_on)
		rate_min_init(&w->rate_min, job);
}

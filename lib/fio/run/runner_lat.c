/* SPDX-License-Identifier: MIT */
/* runner_lat: the job's latency limits (runner_int.h): max_latency, and the runner's side of
 * latency_target (fio/control/lattarget.h). An I/O over either fails the job (ETIMEDOUT, as
 * fio; latency_target at depth 1 only). The job's requests beyond the probed depth are parked
 * off the free list, and the window's end (or a depth change a slow completion asks for) is
 * one more time worker_check() is due, so the I/O loop has no test of its own; the changes
 * happen between two I/Os (draining first when the depth goes down, as fio does). */
#include "fio/run/runner_int.h"

#include <errno.h>

#include "fio/debug.h"

static uint64_t worker_lat_ios(const struct worker *w)
{
	const struct ddir_result *dr = w->res->ddir;

	return dr[0].total_ios + dr[1].total_ios + dr[2].total_ios;
}

/* Requests on the free list (or in flight) = the probed depth; after a drain when it shrinks. */
static void worker_lat_depth(struct worker *w)
{
	unsigned want = w->lt.qd < w->depth ? w->lt.qd : w->depth;

	while (w->depth - w->nr_parked > want && w->nr_free)
		w->parked[w->nr_parked++] = w->free_reqs[--w->nr_free];
	while (w->depth - w->nr_parked < want)
		w->free_reqs[w->nr_free++] = w->parked[--w->nr_parked];
	w->cap = w->depth - w->nr_parked;
}

void worker_lat_start(struct worker *w)
{
	lat_target_init(&w->lt, w->job, w->depth, w->now_ns, worker_lat_ios(w));
	worker_debug(w, DEBUG_RATE, "Latency target=%llu", (unsigned long long)w->lt.target_ns);
	worker_lat_depth(w);
	worker_plan_check(w);	/* the first window's end */
}

void worker_lat_restart(struct worker *w, uint64_t now)
{
	if (w->lt.final_run)
		return;
	lat_target_init(&w->lt, w->job, w->depth, now, worker_lat_ios(w));
	w->lt_redo = true;	/* depth 1 again, once what is in flight is done */
}

bool worker_lat_slow(struct worker *w)
{
	enum lat_target_act a = lat_target_slow(&w->lt);

	if (a == LAT_TARGET_DOWN && w->lt_act == LAT_TARGET_NONE) {
		w->lt_act = a;	/* carried out between two I/Os: */
		w->next_check_ns = 0;	/* worker_check() at the next one */
	}
	return a == LAT_TARGET_FATAL;
}

bool worker_lat_tick(struct worker *w)
{
	enum lat_target_act a = w->lt_act;
	struct lat_target *lt = &w->lt;

	w->lt_act = LAT_TARGET_NONE;
	if (w->lt_redo) {
		w->lt_redo = false;
		w->drain(w);
		worker_lat_depth(w);
		lat_target_cycle(lt, clock_src_now(w->clk), worker_lat_ios(w));
		return false;
	}
	if (a == LAT_TARGET_NONE) {
		if (w->in_ramp)	/* as fio: no window is judged during ramp_time */
			return false;
		a = lat_target_check(lt, w->now_ns, worker_lat_ios(w));
		if (a == LAT_TARGET_NONE || a == LAT_TARGET_FATAL)
			return false;
		worker_debug(w, DEBUG_RATE, "Success rate: %.2f%% (target %.2f%%)", lt->last_rate, lt->pct);
	}
	worker_debug(w, DEBUG_RATE, "Ramped %s: %u %u %u", a == LAT_TARGET_DOWN ? "down" : "up", lt->low, lt->qd,
		     lt->high);
	switch (a) {
	case LAT_TARGET_DONE:
		worker_debug(w, DEBUG_RATE, "We are done");
		return true;
	case LAT_TARGET_FINAL:
		worker_debug(w, DEBUG_RATE, "Quiesce and final run");
		w->drain(w);
		w->now_ns = clock_src_now(w->clk);
		worker_reset_stats(w, w->now_ns);
		if (w->job->runtime_ns)	/* as fio (and as at ramp end): the runtime counts from here */
			w->deadline_ns = w->now_ns + w->job->runtime_ns;
		break;
	case LAT_TARGET_DOWN:
		w->drain(w);	/* what the deeper queue has in flight must not judge the next */
		w->now_ns = clock_src_now(w->clk);
		break;
	default:
		break;
	}
	worker_lat_depth(w);
	lat_target_cycle(lt, w->now_ns, worker_lat_ios(w));
	return false;
}

/* max_latency (and latency_target at depth 1): an I/O slower than max fails the job
 * (ETIMEDOUT), as fio. */
static void worker_lat_fail(struct worker *w, const struct io_req *req, uint64_t lat, uint64_t max)
{
	const struct job *job = w->job;
	const char *path = worker_req_path(job, req);

	fprintf(w->diag, "fio: latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %llu\n",
		(unsigned long long)lat, (unsigned long long)max, path,
		req->op == IO_READ ? "read" : req->op == IO_WRITE ? "write" : "trim", (unsigned long long)req->offset,
		(unsigned long long)req->len);
	worker_set_error(w, ETIMEDOUT, "io_u.c:1432", "max latency exceeded");
}

void worker_max_latency(struct worker *w, const struct io_req *req, uint64_t lat)
{
	uint64_t max = w->job->max_latency_ns[req->op];

	if (w->error)
		return;
	if (max && lat > max)
		worker_lat_fail(w, req, lat, max);
	else if (w->lt_on && lat > w->lt.target_ns && worker_lat_slow(w))	/* latency_target */
		worker_lat_fail(w, req, lat, w->lt.target_ns);
}

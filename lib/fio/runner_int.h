/* runner_int: the runner's internal interface. Only the runner's own files include it
 * (runner.c, runner_setup.c, runner_io.c, runner_stats.c, runner_rate.c, runner_verify.c);
 * everything else uses fio/runner.h.
 *
 * One struct worker per job, owned by its thread:
 *   runner.c         the threads: scheduling (stonewall, wait_for), worker_main, join
 *   runner_setup.c   buffers, request pool, engine init, files; teardown, end_fsync
 *   runner_io.c      the I/O loop: queue/commit/reap, completion accounting, errors
 *   runner_stats.c   periodic work: samples, ramp end, cpu figures, progress snapshots, logs
 *   runner_rate.c    rate limiting and think time
 *   runner_verify.c  verify: headers on writes, the verify phase, checks on reads
 * Everything the I/O loop does per request is in runner_io.c, static and inlinable; what it
 * calls in the other files sits on branches it takes only when a feature is on (rate, verify,
 * logs) or every few milliseconds (worker_check). */
#ifndef IOPS_RUNNER_INT_H
#define IOPS_RUNNER_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "core/err.h"
#include "core/rng.h"
#include "engine/engine.h"
#include "fio/iolog.h"
#include "fio/job.h"
#include "fio/offgen.h"
#include "fio/rate.h"
#include "fio/result.h"
#include "fio/runner.h"
#include "fio/target.h"
#include "fio/verify.h"

struct worker {
	const struct job *job;
	struct job_result *res;
	const struct engine_ops *ops;
	void *ectx;
	struct ctl *ctl;
	FILE *diag;			/* where diagnostics go (cmd/ passes stderr) */
	FILE *info;			/* fio's stdout notes with normal output, NULL otherwise */
	const struct target_set *ts;
	unsigned idx;
	uint64_t run_t0_ns;		/* runner start, for elapsed */
	const struct clock_src *clk;
	struct runner_progress *prog;	/* never NULL: prog_local when the caller wants none */
	struct runner_progress prog_local;
	uint64_t publish_ns;		/* next progress publication */

	int *fds;
	struct io_req *reqs;
	struct io_req **free_reqs;
	unsigned nr_free;
	struct io_req **pend;		/* queued, not committed, in queue order */
	unsigned nr_pend;
	struct io_req **done;		/* reap output */
	unsigned depth, in_flight;	/* committed, not reaped */
	unsigned batch_submit, cmin, cmax, depth_low;
	bool sets_issue;
	bool paths;			/* ENGINE_F_PATHS: requests carry their file's path */
	bool stream_end;		/* ENGINE_F_STREAM: the peer ended the stream, the job ends */
	atomic_uint *io_jobs_left;	/* the run's I/O (not ENGINE_F_BURN) jobs still to finish */
	bool exit_on_io_done;		/* cpuio: end when io_jobs_left reaches 0 */
	void *buf_mem;
	struct rng buf_rng;
	struct offgen og;
	bool og_ready;

	bool clat_on, lat_on, slat_on, lat_hist_on, slat_hist_on, clock_per_io;
	bool issue_at_queue;		/* engine completes in queue(): stamp issue before it */
	unsigned check_every, check_count;
	uint64_t now_ns;
	uint64_t start_ns;		/* epoch after ramp */
	uint64_t ramp_end_ns, deadline_ns, next_check_ns;
	uint64_t sample_t0_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	bool in_ramp;
	unsigned writes_since_sync;
	unsigned last_write_file;
	bool sync_pending;
	bool direct_hint_done;
	int error;
	struct rusage ru0;

	/* rate: rate limiting and think time (runner_rate.c, fio/rate.h) */
	bool rate_any;			/* one of the below: the only test on the I/O path when off */
	bool rate_on, rate_min_on, think_on;
	uint64_t rate_t0_ns;		/* rate epoch: the job's start (ramp included, as fio) */
	uint64_t think_last_blocks, think_last_ns;
	struct rate rate;
	struct rate_min rate_min;
	/* logs (write_bw_log / write_iops_log / write_lat_log) */
	struct iolog_job *iolog;	/* NULL = the job writes no log */
	uint64_t bw_win_ns, iops_win_ns;	/* bw / iops sampling windows, 0 = one sample per I/O */
	uint64_t iops_t0_ns;		/* start of the iops window (sample_t0_ns: the bw one) */
	/* verify (runner_verify.c, fio/verify.h) */
	struct verify_ctx vfy;
	bool vfy_fill;			/* writes carry verify headers */
	bool vfy_reads;			/* read completions are checked (read-only job, verify phase) */
	bool vfy_phases;		/* a verify phase follows each pass of writes */
	bool vfy_in_phase;
	bool vfy_check;			/* reads return data (not the null engine): check them */
	struct verify_ent *vlog;	/* blocks written in this pass */
	size_t vlog_nr, vlog_cap, vlog_pos;
	uint64_t vlog_seq;
	uint64_t vcur_seed;		/* seed of the block being read back */
	uint64_t *vreq_seed;		/* per request (by index): the seed the verify read expects */
	uint64_t vseg_t0_ns;		/* start of the current segment (I/O or verify phase) */
	uint64_t vio_ns, vread_ns;	/* time in I/O segments and in verify phases so far */
	unsigned nr_vphases;
};

/* ---- progress (status line) -------------------------------------------------------------- */

static inline void worker_publish(struct worker *w)
{
	for (int d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&w->prog->io_bytes[d], w->res->ddir[d].io_bytes, memory_order_relaxed);
		atomic_store_explicit(&w->prog->ios[d], w->res->ddir[d].total_ios, memory_order_relaxed);
	}
}

static inline void worker_set_state(struct worker *w, char c)
{
	atomic_store_explicit(&w->prog->state, c, memory_order_relaxed);
}

/* ---- runner_setup.c ---- */

/* Allocates the job's buffers and request pool, opens its files and the engine: 0 or -errno
 * (err filled). worker_teardown() undoes whatever was done, either way. */
int worker_setup(struct worker *w, struct iops_err *err);
void worker_teardown(struct worker *w);
void worker_end_fsync(struct worker *w);
/* The I/O io starts its file (OFFGEN_FRESH_FILE) or all files (OFFGEN_FRESH_PASS) over: drop
 * their cached pages again (invalidate=1), and on a new pass give the fadvise hint again, as
 * fio does when it reopens its files. Rare: once per pass over a file. */
__attribute__((cold)) void worker_files_fresh(struct worker *w, const struct offgen_io *io);

/* ---- runner_io.c ---- */

void worker_loop(struct worker *w);		/* the job's I/O, until done, stopped or failed */
void worker_drain(struct worker *w);		/* until nothing is queued or in flight */
void worker_set_error(struct worker *w, int e, const char *where, const char *func);	/* first one wins */

/* ---- runner_stats.c ---- */

void worker_rusage(struct rusage *ru);
void worker_plan_check(struct worker *w);	/* when worker_check() is due next */
bool worker_check(struct worker *w, uint64_t now);	/* true: the job's time is up */
void worker_cpu(struct worker *w, struct job_result *r);
/* cold: worker_complete() calls it only when the job writes logs; said here, where the caller
 * sees it, it keeps that call out of the completion path's code (measured: -1 instruction per
 * I/O with the null engine). */
__attribute__((cold)) void worker_log_io(struct worker *w, const struct io_req *req, uint64_t now);

/* ---- runner_rate.c ---- */

void worker_rate_setup(struct worker *w);
bool worker_rate_wait(struct worker *w);	/* false: stop the job */
bool worker_rate_after(struct worker *w, enum ddir d, uint64_t len);	/* false: stop the job */

/* ---- runner_verify.c ---- */

/* cold: as worker_log_io(), for the read completions of a verifying job. */
__attribute__((cold)) void worker_verify_read(struct worker *w, struct io_req *req);
void worker_verify_prep(struct worker *w, struct io_req *req);
bool worker_verify_start(struct worker *w);	/* false: the job stops instead */
bool worker_verify_next(struct worker *w, struct offgen_io *io);	/* false: the phase is over */

#endif

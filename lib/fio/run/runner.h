/* SPDX-License-Identifier: MIT */
/* runner: runs the jobs of a fio_config and measures them (statistics as fio 3.33 has them).
 *
 * Jobs run as threads (iops never forks, whatever thread= says). Groups run in order:
 * a job with stonewall waits for every job before it, wait_for= waits for one job; startdelay
 * is slept inside the job's thread. Files are planned, validated and laid out (target.h) before
 * any job starts. Each job allocates its request pool and aligned buffers at start; the I/O
 * loop then does no allocation, no locking and no system call besides the engine's own.
 *
 * Diagnostics fio prints while jobs run (io_u errors, the direct I/O hint, the per-job
 * `fio: pid=N, err=...` line) go to the diag stream the caller passes (cmd/ passes stderr:
 * fio puts some on stdout, which breaks JSON).
 *
 * Implemented by runner.c and its runner_*.c parts; runner_int.h says which file does what. */
#ifndef IOPS_RUNNER_H
#define IOPS_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/ctl.h"
#include "core/err.h"
#include "fio/job.h"
#include "fio/result.h"

#define RUNNER_STACK_BYTES	(1024u * 1024u)
#define RUNNER_SAMPLE_NS	500000000ull	/* bwavgtime / iopsavgtime default: 500 ms */
/* A job thread stuck in the kernel (a stalled volume) is given up on this long after a stop,
 * or this long after its runtime when it completes nothing more */
#define RUNNER_STOP_WAIT_NS	600000000ull	/* 600 ms */
#define RUNNER_STALL_NS		2000000000ull	/* 2 s */
#define RUNNER_MAX_BUF_BYTES	(4ull << 30)	/* iodepth x max bs per job */

/* Run every job of cfg honouring stonewall/wait_for/new_group/startdelay, jobs as threads.
 * Lays out files first ("<name>: Laying out IO file (1 file / 1024MiB)" on info, may be NULL;
 * warnings and job errors on diag, never NULL),
 * res[i] (caller-allocated, zeroed) receives cfg->jobs[i]'s results. Stops early when ctl
 * says so (in-flight I/O completes, results kept). Returns the number of jobs that ended with
 * an error (fio's exit status rule), or -errno when nothing could run (err filled). */
int runner_run(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
	       struct ctl *ctl, struct iops_err *err);

/* runner_run(), calling after_layout(arg, runs) (if not NULL) once the files are laid out and
 * before any job starts: disk statistics start there, so layout writes are not counted.
 * runs[i] is false for a job that will not run (fio's "you need to specify size="). */
int runner_run_hooked(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
		      struct ctl *ctl, struct iops_err *err,
		      void (*after_layout)(void *arg, const bool *runs), void *arg);

/* Live progress of one job, for the status (ETA) line. The job thread writes it with relaxed
 * atomic stores only: when its state changes and at most every RUNNER_PROGRESS_NS of I/O (on
 * a clock reading the loop already makes, never an extra one), so the I/O loop pays nothing
 * per request. Any thread may read it; the caller zeroes it (state 0 = not started). */
#define RUNNER_PROGRESS_NS	10000000ull	/* 10 ms */

struct runner_progress {
	_Atomic uint64_t io_bytes[DDIR_NR];	/* completed, since the epoch (reset when ramp ends) */
	_Atomic uint64_t ios[DDIR_NR];
	_Atomic uint64_t start_ns;		/* clock_now_ns() time base: thread started doing I/O */
	_Atomic uint64_t epoch_ns;		/* ramp end (= start_ns without ramp_time) */
	_Atomic uint64_t bytes_total;		/* bytes this job means to transfer (io_size x loops) */
	atomic_int state;			/* eta.h run-state character, 0 = not started */
	/* status-interval: mid-run snapshots, see runner_snapshot() */
	atomic_int snap_state;			/* RUNNER_SNAP_* */
	atomic_bool snap_final;			/* the job is over, its result is final (release) */
	struct job_result *snap;		/* caller-allocated copy target; NULL: never asked */
};

/* status-interval (--status-interval, SIGUSR1): a consistent copy of every job's results as of
 * now. The reporter marks each running job's progress WANTED; the job copies its result into
 * prog->snap at its next periodic check (within RUNNER_PROGRESS_NS of I/O, never per request),
 * with the runtime and cpu figures of that moment, and sets IDLE again (release). A job that does
 * not answer within timeout_ns (blocked in a long I/O) keeps its previous copy. out[i] gets
 * the result to report for job i: the final result (res[i]) of a job that is over, prog[i].snap
 * of a running one (zeroed by the caller before the run: a job not started reports nothing
 * done), NULL for a job that will never run. */
enum { RUNNER_SNAP_IDLE = 0, RUNNER_SNAP_WANTED = 1, RUNNER_SNAP_COPYING = 2 };
void runner_snapshot(struct runner_progress *prog, struct job_result *const *res, unsigned nr,
		     uint64_t timeout_ns, struct job_result **out);

/* runner_run_hooked(), publishing each job's progress into prog[i] (nr_jobs entries,
 * caller-allocated and zeroed; NULL = no progress). */
int runner_run_progress(const struct fio_config *cfg, struct job_result **res, FILE *info, FILE *diag,
			struct ctl *ctl, struct iops_err *err,
			void (*after_layout)(void *arg, const bool *runs), void *arg,
			struct runner_progress *prog);

/* IO depth / submit / complete map buckets (fio's io_u_mark_depth / io_u_mark_submit). */
static inline unsigned runner_depth_idx(unsigned depth)
{
	if (depth >= 64)
		return 6;
	if (depth >= 32)
		return 5;
	if (depth >= 16)
		return 4;
	if (depth >= 8)
		return 3;
	if (depth >= 4)
		return 2;
	if (depth >= 2)
		return 1;
	return 0;
}

static inline unsigned runner_batch_idx(unsigned nr)
{
	if (nr == 0)
		return 0;
	if (nr <= 4)
		return 1;
	if (nr <= 8)
		return 2;
	if (nr <= 16)
		return 3;
	if (nr <= 32)
		return 4;
	if (nr <= 64)
		return 5;
	return 6;
}

#endif

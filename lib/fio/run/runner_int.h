/* SPDX-License-Identifier: MIT */
/* runner_int: the runner's internal interface. Only the runner's own files include it;
 * everything else uses fio/run/runner.h.
 *
 * One struct worker per job, owned by its thread:
 *   runner_stages.c  the run as its stages (check, plan, lay out, start, finish, clean up),
 *                    each calling the owning folder's entry points; stonewall, wait_for
 *   runner.c         each job's thread (worker_main), exitall, join (or abandon) a thread
 *   runner_setup.c   buffers, request pool, engine init, files; teardown, end_fsync
 *   runner_io.c      the I/O loop: queue/commit/reap, completion accounting
 *   runner_check.c   the periodic work between two I/Os: runtime end, ramp end, samples,
 *                    progress, steady state, hist log, latency_target windows
 *   runner_stats.c   statistics: resets, samples, cpu figures, progress snapshots, logs
 *   runner_rate.c    rate limiting and think time
 *   runner_verify.c  verify: headers on writes, the verify phase, checks on reads, verify_only,
 *                    trims of verified blocks (trim_percentage, trim_backlog)
 *   runner_vstate.c  verify_state_save / verify_state_load: the state file, where a load stops
 *   runner_replay.c  write_iolog lines, and read_iolog: the replayed I/O and its timing
 *   runner_proc.c    memory and process options: uid/gid, lockmem, cgroup, nice,
 *                    ioscheduler, exec_prerun/exec_postrun, and their checks and undo
 *   runner_lat.c     max_latency and latency_target: the probed depth (requests parked beyond it)
 *   runner_sync.c    sync_file_range= every N writes; the completions of syncs, errors and
 *                    short I/Os, and the rest of a short read or write
 *   runner_error.c   the job's errors: the first one, continue_on_error, fio's error sites
 *   runner_debug.c   --debug lines and the io engine wrapper
 * Calls go one way: runner_stages.c starts and joins the threads (runner.c), runner.c calls the loop and the setup, the loop (runner_io.c) calls its
 * helpers, the helpers call lower ones (runner_error.c is the lowest), never the loop: the
 * waits they need of it (drain, sync of a file) are callbacks in the worker. Everything the
 * I/O loop does per request is in runner_io.c, static and inlinable; what it calls in the
 * other files sits on branches it takes only when a feature is on (rate, verify, logs) or
 * every few milliseconds (worker_check). */
#ifndef IOPS_RUNNER_INT_H
#define IOPS_RUNNER_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/ctl.h"
#include "core/err.h"
#include "core/rng.h"
#include "engine/engine.h"
#include "fio/data/bufgen.h"
#include "fio/control/flow.h"
#include "fio/log/histlog.h"
#include "fio/run/iomem.h"
#include "fio/log/iolog.h"
#include "fio/log/iolog_replay.h"
#include "fio/log/iolog_write.h"
#include "fio/job.h"
#include "fio/control/lattarget.h"
#include "fio/offset/offgen.h"
#include "fio/control/rate.h"
#include "fio/result.h"
#include "fio/run/runner.h"
#include "fio/control/steadystate.h"
#include "fio/file/target.h"
#include "fio/data/verify.h"
#include "fio/data/verify_log.h"
#include "sys/cgroup.h"
#include "sys/iosched.h"
#include "fio/data/verify_state.h"

struct runner_exit;

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
	unsigned cap;			/* requests the job may use: depth, less those parked */
	unsigned batch_submit, cmin, cmax, depth_low;
	bool batch_auto;		/* batch_submit is iops' batching by readiness, not the job's */
	bool sets_issue;
	bool paths;			/* ENGINE_F_PATHS: requests carry their file's path */
	bool stream_end;		/* the job ends: the peer ended the stream (ENGINE_F_STREAM), or
				 * the volume is full (fill_device) */
	atomic_uint *io_jobs_left;	/* the run's I/O (not ENGINE_F_BURN) jobs still to finish */
	bool exit_on_io_done;		/* cpuio: end when io_jobs_left reaches 0 */
	void *buf_mem;
	struct rng buf_rng;
	struct rng vfy_rng;		/* verify: each block's data seed (repeatable as fio's) */
	struct bufgen bg;		/* write contents: refill, pattern, compress, dedupe */
	bool refill, scramble;		/* bufgen_refills() / bufgen_scrambles() */
	bool prio_on;			/* cmdprio: a priority per request, latencies per priority */
	uint16_t job_prio;		/* requests' priority without cmdprio */
	struct rng prio_rng;
	struct offgen og;
	bool og_ready;

	bool clat_on, lat_on, slat_on, lat_hist_on, slat_hist_on, clock_per_io;
	bool max_lat_on;		/* max_latency set for a direction */
	bool issue_at_queue;		/* engine completes in queue(): stamp issue before it */
	unsigned check_every, check_count;
	uint64_t now_ns;
	uint64_t start_ns;		/* epoch after ramp */
	uint64_t ramp_end_ns, deadline_ns, next_check_ns;
	uint64_t sample_t0_ns, sample_bytes[DDIR_NR], sample_ios[DDIR_NR];
	bool in_ramp;
	unsigned writes_since_sync;
	unsigned last_write_file;
	unsigned sync_file;		/* fsync=N: the file the due sync goes to */
	uint64_t last_write_off;
	bool sync_pending;		/* a sync is due before the next I/O: fsync_due, sfr_due */
	bool fsync_due;			/* fsync= / fdatasync= */
	bool sfr_due;			/* sync_file_range= */
	unsigned sfr_writes;		/* writes since the last sync_file_range */
	uint64_t *sfr_lo, *sfr_hi;	/* per file: the range written since then (lo > hi: none) */
	bool direct_hint_done;
	int error;
	struct rusage ru0;
	atomic_bool killed;		/* exitall: another job ended this one */
	struct runner_exit *exit;	/* exitall: the run's jobs (runner.c) */
	/* the I/O loop's waits, for its helpers (worker_io_attach): they never call the loop */
	void (*drain)(struct worker *w);	/* until nothing is queued or in flight */
	/* After what is in flight: one fsync / fdatasync (op) of file f, as fsync=N does; log_off
	 * is the offset its write_iolog line shows (fio's: that of the last write). */
	void (*sync_one)(struct worker *w, unsigned f, enum io_op op, uint64_t log_off);

	/* rate: rate limiting and think time (runner_rate.c, fio/control/rate.h) */
	bool rate_any;			/* one of the below: the only test on the I/O path when off */
	bool rate_on, rate_min_on, think_on;
	uint64_t rate_t0_ns;		/* rate epoch: the job's start (ramp included, as fio) */
	uint64_t think_last_blocks, think_last_ns;
	struct rate rate;
	struct rate_min rate_min;
	/* flow: flow control between jobs (fio/control/flow.h); NULL = the job is in no flow */
	struct flow *flow;
	uint64_t flow_ios;		/* the I/Os the flow counted for this job */
	struct flow_gate *gate;		/* start gate of the flow jobs launched together, or NULL */
	bool gate_passed;
	bool *ser_mark;			/* serialize_overlap: depth marks (NULL = off) */
	pthread_rwlock_t **locks;	/* lockfile: each file's lock (NULL = off) */
	bool lock_rw;			/* lockfile=readwrite: reads share the lock */
	/* logs (write_bw_log / write_iops_log / write_lat_log) */
	struct iolog_job *iolog;	/* NULL = the job writes no log */
	uint64_t bw_win_ns, iops_win_ns;	/* bw / iops sampling windows, 0 = one sample per I/O */
	uint64_t iops_t0_ns;		/* start of the iops window (sample_t0_ns: the bw one) */
	/* verify (runner_verify.c, fio/data/verify.h) */
	struct verify_ctx vfy;
	bool vfy_fill;			/* writes carry verify headers */
	bool vfy_reads;			/* read completions are checked (read-only job, verify phase) */
	bool vfy_phases;		/* a verify phase follows each pass of writes */
	bool vfy_in_phase;
	bool vfy_check;			/* reads return data (not the null engine): check them */
	bool vfy_log;			/* writes are logged (verify phases without experimental_verify, backlog) */
	struct verify_log vlog;		/* blocks written and not read back yet */
	uint64_t vlog_seq;
	uint64_t vcur_seed;		/* seed of the block being read back */
	unsigned char vcur_kind;	/* VREQ_* of the read the loop is about to issue */
	uint64_t *vreq_seed;		/* per request (by index): the seed the verify read expects */
	unsigned char *vreq_kind;	/* per request: VREQ_* */
	bool vbl_on;			/* verify_backlog: read-backs during the writes */
	bool vlast_read;		/* the last I/O issued was a read (fio's rule for a backlog batch) */
	uint64_t vdone_seq;		/* writes numbered below this have completed */
	bool vexp;			/* experimental_verify: the phase replays the offsets (vog) */
	bool vexp_phase;		/* that replay is under way */
	bool vog_ready;
	struct offgen vog;		/* the offset generator as it was when the job started */
	uint64_t vseg_t0_ns;		/* start of the current segment (I/O or verify phase) */
	uint64_t vio_ns, vread_ns;	/* time in I/O segments and in verify phases so far */
	unsigned nr_vphases;
	bool vonly;			/* verify_only: writes complete without I/O */
	/* trim_percentage (runner_verify.c): logged writes drawn for a trim */
	bool vtrim;			/* writes are drawn */
	bool tbl_on;			/* trim_backlog: the drawn blocks are trimmed during the writes */
	struct frand trim_rng;
	uint64_t trim_cut;		/* a draw at or below this trims */
	struct verify_log tlog;		/* blocks drawn and not trimmed yet, oldest first */
	uint64_t tleft;			/* trims left in the batch under way */
	/* verify_state_save / verify_state_load (runner_vstate.c, fio/data/verify_state.h) */
	uint64_t *vs_ring;		/* files x depth: the last completed writes (NULL = no save) */
	uint64_t *vs_count;		/* per file: writes completed */
	const struct vstate *vs_load;	/* verify_state_load: the state read (runner.c owns it) */
	/* iolog: write_iolog and read_iolog (runner_replay.c) */
	struct iolog_writer *wlog;	/* NULL = the job writes no I/O log */
	struct iolog_replay *replay;	/* NULL = the job does not replay */
	uint64_t replay_t0_ns;
	/* steady state (fio/control/steadystate.h): ss.u NULL = the job has none */
	struct ss_member ss;
	struct ss_unit *ss_unit;	/* the unit the job joins when it starts */
	unsigned ss_idx;		/* its place among the unit's members */
	struct histlog *hlog;		/* write_hist_log, NULL = none */
	/* latency_target (runner_lat.c, fio/control/lattarget.h): off while lt_on is false */
	bool lt_on;
	enum lat_target_act lt_act;	/* what a slow completion asked for, carried out in the loop */
	bool lt_redo;			/* ramp end: back to depth 1 between two I/Os */
	struct lat_target lt;
	struct io_req **parked;		/* requests beyond the probed depth */
	unsigned nr_parked;
	/* --debug (runner_debug.c): lines go to dbg_out when the category's bit is set */
	FILE *dbg_out;			/* NULL = no debugging */
	unsigned dbg_mask;
	/* memory and process options (runner_proc.c) */
	struct proc_run *proc;		/* the run's shared part */
	struct iomem iomem;		/* the buffers' memory (buf_mem is its first buffer) */
	void *lock_mem;			/* lockmem: the pinned mapping, NULL = none */
	bool proc_entered;		/* got as far as exec_prerun: exec_postrun runs too */
};

/* ---- runner_proc.c: memory and process options ------------------------------------------- */

struct proc_cgroup {			/* a cgroup the run's jobs joined */
	char name[JOB_CGROUP_MAX];
	bool made;			/* the run made it: removed at the end unless keep */
	bool keep;			/* a job of it has cgroup_nodelete */
};

struct proc_sched {			/* a device whose scheduler a job switched */
	char path[IOSCHED_PATH_MAX];
	char prev[IOSCHED_NAME_MAX];	/* what it was before the run: restored at the end */
};

struct proc_run {
	bool ready;			/* lock initialised */
	pthread_mutex_t lock;
	char cg_root[CGROUP_PATH_MAX];	/* blkio mount ("" when no job asks for a cgroup) */
	struct proc_cgroup *cg;		/* at most one per job */
	unsigned nr_cg;
	struct proc_sched *sched;
	unsigned nr_sched, cap_sched;
};

/* Before anything is touched: what the jobs ask for can be had here (huge pages, lockmem,
 * mem=mmap:FILE files, the blkio hierarchy). 0, or -errno with err set. */
int proc_run_init(struct proc_run *pr, const struct fio_config *cfg, struct iops_err *err);
/* Once every job has ended: schedulers back as they were, cgroups the run made removed. */
void proc_run_finish(struct proc_run *pr, FILE *diag);
/* gid, then uid, for the job's thread: 0, or -1 with the job's error set. */
int worker_proc_ids(struct worker *w);
/* lockmem, cgroup, nice, ioscheduler, exec_prerun: 0, or -1 with the job's error set. */
int worker_proc_enter(struct worker *w);
/* exec_postrun (when worker_proc_enter got that far), lockmem released. */
void worker_proc_leave(struct worker *w);

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
/* write_hint: fcntl F_SET_(FILE_)RW_HINT on every file; false: the job failed (fio's error). */
bool worker_write_hint(struct worker *w);
/* The I/O io starts its file (OFFGEN_FRESH_FILE) or all files (OFFGEN_FRESH_PASS) over: drop
 * their cached pages again (invalidate=1), and on a new pass give the fadvise hint again, as
 * fio does when it reopens its files. Rare: once per pass over a file. */
__attribute__((cold)) void worker_files_fresh(struct worker *w, const struct offgen_io *io);
/* The files the generator opened and closed since the last call (fio/offset/offgen_fsvc.h), in
 * order: write_iolog's open / close lines and, with openfiles, the descriptors. */
void worker_file_events(struct worker *w);

/* ---- runner_io.c ---- */

void worker_loop(struct worker *w);		/* the job's I/O, until done, stopped or failed */
/* The loop's waits the helpers need, into w->drain and w->sync_one (before worker_setup). */
void worker_io_attach(struct worker *w);

/* ---- runner_sync.c ---- */

/* sync_file_range=: the write io is about to be queued (its range noted; the Nth sets
 * sfr_due), and the call itself, after what is in flight. */
void worker_sfr_note(struct worker *w, const struct offgen_io *io);
void worker_sfr(struct worker *w);
/* A short read or write of a file (req->result: what it moved): the rest, issued until done
 * (runner_sync.c), counted as fio counts it (short_ios, issued_ios). */
enum worker_rest_end {
	WORKER_REST_DONE,	/* req->result: every byte moved (all of it, or up to the end of the file) */
	WORKER_REST_FAILED,	/* the rest failed: req->result -errno, offset and len those of the rest */
	WORKER_REST_EMPTY,	/* a synchronous engine moved nothing: fio's "full resid" (EIO) */
};
bool worker_rest_applies(const struct worker *w, const struct io_req *req);
int worker_rest(const struct worker *w, struct io_req *req);

/* A completion that is a sync, an error or a short I/O. true: req is done with (on the free
 * list); false: it goes on to the common accounting (a short I/O whose rest was issued). */
__attribute__((cold)) bool worker_complete_odd(struct worker *w, struct io_req *req, uint64_t now);

/* ---- runner_error.c ---- */

__attribute__((cold)) void worker_set_error(struct worker *w, int e, const char *where, const char *func);	/* first one wins */
/* continue_on_error / ignore_error: does the job go on after error e of kind type (job_err_type)? */
__attribute__((cold)) bool worker_err_continues(const struct job *job, unsigned type, int e);
/* The name of req's file, as fio's messages print it (the job's name when it has none). */
const char *worker_req_path(const struct job *job, const struct io_req *req);
/* req failed (req->result: -errno): fill_device's end, continue_on_error's count, or the job's
 * error where fio records it, with fio's lines. */
__attribute__((cold)) void worker_io_error(struct worker *w, const struct io_req *req);
/* A synchronous engine's rest moved nothing: fio's "full resid" (EIO, or counted and on). */
__attribute__((cold)) void worker_full_resid(struct worker *w, const struct io_req *req);

/* ---- runner_stats.c ---- */

void worker_rusage(struct rusage *ru);
void worker_plan_check(struct worker *w);	/* when worker_check() is due next */
/* status-interval: answer a snapshot request (runner_snapshot) with the results as of now. */
void worker_snapshot(struct worker *w, uint64_t now);
/* The bw / iops windows that are over by now (outside ramp_time): their samples. */
void worker_sample_due(struct worker *w, uint64_t now);
void worker_cpu(struct worker *w, struct job_result *r);
/* cold: worker_complete() calls it only when the job writes logs; said here, where the caller
 * sees it, it keeps that call out of the completion path's code (measured: -1 instruction per
 * I/O with the null engine). */
__attribute__((cold)) /* cmdprio: the request's latency into its priority's statistics. */
void worker_prio_add(struct worker *w, struct ddir_result *dr, const struct io_req *req, uint64_t now);
/* cmdprio: the job's priorities in its result, no samples yet (job start, ramp end). */
void worker_prio_slots(struct worker *w);
void worker_log_io(struct worker *w, const struct io_req *req, uint64_t now);

/* Ramp time is over, or latency_target's last window starts: forget what was measured. */
void worker_reset_stats(struct worker *w, uint64_t now);

/* ---- runner_check.c ---- */

bool worker_check(struct worker *w, uint64_t now);	/* periodic work; true: the job's time is up */

/* ---- runner_lat.c ---- */

/* max_latency, latency_target: the completion of req took lat ns (the job fails past them). */
__attribute__((cold)) void worker_max_latency(struct worker *w, const struct io_req *req, uint64_t lat);

void worker_lat_start(struct worker *w);	/* depth 1, the first window */
void worker_lat_restart(struct worker *w, uint64_t now);	/* ramp end: probing starts over */
/* cold: an I/O over the target (completion path); true: the job fails (at depth 1). */
__attribute__((cold)) bool worker_lat_slow(struct worker *w);
/* From worker_check(): a depth change asked for, or the window's end. true: the job is done. */
bool worker_lat_tick(struct worker *w);

/* ---- runner_rate.c ---- */

void worker_rate_setup(struct worker *w);
/* Before an I/O: flow control, then the rate. 1: go on, 0: held back by the flow (loop
 * again), -1: stop the job. */
int worker_rate_before(struct worker *w);
bool worker_rate_after(struct worker *w, enum ddir d, uint64_t len);	/* false: stop the job */

/* ---- runner_replay.c ---- */

/* After the job's start: open its write_iolog and read_iolog. false: the job fails (said). */
bool worker_iolog_start(struct worker *w);
/* The end: end_fsync and close lines, the logs closed (also after a failed start). */
void worker_iolog_end(struct worker *w);
/* cold: a write_iolog line for the I/O about to be queued (and the pass's close/open). */
__attribute__((cold)) void worker_iolog_io(struct worker *w, const struct offgen_io *io);
/* cold: the replay's next I/O, after its time has come (syncs are done in here). */
__attribute__((cold)) bool worker_replay_next(struct worker *w, struct offgen_io *io);
/* ---- runner_debug.c ---- */

/* A --debug line of category c (enum debug_cat), if that category is on. */
void worker_debug(struct worker *w, int c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* With --debug=io: wrap the engine so that each request is logged (queue, complete). 0 or -ENOMEM. */
int worker_debug_wrap(struct worker *w);

/* ---- runner_vstate.c ---- */

/* verify_state_load of every job that asks, before anything is touched (vs[j], NULL for the
 * others; free each). 0, or -errno with err set. */
int runner_vstate_load(const struct fio_config *cfg, struct vstate **vs, struct iops_err *err);
int worker_vstate_setup(struct worker *w, struct iops_err *err);
/* A write completed: remember it for the state file. */
void worker_vstate_write(struct worker *w, const struct io_req *req);
/* The job ends: write the state file (errors are reported on diag). */
void worker_vstate_teardown(struct worker *w);
/* verify_state_load: does the read io go past what the writer completed? */
bool worker_vstate_stop(struct worker *w, const struct offgen_io *io);

/* ---- runner_verify.c ---- */

/* verify_only: a write (or trim) completes at once, counted, without I/O. */
void worker_verify_dry(struct worker *w, struct io_req *req);
/* trim_backlog: a trim of a verified block to issue before the next I/O (io filled), or false. */
bool worker_trim_backlog(struct worker *w, struct offgen_io *io);

/* cold: as worker_log_io(), for the read completions of a verifying job. */
__attribute__((cold)) void worker_verify_read(struct worker *w, struct io_req *req);
void worker_verify_prep(struct worker *w, struct io_req *req);
/* verify_backlog: a read-back to issue before the next I/O (io filled), or false. */
bool worker_verify_backlog(struct worker *w, struct offgen_io *io);
/* Verify state of a job with verify= (runner_setup.c calls it once the offset generator is
 * ready): 0 or -errno (err filled). */
int worker_verify_setup(struct worker *w, struct iops_err *err);
void worker_verify_teardown(struct worker *w);
bool worker_verify_start(struct worker *w);	/* false: the job stops instead */
bool worker_verify_next(struct worker *w, struct offgen_io *io);	/* false: the phase is over */

/* ---- the jobs' threads (runner.c), for the run's stages (runner_stages.c) ---------------- */

struct runner_thread {
	pthread_t tid;
	bool started, joined, abandoned;
	struct worker w;
};

/* exitall, exit_what, exitall_on_error: what a job that ends may end of the others. */
struct runner_exit {
	const struct fio_config *cfg;
	struct runner_thread *threads;
	atomic_bool no_more;		/* exit_what=all: start no further job */
};

/* A job's thread (arg: its struct worker). */
void *worker_main(void *arg);
/* A job that will not run after all: no longer awaited by cpuio's exit_on_io_done. */
void runner_io_job_gone(struct runner_thread *t);
/* Join t's thread into res, or abandon it when it will not end (runner.c tells when). */
void runner_join(struct runner_thread *t, struct job_result **res);

#endif

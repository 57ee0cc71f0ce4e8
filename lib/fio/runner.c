#include "fio/runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "fio/eta.h"
#include "fio/iolog.h"
#include "fio/offgen.h"
#include "fio/rate.h"
#include "core/rng.h"
#include "fio/target.h"
#include "fio/verify.h"

_Static_assert((int)IO_READ == DDIR_READ && (int)IO_WRITE == DDIR_WRITE && (int)IO_TRIM == DDIR_TRIM,
	       "engine directions are the job's");

#define RUNNER_BUF_ALIGN	4096u
#define RUNNER_CHECK_MAX	1024u	/* gtod_reduce: read the clock at least every N ios */

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
	void *buf_mem;
	struct rng buf_rng;
	struct offgen og;
	bool og_ready;

	bool clat_on, lat_on, slat_on, lat_hist_on, clock_per_io;
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

	/* rate: rate limiting and think time (lib/rate.c) */
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
	/* verify (lib/verify.h) */
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

struct runner_thread {
	pthread_t tid;
	bool started, joined;
	struct worker w;
};

/* ---- maps ------------------------------------------------------------------------------- */

unsigned runner_depth_idx(unsigned depth)
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

unsigned runner_batch_idx(unsigned nr)
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

/* fio's 2,4,10,20,50,100,250,500,750,1000 buckets for a value below 1000. */
static inline unsigned runner_lat_idx(uint64_t v)
{
	if (v >= 750)
		return 9;
	if (v >= 500)
		return 8;
	if (v >= 250)
		return 7;
	if (v >= 100)
		return 6;
	if (v >= 50)
		return 5;
	if (v >= 20)
		return 4;
	if (v >= 10)
		return 3;
	if (v >= 4)
		return 2;
	if (v >= 2)
		return 1;
	return 0;
}

static inline void runner_mark_lat(struct job_result *res, uint64_t ns)
{
	if (ns < 1000) {
		res->lat_n[runner_lat_idx(ns)]++;
	} else if (ns < 1000000) {
		res->lat_u[runner_lat_idx(ns / 1000)]++;
	} else {
		uint64_t ms = ns / 1000000;

		if (ms >= 2000)
			res->lat_m[11]++;
		else if (ms >= 1000)
			res->lat_m[10]++;
		else
			res->lat_m[runner_lat_idx(ms)]++;
	}
}

/* ---- progress (status line) -------------------------------------------------------------- */

static void worker_publish(struct worker *w)
{
	for (int d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&w->prog->io_bytes[d], w->res->ddir[d].io_bytes, memory_order_relaxed);
		atomic_store_explicit(&w->prog->ios[d], w->res->ddir[d].total_ios, memory_order_relaxed);
	}
}

static void worker_set_state(struct worker *w, char c)
{
	atomic_store_explicit(&w->prog->state, c, memory_order_relaxed);
}

/* ---- statistics helpers ----------------------------------------------------------------- */

static void worker_rusage(struct rusage *ru)
{
	if (getrusage(RUSAGE_THREAD, ru) < 0)
		memset(ru, 0, sizeof(*ru));
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

static uint64_t diff_u64(long a, long b)
{
	return a > b ? (uint64_t)(a - b) : 0;
}

/* Ramp time is over: forget everything measured so far (fio's reset_all_stats()). */
static void worker_reset_stats(struct worker *w, uint64_t now)
{
	struct job_result *res = w->res;
	const struct job *job = res->job;
	int pid = res->pid;

	memset(res, 0, sizeof(*res));
	res->job = job;
	res->pid = pid;
	w->start_ns = now;
	w->sample_t0_ns = now;
	w->iops_t0_ns = now;
	memset(w->sample_bytes, 0, sizeof(w->sample_bytes));
	memset(w->sample_ios, 0, sizeof(w->sample_ios));
	worker_rusage(&w->ru0);
	worker_publish(w);
	atomic_store_explicit(&w->prog->epoch_ns, clock_now_ns(), memory_order_relaxed);
	worker_set_state(w, eta_run_char(job));
}

/* One bw (or iops) window is over (fio's __add_samples()): a sample per direction that moved,
 * into the summary statistics and the log; the next window starts where this one should have
 * ended, so windows do not drift. */
static __attribute__((cold)) void worker_sample(struct worker *w, uint64_t now, bool bw)
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
					  (unsigned)d, 0, 0);
		}
		*last = cur;
	}
	*t0 = now - *t0 < 2 * win ? *t0 + win : now;
}

static void worker_plan_check(struct worker *w)
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
	w->next_check_ns = next;
}

/* cpu figures since the job's start (getrusage of this thread): the final result and, with
 * status-interval, every snapshot. */
static __attribute__((noinline)) void worker_cpu(struct worker *w, struct job_result *r)
{
	struct rusage ru;

	worker_rusage(&ru);
	r->usr_us = tv_us(&ru.ru_utime) > tv_us(&w->ru0.ru_utime) ? tv_us(&ru.ru_utime) - tv_us(&w->ru0.ru_utime) : 0;
	r->sys_us = tv_us(&ru.ru_stime) > tv_us(&w->ru0.ru_stime) ? tv_us(&ru.ru_stime) - tv_us(&w->ru0.ru_stime) : 0;
	r->ctx = diff_u64(ru.ru_nvcsw + ru.ru_nivcsw, w->ru0.ru_nvcsw + w->ru0.ru_nivcsw);
	r->majf = diff_u64(ru.ru_majflt, w->ru0.ru_majflt);
	r->minf = diff_u64(ru.ru_minflt, w->ru0.ru_minflt);
}

/* status-interval: answer a snapshot request (runner_snapshot) with the results as of now;
 * runtimes and cpu as fio's __show_running_run_stats() computes them for a running job. */
static __attribute__((cold, noinline)) void worker_snapshot(struct worker *w, uint64_t now)
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

/* Periodic work at time now. Returns true when the job's time is up. */
static bool worker_check(struct worker *w, uint64_t now)
{
	if (w->deadline_ns && now >= w->deadline_ns)
		return true;
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
			/* the runtime counts from here, as fio's: a ramp end noticed late (a long I/O,
			 * a busy machine) must not shorten the measured part */
			if (w->job->runtime_ns)
				w->deadline_ns = now + w->job->runtime_ns;
		}
	} else {
		if (w->bw_win_ns && now - w->sample_t0_ns >= w->bw_win_ns)
			worker_sample(w, now, true);
		if (w->iops_win_ns && now - w->iops_t0_ns >= w->iops_win_ns)
			worker_sample(w, now, false);
	}
	worker_plan_check(w);
	return false;
}

/* ---- errors ----------------------------------------------------------------------------- */

static void worker_set_error(struct worker *w, int e, const char *where, const char *func)
{
	if (w->error)
		return;
	w->error = e;
	w->res->error = e;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:%s, func=%s, error=%s", where, func, strerror(e));
}

static void worker_io_error(struct worker *w, const struct io_req *req)
{
	int e = (int)-req->result;
	const struct job *job = w->job;
	const char *path = job->filenames && req->file_idx < job->nr_files ? job->filenames[req->file_idx] : job->name;

	if (w->error)
		return;
	if (req->op == IO_TRIM) {
		/* trim: fio 3.33 fails the queue call itself, without an io_u error line */
		worker_set_error(w, e, "ioengines.c:399", "td_io_queue");
		return;
	}
	if (req->op == IO_READ || req->op == IO_WRITE)
		fprintf(w->diag, "fio: io_u error on file %s: %s: %s offset=%llu, buflen=%llu\n", path, strerror(e),
			req->op == IO_READ ? "read" : "write", (unsigned long long)req->offset,
			(unsigned long long)req->len);
	else
		fprintf(w->diag, "fio: io_u error on file %s: %s: sync\n", path, strerror(e));
	if (e == EINVAL && w->job->direct && !w->direct_hint_done) {
		w->direct_hint_done = true;
		fprintf(w->diag, "fio: first direct IO errored. File system may not support direct IO, or iomem_align= is bad, or invalid block size. Try setting direct=0.\n");
	}
	worker_set_error(w, e, "io_u.c:1876", "io_u error");
}

/* ---- verify (lib/verify.h) -------------------------------------------------------------- */

__attribute__((noinline, cold)) static void worker_verify_read(struct worker *w, struct io_req *req)
{
	const struct job *job = w->job;
	struct verify_io vio = {
		.path = req->file_idx < job->nr_files ? job->filenames[req->file_idx] : job->name,
		.offset = req->offset,
		.len = req->len,
		.flags = w->vfy_in_phase ? 0x88u : 0x8u,
		.seed_known = w->vfy_in_phase && job->verify_pattern_len == 0,
		.seed = w->vreq_seed ? w->vreq_seed[req->index] : 0,
	};

	if (job->verify_fatal && w->error)
		return;
	if (verify_check(&w->vfy, req->buf, &vio, w->diag) == 0 || w->error)
		return;
	/* fio's td_verror() text, with glibc's strerror(EILSEQ) as fio prints it */
	w->error = EILSEQ;
	w->res->error = EILSEQ;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:%s, error=Invalid or incomplete multibyte or wide character",
		 (w->ops->flags & ENGINE_F_SYNC) ? "io_u.c:2152, func=io_u_sync_complete" :
		 "io_u.c:2190, func=io_u_queued_complete");
}

/* A request of a verifying writer: a write gets its headers and is logged for the verify
 * phase; a read-back remembers the seed it must find. */
__attribute__((noinline, cold)) static void worker_verify_prep(struct worker *w, struct io_req *req)
{
	uint64_t seq, seed;
	struct verify_ent *e;

	if (req->op != IO_WRITE) {
		if (w->vfy_in_phase)
			w->vreq_seed[req->index] = w->vcur_seed;
		return;
	}
	seq = w->vlog_seq++;
	seed = verify_fill(&w->vfy, req->buf, req->len, req->offset, &w->buf_rng, (uint32_t)seq, clock_now_ns());
	if (!w->vfy_phases)
		return;
	if (w->vlog_nr == w->vlog_cap) {
		size_t cap = w->vlog_cap ? w->vlog_cap * 2 : 4096;
		struct verify_ent *n = cap > SIZE_MAX / sizeof(*n) ? NULL : realloc(w->vlog, cap * sizeof(*n));

		if (!n) {
			fprintf(w->diag, "fio: %s: out of memory for the verify log (%zu blocks)\n", w->job->name, cap);
			worker_set_error(w, ENOMEM, "verify.c:0", "log_io_piece");
			return;
		}
		w->vlog = n;
		w->vlog_cap = cap;
	}
	e = &w->vlog[w->vlog_nr++];
	e->offset = req->offset;
	e->len = (uint32_t)req->len;
	e->file = req->file_idx;
	e->seed = seed;
	e->seq = seq;
}

static void worker_drain(struct worker *w);

/* The pass just ended: its blocks are read back next (sorted by file and offset, the last
 * write of a block wins). Returns false when the job stops instead. */
__attribute__((noinline, cold)) static bool worker_verify_start(struct worker *w)
{
	uint64_t t;

	worker_drain(w);
	t = clock_src_now(w->clk);
	w->vio_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->nr_vphases++;
	if (w->error || ctl_stopped(w->ctl))
		return false;
	w->vlog_nr = verify_log_sort(w->vlog, w->vlog_nr);
	w->vlog_pos = 0;
	w->vfy_in_phase = true;
	w->vfy_reads = w->vfy_check;
	worker_set_state(w, 'V');
	return true;
}

/* The next block to read back; at the end of the phase, false (and back to writing). */
__attribute__((noinline, cold)) static bool worker_verify_next(struct worker *w, struct offgen_io *io)
{
	uint64_t t;

	if (w->vlog_pos < w->vlog_nr) {
		const struct verify_ent *e = &w->vlog[w->vlog_pos++];

		io->ddir = DDIR_READ;
		io->file = e->file;
		io->offset = e->offset;
		io->len = e->len;
		w->vcur_seed = e->seed;
		w->og.verify_bytes += e->len;
		return true;
	}
	worker_drain(w);
	t = clock_src_now(w->clk);
	w->vread_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->vlog_nr = 0;
	w->vfy_in_phase = false;
	w->vfy_reads = w->vfy_check && !w->job->rw_has_write;
	worker_set_state(w, eta_run_char(w->job));
	return false;
}

/* ---- completions ------------------------------------------------------------------------ */

/* logs: one completed read/write (fio's account_io_completion() for logs): per-I/O bw and iops
 * samples when those logs are per unit, and the log entries. Never during ramp time. */
static __attribute__((noinline, cold)) void worker_log_io(struct worker *w, const struct io_req *req, uint64_t now)
{
	struct ddir_result *dr = &w->res->ddir[req->op];
	uint64_t ms = (now - w->start_ns) / CLOCK_NS_PER_MS, bytes = (uint64_t)req->result;
	unsigned d = (unsigned)req->op;

	if (w->in_ramp || now < w->start_ns)
		return;
	if (w->clat_on) {
		uint64_t clat = now > req->issue_ns ? now - req->issue_ns : 0;

		iolog_add(w->iolog, IOLOG_CLAT, ms, clat, d, bytes, req->offset);
		if (!w->bw_win_ns) {
			uint64_t rate = clat ? bytes * 1000000u / clat : 0;

			lat_stat_add(&dr->bw_kib, rate);
			iolog_add(w->iolog, IOLOG_BW, ms, rate, d, bytes, req->offset);
		}
		if (!w->iops_win_ns) {
			lat_stat_add(&dr->iops, 1);
			iolog_add(w->iolog, IOLOG_IOPS, ms, 1, d, bytes, req->offset);
		}
	}
	if (w->lat_on)
		iolog_add(w->iolog, IOLOG_LAT, ms, now > req->start_ns ? now - req->start_ns : 0, d, bytes,
			  req->offset);
}

static inline void worker_complete(struct worker *w, struct io_req *req, uint64_t now)
{
	struct job_result *res = w->res;

	if (__builtin_expect(req->op == IO_FSYNC || req->op == IO_FDATASYNC, 0)) {
		if (req->result < 0)
			worker_io_error(w, req);
		else {
			res->sync_ios++;
			if (w->clat_on) {
				uint64_t lat = now > req->start_ns ? now - req->start_ns : 0;

				lat_stat_add(&res->sync_lat, lat);
				hist_add(&res->sync_hist, lat);
			}
		}
	} else if (__builtin_expect(req->result < 0, 0)) {
		worker_io_error(w, req);
	} else {
		struct ddir_result *dr = &res->ddir[req->op];

		if (__builtin_expect((uint64_t)req->result != req->len, 0))
			dr->short_ios++;
		else if (__builtin_expect(w->vfy_reads, 0) && req->op == IO_READ)
			worker_verify_read(w, req);	/* verify */
		dr->io_bytes += (uint64_t)req->result;
		dr->total_ios++;
		if (w->clat_on) {
			uint64_t clat = now > req->issue_ns ? now - req->issue_ns : 0;

			lat_stat_add(&dr->clat, clat);
			hist_add(&dr->clat_hist, clat);
			runner_mark_lat(res, clat);
		}
		if (w->lat_on) {
			uint64_t lat = now > req->start_ns ? now - req->start_ns : 0;

			lat_stat_add(&dr->lat, lat);
			if (w->lat_hist_on)
				hist_add(&dr->lat_hist, lat);
		}
		if (__builtin_expect(w->iolog != NULL, 0))	/* logs */
			worker_log_io(w, req, now);
	}
	w->free_reqs[w->nr_free++] = req;
}

/* Submit what is queued. Returns 0 or -errno. */
static int worker_commit(struct worker *w)
{
	while (w->nr_pend) {
		int n = w->ops->commit ? w->ops->commit(w->ectx) : (int)w->nr_pend;
		uint64_t now = 0;

		if (n < 0) {
			/* the engine could not submit: fail the pending requests */
			for (unsigned i = 0; i < w->nr_pend; i++) {
				w->pend[i]->result = n;
				worker_complete(w, w->pend[i], w->now_ns);
			}
			w->nr_pend = 0;
			return n;
		}
		if ((unsigned)n > w->nr_pend)
			n = (int)w->nr_pend;
		if (n == 0) {
			if (!w->in_flight)
				return -EAGAIN;
			return 0;	/* the caller reaps and comes back */
		}
		if (w->clock_per_io && !w->sets_issue) {
			now = clock_src_now(w->clk);
			w->now_ns = now;	/* the next request starts from here */
		}
		for (int i = 0; i < n; i++) {
			struct io_req *req = w->pend[i];

			if (w->clock_per_io) {
				if (!w->sets_issue)
					req->issue_ns = now;
				if (w->slat_on) {
					uint64_t slat = req->issue_ns > req->start_ns ? req->issue_ns - req->start_ns : 0;

					lat_stat_add(&w->res->ddir[(unsigned)req->op < (unsigned)DDIR_NR ? req->op : 0].slat, slat);
					if (__builtin_expect(w->iolog != NULL, 0) && !w->in_ramp &&	/* logs */
					    (req->op == IO_READ || req->op == IO_WRITE) && req->issue_ns >= w->start_ns)
						iolog_add(w->iolog, IOLOG_SLAT, (req->issue_ns - w->start_ns) / CLOCK_NS_PER_MS,
							  slat, (unsigned)req->op, req->len, req->offset);
				}
			}
		}
		w->in_flight += (unsigned)n;
		w->res->depth_map[runner_depth_idx(w->depth - w->nr_free)] += (uint64_t)n;
		w->res->submit_map[runner_batch_idx((unsigned)n)]++;
		w->res->nr_submit_calls++;
		if ((unsigned)n < w->nr_pend)
			memmove(w->pend, w->pend + n, (w->nr_pend - (unsigned)n) * sizeof(*w->pend));
		w->nr_pend -= (unsigned)n;
		if (w->nr_pend && w->in_flight)
			return 0;
	}
	return 0;
}

/* Reap at least min (capped at what is in flight) completions. Returns the number or -errno. */
static int worker_reap(struct worker *w, unsigned min)
{
	unsigned max = w->cmax < w->in_flight ? w->cmax : w->in_flight;
	int n;

	if (!w->in_flight)
		return 0;
	if (max == 0)
		max = 1;
	if (min > max)
		min = max;
	n = w->ops->reap(w->ectx, min, max, NULL, w->done);
	if (n < 0) {
		if (n == -EINTR || n == -EAGAIN)
			return 0;
		worker_set_error(w, -n, "ioengines.c:0", "io_getevents");
		fprintf(w->diag, "fio: io engine %s: reaping completions failed: %s\n", w->ops->name, strerror(-n));
		return n;
	}
	if (w->clock_per_io)
		w->now_ns = clock_src_now(w->clk);
	for (int i = 0; i < n; i++)
		worker_complete(w, w->done[i], w->now_ns);
	w->in_flight -= (unsigned)n;
	if (n > 0) {
		w->res->complete_map[runner_batch_idx((unsigned)n)]++;
		w->res->nr_complete_calls++;
	}
	return n;
}

/* Wait until nothing is queued or in flight. */
static void worker_drain(struct worker *w)
{
	int guard = 0;

	while (w->nr_pend || w->in_flight) {
		if (w->nr_pend && worker_commit(w) < 0 && !w->in_flight)
			break;
		if (w->in_flight && worker_reap(w, w->in_flight) < 0)
			break;
		if (!w->in_flight && w->nr_pend && ++guard > 1000) {
			/* the engine keeps refusing: fail what is left rather than drop it silently */
			if (!w->error)
				fprintf(w->diag, "fio: io engine %s: %u requests could not be submitted\n", w->ops->name,
					w->nr_pend);
			worker_set_error(w, EIO, "ioengines.c:0", "commit");
			w->nr_pend = 0;
			break;
		}
	}
}

/* Queue one prepared request; handles DONE / QUEUED / BUSY / errors. Returns 0 or -errno
 * for a fatal engine condition. */
static int worker_queue(struct worker *w, struct io_req *req)
{
	for (;;) {
		int ret = w->ops->queue(w->ectx, req);

		if (ret == ENGINE_DONE) {
			uint64_t now = w->clock_per_io ? clock_src_now(w->clk) : w->now_ns;

			if (__builtin_expect((unsigned)req->op < (unsigned)DDIR_NR, 1)) {
				/* fio marks depth and batches for data directions (trim too) only */
				w->res->depth_map[runner_depth_idx(w->depth - w->nr_free)]++;
				w->res->submit_map[1]++;
				w->res->complete_map[1]++;
				w->res->nr_submit_calls++;
				w->res->nr_complete_calls++;
			}
			w->now_ns = now;
			worker_complete(w, req, now);
			return 0;
		}
		if (ret == ENGINE_QUEUED) {
			w->pend[w->nr_pend++] = req;
			if (w->nr_pend >= w->batch_submit)
				(void)worker_commit(w);	/* failures complete the requests with the error */
			return 0;
		}
		if (ret == ENGINE_BUSY) {
			int r = worker_commit(w);

			if (r < 0 && r != -EAGAIN)
				return r;
			if (!w->in_flight) {
				req->result = -EBUSY;
				worker_complete(w, req, w->now_ns);
				return -EBUSY;
			}
			if (worker_reap(w, 1) < 0)
				return -EIO;
			continue;
		}
		req->result = ret < 0 ? ret : -EIO;
		worker_complete(w, req, w->now_ns);
		return 0;
	}
}

static void worker_sync(struct worker *w)
{
	struct io_req *req;

	w->sync_pending = false;
	worker_drain(w);
	if (w->error || !w->nr_free)
		return;
	req = w->free_reqs[--w->nr_free];
	req->op = w->job->fsync_every ? IO_FSYNC : IO_FDATASYNC;
	req->fd = w->fds[w->last_write_file];
	req->offset = 0;
	req->len = 0;
	req->file_idx = w->last_write_file;
	req->result = 0;
	req->start_ns = w->clock_per_io ? clock_src_now(w->clk) : w->now_ns;
	req->issue_ns = req->start_ns;
	if (worker_queue(w, req) < 0)
		return;
	worker_drain(w);
}

/* ---- rate: rate limiting and think time ------------------------------------------------ */

/* Sleep until the clock_src time until_ns (or a stop). Returns false on a stop. */
__attribute__((cold, noinline)) static bool worker_sleep_until(struct worker *w, uint64_t until_ns)
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
__attribute__((cold, noinline)) static bool worker_rate_wait(struct worker *w)
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
	worker_drain(w);
	return worker_sleep_until(w, until) && !w->error;
}

/* fio's handle_thinktime(): after the I/O, think when thinktime_blocks I/Os (or
 * thinktime_iotime) have passed: complete what is in flight, spin, then sleep. */
__attribute__((cold, noinline)) static void worker_think(struct worker *w, enum ddir d)
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
	worker_drain(w);
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
__attribute__((cold, noinline)) static bool worker_rate_after(struct worker *w, enum ddir d, uint64_t len)
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

__attribute__((cold, noinline)) static void worker_rate_setup(struct worker *w)
{
	const struct job *job = w->job;

	w->rate_on = rate_enabled(job);
	w->rate_min_on = rate_min_enabled(job);
	w->think_on = job->thinktime_ns > 0;
	w->rate_any = w->rate_on || w->rate_min_on || w->think_on;
	w->rate_t0_ns = w->think_last_ns = w->start_ns;
	if (w->rate_on)
		rate_init(&w->rate, job, rng_job_seed(job->randseed, job->randrepeat || job->allrandrepeat ||
						      job->randseed_set, job->thread_number, RNG_FILE) ^ 0x7261746570726f63ull);
	if (w->rate_min_on)
		rate_min_init(&w->rate_min, job);
}

/* ---- the I/O loop ----------------------------------------------------------------------- */

/* trim: does file f of this job take BLKDISCARD (a device, as fio) rather than a punched hole
 * (a regular file)? */
static bool worker_file_trim_ioctl(const struct worker *w, unsigned f)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];
	enum target_kind k;

	if (tj->diskless || f >= tj->nr_files)
		return false;
	k = w->ts->paths[tj->files[f].path].kind;
	return k == TARGET_BDEV || k == TARGET_CHR;
}

static void worker_loop(struct worker *w)
{
	const struct job *job = w->job;
	unsigned sync_every = job->fsync_every ? job->fsync_every : job->fdatasync_every;
	bool refill = job->refill_buffers && !job->zero_buffers;
	/* one test in the loop for refill, trim (trim) and verify (verify) */
	bool per_io_extra = refill || job->rw_has_trim || w->vfy_fill;
	struct offgen_io io;

	w->now_ns = clock_src_now(w->clk);
	for (;;) {
		struct io_req *req;

		if (!w->clock_per_io && ++w->check_count >= w->check_every) {
			uint64_t now = clock_src_now(w->clk);

			/* adapt: aim for a clock read every ~50..500 us */
			if (now - w->now_ns < 50000u && w->check_every < RUNNER_CHECK_MAX)
				w->check_every *= 2;
			else if (now - w->now_ns > 500000u && w->check_every > 1)
				w->check_every /= 2;
			w->check_count = 0;
			w->now_ns = now;
		}
		if (__builtin_expect(w->now_ns >= w->next_check_ns, 0) && worker_check(w, w->now_ns))
			break;
		if (__builtin_expect(ctl_stopped(w->ctl) || w->error, 0))
			break;
		if (!w->nr_free) {
			if (worker_commit(w) < 0 && !w->in_flight)
				break;
			if (worker_reap(w, w->cmin ? w->cmin : 0) < 0)
				break;
			while (w->depth_low < w->depth && w->in_flight > w->depth_low && !w->error)
				if (worker_reap(w, 1) < 0)
					break;
			continue;
		}
		if (__builtin_expect(w->rate_any, 0) && w->rate_on && !worker_rate_wait(w))	/* rate */
			break;
		if (__builtin_expect(w->vfy_in_phase, 0)) {
			if (!worker_verify_next(w, &io))
				continue;	/* verify: the pass is checked, on to the next one */
		} else if (!offgen_next(&w->og, &io)) {
			if (__builtin_expect(w->og.paused, 0) && worker_verify_start(w))
				continue;	/* verify: read the pass back first */
			break;
		}
		if (__builtin_expect(w->sync_pending, 0)) {
			/* fio issues the sync before the I/O that follows the Nth write */
			worker_sync(w);
			if (w->error || !w->nr_free)
				break;
		}
		req = w->free_reqs[--w->nr_free];
		req->op = (enum io_op)io.ddir;
		req->fd = w->fds[io.file];
		req->offset = io.offset;
		req->len = io.len;
		req->file_idx = io.file;
		req->result = 0;
		if (__builtin_expect(per_io_extra, 0)) {
			if (io.ddir == DDIR_TRIM)	/* trim: discard or punch */
				req->trim_ioctl = worker_file_trim_ioctl(w, io.file);
			else if (w->vfy_fill)
				worker_verify_prep(w, req);	/* verify */
			else if (refill && io.ddir == DDIR_WRITE)
				rng_fill(&w->buf_rng, req->buf, (size_t)io.len);
		}
		/* start: the last clock reading (the previous completion), as fio's start_time is
		 * taken before the offset is chosen; issue: right before queue() for engines that
		 * complete there (sync engines, null at depth 1), at commit() for the others. */
		req->start_ns = w->now_ns;
		if (w->clock_per_io && w->issue_at_queue)
			req->issue_ns = clock_src_now(w->clk);
		else
			req->issue_ns = req->start_ns;
		w->res->ddir[io.ddir].issued_ios++;
		if (sync_every && io.ddir == DDIR_WRITE) {
			w->last_write_file = io.file;
			if (++w->writes_since_sync >= sync_every) {
				w->writes_since_sync = 0;
				w->sync_pending = true;
			}
		}
		if (worker_queue(w, req) < 0)
			break;
		if (__builtin_expect(w->rate_any, 0) && !worker_rate_after(w, io.ddir, io.len))	/* rate */
			break;
	}
	worker_drain(w);
}

/* ---- job setup / teardown --------------------------------------------------------------- */

static int worker_setup(struct worker *w, struct iops_err *err)
{
	const struct job *job = w->job;
	const struct target_job *tj = &w->ts->jobs[w->idx];
	struct engine_cfg ecfg = { .depth = job->iodepth ? job->iodepth : 1, .direct = job->direct };
	uint64_t max_bs = 0, buf_bytes;
	uint64_t *starts = NULL, *lens = NULL;
	int ret;

	for (int d = 0; d < DDIR_NR; d++)
		if (job->bs_max[d] > max_bs)
			max_bs = job->bs_max[d];
	w->depth = ecfg.depth;
	if (max_bs == 0 || max_bs > RUNNER_MAX_BUF_BYTES || w->depth > RUNNER_MAX_BUF_BYTES / max_bs) {
		iops_err_set(err, EINVAL, "fio: %s: iodepth %u x bs %llu is too much buffer memory", job->name,
			     w->depth, (unsigned long long)max_bs);
		return -EINVAL;
	}
	max_bs = (max_bs + RUNNER_BUF_ALIGN - 1) / RUNNER_BUF_ALIGN * RUNNER_BUF_ALIGN;
	/* One buffer per request, as fio. Sharing buffers between read-only O_DIRECT requests
	 * would cut memory (seed 000: 8 jobs x QD256 x 128 KiB = 256 MiB) but was measured here to
	 * cost 35-50% of the throughput (16 or 64 shared buffers per job, virtio disk). */
	buf_bytes = max_bs * w->depth;
	w->batch_submit = job->iodepth_batch_submit ? job->iodepth_batch_submit : 1;
	if (w->batch_submit > w->depth)
		w->batch_submit = w->depth;
	w->cmin = job->iodepth_batch_complete_min;
	if (w->cmin > w->depth)
		w->cmin = w->depth;
	w->cmax = job->iodepth_batch_complete_max ? job->iodepth_batch_complete_max : 1;
	if (w->cmax < w->cmin)
		w->cmax = w->cmin;
	if (w->cmax > w->depth || w->cmax == 0)
		w->cmax = w->depth;
	w->depth_low = job->iodepth_low && job->iodepth_low <= w->depth ? job->iodepth_low : w->depth;
	/* Engines that set issue_ns themselves (ENGINE_F_SETS_ISSUE) read CLOCK_MONOTONIC; the
	 * runner's clock is the calibrated TSC, so it stamps issue_ns itself after commit()
	 * (one read per batch, as the engine would) to keep every timestamp on one time base. */
	w->sets_issue = false;

	w->fds = calloc(tj->nr_files, sizeof(*w->fds));
	w->reqs = calloc(w->depth, sizeof(*w->reqs));
	w->free_reqs = calloc(w->depth, sizeof(*w->free_reqs));
	w->pend = calloc(w->depth, sizeof(*w->pend));
	w->done = calloc(w->depth, sizeof(*w->done));
	if (!w->fds || !w->reqs || !w->free_reqs || !w->pend || !w->done)
		goto nomem;
	for (unsigned f = 0; f < tj->nr_files; f++)
		w->fds[f] = -1;
	if (posix_memalign(&w->buf_mem, RUNNER_BUF_ALIGN, (size_t)buf_bytes))
		goto nomem;
	rng_init(&w->buf_rng, rng_job_seed(job->randseed, job->allrandrepeat || job->randseed_set,
					   job->thread_number, RNG_BUF));
	if (job->zero_buffers)
		memset(w->buf_mem, 0, (size_t)buf_bytes);
	else
		rng_fill(&w->buf_rng, w->buf_mem, (size_t)buf_bytes);

	starts = calloc(tj->nr_files, sizeof(*starts));
	lens = calloc(tj->nr_files, sizeof(*lens));
	if (!starts || !lens)
		goto nomem;
	for (unsigned f = 0; f < tj->nr_files; f++) {
		starts[f] = tj->files[f].io_start;
		lens[f] = tj->files[f].io_len;
	}
	ret = offgen_init(&w->og, job, starts, lens, tj->nr_files, tj->total_size, err);
	free(starts);
	free(lens);
	starts = lens = NULL;
	if (ret < 0)
		return ret;
	w->og_ready = true;
	if (job->verify != VERIFY_NONE) {	/* verify */
		verify_ctx_init(&w->vfy, job);
		w->vfy_fill = job->rw_has_write;
		w->vfy_check = !(w->ops->flags & ENGINE_F_DISKLESS);	/* fio checks nothing there either */
		w->vfy_reads = w->vfy_check && !job->rw_has_write;
		w->vfy_phases = job->rw_has_write && job->do_verify && !w->og.wrap;
		w->og.pause_passes = w->vfy_phases;
		w->vreq_seed = calloc(w->depth, sizeof(*w->vreq_seed));
		if (!w->vreq_seed)
			goto nomem;
	}

	ret = target_open(w->ts, w->idx, w->fds, w->diag, err);
	if (ret < 0)
		return ret;
	ret = w->ops->init(&ecfg, &w->ectx, err);
	if (ret < 0) {
		if (!iops_err_isset(err))
			iops_err_set(err, -ret, "fio: io engine %s init failed. Perhaps try reducing io depth?",
				     w->ops->name);
		w->ectx = NULL;
		return ret;
	}
	for (unsigned i = 0; i < w->depth; i++) {
		struct io_req *req = &w->reqs[i];

		req->buf = (char *)w->buf_mem + (size_t)max_bs * i;
		req->index = i;
		req->fd = -1;
		if (w->ops->prep) {
			ret = w->ops->prep(w->ectx, req);
			if (ret < 0) {
				iops_err_set(err, -ret, "fio: io engine %s: preparing requests failed: %s", w->ops->name,
					     strerror(-ret));
				return ret;
			}
		}
		w->free_reqs[w->depth - 1 - i] = req;
	}
	w->nr_free = w->depth;
	return 0;

nomem:
	free(starts);
	free(lens);
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for %u requests of %llu bytes", job->name, w->depth,
		     (unsigned long long)max_bs);
	return -ENOMEM;
}

static void worker_teardown(struct worker *w)
{
	if (w->ectx)
		w->ops->cleanup(w->ectx);
	w->ectx = NULL;
	if (w->fds) {
		int ret = target_close(w->ts, w->idx, w->fds);

		if (ret < 0 && !w->error)
			worker_set_error(w, -ret, "filesetup.c:0", "fsync/close");
	}
	if (w->og_ready)
		offgen_release(&w->og);
	w->og_ready = false;
	free(w->buf_mem);
	free(w->vlog);		/* verify */
	free(w->vreq_seed);
	w->vlog = NULL;
	w->vreq_seed = NULL;
	free(w->fds);
	free(w->reqs);
	free(w->free_reqs);
	free(w->pend);
	free(w->done);
	w->buf_mem = NULL;
	w->fds = NULL;
	w->reqs = NULL;
	w->free_reqs = w->pend = w->done = NULL;
}

static void worker_end_fsync(struct worker *w)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];

	if (!w->job->end_fsync || !w->job->rw_has_write || tj->diskless)
		return;
	for (unsigned f = 0; f < tj->nr_files; f++)
		if (w->fds[f] >= 0 && fsync(w->fds[f]) < 0)
			worker_set_error(w, errno, "backend.c:0", "fsync");
}

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
	w->clock_per_io = w->clat_on || w->lat_on || w->slat_on;
	w->check_every = 1;
	w->issue_at_queue = (w->ops->flags & ENGINE_F_SYNC) || job->iodepth <= 1;

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
	if (w->error)
		fprintf(w->diag, "fio: pid=%d, err=%d/%s\n", res->pid, res->error, res->verror);
	else if (job->unlink)
		target_unlink(w->ts, w->idx, w->diag);
	atomic_store_explicit(&w->prog->snap_final, true, memory_order_release);	/* status-interval */
	worker_set_state(w, ETA_ST_EXITED);
	return NULL;
}

/* ---- scheduling ------------------------------------------------------------------------- */

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
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (ts.jobs[j].error)	/* will not run: shown as failed from the start */
			worker_set_state(&threads[j].w, ETA_ST_REAPED_ERR);
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
			continue;
		}
		if (ctl_stopped(ctl))
			continue;
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

/* ---- status-interval snapshots ----------------------------------------------------------- */

__attribute__((cold)) void runner_snapshot(struct runner_progress *prog, struct job_result *const *res,
					   unsigned nr, uint64_t timeout_ns, struct job_result **out)
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

/* SPDX-License-Identifier: MIT */
/* runner_io: the I/O loop of a job (runner_int.h): queue, commit and reap through the engine,
 * completion accounting (bytes, latencies, depth and batch maps). Everything it does per
 * request on the common path is in this file, where the compiler can inline it; the
 * completions off it (syncs, errors, short I/Os) are runner_sync.c's. The loop calls its
 * helpers (the other runner_* files); they never call it back: what they need of it, waiting
 * for what is in flight and a sync of a file, they reach through the worker (w->drain,
 * w->sync_one), set by worker_io_attach(). */
#include "fio/run/runner_int.h"
#include "fio/offset/offgen_fsvc.h"

#include <errno.h>
#include <string.h>

#include "core/stats.h"
#include "fio/ioprio.h"
#include "core/err.h"

_Static_assert((int)IO_READ == DDIR_READ && (int)IO_WRITE == DDIR_WRITE && (int)IO_TRIM == DDIR_TRIM,
	       "engine directions are the job's");

#define RUNNER_CHECK_MAX	1024u	/* gtod_reduce: read the clock at least every N ios */

/* ---- maps ------------------------------------------------------------------------------- */

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
	uint64_t *map = res->lat_n, v = ns;

	if (ns >= 1000000) {
		map = res->lat_m;
		v = ns / 1000000;
		if (v >= 1000) {
			map[v >= 2000 ? 11 : 10]++;
			return;
		}
	} else if (ns >= 1000) {
		map = res->lat_u;
		v = ns / 1000;
	}
	map[runner_lat_idx(v)]++;
}

/* ---- completions ------------------------------------------------------------------------ */

static inline void worker_complete(struct worker *w, struct io_req *req, uint64_t now)
{
	struct job_result *res = w->res;
	struct ddir_result *dr;

	if (__builtin_expect(req->op == IO_FSYNC || req->op == IO_FDATASYNC || (uint64_t)req->result != req->len, 0) &&
	    worker_complete_odd(w, req, now))
		return;
	if (__builtin_expect(w->vfy_reads, 0) && req->op == IO_READ && (uint64_t)req->result == req->len) {
		worker_verify_read(w, req);	/* verify */
	} else if (__builtin_expect(w->vs_ring != NULL, 0) && req->op == IO_WRITE) {
		worker_vstate_write(w, req);	/* verify_state_save */
	}
	dr = &res->ddir[req->op];
	dr->io_bytes += (uint64_t)req->result;
	dr->total_ios++;
	if (w->clat_on && __builtin_expect(req->lat_mode != IO_LAT_NONE, 1)) {
		uint64_t clat = now > req->issue_ns ? now - req->issue_ns : 0;

		lat_stat_add(&dr->clat, clat);
		hist_add(&dr->clat_hist, clat);
		if (__builtin_expect(req->lat_mode == IO_LAT_ALL, 1))	/* fio: not for file ops */
			runner_mark_lat(res, clat);
	}
	if (w->lat_on && __builtin_expect(req->lat_mode == IO_LAT_ALL, 1)) {
		uint64_t lat = now > req->start_ns ? now - req->start_ns : 0;

		lat_stat_add(&dr->lat, lat);
		if (w->lat_hist_on)
			hist_add(&dr->lat_hist, lat);
		if (__builtin_expect(w->max_lat_on, 0))
			worker_max_latency(w, req, lat);
	}
	if (__builtin_expect(w->prio_on, 0))	/* cmdprio */
		worker_prio_add(w, dr, req, now);
	if (__builtin_expect(w->iolog != NULL, 0))	/* logs */
		worker_log_io(w, req, now);
	w->free_reqs[w->nr_free++] = req;
}

/* The engine could not submit: fail the pending requests with n. fio records it as the
 * commit's error, without an io_u error line. fio commits each request as it queues it (its
 * iodepth_batch_submit=1), so with iops' own batching only the first of the batch is one fio
 * would have issued: the others go back to the pool, not issued (io_submit refused at
 * iodepth=8 counted 2 I/Os where fio counts 1); a batch the job asked for fails whole, as fio's. */
static __attribute__((cold, noinline)) int worker_commit_fail(struct worker *w, int n)
{
	worker_set_error(w, -n, "ioengines.c:496", "io commit");
	for (unsigned i = 0; i < w->nr_pend; i++) {
		struct io_req *req = w->pend[i];

		if (i && w->batch_auto) {
			if ((unsigned)req->op < (unsigned)DDIR_NR)
				w->res->ddir[req->op].issued_ios--;
			w->free_reqs[w->nr_free++] = req;
			continue;
		}
		req->result = n;
		worker_complete(w, req, w->now_ns);
	}
	w->nr_pend = 0;
	return n;
}

/* Submit what is queued. Returns 0 or -errno. */
static int worker_commit(struct worker *w)
{
	while (w->nr_pend) {
		int n = w->ops->commit ? w->ops->commit(w->ectx) : (int)w->nr_pend;
		uint64_t now = 0;

		if (__builtin_expect(n < 0, 0))
			return worker_commit_fail(w, n);
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
				/* slat: data directions only (a sync through an engine that does it
				 * asynchronously, posixaio, has none, as in fio) */
				if (w->slat_on && (unsigned)req->op < (unsigned)DDIR_NR) {
					uint64_t slat = req->issue_ns > req->start_ns ? req->issue_ns - req->start_ns : 0;
					struct ddir_result *dr = &w->res->ddir[req->op];

					lat_stat_add(&dr->slat, slat);
					if (w->slat_hist_on)	/* slat_percentiles */
						hist_add(&dr->slat_hist, slat);
					if (__builtin_expect(w->iolog != NULL, 0) && !w->in_ramp &&	/* logs */
					    (req->op == IO_READ || req->op == IO_WRITE) && req->issue_ns >= w->start_ns)
						iolog_add(w->iolog, IOLOG_SLAT, (req->issue_ns - w->start_ns) / CLOCK_NS_PER_MS,
							  slat, (unsigned)req->op, req->len, req->offset, req->ioprio);
				}
			}
		}
		w->in_flight += (unsigned)n;
		w->res->depth_map[runner_depth_idx(w->cap - w->nr_free)] += (uint64_t)n;
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

static __attribute__((cold, noinline)) int worker_reap_fail(struct worker *w, int n)
{
	if (n == -EINTR || n == -EAGAIN)
		return 0;
	worker_set_error(w, -n, "ioengines.c:0", "io_getevents");
	fprintf(w->diag, "fio: io engine %s: reaping completions failed: %s\n", w->ops->name, err_str(-n));
	return n;
}

/* Reap at least min (capped at what is in flight) completions. Returns the number or -errno. */
static int worker_reap(struct worker *w, unsigned min)
{
	unsigned max = w->cmax < w->in_flight ? w->cmax : w->in_flight, first_free;
	int n;

	if (!w->in_flight)
		return 0;
	if (max == 0)
		max = 1;
	if (min > max)
		min = max;
	n = w->ops->reap(w->ectx, min, max, NULL, w->done);
	if (__builtin_expect(n < 0, 0))
		return worker_reap_fail(w, n);
	if (w->clock_per_io)
		w->now_ns = clock_src_now(w->clk);
	first_free = w->nr_free;
	for (int i = 0; i < n; i++)
		worker_complete(w, w->done[i], w->now_ns);
	/* The free list is a stack: the requests one reap freed are turned round, so they are
	 * reused in the order they completed. Else a batch comes back reversed and one buffer
	 * is written twice in a row, which makes the data on disk compressible (fio, one request
	 * at a time, rotates its buffers). */
	for (unsigned lo = first_free, hi = w->nr_free; n > 1 && lo + 1 < hi; lo++, hi--) {
		struct io_req *t = w->free_reqs[lo];

		w->free_reqs[lo] = w->free_reqs[hi - 1];
		w->free_reqs[hi - 1] = t;
	}
	w->in_flight -= (unsigned)n;
	if (n > 0) {
		w->res->complete_map[runner_batch_idx((unsigned)n)]++;
		w->res->nr_complete_calls++;
	}
	return n;
}

/* Wait until nothing is queued or in flight. */
static __attribute__((cold)) void worker_drain(struct worker *w)
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

/* The end of the job's I/O: what is in flight completes, and a bw / iops window that ends
 * meanwhile is sampled, as fio's helper thread samples a job until its last I/O is in (the
 * deep queue of a time_based job drains into the next window: fio 3.33 counts 4 samples of
 * 500 ms in a 2 s job at iodepth 256, not 3). */
static __attribute__((cold)) void worker_drain_end(struct worker *w)
{
	while ((w->bw_win_ns || w->iops_win_ns) && !w->in_ramp && w->in_flight && !w->error) {
		if (w->nr_pend && worker_commit(w) < 0 && !w->in_flight)
			break;
		if (worker_reap(w, 1) < 0)
			break;
		worker_sample_due(w, clock_src_now(w->clk));
	}
	worker_drain(w);
}

/* lockfile: the file's lock is held while the request is handed to the engine (the whole
 * I/O for synchronous engines), as fio's td_io_queue() holds it. */
__attribute__((cold, noinline)) static int worker_queue_locked(struct worker *w, struct io_req *req)
{
	pthread_rwlock_t *l = w->locks[req->file_idx];
	int ret;

	if (w->lock_rw && req->op == IO_READ)
		pthread_rwlock_rdlock(l);
	else
		pthread_rwlock_wrlock(l);
	ret = w->ops->queue(w->ectx, req);
	pthread_rwlock_unlock(l);
	return ret;
}

/* The engine is busy: submit, reap one and try again (1), or fail req (-errno). */
static __attribute__((cold, noinline)) int worker_queue_busy(struct worker *w, struct io_req *req)
{
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
	return 1;
}

/* The engine failed req (ret: -errno, or a value it should not return). */
static __attribute__((cold, noinline)) int worker_queue_fail(struct worker *w, struct io_req *req, int ret)
{
	req->result = ret < 0 ? ret : -EIO;
	worker_complete(w, req, w->now_ns);
	return 0;
}

/* Queue one prepared request; handles DONE / QUEUED / BUSY / errors. Returns 0 or -errno
 * for a fatal engine condition. */
static int worker_queue(struct worker *w, struct io_req *req)
{
	for (;;) {
		int ret = __builtin_expect(w->locks != NULL, 0) ? worker_queue_locked(w, req) :
			  w->ops->queue(w->ectx, req);

		if (ret == ENGINE_DONE) {
			uint64_t now = w->clock_per_io ? clock_src_now(w->clk) : w->now_ns;

			if (__builtin_expect((unsigned)req->op < (unsigned)DDIR_NR, 1)) {
				/* fio marks depth and batches for data directions (trim too) only */
				w->res->depth_map[runner_depth_idx(w->cap - w->nr_free)]++;
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
		if (ret != ENGINE_BUSY)
			return worker_queue_fail(w, req, ret);
		ret = worker_queue_busy(w, req);
		if (ret <= 0)
			return ret;
	}
}

static __attribute__((cold)) void worker_sync_file(struct worker *w, unsigned f, enum io_op op, uint64_t log_off)
{
	struct io_req *req;

	worker_drain(w);
	if (w->error || !w->nr_free)
		return;
	if (__builtin_expect(w->wlog != NULL, 0))	/* iolog */
		iolog_write_line(w->wlog, w->now_ns, f, op == IO_FSYNC ? IOLOG_OP_SYNC : IOLOG_OP_DATASYNC, log_off, 0);
	req = w->free_reqs[--w->nr_free];
	req->op = op;
	req->fd = w->fds[f];
	req->offset = 0;
	req->len = 0;
	req->ioprio = w->job_prio;
	req->file_idx = f;
	req->result = 0;
	req->start_ns = w->clock_per_io ? clock_src_now(w->clk) : w->now_ns;
	req->issue_ns = req->start_ns;
	if (worker_queue(w, req) < 0)
		return;
	worker_drain(w);
}

/* serialize_overlap: does req overlap a request queued or in flight (same file)? The free
 * requests are marked in w->ser_mark first; the others are busy. */
static bool worker_overlaps(struct worker *w, const struct io_req *req)
{
	memset(w->ser_mark, 0, w->depth * sizeof(*w->ser_mark));
	for (unsigned i = 0; i < w->nr_free; i++)
		w->ser_mark[w->free_reqs[i]->index] = true;
	w->ser_mark[req->index] = true;
	for (unsigned i = 0; i < w->depth; i++) {
		const struct io_req *o = &w->reqs[i];

		if (!w->ser_mark[i] && o->file_idx == req->file_idx && o->len && req->len &&
		    o->offset < req->offset + req->len && req->offset < o->offset + o->len)
			return true;
	}
	return false;
}

/* serialize_overlap: wait until nothing in flight overlaps req. */
static __attribute__((cold)) void worker_serialize(struct worker *w, const struct io_req *req)
{
	while ((w->in_flight || w->nr_pend) && !w->error && worker_overlaps(w, req)) {
		if (w->nr_pend && worker_commit(w) < 0 && !w->in_flight)
			break;
		if (worker_reap(w, 1) < 0)
			break;
	}
}

static __attribute__((cold)) void worker_sync(struct worker *w)
{
	w->sync_pending = false;
	if (w->sfr_due) {	/* sync_file_range */
		w->sfr_due = false;
		worker_sfr(w);
	}
	if (!w->fsync_due)
		return;
	w->fsync_due = false;
	worker_sync_file(w, w->sync_file, w->job->fsync_every ? IO_FSYNC : IO_FDATASYNC, w->last_write_off);
}

/* fsync=N: fio's sync takes the next turn of the file service (it goes to the file chosen
 * next), and only while the job has bytes left to issue (else its loop ends first). A
 * sync_file_range alone goes to the file last written, without a turn. */
__attribute__((cold, noinline)) static void worker_sync_next(struct worker *w)
{
	int f;

	if (!offgen_has_room(&w->og)) {	/* none after the last I/O, as fio */
		w->sync_pending = w->fsync_due = w->sfr_due = false;
		return;
	}
	if (!w->fsync_due) {
		worker_sync(w);
		return;
	}
	f = offgen_sync_file(&w->og);
	if (f >= 0)
		w->sync_file = (unsigned)f;
	if (offgen_fsvc_nr_ev(&w->og))
		worker_file_events(w);	/* the sync's file opens first */
	if (w->fds[w->sync_file] < 0 && target_opens_lazily(w->ts, w->idx))
		w->sync_pending = w->fsync_due = false;	/* openfiles: no open file was free for it */
	else if (!w->error)
		worker_sync(w);
}

void worker_io_attach(struct worker *w)
{
	w->drain = worker_drain;
	w->sync_one = worker_sync_file;
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

/* What some jobs do to a request before it is queued: serialize_overlap, the metadata
 * engines' file names, trim, verify, buffer contents. */
static __attribute__((cold, noinline)) void worker_io_extra(struct worker *w, struct io_req *req,
							     const struct offgen_io *io)
{
	const struct job *job = w->job;

	if (w->ser_mark)	/* serialize_overlap */
		worker_serialize(w, req);
	if (w->paths)	/* metadata engines: the file by name */
		req->path = io->file < job->nr_files && job->filenames ? job->filenames[io->file] : NULL;
	if (io->ddir == DDIR_TRIM) {	/* trim: discard or punch (zbd: done) */
		req->trim_ioctl = worker_file_trim_ioctl(w, io->file);
		req->trim_skip = io->zbd_skip;
	}
	else if (w->vfy_fill)
		worker_verify_prep(w, req);	/* verify */
	else if (io->ddir == DDIR_WRITE && w->refill)
		bufgen_fill(&w->bg, req->buf, (size_t)io->len);
	else if (io->ddir == DDIR_WRITE && w->scramble)
		bufgen_scramble(req->buf, (size_t)io->len, io->offset, w->now_ns);
}

/* fsync=, fdatasync=, sync_file_range=: a write was chosen; is a sync due after it? */
static __attribute__((cold, noinline)) void worker_note_write(struct worker *w, const struct offgen_io *io,
							       unsigned sync_every)
{
	w->last_write_file = io->file;
	w->last_write_off = io->offset;	/* iolog: fio's sync lines show it */
	if (sync_every && ++w->writes_since_sync >= sync_every) {
		w->writes_since_sync = 0;
		w->sync_pending = w->fsync_due = true;
		w->sync_file = io->file;
	}
	if (w->job->sfr_every)
		worker_sfr_note(w, io);	/* sync_file_range */
}

void worker_loop(struct worker *w)
{
	const struct job *job = w->job;
	unsigned sync_every = job->fsync_every ? job->fsync_every : job->fdatasync_every;
	bool note_writes = sync_every || job->sfr_every;	/* one test for fsync= and sync_file_range= */
	/* one test in the loop for buffer contents, trim (trim), verify (verify), serialize_overlap
	 * and the metadata engines' file names */
	bool per_io_extra = w->refill || w->scramble || job->rw_has_trim || w->vfy_fill || w->ser_mark || w->paths;
	struct offgen_io io = { 0 };	/* zbd_skip: set by zbd jobs only */
	int error_before = w->error;

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
		if (__builtin_expect(ctl_stopped(w->ctl) || w->error || w->stream_end, 0))
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
		if (__builtin_expect(w->rate_any, 0)) {	/* rate, flow */
			int go = worker_rate_before(w);

			if (go < 0)
				break;
			if (go == 0)
				continue;
		}
		if (__builtin_expect(w->sync_pending, 0) && !w->vfy_in_phase && !w->vbl_on && !w->replay) {
			worker_sync_next(w);	/* fsync=N: before the next I/O is chosen, as fio */
			if (w->error || !w->nr_free)
				break;
			continue;
		}
		if (__builtin_expect(w->vfy_in_phase, 0)) {
			if (!worker_verify_next(w, &io))
				continue;	/* verify: the pass is checked, on to the next one */
		} else if (__builtin_expect(w->tbl_on, 0) && worker_trim_backlog(w, &io)) {
			;	/* trim_backlog: a trim of a verified block comes first */
		} else if (__builtin_expect(w->vbl_on, 0) && worker_verify_backlog(w, &io)) {
			;	/* verify: a read-back of verify_backlog comes first */
		} else if (__builtin_expect(w->replay != NULL, 0)) {
			if (!worker_replay_next(w, &io))	/* iolog: read_iolog */
				break;
		} else if (!offgen_next(&w->og, &io)) {
			if (__builtin_expect(w->og.paused, 0) && worker_verify_start(w))
				continue;	/* verify: read the pass back first */
			break;
		}
		if (__builtin_expect(w->vs_load != NULL, 0) && io.ddir == DDIR_READ && worker_vstate_stop(w, &io))
			break;	/* verify_state_load: the writer stopped before this block */
		if (__builtin_expect(io.fresh != OFFGEN_FRESH_NONE, 0)) {
			worker_files_fresh(w, &io);	/* invalidate: the file starts over; files opened */
			if (w->error)
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
		req->ioprio = __builtin_expect(w->prio_on, 0) ?	/* cmdprio */
			ioprio_pick(w->job, io.ddir, io.len, (unsigned)rng_below(&w->prio_rng, 100)) : w->job_prio;
		req->file_idx = io.file;
		req->result = 0;
		if (__builtin_expect(per_io_extra, 0))
			worker_io_extra(w, req, &io);
		/* start: the last clock reading (the previous completion), as fio's start_time is
		 * taken before the offset is chosen; issue: right before queue() for engines that
		 * complete there (sync engines, null at depth 1), at commit() for the others. */
		req->start_ns = w->now_ns;
		if (w->clock_per_io && w->issue_at_queue)
			req->issue_ns = clock_src_now(w->clk);
		else
			req->issue_ns = req->start_ns;
		w->res->ddir[io.ddir].issued_ios++;
		if (__builtin_expect(w->wlog != NULL, 0))
			worker_iolog_io(w, &io);	/* iolog: write_iolog */
		if (__builtin_expect(note_writes, 0) && io.ddir == DDIR_WRITE)
			worker_note_write(w, &io, sync_every);
		if (__builtin_expect(w->vonly, 0) && io.ddir != DDIR_READ) {
			worker_verify_dry(w, req);	/* verify_only: no write */
			continue;
		}
		if (worker_queue(w, req) < 0)
			break;
		if (__builtin_expect(w->rate_any, 0) && !worker_rate_after(w, io.ddir, io.len))	/* rate */
			break;
	}
	if (w->og.fsvc && w->og.fsvc->nr_ev && !w->error)
		worker_file_events(w);	/* the files used up last (and a sync due before them) */
	worker_drain_end(w);
	if (__builtin_expect(w->error && !error_before, 0)) {
		/* the job failed in its I/O: fio's clean-up asks the engine once for what is left,
		 * a call that completes nothing (its "complete: 0=" bucket) */
		w->res->complete_map[0]++;
		w->res->nr_complete_calls++;
	}
}

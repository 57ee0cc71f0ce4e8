/* SPDX-License-Identifier: MIT */
/* runner_sync: sync_file_range= (runner_int.h): the range each file's writes covered since
 * the last call, and the call itself after every N writes, done by the job's thread between
 * two I/Os (as fio's sync engines do it), timed into the job's sync statistics. Also the
 * rest of a short read or write, issued the same way (cold: a misbehaving volume, a file that
 * ends inside a request). And the completions off the I/O loop's common path: syncs (their
 * statistics), errors (runner_error.c) and short I/Os (their rest). */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/err.h"
#include "core/stats.h"

void worker_sfr_note(struct worker *w, const struct offgen_io *io)
{
	unsigned f = io->file;

	if (io->offset < w->sfr_lo[f])
		w->sfr_lo[f] = io->offset;
	if (io->offset + io->len > w->sfr_hi[f])
		w->sfr_hi[f] = io->offset + io->len;
	/* as fio: an fsync / fdatasync due after the same write takes its place */
	if (++w->sfr_writes >= w->job->sfr_every) {
		w->sfr_writes = 0;
		if (!w->fsync_due)
			w->sfr_due = w->sync_pending = true;
	}
}

void worker_sfr(struct worker *w)
{
	unsigned f = w->last_write_file;
	uint64_t lo = w->sfr_lo[f], hi = w->sfr_hi[f], t0, now;
	struct job_result *res = w->res;

	w->drain(w);
	if (w->error)
		return;
	if (__builtin_expect(w->wlog != NULL, 0))	/* iolog: fio's line shows the last write's offset */
		iolog_write_line(w->wlog, w->now_ns, f, IOLOG_OP_SFR, w->last_write_off, 0);
	t0 = clock_src_now(w->clk);
	if (!w->ts->jobs[w->idx].diskless && lo < hi &&
	    sync_file_range(w->fds[f], (off_t)lo, (off_t)(hi - lo), w->job->sfr_flags) < 0) {
		int e = errno;
		const char *path = w->job->filenames && f < w->job->nr_files ? w->job->filenames[f] : w->job->name;

		fprintf(w->diag, "fio: io_u error on file %s: %s: sync\n", path, err_str(e));
		worker_set_error(w, e, "io_u.c:1876", "io_u error");
		return;
	}
	now = clock_src_now(w->clk);
	res->sync_ios++;
	if (w->clat_on) {
		lat_stat_add(&res->sync_lat, now - t0);
		hist_add(&res->sync_hist, now - t0);
	}
	w->now_ns = now;
	w->sfr_lo[f] = UINT64_MAX;
	w->sfr_hi[f] = 0;
}

/* A short read or write on a file, as fio 3.33 goes on after one: each piece that moves some
 * bytes but not all is a short I/O, and the rest is issued again (one more issued I/O, blocking
 * here) until it is all done. A piece that moves nothing ends the request: through a
 * synchronous engine that is fio's "full resid" (WORKER_REST_EMPTY: the caller fails the
 * request); through an asynchronous one the request completes with what it moved. Only the
 * bytes moved are counted (req->result); a rest that fails leaves req->result -errno and
 * req->offset / req->len on the rest, as fio's io_u error line shows them. */
/* The completion maps of a piece that came back short through a synchronous engine: one
 * completion call that completed nothing, as fio counts it (its "complete: 0=" bucket). */
static void worker_rest_mark(const struct worker *w, bool sync)
{
	if (!sync)
		return;
	w->res->complete_map[0]++;
	w->res->nr_complete_calls++;
}

/* The maps of the rest issued again: one more I/O at the request's depth, submitted and
 * completed alone. */
static void worker_rest_mark_issue(const struct worker *w)
{
	struct job_result *res = w->res;

	res->depth_map[runner_depth_idx(w->cap - w->nr_free)]++;
	res->submit_map[1]++;
	res->complete_map[1]++;
	res->nr_submit_calls++;
	res->nr_complete_calls++;
}

bool worker_rest_applies(const struct worker *w, const struct io_req *req)
{
	return req->op <= IO_WRITE && req->fd >= 0 &&
	       !(w->ops->flags & (ENGINE_F_DISKLESS | ENGINE_F_STREAM | ENGINE_F_PATHS));
}

int worker_rest(const struct worker *w, struct io_req *req)
{
	struct ddir_result *dr = &w->res->ddir[req->op];
	bool sync = (w->ops->flags & ENGINE_F_SYNC) != 0;
	uint64_t done = 0, n = (uint64_t)req->result;
	char *buf = req->buf;

	for (;;) {
		ssize_t r;

		if (n == 0) {
			if (!sync)
				break;	/* the end of the file: what was moved is the request's */
			req->result = -EIO;
			return WORKER_REST_EMPTY;
		}
		done += n;
		if (done >= req->len)
			break;
		dr->short_ios++;
		worker_rest_mark(w, sync);
		dr->issued_ios++;	/* fio queues the rest as an I/O of its own */
		worker_rest_mark_issue(w);
		do
			r = req->op == IO_READ ? pread(req->fd, buf + done, req->len - done, (off_t)(req->offset + done))
					       : pwrite(req->fd, buf + done, req->len - done, (off_t)(req->offset + done));
		while (r < 0 && errno == EINTR);
		if (r < 0) {
			req->result = -(int64_t)errno;
			req->offset += done;
			req->len -= done;
			return WORKER_REST_FAILED;
		}
		n = (uint64_t)r;
	}
	req->result = (int64_t)done;
	return WORKER_REST_DONE;
}

/* The completions off the common path: syncs, errors, short I/Os. True when req is done
 * with (back on the free list); false when it goes on to worker_complete()'s accounting (a
 * short I/O whose rest was issued). */
bool worker_complete_odd(struct worker *w, struct io_req *req, uint64_t now)
{
	struct job_result *res = w->res;

	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
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
	} else if (req->result < 0) {
		worker_io_error(w, req);
	} else if (req->result == 0 && (w->ops->flags & ENGINE_F_STREAM)) {
		w->stream_end = true;	/* net: the sender is gone, not an I/O */
	} else if (!worker_rest_applies(w, req)) {
		res->ddir[req->op].short_ios++;
		return false;
	} else {
		int end = worker_rest(w, req);

		if (end == WORKER_REST_DONE)
			return false;
		if (end == WORKER_REST_EMPTY)
			worker_full_resid(w, req);
		else
			worker_io_error(w, req);	/* reissued, and failed */
	}
	w->free_reqs[w->nr_free++] = req;
	return true;
}

/* runner_sync: sync_file_range= (runner_int.h): the range each file's writes covered since
 * the last call, and the call itself after every N writes, done by the job's thread between
 * two I/Os (as fio's sync engines do it), timed into the job's sync statistics. Also the
 * rest of a short read or write, issued the same way (cold: a misbehaving volume). */
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

	worker_drain(w);
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

/* A short read or write on a file: issue the rest (blocking) until it is all done, the file
 * ends or it fails, so every byte counted was transferred. Returns 0, or -1 (result: -errno). */
int worker_rest(const struct worker *w, struct io_req *req)
{
	uint64_t done = (uint64_t)req->result;
	char *buf = req->buf;

	if (req->op > IO_WRITE || req->fd < 0 || (w->ops->flags & (ENGINE_F_DISKLESS | ENGINE_F_STREAM | ENGINE_F_PATHS)))
		return 0;
	while (done < req->len) {
		ssize_t n = req->op == IO_READ ? pread(req->fd, buf + done, req->len - done, (off_t)(req->offset + done))
					       : pwrite(req->fd, buf + done, req->len - done, (off_t)(req->offset + done));

		if (n < 0 && errno != EINTR) {
			req->result = -(int64_t)errno;
			return -1;
		}
		if (n == 0)
			break;	/* the end of the file */
		done += n > 0 ? (uint64_t)n : 0;
	}
	req->result = (int64_t)done;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* runner_replay: write_iolog and read_iolog in the runner (runner_int.h, fio/log/iolog_write.h,
 * fio/log/iolog_replay.h). The I/O loop calls in here only when the job has one of them. */
#include "fio/run/runner_int.h"
#include "fio/offset/offgen_fsvc.h"
#include "core/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void worker_iolog_files(struct worker *w, enum iolog_op op)
{
	for (unsigned f = 0; f < w->job->nr_files; f++)
		iolog_write_line(w->wlog, w->now_ns, f, op, 0, 0);
}

bool worker_iolog_start(struct worker *w)
{
	const struct job *job = w->job;
	struct iops_err err = { 0 };

	w->now_ns = clock_src_now(w->clk);
	if (job->write_iolog) {
		w->wlog = malloc(sizeof(*w->wlog));
		if (!w->wlog) {
			iops_err_set(&err, ENOMEM, "fio: %s: out of memory for write_iolog", job->name);
			goto fail;
		}
		if (iolog_write_open(w->wlog, job->write_iolog, job->filenames, job->nr_files, w->start_ns, &err) < 0) {
			free(w->wlog);
			w->wlog = NULL;
			goto fail;
		}
		if (!w->og.fsvc)	/* else at each file's first I/O (fio/offset/offgen_fsvc.h) */
			worker_iolog_files(w, IOLOG_OP_OPEN);
	}
	if (job->replay_log) {
		w->replay = malloc(sizeof(*w->replay));
		if (!w->replay) {
			iops_err_set(&err, ENOMEM, "fio: %s: out of memory for read_iolog", job->name);
			goto fail;
		}
		if (iolog_replay_open(w->replay, job, &err) < 0)
			goto fail;
		w->replay_t0_ns = clock_src_now(w->clk);
	}
	return true;

fail:
	fprintf(w->diag, "%s\n", err.msg);
	worker_set_error(w, err.code ? err.code : EINVAL, "iolog.c:0", "iolog setup");
	return false;
}

void worker_iolog_end(struct worker *w)
{
	if (w->wlog) {
		int ret;

		w->now_ns = clock_src_now(w->clk);
		if (w->job->end_fsync && w->job->rw_has_write)
			worker_iolog_files(w, IOLOG_OP_SYNC);
		if (w->og_ready && w->og.fsvc) {
			worker_file_events(w);	/* the files used up last, then those still open */
			for (unsigned f = 0; f < w->job->nr_files; f++)
				if (offgen_fsvc_is_open(&w->og, f))
					iolog_write_line(w->wlog, w->now_ns, f, IOLOG_OP_CLOSE, 0, 0);
		} else {
			worker_iolog_files(w, IOLOG_OP_CLOSE);
		}
		ret = iolog_write_close(w->wlog);
		if (ret < 0) {
			fprintf(w->diag, "fio: %s: writing write_iolog '%s' failed: %s\n", w->job->name, w->job->write_iolog,
				err_str(-ret));
			worker_set_error(w, -ret, "iolog.c:0", "write_iolog");
		}
		free(w->wlog);
		w->wlog = NULL;
	}
	if (w->replay) {
		iolog_replay_close(w->replay);
		free(w->replay);
		w->replay = NULL;
	}
}

void worker_iolog_io(struct worker *w, const struct offgen_io *io)
{
	if ((io->fresh & OFFGEN_FRESH_PASS) && !w->og.fsvc) {	/* loops: fio closes and opens its files again */
		worker_iolog_files(w, IOLOG_OP_CLOSE);
		worker_iolog_files(w, IOLOG_OP_OPEN);
	}
	iolog_write_line(w->wlog, w->now_ns, io->file, (enum iolog_op)io->ddir, io->offset, io->len);
}

/* Wait for the entry's time (replay_t0 + t): what is in flight completes first, as fio's
 * stall; false on a stop or when runtime ends first. */
static bool worker_replay_wait(struct worker *w, uint64_t t_ns)
{
	uint64_t until = t_ns > UINT64_MAX - w->replay_t0_ns ? UINT64_MAX : w->replay_t0_ns + t_ns;
	uint64_t now = clock_src_now(w->clk);
	bool late;

	if (until <= now)
		return true;
	late = w->deadline_ns && until > w->deadline_ns;
	if (late)
		until = w->deadline_ns;
	w->drain(w);
	now = clock_src_now(w->clk);
	if (until > now && !ctl_sleep_until(w->ctl, clock_now_ns() + (until - now)))
		return false;
	w->now_ns = clock_src_now(w->clk);
	return !late && !w->error;
}

bool worker_replay_next(struct worker *w, struct offgen_io *io)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];

	for (;;) {
		struct iolog_replay_ent e;
		struct iops_err err = { 0 };
		int ret = iolog_replay_next(w->replay, &e, &err);

		if (ret <= 0) {
			if (ret < 0) {
				fprintf(w->diag, "%s\n", err.msg);
				worker_set_error(w, -ret, "iolog.c:0", "read_iolog");
			}
			return false;
		}
		if (e.file >= tj->nr_files)
			continue;	/* diskless (null engine): no files */
		if (e.t_ns && !worker_replay_wait(w, e.t_ns))
			return false;
		if (e.op == IOLOG_OP_SYNC || e.op == IOLOG_OP_DATASYNC) {
			w->sync_one(w, e.file, e.op == IOLOG_OP_SYNC ? IO_FSYNC : IO_FDATASYNC, 0);
			if (w->error || ctl_stopped(w->ctl))
				return false;
			continue;
		}
		io->ddir = (enum ddir)e.op;
		io->file = e.file;
		io->offset = e.offset;
		io->len = e.len;
		io->fresh = OFFGEN_FRESH_NONE;
		return true;
	}
}

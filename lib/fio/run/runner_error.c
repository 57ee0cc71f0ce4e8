/* SPDX-License-Identifier: MIT */
/* runner_error: a job's errors (runner_int.h): the first error recorded as fio's verror,
 * continue_on_error / ignore_error, fill_device's end, and where fio 3.33 reports the error of
 * a request an engine failed (its file:line, func and "io_u error" line), with its hints; a
 * synchronous engine's empty rest ("full resid"). The lowest of the runner's files: every
 * other calls it, it calls none of them. */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <string.h>

#include "core/err.h"

void worker_set_error(struct worker *w, int e, const char *where, const char *func)
{
	if (w->error)
		return;
	w->error = e;
	w->res->error = e;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:%s, func=%s, error=%s", where, func, err_str(e));
}

/* The name of req's file, as fio's messages print it (the job's name when it has none). */
const char *worker_req_path(const struct job *job, const struct io_req *req)
{
	return job->filenames && req->file_idx < job->nr_files ? job->filenames[req->file_idx] : job->name;
}

/* continue_on_error / ignore_error: does the job go on after error e of this kind? */
bool worker_err_continues(const struct job *job, unsigned type, int e)
{
	if (!(job->cont_on_err & (1u << type)))
		return false;
	if (!job->nr_ignore_err[type])
		return e == EIO || e == EILSEQ;	/* fio's non-fatal errors */
	for (unsigned i = 0; i < job->nr_ignore_err[type]; i++)
		if (job->ignore_err[type][i] == e)
			return true;
	return false;
}

static void worker_io_error_line(struct worker *w, const struct io_req *req, const char *path, int e)
{
	if (req->op == IO_READ || req->op == IO_WRITE)
		fprintf(w->diag, "fio: io_u error on file %s: %s: %s offset=%llu, buflen=%llu\n", path, err_str(e),
			req->op == IO_READ ? "read" : "write", (unsigned long long)req->offset,
			(unsigned long long)req->len);
	else
		fprintf(w->diag, "fio: io_u error on file %s: %s: sync\n", path, err_str(e));
}

/* Where fio 3.33 records the error of a request an engine failed (its verror's file:line and
 * func), and whether it prints its "io_u error on file" line first. Observed by making each
 * engine's system call fail under a seccomp filter (tests/e2e/t_fio_refused.sh): the engines of
 * fio's sync.c and the asynchronous ones report through io_u.c; falloc, ftruncate and e4defrag
 * leave the error to td_io_queue() (so does every trim), splice records its own. */
struct err_site {
	const char *engine;	/* NULL: any */
	int op;			/* enum io_op, -1: any */
	const char *where, *func;
	bool line;
};

static const struct err_site err_sites[] = {
	{ NULL, IO_TRIM, "ioengines.c:399", "td_io_queue", false },
	{ "falloc", -1, "ioengines.c:399", "td_io_queue", false },
	{ "ftruncate", -1, "ioengines.c:399", "td_io_queue", false },
	{ "e4defrag", -1, "ioengines.c:399", "td_io_queue", false },
	{ "splice", IO_WRITE, "engines/splice.c:240", "xfer", false },
	{ "splice", IO_READ, "engines/splice.c:113", "splice-from-fd", false },
	{ NULL, -1, "io_u.c:1876", "io_u error", true },
};

static const struct err_site *worker_err_site(const struct job *job, enum io_op op)
{
	const struct err_site *s = err_sites;

	while ((s->engine && strcmp(s->engine, job->ioengine)) || (s->op >= 0 && s->op != (int)op))
		s++;
	return s;
}

void worker_io_error(struct worker *w, const struct io_req *req)
{
	int e = (int)-req->result;
	const struct job *job = w->job;
	const char *path = worker_req_path(job, req);
	struct job_result *res = w->res;
	const struct err_site *site;

	if (w->error)
		return;
	if (job->fill_device && e == ENOSPC && req->op == IO_WRITE) {
		/* fill_device: the volume is full, which ends the job without an error (fio says so) */
		if (!w->stream_end)
			worker_io_error_line(w, req, path, e);
		w->stream_end = true;
		return;
	}
	if (job->cont_on_err && worker_err_continues(job, req->op == IO_READ ? JOB_ERR_READ : JOB_ERR_WRITE, e)) {
		/* the job goes on: the first such error is the job's, as fio reports it */
		if (!res->total_err++) {
			res->first_error = e;
			res->error = e;
			res->err_continued = true;
			/* where fio records it: its io_u error path with error_dump, else the sync
			 * engines' xfer (the asynchronous ones leave it empty) */
			if (job->error_dump)
				snprintf(res->verror, sizeof(res->verror), "file:io_u.c:1876, func=io_u error, error=%s",
					 err_str(e));
			else if (w->ops->flags & ENGINE_F_SYNC)
				snprintf(res->verror, sizeof(res->verror), "file:engines/sync.c:126, func=xfer, error=%s",
					 err_str(e));
		}
		if (job->error_dump)
			worker_io_error_line(w, req, path, e);
		if ((unsigned)req->op < (unsigned)DDIR_NR)
			res->ddir[req->op].total_ios++;	/* fio counts the I/O, not its bytes */
		return;
	}
	/* fio counts the fatal one too, when continue_on_error covers its kind (a write error
	 * with continue_on_error=read: total=0, first_error=0) */
	if ((job->cont_on_err & (1u << (req->op == IO_READ ? JOB_ERR_READ : JOB_ERR_WRITE))) && !res->total_err++)
		res->first_error = e;
	site = worker_err_site(job, req->op);
	if (site->line)
		worker_io_error_line(w, req, path, e);
	/* fio's hint when a synchronous engine's first I/O fails with EIO (observed: none after
	 * an asynchronous engine's, nor for another errno) */
	if (e == EIO && (w->ops->flags & ENGINE_F_SYNC) && job->zone_mode != ZONE_MODE_ZBD &&
	    !res->ddir[DDIR_READ].total_ios && !res->ddir[DDIR_WRITE].total_ios && !res->ddir[DDIR_TRIM].total_ios)
		fprintf(w->diag, "fio: first I/O failed. If %s is a zoned block device, consider --zonemode=zbd\n", path);
	if (e == EINVAL && w->job->direct && !w->direct_hint_done) {
		w->direct_hint_done = true;
		fprintf(w->diag, "fio: first direct IO errored. File system may not support direct IO, or iomem_align= is bad, or invalid block size. Try setting direct=0.\n");
	}
	worker_set_error(w, e, site->where, site->func);
}

/* A read or write through a synchronous engine that moved nothing (the file ended before it,
 * or inside it and the rest found nothing): fio 3.33 fails the job with EIO in its "full resid"
 * check, without an io_u error line. Where continue_on_error covers the direction the error is
 * counted and the job goes on (fio counts it, then aborts on an assertion: README, Differences). */
void worker_full_resid(struct worker *w, const struct io_req *req)
{
	const struct job *job = w->job;
	struct job_result *res = w->res;
	unsigned type = req->op == IO_READ ? JOB_ERR_READ : JOB_ERR_WRITE;

	if (w->error)
		return;
	if (job->cont_on_err & (1u << type) && !res->total_err++)
		res->first_error = EIO;
	if (job->cont_on_err && worker_err_continues(job, type, EIO)) {
		if (res->total_err == 1) {
			res->error = EIO;
			res->err_continued = true;
			snprintf(res->verror, sizeof(res->verror), "file:backend.c:471, func=full resid, error=%s",
				 err_str(EIO));
		}
		res->ddir[req->op].total_ios++;	/* fio counts the I/O, not its bytes */
		return;
	}
	worker_set_error(w, EIO, "backend.c:471", "full resid");
}

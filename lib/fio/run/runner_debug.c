/* SPDX-License-Identifier: MIT */
/* runner_debug: --debug=process,file,io lines of a job (fio/debug.h; runner_int.h). The io
 * lines come from an engine wrapper installed only when io debugging is on: with it off the
 * I/O path is exactly the same code, not one more test per request. */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "fio/debug.h"

struct dbg_engine {
	struct engine_ops ops;		/* the real engine's name and flags, these functions */
	const struct engine_ops *real;
	const struct engine_ops **slot;	/* the worker's ops: the real ones again at cleanup */
	void *rctx;
	FILE *out;
	const struct job *job;
};

void worker_debug(struct worker *w, int c, const char *fmt, ...)
{
	va_list ap;

	if (!w->dbg_out || !debug_on(w->dbg_mask, (enum debug_cat)c))
		return;
	va_start(ap, fmt);
	debug_vline(w->dbg_out, (enum debug_cat)c, fmt, ap);
	va_end(ap);
}

static void dbg_req(const struct dbg_engine *d, const char *what, const struct io_req *req)
{
	const char *file = d->job->filenames && req->file_idx < d->job->nr_files ? d->job->filenames[req->file_idx]
										: d->job->name;

	debug_line(d->out, DEBUG_IO, "%s: io_u %p: off=0x%llx,len=0x%llx,ddir=%d,file=%s", what, (const void *)req,
		   (unsigned long long)req->offset, (unsigned long long)req->len, (int)req->op, file);
}

static int dbg_queue(void *ctx, struct io_req *req)
{
	struct dbg_engine *d = ctx;
	int r;

	dbg_req(d, "queue", req);
	r = d->real->queue(d->rctx, req);
	if (r == ENGINE_DONE)
		dbg_req(d, "complete", req);
	return r;
}

static int dbg_commit(void *ctx)
{
	struct dbg_engine *d = ctx;

	return d->real->commit(d->rctx);
}

static int dbg_reap(void *ctx, unsigned min, unsigned max, const struct timespec *timeout, struct io_req **out)
{
	struct dbg_engine *d = ctx;
	int n = d->real->reap(d->rctx, min, max, timeout, out);

	for (int i = 0; i < n; i++)
		dbg_req(d, "complete", out[i]);
	return n;
}

static void dbg_cleanup(void *ctx)
{
	struct dbg_engine *d = ctx;

	debug_line(d->out, DEBUG_IO, "close ioengine %s", d->real->name);
	d->real->cleanup(d->rctx);
	debug_line(d->out, DEBUG_IO, "free ioengine %s", d->real->name);
	*d->slot = d->real;	/* the worker reads its engine's flags after the teardown */
	free(d);
}

int worker_debug_wrap(struct worker *w)
{
	struct dbg_engine *d;

	if (!w->dbg_out || !debug_on(w->dbg_mask, DEBUG_IO) || !w->ectx)
		return 0;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->real = w->ops;
	d->slot = &w->ops;
	d->rctx = w->ectx;
	d->out = w->dbg_out;
	d->job = w->job;
	d->ops.name = w->ops->name;
	d->ops.flags = w->ops->flags;
	d->ops.queue = dbg_queue;
	d->ops.commit = w->ops->commit ? dbg_commit : NULL;
	d->ops.reap = dbg_reap;
	d->ops.cleanup = dbg_cleanup;
	w->ops = &d->ops;
	w->ectx = d;
	return 0;
}

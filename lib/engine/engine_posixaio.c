/* SPDX-License-Identifier: MIT */
/* engine_posixaio: POSIX asynchronous I/O (aio_read, aio_write, aio_fsync, aio_error,
 * aio_return, aio_suspend). The C library carries the requests (musl and glibc run them on
 * threads of their own); up to depth are in flight.
 *
 * - queue() collects requests (ENGINE_BUSY once depth are queued or in flight); trims run at
 *   once (trim.h) and return ENGINE_DONE.
 * - commit() hands the collected requests to aio_read / aio_write / aio_fsync (O_SYNC for
 *   fsync, O_DSYNC for fdatasync) in queue order. EAGAIN (the library is out of resources)
 *   stops the batch: what was handed over is returned, the rest stays queued for the next
 *   commit(). Another error completes that request with -errno: reap() returns it.
 * - reap() polls every request in flight with aio_error(); while fewer than min are done it
 *   waits in aio_suspend() (up to timeout), then polls again.
 * Each request's struct aiocb lives in the context, by request index (prep sets it up). */
#include "engine/engine.h"
#include "engine/trim.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POSIXAIO_MAX_DEPTH	65536u

struct posixaio_slot {
	struct aiocb cb;
	int submit_err;		/* the aio_* call failed with this errno: done at reap */
};

struct posixaio_ctx {
	unsigned depth;
	struct posixaio_slot *slots;		/* by request index */
	struct io_req **queued;			/* queued, not submitted, in queue order */
	unsigned nr_queued;
	struct io_req **flight;			/* submitted, not reaped */
	unsigned nr_flight;
	const struct aiocb **wait;		/* aio_suspend's list */
};

static int posixaio_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	unsigned depth = engine_depth(cfg, POSIXAIO_MAX_DEPTH, "the posixaio engine", err);
	struct posixaio_ctx *ctx;

	if (!depth)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto nomem;
	ctx->depth = depth;
	ctx->slots = calloc(depth, sizeof(*ctx->slots));
	ctx->queued = calloc(depth, sizeof(*ctx->queued));
	ctx->flight = calloc(depth, sizeof(*ctx->flight));
	ctx->wait = calloc(depth, sizeof(*ctx->wait));
	if (!ctx->slots || !ctx->queued || !ctx->flight || !ctx->wait)
		goto free_ctx;
	*ctxp = ctx;
	return 0;

free_ctx:
	free(ctx->slots);
	free(ctx->queued);
	free(ctx->flight);
	free(ctx->wait);
	free(ctx);
nomem:
	return engine_nomem(err, "posixaio engine", depth);
}

static int posixaio_prep(void *vctx, struct io_req *req)
{
	struct posixaio_ctx *ctx = vctx;

	if (req->index >= ctx->depth)
		return -EINVAL;
	req->engine_data = &ctx->slots[req->index];
	return 0;
}

static int posixaio_queue(void *vctx, struct io_req *req)
{
	struct posixaio_ctx *ctx = vctx;

	switch (req->op) {
	case IO_READ:
	case IO_WRITE:
		if (req->offset > (uint64_t)INT64_MAX || req->len > (uint64_t)SSIZE_MAX) {
			req->result = -EINVAL;
			return ENGINE_DONE;
		}
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		break;
	case IO_TRIM:	/* trim: synchronous, as in every engine */
		req->result = trim_req(req);
		return ENGINE_DONE;
	default:
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (ctx->nr_queued + ctx->nr_flight >= ctx->depth)
		return ENGINE_BUSY;
	if (req->engine_data == NULL)
		return -EINVAL;
	ctx->queued[ctx->nr_queued++] = req;
	return ENGINE_QUEUED;
}

/* Hand one request to the library: 0, or the errno of the aio_* call. */
static int posixaio_submit(struct io_req *req)
{
	struct posixaio_slot *s = req->engine_data;
	struct aiocb *cb = &s->cb;
	int ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = req->fd;
	cb->aio_buf = req->buf;
	cb->aio_nbytes = (size_t)req->len;
	cb->aio_offset = (off_t)req->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	s->submit_err = 0;
	if (req->op == IO_READ)
		ret = aio_read(cb);
	else if (req->op == IO_WRITE)
		ret = aio_write(cb);
	else
		ret = aio_fsync(req->op == IO_FSYNC ? O_SYNC : O_DSYNC, cb);
	return ret < 0 ? errno : 0;
}

static int posixaio_commit(void *vctx)
{
	struct posixaio_ctx *ctx = vctx;
	unsigned n = 0;

	while (n < ctx->nr_queued) {
		struct io_req *req = ctx->queued[n];
		int e = posixaio_submit(req);

		if (e == EAGAIN)
			break;	/* out of resources: the rest waits for the next commit */
		((struct posixaio_slot *)req->engine_data)->submit_err = e;
		ctx->flight[ctx->nr_flight++] = req;
		n++;
	}
	ctx->nr_queued -= n;
	memmove(ctx->queued, ctx->queued + n, ctx->nr_queued * sizeof(*ctx->queued));
	return (int)n;
}

/* Is req done? Sets its result when it is. */
static bool posixaio_done(struct io_req *req)
{
	struct posixaio_slot *s = req->engine_data;
	int e;
	ssize_t r;

	if (s->submit_err) {
		req->result = -s->submit_err;
		return true;
	}
	e = aio_error(&s->cb);
	if (e == EINPROGRESS)
		return false;
	r = aio_return(&s->cb);
	if (e)
		req->result = -e;
	else if (r < 0)
		req->result = -EIO;
	else
		req->result = req->op == IO_READ || req->op == IO_WRITE ? (int64_t)r : 0;
	return true;
}

static int posixaio_reap(void *vctx, unsigned min, unsigned max, const struct timespec *timeout,
			 struct io_req **out)
{
	struct posixaio_ctx *ctx = vctx;
	unsigned got = 0;

	if (min > ctx->nr_flight)
		min = ctx->nr_flight;
	for (;;) {
		unsigned nw = 0;

		for (unsigned i = 0; i < ctx->nr_flight && got < max;) {
			struct io_req *req = ctx->flight[i];

			if (posixaio_done(req)) {
				out[got++] = req;
				ctx->flight[i] = ctx->flight[--ctx->nr_flight];
			} else {
				i++;
			}
		}
		if (got >= min || got >= max || !ctx->nr_flight)
			return (int)got;
		for (unsigned i = 0; i < ctx->nr_flight; i++)
			ctx->wait[nw++] = &((struct posixaio_slot *)ctx->flight[i]->engine_data)->cb;
		if (aio_suspend(ctx->wait, (int)nw, timeout) < 0) {
			if (errno == EAGAIN)	/* the timeout passed */
				return (int)got;
			if (errno != EINTR)
				return got ? (int)got : -errno;
		}
	}
}

static void posixaio_cleanup(void *vctx)
{
	struct posixaio_ctx *ctx = vctx;

	if (!ctx)
		return;
	/* the runner reaps everything before it ends the job; wait for strays all the same, the
	 * library may still write into their control blocks */
	for (unsigned i = 0; i < ctx->nr_flight; i++) {
		struct posixaio_slot *s = ctx->flight[i]->engine_data;

		if (s->submit_err)
			continue;
		while (aio_error(&s->cb) == EINPROGRESS) {
			const struct aiocb *one[1] = { &s->cb };

			(void)aio_suspend(one, 1, NULL);
		}
		(void)aio_return(&s->cb);
	}
	free(ctx->slots);
	free(ctx->queued);
	free(ctx->flight);
	free(ctx->wait);
	free(ctx);
}

const struct engine_ops engine_posixaio_ops = {
	.name = "posixaio",
	.flags = 0,
	.init = posixaio_init,
	.prep = posixaio_prep,
	.queue = posixaio_queue,
	.commit = posixaio_commit,
	.reap = posixaio_reap,
	.cleanup = posixaio_cleanup,
};

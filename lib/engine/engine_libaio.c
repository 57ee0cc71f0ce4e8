/* SPDX-License-Identifier: MIT */
/* engine_libaio: Linux native AIO (io_setup / io_submit / io_getevents).
 *
 * - init: io_setup(depth); one iocb slot per request of the runner's pool (req->index < depth),
 *   bound to the request by prep(). The iocb's data field points back to the request.
 * - queue: fills the request's iocb and stashes it; ENGINE_BUSY once depth requests are queued
 *   or in flight. IO_FSYNC / IO_FDATASYNC are done synchronously (like fio's libaio engine)
 *   and cover every write queued before them: ENGINE_BUSY while requests are stashed or in
 *   flight (the runner commits and reaps, then queues the sync again), otherwise
 *   fsync()/fdatasync() and ENGINE_DONE.
 * - commit: io_submit of the whole stash, looping over partial submits. EINTR: retried.
 *   EAGAIN: reap one completion into an internal list (handed out by the next reap()) and retry;
 *   with nothing in flight, sleep 100 us and retry, failing the request with -EAGAIN after
 *   200 ms. Any other error of io_submit (EBADF for a bad fd in the first iocb, EPERM from a
 *   seccomp profile): a commit error, as fio's "io commit": commit() returns the count
 *   submitted before it, else the error, and the requests not submitted are the caller's.
 *   Sets issue_ns (ENGINE_F_SETS_ISSUE): one CLOCK_MONOTONIC read right after each io_submit
 *   call, for every request it accepted, as fio does.
 * - reap: internally completed requests first, then the completion ring, read in user space
 *   (the kernel maps the AIO ring into our memory; fio's userspace_reap) without a system call,
 *   and only when fewer than min are found io_getevents(min - found, ...). min is capped at the
 *   number of requests in flight, so reap() never waits for something that cannot complete.
 *
 * Engine options (fio's): nowait sets RWF_NOWAIT on every read and write (aio_rw_flags): one
 * that would block completes with -EAGAIN. userspace_reap is accepted: the ring above is read
 * in user space whether or not it is given (fio does so only with it, and only for min 0).
 *
 * Buffered I/O through libaio is synchronous in the kernel (io_submit returns once the copy
 * is done); only O_DIRECT gives real queue depth. */
#include "engine/engine.h"
#include "engine/trim.h"
#include "core/err.h"

#include <errno.h>
#include <libaio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AIO_MAX_DEPTH		65536u
#define AIO_IOCB_FLAG_IOPRIO	(1u << 1)	/* linux/aio_abi.h IOCB_FLAG_IOPRIO: aio_reqprio is valid */
#define AIO_RING_MAGIC		0xa10a10a1u
#ifndef RWF_NOWAIT
#define RWF_NOWAIT		0x00000008
#endif
#define AIO_EAGAIN_SLEEP_NS	100000L
#define AIO_EAGAIN_GIVEUP_NS	200000000u	/* nothing in flight and still refused */

/* The kernel's completion ring header (fs/aio.c struct aio_ring); io_context_t points at it. */
struct aio_user_ring {
	unsigned id;
	unsigned nr;		/* number of io_events */
	unsigned head;		/* consumer index: written by us (or the kernel in io_getevents) */
	unsigned tail;		/* producer index: written by the kernel */
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event io_events[];
};

struct aio_ctx {
	io_context_t io;
	struct aio_user_ring *ring;	/* NULL when user-space reaping is not possible */
	unsigned depth;
	int rw_flags;			/* RWF_* of every read and write (nowait) */
	unsigned nr_pending;		/* stashed by queue(), not submitted */
	unsigned nr_inflight;		/* submitted, not reaped */
	unsigned nr_done;		/* completed internally, waiting for reap() */
	struct iocb *iocbs;		/* depth, indexed by req->index */
	struct iocb **pending;		/* depth */
	struct io_req **done;		/* depth */
	struct io_event *events;	/* depth: io_getevents scratch */
};

static inline uint64_t aio_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((cold)) static void aio_free(struct aio_ctx *ctx)
{
	free(ctx->iocbs);
	free(ctx->pending);
	free(ctx->done);
	free(ctx->events);
	free(ctx);
}

__attribute__((cold)) static int aio_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	unsigned depth = engine_depth(cfg, AIO_MAX_DEPTH, "libaio", err);
	struct aio_ctx *ctx;
	int ret;

	if (!depth)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto nomem;
	ctx->depth = depth;
	ctx->rw_flags = cfg->opts && cfg->opts->aio.nowait ? RWF_NOWAIT : 0;
	ctx->iocbs = calloc(depth, sizeof(*ctx->iocbs));
	ctx->pending = calloc(depth, sizeof(*ctx->pending));
	ctx->done = calloc(depth, sizeof(*ctx->done));
	ctx->events = calloc(depth, sizeof(*ctx->events));
	if (!ctx->iocbs || !ctx->pending || !ctx->done || !ctx->events) {
		aio_free(ctx);
		goto nomem;
	}
	ret = io_setup((int)depth, &ctx->io);
	if (ret < 0) {
		if (ret == -ENOSYS || ret == -EPERM)
			iops_err_set(err, -ret, "fio: libaio is not available here (io_setup: %s, errno %d): the "
				     "kernel, an emulator (qemu-user) or a seccomp profile lacks it; use "
				     "--ioengine=psync", err_str(-ret), -ret);
		else
			iops_err_set(err, -ret, "fio: io engine libaio init failed (io_setup(%u): %s). "
				     "Perhaps try reducing io depth?", depth, err_str(-ret));
		aio_free(ctx);
		return ret;
	}
	ctx->ring = (struct aio_user_ring *)(void *)ctx->io;
	if (ctx->ring->magic != AIO_RING_MAGIC || ctx->ring->incompat_features != 0 ||
	    ctx->ring->nr == 0)
		ctx->ring = NULL;
	*ctxp = ctx;
	return 0;
nomem:
	return engine_nomem(err, "libaio", depth);
}

__attribute__((cold)) static int aio_prep(void *vctx, struct io_req *req)
{
	struct aio_ctx *ctx = vctx;

	if (req->index >= ctx->depth)
		return -EINVAL;
	req->engine_data = &ctx->iocbs[req->index];
	return 0;
}

static int aio_queue(void *vctx, struct io_req *req)
{
	struct aio_ctx *ctx = vctx;
	struct iocb *iocb = req->engine_data;

	switch (req->op) {
	case IO_READ:
	case IO_WRITE:
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		if (ctx->nr_pending || ctx->nr_inflight)
			return ENGINE_BUSY;
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	case IO_TRIM:	/* trim: synchronous, as fio's FIO_ASYNCIO_SYNC_TRIM */
		req->result = trim_req(req);
		return ENGINE_DONE;
	default:
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (ctx->nr_pending + ctx->nr_inflight >= ctx->depth)
		return ENGINE_BUSY;
	if (!iocb) {
		if (req->index >= ctx->depth)
			return -EINVAL;
		iocb = &ctx->iocbs[req->index];
		req->engine_data = iocb;
	}
	if (req->offset > (uint64_t)LLONG_MAX || req->len > (uint64_t)SSIZE_MAX) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (req->op == IO_READ)
		io_prep_pread(iocb, req->fd, req->buf, (size_t)req->len, (long long)req->offset);
	else
		io_prep_pwrite(iocb, req->fd, req->buf, (size_t)req->len, (long long)req->offset);
	if (__builtin_expect(ctx->rw_flags != 0, 0))	/* nowait */
		iocb->aio_rw_flags = ctx->rw_flags;
	if (req->ioprio) {	/* cmdprio: the request's own priority */
		iocb->aio_reqprio = (short)req->ioprio;
		iocb->u.c.flags |= AIO_IOCB_FLAG_IOPRIO;
	}
	iocb->data = req;
	ctx->pending[ctx->nr_pending++] = iocb;
	return ENGINE_QUEUED;
}

static inline void aio_event_done(struct aio_ctx *ctx, const struct io_event *ev,
				  struct io_req **out)
{
	struct io_req *req = ev->data;

	req->result = (int64_t)(long)ev->res;
	*out = req;
	ctx->nr_inflight--;
}

/* Completions from the user-mapped ring, without a system call. */
static unsigned aio_ring_reap(struct aio_ctx *ctx, unsigned max, struct io_req **out)
{
	struct aio_user_ring *ring = ctx->ring;
	unsigned head, tail, nr, n = 0;

	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	nr = ring->nr;
	while (head != tail && n < max) {
		aio_event_done(ctx, &ring->io_events[head], &out[n]);
		n++;
		if (++head >= nr)
			head = 0;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* io_getevents into out[]; returns the number reaped or -errno (never -EINTR). */
static int aio_getevents(struct aio_ctx *ctx, unsigned min, unsigned max,
			 const struct timespec *timeout, struct io_req **out)
{
	struct timespec ts, *tsp = NULL;
	int ret;

	if (timeout) {
		ts = *timeout;
		tsp = &ts;
	}
	do
		ret = io_getevents(ctx->io, (long)min, (long)max, ctx->events, tsp);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	for (int i = 0; i < ret; i++)
		aio_event_done(ctx, &ctx->events[i], &out[i]);
	return ret;
}

/* Move one request out of the submission path with its final result (reaped later). */
static void aio_fail_pending(struct aio_ctx *ctx, struct iocb *iocb, int64_t result)
{
	struct io_req *req = iocb->data;

	req->result = result;
	ctx->done[ctx->nr_done++] = req;
}

static int aio_commit(void *vctx)
{
	struct aio_ctx *ctx = vctx;
	unsigned off = 0, total = ctx->nr_pending;
	uint64_t giveup_ns = 0;	/* deadline of the retries while nothing is in flight */

	while (off < total) {
		int ret = io_submit(ctx->io, (long)(total - off), &ctx->pending[off]);

		if (ret > 0) {
			uint64_t now = aio_now_ns();

			for (int i = 0; i < ret; i++)
				((struct io_req *)ctx->pending[off + (unsigned)i]->data)->issue_ns = now;
			ctx->nr_inflight += (unsigned)ret;
			off += (unsigned)ret;
			giveup_ns = 0;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN || ret == 0) {
			if (ctx->nr_inflight) {
				int got = aio_getevents(ctx, 1, ctx->nr_inflight, NULL,
							&ctx->done[ctx->nr_done]);

				if (got > 0)
					ctx->nr_done += (unsigned)got;
				continue;
			}
			if (!giveup_ns)
				giveup_ns = aio_now_ns() + AIO_EAGAIN_GIVEUP_NS;
			if (aio_now_ns() < giveup_ns) {
				struct timespec pause = { 0, AIO_EAGAIN_SLEEP_NS };

				nanosleep(&pause, NULL);
				continue;
			}
			/* The first iocb of the batch was refused for good: it completes with the
			 * error, and the rest goes on. */
			((struct io_req *)ctx->pending[off]->data)->issue_ns = aio_now_ns();
			aio_fail_pending(ctx, ctx->pending[off], -EAGAIN);
			off++;
			giveup_ns = 0;
			continue;
		}
		/* io_submit itself failed (EPERM from a seccomp profile, EBADF, EINVAL): a commit
		 * error, as fio reports it. What went before is submitted (its count is returned; the
		 * next commit meets the error); with nothing submitted the error is returned, the
		 * requests are the caller's again. */
		ctx->nr_pending = total - off;
		memmove(ctx->pending, ctx->pending + off, ctx->nr_pending * sizeof(*ctx->pending));
		if (off)
			return (int)off;
		ctx->nr_pending = 0;
		return ret;
	}
	ctx->nr_pending = 0;
	return (int)total;
}

static int aio_reap(void *vctx, unsigned min, unsigned max, const struct timespec *timeout,
		    struct io_req **out)
{
	struct aio_ctx *ctx = vctx;
	unsigned n = 0;
	int ret;

	if (ctx->nr_done && max) {
		n = ctx->nr_done < max ? ctx->nr_done : max;
		memcpy(out, ctx->done, n * sizeof(*out));
		ctx->nr_done -= n;
		memmove(ctx->done, ctx->done + n, ctx->nr_done * sizeof(*ctx->done));
	}
	if (n < max && ctx->nr_inflight && ctx->ring)
		n += aio_ring_reap(ctx, max - n, out + n);
	if (n >= max || !ctx->nr_inflight || (ctx->ring && n >= min))
		return (int)n;
	/* Without the user ring a non-blocking poll (min 0) still needs the system call. */
	min = min > n ? min - n : 0;
	if (min > ctx->nr_inflight)
		min = ctx->nr_inflight;
	max -= n;
	if (max > ctx->nr_inflight)
		max = ctx->nr_inflight;
	ret = aio_getevents(ctx, min, max, timeout, out + n);
	if (ret < 0)
		return n ? (int)n : ret;
	return (int)n + ret;
}

__attribute__((cold)) static void aio_cleanup(void *vctx)
{
	struct aio_ctx *ctx = vctx;

	if (!ctx)
		return;
	/* io_destroy waits for (and cancels) whatever is still in flight. */
	io_destroy(ctx->io);
	aio_free(ctx);
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.flags = ENGINE_F_SETS_ISSUE,
	.init = aio_init,
	.prep = aio_prep,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};

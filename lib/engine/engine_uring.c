/* SPDX-License-Identifier: MIT */
/* engine_uring: io_uring through liburing.
 *
 * - init: a ring with room for depth submissions and 2*depth completions (IORING_SETUP_CQSIZE,
 *   CLAMP), asking for cooperative task running (COOP_TASKRUN + TASKRUN_FLAG, 5.19+) and
 *   SUBMIT_ALL (a refused SQE does not stop the batch), falling back to plain flags on older
 *   kernels. Non-vectored READ/WRITE (5.6+) when the kernel's probe has them, READV/WRITEV
 *   with one iovec per request otherwise (nonvectored=0/1 decides instead of the probe).
 *   Engine options (fio's): hipri makes a polled ring (IORING_SETUP_IOPOLL: the kernel then
 *   takes O_DIRECT requests only, and devices without poll queues fail them with EOPNOTSUPP,
 *   as fio gets too); sqthread_poll a kernel submission thread (SQPOLL, SQ_AFF with
 *   sqthread_poll_cpu; it registers the files, as fio); registerfiles registers the job's
 *   descriptors (cfg->fds) as slots 0..nr_files-1 and fixedbufs the runner's buffers
 *   (cfg->bufs, one per request index), once, at init. Failure with
 *   ENOSYS / EPERM (old kernel, Docker's default seccomp profile, kernel.io_uring_disabled)
 *   gives one line that points to libaio.
 * - queue: fills one SQE (user_data = the request); ENGINE_BUSY once depth requests are
 *   queued or in flight. With the options: READ_FIXED / WRITE_FIXED on the request's own
 *   buffer, IOSQE_FIXED_FILE with the file's slot, RWF_NOWAIT (nowait) on reads and writes,
 *   IOSQE_ASYNC on every force_async-th SQE; none of it costs more than a flag test when off. IO_FSYNC / IO_FDATASYNC are queued too (IORING_OP_FSYNC, with
 *   IORING_FSYNC_DATASYNC for fdatasync) with IOSQE_IO_DRAIN: the sync starts only once every
 *   request submitted before it has completed, so it covers the writes queued before it.
 * - commit: io_uring_submit until every SQE is consumed. EINTR: retried. EAGAIN / EBUSY (kernel
 *   out of resources, completion queue overflowing): completions are moved to an internal
 *   list (returned by the next reap()) and the submit is retried; with nothing in flight it
 *   sleeps 100 us between tries, and after 200 ms commit() returns the error (SQEs cannot be
 *   taken back). Any other error of the ring itself is returned the same way; per-request
 *   errors arrive as completions. After such an error the context only reaps what is in
 *   flight: queue() and commit() return the error (the runner fails the unsubmitted
 *   requests and may reuse them; their stale SQEs are never submitted).
 *   Sets issue_ns (ENGINE_F_SETS_ISSUE): one CLOCK_MONOTONIC read after each successful
 *   submit call, for the requests it consumed.
 * - reap: internal list first, then a batch peek of the completion queue (no system call),
 *   then io_uring_wait_cqes(min - found, timeout) when fewer than min were found. min is
 *   capped at the number in flight. Timed waits need IORING_FEAT_EXT_ARG (5.11+); without it
 *   a zero timeout is a peek and a non-zero one waits without limit (never steals an SQE). */
#include "engine/engine_uring_int.h"
#include "engine/trim.h"
#include "core/err.h"

#include <errno.h>
#include <liburing.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT		0x00000008
#endif

#define URING_EAGAIN_SLEEP_NS	100000L
#define URING_EAGAIN_GIVEUP_NS	200000000u	/* nothing in flight and still refused */
#define URING_PEEK_BATCH	64u


static inline uint64_t uring_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((cold)) static int uring_prep(void *vctx, struct io_req *req)
{
	struct uring_ctx *ctx = vctx;

	if (req->index >= ctx->depth)
		return -EINVAL;
	req->engine_data = ctx->vectored ? &ctx->iovecs[req->index] : NULL;
	return 0;
}

/* fixedbufs: the request's bytes lie in its registered buffer (the runner's own requests always;
 * anything else goes as a plain read or write). */
static inline bool uring_buf_fixed(const struct uring_ctx *ctx, const struct io_req *req)
{
	const char *base = ctx->buf_base + (size_t)ctx->buf_bytes * req->index;
	const char *buf = req->buf;

	return req->index < ctx->depth && buf >= base && req->len <= ctx->buf_bytes &&
	       (uint64_t)(buf - base) <= ctx->buf_bytes - req->len;
}

/* registerfiles, nowait, force_async on a filled SQE. */
static void uring_sqe_extras(struct uring_ctx *ctx, struct io_uring_sqe *sqe, const struct io_req *req)
{
	if (ctx->fixed_files && req->file_idx < ctx->nr_files && ctx->files[req->file_idx] == req->fd &&
	    req->fd >= 0) {
		sqe->fd = (int)req->file_idx;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	if (ctx->nowait && (req->op == IO_READ || req->op == IO_WRITE))
		sqe->rw_flags |= RWF_NOWAIT;
	if (ctx->force_async && ++ctx->nr_async >= ctx->force_async) {
		ctx->nr_async = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

static int uring_queue(void *vctx, struct io_req *req)
{
	struct uring_ctx *ctx = vctx;
	struct io_uring_sqe *sqe;

	if (__builtin_expect(ctx->broken != 0, 0))
		return ctx->broken;
	if (req->op != IO_READ && req->op != IO_WRITE && req->op != IO_FSYNC &&
	    req->op != IO_FDATASYNC) {
		/* trim: synchronous, as fio's FIO_ASYNCIO_SYNC_TRIM */
		req->result = req->op == IO_TRIM ? trim_req(req) : -EINVAL;
		return ENGINE_DONE;
	}
	if (ctx->nr_pending + ctx->nr_inflight >= ctx->depth)
		return ENGINE_BUSY;
	if ((req->op == IO_READ || req->op == IO_WRITE) &&
	    (req->offset > (uint64_t)LLONG_MAX || req->len > (uint64_t)INT_MAX)) {
		/* io_uring lengths are 32-bit and the kernel caps a transfer below 2 GiB */
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (ctx->vectored && req->index >= ctx->depth)
		return -EINVAL;
	sqe = io_uring_get_sqe(&ctx->ring);
	if (!sqe)
		return ENGINE_BUSY;
	switch (req->op) {
	case IO_READ:
	case IO_WRITE:
		if (__builtin_expect(ctx->fixed_bufs, 0) && uring_buf_fixed(ctx, req)) {
			if (req->op == IO_READ)
				io_uring_prep_read_fixed(sqe, req->fd, req->buf, (unsigned)req->len, req->offset,
							 (int)req->index);
			else
				io_uring_prep_write_fixed(sqe, req->fd, req->buf, (unsigned)req->len, req->offset,
							  (int)req->index);
		} else if (ctx->vectored) {
			struct iovec *iov = &ctx->iovecs[req->index];

			iov->iov_base = req->buf;
			iov->iov_len = (size_t)req->len;
			if (req->op == IO_READ)
				io_uring_prep_readv(sqe, req->fd, iov, 1, req->offset);
			else
				io_uring_prep_writev(sqe, req->fd, iov, 1, req->offset);
		} else if (req->op == IO_READ) {
			io_uring_prep_read(sqe, req->fd, req->buf, (unsigned)req->len, req->offset);
		} else {
			io_uring_prep_write(sqe, req->fd, req->buf, (unsigned)req->len, req->offset);
		}
		sqe->ioprio = req->ioprio;	/* cmdprio: 0 is the thread's priority */
		break;
	default:
		io_uring_prep_fsync(sqe, req->fd, req->op == IO_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
		io_uring_sqe_set_flags(sqe, IOSQE_IO_DRAIN);
		break;
	}
	if (__builtin_expect(ctx->extras, 0))
		uring_sqe_extras(ctx, sqe, req);
	io_uring_sqe_set_data(sqe, req);
	ctx->pending[ctx->nr_pending++] = req;
	return ENGINE_QUEUED;
}

/* Move up to max completions from the CQ ring into out[]; no system call unless the kernel
 * flags pending task work. */
static unsigned uring_peek(struct uring_ctx *ctx, unsigned max, struct io_req **out)
{
	struct io_uring_cqe *cqes[URING_PEEK_BATCH];
	unsigned n = 0;

	while (n < max) {
		unsigned want = max - n < URING_PEEK_BATCH ? max - n : URING_PEEK_BATCH;
		unsigned got = io_uring_peek_batch_cqe(&ctx->ring, cqes, want);

		for (unsigned i = 0; i < got; i++) {
			struct io_req *req = io_uring_cqe_get_data(cqes[i]);

			if (!req)
				continue;	/* not ours: nothing else posts completions */
			req->result = cqes[i]->res;
			out[n++] = req;
			ctx->nr_inflight--;
		}
		io_uring_cq_advance(&ctx->ring, got);
		if (got < want)
			break;
	}
	return n;
}

static int uring_commit(void *vctx)
{
	struct uring_ctx *ctx = vctx;
	unsigned off = 0, total = ctx->nr_pending;
	uint64_t giveup_ns = 0;	/* deadline of the retries while nothing is in flight */

	if (ctx->broken)
		return ctx->broken;
	while (off < total) {
		int ret = io_uring_submit(&ctx->ring);

		if (ret > 0) {
			uint64_t now = uring_now_ns();
			unsigned n = (unsigned)ret > total - off ? total - off : (unsigned)ret;

			for (unsigned i = 0; i < n; i++) {
				struct io_req *req = ctx->pending[off + i];

				if (req) {
					req->issue_ns = now;
					ctx->nr_inflight++;
				}
			}
			off += n;
			giveup_ns = 0;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN || ret == -EBUSY || ret == 0) {
			if (ctx->nr_inflight) {
				struct __kernel_timespec ts = { 0, 1000000 };
				struct io_uring_cqe *cqe;

				/* wait briefly for a completion, then collect what is there */
				if (ctx->ext_arg)
					(void)io_uring_wait_cqes(&ctx->ring, &cqe, 1, &ts, NULL);
				ctx->nr_done += uring_peek(ctx, ctx->nr_inflight,
							   &ctx->done[ctx->nr_done]);
				continue;
			}
			if (!giveup_ns)
				giveup_ns = uring_now_ns() + URING_EAGAIN_GIVEUP_NS;
			if (uring_now_ns() < giveup_ns) {
				struct timespec pause = { 0, URING_EAGAIN_SLEEP_NS };

				nanosleep(&pause, NULL);
				continue;
			}
			ret = ret ? ret : -EAGAIN;
		}
		/* Hard error of the ring itself (per-request errors come back as completions).
		 * The SQEs not consumed stay in the ring and cannot be taken back: keep them as
		 * pending (a later commit may still send them) and report the error. */
		ctx->nr_pending = total - off;
		memmove(ctx->pending, ctx->pending + off, ctx->nr_pending * sizeof(*ctx->pending));
		ctx->broken = ret;
		return ret;
	}
	ctx->nr_pending = 0;
	return (int)total;
}

static int uring_reap(void *vctx, unsigned min, unsigned max, const struct timespec *timeout,
		      struct io_req **out)
{
	struct uring_ctx *ctx = vctx;
	unsigned n = 0;

	if (ctx->nr_done && max) {
		n = ctx->nr_done < max ? ctx->nr_done : max;
		memcpy(out, ctx->done, n * sizeof(*out));
		ctx->nr_done -= n;
		memmove(ctx->done, ctx->done + n, ctx->nr_done * sizeof(*ctx->done));
	}
	if (n < max && ctx->nr_inflight)
		n += uring_peek(ctx, max - n, out + n);
	while (n < min && n < max && ctx->nr_inflight) {
		unsigned want = min - n < ctx->nr_inflight ? min - n : ctx->nr_inflight;
		struct io_uring_cqe *cqe;
		int ret;

		if (timeout && ctx->ext_arg) {
			struct __kernel_timespec ts = { timeout->tv_sec, timeout->tv_nsec };

			ret = io_uring_wait_cqes(&ctx->ring, &cqe, want, &ts, NULL);
		} else if (timeout && !timeout->tv_sec && !timeout->tv_nsec) {
			break;
		} else {
			ret = io_uring_wait_cqe_nr(&ctx->ring, &cqe, want);
		}
		if (ret == -EINTR)
			continue;
		if (ret < 0 && ret != -ETIME && ret != -EAGAIN)
			return n ? (int)n : ret;
		/* also after a timeout: part of the batch may have arrived */
		n += uring_peek(ctx, max - n, out + n);
		if (timeout)
			break;	/* one timed wait, not one per partial batch */
	}
	return (int)n;
}

__attribute__((cold)) static void uring_cleanup(void *vctx)
{
	struct uring_ctx *ctx = vctx;

	if (!ctx)
		return;
	/* Closing the ring does not wait for requests in flight, whose buffers the runner frees
	 * next: drain them first (the runner normally has reaped everything already). */
	while (ctx->nr_inflight) {
		struct io_req *scratch[URING_PEEK_BATCH];
		struct io_uring_cqe *cqe;
		int ret = io_uring_wait_cqe(&ctx->ring, &cqe);

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			break;
		(void)uring_peek(ctx, URING_PEEK_BATCH, scratch);
	}
	uring_ctx_free(ctx);
}

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.flags = ENGINE_F_SETS_ISSUE,
	.init = uring_ctx_init,
	.prep = uring_prep,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};

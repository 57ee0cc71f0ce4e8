/* SPDX-License-Identifier: MIT */
/* engine_psync: the synchronous engines. queue() does the system call and returns ENGINE_DONE
 * with req->result set: bytes transferred (a short read or write is reported as is, the runner
 * decides what to do with the residue), or -errno. EINTR is retried. IO_FSYNC / IO_FDATASYNC
 * call fsync() / fdatasync() (result 0 or -errno).
 *
 *   psync   pread / pwrite
 *   sync    lseek + read / write. The lseek is done for every request: engines get no word
 *           when the runner closes and reopens a file (same fd number, new position), so a
 *           cached position could silently send I/O to the wrong offset.
 *   pvsync  preadv / pwritev with one iovec
 *   pvsync2 preadv2 / pwritev2 with one iovec and fio's engine options: nowait (RWF_NOWAIT: a
 *           request that would block fails with EAGAIN), hipri (RWF_HIPRI: the kernel polls
 *           for the completion where the device can), on hipri_percentage percent of the
 *           requests (drawn from the context's own generator). Through the system call: musl
 *           has no wrappers.
 *
 * These engines keep no per-request state and have no commit() / reap(). */
#include "engine/engine.h"
#include "engine/trim.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/rng.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT	0x00000008
#endif

#define PSYNC_HIPRI_SEED	0x68697072692d7063ull	/* pvsync2's draws for hipri_percentage */

struct psync_ctx {
	unsigned depth;		/* informational: sync engines complete one request at a time */
	/* pvsync2 */
	int rw_flags;		/* RWF_NOWAIT, RWF_HIPRI when hipri_pct is 100 */
	unsigned hipri_pct;	/* 1..99: RWF_HIPRI drawn per request; else 0 */
	int cur_flags;		/* the flags of the request being sent */
	struct rng rng;
};

__attribute__((cold)) static int psync_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	struct psync_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: sync engine: out of memory");
		return -ENOMEM;
	}
	ctx->depth = cfg->depth;
	if (cfg->opts) {	/* pvsync2's options (the option layer keeps them off the others) */
		const struct engine_aio_opts *a = &cfg->opts->aio;

		ctx->rw_flags = a->nowait ? RWF_NOWAIT : 0;
		if (a->hipri && a->hipri_pct >= 100)
			ctx->rw_flags |= RWF_HIPRI;
		else if (a->hipri && a->hipri_pct)
			ctx->hipri_pct = a->hipri_pct;
	}
	rng_init(&ctx->rng, PSYNC_HIPRI_SEED);
	*ctxp = ctx;
	return 0;
}

__attribute__((cold)) static void psync_cleanup(void *ctx)
{
	free(ctx);
}

/* Bounds shared by every engine: an offset off_t can hold, a length ssize_t can report. */
static inline bool psync_valid(const struct io_req *req)
{
	return req->offset <= (uint64_t)INT64_MAX && req->len <= (uint64_t)SSIZE_MAX;
}

/* One data transfer: bytes done or -1 with errno set. EINTR is retried by the caller. */
typedef ssize_t psync_xfer_fn(const struct psync_ctx *ctx, const struct io_req *req);

static ssize_t psync_xfer(const struct psync_ctx *ctx, const struct io_req *req)
{
	(void)ctx;
	if (req->op == IO_READ)
		return pread(req->fd, req->buf, (size_t)req->len, (off_t)req->offset);
	return pwrite(req->fd, req->buf, (size_t)req->len, (off_t)req->offset);
}

static ssize_t sync_xfer(const struct psync_ctx *ctx, const struct io_req *req)
{
	(void)ctx;
	if (lseek(req->fd, (off_t)req->offset, SEEK_SET) < 0)
		return -1;
	if (req->op == IO_READ)
		return read(req->fd, req->buf, (size_t)req->len);
	return write(req->fd, req->buf, (size_t)req->len);
}

static ssize_t pvsync_xfer(const struct psync_ctx *ctx, const struct io_req *req)
{
	struct iovec iov = { .iov_base = req->buf, .iov_len = (size_t)req->len };

	(void)ctx;
	if (req->op == IO_READ)
		return preadv(req->fd, &iov, 1, (off_t)req->offset);
	return pwritev(req->fd, &iov, 1, (off_t)req->offset);
}

/* preadv2 / pwritev2: the offset goes as two halves (the kernel joins them; 64-bit ignores
 * the high one), flags last. */
static ssize_t pvsync2_xfer(const struct psync_ctx *ctx, const struct io_req *req)
{
	struct iovec iov = { .iov_base = req->buf, .iov_len = (size_t)req->len };
	unsigned long lo = (unsigned long)req->offset, hi = (unsigned long)(req->offset >> 16 >> 16);

	return (ssize_t)syscall(req->op == IO_READ ? SYS_preadv2 : SYS_pwritev2, req->fd, &iov, 1, lo, hi,
				ctx->cur_flags);
}

/* The queue() of every synchronous engine: syncs, validation, then xfer with EINTR retried. */
static inline int psync_do(const struct psync_ctx *ctx, struct io_req *req, psync_xfer_fn *xfer)
{
	ssize_t n;

	switch (req->op) {
	case IO_READ:
	case IO_WRITE:
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	case IO_TRIM:	/* trim */
		req->result = trim_req(req);
		return ENGINE_DONE;
	default:
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (!psync_valid(req)) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	do
		n = xfer(ctx, req);
	while (n < 0 && errno == EINTR);
	req->result = n < 0 ? -(int64_t)errno : (int64_t)n;
	return ENGINE_DONE;
}

static int psync_queue(void *ctx, struct io_req *req)
{
	return psync_do(ctx, req, psync_xfer);
}

static int sync_queue(void *ctx, struct io_req *req)
{
	return psync_do(ctx, req, sync_xfer);
}

static int pvsync_queue(void *ctx, struct io_req *req)
{
	return psync_do(ctx, req, pvsync_xfer);
}

static int pvsync2_queue(void *vctx, struct io_req *req)
{
	struct psync_ctx *ctx = vctx;

	ctx->cur_flags = ctx->rw_flags;
	if (ctx->hipri_pct && rng_next(&ctx->rng) % 100u < ctx->hipri_pct)	/* hipri_percentage */
		ctx->cur_flags |= RWF_HIPRI;
	return psync_do(ctx, req, pvsync2_xfer);
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = psync_queue,
	.cleanup = psync_cleanup,
};

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = sync_queue,
	.cleanup = psync_cleanup,
};

const struct engine_ops engine_pvsync_ops = {
	.name = "pvsync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = pvsync_queue,
	.cleanup = psync_cleanup,
};

const struct engine_ops engine_pvsync2_ops = {
	.name = "pvsync2",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = pvsync2_queue,
	.cleanup = psync_cleanup,
};

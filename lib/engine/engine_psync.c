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
 *
 * These engines keep no per-request state and have no commit() / reap(). */
#include "engine/engine.h"
#include "engine/trim.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

struct psync_ctx {
	unsigned depth;		/* informational: sync engines complete one request at a time */
};

static int psync_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	struct psync_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: sync engine: out of memory");
		return -ENOMEM;
	}
	ctx->depth = cfg->depth;
	*ctxp = ctx;
	return 0;
}

static void psync_cleanup(void *ctx)
{
	free(ctx);
}

/* Bounds shared by every engine: an offset off_t can hold, a length ssize_t can report. */
static inline bool psync_valid(const struct io_req *req)
{
	return req->offset <= (uint64_t)INT64_MAX && req->len <= (uint64_t)SSIZE_MAX;
}

/* One data transfer: bytes done or -1 with errno set. EINTR is retried by the caller. */
typedef ssize_t psync_xfer_fn(const struct io_req *req);

static ssize_t psync_xfer(const struct io_req *req)
{
	if (req->op == IO_READ)
		return pread(req->fd, req->buf, (size_t)req->len, (off_t)req->offset);
	return pwrite(req->fd, req->buf, (size_t)req->len, (off_t)req->offset);
}

static ssize_t sync_xfer(const struct io_req *req)
{
	if (lseek(req->fd, (off_t)req->offset, SEEK_SET) < 0)
		return -1;
	if (req->op == IO_READ)
		return read(req->fd, req->buf, (size_t)req->len);
	return write(req->fd, req->buf, (size_t)req->len);
}

static ssize_t pvsync_xfer(const struct io_req *req)
{
	struct iovec iov = { .iov_base = req->buf, .iov_len = (size_t)req->len };

	if (req->op == IO_READ)
		return preadv(req->fd, &iov, 1, (off_t)req->offset);
	return pwritev(req->fd, &iov, 1, (off_t)req->offset);
}

/* The queue() of every synchronous engine: syncs, validation, then xfer with EINTR retried. */
static inline int psync_do(struct io_req *req, psync_xfer_fn *xfer)
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
		n = xfer(req);
	while (n < 0 && errno == EINTR);
	req->result = n < 0 ? -(int64_t)errno : (int64_t)n;
	return ENGINE_DONE;
}

static int psync_queue(void *ctx, struct io_req *req)
{
	(void)ctx;
	return psync_do(req, psync_xfer);
}

static int sync_queue(void *ctx, struct io_req *req)
{
	(void)ctx;
	return psync_do(req, sync_xfer);
}

static int pvsync_queue(void *ctx, struct io_req *req)
{
	(void)ctx;
	return psync_do(req, pvsync_xfer);
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

/* SPDX-License-Identifier: MIT */
/* engine_splice: data moves through a pipe with splice(2) and vmsplice(2) (fio's splice engine).
 *   read   splice(file at offset -> pipe), then read(pipe -> buffer)
 *   write  vmsplice(buffer -> pipe), then splice(pipe -> file at offset)
 * In chunks of at most the pipe's capacity; a short transfer from the file ends the request
 * (reported as is). One pipe per job, made at init. Synchronous. */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#define SPLICE_PIPE_BYTES	(1u << 20)	/* asked for; the kernel may give less */

struct splice_ctx {
	int pipe[2];
	size_t chunk;		/* the pipe's capacity */
};

static int splice_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	struct splice_ctx *ctx = calloc(1, sizeof(*ctx));
	int sz;

	(void)cfg;
	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: splice engine: out of memory");
		return -ENOMEM;
	}
	if (pipe2(ctx->pipe, O_CLOEXEC) < 0) {
		int e = errno;

		free(ctx);
		iops_err_set(err, e, "fio: splice engine: pipe: %s", err_str(e));
		return -e;
	}
	sz = fcntl(ctx->pipe[1], F_SETPIPE_SZ, (int)SPLICE_PIPE_BYTES);
	if (sz < 0)
		sz = fcntl(ctx->pipe[1], F_GETPIPE_SZ);
	ctx->chunk = sz > 0 ? (size_t)sz : 65536u;
	*ctxp = ctx;
	return 0;
}

static void splice_cleanup(void *vctx)
{
	struct splice_ctx *ctx = vctx;

	if (!ctx)
		return;
	close(ctx->pipe[0]);
	close(ctx->pipe[1]);
	free(ctx);
}

/* Empty the pipe after a failure, so the next request starts clean. */
static void splice_drain(struct splice_ctx *ctx)
{
	char sink[4096];
	int avail;

	while (ioctl(ctx->pipe[0], FIONREAD, &avail) == 0 && avail > 0)
		if (read(ctx->pipe[0], sink, (size_t)avail < sizeof(sink) ? (size_t)avail : sizeof(sink)) <= 0)
			break;
}

/* One chunk of a read: bytes put in buf (0 at end of file) or -errno. */
static int64_t splice_read_chunk(struct splice_ctx *ctx, int fd, char *buf, size_t len, loff_t off)
{
	ssize_t in, got = 0;

	do
		in = splice(fd, &off, ctx->pipe[1], NULL, len, SPLICE_F_MOVE);
	while (in < 0 && errno == EINTR);
	if (in <= 0)
		return in < 0 ? -(int64_t)errno : 0;
	while (got < in) {
		ssize_t r = read(ctx->pipe[0], buf + got, (size_t)(in - got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -(int64_t)errno : -EIO;
		got += r;
	}
	return got;
}

/* One chunk of a write: bytes written to the file, or -errno. */
static int64_t splice_write_chunk(struct splice_ctx *ctx, int fd, char *buf, size_t len, loff_t off)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	ssize_t in, out = 0;

	do
		in = vmsplice(ctx->pipe[1], &iov, 1, 0);
	while (in < 0 && errno == EINTR);
	if (in <= 0)
		return in < 0 ? -(int64_t)errno : -EIO;
	while (out < in) {
		ssize_t w = splice(ctx->pipe[0], NULL, fd, &off, (size_t)(in - out), SPLICE_F_MOVE);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			splice_drain(ctx);
			return -(int64_t)e;
		}
		out += w;
	}
	return out;
}

static int splice_queue(void *vctx, struct io_req *req)
{
	struct splice_ctx *ctx = vctx;
	uint64_t done = 0;

	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	}
	if ((req->op != IO_READ && req->op != IO_WRITE) || req->offset > (uint64_t)INT64_MAX ||
	    req->len > (uint64_t)INT64_MAX - req->offset) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	while (done < req->len) {
		size_t n = req->len - done < ctx->chunk ? (size_t)(req->len - done) : ctx->chunk;
		loff_t off = (loff_t)(req->offset + done);
		int64_t r = req->op == IO_READ ? splice_read_chunk(ctx, req->fd, (char *)req->buf + done, n, off)
					       : splice_write_chunk(ctx, req->fd, (char *)req->buf + done, n, off);

		if (r < 0) {
			req->result = done ? (int64_t)done : r;
			return ENGINE_DONE;
		}
		done += (uint64_t)r;
		if ((size_t)r < n)
			break;	/* end of file: short */
	}
	req->result = (int64_t)done;
	return ENGINE_DONE;
}

const struct engine_ops engine_splice_ops = {
	.name = "splice",
	.flags = ENGINE_F_SYNC,
	.init = splice_init,
	.queue = splice_queue,
	.cleanup = splice_cleanup,
};

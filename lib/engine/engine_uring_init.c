/* SPDX-License-Identifier: MIT */
/* engine_uring_init: the io_uring engine's set-up and release (engine_uring.c says what it
 * sets up). */
#include "engine/engine_uring_int.h"
#include "core/err.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define URING_MAX_DEPTH		32768u	/* IORING_MAX_ENTRIES; completions get twice that */

void uring_ctx_free(struct uring_ctx *ctx)
{
	if (ctx->ring_ready)
		io_uring_queue_exit(&ctx->ring);
	free(ctx->pending);
	free(ctx->done);
	free(ctx->iovecs);
	free(ctx->files);
	free(ctx);
}

static unsigned uring_pow2(unsigned v)
{
	unsigned p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* hipri: a polled ring (IOPOLL); sqthread_poll: a kernel thread takes the submissions (SQPOLL,
 * on sqthread_poll_cpu with SQ_AFF). The kernel refuses cooperative task running with SQPOLL. */
static int uring_setup(struct uring_ctx *ctx, unsigned depth, const struct engine_aio_opts *a)
{
	const unsigned extra_flags[] = {
		(a->sqpoll ? 0 : IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG) |
			IORING_SETUP_SUBMIT_ALL,
		0,
	};
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(extra_flags) / sizeof(extra_flags[0]); i++) {
		struct io_uring_params p;

		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP | extra_flags[i];
		if (a->hipri)
			p.flags |= IORING_SETUP_IOPOLL;
		if (a->sqpoll) {
			p.flags |= IORING_SETUP_SQPOLL;
			if (a->sqpoll_cpu >= 0) {
				p.flags |= IORING_SETUP_SQ_AFF;
				p.sq_thread_cpu = (unsigned)a->sqpoll_cpu;
			}
		}
		p.cq_entries = 2 * uring_pow2(depth);
		ret = io_uring_queue_init_params(depth, &ctx->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

/* registerfiles (and sqthread_poll): the job's descriptors become slots 0..nr_files-1. */
static int uring_register_files(struct uring_ctx *ctx, const struct engine_cfg *cfg,
				struct iops_err *err)
{
	int ret;

	if (!cfg->fds || !cfg->nr_files)
		return 0;	/* nothing to register: requests keep their descriptors */
	ctx->files = malloc((size_t)cfg->nr_files * sizeof(*ctx->files));
	if (!ctx->files) {
		iops_err_set(err, ENOMEM, "fio: io_uring: out of memory for %u registered files", cfg->nr_files);
		return -ENOMEM;
	}
	memcpy(ctx->files, cfg->fds, (size_t)cfg->nr_files * sizeof(*ctx->files));
	ret = io_uring_register_files(&ctx->ring, ctx->files, cfg->nr_files);
	if (ret < 0) {
		iops_err_set(err, -ret, "fio: io engine io_uring: registering %u files failed (%s)%s",
			     cfg->nr_files, err_str(-ret), ret == -EMFILE ? ": raise the open-files limit (ulimit -n)" : "");
		return ret;
	}
	ctx->nr_files = cfg->nr_files;
	ctx->fixed_files = true;
	return 0;
}

/* fixedbufs: each request's buffer becomes registered buffer i (its index). */
static int uring_register_bufs(struct uring_ctx *ctx, const struct engine_cfg *cfg,
			       struct iops_err *err)
{
	struct iovec *iov;
	int ret;

	if (!cfg->bufs || !cfg->buf_bytes || cfg->buf_bytes > SIZE_MAX) {
		iops_err_set(err, EINVAL, "fio: io engine io_uring: fixedbufs needs the job's buffers");
		return -EINVAL;
	}
	iov = calloc(ctx->depth, sizeof(*iov));
	if (!iov) {
		iops_err_set(err, ENOMEM, "fio: io_uring: out of memory for %u registered buffers", ctx->depth);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < ctx->depth; i++) {
		iov[i].iov_base = (char *)cfg->bufs + (size_t)cfg->buf_bytes * i;
		iov[i].iov_len = (size_t)cfg->buf_bytes;
	}
	ret = io_uring_register_buffers(&ctx->ring, iov, ctx->depth);
	free(iov);
	if (ret < 0) {
		/* the kernel takes at most 16384 buffers of at most 1 GiB, locked memory counted */
		iops_err_set(err, -ret, "fio: io engine io_uring: registering %u buffers of %llu bytes failed "
			     "(%s)%s", ctx->depth, (unsigned long long)cfg->buf_bytes, err_str(-ret),
			     ret == -ENOMEM ? ": raise the locked-memory limit (ulimit -l) or reduce iodepth" :
			     ret == -EINVAL ? ": fixedbufs takes at most 16384 buffers (iodepth) of 1 GiB" : "");
		return ret;
	}
	ctx->buf_base = cfg->bufs;
	ctx->buf_bytes = cfg->buf_bytes;
	ctx->fixed_bufs = true;
	return 0;
}

int uring_ctx_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	unsigned depth = engine_depth(cfg, URING_MAX_DEPTH, "io_uring", err);
	struct engine_aio_opts defaults = { .hipri_pct = 100, .sqpoll_cpu = -1, .nonvectored = -1 };
	const struct engine_aio_opts *a = cfg->opts ? &cfg->opts->aio : &defaults;
	struct io_uring_probe *probe;
	struct uring_ctx *ctx;
	int ret;

	if (!depth)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto nomem;
	ctx->depth = depth;
	ctx->pending = calloc(depth, sizeof(*ctx->pending));
	ctx->done = calloc(depth, sizeof(*ctx->done));
	if (!ctx->pending || !ctx->done) {
		uring_ctx_free(ctx);
		goto nomem;
	}
	ret = uring_setup(ctx, depth, a);
	if (ret < 0) {
		if (ret == -EINVAL && a->sqpoll && a->sqpoll_cpu >= 0)
			iops_err_set(err, -ret, "fio: io engine io_uring init failed (%s): sqthread_poll_cpu=%d is "
				     "not a CPU this job may use", err_str(-ret), a->sqpoll_cpu);
		else if (ret == -ENOSYS || ret == -EPERM)
			iops_err_set(err, -ret, "fio: io_uring is not available here (io_uring_setup: %s, errno "
				     "%d): the kernel, an emulator (qemu-user) or a seccomp profile (Docker's "
				     "default) lacks it; use --ioengine=libaio or psync", err_str(-ret), -ret);
		else if (ret == -ENOMEM)
			iops_err_set(err, -ret, "fio: io engine io_uring init failed (%s): raise the "
				     "locked-memory limit (ulimit -l), reduce iodepth, or use "
				     "--ioengine=libaio", err_str(-ret));
		else
			iops_err_set(err, -ret, "fio: io engine io_uring init failed (%s). Perhaps try "
				     "reducing io depth, or use --ioengine=libaio", err_str(-ret));
		uring_ctx_free(ctx);
		return ret;
	}
	ctx->ring_ready = true;
	ctx->ext_arg = (ctx->ring.features & IORING_FEAT_EXT_ARG) != 0;
	if (a->nonvectored >= 0) {	/* nonvectored=0 / 1: as told, whatever the kernel has */
		ctx->vectored = a->nonvectored == 0;
	} else {
		probe = io_uring_get_probe_ring(&ctx->ring);
		ctx->vectored = !probe || !io_uring_opcode_supported(probe, IORING_OP_READ) ||
				!io_uring_opcode_supported(probe, IORING_OP_WRITE);
		if (probe)
			io_uring_free_probe(probe);
	}
	if ((a->fixedbufs && (ret = uring_register_bufs(ctx, cfg, err)) < 0) ||	/* fio's order */
	    (a->registerfiles && (ret = uring_register_files(ctx, cfg, err)) < 0)) {
		uring_ctx_free(ctx);
		return ret;
	}
	ctx->nowait = a->nowait;
	ctx->force_async = a->force_async;
	ctx->extras = ctx->fixed_files || ctx->nowait || ctx->force_async;
	if (ctx->vectored) {
		ctx->iovecs = calloc(depth, sizeof(*ctx->iovecs));
		if (!ctx->iovecs) {
			uring_ctx_free(ctx);
			goto nomem;
		}
	}
	*ctxp = ctx;
	return 0;
nomem:
	return engine_nomem(err, "io_uring", depth);
}

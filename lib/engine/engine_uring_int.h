/* SPDX-License-Identifier: MIT */
/* engine_uring_int: the io_uring engine's context (engine_uring.c), shared with its set-up
 * (engine_uring_init.c, built for size: it runs once per job). */
#ifndef IOPS_ENGINE_URING_INT_H
#define IOPS_ENGINE_URING_INT_H

#include "engine/engine.h"

#include <liburing.h>
#include <sys/uio.h>

struct uring_ctx {
	struct io_uring ring;
	bool ring_ready;
	bool vectored;			/* kernel lacks IORING_OP_READ/WRITE */
	bool ext_arg;			/* timed waits without an SQE */
	int broken;			/* -errno once a commit failed for good: queue/commit refuse */
	/* engine options (engine_opts.h, engine_aio_opts); extras: one of the last four is on */
	bool fixed_bufs;		/* the buffers are registered: READ_FIXED / WRITE_FIXED */
	bool extras;
	bool fixed_files;		/* the files are registered: IOSQE_FIXED_FILE */
	bool nowait;			/* RWF_NOWAIT on reads and writes */
	unsigned force_async, nr_async;	/* IOSQE_ASYNC on every force_async-th request */
	char *buf_base;			/* fixed_bufs: buffer i is buf_base + i * buf_bytes */
	uint64_t buf_bytes;
	unsigned nr_files;		/* fixed_files: file i is registered as slot i */
	int *files;			/* (its descriptor when registered) */
	unsigned depth;
	unsigned nr_pending;		/* SQEs filled, not consumed by the kernel */
	unsigned nr_inflight;		/* consumed, completion not reaped */
	unsigned nr_done;		/* completed internally, waiting for reap() */
	struct io_req **pending;	/* depth: requests in SQ order, for issue_ns */
	struct io_req **done;		/* depth */
	struct iovec *iovecs;		/* depth when vectored, indexed by req->index */
};

/* init: the ring, the probe and the registrations (see engine_uring.c); free: the ring closed
 * and everything freed, in flight or not. */
int uring_ctx_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err);
void uring_ctx_free(struct uring_ctx *ctx);

#endif

/* SPDX-License-Identifier: MIT */
/* engine_falloc: fallocate(2) in place of data transfer, as fio's falloc engine documents:
 *   read   fallocate(FALLOC_FL_KEEP_SIZE)      reserve the range, size unchanged
 *   write  fallocate(0)                        allocate, extending the file if needed
 *   trim   fallocate(KEEP_SIZE | PUNCH_HOLE)   free the range
 * A request that succeeds counts its whole length. Synchronous. */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <linux/falloc.h>

static int falloc_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	(void)cfg;
	(void)err;
	*ctxp = NULL;
	return 0;
}

static void falloc_cleanup(void *ctx)
{
	(void)ctx;
}

/* The fallocate mode of a data direction, or -1. */
static int falloc_mode(enum io_op op)
{
	switch (op) {
	case IO_READ:
		return FALLOC_FL_KEEP_SIZE;
	case IO_WRITE:
		return 0;
	case IO_TRIM:
		return FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE;
	default:
		return -1;
	}
}

static int falloc_queue(void *ctx, struct io_req *req)
{
	int mode = falloc_mode(req->op), ret;

	(void)ctx;
	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	}
	if (mode < 0 || req->offset > (uint64_t)INT64_MAX || req->len > (uint64_t)INT64_MAX - req->offset) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	do
		ret = fallocate(req->fd, mode, (off_t)req->offset, (off_t)req->len);
	while (ret < 0 && errno == EINTR);
	req->result = ret < 0 ? -(int64_t)errno : (int64_t)req->len;
	return ENGINE_DONE;
}

const struct engine_ops engine_falloc_ops = {
	.name = "falloc",
	.flags = ENGINE_F_SYNC | ENGINE_F_RDWR,	/* a read allocates too */
	.init = falloc_init,
	.queue = falloc_queue,
	.cleanup = falloc_cleanup,
};

/* SPDX-License-Identifier: MIT */
/* engine_ftruncate: each write sets the file's size to the request's offset with ftruncate(2)
 * (fio's ftruncate engine; the block size only moves the offset on). Only writes (and syncs)
 * make sense: a read or trim fails with EINVAL, as in fio. Synchronous. */
#include "engine/engine.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

static int ftrunc_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	(void)cfg;
	(void)err;
	*ctxp = NULL;
	return 0;
}

static void ftrunc_cleanup(void *ctx)
{
	(void)ctx;
}

static int ftrunc_queue(void *ctx, struct io_req *req)
{
	int ret;

	(void)ctx;
	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	}
	if (req->op != IO_WRITE || req->offset > (uint64_t)INT64_MAX) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	do
		ret = ftruncate(req->fd, (off_t)req->offset);
	while (ret < 0 && errno == EINTR);
	req->result = ret < 0 ? -(int64_t)errno : (int64_t)req->len;
	return ENGINE_DONE;
}

const struct engine_ops engine_ftruncate_ops = {
	.name = "ftruncate",
	.flags = ENGINE_F_SYNC,
	.init = ftrunc_init,
	.queue = ftrunc_queue,
	.cleanup = ftrunc_cleanup,
};

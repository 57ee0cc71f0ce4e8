/* SPDX-License-Identifier: MIT */
/* engine_util: what the engines share (engine.h): a synchronous fsync/fdatasync of a request,
 * and the depth checks and messages of their init. Below every engine; the table (engine.c)
 * is above them. */
#include "engine/engine.h"

#include <errno.h>
#include <unistd.h>

int64_t engine_sync_req(const struct io_req *req)
{
	int ret;

	do
		ret = req->op == IO_FSYNC ? fsync(req->fd) : fdatasync(req->fd);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -(int64_t)errno : 0;
}

unsigned engine_depth(const struct engine_cfg *cfg, unsigned max, const char *what, struct iops_err *err)
{
	unsigned depth = cfg->depth ? cfg->depth : 1;

	if (depth <= max)
		return depth;
	iops_err_set(err, EINVAL, "fio: iodepth %u is too large for %s (max %u)", depth, what, max);
	return 0;
}

int engine_nomem(struct iops_err *err, const char *what, unsigned depth)
{
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for iodepth %u", what, depth);
	return -ENOMEM;
}

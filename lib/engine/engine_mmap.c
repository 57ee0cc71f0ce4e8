/* SPDX-License-Identifier: MIT */
/* engine_mmap: the file is memory mapped and data copied with memcpy (fio's mmap engine).
 * Each request maps the pages that hold its range (MAP_SHARED), copies, and unmaps: no state
 * survives a request, so files closed and reopened by the runner are always mapped afresh.
 * A write beyond the end of the file first extends it (ftruncate), as a mapping cannot.
 * Syncs are msync-free fsync / fdatasync (the mapping is gone by then). Synchronous. */
#include "engine/engine.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct mmap_ctx {
	uint64_t page;
};

static int mmap_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	struct mmap_ctx *ctx = calloc(1, sizeof(*ctx));
	long page = sysconf(_SC_PAGESIZE);

	(void)cfg;
	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: mmap engine: out of memory");
		return -ENOMEM;
	}
	ctx->page = page > 0 ? (uint64_t)page : 4096u;
	*ctxp = ctx;
	return 0;
}

static void mmap_cleanup(void *ctx)
{
	free(ctx);
}

/* Make the file at least end bytes long (writes): 0 or -errno. */
static int mmap_extend(int fd, uint64_t end)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < end && ftruncate(fd, (off_t)end) < 0)
		return -errno;
	return 0;
}

/* Reads: what of [offset, offset + *len) the file holds (*len shrinks, maybe to 0). */
static int mmap_clamp(int fd, uint64_t offset, uint64_t *len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (offset >= (uint64_t)st.st_size)
		*len = 0;
	else if (*len > (uint64_t)st.st_size - offset)
		*len = (uint64_t)st.st_size - offset;
	return 0;
}

static int mmap_queue(void *vctx, struct io_req *req)
{
	struct mmap_ctx *ctx = vctx;
	uint64_t start, span, len = req->len;
	void *map;
	int ret;

	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
		req->result = engine_sync_req(req);
		return ENGINE_DONE;
	}
	if ((req->op != IO_READ && req->op != IO_WRITE) || req->len == 0 ||
	    req->offset > (uint64_t)INT64_MAX || req->len > (uint64_t)INT64_MAX - req->offset) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	if (req->op == IO_WRITE) {
		ret = mmap_extend(req->fd, req->offset + req->len);
		if (ret < 0) {
			req->result = ret;
			return ENGINE_DONE;
		}
	} else {
		ret = mmap_clamp(req->fd, req->offset, &len);	/* no SIGBUS past the end */
		if (ret < 0 || len == 0) {
			req->result = ret;
			return ENGINE_DONE;
		}
	}
	start = req->offset / ctx->page * ctx->page;
	span = req->offset + len - start;
	map = mmap(NULL, (size_t)span, req->op == IO_READ ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
		   req->fd, (off_t)start);
	if (map == MAP_FAILED) {
		req->result = -(int64_t)errno;
		return ENGINE_DONE;
	}
	if (req->op == IO_READ)
		memcpy(req->buf, (char *)map + (req->offset - start), (size_t)len);
	else
		memcpy((char *)map + (req->offset - start), req->buf, (size_t)req->len);
	munmap(map, (size_t)span);
	req->result = (int64_t)len;
	return ENGINE_DONE;
}

const struct engine_ops engine_mmap_ops = {
	.name = "mmap",
	.flags = ENGINE_F_SYNC,
	.init = mmap_init,
	.queue = mmap_queue,
	.cleanup = mmap_cleanup,
};

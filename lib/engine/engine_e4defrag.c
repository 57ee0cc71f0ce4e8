/* SPDX-License-Identifier: MIT */
/* engine_e4defrag: each write swaps the request's range of the file with freshly allocated
 * blocks of a donor file through the ext4 ioctl EXT4_IOC_MOVE_EXT, the way e4defrag(8)
 * defragments (fio's e4defrag engine). The donor (donorname, created if missing, in the job's
 * directory as given) takes the blocks: inplace=0 allocates its range before the move and
 * keeps it; inplace=1 allocates it before and frees it (punches it out) right after.
 * Reads and trims fail with EINVAL (fio's engine acts on writes only); syncs sync the file.
 * ext4 only: on another file system the ioctl fails (ENOTTY or EOPNOTSUPP), as in fio. */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/falloc.h>

/* The ioctl's argument, as the kernel's uapi (fs/ext4/ext4.h) declares it. */
struct e4defrag_move {
	uint32_t reserved;	/* 0 */
	uint32_t donor_fd;
	uint64_t orig_start;	/* in blocks */
	uint64_t donor_start;	/* in blocks */
	uint64_t len;		/* in blocks */
	uint64_t moved_len;	/* out: blocks moved */
};

#define E4DEFRAG_IOC_MOVE_EXT	_IOWR('f', 15, struct e4defrag_move)

#define E4DEFRAG_BUSY_TRIES	8

struct e4defrag_ctx {
	int donor_fd;
	bool inplace;
};

static int e4defrag_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	const struct engine_e4defrag_opts *o = cfg->opts ? &cfg->opts->e4defrag : NULL;
	struct e4defrag_ctx *ctx;

	if (!o || !o->donorname[0]) {
		iops_err_set(err, EINVAL, "fio: e4defrag engine requires donorname=");
		return -EINVAL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		iops_err_set(err, ENOMEM, "fio: e4defrag engine: out of memory");
		return -ENOMEM;
	}
	ctx->inplace = o->inplace;
	ctx->donor_fd = open(o->donorname, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (ctx->donor_fd < 0) {
		int e = errno;

		iops_err_set(err, e, "fio: e4defrag engine: cannot open donor %s: %s", o->donorname, err_str(e));
		free(ctx);
		return -e;
	}
	*ctxp = ctx;
	return 0;
}

static void e4defrag_cleanup(void *vctx)
{
	struct e4defrag_ctx *ctx = vctx;

	if (!ctx)
		return;
	if (ftruncate(ctx->donor_fd, 0) < 0) {
		/* the donor keeps blocks; nothing else to undo */
	}
	close(ctx->donor_fd);
	free(ctx);
}

static int64_t e4defrag_move(struct e4defrag_ctx *ctx, const struct io_req *req)
{
	struct e4defrag_move mv = { .donor_fd = (uint32_t)ctx->donor_fd };
	struct stat st;
	uint64_t blk, first, last;
	int ret;

	if (fstat(req->fd, &st) < 0)
		return -(int64_t)errno;
	blk = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096u;
	first = req->offset / blk;
	last = (req->offset + req->len + blk - 1) / blk;
	if (fallocate(ctx->donor_fd, 0, (off_t)(first * blk), (off_t)((last - first) * blk)) < 0)
		return -(int64_t)errno;
	mv.orig_start = mv.donor_start = first;
	mv.len = last - first;
	/* EBUSY: the range's pages are still cached (and pinned); write them back, drop them and
	 * try again, as e4defrag(8) does */
	for (unsigned tries = 0;; tries++) {
		ret = ioctl(req->fd, E4DEFRAG_IOC_MOVE_EXT, &mv);
		if (ret == 0 || (errno != EINTR && errno != EBUSY) || tries >= E4DEFRAG_BUSY_TRIES)
			break;
		if (errno == EBUSY) {
			(void)fdatasync(req->fd);
			(void)posix_fadvise(req->fd, (off_t)(first * blk), (off_t)((last - first) * blk),
					    POSIX_FADV_DONTNEED);
		}
	}
	if (ret < 0)
		return -(int64_t)errno;
	if (ctx->inplace)
		(void)fallocate(ctx->donor_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(first * blk),
				(off_t)((last - first) * blk));
	return (int64_t)req->len;
}

static int e4defrag_queue(void *vctx, struct io_req *req)
{
	struct e4defrag_ctx *ctx = vctx;

	switch (req->op) {
	case IO_WRITE:
		if (req->len == 0 || req->offset > (uint64_t)INT64_MAX / 2 || req->len > (uint64_t)INT64_MAX / 2)
			req->result = -EINVAL;
		else
			req->result = e4defrag_move(ctx, req);
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		req->result = engine_sync_req(req);
		break;
	default:
		req->result = -EINVAL;
		break;
	}
	return ENGINE_DONE;
}

const struct engine_ops engine_e4defrag_ops = {
	.name = "e4defrag",
	.flags = ENGINE_F_SYNC,
	.init = e4defrag_init,
	.queue = e4defrag_queue,
	.cleanup = e4defrag_cleanup,
};

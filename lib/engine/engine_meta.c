/* SPDX-License-Identifier: MIT */
/* engine_meta: the metadata engines. Each works on the job's files by name (ENGINE_F_PATHS):
 * the first request of a file does the operation, timed as that request's completion latency
 * (IO_LAT_CLAT); the file's other requests are counted without a latency sample
 * (IO_LAT_NONE). That is what fio reports: one clat sample per file, and the bytes and I/Os
 * of filesize / bs requests per file.
 *
 *   filecreate  open(O_CREAT) and close: the files need not exist (no layout, no data)
 *   filestat    stat / lstat / statx (stat_type) of laid-out files
 *   filedelete  unlink of laid-out files
 *   dircreate   mkdir (the names are directories; no layout)
 *   dirstat     stat of directories made at init when missing
 *   dirdelete   rmdir of directories made at init when missing
 * Existing files are opened without O_TRUNC: filecreate never changes a file's data. */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define META_STATX_BASIC	0x7ffu	/* STATX_BASIC_STATS: the fields stat(2) fills */

enum meta_op { META_FILECREATE, META_FILESTAT, META_FILEDELETE, META_DIRCREATE, META_DIRSTAT, META_DIRDELETE };

struct meta_ctx {
	enum meta_op op;
	enum engine_stat_type stat_type;
	unsigned nr_files;
	unsigned char *done;	/* per file: its operation was done */
};

static int meta_init_op(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err, enum meta_op op)
{
	struct meta_ctx *ctx = calloc(1, sizeof(*ctx));
	unsigned nr = cfg->nr_files ? cfg->nr_files : 1;

	if (!ctx || !(ctx->done = calloc(nr, 1))) {
		free(ctx);
		iops_err_set(err, ENOMEM, "fio: metadata engine: out of memory for %u files", nr);
		return -ENOMEM;
	}
	ctx->op = op;
	ctx->nr_files = nr;
	ctx->stat_type = cfg->opts ? cfg->opts->stat_type : ENGINE_STAT_STAT;
	if ((op == META_DIRSTAT || op == META_DIRDELETE) && cfg->paths) {
		for (unsigned f = 0; f < cfg->nr_files; f++)
			if (cfg->paths[f] && mkdir(cfg->paths[f], 0755) < 0 && errno != EEXIST) {
				int e = errno;

				iops_err_set(err, e, "fio: %s: mkdir %s: %s", cfg->job_name ? cfg->job_name : "job",
					     cfg->paths[f], err_str(e));
				free(ctx->done);
				free(ctx);
				return -e;
			}
	}
	*ctxp = ctx;
	return 0;
}

static int meta_stat(const struct meta_ctx *ctx, const char *path)
{
	struct stat st;
	uint64_t stx[32];	/* struct statx is 256 bytes */

	switch (ctx->stat_type) {
	case ENGINE_STAT_LSTAT:
		return lstat(path, &st);
	case ENGINE_STAT_STATX:
		return (int)syscall(SYS_statx, AT_FDCWD, path, 0, META_STATX_BASIC, stx);
	default:
		return stat(path, &st);
	}
}

/* The operation on path: 0 or -errno. */
static int meta_do(const struct meta_ctx *ctx, const char *path)
{
	int ret, fd;

	switch (ctx->op) {
	case META_FILECREATE:
		do
			fd = open(path, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return -errno;
		close(fd);
		return 0;
	case META_FILESTAT:
	case META_DIRSTAT:
		ret = meta_stat(ctx, path);
		break;
	case META_FILEDELETE:
		ret = unlink(path);
		break;
	case META_DIRCREATE:
		ret = mkdir(path, 0755);
		break;
	default:
		ret = rmdir(path);
		break;
	}
	return ret < 0 ? -errno : 0;
}

static int meta_queue(void *vctx, struct io_req *req)
{
	struct meta_ctx *ctx = vctx;
	unsigned f = req->file_idx < ctx->nr_files ? req->file_idx : 0;
	int ret;

	if (req->op == IO_FSYNC || req->op == IO_FDATASYNC) {
		req->result = 0;
		req->lat_mode = IO_LAT_NONE;
		return ENGINE_DONE;
	}
	if (ctx->done[f]) {
		req->lat_mode = IO_LAT_NONE;
		req->result = (int64_t)req->len;
		return ENGINE_DONE;
	}
	if (!req->path) {
		req->result = -EINVAL;
		return ENGINE_DONE;
	}
	ret = meta_do(ctx, req->path);
	ctx->done[f] = 1;
	req->lat_mode = IO_LAT_CLAT;
	req->result = ret < 0 ? ret : (int64_t)req->len;
	return ENGINE_DONE;
}

static void meta_cleanup(void *vctx)
{
	struct meta_ctx *ctx = vctx;

	if (!ctx)
		return;
	free(ctx->done);
	free(ctx);
}

#define META_ENGINE(fn, opname) \
	static int fn##_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err) \
	{ \
		return meta_init_op(cfg, ctxp, err, opname); \
	}

META_ENGINE(filecreate, META_FILECREATE)
META_ENGINE(filestat, META_FILESTAT)
META_ENGINE(filedelete, META_FILEDELETE)
META_ENGINE(dircreate, META_DIRCREATE)
META_ENGINE(dirstat, META_DIRSTAT)
META_ENGINE(dirdelete, META_DIRDELETE)

#define META_F	(ENGINE_F_SYNC | ENGINE_F_PATHS)

const struct engine_ops engine_filecreate_ops = {
	.name = "filecreate", .flags = META_F | ENGINE_F_DISKLESS,
	.init = filecreate_init, .queue = meta_queue, .cleanup = meta_cleanup,
};
const struct engine_ops engine_filestat_ops = {
	.name = "filestat", .flags = META_F,
	.init = filestat_init, .queue = meta_queue, .cleanup = meta_cleanup,
};
const struct engine_ops engine_filedelete_ops = {
	.name = "filedelete", .flags = META_F,
	.init = filedelete_init, .queue = meta_queue, .cleanup = meta_cleanup,
};
const struct engine_ops engine_dircreate_ops = {
	.name = "dircreate", .flags = META_F | ENGINE_F_DISKLESS,
	.init = dircreate_init, .queue = meta_queue, .cleanup = meta_cleanup,
};
const struct engine_ops engine_dirstat_ops = {
	.name = "dirstat", .flags = META_F | ENGINE_F_DISKLESS,
	.init = dirstat_init, .queue = meta_queue, .cleanup = meta_cleanup,
};
const struct engine_ops engine_dirdelete_ops = {
	.name = "dirdelete", .flags = META_F | ENGINE_F_DISKLESS,
	.init = dirdelete_init, .queue = meta_queue, .cleanup = meta_cleanup,
};

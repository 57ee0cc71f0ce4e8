/* SPDX-License-Identifier: MIT */
/* engine: the I/O engine interface (ARCHITECTURE.md, Code map). One `const struct engine_ops` per
 * engine_*.c file, listed in an explicit table in engine.c. The runner owns requests,
 * buffers and timestamps; engines only move requests to the kernel and back. */
#ifndef IOPS_ENGINE_H
#define IOPS_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/ctl.h"
#include "core/err.h"
#include "engine/engine_opts.h"

/* The data directions are numbered as fio's (read 0, write 1, trim 2): the runner maps its
 * directions onto these one to one (lib/fio/run/runner_io.c checks that at compile time). */
enum io_op { IO_READ = 0, IO_WRITE = 1, IO_TRIM = 2 /* discard, see trim.h */, IO_NR_DATA = 3,
	     IO_FSYNC = 8, IO_FDATASYNC = 9 };

/* One request. Allocated by the runner at job start (iodepth of them), reused. */
struct io_req {
	enum io_op op;
	int fd;
	void *buf;
	uint64_t len;
	uint64_t offset;
	int64_t result;		/* bytes done, or -errno; set by the engine on completion */
	uint64_t start_ns;	/* runner: request set up */
	uint64_t issue_ns;	/* runner (or engine at commit): handed to the kernel */
	unsigned file_idx;	/* runner's bookkeeping */
	void *engine_data;	/* engine's per-request state (e.g. a struct iocb), set by prep */
	uint32_t index;		/* position in the runner's pool */
	uint16_t ioprio;	/* Linux I/O priority (class << 13 | level); 0: the thread's */

	/* trim: ioctl(BLKDISCARD) (devices), else punch a hole (regular files) */
	bool trim_ioctl;
	bool trim_skip;		/* zbd: the zone reset was the whole trim, nothing reaches the file */
	/* ENGINE_F_PATHS engines: the path of file file_idx (set by the runner per request) */
	const char *path;
	/* set by the engine at completion (0 otherwise): which latencies the I/O counts for */
	uint8_t lat_mode;	/* IO_LAT_* */
};

#define IO_LAT_ALL	0	/* clat and lat (every data engine) */
#define IO_LAT_CLAT	1	/* clat only (metadata engines: the operation's time) */
#define IO_LAT_NONE	2	/* counted, no latency sample (fio's fake I/Os) */

enum engine_queue_status {
	ENGINE_DONE = 0,	/* completed synchronously: result is set */
	ENGINE_QUEUED = 1,	/* accepted; will be submitted at commit() and returned by reap() */
	ENGINE_BUSY = 2,	/* cannot accept more now: commit and reap first */
};

#define ENGINE_F_SYNC		(1u << 0)	/* queue() always completes (psync, sync, pvsync) */
#define ENGINE_F_DISKLESS	(1u << 1)	/* does no real I/O: no disk stats, no files needed */
#define ENGINE_F_SETS_ISSUE	(1u << 2)	/* commit() sets issue_ns itself */
#define ENGINE_F_PATHS		(1u << 3)	/* requests carry the file's path (metadata engines) */
#define ENGINE_F_RDWR		(1u << 6)	/* files open read-write even for reads (falloc) */
#define ENGINE_F_BURN		(1u << 7)	/* no I/O of its own: not an "I/O job" (cpuio) */
#define ENGINE_F_STREAM		(1u << 5)	/* a read of 0 bytes is the end of the stream: the job ends */

struct engine_cfg {
	unsigned depth;		/* iodepth */
	bool direct;
	const struct engine_ops *inner;	/* engine_offload_ops only: the engine it runs */
	const struct engine_opts *opts;	/* the job's engine options (NULL: defaults) */
	unsigned nr_files;	/* files of the job (file_idx < nr_files) */
	char *const *paths;	/* their names (nr_files of them; NULL: none) */
	const int *fds;		/* their descriptors, open for the job's life (-1: none; NULL: none) */
	void *bufs;		/* the requests' buffers: depth of them, buf_bytes each, in index order */
	uint64_t buf_bytes;	/* (0: not known; io_uring's fixedbufs needs them) */
	const char *job_name;	/* exec: %n, std_redirect file names */
	uint64_t runtime_ns;	/* exec: %r */
	bool rw_write;		/* the job writes (net: sender, else receiver) */
	struct ctl *ctl;	/* stop requests, for engines that may wait long (net accept) */
	char *note;		/* init() may leave one line here for the user (cpuio's settings) */
	size_t note_cap;
};

struct engine_ops {
	const char *name;
	unsigned flags;		/* ENGINE_F_* */
	/* Allocate the engine context for one job. Fill err with a user-facing line on failure. */
	int (*init)(const struct engine_cfg *cfg, void **ctx, struct iops_err *err);
	/* Per-request setup at job start (optional). */
	int (*prep)(void *ctx, struct io_req *req);
	/* Returns ENGINE_DONE / ENGINE_QUEUED / ENGINE_BUSY, or -errno. */
	int (*queue)(void *ctx, struct io_req *req);
	/* Submit what queue() accepted; handles partial submits, EAGAIN and EINTR.
	 * Returns the number submitted, or -errno. NULL for sync engines. */
	int (*commit)(void *ctx);
	/* Wait for at least min completions (at most max), up to timeout (NULL = forever).
	 * Stores completed requests in out[], returns their number or -errno. */
	int (*reap)(void *ctx, unsigned min, unsigned max, const struct timespec *timeout,
		    struct io_req **out);
	void (*cleanup)(void *ctx);
};

/* fsync() or fdatasync() of req->fd as req->op says, EINTR retried: 0 or -errno. The engines
 * that sync synchronously (psync, sync, pvsync, libaio) share it. */
int64_t engine_sync_req(const struct io_req *req);

/* For the engines' init: cfg's depth (0 taken as 1) when it is at most max; else 0, and err says
 * it is too large for what. engine_nomem(): err says what is out of memory for depth; -ENOMEM. */
unsigned engine_depth(const struct engine_cfg *cfg, unsigned max, const char *what, struct iops_err *err);
int engine_nomem(struct iops_err *err, const char *what, unsigned depth);

/* io_submit_mode=offload (engine_offload.c): runs cfg->inner on a submit thread of its own.
 * Not in the table: the runner wraps the job's engine with it. */
extern const struct engine_ops engine_offload_ops;

/* The engine called name, or NULL. */
const struct engine_ops *engine_find(const char *name);

/* "libaio, io_uring, psync, sync, pvsync, null": the engines we have, for error messages. */
const char *engine_names(void);

#endif

/* SPDX-License-Identifier: MIT */
/* The engine unit tests' shared rig (tests/unit/engine/check_engine*.c): an engine with its
 * requests, unlinked temporary files, block patterns, and run_ios(), which drives requests
 * through an engine at its depth. */
#ifndef ENGINE_RIG_H
#define ENGINE_RIG_H

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "unit_probe.h"

#define BS		4096u
#define NR_BLOCKS	96u
#define MAX_DEPTH	32u

static const char *const all_engines[] = {
	"libaio", "io_uring", "posixaio", "psync", "sync", "pvsync", "pvsync2", "null",
};
/* The engines that need options, peers or a file system of their own: their own suites
 * (check_engine_file.c, _meta.c, _cpuio.c, _exec.c, _net.c). all_engines + extra_engines is
 * the table, in order. */
static const char *const extra_engines[] = {
	"falloc", "ftruncate", "mmap", "splice", "cpuio", "filecreate", "filestat", "filedelete",
	"dircreate", "dirstat", "dirdelete", "net", "netsplice", "exec", "e4defrag",
};
static const char *const file_engines[] = { "libaio", "io_uring", "posixaio", "psync", "sync", "pvsync",
					    "pvsync2" };
static const char *const async_engines[] = { "libaio", "io_uring", "posixaio", "null" };
static const unsigned depths[] = { 1, 4, 32 };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

struct rig {
	const struct engine_ops *ops;
	void *ctx;
	unsigned depth;
	struct io_req reqs[MAX_DEPTH];
	struct io_req *out[MAX_DEPTH];
};

/* The kernel interface of engine name, asked without the engine (unit_probe.h): io_setup for
 * libaio, io_uring_setup for io_uring, preadv2 for pvsync2 (the others need none). Where the
 * kernel refuses io_setup or io_uring_setup, the engine's init must fail with exactly the
 * kernel's errno (checked) and the rest of the check cannot run here: a counted skip, true.
 * pvsync2's init asks nothing of the kernel: a missing preadv2 is a counted skip alone. */
static inline bool rig_engine_missing(const char *name)
{
	char why[UNIT_PROBE_WHY] = "";

	if (!strcmp(name, "pvsync2") && !unit_have_preadv2(why)) {
		unit_skip("%s", why);
		return true;
	}
	int e = !strcmp(name, "libaio") ? probe_libaio() : !strcmp(name, "io_uring") ? probe_uring(0, -1) : 0;
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	void *ctx = NULL;
	int ret;

	if (!e)
		return false;
	ret = engine_find(name)->init(&cfg, &ctx, &err);
	ck_assert_msg(ret == -e, "%s init: %d where the kernel refuses with %d (%s)", name, ret, -e, err.msg);
	ck_assert_ptr_null(ctx);
	unit_skip("%s: the kernel refuses it here (%s): init passes that on, the rest is not run", name,
		  strerror(e));
	return true;
}

/* O_DIRECT in the scratch directory (temp_file's), asked of the kernel: false and a counted
 * skip where it is refused. */
static inline bool rig_direct_ok(void)
{
	int e = probe_odirect(probe_dir());

	if (e)
		unit_skip("O_DIRECT: the kernel refuses it in %s (%s): the direct part is not run", probe_dir(),
			  strerror(e));
	return !e;
}

/* rig_init() with a configuration of the caller's (engine options, files...). */
static inline void rig_init_cfg(struct rig *rig, const char *name, struct engine_cfg cfg)
{
	struct iops_err err = { 0 };
	unsigned depth = cfg.depth ? cfg.depth : 1;
	int ret;

	memset(rig, 0, sizeof(*rig));
	rig->ops = engine_find(name);
	ck_assert_msg(rig->ops != NULL, "engine %s missing", name);
	rig->depth = depth;
	ret = rig->ops->init(&cfg, &rig->ctx, &err);
	ck_assert_msg(ret == 0, "%s init: %d %s", name, ret, err.msg);
	for (unsigned i = 0; i < depth; i++) {
		rig->reqs[i].index = i;
		if (rig->ops->prep)
			ck_assert_int_eq(rig->ops->prep(rig->ctx, &rig->reqs[i]), 0);
	}
}

static inline void rig_init(struct rig *rig, const char *name, unsigned depth)
{
	struct engine_cfg cfg = { .depth = depth, .direct = false };

	rig_init_cfg(rig, name, cfg);
}

static inline void rig_release(struct rig *rig)
{
	rig->ops->cleanup(rig->ctx);
}

static inline void set_req(struct io_req *req, enum io_op op, int fd, void *buf, uint64_t len,
			   uint64_t offset)
{
	req->op = op;
	req->fd = fd;
	req->buf = buf;
	req->len = len;
	req->offset = offset;
	req->result = INT64_MIN;
	req->issue_ns = 0;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A temp file of size bytes (zeros written), already unlinked: nothing is left behind even when
 * a test fails. With direct, a second descriptor opened with O_DIRECT is returned instead. */
static inline int temp_file(uint64_t size, bool direct)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	int fd, dfd;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert(snprintf(path, sizeof(path), "%s/iops-check-engine-XXXXXX", dir) < (int)sizeof(path));
	fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	dfd = direct ? open(path, O_RDWR | O_DIRECT) : -1;
	unlink(path);	/* before any assertion can end the test */
	ck_assert_msg(!direct || dfd >= 0, "O_DIRECT open %s: %s", path, strerror(errno));
	/* real blocks, not a sparse file: O_DIRECT reads of holes take other kernel paths */
	for (uint64_t off = 0; off < size;) {
		static const unsigned char zeros[BS];
		size_t len = size - off < BS ? (size_t)(size - off) : BS;

		ck_assert_int_eq(pwrite(fd, zeros, len, (off_t)off), (ssize_t)len);
		off += len;
	}
	/* no fsync needed: O_DIRECT I/O writes back and drops the cached range itself */
	if (direct) {
		close(fd);
		fd = dfd;
	}
	return fd;
}

static inline void *aligned_buf(size_t len)
{
	void *p = NULL;

	ck_assert_int_eq(posix_memalign(&p, 4096, len), 0);
	memset(p, 0, len);
	return p;
}

static inline void fill_block(unsigned char *p, unsigned block)
{
	for (unsigned i = 0; i < BS; i++)
		p[i] = (unsigned char)(block * 131u + i * 7u + (i >> 8));
}

/* Block number written at position i: a fixed shuffle, so offsets are not sequential. */
static inline unsigned block_at(unsigned i)
{
	return (i * 37u) % NR_BLOCKS;	/* 37 is coprime with 96 */
}

/* Drive n requests (position i: block_at(i), buffer bufs + block*BS) through the engine with
 * up to depth in flight, committing partial batches, reaping with min 1. Every request must
 * transfer BS bytes. Returns the number of BUSY answers seen. */
static inline unsigned run_ios(struct rig *rig, enum io_op op, int fd, unsigned char *bufs, unsigned n)
{
	unsigned free_idx[MAX_DEPTH], nr_free = rig->depth, next = 0, done = 0, inflight = 0;
	unsigned uncommitted = 0, nr_busy = 0;

	for (unsigned i = 0; i < rig->depth; i++)
		free_idx[i] = rig->depth - 1 - i;
	while (done < n) {
		while (next < n && nr_free) {
			struct io_req *req = &rig->reqs[free_idx[nr_free - 1]];
			unsigned b = block_at(next);
			int ret;

			set_req(req, op, fd, bufs + (size_t)b * BS, BS, (uint64_t)b * BS);
			ret = rig->ops->queue(rig->ctx, req);
			if (ret == ENGINE_BUSY) {
				nr_busy++;
				break;
			}
			nr_free--;
			next++;
			if (ret == ENGINE_DONE) {
				ck_assert_msg(req->result == BS, "%s: result %lld", rig->ops->name,
					      (long long)req->result);
				free_idx[nr_free++] = req->index;
				done++;
				continue;
			}
			ck_assert_int_eq(ret, ENGINE_QUEUED);
			uncommitted++;
			/* commit in uneven batches: every 3 requests */
			if (uncommitted == 3) {
				ck_assert_int_eq(rig->ops->commit(rig->ctx), 3);
				inflight += 3;
				uncommitted = 0;
			}
		}
		if (uncommitted) {
			ck_assert_int_eq(rig->ops->commit(rig->ctx), (int)uncommitted);
			inflight += uncommitted;
			uncommitted = 0;
		}
		if (inflight) {
			int got = rig->ops->reap(rig->ctx, 1, rig->depth, NULL, rig->out);

			ck_assert_msg(got >= 1 && (unsigned)got <= inflight, "%s: reap %d of %u",
				      rig->ops->name, got, inflight);
			for (int i = 0; i < got; i++) {
				ck_assert_msg(rig->out[i]->result == BS, "%s: result %lld",
					      rig->ops->name, (long long)rig->out[i]->result);
				free_idx[nr_free++] = rig->out[i]->index;
			}
			inflight -= (unsigned)got;
			done += (unsigned)got;
		}
	}
	return nr_busy;
}

#endif

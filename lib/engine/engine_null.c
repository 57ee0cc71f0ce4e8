/* SPDX-License-Identifier: MIT */
/* engine_null: no data transfer; every request completes at once. It measures the runner's own
 * per-I/O cost, so the hot path is a handful of loads and stores.
 *
 * - depth 1: queue() completes the request and returns ENGINE_DONE (fio's null engine turns
 *   itself into a sync engine at iodepth=1). The runner must treat ENGINE_DONE from any engine
 *   as a synchronous completion.
 * - depth > 1: queue() collects requests (ENGINE_BUSY once depth are queued or in flight),
 *   commit() marks every collected request issued, reap() hands issued requests back at once
 *   (at most max of them). reap() never blocks: what is issued is already complete.
 *
 * Fault injection, for tests of the runner and of the error paths: the environment variable
 *   IOPS_NULL_FAIL=N[:ERRNO]
 * makes every Nth request of each job (counted per engine context, reads, writes and syncs
 * alike) complete with -ERRNO (default EIO = 5) instead of success. N is 1..1000000000, ERRNO
 * 1..4095; anything else makes init() fail with a one-line error. Unset or empty: no faults.
 * Example: IOPS_NULL_FAIL=100:28 fails the 100th, 200th, ... request with ENOSPC. */
#include "engine/engine.h"

#include <errno.h>
#include <stdlib.h>

#define NULL_MAX_DEPTH		65536u
#define NULL_FAIL_MAX_EVERY	1000000000ul
#define NULL_FAIL_MAX_ERRNO	4095ul
#define NULL_FAIL_ENV		"IOPS_NULL_FAIL"

struct null_ctx {
	unsigned depth;
	unsigned head;		/* ring slot of the oldest issued request */
	unsigned nr_issued;	/* committed, not yet reaped (slots head..) */
	unsigned nr_queued;	/* queued, not yet committed (slots after the issued ones) */
	unsigned fail_every;	/* 0 = no fault injection */
	unsigned fail_count;
	int fail_errno;
	struct io_req **ring;	/* depth slots; NULL at depth 1 */
};

/* Parse IOPS_NULL_FAIL. Returns 0 (also when unset) or -EINVAL with err filled. */
__attribute__((cold)) static int null_parse_fail(struct null_ctx *ctx, struct iops_err *err)
{
	const char *env = getenv(NULL_FAIL_ENV);
	unsigned long every, code = EIO;
	char *end;

	if (!env || !*env)
		return 0;
	if (*env < '0' || *env > '9')
		goto invalid;
	errno = 0;
	every = strtoul(env, &end, 10);
	if (errno || every == 0 || every > NULL_FAIL_MAX_EVERY)
		goto invalid;
	if (*end == ':') {
		const char *p = end + 1;

		if (*p < '0' || *p > '9')
			goto invalid;
		errno = 0;
		code = strtoul(p, &end, 10);
		if (errno || code == 0 || code > NULL_FAIL_MAX_ERRNO)
			goto invalid;
	}
	if (*end)
		goto invalid;
	ctx->fail_every = (unsigned)every;
	ctx->fail_errno = (int)code;
	return 0;
invalid:
	iops_err_set(err, EINVAL,
		     "fio: invalid %s '%s': expected N[:ERRNO], N in 1..%lu, ERRNO in 1..%lu",
		     NULL_FAIL_ENV, env, NULL_FAIL_MAX_EVERY, NULL_FAIL_MAX_ERRNO);
	return -EINVAL;
}

__attribute__((cold)) static int null_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	unsigned depth = engine_depth(cfg, NULL_MAX_DEPTH, "the null engine", err);
	struct null_ctx *ctx;
	int ret;

	if (!depth)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto nomem;
	ctx->depth = depth;
	ret = null_parse_fail(ctx, err);
	if (ret < 0)
		goto free_ctx;
	if (depth > 1) {
		ctx->ring = calloc(depth, sizeof(*ctx->ring));
		if (!ctx->ring) {
			free(ctx);
			goto nomem;
		}
	}
	*ctxp = ctx;
	return 0;

free_ctx:
	free(ctx);
	return ret;
nomem:
	return engine_nomem(err, "null engine", depth);
}

/* The request's outcome: its length (reads, writes, trims; 0 for syncs, -EINVAL for an
 * unknown op), or the injected fault. */
static inline void null_complete(struct null_ctx *ctx, struct io_req *req)
{
	if (__builtin_expect((unsigned)req->op < (unsigned)IO_NR_DATA, 1))	/* read, write, trim */
		req->result = (int64_t)req->len;
	else
		req->result = (req->op == IO_FSYNC || req->op == IO_FDATASYNC) ? 0 : -EINVAL;
	if (__builtin_expect(ctx->fail_every != 0, 0) && ++ctx->fail_count == ctx->fail_every) {
		ctx->fail_count = 0;
		req->result = -ctx->fail_errno;
	}
}

static int null_queue(void *vctx, struct io_req *req)
{
	struct null_ctx *ctx = vctx;
	unsigned used, slot;

	if (ctx->depth == 1) {
		null_complete(ctx, req);
		return ENGINE_DONE;
	}
	used = ctx->nr_issued + ctx->nr_queued;
	if (used >= ctx->depth)
		return ENGINE_BUSY;	/* not accepted: not counted by the fault injection */
	null_complete(ctx, req);
	slot = ctx->head + used;
	if (slot >= ctx->depth)
		slot -= ctx->depth;
	ctx->ring[slot] = req;
	ctx->nr_queued++;
	return ENGINE_QUEUED;
}

static int null_commit(void *vctx)
{
	struct null_ctx *ctx = vctx;
	unsigned n = ctx->nr_queued;

	ctx->nr_issued += n;
	ctx->nr_queued = 0;
	return (int)n;
}

static int null_reap(void *vctx, unsigned min, unsigned max, const struct timespec *timeout,
		     struct io_req **out)
{
	struct null_ctx *ctx = vctx;
	unsigned n = ctx->nr_issued < max ? ctx->nr_issued : max;
	unsigned head = ctx->head;

	(void)min;
	(void)timeout;
	for (unsigned i = 0; i < n; i++) {
		out[i] = ctx->ring[head];
		if (++head == ctx->depth)
			head = 0;
	}
	ctx->head = head;
	ctx->nr_issued -= n;
	return (int)n;
}

__attribute__((cold)) static void null_cleanup(void *vctx)
{
	struct null_ctx *ctx = vctx;

	if (!ctx)
		return;
	free(ctx->ring);
	free(ctx);
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.flags = ENGINE_F_DISKLESS,
	.init = null_init,
	.prep = NULL,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};

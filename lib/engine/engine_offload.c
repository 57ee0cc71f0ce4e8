/* SPDX-License-Identifier: MIT */
/* engine_offload: io_submit_mode=offload. Wraps another engine (engine_cfg.inner) and runs it
 * on a submit thread of its own, so the job's thread only prepares requests and accounts
 * completions while the submit thread calls the engine's queue / commit / reap.
 *
 * - The caller's requests never reach the other thread: queue() copies each one into a shadow
 *   request (same index, same buffer; the inner engine's per-request state lives there), the
 *   submit thread runs the shadow, and reap() copies the result back. So the inner engine
 *   may set issue_ns (libaio, io_uring) without racing with the caller's timestamps.
 * - Two single-producer single-consumer rings of depth slots carry shadows: sub (job ->
 *   submit thread, filled at commit()) and cmp (submit thread -> job). At most depth
 *   requests exist, so a ring never overflows. A side that finds its ring empty sleeps on a
 *   condition variable; the other side signals only when the sleeper said so (a flag with
 *   sequentially consistent order on both sides, so a wake-up is never lost).
 * - The caller's timestamps stay the caller's: issue_ns is the hand-off at commit() and the
 *   completion is when reap() returns it, so queueing in the submit thread counts as latency
 *   (what offload is for in fio: latency measured from when the job wanted the I/O).
 * Not in the I/O path of inline jobs: the runner uses it only for io_submit_mode=offload. */
#include "engine/engine.h"
#include "core/err.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define OFFLOAD_RETRY_MAX	1000u	/* commits that submit nothing before the requests fail */
#define OFFLOAD_MAX_DEPTH	65536u

struct offload_ring {
	unsigned cap;
	_Atomic unsigned head, tail;	/* free running: tail - head entries */
	struct io_req **slot;
};

struct offload_ctx {
	const struct engine_ops *inner;
	void *ictx;
	unsigned depth;
	struct io_req *shadow;		/* by request index */
	struct io_req **owner;		/* the caller's request of each shadow */
	/* job side */
	struct io_req **jpend;		/* queued, not committed */
	unsigned nr_jpend, outstanding;
	/* shared */
	struct offload_ring sub, cmp;
	pthread_mutex_t mu;
	pthread_cond_t cv_sub, cv_cmp;
	_Atomic bool sub_waiting, cmp_waiting, stop;
	pthread_t tid;
	bool started, sync_ok;
	/* submit thread side */
	struct io_req **tpend;		/* queued in the inner engine, not committed */
	unsigned nr_tpend, t_inflight;
	bool *t_busy;			/* by index: in the inner engine */
	struct io_req **tdone;
	int fatal;			/* the inner engine failed for good: -errno for what follows */
};

/* ---- rings ------------------------------------------------------------------------------ */

static void offload_ring_push(struct offload_ring *r, struct io_req *req)
{
	unsigned t = atomic_load_explicit(&r->tail, memory_order_relaxed);

	r->slot[t % r->cap] = req;
	atomic_store_explicit(&r->tail, t + 1, memory_order_seq_cst);
}

static struct io_req *offload_ring_pop(struct offload_ring *r)
{
	unsigned h = atomic_load_explicit(&r->head, memory_order_relaxed);
	struct io_req *req;

	if (h == atomic_load_explicit(&r->tail, memory_order_seq_cst))
		return NULL;
	req = r->slot[h % r->cap];
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
	return req;
}

static bool offload_ring_empty(struct offload_ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_relaxed) ==
	       atomic_load_explicit(&r->tail, memory_order_seq_cst);
}

/* Wake the other side if it sleeps (after a push). */
static void offload_wake(struct offload_ctx *c, _Atomic bool *waiting, pthread_cond_t *cv)
{
	if (!atomic_load_explicit(waiting, memory_order_seq_cst))
		return;
	pthread_mutex_lock(&c->mu);
	pthread_cond_signal(cv);
	pthread_mutex_unlock(&c->mu);
}

/* Sleep until ring r has an entry (or, for the submit thread, a stop). */
static void offload_sleep(struct offload_ctx *c, struct offload_ring *r, _Atomic bool *waiting,
			  pthread_cond_t *cv, bool stoppable)
{
	pthread_mutex_lock(&c->mu);
	atomic_store_explicit(waiting, true, memory_order_seq_cst);
	while (offload_ring_empty(r) && !(stoppable && atomic_load_explicit(&c->stop, memory_order_seq_cst)))
		pthread_cond_wait(cv, &c->mu);
	atomic_store_explicit(waiting, false, memory_order_relaxed);
	pthread_mutex_unlock(&c->mu);
}

/* ---- the submit thread ------------------------------------------------------------------ */

static void offload_done(struct offload_ctx *c, struct io_req *sh)
{
	c->t_busy[sh->index] = false;
	offload_ring_push(&c->cmp, sh);
	offload_wake(c, &c->cmp_waiting, &c->cv_cmp);
}

/* The inner engine is unusable: fail what it holds and what comes later with e. */
static void offload_fail_all(struct offload_ctx *c, int e)
{
	c->fatal = e;
	for (unsigned i = 0; i < c->depth; i++)
		if (c->t_busy[i]) {
			c->shadow[i].result = e;
			offload_done(c, &c->shadow[i]);
		}
	c->nr_tpend = 0;
	c->t_inflight = 0;
}

static void offload_reap(struct offload_ctx *c, unsigned min)
{
	int n;

	if (!c->t_inflight)
		return;
	n = c->inner->reap(c->ictx, min, c->t_inflight, NULL, c->tdone);
	if (n == -EINTR || n == -EAGAIN)
		return;
	if (n < 0) {
		offload_fail_all(c, n);
		return;
	}
	c->t_inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		offload_done(c, c->tdone[i]);
}

static void offload_commit(struct offload_ctx *c)
{
	unsigned tries = 0;

	while (c->nr_tpend) {
		int n = c->inner->commit ? c->inner->commit(c->ictx) : (int)c->nr_tpend;

		if (n < 0) {
			for (unsigned i = 0; i < c->nr_tpend; i++) {
				c->tpend[i]->result = n;
				offload_done(c, c->tpend[i]);
			}
			c->nr_tpend = 0;
			return;
		}
		if ((unsigned)n > c->nr_tpend)
			n = (int)c->nr_tpend;
		if (n == 0) {
			if (c->t_inflight) {
				offload_reap(c, 1);	/* room first */
				continue;
			}
			if (++tries > OFFLOAD_RETRY_MAX) {
				for (unsigned i = 0; i < c->nr_tpend; i++) {
					c->tpend[i]->result = -EIO;
					offload_done(c, c->tpend[i]);
				}
				c->nr_tpend = 0;
				return;
			}
			continue;
		}
		c->t_inflight += (unsigned)n;
		c->nr_tpend -= (unsigned)n;
		memmove(c->tpend, c->tpend + n, c->nr_tpend * sizeof(*c->tpend));
	}
}

static void offload_queue_one(struct offload_ctx *c, struct io_req *sh)
{
	if (c->fatal) {
		sh->result = c->fatal;
		offload_ring_push(&c->cmp, sh);
		offload_wake(c, &c->cmp_waiting, &c->cv_cmp);
		return;
	}
	c->t_busy[sh->index] = true;
	for (;;) {
		int ret = c->inner->queue(c->ictx, sh);

		if (ret == ENGINE_DONE) {
			offload_done(c, sh);
			return;
		}
		if (ret == ENGINE_QUEUED) {
			c->tpend[c->nr_tpend++] = sh;
			return;
		}
		if (ret == ENGINE_BUSY) {
			unsigned stashed = c->nr_tpend;

			offload_commit(c);
			if (!c->t_inflight && stashed && !c->nr_tpend)
				continue;	/* the stash failed at its commit: the engine has room again */
			if (!c->t_inflight) {
				sh->result = -EBUSY;
				offload_done(c, sh);
				return;
			}
			offload_reap(c, 1);
			if (c->fatal) {
				sh->result = c->fatal;
				offload_done(c, sh);
				return;
			}
			continue;
		}
		sh->result = ret < 0 ? ret : -EIO;
		offload_done(c, sh);
		return;
	}
}

static void *offload_main(void *arg)
{
	struct offload_ctx *c = arg;

	for (;;) {
		struct io_req *sh;
		bool got = false;

		while ((sh = offload_ring_pop(&c->sub))) {
			got = true;
			offload_queue_one(c, sh);
		}
		if (c->nr_tpend)
			offload_commit(c);
		if (c->t_inflight) {
			offload_reap(c, offload_ring_empty(&c->sub) ? 1 : 0);
			continue;
		}
		if (got)
			continue;
		if (atomic_load_explicit(&c->stop, memory_order_seq_cst))
			break;
		offload_sleep(c, &c->sub, &c->sub_waiting, &c->cv_sub, true);
	}
	return NULL;
}

/* ---- the job's side --------------------------------------------------------------------- */

static void offload_cleanup(void *vctx);

static int offload_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	unsigned depth;
	struct offload_ctx *c;
	int ret;

	if (!cfg->inner || cfg->inner->init == NULL) {
		iops_err_set(err, EINVAL, "fio: io_submit_mode=offload: no engine to offload to");
		return -EINVAL;
	}
	depth = engine_depth(cfg, OFFLOAD_MAX_DEPTH, "io_submit_mode=offload", err);
	if (!depth)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		goto nomem;
	c->inner = cfg->inner;
	c->depth = depth;
	c->sub.cap = c->cmp.cap = depth;
	c->shadow = calloc(depth, sizeof(*c->shadow));
	c->owner = calloc(depth, sizeof(*c->owner));
	c->jpend = calloc(depth, sizeof(*c->jpend));
	c->tpend = calloc(depth, sizeof(*c->tpend));
	c->tdone = calloc(depth, sizeof(*c->tdone));
	c->t_busy = calloc(depth, sizeof(*c->t_busy));
	c->sub.slot = calloc(depth, sizeof(*c->sub.slot));
	c->cmp.slot = calloc(depth, sizeof(*c->cmp.slot));
	if (!c->shadow || !c->owner || !c->jpend || !c->tpend || !c->tdone || !c->t_busy || !c->sub.slot ||
	    !c->cmp.slot)
		goto free_ctx;
	for (unsigned i = 0; i < depth; i++)
		c->shadow[i].index = i;
	ret = c->inner->init(cfg, &c->ictx, err);
	if (ret < 0) {
		c->ictx = NULL;
		offload_cleanup(c);
		return ret;
	}
	if (pthread_mutex_init(&c->mu, NULL))
		goto free_ctx;
	if (pthread_cond_init(&c->cv_sub, NULL)) {
		pthread_mutex_destroy(&c->mu);
		goto free_ctx;
	}
	if (pthread_cond_init(&c->cv_cmp, NULL)) {
		pthread_cond_destroy(&c->cv_sub);
		pthread_mutex_destroy(&c->mu);
		goto free_ctx;
	}
	c->sync_ok = true;
	ret = pthread_create(&c->tid, NULL, offload_main, c);
	if (ret) {
		iops_err_set(err, ret, "fio: io_submit_mode=offload: cannot start the submit thread: %s",
			     err_str(ret));
		offload_cleanup(c);
		return -ret;
	}
	c->started = true;
	*ctxp = c;
	return 0;

free_ctx:
	offload_cleanup(c);
nomem:
	return engine_nomem(err, "io_submit_mode=offload", depth);
}

static int offload_prep(void *vctx, struct io_req *req)
{
	struct offload_ctx *c = vctx;
	struct io_req *sh;

	if (req->index >= c->depth)
		return -EINVAL;
	sh = &c->shadow[req->index];
	sh->buf = req->buf;
	sh->fd = req->fd;
	c->owner[req->index] = req;
	return c->inner->prep ? c->inner->prep(c->ictx, sh) : 0;
}

static int offload_queue(void *vctx, struct io_req *req)
{
	struct offload_ctx *c = vctx;
	struct io_req *sh;

	if (req->index >= c->depth || c->owner[req->index] != req)
		return -EINVAL;
	if (c->outstanding >= c->depth)
		return ENGINE_BUSY;
	sh = &c->shadow[req->index];
	sh->op = req->op;
	sh->fd = req->fd;
	sh->buf = req->buf;
	sh->len = req->len;
	sh->offset = req->offset;
	sh->result = 0;
	sh->start_ns = req->start_ns;
	sh->issue_ns = req->issue_ns;
	sh->file_idx = req->file_idx;
	sh->trim_ioctl = req->trim_ioctl;
	sh->trim_skip = req->trim_skip;	/* zbd */
	c->jpend[c->nr_jpend++] = sh;
	c->outstanding++;
	return ENGINE_QUEUED;
}

static int offload_commit_job(void *vctx)
{
	struct offload_ctx *c = vctx;
	unsigned n = c->nr_jpend;

	for (unsigned i = 0; i < n; i++)
		offload_ring_push(&c->sub, c->jpend[i]);
	c->nr_jpend = 0;
	if (n)
		offload_wake(c, &c->sub_waiting, &c->cv_sub);
	return (int)n;
}

static int offload_reap_job(void *vctx, unsigned min, unsigned max, const struct timespec *timeout,
			    struct io_req **out)
{
	struct offload_ctx *c = vctx;
	unsigned k = 0;

	(void)timeout;
	if (min > c->outstanding)
		min = c->outstanding;
	for (;;) {
		struct io_req *sh;

		while (k < max && (sh = offload_ring_pop(&c->cmp))) {
			struct io_req *req = c->owner[sh->index];

			req->result = sh->result;
			out[k++] = req;
			c->outstanding--;
		}
		if (k >= min || k >= max)
			return (int)k;
		offload_sleep(c, &c->cmp, &c->cmp_waiting, &c->cv_cmp, false);
	}
}

static void offload_cleanup(void *vctx)
{
	struct offload_ctx *c = vctx;

	if (!c)
		return;
	if (c->started) {
		pthread_mutex_lock(&c->mu);
		atomic_store_explicit(&c->stop, true, memory_order_seq_cst);
		pthread_cond_signal(&c->cv_sub);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->tid, NULL);
	}
	if (c->sync_ok) {
		pthread_cond_destroy(&c->cv_cmp);
		pthread_cond_destroy(&c->cv_sub);
		pthread_mutex_destroy(&c->mu);
	}
	if (c->ictx)
		c->inner->cleanup(c->ictx);
	free(c->shadow);
	free(c->owner);
	free(c->jpend);
	free(c->tpend);
	free(c->tdone);
	free(c->t_busy);
	free(c->sub.slot);
	free(c->cmp.slot);
	free(c);
}

const struct engine_ops engine_offload_ops = {
	.name = "offload",
	.flags = 0,
	.init = offload_init,
	.prep = offload_prep,
	.queue = offload_queue,
	.commit = offload_commit_job,
	.reap = offload_reap_job,
	.cleanup = offload_cleanup,
};

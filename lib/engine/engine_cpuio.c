/* SPDX-License-Identifier: MIT */
/* engine_cpuio: burns CPU instead of doing I/O (fio's cpuio engine). Each request spins for
 * one chunk (cpuchunks, default 50 ms) and completes with no data (len and result 0: an I/O
 * counted, no bytes). The job's think time between requests (set from cpuload when the job is
 * read, lib/fio/conf/opt_apply_engine.c) makes the load cpuload percent of one CPU.
 *   cpumode=noop   a loop of no-op instructions, checking the clock
 *   cpumode=qsort  sorts an array of pseudo-random numbers again and again
 * The job never ends on its size: it runs for its runtime (or until stopped), or, with
 * exit_on_io_done=1, until the run's other (I/O) jobs are done (lib/fio/run/runner.c). */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CPUIO_QSORT_NR	4096u		/* numbers sorted per round */

struct cpuio_ctx {
	struct engine_cpuio_opts o;
	uint32_t seed;
	uint32_t *arr;			/* qsort only */
};

static uint64_t cpuio_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cpuio_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cpuio_init(const struct engine_cfg *cfg, void **ctxp, struct iops_err *err)
{
	struct cpuio_ctx *ctx;

	if (!cfg->opts || cfg->opts->cpuio.load == 0 || cfg->opts->cpuio.load > 100 ||
	    cfg->opts->cpuio.chunk_ns == 0) {
		iops_err_set(err, EINVAL, "fio: cpuio engine requires cpuload=1..100");
		return -EINVAL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		goto nomem;
	ctx->o = cfg->opts->cpuio;
	ctx->seed = 0x9e3779b9u;
	if (ctx->o.mode == ENGINE_CPU_QSORT) {
		ctx->arr = calloc(CPUIO_QSORT_NR, sizeof(*ctx->arr));
		if (!ctx->arr) {
			free(ctx);
			goto nomem;
		}
	}
	if (cfg->note && cfg->note_cap)
		snprintf(cfg->note, cfg->note_cap, "%s (%s): ioengine=cpuio, cpuload=%u, cpucycle=%llu",
			 cfg->job_name ? cfg->job_name : "", ctx->o.mode == ENGINE_CPU_QSORT ? "qsort" : "noop",
			 ctx->o.load, (unsigned long long)(ctx->o.chunk_ns / 1000u));
	*ctxp = ctx;
	return 0;
nomem:
	iops_err_set(err, ENOMEM, "fio: cpuio engine: out of memory");
	return -ENOMEM;
}

static void cpuio_cleanup(void *vctx)
{
	struct cpuio_ctx *ctx = vctx;

	if (!ctx)
		return;
	free(ctx->arr);
	free(ctx);
}

static void cpuio_qsort_round(struct cpuio_ctx *ctx)
{
	uint32_t x = ctx->seed;

	for (unsigned i = 0; i < CPUIO_QSORT_NR; i++) {
		x ^= x << 13;	/* xorshift32 */
		x ^= x >> 17;
		x ^= x << 5;
		ctx->arr[i] = x;
	}
	ctx->seed = x;
	qsort(ctx->arr, CPUIO_QSORT_NR, sizeof(*ctx->arr), cpuio_cmp);
}

/* Spin for ns nanoseconds of wall time. */
static void cpuio_burn(struct cpuio_ctx *ctx, uint64_t ns)
{
	uint64_t end = cpuio_now() + ns;

	do {
		if (ctx->arr) {
			cpuio_qsort_round(ctx);
		} else {
			for (unsigned i = 0; i < 1000; i++)
				__asm__ __volatile__("" ::: "memory");
		}
	} while (cpuio_now() < end);
}

static int cpuio_queue(void *vctx, struct io_req *req)
{
	struct cpuio_ctx *ctx = vctx;

	if (req->op == IO_READ || req->op == IO_WRITE || req->op == IO_TRIM)
		cpuio_burn(ctx, ctx->o.chunk_ns);
	req->len = 0;		/* an I/O without bytes */
	req->result = 0;
	return ENGINE_DONE;
}

const struct engine_ops engine_cpuio_ops = {
	.name = "cpuio",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_BURN,
	.init = cpuio_init,
	.queue = cpuio_queue,
	.cleanup = cpuio_cleanup,
};

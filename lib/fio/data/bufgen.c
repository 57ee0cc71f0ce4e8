/* SPDX-License-Identifier: MIT */
/* bufgen: write buffer contents (bufgen.h). */
#include "fio/data/bufgen.h"

#include <string.h>

#include "fio/data/pattern.h"
#include "fio/data/verify.h"

#define BUFGEN_GLOBAL_SEED	0x5eed0f10c0ffee11ull	/* dedupe_global: one working set */

bool bufgen_refills(const struct job *job)
{
	if (job->zero_buffers)
		return false;
	return job->refill_buffers || (job->compress_pct && job->compress_pct < 100) || job->dedupe_pct;
}

bool bufgen_scrambles(const struct job *job)
{
	return job->scramble_buffers && !job->zero_buffers && !job->buffer_pattern_len &&
	       !job->compress_pct && !bufgen_refills(job) && job->verify == VERIFY_NONE;
}

void bufgen_init(struct bufgen *bg, const struct job *job, uint64_t seed, uint64_t job_bytes,
		 uint64_t block)
{
	memset(bg, 0, sizeof(*bg));
	if (job->buffer_pattern_len) {
		bg->pat = job->buffer_pattern;
		bg->pat_len = job->buffer_pattern_len;
	}
	bg->compress_pct = job->compress_pct > 100 ? 100 : job->compress_pct;
	bg->chunk = job->compress_chunk;
	bg->dedupe_pct = job->dedupe_pct > 100 ? 100 : job->dedupe_pct;
	bg->working_set = job->dedupe_working_set;
	bg->global = job->dedupe_global && job->dedupe_working_set;
	if (block == 0)
		block = 4096;
	bg->ws_nr = job_bytes / 100 * job->dedupe_ws_pct / block;
	if (bg->ws_nr == 0)
		bg->ws_nr = 1;
	/* which writes are copies repeats run to run as fio's (randrepeat), what they hold does
	 * not (a deduplicating array must not fold one run into the last) */
	rng_init(&bg->rng, rng_job_seed(job->randseed, job->randrepeat || job->allrandrepeat || job->randseed_set,
					job->thread_number, RNG_BUF) ^ 0xdedu);
	bg->base = rng_mix64(seed ^ 0x77u);
}

/* The buffer that seed stands for: (100 - compress)% random, then fixed, per chunk. */
static void bufgen_render(const struct bufgen *bg, void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	size_t chunk = bg->chunk && bg->chunk < len ? (size_t)bg->chunk : len;
	struct rng r;

	rng_init(&r, seed);
	if (!bg->compress_pct) {
		rng_fill(&r, p, len);
		return;
	}
	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;
		size_t rnd = n * (100 - bg->compress_pct) / 100;

		rng_fill(&r, p + off, rnd);
		pattern_repeat(p + off + rnd, n - rnd, bg->pat, bg->pat ? bg->pat_len : 0);
	}
}

void bufgen_fill(struct bufgen *bg, void *buf, size_t len)
{
	uint64_t seed;

	if (bg->dedupe_pct && bg->nr_unique && rng_percent(&bg->rng, bg->dedupe_pct)) {
		if (bg->global)
			seed = rng_mix64(BUFGEN_GLOBAL_SEED + rng_below(&bg->rng, bg->ws_nr));
		else if (bg->working_set)
			seed = rng_mix64(bg->base + rng_below(&bg->rng, bg->nr_unique < bg->ws_nr ?
								bg->nr_unique : bg->ws_nr));
		else
			seed = rng_mix64(bg->base + bg->nr_unique - 1);
	} else {
		seed = rng_mix64(bg->base + bg->nr_unique++);
	}
	bufgen_render(bg, buf, len, seed);
}

void bufgen_fill_initial(struct bufgen *bg, const struct job *job, void *buf, size_t len,
			 struct rng *data_rng)
{
	if (job->zero_buffers)
		memset(buf, 0, len);
	else if (bg->pat && !bg->compress_pct)
		pattern_repeat(buf, len, bg->pat, bg->pat_len);
	else if (bg->compress_pct)
		bufgen_fill(bg, buf, len);
	else
		rng_fill(data_rng, buf, len);
}

/* SPDX-License-Identifier: MIT */
/* bufgen: what a write carries, by fio 3.33's buffer options.
 *
 * - Default: random bytes once at job start, and scramble_buffers (on by default, as fio):
 *   each write stamps its offset and the time into every 512-byte sector (the offset at one
 *   of the sector's eight 64-byte lines, chosen per I/O, the time in the sector's last 16
 *   bytes), so no two written sectors are alike and a deduplicating array cannot fold them.
 * - zero_buffers: zeros. buffer_pattern: the pattern repeated (no scrambling, as fio).
 * - refill_buffers, buffer_compress_percentage (other than 100) and dedupe_percentage make
 *   every write's buffer new: buffer_compress_percentage=P fills each buffer_compress_chunk
 *   (0: the block) with (100-P)% random bytes then P% of the pattern (or zeros), so it
 *   compresses to about P%; dedupe_percentage=D makes D% of the buffers copies:
 *   dedupe_mode=repeat repeats the last unique buffer, working_set one of the job's first
 *   unique buffers, as many as dedupe_working_set_percentage% of its size in blocks
 *   (dedupe_global: one of a set of that size shared by every job that sets it). A buffer's content is a function of one 64-bit seed, so
 *   copies cost no memory.
 * Verify headers (fio/data/verify.h) take precedence over all of this, as in fio. */
#ifndef IOPS_BUFGEN_H
#define IOPS_BUFGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "fio/job.h"

struct bufgen {
	const unsigned char *pat;	/* buffer_pattern, NULL when unset */
	unsigned pat_len;
	unsigned compress_pct;		/* 0 = incompressible (all random) */
	uint64_t chunk;			/* 0 = the whole buffer */
	unsigned dedupe_pct;
	bool working_set;
	bool global;			/* dedupe_global */
	uint64_t ws_nr;			/* working set: buffers in it (>= 1) */
	uint64_t base;			/* unique buffer n has the seed mix(base + n) */
	uint64_t nr_unique;		/* unique buffers so far */
	struct rng rng;			/* dedupe draws */
};

/* Does job need a fresh buffer for every write (refill, compress other than 100, dedupe)? */
bool bufgen_refills(const struct job *job);
/* Does it scramble instead (scramble_buffers and none of: refill, pattern, zero, verify)? */
bool bufgen_scrambles(const struct job *job);

/* seed: the contents' (fresh each run unless allrandrepeat); the choice of copies repeats with
 * randrepeat. job_bytes: the job's size (for the working set), block: its largest block size. */
void bufgen_init(struct bufgen *bg, const struct job *job, uint64_t seed, uint64_t job_bytes,
		 uint64_t block);
/* Contents of a buffer before any write (the job's start): every request buffer once. */
void bufgen_fill_initial(struct bufgen *bg, const struct job *job, void *buf, size_t len,
			 struct rng *data_rng);
/* A fresh buffer for one write (bufgen_refills() jobs). */
void bufgen_fill(struct bufgen *bg, void *buf, size_t len);

/* scramble_buffers: offset and time into each whole 512-byte sector of buf. */
static inline void bufgen_scramble(void *buf, size_t len, uint64_t offset, uint64_t now_ns)
{
	unsigned char *p = buf;
	unsigned line = (unsigned)((now_ns ^ offset) & 7) << 6;
	uint64_t sec = now_ns / 1000000000u, nsec = now_ns % 1000000000u;

	for (size_t i = 0; i + 512 <= len; i += 512, offset += 512) {
		__builtin_memcpy(p + i + line, &offset, 8);
		__builtin_memcpy(p + i + 496, &sec, 8);
		__builtin_memcpy(p + i + 504, &nsec, 8);
	}
}

#endif

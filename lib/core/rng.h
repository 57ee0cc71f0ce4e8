/* SPDX-License-Identifier: MIT */
/* rng: a small, fast, seedable PRNG (xoshiro256**, seeded through splitmix64).
 *
 * Sequences are not fio's; reproducibility is what matters: the same seed gives the same
 * stream on every run and platform. rng_below() draws without modulo bias (Lemire's
 * multiply-and-reject), so random offsets are uniform over any block count. */
#ifndef IOPS_RNG_H
#define IOPS_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Streams of one job: each gets its own generator so that, e.g., rwmix choices do not shift
 * the offset sequence. */
enum rng_stream { RNG_OFFSET = 0, RNG_RWMIX, RNG_BS, RNG_BUF, RNG_FILE, RNG_VERIFY, RNG_NR_STREAMS };

void rng_init(struct rng *r, uint64_t seed);

/* One splitmix64 step from x: a well-scattered 64-bit value for each x (what seeds the
 * generator; also a stateless hash of an index). */
static inline uint64_t rng_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n); 0 when n == 0. Unbiased. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t lo;

	if (n == 0)
		return 0;
	m = (unsigned __int128)rng_next(r) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		uint64_t threshold = (0 - n) % n;

		while (lo < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* True with probability pct/100 (pct 0..100). */
static inline bool rng_percent(struct rng *r, unsigned pct)
{
	if (pct >= 100)
		return true;
	if (pct == 0)
		return false;
	return rng_below(r, 100) < pct;
}

/* Fill buf with random bytes. */
void rng_fill(struct rng *r, void *buf, size_t len);

/* The seed of one stream of one job (fio's rules for randseed and randrepeat):
 * repeatable (randrepeat for the offset stream, allrandrepeat for every stream, or an explicit
 * randseed) → derived from randseed and thread_number, so clones differ and runs repeat;
 * otherwise from the kernel's entropy source. */
uint64_t rng_job_seed(uint64_t randseed, bool repeatable, unsigned thread_number, enum rng_stream stream);

#endif

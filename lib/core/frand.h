/* SPDX-License-Identifier: MIT */
/* frand: fio 3.33's random number generators, so that a job draws the same numbers as fio.
 *
 * Two combined Tausworthe generators (L'Ecuyer): the 32-bit "taus88" (three components)
 * and a 64-bit one with five components ("taus258"), chosen per stream. Seeding follows
 * fio: a linear congruential step (69069, or 6906969069 for 64 bits) XOR the seed fills the
 * components, each raised to its minimum when below it, then six draws are thrown away.
 * The mappings mirror fio's: a draw scaled to [0, n) as n * (r / (max + 1.0)) in double
 * precision (frand_scale), and fio's rand_between() for inclusive ranges. */
#ifndef IOPS_FRAND_H
#define IOPS_FRAND_H

#include <stdbool.h>
#include <stdint.h>

struct frand {
	bool use64;
	uint32_t s32[3];
	uint64_t s64[5];
};

void frand_init(struct frand *f, uint64_t seed, bool use64);

static inline uint32_t frand_taus32_step(uint32_t s, unsigned a, unsigned b, uint32_t c, unsigned d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

static inline uint32_t frand_next32(struct frand *f)
{
	f->s32[0] = frand_taus32_step(f->s32[0], 13, 19, 0xfffffffeu, 12);
	f->s32[1] = frand_taus32_step(f->s32[1], 2, 25, 0xfffffff8u, 4);
	f->s32[2] = frand_taus32_step(f->s32[2], 3, 11, 0xfffffff0u, 17);
	return f->s32[0] ^ f->s32[1] ^ f->s32[2];
}

static inline uint64_t frand_taus64_step(uint64_t s, unsigned a, unsigned b, uint64_t c, unsigned d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

static inline uint64_t frand_next64(struct frand *f)
{
	uint64_t *s = f->s64;

	s[0] = frand_taus64_step(s[0], 1, 53, 0xfffffffffffffffeull, 10);
	s[1] = frand_taus64_step(s[1], 24, 50, 0xfffffffffffffe00ull, 5);
	s[2] = frand_taus64_step(s[2], 3, 23, 0xfffffffffffff000ull, 29);
	s[3] = frand_taus64_step(s[3], 5, 24, 0xfffffffffffe0000ull, 23);
	s[4] = frand_taus64_step(s[4], 3, 33, 0xffffffffff800000ull, 8);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

/* One raw draw: 32 bits (in a uint64_t) or 64 bits. */
static inline uint64_t frand_next(struct frand *f)
{
	return f->use64 ? frand_next64(f) : frand_next32(f);
}

/* The largest raw draw, as a double plus one (2^32 or 2^64). */
static inline double frand_range(const struct frand *f)
{
	return f->use64 ? 18446744073709551616.0 : 4294967296.0;
}

static inline uint64_t frand_max(const struct frand *f)
{
	return f->use64 ? UINT64_MAX : UINT32_MAX;
}

/* r / (max + 1.0) as fio computes it; the division by a power of two is an exact product,
 * and the conversions go through signed integers (exact: r < 2^63 is checked for 64 bits). */
static inline double frand_unit(struct frand *f)
{
	if (__builtin_expect(!f->use64, 1))
		return (double)(int64_t)frand_next32(f) * 0x1p-32;
	{
		uint64_t r = frand_next64(f);

		return (r >> 63 ? (double)r : (double)(int64_t)r) * 0x1p-64;
	}
}

/* n * (r / (max + 1.0)): a block in [0, n) as fio picks it (truncated toward zero). */
static inline uint64_t frand_scale(struct frand *f, uint64_t n)
{
	double dn = n >> 63 ? (double)n : (double)(int64_t)n;
	double v = dn * frand_unit(f);
	uint64_t b = v < 9223372036854775808.0 ? (uint64_t)(int64_t)v : v < 18446744073709551616.0 ? (uint64_t)v : UINT64_MAX;

	/* a 64-bit draw within 2^-54 of the top rounds to 1.0 (fio would then go one past) */
	return b < n ? b : (n ? n - 1 : 0);
}

/* fio's rand_between(): uniform in [lo, hi], both inclusive (the 32-bit generator returns
 * through an int cast, as fio's does). */
static inline uint64_t frand_between(struct frand *f, uint64_t lo, uint64_t hi)
{
	if (f->use64) {
		uint64_t r = frand_next64(f);

		return lo + (uint64_t)((double)(hi - lo + 1) * ((double)r / 18446744073709551616.0));
	} else {
		uint32_t r = frand_next32(f);
		uint32_t end = (uint32_t)(hi - lo) + 1;

		return lo + (uint64_t)(int)((double)end * ((double)r / 4294967296.0));
	}
}

#endif

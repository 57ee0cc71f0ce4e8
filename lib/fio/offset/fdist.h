/* SPDX-License-Identifier: MIT */
/* fdist: fio 3.33's non-uniform offset generators (random_distribution=zipf, pareto,
 * normal), so that a job draws the same blocks as fio.
 *
 * Each file has its own generator over nranges blocks (the file's range in units of the
 * smaller of the read and write bs), seeded from a hash of the file's name (Bob Jenkins'
 * lookup3 as fio has it: its 12-byte rounds add one byte per word) times the job's
 * thread_number; without randrepeat, from the job's random block seed. Draws come from a
 * 32-bit Tausworthe generator.
 * - zipf(theta): fio's approximation (Gray et al.'s quick zipf): zeta(n) summed over at most
 *   10M terms, a rank from the inverse, hashed by a golden-ratio multiply.
 * - pareto(h): rank (n - 1) * u^(log h / log(1 - h)), hashed.
 * - normal(dev): the mean of 12 uniform draws over 0..n, shifted by a deviation of dev% of
 *   the blocks, hashed.
 * Without a center the result is offset by the generator's first draw (normal: by nothing);
 * with one, by center x n (normal: (center - 0.5) x n, wrapping below zero as fio's does). */
#ifndef IOPS_FDIST_H
#define IOPS_FDIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/frand.h"
#include "fio/offset/dist.h"

struct fdist {
	enum dist_kind kind;	/* DIST_ZIPF, DIST_PARETO or DIST_NORMAL */
	struct frand r;
	uint64_t nranges;
	uint64_t rand_off;
	bool hashed;		/* always, as in fio (its tools can turn it off) */
	double theta, zeta2, zetan;	/* zipf */
	double alpha, eta;		/* zipf, from the above */
	double pareto_pow;		/* pareto */
	uint64_t stddev;		/* normal, in blocks */
};

/* fio's jhash() of a file name (its seed for these generators). */
uint32_t fdist_jhash(const void *key, uint32_t length, uint32_t initval);

/* The seed of file name's generator for a job: thread_number, randrepeat, and the job's
 * random block seed (FSEED_BLOCK), used when randrepeat is off. */
uint32_t fdist_seed(const char *name, unsigned thread_number, bool randrepeat, uint64_t block_seed);

/* Set up a generator of kind over nranges >= 1 blocks: param is theta, h or dev%; center < 0
 * for none. */
void fdist_init(struct fdist *z, enum dist_kind kind, uint64_t nranges, double param, double center,
		uint32_t seed);

/* The next block, in [0, nranges). */
uint64_t fdist_next(struct fdist *z);

#endif

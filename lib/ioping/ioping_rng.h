/* SPDX-License-Identifier: MIT */
/* ioping_rng: the offset/data generator of ioping 1.3, reproduced bit for bit so that
 * `-e SEED` reads the same offsets as ioping: xorshift128+ (shifts 23/17/26) whose two state
 * words are splitmix64 finalisations of SEED and SEED+golden-ratio, with three outputs
 * discarded after seeding. Not cryptographic; one generator per run, no global state. */
#ifndef IOPS_IOPING_RNG_H
#define IOPS_IOPING_RNG_H

#include <stddef.h>
#include <stdint.h>

struct ioping_rng {
	uint64_t s[2];
};

/* Seed the generator (caller allocates). A seed of 0 is a valid seed here: picking a
 * time-based seed for ioping's `-e 0` is the caller's job. */
void ioping_rng_seed(struct ioping_rng *rng, uint64_t seed);

/* Next 64-bit output. */
uint64_t ioping_rng_next(struct ioping_rng *rng);

/* Fill len bytes with random data: one output per 8-byte word, plus one output for a
 * shorter tail (so exactly ceil(len/8) outputs are consumed). */
void ioping_rng_fill(struct ioping_rng *rng, void *buf, size_t len);

#endif

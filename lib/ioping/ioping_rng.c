/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_rng.h"

#include <string.h>

#define IOPING_RNG_GOLDEN	0x9e3779b97f4a7c15ull
#define IOPING_RNG_DISCARD	3

static uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ioping_rng_seed(struct ioping_rng *rng, uint64_t seed)
{
	rng->s[0] = splitmix64_mix(seed);
	rng->s[1] = splitmix64_mix(seed + IOPING_RNG_GOLDEN);
	for (int i = 0; i < IOPING_RNG_DISCARD; i++)
		(void)ioping_rng_next(rng);
}

uint64_t ioping_rng_next(struct ioping_rng *rng)
{
	uint64_t x = rng->s[0];
	uint64_t y = rng->s[1];
	uint64_t out = x + y;

	rng->s[0] = y;
	x ^= x << 23;
	rng->s[1] = x ^ y ^ (x >> 17) ^ (y >> 26);
	return out;
}

void ioping_rng_fill(struct ioping_rng *rng, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t word;

	while (len >= sizeof(word)) {
		word = ioping_rng_next(rng);
		memcpy(p, &word, sizeof(word));
		p += sizeof(word);
		len -= sizeof(word);
	}
	if (len) {
		word = ioping_rng_next(rng);
		memcpy(p, &word, len);
	}
}

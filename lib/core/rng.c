/* SPDX-License-Identifier: MIT */
/* rng: iops' own generator, seeded per job and stream (rng_init(), rng_job_seed()); rng_fill()
 * fills a buffer from it. The draws themselves are inline in rng.h. */
#include "core/rng.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>

static uint64_t rng_splitmix(uint64_t *x)
{
	uint64_t z = rng_mix64(*x);

	*x += 0x9e3779b97f4a7c15ull;
	return z;
}

void rng_init(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix(&x);
	/* splitmix64 never yields four zero words, but keep the invariant explicit. */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

uint64_t rng_job_seed(uint64_t randseed, bool repeatable, unsigned thread_number, enum rng_stream stream)
{
	uint64_t seed;

	if (repeatable) {
		uint64_t x = randseed ^ ((uint64_t)thread_number << 32) ^ (uint64_t)stream * 0x9e370001ull;

		return rng_splitmix(&x);
	}
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	/* No entropy available yet (very early boot): time and stream still give distinct seeds. */
	{
		struct timespec ts;
		uint64_t x;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ thread_number ^ ((uint64_t)stream << 48);
		return rng_splitmix(&x);
	}
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len >= 8) {
		uint64_t v = rng_next(r);

		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = rng_next(r);

		memcpy(p, &v, len);
	}
}

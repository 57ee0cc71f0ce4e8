/* rng: the buffer generator's fill, on the path of every I/O that refills its buffer (the Makefile's
 * HOT_SRCS); the seeding is in rng_seed.c. */
#include "core/rng.h"

#include <string.h>

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

/* SPDX-License-Identifier: MIT */
#include "fio/offset/fseed.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>

#define FSEED_GOLDEN 0x9e370001ull

static void fseed_entropy(uint64_t seeds[FSEED_NR], unsigned thread_number)
{
	size_t want = FSEED_NR * sizeof(seeds[0]);

	if (getrandom(seeds, want, GRND_NONBLOCK) == (ssize_t)want)
		return;
	/* no entropy yet (very early boot): the clock still gives distinct runs */
	{
		struct timespec ts;
		uint64_t x;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)thread_number << 48);
		for (unsigned i = 0; i < FSEED_NR; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			seeds[i] = x ^ (x >> 29);
		}
	}
}

void fseed_fill(uint64_t seeds[FSEED_NR], uint64_t randseed, bool randseed_set, bool randrepeat,
		bool allrandrepeat, unsigned thread_number)
{
	if (!randrepeat && !randseed_set) {
		fseed_entropy(seeds, thread_number);
	} else {
		uint64_t s = randseed;

		for (int i = 0; i < 4; i++)
			s *= FSEED_GOLDEN;
		for (unsigned i = 0; i < FSEED_NR; i++) {
			seeds[i] = s * thread_number + i;
			s *= FSEED_GOLDEN;
		}
	}
	if (allrandrepeat)
		for (unsigned i = 0; i < FSEED_NR; i++)
			seeds[i] = FSEED_FIO_RANDSEED * thread_number + i;
	if (randrepeat)
		seeds[FSEED_BLOCK] = FSEED_FIO_RANDSEED * thread_number;
}

void fseed_job(uint64_t seeds[FSEED_NR], const struct job *job)
{
	fseed_fill(seeds, job->randseed, job->randseed_set, job->randrepeat, job->allrandrepeat,
		   job->thread_number);
}

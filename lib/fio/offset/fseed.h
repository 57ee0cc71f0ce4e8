/* SPDX-License-Identifier: MIT */
/* fseed: a job's random seeds, as fio 3.33 derives them, and the generators seeded from them.
 *
 * fio keeps one seed per purpose (block sizes per direction, verify, rwmix, file choice,
 * random block, ...). Repeatable jobs (randrepeat, the default, or an explicit randseed)
 * take seed_i = s * thread_number + i where s starts as randseed multiplied four times by
 * 0x9e370001 and is multiplied once more per index; others take the kernel's entropy.
 * allrandrepeat then sets every seed to 0xb1899bed * thread_number + i, and randrepeat sets
 * the random block's seed to 0xb1899bed * thread_number (so randseed does not move fio's
 * offsets while randrepeat=1). thread_number is the job's 1-based global number (each
 * numjobs clone has its own). */
#ifndef IOPS_FSEED_H
#define IOPS_FSEED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/frand.h"
#include "fio/job.h"

enum fseed_off {
	FSEED_BS_READ = 0,
	FSEED_BS_WRITE,
	FSEED_BS_TRIM,
	FSEED_VERIFY,
	FSEED_MIX,
	FSEED_FILE,
	FSEED_BLOCK,
	FSEED_FILE_SIZE,
	FSEED_TRIM,
	FSEED_BUF,
	FSEED_SEQ_RAND_READ,
	FSEED_SEQ_RAND_WRITE,
	FSEED_SEQ_RAND_TRIM,
	FSEED_START_DELAY,
	FSEED_DEDUPE,
	FSEED_POISSON,
	FSEED_ZONE,
	FSEED_POISSON2,
	FSEED_POISSON3,
	FSEED_PRIO,
	FSEED_DEDUPE_SET,
	FSEED_NR
};

#define FSEED_FIO_RANDSEED 0xb1899bedull

/* The seeds of a job from its randseed / randrepeat / allrandrepeat and thread_number (the
 * entropy source when the job is not repeatable). */
void fseed_fill(uint64_t seeds[FSEED_NR], uint64_t randseed, bool randseed_set, bool randrepeat,
		bool allrandrepeat, unsigned thread_number);

/* The same for a job. */
void fseed_job(uint64_t seeds[FSEED_NR], const struct job *job);

/* Whether the job's offsets and block sizes use 64-bit draws (random_generator=tausworthe64). */
static inline bool fseed_use64(const struct job *job)
{
	return job->random_generator == RANDGEN_TAUSWORTHE64;
}

#endif

/* SPDX-License-Identifier: MIT */
/* rate: fio 3.33's rate control (rate, rate_iops) as pure arithmetic.
 *
 * - Limits: per data direction, a byte rate (rate=) or an I/O rate (rate_iops=, converted to
 *   bytes/s with the direction's smallest block size; rate= wins when both are given).
 * - linear: the next I/O of direction d may start once bytes_issued[d] / bps[d] seconds have
 *   passed since the rate epoch (the job's start), so a late job catches up and an early one
 *   waits. poisson: the gaps between I/Os are exponential with mean 1/iops, drawn from the
 *   job's own seeded generator.
 * - Mixed jobs: when the chosen direction is ahead of its rate and the other one is not (or
 *   is due sooner), the I/O switches direction, as fio's rate_ddir().
 * - rate_min / rate_iops_min: after a 2 s settle period, each rate_cycle compares what was
 *   done with the minimum; fio's message when it is not met.
 * - thinktime: whether a job must stop to think now (thinktime_blocks / thinktime_iotime).
 *
 * Times are nanoseconds since the rate epoch; the runner reads the clock and does the waiting. */
#ifndef IOPS_RATE_H
#define IOPS_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/job.h"
#include "core/rng.h"

#define RATE_SETTLE_NS	2000000000ull	/* fio checks minimum rates only after 2 s */

struct rate {
	uint64_t bps[2];		/* bytes/s per data direction, 0 = unlimited */
	uint64_t min_bs[2];		/* poisson: bytes per I/O */
	uint64_t issued_bytes[2];	/* since the epoch (credited think time included) */
	uint64_t next_ns[2];		/* earliest start of the next I/O */
	uint64_t poisson_ns[2];		/* poisson: sum of the drawn gaps */
	bool can_switch[2];		/* a mixed job also issues the other direction */
	bool poisson;
	struct rng rng;
};

/* True when the job limits its rate in a data direction it uses. */
bool rate_enabled(const struct job *job);

/* Set r up for job (rate_enabled() or not: then nothing is limited). seed feeds poisson. */
void rate_init(struct rate *r, const struct job *job, uint64_t seed);

/* Nanoseconds needed to move bytes at bps bytes/s (saturates at UINT64_MAX; bps 0: 0). */
uint64_t rate_ns_for_bytes(uint64_t bytes, uint64_t bps);

/* The direction the next I/O should take (d, or the other data direction of a mixed job), and
 * in *until_ns the time it may start (0: at once). */
enum ddir rate_pick(const struct rate *r, enum ddir d, uint64_t now_ns, uint64_t *until_ns);

/* An I/O of bytes in direction d was issued. */
void rate_issued(struct rate *r, enum ddir d, uint64_t bytes);

/* rate_ignore_thinktime: the job thought for idle_ns; do not catch up for that time. */
void rate_credit(struct rate *r, enum ddir d, uint64_t idle_ns);

/* Minimum rate checks (rate_min, rate_iops_min over rate_cycle). */
struct rate_min {
	uint64_t min_bps[2];
	uint64_t min_iops[2];
	uint64_t cycle_ms;
	uint64_t last_ms[2];		/* since the job start, at the last sample */
	uint64_t last_bytes[2], last_ios[2];
};

/* True when the job has a minimum rate in a direction it uses. */
bool rate_min_enabled(const struct job *job);
void rate_min_init(struct rate_min *m, const struct job *job);

/* Check direction d at since_start_ns, given the bytes and ios done so far. Returns true when
 * the minimum is not met; msg then holds fio's line (without newline). */
bool rate_min_failed(struct rate_min *m, const char *job_name, enum ddir d, uint64_t since_start_ns,
		     uint64_t bytes, uint64_t ios, char *msg, size_t len);

/* thinktime: is it time to think, given the block counter (issued or completed I/Os) and the
 * counter at the last think, and the time since the last think? */
bool rate_think_due(const struct job *job, uint64_t blocks, uint64_t last_blocks, uint64_t since_think_ns);

#endif

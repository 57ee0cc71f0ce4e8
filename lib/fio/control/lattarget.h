/* SPDX-License-Identifier: MIT */
/* lattarget: latency_target's queue depth probing (fio's documented behaviour): the job starts
 * at depth 1 and, each latency_window, looks at the share of its I/Os that completed within
 * latency_target. Enough of them (latency_percentile): the depth doubles (bisects towards the
 * last depth that failed, once one has); too few, or with latency_percentile=100 any single
 * slow I/O: the depth bisects down towards the last one that passed. When a step leaves the
 * depth where it was, the statistics restart for one last window at that depth, after which
 * the job ends (latency_run=1: it never settles and keeps adjusting until its end). A slow
 * I/O at depth 1 with latency_percentile=100 fails the job, as max_latency would.
 *
 * Pure state: the runner (runner_lat.c) feeds it the clock and its count of completed I/Os
 * and carries out what each step returns (drain, park requests, reset the statistics). */
#ifndef IOPS_LATTARGET_H
#define IOPS_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/job.h"

enum lat_target_act {
	LAT_TARGET_NONE,	/* nothing changes (the window goes on) */
	LAT_TARGET_CYCLE,	/* a new window at the depth lt->qd (same or deeper) */
	LAT_TARGET_DOWN,	/* drain, then a new window at the smaller depth lt->qd */
	LAT_TARGET_FINAL,	/* drain, reset the statistics, then the last window */
	LAT_TARGET_DONE,	/* the last window passed: the job ends */
	LAT_TARGET_FATAL,	/* a slow I/O at depth 1 (percentile 100): the job fails */
};

struct lat_target {
	uint64_t target_ns, window_ns;
	double pct;			/* share (%) that must be within target_ns */
	bool keep_going;		/* latency_run */
	unsigned max_qd;		/* the job's iodepth */
	unsigned qd, low, high;		/* depth now, the deepest that passed, the shallowest that failed */
	bool final_run;			/* the statistics restarted for the last window */
	uint64_t t0_ns, ios0;		/* the window's start: time and completed I/Os */
	uint64_t failed;		/* I/Os of the window over target_ns */
	double last_rate;		/* the last window's share within the target (%) */
};

/* Start probing at depth 1 (max_qd >= 1), the first window at now with ios completed. */
void lat_target_init(struct lat_target *lt, const struct job *job, unsigned max_qd, uint64_t now, uint64_t ios);
/* A new window from now (the runner calls it after carrying out CYCLE, DOWN, FINAL). */
void lat_target_cycle(struct lat_target *lt, uint64_t now, uint64_t ios);
/* An I/O took longer than the target: NONE, DOWN (percentile 100) or FATAL (at depth 1). */
enum lat_target_act lat_target_slow(struct lat_target *lt);
/* The periodic look at the window, ios completed by now: NONE while it is not over. */
enum lat_target_act lat_target_check(struct lat_target *lt, uint64_t now, uint64_t ios);

#endif

/* SPDX-License-Identifier: MIT */
/* result: what a finished (or stopped) fio job measured. Filled by the runner, read by the
 * reports. Per-job results are never merged here: group_reporting merging lives in report.c.
 *
 * Allocate struct job_result on the heap (it embeds histograms, ~90 KiB): never on a stack. */
#ifndef IOPS_RESULT_H
#define IOPS_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "fio/ioprio.h"
#include "fio/job.h"
#include "sys/diskstats.h"
#include "core/stats.h"

#define DEPTH_MAP_NR	7	/* IO depths 1,2,4,8,16,32,>=64 and submit/complete 0,4,8,16,32,64,>=64 */
#define LAT_N_NR	10	/* nsec buckets 2..1000 */
#define LAT_U_NR	10	/* usec buckets 2..1000 */
#define LAT_M_NR	12	/* msec buckets 2..2000, >=2000 */

/* cmdprio: the latencies of one I/O priority (fio's clat_prio / lat_prio). */
struct prio_result {
	uint16_t ioprio;		/* class << 13 | level */
	struct lat_stat lat;		/* clat, or total latency with lat_percentiles (as fio) */
	struct hist hist;
};

struct ddir_result {
	uint64_t io_bytes;
	uint64_t total_ios;		/* completed ios ("issued rwts" total uses issued_ios) */
	uint64_t issued_ios;
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_us;		/* time this direction ran, ramp excluded */

	struct lat_stat slat;		/* ns; only async engines record slat */
	struct lat_stat clat;		/* ns */
	struct lat_stat lat;		/* ns */
	struct hist clat_hist;
	struct hist lat_hist;
	struct hist slat_hist;

	struct prio_result prio[IOPRIO_SLOTS];	/* cmdprio jobs only: the job's priority first */
	unsigned nr_prio;

	struct lat_stat bw_kib;		/* 500 ms window samples, KiB/s (n = samples) */
	struct lat_stat iops;		/* 500 ms window samples, ios/s */
};

/* Steady state of a job (or of its group with group_reporting), one allocation (free() it). */
struct ss_result {
	bool attained;
	bool full;			/* the window has been filled once (criterion computed) */
	double criterion;		/* slope or max deviation, in percent with pct */
	double slope, deviation;
	unsigned nr;			/* window length: samples per array */
	uint64_t *bw, *iops;		/* the window, oldest first: bytes/s and ios/s, 0 = no sample */
};

struct job_result {
	const struct job *job;
	int error;			/* errno of the first error, 0 if none */
	char verror[160];		/* fio's td->verror text, "" if none */
	/* continue_on_error / ignore_error: errors the job went on after (error: the first) */
	bool err_continued;		/* the job goes on: error is reported, the job did not fail */
	bool cont_on_err;		/* the job allows it: fio's "errors" line and fields */
	uint64_t total_err;
	int first_error;
	int pid;

	struct ddir_result ddir[DDIR_NR];
	uint64_t sync_ios;		/* fsync/fdatasync issued (4th "issued rwts" field) */
	uint64_t zone_resets;		/* zbd: write pointers reset (the write line's "zone resets") */
	struct lat_stat sync_lat;

	uint64_t usr_us, sys_us;	/* getrusage(RUSAGE_THREAD) deltas */
	uint64_t ctx, majf, minf;
	uint64_t run_ms;		/* job_runtime: ms from epoch (after ramp) to job end */
	uint64_t elapsed_s;		/* since fio start, rounded up */
	uint64_t job_start_ms;		/* ms since the epoch when its I/O began (job_start, fio 3.36) */

	uint64_t depth_map[DEPTH_MAP_NR];
	uint64_t submit_map[DEPTH_MAP_NR];
	uint64_t complete_map[DEPTH_MAP_NR];
	uint64_t nr_submit_calls;	/* denominators of submit/complete maps */
	uint64_t nr_complete_calls;
	uint64_t lat_n[LAT_N_NR], lat_u[LAT_U_NR], lat_m[LAT_M_NR];	/* clat distribution counts */
	struct hist sync_hist;		/* fsync/fdatasync latencies (ns), for "sync percentiles" */
	struct ss_result *ss;		/* steady state (malloc'd), NULL when the job has none */
	bool not_run;			/* setup failed before the job started (fio prints no block for it) */
	unsigned lat_depth;		/* latency_target: the depth it settled at, 0 = none (iodepth) */
	/* a stalled volume: the job's thread was stuck in the kernel and given up on (its I/O
	 * in flight then is not counted); the process must exit without freeing what it holds */
	unsigned abandoned_ios;
	bool abandoned;
};


#endif

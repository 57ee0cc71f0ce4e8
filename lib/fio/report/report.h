/* SPDX-License-Identifier: MIT */
/* report: the report model. Turns per-job results into fio's reporting units and run status
 * groups (numjobs, group_reporting, groups: as fio's stat.c); the formatters (out_*.c) read it, and
 * report/write.c builds it and calls them.
 *
 * A reporting unit is one job, or with group_reporting every job of one group merged
 * (latency stats by Chan's formula, bw/iops stats by fio's pure sums, counters, maps and
 * histograms summed, runtime = max, members counted for `jobs=N`). */
#ifndef IOPS_REPORT_H
#define IOPS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "fio/progress/idleprof.h"
#include "fio/job.h"
#include "fio/result.h"

struct report_unit {
	const struct job *job;		/* first member: name, description, group, pid */
	const struct job *last;		/* last member: options list, percentile settings and
					 * latency depth (fio takes these from the last job) */
	struct job_result *res;		/* merged (owned) or the job's own result */
	bool owned;
	unsigned members;		/* jobs=N */
	unsigned char client;		/* lib/merge: REPORT_CLIENT, REPORT_ALL_CLIENTS, else 0 */
	unsigned group;			/* index into report.groups */
	/* unified_rw_reporting (unified.h) */
	unsigned unified;		/* enum unified_mode of the first member */
	struct ddir_result *mixed;	/* both: the merged directions (owned), else NULL */
};

/* A unit in a client's layout (fio's client_stats): no eta / elapsed in JSON; the merged
 * All clients unit also has no latency target figures (normal and JSON) and no job options. */
enum { REPORT_CLIENT = 1, REPORT_ALL_CLIENTS = 2 };

/* One "Run status group N (all jobs):" section. Bandwidths in B/s, runtimes in ms. */
struct report_group {
	unsigned group_id;
	unsigned kb_base, unit_base, sig_figs;	/* from the group's last unit */
	unsigned nr_units;
	uint64_t io_bytes[DDIR_NR];
	uint64_t agg_bps[DDIR_NR];		/* sum(io_bytes) * 1000 / max_run */
	uint64_t min_bps[DDIR_NR], max_bps[DDIR_NR];
	uint64_t min_run_ms[DDIR_NR], max_run_ms[DDIR_NR];	/* max_run 0: no line */
	/* unified_rw_reporting (unified.h) */
	unsigned unified;			/* OR of the units' modes, as fio */
};

struct report {
	const struct fio_config *cfg;
	struct report_unit *units;
	unsigned nr_units;
	struct report_group *groups;
	unsigned nr_groups;
	const struct disk_result *disks;
	unsigned nr_disks;
	struct timespec now;		/* time of reporting (ctime in job blocks, JSON timestamps) */
	const struct idle_result *idle;	/* --idle-prof figures, NULL = none */
};

/* Normal output only: the "name: (g=0): rw=..., bs=(R) ..., ioengine=..., iodepth=N" line for
 * the first job of each numjobs set and "..." once for the second (fio's rule). */
void report_job_headers(FILE *out, const struct fio_config *cfg);

/* Build the reporting units (rep zeroed by the callee): one per job, or one per group with
 * group_reporting. res entries may be NULL (job never ran: skipped). The groups are left for
 * report_sum_groups(), so that unified_rw_reporting can transform the units in between
 * (report/write.c does the three steps). Returns 0 or -ENOMEM; on error rep holds nothing. */
int report_build_units(struct report *rep, const struct fio_config *cfg, struct job_result *const *res,
		       unsigned nr_res);
/* Sum the units into their run status groups (bandwidth, runtime ranges, aggregate rate). */
void report_sum_groups(struct report *rep);
void report_release(struct report *rep);

/* Merge src (another member of the same reporting unit) into dst. */
void report_merge_result(struct job_result *dst, const struct job_result *src);

/* Merge one direction's results into dst (fio's rules; used by unified_rw_reporting too). */
/* cmdprio: whether the per-priority latencies of d are shown (fio: two or more had I/O). */
bool report_prio_shown(const struct ddir_result *d);
void report_merge_ddir(struct ddir_result *dst, const struct ddir_result *src);

/* The labels of fio's distributions, shared by the normal and JSON reports: IO depths,
 * submit/complete depths, latency buckets (the nsec, usec and msec lines use the first ones). */
extern const char *const report_depth_labels[DEPTH_MAP_NR];
extern const char *const report_map_labels[DEPTH_MAP_NR];
extern const char *const report_lat_labels[LAT_M_NR];

/* The job's percentile list as fio uses it: fio's default 17 entries when none was given
 * (precision 2), cut at the first 0.0 entry (fio's end marker), at most JOB_MAX_PERCENTILES.
 * Returns the number of entries; *pcts and *precision are set. */
unsigned report_pct_list(const struct job *j, const double **pcts, unsigned *precision);

/* A direction's reported runtime: microseconds rounded up to ms, as fio. */
static inline uint64_t report_runtime_ms(const struct ddir_result *d)
{
	return (d->runtime_us + 999) / 1000;
}

/* count * 1000 / ms (per-second rate, truncated, overflow-safe); 0 when ms is 0. */
uint64_t report_rate(uint64_t count, uint64_t ms);

/* bw share of the group aggregate in percent (fio's per= / bw_agg): the mean truncated to an
 * integer, over agg in KiB/s (a double), capped at 100; 100 when agg <= 1024 B/s. */
double report_bw_share(double mean_kib, uint64_t agg_bps);

/* fio's stat_calc_lat(): counts as percent of total, non-zero values below 0.01 become 0.01. */
void report_calc_lat(const uint64_t *counts, unsigned nr, uint64_t total, double *pct);
/* fio's stat_calc_dist(): the same with 0.1 as the floor (IO depths, submit, complete). */
void report_calc_dist(const uint64_t *counts, unsigned nr, uint64_t total, double *pct);

/* ios of one direction as fio's total_io_u (issued; never less than completed). */
static inline uint64_t report_ios(const struct ddir_result *d)
{
	return d->issued_ios > d->total_ios ? d->issued_ios : d->total_ios;
}

/* Sum of ios of read+write+trim (fio's ddir_rw_sum(total_io_u)). */
uint64_t report_total_ios(const struct job_result *r);

/* steady state: the mean of a window (fio's integer mean of bw / iops samples). */
uint64_t report_ss_mean(const uint64_t *v, unsigned n);

/* usr/sys cpu percent of the unit's run time. */
void report_cpu(const struct job_result *r, double *usr_pct, double *sys_pct);

#endif

/* SPDX-License-Identifier: MIT */
/* merge_int: what merge.c (inputs), merge_rd.c (one job entry read back) and merge_out.c
 * (the merged report) share. Not for other folders: they use merge.h. */
#ifndef IOPS_MERGE_INT_H
#define IOPS_MERGE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/jsonr.h"
#include "fio/result.h"
#include "merge/merge.h"

#define MERGE_HIST_SYNTH	1000000000u	/* total of a histogram made from percentiles */

/* One input: its parsed document (kept: job names and options point into it). */
struct merge_input {
	struct jsonr doc;
	char *host;
	unsigned port;
	const struct jsonr_node *list;	/* "jobs" or "client_stats" */
	unsigned nr_jobs;
	unsigned members;		/* jobs they stand for (group_reporting: numjobs) */
	uint64_t ts_ms;			/* the document's timestamp */
	uint64_t first_ms, last_ms;	/* first and last completion (job_start + runtime) */
	bool started;			/* job_start was in the document */
};

struct merge {
	struct merge_input *in;
	unsigned nr_in;
	bool approx;			/* an input had percentiles without bins */
};

/* What a job entry says beyond struct job / job_result. */
struct merge_extra {
	bool approx;			/* percentiles without bins: histograms made from them */
	bool started;
	uint64_t start_ms, end_ms;	/* end: start + the longest direction's runtime */
};

/* The job entries of an input's list (client_stats' "All clients" left out), in order:
 * the i-th such node, NULL past the last. */
const struct jsonr_node *merge_entry(const struct jsonr *j, const struct jsonr_node *list, unsigned i);

/* Read entry E of document J into job (zeroed by the caller) and res (zeroed). Returns 0, or
 * -1 with err set ("job 'x': bad read/clat_ns/N" ...). job->opts is malloc'd (free it); its
 * strings point into J. */
int merge_rd_job(const struct jsonr *j, const struct jsonr_node *e, struct job *job,
		 struct job_result *res, struct merge_extra *x, struct iops_err *err);

/* A histogram whose percentiles at p[0..n) (ascending) are the buckets of v[0..n). */
void merge_hist_synth(struct hist *h, const double *p, const uint64_t *v, unsigned n);

/* The jobs of one input, read back (merge_input_jobs()). */
struct merge_jobs {
	struct job *job;
	struct job_result *res;		/* res[i] is job[i]'s */
	struct job_result **rp;		/* &res[i], for report_build() */
	struct merge_extra *x;
	unsigned n;
};

/* Read back the in->nr_jobs jobs of IN. 0, or -1 with err set (a bad entry, out of memory);
 * release mj in both cases. */
int merge_input_jobs(const struct merge_input *in, struct merge_jobs *mj, struct iops_err *err);
void merge_jobs_release(struct merge_jobs *mj);

#endif

/* SPDX-License-Identifier: MIT */
/* sweep_out: what `iops sweep` reads from each step's fio JSON (the group_reporting job
 * entry) and prints: the step's aggregated report in fio's words, and the final table, CSV
 * or JSON document (one row per step). */
#ifndef IOPS_SWEEP_OUT_H
#define IOPS_SWEEP_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/jsonr.h"
#include "suite/sweep_conf.h"

#define SWEEP_ROW_WL	5

struct sweep_row {
	char rw[SWEEP_WORD_MAX], bs[SWEEP_WORD_MAX];
	unsigned sample;
	bool stopped;		/* the step was cut short by a stop */
	int error;		/* fio's "error" of the job */
	double iops;		/* read + write */
	double bw_bytes;	/* read + write, bytes/s */
	double lat_mean_ns;	/* total latency, mean over both directions (weighted by I/O count) */
	double clat_p99_ns;	/* completion latency p99, the larger of the two directions */
	uint64_t io_bytes;
	/* for iops compare (JSON only): */
	double clat_p50_ns, clat_p999_ns;	/* the larger of the two directions, as p99 */
	uint64_t total_ios;			/* read + write */
	double lat_stddev_ns;			/* total latency, both directions pooled */
	/* the per-window samples (fio's iops_* and bw_*: numjobs' pure sums): of both directions
	 * together, windows = the fewer, means added, variances added */
	double iops_samples, iops_mean, iops_stddev, bw_samples, bw_mean, bw_dev;
	char wl[SWEEP_ROW_WL][SWEEP_WORD_MAX];	/* ioengine, iodepth, numjobs, size, direct as passed */
	/* a sweep across servers (--client): the figures are All clients', summed over these
	 * servers; the failed ones ran the step and were left out, or were gone already */
	unsigned servers, servers_failed;
};

extern const char *const sweep_row_wl_keys[SWEEP_ROW_WL];

/* Fill r's numbers from a step's fio JSON (jobs/0; a client run's: the last client_stats entry,
 * All clients). 0, or -EINVAL if it has no job entry. */
int sweep_row_from_json(struct sweep_row *r, const struct jsonr *j);

/* The step's report: "All jobs: ..." and per direction with I/O the IOPS/BW, latency and
 * percentile lines. */
void sweep_report(FILE *out, const struct jsonr *j, unsigned numjobs);

void sweep_table(FILE *out, const struct sweep_row *rows, unsigned n);
void sweep_csv(FILE *out, const struct sweep_row *rows, unsigned n);
int sweep_json(FILE *out, const struct sweep_row *rows, unsigned n);
/* The steps as OpenMetrics (docs/metrics.md): fio mode's family names, one series per step
 * (labels host, step = fio_<bs>_<rw>_sample<N>, rw, bs, sample; both directions together);
 * a step cut short by a stop is left out. host NULL: no host label. 0 or -errno. */
int sweep_openmetrics(FILE *out, const struct sweep_row *rows, unsigned n, const char *host);

/* A step's lines in the log: the banner ("*********Prefill**************", or
 * "*********Fio_Job**************" and seed 004's header line with the date tm), then the
 * step's command, argv quoted as sh reads it back. Flushes out. */
void sweep_print_step(FILE *out, const struct sweep_conf *c, const struct sweep_step *st, const struct tm *tm,
		      char *const *argv, int argc);

#endif

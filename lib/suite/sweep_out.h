/* sweep_out: what `iops sweep` reads from each step's fio JSON (the group_reporting job
 * entry) and prints: the step's aggregated report in fio's words, and the final table, CSV
 * or JSON document (one row per step). */
#ifndef IOPS_SWEEP_OUT_H
#define IOPS_SWEEP_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/jsonr.h"
#include "suite/sweep_conf.h"

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
	/* a sweep across servers (--client): the figures are All clients', summed over these
	 * servers; the failed ones ran the step and were left out, or were gone already */
	unsigned servers, servers_failed;
};

/* Fill r's numbers from a step's fio JSON (jobs/0; a client run's: the last client_stats entry,
 * All clients). 0, or -EINVAL if it has no job entry. */
int sweep_row_from_json(struct sweep_row *r, const struct jsonr *j);

/* The step's report: "All jobs: ..." and per direction with I/O the IOPS/BW, latency and
 * percentile lines. */
void sweep_report(FILE *out, const struct jsonr *j, unsigned numjobs);

void sweep_table(FILE *out, const struct sweep_row *rows, unsigned n);
void sweep_csv(FILE *out, const struct sweep_row *rows, unsigned n);
int sweep_json(FILE *out, const struct sweep_row *rows, unsigned n);

#endif

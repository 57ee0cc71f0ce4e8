/* SPDX-License-Identifier: MIT */
/* plot_rd_suite: the results of the modes built on fio steps, read back for plotting:
 * - a sweep (`iops sweep --output-format=json`): {"steps": [{rw, bs, sample, iops, bw_bytes,
 *   lat_mean_us, clat_p99_us, ...}]}, one row per step and sample;
 * - a suite run (`iops suite`'s output, fs-performance's words): the echoed configuration,
 *   then per iteration and benchmark the figures "Max write bandwidth: 352 MiB/s", "Create
 *   rate: 7255 files/s", ... Each figure keeps its value of every iteration. */
#ifndef IOPS_PLOT_RD_SUITE_H
#define IOPS_PLOT_RD_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/jsonr.h"
#include "plot/plot_num.h"

struct plot_step {
	const char *rw, *bs;
	double sample, iops, bw_bytes, lat_mean_us, clat_p99_us, error, stopped;
};

struct plot_sweep {
	struct jsonr doc;
	struct plot_step *step;
	unsigned nr_steps;
};

/* Is this parsed document a sweep's result? */
bool plot_rd_sweep_is(const struct jsonr *j);
/* Reads *doc (moved into s whatever the outcome). 0, or -EINVAL / -ENOMEM with err set. */
int plot_rd_sweep(struct plot_sweep *s, struct jsonr *doc, const char *name, struct iops_err *err);
void plot_rd_sweep_free(struct plot_sweep *s);

struct plot_suite_fig {
	char name[64];			/* "Max write bandwidth" */
	const char *bench;		/* "fio", "meta": the benchmark it came from */
	const struct plot_unit *unit;
	size_t nr, cap;
	double *v;			/* one per iteration that printed it */
	unsigned *iter;
};

struct plot_suite {
	char *text;			/* a copy: the configuration lines point into it */
	const char **conf;		/* "List of benchmarks to run: fio meta (BENCHMARKS)" */
	unsigned nr_conf;
	unsigned iterations;		/* as the run said ("Iteration: 2 of 3"), 1 without */
	struct plot_suite_fig *fig;
	unsigned nr_figs;
};

/* Does text start as a suite run's output ("Configuration:")? */
bool plot_rd_suite_is(const char *text, size_t len);
int plot_rd_suite(struct plot_suite *s, const char *name, const char *text, size_t len, struct iops_err *err);
void plot_rd_suite_free(struct plot_suite *s);

#endif

/* SPDX-License-Identifier: MIT */
/* plot_rd_fio: a fio JSON or json+ result read back for plotting: iops' or the real fio's
 * `jobs`, a client run's or `iops merge`'s `client_stats` (each server's entries with hostname
 * and port, then All clients), and `iops quick --output-format=json` (its steps' job entries
 * under `jobs`, with the plan and the summary). Only what the charts and the header card use
 * is kept; strings point into the parsed document, which the result owns. */
#ifndef IOPS_PLOT_RD_FIO_H
#define IOPS_PLOT_RD_FIO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/jsonr.h"

#define PLOT_DIRS	4	/* read, write, trim, mixed (unified_rw_reporting) */
#define PLOT_PCTS_MAX	64	/* fio lists 20 at most */

enum plot_lat_kind { PLOT_SLAT, PLOT_CLAT, PLOT_LAT, PLOT_LAT_KINDS };

extern const char *const plot_dir_names[PLOT_DIRS];
extern const char *const plot_lat_names[PLOT_LAT_KINDS];	/* "slat", "clat", "lat" */

struct plot_lat {
	double n, min, max, mean, stddev;	/* ns */
	unsigned nr_pct;
	double pct[PLOT_PCTS_MAX];		/* ascending */
	double pct_v[PLOT_PCTS_MAX];		/* ns */
	const char *pct_key[PLOT_PCTS_MAX];	/* as the JSON writes it: "99.000000" */
	size_t nr_bins;				/* json+ */
	double *bin_v, *bin_n;			/* ascending by value (ns), counts */
	double bins_total;
};

struct plot_dir {
	bool present;			/* it did I/O */
	double iops, bw_bytes, io_bytes, runtime_ms, total_ios;
	double bw_min, bw_max, bw_mean, bw_samples;	/* KiB/s, of the samples */
	double iops_min, iops_max, iops_mean, iops_samples;
	struct plot_lat lat[PLOT_LAT_KINDS];
};

struct plot_job {
	const char *name;		/* jobname */
	const char *host;		/* client_stats: hostname, NULL elsewhere */
	double port;
	bool all_clients;		/* the aggregate of a client run or a merge */
	double error;
	const struct jsonr_node *opts;	/* "job options", NULL if none */
	struct plot_dir dir[PLOT_DIRS];
};

enum plot_fio_kind { PLOT_FIO_JOBS, PLOT_FIO_CLIENTS, PLOT_FIO_QUICK };

struct plot_fio {
	struct jsonr doc;
	enum plot_fio_kind kind;
	const char *version;		/* "fio version" (or "iops version" of quick) */
	const char *time;		/* the result's date, as written */
	const struct jsonr_node *global;	/* "global options" */
	struct plot_job *job;
	unsigned nr_jobs;
};

/* Is this parsed document a fio result (jobs or client_stats) or a quick result? */
bool plot_rd_fio_is(const struct jsonr *j);

/* Reads the document *doc (moved into f, whatever the outcome: f owns it, or it is freed).
 * name labels the errors. 0, or -EINVAL / -ENOMEM with err set ("NAME: ..."). */
int plot_rd_fio(struct plot_fio *f, struct jsonr *doc, const char *name, struct iops_err *err);
void plot_rd_fio_free(struct plot_fio *f);

/* The percentile whose key is p (99 finds "99.000000"), or -1. */
int plot_rd_fio_pct(const struct plot_lat *l, double p);

#endif

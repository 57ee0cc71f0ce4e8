/* SPDX-License-Identifier: MIT */
/* quick: the quick suite's plan (iops quick, and iops with no arguments). Six fio steps on one
 * shared test file: sequential read and write 1 MiB QD16 (bandwidth), random read and write
 * 4 KiB QD1 (latency), random read and write 4 KiB QD32 with numjobs = min(4, CPUs) (IOPS).
 * The first step, a read, makes fio lay the file out; every step is a plain fio command line.
 *
 * Options, plan, command lines and the summary are here; cmd/quick.c runs the steps. */
#ifndef IOPS_QUICK_H
#define IOPS_QUICK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/report/report.h"
#include "suite/suite.h"

#define QUICK_STEPS		6
#define QUICK_DEF_SIZE		(1ull << 30)
#define QUICK_DEF_RUNTIME	10		/* seconds per step */
#define QUICK_MAX_RUNTIME	86400
#define QUICK_SHARE		10		/* the file stays within 1/10 of the free space */
#define QUICK_MAX_JOBS		4

struct quick_opts {
	const char *dir;		/* "." by default */
	uint64_t runtime_s;
	uint64_t size;			/* bytes wanted */
	bool size_set;			/* --size given: a smaller floor than SUITE_MIN_FILE */
	bool normal, json, openmetrics;	/* --output-format's list (in this order on the output) */
	bool json_plus;			/* json+: the jobs' entries with their histogram bins */
	char output[4096];		/* --output=FILE: the document(s) there, not on stdout; "" none */
	bool help;
};

/* argv[0] is the mode name. env (NULL: none) holds options taken before argv's, separated by
 * blanks: the IOPS_QUICK environment variable, so that a plain `iops` can be shortened. 0
 * (o->help set for -h/--help), or -EINVAL with err set. */
int quick_opts_parse(int argc, char **argv, const char *env, struct quick_opts *o, struct iops_err *err);
void quick_usage(FILE *out);

enum quick_kind { QUICK_BW, QUICK_LAT, QUICK_IOPS };

struct quick_step {
	const char *name;	/* fio job name */
	const char *rw, *bs;
	unsigned depth;
	bool multi;		/* numjobs = plan's numjobs, group_reporting */
	int ddir;
	enum quick_kind kind;
};
extern const struct quick_step quick_steps[QUICK_STEPS];

struct quick_plan {
	const char *dir;
	char file[64];		/* iops-quick.<pid>.<n>, inside dir */
	uint64_t size;
	uint64_t runtime_s;
	unsigned numjobs;	/* QD32 steps */
	bool direct;
	bool psync;		/* libaio cannot run here: psync, the depth as numjobs */
};

/* numjobs of the QD32 steps for a machine with cpus CPUs: min(4, cpus), at least 1. */
unsigned quick_numjobs(long cpus);

/* Step k's queue depth and job count as run: the step's, or with psync 1 and
 * suite_psync_jobs() of them. */
void quick_step_shape(const struct quick_plan *p, unsigned k, unsigned *depth, unsigned *jobs);

/* Step k's fio command line. run: the line iops itself runs, which adds allow_overwrite=1
 * after the first step (the file is the suite's own, laid out by step 1, also on file systems
 * that cannot keep iops' mark; real fio has no such check). 0 or -E2BIG. */
int quick_step_argv(struct suite_argv *a, const struct quick_plan *p, unsigned k, bool run);

/* The six seed lines ("Max write bandwidth: 146 MiB/s" ...) for the steps measured. */
void quick_summary_print(FILE *out, const struct suite_figures *f);
/* The table of every step measured: IOPS, MiB/s, mean and percentiles. */
void quick_table_print(FILE *out, const struct quick_plan *p, const struct suite_figures *f);
/* The one line of a finished step: "[1/6] seqread: 475.3 MiB/s, 475 IOPS, lat 33.671 ms". */
void quick_step_line(FILE *out, unsigned k, const struct suite_figures *f);

/* The JSON document: plan, summary, and each step measured with its command and its fio job
 * entry (rep[k] NULL: step k did not run). 0 or -errno. */
int quick_json_print(FILE *out, const struct quick_plan *p, const struct suite_figures *f,
		     const struct report *const *rep, const struct suite_argv *cmd, bool plus);
/* The OpenMetrics exposition of the steps measured (fio mode's families, label step = the
 * step's name; host: NULL for none). 0 or -errno. */
int quick_openmetrics_print(FILE *out, const struct report *const *rep, const char *host);

#endif

/* SPDX-License-Identifier: MIT */
/* compare: `iops compare A B [C...]`, results of the same workloads side by side. Inputs are
 * fio JSON / json+ (iops' or the real fio's), fio client_stats (iops merge, fio --client),
 * and iops quick / sweep JSON documents; an input holding several documents one after the
 * other holds repeated runs. Jobs (or sweep steps) are matched by name; inputs that do not
 * describe the same workload are refused, naming what differs. Per job and direction: IOPS,
 * bandwidth, mean, p50, p99 and p99.9 latency, the change against the first input (the
 * baseline), and a verdict per figure (better, worse, within noise) whose threshold comes
 * from the runs' own data (docs/compare.md: repeats, per-window samples, order statistics,
 * the stated bands). */
#ifndef IOPS_COMPARE_H
#define IOPS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/err.h"

#define COMPARE_MAX_INPUTS	16

enum compare_fig { COMPARE_IOPS, COMPARE_BW, COMPARE_MEAN, COMPARE_P50, COMPARE_P99, COMPARE_P999, COMPARE_NR };
/* "iops", "bw", "mean", "p50", "p99", "p99.9": the names --fail-on and --band take */
extern const char *const compare_fig_names[COMPARE_NR];

struct compare_opts {
	double conf;			/* confidence of the tests, 0.5 to 0.9999 (0.99) */
	double floor_pct;		/* no change under this is called, whatever the data (1) */
	double band_pct[COMPARE_NR];	/* single runs: the run-to-run allowance of each figure */
	double fail_on_pct[COMPARE_NR];	/* --fail-on: worse beyond noise by more than this; < 0: off */
};

/* The defaults: 99% confidence, floor 1%, bands iops 2% bw 2% mean 5% p50 5% p99 10%
 * p99.9 20%, no --fail-on. */
void compare_opts_init(struct compare_opts *o);

/* A list of limits, "10%" (every figure) or "iops:5%,p99:20%" (those only; the others keep
 * their value in pct[]). '%' is optional; 0 to 1000. 0, or -EINVAL with err naming the part. */
int compare_limits_parse(const char *s, double pct[COMPARE_NR], const char *what, struct iops_err *err);

struct compare;

struct compare *compare_new(const struct compare_opts *o);
void compare_free(struct compare *c);

/* One input: its name (a path, "stdin") and whole text, which holds one or more documents
 * (each a '{' starting a line to its matching '}'; lines around them are skipped). 0, or -1
 * with err set ("NAME: no JSON document in it", "NAME: not a JSON document ..."). */
int compare_add(struct compare *c, const char *name, const char *text, size_t len, struct iops_err *err);

/* After the inputs: match the jobs or steps by name, refuse workloads that differ, judge every
 * figure. Names found in some inputs only are listed on notes (one line each). 0, or -1 with
 * err set (fewer than two inputs, no job in common, a workload that differs). */
int compare_run(struct compare *c, FILE *notes, struct iops_err *err);

enum compare_fmt { COMPARE_OUT_NORMAL, COMPARE_OUT_JSON };
/* The report. 0, or -errno (write error). */
int compare_write(const struct compare *c, FILE *out, enum compare_fmt fmt);

/* Figures worse beyond noise by more than their --fail-on limit (0: none, or no --fail-on). */
unsigned compare_failures(const struct compare *c);

#endif

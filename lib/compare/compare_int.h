/* SPDX-License-Identifier: MIT */
/* compare_int: what the parts of lib/compare share (compare.c: inputs and matching,
 * compare_rd.c: documents read into entries, compare_wl.c: workloads, compare_judge.c: the
 * verdicts, compare_out.c: the reports). Other folders use compare.h. */
#ifndef IOPS_COMPARE_INT_H
#define IOPS_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"
#include "core/err.h"

#define COMPARE_NAME_MAX	300	/* the longest job name read (fio's: 256) */
#define COMPARE_KEY_MAX		320	/* a job name and " #k", or "rw bs" */
#define COMPARE_HOST_MAX	256	/* a host name (253 at most) */
#define COMPARE_WL_MAX		64	/* one workload value as written, NUL included */

/* The directions an entry reports: fio's three, unified_rw_reporting's "mixed", and a sweep
 * step's both-directions-together "all". */
enum compare_dir_id { COMPARE_READ, COMPARE_WRITE, COMPARE_TRIM, COMPARE_MIXED, COMPARE_ALL, COMPARE_DIRS };
extern const char *const compare_dir_names[COMPARE_DIRS];

/* What one direction of one job (or step) of one run measured, and its own noise. */
struct compare_dir {
	bool present;			/* the direction did I/O */
	bool has[COMPARE_NR];
	double val[COMPARE_NR];		/* IOPS, bytes/s, ns */
	/* Within the run: the relative standard error of the IOPS and bandwidth means from the
	 * per-window samples (< 0: none, fewer than two windows) and its degrees of freedom. */
	double win_rse[2], win_df[2];
	double lat_se;			/* stddev / sqrt(N) of the mean latency (ns); < 0: unknown */
	double pct_half[3];		/* half-widths (ns) of the intervals of p50, p99, p99.9; < 0: none */
	bool pct_exact;			/* the intervals come from json+ bins (else the percentile list) */
	char pct_kind[8];		/* "lat" or "clat": which latency the percentiles are of */
};

/* A workload: the options that make two runs the same job (rw, bs, iodepth, numjobs, size,
 * ioengine, direct, group_reporting), as written and normalised (sizes in bytes, aliases
 * resolved, fio's defaults where the document has no value). */
enum compare_wl_field {
	COMPARE_WL_RW, COMPARE_WL_BS, COMPARE_WL_IODEPTH, COMPARE_WL_NUMJOBS, COMPARE_WL_SIZE,
	COMPARE_WL_ENGINE, COMPARE_WL_DIRECT, COMPARE_WL_GROUP, COMPARE_WL_NR
};
extern const char *const compare_wl_names[COMPARE_WL_NR];

struct compare_wl {
	char raw[COMPARE_WL_NR][COMPARE_WL_MAX];
	char norm[COMPARE_WL_NR][COMPARE_WL_MAX];
	bool known[COMPARE_WL_NR];	/* the document says (a sweep's older JSON does not) */
};

/* fio's defaults for every field (rw=read bs=4k iodepth=1 numjobs=1 ioengine=psync direct=0,
 * no size, group_reporting off), all known. */
void compare_wl_init(struct compare_wl *wl);
/* Set a field from fio's option KEY (rw, readwrite, bs, blocksize, iodepth, numjobs, size,
 * ioengine, direct, buffered, group_reporting) and its value; other keys are ignored.
 * Returns 1 when the key was one of them, 0 when not, -ENAMETOOLONG for a value of
 * COMPARE_WL_MAX characters or more (nothing set). */
int compare_wl_set(struct compare_wl *wl, const char *key, const char *value);
/* The fields known to both that differ, as "bs 4k vs 8k, iodepth 1 vs 16" into buf (size n,
 * truncated with "..."). Returns their number (0: the same workload). */
unsigned compare_wl_diff(const struct compare_wl *a, const struct compare_wl *b, char *buf, size_t n);
/* "rw=randread bs=4k iodepth=1 ..." (the known fields, as written). */
void compare_wl_line(const struct compare_wl *wl, char *buf, size_t n);

/* One job or step of one run. */
struct compare_entry {
	char key[COMPARE_KEY_MAX];	/* how it is matched: the name, "name #k" for the k-th of a
					 * name; a sweep step "rw bs" */
	char host[COMPARE_HOST_MAX];	/* client_stats: the server; "" otherwise */
	unsigned doc;			/* the input's document it came from (0-based) */
	struct compare_wl wl;
	struct compare_dir dir[COMPARE_DIRS];
};

enum compare_kind { COMPARE_K_FIO, COMPARE_K_CLIENT, COMPARE_K_QUICK, COMPARE_K_SWEEP };
extern const char *const compare_kind_names[4];

struct compare_input {
	char *name;
	enum compare_kind kind;
	unsigned nr_docs;		/* documents one after the other: repeated runs */
	unsigned max_runs;		/* the most runs of one job or step (a sweep's samples) */
	struct compare_entry *ent;
	unsigned nr_ent, cap_ent;
};

/* Read one document of an input (text[0..len), document number doc) and append its entries.
 * The first document sets in->kind; a later one of another kind is refused. Returns 0, or -1
 * with err set ("not fio's JSON, client_stats, a quick or a sweep document", "job 'x': bad
 * read/iops"). */
int compare_rd_doc(struct compare_input *in, const char *text, size_t len, unsigned doc,
		   const struct compare_opts *o, struct iops_err *err);

/* A figure judged: the runs of one side against the runs of the baseline. */
enum compare_how { COMPARE_BY_REPEATS, COMPARE_BY_WINDOWS, COMPARE_BY_LITTLE, COMPARE_BY_IID,
		   COMPARE_BY_ORDER, COMPARE_BY_BAND, COMPARE_BY_FLOOR, COMPARE_BY_NR };
extern const char *const compare_how_names[COMPARE_BY_NR];

enum compare_verdict { COMPARE_NA, COMPARE_NOISE, COMPARE_BETTER, COMPARE_WORSE };
extern const char *const compare_verdict_names[4];

struct compare_cell {
	enum compare_verdict verdict;
	double base, value;		/* the means of the runs' figures */
	double change_pct;		/* (value - base) / base, in percent */
	double thr_pct;			/* the threshold: a change within it is noise */
	double df;			/* degrees of freedom of the test (INFINITY: normal) */
	enum compare_how how;		/* what set the threshold */
	unsigned runs_base, runs;
	const char *why;		/* COMPARE_NA: the reason ("no percentiles", ...) */
};

/* Judge figure f of direction dir: the nb runs b[] (their entries) against the na runs a[].
 * Fills cell. */
void compare_judge(const struct compare_entry *const *a, unsigned na, const struct compare_entry *const *b,
		   unsigned nb, enum compare_dir_id dir, enum compare_fig f, const struct compare_opts *o,
		   struct compare_cell *cell);
/* Is a verdict of WORSE beyond the --fail-on limit of f? */
bool compare_cell_fails(const struct compare_cell *cell, enum compare_fig f, const struct compare_opts *o);

/* One matched job or step: the runs of each input. */
struct compare_row {
	const struct compare_entry *first;	/* the baseline's first run: key, host, workload */
	enum compare_dir_id dir;
	struct compare_cell cell[COMPARE_NR][COMPARE_MAX_INPUTS - 1];	/* per candidate input */
};

struct compare {
	struct compare_opts opts;
	struct compare_input in[COMPARE_MAX_INPUTS];
	unsigned nr_in;
	struct compare_row *rows;
	unsigned nr_rows;
	unsigned counts[4];		/* cells per verdict */
	unsigned failures;		/* cells beyond --fail-on */
};

/* compare_out.c: the reports (compare_write() picks one). */
int compare_out_normal(const struct compare *c, FILE *out);
int compare_out_json(const struct compare *c, FILE *out);

#endif

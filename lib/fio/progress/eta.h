/* SPDX-License-Identifier: MIT */
/* eta: fio's live status line (fio's eta.c), as pure functions.
 *
 *   Jobs: 1 (f=1): [r(1)][42.9%][r=1KiB/s][r=0 IOPS][eta 00m:04s]
 *
 * cmd/ owns the thread that samples the running jobs every eta interval and prints the line;
 * this module only computes (per-job ETA, percent) and formats, so it is unit-tested with
 * exact strings. */
#ifndef IOPS_ETA_H
#define IOPS_ETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/job.h"
#include "core/num2str.h"

#define ETA_UNKNOWN		UINT64_MAX	/* fio's INT_MAX: no bracket part at all */
#define ETA_HIDE_BELOW_S	3		/* no ETA while the run is younger (rounded up) */
#define ETA_INTERVAL_NS		1000000000ull	/* --eta-interval default */
#define ETA_INTERVAL_MIN_NS	250000000ull	/* --eta-interval minimum */

/* Run-state characters of the run string. */
#define ETA_ST_PENDING		'P'	/* not started (startdelay, waiting for a stonewall) */
#define ETA_ST_SETUP		'I'	/* setting up (buffers, files, engine) */
#define ETA_ST_RAMP		'/'
#define ETA_ST_FINISHING	'f'
#define ETA_ST_EXITED		'E'
#define ETA_ST_REAPED		'_'
#define ETA_ST_REAPED_ERR	'X'

/* The character of a job doing I/O: R/r sequential/random read, W/w write, M/m mixed,
 * D/d trim (upper case = sequential). */
char eta_run_char(const struct job *job);

/* True for a run character of a job doing I/O (not P, I, /, f, E, _, X). */
bool eta_char_running(char c);

/* One job as the status thread sees it. */
struct eta_job {
	char state;			/* run-state character (above or eta_run_char()) */
	bool time_based;
	uint64_t runtime_s;		/* runtime=, whole seconds (0 = none) */
	uint64_t ramp_s, startdelay_s;
	uint64_t bytes_total;		/* io_size x loops, 0 if unknown */
	uint64_t bytes_done;		/* since the epoch (ramp excluded) */
	uint64_t elapsed_s;		/* since the job's epoch (ramp end), rounded up */
	uint64_t ramp_elapsed_s;	/* in ramp: since the job started, rounded down */
};

/* Seconds this job still needs (fio's thread_eta()): from the runtime for time_based jobs
 * (or a runtime cap), from bytes done / total otherwise; 0 for a job that has ended. */
uint64_t eta_job_secs(const struct eta_job *j);

/* What one status line shows. */
struct eta_status {
	unsigned nr_running;		/* "Jobs: N": jobs ramping or doing I/O */
	unsigned nr_files;		/* "(f=N)": files of the jobs doing I/O */
	const char *states;		/* one run-state character per job */
	unsigned nr_jobs;
	uint64_t elapsed_s;		/* since the run started, rounded up */
	uint64_t eta_s;			/* ETA_UNKNOWN: "Jobs: N (f=N)" only */
	bool pct_unknown;		/* every running job is in ramp: "-.-%" */
	uint64_t rate_kib[DDIR_NR];	/* KiB/s since the previous line */
	uint64_t iops[DDIR_NR];
	bool pow2;			/* kb_base 1024: KiB/MiB, else kB/MB */
	enum n2s_unit unit;		/* N2S_BYTEPERSEC or N2S_BITPERSEC */

	/* rate: configured ranges of the running jobs (", 0B/s-1024KiB/s" or ", 0-150 IOPS") */
	uint64_t rate_min_bps, rate_max_bps, rate_min_iops, rate_max_iops;
	unsigned sig_figs;
};

/* Combine per-job ETAs (the largest) and apply the "first 3 seconds" rule. */
uint64_t eta_total_secs(const uint64_t *job_eta_s, unsigned nr, uint64_t run_elapsed_s);

/* "04m:02s" style: %02um:%02us with %02uh: and %02ud: prefixes when non-zero; "--" for
 * ETA_UNKNOWN. Returns the length (truncated to len - 1 if len is too small). */
size_t eta_to_str(char *buf, size_t len, uint64_t eta_s);

/* The condensed run string "r(2),W(1)". Returns the length it needed (as snprintf). */
size_t eta_run_str(char *buf, size_t len, const char *states, unsigned nr);

/* Format the whole line into buf, padded with spaces up to prev_len (the unpadded length of
 * the previous line), WITHOUT the trailing '\r'. Returns the unpadded length, the value to
 * pass as prev_len next time. buf is always terminated (long lines are cut). */
size_t eta_format(char *buf, size_t len, const struct eta_status *st, size_t prev_len);

#endif

/* SPDX-License-Identifier: MIT */
/* steadystate: fio's steady-state detection (steadystate=, ss_dur=, ss_ramp=).
 *
 * Once a second each job measures its IOPS and bandwidth since its previous check (after
 * ss_ramp); the values of one reporting unit (the job, or every job of its group with
 * group_reporting, summed) fill a window of ss_dur seconds. Each time a sample enters a full
 * window it is judged: the slope of the least-squares line through the window (x = sample
 * number), or the largest deviation from the window's mean, absolute or in percent of the
 * mean, must be below the limit. When it is, every job of the unit ends (fio's "attained").
 *
 * The criteria are pure functions (ss_parse, ss_evaluate); the shared state of a unit
 * (struct ss_unit) is touched by its jobs' threads once a second, under its lock. */
#ifndef IOPS_STEADYSTATE_H
#define IOPS_STEADYSTATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/job.h"
#include "fio/result.h"

#define SS_CHECK_NS	1000000000ull	/* fio 3.33 checks once a second */
#define SS_MAX_WINDOW	86400u		/* longest ss_dur, in checks (a day) */

/* ss_parse() results: 0, or one of these (the applier words fio's message). */
enum ss_parse_err {
	SS_E_CRITERION = 1,	/* not iops, iops_slope, bw, bw_slope */
	SS_E_NO_LIMIT,		/* "iops" without ":limit" */
	SS_E_IOPS_LIMIT,	/* the IOPS number */
	SS_E_BW_LIMIT,		/* the bandwidth size */
	SS_E_PCT_LIMIT,		/* the percentage */
};

/* "iops:10", "iops_slope:0.1%", "bw:1m", "bw_slope:.5%" into ss (iops, slope, pct, limit; dur
 * and ramp untouched). kb_base applies to bandwidth sizes. Returns 0 or an enum ss_parse_err
 * (ss untouched then). */
int ss_parse(const char *val, unsigned kb_base, struct job_ss *ss);

/* fio's debug line for a parsed criterion ("set steady state IOPS threshold to 10.000000",
 * "... BW threshold to 12", "set steady state threshold to 0.100000%"). */
void ss_parse_debug_line(const struct job_ss *ss, char *buf, size_t n);

struct ss_eval {
	double criterion, slope, deviation, mean;
	bool attained;
};

/* Judge a full window of n samples (oldest first) by ss's rule. */
void ss_evaluate(const struct job_ss *ss, const uint64_t *bw, const uint64_t *iops, unsigned n,
		 struct ss_eval *out);

/* Window length in checks: ss_dur in whole seconds (at least 1). */
unsigned ss_window(const struct job_ss *ss);

/* ---- a reporting unit's shared state ---- */

struct ss_unit {
	pthread_mutex_t lock;
	const struct job_ss *cfg;	/* the unit's first job's */
	unsigned nr_members;
	bool *active, *fresh;		/* per member: past its ramp and running; has a new value */
	uint64_t *last_bw, *last_iops;	/* per member: its latest value */
	unsigned nr;			/* window length */
	uint64_t *bw, *iops;		/* ring of nr samples */
	unsigned head, count;		/* oldest sample, samples held */
	uint64_t *scratch;		/* 2 x nr: the window in order, for judging */
	struct ss_eval eval;		/* the latest judgement */
	bool full;
	atomic_bool attained;
};

/* One job's side (embedded in the runner's worker; u == NULL: the job has no steady state). */
struct ss_member {
	struct ss_unit *u;
	unsigned idx;
	bool ramp_over;
	uint64_t start_ns, next_ns, prev_ns, prev_bytes, prev_ios;
};

int ss_unit_init(struct ss_unit *u, const struct job_ss *cfg, unsigned nr_members);	/* 0, -ENOMEM */
void ss_unit_release(struct ss_unit *u);
/* The unit's outcome, for job_result.ss (one malloc'd block). NULL on ENOMEM. */
struct ss_result *ss_unit_result(struct ss_unit *u);

static inline bool ss_unit_attained(struct ss_unit *u)
{
	return atomic_load_explicit(&u->attained, memory_order_relaxed);
}

/* The job starts doing I/O at now. */
void ss_member_start(struct ss_member *m, struct ss_unit *u, unsigned idx, uint64_t now);
/* A check is due (now >= m->next_ns): bytes and ios are the job's totals since its start (or
 * since ss_member_reset). */
void ss_member_tick(struct ss_member *m, uint64_t now, uint64_t bytes, uint64_t ios);
/* The job's counters restarted from zero at now (ramp_time ended). */
void ss_member_reset(struct ss_member *m, uint64_t now);
/* The job has stopped doing I/O. */
void ss_member_exit(struct ss_member *m);

#endif

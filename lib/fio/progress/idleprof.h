/* SPDX-License-Identifier: MIT */
/* idleprof: fio's --idle-prof (CPU idleness profiling).
 *
 * One thread per CPU, pinned to it: it first times a fixed unit of work (calibration, at
 * normal priority), then drops to SCHED_IDLE and repeats the unit until the run ends, so it
 * only gets the CPU time nothing else wants. Idleness of a CPU = units done x unit time /
 * elapsed time. "system" is the mean over the CPUs; "percpu" also lists each one. */
#ifndef IOPS_IDLEPROF_H
#define IOPS_IDLEPROF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum idle_mode { IDLE_OFF = 0, IDLE_SYSTEM = 1, IDLE_PERCPU = 2, IDLE_CALIBRATE_ONLY = 3 };

#define IDLE_MAX_CPUS	1024

/* "system", "percpu", "calibrate" -> enum idle_mode; -EINVAL otherwise. */
int idleprof_parse(const char *val);

struct idle_result {
	unsigned mode;			/* IDLE_SYSTEM or IDLE_PERCPU */
	unsigned nr_cpus;
	double system;			/* percent */
	double percpu[IDLE_MAX_CPUS];	/* percent */
	double unit_mean, unit_stddev;	/* us */
};

struct idle_cpu {
	struct idleprof *ip;
	pthread_t tid;
	bool started;
	unsigned cpu;
	double unit_us;			/* this CPU's calibrated unit */
	double sd_us;
	_Atomic uint64_t loops;
	uint64_t t0_ns, t1_ns;
};

struct idleprof {
	unsigned mode;
	unsigned nr_cpus;
	struct idle_cpu *cpus;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned calibrated;		/* threads done calibrating */
	atomic_int phase;		/* 0 calibrate, 1 measure, 2 stop */
};

/* Start the threads and wait for their calibration: 0 or -errno. */
int idleprof_start(struct idleprof *ip, unsigned mode);
/* The measured part begins now (the jobs start). */
void idleprof_begin(struct idleprof *ip);
/* Stop and join the threads; fill r (may be NULL). */
void idleprof_stop(struct idleprof *ip, struct idle_result *r);

/* --idle-prof=calibrate: calibrate, print fio's lines, return the exit status. */
int idleprof_calibrate_print(FILE *out);

/* fio's normal-output lines ("CPU idleness:", "  system: 49.33%", ...). */
void idleprof_print_normal(FILE *out, const struct idle_result *r);

#endif

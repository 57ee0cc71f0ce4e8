/* SPDX-License-Identifier: MIT */
/* idleprof: CPU idleness profiling (fio/progress/idleprof.h). */
#include "fio/progress/idleprof.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"

#define IDLE_UNIT_ITERS		2048u	/* one unit of work */
#define IDLE_CALIB_UNITS	64u	/* units timed for the calibration */

int idleprof_parse(const char *val)
{
	if (!val)
		return -EINVAL;
	if (!strcmp(val, "system"))
		return IDLE_SYSTEM;
	if (!strcmp(val, "percpu"))
		return IDLE_PERCPU;
	if (!strcmp(val, "calibrate"))
		return IDLE_CALIBRATE_ONLY;
	return -EINVAL;
}

/* A fixed amount of integer work the compiler cannot drop. */
static void idle_unit(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned i = 0; i < IDLE_UNIT_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	__asm__ volatile("" : : "r"(x));	/* the result is "used": the loop stays */
}

static void idle_calibrate(struct idle_cpu *c)
{
	double sum = 0, sq = 0;

	idle_unit();	/* warm up */
	for (unsigned i = 0; i < IDLE_CALIB_UNITS; i++) {
		uint64_t t0 = clock_now_ns();
		double us;

		idle_unit();
		us = (double)(clock_now_ns() - t0) / 1000.0;
		sum += us;
		sq += us * us;
	}
	c->unit_us = sum / IDLE_CALIB_UNITS;
	c->sd_us = sq / IDLE_CALIB_UNITS - c->unit_us * c->unit_us;
	c->sd_us = c->sd_us > 0 ? sqrt(c->sd_us) : 0;
}

static void *idle_main(void *arg)
{
	struct idle_cpu *c = arg;
	struct idleprof *ip = c->ip;
	struct sched_param sp = { 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);	/* best effort: the run goes on */
	idle_calibrate(c);
	(void)sched_setscheduler(0, SCHED_IDLE, &sp);
	pthread_mutex_lock(&ip->lock);
	ip->calibrated++;
	pthread_cond_broadcast(&ip->cond);
	while (atomic_load(&ip->phase) == 0)
		pthread_cond_wait(&ip->cond, &ip->lock);
	pthread_mutex_unlock(&ip->lock);
	c->t0_ns = clock_now_ns();
	while (atomic_load_explicit(&ip->phase, memory_order_relaxed) == 1) {
		idle_unit();
		atomic_fetch_add_explicit(&c->loops, 1, memory_order_relaxed);
	}
	c->t1_ns = clock_now_ns();
	return NULL;
}

static unsigned idle_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > IDLE_MAX_CPUS ? IDLE_MAX_CPUS : (unsigned)n;
}

int idleprof_start(struct idleprof *ip, unsigned mode)
{
	memset(ip, 0, sizeof(*ip));
	ip->mode = mode;
	ip->nr_cpus = idle_nr_cpus();
	ip->cpus = calloc(ip->nr_cpus, sizeof(*ip->cpus));
	if (!ip->cpus)
		return -ENOMEM;
	pthread_mutex_init(&ip->lock, NULL);
	pthread_cond_init(&ip->cond, NULL);
	atomic_init(&ip->phase, 0);
	for (unsigned i = 0; i < ip->nr_cpus; i++) {
		struct idle_cpu *c = &ip->cpus[i];

		c->ip = ip;
		c->cpu = i;
		atomic_init(&c->loops, 0);
		if (pthread_create(&c->tid, NULL, idle_main, c)) {
			idleprof_stop(ip, NULL);
			return -EAGAIN;
		}
		c->started = true;
	}
	pthread_mutex_lock(&ip->lock);
	while (ip->calibrated < ip->nr_cpus)
		pthread_cond_wait(&ip->cond, &ip->lock);
	pthread_mutex_unlock(&ip->lock);
	return 0;
}

void idleprof_begin(struct idleprof *ip)
{
	if (!ip->cpus)
		return;
	pthread_mutex_lock(&ip->lock);
	atomic_store(&ip->phase, 1);
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
}

void idleprof_stop(struct idleprof *ip, struct idle_result *r)
{
	double sum = 0, mean = 0, sd = 0;
	unsigned n = 0;

	if (!ip->cpus)
		return;
	pthread_mutex_lock(&ip->lock);
	atomic_store(&ip->phase, 2);
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
	for (unsigned i = 0; i < ip->nr_cpus; i++)
		if (ip->cpus[i].started)
			pthread_join(ip->cpus[i].tid, NULL);
	if (r) {
		memset(r, 0, sizeof(*r));
		r->mode = ip->mode;
		r->nr_cpus = ip->nr_cpus;
		for (unsigned i = 0; i < ip->nr_cpus; i++) {
			const struct idle_cpu *c = &ip->cpus[i];
			double el = c->t1_ns > c->t0_ns ? (double)(c->t1_ns - c->t0_ns) / 1000.0 : 0;
			double pct = el > 0 ? (double)atomic_load(&c->loops) * c->unit_us / el * 100.0 : 0;

			r->percpu[i] = pct > 100 ? 100 : pct;
			sum += r->percpu[i];
			mean += c->unit_us;
			sd += c->sd_us;
			n++;
		}
		r->system = n ? sum / n : 0;
		r->unit_mean = n ? mean / n : 0;
		r->unit_stddev = n ? sd / n : 0;
	}
	pthread_mutex_destroy(&ip->lock);
	pthread_cond_destroy(&ip->cond);
	free(ip->cpus);
	ip->cpus = NULL;
}

int idleprof_calibrate_print(FILE *out)
{
	struct idleprof ip;
	struct idle_result *r = malloc(sizeof(*r));

	if (!r || idleprof_start(&ip, IDLE_CALIBRATE_ONLY) < 0) {
		free(r);
		fprintf(stderr, "fio: cannot start the idle profiling threads\n");
		return 1;
	}
	idleprof_stop(&ip, r);
	fprintf(out, "CPU idleness:\n  unit work: mean=%3.2fus, stddev=%3.2f\n", r->unit_mean, r->unit_stddev);
	free(r);
	return 0;
}

void idleprof_print_normal(FILE *out, const struct idle_result *r)
{
	fprintf(out, "\nCPU idleness:\n  system: %3.2f%%\n", r->system);
	if (r->mode == IDLE_PERCPU) {
		fputs("  percpu: ", out);
		for (unsigned i = 0; i < r->nr_cpus; i++)
			fprintf(out, "%3.2f%%%s", r->percpu[i], i + 1 < r->nr_cpus ? ", " : "\n");
	}
	fprintf(out, "  unit work: mean=%3.2fus, stddev=%3.2f\n", r->unit_mean, r->unit_stddev);
}

/* SPDX-License-Identifier: MIT */
#include "core/clock.h"

#include <stdio.h>
#include <string.h>

int clock_lock_init(pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int ret = pthread_mutex_init(lock, NULL);

	if (ret)
		return -ret;
	ret = pthread_condattr_init(&attr);
	if (ret)
		goto undo_mutex;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto undo_mutex;
	return 0;

undo_mutex:
	pthread_mutex_destroy(lock);
	return -ret;
}

void clock_lock_destroy(pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_cond_destroy(cond);
	pthread_mutex_destroy(lock);
}

void clock_ns_to_timespec(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / CLOCK_NS_PER_SEC);
	ts->tv_nsec = (long)(ns % CLOCK_NS_PER_SEC);
}

uint64_t clock_us_between(uint64_t start_ns, uint64_t end_ns)
{
	return end_ns > start_ns ? (end_ns - start_ns) / CLOCK_NS_PER_US : 0;
}

void clock_src_init_monotonic(struct clock_src *c)
{
	c->tsc = false;
	c->tsc0 = 0;
	c->ns0 = clock_now_ns();
	c->mult = 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* The kernel's choice of clocksource tells whether the TSC is stable and synchronized. */
static bool clock_kernel_trusts_tsc(void)
{
	char buf[32] = { 0 };
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) && !strncmp(buf, "tsc", 3) && (buf[3] == '\n' || buf[3] == '\0');
	fclose(f);
	return ok;
}


/* One TSC reading bracketed by two clock reads; false when the bracket is too wide (the
 * thread was preempted in between), which would skew the calibration. */
static bool clock_tsc_pair(uint64_t *ns, uint64_t *tsc)
{
	for (int i = 0; i < 100; i++) {
		uint64_t a = clock_now_ns(), t = __builtin_ia32_rdtsc(), b = clock_now_ns();

		if (b - a < 5000u) {
			*ns = a + (b - a) / 2;
			*tsc = t;
			return true;
		}
	}
	return false;
}
#endif

void clock_src_init(struct clock_src *c)
{
	clock_src_init_monotonic(c);
#if defined(__x86_64__) || defined(__i386__)
	if (clock_kernel_trusts_tsc()) {
		struct timespec pause = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
		uint64_t n0, n1, t0, t1;

		/* 20 ms window, both ends within 5 us: scale error below 0.05 % */
		if (!clock_tsc_pair(&n0, &t0))
			return;
		nanosleep(&pause, NULL);
		if (!clock_tsc_pair(&n1, &t1) || t1 <= t0 || n1 <= n0)
			return;
		c->mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
		c->tsc0 = t0;
		c->ns0 = n0;
		c->tsc = c->mult != 0;
	}
#endif
}

/* SPDX-License-Identifier: MIT */
/* clock: monotonic time in nanoseconds. clock_now_ns() is in the I/O hot path: inline, and
 * clock_gettime(CLOCK_MONOTONIC) goes through the vDSO (also in a static musl binary), so a
 * read costs tens of nanoseconds and no system call. */
#ifndef IOPS_CLOCK_H
#define IOPS_CLOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define CLOCK_NS_PER_SEC	1000000000ull
#define CLOCK_NS_PER_MS		1000000ull
#define CLOCK_NS_PER_US		1000ull

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * CLOCK_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* A faster clock for the I/O loop: the CPU's time stamp counter scaled to CLOCK_MONOTONIC
 * nanoseconds (fio's default clocksource=cpu does the same). Used only when the kernel itself
 * trusts the TSC (current clocksource "tsc"); otherwise it falls back to clock_now_ns().
 * Read-only after clock_src_init(), so one instance can be shared by every job thread. */
struct clock_src {
	bool tsc;
	uint64_t tsc0, ns0;
	uint64_t mult;		/* ns per cycle, 32.32 fixed point */
};

/* Calibrate (about 10 ms when the TSC is usable). Never fails: worst case falls back. */
void clock_src_init(struct clock_src *c);

/* Same, forcing CLOCK_MONOTONIC (tests, non-x86). */
void clock_src_init_monotonic(struct clock_src *c);

static inline uint64_t clock_src_now(const struct clock_src *c)
{
#if defined(__x86_64__) || defined(__i386__)
	if (c->tsc) {
		uint64_t t = __builtin_ia32_rdtsc();

		if (__builtin_expect(t < c->tsc0, 0))
			return c->ns0;
		return c->ns0 + (uint64_t)(((unsigned __int128)(t - c->tsc0) * c->mult) >> 32);
	}
#else
	(void)c;	/* no TSC: CLOCK_MONOTONIC (through the vDSO on arm64 too) */
#endif
	return clock_now_ns();
}

/* ns as a timespec (for timeouts). */
void clock_ns_to_timespec(uint64_t ns, struct timespec *ts);

/* A mutex and a condition variable whose timed waits take clock_now_ns() deadlines
 * (CLOCK_MONOTONIC, via clock_ns_to_timespec). 0 or -errno; nothing is left on failure. */
int clock_lock_init(pthread_mutex_t *lock, pthread_cond_t *cond);

/* Undo clock_lock_init(). */
void clock_lock_destroy(pthread_mutex_t *lock, pthread_cond_t *cond);

/* Microseconds between two clock_now_ns() readings, 0 if end precedes start. */
uint64_t clock_us_between(uint64_t start_ns, uint64_t end_ns);

#endif

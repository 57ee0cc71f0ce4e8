/* SPDX-License-Identifier: MIT */
/* ioping_stats: ioping 1.3's statistics. Two accumulators are used by a run: the current
 * print period and the whole run (periods are merged into it). Every request that returned
 * data is counted; the first -a requests of the run (warmup) and those outside [-t, -T] are
 * not "valid" and stay out of min/avg/max/mdev. mdev is the population standard deviation
 * sqrt(E[x^2] - E[x]^2) computed in double, iops is 1e9 * valid / sum-of-latencies. */
#ifndef IOPS_IOPING_STATS_H
#define IOPS_IOPING_STATS_H

#include <stdbool.h>
#include <stdint.h>

enum ioping_notice {
	IOPING_NOTICE_NONE,
	IOPING_NOTICE_WARMUP,
	IOPING_NOTICE_TOO_FAST,
	IOPING_NOTICE_TOO_SLOW,
	IOPING_NOTICE_FAST,
	IOPING_NOTICE_SLOW,
	IOPING_NOTICE_EAGAIN,
};

struct ioping_stats {
	uint64_t nr_count;	/* counted requests, warmup and filtered ones included */
	uint64_t nr_valid;
	uint64_t nr_too_fast, nr_too_slow;
	double sum_ns, sum2;	/* sum of valid times, sum of their squares */
	int64_t min_ns, max_ns;	/* meaningful when nr_valid > 0 */
};

struct ioping_limits {
	int64_t warmup;		/* requests with index <= warmup are warmup */
	int64_t min_time_ns;	/* below: too fast */
	int64_t max_time_ns;	/* above: too slow */
};

/* The figures derived from an accumulator, as printed by ioping. */
struct ioping_summary {
	uint64_t nr_valid, nr_count, nr_too_fast, nr_too_slow;
	double sum_ns, avg_ns, mdev_ns;
	int64_t min_ns, max_ns;		/* 0 when nothing is valid */
	double iops, bytes_per_s;	/* from the latency sum; bytes use the request size */
	uint64_t valid_bytes, count_bytes;
	uint64_t load_ns;		/* wall time of the period or run */
	double load_iops, load_bytes_per_s;
};

void ioping_stats_init(struct ioping_stats *st);

/* Account one request that returned data. request is the run's 1-based index. Returns the
 * notice ioping prints for it: warmup / too fast / too slow, else fast or slow once more than
 * 5 requests of this accumulator are valid and time*2 < avg or time > 2*avg (avg includes
 * this request), else none. */
enum ioping_notice ioping_stats_add(struct ioping_stats *st, const struct ioping_limits *lim,
				    int64_t request, int64_t time_ns);

/* dst += src. */
void ioping_stats_merge(struct ioping_stats *dst, const struct ioping_stats *src);

/* Derive the printed figures; size_bytes is the request size, load_ns the wall time. */
void ioping_stats_summary(const struct ioping_stats *st, uint64_t size_bytes, uint64_t load_ns,
			  struct ioping_summary *out);

/* The notice's word ("warmup", "too fast", ...), NULL for none. */
const char *ioping_notice_name(enum ioping_notice n);

#endif

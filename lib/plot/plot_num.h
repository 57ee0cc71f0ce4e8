/* SPDX-License-Identifier: MIT */
/* plot_num: the numbers a page shows. Raw values are printed so that they read back exactly
 * (the shortest decimal that parses to the same double: a JSON's 32851.074463 stays
 * 32851.074463); human values go through fio's own scaling (core/num2str: 32.9k, 128MiB/s;
 * latencies in nsec/usec/msec/sec with at most 4 digits, as num2str scales).
 *
 * Units are a small table: each raw unit belongs to a family (time, bytes per second,
 * counts, plain) with its factor to the family's base unit (ns, B/s, 1), so that values keep
 * the unit of their input (a sweep's p99 in us, a log's bandwidth in KiB/s) and axes still
 * scale them the way fio does. */
#ifndef IOPS_PLOT_NUM_H
#define IOPS_PLOT_NUM_H

#include <stdbool.h>
#include <stddef.h>

enum plot_family {
	PLOT_F_PLAIN,		/* shown as they are (percent, percentiles) */
	PLOT_F_TIME,		/* base ns: nsec, usec, msec, sec */
	PLOT_F_RATE,		/* base B/s: B/s, KiB/s, MiB/s, ... (1024 steps, fio's default kb_base) */
	PLOT_F_COUNT,		/* base 1: k, M, G (1000 steps): IOPS, I/Os, files/s */
	PLOT_F_ELAPSED,		/* base ms: a log's time axis, msec, sec or min */
};

struct plot_unit {
	const char *raw;	/* the unit of raw values: "ns", "KiB/s", "IOPS", "%" */
	enum plot_family family;
	double to_base;		/* raw value x to_base = the family's base unit */
};

extern const struct plot_unit plot_u_none, plot_u_ns, plot_u_us, plot_u_ms_lat, plot_u_kibs,
	plot_u_bytes_s, plot_u_mibs, plot_u_iops, plot_u_ios, plot_u_pct, plot_u_files_s, plot_u_s,
	plot_u_elapsed_ms;

#define PLOT_NUM_LEN	64	/* enough for any number these functions print */

/* v as the shortest decimal that reads back as the same double ("%.17g" at worst); integers
 * below 2^53 without a fraction or exponent. NaN and infinities print "nan", "inf". */
char *plot_num_raw(char *buf, size_t len, double v);

/* v (in unit u) for people: fio's scaling (num2str, 4 significant figures) with its unit:
 * "4358 usec", "32.9k IOPS", "128MiB/s", "99.5 %". */
char *plot_num_human(char *buf, size_t len, double v, const struct plot_unit *u);

/* The scale of an axis whose largest value (in unit u) is max: *div (raw units per shown
 * unit) and the shown unit's name ("usec", "MiB/s"; counts past their raw unit: "x1000",
 * "x1e6"). fio's num2str rule in every family: the next unit (1000 ns, 1024 B/s, 1000) while
 * the largest value has more than 4 digits, so ticks read 0..5000 usec, then 10..50 msec;
 * elapsed time: msec up to 2 s, sec up to 2 h, then min. */
void plot_num_scale(const struct plot_unit *u, double max, double *div, const char **name);

/* A tick value (already divided) with the decimals its step needs: step 0.25 -> "1.75". */
char *plot_num_tick(char *buf, size_t len, double v, double step);

/* printf-style into buf (len > 4), checked: a label that does not fit is cut and ends in
 * "..." (names and labels only, never a value: values fit PLOT_NUM_LEN by construction). */
void plot_num_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

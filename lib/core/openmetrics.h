/* SPDX-License-Identifier: MIT */
/* openmetrics: a writer of the OpenMetrics 1.0 text exposition (what Prometheus scrapes, what
 * node_exporter's textfile collector and a Pushgateway read). A family is its "# TYPE",
 * "# UNIT" (when it has one: the name then ends in "_<unit>") and "# HELP" lines, then its
 * samples, all together; the exposition ends with "# EOF".
 *
 * Label values are escaped as the specification says (\\, \", \n) and bytes that are not
 * UTF-8 become U+FFFD; numbers are written so that they read back as the same double
 * (the shortest such text; "1.0" rather than "1", "+Inf", "NaN"). No I/O beyond the stream;
 * write errors are sticky: check openmetrics_finish()'s result once at the end. */
#ifndef IOPS_OPENMETRICS_H
#define IOPS_OPENMETRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum openmetrics_type { OPENMETRICS_GAUGE, OPENMETRICS_COUNTER, OPENMETRICS_SUMMARY, OPENMETRICS_HISTOGRAM };

struct openmetrics_label {
	const char *name;
	const char *value;	/* NULL: the label is left out */
};

struct openmetrics {
	FILE *out;
	const char *family;	/* the family being written */
};

void openmetrics_init(struct openmetrics *w, FILE *out);

/* Begin a family (its samples follow). unit: NULL for none. */
void openmetrics_family(struct openmetrics *w, const char *name, enum openmetrics_type type, const char *unit,
			const char *help);

/* One sample of the current family: its name plus suffix ("", "_total", "_sum", "_count",
 * "_bucket"), the labels (n of them) and one more label xname="xvalue" (quantile, le) when
 * xname is not NULL. */
void openmetrics_sample(struct openmetrics *w, const char *suffix, const struct openmetrics_label *l, unsigned n,
			const char *xname, const char *xvalue, double v);
void openmetrics_sample_u64(struct openmetrics *w, const char *suffix, const struct openmetrics_label *l,
			    unsigned n, const char *xname, const char *xvalue, uint64_t v);

/* "# EOF", then flush. 0 or -errno (any write error since init). */
int openmetrics_finish(struct openmetrics *w);

/* s as a label value, between the quotes (escaped; invalid UTF-8 as U+FFFD). */
void openmetrics_escape(FILE *out, const char *s);

/* v as the shortest text that reads back as v (strtod), with ".0" on whole numbers below
 * 1e16; "+Inf", "-Inf", "NaN". Returns the length (truncated to n - 1). */
size_t openmetrics_number(char *buf, size_t n, double v);

/* The quantile label of a percentile pct (fio's 99.9 -> "0.999"): pct as fio keys it ("%f",
 * 99.900000) moved two decimal places, so that the label is the decimal fio printed, not
 * pct / 100 in binary (0.9990000000000001). */
size_t openmetrics_quantile(char *buf, size_t n, double pct);

#endif

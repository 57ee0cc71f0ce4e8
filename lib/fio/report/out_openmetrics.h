/* SPDX-License-Identifier: MIT */
/* out_openmetrics: the report model as OpenMetrics text (--output-format=openmetrics), beside
 * out_json.c and read the same way. Every value is the JSON report's in base units (seconds,
 * bytes; what fio's JSON prints with six decimals is taken as printed), so a scrape and the
 * JSON of one run agree exactly; docs/metrics.md lists the families. */
#ifndef IOPS_OUT_OPENMETRICS_H
#define IOPS_OUT_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "fio/report/report.h"

/* One reporting unit to expose, with the labels that place it: host and step (NULL: none). */
struct out_om_unit {
	const struct report *rep;
	const struct report_unit *u;
	const char *host, *step;
};

/* The whole exposition of n units: every family, its samples unit by unit (label jobname, and
 * jobnum: the unit's number among the units of its name in its report, from 0), then
 * "# EOF". hist: with the latency histograms (json+'s bins: false where the model's were made
 * up from percentiles). Returns 0 or -errno (write error). */
int out_openmetrics_units(FILE *out, const struct out_om_unit *units, unsigned n, bool hist);

/* fio mode: every unit of rep, labelled with host (NULL: none). */
int out_openmetrics_print(FILE *out, const struct report *rep, const char *host);

#endif

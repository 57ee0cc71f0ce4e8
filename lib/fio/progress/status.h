/* SPDX-License-Identifier: MIT */
/* status: fio's --status-interval value (mid-run reports). The periodic reports
 * themselves are printed by cmd/fio_status.c from runner_snapshot() copies. */
#ifndef IOPS_STATUS_H
#define IOPS_STATUS_H

#include <stdint.h>

#define STATUS_MIN_NS	1000000ull	/* fio: "status interval too small" below 1 ms */

/* Parse --status-interval=VAL the way fio 3.33 does: a number, optionally with a fraction,
 * in seconds unless a time unit follows (us/usec, ms/msec, s/sec, m/min, h/hour, d/day, any
 * case); any other suffix leaves the number in microseconds. The interval has millisecond
 * resolution. Returns 0 (*ns set), -EINVAL ("fio: failed parsing time VAL": no digits,
 * overflow) or -ERANGE ("fio: status interval too small": negative or below 1 ms). */
int status_parse_interval(const char *val, uint64_t *ns);

#endif

/* SPDX-License-Identifier: MIT */
/* ioping_opts: ioping 1.3's command line, parsed the way its getopt_long_only() does it.
 *
 * - Long names work with one or two dashes, with "=value" or a separate argument, and as
 *   unique prefixes ("-co 2" is -count 2). A dash followed by two or more characters is tried
 *   as a long option first and falls back to a cluster of short options when no long name
 *   matches ("-c3", "-WWW", "-kq"); "-sz 4k" is therefore -s with argument "z".
 * - Non-option arguments may appear anywhere (GNU permutation) unless posixly_correct; "--"
 *   ends the options. Exactly one destination is required.
 * - Numbers use ioping's parse_suffix rules (strtod, optional "/denominator", a
 *   case-insensitive suffix from the option's table, then a range check); see
 *   ioping_opts_parse_number().
 * Values are kept as ioping keeps them (signed 64-bit, NaN becoming INT64_MIN) so that even
 * absurd input behaves as it does with ioping; ioping_opts_finish() applies the defaults. */
#ifndef IOPS_IOPING_OPTS_H
#define IOPS_IOPING_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"

#define IOPING_VERSION		"1.3"
#define IOPING_DEF_SIZE		4096ll			/* -s */
#define IOPING_DEF_LINEAR_SIZE	(256ll << 10)		/* -s with -L */
#define IOPING_DEF_TEMP_WSIZE	(1ll << 20)		/* -S for a directory */
#define IOPING_DEF_RAPID_WSIZE	(64ll << 20)		/* -S for a directory with -R */
#define IOPING_DEF_INTERVAL_NS	1000000000ll		/* -i */
#define IOPING_RAPID_TIME_NS	3000000000ll		/* -w implied by -R */
#define IOPING_DEF_TIME_FMT	"%b %d %T"		/* -I */
#define IOPING_JSON_TIME_FMT	"%FT%T%z"		/* -J */
#define IOPING_MAX_RW_BYTES	2147479552ll		/* Linux MAX_RW_COUNT on 4 KiB pages */

enum ioping_opts_kind {
	IOPING_OPTS_TIME,	/* ns; default unit s; hour min s ms us ns nsec usec msec sec m h */
	IOPING_OPTS_SIZE,	/* bytes, binary: PiB..KiB B k kb m mb g gb t tb pb eb sector page */
	IOPING_OPTS_COUNT,	/* decimal: T G M k da P E */
};

enum ioping_opts_action {
	IOPING_OPTS_RUN,
	IOPING_OPTS_HELP,	/* -h: print the usage on stdout, exit 0 */
	IOPING_OPTS_VERSION,	/* -v: print "ioping 1.3", exit 0 */
};

struct ioping_opts {
	int64_t count;			/* -c: stop after this request (0 = never) */
	int64_t work_time_ns;		/* -w: deadline after start (0 = none) */
	int64_t interval_ns;		/* -i */
	int64_t burst;			/* -b: requests per group (0 = off) */
	int64_t speed_limit;		/* -l: bytes per second (0 = off) */
	double rate_limit;		/* -r: requests per second (0 = off), kept fractional */
	int64_t size;			/* -s: request bytes (0 = default) */
	int64_t work_size;		/* -S: working set bytes (0 = default) */
	int64_t work_offset;		/* -o */
	int64_t warmup;			/* -a: requests 1..warmup are ignored */
	int64_t min_time_ns;		/* -t */
	int64_t max_time_ns;		/* -T */
	uint64_t seed;			/* -e (0 = from the clock) */
	int64_t print_count;		/* -p */
	int64_t print_interval_ns;	/* -P */
	int64_t temp_wsize;		/* directory working set default: 1 MiB, 64 MiB with -R */
	int nr_write;			/* how many -W and -G were given (-WWW for files/devices) */
	bool linear, async, cached, direct, pingpong, sync, dsync, nowait, hipri, rapid, keep;
	bool quiet, batch, json, time_prefix;
	bool interval_given, work_time_given;	/* -i / -w seen so far (for -R and -l/-r) */
	const char *time_fmt;		/* strftime format for -I and JSON "localtime" */
	const char *path;		/* the destination, as given */
};

/* Set the defaults of ioping 1.3 (caller allocates). */
void ioping_opts_init(struct ioping_opts *o);

/* Parse argv[1..argc-1] into o (argv strings must outlive o). On success returns 0 and sets
 * *action. On error returns -EINVAL, fills err (err->code = 1, the exit status) and sets
 * *usage_after to true when ioping prints a blank line and its usage after the message
 * (getopt errors). */
int ioping_opts_parse(struct ioping_opts *o, int argc, char **argv, bool posixly_correct,
		      enum ioping_opts_action *action, bool *usage_after, struct iops_err *err);

/* Apply the defaults that depend on several options (request size, the -l/-r interval) and
 * reject a non-positive request size, like ioping does right after parsing. Returns 0 or
 * -EINVAL with err filled (err->code = 1). */
int ioping_opts_finish(struct ioping_opts *o, struct iops_err *err);

/* ioping's parse_suffix: strtod, optional "/denominator", a suffix from kind's table
 * (case-insensitive, "" allowed), multiply, then require 0 <= value <= max (NaN passes, as
 * with ioping). Returns 0 with *out set, or -EINVAL with err filled (err->code = 1):
 *   invalid suffix: "x" | integer overflow at parsing argument: ARG |
 *   division by zero in parsing argument: ARG */
int ioping_opts_parse_number(const char *arg, enum ioping_opts_kind kind, double max,
			     double *out, struct iops_err *err);

#endif

/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_opts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NO_ARG		0
#define REQ_ARG		1
#define OPT_ARG		2

/* The short options of ioping 1.3, getopt style ("x:" takes an argument, "x::" may). */
static const char short_opts[] = "hvkALRDNHCWGYBqyi:t:T:w:s:S:c:o:p:P:l:r:a:I::Je:b:";

struct long_opt {
	char name[15];	/* in place: no pointer to a string beside it */
	char val;	/* the short option: short_opts says whether it takes an argument */
};

/* Long names in the order ioping lists them when a prefix is ambiguous. */
static const struct long_opt long_opts[] = {
	{ "async", 'A' },
	{ "batch", 'B' },
	{ "burst", 'b' },
	{ "cached", 'C' },
	{ "count", 'c' },
	{ "direct", 'D' },
	{ "dsync", 'y' },
	{ "entropy", 'e' },
	{ "help", 'h' },
	{ "hipri", 'H' },
	{ "interval", 'i' },
	{ "json", 'J' },
	{ "keep", 'k' },
	{ "linear", 'L' },
	{ "min-time", 't' },
	{ "max-time", 'T' },
	{ "nowait", 'N' },
	{ "print-count", 'p' },
	{ "print-interval", 'P' },
	{ "quiet", 'q' },
	{ "rapid", 'R' },
	{ "read-write", 'G' },
	{ "rate-limit", 'r' },
	{ "sync", 'Y' },
	{ "size", 's' },
	{ "speed-limit", 'l' },
	{ "time", 'I' },
	{ "version", 'v' },
	{ "write", 'W' },
	{ "work-size", 'S' },
	{ "work-offset", 'o' },
	{ "work-time", 'w' },
	{ "warmup", 'a' },
};
#define NR_LONG_OPTS	(sizeof(long_opts) / sizeof(long_opts[0]))

struct suffix {
	char name[8];
	double mul;
};

static const struct suffix time_suffixes[] = {
	{ "hour", 3600e9 }, { "min", 60e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
	{ "ns", 1 }, { "nsec", 1 }, { "usec", 1e3 }, { "msec", 1e6 }, { "", 1e9 },
	{ "sec", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
};

static const struct suffix size_suffixes[] = {
	{ "PiB", 0x1p50 }, { "TiB", 0x1p40 }, { "GiB", 0x1p30 }, { "MiB", 0x1p20 },
	{ "KiB", 0x1p10 }, { "B", 1 }, { "k", 0x1p10 }, { "kb", 0x1p10 }, { "m", 0x1p20 },
	{ "mb", 0x1p20 }, { "g", 0x1p30 }, { "gb", 0x1p30 }, { "t", 0x1p40 }, { "tb", 0x1p40 },
	{ "pb", 0x1p50 }, { "eb", 0x1p60 }, { "sector", 512 }, { "page", 4096 }, { "", 1 },
};

static const struct suffix count_suffixes[] = {
	{ "T", 1e12 }, { "G", 1e9 }, { "M", 1e6 }, { "k", 1e3 }, { "", 1 }, { "da", 10 },
	{ "P", 1e15 }, { "E", 1e18 },
};

void ioping_opts_init(struct ioping_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->interval_ns = IOPING_DEF_INTERVAL_NS;
	o->warmup = 1;
	o->max_time_ns = LLONG_MAX;
	o->temp_wsize = IOPING_DEF_TEMP_WSIZE;
	o->time_fmt = IOPING_DEF_TIME_FMT;
}

int ioping_opts_parse_number(const char *arg, enum ioping_opts_kind kind, double max,
			     double *out, struct iops_err *err)
{
	const struct suffix *tab;
	size_t nr, i;
	char *end;
	double val;

	switch (kind) {
	case IOPING_OPTS_TIME:
		tab = time_suffixes, nr = sizeof(time_suffixes) / sizeof(time_suffixes[0]);
		break;
	case IOPING_OPTS_SIZE:
		tab = size_suffixes, nr = sizeof(size_suffixes) / sizeof(size_suffixes[0]);
		break;
	default:
		tab = count_suffixes, nr = sizeof(count_suffixes) / sizeof(count_suffixes[0]);
		break;
	}
	val = strtod(arg, &end);
	if (*end == '/') {
		double den = strtod(end + 1, &end);

		if (den == 0) {
			iops_err_set(err, 1, "division by zero in parsing argument: %s", arg);
			return -EINVAL;
		}
		val /= den;
	}
	for (i = 0; i < nr; i++)
		if (!strcasecmp(end, tab[i].name))
			break;
	if (i == nr) {
		iops_err_set(err, 1, "invalid suffix: \"%s\"", end);
		return -EINVAL;
	}
	val *= tab[i].mul;
	if (val < 0 || val > max) {
		iops_err_set(err, 1, "integer overflow at parsing argument: %s", arg);
		return -EINVAL;
	}
	*out = val;
	return 0;
}

/* Same conversion as ioping_fmt_to_i64 (kept local: opts does not depend on fmt). */
static int64_t to_i64(double v)
{
	if (v != v || v >= 9223372036854775808.0 || v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static int parse_i64(const char *arg, enum ioping_opts_kind kind, double max, int64_t *out,
		     struct iops_err *err)
{
	double v;
	int ret = ioping_opts_parse_number(arg, kind, max, &v, err);

	if (!ret)
		*out = to_i64(v);
	return ret;
}

/* Apply one option; arg is NULL for options without an argument. */
static int apply(struct ioping_opts *o, char opt, const char *arg,
		 enum ioping_opts_action *action, struct iops_err *err)
{
	const double llmax = (double)LLONG_MAX, imax = (double)INT_MAX;

	switch (opt) {
	case 'h': *action = IOPING_OPTS_HELP; return 0;
	case 'v': *action = IOPING_OPTS_VERSION; return 0;
	case 'k': o->keep = true; return 0;
	case 'A': o->async = true; return 0;
	case 'L': o->linear = true; return 0;
	case 'D': o->direct = true; return 0;
	case 'N': o->nowait = true; return 0;
	case 'H': o->hipri = true; return 0;
	case 'C': o->cached = true; return 0;
	case 'W': o->nr_write++; return 0;
	case 'G': o->pingpong = true; o->nr_write++; return 0;
	case 'Y': o->sync = true; return 0;
	case 'y': o->dsync = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'B': o->quiet = true; o->batch = true; return 0;
	case 'J': o->json = true; o->time_fmt = IOPING_JSON_TIME_FMT; return 0;
	case 'I':
		o->time_prefix = true;
		if (arg)
			o->time_fmt = arg;
		return 0;
	case 'R':
		if (!o->interval_given)
			o->interval_ns = 0;
		if (!o->work_time_given)
			o->work_time_ns = IOPING_RAPID_TIME_NS;
		o->temp_wsize = IOPING_DEF_RAPID_WSIZE;
		o->quiet = true;
		o->rapid = true;
		return 0;
	case 'i':
		o->interval_given = true;
		return parse_i64(arg, IOPING_OPTS_TIME, llmax, &o->interval_ns, err);
	case 'w':
		o->work_time_given = true;
		return parse_i64(arg, IOPING_OPTS_TIME, llmax, &o->work_time_ns, err);
	case 't': return parse_i64(arg, IOPING_OPTS_TIME, llmax, &o->min_time_ns, err);
	case 'T': return parse_i64(arg, IOPING_OPTS_TIME, llmax, &o->max_time_ns, err);
	case 'P': return parse_i64(arg, IOPING_OPTS_TIME, llmax, &o->print_interval_ns, err);
	case 's': return parse_i64(arg, IOPING_OPTS_SIZE, (double)LONG_MAX, &o->size, err);
	case 'S': return parse_i64(arg, IOPING_OPTS_SIZE, llmax, &o->work_size, err);
	case 'o': return parse_i64(arg, IOPING_OPTS_SIZE, llmax, &o->work_offset, err);
	case 'l':
		if (!o->interval_given)
			o->interval_ns = 0;
		return parse_i64(arg, IOPING_OPTS_SIZE, llmax, &o->speed_limit, err);
	case 'r':
		if (!o->interval_given)
			o->interval_ns = 0;
		return ioping_opts_parse_number(arg, IOPING_OPTS_COUNT, 1e9, &o->rate_limit, err);
	case 'c': return parse_i64(arg, IOPING_OPTS_COUNT, imax, &o->count, err);
	case 'p': return parse_i64(arg, IOPING_OPTS_COUNT, imax, &o->print_count, err);
	case 'a': return parse_i64(arg, IOPING_OPTS_COUNT, imax, &o->warmup, err);
	case 'b': return parse_i64(arg, IOPING_OPTS_COUNT, imax, &o->burst, err);
	case 'e':
		/* ioping: strtoull(arg, NULL, 0) without any check; junk gives 0. */
		o->seed = strtoull(arg, NULL, 0);
		return 0;
	default:
		iops_err_set(err, 1, "internal error: option '%c' has no handler", opt);
		return -EINVAL;
	}
}

static const char *short_spec(char c)
{
	if (c == ':' || c == '\0')
		return NULL;
	return strchr(short_opts, c);
}

/* A cluster of short options: argv[*idx] + 1. May consume the next argument. */
static int parse_short(struct ioping_opts *o, int argc, char **argv, int *idx,
		       enum ioping_opts_action *action, bool *usage_after, struct iops_err *err)
{
	const char *p = argv[*idx] + 1;

	while (*p) {
		const char *spec = short_spec(*p);
		char c = *p++;

		if (!spec) {
			iops_err_set(err, 1, "invalid option -- '%c'", c);
			*usage_after = true;
			return -EINVAL;
		}
		if (spec[1] != ':') {
			int ret = apply(o, c, NULL, action, err);
			if (ret || *action != IOPING_OPTS_RUN)
				return ret;
			continue;
		}
		if (spec[2] == ':')		/* optional: only attached */
			return apply(o, c, *p ? p : NULL, action, err);
		if (*p)
			return apply(o, c, p, action, err);
		if (*idx + 1 >= argc) {
			iops_err_set(err, 1, "option requires an argument -- '%c'", c);
			*usage_after = true;
			return -EINVAL;
		}
		(*idx)++;
		return apply(o, c, argv[*idx], action, err);
	}
	return 0;
}

/* Long option name at argv[*idx] + prefix_len. Returns 1 if no long option matches and the
 * caller should fall back to short options, else 0 or -EINVAL. */
static int parse_long(struct ioping_opts *o, int argc, char **argv, int *idx, size_t prefix_len,
		      bool may_fall_back, enum ioping_opts_action *action, bool *usage_after,
		      struct iops_err *err)
{
	const char *arg = argv[*idx];
	const char *name = arg + prefix_len;
	const char *prefix = prefix_len == 2 ? "--" : "-";
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct long_opt *found = NULL;
	size_t nr_found = 0, i;
	const char *spec;
	int has_arg;

	for (i = 0; i < NR_LONG_OPTS; i++) {
		if (strncmp(long_opts[i].name, name, len))
			continue;
		if (strlen(long_opts[i].name) == len) {
			found = &long_opts[i];
			nr_found = 1;
			break;
		}
		if (!found)
			found = &long_opts[i];
		nr_found++;
	}
	if (nr_found > 1) {
		size_t off;
		int n = snprintf(err->msg, sizeof(err->msg), "option '%s%s' is ambiguous; possibilities:",
				 prefix, name);

		err->code = 1;
		off = n < 0 ? 0 : (size_t)n;
		for (i = 0; i < NR_LONG_OPTS && off < sizeof(err->msg); i++) {
			if (strncmp(long_opts[i].name, name, len))
				continue;
			n = snprintf(err->msg + off, sizeof(err->msg) - off, " '%s%s'", prefix,
				     long_opts[i].name);
			if (n < 0)
				break;
			off += (size_t)n;	/* a truncated list stays terminated */
		}
		*usage_after = true;
		return -EINVAL;
	}
	if (!found) {
		if (may_fall_back)
			return 1;
		iops_err_set(err, 1, "unrecognized option '%s%s'", prefix, name);
		*usage_after = true;
		return -EINVAL;
	}
	spec = strchr(short_opts, found->val);
	has_arg = spec[1] != ':' ? NO_ARG : spec[2] == ':' ? OPT_ARG : REQ_ARG;
	if (eq) {
		if (has_arg == NO_ARG) {
			iops_err_set(err, 1, "option '%s%s' doesn't allow an argument", prefix, found->name);
			*usage_after = true;
			return -EINVAL;
		}
		return apply(o, found->val, eq + 1, action, err);
	}
	if (has_arg == REQ_ARG) {
		if (*idx + 1 >= argc) {
			iops_err_set(err, 1, "option '%s%s' requires an argument", prefix, found->name);
			*usage_after = true;
			return -EINVAL;
		}
		(*idx)++;
		return apply(o, found->val, argv[*idx], action, err);
	}
	return apply(o, found->val, NULL, action, err);
}

int ioping_opts_parse(struct ioping_opts *o, int argc, char **argv, bool posixly_correct,
		      enum ioping_opts_action *action, bool *usage_after, struct iops_err *err)
{
	int nr_dest = 0, idx;
	bool only_args = false;

	*action = IOPING_OPTS_RUN;
	*usage_after = false;
	for (idx = 1; idx < argc; idx++) {
		const char *arg = argv[idx];
		int ret;

		if (only_args || arg[0] != '-' || arg[1] == '\0') {
			if (nr_dest++ == 0)
				o->path = arg;
			if (posixly_correct)
				only_args = true;
			continue;
		}
		if (arg[1] == '-' && arg[2] == '\0') {
			only_args = true;
			continue;
		}
		if (arg[1] == '-') {
			ret = parse_long(o, argc, argv, &idx, 2, false, action, usage_after, err);
		} else if (arg[2] != '\0' || !short_spec(arg[1])) {
			/* getopt_long_only falls back to short options when the first character
			 * appears in the short option string at all (even ':'). */
			ret = parse_long(o, argc, argv, &idx, 1, strchr(short_opts, arg[1]) != NULL,
					 action, usage_after, err);
			if (ret == 1)
				ret = parse_short(o, argc, argv, &idx, action, usage_after, err);
		} else {
			ret = parse_short(o, argc, argv, &idx, action, usage_after, err);
		}
		if (ret)
			return ret;
		if (*action != IOPING_OPTS_RUN)
			return 0;
	}
	if (nr_dest == 0) {
		iops_err_set(err, 1, "no destination specified");
		return -EINVAL;
	}
	if (nr_dest > 1) {
		iops_err_set(err, 1, "more than one destination specified");
		return -EINVAL;
	}
	return 0;
}

int ioping_opts_finish(struct ioping_opts *o, struct iops_err *err)
{
	if (!o->size)
		o->size = o->linear ? IOPING_DEF_LINEAR_SIZE : IOPING_DEF_SIZE;
	if (o->size <= 0) {
		iops_err_set(err, 1, "request size must be greater than zero");
		return -EINVAL;
	}
	if (o->speed_limit) {
		int64_t iv = to_i64((double)o->size * 1e9 / (double)o->speed_limit);
		if (iv > o->interval_ns)
			o->interval_ns = iv;
	}
	if (o->rate_limit != 0) {
		int64_t iv = to_i64(1e9 / o->rate_limit);
		if (iv > o->interval_ns)
			o->interval_ns = iv;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* opt_apply_fsvc: which of its files a job serves next (file_service_type, openfiles), where
 * its I/O starts in them (file_append, offset_align), how they are locked, created and removed
 * (lockfile, create_*, allow_*, pre_read, overwrite, unlink_each_loop). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"
#include "fio/offset/dist.h"

const struct opt_choice opt_apply_fsvc_choices[] = {
	{ .word = "random", .help = "Pick each file uniformly at random", .value = FSVC_RANDOM },
	{ .word = "zipf", .help = "Pick files with a Zipf skew (:theta[:center])", .value = FSVC_ZIPF },
	{ .word = "pareto", .help = "Pick files with a Pareto skew (:h[:center])", .value = FSVC_PARETO },
	{ .word = "normal", .help = "Pick files around a Gaussian centre (:dev%[:center])", .value = FSVC_NORMAL },
	{ .word = "gauss", .help = "Same as 'normal'", .value = FSVC_NORMAL },
	{ .word = "roundrobin", .help = "Take the files in turn", .value = FSVC_RR },
	{ .word = "sequential", .help = "Use up one file before going on to the next", .value = FSVC_SEQ },
	{ .word = NULL },
};

/* ":N" of random / roundrobin / sequential: I/Os per turn, 1 .. 2^31 - 1. */
static int fsvc_turn(const char *s, unsigned *out)
{
	int64_t v;

	if (!*s || parse_int(s, 1000, &v) || v < 1 || v > INT32_MAX)
		return -EINVAL;
	for (const char *c = s; *c; c++)
		if (*c < '0' || *c > '9')
			return -EINVAL;	/* no size suffixes: a count */
	*out = (unsigned)v;
	return 0;
}

APPLY(opt_apply_file_service_type)
{
	const struct opt_choice *c;
	const char *post = NULL;
	double param = 0, center = -1;
	unsigned nr = 1;

	if (!val)
		goto bad;
	for (c = opt_apply_fsvc_choices; c->word; c++) {
		size_t l = strlen(c->word);

		if (!strncmp(val, c->word, l) && (val[l] == '\0' || val[l] == ':')) {
			post = val[l] ? val + l + 1 : NULL;
			break;
		}
	}
	if (!c->word) {
		int v;

		return opt_value_get_choice(od, val, d, &v);	/* not a choice: fio's lines */
	}
	switch (c->value) {
	case FSVC_RANDOM:
	case FSVC_RR:
	case FSVC_SEQ:
		if (post && fsvc_turn(post, &nr)) {	/* fio takes atoi(): 0 and garbage stick to a file */
			opt_diag_add(d, false, "fio: file_service_type=%s: the number after ':' must be a count of "
				     "I/Os from 1 to %d", val, INT32_MAX);
			return -EINVAL;
		}
		break;
	default:
		param = c->value == FSVC_ZIPF ? 1.1 : c->value == FSVC_PARETO ? 0.2 : 0.0;
		if (post) {
			const char *colon = strchr(post, ':');
			size_t l = colon ? (size_t)(colon - post) : strlen(post);

			if (dist_float_lead(post, l, &param) ||
			    (colon && dist_float_lead(colon + 1, strlen(colon + 1), &center))) {
				opt_diag_add(d, false, "fio: file service type random postfix parsing failed");
				goto bad;
			}
		}
		if (center != -1 && (center < 0.0 || center > 1.0)) {
			opt_diag_add(d, false, "fio: distribution center out of range (0 <= center <= 1.0)");
			goto bad;
		}
		if (c->value == FSVC_ZIPF && param < 0.0) {	/* fio takes it */
			opt_diag_add(d, false, "fio: zipf theta must not be negative");
			goto bad;
		}
		if (c->value == FSVC_ZIPF && param == 1.0) {
			opt_diag_add(d, false, "fio: zipf theta must be different than 1.0");
			goto bad;
		}
		if (c->value == FSVC_PARETO && (param <= 0.0 || param >= 1.0)) {
			opt_diag_add(d, false, "fio: pareto input out of range (0 < input < 1.0)");
			goto bad;
		}
		if (c->value == FSVC_NORMAL && (param < 0.0 || param >= 100.0)) {
			opt_diag_add(d, false, "fio: normal deviation out of range (0 <= input < 100.0)");
			goto bad;
		}
		break;
	}
	oj->j.file_service = (unsigned)c->value;
	oj->j.file_service_nr = nr;
	oj->j.fsvc_param = param;
	oj->j.fsvc_center = center;
	return 0;
bad:
	opt_value_failed(d, od, val);
	return -EINVAL;
}

const struct opt_choice opt_apply_lockfile_choices[] = {
	{ .word = "none", .help = "Files are not locked", .value = JOB_LOCK_NONE },
	{ .word = "exclusive", .help = "One job at a time hands I/O to a file", .value = JOB_LOCK_EXCL },
	{ .word = "readwrite", .help = "Readers share a file, a writer has it alone", .value = JOB_LOCK_RW },
	{ .word = NULL },
};

/* create_fsync, allow_file_create: true by default, so the job keeps the opposite */
static int apply_inverted(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d,
			  bool *field)
{
	bool b;
	int ret = opt_value_get_bool(oj, od, val, d, &b);

	if (!ret)
		*field = !b;
	return ret;
}

APPLY(opt_apply_create_fsync)
{
	return apply_inverted(oj, od, val, d, &oj->j.create_no_fsync);
}

APPLY(opt_apply_allow_file_create)
{
	return apply_inverted(oj, od, val, d, &oj->j.file_create_denied);
}

APPLY(opt_apply_opendir)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str(&oj->opendir, val);
}

/* SPDX-License-Identifier: MIT */
/* preset: the latency / iops / throughput recipes (NetApp's fio baselines): one fio command
 * line each, with the recipe's common arguments (--size=10g --fallocate=none --direct=1
 * --runtime=60 --time_based --ramp_time=5); fio options after the preset override them.
 * Files are named iops-<preset>.<pid>.<job>.<file> and removed at the end (--unlink=1)
 * unless --keep. */
#ifndef IOPS_PRESET_H
#define IOPS_PRESET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "suite/suite.h"

#define PRESET_SIZE	(10ull << 30)	/* the recipe's --size=10g, per job */
#define PRESET_SHARE	2		/* lowered to stay within half of the free space */

struct preset {
	const char *name, *rw, *bs;
	unsigned depth, numjobs;
};

/* The preset called name, NULL if none. */
const struct preset *preset_find(const char *name);

struct preset_opts {
	const struct preset *p;
	const char *dir;		/* "." by default */
	bool keep, help;
	bool size_set;			/* --size or --filesize among the user's options */
	bool direct_set;		/* --direct among them */
	bool engine_set;		/* --ioengine among them: no psync fallback */
	bool numjobs_set;		/* --numjobs among them */
	bool psync;			/* libaio cannot run here: psync, the depth as numjobs (cmd/) */
	unsigned numjobs;		/* the last --numjobs given, else the preset's (with psync:
					 * suite_psync_jobs() of its depth and numjobs) */
	char **user;			/* the user's fio options, in order (--keep taken out) */
	int nuser;
};

/* argv[0] is the preset's name. The user array is malloc'd (free it). 0, or -EINVAL / -ENOMEM
 * with err set. */
int preset_opts_parse(int argc, char **argv, struct preset_opts *o, struct iops_err *err);
void preset_usage(FILE *out, const struct preset *p);
/* Switch o to the psync fallback: o->psync, and o->numjobs unless the user gave one. */
void preset_use_psync(struct preset_opts *o);

/* The whole command line: fio, --directory, --name, the recipe (with o->psync: --ioengine=psync and
 * the depth as numjobs), the file names, size (0: the recipe's 10g), direct, --unlink=1 unless
 * keep, then the user's options. 0 or -E2BIG. */
int preset_argv(struct suite_argv *a, const struct preset_opts *o, long pid, uint64_t size, bool direct);

#endif

/* SPDX-License-Identifier: MIT */
/* ioping_target: the destination of an ioping run, planned then opened as ioping 1.3 does.
 *
 * ioping_target_plan() checks without writing anything: stat, the -WWW rule, the target type
 * (directory, regular file, block or character device; anything else is refused), its size
 * (block devices are opened read-only-or-read-write here to ask their size) and whether the
 * working set and request fit.
 * ioping_target_prepare() opens the file or creates the unnamed working file of a directory
 * (O_TMPFILE, else a named ioping.tmp.XXXXXX unlinked at once; -k keeps <dir>/ioping.tmp),
 * fills it with random data and fsyncs it, sets O_DIRECT, describes the filesystem and
 * hints random access.
 * All failures fill err with ioping's message and exit status (err->code). */
#ifndef IOPS_IOPING_TARGET_H
#define IOPS_IOPING_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/ctl.h"
#include "core/err.h"
#include "ioping/ioping_opts.h"
#include "ioping/ioping_rng.h"
#include "sys/mountinfo.h"

enum ioping_target_kind {
	IOPING_TARGET_DIR,
	IOPING_TARGET_FILE,
	IOPING_TARGET_BLOCK,
	IOPING_TARGET_CHAR,
};

struct ioping_target {
	int fd;				/* -1 until opened */
	enum ioping_target_kind kind;
	struct stat st;			/* stat() of the destination */
	int64_t offset;			/* -o: start of the working set */
	int64_t wsize;			/* working set bytes */
	int64_t st_size;		/* size the checks were made against */
	int64_t size;			/* request bytes */
	/* description, see ioping_out */
	char fstype[MOUNTINFO_FSTYPE_LEN];
	char device[MOUNTINFO_SOURCE_LEN];
	uint64_t device_size;
	bool fadvise_failed;		/* the random-access hint failed (a warning) */
	bool created_keep;		/* -k: this run created <dir>/ioping.tmp */
};

/* Steps before any allocation: needs o finished (ioping_opts_finish). Returns 0 or -errno. */
int ioping_target_plan(struct ioping_target *t, const struct ioping_opts *o, struct iops_err *err);

/* Open / create and prepare. buf (o->size bytes, already filled once from rng) is used for
 * the preparation writes; rng is advanced as ioping does. A stop request on ctl abandons the
 * preparation: -EINTR with err->code 128+signal and an empty message. Returns 0 or -errno. */
int ioping_target_prepare(struct ioping_target *t, const struct ioping_opts *o,
			  struct ioping_rng *rng, void *buf, struct ctl *ctl,
			  struct iops_err *err);

/* Close the descriptor (the unnamed working file disappears with it). */
void ioping_target_close(struct ioping_target *t);

#endif

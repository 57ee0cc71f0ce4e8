/* SPDX-License-Identifier: MIT */
/* opt_ftype: how fio 3.33 itself reads each option iops knows, where that differs from what
 * the option means: fio's parser type, its bounds, and what it keeps of a number given in
 * parts (its offsets and callbacks), as fio's --cmdhelp and --debug=parse show them. Read by
 * opt.c (the debug lines) and opt_num.c (numbers). */
#ifndef IOPS_OPT_FTYPE_H
#define IOPS_OPT_FTYPE_H

#include <stdint.h>

#include "fio/optval.h"

/* What fio keeps of a number given in parts ("4k,8k", "1-2", "4:8"). */
enum opt_store {
	OPT_STORE_FIRST,	/* the first part (one field, no callback) */
	OPT_STORE_DDIR,		/* one part per direction: reads, writes, trims; the last given
				 * also for the directions after it */
	OPT_STORE_PAIR,		/* the same with two fields: low and high */
	OPT_STORE_LAST,		/* a callback takes each part: the last one wins */
};

/* How the number of a part is read. */
enum opt_num {
	OPT_NUM_DEC,		/* size suffixes and N% */
	OPT_NUM_TIME_S,		/* a time, seconds without a unit */
	OPT_NUM_TIME_US,	/* a time, microseconds without a unit */
};

struct opt_ftype {
	const char *name;
	enum optval_ptype ptype : 8;
	enum opt_store store : 8;
	enum opt_num num : 8;
	int64_t min, max;	/* fio's minval / maxval: 0 = not checked (as in fio) */
	const char *pct;	/* the callback's debug line for a percentage ("size_percent") */
	/* FLOAT_LIST: at most maxlen values, each in [fmin, fmax] (both 0: not checked) */
	unsigned char maxlen;
	double fmin, fmax;
	/* STR: fio's callback reads the whole text after the word matched (rw=randread:8): the
	 * applier gets it all; else only the word */
	bool cb;
	/* a number past 2^63 (a negative one, wrapped) is taken as the 64-bit number fio reads */
	bool u64;
	/* fio's pow2: a part whose 64-bit number is not a power of 2 fails (before it is kept as
	 * an int) */
	bool pow2;
};

/* The entry of an option (by its main name), NULL if iops' table has an option fio 3.33 does
 * not know. */
const struct opt_ftype *opt_ftype_find(const char *name);
unsigned opt_ftype_count(void);
const struct opt_ftype *opt_ftype_at(unsigned i);

#endif

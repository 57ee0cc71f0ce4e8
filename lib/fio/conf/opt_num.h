/* SPDX-License-Identifier: MIT */
/* opt_num: a number option's value as fio 3.33 reads it, parts and all, handed to the option's
 * applier as the plain number fio keeps (fio/opt_num.c). */
#ifndef IOPS_OPT_NUM_H
#define IOPS_OPT_NUM_H

#include "fio/conf/opt.h"
#include "fio/conf/opt_ftype.h"

/* Apply val (NULL: a bare flag) to od, a number option of fio type ft: 0 (also when fio takes
 * the value and keeps nothing of it), or -EINVAL with fio's lines in d. */
int opt_num_apply(struct opt_job *oj, const struct opt_def *od, const struct opt_ftype *ft, const char *val,
		  struct opt_diag *d);

/* The same for a float list (FLOAT_LIST): the applier gets the values fio stores, ':'
 * separated, a failed part's as 0 (fio keeps its place), with fio's number of decimals. */
int opt_num_float_apply(struct opt_job *oj, const struct opt_def *od, const struct opt_ftype *ft, const char *val,
			struct opt_diag *d);

#endif

/* SPDX-License-Identifier: MIT */
/* opt_value: reading an option's value the way fio does, for the apply functions (opt_apply*.c,
 * opt_rate.c, opt_flow.c) and opt_num.c: numbers, bools, times, one of the option's words, a
 * copied string, and fio's messages when a value does not parse or is out of range. The lowest
 * file of the option parser: it calls nothing of the table or the parser. Every function
 * returns 0, or -EINVAL (-ENOMEM) with fio's message lines added to d. */
#ifndef IOPS_OPT_VALUE_H
#define IOPS_OPT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/conf/opt.h"

/* "fio: failed parsing name=val". */
void opt_value_failed(struct opt_diag *d, const struct opt_def *od, const char *val);
/* fio's "NAME: max value out of range: V (LIM max)" (min when !max; no "NAME: " for a bool or
 * flag), then opt_value_failed(); returns -EINVAL. */
int opt_value_range_failed(struct opt_diag *d, const struct opt_def *od, const char *val, bool max,
			   long long v, long long lim);
/* How much of s fio's strip_blank_end() keeps: up to a ';' or '#', without the blanks and
 * control characters before that (what option callbacks such as ignore_error read). */
size_t opt_value_blank_end(const char *s);
/* 1000 or 1024: what k means in this job's sizes so far (kb_base). */
unsigned opt_value_kb_of(const struct opt_job *oj);
/* fio's int (size suffixes), checked against the option's min and max. */
int opt_value_get_int(struct opt_job *oj, const struct opt_def *od, const char *val,
		      struct opt_diag *d, int64_t *out);
int opt_value_get_uint(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, unsigned *out);
/* A FLAG without a value is true. */
int opt_value_get_bool(struct opt_job *oj, const struct opt_def *od, const char *val,
		       struct opt_diag *d, bool *out);
/* The longest time an option keeps: 2^62 ns, 146 years (fio's longer ones are taken as it). */
#define OPT_TIME_MAX_NS	(1ull << 62)
/* A time, seconds when no unit is given; past OPT_TIME_MAX_NS, OPT_TIME_MAX_NS. */
int opt_value_get_time(const struct opt_def *od, const char *val, struct opt_diag *d,
		       uint64_t *out_ns);
/* One of the option's choices (its value); otherwise the "valid values" lines. */
int opt_value_get_choice(const struct opt_def *od, const char *val, struct opt_diag *d, int *out);
/* Replace *dst with a copy of val ("" for NULL). 0 or -ENOMEM. */
int opt_value_set_str(char **dst, const char *val);

/* "valid values" lines of a CHOICE option, as fio prints them (also used by --cmdhelp). */
void opt_value_choices(struct opt_diag *d, const struct opt_def *od);

#endif

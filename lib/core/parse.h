/* SPDX-License-Identifier: MIT */
/* parse: fio's value syntax (sizes with kb_base suffix rules, times, ranges, per-direction
 * lists, float lists), every conversion overflow-checked. Pure functions, no allocation.
 *
 * Errors: -EINVAL for malformed text, -ERANGE when the value does not fit. */
#ifndef IOPS_PARSE_H
#define IOPS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARSE_DIR_PART_MAX	256	/* longest element of an `r,w,t` list */

/* Multiplier of the size suffix that starts at sfx (fio's rule): k m g t p e (any case) are
 * powers of kb_base, the IEC spelling with "ib" (kib, MiB...) is the *other* base (1024 <->
 * 1000, fio's compatibility inversion); a trailing b/B alone means bytes; an unknown suffix
 * means x1 (fio quirk: bs=4q is 4 bytes). kb_base must be 1024 or 1000. */
uint64_t parse_suffix_mult(const char *sfx, unsigned kb_base);

/* Unsigned size: decimal or 0x hex (the suffix is ignored after hex, as fio does), optional
 * suffix. Leading/trailing blanks are ignored. "-1", "1.5k", "", "nan" are -EINVAL. */
int parse_size(const char *s, unsigned kb_base, uint64_t *out);

/* Like parse_size, but "N%" (N in 0..100, integer) sets *pct = N and *out = 0; otherwise
 * *pct = 0 (an explicit "0%" is rejected with -ERANGE). */
int parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct);

/* Signed integer with the same suffix rules (a leading '-' allowed; range checks are the
 * caller's, so fio's "min value out of range: -1" can be reported). */
int parse_int(const char *s, unsigned kb_base, int64_t *out);

/* Time: integer with an optional unit (us/usec, ms/msec, s/sec, m/min, h/hour, d/day, any
 * case); no unit means default_unit_ns. Result in nanoseconds. */
int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out_ns);

/* Range "a-b" or "a:b" of sizes, swapped when reversed. */
int parse_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi);

/* Split a per-direction list "r,w,t" into up to 3 parts. present[i] tells whether element i
 * was given non-empty. fio's propagation rule: when the text does not end in ',', the last
 * given element also applies to the directions after it (returned in parts as a copy).
 * Returns the number of elements written (1..3) or -EINVAL (too many elements, too long). */
int parse_dir_list(const char *s, char parts[3][PARSE_DIR_PART_MAX], bool present[3]);

/* Float list "a:b:c" (percentile_list): at most max values in [lo, hi]. *precision gets the
 * largest number of decimals written. -ERANGE for a value outside [lo, hi] (*bad set),
 * -E2BIG for more than max values, -EINVAL for garbage. */
int parse_float_list(const char *s, double *vals, unsigned max, unsigned *nr,
		     unsigned *precision, double lo, double hi, double *bad);

/* fio booleans for "empty or boolean" flags: "" -> true; otherwise an int, 0 -> false, any
 * other value is returned in *ival for the caller's range check (1 -> true). */
int parse_flag(const char *s, bool *out, int64_t *ival);

/* Copy s without leading/trailing blanks into out (size n). -ENAMETOOLONG if it does not fit. */
int parse_strip(const char *s, char *out, size_t n);

#endif

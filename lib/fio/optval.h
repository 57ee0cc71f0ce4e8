/* SPDX-License-Identifier: MIT */
/* optval: how fio 3.33's option parser reads a value's text before the option itself sees it,
 * re-implemented from its observed behaviour (its --debug=parse lines beside ours:
 * tests/fidelity/optdiff.py): fio's parser types, the parts a value is cut into, numbers,
 * times and integers with fio's quirks, and the match of a word of a choice. Pure functions,
 * no allocation; what an option does with the values is opt_num.c's and the appliers'. */
#ifndef IOPS_OPTVAL_H
#define IOPS_OPTVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's parser types (the "type=" of --debug=parse). */
enum optval_ptype {
	OPTVAL_STR_STORE,	/* a string, kept as written */
	OPTVAL_STR,		/* a word of a list (and what the option's callback reads after it) */
	OPTVAL_STR_MULTI,	/* words of a list, ',' separated */
	OPTVAL_STR_ULL,		/* a string the option parses itself (bssplit) */
	OPTVAL_STR_SET,		/* a flag: bare, or an integer */
	OPTVAL_BOOL,		/* an integer, at most 1 */
	OPTVAL_INT,		/* a number stored in an int: k/m/g... suffixes, N% */
	OPTVAL_ULL,		/* a number stored in 64 bits */
	OPTVAL_STR_VAL,		/* the same, through the option's callback or 64-bit field */
	OPTVAL_STR_VAL_ZONE,	/* the same, and a number of zones with a 'z' suffix */
	OPTVAL_STR_VAL_TIME,	/* a time: us, ms, s, m, h, d */
	OPTVAL_RANGE,		/* lo-hi ranges, ',' separated */
	OPTVAL_FLOAT_LIST,	/* floating point numbers, ':' separated */
	OPTVAL_NR
};

const char *optval_ptype_name(enum optval_ptype t);	/* "OPT_INT" ... */
/* The types whose value fio cuts into parts and reads as numbers (INT ... STR_VAL_TIME, BOOL,
 * STR_SET). */
bool optval_is_number(enum optval_ptype t);

#define OPTVAL_PARTS_MAX	64	/* parts read from one value (fio reads them all) */

/* The parts of a value, as fio's handle_option() cuts it: a ',' ends a part, else a ':', else
 * a '-' (RANGE and STR_MULTI: ',' only; FLOAT_LIST: ':' only; the string types are one part).
 * Part i starts at off[i] and its text (what fio hands the part's parser, whose number stops
 * at the next ',') runs len[i] bytes, to the end of val but for a ',' at the very end, which
 * fio cuts off (an empty part follows it); more[i]: a part follows. Returns the number of
 * parts (at most max: the rest is not read), 0 for a NULL val. */
unsigned optval_split(enum optval_ptype t, const char *val, size_t *off, size_t *len, bool *more, unsigned max);

/* A part's number as fio's str_to_decimal() reads it (s: the part, to its end or ','):
 * strtoll in base 16 when "0x" or "0X" appears anywhere (so "10x" is 16), else base 10, blanks
 * first skipped; then, after the digits and signs, a letter starts the multiplier (k m g t p
 * and their ki/kib... spellings, the "ib" ones in the other base of 1000 and 1024; any other
 * letter, a blank or a '.' before it: x1) and a '%' makes it a percentage, -1 - N. *v gets
 * strtoll's result even when it fails (LLONG_MAX on overflow), and is left alone for an empty
 * part, as fio prints it. Returns 0, or 1 (fio's ret) when there is no number. */
int optval_decimal(const char *s, unsigned kb_base, int64_t *v);

/* A part's time in microseconds (fio's check_str_time()): the number as optval_decimal
 * without a multiplier, the unit from the first letter on (us usec ms msec s m h d, any
 * case, the rest of the text exactly: "10sec" is 10 us), no letter: seconds when seconds,
 * else microseconds. */
int optval_time(const char *s, bool seconds, int64_t *v);

/* A part's integer as fio's check_int() reads booleans and flags: unsigned decimal, or hex
 * when "0x" appears, as a 32-bit int (so "-1" is -1 and "1.5" 1). 0, or 1 without digits. */
int optval_int(const char *s, int *v);

/* A float list's part as fio's str_to_float() reads it: strtod from s (the rest of the value:
 * it stops at the ':'), *used the characters it read. 0, or 1 when it reads nothing. */
int optval_float(const char *s, double *v, size_t *used);

/* Does val name word, by fio's rule: val up to its first ',' (else its first ':') is word
 * exactly? */
bool optval_word_match(const char *word, const char *val);

/* Does a part's text (len bytes) end with 'z', the zone suffix fio refuses outside zone sizes? */
bool optval_zone_suffix(const char *part, size_t len);

#endif

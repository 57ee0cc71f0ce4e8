/* SPDX-License-Identifier: MIT */
/* debug: fio's --debug=CATEGORIES (process, file, io, mem, ..., all; "?" / "help" lists them).
 *
 * A mask of categories travels with the configuration (fio_config.debug_mask) and the option
 * parser (opt_diag.debug); lines go to the stream the caller passes (cmd/ passes stdout, as
 * fio), in fio's layout: the category left-aligned in 8 columns, the thread id, the text.
 * Every caller tests the mask (or a NULL stream) first, so debugging costs a branch when off. */
#ifndef IOPS_DEBUG_H
#define IOPS_DEBUG_H

#include <stdarg.h>
#include <stdio.h>

enum debug_cat {
	DEBUG_PROCESS, DEBUG_FILE, DEBUG_IO, DEBUG_MEM, DEBUG_BLKTRACE, DEBUG_VERIFY,
	DEBUG_RANDOM, DEBUG_PARSE, DEBUG_DISKUTIL, DEBUG_JOB, DEBUG_MUTEX, DEBUG_PROFILE,
	DEBUG_TIME, DEBUG_NET, DEBUG_RATE, DEBUG_COMPRESS, DEBUG_STEADYSTATE,
	DEBUG_HELPERTHREAD, DEBUG_ZBD, DEBUG_NR,
};

#define DEBUG_ALL	((1u << DEBUG_NR) - 1)

/* The names in fio's order, comma separated, "all" last (fio's "dumping debug options:" list). */
const char *debug_names(void);
const char *debug_name(enum debug_cat c);

/* Parse "parse,io" / "all" into *mask (added). Returns 0; 1 for "?" or "help" (list asked);
 * -EINVAL with the first unknown name in bad (size n). The "fio: set debug option X" notes
 * fio prints are left to the caller: debug_parse_note() gives them one by one. */
int debug_parse(const char *val, unsigned *mask, char *bad, size_t n);

/* One debug line: "<cat padded to 8> <tid> <text>\n". */
void debug_vline(FILE *out, enum debug_cat c, const char *fmt, va_list ap);
void debug_line(FILE *out, enum debug_cat c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int debug_on(unsigned mask, enum debug_cat c)
{
	return (mask >> c) & 1u;
}

#endif

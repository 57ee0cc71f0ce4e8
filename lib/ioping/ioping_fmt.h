/* SPDX-License-Identifier: MIT */
/* ioping_fmt: ioping 1.3's number formatting ("print_suffix"), and its double->integer
 * conversion. A value is first converted to a signed 64-bit integer (doubles truncate), then
 * printed in the largest unit it reaches with 0, 1 or 2 decimals:
 *   0 if it is a whole number of that unit, 1 if it is at least 10 units, 2 otherwise.
 * So 9999 ns prints "10.00 us" and 1048575 B "1024.0 KiB", as ioping does. */
#ifndef IOPS_IOPING_FMT_H
#define IOPS_IOPING_FMT_H

#include <stddef.h>
#include <stdint.h>

enum ioping_fmt_unit {
	IOPING_FMT_TIME,	/* ns:    hour min s ms us ns */
	IOPING_FMT_SIZE,	/* bytes: PiB TiB GiB MiB KiB B */
	IOPING_FMT_COUNT,	/* plain: T G M k "" */
};

/* Longest output: "-9223372036854775808 hour" plus margin. */
#define IOPING_FMT_LEN	48

/* Convert like the x86-64 truncating conversion ioping relies on: NaN and values outside
 * the int64 range become INT64_MIN; everything else truncates toward zero. */
int64_t ioping_fmt_to_i64(double v);

/* Format val into buf (at least IOPING_FMT_LEN bytes). Returns the length written, or
 * -ENOSPC if buf was too small (buf then holds a truncated, terminated string). */
int ioping_fmt_suffix(char *buf, size_t len, int64_t val, enum ioping_fmt_unit unit);

#endif

/* SPDX-License-Identifier: MIT */
/* pattern: fio's byte-pattern syntax, shared by verify_pattern and buffer_pattern.
 *
 * A value is a sequence, in any order and without spaces between, of: hex bytes `0xdeadbeef`
 * (an odd digit count pads the first nibble), decimal integers `12` or `-5` (little-endian, as
 * few bytes as the value needs, at most 4), quoted strings `"abc"`, quoted file names
 * `'file'` (the file's first bytes, up to the pattern's capacity), and, where the caller
 * allows it, `%o` (8 bytes that receive the block offset at write time). */
#ifndef IOPS_PATTERN_H
#define IOPS_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

struct pattern_out {
	unsigned char *buf;		/* the pattern bytes */
	unsigned cap, len;
	unsigned short *o_pos;		/* %o: their positions in buf; NULL = %o refused */
	unsigned o_cap, nr_o;
};

/* Parse s into out (len and nr_o set; buf filled). 0, or -EINVAL for anything fio refuses
 * (empty value, `0x` without digits, trailing garbage, an unreadable or empty file, a
 * pattern longer than cap). */
int pattern_parse(const char *s, struct pattern_out *out);

/* Fill len bytes of dst with the pattern repeated, starting at pattern byte 0. */
void pattern_repeat(void *dst, size_t len, const unsigned char *pat, unsigned pat_len);

#endif

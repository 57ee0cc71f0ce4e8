/* SPDX-License-Identifier: MIT */
/* json: a streaming JSON writer with fio's pretty layout (fio's json.c).
 *
 * Layout as fio: `"key" : value`, two spaces of indent per level, pairs separated by ",\n",
 * "{\n" ... "\n<indent>}" (an empty object prints "{\n\n<indent>}"), integers in decimal,
 * floats "%f". Like fio, a string pair whose value is NULL or "" is dropped entirely.
 * Unlike fio (documented difference) the output is always valid JSON: strings escape control
 * characters too (\n, \t, \uXXXX ...), bytes that are not UTF-8 become \ufffd, and NaN/Inf
 * floats print as 0.000000.
 *
 * Write errors are sticky: check json_finish()'s result once at the end. */
#ifndef IOPS_JSON_H
#define IOPS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json_writer {
	FILE *out;
	unsigned depth;			/* open containers */
	bool has_items[JSON_MAX_DEPTH];	/* per open container: something written already */
	bool in_array[JSON_MAX_DEPTH];
	int error;			/* first error, -errno; 0 if none */
};

void json_init(struct json_writer *w, FILE *out);

/* Open an object / array. key is the pair's name inside an object; NULL for the document
 * root and for array elements. */
void json_begin_object(struct json_writer *w, const char *key);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w, const char *key);
void json_end_array(struct json_writer *w);

void json_uint(struct json_writer *w, const char *key, uint64_t v);
void json_int(struct json_writer *w, const char *key, int64_t v);
void json_float(struct json_writer *w, const char *key, double v);	/* "%f"; NaN/Inf -> 0 */
/* The value json_float() writes for v, as a reader gets it back (six decimals). */
double json_float_value(double v);
void json_string(struct json_writer *w, const char *key, const char *v);	/* NULL/"" dropped */

/* Write s as a JSON string literal (quotes included) with correct escaping. */
void json_write_escaped(FILE *out, const char *s);
/* The same with DEL (0x7f) escaped too, as "\u007f" (ioping's JSON). */
void json_write_escaped_del(FILE *out, const char *s);

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates,
 * <= U+10FFFF), or 0 if it is not one (the NUL that ends a string is not). */
unsigned json_utf8_len(const unsigned char *p);

/* After the root object is closed: the trailing "\n", flush; returns 0 or -errno. */
int json_finish(struct json_writer *w);

#endif

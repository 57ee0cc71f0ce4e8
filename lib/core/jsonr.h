/* SPDX-License-Identifier: MIT */
/* jsonr: a small JSON reader. The whole document is parsed into a compact tree of nodes
 * (one array, children linked by index); strings are decoded into a private copy of the
 * text. Lookups go by path: "jobs/0/read/iops" (object keys and array indices, separated
 * by '/', so keys such as fio's "99.000000" need no quoting).
 *
 * Strict RFC 8259 syntax (no comments, no trailing commas), nesting up to JSONR_MAX_DEPTH,
 * \uXXXX escapes with surrogate pairs decoded to UTF-8, numbers kept as a double and, when
 * they are integers that fit, as an exact uint64_t/int64_t too. */
#ifndef IOPS_JSONR_H
#define IOPS_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define JSONR_MAX_DEPTH	64

enum jsonr_type { JSONR_NULL, JSONR_FALSE, JSONR_TRUE, JSONR_NUM, JSONR_STR, JSONR_ARR, JSONR_OBJ };

struct jsonr_node {
	const char *key;	/* name inside the parent object, NULL elsewhere */
	const char *str;	/* JSONR_STR: decoded, NUL-terminated (may hold a NUL from \u0000) */
	double num;		/* JSONR_NUM */
	int64_t i64;		/* JSONR_NUM with is_int: the exact value */
	uint32_t first;		/* JSONR_ARR/OBJ: index of the first child, 0 if none */
	uint32_t next;		/* index of the next sibling, 0 if none */
	uint32_t count;		/* JSONR_ARR/OBJ: number of children */
	uint8_t type;		/* enum jsonr_type */
	bool is_int;		/* JSONR_NUM written as an integer that fits int64_t */
};

struct jsonr {
	struct jsonr_node *nodes;	/* nodes[0] is the root */
	uint32_t nr, cap;
	char *buf;			/* decoded copy of the text */
};

/* Parse text[0..len). 0, or -EINVAL (syntax, with the byte offset in err) / -ENOMEM.
 * On error nothing is left to free. */
int jsonr_parse(struct jsonr *j, const char *text, size_t len, struct iops_err *err);
void jsonr_free(struct jsonr *j);

/* The next JSON document of a stream (fio's messages before its JSON, `kubectl logs` of N
 * pods, files written one after the other): from *pos, the first '{' that starts a line, up
 * to its matching '}' (strings skipped), or to the end when it has none (the parser then says
 * why). Returns it with *doc_len and *pos moved past it, or NULL when no document is left.
 * Lines between documents are skipped. */
const char *jsonr_next_doc(const char *buf, size_t len, size_t *pos, size_t *doc_len);

/* The node at path below from (NULL: the root); NULL if any step is missing. "" is from. */
const struct jsonr_node *jsonr_get(const struct jsonr *j, const struct jsonr_node *from, const char *path);

/* Child number i of an array or object, NULL past the end. */
const struct jsonr_node *jsonr_child(const struct jsonr *j, const struct jsonr_node *n, uint32_t i);

/* The number at path (false if missing or not a number). */
bool jsonr_num(const struct jsonr *j, const struct jsonr_node *from, const char *path, double *out);

/* The string at path, NULL if missing or not a string. */
const char *jsonr_str(const struct jsonr *j, const struct jsonr_node *from, const char *path);

#endif

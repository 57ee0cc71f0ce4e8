/* SPDX-License-Identifier: MIT */
/* yaml: a small YAML writer for the manifests of `iops k8s`, into a growing buffer.
 *
 * Block style only, two spaces per depth, keys and values written as the caller orders them
 * (the same calls give the same bytes). Every string that may come from a user goes through
 * yaml_scalar_ok() / the quoting here: plain only when no YAML 1.1 or 1.2 reader (go-yaml in
 * kubectl, the yaml npm package) could take it for anything but that string, double-quoted
 * with escapes otherwise. Text that is not valid UTF-8 is refused (-EILSEQ), never written.
 * The first error sticks: later calls do nothing and yaml_error() returns it. */
#ifndef IOPS_YAML_H
#define IOPS_YAML_H

#include <stdbool.h>
#include <stddef.h>

struct yaml {
	char *buf;	/* NUL-terminated text so far (NULL before the first write) */
	size_t len, cap;
	int err;	/* 0, -ENOMEM or -EILSEQ: the first failure */
};

void yaml_init(struct yaml *y);
void yaml_release(struct yaml *y);
int yaml_error(const struct yaml *y);

/* Is s valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)? */
bool yaml_utf8_ok(const char *s, size_t n);

/* Would s be written plain (unquoted)? Letters, digits and . _ / - only, starting with a
 * letter or '/', and none of the words YAML 1.1 reads as a boolean or null (yes, off, ~...). */
bool yaml_plain_ok(const char *s);

/* The scalar s, plain or double-quoted, appended as is (no indentation, no newline). */
void yaml_scalar(struct yaml *y, const char *s);

/* "# LINE": one comment line (no line break or control character in it, or -EILSEQ). */
void yaml_comment(struct yaml *y, const char *line);
/* "---" between two documents. */
void yaml_doc(struct yaml *y);
/* KEY: VALUE (a string scalar) at depth. */
void yaml_kv(struct yaml *y, unsigned depth, const char *key, const char *value);
/* KEY: N */
void yaml_kv_int(struct yaml *y, unsigned depth, const char *key, long long n);
/* KEY: true|false */
void yaml_kv_bool(struct yaml *y, unsigned depth, const char *key, bool b);
/* KEY: (a mapping or sequence follows, one depth deeper) */
void yaml_key(struct yaml *y, unsigned depth, const char *key);
/* - VALUE (an item of a sequence of scalars) */
void yaml_item(struct yaml *y, unsigned depth, const char *value);
/* - KEY: VALUE (the first key of a mapping item; its other keys go at depth + 1) */
void yaml_item_kv(struct yaml *y, unsigned depth, const char *key, const char *value);
/* - KEY: (the first key of a mapping item, holding a mapping or sequence at depth + 2) */
void yaml_item_key(struct yaml *y, unsigned depth, const char *key);
/* KEY: followed by text (a file's contents): a literal block (|) when the text can be one
 * exactly, a double-quoted scalar otherwise. */
void yaml_kv_text(struct yaml *y, unsigned depth, const char *key, const char *text);

#endif

/* SPDX-License-Identifier: MIT */
/* yaml: the manifest writer; see yaml.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "k8s/yaml.h"

void yaml_init(struct yaml *y)
{
	memset(y, 0, sizeof(*y));
}

void yaml_release(struct yaml *y)
{
	free(y->buf);
	yaml_init(y);
}

int yaml_error(const struct yaml *y)
{
	return y->err;
}

static void yaml_put(struct yaml *y, const char *s, size_t n)
{
	if (y->err)
		return;
	if (y->len + n + 1 > y->cap) {
		size_t cap = y->cap ? y->cap : 4096;
		char *p;

		while (cap < y->len + n + 1) {
			if (cap > SIZE_MAX / 2) {
				y->err = -ENOMEM;
				return;
			}
			cap *= 2;
		}
		p = realloc(y->buf, cap);
		if (!p) {
			y->err = -ENOMEM;
			return;
		}
		y->buf = p;
		y->cap = cap;
	}
	memcpy(y->buf + y->len, s, n);
	y->len += n;
	y->buf[y->len] = '\0';
}

static void yaml_puts(struct yaml *y, const char *s)
{
	yaml_put(y, s, strlen(s));
}

static void yaml_indent(struct yaml *y, unsigned depth)
{
	static const char spaces[] = "                                ";

	for (size_t n = (size_t)depth * 2, k; n; n -= k) {
		k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		yaml_put(y, spaces, k);
	}
}

/* The code point at s (n bytes left) into *cp; its length, or 0 when the bytes are not UTF-8. */
static size_t yaml_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	uint32_t c;

	if (!len || len > n)
		return 0;
	c = len == 1 ? s[0] : (uint32_t)(s[0] & (0x7f >> len));
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

bool yaml_utf8_ok(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	for (size_t i = 0, len; i < n; i += len)
		if (!(len = yaml_utf8_next(p + i, n - i, &cp)))
			return false;
	return true;
}

/* A code point a YAML reader may take for a line break or drop (NEL and the other C1
 * controls, LS, PS, BOM) or that it refuses in plain text (C0 controls but tab, DEL). */
static bool yaml_needs_escape(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0xfeff;
}

bool yaml_plain_ok(const char *s)
{
	static const char *const words[] = { "y", "n", "yes", "no", "true", "false", "on", "off", "null" };

	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '/'))
		return false;
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-")])
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(s, words[i]))
			return false;
	return true;
}

static void yaml_quoted(struct yaml *y, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	yaml_put(y, "\"", 1);
	for (size_t i = 0, len; i < n && !y->err; i += len) {
		uint32_t cp;
		char esc[8];

		len = yaml_utf8_next(p + i, n - i, &cp);
		if (!len) {
			y->err = -EILSEQ;
			return;
		}
		if (cp == '"' || cp == '\\') {
			yaml_put(y, cp == '"' ? "\\\"" : "\\\\", 2);
		} else if (cp == '\n' || cp == '\t') {
			yaml_put(y, cp == '\n' ? "\\n" : "\\t", 2);
		} else if (yaml_needs_escape(cp)) {
			snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)cp);	/* 6 characters: always fits */
			yaml_put(y, esc, 6);
		} else {
			yaml_put(y, s + i, len);
		}
	}
	yaml_put(y, "\"", 1);
}

void yaml_scalar(struct yaml *y, const char *s)
{
	if (yaml_plain_ok(s))
		yaml_puts(y, s);
	else
		yaml_quoted(y, s);
}

void yaml_comment(struct yaml *y, const char *line)
{
	const unsigned char *p = (const unsigned char *)line;
	size_t n = strlen(line);
	uint32_t cp;

	for (size_t i = 0, len; i < n; i += len) {
		len = yaml_utf8_next(p + i, n - i, &cp);
		if (!len || yaml_needs_escape(cp)) {
			y->err = y->err ? y->err : -EILSEQ;
			return;
		}
	}
	yaml_put(y, "# ", 2);
	yaml_put(y, line, n);
	yaml_put(y, "\n", 1);
}

void yaml_doc(struct yaml *y)
{
	yaml_puts(y, "---\n");
}

static void yaml_key_colon(struct yaml *y, unsigned depth, const char *dash, const char *key)
{
	yaml_indent(y, depth);
	yaml_puts(y, dash);
	yaml_scalar(y, key);
	yaml_put(y, ":", 1);
}

/* [- ]KEY: VALUE */
static void yaml_entry(struct yaml *y, unsigned depth, const char *dash, const char *key, const char *value)
{
	yaml_key_colon(y, depth, dash, key);
	yaml_put(y, " ", 1);
	yaml_scalar(y, value);
	yaml_put(y, "\n", 1);
}

void yaml_kv(struct yaml *y, unsigned depth, const char *key, const char *value)
{
	yaml_entry(y, depth, "", key, value);
}

void yaml_kv_int(struct yaml *y, unsigned depth, const char *key, long long n)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", n);	/* at most 20 characters: always fits */
	yaml_key_colon(y, depth, "", key);
	yaml_put(y, " ", 1);
	yaml_puts(y, num);
	yaml_put(y, "\n", 1);
}

void yaml_kv_bool(struct yaml *y, unsigned depth, const char *key, bool b)
{
	yaml_key_colon(y, depth, "", key);
	yaml_puts(y, b ? " true\n" : " false\n");
}

void yaml_key(struct yaml *y, unsigned depth, const char *key)
{
	yaml_key_colon(y, depth, "", key);
	yaml_put(y, "\n", 1);
}

void yaml_item(struct yaml *y, unsigned depth, const char *value)
{
	yaml_indent(y, depth);
	yaml_put(y, "- ", 2);
	yaml_scalar(y, value);
	yaml_put(y, "\n", 1);
}

void yaml_item_kv(struct yaml *y, unsigned depth, const char *key, const char *value)
{
	yaml_entry(y, depth, "- ", key, value);
}

void yaml_item_key(struct yaml *y, unsigned depth, const char *key)
{
	yaml_key_colon(y, depth, "- ", key);
	yaml_put(y, "\n", 1);
}

/* Can text be a literal block scalar that reads back exactly? Then *indicator: whether its
 * first line with text starts with a blank (the indentation must then be given), *strip:
 * whether it has no final newline (chomping '-'). */
static bool yaml_literal_ok(const char *text, bool *indicator, bool *strip)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strlen(text);
	uint32_t cp;

	if (!n || (n >= 2 && text[n - 1] == '\n' && text[n - 2] == '\n'))
		return false;	/* clip chomping keeps one final newline, no more */
	for (size_t i = 0, len; i < n; i += len) {
		len = yaml_utf8_next(p + i, n - i, &cp);
		if (!len || (cp != '\n' && yaml_needs_escape(cp)))
			return false;
		if (cp == '\n' && i && (text[i - 1] == ' ' || text[i - 1] == '\t'))
			return false;	/* trailing blanks: kept by the readers, lost by editors */
	}
	if (text[n - 1] == ' ' || text[n - 1] == '\t')
		return false;
	*indicator = text[strspn(text, "\n")] == ' ';
	*strip = text[n - 1] != '\n';
	return true;
}

void yaml_kv_text(struct yaml *y, unsigned depth, const char *key, const char *text)
{
	bool indicator, strip;

	yaml_key_colon(y, depth, "", key);
	if (!yaml_literal_ok(text, &indicator, &strip)) {
		yaml_put(y, " ", 1);
		yaml_quoted(y, text);
		yaml_put(y, "\n", 1);
		return;
	}
	yaml_puts(y, indicator ? " |2" : " |");
	yaml_puts(y, strip ? "-\n" : "\n");
	for (const char *line = text; *line && !y->err;) {
		size_t len = strcspn(line, "\n");

		if (len) {
			yaml_indent(y, depth + 1);
			yaml_put(y, line, len);
		}
		yaml_put(y, "\n", 1);
		line += len + (line[len] == '\n');
	}
}

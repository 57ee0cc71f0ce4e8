/* SPDX-License-Identifier: MIT */
#include "core/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static void json_fail(struct json_writer *w, int err)
{
	if (!w->error)
		w->error = err;
}

static void json_indent(struct json_writer *w, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		fputs("  ", w->out);
}

unsigned json_utf8_len(const unsigned char *p)
{
	unsigned n, cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the terminating NUL */
			return 0;
		cp = (cp << 6) | (p[i] & 0x3fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static void json_escape(FILE *out, const char *s, bool del)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		unsigned n;

		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (*p < 0x20 || (del && *p == 0x7f)) {
				fprintf(out, "\\u%04x", (unsigned)*p);
				break;
			}
			n = json_utf8_len(p);
			if (!n) {	/* not UTF-8: the replacement character keeps JSON valid */
				fputs("\\ufffd", out);
				break;
			}
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
	fputc('"', out);
}

void json_write_escaped(FILE *out, const char *s)
{
	json_escape(out, s, false);
}

void json_write_escaped_del(FILE *out, const char *s)
{
	json_escape(out, s, true);
}

/* Separator, indent and `"key" : ` before a value in the current container. */
static bool json_pre(struct json_writer *w, const char *key)
{
	if (w->depth == 0) {
		if (key)
			json_fail(w, -EINVAL);
		return !w->error;
	}
	if (w->has_items[w->depth - 1])
		fputs(",\n", w->out);
	w->has_items[w->depth - 1] = true;
	json_indent(w, w->depth);
	if (!w->in_array[w->depth - 1]) {
		json_write_escaped(w->out, key ? key : "");
		fputs(" : ", w->out);
	}
	return true;
}

void json_init(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->error = 0;
}

static void json_open(struct json_writer *w, const char *key, bool array)
{
	if (w->depth >= JSON_MAX_DEPTH) {
		json_fail(w, -E2BIG);
		return;
	}
	if (!json_pre(w, key))
		return;
	fputs(array ? "[\n" : "{\n", w->out);
	w->has_items[w->depth] = false;
	w->in_array[w->depth] = array;
	w->depth++;
}

static void json_close(struct json_writer *w, bool array)
{
	if (w->depth == 0 || w->in_array[w->depth - 1] != array) {
		json_fail(w, -EINVAL);
		return;
	}
	w->depth--;
	fputc('\n', w->out);
	json_indent(w, w->depth);
	fputc(array ? ']' : '}', w->out);
}

void json_begin_object(struct json_writer *w, const char *key) { json_open(w, key, false); }
void json_end_object(struct json_writer *w) { json_close(w, false); }
void json_begin_array(struct json_writer *w, const char *key) { json_open(w, key, true); }
void json_end_array(struct json_writer *w) { json_close(w, true); }

void json_uint(struct json_writer *w, const char *key, uint64_t v)
{
	if (w->depth && json_pre(w, key))
		fprintf(w->out, "%" PRIu64, v);
}

void json_int(struct json_writer *w, const char *key, int64_t v)
{
	if (w->depth && json_pre(w, key))
		fprintf(w->out, "%" PRId64, v);
}

void json_float(struct json_writer *w, const char *key, double v)
{
	if (!isfinite(v))
		v = 0.0;
	if (w->depth && json_pre(w, key))
		fprintf(w->out, "%f", v);
}

double json_float_value(double v)
{
	char buf[400];	/* "%f" of any double fits */

	if (!isfinite(v))
		return 0.0;
	snprintf(buf, sizeof(buf), "%f", v);
	return strtod(buf, NULL);
}

void json_string(struct json_writer *w, const char *key, const char *v)
{
	if (!v || !*v)
		return;
	if (w->depth && json_pre(w, key))
		json_write_escaped(w->out, v);
}

int json_finish(struct json_writer *w)
{
	if (w->depth)
		json_fail(w, -EINVAL);
	fputc('\n', w->out);
	if (fflush(w->out) != 0 || ferror(w->out))
		json_fail(w, errno ? -errno : -EIO);
	return w->error;
}

/* SPDX-License-Identifier: MIT */
/* jsonr: recursive descent into a node array; see jsonr.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"

struct jsonr_ctx {
	struct jsonr *j;
	char *p, *end;		/* cursor in j->buf */
	struct iops_err *err;
};

static int jsonr_fail(struct jsonr_ctx *c, const char *what)
{
	iops_err_set(c->err, EINVAL, "invalid JSON at byte %zu: %s", (size_t)(c->p - c->j->buf), what);
	return -EINVAL;
}

static void jsonr_ws(struct jsonr_ctx *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int jsonr_new(struct jsonr_ctx *c, uint8_t type)
{
	struct jsonr *j = c->j;

	if (j->nr == j->cap) {
		uint32_t cap = j->cap ? j->cap * 2 : 64;
		struct jsonr_node *n;

		if (cap <= j->cap || !(n = realloc(j->nodes, (size_t)cap * sizeof(*n))))
			return -ENOMEM;
		j->nodes = n;
		j->cap = cap;
	}
	memset(&j->nodes[j->nr], 0, sizeof(j->nodes[0]));
	j->nodes[j->nr].type = type;
	return (int)j->nr++;
}

static int jsonr_hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char ch = s[i];
		unsigned d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
			d = (unsigned)((ch | 0x20) - 'a' + 10);
		else
			return -1;
		v = v * 16 + d;
	}
	*out = v;
	return 0;
}

static char *jsonr_utf8(char *w, unsigned cp)
{
	if (cp < 0x80) {
		*w++ = (char)cp;
	} else if (cp < 0x800) {
		*w++ = (char)(0xc0 | cp >> 6);
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xe0 | cp >> 12);
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*w++ = (char)(0xf0 | cp >> 18);
		*w++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	}
	return w;
}

/* A string at c->p (on its '"'), decoded in place: the result is never longer. */
static int jsonr_string(struct jsonr_ctx *c, const char **out)
{
	char *w = ++c->p, *start = w;

	for (;;) {
		unsigned char ch;

		if (c->p >= c->end)
			return jsonr_fail(c, "unterminated string");
		ch = (unsigned char)*c->p;
		if (ch == '"')
			break;
		if (ch < 0x20)
			return jsonr_fail(c, "control character in a string");
		if (ch != '\\') {
			*w++ = *c->p++;
			continue;
		}
		if (c->end - c->p < 2)
			return jsonr_fail(c, "unterminated escape");
		ch = (unsigned char)c->p[1];
		c->p += 2;
		switch (ch) {
		case '"': case '\\': case '/': *w++ = (char)ch; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (c->end - c->p < 4 || jsonr_hex4(c->p, &cp) < 0)
				return jsonr_fail(c, "bad \\u escape");
			c->p += 4;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return jsonr_fail(c, "lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
				    jsonr_hex4(c->p + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
					return jsonr_fail(c, "lone high surrogate");
				c->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			w = jsonr_utf8(w, cp);
			break;
		}
		default:
			return jsonr_fail(c, "unknown escape");
		}
	}
	c->p++;		/* the closing quote; w is at or before it */
	*w = '\0';
	*out = start;
	return 0;
}

static bool jsonr_digit(const struct jsonr_ctx *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

static int jsonr_number(struct jsonr_ctx *c, struct jsonr_node *n)
{
	char *start = c->p, *stop, saved;
	bool is_int = true;

	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (!jsonr_digit(c))
		return jsonr_fail(c, "unexpected character");
	if (*c->p == '0' && c->p + 1 < c->end && c->p[1] >= '0' && c->p[1] <= '9')
		return jsonr_fail(c, "leading zero");
	while (jsonr_digit(c))
		c->p++;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		is_int = false;
		if (!jsonr_digit(c))
			return jsonr_fail(c, "digit expected after '.'");
		while (jsonr_digit(c))
			c->p++;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		is_int = false;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!jsonr_digit(c))
			return jsonr_fail(c, "digit expected in the exponent");
		while (jsonr_digit(c))
			c->p++;
	}
	saved = *c->p;		/* the text is NUL-terminated one past end, so this is safe */
	*c->p = '\0';
	errno = 0;
	n->num = strtod(start, &stop);
	if (!isfinite(n->num)) {
		*c->p = saved;
		return jsonr_fail(c, "number out of range");
	}
	if (is_int) {
		errno = 0;
		n->i64 = strtoll(start, &stop, 10);
		n->is_int = errno == 0;
	}
	*c->p = saved;
	return 0;
}

static bool jsonr_word(struct jsonr_ctx *c, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n))
		return false;
	c->p += n;
	return true;
}

static int jsonr_value(struct jsonr_ctx *c, unsigned depth);

/* Array or object at c->p ('[' or '{'), node index idx. */
static int jsonr_container(struct jsonr_ctx *c, int idx, unsigned depth)
{
	bool obj = *c->p == '{';
	char close = obj ? '}' : ']';
	uint32_t last = 0;

	if (depth >= JSONR_MAX_DEPTH)
		return jsonr_fail(c, "nested too deeply");
	c->p++;
	jsonr_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		int ret, child;

		jsonr_ws(c);
		if (obj) {
			if (c->p >= c->end || *c->p != '"')
				return jsonr_fail(c, "object key expected");
			ret = jsonr_string(c, &key);
			if (ret)
				return ret;
			jsonr_ws(c);
			if (c->p >= c->end || *c->p != ':')
				return jsonr_fail(c, "':' expected");
			c->p++;
			jsonr_ws(c);
		}
		child = jsonr_value(c, depth + 1);
		if (child < 0)
			return child;
		c->j->nodes[child].key = key;
		if (last)
			c->j->nodes[last].next = (uint32_t)child;
		else
			c->j->nodes[idx].first = (uint32_t)child;
		last = (uint32_t)child;
		c->j->nodes[idx].count++;
		jsonr_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 0;
		}
		return jsonr_fail(c, obj ? "',' or '}' expected" : "',' or ']' expected");
	}
}

/* One value at c->p (blanks skipped); its node index or -errno. */
static int jsonr_value(struct jsonr_ctx *c, unsigned depth)
{
	int idx, ret = 0;

	if (c->p >= c->end)
		return jsonr_fail(c, "value expected");
	switch (*c->p) {
	case '{': case '[':
		idx = jsonr_new(c, *c->p == '{' ? JSONR_OBJ : JSONR_ARR);
		if (idx >= 0)
			ret = jsonr_container(c, idx, depth);
		break;
	case '"':
		idx = jsonr_new(c, JSONR_STR);
		if (idx >= 0)
			ret = jsonr_string(c, &c->j->nodes[idx].str);
		break;
	case 't': case 'f': case 'n':
		idx = jsonr_new(c, JSONR_NULL);
		if (idx < 0)
			break;
		if (jsonr_word(c, "true"))
			c->j->nodes[idx].type = JSONR_TRUE;
		else if (jsonr_word(c, "false"))
			c->j->nodes[idx].type = JSONR_FALSE;
		else if (!jsonr_word(c, "null"))
			ret = jsonr_fail(c, "unexpected word");
		break;
	default:
		idx = jsonr_new(c, JSONR_NUM);
		if (idx >= 0)
			ret = jsonr_number(c, &c->j->nodes[idx]);
		break;
	}
	if (idx < 0) {
		iops_err_set(c->err, ENOMEM, "out of memory reading JSON");
		return idx;
	}
	return ret ? ret : idx;
}

int jsonr_parse(struct jsonr *j, const char *text, size_t len, struct iops_err *err)
{
	struct jsonr_ctx c = { .j = j, .err = err };
	int ret;

	memset(j, 0, sizeof(*j));
	j->buf = malloc(len + 1);
	if (!j->buf) {
		iops_err_set(err, ENOMEM, "out of memory reading JSON");
		return -ENOMEM;
	}
	memcpy(j->buf, text, len);
	j->buf[len] = '\0';
	c.p = j->buf;
	c.end = j->buf + len;
	jsonr_ws(&c);
	ret = jsonr_value(&c, 0);
	if (ret >= 0) {
		jsonr_ws(&c);
		ret = c.p == c.end ? 0 : jsonr_fail(&c, "text after the document");
	}
	if (ret < 0)
		jsonr_free(j);
	return ret < 0 ? ret : 0;
}

void jsonr_free(struct jsonr *j)
{
	free(j->nodes);
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

const struct jsonr_node *jsonr_child(const struct jsonr *j, const struct jsonr_node *n, uint32_t i)
{
	uint32_t k;

	if (!n || (n->type != JSONR_ARR && n->type != JSONR_OBJ))
		return NULL;
	for (k = n->first; k && i; i--)
		k = j->nodes[k].next;
	return k ? &j->nodes[k] : NULL;
}

/* The child of n named by the path step [s, s+len). */
static const struct jsonr_node *jsonr_step(const struct jsonr *j, const struct jsonr_node *n,
					   const char *s, size_t len)
{
	if (n->type == JSONR_OBJ) {
		for (uint32_t k = n->first; k; k = j->nodes[k].next)
			if (!strncmp(j->nodes[k].key, s, len) && j->nodes[k].key[len] == '\0')
				return &j->nodes[k];
		return NULL;
	}
	if (n->type == JSONR_ARR && len && len < 10) {
		uint32_t i = 0;

		for (size_t k = 0; k < len; k++) {
			if (s[k] < '0' || s[k] > '9')
				return NULL;
			i = i * 10 + (uint32_t)(s[k] - '0');
		}
		return jsonr_child(j, n, i);
	}
	return NULL;
}

const struct jsonr_node *jsonr_get(const struct jsonr *j, const struct jsonr_node *from, const char *path)
{
	const struct jsonr_node *n = from ? from : (j->nr ? &j->nodes[0] : NULL);

	while (n && *path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		n = jsonr_step(j, n, path, len);
		path += len + (slash ? 1 : 0);
	}
	return n;
}

bool jsonr_num(const struct jsonr *j, const struct jsonr_node *from, const char *path, double *out)
{
	const struct jsonr_node *n = jsonr_get(j, from, path);

	if (!n || n->type != JSONR_NUM)
		return false;
	*out = n->num;
	return true;
}

const char *jsonr_str(const struct jsonr *j, const struct jsonr_node *from, const char *path)
{
	const struct jsonr_node *n = jsonr_get(j, from, path);

	return n && n->type == JSONR_STR ? n->str : NULL;
}

const char *jsonr_next_doc(const char *buf, size_t len, size_t *pos, size_t *doc_len)
{
	size_t i = *pos, depth = 0, start;
	bool str = false;

	while (i < len && !(buf[i] == '{' && (i == 0 || buf[i - 1] == '\n')))
		i++;
	if (i >= len) {
		*pos = len;
		return NULL;
	}
	for (start = i; i < len; i++) {
		char c = buf[i];

		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && !--depth) {
			i++;
			break;
		}
	}
	*pos = i < len ? i : len;
	*doc_len = *pos - start;
	return buf + start;
}

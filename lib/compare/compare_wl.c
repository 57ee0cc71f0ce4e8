/* SPDX-License-Identifier: MIT */
/* compare_wl: what makes two runs the same job; see compare_int.h. Values are compared
 * normalised: sizes in bytes (fio's suffixes, kb_base 1024, per-direction lists expanded),
 * numbers in decimal, booleans 0 or 1, rw's alias readwrite as rw, buffered=N as direct=!N. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/parse.h"

const char *const compare_wl_names[COMPARE_WL_NR] = {
	"rw", "bs", "iodepth", "numjobs", "size", "ioengine", "direct", "group_reporting",
};

/* fio's option names (and aliases) for each field */
static const struct {
	const char *key;
	enum compare_wl_field field;
} compare_wl_keys[] = {
	{ "rw", COMPARE_WL_RW }, { "readwrite", COMPARE_WL_RW }, { "bs", COMPARE_WL_BS },
	{ "blocksize", COMPARE_WL_BS }, { "iodepth", COMPARE_WL_IODEPTH }, { "numjobs", COMPARE_WL_NUMJOBS },
	{ "size", COMPARE_WL_SIZE }, { "ioengine", COMPARE_WL_ENGINE }, { "direct", COMPARE_WL_DIRECT },
	{ "buffered", COMPARE_WL_DIRECT }, { "group_reporting", COMPARE_WL_GROUP },
};

static void compare_wl_put(struct compare_wl *wl, enum compare_wl_field f, const char *raw, const char *norm)
{
	snprintf(wl->raw[f], sizeof(wl->raw[f]), "%s", raw);
	snprintf(wl->norm[f], sizeof(wl->norm[f]), "%s", norm);
	wl->known[f] = true;
}

void compare_wl_init(struct compare_wl *wl)
{
	static const char *const def[COMPARE_WL_NR][2] = {
		{ "read", "read" }, { "4k", "4096,4096,4096" }, { "1", "1" }, { "1", "1" }, { "", "" },
		{ "psync", "psync" }, { "0", "0" }, { "", "0" },
	};

	memset(wl, 0, sizeof(*wl));
	for (unsigned f = 0; f < COMPARE_WL_NR; f++)
		compare_wl_put(wl, f, def[f][0], def[f][1]);
}

/* bs: each direction's size in bytes ("4k,8k" -> "4096,8192,8192"); size: bytes. */
static void compare_wl_sizes(const char *v, bool list, char *out, size_t n)
{
	char parts[3][PARSE_DIR_PART_MAX];
	bool present[3];
	uint64_t b[3];
	int nr = list ? parse_dir_list(v, parts, present) : 1;

	if (!list)
		snprintf(parts[0], sizeof(parts[0]), "%s", v);
	for (int i = 0; i < (nr < 0 ? 0 : list ? 3 : 1); i++)
		if (parse_size(parts[i], 1024, &b[i]) < 0)
			nr = -1;
	if (nr < 0)
		snprintf(out, n, "%s", v);	/* not a size: compared as written */
	else if (list)
		snprintf(out, n, "%" PRIu64 ",%" PRIu64 ",%" PRIu64, b[0], b[1], b[2]);
	else
		snprintf(out, n, "%" PRIu64, b[0]);
}

int compare_wl_set(struct compare_wl *wl, const char *key, const char *value)
{
	char norm[COMPARE_WL_MAX];
	const char *v = value ? value : "";
	enum compare_wl_field f = COMPARE_WL_NR;
	int64_t i;
	bool b;

	for (size_t k = 0; k < sizeof(compare_wl_keys) / sizeof(compare_wl_keys[0]); k++)
		if (!strcmp(key, compare_wl_keys[k].key))
			f = compare_wl_keys[k].field;
	if (f == COMPARE_WL_NR)
		return 0;
	if (strlen(v) >= COMPARE_WL_MAX)	/* then every normalised form fits too (sizes: 62) */
		return -ENAMETOOLONG;
	memcpy(norm, v, strlen(v) + 1);
	switch (f) {
	case COMPARE_WL_RW:
		if (!strncmp(v, "readwrite", 9))
			snprintf(norm, sizeof(norm), "rw%s", v + 9);
		break;
	case COMPARE_WL_BS:
	case COMPARE_WL_SIZE:
		compare_wl_sizes(v, f == COMPARE_WL_BS, norm, sizeof(norm));
		break;
	case COMPARE_WL_IODEPTH:
	case COMPARE_WL_NUMJOBS:
		if (parse_int(v, 1024, &i) == 0)
			snprintf(norm, sizeof(norm), "%" PRId64, i);
		break;
	case COMPARE_WL_DIRECT:
	case COMPARE_WL_GROUP:
		if (parse_flag(v, &b, &i) == 0)
			snprintf(norm, sizeof(norm), "%d", b != !strcmp(key, "buffered"));
		break;
	default:
		break;
	}
	compare_wl_put(wl, f, strcmp(key, "buffered") ? v : norm, norm);	/* buffered=0: direct=1 */
	return 1;
}

/* Append "; " or ", " separated text to buf, with "..." once it is full. */
static void compare_wl_cat(char *buf, size_t n, size_t *len, const char *sep, const char *a, const char *b,
			   const char *c, const char *d)
{
	int w;

	if (*len + 4 >= n)
		return;
	w = snprintf(buf + *len, n - *len, "%s%s%s%s%s", *len ? sep : "", a, b, c, d);
	if (w < 0 || (size_t)w >= n - *len) {
		snprintf(buf + (n > 4 ? n - 4 : 0), n > 4 ? 4 : n, "...");
		*len = n;
		return;
	}
	*len += (size_t)w;
}

unsigned compare_wl_diff(const struct compare_wl *a, const struct compare_wl *b, char *buf, size_t n)
{
	unsigned nr = 0;
	size_t len = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned f = 0; f < COMPARE_WL_NR; f++) {
		char va[COMPARE_WL_MAX + 8], vb[COMPARE_WL_MAX + 8];

		if (!a->known[f] || !b->known[f] || !strcmp(a->norm[f], b->norm[f]))
			continue;
		nr++;
		snprintf(va, sizeof(va), "%s", a->raw[f][0] ? a->raw[f] : "(none)");
		snprintf(vb, sizeof(vb), " vs %s", b->raw[f][0] ? b->raw[f] : "(none)");
		compare_wl_cat(buf, n, &len, ", ", compare_wl_names[f], " ", va, vb);
	}
	return nr;
}

void compare_wl_line(const struct compare_wl *wl, char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned f = 0; f < COMPARE_WL_NR; f++)
		if (wl->known[f] && wl->raw[f][0])
			compare_wl_cat(buf, n, &len, " ", compare_wl_names[f], "=", wl->raw[f], "");
}

/* SPDX-License-Identifier: MIT */
#include "sys/mountinfo.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

/* Copy the space-delimited token at *p into dst (truncated to len-1), advance *p past it
 * and the following spaces. Returns false if there is no token. */
static bool next_token(const char **p, char *dst, size_t len)
{
	const char *s = *p, *e;
	size_t n;

	while (*s == ' ')
		s++;
	if (*s == '\0' || *s == '\n')
		return false;
	e = s;
	while (*e && *e != ' ' && *e != '\n')
		e++;
	n = (size_t)(e - s);
	if (dst && len) {
		if (n >= len)
			n = len - 1;
		memcpy(dst, s, n);
		dst[n] = '\0';
	}
	*p = e;
	return true;
}

/* Parse "<unsigned>:<unsigned>" strictly. */
static bool parse_devno(const char *tok, unsigned int *major, unsigned int *minor)
{
	char *end;
	unsigned long ma, mi;

	if (*tok < '0' || *tok > '9')
		return false;
	ma = strtoul(tok, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return false;
	mi = strtoul(end + 1, &end, 10);
	if (*end != '\0' || ma > 0xffffffffu || mi > 0xffffffffu)
		return false;
	*major = (unsigned int)ma;
	*minor = (unsigned int)mi;
	return true;
}

/* What a line must match: a /proc/self/mountinfo major:minor, or a /proc/mounts source
 * device whose st_rdev is dev. */
struct mount_match {
	unsigned int major, minor;
	dev_t dev;
};

/* A /proc/self/mountinfo line for the match's major:minor: fstype and source after " - ". */
static bool match_mountinfo_line(const char *line, const struct mount_match *m,
				 struct mountinfo_entry *out)
{
	char tok[64];
	unsigned int ma, mi;
	const char *p = line, *sep;

	if (!next_token(&p, NULL, 0) || !next_token(&p, NULL, 0))	/* id, parent id */
		return false;
	if (!next_token(&p, tok, sizeof(tok)) || !parse_devno(tok, &ma, &mi))
		return false;
	if (ma != m->major || mi != m->minor)
		return false;
	sep = strstr(p, " - ");
	if (!sep)
		return false;
	p = sep + 3;
	if (!next_token(&p, out->fstype, sizeof(out->fstype)))
		return false;
	if (!next_token(&p, out->source, sizeof(out->source)))
		out->source[0] = '\0';
	return true;
}

/* A /proc/mounts line "source mountpoint fstype ..." whose source device is the match's dev. */
static bool match_mounts_line(const char *line, const struct mount_match *m,
			      struct mountinfo_entry *out)
{
	const char *p = line;
	struct stat st;

	if (!next_token(&p, out->source, sizeof(out->source)) || !next_token(&p, NULL, 0) ||
	    !next_token(&p, out->fstype, sizeof(out->fstype)))
		return false;
	return stat(out->source, &st) == 0 && st.st_rdev == m->dev;
}

/* The first line of f that match() accepts fills *out. 0, -ENOENT, or -ENOMEM. */
static int mount_scan(FILE *f, const struct mount_match *m,
		      bool (*match)(const char *, const struct mount_match *, struct mountinfo_entry *),
		      struct mountinfo_entry *out)
{
	struct mountinfo_entry e;
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;

	errno = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (match(line, m, &e)) {
			*out = e;
			ret = 0;
			break;
		}
	}
	if (ret && errno == ENOMEM)
		ret = -ENOMEM;
	free(line);
	return ret;
}

int mountinfo_find(FILE *f, unsigned int major, unsigned int minor, struct mountinfo_entry *out)
{
	const struct mount_match m = { .major = major, .minor = minor };

	return mount_scan(f, &m, match_mountinfo_line, out);
}

int mountinfo_find_mounts(FILE *f, dev_t dev, struct mountinfo_entry *out)
{
	const struct mount_match m = { .dev = dev };

	return mount_scan(f, &m, match_mounts_line, out);
}

int mountinfo_lookup(dev_t dev, struct mountinfo_entry *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -ENOENT, open_err = 0;

	if (f) {
		ret = mountinfo_find(f, major(dev), minor(dev), out);
		fclose(f);
		if (ret != -ENOENT)
			return ret;
	} else {
		open_err = errno;
	}
	f = fopen("/proc/mounts", "re");
	if (!f)
		return open_err ? -open_err : -errno;
	ret = mountinfo_find_mounts(f, dev, out);
	fclose(f);
	return ret;
}

int mountinfo_fs_bytes(int fd, uint64_t *bytes)
{
	struct statvfs sv;

	if (fstatvfs(fd, &sv) < 0)
		return -errno;
	*bytes = (uint64_t)sv.f_frsize * (uint64_t)sv.f_blocks;
	return 0;
}

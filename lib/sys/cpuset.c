/* SPDX-License-Identifier: MIT */
/* cpuset: CPU and NUMA placement (cpuset.h). */
#include "sys/cpuset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned cpuset_count(const struct cpuset *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < CPUSET_WORDS; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

static const char *cpuset_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A decimal CPU number at *p: its value, p advanced; -1 when there is none or it is huge. */
static long cpuset_num(const char **p)
{
	const char *q = cpuset_blank(*p);
	long v = 0;

	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		v = v * 10 + (*q - '0');
		if (v > 1000000)
			return -1;
	}
	*p = cpuset_blank(q);
	return v;
}

int cpuset_parse_list(const char *str, unsigned limit, struct cpuset *s, unsigned *bad)
{
	const char *p = str;
	bool any = false;

	memset(s, 0, sizeof(*s));
	if (limit > CPUSET_MAX)
		limit = CPUSET_MAX;
	while (*p) {
		long lo, hi;

		p = cpuset_blank(p);
		if (*p == ',') {	/* empty item: fio skips it */
			p++;
			continue;
		}
		if (!*p)
			break;
		lo = cpuset_num(&p);
		if (lo < 0)
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = cpuset_num(&p);
			if (hi < 0 || hi < lo)
				return -EINVAL;
		}
		if (*p && *p != ',')
			return -EINVAL;
		for (long c = lo; c <= hi; c++) {
			if ((unsigned long)c >= limit) {
				*bad = (unsigned)c;
				return -ERANGE;
			}
			cpuset_add(s, (unsigned)c);
			any = true;
		}
	}
	return any ? 0 : -EINVAL;
}

int cpuset_parse_mask(const char *str, unsigned limit, struct cpuset *s, unsigned *bad)
{
	unsigned long long m;
	char *end;

	memset(s, 0, sizeof(*s));
	str = cpuset_blank(str);
	if (*str < '0' || *str > '9')
		return -EINVAL;
	errno = 0;
	m = strtoull(str, &end, 0);
	if (errno || *cpuset_blank(end) || m == 0)
		return -EINVAL;
	for (unsigned c = 0; c < 64; c++)
		if (m >> c & 1) {
			if (c >= limit) {
				*bad = c;
				return -ERANGE;
			}
			cpuset_add(s, c);
		}
	return 0;
}

int cpuset_max_node(const char *sysfs_node)
{
	DIR *dir = opendir(sysfs_node);
	struct dirent *e;
	int max = -ENOENT;

	if (!dir)
		return -ENOENT;
	while ((e = readdir(dir))) {
		char *end;
		long n;

		if (strncmp(e->d_name, "node", 4) || e->d_name[4] < '0' || e->d_name[4] > '9')
			continue;
		n = strtol(e->d_name + 4, &end, 10);
		if (!*end && n < CPUSET_MAX && n > max)
			max = (int)n;
	}
	closedir(dir);
	return max;
}

int cpuset_nodes_cpus(const char *sysfs_node, const char *list, struct cpuset *s)
{
	struct cpuset nodes, one;
	unsigned bad, found = 0;
	int ret = cpuset_parse_list(list, CPUSET_MAX, &nodes, &bad);
	int max = cpuset_max_node(sysfs_node);

	memset(s, 0, sizeof(*s));
	if (ret)
		return -EINVAL;
	for (unsigned n = max < 0 ? 0 : (unsigned)max + 1; n < CPUSET_MAX; n++)
		if (cpuset_has(&nodes, n))
			return -ERANGE;
	for (unsigned n = 0; n < CPUSET_MAX; n++) {
		char path[512], buf[4096];
		ssize_t len;
		int fd;

		if (!cpuset_has(&nodes, n))
			continue;
		snprintf(path, sizeof(path), "%s/node%u/cpulist", sysfs_node, n);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* a hole below the highest node */
		found++;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len < 0)
			return -ENOENT;
		buf[len] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (!buf[0])
			continue;	/* a memory-only node */
		if (cpuset_parse_list(buf, CPUSET_MAX, &one, &bad))
			return -EINVAL;
		for (unsigned i = 0; i < CPUSET_WORDS; i++)
			s->bits[i] |= one.bits[i];
	}
	return found ? 0 : -ENOENT;
}

void cpuset_split(struct cpuset *s, unsigned index)
{
	unsigned n = cpuset_count(s), want, seen = 0;

	if (!n)
		return;
	want = index % n;
	for (unsigned c = 0; c < CPUSET_MAX; c++)
		if (cpuset_has(s, c) && seen++ == want) {
			memset(s, 0, sizeof(*s));
			cpuset_add(s, c);
			return;
		}
}

int cpuset_parse_mpol(const char *str, int *mode, struct cpuset *nodes)
{
	static const struct { const char *name; int mode; bool list; } pols[] = {
		{ "default", CPUSET_MPOL_DEFAULT, false }, { "local", CPUSET_MPOL_LOCAL, false },
		{ "prefer", CPUSET_MPOL_PREFERRED, true }, { "bind", CPUSET_MPOL_BIND, true },
		{ "interleave", CPUSET_MPOL_INTERLEAVE, true },
	};
	const char *colon = strchr(str, ':');
	size_t n = colon ? (size_t)(colon - str) : strlen(str);
	unsigned bad;

	memset(nodes, 0, sizeof(*nodes));
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		if (strlen(pols[i].name) != n || strncmp(str, pols[i].name, n))
			continue;
		*mode = pols[i].mode;
		if (!pols[i].list)
			return colon ? -EINVAL : 0;
		if (!colon || cpuset_parse_list(colon + 1, CPUSET_MAX, nodes, &bad))
			return -EINVAL;
		/* prefer takes one node */
		return pols[i].mode == CPUSET_MPOL_PREFERRED && cpuset_count(nodes) != 1 ? -EINVAL : 0;
	}
	return -EINVAL;
}

int cpuset_apply(const struct cpuset *s)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned c = 0; c < CPUSET_MAX && c < CPU_SETSIZE; c++)
		if (cpuset_has(s, c))
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int cpuset_apply_mpol(int mode, const struct cpuset *nodes)
{
	bool empty = cpuset_count(nodes) == 0;

	if (syscall(SYS_set_mempolicy, mode, empty ? NULL : nodes->bits, empty ? 0ul : (unsigned long)CPUSET_MAX + 1))
		return -errno;
	return 0;
}

/* The CPUs the system has, as glibc's sysconf counts them (fio 3.33 is built with glibc): the
 * cpuN entries of /sys/devices/system/cpu (configured) or the CPUs of its "online" list. musl's
 * sysconf counts the CPUs this process may run on instead, fewer in a cpuset (taskset, docker
 * --cpuset-cpus=2,3), where fio's "CPU 3 too large (max=...)" limits would then refuse CPUs
 * the machine has. sysconf where sysfs does not answer. */
static unsigned cpuset_sysfs_count(bool online)
{
	unsigned n = 0;

	if (online) {
		FILE *f = fopen("/sys/devices/system/cpu/online", "re");
		char line[4096];
		struct cpuset s;
		unsigned bad;

		if (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!cpuset_parse_list(line, CPUSET_MAX, &s, &bad))
				n = cpuset_count(&s);
		}
		if (f)
			fclose(f);
	} else {
		DIR *d = opendir("/sys/devices/system/cpu");
		struct dirent *de;

		while (d && (de = readdir(d)) != NULL)
			if (!strncmp(de->d_name, "cpu", 3) && de->d_name[3] &&
			    strspn(de->d_name + 3, "0123456789") == strlen(de->d_name + 3))
				n++;
		if (d)
			closedir(d);
	}
	if (!n) {
		long v = sysconf(online ? _SC_NPROCESSORS_ONLN : _SC_NPROCESSORS_CONF);

		n = v < 1 ? 1 : v > CPUSET_MAX ? CPUSET_MAX : (unsigned)v;
	}
	return n > CPUSET_MAX ? CPUSET_MAX : n;
}

unsigned cpuset_nr_cpus(void)
{
	return cpuset_sysfs_count(false);
}

unsigned cpuset_nr_online(void)
{
	return cpuset_sysfs_count(true);
}

/* SPDX-License-Identifier: MIT */
/* cpuset: CPU and NUMA placement of a job's thread (fio's cpumask, cpus_allowed,
 * cpus_allowed_policy, numa_cpu_nodes, numa_mem_policy).
 *
 * A set is a plain bitmap of CPUSET_MAX CPUs (no libnuma: node CPUs come from
 * /sys/devices/system/node/nodeN/cpulist, the memory policy is the set_mempolicy system
 * call). Lists are fio's: "0-3,5,8-9" (blanks around items allowed, empty items skipped). */
#ifndef IOPS_CPUSET_H
#define IOPS_CPUSET_H

#include <stdbool.h>
#include <stdint.h>

#define CPUSET_MAX	1024
#define CPUSET_WORDS	(CPUSET_MAX / 64)

struct cpuset {
	uint64_t bits[CPUSET_WORDS];
};

/* numa_mem_policy modes, numbered as the kernel's MPOL_* */
enum cpuset_mpol { CPUSET_MPOL_DEFAULT = 0, CPUSET_MPOL_PREFERRED = 1, CPUSET_MPOL_BIND = 2,
		   CPUSET_MPOL_INTERLEAVE = 3, CPUSET_MPOL_LOCAL = 4 };

static inline void cpuset_add(struct cpuset *s, unsigned cpu)
{
	s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool cpuset_has(const struct cpuset *s, unsigned cpu)
{
	return cpu < CPUSET_MAX && (s->bits[cpu / 64] >> (cpu % 64) & 1);
}

unsigned cpuset_count(const struct cpuset *s);

/* "0-3,5" into s (cleared first); every CPU must be below limit. 0; -ERANGE with *bad the
 * first CPU at or over limit; -EINVAL for garbage, a reversed range or an empty list. */
int cpuset_parse_list(const char *str, unsigned limit, struct cpuset *s, unsigned *bad);
/* cpumask=N: bit i is CPU i (decimal, 0x hex or 0 octal, up to 64 CPUs). As above. */
int cpuset_parse_mask(const char *str, unsigned limit, struct cpuset *s, unsigned *bad);

/* The highest NUMA node of sysfs_node ("/sys/devices/system/node" outside tests), -ENOENT
 * when it lists none. */
int cpuset_max_node(const char *sysfs_node);

/* The CPUs of the NUMA nodes in list (a node list, same syntax), read from sysfs_node; nodes
 * the machine lacks below its highest are skipped: 0, -ERANGE for a node past its highest
 * (libnuma's "node argument N is out of range": fio refuses it), -ENOENT when none of them
 * exists, -EINVAL for garbage. */
int cpuset_nodes_cpus(const char *sysfs_node, const char *list, struct cpuset *s);

/* cpus_allowed_policy=split: the (index mod count)-th CPU of s alone (s unchanged when empty). */
void cpuset_split(struct cpuset *s, unsigned index);

/* numa_mem_policy: "default", "local", "prefer:N", "bind:LIST", "interleave:LIST" into *mode
 * and *nodes (node bitmap). 0 or -EINVAL. */
int cpuset_parse_mpol(const char *str, int *mode, struct cpuset *nodes);

/* Pin the calling thread to s: 0 or -errno. */
int cpuset_apply(const struct cpuset *s);
/* set_mempolicy() for the calling thread: 0 or -errno. */
int cpuset_apply_mpol(int mode, const struct cpuset *nodes);

/* CPUs the system has (configured) and of them online, as glibc counts them (sysfs: not the
 * CPUs this process may use, which musl's sysconf counts), at least 1, at most CPUSET_MAX. */
unsigned cpuset_nr_cpus(void);
unsigned cpuset_nr_online(void);

#endif

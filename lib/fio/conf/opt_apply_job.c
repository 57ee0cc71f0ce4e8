/* SPDX-License-Identifier: MIT */
/* opt_apply_job: the job itself: its name and description, what it waits for, how many
 * copies run, how long, how often it repeats, threads or processes, groups. */
#include "fio/conf/opt_apply.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "sys/cpuset.h"
#include "fio/control/steadystate.h"

#define NS_PER_S	1000000000ull

APPLY(opt_apply_name)
{
	char buf[JOB_NAME_MAX];

	if (!val || parse_strip(val, buf, sizeof(buf)) || !buf[0]) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	memcpy(oj->j.name, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_description)
{
	(void)od; (void)d;
	return opt_value_set_str(&oj->j.description, val);
}

APPLY(opt_apply_wait_for)
{
	if (!val || !*val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_set_str(&oj->wait_for_name, val);
}

APPLY(opt_apply_numjobs)
{
	int64_t v;
	unsigned n;

	/* fio accepts 0 and negative counts while parsing, then fails with these two lines */
	if (val && !parse_int(val, opt_value_kb_of(oj), &v) && v <= 0) {
		opt_diag_add(d, false, "error: maximum number of jobs reached.");
		opt_diag_add(d, false, "error: failed to setup shm segment");
		return -EINVAL;
	}
	if (opt_value_get_uint(oj, od, val, d, &n))
		return -EINVAL;
	oj->j.numjobs = n;
	return 0;
}

APPLY(opt_apply_runtime)
{
	int ret = opt_value_get_time(od, val, d, &oj->j.runtime_ns);

	if (!ret)
		oj->runtime_set = true;
	return ret;
}

APPLY(opt_apply_ramp_time)
{
	return opt_value_get_time(od, val, d, &oj->j.ramp_time_ns);
}

APPLY(opt_apply_startdelay)
{
	uint64_t lo, hi;
	char buf[128];
	char *dash;

	if (val && !parse_strip(val, buf, sizeof(buf)) && (dash = strchr(buf, '-')) != NULL) {
		*dash = '\0';
		if (!parse_time_ns(buf, NS_PER_S, &lo) && !parse_time_ns(dash + 1, NS_PER_S, &hi)) {
			opt_diag_add(d, false, "fio: option 'startdelay' with a range is not supported by iops");
			return -EINVAL;
		}
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return opt_value_get_time(od, val, d, &oj->j.startdelay_ns);
}

/* ---- placement: cpumask, cpus_allowed, cpus_allowed_policy, numa_cpu_nodes, numa_mem_policy ---- */

/* A CPU list as fio's set_cpus_allowed() reads it: without blanks at its ends (cut at a ';' or
 * '#'), items at ',' (an empty one ends the list), each "a" or "a-b" read with atoi (garbage is
 * CPU 0, "-1" is 0, "1-0" nothing, " 2" 2), every CPU from a to b set in turn ("set cpu allowed
 * N" with --debug=parse), one past the machine's refused.
 * An empty set is taken: the job fails when it starts, as fio's. 0 or -EINVAL. */
int opt_apply_cpu_list(const char *val, struct cpuset *set, struct opt_diag *d)
{
	unsigned limit = cpuset_nr_cpus();
	char buf[4096];
	const char *p = buf;
	size_t len;

	memset(set, 0, sizeof(*set));
	while (isspace((unsigned char)*val))
		val++;
	len = opt_value_blank_end(val);
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;	/* past 4095 characters every CPU is out of range */
	memcpy(buf, val, len);
	buf[len] = '\0';
	while (p && *p) {
		size_t n = strcspn(p, ",");
		char item[64];
		const char *dash;
		int lo, hi = -1;

		if (!n)
			break;
		if (n >= sizeof(item))
			n = sizeof(item) - 1;
		memcpy(item, p, n);
		item[n] = '\0';
		/* the item's pieces at '-': the last non-empty one before an empty one is its end */
		for (const char *q = item; q; q = dash ? dash + 1 : NULL) {
			dash = strchr(q, '-');
			if (dash == q || !*q)
				break;
			hi = (int)strtol(q, NULL, 10);
		}
		dash = strchr(item, '-');
		lo = dash == item ? 0 : (int)strtol(item, NULL, 10);
		if (hi == -1)
			hi = lo;
		for (int c = lo; c <= hi; c++) {
			if (c < 0 || (unsigned)c >= CPUSET_MAX) {
				opt_diag_add(d, false, "fio: your OS only supports up to %d CPUs", CPUSET_MAX);
				return -EINVAL;
			}
			if ((unsigned)c >= limit) {
				opt_diag_add(d, false, "fio: CPU %d too large (max=%u)", c, limit - 1);
				return -EINVAL;
			}
			opt_diag_debug(d, "set cpu allowed %d", c);
			cpuset_add(set, (unsigned)c);
		}
		p = p[strcspn(p, ",")] ? p + strcspn(p, ",") + 1 : NULL;
	}
	return 0;
}

APPLY(opt_apply_cpumask)
{
	unsigned limit = cpuset_nr_cpus();
	int64_t m;

	/* fio's str_cpumask_cb(): the bits of the number, 0 to 31, in turn */
	if (!val || parse_int(val, 1024, &m)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	memset(&oj->j.cpus, 0, sizeof(oj->j.cpus));
	for (unsigned c = 0; c < 32; c++)	/* fio tests bit 31 with (1 << 31) sign-extended: any
						 * bit from 31 up (1t is CPU 31) */
		if (c < 31 ? (uint64_t)m >> c & 1 : (uint64_t)m >> 31 != 0) {
			if (c >= limit) {
				opt_diag_add(d, false, "fio: CPU %u too large (max=%u)", c, limit - 1);
				opt_value_failed(d, od, val);
				return -EINVAL;
			}
			opt_diag_debug(d, "set cpu allowed %u", c);
			cpuset_add(&oj->j.cpus, c);
		}
	oj->j.cpus_set = true;
	return 0;
}

APPLY(opt_apply_cpus_allowed)
{
	if (!val || opt_apply_cpu_list(val, &oj->j.cpus, d)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.cpus_set = true;
	return 0;
}

const struct opt_choice opt_apply_cpus_policy_choices[] = {
	{ .word = "shared", .help = "Every job may run on every CPU of the set", .value = 0 },
	{ .word = "split", .help = "Each job runs on one CPU of the set, in turn", .value = 1 },
	{ .word = NULL },
};

APPLY(opt_apply_cpus_allowed_policy)
{
	int v;
	int ret = opt_value_get_choice(od, val, d, &v);

	if (!ret)
		oj->j.cpus_split = v == 1;
	return ret;
}

#define SYSFS_NODES "/sys/devices/system/node"

/* A node list as libnuma reads it for fio: no empty item, no node past the machine's last.
 * What is wrong goes to job->numa_bad, for the check of a run (fioconf). */
static void numa_nodes_check(struct job *job, const struct opt_def *od, const char *shown, const char *val)
{
	int max = cpuset_max_node(SYSFS_NODES);
	size_t l = strlen(val);
	struct cpuset nodes;
	unsigned bad;

	if (job->numa_bad[0])
		return;
	if (!l || val[0] == ',' || val[l - 1] == ',' || strstr(val, ",,")) {
		(void)snprintf(job->numa_bad, sizeof(job->numa_bad), "fio: %s=%.40s: an empty node in the list\n"
			       "fio: failed parsing %s=%.40s", od->name, shown, od->name, shown);
		return;
	}
	if (cpuset_parse_list(val, CPUSET_MAX, &nodes, &bad))
		return;
	for (unsigned n = max < 0 ? 0 : (unsigned)max + 1; n < CPUSET_MAX; n++)
		if (cpuset_has(&nodes, n)) {
			(void)snprintf(job->numa_bad, sizeof(job->numa_bad),
				       "fio: %s=%.40s: node %u is out of range (this machine's last is node %d)\n"
				       "fio: failed parsing %s=%.40s", od->name, shown, n, max, od->name, shown);
			return;
		}
}

APPLY(opt_apply_numa_cpu_nodes)
{
	int ret = val ? cpuset_nodes_cpus(SYSFS_NODES, val, &oj->j.numa_cpus) : -EINVAL;

	if (ret == -ERANGE) {	/* taken while parsing, as fio --parse-only takes it */
		numa_nodes_check(&oj->j, od, val, val);
		return 0;
	}
	if (ret) {
		opt_diag_add(d, false, "fio: numa_parse_nodestring failed");
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	numa_nodes_check(&oj->j, od, val, val);
	oj->j.numa_cpus_set = true;
	return 0;
}

APPLY(opt_apply_numa_mem_policy)
{
	if (!val || cpuset_parse_mpol(val, &oj->j.mpol_mode, &oj->j.mpol_nodes)) {
		opt_diag_add(d, false, "fio: memory policy should be: default, prefer, bind, interleave, local");
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (strchr(val, ':'))
		numa_nodes_check(&oj->j, od, val, strchr(val, ':') + 1);
	oj->j.mpol_set = true;
	return 0;
}

/* ---- exitall, exit_what, exitall_on_error ---- */

const struct opt_choice opt_apply_exit_what_choices[] = {
	{ .word = "group", .help = "End the other jobs of the job's group (exitall's default)", .value = EXIT_GROUP },
	{ .word = "stonewall", .help = "End the jobs running now; the next stonewall still starts", .value = EXIT_STONEWALL },
	{ .word = "all", .help = "End every job and start no more", .value = EXIT_ALL },
	{ .word = NULL },
};

/* ---- steady state (fio/control/steadystate.h) ---- */

const struct opt_choice opt_apply_ss_choices[] = {
	{ .word = "iops", .help = "maximum mean deviation of IOPS measurements", .value = 0 },
	{ .word = "iops_slope", .help = "slope calculated from IOPS measurements", .value = 1 },
	{ .word = "bw", .help = "maximum mean deviation of bandwidth measurements", .value = 2 },
	{ .word = "bw_slope", .help = "slope calculated from bandwidth measurements", .value = 3 },
	{ .word = NULL },
};

APPLY(opt_apply_ss)
{
	char line[128];
	int r = ss_parse(val, opt_value_kb_of(oj), &oj->j.ss);

	switch (r) {
	case 0:
		ss_parse_debug_line(&oj->j.ss, line, sizeof(line));
		opt_diag_debug(d, "%s", line);
		return 0;
	case SS_E_CRITERION:
		opt_value_failed(d, od, val);
		opt_value_choices(d, od);
		return -EINVAL;
	case SS_E_NO_LIMIT:
		opt_diag_add(d, false, "fio: steadystate threshold must be specified in addition to criterion");
		break;
	case SS_E_IOPS_LIMIT:
		opt_diag_add(d, false, "fio: steadystate IOPS threshold postfix parsing failed");
		break;
	case SS_E_BW_LIMIT:
		opt_diag_add(d, false, "fio: steadystate BW threshold postfix parsing failed");
		break;
	default:
		opt_diag_add(d, false, "fio: could not parse steadystate threshold percentage");
		break;
	}
	opt_value_failed(d, od, val);
	return -EINVAL;
}

APPLY(opt_apply_ss_dur)
{
	uint64_t ns;

	if (opt_value_get_time(od, val, d, &ns))
		return -EINVAL;
	if (ns / NS_PER_S > SS_MAX_WINDOW) {
		opt_diag_add(d, false, "fio: %s: at most %u seconds", od->name, SS_MAX_WINDOW);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.ss.dur_ns = ns / NS_PER_S * NS_PER_S;	/* whole seconds, as fio */
	return 0;
}

APPLY(opt_apply_ss_ramp)
{
	return opt_value_get_time(od, val, d, &oj->j.ss.ramp_ns);
}

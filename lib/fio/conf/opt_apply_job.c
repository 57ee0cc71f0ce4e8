/* opt_apply_job: the job itself: its name and description, what it waits for, how many
 * copies run, how long, how often it repeats, threads or processes, groups. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"
#include "sys/cpuset.h"
#include "fio/control/steadystate.h"

#define NS_PER_S	1000000000ull

APPLY(opt_apply_name)
{
	char buf[JOB_NAME_MAX];

	if (!val || parse_strip(val, buf, sizeof(buf)) || !buf[0]) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	memcpy(oj->j.name, buf, sizeof(buf));
	return 0;
}

APPLY(opt_apply_description)
{
	(void)od; (void)d;
	return opt_apply_set_str(&oj->j.description, val);
}

APPLY(opt_apply_wait_for)
{
	if (!val || !*val) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	return opt_apply_set_str(&oj->wait_for_name, val);
}

APPLY(opt_apply_numjobs)
{
	int64_t v;
	unsigned n;

	/* fio accepts 0 and negative counts while parsing, then fails with these two lines */
	if (val && !parse_int(val, opt_apply_kb_of(oj), &v) && v <= 0) {
		opt_diag_add(d, false, "error: maximum number of jobs reached.");
		opt_diag_add(d, false, "error: failed to setup shm segment");
		return -EINVAL;
	}
	if (opt_apply_get_uint(oj, od, val, d, &n))
		return -EINVAL;
	oj->j.numjobs = n;
	return 0;
}

APPLY(opt_apply_runtime)
{
	int ret = opt_apply_get_time(od, val, d, &oj->j.runtime_ns);

	if (!ret)
		oj->runtime_set = true;
	return ret;
}

APPLY(opt_apply_ramp_time)
{
	return opt_apply_get_time(od, val, d, &oj->j.ramp_time_ns);
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
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	return opt_apply_get_time(od, val, d, &oj->j.startdelay_ns);
}

/* ---- placement: cpumask, cpus_allowed, cpus_allowed_policy, numa_cpu_nodes, numa_mem_policy ---- */

static int opt_apply_cpus(struct opt_job *oj, const struct opt_def *od, const char *val,
			  struct opt_diag *d, bool mask)
{
	unsigned limit = cpuset_nr_cpus(), bad = 0;
	int ret;

	if (!val) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	ret = mask ? cpuset_parse_mask(val, limit, &oj->j.cpus, &bad)
		   : cpuset_parse_list(val, limit, &oj->j.cpus, &bad);
	if (ret == -ERANGE)
		opt_diag_add(d, false, "fio: CPU %u too large (max=%u)", bad, limit - 1);
	if (ret) {
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.cpus_set = true;
	return 0;
}

APPLY(opt_apply_cpumask)
{
	return opt_apply_cpus(oj, od, val, d, true);
}

APPLY(opt_apply_cpus_allowed)
{
	return opt_apply_cpus(oj, od, val, d, false);
}

const struct opt_choice opt_apply_cpus_policy_choices[] = {
	OPT_CHOICE("shared", "Every job may run on every CPU of the set", 0),
	OPT_CHOICE("split", "Each job runs on one CPU of the set, in turn", 1),
	{ NULL, 0 },
};

APPLY(opt_apply_cpus_allowed_policy)
{
	int v;
	int ret = opt_apply_get_choice(od, val, d, &v);

	if (!ret)
		oj->j.cpus_split = v == 1;
	return ret;
}

APPLY(opt_apply_numa_cpu_nodes)
{
	if (!val || cpuset_nodes_cpus("/sys/devices/system/node", val, &oj->j.numa_cpus)) {
		opt_diag_add(d, false, "fio: numa_parse_nodestring failed");
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.numa_cpus_set = true;
	return 0;
}

APPLY(opt_apply_numa_mem_policy)
{
	if (!val || cpuset_parse_mpol(val, &oj->j.mpol_mode, &oj->j.mpol_nodes)) {
		opt_diag_add(d, false, "fio: memory policy should be: default, prefer, bind, interleave, local");
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.mpol_set = true;
	return 0;
}

/* ---- exitall, exit_what, exitall_on_error ---- */

const struct opt_choice opt_apply_exit_what_choices[] = {
	OPT_CHOICE("group", "End the other jobs of the job's group (exitall's default)", EXIT_GROUP),
	OPT_CHOICE("stonewall", "End the jobs running now; the next stonewall still starts", EXIT_STONEWALL),
	OPT_CHOICE("all", "End every job and start no more", EXIT_ALL),
	{ NULL, 0 },
};

/* ---- steady state (fio/control/steadystate.h) ---- */

const struct opt_choice opt_apply_ss_choices[] = {
	OPT_CHOICE("iops", "maximum mean deviation of IOPS measurements", 0),
	OPT_CHOICE("iops_slope", "slope calculated from IOPS measurements", 1),
	OPT_CHOICE("bw", "maximum mean deviation of bandwidth measurements", 2),
	OPT_CHOICE("bw_slope", "slope calculated from bandwidth measurements", 3),
	{ NULL, 0 },
};

APPLY(opt_apply_ss)
{
	char line[128];
	int r = ss_parse(val, opt_apply_kb_of(oj), &oj->j.ss);

	switch (r) {
	case 0:
		ss_parse_debug_line(&oj->j.ss, line, sizeof(line));
		opt_diag_debug(d, "%s", line);
		return 0;
	case SS_E_CRITERION:
		opt_apply_failed(d, od, val);
		opt_diag_choices(d, od);
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
	opt_apply_failed(d, od, val);
	return -EINVAL;
}

APPLY(opt_apply_ss_dur)
{
	uint64_t ns;

	if (opt_apply_get_time(od, val, d, &ns))
		return -EINVAL;
	if (ns / NS_PER_S > SS_MAX_WINDOW) {
		opt_diag_add(d, false, "fio: %s: at most %u seconds", od->name, SS_MAX_WINDOW);
		opt_apply_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.ss.dur_ns = ns / NS_PER_S * NS_PER_S;	/* whole seconds, as fio */
	return 0;
}

APPLY(opt_apply_ss_ramp)
{
	return opt_apply_get_time(od, val, d, &oj->j.ss.ramp_ns);
}

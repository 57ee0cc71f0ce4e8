/* SPDX-License-Identifier: MIT */
/* opt_apply_report: what the report shows and how (percentiles, units, precision, groups,
 * unified directions), and the bandwidth, IOPS and latency logs. */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/parse.h"
#include "sys/cpuset.h"

APPLY(opt_apply_percentile_list)
{
	double vals[JOB_MAX_PERCENTILES];
	unsigned nr, prec;
	double bad = 0;
	int ret;

	if (!val) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	ret = parse_float_list(val, vals, JOB_MAX_PERCENTILES, &nr, &prec, 0.0, 100.0, &bad);
	if (ret == -ERANGE) {
		opt_diag_add(d, false, "value out of range: %f (range %s: %f)", bad,
			     bad < 0 ? "min" : "max", bad < 0 ? 0.0 : 100.0);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (ret == -E2BIG) {
		opt_diag_add(d, false, "the list exceeding max length %d", JOB_MAX_PERCENTILES);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (ret) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	memcpy(oj->j.percentiles, vals, nr * sizeof(vals[0]));
	oj->j.nr_percentiles = nr;
	oj->j.percentile_precision = prec;
	return 0;
}

const struct opt_choice opt_apply_kb_base_choices[] = {
	{ .word = "1024", .help = "k/m/g mean 1024^n, ki/mi/gi 1000^n (legacy); binary units shown", .value = 1024 },
	{ .word = "1000", .help = "k/m/g mean 1000^n, ki/mi/gi 1024^n; decimal units shown", .value = 1000 },
	{ .word = NULL },
};

const struct opt_choice opt_apply_unit_base_choices[] = {
	{ .word = "0", .help = "Chosen automatically", .value = 0 },
	{ .word = "8", .help = "Figures in bytes", .value = 8 },
	{ .word = "1", .help = "Figures in bits", .value = 1 },
	{ .word = NULL },
};

/* unified_rw_reporting (unified.h): fio's words and numeric aliases */
const struct opt_choice opt_apply_unified_rw_reporting_choices[] = {
	{ .word = "none", .help = "One block per direction (the default)", .value = 0 },
	{ .word = "mixed", .help = "One merged block in place of read, write and trim", .value = 1 },
	{ .word = "both", .help = "The per-direction blocks, then the merged one", .value = 2 },
	{ .word = "0", .help = "Same as none", .value = 0 },
	{ .word = "1", .help = "Same as mixed", .value = 1 },
	{ .word = "2", .help = "Same as both", .value = 2 },
	{ .word = NULL },
};

/* ------------------------------------------------------------------------------------------ */
/* logs: write_bw_log / write_iops_log / write_lat_log and their options (lib/iolog.h) */

APPLY(opt_apply_write_log)
{
	(void)d;
	/* write_Bw_log, write_Iops_log, write_Lat_log; no value: "" = the job's name */
	return opt_value_set_str(&oj->j.log_prefix[od->name[6] == 'b' ? 0 : od->name[6] == 'i' ? 1 : 2], val);
}

APPLY(opt_apply_log_flag)
{
	bool b;
	int ret = opt_value_get_bool(oj, od, val, d, &b);

	if (ret)
		return ret;
	switch (od->name[4]) {	/* log_Max_value, log_Offset, log_Prio, per_Job_logs */
	case 'm':
		oj->j.log_max_value = b;
		break;
	case 'o':
		oj->j.log_offset = b;
		break;
	case 'p':
		oj->j.log_prio = b;
		break;
	case 's':	/* log_Store_compressed */
		oj->j.log_store_zip = b;
		break;
	default:
		oj->j.per_job_logs = b;
	}
	return 0;
}

/* log_compression_cpus: a CPU list read as cpus_allowed's (fio's set_cpus_allowed() too). */
APPLY(opt_apply_log_compression_cpus)
{
	struct cpuset set;

	if (!val || opt_apply_cpu_list(val, &set, d)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	_Static_assert(sizeof(oj->j.log_zip_cpus) == sizeof(set.bits), "a CPU set is 1024 bits");
	memcpy(oj->j.log_zip_cpus, set.bits, sizeof(set.bits));
	return 0;
}

/* bwavgtime / iopsavgtime: only 500, but given explicitly it keeps the sampling at 500 ms when
 * a bw / iops log is averaged (fio: log window = min(log_avg_msec, bwavgtime)). */
APPLY(opt_apply_avgtime)
{
	int ret = opt_apply_only_default(oj, od, val, d);

	if (!ret && od->name[0] == 'b')
		oj->j.bw_avg_time_set = true;
	else if (!ret)
		oj->j.iops_avg_time_set = true;
	return ret;
}

/* ---- write_hist_log (fio/log/histlog.h) ---- */

APPLY(opt_apply_write_hist_log)
{
	(void)od;
	(void)d;
	return opt_value_set_str(&oj->j.log_prefix[3], val);
}

APPLY(opt_apply_log_hist_msec)
{
	int64_t v;

	if (opt_value_get_int(oj, od, val, d, &v))
		return -EINVAL;
	oj->j.log_hist_msec = (uint64_t)v;
	return 0;
}

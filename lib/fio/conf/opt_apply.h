/* SPDX-License-Identifier: MIT */
/* opt_apply: how each option's value is parsed into a job under construction (fio/conf/opt_table.c's
 * table points here). Internal to the opt module: callers use opt_apply() from opt.h. Every
 * function returns 0, or -EINVAL (-ENOMEM) with fio's message lines added to d.
 *
 * The appliers live by topic: opt_apply_job.c (name, copies, timing), opt_apply_files.c
 * (files, sizes, how they are opened and synced), opt_apply_io.c (pattern, engine, depths),
 * opt_apply_report.c (report and logs), opt_apply_verify.c; opt_apply.c has the appliers
 * that store a value as is and the options iops takes at one value only. The value-reading
 * helpers they share are opt_value.h's. */
#ifndef IOPS_OPT_APPLY_H
#define IOPS_OPT_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/conf/opt.h"
#include "fio/conf/opt_value.h"
#include "sys/cpuset.h"

/* ---- for the opt_apply_*.c files ---- */

/* An applier's definition: APPLY(opt_apply_x) { ... } with oj, od, val and d in scope. */
#define APPLY(fn) int fn(struct opt_job *oj, const struct opt_def *od, const char *val, \
				struct opt_diag *d)

/* An applier that stores an unsigned (bool) into oj->j.field; extra runs after a success. */
#define UINT_FIELD_APPLY(fn, field, extra) \
	APPLY(fn) \
	{ \
		unsigned v; \
		int ret = opt_value_get_uint(oj, od, val, d, &v); \
		if (ret) \
			return ret; \
		oj->j.field = v; \
		extra; \
		return 0; \
	}

/* The appliers of the entries that store the value as is in a field of the job: an unsigned
 * number, a bool, a 64-bit number, the value of a word (the entry's field is its offset in
 * struct opt_job, opt_table.c's O_UINT, O_BOOL, O_U64 and O_WORD). */
opt_apply_fn opt_apply_uint_field, opt_apply_bool_field, opt_apply_u64_field, opt_apply_word_field;

/* A CPU list as fio reads it (cpus_allowed, log_compression_cpus: opt_apply_job.c): 0 or -EINVAL
 * with fio's line in d. */
int opt_apply_cpu_list(const char *val, struct cpuset *set, struct opt_diag *d);

/* An engine iops knows but this build leaves out: adds the one line why ("fio: engine rbd needs
 * librbd, which...") and returns -EINVAL; 0 if iops does not know it (opt_apply_engine.c). */
int opt_apply_engine_refuse(const char *name, struct opt_diag *d);
/* Check and complete a job's engine options once all are read: -EINVAL with d filled. */
int opt_apply_engine_derive(struct opt_job *oj, struct opt_diag *d);
extern const struct opt_choice opt_apply_cpumode_choices[];
extern const struct opt_choice opt_apply_protocol_choices[];
extern const struct opt_choice opt_apply_stat_type_choices[];
/* engine options (opt_apply_engine.c) */
opt_apply_fn opt_apply_cpuchunks;
opt_apply_fn opt_apply_program, opt_apply_arguments, opt_apply_grace_time;
opt_apply_fn opt_apply_hostname, opt_apply_protocol;
opt_apply_fn opt_apply_interface;
opt_apply_fn opt_apply_donorname, opt_apply_inplace;
/* io_uring, libaio, pvsync2 (opt_apply_aio.c): every one of their options, and the check that
 * the job's engine takes those it was given (called by opt_apply_engine_derive) */
opt_apply_fn opt_apply_aio;
int opt_apply_aio_check(struct opt_job *oj, struct opt_diag *d);
/* ---- the appliers the table points to ---- */

/* latency target, fill, sequencing, write hints, log clocks (opt_apply_lat.c) */
opt_apply_fn opt_apply_latency_target, opt_apply_latency_window, opt_apply_latency_percentile;
opt_apply_fn opt_apply_rw_sequencer, opt_apply_sync_file_range;
opt_apply_fn opt_apply_gtod_cpu;
opt_apply_fn opt_apply_log_epoch_clock;
extern const struct opt_choice opt_apply_rw_sequencer_choices[];
extern const struct opt_choice opt_apply_write_hint_choices[];
extern const struct opt_choice opt_apply_sfr_choices[];
/* Once all options are read: fill_device's workload. -EINVAL with d filled. */
int opt_apply_lat_derive(struct opt_job *oj, struct opt_diag *d);

opt_apply_fn opt_apply_accept_bool;
opt_apply_fn opt_apply_ss, opt_apply_ss_dur, opt_apply_ss_ramp;	/* steady state */
opt_apply_fn opt_apply_write_hist_log, opt_apply_log_hist_msec;
extern const struct opt_choice opt_apply_ss_choices[];
opt_apply_fn opt_apply_accept_int;
opt_apply_fn opt_apply_avgtime;
opt_apply_fn opt_apply_ba;
opt_apply_fn opt_apply_bs;
opt_apply_fn opt_apply_bsrange;
opt_apply_fn opt_apply_bssplit;		/* dist */
opt_apply_fn opt_apply_random_distribution;
opt_apply_fn opt_apply_buffered;
opt_apply_fn opt_apply_complete_max;
opt_apply_fn opt_apply_description;
opt_apply_fn opt_apply_directory;
opt_apply_fn opt_apply_offset_increment;
opt_apply_fn opt_apply_filename;
opt_apply_fn opt_apply_filename_format;
opt_apply_fn opt_apply_filesize;
opt_apply_fn opt_apply_io_size;
opt_apply_fn opt_apply_iodepth;
opt_apply_fn opt_apply_iodepth_batch;
opt_apply_fn opt_apply_iodepth_low;
opt_apply_fn opt_apply_ioengine;
opt_apply_fn opt_apply_log_flag;
opt_apply_fn opt_apply_prio;
/* memory and process (opt_apply_proc.c) */
extern const struct opt_choice opt_apply_mem_choices[];
opt_apply_fn opt_apply_mem, opt_apply_lockmem;
opt_apply_fn opt_apply_nice, opt_apply_id, opt_apply_cgroup;
opt_apply_fn opt_apply_ioscheduler, opt_apply_exec_run, opt_apply_profile;
opt_apply_fn opt_apply_cmdprio;
opt_apply_fn opt_apply_cmdprio_bssplit;
opt_apply_fn opt_apply_log_compression_cpus;
opt_apply_fn opt_apply_name;
opt_apply_fn opt_apply_nrfiles;
opt_apply_fn opt_apply_numjobs;
opt_apply_fn opt_apply_offset;
opt_apply_fn opt_apply_only_default;
opt_apply_fn opt_apply_percentage_random;
opt_apply_fn opt_apply_percentile_list;
opt_apply_fn opt_apply_ramp_time;
opt_apply_fn opt_apply_randseed;
opt_apply_fn opt_apply_runtime;
opt_apply_fn opt_apply_rw;
opt_apply_fn opt_apply_rwmixread;
opt_apply_fn opt_apply_rwmixwrite;
opt_apply_fn opt_apply_size;
opt_apply_fn opt_apply_startdelay;
opt_apply_fn opt_apply_verify;
opt_apply_fn opt_apply_verify_pattern;		/* verify */
opt_apply_fn opt_apply_wait_for;
opt_apply_fn opt_apply_write_log;
opt_apply_fn opt_apply_iolog_path;		/* iolog (opt_apply_iolog.c): paths (.field) */
opt_apply_fn opt_apply_replay_align;
opt_apply_fn opt_apply_replay_skip;
opt_apply_fn opt_apply_merge_list;		/* merge_blktrace_scalars/iters (.field) */
/* zone: fio/conf/opt_apply_zone.c */
opt_apply_fn opt_apply_zone_bytes;		/* zonerange, zonesize, zonecapacity (.field) */
opt_apply_fn opt_apply_zoneskip;
opt_apply_fn opt_apply_zone_reset_threshold, opt_apply_zone_reset_frequency;
extern const struct opt_choice opt_apply_zonemode_choices[];

extern const struct opt_choice opt_apply_fallocate_choices[];
extern const struct opt_choice opt_apply_fadvise_hint_choices[];
extern const struct opt_choice opt_apply_verify_choices[];
extern const struct opt_choice opt_apply_kb_base_choices[];
extern const struct opt_choice opt_apply_only_0_choices[];
extern const struct opt_choice opt_apply_only_1_choices[];
extern const struct opt_choice opt_apply_only_500_choices[];
extern const struct opt_choice opt_apply_only_clock_gettime_choices[];
/* opt_apply_job.c: placement */
extern const struct opt_choice opt_apply_cpus_policy_choices[];
opt_apply_fn opt_apply_cpumask, opt_apply_cpus_allowed, opt_apply_cpus_allowed_policy,
	opt_apply_numa_cpu_nodes, opt_apply_numa_mem_policy;
/* opt_apply_job.c: exitall */
extern const struct opt_choice opt_apply_exit_what_choices[];
/* opt_apply_err.c: errors */
extern const struct opt_choice opt_apply_cont_err_choices[];
opt_apply_fn opt_apply_ignore_error;
/* opt_apply_buf.c: buffer contents */
extern const struct opt_choice opt_apply_dedupe_mode_choices[];
opt_apply_fn opt_apply_buffer_pattern, opt_apply_dedupe_mode;
extern const struct opt_choice opt_apply_randgen_choices[];
extern const struct opt_choice opt_apply_rw_choices[];
extern const struct opt_choice opt_apply_sync_choices[];
extern const struct opt_choice opt_apply_unit_base_choices[];
/* opt_apply_fsvc.c: file service, open limit, placement, life cycle of the files */
extern const struct opt_choice opt_apply_fsvc_choices[];
extern const struct opt_choice opt_apply_lockfile_choices[];
opt_apply_fn opt_apply_file_service_type, opt_apply_opendir,
	opt_apply_create_fsync, opt_apply_allow_file_create;
/* unified_rw_reporting */
extern const struct opt_choice opt_apply_unified_rw_reporting_choices[];

#endif

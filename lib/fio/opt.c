#include "fio/opt.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fio/iolog.h"
#include "fio/opt_apply.h"
#include "fio/opt_rate.h"
#include "core/parse.h"

#define IODEPTH_MAX	65536u		/* iops bound: requests are preallocated */
#define LOOPS_MAX	1000000u

/* ------------------------------------------------------------------------------------------ */
/* diagnostics */

void opt_diag_init(struct opt_diag *d)
{
	d->nr = 0;
	d->overflow = false;
}

void opt_diag_add(struct opt_diag *d, bool to_stdout, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	if (d->nr >= OPT_DIAG_LINES) {
		d->overflow = true;
		return;
	}
	va_start(ap, fmt);
	/* a too-long line is cut: still one bounded line */
	(void)vsnprintf(d->line[d->nr], OPT_DIAG_LEN, fmt, ap);
	va_end(ap);
	d->to_stdout[d->nr] = to_stdout;
	d->nr++;
}

/* ------------------------------------------------------------------------------------------ */
/* kv lists */


int opt_kv_add(struct job_kv **kv, unsigned *nr, unsigned *cap, const char *key, const char *val)
{
	char *k, *v;

	if (*nr == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 8;
		struct job_kv *n;

		if (ncap > 65536)
			return -E2BIG;
		n = realloc(*kv, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*kv = n;
		*cap = ncap;
	}
	k = strdup(key);
	v = strdup(val ? val : "");
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	(*kv)[*nr].key = k;
	(*kv)[*nr].value = v;
	(*nr)++;
	return 0;
}

void opt_kv_free(struct job_kv *kv, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

/* ------------------------------------------------------------------------------------------ */
/* choices and engines */

void opt_diag_choices(struct opt_diag *d, const struct opt_def *od)
{
	bool first = true;

	if (!od->info || !od->info->choices)
		return;
	for (const struct opt_choice *c = od->info->choices; c->word; c++) {
		const char *label = first ? "valid values" : "";

		/* a value without a description ends at its padded column, no trailing blank */
		if (c->help && *c->help)
			opt_diag_add(d, true, "%20s: %-10s %s", label, c->word, c->help);
		else
			opt_diag_add(d, true, "%20s: %-10s", label, c->word);
		first = false;
	}
	opt_diag_add(d, true, "%s", "");
}

const char *opt_engine_list(void)
{
	return engine_names();
}

/* ------------------------------------------------------------------------------------------ */
/* the table */

#define NOMAX (-1)
#define PRIO_FIRST 0
#define PRIO_NORMAL 5
#define PRIO_LAST 9

/* The help, default, bounds and apply function of a supported option; unsupported ones have none. */
#define OPT_INFO(a, h, def, mn, mx, ch, fn) (&(const struct opt_info){ a, h, def, mn, mx, ch, fn })
#define O_STR(n, a, fn, h) { n, OPT_INFO(a, h, NULL, 0, NOMAX, NULL, fn), OPT_T_STR, PRIO_NORMAL, false }
#define O_INT(n, a, fn, h, def, mn, mx) { n, OPT_INFO(a, h, def, mn, mx, NULL, fn), OPT_T_INT, PRIO_NORMAL, false }
#define O_BOOL(n, a, fn, h, def) { n, OPT_INFO(a, h, def, 0, 1, NULL, fn), OPT_T_BOOL, PRIO_NORMAL, false }
#define O_FLAG(n, a, fn, h) { n, OPT_INFO(a, h, NULL, 0, 1, NULL, fn), OPT_T_FLAG, PRIO_NORMAL, false }
#define O_TIME(n, a, fn, h, def) { n, OPT_INFO(a, h, def, 0, NOMAX, NULL, fn), OPT_T_TIME, PRIO_NORMAL, false }
#define O_CHOICE(n, a, fn, h, def, ch) { n, OPT_INFO(a, h, def, 0, NOMAX, ch, fn), OPT_T_CHOICE, PRIO_NORMAL, false }
#define O_ONLY(n, h, def, ch) \
	{ n, OPT_INFO(NULL, h, def, 0, NOMAX, ch, opt_apply_only_default), OPT_T_CHOICE, PRIO_NORMAL, false }
#define O_UNSUP_A(n, a) { n, OPT_INFO(a, NULL, NULL, 0, NOMAX, NULL, NULL), OPT_T_UNSUPPORTED, PRIO_NORMAL, true }
#define O_UNSUP_FIRST(n) { n, NULL, OPT_T_UNSUPPORTED, PRIO_FIRST, true }
#define O_UNSUP(n) { n, NULL, OPT_T_UNSUPPORTED, PRIO_NORMAL, true }

static const struct opt_def table[] = {
	O_STR("description", NULL, opt_apply_description, "Free-form text describing the job"),
	O_STR("name", NULL, opt_apply_name, "Label that identifies this job"),
	O_STR("wait_for", NULL, opt_apply_wait_for, "Start only after the job with this name has finished"),
	{ "filename",
	  OPT_INFO(NULL, "Target file or device path(s), ':' separated", NULL, 0, NOMAX, NULL, opt_apply_filename),
	  OPT_T_STR, PRIO_LAST, false },
	O_STR("directory", NULL, opt_apply_directory, "Directory in which the job's files are created"),
	{ "filename_format",
	  OPT_INFO(NULL, "Pattern for file names (default $jobname.$jobnum.$filenum)", NULL, 0, NOMAX, NULL, opt_apply_filename_format),
	  OPT_T_STR, PRIO_LAST, false },
	O_CHOICE("rw", "readwrite", opt_apply_rw, "Access pattern and direction of the I/O", "read", opt_apply_rw_choices),
	{ "bs",
	  OPT_INFO("blocksize", "Size of each I/O request", "4096", 1, NOMAX, NULL, opt_apply_bs),
	  OPT_T_INT, PRIO_NORMAL, false },
	{ "ba",
	  OPT_INFO("blockalign", "Alignment of random I/O offsets", NULL, 1, NOMAX, NULL, opt_apply_ba),
	  OPT_T_INT, PRIO_NORMAL, false },
	{ "bsrange",
	  OPT_INFO("blocksize_range", "Smallest and largest request size (min-max)", NULL, 1, NOMAX, NULL, opt_apply_bsrange),
	  OPT_T_RANGE, PRIO_NORMAL, false },
	{ "bs_unaligned",
	  OPT_INFO("blocksize_unaligned", "Allow request sizes that are not sector multiples", NULL, 0, 1, NULL, opt_apply_bs_unaligned),
	  OPT_T_FLAG, PRIO_NORMAL, false },
	O_BOOL("randrepeat", NULL, opt_apply_randrepeat, "Seed random offsets the same way on every run", "1"),
	{ "randseed",
	  OPT_INFO(NULL, "Base seed of the random number generators", "0x89", 0, NOMAX, NULL, opt_apply_randseed),
	  OPT_T_STR, PRIO_NORMAL, false },
	O_FLAG("norandommap", NULL, opt_apply_norandommap, "Do not track visited blocks; offsets may repeat"),
	{ "ioengine",
	  OPT_INFO(NULL, "Interface used to issue the I/O", "psync", 0, NOMAX, NULL, opt_apply_ioengine),
	  OPT_T_STR, PRIO_NORMAL, false },
	O_INT("iodepth", NULL, opt_apply_iodepth, "Most requests outstanding at any one time", "1", 1, IODEPTH_MAX),
	{ "iodepth_batch",
	  OPT_INFO("iodepth_batch_submit", "Requests handed to the kernel per submit call", "1", 0, IODEPTH_MAX, NULL, opt_apply_iodepth_batch),
	  OPT_T_INT, PRIO_NORMAL, false },
	{ "iodepth_batch_complete_min",
	  OPT_INFO("iodepth_batch_complete", "Fewest completions to wait for per reap call", "1", 0, IODEPTH_MAX, NULL, opt_apply_complete_min),
	  OPT_T_INT, PRIO_NORMAL, false },
	O_INT("iodepth_batch_complete_max", NULL, opt_apply_complete_max,
	      "Most completions to collect per reap call", NULL, 0, IODEPTH_MAX),
	O_INT("iodepth_low", NULL, opt_apply_iodepth_low, "Refill the queue once it drains to this depth", NULL, 0, IODEPTH_MAX),
	{ "size",
	  OPT_INFO(NULL, "Bytes of file or device space the job covers", NULL, 0, NOMAX, NULL, opt_apply_size),
	  OPT_T_SIZE, PRIO_NORMAL, false },
	{ "io_size",
	  OPT_INFO("io_limit", "Bytes to transfer before the job stops", NULL, 0, NOMAX, NULL, opt_apply_io_size),
	  OPT_T_SIZE, PRIO_NORMAL, false },
	{ "filesize",
	  OPT_INFO(NULL, "Size of each file the job uses", NULL, 0, NOMAX, NULL, opt_apply_filesize),
	  OPT_T_SIZE, PRIO_NORMAL, false },
	{ "offset",
	  OPT_INFO("fileoffset", "Byte offset where the I/O region begins", "0", 0, NOMAX, NULL, opt_apply_offset),
	  OPT_T_SIZE, PRIO_NORMAL, false },
	{ "random_generator",
	  OPT_INFO(NULL, "Algorithm that produces the random offsets", "tausworthe", 0, NOMAX, opt_apply_randgen_choices, opt_apply_random_generator),
	  OPT_T_CHOICE, PRIO_NORMAL, false },
	O_INT("percentage_random", NULL, opt_apply_percentage_random,
	      "Share of requests (in %) sent to random offsets", "100,100,100", 0, 100),
	O_BOOL("allrandrepeat", NULL, opt_apply_allrandrepeat, "Seed every random source the same way on each run", "0"),
	{ "nrfiles",
	  OPT_INFO("nr_files", "Number of files the job spreads its I/O over", "1", 0, JOB_MAX_FILES, NULL, opt_apply_nrfiles),
	  OPT_T_INT, PRIO_NORMAL, false },
	O_CHOICE("fallocate", NULL, opt_apply_fallocate, "How disk space is reserved when files are created",
		 "native", opt_apply_fallocate_choices),
	O_INT("fsync", NULL, opt_apply_fsync, "Call fsync after this many writes (0: never)", "0", 0, NOMAX),
	O_INT("fdatasync", NULL, opt_apply_fdatasync, "Call fdatasync after this many writes (0: never)",
	      "0", 0, NOMAX),
	O_BOOL("direct", NULL, opt_apply_direct, "Bypass the page cache with O_DIRECT (opposite of buffered)", "0"),
	O_BOOL("buffered", NULL, opt_apply_buffered, "Go through the page cache (opposite of direct)", "1"),
	O_INT("loops", "loop", opt_apply_loops, "How many times the job repeats its workload", "1", 0, LOOPS_MAX),
	O_INT("numjobs", NULL, opt_apply_numjobs, "Number of identical copies of this job to run", "1", 0, JOB_MAX_JOBS),
	O_TIME("startdelay", NULL, opt_apply_startdelay, "Wait this long before the job begins", "0"),
	O_TIME("runtime", "timeout", opt_apply_runtime, "Upper limit on how long the job runs", "0"),
	O_FLAG("time_based", NULL, opt_apply_time_based, "Repeat the workload until the runtime is used up"),
	O_TIME("ramp_time", NULL, opt_apply_ramp_time, "Warm-up period left out of the results", "0"),
	O_CHOICE("verify", NULL, opt_apply_verify, "Check what was written: checksum type (0: off)", "0",
		 opt_apply_verify_choices),
	O_BOOL("do_verify", NULL, opt_apply_do_verify, "Read back and check the blocks written after each pass", "1"),
	O_INT("rwmixread", NULL, opt_apply_rwmixread, "Share (in %) of a mixed workload that reads", "50", 0, 100),
	O_INT("rwmixwrite", NULL, opt_apply_rwmixwrite, "Share (in %) of a mixed workload that writes", "50", 0, 100),
	O_BOOL("invalidate", NULL, opt_apply_invalidate, "Drop cached pages of the files before the job starts", "1"),
	O_CHOICE("sync", NULL, opt_apply_sync, "Open files with O_SYNC or O_DSYNC", "none", opt_apply_sync_choices),
	O_BOOL("create_on_open", NULL, opt_apply_create_on_open, "Defer creating a file until the job opens it", "0"),
	O_BOOL("end_fsync", NULL, opt_apply_end_fsync, "Flush written data with fsync when the job ends", "0"),
	O_BOOL("fsync_on_close", NULL, opt_apply_fsync_on_close, "Flush each file with fsync before closing it", "0"),
	O_BOOL("unlink", NULL, opt_apply_unlink, "Delete the job's files when it finishes", "0"),
	{ "stonewall",
	  OPT_INFO("wait_for_previous", "Wait for all earlier jobs to finish before starting", NULL, 0, 1, NULL, opt_apply_stonewall),
	  OPT_T_FLAG, PRIO_NORMAL, false },
	O_FLAG("new_group", NULL, opt_apply_new_group, "Begin a new reporting group with this job"),
	O_FLAG("thread", NULL, opt_apply_thread, "Run jobs as threads rather than forked processes"),
	{ "threads",
	  OPT_INFO(NULL, "Run jobs as threads rather than forked processes", NULL, 0, 1, NULL, opt_apply_thread),
	  OPT_T_FLAG, PRIO_NORMAL, true },
	O_INT("log_avg_msec", NULL, opt_apply_log_avg_msec,
	      "Average log entries over this many msec (0: one per I/O)", "0", 0, UINT32_MAX),
	O_FLAG("group_reporting", NULL, opt_apply_group_reporting, "Report one summary per group instead of per job"),
	O_FLAG("zero_buffers", NULL, opt_apply_zero_buffers, "Fill write buffers with zero bytes"),
	O_FLAG("refill_buffers", NULL, opt_apply_refill_buffers, "Regenerate buffer contents before each write"),
	O_BOOL("clat_percentiles", NULL, opt_apply_clat_percentiles, "Show percentiles of completion latency", "1"),
	O_BOOL("lat_percentiles", NULL, opt_apply_lat_percentiles, "Show percentiles of total latency (submit to completion)", "0"),
	{ "percentile_list",
	  OPT_INFO(NULL, "Percentiles to print, ':' separated (replaces the default set)", "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99", 0, 100, NULL, opt_apply_percentile_list),
	  OPT_T_FLOAT_LIST, PRIO_NORMAL, false },
	O_INT("significant_figures", NULL, opt_apply_sig_figs, "Digits of precision in the normal text report",
	      "4", 1, 10),
	O_BOOL("gtod_reduce", NULL, opt_apply_gtod_reduce, "Read the clock far less often, dropping latency stats", "0"),
	{ "kb_base",
	  OPT_INFO(NULL, "Whether k/m/g in sizes mean powers of 1024 or of 1000", "1024", 0, NOMAX, opt_apply_kb_base_choices, opt_apply_kb_base),
	  OPT_T_CHOICE, PRIO_FIRST, false },
	{ "unit_base",
	  OPT_INFO(NULL, "Report in bytes (8) or bits (1); 0 picks automatically", NULL, 0, NOMAX, opt_apply_unit_base_choices, opt_apply_unit_base),
	  OPT_T_CHOICE, PRIO_FIRST, false },
	O_BOOL("allow_overwrite", NULL, opt_apply_allow_overwrite,
	       "iops: allow writing into an existing file iops did not lay out", "0"),
	O_ONLY("disk_util", "Report disk utilization (iops: always)", "1", opt_apply_only_1_choices),
	O_ONLY("stats", "Collect statistics for this job (iops: always)", "1", opt_apply_only_1_choices),
	O_CHOICE("unified_rw_reporting", NULL, opt_apply_unified_rw_reporting, "Merge the figures of all directions in the report", "none", opt_apply_unified_rw_reporting_choices),
	O_BOOL("per_job_logs", NULL, opt_apply_log_flag, "Job number in log file names (0: clones share a file)", "1"),
	O_CHOICE("bwavgtime", NULL, opt_apply_avgtime, "Bandwidth sampling interval (iops: 500 ms)", "500",
		 opt_apply_only_500_choices),
	O_CHOICE("iopsavgtime", NULL, opt_apply_avgtime, "IOPS sampling interval (iops: 500 ms)", "500",
		 opt_apply_only_500_choices),
	O_ONLY("continue_on_error", "Keep going after I/O errors (iops: none)", "none", opt_apply_only_none_choices),
	O_ONLY("clocksource", "Clock used for timestamps (iops: clock_gettime)", NULL, opt_apply_only_clock_gettime_choices),
	O_ONLY("slat_percentiles", "Show percentiles of submission latency (iops: 0)", "0", opt_apply_only_0_choices),
	O_ONLY("disable_lat", "Skip total latency measurement (iops: 0; see gtod_reduce)", "0", opt_apply_only_0_choices),
	O_ONLY("disable_clat", "Skip completion latency measurement (iops: 0; see gtod_reduce)", "0", opt_apply_only_0_choices),
	O_ONLY("disable_slat", "Skip submission latency measurement (iops: 0; see gtod_reduce)", "0", opt_apply_only_0_choices),
	O_ONLY("disable_bw_measurement", "Skip bandwidth sampling (iops: 0; see gtod_reduce)", "0", opt_apply_only_0_choices),

	/* fio 3.33 options iops refuses by name */
	O_UNSUP_FIRST("lockfile"), O_UNSUP("unique_filename"), O_UNSUP("opendir"),
	{ "bssplit",
	  OPT_INFO(NULL, "Mix of block sizes: size/percent pairs, ':' separated, per direction", NULL, 0, NOMAX, NULL, opt_apply_bssplit),
	  OPT_T_STR, PRIO_NORMAL, false },	/* dist */
	O_UNSUP("ignore_error"), O_UNSUP("rw_sequencer"), O_UNSUP("serialize_overlap"),
	O_UNSUP("io_submit_mode"), O_UNSUP("fill_device"), O_UNSUP("fill_fs"), O_UNSUP("file_append"),
	O_UNSUP("offset_increment"), O_UNSUP("offset_align"), O_UNSUP("number_ios"),
	{ "random_distribution",
	  OPT_INFO(NULL, "Offset distribution: random, zipf:t, pareto:h, normal:dev, zoned:..., zoned_abs:...", "random", 0, NOMAX, NULL, opt_apply_random_distribution),
	  OPT_T_STR, PRIO_NORMAL, false },	/* dist */ O_UNSUP("file_service_type"), O_UNSUP("openfiles"),
	O_UNSUP("fadvise_hint"), O_UNSUP("write_barrier"), O_UNSUP("sync_file_range"), O_UNSUP("atomic"),
	O_UNSUP("overwrite"), O_UNSUP("verify_only"), O_UNSUP("mem"),
	O_UNSUP("iomem"), O_UNSUP("iomem_align"), O_UNSUP("mem_align"),
	/* verify */
	O_INT("verify_interval", NULL, opt_apply_verify_interval, "Bytes covered by each verify header (default: the block)",
	      NULL, 80, NOMAX),
	O_INT("verify_offset", NULL, opt_apply_verify_offset, "Where the verify header sits inside each interval", "0", 40, NOMAX),
	O_STR("verify_pattern", NULL, opt_apply_verify_pattern, "Bytes that fill write buffers (and that reads must find)"),
	O_BOOL("verify_fatal", NULL, opt_apply_verify_fatal, "Stop checking a block at its first bad interval", "0"),
	O_BOOL("verify_dump", NULL, opt_apply_verify_dump, "Save copies of a block that fails its check (iops: 0)", "0"),
	O_INT("verify_async", NULL, opt_apply_accept_int, "Threads that check reads (no effect: iops checks inline)",
	      "0", 0, NOMAX),
	O_UNSUP("verify_backlog"),
	O_UNSUP("verify_backlog_batch"), O_UNSUP("experimental_verify"), O_UNSUP("verify_state_load"),
	O_BOOL("verify_state_save", NULL, opt_apply_accept_bool, "Keep a state file for a later verify run (iops writes none)", "1"),
	O_UNSUP("verify_write_sequence"), O_UNSUP("verify_header_seed"),
	O_UNSUP("trim_percentage"), O_UNSUP("trim_verify_zero"),
	O_UNSUP("trim_backlog"), O_UNSUP("trim_backlog_batch"), O_UNSUP("write_iolog"), O_UNSUP("read_iolog"),
	O_UNSUP("read_iolog_chunked"), O_UNSUP("replay_no_stall"), O_UNSUP("replay_redirect"),
	O_UNSUP("replay_scale"), O_UNSUP("replay_align"), O_UNSUP("replay_time_scale"), O_UNSUP("replay_skip"),
	O_UNSUP("merge_blktrace_file"), O_UNSUP("merge_blktrace_scalars"), O_UNSUP("merge_blktrace_iters"),
	O_UNSUP("exec_prerun"), O_UNSUP("exec_postrun"), O_UNSUP("ioscheduler"), O_UNSUP("zonemode"),
	O_UNSUP("zonesize"), O_UNSUP("zonecapacity"), O_UNSUP("zonerange"), O_UNSUP("zoneskip"),
	O_UNSUP("read_beyond_wp"), O_UNSUP("max_open_zones"), O_UNSUP("job_max_open_zones"),
	O_UNSUP("ignore_zone_limits"), O_UNSUP("zone_reset_threshold"), O_UNSUP("zone_reset_frequency"),
	O_UNSUP("lockmem"), O_UNSUP("nice"), O_UNSUP("prio"), O_UNSUP("prioclass"),
	/* rate: rate limiting and think time (lib/opt_rate.c) */
	O_TIME("thinktime", NULL, opt_rate_apply_thinktime, "Idle time between I/Os (usec)", "0"),
	O_TIME("thinktime_spin", NULL, opt_rate_apply_thinktime_spin,
	       "Spend this much of the think time busy-spinning (usec)", "0"),
	O_INT("thinktime_blocks", NULL, opt_rate_apply_thinktime_blocks, "I/Os between two think times", "1", 0, NOMAX),
	O_CHOICE("thinktime_blocks_type", NULL, opt_rate_apply_thinktime_blocks_type,
		 "Count thinktime_blocks at completion or at issue", "complete", opt_rate_blocks_type_choices),
	O_TIME("thinktime_iotime", NULL, opt_rate_apply_thinktime_iotime,
	       "Think after doing I/O for this long (seconds)", "0"),
	O_INT("rate", NULL, opt_rate_apply_rate, "Cap on bandwidth, bytes/s (read,write,trim)", NULL, 0, NOMAX),
	O_INT("rate_min", "ratemin", opt_rate_apply_rate_min, "Fail the job below this bandwidth, bytes/s", NULL, 0, NOMAX),
	O_CHOICE("rate_process", NULL, opt_rate_apply_process, "How rated I/O is spaced in time", "linear",
		 opt_rate_process_choices),
	O_INT("rate_cycle", "ratecycle", opt_rate_apply_cycle, "Window for the rate_min checks (msec)", "1000", 0, NOMAX),
	O_BOOL("rate_ignore_thinktime", NULL, opt_rate_apply_ignore_thinktime,
	       "Rated I/O does not catch up for time spent thinking", NULL),
	O_INT("rate_iops", NULL, opt_rate_apply_rate_iops, "Cap on I/Os per second (read,write,trim)", NULL, 0, NOMAX),
	O_INT("rate_iops_min", NULL, opt_rate_apply_rate_iops_min, "Fail the job below this many I/Os per second",
	      NULL, 0, NOMAX),
	O_UNSUP("max_latency"),
	O_UNSUP("latency_target"), O_UNSUP("latency_window"), O_UNSUP("latency_percentile"),
	O_UNSUP("latency_run"), O_UNSUP("write_hint"), O_UNSUP("create_serialize"), O_UNSUP("create_fsync"),
	O_UNSUP("create_only"), O_UNSUP("allow_file_create"), O_UNSUP("allow_mounted_write"),
	O_UNSUP("pre_read"), O_UNSUP("cpumask"), O_UNSUP("cpus_allowed"), O_UNSUP_FIRST("cpus_allowed_policy"),
	O_UNSUP("numa_cpu_nodes"), O_UNSUP("numa_mem_policy"), O_UNSUP("unlink_each_loop"),
	O_UNSUP("exitall"), O_UNSUP("exit_what"), O_UNSUP("exitall_on_error"),
	O_STR("write_bw_log", NULL, opt_apply_write_log, "Write a bandwidth log (value: file prefix)"),
	O_STR("write_lat_log", NULL, opt_apply_write_log, "Write clat/slat/lat logs (value: file prefix)"),
	O_STR("write_iops_log", NULL, opt_apply_write_log, "Write an IOPS log (value: file prefix)"),
	O_UNSUP("log_entries"), O_UNSUP("log_hist_msec"),
	O_UNSUP("log_hist_coarseness"), O_UNSUP("write_hist_log"),
	O_BOOL("log_max_value", NULL, opt_apply_log_flag, "Log the window maximum, not the mean", "0"),
	O_BOOL("log_offset", NULL, opt_apply_log_flag, "Add the I/O offset column to logs", "0"),
	O_BOOL("log_prio", NULL, opt_apply_log_flag, "Log the I/O priority in hex", "0"),
	O_UNSUP("log_compression"),
	O_UNSUP("log_compression_cpus"), O_UNSUP("log_store_compressed"), O_UNSUP("log_unix_epoch"),
	O_UNSUP("log_alternate_epoch"), O_UNSUP("log_alternate_epoch_clock_id"),
	O_UNSUP("block_error_percentiles"), O_UNSUP("scramble_buffers"),
	O_UNSUP("buffer_pattern"), O_UNSUP("buffer_compress_percentage"), O_UNSUP("buffer_compress_chunk"),
	O_UNSUP("dedupe_percentage"), O_UNSUP("dedupe_mode"), O_UNSUP("dedupe_working_set_percentage"),
	O_UNSUP("dedupe_global"), O_UNSUP("gtod_cpu"), O_UNSUP("error_dump"), O_UNSUP("profile"), O_UNSUP("cgroup"), O_UNSUP("cgroup_nodelete"),
	O_UNSUP("cgroup_weight"), O_UNSUP("uid"), O_UNSUP("gid"), O_UNSUP("hugepage-size"),
	O_UNSUP("flow_id"), O_UNSUP("flow"), O_UNSUP("flow_sleep"), O_UNSUP_A("steadystate", "ss"),
	O_UNSUP_A("steadystate_duration", "ss_dur"), O_UNSUP_A("steadystate_ramp_time", "ss_ramp"),
	O_UNSUP("steadystate_check_interval"),
	O_UNSUP("rwmix_read"), O_UNSUP("bs_is_seq_rand"), O_UNSUP("zero_fill"), O_UNSUP("readonly"),
	O_UNSUP("io_submit"), O_UNSUP("fdp"), O_UNSUP("fdp_pli"),
	O_UNSUP("random_sequence_stride"), O_UNSUP("ioprio"), O_UNSUP("ioprio_class"),
	/* engine options of fio's libaio / io_uring / psync family */
	O_UNSUP("userspace_reap"), O_UNSUP("cmdprio_percentage"), O_UNSUP("cmdprio_class"),
	O_UNSUP("cmdprio"), O_UNSUP("cmdprio_bssplit"), O_UNSUP("nowait"), O_UNSUP("hipri"),
	O_UNSUP("fixedbufs"), O_UNSUP("registerfiles"), O_UNSUP("sqthread_poll"),
	O_UNSUP("sqthread_poll_cpu"), O_UNSUP("nonvectored"), O_UNSUP("uncached"), O_UNSUP("force_async"),
	O_UNSUP("cmd_type"), O_UNSUP("hipri_percentage"),
};

#define TABLE_NR (sizeof(table) / sizeof(table[0]))

unsigned opt_count(void)
{
	return (unsigned)TABLE_NR;
}

const struct opt_def *opt_at(unsigned i)
{
	return i < TABLE_NR ? &table[i] : NULL;
}

const struct opt_def *opt_find(const char *name)
{
	for (size_t i = 0; i < TABLE_NR; i++) {
		const struct opt_def *od = &table[i];

		if (!strcmp(od->name, name) || (opt_alias(od) && !strcmp(opt_alias(od), name)))
			return od;
	}
	return NULL;
}

const struct opt_def *opt_find_prefix(const char *name, size_t len, unsigned *nr_matches)
{
	const struct opt_def *found = NULL;
	unsigned n = 0;

	for (size_t i = 0; i < TABLE_NR; i++) {
		const struct opt_def *od = &table[i];
		const char *names[2] = { od->name, opt_alias(od) };

		for (int k = 0; k < 2; k++) {
			if (!names[k])
				continue;
			if (strlen(names[k]) == len && !strncmp(names[k], name, len)) {
				*nr_matches = 1;
				return od;
			}
		}
	}
	for (size_t i = 0; i < TABLE_NR; i++) {
		const struct opt_def *od = &table[i];
		const char *names[2] = { od->name, opt_alias(od) };

		for (int k = 0; k < 2; k++)
			if (names[k] && !strncmp(names[k], name, len)) {
				if (found != od)
					n++;
				found = od;
				break;
			}
	}
	*nr_matches = n;
	return n == 1 ? found : NULL;
}

/* Levenshtein distance, capped inputs (names are short). */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned prev[64], cur[64];
	size_t la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
			unsigned sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned m = del < ins ? del : ins;

			cur[j] = m < sub ? m : sub;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb];
}

const char *opt_suggest(const char *name)
{
	const char *best = NULL;
	/* fio suggests the closest name when the distance is at most half the length */
	unsigned limit = (unsigned)((strlen(name) + 1) / 2), best_d = limit + 1;

	for (size_t i = 0; i < TABLE_NR; i++) {
		unsigned dist;

		if (table[i].hidden && table[i].type != OPT_T_UNSUPPORTED)
			continue;
		dist = edit_distance(name, table[i].name);
		if (dist < best_d) {
			best_d = dist;
			best = table[i].name;
		}
	}
	return best;
}

/* ------------------------------------------------------------------------------------------ */
/* job lifecycle */

static const double default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

void opt_job_init(struct opt_job *oj)
{
	struct job *j = &oj->j;

	memset(oj, 0, sizeof(*oj));
	j->wait_for = -1;
	j->numjobs = 1;
	for (int i = 0; i < DDIR_NR; i++) {
		j->bs_min[i] = 4096;
		j->bs_max[i] = 4096;
	}
	j->rw = RW_READ;
	j->rw_nr_same_offset = 1;
	j->rwmixread = 50;
	j->percentage_random = 100;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;
	j->iodepth_batch_complete_min = 1;
	j->iodepth_batch_complete_max = 1;
	j->iodepth_low = 1;
	memcpy(j->ioengine, "psync", sizeof("psync"));
	j->invalidate = true;
	j->loops = 1;
	j->randrepeat = true;
	j->randseed = 0x89;
	j->random_generator = RANDGEN_TAUSWORTHE;
	j->fallocate = FALLOC_NATIVE;
	j->sync = SYNC_NONE;
	j->per_job_logs = true;		/* logs */
	memcpy(j->percentiles, default_percentiles, sizeof(default_percentiles));
	j->nr_percentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	j->percentile_precision = 2;
	j->clat_percentiles = true;
	j->kb_base = 1024;
	j->unit_base = 0;
	j->sig_figs = 4;
	j->do_verify = true;	/* verify */
	oj->nrfiles = 1;
	j->rate_cycle_ms = 1000;	/* rate */
	j->thinktime_blocks = 1;	/* rate */
}

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int opt_job_copy(struct opt_job *dst, const struct opt_job *src)
{
	struct opt_job tmp = *src;

	tmp.j.description = NULL;
	tmp.j.bssplit = tmp.j.random_distribution = NULL;	/* dist */
	tmp.j.filenames = NULL;
	tmp.j.nr_files = 0;
	tmp.j.opts = NULL;
	tmp.j.nr_opts = 0;
	tmp.filename = tmp.directory = tmp.filename_format = tmp.wait_for_name = NULL;
	tmp.kv = NULL;
	tmp.nr_kv = tmp.cap_kv = 0;
	if (iolog_prefix_dup(&tmp.j, &src->j))	/* logs; NULLs tmp's first */
		goto fail_strings;
	if (dup_opt(&tmp.j.description, src->j.description) || dup_opt(&tmp.filename, src->filename) ||
	    dup_opt(&tmp.j.bssplit, src->j.bssplit) ||	/* dist */
	    dup_opt(&tmp.j.random_distribution, src->j.random_distribution) ||
	    dup_opt(&tmp.directory, src->directory) ||
	    dup_opt(&tmp.filename_format, src->filename_format) ||
	    dup_opt(&tmp.wait_for_name, src->wait_for_name))
		goto fail_strings;
	for (unsigned i = 0; i < src->nr_kv; i++)
		if (opt_kv_add(&tmp.kv, &tmp.nr_kv, &tmp.cap_kv, src->kv[i].key, src->kv[i].value))
			goto fail_strings;
	*dst = tmp;
	return 0;

fail_strings:
	opt_job_release(&tmp);
	return -ENOMEM;
}

void opt_job_release(struct opt_job *oj)
{
	free(oj->j.description);
	oj->j.description = NULL;
	free(oj->j.bssplit);	/* dist */
	free(oj->j.random_distribution);
	oj->j.bssplit = oj->j.random_distribution = NULL;
	iolog_prefix_free(&oj->j);	/* logs */
	free(oj->filename);
	free(oj->directory);
	free(oj->filename_format);
	free(oj->wait_for_name);
	oj->filename = oj->directory = oj->filename_format = oj->wait_for_name = NULL;
	opt_kv_free(oj->kv, oj->nr_kv);
	oj->kv = NULL;
	oj->nr_kv = oj->cap_kv = 0;
}

int opt_apply(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d)
{
	char *buf = NULL;
	int ret;

	if (od->type == OPT_T_UNSUPPORTED) {
		opt_diag_add(d, false, "fio: option '%s' is not supported by iops", od->name);
		return -EINVAL;
	}
	if (val) {
		size_t n = strlen(val) + 1;

		if (n > OPT_VALUE_MAX) {
			opt_diag_add(d, false, "fio: value of option %s is too long (%zu bytes, max %d)",
				     od->name, n - 1, OPT_VALUE_MAX - 1);
			return -EINVAL;
		}
		buf = malloc(n);
		if (!buf) {
			opt_diag_add(d, false, "fio: out of memory");
			return -ENOMEM;
		}
		(void)parse_strip(val, buf, n);	/* fits: never longer than val */
	}
	ret = od->info->apply(oj, od, buf, d);
	if (!ret) {
		ret = opt_kv_add(&oj->kv, &oj->nr_kv, &oj->cap_kv, od->name, buf ? buf : "");
		if (ret == -E2BIG)
			opt_diag_add(d, false, "fio: too many options for one job");
		else if (ret)
			opt_diag_add(d, false, "fio: out of memory");
	}
	free(buf);
	return ret;
}

int opt_job_list_push(struct opt_job_list *l, struct opt_job *oj)
{
	if (l->nr >= JOB_MAX_JOBS)
		return -E2BIG;
	if (l->nr == l->cap) {
		unsigned ncap = l->cap ? l->cap * 2 : 8;
		struct opt_job *n = realloc(l->v, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->v = n;
		l->cap = ncap;
	}
	l->v[l->nr++] = *oj;
	memset(oj, 0, sizeof(*oj));
	return 0;
}

void opt_job_list_release(struct opt_job_list *l)
{
	for (unsigned i = 0; i < l->nr; i++)
		opt_job_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->cap = 0;
}

void opt_job_clear_kv(struct opt_job *oj)
{
	opt_kv_free(oj->kv, oj->nr_kv);
	oj->kv = NULL;
	oj->nr_kv = oj->cap_kv = 0;
}

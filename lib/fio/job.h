/* SPDX-License-Identifier: MIT */
/* job: a validated fio job specification, read-only once fio_config_parse() returns.
 *
 * Produced by the option layer (opt*.c / jobfile.c / fioconf.c), consumed by the runner
 * (runner*.c, target*.c; engines see only requests) and by the reports (fio/report/).
 * Units: sizes in bytes (uint64_t), times in nanoseconds (uint64_t). */
#ifndef IOPS_JOB_H
#define IOPS_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sys/cpuset.h"

#include "engine/engine_opts.h"

#define JOB_NAME_MAX		256
#define JOB_MAX_FILES		1048576	/* nrfiles / filename list bound */
#define JOB_MAX_JOBS		4096	/* total jobs after numjobs expansion */
#define JOB_MAX_PERCENTILES	20	/* FIO_IO_U_LIST_MAX_LEN */
#define JOB_VERIFY_PATTERN_MAX	512	/* verify_pattern bytes (fio's limit) */
#define JOB_VERIFY_PATTERN_O_MAX	16	/* %o in one verify_pattern */
#define JOB_IGNORE_ERR_MAX	32	/* errors in one ignore_error list */
#define JOB_LOG_PREFIXES	4	/* bw, iops, lat, hist */
#define JOB_MEM_PATH_MAX	256	/* mem=mmap:PATH, bytes with NUL */
#define JOB_CGROUP_MAX		128	/* cgroup= name, bytes with NUL */
#define JOB_IOSCHED_MAX		32	/* ioscheduler= name, bytes with NUL */
#define JOB_EXEC_MAX		512	/* exec_prerun= / exec_postrun= command, bytes with NUL */

enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };
/* continue_on_error / ignore_error: the kinds of error, numbered as fio's ERROR_TYPE_* */
enum job_err_type { JOB_ERR_READ = 0, JOB_ERR_WRITE = 1, JOB_ERR_VERIFY = 2, JOB_ERR_NR = 3 };

/* mem= / iomem=: where the job's I/O buffers come from (fio/run/iomem.h) */
enum job_mem { MEM_MALLOC, MEM_SHM, MEM_SHMHUGE, MEM_MMAP, MEM_MMAPHUGE, MEM_MMAPSHARED };

/* Memory and process options (fio/run/iomem.h, fio/run/runner_proc.c): fixed-size strings, "" unset. */
struct job_proc {
	uint8_t mem;			/* enum job_mem, default MEM_MALLOC */
	char mem_path[JOB_MEM_PATH_MAX];	/* mmap:PATH / mmaphuge:PATH, "" = anonymous */
	uint64_t mem_align;		/* iomem_align: the first buffer sits this far past a page */
	uint64_t hugepage_bytes;	/* hugepage-size, default 2 MiB */
	uint64_t lockmem_bytes;		/* lockmem: memory pinned while the job runs, 0 = none */
	int nice;			/* -20..19, 0 = unchanged */
	bool uid_set, gid_set;
	uint32_t uid, gid;
	char cgroup[JOB_CGROUP_MAX];	/* blkio cgroup the job's thread joins, "" = none */
	bool cgroup_nodelete;
	unsigned cgroup_weight;		/* 100..1000, 0 = unset */
	char ioscheduler[JOB_IOSCHED_MAX];	/* scheduler of the files' devices while the job runs */
	char exec_prerun[JOB_EXEC_MAX], exec_postrun[JOB_EXEC_MAX];	/* sh -c commands */
};

/* rw= value; names as fio's ddir_str(): read write trim randread randwrite randtrim rw randrw ... */
enum rw_mode {
	RW_READ, RW_WRITE, RW_TRIM, RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM,
	RW_RW, RW_RANDRW, RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

#define JOB_CMDPRIO_BSS_MAX	16	/* cmdprio_bssplit entries per direction */

/* cmdprio_bssplit: pct% of the I/Os of size bs get ioprio value (class << 13 | level). */
struct job_cmdprio_bss {
	uint64_t bs;
	uint8_t pct;
	bool own;			/* bs/pct/class/level: its own value, else cmdprio_class/cmdprio */
	uint16_t value;
};

enum fallocate_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };
enum rand_gen { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
/* exit_what=: which jobs an exitall job ends: its group, its stonewall segment, or all */
enum job_exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };
/* fadvise_hint=: 0, 1 (random or sequential from rw=), random, sequential */
enum fadvise_hint { FADVISE_NONE, FADVISE_PATTERN, FADVISE_RANDOM, FADVISE_SEQUENTIAL };
/* zone: zonemode= (strided: offgen_zone.c; zbd: zbd.c) */
enum zone_mode { ZONE_MODE_NONE, ZONE_MODE_STRIDED, ZONE_MODE_ZBD };
/* file_service_type=: how the next file is chosen (fio/offset/offgen_fsvc.h) */
enum job_fsvc { FSVC_RR, FSVC_SEQ, FSVC_RANDOM, FSVC_ZIPF, FSVC_PARETO, FSVC_NORMAL };
/* lockfile=: none, exclusive (one job at a time), readwrite (readers share, writers exclude) */
enum job_lock { JOB_LOCK_NONE, JOB_LOCK_EXCL, JOB_LOCK_RW };

/* Steady state (steadystate=, ss_dur=, ss_ramp=; fio/control/steadystate.h): off while dur_ns is 0. */
struct job_ss {
	bool iops;			/* judge IOPS (else bandwidth, bytes/s) */
	bool slope;			/* the slope of a least-squares line (else max deviation) */
	bool pct;			/* limit in percent of the window's mean */
	double limit;			/* default iops_slope:0.01% */
	uint64_t dur_ns;		/* window length (whole seconds), 0 = off */
	uint64_t ramp_ns;		/* no sample before this much of the job has run */
};

/* One `key=value` exactly as the user typed it (after ${ENV} expansion), for JSON "job options". */
struct job_kv {
	char *key;
	char *value;	/* "" for flags given without a value (JSON drops those, like fio) */
};

struct job {
	char name[JOB_NAME_MAX];
	char *description;		/* NULL if unset */
	unsigned group_id;		/* reporting group (g=N) */
	unsigned job_index;		/* 0-based position in fio_config.jobs */
	unsigned thread_number;		/* 1-based, global, as fio's td->thread_number */
	unsigned subjob;		/* 0..numjobs-1: the clone index ($jobnum) */
	unsigned numjobs;		/* clones of the original job, this one included */
	bool stonewall;			/* wait for all previous jobs before starting */
	bool new_group;
	int wait_for;			/* job_index to wait for, -1 if none */

	/* files: either an explicit list (filename=a:b) or generated names */
	char **filenames;		/* resolved paths, nr_files entries (directory prefix applied) */
	unsigned nr_files;
	bool filenames_generated;	/* true when built from filename_format */

	uint64_t size;			/* total bytes per job over all files; 0 = use the existing size */
	unsigned size_pct;		/* size=N% (1..100), 0 if absolute */
	uint64_t filesize_min, filesize_max;	/* 0 = size/nr_files */
	uint64_t offset;		/* start offset in each file */
	unsigned offset_pct;		/* offset=N%, 0 if absolute */
	uint64_t offset_increment;	/* offset_increment: added once per clone (subjob) */
	unsigned offset_increment_pct;	/* offset_increment=N% of the file, aligned to bs */
	uint64_t io_size;		/* bytes to transfer per loop, 0 = size */

	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR];	/* bs / bsrange per direction */
	uint64_t blockalign[DDIR_NR];	/* 0 = bs_min */
	bool bs_unaligned;

	enum rw_mode rw;
	bool rw_has_read, rw_has_write, rw_random;	/* derived from rw */
	unsigned rw_seq_add;		/* rw=read:N for sequential: bytes added (holes) */
	unsigned rw_seq_back;		/* rw=read:-N: bytes stepped back after each I/O (backwards) */
	unsigned rw_nr_same_offset;	/* rw=randread:N: ios per random offset (1 = default) */
	unsigned rwmixread;		/* 0..100, % of reads in mixed workloads */
	unsigned percentage_random;	/* 0..100 (100 for random rw, 0 for sequential) */

	unsigned iodepth;
	unsigned iodepth_batch_submit;		/* already clamped to 1..iodepth */
	unsigned iodepth_batch_complete_min;	/* 0 = non-blocking poll */
	unsigned iodepth_batch_complete_max;	/* >= complete_min, <= iodepth */
	unsigned iodepth_low;
	bool batch_ready;		/* neither iodepth_batch_submit nor _complete_max given: the
					 * runner reaps and submits whatever is ready (README) */

	char ioengine[32];		/* "libaio", "io_uring", "psync", "sync", "pvsync", "null" */
	struct engine_opts eng;		/* the engine's own options (cpuload, port, program...) */
	bool direct;
	bool invalidate;		/* at open, and again each time the job starts its files over */
	enum fadvise_hint fadvise_hint;	/* default FADVISE_PATTERN */
	enum sync_mode sync;
	bool thread;			/* accepted; iops always runs jobs as threads */
	/* placement of the job's thread (sys/cpuset.h) */
	bool cpus_set;			/* cpumask= / cpus_allowed= given */
	bool cpus_split;		/* cpus_allowed_policy=split: one CPU of the set per job */
	struct cpuset cpus;
	bool numa_cpus_set;		/* numa_cpu_nodes= given: the CPUs of those nodes */
	struct cpuset numa_cpus;
	bool mpol_set;			/* numa_mem_policy= given */
	int mpol_mode;			/* enum cpuset_mpol */
	struct cpuset mpol_nodes;
	/* a NUMA node list libnuma refuses (a node past the machine's last, an empty item): why,
	 * or "", then a line break and fio's "failed parsing" line. fio refuses it when its
	 * options' callbacks run, not with --parse-only */
	char numa_bad[224];
	bool group_reporting;

	uint64_t runtime_ns;		/* 0 = none */
	bool time_based;
	uint64_t ramp_time_ns;
	uint64_t startdelay_ns;
	unsigned loops;			/* >= 1 */
	/* errors: continue_on_error, ignore_error, error_dump (fio/run/runner_io.c) */
	unsigned cont_on_err;		/* bit (1 << enum job_err_type): go on after such errors */
	unsigned nr_ignore_err[JOB_ERR_NR];	/* ignore_error list lengths; 0: EIO and EILSEQ */
	int ignore_err[JOB_ERR_NR][JOB_IGNORE_ERR_MAX];
	bool error_dump;		/* print every error, also those the job goes on after */
	bool exitall;			/* when this job ends, end others (exit_what says which) */
	unsigned exit_what;		/* enum job_exit_what */
	bool exitall_on_error;		/* when this job fails, end every job and start no more */
	unsigned segment;		/* stonewall segment (0, 1, ...): exit_what=stonewall */
	uint64_t number_ios;		/* a pass ends after this many I/Os (not time_based), 0 = no cap */

	bool randrepeat;
	bool allrandrepeat;
	uint64_t randseed;		/* default 0x89 */
	bool randseed_set;
	bool norandommap;
	enum rand_gen random_generator;

	bool gtod_reduce;
	bool disable_clat, disable_slat, disable_lat, disable_bw;	/* derived from gtod_reduce */

	enum fallocate_mode fallocate;
	bool create_on_open;
	bool fsync_on_close;
	bool end_fsync;
	unsigned fsync_every;		/* fsync=N */
	unsigned fdatasync_every;	/* fdatasync=N */
	bool unlink;
	bool allow_overwrite;		/* iops extension: may write into a pre-existing file iops did not lay out */
	/* files: service order, open limit, placement and life cycle (fio/offset/offgen_fsvc.h, target*.c) */
	unsigned file_service;		/* enum job_fsvc, default FSVC_RR */
	unsigned file_service_nr;	/* :N, I/Os to a file before the next choice (>= 1) */
	double fsvc_param, fsvc_center;	/* zipf theta, pareto h, normal dev%; center < 0: none */
	unsigned open_files;		/* openfiles, 0 = all the job's files */
	bool file_append;		/* I/O starts at the end of each regular file */
	uint64_t offset_align;		/* a percentage offset rounds up to it (0: the smallest bs) */
	bool unlink_each_loop;		/* remove the files iops owns after each loop */
	bool create_no_fsync;		/* create_fsync=0: no fsync after laying out a file's data */
	bool create_only;		/* lay out the files, do no I/O */
	bool file_create_denied;	/* allow_file_create=0: a missing file is an error */
	bool allow_mounted_write;	/* may write a block device that is mounted */
	bool pre_read;			/* read the files' ranges into the page cache first */
	bool overwrite;			/* a write job's new files get data first, as for readers */
	unsigned lockfile;		/* enum job_lock */
	bool zero_buffers;
	bool refill_buffers;
	/* write buffer contents (fio/data/bufgen.h) */
	bool scramble_buffers;		/* default true: offset and time in each 512 B sector */
	unsigned buffer_pattern_len;	/* buffer_pattern=, 0 = unset */
	unsigned char buffer_pattern[JOB_VERIFY_PATTERN_MAX];
	unsigned compress_pct;		/* buffer_compress_percentage, 0 = off */
	unsigned compress_chunk;	/* buffer_compress_chunk, default 512, 0 = the block */
	unsigned dedupe_pct;		/* dedupe_percentage, 0 = off */
	bool dedupe_working_set;	/* dedupe_mode=working_set (default repeat) */
	unsigned dedupe_ws_pct;		/* dedupe_working_set_percentage, default 5 */
	bool dedupe_global;

	double percentiles[JOB_MAX_PERCENTILES];	/* sorted ascending */
	unsigned nr_percentiles;
	unsigned percentile_precision;	/* max decimals in the list (default list: 2) */
	bool clat_percentiles;		/* default true */
	bool lat_percentiles;		/* default false */
	bool slat_percentiles;		/* default false (async engines only have slat) */

	unsigned kb_base;		/* 1024 or 1000 */
	unsigned unit_base;		/* 0 (auto = bytes), 8 or 1 */
	unsigned sig_figs;		/* significant_figures, default 4 */

	struct job_kv *opts;		/* options as typed for this job (globals not repeated) */
	unsigned nr_opts;

	/* dist: bssplit / random_distribution values as typed (NULL = unset), lib/dist.c parses */
	char *bssplit;
	char *random_distribution;
	unsigned bssplit_kb_base, random_distribution_kb_base;	/* kb_base when each was given */
	/* unified_rw_reporting */
	unsigned unified_rw_rep;	/* enum unified_mode (unified.h): 0 none, 1 mixed, 2 both */
	/* rate: rate limiting and think time (lib/rate.c); 0 = off */
	uint64_t rate_bps[DDIR_NR];		/* rate= */
	uint64_t rate_iops[DDIR_NR];		/* rate_iops= */
	uint64_t rate_min_bps[DDIR_NR];		/* rate_min= */
	uint64_t rate_iops_min[DDIR_NR];	/* rate_iops_min= */
	uint64_t rate_cycle_ms;			/* default 1000 */
	uint64_t max_latency_ns[DDIR_NR];	/* max_latency: fail the job above it, 0 = none */
	bool rate_poisson;			/* rate_process=poisson */
	bool rate_ignore_thinktime;
	uint64_t thinktime_ns, thinktime_spin_ns, thinktime_iotime_ns;
	uint64_t thinktime_blocks;		/* default 1 */
	bool thinktime_blocks_set;
	bool thinktime_blocks_issue;		/* thinktime_blocks_type=issue */
	/* logs: write_bw_log / write_iops_log / write_lat_log (lib/iolog.h) */
	char *log_prefix[JOB_LOG_PREFIXES];	/* bw, iops, lat, hist (write_hist_log) file prefix:
						 * NULL = no such log, "" = the job name */
	uint64_t log_hist_msec;		/* hist log window, 0 = no entries (fio) */
	unsigned log_hist_coarseness;	/* 0..6: 2^N histogram buckets per column */
	unsigned log_avg_msec;		/* 0 = one entry per I/O */
	bool log_max_value, log_offset, log_prio;
	bool per_job_logs;		/* default true: ".<thread_number>" in the names */
	unsigned log_zip_bytes;		/* log_compression: bytes per zlib stream, 0 = off */
	bool log_store_zip;		/* log_store_compressed: <name>.fz, zlib streams of samples */
	uint64_t log_zip_cpus[16];	/* log_compression_cpus: the writer's CPUs, all 0 = any */
	bool bw_avg_time_set, iops_avg_time_set;	/* bwavgtime= / iopsavgtime= given (500 ms) */
	/* I/O priorities (fio/ioprio.h): prio / prioclass for the job thread, cmdprio* per request */
	bool prio_set, prioclass_set;
	uint8_t prio, prioclass;
	bool cmdprio_on;			/* cmdprio_percentage or cmdprio_bssplit given */
	uint8_t cmdprio_pct[DDIR_NR];		/* cmdprio_percentage=r[,w] */
	uint8_t cmdprio_class[DDIR_NR];		/* cmdprio_class=, default 1 (real time) */
	uint8_t cmdprio_level[DDIR_NR];		/* cmdprio=, default 0 */
	bool cmdprio_pct_set, cmdprio_bss_set;
	struct job_cmdprio_bss cmdprio_bss[DDIR_NR][JOB_CMDPRIO_BSS_MAX];
	unsigned nr_cmdprio_bss[DDIR_NR];
	/* verify (lib/verify.h) */
	unsigned verify;		/* enum verify_type, 0 = off */
	bool do_verify;			/* default true */
	bool verify_fatal;
	unsigned verify_interval;	/* bytes per header, 0 = the block size */
	unsigned verify_offset;		/* where the header sits inside each interval */
	unsigned verify_pattern_len;	/* 0 = random data */
	unsigned nr_verify_pattern_o;	/* %o: the offset goes at these pattern positions */
	unsigned short verify_pattern_o[JOB_VERIFY_PATTERN_O_MAX];
	unsigned char verify_pattern[JOB_VERIFY_PATTERN_MAX];
	uint64_t verify_backlog;	/* read back every N written blocks during the writes, 0 = off */
	uint64_t verify_backlog_batch;	/* blocks per read-back, 0 = verify_backlog */
	bool verify_dump;		/* a failed block goes to <file>.<offset>.received/.expected/.hdr_fail */
	bool experimental_verify;	/* the verify phase replays the offsets instead of a log */
	bool verify_only;		/* a writer does not write: it reads its blocks back and checks them */
	bool verify_state_save;		/* default true: local-<job>-<n>-verify.state at the end (fio/data/verify_state.h) */
	bool verify_state_load;		/* the check stops where the saved writer stopped */
	/* trim of verified blocks (fio/data/verify_log.h): trim_percentage of the logged writes are
	 * trimmed, trim_backlog_batch at a time every trim_backlog logged blocks */
	unsigned trim_percentage;	/* 0..100 */
	bool trim_verify_zero;		/* default true: a trimmed block must read back as zeros */
	uint64_t trim_backlog;		/* 0 = never */
	uint64_t trim_backlog_batch;	/* 0 = trim_backlog */
	bool block_error_pct;		/* block_error_percentiles (accepted for jobs without trims) */
	/* trim: rw=trim/randtrim/trimwrite/randtrimwrite (derived from rw, like rw_has_write) */
	bool rw_has_trim;
	/* flow control (lib/flow.h), io_submit_mode, serialize_overlap */
	unsigned flow;			/* flow= weight 0..1000, 0 = the job is in no flow */
	unsigned flow_id;
	uint64_t flow_sleep_ns;		/* flow_sleep= (usec) */
	bool submit_offload;		/* io_submit_mode=offload: a submit thread runs the engine */
	bool serialize_overlap;
	/* iolog: write_iolog and read_iolog replay (fio/log/iolog_write.h, fio/log/iolog_replay.h) */
	char *write_iolog;		/* NULL = none */
	char *read_iolog;		/* as given: a ':' list, one log per clone; NULL = none */
	char *replay_log;		/* the log this clone replays (set by fioconf) */
	char *replay_redirect;		/* NULL = the log's own files */
	bool read_iolog_chunked, replay_no_stall;
	unsigned replay_time_scale;	/* percent, default 100 */
	uint64_t replay_scale;		/* offsets divided by it, default 1 */
	uint64_t replay_align;		/* offsets aligned down to it (power of 2), 0 = no */
	unsigned replay_skip;		/* IOLOG_SKIP_* bits */
	uint64_t replay_max_len;	/* the log's largest I/O (fioconf): buffers are sized for it */
	unsigned replay_depth;		/* a blktrace's iodepth (fioconf), 0 = not a blktrace */
	char *merge_blktrace_file;	/* NULL = replay read_iolog's traces one per clone */
	char *merge_blktrace_scalars;	/* ':' lists as given (fio/log/blktrace.h), NULL = 100s, 1s */
	char *merge_blktrace_iters;
	/* zone: zonemode=strided (lib/fio/offset/offgen_zone.c); bytes, checked by offgen_zone_fixup() */
	enum zone_mode zone_mode;
	uint64_t zone_range;		/* bytes per zone (0 given: zone_size) */
	uint64_t zone_size;		/* bytes to transfer in a zone before the next one */
	uint64_t zone_skip;		/* bytes skipped after each zone */
	uint64_t zone_skip_z;		/* zoneskip=Nz as typed: N zone sizes (the fixup sets zone_skip) */
	/* zbd: zonemode=zbd (lib/fio/offset/zbd.c): emulated or real sequential-write-required zones */
	uint64_t zone_capacity;		/* writable bytes per zone (0: the zone size) */
	uint64_t size_z, offset_z, offset_increment_z;	/* size=Nz...: N zones (the fixup makes bytes) */
	unsigned max_open_zones;	/* zones open for writing at once, all jobs of a file (0: no limit) */
	unsigned job_max_open_zones;	/* the same, for this job alone (0: no limit) */
	bool ignore_zone_limits;	/* a device's own open-zone limit is not applied */
	bool read_beyond_wp;		/* reads may go past the write pointer */
	double zone_reset_threshold;	/* fraction of the range holding data that allows resets */
	double zone_reset_frequency;	/* then one write in 1/frequency resets its zone (0: never) */
	struct job_ss ss;		/* steady state */
	struct job_proc proc;		/* memory and process options */
	/* latency target, fill, sequencing, write hints and log clocks (fio/conf/opt_apply_lat.c) */
	uint64_t lat_target_ns;		/* latency_target: probe the depth that meets it, 0 = off */
	uint64_t lat_window_ns;		/* latency_window: length of one probe */
	double lat_pct;			/* latency_percentile: share (%) of I/Os within the target */
	bool lat_run;			/* latency_run: keep probing, never settle and end */
	bool fill_device;		/* fill_device / fill_fs: write until ENOSPC, which ends the job */
	bool bs_is_seq_rand;		/* bs=a,b: a for sequential I/Os, b for random ones */
	bool rw_seq_ident;		/* rw_sequencer=identical: rw=randread:N repeats the offset */
	uint64_t write_barrier;		/* write_barrier: accepted, no effect (fio's sg engine only) */
	unsigned sfr_every;		/* sync_file_range=...:N: after every N writes, 0 = off */
	unsigned sfr_flags;		/* SYNC_FILE_RANGE_* bits */
	bool atomic;			/* atomic: fio opens with O_DIRECT (no O_ATOMIC on Linux) */
	unsigned write_hint;		/* write_hint: RWH_WRITE_LIFE_* value, 0 = unset */
	int gtod_cpu;			/* gtod_cpu: accepted (a CPU that exists), -1 = unset */
	unsigned log_entries;		/* log_entries: accepted (logs stream; default 1024) */
	bool log_unix_epoch, log_alt_epoch;	/* either: log times count from the epoch of */
	int log_epoch_clock;		/* this clock (log_alternate_epoch_clock_id, 0: realtime) */
};

/* OUT_OPENMETRICS: iops' own (lib/fio/report/out_openmetrics.c), written after fio's formats */
enum out_format { OUT_NORMAL = 1u << 0, OUT_JSON = 1u << 1, OUT_JSON_PLUS = 1u << 2, OUT_TERSE = 1u << 3,
		  OUT_OPENMETRICS = 1u << 4 };
enum eta_mode { ETA_AUTO, ETA_ALWAYS, ETA_NEVER };

/* Everything one fio invocation asks for. */
struct fio_config {
	struct job *jobs;		/* numjobs already expanded, in start order */
	unsigned nr_jobs;
	unsigned nr_groups;

	struct job_kv *global_opts;	/* the [global] options as typed, for JSON "global options" */
	unsigned nr_global_opts;

	unsigned output_format;		/* OUT_* bits, default OUT_NORMAL */
	char *output_path;		/* --output=, NULL = stdout */
	enum eta_mode eta;
	bool parse_only;
	unsigned kb_base_global;	/* for messages before jobs exist */
	unsigned terse_version;		/* --terse-version=2..5; 0 = default (3) */
	uint64_t eta_interval_ns;	/* --eta-interval, 0 = default (1 s) */
	uint64_t eta_newline_ns;	/* --eta-newline, 0 = never */

	/* status-interval */
	uint64_t status_interval_ns;	/* --status-interval, 0 = none (ms resolution) */
	unsigned debug_mask;		/* --debug: 1 << enum debug_cat (fio/debug.h) */
	FILE *debug_out;		/* where the run's debug lines go (cmd/: stdout, as fio) */
	unsigned idle_prof;		/* --idle-prof: enum idle_mode (fio/progress/idleprof.h), 0 = off */
	bool json_job_start;		/* a server's run: JSON has each job's job_start (fio 3.36) */
};

/* Release everything a fio_config owns (jobs, strings, option lists). */
void fio_config_release(struct fio_config *cfg);

#endif

/* job: a validated fio job specification, read-only once fio_config_parse() returns.
 *
 * Produced by the option layer (opt*.c / jobfile.c / fioconf.c), consumed by the runner
 * (runner*.c, target*.c; engines see only requests) and by the reports (fio/report/).
 * Units: sizes in bytes (uint64_t), times in nanoseconds (uint64_t). */
#ifndef IOPS_JOB_H
#define IOPS_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine_opts.h"

#define JOB_NAME_MAX		256
#define JOB_MAX_FILES		4096	/* nrfiles / filename list bound */
#define JOB_MAX_JOBS		4096	/* total jobs after numjobs expansion */
#define JOB_MAX_PERCENTILES	20	/* FIO_IO_U_LIST_MAX_LEN */
#define JOB_VERIFY_PATTERN_MAX	512	/* verify_pattern bytes (fio's limit) */
#define JOB_VERIFY_PATTERN_O_MAX	16	/* %o in one verify_pattern */

enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };

/* rw= value; names as fio's ddir_str(): read write trim randread randwrite randtrim rw randrw ... */
enum rw_mode {
	RW_READ, RW_WRITE, RW_TRIM, RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM,
	RW_RW, RW_RANDRW, RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

enum fallocate_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP, FALLOC_TRUNCATE };
enum rand_gen { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
/* fadvise_hint=: 0, 1 (random or sequential from rw=), random, sequential */
enum fadvise_hint { FADVISE_NONE, FADVISE_PATTERN, FADVISE_RANDOM, FADVISE_SEQUENTIAL };

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
	unsigned rw_nr_same_offset;	/* rw=randread:N: ios per random offset (1 = default) */
	unsigned rwmixread;		/* 0..100, % of reads in mixed workloads */
	unsigned percentage_random;	/* 0..100 (100 for random rw, 0 for sequential) */

	unsigned iodepth;
	unsigned iodepth_batch_submit;		/* already clamped to 1..iodepth */
	unsigned iodepth_batch_complete_min;	/* 0 = non-blocking poll */
	unsigned iodepth_batch_complete_max;	/* >= complete_min, <= iodepth */
	unsigned iodepth_low;

	char ioengine[32];		/* "libaio", "io_uring", "psync", "sync", "pvsync", "null" */
	struct engine_opts eng;		/* the engine's own options (cpuload, port, program...) */
	bool direct;
	bool invalidate;		/* at open, and again each time the job starts its files over */
	enum fadvise_hint fadvise_hint;	/* default FADVISE_PATTERN */
	enum sync_mode sync;
	bool thread;			/* accepted; iops always runs jobs as threads */
	bool group_reporting;

	uint64_t runtime_ns;		/* 0 = none */
	bool time_based;
	uint64_t ramp_time_ns;
	uint64_t startdelay_ns;
	unsigned loops;			/* >= 1 */

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
	bool zero_buffers;
	bool refill_buffers;

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
	bool rate_poisson;			/* rate_process=poisson */
	bool rate_ignore_thinktime;
	uint64_t thinktime_ns, thinktime_spin_ns, thinktime_iotime_ns;
	uint64_t thinktime_blocks;		/* default 1 */
	bool thinktime_blocks_set;
	bool thinktime_blocks_issue;		/* thinktime_blocks_type=issue */
	/* logs: write_bw_log / write_iops_log / write_lat_log (lib/iolog.h) */
	char *log_prefix[3];		/* bw, iops, lat file prefix: NULL = no such log, "" = the job name */
	unsigned log_avg_msec;		/* 0 = one entry per I/O */
	bool log_max_value, log_offset, log_prio;
	bool per_job_logs;		/* default true: ".<thread_number>" in the names */
	bool bw_avg_time_set, iops_avg_time_set;	/* bwavgtime= / iopsavgtime= given (500 ms) */
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
	/* trim: rw=trim/randtrim/trimwrite/randtrimwrite (derived from rw, like rw_has_write) */
	bool rw_has_trim;
};

enum out_format { OUT_NORMAL = 1u << 0, OUT_JSON = 1u << 1, OUT_JSON_PLUS = 1u << 2, OUT_TERSE = 1u << 3 };
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
};

/* Release everything a fio_config owns (jobs, strings, option lists). */
void fio_config_release(struct fio_config *cfg);

#endif

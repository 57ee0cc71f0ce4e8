/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/opt.h"
#include "fio/conf/opt_value.h"

static struct opt_diag *diag;

static void setup(void)
{
	diag = malloc(sizeof(*diag));
	opt_diag_init(diag);
}

static void teardown(void)
{
	free(diag);
}

static int apply1(struct opt_job *oj, const char *name, const char *val)
{
	const struct opt_def *od = opt_find(name);

	ck_assert_msg(od != NULL, "option %s not in the table", name);
	opt_diag_init(diag);
	return opt_apply(oj, od, val, diag);
}

/* Good and bad values of every supported option; for bad ones the last message line. */
struct opt_case {
	const char *name;
	const char *val;	/* NULL: given without '=' */
	bool ok;
	const char *last;	/* expected last diag line for failures (NULL: don't check) */
};

static const struct opt_case cases[] = {
	{ "name", "job1", true, NULL },
	{ "name", "", false, "fio: failed parsing name=" },
	{ "description", "some text", true, NULL },
	{ "filename", "/tmp/a:/tmp/b", true, NULL },
	{ "filename", "", false, NULL },
	{ "directory", "/tmp", true, NULL },
	{ "filename_format", "$jobname.$filenum", true, NULL },
	{ "size", "1g", true, NULL },
	{ "size", "50%", true, NULL },
	{ "size", "abc", false, "fio: failed parsing size=abc" },
	{ "size", "16e", true, NULL },	/* fio has no 'e': 16 bytes */
	{ "size", "nan", false, "fio: failed parsing size=nan" },
	{ "filesize", "1m", true, NULL },
	{ "filesize", "1m-2m", true, NULL },
	{ "filesize", "x", false, NULL },
	{ "nrfiles", "3", true, NULL },
	{ "nr_files", "3", true, NULL },
	{ "nrfiles", "0", true, NULL },	/* fio: 0 means 1 */
	{ "nrfiles", "-1", false, "fio: option 'nrfiles=4294967295' is not supported by iops (at most 1048576 files per job)" },
	{ "nrfiles", "100000", true, NULL },
	{ "nrfiles", "1048577", false, "fio: option 'nrfiles=1048577' is not supported by iops (at most 1048576 files per job)" },
	{ "offset", "4k", true, NULL },
	{ "offset", "25%", true, NULL },
	{ "fileoffset", "4k", true, NULL },
	{ "io_size", "8m", true, NULL },
	{ "io_limit", "8m", true, NULL },
	{ "io_size", "zz", false, NULL },
	{ "bs", "4k", true, NULL },
	{ "blocksize", "8k,16k", true, NULL },
	{ "bs", "0", false, "fio: failed parsing bs=0" },
	{ "bs", "4k,8k,16k,32k", true, NULL },	/* fio reads the 4th, keeps 3 */
	{ "bsrange", "4k-64k", true, NULL },
	{ "blocksize_range", "4k:4k,4k:4k", true, NULL },
	{ "bsrange", "8k", false, "fio: failed parsing bsrange=8k" },
	{ "ba", "4k", true, NULL },
	{ "blockalign", "512", true, NULL },
	{ "rw", "randrw", true, NULL },
	{ "readwrite", "read:12k", true, NULL },
	{ "rw", "randread:8", true, NULL },
	{ "rw", "foo", false, "fio: failed parsing rw=foo" },
	{ "rw", "randread:abc", true, NULL },	/* fio: atoi, 0 (1 I/O per offset) */
	{ "rw", "trim", true, NULL },
	{ "rw", "read:-8k", true, NULL },
	{ "rw", "read:-x", false, NULL },
	{ "rw", "read:--8k", false, NULL },
	{ "rwmixread", "75", true, NULL },
	{ "rwmixread", "150", false, "fio: failed parsing rwmixread=150" },
	{ "rwmixread", "-1", true, NULL },	/* fio: the parts -1 and 1, the last wins */
	{ "rwmixwrite", "30", true, NULL },
	{ "percentage_random", "20", true, NULL },
	{ "percentage_random", "101", false, NULL },
	{ "iodepth", "32", true, NULL },
	{ "iodepth", "1k", true, NULL },
	{ "iodepth", "0", false, "fio: failed parsing iodepth=0" },
	{ "iodepth", "abc", false, "fio: failed parsing iodepth=abc" },
	{ "iodepth", "100000", false, "fio: failed parsing iodepth=100000" },
	{ "iodepth_batch", "16", true, NULL },
	{ "iodepth_batch_submit", "16", true, NULL },
	{ "iodepth_batch_complete_min", "0", true, NULL },
	{ "iodepth_batch_complete", "4", true, NULL },
	{ "iodepth_batch_complete_max", "32", true, NULL },
	{ "iodepth_low", "8", true, NULL },
	{ "ioengine", "libaio", true, NULL },
	{ "ioengine", "io_uring", true, NULL },
	{ "ioengine", "psync", true, NULL },
	{ "ioengine", "sync", true, NULL },
	{ "ioengine", "pvsync", true, NULL },
	{ "ioengine", "null", true, NULL },
	{ "ioengine", "windowsaio", false,
	  "fio: engine windowsaio is Windows' native AIO, which this build does not include (Linux: libaio, io_uring)" },
	{ "ioengine", "posixaio", true, NULL },
	{ "ioengine", "rbd", false, NULL },
	{ "direct", "1", true, NULL },
	{ "direct", "2", false, "fio: failed parsing direct=2" },
	{ "direct", "yes", false, "fio: failed parsing direct=yes" },
	{ "buffered", "0", true, NULL },
	{ "invalidate", "0", true, NULL },
	{ "numjobs", "8", true, NULL },
	{ "numjobs", "0", false, "error: failed to setup shm segment" },	/* fio's words */
	{ "numjobs", "-1", false, NULL },
	{ "numjobs", "5000", false, NULL },
	{ "thread", NULL, true, NULL },
	{ "thread", "1", true, NULL },
	{ "threads", "1", true, NULL },
	{ "group_reporting", NULL, true, NULL },
	{ "new_group", NULL, true, NULL },
	{ "stonewall", NULL, true, NULL },
	{ "wait_for_previous", NULL, true, NULL },
	{ "wait_for", "job1", true, NULL },
	{ "runtime", "60", true, NULL },
	{ "timeout", "2m", true, NULL },
	{ "runtime", "abc", false, "fio: failed parsing runtime=abc" },
	{ "time_based", NULL, true, NULL },
	{ "time_based", "0", true, NULL },
	{ "time_based", "yes", false, "fio: failed parsing time_based=yes" },
	{ "ramp_time", "5", true, NULL },
	{ "startdelay", "10s", true, NULL },
	{ "startdelay", "1-5", false, NULL },
	{ "loops", "3", true, NULL },
	{ "loops", "0", true, NULL },	/* fio: runs once */
	{ "loops", "-2", false, NULL },
	{ "randrepeat", "0", true, NULL },
	{ "allrandrepeat", "1", true, NULL },
	{ "randseed", "1234", true, NULL },
	{ "randseed", "0x1f", true, NULL },
	{ "randseed", "x", false, NULL },
	{ "norandommap", NULL, true, NULL },
	{ "random_generator", "lfsr", true, NULL },
	{ "random_generator", "mt", false, "fio: failed parsing random_generator=mt" },
	{ "gtod_reduce", "1", true, NULL },
	{ "fallocate", "none", true, NULL },
	{ "fallocate", "0", true, NULL },
	{ "fallocate", "bad", false, "fio: failed parsing fallocate=bad" },
	{ "create_on_open", "1", true, NULL },
	{ "fsync_on_close", "1", true, NULL },
	{ "end_fsync", "1", true, NULL },
	{ "fsync", "32", true, NULL },
	{ "fdatasync", "8", true, NULL },
	{ "sync", "dsync", true, NULL },
	{ "sync", "1", true, NULL },
	{ "sync", "maybe", false, NULL },
	{ "unlink", "1", true, NULL },
	{ "zero_buffers", NULL, true, NULL },
	{ "refill_buffers", NULL, true, NULL },
	{ "percentile_list", "50:99", true, NULL },
	{ "percentile_list", "101", false, "fio: failed parsing percentile_list=101" },
	{ "clat_percentiles", "0", true, NULL },
	{ "lat_percentiles", "1", true, NULL },
	{ "kb_base", "1000", true, NULL },
	{ "kb_base", "7", false, "fio: failed parsing kb_base=7" },
	{ "unit_base", "1", true, NULL },
	{ "unit_base", "2", false, NULL },
	{ "significant_figures", "6", true, NULL },
	{ "significant_figures", "11", false, NULL },
	{ "allow_overwrite", "1", true, NULL },
	{ "verify", "0", true, NULL },
	{ "verify", "crc32c", true, NULL },
	{ "verify", "crc64", true, NULL },
	{ "verify", "sha3-512", true, NULL },
	{ "verify", "bogus", false, "fio: failed parsing verify=bogus" },
	{ "verify_interval", "512", true, NULL },
	{ "verify_interval", "79", false, "fio: failed parsing verify_interval=79" },
	{ "verify_pattern", "0xff%o\"abcd\"-12", true, NULL },
	{ "verify_pattern", "abc", false, "fio: failed parsing verify_pattern=abc" },
	{ "verify_fatal", "2", false, "fio: failed parsing verify_fatal=2" },
	{ "verify_dump", "0", true, NULL },
	{ "verify_dump", "1", true, NULL },
	{ "verify_dump", "2", false, "fio: failed parsing verify_dump=2" },
	{ "verify_state_save", "0", true, NULL },
	{ "verify_async", "4", true, NULL },
	{ "verify_backlog", "16", true, NULL },
	{ "verify_backlog", "0", true, NULL },
	{ "verify_backlog", "1k", true, NULL },
	{ "verify_backlog", "4g", true, NULL },
	{ "verify_backlog", "abc", false, "fio: failed parsing verify_backlog=abc" },
	{ "verify_backlog", "-1", false, "fio: verify_backlog=-1: fio 3.33 reads 18446744073709551615, past 2^63 - 1 (a negative number, wrapped): iops refuses it" },
	{ "verify_backlog_batch", "8", true, NULL },
	{ "verify_backlog_batch", "x", false, "fio: failed parsing verify_backlog_batch=x" },
	{ "experimental_verify", "1", true, NULL },
	{ "experimental_verify", "2", false, "fio: failed parsing experimental_verify=2" },
	{ "do_verify", "1", true, NULL },
	{ "log_avg_msec", "1000", true, NULL },
	{ "disk_util", "1", true, NULL },
	{ "disk_util", "0", false, "fio: option 'disk_util=0' is not supported by iops (only disk_util=1)" },
	{ "unified_rw_reporting", "0", true, NULL },
	{ "unified_rw_reporting", "mixed", true, NULL },
	{ "unified_rw_reporting", "both", true, NULL },
	{ "unified_rw_reporting", "2", true, NULL },
	{ "unified_rw_reporting", "3", false, "fio: failed parsing unified_rw_reporting=3" },
	{ "unified_rw_reporting", "MIXED", false, "fio: failed parsing unified_rw_reporting=MIXED" },
	{ "unified_rw_reporting", "-1", false, "fio: failed parsing unified_rw_reporting=-1" },
	{ "unified_rw_reporting", "mixedx", false, "fio: failed parsing unified_rw_reporting=mixedx" },
	{ "clocksource", "clock_gettime", true, NULL },
	{ "clocksource", "cpu", false, "fio: option 'clocksource=cpu' is not supported by iops (only clocksource=clock_gettime)" },
	{ "bwavgtime", "500", true, NULL },
	{ "bwavgtime", "1000", false, NULL },
	{ "disable_slat", "1", false, NULL },
	{ "bssplit", "4k/50:8k/50", true, NULL },
	{ "bssplit", "4k/60:8k:16k:32k/60", false, "fio: failed parsing bssplit=4k/60:8k:16k:32k/60" },
	{ "random_distribution", "zipf:1.2", true, NULL },
	{ "random_distribution", "zipf:1", false, "fio: failed parsing random_distribution=zipf:1" },
	{ "unlink_each_loop", "1", true, NULL },
	{ "file_service_type", "random:4", true, NULL },
	{ "file_service_type", "random:0", false, "fio: file_service_type=random:0: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type", "zipf:1", false, "fio: failed parsing file_service_type=zipf:1" },
	{ "lockfile", "readwrite", true, NULL },
	{ "lockfile", "shared", false, NULL },
	{ "ss", "100", false, NULL },	/* then the valid values */
	{ "ss", "iops_slope:0.1%", true, NULL },
	{ "ss_dur", "10s", true, NULL },
	{ "ss_dur", "abc", false, "fio: failed parsing steadystate_duration=abc" },
	{ "ss_ramp", "5", true, NULL },
	{ "write_hist_log", "h", true, NULL },
	{ "log_hist_coarseness", "7", false, "fio: failed parsing log_hist_coarseness=7" },
	{ "hipri", NULL, true, NULL },	/* its engine is checked once the job is read */
	{ "nowait", NULL, false, NULL },	/* a 0/1, not a switch */
	{ "uncached", "1", false, "fio: option 'uncached' is not supported by iops: RWF_UNCACHED never "
				  "reached Linux, and the flag value fio 3.33 sends is RWF_ATOMIC on current kernels" },
};

START_TEST(test_option_table)
{
	const struct opt_case *c = &cases[_i];
	struct opt_job oj;
	int ret;

	opt_job_init(&oj);
	ret = apply1(&oj, c->name, c->val);
	ck_assert_msg((ret == 0) == c->ok, "%s=%s: ret %d", c->name, c->val ? c->val : "(none)", ret);
	if (c->ok) {
		ck_assert_uint_eq(oj.nr_kv, 1);
		ck_assert_str_eq(oj.kv[0].value, c->val ? c->val : "");
	} else {
		ck_assert_msg(diag->nr >= 1, "%s: no message", c->name);
		if (c->last)
			ck_assert_str_eq(diag->line[diag->nr - 1], c->last);
		ck_assert_uint_eq(oj.nr_kv, 0);
	}
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_defaults)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert_uint_eq(oj.j.bs_min[0], 4096);
	ck_assert_uint_eq(oj.j.bs_max[2], 4096);
	ck_assert_int_eq(oj.j.rw, RW_READ);
	ck_assert_uint_eq(oj.j.rwmixread, 50);
	ck_assert_uint_eq(oj.j.iodepth, 1);
	ck_assert_str_eq(oj.j.ioengine, "psync");
	ck_assert(oj.j.invalidate);
	ck_assert(!oj.j.direct);
	ck_assert(oj.j.randrepeat);
	ck_assert_uint_eq(oj.j.randseed, 0x89);
	ck_assert_uint_eq(oj.j.loops, 1);
	ck_assert_uint_eq(oj.j.numjobs, 1);
	ck_assert_int_eq(oj.j.fallocate, FALLOC_NATIVE);
	ck_assert_uint_eq(oj.j.nr_percentiles, 17);
	ck_assert(oj.j.percentiles[16] == 99.99);
	ck_assert(oj.j.clat_percentiles);
	ck_assert(!oj.j.lat_percentiles);
	ck_assert_uint_eq(oj.j.kb_base, 1024);
	ck_assert_uint_eq(oj.j.sig_figs, 4);
	ck_assert_uint_eq(oj.nrfiles, 1);
	ck_assert(!oj.j.allow_overwrite);
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_values_land)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert_int_eq(apply1(&oj, "bs", "8k,16k"), 0);
	ck_assert_uint_eq(oj.j.bs_min[0], 8192);
	ck_assert_uint_eq(oj.j.bs_min[1], 16384);
	ck_assert_uint_eq(oj.j.bs_min[2], 16384);
	ck_assert_int_eq(apply1(&oj, "bs", ",32k"), 0);
	ck_assert_uint_eq(oj.j.bs_min[0], 8192);
	ck_assert_uint_eq(oj.j.bs_min[1], 32768);
	ck_assert_int_eq(apply1(&oj, "bsrange", "1k-4k,8k:2k"), 0);	/* fio swaps 8k:2k */
	ck_assert_uint_eq(oj.j.bs_min[DDIR_WRITE], 2048);
	ck_assert_uint_eq(oj.j.bs_max[DDIR_WRITE], 8192);
	ck_assert_int_eq(apply1(&oj, "bsrange", "4k-1k"), 0);	/* fio swaps it */
	ck_assert_int_eq(apply1(&oj, "filesize", "8k-4k"), -EINVAL);
	ck_assert_int_eq(apply1(&oj, "size", "1m-256k"), 0);	/* fio's callback takes each part: 256k */
	ck_assert_uint_eq(oj.j.size, 256 * 1024);
	ck_assert_int_eq(apply1(&oj, "offset", "1m:2m"), 0);	/* the same: 2m */
	ck_assert_uint_eq(oj.j.offset, 2 * 1024 * 1024);
	ck_assert_int_eq(apply1(&oj, "bsrange", "1k-4k,2k:8k"), 0);
	ck_assert_uint_eq(oj.j.bs_min[0], 1024);
	ck_assert_uint_eq(oj.j.bs_max[0], 4096);
	ck_assert_uint_eq(oj.j.bs_min[1], 2048);
	ck_assert_uint_eq(oj.j.bs_max[1], 8192);
	ck_assert_int_eq(apply1(&oj, "rwmixread", "75"), 0);
	ck_assert_int_eq(apply1(&oj, "rwmixwrite", "40"), 0);	/* later wins */
	ck_assert_uint_eq(oj.j.rwmixread, 60);
	ck_assert_int_eq(apply1(&oj, "rw", "read:12k"), 0);
	ck_assert_uint_eq(oj.j.rw_seq_add, 12288);
	ck_assert_int_eq(apply1(&oj, "rw", "randread:8"), 0);
	ck_assert_uint_eq(oj.j.rw_nr_same_offset, 8);
	ck_assert_uint_eq(oj.j.rw_seq_add, 0);
	ck_assert_int_eq(apply1(&oj, "runtime", "2m"), 0);
	ck_assert_uint_eq(oj.j.runtime_ns, 120000000000ull);
	ck_assert_int_eq(apply1(&oj, "buffered", "0"), 0);
	ck_assert(oj.j.direct);
	ck_assert_int_eq(apply1(&oj, "size", "50%"), 0);
	ck_assert_uint_eq(oj.j.size_pct, 50);
	ck_assert_int_eq(apply1(&oj, "kb_base", "1000"), 0);
	ck_assert_int_eq(apply1(&oj, "size", "1m"), 0);
	ck_assert_uint_eq(oj.j.size, 1000000);
	ck_assert_uint_eq(oj.j.size_pct, 0);
	ck_assert_int_eq(apply1(&oj, "percentile_list", "99.9:50:1"), 0);
	ck_assert_uint_eq(oj.j.nr_percentiles, 3);
	ck_assert_uint_eq(oj.j.percentile_precision, 1);
	ck_assert_int_eq(apply1(&oj, "ioengine", "libaio"), 0);
	ck_assert_str_eq(oj.j.ioengine, "libaio");
	ck_assert_int_eq(apply1(&oj, "timeout", "10"), 0);
	ck_assert_str_eq(oj.kv[oj.nr_kv - 1].key, "runtime");	/* canonical name recorded */
	ck_assert_uint_eq(oj.j.unified_rw_rep, 0);
	ck_assert_int_eq(apply1(&oj, "unified_rw_reporting", "both"), 0);
	ck_assert_uint_eq(oj.j.unified_rw_rep, 2);
	ck_assert_int_eq(apply1(&oj, "unified_rw_reporting", "1"), 0);
	ck_assert_uint_eq(oj.j.unified_rw_rep, 1);
	ck_assert_int_eq(apply1(&oj, "unified_rw_reporting", "none"), 0);
	ck_assert_uint_eq(oj.j.unified_rw_rep, 0);
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_range_messages)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert_int_ne(apply1(&oj, "rwmixread", "150"), 0);
	ck_assert_uint_eq(diag->nr, 2);
	ck_assert_str_eq(diag->line[0], "rwmixread: max value out of range: 150 (100 max)");
	ck_assert_int_ne(apply1(&oj, "direct", "2"), 0);
	ck_assert_str_eq(diag->line[0], "max value out of range: 2 (1 max)");
	ck_assert_int_ne(apply1(&oj, "bs", "0"), 0);
	ck_assert_str_eq(diag->line[0], "bs: min value out of range: 0 (1 min)");
	ck_assert_int_ne(apply1(&oj, "iodepth", "0"), 0);
	ck_assert_str_eq(diag->line[0], "iodepth: min value out of range: 0 (1 min)");
	ck_assert_int_ne(apply1(&oj, "percentile_list", "101"), 0);
	ck_assert_str_eq(diag->line[0], "value out of range: 101.000000 (range max: 100.000000)");
	ck_assert_int_ne(apply1(&oj, "rw", "foo"), 0);
	ck_assert(diag->to_stdout[0]);	/* valid values list goes to stdout, like fio */
	ck_assert_str_eq(diag->line[0], "        valid values: read       Reads in ascending offset order");
	ck_assert(!diag->to_stdout[diag->nr - 1]);
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_lookup)
{
	unsigned n;
	const struct opt_def *od;

	ck_assert_ptr_eq(opt_find("readwrite"), opt_find("rw"));
	ck_assert_ptr_eq(opt_find("blocksize"), opt_find("bs"));
	ck_assert_ptr_eq(opt_find("proto"), opt_find("protocol"));	/* the last alias */
	ck_assert_str_eq(opt_alias(opt_find("steadystate")), "ss");
	ck_assert_ptr_null(opt_alias(opt_find("size")));
	ck_assert_ptr_null(opt_find(""));
	ck_assert_ptr_null(opt_find("bogus"));
	ck_assert_ptr_null(opt_find("RW"));	/* case-sensitive like fio */
	od = opt_find_prefix("iodepth_lo", 10, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(od->name, "iodepth_low");
	od = opt_find_prefix("iodept", 6, &n);
	ck_assert_ptr_null(od);
	ck_assert_uint_ge(n, 2);
	od = opt_find_prefix("iodepth", 7, &n);	/* exact beats prefix */
	ck_assert_str_eq(od->name, "iodepth");
	ck_assert_str_eq(opt_suggest("iodept"), "iodepth");
	ck_assert_ptr_null(opt_suggest("zzzzzzzzzzzz"));
}
END_TEST

START_TEST(test_copy_release)
{
	struct opt_job a, b;

	opt_job_init(&a);
	ck_assert_int_eq(apply1(&a, "filename", "x"), 0);
	ck_assert_int_eq(apply1(&a, "description", "d"), 0);
	ck_assert_int_eq(opt_job_copy(&b, &a), 0);
	ck_assert_ptr_ne(a.filename, b.filename);
	ck_assert_str_eq(b.filename, "x");
	ck_assert_uint_eq(b.nr_kv, 2);
	opt_job_clear_kv(&b);
	ck_assert_uint_eq(b.nr_kv, 0);
	opt_job_release(&a);
	opt_job_release(&b);
}
END_TEST

START_TEST(test_table_sane)
{
	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);

		ck_assert_ptr_nonnull(od->name);
		if (od->type != OPT_T_UNSUPPORTED) {
			ck_assert_msg(od->apply != NULL, "%s has no apply", od->name);
			ck_assert_msg(od->help != NULL, "%s has no help", od->name);
		}
		if (od->type == OPT_T_CHOICE)
			ck_assert_ptr_nonnull(od->choices);
		/* no duplicate names, no alias that is another option's name */
		ck_assert_ptr_eq(opt_find(od->name), od);
		if (opt_alias(od))
			ck_assert_ptr_eq(opt_find(opt_alias(od)), od);
	}
	ck_assert_ptr_null(opt_at(opt_count()));
}
END_TEST

/* The plain fields of an entry: a default, an alias, a help text and each choice's word and
 * help are their own strings, never empty ones standing for "none". */
START_TEST(test_table_fields)
{
	unsigned nr_def = 0, nr_alias = 0;

	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);

		if (od->def) {
			ck_assert_msg(*od->def != '\0', "%s has an empty default", od->name);
			ck_assert_ptr_eq(opt_default(od), od->def);
			ck_assert_msg(od->type != OPT_T_UNSUPPORTED, "%s: refused, with a default", od->name);
			nr_def++;
		} else {
			ck_assert_ptr_null(opt_default(od));
		}
		if (od->alias) {
			ck_assert_msg(*od->alias != '\0', "%s has an empty alias", od->name);
			ck_assert_msg(strcmp(od->alias, od->name) != 0, "%s is its own alias", od->name);
			ck_assert_ptr_eq(opt_alias(od), od->alias);
			nr_alias++;
		}
		if (od->help)
			ck_assert_msg(*od->help != '\0', "%s has an empty help", od->name);
		if (od->type == OPT_T_CHOICE) {
			unsigned nr = 0;

			for (const struct opt_choice *c = od->choices; c->word; c++, nr++) {
				ck_assert_msg(*c->word != '\0', "%s: choice %u has no word", od->name, nr);
				ck_assert_msg(c->help != NULL, "%s=%s: no help (\"\" for none)", od->name, c->word);
			}
			ck_assert_msg(nr > 0, "%s has no choices", od->name);
		}
	}
	ck_assert_uint_gt(nr_def, 100);		/* most options show fio's default */
	ck_assert_uint_eq(nr_alias, 22);	/* fio 3.33's second names iops takes */
	ck_assert_str_eq(opt_default(opt_find("rw")), "read");
	ck_assert_str_eq(opt_default(opt_find("percentile_list")),
			 "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99");
	ck_assert_ptr_null(opt_default(opt_find("size")));
	ck_assert_str_eq(opt_find("rw")->choices[0].word, "read");
	ck_assert_str_eq(opt_find("rw")->choices[0].help, "Reads in ascending offset order");
	ck_assert_str_eq(opt_find("readwrite")->name, "rw");
}
END_TEST

/* Every option fio has and iops does not is refused, by name, whatever its value: never ignored
 * (docs/fio-differences.md: an option iops lacks is an error that names it). */
START_TEST(test_unsupported_refused)
{
	unsigned nr = 0;

	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);
		struct opt_job oj;
		char want[OPT_DIAG_LEN];

		if (od->type != OPT_T_UNSUPPORTED)
			continue;
		nr++;
		opt_job_init(&oj);
		opt_diag_init(diag);
		ck_assert_msg(opt_apply(&oj, od, "1", diag) == -EINVAL, "unsupported %s accepted", od->name);
		if (od->help)	/* the reason */
			snprintf(want, sizeof(want), "fio: option '%s' is not supported by iops: %s", od->name, od->help);
		else
			snprintf(want, sizeof(want), "fio: option '%s' is not supported by iops", od->name);
		ck_assert_uint_eq(diag->nr, 1);
		ck_assert_str_eq(diag->line[0], want);
		ck_assert(opt_is_refusal(diag->line[0]));
		opt_job_release(&oj);
	}
	ck_assert_uint_ge(nr, 1);
}
END_TEST

/* The "valid values" list: fio's columns (label %20s, value %-10s, one blank, our description),
 * no trailing blank after a value without a description, one empty line at the end. */
START_TEST(test_choices_layout)
{
	static const struct {
		const char *opt;
		unsigned idx;
		const char *line;
	} rows[] = {
		{ "rw", 0, "        valid values: read       Reads in ascending offset order" },
		{ "rw", 8, "                    : randrw     Mixed reads and writes at random offsets" },
		{ "rw", 10, "                    : randtrimwrite Discard each block, then write it; random order" },
		{ "sync", 0, "        valid values: none      " },
		{ "sync", 4, "                    : dsync     " },
		{ "fallocate", 5, "                    : 0          Same as 'none'" },
		{ "kb_base", 1, "                    : 1000       k/m/g mean 1000^n, ki/mi/gi 1024^n; decimal units shown" },
		{ "unit_base", 0, "        valid values: 0          Chosen automatically" },
		{ "random_generator", 2, "                    : tausworthe64 Tausworthe with 64-bit state" },
		{ "unified_rw_reporting", 5, "                    : 2          Same as both" },
	};
	static const struct {
		const char *opt;
		unsigned nr;	/* values + the closing empty line */
	} counts[] = { { "rw", 12 }, { "sync", 6 }, { "fallocate", 8 }, { "kb_base", 3 }, { "unit_base", 4 },
		       { "random_generator", 4 } };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		opt_diag_init(diag);
		opt_value_choices(diag, opt_find(rows[i].opt));
		ck_assert_uint_gt(diag->nr, rows[i].idx);
		ck_assert_str_eq(diag->line[rows[i].idx], rows[i].line);
	}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		opt_diag_init(diag);
		opt_value_choices(diag, opt_find(counts[i].opt));
		ck_assert_uint_eq(diag->nr, counts[i].nr);
		ck_assert_str_eq(diag->line[diag->nr - 1], "");
		for (unsigned k = 0; k < diag->nr; k++)
			ck_assert(diag->to_stdout[k]);
	}
}
END_TEST

/* Options of the buffer, placement, exitall and error families: values land in the job,
 * bad values fail with fio's last line. */
struct fam_case {
	const char *name, *val;
	bool ok;
	const char *last;	/* NULL: don't check */
};

static const struct fam_case fam_cases[] = {
	{ "number_ios", "10", true, NULL },
	{ "number_ios", "1k", true, NULL },
	{ "number_ios", "-1", false, NULL },
	{ "number_ios", "x", false, NULL },
	{ "buffer_pattern", "0xdeadbeef", true, NULL },
	{ "buffer_pattern", "12abc", false, "fio: failed parsing buffer_pattern=12abc" },
	{ "buffer_pattern", "", false, NULL },
	{ "buffer_pattern", "%o", false, NULL },
	{ "scramble_buffers", "0", true, NULL },
	{ "scramble_buffers", "2", false, NULL },
	{ "buffer_compress_percentage", "100", true, NULL },
	{ "buffer_compress_percentage", "101", false, NULL },
	{ "buffer_compress_chunk", "0", true, NULL },
	{ "dedupe_percentage", "50", true, NULL },
	{ "dedupe_percentage", "-1", true, NULL },	/* fio: -1 then 1, the last wins */
	{ "dedupe_mode", "working_set", true, NULL },
	{ "dedupe_mode", "sometimes", false, NULL },
	{ "dedupe_working_set_percentage", "101", false, NULL },
	{ "dedupe_global", "1", true, NULL },
	{ "cpus_allowed", "0", true, NULL },
	{ "cpus_allowed", "100000", false, "fio: failed parsing cpus_allowed=100000" },
	{ "cpus_allowed", "abc", true, NULL },	/* fio: atoi, CPU 0 */
	{ "cpus_allowed", "1-0", true, NULL },	/* fio: no CPU; the job fails when it starts */
	{ "cpumask", "1", true, NULL },
	{ "cpumask", "0", true, NULL },	/* no CPU: the job fails when it starts, as fio's */
	{ "cpus_allowed_policy", "split", true, NULL },
	{ "cpus_allowed_policy", "half", false, NULL },
	{ "numa_mem_policy", "bind:0", true, NULL },
	{ "numa_mem_policy", "local", true, NULL },
	{ "numa_mem_policy", "xyz", false, "fio: failed parsing numa_mem_policy=xyz" },
	{ "numa_cpu_nodes", "4095", false, "fio: failed parsing numa_cpu_nodes=4095" },
	{ "exitall", NULL, true, NULL },
	{ "exit_what", "stonewall", true, NULL },
	{ "exit_what", "some", false, NULL },
	{ "exitall_on_error", "1", true, NULL },
	{ "continue_on_error", "io", true, NULL },
	{ "continue_on_error", "1", true, NULL },
	{ "continue_on_error", "sometimes", false, NULL },
	{ "ignore_error", "EIO,ENOSPC:122", true, NULL },
	{ "ignore_error", ",", true, NULL },
	{ "ignore_error", "-5", true, NULL },
	{ "ignore_error", "EFOO", false, "fio: failed parsing ignore_error=EFOO" },
	{ "ignore_error", "0", false, NULL },
	{ "ignore_error", "99999", true, NULL },
	{ "ignore_error", "EIO,EIO,EIO,EIO", false, "fio: failed parsing ignore_error=EIO,EIO,EIO,EIO" },
	{ "ignore_error", "5x", true, NULL },	/* fio: atoi, 5 */
	{ "error_dump", "1", true, NULL },
	{ "max_latency", "100", true, NULL },
	{ "max_latency", "10ms,1s", true, NULL },
	{ "max_latency", "abc", false, "fio: failed parsing max_latency=abc" },
	{ "max_latency", "1,2,3,4", true, NULL },	/* fio reads the 4th, keeps 3 */
};

START_TEST(test_family_options)
{
	const struct fam_case *c = &fam_cases[_i];
	struct opt_job oj;
	int ret;

	opt_job_init(&oj);
	ret = apply1(&oj, c->name, c->val);
	ck_assert_msg((ret == 0) == c->ok, "%s=%s: %d", c->name, c->val ? c->val : "(none)", ret);
	if (!c->ok && c->last) {
		ck_assert_uint_gt(diag->nr, 0);
		ck_assert_str_eq(diag->line[diag->nr - 1], c->last);
	}
	opt_job_release(&oj);
}
END_TEST

START_TEST(test_family_values_land)
{
	struct opt_job oj;

	opt_job_init(&oj);
	ck_assert(oj.j.scramble_buffers);	/* fio's defaults */
	ck_assert_uint_eq(oj.j.compress_chunk, 512);
	ck_assert_uint_eq(oj.j.dedupe_ws_pct, 5);
	ck_assert_int_eq(apply1(&oj, "number_ios", "1k"), 0);
	ck_assert_uint_eq(oj.j.number_ios, 1024);
	ck_assert_int_eq(apply1(&oj, "buffer_pattern", "0xab\"cd\""), 0);
	ck_assert_uint_eq(oj.j.buffer_pattern_len, 3);
	ck_assert_mem_eq(oj.j.buffer_pattern, "\xab" "cd", 3);
	ck_assert_int_eq(apply1(&oj, "dedupe_mode", "working_set"), 0);
	ck_assert(oj.j.dedupe_working_set);
	ck_assert_int_eq(apply1(&oj, "cpus_allowed", "0"), 0);
	ck_assert(oj.j.cpus_set && cpuset_has(&oj.j.cpus, 0) && cpuset_count(&oj.j.cpus) == 1);
	ck_assert_int_eq(apply1(&oj, "exit_what", "all"), 0);
	ck_assert_uint_eq(oj.j.exit_what, EXIT_ALL);
	ck_assert_int_eq(apply1(&oj, "continue_on_error", "write"), 0);
	ck_assert_uint_eq(oj.j.cont_on_err, 1u << JOB_ERR_WRITE);
	ck_assert_int_eq(apply1(&oj, "ignore_error", "EAGAIN,ENOSPC:122,-5"), 0);
	ck_assert_uint_eq(oj.j.cont_on_err, 7u);	/* each list turns its kind on */
	ck_assert_uint_eq(oj.j.nr_ignore_err[JOB_ERR_READ], 1);
	ck_assert_int_eq(oj.j.ignore_err[JOB_ERR_READ][0], EAGAIN);
	ck_assert_uint_eq(oj.j.nr_ignore_err[JOB_ERR_WRITE], 2);
	ck_assert_int_eq(oj.j.ignore_err[JOB_ERR_WRITE][0], ENOSPC);
	ck_assert_int_eq(oj.j.ignore_err[JOB_ERR_WRITE][1], 122);
	ck_assert_uint_eq(oj.j.nr_ignore_err[JOB_ERR_VERIFY], 1);
	ck_assert_int_eq(oj.j.ignore_err[JOB_ERR_VERIFY][0], 5);	/* -5 counts as 5 */
	ck_assert_int_ne(apply1(&oj, "ignore_error", "EILSEQ"), 0);	/* not one of fio's names */
	ck_assert_int_eq(apply1(&oj, "max_latency", "100,2ms"), 0);
	ck_assert_uint_eq(oj.j.max_latency_ns[DDIR_READ], 100000);	/* usec by default */
	ck_assert_uint_eq(oj.j.max_latency_ns[DDIR_WRITE], 2000000);
	opt_job_release(&oj);
}
END_TEST

Suite *opt_suite(void)
{
	Suite *s = suite_create("opt");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_option_table, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_values_land);
	tcase_add_test(tc, test_range_messages);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_table_fields);
	tcase_add_test(tc, test_copy_release);
	tcase_add_test(tc, test_table_sane);
	tcase_add_test(tc, test_unsupported_refused);
	tcase_add_test(tc, test_choices_layout);
	tcase_add_loop_test(tc, test_family_options, 0, sizeof(fam_cases) / sizeof(fam_cases[0]));
	tcase_add_test(tc, test_family_values_land);
	suite_add_tcase(s, tc);
	return s;
}

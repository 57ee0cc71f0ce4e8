/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/jobfile.h"
#include "fioconf_text.h"

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

/* Build a config from job-file text (the first file: no implicit stonewall). */
static int build_text(const char *text, struct fio_config *cfg)
{
	return fioconf_from_text(text, cfg, diag);
}

START_TEST(test_numjobs_and_names)
{
	struct fio_config cfg;

	ck_assert_int_eq(build_text("[global]\nioengine=null\n[nj]\nnumjobs=2\nnrfiles=3\nsize=8m\n"
				    "[ex]\nfilename=/tmp/a\\:b:/tmp/c\nnumjobs=2\n", &cfg), 0);
	ck_assert_uint_eq(cfg.nr_jobs, 4);
	ck_assert_uint_eq(cfg.nr_groups, 1);
	ck_assert_str_eq(cfg.jobs[0].name, "nj");
	ck_assert_uint_eq(cfg.jobs[0].thread_number, 1);
	ck_assert_uint_eq(cfg.jobs[1].thread_number, 2);
	ck_assert_uint_eq(cfg.jobs[1].subjob, 1);
	ck_assert_uint_eq(cfg.jobs[1].numjobs, 2);
	ck_assert_uint_eq(cfg.jobs[0].nr_files, 3);
	ck_assert_str_eq(cfg.jobs[0].filenames[2], "nj.0.2");
	ck_assert_str_eq(cfg.jobs[1].filenames[0], "nj.1.0");
	ck_assert(cfg.jobs[0].filenames_generated);
	ck_assert_uint_eq(cfg.jobs[2].nr_files, 2);
	ck_assert_str_eq(cfg.jobs[2].filenames[0], "/tmp/a:b");	/* \: escape */
	ck_assert_str_eq(cfg.jobs[3].filenames[1], "/tmp/c");	/* clones share it */
	ck_assert(!cfg.jobs[3].filenames_generated);
	ck_assert_uint_eq(cfg.jobs[3].job_index, 3);
	ck_assert_uint_eq(cfg.nr_global_opts, 1);
	ck_assert_str_eq(cfg.global_opts[0].key, "ioengine");
	ck_assert_uint_eq(cfg.jobs[0].nr_opts, 3);
	fio_config_release(&cfg);
	ck_assert_ptr_null(cfg.jobs);
}
END_TEST

/* fio's filecreate-ioengine.fio: 31,250 files a job (two of its 16 jobs here) */
START_TEST(test_many_files)
{
	struct fio_config cfg;

	ck_assert_int_eq(build_text("[global]\ncreate_on_open=1\nnrfiles=31250\nioengine=filecreate\n"
				    "fallocate=none\nfilesize=4k\nopenfiles=1\n[t0]\n[t1]\n", &cfg), 0);
	ck_assert_uint_eq(cfg.nr_jobs, 2);
	ck_assert_uint_eq(cfg.jobs[1].nr_files, 31250);
	ck_assert_str_eq(cfg.jobs[1].filenames[31249], "t1.0.31249");
	fio_config_release(&cfg);
}
END_TEST

START_TEST(test_directory_round_robin)
{
	struct fio_config cfg;

	/* fio: each directory must exist */
	ck_assert_int_eq(build_text("[t]\ndirectory=/tmp:/dev/\nnumjobs=3\nfilename_format=$jobname-$jobnum-$filenum.dat\n",
				    &cfg), 0);
	ck_assert_str_eq(cfg.jobs[0].filenames[0], "/tmp/t-0-0.dat");
	ck_assert_str_eq(cfg.jobs[1].filenames[0], "/dev/t-1-0.dat");
	ck_assert_str_eq(cfg.jobs[2].filenames[0], "/tmp/t-2-0.dat");
	fio_config_release(&cfg);
	ck_assert_int_eq(build_text("[t]\ndirectory=/tmp\nfilename=rel:/abs\n", &cfg), 0);
	ck_assert_str_eq(cfg.jobs[0].filenames[0], "/tmp/rel");
	ck_assert_str_eq(cfg.jobs[0].filenames[1], "/abs");
	fio_config_release(&cfg);
}
END_TEST

START_TEST(test_groups)
{
	struct fio_config cfg;

	ck_assert_int_eq(build_text("[global]\nstonewall\n[a]\nnumjobs=2\n[b]\n[c]\nnew_group\n"
				    "[d]\nwait_for=a\nstonewall=0\n", &cfg), 0);
	ck_assert_uint_eq(cfg.nr_jobs, 5);
	ck_assert_uint_eq(cfg.jobs[0].group_id, 0);	/* first job: no jobs before, stays 0 */
	ck_assert_uint_eq(cfg.jobs[1].group_id, 0);
	ck_assert(cfg.jobs[0].stonewall);
	ck_assert(!cfg.jobs[1].stonewall);		/* clones do not stonewall */
	ck_assert_uint_eq(cfg.jobs[2].group_id, 1);
	ck_assert_uint_eq(cfg.jobs[3].group_id, 2);
	ck_assert_uint_eq(cfg.jobs[4].group_id, 2);
	ck_assert_int_eq(cfg.jobs[4].wait_for, 0);
	ck_assert_int_eq(cfg.jobs[0].wait_for, -1);
	ck_assert_uint_eq(cfg.nr_groups, 3);
	/* exitall's stonewall segments: a, a clone, b | c (new_group only) | d (no stonewall) */
	ck_assert_uint_eq(cfg.jobs[0].segment, 0);
	ck_assert_uint_eq(cfg.jobs[1].segment, 0);
	ck_assert_uint_eq(cfg.jobs[2].segment, 1);
	ck_assert_uint_eq(cfg.jobs[3].segment, 2);
	ck_assert_uint_eq(cfg.jobs[4].segment, 2);
	fio_config_release(&cfg);
}
END_TEST

START_TEST(test_derived)
{
	struct fio_config cfg;
	struct job *j;

	ck_assert_int_eq(build_text("[r]\nrw=randrw\nrwmixwrite=25\niodepth=32\niodepth_batch=0\n"
				    "iodepth_batch_complete_min=64\niodepth_low=100\ngtod_reduce=1\n"
				    "percentile_list=99:1:50\ntime_based\n"
				    "[s]\nrw=write\npercentage_random=30\niodepth=8\niodepth_batch=4\n"
				    "iodepth_batch_complete_max=16\n", &cfg), 0);
	j = &cfg.jobs[0];
	ck_assert(j->rw_has_read && j->rw_has_write && j->rw_random);
	ck_assert_uint_eq(j->rwmixread, 75);
	ck_assert_uint_eq(j->percentage_random, 100);
	ck_assert_uint_eq(j->iodepth_batch_submit, 32);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 32);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 32);
	ck_assert_uint_eq(j->iodepth_low, 32);
	ck_assert(j->disable_clat && j->disable_slat && j->disable_lat && j->disable_bw);
	ck_assert(j->percentiles[0] == 1.0 && j->percentiles[2] == 99.0);
	ck_assert(!j->time_based);	/* no runtime: warned and dropped */
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_str_eq(diag->line[0], "fio: time_based requires a runtime/timeout setting");
	j = &cfg.jobs[1];
	ck_assert(!j->rw_has_read && j->rw_has_write && !j->rw_random);
	ck_assert_uint_eq(j->percentage_random, 0);
	ck_assert_uint_eq(j->iodepth_batch_submit, 4);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 8);
	ck_assert_uint_eq(j->iodepth_low, 8);
	fio_config_release(&cfg);
}
END_TEST

/* batch_ready: on unless iodepth_batch(_submit) or iodepth_batch_complete_max is given
 * (iodepth_batch_complete_min alone keeps it). */
static const struct {
	const char *opts;
	bool ready;
} ready_cases[] = {
	{ "iodepth=32\n", true },
	{ "iodepth=32\niodepth_batch=1\n", false },
	{ "iodepth=32\niodepth_batch_submit=8\n", false },
	{ "iodepth=32\niodepth_batch_complete_max=1\n", false },
	{ "iodepth=32\niodepth_batch_complete_min=0\n", true },
	{ "", true },
};

START_TEST(test_batch_ready)
{
	struct fio_config cfg;
	char text[200];

	snprintf(text, sizeof(text), "[r]\n%s", ready_cases[_i].opts);
	ck_assert_int_eq(build_text(text, &cfg), 0);
	ck_assert_int_eq(cfg.jobs[0].batch_ready, ready_cases[_i].ready);
	fio_config_release(&cfg);
}
END_TEST

START_TEST(test_lenient_like_fio)
{
	struct fio_config cfg;

	ck_assert_int_eq(build_text("[a]\nloops=0\nnrfiles=0\niodepth=4\n"
				    "iodepth_batch_complete_min=4\niodepth_batch_complete_max=2\n", &cfg), 0);
	ck_assert_uint_eq(diag->nr, 0);
	ck_assert_int_eq(cfg.jobs[0].wait_for, -1);
	ck_assert_uint_eq(cfg.jobs[0].loops, 1);
	ck_assert_uint_eq(cfg.jobs[0].nr_files, 1);
	ck_assert_uint_eq(cfg.jobs[0].iodepth_batch_complete_max, 4);
	fio_config_release(&cfg);
}
END_TEST

struct bad_case {
	const char *text;
	const char *line;	/* expected last diag line */
};

static const struct bad_case bad_cases[] = {
	{ "[a]\nsize=1k\nbs=4k\n", "fio: size too small, must not be less than minimum block size: 1024 < 4096" },
	{ "[a]\nwait_for=zz\n", "a: waitee job zz unknown." },	/* fio 3.33 rejects the job, and the run */
	{ "[a]\ndirectory=Z\\:\\\n", "fio: directory 'Z:\\' is a Windows path; iops runs on Linux (use a Linux path such as /iops/data)" },
	{ "[a]\nfilename=\\\\.\\PhysicalDrive1\n", "fio: filename '\\\\.\\PhysicalDrive1' is a Windows path; iops runs on Linux (use a Linux path such as /iops/data)" },
	{ "[a]\nfilename=-\n", "fio: filename=- (stdin/stdout) is not supported by iops" },
	{ "[a]\nfilename=:\n", "fio: filename=: names no file (fio 3.33 runs the job without a file: no I/O, an empty report)" },
	{ "[a]\nfilename=:::\n", "fio: filename=::: names no file (fio 3.33 runs the job without a file: no I/O, an empty report)" },
	{ "[a]\nfilename_format=$clientuid.$jobnum\n", "fio: $clientuid in filename_format is not supported by iops" },
	{ "[a]\nnumjobs=4000\n[b]\nnumjobs=200\n", "fio: too many jobs: 4200 (iops supports at most 4096)" },
	{ "[a]\nnumjobs=4000\nnrfiles=2000\n", "fio: too many files in total: 8000000 (iops supports at most 4194304)" },
	{ "[a]\nnrfiles=1048577\n", "fio: option 'nrfiles=1048577' is not supported by iops (at most 1048576 files per job)" },
	{ "[a]\nsize=1g\nbs=1g\niodepth=65536\n", "fio: the jobs' I/O buffers (67108864 MiB) exceed this machine's memory" },
	{ "[a]\nsize=1g\nbs=1g\niodepth=4096\nnumjobs=4096\n", "fio: the jobs' I/O buffers (17179869184 MiB) exceed this machine's memory" },
	/* fio wraps these (offset + size past 2^64, or past off_t): iops refuses */
	/* (fio has no 'e' suffix: 15e is 15 bytes, 15360p is 15 EiB) */
	{ "[a]\nsize=2048p\noffset=15360p\n", "fio: job a dropped" },	/* past 2^63 - 1 (opt_num.c) */
	{ "[a]\nsize=1m\noffset=8192p\n", "fio: job a dropped" },
	{ "[a]\nsize=1m\nfilesize=2048p\noffset=7168p\n", "fio: offset=8070450532247928832 plus size=1048576 is past the largest file offset" },
	{ "[a]\nsize=1m\noffset_increment=4096p\nnumjobs=3\n", "fio: offset=0 plus size=1048576 is past the largest file offset" },
};

START_TEST(test_bad)
{
	struct fio_config cfg;
	int ret = build_text(bad_cases[_i].text, &cfg);

	ck_assert_int_ne(ret, 0);
	ck_assert_uint_ge(diag->nr, 1);
	ck_assert_str_eq(diag->line[diag->nr - 1], bad_cases[_i].line);
	ck_assert_ptr_null(cfg.jobs);
}
END_TEST

START_TEST(test_split_names)
{
	char **names;
	int n;

	n = fioconf_split_names("a:b\\:c::d:", &names, 10);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(names[0], "a");
	ck_assert_str_eq(names[1], "b:c");
	ck_assert_str_eq(names[2], "d");
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ck_assert_int_eq(fioconf_split_names(":", &names, 10), -EINVAL);
	ck_assert_int_eq(fioconf_split_names("a:b:c", &names, 2), -E2BIG);
}
END_TEST

START_TEST(test_format_name)
{
	char out[32];

	ck_assert_int_eq(fioconf_format_name("$jobname.$jobnum.$filenum", "j", 3, 7, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "j.3.7");
	ck_assert_int_eq(fioconf_format_name("x$y", "j", 0, 0, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "x$y");
	ck_assert_int_eq(fioconf_format_name("$jobname$jobname$jobname$jobname", "0123456789", 0, 0, out, sizeof(out)),
			 -ENAMETOOLONG);
}
END_TEST

/* The conformance corpus, fio's example job files, from the project's shared/ directory beside
 * the clone (CI copies it there; a user's clone has none): NULL when it is not there. */
static const char *corpus_dir(void)
{
	static const char *const cands[] = { "../shared/conformance/fio-examples",
					     "../../shared/conformance/fio-examples" };

	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		if (access(cands[i], R_OK) == 0)
			return cands[i];
	return NULL;
}

/* Every example builds, or is refused with one line that names what iops lacks, or fails like
 * fio does on an unknown option or bad value. The comparison with the real fio lives in
 * tests/e2e/t_fioopt_corpus.sh. Registered only when the corpus is there (fioconf_suite). */
START_TEST(test_corpus)
{
	const char *dirpath = corpus_dir();
	struct jobfile_keywords kw;
	DIR *dir;
	struct dirent *de;
	unsigned nr_ok = 0, nr_refused = 0;

	ck_assert_ptr_nonnull(dirpath);
	jobfile_keywords_init(&kw);
	dir = opendir(dirpath);
	ck_assert_ptr_nonnull(dir);
	while ((de = readdir(dir)) != NULL) {
		char path[PATH_MAX];
		struct jobfile jf;
		struct opt_job global;
		struct opt_job_list list = { 0 };
		struct job_kv *gkv = NULL;
		unsigned ngkv = 0, cgkv = 0;
		struct fio_config cfg;
		int ret;

		if (!strstr(de->d_name, ".fio"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		opt_diag_init(diag);
		ret = jobfile_load(&jf, path, NULL, &kw, diag);
		ck_assert_msg(ret == 0, "%s: load failed: %s", de->d_name, diag->nr ? diag->line[0] : "");
		opt_job_init(&global);
		ret = jobfile_apply(&jf, &global, &gkv, &ngkv, &cgkv, &list, 0, false, NULL, 0, diag);
		jobfile_release(&jf);
		opt_job_release(&global);
		if (!ret) {
			memset(&cfg, 0, sizeof(cfg));
			ret = fioconf_build(&cfg, &list, gkv, ngkv, diag);
			if (!ret) {
				ck_assert_uint_ge(cfg.nr_jobs, 1);
				fio_config_release(&cfg);
				nr_ok++;
				continue;
			}
		} else {
			opt_job_list_release(&list);
			opt_kv_free(gkv, ngkv);
		}
		ck_assert_msg(diag->nr >= 1, "%s refused without a message", de->d_name);
		if (opt_is_refusal(diag->line[0]))
			ck_assert_msg(diag->nr == 1, "%s: refusal is not one line", de->d_name);
		else
			ck_assert_msg(!strncmp(diag->line[0], "Bad option <", 12) ||
				      strstr(diag->line[diag->nr - 1], "dropped") ||
				      strstr(diag->line[0], "valid values") ||
				      /* numa.fio on a machine with fewer nodes: fio refuses it too */
				      (diag->nr >= 2 && strstr(diag->line[diag->nr - 2], "numa_parse_nodestring failed")),
				      "%s: unexpected message '%s'", de->d_name, diag->line[0]);
		nr_refused++;
	}
	closedir(dir);
	ck_assert_uint_ge(nr_ok, 10);
	ck_assert_uint_ge(nr_refused, 1);
}
END_TEST

Suite *fioconf_suite(void)
{
	Suite *s = suite_create("fioconf");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_numjobs_and_names);
	tcase_add_test(tc, test_many_files);
	tcase_add_test(tc, test_directory_round_robin);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_derived);
	tcase_add_loop_test(tc, test_batch_ready, 0, sizeof(ready_cases) / sizeof(ready_cases[0]));
	tcase_add_test(tc, test_lenient_like_fio);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_split_names);
	tcase_add_test(tc, test_format_name);
	/* Not counted as passed when it cannot run: a visible SKIP line instead. */
	if (corpus_dir())
		tcase_add_test(tc, test_corpus);
	else
		printf("SKIP: fioconf corpus: ../shared/conformance/fio-examples not found"
		       " (the project's shared/ directory beside the clone)\n");
	suite_add_tcase(s, tc);
	return s;
}

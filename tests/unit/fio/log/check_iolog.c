/* SPDX-License-Identifier: MIT */
/* iolog: fio's bw / iops / lat logs (fio 3.33's log options and stat.c's log sampling). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/log/iolog.h"
#include "fio/log/logzip.h"
#include "fio/conf/opt.h"

static char tmpdir[64];

static void files_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_iolog.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void files_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The whole file into a new buffer (NUL-terminated); *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	ck_assert_ptr_nonnull(f);
	for (;;) {
		if (cap - n < 65537) {
			cap = cap ? cap * 2 : 1u << 20;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);

		if (!r)
			break;
		n += r;
	}
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

static void get(const char *path, char *out, size_t size)
{
	size_t n;
	char *b = slurp(path, &n);

	ck_assert_uint_lt(n, size);
	memcpy(out, b, n + 1);
	free(b);
}

static char the_prefix[128];

/* A job whose logs go to tmpdir/p (the fixture's directory). */
static struct job *job_init(struct job *j)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "job");
	j->thread_number = 3;
	j->per_job_logs = true;
	snprintf(the_prefix, sizeof(the_prefix), "%s/p", tmpdir);
	return j;
}

/* The text of log t of job once lj is written (and released). */
static void dump(struct iolog_job *lj, const struct job *job, enum iolog_type t, char *out, size_t size)
{
	char path[PATH_MAX];
	FILE *devnull = fopen("/dev/null", "w");

	ck_assert_int_eq(iolog_write(lj, job, devnull), 0);
	fclose(devnull);
	ck_assert_int_eq(iolog_name(path, sizeof(path), job, t), 0);
	get(path, out, size);
}

/* ---- windows: samples (time, value, ddir) -> lines -------------------------------------- */

struct sample {
	uint64_t t, v;
	unsigned d;
};

struct win_case {
	const char *what;
	enum iolog_type type;
	unsigned avg_ms;
	bool log_max;
	struct sample s[8];
	unsigned nr;
	uint64_t end_ms;	/* iolog_finish time, 0 = not called */
	const char *want;
};

static const struct win_case win_cases[] = {
	{ "per unit: every sample, bs and offset kept", IOLOG_CLAT, 0, false,
	  { { 0, 17447, 0 }, { 1, 20000, 1 } }, 2, 5,
	  "0, 17447, 0, 4096, 0\n1, 20000, 1, 4096, 0\n" },
	{ "lat window: closes on the first sample past it, mean rounded half up", IOLOG_CLAT, 100, false,
	  { { 10, 1, 0 }, { 107, 2, 0 }, { 150, 9, 0 } }, 3, 0,
	  "107, 2, 0, 0, 0\n" },
	{ "lat window: max instead of mean", IOLOG_LAT, 100, true,
	  { { 10, 1, 0 }, { 50, 7, 0 }, { 107, 2, 0 } }, 3, 0,
	  "107, 7, 0, 0, 0\n" },
	{ "finish stores open windows per direction, read first", IOLOG_LAT, 100, false,
	  { { 10, 4, 1 }, { 20, 6, 0 }, { 30, 8, 1 } }, 3, 42,
	  "42, 6, 0, 0, 0\n42, 6, 1, 0, 0\n" },
	{ "directions have their own windows", IOLOG_SLAT, 200, false,
	  { { 150, 10, 0 }, { 210, 20, 1 }, { 220, 30, 0 }, { 430, 40, 0 } }, 4, 0,
	  "210, 20, 1, 0, 0\n220, 20, 0, 0, 0\n430, 40, 0, 0, 0\n" },
	{ "sampled logs: 1 ms slack, next window aligned to the period", IOLOG_BW, 200, false,
	  { { 199, 74432, 0 }, { 399, 70000, 0 }, { 601, 1, 0 } }, 3, 0,
	  "199, 74432, 0, 0, 0\n399, 70000, 0, 0, 0\n601, 1, 0, 0, 0\n" },
	{ "lat logs have no slack", IOLOG_CLAT, 200, false,
	  { { 199, 3, 0 }, { 200, 5, 0 } }, 2, 0,
	  "200, 4, 0, 0, 0\n" },
	{ "empty windows store nothing", IOLOG_IOPS, 500, false, { { 0, 0, 0 } }, 0, 900, "" },
	{ "trim direction", IOLOG_CLAT, 0, false, { { 3, 9, 2 } }, 1, 0, "3, 9, 2, 4096, 0\n" },
};

START_TEST(test_windows)
{
	const struct win_case *c = &win_cases[_i];
	struct iolog_job *lj = malloc(sizeof(*lj));
	struct iops_err err = { 0 };
	struct job job;
	char out[1024];

	job_init(&job);
	job.log_avg_msec = c->avg_ms;
	job.log_max_value = c->log_max;
	job.log_prefix[0] = job.log_prefix[1] = job.log_prefix[2] = the_prefix;
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
	for (unsigned i = 0; i < c->nr; i++)
		iolog_add(lj, c->type, c->s[i].t, c->s[i].v, c->s[i].d, 4096, 8192, 0);
	if (c->end_ms)	/* without it the open windows stay out */
		iolog_finish(lj, c->end_ms);
	dump(lj, &job, c->type, out, sizeof(out));
	ck_assert_msg(!strcmp(out, c->want), "%s: got\n%s", c->what, out);
	iolog_job_release(lj);
	free(lj);
}
END_TEST

/* Ring: blocks of 32 entries (log_compression=1024, 32-byte entries) wrap many times; every
 * entry reaches the file, in order, the partial last block too. */
START_TEST(test_ring_wrap)
{
	static const unsigned counts[] = { 0, 1, 31, 32, 33, 128, 129, 100000 };
	unsigned nr = counts[_i];
	struct iolog_job *lj = malloc(sizeof(*lj));
	struct iops_err err = { 0 };
	struct job job;
	char path[PATH_MAX];
	char *text, *p;
	unsigned n = 0;

	job_init(&job);
	job.log_prefix[2] = the_prefix;
	job.log_zip_bytes = 1024;
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
	ck_assert_uint_eq(lj->log[IOLOG_CLAT].cap, 32);
	iolog_add(lj, IOLOG_BW, 1, 1, 0, 0, 0, 0);		/* no bw log: ignored */
	iolog_add(lj, IOLOG_CLAT, 1, 1, DDIR_NR, 0, 0, 0);	/* not a direction: ignored */
	ck_assert_uint_eq(lj->log[IOLOG_BW].nr_entries, 0);
	ck_assert_uint_eq(lj->log[IOLOG_CLAT].nr_entries, 0);
	for (unsigned i = 0; i < nr; i++)
		iolog_add(lj, IOLOG_CLAT, i, (uint64_t)i * 3, i & 1, 4096, i, 0);
	iolog_finish(lj, nr);
	ck_assert_uint_eq(lj->log[IOLOG_CLAT].nr_entries, nr);
	ck_assert_uint_eq(lj->log[IOLOG_CLAT].consumed, (nr + 31) / 32);
	ck_assert_int_eq(iolog_write(lj, &job, stderr), 0);
	ck_assert_int_eq(iolog_name(path, sizeof(path), &job, IOLOG_CLAT), 0);
	text = slurp(path, NULL);
	for (p = text; *p; n++) {
		char want[96];
		int len = snprintf(want, sizeof(want), "%u, %llu, %u, 4096, 0\n", n, (unsigned long long)n * 3, n & 1);

		if (strncmp(p, want, (size_t)len))
			ck_abort_msg("line %u: got %.40s, want %s", n, p, want);
		p += len;
	}
	ck_assert_uint_eq(n, nr);
	free(text);
	iolog_job_release(lj);
	free(lj);
}
END_TEST

/* ---- lines and names ------------------------------------------------------------------------ */

START_TEST(test_format)
{
	char b[IOLOG_LINE_MAX];
	struct iolog_entry e = { .time_ms = 1, .value = 17447, .bs = 4096 };
	struct iolog_entry o = { .value = 212106, .ddir = IOLOG_F_OFFSET, .offset = 4046848, .bs = 4096 };
	struct iolog_entry m = { UINT64_MAX, UINT64_MAX, 2 | IOLOG_F_OFFSET | IOLOG_F_PRIO, 0xffff, 0,
				 UINT64_MAX, UINT64_MAX };
	size_t n;

	n = iolog_format(b, &e);
	ck_assert_int_eq((int)n, 21);
	ck_assert(!memcmp(b, "1, 17447, 0, 4096, 0\n", n));
	n = iolog_format(b, &o);
	ck_assert(!memcmp(b, "0, 212106, 0, 4096, 4046848, 0\n", n));
	o.ddir |= IOLOG_F_PRIO;
	n = iolog_format(b, &o);
	ck_assert(!memcmp(b, "0, 212106, 0, 4096, 4046848, 0x0000\n", n));
	e.ddir = IOLOG_F_PRIO;
	e.prio = 2 << 13 | 3;		/* best effort, level 3 */
	n = iolog_format(b, &e);
	ck_assert(!memcmp(b, "1, 17447, 0, 4096, 0x4003\n", n));
	e.ddir = 1;			/* without log_prio: 1 only for the real-time class */
	n = iolog_format(b, &e);
	ck_assert(!memcmp(b, "1, 17447, 1, 4096, 0\n", n));
	e.prio = 1 << 13 | 7;
	n = iolog_format(b, &e);
	ck_assert(!memcmp(b, "1, 17447, 1, 4096, 1\n", n));
	e.prio = 3 << 13;		/* idle */
	n = iolog_format(b, &e);
	ck_assert(!memcmp(b, "1, 17447, 1, 4096, 0\n", n));
	n = iolog_format(b, &m);
	ck_assert_uint_le(n, IOLOG_LINE_MAX);
	ck_assert(!memcmp(b, "18446744073709551615, 18446744073709551615, 2, 18446744073709551615, "
			  "18446744073709551615, 0xffff\n", n));
}
END_TEST

START_TEST(test_names)
{
	struct job job;
	char b[PATH_MAX];
	char *longp = malloc(PATH_MAX + 1);

	job_init(&job);
	job.log_prefix[0] = (char *)"";
	job.log_prefix[1] = (char *)"/d/pre";
	job.log_prefix[2] = (char *)"x";
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_BW), 0);
	ck_assert_str_eq(b, "job_bw.3.log");
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_IOPS), 0);
	ck_assert_str_eq(b, "/d/pre_iops.3.log");
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_SLAT), 0);
	ck_assert_str_eq(b, "x_slat.3.log");
	job.per_job_logs = false;
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_CLAT), 0);
	ck_assert_str_eq(b, "x_clat.log");
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_LAT), 0);
	ck_assert_str_eq(b, "x_lat.log");
	job.log_store_zip = true;	/* log_store_compressed: ".fz" */
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_LAT), 0);
	ck_assert_str_eq(b, "x_lat.log.fz");
	job.per_job_logs = true;
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_BW), 0);
	ck_assert_str_eq(b, "job_bw.3.log.fz");
	ck_assert_int_eq(iolog_name(b, 8, &job, IOLOG_LAT), -ENAMETOOLONG);
	memset(longp, 'a', PATH_MAX);
	longp[PATH_MAX] = 0;
	job.log_prefix[2] = longp;
	ck_assert_int_eq(iolog_name(b, sizeof(b), &job, IOLOG_LAT), -ENAMETOOLONG);
	free(longp);
}
END_TEST

START_TEST(test_sample_window)
{
	struct job job;

	job_init(&job);
	ck_assert(!iolog_job_wants(&job));
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_IOPS), 500);
	job.log_avg_msec = 200;			/* no log: no effect */
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	job.log_prefix[2] = the_prefix;
	ck_assert(iolog_job_wants(&job));
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	job.gtod_reduce = true;			/* fio: no latency logs then */
	ck_assert(!iolog_job_wants(&job));
	job.gtod_reduce = false;
	job.log_prefix[1] = the_prefix;
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_IOPS), 200);
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	job.log_avg_msec = 0;			/* per unit */
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_IOPS), 0);
	job.log_prefix[0] = the_prefix;
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 0);
	/* bwavgtime=500 given: sampling stays at 500 ms, the log window is the smaller one */
	job.bw_avg_time_set = true;
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 0);	/* per unit still */
	job.log_avg_msec = 1000;
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_IOPS), 1000);
	{
		struct iolog_job *lj = malloc(sizeof(*lj));
		struct iops_err err = { 0 };

		ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
		ck_assert_uint_eq(lj->log[IOLOG_BW].avg_ms, 500);
		ck_assert_uint_eq(lj->log[IOLOG_IOPS].avg_ms, 1000);
		ck_assert_uint_eq(lj->log[IOLOG_CLAT].avg_ms, 1000);
		ck_assert(lj->log[IOLOG_CLAT].inline_log && !lj->log[IOLOG_BW].inline_log);
		iolog_job_release(lj);
		free(lj);
	}
	job.log_avg_msec = 200;
	ck_assert_uint_eq(iolog_sample_ms(&job, IOLOG_BW), 500);
	{
		struct iolog_job *lj = malloc(sizeof(*lj));
		struct iops_err err = { 0 };

		ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
		ck_assert_uint_eq(lj->log[IOLOG_BW].avg_ms, 200);
		iolog_job_release(lj);
		free(lj);
	}
}
END_TEST

START_TEST(test_prefix_dup)
{
	struct job a, b;

	job_init(&a);
	a.log_prefix[0] = (char *)"bw";
	a.log_prefix[2] = (char *)"";
	b.log_prefix[0] = b.log_prefix[1] = b.log_prefix[2] = (char *)"stale";
	ck_assert_int_eq(iolog_prefix_dup(&b, &a), 0);
	ck_assert_str_eq(b.log_prefix[0], "bw");
	ck_assert_ptr_ne(b.log_prefix[0], a.log_prefix[0]);
	ck_assert_ptr_null(b.log_prefix[1]);
	ck_assert_str_eq(b.log_prefix[2], "");
	iolog_prefix_free(&b);
	ck_assert_ptr_null(b.log_prefix[0]);
	ck_assert_ptr_null(b.log_prefix[2]);
	iolog_prefix_free(&b);	/* twice is fine */
}
END_TEST

/* ---- options ------------------------------------------------------------------------------ */

struct opt_case {
	const char *name, *val;
	int ok;
	const char *last;
};

static const struct opt_case opt_cases[] = {
	{ "write_bw_log", "pre", 1, NULL },
	{ "write_bw_log", NULL, 1, NULL },
	{ "write_iops_log", "/tmp/x", 1, NULL },
	{ "write_lat_log", "0", 1, NULL },
	{ "log_avg_msec", "0", 1, NULL },
	{ "log_avg_msec", "1000", 1, NULL },
	{ "log_avg_msec", "4294967295", 1, NULL },
	{ "log_avg_msec", "4294967296", 1, NULL },	/* fio's 32-bit field: 0 */
	{ "log_avg_msec", "-1", 1, NULL },		/* fio's 32-bit field: 4294967295 */
	{ "log_avg_msec", "abc", 0, "fio: failed parsing log_avg_msec=abc" },
	{ "log_avg_msec", "", 0, NULL },
	{ "log_avg_msec", "99999999999999999999999", 0, NULL },
	{ "log_max_value", "1", 1, NULL },
	{ "log_max_value", "2", 0, "fio: failed parsing log_max_value=2" },
	{ "log_offset", "0", 1, NULL },
	{ "log_offset", "x", 0, "fio: failed parsing log_offset=x" },
	{ "log_prio", "1", 1, NULL },
	{ "per_job_logs", "0", 1, NULL },
	{ "per_job_logs", "abc", 0, "fio: failed parsing per_job_logs=abc" },
	{ "bwavgtime", "500", 1, NULL },
	{ "iopsavgtime", "250", 0, "fio: option 'iopsavgtime=250' is not supported by iops (only iopsavgtime=500)" },
	{ "log_hist_msec", "10", 1, NULL },
	{ "log_hist_msec", "-1", 1, NULL },	/* fio's 32-bit field: 4294967295 */
	{ "log_hist_coarseness", "6", 1, NULL },
	{ "write_hist_log", "/tmp/h", 1, NULL },
	{ "log_compression", "10", 0, "fio: failed parsing log_compression=10" },
	{ "log_compression", "1023", 0, "fio: failed parsing log_compression=1023" },
	{ "log_compression", "1024", 1, NULL },
	{ "log_compression", "10K", 1, NULL },
	{ "log_compression", "512M", 1, NULL },
	{ "log_compression", "513M", 0, "fio: failed parsing log_compression=513M" },
	{ "log_compression", "junk", 0, "fio: failed parsing log_compression=junk" },
	{ "log_store_compressed", "1", 1, NULL },
	{ "log_store_compressed", "2", 0, "fio: failed parsing log_store_compressed=2" },
	{ "log_compression_cpus", "0", 1, NULL },
	{ "log_compression_cpus", "0-0", 1, NULL },
	{ "log_compression_cpus", "", 1, NULL },
	/* fio's set_cpus_allowed(): atoi of each item ("abc" and "-1" are CPU 0, "0-" is 0) */
	{ "log_compression_cpus", "abc", 1, NULL },
	{ "log_compression_cpus", "0-", 1, NULL },
	{ "log_compression_cpus", "-1", 1, NULL },
	{ "log_compression_cpus", "0,x", 1, NULL },
	{ "log_compression_cpus", "4096", 0, "fio: failed parsing log_compression_cpus=4096" },
	{ "log_compression_cpus", "99999", 0, "fio: failed parsing log_compression_cpus=99999" },
	{ "log_compression_cpus", "99999999999999999999999", 0, NULL },
};

START_TEST(test_options)
{
	const struct opt_case *c = &opt_cases[_i];
	const struct opt_def *od = opt_find(c->name);
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj, copy;
	int ret;

	ck_assert_ptr_nonnull(od);
	opt_job_init(&oj);
	opt_diag_init(d);
	ret = opt_apply(&oj, od, c->val, d);
	ck_assert_msg((ret == 0) == (c->ok != 0), "%s=%s: %d", c->name, c->val ? c->val : "(none)", ret);
	if (!c->ok && c->last) {
		ck_assert_uint_ge(d->nr, 1);
		ck_assert_str_eq(d->line[d->nr - 1], c->last);
	}
	ck_assert_int_eq(opt_job_copy(&copy, &oj), 0);
	opt_job_release(&oj);	/* the copy owns its own strings */
	if (c->ok && !strcmp(c->name, "write_bw_log"))
		ck_assert_str_eq(copy.j.log_prefix[0], c->val ? c->val : "");
	opt_job_release(&copy);
	free(d);
}
END_TEST

START_TEST(test_option_values)
{
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;

	opt_job_init(&oj);
	opt_diag_init(d);
	ck_assert(oj.j.per_job_logs);
	ck_assert_ptr_null(oj.j.log_prefix[0]);
	ck_assert_int_eq(opt_apply(&oj, opt_find("write_iops_log"), "a", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("write_iops_log"), "b", d), 0);	/* the later wins */
	ck_assert_str_eq(oj.j.log_prefix[1], "b");
	ck_assert_int_eq(opt_apply(&oj, opt_find("write_lat_log"), NULL, d), 0);
	ck_assert_str_eq(oj.j.log_prefix[2], "");
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_avg_msec"), "1k", d), 0);
	ck_assert_uint_eq(oj.j.log_avg_msec, 1024);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_max_value"), "1", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_offset"), "1", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_prio"), "1", d), 0);
	ck_assert_int_eq(opt_apply(&oj, opt_find("per_job_logs"), "0", d), 0);
	ck_assert(oj.j.log_max_value && oj.j.log_offset && oj.j.log_prio && !oj.j.per_job_logs);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_compression"), "10k", d), 0);
	ck_assert_uint_eq(oj.j.log_zip_bytes, 10240);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_store_compressed"), "1", d), 0);
	ck_assert(oj.j.log_store_zip);
	ck_assert_int_eq(opt_apply(&oj, opt_find("log_compression_cpus"), "0", d), 0);
	ck_assert_uint_eq(oj.j.log_zip_cpus[0], 1);
	opt_job_release(&oj);
	ck_assert_ptr_null(oj.j.log_prefix[1]);
	free(d);
}
END_TEST

/* ---- files ---------------------------------------------------------------------------------- */

START_TEST(test_check_and_write)
{
	struct iolog_job *lj = malloc(sizeof(*lj));
	struct fio_config cfg = { 0 };
	struct iops_err err = { 0 };
	struct job job;
	char pre[128], path[192], text[256];
	FILE *devnull = fopen("/dev/null", "w");

	job_init(&job);
	snprintf(pre, sizeof(pre), "%s/p", tmpdir);
	job.log_prefix[0] = pre;
	cfg.jobs = &job;
	cfg.nr_jobs = 1;
	snprintf(path, sizeof(path), "%s_bw.3.log", pre);

	/* nothing there yet: fine, and nothing created */
	ck_assert_int_eq(iolog_check(&cfg, &err), 0);
	ck_assert_int_ne(access(path, F_OK), 0);

	/* an old log is truncated when the job starts */
	put(path, "5, 1, 0, 4096, 0\n6, 1, 0, 4096, 0\n7, 1, 0, 4096, 0\n");
	ck_assert_int_eq(iolog_check(&cfg, &err), 0);
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "");
	iolog_add(lj, IOLOG_BW, 1, 17447, 0, 4096, 0, 0);
	iolog_finish(lj, 2);
	ck_assert_int_eq(iolog_write(lj, &job, devnull), 0);
	iolog_job_release(lj);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "1, 17447, 0, 4096, 0\n");

	/* per_job_logs=0: the job's entries are appended once it is done, never mid-run */
	job.per_job_logs = false;
	snprintf(path, sizeof(path), "%s_bw.log", pre);
	put(path, "9, 9, 1, 0, 0\n");
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
	iolog_add(lj, IOLOG_BW, 1, 17447, 0, 4096, 0, 0);
	iolog_finish(lj, 2);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "9, 9, 1, 0, 0\n");
	ck_assert_int_eq(iolog_write(lj, &job, devnull), 0);
	iolog_job_release(lj);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "9, 9, 1, 0, 0\n1, 17447, 0, 4096, 0\n");

	/* something that is not a log: refused, untouched */
	put(path, "precious data\n");
	ck_assert_int_eq(iolog_check(&cfg, &err), -EEXIST);
	ck_assert(strstr(err.msg, "is not a fio log") != NULL);
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);	/* the job's share waits aside */
	iolog_add(lj, IOLOG_BW, 1, 17447, 0, 4096, 0, 0);
	iolog_finish(lj, 2);
	ck_assert_int_eq(iolog_write(lj, &job, devnull), -EEXIST);
	iolog_job_release(lj);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "precious data\n");
	job.per_job_logs = true;
	snprintf(path, sizeof(path), "%s_bw.3.log", pre);
	put(path, "precious data\n");
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), -EEXIST);
	ck_assert(strstr(err.msg, "is not a fio log") != NULL);
	iolog_job_release(lj);
	get(path, text, sizeof(text));
	ck_assert_str_eq(text, "precious data\n");

	/* a symlink: refused, target untouched */
	unlink(path);
	ck_assert_int_eq(symlink("/etc/hostname", path), 0);
	ck_assert_int_eq(iolog_check(&cfg, &err), -ELOOP);
	ck_assert(strstr(err.msg, "symbolic link") != NULL);
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), -ELOOP);
	iolog_job_release(lj);
	unlink(path);

	/* a directory in the way, a missing directory */
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(iolog_check(&cfg, &err), -EEXIST);
	ck_assert(strstr(err.msg, "not a regular file") != NULL);
	rmdir(path);
	snprintf(pre, sizeof(pre), "%s/nodir/p", tmpdir);
	ck_assert_int_eq(iolog_check(&cfg, &err), -ENOENT);
	ck_assert(strstr(err.msg, "No such file or directory") != NULL);
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), -ENOENT);
	iolog_job_release(lj);
	job.per_job_logs = false;
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), -ENOENT);
	iolog_job_release(lj);

	/* an empty file is fine, a compressed log too */
	snprintf(pre, sizeof(pre), "%s/p", tmpdir);
	snprintf(path, sizeof(path), "%s_bw.log", pre);
	put(path, "");
	ck_assert_int_eq(iolog_check(&cfg, &err), 0);
	put(path, "\x78\x9c");
	ck_assert_int_eq(iolog_check(&cfg, &err), 0);
	put(path, "\x78\x9d");
	ck_assert_int_eq(iolog_check(&cfg, &err), -EEXIST);

	free(lj);
	fclose(devnull);
}
END_TEST

/* ---- compressed logs ------------------------------------------------------------------------ */

/* The text --inflate-log prints for file path; NULL with *ret set on failure. */
static char *inflate_text(const char *path, int *ret, struct iops_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int fd = open(path, O_RDONLY);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_ge(fd, 0);
	*ret = logzip_inflate(fd, out, err);
	close(fd);
	fclose(out);
	if (*ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* log_store_compressed=1: the same entries stored as text and compressed; inflating the second
 * gives the first, for both sample sizes, block sizes that split the entries, prio columns. */
START_TEST(test_zip_round_trip)
{
	static const struct { bool off, prio; unsigned zip, nr; } cases[] = {
		{ false, false, 0, 10000 }, { true, false, 1024, 10000 }, { true, true, 4096, 777 },
		{ false, true, 1024, 1 }, { true, false, 1024, 0 }, { false, false, 512u << 20, 5000 },
	};
	struct iolog_job *lj = malloc(sizeof(*lj));
	struct iops_err err = { 0 };
	char path[PATH_MAX];
	char *plain, *inflated;
	struct job job;
	int ret;

	job_init(&job);
	job.log_prefix[2] = the_prefix;
	job.log_offset = cases[_i].off;
	job.log_prio = cases[_i].prio;
	job.log_zip_bytes = cases[_i].zip;
	for (int zip = 0; zip < 2; zip++) {
		job.log_store_zip = zip;
		ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
		for (unsigned i = 0; i < cases[_i].nr; i++)
			iolog_add(lj, IOLOG_LAT, i / 7, (uint64_t)i * 1000003u, i % 3, 4096u << (i % 4),
				  (uint64_t)i << 12, (uint16_t)(i % 8 << 13 | i % 8));
		iolog_finish(lj, cases[_i].nr);
		ck_assert_int_eq(iolog_write(lj, &job, stderr), 0);
		iolog_job_release(lj);
	}
	job.log_store_zip = false;
	ck_assert_int_eq(iolog_name(path, sizeof(path), &job, IOLOG_LAT), 0);
	plain = slurp(path, NULL);
	ck_assert_uint_eq(strlen(plain) > 0, cases[_i].nr > 0);
	job.log_store_zip = true;
	ck_assert_int_eq(iolog_name(path, sizeof(path), &job, IOLOG_LAT), 0);
	inflated = inflate_text(path, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert(!strcmp(plain, inflated));
	free(plain);
	free(inflated);
	free(lj);
}
END_TEST

/* --inflate-log on what is not a whole compressed log: one message, an error. */
START_TEST(test_inflate_bad)
{
	struct iolog_job *lj = malloc(sizeof(*lj));
	struct iops_err err = { 0 };
	char path[PATH_MAX], bad[PATH_MAX];
	struct job job;
	char *z, *text, *full;
	size_t zlen;
	int ret;
	FILE *f;

	job_init(&job);
	job.log_prefix[2] = the_prefix;
	job.log_store_zip = true;
	job.log_zip_bytes = 1024;
	ck_assert_int_eq(iolog_job_init(lj, &job, &err), 0);
	for (unsigned i = 0; i < 1000; i++)
		iolog_add(lj, IOLOG_CLAT, i, i, 0, 4096, 0, 0);
	iolog_finish(lj, 1000);
	ck_assert_int_eq(iolog_write(lj, &job, stderr), 0);
	iolog_job_release(lj);
	free(lj);
	ck_assert_int_eq(iolog_name(path, sizeof(path), &job, IOLOG_CLAT), 0);
	z = slurp(path, &zlen);
	snprintf(bad, sizeof(bad), "%s/bad", tmpdir);

	put(bad, "");		/* empty: nothing to print, fine */
	text = inflate_text(bad, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(text, "");
	free(text);
	put(bad, "1, 2, 0, 4096, 0\n");	/* a text log */
	ck_assert_ptr_null(inflate_text(bad, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert(strstr(err.msg, "fio: failed inflating log: not a compressed fio log") == err.msg);
	full = inflate_text(path, &ret, &err);
	ck_assert_int_eq(ret, 0);
	for (size_t cut = 1; cut < zlen; cut += zlen / 37) {
		/* truncated: an error, unless cut between streams (then the whole entries before) */
		f = fopen(bad, "w");
		fwrite(z, 1, cut, f);
		fclose(f);
		text = inflate_text(bad, &ret, &err);
		if (ret != -EIO && !(ret == 0 && strlen(text) < strlen(full) && !strncmp(text, full, strlen(text))))
			ck_abort_msg("cut at %zu: %d", cut, ret);
		free(text);
	}
	free(full);
	f = fopen(bad, "w");	/* garbage after a whole log */
	fwrite(z, 1, zlen, f);
	fputs("junk", f);
	fclose(f);
	ck_assert_ptr_null(inflate_text(bad, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	free(z);
}
END_TEST

Suite *iolog_suite(void);
Suite *iolog_suite(void)
{
	Suite *s = suite_create("iolog");
	TCase *tc = tcase_create("core");
	TCase *tf = tcase_create("files");

	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_prefix_dup);
	tcase_add_loop_test(tc, test_options, 0, (int)(sizeof(opt_cases) / sizeof(opt_cases[0])));
	tcase_add_test(tc, test_option_values);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, files_setup, files_teardown);
	tcase_add_loop_test(tf, test_windows, 0, (int)(sizeof(win_cases) / sizeof(win_cases[0])));
	tcase_add_loop_test(tf, test_ring_wrap, 0, 8);
	tcase_add_test(tf, test_sample_window);
	tcase_add_test(tf, test_check_and_write);
	tcase_add_loop_test(tf, test_zip_round_trip, 0, 6);
	tcase_add_test(tf, test_inflate_bad);
	suite_add_tcase(s, tf);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the file options (lib/fio/conf/opt_apply_fsvc.c) as job text: file_service_type's
 * kinds and postfixes (0, max, overflow, empty, garbage; fio 3.33's messages), openfiles,
 * lockfile, offset_align, opendir, the boolean options, and the combinations iops refuses. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/opt.h"
#include "fioconf_text.h"

/* ---- options ------------------------------------------------------------------------------ */

/* Whether one of d's lines is msg (a bad choice starts with fio's "valid values" lines). */
static bool has_line(const struct opt_diag *d, const char *msg)
{
	for (unsigned i = 0; i < d->nr; i++)
		if (!strcmp(d->line[i], msg))
			return true;
	return false;
}

static const struct opt_case {
	const char *opts;
	bool ok;
	unsigned fsvc, nr;		/* ok: file_service and its :N */
	double param, center;
	const char *msg;		/* !ok: the first line */
} opt_cases[] = {
	{ "", true, FSVC_RR, 1, 0, -1, NULL },
	{ "file_service_type=random\n", true, FSVC_RANDOM, 1, 0, -1, NULL },
	{ "file_service_type=random:4\n", true, FSVC_RANDOM, 4, 0, -1, NULL },
	{ "file_service_type=roundrobin:1\n", true, FSVC_RR, 1, 0, -1, NULL },
	{ "file_service_type=sequential:7\n", true, FSVC_SEQ, 7, 0, -1, NULL },
	{ "file_service_type=random:2147483647\n", true, FSVC_RANDOM, 2147483647u, 0, -1, NULL },
	{ "file_service_type=zipf\n", true, FSVC_ZIPF, 1, 1.1, -1, NULL },
	{ "file_service_type=zipf:0.5:0.25\n", true, FSVC_ZIPF, 1, 0.5, 0.25, NULL },
	{ "file_service_type=pareto\n", true, FSVC_PARETO, 1, 0.2, -1, NULL },
	{ "file_service_type=normal\n", true, FSVC_NORMAL, 1, 0, -1, NULL },
	{ "file_service_type=gauss:5:1\n", true, FSVC_NORMAL, 1, 5, 1, NULL },
	{ "file_service_type=normal:0:0\n", true, FSVC_NORMAL, 1, 0, 0, NULL },
	/* fio takes atoi() of these and sticks to one file: iops refuses */
	{ "file_service_type=random:0\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=random:0: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=random:x\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=random:x: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=roundrobin:\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=roundrobin:: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=random:2147483648\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=random:2147483648: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=random:4k\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=random:4k: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=random:-1\n", false, 0, 0, 0, 0,
	  "fio: file_service_type=random:-1: the number after ':' must be a count of I/Os from 1 to 2147483647" },
	{ "file_service_type=zipf:1\n", false, 0, 0, 0, 0, "fio: zipf theta must be different than 1.0" },
	{ "file_service_type=zipf:-1\n", false, 0, 0, 0, 0, "fio: zipf theta must not be negative" },	/* fio takes it */
	{ "file_service_type=zipf:abc\n", false, 0, 0, 0, 0, "fio: file service type random postfix parsing failed" },
	{ "file_service_type=zipf:1.2:2\n", false, 0, 0, 0, 0,
	  "fio: distribution center out of range (0 <= center <= 1.0)" },
	{ "file_service_type=pareto:0\n", false, 0, 0, 0, 0, "fio: pareto input out of range (0 < input < 1.0)" },
	{ "file_service_type=pareto:1\n", false, 0, 0, 0, 0, "fio: pareto input out of range (0 < input < 1.0)" },
	{ "file_service_type=normal:100\n", false, 0, 0, 0, 0,
	  "fio: normal deviation out of range (0 <= input < 100.0)" },
	{ "file_service_type=normal:-1\n", false, 0, 0, 0, 0,
	  "fio: normal deviation out of range (0 <= input < 100.0)" },
	{ "file_service_type=bogus\n", false, 0, 0, 0, 0, "fio: failed parsing file_service_type=bogus" },
	{ "file_service_type=randomx\n", false, 0, 0, 0, 0, "fio: failed parsing file_service_type=randomx" },
	{ "file_service_type=\n", false, 0, 0, 0, 0, "fio: failed parsing file_service_type=" },
};

START_TEST(test_fsvc_options)
{
	const struct opt_case *c = &opt_cases[_i];
	char text[512];
	struct fio_config cfg;
	struct opt_diag d;
	int ret;

	snprintf(text, sizeof(text), "[f]\nioengine=null\nsize=64k\nnrfiles=4\n%s", c->opts);
	ret = fioconf_from_text(text, &cfg, &d);
	if (!c->ok) {
		ck_assert_int_ne(ret, 0);
		ck_assert_msg(has_line(&d, c->msg), "%s: no line '%s' (first: '%s')", c->opts, c->msg, d.line[0]);
		return;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(cfg.jobs[0].file_service, c->fsvc);
	ck_assert_uint_eq(cfg.jobs[0].file_service_nr, c->nr);
	if (c->fsvc >= FSVC_ZIPF) {
		ck_assert_double_eq(cfg.jobs[0].fsvc_param, c->param);
		ck_assert_double_eq(cfg.jobs[0].fsvc_center, c->center);
	}
	fio_config_release(&cfg);
}
END_TEST

/* the other file options: accepted values land in the job, bad ones give fio's lines */
static const struct other_case {
	const char *opts;
	int ok;
	const char *msg;
} other_cases[] = {
	{ "openfiles=0\n", 1, NULL },
	{ "openfiles=2\n", 1, NULL },
	{ "openfiles=4294967295\n", 1, NULL },
	{ "openfiles=-1\n", 1, NULL },	/* fio's 32-bit field: 4294967295 */
	{ "openfiles=x\n", 0, "fio: failed parsing openfiles=x" },
	{ "lockfile=exclusive\n", 1, NULL },
	{ "lockfile=readwrite\n", 1, NULL },
	{ "lockfile=none\n", 1, NULL },
	{ "lockfile=shared\n", 0, "fio: failed parsing lockfile=shared" },
	{ "offset_align=0\n", 1, NULL },
	{ "offset_align=64k\n", 1, NULL },
	{ "offset_align=x\n", 0, "fio: failed parsing offset_align=x" },
	{ "file_append=1\ncreate_only=1\ncreate_fsync=0\ncreate_serialize=0\npre_read=1\n", 1, NULL },
	{ "allow_file_create=0\nallow_mounted_write=1\noverwrite=1\nunique_filename=0\nunlink_each_loop=1\n", 1, NULL },
	{ "overwrite=2\n", 0, NULL },
	{ "opendir=\n", 0, "fio: failed parsing opendir=" },
	{ "opendir=/nonexistent/iops-check\n", 0, "fio: opendir(/nonexistent/iops-check) failed: No such file or directory" },
	{ "rw=read\nloops=2\nunlink_each_loop=1\n", 0,
	  "fio: f: unlink_each_loop with a job that reads is refused: from the second loop on there is no file "
	  "to read (fio fails with ENOENT)" },
	{ "rw=write\nopenfiles=2\nverify=crc32c\n", 0,
	  "fio: f: openfiles=2 below the job's 4 files together with verify is not supported by iops" },
	{ "rw=write\nopenfiles=4\nverify=crc32c\n", 1, NULL },
};

START_TEST(test_file_options)
{
	const struct other_case *c = &other_cases[_i];
	char text[512];
	struct fio_config cfg;
	struct opt_diag d;
	int ret;

	snprintf(text, sizeof(text), "[f]\nioengine=null\nsize=64k\nnrfiles=4\n%s", c->opts);
	ret = fioconf_from_text(text, &cfg, &d);
	if (!c->ok) {
		ck_assert_int_ne(ret, 0);
		ck_assert_uint_ge(d.nr, 1);
		if (c->msg)
			ck_assert_msg(has_line(&d, c->msg), "%s: no line '%s' (first: '%s')", c->opts, c->msg, d.line[0]);
		return;
	}
	ck_assert_int_eq(ret, 0);
	if (strstr(c->opts, "allow_file_create=0"))
		ck_assert(cfg.jobs[0].file_create_denied);
	if (strstr(c->opts, "create_fsync=0"))
		ck_assert(cfg.jobs[0].create_no_fsync);
	if (strstr(c->opts, "pre_read=1"))
		ck_assert(!cfg.jobs[0].invalidate);	/* fio: pre_read clears invalidate */
	if (strstr(c->opts, "offset_align=64k"))
		ck_assert_uint_eq(cfg.jobs[0].offset_align, 65536);
	if (strstr(c->opts, "lockfile=readwrite"))
		ck_assert_uint_eq(cfg.jobs[0].lockfile, JOB_LOCK_RW);
	fio_config_release(&cfg);
}
END_TEST

Suite *opt_apply_fsvc_suite(void)
{
	Suite *s = suite_create("opt_apply_fsvc");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_fsvc_options, 0, (int)(sizeof(opt_cases) / sizeof(opt_cases[0])));
	tcase_add_loop_test(tc, test_file_options, 0, (int)(sizeof(other_cases) / sizeof(other_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

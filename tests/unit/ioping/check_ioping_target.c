/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioping/ioping_opts.h"
#include "ioping/ioping_target.h"
#include "unit_skip.h"

static char dir[64];
static char file[96];

static void setup(void)
{
	int fd;
	char buf[4096] = { 1 };

	snprintf(dir, sizeof(dir), "/tmp/check_ioping_target.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/f1", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ck_assert_int_ge(fd, 0);
	for (int i = 0; i < 256; i++)	/* 1 MiB */
		ck_assert_int_eq(write(fd, buf, sizeof(buf)), (int)sizeof(buf));
	close(fd);
}

static void teardown(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/ioping.tmp", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	unlink(p);
	unlink(file);
	rmdir(dir);
}

static int nr_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void opts_for(struct ioping_opts *o, const char *path)
{
	struct iops_err err = { 0 };

	ioping_opts_init(o);
	o->path = path;
	ck_assert_int_eq(ioping_opts_finish(o, &err), 0);
}

struct plan_case {
	int target;		/* 0 dir, 1 file, 2 missing */
	int64_t size, work_size, offset;
	int nr_write;
	int code;		/* expected err code, 0 = ok */
	const char *msg;
	int64_t wsize;		/* expected when ok */
};

static const struct plan_case plan_cases[] = {
	{ 0, 0, 0, 0, 0, 0, NULL, 1 << 20 },
	{ 0, 2 << 20, 0, 0, 0, 0, NULL, 2 << 20 },
	{ 0, 1024, 100, 0, 0, 2, "request size is too big for this target", 0 },
	{ 0, 0, 0, 0, 1, 0, NULL, 1 << 20 },			/* -W is fine on a directory */
	{ 0, 0, 0, INT64_MIN, 0, 2, "target is too small for this", 0 },	/* -o nan */
	{ 1, 0, 0, 0, 0, 0, NULL, 1 << 20 },
	{ 1, 0, 4096, 1020 << 10, 0, 0, NULL, 4096 },
	{ 1, 0, 4096, 1021 << 10, 0, 2, "target is too small for this", 0 },
	{ 1, 0, 2 << 20, 0, 0, 2, "target is too small for this", 0 },
	{ 1, 2 << 20, 0, 0, 0, 2, "request size is too big for this target", 0 },
	{ 1, 0, 0, 1 << 20, 0, 2, "request size is too big for this target", 0 },
	{ 1, 0, 0, (1 << 20) + 4096, 0, 2, "target is too small for this", 0 },
	{ 1, 0, INT64_MIN, 0, 0, 2, "target is too small for this", 0 },	/* -S nan */
	{ 1, 0, 0, INT64_MIN, 0, 2, "request size is too big for this target", 0 },
	{ 1, 0, 0, 0, 1, 2, "think twice, then use -WWW to shred this target", 0 },
	{ 1, 0, 0, 0, 2, 2, "think twice, then use -WWW to shred this target", 0 },
	{ 1, 0, 0, 0, 3, 0, NULL, 1 << 20 },
	{ 2, 0, 0, 0, 0, 2, "stat \"/nonexistent-ioping\" failed: No such file or directory", 0 },
};

START_TEST(test_plan)
{
	const struct plan_case *c = &plan_cases[_i];
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	int ret;

	opts_for(&o, c->target == 0 ? dir : c->target == 1 ? file : "/nonexistent-ioping");
	if (c->size)
		o.size = c->size;
	o.work_size = c->work_size;
	o.work_offset = c->offset;
	o.nr_write = c->nr_write;
	ret = ioping_target_plan(&t, &o, &err);
	if (c->code) {
		ck_assert_msg(ret < 0, "case %d should fail", _i);
		ck_assert_int_eq(err.code, c->code);
		ck_assert_str_eq(err.msg, c->msg);
	} else {
		ck_assert_msg(ret == 0, "case %d: %s", _i, err.msg);
		ck_assert(t.wsize == c->wsize);
		ioping_target_close(&t);
	}
	ck_assert_int_eq(nr_entries(dir), 1);	/* planning never creates anything */
}
END_TEST

START_TEST(test_fifo_rejected)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	char fifo[128], want[160];

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	opts_for(&o, fifo);
	ck_assert_int_lt(ioping_target_plan(&t, &o, &err), 0);
	snprintf(want, sizeof(want), "unsupported destination: \"%s\"", fifo);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(err.code, 2);
}
END_TEST

START_TEST(test_char_device)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	char buf[4096];

	opts_for(&o, "/dev/zero");
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ck_assert_int_eq(t.kind, IOPING_TARGET_CHAR);
	ck_assert(t.wsize == 1 << 20);
	ioping_rng_seed(&rng, 1);
	ck_assert_int_eq(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert_str_eq(t.fstype, "character");
	ck_assert_str_eq(t.device, "device");
	ck_assert_uint_eq(t.device_size, 0);
	ioping_target_close(&t);
}
END_TEST

START_TEST(test_prepare_dir_leaves_nothing)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	struct stat st;
	static char buf[4096];

	opts_for(&o, dir);
	o.work_size = 64 << 10;
	o.work_offset = 8192;
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ioping_rng_seed(&rng, 3);
	ck_assert_int_eq(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert_int_eq(nr_entries(dir), 1);	/* unnamed working file */
	ck_assert_int_eq(fstat(t.fd, &st), 0);
	ck_assert(st.st_size == 8192 + (64 << 10));
	ck_assert(t.device_size > 0);
	ck_assert(t.fstype[0] != '\0');
	ioping_target_close(&t);
	ck_assert_int_eq(nr_entries(dir), 1);
}
END_TEST

START_TEST(test_prepare_keep)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	struct stat st;
	char name[128];
	static char buf[4096];

	opts_for(&o, dir);
	o.keep = true;
	o.work_size = 16 << 10;
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ioping_rng_seed(&rng, 3);
	ck_assert_int_eq(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert(t.created_keep);
	ioping_target_close(&t);
	snprintf(name, sizeof(name), "%s/ioping.tmp", dir);
	ck_assert_int_eq(stat(name, &st), 0);
	ck_assert(st.st_size == 16 << 10);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	/* reused the second time */
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ck_assert_int_eq(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert(!t.created_keep);
	ioping_target_close(&t);
	/* a symlink named ioping.tmp is not followed */
	ck_assert_int_eq(unlink(name), 0);
	ck_assert_int_eq(symlink(file, name), 0);
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ck_assert_int_lt(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert_int_eq(err.code, 2);
	ck_assert_int_eq(stat(file, &st), 0);
	ck_assert(st.st_size == 1 << 20);
}
END_TEST

/* What the kernel answers ioping's steps of -D in dir, asked without iops' code: the fcntl that
 * sets O_DIRECT, then a 1000-byte write; the message iops must give into msg. false (and a
 * counted skip) where both go through (a file system that takes unaligned direct writes). */
static bool kernel_direct_refusal(char *msg, size_t cap)
{
	char path[128];
	char block[1000];
	int fd, fl, e = 0;

	snprintf(path, sizeof(path), "%s/probe-XXXXXX", dir);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	memset(block, 0xa5, sizeof(block));
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT) < 0)
		snprintf(msg, cap, "fcntl(O_DIRECT) failed, please retry without option -D: %s", strerror(e = errno));
	else if (pwrite(fd, block, sizeof(block), 0) < 0)
		snprintf(msg, cap, "preparation write failed: %s", strerror(e = errno));
	close(fd);
	if (!e)
		unit_skip("ioping -D: the kernel takes a 1000-byte O_DIRECT write in %s: no preparation to fail", dir);
	return e != 0;
}

START_TEST(test_direct_unaligned_prep_fails)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	void *buf;

	char want[256];

	if (!kernel_direct_refusal(want, sizeof(want)))
		return;
	opts_for(&o, dir);
	o.direct = true;
	o.size = 1000;
	ck_assert_int_eq(posix_memalign(&buf, 4096, 4096), 0);
	memset(buf, 0xa5, 4096);	/* the caller's buffer is filled (valgrind: no unset bytes written) */
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ioping_rng_seed(&rng, 3);
	ck_assert_int_lt(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert_str_eq(err.msg, want);	/* "preparation write failed: Invalid argument" on ext4 */
	ck_assert_int_eq(err.code, 2);
	ck_assert_int_eq(nr_entries(dir), 1);
	free(buf);
}
END_TEST

START_TEST(test_keep_removed_on_failure)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	char want[256];
	void *buf;

	if (!kernel_direct_refusal(want, sizeof(want)))
		return;
	opts_for(&o, dir);
	o.keep = true;
	o.direct = true;
	o.size = 1000;		/* unaligned: the preparation write fails */
	ck_assert_int_eq(posix_memalign(&buf, 4096, 4096), 0);
	memset(buf, 0xa5, 4096);	/* the caller's buffer is filled (valgrind: no unset bytes written) */
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ioping_rng_seed(&rng, 3);
	ck_assert_int_lt(ioping_target_prepare(&t, &o, &rng, buf, NULL, &err), 0);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(nr_entries(dir), 1);	/* the ioping.tmp it created is gone */
	free(buf);
}
END_TEST

START_TEST(test_stop_during_preparation)
{
	struct ioping_target t;
	struct ioping_opts o;
	struct iops_err err = { 0 };
	struct ioping_rng rng;
	struct ctl ctl;
	static char buf[4096];

	ck_assert_int_eq(ctl_init(&ctl), 0);
	ctl_stop(&ctl, 15);
	opts_for(&o, dir);
	o.keep = true;
	ck_assert_int_eq(ioping_target_plan(&t, &o, &err), 0);
	ioping_rng_seed(&rng, 3);
	ck_assert_int_eq(ioping_target_prepare(&t, &o, &rng, buf, &ctl, &err), -4);
	ck_assert_int_eq(err.code, 128 + 15);
	ck_assert(!iops_err_isset(&err));	/* silent, like a default signal action */
	ck_assert_int_eq(nr_entries(dir), 1);
	ck_assert_int_eq(t.fd, -1);
	ctl_release(&ctl);
}
END_TEST

Suite *ioping_target_suite(void)
{
	Suite *s = suite_create("ioping_target");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_plan, 0, sizeof(plan_cases) / sizeof(plan_cases[0]));
	tcase_add_test(tc, test_fifo_rejected);
	tcase_add_test(tc, test_char_device);
	tcase_add_test(tc, test_prepare_dir_leaves_nothing);
	tcase_add_test(tc, test_prepare_keep);
	tcase_add_test(tc, test_direct_unaligned_prep_fails);
	tcase_add_test(tc, test_keep_removed_on_failure);
	tcase_add_test(tc, test_stop_during_preparation);
	suite_add_tcase(s, tc);
	return s;
}

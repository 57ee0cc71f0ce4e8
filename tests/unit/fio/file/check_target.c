/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/ctl.h"
#include "runner_testjob.h"
#include "fio/file/target.h"
#include "unit_skip.h"

static char tmpdir[256];

static void setup_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iops-target-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_tmp(void)
{
	char cmd[300], mnt[300];

	/* unmount the ENOSPC test's loop filesystem in every path (a failed check ends the test early) */
	snprintf(mnt, sizeof(mnt), "%s/mnt", tmpdir);
	(void)umount2(mnt, MNT_DETACH);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* One job on one file. */
struct tcfg {
	struct fio_config cfg;
	struct job job;
	char *names[1];
	char path[512];
};

static void tcfg_init(struct tcfg *t, enum rw_mode rw, const char *rel, uint64_t size)
{
	memset(t, 0, sizeof(*t));
	testjob_init(&t->job, rw);
	snprintf(t->job.ioengine, sizeof(t->job.ioengine), "psync");
	snprintf(t->path, sizeof(t->path), "%s/%s", tmpdir, rel);
	t->names[0] = t->path;
	t->job.filenames = t->names;
	t->job.nr_files = 1;
	t->job.size = size;
	t->cfg.jobs = &t->job;
	t->cfg.nr_jobs = 1;
	t->cfg.nr_groups = 1;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_size : UINT64_MAX;
}

static void make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

/* fill_device: no size needed (the file has no limit: fio's "all" in the layout line), no
 * free-space check even when the size is more than any volume, and the layout only creates
 * the file, so the writes make it grow until ENOSPC. */
START_TEST(test_target_fill_device)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char *buf = NULL;
	size_t len = 0;
	FILE *info = open_memstream(&buf, &len);

	tcfg_init(&t, RW_WRITE, "fill", 0);
	t.job.rw_has_read = false;
	t.job.rw_has_write = true;
	t.job.fill_device = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_len, TARGET_FILL_BYTES);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_start, 0);
	ck_assert(ts.paths[0].fill && ts.paths[0].fill_open);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	fflush(info);
	ck_assert_str_eq(buf, "t: Laying out IO file (1 file / 17592186044415MiB)\n");
	ck_assert_uint_eq(file_size(t.path), 0);	/* created, not sized */
	target_release(&ts);
	ck_assert_int_eq(unlink(t.path), 0);

	/* a size far beyond any volume: no ENOSPC refusal up front, still only created */
	t.job.size = 1ull << 50;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert(ts.paths[0].fill && !ts.paths[0].fill_open);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_len, 1ull << 50);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), 0);
	target_release(&ts);

	/* without fill_device the same size is refused before anything is touched */
	ck_assert_int_eq(unlink(t.path), 0);
	t.job.fill_device = false;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -ENOSPC);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	fclose(info);
	free(buf);
}
END_TEST

START_TEST(test_target_layout_creates_marks_and_reuses)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char *buf = NULL;
	size_t len = 0;
	FILE *info = open_memstream(&buf, &len);

	tcfg_init(&t, RW_READ, "a/b/f", 3 * 1024 * 1024 + 5);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);	/* planning touches nothing */
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	fflush(info);
	ck_assert_str_eq(buf, "t: Laying out IO file (1 file / 3MiB)\n");
	ck_assert_uint_eq(file_size(t.path), 3 * 1024 * 1024 + 5);
	ck_assert(target_is_marked(t.path));
	ck_assert_uint_eq(ts.jobs[0].files[0].io_len, 3 * 1024 * 1024 + 5);
	{
		char dir[600];
		struct stat st;

		snprintf(dir, sizeof(dir), "%s/a", tmpdir);
		ck_assert_int_eq(stat(dir, &st), 0);
		ck_assert_uint_eq(st.st_mode & 0777, 0700);
	}
	target_release(&ts);

	/* second run: same size, iops-owned → reused without a layout, and writable */
	fclose(info);
	free(buf);
	buf = NULL;
	info = open_memstream(&buf, &len);
	t.job.rw = RW_RANDWRITE;
	t.job.rw_has_read = false;
	t.job.rw_has_write = true;
	t.job.rw_random = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	fflush(info);
	ck_assert_uint_eq(len, 0);
	target_release(&ts);
	fclose(info);
	free(buf);
}
END_TEST

START_TEST(test_target_refuses_foreign_writes)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	tcfg_init(&t, RW_WRITE, "user-data", 1024 * 1024);
	make_file(t.path, 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "allow_overwrite=1"));
	ck_assert_ptr_nonnull(strstr(err.msg, t.path));

	/* reading it is fine */
	tcfg_init(&t, RW_READ, "user-data", 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	target_release(&ts);

	/* extending it for a read job is not */
	tcfg_init(&t, RW_READ, "user-data", 2 * 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -EPERM);
	ck_assert_uint_eq(file_size(t.path), 1024 * 1024);

	/* opt-in */
	tcfg_init(&t, RW_WRITE, "user-data", 2 * 1024 * 1024);
	t.job.allow_overwrite = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), 2 * 1024 * 1024);
	target_release(&ts);
}
END_TEST

START_TEST(test_target_missing_size_fails_the_job_only)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	tcfg_init(&t, RW_READ, "nosuch", 0);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(ts.jobs[0].error, EINVAL);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	target_release(&ts);

	/* an existing file without size= uses the file's size; offset shortens the range */
	tcfg_init(&t, RW_READ, "have", 0);
	make_file(t.path, 65536);
	t.job.offset = 4096;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(ts.jobs[0].error, 0);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_start, 4096);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_len, 65536 - 4096);
	target_release(&ts);

	/* size=50% offset=25% of an existing file */
	t.job.offset = 0;
	t.job.size_pct = 50;
	t.job.offset_pct = 25;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_start, 16384);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_len, 32768);
	target_release(&ts);
}
END_TEST

START_TEST(test_target_interrupted_layout_removes_what_it_created)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct ctl ctl;
	struct tcfg t;
	char dir[600];
	struct stat st;

	ck_assert_int_eq(ctl_init(&ctl), 0);
	tcfg_init(&t, RW_READ, "new1/new2/f", 8 * 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ctl_stop(&ctl, 2);
	ck_assert_int_eq(target_layout(&ts, NULL, &ctl, &err), -EINTR);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	snprintf(dir, sizeof(dir), "%s/new1", tmpdir);
	ck_assert_int_ne(stat(dir, &st), 0);	/* the directories it made are gone too */
	target_release(&ts);
	ctl_release(&ctl);
}
END_TEST

START_TEST(test_target_o_excl_race_keeps_the_intruder)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	tcfg_init(&t, RW_WRITE, "race", 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	make_file(t.path, 12345);	/* someone else creates it between plan and layout */
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), -EEXIST);
	ck_assert_uint_eq(file_size(t.path), 12345);
	target_release(&ts);
}
END_TEST

START_TEST(test_target_nrfiles_split_and_message)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char p[3][512], *names[3];
	char *buf = NULL;
	size_t len = 0;
	FILE *info = open_memstream(&buf, &len);

	tcfg_init(&t, RW_READ, "x", 8 * 1024 * 1024);
	snprintf(t.job.name, sizeof(t.job.name), "nf");
	for (int i = 0; i < 3; i++) {
		snprintf(p[i], sizeof(p[i]), "%s/nf.0.%d", tmpdir, i);
		names[i] = p[i];
	}
	t.job.filenames = names;
	t.job.nr_files = 3;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	fflush(info);
	ck_assert_str_eq(buf, "nf: Laying out IO files (3 files / total 7MiB)\n");
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(file_size(p[i]), 2796202);
		ck_assert_uint_eq(ts.jobs[0].files[i].io_len, 2796202);
	}
	ck_assert_uint_eq(ts.jobs[0].total_size, 8 * 1024 * 1024);
	target_release(&ts);
	fclose(info);
	free(buf);
}
END_TEST

START_TEST(test_target_unlink_only_owned)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	tcfg_init(&t, RW_READ, "mine", 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	target_unlink(&ts, 0, NULL);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	target_release(&ts);

	tcfg_init(&t, RW_READ, "theirs", 65536);
	make_file(t.path, 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	target_unlink(&ts, 0, NULL);
	ck_assert_uint_eq(file_size(t.path), 65536);
	target_release(&ts);
}
END_TEST

/* A failed or stopped run: what it created goes, with the new directories; a file that was
 * there before stays. */
START_TEST(test_target_remove_created_only)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char dir[300];

	tcfg_init(&t, RW_READ, "newdir/sub/mine", 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), 65536);
	target_remove_created(&ts);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	snprintf(dir, sizeof(dir), "%s/newdir", tmpdir);
	ck_assert_int_ne(access(dir, F_OK), 0);
	target_remove_created(&ts);	/* twice: nothing more, nothing fails */
	target_release(&ts);

	tcfg_init(&t, RW_READ, "theirs", 65536);
	make_file(t.path, 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	target_remove_created(&ts);
	ck_assert_uint_eq(file_size(t.path), 65536);
	target_release(&ts);
}
END_TEST

START_TEST(test_target_open_flags_and_bad_paths)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	int fd = -1;

	tcfg_init(&t, RW_READ, "o", 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	ck_assert_int_eq(target_open(&ts, 0, &fd, NULL, &err), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
	ck_assert_int_eq(target_close(&ts, 0, &fd), 0);
	ck_assert_int_eq(fd, -1);
	target_release(&ts);

	/* /dev/null keeps nothing: writes need no opt-in, and unlink leaves it alone */
	memset(&t, 0, sizeof(t));
	tcfg_init(&t, RW_WRITE, "x", 65536);
	snprintf(t.path, sizeof(t.path), "/dev/null");
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	target_unlink(&ts, 0, NULL);
	ck_assert_int_eq(access("/dev/null", F_OK), 0);
	target_release(&ts);

	/* a directory is not a file */
	tcfg_init(&t, RW_READ, "", 65536);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -EISDIR);
	/* a dangling symlink is not followed */
	tcfg_init(&t, RW_WRITE, "dangling", 65536);
	ck_assert_int_eq(symlink("/nonexistent/target", t.path), 0);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -ELOOP);
	ck_assert_int_ne(access("/nonexistent/target", F_OK), 0);
}
END_TEST

/* Free space is checked before anything is written: on a tiny file system, a 64 MiB layout is
 * refused up front and nothing is created. The file system: an 8 MiB ext4 on a loop device, or
 * where there is none an 8 MiB tmpfs; where neither can be mounted (not root, a container
 * without CAP_SYS_ADMIN), a counted skip with the kernel's answer. */
START_TEST(test_target_enospc_refused_up_front)
{
	char img[300], mnt[300], cmd[2048];
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	snprintf(img, sizeof(img), "%s/img", tmpdir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", tmpdir);
	ck_assert_int_eq(mkdir(mnt, 0700), 0);
	snprintf(cmd, sizeof(cmd), "truncate -s 8M '%s' && mkfs.ext4 -q -F '%s' >/dev/null 2>&1 && mount -o loop '%s' '%s' 2>/dev/null",
		 img, img, img, mnt);
	if (system(cmd) != 0 && mount("iops-check", mnt, "tmpfs", 0, "size=8m") != 0) {
		unit_skip("target ENOSPC up front: no loop ext4 and mount(tmpfs) refused here (%s): no small file system",
			  strerror(errno));
		return;
	}
	tcfg_init(&t, RW_READ, "mnt/big", 64 * 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -ENOSPC);
	ck_assert_ptr_nonnull(strstr(err.msg, "not enough free space"));
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	/* a small one fits */
	tcfg_init(&t, RW_READ, "mnt/small", 1024 * 1024);
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	target_release(&ts);
	ck_assert_uint_eq(file_size(t.path), 1024 * 1024);

	/* the space goes away between plan and layout: ENOSPC half-way removes the partial file */
	tcfg_init(&t, RW_READ, "mnt/sub/late", 2 * 1024 * 1024);
	t.job.fallocate = FALLOC_NONE;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	snprintf(cmd, sizeof(cmd), "dd if=/dev/zero of='%s/filler' bs=64k >/dev/null 2>&1; sync", mnt);
	(void)system(cmd);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), -ENOSPC);
	ck_assert_ptr_nonnull(strstr(err.msg, "no space left"));
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);
	snprintf(cmd, sizeof(cmd), "%s/sub", mnt);
	ck_assert_int_ne(access(cmd, F_OK), 0);	/* the directory it made is gone too */
	target_release(&ts);
	ck_assert_int_eq(umount(mnt), 0);
}
END_TEST

START_TEST(test_target_create_on_open_writers)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char *buf = NULL;
	size_t len = 0;
	FILE *info = open_memstream(&buf, &len);

	tcfg_init(&t, RW_WRITE, "coo", 1024 * 1024);
	t.job.create_on_open = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	fflush(info);
	ck_assert_uint_eq(len, 0);	/* fio prints no layout line */
	ck_assert_uint_eq(file_size(t.path), 0);
	ck_assert(target_is_marked(t.path));
	target_release(&ts);

	/* a reader still needs the data laid out */
	tcfg_init(&t, RW_READ, "coo-r", 1024 * 1024);
	t.job.create_on_open = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_int_eq(target_layout(&ts, info, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), 1024 * 1024);
	target_release(&ts);
	fclose(info);
	free(buf);
}
END_TEST

/* Where a job's range starts in an existing 1,000,000-byte file: fio's get_start_offset()
 * (offsets observed with fio 3.33's write_iolog). */
static const struct start_case {
	unsigned offset_pct, inc_pct, subjob;
	uint64_t offset, inc, align;
	bool append;
	uint64_t want;
} start_cases[] = {
	{ 0, 0, 0, 8192, 0, 0, false, 8192 },		/* absolute: as given, never aligned */
	{ 0, 0, 0, 1000, 0, 0, false, 1000 },
	{ 10, 0, 0, 0, 0, 0, false, 102400 },		/* 100000 rounded up to the 4k bs */
	{ 10, 0, 0, 0, 0, 65536, false, 131072 },	/* ... to offset_align */
	{ 10, 0, 0, 0, 0, 3000, false, 102000 },
	{ 0, 10, 1, 0, 0, 0, false, 102400 },		/* offset_increment=10%, clone 1 */
	{ 5, 10, 1, 0, 0, 3000, false, 150000 },	/* 50000 + 100000, a multiple of 3000 */
	{ 0, 0, 2, 4096, 1000, 0, false, 6096 },	/* absolute increment: no alignment */
	{ 0, 0, 0, 0, 0, 0, true, 1000000 },		/* file_append: the file's size */
	{ 50, 0, 0, 8192, 0, 0, true, 1000000 },	/* ... whatever offset says */
	{ 100, 0, 0, 0, 0, 1, false, 1000000 },		/* align 1: exact */
};

START_TEST(test_target_start_offsets)
{
	const struct start_case *c = &start_cases[_i];
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;

	tcfg_init(&t, RW_WRITE, "s", 4096);
	make_file(t.path, 1000000);
	t.job.allow_overwrite = true;
	t.job.offset_pct = c->offset_pct;
	t.job.offset = c->offset;
	t.job.offset_increment_pct = c->inc_pct;
	t.job.offset_increment = c->inc;
	t.job.subjob = c->subjob;
	t.job.offset_align = c->align;
	t.job.file_append = c->append;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert_uint_eq(ts.jobs[0].files[0].io_start, c->want);
	target_release(&ts);
	unlink(t.path);
}
END_TEST

/* allow_file_create=0: a missing file is refused before anything is created; an existing one
 * is fine. create_fsync=0 reaches the layout. */
START_TEST(test_target_file_create_denied)
{
	struct iops_err err = { 0 };
	struct target_set ts;
	struct tcfg t;
	char want[700];

	tcfg_init(&t, RW_READ, "nofile", 65536);
	t.job.file_create_denied = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), -EPERM);
	snprintf(want, sizeof(want), "fio: file creation disallowed by allow_file_create=0 ('%s')", t.path);
	ck_assert_str_eq(err.msg, want);
	ck_assert_uint_eq(file_size(t.path), UINT64_MAX);	/* nothing created */

	make_file(t.path, 65536);	/* an existing file needs no creation */
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	target_release(&ts);
	unlink(t.path);

	tcfg_init(&t, RW_READ, "nofsync", 65536);
	t.job.create_no_fsync = true;
	ck_assert_int_eq(target_plan(&ts, &t.cfg, NULL, &err), 0);
	ck_assert(ts.paths[0].no_create_fsync);
	ck_assert_int_eq(target_layout(&ts, NULL, NULL, &err), 0);
	ck_assert_uint_eq(file_size(t.path), 65536);
	target_release(&ts);
}
END_TEST

Suite *target_suite(void);
Suite *target_suite(void)
{
	Suite *s = suite_create("target");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup_tmp, teardown_tmp);	/* runs even when a test fails */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_target_layout_creates_marks_and_reuses);
	tcase_add_test(tc, test_target_refuses_foreign_writes);
	tcase_add_test(tc, test_target_missing_size_fails_the_job_only);
	tcase_add_test(tc, test_target_interrupted_layout_removes_what_it_created);
	tcase_add_test(tc, test_target_o_excl_race_keeps_the_intruder);
	tcase_add_test(tc, test_target_nrfiles_split_and_message);
	tcase_add_test(tc, test_target_unlink_only_owned);
	tcase_add_test(tc, test_target_remove_created_only);
	tcase_add_test(tc, test_target_create_on_open_writers);
	tcase_add_test(tc, test_target_fill_device);
	tcase_add_test(tc, test_target_open_flags_and_bad_paths);
	tcase_add_loop_test(tc, test_target_start_offsets, 0, (int)(sizeof(start_cases) / sizeof(start_cases[0])));
	tcase_add_test(tc, test_target_file_create_denied);
	tcase_add_test(tc, test_target_enospc_refused_up_front);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the file engines that are not plain reads and writes: falloc
 * (engine_falloc.c), ftruncate (engine_ftruncate.c), mmap (engine_mmap.c), splice
 * (engine_splice.c) and e4defrag (engine_e4defrag.c), on unlinked temporary files (e4defrag's
 * are named: ext4 moves no extents of an unlinked file). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "engine/engine.h"
#include "engine_rig.h"
#include "engine_seccomp.h"
#include "unit_skip.h"

static const char *const copy_engines[] = { "mmap", "splice" };

static int64_t one(struct rig *rig, enum io_op op, int fd, void *buf, uint64_t len, uint64_t off)
{
	set_req(&rig->reqs[0], op, fd, buf, len, off);
	ck_assert_int_eq(rig->ops->queue(rig->ctx, &rig->reqs[0]), ENGINE_DONE);
	return rig->reqs[0].result;
}

static uint64_t blocks_of(int fd)
{
	struct stat st;

	ck_assert_int_eq(fstat(fd, &st), 0);
	return (uint64_t)st.st_blocks;
}

static uint64_t size_of(int fd)
{
	struct stat st;

	ck_assert_int_eq(fstat(fd, &st), 0);
	return (uint64_t)st.st_size;
}

/* mmap and splice move real data: write shuffled blocks, read them back, compare. */
START_TEST(test_copy_roundtrip)
{
	const char *name = copy_engines[_i];
	size_t total = (size_t)NR_BLOCKS * BS;
	unsigned char *wbuf = aligned_buf(total), *rbuf = aligned_buf(total);
	int fd = temp_file(total, false);
	struct rig rig;

	for (unsigned b = 0; b < NR_BLOCKS; b++)
		fill_block(wbuf + (size_t)b * BS, b);
	rig_init(&rig, name, 1);
	run_ios(&rig, IO_WRITE, fd, wbuf, NR_BLOCKS);
	run_ios(&rig, IO_READ, fd, rbuf, NR_BLOCKS);
	if (memcmp(wbuf, rbuf, total))
		ck_abort_msg("%s: data read back differs", name);
	/* a pread sees what the engine wrote */
	ck_assert_int_eq(pread(fd, rbuf, BS, 5 * BS), BS);
	ck_assert_int_eq(memcmp(rbuf, wbuf + 5 * BS, BS), 0);
	/* unaligned offset and odd length */
	ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, 1001, 4097), 1001);
	ck_assert_int_eq(memcmp(rbuf, wbuf + 4097, 1001), 0);
	/* reads past the end are short, or empty */
	ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, 2 * BS, total - BS), BS);
	ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, BS, total + BS), 0);
	/* a write past the end extends the file */
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, wbuf, BS, total + 3 * BS), BS);
	ck_assert_uint_eq(size_of(fd), total + 4 * BS);
	/* syncs, bad op, overflow */
	ck_assert_int_eq(one(&rig, IO_FSYNC, fd, NULL, 0, 0), 0);
	ck_assert_int_eq(one(&rig, IO_FDATASYNC, fd, NULL, 0, 0), 0);
	ck_assert_int_eq(one(&rig, IO_TRIM, fd, rbuf, BS, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, BS, UINT64_MAX - 4), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_READ, -1, rbuf, BS, 0), -EBADF);
	rig_release(&rig);
	close(fd);
	free(wbuf);
	free(rbuf);
}
END_TEST

/* splice with requests larger than its pipe: moved in chunks. */
START_TEST(test_splice_big)
{
	size_t len = 4u << 20;
	unsigned char *wbuf = aligned_buf(len), *rbuf = aligned_buf(len);
	int fd = temp_file(0, false);
	struct rig rig;

	for (size_t i = 0; i < len; i++)
		wbuf[i] = (unsigned char)(i * 13u + (i >> 12));
	rig_init(&rig, "splice", 1);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, wbuf, len, 0), (int64_t)len);
	ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, len, 0), (int64_t)len);
	ck_assert_int_eq(memcmp(wbuf, rbuf, len), 0);
	rig_release(&rig);
	close(fd);
	free(wbuf);
	free(rbuf);
}
END_TEST

/* falloc: each direction's fallocate mode does what the kernel does with it, asked first
 * without the engine (probe_falloc in the scratch directory): where a mode is refused (a file
 * system without fallocate, or without hole punching), the engine passes the kernel's errno on
 * and the effect on the file's blocks is a counted skip. */
static int64_t falloc_want(int refused, uint64_t len, const char *mode)
{
	if (refused)
		unit_skip("falloc: the kernel refuses fallocate(%s) in %s (%s): its effect is not checked, the errno is",
			  mode, probe_dir(), strerror(refused));
	return refused ? -(int64_t)refused : (int64_t)len;
}

START_TEST(test_falloc_modes)
{
	int e_alloc = probe_falloc(probe_dir(), 0), e_keep = probe_falloc(probe_dir(), FALLOC_FL_KEEP_SIZE);
	int e_punch = probe_falloc(probe_dir(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE);
	int fd = temp_file(0, false);
	struct rig rig;
	uint64_t b0, b1;

	rig_init(&rig, "falloc", 1);
	/* write: allocate and extend */
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 64 * 1024, 0), falloc_want(e_alloc, 64 * 1024, "0"));
	if (e_alloc)
		ck_assert_int_eq(ftruncate(fd, 64 * 1024), 0);	/* the size the rest expects */
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	b0 = blocks_of(fd);
	if (!e_alloc)
		ck_assert_uint_ge(b0, 128);
	/* read: keep size, allocate beyond it */
	ck_assert_int_eq(one(&rig, IO_READ, fd, NULL, 64 * 1024, 64 * 1024), falloc_want(e_keep, 64 * 1024, "KEEP_SIZE"));
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	b1 = blocks_of(fd);
	if (!e_keep)
		ck_assert_uint_gt(b1, b0);
	/* trim: punch, size kept */
	ck_assert_int_eq(one(&rig, IO_TRIM, fd, NULL, 128 * 1024, 0),
			 falloc_want(e_punch, 128 * 1024, "PUNCH_HOLE|KEEP_SIZE"));
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	if (!e_punch && b1)
		ck_assert_uint_lt(blocks_of(fd), b1);
	/* errors: a zero length gets the kernel's own answer (EINVAL), the rest never reaches it */
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 0, 0), fallocate(fd, 0, 0, 0) < 0 ? -(int64_t)errno : 0);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 4096, UINT64_MAX - 10), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, UINT64_MAX, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, (enum io_op)77, fd, NULL, 4096, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, -1, NULL, 4096, 0), fallocate(-1, 0, 0, 4096) < 0 ? -(int64_t)errno : 4096);
	ck_assert_int_eq(one(&rig, IO_FSYNC, fd, NULL, 0, 0), 0);
	rig_release(&rig);
	close(fd);
}
END_TEST

/* The refusal on every machine: fallocate fails under a seccomp filter with the errnos a file
 * system answers (EOPNOTSUPP, ENOSPC, EPERM): every direction passes it on, nothing else
 * changes. In a child (the filter cannot be lifted). */
static const int falloc_refusals[] = { EOPNOTSUPP, ENOSPC, EPERM };

START_TEST(test_falloc_refused)
{
	UNIT_NEED(unit_have_seccomp(why_));	/* the refusal is a seccomp filter's (qemu-user has none) */
	int deny = falloc_refusals[_i], fd = temp_file(16 * 1024, false), status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		static const enum io_op ops[] = { IO_WRITE, IO_READ, IO_TRIM };
		struct rig rig;
		int code = 0;

		rig_init(&rig, "falloc", 1);
		if (seccomp_deny_arg1(SYS_fallocate, 0, deny) || seccomp_deny_arg1(SYS_fallocate, FALLOC_FL_KEEP_SIZE, deny) ||
		    seccomp_deny_arg1(SYS_fallocate, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, deny))
			_exit(90);
		for (unsigned i = 0; i < NR(ops) && !code; i++) {
			set_req(&rig.reqs[0], ops[i], fd, NULL, 4096, 32 * 1024);
			if (rig.ops->queue(rig.ctx, &rig.reqs[0]) != ENGINE_DONE || rig.reqs[0].result != -deny)
				code = 1 + (int)i;
		}
		if (!code && size_of(fd) != 16 * 1024)
			code = 10;
		rig_release(&rig);
		_exit(code);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	close(fd);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "fallocate refused with %s: failed at step %d", strerror(deny),
		      WEXITSTATUS(status));
}
END_TEST

START_TEST(test_ftruncate)
{
	int fd = temp_file(0, false);
	struct rig rig;

	rig_init(&rig, "ftruncate", 1);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 4096, 8192), 4096);	/* counts its bs */
	ck_assert_uint_eq(size_of(fd), 8192);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 4096, 0), 4096);
	ck_assert_uint_eq(size_of(fd), 0);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 1, (uint64_t)INT64_MAX + 1), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_READ, fd, NULL, 4096, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_TRIM, fd, NULL, 4096, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, -1, NULL, 4096, 0), -EBADF);
	ck_assert_int_eq(one(&rig, IO_FDATASYNC, fd, NULL, 0, 0), 0);
	rig_release(&rig);
	close(fd);
}
END_TEST

/* The kernel's own answer to EXT4_IOC_MOVE_EXT, asked without the engine: 0 when it moves the
 * extents of a written file in dir into a donor's blocks, else the errno it refuses with
 * (ENOTTY or EOPNOTSUPP off ext4; EPERM where the kernel forbids the move). */
struct move_ext {		/* the kernel's struct move_extent */
	uint32_t reserved, donor_fd;
	uint64_t orig_start, donor_start, len, moved_len;
};
#define MOVE_EXT	_IOWR('f', 15, struct move_ext)

static int kernel_move_ext(const char *dir)
{
	struct move_ext me = { 0 };
	char path[512], donor[512];
	unsigned char *buf = aligned_buf(4 * BS);
	int fd, dfd, e = 0;

	snprintf(path, sizeof(path), "%s/iops-check-move-XXXXXX", dir);
	snprintf(donor, sizeof(donor), "%s/iops-check-mdonor-XXXXXX", dir);
	fd = mkstemp(path);
	dfd = mkstemp(donor);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(dfd, 0);
	memset(buf, 0x5a, 4 * BS);
	ck_assert_int_eq(pwrite(fd, buf, 4 * BS, 0), 4 * BS);
	ck_assert_int_eq(fsync(fd), 0);
	if (fallocate(dfd, 0, 0, 4 * BS) < 0) {
		e = errno;
	} else {
		me.donor_fd = (uint32_t)dfd;
		me.len = 4;
		if (ioctl(fd, MOVE_EXT, &me) < 0)
			e = errno;
	}
	unlink(path);
	unlink(donor);
	close(fd);
	close(dfd);
	free(buf);
	return e;
}

/* A written, synced file in dir, dropped from the cache and opened again, as the runner leaves
 * a laid-out file: 16 blocks of fill_block(). Its name goes to path. */
static int e4defrag_file(const char *dir, char *path, size_t size, unsigned char *wbuf)
{
	int fd;

	/* a named file: ext4 does not move the extents of an unlinked one */
	snprintf(path, size, "%s/iops-check-e4defrag-XXXXXX", dir);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	for (unsigned b = 0; b < 16; b++)
		fill_block(wbuf + (size_t)b * BS, b);
	ck_assert_int_eq(pwrite(fd, wbuf, 16 * BS, 0), (ssize_t)(16 * BS));
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static const char *scratch_dir(void)
{
	return getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
}

/* e4defrag: the data stays what it was after its blocks moved. Where the kernel refuses the
 * move (asked directly: kernel_move_ext), the engine passes the kernel's errno on unchanged
 * and leaves the data as it was; the moved-data part is then a counted skip. */
START_TEST(test_e4defrag)
{
	const char *dir = scratch_dir();
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo };
	size_t total = 16 * BS;
	unsigned char *wbuf = aligned_buf(total), *rbuf = aligned_buf(total);
	int refused = kernel_move_ext(dir);
	char path[512];
	struct iops_err err = { 0 };
	struct rig rig;
	void *ctx = NULL;
	int64_t r;
	int fd;

	/* no donor: refused */
	ck_assert_int_eq(engine_find("e4defrag")->init(&cfg, &ctx, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "donorname"));
	snprintf(eo.e4defrag.donorname, sizeof(eo.e4defrag.donorname), "%s/iops-check-donor-%d", dir,
		 (int)getpid());
	fd = e4defrag_file(dir, path, sizeof(path), wbuf);
	if (refused)
		unit_skip("e4defrag: the kernel refuses EXT4_IOC_MOVE_EXT in %s (%s): the data after a move is not checked, the refusal is",
			  dir, err_str(refused));
	for (int inplace = 0; inplace < 2; inplace++) {
		eo.e4defrag.inplace = inplace;
		rig_init_cfg(&rig, "e4defrag", cfg);
		r = one(&rig, IO_WRITE, fd, NULL, 4 * BS, 4 * BS);
		ck_assert_int_eq(r, refused ? -(int64_t)refused : (int64_t)(4 * BS));
		ck_assert_int_eq(pread(fd, rbuf, total, 0), (ssize_t)total);
		ck_assert_int_eq(memcmp(wbuf, rbuf, total), 0);
		ck_assert_int_eq(one(&rig, IO_READ, fd, rbuf, BS, 0), -EINVAL);
		ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 0, 0), -EINVAL);
		ck_assert_int_eq(one(&rig, IO_FSYNC, fd, NULL, 0, 0), 0);
		rig_release(&rig);
	}
	unlink(eo.e4defrag.donorname);
	unlink(path);
	close(fd);
	free(wbuf);
	free(rbuf);
}
END_TEST

/* The refusal on every machine: a seccomp filter makes EXT4_IOC_MOVE_EXT fail with each errno
 * a kernel answers (EPERM, EOPNOTSUPP, ENOTTY, EINVAL); the engine passes it on, the data
 * stays, the other calls still work. In a child (the filter cannot be lifted). Where the file
 * system refuses the donor's fallocate (asked first), that refusal comes before the ioctl's. */
static const int move_refusals[] = { EPERM, EOPNOTSUPP, ENOTTY, EINVAL };

START_TEST(test_e4defrag_refused)
{
	UNIT_NEED(unit_have_seccomp(why_));	/* the refusal is a seccomp filter's (qemu-user has none) */
	const char *dir = scratch_dir();
	int deny = move_refusals[_i], status, e_alloc = probe_falloc(dir, 0);
	char path[512];
	unsigned char *wbuf = aligned_buf(16 * BS);
	int fd = e4defrag_file(dir, path, sizeof(path), wbuf);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct engine_opts eo = { 0 };
		struct engine_cfg cfg = { .depth = 1, .opts = &eo };
		unsigned char *rbuf = aligned_buf(16 * BS);
		struct rig rig;
		int code = 0;

		snprintf(eo.e4defrag.donorname, sizeof(eo.e4defrag.donorname), "%s.donor", path);
		if (e_alloc) {
			unit_skip("e4defrag: the kernel refuses the donor's fallocate in %s (%s): the ioctl's refusal is not reached",
				  dir, strerror(e_alloc));
			deny = e_alloc;
		} else if (seccomp_deny_arg1(SYS_ioctl, MOVE_EXT, deny)) {
			_exit(90);
		}
		rig_init_cfg(&rig, "e4defrag", cfg);
		set_req(&rig.reqs[0], IO_WRITE, fd, NULL, 4 * BS, 4 * BS);
		if (rig.ops->queue(rig.ctx, &rig.reqs[0]) != ENGINE_DONE || rig.reqs[0].result != -deny)
			code = 1;
		else if (pread(fd, rbuf, 16 * BS, 0) != 16 * BS || memcmp(wbuf, rbuf, 16 * BS))
			code = 2;
		set_req(&rig.reqs[0], IO_FSYNC, fd, NULL, 0, 0);
		if (!code && (rig.ops->queue(rig.ctx, &rig.reqs[0]) != ENGINE_DONE || rig.reqs[0].result != 0))
			code = 3;
		rig_release(&rig);
		unlink(eo.e4defrag.donorname);
		free(rbuf);
		free(wbuf);
		_exit(code);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	unlink(path);
	close(fd);
	free(wbuf);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "errno %d: child step %d failed", deny,
		      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
END_TEST

Suite *engine_file_suite(void);

Suite *engine_file_suite(void)
{
	Suite *s = suite_create("engine_file");
	TCase *tc = tcase_create("file");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_copy_roundtrip, 0, (int)NR(copy_engines));
	tcase_add_test(tc, test_splice_big);
	tcase_add_test(tc, test_falloc_modes);
	tcase_add_loop_test(tc, test_falloc_refused, 0, (int)NR(falloc_refusals));
	tcase_add_test(tc, test_ftruncate);
	tcase_add_test(tc, test_e4defrag);
	tcase_add_loop_test(tc, test_e4defrag_refused, 0, (int)NR(move_refusals));
	suite_add_tcase(s, tc);
	return s;
}

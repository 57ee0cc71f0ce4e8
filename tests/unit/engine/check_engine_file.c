/* Unit tests of the file engines that are not plain reads and writes: falloc
 * (engine_falloc.c), ftruncate (engine_ftruncate.c), mmap (engine_mmap.c), splice
 * (engine_splice.c) and e4defrag (engine_e4defrag.c), on unlinked temporary files. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"

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

START_TEST(test_falloc_modes)
{
	int fd = temp_file(0, false);
	struct rig rig;
	uint64_t b0, b1;

	rig_init(&rig, "falloc", 1);
	/* write: allocate and extend */
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 64 * 1024, 0), 64 * 1024);
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	b0 = blocks_of(fd);
	ck_assert_uint_ge(b0, 128);
	/* read: keep size, allocate beyond it */
	ck_assert_int_eq(one(&rig, IO_READ, fd, NULL, 64 * 1024, 64 * 1024), 64 * 1024);
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	b1 = blocks_of(fd);
	ck_assert_uint_gt(b1, b0);
	/* trim: punch, size kept */
	ck_assert_int_eq(one(&rig, IO_TRIM, fd, NULL, 128 * 1024, 0), 128 * 1024);
	ck_assert_uint_eq(size_of(fd), 64 * 1024);
	ck_assert_uint_lt(blocks_of(fd), b1);
	/* errors */
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 0, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, 4096, UINT64_MAX - 10), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, fd, NULL, UINT64_MAX, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, (enum io_op)77, fd, NULL, 4096, 0), -EINVAL);
	ck_assert_int_eq(one(&rig, IO_WRITE, -1, NULL, 4096, 0), -EBADF);
	ck_assert_int_eq(one(&rig, IO_FSYNC, fd, NULL, 0, 0), 0);
	rig_release(&rig);
	close(fd);
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

/* e4defrag: the data stays what it was after its blocks moved; ext4 only (skipped elsewhere). */
START_TEST(test_e4defrag)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo };
	size_t total = 16 * BS;
	unsigned char *wbuf = aligned_buf(total), *rbuf = aligned_buf(total);
	char path[512];
	struct iops_err err = { 0 };
	struct rig rig;
	void *ctx = NULL;
	int64_t r;
	int fd;

	/* a named file: ext4 does not move the extents of an unlinked one */
	snprintf(path, sizeof(path), "%s/iops-check-e4defrag-XXXXXX", dir);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);

	/* no donor: refused */
	ck_assert_int_eq(engine_find("e4defrag")->init(&cfg, &ctx, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "donorname"));
	snprintf(eo.e4defrag.donorname, sizeof(eo.e4defrag.donorname), "%s/iops-check-donor-%d", dir,
		 (int)getpid());
	for (unsigned b = 0; b < 16; b++)
		fill_block(wbuf + (size_t)b * BS, b);
	ck_assert_int_eq(pwrite(fd, wbuf, total, 0), (ssize_t)total);
	ck_assert_int_eq(fsync(fd), 0);
	/* as the runner leaves a laid-out file: written back, dropped from the cache, reopened */
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	for (int inplace = 0; inplace < 2; inplace++) {
		eo.e4defrag.inplace = inplace;
		rig_init_cfg(&rig, "e4defrag", cfg);
		r = one(&rig, IO_WRITE, fd, NULL, 4 * BS, 4 * BS);
		if (r == -ENOTTY || r == -EOPNOTSUPP || r == -EINVAL) {	/* not ext4 */
			rig_release(&rig);
			break;
		}
		ck_assert_int_eq(r, 4 * BS);
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

Suite *engine_file_suite(void);

Suite *engine_file_suite(void)
{
	Suite *s = suite_create("engine_file");
	TCase *tc = tcase_create("file");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_copy_roundtrip, 0, (int)NR(copy_engines));
	tcase_add_test(tc, test_splice_big);
	tcase_add_test(tc, test_falloc_modes);
	tcase_add_test(tc, test_ftruncate);
	tcase_add_test(tc, test_e4defrag);
	suite_add_tcase(s, tc);
	return s;
}

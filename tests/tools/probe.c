/* probe: does this machine's kernel (and file system) offer a capability a test needs? A test
 * tool, never part of iops: it asks the kernel directly, with none of iops' code, so a test
 * that skips on its answer cannot hide a bug of iops behind a "missing" capability.
 *
 *   probe CAPABILITY [DIR]
 *
 * Exit 0: present (nothing printed). Exit 1: missing, one line on stdout saying why (for the
 * test's SKIP line). Exit 2: the probe itself failed (bad usage, DIR unusable).
 *
 * Capabilities (DIR: where to try, default the working directory):
 *   e4defrag DIR      EXT4_IOC_MOVE_EXT moves a written range of a file into a donor's blocks
 *   odirect DIR       O_DIRECT opens and a 4 KiB aligned write goes through
 *   punch_hole DIR    fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)
 *   zero_range DIR    fallocate(FALLOC_FL_ZERO_RANGE)
 *   rwf_nowait DIR    pwritev2(RWF_NOWAIT) on a buffered file is not refused (EOPNOTSUPP/EINVAL)
 *   io_uring          io_uring_setup(2) succeeds
 *   libaio            io_setup(2) succeeds
 *   ioprio_rt         ioprio_set(2) of the real-time class on this process succeeds
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/falloc.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define BS 4096

struct move_extent {		/* the kernel's struct move_extent (linux/ext4.h is not exported) */
	uint32_t reserved;
	uint32_t donor_fd;
	uint64_t orig_start;	/* in blocks */
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len;
};
#define IOC_MOVE_EXT	_IOWR('f', 15, struct move_extent)

static const char *dir = ".";

static int missing(const char *what, int err)
{
	printf("%s: %s (errno %d)\n", what, strerror(err), err);
	return 1;
}

/* a fresh named file in dir, unlinked by the caller; -1 on error (exit 2 then) */
static int scratch(char *path, size_t size, const char *tag, int flags)
{
	int fd, n = snprintf(path, size, "%s/.iops-probe-%s-%d", dir, tag, (int)getpid());

	if (n < 0 || (size_t)n >= size)
		return -1;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | flags, 0600);
	if (fd < 0 && !(flags & O_DIRECT))
		fprintf(stderr, "probe: cannot create %s: %s\n", path, strerror(errno));
	return fd;
}

static int write_blocks(int fd, unsigned nr)
{
	static char buf[BS] __attribute__((aligned(BS)));

	memset(buf, 0x5a, sizeof(buf));
	for (unsigned i = 0; i < nr; i++)
		if (pwrite(fd, buf, BS, (off_t)i * BS) != BS)
			return -1;
	return fsync(fd);
}

static int probe_e4defrag(void)
{
	char p[4096], d[4096];
	int fd = scratch(p, sizeof(p), "orig", 0), dfd, ret = 2;
	struct move_extent me = { 0 };

	if (fd < 0)
		return 2;
	dfd = scratch(d, sizeof(d), "donor", 0);
	if (dfd < 0)
		goto orig;
	if (write_blocks(fd, 4) || ftruncate(dfd, 4 * BS) || fallocate(dfd, 0, 0, 4 * BS)) {
		ret = errno == EOPNOTSUPP ? missing("fallocate of the donor", errno) : 2;
		goto donor;
	}
	me.donor_fd = (uint32_t)dfd;
	me.len = 4;
	ret = ioctl(fd, IOC_MOVE_EXT, &me) ? missing("EXT4_IOC_MOVE_EXT", errno) : 0;
donor:
	close(dfd);
	unlink(d);
orig:
	close(fd);
	unlink(p);
	return ret;
}

static int probe_odirect(void)
{
	char p[4096];
	int fd = scratch(p, sizeof(p), "direct", O_DIRECT), ret;

	if (fd < 0) {
		if (errno == EINVAL || errno == EOPNOTSUPP)
			return missing("open(O_DIRECT)", errno);
		fprintf(stderr, "probe: cannot create %s: %s\n", p, strerror(errno));
		return 2;
	}
	ret = write_blocks(fd, 1) ? missing("O_DIRECT write", errno) : 0;
	close(fd);
	unlink(p);
	return ret;
}

static int probe_falloc(int mode, const char *what)
{
	char p[4096];
	int fd = scratch(p, sizeof(p), "falloc", 0), ret;

	if (fd < 0)
		return 2;
	if (write_blocks(fd, 4)) {
		ret = 2;
	} else {
		ret = fallocate(fd, mode, BS, BS) ? missing(what, errno) : 0;
	}
	close(fd);
	unlink(p);
	return ret;
}

static int probe_nowait(void)
{
	char p[4096];
	int fd = scratch(p, sizeof(p), "nowait", 0), ret = 0;
	char buf[BS] = { 0 };
	struct iovec iov = { buf, sizeof(buf) };

	if (fd < 0)
		return 2;
	if (syscall(SYS_pwritev2, fd, &iov, 1, 0L, 0L, 0x00000008 /* RWF_NOWAIT */) < 0 &&
	    (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS))
		ret = missing("pwritev2(RWF_NOWAIT)", errno);
	close(fd);
	unlink(p);
	return ret;
}

static int probe_uring(void)
{
	struct io_uring_params par = { 0 };
	long fd = syscall(SYS_io_uring_setup, 4, &par);

	if (fd < 0)
		return missing("io_uring_setup", errno);
	close((int)fd);
	return 0;
}

static int probe_libaio(void)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 4, &ctx))
		return missing("io_setup", errno);
	syscall(SYS_io_destroy, ctx);
	return 0;
}

static int probe_ioprio_rt(void)
{
	/* IOPRIO_WHO_PROCESS = 1, class RT = 1 at bit 13, level 4 */
	if (syscall(SYS_ioprio_set, 1, 0, (1 << 13) | 4))
		return missing("ioprio_set(IOPRIO_CLASS_RT)", errno);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cap = argc > 1 ? argv[1] : "";

	if (argc < 2 || argc > 3) {
		fputs("usage: probe CAPABILITY [DIR]\n", stderr);
		return 2;
	}
	if (argc == 3)
		dir = argv[2];
	if (!strcmp(cap, "e4defrag"))
		return probe_e4defrag();
	if (!strcmp(cap, "odirect"))
		return probe_odirect();
	if (!strcmp(cap, "punch_hole"))
		return probe_falloc(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, "fallocate(PUNCH_HOLE)");
	if (!strcmp(cap, "zero_range"))
		return probe_falloc(FALLOC_FL_ZERO_RANGE, "fallocate(ZERO_RANGE)");
	if (!strcmp(cap, "rwf_nowait"))
		return probe_nowait();
	if (!strcmp(cap, "io_uring"))
		return probe_uring();
	if (!strcmp(cap, "libaio"))
		return probe_libaio();
	if (!strcmp(cap, "ioprio_rt"))
		return probe_ioprio_rt();
	fprintf(stderr, "probe: unknown capability '%s'\n", cap);
	return 2;
}

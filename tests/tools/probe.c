/* SPDX-License-Identifier: MIT */
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
 *   odirect_align DIR an O_DIRECT write from a buffer 100 bytes past a page boundary is refused
 *                     with EINVAL, as block file systems do (missing: it goes through, as on
 *                     tmpfs, or O_DIRECT itself is refused)
 *   punch_hole DIR    fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)
 *   zero_range DIR    fallocate(FALLOC_FL_ZERO_RANGE)
 *   rwf_nowait DIR    pwritev2(RWF_NOWAIT) on a buffered file is not refused (EOPNOTSUPP/EINVAL)
 *   nowait_read DIR   preadv2(RWF_NOWAIT) of a cached page reads it (tmpfs: EOPNOTSUPP)
 *   blockdev DIR      DIR's file system is on a block device the kernel shows in /sys/dev/block
 *                     (missing: tmpfs, overlayfs, a FUSE or network file system)
 *   nowait_uncached DIR  preadv2(RWF_NOWAIT) of a page the cache dropped fails with EAGAIN
 *                     (missing: the read went through, as on tmpfs, or another errno), five tries
 *   io_uring          io_uring_setup(2) succeeds
 *   uring_sqpoll [CPU]  an SQPOLL ring (on CPU with SQ_AFF) is made
 *   uring_fixedbufs   IORING_REGISTER_BUFFERS takes one 4 KiB buffer
 *   uring_registerfiles  IORING_REGISTER_FILES takes one descriptor
 *   uring_iopoll_buffered DIR  an IOPOLL ring reads a buffered file (missing: the errno of the
 *                     completion, EOPNOTSUPP on Linux 6.x, or of the ring's setup)
 *   libaio            io_setup(2) succeeds
 *   ioprio_rt         ioprio_set(2) of the real-time class on this process succeeds
 *   loop              a free loop device: /dev/loop-control gives one and it opens (root)
 *   cgroup_blkio      a cgroup v1 blkio hierarchy is mounted and a group can be made in it
 *   numa              NUMA node 0 exists and set_mempolicy(MPOL_BIND, node 0) is taken
 *   hugepages         free 2 MiB huge pages in the pool (sysfs)
 *   fuse              /dev/fuse opens for reading and writing
 * A missing capability's line ends with "(errno N)" where the kernel answered with an errno:
 * a test whose expectation is the kernel's answer reads it from there.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/falloc.h>
#include <linux/io_uring.h>
#include <linux/loop.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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

static int probe_odirect_align(void)
{
	static char buf[2 * BS] __attribute__((aligned(BS)));
	char p[4096];
	int fd = scratch(p, sizeof(p), "dalign", O_DIRECT), ret;

	if (fd < 0) {
		if (errno == EINVAL || errno == EOPNOTSUPP)
			return missing("open(O_DIRECT)", errno);
		return 2;
	}
	if (pwrite(fd, buf + 100, BS, 0) >= 0) {
		printf("O_DIRECT: a write from a buffer off the sector went through\n");
		ret = 1;
	} else {
		ret = errno == EINVAL ? 0 : missing("O_DIRECT write from a buffer off the sector", errno);
	}
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

/* drop the file's pages from the cache; true when its first page is out (mincore) */
static int dropped(int fd)
{
	unsigned char vec = 1;
	void *map;

	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return 0;
	map = mmap(NULL, BS, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	if (mincore(map, BS, &vec))
		vec = 1;
	munmap(map, BS);
	return !(vec & 1);
}

static int probe_nowait_read(void)
{
	char p[4096], buf[BS];
	int fd = scratch(p, sizeof(p), "nowaitc", 0), ret;
	struct iovec iov = { buf, sizeof(buf) };

	if (fd < 0)
		return 2;
	if (write_blocks(fd, 1) || pread(fd, buf, BS, 0) != BS)
		ret = 2;
	else if (syscall(SYS_preadv2, fd, &iov, 1, 0L, 0L, 0x00000008 /* RWF_NOWAIT */) < 0)
		ret = missing("preadv2(RWF_NOWAIT) of a cached page", errno);
	else
		ret = 0;
	close(fd);
	unlink(p);
	return ret;
}

static int probe_blockdev(void)
{
	struct stat st;
	char link[64];

	if (stat(dir, &st)) {
		fprintf(stderr, "probe: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (access(link, F_OK)) {
		printf("%s is on no block device (device %u:%u, not in /sys/dev/block)\n", dir, major(st.st_dev),
		       minor(st.st_dev));
		return 1;
	}
	return 0;
}

static int probe_nowait_uncached(void)
{
	char p[4096], buf[BS];
	int fd = scratch(p, sizeof(p), "nowaitr", 0), ret = -1, e = 0, drops = 0;
	struct iovec iov = { buf, sizeof(buf) };

	if (fd < 0)
		return 2;
	if (write_blocks(fd, 4)) {
		ret = 2;
		goto out;
	}
	for (int i = 0; i < 5 && ret < 0; i++) {
		if (!dropped(fd))
			continue;
		drops++;
		if (syscall(SYS_preadv2, fd, &iov, 1, 0L, 0L, 0x00000008 /* RWF_NOWAIT */) < 0)
			ret = errno == EAGAIN ? 0 : missing("preadv2(RWF_NOWAIT) of an uncached page", e = errno);
	}
	if (ret < 0)
		ret = drops ? (printf("preadv2(RWF_NOWAIT): dropped pages read without waiting, %d tries\n", drops), 1)
			    : (printf("the page cache keeps the pages (posix_fadvise DONTNEED, 5 tries)\n"), 1);
out:
	close(fd);
	unlink(p);
	return ret;
}

static int probe_uring_flags(unsigned flags, int cpu)
{
	struct io_uring_params par = { 0 };
	long fd;

	par.flags = flags;
	if (cpu >= 0)
		par.sq_thread_cpu = (unsigned)cpu;
	fd = syscall(SYS_io_uring_setup, 4, &par);
	if (fd < 0)
		return missing(flags & IORING_SETUP_SQ_AFF ? "io_uring_setup(SQPOLL|SQ_AFF)" : "io_uring_setup(SQPOLL)", errno);
	close((int)fd);
	return 0;
}

static int probe_uring_register(int buffers)
{
	static char block[BS] __attribute__((aligned(BS)));
	struct iovec iov = { block, sizeof(block) };
	struct io_uring ring;
	int ret = io_uring_queue_init(4, &ring, 0), fd = 0;

	if (ret < 0)
		return missing("io_uring_setup", -ret);
	ret = buffers ? io_uring_register_buffers(&ring, &iov, 1) : io_uring_register_files(&ring, &fd, 1);
	io_uring_queue_exit(&ring);
	return ret < 0 ? missing(buffers ? "IORING_REGISTER_BUFFERS" : "IORING_REGISTER_FILES", -ret) : 0;
}

static int probe_uring_iopoll_buffered(void)
{
	static char buf[BS] __attribute__((aligned(BS)));
	struct __kernel_timespec ts = { 5, 0 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char p[4096];
	int fd = scratch(p, sizeof(p), "iopoll", 0), ret;

	if (fd < 0)
		return 2;
	if (write_blocks(fd, 1)) {
		ret = 2;
		goto out;
	}
	ret = io_uring_queue_init(4, &ring, IORING_SETUP_IOPOLL);
	if (ret < 0) {
		ret = missing("io_uring_setup(IOPOLL)", -ret);
		goto out;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, BS, 0);
	if (io_uring_submit(&ring) != 1 || io_uring_wait_cqe_timeout(&ring, &cqe, &ts) < 0)
		ret = 2;
	else
		ret = cqe->res < 0 ? missing("a buffered read on an IOPOLL ring", -cqe->res) : 0;
	io_uring_queue_exit(&ring);
out:
	close(fd);
	unlink(p);
	return ret;
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

static int probe_loop(void)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), nr, fd;
	char path[64];

	if (ctl < 0)
		return missing("open /dev/loop-control", errno);
	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (nr < 0)
		return missing("LOOP_CTL_GET_FREE", errno);
	snprintf(path, sizeof(path), "/dev/loop%d", nr);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return missing(path, errno);
	close(fd);
	return 0;
}

/* the n-th space-separated field of line (0-based), cut in place; NULL when there is none */
static char *field(char *line, int n)
{
	char *p = line, *end;

	for (int i = 0; i < n && p; i++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return NULL;
	end = strchr(p, ' ');
	if (end)
		*end = '\0';
	return p;
}

static int probe_cgroup_blkio(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[4096], root[4096] = "", group[4200];

	while (f && !root[0] && fgets(line, sizeof(line), f)) {
		char copy[4096], copy2[4096], *type, *opts, *o;

		memcpy(copy, line, sizeof(copy));
		memcpy(copy2, line, sizeof(copy2));
		type = field(copy, 2);
		opts = field(copy2, 3);
		if (!type || strcmp(type, "cgroup") || !opts)
			continue;
		for (o = opts; (o = strstr(o, "blkio")) != NULL; o += 5)
			if ((o == opts || o[-1] == ',') && (o[5] == ',' || o[5] == '\0' || o[5] == '\n'))
				break;
		if (o) {
			memcpy(copy, line, sizeof(copy));
			snprintf(root, sizeof(root), "%s", field(copy, 1));
		}
	}
	if (f)
		fclose(f);
	if (!root[0]) {
		printf("no cgroup v1 blkio hierarchy in /proc/mounts (a cgroup v2 machine)\n");
		return 1;
	}
	snprintf(group, sizeof(group), "%s/.iops-probe-%d", root, (int)getpid());
	if (mkdir(group, 0755))
		return missing("mkdir in the blkio hierarchy", errno);
	rmdir(group);
	return 0;
}

static int probe_numa(void)
{
	unsigned long node0 = 1;

	if (access("/sys/devices/system/node/node0", F_OK))
		return missing("/sys/devices/system/node/node0", errno);
	if (syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */, &node0, 64UL))
		return missing("set_mempolicy(MPOL_BIND, node 0)", errno);
	syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0UL);
	return 0;
}

static int probe_hugepages(void)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "r");
	unsigned long n = 0;

	if (!f) {
		printf("no 2 MiB huge-page pool (sysfs)\n");
		return 1;
	}
	if (fscanf(f, "%lu", &n) != 1)
		n = 0;
	fclose(f);
	if (!n) {
		printf("no free 2 MiB huge pages (vm.nr_hugepages is 0 or they are taken)\n");
		return 1;
	}
	return 0;
}

static int probe_fuse(void)
{
	int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return missing("open /dev/fuse", errno);
	close(fd);
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
	if (!strcmp(cap, "odirect_align"))
		return probe_odirect_align();
	if (!strcmp(cap, "punch_hole"))
		return probe_falloc(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, "fallocate(PUNCH_HOLE)");
	if (!strcmp(cap, "zero_range"))
		return probe_falloc(FALLOC_FL_ZERO_RANGE, "fallocate(ZERO_RANGE)");
	if (!strcmp(cap, "rwf_nowait"))
		return probe_nowait();
	if (!strcmp(cap, "nowait_read"))
		return probe_nowait_read();
	if (!strcmp(cap, "blockdev"))
		return probe_blockdev();
	if (!strcmp(cap, "nowait_uncached"))
		return probe_nowait_uncached();
	if (!strcmp(cap, "io_uring"))
		return probe_uring();
	if (!strcmp(cap, "uring_sqpoll"))
		return argc == 3 ? probe_uring_flags(IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF, (int)strtol(dir, NULL, 10))
				 : probe_uring_flags(IORING_SETUP_SQPOLL, -1);
	if (!strcmp(cap, "uring_fixedbufs"))
		return probe_uring_register(1);
	if (!strcmp(cap, "uring_registerfiles"))
		return probe_uring_register(0);
	if (!strcmp(cap, "uring_iopoll_buffered"))
		return probe_uring_iopoll_buffered();
	if (!strcmp(cap, "loop"))
		return probe_loop();
	if (!strcmp(cap, "cgroup_blkio"))
		return probe_cgroup_blkio();
	if (!strcmp(cap, "numa"))
		return probe_numa();
	if (!strcmp(cap, "hugepages"))
		return probe_hugepages();
	if (!strcmp(cap, "fuse"))
		return probe_fuse();
	if (!strcmp(cap, "libaio"))
		return probe_libaio();
	if (!strcmp(cap, "ioprio_rt"))
		return probe_ioprio_rt();
	fprintf(stderr, "probe: unknown capability '%s'\n", cap);
	return 2;
}

/* SPDX-License-Identifier: MIT */
/* unit_probe: what this machine's kernel (and the file system of the scratch directory) offers
 * a unit check, asked directly with raw system calls or liburing, never through iops' code: a
 * check that skips on a probe's answer cannot hide a bug of iops behind a "missing" capability,
 * and a check whose expectation is the kernel's behaviour takes it from here, not from one
 * kernel's errno written into the test.
 *
 * Every probe returns 0 when the capability is there, else the errno the kernel answered (a
 * positive number). unit_need(probe_x(...), "what the check needs") records a counted skip
 * (unit_skip.h) with that errno and returns false when it is missing.
 *
 *   probe_dir()                 the scratch directory of the checks (TMPDIR, else /tmp)
 *   probe_libaio()              io_setup(2)
 *   probe_aio_read(fd, f, &res) one IOCB_CMD_PREAD of 16 bytes with aio_rw_flags f: its result
 *   probe_uring(flags, cpu)     io_uring_setup(2) with those setup flags (cpu: SQ_AFF's CPU)
 *   probe_uring_op(op)          IORING_REGISTER_PROBE lists op as supported (EOPNOTSUPP if not)
 *   probe_uring_register(what)  IORING_REGISTER_BUFFERS (one 4 KiB buffer) / _FILES (one fd)
 *   probe_uring_read(sf, fd, rwf, sqef, ns, &res)  one read on a ring of setup flags sf: its
 *                               result, or ETIME when none came within ns
 *   probe_uring_thread(sf, async, prefix, ms)  in a child: one cached read on a ring of setup
 *                               flags sf (IOSQE_ASYNC when async); 0 if a thread named
 *                               prefix* appeared in the process within ms, ESRCH if none did
 *   probe_odirect(dir)          O_DIRECT opens and a 4 KiB aligned write goes through
 *   probe_falloc(dir, mode)     fallocate(mode) of the second block of a written 4-block file
 *   probe_last_cpu()            the highest CPU this process may run on (sched_getaffinity)
 *   probe_free_hugepages(kib)   free huge pages of that size (sysfs), 0 when none or no pool
 *
 * UNIT_NEED(unit_have_x(why_)) at the top of a check returns from it, after a counted skip,
 * when the kernel answers ENOSYS or EPERM (qemu-user 7.2 answers ENOSYS to io_setup,
 * io_uring_setup, preadv2 and set_mempolicy and refuses seccomp filters; a kernel or a seccomp
 * profile may lack any). UNIT_NEED_ENGINE(name) is that for what engine name needs.
 */
#ifndef UNIT_PROBE_H
#define UNIT_PROBE_H

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/aio_abi.h>
#include <sched.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit_skip.h"

/* false (and a counted skip naming what and the errno) when err says the capability is missing */
static inline bool unit_need(int err, const char *what)
{
	if (!err)
		return true;
	unit_skip("%s: the kernel refuses it here (%s, errno %d)", what, strerror(err), err);
	return false;
}

static inline const char *probe_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* an unlinked scratch file in dir with open flags, -errno on failure */
static inline int probe_scratch(const char *dir, int flags)
{
	char path[4096];
	int fd, n = snprintf(path, sizeof(path), "%s/.iops-unit-probe-XXXXXX", dir);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flags) {
		int dfd = open(path, O_RDWR | O_CLOEXEC | flags);

		close(fd);
		fd = dfd < 0 ? -errno : dfd;
	}
	unlink(path);
	return fd;
}

static inline int probe_write_blocks(int fd, unsigned nr)
{
	static char block[4096] __attribute__((aligned(4096)));

	memset(block, 0x5a, sizeof(block));
	for (unsigned i = 0; i < nr; i++)
		if (pwrite(fd, block, sizeof(block), (off_t)i * 4096) != (ssize_t)sizeof(block))
			return errno ? errno : EIO;
	return 0;
}

static inline int probe_libaio(void)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 4, &ctx))
		return errno;
	syscall(SYS_io_destroy, ctx);
	return 0;
}

/* One 16-byte IOCB_CMD_PREAD of fd with aio_rw_flags rwf: 0 and its result in *res, or the
 * errno of io_setup / io_submit. A read the kernel would wait for is not asked here: the caller
 * passes a flag that makes it return (RWF_NOWAIT) or data to read. */
static inline int probe_aio_read(int fd, int rwf, long long *res)
{
	static char buf[16];
	aio_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	struct timespec ts = { 5, 0 };
	int e = 0;

	if (syscall(SYS_io_setup, 1, &ctx))
		return errno;
	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = IOCB_CMD_PREAD;
	cb.aio_fildes = (uint32_t)fd;
	cb.aio_buf = (uint64_t)(uintptr_t)buf;
	cb.aio_nbytes = sizeof(buf);
	cb.aio_rw_flags = rwf;
	if (syscall(SYS_io_submit, ctx, 1L, cbs) != 1)
		e = errno;
	else if (syscall(SYS_io_getevents, ctx, 1L, 1L, &ev, &ts) != 1)
		e = ETIME;
	else
		*res = ev.res;
	syscall(SYS_io_destroy, ctx);
	return e;
}

static inline int probe_uring(unsigned flags, int cpu)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (cpu >= 0)
		p.sq_thread_cpu = (unsigned)cpu;
	ret = io_uring_queue_init_params(4, &ring, &p);
	if (ret < 0)
		return -ret;
	io_uring_queue_exit(&ring);
	return 0;
}

static inline int probe_uring_op(int op)
{
	struct io_uring ring;
	struct io_uring_probe *pr;
	int ret = io_uring_queue_init(4, &ring, 0);

	if (ret < 0)
		return -ret;
	pr = io_uring_get_probe_ring(&ring);
	ret = !pr ? EINVAL : io_uring_opcode_supported(pr, op) ? 0 : EOPNOTSUPP;
	if (pr)
		io_uring_free_probe(pr);
	io_uring_queue_exit(&ring);
	return ret;
}

enum probe_uring_reg { PROBE_URING_BUFFERS, PROBE_URING_FILES };

static inline int probe_uring_register(enum probe_uring_reg what)
{
	static char block[4096] __attribute__((aligned(4096)));
	struct iovec iov = { block, sizeof(block) };
	struct io_uring ring;
	int ret = io_uring_queue_init(4, &ring, 0), fd = 0;

	if (ret < 0)
		return -ret;
	if (what == PROBE_URING_BUFFERS)
		ret = io_uring_register_buffers(&ring, &iov, 1);
	else
		ret = io_uring_register_files(&ring, &fd, 1);
	io_uring_queue_exit(&ring);
	return ret < 0 ? -ret : 0;
}

/* One read of 16 bytes of fd at 0 on a ring of setup flags sf, with RWF flags rwf and SQE
 * flags sqef: 0 and the completion's result in *res, ETIME when none came within timeout_ns
 * (the read is then left to die with the ring: the caller makes it complete, e.g. by writing
 * to its pipe, before it needs the descriptor again), or the errno of the setup or submit. */
static inline int probe_uring_read(unsigned sf, int fd, int rwf, unsigned sqef, long timeout_ns,
				   int *res)
{
	static char buf[4096] __attribute__((aligned(4096)));
	struct __kernel_timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret = io_uring_queue_init(4, &ring, sf), e = 0;

	if (ret < 0)
		return -ret;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, sf & IORING_SETUP_IOPOLL ? sizeof(buf) : 16, 0);
	sqe->rw_flags = rwf;
	sqe->flags |= (unsigned char)sqef;
	ret = io_uring_submit(&ring);
	if (ret != 1)
		e = ret < 0 ? -ret : EIO;
	else if ((ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts)) < 0)
		e = ret == -ETIME ? ETIME : -ret;
	else
		*res = cqe->res;
	io_uring_queue_exit(&ring);
	return e;
}

/* Is a thread whose name starts with prefix in this process? */
static inline bool probe_thread_seen(const char *prefix)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	bool seen = false;

	while (d && !seen && (de = readdir(d)) != NULL) {
		char path[300], comm[64];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		seen = fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, strlen(prefix));
		fclose(f);
	}
	if (d)
		closedir(d);
	return seen;
}

/* In a child process (its threads die with it): a ring of setup flags sf, one read of a cached
 * 4 KiB file (IOSQE_ASYNC when async); then waits up to wait_ms for a thread named prefix*
 * (looked for at least once). 0 when one appeared, ESRCH when none did, or the errno of the
 * setup. */
static inline int probe_uring_thread(unsigned sf, bool async, const char *prefix, int wait_ms)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		int fd = probe_scratch(probe_dir(), 0), res = 0, e;

		if (fd < 0 || probe_write_blocks(fd, 1))
			_exit(EIO);
		e = probe_uring_read(sf, fd, 0, async ? IOSQE_ASYNC : 0, 1000000000L, &res);
		if (e)
			_exit(e);
		for (int ms = 0;; ms += 10) {
			struct timespec pause = { 0, 10000000 };

			if (probe_thread_seen(prefix))
				_exit(0);
			if (ms >= wait_ms)
				_exit(ESRCH);
			nanosleep(&pause, NULL);
		}
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return ECHILD;
	return WEXITSTATUS(status);
}

static inline int probe_odirect(const char *dir)
{
	int fd = probe_scratch(dir, O_DIRECT), e;

	if (fd < 0)
		return -fd;
	e = probe_write_blocks(fd, 1);
	close(fd);
	return e;
}

static inline int probe_falloc(const char *dir, int mode)
{
	int fd = probe_scratch(dir, 0), e;

	if (fd < 0)
		return -fd;
	e = probe_write_blocks(fd, 4);
	if (!e && fallocate(fd, mode, 4096, 4096))
		e = errno;
	close(fd);
	return e;
}

static inline int probe_last_cpu(void)
{
	cpu_set_t set;
	int last = -1;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}

static inline unsigned long probe_free_hugepages(unsigned long kib)
{
	char path[128];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB/free_hugepages", kib);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lu", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n;
}

#define UNIT_PROBE_WHY	160

/* A system call's answer: true when it is there; false with *why when it fails with ENOSYS or
 * EPERM (missing, or refused by a filter). Any other error means it is there. */
static inline bool unit_probe_answer(long r, const char *call, char *why)
{
	int e = r < 0 ? errno : 0;

	if (e != ENOSYS && e != EPERM)
		return true;
	snprintf(why, UNIT_PROBE_WHY, "%s answers %s here", call, e == ENOSYS ? "ENOSYS" : "EPERM");
	return false;
}

/* a probe's errno as unit_probe_answer takes it */
static inline long unit_probe_errno(int e)
{
	errno = e;
	return e ? -1 : 0;
}

static inline bool unit_have_libaio(char *why)
{
	return unit_probe_answer(unit_probe_errno(probe_libaio()), "io_setup", why);
}

static inline bool unit_have_io_uring(char *why)
{
	return unit_probe_answer(unit_probe_errno(probe_uring(0, -1)), "io_uring_setup", why);
}

static inline bool unit_have_preadv2(char *why)
{
	char c;
	struct iovec v = { &c, 1 };
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	long r = syscall(SYS_preadv2, fd, &v, 1, 0, 0, 0);

	if (fd >= 0)
		close(fd);
	return unit_probe_answer(r, "preadv2", why);
}

static inline bool unit_have_set_mempolicy(char *why)
{
	return unit_probe_answer(syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0), "set_mempolicy", why);
}

/* A seccomp filter (allow everything) loads, in a child that exits at once. */
static inline bool unit_have_seccomp(char *why)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
		struct sock_fprog prog = { .len = 1, .filter = allow };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(errno == EINVAL || errno == ENOSYS ? 1 : 2);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 1)
		return true;
	snprintf(why, UNIT_PROBE_WHY, "prctl(PR_SET_SECCOMP) refuses filters here");
	return false;
}

/* What engine NAME needs from the kernel (nothing for the others). */
static inline bool unit_have_engine(const char *name, char *why)
{
	if (!strcmp(name, "libaio"))
		return unit_have_libaio(why);
	if (!strcmp(name, "io_uring"))
		return unit_have_io_uring(why);
	if (!strcmp(name, "pvsync2"))
		return unit_have_preadv2(why);
	return true;
}

/* Return from the check (skipped) unless HAVE(why) holds: UNIT_NEED(unit_have_libaio(why_)). */
#define UNIT_NEED(have_expr)						\
	do {								\
		char why_[UNIT_PROBE_WHY] = "";				\
		if (!(have_expr)) {					\
			unit_skip("%s", why_);				\
			return;						\
		}							\
	} while (0)
#define UNIT_NEED_ENGINE(name)	UNIT_NEED(unit_have_engine((name), why_))

#endif

/* unit_probe: checks that need something a machine may lack (io_setup, io_uring_setup, preadv2,
 * seccomp filters, set_mempolicy: qemu-user 7.2 answers ENOSYS to the first four and refuses
 * filters; a kernel or a seccomp profile may lack any). Each probe asks the kernel directly;
 * UNIT_NEED(probe) at the top of a check returns from it, after one line "SKIP: check: why",
 * when the probe says the thing is missing (ENOSYS, EPERM). Never an assumption from the
 * architecture: the same build runs in full wherever the kernel has it. The skips go through
 * unit_skip() (unit_skip.h): check_main.c counts them and prints them under its closing line. */
#ifndef UNIT_PROBE_H
#define UNIT_PROBE_H

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_skip.h"

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

static inline bool unit_have_libaio(char *why)
{
	unsigned long ctx = 0;
	long r = syscall(SYS_io_setup, 1, &ctx);

	if (r == 0)
		syscall(SYS_io_destroy, ctx);
	return unit_probe_answer(r, "io_setup", why);
}

static inline bool unit_have_io_uring(char *why)
{
	struct io_uring_params p;
	long r;

	memset(&p, 0, sizeof(p));
	r = syscall(SYS_io_uring_setup, 1, &p);
	if (r >= 0)
		close((int)r);
	return unit_probe_answer(r, "io_uring_setup", why);
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

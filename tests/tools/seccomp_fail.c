/* SPDX-License-Identifier: MIT */
/* seccomp_fail: run a command under a seccomp filter that makes chosen system calls (or one
 * ioctl request) fail with a chosen errno, so a test can take the "kernel refuses" branch on a
 * machine whose kernel accepts. A test tool, never part of iops.
 *
 *   seccomp_fail [--argv0=NAME] RULE... -- COMMAND [ARG...]
 *   RULE:  CALL[@N=VALUE][:ERRNO]
 *   CALL:  a system call's name (io_uring_setup, pwrite64, ...), or nr=NUMBER
 *   @N=VALUE: only when argument N (0-5) equals VALUE, e.g. pread64@2=12288 fails the reads
 *          of 12 KiB only (a dynamic loader's reads go through); 64 bits are compared
 *   @N&MASK: only when argument N has any bit of MASK set (its low 32 bits), e.g.
 *          openat@2&0x4000 fails the opens with O_DIRECT (a file system without it)
 *   ioctl=REQUEST: that ioctl request only, its low 32 bits compared (the kernel reads the
 *          request as an unsigned int; musl passes it as an int, sign-extended)
 *   ERRNO: a name (EPERM, EIO, ENOSYS, ...) or a number; EPERM when left out.
 *
 * The filter is installed after PR_SET_NO_NEW_PRIVS, then COMMAND is executed (with argv[0]
 * NAME when --argv0 is given, as `exec -a` does): every thread and child it makes inherits
 * the filter. Calls of another architecture, and x32 calls (whose
 * numbers carry bit 30), are left alone. Exit status: COMMAND's, or 125 for a bad rule, 126/127 when COMMAND cannot be
 * run (as env(1)). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#else
#error "seccomp_fail: unknown architecture"
#endif

#define MAX_RULES	32

struct rule {
	long nr;
	int err;
	int arg;		/* the argument compared, -1: none */
	int low32;		/* only its low 32 bits */
	int mask;		/* any bit of value (low 32 bits), not equality */
	uint64_t value;
};

struct name_nr {
	const char *name;
	long nr;
};

#define NR(x) { #x, SYS_##x }
static const struct name_nr syscalls[] = {
	NR(ioctl), NR(read), NR(write), NR(pread64), NR(pwrite64), NR(readv), NR(writev),
	NR(preadv), NR(pwritev), NR(preadv2), NR(pwritev2), NR(fsync), NR(fdatasync),
	NR(sync_file_range), NR(fallocate), NR(ftruncate), NR(fadvise64), NR(splice), NR(vmsplice),
	NR(tee), NR(mmap), NR(msync), NR(madvise), NR(mlock), NR(openat), NR(unlinkat), NR(mkdirat),
	NR(newfstatat), NR(fstat), NR(statx), NR(io_setup), NR(io_destroy), NR(io_submit),
	NR(io_getevents), NR(io_pgetevents), NR(io_cancel), NR(io_uring_setup), NR(io_uring_enter),
	NR(io_uring_register), NR(ioprio_set), NR(ioprio_get), NR(sched_setaffinity),
	NR(set_mempolicy), NR(mbind), NR(timerfd_create), NR(setpriority), NR(socket), NR(connect),
	NR(bind), NR(listen), NR(accept4), NR(sendto), NR(recvfrom), NR(sendmsg), NR(recvmsg),
	NR(getrandom), NR(clone), NR(clone3), NR(execve), NR(memfd_create), NR(copy_file_range),
	NR(mknodat), NR(mount), NR(umount2), NR(get_mempolicy), NR(sched_getaffinity), NR(shmget),
	NR(shmat), NR(mlockall), NR(sched_setscheduler), NR(unshare), NR(fcntl),
#ifdef SYS_open
	NR(open), NR(unlink), NR(mkdir), NR(rmdir), NR(stat), NR(lstat), NR(accept), NR(mknod),
#endif
};
#undef NR

struct name_err {
	const char *name;
	int err;
};

#define E(x) { #x, x }
static const struct name_err errnos[] = {
	E(EPERM), E(ENOENT), E(EINTR), E(EIO), E(ENXIO), E(EBADF), E(EAGAIN), E(ENOMEM),
	E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(EINVAL), E(ENFILE),
	E(EMFILE), E(ENOTTY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(ENOSYS), E(EOPNOTSUPP),
	E(ETIMEDOUT), E(ECONNREFUSED), E(ECONNRESET), E(EDQUOT), E(ENODATA),
};
#undef E

static int usage(void)
{
	fputs("usage: seccomp_fail [--argv0=NAME] RULE... -- COMMAND [ARG...]\n"
	      "  RULE: CALL[@N=VALUE|@N&MASK][:ERRNO]  (CALL: a system call's name or nr=NUMBER; ioctl=REQUEST;\n"
	      "        ERRNO: a name or a number, default EPERM)\n",
	      stderr);
	return 125;
}

static int parse_num(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_errno(const char *s, int *err)
{
	uint64_t n;

	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, s)) {
			*err = errnos[i].err;
			return 0;
		}
	if (parse_num(s, &n) || n == 0 || n > 4095)
		return -1;
	*err = (int)n;
	return 0;
}

static int parse_call(const char *name, long *nr)
{
	uint64_t n;

	if (!strncmp(name, "nr=", 3)) {
		if (parse_num(name + 3, &n) || n > 4095) {
			fprintf(stderr, "seccomp_fail: bad system call number '%s'\n", name + 3);
			return -1;
		}
		*nr = (long)n;
		return 0;
	}
	for (size_t i = 0; i < sizeof(syscalls) / sizeof(syscalls[0]); i++)
		if (!strcmp(syscalls[i].name, name)) {
			*nr = syscalls[i].nr;
			return 0;
		}
	fprintf(stderr, "seccomp_fail: unknown system call '%s' (use nr=NUMBER)\n", name);
	return -1;
}

static int parse_rule(char *text, struct rule *r)
{
	char *colon = strrchr(text, ':'), *at;

	r->err = EPERM;
	r->arg = -1;
	r->low32 = 0;
	r->mask = 0;
	if (colon) {
		*colon = '\0';
		if (parse_errno(colon + 1, &r->err)) {
			fprintf(stderr, "seccomp_fail: unknown errno '%s'\n", colon + 1);
			return -1;
		}
	}
	if (!strncmp(text, "ioctl=", 6)) {
		r->arg = 1;
		r->low32 = 1;
		if (parse_num(text + 6, &r->value)) {
			fprintf(stderr, "seccomp_fail: bad ioctl request '%s'\n", text + 6);
			return -1;
		}
		return parse_call("ioctl", &r->nr);
	}
	at = strchr(text, '@');
	if (at) {
		*at++ = '\0';
		if (at[0] < '0' || at[0] > '5' || (at[1] != '=' && at[1] != '&') || parse_num(at + 2, &r->value) ||
		    (at[1] == '&' && (!r->value || r->value > UINT32_MAX))) {
			fprintf(stderr, "seccomp_fail: bad argument condition '@%s' (@N=VALUE or @N&MASK, N 0-5)\n", at);
			return -1;
		}
		r->arg = at[0] - '0';
		r->mask = at[1] == '&';
		r->low32 = r->mask;
	}
	return parse_call(text, &r->nr);
}

#define STMT(code, k)		((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, t, f)	((struct sock_filter)BPF_JUMP(code, k, t, f))
#define ARG_LO(i)		(offsetof(struct seccomp_data, args) + (i) * 8u)
#define ARG_HI(i)		(ARG_LO(i) + 4u)

/* allow other architectures; then per rule: nr (and for an ioctl, its request) -> errno */
static int install(const struct rule *rules, unsigned nr_rules)
{
	struct sock_filter prog[8 + MAX_RULES * 8];
	unsigned n = 0;
	struct sock_fprog fprog;

	prog[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	prog[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (unsigned i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];
		uint32_t ret = SECCOMP_RET_ERRNO | ((uint32_t)r->err & SECCOMP_RET_DATA);

		prog[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
		if (r->arg < 0) {
			prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 1);
			prog[n++] = STMT(BPF_RET | BPF_K, ret);
			continue;
		}
		/* nr matches && the argument's low 32 bits (&& its high 32 bits; little-endian), or
		 * any bit of the mask in its low 32 bits */
		prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, r->low32 ? 3 : 5);
		prog[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO((unsigned)r->arg));
		prog[n++] = JUMP(BPF_JMP | (r->mask ? BPF_JSET : BPF_JEQ) | BPF_K, (uint32_t)r->value, 0,
				 r->low32 ? 1 : 3);
		if (!r->low32) {
			prog[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI((unsigned)r->arg));
			prog[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(r->value >> 32), 0, 1);
		}
		prog[n++] = STMT(BPF_RET | BPF_K, ret);
	}
	prog[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("seccomp_fail: PR_SET_NO_NEW_PRIVS");
		return -1;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog)) {
		perror("seccomp_fail: seccomp");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rule rules[MAX_RULES];
	unsigned nr_rules = 0;
	const char *argv0 = NULL, *file;
	int i = 1;

	if (i < argc && !strncmp(argv[i], "--argv0=", 8))
		argv0 = argv[i++] + 8;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (nr_rules == MAX_RULES) {
			fprintf(stderr, "seccomp_fail: at most %d rules\n", MAX_RULES);
			return 125;
		}
		if (parse_rule(argv[i], &rules[nr_rules++]))
			return 125;
	}
	if (!nr_rules || i >= argc - 1)
		return usage();
	if (install(rules, nr_rules))
		return 125;
	file = argv[i + 1];
	if (argv0)
		argv[i + 1] = (char *)argv0;
	execvp(file, argv + i + 1);
	fprintf(stderr, "seccomp_fail: %s: %s\n", file, strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

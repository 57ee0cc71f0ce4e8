/* SPDX-License-Identifier: MIT */
/* Seccomp filters for the engine unit tests: an engine's init with one syscall denied (Docker's
 * default profile blocks io_uring), a syscall denied for one argument value, and the
 * submit-pressure scenario of libaio and io_uring. Each runs in a forked child. */
#ifndef ENGINE_SECCOMP_H
#define ENGINE_SECCOMP_H

#include <check.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine_rig.h"

/* In a child: deny syscall nr with errno, then init the engine; the child writes the error
 * line to the pipe and exits with the negated init result. */
static inline int init_under_seccomp(const char *name, long nr, int deny_errno, char *msg, size_t msg_len)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;

	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sock_filter filter[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)deny_errno & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = NR(filter), .filter = filter };
		struct engine_cfg cfg = { .depth = 4 };
		struct iops_err err = { 0 };
		void *ctx = NULL;
		int ret;

		close(pfd[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(200);
		ret = engine_find(name)->init(&cfg, &ctx, &err);
		if (write(pfd[1], err.msg, strlen(err.msg)) < 0)
			_exit(201);
		_exit(ret < 0 ? -ret : 0);
	}
	close(pfd[1]);
	n = read(pfd[0], msg, msg_len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Deny syscall nr with deny_errno when its second argument equals arg1 (the batch size of
 * io_submit / the to_submit count of io_uring_enter). Returns 0 or -1. */
static inline int seccomp_deny_arg1(long nr, unsigned arg1, int deny_errno)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arg1, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)deny_errno & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = NR(filter), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

/* Child side of the submit-pressure scenario (no Check assertions in a grandchild: returns a
 * step number on failure, 0 on success). Batches of 2 are refused with deny_errno:
 *   A alone is submitted; B+C as a batch hit the error: A is reaped internally while in flight,
 *   then with nothing in flight the engine gives up after its retries. */
static inline int submit_pressure_child(const char *name, int fd, int deny_errno)
{
	const struct engine_ops *ops = engine_find(name);
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	struct io_req reqs[3], *out[4];
	unsigned char *buf = NULL;
	void *ctx = NULL;
	int ret, got = 0;

	if (posix_memalign((void **)&buf, 4096, 3 * BS) || ops->init(&cfg, &ctx, &err))
		return 1;
	memset(reqs, 0, sizeof(reqs));
	for (unsigned i = 0; i < 3; i++) {
		reqs[i].index = i;
		if (ops->prep(ctx, &reqs[i]))
			return 2;
		set_req(&reqs[i], IO_READ, fd, buf + i * BS, BS, (uint64_t)i * BS);
	}
	if (seccomp_deny_arg1(!strcmp(name, "libaio") ? SYS_io_submit : SYS_io_uring_enter, 2,
			      deny_errno))
		return 3;
	if (ops->queue(ctx, &reqs[0]) != ENGINE_QUEUED || ops->commit(ctx) != 1)
		return 4;
	if (ops->queue(ctx, &reqs[1]) != ENGINE_QUEUED || ops->queue(ctx, &reqs[2]) != ENGINE_QUEUED)
		return 5;
	ret = ops->commit(ctx);
	if (!strcmp(name, "libaio")) {
		/* B failed with -EAGAIN after the retries, C went alone */
		if (ret != 2)
			return 6;
		while (got < 3) {
			int n = ops->reap(ctx, 1, 4, NULL, out);

			if (n < 1)
				return 7;
			got += n;
		}
		if (reqs[0].result != BS || reqs[1].result != -EAGAIN || reqs[2].result != BS)
			return 8;
	} else {
		/* SQEs cannot be taken back: commit reports the error, A is still delivered */
		if (ret != -deny_errno)
			return 9;
		if (ops->reap(ctx, 1, 4, NULL, out) != 1 || out[0] != &reqs[0] || reqs[0].result != BS)
			return 10;
		/* the context refuses further work instead of sending stale SQEs later */
		if (ops->queue(ctx, &reqs[0]) != -deny_errno || ops->commit(ctx) != -deny_errno)
			return 11;
	}
	/* cleanup frees the context (io_uring's unsubmitted SQEs die with the ring) */
	ops->cleanup(ctx);
	free(buf);
	return 0;
}

/* The submit-pressure scenario for name in a child (batches of 2 refused with deny_errno). */
static inline void engine_seccomp_submit_pressure(const char *name, int deny_errno)
{
	int fd = temp_file(3 * BS, false);
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(submit_pressure_child(name, fd, deny_errno));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "%s: failed at step %d", name, WEXITSTATUS(status));
	close(fd);
}

#endif

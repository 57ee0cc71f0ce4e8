/* SPDX-License-Identifier: MIT */
/* Unit tests of the io_uring engine (lib/engine/engine_uring.c) under seccomp filters: init
 * when io_uring_setup is denied (Docker's default profile), io_uring_enter refusing a batch,
 * and the READV/WRITEV fallback when the probe is unavailable; and its options (fio's
 * fixedbufs, registerfiles, sqthread_poll, hipri, nonvectored, nowait, force_async), each
 * shown by what only that option makes the kernel do. Every case runs in a forked child. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"
#include "engine_seccomp.h"
#include "unit_probe.h"

START_TEST(test_uring_blocked_by_seccomp)
{
	UNIT_NEED(unit_have_seccomp(why_));
	char msg[512];
	int deny = _i ? ENOSYS : EPERM;
	int code = init_under_seccomp("io_uring", SYS_io_uring_setup, deny, msg, sizeof(msg));

	ck_assert_int_eq(code, deny);
	ck_assert_msg(strstr(msg, "io_uring is not available here") && strstr(msg, "--ioengine=libaio") &&
		      strstr(msg, strerror(deny)) && !strchr(msg, '\n'), "%s", msg);
}
END_TEST

/* io_uring_enter refuses batches of 2 with EBUSY: commit reports it, the context stops. */
START_TEST(test_uring_submit_pressure)
{
	UNIT_NEED(unit_have_seccomp(why_));
	if (rig_engine_missing("io_uring"))
		return;
	engine_seccomp_submit_pressure("io_uring", EBUSY);
}
END_TEST

/* io_uring without a usable probe (io_uring_register denied) falls back to READV/WRITEV:
 * write a pattern and read it back through that path. Child returns a step number or 0. */
static int uring_vectored_child(int fd)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	struct io_req reqs[4], *out[4];
	unsigned char *wbuf = NULL, *rbuf = NULL;
	void *ctx = NULL;

	if (seccomp_deny_arg1(SYS_io_uring_register, IORING_REGISTER_PROBE, EINVAL))
		return 1;
	if (posix_memalign((void **)&wbuf, 4096, 4 * BS) || posix_memalign((void **)&rbuf, 4096, 4 * BS))
		return 2;
	for (unsigned b = 0; b < 4; b++)
		fill_block(wbuf + b * BS, b + 11);
	memset(rbuf, 0, 4 * BS);
	if (ops->init(&cfg, &ctx, &err))
		return 3;
	memset(reqs, 0, sizeof(reqs));
	for (unsigned pass = 0; pass < 2; pass++) {
		int got = 0;

		for (unsigned i = 0; i < 4; i++) {
			reqs[i].index = i;
			if (ops->prep(ctx, &reqs[i]) || !reqs[i].engine_data)	/* the iovec */
				return 4;
			set_req(&reqs[i], pass ? IO_READ : IO_WRITE, fd, (pass ? rbuf : wbuf) + i * BS,
				BS, (uint64_t)(3 - i) * BS);
			if (ops->queue(ctx, &reqs[i]) != ENGINE_QUEUED)
				return 5;
		}
		if (ops->commit(ctx) != 4)
			return 6;
		while (got < 4) {
			int n = ops->reap(ctx, 1, 4, NULL, out);

			if (n < 1)
				return 7;
			for (int i = 0; i < n; i++)
				if (out[i]->result != BS)
					return 8;
			got += n;
		}
	}
	if (memcmp(wbuf, rbuf, 4 * BS))
		return 9;
	ops->cleanup(ctx);
	free(wbuf);
	free(rbuf);
	return 0;
}

START_TEST(test_uring_vectored_fallback)
{
	int fd, status;
	pid_t pid;

	UNIT_NEED(unit_have_seccomp(why_));
	if (rig_engine_missing("io_uring"))
		return;
	fd = temp_file(4 * BS, false);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(uring_vectored_child(fd));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "failed at step %d", WEXITSTATUS(status));
	close(fd);
}
END_TEST

/* ---- engine options ---------------------------------------------------------------------- */

/* Run child(arg) in a forked process; it returns 0 or the step that failed. */
static void run_child(int (*child)(int), int arg)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child(arg));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "case %d failed at step %d", arg, WEXITSTATUS(status));
}

/* One request through the engine: queue, commit, reap with a timeout. Returns the number
 * reaped (0 or 1); the result is in req->result. */
static int one_io(const struct engine_ops *ops, void *ctx, struct io_req *req, long timeout_ns)
{
	struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };
	struct io_req *out[1];

	if (ops->queue(ctx, req) != ENGINE_QUEUED || ops->commit(ctx) != 1)
		return -1;
	return ops->reap(ctx, 1, 1, &ts, out);
}

static int init_with(const char *name, struct engine_opts *eo, struct engine_cfg *cfg, void **ctx,
		     struct io_req *reqs, unsigned n)
{
	struct iops_err err = { 0 };
	const struct engine_ops *ops = engine_find(name);

	cfg->opts = eo;
	cfg->depth = n;
	if (ops->init(cfg, ctx, &err))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		memset(&reqs[i], 0, sizeof(reqs[i]));
		reqs[i].index = i;
		reqs[i].buf = cfg->bufs ? (char *)cfg->bufs + i * cfg->buf_bytes : NULL;
		if (ops->prep && ops->prep(*ctx, &reqs[i]))
			return -1;
	}
	return 0;
}

/* fixedbufs: after registration the buffer's address is mapped to fresh pages. A READ_FIXED
 * still lands in the registered (pinned) pages, so the new mapping stays zero; a plain read
 * fills it. WRITE_FIXED likewise sends the registered pages' bytes. fixed: 1 or 0. */
static int fixedbufs_child(int fixed)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct io_req reqs[2];
	unsigned char pat[BS], *bufs, *back;
	void *ctx = NULL;
	int fd = temp_file(4 * BS, false);

	engine_opts_defaults(&eo);
	eo.aio.fixedbufs = fixed;
	bufs = mmap(NULL, 2 * BS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bufs == MAP_FAILED)
		return 1;
	fill_block(pat, 5);
	if (pwrite(fd, pat, BS, 0) != BS)
		return 2;
	fill_block(bufs + BS, 9);	/* what buffer 1 holds when it is registered */
	cfg.bufs = bufs;
	cfg.buf_bytes = BS;
	if (init_with("io_uring", &eo, &cfg, &ctx, reqs, 2))
		return 3;
	if (mmap(bufs, 2 * BS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != bufs)
		return 4;
	set_req(&reqs[0], IO_READ, fd, bufs, BS, 0);
	if (one_io(ops, ctx, &reqs[0], 1000000000L) != 1 || reqs[0].result != BS)
		return 5;
	back = calloc(1, BS);
	if (fixed ? memcmp(bufs, back, BS) != 0 : memcmp(bufs, pat, BS) != 0)
		return 6;	/* fixed: the bytes went to the registered pages, not the new ones */
	set_req(&reqs[1], IO_WRITE, fd, bufs + BS, BS, BS);	/* the new page is zeros */
	if (one_io(ops, ctx, &reqs[1], 1000000000L) != 1 || reqs[1].result != BS)
		return 7;
	fill_block(pat, 9);
	if (pread(fd, back, BS, BS) != BS || (fixed ? memcmp(back, pat, BS) : back[0] | back[BS - 1]))
		return 8;
	/* a buffer outside the registered ones still works (a plain read) */
	set_req(&reqs[0], IO_READ, fd, back, BS, 0);
	if (one_io(ops, ctx, &reqs[0], 1000000000L) != 1 || reqs[0].result != BS)
		return 9;
	ops->cleanup(ctx);
	free(back);
	munmap(bufs, 2 * BS);
	close(fd);
	return 0;
}

START_TEST(test_uring_fixedbufs)
{
	if (rig_engine_missing("io_uring") ||
	    (_i && !unit_need(probe_uring_register(PROBE_URING_BUFFERS), "io_uring: registered buffers (fixedbufs)")))
		return;
	run_child(fixedbufs_child, _i);
}
END_TEST

/* registerfiles: once registered, the descriptor's number is pointed at another file; the
 * registered slot still reads the first file, a plain descriptor the second. */
static int registerfiles_child(int reg)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct io_req reqs[1];
	unsigned char a[BS], b[BS], *buf = aligned_buf(BS);
	void *ctx = NULL;
	int fa = temp_file(BS, false), fb = temp_file(BS, false), fds[1];

	engine_opts_defaults(&eo);
	eo.aio.registerfiles = reg;
	fill_block(a, 1);
	fill_block(b, 2);
	if (pwrite(fa, a, BS, 0) != BS || pwrite(fb, b, BS, 0) != BS)
		return 1;
	fds[0] = fa;
	cfg.fds = fds;
	cfg.nr_files = 1;
	if (init_with("io_uring", &eo, &cfg, &ctx, reqs, 1))
		return 2;
	if (dup2(fb, fa) != fa)
		return 3;
	set_req(&reqs[0], IO_READ, fa, buf, BS, 0);
	reqs[0].file_idx = 0;
	if (one_io(ops, ctx, &reqs[0], 1000000000L) != 1 || reqs[0].result != BS)
		return 4;
	if (memcmp(buf, reg ? a : b, BS))
		return 5;
	ops->cleanup(ctx);
	free(buf);
	return 0;
}

START_TEST(test_uring_registerfiles)
{
	if (rig_engine_missing("io_uring") ||
	    (_i && !unit_need(probe_uring_register(PROBE_URING_FILES), "io_uring: registered files (registerfiles)")))
		return;
	run_child(registerfiles_child, _i);
}
END_TEST

/* The first thread of this process whose name starts with prefix: its Cpus_allowed_list into
 * cpus (when not NULL). 0 when found, -1 otherwise. */
static int find_thread(const char *prefix, char *cpus, size_t cap)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int found = -1;

	if (!d)
		return -1;
	while (found && (de = readdir(d)) != NULL) {
		char path[300], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !strncmp(line, prefix, strlen(prefix)))
			found = 0;
		fclose(f);
		if (found || !cpus)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", de->d_name);
		f = fopen(path, "r");
		cpus[0] = '\0';
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "Cpus_allowed_list:", 18)) {
				snprintf(cpus, cap, "%s", line + 18 + strspn(line + 18, " \t"));
				cpus[strcspn(cpus, "\n")] = '\0';
			}
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

/* sqthread_poll: the kernel's polling thread (iou-sqp-PID) exists, on sqthread_poll_cpu when
 * given; I/O goes through it. aff: 1 pins it to the last CPU this process may use. */
static int sqpoll_child(int aff)
{
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct rig rig;
	struct iops_err err = { 0 };
	unsigned char *w = aligned_buf(NR_BLOCKS * BS), *r = aligned_buf(NR_BLOCKS * BS);
	char cpus[64], want[16];
	int fd = temp_file(NR_BLOCKS * BS, false);

	engine_opts_defaults(&eo);
	eo.aio.sqpoll = true;
	if (aff)
		eo.aio.sqpoll_cpu = probe_last_cpu();
	memset(&rig, 0, sizeof(rig));
	rig.ops = engine_find("io_uring");
	rig.depth = 4;
	cfg.depth = 4;
	cfg.opts = &eo;
	if (rig.ops->init(&cfg, &rig.ctx, &err))
		return 1;
	for (unsigned i = 0; i < 4; i++) {
		rig.reqs[i].index = i;
		if (rig.ops->prep(rig.ctx, &rig.reqs[i]))
			return 2;
	}
	/* the thread names itself when it first runs: give it up to 5 s to be scheduled */
	for (int tries = 0; find_thread("iou-sqp-", cpus, sizeof(cpus)); tries++) {
		struct timespec pause = { 0, 10000000 };

		if (tries == 500)
			return 3;
		nanosleep(&pause, NULL);
	}
	snprintf(want, sizeof(want), "%d", eo.aio.sqpoll_cpu);
	if (aff && strcmp(cpus, want))
		return 4;
	for (unsigned b = 0; b < NR_BLOCKS; b++)
		fill_block(w + b * BS, b);
	run_ios(&rig, IO_WRITE, fd, w, NR_BLOCKS);
	run_ios(&rig, IO_READ, fd, r, NR_BLOCKS);
	if (memcmp(w, r, NR_BLOCKS * BS))
		return 5;
	rig_release(&rig);
	free(w);
	free(r);
	return 0;
}

START_TEST(test_uring_sqpoll)
{
	int cpu = _i ? probe_last_cpu() : -1;

	if (rig_engine_missing("io_uring"))
		return;
	ck_assert_int_ge(cpu, _i ? 0 : -1);
	if (!unit_need(probe_uring(IORING_SETUP_SQPOLL | (_i ? IORING_SETUP_SQ_AFF : 0), cpu),
		       _i ? "io_uring: a polling thread on this process's last CPU (sqthread_poll_cpu)"
			  : "io_uring: a polling thread (sqthread_poll)"))
		return;
	/* the thread's name is how the check finds it: the kernel's own ring shows it or not */
	if (probe_uring_thread(IORING_SETUP_SQPOLL, false, "iou-sqp-", 5000)) {
		unit_skip("io_uring: the kernel's polling thread is not shown as iou-sqp-PID in /proc/self/task");
		return;
	}
	run_child(sqpoll_child, _i);
}
END_TEST

/* hipri: a polled ring (IOPOLL) takes O_DIRECT requests only: a buffered read gets what the
 * kernel answers on a polled ring of its own (EOPNOTSUPP); without hipri it reads. */
static int64_t hipri_want;

static int hipri_child(int hipri)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct io_req reqs[1];
	void *ctx = NULL;
	int fd = temp_file(BS, false);

	engine_opts_defaults(&eo);
	eo.aio.hipri = hipri;
	if (init_with("io_uring", &eo, &cfg, &ctx, reqs, 1))
		return 1;
	set_req(&reqs[0], IO_READ, fd, aligned_buf(BS), BS, 0);
	if (one_io(ops, ctx, &reqs[0], 1000000000L) != 1)
		return 2;
	if (reqs[0].result != (hipri ? hipri_want : (int64_t)BS))
		return 3;
	ops->cleanup(ctx);
	free(reqs[0].buf);
	return 0;
}

START_TEST(test_uring_hipri)
{
	int fd, res = 0;

	if (rig_engine_missing("io_uring") ||
	    (_i && !unit_need(probe_uring(IORING_SETUP_IOPOLL, -1), "io_uring: a polled ring (hipri)")))
		return;
	fd = temp_file(BS, false);
	ck_assert_int_eq(probe_uring_read(IORING_SETUP_IOPOLL, fd, 0, 0, 1000000000L, &res), 0);
	close(fd);
	hipri_want = res;
	run_child(hipri_child, _i);
}
END_TEST

/* nonvectored: 0 uses READV/WRITEV (each request gets its iovec), 1 READ/WRITE (none), -1
 * what the kernel's probe lists (READ/WRITE since 5.6: asked here without the engine, in
 * nonvectored_kernel); data goes through either way. */
static bool nonvectored_kernel;

static int nonvectored_child(int v)
{
	struct engine_opts eo = { 0 };
	struct rig rig;
	unsigned char *w = aligned_buf(NR_BLOCKS * BS), *r = aligned_buf(NR_BLOCKS * BS);
	int fd = temp_file(NR_BLOCKS * BS, false);
	struct engine_cfg cfg = { .depth = 4 };

	engine_opts_defaults(&eo);
	eo.aio.nonvectored = v;
	cfg.opts = &eo;
	rig_init_cfg(&rig, "io_uring", cfg);
	for (unsigned i = 0; i < 4; i++)
		if ((rig.reqs[i].engine_data != NULL) != (v == 0 || (v < 0 && !nonvectored_kernel)))
			return 1;
	for (unsigned b = 0; b < NR_BLOCKS; b++)
		fill_block(w + b * BS, b + 3);
	run_ios(&rig, IO_WRITE, fd, w, NR_BLOCKS);
	run_ios(&rig, IO_READ, fd, r, NR_BLOCKS);
	if (memcmp(w, r, NR_BLOCKS * BS))
		return 2;
	rig_release(&rig);
	free(w);
	free(r);
	return 0;
}

START_TEST(test_uring_nonvectored)
{
	if (rig_engine_missing("io_uring"))
		return;
	nonvectored_kernel = !probe_uring_op(IORING_OP_READ) && !probe_uring_op(IORING_OP_WRITE);
	run_child(nonvectored_child, _i - 1);
}
END_TEST

/* nowait: a read of an empty pipe fails at once with what the kernel answers a ring of its own
 * (EAGAIN); without it, it waits for data. */
static int nowait_want;

static int nowait_child(int nowait)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct io_req reqs[1], *out[1];
	struct timespec ts = { 1, 0 };
	char buf[16];
	void *ctx = NULL;
	int p[2];

	if (pipe(p))
		return 1;
	engine_opts_defaults(&eo);
	eo.aio.nowait = nowait;
	if (init_with("io_uring", &eo, &cfg, &ctx, reqs, 1))
		return 2;
	set_req(&reqs[0], IO_READ, p[0], buf, sizeof(buf), 0);
	if (one_io(ops, ctx, &reqs[0], nowait ? 1000000000L : 50000000L) != nowait)
		return 3;
	if (nowait) {
		if (reqs[0].result != nowait_want)
			return 4;
		ops->cleanup(ctx);
		return 0;
	}
	if (write(p[1], "0123456789abcdef", 16) != 16)
		return 5;
	if (ops->reap(ctx, 1, 1, &ts, out) != 1 || reqs[0].result != 16)
		return 6;
	ops->cleanup(ctx);
	return 0;
}

START_TEST(test_uring_nowait)
{
	int p[2], e;

	if (rig_engine_missing("io_uring"))
		return;
	ck_assert_int_eq(pipe(p), 0);
	e = probe_uring_read(0, p[0], RWF_NOWAIT, 0, 1000000000L, &nowait_want);
	close(p[0]);
	close(p[1]);
	if (_i && e == ETIME) {
		unit_skip("io_uring: the kernel's own ring waits on an empty pipe despite RWF_NOWAIT: nothing to tell apart");
		return;
	}
	if (_i && !unit_need(e, "io_uring: a read with RWF_NOWAIT"))
		return;
	run_child(nowait_child, _i);
}
END_TEST

/* force_async: IOSQE_ASYNC sends the request to the ring's worker threads (iou-wrk-PID); a
 * cached read without it completes inline and starts none. */
static int force_async_child(int n)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { 0 };
	struct io_req reqs[1];
	unsigned char *buf = aligned_buf(BS);
	void *ctx = NULL;
	int fd = temp_file(BS, false);

	if (pread(fd, buf, BS, 0) != BS)	/* cached */
		return 1;
	engine_opts_defaults(&eo);
	eo.aio.force_async = (unsigned)n;
	if (init_with("io_uring", &eo, &cfg, &ctx, reqs, 1))
		return 2;
	for (int i = 0; i < 2; i++) {
		set_req(&reqs[0], IO_READ, fd, buf, BS, 0);
		if (one_io(ops, ctx, &reqs[0], 1000000000L) != 1 || reqs[0].result != BS)
			return 3;
	}
	if ((find_thread("iou-wrk-", NULL, 0) == 0) != (n != 0))
		return 4;
	ops->cleanup(ctx);
	free(buf);
	return 0;
}

START_TEST(test_uring_force_async)
{
	if (rig_engine_missing("io_uring"))
		return;
	/* the check tells the two apart by the kernel's worker threads: its own ring must start
	 * one for IOSQE_ASYNC and none for a cached read without it */
	if (probe_uring_thread(0, true, "iou-wrk-", 2000)) {
		unit_skip("io_uring: the kernel's worker for IOSQE_ASYNC is not shown as iou-wrk-PID in /proc/self/task");
		return;
	}
	if (!_i && probe_uring_thread(0, false, "iou-wrk-", 0) != ESRCH) {
		unit_skip("io_uring: the kernel starts a worker for a cached read without IOSQE_ASYNC: nothing to tell apart");
		return;
	}
	run_child(force_async_child, _i);
}
END_TEST

Suite *engine_uring_suite(void);

Suite *engine_uring_suite(void)
{
	Suite *s = suite_create("engine_uring");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_uring_blocked_by_seccomp, 0, 2);
	tcase_add_test(tc, test_uring_submit_pressure);
	tcase_add_test(tc, test_uring_vectored_fallback);
	tcase_add_loop_test(tc, test_uring_fixedbufs, 0, 2);
	tcase_add_loop_test(tc, test_uring_registerfiles, 0, 2);
	tcase_add_loop_test(tc, test_uring_sqpoll, 0, 2);
	tcase_add_loop_test(tc, test_uring_hipri, 0, 2);
	tcase_add_loop_test(tc, test_uring_nonvectored, 0, 3);
	tcase_add_loop_test(tc, test_uring_nowait, 0, 2);
	tcase_add_loop_test(tc, test_uring_force_async, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

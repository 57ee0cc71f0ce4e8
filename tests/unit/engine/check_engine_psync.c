/* SPDX-License-Identifier: MIT */
/* Unit tests of pvsync2's options (lib/engine/engine_psync.c): which requests carry RWF_HIPRI
 * (hipri, hipri_percentage) and RWF_NOWAIT (nowait), seen by a seccomp filter that fails a
 * preadv2 / pwritev2 carrying either flag with an errno of its own; and nowait's effect on a
 * read of pages that are not cached. The other sync engines ignore the options. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"
#include "unit_probe.h"

#define F_HIPRI		0x1u	/* RWF_HIPRI */
#define F_NOWAIT	0x8u	/* RWF_NOWAIT */
#define E_HIPRI		EDOM	/* what the filter answers for each flag */
#define E_NOWAIT	ENOTTY
#define NR_IOS		200

/* preadv2 / pwritev2 with RWF_HIPRI fail with E_HIPRI, with RWF_NOWAIT with E_NOWAIT. */
static int deny_rwf_flags(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_preadv2, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pwritev2, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[5])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, F_HIPRI, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E_HIPRI),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, F_NOWAIT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E_NOWAIT),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = NR(filter), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

struct flag_case {
	const char *engine;
	bool hipri, nowait;
	unsigned pct;
	unsigned min_hipri, max_hipri;	/* of NR_IOS requests (half reads, half writes) */
};

static const struct flag_case flag_cases[] = {
	{ "pvsync2", false, false, 100, 0, 0 },
	{ "pvsync2", true, false, 100, NR_IOS, NR_IOS },
	{ "pvsync2", true, false, 30, 40, 80 },		/* 60 expected */
	{ "pvsync2", true, false, 1, 1, 8 },		/* 2 expected */
	{ "pvsync2", true, false, 0, 0, 0 },
	{ "pvsync2", false, false, 30, 0, 0 },		/* a share without hipri: none */
	{ "pvsync2", false, true, 100, 0, 0 },		/* every request fails with E_NOWAIT */
	{ "pvsync", true, true, 100, 0, 0 },		/* not its options: plain preadv */
};

/* Child: NR_IOS requests under the filter; returns 0 or a step number. */
static int flags_child(const struct flag_case *c, int fd)
{
	const struct engine_ops *ops = engine_find(c->engine);
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo };
	struct iops_err err = { 0 };
	struct io_req req;
	unsigned char *buf = aligned_buf(BS);
	unsigned nr_hipri = 0, nr_nowait = 0, nr_ok = 0;
	void *ctx = NULL;

	engine_opts_defaults(&eo);
	eo.aio.hipri = c->hipri;
	eo.aio.nowait = c->nowait;
	eo.aio.hipri_pct = c->pct;
	if (ops->init(&cfg, &ctx, &err))
		return 1;
	if (deny_rwf_flags())
		return 2;
	memset(&req, 0, sizeof(req));
	for (unsigned i = 0; i < NR_IOS; i++) {
		set_req(&req, i % 2 ? IO_WRITE : IO_READ, fd, buf, BS, (uint64_t)(i % 4) * BS);
		if (ops->queue(ctx, &req) != ENGINE_DONE)
			return 3;
		if (req.result == -E_HIPRI)
			nr_hipri++;
		else if (req.result == -E_NOWAIT)
			nr_nowait++;
		else if (req.result == BS)
			nr_ok++;
	}
	ops->cleanup(ctx);
	free(buf);
	if (nr_hipri < c->min_hipri || nr_hipri > c->max_hipri)
		return 4;
	if (nr_nowait != (c->nowait && !strcmp(c->engine, "pvsync2") ? NR_IOS : 0))
		return 5;
	return nr_hipri + nr_nowait + nr_ok == NR_IOS ? 0 : 6;
}

START_TEST(test_pvsync2_flags)
{
	UNIT_NEED(unit_have_preadv2(why_));
	UNIT_NEED(unit_have_seccomp(why_));
	int fd = temp_file(4 * BS, false);
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(flags_child(&flag_cases[_i], fd));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "case %d failed at step %d", _i, WEXITSTATUS(status));
	close(fd);
}
END_TEST

/* Drops fd's cached pages; true when its first page is out of the cache (mincore). */
static bool drop_first_page(int fd)
{
	unsigned char vec = 1;
	void *map;

	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	map = mmap(NULL, 4 * BS, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert(map != MAP_FAILED);
	ck_assert_int_eq(mincore(map, BS, &vec), 0);
	munmap(map, 4 * BS);
	return !(vec & 1);
}

/* The kernel's own answer to preadv2(RWF_NOWAIT) of a dropped page of fd, without the engine:
 * 0 and its result in *res (-EAGAIN: it would wait for the disk), or ESRCH when the drop never
 * took (a file system without a page cache to drop: tmpfs) in five tries. */
static int kernel_nowait_uncached(int fd, int64_t *res)
{
	unsigned char *buf = aligned_buf(BS);
	struct iovec iov = { buf, BS };
	int e = ESRCH;

	for (int tries = 0; tries < 5 && (e || *res == BS); tries++) {
		ssize_t n;

		if (!drop_first_page(fd))
			continue;
		n = preadv2(fd, &iov, 1, 0, RWF_NOWAIT);
		*res = n < 0 ? -(int64_t)errno : (int64_t)n;
		e = 0;
	}
	free(buf);
	return e;
}

/* nowait for real: a read of pages the cache dropped fails as the kernel answers a preadv2 of
 * its own (EAGAIN: asked first, kernel_nowait_uncached), once cached it reads. Only where the
 * drop takes (a file system with a page cache: not tmpfs). The drop and the read are not atomic
 * (a busy machine's CI once saw the page back in between): up to five tries, one EAGAIN is
 * enough. */
START_TEST(test_pvsync2_nowait_uncached)
{
	UNIT_NEED(unit_have_preadv2(why_));
	const struct engine_ops *ops = engine_find("pvsync2");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo };
	struct iops_err err = { 0 };
	struct io_req req;
	unsigned char *buf = aligned_buf(BS);
	void *ctx = NULL;
	int fd = temp_file(4 * BS, false), tries = 0, dropped = 0, refused = 0;
	int64_t want = 0;

	ck_assert_int_eq(fsync(fd), 0);
	if (kernel_nowait_uncached(fd, &want)) {
		unit_skip("pvsync2 nowait: the page cache of %s keeps the pages (tmpfs?): an uncached read cannot be made",
			  probe_dir());
	} else if (want == BS) {
		unit_skip("pvsync2 nowait: the kernel reads dropped pages of %s despite RWF_NOWAIT: nothing to tell apart",
			  probe_dir());
	} else {
		engine_opts_defaults(&eo);
		eo.aio.nowait = true;
		ck_assert_int_eq(ops->init(&cfg, &ctx, &err), 0);
		for (; tries < 5 && !refused; tries++) {
			bool out = drop_first_page(fd);

			memset(&req, 0, sizeof(req));
			set_req(&req, IO_READ, fd, buf, BS, 0);
			ck_assert_int_eq(ops->queue(ctx, &req), ENGINE_DONE);
			if (out) {	/* dropped: the read would have to wait for the disk */
				dropped++;
				refused += req.result == want;
				ck_assert(req.result == want || req.result == BS);
			}
		}
		if (dropped)
			ck_assert_msg(refused, "%d reads of dropped pages, none failed with %lld as the kernel's",
				      dropped, (long long)want);
		/* cached: it reads (what the kernel answers a RWF_NOWAIT read of a cached page) */
		ck_assert_int_eq(pread(fd, buf, BS, 0), BS);
		want = preadv2(fd, &(struct iovec){ buf, BS }, 1, 0, RWF_NOWAIT);
		want = want < 0 ? -(int64_t)errno : want;
		set_req(&req, IO_READ, fd, buf, BS, 0);
		ck_assert_int_eq(ops->queue(ctx, &req), ENGINE_DONE);
		ck_assert_int_eq(req.result, want);
		ops->cleanup(ctx);
	}
	close(fd);
	free(buf);
}
END_TEST

Suite *engine_psync_suite(void);

Suite *engine_psync_suite(void)
{
	Suite *s = suite_create("engine_psync");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_pvsync2_flags, 0, (int)NR(flag_cases));
	tcase_add_test(tc, test_pvsync2_nowait_uncached);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_skip.h"

#include "sys/cpuset.h"
#include "unit_probe.h"

struct list_case {
	const char *s;
	unsigned limit;
	int ret;
	unsigned bad;		/* -ERANGE: the CPU reported */
	const char *want;	/* CPUs set, as "0,1,5" ("" none) */
};

static const struct list_case list_cases[] = {
	{ "0", 2, 0, 0, "0" },
	{ "0-1", 2, 0, 0, "0,1" },
	{ "0,,1", 2, 0, 0, "0,1" },		/* fio skips empty items */
	{ " 1 , 0 ", 2, 0, 0, "0,1" },
	{ "3,5-7", 8, 0, 0, "3,5,6,7" },
	{ "1023", 1024, 0, 0, "1023" },
	{ "5", 2, -ERANGE, 5, "" },		/* fio: CPU 5 too large (max=1) */
	{ "0-4", 2, -ERANGE, 2, "" },
	{ "1024", 2000, -ERANGE, 1024, "" },	/* beyond the bitmap */
	{ "1-0", 2, -EINVAL, 0, "" },		/* reversed */
	{ "", 2, -EINVAL, 0, "" },
	{ ",", 2, -EINVAL, 0, "" },
	{ "abc", 2, -EINVAL, 0, "" },
	{ "1x", 2, -EINVAL, 0, "" },
	{ "1-", 2, -EINVAL, 0, "" },
	{ "-1", 2, -EINVAL, 0, "" },
	{ "99999999999", 2, -EINVAL, 0, "" },	/* overflow */
};

static void members(const struct cpuset *s, char *out, size_t n)
{
	size_t at = 0;

	out[0] = '\0';
	for (unsigned c = 0; c < CPUSET_MAX; c++)
		if (cpuset_has(s, c))
			at += (size_t)snprintf(out + at, n - at, "%s%u", at ? "," : "", c);
}

START_TEST(test_cpuset_parse_list)
{
	const struct list_case *c = &list_cases[_i];
	struct cpuset s;
	unsigned bad = 0;
	char got[256];
	int ret = cpuset_parse_list(c->s, c->limit, &s, &bad);

	ck_assert_msg(ret == c->ret, "'%s': %d, want %d", c->s, ret, c->ret);
	if (ret == -ERANGE)
		ck_assert_uint_eq(bad, c->bad);
	if (!ret) {
		members(&s, got, sizeof(got));
		ck_assert_str_eq(got, c->want);
	}
}
END_TEST

START_TEST(test_cpuset_parse_mask)
{
	struct cpuset s;
	unsigned bad = 0;
	char got[256];

	ck_assert_int_eq(cpuset_parse_mask("2", 2, &s, &bad), 0);
	members(&s, got, sizeof(got));
	ck_assert_str_eq(got, "1");
	ck_assert_int_eq(cpuset_parse_mask("0x5", 4, &s, &bad), 0);
	members(&s, got, sizeof(got));
	ck_assert_str_eq(got, "0,2");
	ck_assert_int_eq(cpuset_parse_mask("8", 2, &s, &bad), -ERANGE);	/* fio: CPU 3 too large */
	ck_assert_uint_eq(bad, 3);
	ck_assert_int_eq(cpuset_parse_mask("0xffffffffffffffff", 64, &s, &bad), 0);
	ck_assert_uint_eq(cpuset_count(&s), 64);
	ck_assert_int_eq(cpuset_parse_mask("0x1ffffffffffffffff", 64, &s, &bad), -EINVAL);	/* overflow */
	ck_assert_int_eq(cpuset_parse_mask("0", 2, &s, &bad), -EINVAL);	/* no CPU */
	ck_assert_int_eq(cpuset_parse_mask("", 2, &s, &bad), -EINVAL);
	ck_assert_int_eq(cpuset_parse_mask("1z", 2, &s, &bad), -EINVAL);
	ck_assert_int_eq(cpuset_parse_mask("-1", 2, &s, &bad), -EINVAL);
}
END_TEST

START_TEST(test_cpuset_split)
{
	struct cpuset s;
	unsigned bad;
	char got[64];
	static const char *const want[] = { "2", "5", "7", "2" };

	for (unsigned i = 0; i < 4; i++) {
		ck_assert_int_eq(cpuset_parse_list("2,5,7", 8, &s, &bad), 0);
		cpuset_split(&s, i);
		members(&s, got, sizeof(got));
		ck_assert_str_eq(got, want[i]);	/* wraps around the set */
	}
	memset(&s, 0, sizeof(s));
	cpuset_split(&s, 3);	/* empty stays empty */
	ck_assert_uint_eq(cpuset_count(&s), 0);
}
END_TEST

START_TEST(test_cpuset_nodes_from_sysfs)
{
	char dir[] = "/tmp/iops-nodes-XXXXXX", path[128], got[128];
	struct cpuset s;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int n = 0; n < 3; n++) {
		snprintf(path, sizeof(path), "%s/node%d", dir, n);
		ck_assert_int_eq(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, n);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(n == 0 ? "0-1\n" : n == 1 ? "4,6\n" : "\n", f);	/* node 2: memory only */
		fclose(f);
	}
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "0", &s), 0);
	members(&s, got, sizeof(got));
	ck_assert_str_eq(got, "0,1");
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "0-2", &s), 0);
	members(&s, got, sizeof(got));
	ck_assert_str_eq(got, "0,1,4,6");
	/* past the highest node: libnuma (so fio 3.33) refuses it */
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "3", &s), -ERANGE);
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "1-5", &s), -ERANGE);
	ck_assert_int_eq(cpuset_max_node(dir), 2);
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "1-2", &s), 0);
	members(&s, got, sizeof(got));
	ck_assert_str_eq(got, "4,6");
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "x", &s), -EINVAL);
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "", &s), -EINVAL);
	for (int n = 0; n < 3; n++) {
		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, n);
		unlink(path);
		snprintf(path, sizeof(path), "%s/node%d", dir, n);
		rmdir(path);
	}
	rmdir(dir);
}
END_TEST

struct mpol_case {
	const char *s;
	int ret, mode;
	unsigned nr_nodes;
};

static const struct mpol_case mpol_cases[] = {
	{ "default", 0, CPUSET_MPOL_DEFAULT, 0 },
	{ "local", 0, CPUSET_MPOL_LOCAL, 0 },
	{ "prefer:1", 0, CPUSET_MPOL_PREFERRED, 1 },
	{ "bind:0-3", 0, CPUSET_MPOL_BIND, 4 },
	{ "interleave:0,2", 0, CPUSET_MPOL_INTERLEAVE, 2 },
	{ "prefer:0-1", -EINVAL, 0, 0 },	/* one node only */
	{ "bind", -EINVAL, 0, 0 },
	{ "bind:", -EINVAL, 0, 0 },
	{ "default:0", -EINVAL, 0, 0 },
	{ "xyz", -EINVAL, 0, 0 },
	{ "", -EINVAL, 0, 0 },
	{ "defaultx", -EINVAL, 0, 0 },
};

START_TEST(test_cpuset_parse_mpol)
{
	const struct mpol_case *c = &mpol_cases[_i];
	struct cpuset nodes;
	int mode = -1;
	int ret = cpuset_parse_mpol(c->s, &mode, &nodes);

	ck_assert_msg(ret == c->ret, "'%s': %d", c->s, ret);
	if (!ret) {
		ck_assert_int_eq(mode, c->mode);
		ck_assert_uint_eq(cpuset_count(&nodes), c->nr_nodes);
	}
}
END_TEST

/* Pinning: to the first CPU this process may use (asked of the kernel: a container's cpuset
 * need not hold CPU 0), then back to all of them, which must give the same mask as before. */
START_TEST(test_cpuset_apply_pins_the_thread)
{
	cpu_set_t before, after;
	struct cpuset s;
	int first = -1;
	unsigned bad;
	char list[16];

	ck_assert_int_eq(sched_getaffinity(0, sizeof(before), &before), 0);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &before))
			first = c;
	ck_assert_int_ge(first, 0);
	snprintf(list, sizeof(list), "%d", first);
	ck_assert_int_eq(cpuset_parse_list(list, (unsigned)first + 1, &s, &bad), 0);
	ck_assert_int_eq(cpuset_apply(&s), 0);
	ck_assert_int_eq(sched_getcpu(), first);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(cpuset_apply(&s), -EINVAL);	/* no CPU at all */
	ck_assert_uint_ge(cpuset_nr_cpus(), 1);
	for (unsigned c = 0; c < CPU_SETSIZE; c++)	/* give the test process its CPUs back */
		if (CPU_ISSET(c, &before))
			cpuset_add(&s, c);
	ck_assert_int_eq(cpuset_apply(&s), 0);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(after), &after), 0);
	ck_assert(CPU_EQUAL(&before, &after));
}
END_TEST

/* The machine's CPU counts as glibc's sysconf gives them (what fio 3.33 counts), whatever this
 * thread's affinity: pinned to one CPU, still all of them (musl's sysconf would say 1). */
START_TEST(test_cpuset_nr_cpus_as_glibc)
{
	cpu_set_t before, one;
	int first = -1;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(before), &before), 0);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &before))
			first = c;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_uint_eq(cpuset_nr_cpus(), (unsigned)sysconf(_SC_NPROCESSORS_CONF));
	ck_assert_uint_eq(cpuset_nr_online(), (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert_int_eq(sched_setaffinity(0, sizeof(before), &before), 0);
}
END_TEST

/* The kernel's answer to set_mempolicy(mode, nodes), asked directly: 0 or its errno. */
static int kernel_mempolicy(int mode, unsigned long node_mask)
{
	return syscall(SYS_set_mempolicy, mode, node_mask ? &node_mask : NULL, node_mask ? 64ul : 0ul) ? errno : 0;
}

/* numa_mem_policy: where the kernel has NUMA (set_mempolicy works: not ENOSYS), bind:0 takes
 * (get_mempolicy says MPOL_BIND) and default undoes it; elsewhere cpuset_apply_mpol passes the
 * kernel's errno on and the bind is a counted skip. */
START_TEST(test_cpuset_apply_mpol)
{
	struct cpuset nodes;
	int e_default = kernel_mempolicy(CPUSET_MPOL_DEFAULT, 0), e_bind = kernel_mempolicy(CPUSET_MPOL_BIND, 1), mode = -1;

	memset(&nodes, 0, sizeof(nodes));
	ck_assert_int_eq(cpuset_apply_mpol(CPUSET_MPOL_DEFAULT, &nodes), -e_default);
	(void)kernel_mempolicy(CPUSET_MPOL_DEFAULT, 0);
	cpuset_add(&nodes, 0);
	ck_assert_int_eq(cpuset_apply_mpol(CPUSET_MPOL_BIND, &nodes), -e_bind);
	if (e_bind) {
		unit_skip("numa_mem_policy: the kernel refuses set_mempolicy(MPOL_BIND, node 0) here (%s): the errno is checked, the policy is not",
			  strerror(e_bind));
		return;
	}
	ck_assert_int_eq(syscall(SYS_get_mempolicy, &mode, NULL, 0ul, NULL, 0ul), 0);
	ck_assert_int_eq(mode, CPUSET_MPOL_BIND);
	memset(&nodes, 0, sizeof(nodes));
	ck_assert_int_eq(cpuset_apply_mpol(CPUSET_MPOL_DEFAULT, &nodes), 0);
	ck_assert_int_eq(syscall(SYS_get_mempolicy, &mode, NULL, 0ul, NULL, 0ul), 0);
	ck_assert_int_eq(mode, CPUSET_MPOL_DEFAULT);
}
END_TEST

/* The refusal on every machine: set_mempolicy and sched_setaffinity fail under a seccomp filter
 * (EPERM, as a container profile answers); both calls pass the errno on. In a child. */
START_TEST(test_cpuset_refused)
{
	UNIT_NEED(unit_have_seccomp(why_));	/* the refusal is a seccomp filter's (qemu-user has none) */
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sock_filter filter[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_set_mempolicy, 1, 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sched_setaffinity, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };
		struct cpuset s;

		memset(&s, 0, sizeof(s));
		cpuset_add(&s, 0);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(90);
		if (cpuset_apply(&s) != -EPERM)
			_exit(1);
		_exit(cpuset_apply_mpol(CPUSET_MPOL_BIND, &s) != -EPERM ? 2 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "failed at step %d", WEXITSTATUS(status));
}
END_TEST

Suite *cpuset_suite(void);
Suite *cpuset_suite(void)
{
	Suite *s = suite_create("cpuset");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_cpuset_parse_list, 0, (int)(sizeof(list_cases) / sizeof(list_cases[0])));
	tcase_add_test(tc, test_cpuset_parse_mask);
	tcase_add_test(tc, test_cpuset_split);
	tcase_add_test(tc, test_cpuset_nodes_from_sysfs);
	tcase_add_loop_test(tc, test_cpuset_parse_mpol, 0, (int)(sizeof(mpol_cases) / sizeof(mpol_cases[0])));
	tcase_add_test(tc, test_cpuset_apply_pins_the_thread);
	tcase_add_test(tc, test_cpuset_nr_cpus_as_glibc);
	tcase_add_test(tc, test_cpuset_apply_mpol);
	tcase_add_test(tc, test_cpuset_refused);
	suite_add_tcase(s, tc);
	return s;
}

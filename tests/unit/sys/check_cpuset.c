#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "3", &s), -ENOENT);	/* no such node */
	ck_assert_int_eq(cpuset_nodes_cpus(dir, "1-5", &s), 0);		/* those that exist */
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

START_TEST(test_cpuset_apply_pins_the_thread)
{
	UNIT_NEED(unit_have_set_mempolicy(why_));
	struct cpuset s;
	unsigned bad;

	ck_assert_int_eq(cpuset_parse_list("0", 1, &s, &bad), 0);
	ck_assert_int_eq(cpuset_apply(&s), 0);
	ck_assert_int_eq(sched_getcpu(), 0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(cpuset_apply(&s), -EINVAL);	/* no CPU at all */
	ck_assert_uint_ge(cpuset_nr_cpus(), 1);
	for (unsigned c = 0; c < cpuset_nr_cpus(); c++)	/* give the test process its CPUs back */
		cpuset_add(&s, c);
	ck_assert_int_eq(cpuset_apply(&s), 0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(cpuset_apply_mpol(CPUSET_MPOL_DEFAULT, &s), 0);
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
	suite_add_tcase(s, tc);
	return s;
}

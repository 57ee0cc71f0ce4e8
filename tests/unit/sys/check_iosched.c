/* SPDX-License-Identifier: MIT */
/* Unit tests of the scheduler helpers (lib/sys/iosched.c): the bracketed name in the kernel's
 * text, the sysfs file of a disk and of a partition under a stand-in sysfs tree, and reading
 * and writing that file. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/iosched.h"

static const struct { const char *text; int ret; const char *name; } parse_cases[] = {
	{ "none [mq-deadline] kyber bfq\n", 0, "mq-deadline" },
	{ "[none] mq-deadline kyber bfq \n", 0, "none" },
	{ "none mq-deadline kyber [bfq]", 0, "bfq" },
	{ "none\n", 0, "none" },			/* a queue with one choice prints it bare */
	{ "noop deadline\n", -EINVAL, NULL },	/* several, none selected */
	{ "", -EINVAL, NULL },
	{ "\n", -EINVAL, NULL },
	{ "[] none\n", -EINVAL, NULL },
	{ "[unterminated\n", -EINVAL, NULL },
	{ "[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]\n", -EINVAL, NULL },	/* longer than the name buffer */
};

START_TEST(test_parse)
{
	char name[IOSCHED_NAME_MAX] = "";

	ck_assert_int_eq(iosched_parse(parse_cases[_i].text, name, sizeof(name)), parse_cases[_i].ret);
	if (parse_cases[_i].name)
		ck_assert_str_eq(name, parse_cases[_i].name);
}
END_TEST

static void put(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

START_TEST(test_paths_get_set)
{
	char root[] = "/tmp/check_iosched.XXXXXX", p[256], path[IOSCHED_PATH_MAX], name[IOSCHED_NAME_MAX];

	ck_assert_ptr_nonnull(mkdtemp(root));
	/* disk 7:2 with a queue; partition 7:3 inside disk "d" (sysfs: dev/block/7:3 -> d/d1) */
	snprintf(p, sizeof(p), "mkdir -p %s/dev/block/7:2/queue %s/dev/block/d/queue %s/dev/block/d/d1 "
		 "&& ln -s d/d1 %s/dev/block/7:3 && ln -s 7:2 %s/dev/block/7:9",
		 root, root, root, root, root);
	ck_assert_int_eq(system(p), 0);
	snprintf(p, sizeof(p), "%s/dev/block/7:2/queue/scheduler", root);
	put(p, "none [mq-deadline] kyber\n");
	snprintf(p, sizeof(p), "%s/dev/block/d/queue/scheduler", root);
	put(p, "[none] bfq\n");
	snprintf(p, sizeof(p), "%s/dev/block/d/d1/partition", root);
	put(p, "1\n");

	ck_assert_int_eq(iosched_path(root, makedev(7, 2), path), 0);
	snprintf(p, sizeof(p), "%s/dev/block/7:2/queue/scheduler", root);
	ck_assert_str_eq(path, p);
	ck_assert_int_eq(iosched_get(path, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "mq-deadline");
	ck_assert_int_eq(iosched_set(path, "kyber"), 0);
	ck_assert_int_eq(iosched_parse("x [kyber]", name, sizeof(name)), 0);

	ck_assert_int_eq(iosched_path(root, makedev(7, 3), path), 0);	/* the partition's disk */
	snprintf(p, sizeof(p), "%s/dev/block/7:3/../queue/scheduler", root);
	ck_assert_str_eq(path, p);
	ck_assert_int_eq(iosched_get(path, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "none");

	ck_assert_int_eq(iosched_path(root, makedev(0, 44), path), -ENOENT);	/* tmpfs and such */
	ck_assert_int_eq(iosched_path(root, makedev(7, 9), path), 0);	/* a link to a disk */
	ck_assert_int_eq(iosched_get("/nonexistent/scheduler", name, sizeof(name)), -ENOENT);
	ck_assert_int_eq(iosched_set("/nonexistent/scheduler", "none"), -ENOENT);
	ck_assert_int_eq(iosched_path("/tmp/a-very-long-root-directory-name-that-keeps-going-and-going-"
				      "and-going-until-it-is-far-past-the-limit", makedev(7, 2), path), -ENAMETOOLONG);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	ck_assert_int_eq(system(p), 0);
}
END_TEST

Suite *iosched_suite(void);

Suite *iosched_suite(void)
{
	Suite *s = suite_create("iosched");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_parse, 0, sizeof(parse_cases) / sizeof(parse_cases[0]));
	tcase_add_test(tc, test_paths_get_set);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the blkio cgroup helpers (lib/sys/cgroup.c): finding the v1 blkio mount in
 * /proc/mounts texts, and the group steps on a plain directory standing in for the mount. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cgroup.h"

static const struct { const char *text; int ret; const char *root; bool v2; } find_cases[] = {
	{ "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
	  "cgroup /sys/fs/cgroup/blkio cgroup rw,relatime,blkio 0 0\n"
	  "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n", 0, "/sys/fs/cgroup/blkio", false },
	{ "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
	  "cgroup /cg/b cgroup rw,blkio,cpu 0 0\n", 0, "/cg/b", true },	/* v1 wins when it is there */
	{ "cgroup /cg/x cgroup rw,cpu,blkio 0 0\n", 0, "/cg/x", false },
	{ "cgroup2 /sys/fs/cgroup cgroup2 rw,nsdelegate 0 0\n", -ENOENT, NULL, true },
	{ "cgroup /cg/y cgroup rw,blkiox 0 0\ncgroup /cg/z cgroup rw,xblkio 0 0\n", -ENOENT, NULL, false },
	{ "tmpfs /sys/fs/cgroup tmpfs rw,blkio 0 0\n", -ENOENT, NULL, false },	/* not a cgroup */
	{ "", -ENOENT, NULL, false },
	{ "garbage\ncgroup /short\n\n   \n", -ENOENT, NULL, false },
};

START_TEST(test_find_blkio)
{
	FILE *f = fmemopen((void *)find_cases[_i].text, strlen(find_cases[_i].text) + 1, "r");
	char root[CGROUP_PATH_MAX] = "";
	bool v2 = true;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cgroup_find_blkio(f, root, sizeof(root), &v2), find_cases[_i].ret);
	fclose(f);
	if (find_cases[_i].root)
		ck_assert_str_eq(root, find_cases[_i].root);
	ck_assert_int_eq(v2, find_cases[_i].v2);
}
END_TEST

START_TEST(test_find_too_long)
{
	const char *text = "cgroup /a/long/path cgroup rw,blkio 0 0\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char root[8];
	bool v2;

	ck_assert_int_eq(cgroup_find_blkio(f, root, sizeof(root), &v2), -ENAMETOOLONG);
	fclose(f);
}
END_TEST

static char *slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, cap - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

START_TEST(test_group_steps)
{
	char root[] = "/tmp/check_cgroup.XXXXXX", path[CGROUP_PATH_MAX], buf[64];
	bool made = false;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(cgroup_make(root, "g", &made), 0);
	ck_assert(made);
	ck_assert_int_eq(cgroup_make(root, "g", &made), 0);	/* there already: not ours */
	ck_assert(!made);
	ck_assert_int_eq(cgroup_make(root, "no/such", &made), -ENOENT);
	ck_assert(!made);

	/* a real group has its tasks file; here the test makes it */
	ck_assert_int_eq(cgroup_attach(root, "g", 1234), -ENOENT);
	snprintf(path, sizeof(path), "%s/g/tasks", root);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	ck_assert_int_eq(cgroup_attach(root, "g", 1234), 0);
	ck_assert_str_eq(slurp(path, buf, sizeof(buf)), "1234\n");
	unlink(path);

	ck_assert_int_eq(cgroup_set_weight(root, "g", 500), 0);
	snprintf(path, sizeof(path), "%s/g/blkio.weight", root);
	ck_assert_str_eq(slurp(path, buf, sizeof(buf)), "500\n");
	ck_assert_int_eq(cgroup_set_weight(root, "g", 100), 0);	/* replaced, not appended */
	ck_assert_str_eq(slurp(path, buf, sizeof(buf)), "100\n");
	ck_assert_int_eq(cgroup_remove(root, "g"), -ENOTEMPTY);
	unlink(path);
	ck_assert_int_eq(cgroup_remove(root, "g"), 0);
	ck_assert_int_eq(cgroup_remove(root, "g"), -ENOENT);
	rmdir(root);
}
END_TEST

START_TEST(test_name_too_long)
{
	char name[CGROUP_PATH_MAX + 1];
	bool made;

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ck_assert_int_eq(cgroup_make("/tmp", name, &made), -ENAMETOOLONG);
	ck_assert_int_eq(cgroup_attach("/tmp", name, 1), -ENAMETOOLONG);
	ck_assert_int_eq(cgroup_set_weight("/tmp", name, 100), -ENAMETOOLONG);
	ck_assert_int_eq(cgroup_remove("/tmp", name), -ENAMETOOLONG);
}
END_TEST

Suite *cgroup_suite(void);

Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_find_blkio, 0, sizeof(find_cases) / sizeof(find_cases[0]));
	tcase_add_test(tc, test_find_too_long);
	tcase_add_test(tc, test_group_steps);
	tcase_add_test(tc, test_name_too_long);
	suite_add_tcase(s, tc);
	return s;
}

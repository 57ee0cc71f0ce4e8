/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/devnode.h"
#include "unit_skip.h"

static char dir[64];

static void dev_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_devnode.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void dev_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int node(const char *rel, mode_t type, unsigned ma, unsigned mi)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return mknod(p, type | 0600, makedev(ma, mi));
}

static void mkd(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	ck_assert_int_eq(mkdir(p, 0700), 0);
}

START_TEST(test_devnode_find)
{
	char out[256], want[256], p[256], lnk[256];

	mkd("a");
	mkd("a/b");
	mkd("a/b/c");
	mkd("a/b/c/d");
	if (node("a/b/sdz", S_IFBLK, 250, 7)) {	/* needs CAP_MKNOD (root, not in a user namespace) */
		unit_skip("devnode: mknod of a block device is refused here (%s): no node to find", strerror(errno));
		return;
	}
	ck_assert_int_eq(node("chr", S_IFCHR, 250, 8), 0);	/* a character device is not the one */
	ck_assert_int_eq(node("a/b/c/d/deep", S_IFBLK, 250, 9), 0);	/* below the depth looked at */
	snprintf(p, sizeof(p), "%s/a/b/sdz", dir);
	snprintf(lnk, sizeof(lnk), "%s/link", dir);
	ck_assert_int_eq(symlink(p, lnk), 0);	/* links are not followed */
	ck_assert_int_eq(devnode_find(dir, 250, 7, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/a/b/sdz", dir);
	ck_assert_str_eq(out, want);
	snprintf(p, sizeof(p), "%s/", dir);	/* a trailing slash */
	ck_assert_int_eq(devnode_find(p, 250, 7, out, sizeof(out)), 0);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(devnode_find(dir, 250, 8, out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(devnode_find(dir, 250, 9, out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(devnode_find(dir, 7, 250, out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(devnode_find(dir, 250, 7, out, strlen(dir) + 4), -ENOENT);	/* does not fit */
	ck_assert_int_eq(devnode_find(dir, 250, 7, out, strlen(dir)), -ENAMETOOLONG);
	ck_assert_int_eq(devnode_find("/nonexistent/dir", 250, 7, out, sizeof(out)), -ENOENT);
}
END_TEST

Suite *devnode_suite(void)
{
	Suite *s = suite_create("devnode");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, dev_setup, dev_teardown);
	tcase_add_test(tc, test_devnode_find);
	suite_add_tcase(s, tc);
	return s;
}

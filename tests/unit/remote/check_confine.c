/* SPDX-License-Identifier: MIT */
/* confine: the lexical fold table-driven ('.', '..', slashes, the root itself, "/" as root,
 * out of the root, empty, a result that does not fit), then the file system rules on a
 * scratch tree: inside, missing files and directories, '..' out, symbolic links out and in,
 * dangling links, devices, and --device (a block device may be lent; here only refused, as
 * a test machine may have none we can name: the e2e test lends a loop device). */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote/confine.h"

static const struct { const char *root, *path; bool ok; const char *out; } folds[] = {
	{ "/srv", "a", true, "/srv/a" },
	{ "/srv", "./a/./b//c/", true, "/srv/a/b/c" },
	{ "/srv", "a/../b", true, "/srv/b" },
	{ "/srv", ".", true, "/srv" },
	{ "/srv", "/srv", true, "/srv" },
	{ "/srv", "/srv/x/..", true, "/srv" },
	{ "/srv", "..", false, "/" },
	{ "/srv", "../srv/a", true, "/srv/a" },
	{ "/srv", "../srvx/a", false, "/srvx/a" },
	{ "/srv", "/srvx", false, "/srvx" },
	{ "/srv", "/etc/passwd", false, "/etc/passwd" },
	{ "/srv", "a/../../etc", false, "/etc" },
	{ "/srv", "/../../../srv/a", true, "/srv/a" },
	{ "/srv", "", false, NULL },
	{ "/", "/etc/x", true, "/etc/x" },
	{ "/", "..", true, "/" },
	{ "/", "a", true, "/a" },
	{ "srv", "a", false, NULL },		/* a relative root: never */
};

START_TEST(test_fold)
{
	char out[PATH_MAX];
	bool ok = confine_fold(folds[_i].root, folds[_i].path, out, sizeof(out));

	ck_assert_msg(ok == folds[_i].ok, "%s in %s", folds[_i].path, folds[_i].root);
	if (folds[_i].out)
		ck_assert_str_eq(out, folds[_i].out);
}
END_TEST

START_TEST(test_fold_long)
{
	char out[16], path[PATH_MAX + 8];

	ck_assert(!confine_fold("/srv", "abcdefghijklmnop", out, sizeof(out)));	/* does not fit */
	ck_assert(confine_fold("/srv", "abcdefghij", out, sizeof(out)));
	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	{
		char big[PATH_MAX];

		ck_assert(!confine_fold("/srv", path, big, sizeof(big)));
	}
}
END_TEST

static char tmp[PATH_MAX];

static void tree(void)
{
	char p[PATH_MAX + 32];

	snprintf(tmp, sizeof(tmp), "/tmp/check_confine.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(p, sizeof(p), "%s/srv", tmp);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/srv/sub", tmp);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/out", tmp);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/srv/f", tmp);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/srv/link-out", tmp);
	ck_assert_int_eq(symlink("../out", p), 0);
	snprintf(p, sizeof(p), "%s/srv/link-in", tmp);
	ck_assert_int_eq(symlink("sub", p), 0);
	snprintf(p, sizeof(p), "%s/srv/dangling", tmp);
	ck_assert_int_eq(symlink("/nonexistent/x", p), 0);
	snprintf(p, sizeof(p), "%s/srv/null", tmp);
	ck_assert_int_eq(symlink("/dev/null", p), 0);
}

static void untree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct { const char *path; const char *msg; } paths[] = {	/* msg NULL: allowed */
	{ "f", NULL },
	{ "new", NULL },
	{ "sub/new/deeper/file", NULL },
	{ "link-in/x", NULL },
	{ "./sub/../f", NULL },
	{ "f/x", NULL },			/* not a directory: the run says so, nothing leaves */
	{ "../out/x", "is outside the served directory" },
	{ "../srv2", "is outside the served directory" },
	{ "/etc/hostname", "is outside the served directory" },
	{ "link-out/x", "leads (by a symbolic link) outside" },
	{ "link-out", "leads (by a symbolic link) outside" },
	{ "dangling", "leads (by a symbolic link) outside" },
	{ "null", "is a device" },
	{ "/dev/null", "is a device: a server lends only its --device (none given)" },
	{ "/dev/zero", "is a device" },
};

START_TEST(test_paths)
{
	struct confine c;
	struct iops_err err = { 0 };
	char root[PATH_MAX + 8];
	int ret;

	tree();
	snprintf(root, sizeof(root), "%s/srv", tmp);
	ck_assert_int_eq(confine_init(&c, root, NULL, &err), 0);
	ret = confine_path(&c, "filename", paths[_i].path, &err);
	untree();
	if (!paths[_i].msg) {
		ck_assert_msg(ret == 0, "%s: %s", paths[_i].path, err.msg);
	} else {
		ck_assert_int_eq(ret, -EPERM);
		ck_assert_msg(strstr(err.msg, paths[_i].msg), "%s: %s", paths[_i].path, err.msg);
		ck_assert_msg(!strncmp(err.msg, "filename '", 10), "%s", err.msg);
	}
}
END_TEST

START_TEST(test_init)
{
	struct confine c;
	struct iops_err err = { 0 };

	ck_assert_int_eq(confine_init(&c, "/nonexistent/dir", NULL, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot serve directory '/nonexistent/dir'"));
	ck_assert_int_eq(confine_init(&c, "/etc/hostname", NULL, &err), -ENOTDIR);
	ck_assert_int_eq(confine_init(&c, "/tmp", "/dev/null", &err), -ENOTBLK);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a block device"));
	ck_assert_int_eq(confine_init(&c, "/tmp", "/tmp/iops-check-confine-no/such-device", &err), -ENOENT);
	ck_assert_int_eq(confine_init(&c, "/tmp", "", &err), 0);	/* empty: none */
	ck_assert_str_eq(c.device, "");
	ck_assert_int_eq(confine_init(&c, "/", NULL, &err), 0);
	ck_assert_int_eq(confine_path(&c, "filename", "/etc/x", &err), 0);
}
END_TEST

Suite *confine_suite(void)
{
	Suite *s = suite_create("confine");
	TCase *tc = tcase_create("confine");

	tcase_add_loop_test(tc, test_fold, 0, sizeof(folds) / sizeof(folds[0]));
	tcase_add_test(tc, test_fold_long);
	tcase_add_loop_test(tc, test_paths, 0, sizeof(paths) / sizeof(paths[0]));
	tcase_add_test(tc, test_init);
	suite_add_tcase(s, tc);
	return s;
}

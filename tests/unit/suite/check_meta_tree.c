/* SPDX-License-Identifier: MIT */
/* meta_tree: the plan's shape, a run that leaves nothing, stops, refusals, and the removal of
 * a tree an earlier run left (only with the marker, only iops' names). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/meta_tree.h"

static char tmpdir[64];

static void setup_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iops-meta-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static unsigned entries_in(const char *dir)
{
	char cmd[160];
	unsigned n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "find '%s' -mindepth 1 | wc -l", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%u", &n), 1);
	pclose(p);
	return n;
}

static const struct {
	unsigned capacity_mb, files, dirs;
} shapes[] = {
	{ 500, 20000, 1500 }, { 100000, 20000, 1500 }, { 64, 2560, 192 }, { 1, 200, 15 }, { 0, 200, 15 },
};

START_TEST(test_plan_shape)
{
	struct meta_plan p, q;
	uint64_t sum = 0;

	ck_assert_int_eq(meta_plan_init(&p, shapes[_i].capacity_mb, 7), 0);
	ck_assert_uint_eq(p.nr_files, shapes[_i].files);
	ck_assert_uint_eq(p.nr_dirs, shapes[_i].dirs);
	for (unsigned d = 1; d <= p.nr_dirs; d++)
		if (p.parent[d] >= d)
			ck_abort_msg("dir %u has parent %u", d, p.parent[d]);
	for (unsigned f = 0; f < p.nr_files; f++) {
		if (p.size[f] >= (64u << 10) || p.file_dir[f] > p.nr_dirs)
			ck_abort_msg("file %u: size %u dir %u", f, p.size[f], p.file_dir[f]);
		sum += p.size[f];
	}
	ck_assert_uint_eq(sum, p.bytes);
	/* mostly small: the mean is a few KiB */
	ck_assert_uint_lt(p.bytes / p.nr_files, 8192);
	ck_assert_uint_gt(p.bytes / p.nr_files, 1024);
	/* the same seed, the same tree */
	ck_assert_int_eq(meta_plan_init(&q, shapes[_i].capacity_mb, 7), 0);
	ck_assert_mem_eq(p.size, q.size, p.nr_files * sizeof(*p.size));
	ck_assert_mem_eq(p.parent, q.parent, (p.nr_dirs + 1) * sizeof(*p.parent));
	meta_plan_release(&q);
	meta_plan_release(&p);
}
END_TEST

START_TEST(test_run_leaves_nothing)
{
	struct meta_plan p;
	struct meta_result r;
	struct iops_err err = { 0 };
	char root[128];

	ck_assert_int_eq(meta_plan_init(&p, 1, 3), 0);
	snprintf(root, sizeof(root), "%s/tree", tmpdir);
	ck_assert_int_eq(meta_tree_run(&p, root, NULL, &r, &err), 0);
	ck_assert_uint_eq(r.files_done, 200);
	ck_assert(!r.stopped);
	ck_assert(r.create_s > 0 && r.remove_s > 0);
	ck_assert_uint_eq(entries_in(tmpdir), 0);
	meta_plan_release(&p);
}
END_TEST

START_TEST(test_run_refuses_existing_root)
{
	struct meta_plan p;
	struct meta_result r;
	struct iops_err err = { 0 };
	char root[128], keep[160];
	int fd;

	ck_assert_int_eq(meta_plan_init(&p, 1, 3), 0);
	snprintf(root, sizeof(root), "%s/tree", tmpdir);
	ck_assert_int_eq(mkdir(root, 0755), 0);
	snprintf(keep, sizeof(keep), "%s/mine", root);
	fd = open(keep, O_CREAT | O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(meta_tree_run(&p, root, NULL, &r, &err), -EEXIST);
	ck_assert_str_eq(err.msg + strlen(err.msg) - strlen(": File exists"), ": File exists");
	ck_assert_int_eq(access(keep, F_OK), 0);	/* untouched */
	ck_assert_uint_eq(entries_in(tmpdir), 2);
	meta_plan_release(&p);
}
END_TEST

START_TEST(test_run_stopped)
{
	struct meta_plan p;
	struct meta_result r;
	struct iops_err err = { 0 };
	struct ctl ctl;
	char root[128];

	ck_assert_int_eq(ctl_init(&ctl), 0);
	ctl_stop(&ctl, SIGTERM);
	ck_assert_int_eq(meta_plan_init(&p, 1, 3), 0);
	snprintf(root, sizeof(root), "%s/tree", tmpdir);
	ck_assert_int_eq(meta_tree_run(&p, root, &ctl, &r, &err), 0);
	ck_assert(r.stopped);
	ck_assert_uint_eq(r.files_done, 0);
	ck_assert_uint_eq(entries_in(tmpdir), 0);
	meta_plan_release(&p);
	ctl_release(&ctl);
}
END_TEST

static void touch(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_remove_left)
{
	struct iops_err err = { 0 };
	char root[128], sub[160];

	snprintf(root, sizeof(root), "%s/iops-suite.1.1", tmpdir);
	snprintf(sub, sizeof(sub), "%s/d1", root);
	/* no marker: not ours */
	ck_assert_int_eq(mkdir(root, 0755), 0);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	touch(sub, "f1", "x");
	ck_assert_int_eq(meta_tree_remove_left(root, &err), -ENOENT);
	ck_assert_uint_eq(entries_in(tmpdir), 3);
	/* a marker and a file iops does not name so: left as it is */
	touch(root, META_MARKER, "iops meta tree 1\n");
	touch(sub, "notes.txt", "mine");
	ck_assert_int_eq(meta_tree_remove_left(root, &err), -EPERM);
	ck_assert_str_eq(err.msg + strlen(root), " holds files iops did not create: left as it is");
	ck_assert_uint_eq(entries_in(tmpdir), 5);
	/* only iops' names: removed, files counted */
	snprintf(sub, sizeof(sub), "%s/d1/notes.txt", root);
	ck_assert_int_eq(unlink(sub), 0);
	touch(root, "f7", "");
	ck_assert_int_eq(meta_tree_remove_left(root, &err), 2);
	ck_assert_uint_eq(entries_in(tmpdir), 0);
	/* gone, or never there */
	ck_assert_int_eq(meta_tree_remove_left(root, &err), -ENOENT);
}
END_TEST

Suite *meta_tree_suite(void)
{
	Suite *s = suite_create("meta_tree");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_plan_shape, 0, sizeof(shapes) / sizeof(shapes[0]));
	tcase_add_test(tc, test_run_leaves_nothing);
	tcase_add_test(tc, test_run_refuses_existing_root);
	tcase_add_test(tc, test_run_stopped);
	tcase_add_test(tc, test_remove_left);
	suite_add_tcase(s, tc);
	return s;
}

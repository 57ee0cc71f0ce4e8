/* SPDX-License-Identifier: MIT */
/* diskstats: path -> /sys/block disk resolution and deltas, against a fake sysfs tree built
 * around the real device number of a scratch directory. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/diskstats.h"
#include "unit_skip.h"

struct fake {
	char root[64];		/* scratch: data/ and sys/ */
	char sys[128];
	char data[128];
	char disk_dir[256];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* sys/devices/virtual/block/fk0[/fk0p1] with dev/block/<maj:min> pointing at it */
static void fake_init(struct fake *f, bool partition)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct stat st;

	snprintf(f->root, sizeof(f->root), "/tmp/iops_ds_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->root));
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	snprintf(f->data, sizeof(f->data), "%s/data", f->root);
	mkdirs(f->data);
	ck_assert_int_eq(stat(f->data, &st), 0);
	snprintf(f->disk_dir, sizeof(f->disk_dir), "%s/devices/virtual/block/fk0", f->sys);
	mkdirs(f->disk_dir);
	snprintf(path, sizeof(path), "%s/dev/block", f->sys);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", f->sys, major(st.st_dev),
		 minor(st.st_dev));
	if (partition) {
		snprintf(target, sizeof(target), "%s/fk0p1", f->disk_dir);
		mkdirs(target);
		snprintf(target + strlen(target), sizeof(target) - strlen(target), "/partition");
		write_file(target, "1\n");
		snprintf(target, sizeof(target), "%s/fk0p1", f->disk_dir);
	} else {
		snprintf(target, sizeof(target), "%s", f->disk_dir);
	}
	ck_assert_int_eq(symlink(target, path), 0);
	snprintf(path, sizeof(path), "%s/block", f->sys);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/block/fk0", f->sys);
	ck_assert_int_eq(symlink(f->disk_dir, path), 0);
	snprintf(path, sizeof(path), "%s/stat", f->disk_dir);
	write_file(path, "  100 2 800 30 50 4 400 20 0 40 70 0 0 0 0 0 0\n");
}

static void fake_set_stat(struct fake *f, const char *line)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/stat", f->disk_dir);
	write_file(path, line);
}

static void fake_release(struct fake *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_parse)
{
	uint64_t v[11];

	ck_assert_int_eq(diskstats_parse("  249366    42060  9980506   169446   170590    20854  "
					 "4495536    87000        0    47000   266556    10136      "
					 "108  2435768     4119    12971     5990\n", v, 11), 0);
	ck_assert_uint_eq(v[0], 249366);
	ck_assert_uint_eq(v[7], 87000);
	ck_assert_uint_eq(v[10], 266556);
	ck_assert_int_eq(diskstats_parse("1 2 3 4 5 6 7 8 9 10 11", v, 11), 0);
	ck_assert_int_eq(diskstats_parse("1 2 3", v, 11), -EINVAL);	/* short */
	ck_assert_int_eq(diskstats_parse("", v, 11), -EINVAL);
	ck_assert_int_eq(diskstats_parse("1 2 x 4 5 6 7 8 9 10 11", v, 11), -EINVAL);
	ck_assert_int_eq(diskstats_parse("-1 2 3 4 5 6 7 8 9 10 11", v, 11), -EINVAL);
	ck_assert_int_eq(diskstats_parse("99999999999999999999999 2 3 4 5 6 7 8 9 10 11", v, 11),
			 -EINVAL);	/* overflow */
}
END_TEST

START_TEST(test_file_new_file_and_dedupe)
{
	struct fake f;
	struct diskstats *ds = calloc(1, sizeof(*ds));
	struct disk_result out[4];
	unsigned nr = 99;
	char file[256], missing[256];
	const char *paths[3];

	fake_init(&f, false);
	snprintf(file, sizeof(file), "%s/a.dat", f.data);
	write_file(file, "x");
	snprintf(missing, sizeof(missing), "%s/not-yet.dat", f.data);
	paths[0] = file;
	paths[1] = missing;	/* does not exist: its directory decides */
	paths[2] = "/nonexistent-dir/x";	/* nothing: skipped */
	ck_assert_int_eq(diskstats_begin_root(ds, f.sys, paths, 3), 1);
	ck_assert_str_eq(ds->disk[0].name, "fk0");
	fake_set_stat(&f, "160 5 900 45 150 6 500 80 1 240 170 0 0 0 0 0 0\n");
	diskstats_end(ds, out, 4, &nr);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(out[0].name, "fk0");
	ck_assert_uint_eq(out[0].read_ios, 60);
	ck_assert_uint_eq(out[0].write_ios, 100);
	ck_assert_uint_eq(out[0].read_merges, 3);
	ck_assert_uint_eq(out[0].write_merges, 2);
	ck_assert_uint_eq(out[0].read_ticks, 15);
	ck_assert_uint_eq(out[0].write_ticks, 60);
	ck_assert_uint_eq(out[0].in_queue, 100);
	ck_assert_uint_eq(out[0].io_ticks, 200);
	ck_assert(out[0].util >= 0.0 && out[0].util <= 100.0);	/* 200 ms busy in ~0 ms: capped */
	fake_release(&f);
	free(ds);
}
END_TEST

START_TEST(test_partition_maps_to_disk)
{
	struct fake f;
	struct diskstats *ds = calloc(1, sizeof(*ds));
	const char *paths[1];

	fake_init(&f, true);
	paths[0] = f.data;
	ck_assert_int_eq(diskstats_begin_root(ds, f.sys, paths, 1), 1);
	ck_assert_str_eq(ds->disk[0].name, "fk0");
	fake_release(&f);
	free(ds);
}
END_TEST

START_TEST(test_no_sysfs_match)
{
	struct diskstats *ds = calloc(1, sizeof(*ds));
	struct disk_result out[1];
	unsigned nr = 5;
	const char *paths[1] = { "/tmp" };

	ck_assert_int_eq(diskstats_begin_root(ds, "/nonexistent-sysfs", paths, 1), 0);
	diskstats_end(ds, out, 1, &nr);
	ck_assert_uint_eq(nr, 0);
	ck_assert_int_eq(diskstats_begin_root(ds, "/nonexistent-sysfs", NULL, 0), 0);
	free(ds);
}
END_TEST

START_TEST(test_real_sysfs_smoke)
{
	/* where the kernel shows /tmp's device in /sys/dev/block (asked here: a disk or partition),
	 * /tmp resolves to one disk; elsewhere (tmpfs, overlayfs: no block device) to none */
	struct diskstats *ds = calloc(1, sizeof(*ds));
	struct disk_result out[DISKSTATS_MAX];
	unsigned nr;
	const char *paths[2] = { "/tmp", "/tmp/iops-does-not-exist" };
	char link[64];
	struct stat st;
	int n = diskstats_begin(ds, paths, 2), want;

	ck_assert_int_eq(stat("/tmp", &st), 0);
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	want = access(link, F_OK) == 0;
	if (!want)
		unit_skip("diskstats: /tmp is on no block device here (%u:%u): no disk to resolve", major(st.st_dev),
			  minor(st.st_dev));
	ck_assert_int_eq(n, want);	/* same directory: deduplicated */
	diskstats_end(ds, out, DISKSTATS_MAX, &nr);
	ck_assert_uint_le(nr, (unsigned)n);
	free(ds);
}
END_TEST

Suite *diskstats_suite(void)
{
	Suite *s = suite_create("diskstats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_file_new_file_and_dedupe);
	tcase_add_test(tc, test_partition_maps_to_disk);
	tcase_add_test(tc, test_no_sysfs_match);
	tcase_add_test(tc, test_real_sysfs_smoke);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/mountinfo.h"

static const char sample[] =
	"22 27 0:21 / /proc rw,relatime shared:12 - proc proc rw\n"
	"garbage line\n"
	"23 27 0:22 / /sys rw,relatime - sysfs sysfs rw\n"
	"27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,errors=remount-ro\n"
	"40 27 254:0 /var/lib/x /mnt/bind rw - ext4 /dev/vdb rw\n"
	"41 27 0:50 / /mnt/with\\040space rw master:3 shared:9 - fuse.sshfs host:/a\\040b rw\n"
	"42 27 8:1 / /mnt/short rw - xfs\n"
	"43 27 0:51 / /mnt/no-sep rw xfs /dev/sdz rw\n";

static int find(unsigned int ma, unsigned int mi, struct mountinfo_entry *e)
{
	FILE *f = fmemopen((void *)sample, sizeof(sample) - 1, "r");
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = mountinfo_find(f, ma, mi, e);
	fclose(f);
	return ret;
}

START_TEST(test_mountinfo_first_match)
{
	struct mountinfo_entry e;

	ck_assert_int_eq(find(254, 0, &e), 0);
	ck_assert_str_eq(e.fstype, "ext4");
	ck_assert_str_eq(e.source, "/dev/vda");	/* the first line wins, not the bind mount */
	ck_assert_int_eq(find(0, 22, &e), 0);
	ck_assert_str_eq(e.fstype, "sysfs");
	ck_assert_str_eq(e.source, "sysfs");
}
END_TEST

START_TEST(test_mountinfo_optional_fields_and_escapes)
{
	struct mountinfo_entry e;

	ck_assert_int_eq(find(0, 50, &e), 0);
	ck_assert_str_eq(e.fstype, "fuse.sshfs");
	ck_assert_str_eq(e.source, "host:/a\\040b");	/* raw, like ioping */
	ck_assert_int_eq(find(8, 1, &e), 0);		/* no source field */
	ck_assert_str_eq(e.fstype, "xfs");
	ck_assert_str_eq(e.source, "");
}
END_TEST

START_TEST(test_mountinfo_no_match)
{
	struct mountinfo_entry e;

	ck_assert_int_eq(find(9, 9, &e), -ENOENT);
	ck_assert_int_eq(find(0, 51, &e), -ENOENT);	/* no " - " separator */
	ck_assert_int_eq(find(0, 2, &e), -ENOENT);	/* 0:2 is not a prefix match of 0:21/0:22 */
}
END_TEST

START_TEST(test_mountinfo_empty_and_long)
{
	static char big[16384];
	struct mountinfo_entry e;
	FILE *f = fmemopen((void *)"", 0, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(mountinfo_find(f, 1, 1, &e), -ENOENT);
	fclose(f);
	/* an over-long source is truncated, not overflowed */
	n = (size_t)snprintf(big, sizeof(big), "1 1 7:7 / / rw - ext4 /");
	memset(big + n, 'a', 9000);
	memcpy(big + n + 9000, " rw\n", 5);
	f = fmemopen(big, strlen(big), "r");
	ck_assert_int_eq(mountinfo_find(f, 7, 7, &e), 0);
	fclose(f);
	ck_assert_uint_eq(strlen(e.source), MOUNTINFO_SOURCE_LEN - 1);
}
END_TEST

START_TEST(test_mounts_fallback)
{
	static const char mounts[] = "proc /proc proc rw 0 0\n/dev/null /x nullfs rw 0 0\n";
	struct mountinfo_entry e;
	struct stat st;
	FILE *f;

	ck_assert_int_eq(stat("/dev/null", &st), 0);
	f = fmemopen((void *)mounts, sizeof(mounts) - 1, "r");
	ck_assert_int_eq(mountinfo_find_mounts(f, st.st_rdev, &e), 0);
	fclose(f);
	ck_assert_str_eq(e.fstype, "nullfs");
	ck_assert_str_eq(e.source, "/dev/null");
}
END_TEST

START_TEST(test_mountinfo_lookup_root)
{
	struct mountinfo_entry e;
	struct stat st;

	ck_assert_int_eq(stat("/proc/self", &st), 0);
	ck_assert_int_eq(mountinfo_lookup(st.st_dev, &e), 0);
	ck_assert_str_eq(e.fstype, "proc");
}
END_TEST

START_TEST(test_mountinfo_fs_bytes)
{
	uint64_t bytes = 0;
	int fd = open("/proc/self/status", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(mountinfo_fs_bytes(fd, &bytes), 0);	/* procfs: 0 blocks */
	ck_assert_uint_eq(bytes, 0);
	close(fd);
	fd = open("/", O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(mountinfo_fs_bytes(fd, &bytes), 0);
	ck_assert_uint_gt(bytes, 0);
	close(fd);
	ck_assert_int_eq(mountinfo_fs_bytes(-1, &bytes), -EBADF);
}
END_TEST

Suite *mountinfo_suite(void)
{
	Suite *s = suite_create("mountinfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mountinfo_first_match);
	tcase_add_test(tc, test_mountinfo_optional_fields_and_escapes);
	tcase_add_test(tc, test_mountinfo_no_match);
	tcase_add_test(tc, test_mountinfo_empty_and_long);
	tcase_add_test(tc, test_mounts_fallback);
	tcase_add_test(tc, test_mountinfo_lookup_root);
	tcase_add_test(tc, test_mountinfo_fs_bytes);
	suite_add_tcase(s, tc);
	return s;
}

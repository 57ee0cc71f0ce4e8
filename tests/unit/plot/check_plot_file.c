/* SPDX-License-Identifier: MIT */
/* plot_file: the page's file. Names and directories checked; a file that is not an iops plot
 * page never overwritten (nor a symbolic link followed); our own page replaced; nothing but
 * the page left in the directory, also when the writing fails. */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot/plot_file.h"
#include "plot_fixture.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_plot_file.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The names in dir, space-separated, sorted by readdir's whim: only for counts and presence. */
static unsigned entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	path_of(path, sizeof(path), name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int docs(const char *name, const char *fixture)
{
	struct iops_err err = { 0 };
	char path[512];
	size_t len;
	char *text = plot_fixture(fixture, &len);
	const char *d = text, *n = fixture;
	int rc;

	path_of(path, sizeof(path), name);
	rc = plot_file_docs(path, NULL, &n, &d, &len, 1, &err);
	free(text);
	return rc;
}

static const struct {
	const char *name;
	bool svg;
	int rc;
	const char *why;
} checks[] = {
	{ "a.html", false, 0, NULL }, { "a.htm", false, 0, NULL }, { "a.svg", true, 0, NULL },
	{ "a.svg", false, -1, "must end in .html" }, { "a.txt", true, -1, "must end in .html (or .svg" },
	{ ".html", false, -1, "must end in .html" }, { "sub/a.html", false, -1, "its directory" },
	{ "", false, -1, "must end" },
};

START_TEST(test_check)
{
	struct iops_err err = { 0 };
	enum plot_file_fmt fmt;
	char path[512];

	path_of(path, sizeof(path), checks[_i].name);
	ck_assert_int_eq(plot_file_check(path, checks[_i].svg, &fmt, &err), checks[_i].rc);
	if (checks[_i].why)
		ck_assert_msg(strstr(err.msg, checks[_i].why), "%s", err.msg);
	else
		ck_assert(fmt == (strstr(checks[_i].name, ".svg") ? PLOT_FILE_SVG : PLOT_FILE_HTML));
	ck_assert_uint_eq(entries(), 0);
}
END_TEST

START_TEST(test_check_edges)
{
	struct iops_err err = { 0 };
	enum plot_file_fmt fmt;
	char *longname = malloc(5000);

	ck_assert_int_eq(plot_file_check(NULL, true, &fmt, &err), -1);
	ck_assert_int_eq(plot_file_check("", true, &fmt, &err), -1);
	memset(longname, 'a', 4990);
	memcpy(longname + 4990, ".html", 6);
	ck_assert_int_eq(plot_file_check(longname, true, &fmt, &err), -1);
	ck_assert(strstr(err.msg, "name too long"));
	free(longname);
	ck_assert_int_eq(plot_file_check("/etc/passwd/a.html", true, &fmt, &err), -1);
	ck_assert(strstr(err.msg, "not one we can write to"));
}
END_TEST

START_TEST(test_write_replace)
{
	char path[512], head[64];
	FILE *f;

	ck_assert_int_eq(docs("p.html", "fio_plus.json"), 0);
	ck_assert_uint_eq(entries(), 1);
	path_of(path, sizeof(path), "p.html");
	f = fopen(path, "r");
	ck_assert(fgets(head, sizeof(head), f) && !strcmp(head, "<!DOCTYPE html>\n"));
	ck_assert(fgets(head, sizeof(head), f) && !strncmp(head, "<!-- generator: iops plot ", 26));
	fclose(f);
	ck_assert_int_eq(docs("p.html", "sweep.json"), 0);	/* our own page: replaced */
	ck_assert_uint_eq(entries(), 1);
}
END_TEST

START_TEST(test_not_ours)
{
	struct iops_err err = { 0 };
	enum plot_file_fmt fmt;
	char path[512], back[32] = "";
	FILE *f;

	put("mine.html", "<html>my notes</html>\n");
	ck_assert_int_eq(docs("mine.html", "fio_plus.json"), -1);
	path_of(path, sizeof(path), "mine.html");
	ck_assert_int_eq(plot_file_check(path, false, &fmt, &err), -1);
	ck_assert(strstr(err.msg, "exists and is not a page iops plot wrote: not overwriting it"));
	f = fopen(path, "r");
	ck_assert(fgets(back, sizeof(back), f) && !strcmp(back, "<html>my notes</html>\n"));
	fclose(f);
	ck_assert_uint_eq(entries(), 1);
}
END_TEST

/* A symbolic link is never followed, not even to our own page. */
START_TEST(test_symlink)
{
	char link[512], target[512];

	ck_assert_int_eq(docs("ours.html", "fio_plus.json"), 0);
	path_of(target, sizeof(target), "ours.html");
	path_of(link, sizeof(link), "link.html");
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(docs("link.html", "fio_plus.json"), -1);
	ck_assert_uint_eq(entries(), 2);
}
END_TEST

/* Failures leave nothing: an SVG of several charts, an input that is no result. */
START_TEST(test_failures_leave_nothing)
{
	ck_assert_int_eq(docs("x.svg", "fio_plus.json"), -1);	/* 4 charts */
	ck_assert_int_eq(docs("x.html", "README.md"), -1);	/* no result */
	ck_assert_uint_eq(entries(), 0);
	ck_assert_int_eq(docs("one.svg", "fw_bw.1.log"), 0);	/* one chart */
	ck_assert_uint_eq(entries(), 1);
	ck_assert_int_eq(docs("one.svg", "fw_iops.1.log"), 0);	/* our own SVG: replaced */
	ck_assert_uint_eq(entries(), 1);
}
END_TEST

Suite *plot_file_suite(void)
{
	Suite *s = suite_create("plot_file");
	TCase *t = tcase_create("core");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_loop_test(t, test_check, 0, sizeof(checks) / sizeof(checks[0]));
	tcase_add_test(t, test_check_edges);
	tcase_add_test(t, test_write_replace);
	tcase_add_test(t, test_not_ours);
	tcase_add_test(t, test_symlink);
	tcase_add_test(t, test_failures_leave_nothing);
	suite_add_tcase(s, t);
	return s;
}

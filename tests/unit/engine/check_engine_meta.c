/* SPDX-License-Identifier: MIT */
/* Unit tests of the metadata engines (lib/engine/engine_meta.c): one operation per file on its
 * first request (a clat sample), the file's other requests counted without latency, errors
 * as -errno; in a temporary directory removed at the end. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"

#define META_FILES	3

struct meta_dir {
	char dir[256];
	char names[META_FILES][300];
	char *paths[META_FILES];
};

static void meta_dir_make(struct meta_dir *m)
{
	const char *t = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(m->dir, sizeof(m->dir), "%s/iops-check-meta-XXXXXX", t);
	ck_assert_ptr_nonnull(mkdtemp(m->dir));
	for (unsigned f = 0; f < META_FILES; f++) {
		snprintf(m->names[f], sizeof(m->names[f]), "%s/f.%u", m->dir, f);
		m->paths[f] = m->names[f];
	}
}

static void meta_dir_remove(struct meta_dir *m)
{
	for (unsigned f = 0; f < META_FILES; f++) {
		unlink(m->names[f]);
		rmdir(m->names[f]);
	}
	ck_assert_int_eq(rmdir(m->dir), 0);
}

static int64_t meta_io(struct rig *rig, unsigned f, const char *path, uint8_t *mode)
{
	struct io_req *req = &rig->reqs[0];

	set_req(req, IO_READ, -1, NULL, 4096, 0);
	req->file_idx = f;
	req->path = path;
	req->lat_mode = 99;
	ck_assert_int_eq(rig->ops->queue(rig->ctx, req), ENGINE_DONE);
	*mode = req->lat_mode;
	return req->result;
}

static void meta_init(struct rig *rig, const char *name, struct meta_dir *m, struct engine_opts *eo)
{
	struct engine_cfg cfg = { .depth = 1, .opts = eo, .nr_files = META_FILES, .paths = m->paths,
				  .job_name = "t" };

	rig_init_cfg(rig, name, cfg);
}

static bool exists(const char *p, bool dir)
{
	struct stat st;

	return stat(p, &st) == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

START_TEST(test_filecreate_stat_delete)
{
	struct engine_opts eo = { 0 };
	struct meta_dir m;
	struct rig rig;
	uint8_t mode;
	int fd;

	meta_dir_make(&m);
	/* filecreate: creates f.0 and f.1 once each, no data; an existing file keeps its data */
	fd = open(m.names[2], O_CREAT | O_WRONLY, 0600);
	ck_assert_int_eq(write(fd, "keep", 4), 4);
	close(fd);
	meta_init(&rig, "filecreate", &m, &eo);
	for (unsigned f = 0; f < META_FILES; f++) {
		ck_assert_int_eq(meta_io(&rig, f, m.paths[f], &mode), 4096);
		ck_assert_uint_eq(mode, IO_LAT_CLAT);
		ck_assert(exists(m.names[f], false));
		ck_assert_int_eq(meta_io(&rig, f, m.paths[f], &mode), 4096);	/* second: fake */
		ck_assert_uint_eq(mode, IO_LAT_NONE);
	}
	rig_release(&rig);
	{
		struct stat st;

		ck_assert_int_eq(stat(m.names[2], &st), 0);
		ck_assert_int_eq(st.st_size, 4);
		ck_assert_int_eq(stat(m.names[0], &st), 0);
		ck_assert_int_eq(st.st_size, 0);
	}
	/* filestat with each stat_type; a missing file fails with ENOENT */
	for (int t = ENGINE_STAT_STAT; t <= ENGINE_STAT_STATX; t++) {
		eo.stat_type = (enum engine_stat_type)t;
		meta_init(&rig, "filestat", &m, &eo);
		ck_assert_int_eq(meta_io(&rig, 0, m.paths[0], &mode), 4096);
		ck_assert_uint_eq(mode, IO_LAT_CLAT);
		ck_assert_int_eq(meta_io(&rig, 1, "/nonexistent/iops/x", &mode), -ENOENT);
		ck_assert_int_eq(meta_io(&rig, 2, NULL, &mode), -EINVAL);	/* no path */
		rig_release(&rig);
	}
	/* filedelete removes each once */
	meta_init(&rig, "filedelete", &m, &eo);
	for (unsigned f = 0; f < META_FILES; f++) {
		ck_assert_int_eq(meta_io(&rig, f, m.paths[f], &mode), 4096);
		ck_assert(!exists(m.names[f], false));
	}
	rig_release(&rig);
	meta_init(&rig, "filedelete", &m, &eo);
	ck_assert_int_eq(meta_io(&rig, 0, m.paths[0], &mode), -ENOENT);
	/* syncs do nothing; file index out of range folds to 0 */
	set_req(&rig.reqs[0], IO_FSYNC, -1, NULL, 0, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
	ck_assert_int_eq(rig.reqs[0].result, 0);
	ck_assert_int_eq(meta_io(&rig, 1000, m.paths[0], &mode), 4096);
	ck_assert_uint_eq(mode, IO_LAT_NONE);
	rig_release(&rig);
	meta_dir_remove(&m);
}
END_TEST

START_TEST(test_dir_engines)
{
	struct engine_opts eo = { 0 };
	struct meta_dir m;
	struct rig rig;
	uint8_t mode;

	meta_dir_make(&m);
	meta_init(&rig, "dircreate", &m, &eo);
	ck_assert_int_eq(meta_io(&rig, 0, m.paths[0], &mode), 4096);
	ck_assert(exists(m.names[0], true));
	rig_release(&rig);
	meta_init(&rig, "dircreate", &m, &eo);
	ck_assert_int_eq(meta_io(&rig, 0, m.paths[0], &mode), -EEXIST);
	rig_release(&rig);
	/* dirstat and dirdelete make the missing directories at init */
	meta_init(&rig, "dirstat", &m, &eo);
	for (unsigned f = 0; f < META_FILES; f++)
		ck_assert(exists(m.names[f], true));
	ck_assert_int_eq(meta_io(&rig, 1, m.paths[1], &mode), 4096);
	ck_assert_uint_eq(mode, IO_LAT_CLAT);
	rig_release(&rig);
	meta_init(&rig, "dirdelete", &m, &eo);
	for (unsigned f = 0; f < META_FILES; f++) {
		ck_assert_int_eq(meta_io(&rig, f, m.paths[f], &mode), 4096);
		ck_assert(!exists(m.names[f], true));
	}
	rig_release(&rig);
	meta_dir_remove(&m);
}
END_TEST

/* A directory that cannot be made fails init with one line. */
START_TEST(test_dirstat_init_fails)
{
	char *paths[1] = { "/nonexistent/iops/dir" };
	struct engine_cfg cfg = { .depth = 1, .nr_files = 1, .paths = paths, .job_name = "j" };
	struct iops_err err = { 0 };
	void *ctx = NULL;

	ck_assert_int_eq(engine_find("dirstat")->init(&cfg, &ctx, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "fio: j: mkdir /nonexistent/iops/dir"));
}
END_TEST

Suite *engine_meta_suite(void);

Suite *engine_meta_suite(void)
{
	Suite *s = suite_create("engine_meta");
	TCase *tc = tcase_create("meta");

	tcase_add_test(tc, test_filecreate_stat_delete);
	tcase_add_test(tc, test_dir_engines);
	tcase_add_test(tc, test_dirstat_init_fails);
	suite_add_tcase(s, tc);
	return s;
}

/* SPDX-License-Identifier: MIT */
/* meta_tree: the suite's offline metadata benchmark. A synthetic tree shaped like a source
 * tree (about 20,000 files of mixed small sizes in about 1,500 directories at the default
 * FIO_CAPACITY_MB=500, fewer below) is created, stat()ed and removed, each phase timed with a
 * syncfs() at its end so the file system's work is counted, not only the page cache's.
 *
 * Safety: the tree's root is a new directory (mkdir fails on an existing name) holding a
 * marker file, META_MARKER; every name inside is iops' own (dN, fN); whatever the run created
 * is removed on error and on a stop. meta_tree_remove_left() removes a tree an earlier run
 * left (killed before it could clean up), only if it has the marker and only iops' names. */
#ifndef IOPS_META_TREE_H
#define IOPS_META_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ctl.h"
#include "core/err.h"

#define META_MARKER	".iops-layout"	/* in the root: "iops meta tree <pid>\n" */

struct meta_plan {
	unsigned nr_files, nr_dirs;
	uint64_t bytes;		/* sum of the file sizes */
	uint32_t *size;		/* per file */
	uint32_t *file_dir;	/* per file: its directory (0 = the root) */
	uint32_t *parent;	/* per directory 1..nr_dirs: its parent (< itself); [0] unused */
};

struct meta_result {
	double create_s, stat_s, remove_s;
	unsigned files_done;	/* created (all of them unless stopped) */
	bool stopped;
};

/* The tree for capacity_mb (FIO_CAPACITY_MB), drawn from seed. 0 or -ENOMEM. */
int meta_plan_init(struct meta_plan *p, unsigned capacity_mb, uint64_t seed);
void meta_plan_release(struct meta_plan *p);

/* Create, stat and remove the plan's tree as root (a path that must not exist). The tree is
 * gone when this returns, whatever happened. 0 (also when stopped: r->stopped), or -errno
 * with err set. */
int meta_tree_run(const struct meta_plan *p, const char *root, struct ctl *ctl, struct meta_result *r,
		  struct iops_err *err);

/* An earlier run's tree at path: removed if it carries the marker and holds only iops' names
 * (returns the number of files removed), -ENOENT when it is not one of ours (nothing touched),
 * or -errno with err set. */
int meta_tree_remove_left(const char *path, struct iops_err *err);

#endif

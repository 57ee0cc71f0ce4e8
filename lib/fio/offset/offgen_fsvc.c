/* SPDX-License-Identifier: MIT */
/* offgen_fsvc: the job's choice of file, fio 3.33's file service (fio/offset/offgen_fsvc.h). */
#include "fio/offset/offgen_fsvc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/offgen.h"

bool offgen_fsvc_wanted(const struct job *job, unsigned nr_files)
{
	return job->file_service != FSVC_RR || job->file_service_nr > 1 ||
	       (job->open_files && job->open_files < nr_files) || job->write_iolog;
}

static void fsvc_event(struct offgen_fsvc *fs, unsigned i, bool open)
{
	if (fs->nr_ev < 4 * fs->nr_files + 4) {	/* a caller that never reads them loses the oldest news */
		fs->ev[fs->nr_ev].file = i;
		fs->ev[fs->nr_ev].open = open;
		fs->nr_ev++;
	}
}

static void fsvc_seed(struct offgen_fsvc *fs)
{
	static const enum dist_kind kinds[] = { [FSVC_ZIPF] = DIST_ZIPF, [FSVC_PARETO] = DIST_PARETO,
						[FSVC_NORMAL] = DIST_NORMAL };

	if (fs->type == FSVC_RANDOM) {
		frand_init(&fs->r, fs->seed, fs->use64);
	} else if (fs->type >= FSVC_ZIPF) {
		fdist_init(&fs->z, kinds[fs->type], (uint64_t)fs->nr_files << OFFGEN_FSVC_SHIFT, fs->param,
			   fs->center, (uint32_t)fs->seed);
		fs->z.hashed = false;	/* fio: file numbers are not scattered */
	}
}

int offgen_fsvc_init(struct offgen *og, const struct job *job, uint64_t file_seed)
{
	struct offgen_fsvc *fs = calloc(1, sizeof(*fs));
	unsigned n = og->nr_files;

	if (!fs)
		return -ENOMEM;
	fs->open = calloc(n, sizeof(*fs->open));
	fs->used = calloc(n, sizeof(*fs->used));
	fs->ev = calloc(4 * (size_t)n + 4, sizeof(*fs->ev));
	if (!fs->open || !fs->used || !fs->ev) {
		free(fs->open);
		free(fs->used);
		free(fs->ev);
		free(fs);
		return -ENOMEM;
	}
	fs->type = job->file_service;
	fs->per_turn = job->file_service_nr ? job->file_service_nr : 1;
	fs->max_open = job->open_files && job->open_files < n ? job->open_files : n;
	fs->nr_files = n;
	fs->cur = -1;
	fs->seed = file_seed;
	fs->use64 = job->random_generator == RANDGEN_TAUSWORTHE64;
	fs->param = job->fsvc_param;
	fs->center = job->fsvc_center;
	fsvc_seed(fs);
	og->fsvc = fs;
	return 0;
}

void offgen_fsvc_free(struct offgen *og)
{
	struct offgen_fsvc *fs = og->fsvc;

	if (!fs)
		return;
	free(fs->open);
	free(fs->used);
	free(fs->ev);
	free(fs);
	og->fsvc = NULL;
}

static void fsvc_close(struct offgen_fsvc *fs, unsigned i)
{
	if (!fs->open[i])
		return;
	fs->open[i] = false;
	fs->nr_open--;
	fsvc_event(fs, i, false);
}

void offgen_fsvc_pass(struct offgen *og)
{
	struct offgen_fsvc *fs = og->fsvc;

	for (unsigned i = 0; i < fs->nr_files; i++) {
		fsvc_close(fs, i);
		fs->used[i] = false;
	}
	fs->cur = -1;
	fs->left = 0;
	fsvc_seed(fs);
}

/* File i for this attempt: open it unless openfiles are all taken (-1: busy). */
static int fsvc_take(struct offgen_fsvc *fs, unsigned i)
{
	if (!fs->open[i]) {
		if (fs->nr_open >= fs->max_open)
			return -1;
		fs->open[i] = true;
		fs->nr_open++;
		fsvc_event(fs, i, true);
	}
	return (int)i;
}

int offgen_fsvc_pick(struct offgen *og)
{
	struct offgen_fsvc *fs = og->fsvc;
	int got = -1;

	if (fs->cur >= 0 && fs->open[fs->cur]) {
		if (fs->type == FSVC_SEQ)
			return fs->cur;
		if (fs->left) {
			fs->left--;
			return fs->cur;
		}
	}
	if (fs->type == FSVC_RR || fs->type == FSVC_SEQ) {
		unsigned start = fs->next;

		do {
			unsigned i = fs->next;

			fs->next = i + 1 == fs->nr_files ? 0 : i + 1;
			if (og->files[i].done)
				continue;
			got = fsvc_take(fs, i);
			if (got < 0)
				return -1;
			break;
		} while (fs->next != start);
	} else {
		for (;;) {
			unsigned i;

			if (fs->type == FSVC_RANDOM)
				i = (unsigned)frand_scale(&fs->r, fs->nr_files);
			else
				i = (unsigned)(fdist_next(&fs->z) >> OFFGEN_FSVC_SHIFT);
			if (i >= fs->nr_files || og->files[i].done)
				continue;
			got = fsvc_take(fs, i);
			if (got < 0)
				return -1;
			break;
		}
	}
	if (got >= 0) {
		fs->cur = got;
		fs->left = fs->per_turn - 1;
	}
	return got;
}

void offgen_fsvc_used(struct offgen *og, unsigned i)
{
	og->fsvc->used[i] = true;
}

bool offgen_fsvc_spent(struct offgen *og, unsigned i)
{
	struct offgen_fsvc *fs = og->fsvc;

	fsvc_close(fs, i);
	if (fs->type >= FSVC_ZIPF && fs->used[i]) {
		fs->used[i] = false;	/* fio starts such a file over; one that gives nothing is done */
		offgen_reset_file(og, i);
		return false;
	}
	return true;
}

void offgen_fsvc_copy(struct offgen_fsvc *dst, const struct offgen_fsvc *src)
{
	bool *open = dst->open, *used = dst->used;
	struct offgen_fsvc_ev *ev = dst->ev;

	memcpy(open, src->open, src->nr_files * sizeof(*open));
	memcpy(used, src->used, src->nr_files * sizeof(*used));
	*dst = *src;
	dst->open = open;
	dst->used = used;
	dst->ev = ev;
	dst->nr_ev = 0;
}

bool offgen_fsvc_is_open(const struct offgen *og, unsigned i)
{
	return og->fsvc && i < og->fsvc->nr_files && og->fsvc->open[i];
}

unsigned offgen_fsvc_nr_ev(const struct offgen *og)
{
	return og->fsvc ? og->fsvc->nr_ev : 0;
}

/* SPDX-License-Identifier: MIT */
/* offgen_init: the offset generator's set-up and release (fio/offset/offgen.h), and the copy of
 * its whole state that experimental_verify replays from; off the I/O path. */
#include "fio/offset/offgen.h"
#include "fio/offset/fseed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/offgen_fsvc.h"

int offgen_init(struct offgen *og, const struct job *job, const uint64_t *io_start,
		const uint64_t *io_len, unsigned nr_files, uint64_t total_size, struct iops_err *err)
{
	struct offgen_file *files;
	uint64_t seeds[FSEED_NR];

	memset(og, 0, sizeof(*og));
	if (nr_files == 0 || nr_files > JOB_MAX_FILES) {
		iops_err_set(err, EINVAL, "fio: %s: invalid number of files %u", job->name, nr_files);
		return -EINVAL;
	}
	og->has_dir[DDIR_READ] = job->rw_has_read;
	og->has_dir[DDIR_WRITE] = job->rw_has_write;
	og->has_dir[DDIR_TRIM] = job->rw_has_trim;
	og->trimwrite = job->rw_has_trim && job->rw_has_write;
	og->only_dir = job->rw_has_read ? DDIR_READ : job->rw_has_write ? DDIR_WRITE : DDIR_TRIM;
	if (!job->rw_has_read && !job->rw_has_write && !job->rw_has_trim) {
		iops_err_set(err, EINVAL, "fio: %s: no I/O direction", job->name);
		return -EINVAL;
	}
	og->mixed = job->rw_has_read && job->rw_has_write;
	og->rwmixread = job->rwmixread > 100 ? 100 : job->rwmixread;
	og->random = job->rw_random;
	og->percentage_random = job->rw_random ? (job->percentage_random > 100 ? 100 : job->percentage_random) : 0;
	og->bs_unaligned = job->bs_unaligned;
	og->seq_add = job->rw_seq_add;
	og->seq_back = job->rw_seq_back;
	og->same_nr = job->rw_nr_same_offset > 1 ? job->rw_nr_same_offset : 1;
	og->same_left = 1;	/* fio: the first I/O takes a random offset */
	og->same_ident = job->rw_seq_ident && og->same_nr > 1;
	og->bs_seq_rand = job->bs_is_seq_rand;
	offgen_pick_body(og);
	og->rwmix[DDIR_READ] = og->rwmixread;
	og->rwmix[DDIR_WRITE] = 100 - og->rwmixread;
	og->mix_ddir = DDIR_READ;
	og->wrap = job->time_based && job->runtime_ns > 0;
	og->rand_wrap = og->wrap || job->file_service >= FSVC_ZIPF;	/* fio's get_next_rand_block() */
	og->map_unit = UINT64_MAX;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t lo = job->bs_min[d], hi = job->bs_max[d];

		if (hi < lo)
			hi = lo;
		og->bs_min[d] = lo;
		og->bs_max[d] = hi;
		og->align[d] = job->blockalign[d] ? job->blockalign[d] : lo;
		if (!og->has_dir[d])
			continue;
		if (lo == 0 || og->align[d] == 0) {
			iops_err_set(err, EINVAL, "fio: %s: block size must be at least 1", job->name);
			return -EINVAL;
		}
		if (lo < og->map_unit)
			og->map_unit = lo;
		if (hi > og->max_bs)
			og->max_bs = hi;
	}
	if (og->trimwrite && og->random)
		og->map_unit = og->bs_min[DDIR_TRIM];	/* trim: only the trims take map blocks */
	og->use_map = og->random && !job->norandommap;
	for (int d = 0; d < DDIR_NR; d++)
		if (og->has_dir[d] && og->align[d] != og->bs_min[d])
			og->use_map = false;	/* fio: blockalign and the random map exclude each other */
	/* lfsr: uniform blocks of the smallest bs, each once (fio runs it without random map) */
	og->use_lfsr = og->random && job->random_generator == RANDGEN_LFSR && !job->random_distribution;
	for (int d = 0; d < DDIR_NR; d++)
		if (og->has_dir[d] && og->align[d] != og->bs_min[d])
			og->use_lfsr = false;
	if (og->use_lfsr)
		og->use_map = false;
	if (job->bssplit || job->random_distribution) {	/* dist */
		int ret = dist_job_setup(job, og->has_dir, og->bs_min, og->random, io_len, nr_files,
					 og->bs_pick, og->dist, err);

		if (ret)
			return ret;
		for (int d = 0; d < DDIR_NR; d++)
			if (og->dist[d])
				og->use_map = false;	/* fio: non-uniform offsets run without map */
		for (int d = 0; d < DDIR_NR; d++) {
			const struct dist_gen *g = og->dist[d];

			if (!g || (g->kind != DIST_ZIPF && g->kind != DIST_PARETO && g->kind != DIST_NORMAL))
				continue;
			og->fdist = calloc(nr_files, sizeof(*og->fdist));	/* fio: one per file */
			if (!og->fdist)
				goto nomem;
			break;
		}
	}

	files = calloc(nr_files, sizeof(*files));
	if (!files)
		goto nomem;
	og->files = files;
	og->nr_files = nr_files;
	for (unsigned i = 0; i < nr_files; i++) {
		struct offgen_file *f = &files[i];

		f->io_start = io_start[i];
		f->io_len = io_len[i];
		offgen_reset_file(og, i);	/* its random block counts (no map yet) */
		/* backwards with offset=: fio starts from the range's length taken as an end,
		 * minus the offset, N back (or N before the end once that runs below it) */
		if (og->seq_back && f->io_start)
			for (int d = 0; d < DDIR_NR; d++)
				f->pos[d] = f->io_len > f->io_start + og->seq_back ? f->io_len - f->io_start - og->seq_back
					    : f->io_len > og->seq_back ? f->io_len - og->seq_back : 0;
		if (og->use_map) {
			f->nr_blocks = f->io_len / og->map_unit;
			if (f->nr_blocks > OFFGEN_MAX_MAP_BLOCKS) {
				offgen_release(og);
				iops_err_set(err, EINVAL, "fio: %s: file range too large for the random map; use norandommap=1",
					     job->name);
				return -EINVAL;
			}
			f->map = calloc((size_t)((f->nr_blocks + 63) / 64) + 1, sizeof(uint64_t));
			if (!f->map)
				goto nomem;
			f->nr_free = f->nr_blocks;
		}
	}

	/* fio's generators and seeds (fio/offset/fseed.h): the block sizes of writes share the reads'
	 * seed when the job verifies, trims share the writes' in trimwrite jobs */
	fseed_job(seeds, job);
	og->use64 = fseed_use64(job);
	og->seed_block = seeds[FSEED_BLOCK];
	og->seed_mix = seeds[FSEED_MIX];
	og->seed_zone = seeds[FSEED_ZONE];
	og->seed_seq = seeds[FSEED_SEQ_RAND_READ];
	og->seed_bs[DDIR_READ] = seeds[FSEED_BS_READ];
	og->seed_bs[DDIR_WRITE] = job->verify ? seeds[FSEED_BS_READ] : seeds[FSEED_BS_WRITE];
	og->seed_bs[DDIR_TRIM] = og->trimwrite ? og->seed_bs[DDIR_WRITE] : seeds[FSEED_BS_TRIM];
	offgen_seed(og);
	og->fdist_block_seed = seeds[FSEED_BLOCK];
	og->fdist_repeat = job->randrepeat;
	og->fdist_thread = job->thread_number;
	if (og->fdist)
		offgen_name_files(og, NULL);
	if (og->use_lfsr)
		for (unsigned i = 0; i < nr_files; i++) {
			uint64_t blocks = files[i].io_len / og->map_unit;

			/* a range smaller than one block has no lfsr (n = 0): the file is done at once */
			if (blocks && lfsr_init(&files[i].lfsr, blocks, seeds[FSEED_BLOCK])) {
				offgen_release(og);
				iops_err_set(err, EINVAL, "fio: failed initializing LFSR");
				return -EINVAL;
			}
		}

	og->io_size_set = job->io_size != 0;
	og->limit_bytes = job->io_size ? job->io_size : total_size;
	og->loops = job->loops ? job->loops : 1;
	if (og->limit_bytes > UINT64_MAX / og->loops)
		og->pass_limit_bytes = UINT64_MAX;
	else
		og->pass_limit_bytes = og->limit_bytes * og->loops;
	og->passes = 1;
	og->number_ios = job->time_based ? 0 : job->number_ios;	/* fio: time_based ignores it */
	if (offgen_fsvc_wanted(job, nr_files) && offgen_fsvc_init(og, job, seeds[FSEED_FILE])) {
		offgen_release(og);
		iops_err_set(err, ENOMEM, "fio: %s: out of memory", job->name);
		return -ENOMEM;
	}
	return 0;

nomem:
	offgen_release(og);
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for the random map (norandommap=1 needs none)", job->name);
	return -ENOMEM;
}

void offgen_release(struct offgen *og)
{
	free(og->fdist);
	og->fdist = NULL;
	for (int d = 0; d < DDIR_NR; d++) {
		free(og->bs_pick[d]);
		free(og->dist[d]);
		og->bs_pick[d] = NULL;
		og->dist[d] = NULL;
	}
	free(og->zone);	/* zone */
	og->zone = NULL;
	offgen_fsvc_free(og);
	free(og->zbd);	/* zbd */
	og->zbd = NULL;
	for (unsigned i = 0; og->files && i < og->nr_files; i++)
		free(og->files[i].map);
	free(og->files);
	og->files = NULL;
	og->nr_files = 0;
}

void offgen_copy_state(struct offgen *dst, const struct offgen *src)
{
	struct offgen_file *files = dst->files;
	struct dist_bs_pick *bs_pick[DDIR_NR];
	struct dist_gen *dist[DDIR_NR];

	struct fdist *fdist = dst->fdist;
	struct offgen_fsvc *fsvc = dst->fsvc;
	struct zbd_job *zbd = dst->zbd;	/* zbd: each keeps its own (verify never has one) */

	memcpy(bs_pick, dst->bs_pick, sizeof(bs_pick));
	memcpy(dist, dst->dist, sizeof(dist));
	*dst = *src;
	dst->files = files;
	dst->fdist = fdist;	/* fio's per-file distributions: the copy keeps its own */
	dst->fsvc = fsvc;
	dst->zbd = zbd;
	if (fsvc && src->fsvc)
		offgen_fsvc_copy(fsvc, src->fsvc);
	if (fdist)
		memcpy(fdist, src->fdist, src->nr_files * sizeof(*fdist));
	memcpy(dst->bs_pick, bs_pick, sizeof(bs_pick));
	memcpy(dst->dist, dist, sizeof(dist));
	for (unsigned i = 0; i < src->nr_files; i++) {
		uint64_t *map = files[i].map;

		files[i] = src->files[i];
		files[i].map = map;
		if (map)
			memcpy(map, src->files[i].map, (size_t)((files[i].nr_blocks + 63) / 64) * sizeof(uint64_t));
	}
}

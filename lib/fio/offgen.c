#include "fio/offgen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offgen_zone.h"

static void offgen_file_reset(struct offgen *og, struct offgen_file *f)
{
	for (int d = 0; d < DDIR_NR; d++)
		f->pos[d] = f->tw_start[d] = 0;
	f->tw_write_due = false;
	if (f->map) {
		memset(f->map, 0, (size_t)((f->nr_blocks + 63) / 64) * sizeof(uint64_t));
		f->nr_free = f->nr_blocks;
	}
	if (og->use_lfsr && f->lfsr.n)
		lfsr_reset(&f->lfsr);
}

void offgen_reset_file(struct offgen *og, unsigned i)
{
	offgen_file_reset(og, &og->files[i]);
}

void offgen_reset_files(struct offgen *og)
{
	for (unsigned i = 0; i < og->nr_files; i++) {
		offgen_file_reset(og, &og->files[i]);
		og->files[i].done = false;
	}
	og->nr_done = 0;
	og->cur = 0;
	og->same_left = 0;
}

static void offgen_files_free(struct offgen_file *files, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		free(files[i].map);
	free(files);
}

static void offgen_dist_free(struct offgen *og)
{
	for (int d = 0; d < DDIR_NR; d++) {
		free(og->bs_pick[d]);
		free(og->dist[d]);
		og->bs_pick[d] = NULL;
		og->dist[d] = NULL;
	}
}

int offgen_init(struct offgen *og, const struct job *job, const uint64_t *io_start,
		const uint64_t *io_len, unsigned nr_files, uint64_t total_size, struct iops_err *err)
{
	struct offgen_file *files;
	bool rep_off;

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
	og->same_nr = job->rw_nr_same_offset > 1 ? job->rw_nr_same_offset : 1;
	og->wrap = job->time_based && job->runtime_ns > 0;
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
	og->use_map = og->random && !job->norandommap && og->same_nr == 1;
	for (int d = 0; d < DDIR_NR; d++)
		if (og->has_dir[d] && og->align[d] != og->bs_min[d])
			og->use_map = false;	/* fio: blockalign and the random map exclude each other */
	/* lfsr: uniform blocks of the smallest bs, each once (fio runs it without random map) */
	og->use_lfsr = og->random && job->random_generator == RANDGEN_LFSR && og->same_nr == 1 &&
		       !job->bssplit && !job->random_distribution;
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
	}

	files = calloc(nr_files, sizeof(*files));
	if (!files)
		goto nomem;
	for (unsigned i = 0; i < nr_files; i++) {
		struct offgen_file *f = &files[i];

		f->io_start = io_start[i];
		f->io_len = io_len[i];
		if (og->use_map) {
			f->nr_blocks = f->io_len / og->map_unit;
			if (f->nr_blocks > OFFGEN_MAX_MAP_BLOCKS) {
				offgen_files_free(files, nr_files);
				offgen_dist_free(og);
				iops_err_set(err, EINVAL, "fio: %s: file range too large for the random map; use norandommap=1",
					     job->name);
				return -EINVAL;
			}
			f->map = calloc((size_t)((f->nr_blocks + 63) / 64) + 1, sizeof(uint64_t));
			if (!f->map) {
				offgen_files_free(files, nr_files);
				goto nomem;
			}
			f->nr_free = f->nr_blocks;
		}
	}
	og->files = files;
	og->nr_files = nr_files;

	rep_off = job->randrepeat || job->allrandrepeat || job->randseed_set;
	rng_init(&og->rng_off, rng_job_seed(job->randseed, rep_off, job->thread_number, RNG_OFFSET));
	if (og->use_lfsr)
		for (unsigned i = 0; i < nr_files; i++) {
			uint64_t blocks = files[i].io_len / og->map_unit;

			/* a range smaller than one block has no lfsr (n = 0): the file is done at once */
			if (blocks)
				(void)lfsr_init(&files[i].lfsr, blocks, rng_next(&og->rng_off));
		}
	/* fio repeats the read/write mix and the bsrange sizes with randrepeat too (the same
	 * job gives the same split run after run); allrandrepeat adds the buffer contents. */
	rng_init(&og->rng_mix, rng_job_seed(job->randseed, rep_off, job->thread_number, RNG_RWMIX));
	rng_init(&og->rng_bs, rng_job_seed(job->randseed, rep_off, job->thread_number, RNG_BS));
	og->rng_bs_tw = og->rng_bs;	/* trim: fio seeds each direction's sizes alike */

	og->io_size_set = job->io_size != 0;
	og->limit_bytes = job->io_size ? job->io_size : total_size;
	og->loops = job->loops ? job->loops : 1;
	if (og->limit_bytes > UINT64_MAX / og->loops)
		og->pass_limit_bytes = UINT64_MAX;
	else
		og->pass_limit_bytes = og->limit_bytes * og->loops;
	og->passes = 1;
	return 0;

nomem:
	offgen_dist_free(og);
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for the random map (norandommap=1 needs none)", job->name);
	return -ENOMEM;
}

void offgen_release(struct offgen *og)
{
	offgen_dist_free(og);
	free(og->zone);	/* zone */
	og->zone = NULL;
	if (og->files)
		offgen_files_free(og->files, og->nr_files);
	og->files = NULL;
	og->nr_files = 0;
}

/* A length for direction d that is at most room bytes (0: none fits). */
static uint64_t offgen_len(struct offgen *og, int d, uint64_t room)
{
	uint64_t lo = og->bs_min[d], hi = og->bs_max[d], len;
	/* trim: a trimwrite job's writes draw from their own copy of the size generator */
	struct rng *r = og->trimwrite && d == DDIR_WRITE ? &og->rng_bs_tw : &og->rng_bs;

	if (room < lo)
		return 0;
	if (lo == hi)
		return lo;
	if (og->bs_pick[d])	/* dist: bssplit */
		return dist_bs_pick(og->bs_pick[d], r, room);
	if (hi > room)
		hi = room;
	if (og->bs_unaligned)
		return lo + rng_below(r, hi - lo + 1);
	len = lo * (1 + rng_below(r, hi / lo));
	return len;
}

/* First free map block at or after b (wrapping); the file has at least one. */
static uint64_t offgen_map_find(const struct offgen_file *f, uint64_t b)
{
	uint64_t nwords = (f->nr_blocks + 63) / 64, w = b / 64;
	uint64_t free_bits = ~f->map[w] & (~0ull << (b % 64));

	for (uint64_t i = 0; i <= nwords; i++) {
		if (free_bits) {
			uint64_t found = w * 64 + (uint64_t)__builtin_ctzll(free_bits);

			if (found < f->nr_blocks)
				return found;
		}
		w = (w + 1 < nwords) ? w + 1 : 0;
		free_bits = ~f->map[w];
	}
	return f->nr_blocks;	/* not reached while nr_free > 0 */
}

static inline bool offgen_map_test(const struct offgen_file *f, uint64_t b)
{
	return (f->map[b / 64] >> (b % 64)) & 1u;
}

static inline void offgen_map_set(struct offgen_file *f, uint64_t b)
{
	f->map[b / 64] |= 1ull << (b % 64);
}

/* Try to place one I/O of direction d in file f. Returns false when the file is exhausted. */
static bool offgen_file_next(struct offgen *og, struct offgen_file *f, int d, struct offgen_io *io)
{
	bool random = og->random;
	uint64_t off, len;

	if (random && og->same_nr > 1) {
		if (og->same_left > 0) {
			og->same_left--;
			random = false;
		} else {
			og->same_left = og->same_nr - 1;
		}
	}
	if (random && og->percentage_random < 100)
		random = rng_percent(&og->rng_off, og->percentage_random);

	if (random && f->map) {
		uint64_t b, nr, got = 0;

		if (f->nr_free == 0) {
			if (!og->wrap)
				return false;
			offgen_file_reset(og, f);
			og->fresh = OFFGEN_FRESH_FILE;
			if (f->nr_free == 0)
				return false;
		}
		if (f->io_len < og->bs_min[d])
			return false;
		for (;;) {
			b = rng_below(&og->rng_off, f->nr_blocks);
			if (offgen_map_test(f, b))
				b = offgen_map_find(f, b);
			off = b * og->map_unit;
			len = offgen_len(og, d, f->io_len - off);
			if (len)
				break;
			/* this direction's bs (larger than the map unit) does not fit before the end
			 * of the range: retire the block, I/O sizes stay what the job asked for */
			offgen_map_set(f, b);
			if (--f->nr_free == 0) {
				if (!og->wrap)
					return false;
				offgen_file_reset(og, f);
				og->fresh = OFFGEN_FRESH_FILE;
			}
		}
		if (__builtin_expect(len == og->map_unit, 1)) {
			/* the common case: one block, found free above */
			offgen_map_set(f, b);
			got = 1;
		} else {
			nr = (len + og->map_unit - 1) / og->map_unit;
			while (got < nr && b + got < f->nr_blocks && !offgen_map_test(f, b + got)) {
				offgen_map_set(f, b + got);
				got++;
			}
		}
		f->nr_free -= got;
		if (got * og->map_unit < len)
			len = got * og->map_unit;
		f->pos[d] = off + len;
	} else if (random && og->dist[d]) {
		/* dist: a block from the distribution, then a size that fits after it */
		uint64_t nb;
		unsigned tries = 0;

		if (f->io_len < og->bs_min[d])
			return false;
		nb = (f->io_len - og->bs_min[d]) / og->align[d] + 1;
		for (;;) {
			off = dist_gen_block(og->dist[d], &og->rng_off, nb, og->align[d]) * og->align[d];
			len = offgen_len(og, d, f->io_len - off);
			if (len)
				break;
			if (++tries == 16) {
				off = 0;
				len = offgen_len(og, d, f->io_len);
				if (!len)
					return false;
				break;
			}
		}
		f->pos[d] = off + len;
	} else if (random && og->use_lfsr) {
		uint64_t b;

		if (f->io_len < og->bs_min[d] || !f->lfsr.n)
			return false;
		for (;;) {
			if (!lfsr_next(&f->lfsr, &b)) {
				if (!og->wrap)
					return false;
				lfsr_reset(&f->lfsr);	/* time_based: the file starts over */
				og->fresh = OFFGEN_FRESH_FILE;
				continue;
			}
			off = b * og->map_unit;
			len = offgen_len(og, d, f->io_len - off);
			if (len)
				break;	/* else this direction's bs does not fit there: the next block */
		}
		f->pos[d] = off + len;
	} else if (random) {
		uint64_t lo = og->bs_min[d], span;

		if (f->io_len < lo)
			return false;
		len = offgen_len(og, d, f->io_len);
		span = (f->io_len - len) / og->align[d] + 1;
		off = rng_below(&og->rng_off, span) * og->align[d];
		f->pos[d] = off + len;
	} else {
		off = f->pos[d];
		len = off < f->io_len ? offgen_len(og, d, f->io_len - off) : 0;
		if (len == 0) {
			if (!og->wrap && ((!og->seq_add && og->same_nr == 1) || off == UINT64_MAX))
				return false;
			if (og->wrap)
				og->fresh = OFFGEN_FRESH_FILE;
			off = 0;
			len = offgen_len(og, d, f->io_len);
			if (len == 0)
				return false;
		}
		f->pos[d] = off + len + og->seq_add;
		/* holes (rw=read:8k): past the end, fio starts the file again, unless the last I/O
		 * ended exactly at its end: then the file is done for this pass */
		if (og->seq_add && f->pos[d] >= f->io_len)
			f->pos[d] = !og->wrap && off + len == f->io_len ? UINT64_MAX : 0;
	}
	io->ddir = (enum ddir)d;
	io->offset = f->io_start + off;
	io->len = len;
	return true;
}

/* trim: trimwrite (fio's rule, see offgen.h): the direction of file f's next I/O; for
 * randtrimwrite's write, the I/O itself (the block just trimmed): then true. */
static bool offgen_tw_dir(const struct offgen *og, const struct offgen_file *f, int *d, struct offgen_io *io)
{
	if (og->random)
		*d = f->tw_write_due ? DDIR_WRITE : DDIR_TRIM;
	else
		*d = f->tw_start[DDIR_WRITE] == f->tw_start[DDIR_TRIM] ? DDIR_TRIM : DDIR_WRITE;
	if (*d == DDIR_TRIM || !og->random)
		return false;
	io->ddir = DDIR_WRITE;
	io->offset = f->io_start + f->tw_start[DDIR_TRIM] - 1;
	io->len = f->tw_trim_len;
	return true;
}

/* trim: trimwrite: remember the I/O just placed in file f. Only the writes count against the
 * limit: a trim extends it by its own size. */
static void offgen_tw_note(struct offgen *og, struct offgen_file *f, const struct offgen_io *io)
{
	f->tw_start[io->ddir] = io->offset - f->io_start + 1;
	f->tw_write_due = io->ddir == DDIR_TRIM;
	if (io->ddir == DDIR_TRIM) {
		f->tw_trim_len = io->len;
		og->pass_limit_bytes = og->pass_limit_bytes > UINT64_MAX - io->len ? UINT64_MAX
							: og->pass_limit_bytes + io->len;
	}
}

static bool offgen_pass_next(struct offgen *og, struct offgen_io *io)
{
	const bool tw = og->trimwrite;	/* trim */
	int d;

	if (!og->wrap && og->issued_bytes >= og->pass_limit_bytes)
		return false;
	if (__builtin_expect(og->ddir_drawn, 0)) {	/* rate */
		d = (int)og->next_ddir;
		og->ddir_drawn = false;
	} else if (og->mixed) {
		d = rng_percent(&og->rng_mix, og->rwmixread) ? DDIR_READ : DDIR_WRITE;
	} else {
		d = og->only_dir;	/* trim: the one direction */
	}

	while (og->nr_done < og->nr_files) {
		unsigned i = og->cur;
		struct offgen_file *f = &og->files[i];

		og->cur = (i + 1 == og->nr_files) ? 0 : i + 1;
		if (f->done)
			continue;
		if (__builtin_expect(og->zone != NULL, 0))
			offgen_zone_pick(og, i);	/* zone: the next zone after zonesize bytes */
		if (__builtin_expect(tw, 0) && offgen_tw_dir(og, f, &d, io))
			goto tw_note;	/* trim: randtrimwrite's write */
		if (offgen_file_next(og, f, d, io) ||
		    (__builtin_expect(og->zone != NULL, 0) && offgen_zone_refill(og, i) &&
		     offgen_file_next(og, f, d, io))) {	/* zone: used up, start it over */
			if (__builtin_expect(tw, 0)) {
tw_note:
				offgen_tw_note(og, f, io);
			}
			if (__builtin_expect(og->zone != NULL, 0))
				offgen_zone_placed(og, i, io->len);
			io->file = i;
			return true;
		}
		f->done = true;
		og->nr_done++;
	}
	return false;
}

__attribute__((cold)) enum ddir offgen_peek_ddir(struct offgen *og)
{
	if (!og->ddir_drawn) {
		if (og->mixed)
			og->next_ddir = rng_percent(&og->rng_mix, og->rwmixread) ? DDIR_READ : DDIR_WRITE;
		else
			og->next_ddir = og->only_dir;
		og->ddir_drawn = true;
	}
	return og->next_ddir;
}

void offgen_set_ddir(struct offgen *og, enum ddir d)
{
	og->next_ddir = d;
	og->ddir_drawn = true;
}

bool offgen_next(struct offgen *og, struct offgen_io *io)
{
	while (!og->ended) {
		uint64_t left;

		if (offgen_pass_next(og, io)) {
			io->fresh = og->fresh;
			og->fresh = OFFGEN_FRESH_NONE;
			og->issued_bytes += io->len;
			og->issued_ios[io->ddir]++;
			og->pass_ios++;
			return true;
		}
		/* The pass is over: fio's keep_running(). */
		if (og->pause_passes && !og->paused) {
			og->paused = true;	/* verify: the runner checks the pass first */
			return false;
		}
		og->paused = false;
		if (og->passes < og->loops) {
			og->passes++;
			og->pass_ios = 0;
			offgen_reset_files(og);
			og->fresh = OFFGEN_FRESH_PASS;
			continue;
		}
		left = og->issued_bytes + og->verify_bytes < og->limit_bytes ?
		       og->limit_bytes - og->issued_bytes - og->verify_bytes : 0;
		if (!og->wrap && og->pass_ios > 0 && left > 0 && left >= og->max_bs &&
		    (og->nr_done < og->nr_files || og->io_size_set)) {
			og->passes++;
			og->pass_ios = 0;
			offgen_reset_files(og);
			og->fresh = OFFGEN_FRESH_PASS;
			continue;
		}
		og->ended = true;
	}
	return false;
}

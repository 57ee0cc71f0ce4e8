/* SPDX-License-Identifier: MIT */
/* offgen: the offset generator's I/O path (fio/offset/offgen.h): the direction, the file, the
 * place and size of each I/O in it, and the passes. It calls its parts (file service, zones,
 * zbd, each file's state), which never call it back. */
#include "fio/offset/offgen.h"
#include "fio/offset/fseed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/offgen_fsvc.h"
#include "fio/offset/offgen_zone.h"
#include "fio/offset/zbd.h"

/* offgen_len() when the sizes vary (bsrange, bssplit): fio's get_next_buflen(), min + max * u
 * rounded down to a multiple of min and capped at max, drawn again until it fits. */
static __attribute__((cold)) uint64_t offgen_len_range(struct offgen *og, int d, uint64_t room)
{
	uint64_t lo = og->bs_min[d], hi = og->bs_max[d];

	if (og->bs_pick[d])	/* dist: bssplit */
		return dist_bs_pick(og->bs_pick[d], &og->fr_bs[d], room);
	for (unsigned tries = 0; tries < 4096; tries++) {
		double u = (double)frand_next(&og->fr_bs[d]) / frand_range(&og->fr_bs[d]);
		uint64_t len = lo + (uint32_t)((double)hi * u);

		if (!og->bs_unaligned)
			len = (lo & (lo - 1)) ? len - len % lo : len & ~(lo - 1);
		if (len > hi)
			len = hi;
		if (len <= room)
			return len;
	}
	return lo;	/* (unreachable in practice: lo fits) */
}

/* A length for direction d that is at most room bytes (0: none fits). */
static inline uint64_t offgen_len(struct offgen *og, int d, uint64_t room)
{
	uint64_t lo = og->bs_min[d];

	if (room < lo)
		return 0;
	if (lo == og->bs_max[d])
		return lo;
	return offgen_len_range(og, d, room);
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

/* fio's zoned / zoned_abs: a zone from a draw of 1..100, then a uniform block inside it
 * (no random map). The offset into *off; false when the job's zones do not fit the file. */
static __attribute__((cold)) bool offgen_zoned_block(struct offgen *og, const struct offgen_file *f, int d, uint64_t *off)
{
	const struct dist_gen *g = og->dist[d];
	uint64_t lastb = f->lastb[d], start = 0, nb = lastb, ba = og->align[d];

	if (!lastb)
		return false;
	if (g->nr_zones) {
		unsigned z = g->zone_by_r[frand_between(&og->fr_zone, 1, 100) - 1];

		if (g->kind == DIST_ZONED) {	/* sizes in % of the range */
			uint64_t stotal = g->zone_start[z], send = stotal + g->zone_len[z];

			start = stotal * lastb / 100;
			nb = lastb * (send - stotal) / 100;
		} else {			/* zoned_abs: bytes */
			uint64_t stotal = g->zone_start[z] / ba, send = (g->zone_start[z] + g->zone_len[z]) / ba;

			if (send > lastb)
				return false;
			start = stotal;
			nb = send - stotal;
		}
	}
	*off = (frand_scale(&og->fr_block, nb) + start) * ba;
	return true;
}

/* special: rw_sequencer=identical or bs_is_seq_rand is on. The body is built twice (see
 * offgen_file_next()), so that the common case carries none of their tests. */
static inline __attribute__((always_inline)) bool offgen_file_next_body(struct offgen *og, struct offgen_file *f,
									 int d, struct offgen_io *io, const bool special)
{
	bool random = og->random, busy_ok = false;
	uint64_t off, len;
	int bd;				/* whose sizes: d's, or bs_is_seq_rand's pick */

	if (random && og->same_nr > 1) {
		/* fio's ddir_seq_nr: the Nth I/O takes a random offset, the others follow on */
		if (--og->same_left == 0)
			og->same_left = og->same_nr;
		else
			random = false;
	}
	if (random && og->percentage_random < 100)
		random = frand_between(&og->fr_seq[d], 1, 100) <= og->percentage_random;
	/* a sequential turn of a random job past the end takes a random block, which fio does
	 * not mark in the map */
	if (!random && og->random && f->pos[d] >= f->io_len && !og->wrap)
		random = busy_ok = true;
	bd = special && og->bs_seq_rand ? (random ? DDIR_WRITE : DDIR_READ) : d;

	if (special && og->same_ident && !random && og->random) {
		/* rw_sequencer=identical: the offset of the file's last I/O of this direction */
		off = f->pos[d] < f->io_len ? f->pos[d] : 0;
		len = offgen_len(og, bd, f->io_len - off);
		if (!len)
			return false;
		goto out;
	}

	if (random && f->map) {
		uint64_t b, nr, got = 0, unit = og->bs_min[d], lastb = f->lastb[d];

		if (!lastb)
			return false;
		b = frand_scale(&og->fr_block, lastb);
		if (offgen_map_test(f, b)) {
			if (f->nr_free == 0) {
				/* the map is full: time_based (and zipf / pareto / normal file service)
				 * start the file over and draw again */
				if (!og->rand_wrap)
					return false;
				offgen_file_reset(og, f);
				og->fresh |= OFFGEN_FRESH_FILE;
				b = frand_scale(&og->fr_block, lastb);
			} else {
				b = offgen_map_find(f, b);
			}
		}
		off = b * og->align[d];
		if (off >= f->io_len)
			return false;
		len = offgen_len(og, bd, f->io_len - off);
		if (!len)
			return false;	/* this direction's bs does not fit there: fio ends the file */
		/* fio marks the map in units of this direction's bs, trimming the I/O to the run
		 * of free blocks it covers */
		b = off / unit;
		if (busy_ok) {
			got = 0;
		} else if (__builtin_expect(len == unit && unit == og->map_unit, 1)) {
			offgen_map_set(f, b);	/* the common case: one block, found free above */
			got = 1;
		} else {
			/* fio's map has whole 64-bit words: an I/O may run into the bits past the
			 * last block (they are never free to the search, nor counted) */
			uint64_t cap = (f->nr_blocks + 63) / 64 * 64, in_map = 0;

			nr = (len + unit - 1) / unit;
			while (got < nr && b + got < cap && !offgen_map_test(f, b + got)) {
				offgen_map_set(f, b + got);
				if (b + got < f->nr_blocks)
					in_map++;
				got++;
			}
			if (got && got * unit < len)
				len = got * unit;
			got = in_map;
		}
		f->nr_free -= got;
		f->pos[d] = off + len;
	} else if (random && og->fdist) {
		/* fio's zipf / pareto / normal: the file's own generator; a block past the range
		 * or a size that does not fit there ends the file, as in fio */
		off = fdist_next(&og->fdist[f - og->files]) * og->align[d];
		len = off < f->io_len ? offgen_len(og, bd, f->io_len - off) : 0;
		if (!len)
			return false;
		f->pos[d] = off + len;
	} else if (random && og->dist[d] && (og->dist[d]->kind == DIST_ZONED || og->dist[d]->kind == DIST_ZONED_ABS)) {
		if (!offgen_zoned_block(og, f, d, &off))
			return false;
		len = off < f->io_len ? offgen_len(og, bd, f->io_len - off) : 0;
		if (!len)
			return false;
		f->pos[d] = off + len;
	} else if (random && og->use_lfsr) {
		uint64_t b;

		if (f->io_len < og->bs_min[d] || !f->lfsr.n)
			return false;
		for (;;) {
			if (!lfsr_next(&f->lfsr, &b)) {
				if (!og->rand_wrap)
					return false;
				lfsr_reset(&f->lfsr);	/* time_based: the file starts over */
				og->fresh |= OFFGEN_FRESH_FILE;
				continue;
			}
			off = b * og->map_unit;
			len = offgen_len(og, bd, f->io_len - off);
			if (len)
				break;	/* else this direction's bs does not fit there: the next block */
		}
		f->pos[d] = off + len;
	} else if (random) {
		/* no random map: fio's block, then a size that fits after it */
		uint64_t lastb = f->lastb[d];

		if (!lastb)
			return false;
		off = frand_scale(&og->fr_block, lastb) * og->align[d];
		len = off < f->io_len ? offgen_len(og, bd, f->io_len - off) : 0;
		if (!len)
			return false;
		f->pos[d] = off + len;
	} else if (__builtin_expect(og->seq_back != 0, 0)) {
		/* rw=read:-N: N back from the end of this I/O; below the start, N before the end */
		off = f->pos[d];
		len = off < f->io_len ? offgen_len(og, bd, f->io_len - off) : 0;
		if (!len)
			return false;
		f->pos[d] = off + len >= og->seq_back ? off + len - og->seq_back
			    : f->io_len > og->seq_back ? f->io_len - og->seq_back : 0;
	} else {
		off = f->pos[d];
		len = off < f->io_len ? offgen_len(og, bd, f->io_len - off) : 0;
		if (len == 0) {
			/* holes: a block that does not fit before the end ends the file's pass
			 * (fio 3.33: rw=read:512k bs=1m over 128 MiB does 85 I/Os, no wrap) */
			if (!og->wrap && (og->seq_add || og->same_nr == 1 || off == UINT64_MAX))
				return false;
			if (og->wrap)
				og->fresh |= OFFGEN_FRESH_FILE;
			off = 0;
			len = offgen_len(og, bd, f->io_len);
			if (len == 0)
				return false;
		}
		f->pos[d] = off + len + og->seq_add;
		/* holes (rw=read:8k): past the end, fio starts the file again, unless the last I/O
		 * ended exactly at its end: then the file is done for this pass */
		if (og->seq_add && f->pos[d] >= f->io_len)
			f->pos[d] = !og->wrap && off + len == f->io_len ? UINT64_MAX : 0;
	}
	if (special && og->same_ident)
		f->pos[d] = off;	/* rw_sequencer=identical: where the next ones go */
out:
	io->ddir = (enum ddir)d;
	io->offset = f->io_start + off;
	io->len = len;
	return true;
}

/* Try to place one I/O of direction d in file f. Returns false when the file is exhausted.
 * og->file_next is one of these two: with rw_sequencer=identical or bs_is_seq_rand, or not. */
static __attribute__((cold)) bool offgen_file_next_special(struct offgen *og, struct offgen_file *f, int d, struct offgen_io *io)
{
	return offgen_file_next_body(og, f, d, io, true);
}

static bool offgen_file_next(struct offgen *og, struct offgen_file *f, int d, struct offgen_io *io)
{
	return offgen_file_next_body(og, f, d, io, false);
}

__attribute__((cold)) void offgen_pick_body(struct offgen *og)
{
	og->file_next = og->same_ident || og->bs_seq_rand ? offgen_file_next_special : offgen_file_next;
}

/* trim: trimwrite (fio's rule, see offgen.h): the direction of file f's next I/O; for
 * randtrimwrite's write, the I/O itself (the block just trimmed): then true. */
static __attribute__((cold)) bool offgen_tw_dir(const struct offgen *og, const struct offgen_file *f, int *d, struct offgen_io *io)
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
static __attribute__((cold)) void offgen_tw_note(struct offgen *og, struct offgen_file *f, const struct offgen_io *io)
{
	f->tw_start[io->ddir] = io->offset - f->io_start + 1;
	f->tw_write_due = io->ddir == DDIR_TRIM;
	if (io->ddir == DDIR_TRIM) {
		f->tw_trim_len = io->len;
		og->pass_limit_bytes = og->pass_limit_bytes > UINT64_MAX - io->len ? UINT64_MAX
							: og->pass_limit_bytes + io->len;
	}
}

/* fio's get_rw_ddir() for a mixed job: a new direction is drawn once the current one has
 * had its share (set_rwmix_bytes()). */
static int offgen_mix_ddir(struct offgen *og)
{
	if (og->mix_ios[og->mix_ddir] >= og->mix_issues) {
		int d = frand_between(&og->fr_mix, 1, 100) <= og->rwmix[DDIR_READ] ? DDIR_READ : DDIR_WRITE;

		if (d != og->mix_ddir)
			og->mix_issues = og->mix_ios[og->mix_ddir] * og->rwmix[d] / 100;
		og->mix_ddir = d;
	}
	return og->mix_ddir;
}

/* zbd: the write pointers' say on the I/O just placed in file i; false: the pass ends (every
 * file done, as fio ends its loop). The next sequential I/O follows the adjusted one. */
__attribute__((cold)) static bool offgen_zbd(struct offgen *og, struct offgen_file *f, unsigned i,
					     struct offgen_io *io)
{
	uint64_t off = io->offset - f->io_start, len = io->len, unit = og->bs_min[io->ddir];

	io->zbd_skip = io->ddir == DDIR_TRIM;	/* zbd_adjust() says when it is a real trim */
	if (zbd_adjust(og->zbd, i, io->ddir, &io->offset, &io->len, &io->zbd_skip)) {
		for (unsigned k = 0; k < og->nr_files; k++)
			og->files[k].done = true;
		og->nr_done = og->nr_files;
		return false;
	}
	/* fio marks the random map after the zone rules: blocks of a cut I/O stay free */
	if (f->map && og->random && io->len < len && unit) {
		for (uint64_t b = (off + io->len + unit - 1) / unit; b < (off + len + unit - 1) / unit; b++)
			if (b < f->nr_blocks && offgen_map_test(f, b)) {
				f->map[b / 64] &= ~(1ull << (b % 64));
				f->nr_free++;
			}
	}
	if (io->offset >= f->io_start && !og->random) {	/* holes (rw=write:N): as offgen_file_next() */
		uint64_t end = zbd_seq_next(og->zbd, i, io->offset + io->len) - f->io_start;

		f->pos[io->ddir] = end + og->seq_add;
		if (og->seq_add && f->pos[io->ddir] >= f->io_len)
			f->pos[io->ddir] = !og->wrap && end == f->io_len ? UINT64_MAX : 0;
	} else if (io->offset >= f->io_start) {
		f->pos[io->ddir] = io->offset - f->io_start + io->len;
	}
	return true;
}

static bool offgen_pass_next(struct offgen *og, struct offgen_io *io)
{
	const bool tw = og->trimwrite;	/* trim */
	bool redraw = og->mixed;
	int d;

	if (!og->wrap && og->issued_bytes >= og->pass_limit_bytes)
		return false;
	if (__builtin_expect(og->number_ios != 0, 0) && og->pass_ios >= og->number_ios) {
		og->nios_hit = true;	/* number_ios: this pass has done its I/Os */
		return false;
	}
	if (__builtin_expect(og->ddir_drawn, 0)) {	/* rate */
		d = (int)og->next_ddir;
		og->ddir_drawn = false;
		redraw = false;
	} else if (og->mixed) {
		d = offgen_mix_ddir(og);
	} else {
		d = og->only_dir;	/* trim: the one direction */
	}

	while (og->nr_done < og->nr_files) {
		unsigned i = og->cur;
		struct offgen_file *f;

		if (__builtin_expect(og->fsvc != NULL, 0)) {
			int k = offgen_fsvc_pick(og);	/* file_service_type, openfiles */

			og->fresh |= OFFGEN_FRESH_EVENTS;
			if (k < 0)
				continue;	/* busy: choose again, as fio after its reap */
			i = (unsigned)k;
			f = &og->files[i];
		} else {
			f = &og->files[i];
			og->cur = (i + 1 == og->nr_files) ? 0 : i + 1;
			if (f->done)
				continue;
		}
		if (__builtin_expect(og->zone != NULL, 0))
			offgen_zone_pick(og, i);	/* zone: the next zone after zonesize bytes */
		if (__builtin_expect(tw, 0) && offgen_tw_dir(og, f, &d, io))
			goto tw_note;	/* trim: randtrimwrite's write */
		if (__builtin_expect(og->zbd != NULL, 0) && og->mixed)
			d = (int)zbd_ddir(og->zbd, i, (enum ddir)d);	/* zbd: nothing to read yet */
		if (og->file_next(og, f, d, io) ||
		    (__builtin_expect(og->zone != NULL, 0) && offgen_zone_refill(og, i) &&
		     og->file_next(og, f, d, io))) {	/* zone: used up, start it over */
			if (__builtin_expect(tw, 0)) {
tw_note:
				offgen_tw_note(og, f, io);
			}
			if (__builtin_expect(og->zone != NULL, 0))
				offgen_zone_placed(og, i, io->len);
			if (__builtin_expect(og->zbd != NULL, 0) && !offgen_zbd(og, f, i, io))
				return false;	/* zbd: no zone takes it, the pass ends */
			if (__builtin_expect(og->fsvc != NULL, 0))
				offgen_fsvc_used(og, i);
			io->file = i;
			return true;
		}
		if (__builtin_expect(og->fsvc != NULL, 0) && !offgen_fsvc_spent(og, i)) {
			if (redraw)	/* zipf / pareto / normal: the file starts over */
				d = offgen_mix_ddir(og);
			continue;
		}
		f->done = true;
		og->nr_done++;
		/* fio fills the I/O again for the next file, direction first */
		if (redraw)
			d = offgen_mix_ddir(og);
	}
	return false;
}

bool offgen_has_room(const struct offgen *og)
{
	if (og->ended)
		return false;
	if (og->wrap)
		return true;
	return og->issued_bytes < og->pass_limit_bytes && (!og->number_ios || og->pass_ios < og->number_ios);
}

int offgen_sync_file(struct offgen *og)
{
	if (og->fsvc) {
		/* busy (openfiles) several times over: the caller falls back to the written file */
		for (unsigned n = 0; n < 4 * og->nr_files + 4 && og->nr_done < og->nr_files; n++) {
			int k = offgen_fsvc_pick(og);

			og->fresh |= OFFGEN_FRESH_EVENTS;
			if (k >= 0)
				return k;
		}
		return -1;
	}
	for (unsigned n = 0; n < og->nr_files; n++) {
		unsigned i = og->cur;

		og->cur = (i + 1 == og->nr_files) ? 0 : i + 1;
		if (!og->files[i].done)
			return (int)i;
	}
	return -1;
}

__attribute__((cold)) enum ddir offgen_peek_ddir(struct offgen *og)
{
	if (!og->ddir_drawn) {
		if (og->mixed)
			og->next_ddir = (enum ddir)offgen_mix_ddir(og);
		else
			og->next_ddir = og->only_dir;
		og->ddir_drawn = true;
	}
	return og->next_ddir;
}

void offgen_set_ddir(struct offgen *og, enum ddir d)
{
	if (og->mixed)
		og->mix_ddir = (int)d;	/* fio: rate_ddir()'s choice becomes the current run */
	og->next_ddir = d;
	og->ddir_drawn = true;
}

/* (Re)start fio's generators from the job's seeds: at the start and at each new pass (fio's
 * clear_io_state() seeds them again, so every pass repeats the first one's draws). */
void offgen_seed(struct offgen *og)
{
	frand_init(&og->fr_block, og->seed_block, og->use64);
	frand_init(&og->fr_mix, og->seed_mix, false);
	frand_init(&og->fr_zone, og->seed_zone, false);
	for (int d = 0; d < DDIR_NR; d++) {
		frand_init(&og->fr_bs[d], og->seed_bs[d], og->use64);
		frand_init(&og->fr_seq[d], og->seed_seq, false);
		og->mix_ios[d] = 0;
	}
	og->mix_issues = 0;
	og->mix_ddir = DDIR_READ;
}

/* A new pass (loops=, or what is left of io_size=): the files and the generators start over,
 * as fio's clear_io_state(). */
static __attribute__((cold)) void offgen_new_pass(struct offgen *og)
{
	og->passes++;
	og->pass_ios = 0;
	og->nios_hit = false;
	offgen_reset_files(og);
	offgen_seed(og);
	og->fresh = OFFGEN_FRESH_PASS;
	if (og->fsvc) {
		offgen_fsvc_pass(og);
		og->fresh |= OFFGEN_FRESH_EVENTS;
	}
	if (og->zbd)	/* zbd: fio's file reset */
		zbd_job_pass(og->zbd, og->has_dir[DDIR_WRITE]);
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
			og->mix_ios[io->ddir]++;
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
			offgen_new_pass(og);
			continue;
		}
		left = og->issued_bytes + og->verify_bytes < og->limit_bytes ?
		       og->limit_bytes - og->issued_bytes - og->verify_bytes : 0;
		if (!og->wrap && !og->nios_hit && og->pass_ios > 0 && left > 0 && left >= og->max_bs &&
		    (og->nr_done < og->nr_files || og->io_size_set)) {
			offgen_new_pass(og);
			continue;
		}
		og->ended = true;
	}
	return false;
}


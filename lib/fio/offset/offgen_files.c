/* SPDX-License-Identifier: MIT */
/* offgen_files: each file's own state in the offset generator (fio/offset/offgen.h): its start
 * afresh (positions, random map, LFSR) with the random block counts of its range, and its
 * zipf / pareto / normal generator seeded from its name. Below the generator's placement,
 * file service and zones, which all start files over; it calls none of them. */
#include "fio/offset/offgen.h"

#include <string.h>

#include "fio/offset/fdist.h"

void offgen_file_reset(struct offgen *og, struct offgen_file *f)
{
	for (int d = 0; d < DDIR_NR; d++) {
		if (!og->seq_back)	/* backwards I/O goes on where it was, as fio's */
			f->pos[d] = 0;
		f->tw_start[d] = 0;
	}
	f->tw_write_due = false;
	if (f->map) {
		memset(f->map, 0, (size_t)((f->nr_blocks + 63) / 64) * sizeof(uint64_t));
		f->nr_free = f->nr_blocks;
	}
	if (og->use_lfsr && f->lfsr.n)
		lfsr_reset(&f->lfsr);
}

/* fio's last_block(): the blocks (of blockalign) a random offset of direction d is drawn
 * from in a range of io_len bytes; 0 when none. */
static uint64_t offgen_lastb(const struct offgen *og, uint64_t io_len, int d)
{
	uint64_t max = io_len, ba = og->align[d];

	if (og->bs_min[d] > ba) {
		if (max < og->bs_min[d] - ba)
			return 0;
		max -= og->bs_min[d] - ba;
	}
	return max / ba;
}

/* zone: file i's range changed: its random block counts follow, then it starts afresh. */
__attribute__((cold)) void offgen_reset_file(struct offgen *og, unsigned i)
{
	struct offgen_file *f = &og->files[i];

	for (int d = 0; d < DDIR_NR; d++)
		f->lastb[d] = og->has_dir[d] ? offgen_lastb(og, f->io_len, d) : 0;
	offgen_file_reset(og, f);
}

__attribute__((cold)) void offgen_reset_files(struct offgen *og)
{
	for (unsigned i = 0; i < og->nr_files; i++) {
		offgen_file_reset(og, &og->files[i]);
		og->files[i].done = false;
	}
	og->nr_done = 0;
	og->cur = 0;
}

void offgen_name_files(struct offgen *og, const char *const *names)
{
	const struct dist_gen *g = NULL;
	uint64_t unit;

	if (!og->fdist)
		return;
	for (int d = 0; d < DDIR_NR && !g; d++)
		g = og->dist[d];
	/* fio: ranges of the smaller of the read and write bs over the file's range */
	unit = og->bs_min[DDIR_READ] < og->bs_min[DDIR_WRITE] ? og->bs_min[DDIR_READ] : og->bs_min[DDIR_WRITE];
	if (!unit)
		unit = og->map_unit;
	for (unsigned i = 0; i < og->nr_files; i++) {
		uint64_t n = (og->files[i].io_len + unit - 1) / unit;
		uint32_t seed = fdist_seed(names && names[i] ? names[i] : "", og->fdist_thread,
					   og->fdist_repeat, og->fdist_block_seed);

		fdist_init(&og->fdist[i], g->kind, n, g->param, g->center, seed);
	}
}

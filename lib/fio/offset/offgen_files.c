/* offgen_files: the offset generator's file state off the I/O path (fio/offset/offgen.h): the
 * per-file distributions named after their files, the file a due sync goes to, and a copy of
 * the whole state (verify, experimental_verify). */
#include "fio/offset/offgen.h"

#include <string.h>

#include "fio/offset/fdist.h"
#include "fio/offset/offgen_fsvc.h"

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

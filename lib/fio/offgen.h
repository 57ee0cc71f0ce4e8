/* offgen: where the next I/O of a job goes — direction, file, offset and length — and when
 * the job has done all its I/O (fio 3.33's rules for runtime, time_based,
 * ramp_time, loops and the offset options).
 *
 * - Files are served round-robin (fio's file_service_type default), one I/O each.
 * - trimwrite: per file, a trim comes when the last trim and the last write started at the
 *   same offset, else a write (fio's rule); writes follow their own position and bs, and draw
 *   their sizes from a generator seeded like the trims' (fio seeds each direction alike), so
 *   with one bsrange / bssplit for both each write matches the trim before it.
 *   randtrimwrite: each trim is followed by a write of exactly the block just trimmed (also
 *   with norandommap, where a trim may land where the last write was). Only the writes
 *   count against size / io_size (fio counts the write direction of a trimwrite job).
 * - Sequential: per file and direction a position that advances by the length (plus the hole
 *   of rw=read:N, which wraps to the range start at the end). A file is done when the next
 *   block does not fit.
 * - Random: uniform block in the file's range, aligned to blockalign (default bs). With the
 *   random map (default) each map block is used once per pass: a taken block moves to the next
 *   free one, and an I/O is trimmed to the run of free blocks it covers (so bsrange jobs move
 *   exactly the range's bytes). The file is done when its map is full. norandommap, a
 *   blockalign other than bs and rw=randread:N (N>1) run without map.
 * - A pass ends when every file is done or when the bytes issued reach (io_size or size) x
 *   loops; further passes follow fio's keep_running(): one per loop, then more while the bytes
 *   issued are below io_size (or size when the files are not done) by at least the largest bs.
 * - bssplit: sizes from lib/dist.c's table; random_distribution other than random draws the
 *   block from lib/dist.c's generator and runs without map (fio: non-uniform, no random map).
 * - random_generator=lfsr: the random blocks come from a maximal-length LFSR over the file's
 *   blocks (lib/core/lfsr.c), so each is used once per pass with no random map; a file is done
 *   when its LFSR has given every block (fio's lfsr, not its sequence).
 * - time_based: files wrap (positions and maps reset) and the generator never ends by itself.
 *
 * The generator counts what it hands out: the runner issues every I/O it gets. */
#ifndef IOPS_OFFGEN_H
#define IOPS_OFFGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/dist.h"
#include "core/err.h"
#include "core/lfsr.h"
#include "fio/job.h"
#include "core/rng.h"

struct offgen_zone;

#define OFFGEN_MAX_MAP_BLOCKS	(1ull << 36)	/* 8 GiB of bitmap (256 TiB at 4k): beyond, refuse */

struct offgen_file {
	uint64_t io_start;	/* first byte of the I/O range in the file */
	uint64_t io_len;	/* bytes in the range */
	uint64_t nr_blocks;	/* random map blocks (io_len / map unit) */
	uint64_t nr_free;	/* map blocks not yet used in this pass */
	uint64_t *map;		/* 1 bit per block, set = used; NULL without a random map */
	uint64_t pos[DDIR_NR];	/* next sequential offset, relative to io_start */
	bool done;
	struct lfsr lfsr;	/* random_generator=lfsr: the blocks of a pass, each once */

	/* trim: trimwrite state, fio's last_start: start + 1 of the last trim [DDIR_TRIM] and
	 * write [DDIR_WRITE] (relative, 0 = none yet); a trim comes next when they are equal */
	uint64_t tw_start[DDIR_NR];
	uint64_t tw_trim_len;	/* length of the last trim (randtrimwrite writes exactly it) */
	bool tw_write_due;	/* randtrimwrite: the last I/O was a trim, its write comes next */
};

/* offgen_io.fresh: this I/O starts its file(s) over, as fio does when it goes round again
 * (the runner then drops the cached pages again, fio's invalidate). */
enum offgen_fresh {
	OFFGEN_FRESH_NONE = 0,
	OFFGEN_FRESH_FILE = 1,	/* time_based: this I/O's file wrapped (map full, or the end reached) */
	OFFGEN_FRESH_PASS = 2,	/* a new pass (loops, io_size beyond size): every file starts again */
};

struct offgen_io {
	enum ddir ddir;
	unsigned file;		/* index into the job's files */
	uint64_t offset;	/* absolute file offset */
	uint64_t len;
	enum offgen_fresh fresh;
};

struct offgen {
	struct offgen_file *files;
	unsigned nr_files;
	unsigned nr_done;
	unsigned cur;			/* next file to serve */

	struct rng rng_off, rng_mix, rng_bs;
	struct rng rng_bs_tw;		/* trim: trimwrite's write sizes, seeded as rng_bs (fio) */
	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR], align[DDIR_NR];
	uint64_t map_unit;		/* random map block size: smallest bs of the used directions */
	uint64_t max_bs;		/* largest bs of the used directions */
	bool has_dir[DDIR_NR];
	bool mixed;			/* reads and writes */
	unsigned rwmixread;
	bool random;
	unsigned percentage_random;
	bool use_map;
	bool use_lfsr;			/* random_generator=lfsr: each block once per pass, no map */
	bool bs_unaligned;
	uint64_t seq_add;		/* rw=read:N hole */
	unsigned same_nr;		/* rw=randread:N */
	unsigned same_left;
	bool wrap;			/* time_based */

	uint64_t limit_bytes;		/* io_size, or size */
	uint64_t pass_limit_bytes;	/* limit_bytes x loops: cumulative cap checked per I/O */
	bool io_size_set;
	unsigned loops;
	unsigned passes;		/* passes started */
	enum offgen_fresh fresh;	/* for the next I/O handed out */
	uint64_t pass_ios;		/* I/Os handed out in the current pass */
	bool ended;

	uint64_t issued_bytes;		/* cumulative, all directions */
	uint64_t issued_ios[DDIR_NR];

	/* dist: bssplit pickers and non-uniform offset generators per direction (NULL: unused) */
	struct dist_bs_pick *bs_pick[DDIR_NR];
	struct dist_gen *dist[DDIR_NR];
	/* rate: the direction of the next I/O, drawn ahead by offgen_peek_ddir() */
	bool ddir_drawn;
	enum ddir next_ddir;
	/* verify: offgen_next() returns false once at the end of each pass (paused, not ended) so
	 * the runner can run a verify phase; the bytes it read count in fio's keep_running(). */
	bool pause_passes;
	bool paused;
	uint64_t verify_bytes;
	/* trim: trimwrite: each block trimmed then written; only the writes count against size
	 * (each trim raises pass_limit_bytes by its length) */
	bool trimwrite;
	int only_dir;			/* the direction of a job that is not a mix */
	struct offgen_zone *zone;	/* zone: zonemode=strided (fio/offgen_zone.h), NULL without */
};

/* Set up og for job over nr_files files whose I/O ranges are io_start[i], io_len[i].
 * total_size is the job's size (sum of the ranges when size= was not given).
 * Returns 0, -EINVAL (nothing to do / bad geometry, err filled), -ENOMEM. */
int offgen_init(struct offgen *og, const struct job *job, const uint64_t *io_start,
		const uint64_t *io_len, unsigned nr_files, uint64_t total_size, struct iops_err *err);
void offgen_release(struct offgen *og);

/* The next I/O, or false when the job has done all its I/O. */
bool offgen_next(struct offgen *og, struct offgen_io *io);

/* rate: the direction the next offgen_next() will use (drawn now, kept until then), and a
 * way to change it (rate control switches a mixed job to the other direction). */
enum ddir offgen_peek_ddir(struct offgen *og);
void offgen_set_ddir(struct offgen *og, enum ddir d);

/* Start the sequential and random state of every file afresh (used by tests and time_based),
 * or of file i only (zone: a new zone). */
void offgen_reset_files(struct offgen *og);
void offgen_reset_file(struct offgen *og, unsigned i);

#endif

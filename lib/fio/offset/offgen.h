/* SPDX-License-Identifier: MIT */
/* offgen: where the next I/O of a job goes — direction, file, offset and length — and when
 * the job has done all its I/O (fio 3.33's rules for runtime, time_based,
 * ramp_time, loops and the offset options).
 *
 * - Files are served round-robin (fio's file_service_type default), one I/O each; the other
 *   file_service_type choices, openfiles and the trace's open / close points are
 *   fio/offset/offgen_fsvc.h's.
 * - trimwrite: per file, a trim comes when the last trim and the last write started at the
 *   same offset, else a write (fio's rule); writes follow their own position and bs, and draw
 *   their sizes from a generator seeded like the trims' (fio seeds each direction alike), so
 *   with one bsrange / bssplit for both each write matches the trim before it.
 *   randtrimwrite: each trim is followed by a write of exactly the block just trimmed (also
 *   with norandommap, where a trim may land where the last write was). Only the writes
 *   count against size / io_size (fio counts the write direction of a trimwrite job).
 * - Backwards (rw=read:-N): the next I/O starts N bytes before the end of the last one; below
 *   the range start it wraps to N bytes before the range end (fio's rule, which with offset=
 *   also starts the first I/O there: range end - offset - N). Passes do not restart it.
 * - Sequential: per file and direction a position that advances by the length (plus the hole
 *   of rw=read:N, which wraps to the range start when it reaches the end). A file is done when
 *   the next block does not fit (with holes too: a block cut short by the end ends the pass).
 * - Random: fio 3.33's sequence (same seeds, generators and order of draws: direction, then
 *   percentage_random's choice, then the block, then the size). The block is
 *   lastb * (r / (max + 1)) in units of blockalign (default bs), lastb the blocks of the
 *   range (less bs - blockalign when bs is larger). With the random map (default) each map
 *   block is used once per pass: a taken block moves to the next free one after it (wrapping),
 *   and an I/O is trimmed to the run of free blocks it covers (so bsrange jobs move exactly the
 *   range's bytes). The file is done when its map is full. norandommap and a blockalign
 *   other than bs run without map. rw=randread:N: every Nth I/O (the first one included) is
 *   random, the others follow on without marking the map; a sequential turn past the end
 *   takes a random block instead (unmarked), as in fio.
 * - Sizes (bsrange): min + max * (r / (max_r + 1)), rounded down to a multiple of min, capped
 *   at max, drawn again until the I/O fits; bssplit: the first entry (sorted by percentage)
 *   whose running sum covers r and that fits.
 * - rwmix: fio's runs: a direction is drawn (1..100 against rwmixread) once the current one
 *   has its share of I/Os; a change of direction sets the next share to the issues so far of
 *   the old direction x the new direction's percentage / 100.
 * - Each new pass starts every generator again from the job's seeds (fio's clear_io_state()),
 *   so it repeats the first pass.
 * - A pass ends when every file is done, when the bytes issued reach (io_size or size) x
 *   loops, or after number_ios I/Os (per pass, not time_based, as fio); further passes follow fio's keep_running(): one per loop, then more while the bytes
 *   issued are below io_size (or size when the files are not done) by at least the largest bs.
 * - bssplit: sizes from lib/dist.c's table; random_distribution other than random runs
 *   without map, as in fio: zipf / pareto / normal from fio's per-file generators
 *   (lib/fio/offset/fdist.c), zoned / zoned_abs a zone drawn 1..100 then a uniform block in it.
 * - random_generator=lfsr: the random blocks come from fio's LFSR over the file's blocks
 *   (lib/core/lfsr.c, seeded with the random block seed), so each is used once per pass with
 *   no random map; a file is done when its LFSR has given every block.
 * - time_based: files wrap (positions and maps reset) and the generator never ends by itself.
 *
 * The generator counts what it hands out: the runner issues every I/O it gets. */
#ifndef IOPS_OFFGEN_H
#define IOPS_OFFGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/offset/dist.h"
#include "fio/offset/fdist.h"
#include "core/err.h"
#include "core/lfsr.h"
#include "fio/job.h"
#include "core/frand.h"
#include "core/rng.h"

struct offgen_zone;
struct offgen_fsvc;
struct zbd_job;

#define OFFGEN_MAX_MAP_BLOCKS	(1ull << 36)	/* 8 GiB of bitmap (256 TiB at 4k): beyond, refuse */

struct offgen_file {
	uint64_t io_start;	/* first byte of the I/O range in the file */
	uint64_t io_len;	/* bytes in the range */
	uint64_t nr_blocks;	/* random map blocks (io_len / map unit) */
	uint64_t nr_free;	/* map blocks not yet used in this pass */
	uint64_t *map;		/* 1 bit per block, set = used; NULL without a random map */
	uint64_t pos[DDIR_NR];	/* next sequential offset, relative to io_start */
	uint64_t lastb[DDIR_NR];	/* random blocks (of blockalign) per direction: fio's last_block() */
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
	OFFGEN_FRESH_EVENTS = 4,	/* bit: files were opened or closed (og->fsvc's queue) */
};

struct offgen_io {
	enum ddir ddir;
	unsigned file;		/* index into the job's files */
	uint64_t offset;	/* absolute file offset */
	uint64_t len;
	enum offgen_fresh fresh;
	bool zbd_skip;		/* zbd: a trim that was a zone reset: nothing to do on the file */
};

struct offgen {
	struct offgen_file *files;
	unsigned nr_files;
	unsigned nr_done;
	unsigned cur;			/* next file to serve */

	/* fio 3.33's generators, seeded as fio seeds them (lib/fio/offset/fseed.c): the random block
	 * (tausworthe64 when random_generator says so), the read/write mix (always 32-bit), the
	 * block sizes and percentage_random's choice per direction */
	struct frand fr_block, fr_mix, fr_bs[DDIR_NR], fr_seq[DDIR_NR];
	struct frand fr_zone;		/* random_distribution=zoned / zoned_abs: the zone (32-bit) */
	unsigned rwmix[DDIR_NR];	/* % of reads, % of writes */
	int mix_ddir;			/* fio's rwmix_ddir: the direction of the current run */
	uint64_t mix_issues;		/* fio's rwmix_issues: draw again once mix_ddir has these */
	uint64_t mix_ios[DDIR_NR];	/* fio's io_issues: I/Os of the pass per direction */
	/* the seeds of the generators above, to start them again at each pass */
	uint64_t seed_block, seed_mix, seed_zone, seed_seq, seed_bs[DDIR_NR];
	bool use64;
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
	uint64_t seq_back;		/* rw=read:-N: each I/O starts N before the end of the last one */
	unsigned same_nr;		/* rw=randread:N: a random offset every N I/Os, the rest follow */
	unsigned same_left;		/* I/Os to the next random offset (fio's ddir_seq_nr) */
	bool same_ident;		/* rw_sequencer=identical: the others repeat its offset */
	bool bs_seq_rand;		/* bs_is_seq_rand: sizes of READ for sequential, WRITE for random */
	/* the placing of one I/O in a file: with the two above, or without (offgen.c) */
	bool (*file_next)(struct offgen *og, struct offgen_file *f, int d, struct offgen_io *io);
	bool wrap;			/* time_based */
	bool rand_wrap;			/* a full random map or LFSR starts over: wrap, or a skewed file service */

	uint64_t limit_bytes;		/* io_size, or size */
	uint64_t pass_limit_bytes;	/* limit_bytes x loops: cumulative cap checked per I/O */
	bool io_size_set;
	unsigned loops;
	unsigned passes;		/* passes started */
	enum offgen_fresh fresh;	/* for the next I/O handed out */
	uint64_t pass_ios;		/* I/Os handed out in the current pass */
	uint64_t number_ios;		/* number_ios: the pass ends after this many I/Os (0 = no cap) */
	bool nios_hit;			/* number_ios ended the last pass (no extra io_size pass) */
	bool ended;

	uint64_t issued_bytes;		/* cumulative, all directions */
	uint64_t issued_ios[DDIR_NR];

	/* dist: bssplit pickers and non-uniform offset generators per direction (NULL: unused) */
	struct dist_bs_pick *bs_pick[DDIR_NR];
	struct dist_gen *dist[DDIR_NR];
	/* fio's zipf / pareto / normal: one generator per file (NULL: not such a job); seeded
	 * from each file's name by offgen_name_files() */
	struct fdist *fdist;
	uint64_t fdist_block_seed;	/* FSEED_BLOCK: the seed without randrepeat */
	bool fdist_repeat;
	unsigned fdist_thread;
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
	struct offgen_zone *zone;	/* zone: zonemode=strided (fio/offset/offgen_zone.h), NULL without */
	struct offgen_fsvc *fsvc;	/* file service other than plain round robin (fio/offset/offgen_fsvc.h) */
	struct zbd_job *zbd;		/* zbd: zonemode=zbd (fio/offset/zbd.h), NULL without; freed here */
};

/* Set up og for job over nr_files files whose I/O ranges are io_start[i], io_len[i].
 * total_size is the job's size (sum of the ranges when size= was not given).
 * Returns 0, -EINVAL (nothing to do / bad geometry, err filled), -ENOMEM. */
int offgen_init(struct offgen *og, const struct job *job, const uint64_t *io_start,
		const uint64_t *io_len, unsigned nr_files, uint64_t total_size, struct iops_err *err);
void offgen_release(struct offgen *og);

/* random_distribution=zipf/pareto/normal: seed file i's generator from its name as fio does
 * (names[i], the file name as the job gives it). Without it the names are "". */
void offgen_name_files(struct offgen *og, const char *const *names);

/* fsync=N / fdatasync=N: fio issues the sync on the file its file service chooses next (a
 * turn of round robin or of file_service_type), so that file, or -1 when none is left. */
int offgen_sync_file(struct offgen *og);
/* Whether the job may issue more (bytes and number_ios left; time_based always). */
bool offgen_has_room(const struct offgen *og);

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

/* The generator's parts, one way down: offgen_init.c (set-up) calls offgen.c (the I/O's
 * placement and the passes), which calls offgen_fsvc.c and offgen_zone.c; all of them call
 * offgen_files.c (each file's state), which calls none of them.
 * offgen.c, for offgen_init.c: og->file_next for the job's rw_sequencer and bs_is_seq_rand,
 * and fio's generators (re)started from the job's seeds (at set-up and at each new pass). */
void offgen_pick_body(struct offgen *og);
void offgen_seed(struct offgen *og);
/* offgen_files.c: file f starts afresh (positions, map, LFSR), its random block counts kept. */
void offgen_file_reset(struct offgen *og, struct offgen_file *f);

/* verify (experimental_verify): dst, set up by offgen_init() for the same job and files,
 * takes src's whole state (positions, maps, generators) and keeps its own allocations, so that
 * it hands out from there the I/Os src hands out. */
void offgen_copy_state(struct offgen *dst, const struct offgen *src);

#endif

/* SPDX-License-Identifier: MIT */
/* iolog_replay: fio's I/O logs (trace format versions 2 and 3, fio's HOWTO "Trace file
 * format") read back: read_iolog and the replay_* options.
 *
 * A log is text, one action per line, after a header line "fio version 2 iolog" or
 * "fio version 3 iolog":
 *   v2: "NAME add|open|close", "NAME read|write|trim|sync|datasync OFFSET LENGTH",
 *       "NAME wait USEC 0" (delay from the previous wait; below 100 us ignored)
 *   v3: the same, each line starting with a timestamp (microseconds from the start of the
 *       run); no wait.
 * A header line later in the file (a log appended to by a second run, as write_iolog does)
 * starts a new segment: its timestamps continue from the last one before it.
 *
 * Two steps, like every other input (ARCHITECTURE.md, "parse, validate, plan"):
 * - iolog_replay_plan() (fioconf, before anything touches the volume) reads the whole log once,
 *   refuses a bad one with one line, and turns the job into what the replay needs: its files
 *   are the log's (or replay_redirect), sized to the largest byte the log touches, its
 *   directions those of the log, its buffers as large as the log's largest I/O.
 * - the runner reads the log again through struct iolog_replay: every entry at job start
 *   (read_iolog_chunked=0, fio's default), or IOLOG_REPLAY_CHUNK entries at a time while the job
 *   runs (read_iolog_chunked=1: bounded memory for any log size).
 * replay_scale divides offsets, then replay_align aligns them down; replay_skip drops kinds.
 * A blktrace (fio/log/blktrace.h: known by its magic, or merge_blktrace_file) is read the same
 * way through struct blktrace_src: its devices are the block devices of those numbers in /dev
 * (or replay_redirect), its timing the waits between queue events. */
#ifndef IOPS_IOLOG_REPLAY_H
#define IOPS_IOLOG_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/log/blktrace.h"
#include "fio/job.h"

#define IOLOG_REPLAY_CHUNK	1024u		/* entries held at a time with read_iolog_chunked=1 */
#define IOLOG_REPLAY_MAX_ENTS	(1ull << 25)	/* read_iolog_chunked=0: beyond, use chunked */
#define IOLOG_REPLAY_LINE_MAX	8192u		/* longest line (a path and four numbers) */

/* What an action does. The first three are the job's directions (enum ddir). */
enum iolog_op {
	IOLOG_OP_READ = 0, IOLOG_OP_WRITE = 1, IOLOG_OP_TRIM = 2, IOLOG_OP_SYNC, IOLOG_OP_DATASYNC,
	IOLOG_OP_ADD, IOLOG_OP_OPEN, IOLOG_OP_CLOSE, IOLOG_OP_WAIT,
	IOLOG_OP_SFR,		/* written only (sync_file_range=): replay does not know it, as fio */
};

/* replay_skip= bits */
#define IOLOG_SKIP_READ		(1u << 0)
#define IOLOG_SKIP_WRITE	(1u << 1)
#define IOLOG_SKIP_TRIM		(1u << 2)
#define IOLOG_SKIP_SYNC		(1u << 3)	/* sync and datasync */

/* One parsed line. name points into the line (NUL-terminated there). */
struct iolog_line {
	enum iolog_op op;
	uint64_t ts_us;		/* v3 only */
	const char *name;
	uint64_t offset, len;	/* I/O and wait lines */
};

/* The header: 2 or 3, or -EINVAL (not a fio iolog, or version 1). */
int iolog_replay_version(const char *line);
/* Parse one line of a version `version` log (modifies it). 0; 1 for a blank line; -EINVAL (a
 * bad line: unknown action, missing or garbage numbers, offset + length overflowing, a wait
 * in v3, a zero length read/write/trim). */
int iolog_replay_parse_line(char *line, int version, struct iolog_line *out);
/* replay_scale then replay_align applied to an offset (scale 0 is taken as 1). */
uint64_t iolog_replay_offset(uint64_t offset, uint64_t scale, uint64_t align);
/* replay_skip's value ("read,write"): the IOLOG_SKIP_* bits, or -EINVAL. */
int iolog_replay_skip_parse(const char *s, unsigned *bits);
/* replay_time_scale: a log time scaled (percent: 200 = twice as fast), in ns, saturating. */
uint64_t iolog_replay_time_ns(uint64_t ts_us, unsigned time_scale);

/* Config time: validate clone j's log and make j the replay job (see the top). The clone's
 * log is the (subjob % n)th of read_iolog's ':' list. 0, -EINVAL (err: one line), -ENOMEM. */
int iolog_replay_plan(struct job *j, struct iops_err *err);

/* One entry to replay. */
struct iolog_replay_ent {
	uint64_t t_ns;		/* when, from the start of the replay (scaled) */
	uint64_t offset, len;
	unsigned file;		/* index in the job's files */
	enum iolog_op op;	/* READ, WRITE, TRIM, SYNC, DATASYNC */
};

struct iolog_replay {
	FILE *f;
	const struct job *job;
	int version;
	unsigned long lineno;
	bool eof;
	char **names;		/* the log's files in "add" order (job file = index, or 0 redirected) */
	unsigned nr_names, cap_names;
	unsigned last_name;	/* lookup cache */
	uint64_t seg_base_us, last_us, wait_us;	/* segment base, last timestamp, v2 waits */
	bool seg_first;		/* the next timestamp starts a segment */
	struct iolog_replay_ent *ents;
	size_t nr, pos, cap;
	bool is_bt, bt_open;	/* a blktrace; its source is open */
	struct blktrace_src bt;
	struct blktrace_play play;
	uint32_t *devs;		/* blktrace: the device of names[i] */
	unsigned cap_devs;
	char line[IOLOG_REPLAY_LINE_MAX];
};

/* Open job's log for the run and (read_iolog_chunked=0) read all of it. 0 or -errno (err). */
int iolog_replay_open(struct iolog_replay *r, const struct job *job, struct iops_err *err);
/* The next entry: 1, 0 at the end, -EINVAL on a bad line (err). With chunking, this reads the
 * next chunk when the current one is used up (a bounded read, no allocation). */
int iolog_replay_next(struct iolog_replay *r, struct iolog_replay_ent *e, struct iops_err *err);
void iolog_replay_close(struct iolog_replay *r);

/* job.h strings of these options: copy for a clone, free. */
int iolog_replay_dup(struct job *dst, const struct job *src);
void iolog_replay_free(struct job *j);

#endif

/* SPDX-License-Identifier: MIT */
/* offgen_fsvc: which file a job's next I/O goes to when fio's default (round robin, one I/O
 * per file, every file at hand) is not enough: file_service_type and its :N, openfiles, and
 * the open and close points a write_iolog trace shows. Off (og->fsvc NULL) otherwise, so the
 * default path is offgen.c's plain round robin.
 *
 * fio 3.33's rules, which this follows:
 * - A file is opened when it is first chosen and closed when it is used up (its next block
 *   does not fit), and all open files are closed at the end of a pass.
 * - The file chosen last is kept while it is open: for sequential until it is used up, for the
 *   others for N I/Os (file_service_type=random:N, roundrobin:N; default 1).
 * - roundrobin and sequential take the next file in order after the last one tried; random
 *   draws fio's 32-bit (or 64-bit with tausworthe64) generator seeded with the job's file seed,
 *   nr_files * r / 2^32; zipf / pareto / normal draw fio's generators over nr_files << 10
 *   ranges without hashing, and take the range >> 10. A used-up file is done for the pass
 *   (not for zipf / pareto / normal: it starts over, as in fio).
 * - openfiles=N: choosing a file that is not open while N are is "busy": nothing is handed out
 *   for that attempt, and the next attempt chooses again (round robin has moved on by one,
 *   random has drawn), as fio's get_next_file() does.
 * - Each pass seeds the generators again (fio's clear_io_state()).
 * Events (a file opened, a file closed) are queued in order for the runner, which opens and
 * closes the descriptors (openfiles) and writes the trace lines, then clears the queue. */
#ifndef IOPS_OFFGEN_FSVC_H
#define IOPS_OFFGEN_FSVC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/frand.h"
#include "fio/offset/fdist.h"
#include "fio/job.h"

#define OFFGEN_FSVC_SHIFT	10	/* fio: ranges per file of the non-uniform choices */

struct offgen;

struct offgen_fsvc_ev {
	unsigned file;
	bool open;		/* else closed */
};

struct offgen_fsvc {
	unsigned type;			/* enum job_fsvc */
	unsigned per_turn;		/* fio's file_service_nr */
	unsigned left;			/* I/Os left in the current turn */
	int cur;			/* fio's file_service_file, -1 = none */
	unsigned next;			/* round robin: the next file to try */
	unsigned max_open, nr_open;
	unsigned nr_files;
	bool *open;
	bool *used;			/* an I/O since the file (re)started: a reset file that fails is done */
	uint64_t seed;
	bool use64;
	double param, center;
	struct frand r;			/* random */
	struct fdist z;			/* zipf, pareto, normal */
	struct offgen_fsvc_ev *ev;	/* queued events, nr_ev of them (capacity 4 x nr_files) */
	unsigned nr_ev;
};

/* Whether job needs it (given nr_files files and whether the trace is written). */
bool offgen_fsvc_wanted(const struct job *job, unsigned nr_files);
/* Allocate and seed og->fsvc for job (og->nr_files set). 0 or -ENOMEM. */
int offgen_fsvc_init(struct offgen *og, const struct job *job, uint64_t file_seed);
void offgen_fsvc_free(struct offgen *og);
/* A new pass: generators seeded again, every file closed (events) and not yet chosen. */
void offgen_fsvc_pass(struct offgen *og);
/* The file for the next attempt, opening it (event); -1 when busy (openfiles). */
int offgen_fsvc_pick(struct offgen *og);
/* File i gave an I/O. */
void offgen_fsvc_used(struct offgen *og, unsigned i);
/* File i has no block left: closed (event); true when it is done for the pass, false when it
 * started over (zipf / pareto / normal). */
bool offgen_fsvc_spent(struct offgen *og, unsigned i);
/* experimental_verify: dst takes src's state (dst keeps its own arrays). */
void offgen_fsvc_copy(struct offgen_fsvc *dst, const struct offgen_fsvc *src);
/* Events queued so far. */
unsigned offgen_fsvc_nr_ev(const struct offgen *og);
/* Whether file i is open (write_iolog's final close lines). */
bool offgen_fsvc_is_open(const struct offgen *og, unsigned i);

#endif

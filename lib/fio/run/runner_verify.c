/* SPDX-License-Identifier: MIT */
/* runner_verify: verify in the runner (fio/data/verify.h, fio/data/verify_log.h, runner_int.h): headers
 * on the writes, the log of written blocks, the read-backs of verify_backlog, the verify phase
 * that reads the rest back (or, with experimental_verify, replays the pass's offsets), and the
 * check of each read. */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <stdlib.h>

#include "fio/progress/eta.h"
#include "fio/offset/fseed.h"
#include "core/err.h"

/* vreq_kind: what a read is */
enum { VREQ_PLAIN = 0, VREQ_LOGGED = 1, VREQ_REPLAY = 2, VREQ_TRIMMED = 3 };

/* Writes of one pass may land on the same place: the log keeps the last (fio's rbtree). */
static bool worker_verify_overlap(const struct offgen *og)
{
	if (og->wrap)
		return true;
	if (og->random)
		return og->percentage_random < 100 || !(og->use_map || og->use_lfsr);
	return og->seq_add != 0;
}

/* experimental_verify: vog, a second generator over the same files that starts where og is
 * now (before the first I/O). */
static int worker_verify_replay_setup(struct worker *w, struct iops_err *err)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];
	uint64_t *starts = calloc(tj->nr_files, sizeof(*starts));
	uint64_t *lens = calloc(tj->nr_files, sizeof(*lens));
	int ret = -ENOMEM;

	if (!starts || !lens) {
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for the verify state", w->job->name);
		goto out;
	}
	for (unsigned f = 0; f < tj->nr_files; f++) {
		starts[f] = tj->files[f].io_start;
		lens[f] = tj->files[f].io_len;
	}
	ret = offgen_init(&w->vog, w->job, starts, lens, tj->nr_files, tj->total_size, err);
	if (ret < 0)
		goto out;
	w->vog_ready = true;
	offgen_copy_state(&w->vog, &w->og);	/* the same generators, seeds included */
	w->vog.pause_passes = true;		/* the replay is one pass */
out:
	free(starts);
	free(lens);
	return ret;
}

int worker_verify_setup(struct worker *w, struct iops_err *err)
{
	const struct job *job = w->job;

	verify_ctx_init(&w->vfy, job);
	w->vfy_fill = job->rw_has_write;
	w->vfy_check = !(w->ops->flags & ENGINE_F_DISKLESS);	/* fio checks nothing there either */
	w->vfy_phases = job->rw_has_write && job->do_verify && !w->og.wrap;
	/* fio: experimental_verify logs nothing, so it has no backlog either */
	w->vbl_on = job->rw_has_write && job->do_verify && job->verify_backlog && !job->experimental_verify;
	w->vexp = w->vfy_phases && job->experimental_verify;
	w->vfy_log = (w->vfy_phases && !w->vexp) || w->vbl_on;
	w->vfy_reads = w->vfy_check && (!job->rw_has_write || w->vbl_on);
	w->og.pause_passes = w->vfy_phases;
	verify_log_init(&w->vlog, worker_verify_overlap(&w->og), w->vbl_on ? job->verify_backlog : 0,
			job->verify_backlog_batch);
	verify_log_init(&w->tlog, false, 0, 0);
	w->vtrim = job->trim_percentage && w->vfy_log && !job->verify_only && !job->experimental_verify;
	w->tbl_on = w->vtrim && job->trim_backlog && job->rw_has_trim;
	if (w->vtrim) {	/* fio: r <= (max / 100) * percentage of the trim generator */
		uint64_t seeds[FSEED_NR];
		bool use64 = fseed_use64(job);

		fseed_job(seeds, job);
		frand_init(&w->trim_rng, seeds[FSEED_TRIM], use64);
		w->trim_cut = (use64 ? UINT64_MAX : UINT32_MAX) / 100u * job->trim_percentage;
	}
	w->vreq_seed = calloc(w->depth, sizeof(*w->vreq_seed));
	w->vreq_kind = calloc(w->depth, sizeof(*w->vreq_kind));
	if (!w->vreq_seed || !w->vreq_kind) {
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for the verify state", job->name);
		return -ENOMEM;
	}
	return w->vexp ? worker_verify_replay_setup(w, err) : 0;
}

void worker_verify_teardown(struct worker *w)
{
	if (w->vtrim && verify_log_pending(&w->tlog))
		fprintf(w->diag, "fio: %zu trim entries leaked?\n", verify_log_pending(&w->tlog));
	w->vtrim = false;
	verify_log_release(&w->tlog);
	verify_log_release(&w->vlog);
	free(w->vreq_seed);
	free(w->vreq_kind);
	w->vreq_seed = NULL;
	w->vreq_kind = NULL;
	if (w->vog_ready)
		offgen_release(&w->vog);
	w->vog_ready = false;
}

void worker_verify_read(struct worker *w, struct io_req *req)
{
	const struct job *job = w->job;
	unsigned kind = w->vreq_kind ? w->vreq_kind[req->index] : VREQ_PLAIN;
	struct verify_io vio = {
		.path = req->file_idx < job->nr_files ? job->filenames[req->file_idx] : job->name,
		.offset = req->offset,
		.len = req->len,
		.flags = kind != VREQ_PLAIN ? 0x88u : 0x8u,
		.seed_known = kind == VREQ_LOGGED && job->verify_pattern_len == 0 && !w->vonly,
		.seed = w->vreq_seed ? w->vreq_seed[req->index] : 0,
	};

	if (job->rw_has_write && kind == VREQ_PLAIN)
		return;	/* a read of a mix: fio checks only what it reads back */
	if (job->verify_fatal && w->error)
		return;
	if (kind == VREQ_TRIMMED) {	/* trim_verify_zero: a trimmed block reads back as zeros */
		if (verify_check_zero(req->buf, &vio, w->diag) == 0 || w->error)
			return;
	} else if (verify_check(&w->vfy, req->buf, &vio, w->diag) == 0 || w->error) {
		return;
	}
	if (worker_err_continues(job, JOB_ERR_VERIFY, EILSEQ)) {
		/* continue_on_error=verify: counted, the first one is the job's error (fio prints no
		 * function for it), the job goes on */
		if (!w->res->total_err++) {
			w->res->first_error = EILSEQ;
			w->res->error = EILSEQ;
			w->res->err_continued = true;
		}
		return;
	}
	if (job->cont_on_err && !w->res->total_err++)	/* other kinds only: fio 3.33 counts the */
		w->res->first_error = 1;		/* fatal one, with 1 as its error number */
	/* fio's td_verror() text, with glibc's err_str(EILSEQ) as fio prints it */
	w->error = EILSEQ;
	w->res->error = EILSEQ;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:%s, error=Invalid or incomplete multibyte or wide character",
		 (w->ops->flags & ENGINE_F_SYNC) ? "io_u.c:2152, func=io_u_sync_complete" :
		 "io_u.c:2190, func=io_u_queued_complete");
}

/* A request of a verifying writer: a write gets its headers and is logged for the read-back;
 * a read-back remembers the seed it must find. */
void worker_verify_prep(struct worker *w, struct io_req *req)
{
	uint64_t seq, seed;
	struct verify_ent e;

	if (req->op != IO_WRITE) {
		w->vlast_read = true;
		w->vreq_kind[req->index] = w->vcur_kind;
		w->vreq_seed[req->index] = w->vcur_seed;
		w->vcur_kind = VREQ_PLAIN;
		return;
	}
	w->vlast_read = false;
	seq = w->vlog_seq++;
	seed = w->vonly ? 0 : verify_fill(&w->vfy, req->buf, req->len, req->offset, &w->vfy_rng, (uint32_t)seq,
					   clock_now_ns());
	if (!w->vfy_log)
		return;
	e.offset = req->offset;
	e.len = (uint32_t)req->len;
	e.file = req->file_idx;
	e.seed = seed;
	e.seq = seq;
	e.flags = 0;
	if (verify_log_add(&w->vlog, &e) ||
	    (w->vtrim && frand_next(&w->trim_rng) <= w->trim_cut && verify_log_add(&w->tlog, &e))) {
		fprintf(w->diag, "fio: %s: out of memory for the verify log (%zu blocks)\n", w->job->name,
			verify_log_pending(&w->vlog));
		worker_set_error(w, ENOMEM, "verify.c:0", "log_io_piece");
	}
}

/* The read-back of e next: io filled, its seed kept for the check. */
static void worker_verify_use(struct worker *w, const struct verify_ent *e, struct offgen_io *io)
{
	if (e->seq >= w->vdone_seq) {
		w->drain(w);	/* its write may still be in flight: let it land first */
		w->vdone_seq = w->vlog_seq;
	}
	io->ddir = DDIR_READ;
	io->file = e->file;
	io->offset = e->offset;
	io->len = e->len;
	io->fresh = OFFGEN_FRESH_NONE;
	w->vcur_seed = e->seed;
	w->vcur_kind = (e->flags & VERIFY_ENT_TRIMMED) ? VREQ_TRIMMED : VREQ_LOGGED;
	w->og.verify_bytes += e->len;
}

void worker_verify_dry(struct worker *w, struct io_req *req)
{
	struct ddir_result *dr = &w->res->ddir[req->op];

	dr->io_bytes += req->len;	/* fio counts them, with no latency worth reporting */
	dr->total_ios++;
	w->res->depth_map[0]++;
	w->free_reqs[w->nr_free++] = req;
}

/* fio 3.33's rule, as for verify_backlog but before it: with blocks drawn, a trim comes first
 * while a batch is under way, or when the count of logged blocks is a multiple of N and the
 * last I/O was not a read (then a batch of trim_backlog_batch, default N, starts after this
 * trim). A drawn block read back or replaced since is skipped. */
bool worker_trim_backlog(struct worker *w, struct offgen_io *io)
{
	struct verify_ent e, *v;

	if (!verify_log_pending(&w->tlog))
		return false;
	if (w->tleft) {
		w->tleft--;
	} else if (!(verify_log_pending(&w->vlog) % w->job->trim_backlog) && !w->vlast_read) {
		w->tleft = w->job->trim_backlog_batch ? w->job->trim_backlog_batch : w->job->trim_backlog;
	} else {
		return false;
	}
	while (verify_log_pop(&w->tlog, &e)) {
		v = verify_log_find(&w->vlog, e.seq);
		if (!v || v->flags)
			continue;
		if (e.seq >= w->vdone_seq) {
			w->drain(w);	/* its write may still be in flight: let it land first */
			w->vdone_seq = w->vlog_seq;
		}
		if (w->job->trim_verify_zero) {
			v->flags |= VERIFY_ENT_TRIMMED;
		} else {
			v->flags |= VERIFY_ENT_DROPPED;	/* fio forgets it */
			w->vlog.dropped++;
		}
		io->ddir = DDIR_TRIM;
		io->file = e.file;
		io->offset = e.offset;
		io->len = e.len;
		io->fresh = OFFGEN_FRESH_NONE;
		return true;
	}
	return false;
}

bool worker_verify_backlog(struct worker *w, struct offgen_io *io)
{
	struct verify_ent e;

	if (!verify_log_backlog_next(&w->vlog, w->vlast_read, &e))
		return false;
	worker_verify_use(w, &e, io);
	return true;
}

/* The pass just ended: its blocks are read back next (the log's order, or the replay of the
 * pass with experimental_verify). Returns false when the job stops instead. */
bool worker_verify_start(struct worker *w)
{
	uint64_t t;

	w->drain(w);
	t = clock_src_now(w->clk);
	w->vio_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->nr_vphases++;
	if (w->error || ctl_stopped(w->ctl))
		return false;
	w->vdone_seq = w->vlog_seq;
	verify_log_phase(&w->vlog);
	w->vexp_phase = w->vexp;
	w->vfy_in_phase = true;
	w->vfy_reads = w->vfy_check;
	worker_set_state(w, 'V');
	return true;
}

/* experimental_verify: the next write of the replayed pass, as a read. fio 3.33 counts these
 * reads as I/O of the job (size, io_size, loops) and verifies the first pass only. */
static bool worker_verify_replay(struct worker *w, struct offgen_io *io)
{
	while (offgen_next(&w->vog, io)) {
		if (io->ddir != DDIR_WRITE)
			continue;
		io->ddir = DDIR_READ;
		io->fresh = OFFGEN_FRESH_NONE;
		w->vcur_kind = VREQ_REPLAY;
		w->vcur_seed = 0;
		w->og.issued_bytes += io->len;
		return true;
	}
	w->og.pause_passes = false;
	return false;
}

/* The next block to read back; at the end of the phase, false (and back to writing). */
bool worker_verify_next(struct worker *w, struct offgen_io *io)
{
	struct verify_ent e;
	uint64_t t;

	if (w->vexp_phase ? worker_verify_replay(w, io) : verify_log_pop(&w->vlog, &e)) {
		if (!w->vexp_phase)
			worker_verify_use(w, &e, io);
		return true;
	}
	w->drain(w);
	t = clock_src_now(w->clk);
	w->vread_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->vexp_phase = false;
	w->vfy_in_phase = false;
	w->vfy_reads = w->vfy_check && (!w->job->rw_has_write || w->vbl_on);
	worker_set_state(w, eta_run_char(w->job));
	return false;
}

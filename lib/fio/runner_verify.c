/* runner_verify: verify in the runner (fio/verify.h, runner_int.h): headers on the writes, the
 * log of written blocks, the verify phase that reads them back, and the check of each read. */
#include "fio/runner_int.h"

#include <errno.h>
#include <stdlib.h>

#include "fio/eta.h"

void worker_verify_read(struct worker *w, struct io_req *req)
{
	const struct job *job = w->job;
	struct verify_io vio = {
		.path = req->file_idx < job->nr_files ? job->filenames[req->file_idx] : job->name,
		.offset = req->offset,
		.len = req->len,
		.flags = w->vfy_in_phase ? 0x88u : 0x8u,
		.seed_known = w->vfy_in_phase && job->verify_pattern_len == 0,
		.seed = w->vreq_seed ? w->vreq_seed[req->index] : 0,
	};

	if (job->verify_fatal && w->error)
		return;
	if (verify_check(&w->vfy, req->buf, &vio, w->diag) == 0 || w->error)
		return;
	/* fio's td_verror() text, with glibc's strerror(EILSEQ) as fio prints it */
	w->error = EILSEQ;
	w->res->error = EILSEQ;
	snprintf(w->res->verror, sizeof(w->res->verror), "file:%s, error=Invalid or incomplete multibyte or wide character",
		 (w->ops->flags & ENGINE_F_SYNC) ? "io_u.c:2152, func=io_u_sync_complete" :
		 "io_u.c:2190, func=io_u_queued_complete");
}

/* A request of a verifying writer: a write gets its headers and is logged for the verify
 * phase; a read-back remembers the seed it must find. */
void worker_verify_prep(struct worker *w, struct io_req *req)
{
	uint64_t seq, seed;
	struct verify_ent *e;

	if (req->op != IO_WRITE) {
		if (w->vfy_in_phase)
			w->vreq_seed[req->index] = w->vcur_seed;
		return;
	}
	seq = w->vlog_seq++;
	seed = verify_fill(&w->vfy, req->buf, req->len, req->offset, &w->buf_rng, (uint32_t)seq, clock_now_ns());
	if (!w->vfy_phases)
		return;
	if (w->vlog_nr == w->vlog_cap) {
		size_t cap = w->vlog_cap ? w->vlog_cap * 2 : 4096;
		struct verify_ent *n = cap > SIZE_MAX / sizeof(*n) ? NULL : realloc(w->vlog, cap * sizeof(*n));

		if (!n) {
			fprintf(w->diag, "fio: %s: out of memory for the verify log (%zu blocks)\n", w->job->name, cap);
			worker_set_error(w, ENOMEM, "verify.c:0", "log_io_piece");
			return;
		}
		w->vlog = n;
		w->vlog_cap = cap;
	}
	e = &w->vlog[w->vlog_nr++];
	e->offset = req->offset;
	e->len = (uint32_t)req->len;
	e->file = req->file_idx;
	e->seed = seed;
	e->seq = seq;
}

/* The pass just ended: its blocks are read back next (sorted by file and offset, the last
 * write of a block wins). Returns false when the job stops instead. */
bool worker_verify_start(struct worker *w)
{
	uint64_t t;

	worker_drain(w);
	t = clock_src_now(w->clk);
	w->vio_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->nr_vphases++;
	if (w->error || ctl_stopped(w->ctl))
		return false;
	w->vlog_nr = verify_log_sort(w->vlog, w->vlog_nr);
	w->vlog_pos = 0;
	w->vfy_in_phase = true;
	w->vfy_reads = w->vfy_check;
	worker_set_state(w, 'V');
	return true;
}

/* The next block to read back; at the end of the phase, false (and back to writing). */
bool worker_verify_next(struct worker *w, struct offgen_io *io)
{
	uint64_t t;

	if (w->vlog_pos < w->vlog_nr) {
		const struct verify_ent *e = &w->vlog[w->vlog_pos++];

		io->ddir = DDIR_READ;
		io->file = e->file;
		io->offset = e->offset;
		io->len = e->len;
		io->fresh = OFFGEN_FRESH_NONE;
		w->vcur_seed = e->seed;
		w->og.verify_bytes += e->len;
		return true;
	}
	worker_drain(w);
	t = clock_src_now(w->clk);
	w->vread_ns += t > w->vseg_t0_ns ? t - w->vseg_t0_ns : 0;
	w->vseg_t0_ns = t;
	w->vlog_nr = 0;
	w->vfy_in_phase = false;
	w->vfy_reads = w->vfy_check && !w->job->rw_has_write;
	worker_set_state(w, eta_run_char(w->job));
	return false;
}

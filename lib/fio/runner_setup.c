/* runner_setup: a job's set-up and teardown (runner_int.h): aligned buffers, the request
 * pool, the offset generator, verify state, the files and the engine; closing them all, and
 * end_fsync. Runs once per job, never in the I/O loop. */
#include "fio/runner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RUNNER_BUF_ALIGN	4096u

int worker_setup(struct worker *w, struct iops_err *err)
{
	const struct job *job = w->job;
	const struct target_job *tj = &w->ts->jobs[w->idx];
	struct engine_opts eopts = job->eng;
	char note[256] = "";
	struct engine_cfg ecfg = { .depth = job->iodepth ? job->iodepth : 1, .direct = job->direct,
				   .opts = &eopts, .nr_files = tj->nr_files,
				   .paths = job->nr_files == tj->nr_files ? job->filenames : NULL, .job_name = job->name,
				   .runtime_ns = job->runtime_ns, .rw_write = job->rw_has_write,
				   .ctl = w->ctl, .note = note, .note_cap = sizeof(note) };
	uint64_t max_bs = 0, buf_bytes;
	uint64_t *starts = NULL, *lens = NULL;
	int ret;

	for (int d = 0; d < DDIR_NR; d++)
		if (job->bs_max[d] > max_bs)
			max_bs = job->bs_max[d];
	w->depth = ecfg.depth;
	if (max_bs == 0 || max_bs > RUNNER_MAX_BUF_BYTES || w->depth > RUNNER_MAX_BUF_BYTES / max_bs) {
		iops_err_set(err, EINVAL, "fio: %s: iodepth %u x bs %llu is too much buffer memory", job->name,
			     w->depth, (unsigned long long)max_bs);
		return -EINVAL;
	}
	max_bs = (max_bs + RUNNER_BUF_ALIGN - 1) / RUNNER_BUF_ALIGN * RUNNER_BUF_ALIGN;
	/* One buffer per request, as fio. Sharing buffers between read-only O_DIRECT requests
	 * would cut memory (seed 000: 8 jobs x QD256 x 128 KiB = 256 MiB) but was measured here to
	 * cost 35-50% of the throughput (16 or 64 shared buffers per job, virtio disk). */
	buf_bytes = max_bs * w->depth;
	w->batch_submit = job->iodepth_batch_submit ? job->iodepth_batch_submit : 1;
	if (w->batch_submit > w->depth)
		w->batch_submit = w->depth;
	w->cmin = job->iodepth_batch_complete_min;
	if (w->cmin > w->depth)
		w->cmin = w->depth;
	w->cmax = job->iodepth_batch_complete_max ? job->iodepth_batch_complete_max : 1;
	if (w->cmax < w->cmin)
		w->cmax = w->cmin;
	if (w->cmax > w->depth || w->cmax == 0)
		w->cmax = w->depth;
	w->depth_low = job->iodepth_low && job->iodepth_low <= w->depth ? job->iodepth_low : w->depth;
	/* Engines that set issue_ns themselves (ENGINE_F_SETS_ISSUE) read CLOCK_MONOTONIC; the
	 * runner's clock is the calibrated TSC, so it stamps issue_ns itself after commit()
	 * (one read per batch, as the engine would) to keep every timestamp on one time base. */
	w->sets_issue = false;

	w->fds = calloc(tj->nr_files, sizeof(*w->fds));
	w->reqs = calloc(w->depth, sizeof(*w->reqs));
	w->free_reqs = calloc(w->depth, sizeof(*w->free_reqs));
	w->pend = calloc(w->depth, sizeof(*w->pend));
	w->done = calloc(w->depth, sizeof(*w->done));
	if (!w->fds || !w->reqs || !w->free_reqs || !w->pend || !w->done)
		goto nomem;
	for (unsigned f = 0; f < tj->nr_files; f++)
		w->fds[f] = -1;
	if (posix_memalign(&w->buf_mem, RUNNER_BUF_ALIGN, (size_t)buf_bytes))
		goto nomem;
	rng_init(&w->buf_rng, rng_job_seed(job->randseed, job->allrandrepeat || job->randseed_set,
					   job->thread_number, RNG_BUF));
	if (job->zero_buffers)
		memset(w->buf_mem, 0, (size_t)buf_bytes);
	else
		rng_fill(&w->buf_rng, w->buf_mem, (size_t)buf_bytes);

	starts = calloc(tj->nr_files, sizeof(*starts));
	lens = calloc(tj->nr_files, sizeof(*lens));
	if (!starts || !lens)
		goto nomem;
	for (unsigned f = 0; f < tj->nr_files; f++) {
		starts[f] = tj->files[f].io_start;
		lens[f] = tj->files[f].io_len;
	}
	ret = offgen_init(&w->og, job, starts, lens, tj->nr_files, tj->total_size, err);
	free(starts);
	free(lens);
	starts = lens = NULL;
	if (ret < 0)
		return ret;
	w->og_ready = true;
	if (job->verify != VERIFY_NONE) {	/* verify */
		verify_ctx_init(&w->vfy, job);
		w->vfy_fill = job->rw_has_write;
		w->vfy_check = !(w->ops->flags & ENGINE_F_DISKLESS);	/* fio checks nothing there either */
		w->vfy_reads = w->vfy_check && !job->rw_has_write;
		w->vfy_phases = job->rw_has_write && job->do_verify && !w->og.wrap;
		w->og.pause_passes = w->vfy_phases;
		w->vreq_seed = calloc(w->depth, sizeof(*w->vreq_seed));
		if (!w->vreq_seed)
			goto nomem;
	}

	ret = target_open(w->ts, w->idx, w->fds, w->diag, err);
	if (ret < 0)
		return ret;
	if (eopts.net.port)	/* net: numjobs clones take the next ports */
		eopts.net.port += job->subjob;
	ret = w->ops->init(&ecfg, &w->ectx, err);
	if (note[0])	/* the engine's line as it starts (cpuio), on stdout with normal output */
		fprintf(w->info ? w->info : w->diag, "%s\n", note);
	if (ret < 0) {
		if (!iops_err_isset(err))
			iops_err_set(err, -ret, "fio: io engine %s init failed. Perhaps try reducing io depth?",
				     w->ops->name);
		w->ectx = NULL;
		return ret;
	}
	for (unsigned i = 0; i < w->depth; i++) {
		struct io_req *req = &w->reqs[i];

		req->buf = (char *)w->buf_mem + (size_t)max_bs * i;
		req->index = i;
		req->fd = -1;
		if (w->ops->prep) {
			ret = w->ops->prep(w->ectx, req);
			if (ret < 0) {
				iops_err_set(err, -ret, "fio: io engine %s: preparing requests failed: %s", w->ops->name,
					     strerror(-ret));
				return ret;
			}
		}
		w->free_reqs[w->depth - 1 - i] = req;
	}
	w->nr_free = w->depth;
	return 0;

nomem:
	free(starts);
	free(lens);
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for %u requests of %llu bytes", job->name, w->depth,
		     (unsigned long long)max_bs);
	return -ENOMEM;
}

void worker_teardown(struct worker *w)
{
	if (w->ectx)
		w->ops->cleanup(w->ectx);
	w->ectx = NULL;
	if (w->fds) {
		int ret = target_close(w->ts, w->idx, w->fds);

		if (ret < 0 && !w->error)
			worker_set_error(w, -ret, "filesetup.c:0", "fsync/close");
	}
	if (w->og_ready)
		offgen_release(&w->og);
	w->og_ready = false;
	free(w->buf_mem);
	free(w->vlog);		/* verify */
	free(w->vreq_seed);
	w->vlog = NULL;
	w->vreq_seed = NULL;
	free(w->fds);
	free(w->reqs);
	free(w->free_reqs);
	free(w->pend);
	free(w->done);
	w->buf_mem = NULL;
	w->fds = NULL;
	w->reqs = NULL;
	w->free_reqs = w->pend = w->done = NULL;
}

void worker_end_fsync(struct worker *w)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];

	if (!w->job->end_fsync || !w->job->rw_has_write || tj->diskless)
		return;
	for (unsigned f = 0; f < tj->nr_files; f++)
		if (w->fds[f] >= 0 && fsync(w->fds[f]) < 0)
			worker_set_error(w, errno, "backend.c:0", "fsync");
}

void worker_files_fresh(struct worker *w, const struct offgen_io *io)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];

	if (tj->diskless)
		return;
	if (io->fresh == OFFGEN_FRESH_FILE) {
		/* time_based wrap: fio drops the pages again only for buffered I/O */
		if (!w->job->direct)
			target_invalidate(w->ts, w->idx, io->file, w->fds[io->file], w->diag);
		return;
	}
	for (unsigned f = 0; f < tj->nr_files; f++) {
		target_invalidate(w->ts, w->idx, f, w->fds[f], w->diag);
		target_advise(w->ts, w->idx, f, w->fds[f], w->diag);
	}
}

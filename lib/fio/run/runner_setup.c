/* SPDX-License-Identifier: MIT */
/* runner_setup: a job's set-up and teardown (runner_int.h): aligned buffers, the request
 * pool, the offset generator, verify state, the files and the engine; closing them all, and
 * end_fsync. Runs once per job, never in the I/O loop. */
#include "fio/run/runner_int.h"
#include "fio/offset/offgen_fsvc.h"
#include "fio/ioprio.h"

#include "fio/debug.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/offset/offgen_zone.h"
#include "fio/offset/zbd.h"
#include "core/err.h"

#define RUNNER_BUF_ALIGN	4096u
#define RUNNER_READY_MAX	16u	/* batching by readiness: the most requests per reap and commit */

/* zone: the size of each of the job's files (where its zones wrap), into ends. */
static uint64_t *worker_file_ends(const struct target_set *ts, const struct target_job *tj,
				  uint64_t *ends)
{
	for (unsigned f = 0; f < tj->nr_files; f++) {
		const struct target_jobfile *jf = &tj->files[f];
		uint64_t end = jf->io_start + jf->io_len, size = 0;

		if (!tj->diskless) {
			const struct target_path *p = &ts->paths[jf->path];

			size = p->kind == TARGET_BDEV || p->cur_size > p->want_size ? p->cur_size
										     : p->want_size;
		}
		ends[f] = size > end ? size : end;
	}
	return ends;
}

void worker_prio_slots(struct worker *w)
{
	for (unsigned d = 0; w->prio_on && d < DDIR_NR; d++) {
		uint16_t v[IOPRIO_SLOTS];

		w->res->ddir[d].nr_prio = ioprio_values(w->job, d, v, IOPRIO_SLOTS);
		for (unsigned i = 0; i < w->res->ddir[d].nr_prio; i++)
			w->res->ddir[d].prio[i].ioprio = v[i];
	}
}

/* zbd: the job's view of its files' zones (planned by target_zbd_plan()). */
static int worker_zbd_setup(struct worker *w, const struct target_job *tj, struct iops_err *err)
{
	struct zbd_job *zj = zbd_job_new(w->job, tj->nr_files);

	if (!zj) {
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for the zones", w->job->name);
		return -ENOMEM;
	}
	for (unsigned f = 0; f < tj->nr_files; f++) {
		struct zbd_dev *dev = tj->zbd ? tj->zbd[f] : w->ts->paths[tj->files[f].path].zbd;

		if (dev)
			zbd_job_file(zj, f, dev, tj->files[f].io_start, tj->files[f].io_len);
	}
	zj->fds = w->fds;
	zbd_job_pass(zj, w->job->rw_has_write);	/* fio's file reset, at open */
	w->og.zbd = zj;
	return 0;
}

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
	if (job->replay_max_len > max_bs)
		max_bs = job->replay_max_len;	/* iolog: read_iolog's largest I/O */
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
	/* Batching by readiness: unless the job gives iodepth_batch_submit or
	 * iodepth_batch_complete_max, one reap takes the completions that are there, up to a
	 * quarter of the depth (at most RUNNER_READY_MAX), and one commit submits the requests they
	 * freed (fio: one of each per request at these defaults). A quarter: taking the whole queue
	 * at once left the device idle while the batch was refilled (QD32 on the virtio disk here:
	 * 72k IOPS against fio's 96k; with 8, as fast as fio at half its CPU per I/O). Paced jobs
	 * (rate, thinktime, flow) keep fio's one-by-one submission. */
	if (job->batch_ready && !rate_enabled(job) && !job->thinktime_ns && !job->flow) {
		unsigned b = w->depth / 4 < RUNNER_READY_MAX ? w->depth / 4 : RUNNER_READY_MAX;

		w->batch_submit = b ? b : 1;
		w->cmax = w->batch_submit;
		w->batch_auto = true;
	}
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
	if (job->serialize_overlap && w->depth > 1) {	/* at depth 1 nothing can overlap */
		w->ser_mark = calloc(w->depth, sizeof(*w->ser_mark));
		if (!w->ser_mark)
			goto nomem;
	}
	for (unsigned f = 0; f < tj->nr_files; f++)
		w->fds[f] = -1;
	if (job->lat_target_ns) {	/* latency_target: room for the requests beyond its depth */
		w->parked = calloc(w->depth, sizeof(*w->parked));
		if (!w->parked)
			goto nomem;
	}
	if (job->sfr_every) {	/* sync_file_range: each file's written range */
		w->sfr_lo = malloc(tj->nr_files * sizeof(*w->sfr_lo));
		w->sfr_hi = calloc(tj->nr_files, sizeof(*w->sfr_hi));
		if (!w->sfr_lo || !w->sfr_hi)
			goto nomem;
		for (unsigned f = 0; f < tj->nr_files; f++)
			w->sfr_lo[f] = UINT64_MAX;
	}
	{	/* mem=, iomem_align */
		const char *func;

		ret = iomem_alloc(&w->iomem, &job->proc, (size_t)buf_bytes, &func);
		if (ret < 0) {
			iops_err_set(err, -ret, "fio: %s: cannot allocate %llu bytes of I/O buffers (%s): %s", job->name,
				     (unsigned long long)buf_bytes, func, err_str(-ret));
			worker_set_error(w, -ret, "memory.c:0", func);
			return ret;
		}
		w->buf_mem = w->iomem.buf;
	}
	rng_init(&w->buf_rng, rng_job_seed(job->randseed, job->allrandrepeat || job->randseed_set,
					   job->thread_number, RNG_BUF));
	/* verify: fio seeds each block's data from its verify stream, repeatable unless randrepeat=0
	 * without a randseed: the same job writes the same data, run after run */
	rng_init(&w->vfy_rng, rng_job_seed(job->randseed, job->randrepeat || job->allrandrepeat || job->randseed_set,
					   job->thread_number, RNG_VERIFY));
	w->job_prio = ioprio_job_value(job);	/* cmdprio */
	w->prio_on = job->cmdprio_on;
	rng_init(&w->prio_rng, rng_job_seed(job->randseed, job->allrandrepeat || job->randseed_set,
					    job->thread_number, RNG_BUF) ^ 0x70726f6972697479ull);
	worker_prio_slots(w);
	bufgen_init(&w->bg, job, rng_job_seed(job->randseed, job->allrandrepeat || job->randseed_set,
					     job->thread_number, RNG_BUF) ^ 0xb0f,
		    tj->total_size, max_bs);
	w->refill = bufgen_refills(job);
	/* scramble only what reaches storage: the null engine's buffers go nowhere */
	w->scramble = bufgen_scrambles(job) && job->rw_has_write && !(w->ops->flags & ENGINE_F_DISKLESS);
	for (unsigned i = 0; i < w->depth; i++)
		bufgen_fill_initial(&w->bg, job, (char *)w->buf_mem + (size_t)max_bs * i, (size_t)max_bs,
				    &w->buf_rng);

	starts = calloc(tj->nr_files, sizeof(*starts));
	lens = calloc(tj->nr_files, sizeof(*lens));
	if (!starts || !lens)
		goto nomem;
	for (unsigned f = 0; f < tj->nr_files; f++) {
		starts[f] = tj->files[f].io_start;
		lens[f] = tj->files[f].io_len;
	}
	ret = offgen_init(&w->og, job, starts, lens, tj->nr_files, tj->total_size, err);
	if (ret == 0) {
		w->og_ready = true;
		if (job->zone_mode == ZONE_MODE_STRIDED)	/* zone: lens become the file ends */
			ret = offgen_zone_setup(&w->og, job, worker_file_ends(w->ts, tj, lens), err);
		else if (job->zone_mode == ZONE_MODE_ZBD)
			ret = worker_zbd_setup(w, tj, err);
	}
	free(starts);
	free(lens);
	starts = lens = NULL;
	if (ret < 0)
		return ret;
	if (w->og.fdist) {	/* fio seeds zipf / pareto / normal from the file names */
		const char **names = calloc(tj->nr_files, sizeof(*names));

		if (!names)
			goto nomem;
		for (unsigned f = 0; f < tj->nr_files; f++)	/* the job's names, as fio's file_name */
			names[f] = job->filenames && f < job->nr_files ? job->filenames[f] : "";
		offgen_name_files(&w->og, names);
		free(names);
	}
	w->vonly = job->verify_only && job->rw_has_write;	/* verify_only */
	if (job->verify != VERIFY_NONE) {	/* verify */
		ret = worker_verify_setup(w, err);
		if (ret < 0)
			return ret;
		ret = worker_vstate_setup(w, err);	/* verify_state_save */
		if (ret < 0)
			return ret;
	}

	if (job->pre_read)	/* pre_read: through the page cache once before the job */
		target_pre_read(w->ts, w->idx, w->diag);
	ret = target_open(w->ts, w->idx, w->fds, w->diag, err);
	if (!ret && w->ts->locks && job->lockfile != JOB_LOCK_NONE && !tj->diskless) {	/* lockfile */
		w->locks = calloc(tj->nr_files, sizeof(*w->locks));
		if (!w->locks)
			goto nomem;
		for (unsigned f = 0; f < tj->nr_files; f++)
			w->locks[f] = &w->ts->locks[tj->files[f].path];
		w->lock_rw = job->lockfile == JOB_LOCK_RW;
	}
	if (ret < 0)
		return ret;
	if (eopts.net.port)	/* net: numjobs clones take the next ports */
		eopts.net.port += job->subjob;
	if (job->submit_offload) {	/* io_submit_mode=offload: a submit thread runs the engine */
		ecfg.inner = w->ops;
		w->ops = &engine_offload_ops;
	}
	for (unsigned f = 0; w->dbg_out && job->filenames && f < job->nr_files; f++)	/* --debug=file */
		if (!target_opens_lazily(w->ts, w->idx))	/* openfiles: at each file's first I/O */
			worker_debug(w, DEBUG_FILE, "fd open %s", job->filenames[f]);
	worker_debug(w, DEBUG_IO, "load ioengine %s", w->ops->name);
	ecfg.fds = w->fds;	/* io_uring: registerfiles, fixedbufs */
	ecfg.bufs = w->buf_mem;
	ecfg.buf_bytes = max_bs;
	ret = w->ops->init(&ecfg, &w->ectx, err);
	if (note[0])	/* the engine's line as it starts (cpuio), on stdout with normal output */
		fprintf(w->info ? w->info : w->diag, "%s\n", note);
	if (ret < 0) {
		if (!iops_err_isset(err))
			iops_err_set(err, -ret, "fio: io engine %s init failed. Perhaps try reducing io depth?",
				     w->ops->name);
		/* where fio 3.33 records the kernel's refusal of the queue (io_setup, io_uring_setup) */
		if (!strcmp(w->ops->name, "libaio"))
			worker_set_error(w, -ret, "engines/libaio.c:485", "io_queue_init");
		else if (!strcmp(w->ops->name, "io_uring"))
			worker_set_error(w, -ret, "engines/io_uring.c:998", "io_queue_init");
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
					     err_str(-ret));
				return ret;
			}
		}
		w->free_reqs[w->depth - 1 - i] = req;
	}
	w->nr_free = w->cap = w->depth;
	if (worker_debug_wrap(w) < 0) {	/* --debug=io */
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for --debug=io", job->name);
		return -ENOMEM;
	}
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
		bool lazy = target_opens_lazily(w->ts, w->idx);
		int ret;

		for (unsigned f = 0; w->dbg_out && w->job->filenames && f < w->job->nr_files; f++)
			if (!lazy || w->fds[f] >= 0)
				worker_debug(w, DEBUG_FILE, "fd close %s", w->job->filenames[f]);	/* --debug=file */
		ret = target_close(w->ts, w->idx, w->fds);

		if (ret < 0 && !w->error)
			worker_set_error(w, -ret, "filesetup.c:0", "fsync/close");
	}
	if (w->og_ready && w->og.zbd) {	/* zbd */
		w->res->zone_resets = w->og.zbd->resets;
		if (w->og.zbd->err && !w->error)
			worker_set_error(w, -w->og.zbd->err, "zbd.c:0", "zone reset");
	}
	if (w->og_ready)
		offgen_release(&w->og);
	w->og_ready = false;
	iomem_free(&w->iomem);	/* buf_mem points into it */
	worker_vstate_teardown(w);	/* verify_state_save */
	worker_verify_teardown(w);	/* verify */
	free(w->fds);
	free(w->reqs);
	free(w->free_reqs);
	free(w->pend);
	free(w->done);
	free(w->ser_mark);
	w->ser_mark = NULL;
	free(w->locks);
	w->locks = NULL;
	free(w->parked);
	w->parked = NULL;
	w->nr_parked = 0;
	free(w->sfr_lo);
	free(w->sfr_hi);
	w->sfr_lo = w->sfr_hi = NULL;
	w->buf_mem = NULL;
	w->fds = NULL;
	w->reqs = NULL;
	w->free_reqs = w->pend = w->done = NULL;
}

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT		1036	/* Linux: F_LINUX_SPECIFIC_BASE + 12 */
#endif
#ifndef F_SET_FILE_RW_HINT
#define F_SET_FILE_RW_HINT	1038	/* + 14: gone since Linux 5.17 (EINVAL) */
#endif

bool worker_write_hint(struct worker *w)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];
	/* as fio: the file's hint with O_DIRECT, else the inode's */
	int cmd = w->job->direct || w->job->atomic ? F_SET_FILE_RW_HINT : F_SET_RW_HINT;
	uint64_t hint = w->job->write_hint;

	for (unsigned f = 0; !tj->diskless && f < tj->nr_files; f++)
		if (w->fds[f] >= 0 && fcntl(w->fds[f], cmd, &hint) < 0) {
			worker_set_error(w, errno, "ioengines.c:596", "fcntl write hint");
			return false;
		}
	return true;
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

void worker_file_events(struct worker *w)
{
	struct offgen_fsvc *fs = w->og_ready ? w->og.fsvc : NULL;
	bool lazy = target_opens_lazily(w->ts, w->idx);

	for (unsigned k = 0; fs && k < fs->nr_ev && !w->error; k++) {
		unsigned f = fs->ev[k].file;
		int ret;

		if (w->wlog)	/* iolog: fio's trace opens a file at its first I/O, closes it when used up */
			iolog_write_line(w->wlog, w->now_ns, f, fs->ev[k].open ? IOLOG_OP_OPEN : IOLOG_OP_CLOSE, 0, 0);
		if (!lazy)
			continue;
		if (fs->ev[k].open) {
			struct iops_err err = { 0 };

			ret = target_open_file(w->ts, w->idx, f, w->diag, &err);
			if (ret < 0) {
				fprintf(w->diag, "%s\n", err.msg);
				worker_set_error(w, -ret, "filesetup.c:0", "open");
				break;
			}
			w->fds[f] = ret;
			if (w->dbg_out && w->job->filenames)	/* --debug=file */
				worker_debug(w, DEBUG_FILE, "fd open %s", w->job->filenames[f]);
		} else if (w->fds[f] >= 0) {
			w->drain(w);	/* what is in flight may be on it */
			ret = target_close_file(w->ts, w->idx, &w->fds[f]);
			if (ret < 0)
				worker_set_error(w, -ret, "filesetup.c:0", "fsync/close");
			if (w->dbg_out && w->job->filenames)
				worker_debug(w, DEBUG_FILE, "fd close %s", w->job->filenames[f]);
		}
	}
	if (fs)
		fs->nr_ev = 0;
}

/* unlink_each_loop: a new loop finds new, empty files (fio unlinks them after each loop). */
static void worker_files_recreate(struct worker *w)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];
	bool lazy = target_opens_lazily(w->ts, w->idx);

	w->drain(w);
	for (unsigned f = 0; f < tj->nr_files && !w->error; f++) {
		struct iops_err err = { 0 };
		int ret = target_close_file(w->ts, w->idx, &w->fds[f]);

		if (!ret)
			ret = target_recreate(w->ts, w->idx, f, w->diag);
		if (!ret && !lazy) {
			ret = target_open_file(w->ts, w->idx, f, w->diag, &err);
			if (ret >= 0)
				w->fds[f] = ret;
			else if (iops_err_isset(&err))
				fprintf(w->diag, "%s\n", err.msg);
		}
		if (ret < 0)
			worker_set_error(w, -ret, "filesetup.c:0", "unlink_each_loop");
	}
}

void worker_files_fresh(struct worker *w, const struct offgen_io *io)
{
	const struct target_job *tj = &w->ts->jobs[w->idx];
	unsigned fresh = io->fresh & (OFFGEN_FRESH_FILE | OFFGEN_FRESH_PASS);

	if (io->fresh & OFFGEN_FRESH_EVENTS)
		worker_file_events(w);	/* file_service_type, openfiles, write_iolog */
	if (tj->diskless || !fresh)
		return;
	if (fresh == OFFGEN_FRESH_FILE) {
		/* time_based wrap: fio drops the pages again only for buffered I/O */
		if (!w->job->direct)
			target_invalidate(w->ts, w->idx, io->file, w->fds[io->file], w->diag);
		return;
	}
	if (w->job->unlink_each_loop)
		worker_files_recreate(w);
	for (unsigned f = 0; f < tj->nr_files; f++) {
		target_invalidate(w->ts, w->idx, f, w->fds[f], w->diag);
		target_advise(w->ts, w->idx, f, w->fds[f], w->diag);
	}
}

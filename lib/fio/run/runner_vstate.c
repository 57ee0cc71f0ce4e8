/* SPDX-License-Identifier: MIT */
/* runner_vstate: verify_state_save and verify_state_load in the runner (fio/data/verify_state.h,
 * runner_int.h): the last completed writes of each file, the state file a verifying writer
 * leaves when it ends, and the check that stops a verify run where the saved writer stopped. */
#include "fio/run/runner_int.h"

#include <errno.h>
#include <stdlib.h>

int runner_vstate_load(const struct fio_config *cfg, struct vstate **vs, struct iops_err *err)
{
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		int ret;

		vs[j] = NULL;
		if (!job->verify_state_load || job->verify == VERIFY_NONE)
			continue;	/* fio reads it only to verify */
		ret = vstate_load(job, &vs[j], err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int worker_vstate_setup(struct worker *w, struct iops_err *err)
{
	const struct job *job = w->job;
	unsigned nf = w->ts->jobs[w->idx].nr_files, depth = job->iodepth ? job->iodepth : 1;

	if (job->verify == VERIFY_NONE || !job->rw_has_write || !job->verify_state_save || !nf)
		return 0;
	w->vs_count = calloc(nf, sizeof(*w->vs_count));
	w->vs_ring = (size_t)nf * depth <= SIZE_MAX / sizeof(uint64_t) ? calloc((size_t)nf * depth, sizeof(uint64_t)) :
		NULL;
	if (!w->vs_count || !w->vs_ring) {
		free(w->vs_count);
		free(w->vs_ring);
		w->vs_count = w->vs_ring = NULL;
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for the verify state", job->name);
		return -ENOMEM;
	}
	return 0;
}

void worker_vstate_write(struct worker *w, const struct io_req *req)
{
	unsigned depth = w->job->iodepth ? w->job->iodepth : 1;
	uint64_t n = w->vs_count[req->file_idx]++;

	w->vs_ring[(uint64_t)req->file_idx * depth + n % depth] = req->offset;
}

void worker_vstate_teardown(struct worker *w)
{
	const struct job *job = w->job;
	struct vstate_save s = {
		.name = job->name,
		.index = job->thread_number - 1,
		.depth = job->iodepth ? job->iodepth : 1,
		.nofiles = w->ts->jobs[w->idx].nr_files,
		.numberio = w->res->ddir[DDIR_WRITE].issued_ios,
		.random = job->rw_random,
		.use64 = w->og.use64,
		.ring = w->vs_ring,
		.count = w->vs_count,
	};
	struct iops_err err = { 0 };

	if (!w->vs_ring)
		return;
	if (s.random) {	/* the offset generator as the job started */
		struct frand f;

		frand_init(&f, w->og.seed_block, s.use64);
		for (int i = 0; i < 3; i++)
			s.s32[i] = f.s32[i];
		for (int i = 0; i < 5; i++)
			s.s64[i] = f.s64[i];
	}
	if (vstate_save(&s, &err) < 0)
		fprintf(w->diag, "%s\n", err.msg);
	free(w->vs_ring);
	free(w->vs_count);
	w->vs_ring = w->vs_count = NULL;
}

bool worker_vstate_stop(struct worker *w, const struct offgen_io *io)
{
	return vstate_should_stop(w->vs_load, w->res->ddir[DDIR_READ].total_ios, io->file, io->offset);
}

/* flow: fio's flow control between jobs (fio/flow.h). */
#include "fio/flow.h"

#include <errno.h>
#include <stdlib.h>

int flow_set_init(struct flow_set *fs, const struct fio_config *cfg)
{
	fs->flows = NULL;
	fs->nr = 0;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];

		struct flow *f;

		if (!job->flow)
			continue;
		f = flow_set_of(fs, job);
		if (f) {
			atomic_fetch_add_explicit(&f->weight, job->flow, memory_order_relaxed);
			continue;
		}
		if (!fs->flows) {
			fs->flows = calloc(cfg->nr_jobs, sizeof(*fs->flows));	/* at most one per job */
			if (!fs->flows)
				return -ENOMEM;
		}
		fs->flows[fs->nr].id = job->flow_id;
		atomic_init(&fs->flows[fs->nr].counter, 1);
		atomic_init(&fs->flows[fs->nr].weight, job->flow);
		fs->nr++;
	}
	return 0;
}

void flow_set_release(struct flow_set *fs)
{
	free(fs->flows);
	fs->flows = NULL;
	fs->nr = 0;
}

struct flow *flow_set_of(const struct flow_set *fs, const struct job *job)
{
	if (!job->flow)
		return NULL;
	for (unsigned i = 0; i < fs->nr; i++)
		if (fs->flows[i].id == job->flow_id)
			return &fs->flows[i];
	return NULL;
}

void flow_join(struct flow *f, unsigned w)
{
	atomic_fetch_add_explicit(&f->weight, w, memory_order_relaxed);
}

void flow_leave(struct flow *f, unsigned w)
{
	atomic_fetch_sub_explicit(&f->weight, w, memory_order_relaxed);
}

bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned w)
{
	uint64_t counter = atomic_load_explicit(&f->counter, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* fio's mine / counter > w / total, in integers: mine x total > w x counter */
	if (total && (unsigned __int128)*mine * total > (unsigned __int128)w * counter)
		return false;
	atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
	++*mine;
	return true;
}

/* SPDX-License-Identifier: MIT */
/* merge: the inputs (one parsed fio JSON document each, checked when added) and the split of
 * a stream of documents; the merged report is merge_out.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_int.h"

struct merge *merge_new(void)
{
	return calloc(1, sizeof(struct merge));
}

void merge_free(struct merge *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nr_in; i++) {
		jsonr_free(&m->in[i].doc);
		free(m->in[i].host);
	}
	free(m->in);
	free(m);
}

int merge_fmts_parse(const char *list, unsigned *fmts)
{
	static const char *const names[] = { "normal", "json", "json+", "terse", "openmetrics" };	/* MERGE_* bits, in order */
	size_t len;

	for (*fmts = 0; *list; list += len + (list[len] == ',')) {
		unsigned i = 0;

		len = strcspn(list, ",");
		while (i < 5 && (strlen(names[i]) != len || strncmp(list, names[i], len)))
			i++;
		if (i == 5)
			return -EINVAL;
		*fmts |= 1u << i;
	}
	return *fmts ? 0 : -EINVAL;
}

unsigned merge_count(const struct merge *m)
{
	return m->nr_in;
}

const struct jsonr_node *merge_entry(const struct jsonr *j, const struct jsonr_node *list, unsigned i)
{
	for (uint32_t k = list->first; k; k = j->nodes[k].next) {
		const char *name = jsonr_str(j, &j->nodes[k], "jobname");

		if ((!name || strcmp(name, "All clients")) && !i--)	/* fio's own sum: left out */
			return &j->nodes[k];
	}
	return NULL;
}

/* The jobs entry e stands for: its numjobs (job options, else global options) over the
 * entries of that name (and hostname and port, in client_stats): numjobs=4 is four entries of 1, or
 * one group_reporting entry of 4. */
static unsigned merge_members(const struct jsonr *j, const struct jsonr_node *list,
			      const struct jsonr_node *e)
{
	const char *name = jsonr_str(j, e, "jobname"), *nj = jsonr_str(j, e, "job options/numjobs"), *s;
	const char *host = jsonr_str(j, e, "hostname"), *h;	/* client_stats: per server */
	unsigned long n;
	unsigned same = 0;
	double port = -1, p;

	jsonr_num(j, e, "port", &port);
	if (!nj)
		nj = jsonr_str(j, NULL, "global options/numjobs");
	n = nj ? strtoul(nj, NULL, 10) : 1;
	for (uint32_t k = list->first; k; k = j->nodes[k].next)
		same += (s = jsonr_str(j, &j->nodes[k], "jobname")) && !strcmp(s, name) &&
			((h = jsonr_str(j, &j->nodes[k], "hostname")) == host || (h && host && !strcmp(h, host))) &&
			((p = -1), jsonr_num(j, &j->nodes[k], "port", &p), p == port);
	return n > same && n < 1u << 20 ? (unsigned)(n / same) : 1;
}

void merge_jobs_release(struct merge_jobs *mj)
{
	for (unsigned i = 0; mj->job && i < mj->n; i++)
		free(mj->job[i].opts);
	free(mj->job);
	free(mj->res);
	free(mj->rp);
	free(mj->x);
	memset(mj, 0, sizeof(*mj));
}

int merge_input_jobs(const struct merge_input *in, struct merge_jobs *mj, struct iops_err *err)
{
	unsigned n = in->nr_jobs;

	memset(mj, 0, sizeof(*mj));
	mj->job = calloc(n, sizeof(*mj->job));
	mj->res = calloc(n, sizeof(*mj->res));	/* ~330 KiB each, touched only where set */
	mj->rp = calloc(n, sizeof(*mj->rp));
	mj->x = calloc(n, sizeof(*mj->x));
	if (!mj->job || !mj->res || !mj->rp || !mj->x) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -1;
	}
	mj->n = n;
	for (unsigned i = 0; i < n; i++) {
		mj->rp[i] = &mj->res[i];
		if (merge_rd_job(&in->doc, merge_entry(&in->doc, in->list, i), &mj->job[i], &mj->res[i],
				 &mj->x[i], err) < 0)
			return -1;
	}
	return 0;
}

int merge_add(struct merge *m, const char *doc, size_t len, const char *host, unsigned port,
	      struct iops_err *err)
{
	struct merge_input in = { .port = port }, *grown;
	struct merge_jobs mj = { 0 };
	char why[sizeof(err->msg)];
	double ts;
	int rc = -1;

	if (jsonr_parse(&in.doc, doc, len, err) < 0) {
		memcpy(why, err->msg, sizeof(why));
		iops_err_set(err, EINVAL, "%s: not a JSON document (%s)", host, why);
		return -1;
	}
	if (!(in.list = jsonr_get(&in.doc, NULL, "jobs")))
		in.list = jsonr_get(&in.doc, NULL, "client_stats");	/* fio --client's output */
	if (!jsonr_str(&in.doc, NULL, "fio version") || !in.list || in.list->type != JSONR_ARR) {
		iops_err_set(err, EINVAL, "%s: not fio's JSON output (no \"fio version\" and \"jobs\")", host);
		goto free_doc;
	}
	while (merge_entry(&in.doc, in.list, in.nr_jobs))
		in.nr_jobs++;
	if (!in.nr_jobs || in.nr_jobs > JOB_MAX_JOBS) {
		iops_err_set(err, EINVAL, "%s: %s", host, in.nr_jobs ? "more than 4096 jobs" : "no jobs in the document");
		goto free_doc;
	}
	if (merge_input_jobs(&in, &mj, err) < 0) {
		memcpy(why, err->msg, sizeof(why));
		iops_err_set(err, err->code, "%s: %s", host, why);
		goto free_jobs;
	}
	if (jsonr_num(&in.doc, NULL, "timestamp_ms", &ts) || (jsonr_num(&in.doc, NULL, "timestamp", &ts) &&
							    (ts *= 1000, true)))
		in.ts_ms = ts > 0 && ts < 1e18 ? (uint64_t)ts : 0;
	in.first_ms = UINT64_MAX;
	for (unsigned i = 0; i < mj.n; i++) {
		const struct merge_extra *x = &mj.x[i];

		m->approx |= x->approx;
		in.members += merge_members(&in.doc, in.list, merge_entry(&in.doc, in.list, i));
		if (x->started) {
			in.started = true;
			in.first_ms = x->end_ms < in.first_ms ? x->end_ms : in.first_ms;
			in.last_ms = x->end_ms > in.last_ms ? x->end_ms : in.last_ms;
		}
	}
	if (!in.started)	/* no job_start: when the document was written */
		in.first_ms = in.last_ms = in.ts_ms;
	grown = realloc(m->in, (m->nr_in + 1) * sizeof(*m->in));
	if (!grown || !(in.host = strdup(host))) {
		iops_err_set(err, ENOMEM, "out of memory");
		m->in = grown ? grown : m->in;
		goto free_jobs;
	}
	m->in = grown;
	m->in[m->nr_in++] = in;
	rc = 0;
free_jobs:
	merge_jobs_release(&mj);
free_doc:
	if (rc)
		jsonr_free(&in.doc);
	return rc;
}

const char *merge_next_doc(const char *buf, size_t len, size_t *pos, size_t *doc_len)
{
	return jsonr_next_doc(buf, len, pos, doc_len);
}

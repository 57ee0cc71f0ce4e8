/* SPDX-License-Identifier: MIT */
/* plot: the page's inputs (told apart by their content), its building and output; see plot.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"
#include "plot/plot_int.h"

struct plot_page *plot_page_new(void)
{
	return calloc(1, sizeof(struct plot_page));
}

static void plot_input_free(struct plot_input *in)
{
	switch (in->kind) {
	case PLOT_IN_FIO: plot_rd_fio_free(&in->u.fio); break;
	case PLOT_IN_LOG: plot_rd_log_free(&in->u.log); break;
	case PLOT_IN_SWEEP: plot_rd_sweep_free(&in->u.sweep); break;
	case PLOT_IN_SUITE: plot_rd_suite_free(&in->u.suite); break;
	}
	free(in->label);
	free(in->name);
}

void plot_page_free(struct plot_page *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_in; i++)
		plot_input_free(&p->in[i]);
	for (unsigned i = 0; i < p->nr_charts; i++)
		plot_chart_free(p->chart[i]);
	free(p->in);
	free(p->chart);
	free(p->title);
	free(p->top_card);
	free(p);
}

int plot_page_title(struct plot_page *p, const char *title)
{
	char *t = plot_strf("%s", title);

	if (!t)
		return -ENOMEM;
	free(p->title);
	p->title = t;
	return 0;
}

void plot_page_layout(struct plot_page *p, enum plot_layout layout)
{
	p->layout = layout;
}

/* A new input slot, labelled; NULL (err set) when full or out of memory. */
static struct plot_input *plot_page_slot(struct plot_page *p, const char *name, const char *label,
					 struct iops_err *err)
{
	struct plot_input *in, *more;

	if (p->nr_in >= PLOT_INPUTS_MAX) {
		iops_err_set(err, E2BIG, "%s: more than %u inputs (documents) on one page", name, PLOT_INPUTS_MAX);
		return NULL;
	}
	if (!(more = realloc(p->in, (p->nr_in + 1) * sizeof(*p->in)))) {
		iops_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	p->in = more;
	in = &p->in[p->nr_in];
	memset(in, 0, sizeof(*in));
	in->label = plot_strf("%s", label);
	in->name = plot_strf("%s", name);
	if (!in->label || !in->name) {
		free(in->label);
		free(in->name);
		iops_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	return in;
}

/* One JSON document: a fio (or quick) result or a sweep's. */
static int plot_page_doc(struct plot_page *p, const char *name, const char *label, const char *doc, size_t len,
			 struct iops_err *err)
{
	struct plot_input *in;
	struct jsonr j;
	int rc;

	if (jsonr_parse(&j, doc, len, err) < 0) {
		char why[sizeof(err->msg)];

		plot_num_fmt(why, sizeof(why), "%s", err->msg);
		iops_err_set(err, EINVAL, "%s: not a result iops can plot: %s", label, why);
		return -1;
	}
	if (!plot_rd_fio_is(&j) && !plot_rd_sweep_is(&j)) {
		jsonr_free(&j);
		iops_err_set(err, EINVAL, "%s: a JSON document, but no fio, quick or sweep result (no jobs, "
			     "client_stats or steps)", label);
		return -1;
	}
	if (!(in = plot_page_slot(p, name, label, err))) {
		jsonr_free(&j);
		return -1;
	}
	if (plot_rd_fio_is(&j)) {
		in->kind = PLOT_IN_FIO;
		rc = plot_rd_fio(&in->u.fio, &j, label, err);
	} else {
		in->kind = PLOT_IN_SWEEP;
		rc = plot_rd_sweep(&in->u.sweep, &j, label, err);
	}
	if (rc < 0) {
		free(in->label);
		free(in->name);
		return -1;
	}
	p->nr_in++;
	return 0;
}

static int plot_page_text(struct plot_page *p, const char *name, const char *text, size_t len, bool log,
			  struct iops_err *err)
{
	struct plot_input *in = plot_page_slot(p, name, name, err);
	int rc;

	if (!in)
		return -1;
	in->kind = log ? PLOT_IN_LOG : PLOT_IN_SUITE;
	rc = log ? plot_rd_log(&in->u.log, name, text, len, err) : plot_rd_suite(&in->u.suite, name, text, len, err);
	if (rc < 0) {
		free(in->label);
		free(in->name);
		return -1;
	}
	if (log) {	/* series carry the log's own name: "avg.1" of avg_bw.1.log */
		char *l = plot_strf("%s", in->u.log.label);

		if (l) {
			free(in->label);
			in->label = l;
		}
	}
	p->nr_in++;
	return 0;
}

int plot_page_add(struct plot_page *p, const char *name, const char *text, size_t len, struct iops_err *err)
{
	unsigned before = p->nr_in, nr = 0, k = 0;
	size_t pos = 0, dlen;
	const char *doc;
	char label[4096];

	if (p->built) {
		iops_err_set(err, EINVAL, "%s: the page is built already", name);
		return -1;
	}
	if (plot_rd_suite_is(text, len))
		return plot_page_text(p, name, text, len, false, err);
	if (!len || plot_rd_log_is(text, len))
		return plot_page_text(p, name, text, len, true, err);
	while (jsonr_next_doc(text, len, &pos, &dlen))
		nr++;
	if (!nr || memchr(text, '\0', len)) {
		iops_err_set(err, EINVAL, "%s: not a result iops can plot (fio JSON or json+, quick, sweep or suite "
			     "output, a fio log)", name);
		return -1;
	}
	for (pos = 0; (doc = jsonr_next_doc(text, len, &pos, &dlen)); ) {
		if (nr > 1 && snprintf(label, sizeof(label), "%s:%u", name, ++k) >= (int)sizeof(label)) {
			iops_err_set(err, ENAMETOOLONG, "%.64s...: name too long", name);
			goto undo;
		}
		if (plot_page_doc(p, name, nr > 1 ? label : name, doc, dlen, err) < 0)
			goto undo;
	}
	return 0;
undo:	/* the page as it was */
	while (p->nr_in > before)
		plot_input_free(&p->in[--p->nr_in]);
	return -1;
}

int plot_page_build(struct plot_page *p, struct iops_err *err)
{
	int rc;

	if (p->built)
		return 0;
	if (!p->nr_in) {
		iops_err_set(err, EINVAL, "no input to plot");
		return -1;
	}
	rc = plot_fio_charts(p);
	if (!rc)
		rc = plot_logs_charts(p);
	if (!rc)
		rc = plot_misc_charts(p);
	for (unsigned i = 0; !rc && i < p->nr_charts; i++)
		if (!plot_chart_ok(p->chart[i]))
			rc = -ENOMEM;
	if (rc) {
		iops_err_set(err, -rc, "out of memory while making the charts");
		return -1;
	}
	p->built = true;
	return 0;
}

unsigned plot_page_nr_charts(const struct plot_page *p)
{
	return p->nr_charts;
}

const char *plot_page_chart_id(const struct plot_page *p, unsigned i)
{
	return i < p->nr_charts ? p->chart[i]->id : NULL;
}

/* Does the word w[0..n) name chart id, or is it the id's prefix before a '-'? */
static bool plot_page_word(const char *w, size_t n, const char *id)
{
	return n && !strncmp(w, id, n) && (id[n] == '\0' || id[n] == '-');
}

/* "lat-clat, fio-iops, ..." into buf (cut, with "..." past its end). */
static void plot_page_ids(const struct plot_page *p, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->nr_charts; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", p->chart[i]->id);

		if (n < 0 || (size_t)n >= len - at) {
			snprintf(buf + (len > 4 ? len - 4 : 0), 4, "...");
			return;
		}
		at += (size_t)n;
	}
	if (!p->nr_charts)
		plot_num_fmt(buf, len, "none");
}

int plot_page_select(struct plot_page *p, const char *ids, struct iops_err *err)
{
	bool *keep = calloc(p->nr_charts ? p->nr_charts : 1, sizeof(*keep));
	unsigned k = 0;

	if (!keep) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (const char *w = ids; *w; ) {
		size_t n = strcspn(w, ",");
		bool any = false;

		for (unsigned i = 0; i < p->nr_charts; i++)
			if (plot_page_word(w, n, p->chart[i]->id))
				any = keep[i] = true;
		if (!any) {
			char list[256];

			plot_page_ids(p, list, sizeof(list));
			iops_err_set(err, EINVAL, "--chart: '%.*s' names no chart of these inputs (they make: %s)",
				     (int)(n > 64 ? 64 : n), w, list);
			free(keep);
			return -1;
		}
		w += n + (w[n] == ',');
	}
	for (unsigned i = 0; i < p->nr_charts; i++) {
		if (keep[i])
			p->chart[k++] = p->chart[i];
		else
			plot_chart_free(p->chart[i]);
	}
	p->nr_charts = k;
	free(keep);
	return 0;
}

static int plot_page_flush(FILE *out, int rc, struct iops_err *err)
{
	if (fflush(out) || ferror(out)) {
		iops_err_set(err, errno ? errno : EIO, "cannot write the page: %s", err_str(errno ? errno : EIO));
		return -1;
	}
	if (rc < 0) {
		iops_err_set(err, -rc, "out of memory while writing the page");
		return -1;
	}
	return 0;
}

int plot_page_write_html(const struct plot_page *p, FILE *out, struct iops_err *err)
{
	if (!p->built) {
		iops_err_set(err, EINVAL, "the page is not built");
		return -1;
	}
	return plot_page_flush(out, plot_html_write(p, out), err);
}

int plot_page_write_svg(const struct plot_page *p, FILE *out, struct iops_err *err)
{
	char list[256];

	if (p->nr_charts != 1) {
		plot_page_ids(p, list, sizeof(list));
		iops_err_set(err, EINVAL, "an SVG file holds one chart, and these inputs make %u (%s): choose one with "
			     "--chart=ID, or write a .html page", p->nr_charts, list);
		return -1;
	}
	return plot_page_flush(out, plot_html_chart(out, p->chart[0], true), err);
}

struct plot_page *plot_page_docs(const char *title, enum plot_layout layout, const char *const *names,
				 const char *const *docs, const size_t *len, unsigned n, struct iops_err *err)
{
	struct plot_page *p = plot_page_new();

	if (!p || (title && plot_page_title(p, title) < 0)) {
		iops_err_set(err, ENOMEM, "out of memory");
		plot_page_free(p);
		return NULL;
	}
	plot_page_layout(p, layout);
	for (unsigned i = 0; i < n; i++)
		if (plot_page_add(p, names[i], docs[i], len[i], err) < 0) {
			plot_page_free(p);
			return NULL;
		}
	if (plot_page_build(p, err) < 0) {
		plot_page_free(p);
		return NULL;
	}
	return p;
}

int plot_side_by_side(FILE *out, const char *title, const char *const *names, const char *const *docs,
		      const size_t *len, unsigned n, struct iops_err *err)
{
	struct plot_page *p = plot_page_docs(title, PLOT_SIDE_BY_SIDE, names, docs, len, n, err);
	int rc = p ? plot_page_write_html(p, out, err) : -1;

	plot_page_free(p);
	return rc;
}

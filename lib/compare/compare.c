/* SPDX-License-Identifier: MIT */
/* compare: the inputs, their matching by job or step name, the workload check, and the table
 * of verdicts; see compare.h. The reading of a document is compare_rd.c's, a verdict
 * compare_judge.c's, the reports compare_out.c's. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "merge/merge.h"

void compare_opts_init(struct compare_opts *o)
{
	static const double band[COMPARE_NR] = { 2, 2, 5, 5, 10, 20 };

	memset(o, 0, sizeof(*o));
	o->conf = 0.99;
	o->floor_pct = 1;
	for (unsigned f = 0; f < COMPARE_NR; f++) {
		o->band_pct[f] = band[f];
		o->fail_on_pct[f] = -1;
	}
}

int compare_limits_parse(const char *s, double pct[COMPARE_NR], const char *what, struct iops_err *err)
{
	double set[COMPARE_NR];
	const char *p = s;

	if (!s || !*s) {
		iops_err_set(err, EINVAL, "%s: a value is needed (10%% or iops:5%%,p99:20%%)", what);
		return -EINVAL;
	}
	memcpy(set, pct, sizeof(set));
	while (*p) {
		size_t len = strcspn(p, ","), nlen = 0;
		const char *colon = memchr(p, ':', len), *num = p;
		char *end;
		double v;
		int f = -1;

		if (colon) {
			nlen = (size_t)(colon - p);
			for (f = 0; f < COMPARE_NR; f++)
				if (strlen(compare_fig_names[f]) == nlen && !strncmp(p, compare_fig_names[f], nlen))
					break;
			if (f == COMPARE_NR) {
				iops_err_set(err, EINVAL, "%s: unknown figure '%.*s' (iops, bw, mean, p50, p99, p99.9)",
					     what, (int)nlen, p);
				return -EINVAL;
			}
			num = colon + 1;
		}
		v = strtod(num, &end);
		if (end != num && *end == '%')
			end++;
		if (end == num || end != p + len || !(v >= 0 && v <= 1000) || num[0] < '0' || num[0] > '9') {
			iops_err_set(err, EINVAL, "%s: bad limit '%.*s' (a percentage from 0 to 1000, as 10%% or iops:10%%)",
				     what, (int)len, p);
			return -EINVAL;
		}
		for (int k = 0; k < COMPARE_NR; k++)
			if (f < 0 || k == f)
				set[k] = v;
		p += len;
		if (*p == ',' && !*++p) {
			iops_err_set(err, EINVAL, "%s: '%s' ends with a comma", what, s);
			return -EINVAL;
		}
	}
	memcpy(pct, set, sizeof(set));
	return 0;
}

struct compare *compare_new(const struct compare_opts *o)
{
	struct compare *c = calloc(1, sizeof(*c));

	if (c)
		c->opts = *o;
	return c;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nr_in; i++) {
		free(c->in[i].name);
		free(c->in[i].ent);
	}
	free(c->rows);
	free(c);
}

int compare_add(struct compare *c, const char *name, const char *text, size_t len, struct iops_err *err)
{
	struct compare_input *in;
	char why[sizeof(err->msg)];
	size_t pos = 0, dlen;
	const char *doc;

	if (c->nr_in == COMPARE_MAX_INPUTS) {
		iops_err_set(err, E2BIG, "%s: more than %u inputs", name, COMPARE_MAX_INPUTS);
		return -1;
	}
	in = &c->in[c->nr_in];
	memset(in, 0, sizeof(*in));
	if (!(in->name = strdup(name))) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -1;
	}
	while ((doc = merge_next_doc(text, len, &pos, &dlen))) {
		if (compare_rd_doc(in, doc, dlen, in->nr_docs, &c->opts, err) < 0) {
			memcpy(why, err->msg, sizeof(why));
			if (in->nr_docs || merge_next_doc(text, len, &pos, &dlen))
				iops_err_set(err, err->code, "%s: document %u: %s", name, in->nr_docs + 1, why);
			else
				iops_err_set(err, err->code, "%s: %s", name, why);
			goto fail;
		}
		in->nr_docs++;
	}
	if (!in->nr_docs) {
		iops_err_set(err, EINVAL, "%s: no JSON document in it", name);
		goto fail;
	}
	c->nr_in++;
	return 0;
fail:
	free(in->name);
	free(in->ent);
	memset(in, 0, sizeof(*in));
	return -1;
}

/* The runs of key in input in: their entries into r (size in->nr_ent). */
static unsigned compare_runs(const struct compare_input *in, const char *key, const struct compare_entry **r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < in->nr_ent; i++)
		if (!strcmp(in->ent[i].key, key))
			r[n++] = &in->ent[i];
	return n;
}

/* Is key a key of an earlier entry of in than i? */
static bool compare_seen(const struct compare_input *in, unsigned i)
{
	for (unsigned k = 0; k < i; k++)
		if (!strcmp(in->ent[k].key, in->ent[i].key))
			return true;
	return false;
}

/* The runs of one input must be of one workload; the candidates' the baseline's. */
static int compare_check_wl(const struct compare *c, const struct compare_entry *base,
			    const struct compare_entry *const *r, unsigned n, unsigned input, struct iops_err *err)
{
	char diff[400];

	for (unsigned i = 0; i < n; i++) {
		const struct compare_entry *ref = input ? base : r[0];

		if (!compare_wl_diff(&ref->wl, &r[i]->wl, diff, sizeof(diff)))
			continue;
		if (input)
			iops_err_set(err, EINVAL, "%s and %s do not describe the same workload: %s '%s': %s",
				     c->in[0].name, c->in[input].name, c->in[0].kind == COMPARE_K_SWEEP ? "step" : "job",
				     base->key, diff);
		else
			iops_err_set(err, EINVAL, "%s: its runs of '%s' are not the same workload: %s", c->in[0].name,
				     base->key, diff);
		return -1;
	}
	return 0;
}

static int compare_rows_add(struct compare *c, const struct compare_entry **runs[], const unsigned *nr,
			    const struct compare_entry *first, unsigned *cap, struct iops_err *err)
{
	for (unsigned d = 0; d < COMPARE_DIRS; d++) {
		bool any = false;
		struct compare_row *row;

		for (unsigned i = 0; i < c->nr_in && !any; i++)
			for (unsigned k = 0; k < nr[i] && !any; k++)
				any = runs[i][k]->dir[d].present;
		if (!any)
			continue;
		if (c->nr_rows == *cap) {
			unsigned ncap = *cap ? *cap * 2 : 16;
			struct compare_row *g = ncap < (1u << 24) ? realloc(c->rows, (size_t)ncap * sizeof(*g)) : NULL;

			if (!g) {
				iops_err_set(err, ENOMEM, "out of memory");
				return -1;
			}
			c->rows = g;
			*cap = ncap;
		}
		row = &c->rows[c->nr_rows++];
		memset(row, 0, sizeof(*row));
		row->first = first;
		row->dir = d;
		for (unsigned i = 1; i < c->nr_in; i++)
			for (unsigned f = 0; f < COMPARE_NR; f++) {
				struct compare_cell *cell = &row->cell[f][i - 1];

				compare_judge(runs[0], nr[0], runs[i], nr[i], d, f, &c->opts, cell);
				if (!nr[i])
					cell->why = "not in this input";
				c->counts[cell->verdict]++;
				c->failures += compare_cell_fails(cell, f, &c->opts);
			}
	}
	return 0;
}

int compare_run(struct compare *c, FILE *out_notes, struct iops_err *err)
{
	const struct compare_entry **runs[COMPARE_MAX_INPUTS] = { 0 };
	unsigned nr[COMPARE_MAX_INPUTS], cap = 0, common[COMPARE_MAX_INPUTS] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *notes = out_notes ? open_memstream(&text, &len) : NULL;	/* said only if the run goes on */
	int rc = -1;

	if (c->nr_in < 2) {
		iops_err_set(err, EINVAL, "two inputs at least: the baseline, then what is compared with it");
		return -1;
	}
	for (unsigned i = 0; i < c->nr_in; i++)
		if (!(runs[i] = calloc(c->in[i].nr_ent, sizeof(*runs[i])))) {
			iops_err_set(err, ENOMEM, "out of memory");
			goto free_runs;
		}
	for (unsigned i = 0; i < c->nr_in; i++)
		for (unsigned e = 0; e < c->in[i].nr_ent; e++) {
			unsigned n = compare_seen(&c->in[i], e) ? 0 : compare_runs(&c->in[i], c->in[i].ent[e].key, runs[i]);

			c->in[i].max_runs = n > c->in[i].max_runs ? n : c->in[i].max_runs;
		}
	for (unsigned e = 0; e < c->in[0].nr_ent; e++) {
		const struct compare_entry *base = &c->in[0].ent[e];

		if (compare_seen(&c->in[0], e))
			continue;
		for (unsigned i = 0; i < c->nr_in; i++) {
			nr[i] = compare_runs(&c->in[i], base->key, runs[i]);
			common[i] += nr[i] > 0;
			if (compare_check_wl(c, base, runs[i], nr[i], i, err) < 0)
				goto free_runs;
			if (i && !nr[i] && notes)
				fprintf(notes, "iops compare: '%s' is not in %s: not compared\n", base->key, c->in[i].name);
		}
		if (compare_rows_add(c, runs, nr, base, &cap, err) < 0)
			goto free_runs;
	}
	for (unsigned i = 1; i < c->nr_in; i++) {
		if (!common[i]) {
			iops_err_set(err, EINVAL, "%s and %s have no job or step in common (matched by name)",
				     c->in[0].name, c->in[i].name);
			goto free_runs;
		}
		for (unsigned e = 0; notes && e < c->in[i].nr_ent; e++)
			if (!compare_seen(&c->in[i], e) && !compare_runs(&c->in[0], c->in[i].ent[e].key, runs[0]))
				fprintf(notes, "iops compare: '%s' of %s is not in the baseline %s: not compared\n",
					c->in[i].ent[e].key, c->in[i].name, c->in[0].name);
	}
	rc = 0;
free_runs:
	for (unsigned i = 0; i < c->nr_in; i++)
		free(runs[i]);
	if (notes) {
		fclose(notes);
		if (!rc && text)
			fputs(text, out_notes);
		free(text);
	}
	return rc;
}

int compare_write(const struct compare *c, FILE *out, enum compare_fmt fmt)
{
	return fmt == COMPARE_OUT_JSON ? compare_out_json(c, out) : compare_out_normal(c, out);
}

unsigned compare_failures(const struct compare *c)
{
	return c->failures;
}

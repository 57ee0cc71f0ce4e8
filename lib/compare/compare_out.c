/* SPDX-License-Identifier: MIT */
/* compare_out: the comparison as a table per job and direction (normal) or as one JSON
 * document. Values are scaled by the baseline's (bandwidth in B/s to GiB/s, latency in ns to
 * s, so a row reads in one unit); the JSON keeps fio's units (IOPS, bytes/s, ns). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/json.h"

static const char *const compare_fig_labels[COMPARE_NR] = { "iops", "bw", "mean", "p50", "p99", "p99.9" };
static const char *const compare_fig_units[COMPARE_NR] = { "ops/s", "bytes/s", "ns", "ns", "ns", "ns" };

/* The unit of a row: its divisor and name, from the baseline's value. */
static void compare_scale(enum compare_fig f, double base, double *div, const char **unit)
{
	static const char *const bw[] = { "B/s", "KiB/s", "MiB/s", "GiB/s" };
	static const char *const lat[] = { "ns", "us", "ms", "s" };
	unsigned i = 0;

	*div = 1;
	if (f == COMPARE_IOPS) {
		*unit = "";
		return;
	}
	for (double step = f == COMPARE_BW ? 1024 : 1000; i < 3 && base >= *div * step; i++)
		*div *= step;
	*unit = f == COMPARE_BW ? bw[i] : lat[i];
}

static void compare_value(char *buf, size_t n, enum compare_fig f, double v, double div, const char *unit)
{
	if (f == COMPARE_IOPS)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.*f %s", f == COMPARE_BW ? 2 : 3, v / div, unit);
}

static void compare_header(const struct compare *c, FILE *out)
{
	const struct compare_opts *o = &c->opts;

	fputs("iops compare:", out);
	for (unsigned i = 0; i < c->nr_in; i++)
		fprintf(out, "%s %s (%s%s, %u run%s)", i == 0 ? "" : i == 1 ? " vs" : ",", c->in[i].name,
			i ? "" : "baseline, ", compare_kind_names[c->in[i].kind], c->in[i].max_runs,
			c->in[i].max_runs > 1 ? "s" : "");
	fprintf(out, "\nnoise: %g%% confidence; floor %g%%; single-run bands:", o->conf * 100, o->floor_pct);
	for (unsigned f = 0; f < COMPARE_NR; f++)
		fprintf(out, " %s %g%%", compare_fig_names[f], o->band_pct[f]);
	fputc('\n', out);
}

static void compare_row_title(const struct compare *c, const struct compare_row *r, FILE *out)
{
	char wl[400];

	compare_wl_line(&r->first->wl, wl, sizeof(wl));
	fprintf(out, "\n%s '%s'%s%s%s, %s: %s\n", c->in[0].kind == COMPARE_K_SWEEP ? "step" : "job", r->first->key,
		r->first->host[0] ? " (" : "", r->first->host, r->first->host[0] ? ")" : "",
		compare_dir_names[r->dir], wl);
	fprintf(out, "  %-12s %15s", "figure", c->in[0].name);
	for (unsigned i = 1; i < c->nr_in; i++)
		fprintf(out, "  %15s %8s  %-14s %s", c->in[i].name, "change", "threshold",
			i + 1 < c->nr_in ? "verdict     " : "verdict");
	fputc('\n', out);
}

int compare_out_normal(const struct compare *c, FILE *out)
{
	compare_header(c, out);
	for (unsigned r = 0; r < c->nr_rows; r++) {
		const struct compare_row *row = &c->rows[r];

		compare_row_title(c, row, out);
		for (unsigned f = 0; f < COMPARE_NR; f++) {
			const struct compare_cell *c0 = &row->cell[f][0];
			const struct compare_dir *d0 = &row->first->dir[row->dir];
			char label[24], v[400];	/* "%f" of any double fits */
			double div;
			const char *unit;

			snprintf(label, sizeof(label), "%s%s%s%s", compare_fig_labels[f], f >= COMPARE_P50 && d0->pct_kind[0] ?
				 " (" : "", f >= COMPARE_P50 ? d0->pct_kind : "", f >= COMPARE_P50 && d0->pct_kind[0] ? ")" : "");
			compare_scale(f, c0->base, &div, &unit);
			if (c0->runs_base)
				compare_value(v, sizeof(v), f, c0->base, div, unit);
			else
				snprintf(v, sizeof(v), "-");
			fprintf(out, "  %-12s %15s", label, v);
			for (unsigned i = 1; i < c->nr_in; i++) {
				const struct compare_cell *cell = &row->cell[f][i - 1];
				char ch[400], thr[420];

				if (cell->runs)
					compare_value(v, sizeof(v), f, cell->value, div, unit);
				else
					snprintf(v, sizeof(v), "-");
				if (cell->verdict == COMPARE_NA) {
					fprintf(out, "  %15s %8s  %-14s n/a: %s", v, "", "", cell->why ? cell->why : "");
					continue;
				}
				snprintf(ch, sizeof(ch), "%+.1f%%", cell->change_pct);
				snprintf(thr, sizeof(thr), "%.1f%% %s", cell->thr_pct, compare_how_names[cell->how]);
				fprintf(out, "  %15s %8s  %-14s %-*s", v, ch, thr, i + 1 < c->nr_in ? 12 : 0,
					compare_verdict_names[cell->verdict]);
			}
			fputc('\n', out);
		}
	}
	fprintf(out, "\nverdicts: %u worse, %u better, %u within noise, %u n/a\n", c->counts[COMPARE_WORSE],
		c->counts[COMPARE_BETTER], c->counts[COMPARE_NOISE], c->counts[COMPARE_NA]);
	if (c->failures)
		fprintf(out, "fail-on: %u figure%s worse beyond noise by more than the limit:\n", c->failures,
			c->failures > 1 ? "s" : "");
	for (unsigned r = 0; c->failures && r < c->nr_rows; r++)
		for (unsigned f = 0; f < COMPARE_NR; f++)
			for (unsigned i = 1; i < c->nr_in; i++) {
				const struct compare_cell *cell = &c->rows[r].cell[f][i - 1];

				if (compare_cell_fails(cell, f, &c->opts))
					fprintf(out, "  '%s' %s %s: %s is %.1f%% worse than %s (limit %g%%, noise %.1f%%)\n",
						c->rows[r].first->key, compare_dir_names[c->rows[r].dir], compare_fig_names[f],
						c->in[i].name, fabs(cell->change_pct), c->in[0].name, c->opts.fail_on_pct[f],
						cell->thr_pct);
			}
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

static void compare_json_cell(struct json_writer *w, const struct compare *c, const struct compare_cell *cell,
			      unsigned i, enum compare_fig f)
{
	json_begin_object(w, NULL);
	json_string(w, "input", c->in[i].name);
	json_uint(w, "runs", cell->runs);
	if (cell->runs)
		json_float(w, "value", cell->value);
	json_string(w, "verdict", compare_verdict_names[cell->verdict]);
	if (cell->verdict == COMPARE_NA) {
		json_string(w, "why", cell->why);
	} else {
		json_float(w, "change_pct", cell->change_pct);
		json_float(w, "threshold_pct", cell->thr_pct);
		json_string(w, "noise", compare_how_names[cell->how]);
		if (isfinite(cell->df))
			json_float(w, "df", cell->df);
		json_uint(w, "fails", compare_cell_fails(cell, f, &c->opts));
	}
	json_end_object(w);
}

static void compare_json_row(struct json_writer *w, const struct compare *c, const struct compare_row *r)
{
	const struct compare_wl *wl = &r->first->wl;
	const struct compare_dir *d0 = &r->first->dir[r->dir];

	json_begin_object(w, NULL);
	json_string(w, c->in[0].kind == COMPARE_K_SWEEP ? "step" : "job", r->first->key);
	json_string(w, "host", r->first->host);
	json_string(w, "direction", compare_dir_names[r->dir]);
	json_begin_object(w, "workload");
	for (unsigned f = 0; f < COMPARE_WL_NR; f++)
		if (wl->known[f])
			json_string(w, compare_wl_names[f], wl->raw[f]);
	json_end_object(w);
	json_string(w, "percentiles_of", d0->pct_kind);
	json_begin_object(w, "figures");
	for (unsigned f = 0; f < COMPARE_NR; f++) {
		const struct compare_cell *c0 = &r->cell[f][0];

		json_begin_object(w, compare_fig_names[f]);
		json_string(w, "unit", compare_fig_units[f]);
		json_uint(w, "runs_baseline", c0->runs_base);
		if (c0->runs_base)
			json_float(w, "baseline", c0->base);
		json_begin_array(w, "against");
		for (unsigned i = 1; i < c->nr_in; i++)
			compare_json_cell(w, c, &r->cell[f][i - 1], i, f);
		json_end_array(w);
		json_end_object(w);
	}
	json_end_object(w);
	json_end_object(w);
}

static void compare_json_pcts(struct json_writer *w, const char *key, const double *pct, bool skip_off)
{
	json_begin_object(w, key);
	for (unsigned f = 0; f < COMPARE_NR; f++)
		if (!skip_off || pct[f] >= 0)
			json_float(w, compare_fig_names[f], pct[f]);
	json_end_object(w);
}

int compare_out_json(const struct compare *c, FILE *out)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_string(&w, "iops version", IOPS_VERSION);
	json_string(&w, "mode", "compare");
	json_float(&w, "confidence", c->opts.conf);
	json_float(&w, "floor_pct", c->opts.floor_pct);
	compare_json_pcts(&w, "bands_pct", c->opts.band_pct, false);
	compare_json_pcts(&w, "fail_on_pct", c->opts.fail_on_pct, true);
	json_begin_array(&w, "inputs");
	for (unsigned i = 0; i < c->nr_in; i++) {
		json_begin_object(&w, NULL);
		json_string(&w, "name", c->in[i].name);
		json_string(&w, "kind", compare_kind_names[c->in[i].kind]);
		json_uint(&w, "documents", c->in[i].nr_docs);
		json_uint(&w, "runs", c->in[i].max_runs);
		json_uint(&w, "baseline", i == 0);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_begin_array(&w, "rows");
	for (unsigned r = 0; r < c->nr_rows; r++)
		compare_json_row(&w, c, &c->rows[r]);
	json_end_array(&w);
	json_begin_object(&w, "verdicts");
	for (unsigned v = 0; v < 4; v++)
		json_uint(&w, compare_verdict_names[v], c->counts[v]);
	json_end_object(&w);
	json_uint(&w, "failures", c->failures);
	json_end_object(&w);
	return json_finish(&w);
}

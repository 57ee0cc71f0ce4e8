/* SPDX-License-Identifier: MIT */
/* plot_html: the page: a head with the style (no script, no link to anything outside), a
 * header with the charts' index, a card per result (what ran, when, the headline numbers),
 * then a figure per chart with its note. XHTML syntax, so the page is well-formed XML too. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_bars.h"
#include "plot/plot_int.h"
#include "plot/plot_svg.h"
#include "plot/plot_xy.h"

#define GENERATOR	"iops plot " IOPS_VERSION

static void plot_html_page_style(FILE *out)
{
	fputs("body{margin:0 auto;max-width:860px;padding:12px 20px 40px;background:var(--bg);color:var(--fg);"
	      "font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	      "h1{font-size:21px;margin:8px 0 2px}h2{font-size:16px;margin:0 0 6px}\n"
	      ".sub,figcaption,.meta{color:var(--mute);font-size:12.5px}\n"
	      "nav a{color:inherit;margin-right:10px;font-size:12.5px}\n"
	      ".card{background:var(--card);border-radius:8px;padding:12px 16px;margin:16px 0;overflow-x:auto}\n"
	      "table{border-collapse:collapse;font-size:13px}th,td{text-align:left;padding:2px 12px 2px 0;"
	      "vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	      "code{font-size:12px;word-break:break-word}\nfigure{margin:26px 0;max-width:820px}\n"
	      "details summary{cursor:pointer;color:var(--mute);font-size:12.5px}\n", out);
}

static void plot_html_opts(FILE *out, const struct jsonr *j, const struct jsonr_node *o)
{
	char a[PLOT_NUM_LEN];

	fputs("<code>", out);
	for (uint32_t c = o ? o->first : 0; c; c = j->nodes[c].next) {
		const struct jsonr_node *n = &j->nodes[c];

		plot_svg_esc(out, n->key);
		fputc('=', out);
		plot_svg_esc(out, n->type == JSONR_STR ? n->str : n->type == JSONR_NUM ? plot_num_raw(a, sizeof(a), n->num) : "");
		fputs(n->next ? " " : "", out);
	}
	fputs("</code>", out);
}

static void plot_html_num(FILE *out, double v, const struct plot_unit *u)
{
	char h[PLOT_NUM_LEN];

	fputs("<td class=\"n\">", out);
	plot_svg_esc(out, plot_num_human(h, sizeof(h), v, u));
	fputs("</td>", out);
}

/* The headline latency of a direction: lat's percentiles where the job had them, else clat's. */
static const struct plot_lat *plot_html_lat(const struct plot_dir *d, const char **kind)
{
	int k = d->lat[PLOT_LAT].nr_pct ? PLOT_LAT : PLOT_CLAT;

	*kind = plot_lat_names[k];
	return &d->lat[k];
}

static void plot_html_job_rows(FILE *out, const struct plot_job *jb)
{
	static const double ps[] = { 50, 99, 99.9 };
	char job[512];

	plot_fio_job_label(jb, job, sizeof(job));
	for (int d = 0; d < PLOT_DIRS; d++) {
		const struct plot_dir *dr = &jb->dir[d];
		const char *kind;
		const struct plot_lat *l = plot_html_lat(dr, &kind);

		if (!dr->present)
			continue;
		fputs("<tr><td>", out);
		plot_svg_esc(out, job);
		fprintf(out, "</td><td>%s</td>", plot_dir_names[d]);
		plot_html_num(out, dr->iops, &plot_u_iops);
		plot_html_num(out, dr->bw_bytes, &plot_u_bytes_s);
		plot_html_num(out, dr->lat[PLOT_LAT].n ? dr->lat[PLOT_LAT].mean : dr->lat[PLOT_CLAT].mean, &plot_u_ns);
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			int q = plot_rd_fio_pct(l, ps[i]);

			if (q < 0)
				fputs("<td class=\"n\">-</td>", out);
			else
				plot_html_num(out, l->pct_v[q], &plot_u_ns);
		}
		fprintf(out, "<td>%s</td><td>", l->nr_pct ? kind : "");
		if (jb->error)
			fprintf(out, "error %.0f", jb->error);
		fputs("</td></tr>\n", out);
	}
}

/* Each job's options, once (not for All clients, which has none). */
static void plot_html_job_opts(FILE *out, const struct plot_fio *f)
{
	char job[512];
	bool any = false;

	for (unsigned u = 0; u < f->nr_jobs; u++)
		any |= f->job[u].opts && f->job[u].opts->count;
	if (!any)
		return;
	fputs("<table><thead><tr><th>job</th><th>job options</th></tr></thead><tbody>\n", out);
	for (unsigned u = 0; u < f->nr_jobs; u++) {
		if (!f->job[u].opts || !f->job[u].opts->count)
			continue;
		plot_fio_job_label(&f->job[u], job, sizeof(job));
		fputs("<tr><td>", out);
		plot_svg_esc(out, job);
		fputs("</td><td>", out);
		plot_html_opts(out, &f->doc, f->job[u].opts);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

static void plot_html_quick(FILE *out, const struct plot_fio *f)
{
	static const struct {
		const char *key, *what;
		const struct plot_unit *unit;
	} summary[] = {
		{ "write_bw_mib_s", "Max write bandwidth", &plot_u_mibs }, { "read_bw_mib_s", "Max read bandwidth", &plot_u_mibs },
		{ "write_lat_ms", "Write I/O latency", &plot_u_ms_lat }, { "read_lat_ms", "Read I/O latency", &plot_u_ms_lat },
		{ "write_iops", "Max write throughput", &plot_u_iops }, { "read_iops", "Max read throughput", &plot_u_iops },
	};
	const struct jsonr_node *steps = jsonr_get(&f->doc, NULL, "steps"), *sum = jsonr_get(&f->doc, NULL, "summary");
	const char *dir = jsonr_str(&f->doc, NULL, "directory"), *file = jsonr_str(&f->doc, NULL, "file");
	double size = 0, rt = 0, direct = 0, v;

	jsonr_num(&f->doc, NULL, "file_size", &size);
	jsonr_num(&f->doc, NULL, "runtime_per_step", &rt);
	jsonr_num(&f->doc, NULL, "direct", &direct);
	fputs("<p class=\"meta\">iops quick on <code>", out);
	plot_svg_esc(out, dir ? dir : "?");
	fputs("</code>, test file <code>", out);
	plot_svg_esc(out, file ? file : "?");
	fprintf(out, "</code> (%.0f MiB), steps of %.0f s, %s I/O</p>\n<table><tbody>\n", size / 1048576, rt,
		direct ? "direct" : "buffered");
	for (size_t i = 0; i < sizeof(summary) / sizeof(summary[0]); i++) {
		if (!sum || !jsonr_num(&f->doc, sum, summary[i].key, &v))
			continue;
		fprintf(out, "<tr><td>%s</td>", summary[i].what);
		plot_html_num(out, v, summary[i].unit);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	if (!steps || steps->type != JSONR_ARR)
		return;
	fputs("<details><summary>the fio command line of each step</summary><ol>\n", out);
	for (uint32_t c = steps->first; c; c = f->doc.nodes[c].next) {
		const char *cmd = jsonr_str(&f->doc, &f->doc.nodes[c], "command");

		fputs("<li><code>", out);
		plot_svg_esc(out, cmd ? cmd : "");
		fputs("</code></li>\n", out);
	}
	fputs("</ol></details>\n", out);
}

static void plot_html_fio_card(FILE *out, const struct plot_input *in)
{
	const struct plot_fio *f = &in->u.fio;
	unsigned clients = 0;

	for (unsigned u = 0; u < f->nr_jobs; u++)
		clients += f->job[u].host && !f->job[u].all_clients;
	fputs("<p class=\"meta\">", out);
	plot_svg_esc(out, f->version ? f->version : "fio");
	if (f->time) {
		fputs(" &#183; ", out);
		plot_svg_esc(out, f->time);
	}
	if (f->kind == PLOT_FIO_CLIENTS)
		fprintf(out, " &#183; client_stats: %u entries of the clients (servers, or merged inputs) and their "
			"All clients", clients);
	else
		fprintf(out, " &#183; %u job%s", f->nr_jobs, f->nr_jobs == 1 ? "" : "s");
	fputs("</p>\n", out);
	if (f->kind == PLOT_FIO_QUICK)
		plot_html_quick(out, f);
	if (f->global) {
		fputs("<p>global options: ", out);
		plot_html_opts(out, &f->doc, f->global);
		fputs("</p>\n", out);
	}
	fputs("<table><thead><tr><th>job</th><th>dir</th><th>IOPS</th><th>bandwidth</th><th>lat mean</th>"
	      "<th>p50</th><th>p99</th><th>p99.9</th><th>of</th><th></th></tr></thead><tbody>\n", out);
	for (unsigned u = 0; u < f->nr_jobs; u++)
		plot_html_job_rows(out, &f->job[u]);
	fputs("</tbody></table>\n", out);
	plot_html_job_opts(out, f);
}

static void plot_html_sweep_card(FILE *out, const struct plot_input *in)
{
	const struct plot_sweep *s = &in->u.sweep;
	double samples = 0;
	unsigned stopped = 0;

	for (unsigned i = 0; i < s->nr_steps; i++) {
		samples = s->step[i].sample > samples ? s->step[i].sample : samples;
		stopped += s->step[i].stopped != 0;
	}
	fprintf(out, "<p class=\"meta\">iops sweep: %u runs (rw x bs x samples), up to %.0f sample%s of each "
		"step%s</p>\n", s->nr_steps, samples, samples == 1 ? "" : "s", stopped ? ", some stopped" : "");
}

static void plot_html_suite_card(FILE *out, const struct plot_input *in)
{
	const struct plot_suite *s = &in->u.suite;

	fprintf(out, "<p class=\"meta\">iops suite: %u iteration%s</p>\n<ul>\n", s->iterations,
		s->iterations == 1 ? "" : "s");
	for (unsigned i = 0; i < s->nr_conf; i++) {
		fputs("<li>", out);
		plot_svg_esc(out, s->conf[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

static void plot_html_logs_card(FILE *out, const struct plot_page *p)
{
	static const char *const dirs[PLOT_LOG_DIRS] = { "read", "write", "trim", "sync" };

	fputs("<section class=\"card\" data-input=\"logs\"><h2>Logs</h2>\n<table><thead><tr><th>file</th>"
	      "<th>holds</th><th>entries</th><th>window</th></tr></thead><tbody>\n", out);
	for (unsigned i = 0; i < p->nr_in; i++) {
		const struct plot_log *l = &p->in[i].u.log;

		if (p->in[i].kind != PLOT_IN_LOG)
			continue;
		fputs("<tr><td>", out);
		plot_svg_esc(out, p->in[i].name);
		fprintf(out, "</td><td>%s</td><td>", plot_log_kind_names[l->kind]);
		for (int d = 0, any = 0; d < PLOT_LOG_DIRS; d++)
			if (l->dir[d].n)
				fprintf(out, "%s%s %zu", any++ ? ", " : "", dirs[d], l->dir[d].n);
		if (l->per_io)
			fputs("</td><td>per I/O</td></tr>\n", out);
		else
			fprintf(out, "</td><td>%.4g ms</td></tr>\n", l->window_ms);
	}
	fputs("</tbody></table></section>\n", out);
}

int plot_html_chart(FILE *out, const struct plot_chart *c, bool standalone)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- generator: " GENERATOR " -->\n", out);
	return c->kind == PLOT_CHART_BARS ? plot_bars_svg(out, c, standalone) : plot_xy_svg(out, c, standalone);
}

static void plot_html_head(const struct plot_page *p, FILE *out)
{
	fputs("<!DOCTYPE html>\n<!-- generator: " GENERATOR " -->\n"
	      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"generator\" content=\"" GENERATOR "\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<meta name=\"color-scheme\" content=\"light dark\"/>\n<link rel=\"icon\" href=\"data:,\"/>\n<title>", out);
	if (p->title)
		plot_svg_esc(out, p->title);
	else
		for (unsigned i = 0; i < p->nr_in; i++) {
			fputs(i ? ", " : "iops plot: ", out);
			plot_svg_esc(out, p->in[i].name);
			while (i + 1 < p->nr_in && !strcmp(p->in[i + 1].name, p->in[i].name))
				i++;	/* the documents of one stream */
		}
	fputs("</title>\n<style>\n", out);
	plot_svg_style(out);
	plot_html_page_style(out);
	fputs("</style>\n</head>\n", out);
}

int plot_html_write(const struct plot_page *p, FILE *out)
{
	bool logs = false;
	int rc = 0;

	plot_html_head(p, out);
	fputs("<body>\n<header>\n<h1>", out);
	if (p->title)
		plot_svg_esc(out, p->title);
	else
		fputs("iops plot", out);
	fprintf(out, "</h1>\n<p class=\"sub\">%u input%s, %u chart%s; hover a point or a bar for its exact value</p>\n"
		"<nav>", p->nr_in, p->nr_in == 1 ? "" : "s", p->nr_charts, p->nr_charts == 1 ? "" : "s");
	for (unsigned i = 0; i < p->nr_charts; i++) {
		fputs("<a href=\"#", out);
		plot_svg_esc(out, p->chart[i]->id);
		fputs("\">", out);
		plot_svg_esc(out, p->chart[i]->id);
		fputs("</a>", out);
	}
	fputs("</nav>\n</header>\n<main>\n", out);
	if (p->top_card)
		fputs(p->top_card, out);
	for (unsigned i = 0; i < p->nr_in; i++) {
		const struct plot_input *in = &p->in[i];

		if (in->kind == PLOT_IN_LOG) {
			if (!logs)
				plot_html_logs_card(out, p);
			logs = true;
			continue;
		}
		fputs("<section class=\"card\" data-input=\"", out);
		plot_svg_esc(out, in->label);
		fputs("\"><h2>", out);
		plot_svg_esc(out, in->label);
		fputs("</h2>\n", out);
		if (in->kind == PLOT_IN_FIO)
			plot_html_fio_card(out, in);
		else if (in->kind == PLOT_IN_SWEEP)
			plot_html_sweep_card(out, in);
		else
			plot_html_suite_card(out, in);
		fputs("</section>\n", out);
	}
	for (unsigned i = 0; i < p->nr_charts && !rc; i++) {
		const struct plot_chart *c = p->chart[i];

		fputs("<figure>\n", out);
		rc = plot_html_chart(out, c, false);
		if (c->note) {
			fputs("<figcaption>", out);
			plot_svg_esc(out, c->note);
			fputs("</figcaption>\n", out);
		}
		fputs("</figure>\n", out);
	}
	fputs("</main>\n<footer class=\"sub\">made by " GENERATOR "</footer>\n</body>\n</html>\n", out);
	return rc < 0 ? rc : ferror(out) ? -EIO : 0;
}

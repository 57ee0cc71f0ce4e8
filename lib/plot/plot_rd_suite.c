/* SPDX-License-Identifier: MIT */
/* plot_rd_suite: sweep JSON and suite output; see plot_rd_suite.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_num.h"
#include "plot/plot_chart.h"
#include "plot/plot_rd_suite.h"

#define SUITE_FIGS_MAX	64
#define SUITE_HEAD	"Configuration:"

bool plot_rd_sweep_is(const struct jsonr *j)
{
	const struct jsonr_node *s = jsonr_get(j, NULL, "steps");

	return j->nodes[0].type == JSONR_OBJ && !jsonr_get(j, NULL, "jobs") && s && s->type == JSONR_ARR &&
	       (!s->count || (jsonr_str(j, s, "0/rw") && jsonr_get(j, s, "0/iops")));
}

int plot_rd_sweep(struct plot_sweep *s, struct jsonr *doc, const char *name, struct iops_err *err)
{
	const struct jsonr_node *steps;

	memset(s, 0, sizeof(*s));
	s->doc = *doc;
	memset(doc, 0, sizeof(*doc));
	steps = jsonr_get(&s->doc, NULL, "steps");
	if (!steps || !steps->count) {
		iops_err_set(err, EINVAL, "%s: a sweep result without any step", name);
		goto fail;
	}
	if (!(s->step = calloc(steps->count, sizeof(*s->step)))) {
		iops_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (uint32_t c = steps->first; c; c = s->doc.nodes[c].next) {
		const struct jsonr_node *n = &s->doc.nodes[c];
		struct plot_step *st = &s->step[s->nr_steps];

		st->rw = jsonr_str(&s->doc, n, "rw");
		st->bs = jsonr_str(&s->doc, n, "bs");
		if (!st->rw || !st->bs || !jsonr_num(&s->doc, n, "iops", &st->iops) ||
		    !jsonr_num(&s->doc, n, "bw_bytes", &st->bw_bytes)) {
			iops_err_set(err, EINVAL, "%s: step %u has no rw, bs, iops or bw_bytes (not a sweep's JSON)", name,
				     s->nr_steps + 1);
			goto fail;
		}
		jsonr_num(&s->doc, n, "sample", &st->sample);
		jsonr_num(&s->doc, n, "lat_mean_us", &st->lat_mean_us);
		jsonr_num(&s->doc, n, "clat_p99_us", &st->clat_p99_us);
		jsonr_num(&s->doc, n, "error", &st->error);
		jsonr_num(&s->doc, n, "stopped", &st->stopped);
		s->nr_steps++;
	}
	return 0;
fail:
	plot_rd_sweep_free(s);
	return -EINVAL;
}

void plot_rd_sweep_free(struct plot_sweep *s)
{
	free(s->step);
	jsonr_free(&s->doc);
	memset(s, 0, sizeof(*s));
}

bool plot_rd_suite_is(const char *text, size_t len)
{
	size_t n = strlen(SUITE_HEAD);

	return len >= n && !memcmp(text, SUITE_HEAD, n) && (len == n || text[n] == '\n' || text[n] == '\r');
}

static const struct {
	const char *word;
	const struct plot_unit *unit;
} suite_units[] = {
	{ "MiB/s", &plot_u_mibs }, { "ms", &plot_u_ms_lat }, { "IOPS", &plot_u_iops },
	{ "files/s", &plot_u_files_s }, { "s", &plot_u_s },
};

/* "NAME: NUMBER UNIT" with a unit of the suite's: the figure, else false. */
static bool plot_rd_suite_fig(char *line, char **name, double *v, const struct plot_unit **u)
{
	char *colon = strstr(line, ": "), *end, *unit;

	if (!colon || colon == line)
		return false;
	*v = strtod(colon + 2, &end);
	if (end == colon + 2 || *end != ' ')
		return false;
	unit = end + 1;
	for (size_t i = 0; i < sizeof(suite_units) / sizeof(suite_units[0]); i++)
		if (!strcmp(unit, suite_units[i].word)) {
			*colon = '\0';
			*name = line;
			*u = suite_units[i].unit;
			return true;
		}
	return false;
}

static int plot_rd_suite_add(struct plot_suite *s, const char *name, const char *bench, double v,
			     const struct plot_unit *u)
{
	struct plot_suite_fig *f = NULL;
	size_t cap;

	for (unsigned i = 0; i < s->nr_figs && !f; i++)
		if (!strcmp(s->fig[i].name, name))
			f = &s->fig[i];
	if (!f) {
		if (s->nr_figs == SUITE_FIGS_MAX)
			return 0;	/* more names than the suite prints: not ours */
		f = &s->fig[s->nr_figs++];
		memset(f, 0, sizeof(*f));
		plot_num_fmt(f->name, sizeof(f->name), "%s", name);
		f->bench = bench;
		f->unit = u;
	}
	cap = f->cap;
	if (plot_chart_grow(&f->v, &cap, f->nr, sizeof(double)) < 0 ||
	    plot_chart_grow(&f->iter, &f->cap, f->nr, sizeof(unsigned)) < 0)
		return -ENOMEM;
	f->v[f->nr] = v;
	f->iter[f->nr++] = s->iterations;
	return 0;
}

int plot_rd_suite(struct plot_suite *s, const char *name, const char *text, size_t len, struct iops_err *err)
{
	static const char *const benches[] = { "fio", "meta" };
	const char *bench = "";
	bool in_conf = true;
	unsigned lines = 0;
	char *p, *end;

	memset(s, 0, sizeof(*s));
	s->iterations = 1;
	if (!plot_rd_suite_is(text, len)) {
		iops_err_set(err, EINVAL, "%s: not a suite run's output (it starts with '%s')", name, SUITE_HEAD);
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	s->text = malloc(len + 1);
	s->conf = calloc(lines + 1, sizeof(*s->conf));
	s->fig = calloc(SUITE_FIGS_MAX, sizeof(*s->fig));
	if (!s->text || !s->conf || !s->fig)
		goto oom;
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	for (p = s->text; *p; p = end) {
		char *nl = strchr(p, '\n'), *fname;
		const struct plot_unit *u;
		unsigned it;
		double v;

		end = nl ? nl + 1 : p + strlen(p);
		if (nl)
			*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (p == s->text)
			continue;	/* "Configuration:" */
		if (!strncmp(p, "Iteration: ", 11)) {	/* "Iteration: 2 of 3" */
			in_conf = false;
			it = (unsigned)strtoul(p + 11, NULL, 10);
			s->iterations = it ? it : s->iterations;
			continue;
		}
		if (!strncmp(p, "Benchmark: ", 11)) {
			in_conf = false;
			bench = "";
			for (size_t b = 0; b < sizeof(benches) / sizeof(benches[0]); b++)
				if (!strcmp(p + 11, benches[b]))
					bench = benches[b];
			continue;
		}
		if (in_conf) {
			s->conf[s->nr_conf++] = p;
			continue;
		}
		if (plot_rd_suite_fig(p, &fname, &v, &u) && plot_rd_suite_add(s, fname, bench, v, u) < 0)
			goto oom;
	}
	if (!s->nr_figs) {
		iops_err_set(err, EINVAL, "%s: a suite run's output without any figure (did a benchmark run?)", name);
		plot_rd_suite_free(s);
		return -EINVAL;
	}
	return 0;
oom:
	iops_err_set(err, ENOMEM, "out of memory");
	plot_rd_suite_free(s);
	return -ENOMEM;
}

void plot_rd_suite_free(struct plot_suite *s)
{
	for (unsigned i = 0; s->fig && i < s->nr_figs; i++) {
		free(s->fig[i].v);
		free(s->fig[i].iter);
	}
	free(s->fig);
	free(s->conf);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

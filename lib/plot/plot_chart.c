/* SPDX-License-Identifier: MIT */
/* plot_chart: the chart model and its adders; see plot_chart.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_chart.h"

static char *plot_vstrf(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	if (vsnprintf(s, (size_t)n + 1, fmt, ap) != n) {
		free(s);
		return NULL;
	}
	return s;
}

char *plot_strf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = plot_vstrf(fmt, ap);
	va_end(ap);
	return s;
}

int plot_chart_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
	void **p = arr, *q;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if (nc < *cap || nc > SIZE_MAX / sz || !(q = realloc(*p, nc * sz)))
		return -ENOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

static int plot_grow_u(void *arr, unsigned *cap, unsigned n, size_t sz)
{
	size_t c = *cap;
	int r;

	if (c >= 1u << 20 && n >= c)
		return -ENOMEM;	/* a chart of a million bars or series is a bug */
	r = plot_chart_grow(arr, &c, n, sz);
	*cap = (unsigned)c;
	return r;
}

struct plot_chart *plot_chart_new(enum plot_chart_kind kind, const char *id, const char *title)
{
	struct plot_chart *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->kind = kind;
	plot_num_fmt(c->id, sizeof(c->id), "%s", id);
	if (!(c->title = plot_strf("%s", title))) {
		free(c);
		return NULL;
	}
	plot_axis_init(&c->x, PLOT_LIN, &plot_u_none, "");
	plot_axis_init(&c->y, PLOT_LIN, &plot_u_none, "");
	return c;
}

void plot_chart_free(struct plot_chart *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nr_ser; i++) {
		struct plot_series *s = &c->ser[i];

		for (size_t k = 0; k < s->nm; k++)
			free(s->mtitle[k]);
		free(s->name);
		free(s->x);
		free(s->y);
		free(s->mx);
		free(s->my);
		free(s->mtitle);
	}
	for (unsigned i = 0; i < c->nr_cats; i++)
		free(c->cats[i]);
	for (unsigned i = 0; i < c->nr_sers; i++)
		free(c->sers[i]);
	for (unsigned i = 0; i < c->nr_bars; i++) {
		free(c->bar[i].name);
		free(c->bar[i].title);
	}
	free(c->ser);
	free(c->cats);
	free(c->sers);
	free(c->bar);
	free(c->title);
	free(c->note);
	free(c);
}

bool plot_chart_ok(const struct plot_chart *c)
{
	return c && !c->oom;
}

static void plot_chart_vnote(struct plot_chart *c, bool add, const char *fmt, va_list ap)
{
	char *s = plot_vstrf(fmt, ap), *t;

	if (!s) {
		c->oom = true;
		return;
	}
	if (add && c->note) {
		t = plot_strf("%s; %s", c->note, s);
		free(s);
		if (!t) {
			c->oom = true;
			return;
		}
		s = t;
	}
	free(c->note);
	c->note = s;
}

void plot_chart_note(struct plot_chart *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plot_chart_vnote(c, false, fmt, ap);
	va_end(ap);
}

void plot_chart_note_add(struct plot_chart *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plot_chart_vnote(c, true, fmt, ap);
	va_end(ap);
}

struct plot_series *plot_chart_series(struct plot_chart *c, const char *name, unsigned style)
{
	struct plot_series *s;

	if (c->oom || plot_grow_u(&c->ser, &c->ser_cap, c->nr_ser, sizeof(*c->ser)) < 0) {
		c->oom = true;
		return NULL;
	}
	s = &c->ser[c->nr_ser];
	memset(s, 0, sizeof(*s));
	if (!(s->name = plot_strf("%s", name))) {
		c->oom = true;
		return NULL;
	}
	s->style = style;
	s->colour = c->nr_ser++;
	return s;
}

void plot_series_point(struct plot_chart *c, struct plot_series *s, double x, double y)
{
	size_t cap = s ? s->cap : 0;

	if (!s || c->oom)
		return;
	if (plot_chart_grow(&s->x, &cap, s->n, sizeof(double)) < 0 || plot_chart_grow(&s->y, &s->cap, s->n, sizeof(double)) < 0) {
		c->oom = true;
		return;
	}
	s->x[s->n] = x;
	s->y[s->n++] = y;
}

void plot_series_mark(struct plot_chart *c, struct plot_series *s, double x, double y, const char *fmt, ...)
{
	size_t c1, c2;
	va_list ap;
	char *t;

	if (!s || c->oom)
		return;
	c1 = c2 = s->mcap;
	if (plot_chart_grow(&s->mx, &c1, s->nm, sizeof(double)) < 0 || plot_chart_grow(&s->my, &c2, s->nm, sizeof(double)) < 0 ||
	    plot_chart_grow(&s->mtitle, &s->mcap, s->nm, sizeof(char *)) < 0) {
		c->oom = true;
		return;
	}
	va_start(ap, fmt);
	t = plot_vstrf(fmt, ap);
	va_end(ap);
	if (!t) {
		c->oom = true;
		return;
	}
	s->mx[s->nm] = x;
	s->my[s->nm] = y;
	s->mtitle[s->nm++] = t;
}

/* The index of name in names[], added at the end when new; -1 when out of memory. */
static int plot_chart_key(struct plot_chart *c, char ***names, unsigned *nr, unsigned *cap, const char *name)
{
	for (unsigned i = 0; i < *nr; i++)
		if (!strcmp((*names)[i], name))
			return (int)i;
	if (plot_grow_u(names, cap, *nr, sizeof(char *)) < 0 || !((*names)[*nr] = plot_strf("%s", name))) {
		c->oom = true;
		return -1;
	}
	return (int)(*nr)++;
}

struct plot_bar *plot_chart_bar(struct plot_chart *c, const char *cat, const char *ser, const char *name,
				double v, const char *fmt, ...)
{
	struct plot_bar *b;
	int ci, si;
	va_list ap;

	if (c->oom || (ci = plot_chart_key(c, &c->cats, &c->nr_cats, &c->cats_cap, cat)) < 0 ||
	    (si = plot_chart_key(c, &c->sers, &c->nr_sers, &c->sers_cap, ser)) < 0 ||
	    plot_grow_u(&c->bar, &c->bars_cap, c->nr_bars, sizeof(*c->bar)) < 0) {
		c->oom = true;
		return NULL;
	}
	b = &c->bar[c->nr_bars];
	memset(b, 0, sizeof(*b));
	b->cat = (unsigned)ci;
	b->ser = (unsigned)si;
	b->v = v;
	va_start(ap, fmt);
	b->title = plot_vstrf(fmt, ap);
	va_end(ap);
	b->name = plot_strf("%s", name);
	if (!b->title || !b->name) {
		free(b->title);
		free(b->name);
		c->oom = true;
		return NULL;
	}
	c->nr_bars++;
	return b;
}

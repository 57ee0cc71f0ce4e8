/* SPDX-License-Identifier: MIT */
/* plot_page: the page's chart list and what the chart builders ask of its inputs (how many of
 * a kind, a series' prefix); the lowest of the page's files, see plot_int.h. */
#include <stdlib.h>
#include <string.h>

#include "plot/plot_int.h"

unsigned plot_page_count(const struct plot_page *p, enum plot_in_kind kind)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nr_in; i++)
		n += p->in[i].kind == kind;
	return n;
}

const char *plot_page_prefix(const struct plot_page *p, const struct plot_input *in, char *buf, size_t len)
{
	buf[0] = '\0';
	if ((p->layout == PLOT_SIDE_BY_SIDE || plot_page_count(p, in->kind) > 1) && in->kind != PLOT_IN_LOG)
		plot_num_fmt(buf, len, "%s ", in->label);
	return buf;
}

struct plot_chart *plot_page_chart(struct plot_page *p, enum plot_chart_kind kind, const char *id,
				   const char *title)
{
	char uid[64];
	struct plot_chart *c, **more;
	unsigned n = 1;

	plot_num_fmt(uid, sizeof(uid), "%s", id);
	for (unsigned i = 0; i < p->nr_charts; i++)
		if (!strcmp(p->chart[i]->id, uid)) {
			plot_num_fmt(uid, sizeof(uid), "%.50s-%u", id, ++n);
			i = (unsigned)-1;	/* again, from the first */
		}
	if (p->nr_charts == p->charts_cap) {
		unsigned nc = p->charts_cap ? p->charts_cap * 2 : 16;

		if (!(more = realloc(p->chart, nc * sizeof(*more))))
			return NULL;
		p->chart = more;
		p->charts_cap = nc;
	}
	if (!(c = plot_chart_new(kind, uid, title)))
		return NULL;
	p->chart[p->nr_charts++] = c;
	return c;
}

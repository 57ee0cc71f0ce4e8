/* SPDX-License-Identifier: MIT */
#include "fio/report/out_terse.h"

#include <errno.h>
#include <inttypes.h>

#include "fio/report/unified.h"

/* Terse keeps fio's older per= formula: double mean over integer KiB/s, 100 when agg is 0. */
static double out_terse_bw_share(double mean_kib, uint64_t agg_bps)
{
	double p;

	if (!agg_bps)
		return 100.0;
	if (agg_bps < 1024)
		return 100.0;	/* fio divides by 0 here: +inf, capped */
	p = mean_kib * 100.0 / (double)(agg_bps / 1024);
	return p > 100.0 ? 100.0 : p;
}

static void out_terse_lat(FILE *out, const struct lat_stat *s)
{
	if (s->n)
		fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f;%f", s->min / 1000, s->max / 1000,
			s->mean / 1000.0, lat_stat_stdev(s) / 1000.0);
	else
		fputs(";0;0;0.000000;0.000000", out);
}

static void out_terse_ddir(FILE *out, const struct report *rep, const struct report_unit *u,
			   unsigned ddir, unsigned ver)
{
	const struct report_group *g = &rep->groups[u->group];
	const struct ddir_result *d = unified_ddir(u, ddir);	/* unified_rw_reporting */
	const struct job *j = u->last;
	uint64_t runt = report_runtime_ms(d), vals[JOB_MAX_PERCENTILES];
	const struct hist *h = NULL;
	const double *pcts;
	unsigned prec, nr = report_pct_list(j, &pcts, &prec), len = 0;

	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, d->io_bytes >> 10,
		report_rate(d->io_bytes, runt) / 1024, report_rate(report_ios(d), runt), runt);
	out_terse_lat(out, &d->slat);
	out_terse_lat(out, &d->clat);

	/* gtod_reduce turns percentiles off: then every field is the "0%=0" filler */
	if (j->lat_percentiles && !j->disable_lat)
		h = &d->lat_hist;
	else if (!j->lat_percentiles && j->clat_percentiles && !j->disable_clat)
		h = &d->clat_hist;
	if (h && h->total) {
		len = hist_percentiles(h, pcts, nr, vals);
	} else if (h) {
		/* fio: with no samples every threshold is 0, met by the first bucket (value 0) */
		for (unsigned i = 0; i < nr; i++)
			vals[i] = 0;
		len = nr;
	}
	for (unsigned i = 0; i < JOB_MAX_PERCENTILES; i++) {
		if (i < len)
			fprintf(out, ";%f%%=%" PRIu64, pcts[i], vals[i] / 1000);
		else
			fputs(";0%=0", out);
	}
	out_terse_lat(out, &d->lat);

	if (d->bw_kib.n)
		fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", d->bw_kib.min, d->bw_kib.max,
			out_terse_bw_share(d->bw_kib.mean, g->agg_bps[unified_agg_idx(ddir)]), d->bw_kib.mean,
			lat_stat_stdev(&d->bw_kib));
	else
		fputs(";0;0;0.000000%;0.000000;0.000000", out);
	if (ver == 5) {
		fprintf(out, ";%" PRIu64, d->bw_kib.n);
		if (d->iops.n)
			fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, d->iops.min,
				d->iops.max, d->iops.mean, lat_stat_stdev(&d->iops), d->iops.n);
		else
			fputs(";0;0;0.000000;0.000000;0", out);
	}
}

void out_terse_unit(FILE *out, const struct report *rep, const struct report_unit *u,
		    unsigned ver)
{
	const struct job_result *r = u->res;
	const struct job *j = u->job;
	uint64_t total = report_total_ios(r), lat_u[LAT_U_NR];
	double usr, sys, pct[LAT_M_NR];

	if (ver == 2)
		fprintf(out, "2;%s;%u;%d", j->name, j->group_id, r->error);
	else
		fprintf(out, "%u;fio-3.33;%s;%u;%d", ver, j->name, j->group_id, r->error);
	out_terse_ddir(out, rep, u, DDIR_READ, ver);
	if (u->unified != UNIFIED_MIXED) {	/* unified_rw_reporting=mixed: one block */
		out_terse_ddir(out, rep, u, DDIR_WRITE, ver);
		if (ver != 3)
			out_terse_ddir(out, rep, u, DDIR_TRIM, ver);
	}
	if (u->mixed)	/* unified_rw_reporting=both */
		out_terse_ddir(out, rep, u, UNIFIED_DDIR, ver);

	report_cpu(r, &usr, &sys);
	fprintf(out, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, usr, sys, r->ctx, r->majf,
		r->minf);
	report_calc_dist(r->depth_map, DEPTH_MAP_NR, total, pct);
	for (unsigned i = 0; i < DEPTH_MAP_NR; i++)
		fprintf(out, ";%3.1f%%", pct[i]);
	/* the usec table's first bucket also counts every nsec-bucket I/O */
	for (unsigned i = 0; i < LAT_U_NR; i++)
		lat_u[i] = r->lat_u[i];
	for (unsigned i = 0; i < LAT_N_NR; i++)
		lat_u[0] += r->lat_n[i];
	report_calc_lat(lat_u, LAT_U_NR, total, pct);
	for (unsigned i = 0; i < LAT_U_NR; i++)
		fprintf(out, ";%3.2f%%", pct[i]);
	report_calc_lat(r->lat_m, LAT_M_NR, total, pct);
	for (unsigned i = 0; i < LAT_M_NR; i++)
		fprintf(out, ";%3.2f%%", pct[i]);
	if (ver >= 3)
		for (unsigned i = 0; i < rep->nr_disks; i++) {
			const struct disk_result *d = &rep->disks[i];

			fprintf(out, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
				";%" PRIu64 ";%" PRIu64 ";%3.2f%%", d->name, d->read_ios,
				d->write_ios, d->read_merges, d->write_merges, d->read_ticks,
				d->write_ticks, d->in_queue, d->util);
		}
	if (r->cont_on_err)	/* continue_on_error / ignore_error */
		fprintf(out, ";%" PRIu64 ";%d", r->total_err, r->first_error);
	if (j->description && *j->description) {
		if (ver == 2)
			fputc('\n', out);
		fprintf(out, ";%s", j->description);
	}
	fputc('\n', out);
}

int out_terse_print(FILE *out, const struct report *rep)
{
	unsigned ver = rep->cfg->terse_version;

	if (ver < 2 || ver > 5)
		ver = 3;
	for (unsigned i = 0; i < rep->nr_units; i++)
		out_terse_unit(out, rep, &rep->units[i], ver);
	if (ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

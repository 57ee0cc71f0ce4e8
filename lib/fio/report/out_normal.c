/* SPDX-License-Identifier: MIT */
#include "fio/report/out_normal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "core/num2str.h"
#include "fio/report/unified.h"
#include "core/err.h"

static bool out_normal_pow2(unsigned kb_base)
{
	return kb_base != 1000;
}

void out_normal_lat_line(FILE *out, const char *name, const struct lat_stat *s)
{
	uint64_t min = s->min, max = s->max;
	double mean = s->mean, dev = lat_stat_stdev(s);
	unsigned scale;
	char minb[N2S_BUF_LEN], maxb[N2S_BUF_LEN];

	if (!s->n)
		return;
	scale = num2str_lat_scale(min, max, dev);
	for (unsigned i = 0; i < scale; i++) {
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
	}
	fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name,
		num2str_scale_name(scale), num2str(minb, min, 6, 1, false, N2S_NONE),
		num2str(maxb, max, 6, 1, false, N2S_NONE), mean, dev);
}


void out_normal_percentiles(FILE *out, const char *name, const struct hist *h,
			    const struct job *j)
{
	const double *pcts;
	unsigned prec, nr = report_pct_list(j, &pcts, &prec);
	uint64_t vals[JOB_MAX_PERCENTILES], minv, maxv, divisor = 1;
	unsigned len, scale, width, per_line;

	len = hist_percentiles(h, pcts, nr, vals);
	if (!len)
		return;
	minv = maxv = vals[0];
	for (unsigned i = 1; i < len; i++) {
		if (vals[i] < minv)
			minv = vals[i];
		if (vals[i] > maxv)
			maxv = vals[i];
	}
	scale = num2str_pct_scale(minv, maxv);
	for (unsigned i = 0; i < scale; i++)
		divisor *= 1000;
	fprintf(out, "    %s percentiles (%s):\n     |", name, num2str_scale_name(scale));

	width = maxv / divisor ? num2str_digits(maxv / divisor) : 0;
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (prec + 10 + width);
	if (!per_line)
		per_line = 1;
	for (unsigned i = 0; i < len; i++) {
		uint64_t v = vals[i];
		bool last = i == len - 1;

		if (i && i % per_line == 0)
			fputs("     |", out);
		for (unsigned k = 0; k < scale; k++)
			v = (v + 999) / 1000;
		fprintf(out, " %*.*fth=[%*" PRIu64 "]%c", (int)(prec + 3), (int)prec, pcts[i],
			(int)width, v, last ? '\n' : ',');
		if (!last && i % per_line == per_line - 1)
			fputc('\n', out);
	}
}

void out_normal_lat_dist(FILE *out, const char *unit, const double *pct, unsigned nr)
{
	unsigned on_line = 0;
	bool shown = false;

	for (unsigned i = 0; i < nr && i < LAT_M_NR; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 0) {
			if (shown)
				fputc('\n', out);
			fprintf(out, "  lat (%s)   : ", unit);
		} else {
			fputs(", ", out);
		}
		shown = true;
		fprintf(out, "%s=%3.2f%%", report_lat_labels[i], pct[i]);
		if (++on_line == 5)
			on_line = 0;
	}
	if (shown)
		fputc('\n', out);
}

static void out_normal_bw_lines(FILE *out, const struct report_group *g,
				const struct ddir_result *d, unsigned ddir)
{
	if (d->bw_kib.n) {
		double fkb = (double)g->kb_base, mean = d->bw_kib.mean;
		double dev = lat_stat_stdev(&d->bw_kib);
		double share = report_bw_share(mean, g->agg_bps[ddir]);
		uint64_t min = d->bw_kib.min, max = d->bw_kib.max;
		const char *label = g->kb_base == 1000 ? "kB" : "KiB";

		if (mean > fkb * fkb) {
			min = (uint64_t)((double)min / fkb);
			max = (uint64_t)((double)max / fkb);
			mean /= fkb;
			dev /= fkb;
			label = "MiB";
		}
		fprintf(out, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n", label, min, max,
			share, mean, dev, d->bw_kib.n);
	}
	if (d->iops.n)
		fprintf(out, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", "
			"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n", d->iops.min,
			d->iops.max, d->iops.mean, lat_stat_stdev(&d->iops), d->iops.n);
}

/* cmdprio: "clat prio C/L (unit): ..." lines, or their percentile blocks ("(P% of IOs)"). */
static void out_normal_prio(FILE *out, const struct ddir_result *d, const struct job *j, bool pcts)
{
	const char *kind = j->lat_percentiles ? "lat" : "clat";
	uint64_t total = 0;

	if (!report_prio_shown(d) || (pcts && !j->lat_percentiles && !j->clat_percentiles))
		return;
	for (unsigned i = 0; i < d->nr_prio; i++)
		total += d->prio[i].lat.n;
	for (unsigned i = 0; i < d->nr_prio; i++) {
		const struct prio_result *p = &d->prio[i];
		char name[64];

		if (!p->lat.n)
			continue;
		if (pcts) {
			snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)", kind,
				 (unsigned)(p->ioprio >> IOPRIO_CLASS_SHIFT), (unsigned)(p->ioprio & 7),
				 100.0 * (double)p->lat.n / (double)total);
			out_normal_percentiles(out, name, &p->hist, j);
		} else {
			snprintf(name, sizeof(name), "%s prio %u/%u", kind, (unsigned)(p->ioprio >> IOPRIO_CLASS_SHIFT),
				 (unsigned)(p->ioprio & 7));
			out_normal_lat_line(out, name, &p->lat);
		}
	}
}

/* slat, clat, lat: their lines, the priorities' (cmdprio), their percentiles, the priorities'
 * percentiles */
static void out_normal_lats(FILE *out, const struct ddir_result *d, const struct job *j)
{
	static const char names[3][5] = { "slat", "clat", " lat" };
	const struct lat_stat *st[3] = { &d->slat, &d->clat, &d->lat };
	const struct hist *h[3] = { &d->slat_hist, &d->clat_hist, &d->lat_hist };
	const bool shown[3] = { !j->disable_slat, !j->disable_clat, !j->disable_lat };
	const bool pcts[3] = { j->slat_percentiles, j->clat_percentiles, j->lat_percentiles };

	for (unsigned k = 0; k < 3; k++)
		if (shown[k])
			out_normal_lat_line(out, names[k], st[k]);
	out_normal_prio(out, d, j, false);
	for (unsigned k = 0; k < 3; k++)
		if (pcts[k] && shown[k] && st[k]->n)
			out_normal_percentiles(out, names[k] + (names[k][0] == ' '), h[k], j);
	out_normal_prio(out, d, j, true);
}

static void out_normal_ddir(FILE *out, const struct report *rep, const struct report_unit *u,
			    unsigned ddir)
{
	const struct report_group *g = &rep->groups[u->group];
	const struct ddir_result *d = unified_ddir(u, ddir);	/* unified_rw_reporting */
	const struct job *j = u->last;
	uint64_t runt = report_runtime_ms(d), bw, iops;
	bool pow2 = out_normal_pow2(g->kb_base);
	enum n2s_unit ru = num2str_rate_unit(g->unit_base);
	unsigned sf = u->job->sig_figs ? u->job->sig_figs : 4;	/* the job's own, as fio */
	char b_iops[N2S_BUF_LEN], b_bw[N2S_BUF_LEN], b_bw2[N2S_BUF_LEN], b_io[N2S_BUF_LEN];

	if (!runt)
		return;
	bw = report_rate(d->io_bytes, runt);
	iops = report_rate(report_ios(d), runt);
	if (ddir == UNIFIED_DDIR)	/* fio 3.33's normal "both" block: this line is always so */
		fprintf(out, "  mixed: IOPS=0, BW=0 (0)(0B/%" PRIu64 "msec)\n", runt);
	else
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s", unified_ddir_name(u, ddir),
		num2str(b_iops, iops, sf, 1, false, N2S_NONE), num2str(b_bw, bw, sf, 1, pow2, ru),
		num2str(b_bw2, bw, sf, 1, !pow2, ru),
		num2str(b_io, d->io_bytes, sf, 1, pow2, N2S_BYTE), runt,
		ddir == DDIR_WRITE ? "; " : "\n");
	if (ddir == DDIR_WRITE)	/* zbd */
		fprintf(out, "%" PRIu64 " zone resets\n", u->res->zone_resets);

	out_normal_lats(out, d, j);
	out_normal_bw_lines(out, g, d, unified_agg_idx(ddir));
}

static void out_normal_depths(FILE *out, const char *prefix, const char *const *labels,
			      const uint64_t *map, uint64_t total)
{
	double pct[DEPTH_MAP_NR];

	report_calc_dist(map, DEPTH_MAP_NR, total, pct);
	fputs(prefix, out);
	for (unsigned i = 0; i < DEPTH_MAP_NR; i++)
		fprintf(out, "%s%s=%3.1f%%", i ? ", " : "", labels[i], pct[i]);
	fputc('\n', out);
}

static void out_normal_time(const struct timespec *now, char *buf, size_t len)
{
	struct tm tm;
	time_t t = now->tv_sec;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, len, "%lld", (long long)t);
}

/* steady state: fio's "  steadystate  : attained=..." line */
static void out_normal_ss(FILE *out, const struct ss_result *ss, const struct job *j)
{
	bool pow2 = out_normal_pow2(j->kb_base);
	unsigned kb = j->kb_base == 1000 ? 1000 : 1024;
	enum n2s_unit ru = num2str_rate_unit(j->unit_base);
	uint64_t bw = report_ss_mean(ss->bw, ss->nr) / kb;
	char b1[N2S_BUF_LEN], b2[N2S_BUF_LEN], io[N2S_BUF_LEN];

	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", num2str(b1, bw, j->sig_figs, kb, pow2, ru),
		num2str(b2, bw, j->sig_figs, kb, !pow2, ru),
		num2str(io, report_ss_mean(ss->iops, ss->nr), j->sig_figs, 1, false, N2S_NONE),
		j->ss.iops ? "iops" : "bw", j->ss.slope ? " slope" : " mean dev", ss->criterion,
		j->ss.pct ? "%" : "");
}

void out_normal_unit(FILE *out, const struct report *rep, const struct report_unit *u)
{
	const struct job_result *r = u->res;
	const struct job *j = u->job, *last = u->last;
	uint64_t total = report_total_ios(r), bytes = 0;
	double usr, sys, pct[LAT_M_NR];
	char when[64];

	for (unsigned d = 0; d < DDIR_NR; d++)
		bytes += r->ddir[d].io_bytes;
	if (!bytes && !total)
		return;
	out_normal_time(&rep->now, when, sizeof(when));
	if (!r->error)
		fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%d: %s\n", j->name,
			j->group_id, u->members, r->error, r->pid, when);
	else
		fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d (%s): pid=%d: %s\n", j->name,
			j->group_id, u->members, r->error, r->verror, r->pid, when);
	if (j->description && *j->description)
		fprintf(out, "  Description  : [%s]\n", j->description);
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (r->ddir[d].io_bytes)
			out_normal_ddir(out, rep, u, d);
	if (u->mixed)	/* unified_rw_reporting=both */
		out_normal_ddir(out, rep, u, UNIFIED_DDIR);

	if (!last->disable_clat) {
		report_calc_lat(r->lat_n, LAT_N_NR, total, pct);
		out_normal_lat_dist(out, "nsec", pct, LAT_N_NR);
		report_calc_lat(r->lat_u, LAT_U_NR, total, pct);
		out_normal_lat_dist(out, "usec", pct, LAT_U_NR);
		report_calc_lat(r->lat_m, LAT_M_NR, total, pct);
		out_normal_lat_dist(out, "msec", pct, LAT_M_NR);
	}
	if (r->sync_lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		out_normal_lat_line(out, "sync", &r->sync_lat);
		if (last->clat_percentiles || last->lat_percentiles)
			out_normal_percentiles(out, "sync", &r->sync_hist, last);
	}
	report_cpu(r, &usr, &sys);
	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
		", minf=%" PRIu64 "\n", usr, sys, r->ctx, r->majf, r->minf);
	out_normal_depths(out, "  IO depths    : ", report_depth_labels, r->depth_map, total);
	out_normal_depths(out, "     submit    : ", report_map_labels, r->submit_map, r->nr_submit_calls);
	out_normal_depths(out, "     complete  : ", report_map_labels, r->complete_map,
			  r->nr_complete_calls);
	fprintf(out, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",0\n", report_ios(&r->ddir[0]), report_ios(&r->ddir[1]),
		report_ios(&r->ddir[2]), r->sync_ios, r->ddir[0].short_ios, r->ddir[1].short_ios,
		r->ddir[2].short_ios, r->ddir[0].drop_ios, r->ddir[1].drop_ios,
		r->ddir[2].drop_ios);
	if (r->cont_on_err)	/* continue_on_error / ignore_error */
		fprintf(out, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", r->total_err, r->first_error,
			err_str(r->first_error));
	/* latency_target: ns, latency_window: usec, and the depth found (else iodepth), as fio */
	if (u->client != REPORT_ALL_CLIENTS)
		fprintf(out, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
			last->lat_target_ns, last->lat_window_ns / 1000u, last->lat_pct,
			r->lat_depth ? r->lat_depth : last->iodepth);
	if (r->ss)
		out_normal_ss(out, r->ss, last);
}

static void out_normal_group_lines(FILE *out, const struct report_group *g)
{
	static const char *const names[DDIR_NR] = { "   READ", "  WRITE", "   TRIM" };
	bool pow2 = out_normal_pow2(g->kb_base);
	enum n2s_unit ru = num2str_rate_unit(g->unit_base);
	unsigned sf = g->sig_figs;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		/* the line's figures: aggregate, min, max, io (v[]), in kb_base's units and in
		 * the other's (order: index in v, +4 for the other) */
		const uint64_t v[4] = { g->agg_bps[d], g->min_bps[d], g->max_bps[d], g->io_bytes[d] };
		static const unsigned char order[8] = { 0, 4, 1, 2, 5, 6, 3, 7 };
		char b[8][N2S_BUF_LEN];

		if (!g->max_run_ms[d])
			continue;
		for (unsigned i = 0; i < 8; i++)
			num2str(b[i], v[order[i] & 3], sf, 1, pow2 != (order[i] > 3),
				(order[i] & 3) == 3 ? N2S_BYTE : ru);
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			"msec\n", g->unified == UNIFIED_MIXED ? "  MIXED" : names[d], b[0], b[1], b[2],
			b[3], b[4], b[5], b[6], b[7], g->min_run_ms[d], g->max_run_ms[d]);
	}
}

void out_normal_group(FILE *out, const struct report_group *g)
{
	fprintf(out, "\nRun status group %u (all jobs):\n", g->group_id);
	out_normal_group_lines(out, g);
	if (g->unified == UNIFIED_BOTH) {
		/* unified_rw_reporting=both: one "  MIXED" line, the directions' figures summed
		 * (aggregates, io) or spanned (min/max bandwidth and runtime) */
		struct report_group m = *g;

		memset(m.max_run_ms, 0, sizeof(m.max_run_ms));
		m.unified = UNIFIED_MIXED;
		m.io_bytes[0] = m.agg_bps[0] = m.max_bps[0] = 0;
		m.min_bps[0] = m.min_run_ms[0] = UINT64_MAX;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			if (!g->max_run_ms[d])
				continue;
			m.io_bytes[0] += g->io_bytes[d];
			m.agg_bps[0] += g->agg_bps[d];
			m.min_bps[0] = g->min_bps[d] < m.min_bps[0] ? g->min_bps[d] : m.min_bps[0];
			m.max_bps[0] = g->max_bps[d] > m.max_bps[0] ? g->max_bps[d] : m.max_bps[0];
			m.min_run_ms[0] = g->min_run_ms[d] < m.min_run_ms[0] ? g->min_run_ms[d] : m.min_run_ms[0];
			m.max_run_ms[0] = g->max_run_ms[d] > m.max_run_ms[0] ? g->max_run_ms[d] : m.max_run_ms[0];
		}
		m.max_run_ms[0] = m.max_run_ms[0] ? m.max_run_ms[0] : 1;	/* fio prints it even so */
		out_normal_group_lines(out, &m);
	}
}

void out_normal_disks(FILE *out, const struct disk_result *d, unsigned nr)
{
	if (!nr)
		return;
	fputs("\nDisk stats (read/write):\n", out);
	for (unsigned i = 0; i < nr; i++)
		fprintf(out, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
			d[i].name, d[i].read_ios, d[i].write_ios, d[i].read_merges,
			d[i].write_merges, d[i].read_ticks, d[i].write_ticks, d[i].in_queue,
			d[i].util);
}

int out_normal_print(FILE *out, const struct report *rep)
{
	fputc('\n', out);
	for (unsigned i = 0; i < rep->nr_units; i++)
		out_normal_unit(out, rep, &rep->units[i]);
	for (unsigned g = 0; g < rep->nr_groups; g++)
		out_normal_group(out, &rep->groups[g]);
	out_normal_disks(out, rep->disks, rep->nr_disks);
	if (rep->idle)	/* --idle-prof */
		idleprof_print_normal(out, rep->idle);
	if (ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

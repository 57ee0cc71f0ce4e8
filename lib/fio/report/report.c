/* SPDX-License-Identifier: MIT */
#include "fio/report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/num2str.h"

static const char *const report_rw_names[] = {
	[RW_READ] = "read", [RW_WRITE] = "write", [RW_TRIM] = "trim",
	[RW_RANDREAD] = "randread", [RW_RANDWRITE] = "randwrite", [RW_RANDTRIM] = "randtrim",
	[RW_RW] = "rw", [RW_RANDRW] = "randrw", [RW_TRIMWRITE] = "trimwrite",
	[RW_RANDTRIMWRITE] = "randtrimwrite",
};

const char *const report_depth_labels[DEPTH_MAP_NR] = { "1", "2", "4", "8", "16", "32", ">=64" };
const char *const report_map_labels[DEPTH_MAP_NR] = { "0", "4", "8", "16", "32", "64", ">=64" };
const char *const report_lat_labels[LAT_M_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

static const char *report_rw_name(enum rw_mode rw)
{
	if ((unsigned)rw < sizeof(report_rw_names) / sizeof(report_rw_names[0]) &&
	    report_rw_names[rw])
		return report_rw_names[rw];
	return "unknown";
}

void report_job_headers(FILE *out, const struct fio_config *cfg)
{
	for (unsigned i = 0; i < cfg->nr_jobs; i++) {
		const struct job *j = &cfg->jobs[i];
		bool pow2 = j->kb_base != 1000;
		unsigned sf = j->sig_figs ? j->sig_figs : 4;
		char b[DDIR_NR * 2][N2S_BUF_LEN];

		if (j->subjob == 1) {
			fputs("...\n", out);
			continue;
		}
		/* fio prints no header for the engines that do no I/O (its FIO_NOIO: cpuio, exec),
		 * but still the "..." of their clones */
		if (j->subjob != 0 || !strcmp(j->ioengine, "cpuio") || !strcmp(j->ioengine, "exec"))
			continue;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			num2str(b[2 * d], j->bs_min[d], sf, 1, pow2, N2S_BYTE);
			num2str(b[2 * d + 1], j->bs_max[d], sf, 1, pow2, N2S_BYTE);
		}
		fprintf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, "
			"ioengine=%s, iodepth=%u\n", j->name, j->group_id, report_rw_name(j->rw),
			b[0], b[1], b[2], b[3], b[4], b[5], j->ioengine, j->iodepth);
	}
}

unsigned report_pct_list(const struct job *j, const double **pcts, unsigned *precision)
{
	static const double defaults[] = {
		1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
	};
	unsigned n = 0, max = j->nr_percentiles < JOB_MAX_PERCENTILES ? j->nr_percentiles :
		JOB_MAX_PERCENTILES;

	if (!j->nr_percentiles) {
		*pcts = defaults;
		*precision = 2;
		return sizeof(defaults) / sizeof(defaults[0]);
	}
	*pcts = j->percentiles;
	*precision = j->percentile_precision > 6 ? 6 : j->percentile_precision;
	while (n < max && j->percentiles[n] != 0.0)
		n++;
	return n;
}

uint64_t report_total_ios(const struct job_result *r)
{
	uint64_t sum = 0;

	for (unsigned d = 0; d < DDIR_NR; d++)
		sum += report_ios(&r->ddir[d]);
	return sum;
}

double report_bw_share(double mean_kib, uint64_t agg_bps)
{
	/* fio passes the mean as an int (truncated) and divides by agg in KiB as a double */
	double mean = mean_kib < 2147483647.0 ? (double)(int64_t)mean_kib : 2147483647.0, p;

	if (agg_bps <= 1024)
		return 100.0;
	p = mean * 100.0 / ((double)agg_bps / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

static void report_calc_pct(const uint64_t *counts, unsigned nr, uint64_t total, double *pct,
			    double floor)
{
	for (unsigned i = 0; i < nr; i++) {
		if (!total) {
			pct[i] = 0.0;
			continue;
		}
		pct[i] = (double)counts[i] / (double)total * 100.0;
		if (counts[i] && pct[i] < floor)
			pct[i] = floor;
	}
}

void report_calc_lat(const uint64_t *counts, unsigned nr, uint64_t total, double *pct)
{
	report_calc_pct(counts, nr, total, pct, 0.01);
}

void report_calc_dist(const uint64_t *counts, unsigned nr, uint64_t total, double *pct)
{
	report_calc_pct(counts, nr, total, pct, 0.1);
}

void report_cpu(const struct job_result *r, double *usr_pct, double *sys_pct)
{
	/* fio accumulates whole milliseconds of cpu time against ms of run time */
	if (!r->run_ms) {
		*usr_pct = 0.0;
		*sys_pct = 0.0;
		return;
	}
	*usr_pct = (double)(r->usr_us / 1000) * 100.0 / (double)r->run_ms;
	*sys_pct = (double)(r->sys_us / 1000) * 100.0 / (double)r->run_ms;
}

void report_merge_ddir(struct ddir_result *dst, const struct ddir_result *src)
{
	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->issued_ios += src->issued_ios;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	if (src->runtime_us > dst->runtime_us)
		dst->runtime_us = src->runtime_us;
	lat_stat_merge(&dst->slat, &src->slat);
	lat_stat_merge(&dst->clat, &src->clat);
	lat_stat_merge(&dst->lat, &src->lat);
	hist_merge(&dst->clat_hist, &src->clat_hist);
	hist_merge(&dst->lat_hist, &src->lat_hist);
	hist_merge(&dst->slat_hist, &src->slat_hist);
	lat_stat_sum(&dst->bw_kib, &src->bw_kib);
	lat_stat_sum(&dst->iops, &src->iops);
	for (unsigned i = 0; i < src->nr_prio; i++) {	/* cmdprio: by priority value */
		unsigned k = 0;

		while (k < dst->nr_prio && dst->prio[k].ioprio != src->prio[i].ioprio)
			k++;
		if (k == dst->nr_prio) {
			if (k == IOPRIO_SLOTS)
				continue;	/* more than the slots: not reported */
			memset(&dst->prio[k], 0, sizeof(dst->prio[k]));
			dst->prio[k].ioprio = src->prio[i].ioprio;
			dst->nr_prio++;
		}
		lat_stat_merge(&dst->prio[k].lat, &src->prio[i].lat);
		hist_merge(&dst->prio[k].hist, &src->prio[i].hist);
	}
}

bool report_prio_shown(const struct ddir_result *d)
{
	unsigned with_io = 0;

	for (unsigned i = 0; i < d->nr_prio; i++)
		with_io += d->prio[i].lat.n > 0;
	return with_io >= 2;	/* fio shows them when two priorities or more had I/O */
}

static void report_add_u64(uint64_t *dst, const uint64_t *src, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		dst[i] += src[i];
}

void report_merge_result(struct job_result *dst, const struct job_result *src)
{
	if (src->ss)	/* steady state: the group's outcome, from its last job (as fio) */
		dst->ss = src->ss;
	for (unsigned d = 0; d < DDIR_NR; d++)
		report_merge_ddir(&dst->ddir[d], &src->ddir[d]);
	if (!dst->error && src->error) {
		dst->error = src->error;
		dst->err_continued = src->err_continued;
		memcpy(dst->verror, src->verror, sizeof(dst->verror));
		dst->verror[sizeof(dst->verror) - 1] = '\0';
	}
	dst->cont_on_err = dst->cont_on_err || src->cont_on_err;	/* continue_on_error */
	if (!dst->first_error)
		dst->first_error = src->first_error;
	dst->total_err += src->total_err;
	dst->sync_ios += src->sync_ios;
	dst->lat_depth = src->lat_depth;	/* latency_target: the last job's, as fio */
	dst->zone_resets += src->zone_resets;	/* zbd */
	lat_stat_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_hist, &src->sync_hist);
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->run_ms += src->run_ms;
	if (src->job_start_ms && (!dst->job_start_ms || src->job_start_ms < dst->job_start_ms))
		dst->job_start_ms = src->job_start_ms;	/* a group's: its first job's */
	if (src->elapsed_s > dst->elapsed_s)
		dst->elapsed_s = src->elapsed_s;
	report_add_u64(dst->depth_map, src->depth_map, DEPTH_MAP_NR);
	report_add_u64(dst->submit_map, src->submit_map, DEPTH_MAP_NR);
	report_add_u64(dst->complete_map, src->complete_map, DEPTH_MAP_NR);
	dst->nr_submit_calls += src->nr_submit_calls;
	dst->nr_complete_calls += src->nr_complete_calls;
	report_add_u64(dst->lat_n, src->lat_n, LAT_N_NR);
	report_add_u64(dst->lat_u, src->lat_u, LAT_U_NR);
	report_add_u64(dst->lat_m, src->lat_m, LAT_M_NR);
}

void report_release(struct report *rep)
{
	for (unsigned i = 0; i < rep->nr_units; i++) {
		if (rep->units[i].owned)
			free(rep->units[i].res);
		free(rep->units[i].mixed);	/* unified_rw_reporting=both */
	}
	free(rep->units);
	free(rep->groups);
	memset(rep, 0, sizeof(*rep));
}

/* The group of group_id (opened on first sight). Its kb_base, unit_base and sig_figs are
 * those of the last unit that joins it, as fio's run status group takes them from its last
 * thread stats; the job lines of the whole group then use its kb_base and unit_base. A job
 * that never ran opens its group but does not join it. */
static int report_find_group(struct report *rep, unsigned group_id, const struct job *j, bool joins)
{
	unsigned g = 0;

	while (g < rep->nr_groups && rep->groups[g].group_id != group_id)
		g++;
	struct report_group *grp = &rep->groups[g];
	if (g == rep->nr_groups) {
		memset(grp, 0, sizeof(*grp));
		grp->group_id = group_id;
		rep->nr_groups++;
		joins = true;
	}
	if (joins) {
		grp->kb_base = j->kb_base ? j->kb_base : 1024;
		grp->unit_base = j->unit_base;
		grp->sig_figs = j->sig_figs ? j->sig_figs : 4;
	}
	return (int)g;
}

uint64_t report_rate(uint64_t bytes, uint64_t ms)
{
	/* bytes * 1000 / ms without overflowing */
	return ms ? bytes / ms * 1000 + bytes % ms * 1000 / ms : 0;
}

static void report_group_add(struct report_group *g, const struct job_result *r)
{
	g->nr_units++;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		uint64_t run = report_runtime_ms(&r->ddir[d]), bw;
		bool first = !g->max_run_ms[d];

		if (!run)
			continue;
		if (first || run < g->min_run_ms[d])
			g->min_run_ms[d] = run;
		if (run > g->max_run_ms[d])
			g->max_run_ms[d] = run;
		bw = report_rate(r->ddir[d].io_bytes, run);
		if (first || bw < g->min_bps[d])
			g->min_bps[d] = bw;
		if (bw > g->max_bps[d])
			g->max_bps[d] = bw;
		g->io_bytes[d] += r->ddir[d].io_bytes;
	}
}

int report_build_units(struct report *rep, const struct fio_config *cfg, struct job_result *const *res,
		       unsigned nr_res)
{
	unsigned n = nr_res < cfg->nr_jobs ? nr_res : cfg->nr_jobs;

	memset(rep, 0, sizeof(*rep));
	rep->cfg = cfg;
	clock_gettime(CLOCK_REALTIME, &rep->now);
	if (!n)
		return 0;
	rep->units = calloc(n, sizeof(*rep->units));
	rep->groups = calloc(n, sizeof(*rep->groups));
	if (!rep->units || !rep->groups)
		goto release_rep;

	for (unsigned i = 0; i < n; i++) {
		const struct job *j = &cfg->jobs[i];
		struct report_unit *u = rep->nr_units ? &rep->units[rep->nr_units - 1] : NULL;

		if (!res[i]) {
			/* a job that never ran still opens its group: fio prints the bare header */
			(void)report_find_group(rep, j->group_id, j, false);
			continue;
		}
		if (u && j->group_reporting && u->job->group_id == j->group_id) {
			if (!u->owned) {
				struct job_result *m = malloc(sizeof(*m));

				if (!m)
					goto release_rep;
				memcpy(m, u->res, sizeof(*m));
				u->res = m;
				u->owned = true;
			}
			report_merge_result(u->res, res[i]);
			u->members++;
			u->last = j;
			continue;
		}
		u = &rep->units[rep->nr_units++];
		u->job = j;
		u->last = j;
		u->res = res[i];
		u->owned = false;
		u->members = 1;
		u->group = (unsigned)report_find_group(rep, j->group_id, j, true);
	}
	return 0;

release_rep:
	report_release(rep);
	return -ENOMEM;
}

void report_sum_groups(struct report *rep)
{
	for (unsigned i = 0; i < rep->nr_units; i++)
		report_group_add(&rep->groups[rep->units[i].group], rep->units[i].res);
	for (unsigned g = 0; g < rep->nr_groups; g++)
		for (unsigned d = 0; d < DDIR_NR; d++) {
			struct report_group *grp = &rep->groups[g];

			grp->agg_bps[d] = report_rate(grp->io_bytes[d], grp->max_run_ms[d]);
		}
}

uint64_t report_ss_mean(const uint64_t *v, unsigned n)
{
	unsigned __int128 sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	return n ? (uint64_t)(sum / n) : 0;
}

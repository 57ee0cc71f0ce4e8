/* SPDX-License-Identifier: MIT */
#include "fio/report/out_json.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fio/report/unified.h"

static void out_json_opts(struct json_writer *w, const char *key, const struct job_kv *kv,
			  unsigned nr)
{
	if (!nr)
		return;
	json_begin_object(w, key);
	for (unsigned i = 0; i < nr; i++)
		json_string(w, kv[i].key, kv[i].value);
	json_end_object(w);
}

static void out_json_lat(struct json_writer *w, const char *key, const struct lat_stat *s,
			 const struct hist *h, bool percentiles, const struct job *j, bool plus)
{
	json_begin_object(w, key);
	json_uint(w, "min", s->n ? s->min : 0);
	json_uint(w, "max", s->n ? s->max : 0);
	json_float(w, "mean", s->n ? s->mean : 0.0);
	json_float(w, "stddev", lat_stat_stdev(s));
	json_uint(w, "N", s->n);
	if (percentiles && s->n) {
		const double *pcts;
		unsigned prec, nr = report_pct_list(j, &pcts, &prec), len;
		uint64_t vals[JOB_MAX_PERCENTILES];

		len = hist_percentiles(h, pcts, nr, vals);
		json_begin_object(w, "percentile");
		for (unsigned i = 0; i < len; i++) {
			char name[400];	/* "%f" of any double fits */

			snprintf(name, sizeof(name), "%f", pcts[i]);
			json_uint(w, name, vals[i]);
		}
		json_end_object(w);
		if (plus) {
			json_begin_object(w, "bins");
			for (unsigned i = 0; i < HIST_NR; i++) {
				char name[32];

				if (!h->bucket[i])
					continue;
				snprintf(name, sizeof(name), "%llu",
					 (unsigned long long)hist_idx_to_val(i));
				json_uint(w, name, h->bucket[i]);
			}
			json_end_object(w);
		}
	}
	json_end_object(w);
}

static void out_json_ddir(struct json_writer *w, const struct report *rep,
			  const struct report_unit *u, unsigned ddir, bool plus)
{
	const struct report_group *g = &rep->groups[u->group];
	const struct ddir_result *d = unified_ddir(u, ddir);	/* unified_rw_reporting */
	const struct job *j = u->last;
	uint64_t runt = report_runtime_ms(d), bw_bytes = report_rate(d->io_bytes, runt);
	double iops = runt ? 1000.0 * (double)report_ios(d) / (double)runt : 0.0;
	const struct lat_stat *bw = &d->bw_kib, *io = &d->iops;
	static const char keys[3][8] = { "slat_ns", "clat_ns", "lat_ns" };
	const struct lat_stat *st[3] = { &d->slat, &d->clat, &d->lat };
	const struct hist *h[3] = { &d->slat_hist, &d->clat_hist, &d->lat_hist };
	const bool pcts[3] = { j->slat_percentiles, j->clat_percentiles, j->lat_percentiles };

	json_begin_object(w, unified_ddir_name(u, ddir));
	json_uint(w, "io_bytes", d->io_bytes);
	json_uint(w, "io_kbytes", d->io_bytes >> 10);
	json_uint(w, "bw_bytes", bw_bytes);
	json_uint(w, "bw", bw_bytes / 1024);
	json_float(w, "iops", iops);
	json_uint(w, "runtime", runt);
	json_uint(w, "total_ios", report_ios(d));
	json_uint(w, "short_ios", d->short_ios);
	json_uint(w, "drop_ios", d->drop_ios);
	for (unsigned k = 0; k < 3; k++)
		out_json_lat(w, keys[k], st[k], h[k], pcts[k], j, plus);
	if (report_prio_shown(d)) {	/* cmdprio: fio's "prios", the priorities that had I/O */
		json_begin_array(w, "prios");
		for (unsigned i = 0; i < d->nr_prio; i++) {
			const struct prio_result *p = &d->prio[i];

			if (!p->lat.n)
				continue;
			json_begin_object(w, NULL);
			json_uint(w, "prioclass", p->ioprio >> IOPRIO_CLASS_SHIFT);
			json_uint(w, "prio", p->ioprio & 7);
			out_json_lat(w, j->lat_percentiles ? "lat_ns" : "clat_ns", &p->lat, &p->hist,
				     j->lat_percentiles || j->clat_percentiles, j, plus);
			json_end_object(w);
		}
		json_end_array(w);
	}
	json_uint(w, "bw_min", bw->n ? bw->min : 0);
	json_uint(w, "bw_max", bw->n ? bw->max : 0);
	json_float(w, "bw_agg", bw->n ? report_bw_share(bw->mean, g->agg_bps[unified_agg_idx(ddir)]) : 0.0);
	json_float(w, "bw_mean", bw->n ? bw->mean : 0.0);
	json_float(w, "bw_dev", lat_stat_stdev(bw));
	json_uint(w, "bw_samples", bw->n);
	json_uint(w, "iops_min", io->n ? io->min : 0);
	json_uint(w, "iops_max", io->n ? io->max : 0);
	json_float(w, "iops_mean", io->n ? io->mean : 0.0);
	json_float(w, "iops_stddev", lat_stat_stdev(io));
	json_uint(w, "iops_samples", io->n);
	json_end_object(w);
}

static void out_json_map(struct json_writer *w, const char *key, const char *const *labels,
			 const double *pct, unsigned nr)
{
	json_begin_object(w, key);
	for (unsigned i = 0; i < nr; i++)
		json_float(w, labels[i], pct[i]);
	json_end_object(w);
}

/* steady state: fio's "steadystate" object (limit and criterion printed as floats, as fio) */
static void out_json_ss(struct json_writer *w, const struct ss_result *ss, const struct job_ss *cfg)
{
	char buf[96];

	json_begin_object(w, "steadystate");
	snprintf(buf, sizeof(buf), "%s%s:%f%s", cfg->iops ? "iops" : "bw", cfg->slope ? "_slope" : "",
		 (double)(float)cfg->limit, cfg->pct ? "%" : "");
	json_string(w, "ss", buf);
	json_uint(w, "duration", ss->nr);
	json_uint(w, "attained", ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion, cfg->pct ? "%" : "");
	json_string(w, "criterion", buf);
	json_float(w, "max_deviation", ss->deviation);
	json_float(w, "slope", ss->slope);
	json_begin_object(w, "data");
	json_uint(w, "bw_mean", report_ss_mean(ss->bw, ss->nr));
	json_uint(w, "iops_mean", report_ss_mean(ss->iops, ss->nr));
	json_begin_array(w, "iops");
	for (unsigned i = 0; i < ss->nr; i++)
		json_uint(w, NULL, ss->iops[i]);
	json_end_array(w);
	json_begin_array(w, "bw");
	for (unsigned i = 0; i < ss->nr; i++)
		json_uint(w, NULL, ss->bw[i]);
	json_end_array(w);
	json_end_object(w);
	json_end_object(w);
}

void out_json_unit_fields(struct json_writer *w, const struct report *rep, const struct report_unit *u,
			  bool plus)
{
	const struct job_result *r = u->res;
	const struct job *j = u->job, *last = u->last;
	uint64_t total = report_total_ios(r);
	double usr, sys, pct[LAT_M_NR];

	json_string(w, "jobname", j->name);
	json_uint(w, "groupid", j->group_id);
	json_int(w, "error", r->error);
	if (!u->client) {
		/* fio reports an unknown ETA (INT_MAX) while less than 3 s have elapsed */
		json_int(w, "eta", r->elapsed_s < 3 ? INT_MAX : 0);
		json_uint(w, "elapsed", r->elapsed_s);
	}
	out_json_opts(w, "job options", last->opts, last->nr_opts);
	/* unified_rw_reporting=mixed: only "mixed" (in READ's place), and no "sync" (as fio) */
	for (unsigned d = 0; d < (u->unified == UNIFIED_MIXED ? 1u : DDIR_NR); d++)
		out_json_ddir(w, rep, u, d, plus);
	if (u->unified != UNIFIED_MIXED) {
		json_begin_object(w, "sync");
		json_uint(w, "total_ios", r->sync_ios);
		out_json_lat(w, "lat_ns", &r->sync_lat, &r->sync_hist,
			     last->clat_percentiles || last->lat_percentiles, last, plus);
		json_end_object(w);
	}
	if (u->mixed)	/* unified_rw_reporting=both */
		out_json_ddir(w, rep, u, UNIFIED_DDIR, plus);

	report_cpu(r, &usr, &sys);
	json_uint(w, "job_runtime", r->run_ms);
	if (rep->cfg && rep->cfg->json_job_start && !u->client)	/* a server's run (fio 3.36's) */
		json_uint(w, "job_start", r->job_start_ms);
	json_float(w, "usr_cpu", usr);
	json_float(w, "sys_cpu", sys);
	json_uint(w, "ctx", r->ctx);
	json_uint(w, "majf", r->majf);
	json_uint(w, "minf", r->minf);
	report_calc_dist(r->depth_map, DEPTH_MAP_NR, total, pct);
	out_json_map(w, "iodepth_level", report_depth_labels, pct, DEPTH_MAP_NR);
	report_calc_dist(r->submit_map, DEPTH_MAP_NR, r->nr_submit_calls, pct);
	out_json_map(w, "iodepth_submit", report_map_labels, pct, DEPTH_MAP_NR);
	report_calc_dist(r->complete_map, DEPTH_MAP_NR, r->nr_complete_calls, pct);
	out_json_map(w, "iodepth_complete", report_map_labels, pct, DEPTH_MAP_NR);
	report_calc_lat(r->lat_n, LAT_N_NR, total, pct);
	out_json_map(w, "latency_ns", report_lat_labels, pct, LAT_N_NR);
	report_calc_lat(r->lat_u, LAT_U_NR, total, pct);
	out_json_map(w, "latency_us", report_lat_labels, pct, LAT_U_NR);
	report_calc_lat(r->lat_m, LAT_M_NR, total, pct);
	out_json_map(w, "latency_ms", report_lat_labels, pct, LAT_M_NR);
	if (r->cont_on_err) {	/* continue_on_error / ignore_error */
		json_uint(w, "total_err", r->total_err);
		json_int(w, "first_error", r->first_error);
	}
	if (u->client != REPORT_ALL_CLIENTS) {
		/* latency_target: ns, latency_window: usec, and the depth found (else iodepth), as fio */
		json_uint(w, "latency_depth", r->lat_depth ? r->lat_depth : last->iodepth);
		json_uint(w, "latency_target", last->lat_target_ns);
		json_float(w, "latency_percentile", last->lat_pct);
		json_uint(w, "latency_window", last->lat_window_ns / 1000u);
	}
	if (r->ss)
		out_json_ss(w, r->ss, &last->ss);
	json_string(w, "desc", j->description);
}

void out_json_unit(struct json_writer *w, const struct report *rep, const struct report_unit *u,
		   bool plus)
{
	json_begin_object(w, NULL);
	out_json_unit_fields(w, rep, u, plus);
	json_end_object(w);
}

static void out_json_disks(struct json_writer *w, const struct disk_result *d, unsigned nr)
{
	if (!nr)
		return;
	json_begin_array(w, "disk_util");
	for (unsigned i = 0; i < nr; i++) {
		json_begin_object(w, NULL);
		json_string(w, "name", d[i].name);
		json_uint(w, "read_ios", d[i].read_ios);
		json_uint(w, "write_ios", d[i].write_ios);
		json_uint(w, "read_merges", d[i].read_merges);
		json_uint(w, "write_merges", d[i].write_merges);
		json_uint(w, "read_ticks", d[i].read_ticks);
		json_uint(w, "write_ticks", d[i].write_ticks);
		json_uint(w, "in_queue", d[i].in_queue);
		json_float(w, "util", d[i].util);
		json_end_object(w);
	}
	json_end_array(w);
}

int out_json_print(FILE *out, const struct report *rep, bool plus)
{
	struct json_writer w;
	struct tm tm;
	time_t t = rep->now.tv_sec;
	char when[64] = "";

	if (!localtime_r(&t, &tm) || !strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm))
		when[0] = '\0';
	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_string(&w, "fio version", "fio-3.33");
	json_int(&w, "timestamp", (int64_t)rep->now.tv_sec);
	json_int(&w, "timestamp_ms", (int64_t)rep->now.tv_sec * 1000 + rep->now.tv_nsec / 1000000);
	json_string(&w, "time", when);
	out_json_opts(&w, "global options", rep->cfg->global_opts, rep->cfg->nr_global_opts);
	json_begin_array(&w, "jobs");
	for (unsigned i = 0; i < rep->nr_units; i++)
		out_json_unit(&w, rep, &rep->units[i], plus);
	json_end_array(&w);
	out_json_disks(&w, rep->disks, rep->nr_disks);
	if (rep->idle) {	/* --idle-prof */
		const struct idle_result *ir = rep->idle;

		json_begin_object(&w, "cpu_idleness");
		json_float(&w, "system", ir->system);
		if (ir->mode == IDLE_PERCPU)
			for (unsigned c = 0; c < ir->nr_cpus; c++) {
				char key[24];

				snprintf(key, sizeof(key), "cpu-%u", c);
				json_float(&w, key, ir->percpu[c]);
			}
		json_float(&w, "unit_mean", ir->unit_mean);
		json_float(&w, "unit_stddev", ir->unit_stddev);
		json_end_object(&w);
	}
	json_end_object(&w);
	return json_finish(&w);
}

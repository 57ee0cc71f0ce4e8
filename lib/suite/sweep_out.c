/* SPDX-License-Identifier: MIT */
/* sweep_out: step numbers from fio JSON, reports, table, CSV and JSON; see sweep_out.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include "core/openmetrics.h"
#include "core/num2str.h"
#include "suite/sweep_out.h"

static const char *const dirs[] = { "read", "write" };
const char *const sweep_row_wl_keys[SWEEP_ROW_WL] = { "ioengine", "iodepth", "numjobs", "size", "direct" };

/* The per-window samples of one figure of a direction, added into the row's (see sweep_out.h). */
static void sweep_row_windows(const struct jsonr *j, const struct jsonr_node *dn, const char *pfx,
			      const char *dev, double *n, double *mean, double *sd)
{
	char k[3][24];
	double v[3];

	snprintf(k[0], sizeof(k[0]), "%s_samples", pfx);
	snprintf(k[1], sizeof(k[1]), "%s_mean", pfx);
	snprintf(k[2], sizeof(k[2]), "%s_%s", pfx, dev);
	if (!jsonr_num(j, dn, k[0], &v[0]) || !jsonr_num(j, dn, k[1], &v[1]) || !jsonr_num(j, dn, k[2], &v[2]) || !v[0])
		return;
	*n = *n > 0 && *n < v[0] ? *n : v[0];
	*mean += v[1];
	*sd = sqrt(*sd * *sd + v[2] * v[2]);
}

int sweep_row_from_json(struct sweep_row *r, const struct jsonr *j)
{
	const struct jsonr_node *job = jsonr_get(j, NULL, "jobs/0"), *cs = jsonr_get(j, NULL, "client_stats");
	double ios_total = 0, lat_sum = 0, m2 = 0, v, sd;

	if (!job && cs && cs->type == JSONR_ARR)	/* a client run's: its last entry, All clients */
		for (uint32_t k = cs->first; k; k = j->nodes[k].next)
			job = &j->nodes[k];
	if (!job || job->type != JSONR_OBJ || !jsonr_get(j, job, "read/iops"))
		return -EINVAL;
	r->iops = r->bw_bytes = r->lat_mean_ns = r->clat_p99_ns = r->clat_p50_ns = r->clat_p999_ns = 0;
	r->io_bytes = r->total_ios = 0;
	r->lat_stddev_ns = r->iops_samples = r->iops_mean = r->iops_stddev = 0;
	r->bw_samples = r->bw_mean = r->bw_dev = 0;
	r->error = jsonr_num(j, job, "error", &v) ? (int)v : 0;
	for (unsigned k = 0; k < SWEEP_ROW_WL; k++) {
		char path[40];
		const char *val;

		snprintf(path, sizeof(path), "job options/%s", sweep_row_wl_keys[k]);
		val = jsonr_str(j, job, path);
		snprintf(path, sizeof(path), "global options/%s", sweep_row_wl_keys[k]);
		val = val ? val : jsonr_str(j, NULL, path);
		if (val && strlen(val) >= sizeof(r->wl[k]))
			val = NULL;	/* not ours to cut: left out (iops compare then does not compare it) */
		memcpy(r->wl[k], val ? val : "", val ? strlen(val) + 1 : 1);
	}
	for (int d = 0; d < 2; d++) {
		const struct jsonr_node *dn = jsonr_get(j, job, dirs[d]);
		double ios = 0, mean;

		if (!dn)
			continue;
		if (jsonr_num(j, dn, "iops", &v))
			r->iops += v;
		if (jsonr_num(j, dn, "bw_bytes", &v))
			r->bw_bytes += v;
		if (jsonr_num(j, dn, "io_bytes", &v))
			r->io_bytes += (uint64_t)v;
		if (!jsonr_num(j, dn, "total_ios", &ios) || ios <= 0)
			continue;
		r->total_ios += (uint64_t)ios;
		if (jsonr_num(j, dn, "lat_ns/mean", &mean)) {	/* Chan's pooling of the two directions */
			if (!jsonr_num(j, dn, "lat_ns/stddev", &sd))
				sd = 0;
			if (ios_total > 0) {
				double delta = mean - lat_sum / ios_total;

				m2 += delta * delta * ios_total * ios / (ios_total + ios);
			}
			m2 += sd * sd * (ios - 1);
			lat_sum += mean * ios;
			ios_total += ios;
		}
		if (jsonr_num(j, dn, "clat_ns/percentile/50.000000", &v) && v > r->clat_p50_ns)
			r->clat_p50_ns = v;
		if (jsonr_num(j, dn, "clat_ns/percentile/99.000000", &v) && v > r->clat_p99_ns)
			r->clat_p99_ns = v;
		if (jsonr_num(j, dn, "clat_ns/percentile/99.900000", &v) && v > r->clat_p999_ns)
			r->clat_p999_ns = v;
		sweep_row_windows(j, dn, "iops", "stddev", &r->iops_samples, &r->iops_mean, &r->iops_stddev);
		sweep_row_windows(j, dn, "bw", "dev", &r->bw_samples, &r->bw_mean, &r->bw_dev);
	}
	r->lat_mean_ns = ios_total > 0 ? lat_sum / ios_total : 0;
	r->lat_stddev_ns = ios_total > 1 ? sqrt(m2 / (ios_total - 1)) : 0;
	return 0;
}

static void sweep_report_dir(FILE *out, const struct jsonr *j, const struct jsonr_node *dn, const char *name)
{
	static const char *const pcts[] = { "50.000000", "99.000000", "99.900000" };
	char a[N2S_BUF_LEN], b[N2S_BUF_LEN], c[N2S_BUF_LEN], d[N2S_BUF_LEN];
	double iops = 0, bw = 0, io = 0, rt = 0, mn = 0, mx = 0, avg = 0, sd = 0, v;

	jsonr_num(j, dn, "iops", &iops);
	jsonr_num(j, dn, "bw_bytes", &bw);
	jsonr_num(j, dn, "io_bytes", &io);
	jsonr_num(j, dn, "runtime", &rt);
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%.0fmsec)\n", name,
		num2str(a, (uint64_t)iops, 4, 1, false, N2S_NONE),
		num2str(b, (uint64_t)bw, 4, 1, true, N2S_BYTEPERSEC),
		num2str(c, (uint64_t)bw, 4, 1, false, N2S_BYTEPERSEC),
		num2str(d, (uint64_t)io, 4, 1, true, N2S_BYTE), rt);
	if (jsonr_num(j, dn, "lat_ns/min", &mn) && jsonr_num(j, dn, "lat_ns/max", &mx) &&
	    jsonr_num(j, dn, "lat_ns/mean", &avg) && jsonr_num(j, dn, "lat_ns/stddev", &sd))
		fprintf(out, "     lat (usec): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", mn / 1e3, mx / 1e3,
			avg / 1e3, sd / 1e3);
	fputs("    clat percentiles (usec):", out);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		char path[64];

		snprintf(path, sizeof(path), "clat_ns/percentile/%s", pcts[i]);
		if (jsonr_num(j, dn, path, &v))
			fprintf(out, " %.*sth=[%.0f]", (int)strlen(pcts[i]) - 4, pcts[i], v / 1e3);
	}
	fputc('\n', out);
}

void sweep_report(FILE *out, const struct jsonr *j, unsigned numjobs)
{
	const struct jsonr_node *job = jsonr_get(j, NULL, "jobs/0");
	const char *when = jsonr_str(j, NULL, "time");
	double err = 0;

	if (!job)
		return;
	jsonr_num(j, job, "error", &err);
	fprintf(out, "All jobs: (groupid=0, jobs=%u): err=%2.0f: %s\n", numjobs, err, when ? when : "");
	for (int d = 0; d < 2; d++) {
		const struct jsonr_node *dn = jsonr_get(j, job, dirs[d]);
		double ios = 0;

		if (dn && jsonr_num(j, dn, "total_ios", &ios) && ios > 0)
			sweep_report_dir(out, j, dn, dirs[d]);
	}
}

/* A sweep across servers: its rows are All clients, with the servers behind each. */
static bool sweep_remote_rows(const struct sweep_row *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (rows[i].servers || rows[i].servers_failed)
			return true;
	return false;
}

void sweep_table(FILE *out, const struct sweep_row *rows, unsigned n)
{
	bool remote = sweep_remote_rows(rows, n);

	fprintf(out, "%-10s %-6s %6s %12s %12s %14s %14s%s\n", "rw", "bs", "sample", "IOPS", "BW (MiB/s)",
		"lat mean (us)", "clat p99 (us)", remote ? "  servers" : "");
	for (unsigned i = 0; i < n; i++) {
		const struct sweep_row *r = &rows[i];
		char srv[32] = "";

		if (remote)
			snprintf(srv, sizeof(srv), "  %7u/%u", r->servers, r->servers + r->servers_failed);
		fprintf(out, "%-10s %-6s %6u %12.1f %12.2f %14.2f %14.2f%s%s\n", r->rw, r->bs, r->sample, r->iops,
			r->bw_bytes / (1 << 20), r->lat_mean_ns / 1e3, r->clat_p99_ns / 1e3, srv,
			r->stopped ? "  (stopped)" : "");
	}
}

void sweep_csv(FILE *out, const struct sweep_row *rows, unsigned n)
{
	bool remote = sweep_remote_rows(rows, n);

	fprintf(out, "rw,bs,sample,iops,bw_bytes,lat_mean_us,clat_p99_us,io_bytes,error,stopped%s\n",
		remote ? ",servers,servers_failed" : "");
	for (unsigned i = 0; i < n; i++) {
		const struct sweep_row *r = &rows[i];

		fprintf(out, "%s,%s,%u,%.3f,%.0f,%.3f,%.3f,%llu,%d,%d", r->rw, r->bs, r->sample, r->iops,
			r->bw_bytes, r->lat_mean_ns / 1e3, r->clat_p99_ns / 1e3,
			(unsigned long long)r->io_bytes, r->error, r->stopped);
		if (remote)
			fprintf(out, ",%u,%u", r->servers, r->servers_failed);
		fputc('\n', out);
	}
}

int sweep_json(FILE *out, const struct sweep_row *rows, unsigned n)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_begin_array(&w, "steps");
	for (unsigned i = 0; i < n; i++) {
		const struct sweep_row *r = &rows[i];

		json_begin_object(&w, NULL);
		json_string(&w, "rw", r->rw);
		json_string(&w, "bs", r->bs);
		json_uint(&w, "sample", r->sample);
		json_float(&w, "iops", r->iops);
		json_float(&w, "bw_bytes", r->bw_bytes);
		json_float(&w, "lat_mean_us", r->lat_mean_ns / 1e3);
		json_float(&w, "clat_p99_us", r->clat_p99_ns / 1e3);
		json_uint(&w, "io_bytes", r->io_bytes);
		json_int(&w, "error", r->error);
		json_uint(&w, "stopped", r->stopped);
		/* what iops compare reads beyond the table's figures */
		json_float(&w, "clat_p50_us", r->clat_p50_ns / 1e3);
		json_float(&w, "clat_p999_us", r->clat_p999_ns / 1e3);
		json_uint(&w, "total_ios", r->total_ios);
		json_float(&w, "lat_stddev_us", r->lat_stddev_ns / 1e3);
		json_uint(&w, "iops_samples", (uint64_t)r->iops_samples);
		json_float(&w, "iops_mean", r->iops_mean);
		json_float(&w, "iops_stddev", r->iops_stddev);
		json_uint(&w, "bw_samples", (uint64_t)r->bw_samples);
		json_float(&w, "bw_mean", r->bw_mean);
		json_float(&w, "bw_dev", r->bw_dev);
		for (unsigned k = 0; k < SWEEP_ROW_WL; k++)
			json_string(&w, sweep_row_wl_keys[k], r->wl[k]);
		if (r->servers || r->servers_failed) {	/* across servers: the figures are All clients' */
			json_uint(&w, "servers", r->servers);
			json_uint(&w, "servers_failed", r->servers_failed);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

/* The labels of a step (step name and sample number written into the two buffers). */
static unsigned sweep_om_labels(const struct sweep_row *r, const char *host, char *step, size_t n, char *sample,
				size_t sn, struct openmetrics_label *l)
{
	snprintf(step, n, "fio_%s_%s_sample%u", r->bs, r->rw, r->sample);
	snprintf(sample, sn, "%u", r->sample);
	l[0] = (struct openmetrics_label){ "host", host };
	l[1] = (struct openmetrics_label){ "step", step };
	l[2] = (struct openmetrics_label){ "rw", r->rw };
	l[3] = (struct openmetrics_label){ "bs", r->bs };
	l[4] = (struct openmetrics_label){ "sample", sample };
	return 5;
}

int sweep_openmetrics(FILE *out, const struct sweep_row *rows, unsigned n, const char *host)
{
	static const struct {
		const char *name, *unit, *help;
		enum openmetrics_type type;
	} fams[] = {
		{ "iops_job_error", NULL, "errno of the step's first error, 0 when none", OPENMETRICS_GAUGE },
		{ "iops_io_bytes", "bytes", "Bytes transferred, both directions", OPENMETRICS_COUNTER },
		{ "iops_ios", NULL, "I/Os issued, both directions", OPENMETRICS_COUNTER },
		{ "iops_bandwidth_bytes_per_second", NULL, "Bandwidth, both directions", OPENMETRICS_GAUGE },
		{ "iops_operations_per_second", NULL, "I/Os per second, both directions", OPENMETRICS_GAUGE },
		{ "iops_latency_seconds", "seconds", "Latency: kind lat the total latency's count and sum (both "
		  "directions), kind clat the completion latency percentiles (the larger direction's)", OPENMETRICS_SUMMARY },
	};
	struct openmetrics w;

	openmetrics_init(&w, out);
	openmetrics_family(&w, "iops_info", OPENMETRICS_GAUGE, NULL, "The iops build that wrote these metrics");
	openmetrics_sample(&w, "", (const struct openmetrics_label[]){ { "version", IOPS_VERSION },
								       { "fio_compat", "fio-3.33" } }, 2, NULL, NULL, 1);
	for (unsigned f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		openmetrics_family(&w, fams[f].name, fams[f].type, fams[f].unit, fams[f].help);
		for (unsigned i = 0; i < n; i++) {
			const struct sweep_row *r = &rows[i];
			struct openmetrics_label l[6];
			char step[3 * SWEEP_WORD_MAX + 32], sample[16];
			unsigned nl = sweep_om_labels(r, host, step, sizeof(step), sample, sizeof(sample), l);
			static const char *const q[3] = { "0.5", "0.99", "0.999" };
			const double pv[3] = { r->clat_p50_ns, r->clat_p99_ns, r->clat_p999_ns };

			if (r->stopped)
				continue;
			switch (f) {
			case 0:
				openmetrics_sample_u64(&w, "", l, nl, NULL, NULL, (uint64_t)(r->error < 0 ? -r->error : r->error));
				break;
			case 1:
				openmetrics_sample_u64(&w, "_total", l, nl, NULL, NULL, r->io_bytes);
				break;
			case 2:
				openmetrics_sample_u64(&w, "_total", l, nl, NULL, NULL, r->total_ios);
				break;
			case 3:	/* as the JSON has them: bw_bytes, iops, and microseconds with 6 decimals */
				openmetrics_sample(&w, "", l, nl, NULL, NULL, json_float_value(r->bw_bytes));
				break;
			case 4:
				openmetrics_sample(&w, "", l, nl, NULL, NULL, json_float_value(r->iops));
				break;
			default:
				l[nl] = (struct openmetrics_label){ "kind", "lat" };
				openmetrics_sample_u64(&w, "_count", l, nl + 1, NULL, NULL, r->total_ios);
				openmetrics_sample(&w, "_sum", l, nl + 1, NULL, NULL,
						   json_float_value(r->lat_mean_ns / 1e3) * (double)r->total_ios / 1e6);
				l[nl] = (struct openmetrics_label){ "kind", "clat" };
				for (unsigned p = 0; p < 3; p++)
					if (pv[p] > 0)
						openmetrics_sample(&w, "", l, nl + 1, "quantile", q[p],
								   json_float_value(pv[p] / 1e3) / 1e6);
				break;
			}
		}
	}
	return openmetrics_finish(&w);
}

static void sweep_print_arg(FILE *out, const char *a)
{
	if (a[strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,:+-@%")]) {
		fputc('\'', out);
		for (; *a; a++)
			fputs(*a == '\'' ? "'\\''" : (char[2]){ *a, 0 }, out);
		fputc('\'', out);
	} else {
		fputs(a, out);
	}
}

void sweep_print_step(FILE *out, const struct sweep_conf *c, const struct sweep_step *st, const struct tm *tm,
		      char *const *argv, int argc)
{
	char when[64];

	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Z %Y", tm);
	if (!st->sample)
		fputs("*********Prefill**************\n", out);
	else
		fprintf(out, "*********Fio_Job**************\n%s Sample=%u; Block_Size=%s; job=%s; "
			"numjobs=%u; iodepth=%s\n", when, st->sample, st->bs, st->rw, c->numjobs,
			c->pass[SWEEP_P_IODEPTH]);
	for (int a = 0; a < argc; a++) {
		sweep_print_arg(out, argv[a]);
		fputc(a + 1 < argc ? ' ' : '\n', out);
	}
	fflush(out);
}

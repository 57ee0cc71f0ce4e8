/* sweep_out: step numbers from fio JSON, reports, table, CSV and JSON; see sweep_out.h. */
#include <errno.h>
#include <string.h>

#include "core/json.h"
#include "core/num2str.h"
#include "suite/sweep_out.h"

static const char *const dirs[] = { "read", "write" };

int sweep_row_from_json(struct sweep_row *r, const struct jsonr *j)
{
	const struct jsonr_node *job = jsonr_get(j, NULL, "jobs/0"), *cs = jsonr_get(j, NULL, "client_stats");
	double ios_total = 0, lat_sum = 0, v;

	if (!job && cs && cs->type == JSONR_ARR)	/* a client run's: its last entry, All clients */
		for (uint32_t k = cs->first; k; k = j->nodes[k].next)
			job = &j->nodes[k];
	if (!job || job->type != JSONR_OBJ || !jsonr_get(j, job, "read/iops"))
		return -EINVAL;
	r->iops = r->bw_bytes = r->lat_mean_ns = r->clat_p99_ns = 0;
	r->io_bytes = 0;
	r->error = jsonr_num(j, job, "error", &v) ? (int)v : 0;
	for (int d = 0; d < 2; d++) {
		const struct jsonr_node *dn = jsonr_get(j, job, dirs[d]);
		double ios = 0;

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
		if (jsonr_num(j, dn, "lat_ns/mean", &v)) {
			lat_sum += v * ios;
			ios_total += ios;
		}
		if (jsonr_num(j, dn, "clat_ns/percentile/99.000000", &v) && v > r->clat_p99_ns)
			r->clat_p99_ns = v;
	}
	r->lat_mean_ns = ios_total > 0 ? lat_sum / ios_total : 0;
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

/* SPDX-License-Identifier: MIT */
#include "ioping/ioping_out.h"

#include <string.h>

#include "core/json.h"
#include "ioping/ioping_fmt.h"

#define IOPING_OUT_TIME_LEN	64	/* ioping's strftime buffer, NUL included */

static void fmt(char *buf, int64_t v, enum ioping_fmt_unit unit)
{
	if (ioping_fmt_suffix(buf, IOPING_FMT_LEN, v, unit) < 0)
		buf[0] = '\0';	/* cannot happen: IOPING_FMT_LEN fits any int64 */
}

void ioping_out_init(struct ioping_out *out, FILE *stream, enum ioping_out_mode mode,
		     const char *path, const char *fstype, const char *device,
		     uint64_t device_size)
{
	char size[IOPING_FMT_LEN];
	int n;

	memset(out, 0, sizeof(*out));
	out->stream = stream;
	out->mode = mode;
	out->path = path;
	out->fstype = fstype;
	out->device = device;
	out->device_size = device_size;
	out->time_fmt = "%b %d %T";
	out->done_word = " read";
	fmt(size, (int64_t)device_size, IOPING_FMT_SIZE);
	n = snprintf(out->label, sizeof(out->label), "%s %s %s", fstype, device, size);
	if (n < 0 || (size_t)n >= sizeof(out->label))
		out->label[sizeof(out->label) - 1] = '\0';	/* over-long device: truncated */
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
size_t ioping_out_strftime(char *buf, size_t len, const char *format, const struct tm *tm)
{
	size_t used = 0;
	const char *p = format;

	if (!len)
		return 0;
	buf[0] = '\0';
	while (*p) {
		char piece[32], part[256];
		size_t plen = 0, n;

		if (*p == '%') {
			/* '%', flags/width/modifiers, then the conversion character */
			piece[plen++] = *p++;
			while (*p && plen < sizeof(piece) - 2 &&
			       (strchr("_-0^#EO", *p) || (*p >= '0' && *p <= '9')))
				piece[plen++] = *p++;
			if (*p)
				piece[plen++] = *p++;
		} else {
			piece[plen++] = *p++;
		}
		piece[plen] = '\0';
		n = strftime(part, sizeof(part), piece, tm);
		if (used + n >= len)
			break;
		memcpy(buf + used, part, n);
		used += n;
		buf[used] = '\0';
	}
	return used;
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static void local_time(const struct ioping_out *out, const struct timespec *now, char *buf)
{
	struct tm tm;
	time_t t = now->tv_sec;

	buf[0] = '\0';
	if (localtime_r(&t, &tm))
		ioping_out_strftime(buf, IOPING_OUT_TIME_LEN, out->time_fmt, &tm);
}

void ioping_out_json_string(FILE *f, const char *s)
{
	json_write_escaped_del(f, s);
}

static void json_begin(struct ioping_out *out, const struct timespec *now)
{
	FILE *f = out->stream;
	char lt[IOPING_OUT_TIME_LEN];

	out->stamp = *now;
	out->has_stamp = true;
	local_time(out, now, lt);
	fputs(out->json_open ? "},{\n" : "[{\n", f);
	out->json_open = true;
	fprintf(f, "  \"timestamp\": %lld.%06ld,\n", (long long)now->tv_sec, now->tv_nsec / 1000);
	fputs("  \"localtime\": ", f);
	ioping_out_json_string(f, lt);
	fputs(",\n  \"target\": {\n    \"path\": ", f);
	ioping_out_json_string(f, out->path);
	fputs(",\n    \"fstype\": ", f);
	ioping_out_json_string(f, out->fstype);
	fputs(",\n    \"device\": ", f);
	ioping_out_json_string(f, out->device);
	fprintf(f, ",\n    \"device_size\": %llu\n  },\n", (unsigned long long)out->device_size);
}

void ioping_out_request(struct ioping_out *out, int64_t request, int64_t bytes, int64_t time_ns,
			bool write, enum ioping_notice notice, bool ignored,
			const struct timespec *now)
{
	FILE *f = out->stream;
	char size[IOPING_FMT_LEN], t[IOPING_FMT_LEN];
	const char *word;

	if (out->quiet)
		return;
	if (out->mode == IOPING_OUT_JSON) {
		json_begin(out, now);
		fprintf(f, "  \"io\": {\n    \"request\": %lld,\n    \"operation\": \"%s\",\n"
			"    \"size\": %lld,\n    \"time\": %lld,\n    \"ignored\": %s\n  }\n",
			(long long)request, write ? "write" : "read", (long long)bytes,
			(long long)time_ns, ignored ? "true" : "false");
		return;
	}
	if (out->time_prefix) {
		char lt[IOPING_OUT_TIME_LEN];

		out->stamp = *now;
		out->has_stamp = true;
		local_time(out, now, lt);
		fprintf(f, "%s ", lt);
	}
	fmt(size, bytes, IOPING_FMT_SIZE);
	fmt(t, time_ns, IOPING_FMT_TIME);
	fprintf(f, "%s %s %s (%s): request=%lld time=%s", size, write ? ">>>" : "<<<", out->path,
		out->label, (long long)request, t);
	word = ioping_notice_name(notice);
	if (word)
		fprintf(f, " (%s)", word);
	fputc('\n', f);
}

void ioping_out_burst_end(struct ioping_out *out)
{
	if (!out->quiet && out->mode != IOPING_OUT_JSON)
		fputc('\n', out->stream);
}

int ioping_out_raw(char *buf, size_t len, const struct ioping_summary *s)
{
	int n = snprintf(buf, len, "%llu %.0f %.0f %.0f %llu %.0f %llu %.0f %llu %llu\n",
			 (unsigned long long)s->nr_valid, s->sum_ns, s->iops, s->bytes_per_s,
			 (unsigned long long)s->min_ns, s->avg_ns, (unsigned long long)s->max_ns,
			 s->mdev_ns, (unsigned long long)s->nr_count, (unsigned long long)s->load_ns);

	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}

static void json_stat(struct ioping_out *out, const struct ioping_summary *s,
		      const struct timespec *now)
{
	FILE *f = out->stream;

	json_begin(out, now);
	fprintf(f, "  \"stat\": {\n    \"count\": %llu,\n    \"size\": %llu,\n    \"time\": %.0f,\n"
		"    \"iops\": %f,\n    \"bps\": %.0f,\n    \"min\": %lld,\n    \"avg\": %.0f,\n"
		"    \"max\": %lld,\n    \"mdev\": %.0f\n  },\n",
		(unsigned long long)s->nr_valid, (unsigned long long)s->valid_bytes, s->sum_ns,
		s->iops, s->bytes_per_s, (long long)s->min_ns, s->avg_ns, (long long)s->max_ns,
		s->mdev_ns);
	fprintf(f, "  \"load\": {\n    \"count\": %llu,\n    \"size\": %llu,\n    \"time\": %llu,\n"
		"    \"iops\": %f,\n    \"bps\": %.0f\n  }\n",
		(unsigned long long)s->nr_count, (unsigned long long)s->count_bytes,
		(unsigned long long)s->load_ns, s->load_iops, s->load_bytes_per_s);
}

void ioping_out_period(struct ioping_out *out, const struct ioping_summary *s,
		       const struct timespec *now)
{
	char line[IOPING_OUT_RAW_LEN];

	if (out->mode == IOPING_OUT_JSON) {
		json_stat(out, s, now);
		return;
	}
	if (ioping_out_raw(line, sizeof(line), s) > 0)
		fputs(line, out->stream);
}

static void human_summary(struct ioping_out *out, const struct ioping_summary *s)
{
	FILE *f = out->stream;
	char a[IOPING_FMT_LEN], b[IOPING_FMT_LEN], c[IOPING_FMT_LEN], d[IOPING_FMT_LEN],
	     e[IOPING_FMT_LEN];

	fprintf(f, "\n--- %s (%s) ioping statistics ---\n", out->path, out->label);
	fmt(a, (int64_t)s->nr_valid, IOPING_FMT_COUNT);
	fmt(b, ioping_fmt_to_i64(s->sum_ns), IOPING_FMT_TIME);
	fmt(c, (int64_t)s->valid_bytes, IOPING_FMT_SIZE);
	fmt(d, ioping_fmt_to_i64(s->iops), IOPING_FMT_COUNT);
	fmt(e, ioping_fmt_to_i64(s->bytes_per_s), IOPING_FMT_SIZE);
	fprintf(f, "%s requests completed in %s, %s%s, %s iops, %s/s\n", a, b, c, out->done_word, d, e);
	if (s->nr_too_fast) {
		fmt(a, (int64_t)s->nr_too_fast, IOPING_FMT_COUNT);
		fprintf(f, "%s too fast, ", a);
	}
	if (s->nr_too_slow) {
		fmt(a, (int64_t)s->nr_too_slow, IOPING_FMT_COUNT);
		fprintf(f, "%s too slow, ", a);
	}
	fmt(a, (int64_t)s->nr_count, IOPING_FMT_COUNT);
	fmt(b, (int64_t)s->load_ns, IOPING_FMT_TIME);
	fmt(c, (int64_t)s->count_bytes, IOPING_FMT_SIZE);
	fmt(d, ioping_fmt_to_i64(s->load_iops), IOPING_FMT_COUNT);
	fmt(e, ioping_fmt_to_i64(s->load_bytes_per_s), IOPING_FMT_SIZE);
	fprintf(f, "generated %s requests in %s, %s, %s iops, %s/s\n", a, b, c, d, e);
	fmt(a, s->min_ns, IOPING_FMT_TIME);
	fmt(b, ioping_fmt_to_i64(s->avg_ns), IOPING_FMT_TIME);
	fmt(c, s->max_ns, IOPING_FMT_TIME);
	fmt(d, ioping_fmt_to_i64(s->mdev_ns), IOPING_FMT_TIME);
	fprintf(f, "min/avg/max/mdev = %s / %s / %s / %s\n", a, b, c, d);
}

void ioping_out_final(struct ioping_out *out, const struct ioping_summary *s,
		      const struct timespec *now)
{
	char line[IOPING_OUT_RAW_LEN];

	switch (out->mode) {
	case IOPING_OUT_JSON:
		json_stat(out, s, out->has_stamp ? &out->stamp : now);
		fputs("}]\n", out->stream);
		break;
	case IOPING_OUT_BATCH:
		if (ioping_out_raw(line, sizeof(line), s) > 0)
			fputs(line, out->stream);
		break;
	default:
		if (!(out->quiet && out->periods))
			human_summary(out, s);
		break;
	}
}

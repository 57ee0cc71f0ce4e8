/* SPDX-License-Identifier: MIT */
#include "fio/progress/eta.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

char eta_run_char(const struct job *job)
{
	bool rnd = job->rw_random;
	char c;

	switch (job->rw) {
	case RW_READ:
	case RW_RANDREAD:
		c = 'R';
		break;
	case RW_WRITE:
	case RW_RANDWRITE:
		c = 'W';
		break;
	case RW_TRIM:
	case RW_RANDTRIM:
		c = 'D';
		break;
	case RW_RW:
	case RW_RANDRW:
		/* a mix that only reads or only writes shows as that direction */
		c = job->rwmixread >= 100 ? 'R' : job->rwmixread == 0 ? 'W' : 'M';
		break;
	default:	/* trimwrite: fio shows the write bit */
		c = 'W';
		break;
	}
	return rnd ? (char)(c - 'A' + 'a') : c;
}

bool eta_char_running(char c)
{
	return c && strchr("RrWwMmDdV", c) != NULL;	/* V: verify phase */
}

uint64_t eta_job_secs(const struct eta_job *j)
{
	if (eta_char_running(j->state)) {
		double perc = 0.0;
		uint64_t eta;

		if (j->bytes_total) {
			perc = (double)j->bytes_done / (double)j->bytes_total;
			if (perc > 1.0)
				perc = 1.0;
		}
		if (j->time_based) {
			if (j->runtime_s) {
				double perc_t = (double)j->elapsed_s / (double)j->runtime_s;

				if (perc_t < perc)
					perc = perc_t;
			} else {
				perc = 0.0;
			}
		}
		if (perc <= 0.0) {
			eta = j->runtime_s;
		} else {
			double left = (double)j->elapsed_s / perc - (double)j->elapsed_s;

			eta = left >= 1e18 ? (uint64_t)1e18 : left > 0.0 ? (uint64_t)left : 0;
		}
		if (j->runtime_s) {
			uint64_t cap = j->runtime_s > j->elapsed_s ? j->runtime_s - j->elapsed_s : 0;

			if (eta > cap)
				eta = cap;
		}
		return eta;
	}
	if (j->state == ETA_ST_RAMP) {
		uint64_t total = j->ramp_s + j->runtime_s;

		return total > j->ramp_elapsed_s ? total - j->ramp_elapsed_s : 0;
	}
	if (j->state == ETA_ST_PENDING || j->state == ETA_ST_SETUP || j->state == 0)
		return j->runtime_s ? j->startdelay_s + j->ramp_s + j->runtime_s : 0;
	return 0;
}

uint64_t eta_total_secs(const uint64_t *job_eta_s, unsigned nr, uint64_t run_elapsed_s)
{
	uint64_t eta = 0;

	if (run_elapsed_s < ETA_HIDE_BELOW_S)
		return ETA_UNKNOWN;
	for (unsigned i = 0; i < nr; i++)
		if (job_eta_s[i] > eta)
			eta = job_eta_s[i];
	return eta;
}

size_t eta_to_str(char *buf, size_t len, uint64_t eta_s)
{
	uint64_t d, h, m, s;
	int n;

	if (!len)
		return 0;
	if (eta_s == ETA_UNKNOWN) {
		n = snprintf(buf, len, "--");
	} else {
		d = eta_s / 86400;
		h = eta_s % 86400 / 3600;
		m = eta_s % 3600 / 60;
		s = eta_s % 60;
		if (d)
			n = snprintf(buf, len, "%02llud:%02lluh:%02llum:%02llus", (unsigned long long)d,
				     (unsigned long long)h, (unsigned long long)m, (unsigned long long)s);
		else if (h)
			n = snprintf(buf, len, "%02lluh:%02llum:%02llus", (unsigned long long)h,
				     (unsigned long long)m, (unsigned long long)s);
		else
			n = snprintf(buf, len, "%02llum:%02llus", (unsigned long long)m, (unsigned long long)s);
	}
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n < len ? (size_t)n : len - 1;
}

/* Append to a bounded buffer; *pos keeps counting past the end (as snprintf would). */
__attribute__((format(printf, 4, 5)))
static void eta_append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*pos < len ? buf + *pos : NULL, *pos < len ? len - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

size_t eta_run_str(char *buf, size_t len, const char *states, unsigned nr)
{
	size_t pos = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < nr;) {
		unsigned k = i + 1;

		while (k < nr && states[k] == states[i])
			k++;
		eta_append(buf, len, &pos, "%s%c(%u)", i ? "," : "", states[i] ? states[i] : ETA_ST_PENDING, k - i);
		i = k;
	}
	return pos;
}

static const char eta_dir_letter[DDIR_NR] = { 'r', 'w', 't' };

size_t eta_format(char *buf, size_t len, const struct eta_status *st, size_t prev_len)
{
	size_t pos = 0, line_len;

	if (!len)
		return 0;
	buf[0] = '\0';
	eta_append(buf, len, &pos, "Jobs: %u (f=%u)", st->nr_running, st->nr_files);
	if (st->rate_min_bps || st->rate_max_bps) {	/* rate */
		char lo[N2S_BUF_LEN], hi[N2S_BUF_LEN];
		unsigned sf = st->sig_figs ? st->sig_figs : 4;

		eta_append(buf, len, &pos, ", %s-%s", num2str(lo, st->rate_min_bps, sf, 1, st->pow2, N2S_BYTEPERSEC),
			   num2str(hi, st->rate_max_bps, sf, 1, st->pow2, N2S_BYTEPERSEC));
	} else if (st->rate_min_iops || st->rate_max_iops) {
		eta_append(buf, len, &pos, ", %llu-%llu IOPS", (unsigned long long)st->rate_min_iops,
			   (unsigned long long)st->rate_max_iops);
	}
	if (st->eta_s != ETA_UNKNOWN && st->nr_running) {
		char eta_str[48], pct[16];
		bool any = false;

		if (st->pct_unknown || !st->elapsed_s) {
			snprintf(pct, sizeof(pct), "-.-%%");
		} else {
			double p = 100.0 * (double)st->elapsed_s / ((double)st->elapsed_s + (double)st->eta_s);

			snprintf(pct, sizeof(pct), "%3.1f%%", p);
		}
		eta_append(buf, len, &pos, ": [");
		if (pos < len)
			pos += eta_run_str(buf + pos, len - pos, st->states, st->nr_jobs);
		else
			pos += eta_run_str(NULL, 0, st->states, st->nr_jobs);
		eta_append(buf, len, &pos, "][%s]", pct);
		for (int d = 0; d < DDIR_NR; d++)
			any = any || st->rate_kib[d] || st->iops[d];
		if (any) {
			char num[N2S_BUF_LEN];
			bool first = true;

			eta_append(buf, len, &pos, "[");
			for (int d = 0; d < DDIR_NR; d++) {
				if (!st->rate_kib[d] && !st->iops[d])
					continue;
				eta_append(buf, len, &pos, "%s%c=%s", first ? "" : ",", eta_dir_letter[d],
					   num2str(num, st->rate_kib[d], 4, 1024, st->pow2, st->unit));
				first = false;
			}
			eta_append(buf, len, &pos, "][");
			first = true;
			for (int d = 0; d < DDIR_NR; d++) {
				if (!st->rate_kib[d] && !st->iops[d])
					continue;
				eta_append(buf, len, &pos, "%s%c=%s", first ? "" : ",", eta_dir_letter[d],
					   num2str(num, st->iops[d], 4, 1, false, N2S_NONE));
				first = false;
			}
			eta_append(buf, len, &pos, " IOPS]");
		}
		eta_to_str(eta_str, sizeof(eta_str), st->eta_s);
		eta_append(buf, len, &pos, "[eta %s]", eta_str);
	}
	line_len = pos < len ? pos : len - 1;
	for (size_t p = line_len; p < prev_len && p + 1 < len; p++) {
		buf[p] = ' ';
		buf[p + 1] = '\0';
	}
	return line_len;
}

/* SPDX-License-Identifier: MIT */
/* sweep_conf: settings, the step matrix and the steps' fio command lines; see sweep_conf.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/parse.h"
#include "suite/sweep_conf.h"

static const char *const pass_names[SWEEP_P_NR] = {	/* as options on fio's command line */
	"--directory", "--filename", "--ioengine", "--size", "--numjobs", "--iodepth", "--direct",
	"--runtime", "--time_based", "--log_avg_msec", "--rwmixread", "--rate_iops",
};

/* simple-fio's Kubernetes keys: accepted in a config file, left to the Kubernetes renderer. */
static const char *const k8s_names[] = {
	"server", "storageclass", "storage_type", "volumemode", "storage(Gi)", "platform",
};
_Static_assert(sizeof(k8s_names) / sizeof(k8s_names[0]) == sizeof(((struct sweep_conf *)0)->k8s_vals) /
	       sizeof(((struct sweep_conf *)0)->k8s_vals[0]), "a value for every Kubernetes key");

static const char rw_words[] = " read write randread randwrite rw readwrite randrw ";

void sweep_conf_init(struct sweep_conf *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->rw[0], "randread", sizeof("randread"));
	c->nr_rw = 1;
	memcpy(c->bs[0], "4k", sizeof("4k"));
	c->nr_bs = 1;
	c->samples = 1;
	c->size = 1ull << 30;
	c->numjobs = 1;
	memcpy(c->pass[SWEEP_P_IOENGINE], "libaio", sizeof("libaio"));
	memcpy(c->pass[SWEEP_P_SIZE], "1g", sizeof("1g"));
	memcpy(c->pass[SWEEP_P_NUMJOBS], "1", sizeof("1"));
	memcpy(c->pass[SWEEP_P_IODEPTH], "1", sizeof("1"));
}

/* Is v one of the blank-separated words of list (which starts and ends with a blank)? The
 * word's offset in list, or -1. */
static int sweep_word(const char *list, const char *v)
{
	char w[SWEEP_WORD_MAX + 2];
	const char *hit;

	if (!*v || strchr(v, ' ') || snprintf(w, sizeof(w), " %s ", v) >= (int)sizeof(w))
		return -1;
	hit = strstr(list, w);
	return hit ? (int)(hit - list) : -1;
}

static bool sweep_bool(const char *v, bool *out)
{
	int at = sweep_word(" 1 true yes on 0 false no off ", v);

	*out = at >= 0 && at < 14;	/* the words before " 0 " */
	return at >= 0;
}

static bool sweep_num(const char *v, int64_t lo, int64_t hi, int64_t *out, char *why, size_t n)
{
	snprintf(why, n, "a whole number from %lld to %lld", (long long)lo, (long long)hi);
	return strspn(v, "0123456789") == strlen(v) && parse_int(v, 1000, out) == 0 && *out >= lo && *out <= hi;
}

/* rw or bs: words separated by commas and/or blanks. NULL, or what a value must be (*bad
 * names the culprit, copied into word). */
static const char *sweep_list(char list[][SWEEP_WORD_MAX], unsigned *nr, const char *v, bool is_rw,
			      char *word, const char **bad)
{
	unsigned n = 0;
	uint64_t bytes;

	for (size_t len; *v; v += len) {
		len = strcspn(v, ", \t");
		if (!len) {
			len = 1;
			continue;
		}
		if (len >= SWEEP_WORD_MAX || n == SWEEP_LIST_MAX)
			return "a list of at most 16 values of at most 23 characters";
		memcpy(word, v, len);
		word[len] = '\0';
		*bad = word;
		if (is_rw && sweep_word(rw_words, word) < 0)
			return "one of read, write, randread, randwrite, rw, readwrite, randrw";
		if (!is_rw && (strspn(word, "0123456789kKmMgGiIbB") != len ||
			       parse_size(word, 1024, &bytes) < 0 || !bytes || bytes > (256u << 20)))
			return "a block size (1 byte to 256m, e.g. 4k)";
		memcpy(list[n++], word, len + 1);
	}
	*nr = n;
	return n ? NULL : "a list of values";
}

/* One of the options passed on to every step; NULL or what the value must be. */
static const char *sweep_set_pass(struct sweep_conf *c, int p, const char *v, char *why, size_t n)
{
	static const int32_t hi[SWEEP_P_NR] = {
		[SWEEP_P_NUMJOBS] = SWEEP_NUMJOBS_MAX, [SWEEP_P_IODEPTH] = 65536, [SWEEP_P_LOG_AVG_MSEC] = INT32_MAX,
		[SWEEP_P_RWMIXREAD] = 100, [SWEEP_P_RATE_IOPS] = INT32_MAX,
	};
	uint64_t u;
	int64_t i;
	bool b;

	switch (p) {
	case SWEEP_P_DIRECTORY:
	case SWEEP_P_FILENAME:
		if (strlen(v) >= SWEEP_VAL_MAX || strchr(v, ':'))
			return "one path without ':'";
		break;
	case SWEEP_P_IOENGINE:
		if (sweep_word(" libaio io_uring psync sync pvsync posixaio mmap ", v) < 0)
			return "one of libaio, io_uring, psync, sync, pvsync, posixaio, mmap";
		break;
	case SWEEP_P_SIZE:
		if (parse_size(v, 1024, &u) < 0 || !u || strchr(v, '%') || strlen(v) >= SWEEP_WORD_MAX)
			return "a size in bytes (e.g. 4m, 1g)";
		c->size = u;
		break;
	case SWEEP_P_RUNTIME:
		if (parse_time_ns(v, 1000000000ull, &u) < 0 || u < 1000000000ull || strlen(v) >= SWEEP_WORD_MAX)
			return "a time of at least 1 s (e.g. 60, 2m)";
		break;
	case SWEEP_P_DIRECT:
	case SWEEP_P_TIME_BASED:
		if (!sweep_bool(v, &b))
			return "a boolean (true, false, 1 or 0)";
		v = b ? "1" : "0";
		break;
	default:
		if (!sweep_num(v, p != SWEEP_P_RWMIXREAD && p != SWEEP_P_LOG_AVG_MSEC, hi[p], &i, why, n))
			return why;
		if (p == SWEEP_P_NUMJOBS)
			c->numjobs = (unsigned)i;
		snprintf(c->pass[p], SWEEP_VAL_MAX, "%lld", (long long)i);
		return NULL;
	}
	snprintf(c->pass[p], SWEEP_VAL_MAX, "%s", v);
	return NULL;
}

/* --output-format: one of normal, csv, json, then optionally openmetrics, or openmetrics alone. */
static const char *sweep_formats(struct sweep_conf *c, const char *v, char *word)
{
	const char *comma = strchr(v, ',');
	size_t n = comma ? (size_t)(comma - v) : strlen(v);
	int p;

	if (n >= SWEEP_WORD_MAX)
		return "normal, csv, json or openmetrics (json,openmetrics for both)";
	memcpy(word, v, n);
	word[n] = '\0';
	p = sweep_word(" normal csv json openmetrics ", word);
	if (p < 0 || (comma && (p == 16 || strcmp(comma + 1, "openmetrics"))))
		return "normal, csv, json or openmetrics (json,openmetrics for both)";
	c->out = p == 7 ? SWEEP_OUT_CSV : p == 11 ? SWEEP_OUT_JSON : p == 16 ? SWEEP_OUT_NONE : SWEEP_OUT_NORMAL;
	c->openmetrics = p == 16 || comma;
	return NULL;
}

int sweep_conf_set(struct sweep_conf *c, const char *key, const char *value, bool from_file,
		   struct iops_err *err)
{
	const char *v = value ? value : "", *bad, *why = NULL;
	char range[64], word[SWEEP_WORD_MAX];
	int64_t i;
	int p;

	for (size_t k = 0; from_file && k < sizeof(k8s_names) / sizeof(k8s_names[0]); k++)
		if (!strcmp(key, k8s_names[k])) {
			if (strlen(v) >= sizeof(c->k8s_vals[k])) {
				iops_err_set(err, EINVAL, "%s: '%s' is too long", key, v);
				return -EINVAL;
			}
			c->k8s_keys |= 1u << k;
			memcpy(c->k8s_vals[k], v, strlen(v) + 1);
			return 0;
		}
	if (!value && (!strcmp(key, "keep") || !strcmp(key, "prefill") || !strcmp(key, "time_based"))) {
		v = "1";
	} else if (!*v) {
		iops_err_set(err, EINVAL, "%s: a value is needed (%s%s=...)", key, from_file ? "" : "--", key);
		return -EINVAL;
	}
	bad = v;
	if (!strcmp(key, "rw") || !strcmp(key, "bs")) {
		why = key[0] == 'r' ? sweep_list(c->rw, &c->nr_rw, v, true, word, &bad) :
				      sweep_list(c->bs, &c->nr_bs, v, false, word, &bad);
	} else if (!strcmp(key, "sample") || !strcmp(key, "samples")) {
		if (!sweep_num(v, 1, SWEEP_SAMPLES_MAX, &i, range, sizeof(range)))
			why = range;
		c->samples = why ? c->samples : (unsigned)i;
	} else if (!strcmp(key, "prefill") || (!from_file && !strcmp(key, "keep"))) {
		if (!sweep_bool(v, key[0] == 'p' ? &c->prefill : &c->keep))
			why = "a boolean (true, false, 1 or 0)";
	} else if (!from_file && !strcmp(key, "output-format")) {
		why = sweep_formats(c, v, word);
	} else if (!from_file && !strcmp(key, "output")) {
		if (strlen(v) >= SWEEP_VAL_MAX)
			why = "a usable file name";
		else
			snprintf(c->output, sizeof(c->output), "%s", v);
	} else if (!from_file && !strcmp(key, "results")) {
		if (strlen(v) >= SWEEP_VAL_MAX - 128)
			why = "a usable directory name";
		else
			snprintf(c->results, sizeof(c->results), "%s", v);
	} else {
		for (p = 0; p < SWEEP_P_NR && strcmp(key, pass_names[p] + 2); p++)
			;
		if (p == SWEEP_P_NR) {
			iops_err_set(err, EINVAL, "unknown %s '%s' (see 'iops sweep --help')",
				     from_file ? "key" : "option", key);
			return -EINVAL;
		}
		why = sweep_set_pass(c, p, v, range, sizeof(range));
	}
	if (why) {
		iops_err_set(err, EINVAL, "%s: '%s' is not %s", key, bad, why);
		return -EINVAL;
	}
	return 0;
}

/* Copy [s, s+len) without surrounding blanks and one pair of quotes into out. */
static int sweep_trim(const char *s, size_t len, char *out, size_t n)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (len >= 2 && (s[0] == '"' || s[0] == '\'') && s[len - 1] == s[0])
		s++, len -= 2;
	if (len >= n)
		return -ENAMETOOLONG;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

int sweep_conf_file(struct sweep_conf *c, const char *text, const char *name, struct iops_err *err)
{
	unsigned line = 0;

	while (*text) {
		size_t len = strcspn(text, "\n"), eq;
		char key[64], val[SWEEP_VAL_MAX];
		struct iops_err e = { 0 };
		const char *hash;

		line++;
		hash = memchr(text, '#', len);
		eq = hash ? (size_t)(hash - text) : len;	/* the text before a comment */
		if (strspn(text, " \t\r") < eq) {
			const char *sign = memchr(text, '=', eq);

			if (!sign) {
				iops_err_set(err, EINVAL, "%s:%u: not a key=value line", name, line);
				return -EINVAL;
			}
			if (sweep_trim(text, (size_t)(sign - text), key, sizeof(key)) < 0 || !*key ||
			    sweep_trim(sign + 1, eq - (size_t)(sign - text) - 1, val, sizeof(val)) < 0) {
				iops_err_set(err, EINVAL, "%s:%u: key or value too long", name, line);
				return -EINVAL;
			}
			if (sweep_conf_set(c, key, val, true, &e) < 0) {
				iops_err_set(err, EINVAL, "%s:%u: %s", name, line, e.msg);
				return -EINVAL;
			}
		}
		text += len + (text[len] == '\n');
	}
	return 0;
}

void sweep_conf_k8s_names(const struct sweep_conf *c, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(k8s_names) / sizeof(k8s_names[0]) && used < n; k++)
		if (c->k8s_keys & 1u << k) {
			int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", k8s_names[k]);

			used += w > 0 ? (size_t)w : 0;
		}
}

const char *sweep_conf_k8s_value(const struct sweep_conf *c, const char *key)
{
	for (size_t k = 0; k < sizeof(k8s_names) / sizeof(k8s_names[0]); k++)
		if (!strcmp(key, k8s_names[k]))
			return c->k8s_keys & 1u << k ? c->k8s_vals[k] : NULL;
	return NULL;
}

unsigned sweep_nr_steps(const struct sweep_conf *c)
{
	return c->nr_rw * c->nr_bs * c->samples;
}

void sweep_step_at(const struct sweep_conf *c, int i, struct sweep_step *st)
{
	if (i < 0) {
		st->rw = "write";
		st->bs = SWEEP_PREFILL_BS;
		st->sample = 0;
		return;
	}
	st->sample = (unsigned)i % c->samples + 1;
	i /= (int)c->samples;
	st->bs = c->bs[(unsigned)i % c->nr_bs];
	st->rw = c->rw[(unsigned)i / c->nr_bs];
}

bool sweep_rw_writes(const char *rw)
{
	return strstr(rw, "write") || !strcmp(rw, "rw") || !strcmp(rw, "randrw");
}

bool sweep_rw_random(const char *rw)
{
	return !strncmp(rw, "rand", 4);
}

int sweep_step_dirname(const struct sweep_step *st, const struct tm *tm, char *buf, size_t n)
{
	int w = st->sample ? snprintf(buf, n, "fio_%s_%s_sample%u_", st->bs, st->rw, st->sample) :
			     snprintf(buf, n, "prefill_");

	if (w < 0 || (size_t)w >= n)
		return -ENAMETOOLONG;
	w += snprintf(buf + w, n - (size_t)w, "%02d_%02d_%02d_%02d_%02d", tm->tm_year % 100, tm->tm_mon + 1,
		      tm->tm_mday, tm->tm_hour, tm->tm_min);

	return w > 0 && (size_t)w < n ? 0 : -ENAMETOOLONG;
}

int sweep_step_argv(const struct sweep_conf *c, const struct sweep_step *st, const char *files,
		    const char *json, const char *logs, char **argv, int max, char *store, size_t n)
{
	const char *kv[SWEEP_P_NR + 20][2];
	bool prefill = !st->sample;
	unsigned nr = 0;
	int argc = 0;

#define SWEEP_KV(k, v) (kv[nr][0] = (k), kv[nr++][1] = (v))
	SWEEP_KV("fio", NULL);
	SWEEP_KV("--name", prefill ? "prefill" : "sweep");
	for (int p = 0; p < SWEEP_P_NR; p++)
		if (c->pass[p][0] && !(p == SWEEP_P_FILENAME && files) &&
		    !(prefill && p >= SWEEP_P_IODEPTH && p != SWEEP_P_DIRECT && p != SWEEP_P_LOG_AVG_MSEC))
			SWEEP_KV(pass_names[p], c->pass[p]);
	if (files)
		SWEEP_KV("--filename_format", files);
	SWEEP_KV("--rw", st->rw);
	SWEEP_KV("--bs", st->bs);
	if (prefill)
		SWEEP_KV("--iodepth", "1");
	if (sweep_rw_writes(st->rw)) {
		SWEEP_KV("--fsync_on_close", "1");
		SWEEP_KV("--create_on_open", "1");
	}
	if (sweep_rw_random(st->rw)) {
		SWEEP_KV("--randrepeat", "0");
		SWEEP_KV("--allrandrepeat", "0");
	}
	if (logs) {
		SWEEP_KV("--write_bw_log", logs);
		SWEEP_KV("--write_iops_log", logs);
		SWEEP_KV("--write_lat_log", logs);
	}
	SWEEP_KV("--group_reporting", NULL);
	SWEEP_KV("--output-format", "json");
	SWEEP_KV("--output", json);
#undef SWEEP_KV
	for (unsigned k = 0; k < nr; k++) {
		int w = snprintf(store, n, "%s%s%s", kv[k][0], kv[k][1] ? "=" : "", kv[k][1] ? kv[k][1] : "");

		if (w < 0 || (size_t)w >= n || argc >= max - 1)
			return -ENOSPC;
		argv[argc++] = store;
		store += w + 1;
		n -= (size_t)w + 1;
	}
	argv[argc] = NULL;
	return argc;
}

uint64_t sweep_space_needed(const struct sweep_conf *c)
{
	if (c->pass[SWEEP_P_FILENAME][0])
		return c->size;
	return c->size > UINT64_MAX / c->numjobs ? UINT64_MAX : c->size * c->numjobs;
}

bool sweep_space_fits(uint64_t need, uint64_t free_bytes)
{
	uint64_t reserve = free_bytes / 10 > (16u << 20) ? free_bytes / 10 : 16u << 20;

	return free_bytes > reserve && need <= free_bytes - reserve;
}

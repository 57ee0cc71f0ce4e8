/* SPDX-License-Identifier: MIT */
#include "fio/conf/opt.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fio/debug.h"
#include "fio/log/iolog.h"
#include "fio/log/iolog_replay.h"
#include "fio/conf/opt_ftype.h"
#include "fio/conf/opt_apply.h"
#include "fio/conf/opt_num.h"
#include "fio/optval.h"
#include "core/parse.h"

/* ------------------------------------------------------------------------------------------ */
/* kv lists */


int opt_kv_add(struct job_kv **kv, unsigned *nr, unsigned *cap, const char *key, const char *val)
{
	char *k, *v;

	if (*nr == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 8;
		struct job_kv *n;

		if (ncap > 65536)
			return -E2BIG;
		n = realloc(*kv, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*kv = n;
		*cap = ncap;
	}
	k = strdup(key);
	v = strdup(val ? val : "");
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	(*kv)[*nr].key = k;
	(*kv)[*nr].value = v;
	(*nr)++;
	return 0;
}

void opt_kv_free(struct job_kv *kv, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

/* ------------------------------------------------------------------------------------------ */
/* refusals */

bool opt_is_refusal(const char *line)
{
	return strstr(line, "not supported by iops") || strstr(line, "which this build does not include");
}

/* ------------------------------------------------------------------------------------------ */
/* lookup (the table is fio/conf/opt_table.c) */

const struct opt_def *opt_find(const char *name)
{
	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);

		if (!strcmp(od->name, name))
			return od;
	}
	for (unsigned i = 0; i < opt_count(); i++) {	/* no alias is another option's name */
		const char *alias = opt_alias(opt_at(i));

		if (alias && !strcmp(alias, name))
			return opt_at(i);
	}
	return NULL;
}

const struct opt_def *opt_find_prefix(const char *name, size_t len, unsigned *nr_matches)
{
	const struct opt_def *found = NULL;
	unsigned n = 0;

	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);
		const char *names[2] = { od->name, opt_alias(od) };

		for (int k = 0; k < 2; k++) {
			if (!names[k])
				continue;
			if (strlen(names[k]) == len && !strncmp(names[k], name, len)) {
				*nr_matches = 1;
				return od;
			}
		}
	}
	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);
		const char *names[2] = { od->name, opt_alias(od) };

		for (int k = 0; k < 2; k++)
			if (names[k] && !strncmp(names[k], name, len)) {
				if (found != od)
					n++;
				found = od;
				break;
			}
	}
	*nr_matches = n;
	return n == 1 ? found : NULL;
}

/* Levenshtein distance, capped inputs (names are short). */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned prev[64], cur[64];
	size_t la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
			unsigned sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned m = del < ins ? del : ins;

			cur[j] = m < sub ? m : sub;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb];
}

const char *opt_suggest(const char *name)
{
	const char *best = NULL;
	/* fio suggests the closest name when the distance is at most half the length */
	unsigned limit = (unsigned)((strlen(name) + 1) / 2), best_d = limit + 1;

	for (unsigned i = 0; i < opt_count(); i++) {
		const struct opt_def *od = opt_at(i);
		unsigned dist;

		if (od->hidden && od->type != OPT_T_UNSUPPORTED)
			continue;
		dist = edit_distance(name, od->name);
		if (dist < best_d) {
			best_d = dist;
			best = od->name;
		}
	}
	return best;
}

/* ------------------------------------------------------------------------------------------ */
/* job lifecycle */

static const double default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

void opt_job_init(struct opt_job *oj)
{
	struct job *j = &oj->j;

	memset(oj, 0, sizeof(*oj));
	j->wait_for = -1;
	j->numjobs = 1;
	for (int i = 0; i < DDIR_NR; i++) {
		j->bs_min[i] = 4096;
		j->bs_max[i] = 4096;
	}
	j->rw = RW_READ;
	j->rw_nr_same_offset = 1;
	j->lat_pct = 100.0;	/* latency_percentile */
	j->gtod_cpu = -1;
	j->log_entries = 1024;
	j->rwmixread = 50;
	j->percentage_random = 100;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;
	j->iodepth_batch_complete_min = 1;
	j->iodepth_batch_complete_max = 1;
	j->iodepth_low = 1;
	memcpy(j->ioengine, "psync", sizeof("psync"));
	engine_opts_defaults(&j->eng);
	j->invalidate = true;
	j->fadvise_hint = FADVISE_PATTERN;
	j->loops = 1;
	j->randrepeat = true;
	j->randseed = 0x89;
	j->random_generator = RANDGEN_TAUSWORTHE;
	j->fallocate = FALLOC_NATIVE;
	j->sync = SYNC_NONE;
	j->per_job_logs = true;		/* logs */
	j->replay_time_scale = 100;	/* iolog */
	j->replay_scale = 1;
	memcpy(j->percentiles, default_percentiles, sizeof(default_percentiles));
	j->nr_percentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	j->percentile_precision = 2;
	j->clat_percentiles = true;
	j->kb_base = 1024;
	j->unit_base = 0;
	j->sig_figs = 4;
	j->do_verify = true;	/* verify */
	j->verify_state_save = true;
	j->trim_verify_zero = true;
	j->scramble_buffers = true;	/* buffer contents */
	j->compress_chunk = 512;
	j->dedupe_ws_pct = 5;
	oj->nrfiles = 1;
	j->rate_cycle_ms = 1000;	/* rate */
	j->thinktime_blocks = 1;	/* rate */
	j->ss.iops = j->ss.slope = j->ss.pct = true;	/* steady state: iops_slope:0.01% */
	j->ss.limit = 0.01;
	j->proc.hugepage_bytes = 2u << 20;	/* memory and process: fio's hugepage-size */
	j->file_service_nr = 1;		/* files */
	j->fsvc_center = -1;
}

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int opt_job_copy(struct opt_job *dst, const struct opt_job *src)
{
	struct opt_job tmp = *src;

	tmp.j.description = NULL;
	tmp.j.bssplit = tmp.j.random_distribution = NULL;	/* dist */
	tmp.j.filenames = NULL;
	tmp.j.nr_files = 0;
	tmp.j.opts = NULL;
	tmp.j.nr_opts = 0;
	tmp.filename = tmp.directory = tmp.filename_format = tmp.wait_for_name = tmp.opendir = NULL;
	tmp.kv = NULL;
	tmp.nr_kv = tmp.cap_kv = 0;
	tmp.j.write_iolog = tmp.j.read_iolog = tmp.j.replay_log = tmp.j.replay_redirect = NULL;	/* iolog */
	if (iolog_prefix_dup(&tmp.j, &src->j) || iolog_replay_dup(&tmp.j, &src->j))	/* logs; NULL tmp's first */
		goto fail_strings;
	if (dup_opt(&tmp.j.description, src->j.description) || dup_opt(&tmp.filename, src->filename) ||
	    dup_opt(&tmp.j.bssplit, src->j.bssplit) ||	/* dist */
	    dup_opt(&tmp.j.random_distribution, src->j.random_distribution) ||
	    dup_opt(&tmp.directory, src->directory) ||
	    dup_opt(&tmp.filename_format, src->filename_format) ||
	    dup_opt(&tmp.wait_for_name, src->wait_for_name) || dup_opt(&tmp.opendir, src->opendir))
		goto fail_strings;
	for (unsigned i = 0; i < src->nr_kv; i++)
		if (opt_kv_add(&tmp.kv, &tmp.nr_kv, &tmp.cap_kv, src->kv[i].key, src->kv[i].value))
			goto fail_strings;
	*dst = tmp;
	return 0;

fail_strings:
	opt_job_release(&tmp);
	return -ENOMEM;
}

void opt_job_release(struct opt_job *oj)
{
	free(oj->j.description);
	oj->j.description = NULL;
	free(oj->j.bssplit);	/* dist */
	free(oj->j.random_distribution);
	oj->j.bssplit = oj->j.random_distribution = NULL;
	iolog_prefix_free(&oj->j);	/* logs */
	iolog_replay_free(&oj->j);	/* iolog */
	free(oj->filename);
	free(oj->directory);
	free(oj->filename_format);
	free(oj->wait_for_name);
	free(oj->opendir);
	oj->filename = oj->directory = oj->filename_format = oj->wait_for_name = oj->opendir = NULL;
	opt_kv_free(oj->kv, oj->nr_kv);
	oj->kv = NULL;
	oj->nr_kv = oj->cap_kv = 0;
}

/* fio's name of an option's parser type, for --debug=parse. */
static const char *opt_debug_type(const struct opt_def *od)
{
	switch (od->type) {
	case OPT_T_STR:
		return "OPT_STR_STORE";
	case OPT_T_CHOICE:
		return "OPT_STR";
	case OPT_T_INT:
		return "OPT_INT";
	case OPT_T_SIZE:
		return "OPT_STR_VAL";
	case OPT_T_TIME:
		return "OPT_STR_VAL_TIME";
	case OPT_T_BOOL:
		return "OPT_BOOL";
	case OPT_T_FLAG:
		return "OPT_STR_SET";
	case OPT_T_RANGE:
		return "OPT_RANGE";
	case OPT_T_FLOAT_LIST:
		return "OPT_FLOAT_LIST";
	case OPT_T_UNSUPPORTED:
		break;
	}
	return "OPT_UNSUPPORTED";
}

/* A word of a list as fio's OPT_STR takes it: the value up to its first ',' (else ':') is one
 * of the words, else fio shows them and refuses it; the applier gets the word, or the whole
 * text where fio's callback reads what follows it. */
static int opt_apply_fio_word(struct opt_job *oj, const struct opt_def *od, const struct opt_ftype *ft,
			      const char *val, struct opt_diag *d)
{
	const char *word = NULL;

	for (const struct opt_choice *c = od->choices; c->word; c++)
		if (optval_word_match(c->word, val))
			word = c->word;
	if (!word)
		return od->apply(oj, od, val, d);	/* its own lines: fio's, or what iops takes */
	return od->apply(oj, od, ft->cb ? val : word, d);
}

int opt_apply(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d)
{
	const struct opt_ftype *ft;
	char *buf = NULL;
	int ret;

	if (od->type == OPT_T_UNSUPPORTED) {
		if (od->help)
			opt_diag_add(d, false, "fio: option '%s' is not supported by iops: %s", od->name, od->help);
		else
			opt_diag_add(d, false, "fio: option '%s' is not supported by iops", od->name);
		return -EINVAL;
	}
	if (val) {
		size_t n = strlen(val) + 1;

		if (n > OPT_VALUE_MAX) {
			opt_diag_add(d, false, "fio: value of option %s is too long (%zu bytes, max %d)",
				     od->name, n - 1, OPT_VALUE_MAX - 1);
			return -EINVAL;
		}
		buf = malloc(n);
		if (!buf) {
			opt_diag_add(d, false, "fio: out of memory");
			return -ENOMEM;
		}
		memcpy(buf, val, n);	/* as given: fio strips nothing (a job file's line is) */
	}
	ft = opt_ftype_find(od->name);
	if (d && d->debug) {
		opt_diag_debug(d, "handle_option=%s, ptr=%s", od->name, buf ? buf : "(null)");
		opt_diag_debug(d, "__handle_option=%s, type=%s, ptr=%s", od->name,
			       ft ? optval_ptype_name(ft->ptype) : opt_debug_type(od), buf ? buf : "(null)");
	}
	if (ft && optval_is_number(ft->ptype) && (buf || ft->ptype == OPTVAL_STR_SET))
		ret = opt_num_apply(oj, od, ft, buf, d);
	else if (ft && ft->ptype == OPTVAL_FLOAT_LIST && buf)
		ret = opt_num_float_apply(oj, od, ft, buf, d);
	else if (ft && ft->ptype == OPTVAL_STR && od->type == OPT_T_CHOICE && buf)
		ret = opt_apply_fio_word(oj, od, ft, buf, d);
	else if (ft && ft->ptype == OPTVAL_STR_STORE && buf && !*buf) {
		opt_diag_add(d, false, "fio: failed parsing %s=", od->name);	/* fio: an empty string is no value */
		ret = -EINVAL;
	} else
		ret = od->apply(oj, od, buf, d);
	if (!ret) {
		ret = opt_kv_add(&oj->kv, &oj->nr_kv, &oj->cap_kv, od->name, buf ? buf : "");
		if (ret == -E2BIG)
			opt_diag_add(d, false, "fio: too many options for one job");
		else if (ret)
			opt_diag_add(d, false, "fio: out of memory");
	}
	free(buf);
	return ret;
}

int opt_job_list_push(struct opt_job_list *l, struct opt_job *oj)
{
	if (l->nr >= JOB_MAX_JOBS)
		return -E2BIG;
	if (l->nr == l->cap) {
		unsigned ncap = l->cap ? l->cap * 2 : 8;
		struct opt_job *n = realloc(l->v, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->v = n;
		l->cap = ncap;
	}
	l->v[l->nr++] = *oj;
	memset(oj, 0, sizeof(*oj));
	return 0;
}

void opt_job_list_release(struct opt_job_list *l)
{
	for (unsigned i = 0; i < l->nr; i++)
		opt_job_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->cap = 0;
}

void opt_job_clear_kv(struct opt_job *oj)
{
	opt_kv_free(oj->kv, oj->nr_kv);
	oj->kv = NULL;
	oj->nr_kv = oj->cap_kv = 0;
}

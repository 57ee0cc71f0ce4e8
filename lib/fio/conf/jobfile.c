/* SPDX-License-Identifier: MIT */
#include "fio/conf/jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cpuset.h"

/* ------------------------------------------------------------------------------------------ */
/* keywords and math */

void jobfile_keywords_init(struct jobfile_keywords *kw)
{
	long ncpus = (long)cpuset_nr_cpus();	/* fio 3.33 uses the configured count */
	long page = sysconf(_SC_PAGESIZE);
	long pages = sysconf(_SC_PHYS_PAGES);

	kw->ncpus = ncpus > 0 ? ncpus : 1;
	kw->pagesize = page > 0 ? page : 4096;
	kw->mb_memory = pages > 0 && page > 0 ? (long long)pages * page / (1024 * 1024) : 0;
	kw->from_in = kw->no_include = false;
}

struct expr {
	const char *p;
	int err;
	unsigned depth;
};

static void skip_blanks(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static long long expr_sum(struct expr *e);

static long long expr_atom(struct expr *e)
{
	long long v = 0;

	skip_blanks(e);
	if (*e->p == '(') {
		if (++e->depth > 64) {
			e->err = -EINVAL;
			return 0;
		}
		e->p++;
		v = expr_sum(e);
		skip_blanks(e);
		if (*e->p != ')') {
			e->err = -EINVAL;
			return 0;
		}
		e->p++;
		e->depth--;
		return v;
	}
	if (*e->p == '-' || *e->p == '+') {
		bool neg = *e->p == '-';

		e->p++;
		v = expr_atom(e);
		if (neg) {
			if (v == LLONG_MIN) {
				e->err = -ERANGE;
				return 0;
			}
			v = -v;
		}
		return v;
	}
	if (!isdigit((unsigned char)*e->p)) {
		e->err = -EINVAL;
		return 0;
	}
	while (isdigit((unsigned char)*e->p)) {
		int dgt = *e->p - '0';

		if (v > (LLONG_MAX - dgt) / 10) {
			e->err = -ERANGE;
			return 0;
		}
		v = v * 10 + dgt;
		e->p++;
	}
	return v;
}

static long long expr_product(struct expr *e)
{
	long long v = expr_atom(e);

	for (;;) {
		char op;
		long long r;

		skip_blanks(e);
		op = *e->p;
		if (e->err || (op != '*' && op != '/'))
			return v;
		e->p++;
		r = expr_atom(e);
		if (e->err)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v)) {
				e->err = -ERANGE;
				return 0;
			}
		} else {
			if (r == 0 || (v == LLONG_MIN && r == -1)) {
				e->err = r == 0 ? -EINVAL : -ERANGE;
				return 0;
			}
			v /= r;	/* bc with scale=0 truncates too */
		}
	}
}

static long long expr_sum(struct expr *e)
{
	long long v = expr_product(e);

	for (;;) {
		char op;
		long long r;

		skip_blanks(e);
		op = *e->p;
		if (e->err || (op != '+' && op != '-'))
			return v;
		e->p++;
		r = expr_product(e);
		if (e->err)
			return 0;
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v)) {
			e->err = -ERANGE;
			return 0;
		}
	}
}

int jobfile_eval(const char *expr, long long *out)
{
	struct expr e = { expr, 0, 0 };
	long long v = expr_sum(&e);

	if (e.err)
		return e.err;
	skip_blanks(&e);
	if (*e.p)
		return -EINVAL;
	*out = v;
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* growable string for substitutions */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 64;
		char *ns;

		while (ncap < b->len + n + 1)
			ncap *= 2;
		if (ncap > 1u << 20) {
			b->oom = true;
			return;
		}
		ns = realloc(b->s, ncap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* ${VAR} -> environment value (undefined -> ""). Returns a malloc'd string or NULL. */
static char *expand_env(const char *s)
{
	struct sbuf b = { NULL, 0, 0, false };

	sb_add(&b, "", 0);
	while (*s) {
		const char *open = strstr(s, "${");
		const char *close;

		if (!open) {
			sb_add(&b, s, strlen(s));
			break;
		}
		close = strchr(open + 2, '}');
		if (!close) {
			sb_add(&b, s, strlen(s));
			break;
		}
		sb_add(&b, s, (size_t)(open - s));
		{
			char name[256];
			size_t n = (size_t)(close - open - 2);
			const char *v;

			if (n < sizeof(name)) {
				memcpy(name, open + 2, n);
				name[n] = '\0';
				v = getenv(name);
				if (v)
					sb_add(&b, v, strlen(v));
			}
		}
		s = close + 1;
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* Replace $ncpus/$pagesize/$mb_memory in val; *replaced tells whether any was found. */
static char *replace_keywords(const char *val, const struct jobfile_keywords *kw, bool *replaced)
{
	static const char *const names[] = { "$ncpus", "$pagesize", "$mb_memory" };
	struct sbuf b = { NULL, 0, 0, false };

	*replaced = false;
	sb_add(&b, "", 0);
	while (*val) {
		bool hit = false;

		for (int i = 0; i < 3; i++) {
			size_t n = strlen(names[i]);

			if (!strncmp(val, names[i], n)) {
				char num[32];
				long long v = i == 0 ? kw->ncpus : i == 1 ? kw->pagesize : kw->mb_memory;
				int len = snprintf(num, sizeof(num), "%lld", v);

				if (len > 0 && (size_t)len < sizeof(num))
					sb_add(&b, num, (size_t)len);
				val += n;
				hit = true;
				*replaced = true;
				break;
			}
		}
		if (!hit) {
			sb_add(&b, val, 1);
			val++;
		}
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ------------------------------------------------------------------------------------------ */
/* loading */

bool jobfile_is_global(const char *name)
{
	return !strncmp(name, "global", 6);
}

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static int add_section(struct jobfile *jf, const char *name)
{
	struct jobfile_section *sec;

	if (jf->nr_secs >= JOB_MAX_JOBS)
		return -E2BIG;
	if (jf->nr_secs == jf->cap_secs) {
		unsigned ncap = jf->cap_secs ? jf->cap_secs * 2 : 8;
		struct jobfile_section *n = realloc(jf->secs, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		jf->secs = n;
		jf->cap_secs = ncap;
	}
	sec = &jf->secs[jf->nr_secs];
	memset(sec, 0, sizeof(*sec));
	sec->name = dup_n(name, strlen(name));
	if (!sec->name)
		return -ENOMEM;
	jf->nr_secs++;
	return 0;
}

static int add_opt(struct jobfile_section *sec, char *key, char *val)
{
	if (sec->nr_opts == sec->cap_opts) {
		unsigned ncap = sec->cap_opts ? sec->cap_opts * 2 : 8;
		struct jobfile_opt *n;

		if (ncap > JOBFILE_MAX_OPTS)
			return -E2BIG;
		n = realloc(sec->opts, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		sec->opts = n;
		sec->cap_opts = ncap;
	}
	sec->opts[sec->nr_opts].key = key;
	sec->opts[sec->nr_opts].val = val;
	sec->nr_opts++;
	return 0;
}

/* Strip blanks at both ends and cut at the first ';' or '#' (fio's strip_blank_end). */
static char *clean_line(char *line)
{
	char *p = line, *end;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	end = p + strcspn(p, ";#");
	*end = '\0';
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return p;
}

struct load_ctx {
	struct jobfile *jf;
	const struct jobfile_keywords *kw;
	struct opt_diag *d;
	unsigned nr_opts;
};

static int load_stream(struct load_ctx *lc, FILE *f, const char *path, unsigned depth, bool included);

/* Resolve an include path: as given, else relative to the including file's directory. */
static int open_include(const char *inc, const char *from, char *out, size_t n)
{
	const char *slash = strrchr(from, '/');
	int len;

	if (inc[0] == '/' || access(inc, R_OK) == 0 || !slash) {
		len = snprintf(out, n, "%s", inc);
	} else {
		len = snprintf(out, n, "%.*s/%s", (int)(slash - from), from, inc);
	}
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

static int handle_option_line(struct load_ctx *lc, char *p)
{
	struct jobfile_section *sec;
	char *eq, *key, *val = NULL, *expanded;
	size_t klen;
	int ret;

	if (!lc->jf->nr_secs) {
		opt_diag_add(lc->d, false, "fio: option <%s> outside of [] job section", p);
		return -EINVAL;
	}
	if (++lc->nr_opts > JOBFILE_MAX_OPTS) {
		opt_diag_add(lc->d, false, "fio: too many options in job file");
		return -E2BIG;
	}
	sec = &lc->jf->secs[lc->jf->nr_secs - 1];
	expanded = expand_env(p);
	if (!expanded)
		return -ENOMEM;
	eq = strchr(expanded, '=');
	klen = eq ? (size_t)(eq - expanded) : strlen(expanded);
	while (klen && (expanded[klen - 1] == ' ' || expanded[klen - 1] == '\t'))
		klen--;
	key = dup_n(expanded, klen);
	if (!key) {
		free(expanded);
		return -ENOMEM;
	}
	if (eq) {
		char *v = eq + 1;	/* fio keeps the blanks after '=' ("bs= 4k" is 4 bytes) */
		bool replaced;

		val = replace_keywords(v, lc->kw, &replaced);
		if (!val) {
			free(expanded);
			free(key);
			return -ENOMEM;
		}
		if (replaced && strpbrk(val, "+-*/")) {
			long long r;
			char num[32];
			int len;

			if (jobfile_eval(val, &r)) {
				opt_diag_add(lc->d, false, "fio: failed parsing %s=%s", key, v);
				free(expanded);
				free(key);
				free(val);
				return -EINVAL;
			}
			len = snprintf(num, sizeof(num), "%lld", r);
			if (len < 0 || (size_t)len >= sizeof(num)) {
				free(expanded);
				free(key);
				free(val);
				return -ERANGE;
			}
			free(val);
			val = dup_n(num, (size_t)len);
			if (!val) {
				free(expanded);
				free(key);
				return -ENOMEM;
			}
		}
	}
	free(expanded);
	ret = add_opt(sec, key, val);
	if (ret) {
		free(key);
		free(val);
	}
	return ret;
}

static int handle_line(struct load_ctx *lc, char *raw, const char *path, unsigned depth,
		       bool included)
{
	char *p = clean_line(raw);

	if (!*p)
		return 0;
	if (*p == '[') {
		char name[256];
		size_t n = strlen(p + 1);

		if (included) {
			opt_diag_add(lc->d, false, "No new sections in included files");
			return -EINVAL;
		}
		if (n < 2 || p[n] != ']') {	/* fio drops the last character: "[job" is job "jo" */
			opt_diag_add(lc->d, false, "fio: bad section header '%s' in '%s'", p, path);
			return -EINVAL;
		}
		if (n > sizeof(name) - 1)
			n = sizeof(name) - 1;
		memcpy(name, p + 1, n);
		name[n] = '\0';
		if (n)
			name[n - 1] = '\0';
		return add_section(lc->jf, name);
	}
	if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t')) {
		char inc[4096];
		const char *f = p + 8;
		FILE *fp;
		int ret;

		while (*f == ' ' || *f == '\t')
			f++;
		if (lc->kw->no_include) {	/* a server's job: include would read the server's files */
			opt_diag_add(lc->d, false, "fio: include '%s': not allowed in a job sent to a server", f);
			return -EPERM;
		}
		if (depth >= JOBFILE_INCLUDE_DEPTH) {
			opt_diag_add(lc->d, false, "fio: include nesting too deep at '%s'", f);
			return -ELOOP;
		}
		if (open_include(f, path, inc, sizeof(inc))) {
			opt_diag_add(lc->d, false, "fio: unable to open '%s' job file", f);
			return -ENAMETOOLONG;
		}
		fp = fopen(inc, "r");
		if (!fp) {
			opt_diag_add(lc->d, false, "fio: unable to open '%s' job file", inc);
			return -ENOENT;
		}
		ret = load_stream(lc, fp, inc, depth + 1, true);
		fclose(fp);
		return ret;
	}
	return handle_option_line(lc, p);
}

static int load_stream(struct load_ctx *lc, FILE *f, const char *path, unsigned depth, bool included)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len > JOBFILE_LINE_MAX) {
			opt_diag_add(lc->d, false, "fio: line too long in job file '%s'", path);
			ret = -E2BIG;
			break;
		}
		if (memchr(line, '\0', (size_t)len)) {
			opt_diag_add(lc->d, false, "fio: job file '%s' is not a text file", path);
			ret = -EINVAL;
			break;
		}
		ret = handle_line(lc, line, path, depth, included);
		if (ret)
			break;
	}
	if (!ret && ferror(f)) {
		opt_diag_add(lc->d, false, "fio: error reading '%s' job file", path);
		ret = -EIO;
	}
	free(line);
	return ret;
}

static int opt_prio(const char *key)
{
	const struct opt_def *od = opt_find(key);

	return od ? od->prio : OPT_PRIO_LAST + 1;	/* fio sorts engine/unknown options after filename */
}

static void sort_section(struct jobfile_section *sec)
{
	/* stable insertion sort by priority: sections are short */
	for (unsigned i = 1; i < sec->nr_opts; i++) {
		struct jobfile_opt o = sec->opts[i];
		int p = opt_prio(o.key);
		unsigned j = i;

		while (j > 0 && opt_prio(sec->opts[j - 1].key) > p) {
			sec->opts[j] = sec->opts[j - 1];
			j--;
		}
		sec->opts[j] = o;
	}
}

int jobfile_load(struct jobfile *jf, const char *path, FILE *in, const struct jobfile_keywords *kw,
		 struct opt_diag *d)
{
	struct load_ctx lc = { jf, kw, d, 0 };
	FILE *f;
	int ret;

	memset(jf, 0, sizeof(*jf));
	if (!strcmp(path, "-") || kw->from_in) {
		f = in;
	} else {
		f = fopen(path, "r");
		if (!f) {
			opt_diag_add(d, false, "fio: unable to open '%s' job file", path);
			return -ENOENT;
		}
	}
	ret = load_stream(&lc, f, path, 0, false);
	if (f != in)
		fclose(f);
	if (ret) {
		jobfile_release(jf);
		return ret;
	}
	for (unsigned i = 0; i < jf->nr_secs; i++)
		sort_section(&jf->secs[i]);
	return 0;
}

void jobfile_release(struct jobfile *jf)
{
	for (unsigned i = 0; i < jf->nr_secs; i++) {
		struct jobfile_section *sec = &jf->secs[i];

		for (unsigned k = 0; k < sec->nr_opts; k++) {
			free(sec->opts[k].key);
			free(sec->opts[k].val);
		}
		free(sec->opts);
		free(sec->name);
	}
	free(jf->secs);
	memset(jf, 0, sizeof(*jf));
}

/* ------------------------------------------------------------------------------------------ */
/* applying */

/* Apply a section's options to oj. Unknown options and bad values are all reported (as fio
 * does), an option iops refuses stops at once (one line). */
static int apply_section(const struct jobfile_section *sec, struct opt_job *oj, struct opt_diag *d)
{
	int ret = 0;

	for (unsigned i = 0; i < sec->nr_opts; i++) {
		const struct jobfile_opt *o = &sec->opts[i];
		const struct opt_def *od = opt_find(o->key);
		int r;

		if (!od) {
			const char *s = opt_suggest(o->key);

			if (o->val)
				opt_diag_add(d, false, "Bad option <%s=%s>", o->key, o->val);
			else
				opt_diag_add(d, false, "Bad option <%s>", o->key);
			if (s)
				opt_diag_add(d, false, "Did you mean %s?", s);
			ret = -EINVAL;
			continue;
		}
		if (od->type == OPT_T_UNSUPPORTED) {
			d->nr = 0;	/* one line naming what iops lacks */
			return opt_apply(oj, od, o->val, d);
		}
		/* logs: a bare write_bw_log / write_iops_log / write_lat_log means "prefix = job name" */
		if (od->type != OPT_T_FLAG && !o->val && strncmp(od->name, "write_", 6)) {
			opt_diag_add(d, false, "Option %s requires an argument", o->key);
			opt_diag_add(d, false, "fio: failed parsing %s", o->key);
			ret = -EINVAL;
			continue;
		}
		r = opt_apply(oj, od, o->val, d);
		if (r == -ENOMEM)
			return r;
		if (r) {
			/* our own refusals (engine, trim...) are one line: stop there */
			if (d->nr && !strncmp(d->line[d->nr - 1], "fio: ", 5) &&
			    opt_is_refusal(d->line[d->nr - 1])) {
				if (d->nr > 1)
					memmove(d->line[0], d->line[d->nr - 1], OPT_DIAG_LEN);
				d->to_stdout[0] = false;
				d->nr = 1;
				return r;
			}
			ret = r;
		}
	}
	return ret;
}

int jobfile_apply(const struct jobfile *jf, struct opt_job *global, struct job_kv **global_kv,
		  unsigned *nr_global_kv, unsigned *cap_global_kv, struct opt_job_list *list,
		  unsigned file_index, bool first_stonewall, const char *const *only, unsigned nr_only,
		  struct opt_diag *d)
{
	bool first = true;

	for (unsigned i = 0; i < jf->nr_secs; i++) {
		const struct jobfile_section *sec = &jf->secs[i];
		struct opt_job oj;
		int ret;

		if (jobfile_is_global(sec->name)) {
			unsigned before = global->nr_kv;

			ret = apply_section(sec, global, d);
			if (ret) {
				if (ret == -EINVAL && !opt_is_refusal(d->nr ? d->line[0] : ""))
					opt_diag_add(d, false, "fio: job %s dropped", sec->name);
				return ret;
			}
			for (unsigned k = before; k < global->nr_kv; k++)
				if (opt_kv_add(global_kv, nr_global_kv, cap_global_kv, global->kv[k].key,
					       global->kv[k].value))
					return -ENOMEM;
			continue;
		}
		if (nr_only) {
			bool wanted = false;

			for (unsigned k = 0; k < nr_only; k++)
				if (!strcmp(only[k], sec->name))
					wanted = true;
			if (!wanted)
				continue;
		}
		if (opt_job_copy(&oj, global))
			return -ENOMEM;
		opt_job_clear_kv(&oj);
		oj.is_global = false;
		oj.file_index = file_index;
		if (strlen(sec->name) >= sizeof(oj.j.name)) {
			opt_diag_add(d, false, "fio: job name too long: %.64s...", sec->name);
			opt_job_release(&oj);
			return -EINVAL;
		}
		memcpy(oj.j.name, sec->name, strlen(sec->name) + 1);
		if (first && first_stonewall)
			oj.j.stonewall = true;
		ret = apply_section(sec, &oj, d);
		if (ret) {
			if (ret == -EINVAL && !opt_is_refusal(d->nr ? d->line[0] : ""))
				opt_diag_add(d, false, "fio: job %s dropped", sec->name);
			opt_job_release(&oj);
			return ret;
		}
		ret = opt_job_list_push(list, &oj);
		if (ret) {
			if (ret == -E2BIG)
				opt_diag_add(d, false, "fio: too many jobs (max %d)", JOB_MAX_JOBS);
			opt_job_release(&oj);
			return ret;
		}
		first = false;
	}
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* --showcmd */

int jobfile_showcmd(const struct jobfile *jf, FILE *out)
{
	fputs("fio ", out);
	for (unsigned i = 0; i < jf->nr_secs; i++) {
		const struct jobfile_section *sec = &jf->secs[i];

		if (!jobfile_is_global(sec->name))
			fprintf(out, "--name=%s ", sec->name);
		/* the job's own options, then its engine's (fio parses those second) */
		for (unsigned k = 0; k < 2 * sec->nr_opts; k++) {
			const struct jobfile_opt *o = &sec->opts[k % sec->nr_opts];
			const struct opt_def *od = opt_find(o->key);
			const char *key = od ? od->name : o->key;

			if ((od && od->engine) != (k >= sec->nr_opts))
				continue;
			if (o->val && od && !od->engine && strchr(o->val, ' '))	/* not engine ones */
				fprintf(out, "--%s=\"%s\" ", key, o->val);	/* fio quotes these */
			else if (o->val)
				fprintf(out, "--%s=%s ", key, o->val);
			else
				fprintf(out, "--%s ", key);
		}
	}
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

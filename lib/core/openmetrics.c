/* SPDX-License-Identifier: MIT */
/* openmetrics: the text exposition writer; see openmetrics.h. */
#include "core/openmetrics.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

static const char *const openmetrics_types[] = { "gauge", "counter", "summary", "histogram" };

void openmetrics_init(struct openmetrics *w, FILE *out)
{
	w->out = out;
	w->family = "";
}

/* HELP text: backslash and line feed escaped (the only escapes HELP has besides \"). */
static void openmetrics_help(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

void openmetrics_family(struct openmetrics *w, const char *name, enum openmetrics_type type, const char *unit,
			const char *help)
{
	w->family = name;
	fprintf(w->out, "# TYPE %s %s\n", name, openmetrics_types[type]);
	if (unit)
		fprintf(w->out, "# UNIT %s %s\n", name, unit);
	fprintf(w->out, "# HELP %s ", name);
	openmetrics_help(w->out, help);
	fputc('\n', w->out);
}

void openmetrics_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned n;

		if (*p == '\\' || *p == '"' || *p == '\n') {
			fputc('\\', out);
			fputc(*p == '\n' ? 'n' : *p, out);
			p++;
			continue;
		}
		n = json_utf8_len(p);
		if (!n) {
			fputs("\xef\xbf\xbd", out);	/* U+FFFD */
			p++;
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
}

static void openmetrics_head(struct openmetrics *w, const char *suffix, const struct openmetrics_label *l,
			     unsigned n, const char *xname, const char *xvalue)
{
	bool first = true;

	fprintf(w->out, "%s%s", w->family, suffix);
	for (unsigned i = 0; i <= n; i++) {
		const char *name = i < n ? l[i].name : xname, *value = i < n ? l[i].value : xvalue;

		if (!name || !value)
			continue;
		fprintf(w->out, "%s%s=\"", first ? "{" : ",", name);
		openmetrics_escape(w->out, value);
		fputc('"', w->out);
		first = false;
	}
	fputs(first ? " " : "} ", w->out);
}

void openmetrics_sample(struct openmetrics *w, const char *suffix, const struct openmetrics_label *l, unsigned n,
			const char *xname, const char *xvalue, double v)
{
	char num[40];

	openmetrics_head(w, suffix, l, n, xname, xvalue);
	openmetrics_number(num, sizeof(num), v);
	fprintf(w->out, "%s\n", num);
}

void openmetrics_sample_u64(struct openmetrics *w, const char *suffix, const struct openmetrics_label *l,
			    unsigned n, const char *xname, const char *xvalue, uint64_t v)
{
	openmetrics_head(w, suffix, l, n, xname, xvalue);
	fprintf(w->out, "%" PRIu64 "\n", v);
}

int openmetrics_finish(struct openmetrics *w)
{
	fputs("# EOF\n", w->out);
	if (fflush(w->out) != 0 || ferror(w->out))
		return errno ? -errno : -EIO;
	return 0;
}

size_t openmetrics_number(char *buf, size_t n, double v)
{
	char e[40];
	int len = 0, prec = 1;
	long exp;

	if (!n)
		return 0;
	if (isnan(v) || isinf(v)) {
		len = snprintf(buf, n, "%s", isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
		return (size_t)len >= n ? n - 1 : (size_t)len;
	}
	/* the fewest digits that read back as v, then Python's repr layout (which Prometheus'
	 * client writes): fixed notation for exponents -4 to 15, with ".0" on whole numbers */
	for (; prec < 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", prec - 1, v);
	exp = strtol(strchr(e, 'e') + 1, NULL, 10);
	if (exp < -4 || exp >= 16)
		len = snprintf(buf, n, "%s", e);
	else
		len = snprintf(buf, n, "%.*f%s", prec - 1 - (int)exp > 0 ? prec - 1 - (int)exp : 0, v,
			       prec - 1 - exp > 0 ? "" : ".0");
	return len < 0 ? 0 : (size_t)len >= n ? n - 1 : (size_t)len;
}

size_t openmetrics_quantile(char *buf, size_t n, double pct)
{
	char s[400], q[420];
	const char *dot;
	size_t ilen;
	int w;

	if (!(pct >= 0 && pct <= 100))
		return openmetrics_number(buf, n, NAN);
	snprintf(s, sizeof(s), "%f", pct);	/* fio's key: "99.900000" */
	dot = strchr(s, '.');
	ilen = dot ? (size_t)(dot - s) : strlen(s);
	/* "99.900000" -> "0.99900000", "100.000000" -> "1.00000000", "5.000000" -> "0.05000000" */
	w = snprintf(q, sizeof(q), "%.*s.%s%.*s%s", ilen > 2 ? (int)(ilen - 2) : 1, ilen > 2 ? s : "0",
		     ilen == 1 ? "0" : "", ilen > 2 ? 2 : (int)ilen, ilen > 2 ? s + ilen - 2 : s, dot ? dot + 1 : "");
	if (w < 0 || (size_t)w >= sizeof(q))
		return openmetrics_number(buf, n, NAN);
	return openmetrics_number(buf, n, strtod(q, NULL));
}

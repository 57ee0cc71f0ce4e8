/* SPDX-License-Identifier: MIT */
/* plot_num: exact and human numbers, fio's unit scaling; see plot_num.h. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/num2str.h"
#include "plot/plot_num.h"

const struct plot_unit plot_u_none = { "", PLOT_F_PLAIN, 1 };
const struct plot_unit plot_u_ns = { "ns", PLOT_F_TIME, 1 };
const struct plot_unit plot_u_us = { "us", PLOT_F_TIME, 1e3 };
const struct plot_unit plot_u_ms_lat = { "ms", PLOT_F_TIME, 1e6 };
const struct plot_unit plot_u_kibs = { "KiB/s", PLOT_F_RATE, 1024 };
const struct plot_unit plot_u_bytes_s = { "B/s", PLOT_F_RATE, 1 };
const struct plot_unit plot_u_mibs = { "MiB/s", PLOT_F_RATE, 1048576 };
const struct plot_unit plot_u_iops = { "IOPS", PLOT_F_COUNT, 1 };
const struct plot_unit plot_u_ios = { "I/Os", PLOT_F_COUNT, 1 };
const struct plot_unit plot_u_pct = { "%", PLOT_F_PLAIN, 1 };
const struct plot_unit plot_u_files_s = { "files/s", PLOT_F_COUNT, 1 };
const struct plot_unit plot_u_s = { "s", PLOT_F_TIME, 1e9 };
const struct plot_unit plot_u_elapsed_ms = { "ms", PLOT_F_ELAPSED, 1 };

char *plot_num_raw(char *buf, size_t len, double v)
{
	if (isnan(v) || isinf(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return buf;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* v divided by 1000 while it has more than 4 digits: the step's index */
static unsigned plot_num_steps(double *v, double step, unsigned max)
{
	unsigned k = 0;

	while (fabs(*v) >= 10000 && k < max) {
		*v /= step;
		k++;
	}
	return k;
}

char *plot_num_human(char *buf, size_t len, double v, const struct plot_unit *u)
{
	static const char *const times[] = { "nsec", "usec", "msec", "sec" };
	char n2s[N2S_BUF_LEN];
	double b = v * u->to_base;
	unsigned k;

	switch (u->family) {
	case PLOT_F_TIME:
		k = plot_num_steps(&b, 1000, 3);
		snprintf(buf, len, "%.4g %s", b, times[k]);
		break;
	case PLOT_F_RATE:
		if (b >= 0 && b < 1.8e19)
			snprintf(buf, len, "%s", num2str(n2s, (uint64_t)llround(b), 4, 1, true, N2S_BYTEPERSEC));
		else
			snprintf(buf, len, "%.4g B/s", b);
		break;
	case PLOT_F_COUNT:
		if (b >= 10000 && b < 1.8e19)
			snprintf(buf, len, "%s %s", num2str(n2s, (uint64_t)llround(b), 4, 1, false, N2S_NONE), u->raw);
		else
			snprintf(buf, len, "%.4g %s", b, u->raw);
		break;
	case PLOT_F_ELAPSED:
		if (b >= 2000)
			snprintf(buf, len, "%.4g s", b / 1000);
		else
			snprintf(buf, len, "%.4g ms", b);
		break;
	default:
		k = 0;
		snprintf(buf, len, "%.4g%s%s", b, u->raw[0] && u->raw[0] != '%' ? " " : "", u->raw);
		break;
	}
	return buf;
}

void plot_num_scale(const struct plot_unit *u, double max, double *div, const char **name)
{
	static const char *const times[] = { "nsec", "usec", "msec", "sec" };
	static const char *const rates[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s" };
	static const char *const counts[] = { "", "x1000", "x1e6", "x1e9", "x1e12", "x1e15" };
	double b = fabs(max * u->to_base), d = 1;
	unsigned k = 0;

	switch (u->family) {
	case PLOT_F_TIME:
		while (k < 3 && b >= 10000) {
			b /= 1000;
			d *= 1000;
			k++;
		}
		*name = times[k];
		break;
	case PLOT_F_RATE:
		while (k < 5 && b >= 10000) {
			b /= 1024;
			d *= 1024;
			k++;
		}
		*name = rates[k];
		break;
	case PLOT_F_COUNT:
		while (k < 5 && b >= 10000) {
			b /= 1000;
			d *= 1000;
			k++;
		}
		*name = k ? counts[k] : u->raw;
		break;
	case PLOT_F_ELAPSED:
		d = b > 7200000 ? 60000 : b > 2000 ? 1000 : 1;
		*name = d == 60000 ? "min" : d == 1000 ? "sec" : "msec";
		break;
	default:
		*name = u->raw;
		break;
	}
	*div = d / u->to_base;
}

char *plot_num_tick(char *buf, size_t len, double v, double step)
{
	int dec = 0;

	/* the fewest decimals that write the step exactly (0.25: 2, 0.1: 1, 5: 0) */
	for (double s = step; dec < 9 && s > 0 && fabs(s - round(s)) > 1e-6 * (s < 1 ? 1 : s); s *= 10)
		dec++;
	if (fabs(v) < step * 1e-9)
		v = 0;	/* -0 and rounding noise print "0" */
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

void plot_num_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[0] = '\0';
	else if ((size_t)n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

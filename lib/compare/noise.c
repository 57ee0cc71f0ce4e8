/* SPDX-License-Identifier: MIT */
/* noise: quantiles, Welch's interval, order-statistic intervals; see noise.h. The t
 * distribution's CDF is the regularized incomplete beta function, evaluated by its continued
 * fraction (modified Lentz); quantiles are Newton's method on the CDF, which is concave above
 * the median, so that iterates started at the normal quantile climb to the root without
 * overshooting it. */
#include "compare/noise.h"

#include <math.h>

#define NOISE_TINY	1e-300
#define NOISE_EPS	1e-15
#define NOISE_ITER	500
#define NOISE_BIG_DF	1e7	/* beyond: the normal distribution, to double precision */

static double noise_phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

double noise_z(double p)
{
	double x = 0.0;

	if (!(p > 0.0 && p < 1.0))
		return NAN;
	if (p < 0.5)
		return -noise_z(1.0 - p);
	for (int i = 0; i < NOISE_ITER; i++) {
		double step = (noise_phi(x) - p) * sqrt(2.0 * M_PI) * exp(x * x / 2.0);

		x -= step;
		if (fabs(step) <= 1e-14 * (1.0 + x))
			break;
	}
	return x;
}

/* The continued fraction of I_x(a, b), for x below (a + 1) / (a + b + 2) where it converges fast. */
static double noise_betacf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	d = 1.0 / (fabs(d) < NOISE_TINY ? NOISE_TINY : d);
	h = d;
	for (int m = 1; m <= NOISE_ITER; m++) {
		double m2 = 2.0 * m, coef[2], del = 0.0;

		coef[0] = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		coef[1] = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		for (int k = 0; k < 2; k++) {
			d = 1.0 + coef[k] * d;
			c = 1.0 + coef[k] / c;
			d = 1.0 / (fabs(d) < NOISE_TINY ? NOISE_TINY : d);
			c = fabs(c) < NOISE_TINY ? NOISE_TINY : c;
			del = d * c;
			h *= del;
		}
		if (fabs(del - 1.0) < NOISE_EPS)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double noise_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * noise_betacf(a, b, x) / a;
	return 1.0 - front * noise_betacf(b, a, 1.0 - x) / b;
}

double noise_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (df >= NOISE_BIG_DF)
		return noise_phi(t);
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	tail = 0.5 * noise_ibeta(df / 2.0, 0.5, df / (df + t * t));
	return t >= 0.0 ? 1.0 - tail : tail;
}

static double noise_t_pdf(double t, double df)
{
	return exp(lgamma((df + 1.0) / 2.0) - lgamma(df / 2.0) - (df + 1.0) / 2.0 * log1p(t * t / df)) /
	       sqrt(df * M_PI);
}

double noise_t(double p, double df)
{
	double x;

	if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
		return NAN;
	if (p < 0.5)
		return -noise_t(1.0 - p, df);
	x = noise_z(p);
	if (df >= NOISE_BIG_DF || p == 0.5)
		return x;
	for (int i = 0; i < NOISE_ITER; i++) {
		double step = (noise_t_cdf(x, df) - p) / noise_t_pdf(x, df);

		if (!isfinite(step))
			break;
		x -= step;
		if (fabs(step) <= 1e-13 * (1.0 + fabs(x)))
			break;
	}
	return x;
}

double noise_welch(double se_a, double df_a, double se_b, double df_b, double conf, double *df)
{
	double va = se_a * se_a, vb = se_b * se_b, s = va + vb, den = 0.0, nu;

	if (df)
		*df = INFINITY;
	if (!(s > 0.0))
		return 0.0;
	if (isfinite(df_a) && df_a > 0.0)
		den += va * va / df_a;
	if (isfinite(df_b) && df_b > 0.0)
		den += vb * vb / df_b;
	nu = den > 0.0 ? s * s / den : INFINITY;
	if (df)
		*df = nu;
	return noise_t((1.0 + conf) / 2.0, nu) * sqrt(s);
}

double noise_curve_at(const struct noise_curve *c, double f)
{
	unsigned i;

	if (!c->n)
		return NAN;
	f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
	if (c->steps) {
		for (i = 0; i + 1 < c->n && c->frac[i] < f; i++)
			;
		return c->val[i];
	}
	if (f <= c->frac[0])
		return c->val[0];
	for (i = 0; i + 1 < c->n && c->frac[i + 1] < f; i++)
		;
	if (i + 1 >= c->n)
		return c->val[c->n - 1];
	{
		double f0 = c->frac[i], f1 = c->frac[i + 1], v0 = c->val[i], v1 = c->val[i + 1], w;

		if (f1 <= f0)
			return v1;
		if (f1 < 1.0)	/* the tail scale: p99, p99.9, p99.99 evenly spaced */
			w = (log10(1.0 - f0) - log10(1.0 - f)) / (log10(1.0 - f0) - log10(1.0 - f1));
		else		/* the segment up to the maximum */
			w = (f - f0) / (f1 - f0);
		return v0 + w * (v1 - v0);
	}
}

void noise_pct_interval(double n, double pct, double conf, double *lo, double *hi)
{
	double p = pct / 100.0, h;

	if (!(n > 0.0) || !(p > 0.0 && p < 1.0)) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	h = noise_z((1.0 + conf) / 2.0) * sqrt(p * (1.0 - p) / n);
	*lo = p - h < 0.0 ? 0.0 : p - h;
	*hi = p + h > 1.0 ? 1.0 : p + h;
}

/* SPDX-License-Identifier: MIT */
/* noise: the statistics behind `iops compare`'s verdicts (docs/compare.md explains them).
 * Quantiles of the normal and Student's t distributions, Welch's interval for the difference of
 * two means known by their standard errors, and the distribution-free interval of a percentile
 * (order statistics) read off a latency distribution. Pure math: no I/O, no allocation. */
#ifndef IOPS_NOISE_H
#define IOPS_NOISE_H

#include <stdbool.h>

/* Standard normal quantile (0 < p < 1): x with P(Z <= x) = p. p outside (0, 1): NAN. */
double noise_z(double p);

/* Student's t distribution with df degrees of freedom (df > 0, fractional too; INFINITY: the
 * normal). noise_t_cdf: P(T <= t); noise_t: its quantile (0 < p < 1). Bad input: NAN. */
double noise_t_cdf(double t, double df);
double noise_t(double p, double df);

/* Welch: the half-width of the two-sided interval, at confidence conf (0.99), of the
 * difference of two means whose standard errors are se_a and se_b, each with its degrees of
 * freedom (INFINITY: a normal error): t(conf, nu) sqrt(se_a^2 + se_b^2), nu by the
 * Welch-Satterthwaite formula (*df, may be NULL). Both errors 0: 0, *df INFINITY. */
double noise_welch(double se_a, double df_a, double se_b, double df_b, double conf, double *df);

/* A latency distribution as ascending points (frac[i] in [0, 1], val[i]): json+ bins (steps:
 * the value of the first point whose cumulative fraction reaches f, fio's percentile rule) or a
 * percentile list with the minimum at 0 and the maximum at 1 (interpolated linearly in
 * -log10(1 - f), the scale on which tail percentiles are evenly spread). */
struct noise_curve {
	const double *frac, *val;
	unsigned n;
	bool steps;
};

/* The value at cumulative fraction f (clamped to [0, 1]); NAN when the curve is empty. */
double noise_curve_at(const struct noise_curve *c, double f);

/* The two-sided interval at conf of percentile pct (0 < pct < 100) of n independent values,
 * as cumulative fractions [*lo, *hi]: pct/100 -+ z sqrt(p (1 - p) / n) (the binomial count of
 * values below the percentile, normal approximation), clamped to [0, 1]. */
void noise_pct_interval(double n, double pct, double conf, double *lo, double *hi);

#endif

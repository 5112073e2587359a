// SPDX-License-Identifier: GPL-2.0
/*
 * splitmix64, and the few distributions the model draws from.
 */
#include "rng.h"

void edge_rng_seed(struct edge_rng *r, u64 seed)
{
	r->s = seed;
}

/*
 * edge_rng_spread() with a spread (@rsd_pct and @mean not 0): Irwin-Hall
 * with four uniforms (variance 4/12), scaled.
 */
u64 edge_rng_spread_draw(struct edge_rng *r, u64 mean, u32 rsd_pct)
{
	s64 sum = 0, dev;
	int i;

	for (i = 0; i < 4; i++)
		sum += edge_rng_below(r, 1U << 16);
	/* sum - 2^17 has sd 2^16 * sqrt(1/3) ~= 37837. */
	sum -= 1 << 17;
	dev = (s64)(mean / 100 * rsd_pct) * sum / 37837;
	if ((s64)mean + dev < 1)
		return 1;
	return (u64)((s64)mean + dev);
}

/*
 * Exponential with mean @mean, by inversion: -ln(u) = -log2(u) * ln 2,
 * with the log taken in 16.16 fixed point, one bit at a time by squaring.
 * The arrivals of a Poisson stream.
 */
u64 edge_rng_exp(struct edge_rng *r, u64 mean)
{
	u64 u = (edge_rng_next(r) >> 11) | 1;	/* u / 2^53 in (0, 1] */
	u64 nlog2 = 1 << 16;			/* -log2(u / 2^53), 16.16 */
	int i;

	/* Normalise: x = u / 2^52 in [1, 2), each shift adds 1 to -log2. */
	while (u < (1ULL << 52)) {
		u <<= 1;
		nlog2 += 1 << 16;
	}
	/* -log2 = 1 + shifts - log2(x); log2(x)'s bits come from squaring. */
	for (i = 15; i >= 0; i--) {
		u64 hi = u >> 26;

		u = hi * hi;			/* x^2, still scaled by 2^52 */
		if (u >= (1ULL << 53))
			u >>= 1;		/* bit set in log2(x) */
		else
			continue;
		nlog2 -= 1ULL << i;
	}
	return mean * nlog2 / 94548;		/* 2^16 / ln 2 = 94548 */
}

/*
 * Right-skewed around @mean with relative deviation @rsd_pct: a shift
 * plus a gamma of shape 2 (two exponentials), as a TB whose work depends
 * on its data (RayTracing's rays, Pai et al. Fig. 6) is rarely much
 * shorter than typical and sometimes several times longer.  With c =
 * rsd_pct / 100, each exponential has mean theta = c * mean / sqrt(2)
 * and the shift is mean - 2 * theta, so the mean is exactly @mean and
 * the deviation c * mean; the tail of 2048 draws reaches about 4.5x the
 * mean at c = 0.657.  Above c = 1/sqrt(2) the shift would be negative:
 * one exponential (deviation c * mean, shift mean * (1 - c)) instead.
 * A symmetric draw clipped at 1 would shift the mean up instead.
 */
u64 edge_rng_skewed(struct edge_rng *r, u64 mean, u32 rsd_pct)
{
	/* theta = mean * rsd / (100 * sqrt(2)); 1/sqrt(2) = 7071 / 10000. */
	u64 theta = edge_div64(edge_div64(mean * rsd_pct, 100) * 7071, 10000);

	if (!rsd_pct || !mean)
		return mean ? mean : 1;
	if (2 * theta <= mean)
		return mean - 2 * theta + edge_rng_exp(r, theta) +
		       edge_rng_exp(r, theta);
	theta = edge_div64(mean * rsd_pct, 100);
	return mean - theta + edge_rng_exp(r, theta);
}

/* A TB's isolated time: symmetric (edge_rng_spread()) unless @skew. */
u64 edge_rng_tb(struct edge_rng *r, u64 mean, u32 rsd_pct, bool skew)
{
	return skew ? edge_rng_skewed(r, mean, rsd_pct) :
		      edge_rng_spread(r, mean, rsd_pct);
}

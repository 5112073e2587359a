// SPDX-License-Identifier: GPL-2.0
/*
 * splitmix64, and the few distributions the model draws from.
 */
#include "rng.h"

/* Not every compat header has U64_MAX: the same, spelt out. */
#define RNG_U64_MAX	(~0ULL)

/* @a + @b, at most RNG_U64_MAX: a huge unvalidated mean saturates. */
static u64 add_sat(u64 a, u64 b)
{
	return a > RNG_U64_MAX - b ? RNG_U64_MAX : a + b;
}

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
	u64 a, mag, q, devm;
	int i;

	for (i = 0; i < 4; i++)
		sum += edge_rng_below(r, 1U << 16);
	/* sum - 2^17 has sd 2^16 * sqrt(1/3) ~= 37837. */
	sum -= 1 << 17;
	/*
	 * Validation keeps rsd_pct <= 100 (edge_validate_warp_state()); a
	 * caller that skipped it gets 100, not a wrapped product.
	 */
	a = mean / 100 * (rsd_pct > 100 ? 100 : rsd_pct);
	/*
	 * |sum| <= 2^17: below 2^46 the product fits an s64 and mean + dev
	 * (|dev| < 2^48) too, as always.
	 */
	if (a < (1ULL << 46) && mean < (1ULL << 62)) {
		dev = (s64)a * sum / 37837;
		if ((s64)mean + dev < 1)
			return 1;
		return (u64)((s64)mean + dev);
	}
	/*
	 * A huge mean (an unvalidated ns time: tb_ms=4000000000 once
	 * overflowed here, UBSan in shared code): the same quotient in two
	 * parts, a < 2^64 so q < 2^49 and q * mag < 2^66 is checked, and a
	 * result that saturates instead of wrapping.
	 */
	q = a / 37837;
	mag = sum < 0 ? (u64)-sum : (u64)sum;
	if (q && mag > RNG_U64_MAX / q)
		devm = RNG_U64_MAX;
	else
		devm = add_sat(q * mag, a % 37837 * mag / 37837);
	if (sum < 0)
		return devm >= mean ? 1 : mean - devm;
	return add_sat(mean, devm);
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
	/* 2^16 / ln 2 = 94548; nlog2 < 2^22, so split a mean past 2^42. */
	if (mean < (1ULL << 42))
		return mean * nlog2 / 94548;
	return mean / 94548 * nlog2 + mean % 94548 * nlog2 / 94548;
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
	u64 theta, t2;

	if (!rsd_pct || !mean)
		return mean ? mean : 1;
	/*
	 * Above 100 % the shift below would be negative and wrap (rsd=500
	 * gave TBs of ~4e18 cycles): validation refuses it, and a caller
	 * that skipped validation gets 100 %.
	 */
	if (rsd_pct > 100)
		rsd_pct = 100;
	/* mean * rsd_pct fits below 2^57; past it, divide first. */
	theta = mean < (1ULL << 57) ? edge_div64(mean * rsd_pct, 100) :
		edge_div64(mean, 100) * rsd_pct;
	/* theta = mean * rsd / (100 * sqrt(2)); 1/sqrt(2) = 7071 / 10000. */
	t2 = theta < (1ULL << 50) ? edge_div64(theta * 7071, 10000) :
	     edge_div64(theta, 10000) * 7071;
	if (t2 <= mean / 2)
		return add_sat(mean - 2 * t2, add_sat(edge_rng_exp(r, t2),
						      edge_rng_exp(r, t2)));
	return add_sat(mean - theta, edge_rng_exp(r, theta));
}

/* A TB's isolated time: symmetric (edge_rng_spread()) unless @skew. */
u64 edge_rng_tb(struct edge_rng *r, u64 mean, u32 rsd_pct, bool skew)
{
	return skew ? edge_rng_skewed(r, mean, rsd_pct) :
		      edge_rng_spread(r, mean, rsd_pct);
}

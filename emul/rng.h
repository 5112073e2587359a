/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deterministic pseudo-random numbers for the model, integers only (the
 * model runs in the kernel, where floating point is off limits).
 */
#ifndef _EDGE_RNG_H
#define _EDGE_RNG_H

#include "edge_compat.h"

struct edge_rng {
	u64 s;
};

void edge_rng_seed(struct edge_rng *r, u64 seed);
u64 edge_rng_spread_draw(struct edge_rng *r, u64 mean, u32 rsd_pct);

/*
 * Roughly normal around @mean with relative deviation @rsd_pct, never
 * below 1 (edge_rng_spread_draw()).  Inline for the case that draws
 * nothing: every event warp's run time takes one, most with no spread.
 */
static inline u64 edge_rng_spread(struct edge_rng *r, u64 mean, u32 rsd_pct)
{
	if (!rsd_pct || !mean)
		return mean ? mean : 1;
	return edge_rng_spread_draw(r, mean, rsd_pct);
}

/*
 * splitmix64.  The draws below are inline: a preempting event draws its
 * victim's warp state with up to eight of them, and a call each cost
 * more than the draw.
 */
static inline u64 edge_rng_next(struct edge_rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), by Lemire's multiply-shift (bias < 2^-32). */
static inline u32 edge_rng_below(struct edge_rng *r, u32 n)
{
	return (u32)(((edge_rng_next(r) >> 32) * (u64)n) >> 32);
}

static inline bool edge_rng_permille(struct edge_rng *r, u32 permille)
{
	return edge_rng_below(r, 1000) < permille;
}

/* Uniform on [0, 2 * mean]: keeps the mean, bounds the tail. */
static inline u64 edge_rng_uniform_mean(struct edge_rng *r, u64 mean)
{
	if (mean < (1U << 30))
		return edge_rng_below(r, (u32)(2 * mean + 1));
	return mean / 1024 * edge_rng_below(r, 2049);
}

u64 edge_rng_exp(struct edge_rng *r, u64 mean);
u64 edge_rng_skewed(struct edge_rng *r, u64 mean, u32 rsd_pct);
u64 edge_rng_tb(struct edge_rng *r, u64 mean, u32 rsd_pct, bool skew);

#endif /* _EDGE_RNG_H */

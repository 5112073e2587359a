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
u64 edge_rng_next(struct edge_rng *r);
u32 edge_rng_below(struct edge_rng *r, u32 n);
bool edge_rng_permille(struct edge_rng *r, u32 permille);
u64 edge_rng_spread(struct edge_rng *r, u64 mean, u32 rsd_pct);
u64 edge_rng_uniform_mean(struct edge_rng *r, u64 mean);
u64 edge_rng_exp(struct edge_rng *r, u64 mean);
u64 edge_rng_skewed(struct edge_rng *r, u64 mean, u32 rsd_pct);
u64 edge_rng_tb(struct edge_rng *r, u64 mean, u32 rsd_pct, bool skew);

#endif /* _EDGE_RNG_H */

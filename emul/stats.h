/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency statistics: count, sum, min, max and a log-linear histogram for
 * percentiles (8 sub-buckets per power of two: within 12.5 %).
 */
#ifndef _EDGE_STATS_H
#define _EDGE_STATS_H

#include "edge_compat.h"

#define EDGE_LAT_SUB	8
#define EDGE_LAT_BUCKETS	(64 * EDGE_LAT_SUB)

struct edge_lat {
	u64 n;
	u64 sum;
	u64 min;
	u64 max;
	u32 hist[EDGE_LAT_BUCKETS];
};

/*
 * Values below 8 get a bucket each; above, 8 per power of two (the
 * highest set bit, not a loop).
 */
static inline u32 edge_lat_bucket(u64 v)
{
	u32 lg;

	if (v < EDGE_LAT_SUB)
		return (u32)v;
	lg = edge_fls64(v) - 1;
	return (lg - 2) * EDGE_LAT_SUB +
	       (u32)((v >> (lg - 3)) & (EDGE_LAT_SUB - 1));
}

/* Inline: a preempting event adds three samples. */
static inline void edge_lat_add(struct edge_lat *l, u64 v)
{
	if (!l->n || v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	l->n++;
	l->sum += v;
	l->hist[edge_lat_bucket(v)]++;
}

u64 edge_lat_avg(const struct edge_lat *l);
u64 edge_lat_pct(const struct edge_lat *l, u32 pct);
void edge_lat_merge(struct edge_lat *d, const struct edge_lat *s);

#endif /* _EDGE_STATS_H */

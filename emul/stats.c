// SPDX-License-Identifier: GPL-2.0
/*
 * Latency statistics.
 */
#include "stats.h"

/* @v is at least EDGE_LAT_SUB here: the highest set bit, not a loop. */
static u32 ilog2_u64(u64 v)
{
	return edge_fls64(v) - 1;
}

/* Values below 8 get a bucket each; above, 8 per power of two. */
static u32 bucket_of(u64 v)
{
	u32 lg;

	if (v < EDGE_LAT_SUB)
		return (u32)v;
	lg = ilog2_u64(v);
	return (lg - 2) * EDGE_LAT_SUB +
	       (u32)((v >> (lg - 3)) & (EDGE_LAT_SUB - 1));
}

/* The largest value of a bucket, so a percentile never understates. */
static u64 bucket_top(u32 b)
{
	u32 lg, sub;

	if (b < EDGE_LAT_SUB)
		return b;
	lg = b / EDGE_LAT_SUB + 2;
	sub = b % EDGE_LAT_SUB;
	return ((u64)(EDGE_LAT_SUB + sub + 1) << (lg - 3)) - 1;
}

void edge_lat_add(struct edge_lat *l, u64 v)
{
	if (!l->n || v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	l->n++;
	l->sum += v;
	l->hist[bucket_of(v)]++;
}

u64 edge_lat_avg(const struct edge_lat *l)
{
	return l->n ? edge_div64(l->sum, (u32)(l->n > 0xffffffffULL ?
					       0xffffffffULL : l->n)) : 0;
}

/* The @pct-th percentile, clamped to the observed maximum. */
u64 edge_lat_pct(const struct edge_lat *l, u32 pct)
{
	u64 want, seen = 0;
	u32 b;

	if (!l->n)
		return 0;
	want = edge_div64(l->n * pct + 99, 100);
	if (!want)
		want = 1;
	for (b = 0; b < EDGE_LAT_BUCKETS; b++) {
		seen += l->hist[b];
		if (seen >= want) {
			u64 top = bucket_top(b);

			return top < l->max ? top : l->max;
		}
	}
	return l->max;
}

/* Fold @s into @d, as if its samples had been added to @d. */
void edge_lat_merge(struct edge_lat *d, const struct edge_lat *s)
{
	u32 b;

	if (!s->n)
		return;
	if (!d->n || s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
	d->n += s->n;
	d->sum += s->sum;
	for (b = 0; b < EDGE_LAT_BUCKETS; b++)
		d->hist[b] += s->hist[b];
}

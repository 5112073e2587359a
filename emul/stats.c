// SPDX-License-Identifier: GPL-2.0
/*
 * Latency statistics.
 */
#include "stats.h"

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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event kernel table (EKT): registered event kernels and their rings.
 */
#ifndef _EDGE_EKT_H
#define _EDGE_EKT_H

#include "edge_compat.h"
#include "validate.h"
#include "ring.h"

#define EDGE_EKT_LAT_BUCKETS	32

struct edge_ekt_entry {
	bool used;
	u32 id;
	u32 gen;		/* bumped at every allocation of this slot */
	u64 cookie;		/* its events' cookies but the seq (model.c) */
	bool ewarp;		/* its kernel is one warp: an event warp */
	struct edge_kdesc k;
	u64 k_key;		/* names k's contents: edge_simt_launch_as() */
	struct edge_ring ring;
	void *owner;		/* drv/'s cookie: who registered it */
	void *fn_state;		/* edge_func_state_new()'s, freed with it */
	u32 inflight;		/* consumed, not yet completed */
	u64 *due;		/* per ring slot: its event's deadline, or NULL */
	u64 late;		/* events completed after their deadline */
	/*
	 * Batched event warps (k.requests_per_warp > 1): per ring slot of
	 * a warp's first request, how many requests the warp holds (NULL
	 * when unbatched); when the partial warp left in the ring goes
	 * (model ns, 0: none left); whether its EDGE_EV_GATHER is queued
	 * (one at most an entry: the engine's room for them is fixed).
	 */
	u8 *batch;
	u64 gather_due;
	bool gather_queued;
	u64 submitted;
	u64 completed;
	u64 cancelled;
	/*
	 * Latencies of its events done, dispatch to completion in model ns:
	 * bucket 0 is 0 ns, bucket i holds [2^(i-1), 2^i) ns, the last
	 * everything above (netlink's ekt-lat-hist; edgectl top).
	 */
	u64 lat_hist[EDGE_EKT_LAT_BUCKETS];
};

struct edge_ekt {
	struct edge_ekt_entry *e;
	u32 n;
	u32 used;
};

int edge_ekt_init(struct edge_ekt *t, u32 n);
void edge_ekt_fini(struct edge_ekt *t);
bool edge_ekt_room(const struct edge_ekt *t);
struct edge_ekt_entry *edge_ekt_alloc(struct edge_ekt *t);
void edge_ekt_free(struct edge_ekt *t, struct edge_ekt_entry *ent);
/* Inline: every completion looks its entry up. */
static inline struct edge_ekt_entry *edge_ekt_get(struct edge_ekt *t, u32 id)
{
	if (id >= t->n || !t->e[id].used)
		return NULL;
	return &t->e[id];
}

#endif /* _EDGE_EKT_H */

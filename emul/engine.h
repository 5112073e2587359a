/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discrete-event engine: a time-ordered queue of model events.
 *
 * Events with equal times leave in the order they were queued, so a run
 * is a pure function of its inputs (edge-sim's byte-identical output
 * depends on it).  The queue never allocates while the model steps: its
 * room is reserved when work is registered (edge_engine_reserve()).
 */
#ifndef _EDGE_ENGINE_H
#define _EDGE_ENGINE_H

#include "edge_compat.h"

#define EDGE_TIME_NEVER	((u64)-1)

enum edge_ev_kind {
	EDGE_EV_COMPLETE = 1,	/* an event kernel finishes */
};

struct edge_ev {
	u64 time;	/* model time, ns */
	u64 order;	/* queue order, breaks ties */
	u32 kind;	/* enum edge_ev_kind */
	u32 ekt;	/* EKT index the event belongs to */
	u32 seq;	/* event number within that entry */
	u32 gen;	/* EKT generation, guards against reuse */
};

struct edge_engine {
	struct edge_ev *heap;
	u32 len;
	u32 cap;
	u64 next_order;
	u64 now;	/* model time, ns; only moves forward */
};

void edge_engine_init(struct edge_engine *e);
void edge_engine_fini(struct edge_engine *e);
int edge_engine_reserve(struct edge_engine *e, u32 cap);
int edge_engine_push(struct edge_engine *e, u64 time, u32 kind, u32 ekt,
		     u32 seq, u32 gen);
u64 edge_engine_next_time(const struct edge_engine *e);
bool edge_engine_pop_due(struct edge_engine *e, u64 until,
			 struct edge_ev *out);
u32 edge_engine_remove_ekt(struct edge_engine *e, u32 ekt);
void edge_engine_advance(struct edge_engine *e, u64 now);

#endif /* _EDGE_ENGINE_H */

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
	EDGE_EV_READY = 1,	/* a kernel's dispatch latency has passed */
	EDGE_EV_TB_DONE,	/* a thread block finishes */
	EDGE_EV_EWARP,		/* an event warp's state machine steps */
	EDGE_EV_CP,		/* the command processor acts for a job */
	EDGE_EV_CP_TICK,	/* profiling and priority refresh */
	EDGE_EV_CP_SERVE,	/* the command processor ends an action */
};

/*
 * @obj names the object the event is about (its index in its pool) and
 * @gen the incarnation it was queued for: the model ignores an event
 * whose object has moved on, instead of searching the heap for it.
 */
struct edge_ev {
	u64 time;	/* model time, ns */
	u64 order;	/* queue order, breaks ties */
	u32 kind;	/* enum edge_ev_kind */
	u32 obj;
	u32 aux;
	u32 gen;
};

struct edge_engine {
	struct edge_ev *heap;	/* near: every kind but TB completions */
	struct edge_ev *far;	/* EDGE_EV_TB_DONE (see engine.c) */
	struct edge_ev *now_q;	/* queued for the current instant, FIFO */
	u32 n_near;
	u32 n_far;
	u32 q_head;	/* now_q[q_head..q_tail) */
	u32 q_tail;
	u32 len;	/* events queued in both */
	u32 cap;	/* of each */
	u64 next_order;
	u64 now;	/* model time, ns; only moves forward */
	/*
	 * Steps a handler may still run in place of events queued for now
	 * (edge_engine_fold()), and how many it ran: a caller that counts
	 * events against a budget sets the first and adds the second.
	 */
	u32 fold_left;
	u32 folded;
	/*
	 * Set by an owner that, after a handler returns, pops the next
	 * event before anything else can happen at this instant (the model:
	 * edge_model_run_budget(), edge_model_schedule_run()): only then
	 * may a tail pass run the launches it places in place
	 * (gpu/preempt.c).  A simulator that serves its own arrivals of an
	 * instant before that instant's events leaves it false.
	 */
	bool pops_next;
};

void edge_engine_init(struct edge_engine *e);
void edge_engine_fini(struct edge_engine *e);
int edge_engine_reserve(struct edge_engine *e, u32 cap);
int edge_engine_push(struct edge_engine *e, u64 time, u32 kind, u32 obj,
		     u32 aux, u32 gen);
int edge_engine_push_ordered(struct edge_engine *e, u64 time, u64 order,
			     u32 kind, u32 obj, u32 aux, u32 gen);
bool edge_engine_pop_due(struct edge_engine *e, u64 until,
			 struct edge_ev *out);
void edge_engine_take(struct edge_engine *e, const struct edge_ev *ev,
		      struct edge_ev *out);
const struct edge_ev *edge_engine_ev(const struct edge_engine *e, u32 i);
u32 edge_engine_remove_obj(struct edge_engine *e, u32 kind, u32 obj);
u32 edge_engine_remove_if(struct edge_engine *e, u32 kind,
			  bool (*drop)(u32 obj, void *arg), void *arg);
void edge_engine_advance(struct edge_engine *e, u64 now);

static __always_inline bool edge_ev_before(const struct edge_ev *a,
					   const struct edge_ev *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->order < b->order;
}

/*
 * The earliest event of the three, NULL when all are empty.  Inline: a
 * step looks at it for the next time and after its last event, and the
 * call cost more than the compares.
 */
static __always_inline const struct edge_ev *
edge_engine_first(const struct edge_engine *e)
{
	const struct edge_ev *best;

	if (!e->n_far)
		best = e->n_near ? &e->heap[0] : NULL;
	else if (!e->n_near || edge_ev_before(&e->far[0], &e->heap[0]))
		best = &e->far[0];
	else
		best = &e->heap[0];
	if (e->q_head != e->q_tail &&
	    (!best || edge_ev_before(&e->now_q[e->q_head], best)))
		best = &e->now_q[e->q_head];
	return best;
}

static inline u64 edge_engine_next_time(const struct edge_engine *e)
{
	const struct edge_ev *ev = edge_engine_first(e);

	return ev ? ev->time : EDGE_TIME_NEVER;
}

/*
 * The queue-order number a push would take now: a step held back to
 * run in place later (gpu/preempt.c) keeps its place among ties, and is
 * queued with it (edge_engine_push_ordered()) when it cannot run.
 */
static inline u64 edge_engine_take_order(struct edge_engine *e)
{
	return e->next_order++;
}

/* Nothing queued is due by now: the FIFO empty, no root at or before now. */
static inline bool edge_engine_none_due(const struct edge_engine *e)
{
	return e->q_head == e->q_tail &&
	       !(e->n_near && e->heap[0].time <= e->now) &&
	       !(e->n_far && e->far[0].time <= e->now);
}

/*
 * A handler that would queue, as its last act, an event for the current
 * instant may run that event's step itself instead, when nothing else
 * is due by now: the event would be the next one popped, so the order
 * of steps is the same, without its push, pop and dispatch.  Skipping
 * its queue-order number changes no comparison: it would have been
 * below every later event's and above every earlier one's.  Counted in
 * @e->folded, and refused once @e->fold_left runs out (a caller's
 * budget of events).  The FIFO holds only events of the current instant
 * (the clock cannot pass them), so it must be empty.  Inline: it runs
 * at every zero-length step, and mostly says no when many are in flight.
 */
static inline bool edge_engine_fold(struct edge_engine *e)
{
	if (!e->fold_left || !edge_engine_none_due(e))
		return false;
	e->fold_left--;
	e->folded++;
	return true;
}

#endif /* _EDGE_ENGINE_H */

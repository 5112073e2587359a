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
	EDGE_EV_GATHER,		/* a partial event warp's gather wait ends */
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
	 * The earliest of the three heads, NULL when all are empty: kept by
	 * every change of the queues, so that a look at the earliest event
	 * (a step makes three) is a load, not three compares.
	 */
	const struct edge_ev *first;
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
	/*
	 * How far that owner runs after the handler returns, budget
	 * permitting: every event due by then (EDGE_TIME_NEVER: up to the
	 * next event's time, whatever it is).  A tail pass may run a timed
	 * step in place when it is the next event and due by then
	 * (gpu/preempt.c); 0, no owner running, lets none.
	 */
	u64 until;
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
void edge_engine_drop_first(struct edge_engine *e, const struct edge_ev *ev);
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
 * Put @ev (not in the heap of @i events) in the hole at @i, or above it.
 * Sifts move a hole and write the event once at the end: the same heap
 * as swapping at every level (keys are unique), a third of the copies of
 * a 40-byte event.
 */
static __always_inline void edge_engine_sift_up(struct edge_ev *h, u32 i,
						const struct edge_ev *ev)
{
	while (i) {
		u32 parent = (i - 1) / 2;

		if (!edge_ev_before(ev, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = *ev;
}

/*
 * Add an event with a fresh order number (above every queued event's)
 * to the heap @h of @i events, which becomes @i + 1.  Such an event goes
 * before another by time alone: the climb compares times, and the event
 * is written once, in its place.  An event earlier than the earliest is
 * the new earliest, at the root.
 */
static __always_inline void edge_engine_climb(struct edge_engine *e,
					      struct edge_ev *h, u32 i,
					      u64 time, u32 kind, u32 obj,
					      u32 aux, u32 gen)
{
	struct edge_ev *at;

	if (!e->first || time < e->first->time)
		e->first = h;
	while (i) {
		u32 parent = (i - 1) / 2;

		if (time >= h[parent].time)
			break;
		h[i] = h[parent];
		i = parent;
	}
	at = &h[i];
	at->time = time;
	at->order = e->next_order++;
	at->kind = kind;
	at->obj = obj;
	at->aux = aux;
	at->gen = gen;
	e->len++;
}

/*
 * edge_engine_push() of an event that goes to the near heap and is later
 * than now (an event warp's timed step: not a TB completion, so not the
 * far heap, and not of this instant, so not the FIFO).  The same queue,
 * inline: a busy GPU's event takes three, and the call, the clamp to
 * now and the choice of queue cost more than the climb in a heap that
 * mostly holds nothing else.
 */
static __always_inline int edge_engine_push_later(struct edge_engine *e,
						  u64 time, u32 kind, u32 obj,
						  u32 aux, u32 gen)
{
	if (e->len >= e->cap)
		return -ENOSPC;
	edge_engine_climb(e, e->heap, e->n_near++, time, kind, obj, aux, gen);
	return 0;
}

/* The earliest event of the three, NULL when all are empty. */
static __always_inline const struct edge_ev *
edge_engine_first(const struct edge_engine *e)
{
	return e->first;
}

/*
 * Take @ev, the earliest event (edge_engine_first()), into @out, and
 * move the clock to its time.  Inline for the usual event of a busy GPU,
 * one of at most two in the near heap (an event warp's step, beside the
 * last step of the one before it): the other, if any, is the new root
 * (what a sift of one event does), and the next earliest is one of the
 * three roots.
 */
static __always_inline void edge_engine_take(struct edge_engine *e,
					     const struct edge_ev *ev,
					     struct edge_ev *out)
{
	*out = *ev;
	if (ev == e->heap && e->n_near <= 2) {
		const struct edge_ev *best;

		if (--e->n_near) {
			e->heap[0] = e->heap[1];
			best = e->heap;
			if (e->n_far && edge_ev_before(e->far, best))
				best = e->far;
		} else {
			best = e->n_far ? e->far : NULL;
		}
		e->len--;
		if (e->q_head != e->q_tail &&
		    (!best || edge_ev_before(&e->now_q[e->q_head], best)))
			best = &e->now_q[e->q_head];
		e->first = best;
	} else {
		edge_engine_drop_first(e, ev);
	}
	if (out->time > e->now)
		e->now = out->time;
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

/*
 * Nothing queued is due by now: the earliest event is later.  (The FIFO
 * holds events of an instant the clock has reached, so a non-empty FIFO
 * is always due.)
 */
static inline bool edge_engine_none_due(const struct edge_engine *e)
{
	return !e->first || e->first->time > e->now;
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

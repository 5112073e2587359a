// SPDX-License-Identifier: GPL-2.0
/*
 * Discrete-event engine: binary min-heap keyed by (time, order).
 */
#include "gpu/engine.h"

void edge_engine_init(struct edge_engine *e)
{
	memset(e, 0, sizeof(*e));
}

void edge_engine_fini(struct edge_engine *e)
{
	edge_free(e->heap);
	memset(e, 0, sizeof(*e));
}

/* Grow the queue to hold at least @cap events; never shrinks. */
int edge_engine_reserve(struct edge_engine *e, u32 cap)
{
	struct edge_ev *heap;

	if (cap <= e->cap)
		return 0;
	heap = edge_zalloc((size_t)cap * sizeof(*heap));
	if (!heap)
		return -ENOMEM;
	if (e->len)
		memcpy(heap, e->heap, (size_t)e->len * sizeof(*heap));
	edge_free(e->heap);
	e->heap = heap;
	e->cap = cap;
	return 0;
}

static bool ev_before(const struct edge_ev *a, const struct edge_ev *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->order < b->order;
}

/*
 * Both sifts move a hole and write the event once at the end: the same
 * heap as swapping at every level (keys are unique), a third of the
 * copies of a 40-byte event.
 */
static void sift_up(struct edge_engine *e, u32 i, const struct edge_ev *ev)
{
	while (i) {
		u32 parent = (i - 1) / 2;

		if (!ev_before(ev, &e->heap[parent]))
			break;
		e->heap[i] = e->heap[parent];
		i = parent;
	}
	e->heap[i] = *ev;
}

/* Place @ev (not in the heap) in the hole at @i, or below it. */
static void sift_down(struct edge_engine *e, u32 i, const struct edge_ev *ev)
{
	for (;;) {
		u32 m = 2 * i + 1;

		if (m >= e->len)
			break;
		if (m + 1 < e->len && ev_before(&e->heap[m + 1], &e->heap[m]))
			m++;
		if (!ev_before(&e->heap[m], ev))
			break;
		e->heap[i] = e->heap[m];
		i = m;
	}
	e->heap[i] = *ev;
}

/*
 * The root left: the last event fills its place.  It is usually among
 * the latest (a far TB end beside near event-warp steps), so it would
 * sink to the bottom at two compares a level; instead the hole goes down
 * along the smaller children (one compare a level) and the last event
 * rises from there (Floyd's bottom-up pop).  A different array, the same
 * order of pops: the keys are unique.
 */
static void pop_root(struct edge_engine *e)
{
	const struct edge_ev *last = &e->heap[e->len];
	u32 i = 0;

	for (;;) {
		u32 m = 2 * i + 1;

		if (m >= e->len)
			break;
		if (m + 1 < e->len && ev_before(&e->heap[m + 1], &e->heap[m]))
			m++;
		e->heap[i] = e->heap[m];
		i = m;
	}
	sift_up(e, i, last);
}

/* Floyd's heapify: keys are unique, so the result is exact. */
static void heapify(struct edge_engine *e)
{
	u32 i;

	for (i = e->len / 2; i-- > 0;) {
		struct edge_ev ev = e->heap[i];

		sift_down(e, i, &ev);
	}
}

/*
 * Queue an event.  An event in the past is queued at the current time:
 * the model never schedules backwards.
 */
int edge_engine_push(struct edge_engine *e, u64 time, u32 kind, u32 obj,
		     u32 aux, u32 gen)
{
	struct edge_ev ev;

	if (e->len >= e->cap)
		return -ENOSPC;
	ev.time = time < e->now ? e->now : time;
	ev.order = e->next_order++;
	ev.kind = kind;
	ev.obj = obj;
	ev.aux = aux;
	ev.gen = gen;
	sift_up(e, e->len++, &ev);
	return 0;
}

u64 edge_engine_next_time(const struct edge_engine *e)
{
	return e->len ? e->heap[0].time : EDGE_TIME_NEVER;
}

/*
 * Take the earliest event if it is due at or before @until, and move the
 * clock to its time.
 */
bool edge_engine_pop_due(struct edge_engine *e, u64 until, struct edge_ev *out)
{
	if (!e->len || e->heap[0].time > until)
		return false;
	*out = e->heap[0];
	if (--e->len)
		pop_root(e);
	if (out->time > e->now)
		e->now = out->time;
	return true;
}

/* Drop every event of kind @kind about @obj; returns how many. */
u32 edge_engine_remove_obj(struct edge_engine *e, u32 kind, u32 obj)
{
	u32 i, kept = 0, removed;

	for (i = 0; i < e->len; i++)
		if (e->heap[i].kind != kind || e->heap[i].obj != obj)
			e->heap[kept++] = e->heap[i];
	removed = e->len - kept;
	e->len = kept;
	heapify(e);
	return removed;
}

/*
 * Drop every event of kind @kind whose object @drop accepts, in one pass
 * and one heapify: removing N objects one by one is N passes.
 */
u32 edge_engine_remove_if(struct edge_engine *e, u32 kind,
			  bool (*drop)(u32 obj, void *arg), void *arg)
{
	u32 i, kept = 0, removed;

	for (i = 0; i < e->len; i++)
		if (e->heap[i].kind != kind || !drop(e->heap[i].obj, arg))
			e->heap[kept++] = e->heap[i];
	removed = e->len - kept;
	e->len = kept;
	if (removed)
		heapify(e);
	return removed;
}

/* Move the clock forward (real-time mode follows ktime through this). */
void edge_engine_advance(struct edge_engine *e, u64 now)
{
	if (now > e->now)
		e->now = now;
}

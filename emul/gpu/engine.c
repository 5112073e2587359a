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

static void ev_swap(struct edge_ev *a, struct edge_ev *b)
{
	struct edge_ev t = *a;

	*a = *b;
	*b = t;
}

static void sift_up(struct edge_engine *e, u32 i)
{
	while (i) {
		u32 parent = (i - 1) / 2;

		if (!ev_before(&e->heap[i], &e->heap[parent]))
			break;
		ev_swap(&e->heap[i], &e->heap[parent]);
		i = parent;
	}
}

static void sift_down(struct edge_engine *e, u32 i)
{
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < e->len && ev_before(&e->heap[l], &e->heap[m]))
			m = l;
		if (r < e->len && ev_before(&e->heap[r], &e->heap[m]))
			m = r;
		if (m == i)
			break;
		ev_swap(&e->heap[i], &e->heap[m]);
		i = m;
	}
}

/*
 * Queue an event.  An event in the past is queued at the current time:
 * the model never schedules backwards.
 */
int edge_engine_push(struct edge_engine *e, u64 time, u32 kind, u32 obj,
		     u32 aux, u32 gen)
{
	struct edge_ev *ev;

	if (e->len >= e->cap)
		return -ENOSPC;
	ev = &e->heap[e->len];
	ev->time = time < e->now ? e->now : time;
	ev->order = e->next_order++;
	ev->kind = kind;
	ev->obj = obj;
	ev->aux = aux;
	ev->gen = gen;
	sift_up(e, e->len++);
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
	e->heap[0] = e->heap[--e->len];
	if (e->len)
		sift_down(e, 0);
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
	/* Floyd's heapify: order keys are unique, so the result is exact. */
	for (i = kept / 2; i-- > 0;)
		sift_down(e, i);
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
		for (i = kept / 2; i-- > 0;)
			sift_down(e, i);
	return removed;
}

/* Move the clock forward (real-time mode follows ktime through this). */
void edge_engine_advance(struct edge_engine *e, u64 now)
{
	if (now > e->now)
		e->now = now;
}

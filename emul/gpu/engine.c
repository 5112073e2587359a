// SPDX-License-Identifier: GPL-2.0
/*
 * Discrete-event engine: two binary min-heaps keyed by (time, order).
 *
 * Thread-block completions are many (one per resident TB, a GPU's worth)
 * and mostly far in the future; the steps of event warps, dispatch and
 * the CP are few and near.  In one heap every near push climbed over the
 * far ends to the root, and every pop sank one of them back down.  Apart,
 * the near heap stays a few events deep; a pop takes the earlier of the
 * two roots, so the order of pops is the one heap's (keys are unique).
 *
 * An event queued for the current instant (a zero-length step of an
 * event warp, most of them) goes to a FIFO instead: the clock never goes
 * back and queue order only grows, so the FIFO is sorted by (time,
 * order) as it is, and it is the third candidate of a pop.  Such an event
 * was the earliest of the near heap: a climb to the root and a sift back.
 * Below EDGE_NOW_Q_MIN events that costs less than looking at a third
 * queue, so a shallow near heap keeps them (any split is exact).
 */
#define EDGE_NOW_Q_MIN	8
#include "gpu/engine.h"

#define ev_before edge_ev_before

/* The earliest of the three heads, for e->first after a take or a removal. */
static __always_inline const struct edge_ev *
find_first(const struct edge_engine *e)
{
	const struct edge_ev *best;

	if (!e->n_far)
		best = e->n_near ? &e->heap[0] : NULL;
	else if (!e->n_near || ev_before(&e->far[0], &e->heap[0]))
		best = &e->far[0];
	else
		best = &e->heap[0];
	if (e->q_head != e->q_tail &&
	    (!best || ev_before(&e->now_q[e->q_head], best)))
		best = &e->now_q[e->q_head];
	return best;
}

void edge_engine_init(struct edge_engine *e)
{
	memset(e, 0, sizeof(*e));
	e->fold_left = ~0U;
}

void edge_engine_fini(struct edge_engine *e)
{
	edge_free(e->heap);
	edge_free(e->far);
	edge_free(e->now_q);
	memset(e, 0, sizeof(*e));
}

/* Grow the queue to hold at least @cap events; never shrinks. */
int edge_engine_reserve(struct edge_engine *e, u32 cap)
{
	struct edge_ev *heap, *far, *now_q;
	u32 nq = e->q_tail - e->q_head;

	if (cap <= e->cap)
		return 0;
	/*
	 * Each of the three may hold every event.  Not zeroed: only the
	 * events below each's count are read, and zeroing them was a tenth
	 * of a short run (a model is set up per simulation).
	 */
	heap = edge_alloc((size_t)cap * sizeof(*heap));
	far = edge_alloc((size_t)cap * sizeof(*far));
	now_q = edge_alloc((size_t)cap * sizeof(*now_q));
	if (!heap || !far || !now_q) {
		edge_free(heap);
		edge_free(far);
		edge_free(now_q);
		return -ENOMEM;
	}
	if (e->n_near)
		memcpy(heap, e->heap, (size_t)e->n_near * sizeof(*heap));
	if (e->n_far)
		memcpy(far, e->far, (size_t)e->n_far * sizeof(*far));
	if (nq)
		memcpy(now_q, e->now_q + e->q_head, (size_t)nq * sizeof(*now_q));
	edge_free(e->heap);
	edge_free(e->far);
	edge_free(e->now_q);
	e->heap = heap;
	e->far = far;
	e->now_q = now_q;
	e->q_head = 0;
	e->q_tail = nq;
	e->cap = cap;
	e->first = find_first(e);
	return 0;
}

/* The heap an event of @kind lives in. */
static bool is_far(u32 kind)
{
	return kind == EDGE_EV_TB_DONE;
}

#define sift_up edge_engine_sift_up

/* Place @ev (not in the heap of @n) in the hole at @i, or below it. */
static void sift_down(struct edge_ev *h, u32 n, u32 i,
		      const struct edge_ev *ev)
{
	for (;;) {
		u32 m = 2 * i + 1;

		if (m >= n)
			break;
		if (m + 1 < n && ev_before(&h[m + 1], &h[m]))
			m++;
		if (!ev_before(&h[m], ev))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = *ev;
}

/*
 * The root left a heap now of @n: its last event (at h[n]) fills the
 * place.  In the far heap that is usually among the latest, so it would
 * sink to the bottom at two compares a level; instead the hole goes down
 * along the smaller children (one compare a level) and the last event
 * rises from there (Floyd's bottom-up pop).  A different array, the same
 * order of pops: the keys are unique.
 */
static void pop_root(struct edge_ev *h, u32 n)
{
	const struct edge_ev *last = &h[n];
	u32 i = 0;

	for (;;) {
		u32 m = 2 * i + 1;

		if (m >= n)
			break;
		if (m + 1 < n && ev_before(&h[m + 1], &h[m]))
			m++;
		h[i] = h[m];
		i = m;
	}
	sift_up(h, i, last);
}

/* Floyd's heapify: keys are unique, so the result is exact. */
static void heapify(struct edge_ev *h, u32 n)
{
	u32 i;

	for (i = n / 2; i-- > 0;) {
		struct edge_ev ev = h[i];

		sift_down(h, n, i, &ev);
	}
}

/* Append @ev, of the current instant, to the FIFO. */
static void now_q_add(struct edge_engine *e, const struct edge_ev *ev)
{
	/* Room at the end: move the queue down (it rarely is long). */
	if (e->q_tail == e->cap) {
		memmove(e->now_q, e->now_q + e->q_head,
			(size_t)(e->q_tail - e->q_head) * sizeof(*ev));
		e->q_tail -= e->q_head;
		e->q_head = 0;
		e->first = find_first(e);
	}
	e->now_q[e->q_tail++] = *ev;
}

/*
 * Put @ev into the FIFO (@fifo) or its heap.  An event earlier than the
 * earliest is the new earliest, at the root of its heap or at the
 * FIFO's tail (then the FIFO was empty: what it held was earlier).
 */
static __always_inline void insert(struct edge_engine *e,
				   const struct edge_ev *ev, bool fifo)
{
	bool earliest = !e->first || ev_before(ev, e->first);

	if (fifo) {
		now_q_add(e, ev);
		if (earliest)
			e->first = &e->now_q[e->q_tail - 1];
	} else if (is_far(ev->kind)) {
		sift_up(e->far, e->n_far++, ev);
		if (earliest)
			e->first = &e->far[0];
	} else {
		sift_up(e->heap, e->n_near++, ev);
		if (earliest)
			e->first = &e->heap[0];
	}
	e->len++;
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
	if (time < e->now)
		time = e->now;
	if (time == e->now && e->n_near >= EDGE_NOW_Q_MIN) {
		ev.time = time;
		ev.order = e->next_order++;
		ev.kind = kind;
		ev.obj = obj;
		ev.aux = aux;
		ev.gen = gen;
		insert(e, &ev, true);
	} else if (is_far(kind)) {
		edge_engine_climb(e, e->far, e->n_far++, time, kind, obj, aux,
				  gen);
	} else {
		edge_engine_climb(e, e->heap, e->n_near++, time, kind, obj,
				  aux, gen);
	}
	return 0;
}

/*
 * Queue an event with an order number taken earlier
 * (edge_engine_take_order()).  Into the FIFO only behind events queued
 * before it, which keeps it sorted; else into a heap, which takes any
 * order (a pop still takes the earliest of the three).
 */
int edge_engine_push_ordered(struct edge_engine *e, u64 time, u64 order,
			     u32 kind, u32 obj, u32 aux, u32 gen)
{
	struct edge_ev ev;
	bool fifo;

	if (e->len >= e->cap)
		return -ENOSPC;
	ev.time = time < e->now ? e->now : time;
	ev.order = order;
	ev.kind = kind;
	ev.obj = obj;
	ev.aux = aux;
	ev.gen = gen;
	fifo = ev.time == e->now && e->n_near >= EDGE_NOW_Q_MIN &&
	       (e->q_head == e->q_tail || e->now_q[e->q_tail - 1].order < order);
	insert(e, &ev, fifo);
	return 0;
}

/*
 * Take the earliest event if it is due at or before @until, and move the
 * clock to its time.
 */
bool edge_engine_pop_due(struct edge_engine *e, u64 until, struct edge_ev *out)
{
	const struct edge_ev *ev = edge_engine_first(e);

	if (!ev || ev->time > until)
		return false;
	edge_engine_take(e, ev, out);
	return true;
}

/*
 * Take @ev, the earliest event, out of its queue: edge_engine_take()
 * but for an event of a near heap of one or two.
 */
void edge_engine_drop_first(struct edge_engine *e, const struct edge_ev *ev)
{
	if (ev == e->far) {
		if (--e->n_far)
			pop_root(e->far, e->n_far);
	} else if (ev == e->heap) {
		/* Many event warps running: their ends, as deep as the far. */
		if (--e->n_near > 8)
			pop_root(e->heap, e->n_near);
		else if (e->n_near)
			sift_down(e->heap, e->n_near, 0, &e->heap[e->n_near]);
	} else if (++e->q_head == e->q_tail) {
		e->q_head = 0;
		e->q_tail = 0;
	}
	e->len--;
	e->first = find_first(e);
}

/* The @i-th queued event (below edge_engine_len()), in no order. */
const struct edge_ev *edge_engine_ev(const struct edge_engine *e, u32 i)
{
	if (i < e->n_near)
		return &e->heap[i];
	i -= e->n_near;
	if (i < e->n_far)
		return &e->far[i];
	return &e->now_q[e->q_head + i - e->n_far];
}

static u32 filter(struct edge_ev *h, u32 n, u32 kind,
		  bool (*drop)(u32 obj, void *arg), void *arg)
{
	u32 i, kept = 0;

	for (i = 0; i < n; i++)
		if (h[i].kind != kind || !drop(h[i].obj, arg))
			h[kept++] = h[i];
	if (kept != n)
		heapify(h, kept);
	return kept;
}

/*
 * Drop every event of kind @kind whose object @drop accepts, in one pass
 * and one heapify: removing N objects one by one is N passes.
 */
u32 edge_engine_remove_if(struct edge_engine *e, u32 kind,
			  bool (*drop)(u32 obj, void *arg), void *arg)
{
	u32 before = e->len, i, kept = e->q_head;

	if (is_far(kind))
		e->n_far = filter(e->far, e->n_far, kind, drop, arg);
	else
		e->n_near = filter(e->heap, e->n_near, kind, drop, arg);
	/* The FIFO keeps its order: a stable compaction. */
	for (i = e->q_head; i < e->q_tail; i++)
		if (e->now_q[i].kind != kind || !drop(e->now_q[i].obj, arg))
			e->now_q[kept++] = e->now_q[i];
	e->q_tail = kept;
	e->len = e->n_near + e->n_far + (e->q_tail - e->q_head);
	e->first = find_first(e);
	return before - e->len;
}

static bool same_obj(u32 obj, void *arg)
{
	return obj == *(const u32 *)arg;
}

/* Drop every event of kind @kind about @obj; returns how many. */
u32 edge_engine_remove_obj(struct edge_engine *e, u32 kind, u32 obj)
{
	return edge_engine_remove_if(e, kind, same_obj, &obj);
}

/* Move the clock forward (real-time mode follows ktime through this). */
void edge_engine_advance(struct edge_engine *e, u64 now)
{
	if (now > e->now)
		e->now = now;
}

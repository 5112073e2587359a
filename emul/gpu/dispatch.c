// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMT dispatcher's bookkeeping: the queue of kernels waiting for
 * cores, in dispatch order, and the per-(kernel, core) counts of resident
 * TBs that thread-block policies cap (policy/policy.h).
 */
#include "gpu/preempt.h"

/*
 * The dispatch order: priority (high first), then the thread-block
 * policy's order, else the queue scheduler's rank, then launch order.
 */
bool edge_simt_queue_before(const struct edge_simt *s,
			    const struct edge_kinst *a,
			    const struct edge_kinst *b)
{
	if (a->k.priority != b->k.priority)
		return a->k.priority > b->k.priority;
	if (s->tbp->before)
		return s->tbp->before(s, a, b);
	if (a->rank != b->rank)
		return a->rank < b->rank;
	return a->order < b->order;
}

/*
 * edge_simt_queue_insert() into a queue that holds kernels already:
 * ordered by priority (high first), then launch order.  A stream of
 * equal-priority launches appends at the tail without a walk.
 */
void edge_simt_queue_insert_walk(struct edge_simt *s, struct edge_kinst *ki)
{
	struct edge_kinst **pp = &s->queue;

	if (s->queue_tail && edge_simt_queue_before(s, s->queue_tail, ki))
		pp = &s->queue_tail->next;
	while (*pp && edge_simt_queue_before(s, *pp, ki))
		pp = &(*pp)->next;
	ki->next = *pp;
	*pp = ki;
	if (!ki->next)
		s->queue_tail = ki;
}

/* edge_simt_queue_remove() of a kernel that is not the queue's head. */
void edge_simt_queue_remove_walk(struct edge_simt *s, struct edge_kinst *ki)
{
	struct edge_kinst **pp = &s->queue, *prev = NULL;

	while (*pp && *pp != ki) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (*pp)
		*pp = ki->next;
	if (s->queue_tail == ki)
		s->queue_tail = prev;
	ki->next = NULL;
}

/* Back into the dispatcher's queue: a kernel with preempted TBs. */
void edge_simt_enqueue(struct edge_simt *s, struct edge_kinst *ki)
{
	if (ki->queued)
		return;
	edge_simt_queue_in(s, ki);
}

/*
 * A queue scheduler changed its mind: @rank gives each waiting kernel's
 * new rank (false: unchanged), and the queue is sorted again.  Kernels
 * already fully dispatched are not in it; their TBs run on.
 */
void edge_simt_rerank(struct edge_simt *s,
		      bool (*rank)(u64 cookie, u64 *out, void *arg), void *arg)
{
	struct edge_kinst *ki;
	bool changed = false;
	u32 c, i;

	for (ki = s->queue; ki; ki = ki->next)
		changed |= rank(ki->cookie, &ki->rank, arg);
	/*
	 * Kernels whose TBs are all placed are ranked too: preemption
	 * compares a waiting kernel with them, and a TB preempted off its
	 * core queues again by its kernel's rank.
	 */
	for (c = 0; c < s->p->num_cores; c++)
		for (i = 0; i < s->cores[c].nr_kc; i++)
			if (!s->cores[c].kc[i].ki->queued)
				rank(s->cores[c].kc[i].ki->cookie,
				     &s->cores[c].kc[i].ki->rank, arg);
	if (changed)
		edge_simt_requeue(s);
}

/*
 * The order of the waiting kernels changed (new ranks, or a thread-block
 * policy's order): sort the queue again.
 */
void edge_simt_requeue(struct edge_simt *s)
{
	struct edge_kinst *ki, *next, *old = s->queue;

	/* Stable re-insertion: ties keep their launch order. */
	s->queue = NULL;
	s->queue_tail = NULL;
	for (ki = old; ki; ki = next) {
		next = ki->next;
		edge_simt_queue_insert(s, ki);
	}
}

/* Resident TBs of @ki on @core: a core holds few kernels, so a scan. */
u32 edge_simt_resident(const struct edge_simt *s, const struct edge_kinst *ki,
		       u32 core)
{
	const struct edge_core *c = &s->cores[core];
	u32 i;

	for (i = 0; i < c->nr_kc; i++)
		if (c->kc[i].ki == ki)
			return c->kc[i].n;
	return 0;
}

/*
 * The live load a placement weighs (drv/place.c): @warps, those resident
 * on the cores now (event warps included) plus those of the TBs queued
 * kernels have yet to dispatch, at most what the cores hold at once;
 * @tbs, the TBs resident.
 */
void edge_simt_load(const struct edge_simt *s, u32 *warps, u32 *tbs)
{
	u64 w = 0, cap = (u64)s->p->num_cores *
			 (s->p->threads_per_core / s->p->warp_size);
	const struct edge_kinst *ki;
	u32 i, n = 0;

	for (i = 0; i < s->p->num_cores; i++) {
		w += s->cores[i].warps;
		n += s->cores[i].tbs;
	}
	for (ki = s->queue; ki && w < cap; ki = ki->next) {
		u64 left = ki->k.num_tbs - ki->tbs_dispatched;

		/* Capped before the product: a grid may be huge. */
		if (ki->k.num_tbs > ki->tbs_dispatched)
			w += (left < cap ? left : cap) * ki->k.warps_per_tb;
	}
	*warps = w < cap ? (u32)w : (u32)cap;
	*tbs = n;
}

/* @ki's row of the map of cores it holds TBs on (edge_simt.ki_cores). */
static inline u64 *ki_cores(const struct edge_simt *s,
			    const struct edge_kinst *ki)
{
	return &s->ki_cores[(size_t)ki->idx * s->core_words];
}

void edge_simt_kcount_add(struct edge_simt *s, u32 core,
			  struct edge_kinst *ki)
{
	struct edge_core *c = &s->cores[core];
	u32 i;

	for (i = 0; i < c->nr_kc; i++) {
		if (c->kc[i].ki == ki) {
			c->kc[i].n++;
			return;
		}
	}
	c->kc[c->nr_kc].ki = ki;
	c->kc[c->nr_kc++].n = 1;
	ki->cores_used++;	/* for its quota (gpu/quota.c) */
	ki_cores(s, ki)[core / 64] |= 1ULL << (core % 64);
}

void edge_simt_kcount_sub(struct edge_simt *s, u32 core,
			  struct edge_kinst *ki)
{
	struct edge_core *c = &s->cores[core];
	u32 i;

	for (i = 0; i < c->nr_kc; i++) {
		if (c->kc[i].ki == ki) {
			if (!--c->kc[i].n) {
				c->kc[i] = c->kc[--c->nr_kc];
				ki->cores_used--;
				ki_cores(s, ki)[core / 64] &=
					~(1ULL << (core % 64));
			}
			return;
		}
	}
	EDGE_ASSERT(0);
}

/*
 * Another thread-block policy takes over: the new one's state first, so
 * that a failure leaves the old one in place.  The per-(kernel, core)
 * counts are the dispatcher's, so the new policy sees the TBs already
 * resident.
 */
int edge_simt_set_tb_policy(struct edge_simt *s, u32 id)
{
	const struct edge_tb_policy *np = edge_tb_policies[id];
	void *priv = NULL;
	int ret;

	if (np == s->tbp)
		return 0;
	if (np->init) {
		ret = np->init(s, &priv);
		if (ret)
			return ret;
	}
	if (s->tbp->fini)
		s->tbp->fini(s, s->tbp_priv);
	s->tbp = np;
	s->tbp_priv = priv;
	edge_simt_requeue(s);
	return 0;
}

/* TBs of @k the whole GPU holds at once, by the first resource to run out. */
u32 edge_simt_tbs_per_gpu(const struct edge_simt *s, const struct edge_kdesc *k)
{
	const struct edge_preset *p = s->p;
	u32 per_core = p->tb_slots_per_core;

	if (k->warps_per_tb &&
	    p->threads_per_core / (k->warps_per_tb * p->warp_size) < per_core)
		per_core = p->threads_per_core / (k->warps_per_tb * p->warp_size);
	if (edge_simt_tb_regs(s, k) && p->regs_per_core / edge_simt_tb_regs(s, k) < per_core)
		per_core = p->regs_per_core / edge_simt_tb_regs(s, k);
	if (k->smem_per_block && p->smem_per_core / k->smem_per_block < per_core)
		per_core = p->smem_per_core / k->smem_per_block;
	return per_core * p->num_cores;
}

/* The isolated runtime a slowdown is measured against. */
u64 edge_simt_iso_ns(const struct edge_simt *s, const struct edge_kdesc *k)
{
	u64 cap = edge_simt_tbs_per_gpu(s, k), waves;

	if (!cap)
		cap = 1;
	waves = edge_div64(k->num_tbs + cap - 1, (u32)cap);
	return edge_simt_cyc2ns(s, s->cfg.dispatch_cycles +
				waves * k->warp_cycles);
}

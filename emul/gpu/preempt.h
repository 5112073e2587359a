/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event warps on SIMT cores: placement on free resources, warp-level
 * preemption (victim selection, flush latency from the victim's modelled
 * state, the four flushing optimisations) and the per-slot state machine
 * IDLE -> SELECT_WARP -> FLUSH_PIPELINE -> SAVE_HW_CTX -> LAUNCH_IWARP ->
 * IWARP_RUNNING -> IWARP_COMPLETING -> RESTORE_HW_CTX -> IDLE.
 */
#ifndef _EDGE_PREEMPT_H
#define _EDGE_PREEMPT_H

#include "gpu/simt.h"

/* A victim warp's state at the moment it is chosen, in cycles. */
struct edge_vstate {
	u64 cyc[EDGE_STALL_NR];	/* 0: that reason does not hold */
	u64 flush;		/* cycles until the warp is flushed */
	u64 load;		/* remaining latency of its pending loads */
	u64 replay;		/* cycles the victim loses replaying loads */
};

bool edge_preempt_place(struct edge_simt *s, struct edge_kinst *ki);
void edge_preempt_waited(struct edge_simt *s, struct edge_kinst *ki);
void edge_preempt_waited_all(struct edge_simt *s);
void edge_preempt_run_deferred(struct edge_simt *s);
void edge_preempt_drop(struct edge_simt *s, struct edge_kinst *ki);
void edge_preempt_orphan_kernel(struct edge_simt *s,
				const struct edge_kinst *ki);
void edge_preempt_sample(struct edge_simt *s, const struct edge_tb *tb,
			 u32 rank_permille, struct edge_vstate *v);

/* The GPU layer's internals: simt.c, dispatch.c, cancel.c */
void edge_simt_ew_dequeued(struct edge_simt *s, struct edge_kinst *ki);
void edge_simt_ki_free(struct edge_simt *s, struct edge_kinst *ki);
void edge_simt_kdu_leave(struct edge_simt *s, struct edge_kinst *ki);
void edge_simt_tb_finish(struct edge_simt *s, struct edge_tb *tb);
void edge_simt_kernel_done(struct edge_simt *s, struct edge_kinst *ki,
			   u32 code);

/*
 * Occupancy of a core in per mille of its warp slots.  Inline, as the
 * stretch below: every event warp's run time takes both.
 */
static inline u32 edge_simt_occupancy(const struct edge_simt *s,
				      const struct edge_core *c)
{
	return c->warps * 1000 / (s->p->threads_per_core / s->p->warp_size);
}

/* Isolated cycles stretched by co-residency on a core this full. */
static inline u64 edge_simt_corun(const struct edge_kdesc *k, u64 cycles,
				  u32 occ_permille)
{
	u64 extra = (u64)k->ws.corun_pct * occ_permille;	/* % * permille */
	u64 q = edge_div64(cycles, 100000);

	/* Split: up to ~2^42 cycles times 10^7 overflows u64. */
	return cycles + q * extra +
	       edge_div64((cycles - q * 100000) * extra, 100000);
}

void edge_simt_tb_release(struct edge_simt *s, struct edge_tb *tb);
void edge_simt_retime_cores(struct edge_simt *s);

void edge_simt_enqueue(struct edge_simt *s, struct edge_kinst *ki);
void edge_simt_queue_remove_walk(struct edge_simt *s, struct edge_kinst *ki);
void edge_simt_kcount_add(struct edge_simt *s, u32 core,
			  struct edge_kinst *ki);
void edge_simt_kcount_sub(struct edge_simt *s, u32 core,
			  struct edge_kinst *ki);
int edge_simt_set_tb_policy(struct edge_simt *s, u32 id);
u32 edge_simt_tb_regs(const struct edge_simt *s, const struct edge_kdesc *k);
u64 edge_simt_ctx_cycles(const struct edge_simt *s, const struct edge_kdesc *k);

/*
 * a / b in thousandths, for a, b in nanoseconds (below 2^44: ~4.8 h).
 * Inline: every finished kernel takes two.
 */
static inline u64 edge_simt_ratio_milli(u64 a, u64 b)
{
	while (b > 0xffffffffULL || a > (~0ULL / 1000)) {
		a >>= 1;
		b >>= 1;
	}
	return b ? edge_div64(a * 1000, (u32)b) : 0;
}

/* Out of the dispatcher's queue; its head (the usual case) without a call. */
static inline void edge_simt_queue_remove(struct edge_simt *s,
					  struct edge_kinst *ki)
{
	if (s->queue != ki) {
		edge_simt_queue_remove_walk(s, ki);
		return;
	}
	s->queue = ki->next;
	if (s->queue_tail == ki)
		s->queue_tail = NULL;
	ki->next = NULL;
}

/* A kernel leaves the queue. */
static inline void edge_simt_queue_out(struct edge_simt *s,
				       struct edge_kinst *ki)
{
	ki->queued = false;
	edge_simt_queue_remove(s, ki);
}

/* tbpreempt.c: thread-block preemption */
void edge_simt_tb_suspended(struct edge_simt *s, struct edge_tb *tb);
void edge_simt_drop_suspended(struct edge_simt *s, struct edge_kinst *ki);

/*
 * Core @core (EDGE_GAVE_ALL: any) gave resources back: a TB search that
 * found no room before may find some now, there.
 */
static inline void edge_simt_gave_back(struct edge_simt *s, u32 core)
{
	s->res_gen++;
	s->gave_log[s->res_gen % EDGE_GAVE_LOG] = core;
}

/*
 * Core @c's bit of edge_simt.core_room: not reserved, room for one more
 * warp (cores_warp_full's test) and a free TB slot.  Every TB needs a
 * warp's threads and a slot at least, so a core without it fits none.
 * After every change of its threads, TB count or reservation.
 */
static inline void edge_simt_room_update(struct edge_simt *s, u32 c)
{
	const struct edge_core *co = &s->cores[c];
	u64 bit = 1ULL << (c % 64);

	if (!co->reserved &&
	    co->threads <= s->p->threads_per_core - s->p->warp_size &&
	    co->tbs < s->p->tb_slots_per_core)
		s->core_room[c / 64] |= bit;
	else
		s->core_room[c / 64] &= ~bit;
}

/*
 * Every change of core @core's threads goes through here, to keep the
 * count of cores with no room for one more warp: when it is all of
 * them, an event warp's search for free resources has nothing to find.
 * A change of its TB count comes before one of its threads (start_tb(),
 * edge_simt_tb_release()), which then say @tbs_changed: its room bit
 * follows both.  Otherwise (an event warp's start and end, twice per
 * event) only the bit's threads test can change, and only where the
 * count of full cores does: the bit is left alone everywhere else.
 */
static __always_inline void edge_simt_core_threads_as(struct edge_simt *s,
						      u32 core, s32 delta,
						      bool tbs_changed)
{
	struct edge_core *c = &s->cores[core];
	u32 full = s->p->threads_per_core - s->p->warp_size;
	bool was = c->threads > full, is;

	c->threads += delta;
	is = c->threads > full;
	/* The TB search's copy (edge_simt.core_free). */
	if (!c->reserved)
		s->core_free[core] = s->p->threads_per_core - c->threads;
	if (was != is) {
		if (is)
			s->cores_warp_full++;
		else
			s->cores_warp_full--;
		edge_simt_room_update(s, core);
	} else if (tbs_changed) {
		edge_simt_room_update(s, core);
	}
}

/* An event warp's change of core @core's threads: its TB count stays. */
static inline void edge_simt_core_threads(struct edge_simt *s, u32 core,
					  s32 delta)
{
	edge_simt_core_threads_as(s, core, delta, false);
}

/*
 * A core's resident TBs changed: on a corun_live preset its TBs' rates
 * follow at the end of the pass (gpu/retime.c).  Inline: it is on every
 * TB's start and end, and does nothing on the other presets.
 */
static inline void edge_simt_occ_changed(struct edge_simt *s, u32 core)
{
	struct edge_core *c = &s->cores[core];

	if (!s->p->corun_live || c->retime)
		return;
	c->retime = true;
	s->nr_retime++;
}

static inline void edge_simt_retime(struct edge_simt *s)
{
	if (s->nr_retime)
		edge_simt_retime_cores(s);
}

#endif /* _EDGE_PREEMPT_H */

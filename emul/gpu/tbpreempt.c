// SPDX-License-Identifier: GPL-2.0
/*
 * Thread-block preemption: a TB of any kernel leaves its core, and its
 * remaining work resumes later, first among its kernel's TBs.
 *
 * EDGE preempts single warps, and only for event kernels (preempt.c).
 * Schedulers above it (a preemptive queue policy, SRTF that hands cores
 * over at once, quotas that take cores back from running kernels) need to
 * take a whole TB off a core.  The cost is the one a context switch of a GPU pays (Tanasic et
 * al., Park et al.'s Chimera): the TB's warps are flushed, with the flush
 * latency the warp model already draws for EDGE's victims; its registers
 * and shared memory are saved at ctx_bytes_per_cycle; the TB holds its
 * core's resources until then.  When it resumes, the restore costs as
 * much again, before its remaining cycles run.
 */
#include "gpu/preempt.h"

/* The slowest of the TB's warps to flush: they flush in parallel. */
static u64 tb_flush_cycles(struct edge_simt *s, const struct edge_tb *tb)
{
	struct edge_vstate v;
	u64 flush = 0;
	u32 w;

	for (w = 0; w < tb->warps; w++) {
		edge_preempt_sample(s, tb, tb->warps > 1 ?
				    w * 1000 / (tb->warps - 1) : 0, &v);
		if (v.flush > flush)
			flush = v.flush;
	}
	return flush;
}

/**
 * edge_simt_preempt_tb - take a thread block off its core
 * @s: the SIMT model
 * @tb: a resident TB
 *
 * The TB flushes and saves its context, then leaves its core; its kernel
 * goes back into the dispatcher's queue, and the TB's remaining work is
 * the next of its kernel's TBs to be placed.
 *
 * Return: 0; -EBUSY for a TB that is finishing, already leaving, or
 * lending warps to event warps; -ENOSPC when every saved-context slot is
 * taken.  Nothing changes on error.
 */
int edge_simt_preempt_tb(struct edge_simt *s, struct edge_tb *tb)
{
	u64 now = s->eng->now, span, left, cycles, permille;

	if (!tb->used || tb->suspending || tb->preempted || tb->done_pending ||
	    tb->end <= now || tb->start == tb->end)
		return -EBUSY;
	if (s->free_susp == EDGE_SUSP_NONE)
		return -ENOSPC;
	/* The isolated work left, in the share of its time still to run. */
	span = tb->end - tb->prog_start;
	left = tb->end - now;
	permille = edge_div64_64(left * 1000, span);
	tb->iso_cycles = edge_div64(tb->iso_cycles * permille, 1000);
	cycles = tb_flush_cycles(s, tb) + edge_simt_ctx_cycles(s, &tb->ki->k);
	tb->suspending = true;
	tb->end = now + edge_simt_cyc2ns(s, cycles);
	/* Its completion comes earlier: the queued one goes. */
	edge_engine_remove_obj(s->eng, EDGE_EV_TB_DONE, tb->idx);
	edge_simt_tb_reschedule(s, tb);
	s->st.tb_preemptions++;
	EDGE_TRACE(s->eng, EDGE_TP_PREEMPT,
		   (u64)EDGE_TP_PREEMPT_TB << 32 | tb->core, tb->idx, cycles);
	s->st.tb_ctx_cycles += cycles;
	return 0;
}

/* Flushed and saved: the TB leaves its core; its work waits, saved. */
void edge_simt_tb_suspended(struct edge_simt *s, struct edge_tb *tb)
{
	struct edge_kinst *ki = tb->ki;
	u32 idx = s->free_susp;
	struct edge_susp *r = &s->susp[idx];

	s->free_susp = r->next;
	r->cycles = tb->iso_cycles;
	r->next = ki->susp;
	ki->susp = idx;
	ki->nr_susp++;
	ki->tb_ns += s->eng->now - tb->start;
	edge_simt_tb_release(s, tb);
	ki->tbs_running--;
	ki->tbs_dispatched--;
	edge_simt_enqueue(s, ki);
	edge_simt_schedule(s);
}

/* A cancelled kernel's saved TBs go back to the free list. */
void edge_simt_drop_suspended(struct edge_simt *s, struct edge_kinst *ki)
{
	while (ki->nr_susp) {
		u32 idx = ki->susp;

		ki->susp = s->susp[idx].next;
		s->susp[idx].next = s->free_susp;
		s->free_susp = idx;
		ki->nr_susp--;
	}
}

/*
 * The youngest resident TB on @core of a kernel that goes after @ki, with
 * at least @left_pct of its time still to run: one nearly done is left
 * to drain (a queue policy's choice between draining and checkpointing).
 */
static struct edge_tb *default_victim(struct edge_simt *s, u32 core,
				      const struct edge_kinst *ki, u32 left_pct)
{
	struct edge_core *c = &s->cores[core];
	struct edge_tb *best = NULL;
	u64 now = s->eng->now;
	u32 i;

	for (i = 0; i < c->nr_tbs; i++) {
		struct edge_tb *tb = c->tb[i];

		if (tb->ki == ki || tb->suspending || tb->preempted ||
		    tb->done_pending || tb->end <= now ||
		    (tb->end - now) * 100 < (tb->end - tb->prog_start) * left_pct ||
		    !edge_simt_queue_before(s, ki, tb->ki))
			continue;
		if (!best || tb->launch_order > best->launch_order)
			best = tb;
	}
	return best;
}

/**
 * edge_simt_make_room - preempt TBs of later kernels for @ki
 * @s: the SIMT model
 * @ki: a kernel whose TBs wait
 * @max: how many TBs to preempt at most
 * @left_pct: only TBs with at least this share of their time left
 *
 * Takes at most one TB per core per call, from the cores in turn, as the
 * thread-block policy's victim hook chooses (by default the youngest TB
 * of a kernel that goes after @ki in dispatch order, not nearly done).
 *
 * Return: the number of TBs preempted.
 */
u32 edge_simt_make_room(struct edge_simt *s, const struct edge_kinst *ki,
			u32 max, u32 left_pct)
{
	u32 c, n = 0;

	for (c = 0; c < s->p->num_cores && n < max; c++) {
		struct edge_tb *tb = s->tbp->victim ?
				     s->tbp->victim(s, c, ki) :
				     default_victim(s, c, ki, left_pct);

		if (tb && !edge_simt_preempt_tb(s, tb))
			n++;
	}
	return n;
}

/**
 * edge_simt_preempt_for_head - make room for the first kernel that waits
 * @s: the SIMT model
 * @left_pct: only TBs with at least this share of their time left
 *
 * The first kernel in dispatch order with TBs still to place takes
 * cores from the kernels that go after it (edge_simt_make_room()), as
 * many TBs as it has left to place.  For preemptive queue policies.
 *
 * Return: the number of TBs preempted.
 */
u32 edge_simt_preempt_for_head(struct edge_simt *s, u32 left_pct)
{
	const struct edge_kinst *ki;

	for (ki = s->queue; ki; ki = ki->next) {
		if (ki->ewarp || ki->tbs_dispatched >= ki->k.num_tbs)
			continue;
		return edge_simt_make_room(s, ki, (u32)(ki->k.num_tbs -
						       ki->tbs_dispatched),
					   left_pct);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Thread-block preemption: a TB of any kernel leaves its core, and its
 * remaining work resumes later, first among its kernel's TBs.
 *
 * EDGE preempts single warps, and only for event kernels (preempt.c).
 * Schedulers above it (PREMA, SRTF that hands cores over at once, quotas
 * that take cores back from running kernels) need to take a whole TB off
 * a core.  The cost is the one a context switch of a GPU pays (Tanasic et
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
	span = tb->end - tb->start;
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

/* The youngest resident TB on @core of a kernel that goes after @ki. */
static struct edge_tb *default_victim(struct edge_simt *s, u32 core,
				      const struct edge_kinst *ki)
{
	struct edge_core *c = &s->cores[core];
	struct edge_tb *best = NULL;
	u32 i;

	for (i = 0; i < c->nr_tbs; i++) {
		struct edge_tb *tb = c->tb[i];

		if (tb->ki == ki || tb->suspending || tb->preempted ||
		    tb->done_pending || tb->end <= s->eng->now ||
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
 *
 * Takes at most one TB per core per call, from the cores in turn, as the
 * thread-block policy's victim hook chooses (by default the youngest TB
 * of a kernel that goes after @ki in dispatch order).
 *
 * Return: the number of TBs preempted.
 */
u32 edge_simt_make_room(struct edge_simt *s, const struct edge_kinst *ki,
			u32 max)
{
	u32 c, n = 0;

	for (c = 0; c < s->p->num_cores && n < max; c++) {
		struct edge_tb *tb = s->tbp->victim ?
				     s->tbp->victim(s, c, ki) :
				     default_victim(s, c, ki);

		if (tb && !edge_simt_preempt_tb(s, tb))
			n++;
	}
	return n;
}

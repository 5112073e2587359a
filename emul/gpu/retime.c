// SPDX-License-Identifier: GPL-2.0
/*
 * Re-timing running TBs when their core's occupancy changes.
 *
 * settle_pass() (gpu/simt.c) times a TB once, when it starts, stretched
 * by the co-residency of its core then (edge_simt_corun()).  In a
 * cycle-level simulator a warp issues among the warps resident at each
 * cycle, so a TB whose co-runners leave speeds up, and one joined by new
 * TBs slows down.  The difference shows in a kernel's partial last wave:
 * it starts on a full core (its TBs timed at full occupancy) and runs its
 * end on a core holding two or three TBs.  On a preset with corun_live,
 * every change of a core's resident TBs marks the core; at the end of the
 * scheduling pass (when a TB that ended has been replaced, if it is)
 * each TB on a marked core whose occupancy moved keeps the work it has
 * left, at the rate the new occupancy gives: its remaining time scales by
 * (1 + corun x occ_new) / (1 + corun x occ_old).  No new number: the
 * curve is the kernel's corun_pct.  The memory-share stretch (mem_pct,
 * membw) stays fixed at the start, and a TB that lends warps to event
 * warps, or is leaving its core, keeps its time.
 */
#include "gpu/preempt.h"

/* @v x @num / @den without overflowing u64 for any TB length. */
static u64 scale(u64 v, u64 num, u64 den)
{
	u64 q = edge_div64_64(v, den);

	return q * num + edge_div64_64((v - q * den) * num, den);
}

static u64 rate(const struct edge_tb *tb, u32 occ)
{
	return 100000 + (u64)tb->ki->k.ws.corun_pct * occ;
}

/* Give @tb the rate of occupancy @occ; true when its end moved. */
static bool retime_tb(struct edge_simt *s, struct edge_tb *tb, u32 occ)
{
	u64 now = s->eng->now, left, span, num, den;

	if (tb->occ == occ || tb->suspending || tb->preempted ||
	    tb->done_pending || tb->end <= now)
		return false;
	num = rate(tb, occ);
	den = rate(tb, tb->occ);
	tb->occ = occ;
	if (num == den)
		return false;
	left = tb->end - now;
	span = tb->end - tb->prog_start;
	tb->end = now + scale(left, num, den);
	/* The share of its work done is what it was. */
	tb->prog_start = tb->end - scale(span, num, den);
	tb->retimed = true;
	return true;
}

static bool is_retimed(u32 obj, void *arg)
{
	const struct edge_simt *s = arg;

	return s->tbs[obj].retimed;
}

/**
 * edge_simt_retime_cores - re-time the TBs of cores whose occupancy changed
 * @s: the SIMT model
 *
 * Called at the end of a scheduling pass (settle_pass()) that changed a
 * core's TBs on a corun_live preset (edge_simt_occ_changed()).  The moved
 * TBs' queued completions go in one pass over the engine, and one each is
 * queued again, so the engine never holds more than it reserved.
 */
void edge_simt_retime_cores(struct edge_simt *s)
{
	u32 n = s->p->num_cores, c, i, moved = 0;

	for (c = 0; c < n; c++) {
		struct edge_core *core = &s->cores[c];
		u32 occ = edge_simt_occupancy(s, core);

		if (!core->retime)
			continue;
		for (i = 0; i < core->nr_tbs; i++)
			moved += retime_tb(s, core->tb[i], occ);
	}
	if (moved)
		edge_engine_remove_if(s->eng, EDGE_EV_TB_DONE, is_retimed, s);
	for (c = 0; c < n; c++) {
		struct edge_core *core = &s->cores[c];

		if (!core->retime)
			continue;
		core->retime = false;
		for (i = 0; moved && i < core->nr_tbs; i++) {
			struct edge_tb *tb = core->tb[i];

			if (!tb->retimed)
				continue;
			tb->retimed = false;
			edge_simt_tb_reschedule(s, tb);
		}
	}
	s->nr_retime = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Cancelling kernels of the SIMT model, wherever they are: waiting for
 * their dispatch latency, queued, with TBs resident, preempted off their
 * cores, or as event warps placed or preempting.  Out of simt.c, which
 * places and times work; this takes it back.
 */
#include "gpu/preempt.h"

struct tb_match {
	const struct edge_simt *s;
	const struct edge_kinst *ki;
};

/*
 * A TB of the kernel just released: a free TB still names its last
 * kernel, and one that ended before has no completion queued.
 */
static bool tb_released_of_kernel(u32 obj, void *arg)
{
	const struct tb_match *tm = arg;
	const struct edge_tb *tb = &tm->s->tbs[obj];

	return !tb->used && tb->ki == tm->ki;
}

/*
 * Drop every kernel whose cookie @match accepts, wherever it is: queued,
 * running TBs, running or preempting event warps.  No completion is
 * reported: the caller cancels its own.  Returns how many were dropped.
 */
u32 edge_simt_cancel(struct edge_simt *s,
		     bool (*match)(u64 cookie, void *arg), void *arg)
{
	u32 i, n = 0;

	for (i = 0; i < s->ki_init; i++) {
		struct edge_kinst *ki = &s->ki[i];
		u32 t;

		if (!ki->used || !match(ki->cookie, arg))
			continue;
		/* Still in its dispatch latency: its READY is queued. */
		if (!ki->queued && !ki->placed && !ki->tbs_dispatched)
			edge_engine_remove_obj(s->eng, EDGE_EV_READY, ki->idx);
		if (ki->queued) {
			edge_simt_queue_out(s, ki);
			if (ki->ewarp)
				edge_simt_ew_dequeued(s, ki);
		} else if (ki->ewarp && !ki->placed) {
			/* Still in its dispatch latency: not queued yet. */
			s->ewarp_len--;
		}
		edge_simt_kdu_leave(s, ki);
		if (ki->ewarp && ki->placed)
			edge_preempt_drop(s, ki);
		/*
		 * Only a kernel with TBs running has any to release: one
		 * orphan pass over the event warps, the TBs themselves, then
		 * one removal from the engine for all of them.  (One TB at a
		 * time, a GPU-filling kernel took ~36 ms on h100-like.)  The
		 * removal comes last: releasing a TB calls the policy's
		 * tb_end, which may preempt another TB of this kernel (SRTF
		 * ends a sample and starts the next on core 0), queueing its
		 * completion again; removed first, that one outlived its TB.
		 */
		if (ki->tbs_running) {
			struct tb_match tm = { s, ki };

			edge_preempt_orphan_kernel(s, ki);
			for (t = 0; t < s->nr_tbs; t++) {
				struct edge_tb *tb = &s->tbs[t];

				if (tb->used && tb->ki == ki)
					edge_simt_tb_release(s, tb);
			}
			edge_engine_remove_if(s->eng, EDGE_EV_TB_DONE,
					      tb_released_of_kernel, &tm);
		}
		edge_simt_drop_suspended(s, ki);
		if (!ki->ewarp && s->tbp->kernel_end)
			s->tbp->kernel_end(s, ki);
		edge_simt_ki_free(s, ki);
		n++;
	}
	if (n)
		edge_simt_schedule(s);
	return n;
}

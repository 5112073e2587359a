// SPDX-License-Identifier: GPL-2.0
/*
 * The LAX family (Iyer et al., HPCA 2021): admission control by
 * Algorithm 1, then laxity as the rank (Algorithm 2), refreshed every
 * profiling period.  LAX runs in the CP; LAX-CPU is the same on the host
 * (priority writes pay the host-device latency); LAX-SW ranks each job
 * once, statically, when it is admitted.  LAX-P is ours: laxity in steps,
 * shortest remaining within a step, and jobs past their deadline dropped.
 */
#include "cp/cp.h"

/*
 * The CP's own time for @j: each kernel launch is one action of
 * parse_ns on a CP that all admitted jobs share.  Served in turn, a job
 * with x launches left waits for min(x, y) of each other job's y, plus
 * its own x (processor sharing).  On a GPU of many tiny kernels this,
 * not the GPU, is what bounds a job.
 */
static u64 cp_time(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 own = j->nr_kern - j->next, n = own;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++) {
		const struct edge_cp_job *o = &cp->jobs[i];
		u64 rem = o->nr_kern - o->next;

		if (o != j && edge_cp_admitted(o))
			n += rem < own ? rem : own;
	}
	return n * cp->cfg.parse_ns;
}

/*
 * Algorithm 1 for @j.  The admitted jobs' remaining GPU time is what the
 * queue holds (Little's law); while @j runs, the GPU time its kernels
 * leave free (hold minus its own work) drains part of that queue beside
 * it, and only the rest delays it.  Summing the other jobs' latencies
 * instead, as if jobs ran one at a time, refuses most jobs on a GPU that
 * runs several side by side (Documentation/lax.rst).  The CP's time to
 * launch its kernels comes on top (cp_time()).
 */
bool edge_lax_admits(const struct edge_cp *cp, const struct edge_cp_job *j,
		     bool offline, u64 *hold)
{
	u64 tot = 0, dur = cp->eng->now - j->arrival, beside, queue, own;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++) {
		const struct edge_cp_job *o = &cp->jobs[i];

		if (edge_cp_admitted(o))
			tot += edge_cp_rem_work(cp, o, offline);
	}
	*hold = offline ? edge_cp_rem_offline(cp, j) :
			  edge_cp_rem_service(cp, j);
	own = edge_cp_rem_work(cp, j, offline);
	beside = *hold > own ? *hold - own : 0;
	queue = tot > beside ? tot - beside : 0;
	return dur + *hold + queue + cp_time(cp, j) < j->deadline;
}

/* Algorithm 2, lines 2-18: the job's laxity as a rank. */
static u64 lax_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 now = cp->eng->now, dur = now - j->arrival;
	u64 compl = edge_cp_rem_measured(cp, j) + dur;

	if (dur > j->deadline)
		return EDGE_RANK_INF;
	if (j->deadline > compl)
		return j->deadline - compl;
	/* Predicted to miss: behind every job that still has laxity. */
	return compl < EDGE_RANK_LOW ? EDGE_RANK_LOW + compl :
				       EDGE_RANK_INF - 1;
}

/*
 * LAX-P ranks the jobs predicted to make their deadline by laxity in
 * steps of 1/16 of the deadline, and within a step the shortest remaining
 * first; the jobs predicted to miss come after, by completion time.
 * Within a step, laxity differences are mostly estimation noise that
 * only reorders jobs back and forth; shortest-remaining finishes what is
 * nearly done (what PREMA gets right on STEM).  See laxp_tick() for its
 * other half.
 */
#define LAXP_STEPS	16

static u64 laxp_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 now = cp->eng->now, dur = now - j->arrival;
	u64 rem = edge_cp_rem_measured(cp, j), compl = rem + dur, step;

	if (dur > j->deadline)
		return EDGE_RANK_INF;
	if (j->deadline <= compl)
		return compl < EDGE_RANK_LOW ? EDGE_RANK_LOW + compl :
					       EDGE_RANK_INF - 1;
	step = edge_div64(j->deadline, LAXP_STEPS);
	return (edge_div64_64(j->deadline - compl, step ? step : 1) << 40) |
	       (rem < (1ULL << 40) ? rem : (1ULL << 40) - 1);
}

/* LAX, LAX-CPU and LAX-P: new jobs start at the highest priority. */
static void lax_admit(struct edge_cp *cp, struct edge_cp_job *j)
{
	u64 hold;

	if (!edge_lax_admits(cp, j, false, &hold))
		return edge_cp_reject(cp, j);
	/*
	 * LAX Section 5.1.  LAX-P does the same: ranking a new job by
	 * laxp_rank() at once costs STEM 20 %.
	 */
	edge_cp_admit(cp, j, 0);
}

/* LAX-SW: static, ranked once by the laxity just estimated. */
static void lax_sw_admit(struct edge_cp *cp, struct edge_cp_job *j)
{
	u64 hold, dur = cp->eng->now - j->arrival;

	if (!edge_lax_admits(cp, j, false, &hold))
		return edge_cp_reject(cp, j);
	edge_cp_admit(cp, j, j->deadline - hold - dur);
}

static void lax_tick(struct edge_cp *cp)
{
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (edge_cp_admitted(&cp->jobs[i]))
			cp->jobs[i].rank = lax_rank(cp, &cp->jobs[i]);
}

/*
 * LAX-P re-ranks, then drops each job whose deadline has passed: its
 * work-groups in flight go to jobs that can still make theirs.
 */
static void laxp_tick(struct edge_cp *cp)
{
	u64 now = cp->eng->now;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (edge_cp_admitted(&cp->jobs[i]))
			cp->jobs[i].rank = laxp_rank(cp, &cp->jobs[i]);
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];

		if (edge_cp_admitted(j) && now - j->arrival > j->deadline)
			edge_cp_drop(cp, j);
	}
}

const struct edge_cp_policy edge_pol_lax = {
	.name = "lax",
	.flags = EDGE_CPF_RERANK,
	.admit = lax_admit,
	.rank = edge_cp_stored_rank,
	.tick = lax_tick,
};

const struct edge_cp_policy edge_pol_lax_cpu = {
	.name = "lax-cpu",
	.flags = EDGE_CPF_HOST | EDGE_CPF_RERANK,
	.admit = lax_admit,
	.rank = edge_cp_stored_rank,
	.tick = lax_tick,
};

const struct edge_cp_policy edge_pol_lax_sw = {
	.name = "lax-sw",
	.flags = EDGE_CPF_HOST,
	.admit = lax_sw_admit,
	.rank = edge_cp_stored_rank,
};

const struct edge_cp_policy edge_pol_laxp = {
	.name = "lax-p",
	.flags = EDGE_CPF_RERANK,
	.admit = lax_admit,
	.rank = edge_cp_stored_rank,
	.tick = laxp_tick,
};

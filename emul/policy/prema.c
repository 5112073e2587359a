// SPDX-License-Identifier: GPL-2.0
/*
 * PREMA (Choi and Rhu, HPCA 2020) as the LAX paper runs it: every
 * cfg.period_ns (sysfs cp/prema_ns), each admitted job earns tokens in
 * proportion to its slowdown so far; the jobs with a full token count
 * are candidates, and among them the shortest remaining goes first,
 * preempting the work-groups of the jobs ranked after it (PREMA's
 * checkpointing preemption, as thread-block preemption:
 * gpu/tbpreempt.c).
 */
#include "cp/cp.h"

/* PREMA: tokens grow with slowdown; candidates go shortest first. */
static void prema_update(struct edge_cp *cp)
{
	u64 now = cp->eng->now;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];
		u64 iso = j->static_len ? j->static_len : 1, sd;

		if (!edge_cp_admitted(j))
			continue;
		/* Slowdown so far, per mille; past 1: it is waiting. */
		sd = edge_div64_64((now - j->arrival) * 1000, iso);
		if (sd > 1000)
			j->tokens += sd - 1000;
		j->rank = edge_cp_rem_measured(cp, j) +
			  (j->tokens >= 1000 ? 0 : EDGE_RANK_LOW);
	}
}

/*
 * PREMA chooses between checkpointing and draining by the victim's
 * progress: one with less than half its time left drains.
 */
#define PREMA_LEFT_PCT	50

/*
 * Its own interval, longer than the CP's profiling period.  PREMA is
 * preemptive: at each interval the best candidate takes the cores of
 * the kernels ranked after it.
 */
static void prema_tick(struct edge_cp *cp)
{
	if (cp->eng->now < cp->next_period)
		return;
	prema_update(cp);
	edge_cp_preempt_for_best(cp, PREMA_LEFT_PCT);
	cp->next_period += cp->cfg.period_ns;
}

const struct edge_cp_policy edge_pol_prema = {
	.name = "prema",
	.flags = EDGE_CPF_RERANK,
	.rank = edge_cp_stored_rank,
	.tick = prema_tick,
};

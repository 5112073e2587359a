// SPDX-License-Identifier: GPL-2.0
/*
 * PREMA (Choi and Rhu, HPCA 2020) as the LAX paper runs it: every
 * prema_ns (its knob: sysfs cp/prema_ns, netlink's policy-param), each
 * admitted job earns tokens in proportion to its slowdown so far; the
 * jobs with a full token count are candidates, and among them the
 * shortest remaining goes first, preempting the work-groups of the jobs
 * ranked after it (PREMA's checkpointing preemption, as thread-block
 * preemption: gpu/tbpreempt.c).
 */
#include "cp/cp.h"

/* PREMA's private data: its knob, its clock and each job's tokens. */
struct prema {
	u32 period_ns;			/* the knob: its interval */
	u32 tick_gen;			/* the CP's ticks it counts from */
	u64 next;			/* its next interval, ns */
	u64 tokens[EDGE_CP_JOBS];	/* per mille, of ... */
	u32 gen[EDGE_CP_JOBS];		/* ... this incarnation of the job */
};

static const struct edge_param prema_params[] = {
	EDGE_PARAM(struct prema, u32, period_ns, prema_ns, 1000, 1000000000,
		   250000, "PREMA's interval: tokens and preemption, ns"),
};

/* @j's tokens: none yet for a job PREMA has not seen in this slot. */
static u64 *tokens(struct prema *p, const struct edge_cp_job *j)
{
	if (p->gen[j->idx] != j->gen) {
		p->gen[j->idx] = j->gen;
		p->tokens[j->idx] = 0;
	}
	return &p->tokens[j->idx];
}

/* For the tests: @j's tokens so far. */
u64 edge_prema_tokens(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	return *tokens(cp->priv[EDGE_POL_PREMA], j);
}

/* PREMA: tokens grow with slowdown; candidates go shortest first. */
static void prema_update(struct edge_cp *cp, struct prema *p)
{
	u64 now = cp->eng->now;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];
		u64 iso = j->static_len ? j->static_len : 1, sd, *t;

		if (!edge_cp_admitted(j))
			continue;
		t = tokens(p, j);
		/* Slowdown so far, per mille; past 1: it is waiting. */
		sd = edge_div64_64((now - j->arrival) * 1000, iso);
		if (sd > 1000)
			*t += sd - 1000;
		j->rank = edge_cp_rem_measured(cp, j) +
			  (*t >= 1000 ? 0 : EDGE_RANK_LOW);
	}
}

/*
 * PREMA chooses between checkpointing and draining by the victim's
 * progress: one with less than half its time left drains.
 */
#define PREMA_LEFT_PCT	50

/*
 * Its own interval, longer than the CP's profiling period, counted from
 * when the CP's ticks started.  PREMA is preemptive: at each interval
 * the best candidate takes the cores of the kernels ranked after it.
 */
static void prema_tick(struct edge_cp *cp)
{
	struct prema *p = edge_cp_priv(cp);

	if (p->tick_gen != cp->tick_gen) {
		p->tick_gen = cp->tick_gen;
		p->next = cp->tick_start + p->period_ns;
	}
	if (cp->eng->now < p->next)
		return;
	prema_update(cp, p);
	edge_cp_preempt_for_best(cp, PREMA_LEFT_PCT);
	p->next += p->period_ns;
}

const struct edge_cp_policy edge_pol_prema = {
	.name = "prema",
	.flags = EDGE_CPF_RERANK,
	.params = prema_params,
	.nr_params = ARRAY_SIZE(prema_params),
	.priv_size = sizeof(struct prema),
	.rank = edge_cp_stored_rank,
	.tick = prema_tick,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The schedulers of the LAX paper's comparison that run on the host CPU,
 * and pay the host-device latency per kernel: BatchMaker (dynamic
 * batching of jobs whose next kernel is the same), Baymax (admission by
 * an offline regression, ranked by QoS headroom) and Prophet (jobs held
 * until their offline footprints fit the GPU beside the running ones).
 */
#include "cp/cp.h"

/* BatchMaker: jobs whose next kernel is the same run it as one. */
static u32 bat_gather(struct edge_cp *cp, struct edge_cp_job *lead, u16 cls)
{
	u32 i, n = 1;

	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];

		if (j == lead || !edge_cp_admitted(j) || j->inflight ||
		    j->kern[j->next] != cls)
			continue;
		j->inflight = lead->idx + 1;
		j->state = EDGE_JOB_RUNNING;
		cp->batched++;
		n++;
	}
	return n;
}

const struct edge_cp_policy edge_pol_bat = {
	.name = "bat",
	.flags = EDGE_CPF_HOST,
	.gather = bat_gather,
};

/* Baymax's private data: its knob. */
struct bay_cp {
	u32 predict_ns;		/* its regression call, per job */
};

static const struct edge_param bay_params[] = {
	EDGE_PARAM(struct bay_cp, u32, predict_ns, predict_ns, 0, 1000000000,
		   50000, "Baymax's regression call, per job inspected, ns"),
};

/* Each inspection waits for the regression's prediction. */
static u64 bay_inspect_ns(const struct edge_cp *cp)
{
	const struct bay_cp *b = edge_cp_priv(cp);

	return b->predict_ns;
}

/* Baymax's QoS headroom by its offline prediction. */
static u64 bay_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 used = cp->eng->now - j->arrival + edge_cp_rem_offline(cp, j);

	return j->deadline > used ? j->deadline - used : EDGE_RANK_LOW + used;
}

/* Algorithm 1 on the offline profile: Baymax predicts, it does not measure. */
static void bay_admit(struct edge_cp *cp, struct edge_cp_job *j)
{
	u64 hold;

	if (!edge_lax_admits(cp, j, true, &hold))
		return edge_cp_reject(cp, j);
	edge_cp_admit(cp, j, bay_rank(cp, j));
}

static void bay_tick(struct edge_cp *cp)
{
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (edge_cp_admitted(&cp->jobs[i]))
			cp->jobs[i].rank = bay_rank(cp, &cp->jobs[i]);
}

const struct edge_cp_policy edge_pol_bay = {
	.name = "bay",
	.flags = EDGE_CPF_HOST | EDGE_CPF_RERANK,
	.params = bay_params,
	.nr_params = ARRAY_SIZE(bay_params),
	.priv_size = sizeof(struct bay_cp),
	.inspect_ns = bay_inspect_ns,
	.admit = bay_admit,
	.rank = edge_cp_stored_rank,
	.tick = bay_tick,
};

/* Threads of the widest kernel in the job: Prophet's footprint. */
static u64 job_footprint(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 m = 0, t;
	u32 i;

	for (i = 0; i < j->nr_cls; i++) {
		const struct edge_kdesc *k = &cp->cls[j->cls[i]].k;

		t = k->num_tbs * k->block_threads;
		if (t > m)
			m = t;
	}
	return m;
}

/*
 * Prophet: held jobs go, oldest first, while the admitted jobs' offline
 * footprints leave room on the GPU; one that can no longer make its
 * deadline even alone is refused.
 */
static void pro_release(struct edge_cp *cp)
{
	const struct edge_preset *p = cp->s->p;
	u64 cap = (u64)p->num_cores * p->threads_per_core, used = 0;
	u64 now = cp->eng->now;
	struct edge_cp_job *best;
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (edge_cp_admitted(&cp->jobs[i]))
			used += job_footprint(cp, &cp->jobs[i]);
	for (;;) {
		best = NULL;
		for (i = 0; i < EDGE_CP_JOBS; i++) {
			struct edge_cp_job *j = &cp->jobs[i];

			if (j->state != EDGE_JOB_HELD)
				continue;
			if (now - j->arrival + edge_cp_rem_offline(cp, j) >
			    j->deadline) {
				edge_cp_reject(cp, j);
				continue;
			}
			if (!best || j->arrival < best->arrival)
				best = j;
		}
		if (!best)
			return;
		if (used && used + job_footprint(cp, best) > cap)
			return;
		used += job_footprint(cp, best);
		edge_cp_admit(cp, best, 0);
	}
}

static void pro_admit(struct edge_cp *cp, struct edge_cp_job *j)
{
	j->state = EDGE_JOB_HELD;
	pro_release(cp);
}

/*
 * Held jobs would wait for a pro_release() that no longer comes, and the
 * jobs queued behind them with them: the new policy inspects them again.
 */
static void pro_switch_out(struct edge_cp *cp)
{
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (cp->jobs[i].state == EDGE_JOB_HELD)
			edge_cp_inspect(cp, &cp->jobs[i]);
}

const struct edge_cp_policy edge_pol_pro = {
	.name = "pro",
	.flags = EDGE_CPF_HOST,
	.admit = pro_admit,
	.kernel_done = pro_release,
	.switch_out = pro_switch_out,
};

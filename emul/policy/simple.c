// SPDX-License-Identifier: GPL-2.0
/*
 * The simple orders of the LAX paper's comparison (Iyer et al., Table 3):
 * queues in turn (RR), a two-level feedback queue (MLFQ), earliest
 * deadline first (EDF), shortest and longest job first by the offline
 * profile (SJF, LJF), and shortest remaining time by the CP's measured
 * estimate (SRF).  None admits or refuses: every job runs.
 */
#include "cp/cp.h"

const struct edge_cp_policy edge_pol_rr = {
	.name = "rr",
};

/* MLFQ: demoted past 1/3 of the deadline, promoted back past 2/3. */
static u64 mlfq_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 run = (cp->eng->now - j->admitted) * 3;

	return run >= j->deadline && run < 2 * j->deadline;
}

const struct edge_cp_policy edge_pol_mlfq = {
	.name = "mlfq",
	.flags = EDGE_CPF_RERANK,
	.rank = mlfq_rank,
};

static u64 edf_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	(void)cp;
	return j->arrival + j->deadline;
}

const struct edge_cp_policy edge_pol_edf = {
	.name = "edf",
	.flags = EDGE_CPF_RERANK,
	.rank = edf_rank,
};

static u64 sjf_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	(void)cp;
	return j->static_len;
}

const struct edge_cp_policy edge_pol_sjf = {
	.name = "sjf",
	.flags = EDGE_CPF_RERANK,
	.rank = sjf_rank,
};

static u64 ljf_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	(void)cp;
	return EDGE_RANK_INF - j->static_len;
}

const struct edge_cp_policy edge_pol_ljf = {
	.name = "ljf",
	.flags = EDGE_CPF_RERANK,
	.rank = ljf_rank,
};

const struct edge_cp_policy edge_pol_srf = {
	.name = "srf",
	.flags = EDGE_CPF_RERANK,
	.rank = edge_cp_rem_measured,
};

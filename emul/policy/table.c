// SPDX-License-Identifier: GPL-2.0
/*
 * The policy tables: the one list of every policy of the model, by level.
 * A new policy is a file of its own in this folder and a line here.
 */
#include "policy/policy.h"

const struct edge_cp_policy *const edge_cp_policies[EDGE_POL_NR] = {
	[EDGE_POL_RR] = &edge_pol_rr,		/* simple.c */
	[EDGE_POL_MLFQ] = &edge_pol_mlfq,
	[EDGE_POL_EDF] = &edge_pol_edf,
	[EDGE_POL_SJF] = &edge_pol_sjf,
	[EDGE_POL_LJF] = &edge_pol_ljf,
	[EDGE_POL_SRF] = &edge_pol_srf,
	[EDGE_POL_PREMA] = &edge_pol_prema,	/* prema.c */
	[EDGE_POL_LAX] = &edge_pol_lax,		/* lax.c */
	[EDGE_POL_LAX_SW] = &edge_pol_lax_sw,
	[EDGE_POL_LAX_CPU] = &edge_pol_lax_cpu,
	[EDGE_POL_BAT] = &edge_pol_bat,		/* host.c */
	[EDGE_POL_BAY] = &edge_pol_bay,
	[EDGE_POL_PRO] = &edge_pol_pro,
	[EDGE_POL_LAXP] = &edge_pol_laxp,	/* lax.c */
};

const struct edge_tb_policy *const edge_tb_policies[EDGE_TBP_NR] = {
	[EDGE_TBP_DEFAULT] = &edge_tbp_default,	/* tb_default.c */
	[EDGE_TBP_SJF_ORACLE] = &edge_tbp_sjf_oracle,	/* share.c */
	[EDGE_TBP_MPMAX] = &edge_tbp_mpmax,
	[EDGE_TBP_SRTF] = &edge_tbp_srtf,		/* srtf.c */
	[EDGE_TBP_SRTF_ADAPTIVE] = &edge_tbp_srtf_adaptive,
	[EDGE_TBP_SRTF_PREEMPT] = &edge_tbp_srtf_preempt,
	[EDGE_TBP_EVEN] = &edge_tbp_even,		/* mps.c */
	[EDGE_TBP_PRIORITY] = &edge_tbp_priority,
	[EDGE_TBP_MPS] = &edge_tbp_mps,
	[EDGE_TBP_BAYMAX] = &edge_tbp_baymax,		/* baymax.c */
	[EDGE_TBP_CLAIUS] = &edge_tbp_claius,		/* claius.c */
	[EDGE_TBP_CLAIUS_NB] = &edge_tbp_claius_nb,
	[EDGE_TBP_CLAIUS_NC] = &edge_tbp_claius_nc,
	[EDGE_TBP_CLAIUS_PRE] = &edge_tbp_claius_pre,
	[EDGE_TBP_STATIC] = &edge_tbp_static,
	[EDGE_TBP_CLAIUS_SCALED] = &edge_tbp_claius_scaled,
};

const struct edge_place_policy *const edge_place_policies[EDGE_PLACE_NR] = {
	[EDGE_PLACE_SA] = &edge_place_sa,		/* mgb.c */
	[EDGE_PLACE_CG] = &edge_place_cg,
	[EDGE_PLACE_ALG2] = &edge_place_alg2,
	[EDGE_PLACE_ALG3] = &edge_place_alg3,
	[EDGE_PLACE_LIVE] = &edge_place_live,		/* mgblive.c */
};

const char *edge_cp_policy_name(u32 policy)
{
	return policy < EDGE_POL_NR ? edge_cp_policies[policy]->name : "?";
}

int edge_cp_policy_find(const char *name)
{
	u32 i;

	for (i = 0; i < EDGE_POL_NR; i++)
		if (!strcmp(name, edge_cp_policies[i]->name))
			return (int)i;
	return -EINVAL;
}

/**
 * edge_cp_param_find() - a queue-level policy's knob, by name
 * @name: the knob's name
 * @policy: its policy (enum edge_policy), when found; or NULL
 *
 * Return: the knob, or NULL when no queue-level policy has that name.
 */
const struct edge_param *edge_cp_param_find(const char *name, u32 *policy)
{
	const struct edge_param *p;
	u32 i;

	for (i = 0; i < EDGE_POL_NR; i++) {
		p = edge_param_find(edge_cp_policies[i]->params,
				    edge_cp_policies[i]->nr_params, name);
		if (p) {
			if (policy)
				*policy = i;
			return p;
		}
	}
	return NULL;
}

const char *edge_tb_policy_name(u32 policy)
{
	return policy < EDGE_TBP_NR ? edge_tb_policies[policy]->name : "?";
}

int edge_tb_policy_find(const char *name)
{
	u32 i;

	for (i = 0; i < EDGE_TBP_NR; i++)
		if (!strcmp(name, edge_tb_policies[i]->name))
			return (int)i;
	return -EINVAL;
}

const char *edge_place_policy_name(u32 policy_id)
{
	return policy_id < EDGE_PLACE_NR ?
	       edge_place_policies[policy_id]->name : "?";
}

int edge_place_policy_find(const char *name)
{
	u32 i;

	for (i = 0; i < EDGE_PLACE_NR; i++)
		if (!strcmp(name, edge_place_policies[i]->name))
			return (int)i;
	return -EINVAL;
}

/**
 * edge_place_find() - a placement policy by name
 * @name: its name
 *
 * Return: the policy, or NULL when none has that name.
 */
const struct edge_place_policy *edge_place_find(const char *name)
{
	int id = edge_place_policy_find(name);

	return id < 0 ? NULL : edge_place_policies[id];
}

/**
 * edge_place_pick() - the device a placement policy gives a job
 * @policy_id: enum edge_place_id
 * @devs: a summary of each device (policy/place.h)
 * @n: how many
 * @r: the job's declared needs
 *
 * Reads @devs only: the caller counts the job with edge_place_add() once
 * it is on the device, and uncounts it with edge_place_sub().
 *
 * Return: the index in @devs of the device, -EBUSY when none takes the
 * job now, -EINVAL for an unknown @policy_id.
 */
int edge_place_pick(u32 policy_id, const struct edge_place_dev *devs, u32 n,
		    const struct edge_place_req *r)
{
	int i;

	if (policy_id >= EDGE_PLACE_NR)
		return -EINVAL;
	if (!n)
		return -EBUSY;
	i = edge_place_policies[policy_id]->pick(devs, n, r);
	EDGE_ASSERT(i < (int)n);
	return i;
}

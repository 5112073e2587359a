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
	[EDGE_TBP_CLAIUS_EQ6] = &edge_tbp_claius_eq6,
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

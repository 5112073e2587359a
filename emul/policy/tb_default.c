// SPDX-License-Identifier: GPL-2.0
/*
 * The default thread-block dispatch: kernels in priority order, then the
 * queue scheduler's rank, then launch order; each places every TB it can,
 * on cores in round-robin order, before the next kernel is looked at
 * (GPGPU-Sim's and EDGE's dispatcher).  No caps, no masks: every hook is
 * the core's default.
 */
#include "policy/policy.h"

const struct edge_tb_policy edge_tbp_default = {
	.name = "default",
};

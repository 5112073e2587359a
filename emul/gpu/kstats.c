// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMT model's whole-run figures of merit over finished kernels.
 */
#include "gpu/preempt.h"

/*
 * ANTT: the mean over finished kernels of runtime / isolated runtime;
 * STP: the sum of isolated / runtime (Eyerman and Eeckhout).  Both in
 * thousandths.
 */
u64 edge_simt_antt_milli(const struct edge_simt *s)
{
	u64 sum = 0, n = 0;
	u32 i;

	for (i = 0; i < EDGE_SIMT_TAGS; i++) {
		sum += s->st.tag[i].slowdown_sum_milli;
		n += s->st.tag[i].done;
	}
	return n ? edge_simt_ratio_milli(sum, n) / 1000 : 0;
}

u64 edge_simt_stp_milli(const struct edge_simt *s)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < EDGE_SIMT_TAGS; i++)
		sum += s->st.tag[i].progress_sum_milli;
	return sum;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal execution model.
 */
#include "exec.h"

/* warp_cycles is at most 2^40 (validated), so cycles * 1e6 fits in u64. */
u64 edge_exec_duration_ns(const struct edge_preset *p,
			  const struct edge_kdesc *k)
{
	return edge_div64(k->warp_cycles * 1000000ULL, p->clock_khz);
}

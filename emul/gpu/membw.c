// SPDX-License-Identifier: GPL-2.0
/*
 * Global memory bandwidth shared by every resident thread block.
 *
 * A kernel declares the traffic one of its TBs makes when it runs at its
 * isolated speed (edge_kdesc.mem_bw_mbs) and the share of the TB's time
 * that is bound by memory (ws.mem_pct).  The device has a peak bandwidth
 * B (preset mem_bw_mbs) and a loaded-latency coefficient a (preset
 * mem_load_pct).  With D the demand of all TBs resident when a TB starts
 * (its own included) and U = D / B, the TB's memory-bound time m becomes
 *
 *	m * (1 + a * min(U, 1)) * max(U, 1)
 *
 * Below the peak, memory latency grows with load (the a term: queues in
 * the memory controllers and the L2 fill up before the bus saturates);
 * above it, the bandwidth is shared in proportion to demand, so every
 * memory-bound TB slows by D / B.  The compute-bound rest of the TB is
 * untouched.  As with the other stretches (gpu/simt.c settle_pass()) the
 * duration is fixed when the TB starts, against the TBs resident then:
 * a TB does not speed up when a co-runner leaves, nor slow down when one
 * arrives later.  A kernel that declares no demand keeps the older model
 * (mem_pct times the share of busy cores), so existing scenarios time
 * exactly as before.
 */
#include "gpu/simt.h"

/*
 * @cycles of a TB of @k stretched against a resident demand of @demand
 * MB/s (its own included): the TB's start, or a prediction (gpu/appprof.c).
 */
u64 edge_membw_stretch_at(const struct edge_simt *s,
			  const struct edge_kdesc *k, u64 cycles, u64 demand)
{
	u64 peak = s->p->mem_bw_mbs, u, part, load;

	if (!peak || !k->mem_bw_mbs || !k->ws.mem_pct)
		return cycles;
	/* U in per mille; D is at most 2^32 TBs x 2^32 MB/s. */
	u = edge_div64_64(demand * 1000, peak);
	part = edge_div64(cycles * k->ws.mem_pct, 100);
	load = (u64)s->p->mem_load_pct * (u < 1000 ? u : 1000);
	/* part x (1 + a U): a in %, U in per mille. */
	cycles -= part;
	part += edge_div64(part * load, 100000);
	if (u > 1000)
		part = edge_div64(part * u, 1000);
	return cycles + part;
}

u64 edge_membw_stretch(const struct edge_simt *s, const struct edge_kdesc *k,
		       u64 cycles)
{
	return edge_membw_stretch_at(s, k, cycles, s->bw_resident);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modelled time of a batched event warp as a function of how many
 * requests it holds.  A helper of its own, apart from the functions'
 * switch (func.c), so a per-function table can take it as a field.
 */
#ifndef _EDGE_WARP_COST_H
#define _EDGE_WARP_COST_H

#include "validate.h"

/**
 * edge_warp_cycles() - cycles of an event warp of @n requests
 * @k: the entry's kernel: @k->warp_cycles is a full warp's time
 *     (@k->requests_per_warp requests, one a thread), @k->ws.mem_pct
 *     the share of it bound by memory
 * @n: requests in the warp, 1 .. @k->requests_per_warp
 *
 * A warp's threads issue in lockstep, so its instructions take as long
 * for one active thread as for 32; what shrinks with the requests is the
 * memory traffic, one request's accesses (its header, its table walk)
 * being its own and not coalesced with another's.  So, with R requests
 * a full warp and m = mem_pct / 100:
 *
 *	cycles(n) = warp_cycles * ((1 - m) + m * n / R),  rounded up
 *
 * Both inputs are the registration's: the paper's single-warp times
 * (EDGE: ~2,300 cycles for IPv4/6 and ~23,000 for MemC at 32 requests a
 * warp) and its memory share; nothing is fitted to a measured output.
 * An unbatched entry (R = 1), or a full warp, takes warp_cycles exactly.
 *
 * Return: the cycles, at least 1.
 */
static inline u64 edge_warp_cycles(const struct edge_kdesc *k, u32 n)
{
	u64 r = k->requests_per_warp, m = k->ws.mem_pct, num;
	u32 den;

	if (n >= r || !m)
		return k->warp_cycles;
	/* warp_cycles <= 2^40 and den <= 3200: no overflow. */
	den = 100 * (u32)r;
	num = k->warp_cycles * ((100 - m) * r + m * n);
	num = edge_div64(num + den - 1, den);
	return num ? num : 1;
}

#endif /* _EDGE_WARP_COST_H */

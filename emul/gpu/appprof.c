// SPDX-License-Identifier: GPL-2.0
/*
 * Applications from what the ABI says about a kernel, for the spatial
 * thread-block policies (those that read struct edge_app) in the
 * module.  edge-sim's claius mode describes its applications itself
 * (struct edge_app: a chain of tasks, a table measured on the model);
 * a registered event kernel has only its shape, its timing and, since
 * REGISTER VER3, a deadline.  So, with no new field:
 *
 * - every registered entry is an application (an MPS client), while one
 *   of the EDGE_APPS - 1 slots is free; later ones are not described
 *   and the spatial policies leave them alone;
 * - an entry with a deadline is a latency-critical service: each event
 *   is a query of one task whose QoS target is the deadline, measured,
 *   as the deadline is, from when the front end takes it (there is no
 *   PCIe transfer inside the module); an entry without one is batch;
 * - the predictor is Eq. 1 of the kernel's shape at each quota step:
 *   waves of the resident TBs times the TB time stretched as the model
 *   stretches it alone on that share (co-residency, and its own memory
 *   demand against the peak), not a table of measured runs;
 * - memory demand: the ABI has ws.mem_pct, the share of a TB's time
 *   bound by memory, but no traffic.  On a preset with a peak bandwidth
 *   a TB's demand is Little's law on its memory-bound warps: each keeps
 *   one coalesced 128-byte request in flight over an unloaded latency
 *   of 400 core cycles (the order microbenchmarks measure for a global
 *   load on Volta and Turing).  A GPU full of memory-bound warps then
 *   asks more than the peak (on rtx2080ti: 2176 warps x 128 B / 400
 *   cycles at 1545 MHz = 1.08 TB/s against 616 GB/s), as a real one
 *   does; a kernel with mem_pct 0 asks nothing.
 */
#include "gpu/preempt.h"

#define MEM_WARP_BYTES	128	/* one coalesced request of 32 x 4 bytes */
#define MEM_LAT_CYCLES	400	/* unloaded global-load latency */

/**
 * edge_membw_demand - memory traffic of one TB of @k at its isolated speed
 * @p: the device's preset
 * @k: the kernel
 *
 * Return: @k's own mem_bw_mbs when it has one; else, on a preset with a
 * peak bandwidth, Little's law on its memory-bound warps (above), MB/s;
 * else 0.
 */
u32 edge_membw_demand(const struct edge_preset *p, const struct edge_kdesc *k)
{
	u64 d;

	if (k->mem_bw_mbs || !p->mem_bw_mbs || !k->ws.mem_pct)
		return k->mem_bw_mbs;
	/* warps x share x bytes / latency, in bytes per cycle, x kHz / 1000 */
	d = (u64)k->warps_per_tb * k->ws.mem_pct * MEM_WARP_BYTES *
	    p->clock_khz;
	d = edge_div64_64(d, 100ULL * MEM_LAT_CYCLES * 1000);
	return d > 0xffffffffULL ? 0xffffffffU : d ? (u32)d : 1;
}

/**
 * edge_app_profile - predicted isolated duration and traffic per quota
 * @s: the SIMT model
 * @k: the kernel (its mem_bw_mbs already set)
 * @pr: out: at each 10 % step
 *
 * Eq. 1 on the step's cores: ceil(B / (cores x r)) waves of one TB time,
 * r the TBs a core holds, the TB time stretched by a core holding r of
 * them and by the demand of cores x r of them against the peak.  The
 * spread of TB times is left out: a kernel with a large one runs longer
 * than predicted by its last wave's stragglers.
 */
void edge_app_profile(const struct edge_simt *s, const struct edge_kdesc *k,
		      struct edge_task_prof *pr)
{
	u32 n = s->p->num_cores, per = edge_simt_tbs_per_gpu(s, k) / n;
	u32 maxw = s->p->threads_per_core / s->p->warp_size, q;

	if (!per)
		per = 1;
	for (q = 0; q < EDGE_QUOTA_STEPS; q++) {
		u32 cores = edge_quota_cores(s, (q + 1) * 10);
		u64 slots = (u64)cores * per, res, waves, cyc;
		u64 r = edge_div64_64(k->num_tbs + cores - 1, cores);

		if (r > per)
			r = per;
		res = k->num_tbs < slots ? k->num_tbs : slots;
		waves = edge_div64_64(k->num_tbs + slots - 1, slots);
		cyc = k->warp_cycles;
		if (k->mem_bw_mbs && s->p->mem_bw_mbs) {
			cyc = edge_membw_stretch_at(s, k, cyc,
						    res * k->mem_bw_mbs);
		} else if (k->ws.mem_pct) {
			u64 part = edge_div64(cyc * k->ws.mem_pct, 100);

			cyc += edge_div64(part * cores, n) - part;
		}
		cyc = edge_simt_corun(k, cyc,
				      (u32)edge_div64(r * k->warps_per_tb * 1000,
						       maxw));
		pr->ns[q] = edge_simt_cyc2ns(s, s->cfg.dispatch_cycles +
					     waves * cyc);
		pr->bw_mbs[q] = res * k->mem_bw_mbs;
	}
}

/**
 * edge_app_add - describe a registered kernel as an application
 * @s: the SIMT model
 * @k: the kernel; its app, task and (if unset) mem_bw_mbs are set here
 *
 * A service when @k has a deadline (its QoS target), batch otherwise;
 * one task.  A service's query begins with each event:
 * edge_app_chain_begin(s, k->app, k->deadline_ns) before its launch.
 *
 * Return: the application's id, or 0 when every slot is taken (@k is
 * then left undescribed, app 0).
 */
u32 edge_app_add(struct edge_simt *s, struct edge_kdesc *k)
{
	struct edge_app *a;
	u32 i;

	k->mem_bw_mbs = edge_membw_demand(s->p, k);
	k->app = 0;
	k->task = 0;
	for (i = 1; i < EDGE_APPS && s->apps[i].used; i++)
		;
	if (i == EDGE_APPS)
		return 0;
	/* In place: registration allocates nothing (it cannot fail here). */
	edge_app_set(s, i, NULL);
	a = &s->apps[i];
	a->used = 1;
	a->qos = k->deadline_ns != 0;
	a->nr_tasks = 1;
	a->chain_budget = k->deadline_ns;
	edge_app_profile(s, k, &a->prof[0]);
	k->app = i;
	k->task = 1;
	return i;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Placement across devices (policy/place.h): the schedulers of MGB (Chen,
 * Porter and Pande, "Compiler-assisted scheduling for multi-instance
 * GPUs"), Section III-B and IV:
 *
 * - sa: single assignment, one job per device; the first idle device
 *   whose memory holds the job.
 * - cg: core-to-GPU: the device with the fewest jobs (round robin while
 *   the worker pool, which bounds the jobs, sets the CG ratio).  Blind to
 *   memory: it may answer a device the job does not fit, whose
 *   allocation then fails.
 * - mgb-alg2: Algorithm 2, compute and memory both hard: the first device
 *   with the memory free and room on its SMs for the job's resident
 *   blocks, placed round robin as the hardware places them.
 * - mgb-alg3: Algorithm 3, memory hard and compute soft: among the
 *   devices with the memory free, the one with the fewest warps in use.
 *   The printed pseudo-code starts its minimum at 0 and keeps the larger
 *   value, so it never picks an idle device; here the minimum starts
 *   above any count and the smaller value is kept.
 *
 * A job's compute footprint is what it can hold at once: the blocks of
 * its kernel that fit an idle device (a grid larger than the device
 * holds it all, in waves), times its warps per block.  Without that cap a
 * Rodinia-sized grid would fit Alg. 2 on no device, even an idle one.
 */
#include "gpu/preset.h"
#include "policy/policy.h"

static u32 warps_per_tb(const struct edge_place_dev *d,
			const struct edge_place_req *r)
{
	u32 ws = d->warp_size ? d->warp_size : 32;

	return r->threads / ws + (r->threads % ws != 0);
}

/* Blocks of @w warps one idle SM of @d holds; at least one. */
static u32 tbs_per_sm(const struct edge_place_dev *d, u32 w)
{
	u32 n = d->tbs_per_sm;

	if (w && d->warps_per_sm / w < n)
		n = d->warps_per_sm / w;
	return n ? n : 1;
}

/**
 * edge_place_tbs() - the thread blocks a job holds on a device at once
 * @d: the device
 * @r: the job
 *
 * Return: its blocks, or as many as the idle device holds if fewer.
 */
u32 edge_place_tbs(const struct edge_place_dev *d,
		   const struct edge_place_req *r)
{
	u64 max = (u64)tbs_per_sm(d, warps_per_tb(d, r)) * d->sms;

	return r->blocks < max ? r->blocks : (u32)max;
}

/**
 * edge_place_warps() - the warps a job holds on a device at once
 * @d: the device
 * @r: the job
 *
 * Return: edge_place_tbs() times the job's warps per block.
 */
u32 edge_place_warps(const struct edge_place_dev *d,
		     const struct edge_place_req *r)
{
	return edge_place_tbs(d, r) * warps_per_tb(d, r);
}

/**
 * edge_place_mem_fits() - whether a job's memory is free on a device
 * @d: the device
 * @r: the job
 *
 * Return: true when @r->mem bytes are free on @d now.
 */
bool edge_place_mem_fits(const struct edge_place_dev *d,
			 const struct edge_place_req *r)
{
	return d->mem_used <= d->mem_total &&
	       r->mem <= d->mem_total - d->mem_used;
}

/**
 * edge_place_dev_init() - a device's summary, idle, from its preset
 * @d: the summary to fill
 * @p: the device's preset
 */
void edge_place_dev_init(struct edge_place_dev *d, const struct edge_preset *p)
{
	memset(d, 0, sizeof(*d));
	d->mem_total = p->mem_bytes;
	d->sms = p->num_cores;
	d->warp_size = p->warp_size;
	d->warps_per_sm = p->threads_per_core / p->warp_size;
	d->tbs_per_sm = p->tb_slots_per_core;
}

/**
 * edge_place_add() - count a job placed on a device
 * @d: the device
 * @r: the job
 *
 * The caller checks the memory (edge_place_mem_fits()) first if it must
 * be safe: this counts what it is told.
 */
void edge_place_add(struct edge_place_dev *d, const struct edge_place_req *r)
{
	d->mem_used += r->mem;
	d->warps_used += edge_place_warps(d, r);
	d->tbs_used += edge_place_tbs(d, r);
	d->jobs++;
}

/**
 * edge_place_sub() - uncount a job that left a device
 * @d: the device
 * @r: the job, as it was added
 */
void edge_place_sub(struct edge_place_dev *d, const struct edge_place_req *r)
{
	u32 w = edge_place_warps(d, r), t = edge_place_tbs(d, r);

	EDGE_ASSERT(d->jobs && d->mem_used >= r->mem && d->warps_used >= w &&
		    d->tbs_used >= t);
	d->mem_used -= d->mem_used < r->mem ? d->mem_used : r->mem;
	d->warps_used -= d->warps_used < w ? d->warps_used : w;
	d->tbs_used -= d->tbs_used < t ? d->tbs_used : t;
	d->jobs -= d->jobs ? 1 : 0;
}

static int sa_pick(const struct edge_place_dev *devs, u32 n,
		   const struct edge_place_req *r)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!devs[i].jobs && edge_place_mem_fits(&devs[i], r))
			return (int)i;
	return -EBUSY;
}

static int cg_pick(const struct edge_place_dev *devs, u32 n,
		   const struct edge_place_req *r)
{
	u32 i, best = 0;

	(void)r;	/* blind to the job: that is CG */
	for (i = 1; i < n; i++)
		if (devs[i].jobs < devs[best].jobs)
			best = i;
	return n ? (int)best : -EBUSY;
}

/*
 * Alg. 2's GETNEXTSM, on a summary: the placed jobs' blocks went round
 * robin, so each SM holds an even share of them, rounded up.
 */
static bool sms_fit(const struct edge_place_dev *d,
		    const struct edge_place_req *r)
{
	u32 w = warps_per_tb(d, r), sms = d->sms ? d->sms : 1;
	u32 uw = d->warps_used / sms + (d->warps_used % sms != 0);
	u32 ut = d->tbs_used / sms + (d->tbs_used % sms != 0);
	u64 room;
	u32 free_t, by_warps;

	if (uw >= d->warps_per_sm || ut >= d->tbs_per_sm)
		return !edge_place_tbs(d, r);
	free_t = d->tbs_per_sm - ut;
	by_warps = w ? (d->warps_per_sm - uw) / w : free_t;
	if (by_warps < free_t)
		free_t = by_warps;
	room = (u64)d->sms * free_t;
	return room >= edge_place_tbs(d, r);
}

static int alg2_pick(const struct edge_place_dev *devs, u32 n,
		     const struct edge_place_req *r)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (edge_place_mem_fits(&devs[i], r) && sms_fit(&devs[i], r))
			return (int)i;
	return -EBUSY;
}

static int alg3_pick(const struct edge_place_dev *devs, u32 n,
		     const struct edge_place_req *r)
{
	u64 min = ~0ULL;	/* the paper's 0 would never be beaten */
	int target = -EBUSY;
	u32 i;

	for (i = 0; i < n; i++) {
		if (!edge_place_mem_fits(&devs[i], r))
			continue;
		if (devs[i].warps_used < min) {	/* the smallest, not the largest */
			min = devs[i].warps_used;
			target = (int)i;
		}
	}
	return target;
}

const struct edge_place_policy edge_place_sa = {
	.name = "sa",
	.pick = sa_pick,
};

const struct edge_place_policy edge_place_cg = {
	.name = "cg",
	.pick = cg_pick,
};

const struct edge_place_policy edge_place_alg2 = {
	.name = "mgb-alg2",
	.pick = alg2_pick,
};

const struct edge_place_policy edge_place_alg3 = {
	.name = "mgb-alg3",
	.pick = alg3_pick,
};

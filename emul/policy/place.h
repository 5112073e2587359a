/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The placement level of the policy interface: which of several devices a
 * job goes to (MGB, Chen, Porter and Pande).  A placement policy sees one
 * summary per device and the job's declared needs (what MGB's task_begin
 * probe gives: memory, threads per block, blocks) and answers a device or
 * none.  It keeps no state: the caller owns the summaries and updates them
 * with edge_place_add() / edge_place_sub() as jobs come and go, so the
 * module (netlink `place`) and edge-sim account exactly alike.
 *
 * Memory is what makes a placement safe or not: a policy that is blind to
 * it (CG) may answer a device whose memory the job does not fit, and the
 * job's allocation then fails there (the OOM crash of an unsafe
 * scheduler).  The memory-aware policies answer -EBUSY instead.
 */
#ifndef _EDGE_PLACE_H
#define _EDGE_PLACE_H

#include "edge_compat.h"
#include "policy/param.h"

struct edge_preset;

/**
 * struct edge_place_dev - one device as a placement policy sees it
 * @mem_total: its memory, bytes (the preset's mem_bytes)
 * @mem_used: memory held by the jobs placed on it, bytes
 * @sms: SIMT cores
 * @warps_per_sm: resident warps per core
 * @tbs_per_sm: resident thread blocks per core
 * @warp_size: threads per warp
 * @warps_used: warps the placed jobs hold (edge_place_warps() each); may
 *	exceed sms x warps_per_sm under a policy for which compute is soft
 * @tbs_used: thread blocks the placed jobs hold, likewise
 * @jobs: jobs placed on it
 * @live_warps: the front end's live view: warps of the kernels running
 *	or queued on the device now (0 when the caller has no such view).
 *	Only a policy that says so reads it.
 */
struct edge_place_dev {
	u64 mem_total;
	u64 mem_used;
	u32 sms;
	u32 warps_per_sm;
	u32 tbs_per_sm;
	u32 warp_size;
	u32 warps_used;
	u32 tbs_used;
	u32 jobs;
	u32 live_warps;
};

/**
 * struct edge_place_req - a job's declared needs (MGB's task_begin)
 * @mem: device memory it allocates, bytes
 * @threads: threads per block of its largest kernel
 * @blocks: blocks of that kernel
 */
struct edge_place_req {
	u64 mem;
	u32 threads;
	u32 blocks;
};

/**
 * struct edge_place_policy - a placement policy
 * @name: its name in netlink, edge-sim and the documentation; unique
 * @params: its knobs (policy/param.h); none of this level has any yet
 * @nr_params: how many
 * @pick: the index in @devs[@n] of the device for @r, or -EBUSY when none
 *	will take it now.  Reads @devs, changes nothing.
 */
struct edge_place_policy {
	const char *name;
	const struct edge_param *params;
	u32 nr_params;
	int (*pick)(const struct edge_place_dev *devs, u32 n,
		    const struct edge_place_req *r);
};

/* The indices of edge_place_policies[] (policy/table.c). */
enum edge_place_id {
	EDGE_PLACE_SA,		/* single assignment: one job per device */
	EDGE_PLACE_CG,		/* core-to-GPU: fewest jobs, memory-blind */
	EDGE_PLACE_ALG2,	/* MGB Alg. 2: SMs and memory, both hard */
	EDGE_PLACE_ALG3,	/* MGB Alg. 3: memory hard, fewest warps */
	EDGE_PLACE_LIVE,	/* Alg. 3 on the live view (ours) */
	EDGE_PLACE_NR,
};

extern const struct edge_place_policy *const edge_place_policies[EDGE_PLACE_NR];
extern const struct edge_place_policy edge_place_sa, edge_place_cg,
	edge_place_alg2, edge_place_alg3;			/* mgb.c */
extern const struct edge_place_policy edge_place_live;		/* mgblive.c */

int edge_place_pick(u32 policy_id, const struct edge_place_dev *devs, u32 n,
		    const struct edge_place_req *r);
const struct edge_place_policy *edge_place_find(const char *name);
int edge_place_policy_find(const char *name);
const char *edge_place_policy_name(u32 policy_id);

/* Accounting, shared by every caller (policy/mgb.c). */
void edge_place_dev_init(struct edge_place_dev *d, const struct edge_preset *p);
u32 edge_place_tbs(const struct edge_place_dev *d,
		   const struct edge_place_req *r);
u32 edge_place_warps(const struct edge_place_dev *d,
		     const struct edge_place_req *r);
bool edge_place_mem_fits(const struct edge_place_dev *d,
			 const struct edge_place_req *r);
void edge_place_add(struct edge_place_dev *d, const struct edge_place_req *r);
void edge_place_sub(struct edge_place_dev *d, const struct edge_place_req *r);

#endif /* _EDGE_PLACE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spatial multitasking: applications that share the SIMT cores by
 * compute quota (Volta MPS's active-thread percentage, in 10 % steps) and
 * share the global memory bandwidth (gpu/membw.c).
 *
 * A quota is per kernel (struct edge_kinst): a range of cores it may use
 * and the most of them it holds TBs on at once.  Thread-block policies
 * enforce it through their cap hook (edge_quota_cap()) and change it
 * with edge_quota_set(), between kernels or, taking cores back by
 * thread-block preemption, while a kernel runs.
 *
 * An application (struct edge_app) is what the launcher tells the
 * policies about a kernel's owner: whether it is a latency-critical
 * service, the chain of tasks (a query) it runs now with the budget of
 * that chain, and per task a profile of isolated durations and memory
 * bandwidth at each quota step.  The model itself never reads them.
 */
#ifndef _EDGE_QUOTA_H
#define _EDGE_QUOTA_H

#include "edge_compat.h"

struct edge_simt;
struct edge_kinst;
struct edge_kdesc;
struct edge_preset;

#define EDGE_APPS		8	/* edge_kdesc.app: 1 .. EDGE_APPS - 1 */
#define EDGE_APP_TASKS		16	/* tasks in a chain */
#define EDGE_QUOTA_STEPS	10	/* 10 %, 20 %, ... 100 % */

/* A task alone on the GPU at quota step i (i + 1) * 10 %. */
struct edge_task_prof {
	u64 ns[EDGE_QUOTA_STEPS];	/* duration */
	u64 bw_mbs[EDGE_QUOTA_STEPS];	/* memory traffic while it runs */
};

struct edge_app {
	u32 used;
	u32 qos;		/* a latency-critical service */
	u32 nr_tasks;		/* tasks of its chain (a query), or kernels */
	u32 quota_pct;		/* a fixed quota (policy "mps"); 0: 100 % */
	u32 cur_pct;		/* out: the quota a policy gives it now */
	u64 chain_seq;		/* bumped when a chain begins */
	u64 chain_start;	/* ns: the current chain's first task launched */
	u64 chain_budget;	/* ns it may take (target less transfers) */
	struct edge_task_prof prof[EDGE_APP_TASKS];
};

u32 edge_quota_cores(const struct edge_simt *s, u32 pct);
u32 edge_quota_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		   u32 core);
void edge_quota_cap_cores(const struct edge_simt *s,
			  const struct edge_kinst *ki, u32 *first, u32 *len,
			  bool *resident);
u32 edge_quota_set(struct edge_simt *s, struct edge_kinst *ki, u32 first,
		   u32 len, u32 count, bool preempt);
int edge_app_set(struct edge_simt *s, u32 app, const struct edge_app *a);
int edge_app_chain_begin(struct edge_simt *s, u32 app, u64 budget_ns);
const struct edge_app *edge_app_of(const struct edge_simt *s,
				   const struct edge_kinst *ki);

/* membw.c */
u64 edge_membw_stretch(const struct edge_simt *s, const struct edge_kdesc *k,
		       u64 cycles);
u64 edge_membw_stretch_at(const struct edge_simt *s,
			  const struct edge_kdesc *k, u64 cycles, u64 demand);

/* appprof.c: applications of the device's own launcher (emul/model.c) */
u32 edge_membw_demand(const struct edge_preset *p, const struct edge_kdesc *k);
void edge_app_profile(const struct edge_simt *s, const struct edge_kdesc *k,
		      struct edge_task_prof *pr);
u32 edge_app_add(struct edge_simt *s, struct edge_kdesc *k);

#endif /* _EDGE_QUOTA_H */

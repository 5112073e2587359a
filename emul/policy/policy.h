/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduling-policy interface: every policy of the model is an ops
 * table, as every scheduling class of Linux is a struct sched_class.  The
 * core (cp/cp.c, gpu/simt.c) calls the hooks and names no policy; one
 * table per level lists the policies (policy/table.c), and every name in
 * sysfs, netlink, edge-sim, the tests and the documentation comes from
 * it.
 *
 * Three levels:
 *
 * - queue level, struct edge_cp_policy: the command processor.  It
 *   admits (or refuses, or holds) a job whose stream it has inspected,
 *   ranks the kernels it launches, re-ranks them each profiling period,
 *   may drop a job, and says whether it runs on the host (paying the
 *   host-device latency per kernel).
 *
 * - thread-block level, struct edge_tb_policy: the SIMT dispatcher.  It
 *   orders the kernels whose next TB a free core takes, may cap a
 *   kernel's resident TBs per core or keep it off a core (a mask or a
 *   quota of cores), is told when kernels launch and end and TBs start
 *   and end, and may choose the victims of preemption.
 *
 * - placement level, struct edge_place_policy (policy/place.h): which of
 *   several devices a job goes to, from its declared memory and shape
 *   and a summary of each device (MGB's schedulers).
 *
 * A new policy is one file in this folder and one line in table.c;
 * Documentation/policy.rst shows how, with a worked example.
 */
#ifndef _EDGE_POLICY_H
#define _EDGE_POLICY_H

#include "edge_compat.h"
#include "policy/param.h"
#include "policy/place.h"

struct edge_cp;
struct edge_cp_job;
struct edge_simt;
struct edge_kinst;
struct edge_tb;

/* Queue-level policies: the indices of edge_cp_policies[]. */
enum edge_policy {
	EDGE_POL_RR,		/* the baseline: queues in turn */
	EDGE_POL_MLFQ,		/* two levels, 1/3 and 2/3 of the deadline */
	EDGE_POL_EDF,		/* earliest deadline, no preemption */
	EDGE_POL_SJF,		/* shortest job (static length) */
	EDGE_POL_LJF,		/* longest job */
	EDGE_POL_SRF,		/* shortest remaining (LAX's estimator) */
	EDGE_POL_PREMA,		/* tokens, its own interval */
	EDGE_POL_LAX,		/* Algorithms 1 and 2 in the CP */
	EDGE_POL_LAX_SW,	/* LAX on the CPU, static priorities */
	EDGE_POL_LAX_CPU,	/* LAX on the CPU, priority writes */
	EDGE_POL_BAT,		/* BatchMaker: dynamic batching */
	EDGE_POL_BAY,		/* Baymax: regression, QoS headroom */
	EDGE_POL_PRO,		/* Prophet: offline-profiled co-scheduling */
	EDGE_POL_LAXP,		/* LAX, new jobs ranked by their laxity */
	EDGE_POL_NR,
};

/* Flags of a queue-level policy. */
#define EDGE_CPF_HOST		0x1	/* on the CPU: host_ns per kernel */
#define EDGE_CPF_RERANK		0x4	/* ranks change: re-rank each tick */

/**
 * struct edge_cp_policy - a queue-scheduling policy of the command processor
 * @name: its name in sysfs, netlink and edge-sim; unique
 * @flags: EDGE_CPF_*
 * @params: its knobs (policy/param.h), fields of its private data
 * @nr_params: how many
 * @priv_size: bytes of its private data, its knobs and its state.  The CP
 *	keeps one block per policy, whichever runs, so that a knob set
 *	before a switch holds after it; edge_cp_priv() is the running one's.
 * @init: the CP is made and @priv holds the defaults of @params: set up
 *	the rest.  Returns 0 or a negative errno.  NULL: nothing more.
 * @fini: the CP goes; @priv is freed after.  NULL: nothing to do.
 * @inspect_ns: what an inspection costs on top of the CP's parse_ns (a
 *	prediction).  NULL: nothing.
 * @admit: the CP inspected @j's stream: call edge_cp_admit(),
 *	edge_cp_reject() or hold it (EDGE_JOB_HELD).  NULL: admit with rank 0.
 * @rank: the rank of @j's kernels now, smaller first among kernels of one
 *	priority.  NULL: 0 for all (queues in turn).
 * @gather: @lead launches a kernel of class @cls; other admitted jobs may
 *	join it as one launch (batching).  Returns the jobs in it, @lead
 *	included.  NULL: 1.
 * @tick: once per profiling period, after the profiling table is
 *	refreshed and before the SIMT queue is re-ranked (EDGE_CPF_RERANK).
 * @kernel_done: a kernel of the CP's ended and its jobs moved on.
 * @switch_out: another policy takes over; jobs this one holds must not
 *	wait for it any longer.
 */
struct edge_cp_policy {
	const char *name;
	u32 flags;
	const struct edge_param *params;
	u32 nr_params;
	u32 priv_size;
	int (*init)(struct edge_cp *cp, void *priv);
	void (*fini)(struct edge_cp *cp, void *priv);
	u64 (*inspect_ns)(const struct edge_cp *cp);
	void (*admit)(struct edge_cp *cp, struct edge_cp_job *j);
	u64 (*rank)(const struct edge_cp *cp, const struct edge_cp_job *j);
	u32 (*gather)(struct edge_cp *cp, struct edge_cp_job *lead, u16 cls);
	void (*tick)(struct edge_cp *cp);
	void (*kernel_done)(struct edge_cp *cp);
	void (*switch_out)(struct edge_cp *cp);
};

extern const struct edge_cp_policy *const edge_cp_policies[EDGE_POL_NR];

/* Thread-block-level policies: the indices of edge_tb_policies[]. */
enum edge_tb_policy_id {
	EDGE_TBP_DEFAULT,	/* priority, then rank, then launch order */
	EDGE_TBP_SJF_ORACLE,	/* Pai et al.: isolated runtime known */
	EDGE_TBP_MPMAX,		/* room for one TB of each co-runner */
	EDGE_TBP_SRTF,		/* Simple Slicing, hand-off as TBs end */
	EDGE_TBP_SRTF_ADAPTIVE,	/* ... shares when slowdowns spread */
	EDGE_TBP_SRTF_PREEMPT,	/* ... hands cores over by preemption */
	EDGE_TBP_EVEN,		/* MPS: 200 % / n per application */
	EDGE_TBP_PRIORITY,	/* MPS: 100 % service, 100 % / (n-1) batch */
	EDGE_TBP_MPS,		/* MPS: each application's own quota */
	EDGE_TBP_BAYMAX,	/* one task at a time, QoS headroom */
	EDGE_TBP_CLAIUS,	/* just-enough quota, bandwidth, compensator */
	EDGE_TBP_CLAIUS_NB,	/* ... without the bandwidth constraint */
	EDGE_TBP_CLAIUS_NC,	/* ... without the lag compensator */
	EDGE_TBP_CLAIUS_PRE,	/* ... quotas act on running kernels */
	EDGE_TBP_STATIC,	/* fixed just-enough quotas (two services) */
	EDGE_TBP_CLAIUS_SCALED,	/* ... predictions scaled by the lag */
	EDGE_TBP_NR,
};

/* edge_tb_policy.cap(): no limit. */
#define EDGE_TB_NOCAP		0xffffffffU

/**
 * struct edge_tb_policy - a thread-block dispatch policy of the SIMT cores
 * @name: its name in sysfs, netlink and edge-sim; unique
 * @params: its knobs (policy/param.h); none of this level has any yet
 * @nr_params: how many
 * @init: the policy takes over @s (at init or a switch); may allocate
 *	its state into @priv.  Returns 0 or a negative errno, and then
 *	nothing changed.  NULL: no state.
 * @fini: it gives @s up; frees @priv.
 * @before: true when @a's next TB goes before @b's, for two kernels of one
 *	priority.  NULL: the CP's rank, then launch order.  A policy whose
 *	order changes calls edge_simt_requeue().
 * @cap: the most TBs of @ki that may be resident on @core at once;
 *	EDGE_TB_NOCAP for none, 0 to keep @ki off @core (a mask or a quota
 *	of cores).  A kernel held back by its cap does not block the
 *	kernels queued behind it.  NULL: no cap.
 * @cap_cores: the only cores @cap may let @ki on now: *@len of them from
 *	*@first (wrapping; *@first below num_cores, *@len at most that; preset
 *	to every core), and of those, when it sets *@resident, only the
 *	ones @ki holds TBs on already; @cap is 0 on the others.  For the TB
 *	search, which then asks @cap about those alone; it must change
 *	nothing.  NULL: every core.
 * @kernel_launch: @ki entered the SIMT queues.
 * @kernel_end: @ki completed or was cancelled; its last TB is gone.
 * @tb_start: @tb was placed (its duration is set at the end of the pass).
 * @tb_end: @tb finished, or was preempted off its core.
 * @victim: choose which resident TB of @core to preempt for @ki, or NULL
 *	for none.  NULL hook: the youngest TB of a kernel queued after @ki.
 *
 * A policy keeps its per-device state in edge_simt.tbp_priv.
 */
struct edge_tb_policy {
	const char *name;
	const struct edge_param *params;
	u32 nr_params;
	int (*init)(struct edge_simt *s, void **priv);
	void (*fini)(struct edge_simt *s, void *priv);
	bool (*before)(const struct edge_simt *s, const struct edge_kinst *a,
		       const struct edge_kinst *b);
	u32 (*cap)(const struct edge_simt *s, const struct edge_kinst *ki,
		   u32 core);
	void (*cap_cores)(const struct edge_simt *s,
			  const struct edge_kinst *ki, u32 *first, u32 *len,
			  bool *resident);
	void (*kernel_launch)(struct edge_simt *s, struct edge_kinst *ki);
	void (*kernel_end)(struct edge_simt *s, struct edge_kinst *ki);
	void (*tb_start)(struct edge_simt *s, struct edge_tb *tb);
	void (*tb_end)(struct edge_simt *s, struct edge_tb *tb);
	struct edge_tb *(*victim)(struct edge_simt *s, u32 core,
				  const struct edge_kinst *ki);
};

extern const struct edge_tb_policy *const edge_tb_policies[EDGE_TBP_NR];

const char *edge_cp_policy_name(u32 policy);
int edge_cp_policy_find(const char *name);
const char *edge_tb_policy_name(u32 policy);
int edge_tb_policy_find(const char *name);

/* The queue level's knobs, every policy's, by name (policy/table.c). */
const struct edge_param *edge_cp_param_find(const char *name, u32 *policy);

/* The policies, one family per file; table.c is the only list of them. */
extern const struct edge_cp_policy edge_pol_rr, edge_pol_mlfq, edge_pol_edf,
	edge_pol_sjf, edge_pol_ljf, edge_pol_srf;		/* simple.c */
extern const struct edge_cp_policy edge_pol_prema;		/* prema.c */
u64 edge_prema_tokens(const struct edge_cp *cp, const struct edge_cp_job *j);
extern const struct edge_cp_policy edge_pol_lax, edge_pol_lax_sw,
	edge_pol_lax_cpu, edge_pol_laxp;			/* lax.c */
extern const struct edge_cp_policy edge_pol_bat, edge_pol_bay,
	edge_pol_pro;						/* host.c */
extern const struct edge_tb_policy edge_tbp_default;		/* tb_default.c */
extern const struct edge_tb_policy edge_tbp_sjf_oracle, edge_tbp_mpmax;	/* share.c */
extern const struct edge_tb_policy edge_tbp_srtf, edge_tbp_srtf_adaptive,
	edge_tbp_srtf_preempt;					/* srtf.c */

/* SRTF's predictor and sharing state, for tools and tests (srtf.c). */
struct edge_slicing;
const struct edge_slicing *edge_srtf_predictor(const struct edge_simt *s);
bool edge_srtf_sharing(const struct edge_simt *s);

extern const struct edge_tb_policy edge_tbp_even, edge_tbp_priority,
	edge_tbp_mps;						/* mps.c */
extern const struct edge_tb_policy edge_tbp_baymax;		/* baymax.c */
extern const struct edge_tb_policy edge_tbp_claius, edge_tbp_claius_nb,
	edge_tbp_claius_nc, edge_tbp_claius_pre, edge_tbp_static,
	edge_tbp_claius_scaled;					/* claius.c */

/* Spatial multitasking's shared rules (mps.c): services go first. */
bool edge_sp_qos(const struct edge_simt *s, const struct edge_kinst *ki);
bool edge_sp_before(const struct edge_simt *s, const struct edge_kinst *a,
		    const struct edge_kinst *b);
u32 edge_sp_apps(const struct edge_simt *s, u32 *services);

/* The LAX family's Algorithm 1, shared with Baymax (policy/lax.c). */
bool edge_lax_admits(const struct edge_cp *cp, const struct edge_cp_job *j,
		     bool offline, u64 *hold);

#endif /* _EDGE_POLICY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command processor: jobs with deadlines on compute queues, and the
 * queue scheduler that decides which job's kernel the SIMT model sees
 * first (LAX, Iyer et al., and the policies it is compared with).
 *
 * A job is a stream of dependent kernels.  The CP inspects a job's stream
 * when it arrives (its kernel list and work-group counts go into the job
 * table), may refuse it (admission), launches its kernels one after the
 * other into the SIMT model with a rank, and re-ranks the waiting kernels
 * as the policy's priorities change.  The SIMT model issues work-groups
 * (TBs) from the best-ranked kernel first, then the next, until the cores
 * are full.
 */
#ifndef _EDGE_CP_H
#define _EDGE_CP_H

#include "edge_compat.h"
#include "gpu/engine.h"
#include "gpu/simt.h"
#include "policy/policy.h"

#define EDGE_CP_QUEUES		128	/* compute queues (LAX Table 2) */
#define EDGE_CP_JOBS		256	/* job table slots */
#define EDGE_CP_CLASSES		64	/* kernel profiling table entries */
#define EDGE_CP_JOB_KERNELS	2048	/* kernels in one job */
#define EDGE_CP_JOB_CLASSES	16	/* distinct kernels in one job */

/* Kernel cookies of the CP have this bit; the ring path's never do. */
#define EDGE_CP_COOKIE		BIT_ULL(63)

/* Ranks: below every finite laxity, and last of all. */
#define EDGE_RANK_LOW		BIT_ULL(62)
#define EDGE_RANK_INF		(~0ULL)

enum edge_job_state {
	EDGE_JOB_FREE,
	EDGE_JOB_QUEUED,	/* behind another job on its compute queue */
	EDGE_JOB_PARSE,		/* waiting for the CP to inspect its stream */
	EDGE_JOB_HELD,		/* admitted later (Prophet holds jobs) */
	EDGE_JOB_READY,		/* admitted, no kernel launched yet */
	EDGE_JOB_RUNNING,
	EDGE_JOB_DONE,		/* every kernel completed */
	EDGE_JOB_REJECTED,	/* refused by admission; nothing ran */
	EDGE_JOB_CANCELLED,
	EDGE_JOB_DROPPED,	/* cancelled by its policy: past its deadline */
};

struct edge_cp_cfg {
	u32 policy;		/* enum edge_policy */
	u32 parse_ns;		/* CP time per stream action: 4 per 2 us */
	u32 host_ns;		/* CPU-side policies: host-device, per kernel */
	u32 profile_ns;		/* profiling table and priority refresh */
};

/* One kernel of the profiling table: what a job's WG list refers to. */
struct edge_cp_class {
	bool used;
	struct edge_kdesc k;
	u64 iso_ns;		/* offline profile: runtime alone */
	u64 iso_work_ns;	/* ... its GPU time: iso_ns x its share */
	u32 cap_wgs;		/* its work-groups the GPU holds at once */
	u64 lat_ns;		/* measured runtime; 0 until one completed */
	u64 work_ns;		/* measured GPU time: TB-time / TB slots */
	u64 svc_ns;		/* measured service: mean TB time x waves */
	u64 waves;		/* its TBs over the GPU's slots, rounded up */
	u64 win_svc;
	u64 win_ns;		/* this window: runtimes of completed ones */
	u64 win_work;		/* ... their GPU time */
	u32 win_n;		/* ... and how many */
	u32 inflight;		/* launched, not completed */
};

/* What a submitter gives: the kernel list, by profiling-table index. */
struct edge_cp_jobdesc {
	u64 cookie;		/* the submitter's handle, reported back */
	u32 queue;		/* compute queue, < EDGE_CP_QUEUES */
	u64 deadline_ns;	/* relative to submission */
	u32 nr_kernels;
	const u16 *kernels;	/* copied */
};

struct edge_cp_job {
	u32 state;		/* enum edge_job_state */
	u32 idx;
	u32 gen;
	u64 cookie;
	u32 queue;
	u64 arrival;		/* ns */
	u64 deadline;		/* ns, relative */
	u64 admitted;		/* ns */
	u64 done_at;		/* ns */
	u16 *kern;
	u32 nr_kern;
	u32 next;		/* next kernel to launch */
	u32 inflight;		/* index + 1 of the job leading its batch */
	bool pending;		/* a launch action is queued */
	u32 act;		/* the action waiting for the CP, or 0 */
	u32 act_pos;		/* ... its place in edge_cp.act_list */
	u64 act_seq;		/* ... its place in arrival order */
	u64 act_extra;		/* ... time after the CP, before it acts */
	/* Remaining kernels per class, for the estimates. */
	u32 nr_cls;
	u16 cls[EDGE_CP_JOB_CLASSES];
	u32 left[EDGE_CP_JOB_CLASSES];
	u64 wgs_total;
	u64 wgs_done;
	u64 static_len;		/* SJF/LJF, BAY/PRO: offline length, ns */
	u64 rank;
	struct edge_cp_job *qnext;	/* compute queue FIFO */
};

struct edge_cp_stats {
	u64 submitted;
	u64 rejected;
	u64 done;
	u64 met;		/* done by the deadline */
	u64 cancelled;
	u64 dropped;		/* LAX-P: past the deadline */
	u64 wgs_met;		/* work-groups of jobs that met */
	u64 wgs_all;		/* every completed work-group */
	u64 kernels;		/* kernels launched */
	struct edge_lat lat;	/* job latency, us */
};

typedef void (*edge_cp_done_fn)(void *ctx, u64 cookie, u32 state, bool met);

struct edge_cp {
	struct edge_simt *s;
	struct edge_engine *eng;
	struct edge_cp_cfg cfg;
	edge_cp_done_fn done;
	void *ctx;
	struct edge_cp_class cls[EDGE_CP_CLASSES];
	struct edge_cp_job jobs[EDGE_CP_JOBS];
	u16 *pool;		/* the jobs' kernel lists */
	struct edge_cp_job *qhead[EDGE_CP_QUEUES];
	struct edge_cp_job *qtail[EDGE_CP_QUEUES];
	u32 active;		/* jobs not FREE */
	u32 batched;		/* jobs in flight in another job's batch */
	u32 nr_act;		/* jobs with an action waiting for the CP */
	u16 act_list[EDGE_CP_JOBS];	/* ... which, in no order */
	u64 act_seq;		/* actions requested so far */
	bool serving;		/* the CP works on an action ... */
	u32 serve_idx;		/* ... of this job */
	u32 serve_gen;		/* ... in this incarnation */
	u32 serve_act;
	u64 serve_extra;
	u32 serve_evgen;	/* its EDGE_EV_CP_SERVE */
	bool ticking;
	u32 tick_gen;		/* ... counts the times they started */
	u64 tick_start;		/* ... when they last started, ns */
	void *priv[EDGE_POL_NR];	/* each policy's (policy/policy.h) */
	struct edge_cp_stats st;
};

int edge_cp_init(struct edge_cp *cp, struct edge_simt *s,
		 const struct edge_cp_cfg *cfg, edge_cp_done_fn done,
		 void *ctx);
void edge_cp_fini(struct edge_cp *cp);
void edge_cp_default_cfg(struct edge_cp_cfg *cfg);
int edge_cp_set_policy(struct edge_cp *cp, u32 policy);
int edge_cp_set_timing(struct edge_cp *cp, const struct edge_cp_cfg *cfg);
int edge_cp_set_class(struct edge_cp *cp, u32 idx,
		      const struct edge_kdesc *k);
int edge_cp_clear_class(struct edge_cp *cp, u32 idx);
int edge_cp_submit(struct edge_cp *cp, const struct edge_cp_jobdesc *d);
bool edge_cp_handle(struct edge_cp *cp, const struct edge_ev *ev);
bool edge_cp_kernel_done(struct edge_cp *cp, u64 cookie, u32 code);
u32 edge_cp_cancel(struct edge_cp *cp, bool (*match)(u64 cookie, void *arg),
		   void *arg);
u32 edge_cp_cancel_all(struct edge_cp *cp);
bool edge_cp_idle(const struct edge_cp *cp);
u32 edge_cp_engine_room(void);

/* For the policies (policy/): the CP's services and estimates. */
static inline bool edge_cp_admitted(const struct edge_cp_job *j)
{
	return j->state == EDGE_JOB_READY || j->state == EDGE_JOB_RUNNING;
}

static inline const struct edge_cp_policy *edge_cp_ops(const struct edge_cp *cp)
{
	return edge_cp_policies[cp->cfg.policy];
}

/* The running policy's private data (its knobs and state), or NULL. */
static inline void *edge_cp_priv(const struct edge_cp *cp)
{
	return cp->priv[cp->cfg.policy];
}

int edge_cp_param_set(struct edge_cp *cp, const char *name, u64 v,
		      const struct edge_param **pp);
int edge_cp_param_get(const struct edge_cp *cp, const char *name, u64 *v);

void edge_cp_admit(struct edge_cp *cp, struct edge_cp_job *j, u64 rank);
void edge_cp_reject(struct edge_cp *cp, struct edge_cp_job *j);
void edge_cp_drop(struct edge_cp *cp, struct edge_cp_job *j);
void edge_cp_inspect(struct edge_cp *cp, struct edge_cp_job *j);
u64 edge_cp_stored_rank(const struct edge_cp *cp, const struct edge_cp_job *j);
u32 edge_cp_preempt_for_best(struct edge_cp *cp, u32 left_pct);
u64 edge_cp_rem_measured(const struct edge_cp *cp, const struct edge_cp_job *j);
u64 edge_cp_rem_offline(const struct edge_cp *cp, const struct edge_cp_job *j);
u64 edge_cp_rem_service(const struct edge_cp *cp, const struct edge_cp_job *j);
u64 edge_cp_rem_work(const struct edge_cp *cp, const struct edge_cp_job *j,
		     bool offline);

/* The profiling table (cp/profile.c), for cp.c. */
void edge_cp_profile_done(struct edge_cp *cp, struct edge_cp_class *c);
void edge_cp_profile_tick(struct edge_cp *cp);

#endif /* _EDGE_CP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model: EKT + rings + engine + execution model.
 *
 * Single-threaded by contract: only one caller at a time (in edge.ko, the
 * device's front-end thread, or an ioctl holding drv/'s model lock).
 */
#ifndef _EDGE_MODEL_H
#define _EDGE_MODEL_H

#include "edge_compat.h"
#include "gpu/engine.h"
#include "ekt.h"
#include "cp/cp.h"
#include "gpu/preset.h"
#include "gpu/simt.h"
#include "limits.h"

/* An EKT id is a SIMT statistics tag (edge_simt_launch_as()). */
#if EDGE_SIMT_TAGS < EDGE_EKT_ENTRIES
#error "an EKT id must be a SIMT statistics tag"
#endif
/* An EKT id is a profiling-table index and a bit of a job's ekt_mask. */
#if EDGE_CP_CLASSES < EDGE_EKT_ENTRIES
#error "an EKT id must be an index of the CP's profiling table"
#endif
#if EDGE_EKT_ENTRIES > 64
#error "an EKT id must be a bit of a u64 mask"
#endif

struct edge_model_stats {
	u64 submitted;		/* parameter entries consumed */
	u64 completed;		/* EDGE_CQE_DONE */
	u64 errors;		/* EDGE_CQE_ERROR */
	u64 rejected;		/* EDGE_CQE_REJECTED */
	u64 cancelled;		/* EDGE_CQE_CANCELLED */
	u64 late;		/* EDGE_CQE_DONE after the event's deadline */
	u64 batch_warps;	/* event warps of batched entries launched */
	/* Jobs: every submitted one ends done, rejected or cancelled. */
	u64 jobs_submitted;
	u64 jobs_done;
	u64 jobs_met;		/* done within the deadline */
	u64 jobs_rejected;	/* refused by the CP's admission */
	u64 jobs_cancelled;
};

/* What a job's submitter learns when it ends. */
struct edge_job_end {
	u64 user_data;
	u64 id;
	u32 status;		/* EDGE_CQE_DONE, _REJECTED or _CANCELLED */
	bool met;
	bool dropped;		/* CANCELLED by the policy (LAX-P: past its deadline) */
	u64 latency_ns;		/* model time, submission to end */
};

/* Called, with the model lock held, when a job of @owner ended. */
typedef void (*edge_job_notify_fn)(void *owner, const struct edge_job_end *e);

/* A job as the model tracks it for its submitter (one per CP job slot). */
struct edge_model_job {
	bool used;
	u32 gen;
	void *owner;
	u64 id;
	u64 user_data;
	u64 submitted;		/* ns */
	u64 ekt_mask;		/* EKT ids its kernels name */
};

/* A job as its submitter describes it; @kernels are EKT ids of @owner. */
struct edge_model_jobdesc {
	u32 queue;
	u64 deadline_ns;
	u32 nr_kernels;
	const u16 *kernels;
	u64 user_data;
};

/* Called after completions were published on an entry of @owner. */
typedef void (*edge_notify_fn)(void *owner, u32 id);

struct edge_model {
	const struct edge_preset *preset;
	struct edge_ekt ekt;
	struct edge_engine eng;
	struct edge_simt simt;
	struct edge_model_stats st;
	u32 inflight;		/* all entries */
	u64 k_keys;		/* the last registration's k_key */
	u64 live;		/* EKT ids registered: the doorbells to poll */
	/*
	 * Per EKT id, what a poll of its doorbell needs, packed: the word,
	 * the entry's head (ring.head's copy) and where it is published.  Walking the entries
	 * themselves touched a 700-byte struct per entry per step.
	 */
	u32 *poll_db[EDGE_EKT_ENTRIES];
	u32 poll_head[EDGE_EKT_ENTRIES];
	u32 *poll_sqh[EDGE_EKT_ENTRIES];	/* its sq_head word */
	/*
	 * Doorbell summaries (uapi "Doorbell summary"): the distinct words
	 * registered entries' producers set bits in, with how many entries
	 * use each, and per id the index of its word.  @always: the live
	 * ids without one (host tests), polled every step as before.
	 */
	u64 *sum[EDGE_EKT_ENTRIES];
	u32 sum_refs[EDGE_EKT_ENTRIES];
	u8 sum_of[EDGE_EKT_ENTRIES];
	u32 nr_sum;
	u64 always;
	u64 again;		/* ids that backpressure left work in */
	bool gather_room;	/* the engine holds an EDGE_EV_GATHER an id */
	u32 scan_steps;		/* steps since every live entry was polled */
	bool scan_all;		/* poll every live entry at the next step */
	u32 sq_flags;		/* EDGE_SQ_* every ring shows now */
	edge_notify_fn notify;
	/* The command processor, above the SIMT model's KMU. */
	struct edge_cp *cp;
	struct edge_model_job *jobs;	/* EDGE_CP_JOBS */
	u32 job_refs[EDGE_EKT_ENTRIES];	/* unfinished jobs naming each id */
	u64 job_seq;			/* last job id handed out */
	edge_job_notify_fn job_notify;	/* set by the owner after init */
};

/* Where a registered entry's shared memory is. */
struct edge_ring_mem {
	u32 *doorbells;		/* one word per EKT id; the entry takes its own */
	/* the page's doorbell summary; NULL: none, poll at every step */
	u64 *summary;
	void *sq;
	void *cq;
	struct edge_ring_layout layout;
};

int edge_model_init(struct edge_model *m, const struct edge_preset *p,
		    edge_notify_fn notify);
void edge_model_fini(struct edge_model *m);
int edge_model_register(struct edge_model *m, const struct edge_kdesc *k,
			const struct edge_ring_mem *mem, void *owner, u32 *id);
int edge_model_unregister(struct edge_model *m, u32 id, void *owner);
u32 edge_model_cancel(struct edge_model *m, u32 id);
u32 edge_model_poll(struct edge_model *m);
u32 edge_model_consume_rung(struct edge_model *m);

/**
 * edge_model_consume() - take every rung doorbell into the SIMT queues
 * @m: the model
 *
 * Without the scheduling pass: the front end splits the two to
 * time-stamp consumption (drv/kapi.c); a caller of this must call
 * edge_model_schedule() when it returns non-zero.  Inline for the usual
 * step of a user entry's front end: one summary word, nothing in it, no
 * poll of every entry due; what the rest would do then is count the
 * step, so that is all it does, without a call.
 *
 * Return: the events consumed.
 */
static inline u32 edge_model_consume(struct edge_model *m)
{
	/* The summary first: when it is set, nothing else is looked at. */
	if (m->nr_sum == 1 && !edge_read_once(*m->sum[0]) &&
	    !(m->always | m->again) && !m->scan_all &&
	    m->scan_steps + 1 < EDGE_DB_SCAN_STEPS) {
		m->scan_steps++;
		return 0;
	}
	return edge_model_consume_rung(m);
}

bool edge_model_rung(struct edge_model *m);
void edge_model_schedule(struct edge_model *m);
u32 edge_model_run_until(struct edge_model *m, u64 until);
u32 edge_model_run_budget(struct edge_model *m, u64 until, u32 budget);
u32 edge_model_run_next(struct edge_model *m, u32 budget);

/**
 * edge_model_schedule_run() - the scheduling pass, then run what is due
 * @m: the model
 * @to_next: run to the next event's time after the pass (virtual time),
 *	else to now
 * @budget: at most this many model events
 *
 * edge_model_schedule() then edge_model_run_budget(m, until, @budget),
 * with until edge_model_next_time() after the pass (@to_next) or
 * edge_model_now(), as a front-end step that consumed something does.
 * Nothing happens between the two, so event warps the pass puts on free
 * resources start in place (edge_simt_schedule_tail()): the same events
 * in the same order, those counted against @budget as events.
 *
 * Inline: every step that consumed something takes it.
 *
 * Return: the model events run.
 */
static inline u32 edge_model_schedule_run(struct edge_model *m, bool to_next,
					  u32 budget)
{
	u32 n;

	m->eng.fold_left = budget;
	m->eng.folded = 0;
	m->eng.until = to_next ? EDGE_TIME_NEVER : m->eng.now;
	edge_simt_schedule_tail(&m->simt);
	m->eng.until = 0;
	n = m->eng.folded;
	m->eng.fold_left = ~0U;
	/*
	 * A launch that ran in place was due now: the run stops at now, and
	 * when nothing queued is due by then it would pop nothing.
	 */
	if (n && edge_engine_none_due(&m->eng))
		return n;
	if (to_next && !n)
		return edge_model_run_next(m, budget);
	return n + edge_model_run_budget(m, m->eng.now, budget - n);
}

/* Inline: the idle front end asks at every step (engine.h's, inline). */
static inline u64 edge_model_next_time(const struct edge_model *m)
{
	return edge_engine_next_time(&m->eng);
}

static inline u64 edge_model_now(const struct edge_model *m)
{
	return m->eng.now;
}

void edge_model_advance(struct edge_model *m, u64 now);
bool edge_model_doorbell_pending(const struct edge_model *m);
void edge_model_rescan(struct edge_model *m);
void edge_model_set_sq_flags(struct edge_model *m, u32 flags);
int edge_model_set_cfg(struct edge_model *m, const struct edge_simt_cfg *cfg);
int edge_model_submit_job(struct edge_model *m, void *owner,
			  const struct edge_model_jobdesc *d, u64 *id);
u32 edge_model_cancel_jobs(struct edge_model *m, void *owner);
int edge_model_set_policy(struct edge_model *m, u32 policy);
u32 edge_model_policy(const struct edge_model *m);
struct edge_cp_cfg edge_model_cp_cfg(const struct edge_model *m);
const struct edge_cp_job *edge_model_job_cp(const struct edge_model *m,
					    u32 slot);
int edge_model_set_cp_timing(struct edge_model *m, const struct edge_cp_cfg *cfg);
int edge_model_param_set(struct edge_model *m, const char *name, u64 v,
			 const struct edge_param **pp);
int edge_model_param_get(const struct edge_model *m, const char *name, u64 *v);

#endif /* _EDGE_MODEL_H */

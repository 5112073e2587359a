// SPDX-License-Identifier: GPL-2.0
/*
 * The command processor and its queue-scheduling policies.
 *
 * Model of LAX (Iyer et al.) Sections 4-5: the CP inspects each job's
 * stream when it arrives (four streams per 2 us: each stream action costs
 * parse_ns of serial CP time), keeps a job table (kernel list and
 * work-group counts) and a kernel profiling table (work-group completion
 * rates measured from the model, refreshed every profile_ns), admits or
 * rejects the job, and launches its kernels in order into the SIMT model
 * with a rank; the SIMT-core scheduler issues work-groups from the best
 * rank first.  The CPU-side policies (LAX-SW, LAX-CPU, BAT, BAY, PRO) pay
 * host_ns of host-device latency per kernel.
 *
 * The policies are ops tables (policy/policy.h), one file per family in
 * policy/; this file names none of them.  Documentation/lax.rst lists
 * each policy's simplifications, Documentation/policy.rst the interface.
 */
#include "cp/cp.h"

enum { ACT_NONE, ACT_PARSE, ACT_LAUNCH };

void edge_cp_default_cfg(struct edge_cp_cfg *cfg)
{
	cfg->policy = 0;		/* the table's first: the baseline */
	cfg->parse_ns = 500;		/* four streams per 2 us */
	cfg->host_ns = 4000;		/* 4 us per kernel, host-device */
	cfg->profile_ns = 100000;	/* 100 us */
}

/* Engine room: an action's effect per job, the one served, the tick. */
u32 edge_cp_engine_room(void)
{
	return EDGE_CP_JOBS + 3;
}

/*
 * Each policy's private data, its knobs at their defaults: one block per
 * policy for the CP's life, so that knobs hold across switches.
 */
static int policies_init(struct edge_cp *cp)
{
	u32 i;
	int ret;

	for (i = 0; i < EDGE_POL_NR; i++) {
		const struct edge_cp_policy *pol = edge_cp_policies[i];

		if (!pol->priv_size)
			continue;
		cp->priv[i] = edge_zalloc(pol->priv_size);
		if (!cp->priv[i])
			return -ENOMEM;
		edge_param_defaults(pol->params, pol->nr_params, cp->priv[i]);
		ret = pol->init ? pol->init(cp, cp->priv[i]) : 0;
		if (ret) {
			edge_free(cp->priv[i]);
			cp->priv[i] = NULL;
			return ret;
		}
	}
	return 0;
}

int edge_cp_init(struct edge_cp *cp, struct edge_simt *s,
		 const struct edge_cp_cfg *cfg, edge_cp_done_fn done,
		 void *ctx)
{
	u32 i;

	memset(cp, 0, sizeof(*cp));
	if (cfg->policy >= EDGE_POL_NR)
		return -EINVAL;
	cp->s = s;
	cp->eng = s->eng;
	cp->cfg = *cfg;
	if (edge_cp_set_timing(cp, cfg))
		return -EINVAL;
	cp->done = done;
	cp->ctx = ctx;
	cp->pool = edge_zalloc(sizeof(*cp->pool) * EDGE_CP_JOBS *
			       EDGE_CP_JOB_KERNELS);
	if (!cp->pool)
		return -ENOMEM;
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		cp->jobs[i].idx = i;
		cp->jobs[i].kern = cp->pool + (size_t)i * EDGE_CP_JOB_KERNELS;
	}
	if (policies_init(cp)) {
		edge_cp_fini(cp);
		return -ENOMEM;
	}
	if (edge_engine_reserve(cp->eng, cp->eng->cap + edge_cp_engine_room())) {
		edge_cp_fini(cp);
		return -ENOMEM;
	}
	return 0;
}

void edge_cp_fini(struct edge_cp *cp)
{
	u32 i;

	for (i = 0; i < EDGE_POL_NR; i++) {
		const struct edge_cp_policy *pol = edge_cp_policies[i];

		if (!cp->priv[i])
			continue;
		if (pol->fini)
			pol->fini(cp, cp->priv[i]);
		edge_free(cp->priv[i]);
		cp->priv[i] = NULL;
	}
	edge_free(cp->pool);
	cp->pool = NULL;
}

/**
 * edge_cp_param_set() - set a queue-level policy's knob, by name
 * @cp: the command processor
 * @name: the knob's name (every policy's knobs are looked in)
 * @v: its new value
 * @pp: where the knob goes, found or not (NULL: unknown), or NULL
 *
 * The knob is its policy's whether that policy runs or not.
 *
 * Return: 0, -EINVAL for an unknown name, -ERANGE for a value outside
 * the knob's limits (then nothing changed).
 */
int edge_cp_param_set(struct edge_cp *cp, const char *name, u64 v,
		      const struct edge_param **pp)
{
	const struct edge_param *p;
	u32 pol;

	p = edge_cp_param_find(name, &pol);
	if (pp)
		*pp = p;
	if (!p || !cp->priv[pol])
		return -EINVAL;
	return edge_param_set(p, cp->priv[pol], v);
}

/**
 * edge_cp_param_get() - a queue-level policy's knob, by name
 * @cp: the command processor
 * @name: the knob's name
 * @v: its value
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int edge_cp_param_get(const struct edge_cp *cp, const char *name, u64 *v)
{
	const struct edge_param *p;
	u32 pol;

	p = edge_cp_param_find(name, &pol);
	if (!p || !cp->priv[pol])
		return -EINVAL;
	*v = edge_param_get(p, cp->priv[pol]);
	return 0;
}

static void cp_request(struct edge_cp *cp, struct edge_cp_job *j, u32 act,
		       u64 extra);

/*
 * The CP's costs and its profiling period, not the policy nor the
 * policies' knobs: -EINVAL unless each is in range (the period 1 us to
 * 1 s, costs at most 1 s), and then nothing changes.  A new profile
 * period applies from the next tick.
 */
int edge_cp_set_timing(struct edge_cp *cp, const struct edge_cp_cfg *cfg)
{
	const u32 s = 1000000000U;

	if (cfg->profile_ns < 1000 || cfg->profile_ns > s ||
	    cfg->parse_ns > s || cfg->host_ns > s)
		return -EINVAL;
	cp->cfg.parse_ns = cfg->parse_ns;
	cp->cfg.host_ns = cfg->host_ns;
	cp->cfg.profile_ns = cfg->profile_ns;
	return 0;
}

int edge_cp_set_policy(struct edge_cp *cp, u32 policy)
{
	const struct edge_cp_policy *old;

	if (policy >= EDGE_POL_NR)
		return -EINVAL;
	/* Jobs in flight keep their state; ranks follow at the next tick. */
	old = edge_cp_ops(cp);
	cp->cfg.policy = policy;
	if (old != edge_cp_ops(cp) && old->switch_out)
		old->switch_out(cp);
	return 0;
}

/* The policy's rank of @j's kernels now. */
static u64 rank_now(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	const struct edge_cp_policy *pol = edge_cp_ops(cp);

	return pol->rank ? pol->rank(cp, j) : 0;
}

/*
 * The CP serves one action at a time, parse_ns each: it inspects a job's
 * stream (admission) or launches its next kernel.  Waiting actions are
 * served in the policy's order (its rank of their jobs), then in the
 * order they came: with many small kernels per job the CP itself is the
 * bottleneck, and a FIFO there would make every policy the same.
 */
static void act_take(struct edge_cp *cp, struct edge_cp_job *j)
{
	u16 last = cp->act_list[--cp->nr_act];

	cp->act_list[j->act_pos] = last;
	cp->jobs[last].act_pos = j->act_pos;
	j->act = ACT_NONE;
}

static void cp_serve(struct edge_cp *cp)
{
	struct edge_cp_job *best = NULL;
	u64 best_rank = 0;
	u32 i;
	int ret;

	if (cp->serving || !cp->nr_act)
		return;
	for (i = 0; i < cp->nr_act; i++) {
		struct edge_cp_job *j = &cp->jobs[cp->act_list[i]];
		u64 r = cp->nr_act > 1 ? rank_now(cp, j) : 0;

		if (!best || r < best_rank ||
		    (r == best_rank && j->act_seq < best->act_seq)) {
			best = j;
			best_rank = r;
		}
	}
	cp->serving = true;
	cp->serve_idx = best->idx;
	cp->serve_gen = best->gen;
	cp->serve_act = best->act;
	cp->serve_extra = best->act_extra;
	act_take(cp, best);
	ret = edge_engine_push(cp->eng, cp->eng->now + cp->cfg.parse_ns,
			       EDGE_EV_CP_SERVE, 0, 0, ++cp->serve_evgen);
	EDGE_ASSERT(!ret);
}

/* Queue an action for @j on the CP; it takes effect @extra after it. */
static void cp_request(struct edge_cp *cp, struct edge_cp_job *j, u32 act,
		       u64 extra)
{
	if (act == ACT_LAUNCH) {
		if (j->pending)
			return;
		j->pending = true;
	}
	/* A job has one action at a time: a launch follows its parse. */
	EDGE_ASSERT(!j->act);
	j->act = act;
	j->act_seq = cp->act_seq++;
	j->act_extra = extra;
	j->act_pos = cp->nr_act;
	cp->act_list[cp->nr_act++] = j->idx;
	cp_serve(cp);
}

/* A job leaves: an action it still waits for goes with it. */
static void act_forget(struct edge_cp *cp, struct edge_cp_job *j)
{
	if (j->act)
		act_take(cp, j);
}

static void tick_arm(struct edge_cp *cp)
{
	int ret;

	if (cp->ticking)
		return;
	cp->ticking = true;
	cp->tick_gen++;
	cp->tick_start = cp->eng->now;
	ret = edge_engine_push(cp->eng, cp->eng->now + cp->cfg.profile_ns,
			       EDGE_EV_CP_TICK, 0, 0, cp->tick_gen);
	EDGE_ASSERT(!ret);
}

/* The rank a policy stored in the job (at admission or at its tick). */
u64 edge_cp_stored_rank(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	(void)cp;
	return j->rank;
}

/* Host-device latency of a kernel launch: CPU-side policies pay it. */
static u64 host_ns(const struct edge_cp *cp)
{
	return edge_cp_ops(cp)->flags & EDGE_CPF_HOST ? cp->cfg.host_ns : 0;
}

/*
 * @j reached the head of its queue, or a policy lets go of a job it held:
 * the CP inspects it (a predicting policy pays its prediction).
 */
void edge_cp_inspect(struct edge_cp *cp, struct edge_cp_job *j)
{
	const struct edge_cp_policy *pol = edge_cp_ops(cp);

	j->state = EDGE_JOB_PARSE;
	cp_request(cp, j, ACT_PARSE, pol->inspect_ns ? pol->inspect_ns(cp) : 0);
}

/* Count the kernel list by class, for the estimates. */
static int job_classes(struct edge_cp *cp, struct edge_cp_job *j)
{
	u32 i, c;

	j->nr_cls = 0;
	j->wgs_total = 0;
	j->static_len = 0;
	for (i = 0; i < j->nr_kern; i++) {
		const struct edge_cp_class *k = &cp->cls[j->kern[i]];

		for (c = 0; c < j->nr_cls; c++)
			if (j->cls[c] == j->kern[i])
				break;
		if (c == j->nr_cls) {
			if (c == EDGE_CP_JOB_CLASSES)
				return -E2BIG;
			j->cls[c] = j->kern[i];
			j->left[c] = 0;
			j->nr_cls++;
		}
		j->left[c]++;
		j->wgs_total += k->k.num_tbs;
		j->static_len += k->iso_ns;
	}
	return 0;
}

/*
 * Submit a job.  It waits behind any job already on its compute queue;
 * the CP inspects it when it reaches the head.  -EINVAL for a bad queue,
 * deadline, or a kernel not in the profiling table, -E2BIG for a list too
 * long or too varied, -EBUSY when the job table is full.  Nothing changes
 * on error.
 */
int edge_cp_submit(struct edge_cp *cp, const struct edge_cp_jobdesc *d)
{
	struct edge_cp_job *j = NULL;
	u32 i;
	int ret;

	if (d->queue >= EDGE_CP_QUEUES || !d->deadline_ns || !d->nr_kernels)
		return -EINVAL;
	if (d->nr_kernels > EDGE_CP_JOB_KERNELS)
		return -E2BIG;
	for (i = 0; i < d->nr_kernels; i++)
		if (d->kernels[i] >= EDGE_CP_CLASSES ||
		    !cp->cls[d->kernels[i]].used)
			return -EINVAL;
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		if (cp->jobs[i].state == EDGE_JOB_FREE) {
			j = &cp->jobs[i];
			break;
		}
	}
	if (!j)
		return -EBUSY;
	memcpy(j->kern, d->kernels, sizeof(*j->kern) * d->nr_kernels);
	j->nr_kern = d->nr_kernels;
	ret = job_classes(cp, j);
	if (ret)
		return ret;
	j->cookie = d->cookie;
	j->queue = d->queue;
	j->deadline = d->deadline_ns;
	j->arrival = cp->eng->now;
	j->admitted = 0;
	j->done_at = 0;
	j->next = 0;
	j->inflight = 0;
	j->pending = false;
	j->wgs_done = 0;
	j->rank = 0;
	j->qnext = NULL;
	cp->active++;
	cp->st.submitted++;
	if (cp->qtail[j->queue]) {
		j->state = EDGE_JOB_QUEUED;
		cp->qtail[j->queue]->qnext = j;
		cp->qtail[j->queue] = j;
	} else {
		cp->qhead[j->queue] = j;
		cp->qtail[j->queue] = j;
		edge_cp_inspect(cp, j);
	}
	tick_arm(cp);
	return 0;
}

/* The job leaves the table; the next one on its queue gets inspected. */
static void job_end(struct edge_cp *cp, struct edge_cp_job *j, u32 state,
		    bool met)
{
	struct edge_cp_job *n = j->qnext;
	u64 cookie = j->cookie;

	if (cp->qhead[j->queue] == j) {
		cp->qhead[j->queue] = n;
		if (!n)
			cp->qtail[j->queue] = NULL;
	}
	act_forget(cp, j);
	j->state = EDGE_JOB_FREE;
	j->gen++;
	j->qnext = NULL;
	cp->active--;
	if (n && n->state == EDGE_JOB_QUEUED)
		edge_cp_inspect(cp, n);
	if (cp->done)
		cp->done(cp->ctx, cookie, state, met);
}

/* Admission refused @j: nothing of it ran. */
void edge_cp_reject(struct edge_cp *cp, struct edge_cp_job *j)
{
	cp->st.rejected++;
	job_end(cp, j, EDGE_JOB_REJECTED, false);
}

/* @j is admitted with @rank: its first kernel's launch is queued. */
void edge_cp_admit(struct edge_cp *cp, struct edge_cp_job *j, u64 rank)
{
	j->state = EDGE_JOB_READY;
	j->admitted = cp->eng->now;
	j->rank = rank;
	EDGE_TRACE(cp->eng, EDGE_TP_JOB_ADMIT, j->idx, j->queue, rank);
	cp_request(cp, j, ACT_LAUNCH, host_ns(cp));
}

static void act_parse(struct edge_cp *cp, struct edge_cp_job *j)
{
	const struct edge_cp_policy *pol = edge_cp_ops(cp);

	if (pol->admit)
		pol->admit(cp, j);
	else
		edge_cp_admit(cp, j, 0);
}

static void act_launch(struct edge_cp *cp, struct edge_cp_job *j)
{
	struct edge_kdesc k;
	u16 cls;
	u32 n = 1;
	int ret;

	j->pending = false;
	if (!edge_cp_admitted(j) || j->inflight || j->next >= j->nr_kern)
		return;		/* ran with a batch meanwhile */
	cls = j->kern[j->next];
	k = cp->cls[cls].k;
	j->inflight = j->idx + 1;
	j->state = EDGE_JOB_RUNNING;
	if (edge_cp_ops(cp)->gather)
		n = edge_cp_ops(cp)->gather(cp, j, cls);
	k.num_tbs *= n;
	cp->cls[cls].inflight++;
	ret = edge_simt_launch_ranked(cp->s, &k, EDGE_CP_COOKIE |
				      (u64)j->gen << 32 | j->idx, cls,
				      rank_now(cp, j));
	/* The KMU holds more kernels than the job table has jobs. */
	EDGE_ASSERT(!ret);
	cp->st.kernels++;
	edge_simt_schedule(cp->s);
}

/* A kernel of the CP's ended.  False: not the CP's cookie. */
bool edge_cp_kernel_done(struct edge_cp *cp, u64 cookie, u32 code)
{
	u32 lead = (u32)cookie, i;
	u64 now = cp->eng->now;
	struct edge_cp_class *c;

	if (!(cookie & EDGE_CP_COOKIE))
		return false;
	if (lead >= EDGE_CP_JOBS ||
	    cp->jobs[lead].gen != (u32)((cookie & ~EDGE_CP_COOKIE) >> 32))
		return true;	/* cancelled meanwhile */
	c = &cp->cls[cp->jobs[lead].kern[cp->jobs[lead].next]];
	/* Only batches (BAT) have other jobs in them: walk the table then. */
	for (i = cp->batched ? 0 : lead;
	     i < (cp->batched ? EDGE_CP_JOBS : lead + 1); i++) {
		struct edge_cp_job *j = &cp->jobs[i];
		u32 k;

		if (j->inflight != lead + 1 || !edge_cp_admitted(j))
			continue;
		if (i != lead)
			cp->batched--;
		j->inflight = 0;
		for (k = 0; k < j->nr_cls; k++)
			if (j->cls[k] == j->kern[j->next])
				j->left[k]--;
		j->next++;
		j->wgs_done += c->k.num_tbs;
		cp->st.wgs_all += c->k.num_tbs;
		if (code != EDGE_CQE_DONE) {
			cp->st.cancelled++;
			job_end(cp, j, EDGE_JOB_CANCELLED, false);
		} else if (j->next == j->nr_kern) {
			bool met = now - j->arrival <= j->deadline;

			j->done_at = now;
			cp->st.done++;
			if (met) {
				cp->st.met++;
				cp->st.wgs_met += j->wgs_total;
			}
			edge_lat_add(&cp->st.lat,
				     edge_div64(now - j->arrival, 1000));
			job_end(cp, j, EDGE_JOB_DONE, met);
		} else {
			cp_request(cp, j, ACT_LAUNCH, host_ns(cp));
		}
	}
	edge_cp_profile_done(cp, c);
	c->inflight--;
	if (edge_cp_ops(cp)->kernel_done)
		edge_cp_ops(cp)->kernel_done(cp);
	return true;
}

static bool rerank_cb(u64 cookie, u64 *out, void *arg)
{
	struct edge_cp *cp = arg;
	u32 idx = (u32)cookie;
	u64 r;

	if (!(cookie & EDGE_CP_COOKIE) || idx >= EDGE_CP_JOBS)
		return false;
	r = rank_now(cp, &cp->jobs[idx]);
	if (r == *out)
		return false;
	*out = r;
	return true;
}

static bool exact_cookie(u64 cookie, void *arg)
{
	return cookie == *(u64 *)arg;
}

/*
 * A policy drops admitted job @j (LAX-P: past its deadline): the
 * work-groups of its kernel in flight are preempted, their slots go to
 * other jobs, and the job ends CANCELLED.
 */
void edge_cp_drop(struct edge_cp *cp, struct edge_cp_job *j)
{
	u64 cookie = EDGE_CP_COOKIE | (u64)j->gen << 32 | j->idx;

	if (j->inflight == j->idx + 1) {
		edge_simt_cancel(cp->s, exact_cookie, &cookie);
		cp->cls[j->kern[j->next]].inflight--;
	}
	edge_engine_remove_obj(cp->eng, EDGE_EV_CP, j->idx);
	cp->st.dropped++;
	job_end(cp, j, EDGE_JOB_DROPPED, false);
}

/*
 * For a preemptive policy: the waiting kernels are ranked again, and the
 * best-ranked one that cannot place its work-groups takes cores from
 * kernels ranked after it (thread-block preemption: their work-groups
 * flush, save and resume later); work-groups with less than @left_pct
 * of their time left drain instead.  Returns the work-groups preempted.
 */
u32 edge_cp_preempt_for_best(struct edge_cp *cp, u32 left_pct)
{
	edge_simt_rerank(cp->s, rerank_cb, cp);
	return edge_simt_preempt_for_head(cp->s, left_pct);
}

static void tick(struct edge_cp *cp)
{
	const struct edge_cp_policy *pol = edge_cp_ops(cp);
	int ret;

	edge_cp_profile_tick(cp);
	if (pol->tick)
		pol->tick(cp);
	if (pol->flags & EDGE_CPF_RERANK) {
		edge_simt_rerank(cp->s, rerank_cb, cp);
		edge_simt_schedule(cp->s);
	}
	if (!cp->active) {
		cp->ticking = false;
		return;
	}
	ret = edge_engine_push(cp->eng, cp->eng->now + cp->cfg.profile_ns,
			       EDGE_EV_CP_TICK, 0, 0, cp->tick_gen);
	EDGE_ASSERT(!ret);
}

static void act_do(struct edge_cp *cp, struct edge_cp_job *j, u32 act)
{
	if (act == ACT_PARSE && j->state == EDGE_JOB_PARSE)
		act_parse(cp, j);
	else if (act == ACT_LAUNCH)
		act_launch(cp, j);
}

/*
 * The CP ended an action.  It takes effect now, or after the host-side
 * latency or prediction it waits for; a job that ended meanwhile (its
 * generation moved on) is past acting for.  Then the next action.
 */
static void served(struct edge_cp *cp)
{
	struct edge_cp_job *j = &cp->jobs[cp->serve_idx];
	int ret;

	cp->serving = false;
	if (j->gen == cp->serve_gen && j->state != EDGE_JOB_FREE) {
		if (cp->serve_extra) {
			ret = edge_engine_push(cp->eng,
					       cp->eng->now + cp->serve_extra,
					       EDGE_EV_CP, j->idx,
					       cp->serve_act, j->gen);
			EDGE_ASSERT(!ret);
		} else {
			act_do(cp, j, cp->serve_act);
		}
	}
	cp_serve(cp);
}

/* Returns false for an event that is not the CP's. */
bool edge_cp_handle(struct edge_cp *cp, const struct edge_ev *ev)
{
	struct edge_cp_job *j;

	if (ev->kind == EDGE_EV_CP_TICK) {
		if (ev->gen == cp->tick_gen && cp->ticking)
			tick(cp);
		return true;
	}
	if (ev->kind == EDGE_EV_CP_SERVE) {
		if (ev->gen == cp->serve_evgen && cp->serving)
			served(cp);
		return true;
	}
	if (ev->kind != EDGE_EV_CP)
		return false;
	if (ev->obj >= EDGE_CP_JOBS)
		return true;
	j = &cp->jobs[ev->obj];
	if (j->gen != ev->gen || j->state == EDGE_JOB_FREE)
		return true;
	act_do(cp, j, ev->aux);
	return true;
}

struct cancel_arg {
	struct edge_cp *cp;
	bool (*match)(u64 cookie, void *arg);
	void *arg;
};

/* A kernel cookie of the CP's whose job @match accepts. */
static bool kernel_match(u64 cookie, void *arg)
{
	struct cancel_arg *a = arg;
	u32 idx = (u32)cookie, i;

	if (!(cookie & EDGE_CP_COOKIE) || idx >= EDGE_CP_JOBS)
		return false;
	/* A batch goes if any of its jobs goes; the others are requeued. */
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &a->cp->jobs[i];

		if (j->state != EDGE_JOB_FREE && j->inflight == idx + 1 &&
		    a->match(j->cookie, a->arg))
			return true;
	}
	return false;
}

/*
 * Cancel every job whose submitter cookie @match accepts, wherever it is:
 * waiting on its queue, being inspected, held, or with a kernel in the
 * SIMT model.  Each is reported CANCELLED.  Returns how many.
 */
u32 edge_cp_cancel(struct edge_cp *cp, bool (*match)(u64 cookie, void *arg),
		   void *arg)
{
	struct cancel_arg a = { cp, match, arg };
	bool gone[EDGE_CP_JOBS];
	u32 i, q, n = 0;

	/* Which launches go: a batch goes if any of its jobs goes. */
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];

		gone[i] = j->state != EDGE_JOB_FREE && j->inflight == i + 1 &&
			  kernel_match(EDGE_CP_COOKIE | i, &a);
		if (gone[i])
			cp->cls[j->kern[j->next]].inflight--;
	}
	edge_simt_cancel(cp->s, kernel_match, &a);
	/* The other jobs of a cancelled batch launch their kernel again. */
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		struct edge_cp_job *j = &cp->jobs[i];

		if (j->state == EDGE_JOB_FREE || !j->inflight ||
		    !gone[j->inflight - 1])
			continue;
		if (j->inflight != i + 1)
			cp->batched--;
		if (match(j->cookie, arg))
			continue;
		j->inflight = 0;
		cp_request(cp, j, ACT_LAUNCH, 0);
	}
	for (q = 0; q < EDGE_CP_QUEUES; q++) {
		struct edge_cp_job **pp = &cp->qhead[q], *j, *prev = NULL;

		while ((j = *pp)) {
			if (!match(j->cookie, arg)) {
				prev = j;
				pp = &j->qnext;
				continue;
			}
			*pp = j->qnext;
			if (cp->qtail[q] == j)
				cp->qtail[q] = prev;
			edge_engine_remove_obj(cp->eng, EDGE_EV_CP, j->idx);
			j->state = EDGE_JOB_CANCELLED;
			j->qnext = NULL;
			cp->st.cancelled++;
			n++;
			job_end(cp, j, EDGE_JOB_CANCELLED, false);
		}
	}
	/* The queues' new heads get inspected. */
	for (q = 0; q < EDGE_CP_QUEUES; q++) {
		struct edge_cp_job *h = cp->qhead[q];

		if (h && h->state == EDGE_JOB_QUEUED)
			edge_cp_inspect(cp, h);
	}
	return n;
}

static bool match_all(u64 cookie, void *arg)
{
	(void)cookie;
	(void)arg;
	return true;
}

/* Cancel every job: each is reported CANCELLED.  Returns how many. */
u32 edge_cp_cancel_all(struct edge_cp *cp)
{
	u32 n = edge_cp_cancel(cp, match_all, NULL);

	edge_engine_remove_obj(cp->eng, EDGE_EV_CP_TICK, 0);
	edge_engine_remove_obj(cp->eng, EDGE_EV_CP_SERVE, 0);
	cp->ticking = false;
	cp->serving = false;
	return n;
}

bool edge_cp_idle(const struct edge_cp *cp)
{
	return !cp->active;
}

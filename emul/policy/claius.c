// SPDX-License-Identifier: GPL-2.0
/*
 * C-Laius (Zhang et al.): spatial quotas that give a latency-critical
 * query just enough of the GPU and the rest to batch applications.
 *
 * - Predictor: a task's duration and bandwidth at each 10 % quota come
 *   from edge_app.prof, a table the launcher fills from isolated runs of
 *   each task on the model (the paper trains decision trees; a table of
 *   the model's own isolated runs is enough here).
 * - Just enough (Section 6.1): when a query's first task launches, the
 *   smallest quota whose predicted tasks fit the time left to its target
 *   (T_target - T_pcie: the launcher starts the chain when the query
 *   arrives, and its transfer is spent before its first task).
 * - Batch (Section 6.2): the rest of the cores to the batch applications
 *   by a knapsack over 10 % steps that maximises their summed predicted
 *   throughput while their bandwidth and the services' stays under the
 *   device's peak (-nb: without that constraint).
 * - Lag compensator (Section 7): after each task, with L the time spent
 *   so far less the prediction at the first quota q0 for the tasks done,
 *   the smallest quota q' >= q0 whose saving on the remaining tasks,
 *   sum(t_i(q0) - t_i(q')), is at least L (Eq. 6, T_now - T_new - T_save
 *   >= lag), on the isolated predictions; back to q0 once the query no
 *   longer lags the predictions at the quotas it ran on (-nc: none;
 *   -scaled, ours: the remaining tasks' predictions scaled by the
 *   slowdown seen so far).  Ours, so that a looser target never adds a
 *   violation (README: monotone in the target): with one query in
 *   flight, at least the quota whose remaining tasks fit the time left
 *   at the slowdown seen so far (Eq. 7 for one query); and a query's
 *   just-enough quota counts the slowdown its service's last query ran
 *   at (not -nc).
 * - Two services (Section 8): each begins at its just-enough quota, the
 *   steeper one first when both do not fit; after each task, with both
 *   queries in flight, T = t_predict - t_rest (Eq. 7) ranks them: the
 *   larger positive T gets the increment Eq. 8 chooses (0.9 threshold),
 *   the other keeps its quota, one with T < 0 gives 10 % back when its
 *   prediction still fits and it does not lag; the compensator still
 *   sets a lagging query's least quota; with one in flight, the
 *   compensator alone.
 * - static-opt: fixed quotas, the launcher's (edge_app.quota_pct: the
 *   split its offline search found best) or each service's just-enough
 *   for its nominal budget; each batch application may use all of the
 *   rest, a fixed MPS percentage without C-Laius's knapsack or bandwidth
 *   constraint.
 *
 * Quotas change between kernels: a kernel keeps the quota it launched
 * with.  -pre (ours): a change also acts on running kernels, taking
 * cores back by thread-block preemption.
 *
 * Cores: the first service's partition from core 0 up, the others' from
 * the last core down; the batch applications share the window between,
 * each on at most its share.  A service's running kernel keeps its cores
 * (layout()).
 */
#include "gpu/simt.h"

#define CL_NB		0x1	/* no bandwidth constraint */
#define CL_NC		0x2	/* no lag compensator */
#define CL_PRE		0x4	/* changes act on running kernels */
#define CL_STATIC	0x8	/* fixed quotas */
#define CL_SCALE	0x10	/* predictions scaled by the slowdown seen */
#define CL_STEPS	EDGE_QUOTA_STEPS
#define CL_MEMO		16

struct cl_svc {
	u64 seq;		/* chain seen */
	bool active;
	u32 done;		/* its tasks completed */
	u32 q0, q;		/* steps: first and current quota */
	u64 t1;			/* first task launched, ns */
	u64 tdone;		/* its last task ended (t1 before), ns */
	u64 ran;		/* predicted time of the tasks done, as run */
	u32 qrun;		/* quota its running task launched with */
	u64 plan;		/* predicted time of the tasks done, at q0 */
	u64 sl;			/* its last query's slowdown, per mille */
};

struct cl_memo {
	bool used;
	u32 free;		/* steps for batch */
	u64 bw;			/* bandwidth left for batch */
	u32 task[EDGE_APPS];
	u32 x[EDGE_APPS];
};

struct cl {
	u32 flags;
	struct cl_svc svc[EDGE_APPS];
	u32 bq[EDGE_APPS];		/* batch steps */
	u32 blo, bhi;			/* batch window: cores [blo, bhi) */
	u32 btask[EDGE_APPS];		/* batch app's latest task */
	struct edge_kinst *live[EDGE_APPS];	/* its running kernel */
	struct cl_memo memo[CL_MEMO];
	u32 memo_next;
};

static u64 pred(const struct edge_app *a, u32 task, u32 q)
{
	return a->prof[task - 1].ns[q - 1];
}

/* Predicted time of tasks @from .. the last at quota @q. */
static u64 rest(const struct edge_app *a, u32 from, u32 q)
{
	u64 t = 0;

	for (; from <= a->nr_tasks; from++)
		t += pred(a, from, q);
	return t;
}

/*
 * The smallest quota whose remaining tasks, their predictions times
 * @sl per mille, fit @avail ns.
 */
static u32 just_enough_sl(const struct edge_app *a, u32 from, u64 avail,
			  u64 sl)
{
	u32 q;

	for (q = 1; q < CL_STEPS; q++)
		if (edge_div64(rest(a, from, q) * sl, 1000) <= avail)
			return q;
	return CL_STEPS;
}

static u32 just_enough(const struct edge_app *a, u32 from, u64 avail)
{
	return just_enough_sl(a, from, avail, 1000);
}

/*
 * The slowdown a query's completed tasks ran at against their
 * predictions at the quotas they ran on, per mille, at least 1000.
 */
static u64 ran_slow(const struct cl_svc *v)
{
	u64 took = v->tdone - v->t1;

	return v->ran && took > v->ran ? edge_div64_64(took * 1000, v->ran) :
					 1000;
}

/* static-opt: the launcher's fixed quota, or just enough nominally. */
static u32 static_q(const struct edge_app *a)
{
	u32 q = a->quota_pct / 10;

	if (q)
		return q < CL_STEPS ? q : CL_STEPS;
	return just_enough(a, 1, a->chain_budget);
}

static u32 quota_hold(const struct edge_simt *s, struct cl *c, u32 i)
{
	const struct edge_app *a = &s->apps[i];

	if (c->svc[i].active)
		return c->svc[i].q;
	if (c->flags & CL_STATIC)
		return static_q(a);
	if (c->svc[i].q0)
		return c->svc[i].q0;
	return just_enough(a, 1, a->chain_budget);
}

/* Bandwidth of the service's most demanding remaining task at @q. */
static u64 svc_bw(const struct edge_app *a, u32 from, u32 q)
{
	u64 bw = 0;

	for (from = from ? from : 1; from <= a->nr_tasks; from++)
		if (a->prof[from - 1].bw_mbs[q - 1] > bw)
			bw = a->prof[from - 1].bw_mbs[q - 1];
	return bw;
}

/* Best batch steps for items @i.. within @free steps and @bw; value. */
static u64 knap(const struct edge_simt *s, struct cl *c, const u32 *ids,
		u32 n, u32 i, u32 free, u64 bw, u32 *best_x)
{
	u64 best = 0, v;
	u32 q, j;

	if (i == n)
		return 0;
	for (q = 0; q <= free; q++) {
		const struct edge_app *a = &s->apps[ids[i]];
		u32 t = c->btask[ids[i]] ? c->btask[ids[i]] : 1;
		u64 g = q ? a->prof[t - 1].bw_mbs[q - 1] : 0;
		u32 sub[EDGE_APPS];

		if (!(c->flags & CL_NB) && g > bw)
			break;
		/* Throughput relative to the whole GPU's, in ppm. */
		v = q ? edge_div64_64(a->prof[t - 1].ns[CL_STEPS - 1] *
				      1000000ULL, pred(a, t, q)) : 0;
		v += knap(s, c, ids, n, i + 1, free - q,
			  (c->flags & CL_NB) ? bw : bw - g, sub);
		if (v > best || q == 0) {
			best = v;
			best_x[i] = q;
			for (j = i + 1; j < n; j++)
				best_x[j] = sub[j];
		}
	}
	return best;
}

static void batch_alloc(struct edge_simt *s, struct cl *c, u32 free, u64 bw)
{
	u32 ids[EDGE_APPS], bx[EDGE_APPS] = { 0 };
	u32 n = 0, i, m;
	struct cl_memo *e;

	for (i = 1; i < EDGE_APPS; i++)
		if (s->apps[i].used && !s->apps[i].qos && s->apps[i].nr_tasks)
			ids[n++] = i;
	/* static-opt: each batch application on all of the rest, as fixed. */
	if (c->flags & CL_STATIC) {
		for (i = 0; i < n; i++)
			c->bq[ids[i]] = free;
		return;
	}
	for (m = 0; m < CL_MEMO; m++) {
		e = &c->memo[m];
		if (!e->used || e->free != free || e->bw != bw)
			continue;
		for (i = 0; i < n && e->task[ids[i]] == c->btask[ids[i]]; i++)
			;
		if (i == n)
			goto found;
	}
	knap(s, c, ids, n, 0, free, bw, bx);
	e = &c->memo[c->memo_next++ % CL_MEMO];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->free = free;
	e->bw = bw;
	for (i = 0; i < n; i++) {
		e->task[ids[i]] = c->btask[ids[i]];
		e->x[ids[i]] = bx[i];
	}
found:
	for (i = 0; i < n; i++)
		c->bq[ids[i]] = e->x[ids[i]];
}

/*
 * Cores service @i spans now: its quota's, or more while a kernel it
 * launched on a larger quota still runs (a service's kernel keeps the
 * cores it launched with; only its next task gets the new quota).
 */
static u32 svc_span(const struct edge_simt *s, struct cl *c, u32 i)
{
	const struct edge_kinst *ki = c->live[i];
	u32 len = edge_quota_cores(s, quota_hold(s, c, i) * 10);

	return ki && ki->tbs_dispatched && ki->qlen > len ? ki->qlen : len;
}

/*
 * The services' partitions: the first from core 0 up, the others from
 * the last core down, each below the one before; the batch window is
 * the gap between.  Anchored at opposite ends, one service's quota
 * changing never moves the other's running kernel, and the window
 * never covers cores a running service kernel still holds.  Returns the
 * first core of service @app's partition (@app 0: none) and sets
 * [*lo, *hi) to the batch window.
 */
static u32 layout(const struct edge_simt *s, struct cl *c, u32 app, u32 *lo,
		  u32 *hi)
{
	u32 n = s->p->num_cores, i, w, first = 0, top = n, bottom = 0;
	bool seen = false;

	for (i = 1; i < EDGE_APPS; i++) {
		if (!s->apps[i].used || !s->apps[i].qos)
			continue;
		w = svc_span(s, c, i);
		if (!seen) {
			seen = true;
			bottom = w;
			continue;
		}
		if (i == app)
			first = top > w ? top - w : 0;
		top = top > w ? top - w : 0;
	}
	*lo = bottom;
	*hi = top;
	return first;
}

/* A kernel's quota from the current allocation. */
static void apply(struct edge_simt *s, struct cl *c, struct edge_kinst *ki,
		  bool preempt)
{
	u32 n = s->p->num_cores, app = ki->k.app, first, len, lo, hi;

	if (s->apps[app].qos) {
		first = layout(s, c, app, &lo, &hi);
		len = edge_quota_cores(s, quota_hold(s, c, app) * 10);
		if (first + len > n)
			first = n - len;
		edge_quota_set(s, ki, first, len, len, preempt);
		return;
	}
	/* The window of the last reallocation, which set the batch steps. */
	lo = c->blo;
	hi = c->bhi;
	if (lo >= hi) {
		lo = n - 1;
		hi = n;
	}
	edge_quota_set(s, ki, lo, hi - lo,
		       c->bq[app] ? edge_quota_cores(s, c->bq[app] * 10) : 1,
		       preempt);
}

/* The services' quotas changed: batch gets the rest; kernels follow. */
static void realloc_all(struct edge_simt *s, struct cl *c)
{
	u64 bw = s->p->mem_bw_mbs, g;
	u32 used = 0, i, q, lo, hi;
	bool pre = c->flags & CL_PRE;

	for (i = 1; i < EDGE_APPS; i++) {
		if (!s->apps[i].used || !s->apps[i].qos)
			continue;
		q = quota_hold(s, c, i);
		used += q;
		s->apps[i].cur_pct = c->svc[i].active ? q * 10 : 0;
		g = svc_bw(&s->apps[i], c->svc[i].active ? c->svc[i].done + 1 : 1, q);
		bw = bw > g ? bw - g : 0;
	}
	/* Steps for batch: what the quotas leave, within the window. */
	layout(s, c, 0, &lo, &hi);
	c->blo = lo;
	c->bhi = hi;
	q = used < CL_STEPS ? CL_STEPS - used : 0;
	if (hi <= lo)
		q = 0;
	else if (edge_quota_cores(s, q * 10) > hi - lo)
		q = ((hi - lo) * CL_STEPS + s->p->num_cores / 2) /
		    s->p->num_cores;
	batch_alloc(s, c, q, bw);
	for (i = 1; i < EDGE_APPS; i++) {
		struct edge_kinst *ki = c->live[i];

		if (!ki)
			continue;
		if (!s->apps[i].qos)
			s->apps[i].cur_pct = c->bq[i] * 10;
		/*
		 * A service's kernel keeps its quota: it changes between
		 * its tasks.  A batch kernel stands for a stream of kernels
		 * far shorter than a query (the model's are a few ms, to
		 * keep runs short): it places no more TBs outside its new
		 * share, and the ones it has drain.  -pre takes them back.
		 */
		if (pre || !ki->tbs_dispatched || !s->apps[i].qos)
			apply(s, c, ki, pre);
	}
}

static int cl_init_flags(struct edge_simt *s, void **priv, u32 flags)
{
	struct cl *c = edge_zalloc(sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->flags = flags;
	c->blo = s->p->num_cores;
	c->bhi = s->p->num_cores;
	*priv = c;
	return 0;
}

static int cl_init(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, 0);
}

static int cl_init_nb(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, CL_NB);
}

static int cl_init_nc(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, CL_NC);
}

static int cl_init_pre(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, CL_PRE);
}

static int cl_init_scaled(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, CL_SCALE);
}

static int cl_init_static(struct edge_simt *s, void **priv)
{
	return cl_init_flags(s, priv, CL_STATIC | CL_NC);
}

static void cl_fini(struct edge_simt *s, void *priv)
{
	(void)s;
	edge_free(priv);
}

/* A batch application given no cores: its kernels wait. */
static bool cl_shut(const struct edge_simt *s, const struct edge_kinst *ki)
{
	const struct cl *c = s->tbp_priv;
	u32 app = ki->k.app;

	return app && app < EDGE_APPS && s->apps[app].used &&
	       !s->apps[app].qos && !c->bq[app];
}

static u32 cl_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		  u32 core)
{
	return cl_shut(s, ki) ? 0 : edge_quota_cap(s, ki, core);
}

static void cl_cap_cores(const struct edge_simt *s,
			 const struct edge_kinst *ki, u32 *first, u32 *len,
			 bool *resident)
{
	if (cl_shut(s, ki))
		*len = 0;
	else
		edge_quota_cap_cores(s, ki, first, len, resident);
}

/* The other service in flight, or 0. */
static u32 other_svc(const struct edge_simt *s, u32 app)
{
	u32 i;

	for (i = 1; i < EDGE_APPS; i++)
		if (i != app && s->apps[i].used && s->apps[i].qos)
			return i;
	return 0;
}

/* Slope of a service's predicted remaining time at @q: ns per step. */
static u64 slope(const struct edge_app *a, u32 from, u32 q)
{
	return q > 1 ? rest(a, from, q - 1) - rest(a, from, q) : ~0ULL;
}

/* Two services want more than the GPU: the steeper one first. */
static void fit_two(const struct edge_simt *s, struct cl *c, u32 a, u32 b)
{
	struct cl_svc *x = &c->svc[a], *y = &c->svc[b];
	u32 qa = quota_hold(s, c, a), qb = quota_hold(s, c, b);

	if (qa + qb <= CL_STEPS)
		return;
	if (slope(&s->apps[a], x->done + 1, qa) >=
	    slope(&s->apps[b], y->done + 1, qb)) {
		if (y->active)
			y->q = CL_STEPS - qa;
		if (x->active)
			x->q = qa;
	} else if (x->active) {
		x->q = CL_STEPS - qb;
	}
	if (x->active && !x->q)
		x->q = 1;
	if (y->active && !y->q)
		y->q = 1;
}

static void chain_begin(struct edge_simt *s, struct cl *c, u32 app)
{
	const struct edge_app *a = &s->apps[app];
	struct cl_svc *v = &c->svc[app];
	u64 now = s->eng->now, used = now - a->chain_start;
	u32 o = other_svc(s, app);

	if (!v->sl)
		v->sl = 1000;
	v->seq = a->chain_seq;
	v->active = true;
	v->done = 0;
	v->t1 = now;
	v->tdone = now;
	v->ran = 0;
	v->plan = 0;
	if (c->flags & CL_STATIC)
		v->q0 = static_q(a);
	else
		v->q0 = just_enough_sl(a, 1, a->chain_budget > used ?
				       a->chain_budget - used : 0,
				       c->flags & CL_NC ? 1000 : v->sl);
	v->q = v->q0;
	if (o)
		fit_two(s, c, app, o);
}

static void cl_kernel_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	struct cl *c = s->tbp_priv;
	const struct edge_app *a = edge_app_of(s, ki);
	u32 app = ki->k.app;

	/* A task the application's table does not describe: not ours. */
	if (!a || !ki->k.task || ki->k.task > a->nr_tasks)
		return;
	c->live[app] = ki;
	if (a->qos) {
		if (ki->k.task == 1 && c->svc[app].seq != a->chain_seq)
			chain_begin(s, c, app);
		realloc_all(s, c);
		apply(s, c, ki, false);
		c->svc[app].qrun = quota_hold(s, c, app);
		return;
	}
	if (c->btask[app] != ki->k.task) {
		c->btask[app] = ki->k.task;
		realloc_all(s, c);
	}
	apply(s, c, ki, false);
}

/*
 * Section 7's quota for a query: with L the time its completed tasks
 * took less their prediction at the first quota q0 (the plan), q0 when
 * L <= 0 (no lag: roll back), otherwise Eq. 6: the smallest q' >= q0
 * whose saving on the remaining tasks, sum(t_i(q0) - t_i(q')), is at
 * least L, on the isolated predictions (@pure).  The same contention
 * that made the done tasks late slows the ones left, so -scaled (ours)
 * scales their predicted time at q' by the slowdown measured so far
 * (spent / plan): pure Eq. 6 leaves the last tasks' share of the lag
 * uncovered.
 */
static u32 comp_q(const struct cl_svc *v, const struct edge_app *a, bool pure)
{
	u64 spent = v->tdone - v->t1, lag, base, r;
	u32 q;

	if (v->done >= a->nr_tasks)
		return v->q0;
	if (spent <= v->plan)
		return v->q > v->q0 && spent > v->ran ? v->q : v->q0;
	lag = spent - v->plan;
	base = rest(a, v->done + 1, v->q0);
	for (q = v->q0; q < CL_STEPS; q++) {
		r = rest(a, v->done + 1, q);
		if (!pure)
			r = v->plan ? edge_div64_64(r * (spent >> 10),
						    v->plan >> 10 ? v->plan >> 10 : 1) : r;
		if (r <= base && base - r >= lag)
			break;
	}
	return q;
}

/*
 * Eq. 7 for one query (ours, beside Eq. 6): the smallest quota >= q0
 * whose remaining tasks, at the slowdown the done ones ran at, fit the
 * time left to the target.  Eq. 6 covers only the lag so far: the tasks
 * left run as late again, and when only tasks that do not scale are
 * left no quota recovers it (README: monotone in the target).
 */
static u32 deadline_q(const struct cl_svc *v, const struct edge_app *a)
{
	u64 used = v->tdone - a->chain_start, left, sl = ran_slow(v);
	u32 q;

	if (used >= a->chain_budget)
		return CL_STEPS;
	left = a->chain_budget - used;
	for (q = v->q0; q < CL_STEPS; q++)
		if (edge_div64(rest(a, v->done + 1, q) * sl, 1000) <= left)
			break;
	return q;
}

/* One query in flight: Section 7's compensator sets its quota. */
static void compensate(struct cl_svc *v, const struct edge_app *a, bool pure)
{
	u32 d = deadline_q(v, a);

	v->q = comp_q(v, a, pure);
	if (d > v->q)
		v->q = d;
}

/*
 * The slowdown a service's completed tasks ran at, against their
 * predictions at the quotas they ran on, in per mille, at least 1000:
 * the contention that made them late slows the ones left too (ours, as
 * in compensate(); -scaled only, 1000 otherwise).
 */
static u64 slow_pm(const struct cl *c, const struct cl_svc *x)
{
	u64 took = x->tdone - x->t1, pm;

	if (!(c->flags & CL_SCALE) || !x->ran)
		return 1000;
	pm = edge_div64_64(took * 1000, x->ran);
	return pm > 1000 ? pm : 1000;
}

/*
 * Eq. 7 for a service's query: T = t_predict - t_rest, t_rest = t_QoS -
 * t_finished.  t_finished is the time its completed tasks took (to the
 * end of the last one, from the query's start, its transfer included);
 * t_predict the predicted time of its tasks not completed, at the quota
 * it runs on now (times slow_pm()).  T > 0: it needs T more than it has.
 */
static s64 need(const struct edge_simt *s, const struct cl *c, u32 i)
{
	const struct edge_app *a = &s->apps[i];
	const struct cl_svc *x = &c->svc[i];
	s64 rest_t = (s64)a->chain_budget - (s64)(x->tdone - a->chain_start);

	return (s64)edge_div64(rest(a, x->done + 1, x->q) * slow_pm(c, x),
			       1000) - rest_t;
}

/*
 * Eq. 8: of the increments that compensate T, the smallest, a, and the
 * next, b = a + 10 %: with x and y their savings on the tasks left,
 * A = (a / x) / (b / y); A < TH = 0.9 takes a, otherwise b.  None that
 * compensates: as much as there is.
 */
static u32 raise_by(const struct edge_app *a, u32 from, u32 q, s64 t)
{
	s64 base = (s64)rest(a, from, q), xs, ys;
	u32 inc;

	for (inc = 1; q + inc < CL_STEPS; inc++)
		if (base - (s64)rest(a, from, q + inc) >= t)
			break;
	if (q + inc >= CL_STEPS)
		return CL_STEPS - q;
	xs = base - (s64)rest(a, from, q + inc);
	/* b may save less than a: a task slower at a larger quota */
	ys = base - (s64)rest(a, from, q + inc + 1);
	if (ys <= 0)
		return inc;
	/* a ys / (b xs) < 0.9, as 10 a ys < 9 b xs */
	return 10 * (s64)inc * ys < 9 * (s64)(inc + 1) * xs ? inc : inc + 1;
}

/*
 * Section 8 with both services' queries in flight, at each task's end
 * (the synchronisation): T by Eq. 7 ranks them.  T < 0: priority 3, it
 * gives 10 % back when its prediction still fits t_rest and it does not
 * lag.  T = 0, or the smaller of two positive: priority 2, it keeps its
 * quota.  The larger positive T: priority 1, raised by Eq. 8's
 * increment, its quota met first and the other's cut to what is left.
 * Section 7's compensator keeps watching each query as when it is alone
 * ("once in a while, two QoS tasks need to be synchronized to observe
 * the progress"): a query whose done tasks ran over their plan gets at
 * least the quota Eq. 6 asks, and gives nothing back until the lag is
 * gone (Section 7 rolls back only then).  Without it, T turns positive
 * only once a query's slack is spent, and the isolated predictions then
 * leave it a few tenths of a per cent late (README: two services).  With
 * one query in flight it is the compensator alone.
 */
static void prioritise(const struct edge_simt *s, struct cl *c, u32 app,
		       u32 o)
{
	struct cl_svc *v = &c->svc[app], *w = &c->svc[o];
	u32 who[2] = { app, o }, k, hi;
	s64 t[2];

	if (!w->active || w->done >= s->apps[o].nr_tasks) {
		compensate(v, &s->apps[app], !(c->flags & CL_SCALE));
		return;
	}
	for (k = 0; k < 2; k++)
		t[k] = need(s, c, who[k]);
	hi = t[0] >= t[1] ? 0 : 1;
	for (k = 0; k < 2; k++) {
		const struct edge_app *a = &s->apps[who[k]];
		struct cl_svc *x = &c->svc[who[k]];
		u32 from = x->done + 1, q = x->q;
		u32 qc = comp_q(x, a, !(c->flags & CL_SCALE));
		bool lags = x->tdone - x->t1 > x->plan;
		u64 sl = slow_pm(c, x);
		s64 left = (s64)edge_div64(rest(a, from, q) * sl, 1000) - t[k];

		if (t[k] > 0 && k == hi)
			x->q = q + raise_by(a, from, q,
					    (s64)edge_div64_64((u64)t[k] * 1000, sl));
		else if (t[k] < 0 && q > 1 && !lags &&
			 (s64)edge_div64(rest(a, from, q - 1) * sl, 1000) <= left)
			x->q = q - 1;
		if (lags && x->q < qc)
			x->q = qc;
	}
	if (v->q + w->q > CL_STEPS) {
		struct cl_svc *lo = hi == 0 ? w : v;
		struct cl_svc *top = hi == 0 ? v : w;

		if (top->q >= CL_STEPS)
			top->q = CL_STEPS - 1;
		lo->q = CL_STEPS - top->q;
	}
}

/* Work of the running task @t left at quota @q, @left_pm of it left. */
static u64 rest_mid(const struct edge_app *a, u32 t, u32 q, u64 left_pm)
{
	return edge_div64(pred(a, t, q) * left_pm, 1000) + rest(a, t + 1, q);
}

/*
 * -pre (ours): the compensator also checks while a task runs, at each
 * quarter of its TBs, and a raise acts at once: the running kernel's
 * range grows and the batch TBs in it are preempted.  Between kernels
 * only, a raise waits for the task to end, too late for a long task.
 */
static void cl_tb_end(struct edge_simt *s, struct edge_tb *tb)
{
	struct cl *c = s->tbp_priv;
	struct edge_kinst *ki = tb->ki;
	const struct edge_app *a = edge_app_of(s, ki);
	struct cl_svc *v;
	u64 spent, done_pm, lag, base, r, planned;
	u32 q, t = ki->k.task, quarter;

	if (!(c->flags & CL_PRE) || !a || !a->qos || !t || c->live[ki->k.app] != ki)
		return;
	v = &c->svc[ki->k.app];
	quarter = (u32)(ki->k.num_tbs / 4) ? (u32)(ki->k.num_tbs / 4) : 1;
	if (!v->active || (ki->tbs_done + 1) % quarter || other_svc(s, ki->k.app))
		return;
	done_pm = edge_div64_64((ki->tbs_done + 1) * 1000, ki->k.num_tbs);
	spent = s->eng->now - v->t1;
	planned = v->plan + edge_div64(pred(a, t, v->q0) * done_pm, 1000);
	if (spent <= planned || done_pm >= 1000)
		return;
	lag = spent - planned;
	base = rest_mid(a, t, v->q0, 1000 - done_pm);
	for (q = v->q; q < CL_STEPS; q++) {
		r = rest_mid(a, t, q, 1000 - done_pm);
		if (c->flags & CL_SCALE)
			r = edge_div64_64(r * (spent >> 10),
					  planned >> 10 ? planned >> 10 : 1);
		if (r <= base && base - r >= lag)
			break;
	}
	if (q > v->q) {
		v->q = q;
		realloc_all(s, c);
	}
}

static void cl_kernel_end(struct edge_simt *s, struct edge_kinst *ki)
{
	struct cl *c = s->tbp_priv;
	const struct edge_app *a = edge_app_of(s, ki);
	u32 app = ki->k.app, o;
	struct cl_svc *v;

	if (!a)
		return;
	if (c->live[app] == ki)
		c->live[app] = NULL;
	if (ki->k.task > a->nr_tasks)
		return;
	if (!a->qos || !ki->k.task)
		return;
	v = &c->svc[app];
	if (!v->active || v->seq != a->chain_seq)
		return;
	v->done = ki->k.task;
	v->tdone = s->eng->now;
	v->ran += pred(a, ki->k.task, v->qrun ? v->qrun : v->q0);
	v->plan += pred(a, ki->k.task, v->q0);
	if (v->done >= a->nr_tasks) {
		v->sl = ran_slow(v);
		v->active = false;
		s->apps[app].cur_pct = 0;
	} else if (!(c->flags & CL_NC)) {
		o = other_svc(s, app);
		if (o)
			prioritise(s, c, app, o);
		else
			compensate(v, a, !(c->flags & CL_SCALE));
	}
	realloc_all(s, c);
}

#define CLAIUS(_n, _init) {				\
	.name = _n,					\
	.init = _init,					\
	.fini = cl_fini,				\
	.before = edge_sp_before,			\
	.cap = cl_cap,					\
	.cap_cores = cl_cap_cores,			\
	.kernel_launch = cl_kernel_launch,		\
	.kernel_end = cl_kernel_end,			\
	.tb_end = cl_tb_end,				\
}

const struct edge_tb_policy edge_tbp_claius = CLAIUS("claius", cl_init);
const struct edge_tb_policy edge_tbp_claius_nb = CLAIUS("claius-nb", cl_init_nb);
const struct edge_tb_policy edge_tbp_claius_nc = CLAIUS("claius-nc", cl_init_nc);
const struct edge_tb_policy edge_tbp_claius_pre = CLAIUS("claius-pre", cl_init_pre);
const struct edge_tb_policy edge_tbp_static = CLAIUS("static-opt", cl_init_static);
const struct edge_tb_policy edge_tbp_claius_scaled =
	CLAIUS("claius-scaled", cl_init_scaled);

// SPDX-License-Identifier: GPL-2.0
/*
 * Compute quotas of kernels, and the applications that own them
 * (gpu/quota.h).
 */
#include "gpu/preempt.h"

/* Cores of a quota of @pct %, rounded, at least one. */
u32 edge_quota_cores(const struct edge_simt *s, u32 pct)
{
	u32 n = (s->p->num_cores * pct + 50) / 100;

	if (n < 1)
		n = 1;
	return n > s->p->num_cores ? s->p->num_cores : n;
}

static bool covers(const struct edge_simt *s, const struct edge_kinst *ki,
		   u32 core)
{
	/* No division: the cap hook runs for every core a TB would fit on. */
	u32 off = core >= ki->qfirst ? core - ki->qfirst :
		  core + s->p->num_cores - ki->qfirst;

	return off < ki->qlen;
}

/**
 * edge_quota_cap - the cap a quota puts on a kernel's TBs on one core
 * @s: the SIMT model
 * @ki: the kernel
 * @core: the core
 *
 * For a thread-block policy's cap hook.  A core outside the kernel's
 * range is masked off; inside it, a core the kernel already holds TBs on
 * takes more, and a new one only while the kernel holds fewer cores than
 * its quota.  Over its quota (taken back while it ran), it takes none.
 *
 * Return: EDGE_TB_NOCAP or 0.
 */
u32 edge_quota_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		   u32 core)
{
	if (!covers(s, ki, core))
		return 0;
	if (ki->cores_used < ki->quota)
		return EDGE_TB_NOCAP;
	if (ki->cores_used == ki->quota && edge_simt_resident(s, ki, core))
		return EDGE_TB_NOCAP;
	return 0;
}

/**
 * edge_quota_cap_cores - the cores edge_quota_cap() may let a kernel on
 * @s: the SIMT model
 * @ki: the kernel
 * @first: out: the first of them
 * @len: out: how many (wrapping), 0 when it is over its quota
 * @resident: out: at its quota, only those it holds TBs on
 *
 * For a thread-block policy's cap_cores hook: what edge_quota_cap() lets
 * it on.
 */
void edge_quota_cap_cores(const struct edge_simt *s,
			  const struct edge_kinst *ki, u32 *first, u32 *len,
			  bool *resident)
{
	(void)s;
	*first = ki->qfirst;
	*len = ki->cores_used > ki->quota ? 0 : ki->qlen;
	*resident = ki->cores_used == ki->quota;
}

/* TBs of @ki on @core that are not already leaving it. */
static u32 live(const struct edge_simt *s, const struct edge_kinst *ki,
		u32 core)
{
	const struct edge_core *c = &s->cores[core];
	u32 i, n = 0;

	for (i = 0; i < c->nr_tbs; i++)
		if (c->tb[i]->ki == ki && !c->tb[i]->suspending)
			n++;
	return n;
}

/* Preempt every TB of @ki on @core; returns how many. */
static u32 vacate(struct edge_simt *s, struct edge_kinst *ki, u32 core)
{
	struct edge_core *c = &s->cores[core];
	u32 i, n = 0;

	for (i = 0; i < c->nr_tbs; i++)
		if (c->tb[i]->ki == ki && !c->tb[i]->suspending &&
		    !edge_simt_preempt_tb(s, c->tb[i]))
			n++;
	return n;
}

/**
 * edge_quota_set - change a kernel's quota
 * @s: the SIMT model
 * @ki: a kernel launched and not yet done
 * @first: the first core of its range
 * @len: cores in its range (wrapping at the last core); 1 .. num_cores
 * @count: the most cores it holds TBs on at once; 1 .. @len
 * @preempt: take cores back now: preempt its TBs outside the range and,
 *	over @count, on the cores where it has fewest
 *
 * Without @preempt the kernel keeps the TBs it has, and the new quota
 * holds for the TBs it places from now on.  Out-of-range arguments are
 * clamped.  The caller runs edge_simt_schedule() when it may have freed
 * room.
 *
 * Return: the number of TBs preempted.
 */
u32 edge_quota_set(struct edge_simt *s, struct edge_kinst *ki, u32 first,
		   u32 len, u32 count, bool preempt)
{
	u32 n = s->p->num_cores, c, over, pre = 0;

	ki->qfirst = first % n;
	ki->qlen = len < 1 ? 1 : len > n ? n : len;
	ki->quota = count < 1 ? 1 : count > ki->qlen ? ki->qlen : count;
	if (!preempt || !ki->tbs_running)
		return 0;
	for (c = 0; c < n; c++)
		if (!covers(s, ki, c) && edge_simt_resident(s, ki, c))
			pre += vacate(s, ki, c);
	over = 0;
	for (c = 0; c < n; c++)
		if (covers(s, ki, c) && live(s, ki, c))
			over++;
	/* The cores it holds fewest TBs on go first: least work lost. */
	while (over > ki->quota) {
		u32 best = n, bn = ~0U, r;

		for (c = 0; c < n; c++) {
			r = covers(s, ki, c) ? live(s, ki, c) : 0;
			if (r && r < bn) {
				bn = r;
				best = c;
			}
		}
		/* None, or all finishing or lent: let them drain. */
		if (best == n || !vacate(s, ki, best))
			break;
		pre += bn;
		over--;
	}
	return pre;
}

/**
 * edge_app_set - describe an application to the thread-block policies
 * @s: the SIMT model
 * @app: its id, 1 .. EDGE_APPS - 1 (edge_kdesc.app)
 * @a: what it is; NULL to forget it
 *
 * Return: 0, or -EINVAL for a bad id or more than EDGE_APP_TASKS tasks.
 */
int edge_app_set(struct edge_simt *s, u32 app, const struct edge_app *a)
{
	u64 seq;

	if (!app || app >= EDGE_APPS || (a && a->nr_tasks > EDGE_APP_TASKS))
		return -EINVAL;
	/*
	 * The chain count survives: a policy that saw a chain of the slot's
	 * previous application must not take the next one's first for it.
	 */
	seq = s->apps[app].chain_seq;
	if (!a) {
		memset(&s->apps[app], 0, sizeof(s->apps[app]));
		s->apps[app].chain_seq = seq;
		return 0;
	}
	s->apps[app] = *a;
	s->apps[app].used = 1;
	if (seq > a->chain_seq)
		s->apps[app].chain_seq = seq;
	return 0;
}

/**
 * edge_app_chain_begin - a service's chain of tasks (a query) begins now
 * @s: the SIMT model
 * @app: the service
 * @budget_ns: the time its tasks may take, the target less transfers
 *
 * Return: 0, or -EINVAL for an application not set.
 */
int edge_app_chain_begin(struct edge_simt *s, u32 app, u64 budget_ns)
{
	if (!app || app >= EDGE_APPS || !s->apps[app].used)
		return -EINVAL;
	s->apps[app].chain_seq++;
	s->apps[app].chain_start = s->eng->now;
	s->apps[app].chain_budget = budget_ns;
	return 0;
}

/* The application @ki belongs to, or NULL. */
const struct edge_app *edge_app_of(const struct edge_simt *s,
				   const struct edge_kinst *ki)
{
	u32 a = ki->k.app;

	return a && a < EDGE_APPS && s->apps[a].used ? &s->apps[a] : NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The CP's kernel profiling table (LAX Section 4.2) and the estimates the
 * policies take from it.  Per kernel (an entry of the event kernel table),
 * from the kernels of that entry completed in the last profiling window:
 * its latency (first work-group placed to completion), its GPU time (its
 * work-groups' time on slots over the GPU's slots) and its service time
 * (work-groups' mean time, wave after wave).  Documentation/lax.rst says
 * why three, and what each estimate is for.
 */
#include "cp/cp.h"

/* A job not yet ended still counts on entry @idx, or a kernel runs. */
static bool class_in_use(const struct edge_cp *cp, u32 idx)
{
	u32 i, c;

	if (cp->cls[idx].inflight)
		return true;
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		const struct edge_cp_job *j = &cp->jobs[i];

		if (j->state == EDGE_JOB_FREE)
			continue;
		for (c = 0; c < j->nr_cls; c++)
			if (j->cls[c] == idx && j->left[c])
				return true;
	}
	return false;
}

/*
 * Enter kernel @k in the profiling table at @idx (the driver: at
 * REGISTER).  -EINVAL for a bad index or a kernel no core can hold,
 * -EBUSY while a job still counts on the entry.
 */
int edge_cp_set_class(struct edge_cp *cp, u32 idx, const struct edge_kdesc *k)
{
	struct edge_cp_class *c;
	u32 cap;

	if (idx >= EDGE_CP_CLASSES || !k->num_tbs)
		return -EINVAL;
	cap = edge_simt_tbs_per_gpu(cp->s, k);
	if (!cap)
		return -EINVAL;
	if (class_in_use(cp, idx))
		return -EBUSY;
	c = &cp->cls[idx];
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->k = *k;
	c->iso_ns = edge_simt_iso_ns(cp->s, k);
	c->cap_wgs = cap;
	c->iso_work_ns = edge_div64(c->iso_ns * (k->num_tbs < cap ?
						  k->num_tbs : cap), cap);
	c->waves = edge_div64(k->num_tbs + cap - 1, cap);
	return 0;
}

/* Remove entry @idx (the driver: at UNREGISTER); -EBUSY while in use. */
int edge_cp_clear_class(struct edge_cp *cp, u32 idx)
{
	if (idx >= EDGE_CP_CLASSES)
		return -EINVAL;
	if (class_in_use(cp, idx))
		return -EBUSY;
	memset(&cp->cls[idx], 0, sizeof(cp->cls[idx]));
	return 0;
}

/*
 * The profiling table keeps, per kernel, its runtime under the current
 * contention (the mean over the kernels completed in the last window):
 * numWG / WGCompRate in LAX's terms.  A job's remaining time is the sum
 * over its remaining kernels, which run one after the other.  Unknown
 * kernels count 0: LAX is optimistic before it has measured.
 */
u64 edge_cp_rem_measured(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < j->nr_cls; i++)
		t += (u64)j->left[i] * cp->cls[j->cls[i]].lat_ns;
	return t;
}

/*
 * Remaining time if each kernel ran at once, without waiting for slots:
 * its work-groups' measured time, wave after wave.  Waiting behind other
 * jobs' work is Algorithm 1's queue; a measured latency would count it
 * twice, and judge a long job by the burst it arrived in.
 */
u64 edge_cp_rem_service(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < j->nr_cls; i++) {
		const struct edge_cp_class *c = &cp->cls[j->cls[i]];

		t += (u64)j->left[i] * (c->svc_ns ? c->svc_ns : c->iso_ns);
	}
	return t;
}

/* Remaining time by the offline (isolated) profile. */
u64 edge_cp_rem_offline(const struct edge_cp *cp, const struct edge_cp_job *j)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < j->nr_cls; i++)
		t += (u64)j->left[i] * cp->cls[j->cls[i]].iso_ns;
	return t;
}

/*
 * The GPU time a job's remaining work occupies: the time its kernels'
 * work-groups hold the GPU's work-group slots, over the slots.  Summed
 * over the admitted jobs it is how long the GPU needs to drain them, the
 * queuing delay of Algorithm 1 (Little's law over jobs that run side by
 * side, not one after the other).  Measured, it is the work-groups' own
 * time on the cores (LAX's work-group completion rate); a kernel's
 * runtime times its share of the slots would count as busy the slots its
 * later work-groups waited for.  Offline, it is the isolated runtime
 * times that share.
 */
u64 edge_cp_rem_work(const struct edge_cp *cp, const struct edge_cp_job *j,
		     bool offline)
{
	u64 t = 0;
	u32 i;

	/*
	 * A kernel not measured yet counts by its offline profile.  Taking
	 * the rest of the job's deadline instead (LAX Section 4.3 uses the
	 * programmer's deadline) refused most of a first burst that round
	 * robin finishes in time.
	 */
	for (i = 0; i < j->nr_cls; i++) {
		const struct edge_cp_class *c = &cp->cls[j->cls[i]];

		if (offline || !c->work_ns)
			t += (u64)j->left[i] * c->iso_work_ns;
		else
			t += (u64)j->left[i] * c->work_ns;
	}
	return t;
}

/*
 * A kernel of entry @c ended (in the SIMT model's done callback): its
 * measurements go into this window.
 */
void edge_cp_profile_done(struct edge_cp *cp, struct edge_cp_class *c)
{
	/*
	 * The profiling table: this kernel's runtime, from its first
	 * work-group placed (LAX's work-group completion rate).  From its
	 * launch it would count the time it queued behind other jobs'
	 * kernels, which admission adds again as their remaining work: a
	 * loaded GPU would then refuse jobs it can finish in time.
	 */
	c->win_ns += cp->eng->now - edge_simt_done_started(cp->s);
	c->win_work += edge_div64(edge_simt_done_tb_ns(cp->s), c->cap_wgs);
	c->win_svc += edge_div64(edge_simt_done_tb_ns(cp->s), c->k.num_tbs) *
		      c->waves;
	c->win_n++;
}

/* Each profiling period: the window's means become the table. */
void edge_cp_profile_tick(struct edge_cp *cp)
{
	u32 i;

	for (i = 0; i < EDGE_CP_CLASSES; i++) {
		struct edge_cp_class *c = &cp->cls[i];

		/*
		 * A kernel that completed none this window and has none in
		 * flight ages out, halving per window, down to its offline
		 * profile (alone on the GPU): a measurement taken under a
		 * burst would otherwise refuse every later job, and no new
		 * job would run to correct it.  Not below: halved to 0 it
		 * would be "never measured" again, and admission would take
		 * a job of it to need the rest of its deadline.
		 */
		if (c->win_n) {
			c->lat_ns = edge_div64(c->win_ns, c->win_n);
			c->work_ns = edge_div64(c->win_work, c->win_n);
			c->svc_ns = edge_div64(c->win_svc, c->win_n);
		} else if (!c->inflight && c->lat_ns) {
			c->lat_ns /= 2;
			c->work_ns /= 2;
			c->svc_ns /= 2;
			if (c->lat_ns < c->iso_ns)
				c->lat_ns = c->iso_ns;
			if (c->work_ns < c->iso_work_ns)
				c->work_ns = c->iso_work_ns;
			if (c->svc_ns < c->iso_ns)
				c->svc_ns = c->iso_ns;
		}
		c->win_ns = 0;
		c->win_work = 0;
		c->win_svc = 0;
		c->win_n = 0;
	}
}

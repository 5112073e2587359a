// SPDX-License-Identifier: GPL-2.0
/*
 * The Simple Slicing predictor (Pai et al. Section 4, Algorithm 1, Eq. 2).
 *
 * The state of Table 1 per (kernel, core).  Resident_Blocks is the
 * kernel's residency when alone, Total_Blocks ceil(blocks / cores): the
 * paper's estimates, kept although a co-runner changes both, because the
 * slices correct for them (a new t per slice).  A TB preempted off its
 * core is not done and gives no t; nor does a resumed one, whose time is
 * only its remainder.
 */
#include "policy/slicing.h"

int edge_slicing_init(struct edge_slicing *p, const struct edge_simt *s)
{
	u32 i;

	memset(p, 0, sizeof(*p));
	p->ncores = s->p->num_cores;
	p->cores = edge_zalloc(sizeof(*p->cores) * p->ncores *
			       EDGE_SLICING_KERNELS);
	if (!p->cores)
		return -ENOMEM;
	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		p->k[i].c = &p->cores[i * p->ncores];
	return 0;
}

void edge_slicing_fini(struct edge_slicing *p)
{
	edge_free(p->cores);
	p->cores = NULL;
}

int edge_slicing_find(const struct edge_slicing *p,
		      const struct edge_kinst *ki)
{
	int i;

	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		if (p->k[i].ki == ki)
			return i;
	return -1;
}

/* A new slice for every tracked kernel on every core. */
static void reslice(struct edge_slicing *p)
{
	u32 i, c;

	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		for (c = 0; p->k[i].ki && c < p->ncores; c++)
			p->k[i].c[c].reslice = true;
}

/* OnLaunch.  Returns the kernel's slot, or -ENOSPC: it is not tracked. */
int edge_slicing_launch(struct edge_slicing *p, const struct edge_simt *s,
			const struct edge_kinst *ki)
{
	struct edge_slice_kernel *k;
	int slot = edge_slicing_find(p, NULL);
	u32 r;

	if (slot < 0)
		return -ENOSPC;
	k = &p->k[slot];
	memset(k->c, 0, sizeof(*k->c) * p->ncores);
	k->ki = ki;
	r = edge_simt_tbs_per_gpu(s, &ki->k) / p->ncores;
	k->residency = r ? r : 1;
	k->total = edge_div64(ki->k.num_tbs + p->ncores - 1, p->ncores);
	k->done = 0;
	k->t_ns = 0;
	k->has_t = false;
	reslice(p);
	return slot;
}

/* OnKernelEnd: the others start a new slice. */
void edge_slicing_end(struct edge_slicing *p, const struct edge_kinst *ki)
{
	int slot = edge_slicing_find(p, ki);

	if (slot < 0)
		return;
	p->k[slot].ki = NULL;
	reslice(p);
}

/* OnBlockStart: the kernel's first TB on a core opens an active interval. */
void edge_slicing_tb_start(struct edge_slicing *p, const struct edge_simt *s,
			   const struct edge_tb *tb)
{
	int slot = edge_slicing_find(p, tb->ki);

	if (slot >= 0 && edge_simt_resident(s, tb->ki, tb->core) == 1)
		p->k[slot].c[tb->core].since = s->eng->now;
}

/*
 * OnBlockEnd.  Returns the slot when this TB gave a new t (a prediction
 * changed), else -1.
 */
int edge_slicing_tb_end(struct edge_slicing *p, const struct edge_simt *s,
			const struct edge_tb *tb)
{
	int slot = edge_slicing_find(p, tb->ki);
	struct edge_slice_core *c;
	u64 now = s->eng->now;

	if (slot < 0)
		return -1;
	c = &p->k[slot].c[tb->core];
	if (!edge_simt_resident(s, tb->ki, tb->core))
		c->active_ns += now - c->since;
	if (tb->suspending)
		return -1;
	c->done++;
	p->k[slot].done++;
	if ((c->has_t && !c->reslice) || tb->extra_cycles)
		return -1;
	c->t_ns = now - tb->start;
	c->has_t = true;
	c->reslice = false;
	p->k[slot].t_ns = c->t_ns;
	p->k[slot].has_t = true;
	return slot;
}

/*
 * Eq. 2 on @core: Pred_Cycles, in ns.  A core without a t of its own
 * takes the kernel's latest (the sample's, copied as the paper does).
 */
bool edge_slicing_pred_core(const struct edge_slicing *p,
			    const struct edge_simt *s, int slot, u32 core,
			    u64 *pred_ns)
{
	const struct edge_slice_kernel *k = &p->k[slot];
	const struct edge_slice_core *c = &k->c[core];
	u64 t = c->has_t ? c->t_ns : k->t_ns, active = c->active_ns;
	u64 left = k->total > c->done ? k->total - c->done : 0;

	if (!k->ki || !k->has_t)
		return false;
	if (edge_simt_resident(s, k->ki, core))
		active += s->eng->now - c->since;
	*pred_ns = active + edge_div64(left * t, k->residency);
	return true;
}

/*
 * The kernel's remaining time: Eq. 2's second term over the whole GPU,
 * (blocks left) x t / (R x cores), with t the mean of the cores' own
 * (the sample's where a core has none).  Per core, Total_Blocks is only
 * an estimate: a co-runner on some cores moves blocks to the others, and
 * the sum over cores keeps the count of blocks left exact.
 */
bool edge_slicing_remaining(const struct edge_slicing *p, int slot, u64 *ns)
{
	const struct edge_slice_kernel *k = &p->k[slot];
	u64 sum = 0, left;
	u32 c;

	if (!k->ki || !k->has_t)
		return false;
	for (c = 0; c < p->ncores; c++)
		sum += k->c[c].has_t ? k->c[c].t_ns : k->t_ns;
	left = k->ki->k.num_tbs > k->done ? k->ki->k.num_tbs - k->done : 0;
	*ns = edge_div64(edge_div64(left * edge_div64(sum, p->ncores),
				    k->residency), p->ncores);
	return true;
}

/* Eq. 1's isolated estimate, blocks x t / (R x cores), for slowdowns. */
u64 edge_slicing_alone(const struct edge_slicing *p, int slot)
{
	const struct edge_slice_kernel *k = &p->k[slot];

	return edge_div64(edge_div64(k->ki->k.num_tbs * k->t_ns,
				     k->residency), p->ncores);
}

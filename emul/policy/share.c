// SPDX-License-Identifier: GPL-2.0
/*
 * Two thread-block policies of Pai et al. that need no runtime predictor:
 *
 * - sjf-oracle (Section 6.2.2): shortest job first, told each kernel's
 *   isolated runtime at launch.  The runtime is Eq. 1 of the paper,
 *   ceil(ceil(blocks / cores) / R) x t, with t a TB's time at full
 *   residency on an otherwise idle core: the model's own, so the oracle is
 *   exact up to the TBs' spread.
 *
 * - mpmax (Section 5.2.2, just-in-time MPMax): while kernels run
 *   together, each leaves room on every core for one TB of each of the
 *   others; alone, it has the whole core again.  The cap is the largest
 *   count of its TBs that fits beside one TB of every co-runner, by each
 *   resource; never below one.  TBs go in launch order up to the cap.
 */
#include "gpu/simt.h"

#define SHARE_KERNELS	8	/* co-runners MPMax leaves room for */

static u64 iso_estimate(const struct edge_simt *s, const struct edge_kinst *ki)
{
	const struct edge_kdesc *k = &ki->k;
	u32 n = s->p->num_cores, r = edge_simt_tbs_per_gpu(s, k) / n, warps;
	u64 per_core = edge_div64(k->num_tbs + n - 1, n), waves, occ, t;

	if (!r)
		r = 1;
	waves = edge_div64(per_core + r - 1, r);
	warps = r * k->warps_per_tb;
	occ = (u64)warps * 1000 / (s->p->threads_per_core / s->p->warp_size);
	/* edge_simt_corun()'s stretch at that occupancy. */
	t = k->warp_cycles + edge_div64(k->warp_cycles * k->ws.corun_pct * occ,
					100000);
	return waves * t;
}

static u64 tb_regs(const struct edge_simt *s, const struct edge_kdesc *k)
{
	return (u64)k->warps_per_tb * s->p->warp_size * k->regs_per_thread;
}

static bool sjf_before(const struct edge_simt *s, const struct edge_kinst *a,
		       const struct edge_kinst *b)
{
	u64 ta = iso_estimate(s, a), tb = iso_estimate(s, b);

	if (ta != tb)
		return ta < tb;
	return a->order < b->order;
}

const struct edge_tb_policy edge_tbp_sjf_oracle = {
	.name = "sjf-oracle",
	.before = sjf_before,
};

struct mpmax {
	const struct edge_kinst *ki[SHARE_KERNELS];
};

static int mpmax_init(struct edge_simt *s, void **priv)
{
	(void)s;
	*priv = edge_zalloc(sizeof(struct mpmax));
	return *priv ? 0 : -ENOMEM;
}

static void mpmax_fini(struct edge_simt *s, void *priv)
{
	(void)s;
	edge_free(priv);
}

static void mpmax_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	struct mpmax *m = s->tbp_priv;
	u32 i;

	for (i = 0; i < SHARE_KERNELS; i++) {
		if (!m->ki[i]) {
			m->ki[i] = ki;
			return;
		}
	}
}

static void mpmax_end(struct edge_simt *s, struct edge_kinst *ki)
{
	struct mpmax *m = s->tbp_priv;
	u32 i;

	for (i = 0; i < SHARE_KERNELS; i++)
		if (m->ki[i] == ki)
			m->ki[i] = NULL;
}

/* How many TBs of @need fit in @room, by one resource. */
static u32 fit(u64 room, u64 need, u32 n)
{
	u64 q;

	if (!need)
		return n;
	q = edge_div64_64(room, need);
	return q < n ? (u32)q : n;
}

static u32 mpmax_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		     u32 core)
{
	const struct edge_preset *p = s->p;
	const struct mpmax *m = s->tbp_priv;
	u64 thr = p->threads_per_core, regs = p->regs_per_core;
	u64 smem = p->smem_per_core, slots = p->tb_slots_per_core;
	bool others = false;
	u32 i, n;

	(void)core;	/* the same room on every core */
	for (i = 0; i < SHARE_KERNELS; i++) {
		const struct edge_kdesc *o;
		u64 t, r;

		if (!m->ki[i] || m->ki[i] == ki)
			continue;
		o = &m->ki[i]->k;
		t = (u64)o->warps_per_tb * p->warp_size;
		r = tb_regs(s, o);
		others = true;
		thr = thr > t ? thr - t : 0;
		regs = regs > r ? regs - r : 0;
		smem = smem > o->smem_per_block ? smem - o->smem_per_block : 0;
		slots = slots ? slots - 1 : 0;
	}
	if (!others)
		return EDGE_TB_NOCAP;
	n = fit(thr, (u64)ki->k.warps_per_tb * p->warp_size, (u32)slots);
	n = fit(regs, tb_regs(s, &ki->k), n);
	n = fit(smem, ki->k.smem_per_block, n);
	return n ? n : 1;
}

const struct edge_tb_policy edge_tbp_mpmax = {
	.name = "mpmax",
	.init = mpmax_init,
	.fini = mpmax_fini,
	.cap = mpmax_cap,
	.kernel_launch = mpmax_launch,
	.kernel_end = mpmax_end,
};

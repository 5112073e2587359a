// SPDX-License-Identifier: GPL-2.0
/*
 * SRTF, SRTF/Adaptive (Pai et al. Section 5.1) and SRTF that hands cores
 * over by preempting TBs (ours), on the Simple Slicing predictor
 * (policy/slicing.c).
 *
 * A kernel that launches onto an idle GPU runs and learns its t from its
 * own TBs.  One that launches beside others waits, and is sampled on one
 * core (core 0, the paper's SM0), one kernel at a time in launch order:
 * there the others place no more TBs, elsewhere it places none, until its
 * first TB ends.  Then every kernel with a prediction is ordered by its
 * predicted remaining time, shortest first, and the dispatcher hands each
 * core to the shortest kernel as the others' resident TBs end (the paper's
 * hand-off delay).
 *
 * SRTF/Adaptive estimates each kernel's slowdown under that order (Fig.
 * 13: finish time from its launch over its Eq. 1 runtime alone); when the
 * largest exceeds the smallest by more than 0.5 (the paper's threshold)
 * it shares: the kernel with the smallest slowdown, the one SRTF favours,
 * keeps at most 3 TBs per core (the paper's fixed limit, "one less than
 * half" of 8), and the rest go to the others.  It keeps monitoring: the
 * decision is taken again at every new prediction and kernel end, with
 * the non-sharing estimate (the paper's fuller estimate of the shared
 * schedule, TS1 and TS2 of Fig. 13, is not modelled: our choice, see
 * Documentation/results/srtf/README.rst).
 *
 * Ours preempts instead of waiting: the resident TBs of other kernels on
 * the sampling core leave it when sampling starts, and those of longer
 * kernels leave as many cores as the new shortest kernel can fill when
 * the order changes (edge_simt_preempt_tb()); a TB with less than 10 % of
 * its time left is let finish.
 */
#include "policy/slicing.h"

#define SRTF_SAMPLE_CORE	0
#define SRTF_SHARE_CAP		3	/* Section 5.1.2 */
#define SRTF_UNFAIR_MILLI	500	/* slowdown spread that shares */
#define SRTF_LEFT_PCT		10	/* a TB this close to its end finishes */

enum srtf_mode { SRTF_PLAIN, SRTF_ADAPTIVE, SRTF_PREEMPT };

enum srtf_state {
	SRTF_RUN,		/* alone at launch, or sampled */
	SRTF_WAIT,		/* waits to be sampled */
	SRTF_SAMPLE,		/* sampled on SRTF_SAMPLE_CORE */
};

struct srtf {
	struct edge_slicing p;
	enum srtf_mode mode;
	u8 state[EDGE_SLICING_KERNELS];
	u8 rank[EDGE_SLICING_KERNELS];	/* dispatch order, 0 first */
	int sampling;		/* slot sampled, or -1 */
	int fast;		/* slot capped while sharing, or -1 */
	int head;		/* first slot in order, for hand-over */
};

static struct srtf *srtf_of(const struct edge_simt *s)
{
	return s->tbp_priv;
}

static int srtf_init(struct edge_simt *s, void **priv, enum srtf_mode mode)
{
	struct srtf *st = edge_zalloc(sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (edge_slicing_init(&st->p, s)) {
		edge_free(st);
		return -ENOMEM;
	}
	st->mode = mode;
	st->sampling = -1;
	st->fast = -1;
	st->head = -1;
	*priv = st;
	return 0;
}

static int srtf_init_plain(struct edge_simt *s, void **priv)
{
	return srtf_init(s, priv, SRTF_PLAIN);
}

static int srtf_init_adaptive(struct edge_simt *s, void **priv)
{
	return srtf_init(s, priv, SRTF_ADAPTIVE);
}

static int srtf_init_preempt(struct edge_simt *s, void **priv)
{
	return srtf_init(s, priv, SRTF_PREEMPT);
}

static void srtf_fini(struct edge_simt *s, void *priv)
{
	struct srtf *st = priv;

	(void)s;
	edge_slicing_fini(&st->p);
	edge_free(st);
}

/*
 * Preempt up to @n TBs from @core, youngest first: @victim's, or (NULL)
 * any kernel's but @ki's.
 */
static u32 evict(struct edge_simt *s, u32 core, const struct edge_kinst *ki,
		 const struct edge_kinst *victim, u32 n)
{
	const struct edge_core *c = &s->cores[core];
	u64 now = s->eng->now;
	u32 done = 0;

	while (done < n) {
		struct edge_tb *best = NULL;
		u32 i;

		for (i = 0; i < c->nr_tbs; i++) {
			struct edge_tb *tb = c->tb[i];

			if (tb->ki == ki || (victim && tb->ki != victim) ||
			    tb->suspending || tb->preempted ||
			    tb->done_pending || tb->end <= now ||
			    (tb->end - now) * 100 <
			    (tb->end - tb->prog_start) * SRTF_LEFT_PCT)
				continue;
			if (!best || tb->launch_order > best->launch_order)
				best = tb;
		}
		if (!best || edge_simt_preempt_tb(s, best))
			break;
		done++;
	}
	return done;
}

/*
 * Ours: @slot became the first kernel.  Take from each core, in turn, the
 * TBs of the others that the TBs it still has to place would use: as
 * many of theirs as its residency's share of the core.
 */
static void hand_over(struct edge_simt *s, struct srtf *st, int slot)
{
	const struct edge_slice_kernel *k = &st->p.k[slot];
	u64 left = k->ki->k.num_tbs - k->ki->tbs_dispatched;
	u32 c;

	for (c = 0; c < st->p.ncores && left; c++) {
		u32 take = left < k->residency ? (u32)left : k->residency;
		u32 i, n = 0;

		left -= take;
		/* The others' TBs, scaled from its residency to theirs. */
		for (i = 0; i < EDGE_SLICING_KERNELS; i++) {
			const struct edge_slice_kernel *o = &st->p.k[i];
			u32 res;

			if ((int)i == slot || !o->ki)
				continue;
			res = edge_simt_resident(s, o->ki, c);
			n = (take * o->residency + k->residency - 1) /
			    k->residency;
			if (res)
				evict(s, c, k->ki, o->ki, n < res ? n : res);
		}
	}
}

/* Slowdowns under SRTF's order (Fig. 13): share when they spread. */
static void adapt(struct edge_simt *s, struct srtf *st)
{
	u64 rem[EDGE_SLICING_KERNELS], fin = 0, lo = ~0ULL, hi = 0;
	int order[EDGE_SLICING_KERNELS], n = 0, i, j, fast = -1;

	st->fast = -1;
	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		if (st->p.k[i].ki && st->state[i] == SRTF_RUN &&
		    edge_slicing_remaining(&st->p, i, &rem[i]))
			order[n++] = i;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		for (j = i; j > 0 && rem[order[j]] < rem[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		int k = order[i];
		u64 alone = edge_slicing_alone(&st->p, k), sd;

		fin += rem[k];
		sd = edge_div64_64((s->eng->now - st->p.k[k].ki->arrival + fin) *
				   1000, alone ? alone : 1);
		if (sd < lo) {
			lo = sd;
			fast = k;
		}
		if (sd > hi)
			hi = sd;
	}
	if (hi - lo > SRTF_UNFAIR_MILLI)
		st->fast = fast;
}

/*
 * The dispatch order: the kernel sampled, then the kernels with a
 * prediction by remaining time, then those without one, in launch order.
 */
static bool reorder(struct srtf *st)
{
	u64 key[EDGE_SLICING_KERNELS], rem;
	bool changed = false;
	int i, j;

	for (i = 0; i < EDGE_SLICING_KERNELS; i++) {
		const struct edge_kinst *ki = st->p.k[i].ki;

		if (!ki)
			continue;
		if (st->state[i] == SRTF_SAMPLE)
			key[i] = 0;
		else if (st->state[i] == SRTF_RUN &&
			 edge_slicing_remaining(&st->p, i, &rem))
			key[i] = 1 + (rem >> 1);
		else
			key[i] = (1ULL << 63) + ki->order;
	}
	for (i = 0; i < EDGE_SLICING_KERNELS; i++) {
		u8 r = 0;

		if (!st->p.k[i].ki)
			continue;
		for (j = 0; j < EDGE_SLICING_KERNELS; j++)
			if (j != i && st->p.k[j].ki &&
			    (key[j] < key[i] || (key[j] == key[i] &&
			     st->p.k[j].ki->order < st->p.k[i].ki->order)))
				r++;
		changed |= st->rank[i] != r;
		st->rank[i] = r;
	}
	return changed;
}

/* After any event that may change a prediction, a state or the order. */
static void refresh(struct edge_simt *s, struct srtf *st)
{
	bool decided = false, changed;
	int i, head = -1;

	if (st->sampling >= 0 && st->p.k[st->sampling].has_t) {
		st->state[st->sampling] = SRTF_RUN;
		st->sampling = -1;
		decided = true;
	}
	if (st->sampling < 0) {
		int first = -1;

		for (i = 0; i < EDGE_SLICING_KERNELS; i++)
			if (st->p.k[i].ki && st->state[i] == SRTF_WAIT &&
			    (first < 0 || st->p.k[i].ki->order <
			     st->p.k[first].ki->order))
				first = i;
		if (first >= 0) {
			st->state[first] = SRTF_SAMPLE;
			st->sampling = first;
			if (st->mode == SRTF_PREEMPT)
				evict(s, SRTF_SAMPLE_CORE, st->p.k[first].ki,
				      NULL, s->p->tb_slots_per_core);
		}
	}
	if (st->mode == SRTF_ADAPTIVE)
		adapt(s, st);
	changed = reorder(st);
	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		if (st->p.k[i].ki && st->rank[i] == 0)
			head = i;
	/* A kernel sampled first stays first: its cores come now. */
	if (st->mode == SRTF_PREEMPT && head >= 0 &&
	    (head != st->head || decided) && st->state[head] == SRTF_RUN)
		hand_over(s, st, head);
	st->head = head;
	if (changed)
		edge_simt_requeue(s);
}

static void srtf_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	struct srtf *st = srtf_of(s);
	bool alone = true;
	int slot, i;

	for (i = 0; i < EDGE_SLICING_KERNELS; i++)
		if (st->p.k[i].ki)
			alone = false;
	slot = edge_slicing_launch(&st->p, s, ki);
	if (slot < 0)
		return;		/* untracked: after the tracked, FIFO */
	st->state[slot] = alone ? SRTF_RUN : SRTF_WAIT;
	refresh(s, st);
}

static void srtf_end(struct edge_simt *s, struct edge_kinst *ki)
{
	struct srtf *st = srtf_of(s);
	int slot = edge_slicing_find(&st->p, ki);

	if (slot < 0)
		return;
	edge_slicing_end(&st->p, ki);
	if (st->sampling == slot)
		st->sampling = -1;
	if (st->fast == slot)
		st->fast = -1;
	if (st->head == slot)
		st->head = -1;
	refresh(s, st);
}

static void srtf_tb_start(struct edge_simt *s, struct edge_tb *tb)
{
	edge_slicing_tb_start(&srtf_of(s)->p, s, tb);
}

static void srtf_tb_end(struct edge_simt *s, struct edge_tb *tb)
{
	struct srtf *st = srtf_of(s);

	if (edge_slicing_tb_end(&st->p, s, tb) >= 0)
		refresh(s, st);
}

static bool srtf_before(const struct edge_simt *s, const struct edge_kinst *a,
			const struct edge_kinst *b)
{
	const struct srtf *st = srtf_of(s);
	int sa = edge_slicing_find(&st->p, a), sb = edge_slicing_find(&st->p, b);
	u32 ra = sa < 0 ? EDGE_SLICING_KERNELS : st->rank[sa];
	u32 rb = sb < 0 ? EDGE_SLICING_KERNELS : st->rank[sb];

	if (ra != rb)
		return ra < rb;
	return a->order < b->order;
}

static u32 srtf_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		    u32 core)
{
	const struct srtf *st = srtf_of(s);
	int slot = edge_slicing_find(&st->p, ki);

	if (slot < 0)
		return EDGE_TB_NOCAP;
	switch (st->state[slot]) {
	case SRTF_WAIT:
		return 0;
	case SRTF_SAMPLE:
		return core == SRTF_SAMPLE_CORE ? EDGE_TB_NOCAP : 0;
	default:
		if (st->sampling >= 0 && core == SRTF_SAMPLE_CORE)
			return 0;
		return st->fast == slot ? SRTF_SHARE_CAP : EDGE_TB_NOCAP;
	}
}

/* The predictor of @s's SRTF policy, for tools and tests; NULL if none. */
const struct edge_slicing *edge_srtf_predictor(const struct edge_simt *s)
{
	const struct edge_tb_policy *t = s->tbp;

	if (t != &edge_tbp_srtf && t != &edge_tbp_srtf_adaptive &&
	    t != &edge_tbp_srtf_preempt)
		return NULL;
	return &srtf_of(s)->p;
}

/* Adaptive: whether it shares now. */
bool edge_srtf_sharing(const struct edge_simt *s)
{
	return edge_srtf_predictor(s) && srtf_of(s)->fast >= 0;
}

#define SRTF_OPS(nm, init_fn)						\
	{								\
		.name = nm,						\
		.init = init_fn,					\
		.fini = srtf_fini,					\
		.before = srtf_before,					\
		.cap = srtf_cap,					\
		.kernel_launch = srtf_launch,				\
		.kernel_end = srtf_end,					\
		.tb_start = srtf_tb_start,				\
		.tb_end = srtf_tb_end,					\
	}

const struct edge_tb_policy edge_tbp_srtf = SRTF_OPS("srtf", srtf_init_plain);
const struct edge_tb_policy edge_tbp_srtf_adaptive =
	SRTF_OPS("srtf-adaptive", srtf_init_adaptive);
const struct edge_tb_policy edge_tbp_srtf_preempt =
	SRTF_OPS("srtf-preempt", srtf_init_preempt);

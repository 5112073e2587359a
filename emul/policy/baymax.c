// SPDX-License-Identifier: GPL-2.0
/*
 * Baymax as C-Laius Section 9.2 runs it (Chen et al., ASPLOS'16): every
 * application may use 100 % of the GPU, and tasks run one at a time.
 * A service's task goes first; a batch task is issued only when its
 * predicted duration (its isolated profile at 100 %, edge_app.prof, for
 * the share of its TBs still to place) fits the QoS headroom of every
 * query in flight: the time left to its target less the predicted time
 * of its remaining tasks.  With no query in flight a batch task is
 * issued at once.  A batch kernel of the model stands for a stream of
 * kernels far shorter than a query, so it is re-checked at each TB: it
 * stops placing TBs when a service's task waits or the headroom is gone,
 * and the TBs it has drain.  (The LAX paper's Baymax is
 * the queue-level "bay" policy; this is the thread-block-level one.)
 */
#include "gpu/simt.h"

struct bay {
	struct edge_kinst *cur;		/* the batch task on the GPU */
	u32 svc_live;			/* services' kernels launched, not done */
	u64 seq[EDGE_APPS];		/* chain seen, per service */
	u32 done[EDGE_APPS];		/* ... its tasks completed */
};

static int bay_init(struct edge_simt *s, void **priv)
{
	(void)s;
	*priv = edge_zalloc(sizeof(struct bay));
	return *priv ? 0 : -ENOMEM;
}

static void bay_fini(struct edge_simt *s, void *priv)
{
	(void)s;
	edge_free(priv);
}

/*
 * Tasks of the current chain of @app done (a new chain: none yet).  Only
 * read: the cap hooks, which call it, change nothing.
 */
static u32 chain_done(const struct bay *b, const struct edge_app *a, u32 app)
{
	return b->seq[app] == a->chain_seq ? b->done[app] : 0;
}

/* A batch task of @ns fits every query's headroom. */
static bool fits(const struct edge_simt *s, const struct bay *b, u64 ns)
{
	u64 now = s->eng->now;
	u32 i, t;

	for (i = 1; i < EDGE_APPS; i++) {
		const struct edge_app *a = &s->apps[i];
		u64 need, used;

		if (!a->used || !a->qos || !a->chain_seq)
			continue;
		t = chain_done(b, a, i);
		if (t >= a->nr_tasks)
			continue;	/* not in flight */
		used = now - a->chain_start;
		for (need = ns; t < a->nr_tasks; t++)
			need += a->prof[t].ns[EDGE_QUOTA_STEPS - 1];
		if (used + need > a->chain_budget)
			return false;
	}
	return true;
}

/* A batch kernel that must wait, on every core alike. */
static bool bay_held(const struct edge_simt *s, const struct edge_kinst *ki)
{
	const struct bay *b = s->tbp_priv;
	const struct edge_app *a = edge_app_of(s, ki);
	u64 left;

	if (a && a->qos)
		return false;
	/* A service's task waits or runs: the GPU is its. */
	if (b->svc_live || (b->cur && b->cur != ki))
		return true;
	if (a && ki->k.task && ki->k.task <= a->nr_tasks) {
		left = edge_div64_64(a->prof[ki->k.task - 1].ns[EDGE_QUOTA_STEPS - 1] *
				     (ki->k.num_tbs - ki->tbs_dispatched),
				     ki->k.num_tbs);
		if (!fits(s, b, left))
			return true;
	}
	return false;
}

static u32 bay_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		   u32 core)
{
	struct bay *b = s->tbp_priv;

	(void)core;
	if (bay_held(s, ki))
		return 0;
	/* Issued: the one batch task on the GPU until it ends. */
	if (!edge_app_of(s, ki) || !edge_app_of(s, ki)->qos)
		b->cur = (struct edge_kinst *)ki;
	return EDGE_TB_NOCAP;
}

/* Held, it waits for every core; otherwise each core's cap is the same. */
static void bay_cap_cores(const struct edge_simt *s,
			  const struct edge_kinst *ki, u32 *first, u32 *len,
			  bool *resident)
{
	(void)first;
	(void)resident;
	if (bay_held(s, ki))
		*len = 0;
}

static void bay_kernel_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	struct bay *b = s->tbp_priv;

	if (edge_sp_qos(s, ki))
		b->svc_live++;
}

static void bay_kernel_end(struct edge_simt *s, struct edge_kinst *ki)
{
	struct bay *b = s->tbp_priv;
	const struct edge_app *a = edge_app_of(s, ki);

	if (b->cur == ki)
		b->cur = NULL;
	/* Launched before this policy took over: not counted. */
	if (a && a->qos && b->svc_live)
		b->svc_live--;
	if (a && a->qos && ki->k.task) {
		b->seq[ki->k.app] = a->chain_seq;
		b->done[ki->k.app] = ki->k.task;
	}
}

const struct edge_tb_policy edge_tbp_baymax = {
	.name = "baymax",
	.init = bay_init,
	.fini = bay_fini,
	.before = edge_sp_before,
	.cap = bay_cap,
	.cap_cores = bay_cap_cores,
	.kernel_launch = bay_kernel_launch,
	.kernel_end = bay_kernel_end,
};

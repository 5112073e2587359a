// SPDX-License-Identifier: GPL-2.0
/*
 * Spatial multitasking as Volta MPS does it: every application's kernels
 * run on at most a fixed percentage of the SMs, any of them, and share
 * the SMs they land on (C-Laius Section 3, Fig. 2).
 *
 * - even: 200 % / n for each of n applications (NVIDIA's advice);
 * - priority: 100 % for the service, 100 % / (n - 1) for each batch one;
 * - mps: each application's own edge_app.quota_pct (the launcher's or
 *   sysfs's), e.g. for profiling a task at one quota.
 *
 * In all of them, and in the other spatial policies, a service's kernels
 * go first in dispatch order among kernels of one priority, as a higher
 * CUDA stream priority would have them: a batch kernel waiting for room
 * does not hold a query's kernel back, only the SMs it already fills do.
 */
#include "gpu/simt.h"

/* @ki belongs to a latency-critical service. */
bool edge_sp_qos(const struct edge_simt *s, const struct edge_kinst *ki)
{
	const struct edge_app *a = edge_app_of(s, ki);

	return a && a->qos;
}

/* Services first, then the CP's rank, then launch order. */
bool edge_sp_before(const struct edge_simt *s, const struct edge_kinst *a,
		    const struct edge_kinst *b)
{
	bool qa = edge_sp_qos(s, a), qb = edge_sp_qos(s, b);

	if (qa != qb)
		return qa;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	return a->order < b->order;
}

/* Applications described, and how many of them are services. */
u32 edge_sp_apps(const struct edge_simt *s, u32 *services)
{
	u32 i, n = 0, q = 0;

	for (i = 1; i < EDGE_APPS; i++) {
		if (!s->apps[i].used)
			continue;
		n++;
		q += s->apps[i].qos ? 1 : 0;
	}
	if (services)
		*services = q;
	return n;
}

static void set_pct(struct edge_simt *s, struct edge_kinst *ki, u32 pct)
{
	edge_quota_set(s, ki, 0, s->p->num_cores, edge_quota_cores(s, pct),
		       false);
}

static void even_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	u32 n = edge_sp_apps(s, NULL);

	set_pct(s, ki, n > 2 ? 200 / n : 100);
}

static void priority_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	u32 n = edge_sp_apps(s, NULL);

	set_pct(s, ki, edge_sp_qos(s, ki) || n < 2 ? 100 : 100 / (n - 1));
}

static void mps_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	const struct edge_app *a = edge_app_of(s, ki);

	set_pct(s, ki, a && a->quota_pct ? a->quota_pct : 100);
}

const struct edge_tb_policy edge_tbp_even = {
	.name = "even",
	.before = edge_sp_before,
	.cap = edge_quota_cap,
	.cap_cores = edge_quota_cap_cores,
	.kernel_launch = even_launch,
};

const struct edge_tb_policy edge_tbp_priority = {
	.name = "priority",
	.before = edge_sp_before,
	.cap = edge_quota_cap,
	.cap_cores = edge_quota_cap_cores,
	.kernel_launch = priority_launch,
};

const struct edge_tb_policy edge_tbp_mps = {
	.name = "mps",
	.before = edge_sp_before,
	.cap = edge_quota_cap,
	.cap_cores = edge_quota_cap_cores,
	.kernel_launch = mps_launch,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * Applications from what the ABI gives (emul/gpu/appprof.c): a TB's
 * memory demand by Little's law, the predictor from the kernel's shape,
 * and, as the module's kselftest does it through /dev/edge0, a service
 * with a deadline beside a memory-heavy batch kernel under C-Laius and
 * under even allocation.
 */
#include "simt_rig.h"

static void gpu(struct __test_metadata *_metadata, const char *policy)
{
	struct edge_simt_cfg cfg;
	int id = edge_tb_policy_find(policy);

	ASSERT_LE(0, id);
	edge_simt_default_cfg(&cfg);
	cfg.tb_policy = (u32)id;
	rig_init_cfg(_metadata, edge_preset_find("rtx2080ti"), &cfg);
	R.no_check = true;
}

/*
 * 8 warps, 90 % bound by memory, one 128-byte request each in flight
 * over 400 cycles at 1545 MHz: 8 x 0.9 x 128 / 400 x 1545 = 3559 MB/s.
 */
TEST(demand_by_littles_law)
{
	struct edge_kdesc k;

	gpu(_metadata, "default");
	k = rig_kdesc(256, 1, 32, 0, 15450, 0);
	k.ws.mem_pct = 90;
	EXPECT_EQ(3559U, edge_membw_demand(&R.p, &k));
	k.ws.mem_pct = 0;			/* compute-bound: none */
	EXPECT_EQ(0U, edge_membw_demand(&R.p, &k));
	k.ws.mem_pct = 90;
	k.mem_bw_mbs = 1234;			/* its own: kept */
	EXPECT_EQ(1234U, edge_membw_demand(&R.p, &k));
	k.mem_bw_mbs = 0;
	/* A preset without a peak bandwidth: the older model, none. */
	EXPECT_EQ(0U, edge_membw_demand(edge_preset_find("edge"), &k));
	rig_fini();
}

/* Alone at @pct % (policy mps): the kernel's runtime. */
static u64 alone_at(struct __test_metadata *_metadata,
		    const struct edge_kdesc *k0, u32 pct)
{
	struct edge_kdesc k = *k0;
	struct edge_app ap;
	u64 t;

	gpu(_metadata, "mps");
	memset(&ap, 0, sizeof(ap));
	ap.quota_pct = pct;
	EXPECT_EQ(0, edge_app_set(&R.s, 1, &ap));
	k.app = 1;
	rig_launch(&k, 1);
	rig_run_until_done(_metadata, 1);
	t = R.done_at[1];
	rig_fini();
	return t;
}

/*
 * The predictor is Eq. 1 of the shape at each quota, with the stretch
 * the model applies to the kernel alone: for a kernel without spread it
 * is within 2 % of the model's run at 20, 50 and 100 %.
 */
TEST(profile_matches_isolated_runs)
{
	static const u32 pct[] = { 20, 50, 100 };
	struct edge_task_prof pr;
	struct edge_kdesc k;
	u32 i;

	gpu(_metadata, "default");
	k = rig_kdesc(256, 68 * 4 * 3, 32, 0, 15450, 0);
	k.ws.mem_pct = 60;
	k.ws.corun_pct = 20;
	k.mem_bw_mbs = edge_membw_demand(&R.p, &k);
	edge_app_profile(&R.s, &k, &pr);
	rig_fini();
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		u64 run = alone_at(_metadata, &k, pct[i]);
		u64 p = pr.ns[pct[i] / 10 - 1];

		EXPECT_LE(p * 98, run * 100) TH_LOG("%u %%: predicted %llu ran %llu",
			pct[i], (unsigned long long)p, (unsigned long long)run);
		EXPECT_GE(p * 102, run * 100) TH_LOG("%u %%: predicted %llu ran %llu",
			pct[i], (unsigned long long)p, (unsigned long long)run);
	}
}

#define SVC_DEADLINE	25000ULL	/* ns */

/*
 * The module's set-up: a batch entry (no deadline) whose TBs are 90 %
 * memory-bound and hold two of a core's four 256-thread slots (24 KB of
 * shared memory), and a service entry with a deadline, one query.  The
 * batch starts first; the query arrives while it runs.  Returns the
 * query's latency.
 */
static u64 query_beside(struct __test_metadata *_metadata, const char *policy,
			u32 batch_mem_pct)
{
	struct edge_kdesc b, v;
	u64 t0;

	gpu(_metadata, policy);
	b = rig_kdesc(256, 68 * 2 * 4, 32, 24 * 1024, 154500, 0);
	b.ws.mem_pct = batch_mem_pct;
	v = rig_kdesc(256, 68 * 4, 32, 0, 15450, 0);
	v.ws.mem_pct = 80;
	v.deadline_ns = SVC_DEADLINE;
	EXPECT_EQ(1U, edge_app_add(&R.s, &b));
	EXPECT_EQ(2U, edge_app_add(&R.s, &v));
	rig_launch(&b, 1);
	rig_run_to(_metadata, 20000);
	t0 = R.eng.now;
	ASSERT_EQ(0, edge_app_chain_begin(&R.s, 2, v.deadline_ns));
	rig_launch(&v, 2);
	rig_run_until_done(_metadata, 2);
	t0 = R.done_at[2] - t0;
	rig_run_until_done(_metadata, 1);
	rig_fini();
	return t0;
}

TEST(service_beside_memory_heavy_batch)
{
	u64 cl = query_beside(_metadata, "claius", 90);
	u64 even = query_beside(_metadata, "even", 90);
	u64 even_cpu = query_beside(_metadata, "even", 0);
	u64 prio = query_beside(_metadata, "priority", 90);

	TH_LOG("claius %llu even %llu even/compute %llu priority %llu",
	       (unsigned long long)cl, (unsigned long long)even,
	       (unsigned long long)even_cpu, (unsigned long long)prio);
	EXPECT_GE(SVC_DEADLINE, cl);
	EXPECT_LT(SVC_DEADLINE, even);
	EXPECT_GE(SVC_DEADLINE, even_cpu);
}

TEST_HARNESS_MAIN

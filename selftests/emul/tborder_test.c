// SPDX-License-Identifier: GPL-2.0
/*
 * Each thread-block policy's defining rule, in a small situation where
 * that rule alone decides what runs where (emul/policy/share.c,
 * srtf.c, slicing.c, claius.c): MPMax's thread room beside a co-runner,
 * srtf-preempt's victims (the youngest TBs, and never one nearly done),
 * SRTF's sampling core kept for the kernel sampled, the predictor's new
 * slice when another kernel launches, and C-Laius's Section 8 raise of
 * the service with the larger T.  Each was seen failing with its rule
 * broken (tools/mutants.txt names the mutants).
 *
 * The small GPU of srtf_test.c: 4 cores of 4 TB slots and 8 warps;
 * TBs of W cycles, no spread, no co-run stretch.
 */
#include "simt_rig.h"
#include "policy/slicing.h"

#define W	7000ULL		/* 10 us at 700 MHz */
#define W_NS	10000ULL

static void gpu(struct __test_metadata *_metadata, u32 pol)
{
	struct edge_preset p = rig_preset_small(4);
	struct edge_simt_cfg cfg;

	edge_simt_default_cfg(&cfg);
	cfg.sched = EDGE_SCHED_DRAIN;
	cfg.tb_policy = pol;
	rig_init_cfg(_metadata, &p, &cfg);
}

/*
 * MPMax leaves room by every resource, threads too: beside a co-runner
 * of 4-warp TBs, a kernel of 2-warp TBs keeps at most 2 a core (8 warps
 * - 4), not the 3 its slots would allow, and the co-runner places one
 * TB on every core at once.
 */
TEST(mpmax_leaves_thread_room)
{
	struct edge_kdesc a, b;
	u32 c;

	gpu(_metadata, EDGE_TBP_MPMAX);
	a = rig_kdesc(64, 64, 8, 0, W, 0);
	b = rig_kdesc(128, 4, 8, 0, W / 2, 0);
	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, &a, 1, 0));
	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, &b, 2, 0));
	R.ck[1] = R.ck[2] = CK_LAUNCHED;
	edge_simt_schedule(&R.s);
	rig_run_to(_metadata, W_NS / 4);
	for (c = 0; c < 4; c++) {
		EXPECT_EQ(2U, edge_simt_resident(&R.s, rig_ki(1), c));
		EXPECT_EQ(1U, edge_simt_resident(&R.s, rig_ki(2), c));
	}
	rig_drain(_metadata);
	EXPECT_EQ(W_NS / 2, R.done_at[2]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* @ki's TBs on @core not on their way out, and their ages. */
static u32 running_on(u32 core, const struct edge_kinst *ki, u64 *order)
{
	const struct edge_core *c = &R.s.cores[core];
	u32 i, n = 0;

	for (i = 0; i < c->nr_tbs; i++) {
		const struct edge_tb *tb = c->tb[i];

		if (tb->ki != ki || tb->suspending || tb->preempted)
			continue;
		if (order)
			order[n] = tb->launch_order;
		n++;
	}
	return n;
}

static void sort4(u64 *v, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j] < v[j - 1]; j--) {
			u64 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/*
 * srtf-preempt hands cores over by preempting the youngest TBs of the
 * longer kernel.  A (64 TBs of W) fills the GPU; B (10 TBs of W / 2) is
 * sampled on core 0 (A's 4 TBs there preempted), found shorter, and
 * takes what its 6 TBs left need: core 0's 4 slots, then 2 of core 1's,
 * from A's two youngest there.  A's two oldest keep running.
 */
TEST(srtf_preempt_takes_the_youngest)
{
	u64 before[4], after[4];
	struct edge_kdesc a, b;

	gpu(_metadata, EDGE_TBP_SRTF_PREEMPT);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 10, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	ASSERT_EQ(4U, running_on(1, rig_ki(1), before));
	sort4(before, 4);
	rig_launch(&b, 2);
	rig_run_to(_metadata, W_NS / 4);
	EXPECT_EQ(0U, running_on(0, rig_ki(1), NULL));
	EXPECT_EQ(4U, running_on(1, rig_ki(1), NULL));
	/* B's sample ends about W / 2 in: the hand-over. */
	rig_run_to(_metadata, 3 * W_NS / 4);
	ASSERT_EQ(2U, running_on(1, rig_ki(1), after));
	sort4(after, 2);
	EXPECT_EQ(before[0], after[0]);
	EXPECT_EQ(before[1], after[1]);
	EXPECT_EQ(4U, running_on(2, rig_ki(1), NULL));
	rig_drain(_metadata);
	EXPECT_LT(R.done_at[2], R.done_at[1]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * srtf-preempt lets a TB with less than 10 % of its time left finish:
 * a kernel launched at 95 % of A's first wave preempts nothing; at 50 %,
 * the sampling core's 4.
 */
static u64 preemptions_at(struct __test_metadata *_metadata, u64 at)
{
	struct edge_kdesc a, b;
	u64 n;

	gpu(_metadata, EDGE_TBP_SRTF_PREEMPT);
	a = rig_kdesc(32, 16, 8, 0, W, 0);
	b = rig_kdesc(32, 4, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, at);
	rig_launch(&b, 2);
	rig_run_to(_metadata, at + 1);
	n = R.s.st.tb_preemptions;
	rig_drain(_metadata);
	rig_fini();
	return n;
}

TEST(srtf_preempt_spares_tbs_nearly_done)
{
	EXPECT_EQ(0ULL, preemptions_at(_metadata, W_NS * 95 / 100));
	EXPECT_EQ(4ULL, preemptions_at(_metadata, W_NS / 2));
	EXPECT_NO_LEAKS();
}

/*
 * SRTF samples a new kernel on core 0 alone: while it is sampled the
 * running kernel places nothing there, even in the slots the sample
 * leaves free (B has 2 TBs for 4 slots).
 */
TEST(srtf_sampling_core_is_the_samples)
{
	struct edge_kdesc a, b;
	u32 c;

	gpu(_metadata, EDGE_TBP_SRTF);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 2, 8, 0, W, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	/* A's first wave ends at W; B is placed on core 0 then. */
	rig_run_to(_metadata, W_NS + W_NS / 4);
	EXPECT_EQ(2U, edge_simt_resident(&R.s, rig_ki(2), 0));
	EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(1), 0));
	for (c = 1; c < 4; c++)
		EXPECT_EQ(4U, edge_simt_resident(&R.s, rig_ki(1), c));
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * The predictor (Simple Slicing): when another kernel launches, every
 * tracked kernel starts a new slice on every core, and the next TB to
 * end there gives it a new t.
 */
TEST(slicing_reslices_at_a_launch)
{
	const struct edge_slicing *p;
	struct edge_kdesc a, b;
	int slot;
	u32 c;

	gpu(_metadata, EDGE_TBP_SRTF);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 4, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, W_NS + W_NS / 4);
	p = edge_srtf_predictor(&R.s);
	ASSERT_NE(NULL, p);
	slot = edge_slicing_find(p, rig_ki(1));
	ASSERT_LE(0, slot);
	for (c = 0; c < 4; c++) {
		EXPECT_TRUE(p->k[slot].c[c].has_t);
		EXPECT_FALSE(p->k[slot].c[c].reslice);
	}
	rig_launch(&b, 2);
	for (c = 0; c < 4; c++)
		EXPECT_TRUE(p->k[slot].c[c].reslice) TH_LOG("core %u", c);
	/* A's second wave ends at 2 W on cores 1-3: new slices taken. */
	rig_run_to(_metadata, 2 * W_NS + W_NS / 4);
	for (c = 1; c < 4; c++)
		EXPECT_FALSE(p->k[slot].c[c].reslice) TH_LOG("core %u", c);
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* C-Laius on the rtx2080ti preset, as claius_test.c runs it. */
static void claius_gpu(struct __test_metadata *_metadata)
{
	struct edge_simt_cfg cfg;
	int id = edge_tb_policy_find("claius");

	ASSERT_LE(0, id);
	edge_simt_default_cfg(&cfg);
	cfg.tb_policy = (u32)id;
	rig_init_cfg(_metadata, edge_preset_find("rtx2080ti"), &cfg);
}

/* A service of 4 tasks of 10 ms / (q x 10 %) each, budget @budget. */
static void svc(struct __test_metadata *_metadata, u32 app, u64 budget)
{
	struct edge_app ap;
	u32 t, q;

	memset(&ap, 0, sizeof(ap));
	ap.qos = true;
	ap.nr_tasks = 4;
	ap.chain_budget = budget;
	for (t = 0; t < 4; t++)
		for (q = 1; q <= EDGE_QUOTA_STEPS; q++)
			ap.prof[t].ns[q - 1] = 10000000ULL / q;
	ASSERT_EQ(0, edge_app_set(&R.s, app, &ap));
}

static void task_of(struct edge_kinst *ki, u32 app, u32 t)
{
	memset(ki, 0, sizeof(*ki));
	ki->used = true;
	ki->k.app = app;
	ki->k.task = t;
	ki->k.num_tbs = 1;
}

/*
 * Section 8 with both queries in flight: of two services with T > 0,
 * the one with the larger T is raised by Eq. 8's increment and the
 * other keeps its quota (priority 2).  Service 1 (budget 11 ms, 4 tasks
 * of 10 ms / (q x 10 %), q0 40 % from 1 ms) ends task 1 at 4.5 ms, 1 ms
 * late: T = 7.5 - (11 - 4.5) = 1 ms.  Service 2 (20.2 ms, q0 20 %: 5 ms
 * a task) turns out slower than its profile said at launch, 5.1 ms a
 * task: T = 20.4 - 20.2 = 0.2 ms, the smaller.  Service 1 goes to 50 %
 * (claius_test.c, claius_two_services_priority_rule), service 2 stays
 * at 20 %.
 */
TEST(claius_section8_raises_the_larger_t)
{
	struct edge_kinst a1, a2, b1;
	u32 t;

	claius_gpu(_metadata);
	svc(_metadata, 1, 11000000);
	svc(_metadata, 2, 20200000);
	ASSERT_EQ(0, edge_app_chain_begin(&R.s, 1, 11000000));
	ASSERT_EQ(0, edge_app_chain_begin(&R.s, 2, 20200000));
	task_of(&b1, 2, 1);
	R.s.tbp->kernel_launch(&R.s, &b1);
	b1.tbs_dispatched = 1;
	edge_engine_advance(&R.eng, 1000000);
	task_of(&a1, 1, 1);
	R.s.tbp->kernel_launch(&R.s, &a1);
	ASSERT_EQ(edge_quota_cores(&R.s, 40), a1.qlen);
	ASSERT_EQ(edge_quota_cores(&R.s, 20), b1.qlen);
	for (t = 0; t < 4; t++)
		R.s.apps[2].prof[t].ns[1] = 5100000;
	edge_engine_advance(&R.eng, 4500000);
	R.s.tbp->kernel_end(&R.s, &a1);
	task_of(&a2, 1, 2);
	R.s.tbp->kernel_launch(&R.s, &a2);
	EXPECT_EQ(50U, R.s.apps[1].cur_pct);
	EXPECT_EQ(edge_quota_cores(&R.s, 50), a2.qlen);
	EXPECT_EQ(20U, R.s.apps[2].cur_pct);
	R.s.tbp->kernel_end(&R.s, &a2);
	R.s.tbp->kernel_end(&R.s, &b1);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* A batch application of one task of 10 ms / (q x 10 %). */
static void batch(struct __test_metadata *_metadata, u32 app)
{
	struct edge_app ap;
	u32 q;

	memset(&ap, 0, sizeof(ap));
	ap.nr_tasks = 1;
	for (q = 1; q <= EDGE_QUOTA_STEPS; q++)
		ap.prof[0].ns[q - 1] = 10000000ULL / q;
	ASSERT_EQ(0, edge_app_set(&R.s, app, &ap));
}

static void spatial_gpu(struct __test_metadata *_metadata, const char *pol)
{
	struct edge_simt_cfg cfg;
	int id = edge_tb_policy_find(pol);

	ASSERT_LE(0, id);
	edge_simt_default_cfg(&cfg);
	cfg.tb_policy = (u32)id;
	rig_init_cfg(_metadata, edge_preset_find("rtx2080ti"), &cfg);
	svc(_metadata, 1, 11000000);
	batch(_metadata, 2);
	batch(_metadata, 3);
}

/*
 * MPS's splits among three applications (one service): even gives each
 * 200 % / 3 of the SMs; priority gives the service all of them and each
 * batch application 100 % / 2.
 */
TEST(mps_even_and_priority_splits)
{
	struct edge_kinst s1, b2;

	spatial_gpu(_metadata, "even");
	task_of(&s1, 1, 1);
	task_of(&b2, 2, 1);
	R.s.tbp->kernel_launch(&R.s, &s1);
	R.s.tbp->kernel_launch(&R.s, &b2);
	EXPECT_EQ(edge_quota_cores(&R.s, 66), s1.quota);
	EXPECT_EQ(edge_quota_cores(&R.s, 66), b2.quota);
	rig_fini();

	spatial_gpu(_metadata, "priority");
	task_of(&s1, 1, 1);
	task_of(&b2, 2, 1);
	R.s.tbp->kernel_launch(&R.s, &s1);
	R.s.tbp->kernel_launch(&R.s, &b2);
	EXPECT_EQ(edge_quota_cores(&R.s, 100), s1.quota);
	EXPECT_EQ(edge_quota_cores(&R.s, 50), b2.quota);
	EXPECT_NE(s1.quota, b2.quota);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Baymax issues a batch task only within every query's QoS headroom: a
 * 1 ms batch task (at 100 %) beside a query of 4 x 1 ms left in 11 ms
 * goes at 0 ms and not at 7 ms (7 + 1 + 4 > 11); and never while a
 * service's task waits or runs.
 */
TEST(baymax_headroom_and_services_first)
{
	struct edge_kinst s1, b2;

	spatial_gpu(_metadata, "baymax");
	ASSERT_EQ(0, edge_app_chain_begin(&R.s, 1, 11000000));
	task_of(&b2, 2, 1);
	b2.k.num_tbs = 4;
	R.s.tbp->kernel_launch(&R.s, &b2);
	EXPECT_EQ(EDGE_TB_NOCAP, R.s.tbp->cap(&R.s, &b2, 0));
	R.s.tbp->kernel_end(&R.s, &b2);
	edge_engine_advance(&R.eng, 7000000);
	task_of(&b2, 2, 1);
	b2.k.num_tbs = 4;
	R.s.tbp->kernel_launch(&R.s, &b2);
	EXPECT_EQ(0U, R.s.tbp->cap(&R.s, &b2, 0));
	R.s.tbp->kernel_end(&R.s, &b2);
	rig_fini();

	/* A service's kernel launched: the batch task waits, headroom or not. */
	spatial_gpu(_metadata, "baymax");
	ASSERT_EQ(0, edge_app_chain_begin(&R.s, 1, 11000000));
	task_of(&s1, 1, 1);
	task_of(&b2, 2, 1);
	R.s.tbp->kernel_launch(&R.s, &s1);
	R.s.tbp->kernel_launch(&R.s, &b2);
	EXPECT_EQ(0U, R.s.tbp->cap(&R.s, &b2, 0));
	EXPECT_EQ(EDGE_TB_NOCAP, R.s.tbp->cap(&R.s, &s1, 0));
	R.s.tbp->kernel_end(&R.s, &s1);
	EXPECT_EQ(EDGE_TB_NOCAP, R.s.tbp->cap(&R.s, &b2, 0));
	R.s.tbp->kernel_end(&R.s, &b2);
	rig_fini();
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

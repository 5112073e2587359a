// SPDX-License-Identifier: GPL-2.0
/*
 * The thread-block level of the policy interface (emul/policy/policy.h)
 * and thread-block preemption (emul/gpu/tbpreempt.c): caps that hold a
 * kernel back without blocking the kernels behind it, a policy's own
 * dispatch order, TBs taken off their cores and resumed with the work
 * they had left, and the policy table.
 */
#include "simt_rig.h"

#define W	7000ULL		/* 10 us at 700 MHz */
#define W_NS	10000ULL

/* A test policy: kernel cookie 1 at most one TB per core; order reversed. */
static u32 test_cap(const struct edge_simt *s, const struct edge_kinst *ki,
		    u32 core)
{
	return ki->cookie == 1 ? 1 : EDGE_TB_NOCAP;
}

static bool test_before(const struct edge_simt *s, const struct edge_kinst *a,
			const struct edge_kinst *b)
{
	return a->order > b->order;
}

static const struct edge_tb_policy capper = { .name = "t-cap", .cap = test_cap };
static const struct edge_tb_policy reverser = {
	.name = "t-rev", .before = test_before,
};

/* Kernels on a GPU of 4 small cores (4 TB slots each). */
static void small_gpu(struct __test_metadata *_metadata,
		      const struct edge_tb_policy *pol)
{
	struct edge_preset p = rig_preset_small(4);

	rig_init(_metadata, &p, EDGE_SCHED_DRAIN);
	if (pol)
		R.s.tbp = pol;	/* a test policy, not in the table */
}

/*
 * A capped kernel holds at most its cap per core, and the kernel queued
 * behind it is not held back with it: it fills the rest of the cores.
 */
TEST(tb_cap_bounds_residency_and_does_not_block)
{
	struct edge_kdesc a, b;
	u32 c;

	small_gpu(_metadata, &capper);
	a = rig_kdesc(32, 16, 8, 0, W, 0);
	b = rig_kdesc(32, 8, 8, 0, W, 0);
	rig_launch(&a, 1);
	rig_launch(&b, 2);
	rig_run_to(_metadata, W_NS / 2);
	for (c = 0; c < 4; c++) {
		EXPECT_EQ(1U, edge_simt_resident(&R.s, rig_ki(1), c));
		EXPECT_EQ(2U, edge_simt_resident(&R.s, rig_ki(2), c));
	}
	rig_drain(_metadata);
	EXPECT_EQ(CK_DONE, R.ck[1]);
	EXPECT_EQ(CK_DONE, R.ck[2]);
	/* 16 TBs, one core-slot each per wave of 4: four waves. */
	EXPECT_GE(R.done_at[1], 4 * W_NS);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* Control: without the cap, kernel 1 takes every slot and 2 waits. */
TEST(tb_no_cap_fills_and_blocks)
{
	struct edge_kdesc a, b;
	u32 c;

	small_gpu(_metadata, NULL);
	a = rig_kdesc(32, 16, 8, 0, W, 0);
	b = rig_kdesc(32, 8, 8, 0, W, 0);
	rig_launch(&a, 1);
	rig_launch(&b, 2);
	rig_run_to(_metadata, W_NS / 2);
	for (c = 0; c < 4; c++)
		EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(2), c));
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* A policy's order: the kernel launched last is dispatched first. */
TEST(tb_policy_order)
{
	struct edge_kdesc a;

	small_gpu(_metadata, &reverser);
	a = rig_kdesc(32, 16, 8, 0, W, 0);
	/* Both queued before the dispatch latency ends: one pass sees both. */
	EXPECT_EQ(0, edge_simt_launch_deferred(&R.s, &a, 1, 0));
	EXPECT_EQ(0, edge_simt_launch_deferred(&R.s, &a, 2, 0));
	R.ck[1] = R.ck[2] = CK_LAUNCHED;
	edge_simt_schedule(&R.s);
	rig_run_to(_metadata, W_NS / 2);
	EXPECT_EQ(0U, rig_ki(1)->tbs_dispatched);
	EXPECT_EQ(16U, rig_ki(2)->tbs_dispatched);
	rig_drain(_metadata);
	EXPECT_LT(R.done_at[2], R.done_at[1]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * A TB preempted half-way leaves its core after its flush and save, and
 * resumes at once (the core is free) with half its work left, plus the
 * restore: the kernel ends after W + flush + save + restore, not 1.5 W.
 */
TEST(tb_preempt_resumes_remaining_work)
{
	struct edge_kdesc a;
	struct edge_tb *tb;
	u64 ctx;

	small_gpu(_metadata, NULL);
	a = rig_kdesc(64, 1, 8, 0, W, 0);	/* two warps: not an event */
	rig_launch(&a, 1);
	rig_run_to(_metadata, R.launched_at[1] + rig_ns(R.s.cfg.dispatch_cycles) +
		   W_NS / 2);
	tb = rig_tb_of(1);
	ASSERT_NE(NULL, tb);
	ASSERT_EQ(0, edge_simt_preempt_tb(&R.s, tb));
	/* Leaving already: a second preemption is refused, nothing changes. */
	EXPECT_EQ(-EBUSY, edge_simt_preempt_tb(&R.s, tb));
	EXPECT_EQ(1ULL, R.s.st.tb_preemptions);
	ctx = edge_simt_ctx_cycles(&R.s, &a);
	rig_drain(_metadata);
	EXPECT_EQ(CK_DONE, R.ck[1]);
	/* The work left is kept to 1/1000 of the TB's time. */
	EXPECT_GE(R.done_at[1] - R.launched_at[1],
		  rig_ns(R.s.cfg.dispatch_cycles + W - W / 1000 + 2 * ctx));
	EXPECT_LT(R.done_at[1] - R.launched_at[1], W_NS * 13 / 10);
	/* Its saved slot went back. */
	EXPECT_EQ(0U, rig_ki(1) ? rig_ki(1)->nr_susp : 0);
	/* The statistics count the switch: flush and save, and restore. */
	EXPECT_LE(2 * ctx, R.s.st.tb_ctx_cycles);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * make_room: a high-priority kernel behind a GPU full of long TBs gets
 * cores after a flush and save, not after the long TBs end; the long
 * kernel still runs all its work.
 */
TEST(tb_make_room_for_higher_priority)
{
	struct edge_kdesc lo, hi;

	small_gpu(_metadata, NULL);
	lo = rig_kdesc(64, 16, 8, 0, 100 * W, 0);	/* fills: 4 per core */
	hi = rig_kdesc(64, 4, 8, 0, W, 1);
	rig_launch(&lo, 1);
	rig_run_to(_metadata, 10 * W_NS);
	rig_launch(&hi, 2);
	rig_run_to(_metadata, 11 * W_NS);
	EXPECT_EQ(0ULL, rig_ki(2)->tbs_dispatched);	/* drain: waits */
	EXPECT_EQ(4U, edge_simt_make_room(&R.s, rig_ki(2), 4, 0));
	rig_drain(_metadata);
	EXPECT_EQ(CK_DONE, R.ck[1]);
	EXPECT_EQ(CK_DONE, R.ck[2]);
	EXPECT_LT(R.done_at[2], 13 * W_NS);
	/* Low's preempted TBs ran what they had left, plus save/restore. */
	EXPECT_GE(R.done_at[1], 100 * W_NS + W_NS);
	EXPECT_EQ(4ULL, R.s.st.tb_preemptions);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* Cancelling a kernel with TBs saved off their cores frees their slots. */
TEST(tb_cancel_with_saved_tbs)
{
	struct edge_kdesc lo, hi;
	u32 n = 0, i;

	small_gpu(_metadata, NULL);
	lo = rig_kdesc(64, 16, 8, 0, 100 * W, 0);
	hi = rig_kdesc(64, 8, 8, 0, 100 * W, 1);
	rig_launch(&lo, 1);
	rig_run_to(_metadata, 10 * W_NS);
	rig_launch(&hi, 2);
	EXPECT_EQ(4U, edge_simt_make_room(&R.s, rig_ki(2), 4, 0));
	rig_run_to(_metadata, 20 * W_NS);
	EXPECT_EQ(4U, rig_ki(1)->nr_susp);
	EXPECT_EQ(1U, rig_cancel_one(_metadata, 1));
	for (i = R.s.free_susp; i != EDGE_SUSP_NONE; i = R.s.susp[i].next)
		n++;
	EXPECT_EQ(R.s.nr_tbs, n);
	rig_drain(_metadata);
	EXPECT_EQ(CK_DONE, R.ck[2]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* The table: names unique, round-trip; a bad id is refused unchanged. */
TEST(tb_policy_table)
{
	struct edge_simt_cfg cfg;
	u32 i, j;

	for (i = 0; i < EDGE_TBP_NR; i++) {
		EXPECT_EQ((int)i, edge_tb_policy_find(edge_tb_policy_name(i)));
		for (j = 0; j < i; j++)
			EXPECT_STRNE(edge_tb_policies[i]->name,
				     edge_tb_policies[j]->name);
	}
	for (i = 0; i < EDGE_POL_NR; i++)
		for (j = 0; j < i; j++)
			EXPECT_STRNE(edge_cp_policies[i]->name,
				     edge_cp_policies[j]->name);
	EXPECT_EQ(-EINVAL, edge_tb_policy_find("nope"));
	small_gpu(_metadata, NULL);
	cfg = R.s.cfg;
	cfg.tb_policy = EDGE_TBP_NR;
	EXPECT_EQ(-EINVAL, edge_simt_set_cfg(&R.s, &cfg));
	EXPECT_EQ(edge_tb_policies[0], R.s.tbp);
	rig_fini();
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

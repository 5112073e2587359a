// SPDX-License-Identifier: GPL-2.0
/*
 * Pai et al.'s thread-block policies (emul/policy/srtf.c, share.c) and
 * the Simple Slicing predictor (emul/policy/slicing.c) on the SIMT rig:
 * the predictor on an exact staircase, the order in which each policy
 * hands cores from a long kernel to a short one, MPMax's room for the
 * co-runner, and SRTF/Adaptive's switch into sharing.
 *
 * A small GPU: 4 cores of 4 TB slots; one-warp TBs of W cycles, no
 * spread, no co-run stretch, so every TB of a wave ends at once.
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

/* Two kernels queued at one instant: one pass sees both. */
static void launch_both(struct __test_metadata *_metadata,
			const struct edge_kdesc *a, const struct edge_kdesc *b)
{
	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, a, 1, 0));
	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, b, 2, 0));
	R.ck[1] = R.ck[2] = CK_LAUNCHED;
	edge_simt_schedule(&R.s);
}

/*
 * 32 TBs on 4 cores of residency 4: Total_Blocks 8, two waves of W.  At
 * the first end Eq. 2 gives W + 7 W / 4; once the first wave is done it
 * gives W + 4 W / 4 = 2 W, the runtime exactly; the GPU-wide remaining
 * time is then one wave, W.
 */
TEST(slicing_staircase_exact)
{
	const struct edge_slicing *p;
	struct edge_kdesc a;
	u64 pred, rem;
	int slot;
	u32 c;

	gpu(_metadata, EDGE_TBP_SRTF);
	a = rig_kdesc(32, 32, 8, 0, W, 0);
	rig_launch(&a, 1);
	p = edge_srtf_predictor(&R.s);
	ASSERT_NE(NULL, p);
	slot = edge_slicing_find(p, rig_ki(1));
	ASSERT_LE(0, slot);
	EXPECT_EQ(4U, p->k[slot].residency);
	EXPECT_EQ(8U, p->k[slot].total);
	rig_run_to(_metadata, W_NS / 2);
	EXPECT_FALSE(edge_slicing_pred_core(p, &R.s, slot, 0, &pred));
	/* The first TB to end: one done on its core. */
	while (!p->k[slot].has_t)
		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER));
	for (c = 0; c < 4; c++) {
		if (p->k[slot].c[c].done != 1)
			continue;
		ASSERT_TRUE(edge_slicing_pred_core(p, &R.s, slot, c, &pred));
		EXPECT_EQ(W_NS + 7 * W_NS / 4, pred);
	}
	/* The first wave done: exact. */
	rig_run_to(_metadata, W_NS);
	for (c = 0; c < 4; c++) {
		EXPECT_EQ(4U, p->k[slot].c[c].done);
		ASSERT_TRUE(edge_slicing_pred_core(p, &R.s, slot, c, &pred));
		EXPECT_EQ(2 * W_NS, pred);
	}
	ASSERT_TRUE(edge_slicing_remaining(p, slot, &rem));
	EXPECT_EQ(W_NS, rem);
	rig_drain(_metadata);
	EXPECT_EQ(2 * W_NS, R.done_at[1]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * A long kernel (64 TBs: four waves) fills the GPU; a short one (16 TBs
 * of W / 2: a quarter wave) arrives just after.  SRTF samples it on core
 * 0 once a long TB ends there (W), decides at 1.5 W that it is shorter,
 * and gets cores 1-3 as the long kernel's second wave ends (2 W): the
 * hand-off.  The long kernel's third wave never starts before it.
 */
TEST(srtf_hands_off_as_tbs_end)
{
	struct edge_kdesc a, b;
	u32 c;

	gpu(_metadata, EDGE_TBP_SRTF);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 16, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	rig_run_to(_metadata, W_NS / 2);
	EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(2), 0));
	rig_run_to(_metadata, W_NS + W_NS / 4);
	/* Sampling: on core 0 only, and the long kernel stays off it. */
	EXPECT_EQ(4U, edge_simt_resident(&R.s, rig_ki(2), 0));
	EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(1), 0));
	for (c = 1; c < 4; c++)
		EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(2), c));
	/* Decided at 1.5 W: core 0 again (4 TBs), cores 1-3 still busy. */
	rig_run_to(_metadata, W_NS + 3 * W_NS / 4);
	EXPECT_EQ(4U, edge_simt_resident(&R.s, rig_ki(2), 0));
	for (c = 1; c < 4; c++)
		EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(2), c));
	/* Hand-off at 2 W: its last 8 TBs, on the cores as they free. */
	rig_run_to(_metadata, 2 * W_NS + W_NS / 4);
	EXPECT_EQ(8U, edge_simt_resident(&R.s, rig_ki(2), 1) +
		      edge_simt_resident(&R.s, rig_ki(2), 2) +
		      edge_simt_resident(&R.s, rig_ki(2), 3));
	rig_drain(_metadata);
	EXPECT_EQ(2 * W_NS + W_NS / 2, R.done_at[2]);
	EXPECT_LT(R.done_at[2], R.done_at[1]);
	EXPECT_EQ(0U, R.s.st.tb_preemptions);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* FIFO (the default) for contrast: the short kernel waits for all 64. */
TEST(fifo_short_waits_for_long)
{
	struct edge_kdesc a, b;

	gpu(_metadata, EDGE_TBP_DEFAULT);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 16, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	rig_drain(_metadata);
	EXPECT_GE(R.done_at[2], 4 * W_NS);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Ours: the sample starts at once on core 0 (the long TBs there are
 * preempted) and cores 1-3 are taken by preemption when it ends, so the
 * short kernel ends about one W after it arrives, not 2.5 W.
 */
TEST(srtf_preempt_hands_over_at_once)
{
	struct edge_kdesc a, b;

	gpu(_metadata, EDGE_TBP_SRTF_PREEMPT);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 16, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	rig_drain(_metadata);
	EXPECT_LT(R.done_at[2], W_NS + W_NS / 4);
	EXPECT_LT(R.done_at[2], R.done_at[1]);
	EXPECT_LE(4U, R.s.st.tb_preemptions);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* The oracle knows both from the start: the short kernel first, no wait. */
TEST(sjf_oracle_runs_short_first)
{
	struct edge_kdesc a, b;

	gpu(_metadata, EDGE_TBP_SJF_ORACLE);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 16, 8, 0, W / 2, 0);
	launch_both(_metadata, &a, &b);
	rig_drain(_metadata);
	EXPECT_EQ(W_NS / 2, R.done_at[2]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * MPMax: beside a co-runner each kernel leaves one TB's room on every
 * core, so the second always places one at once; alone again, the first
 * takes its whole cores back.
 */
TEST(mpmax_leaves_room_for_the_co_runner)
{
	struct edge_kdesc a, b;
	u32 c;

	gpu(_metadata, EDGE_TBP_MPMAX);
	a = rig_kdesc(32, 64, 8, 0, W, 0);
	b = rig_kdesc(32, 4, 8, 0, W / 2, 0);
	launch_both(_metadata, &a, &b);
	rig_run_to(_metadata, W_NS / 4);
	for (c = 0; c < 4; c++) {
		EXPECT_EQ(3U, edge_simt_resident(&R.s, rig_ki(1), c));
		EXPECT_EQ(1U, edge_simt_resident(&R.s, rig_ki(2), c));
	}
	/* Alone from W / 2: the fourth slot is its own again. */
	rig_run_to(_metadata, W_NS / 2 + 1);
	EXPECT_EQ(W_NS / 2, R.done_at[2]);
	for (c = 0; c < 4; c++)
		EXPECT_EQ(4U, edge_simt_resident(&R.s, rig_ki(1), c));
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Two kernels of like length (128 and 112 TBs of W: 8 and 7 waves).  At
 * the decision (2 W) the first has 6.25 W left, the second ~6.9 W: SRTF
 * would finish the first (slowdown ~1.03) then the second (~2.2), a
 * spread above 0.5, so SRTF/Adaptive shares: the first, the fastest,
 * keeps at most 3 TBs a core and the second runs beside it.  Plain SRTF
 * never shares.
 */
TEST(adaptive_switches_to_sharing)
{
	struct edge_kdesc a, b;
	u32 c, pol;

	for (pol = EDGE_TBP_SRTF; pol <= EDGE_TBP_SRTF_ADAPTIVE; pol++) {
		gpu(_metadata, pol);
		a = rig_kdesc(32, 128, 8, 0, W, 0);
		b = rig_kdesc(32, 112, 8, 0, W, 0);
		rig_launch(&a, 1);
		rig_run_to(_metadata, 100);
		rig_launch(&b, 2);
		/* Sampled on core 0 from W, decided at 2 W. */
		rig_run_to(_metadata, 3 * W_NS + W_NS / 2);
		EXPECT_EQ(pol == EDGE_TBP_SRTF_ADAPTIVE, edge_srtf_sharing(&R.s));
		for (c = 1; pol == EDGE_TBP_SRTF_ADAPTIVE && c < 4; c++) {
			EXPECT_EQ(3U, edge_simt_resident(&R.s, rig_ki(1), c));
			EXPECT_EQ(1U, edge_simt_resident(&R.s, rig_ki(2), c));
		}
		rig_drain(_metadata);
		rig_fini();
	}
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

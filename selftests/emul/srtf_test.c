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
/*
 * Most tests' scene: on a GPU of thread-block policy @pol, a long kernel
 * of 64 TBs (*@a, tag 1), then at 100 ns a short one of 16 (*@b, tag 2).
 * The launches keep the descriptors: they are the caller's.
 */
static void long_then_short(struct __test_metadata *_metadata, u32 pol,
			    struct edge_kdesc *a, struct edge_kdesc *b)
{
	gpu(_metadata, pol);
	*a = rig_kdesc(32, 64, 8, 0, W, 0);
	*b = rig_kdesc(32, 16, 8, 0, W / 2, 0);
	rig_launch(a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(b, 2);
}

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

	long_then_short(_metadata, EDGE_TBP_SRTF, &a, &b);
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

	long_then_short(_metadata, EDGE_TBP_DEFAULT, &a, &b);
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

	long_then_short(_metadata, EDGE_TBP_SRTF_PREEMPT, &a, &b);
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

/*
 * When SRTF/Adaptive's sharing changes when kernels end (issue 29: in
 * most pairs that are not the paper's it gives SRTF's cycles while it
 * reports sharing).  Its only lever is the cap on the favoured kernel,
 * 3 TBs a core: it acts only when that kernel could hold more than 3 on
 * a core.  @threads sets how many fit (the small preset: 256 threads and
 * 4 TB slots a core).  Sets each kernel's end; returns whether it shared.
 */
static bool pair_ends(struct __test_metadata *_metadata, u32 pol,
		      u32 threads, u64 *end)
{
	struct edge_kdesc a, b;
	bool sharing;

	gpu(_metadata, pol);
	a = rig_kdesc(threads, 128, 8, 0, W, 0);
	b = rig_kdesc(threads, 112, 8, 0, W, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	rig_run_to(_metadata, 3 * W_NS + W_NS / 2);
	sharing = edge_srtf_sharing(&R.s);
	rig_drain(_metadata);
	end[0] = R.done_at[1];
	end[1] = R.done_at[2];
	rig_fini();
	return sharing;
}

/*
 * 4 TBs of 32 threads fit a core: the cap (3) binds and the first
 * kernel, which SRTF would finish first, ends later, the second beside
 * it on every core.  Seen failing with SRTF_SHARE_CAP raised to 4 (a
 * cap that never binds): the same ends as SRTF, sharing still reported.
 * The second kernel ends at the same time either way: both are W-long
 * TBs on a work-conserving GPU, so the last to end ends at the makespan;
 * here sharing only delays the first (the fairness it buys depends on
 * which kernel is last, hence the sign that changes with the seed,
 * Documentation/results/srtf/README.rst).
 */
TEST(adaptive_differs_when_cap_binds)
{
	u64 plain[2], adapt[2];

	EXPECT_FALSE(pair_ends(_metadata, EDGE_TBP_SRTF, 32, plain));
	EXPECT_TRUE(pair_ends(_metadata, EDGE_TBP_SRTF_ADAPTIVE, 32, adapt));
	EXPECT_LT(plain[0], adapt[0]);
	EXPECT_EQ(plain[1], adapt[1]);
	EXPECT_NO_LEAKS();
}

/*
 * The no-op: blocks of 128 threads, 2 a core, never reach the cap, so
 * SRTF/Adaptive decides to share and changes nothing: the same ends to
 * the nanosecond.
 */
TEST(adaptive_is_a_noop_when_cap_does_not_bind)
{
	u64 plain[2], adapt[2];

	EXPECT_FALSE(pair_ends(_metadata, EDGE_TBP_SRTF, 128, plain));
	EXPECT_TRUE(pair_ends(_metadata, EDGE_TBP_SRTF_ADAPTIVE, 128, adapt));
	EXPECT_EQ(plain[0], adapt[0]);
	EXPECT_EQ(plain[1], adapt[1]);
	EXPECT_NO_LEAKS();
}

/*
 * When just-in-time MPMax differs from FIFO (issue 29: it equals FIFO to
 * the cycle in many pairs that are not the paper's).  It reserves room
 * for a co-runner only by capping new placements of the others, so it
 * acts only when some kernel still has TBs to place after the other has
 * arrived.  The second kernel (4 TBs of W / 2) arrives at 100 ns, after
 * the first has filled every slot of the 4 cores (@waves of 16 TBs of W).
 * Returns the second kernel's end.
 */
static u64 second_end(struct __test_metadata *_metadata, u32 pol, u32 waves)
{
	struct edge_kdesc a, b;
	u64 end;

	gpu(_metadata, pol);
	a = rig_kdesc(32, 16 * waves, 8, 0, W, 0);
	b = rig_kdesc(32, 4, 8, 0, W / 2, 0);
	rig_launch(&a, 1);
	rig_run_to(_metadata, 100);
	rig_launch(&b, 2);
	rig_drain(_metadata);
	end = R.done_at[2];
	rig_fini();
	return end;
}

/*
 * Four waves: at the first kernel's first TB ends MPMax keeps a slot a
 * core for the second, which ends W / 2 later; FIFO places the first's
 * next waves there and the second waits to the last one.  Seen failing
 * with mpmax_cap() returning EDGE_TB_NOCAP (no reservation): FIFO's end.
 */
TEST(mpmax_differs_when_first_has_tbs_left)
{
	u64 fifo = second_end(_metadata, EDGE_TBP_DEFAULT, 4);
	u64 mpmax = second_end(_metadata, EDGE_TBP_MPMAX, 4);

	EXPECT_EQ(W_NS + W_NS / 2, mpmax);
	EXPECT_LT(mpmax, fifo);
	EXPECT_NO_LEAKS();
}

/*
 * The no-op: the first kernel is one wave that fills the GPU before the
 * second arrives.  Nothing is left to cap; both policies give the second
 * the slots as the first's TBs end, and its end is the same to the
 * nanosecond.  (Launched in the same pass, launch_both(), MPMax acts at
 * once: mpmax_leaves_room_for_the_co_runner.)
 */
TEST(mpmax_is_a_noop_when_first_filled_in_one_wave)
{
	u64 fifo = second_end(_metadata, EDGE_TBP_DEFAULT, 1);
	u64 mpmax = second_end(_metadata, EDGE_TBP_MPMAX, 1);

	EXPECT_EQ(fifo, mpmax);
	EXPECT_EQ(W_NS + W_NS / 2, mpmax);
	EXPECT_NO_LEAKS();
}

/*
 * A kernel cancelled while SRTF samples it (found by fuzz_simt_cfg).  B
 * samples on core 0, C waits for its turn.  Releasing B's first TB ends
 * the sample (edge_slicing_tb_end() takes that TB's time) and starts
 * C's, which preempts what else runs on core 0: B's other TBs, each
 * queueing its completion again after edge_simt_cancel() took B's out of
 * the engine.  rig_cancel() checks that no completion outlives its TB.
 */
TEST(srtf_preempt_cancel_while_sampling)
{
	struct edge_kdesc a, b;

	long_then_short(_metadata, EDGE_TBP_SRTF_PREEMPT, &a, &b);
	rig_run_to(_metadata, 200);
	rig_launch(&b, 3);
	rig_run_to(_metadata, W_NS / 4);
	EXPECT_EQ(4U, edge_simt_resident(&R.s, rig_ki(2), 0));
	EXPECT_EQ(1U, rig_cancel_one(_metadata, 2));
	EXPECT_EQ(0U, edge_simt_resident(&R.s, rig_ki(2), 0));
	rig_drain(_metadata);
	EXPECT_EQ(CK_DONE, R.ck[1]);
	EXPECT_EQ(CK_DONE, R.ck[3]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

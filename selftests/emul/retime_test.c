// SPDX-License-Identifier: GPL-2.0
/*
 * Running TBs re-timed when their core's occupancy changes
 * (emul/gpu/retime.c), on a preset with corun_live.
 *
 * One core of 8 warps and 4 TB slots; two-warp TBs, no spread, corun
 * 100 %: a TB takes its isolated time x (1 + occupancy), so x 2 on a full
 * core and x 1.25 alone.  L is one TB, S three TBs beside it.
 */
#include "simt_rig.h"

#define W_NS	10000ULL	/* 7000 cycles at the preset's 700 MHz */
#define W	7000ULL
#define L_CK	1
#define S_CK	2

static void gpu(struct __test_metadata *_metadata, bool live)
{
	struct edge_preset p = rig_preset_small(1);

	p.corun_live = live;
	rig_init(_metadata, &p, EDGE_SCHED_DRAIN);
}

static struct edge_kdesc kern(u64 grid, u64 cycles)
{
	struct edge_kdesc k = rig_kdesc(64, grid, 8, 0, cycles, 0);

	k.ws.corun_pct = 100;
	return k;
}

/* L (one TB of 2 W) and S (three of W) placed together: a full core. */
static void full_core(struct __test_metadata *_metadata)
{
	struct edge_kdesc l = kern(1, 2 * W), s = kern(3, W);

	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, &l, L_CK, 0));
	ASSERT_EQ(0, edge_simt_launch_deferred(&R.s, &s, S_CK, 0));
	R.ck[L_CK] = R.ck[S_CK] = CK_LAUNCHED;
	edge_simt_schedule(&R.s);
	ASSERT_EQ(4U, rig_tbs_on(0));
	/* Timed at the full core: 2 W x 2. */
	EXPECT_EQ(4 * W_NS, rig_tb_of(L_CK)->end);
}

/*
 * A partial last wave: S's TBs end at 2 W, L has done half its work and
 * runs the rest alone, 1.25 / 2 as long: 2 W + 2 W x 0.625 = 3.25 W.
 */
TEST(retime_speeds_up_when_corunners_leave)
{
	gpu(_metadata, true);
	full_core(_metadata);
	rig_run_until_done(_metadata, S_CK);
	EXPECT_EQ(2 * W_NS, R.done_at[S_CK]);
	rig_run_until_done(_metadata, L_CK);
	EXPECT_EQ(3 * W_NS + W_NS / 4, R.done_at[L_CK]);
	rig_fini();
}

/*
 * L alone (4 W of work, x 1.25: ends at 5 W); at W S joins and fills the
 * core: L's 4 W left take x 2 / 1.25, to 7.4 W.  S ends at 3 W; L's
 * 4.4 W left then shrink back by 1.25 / 2: 5.75 W.
 */
TEST(retime_slows_down_when_corunners_join)
{
	struct edge_kdesc l, s;

	gpu(_metadata, true);
	l = kern(1, 4 * W);
	s = kern(3, W);
	rig_launch(&l, L_CK);
	EXPECT_EQ(5 * W_NS, rig_tb_of(L_CK)->end);
	rig_run_to(_metadata, W_NS);
	rig_launch(&s, S_CK);
	EXPECT_EQ(74 * W_NS / 10, rig_tb_of(L_CK)->end);
	rig_run_until_done(_metadata, S_CK);
	EXPECT_EQ(3 * W_NS, R.done_at[S_CK]);
	rig_run_until_done(_metadata, L_CK);
	EXPECT_EQ(575 * W_NS / 100, R.done_at[L_CK]);
	rig_fini();
}

/* Without corun_live a TB keeps the time it was given at its start. */
TEST(retime_off_keeps_start_timing)
{
	gpu(_metadata, false);
	full_core(_metadata);
	rig_run_until_done(_metadata, L_CK);
	EXPECT_EQ(4 * W_NS, R.done_at[L_CK]);
	rig_fini();
}

/*
 * Progress survives a re-timing: at 2.5 W L (ending at 3.25 W) has done
 * 70 % of its work, so preempted it saves 30 % of 2 W.  Measured from its
 * real start it would seem 77 % done.
 */
TEST(retime_keeps_progress_for_preemption)
{
	struct edge_tb *tb;

	gpu(_metadata, true);
	full_core(_metadata);
	rig_run_to(_metadata, 25 * W_NS / 10);
	tb = rig_tb_of(L_CK);
	ASSERT_NE(NULL, tb);
	EXPECT_EQ(325 * W_NS / 100, tb->end);
	ASSERT_EQ(0, edge_simt_preempt_tb(&R.s, tb));
	EXPECT_EQ(3 * 2 * W / 10, tb->iso_cycles);
	rig_run_until_done(_metadata, L_CK);
	rig_fini();
}

/*
 * Many kernels of spread TBs coming and going on 4 cores: the rig checks
 * after every event that each TB has exactly one queued completion, none
 * after its end (the moved ones' old completions are gone), and every
 * kernel completes.
 */
TEST(retime_engine_one_completion_per_tb)
{
	struct edge_preset p = rig_preset_small(4);
	u32 i;

	p.corun_live = true;
	rig_init(_metadata, &p, EDGE_SCHED_DRAIN);
	for (i = 0; i < 40; i++) {
		struct edge_kdesc k = rig_kdesc(32 * (1 + i % 3), 3 + i % 7, 8,
						0, W + 997 * i, 0);

		k.ws.corun_pct = 50 + 25 * (i % 5);
		k.ws.rsd_pct = 30;
		rig_launch(&k, 10 + i);
		rig_run_to(_metadata, R.eng.now + W_NS / 3);
	}
	for (i = 0; i < 40; i++)
		rig_run_until_done(_metadata, 10 + i);
	rig_expect_empty(_metadata);
	rig_fini();
}

TEST_HARNESS_MAIN

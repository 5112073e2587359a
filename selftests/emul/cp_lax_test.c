// SPDX-License-Identifier: GPL-2.0
/*
 * What the queue policies got wrong on workloads that are not the LAX
 * paper's, each fixed in the CP or a policy (Documentation/results/lax/
 * README.rst, "Fixes"): LAX refusing jobs that round robin finishes in
 * time, a CP that served its actions in arrival order whatever the policy,
 * admission blind to the CP's own time, and a PREMA that never preempted.
 */
#include "cp_rig.h"

/* Set the CP's per-action cost (the rest of the timing as it is). */
static void cp_parse_ns(struct __test_metadata *_metadata, u32 ns)
{
	struct edge_cp_cfg cfg = C.cp->cfg;

	cfg.parse_ns = ns;
	ASSERT_EQ(0, edge_cp_set_timing(C.cp, &cfg));
}

/*
 * A burst of 12 jobs of 16 kernels, each alternating a kernel of 4 long
 * work-groups (half the GPU) and a one-work-group one, with a loose
 * deadline.  The GPU is congested while the burst lasts; round robin
 * still finishes every job in time.  Returns the jobs that met.
 */
#define BURST	12
#define BURST_DL	(3000 * US)

static u32 burst(struct __test_metadata *_metadata, u32 policy)
{
	u16 list[16];
	u32 i, met = 0;

	cp_init(_metadata, policy);
	cp_class(_metadata, 0, 4, 50);
	cp_class(_metadata, 1, 1, 5);
	for (i = 0; i < 16; i++)
		list[i] = i % 2;
	/* Two bursts: the second meets a table measured under the first. */
	for (i = 0; i < 2 * BURST; i++) {
		u64 t = C.eng.now + 20 * US + (i == BURST ? 2000 * US : 0);

		cp_run(_metadata, t);
		edge_engine_advance(&C.eng, t);
		ASSERT_EQ(0, cp_submit(i, i, BURST_DL, 16, list));
	}
	cp_run(_metadata, EDGE_TIME_NEVER);
	cp_all_accounted(_metadata, 2 * BURST);
	for (i = 0; i < 2 * BURST; i++)
		met += C.met[i];
	return met;
}

/*
 * Fix 1: at a load where round robin meets every deadline, LAX refuses
 * nothing.  Here it is the first burst that was refused: before a kernel
 * was measured, admission took each admitted job to need the rest of its
 * deadline (4 of 24 refused).  The other halves of the fix (runtimes
 * from the first work-group, GPU time from work-group time, service time
 * in admission) show at scale, in make repro-lax's loose workload
 * (lax_loose_false_rejects).
 */
TEST(lax_refuses_nothing_rr_finishes)
{
	u64 rejected;

	EXPECT_EQ(2U * BURST, burst(_metadata, EDGE_POL_RR));
	cp_fini();
	EXPECT_EQ(2U * BURST, burst(_metadata, EDGE_POL_LAX));
	rejected = C.cp->st.rejected;
	EXPECT_EQ(0ULL, rejected);
	cp_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Fix 2: the CP's own work (parse_ns per stream action) is served in the
 * policy's order.  Six long jobs and a short one arrive together on a CP
 * that is the bottleneck (each launch costs 20 us, the kernels 1 us):
 * under SJF the short job's launches go before the long jobs' waiting
 * ones, under RR they wait their turn behind them.  With a FIFO CP both
 * policies gave the same times.
 */
static u64 short_done(struct __test_metadata *_metadata, u32 policy)
{
	u16 lng[40], shrt[8];
	u64 t;
	u32 i;

	cp_init(_metadata, policy);
	cp_parse_ns(_metadata, 20 * US);
	cp_class(_metadata, 0, 1, 1);
	for (i = 0; i < 40; i++)
		lng[i] = 0;
	for (i = 0; i < 8; i++)
		shrt[i] = 0;
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, cp_submit(i, i, 100000 * US, 40, lng));
	ASSERT_EQ(0, cp_submit(6, 6, 100000 * US, 8, shrt));
	cp_run(_metadata, EDGE_TIME_NEVER);
	cp_all_accounted(_metadata, 7);
	t = C.done_at[6];
	cp_fini();
	return t;
}

TEST(cp_serves_actions_in_policy_order)
{
	u64 rr = short_done(_metadata, EDGE_POL_RR);
	u64 sjf = short_done(_metadata, EDGE_POL_SJF);

	TH_LOG("short job done at %llu us (RR), %llu us (SJF)",
	       (unsigned long long)(rr / US), (unsigned long long)(sjf / US));
	/* About 2 actions a launch against 7. */
	EXPECT_LT(sjf * 2, rr);
	EXPECT_NO_LEAKS();
}

/*
 * Fix 2, admission: LAX counts the CP's time to launch a job's kernels.
 * A job of 50 kernels on a CP of 20 us per launch needs a millisecond of
 * CP time; with a 500 us deadline it cannot make it, and LAX refuses it
 * (it admitted it when only the GPU's time counted, and it missed).
 */
TEST(lax_counts_the_cps_time)
{
	u16 list[50];
	u32 i;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_parse_ns(_metadata, 20 * US);
	cp_class(_metadata, 0, 1, 1);
	for (i = 0; i < 50; i++)
		list[i] = 0;
	ASSERT_EQ(0, cp_submit(0, 0, 500 * US, 50, list));
	cp_run(_metadata, EDGE_TIME_NEVER);
	cp_all_accounted(_metadata, 1);
	EXPECT_EQ((u32)EDGE_JOB_REJECTED, C.state[0]);
	cp_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Fix 4: PREMA preempts.  A long job fills the GPU; a short one arrives
 * and waits.  At PREMA's next interval the short one, slowed down most
 * and shortest, takes work-groups from the long one: it ends long before
 * the long one's work-groups would have, and the long one still ends,
 * with all its work done.
 */
TEST(prema_preempts_for_its_candidate)
{
	u16 lng = 0, shrt = 1;

	cp_init(_metadata, EDGE_POL_PREMA);
	cp_class(_metadata, 0, 8, 5000);	/* fills the 8 slots, 5 ms */
	cp_class(_metadata, 1, 2, 50);
	ASSERT_EQ(0, cp_submit(0, 0, 100000 * US, 1, &lng));
	cp_run(_metadata, 100 * US);
	ASSERT_EQ(0, cp_submit(1, 1, 100000 * US, 1, &shrt));
	cp_run(_metadata, EDGE_TIME_NEVER);
	cp_all_accounted(_metadata, 2);
	EXPECT_EQ((u32)EDGE_JOB_DONE, C.state[0]);
	EXPECT_EQ((u32)EDGE_JOB_DONE, C.state[1]);
	EXPECT_NE(0ULL, C.s.st.tb_preemptions);
	/* PREMA's interval is 250 us: it goes at the first or second. */
	EXPECT_LT(C.done_at[1], 1000 * US);
	EXPECT_GT(C.done_at[0], 5000 * US);
	cp_fini();
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Contention in the SIMT model: event warps competing for the top issue
 * priority, the GPU-wide memory share of a TB's time, and reservation
 * letting events past a background that holds the queue.
 */
#include "kselftest_harness.h"
#include "emul_test.h"
#include "simt_rig.h"

#define CYC	7000ULL

static struct edge_kdesc ewarp_with(u32 ewarp_corun_pct)
{
	struct edge_kdesc k = rig_ewarp(8, CYC, 1);

	k.ws.ewarp_corun_pct = ewarp_corun_pct;
	return k;
}

/* Each event warp is stretched by the ones already running on its core. */
TEST(ewarps_share_issue)
{
	const struct edge_preset p = rig_preset_small(1);
	struct edge_kdesc k;
	u64 i;

	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = ewarp_with(100);
	for (i = 1; i <= 3; i++)
		rig_launch(&k, i);
	rig_drain(_metadata);
	/* alone, with one, with two others: 1x, 2x, 3x */
	for (i = 1; i <= 3; i++)
		EXPECT_EQ(rig_ns(i * CYC), R.done_at[i]) TH_LOG("event %llu",
							       (unsigned long long)i);
	rig_fini();

	/* The same three with no contention all finish together. */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = ewarp_with(0);
	for (i = 1; i <= 3; i++)
		rig_launch(&k, i);
	rig_drain(_metadata);
	for (i = 1; i <= 3; i++)
		EXPECT_EQ(rig_ns(CYC), R.done_at[i]);
	rig_fini();
}

/* The memory-bound share of a TB shrinks when fewer cores share bandwidth. */
TEST(memory_share_scales_with_busy_cores)
{
	const struct edge_preset p = rig_preset_small(2);
	struct edge_kdesc k;

	/* One TB (two warps: a TB kernel, not an event warp) on one of two
	 * cores: half of its 50 % memory share is saved.
	 */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = rig_kdesc(64, 1, 8, 0, 4 * CYC, 0);
	k.ws.mem_pct = 50;
	rig_launch(&k, 1);
	rig_drain(_metadata);
	EXPECT_EQ(rig_ns(3 * CYC), R.done_at[1]);
	rig_fini();

	/* Two TBs, two cores: the second starts with both busy. */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = rig_kdesc(256, 2, 8, 0, 4 * CYC, 0);
	k.ws.mem_pct = 50;
	rig_launch(&k, 1);
	rig_drain(_metadata);
	EXPECT_EQ(rig_ns(4 * CYC), R.done_at[1]);
	rig_fini();

	/* No memory share: the time is the time. */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = rig_kdesc(64, 1, 8, 0, 4 * CYC, 0);
	rig_launch(&k, 1);
	rig_drain(_metadata);
	EXPECT_EQ(rig_ns(4 * CYC), R.done_at[1]);
	rig_fini();
}

/*
 * An equal-priority event behind a background that cannot place its next
 * TB: FIFO makes it wait under draining, but reserved cores serve it at
 * once, since the background can never use them.
 */
TEST(reserve_events_pass_blocked_background)
{
	const struct edge_preset p = rig_preset_small(4);
	struct edge_kdesc bg, ev;

	rig_init(_metadata, &p, EDGE_SCHED_RESERVE);
	bg = rig_kdesc(256, 64, 8, 0, 10 * CYC, 0);
	ev = rig_ewarp(8, CYC, 0);
	rig_launch(&bg, 1);
	rig_launch(&ev, 2);
	rig_run_to(_metadata, rig_ns(1));
	EXPECT_EQ(1ULL, R.s.st.sched.n);
	EXPECT_EQ(0ULL, R.s.st.sched.max);
	rig_drain(_metadata);
	EXPECT_LT(R.done_at[2], R.done_at[1]);
	rig_fini();

	rig_init(_metadata, &p, EDGE_SCHED_DRAIN);
	rig_launch(&bg, 1);
	rig_launch(&ev, 2);
	rig_drain(_metadata);
	/* It waited until the whole grid was dispatched. */
	EXPECT_GE(R.s.st.sched.max, 10 * CYC * (64 / (4 * 1) - 1));
	rig_fini();
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Contention in the SIMT model: event warps competing for the top issue
 * priority, the GPU-wide memory share of a TB's time, and reservation
 * letting events past a background that holds the queue.
 */
#include "kselftest_harness.h"
#include "emul_test.h"
#include "simt_rig.h"
#include "model.h"

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
 * TBs placed in one scheduling pass run on the GPU the pass leaves: the
 * first TB on a core is timed with the others beside it, not against the
 * emptier GPU it found when it was placed.
 */
TEST(tbs_of_one_pass_are_timed_together)
{
	const struct edge_preset p = rig_preset_small(2);
	struct edge_kdesc k;
	u32 i, n = 0;

	/* Memory share: two full cores, both TBs at the full-GPU time. */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = rig_kdesc(256, 2, 8, 0, 4 * CYC, 0);
	k.ws.mem_pct = 50;
	rig_launch(&k, 1);
	for (i = 0; i < R.s.nr_tbs; i++) {
		if (!R.s.tbs[i].used)
			continue;
		n++;
		EXPECT_EQ(rig_ns(4 * CYC), R.s.tbs[i].end) TH_LOG("TB %u", i);
	}
	EXPECT_EQ(2U, n);
	rig_drain(_metadata);
	rig_fini();

	/* Occupancy: four 2-warp TBs fill both 8-warp cores to one half. */
	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	k = rig_kdesc(64, 4, 8, 0, 4 * CYC, 0);
	k.ws.corun_pct = 100;
	rig_launch(&k, 1);
	for (i = 0, n = 0; i < R.s.nr_tbs; i++) {
		if (!R.s.tbs[i].used)
			continue;
		n++;
		EXPECT_EQ(rig_ns(6 * CYC), R.s.tbs[i].end) TH_LOG("TB %u", i);
	}
	EXPECT_EQ(4U, n);
	rig_drain(_metadata);
	EXPECT_EQ(rig_ns(6 * CYC), R.done_at[1]);
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

/*
 * Reservation keeps a core for each side whatever reserve_pct says: with
 * none, events (0 %) or the background (100 %) would wait forever (found
 * by fuzz_simt_cfg).
 */
TEST(reserve_keeps_a_core_each)
{
	const struct edge_preset p = rig_preset_small(4);
	struct edge_simt_cfg cfg;
	struct edge_kdesc bg, ev;
	u32 pct[] = { 0, 100 }, i;

	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		edge_simt_default_cfg(&cfg);
		cfg.sched = EDGE_SCHED_RESERVE;
		cfg.reserve_pct = pct[i];
		rig_init_cfg(_metadata, &p, &cfg);
		bg = rig_kdesc(256, 8, 8, 0, CYC, 0);
		ev = rig_ewarp(8, CYC, 1);
		rig_launch(&bg, 1);
		rig_launch(&ev, 2);
		rig_drain(_metadata);
		EXPECT_NE(0ULL, R.done_at[1]) TH_LOG("reserve_pct %u", pct[i]);
		EXPECT_NE(0ULL, R.done_at[2]) TH_LOG("reserve_pct %u", pct[i]);
		rig_fini();
	}
}

static void quiet_notify(void *owner, u32 id)
{
}

/*
 * A grid of TBs that take no time (1 cycle rounds to 0 ns at 1.98 GHz)
 * must not hold a step forever: the budget bounds it, and time does not
 * need to move for the work to go on (found by fuzz_register).
 */
TEST(zero_time_grid_is_bounded)
{
	static struct edge_model m;
	struct edge_register r;
	struct edge_ring_mem mem;
	struct edge_kdesc k;
	u32 id, steps = 0, n;

	ASSERT_EQ(0, edge_model_init(&m, edge_preset_find("h100-like"),
				     quiet_notify));
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.func = EDGE_FN_NOP;
	r.grid_x = 1 << 20;
	r.grid_y = r.grid_z = 1;
	r.block_x = 64;
	r.block_y = r.block_z = 1;
	r.regs_per_thread = 8;
	r.param_size = 8;
	r.ring_entries = 1;
	r.warp_cycles = 1;
	ASSERT_EQ(0, edge_validate_register(m.preset, &r, &k));
	memset(&mem, 0, sizeof(mem));	/* no doorbell summary */
	edge_ring_layout(1, 8, 4096, &mem.layout);
	mem.doorbells = calloc(1, 4096);
	mem.sq = calloc(1, mem.layout.sq_size);
	mem.cq = calloc(1, mem.layout.cq_size);
	ASSERT_EQ(0, edge_model_register(&m, &k, &mem, &m, &id));
	__atomic_store_n(&mem.doorbells[id], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(1U, edge_model_poll(&m));
	/* Every step does at most its budget, at one instant. */
	do {
		n = edge_model_run_budget(&m, edge_model_next_time(&m), 1000);
		ASSERT_LE(n, 1000U);
		ASSERT_EQ(0ULL, edge_model_now(&m));
	} while (n && ++steps < 50);
	EXPECT_EQ(50U, steps);
	EXPECT_EQ(1U, edge_model_cancel(&m, id));
	edge_model_fini(&m);
	free(mem.doorbells);
	free(mem.sq);
	free(mem.cq);
}

TEST_HARNESS_MAIN

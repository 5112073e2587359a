// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMT-core model (emul/gpu/simt.c) driven directly: occupancy from
 * resources, the dispatch order (priority, FIFO, draining), the KMU/KDU
 * and event queue capacities, the scheduling policies, cancel in every
 * state, and determinism.  The rig (simt_rig.h) checks after every
 * engine step that no core over-commits and that every counter is the
 * sum of what holds it.
 */
#include "simt_rig.h"

/* 7000 cycles at the "edge" preset's 700 MHz: exactly 10 us. */
#define W	7000ULL
#define W_NS	10000ULL

/*
 * Occupancy emerges from resources: a kernel's TBs go to every core
 * until the first resource of that core runs out.
 */
enum res { RES_THREADS, RES_REGS, RES_SMEM, RES_SLOTS };

static void occupancy_case(struct __test_metadata *_metadata, u32 threads,
			   u32 regs, u32 smem, enum res limit, u32 expect)
{
	const struct edge_preset *p;
	struct edge_kdesc k;
	u32 warps, tb_threads, tb_regs, fit, c, grid;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	p = &R.p;
	warps = (threads + p->warp_size - 1) / p->warp_size;
	tb_threads = warps * p->warp_size;	/* whole warps */
	tb_regs = tb_threads * regs;
	/* The first resource to run out, reasoned from the preset. */
	fit = p->tb_slots_per_core;
	if (p->threads_per_core / tb_threads < fit)
		fit = p->threads_per_core / tb_threads;
	if (p->regs_per_core / tb_regs < fit)
		fit = p->regs_per_core / tb_regs;
	if (smem && p->smem_per_core / smem < fit)
		fit = p->smem_per_core / smem;
	ASSERT_EQ(expect, fit);

	/* Two full waves and a bit: the bit waits for the first wave. */
	grid = 2 * p->num_cores * expect + 3;
	k = rig_kdesc(threads, grid, regs, smem, W, 0);
	rig_launch(&k, 1);
	EXPECT_EQ((u64)p->num_cores * expect, R.s.st.tbs_dispatched);
	for (c = 0; c < p->num_cores; c++) {
		const struct edge_core *core = &R.s.cores[c];
		bool t_out = core->threads + tb_threads > p->threads_per_core;
		bool r_out = core->regs + tb_regs > p->regs_per_core;
		bool s_out = core->smem + smem > p->smem_per_core;
		bool slot_out = core->tbs + 1 > p->tb_slots_per_core;

		EXPECT_EQ(expect, core->tbs) TH_LOG("core %u", c);
		/* Exactly the limiting resource is out; the others are not. */
		EXPECT_EQ(limit == RES_THREADS, t_out) TH_LOG("core %u", c);
		EXPECT_EQ(limit == RES_REGS, r_out) TH_LOG("core %u", c);
		EXPECT_EQ(limit == RES_SMEM, s_out) TH_LOG("core %u", c);
		EXPECT_EQ(limit == RES_SLOTS, slot_out) TH_LOG("core %u", c);
	}
	/* Nothing more starts before a TB ends. */
	rig_run(_metadata, W_NS - 1);
	EXPECT_EQ((u64)p->num_cores * expect, R.s.st.tbs_dispatched);
	rig_drain(_metadata);
	EXPECT_EQ((u64)grid, R.s.st.tbs_dispatched);
	EXPECT_EQ((u64)grid, R.s.st.tbs_done);
	EXPECT_EQ(1ULL, R.s.st.kernels_done);
	/* Three waves of identical TBs, back to back. */
	EXPECT_EQ(3 * W_NS, R.done_at[1]);
	rig_fini();
}

TEST(simt_occupancy_threads)
{
	/* 8 warps: 2048 / 256 = 8 TBs; registers 32, shared memory 48. */
	occupancy_case(_metadata, 256, 8, 1024, RES_THREADS, 8);
	/* 200 threads hold 7 whole warps (224 threads): 9, not 10. */
	occupancy_case(_metadata, 200, 8, 0, RES_THREADS, 9);
	EXPECT_NO_LEAKS();
}

TEST(simt_occupancy_registers)
{
	/* 128 threads * 64 registers = 8192: 8 TBs of the 16 threads allow. */
	occupancy_case(_metadata, 128, 64, 0, RES_REGS, 8);
	EXPECT_NO_LEAKS();
}

TEST(simt_occupancy_shared_memory)
{
	/* 12 KB of 48 KB: 4 TBs, threads would allow 32, registers 128. */
	occupancy_case(_metadata, 64, 8, 12 * 1024, RES_SMEM, 4);
	EXPECT_NO_LEAKS();
}

TEST(simt_occupancy_tb_slots)
{
	/* 2 warps of 8 registers: only the 16 TB slots limit. */
	occupancy_case(_metadata, 64, 8, 0, RES_SLOTS, 16);
	EXPECT_NO_LEAKS();
}

/*
 * What the policies and the predictor read of occupancy and of a context
 * switch without running a kernel: edge_simt_tbs_per_gpu() is the GPU's
 * TBs at once by the first resource to run out (the cases above, each
 * resource in turn), and edge_simt_ctx_cycles() a TB's context (4 bytes
 * a register, and its shared memory) at ctx_bytes_per_cycle, a part
 * cycle counted whole.
 */
TEST(simt_tbs_per_gpu_and_ctx_cycles)
{
	static const struct { u32 threads, regs, smem, per_core; } c[] = {
		{ 256, 8, 1024, 8 },		/* threads */
		{ 128, 64, 0, 8 },		/* registers */
		{ 64, 8, 12 * 1024, 4 },	/* shared memory */
		{ 64, 8, 0, 16 },		/* TB slots */
	};
	struct edge_kdesc k;
	u64 bytes;
	u32 i;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		k = rig_kdesc(c[i].threads, 1, c[i].regs, c[i].smem, W, 0);
		EXPECT_EQ(c[i].per_core * R.p.num_cores,
			  edge_simt_tbs_per_gpu(&R.s, &k)) TH_LOG("case %u", i);
	}
	k = rig_kdesc(128, 1, 64, 1000, W, 0);
	bytes = 128 * 64 * 4 + 1000;
	ASSERT_EQ(bytes, (u64)edge_simt_tb_regs(&R.s, &k) * 4 + k.smem_per_block);
	R.s.cfg.ctx_bytes_per_cycle = 64;
	ASSERT_NE(0ULL, bytes % 64);
	EXPECT_EQ(bytes / 64 + 1, edge_simt_ctx_cycles(&R.s, &k));
	R.s.cfg.ctx_bytes_per_cycle = 8;
	EXPECT_EQ(bytes / 8, edge_simt_ctx_cycles(&R.s, &k));
	R.s.cfg.ctx_bytes_per_cycle = 1;
	EXPECT_EQ(bytes, edge_simt_ctx_cycles(&R.s, &k));
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * A TB that fit on no core is not searched for again until a core gives
 * resources back (s->res_gen): an event warp leaving free resources is
 * such a moment, and the waiting TB starts then, not when the big TB
 * beside it ends.
 */
TEST(simt_tb_starts_when_event_warp_frees_room)
{
	struct edge_preset p = rig_preset_small(1);
	struct edge_kdesc a, b, e;

	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	a = rig_kdesc(192, 1, 8, 0, 100 * W, 0);	/* 6 of the 8 warps */
	e = rig_ewarp(8, 1000, 1);			/* the 7th */
	b = rig_kdesc(64, 1, 8, 0, W, 0);		/* 2: no room */
	rig_launch(&a, 1);
	rig_launch(&e, 2);
	rig_launch(&b, 3);
	rig_run_to(_metadata, R.eng.now + rig_ns(10));
	ASSERT_NE(NULL, rig_ki(3));
	EXPECT_EQ(0ULL, rig_ki(3)->tbs_dispatched);
	/* The event warp is done after ~1000 cycles; A runs 700000. */
	rig_run_to(_metadata, R.eng.now + rig_ns(5000));
	ASSERT_NE(NULL, rig_ki(1));
	ASSERT_NE(NULL, rig_ki(3));
	EXPECT_EQ(1ULL, rig_ki(3)->tbs_dispatched);
	EXPECT_NO_LEAKS();
}

/* TBs go to the cores round-robin, from where the last one went. */
TEST(simt_tb_placement_round_robin)
{
	struct edge_kdesc a, b;
	u32 c;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	a = rig_kdesc(256, 16, 8, 0, W, 0);
	rig_launch(&a, 1);
	for (c = 0; c < R.p.num_cores; c++)
		EXPECT_EQ(1U, rig_tbs_on(c)) TH_LOG("core %u", c);
	b = rig_kdesc(256, 24, 8, 0, W, 0);
	rig_launch(&b, 2);
	for (c = 0; c < R.p.num_cores; c++)
		EXPECT_EQ(c < 8 ? 3U : 2U, rig_tbs_on(c)) TH_LOG("core %u", c);
	rig_launch(&a, 3);
	for (c = 0; c < R.p.num_cores; c++)
		EXPECT_EQ(c < 8 ? 4U : 3U, rig_tbs_on(c)) TH_LOG("core %u", c);
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Room freed all at once (the kernel filling the GPU is cancelled): the
 * queued kernels behind it start in that same pass, up to the KDU's 32,
 * and the rest follow.
 */
TEST(simt_queued_kernels_start_together)
{
	struct edge_kdesc bg, k;
	u64 before;
	u32 i;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	bg = rig_kdesc(1024, 32, 8, 0, 100 * W, 0);
	rig_launch(&bg, 1);
	k = rig_kdesc(64, 1, 8, 0, W, 0);
	for (i = 0; i < 40; i++)
		rig_launch(&k, 10 + i);
	before = R.s.st.tbs_dispatched;
	EXPECT_EQ(32ULL, before);
	EXPECT_EQ(1U, rig_cancel_one(_metadata, 1));
	EXPECT_GE(R.s.st.tbs_dispatched - before, (u64)EDGE_KDU_RUNNING);
	rig_drain(_metadata);
	for (i = 0; i < 40; i++)
		EXPECT_LE(R.done_at[10 + i], 2 * W_NS) TH_LOG("kernel %u", i);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* A single-warp event on an idle GPU: free resources, exact runtime. */
TEST(simt_ewarp_idle_exact)
{
	struct edge_kdesc e;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_PREEMPT);
	e = rig_ewarp(32, W, 0);
	edge_engine_advance(&R.eng, 777);
	rig_launch(&e, 1);
	/* Placed during the launch, on free resources. */
	EXPECT_EQ(1ULL, R.s.st.ewarps_free);
	EXPECT_EQ(0U, R.s.ewarp_len);
	ASSERT_GE(rig_slot_of(1), 0);
	EXPECT_EQ(32U, R.s.cores[rig_slot_of(1) / EDGE_EWARP_PER_CORE].threads);
	rig_drain(_metadata);
	EXPECT_EQ(777 + W_NS, R.done_at[1]);
	EXPECT_EQ(1ULL, R.s.st.sched.n);
	EXPECT_EQ(0ULL, R.s.st.sched.max);
	EXPECT_EQ(0ULL, R.s.st.preemptions);
	EXPECT_EQ(0ULL, R.s.st.ewarps_waited);
	/* IDLE -> LAUNCH_IWARP -> IWARP_RUNNING -> IWARP_COMPLETING -> IDLE */
	ASSERT_EQ(4U, R.ntr);
	EXPECT_EQ((u32)EDGE_PS_LAUNCH_IWARP, R.tr[0].to);
	EXPECT_EQ((u32)EDGE_PS_IWARP_RUNNING, R.tr[1].to);
	EXPECT_EQ((u32)EDGE_PS_IWARP_COMPLETING, R.tr[2].to);
	EXPECT_EQ((u32)EDGE_PS_IDLE, R.tr[3].to);
	EXPECT_EQ(777ULL, R.tr[1].time);
	EXPECT_EQ(777 + W_NS, R.tr[2].time);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* What cyc2ns must return: cycles * 1e6 / clock_khz, exactly. */
static u64 ref_ns(u64 cycles, u32 khz)
{
	return (u64)((unsigned __int128)cycles * 1000000 / khz);
}

/*
 * The largest valid inputs (warp_cycles 2^40, corun_pct 10000, rsd_pct
 * 100) stretch a TB to ~2^49 cycles: model time must not wrap.
 */
TEST(simt_time_no_overflow)
{
	static const u64 cyc[] = {
		1, 700, 1ULL << 40, 51ULL << 40, 101ULL << 40,
		(1ULL << 40) * 446 / 100 * 101, 1ULL << 50,
	};
	struct edge_kdesc k;
	u64 c, iso;
	u32 i;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_PREEMPT);
	for (i = 0; i < ARRAY_SIZE(cyc); i++) {
		EXPECT_EQ(ref_ns(cyc[i], R.p.clock_khz),
			  edge_simt_cyc2ns(&R.s, cyc[i])) TH_LOG("%u", i);
		/* ns2cyc undoes it, give or take the rounding. */
		c = edge_simt_ns2cyc(&R.s, edge_simt_cyc2ns(&R.s, cyc[i]));
		EXPECT_LE(c, cyc[i]);
		EXPECT_GE(c + 1, cyc[i]);
	}
	/* Co-running on a full core: + corun_pct of the time. */
	k = rig_kdesc(1024, 1, 8, 0, 1ULL << 40, 0);
	k.ws.corun_pct = 10000;
	for (iso = 1ULL << 40; iso < (1ULL << 40) * 5; iso += 1ULL << 39)
		EXPECT_EQ(iso * 101, edge_simt_corun(&k, iso, 1000));
	EXPECT_EQ(1000 + 1000 * 10000 / 100 / 2ULL, edge_simt_corun(&k, 1000, 500));

	/* One TB of 32 warps: half a core, so 1 + 100 * 1/2 times as long. */
	rig_launch(&k, 1);
	EXPECT_EQ(ref_ns(51ULL << 40, R.p.clock_khz), rig_tb_of(1)->end);
	rig_drain(_metadata);
	EXPECT_EQ(ref_ns(51ULL << 40, R.p.clock_khz), R.done_at[1]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* Higher priority first; among equal priorities, launch order. */
TEST(simt_dispatch_priority_then_fifo)
{
	struct edge_kdesc bg1, bg2, l, h;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	/* 31 long TBs and 1 short one fill the 32 TB places of the GPU. */
	bg1 = rig_kdesc(1024, 31, 8, 0, 2 * W, 0);
	bg2 = rig_kdesc(1024, 1, 8, 0, W, 0);
	l = rig_kdesc(1024, 1, 8, 0, W, 1);
	h = rig_kdesc(1024, 1, 8, 0, W, 2);
	rig_launch(&bg1, 1);
	rig_launch(&bg2, 2);
	EXPECT_EQ(32ULL, R.s.st.tbs_dispatched);
	rig_launch(&l, 3);	/* low, first */
	rig_launch(&h, 4);	/* high, second */
	rig_launch(&l, 5);	/* low, third */
	EXPECT_EQ(32ULL, R.s.st.tbs_dispatched);
	/* One place frees at W: the high one takes it. */
	rig_run(_metadata, W_NS);
	EXPECT_EQ(33ULL, R.s.st.tbs_dispatched);
	ASSERT_NE(NULL, rig_ki(4));
	EXPECT_EQ(1ULL, rig_ki(4)->tbs_dispatched);
	EXPECT_EQ(W_NS, rig_ki(4)->first_start);
	EXPECT_EQ(0ULL, rig_ki(3)->tbs_dispatched);
	EXPECT_EQ(0ULL, rig_ki(5)->tbs_dispatched);
	rig_drain(_metadata);
	EXPECT_EQ(2 * W_NS, R.done_at[4]);
	EXPECT_EQ(3 * W_NS, R.done_at[3]);
	EXPECT_EQ(3 * W_NS, R.done_at[5]);
	/* Equal times: the earlier launch was dispatched, and ends, first. */
	ASSERT_EQ(5U, R.ndone);
	EXPECT_EQ(3U, R.done_order[3]);
	EXPECT_EQ(5U, R.done_order[4]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * An event of the background's priority, launched after it, waits until
 * the whole background grid has been dispatched (FIFO); one of a higher
 * priority does not.
 */
TEST(simt_equal_priority_event_waits_for_grid)
{
	struct edge_kdesc bg, e_eq, e_hi;
	u64 grid = 3 * 32, last_dispatch = 0, prev = 0;
	int slot;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_PREEMPT);
	bg = rig_kdesc(1024, grid, 8, 0, W, 0);
	e_eq = rig_ewarp(8, 700, 0);
	e_hi = rig_ewarp(8, 700, 1);
	rig_launch(&bg, 1);
	rig_launch(&e_eq, 2);
	rig_launch(&e_hi, 3);
	/* The higher one preempted at once; the equal one waits. */
	EXPECT_EQ(1ULL, R.s.st.preemptions);
	EXPECT_GE(rig_slot_of(3), 0);
	EXPECT_LT(rig_slot_of(2), 0);
	while (rig_slot_of(2) < 0 && R.ck[2] == CK_LAUNCHED) {
		prev = R.s.st.tbs_dispatched;
		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER));
		if (R.s.st.tbs_dispatched != prev)
			last_dispatch = R.eng.now;
		/* Not before the grid is all out. */
		if (R.s.st.tbs_dispatched < grid)
			ASSERT_LT(rig_slot_of(2), 0);
	}
	slot = rig_slot_of(2);
	ASSERT_GE(slot, 0);
	EXPECT_EQ(grid, R.s.st.tbs_dispatched);
	/* Placed in the step that dispatched the last TB. */
	EXPECT_EQ(last_dispatch, R.eng.now);
	EXPECT_GE(R.eng.now, 2 * W_NS);
	rig_drain(_metadata);
	EXPECT_LT(R.done_at[3], R.done_at[2]);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Draining: a waiting higher-priority event holds back every lower
 * priority TB, even where one would fit, until it is placed.
 */
TEST(simt_drain_blocks_lower_priority_tbs)
{
	struct edge_kdesc bg, e;
	bool saw_room = false;
	u64 d0;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	/* Each TB holds 1 KB of shared memory; the event needs all 48. */
	bg = rig_kdesc(1024, 3 * 32, 8, 1024, W, 0);
	e = rig_kdesc(32, 1, 8, R.p.smem_per_core, 700, 1);
	rig_launch(&bg, 1);
	rig_run_to(_metadata, W_NS / 2);
	rig_launch(&e, 2);
	EXPECT_LT(rig_slot_of(2), 0);
	EXPECT_EQ(1ULL, R.s.st.ewarps_waited);
	d0 = R.s.st.tbs_dispatched;
	EXPECT_EQ(32ULL, d0);
	while (rig_slot_of(2) < 0) {
		u32 c;

		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER));
		if (rig_slot_of(2) >= 0)
			break;
		/* Blocked, though a background TB would fit somewhere. */
		ASSERT_EQ(d0, R.s.st.tbs_dispatched) TH_LOG("t %llu",
			(unsigned long long)R.eng.now);
		for (c = 0; c < R.p.num_cores; c++)
			if (R.s.cores[c].threads + 1024 <= R.p.threads_per_core)
				saw_room = true;
	}
	EXPECT_TRUE(saw_room);
	/* Placed at the first time a core drained whole. */
	EXPECT_EQ(W_NS, R.eng.now);
	EXPECT_EQ(1ULL, R.s.st.ewarps_free);
	/* Then the background resumes at once. */
	rig_run(_metadata, W_NS);
	EXPECT_GT(R.s.st.tbs_dispatched, d0);
	rig_drain(_metadata);
	EXPECT_EQ(0ULL, R.s.st.preemptions);
	/* Its latency: launched at W/2, placed at W. */
	EXPECT_EQ(W / 2, R.s.st.sched.max);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* A snapshot of everything a refused launch must leave alone. */
struct snap {
	struct edge_simt s;
	struct edge_engine eng;
	struct edge_kinst ki[4096];
	struct edge_core cores[64];
	struct edge_ev heap[8192];
};

static struct snap snap_a;

/* Both of the engine's heaps, as they are laid out now. */
static void snap_heap(struct edge_ev *h)
{
	u32 i;

	for (i = 0; i < R.eng.len; i++)
		h[i] = *edge_engine_ev(&R.eng, i);
}

static bool same_heap(const struct edge_ev *h)
{
	u32 i;

	for (i = 0; i < R.eng.len; i++)
		if (memcmp(&h[i], edge_engine_ev(&R.eng, i), sizeof(*h)))
			return false;
	return true;
}

static void take_snap(struct snap *sn)
{
	memset(sn, 0, sizeof(*sn));
	sn->s = R.s;
	sn->eng = R.eng;
	memcpy(sn->ki, R.s.ki, R.s.ki_init * sizeof(*R.s.ki));
	memcpy(sn->cores, R.s.cores, R.p.num_cores * sizeof(*R.s.cores));
	snap_heap(sn->heap);
}

static bool same_snap(const struct snap *sn)
{
	return !memcmp(&sn->s, &R.s, sizeof(R.s)) &&
	       !memcmp(&sn->eng, &R.eng, sizeof(R.eng)) &&
	       !memcmp(sn->ki, R.s.ki, R.s.ki_init * sizeof(*R.s.ki)) &&
	       !memcmp(sn->cores, R.s.cores,
		       R.p.num_cores * sizeof(*R.s.cores)) &&
	       same_heap(sn->heap);
}

/*
 * The KMU holds 1024 pending kernels and the KDU 32 running ones: 1056
 * TB kernels waiting are accepted and the next is refused, changing
 * nothing; the pending event warp queue holds 1024.  Both hold on a GPU
 * already full of kernels whose TBs all run.
 */
TEST(simt_queue_capacities)
{
	struct edge_kdesc res, k, e;
	u64 ck = 1;
	u32 i;

	ASSERT_LE(sizeof(snap_a.ki) / sizeof(snap_a.ki[0]), 4096U);
	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_DRAIN);
	R.no_check = true;	/* thousands of steps: checked at the end */
	ASSERT_LE(R.s.nr_ki, 4096U);
	ASSERT_LE(R.eng.cap, 8192U);
	/* 256 one-TB kernels: every TB slot of every core, all running. */
	res = rig_kdesc(128, 1, 8, 0, 1000000, 0);
	for (i = 0; i < R.p.num_cores * R.p.tb_slots_per_core; i++)
		rig_launch(&res, ck++);
	EXPECT_EQ(256ULL, R.s.st.tbs_dispatched);
	EXPECT_EQ(0U, R.s.kdu_len);
	EXPECT_EQ(0U, R.s.kmu_len);

	k = rig_kdesc(128, 1, 8, 0, 700, 0);
	for (i = 0; i < EDGE_KMU_PENDING + EDGE_KDU_RUNNING; i++)
		rig_launch(&k, ck++);
	EXPECT_EQ((u32)EDGE_KDU_RUNNING, R.s.kdu_len);
	EXPECT_EQ((u32)EDGE_KMU_PENDING, R.s.kmu_len);
	take_snap(&snap_a);
	EXPECT_EQ(-EBUSY, rig_try_launch(_metadata, &k, ck));
	EXPECT_TRUE(same_snap(&snap_a));

	e = rig_ewarp(8, 700, 0);
	for (i = 0; i < EDGE_EWARP_PENDING; i++)
		rig_launch(&e, ck++);
	EXPECT_EQ((u32)EDGE_EWARP_PENDING, R.s.ewarp_len);
	take_snap(&snap_a);
	EXPECT_EQ(-EBUSY, rig_try_launch(_metadata, &e, ck));
	EXPECT_EQ(-EBUSY, rig_try_launch(_metadata, &k, ck + 1));
	EXPECT_TRUE(same_snap(&snap_a));

	R.no_check = false;
	rig_check(_metadata);
	rig_drain(_metadata);
	EXPECT_EQ(ck - 1, (u64)R.ndone);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* Arrivals of @n events, exponential gaps of mean @gap cycles. */
static void event_stream(struct __test_metadata *_metadata, u32 n, u64 gap,
			 u64 seed, const struct edge_kdesc *e, u64 first)
{
	struct edge_rng rng;
	u64 t = R.eng.now;
	u32 i;

	edge_rng_seed(&rng, seed);
	for (i = 0; i < n; i++) {
		t += rig_ns(edge_rng_exp(&rng, gap));
		rig_run_to(_metadata, t);
		rig_launch(e, first + i);
	}
}

static void policy_run(struct __test_metadata *_metadata, u32 sched,
		       struct edge_lat *lat, struct edge_simt_stats *st)
{
	struct edge_kdesc bg, e;

	rig_init(_metadata, edge_preset_find("edge"), sched);
	/* Three waves of long TBs, full threads and registers everywhere. */
	bg = rig_kdesc(1024, 96, 32, 0, 50000, 0);
	bg.ws.rsd_pct = 20;
	e = rig_ewarp(32, 2300, 1);
	rig_launch(&bg, 1);
	event_stream(_metadata, 100, 1500, 42, &e, 100);
	rig_drain(_metadata);
	EXPECT_EQ(101U, R.ndone);
	*lat = R.s.st.sched;
	*st = R.s.st;
	rig_fini();
}

/* With the GPU full, preempting schedules events sooner than draining. */
TEST(simt_preempt_beats_drain)
{
	static struct edge_simt_stats sp, sd;
	struct edge_lat lp, ld;

	policy_run(_metadata, EDGE_SCHED_PREEMPT, &lp, &sp);
	policy_run(_metadata, EDGE_SCHED_DRAIN, &ld, &sd);
	EXPECT_EQ(100ULL, lp.n);
	EXPECT_EQ(100ULL, ld.n);
	EXPECT_GT(sp.preemptions, 30ULL);
	EXPECT_EQ(0ULL, sd.preemptions);
	EXPECT_GT(sd.ewarps_waited, 30ULL);
	EXPECT_LT(edge_lat_avg(&lp), edge_lat_avg(&ld));
	EXPECT_LT(edge_lat_pct(&lp, 99), edge_lat_pct(&ld, 99));
	EXPECT_LT(lp.max, ld.max);
	/*
	 * A preempting event waits for the select, the flush (none: these
	 * warps never stall) and the register save (full register file),
	 * unless all of a core's event slots are busy.
	 */
	EXPECT_EQ(2 + 32 * 32 * 4 / 64ULL, sp.preempt.max);
	EXPECT_NO_LEAKS();
}

/* @a and @b hold the same samples. */
static bool same_lat(const struct edge_lat *a, const struct edge_lat *b)
{
	return a->n == b->n && a->sum == b->sum && a->min == b->min &&
	       a->max == b->max && !memcmp(a->hist, b->hist, sizeof(a->hist));
}

/*
 * edge_simt_set_tag_lat(): each event's scheduling and preemption
 * latency also lands in its tag's set (edge-sim's per-stream columns),
 * so the tags' sets add up to st.sched and st.preempt; a tag at or past
 * the count given is not counted (nor written: ASan).
 */
TEST(simt_tag_latencies_add_up)
{
	static struct edge_tag_lat tl[4];
	struct edge_lat sched = { 0 }, preempt = { 0 };
	struct edge_kdesc bg, e;
	u32 t, pass;

	for (pass = 0; pass < 2; pass++) {
		u32 ntags = pass ? 3 : 4;

		memset(tl, 0, sizeof(tl));
		memset(&sched, 0, sizeof(sched));
		memset(&preempt, 0, sizeof(preempt));
		rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_PREEMPT);
		edge_simt_set_tag_lat(&R.s, tl, ntags);
		/* policy_run()'s full GPU: some events preempt, some wait. */
		bg = rig_kdesc(1024, 96, 32, 0, 50000, 0);
		bg.ws.rsd_pct = 20;
		e = rig_ewarp(32, 2300, 1);
		rig_launch(&bg, 1);
		/* Cookies 100 .. 199: tags 0 .. 3 (cookie % 4), 25 each. */
		event_stream(_metadata, 100, 1500, 42, &e, 100);
		rig_drain(_metadata);
		ASSERT_EQ(101U, R.ndone);
		ASSERT_GT(R.s.st.preempt.n, 30ULL);
		for (t = 0; t < ntags; t++) {
			EXPECT_EQ(25ULL, tl[t].sched.n) TH_LOG("tag %u", t);
			edge_lat_merge(&sched, &tl[t].sched);
			edge_lat_merge(&preempt, &tl[t].preempt);
		}
		if (pass) {
			EXPECT_EQ(0ULL, tl[3].sched.n);
			EXPECT_EQ(75ULL, sched.n);
			EXPECT_LT(preempt.n, R.s.st.preempt.n);
		} else {
			EXPECT_TRUE(same_lat(&sched, &R.s.st.sched));
			EXPECT_TRUE(same_lat(&preempt, &R.s.st.preempt));
		}
		rig_fini();
	}
	EXPECT_NO_LEAKS();
}

/* RESERVE: the background never uses the reserved cores, events only. */
TEST(simt_reserve_cores)
{
	static const u32 pcts[] = { 50, 1, 100 };
	struct edge_simt_cfg cfg;
	struct edge_kdesc bg, e;
	u32 i, c, nres;

	for (i = 0; i < ARRAY_SIZE(pcts); i++) {
		edge_simt_default_cfg(&cfg);
		cfg.sched = EDGE_SCHED_RESERVE;
		cfg.reserve_pct = pcts[i];
		rig_init_cfg(_metadata, edge_preset_find("edge"), &cfg);
		/* ceil(16 * pct / 100), but the background keeps a core. */
		nres = (16 * pcts[i] + 99) / 100;
		if (nres > 15)
			nres = 15;
		for (c = 0; c < R.p.num_cores; c++)
			EXPECT_EQ(c >= 16 - nres, R.s.cores[c].reserved);

		bg = rig_kdesc(1024, 200, 32, 0, W, 1);
		rig_launch(&bg, 1);
		for (c = 0; c < R.p.num_cores; c++)
			EXPECT_EQ(R.s.cores[c].reserved ? 0U : 2U,
				  R.s.cores[c].tbs) TH_LOG("core %u", c);
		/* Events on the idle reserved cores: no wait. */
		e = rig_ewarp(32, 3 * W, 2);
		for (c = 0; c < 4 * nres; c++)
			rig_launch(&e, 10 + c);
		EXPECT_EQ((u64)4 * nres, R.s.st.ewarps_free);
		EXPECT_EQ(0ULL, R.s.st.sched.max);
		/* Reserved cores full: the next waits, nothing is preempted. */
		rig_launch(&e, 9);
		EXPECT_EQ(1U, R.s.ewarp_len);
		rig_drain(_metadata);
		EXPECT_EQ(0ULL, R.s.st.preemptions);
		EXPECT_EQ(1ULL, R.s.st.ewarps_waited);
		/* The waiting one took the first slot to free. */
		EXPECT_EQ(3 * W_NS, R.done_at[10]);
		EXPECT_EQ(6 * W_NS, R.done_at[9]);
		rig_fini();
	}
	EXPECT_NO_LEAKS();
}

/*
 * Cancel in every state.  Each case sets up one kernel in the state, the
 * rest of the GPU busy, cancels it and runs everything: nothing of it is
 * left (the rig checks every counter), nothing of it completes, and the
 * others complete.
 */
enum cstate {
	C_DISPATCH_DELAY,	/* launched, dispatch latency not over */
	C_QUEUED,		/* ready, waiting behind a full GPU */
	C_TB_PARTIAL,		/* some TBs running, some not dispatched */
	C_TB_RUNNING,		/* every TB dispatched, running */
	C_EW_QUEUED,		/* event warp waiting (drain) */
	C_EW_STATE,		/* event warp in state @st */
	C_VICTIM_KERNEL,	/* the victim's kernel, event warp borrowing */
	C_NR,
};

static void cancel_case(struct __test_metadata *_metadata, enum cstate cs,
			u32 st, u32 sched)
{
	struct edge_simt_cfg cfg;
	struct edge_kdesc bg, k, e;
	u64 target = 0;

	edge_simt_default_cfg(&cfg);
	cfg.sched = sched;
	if (cs == C_DISPATCH_DELAY)
		cfg.dispatch_cycles = 300;
	rig_init_cfg(_metadata, edge_preset_find("edge"), &cfg);
	/* Full register files: preemption saves and restores. */
	bg = rig_kdesc(1024, 40, 32, 0, 3 * W, 0);
	bg.ws.p_membar = 1000;		/* a flush to wait for */
	bg.ws.membar_cycles = 500;
	rig_launch(&bg, 1);
	if (cs == C_DISPATCH_DELAY)
		rig_run_to(_metadata, rig_ns(300));
	k = rig_kdesc(512, 20, 16, 0, W, 1);
	e = rig_ewarp(16, W, 2);

	switch (cs) {
	case C_DISPATCH_DELAY:
		rig_launch(&k, 2);
		rig_launch(&e, 3);
		target = 2;
		break;
	case C_QUEUED:
		rig_launch(&k, 2);
		target = 2;
		break;
	case C_TB_PARTIAL:
	case C_TB_RUNNING:
		/* Launched as the first wave exits: TBs start at its end. */
		rig_run_to(_metadata, 3 * W_NS - 1);
		rig_launch(&k, 2);
		rig_launch(&e, 3);
		target = 2;
		while (!rig_ki(2)->tbs_dispatched ||
		       (cs == C_TB_RUNNING && rig_ki(2)->tbs_dispatched < 20))
			ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER));
		if (cs == C_TB_PARTIAL)
			ASSERT_LT(rig_ki(2)->tbs_dispatched, 20ULL);
		ASSERT_GT(rig_ki(2)->tbs_running, 0U);
		break;
	case C_EW_QUEUED:
		e.smem_per_block = 1024;	/* cannot preempt */
		rig_launch(&e, 3);
		ASSERT_EQ(1U, R.s.ewarp_len);
		target = 3;
		break;
	case C_EW_STATE:
		rig_launch(&e, 3);
		rig_run_until_state(_metadata, 3, st);
		target = 3;
		break;
	case C_VICTIM_KERNEL:
		rig_launch(&e, 3);
		rig_run_until_state(_metadata, 3, st);
		/* Cancel the background, whose TB lends the event its warp. */
		target = 1;
		break;
	default:
		break;
	}
	if (cs == C_DISPATCH_DELAY) {
		ASSERT_NE(NULL, rig_ki(2));
		ASSERT_FALSE(rig_ki(2)->queued);
		rig_launch(&k, 4);	/* another, still delayed too */
	}
	EXPECT_EQ(1U, rig_cancel_one(_metadata, target));
	EXPECT_EQ(NULL, rig_ki(target));
	EXPECT_LT(rig_slot_of(target), 0);
	/*
	 * What it held is reused (the kernel slot at once, its TBs and event
	 * warp slot as they come): the stale events of the cancelled one
	 * must not move the new ones.  The rig checks every state's length
	 * and that nothing starts before its dispatch latency is over.
	 */
	rig_run_to(_metadata, R.eng.now + rig_ns(100));
	rig_launch(&e, 5);
	rig_launch(&k, 6);
	rig_drain(_metadata);
	EXPECT_EQ((u8)CK_CANCELLED, R.ck[target]);
	EXPECT_EQ(0ULL, R.done_at[target]);
	EXPECT_EQ((u8)CK_DONE, R.ck[5]);
	rig_fini();
}

TEST(simt_cancel_every_state)
{
	static const u32 ew_states[] = {
		EDGE_PS_SELECT_WARP, EDGE_PS_FLUSH_PIPELINE,
		EDGE_PS_SAVE_HW_CTX, EDGE_PS_LAUNCH_IWARP,
		EDGE_PS_IWARP_RUNNING, EDGE_PS_IWARP_COMPLETING,
	};
	static const u32 scheds[] = {
		EDGE_SCHED_DRAIN, EDGE_SCHED_PREEMPT,
	};
	u32 i, j;

	for (j = 0; j < ARRAY_SIZE(scheds); j++) {
		cancel_case(_metadata, C_DISPATCH_DELAY, 0, scheds[j]);
		cancel_case(_metadata, C_QUEUED, 0, scheds[j]);
		cancel_case(_metadata, C_TB_PARTIAL, 0, scheds[j]);
		cancel_case(_metadata, C_EW_QUEUED, 0, scheds[j]);
	}
	for (i = 0; i < ARRAY_SIZE(ew_states); i++) {
		cancel_case(_metadata, C_EW_STATE, ew_states[i],
			    EDGE_SCHED_PREEMPT);
		cancel_case(_metadata, C_VICTIM_KERNEL, ew_states[i],
			    EDGE_SCHED_PREEMPT);
	}
	/* Free resources: the event warp goes straight to LAUNCH_IWARP. */
	cancel_case(_metadata, C_EW_STATE, EDGE_PS_IWARP_RUNNING,
		    EDGE_SCHED_RESERVE);
	cancel_case(_metadata, C_VICTIM_KERNEL, EDGE_PS_RESTORE_HW_CTX,
		    EDGE_SCHED_PREEMPT);
	EXPECT_NO_LEAKS();
}

/*
 * A cancelled kernel's queued engine events are not left behind: cancel
 * after cancel, without the engine running, never fills the engine.
 */
TEST(simt_cancel_leaves_no_events)
{
	struct edge_simt_cfg cfg;
	struct edge_kdesc bg, e;
	u32 round, i;
	u64 ck = 1;

	edge_simt_default_cfg(&cfg);
	cfg.dispatch_cycles = 300;
	rig_init_cfg(_metadata, edge_preset_find("edge"), &cfg);
	bg = rig_kdesc(1024, 32, 32, 0, 1000000, 0);
	e = rig_ewarp(32, 1000, 1);
	for (round = 0; round < 100; round++) {
		u32 len = R.eng.len;
		static u8 set[RIG_COOKIES];

		memset(set, 0, sizeof(set));
		rig_launch(&bg, ck);
		set[ck++] = 1;
		for (i = 0; i < 8; i++) {
			rig_launch(&e, ck);
			set[ck++] = 1;
		}
		/* Past the dispatch latency: TBs running, events preempting. */
		rig_run_to(_metadata, R.eng.now + rig_ns(301));
		EXPECT_EQ(9U, rig_cancel(_metadata, set));
		ASSERT_EQ(len, R.eng.len) TH_LOG("round %u", round);
		if (ck + 16 >= RIG_COOKIES)
			break;
	}
	rig_drain(_metadata);
	EXPECT_EQ(0U, R.ndone);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * A random mix of everything, on several GPUs and under every policy:
 * the rig checks each step; at the end every kernel launched and not
 * cancelled has completed once, and nothing is left.
 */
struct mix {
	u32 ndone;
	u32 cancelled_in[EDGE_PS_RESTORE_HW_CTX + 1];
	u64 done_hash;
	struct edge_simt_stats st;
};

static struct edge_warp_state rand_ws(struct emul_rng *g)
{
	struct edge_warp_state ws;

	memset(&ws, 0, sizeof(ws));
	ws.rsd_pct = emul_rand_below(g, 40);
	ws.corun_pct = emul_rand_below(g, 100);
	ws.p_pipe = emul_rand_below(g, 1001);
	ws.pipe_cycles = emul_rand_below(g, 40);
	ws.ibuf_insts = emul_rand_below(g, 17);
	ws.p_load = emul_rand_below(g, 1001);
	ws.load_cycles = emul_rand_below(g, 2000);
	ws.p_barrier = emul_rand_below(g, 1001);
	ws.barrier_cycles = emul_rand_below(g, 1000);
	ws.early_pct = emul_rand_below(g, 101);
	ws.p_membar = emul_rand_below(g, 200);
	ws.membar_cycles = emul_rand_below(g, 500);
	ws.p_icache = emul_rand_below(g, 1001);
	ws.icache_cycles = emul_rand_below(g, 300);
	return ws;
}

static void mix_run(struct __test_metadata *_metadata,
		    const struct edge_preset *p, const struct edge_simt_cfg *cfg,
		    u64 seed, u32 ops, bool cancels, struct mix *out)
{
	struct emul_rng g;
	u64 ck = 1;
	u32 op, i;

	emul_rng_seed(&g, seed);
	rig_init_cfg(_metadata, p, cfg);
	for (op = 0; op < ops && ck < RIG_COOKIES - 1; op++) {
		u32 what = emul_rand_below(&g, 100);
		struct edge_kdesc k;

		if (what < 8) {
			/* A filler: blocks that fill every core's threads. */
			u32 per = 1U << (1 + emul_rand_below(&g, 3));
			u32 threads = R.p.threads_per_core / per;
			u32 maxr = R.p.regs_per_core / R.p.threads_per_core;

			if (threads > R.p.max_block_threads)
				threads = R.p.max_block_threads;
			k = rig_kdesc(threads, (u64)R.p.num_cores * per *
					       (1 + emul_rand_below(&g, 3)),
				      maxr - emul_rand_below(&g, maxr / 2), 0,
				      5000 + emul_rand_below(&g, 50000),
				      emul_rand_below(&g, 4));
			k.ws = rand_ws(&g);
			rig_try_launch(_metadata, &k, ck++);
		} else if (what < 30) {
			/* A TB kernel that fits a core. */
			u32 threads = 1 + emul_rand_below(&g, R.p.max_block_threads);
			u32 warps, maxr, regs, smem;

			if (threads * 2 > R.p.threads_per_core)
				threads = R.p.threads_per_core / 2;
			warps = (threads + R.p.warp_size - 1) / R.p.warp_size;
			maxr = R.p.regs_per_core / (warps * R.p.warp_size);
			regs = 1 + emul_rand_below(&g, maxr < 64 ? maxr : 64);
			smem = emul_rand_below(&g, 3) ? 0 :
			       emul_rand_below(&g, R.p.smem_per_core / 2);
			k = rig_kdesc(threads,
				      1 + emul_rand_below(&g, 8 * R.p.num_cores),
				      regs,
				      smem, 2000 + emul_rand_below(&g, 50000),
				      emul_rand_below(&g, 4));
			k.ws = rand_ws(&g);
			rig_try_launch(_metadata, &k, ck++);
		} else if (what < 65) {
			k = rig_ewarp(1 + emul_rand_below(&g, 24),
				      100 + emul_rand_below(&g, 5000),
				      emul_rand_below(&g, 4));
			if (!emul_rand_below(&g, 8))
				k.smem_per_block = emul_rand_below(&g, 2048);
			k.ws = rand_ws(&g);
			rig_try_launch(_metadata, &k, ck++);
		} else if (what < 68) {
			/* A burst: more event warps than free warps. */
			k = rig_ewarp(1 + emul_rand_below(&g, 16),
				      500 + emul_rand_below(&g, 3000),
				      1 + emul_rand_below(&g, 3));
			for (i = emul_rand_below(&g, 8 * R.p.num_cores); i; i--)
				if (ck < RIG_COOKIES - 1)
					rig_try_launch(_metadata, &k, ck++);
		} else if (what < 75) {
			rig_run_to(_metadata, R.eng.now +
				   rig_ns(emul_rand_below(&g, 2000)));
		} else if (what < 93) {
			for (i = emul_rand_below(&g, 20); i; i--)
				if (!rig_step(_metadata, EDGE_TIME_NEVER))
					break;
		} else if (cancels) {
			static u8 set[RIG_COOKIES];
			u32 n = 1 + emul_rand_below(&g, 3);

			memset(set, 0, sizeof(set));
			while (n--) {
				u32 s = emul_rand_below(&g, rig_nslots());
				u32 c = 1 + emul_rand_below(&g, (u32)ck);

				/* An event warp on a core, or any kernel. */
				if (emul_rand_below(&g, 2) &&
				    R.sl[s].state != EDGE_PS_IDLE &&
				    R.sl[s].cookie < RIG_COOKIES) {
					set[R.sl[s].cookie] = 1;
					continue;
				}
				while (c < ck && R.ck[c] != CK_LAUNCHED)
					c++;
				if (c < ck)
					set[c] = 1;
			}
			for (i = 0; i < RIG_COOKIES; i++)
				if (R.ck[i] != CK_LAUNCHED)
					set[i] = 0;
			rig_cancel(_metadata, set);
		}
	}
	rig_drain(_metadata);
	memset(out, 0, sizeof(*out));
	for (i = 1; i < ck; i++) {
		if (R.ck[i] == CK_LAUNCHED)
			ASSERT_EQ((u8)CK_DONE, R.ck[i]) TH_LOG("cookie %u", i);
		if (R.ck[i] == CK_CANCELLED)
			ASSERT_EQ(0ULL, R.done_at[i]);
	}
	for (i = 0; i < R.ndone; i++)
		out->done_hash = out->done_hash * 1000003 +
				 R.done_order[i] * 31 +
				 R.done_at[R.done_order[i]];
	out->ndone = R.ndone;
	for (i = 0; i <= EDGE_PS_RESTORE_HW_CTX; i++)
		out->cancelled_in[i] = R.cancelled_in[i];
	out->st = R.s.st;
	rig_fini();
}

TEST(simt_random_mix_no_overcommit)
{
	static const u32 scheds[] = {
		EDGE_SCHED_DRAIN, EDGE_SCHED_RESERVE, EDGE_SCHED_PREEMPT,
	};
	struct edge_preset ps[3];
	struct edge_simt_cfg cfg;
	static struct mix mx;
	u32 i, j, k, total = 0, busy_cancels = 0;

	ps[0] = rig_preset_small(2);
	ps[1] = rig_preset_edge();
	ps[2] = *edge_preset_find("lax");
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		for (j = 0; j < ARRAY_SIZE(scheds); j++) {
			edge_simt_default_cfg(&cfg);
			cfg.sched = scheds[j];
			cfg.victim = (i + j) % 3;
			cfg.flush = (i * 5 + j * 3) & EDGE_FLUSH_ALL;
			cfg.dispatch_cycles = j == 1 ? 300 : 0;
			cfg.seed = 100 + i * 3 + j;
			mix_run(_metadata, &ps[i], &cfg, 7 + i * 3 + j, 600,
				true, &mx);
			total += mx.ndone;
			for (k = 0; k <= EDGE_PS_RESTORE_HW_CTX; k++)
				busy_cancels += mx.cancelled_in[k];
			/* Every path taken: waits, free starts, preemptions. */
			EXPECT_GT(mx.st.ewarps_waited, 20ULL);
			EXPECT_GT(mx.st.ewarps_free, 20ULL);
			if (scheds[j] == EDGE_SCHED_PREEMPT)
				EXPECT_GT(mx.st.preemptions, 20ULL)
					TH_LOG("preset %u", i);
		}
	}
	EXPECT_GT(total, 1000U);
	/* Cancels freed event warp slots mid-flight. */
	EXPECT_GT(busy_cancels, 20U);
	EXPECT_NO_LEAKS();
}

/* The same seed and inputs: the same run.  Another seed: another run. */
TEST(simt_determinism)
{
	static struct mix a, b, c;
	struct edge_preset p = rig_preset_edge();
	struct edge_simt_cfg cfg;

	edge_simt_default_cfg(&cfg);
	cfg.seed = 12345;
	mix_run(_metadata, &p, &cfg, 99, 800, true, &a);
	mix_run(_metadata, &p, &cfg, 99, 800, true, &b);
	EXPECT_EQ(a.ndone, b.ndone);
	EXPECT_EQ(a.done_hash, b.done_hash);
	EXPECT_EQ(0, memcmp(&a.st, &b.st, sizeof(a.st)));
	EXPECT_GT(a.st.preemptions, 10ULL);

	/* Only the model's seed changes: its draws, hence its times. */
	cfg.seed = 54321;
	mix_run(_metadata, &p, &cfg, 99, 800, true, &c);
	EXPECT_NE(a.done_hash, c.done_hash);
	EXPECT_NE(0, memcmp(&a.st, &c.st, sizeof(a.st)));
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

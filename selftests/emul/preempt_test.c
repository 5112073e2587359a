// SPDX-License-Identifier: GPL-2.0
/*
 * Warp-level preemption (emul/gpu/preempt.c): victim selection, the register
 * and shared-memory rules, exiting TBs, free registers against save and
 * restore, the victim's delay, the four flushing optimisations (sampled
 * with controlled warp states, and in whole runs), the state machine
 * and the stall accounting.
 */
#include "simt_rig.h"

#define W	7000ULL		/* 10 us at 700 MHz */
#define W_NS	10000ULL
#define LONG	100000000ULL	/* background that outlives the test */

/* The "edge" GPU cut to one core: the victim is always on it. */
static struct edge_preset one_core(void)
{
	struct edge_preset p = rig_preset_edge();

	p.num_cores = 1;
	return p;
}

static void init_victim(struct __test_metadata *_metadata,
			const struct edge_preset *p, u32 victim, u32 flush)
{
	struct edge_simt_cfg cfg;

	edge_simt_default_cfg(&cfg);
	cfg.victim = victim;
	cfg.flush = flush;
	rig_init_cfg(_metadata, p, &cfg);
}

/* Two one-TB kernels fill the core: 1 is older than 2. */
static void two_tbs(struct __test_metadata *_metadata, u32 regs, u64 cycles,
		    const struct edge_warp_state *ws1,
		    const struct edge_warp_state *ws2, u64 gap_cycles)
{
	struct edge_kdesc a = rig_kdesc(1024, 1, regs, 0, cycles, 0);

	if (ws1)
		a.ws = *ws1;
	rig_launch(&a, 1);
	rig_run_to(_metadata, R.eng.now + rig_ns(gap_cycles));
	if (ws2)
		a.ws = *ws2;
	else
		memset(&a.ws, 0, sizeof(a.ws));
	rig_launch(&a, 2);
	ASSERT_EQ(R.p.threads_per_core, R.s.cores[0].threads);
}

TEST(preempt_victim_oldest_newest_best)
{
	static const u32 pick[] = {
		[EDGE_VICTIM_OLDEST] = 1,
		[EDGE_VICTIM_NEWEST] = 2,
		/* Neither needs a flush: the first in age order. */
		[EDGE_VICTIM_BEST] = 1,
	};
	struct edge_preset p = one_core();
	const struct rig_tr *t;
	struct edge_kdesc e;
	u32 v;

	for (v = 0; v < ARRAY_SIZE(pick); v++) {
		init_victim(_metadata, &p, v, EDGE_FLUSH_ALL);
		two_tbs(_metadata, 32, LONG, NULL, NULL, 100);
		rig_run_to(_metadata, R.eng.now + rig_ns(100));
		e = rig_ewarp(32, 700, 1);
		rig_launch(&e, 3);
		t = rig_placement(3);
		ASSERT_NE(NULL, t);
		EXPECT_EQ((u32)EDGE_PS_SELECT_WARP, t->to);
		EXPECT_EQ((u64)pick[v], t->victim_cookie) TH_LOG("policy %u", v);
		EXPECT_EQ(R.launched_at[3], t->time);
		rig_run_until_done(_metadata, 3);
		/* The lent warp is back once the context is restored. */
		rig_run_to(_metadata, R.eng.now + rig_ns(1000));
		EXPECT_EQ(0U, rig_tb_of(1)->preempted);
		EXPECT_EQ(0U, rig_tb_of(2)->preempted);
		rig_fini();
	}
	EXPECT_NO_LEAKS();
}

/*
 * A preempting event warp runs beside the TBs that fill its core: its
 * co-run stretch (corun_pct at the core's occupancy, here full) applies,
 * and without one its time is its own.
 */
TEST(preempt_ewarp_corun_stretch)
{
	static const u32 pct[] = { 0, 100, 30 };
	struct edge_preset p = one_core();
	const struct rig_tr *t;
	struct edge_kdesc e;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		init_victim(_metadata, &p, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL);
		two_tbs(_metadata, 32, LONG, NULL, NULL, 100);
		e = rig_ewarp(32, 700, 1);
		e.ws.corun_pct = pct[i];
		rig_launch(&e, 3);
		rig_run_until_done(_metadata, 3);
		t = rig_placement(3);
		ASSERT_NE(NULL, t);
		ASSERT_TRUE(t->victim);
		/* 64 of 64 warps: 1000 per mille, 700 * pct % more. */
		EXPECT_EQ(700ULL + 7 * pct[i], t->run) TH_LOG("corun %u %%",
							      pct[i]);
		rig_fini();
	}
	EXPECT_NO_LEAKS();
}

/*
 * Oldest passes over an older TB the register rule refuses: the pick's
 * warps then have older ones before them, and its age rank, which sets
 * how long its i-buffer takes to drain under greedy-then-oldest issue,
 * counts them (a rank of the core's oldest would be 0).
 */
TEST(preempt_victim_rank_behind_a_refused_older_tb)
{
	struct edge_preset p = one_core();
	struct edge_simt_cfg cfg;
	struct edge_kdesc a, e;
	u64 most = 0;
	u32 i;

	edge_simt_default_cfg(&cfg);
	cfg.victim = EDGE_VICTIM_OLDEST;
	cfg.flush = 0;
	cfg.sched_wait_cycles = 1000;
	rig_init_cfg(_metadata, &p, &cfg);
	a = rig_kdesc(1024, 1, 16, 0, LONG, 0);
	memset(&a.ws, 0, sizeof(a.ws));
	a.ws.ibuf_insts = 4;
	rig_launch(&a, 1);
	rig_run_to(_metadata, R.eng.now + rig_ns(100));
	a.regs_per_thread = 32;
	rig_launch(&a, 2);
	ASSERT_EQ(R.p.threads_per_core, R.s.cores[0].threads);
	e = rig_ewarp(32, 700, 1);
	for (i = 0; i < 20; i++) {
		const struct rig_tr *t;

		rig_launch(&e, 10 + i);
		rig_run_until_done(_metadata, 10 + i);
		t = rig_placement(10 + i);
		ASSERT_NE(NULL, t);
		ASSERT_TRUE(t->victim);
		ASSERT_EQ(2ULL, t->victim_cookie);
		if (t->flush > most)
			most = t->flush;
	}
	/* 32 of the core's 64 warps are older: rank 507, 508 cycles each. */
	EXPECT_GE(most, 508ULL);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Best takes a victim needing no flush when there is one (here the
 * newer TB, whose warps never stall), else the one with the fewest
 * pending loads; Oldest takes the older TB whatever its state.
 */
static u32 best_run(struct __test_metadata *_metadata, u32 victim, u32 flush,
		    const struct edge_warp_state *ws1,
		    const struct edge_warp_state *ws2, u32 *flushed)
{
	struct edge_preset p = one_core();
	struct edge_kdesc e;
	u32 i, newer = 0;

	*flushed = 0;
	init_victim(_metadata, &p, victim, flush);
	e = rig_ewarp(32, 700, 1);
	two_tbs(_metadata, 32, LONG, ws1, ws2, 100);
	for (i = 0; i < 40; i++) {
		const struct rig_tr *t;

		rig_launch(&e, 10 + i);
		rig_run_until_done(_metadata, 10 + i);
		t = rig_placement(10 + i);
		ASSERT_NE(NULL, t);
		ASSERT_TRUE(t->victim);
		if (t->victim_cookie == 2)
			newer++;
		if (t->flush)
			(*flushed)++;
		if (victim == EDGE_VICTIM_BEST && !ws2->p_load)
			ASSERT_EQ(0ULL, t->flush) TH_LOG("event %u", i);
	}
	rig_fini();
	return newer;
}

TEST(preempt_victim_best)
{
	struct edge_warp_state stalls, calm, many_loads, few_loads;
	u32 flushed, newer;

	memset(&calm, 0, sizeof(calm));
	stalls = calm;
	stalls.p_membar = 1000;		/* no optimisation removes it */
	stalls.membar_cycles = 1000;

	newer = best_run(_metadata, EDGE_VICTIM_BEST, EDGE_FLUSH_ALL, &stalls,
			 &calm, &flushed);
	EXPECT_EQ(0U, flushed);
	/* The older one is taken only when its draw (0 .. 2000) is 0. */
	EXPECT_GE(newer, 38U);
	newer = best_run(_metadata, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL,
			 &stalls, &calm, &flushed);
	EXPECT_EQ(0U, newer);
	EXPECT_GE(flushed, 38U);

	/* Both always wait for loads: the fewer loads win. */
	many_loads = calm;
	many_loads.p_load = 1000;
	many_loads.load_cycles = 5000;
	few_loads = many_loads;
	few_loads.load_cycles = 20;
	newer = best_run(_metadata, EDGE_VICTIM_BEST,
			 EDGE_FLUSH_ALL & ~EDGE_FLUSH_LOADS, &many_loads,
			 &few_loads, &flushed);
	EXPECT_GE(newer, 38U);
	EXPECT_GE(flushed, 30U);
	EXPECT_NO_LEAKS();
}

/*
 * The register rule: a victim's kernel must use at least as many
 * registers per thread as the event, free registers or not; else the
 * event drains.  The shared-memory rule: an event using shared memory
 * never preempts.
 */
static void rule_case(struct __test_metadata *_metadata, u32 bg_regs,
		      u32 ev_regs, u32 ev_smem, bool preempts)
{
	struct edge_kdesc bg, e;
	const struct rig_tr *t;
	u64 at;

	rig_init(_metadata, edge_preset_find("edge"), EDGE_SCHED_PREEMPT);
	bg = rig_kdesc(1024, 32, bg_regs, 0, W, 0);
	rig_launch(&bg, 1);
	rig_run_to(_metadata, rig_ns(1000));
	at = R.eng.now;
	e = rig_kdesc(32, 1, ev_regs, ev_smem, 700, 1);
	rig_launch(&e, 2);
	rig_drain(_metadata);
	t = rig_placement(2);
	ASSERT_NE(NULL, t);
	if (preempts) {
		EXPECT_EQ((u32)EDGE_PS_SELECT_WARP, t->to);
		EXPECT_EQ(at, t->time);
		EXPECT_EQ(1ULL, R.s.st.preemptions);
		EXPECT_EQ(0ULL, R.s.st.ewarps_waited);
	} else {
		/* Drained: free resources once the first TB ended. */
		EXPECT_EQ((u32)EDGE_PS_LAUNCH_IWARP, t->to);
		EXPECT_EQ(W_NS, t->time);
		EXPECT_EQ(0ULL, R.s.st.preemptions);
		EXPECT_EQ(1ULL, R.s.st.ewarps_waited);
		EXPECT_EQ(1ULL, R.s.st.ewarps_free);
		/* Model time is in ns: a span reads back within a cycle. */
		EXPECT_LE(R.s.st.sched.max, W - 1000 + 1);
		EXPECT_GE(R.s.st.sched.max, W - 1000 - 1);
	}
	rig_fini();
}

TEST(preempt_register_rule)
{
	/* Half the register file is free, yet 16 < 32 forbids it. */
	rule_case(_metadata, 16, 32, 0, false);
	rule_case(_metadata, 32, 32, 0, true);
	rule_case(_metadata, 32, 16, 0, true);
	rule_case(_metadata, 17, 16, 0, true);
	EXPECT_NO_LEAKS();
}

TEST(preempt_shared_memory_rule)
{
	rule_case(_metadata, 32, 16, 1024, false);
	rule_case(_metadata, 32, 16, 1, false);
	rule_case(_metadata, 32, 16, 0, true);
	EXPECT_NO_LEAKS();
}

/* A TB within EDGE_EXIT_CYCLES of its end is never a victim. */
TEST(preempt_exiting_tb_never_victim)
{
	struct edge_preset p = one_core();
	struct edge_kdesc e;
	const struct rig_tr *t;

	/* The older TB ends at W, the newer at 3000 + W cycles. */
	init_victim(_metadata, &p, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL);
	e = rig_ewarp(32, 700, 1);
	two_tbs(_metadata, 32, W, NULL, NULL, 3000);
	/* 50 cycles before the older one's end: it is exiting. */
	rig_run_to(_metadata, W_NS - rig_ns(50));
	ASSERT_LT(edge_simt_ns2cyc(&R.s, rig_tb_of(1)->end - R.eng.now),
		  (u64)RIG_EXIT_CYCLES);
	rig_launch(&e, 3);
	t = rig_placement(3);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(2ULL, t->victim_cookie);
	rig_drain(_metadata);
	rig_fini();

	/* 150 cycles before: not exiting, and the oldest. */
	init_victim(_metadata, &p, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL);
	two_tbs(_metadata, 32, W, NULL, NULL, 3000);
	rig_run_to(_metadata, W_NS - rig_ns(150));
	rig_launch(&e, 3);
	t = rig_placement(3);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(1ULL, t->victim_cookie);
	rig_drain(_metadata);
	rig_fini();

	/* Both exiting: no victim; it waits for the first to end. */
	init_victim(_metadata, &p, EDGE_VICTIM_NEWEST, EDGE_FLUSH_ALL);
	two_tbs(_metadata, 32, W, NULL, NULL, 0);
	rig_run_to(_metadata, W_NS - rig_ns(50));
	rig_launch(&e, 3);
	EXPECT_EQ(NULL, rig_placement(3));
	rig_drain(_metadata);
	t = rig_placement(3);
	ASSERT_NE(NULL, t);
	EXPECT_EQ((u32)EDGE_PS_LAUNCH_IWARP, t->to);
	EXPECT_EQ(W_NS, t->time);
	EXPECT_EQ(0ULL, R.s.st.preemptions);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * Free registers spare the save and the restore; a full register file
 * costs both, at ctx_bytes_per_cycle.  The state machine goes through
 * every state in order, each for its time.
 */
static void ctx_case(struct __test_metadata *_metadata, u32 bg_regs,
		     u32 ev_regs, u32 bytes_per_cycle, bool saved)
{
	static const u32 path[] = {
		EDGE_PS_SELECT_WARP, EDGE_PS_FLUSH_PIPELINE,
		EDGE_PS_SAVE_HW_CTX, EDGE_PS_LAUNCH_IWARP,
		EDGE_PS_IWARP_RUNNING, EDGE_PS_IWARP_COMPLETING,
		EDGE_PS_RESTORE_HW_CTX, EDGE_PS_IDLE,
	};
	struct edge_preset p = one_core();
	struct edge_simt_cfg cfg;
	struct edge_warp_state ws;
	struct edge_kdesc e;
	u64 ctx = 0, t0, want[ARRAY_SIZE(path)];
	u32 i, n = 0, regs0;
	int slot;

	edge_simt_default_cfg(&cfg);
	cfg.ctx_bytes_per_cycle = bytes_per_cycle;
	rig_init_cfg(_metadata, &p, &cfg);
	memset(&ws, 0, sizeof(ws));
	ws.p_membar = 1000;	/* a flush of 0 .. 1000 cycles */
	ws.membar_cycles = 500;
	two_tbs(_metadata, bg_regs, LONG, &ws, &ws, 10);
	regs0 = R.s.cores[0].regs;
	e = rig_ewarp(ev_regs, 1234, 1);
	t0 = R.eng.now;
	rig_launch(&e, 3);
	slot = rig_slot_of(3);
	ASSERT_GE(slot, 0);
	EXPECT_EQ(saved, rig_ew((u32)slot)->saved);
	if (saved) {
		/* 4 bytes a register, a warp's worth of them. */
		ctx = (u64)ev_regs * R.p.warp_size * 4 / bytes_per_cycle;
		EXPECT_EQ(regs0, R.s.cores[0].regs);
	} else {
		EXPECT_EQ(regs0 + ev_regs * R.p.warp_size, R.s.cores[0].regs);
	}
	EXPECT_EQ(ctx, rig_ew((u32)slot)->ctx_cycles);
	rig_run_until_done(_metadata, 3);
	rig_run_to(_metadata, R.eng.now + rig_ns(ctx + 10));

	/* The slot's whole life, in order, each state for its time. */
	want[0] = t0;
	for (i = 0; i < R.ntr; i++) {
		const struct rig_tr *t = &R.tr[i];
		u64 len = 0;

		if (t->cookie != 3)
			continue;
		ASSERT_LT(n, (u32)ARRAY_SIZE(path));
		EXPECT_EQ(path[n], t->to) TH_LOG("step %u", n);
		EXPECT_EQ(want[n], t->time) TH_LOG("step %u", n);
		/* How long the state it enters lasts, in cycles. */
		switch (path[n]) {
		case EDGE_PS_SELECT_WARP:
			len = 2;
			break;
		case EDGE_PS_FLUSH_PIPELINE:
			len = t->flush;
			break;
		case EDGE_PS_SAVE_HW_CTX:
		case EDGE_PS_RESTORE_HW_CTX:
			len = ctx;
			break;
		case EDGE_PS_IWARP_RUNNING:
			len = 1234;
			break;
		}
		if (n + 1 < ARRAY_SIZE(path))
			want[n + 1] = t->time + rig_ns(len);
		n++;
	}
	EXPECT_EQ((u32)ARRAY_SIZE(path), n);
	/* Done when it completes, before its restore. */
	EXPECT_EQ(rig_tr_of(3, EDGE_PS_RESTORE_HW_CTX)->time, R.done_at[3]);
	EXPECT_EQ(1ULL, R.s.st.preempt.n);
	EXPECT_EQ(2 + rig_tr_of(3, EDGE_PS_SELECT_WARP)->flush + ctx,
		  R.s.st.preempt.sum);
	/* Registers as before. */
	EXPECT_EQ(regs0, R.s.cores[0].regs);
	rig_fini();
}

TEST(preempt_context_save_restore)
{
	/* Half the registers free: the event takes new ones. */
	ctx_case(_metadata, 16, 16, 64, false);
	ctx_case(_metadata, 16, 8, 64, false);
	/* Full: 32 regs * 32 threads * 4 bytes / 64 = 64 cycles each way. */
	ctx_case(_metadata, 32, 32, 64, true);
	ctx_case(_metadata, 32, 32, 16, true);
	ctx_case(_metadata, 32, 8, 64, true);
	EXPECT_NO_LEAKS();
}

/* Each step of an event warp is one engine event about its slot. */
TEST(preempt_states_are_engine_events)
{
	struct edge_preset p = one_core();
	struct edge_kdesc e;
	u32 seen = 0;

	init_victim(_metadata, &p, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL);
	two_tbs(_metadata, 32, LONG, NULL, NULL, 10);
	e = rig_ewarp(32, 700, 1);
	rig_launch(&e, 3);
	while (R.ck[3] == CK_LAUNCHED) {
		struct edge_ewarp *ew = rig_ew(0);
		u32 i, live = 0;

		for (i = 0; i < R.eng.len; i++) {
			const struct edge_ev *ev = edge_engine_ev(&R.eng, i);

			if (ev->kind != EDGE_EV_EWARP)
				continue;
			EXPECT_EQ(0U, ev->obj);
			if (ev->gen == ew->gen) {
				EXPECT_EQ(ew->state, ev->aux);
				live++;
			}
		}
		EXPECT_EQ(1U, live);
		seen |= 1U << ew->state;
		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER));
	}
	EXPECT_EQ((1U << EDGE_PS_SELECT_WARP) | (1U << EDGE_PS_FLUSH_PIPELINE) |
		  (1U << EDGE_PS_SAVE_HW_CTX) | (1U << EDGE_PS_LAUNCH_IWARP) |
		  (1U << EDGE_PS_IWARP_RUNNING) |
		  (1U << EDGE_PS_IWARP_COMPLETING), seen);
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * The victim's TB is held up by the event: its end moves by the event's
 * run, the context moves and the replay of its dropped loads.
 */
static void delay_case(struct __test_metadata *_metadata, u32 p_load,
		       u64 replay)
{
	struct edge_preset p = one_core();
	struct edge_warp_state ws;
	struct edge_kdesc e;
	u64 end1, end2, at;

	init_victim(_metadata, &p, EDGE_VICTIM_OLDEST, EDGE_FLUSH_ALL);
	memset(&ws, 0, sizeof(ws));
	ws.p_load = p_load;
	ws.load_cycles = 300;
	/* 8 registers a thread: free ones, no context to move. */
	two_tbs(_metadata, 8, 100000, &ws, &ws, 0);
	end1 = rig_tb_of(1)->end;
	end2 = rig_tb_of(2)->end;
	EXPECT_EQ(rig_ns(100000), end1);
	rig_run_to(_metadata, rig_ns(1000));
	at = R.eng.now;
	e = rig_ewarp(8, 5000, 1);
	rig_launch(&e, 3);
	EXPECT_EQ(end1 + rig_ns(5000 + replay), rig_tb_of(1)->end);
	EXPECT_EQ(end2, rig_tb_of(2)->end);
	rig_drain(_metadata);
	/* select, no flush, no save, the run */
	EXPECT_EQ(at + rig_ns(2) + rig_ns(5000), R.done_at[3]);
	EXPECT_EQ(end1 + rig_ns(5000 + replay), R.done_at[1]);
	EXPECT_EQ(end2, R.done_at[2]);
	rig_fini();
}

TEST(preempt_victim_delayed)
{
	delay_case(_metadata, 0, 0);
	/* Loads dropped at the flush are replayed: load_cycles more. */
	delay_case(_metadata, 1000, 300);
	EXPECT_NO_LEAKS();
}

/*
 * edge_preempt_sample() with controlled warp states.  The draws a sample
 * makes do not depend on the optimisations, so the same seed gives the
 * same warp under every configuration: each optimisation must remove
 * exactly its own cause.
 */
static struct edge_kinst s_ki;
static struct edge_tb s_tb;

static void sample(u32 flush, const struct edge_warp_state *ws, u32 rank,
		   u64 seed, struct edge_vstate *v)
{
	R.s.cfg.flush = flush;
	s_ki.k.ws = *ws;
	edge_rng_seed(&R.s.rng, seed);
	edge_preempt_sample(&R.s, &s_tb, rank, v);
}

static void sample_init(struct __test_metadata *_metadata, u64 now_pct)
{
	struct edge_preset p = one_core();

	rig_init(_metadata, &p, EDGE_SCHED_PREEMPT);
	memset(&s_ki, 0, sizeof(s_ki));
	memset(&s_tb, 0, sizeof(s_tb));
	s_ki.used = true;
	s_ki.k = rig_kdesc(1024, 1, 32, 0, LONG, 0);
	s_tb.used = true;
	s_tb.ki = &s_ki;
	s_tb.warps = 32;
	s_tb.start = 1000;
	s_tb.end = 1000 + 1000000;
	/* Progress through the TB, in per cent. */
	edge_engine_advance(&R.eng, 1000 + 10000 * now_pct);
}

static void expect_flush_is_max(struct __test_metadata *_metadata,
				const struct edge_vstate *v)
{
	u64 m = 0;
	u32 k;

	for (k = 0; k < EDGE_STALL_NR; k++)
		if (v->cyc[k] > m)
			m = v->cyc[k];
	EXPECT_EQ(m, v->flush);
}

TEST(preempt_sample_never_stalls)
{
	struct edge_warp_state ws;
	struct edge_vstate v;
	u32 seed, k;

	sample_init(_metadata, 0);
	memset(&ws, 0, sizeof(ws));
	for (seed = 1; seed < 200; seed++) {
		sample(seed % 2 ? EDGE_FLUSH_ALL : 0, &ws, seed * 5 % 1001,
		       seed, &v);
		for (k = 0; k < EDGE_STALL_NR; k++)
			EXPECT_EQ(0ULL, v.cyc[k]);
		EXPECT_EQ(0ULL, v.flush);
		EXPECT_EQ(0ULL, v.load);
		EXPECT_EQ(0ULL, v.replay);
	}
	rig_fini();
	EXPECT_NO_LEAKS();
}

TEST(preempt_sample_each_cause)
{
	/* One cause at a time, probability 1000: it alone shows. */
	static const struct {
		u32 stall;
		struct edge_warp_state ws;
	} c[] = {
		{ EDGE_STALL_PIPELINE, { .p_pipe = 1000, .pipe_cycles = 50 } },
		{ EDGE_STALL_LOAD, { .p_load = 1000, .load_cycles = 50 } },
		{ EDGE_STALL_BARRIER, { .p_barrier = 1000, .barrier_cycles = 50,
					.early_pct = 100 } },
		{ EDGE_STALL_MEMBAR, { .p_membar = 1000, .membar_cycles = 50 } },
		{ EDGE_STALL_ICACHE, { .p_icache = 1000, .icache_cycles = 50,
				       .early_pct = 100 } },
	};
	struct edge_vstate v;
	u32 i, seed, k, present;

	sample_init(_metadata, 0);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		present = 0;
		for (seed = 1; seed <= 500; seed++) {
			sample(0, &c[i].ws, 500, seed, &v);
			expect_flush_is_max(_metadata, &v);
			for (k = 0; k < EDGE_STALL_NR; k++) {
				if (k == c[i].stall ||
				    (c[i].stall == EDGE_STALL_LOAD &&
				     k == EDGE_STALL_SCOREBOARD))
					continue;
				EXPECT_EQ(0ULL, v.cyc[k]);
			}
			/* Uniform on 0 .. 2 * mean */
			EXPECT_LE(v.cyc[c[i].stall], 100ULL);
			if (v.cyc[c[i].stall])
				present++;
			if (c[i].stall == EDGE_STALL_LOAD) {
				EXPECT_EQ(v.load, v.cyc[EDGE_STALL_LOAD]);
				EXPECT_EQ(v.load,
					  v.cyc[EDGE_STALL_SCOREBOARD]);
			}
		}
		/* Only a draw of exactly 0 (1 in 101) hides it. */
		EXPECT_GE(present, 470U) TH_LOG("cause %u", c[i].stall);
	}
	rig_fini();
	EXPECT_NO_LEAKS();
}

/* Barriers and i-cache misses sit early in a TB: 1/8 as likely later. */
TEST(preempt_sample_early_late)
{
	struct edge_warp_state ws;
	struct edge_vstate v;
	u32 seed, early_bar = 0, late_bar = 0, early_ic = 0, late_ic = 0;

	memset(&ws, 0, sizeof(ws));
	ws.p_barrier = 1000;
	ws.barrier_cycles = 1000;
	ws.p_icache = 1000;
	ws.icache_cycles = 1000;
	ws.early_pct = 30;
	sample_init(_metadata, 10);	/* 10 % through: early */
	for (seed = 1; seed <= 4000; seed++) {
		sample(0, &ws, 0, seed, &v);
		early_bar += !!v.cyc[EDGE_STALL_BARRIER];
		early_ic += !!v.cyc[EDGE_STALL_ICACHE];
	}
	rig_fini();
	sample_init(_metadata, 60);	/* 60 %: late */
	for (seed = 1; seed <= 4000; seed++) {
		sample(0, &ws, 0, seed, &v);
		late_bar += !!v.cyc[EDGE_STALL_BARRIER];
		late_ic += !!v.cyc[EDGE_STALL_ICACHE];
	}
	rig_fini();
	EXPECT_GE(early_bar, 3980U);
	EXPECT_GE(early_ic, 3980U);
	/* 125 per mille: 500 of 4000, sd ~21 */
	EXPECT_GE(late_bar, 400U);
	EXPECT_LE(late_bar, 600U);
	EXPECT_GE(late_ic, 400U);
	EXPECT_LE(late_ic, 600U);
	EXPECT_NO_LEAKS();
}

/* Every cause present; each optimisation alone against none. */
TEST(preempt_sample_each_optimisation)
{
	struct edge_warp_state ws;
	struct edge_vstate v0, v1;
	u32 seed, k, rank, wait, ibuf_seen = 0;

	memset(&ws, 0, sizeof(ws));
	ws.pipe_cycles = 10;	/* p_pipe 0: only i-buffer instructions */
	ws.ibuf_insts = 16;
	ws.p_load = 1000;
	ws.load_cycles = 400;
	ws.p_barrier = 1000;
	ws.barrier_cycles = 300;
	ws.early_pct = 100;
	ws.p_membar = 1000;
	ws.membar_cycles = 20;
	ws.p_icache = 1000;
	ws.icache_cycles = 30;
	sample_init(_metadata, 50);
	for (seed = 1; seed <= 300; seed++) {
		rank = (seed * 337) % 1001;
		wait = 1 + R.s.cfg.sched_wait_cycles * rank / 1000;
		sample(0, &ws, rank, seed, &v0);
		expect_flush_is_max(_metadata, &v0);
		EXPECT_EQ(0ULL, v0.replay);
		EXPECT_EQ(v0.load, v0.cyc[EDGE_STALL_LOAD]);
		EXPECT_EQ(v0.load, v0.cyc[EDGE_STALL_SCOREBOARD]);
		/* i-buffer instructions, each waiting its issue turn */
		if (v0.cyc[EDGE_STALL_PIPELINE]) {
			EXPECT_EQ(0ULL, (v0.cyc[EDGE_STALL_PIPELINE] - 10) % wait);
			ibuf_seen++;
		}

		/* Boost: the issue wait is gone, the instructions are not. */
		sample(EDGE_FLUSH_BOOST, &ws, rank, seed, &v1);
		for (k = 0; k < EDGE_STALL_NR; k++)
			if (k != EDGE_STALL_PIPELINE)
				EXPECT_EQ(v0.cyc[k], v1.cyc[k]);
		if (v0.cyc[EDGE_STALL_PIPELINE]) {
			EXPECT_EQ(v0.cyc[EDGE_STALL_PIPELINE],
				  (v1.cyc[EDGE_STALL_PIPELINE] - 10) * wait + 10);
		} else {
			EXPECT_EQ(0ULL, v1.cyc[EDGE_STALL_PIPELINE]);
		}
		EXPECT_LE(v1.cyc[EDGE_STALL_PIPELINE], 10 + 2 * 16ULL);

		/* I-buffer flush: nothing left to issue. */
		sample(EDGE_FLUSH_IBUF, &ws, rank, seed, &v1);
		EXPECT_EQ(0ULL, v1.cyc[EDGE_STALL_PIPELINE]);
		for (k = 0; k < EDGE_STALL_NR; k++)
			if (k != EDGE_STALL_PIPELINE)
				EXPECT_EQ(v0.cyc[k], v1.cyc[k]);

		/* Load drop: no load or scoreboard wait, a replay instead. */
		sample(EDGE_FLUSH_LOADS, &ws, rank, seed, &v1);
		EXPECT_EQ(0ULL, v1.cyc[EDGE_STALL_LOAD]);
		EXPECT_EQ(0ULL, v1.cyc[EDGE_STALL_SCOREBOARD]);
		EXPECT_EQ((u64)ws.load_cycles, v1.replay);
		EXPECT_EQ(v0.load, v1.load);
		for (k = 0; k < EDGE_STALL_NR; k++)
			if (k != EDGE_STALL_LOAD && k != EDGE_STALL_SCOREBOARD)
				EXPECT_EQ(v0.cyc[k], v1.cyc[k]);

		/* Barrier skipping: a warp at a barrier is free to take. */
		sample(EDGE_FLUSH_BARRIER, &ws, rank, seed, &v1);
		EXPECT_EQ(0ULL, v1.cyc[EDGE_STALL_BARRIER]);
		for (k = 0; k < EDGE_STALL_NR; k++)
			if (k != EDGE_STALL_BARRIER)
				EXPECT_EQ(v0.cyc[k], v1.cyc[k]);

		/* All four: only the memory barrier and i-cache remain. */
		sample(EDGE_FLUSH_ALL, &ws, rank, seed, &v1);
		EXPECT_EQ(v0.cyc[EDGE_STALL_MEMBAR] > v0.cyc[EDGE_STALL_ICACHE] ?
			  v0.cyc[EDGE_STALL_MEMBAR] : v0.cyc[EDGE_STALL_ICACHE],
			  v1.flush);
		EXPECT_LE(v1.flush, v0.flush);
	}
	EXPECT_GE(ibuf_seen, 280U);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * The same, in whole runs: sequential events each preempting the newest
 * warp (the one waiting longest to issue).  The model's draws are the
 * same under every configuration, so every other cause's count and
 * cycles must be equal, and the optimised one gone or smaller.
 */
static void opt_run(struct __test_metadata *_metadata, u32 flush,
		    struct edge_simt_stats *st)
{
	struct edge_kdesc bg, e;
	u32 i;

	init_victim(_metadata, edge_preset_find("edge"), EDGE_VICTIM_NEWEST,
		    flush);
	bg = rig_kdesc(1024, 32, 32, 0, LONG, 0);
	bg.ws.pipe_cycles = 20;
	bg.ws.ibuf_insts = 8;
	bg.ws.p_load = 1000;
	bg.ws.load_cycles = 400;
	bg.ws.p_barrier = 1000;
	bg.ws.barrier_cycles = 300;
	bg.ws.early_pct = 100;
	rig_launch(&bg, 1);
	e = rig_ewarp(32, 700, 1);
	for (i = 0; i < 48; i++) {
		rig_launch(&e, 10 + i);
		rig_run_until_done(_metadata, 10 + i);
	}
	*st = R.s.st;
	EXPECT_EQ(48ULL, st->preemptions);
	rig_fini();
}

static void expect_same_cause(struct __test_metadata *_metadata,
			      const struct edge_simt_stats *a,
			      const struct edge_simt_stats *b, u32 k)
{
	EXPECT_EQ(a->stall_count[k], b->stall_count[k]) TH_LOG("cause %u", k);
	EXPECT_EQ(a->stall_cycles[k], b->stall_cycles[k]) TH_LOG("cause %u", k);
}

TEST(preempt_optimisations_in_runs)
{
	static struct edge_simt_stats none, boost, ibuf, loads, bar, all;
	u32 k;

	opt_run(_metadata, 0, &none);
	opt_run(_metadata, EDGE_FLUSH_BOOST, &boost);
	opt_run(_metadata, EDGE_FLUSH_IBUF, &ibuf);
	opt_run(_metadata, EDGE_FLUSH_LOADS, &loads);
	opt_run(_metadata, EDGE_FLUSH_BARRIER, &bar);
	opt_run(_metadata, EDGE_FLUSH_ALL, &all);

	EXPECT_GT(none.stall_count[EDGE_STALL_PIPELINE], 40ULL);
	EXPECT_GT(none.stall_count[EDGE_STALL_LOAD], 40ULL);
	EXPECT_GT(none.stall_count[EDGE_STALL_SCOREBOARD], 40ULL);
	EXPECT_GT(none.stall_count[EDGE_STALL_BARRIER], 40ULL);

	EXPECT_EQ(none.stall_count[EDGE_STALL_PIPELINE],
		  boost.stall_count[EDGE_STALL_PIPELINE]);
	EXPECT_LT(boost.stall_cycles[EDGE_STALL_PIPELINE] * 50,
		  none.stall_cycles[EDGE_STALL_PIPELINE]);
	EXPECT_EQ(0ULL, ibuf.stall_count[EDGE_STALL_PIPELINE]);
	EXPECT_EQ(0ULL, loads.stall_count[EDGE_STALL_LOAD]);
	EXPECT_EQ(0ULL, loads.stall_count[EDGE_STALL_SCOREBOARD]);
	EXPECT_EQ(0ULL, bar.stall_count[EDGE_STALL_BARRIER]);
	for (k = 0; k < EDGE_STALL_NR; k++) {
		if (k != EDGE_STALL_PIPELINE) {
			expect_same_cause(_metadata, &none, &boost, k);
			expect_same_cause(_metadata, &none, &ibuf, k);
		}
		if (k != EDGE_STALL_LOAD && k != EDGE_STALL_SCOREBOARD)
			expect_same_cause(_metadata, &none, &loads, k);
		if (k != EDGE_STALL_BARRIER)
			expect_same_cause(_metadata, &none, &bar, k);
		EXPECT_EQ(0ULL, all.stall_count[k]) TH_LOG("cause %u", k);
	}
	/* Each lowers the preemption latency; all four the most. */
	EXPECT_LT(boost.preempt.sum, none.preempt.sum);
	EXPECT_LT(ibuf.preempt.sum, none.preempt.sum);
	EXPECT_LT(loads.preempt.sum, none.preempt.sum);
	EXPECT_LT(bar.preempt.sum, none.preempt.sum);
	EXPECT_LE(all.preempt.sum, boost.preempt.sum);
	EXPECT_LE(all.preempt.sum, ibuf.preempt.sum);
	EXPECT_LE(all.preempt.sum, loads.preempt.sum);
	EXPECT_LE(all.preempt.sum, bar.preempt.sum);
	/* Nothing left to wait for: select and the register save. */
	EXPECT_EQ(48ULL * (2 + 32 * 32 * 4 / 64), all.preempt.sum);
	EXPECT_NO_LEAKS();
}

/*
 * The statistics add up: every preemption is counted once with its
 * select + flush + save, each flush is the longest of its causes, and
 * every event's scheduling latency is counted once.
 */
TEST(preempt_stall_accounting)
{
	struct edge_simt_stats *st;
	u64 sum = 0, max = 0, flush_sum = 0, stall_sum = 0, nflushed = 0;
	u64 nsel = 0, nfree = 0, counts = 0;
	struct emul_rng g;
	struct edge_kdesc bg, e;
	u32 i, k;

	emul_rng_seed(&g, 77);
	init_victim(_metadata, edge_preset_find("edge"), EDGE_VICTIM_BEST,
		    EDGE_FLUSH_BOOST | EDGE_FLUSH_BARRIER);
	for (i = 0; i < 4; i++) {
		bg = rig_kdesc(256, 64, 32, 0, 40000 + 10000 * i, 0);
		bg.ws.rsd_pct = 20;
		bg.ws.p_pipe = 300 * i;
		bg.ws.pipe_cycles = 30;
		bg.ws.ibuf_insts = 4 * i;
		bg.ws.p_load = 250 * i;
		bg.ws.load_cycles = 500;
		bg.ws.p_barrier = 200 + 100 * i;
		bg.ws.barrier_cycles = 200;
		bg.ws.early_pct = 20;
		bg.ws.p_membar = 100 * i;
		bg.ws.membar_cycles = 100;
		bg.ws.p_icache = 500;
		bg.ws.icache_cycles = 80;
		rig_launch(&bg, 1 + i);
	}
	e = rig_ewarp(16, 2000, 1);
	for (i = 0; i < 300; i++) {
		rig_run_to(_metadata, R.eng.now +
			   rig_ns(emul_rand_below(&g, 600)));
		rig_launch(&e, 100 + i);
	}
	rig_drain(_metadata);
	/* And a few on the idle GPU: free resources. */
	for (i = 0; i < 10; i++)
		rig_launch(&e, 400 + i);
	rig_drain(_metadata);
	st = &R.s.st;
	for (i = 0; i < R.ntr; i++) {
		const struct rig_tr *t = &R.tr[i];
		u64 lat = 2 + t->flush + t->ctx;

		if (t->from != EDGE_PS_IDLE)
			continue;
		if (t->to == EDGE_PS_LAUNCH_IWARP) {
			nfree++;
			continue;
		}
		nsel++;
		sum += lat;
		max = lat > max ? lat : max;
		flush_sum += t->flush;
		nflushed += !!t->flush;
	}
	ASSERT_LT(R.ntr, RIG_TRACE);
	EXPECT_GT(nsel, 50ULL);
	EXPECT_GE(nfree, 10ULL);
	EXPECT_EQ(nsel, st->preemptions);
	EXPECT_EQ(nfree, st->ewarps_free);
	EXPECT_EQ(st->preemptions, st->preempt.n);
	EXPECT_EQ(sum, st->preempt.sum);
	EXPECT_EQ(max, st->preempt.max);
	for (k = 0; k < EDGE_STALL_NR; k++) {
		stall_sum += st->stall_cycles[k];
		counts += st->stall_count[k];
		EXPECT_LE(st->stall_count[k], st->preemptions);
		/* A counted stall has cycles; an uncounted one has none. */
		EXPECT_EQ(!!st->stall_count[k], !!st->stall_cycles[k]);
	}
	/* The causes overlap: a flush is the longest, not the sum. */
	EXPECT_LE(flush_sum, stall_sum);
	EXPECT_GE(counts, nflushed);
	EXPECT_GT(nflushed, 0ULL);
	/* Every event scheduled once; every kernel done once. */
	EXPECT_EQ(310ULL, st->sched.n);
	EXPECT_EQ(314ULL, st->kernels_done);
	EXPECT_EQ(nsel + nfree, 310ULL);
	for (i = 0, k = 0; i < EDGE_SIMT_TAGS; i++) {
		EXPECT_EQ(st->tag[i].launched, st->tag[i].done);
		k += (u32)st->tag[i].launched;
	}
	EXPECT_EQ(314U, k);
	rig_fini();
	EXPECT_NO_LEAKS();
}

/*
 * A TB preempted again and again keeps one completion in the engine:
 * thousands of preemptions of a long background never fill it.
 */
TEST(preempt_engine_bounded)
{
	struct edge_kdesc bg, e;
	u32 i, max_len = 0;

	init_victim(_metadata, edge_preset_find("edge"), EDGE_VICTIM_OLDEST,
		    EDGE_FLUSH_ALL);
	R.no_check = true;
	bg = rig_kdesc(1024, 32, 32, 0, LONG, 0);
	rig_launch(&bg, 1);
	e = rig_ewarp(32, 700, 1);
	for (i = 0; i < 3000; i++) {
		rig_launch(&e, 10 + i);
		rig_run_until_done(_metadata, 10 + i);
		if (R.eng.len > max_len)
			max_len = R.eng.len;
		/* 32 TBs and at most a step per event warp slot. */
		ASSERT_LE(R.eng.len, 32U + 64U) TH_LOG("event %u", i);
	}
	EXPECT_EQ(3000ULL, R.s.st.preemptions);
	R.no_check = false;
	rig_check(_metadata);
	rig_drain(_metadata);
	rig_fini();
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

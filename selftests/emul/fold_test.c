// SPDX-License-Identifier: GPL-2.0
/*
 * Zero-length steps of an event warp run in place of their engine events
 * when nothing else is due (edge_engine_fold(), emul/gpu/preempt.c):
 * that must change nothing but the number of events.  The same busy
 * scenario (TB kernels whose warps get preempted, with sampled warp
 * states, and event warps of zero and non-zero length at random times)
 * runs with folding off and on: completions, their times and order, the
 * model's statistics and its random state must be identical, and the
 * folded run must pop fewer events.  Without the background, or
 * draining instead of preempting, the event warps run on free resources,
 * and the launches of those that waited run in place at the end of the
 * tail pass that placed them (edge_preempt_run_deferred()): several at
 * once when a background TB's end makes room for them.  So does the
 * first step of a preempting event warp, which moves the clock, when a
 * pass holds nothing else.
 */
#include "simt_rig.h"

#define EVENTS	400U

/* Events that end once scheduled (Fig. 12): every step of theirs folds. */
static bool skip_exec;
/*
 * The background's registers a thread: at 32 they fill the cores, and a
 * preempting event warp saves its victim's; at 16 it need not, and its
 * restore takes no time.
 */
static u32 bg_regs = 32;

struct fingerprint {
	u32 ndone;
	u32 order[EVENTS + 8];
	u64 at[EVENTS + 8];
	struct edge_simt_stats st;
	u64 rng;
	u64 now;
	u64 pops;
	u64 folded;
};

/* Run what is due by @until, popping events one by one. */
static u64 run(struct __test_metadata *_metadata, u64 until, bool fold)
{
	struct edge_ev ev;
	u64 n = 0;

	/*
	 * This loop pops the next event as soon as a handler returns, and
	 * every event due by @until: a preempting event warp's first step
	 * may run in place too (edge_preempt_run_deferred()).
	 */
	R.eng.pops_next = true;
	R.eng.until = until;
	for (;;) {
		R.eng.fold_left = fold ? ~0U : 0;
		if (!edge_engine_pop_due(&R.eng, until, &ev))
			break;
		R.eng.folded = 0;
		ASSERT_TRUE(edge_simt_handle(&R.s, &ev));
		n++;
		R.steps += R.eng.folded;
	}
	R.eng.pops_next = false;
	R.eng.until = 0;
	edge_engine_advance(&R.eng, until);
	return n;
}

static void launch(struct __test_metadata *_metadata,
		   const struct edge_kdesc *k, u64 cookie)
{
	ASSERT_EQ(0, edge_simt_launch(&R.s, k, cookie, (u32)(cookie % 4)));
	R.ck[cookie] = CK_LAUNCHED;
	R.launched_at[cookie] = R.eng.now;
}

static void scenario(struct __test_metadata *_metadata, u64 seed, bool fold,
		     bool busy, u32 sched, struct fingerprint *f)
{
	struct edge_preset p = rig_preset_edge();
	struct edge_simt_cfg cfg;
	struct emul_rng r;
	struct edge_kdesc k;
	u64 pops = 0;
	u32 i;

	p.num_cores = 2;
	emul_rng_seed(&r, seed);
	edge_simt_default_cfg(&cfg);
	cfg.sched = sched;
	cfg.skip_event_exec = skip_exec;
	rig_init_cfg(_metadata, &p, &cfg);
	/*
	 * Background that fills both cores, with warps worth flushing; on
	 * a grid of 1000 ns (700 cycles), as the events, so that their
	 * steps and the TBs' ends meet at the same instants.
	 */
	for (i = 0; busy && i < 4; i++) {
		k = rig_kdesc(256, 64, bg_regs, 0,
			      700 * (2 + emul_rand_below(&r, 4)), 0);
		k.ws.p_pipe = 300;
		k.ws.pipe_cycles = 20;
		k.ws.ibuf_insts = 4;
		k.ws.p_load = 500;
		k.ws.load_cycles = 300;
		k.ws.p_barrier = 200;
		k.ws.barrier_cycles = 50;
		k.ws.early_pct = 20;
		launch(_metadata, &k, 1 + i);
	}
	for (i = 0; i < EVENTS; i++) {
		/* Often several at one instant, some with no run time. */
		pops += run(_metadata, R.eng.now + 1000 * emul_rand_below(&r, 3),
			    fold);
		/* Bursts: more than the 8 slots, so some wait for a slot. */
		do {
			k = rig_ewarp(emul_rand_below(&r, 2) ? 16 : 32,
				      emul_rand_below(&r, 3) ? 700 : 0,
				      1 + emul_rand_below(&r, 2));
			/* Some run longer beside other event warps. */
			k.ws.ewarp_corun_pct = emul_rand_below(&r, 2) * 10;
			launch(_metadata, &k, 8 + i);
		} while (i + 1 < EVENTS && emul_rand_below(&r, 3) && ++i);
	}
	pops += run(_metadata, EDGE_TIME_NEVER - 1, fold);
	ASSERT_EQ(0U, R.bad);
	memset(f, 0, sizeof(*f));
	f->ndone = R.ndone;
	for (i = 0; i < R.ndone && i < EVENTS + 8; i++) {
		f->order[i] = R.done_order[i];
		f->at[i] = R.done_at[R.done_order[i]];
	}
	f->st = R.s.st;
	f->rng = R.s.rng.s;
	f->now = R.eng.now;
	f->pops = pops;
	f->folded = R.steps;
	rig_fini();
}

static void compare(struct __test_metadata *_metadata, bool busy, u32 sched)
{
	static struct fingerprint a, b;
	u64 seed;

	for (seed = 1; seed <= 4; seed++) {
		scenario(_metadata, seed, false, busy, sched, &a);
		scenario(_metadata, seed, true, busy, sched, &b);
		EXPECT_EQ(EVENTS + (busy ? 4 : 0), a.ndone);
		EXPECT_EQ(a.ndone, b.ndone);
		EXPECT_EQ(0, memcmp(a.order, b.order, sizeof(a.order)))
			TH_LOG("seed %llu: completion order", seed);
		EXPECT_EQ(0, memcmp(a.at, b.at, sizeof(a.at)))
			TH_LOG("seed %llu: completion times", seed);
		EXPECT_EQ(0, memcmp(&a.st, &b.st, sizeof(a.st)))
			TH_LOG("seed %llu: statistics", seed);
		EXPECT_EQ(a.rng, b.rng);
		EXPECT_EQ(a.now, b.now);
		EXPECT_EQ(busy && sched == EDGE_SCHED_PREEMPT,
			  a.st.preemptions != 0);
		/* Each folded step is an event less. */
		EXPECT_EQ(0ULL, a.folded);
		EXPECT_NE(0ULL, b.folded);
		EXPECT_EQ(a.pops, b.pops + b.folded)
			TH_LOG("seed %llu: %llu pops, %llu + %llu folded", seed,
			       a.pops, b.pops, b.folded);
	}
}

TEST(fold_changes_nothing_but_events)
{
	compare(_metadata, true, EDGE_SCHED_PREEMPT);
}

TEST(fold_free_resources_changes_nothing_but_events)
{
	compare(_metadata, false, EDGE_SCHED_PREEMPT);
}

TEST(fold_drain_changes_nothing_but_events)
{
	compare(_metadata, true, EDGE_SCHED_DRAIN);
}

TEST(fold_skip_event_exec_changes_nothing_but_events)
{
	skip_exec = true;
	compare(_metadata, true, EDGE_SCHED_PREEMPT);
	compare(_metadata, false, EDGE_SCHED_PREEMPT);
	skip_exec = false;
}

TEST(fold_unsaved_restore_changes_nothing_but_events)
{
	bg_regs = 16;
	compare(_metadata, true, EDGE_SCHED_PREEMPT);
	bg_regs = 32;
}

TEST_HARNESS_MAIN

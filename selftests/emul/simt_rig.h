/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test rig around the SIMT model (emul/gpu/simt.c, emul/gpu/preempt.c), driven
 * as model.c drives it: its own engine, edge_simt_launch(), then
 * edge_engine_pop_due() + edge_simt_handle() one event at a time.
 *
 * After every step the rig checks what must always hold: no core holds
 * more than its preset, every core's counters are exactly the sum of
 * what its TBs and event warps hold, the preempted-warp counts match the
 * event warps that borrow them, every event warp slot moves along the
 * state machine of preempt.h with each state lasting what it should, and
 * the engine holds exactly one event per thing waiting for time (none
 * stale, so it can never fill).  Completions are recorded per cookie; a
 * completion of a cookie that was never launched, was cancelled or
 * already completed fails the test.  R.no_check skips the per-step
 * checks (not the completion ones) for long, simple runs.
 */
#ifndef _SIMT_RIG_H
#define _SIMT_RIG_H

#include "emul_test.h"
#include "gpu/simt.h"
#include "gpu/preempt.h"

#define RIG_COOKIES	8192U
#define RIG_SLOTS	(160U * EDGE_EWARP_PER_CORE)
#define RIG_TRACE	65536U
#define RIG_SELECT_CYCLES	2	/* preempt.c: EDGE_SELECT_CYCLES */
#define RIG_EXIT_CYCLES		100	/* preempt.c: EDGE_EXIT_CYCLES */

enum { CK_NONE, CK_LAUNCHED, CK_DONE, CK_CANCELLED };

/* One state change of one event warp slot. */
struct rig_tr {
	u32 slot;
	u32 from;
	u32 to;
	u64 time;
	u64 cookie;		/* the event warp's kernel, if it has one */
	u64 flush;		/* the slot's cycles, as set at placement */
	u64 ctx;
	u64 run;
	bool saved;
	bool victim;
	u32 victim_tb;		/* index in s.tbs */
	u64 victim_cookie;
};

/* What a slot holds, as last seen. */
struct rig_slot {
	u32 state;
	u64 since;		/* ns, when it entered @state */
	u64 cookie;
	u64 flush, ctx, run;
	bool saved;
	bool victim;
	u32 victim_tb;
	u64 victim_cookie;
	u32 gen;		/* the slot's generation, as last seen */
};

struct rig {
	struct edge_preset p;
	struct edge_engine eng;
	struct edge_simt s;
	struct edge_simt_cfg cfg;

	u8 ck[RIG_COOKIES];
	u64 done_at[RIG_COOKIES];
	u64 launched_at[RIG_COOKIES];
	u32 done_order[RIG_COOKIES];
	u32 ndone;
	u32 bad;		/* completions that should not have happened */
	u64 bad_cookie;

	struct rig_slot sl[RIG_SLOTS];
	struct rig_tr tr[RIG_TRACE];
	u32 ntr;
	u64 steps;
	u64 placements;		/* slots leaving IDLE */
	bool in_cancel;
	u32 cancelled_in[EDGE_PS_RESTORE_HW_CTX + 1];	/* slots a cancel freed */
	bool no_check;		/* skip the per-step checks (speed) */
	/*
	 * Let a step run the next one in place (edge_engine_fold()); off,
	 * the rig sees every state of an event warp as an engine event.
	 */
	bool fold;
};

static struct rig R;

static void rig_done(void *ctx, u64 cookie, u32 code)
{
	struct rig *r = ctx;

	if (cookie >= RIG_COOKIES || r->ck[cookie] != CK_LAUNCHED ||
	    code != EDGE_CQE_DONE) {
		r->bad++;
		r->bad_cookie = cookie;
		return;
	}
	r->ck[cookie] = CK_DONE;
	r->done_at[cookie] = r->eng.now;
	r->done_order[r->ndone++] = (u32)cookie;
}

/* The "edge" preset (EDGE Table II), copied so a test may reshape it. */
static inline struct edge_preset rig_preset_edge(void)
{
	return *edge_preset_find("edge");
}

/* A small GPU: every core is easy to fill and to reason about. */
static inline struct edge_preset rig_preset_small(u32 cores)
{
	struct edge_preset p = rig_preset_edge();

	p.name = "small";
	p.num_cores = cores;
	p.threads_per_core = 256;	/* 8 warps */
	p.tb_slots_per_core = 4;
	p.regs_per_core = 8192;
	p.smem_per_core = 4096;
	p.max_block_threads = 256;
	return p;
}

static inline void rig_init_cfg(struct __test_metadata *_metadata,
				const struct edge_preset *p,
				const struct edge_simt_cfg *cfg)
{
	memset(&R, 0, sizeof(R));
	R.p = *p;
	ASSERT_LE(R.p.num_cores * EDGE_EWARP_PER_CORE, RIG_SLOTS);
	if (cfg)
		R.cfg = *cfg;
	else
		edge_simt_default_cfg(&R.cfg);
	edge_engine_init(&R.eng);
	ASSERT_EQ(0, edge_simt_init(&R.s, &R.p, &R.eng, &R.cfg, rig_done, &R));
}

static inline void rig_init(struct __test_metadata *_metadata,
			    const struct edge_preset *p, u32 sched)
{
	struct edge_simt_cfg cfg;

	edge_simt_default_cfg(&cfg);
	cfg.sched = sched;
	rig_init_cfg(_metadata, p, &cfg);
}

static inline void rig_fini(void)
{
	edge_simt_fini(&R.s);
	edge_engine_fini(&R.eng);
}

/* A kernel descriptor as edge_validate_register() would derive it. */
static inline struct edge_kdesc rig_kdesc(u32 threads, u64 grid, u32 regs,
					  u32 smem, u64 cycles, u32 prio)
{
	struct edge_kdesc k;

	memset(&k, 0, sizeof(k));
	k.func = EDGE_FN_NOP;
	k.priority = prio;
	k.grid[0] = (u32)grid;
	k.grid[1] = 1;
	k.grid[2] = 1;
	k.block[0] = threads;
	k.block[1] = 1;
	k.block[2] = 1;
	k.regs_per_thread = regs;
	k.smem_per_block = smem;
	k.param_size = 8;
	k.ring_entries = 64;
	k.warp_cycles = cycles;
	k.num_tbs = grid;
	k.block_threads = threads;
	k.warps_per_tb = (threads + R.p.warp_size - 1) / R.p.warp_size;
	return k;
}

/* A single-warp event kernel (grid 1, one warp of threads). */
static inline struct edge_kdesc rig_ewarp(u32 regs, u64 cycles, u32 prio)
{
	return rig_kdesc(R.p.warp_size, 1, regs, 0, cycles, prio);
}

static inline struct edge_kinst *rig_ki(u64 cookie)
{
	u32 i;

	for (i = 0; i < R.s.ki_init; i++)
		if (R.s.ki[i].used && R.s.ki[i].cookie == cookie)
			return &R.s.ki[i];
	return NULL;
}

static inline struct edge_ewarp *rig_ew(u32 slot)
{
	return &R.s.cores[slot / EDGE_EWARP_PER_CORE].ew[slot % EDGE_EWARP_PER_CORE];
}

static inline u32 rig_nslots(void)
{
	return R.p.num_cores * EDGE_EWARP_PER_CORE;
}

static inline u64 rig_ns(u64 cycles)
{
	return edge_simt_cyc2ns(&R.s, cycles);
}

/* The slot of the event warp of @cookie, or -1. */
static inline int rig_slot_of(u64 cookie)
{
	u32 i;

	for (i = 0; i < rig_nslots(); i++) {
		struct edge_ewarp *ew = rig_ew(i);

		if (ew->state != EDGE_PS_IDLE && ew->ki &&
		    ew->ki->cookie == cookie)
			return (int)i;
	}
	return -1;
}

/* Legal successors in the state machine of preempt.h. */
static inline bool rig_legal(u32 from, u32 to, bool victim)
{
	switch (from) {
	case EDGE_PS_IDLE:
		return to == EDGE_PS_SELECT_WARP || to == EDGE_PS_LAUNCH_IWARP;
	case EDGE_PS_SELECT_WARP:
		return to == EDGE_PS_FLUSH_PIPELINE;
	case EDGE_PS_FLUSH_PIPELINE:
		return to == EDGE_PS_SAVE_HW_CTX;
	case EDGE_PS_SAVE_HW_CTX:
		return to == EDGE_PS_LAUNCH_IWARP;
	case EDGE_PS_LAUNCH_IWARP:
		return to == EDGE_PS_IWARP_RUNNING;
	case EDGE_PS_IWARP_RUNNING:
		return to == EDGE_PS_IWARP_COMPLETING;
	case EDGE_PS_IWARP_COMPLETING:
		return victim ? to == EDGE_PS_RESTORE_HW_CTX || to == EDGE_PS_IDLE
			      : to == EDGE_PS_IDLE;
	case EDGE_PS_RESTORE_HW_CTX:
		return to == EDGE_PS_IDLE;
	}
	return false;
}

/* How long a slot must stay in @state, in cycles. */
static inline u64 rig_state_cycles(const struct rig_slot *sl, u32 state)
{
	switch (state) {
	case EDGE_PS_SELECT_WARP:
		return RIG_SELECT_CYCLES;
	case EDGE_PS_FLUSH_PIPELINE:
		return sl->flush;
	case EDGE_PS_SAVE_HW_CTX:
	case EDGE_PS_RESTORE_HW_CTX:
		return sl->saved ? sl->ctx : 0;
	case EDGE_PS_IWARP_RUNNING:
		return sl->run;
	default:
		return 0;
	}
}

static inline void rig_log(struct __test_metadata *_metadata, u32 slot,
			   u32 from, u32 to)
{
	struct rig_slot *sl = &R.sl[slot];
	struct edge_ewarp *ew = rig_ew(slot);
	struct rig_tr *t;

	/* A cancel only ever frees a slot, whatever its state. */
	if (from != EDGE_PS_IDLE && R.in_cancel) {
		ASSERT_EQ((u32)EDGE_PS_IDLE, to) TH_LOG("slot %u", slot);
		R.cancelled_in[from]++;
	}
	/* Anything else leaves a state when its time is up, for the next. */
	if (from != EDGE_PS_IDLE && !R.in_cancel) {
		ASSERT_TRUE(rig_legal(from, to, sl->victim))
			TH_LOG("slot %u: %u -> %u", slot, from, to);
		ASSERT_EQ(sl->since + rig_ns(rig_state_cycles(sl, from)),
			  R.eng.now) TH_LOG("slot %u left %u", slot, from);
	}
	if (from == EDGE_PS_IDLE) {
		/* A new placement: what it was given. */
		ASSERT_TRUE(rig_legal(from, to, false))
			TH_LOG("slot %u: %u -> %u", slot, from, to);
		ASSERT_NE(NULL, ew->ki);
		sl->cookie = ew->ki->cookie;
		sl->flush = ew->flush_cycles;
		sl->ctx = ew->ctx_cycles;
		sl->run = ew->run_cycles;
		sl->saved = ew->saved;
		sl->victim = ew->victim != NULL;
		sl->victim_tb = ew->victim ? ew->victim->idx : ~0U;
		sl->victim_cookie = ew->victim ? ew->victim->ki->cookie : ~0ULL;
		R.placements++;
		/* Nothing starts before its dispatch latency is over. */
		if (sl->cookie < RIG_COOKIES)
			ASSERT_GE(R.eng.now, R.launched_at[sl->cookie] +
				  rig_ns(R.s.cfg.dispatch_cycles));
		if (to == EDGE_PS_LAUNCH_IWARP) {
			/* Free resources: no victim, no flush, nothing saved. */
			ASSERT_FALSE(sl->victim);
			ASSERT_EQ(0ULL, sl->flush);
			ASSERT_FALSE(sl->saved);
			ASSERT_EQ(0ULL, sl->ctx);
		} else {
			ASSERT_TRUE(sl->victim);
		}
		/* Context moves only when registers had to be saved. */
		if (!sl->saved)
			ASSERT_EQ(0ULL, sl->ctx);
	}
	sl->state = to;
	sl->since = R.eng.now;
	if (R.ntr < RIG_TRACE) {
		t = &R.tr[R.ntr++];
		t->slot = slot;
		t->from = from;
		t->to = to;
		t->time = R.eng.now;
		t->cookie = sl->cookie;
		t->flush = sl->flush;
		t->ctx = sl->ctx;
		t->run = sl->run;
		t->saved = sl->saved;
		t->victim = sl->victim;
		t->victim_tb = sl->victim_tb;
		t->victim_cookie = sl->victim_cookie;
	}
}

/*
 * Record every slot's state changes since the last look.  A slot moves
 * one state per engine step, and its generation counts the moves; a slot
 * released and taken again within one step moved twice, through IDLE.
 */
static inline void rig_trace(struct __test_metadata *_metadata)
{
	u32 i;

	for (i = 0; i < rig_nslots(); i++) {
		struct edge_ewarp *ew = rig_ew(i);
		struct rig_slot *sl = &R.sl[i];
		u32 d = ew->gen - sl->gen;

		if (!d) {
			ASSERT_EQ(sl->state, ew->state) TH_LOG("slot %u", i);
			continue;
		}
		ASSERT_LE(d, 2U) TH_LOG("slot %u moved %u times", i, d);
		if (d == 2) {
			ASSERT_NE((u32)EDGE_PS_IDLE, ew->state);
			ASSERT_NE((u32)EDGE_PS_IDLE, sl->state);
			rig_log(_metadata, i, sl->state, EDGE_PS_IDLE);
		}
		rig_log(_metadata, i, sl->state, ew->state);
		sl->gen = ew->gen;
	}
}

/*
 * The engine holds exactly one event per thing waiting for time: a
 * kernel in its dispatch latency, a TB running (unless it already ended
 * and waits for a lent warp), an event warp slot in use.  Nothing stale.
 */
static inline void rig_check_engine(struct __test_metadata *_metadata)
{
	static u8 tb_evs[8192], ki_evs[8192], ew_evs[RIG_SLOTS];
	u32 i;

	ASSERT_LE(R.s.nr_tbs, sizeof(tb_evs));
	ASSERT_LE(R.s.nr_ki, sizeof(ki_evs));
	memset(tb_evs, 0, R.s.nr_tbs);
	memset(ki_evs, 0, R.s.nr_ki);
	memset(ew_evs, 0, rig_nslots());
	for (i = 0; i < R.eng.len; i++) {
		const struct edge_ev *ev = edge_engine_ev(&R.eng, i);

		switch (ev->kind) {
		case EDGE_EV_READY: {
			const struct edge_kinst *ki = &R.s.ki[ev->obj];

			ASSERT_LT(ev->obj, R.s.ki_init);
			ASSERT_TRUE(ki->used) TH_LOG("stale READY");
			ASSERT_EQ(ki->gen, ev->gen) TH_LOG("stale READY");
			ki_evs[ev->obj]++;
			break;
		}
		case EDGE_EV_TB_DONE: {
			const struct edge_tb *tb = &R.s.tbs[ev->obj];

			ASSERT_LT(ev->obj, R.s.nr_tbs);
			ASSERT_TRUE(tb->used) TH_LOG("stale TB_DONE");
			ASSERT_EQ(tb->gen, ev->gen) TH_LOG("stale TB_DONE");
			ASSERT_LE(ev->time, tb->end);
			tb_evs[ev->obj]++;
			break;
		}
		case EDGE_EV_EWARP: {
			const struct edge_ewarp *ew;

			ASSERT_LT(ev->obj, rig_nslots());
			ew = rig_ew(ev->obj);
			ASSERT_NE((u32)EDGE_PS_IDLE, ew->state) TH_LOG("stale");
			ASSERT_EQ(ew->gen, ev->gen) TH_LOG("stale EWARP");
			ASSERT_EQ(ew->state, ev->aux);
			ew_evs[ev->obj]++;
			break;
		}
		default:
			ASSERT_TRUE(0) TH_LOG("event kind %u", ev->kind);
		}
	}
	for (i = 0; i < R.s.ki_init; i++) {
		const struct edge_kinst *ki = &R.s.ki[i];
		bool delayed = ki->used && !ki->queued && !ki->placed &&
			       !ki->tbs_dispatched;

		ASSERT_EQ(delayed ? 1 : 0, ki_evs[i]) TH_LOG("kernel %u", i);
	}
	for (i = 0; i < R.s.nr_tbs; i++) {
		const struct edge_tb *tb = &R.s.tbs[i];

		ASSERT_EQ(tb->used && !tb->done_pending ? 1 : 0, tb_evs[i])
			TH_LOG("tb %u", i);
	}
	for (i = 0; i < rig_nslots(); i++)
		ASSERT_EQ(rig_ew(i)->state != EDGE_PS_IDLE ? 1 : 0, ew_evs[i])
			TH_LOG("slot %u", i);
}

/* Every core holds exactly what its TBs and event warps hold. */
static inline void rig_check(struct __test_metadata *_metadata)
{
	const struct edge_preset *p = &R.p;
	u32 c, i, j;

	ASSERT_EQ(0U, R.bad) TH_LOG("bad completion of cookie %llu",
				    (unsigned long long)R.bad_cookie);
	ASSERT_LE(R.eng.len, R.eng.cap);
	if (R.no_check)
		return;
	rig_check_engine(_metadata);
	for (c = 0; c < p->num_cores; c++) {
		const struct edge_core *core = &R.s.cores[c];
		u64 threads = 0, warps = 0, regs = 0, smem = 0;

		ASSERT_LE(core->threads, p->threads_per_core) TH_LOG("core %u", c);
		ASSERT_LE(core->warps, p->threads_per_core / p->warp_size);
		ASSERT_LE(core->regs, p->regs_per_core) TH_LOG("core %u", c);
		ASSERT_LE(core->smem, p->smem_per_core) TH_LOG("core %u", c);
		ASSERT_LE(core->tbs, p->tb_slots_per_core) TH_LOG("core %u", c);
		ASSERT_EQ(core->tbs, core->nr_tbs);
		/* The TB search's copies: free threads, and the room bit. */
		ASSERT_EQ(core->reserved ? 0 : p->threads_per_core - core->threads,
			  R.s.core_free[c]) TH_LOG("core %u", c);
		ASSERT_EQ(R.s.core_free[c] >= p->warp_size &&
			  core->tbs < p->tb_slots_per_core,
			  !!(R.s.core_room[c / 64] & (1ULL << (c % 64))))
			TH_LOG("core %u's room bit", c);
		for (i = 0; i < core->nr_tbs; i++) {
			const struct edge_tb *tb = core->tb[i];
			const struct edge_kdesc *k = &tb->ki->k;
			u32 borrowed = 0;

			ASSERT_TRUE(tb->used);
			ASSERT_EQ(c, tb->core);
			ASSERT_EQ(i, tb->slot);
			ASSERT_TRUE(tb->ki->used);
			ASSERT_EQ(tb->kgen, tb->ki->gen);
			ASSERT_GE(tb->start, tb->ki->arrival +
				  rig_ns(R.s.cfg.dispatch_cycles));
			ASSERT_GE(tb->end, tb->start);
			threads += k->warps_per_tb * p->warp_size;
			warps += k->warps_per_tb;
			regs += (u64)k->warps_per_tb * p->warp_size *
				k->regs_per_thread;
			smem += k->smem_per_block;
			for (j = 0; j < EDGE_EWARP_PER_CORE; j++) {
				const struct edge_ewarp *ew = &core->ew[j];

				if (ew->state != EDGE_PS_IDLE &&
				    ew->victim == tb && !ew->orphan)
					borrowed++;
			}
			ASSERT_EQ(borrowed, tb->preempted);
			ASSERT_LE(tb->preempted, tb->warps);
		}
		for (j = 0; j < EDGE_EWARP_PER_CORE; j++) {
			const struct edge_ewarp *ew = &core->ew[j];

			if (ew->state == EDGE_PS_IDLE) {
				ASSERT_EQ(0U, ew->regs);
				ASSERT_EQ(0U, ew->smem);
				ASSERT_EQ(NULL, ew->ki);
				continue;
			}
			/* Only event warps may use the reserved cores. */
			if (R.s.cfg.sched == EDGE_SCHED_RESERVE)
				ASSERT_TRUE(core->reserved) TH_LOG("core %u", c);
			regs += ew->regs;
			smem += ew->smem;
			if (!ew->victim) {
				threads += p->warp_size;
				warps++;
			} else if (!ew->orphan) {
				ASSERT_TRUE(ew->victim->used);
				ASSERT_EQ(c, ew->victim->core);
				ASSERT_EQ(ew->victim_gen, ew->victim->gen_id);
			}
		}
		if (R.s.cfg.sched == EDGE_SCHED_RESERVE && core->reserved)
			ASSERT_EQ(0U, core->tbs) TH_LOG("TB on reserved core %u", c);
		/* The per-(kernel, core) counts are the resident TBs, exactly. */
		for (j = 0, i = 0; j < core->nr_kc; j++) {
			u32 n = 0, t;

			for (t = 0; t < core->nr_tbs; t++)
				n += core->tb[t]->ki == core->kc[j].ki;
			ASSERT_NE(0U, core->kc[j].n) TH_LOG("core %u", c);
			ASSERT_EQ(n, core->kc[j].n) TH_LOG("core %u", c);
			i += n;
		}
		ASSERT_EQ(core->nr_tbs, i) TH_LOG("core %u", c);
		ASSERT_EQ(threads, core->threads) TH_LOG("core %u", c);
		ASSERT_EQ(warps, core->warps) TH_LOG("core %u", c);
		ASSERT_EQ(regs, core->regs) TH_LOG("core %u", c);
		ASSERT_EQ(smem, core->smem) TH_LOG("core %u", c);
	}
}

/* Launch; a launch may place an event warp at once, so look after it. */
static inline int rig_try_launch(struct __test_metadata *_metadata,
				 const struct edge_kdesc *k, u64 cookie)
{
	int ret = edge_simt_launch(&R.s, k, cookie, (u32)(cookie % 4));

	if (!ret && cookie < RIG_COOKIES) {
		R.ck[cookie] = CK_LAUNCHED;
		R.launched_at[cookie] = R.eng.now;
	}
	rig_trace(_metadata);
	rig_check(_metadata);
	return ret;
}

#define rig_launch(k, cookie) do {					\
	u64 __ck = (cookie);						\
	int __ret = rig_try_launch(_metadata, k, __ck);			\
									\
	ASSERT_EQ(0, __ret) TH_LOG("launch %llu", (unsigned long long)__ck); \
} while (0)

/* One engine event; false when nothing is due by @until. */
static inline bool rig_step(struct __test_metadata *_metadata, u64 until)
{
	struct edge_ev ev;

	if (!edge_engine_pop_due(&R.eng, until, &ev))
		return false;
	R.eng.fold_left = R.fold ? ~0U : 0;
	ASSERT_TRUE(edge_simt_handle(&R.s, &ev));
	R.steps++;
	rig_trace(_metadata);
	rig_check(_metadata);
	return true;
}

static inline u64 rig_run(struct __test_metadata *_metadata, u64 until)
{
	u64 n = 0;

	while (rig_step(_metadata, until))
		n++;
	return n;
}

/* Run what is due by @t, then move the clock to @t. */
static inline void rig_run_to(struct __test_metadata *_metadata, u64 t)
{
	rig_run(_metadata, t);
	edge_engine_advance(&R.eng, t);
}

/* Run until @cookie completes (it must). */
static inline void rig_run_until_done(struct __test_metadata *_metadata,
				      u64 cookie)
{
	while (R.ck[cookie] == CK_LAUNCHED)
		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER))
			TH_LOG("cookie %llu never completes",
			       (unsigned long long)cookie);
}

/* Step until slot-state @state is entered by the event warp of @cookie. */
static inline void rig_run_until_state(struct __test_metadata *_metadata,
				       u64 cookie, u32 state)
{
	for (;;) {
		u32 i;

		/* As the rig saw it: in RESTORE_HW_CTX it has no kernel. */
		for (i = 0; i < rig_nslots(); i++)
			if (R.sl[i].state == state && R.sl[i].cookie == cookie)
				return;
		ASSERT_TRUE(rig_step(_metadata, EDGE_TIME_NEVER))
			TH_LOG("cookie %llu never reaches %u",
			       (unsigned long long)cookie, state);
	}
}

static bool rig_match_cb(u64 cookie, void *arg)
{
	const u8 *set = arg;

	return cookie < RIG_COOKIES && set[cookie];
}

/* Cancel every cookie set in @set (RIG_COOKIES bytes). */
static inline u32 rig_cancel(struct __test_metadata *_metadata, const u8 *set)
{
	u32 n, i, before = 0;

	for (i = 0; i < RIG_COOKIES; i++)
		if (set[i] && R.ck[i] == CK_LAUNCHED)
			before++;
	R.in_cancel = true;
	/* Cancelled work completes silently: mark it before the call. */
	for (i = 0; i < RIG_COOKIES; i++)
		if (set[i] && R.ck[i] == CK_LAUNCHED)
			R.ck[i] = CK_CANCELLED;
	n = edge_simt_cancel(&R.s, rig_match_cb, (void *)set);
	rig_trace(_metadata);
	R.in_cancel = false;
	rig_check(_metadata);
	EXPECT_EQ(before, n);
	return n;
}

static inline u32 rig_cancel_one(struct __test_metadata *_metadata, u64 cookie)
{
	static u8 set[RIG_COOKIES];

	memset(set, 0, sizeof(set));
	set[cookie] = 1;
	return rig_cancel(_metadata, set);
}

/* Everything drained: nothing held anywhere. */
static inline void rig_expect_empty(struct __test_metadata *_metadata)
{
	u32 c, j;

	EXPECT_TRUE(edge_simt_idle(&R.s));
	EXPECT_EQ(R.s.nr_ki, R.s.nr_free_ki);
	EXPECT_EQ(NULL, R.s.queue);
	EXPECT_EQ(0U, R.s.kmu_len);
	EXPECT_EQ(0U, R.s.kdu_len);
	EXPECT_EQ(0U, R.s.ewarp_len);
	for (c = 0; c < R.p.num_cores; c++) {
		const struct edge_core *core = &R.s.cores[c];

		EXPECT_EQ(0U, core->threads) TH_LOG("core %u", c);
		EXPECT_EQ(0U, core->warps) TH_LOG("core %u", c);
		EXPECT_EQ(0U, core->tbs) TH_LOG("core %u", c);
		EXPECT_EQ(0U, core->nr_tbs) TH_LOG("core %u", c);
		EXPECT_EQ(0U, core->regs) TH_LOG("core %u", c);
		EXPECT_EQ(0U, core->smem) TH_LOG("core %u", c);
		for (j = 0; j < EDGE_EWARP_PER_CORE; j++) {
			EXPECT_EQ((u32)EDGE_PS_IDLE, core->ew[j].state);
			EXPECT_EQ(NULL, core->ew[j].ki);
		}
	}
	for (c = 0; c < R.s.nr_tbs; c++)
		EXPECT_FALSE(R.s.tbs[c].used) TH_LOG("tb %u", c);
}

/* Run everything, then check that nothing is left. */
static inline void rig_drain(struct __test_metadata *_metadata)
{
	u32 i;

	rig_run(_metadata, EDGE_TIME_NEVER);
	EXPECT_EQ(0U, R.eng.len);
	rig_expect_empty(_metadata);
	/* Everything launched and not cancelled completed. */
	for (i = 0; i < RIG_COOKIES; i++)
		ASSERT_NE((u8)CK_LAUNCHED, R.ck[i]) TH_LOG("cookie %u", i);
}

/* The trace entry of @cookie entering @to (the first one), or NULL. */
static inline const struct rig_tr *rig_tr_of(u64 cookie, u32 to)
{
	u32 i;

	for (i = 0; i < R.ntr; i++)
		if (R.tr[i].cookie == cookie && R.tr[i].to == to &&
		    (to != EDGE_PS_IDLE || R.tr[i].from != EDGE_PS_IDLE))
			return &R.tr[i];
	return NULL;
}

/* Where @cookie's event warp was placed: its IDLE -> first state entry. */
static inline const struct rig_tr *rig_placement(u64 cookie)
{
	u32 i;

	for (i = 0; i < R.ntr; i++)
		if (R.tr[i].cookie == cookie && R.tr[i].from == EDGE_PS_IDLE)
			return &R.tr[i];
	return NULL;
}

/* The TB of a one-TB kernel, or NULL. */
static inline struct edge_tb *rig_tb_of(u64 cookie)
{
	u32 i;

	for (i = 0; i < R.s.nr_tbs; i++)
		if (R.s.tbs[i].used && R.s.tbs[i].ki->cookie == cookie)
			return &R.s.tbs[i];
	return NULL;
}

/* Core usage, for the occupancy tests. */
static inline u32 rig_tbs_on(u32 core)
{
	return R.s.cores[core].tbs;
}

#endif /* _SIMT_RIG_H */

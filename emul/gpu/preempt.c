// SPDX-License-Identifier: GPL-2.0
/*
 * Warp-level events: free-resource launch and warp-level preemption.
 *
 * The flush latency is not a formula of the policy: it is drawn from the
 * victim warp's state, which depends on its kernel (edge_warp_state), its
 * TB's progress (barriers and i-cache misses sit early in a TB) and its
 * age on the core (under greedy-then-oldest issue, the youngest warp waits
 * longest to issue).  The optimisations remove the causes they target.
 */
#include "gpu/preempt.h"

#define EDGE_SELECT_CYCLES	2	/* SELECT_WARP */
/* A TB this close to its end is exiting: its warps finish on their own. */
#define EDGE_EXIT_CYCLES	100

static u32 max_warps(const struct edge_simt *s)
{
	return s->p->threads_per_core / s->p->warp_size;
}

static u32 ewarp_regs(const struct edge_simt *s, const struct edge_kdesc *k)
{
	return k->regs_per_thread * s->p->warp_size;
}

static int free_slot(const struct edge_core *c)
{
	int i;

	for (i = 0; i < EDGE_EWARP_PER_CORE; i++)
		if (c->ew[i].state == EDGE_PS_IDLE)
			return i;
	return -1;
}

/*
 * Draw the state of a warp of @tb whose age rank on its core is
 * @rank_permille (0 oldest, 1000 youngest), and the flush latency it
 * implies under the configured optimisations.
 */
static __always_inline void sample(struct edge_simt *s,
				   const struct edge_tb *tb,
				   u32 rank_permille, struct edge_vstate *v)
{
	const struct edge_warp_state *ws = &tb->ki->k.ws;
	/*
	 * The generator's state in a local, stored back once: its every
	 * draw is otherwise a store that may alias the warp state's fields
	 * (no strict aliasing), reloading them.  The same draws.
	 */
	struct edge_rng rng = s->rng, *r = &rng;
	u32 flush = s->cfg.flush, issue_wait, ibuf;
	u64 now = s->eng->now, span = tb->end - tb->prog_start, prog;
	/* Each cause in a local, written once: 0 when it does not hold. */
	u64 pipe = 0, load = 0, replay = 0, held = 0, barrier = 0;
	u64 membar = 0, icache = 0, last;
	bool early;

	if (span > 0xffffffffULL)
		prog = edge_div64(now - tb->prog_start, (u32)(span >> 32)) * 100 >> 32;
	else
		prog = span ? edge_div64((now - tb->prog_start) * 100, (u32)span) :
		       100;
	early = prog < ws->early_pct;

	/* Instructions in flight, and those still to issue from the i-buffer. */
	if (edge_rng_permille(r, ws->p_pipe))
		pipe = edge_rng_uniform_mean(r, ws->pipe_cycles);
	ibuf = (u32)edge_rng_uniform_mean(r, ws->ibuf_insts);
	if (flush & EDGE_FLUSH_IBUF)
		ibuf = 0;
	/* Greedy-then-oldest issue: the youngest warp waits its turn. */
	issue_wait = (flush & EDGE_FLUSH_BOOST) ? 1 :
		     1 + s->cfg.sched_wait_cycles * rank_permille / 1000;
	if (ibuf) {
		u64 c = (u64)ibuf * issue_wait + ws->pipe_cycles;

		if (c > pipe)
			pipe = c;
	}

	/* Loads in flight hold scoreboard entries until they return. */
	if (edge_rng_permille(r, ws->p_load)) {
		load = edge_rng_uniform_mean(r, ws->load_cycles);
		if (flush & EDGE_FLUSH_LOADS)
			/* dropped now, replayed by the victim later */
			replay = ws->load_cycles;
		else
			held = load;
	}

	/* CTA barriers sit early (after staging data into shared memory). */
	if (edge_rng_permille(r, early ? ws->p_barrier : ws->p_barrier / 8)) {
		u64 b = edge_rng_uniform_mean(r, ws->barrier_cycles);

		if (!(flush & EDGE_FLUSH_BARRIER))
			barrier = b;
	}
	if (edge_rng_permille(r, ws->p_membar))
		membar = edge_rng_uniform_mean(r, ws->membar_cycles);
	/* A young TB's code is not in the i-cache yet. */
	if (edge_rng_permille(r, early ? ws->p_icache : ws->p_icache / 8))
		icache = edge_rng_uniform_mean(r, ws->icache_cycles);

	v->cyc[EDGE_STALL_PIPELINE] = pipe;
	v->cyc[EDGE_STALL_SCOREBOARD] = held;
	v->cyc[EDGE_STALL_LOAD] = held;
	v->cyc[EDGE_STALL_ICACHE] = icache;
	v->cyc[EDGE_STALL_BARRIER] = barrier;
	v->cyc[EDGE_STALL_MEMBAR] = membar;
	v->load = load;
	v->replay = replay;
	s->rng = rng;
	/* The causes overlap in time: the flush ends with the last of them. */
	last = pipe > held ? pipe : held;
	if (icache > last)
		last = icache;
	if (barrier > last)
		last = barrier;
	if (membar > last)
		last = membar;
	v->flush = last;
}

void edge_preempt_sample(struct edge_simt *s, const struct edge_tb *tb,
			 u32 rank_permille, struct edge_vstate *v)
{
	sample(s, tb, rank_permille, v);
}

/* Per mille of @total warps that @older is: 0 oldest, 1000 youngest. */
static u32 rank_permille(u32 older, u32 total)
{
	return total > 1 ? older * 1000 / (total - 1) : 0;
}

/* Age rank of warp @w of @tb among the warps resident on its core. */
static u32 age_rank(const struct edge_core *c, const struct edge_tb *tb, u32 w)
{
	u32 older = w, total = 0, i;

	for (i = 0; i < c->nr_tbs; i++) {
		const struct edge_tb *o = c->tb[i];

		total += o->warps;
		if (o->launch_order < tb->launch_order)
			older += o->warps;
	}
	return rank_permille(older, total);
}

/*
 * A TB ending at or before this time is exiting: its warps finish on
 * their own.  ns2cyc(left) < EXIT_CYCLES, with ns2cyc(ns) = ceil(ns *
 * khz / 10^6), is left * khz <= (EXIT_CYCLES - 1) * 10^6: one compare a
 * candidate, the division once a search, not a conversion per TB.
 */
static u64 exit_limit(const struct edge_simt *s)
{
	return s->eng->now + edge_div64((EDGE_EXIT_CYCLES - 1) * 1000000ULL,
					s->p->clock_khz);
}

static bool victim_ok(const struct edge_tb *tb, const struct edge_kinst *ki,
		      u64 exiting)
{
	if (tb->end <= exiting || tb->done_pending || tb->suspending)
		return false;
	if (tb->preempted >= tb->warps)
		return false;
	/* The register rule: the event warp reuses the victim's registers. */
	return tb->ki->k.regs_per_thread >= ki->k.regs_per_thread;
}

/* Best: the first candidate needing no flush, else the fewest loads. */
static struct edge_tb *select_best(struct edge_simt *s, struct edge_core *c,
				   const struct edge_kinst *ki,
				   struct edge_vstate *v)
{
	struct edge_tb *best = NULL, *next;
	struct edge_vstate cand;
	bool first = true;
	u64 after = 0, exiting = exit_limit(s), best_load = 0;
	u32 i;

	for (;;) {
		next = NULL;
		for (i = 0; i < c->nr_tbs; i++) {
			struct edge_tb *tb = c->tb[i];

			if (!victim_ok(tb, ki, exiting))
				continue;
			if (!first && tb->launch_order <= after)
				continue;
			if (!next || tb->launch_order < next->launch_order)
				next = tb;
		}
		if (!next)
			return best;
		first = false;
		after = next->launch_order;
		edge_preempt_sample(s, next, age_rank(c, next,
						      next->preempted), &cand);
		if (!cand.flush) {
			*v = cand;
			return next;
		}
		if (!best || cand.load < best_load) {
			best = next;
			best_load = cand.load;
			*v = cand;
		}
	}
}

/*
 * Pick a victim on core @c; NULL when none qualifies.  Oldest and Newest
 * go by age; Best samples every candidate and takes the first that needs
 * no flush, else the one with the fewest pending loads.
 */
static struct edge_tb *select_victim(struct edge_simt *s, struct edge_core *c,
				     const struct edge_kinst *ki,
				     struct edge_vstate *v)
{
	struct edge_tb *pick = NULL, **tbs = c->tb;
	bool oldest = s->cfg.victim == EDGE_VICTIM_OLDEST, is_first;
	u64 exiting, first = ~0ULL;
	u32 i, total = 0, n = c->nr_tbs;

	if (s->cfg.victim == EDGE_VICTIM_BEST)
		return select_best(s, c, ki, v);
	if (!oldest && s->cfg.victim != EDGE_VICTIM_NEWEST)
		return NULL;
	exiting = exit_limit(s);
	/*
	 * The age compare first: a TB that would not replace the pick is
	 * not tested at all (launch orders are unique, and the test has no
	 * side effects, so the pick is the same).  The core's warps on the
	 * way, and whether the pick is its oldest TB: then it has no warp
	 * older than its own, and needs no second walk for its age rank.
	 */
	if (oldest) {
		/* No TB's launch order is ~0: the first that qualifies wins. */
		u64 pick_lo = ~0ULL;

		/*
		 * Every TB older than the final pick was tested (the pick
		 * only gets older) and failed: the pick is the oldest when
		 * no TB that failed is older.
		 */
		for (i = 0; i < n; i++) {
			struct edge_tb *tb = tbs[i];
			u64 lo = tb->launch_order;

			total += tb->warps;
			if (lo >= pick_lo)
				continue;
			if (victim_ok(tb, ki, exiting)) {
				pick = tb;
				pick_lo = lo;
			} else if (lo < first) {
				first = lo;	/* of those that failed */
			}
		}
		is_first = first > pick_lo;
	} else {
		u64 pick_lo = 0;

		for (i = 0; i < n; i++) {
			struct edge_tb *tb = tbs[i];
			u64 lo = tb->launch_order;

			total += tb->warps;
			if (lo < first)
				first = lo;
			if ((!pick || lo > pick_lo) &&
			    victim_ok(tb, ki, exiting)) {
				pick = tb;
				pick_lo = lo;
			}
		}
		is_first = pick && pick_lo == first;
	}
	if (pick) {
		u32 w = oldest ? pick->preempted : pick->warps - 1;

		/* Inline: the sample of every preempting event warp. */
		sample(s, pick, is_first ? rank_permille(w, total) :
			  age_rank(c, pick, w), v);
	}
	return pick;
}

static struct edge_ewarp *slot_of(struct edge_simt *s, u32 obj)
{
	return &s->cores[obj / EDGE_EWARP_PER_CORE].ew[obj % EDGE_EWARP_PER_CORE];
}

/*
 * Enter @state for @cycles.  Every step is an engine event, zero-length
 * ones included (they run at the same time, in order): a step never
 * recurses into the scheduler, however many events are waiting.  The
 * exception is a zero-length step that @last (the caller's last act, in
 * a step of its own) may run in place, when the engine says it would be
 * the next event anyway (edge_engine_fold()): then it is not queued and
 * true is returned, and the caller runs it now.
 */
static __always_inline bool ew_enter_ns(struct edge_simt *s,
					struct edge_ewarp *ew, u32 obj,
					u32 state, u64 ns, bool last)
{
	int ret;

	ew->state = state;
	ew->gen++;
	if (!ns && last && edge_engine_fold(s->eng))
		return true;
	if (ns)
		ret = edge_engine_push_later(s->eng, s->eng->now + ns,
					     EDGE_EV_EWARP, obj, state, ew->gen);
	else
		ret = edge_engine_push(s->eng, s->eng->now, EDGE_EV_EWARP, obj,
				       state, ew->gen);
	EDGE_ASSERT(!ret);
	return false;
}

/* ew_enter_ns() for @cycles of the core's clock. */
static __always_inline bool ew_enter(struct edge_simt *s,
				     struct edge_ewarp *ew, u32 obj,
				     u32 state, u64 cycles, bool last)
{
	return ew_enter_ns(s, ew, obj, state,
			   cycles ? edge_simt_cyc2ns(s, cycles) : 0, last);
}

/* The slot is free again: give back what it held, then reschedule. */
static __always_inline void ew_release(struct edge_simt *s,
				       struct edge_ewarp *ew, u32 obj)
{
	struct edge_core *c = &s->cores[obj / EDGE_EWARP_PER_CORE];
	struct edge_tb *tb = ew->victim;

	if (ew->orphan) {
		/* its victim's TB is gone, and its resources with it */
	} else if (tb) {
		EDGE_ASSERT(tb->used && tb->gen_id == ew->victim_gen);
		tb->preempted--;
		if (tb->done_pending && !tb->preempted)
			edge_simt_tb_finish(s, tb);
	} else {
		/* ran on free resources: a warp's worth of them */
		edge_simt_core_threads(s, obj / EDGE_EWARP_PER_CORE,
				       -(s32)s->p->warp_size);
		c->warps--;
		c->smem -= ew->smem;
	}
	c->regs -= ew->regs;
	/*
	 * Room for a TB came back only if something did: a warp that ran
	 * on free resources, or registers it held.  One that saved its
	 * victim's registers gives back none, and the TB searches that
	 * failed before still fail.
	 */
	if ((!tb && !ew->orphan) || ew->regs)
		edge_simt_gave_back(s, obj / EDGE_EWARP_PER_CORE);
	s->ew_busy--;
	ew->victim = NULL;
	ew->orphan = false;
	ew->ki = NULL;
	ew->regs = 0;
	ew->smem = 0;
	ew->state = EDGE_PS_IDLE;
	ew->gen++;
}

/* LAUNCH_IWARP's own work: the event warp's kernel starts now. */
static __always_inline void ew_started(struct edge_simt *s,
				       struct edge_kinst *ki)
{
	/* Started at its arrival (an idle GPU's): no conversion. */
	u64 lat = s->eng->now - ki->arrival;

	if (lat)
		lat = edge_simt_ns2cyc(s, lat);
	ki->first_start = s->eng->now;
	ki->started = true;
	edge_lat_add(&s->st.sched, lat);
	if (s->tag_lat && ki->tag < s->nr_tag_lat)
		edge_lat_add(&s->tag_lat[ki->tag].sched, lat);
}

/* One step; true when the next one is to run now, in place. */
static __always_inline bool ew_step(struct edge_simt *s, struct edge_ewarp *ew,
				    u32 obj)
{
	struct edge_kinst *ki;

	/*
	 * A zero-length step run in place goes on to the next state's
	 * case (the label after it) instead of back through the dispatch.
	 */
	switch (ew->state) {
	case EDGE_PS_SELECT_WARP:
		if (!ew_enter(s, ew, obj, EDGE_PS_FLUSH_PIPELINE,
			      ew->flush_cycles, true))
			return false;
		goto flush;
	case EDGE_PS_FLUSH_PIPELINE:
flush:
		if (!ew_enter(s, ew, obj, EDGE_PS_SAVE_HW_CTX,
			      ew->saved ? ew->ctx_cycles : 0, true))
			return false;
		goto save;
	case EDGE_PS_SAVE_HW_CTX:
save:
		if (!ew_enter(s, ew, obj, EDGE_PS_LAUNCH_IWARP, 0, true))
			return false;
		goto launch;
	case EDGE_PS_LAUNCH_IWARP:
launch:
		ew_started(s, ew->ki);
		if (!ew_enter(s, ew, obj, EDGE_PS_IWARP_RUNNING, ew->run_cycles,
			      true))
			return false;
		goto running;
	case EDGE_PS_IWARP_RUNNING:
running:
		if (!ew_enter(s, ew, obj, EDGE_PS_IWARP_COMPLETING, 0, true))
			return false;
		goto completing;
	case EDGE_PS_IWARP_COMPLETING:
completing:
		ki = ew->ki;
		ew->ki = NULL;
		edge_simt_kernel_done(s, ki, EDGE_CQE_DONE);
		if (ew->victim && !ew->orphan) {
			if (!ew_enter(s, ew, obj, EDGE_PS_RESTORE_HW_CTX,
				      ew->saved ? ew->ctx_cycles : 0, true))
				return false;
			goto restore;
		}
		ew_release(s, ew, obj);
		edge_simt_schedule_tail(s);
		return false;
	case EDGE_PS_RESTORE_HW_CTX:
restore:
		ew_release(s, ew, obj);
		edge_simt_schedule_tail(s);
		return false;
	default:
		EDGE_ASSERT(0);
		return false;
	}
}

void edge_preempt_step(struct edge_simt *s, const struct edge_ev *ev)
{
	u32 obj = ev->obj;	/* not reloaded at every step run in place */
	struct edge_ewarp *ew;

	if (obj >= s->ew_slots)
		return;
	ew = slot_of(s, obj);
	if (ew->gen != ev->gen || ew->state != ev->aux)
		return;
	while (ew_step(s, ew, obj))
		;
}

/*
 * Enter @state as ew_enter() would, but hold its event back until the
 * end of the pass (edge_preempt_run_deferred()), with the queue order
 * its push would take now.
 */
static void defer(struct edge_simt *s, struct edge_ewarp *ew, u32 obj,
		  u32 state)
{
	ew->state = state;
	ew->gen++;
	s->deferred[s->nr_deferred] = obj;
	s->deferred_order[s->nr_deferred++] = edge_engine_take_order(s->eng);
}

/*
 * A preempting event warp's SELECT_WARP, held back by a tail pass that
 * held nothing else: EDGE_SELECT_CYCLES from now, so not due by now, but
 * the next event popped when it is earlier than every queued event
 * (times alone: a tie is left to the queue) and the owner runs to it
 * (@e->until) with budget to spare.  Then it runs here, as its pop
 * would: the clock moves to its time, and it counts as an event.  Else
 * it is queued with its order.  (Several held steps: each queued, or
 * run as launches are.)
 */
static bool run_select(struct edge_simt *s, struct edge_ewarp *ew, u32 obj,
		       u64 order, bool alone)
{
	struct edge_engine *e = s->eng;
	u64 t = e->now + edge_simt_cyc2ns(s, EDGE_SELECT_CYCLES);
	int ret;

	if (alone && e->fold_left && t <= e->until &&
	    (!e->first || t < e->first->time)) {
		e->now = t;
		e->fold_left--;
		e->folded++;
		/* ew_step()'s SELECT_WARP, without the dispatch. */
		if (ew_enter(s, ew, obj, EDGE_PS_FLUSH_PIPELINE,
			     ew->flush_cycles, true))
			while (ew_step(s, ew, obj))
				;
		return true;
	}
	ret = edge_engine_push_ordered(e, t, order, EDGE_EV_EWARP, obj,
				       EDGE_PS_SELECT_WARP, ew->gen);
	EDGE_ASSERT(!ret);
	return false;
}

/*
 * The launches a tail pass held back (edge_simt_schedule_tail()), each
 * with the queue order its LAUNCH_IWARP event would have had.  Queued
 * for now, they would be the next events popped, in that order, when
 * nothing queued is due by now (the pass queues nothing for now, or
 * they could not run first); and after the pass nothing is queued before
 * that pop.  So each runs here, as its pop would, counted against the
 * caller's budget as an event (@e->fold_left, @e->folded): the same
 * steps, times, draws and statistics, without a push, a pop and a
 * dispatch.  While more wait, a launch's own next step may not run in
 * place (those would pop first); what cannot run is queued with its
 * order, which keeps every tie as it was.  A preempting event warp's
 * SELECT_WARP is held too, and may run the same way (run_select()).
 */
void edge_preempt_run_deferred(struct edge_simt *s)
{
	struct edge_engine *e = s->eng;
	u32 n = s->nr_deferred, i, left;
	/* Whether nothing is due by now: looked at the first launch. */
	int now = -1;
	int ret;

	s->nr_deferred = 0;
	s->in_deferred = true;
	for (i = 0; i < n; i++) {
		u32 obj = s->deferred[i];
		struct edge_ewarp *ew = slot_of(s, obj);

		if (ew->state == EDGE_PS_SELECT_WARP) {
			run_select(s, ew, obj, s->deferred_order[i], n == 1);
			continue;
		}
		if (now < 0)
			now = edge_engine_none_due(e);
		if (!now || !e->fold_left) {
			now = 0;
			ret = edge_engine_push_ordered(e, e->now,
						       s->deferred_order[i],
						       EDGE_EV_EWARP, obj,
						       EDGE_PS_LAUNCH_IWARP,
						       ew->gen);
			EDGE_ASSERT(!ret);
			continue;
		}
		e->fold_left--;
		e->folded++;
		left = e->fold_left;
		if (i + 1 < n)
			e->fold_left = 0;
		while (ew_step(s, ew, obj))
			;
		if (i + 1 < n)
			e->fold_left = left;
	}
	s->in_deferred = false;
}

/* Event warps running on @c: they all issue at the top priority. */
static u32 running_ewarps(const struct edge_core *c)
{
	u32 i, n = 0;

	for (i = 0; i < EDGE_EWARP_PER_CORE; i++)
		if (c->ew[i].state >= EDGE_PS_LAUNCH_IWARP &&
		    c->ew[i].state <= EDGE_PS_IWARP_COMPLETING)
			n++;
	return n;
}

/*
 * How long the event warp runs: its own time, stretched by the core's
 * occupancy (shared caches and memory) and, since event warps take the
 * top issue priority (EDGE Section IV-D), by every other event warp that
 * competes for the same issue slots.
 */
static __always_inline u64 ew_run_cycles(struct edge_simt *s,
					 const struct edge_core *c,
					 const struct edge_kinst *ki, u64 *iso)
{
	u64 run;

	*iso = edge_rng_spread(&s->rng, ki->k.warp_cycles, ki->k.ws.rsd_pct);
	if (s->cfg.skip_event_exec)
		return 0;
	/* Without a stretch, no occupancy and no count: they would add 0. */
	run = !ki->k.ws.corun_pct ? *iso :
	      edge_simt_corun(&ki->k, *iso, edge_simt_occupancy(s, c));
	if (!ki->k.ws.ewarp_corun_pct)
		return run;
	return run + edge_div64(run * ki->k.ws.ewarp_corun_pct *
				running_ewarps(c), 100);
}

static void ew_claim(struct edge_simt *s, struct edge_kinst *ki,
		     struct edge_ewarp *ew, u64 iso)
{
	ew->ki = ki;
	ki->placed = true;
	s->ew_busy++;
	ki->iso_ns = edge_simt_cyc2ns(s, s->cfg.dispatch_cycles + iso);
}

/*
 * The launch a tail pass holds back (defer()) when it is the pass's last
 * placement, run at once.  edge_preempt_run_deferred() would run it first
 * thing after the pass, with nothing between that changes what it does:
 * nothing is queued behind @ki, no launch was held before it, and the
 * pass's closing settle has nothing to settle or re-time (a placement on
 * free resources unsettles nothing).  So, with the same tests it would
 * make (nothing due by now, budget left), its LAUNCH_IWARP step runs here
 * with the same order taken, the same generations and the same event
 * pushed.  Only when the run takes time: a step through to completion
 * would free @ki while the pass still holds it in its queue.  Returns
 * whether it ran; else the caller holds it back as before.
 */
static __always_inline bool launch_now(struct edge_simt *s,
				       struct edge_kinst *ki,
				       struct edge_ewarp *ew, u32 obj)
{
	struct edge_engine *e = s->eng;
	u64 ns;

	if (ki->next || s->nr_deferred || s->nr_unsettled || s->nr_retime ||
	    !e->fold_left || !edge_engine_none_due(e) || !ew->run_cycles)
		return false;
	ns = edge_simt_cyc2ns(s, ew->run_cycles);
	if (!ns)
		return false;
	/* LAUNCH_IWARP held, as defer() enters it: its order, a generation. */
	edge_engine_take_order(e);
	ew->gen++;
	/* Run as the held launch is: counted, then ew_step()'s case. */
	e->fold_left--;
	e->folded++;
	ew_started(s, ki);
	ew_enter_ns(s, ew, obj, EDGE_PS_IWARP_RUNNING, ns, true);
	return true;
}

/* Free resources for one warp on @c, respecting the reservation? */
static bool warp_fits(const struct edge_simt *s, const struct edge_core *c,
		      const struct edge_kinst *ki)
{
	const struct edge_preset *p = s->p;

	return c->warps < max_warps(s) &&
	       c->threads + p->warp_size <= p->threads_per_core &&
	       c->regs + ewarp_regs(s, &ki->k) <= p->regs_per_core &&
	       c->smem + ki->k.smem_per_block <= p->smem_per_core;
}

static bool core_serves_events(const struct edge_simt *s,
			       const struct edge_core *c)
{
	return s->cfg.sched != EDGE_SCHED_RESERVE || c->reserved;
}

static bool place_free(struct edge_simt *s, struct edge_kinst *ki)
{
	u32 n = s->p->num_cores, i;

	/*
	 * No core has a warp's room: warp_fits() fails on every one, and
	 * nothing is drawn before a core fits (beside a full GPU this was
	 * a search of every core for every event).
	 */
	if (s->cores_warp_full == n)
		return false;

	for (i = 0; i < n; i++) {
		u32 core = (s->rr_ew + i) % n;
		struct edge_core *c = &s->cores[core];
		struct edge_ewarp *ew;
		u64 iso;
		int slot;
		u32 obj;

		if (!core_serves_events(s, c) || !warp_fits(s, c, ki))
			continue;
		slot = free_slot(c);
		if (slot < 0)
			continue;
		ew = &c->ew[slot];
		ew->run_cycles = ew_run_cycles(s, c, ki, &iso);
		edge_simt_core_threads(s, core, s->p->warp_size);
		c->warps++;
		c->regs += ewarp_regs(s, &ki->k);
		c->smem += ki->k.smem_per_block;
		ew->regs = ewarp_regs(s, &ki->k);
		ew->smem = ki->k.smem_per_block;
		ew->victim = NULL;
		ew->orphan = false;
		ew->saved = false;
		ew->flush_cycles = 0;
		ew->ctx_cycles = 0;
		ew_claim(s, ki, ew, iso);
		s->rr_ew = (core + 1) % n;
		s->st.ewarps_free++;
		obj = core * EDGE_EWARP_PER_CORE + (u32)slot;
		if (s->defer_launch && s->nr_deferred < EDGE_DEFERRED) {
			/* Queued in all but the engine: see run_deferred. */
			if (!launch_now(s, ki, ew, obj))
				defer(s, ew, obj, EDGE_PS_LAUNCH_IWARP);
		} else {
			ew_enter(s, ew, obj, EDGE_PS_LAUNCH_IWARP, 0, false);
		}
		return true;
	}
	return false;
}

/* A stall cause of a victim, in the statistics when it held. */
static __always_inline void stall_add(struct edge_simt *s, u32 k, u64 cyc)
{
	if (!cyc)
		return;
	s->st.stall_cycles[k] += cyc;
	s->st.stall_count[k]++;
}

/*
 * Out of line: its victim's sampled state makes a 264-byte frame, which a
 * placement on free resources (an idle GPU's every event) would set up
 * for nothing (idle 991 -> 982 instructions, busy 2164 -> 2181).
 */
static noinline bool place_preempt(struct edge_simt *s,
				   struct edge_kinst *ki)
{
	u32 n = s->p->num_cores, i, obj;

	for (i = 0; i < n; i++) {
		u32 core = (s->rr_ew + i) % n;
		struct edge_core *c = &s->cores[core];
		u32 need = ewarp_regs(s, &ki->k);
		struct edge_vstate v;
		struct edge_ewarp *ew;
		struct edge_tb *tb;
		u64 iso, delay;
		int slot;

		if (!core_serves_events(s, c))
			continue;
		slot = free_slot(c);
		if (slot < 0)
			continue;
		tb = select_victim(s, c, ki, &v);
		if (!tb)
			continue;
		ew = &c->ew[slot];
		ew->victim = tb;
		ew->victim_gen = tb->gen_id;
		ew->orphan = false;
		tb->preempted++;
		/* Spare registers spare the save and the restore. */
		if (c->regs + need <= s->p->regs_per_core) {
			c->regs += need;
			ew->regs = need;
			ew->saved = false;
			ew->ctx_cycles = 0;
		} else {
			ew->regs = 0;
			ew->saved = true;
			ew->ctx_cycles = (u64)need * 4 / s->cfg.ctx_bytes_per_cycle;
		}
		ew->smem = 0;
		ew->flush_cycles = v.flush;
		ew->run_cycles = ew_run_cycles(s, c, ki, &iso);
		/* The victim stalls from its flush until it is restored. */
		delay = 2 * ew->ctx_cycles + ew->run_cycles + v.replay;
		if (tb->end < s->eng->now + edge_simt_cyc2ns(s, v.flush + EDGE_SELECT_CYCLES))
			tb->end = s->eng->now +
				  edge_simt_cyc2ns(s, v.flush + EDGE_SELECT_CYCLES);
		/* Later only: its queued completion requeues itself then. */
		tb->end += edge_simt_cyc2ns(s, delay);

		s->st.preemptions++;
		EDGE_TRACE(s->eng, EDGE_TP_PREEMPT,
			   (u64)EDGE_TP_PREEMPT_EWARP << 32 | core, tb->idx,
			   v.flush);
		edge_lat_add(&s->st.preempt, EDGE_SELECT_CYCLES + v.flush +
			     ew->ctx_cycles);
		if (s->tag_lat && ki->tag < s->nr_tag_lat)
			edge_lat_add(&s->tag_lat[ki->tag].preempt,
				     EDGE_SELECT_CYCLES + v.flush +
				     ew->ctx_cycles);
		/* Unrolled: most causes do not hold, a test each. */
		stall_add(s, EDGE_STALL_PIPELINE, v.cyc[EDGE_STALL_PIPELINE]);
		stall_add(s, EDGE_STALL_SCOREBOARD,
			  v.cyc[EDGE_STALL_SCOREBOARD]);
		stall_add(s, EDGE_STALL_LOAD, v.cyc[EDGE_STALL_LOAD]);
		stall_add(s, EDGE_STALL_ICACHE, v.cyc[EDGE_STALL_ICACHE]);
		stall_add(s, EDGE_STALL_BARRIER, v.cyc[EDGE_STALL_BARRIER]);
		stall_add(s, EDGE_STALL_MEMBAR, v.cyc[EDGE_STALL_MEMBAR]);
		ew_claim(s, ki, ew, iso);
		s->rr_ew = (core + 1) % n;
		obj = core * EDGE_EWARP_PER_CORE + (u32)slot;
		if (s->defer_launch && s->nr_deferred < EDGE_DEFERRED)
			/* It may run in place too: see run_deferred. */
			defer(s, ew, obj, EDGE_PS_SELECT_WARP);
		else
			ew_enter(s, ew, obj, EDGE_PS_SELECT_WARP,
				 EDGE_SELECT_CYCLES, false);
		return true;
	}
	return false;
}

/*
 * Put a warp-level event on a core: on free resources if any core has
 * them, else by preemption when the policy and the shared-memory rule
 * allow, else it waits (draining) and false is returned.
 */
bool edge_preempt_place(struct edge_simt *s, struct edge_kinst *ki)
{
	/*
	 * Both ways need a free slot of a pending event warp table: with
	 * none anywhere, fail before a search of every core (which draws
	 * nothing before it finds a slot, so this changes nothing else).
	 */
	if (s->ew_busy == s->ew_slots) {
		edge_preempt_waited(s, ki);
		return false;
	}
	if (place_free(s, ki))
		return true;
	/* Shared memory is per TB: an event warp needing it cannot borrow. */
	if (s->cfg.sched == EDGE_SCHED_PREEMPT && !ki->k.smem_per_block &&
	    place_preempt(s, ki))
		return true;
	edge_preempt_waited(s, ki);
	return false;
}

/* @ki found no core: count it once as an event that had to wait. */
void edge_preempt_waited(struct edge_simt *s, struct edge_kinst *ki)
{
	/* Counted already, one by one or by edge_preempt_waited_all(). */
	if (ki->waited || ki->ew_epoch != s->ew_epoch)
		return;
	ki->waited = true;
	s->st.ewarps_waited++;
	s->ew_unwaited--;
}

/*
 * Every queued event warp waits: count those not counted yet, and mark
 * them so by moving the epoch (they were queued in an older one).
 */
void edge_preempt_waited_all(struct edge_simt *s)
{
	s->st.ewarps_waited += s->ew_unwaited;
	s->ew_unwaited = 0;
	s->ew_epoch++;
}

/* Cancel: the event warp of @ki leaves its slot now. */
void edge_preempt_drop(struct edge_simt *s, struct edge_kinst *ki)
{
	u32 obj, n = s->ew_slots;

	for (obj = 0; obj < n; obj++) {
		struct edge_ewarp *ew = slot_of(s, obj);

		if (ew->state != EDGE_PS_IDLE && ew->ki == ki) {
			edge_engine_remove_obj(s->eng, EDGE_EV_EWARP, obj);
			ew_release(s, ew, obj);
		}
	}
}

/*
 * Every running TB of @ki is going away: one pass over the event warps
 * instead of one per TB (a pass per TB was quadratic in a GPU's worth).
 */
void edge_preempt_orphan_kernel(struct edge_simt *s,
				const struct edge_kinst *ki)
{
	u32 obj, n = s->ew_slots;

	for (obj = 0; obj < n; obj++) {
		struct edge_ewarp *ew = slot_of(s, obj);

		if (ew->state != EDGE_PS_IDLE && ew->victim &&
		    ew->victim->used && ew->victim->ki == ki)
			ew->orphan = true;
	}
}

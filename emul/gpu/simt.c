// SPDX-License-Identifier: GPL-2.0
/*
 * SIMT-core model: kernel queues, the SIMT-core scheduler, thread blocks.
 *
 * Dispatch follows the hardware EDGE describes (Section IV-B): kernels
 * are served by priority, then in launch order; TBs of a kernel go to
 * cores round-robin until the first resource of a core runs out, so
 * occupancy emerges from registers, shared memory, threads and TB slots.
 * A kernel whose next TB does not fit holds back every kernel behind it,
 * and a waiting higher-priority event holds back lower-priority TBs: that
 * is draining.
 */
#include "gpu/simt.h"
#include "gpu/preempt.h"

void edge_simt_default_cfg(struct edge_simt_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sched = EDGE_SCHED_PREEMPT;
	cfg->victim = EDGE_VICTIM_OLDEST;
	cfg->flush = EDGE_FLUSH_ALL;
	cfg->reserve_pct = 50;
	cfg->sched_wait_cycles = 600;
	cfg->ctx_bytes_per_cycle = 64;
	cfg->seed = 1;
}

/* Engine room the model can ever need: it never grows while stepping. */
u32 edge_simt_engine_room(const struct edge_preset *p)
{
	u32 tbs = p->num_cores * p->tb_slots_per_core;

	/* a live and a stale completion per TB, two steps per event warp */
	return 2 * tbs + 2 * p->num_cores * EDGE_EWARP_PER_CORE +
	       EDGE_KMU_PENDING + EDGE_KDU_RUNNING + EDGE_EWARP_PENDING +
	       p->num_cores * EDGE_EWARP_PER_CORE + 16;
}

/*
 * A core's free threads as the TB search reads them (edge_simt.core_free):
 * none on a core reserved for events.
 */
static void core_free_update(struct edge_simt *s, u32 c)
{
	s->core_free[c] = s->cores[c].reserved ? 0 :
			  s->p->threads_per_core - s->cores[c].threads;
	edge_simt_room_update(s, c);
}

static void apply_reservation(struct edge_simt *s)
{
	u32 n = s->p->num_cores, r = 0, c;

	/*
	 * Under reservation each side keeps at least one core: with none,
	 * its work would wait forever (found by fuzz_simt_cfg).
	 */
	if (s->cfg.sched == EDGE_SCHED_RESERVE) {
		r = (n * s->cfg.reserve_pct + 99) / 100;
		if (r < 1)
			r = 1;
		if (r >= n)
			r = n - 1;
	}
	edge_simt_gave_back(s, EDGE_GAVE_ALL);
	/* The last r cores serve events. */
	for (c = 0; c < n; c++)
		s->cores[c].reserved = c >= n - r;
	for (c = 0; c < n; c++)
		core_free_update(s, c);
}

int edge_simt_set_cfg(struct edge_simt *s, const struct edge_simt_cfg *cfg)
{
	int ret;

	if (cfg->sched > EDGE_SCHED_PREEMPT || cfg->victim > EDGE_VICTIM_BEST ||
	    cfg->flush & ~EDGE_FLUSH_ALL || cfg->reserve_pct > 100 ||
	    !cfg->ctx_bytes_per_cycle || cfg->dispatch_cycles > 1000000 ||
	    cfg->sched_wait_cycles > 1000000 || cfg->tb_policy >= EDGE_TBP_NR)
		return -EINVAL;
	ret = edge_simt_set_tb_policy(s, cfg->tb_policy);
	if (ret)
		return ret;
	if (cfg->seed != s->cfg.seed)
		edge_rng_seed(&s->rng, cfg->seed);
	s->cfg = *cfg;
	apply_reservation(s);
	return 0;
}

int edge_simt_init(struct edge_simt *s, const struct edge_preset *p,
		   struct edge_engine *eng, const struct edge_simt_cfg *cfg,
		   edge_simt_done_fn done, void *ctx)
{
	u32 i, slots = p->tb_slots_per_core;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->eng = eng;
	s->done = done;
	s->ctx = ctx;
	s->nr_tbs = p->num_cores * slots;
	s->ew_slots = p->num_cores * EDGE_EWARP_PER_CORE;
	/*
	 * Every queue's worth, and one per TB: a kernel whose TBs all left
	 * the KDU keeps its slot until they end.
	 */
	s->nr_ki = EDGE_KMU_PENDING + EDGE_KDU_RUNNING + EDGE_EWARP_PENDING +
		   s->ew_slots + s->nr_tbs;
	s->cores = edge_zalloc(sizeof(*s->cores) * p->num_cores);
	s->tbs = edge_zalloc(sizeof(*s->tbs) * s->nr_tbs);
	s->tb_ptrs = edge_zalloc(sizeof(*s->tb_ptrs) * s->nr_tbs);
	s->free_tbs = edge_zalloc(sizeof(*s->free_tbs) * s->nr_tbs);
	s->unsettled = edge_zalloc(sizeof(*s->unsettled) * s->nr_tbs);
	/* Zeroed one by one as launches first take them (ki_init). */
	s->ki = edge_alloc(sizeof(*s->ki) * s->nr_ki);
	s->kc = edge_zalloc(sizeof(*s->kc) * s->nr_tbs);
	s->susp = edge_zalloc(sizeof(*s->susp) * s->nr_tbs);
	s->apps = edge_zalloc(sizeof(*s->apps) * EDGE_APPS);
	s->core_free = edge_zalloc(sizeof(*s->core_free) * p->num_cores);
	s->core_words = (p->num_cores + 63) / 64;
	s->ki_cores = edge_zalloc(sizeof(*s->ki_cores) * s->core_words *
				  s->nr_ki);
	s->core_room = edge_zalloc(sizeof(*s->core_room) * s->core_words);
	s->search = edge_zalloc(sizeof(*s->search) * s->core_words);
	if (!s->cores || !s->tbs || !s->tb_ptrs || !s->free_tbs ||
	    !s->unsettled || !s->ki || !s->kc || !s->susp || !s->apps ||
	    !s->core_free || !s->ki_cores || !s->core_room || !s->search) {
		edge_simt_fini(s);
		return -ENOMEM;
	}
	for (i = 0; i < p->num_cores; i++) {
		s->cores[i].tb = &s->tb_ptrs[i * slots];
		s->cores[i].kc = &s->kc[i * slots];
	}
	for (i = 0; i < s->nr_tbs; i++)
		s->susp[i].next = i + 1 < s->nr_tbs ? i + 1 : EDGE_SUSP_NONE;
	s->free_susp = 0;
	s->tbp = edge_tb_policies[0];
	/* Lowest index on top, so TB numbering starts at 0. */
	for (i = 0; i < s->nr_tbs; i++) {
		s->tbs[i].idx = i;
		s->free_tbs[i] = s->nr_tbs - 1 - i;
	}
	s->nr_free_tbs = s->nr_tbs;
	s->nr_free_ki = s->nr_ki;
	s->ew_min_regs = ~0U;
	s->ew_min_smem = ~0U;
	s->cfg.seed = ~cfg->seed;	/* force a reseed */
	if (edge_simt_set_cfg(s, cfg)) {
		edge_simt_fini(s);
		return -EINVAL;
	}
	return edge_engine_reserve(eng, edge_simt_engine_room(p));
}

void edge_simt_fini(struct edge_simt *s)
{
	if (s->tbp && s->tbp->fini)
		s->tbp->fini(s, s->tbp_priv);
	s->tbp = NULL;
	s->tbp_priv = NULL;
	edge_free(s->kc);
	edge_free(s->susp);
	edge_free(s->apps);
	s->kc = NULL;
	s->susp = NULL;
	s->apps = NULL;
	edge_free(s->cores);
	edge_free(s->tbs);
	edge_free(s->tb_ptrs);
	edge_free(s->free_tbs);
	edge_free(s->unsettled);
	edge_free(s->ki);
	edge_free(s->ki_cores);
	edge_free(s->core_free);
	edge_free(s->core_room);
	edge_free(s->search);
	s->core_free = NULL;
	s->core_room = NULL;
	s->search = NULL;
	s->ki_cores = NULL;
	s->cores = NULL;
	s->tbs = NULL;
	s->tb_ptrs = NULL;
	s->free_tbs = NULL;
	s->unsettled = NULL;
	s->ki = NULL;
}

bool edge_simt_can_launch(const struct edge_simt *s)
{
	return s->nr_free_ki > s->ew_slots ||
	       (s->nr_free_ki && s->ewarp_len < EDGE_EWARP_PENDING);
}

bool edge_simt_idle(const struct edge_simt *s)
{
	return s->nr_free_ki == s->nr_ki;
}

/* An event warp left the queue (placed or cancelled). */
void edge_simt_ew_dequeued(struct edge_simt *s, struct edge_kinst *ki)
{
	if (!ki->waited && ki->ew_epoch == s->ew_epoch)
		s->ew_unwaited--;
	/* The bounds only ever go stale low: start again when none wait. */
	if (!--s->ewarp_len) {
		s->ew_min_regs = ~0U;
		s->ew_min_smem = ~0U;
	}
}

void edge_simt_ki_free(struct edge_simt *s, struct edge_kinst *ki)
{
	ki->used = false;
	ki->gen++;
	ki->next = s->free_ki;
	s->free_ki = ki;
	s->nr_free_ki++;
}

/* Registers a block of @k holds: whole warps, as register files allocate. */
u32 edge_simt_tb_regs(const struct edge_simt *s, const struct edge_kdesc *k)
{
	return k->warps_per_tb * s->p->warp_size * k->regs_per_thread;
}

void edge_simt_tb_reschedule(struct edge_simt *s, struct edge_tb *tb)
{
	int ret;

	tb->gen++;
	ret = edge_engine_push(s->eng, tb->end, EDGE_EV_TB_DONE, tb->idx, 0,
			       tb->gen);
	EDGE_ASSERT(!ret);
}

/* A free-list of TBs: a scan of every slot was a third of the time. */
static struct edge_tb *tb_alloc(struct edge_simt *s)
{
	if (!s->nr_free_tbs)
		return NULL;
	return &s->tbs[s->free_tbs[--s->nr_free_tbs]];
}

/* Cores running anything: they share the GPU's memory bandwidth. */
static u32 busy_cores(const struct edge_simt *s)
{
	u32 c, n = 0;

	for (c = 0; c < s->p->num_cores; c++)
		if (s->cores[c].warps)
			n++;
	return n;
}

/* Context bytes of a TB: its registers (4 bytes each) and shared memory. */
u64 edge_simt_ctx_cycles(const struct edge_simt *s, const struct edge_kdesc *k)
{
	u64 bytes = (u64)edge_simt_tb_regs(s, k) * 4 + k->smem_per_block;

	return edge_div64(bytes + s->cfg.ctx_bytes_per_cycle - 1,
			  s->cfg.ctx_bytes_per_cycle);
}

static void start_tb(struct edge_simt *s, struct edge_kinst *ki, u32 core)
{
	struct edge_core *c = &s->cores[core];
	const struct edge_kdesc *k = &ki->k;
	struct edge_tb *tb = tb_alloc(s);
	u64 now = s->eng->now;

	/* A free TB slot on the core means a free TB in the pool. */
	EDGE_ASSERT(tb);
	if (!tb)
		return;
	c->tbs++;
	edge_simt_core_threads_as(s, core, k->warps_per_tb * s->p->warp_size,
				  true);
	c->warps += k->warps_per_tb;
	c->regs += edge_simt_tb_regs(s, k);
	c->smem += k->smem_per_block;
	s->bw_resident += k->mem_bw_mbs;
	tb->slot = c->nr_tbs;
	c->tb[c->nr_tbs++] = tb;
	edge_simt_kcount_add(s, core, ki);
	edge_simt_occ_changed(s, core);

	tb->used = true;
	tb->gen_id++;
	tb->core = core;
	tb->ki = ki;
	tb->kgen = ki->gen;
	tb->warps = k->warps_per_tb;
	tb->preempted = 0;
	tb->done_pending = false;
	tb->launch_order = s->next_order++;
	tb->start = now;
	tb->prog_start = now;
	tb->suspending = false;
	tb->extra_cycles = 0;
	if (ki->nr_susp) {
		/* A preempted TB resumes first, and restores its context. */
		struct edge_susp *r = &s->susp[ki->susp];
		u32 idx = ki->susp;

		tb->iso_cycles = r->cycles;
		tb->extra_cycles = edge_simt_ctx_cycles(s, k);
		s->st.tb_ctx_cycles += tb->extra_cycles;
		ki->susp = r->next;
		ki->nr_susp--;
		r->next = s->free_susp;
		s->free_susp = idx;
	} else {
		tb->iso_cycles = edge_rng_tb(&s->rng, k->warp_cycles,
					     k->ws.rsd_pct, k->tb_skew);
	}
	/* Timed by settle_pass() once the pass has placed everything. */
	tb->end = now;
	s->unsettled[s->nr_unsettled++] = tb->idx;

	ki->tbs_dispatched++;
	if (!ki->started) {
		ki->started = true;
		ki->first_start = now;
	}
	ki->tbs_running++;
	s->st.tbs_dispatched++;
	EDGE_TRACE(s->eng, EDGE_TP_TB_PLACE, ki->cookie, core, tb->idx);
	if (s->tbp->tb_start)
		s->tbp->tb_start(s, tb);
}

/*
 * Time the TBs started in this pass (and re-time running ones: retime.c).
 * A TB's duration depends on how many cores share the memory bandwidth and
 * how full its core is; sampled as each TB started, the first on a core
 * saw an emptier GPU than it runs on.  So they are timed together.
 */
static void settle_pass(struct edge_simt *s)
{
	u32 busy, i;

	edge_simt_retime(s);
	if (!s->nr_unsettled)
		return;
	/* Counted once a pass, and only for a TB that needs it. */
	busy = ~0U;
	for (i = 0; i < s->nr_unsettled; i++) {
		struct edge_tb *tb = &s->tbs[s->unsettled[i]];
		const struct edge_kdesc *k = &tb->ki->k;
		u64 cycles = tb->iso_cycles;

		/*
		 * A kernel that declares its traffic contends for the
		 * device's bandwidth (gpu/membw.c).  Otherwise warp_cycles
		 * is the time on a fully busy GPU; the memory-bound share of
		 * it shrinks when fewer cores share the bandwidth.
		 */
		if (k->mem_bw_mbs && s->p->mem_bw_mbs) {
			cycles = edge_membw_stretch(s, k, cycles);
		} else if (k->ws.mem_pct) {
			u64 part = edge_div64(cycles * k->ws.mem_pct, 100);

			if (busy == ~0U)
				busy = busy_cores(s);
			cycles -= part;
			cycles += edge_div64(part * busy, s->p->num_cores);
		}
		tb->occ = edge_simt_occupancy(s, &s->cores[tb->core]);
		cycles = edge_simt_corun(k, cycles, tb->occ);
		tb->end = tb->start + edge_simt_cyc2ns(s, cycles +
							tb->extra_cycles);
		edge_simt_tb_reschedule(s, tb);
	}
	s->nr_unsettled = 0;
}

/* What one TB of a kernel needs of a core, as the most a core may hold. */
struct tb_need {
	u32 thr;		/* threads */
	u32 tbs_max, thr_max, regs_max, smem_max;
};

/* Free threads first: one array, not a cache line of each core. */
static inline bool tb_fits(const struct edge_simt *s, u32 c,
			   const struct tb_need *nd)
{
	const struct edge_core *co = &s->cores[c];

	return s->core_free[c] >= nd->thr && !co->reserved &&
	       co->tbs < nd->tbs_max && co->threads <= nd->thr_max &&
	       co->regs <= nd->regs_max && co->smem <= nd->smem_max;
}

/* Cores from @a on to @b, in round-robin order: @b - @a, wrapping. */
static inline u32 ring_dist(const struct edge_simt *s, u32 a, u32 b)
{
	return b >= a ? b - a : b + s->p->num_cores - a;
}

/* The policy's cap lets one more TB of @ki on @core. */
static inline bool cap_allows(const struct edge_simt *s,
			      const struct edge_kinst *ki, u32 core)
{
	u32 cap;

	if (!s->tbp->cap)
		return true;
	/*
	 * A cap of 0 holds it back and EDGE_TB_NOCAP does not, whatever
	 * its TBs here: count them only between the two.
	 */
	cap = s->tbp->cap(s, ki, core);
	return cap == EDGE_TB_NOCAP ||
	       (cap && edge_simt_resident(s, ki, core) < cap);
}

/*
 * The cores of word @w of edge_simt.search (and of @map, when given)
 * from @a to below @end: a core not there fits no TB (set_search()).
 */
static __always_inline u64 room_bits(const struct edge_simt *s,
				     const u64 *map, u32 w, u32 a, u32 end)
{
	u64 bits = s->search[w];

	if (map)
		bits &= map[w];
	if (a > w * 64)
		bits &= ~0ULL << (a - w * 64);
	if (end < w * 64 + 64)
		bits &= (1ULL << (end - w * 64)) - 1;
	return bits;
}

/* A walk of the cores with a room bit (and in @map, when given). */
struct room_iter {
	const u64 *map;
	u64 bits;		/* of word w, those not walked yet */
	u32 w;
	u32 a, end;		/* cores a .. end - 1 */
};

static __always_inline void room_start(const struct edge_simt *s,
				       struct room_iter *it, const u64 *map,
				       u32 a, u32 end)
{
	it->map = map;
	it->a = a;
	it->end = end;
	it->w = a / 64;
	it->bits = a < end ? room_bits(s, map, it->w, a, end) : 0;
}

/* The walk's next core, in order, as *@c; false at its end. */
static __always_inline bool room_next(const struct edge_simt *s,
				      struct room_iter *it, u32 *c)
{
	while (!it->bits) {
		if (++it->w * 64 >= it->end)
			return false;
		it->bits = room_bits(s, it->map, it->w, it->a, it->end);
	}
	*c = it->w * 64 + edge_ffs64(it->bits);
	it->bits &= it->bits - 1;
	return true;
}

/*
 * The search of cores @a .. @end - 1 in turn (only those of @map when
 * given): the first with room that the cap lets @ki on, or -1.  *@fits
 * when one had room, *@held when the cap kept @ki off one that had.
 */
static int find_in(const struct edge_simt *s, const struct edge_kinst *ki,
		   const struct tb_need *nd, const u64 *map, u32 a, u32 end,
		   bool *fits, bool *held)
{
	struct room_iter it;
	u32 c;

	for (room_start(s, &it, map, a, end); room_next(s, &it, &c);) {
		if (!tb_fits(s, c, nd))
			continue;
		*fits = true;
		if (cap_allows(s, ki, c))
			return (int)c;
		*held = true;
	}
	return -1;
}

/* Is there room for the TB on one of @count cores from @c on? */
static bool any_fit(const struct edge_simt *s, const struct tb_need *nd,
		    u32 c, u32 count)
{
	u32 n = s->p->num_cores, a;
	struct room_iter it;

	for (room_start(s, &it, NULL, c, c + count < n ? c + count : n);
	     room_next(s, &it, &a);)
		if (tb_fits(s, a, nd))
			return true;
	/* The rest of the count, past the wrap. */
	for (room_start(s, &it, NULL, 0, c + count > n ? c + count - n : 0);
	     room_next(s, &it, &a);)
		if (tb_fits(s, a, nd))
			return true;
	return false;
}

/* One stretch of find_every(): cores @a .. @end - 1. */
static __always_inline int find_every_in(struct edge_simt *s,
					 struct edge_kinst *ki,
					 const struct tb_need *nd, u32 a,
					 u32 end, bool *fits, bool *capped)
{
	struct room_iter it;
	u32 c;

	for (room_start(s, &it, NULL, a, end); room_next(s, &it, &c);) {
		const struct edge_core *co = &s->cores[c];

		if (co->tbs >= nd->tbs_max || co->threads > nd->thr_max ||
		    co->regs > nd->regs_max || co->smem > nd->smem_max)
			continue;
		*fits = true;
		if (!cap_allows(s, ki, c)) {
			*capped = true;
			continue;
		}
		return (int)c;
	}
	return -1;
}

/*
 * find_core_for_tb() without a cap_cores hook: every core with a room
 * bit in turn, from @c to the last and then from the first (a reserved
 * core has none).  This loop is the hot path.
 */
static int find_every(struct edge_simt *s, struct edge_kinst *ki,
		      const struct tb_need *nd, u32 c, bool *capped)
{
	u32 n = s->p->num_cores;
	bool fits = false;
	int found;

	found = find_every_in(s, ki, nd, c, n, &fits, capped);
	if (found < 0)
		found = find_every_in(s, ki, nd, 0, c, &fits, capped);
	if (found >= 0) {
		s->rr_core = (u32)found + 1 == n ? 0 : (u32)found + 1;
		return found;
	}
	/* Only resources, not a policy's cap, held it back. */
	if (!fits)
		ki->nofit_gen = s->res_gen + 1;
	return -1;
}

/*
 * The cores a search of @ki looks at (edge_simt.search): those with a
 * room bit, and when no core had room for its TB a few steps of res_gen
 * ago, only those that gave resources back since.  Every other core had
 * no room for it then and has no more now, so skipping them finds what
 * a search of all finds, and sets the same flags.  Beside a queue of
 * kernels whose next TB fits nowhere, each TB's end was a search of
 * every core for each of them (LAX: most of its TB search).  False when
 * it is none.
 */
static bool set_search(struct edge_simt *s, const struct edge_kinst *ki)
{
	u64 steps = s->res_gen + 1 - ki->nofit_gen, g, m = 0, any = 0;
	u32 w, c;

	if (!ki->nofit_gen || steps > EDGE_GAVE_LOG)
		goto all;
	for (g = ki->nofit_gen; g <= s->res_gen; g++) {
		c = s->gave_log[g % EDGE_GAVE_LOG];
		if (c == EDGE_GAVE_ALL)
			goto all;
		m |= 1ULL << (c % 64);
	}
	/* Up to 64 cores (every preset but h100-like's), that is all. */
	if (s->core_words == 1) {
		s->search[0] = s->core_room[0] & m;
		return s->search[0];
	}
	/* A word at a time (few steps). */
	for (w = 0; w < s->core_words; w++) {
		for (m = 0, g = ki->nofit_gen; g <= s->res_gen; g++) {
			c = s->gave_log[g % EDGE_GAVE_LOG];
			if (c / 64 == w)
				m |= 1ULL << (c % 64);
		}
		s->search[w] = s->core_room[w] & m;
		any |= s->search[w];
	}
	return any;
all:
	for (w = 0; w < s->core_words; w++) {
		s->search[w] = s->core_room[w];
		any |= s->search[w];
	}
	return any;
}

/*
 * Cores in round-robin order from the last placement, as GPGPU-Sim: the
 * first with room for a TB of @ki that the thread-block policy's cap
 * lets it on.  When a core the cap keeps @ki off had room, and came
 * before that one (or there is none), *@capped is set.
 *
 * A policy with a cap_cores hook names the only cores its cap may let
 * @ki on; the others have cap 0.  The search then looks for its core
 * among those alone, and for *@capped (while it is not already set) at
 * the cores before the one found: beside a quota of a few cores, or a
 * batch kernel that waits for a service, this was a call of the cap
 * hook for every free core at every pass (the quota policies: a quarter
 * of their time).  Both find what a search of every core in turn finds.
 */
static int find_core_for_tb(struct edge_simt *s, struct edge_kinst *ki,
			    bool *capped)
{
	const struct edge_preset *p = s->p;
	u32 n = p->num_cores, rr = s->rr_core, first = 0, len = n, off, i;
	/* What a TB needs of a core, once per search. */
	struct tb_need nd = {
		.thr = ki->k.warps_per_tb * p->warp_size,
		.tbs_max = p->tb_slots_per_core,
		.thr_max = p->threads_per_core - ki->k.warps_per_tb * p->warp_size,
		.regs_max = p->regs_per_core - edge_simt_tb_regs(s, &ki->k),
		.smem_max = p->smem_per_core - ki->k.smem_per_block,
	};
	bool fits = false, held = false, whole = true, resident = false;
	const u64 *map = NULL;
	u32 seg[4][2];
	int found = -1;

	/*
	 * No core had room for its TB and none gave any back since: none
	 * has room now (a failed search changes nothing, so skipping it
	 * changes nothing either).  Beside a full GPU this was a search of
	 * every core at every scheduling pass.
	 */
	if (ki->nofit_gen == s->res_gen + 1)
		return -1;

	/* A TB bigger than a core fits none (and the maxima would wrap). */
	if (nd.thr > p->threads_per_core ||
	    edge_simt_tb_regs(s, &ki->k) > p->regs_per_core ||
	    ki->k.smem_per_block > p->smem_per_core) {
		ki->nofit_gen = s->res_gen + 1;
		return -1;
	}
	/*
	 * No core to look at: the search would find none with room, and
	 * note that none fits, unless a cap held it back before (then the
	 * cap_cores search decides; it never comes to this often).
	 */
	if (!set_search(s, ki) && !*capped) {
		ki->nofit_gen = s->res_gen + 1;
		return -1;
	}
	if (!s->tbp->cap_cores)
		return find_every(s, ki, &nd, rr, capped);
	s->tbp->cap_cores(s, ki, &first, &len, &resident);
	if (resident)
		map = &s->ki_cores[(size_t)ki->idx * s->core_words];
	/*
	 * Those cores in round-robin order: from rr_core to the range's
	 * end and then from its start, or all from its start when rr_core
	 * is outside it; each part in at most two stretches, at the wrap.
	 */
	off = len ? ring_dist(s, first, rr) : 0;
	if (off >= len)
		off = 0;
	/* Both below n: a wrap, not a division. */
	seg[0][0] = first + off < n ? first + off : first + off - n;
	seg[0][1] = len - off;
	seg[2][0] = first;
	seg[2][1] = off;
	for (i = 0; i < 4; i += 2) {
		u32 a = seg[i][0], cnt = seg[i][1];

		seg[i][1] = a + cnt < n ? a + cnt : n;
		seg[i + 1][0] = 0;
		seg[i + 1][1] = a + cnt > n ? a + cnt - n : 0;
	}
	for (i = 0; i < 4 && found < 0; i++)
		found = find_in(s, ki, &nd, map, seg[i][0], seg[i][1], &fits,
				&held);
	/*
	 * A core with room before the one found (or any, when none was),
	 * outside the range or held back in it: either way capped.  When
	 * the range was every core, the search saw them all.
	 */
	if (held) {
		*capped = true;
	} else if (len < n || map) {
		/* Not every core looked at: no note that none fits. */
		whole = !*capped;
		if (whole && any_fit(s, &nd, rr, found < 0 ? n :
				     ring_dist(s, rr, (u32)found))) {
			fits = true;
			*capped = true;
		}
	}
	if (found >= 0) {
		s->rr_core = (u32)found + 1 == n ? 0 : (u32)found + 1;
		return found;
	}
	/* Only resources, not a policy's cap, held it back. */
	if (!fits && whole)
		ki->nofit_gen = s->res_gen + 1;
	return -1;
}

/*
 * In the done callback: when the kernel being reported placed its first
 * TB or warp (its arrival if it never ran).  A queue scheduler times a
 * kernel's run from there, without the time it queued behind others.
 */
u64 edge_simt_done_started(const struct edge_simt *s)
{
	const struct edge_kinst *ki = s->reporting;

	if (!ki)
		return s->eng->now;
	return ki->started ? ki->first_start : ki->arrival;
}

/* In the done callback: the reported kernel's TB-time on cores. */
u64 edge_simt_done_tb_ns(const struct edge_simt *s)
{
	return s->reporting ? s->reporting->tb_ns : 0;
}

/* Kernel finished: report, account, recycle. */
void edge_simt_kernel_done(struct edge_simt *s, struct edge_kinst *ki,
			   u32 code)
{
	struct edge_tag_stats *t = &s->st.tag[ki->tag];
	u64 run = s->eng->now - ki->arrival;

	t->done++;
	if (!ki->ewarp && s->tbp->kernel_end)
		s->tbp->kernel_end(s, ki);
	if (ki->iso_ns && run) {
		u64 iso = ki->iso_ns;

		/*
		 * Both below 2^32 ns (4.3 s), as nearly every kernel: the
		 * ratios need no scaling, so one test stands for the two
		 * that edge_simt_ratio_milli() makes in each call.
		 */
		if (!((run | iso) >> 32)) {
			t->slowdown_sum_milli += edge_div64(run * 1000, (u32)iso);
			t->progress_sum_milli += edge_div64(iso * 1000, (u32)run);
		} else {
			t->slowdown_sum_milli += edge_simt_ratio_milli(run, iso);
			t->progress_sum_milli += edge_simt_ratio_milli(iso, run);
		}
	}
	s->st.kernels_done++;
	s->reporting = ki;
	if (s->done)
		s->done(s->ctx, ki->cookie, code);
	s->reporting = NULL;
	edge_simt_ki_free(s, ki);
}

void edge_simt_tb_release(struct edge_simt *s, struct edge_tb *tb)
{
	struct edge_core *c = &s->cores[tb->core];
	const struct edge_kdesc *k = &tb->ki->k;

	edge_simt_gave_back(s, tb->core);
	c->tbs--;
	edge_simt_core_threads_as(s, tb->core,
				  -(s32)(k->warps_per_tb * s->p->warp_size),
				  true);
	c->warps -= k->warps_per_tb;
	c->regs -= edge_simt_tb_regs(s, k);
	c->smem -= k->smem_per_block;
	s->bw_resident -= k->mem_bw_mbs;
	/* Its place goes to the core's last TB (the order others keep). */
	c->tb[tb->slot] = c->tb[--c->nr_tbs];
	c->tb[tb->slot]->slot = tb->slot;
	edge_simt_kcount_sub(s, tb->core, tb->ki);
	edge_simt_occ_changed(s, tb->core);
	if (s->tbp->tb_end)
		s->tbp->tb_end(s, tb);
	EDGE_TRACE_SIM(s->eng, EDGE_TP_TB_END, tb->ki->cookie, tb->core, tb->idx);
	tb->used = false;
	tb->gen++;		/* its queued completion is now stale */
	s->free_tbs[s->nr_free_tbs++] = tb->idx;
}

void edge_simt_tb_finish(struct edge_simt *s, struct edge_tb *tb)
{
	struct edge_kinst *ki = tb->ki;

	ki->tb_ns += s->eng->now - tb->start;
	edge_simt_tb_release(s, tb);
	s->st.tbs_done++;
	ki->tbs_running--;
	ki->tbs_done++;
	if (ki->tbs_done == ki->k.num_tbs)
		edge_simt_kernel_done(s, ki, EDGE_CQE_DONE);
}

/*
 * Launch a kernel.  Returns -EBUSY when its queue (KMU, or the pending
 * event warp queue) is full; nothing changes then.
 */
int edge_simt_launch(struct edge_simt *s, const struct edge_kdesc *k,
		     u64 cookie, u32 tag)
{
	int ret = edge_simt_launch_deferred(s, k, cookie, tag);

	if (!ret)
		edge_simt_schedule(s);
	return ret;
}

/*
 * Launch without a scheduling pass: a batch of launches at one instant
 * (a doorbell's worth) then needs one edge_simt_schedule() at the end.
 */
int edge_simt_launch_deferred(struct edge_simt *s, const struct edge_kdesc *k,
			      u64 cookie, u32 tag)
{
	return edge_simt_launch_ranked(s, k, cookie, tag, 0);
}

/*
 * Launch with a queue scheduler's @rank (smaller first) that orders it
 * among kernels of its priority, before launch order; deferred like
 * edge_simt_launch_deferred().
 */
int edge_simt_launch_ranked(struct edge_simt *s, const struct edge_kdesc *k,
			    u64 cookie, u32 tag, u64 rank)
{
	return edge_simt_launch_as(s, k, 0, cookie, tag < EDGE_SIMT_TAGS ? tag :
				   EDGE_SIMT_TAGS - 1, rank,
				   edge_simt_is_ewarp(s, k));
}

/* A TB kernel left the queues: let one from the KMU into the KDU. */
void edge_simt_kdu_leave(struct edge_simt *s, struct edge_kinst *ki)
{
	if (!ki->counted)
		return;
	ki->counted = false;
	s->kdu_len--;
	if (s->kmu_len) {
		s->kmu_len--;
		s->kdu_len++;
	}
}

/* Place a queued event warp; placed, it leaves the queue. */
static inline bool place_ewarp(struct edge_simt *s, struct edge_kinst *ki)
{
	if (!edge_preempt_place(s, ki))
		return false;
	edge_simt_queue_out(s, ki);
	edge_simt_ew_dequeued(s, ki);
	return true;
}

/*
 * The pass's walk of the queue from @ki, in priority order.  Out of line:
 * a pass of one event warp needs none of its state.
 */
static noinline void schedule_walk(struct edge_simt *s, struct edge_kinst *ki)
{
	struct edge_kinst *next;
	bool reserve = s->cfg.sched == EDGE_SCHED_RESERVE;
	s32 block_prio = -1;	/* waiting events hold back TBs up to this */
	bool tbs_blocked = false, ew_failed = false, capped;
	u32 fail_regs = 0, fail_smem = 0;

	for (; ki; ki = next) {
		next = ki->next;
		if (ki->ewarp) {
			/* Victims are chosen by how far their TBs have run. */
			settle_pass(s);
			/*
			 * Within a pass resources only shrink: an event warp
			 * needing at least what one that failed needed fails
			 * too, without costing a search of every core.  A
			 * failed placement draws no random number, so skipping
			 * it changes nothing else.
			 */
			if (ew_failed && ki->k.regs_per_thread >= fail_regs &&
			    ki->k.smem_per_block >= fail_smem) {
				/*
				 * Without reservation nothing behind it can
				 * be placed when no queued event warp needs
				 * less: TB kernels are held back by this one's
				 * priority, event warps fail as it did.  The
				 * walk would only count each as waited: count
				 * them all at once.
				 */
				if (!reserve && s->ew_min_regs >= fail_regs &&
				    s->ew_min_smem >= fail_smem) {
					edge_preempt_waited_all(s);
					break;
				}
				edge_preempt_waited(s, ki);
			} else if (place_ewarp(s, ki)) {
				continue;
			} else {
				ew_failed = true;
				fail_regs = ki->k.regs_per_thread;
				fail_smem = ki->k.smem_per_block;
			}
			if (!reserve && (s32)ki->k.priority > block_prio)
				block_prio = ki->k.priority;
			continue;
		}
		/*
		 * Head of line: a TB kernel that cannot place its next TB
		 * holds back the TB kernels behind it.  Under reservation the
		 * event warps behind it still go on: they use other cores.
		 */
		if (tbs_blocked)
			continue;
		/* Draining: no lower- or equal-priority TB passes a waiting event. */
		if ((s32)ki->k.priority <= block_prio) {
			tbs_blocked = true;
			continue;
		}
		capped = false;
		while (ki->tbs_dispatched < ki->k.num_tbs) {
			int core = find_core_for_tb(s, ki, &capped);

			if (core < 0)
				break;
			start_tb(s, ki, (u32)core);
		}
		/* Held back by its policy's cap, not by a full GPU. */
		if (ki->tbs_dispatched < ki->k.num_tbs && capped)
			continue;
		if (ki->tbs_dispatched < ki->k.num_tbs) {
			tbs_blocked = true;
			if (!reserve)
				break;	/* FIFO: events behind it wait too */
			continue;
		}
		edge_simt_queue_out(s, ki);
		edge_simt_kdu_leave(s, ki);
	}
}

/*
 * The SIMT-core scheduler: place what can be placed, in priority order.
 */
void edge_simt_schedule(struct edge_simt *s)
{
	struct edge_kinst *ki = s->queue;
	bool tail = s->tail_pass;

	s->tail_pass = false;
	/*
	 * Nothing queued: a pass places nothing (TBs are settled by each),
	 * but a TB that left may have changed its core's rates (retime.c).
	 */
	if (!ki) {
		edge_simt_retime(s);
		return;
	}
	s->defer_launch = tail && !s->in_deferred && s->eng->pops_next;
	/*
	 * One event warp queued (an idle GPU's every pass): what the walk
	 * does with it, without the walk's state.
	 */
	if (!ki->next && ki->ewarp) {
		/* Victims are chosen by how far their TBs have run. */
		settle_pass(s);
		place_ewarp(s, ki);
	} else {
		schedule_walk(s, ki);
	}
	settle_pass(s);
	s->defer_launch = false;
	if (s->nr_deferred)
		edge_preempt_run_deferred(s);
}

static void on_ready(struct edge_simt *s, const struct edge_ev *ev)
{
	struct edge_kinst *ki = &s->ki[ev->obj];

	if (!ki->used || ki->gen != ev->gen)
		return;
	edge_simt_queue_in(s, ki);
	edge_simt_ew_queued(s, ki);
	edge_simt_schedule_tail(s);
}

static void on_tb_done(struct edge_simt *s, const struct edge_ev *ev)
{
	struct edge_tb *tb = &s->tbs[ev->obj];

	if (!tb->used || tb->gen != ev->gen)
		return;
	/* Its end moved while it lent warps: one completion, queued again. */
	if (tb->end > s->eng->now) {
		edge_simt_tb_reschedule(s, tb);
		return;
	}
	/* Preempted: flushed and saved, it leaves its core. */
	if (tb->suspending) {
		edge_simt_tb_suspended(s, tb);
		return;
	}
	/* A warp still lent to an event warp: finish when it returns. */
	if (tb->preempted) {
		tb->done_pending = true;
		return;
	}
	edge_simt_tb_finish(s, tb);
	edge_simt_schedule_tail(s);
}

/* edge_simt_handle() but an event warp's step (simt.h). */
bool edge_simt_handle_other(struct edge_simt *s, const struct edge_ev *ev)
{
	switch (ev->kind) {
	case EDGE_EV_READY:
		on_ready(s, ev);
		return true;
	case EDGE_EV_TB_DONE:
		on_tb_done(s, ev);
		return true;
	default:
		return false;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle shared by the fuzz targets; see fuzz_common.h.
 *
 * Completions are seen twice: in user memory (what a user reaps) and at
 * the call itself, since every target is linked with
 * -Wl,--wrap=edge_ring_complete.  model.c's calls into ring.c then go
 * through __wrap_edge_ring_complete() below, which checks each completion
 * against the events the oracle knows are in flight, as it happens, so two
 * completions of one slot between two looks cannot hide each other.
 */
#include "fuzz_common.h"
#include "fuzz_alloc.h"

void __real_edge_ring_complete(struct edge_ring *r, u32 seq, u32 code,
			       u32 res);
void __wrap_edge_ring_complete(struct edge_ring *r, u32 seq, u32 code,
			       u32 res);
void __real_edge_ring_complete_quiet(struct edge_ring *r, u32 seq, u32 code,
				     u32 res);
void __wrap_edge_ring_complete_quiet(struct edge_ring *r, u32 seq, u32 code,
				     u32 res);

static struct fz_ctx *fz_cur;

/*
 * The front end steps with a budget of model events (drv/frontend.c);
 * an emul/ from before edge_model_run_budget() has only run_until().
 */
u32 edge_model_run_budget(struct edge_model *m, u64 until, u32 budget)
	__attribute__((weak));

bool fz_have_run_budget(void)
{
	return edge_model_run_budget != NULL;
}

static u32 *word(void *base, u32 off)
{
	return (u32 *)((u8 *)base + off);
}

static struct edge_ekt_entry *ent_of(struct fz_ctx *c, const struct fz_ring *r)
{
	return &c->m->ekt.e[r->id];
}

static void notify(void *owner, u32 id)
{
	struct fz_ring *r = owner;

	FZ_ASSERT(fz_cur, "notification outside a model call");
	FZ_ASSERT(id < EDGE_EKT_ENTRIES, "id %u", id);
	FZ_ASSERT(fz_cur->by_id[id] == r && r->live,
		  "notify(%p, %u) for a ring not registered there", owner, id);
	r->nnotes++;
	fz_cur->notes++;
}

static struct fz_ring *ring_of(struct fz_ctx *c, const struct edge_ring *er)
{
	u32 i;

	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		if (c->by_id[i] && &c->m->ekt.e[i].ring == er)
			return c->by_id[i];
	return NULL;
}

static int pend_find(const struct fz_ring *r, u32 seq)
{
	u32 i;

	for (i = 0; i < r->npend; i++)
		if (r->pend[i] == seq)
			return (int)i;
	return -1;
}

static void pend_add(struct fz_ring *r, u32 seq)
{
	u32 i;

	FZ_ASSERT(r->npend < r->entries,
		  "ring %u: more than %u events in flight", r->id, r->entries);
	for (i = 0; i < r->npend; i++) {
		/* Not even for a producer that rings unreaped slots. */
		if ((r->pend[i] & r->mask) == (seq & r->mask)) {
			r->collisions++;
			FZ_ASSERT(0,
				  "ring %u: seq %u consumed into the slot of seq %u, still in flight",
				  r->id, seq, r->pend[i]);
		}
	}
	r->pend[r->npend++] = seq;
}

static void fz_completed(struct edge_ring *er, u32 seq, u32 code, u32 res);

void __wrap_edge_ring_complete(struct edge_ring *er, u32 seq, u32 code,
			       u32 res)
{
	__real_edge_ring_complete(er, seq, code, res);
	fz_completed(er, seq, code, res);
}

/* A batched warp's requests: the same checks, the count published later. */
void __wrap_edge_ring_complete_quiet(struct edge_ring *er, u32 seq, u32 code,
				     u32 res)
{
	__real_edge_ring_complete_quiet(er, seq, code, res);
	fz_completed(er, seq, code, res);
}

static void fz_completed(struct edge_ring *er, u32 seq, u32 code, u32 res)
{
	struct fz_ctx *c = fz_cur;
	struct fz_ring *r;
	struct edge_cqe *cqe;
	u32 slot;
	int i;

	if (!c)
		return;
	r = ring_of(c, er);
	FZ_ASSERT(r, "completion on a ring the harness did not register");
	FZ_ASSERT(c->cur == FZ_STEP_RUN || c->cur == FZ_STEP_CANCEL,
		  "completion during a call that may not complete (%d)", c->cur);
	i = pend_find(r, seq);
	FZ_ASSERT(i >= 0, "ring %u: completion of seq %u, not in flight (head %u)",
		  r->id, seq, r->head);
	r->pend[i] = r->pend[--r->npend];
	if (c->cur == FZ_STEP_CANCEL && r == c->cancelling) {
		FZ_ASSERT(code == EDGE_CQE_CANCELLED && res == ECANCELED,
			  "cancel completed seq %u with %u/%u", seq, code, res);
		r->cancelled++;
		c->cancelled++;
	} else {
		/*
		 * A run, or another entry during a cancel: dropping a
		 * cancelled event warp gives its victim TB its warp back,
		 * and a TB that had ended meanwhile finishes then
		 * (preempt.c ew_release()), maybe its whole kernel.  NOP and
		 * ECHO on an entry of >= 8 bytes always succeed.
		 */
		FZ_ASSERT(code == EDGE_CQE_DONE, "seq %u code %u", seq, code);
		if (!r->hostile)
			FZ_ASSERT(res == (r->k.func == EDGE_FN_ECHO ?
					  r->val[seq & r->mask] : 0),
				  "ring %u seq %u: res %#x, wrote %#x", r->id,
				  seq, res, r->val[seq & r->mask]);
		r->done++;
		c->done++;
	}
	/* What the user reads now. */
	slot = seq & r->mask;
	cqe = (struct edge_cqe *)((u8 *)r->mem.cq + r->mem.layout.cq_cqes) + slot;
	FZ_ASSERT(cqe->status == EDGE_CQE_STATUS(code, seq) && cqe->res == res,
		  "cqe %u holds %#x/%#x after completing seq %u", slot,
		  cqe->status, cqe->res, seq);
	r->touched[slot] = 1;
	r->exp_status[slot] = cqe->status;
	r->exp_res[slot] = res;
	r->ncompl++;
}

static void *build_model(void *arg)
{
	struct edge_model *m = fz_zalloc(sizeof(*m));
	int ret;

	FZ_ASSERT(m, "out of memory");
	ret = edge_model_init(m, arg, notify);
	FZ_ASSERT(!ret, "edge_model_init: %d", ret);
	return m;
}

static void teardown_model(void *obj)
{
	edge_model_fini(obj);
	fz_free(obj);
}

void fz_prepare(const char *const *presets, unsigned int n)
{
	unsigned int i;

	fz_alloc_keep(true);
	for (i = 0; i < n; i++) {
		const struct edge_preset *p = edge_preset_find(presets[i]);

		FZ_ASSERT(p, "preset %s", presets[i]);
		fz_alloc_check_reuse(build_model, teardown_model, (void *)p,
				     p->name);
	}
}

void fz_input_done(void)
{
	FZ_ASSERT(!fz_alloc_in_use(), "%u large blocks never freed",
		  fz_alloc_in_use());
}

int fz_model_init(struct fz_ctx *c, const struct edge_preset *p)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->simt_check_every = 16;
	c->run_budget = FZ_RUN_BUDGET;
	c->m = calloc(1, sizeof(*c->m));
	c->db = calloc(EDGE_EKT_ENTRIES, sizeof(u32));
	FZ_ASSERT(c->m && c->db, "out of memory");
	ret = edge_model_init(c->m, p, notify);
	FZ_ASSERT(!ret, "edge_model_init: %d", ret);
	c->ki_evs = calloc(1, c->m->simt.nr_ki);
	c->tb_evs = calloc(1, c->m->simt.nr_tbs);
	c->ew_evs = calloc(1, p->num_cores * EDGE_EWARP_PER_CORE);
	FZ_ASSERT(c->ki_evs && c->tb_evs && c->ew_evs, "out of memory");
	fz_cur = c;
	return 0;
}

void fz_model_fini(struct fz_ctx *c)
{
	struct edge_model_stats *st = &c->m->st;
	u32 i;

	fz_check_simt(c);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		struct fz_ring *r = c->by_id[i];

		if (r && r->live) {
			fz_cancel(c, r);
			fz_ring_free(r);
		}
	}
	/* Everything is accounted for, and nothing is left anywhere. */
	FZ_ASSERT(c->m->inflight == 0, "in flight %u", c->m->inflight);
	FZ_ASSERT(st->submitted == st->completed + st->errors + st->rejected +
		  st->cancelled, "submitted %llu != %llu + %llu + %llu + %llu",
		  (unsigned long long)st->submitted,
		  (unsigned long long)st->completed,
		  (unsigned long long)st->errors,
		  (unsigned long long)st->rejected,
		  (unsigned long long)st->cancelled);
	FZ_ASSERT(edge_simt_idle(&c->m->simt), "SIMT model not idle");
	fz_check_simt(c);
	FZ_ASSERT(c->m->ekt.used == 0, "EKT holds %u", c->m->ekt.used);
	edge_model_fini(c->m);
	free(c->m);
	free(c->db);
	free(c->ki_evs);
	free(c->tb_evs);
	free(c->ew_evs);
	fz_cur = NULL;
	memset(c, 0, sizeof(*c));
}

int fz_kdesc(const struct edge_preset *p, struct edge_kdesc *k, u32 func,
	     u32 prio, u32 grid_x, u32 block_x, u32 regs, u32 smem,
	     u32 psz, u32 entries, u64 cycles, const struct edge_warp_state *ws)
{
	struct edge_register r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.func = func;
	r.priority = prio;
	r.grid_x = grid_x;
	r.grid_y = 1;
	r.grid_z = 1;
	r.block_x = block_x;
	r.block_y = 1;
	r.block_z = 1;
	r.regs_per_thread = regs;
	r.smem_per_block = smem;
	r.param_size = psz;
	r.ring_entries = entries;
	r.warp_cycles = cycles;
	if (ws)
		r.ws = *ws;
	return edge_validate_register(p, &r, k);
}

void fz_ring_free(struct fz_ring *r)
{
	fz_free(r->mem.sq);
	fz_free(r->mem.cq);
	fz_free(r->sq_shadow);
	fz_free(r->cq_shadow);
	fz_free(r->pend);
	fz_free(r->val);
	fz_free(r->touched);
	fz_free(r->exp_status);
	fz_free(r->exp_res);
	memset(r, 0, sizeof(*r));
}

int fz_ring_register(struct fz_ctx *c, struct fz_ring *r,
		     const struct edge_kdesc *k, bool hostile)
{
	struct edge_ring_layout *l = &r->mem.layout;
	u32 id = ~0U, i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->k = *k;
	r->entries = k->ring_entries;
	r->mask = k->ring_entries - 1;
	r->hostile = hostile;
	edge_ring_layout(k->ring_entries, k->param_size, FZ_PAGE, l);

	/* The layout the ABI promises (struct edge_sq/cq_offsets). */
	FZ_ASSERT(l->sq_size % FZ_PAGE == 0 && l->cq_size % FZ_PAGE == 0,
		  "sizes %u %u", l->sq_size, l->cq_size);
	FZ_ASSERT((u64)l->sq_entries + (u64)k->ring_entries * k->param_size <=
		  l->sq_size, "params overflow the SQ mapping");
	FZ_ASSERT((u64)l->cq_cqes + (u64)k->ring_entries *
		  sizeof(struct edge_cqe) <= l->cq_size, "cqes overflow the CQ");
	FZ_ASSERT(l->sq_head % 4 == 0 && l->sq_flags % 4 == 0 &&
		  l->sq_head + 4 <= l->sq_entries &&
		  l->sq_flags + 4 <= l->sq_entries && l->sq_head != l->sq_flags,
		  "sq words");
	FZ_ASSERT(l->cq_head % 4 == 0 && l->cq_tail % 4 == 0 &&
		  l->cq_head / 64 != l->cq_tail / 64 &&
		  l->cq_head + 4 <= l->cq_cqes && l->cq_tail + 4 <= l->cq_cqes &&
		  l->cq_cqes % 8 == 0 && l->sq_entries % 8 == 0, "cq words");

	/*
	 * Exact sizes: ASan's redzones guard the ends (of a kept block too,
	 * fuzz_alloc.c; up to 4 MiB of parameters, faulted in once).
	 */
	r->mem.doorbells = c->db;
	r->mem.sq = fz_zalloc(l->sq_size);
	r->mem.cq = fz_zalloc(l->cq_size);
	r->sq_shadow = fz_zalloc(l->sq_size);
	r->cq_shadow = fz_zalloc(l->cq_size);
	r->pend = fz_zalloc(r->entries * sizeof(u32));
	r->val = fz_zalloc(r->entries * sizeof(u32));
	r->touched = fz_zalloc(r->entries);
	r->exp_status = fz_zalloc(r->entries * sizeof(u32));
	r->exp_res = fz_zalloc(r->entries * sizeof(u32));
	FZ_ASSERT(r->mem.sq && r->mem.cq && r->sq_shadow && r->cq_shadow &&
		  r->pend && r->val && r->touched && r->exp_status &&
		  r->exp_res, "out of memory");

	c->cur = FZ_STEP_NONE;
	ret = edge_model_register(c->m, k, &r->mem, r, &id);
	if (ret) {
		FZ_ASSERT(ret == -EBUSY && c->m->ekt.used == c->m->ekt.n,
			  "register: %d with %u used", ret, c->m->ekt.used);
		fz_ring_free(r);
		return ret;
	}
	FZ_ASSERT(id < EDGE_EKT_ENTRIES && !c->by_id[id], "id %u", id);
	r->id = id;
	r->live = true;
	c->by_id[id] = r;
	/* It wrote its doorbell word (0) and its flags word, nothing else. */
	FZ_ASSERT(c->db[id] == 0, "doorbell %u holds %u", id, c->db[id]);
	c->db_shadow[id] = 0;
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		FZ_ASSERT(c->db[i] == c->db_shadow[i], "doorbell %u changed", i);
	FZ_ASSERT(*word(r->mem.sq, l->sq_flags) == c->m->sq_flags,
		  "new ring's flags %#x, front end's %#x",
		  *word(r->mem.sq, l->sq_flags), c->m->sq_flags);
	*word(r->sq_shadow, l->sq_flags) = c->m->sq_flags;
	FZ_ASSERT(!memcmp(r->mem.sq, r->sq_shadow, l->sq_size), "sq written");
	FZ_ASSERT(!memcmp(r->mem.cq, r->cq_shadow, l->cq_size), "cq written");
	FZ_ASSERT(ent_of(c, r)->ring.head == 0 &&
		  ent_of(c, r)->ring.published == 0, "ring starts at 0");
	return 0;
}

/*
 * Compare a whole mapping with its shadow after this call?  Always for
 * small ones; a large one (up to 4 MiB of parameters) after the first 32
 * calls, then every simt_check_every-th call, and at its teardown: a stray
 * write stays until looked at, unless the harness overwrites that byte.
 */
static bool full_look(const struct fz_ctx *c, u32 size)
{
	return size <= 65536 || c->steps <= 32 ||
	       c->steps % c->simt_check_every == 0;
}

/* Consumption the model did in this call: [r->head, new head). */
static void check_consumed(struct fz_ctx *c, struct fz_ring *r, bool may,
			   u32 h1)
{
	u32 d = h1 - r->head, s;

	if (!may)
		FZ_ASSERT(d == 0, "ring %u: head moved by %u outside poll/cancel",
			  r->id, d);
	/* Forward only, at most a ring's worth, never past the tail. */
	FZ_ASSERT(d <= r->entries, "ring %u: head moved by %u (ring of %u)",
		  r->id, d, r->entries);
	FZ_ASSERT(d <= (u32)(c->db[r->id] - r->head),
		  "ring %u: consumed %u, only %u rung", r->id, d,
		  c->db[r->id] - r->head);
	for (s = r->head; s != h1; s++) {
		pend_add(r, s);
		r->consumed++;
		c->consumed++;
	}
	r->head = h1;
}

static void check_ring(struct fz_ctx *c, struct fz_ring *r, enum fz_step step,
		       bool cancelled)
{
	struct edge_ekt_entry *ent = ent_of(c, r);
	const struct edge_ring_layout *l = &r->mem.layout;
	bool may_consume = step == FZ_STEP_POLL || cancelled;
	/* See __wrap_edge_ring_complete(): a cancel may finish others' TBs. */
	bool may_complete = step == FZ_STEP_RUN || step == FZ_STEP_CANCEL;
	struct edge_cqe *cqes;
	u32 sqh, sqf, cqt, slot, np;

	if (cancelled) {
		FZ_ASSERT(!ent->used, "cancelled entry %u still used", r->id);
	} else {
		FZ_ASSERT(ent->used && ent->owner == r && ent->id == r->id,
			  "entry %u lost", r->id);
		check_consumed(c, r, may_consume, ent->ring.head);
	}

	/* SQ: the model writes its head (poll, cancel) and flags only. */
	sqh = *word(r->mem.sq, l->sq_head);
	sqf = *word(r->mem.sq, l->sq_flags);
	if (may_consume)
		FZ_ASSERT(sqh == r->head, "ring %u: sq head word %u, head %u",
			  r->id, sqh, r->head);
	else
		FZ_ASSERT(sqh == *word(r->sq_shadow, l->sq_head),
			  "ring %u: sq head word written outside poll", r->id);
	if (step == FZ_STEP_FLAGS)
		FZ_ASSERT(sqf == c->flags, "ring %u: flags %#x, set %#x",
			  r->id, sqf, c->flags);
	else
		FZ_ASSERT(sqf == *word(r->sq_shadow, l->sq_flags),
			  "ring %u: flags word written (%#x)", r->id, sqf);
	*word(r->sq_shadow, l->sq_head) = sqh;
	*word(r->sq_shadow, l->sq_flags) = sqf;
	if (full_look(c, l->sq_size) || cancelled)
		FZ_ASSERT(!memcmp(r->mem.sq, r->sq_shadow, l->sq_size),
			  "ring %u: the model wrote SQ memory it does not own",
			  r->id);

	/* CQ: what the completions wrote, and the published count. */
	np = ent->ring.published - r->published;
	if (!may_complete)
		FZ_ASSERT(np == 0 && r->ncompl == 0,
			  "ring %u: %u completions outside run/cancel", r->id, np);
	FZ_ASSERT(np == r->ncompl, "ring %u: published %u, completed %u",
		  r->id, np, r->ncompl);
	if (np)
		FZ_ASSERT(r->nnotes, "ring %u: %u completions, no notification",
			  r->id, np);
	cqes = (struct edge_cqe *)((u8 *)r->mem.cq + l->cq_cqes);
	for (slot = 0; slot < r->entries; slot++) {
		if (r->touched[slot]) {
			FZ_ASSERT(cqes[slot].status == r->exp_status[slot] &&
				  cqes[slot].res == r->exp_res[slot],
				  "ring %u cqe %u changed after its completion",
				  r->id, slot);
			/* Reaped: the model never reads a cqe back. */
			cqes[slot].status = 0;
			cqes[slot].res = 0;
			r->touched[slot] = 0;
		}
	}
	cqt = *word(r->mem.cq, l->cq_tail);
	if (np)
		FZ_ASSERT(cqt == ent->ring.published, "ring %u: cq tail %u, published %u",
			  r->id, cqt, ent->ring.published);
	else
		FZ_ASSERT(cqt == *word(r->cq_shadow, l->cq_tail),
			  "ring %u: cq tail written without a completion", r->id);
	*word(r->cq_shadow, l->cq_tail) = cqt;
	if (full_look(c, l->cq_size) || cancelled)
		FZ_ASSERT(!memcmp(r->mem.cq, r->cq_shadow, l->cq_size),
			  "ring %u: the model wrote CQ memory it does not own",
			  r->id);
	r->published = ent->ring.published;
	r->ncompl = 0;
	r->nnotes = 0;

	if (cancelled) {
		FZ_ASSERT(r->npend == 0, "ring %u: %u events never completed",
			  r->id, r->npend);
	} else {
		FZ_ASSERT(ent->inflight == r->npend,
			  "ring %u: model has %u in flight, oracle %u", r->id,
			  ent->inflight, r->npend);
		FZ_ASSERT(ent->inflight <= r->entries, "in flight %u > %u",
			  ent->inflight, r->entries);
	}
}

void fz_check_accounting(struct fz_ctx *c)
{
	const struct edge_model_stats *st = &c->m->st;
	u32 i, sum = 0;

	for (i = 0; i < c->m->ekt.n; i++)
		if (c->m->ekt.e[i].used)
			sum += c->m->ekt.e[i].inflight;
	FZ_ASSERT(sum == c->m->inflight, "entries hold %u, model %u", sum,
		  c->m->inflight);
	FZ_ASSERT(st->submitted == c->consumed, "submitted %llu, consumed %llu",
		  (unsigned long long)st->submitted,
		  (unsigned long long)c->consumed);
	FZ_ASSERT(st->completed == c->done && st->errors == 0 &&
		  st->rejected == 0, "completed %llu, oracle %llu",
		  (unsigned long long)st->completed,
		  (unsigned long long)c->done);
	FZ_ASSERT(st->cancelled == c->cancelled, "cancelled %llu, oracle %llu",
		  (unsigned long long)st->cancelled,
		  (unsigned long long)c->cancelled);
	FZ_ASSERT(st->submitted == st->completed + st->errors + st->rejected +
		  st->cancelled + c->m->inflight, "accounting");
}

void fz_after(struct fz_ctx *c, enum fz_step step, struct fz_ring *cancelled)
{
	u32 i;

	c->steps++;
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		FZ_ASSERT(c->db[i] == c->db_shadow[i],
			  "the model wrote doorbell %u", i);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		struct fz_ring *r = c->by_id[i];

		if (r && r->live)
			check_ring(c, r, step, r == cancelled);
	}
	FZ_ASSERT(edge_model_now(c->m) >= c->last_now, "time went back");
	/* Nothing placed under an older policy is left: check it all again. */
	if (c->cfg_changed && edge_simt_idle(&c->m->simt))
		c->cfg_changed = false;
	c->last_now = edge_model_now(c->m);
	fz_check_accounting(c);
	/* Every call at first, then every simt_check_every-th (speed). */
	if (c->steps <= 32 || c->simt_check_every <= 1 ||
	    c->steps % c->simt_check_every == 0)
		fz_check_simt(c);
	c->cur = FZ_STEP_NONE;
}

u32 fz_poll(struct fz_ctx *c)
{
	u32 n;

	c->cur = FZ_STEP_POLL;
	n = edge_model_poll(c->m);
	fz_after(c, FZ_STEP_POLL, NULL);
	return n;
}

u32 fz_run_until(struct fz_ctx *c, u64 until)
{
	u32 n;

	c->cur = FZ_STEP_RUN;
	if (fz_have_run_budget())
		n = edge_model_run_budget(c->m, until, c->run_budget);
	else
		n = edge_model_run_until(c->m, until);
	fz_after(c, FZ_STEP_RUN, NULL);
	return n;
}

void fz_advance(struct fz_ctx *c, u64 now)
{
	c->cur = FZ_STEP_NONE;
	edge_model_advance(c->m, now);
	fz_after(c, FZ_STEP_NONE, NULL);
}

void fz_set_sq_flags(struct fz_ctx *c, u32 flags)
{
	c->cur = FZ_STEP_FLAGS;
	c->flags = flags;
	edge_model_set_sq_flags(c->m, flags);
	fz_after(c, FZ_STEP_FLAGS, NULL);
}

/*
 * Cancel: what was rung and not consumed is consumed and cancelled in the
 * same call, so the oracle takes it in flight first: min(tail - head,
 * free slots), up to the first slot still in flight, computed here from
 * the doorbell and the oracle's own in-flight list, not by the model's
 * code.
 */
u32 fz_cancel(struct fz_ctx *c, struct fz_ring *r)
{
	struct edge_ekt_entry *ent = ent_of(c, r);
	u32 avail = c->db[r->id] - r->head, room, rung, n, infl, s;

	FZ_ASSERT(r->live, "cancel of a dead ring");
	infl = ent->inflight;
	room = r->entries - infl;
	rung = avail < room ? avail : room;
	/* ... and up to the first slot whose event is still in flight. */
	for (s = r->head; s != r->head + rung; s++) {
		u32 i;

		for (i = 0; i < r->npend; i++)
			if ((r->pend[i] & r->mask) == (s & r->mask))
				break;
		if (i < r->npend)
			break;
	}
	rung = s - r->head;
	for (s = r->head; s != r->head + rung; s++) {
		pend_add(r, s);
		r->consumed++;
		c->consumed++;
	}
	r->head += rung;
	c->cur = FZ_STEP_CANCEL;
	c->cancelling = r;
	n = edge_model_cancel(c->m, r->id);
	c->cancelling = NULL;
	FZ_ASSERT(n == infl + rung, "cancel returned %u, expected %u + %u", n,
		  infl, rung);
	FZ_ASSERT(ent->ring.head == r->head, "cancel: head %u, expected %u",
		  ent->ring.head, r->head);
	fz_after(c, FZ_STEP_CANCEL, r);
	r->live = false;
	c->by_id[r->id] = NULL;
	/* A second cancel finds nothing. */
	FZ_ASSERT(edge_model_cancel(c->m, r->id) == 0, "double cancel");
	return n;
}

/* -EBUSY while anything is in flight or rung, else gone. */
int fz_unregister(struct fz_ctx *c, struct fz_ring *r)
{
	struct edge_ekt_entry *ent = ent_of(c, r);
	u32 avail = c->db[r->id] - r->head;
	bool busy = r->npend || avail;
	int ret;

	FZ_ASSERT(edge_model_unregister(c->m, r->id, (void *)c) == -ENOENT,
		  "unregister by another owner");
	c->cur = FZ_STEP_NONE;
	ret = edge_model_unregister(c->m, r->id, r);
	FZ_ASSERT(ret == (busy ? -EBUSY : 0), "unregister: %d, busy %d", ret,
		  busy);
	if (!ret) {
		FZ_ASSERT(!ent->used, "unregistered entry still used");
		r->live = false;
		c->by_id[r->id] = NULL;
	}
	fz_after(c, FZ_STEP_NONE, NULL);
	return ret;
}

u32 fz_step(struct fz_ctx *c)
{
	u32 n = fz_poll(c);
	u64 t = edge_model_next_time(c->m);

	if (t != EDGE_TIME_NEVER)
		n += fz_run_until(c, t);
	return n;
}

static u32 oldest_unreaped(const struct fz_ring *r)
{
	u32 i, old = r->head;

	for (i = 0; i < r->npend; i++)
		if (r->head - r->pend[i] > r->head - old)
			old = r->pend[i];
	return old;
}

u32 fz_produce(struct fz_ctx *c, struct fz_ring *r, u32 n, u32 seed)
{
	u32 i, old = oldest_unreaped(r);

	for (i = 0; i < n; i++) {
		u32 seq = r->tail, slot = seq & r->mask, v, b;
		u8 *p = (u8 *)r->mem.sq + r->mem.layout.sq_entries +
			(size_t)slot * r->k.param_size;
		u8 *sp = r->sq_shadow + r->mem.layout.sq_entries +
			 (size_t)slot * r->k.param_size;

		/* libedge's rule: the slot's previous event was reaped. */
		if (seq - old >= r->entries)
			break;
		v = seed * 2654435761U ^ seq;
		memcpy(p, &v, sizeof(v));
		for (b = sizeof(v); b < r->k.param_size; b++)
			p[b] = (u8)(v + b);
		memcpy(sp, p, r->k.param_size);
		r->val[slot] = v;
		r->tail++;
	}
	__atomic_store_n(&c->db[r->id], r->tail, __ATOMIC_RELEASE);
	c->db_shadow[r->id] = r->tail;
	return i;
}

bool fz_drain(struct fz_ctx *c, u64 budget)
{
	u64 ran = 0, polls = 0;

	for (;;) {
		u64 t;

		fz_poll(c);
		t = edge_model_next_time(c->m);

		if (t == EDGE_TIME_NEVER) {
			/* Quiet: nothing queued, nothing consumable. */
			return c->m->inflight || edge_model_doorbell_pending(c->m);
		}
		if (ran >= budget || ++polls > 4 * budget)
			return false;
		ran += fz_run_until(c, t);
	}
}

/*
 * selftests/emul/simt_rig.h's rig_check() and rig_check_engine(), for the
 * model's own SIMT instance.  Left out: the dispatch-latency bound (a live
 * dispatch_cycles change moves it) and, after a live configuration change,
 * where event warps and TBs sit under reservation.
 */
void fz_check_simt(struct fz_ctx *c)
{
	const struct edge_simt *s = &c->m->simt;
	const struct edge_engine *e = &c->m->eng;
	const struct edge_preset *p = s->p;
	u32 nslots = p->num_cores * EDGE_EWARP_PER_CORE;
	u32 i, j, cidx, free_tbs = 0, used_ki = 0;

	FZ_ASSERT(e->len <= e->cap, "engine %u > %u", e->len, e->cap);
	memset(c->ki_evs, 0, s->nr_ki);
	memset(c->tb_evs, 0, s->nr_tbs);
	memset(c->ew_evs, 0, nslots);
	for (i = 0; i < e->len; i++) {
		const struct edge_ev *ev = edge_engine_ev(e, i);

		switch (ev->kind) {
		case EDGE_EV_READY: {
			const struct edge_kinst *ki;

			FZ_ASSERT(ev->obj < s->ki_init, "READY obj %u", ev->obj);
			ki = &s->ki[ev->obj];
			FZ_ASSERT(ki->used && ki->gen == ev->gen, "stale READY");
			c->ki_evs[ev->obj]++;
			break;
		}
		case EDGE_EV_TB_DONE: {
			const struct edge_tb *tb;

			FZ_ASSERT(ev->obj < s->nr_tbs, "TB_DONE obj %u", ev->obj);
			tb = &s->tbs[ev->obj];
			FZ_ASSERT(tb->used && tb->gen == ev->gen,
				  "stale TB_DONE of tb %u", ev->obj);
			FZ_ASSERT(ev->time <= tb->end, "TB_DONE after its end");
			c->tb_evs[ev->obj]++;
			break;
		}
		case EDGE_EV_EWARP: {
			const struct edge_ewarp *ew;

			FZ_ASSERT(ev->obj < nslots, "EWARP obj %u", ev->obj);
			ew = &s->cores[ev->obj / EDGE_EWARP_PER_CORE]
				      .ew[ev->obj % EDGE_EWARP_PER_CORE];
			FZ_ASSERT(ew->state != EDGE_PS_IDLE && ew->gen == ev->gen &&
				  ew->state == ev->aux, "stale EWARP of slot %u",
				  ev->obj);
			c->ew_evs[ev->obj]++;
			break;
		}
		default:
			FZ_ASSERT(0, "event kind %u", ev->kind);
		}
	}
	for (i = 0; i < s->ki_init; i++) {
		const struct edge_kinst *ki = &s->ki[i];
		bool delayed = ki->used && !ki->queued && !ki->placed &&
			       !ki->tbs_dispatched;

		FZ_ASSERT(c->ki_evs[i] == (delayed ? 1 : 0),
			  "kernel %u: %u READY events", i, c->ki_evs[i]);
		used_ki += ki->used;
	}
	FZ_ASSERT(used_ki + s->nr_free_ki == s->nr_ki, "kernel pool leaks");
	for (i = 0; i < s->nr_tbs; i++) {
		const struct edge_tb *tb = &s->tbs[i];

		FZ_ASSERT(c->tb_evs[i] == (tb->used && !tb->done_pending ? 1 : 0),
			  "tb %u: %u TB_DONE events", i, c->tb_evs[i]);
		free_tbs += !tb->used;
	}
	FZ_ASSERT(free_tbs == s->nr_free_tbs, "TB pool leaks");
	for (i = 0; i < nslots; i++)
		FZ_ASSERT(c->ew_evs[i] == (s->cores[i / EDGE_EWARP_PER_CORE]
					   .ew[i % EDGE_EWARP_PER_CORE].state !=
					   EDGE_PS_IDLE ? 1 : 0),
			  "slot %u: %u EWARP events", i, c->ew_evs[i]);

	for (cidx = 0; cidx < p->num_cores; cidx++) {
		const struct edge_core *core = &s->cores[cidx];
		u64 threads = 0, warps = 0, regs = 0, smem = 0;
		bool reserve = s->cfg.sched == EDGE_SCHED_RESERVE &&
			       !c->cfg_changed;

		FZ_ASSERT(core->threads <= p->threads_per_core &&
			  core->warps <= p->threads_per_core / p->warp_size &&
			  core->regs <= p->regs_per_core &&
			  core->smem <= p->smem_per_core &&
			  core->tbs <= p->tb_slots_per_core &&
			  core->tbs == core->nr_tbs, "core %u over its preset",
			  cidx);
		/* The TB search's copies: free threads, and the room bit. */
		FZ_ASSERT(s->core_free[cidx] == (core->reserved ? 0 :
			  p->threads_per_core - core->threads) &&
			  (s->core_free[cidx] >= p->warp_size &&
			   core->tbs < p->tb_slots_per_core) ==
			  !!(s->core_room[cidx / 64] & (1ULL << (cidx % 64))),
			  "core %u: free threads or room bit stale", cidx);
		for (i = 0; i < core->nr_tbs; i++) {
			const struct edge_tb *tb = core->tb[i];
			const struct edge_kdesc *k = &tb->ki->k;
			u32 borrowed = 0;

			FZ_ASSERT(tb->used && tb->core == cidx && tb->slot == i &&
				  tb->ki->used &&
				  tb->kgen == tb->ki->gen && tb->end >= tb->start,
				  "core %u tb %u", cidx, tb->idx);
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
			FZ_ASSERT(borrowed == tb->preempted &&
				  tb->preempted <= tb->warps,
				  "tb %u lent %u warps, slots say %u", tb->idx,
				  tb->preempted, borrowed);
		}
		for (j = 0; j < EDGE_EWARP_PER_CORE; j++) {
			const struct edge_ewarp *ew = &core->ew[j];

			if (ew->state == EDGE_PS_IDLE) {
				FZ_ASSERT(!ew->regs && !ew->smem && !ew->ki,
					  "idle slot %u/%u holds resources",
					  cidx, j);
				continue;
			}
			FZ_ASSERT(ew->state <= EDGE_PS_RESTORE_HW_CTX,
				  "slot state %u", ew->state);
			if (reserve)
				FZ_ASSERT(core->reserved,
					  "event warp on unreserved core %u", cidx);
			regs += ew->regs;
			smem += ew->smem;
			if (!ew->victim) {
				threads += p->warp_size;
				warps++;
			} else if (!ew->orphan) {
				FZ_ASSERT(ew->victim->used &&
					  ew->victim->core == cidx &&
					  ew->victim_gen == ew->victim->gen_id,
					  "slot %u/%u: victim gone", cidx, j);
			}
		}
		if (reserve && core->reserved)
			FZ_ASSERT(core->tbs == 0, "TB on reserved core %u", cidx);
		FZ_ASSERT(threads == core->threads && warps == core->warps &&
			  regs == core->regs && smem == core->smem,
			  "core %u: counters %u/%u/%u/%u, holders %llu/%llu/%llu/%llu",
			  cidx, core->threads, core->warps, core->regs,
			  core->smem, (unsigned long long)threads,
			  (unsigned long long)warps, (unsigned long long)regs,
			  (unsigned long long)smem);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The device model's step functions.
 */
#include "model.h"
#include "func.h"
#include "limits.h"

/*
 * A launched event is known to the SIMT model by a cookie: the EKT index,
 * the entry's generation (so a reused index never takes an old event's
 * completion) and the event's number on its ring.
 */
static u64 cookie_of(const struct edge_ekt_entry *ent, u32 seq)
{
	return ((u64)(ent->gen & 0xffffff) << 40) | ((u64)ent->id << 32) | seq;
}

static void simt_done(void *ctx, u64 cookie, u32 code);

int edge_model_init(struct edge_model *m, const struct edge_preset *p,
		    edge_notify_fn notify)
{
	struct edge_simt_cfg cfg;
	int ret;

	memset(m, 0, sizeof(*m));
	m->preset = p;
	m->notify = notify;
	edge_engine_init(&m->eng);
	ret = edge_ekt_init(&m->ekt, EDGE_EKT_ENTRIES);
	if (ret)
		return ret;
	edge_simt_default_cfg(&cfg);
	ret = edge_simt_init(&m->simt, p, &m->eng, &cfg, simt_done, m);
	if (ret) {
		edge_simt_fini(&m->simt);
		edge_ekt_fini(&m->ekt);
		edge_engine_fini(&m->eng);
	}
	return ret;
}

void edge_model_fini(struct edge_model *m)
{
	u32 i;

	for (i = 0; i < m->ekt.n; i++)
		if (m->ekt.e[i].used)
			edge_model_cancel(m, i);
	edge_simt_fini(&m->simt);
	edge_ekt_fini(&m->ekt);
	edge_engine_fini(&m->eng);
}

int edge_model_set_cfg(struct edge_model *m, const struct edge_simt_cfg *cfg)
{
	return edge_simt_set_cfg(&m->simt, cfg);
}

/*
 * Register an event kernel whose rings live in @mem.  Fails with -EBUSY
 * when the table is full, -EINVAL when the function's table is bad
 * (k->table, read here and not kept), -ENOMEM; nothing changes then.
 */
int edge_model_register(struct edge_model *m, const struct edge_kdesc *k,
			const struct edge_ring_mem *mem, void *owner, u32 *id)
{
	struct edge_ekt_entry *ent;
	void *state;
	int ret;

	if (!edge_ekt_room(&m->ekt))
		return -EBUSY;
	/* The table is the caller's: what the entry keeps is built from it. */
	ret = edge_func_state_new(k->func, k->table, k->table_len, &state);
	if (ret)
		return ret;
	ent = edge_ekt_alloc(&m->ekt);
	ent->k = *k;
	ent->k.table = NULL;
	ent->fn_state = state;
	ent->owner = owner;
	edge_ring_attach(&ent->ring, k->ring_entries, k->param_size,
			 &mem->layout, &mem->doorbells[ent->id], mem->sq,
			 mem->cq);
	/* A ring born while the front end sleeps must say so. */
	edge_ring_set_flags(&ent->ring, m->sq_flags);
	/* A reused doorbell word must not replay its previous user's tail. */
	edge_store_release(&mem->doorbells[ent->id], 0);
	*id = ent->id;
	return 0;
}

static void entry_release(struct edge_model *m, struct edge_ekt_entry *ent)
{
	edge_func_state_free(ent->k.func, ent->fn_state);
	ent->fn_state = NULL;
	edge_ekt_free(&m->ekt, ent);
}

struct cancel_arg {
	u32 id;
	struct edge_ring *ring;
	u32 n;
};

/*
 * Events of an entry complete in any order: the ones the SIMT model
 * drops are exactly those still in flight, so each gets its status here.
 */
static bool cancel_inflight(u64 cookie, void *arg)
{
	struct cancel_arg *c = arg;

	if (((cookie >> 32) & 0xff) != c->id)
		return false;
	edge_ring_complete(c->ring, (u32)cookie, EDGE_CQE_CANCELLED, ECANCELED);
	c->n++;
	return true;
}

/*
 * Unregister an idle entry.  An entry with events in flight, or rung and
 * not yet consumed, is in use: -EBUSY, and the caller retries after its
 * completions.  -ENOENT when @id is not registered by @owner.
 */
int edge_model_unregister(struct edge_model *m, u32 id, void *owner)
{
	struct edge_ekt_entry *ent = edge_ekt_get(&m->ekt, id);

	if (!ent || ent->owner != owner)
		return -ENOENT;
	if (ent->inflight || edge_ring_avail(&ent->ring, 0))
		return -EBUSY;
	entry_release(m, ent);
	return 0;
}

/*
 * Teardown: complete every event of @id as cancelled (those in flight and
 * those rung but not consumed), then free the entry.  Returns how many
 * were cancelled.
 */
u32 edge_model_cancel(struct edge_model *m, u32 id)
{
	struct edge_ekt_entry *ent = edge_ekt_get(&m->ekt, id);
	struct cancel_arg c;
	struct edge_ring *r;
	u32 seq, rung, n;

	if (!ent)
		return 0;
	r = &ent->ring;
	/*
	 * Rung but never consumed: they were submitted, so they get a status.
	 * Only the slots not held by events in flight can hold them, so a
	 * hostile tail never makes us write a slot twice.
	 */
	rung = edge_ring_avail(r, ent->inflight);
	c.id = id;
	c.ring = r;
	c.n = 0;
	edge_simt_cancel(&m->simt, cancel_inflight, &c);
	EDGE_ASSERT(c.n == ent->inflight);
	n = c.n;
	m->inflight -= ent->inflight;
	ent->inflight = 0;
	for (seq = r->head; seq != r->head + rung; seq++) {
		edge_ring_complete(r, seq, EDGE_CQE_CANCELLED, ECANCELED);
		n++;
	}
	edge_ring_consume(r, rung);
	ent->submitted += rung;
	m->st.submitted += rung;
	ent->cancelled += n;
	m->st.cancelled += n;
	if (n && m->notify)
		m->notify(ent->owner, id);
	entry_release(m, ent);
	return n;
}

static u32 poll_entry(struct edge_model *m, struct edge_ekt_entry *ent)
{
	u32 n = edge_ring_avail(&ent->ring, ent->inflight);
	u32 i;

	/* What the queues cannot take stays in the ring: backpressure. */
	for (i = 0; i < n; i++)
		if (edge_simt_launch_deferred(&m->simt, &ent->k,
					      cookie_of(ent, ent->ring.head + i),
					      ent->id))
			break;
	edge_ring_consume(&ent->ring, i);
	ent->inflight += i;
	ent->submitted += i;
	m->inflight += i;
	m->st.submitted += i;
	return i;
}

/*
 * Consume every rung doorbell into the SIMT model's queues, without the
 * scheduling pass; returns the events consumed.  The front end splits
 * the two to time-stamp consumption (drv/kapi.c); a caller of this must
 * call edge_model_schedule() when it returns non-zero.
 */
u32 edge_model_consume(struct edge_model *m)
{
	u32 i, n = 0;

	for (i = 0; i < m->ekt.n; i++)
		if (m->ekt.e[i].used)
			n += poll_entry(m, &m->ekt.e[i]);
	return n;
}

/* One scheduling pass for everything that arrived at this instant. */
void edge_model_schedule(struct edge_model *m)
{
	edge_simt_schedule(&m->simt);
}

/* Consume every rung doorbell and schedule; returns the events dispatched. */
u32 edge_model_poll(struct edge_model *m)
{
	u32 n = edge_model_consume(m);

	if (n)
		edge_model_schedule(m);
	return n;
}

/* The SIMT model finished (or failed) an event: publish it. */
static void simt_done(void *ctx, u64 cookie, u32 code)
{
	struct edge_model *m = ctx;
	u32 id = (cookie >> 32) & 0xff, seq = (u32)cookie;
	struct edge_ekt_entry *ent = edge_ekt_get(&m->ekt, id);
	struct edge_ring *r;
	u32 res = 0;

	/* A cancelled entry's events leave the SIMT model with it. */
	if (!ent || (ent->gen & 0xffffff) != cookie >> 40) {
		EDGE_ASSERT(0);
		return;
	}
	r = &ent->ring;
	if (code == EDGE_CQE_DONE)
		code = edge_func_run(ent->k.func, ent->fn_state,
				     (void *)edge_ring_param(r, seq),
				     r->param_size, &res);
	edge_ring_complete(r, seq, code, res);
	ent->inflight--;
	m->inflight--;
	ent->completed++;
	if (code == EDGE_CQE_DONE)
		m->st.completed++;
	else
		m->st.errors++;
	if (m->notify)
		m->notify(ent->owner, ent->id);
}

/* Run every model event due at or before @until; returns how many ran. */
u32 edge_model_run_until(struct edge_model *m, u64 until)
{
	return edge_model_run_budget(m, until, ~0U);
}

/*
 * Run at most @budget model events due at or before @until.  The front
 * end steps with a budget: a huge grid of TBs that take no time (a few
 * cycles round to 0 ns) is otherwise an endless loop at one instant,
 * held under the model lock (found by fuzz_register).
 */
u32 edge_model_run_budget(struct edge_model *m, u64 until, u32 budget)
{
	struct edge_ev ev;
	u32 n = 0;

	while (n < budget && edge_engine_pop_due(&m->eng, until, &ev)) {
		bool known = edge_simt_handle(&m->simt, &ev);

		EDGE_ASSERT(known);
		n++;
	}
	return n;
}

u64 edge_model_next_time(const struct edge_model *m)
{
	return edge_engine_next_time(&m->eng);
}

u64 edge_model_now(const struct edge_model *m)
{
	return m->eng.now;
}

void edge_model_advance(struct edge_model *m, u64 now)
{
	edge_engine_advance(&m->eng, now);
}

/* Has any producer rung a doorbell the model can act on? */
bool edge_model_doorbell_pending(const struct edge_model *m)
{
	u32 i;

	for (i = 0; i < m->ekt.n; i++) {
		const struct edge_ekt_entry *ent = &m->ekt.e[i];

		if (ent->used && edge_ring_avail(&ent->ring, ent->inflight))
			return true;
	}
	return false;
}

/* Front-end state every producer must see (EDGE_SQ_NEED_WAKEUP). */
void edge_model_set_sq_flags(struct edge_model *m, u32 flags)
{
	u32 i;

	m->sq_flags = flags;
	for (i = 0; i < m->ekt.n; i++)
		if (m->ekt.e[i].used)
			edge_ring_set_flags(&m->ekt.e[i].ring, flags);
}

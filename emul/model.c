// SPDX-License-Identifier: GPL-2.0
/*
 * The device model's step functions.
 */
#include "model.h"
#include "fn/func.h"
#include "fn/warp_cost.h"
#include "limits.h"

#ifndef __KERNEL__
/* EDGE_TRACE()'s optional watcher in user space (edge_compat.h). */
void (*edge_trace_hook)(const struct edge_engine *eng, u32 tp, u64 a, u64 b,
			u64 c);
#endif

/*
 * A launched event is known to the SIMT model by a cookie: the EKT index,
 * the entry's generation (so a reused index never takes an old event's
 * completion) and the event's number on its ring.
 */
#define RING_GEN_MASK	0x7fffffU	/* bit 63 is EDGE_CP_COOKIE's */

static u64 cookie_of(const struct edge_ekt_entry *ent, u32 seq)
{
	return ((u64)(ent->gen & RING_GEN_MASK) << 40) | ((u64)ent->id << 32) |
	       seq;
}

/* The upper half is the entry's for life: built once, at registration. */
#define COOKIE_SEQ	0xffffffffULL

static void simt_done(void *ctx, u64 cookie, u32 code);
static void job_done(void *ctx, u64 cookie, u32 state, bool met);

int edge_model_init(struct edge_model *m, const struct edge_preset *p,
		    edge_notify_fn notify)
{
	struct edge_simt_cfg cfg;
	struct edge_cp_cfg ccfg;
	int ret;

	memset(m, 0, sizeof(*m));
	m->preset = p;
	m->notify = notify;
	edge_engine_init(&m->eng);
	/*
	 * The model runs its engine only in edge_model_run_budget(), which
	 * pops the next event as soon as a handler returns, and passes its
	 * tail passes only from there and edge_model_schedule_run().
	 */
	m->eng.pops_next = true;
	ret = edge_ekt_init(&m->ekt, EDGE_EKT_ENTRIES);
	if (ret)
		return ret;
	edge_simt_default_cfg(&cfg);
	ret = edge_simt_init(&m->simt, p, &m->eng, &cfg, simt_done, m);
	if (ret)
		goto err;
	/* ~100 KB of job table and a 1 MB kernel-list pool: not inline. */
	m->cp = edge_zalloc(sizeof(*m->cp));
	m->jobs = edge_zalloc(sizeof(*m->jobs) * EDGE_CP_JOBS);
	if (!m->cp || !m->jobs) {
		ret = -ENOMEM;
		goto err;
	}
	edge_cp_default_cfg(&ccfg);
	ret = edge_cp_init(m->cp, &m->simt, &ccfg, job_done, m);
	if (ret)
		goto err;
	return 0;
err:
	if (m->cp)
		edge_cp_fini(m->cp);
	edge_free(m->cp);
	edge_free(m->jobs);
	m->cp = NULL;
	m->jobs = NULL;
	edge_simt_fini(&m->simt);
	edge_ekt_fini(&m->ekt);
	edge_engine_fini(&m->eng);
	return ret;
}

void edge_model_fini(struct edge_model *m)
{
	u32 i;

	for (i = 0; i < m->ekt.n; i++)
		if (m->ekt.e[i].used)
			edge_model_cancel(m, i);
	if (m->cp) {
		edge_cp_cancel_all(m->cp);
		edge_cp_fini(m->cp);
	}
	edge_free(m->cp);
	edge_free(m->jobs);
	m->cp = NULL;
	m->jobs = NULL;
	edge_simt_fini(&m->simt);
	edge_ekt_fini(&m->ekt);
	edge_engine_fini(&m->eng);
}

int edge_model_set_cfg(struct edge_model *m, const struct edge_simt_cfg *cfg)
{
	return edge_simt_set_cfg(&m->simt, cfg);
}

/*
 * The shape a job runs an entry's kernel with: the entry's own, but as a
 * TB kernel.  One TB of one warp is an event warp to the SIMT model, so
 * in a job it becomes a TB of two warps (as edge-sim's job kernels).
 */
static void job_kdesc(const struct edge_model *m, const struct edge_kdesc *k,
		      struct edge_kdesc *out)
{
	u32 ws = m->preset->warp_size;

	*out = *k;
	/* A job's kernel computes nothing: it has no function table. */
	out->table = NULL;
	out->table_len = 0;
	if (out->num_tbs == 1 && out->block_threads <= ws) {
		out->block_threads = 2 * ws;
		out->warps_per_tb = 2;
	}
}

/* Entry @id's producers set its bit in @w (NULL: they set none). */
static void sum_attach(struct edge_model *m, u32 id, u64 *w)
{
	u32 i;

	if (!w) {
		m->always |= BIT_ULL(id);
		return;
	}
	for (i = 0; i < m->nr_sum && m->sum[i] != w; i++)
		;
	if (i == m->nr_sum) {
		m->sum[i] = w;
		m->sum_refs[i] = 0;
		m->nr_sum++;
	}
	m->sum_refs[i]++;
	m->sum_of[id] = (u8)i;
}

static void sum_detach(struct edge_model *m, u32 id)
{
	u32 i = m->sum_of[id], last, j;

	if (m->always & BIT_ULL(id)) {
		m->always &= ~BIT_ULL(id);
		return;
	}
	if (--m->sum_refs[i])
		return;
	/* The last word takes the freed place: renumber its entries. */
	last = --m->nr_sum;
	if (i == last)
		return;
	m->sum[i] = m->sum[last];
	m->sum_refs[i] = m->sum_refs[last];
	for (j = 0; j < EDGE_EKT_ENTRIES; j++)
		if ((m->live & BIT_ULL(j)) && !(m->always & BIT_ULL(j)) &&
		    m->sum_of[j] == last)
			m->sum_of[j] = (u8)i;
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
	struct edge_kdesc jk, ak = *k;
	u64 *due = NULL;
	u8 *batch = NULL;
	void *state;
	int ret;

	if (!edge_ekt_room(&m->ekt))
		return -EBUSY;
	/*
	 * A batched entry: its warps' request counts, and once per model
	 * the engine's room for one gather timer an entry.
	 */
	if (ak.requests_per_warp > 1) {
		/* Validation says so; a batch is an event warp's. */
		if (!edge_simt_is_ewarp(&m->simt, &ak))
			return -EINVAL;
		if (!m->gather_room) {
			ret = edge_engine_reserve(&m->eng, m->eng.cap +
						  EDGE_EKT_ENTRIES);
			if (ret)
				return ret;
			m->gather_room = true;
		}
		batch = edge_zalloc(k->ring_entries);
		if (!batch)
			return -ENOMEM;
	} else {
		ak.requests_per_warp = 1;
	}
	/* The table is the caller's: what the entry keeps is built from it. */
	ret = edge_func_state_new(k->func, k->table, k->table_len, &state);
	if (ret) {
		edge_free(batch);
		return ret;
	}
	/* Events with a deadline: when each in flight is due. */
	if (k->deadline_ns) {
		due = edge_zalloc(sizeof(*due) * k->ring_entries);
		if (!due) {
			edge_func_state_free(k->func, state);
			edge_free(batch);
			return -ENOMEM;
		}
	}
	ent = edge_ekt_alloc(&m->ekt);
	/*
	 * An application for the spatial thread-block policies: a service
	 * when it has a deadline (gpu/appprof.c).  Its jobs' kernels belong
	 * to it too.
	 */
	edge_app_add(&m->simt, &ak);
	/* Jobs name the entry by its EKT id: its profiling-table index. */
	job_kdesc(m, &ak, &jk);
	ret = edge_cp_set_class(m->cp, ent->id, &jk);
	if (ret) {
		if (ak.app)
			edge_app_set(&m->simt, ak.app, NULL);
		edge_ekt_free(&m->ekt, ent);
		edge_func_state_free(k->func, state);
		edge_free(due);
		edge_free(batch);
		return ret;
	}
	ent->k = ak;
	ent->batch = batch;
	ent->gather_due = 0;
	ent->gather_queued = false;
	/* Never reused, unlike the cookie's 23-bit generation. */
	ent->k_key = ++m->k_keys;
	ent->cookie = cookie_of(ent, 0);
	ent->ewarp = edge_simt_is_ewarp(&m->simt, &ak);
	ent->due = due;
	ent->late = 0;
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
	m->live |= BIT_ULL(ent->id);
	sum_attach(m, ent->id, mem->summary);
	m->poll_db[ent->id] = ent->ring.doorbell;
	m->poll_head[ent->id] = ent->ring.head;
	m->poll_sqh[ent->id] = ent->ring.sq_head;
	*id = ent->id;
	return 0;
}

static void entry_release(struct edge_model *m, struct edge_ekt_entry *ent)
{
	int ret = edge_cp_clear_class(m->cp, ent->id);

	/* Every job naming the entry has ended: no job counts on it. */
	EDGE_ASSERT(!ret);
	if (ent->k.app)
		edge_app_set(&m->simt, ent->k.app, NULL);
	edge_func_state_free(ent->k.func, ent->fn_state);
	ent->fn_state = NULL;
	edge_free(ent->due);
	ent->due = NULL;
	if (ent->gather_queued)
		edge_engine_remove_obj(&m->eng, EDGE_EV_GATHER, ent->id);
	edge_free(ent->batch);
	ent->batch = NULL;
	ent->gather_due = 0;
	ent->gather_queued = false;
	m->live &= ~BIT_ULL(ent->id);
	sum_detach(m, ent->id);
	edge_ekt_free(&m->ekt, ent);
}

struct cancel_arg {
	u32 id;
	struct edge_ring *ring;
	const u8 *batch;	/* the entry's, NULL when unbatched */
	u32 n;
};

/* Requests in the warp whose first request is @seq: 1 when unbatched. */
static __always_inline u32 warp_requests(const struct edge_ekt_entry *ent,
					 u32 seq)
{
	return ent->batch ? ent->batch[seq & (ent->k.ring_entries - 1)] : 1;
}

/*
 * Events of an entry complete in any order: the ones the SIMT model
 * drops are exactly those still in flight, so each gets its status here,
 * every request of a batched warp its own.
 */
static bool cancel_inflight(u64 cookie, void *arg)
{
	struct cancel_arg *c = arg;
	u32 seq = (u32)cookie, n = 1, i;

	if ((cookie & EDGE_CP_COOKIE) || ((cookie >> 32) & 0xff) != c->id)
		return false;
	if (c->batch)
		n = c->batch[seq & (c->ring->entries - 1)];
	for (i = 0; i < n; i++)
		edge_ring_complete(c->ring, seq + i, EDGE_CQE_CANCELLED,
				   ECANCELED);
	c->n += n;
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
	if (ent->inflight || edge_ring_avail(&ent->ring, 0) ||
	    m->job_refs[id])
		return -EBUSY;
	entry_release(m, ent);
	return 0;
}

/* Which jobs a cancellation takes: @owner's, or those naming EKT @id. */
struct job_match {
	struct edge_model *m;
	void *owner;
	u32 id;
};

static const struct edge_model_job *job_of(const struct job_match *a,
					   u64 cookie)
{
	const struct edge_model_job *mj;

	if ((u32)cookie >= EDGE_CP_JOBS)
		return NULL;
	mj = &a->m->jobs[(u32)cookie];
	return mj->used && mj->gen == (u32)(cookie >> 32) ? mj : NULL;
}

static bool match_ekt(u64 cookie, void *arg)
{
	const struct job_match *a = arg;
	const struct edge_model_job *mj = job_of(a, cookie);

	return mj && (mj->ekt_mask & BIT_ULL(a->id));
}

static bool match_owner(u64 cookie, void *arg)
{
	const struct job_match *a = arg;
	const struct edge_model_job *mj = job_of(a, cookie);

	return mj && mj->owner == a->owner;
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
	/* The jobs that name it go first: they end CANCELLED. */
	if (m->job_refs[id]) {
		struct job_match a = { m, NULL, id };

		edge_cp_cancel(m->cp, match_ekt, &a);
	}
	r = &ent->ring;
	/*
	 * Rung but never consumed: they were submitted, so they get a status.
	 * Only the slots not held by events in flight can hold them, so a
	 * hostile tail never makes us write a slot twice.
	 */
	rung = edge_ring_avail(r, ent->inflight);
	c.id = id;
	c.ring = r;
	c.batch = ent->batch;
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
	m->poll_head[id] = r->head;
	ent->submitted += rung;
	m->st.submitted += rung;
	ent->cancelled += n;
	m->st.cancelled += n;
	if (n && m->notify)
		m->notify(ent->owner, id);
	entry_release(m, ent);
	return n;
}

/*
 * Queue the entry's gather timer for ent->gather_due, unless one is
 * queued already (it re-queues itself when it finds the wait moved).
 */
static void gather_arm(struct edge_model *m, struct edge_ekt_entry *ent)
{
	if (ent->gather_queued)
		return;
	/* The room was reserved at registration: this cannot fail. */
	if (edge_engine_push(&m->eng, ent->gather_due, EDGE_EV_GATHER,
			     ent->id, 0, ent->gen)) {
		EDGE_ASSERT(0);
		return;
	}
	ent->gather_queued = true;
}

/*
 * A gather timer: the partial warp in the ring is due, and the next
 * consume launches it.  The timer is what moves virtual time there (and
 * what a sleeping real-time front end wakes for); the entry's bit in
 * m->again, which a doorbell ahead of its head has already, makes the
 * poll explicit.  Returns whether @ev was one.
 */
static bool gather_fire(struct edge_model *m, const struct edge_ev *ev)
{
	struct edge_ekt_entry *ent;

	if (ev->kind != EDGE_EV_GATHER)
		return false;
	ent = edge_ekt_get(&m->ekt, ev->obj);
	/* entry_release() removes its timer: never another entry's. */
	if (!ent || ent->gen != ev->gen) {
		EDGE_ASSERT(0);
		return true;
	}
	ent->gather_queued = false;
	if (!ent->gather_due)
		return true;
	if (m->eng.now < ent->gather_due) {
		gather_arm(m, ent);
		return true;
	}
	m->again |= BIT_ULL(ent->id);
	return true;
}

/*
 * @n events taken from @ent's ring: sq.head moves, and they count as
 * submitted and in flight until each completes.
 */
static void take_events(struct edge_model *m, struct edge_ekt_entry *ent,
			u32 n)
{
	edge_ring_consume(&ent->ring, n);
	m->poll_head[ent->id] = ent->ring.head;
	ent->inflight += n;
	ent->submitted += n;
	m->inflight += n;
	m->st.submitted += n;
}

/*
 * poll_entry() of a batched entry: what the ring holds goes as warps of
 * up to requests_per_warp requests, one launch each.  Full warps go at
 * once; the partial one stays in the ring (not consumed: sq.head does
 * not pass it) until more requests fill it or its gather wait, counted
 * from the poll that first found it, ends.  The warp's first request
 * names it (the cookie's seq); ent->batch[] says how many follow.
 */
static noinline u32 poll_batched(struct edge_model *m,
				 struct edge_ekt_entry *ent)
{
	u32 avail = edge_ring_avail(&ent->ring, ent->inflight);
	u32 rpw = ent->k.requests_per_warp, mask = ent->k.ring_entries - 1;
	u32 head = ent->ring.head, warps, room, n, w, i;
	u64 now = m->eng.now;

	warps = avail / rpw;
	n = warps * rpw;
	if (n != avail) {
		if (!ent->gather_due)
			ent->gather_due = now + ent->k.gather_ns;
		if (now >= ent->gather_due) {
			warps++;
			n = avail;
		}
	}
	room = edge_simt_launch_room(&m->simt, true, 0);
	if (warps > room) {
		warps = room;
		n = warps * rpw;
	}
	if (n == avail)
		ent->gather_due = 0;
	else if (avail - n < rpw)
		gather_arm(m, ent);
	take_events(m, ent, n);
	for (w = 0; w < warps; w++) {
		u32 seq = head + w * rpw, c = n - w * rpw;
		u64 due = ent->due ? now + ent->k.deadline_ns : 0;
		const struct edge_kdesc *k = &ent->k;
		struct edge_kdesc pk;

		if (c > rpw)
			c = rpw;
		/* A partial warp that takes less time: a copy, timed. */
		if (c < rpw && edge_warp_cycles(k, c) != k->warp_cycles) {
			pk = *k;
			pk.warp_cycles = edge_warp_cycles(k, c);
			k = &pk;
		}
		ent->batch[seq & mask] = (u8)c;
		m->st.batch_warps++;
		if (due && ent->k.app)
			edge_app_chain_begin(&m->simt, ent->k.app,
					     ent->k.deadline_ns);
		for (i = 0; i < c; i++) {
			if (ent->due)
				ent->due[(seq + i) & mask] = due;
			EDGE_TRACE(&m->eng, EDGE_TP_DISPATCH, ent->id, seq + i,
				   due);
		}
		/*
		 * Out of line, unlike poll_entry()'s launch, which stays
		 * inlined there: once a warp, not once a request.
		 */
		if (edge_simt_launch_ranked(&m->simt, k, ent->cookie | seq,
					    ent->id, due)) {
			/* Cannot happen (the room); were it to, not lost. */
			EDGE_ASSERT(0);
			for (i = 0; i < c; i++)
				edge_ring_complete(&ent->ring, seq + i,
						   EDGE_CQE_ERROR, EBUSY);
			ent->inflight -= c;
			ent->completed += c;
			m->inflight -= c;
			m->st.errors += c;
		}
	}
	if (n)
		EDGE_TRACE(&m->eng, EDGE_TP_DOORBELL, ent->id, n, 0);
	return n;
}

static u32 poll_entry(struct edge_model *m, struct edge_ekt_entry *ent)
{
	u32 n, head, room, i;

	if (ent->batch)
		return poll_batched(m, ent);
	n = edge_ring_avail(&ent->ring, ent->inflight);
	head = ent->ring.head;

	/*
	 * What the queues cannot take stays in the ring: backpressure.  TB
	 * kernels leave the KMU room for a kernel of every CP job.
	 */
	room = edge_simt_launch_room(&m->simt, ent->ewarp,
				     ent->ewarp ? 0 : EDGE_CP_JOBS);
	if (n > room)
		n = room;
	/*
	 * Taken: sq.head moves before the launches, so that a producer
	 * polling it (a polled dispatch) does not wait for them.  The room
	 * is the launches' own test, so each of them succeeds.
	 */
	take_events(m, ent, n);
	for (i = 0; i < n; i++) {
		u32 seq = head + i;
		/* Earliest deadline first among events of a priority. */
		u64 due = ent->due ? m->eng.now + ent->k.deadline_ns : 0;

		/* A service's event is a query: its target is the deadline. */
		if (due && ent->k.app)
			edge_app_chain_begin(&m->simt, ent->k.app,
					     ent->k.deadline_ns);
		if (edge_simt_launch_as(&m->simt, &ent->k, ent->k_key,
					ent->cookie | seq,
					ent->id, due, ent->ewarp)) {
			/* Cannot happen; were it to, not lost: an error. */
			EDGE_ASSERT(0);
			edge_ring_complete(&ent->ring, seq, EDGE_CQE_ERROR,
					   EBUSY);
			ent->inflight--;
			ent->completed++;
			m->inflight--;
			m->st.errors++;
			continue;
		}
		if (ent->due)
			ent->due[seq & (ent->k.ring_entries - 1)] = due;
		EDGE_TRACE(&m->eng, EDGE_TP_DISPATCH, ent->id, seq, due);
	}
	if (n)
		EDGE_TRACE(&m->eng, EDGE_TP_DOORBELL, ent->id, n, 0);
	return n;
}

/*
 * edge_model_consume() past its quick return (model.h): consume every
 * rung doorbell into the SIMT model's queues, without the scheduling
 * pass; returns the events consumed.
 */
u32 edge_model_consume_rung(struct edge_model *m)
{
	u64 live = m->always | m->again;
	u32 n = 0, i;

	/*
	 * The entries whose producers said they rang (the summaries' bits,
	 * taken), those without a summary, and every entry once every
	 * EDGE_DB_SCAN_STEPS steps or when asked (edge_model_rescan()):
	 * a doorbell rung without its bit still gets polled.
	 */
	for (i = 0; i < m->nr_sum; i++)
		if (edge_read_once(*m->sum[i]))
			live |= edge_xchg(m->sum[i], 0);
	if (++m->scan_steps >= EDGE_DB_SCAN_STEPS || m->scan_all) {
		m->scan_steps = 0;
		m->scan_all = false;
		live = m->live;
	}
	live &= m->live;
	m->again = 0;
	/*
	 * Polled in id order as before; a doorbell word equal to the
	 * entry's head (nothing rung) costs one load and a compare, not a
	 * poll.  Its head is published again all the same, as a poll of
	 * nothing did: a producer that scribbled on its sq_head word sees
	 * it mended at its next poll (fuzz_ring checks it).
	 */
	while (live) {
		u32 id = edge_ffs64(live);

		live &= live - 1;
		if (edge_load_acquire(m->poll_db[id]) != m->poll_head[id]) {
			n += poll_entry(m, &m->ekt.e[id]);
			/*
			 * What backpressure left in the ring is looked at
			 * again at the next step, as before the summary: its
			 * bit is spent, and its producer will not ring again
			 * for entries it rang already.
			 */
			if (edge_read_once(*m->poll_db[id]) != m->poll_head[id])
				m->again |= BIT_ULL(id);
		} else {
			edge_store_release(m->poll_sqh[id], m->poll_head[id]);
		}
	}
	return n;
}

/*
 * Would edge_model_consume() look at any doorbell now?  False when no
 * summary bit is set, every entry has a summary word and no poll of
 * every entry is due: then the step is counted towards that poll, as
 * consume() would count it, and the caller may skip consume() and the
 * clock read that would time-stamp what it takes.  Bits set after the
 * look are taken at the next step.
 */
bool edge_model_rung(struct edge_model *m)
{
	u32 i;

	if (m->always || m->again || m->scan_all ||
	    m->scan_steps + 1 >= EDGE_DB_SCAN_STEPS)
		return true;
	for (i = 0; i < m->nr_sum; i++)
		if (edge_read_once(*m->sum[i]))
			return true;
	m->scan_steps++;
	return false;
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

/*
 * One request's completion: its function run, its CQE, its statistics.
 * @lat is its warp's, dispatch to now.  @quiet: a batched warp's, whose
 * completion count the caller publishes once (edge_ring_publish()).
 */
static __always_inline void complete_one(struct edge_model *m,
					 struct edge_ekt_entry *ent, u32 seq,
					 u32 code, u64 lat, bool quiet)
{
	struct edge_ring *r = &ent->ring;
	u32 res = 0;

	if (code == EDGE_CQE_DONE)
		code = edge_func_run(ent->k.func, ent->fn_state,
				     (void *)edge_ring_param(r, seq),
				     r->param_size, &res);
	if (quiet)
		edge_ring_complete_quiet(r, seq, code, res);
	else
		edge_ring_complete(r, seq, code, res);
	EDGE_TRACE(&m->eng, EDGE_TP_COMPLETE, (u64)ent->id << 32 | seq, code,
		   lat);
	/* The fast path's only cost of the histogram: one increment. */
	if (code == EDGE_CQE_DONE)
		ent->lat_hist[lat >> 31 ? EDGE_EKT_LAT_BUCKETS - 1 :
			      edge_fls64(lat)]++;
	if (ent->due && code == EDGE_CQE_DONE &&
	    m->eng.now > ent->due[seq & (ent->k.ring_entries - 1)]) {
		ent->late++;
		m->st.late++;
	}
	if (code == EDGE_CQE_DONE)
		m->st.completed++;
	else
		m->st.errors++;
}

/* The SIMT model finished (or failed) an event: publish it. */
static void simt_done(void *ctx, u64 cookie, u32 code)
{
	struct edge_model *m = ctx;
	u32 id = (cookie >> 32) & 0xff, seq = (u32)cookie;
	struct edge_ekt_entry *ent;
	u32 n, i;
	u64 lat;

	/* A job's kernel: the CP's (its cookie says so, without a call). */
	if ((cookie & EDGE_CP_COOKIE) && edge_cp_kernel_done(m->cp, cookie, code))
		return;
	ent = edge_ekt_get(&m->ekt, id);
	/*
	 * A cancelled entry's events leave the SIMT model with it.  Its
	 * generation and id are the cookie's upper half (a CP cookie, bit
	 * 63, went above).
	 */
	if (!ent || (cookie & ~COOKIE_SEQ) != ent->cookie) {
		EDGE_ASSERT(0);
		return;
	}
	lat = m->eng.now - m->simt.reporting->arrival;
	if (ent->batch) {
		n = warp_requests(ent, seq);
		for (i = 0; i < n; i++)
			complete_one(m, ent, seq + i, code, lat, true);
		edge_ring_publish(&ent->ring);
		ent->inflight -= n;
		m->inflight -= n;
		ent->completed += n;
	} else {
		complete_one(m, ent, seq, code, lat, false);
		ent->inflight--;
		m->inflight--;
		ent->completed++;
	}
	if (m->notify)
		m->notify(ent->owner, ent->id);
}

/*
 * At most @budget model events due at or before @until, @first being
 * the earliest queued (NULL: none), which the caller looked up already.
 */
static __always_inline u32 run_from(struct edge_model *m,
				    const struct edge_ev *first, u64 until,
				    u32 budget)
{
	struct edge_ev ev;
	u32 n = 0;

	m->eng.until = until;
	while (n < budget && first && first->time <= until) {
		bool known;

		edge_engine_take(&m->eng, first, &ev);
		/* Steps run in place of events count as events. */
		m->eng.fold_left = budget - n - 1;
		m->eng.folded = 0;
		known = edge_simt_handle(&m->simt, &ev) ||
			edge_cp_handle(m->cp, &ev) || gather_fire(m, &ev);
		EDGE_ASSERT(known);
		n += 1 + m->eng.folded;
		/* No look at the next one when the budget is spent. */
		if (n >= budget)
			break;
		first = edge_engine_first(&m->eng);
	}
	m->eng.until = 0;
	m->eng.fold_left = ~0U;
	return n;
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
	return run_from(m, edge_engine_first(&m->eng), until, budget);
}

/**
 * edge_model_run_next() - run what is due at the next event's time
 * @m: the model
 * @budget: at most this many model events
 *
 * edge_model_run_budget(m, edge_model_next_time(m), @budget), a step of
 * virtual time that consumed nothing, with the earliest event looked up
 * once, not once for its time and again by the run.
 *
 * Return: the model events run.
 */
u32 edge_model_run_next(struct edge_model *m, u32 budget)
{
	const struct edge_ev *first = edge_engine_first(&m->eng);

	return run_from(m, first, first ? first->time : 0, budget);
}

void edge_model_advance(struct edge_model *m, u64 now)
{
	edge_engine_advance(&m->eng, now);
}

/*
 * Has any producer rung a doorbell the model can act on?  A partial warp
 * still gathering is not yet: its timer is the model's next event, so
 * the front end may sleep until it (a producer that rings more kicks).
 */
bool edge_model_doorbell_pending(const struct edge_model *m)
{
	u64 live = m->live;

	while (live) {
		const struct edge_ekt_entry *ent = &m->ekt.e[edge_ffs64(live)];
		u32 avail;

		live &= live - 1;
		avail = edge_ring_avail(&ent->ring, ent->inflight);
		if (avail && !(ent->gather_due && m->eng.now < ent->gather_due &&
			       avail < ent->k.requests_per_warp))
			return true;
	}
	return false;
}

/*
 * Poll every registered entry at the next step, bits or not: the front
 * end asks after it slept (a KICK from a producer that sets no bit) and
 * when edge_model_doorbell_pending() kept it from sleeping.
 */
void edge_model_rescan(struct edge_model *m)
{
	m->scan_all = true;
}

/* Front-end state every producer must see (EDGE_SQ_NEED_WAKEUP). */
void edge_model_set_sq_flags(struct edge_model *m, u32 flags)
{
	u64 live = m->live;

	m->sq_flags = flags;
	while (live) {
		edge_ring_set_flags(&m->ekt.e[edge_ffs64(live)].ring, flags);
		live &= live - 1;
	}
}

/*
 * Jobs.  The CP knows a job by the model's record of it (slot and
 * generation as its cookie); the record says whose it is, so its end
 * reaches its submitter.
 */
#define JOB_COOKIE(slot, gen)	(((u64)(gen) << 32) | (slot))

/* The CP ended a job (done, rejected or cancelled): tell its owner. */
static void job_done(void *ctx, u64 cookie, u32 state, bool met)
{
	struct edge_model *m = ctx;
	u32 slot = (u32)cookie, i;
	struct edge_model_job *mj;
	struct edge_job_end e;

	if (slot >= EDGE_CP_JOBS) {
		EDGE_ASSERT(0);
		return;
	}
	mj = &m->jobs[slot];
	if (!mj->used || mj->gen != (u32)(cookie >> 32)) {
		EDGE_ASSERT(0);
		return;
	}
	e.user_data = mj->user_data;
	e.id = mj->id;
	e.met = false;
	e.dropped = state == EDGE_JOB_DROPPED;
	e.latency_ns = m->eng.now - mj->submitted;
	switch (state) {
	case EDGE_JOB_DONE:
		e.status = EDGE_CQE_DONE;
		e.met = met;
		m->st.jobs_done++;
		if (met)
			m->st.jobs_met++;
		EDGE_TRACE(&m->eng, EDGE_TP_JOB_DONE, e.id, met, e.latency_ns);
		break;
	case EDGE_JOB_REJECTED:
		e.status = EDGE_CQE_REJECTED;
		m->st.jobs_rejected++;
		EDGE_TRACE(&m->eng, EDGE_TP_JOB_REJECT, e.id, 0, 0);
		break;
	default:
		e.status = EDGE_CQE_CANCELLED;
		m->st.jobs_cancelled++;
		break;
	}
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		if (mj->ekt_mask & BIT_ULL(i))
			m->job_refs[i]--;
	mj->used = false;
	mj->gen++;
	if (m->job_notify)
		m->job_notify(mj->owner, &e);
}

/*
 * Submit a job of @owner: its kernels are EKT ids @owner registered.
 * -EINVAL for a bad queue or deadline, an id not @owner's, -E2BIG for a
 * list too long or too varied, -EBUSY when the job table is full.
 * Nothing changes on error.  Admission comes later, asynchronously: a
 * job the CP refuses ends REJECTED through job_notify.
 */
int edge_model_submit_job(struct edge_model *m, void *owner,
			  const struct edge_model_jobdesc *d, u64 *id)
{
	struct edge_cp_jobdesc cd;
	struct edge_model_job *mj = NULL;
	u64 mask = 0;
	u32 i;
	int ret;

	if (!d->nr_kernels || !d->deadline_ns || d->queue >= EDGE_CP_QUEUES)
		return -EINVAL;
	if (d->nr_kernels > EDGE_CP_JOB_KERNELS)
		return -E2BIG;
	for (i = 0; i < d->nr_kernels; i++) {
		const struct edge_ekt_entry *ent;

		if (d->kernels[i] >= EDGE_EKT_ENTRIES)
			return -EINVAL;
		ent = edge_ekt_get(&m->ekt, d->kernels[i]);
		if (!ent || ent->owner != owner)
			return -EINVAL;
		mask |= BIT_ULL(d->kernels[i]);
	}
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		if (!m->jobs[i].used) {
			mj = &m->jobs[i];
			break;
		}
	}
	if (!mj)
		return -EBUSY;
	cd.cookie = JOB_COOKIE(mj - m->jobs, mj->gen);
	cd.queue = d->queue;
	cd.deadline_ns = d->deadline_ns;
	cd.nr_kernels = d->nr_kernels;
	cd.kernels = d->kernels;
	ret = edge_cp_submit(m->cp, &cd);
	if (ret)
		return ret;
	mj->used = true;
	mj->owner = owner;
	mj->id = ++m->job_seq;
	mj->user_data = d->user_data;
	mj->submitted = m->eng.now;
	mj->ekt_mask = mask;
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		if (mask & BIT_ULL(i))
			m->job_refs[i]++;
	m->st.jobs_submitted++;
	*id = mj->id;
	return 0;
}

/*
 * The CP's record of the job in slot @slot of the model's table (its
 * state, queue, kernels), or NULL when the slot holds no job.
 */
const struct edge_cp_job *edge_model_job_cp(const struct edge_model *m,
					    u32 slot)
{
	const struct edge_model_job *mj = &m->jobs[slot];
	u64 cookie = JOB_COOKIE(slot, mj->gen);
	u32 i;

	if (!mj->used)
		return NULL;
	for (i = 0; i < EDGE_CP_JOBS; i++) {
		const struct edge_cp_job *j = &m->cp->jobs[i];

		if (j->state != EDGE_JOB_FREE && j->cookie == cookie)
			return j;
	}
	return NULL;
}

/* Teardown of @owner's file: each of its jobs ends CANCELLED. */
u32 edge_model_cancel_jobs(struct edge_model *m, void *owner)
{
	struct job_match a = { m, owner, 0 };

	return edge_cp_cancel(m->cp, match_owner, &a);
}

int edge_model_set_policy(struct edge_model *m, u32 policy)
{
	u32 old = m->cp->cfg.policy;
	int ret = edge_cp_set_policy(m->cp, policy);

	if (!ret)
		EDGE_TRACE(&m->eng, EDGE_TP_POLICY, policy, old, 0);
	return ret;
}

u32 edge_model_policy(const struct edge_model *m)
{
	return m->cp->cfg.policy;
}

struct edge_cp_cfg edge_model_cp_cfg(const struct edge_model *m)
{
	return m->cp->cfg;
}

/**
 * edge_model_param_set() - set a queue-level policy's knob
 * @m: the model
 * @name: the knob's name (its policy's descriptor)
 * @v: the value
 * @pp: the knob, when found (NULL: unknown); or NULL
 *
 * Return: 0, -EINVAL for an unknown name, -ERANGE outside its limits;
 * then nothing changed.
 */
int edge_model_param_set(struct edge_model *m, const char *name, u64 v,
			 const struct edge_param **pp)
{
	return edge_cp_param_set(m->cp, name, v, pp);
}

/**
 * edge_model_param_get() - a queue-level policy's knob
 * @m: the model
 * @name: the knob's name
 * @v: its value
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int edge_model_param_get(const struct edge_model *m, const char *name, u64 *v)
{
	return edge_cp_param_get(m->cp, name, v);
}

int edge_model_set_cp_timing(struct edge_model *m, const struct edge_cp_cfg *cfg)
{
	return edge_cp_set_timing(m->cp, cfg);
}

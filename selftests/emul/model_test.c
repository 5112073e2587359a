// SPDX-License-Identifier: GPL-2.0
/*
 * The device model (emul/model.c) driven as drv/ drives it: rings in
 * zeroed memory laid out by edge_ring_layout(), a producer that writes
 * parameter entries and stores its tail in its entry's word of the
 * doorbell page, and the front end's poll / run_until steps.
 */
#include "emul_test.h"
#include "model.h"
#include "limits.h"

#define PAGE	4096U

/*
 * Linked with -Wl,--wrap=calloc (see the Makefile): the model's
 * allocations (edge_zalloc() is calloc() on the host) can be counted and
 * made to fail.
 */
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
static unsigned long calloc_calls;
static bool calloc_fail;
static long calloc_fail_at = -1;	/* fail only the call with this index */

void *__wrap_calloc(size_t n, size_t size)
{
	unsigned long i = calloc_calls++;

	if (calloc_fail || (calloc_fail_at >= 0 && i == (unsigned long)calloc_fail_at))
		return NULL;
	return __real_calloc(n, size);
}

/* The device's doorbell page: one word per EKT id (model_init()). */
static u32 *db_page;

/* One registered event kernel as its user sees it. */
struct tq {
	struct edge_ring_mem mem;
	u32 entries;
	u32 psz;
	u32 tail;	/* producer count, stored in db_page[id] */
	u32 reaped;	/* completions the user has read */
	u32 id;
};

static void tq_alloc(struct __test_metadata *_metadata, struct tq *q,
		     u32 entries, u32 psz)
{
	memset(q, 0, sizeof(*q));
	q->entries = entries;
	q->psz = psz;
	edge_ring_layout(entries, psz, PAGE, &q->mem.layout);
	q->mem.doorbells = db_page;
	q->mem.sq = calloc(1, q->mem.layout.sq_size);
	q->mem.cq = calloc(1, q->mem.layout.cq_size);
	ASSERT_NE(NULL, q->mem.doorbells);
	ASSERT_NE(NULL, q->mem.sq);
	ASSERT_NE(NULL, q->mem.cq);
	q->id = 0xdeadbeef;
}

static void tq_free(struct tq *q)
{
	free(q->mem.sq);
	free(q->mem.cq);
	memset(&q->mem, 0, sizeof(q->mem));
}

/* Fresh memory for a new registration, as drv/ gives zeroed pages. */
static void tq_reset(struct tq *q)
{
	memset(q->mem.sq, 0, q->mem.layout.sq_size);
	memset(q->mem.cq, 0, q->mem.layout.cq_size);
	q->tail = 0;
	q->reaped = 0;
}

static u32 tq_sq_head(const struct tq *q)
{
	return __atomic_load_n(emul_word(q->mem.sq, q->mem.layout.sq_head),
			       __ATOMIC_ACQUIRE);
}

static u32 tq_sq_flags(const struct tq *q)
{
	return *emul_word(q->mem.sq, q->mem.layout.sq_flags);
}

static u32 tq_cq_tail(const struct tq *q)
{
	return __atomic_load_n(emul_word(q->mem.cq, q->mem.layout.cq_tail),
			       __ATOMIC_ACQUIRE);
}

static struct edge_cqe *tq_cqe(const struct tq *q, u32 seq)
{
	return (struct edge_cqe *)((u8 *)q->mem.cq + q->mem.layout.cq_cqes) +
	       (seq & (q->entries - 1));
}

static u32 *tq_param(const struct tq *q, u32 seq)
{
	return (u32 *)((u8 *)q->mem.sq + q->mem.layout.sq_entries +
		       (size_t)(seq & (q->entries - 1)) * q->psz);
}

/* Write one parameter entry (not rung yet). */
static void tq_push(struct tq *q, u32 val)
{
	u32 *p = tq_param(q, q->tail);

	p[0] = val;
	p[1] = ~val;
	q->tail++;
}

static void tq_ring(struct tq *q)
{
	__atomic_store_n(&db_page[q->id], q->tail, __ATOMIC_RELEASE);
}

/* Slots the producer may fill: those whose completion it has read. */
static u32 tq_room(const struct tq *q)
{
	return q->entries - (q->tail - q->reaped);
}

static void kdesc(struct __test_metadata *_metadata, struct edge_kdesc *k,
		  u32 func, u32 entries, u32 psz, u64 warp_cycles)
{
	struct edge_register r = emul_reg_one_warp();

	r.func = func;
	r.ring_entries = entries;
	r.param_size = psz;
	r.warp_cycles = warp_cycles;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, k));
}

/* Notifications, with the model time each came at. */
struct note {
	void *owner;
	u32 id;
	u64 now;
};

#define MAX_NOTES	65536U
static struct note notes[MAX_NOTES];
static u32 nnotes;
static struct edge_model *note_model;

static void rec_notify(void *owner, u32 id)
{
	if (nnotes < MAX_NOTES) {
		notes[nnotes].owner = owner;
		notes[nnotes].id = id;
		notes[nnotes].now = note_model ? edge_model_now(note_model) : 0;
	}
	nnotes++;
}

static void model_init_cb(struct __test_metadata *_metadata,
			  struct edge_model *m, const struct edge_preset *p,
			  edge_notify_fn notify)
{
	ASSERT_EQ(NULL, db_page);
	db_page = calloc(1, PAGE);
	ASSERT_NE(NULL, db_page);
	ASSERT_EQ(0, edge_model_init(m, p, notify));
	note_model = m;
	nnotes = 0;
}

static void model_init(struct __test_metadata *_metadata,
		       struct edge_model *m, const struct edge_preset *p)
{
	model_init_cb(_metadata, m, p, rec_notify);
}

static void model_fini(struct edge_model *m)
{
	edge_model_fini(m);
	note_model = NULL;
	free(db_page);
	db_page = NULL;
}

/* Once drained, every submitted event has exactly one outcome. */
static void expect_accounting(struct __test_metadata *_metadata,
			      const struct edge_model *m)
{
	EXPECT_EQ(0U, m->inflight);
	EXPECT_EQ(m->st.submitted,
		  m->st.completed + m->st.errors + m->st.cancelled)
		TH_LOG("submitted %llu completed %llu errors %llu cancelled %llu",
		       (unsigned long long)m->st.submitted,
		       (unsigned long long)m->st.completed,
		       (unsigned long long)m->st.errors,
		       (unsigned long long)m->st.cancelled);
	EXPECT_EQ(0ULL, m->st.rejected);
}

static int owner_a, owner_b, owner_c;

/* Completions published (done or failed): what run_until() is for. */
static u64 outcomes(const struct edge_model *m)
{
	return m->st.completed + m->st.errors;
}

/*
 * Run every model step due by @until; returns the completions it
 * published.  An event takes several engine steps now (an event warp's
 * launch, run and completion), so the step count run_until() returns is
 * no longer the number of events.
 */
static u32 run_done(struct edge_model *m, u64 until)
{
	u64 before = outcomes(m);

	edge_model_run_until(m, until);
	return (u32)(outcomes(m) - before);
}

/* Run up to the time of the earliest completion (all of it, ties too). */
static u32 run_batch(struct edge_model *m)
{
	u64 before = outcomes(m);

	while (outcomes(m) == before &&
	       edge_model_next_time(m) != EDGE_TIME_NEVER)
		edge_model_run_until(m, edge_model_next_time(m));
	return (u32)(outcomes(m) - before);
}

/* The model's engine room is reserved once, at init, and never moves. */
static u32 room(const struct edge_preset *p)
{
	return edge_simt_engine_room(p) + edge_cp_engine_room();
}

TEST(model_echo_in_order)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;
	u64 t0;
	u32 i;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 16);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 16, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	EXPECT_EQ(0U, q.id);
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(EDGE_TIME_NEVER, edge_model_next_time(&m));

	/* Written but not rung: the model sees nothing. */
	for (i = 0; i < 5; i++)
		tq_push(&q, 100 + i);
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(0U, edge_model_poll(&m));

	tq_ring(&q);
	EXPECT_TRUE(edge_model_doorbell_pending(&m));
	edge_model_advance(&m, 500);
	t0 = edge_model_now(&m);
	EXPECT_EQ(500ULL, t0);
	EXPECT_EQ(5U, edge_model_poll(&m));
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(5U, tq_sq_head(&q));
	EXPECT_EQ(5U, m.inflight);
	EXPECT_EQ(5ULL, m.st.submitted);
	EXPECT_EQ(0U, tq_cq_tail(&q));
	/* An idle GPU: every event warp starts at once... */
	EXPECT_EQ(0U, m.simt.cfg.dispatch_cycles);
	EXPECT_EQ(t0, edge_model_next_time(&m));
	EXPECT_EQ(0U, run_done(&m, t0));
	EXPECT_EQ(t0 + 1000, edge_model_next_time(&m));

	/* ... and nothing is due before its time. */
	EXPECT_EQ(0U, run_done(&m, t0 + 999));
	EXPECT_EQ(0U, tq_cq_tail(&q));
	EXPECT_EQ(0U, tq_cqe(&q, 0)->status);
	EXPECT_EQ(0U, nnotes);

	EXPECT_EQ(5U, run_done(&m, edge_model_next_time(&m)));
	EXPECT_EQ(t0 + 1000, edge_model_now(&m));
	EXPECT_EQ(5U, tq_cq_tail(&q));
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(100U + i, tq_cqe(&q, i)->res);
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i),
			  tq_cqe(&q, i)->status);
	}
	EXPECT_EQ(0U, tq_cqe(&q, 5)->status);
	EXPECT_EQ(5ULL, m.st.completed);
	EXPECT_EQ(0U, m.inflight);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_model_next_time(&m));
	/* One notification per completion, all for this entry. */
	EXPECT_EQ(5U, nnotes);
	for (i = 0; i < 5; i++) {
		EXPECT_EQ((void *)&owner_a, notes[i].owner);
		EXPECT_EQ(q.id, notes[i].id);
		EXPECT_EQ(t0 + 1000, notes[i].now);
	}
	expect_accounting(_metadata, &m);

	/* NOP computes nothing: res 0. */
	EXPECT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));
	tq_reset(&q);
	kdesc(_metadata, &k, EDGE_FN_NOP, 8, 16, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	tq_push(&q, 77);
	tq_ring(&q);
	EXPECT_EQ(1U, edge_model_poll(&m));
	EXPECT_EQ(1U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(0U, tq_cqe(&q, 0)->res);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), tq_cqe(&q, 0)->status);
	EXPECT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));

	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/*
 * A single-warp event on an idle GPU, with no dispatch latency and warps
 * that never stall (the defaults), runs on free resources from the
 * moment it is polled: done warp_cycles * 1e6 / clock_khz ns later,
 * truncated.
 */
TEST(model_duration_exact)
{
	static const struct {
		const char *preset;
		u64 cycles;
		u64 ns;
	} cases[] = {
		{ "edge", 1, 1 },
		{ "edge", 7, 10 },
		{ "edge", 700, 1000 },
		{ "edge", 1000, 1428 },
		{ "edge", 123456789, 176366841 },
		{ "edge", 1ULL << 40, 1570730896822ULL },
		{ "lax", 1, 0 },
		{ "lax", 1000, 666 },
		{ "lax", 1ULL << 40, 733007751850ULL },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct edge_preset *p = edge_preset_find(cases[i].preset);
		u64 t0 = 12345 + i, due;
		struct edge_model m;
		struct edge_register r = emul_reg_one_warp();
		struct edge_kdesc k;
		struct tq q;

		ASSERT_NE(NULL, p);
		r.warp_cycles = cases[i].cycles;
		ASSERT_EQ(0, edge_validate_register(p, &r, &k));

		model_init(_metadata, &m, p);
		EXPECT_EQ(0U, m.simt.cfg.dispatch_cycles);
		EXPECT_EQ(cases[i].ns, edge_simt_cyc2ns(&m.simt, cases[i].cycles))
			TH_LOG("%s, %llu cycles", cases[i].preset,
			       (unsigned long long)cases[i].cycles);
		tq_alloc(_metadata, &q, 64, 8);
		ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a,
						 &q.id));
		edge_model_advance(&m, t0);
		tq_push(&q, i);
		tq_ring(&q);
		ASSERT_EQ(1U, edge_model_poll(&m));
		/* It is placed at once: its first step is due now. */
		EXPECT_EQ(t0, edge_model_next_time(&m));
		due = t0 + cases[i].ns;
		if (cases[i].ns)
			EXPECT_EQ(0U, run_done(&m, due - 1));
		EXPECT_EQ(1U, run_done(&m, due));
		EXPECT_EQ(due, edge_model_now(&m));
		EXPECT_EQ(EDGE_TIME_NEVER, edge_model_next_time(&m));
		EXPECT_EQ(1ULL, m.simt.st.ewarps_free);
		EXPECT_EQ(0ULL, m.simt.st.preemptions);
		EXPECT_EQ(0ULL, m.simt.st.sched.max);
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0),
			  tq_cqe(&q, 0)->status);
		EXPECT_EQ(i, tq_cqe(&q, 0)->res);
		model_fini(&m);
		tq_free(&q);
	}
	EXPECT_NO_LEAKS();
}

#define N_EVENTS	10000U

/*
 * 10,000 events through one 64-entry ring: a producer that fills what
 * it has reaped, in uneven batches, and a front end that sometimes runs
 * only part of what is queued.
 */
TEST(model_10k_events_one_ring)
{
	u32 batches = 0, seen_full = 0, how;
	u64 last_due = 0;
	struct emul_rng rng;
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;

	emul_rng_seed(&rng, 10000);
	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 64, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 64, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));

	while (q.reaped < N_EVENTS) {
		u32 want = 1 + emul_rand_below(&rng, 64), n = 0, polled;
		u32 before = q.tail;

		while (n < want && q.tail < N_EVENTS && tq_room(&q)) {
			tq_push(&q, q.tail * 2654435761U);
			n++;
		}
		tq_ring(&q);
		polled = edge_model_poll(&m);
		/* A well-behaved producer never rings more than fits. */
		ASSERT_EQ(q.tail - before, polled);
		ASSERT_EQ(q.tail, tq_sq_head(&q));
		ASSERT_LE(m.inflight, 64U);
		if (m.inflight == 64)
			seen_full++;
		if (polled) {
			batches++;
			last_due = edge_model_now(&m) + 1000;
		}
		/*
		 * Run nothing (unless the ring is full), the earliest batch,
		 * or everything.
		 */
		how = emul_rand_below(&rng, 3);
		if (how == 0 && !tq_room(&q))
			how = 1;
		if (how == 1)
			run_batch(&m);
		else if (how == 2)
			edge_model_run_until(&m, EDGE_TIME_NEVER);
		/* Reap in order: every completion is the next event's. */
		while (q.reaped != tq_cq_tail(&q)) {
			struct edge_cqe *c = tq_cqe(&q, q.reaped);

			ASSERT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, q.reaped),
				  c->status);
			ASSERT_EQ(q.reaped * 2654435761U, c->res);
			q.reaped++;
		}
		ASSERT_EQ((u64)q.reaped, m.st.completed);
	}
	EXPECT_EQ(N_EVENTS, q.tail);
	EXPECT_EQ(N_EVENTS, q.reaped);
	EXPECT_EQ(N_EVENTS, tq_sq_head(&q));
	EXPECT_EQ(N_EVENTS, tq_cq_tail(&q));
	EXPECT_EQ((u64)N_EVENTS, m.st.submitted);
	EXPECT_EQ((u64)N_EVENTS, m.st.completed);
	EXPECT_EQ(0ULL, m.st.errors);
	EXPECT_EQ(0ULL, m.st.cancelled);
	EXPECT_EQ((u64)N_EVENTS, m.ekt.e[q.id].submitted);
	EXPECT_EQ((u64)N_EVENTS, m.ekt.e[q.id].completed);
	EXPECT_EQ(0U, m.inflight);
	EXPECT_EQ(last_due, edge_model_now(&m));
	EXPECT_EQ(N_EVENTS, nnotes);
	EXPECT_GT(batches, N_EVENTS / 64);
	EXPECT_GT(seen_full, 0U);
	expect_accounting(_metadata, &m);
	EXPECT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

TEST(model_unregister_busy)
{
	struct edge_ekt_entry snap_ent;
	struct edge_model m, snap;
	struct edge_kdesc k;
	struct tq q;
	u32 i;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	tq_push(&q, 1);
	tq_push(&q, 2);
	tq_ring(&q);
	ASSERT_EQ(2U, edge_model_poll(&m));

	/* In flight: refused, and nothing moves. */
	memcpy(&snap, &m, sizeof(m));
	memcpy(&snap_ent, &m.ekt.e[q.id], sizeof(snap_ent));
	EXPECT_EQ(-EBUSY, edge_model_unregister(&m, q.id, &owner_a));
	EXPECT_EQ(0, memcmp(&snap, &m, sizeof(m)));
	EXPECT_EQ(0, memcmp(&snap_ent, &m.ekt.e[q.id], sizeof(snap_ent)));
	EXPECT_EQ(&m.ekt.e[q.id], edge_ekt_get(&m.ekt, q.id));
	EXPECT_EQ(1U, m.ekt.used);
	EXPECT_EQ(2U, tq_sq_head(&q));
	EXPECT_EQ(2U, db_page[q.id]);

	EXPECT_EQ(2U, run_done(&m, EDGE_TIME_NEVER));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i),
			  tq_cqe(&q, i)->status);

	/* Rung but not consumed is in use too. */
	tq_push(&q, 3);
	tq_ring(&q);
	memcpy(&snap, &m, sizeof(m));
	EXPECT_EQ(-EBUSY, edge_model_unregister(&m, q.id, &owner_a));
	EXPECT_EQ(0, memcmp(&snap, &m, sizeof(m)));
	EXPECT_EQ(1U, edge_model_poll(&m));
	EXPECT_EQ(-EBUSY, edge_model_unregister(&m, q.id, &owner_a));
	EXPECT_EQ(1U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(3U, tq_cq_tail(&q));

	/* Idle: gone.  The engine's room is the model's, not the entry's. */
	EXPECT_EQ(room(edge_p()), m.eng.cap);
	EXPECT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));
	EXPECT_EQ(NULL, edge_ekt_get(&m.ekt, q.id));
	EXPECT_EQ(0U, m.ekt.used);
	EXPECT_EQ(room(edge_p()), m.eng.cap);
	EXPECT_TRUE(edge_simt_idle(&m.simt));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, q.id, &owner_a));
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/*
 * A kernel slot keeps the descriptor of the registration it last ran
 * (edge_simt_launch_as()'s key): an id registered again, with another
 * kernel, runs its own kernel, in the very slot the old one used.
 */
TEST(model_reregistered_id_runs_its_own_kernel)
{
	static const u64 cycles[] = { 700, 7000, 700, 70 };
	struct edge_model m;
	struct edge_kdesc k;
	struct edge_kinst *slot = NULL;
	struct tq q;
	u32 id = 0, i, n;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	for (i = 0; i < ARRAY_SIZE(cycles); i++) {
		u64 t0 = edge_model_now(&m) + 100;

		kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, cycles[i]);
		tq_reset(&q);
		ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a,
						 &q.id));
		if (i)
			ASSERT_EQ(id, q.id);
		id = q.id;
		/* Twice each: the second launch finds its own copy. */
		for (n = 0; n < 2; n++) {
			edge_model_advance(&m, t0);
			/* LIFO: the next launch takes the slot last freed. */
			if (slot)
				ASSERT_EQ(slot, edge_simt_next_ki(&m.simt));
			slot = edge_simt_next_ki(&m.simt);
			tq_push(&q, n);
			tq_ring(&q);
			ASSERT_EQ(1U, edge_model_poll(&m));
			EXPECT_EQ(cycles[i], slot->k.warp_cycles);
			EXPECT_EQ(1U, run_batch(&m));
			EXPECT_EQ(t0 + edge_simt_cyc2ns(&m.simt, cycles[i]),
				  edge_model_now(&m))
				TH_LOG("registration %u, event %u", i, n);
			t0 = edge_model_now(&m) + 100;
		}
		ASSERT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));
	}
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/* sq.head as each launch of a poll saw it (EDGE_TP_DISPATCH). */
static const struct tq *seen_q;
static u32 seen_head[8], nseen;

static void see_head(const struct edge_engine *eng, u32 tp, u64 a, u64 b,
		     u64 c)
{
	if (tp == EDGE_TP_DISPATCH && nseen < ARRAY_SIZE(seen_head))
		seen_head[nseen++] = tq_sq_head(seen_q);
}

/*
 * A poll publishes sq.head before it launches what it took, so that a
 * producer polling sq.head (a polled dispatch) does not wait for the
 * launches; and it takes only what the launches will accept.
 */
TEST(model_sq_head_before_launch)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;
	u32 i, n;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 64, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 64, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	seen_q = &q;
	nseen = 0;
	edge_trace_hook = see_head;
	for (i = 0; i < 3; i++)
		tq_push(&q, i);
	tq_ring(&q);
	EXPECT_EQ(3U, edge_model_poll(&m));
	edge_trace_hook = NULL;
	ASSERT_EQ(3U, nseen);
	for (i = 0; i < nseen; i++)
		EXPECT_EQ(3U, seen_head[i]) TH_LOG("launch %u", i);
	EXPECT_EQ(3U, run_done(&m, EDGE_TIME_NEVER));

	/* More than the pending event-warp queue holds: the rest waits. */
	for (i = 0; i < 64; i++)
		tq_push(&q, i);
	tq_ring(&q);
	n = edge_model_poll(&m);
	EXPECT_EQ(m.simt.ewarp_len + m.simt.ew_busy, n);
	EXPECT_EQ(3U + n, tq_sq_head(&q));
	EXPECT_EQ(n, m.inflight);
	while (tq_cq_tail(&q) != q.tail) {
		edge_model_poll(&m);
		run_batch(&m);
	}
	EXPECT_EQ(q.tail, tq_sq_head(&q));
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

TEST(model_unregister_wrong_owner)
{
	struct edge_model m, snap;
	struct edge_kdesc k;
	struct tq q;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 4, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 4, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	memcpy(&snap, &m, sizeof(m));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, q.id, &owner_b));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, q.id, NULL));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, q.id + 1, &owner_a));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, EDGE_EKT_ENTRIES,
						 &owner_a));
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, 0xffffffffU, &owner_a));
	EXPECT_EQ(0, memcmp(&snap, &m, sizeof(m)));
	EXPECT_NE(NULL, edge_ekt_get(&m.ekt, q.id));
	EXPECT_EQ(0, edge_model_unregister(&m, q.id, &owner_a));
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

TEST(model_table_full)
{
	static struct tq qs[EDGE_EKT_ENTRIES + 1];
	static struct edge_ekt_entry snap_e[EDGE_EKT_ENTRIES];
	static u32 snap_db[PAGE / 4];
	struct edge_model m, snap;
	struct edge_kdesc k;
	struct tq *extra = &qs[EDGE_EKT_ENTRIES];
	u32 i, id = 0x5555;

	model_init(_metadata, &m, edge_p());
	kdesc(_metadata, &k, EDGE_FN_ECHO, 4, 8, 700);
	for (i = 0; i <= EDGE_EKT_ENTRIES; i++)
		tq_alloc(_metadata, &qs[i], 4, 8);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		ASSERT_EQ(0, edge_model_register(&m, &k, &qs[i].mem,
						 &qs[i], &qs[i].id));
		EXPECT_EQ(i, qs[i].id);
	}
	EXPECT_EQ((u32)EDGE_EKT_ENTRIES, m.ekt.used);
	EXPECT_EQ(room(edge_p()), m.eng.cap);

	/* The 65th is refused and touches nothing, not even the page. */
	for (i = 0; i < PAGE / 4; i++)
		db_page[i] = 1000 + i;
	*emul_word(extra->mem.sq, extra->mem.layout.sq_flags) = 0xabcd;
	memcpy(&snap, &m, sizeof(m));
	memcpy(snap_e, m.ekt.e, sizeof(snap_e));
	memcpy(snap_db, db_page, sizeof(snap_db));
	EXPECT_EQ(-EBUSY, edge_model_register(&m, &k, &extra->mem, extra, &id));
	EXPECT_EQ(0x5555U, id);
	EXPECT_EQ(0, memcmp(&snap, &m, sizeof(m)));
	EXPECT_EQ(0, memcmp(snap_e, m.ekt.e, sizeof(snap_e)));
	EXPECT_EQ(0, memcmp(snap_db, db_page, sizeof(snap_db)));
	EXPECT_EQ(0xabcdU, *emul_word(extra->mem.sq,
				      extra->mem.layout.sq_flags));
	memset(db_page, 0, PAGE);

	/* A freed slot is the next one given, with a new generation. */
	EXPECT_EQ(1U, m.ekt.e[17].gen);
	EXPECT_EQ(0, edge_model_unregister(&m, 17, &qs[17]));
	db_page[17] = 1234;
	ASSERT_EQ(0, edge_model_register(&m, &k, &extra->mem, extra, &id));
	EXPECT_EQ(17U, id);
	EXPECT_EQ(2U, m.ekt.e[17].gen);
	EXPECT_EQ((void *)extra, m.ekt.e[17].owner);
	EXPECT_EQ(0U, db_page[17]);
	/* Its flags word is now the kernel's. */
	EXPECT_EQ(0U, *emul_word(extra->mem.sq, extra->mem.layout.sq_flags));
	EXPECT_EQ(-EBUSY, edge_model_register(&m, &k, &qs[17].mem, &qs[17],
					      &id));

	/* The table still works: one event on the last entry. */
	tq_push(&qs[63], 63);
	tq_ring(&qs[63]);
	EXPECT_EQ(1U, edge_model_poll(&m));
	EXPECT_EQ(1U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(63U, tq_cqe(&qs[63], 0)->res);

	model_fini(&m);
	EXPECT_EQ(0U, m.ekt.n);
	for (i = 0; i <= EDGE_EKT_ENTRIES; i++)
		tq_free(&qs[i]);
	EXPECT_NO_LEAKS();
}

TEST(model_cancel)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q, other;
	u32 i, id;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	tq_alloc(_metadata, &other, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &other.mem, &owner_b,
					 &other.id));
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	id = q.id;

	/* 3 done, 2 in flight (at two times), 2 rung and not consumed. */
	for (i = 0; i < 3; i++)
		tq_push(&q, 10 + i);
	tq_ring(&q);
	tq_push(&other, 500);
	tq_ring(&other);
	EXPECT_EQ(4U, edge_model_poll(&m));
	EXPECT_EQ(4U, run_done(&m, EDGE_TIME_NEVER));
	q.reaped = 3;
	other.reaped = 1;
	tq_push(&q, 13);
	tq_ring(&q);
	EXPECT_EQ(1U, edge_model_poll(&m));
	edge_model_advance(&m, edge_model_now(&m) + 100);
	tq_push(&q, 14);
	tq_push(&other, 501);
	tq_ring(&q);
	tq_ring(&other);
	EXPECT_EQ(2U, edge_model_poll(&m));
	tq_push(&q, 15);
	tq_push(&q, 16);
	tq_ring(&q);
	EXPECT_EQ(3U, m.inflight);
	EXPECT_EQ(5U, tq_sq_head(&q));

	nnotes = 0;
	EXPECT_EQ(4U, edge_model_cancel(&m, id));
	/* Exactly one notification, for the cancelled entry's owner. */
	EXPECT_EQ(1U, nnotes);
	EXPECT_EQ((void *)&owner_a, notes[0].owner);
	EXPECT_EQ(id, notes[0].id);

	for (i = 0; i < 3; i++) {
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, i),
			  tq_cqe(&q, i)->status);
		EXPECT_EQ(10U + i, tq_cqe(&q, i)->res);
	}
	for (i = 3; i < 7; i++) {
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, i),
			  tq_cqe(&q, i)->status) TH_LOG("seq %u", i);
		EXPECT_EQ((u32)ECANCELED, tq_cqe(&q, i)->res);
	}
	EXPECT_EQ(0U, tq_cqe(&q, 7)->status);
	EXPECT_EQ(7U, tq_cq_tail(&q));
	EXPECT_EQ(7U, tq_sq_head(&q));

	/* The entry is gone; the other one's event is still there. */
	EXPECT_EQ(NULL, edge_ekt_get(&m.ekt, id));
	EXPECT_EQ(1U, m.ekt.used);
	EXPECT_EQ(room(edge_p()), m.eng.cap);
	EXPECT_EQ(1U, m.inflight);
	/* Nothing of it is left to step: only the other's event warp. */
	EXPECT_EQ(1U, m.eng.len);
	EXPECT_EQ(7ULL + 2, m.st.submitted);
	EXPECT_EQ(4ULL, m.st.cancelled);
	EXPECT_EQ(4ULL, m.st.completed);
	EXPECT_EQ(-ENOENT, edge_model_unregister(&m, id, &owner_a));
	EXPECT_EQ(0U, edge_model_cancel(&m, id));
	EXPECT_EQ(0U, edge_model_cancel(&m, 0xffffffffU));
	EXPECT_EQ(1U, nnotes);

	EXPECT_EQ(1U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 1), tq_cqe(&other, 1)->status);
	EXPECT_EQ(501U, tq_cqe(&other, 1)->res);
	EXPECT_EQ(2U, nnotes);
	EXPECT_EQ((void *)&owner_b, notes[1].owner);
	EXPECT_EQ(other.id, notes[1].id);
	expect_accounting(_metadata, &m);

	/* Cancelling an idle entry frees it silently. */
	EXPECT_EQ(0U, edge_model_cancel(&m, other.id));
	EXPECT_EQ(2U, nnotes);
	EXPECT_EQ(0U, m.ekt.used);
	EXPECT_TRUE(edge_simt_idle(&m.simt));

	/* The slot comes back with a new generation, and works. */
	tq_reset(&q);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_c, &q.id));
	EXPECT_EQ(0U, q.id);
	tq_push(&q, 99);
	tq_ring(&q);
	EXPECT_EQ(1U, edge_model_poll(&m));
	EXPECT_EQ(1U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(99U, tq_cqe(&q, 0)->res);
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	tq_free(&other);
	EXPECT_NO_LEAKS();
}

/*
 * Events of one entry may complete out of order (here: one preempts and
 * saves a full register file slowly, the next finds free resources).
 * Cancel must complete exactly the ones still in flight, and never
 * overwrite a published completion.
 */
TEST(model_cancel_out_of_order)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_simt_cfg cfg;
	struct edge_model m;
	struct edge_kdesc kb, ka;
	struct tq qa, qb;
	u64 t;

	model_init(_metadata, &m, edge_p());
	edge_simt_default_cfg(&cfg);
	cfg.ctx_bytes_per_cycle = 1;	/* a save of 4096 cycles */
	ASSERT_EQ(0, edge_model_set_cfg(&m, &cfg));
	tq_alloc(_metadata, &qa, 8, 8);
	tq_alloc(_metadata, &qb, 4, 8);
	/* The background: 32 TBs of 1024 threads fill every register. */
	r.func = EDGE_FN_NOP;
	r.block_x = 1024;
	r.grid_x = 32;
	r.ring_entries = 4;
	r.warp_cycles = 7000;		/* 10 us */
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &kb));
	ASSERT_EQ(0, edge_model_register(&m, &kb, &qb.mem, &owner_b, &qb.id));
	kdesc(_metadata, &ka, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &ka, &qa.mem, &owner_a, &qa.id));
	tq_push(&qb, 0);
	tq_ring(&qb);
	ASSERT_EQ(1U, edge_model_poll(&m));

	/* Event 0 at 8.5 us: preempts, saves for ~5.9 us. */
	edge_model_advance(&m, 8500);
	tq_push(&qa, 100);
	tq_ring(&qa);
	ASSERT_EQ(1U, edge_model_poll(&m));
	EXPECT_EQ(1ULL, m.simt.st.preemptions);
	/* Event 1 after the background's TBs end: free resources. */
	EXPECT_EQ(0U, run_done(&m, 10000));
	edge_model_advance(&m, 10001);
	tq_push(&qa, 101);
	tq_ring(&qa);
	ASSERT_EQ(1U, edge_model_poll(&m));
	t = edge_model_now(&m);
	EXPECT_EQ(1U, run_done(&m, t + 1000));
	/* Out of order: 1 done, 0 still in flight. */
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 1), tq_cqe(&qa, 1)->status);
	EXPECT_EQ(101U, tq_cqe(&qa, 1)->res);
	EXPECT_EQ(0U, tq_cqe(&qa, 0)->status);
	EXPECT_EQ(1U, m.ekt.e[qa.id].inflight);

	EXPECT_EQ(1U, edge_model_cancel(&m, qa.id));
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, 0),
		  tq_cqe(&qa, 0)->status);
	EXPECT_EQ((u32)ECANCELED, tq_cqe(&qa, 0)->res);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 1), tq_cqe(&qa, 1)->status);
	EXPECT_EQ(101U, tq_cqe(&qa, 1)->res);
	EXPECT_EQ(2U, tq_cq_tail(&qa));

	/* The background is unharmed and completes. */
	run_done(&m, EDGE_TIME_NEVER);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), tq_cqe(&qb, 0)->status);
	expect_accounting(_metadata, &m);
	EXPECT_TRUE(edge_simt_idle(&m.simt));
	EXPECT_EQ(0U, m.eng.len);
	model_fini(&m);
	tq_free(&qa);
	tq_free(&qb);
	EXPECT_NO_LEAKS();
}

/*
 * Register, ring, cancel (a process that opens, submits and closes),
 * again and again, without the front end stepping in between: nothing
 * of a cancelled entry stays in the engine, which never fills.
 */
TEST(model_cancel_again_and_again)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_model m;
	struct edge_kdesc kb, ke;
	struct tq qb, qe;
	u32 round, i;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &qb, 4, 8);
	tq_alloc(_metadata, &qe, 64, 8);
	r.func = EDGE_FN_NOP;
	r.block_x = 1024;
	r.grid_x = 40;
	r.ring_entries = 4;
	r.warp_cycles = 1ULL << 30;	/* far beyond the test */
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &kb));
	kdesc(_metadata, &ke, EDGE_FN_ECHO, 64, 8, 700);
	ke.priority = 1;
	for (round = 0; round < 200; round++) {
		tq_reset(&qb);
		tq_reset(&qe);
		ASSERT_EQ(0, edge_model_register(&m, &kb, &qb.mem, &owner_b,
						 &qb.id));
		ASSERT_EQ(0, edge_model_register(&m, &ke, &qe.mem, &owner_a,
						 &qe.id));
		for (i = 0; i < 4; i++)
			tq_push(&qb, i);
		for (i = 0; i < 64; i++)
			tq_push(&qe, i);
		tq_ring(&qb);
		tq_ring(&qe);
		ASSERT_EQ(68U, edge_model_poll(&m));
		/* A few steps: TBs running, event warps preempting. */
		edge_model_run_until(&m, edge_model_now(&m));
		ASSERT_EQ(64U, edge_model_cancel(&m, qe.id));
		ASSERT_EQ(4U, edge_model_cancel(&m, qb.id));
		ASSERT_EQ(0U, m.eng.len) TH_LOG("round %u", round);
		ASSERT_TRUE(edge_simt_idle(&m.simt));
		edge_model_advance(&m, edge_model_now(&m) + 100);
	}
	expect_accounting(_metadata, &m);
	EXPECT_EQ(200ULL * 68, m.st.cancelled);
	model_fini(&m);
	tq_free(&qb);
	tq_free(&qe);
	EXPECT_NO_LEAKS();
}

/* Teardown with work in flight cancels it and leaks nothing. */
TEST(model_fini_cancels_everything)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;
	u32 i;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 4, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 4, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	for (i = 0; i < 3; i++)
		tq_push(&q, i);
	tq_ring(&q);
	EXPECT_EQ(3U, edge_model_poll(&m));
	tq_push(&q, 3);
	tq_ring(&q);
	model_fini(&m);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, i),
			  tq_cqe(&q, i)->status);
	EXPECT_EQ(4U, tq_cq_tail(&q));
	EXPECT_EQ(1U, nnotes);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

TEST(model_notify_owner_and_id)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq qa, qb;
	u32 i, na = 0, nb = 0;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &qa, 8, 8);
	tq_alloc(_metadata, &qb, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &qa.mem, &owner_a, &qa.id));
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 1400);
	ASSERT_EQ(0, edge_model_register(&m, &k, &qb.mem, &owner_b, &qb.id));
	EXPECT_EQ(0U, qa.id);
	EXPECT_EQ(1U, qb.id);
	for (i = 0; i < 3; i++)
		tq_push(&qa, i);
	for (i = 0; i < 2; i++)
		tq_push(&qb, i);
	tq_ring(&qa);
	tq_ring(&qb);
	EXPECT_EQ(5U, edge_model_poll(&m));
	EXPECT_EQ(0U, nnotes);
	EXPECT_EQ(3U, run_done(&m, 1000));
	EXPECT_EQ(3U, nnotes);
	EXPECT_EQ(2U, run_done(&m, 2000));
	ASSERT_EQ(5U, nnotes);
	for (i = 0; i < nnotes; i++) {
		if (notes[i].owner == &owner_a) {
			EXPECT_EQ(qa.id, notes[i].id);
			EXPECT_EQ(1000ULL, notes[i].now);
			na++;
		} else {
			EXPECT_EQ((void *)&owner_b, notes[i].owner);
			EXPECT_EQ(qb.id, notes[i].id);
			EXPECT_EQ(2000ULL, notes[i].now);
			nb++;
		}
	}
	EXPECT_EQ(3U, na);
	EXPECT_EQ(2U, nb);
	/* Notified after the completion is visible. */
	EXPECT_EQ(3U, tq_cq_tail(&qa));
	EXPECT_EQ(2U, tq_cq_tail(&qb));
	model_fini(&m);
	tq_free(&qa);
	tq_free(&qb);

	/* A model without a callback works the same. */
	model_init_cb(_metadata, &m, edge_p(), NULL);
	tq_alloc(_metadata, &qa, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &qa.mem, &owner_a, &qa.id));
	tq_push(&qa, 5);
	tq_push(&qa, 6);
	tq_ring(&qa);
	EXPECT_EQ(2U, edge_model_poll(&m));
	EXPECT_EQ(2U, run_done(&m, EDGE_TIME_NEVER));
	tq_push(&qa, 7);
	tq_ring(&qa);
	EXPECT_EQ(1U, edge_model_cancel(&m, qa.id));
	model_fini(&m);
	tq_free(&qa);
	EXPECT_NO_LEAKS();
}

TEST(model_sq_flags)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q[3];
	u32 i;

	model_init(_metadata, &m, edge_p());
	kdesc(_metadata, &k, EDGE_FN_ECHO, 4, 8, 700);
	for (i = 0; i < 3; i++) {
		tq_alloc(_metadata, &q[i], 4, 8);
		/* User bits in the flags word are overwritten, not kept. */
		*emul_word(q[i].mem.sq, q[i].mem.layout.sq_flags) = 0xf0f0f0f0;
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, edge_model_register(&m, &k, &q[i].mem, &owner_a,
						 &q[i].id));
		EXPECT_EQ(0U, tq_sq_flags(&q[i]));
	}

	edge_model_set_sq_flags(&m, EDGE_SQ_NEED_WAKEUP);
	EXPECT_EQ(EDGE_SQ_NEED_WAKEUP, m.sq_flags);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(EDGE_SQ_NEED_WAKEUP, tq_sq_flags(&q[i]));
	/* Born while the front end sleeps: says so at once. */
	ASSERT_EQ(0, edge_model_register(&m, &k, &q[2].mem, &owner_a,
					 &q[2].id));
	EXPECT_EQ(EDGE_SQ_NEED_WAKEUP, tq_sq_flags(&q[2]));

	/* An unregistered ring is no longer written. */
	EXPECT_EQ(0, edge_model_unregister(&m, q[1].id, &owner_a));
	*emul_word(q[1].mem.sq, q[1].mem.layout.sq_flags) = 0x77;
	edge_model_set_sq_flags(&m, 0);
	EXPECT_EQ(0U, tq_sq_flags(&q[0]));
	EXPECT_EQ(0U, tq_sq_flags(&q[2]));
	EXPECT_EQ(0x77U, tq_sq_flags(&q[1]));

	/* Waking up reaches a ring registered while awake, too. */
	tq_reset(&q[1]);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q[1].mem, &owner_a,
					 &q[1].id));
	EXPECT_EQ(0U, tq_sq_flags(&q[1]));
	edge_model_set_sq_flags(&m, EDGE_SQ_NEED_WAKEUP);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(EDGE_SQ_NEED_WAKEUP, tq_sq_flags(&q[i]));
	model_fini(&m);
	for (i = 0; i < 3; i++)
		tq_free(&q[i]);
	EXPECT_NO_LEAKS();
}

/* A reused doorbell word must not replay its previous user's tail. */
TEST(model_register_resets_doorbell)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	db_page[0] = 5;
	db_page[1] = 6;
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	ASSERT_EQ(0U, q.id);
	EXPECT_EQ(0U, db_page[0]);
	/* Only its own word: the next id's is the next user's business. */
	EXPECT_EQ(6U, db_page[1]);
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(0U, edge_model_poll(&m));
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/*
 * Everything is allocated at init (the SIMT model's pools and the engine
 * room it can ever need): each allocation failing in turn fails the init
 * with -ENOMEM and leaks nothing.
 */
TEST(model_init_enomem)
{
	unsigned long n, i;
	struct edge_model m;

	calloc_calls = 0;
	ASSERT_EQ(0, edge_model_init(&m, edge_p(), rec_notify));
	n = calloc_calls;
	EXPECT_EQ(room(edge_p()), m.eng.cap);
	edge_model_fini(&m);
	/* The EKT, the SIMT model's cores, TBs, TB table, kernels, the engine. */
	ASSERT_GE(n, 6UL);

	for (i = 0; i < n; i++) {
		memset(&m, 0x5a, sizeof(m));
		calloc_calls = 0;
		calloc_fail_at = (long)i;
		EXPECT_EQ(-ENOMEM, edge_model_init(&m, edge_p(), rec_notify))
			TH_LOG("allocation %lu of %lu failing", i, n);
		calloc_fail_at = -1;
		EXPECT_EQ(0, emul_leaks()) TH_LOG("allocation %lu failing", i);
	}

	/* And it still works after all that. */
	calloc_calls = 0;
	ASSERT_EQ(0, edge_model_init(&m, edge_p(), rec_notify));
	EXPECT_EQ(n, calloc_calls);
	edge_model_fini(&m);
	EXPECT_NO_LEAKS();
}

/* Registering never allocates: a full table with allocations failing. */
TEST(model_register_never_allocates)
{
	static struct tq qs[EDGE_EKT_ENTRIES];
	struct edge_model m;
	struct edge_kdesc k;
	u32 i;

	model_init(_metadata, &m, edge_p());
	kdesc(_metadata, &k, EDGE_FN_ECHO, 16, 8, 700);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		tq_alloc(_metadata, &qs[i], 16, 8);
	calloc_calls = 0;
	calloc_fail = true;
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		ASSERT_EQ(0, edge_model_register(&m, &k, &qs[i].mem, &qs[i],
						 &qs[i].id));
	/* Each ring full: 1024 events, more than there are event warp slots. */
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		while (tq_room(&qs[i]))
			tq_push(&qs[i], i);
		tq_ring(&qs[i]);
	}
	EXPECT_EQ(16U * EDGE_EKT_ENTRIES, edge_model_poll(&m));
	EXPECT_EQ(16U * EDGE_EKT_ENTRIES, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(0, edge_model_unregister(&m, qs[5].id, &qs[5]));
	ASSERT_EQ(0, edge_model_register(&m, &k, &qs[5].mem, &qs[5],
					 &qs[5].id));
	calloc_fail = false;
	EXPECT_EQ(0UL, calloc_calls);
	EXPECT_EQ(room(edge_p()), m.eng.cap);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		EXPECT_EQ(i, tq_cqe(&qs[i], 15)->res);
	model_fini(&m);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		tq_free(&qs[i]);
	EXPECT_NO_LEAKS();
}

/* Room is reserved at init: stepping never allocates. */
TEST(model_never_allocates_while_stepping)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q[3];
	u32 i, round;

	model_init(_metadata, &m, edge_p());
	for (i = 0; i < 3; i++) {
		tq_alloc(_metadata, &q[i], 8 << i, 8);
		kdesc(_metadata, &k, EDGE_FN_ECHO, 8 << i, 8, 700 * (i + 1));
		ASSERT_EQ(0, edge_model_register(&m, &k, &q[i].mem, &owner_a,
						 &q[i].id));
	}
	calloc_calls = 0;
	calloc_fail = true;
	for (round = 0; round < 50; round++) {
		for (i = 0; i < 3; i++) {
			while (tq_room(&q[i]))
				tq_push(&q[i], round);
			tq_ring(&q[i]);
		}
		EXPECT_TRUE(edge_model_doorbell_pending(&m));
		edge_model_poll(&m);
		edge_model_set_sq_flags(&m, round & 1);
		edge_model_advance(&m, edge_model_now(&m) + 10);
		edge_model_run_until(&m, edge_model_next_time(&m));
		edge_model_run_until(&m, edge_model_now(&m) + 1500);
		for (i = 0; i < 3; i++)
			q[i].reaped = tq_cq_tail(&q[i]);
	}
	edge_model_run_until(&m, EDGE_TIME_NEVER);
	EXPECT_EQ(0, edge_model_unregister(&m, q[0].id, &owner_a));
	tq_push(&q[1], 1);
	tq_ring(&q[1]);
	EXPECT_EQ(1U, edge_model_cancel(&m, q[1].id));
	EXPECT_GT(m.st.completed, 1000ULL);
	model_fini(&m);
	calloc_fail = false;
	EXPECT_EQ(0UL, calloc_calls);
	for (i = 0; i < 3; i++)
		tq_free(&q[i]);
	EXPECT_NO_LEAKS();
}

/* Hostile doorbells cost the ring's owner, never the model's bounds. */
TEST(model_hostile_doorbell)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;
	u32 n;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));

	/* Far ahead: only what fits is taken. */
	db_page[q.id] = 1000000;
	EXPECT_EQ(8U, edge_model_poll(&m));
	EXPECT_EQ(8U, m.inflight);
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(0U, edge_model_poll(&m));
	EXPECT_EQ(-EBUSY, edge_model_unregister(&m, q.id, &owner_a));
	EXPECT_EQ(8U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(8U, tq_cq_tail(&q));

	/* Behind head: a huge count, clamped the same way. */
	db_page[q.id] = 3;
	EXPECT_TRUE(edge_model_doorbell_pending(&m));
	EXPECT_EQ(8U, edge_model_poll(&m));
	EXPECT_EQ(16U, tq_sq_head(&q));
	/* Eight event warps on free resources, one pending step each. */
	EXPECT_EQ(8U, m.eng.len);
	EXPECT_LE(m.eng.len, m.eng.cap);

	/*
	 * Cancel takes what is in flight; every slot holds one of those, so
	 * the hostile tail adds nothing and no slot is written twice.
	 */
	n = edge_model_cancel(&m, q.id);
	EXPECT_EQ(8U, n);
	EXPECT_EQ(8U + n, tq_cq_tail(&q));
	EXPECT_EQ(8ULL + n, m.st.submitted);
	EXPECT_EQ(0U, m.inflight);
	EXPECT_EQ(0U, m.eng.len);
	EXPECT_TRUE(edge_simt_idle(&m.simt));
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/* Event numbers wrap at 2^32 without a hiccup (white box: head set). */
TEST(model_u32_wrap)
{
	u32 start = 0xfffffffdU, seq, i;
	struct edge_ekt_entry *ent;
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 8, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 8, 8, 700);
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	ent = edge_ekt_get(&m.ekt, q.id);
	ASSERT_NE(NULL, ent);
	ent->ring.head = start;
	ent->ring.published = start;
	q.tail = start;
	q.reaped = start;

	for (i = 0; i < 6; i++)
		tq_push(&q, start + i);
	tq_ring(&q);
	EXPECT_EQ(3U, db_page[q.id]);
	EXPECT_EQ(6U, edge_model_poll(&m));
	EXPECT_EQ(3U, tq_sq_head(&q));
	EXPECT_EQ(6U, run_done(&m, EDGE_TIME_NEVER));
	EXPECT_EQ(3U, tq_cq_tail(&q));
	for (i = 0, seq = start; i < 6; i++, seq++) {
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, seq),
			  tq_cqe(&q, seq)->status);
		EXPECT_EQ(seq, tq_cqe(&q, seq)->res);
	}
	q.reaped += 6;

	/* Cancel across the wrap: in flight below 0, rung above. */
	ent->ring.head = start;
	ent->ring.published = start;
	q.tail = start;
	q.reaped = start;
	for (i = 0; i < 5; i++)
		tq_push(&q, i);
	tq_ring(&q);
	EXPECT_EQ(5U, edge_model_poll(&m));
	tq_push(&q, 5);
	tq_ring(&q);
	EXPECT_EQ(6U, edge_model_cancel(&m, q.id));
	for (i = 0, seq = start; i < 6; i++, seq++)
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, seq),
			  tq_cqe(&q, seq)->status);
	EXPECT_EQ(3U, tq_cq_tail(&q));
	EXPECT_EQ(3U, tq_sq_head(&q));
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/* EDGE_CQE_ERROR, counted apart (white box: a function drv/ would refuse). */
TEST(model_error_completions)
{
	struct edge_model m;
	struct edge_kdesc k;
	struct tq q;
	u32 i;

	model_init(_metadata, &m, edge_p());
	tq_alloc(_metadata, &q, 4, 8);
	kdesc(_metadata, &k, EDGE_FN_ECHO, 4, 8, 700);
	k.func = EDGE_FN_MAX + 1;
	ASSERT_EQ(0, edge_model_register(&m, &k, &q.mem, &owner_a, &q.id));
	for (i = 0; i < 3; i++)
		tq_push(&q, i);
	tq_ring(&q);
	EXPECT_EQ(3U, edge_model_poll(&m));
	EXPECT_EQ(3U, run_done(&m, EDGE_TIME_NEVER));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_ERROR, i),
			  tq_cqe(&q, i)->status);
		EXPECT_EQ((u32)EINVAL, tq_cqe(&q, i)->res);
	}
	EXPECT_EQ(3ULL, m.st.errors);
	EXPECT_EQ(0ULL, m.st.completed);
	EXPECT_EQ(3U, nnotes);
	expect_accounting(_metadata, &m);
	model_fini(&m);
	tq_free(&q);
	EXPECT_NO_LEAKS();
}

/*
 * A long random mix of everything drv/ does, on four entries (echo, nop,
 * a failing function, a slow echo), with cancels and re-registrations.
 * Returns the final stats; the notes hold every notification.
 */
#define SCEN_QUEUES	4
#define SCEN_STEPS	4000

static void scenario(struct __test_metadata *_metadata, u64 seed,
		     struct edge_model_stats *st, u64 *reaped_sum)
{
	static const u32 entries[SCEN_QUEUES] = { 8, 16, 4, 32 };
	static const u64 cycles[SCEN_QUEUES] = { 700, 1400, 2100, 7 };
	struct tq q[SCEN_QUEUES];
	struct edge_kdesc k[SCEN_QUEUES];
	void *owner[SCEN_QUEUES] = { &owner_a, &owner_b, &owner_c, &owner_a };
	struct emul_rng rng;
	struct edge_model m;
	u32 i, step;

	emul_rng_seed(&rng, seed);
	model_init(_metadata, &m, edge_p());
	*reaped_sum = 0;
	for (i = 0; i < SCEN_QUEUES; i++) {
		tq_alloc(_metadata, &q[i], entries[i], 8);
		kdesc(_metadata, &k[i], i == 1 ? EDGE_FN_NOP : EDGE_FN_ECHO,
		      entries[i], 8, cycles[i]);
		if (i == 2)
			k[i].func = EDGE_FN_INVALID;
		ASSERT_EQ(0, edge_model_register(&m, &k[i], &q[i].mem,
						 owner[i], &q[i].id));
	}

	for (step = 0; step < SCEN_STEPS; step++) {
		u32 op = emul_rand_below(&rng, 100);
		struct tq *t = &q[emul_rand_below(&rng, SCEN_QUEUES)];

		if (op < 40) {
			u32 n = emul_rand_below(&rng, t->entries + 1);

			while (n-- && tq_room(t))
				tq_push(t, (u32)emul_rand(&rng));
			tq_ring(t);
		} else if (op < 60) {
			edge_model_poll(&m);
		} else if (op < 70) {
			edge_model_advance(&m, edge_model_now(&m) +
					   emul_rand_below(&rng, 3000));
		} else if (op < 80) {
			edge_model_run_until(&m, edge_model_now(&m) +
					     emul_rand_below(&rng, 3000));
		} else if (op < 95) {
			edge_model_run_until(&m, edge_model_next_time(&m));
		} else if (op < 97) {
			u32 j = (u32)(t - q);

			edge_model_cancel(&m, t->id);
			tq_reset(t);
			ASSERT_EQ(0, edge_model_register(&m, &k[j], &t->mem,
							 owner[j], &t->id));
			ASSERT_EQ(j, t->id);
		} else {
			/* Unregister when idle, else it must refuse. */
			u32 j = (u32)(t - q);
			int ret = edge_model_unregister(&m, t->id, owner[j]);

			if (ret == 0) {
				tq_reset(t);
				ASSERT_EQ(0, edge_model_register(&m, &k[j],
								 &t->mem,
								 owner[j],
								 &t->id));
			} else {
				ASSERT_EQ(-EBUSY, ret);
			}
		}
		/* The user reaps what is there, checking each tag. */
		for (i = 0; i < SCEN_QUEUES; i++) {
			while (q[i].reaped != tq_cq_tail(&q[i])) {
				struct edge_cqe *c = tq_cqe(&q[i], q[i].reaped);

				ASSERT_EQ(q[i].reaped & EDGE_CQE_SEQ_MASK,
					  EDGE_CQE_SEQ(c->status));
				if (EDGE_CQE_CODE(c->status) == EDGE_CQE_DONE &&
				    k[i].func == EDGE_FN_ECHO)
					ASSERT_EQ(*tq_param(&q[i], q[i].reaped),
						  c->res);
				*reaped_sum = *reaped_sum * 31 + c->res +
					      c->status;
				q[i].reaped++;
			}
		}
		ASSERT_LE(m.eng.len, m.eng.cap);
		ASSERT_EQ(m.st.submitted, m.st.completed + m.st.errors +
					  m.st.cancelled + m.inflight);
	}
	/* Drain: ring nothing more, run everything, everything completes. */
	edge_model_poll(&m);
	edge_model_run_until(&m, EDGE_TIME_NEVER);
	edge_model_poll(&m);
	edge_model_run_until(&m, EDGE_TIME_NEVER);
	EXPECT_EQ(0U, m.inflight);
	EXPECT_FALSE(edge_model_doorbell_pending(&m));
	for (i = 0; i < SCEN_QUEUES; i++) {
		const struct edge_ekt_entry *e = &m.ekt.e[q[i].id];

		EXPECT_EQ(q[i].tail, tq_cq_tail(&q[i]));
		EXPECT_EQ(e->submitted, e->completed + e->cancelled);
		EXPECT_EQ(0, edge_model_unregister(&m, q[i].id, owner[i]));
	}
	expect_accounting(_metadata, &m);
	EXPECT_GT(m.st.completed, 1000ULL);
	EXPECT_GT(m.st.errors, 100ULL);
	EXPECT_GT(m.st.cancelled, 10ULL);
	*st = m.st;
	model_fini(&m);
	for (i = 0; i < SCEN_QUEUES; i++)
		tq_free(&q[i]);
}

TEST(model_accounting_and_determinism)
{
	static struct note first[MAX_NOTES];
	struct edge_model_stats st1, st2;
	u64 sum1, sum2;
	u32 n1, i;

	scenario(_metadata, 0xdecaf, &st1, &sum1);
	n1 = nnotes;
	ASSERT_LE(n1, MAX_NOTES);
	ASSERT_GT(n1, 1000U);
	memcpy(first, notes, n1 * sizeof(*notes));
	/* Model time never runs backwards across notifications. */
	for (i = 1; i < n1; i++)
		ASSERT_LE(first[i - 1].now, first[i].now);

	memset(notes, 0, sizeof(notes));
	scenario(_metadata, 0xdecaf, &st2, &sum2);
	EXPECT_EQ(n1, nnotes);
	for (i = 0; i < n1; i++) {
		ASSERT_EQ(first[i].owner, notes[i].owner) TH_LOG("note %u", i);
		ASSERT_EQ(first[i].id, notes[i].id) TH_LOG("note %u", i);
		ASSERT_EQ(first[i].now, notes[i].now) TH_LOG("note %u", i);
	}
	EXPECT_EQ(0, memcmp(&st1, &st2, sizeof(st1)));
	EXPECT_EQ(sum1, sum2);

	/* And a different input does change the record. */
	scenario(_metadata, 0xc0ffee, &st2, &sum2);
	EXPECT_NE(sum1, sum2);
	EXPECT_NO_LEAKS();
}

/*
 * Event deadlines (REGISTER VER3): behind a background that fills the
 * GPU, under draining, the waiting events start earliest deadline first
 * whatever order they were rung in, and one that ends after its deadline
 * is still DONE but counts as late.  Without deadlines: rung order.
 */
static u32 deadline_case(struct __test_metadata *_metadata, u64 dl_a,
			 u64 dl_b, u64 *late)
{
	struct edge_simt_cfg cfg;
	struct edge_model m;
	struct edge_kdesc bg, a, b;
	struct edge_register r;
	struct tq qbg, qa, qb;
	u32 first, i;

	model_init(_metadata, &m, edge_p());
	cfg = m.simt.cfg;
	cfg.sched = EDGE_SCHED_DRAIN;
	ASSERT_EQ(0, edge_model_set_cfg(&m, &cfg));
	/* 32 TBs of 1024 threads: two per core, the whole GPU, 100 us. */
	r = emul_reg_one_warp();
	r.func = EDGE_FN_NOP;
	r.grid_x = 32;
	r.block_x = 1024;
	r.regs_per_thread = 16;
	r.warp_cycles = 70000;
	r.ring_entries = 4;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &bg));
	tq_alloc(_metadata, &qbg, 4, 8);
	ASSERT_EQ(0, edge_model_register(&m, &bg, &qbg.mem, &owner_a, &qbg.id));
	r = emul_reg_one_warp();
	r.deadline_ns = dl_a;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &a));
	EXPECT_EQ(dl_a, a.deadline_ns);
	tq_alloc(_metadata, &qa, 64, 8);
	ASSERT_EQ(0, edge_model_register(&m, &a, &qa.mem, &owner_a, &qa.id));
	r.deadline_ns = dl_b;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &b));
	tq_alloc(_metadata, &qb, 64, 8);
	ASSERT_EQ(0, edge_model_register(&m, &b, &qb.mem, &owner_a, &qb.id));

	tq_push(&qbg, 0);
	tq_ring(&qbg);
	EXPECT_EQ(1U, edge_model_poll(&m));
	edge_model_run_until(&m, 1000);
	/* A first, then B, each a poll of its own. */
	tq_push(&qa, 1);
	tq_ring(&qa);
	EXPECT_EQ(1U, edge_model_poll(&m));
	edge_model_run_until(&m, 2000);
	tq_push(&qb, 2);
	tq_ring(&qb);
	EXPECT_EQ(1U, edge_model_poll(&m));
	/* Both wait for the background's TBs to end... */
	EXPECT_EQ(0U, run_done(&m, 90000));
	edge_model_run_until(&m, EDGE_TIME_NEVER);
	/* ... and the first placed is the first published. */
	for (i = 0, first = ~0U; i < nnotes && i < MAX_NOTES; i++) {
		if (notes[i].id == qa.id || notes[i].id == qb.id) {
			first = notes[i].id;
			break;
		}
	}
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), tq_cqe(&qa, 0)->status);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0), tq_cqe(&qb, 0)->status);
	expect_accounting(_metadata, &m);
	*late = m.st.late;
	EXPECT_EQ(m.st.late, m.ekt.e[qa.id].late + m.ekt.e[qb.id].late);
	EXPECT_NE(~0U, first);
	first = first == qa.id ? 0 : 1;
	model_fini(&m);
	tq_free(&qbg);
	tq_free(&qa);
	tq_free(&qb);
	return first;
}

TEST(model_event_deadlines)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_kdesc k;
	u64 late;

	/* No deadlines: in the order rung; nothing is late. */
	EXPECT_EQ(0U, deadline_case(_metadata, 0, 0, &late));
	EXPECT_EQ(0ULL, late);
	/* B, rung second, is due first: it starts first; both in time. */
	EXPECT_EQ(1U, deadline_case(_metadata, 1000000, 500000, &late));
	EXPECT_EQ(0ULL, late);
	/* A due first: rung order again. */
	EXPECT_EQ(0U, deadline_case(_metadata, 500000, 1000000, &late));
	/* B due in 10 us behind a 100 us background: first, but late. */
	EXPECT_EQ(1U, deadline_case(_metadata, 1000000, 10000, &late));
	EXPECT_EQ(1ULL, late);
	/* Both late. */
	EXPECT_EQ(1U, deadline_case(_metadata, 20000, 10000, &late));
	EXPECT_EQ(2ULL, late);

	r.deadline_ns = EDGE_MAX_DEADLINE_NS + 1;
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &r, &k));
	r.deadline_ns = EDGE_MAX_DEADLINE_NS;
	EXPECT_EQ(0, edge_validate_register(edge_p(), &r, &k));
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

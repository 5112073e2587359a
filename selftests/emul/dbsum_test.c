// SPDX-License-Identifier: GPL-2.0
/*
 * The doorbell summary (uapi "Doorbell summary", emul/model.c): a step
 * polls the entries whose summary bits it takes, and finds a doorbell
 * rung without its bit within EDGE_DB_SCAN_STEPS steps, or at the next
 * step after edge_model_rescan().
 */
#include "emul_test.h"
#include "model.h"
#include "validate.h"

#define PAGE	4096U
#define NQ	3

struct rig {
	struct edge_model m;
	u32 *db;			/* the doorbell page */
	u64 *sum;			/* its summary word */
	struct edge_ring_mem mem[NQ];
	u32 id[NQ];
	u32 tail[NQ];
};

/*
 * Register one entry of @entries events of @block_x threads a block,
 * whose doorbell is on the page @db and its summary word @sum (NULL:
 * none), its rings in fresh memory (@mem).
 */
static void add_entry(struct __test_metadata *_metadata, struct rig *r,
		      u32 entries, u32 block_x, u32 *db, u64 *sum,
		      struct edge_ring_mem *mem, u32 *id)
{
	struct edge_register reg = emul_reg_one_warp();
	struct edge_kdesc k;

	reg.ring_entries = entries;
	reg.block_x = block_x;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &reg, &k));
	edge_ring_layout(entries, 8, PAGE, &mem->layout);
	mem->doorbells = db;
	mem->summary = sum;
	mem->sq = calloc(1, mem->layout.sq_size);
	mem->cq = calloc(1, mem->layout.cq_size);
	ASSERT_NE(NULL, mem->sq);
	ASSERT_NE(NULL, mem->cq);
	ASSERT_EQ(0, edge_model_register(&r->m, &k, mem, &r->m, id));
}

static void rig_init(struct __test_metadata *_metadata, struct rig *r,
		     bool with_summary)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	r->db = calloc(1, PAGE);
	ASSERT_NE(NULL, r->db);
	r->sum = (u64 *)(r->db + EDGE_EKT_ENTRIES);
	ASSERT_EQ(0, edge_model_init(&r->m, edge_p(), NULL));
	for (i = 0; i < NQ; i++)
		add_entry(_metadata, r, 8, 32, r->db,
			  with_summary ? r->sum : NULL, &r->mem[i], &r->id[i]);
}

static void rig_fini(struct rig *r)
{
	u32 i;

	edge_model_fini(&r->m);
	for (i = 0; i < NQ; i++) {
		free(r->mem[i].sq);
		free(r->mem[i].cq);
	}
	free(r->db);
}

/* Ring entry @q once; with @bit, as libedge does, else as an old one. */
static void ring(struct rig *r, u32 q, bool bit)
{
	r->tail[q]++;
	__atomic_store_n(&r->db[r->id[q]], r->tail[q], __ATOMIC_RELEASE);
	if (bit)
		__atomic_fetch_or(r->sum, BIT_ULL(r->id[q]), __ATOMIC_SEQ_CST);
}

static u32 sq_head(const struct rig *r, u32 q)
{
	return *emul_word(r->mem[q].sq, r->mem[q].layout.sq_head);
}

/* Steps until entry @q's event is consumed; ~0 if not within @max. */
static u32 steps_to_consume(struct rig *r, u32 q, u32 max)
{
	u32 i;

	for (i = 1; i <= max; i++) {
		edge_model_poll(&r->m);
		if (sq_head(r, q) == r->tail[q])
			return i;
	}
	return ~0U;
}

/* With its bit, a doorbell is taken at the next step, and the bit too. */
TEST(dbsum_bit_taken_at_once)
{
	struct rig r;

	rig_init(_metadata, &r, true);
	ring(&r, 1, true);
	EXPECT_EQ(1U, steps_to_consume(&r, 1, 1));
	EXPECT_EQ(0ULL, *r.sum);
	EXPECT_EQ(1ULL, r.m.st.submitted);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * Without its bit (an older producer): not at the next step, which looks
 * at nothing else, but within EDGE_DB_SCAN_STEPS steps, by the full poll.
 */
TEST(dbsum_no_bit_found_by_the_scan)
{
	struct rig r;
	u32 n;

	rig_init(_metadata, &r, true);
	/* Start a scan period: every step before its end sees only bits. */
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	ring(&r, 2, false);
	n = steps_to_consume(&r, 2, 2 * EDGE_DB_SCAN_STEPS);
	EXPECT_EQ((u32)EDGE_DB_SCAN_STEPS, n);
	EXPECT_EQ(1ULL, r.m.st.submitted);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/* edge_model_rescan() (the front end after a sleep): the next step. */
TEST(dbsum_rescan_finds_it_next)
{
	struct rig r;

	rig_init(_metadata, &r, true);
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	ring(&r, 0, false);
	EXPECT_EQ(0U, edge_model_poll(&r.m));
	EXPECT_TRUE(edge_model_doorbell_pending(&r.m));
	edge_model_rescan(&r.m);
	EXPECT_EQ(1U, steps_to_consume(&r, 0, 1));
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * A step looks at the entries whose bits it took, not at the others: an
 * unrung entry's sq_head word that a producer scribbled on is mended at
 * the full poll, not before.  A bit set for nothing costs a look.
 */
TEST(dbsum_only_rung_entries_polled)
{
	struct rig r;
	u32 i, *sqh;

	rig_init(_metadata, &r, true);
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	sqh = emul_word(r.mem[0].sq, r.mem[0].layout.sq_head);
	*sqh = 77;
	ring(&r, 1, true);
	EXPECT_EQ(1U, edge_model_poll(&r.m));
	EXPECT_EQ(77U, *sqh);
	__atomic_fetch_or(r.sum, BIT_ULL(r.id[2]) | BIT_ULL(50),
			  __ATOMIC_SEQ_CST);
	EXPECT_EQ(0U, edge_model_poll(&r.m));
	EXPECT_EQ(0ULL, *r.sum);
	for (i = 0; i < EDGE_DB_SCAN_STEPS; i++)
		edge_model_poll(&r.m);
	EXPECT_EQ(0U, *sqh);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * Backpressure: a doorbell of more events than the SIMT model's queues
 * take leaves the rest in the ring, and its bit is spent.  The rest is
 * looked at again at the next step, not only at the full poll.
 */
TEST(dbsum_backpressure_polled_again)
{
	struct edge_ring_mem mem;
	struct rig r;
	u32 id, first, i;

	rig_init(_metadata, &r, true);
	add_entry(_metadata, &r, 4096, 32, r.db, r.sum, &mem, &id);
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	__atomic_store_n(&r.db[id], 4096, __ATOMIC_RELEASE);
	__atomic_fetch_or(r.sum, BIT_ULL(id), __ATOMIC_SEQ_CST);
	first = edge_model_poll(&r.m);
	ASSERT_GT(first, 0U);
	ASSERT_LT(first, 4096U);
	/* Room comes back as events complete; nobody rings again. */
	edge_model_run_until(&r.m, EDGE_TIME_NEVER - 1);
	EXPECT_GT(edge_model_poll(&r.m), 0U);
	for (i = 0; i < 64 && r.m.st.submitted < 4096; i++) {
		edge_model_run_until(&r.m, EDGE_TIME_NEVER - 1);
		edge_model_poll(&r.m);
	}
	EXPECT_EQ(4096ULL, r.m.st.submitted);
	rig_fini(&r);
	free(mem.sq);
	free(mem.cq);
	EXPECT_NO_LEAKS();
}

/*
 * How much a doorbell of 4096 events puts into the SIMT model's queues
 * at once, with nothing scheduled: an entry of TB kernels stops short
 * of a full KMU, leaving a kernel's room for every CP job; an entry of
 * event warps fills the pending event-warp queue (poll_entry() tells
 * the two apart by ent->ewarp, kept from registration).
 */
static u32 consumed_at_once(struct __test_metadata *_metadata, u32 block_x)
{
	struct edge_ring_mem mem;
	struct rig r;
	u32 id, n;

	rig_init(_metadata, &r, true);
	add_entry(_metadata, &r, 4096, block_x, r.db, r.sum, &mem, &id);
	__atomic_store_n(&r.db[id], 4096, __ATOMIC_RELEASE);
	__atomic_fetch_or(r.sum, BIT_ULL(id), __ATOMIC_SEQ_CST);
	n = edge_model_consume(&r.m);
	rig_fini(&r);
	free(mem.sq);
	free(mem.cq);
	return n;
}

TEST(dbsum_backpressure_by_kind)
{
	/* One warp: an event warp.  Two: a TB kernel. */
	EXPECT_EQ((u32)EDGE_EWARP_PENDING, consumed_at_once(_metadata, 32));
	EXPECT_EQ((u32)(EDGE_KMU_PENDING + EDGE_KDU_RUNNING - EDGE_CP_JOBS),
		  consumed_at_once(_metadata, 64));
	EXPECT_NO_LEAKS();
}

/* Entries without a summary word (no page to hold one): every step. */
TEST(dbsum_without_summary_every_step)
{
	struct rig r;

	rig_init(_metadata, &r, false);
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	ring(&r, 2, false);
	EXPECT_EQ(1U, steps_to_consume(&r, 2, 1));
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * Two pages (two files): each entry follows its own page's word, also
 * after the first page's entries leave (the words are renumbered).
 */
TEST(dbsum_two_pages)
{
	struct rig r;
	u32 *db2 = calloc(1, PAGE);
	u64 *sum2 = (u64 *)(db2 + EDGE_EKT_ENTRIES);
	struct edge_register reg = emul_reg_one_warp();
	struct edge_ring_mem mem2;
	struct edge_kdesc k;
	u32 id2, i, t2 = 0;

	ASSERT_NE(NULL, db2);
	rig_init(_metadata, &r, true);
	add_entry(_metadata, &r, 8, 32, db2, sum2, &mem2, &id2);
	/* rig_init()'s kernel, to register the first page's entry again. */
	reg.ring_entries = 8;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &reg, &k));
	EXPECT_EQ(2U, r.m.nr_sum);
	/* The first page's entries go: its word leaves, the second's moves. */
	for (i = 0; i < NQ; i++)
		EXPECT_EQ(0, edge_model_unregister(&r.m, r.id[i], &r.m));
	EXPECT_EQ(1U, r.m.nr_sum);
	edge_model_rescan(&r.m);
	edge_model_poll(&r.m);
	__atomic_store_n(&db2[id2], ++t2, __ATOMIC_RELEASE);
	__atomic_fetch_or(sum2, BIT_ULL(id2), __ATOMIC_SEQ_CST);
	EXPECT_EQ(1U, edge_model_poll(&r.m));
	EXPECT_EQ(0ULL, *sum2);
	/* The first page again, then the second page's entry leaves. */
	memset(r.mem[0].sq, 0, r.mem[0].layout.sq_size);
	memset(r.mem[0].cq, 0, r.mem[0].layout.cq_size);
	r.tail[0] = 0;
	ASSERT_EQ(0, edge_model_register(&r.m, &k, &r.mem[0], &r.m, &r.id[0]));
	EXPECT_EQ(2U, r.m.nr_sum);
	edge_model_run_until(&r.m, EDGE_TIME_NEVER - 1);
	EXPECT_EQ(0, edge_model_unregister(&r.m, id2, &r.m));
	EXPECT_EQ(1U, r.m.nr_sum);
	ring(&r, 0, true);
	EXPECT_EQ(1U, edge_model_poll(&r.m));
	rig_fini(&r);
	free(mem2.sq);
	free(mem2.cq);
	free(db2);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

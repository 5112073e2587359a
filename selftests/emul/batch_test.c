// SPDX-License-Identifier: GPL-2.0
/*
 * Batched event warps (uapi VER5, emul/model.c poll_batched()): N rung
 * requests go as ceil(N / requests_per_warp) warps, each request gets
 * its own CQE with its own status and result, a partial warp goes when
 * its gather wait ends, and a cancel mid-gather gives every request a
 * status.  Driven as drv/frontend.c drives the model in virtual time.
 */
#include "emul_test.h"
#include "model.h"
#include "validate.h"
#include "fn/func.h"
#include "fn/warp_cost.h"

#define PAGE	4096U
#define PSZ	16U	/* struct edge_crc_param and 8 bytes of data */
#define RING	256U
#define RPW	32U
#define GATHER	5000U	/* ns */
#define CYC	700U	/* 1 us at the edge preset's 700 MHz */

struct rig {
	struct edge_model m;
	u32 *db;
	struct edge_ring_mem mem;
	u32 id;
	u32 tail;
};

static void rig_init(struct __test_metadata *_metadata, struct rig *r,
		     u32 rpw, u32 gather)
{
	struct edge_register reg = emul_reg_one_warp();
	struct edge_kdesc k;

	memset(r, 0, sizeof(*r));
	reg.func = EDGE_FN_CRC32C;
	reg.param_size = PSZ;
	reg.ring_entries = RING;
	reg.warp_cycles = CYC;
	if (rpw) {
		reg.flags = EDGE_REGISTER_WARP_BATCH;
		reg.requests_per_warp = rpw;
		reg.gather_ns = gather;
	}
	ASSERT_EQ(0, edge_validate_register(edge_p(), &reg, &k));
	r->db = calloc(1, PAGE);
	ASSERT_NE(NULL, r->db);
	ASSERT_EQ(0, edge_model_init(&r->m, edge_p(), NULL));
	edge_ring_layout(RING, PSZ, PAGE, &r->mem.layout);
	r->mem.doorbells = r->db;
	r->mem.summary = NULL;	/* polled every step */
	r->mem.sq = calloc(1, r->mem.layout.sq_size);
	r->mem.cq = calloc(1, r->mem.layout.cq_size);
	ASSERT_NE(NULL, r->mem.sq);
	ASSERT_NE(NULL, r->mem.cq);
	ASSERT_EQ(0, edge_model_register(&r->m, &k, &r->mem, r, &r->id));
}

static void rig_fini(struct rig *r)
{
	edge_model_fini(&r->m);
	free(r->mem.sq);
	free(r->mem.cq);
	free(r->db);
}

static struct edge_crc_param *param(struct rig *r, u32 seq)
{
	return (struct edge_crc_param *)((u8 *)r->mem.sq +
					 r->mem.layout.sq_entries +
					 (seq & (RING - 1)) * PSZ);
}

static struct edge_cqe *cqe(struct rig *r, u32 seq)
{
	return (struct edge_cqe *)((u8 *)r->mem.cq + r->mem.layout.cq_cqes) +
	       (seq & (RING - 1));
}

/* Request @seq: good ones a CRC of its number; every third too long. */
static bool good(u32 seq)
{
	return seq % 3 != 2;
}

static void ring(struct rig *r, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct edge_crc_param *p = param(r, r->tail + i);
		u32 v = r->tail + i;

		p->len = good(r->tail + i) ? 4 : 9;
		p->crc = 0;
		memcpy(p->data, &v, 4);
	}
	r->tail += n;
	__atomic_store_n(&r->db[r->id], r->tail, __ATOMIC_RELEASE);
}

static u32 sq_head(const struct rig *r)
{
	return *emul_word(r->mem.sq, r->mem.layout.sq_head);
}

static u64 launched(const struct rig *r)
{
	return r->m.simt.st.tag[r->id].launched;
}

/* frontend_step() in virtual time. */
static u32 step(struct rig *r)
{
	u32 work = edge_model_consume(&r->m);

	if (work)
		return work + edge_model_schedule_run(&r->m, true, 4096);
	return edge_model_run_next(&r->m, 4096);
}

/* Step until nothing is queued, in flight or rung; false if it never is. */
static bool run_idle(struct rig *r)
{
	u32 i;

	for (i = 0; i < 100000; i++) {
		step(r);
		if (edge_model_next_time(&r->m) == EDGE_TIME_NEVER &&
		    !r->m.inflight && sq_head(r) == r->tail)
			return true;
	}
	return false;
}

/* Requests [from, to) completed, each with its own status and result. */
static void check_done(struct __test_metadata *_metadata, struct rig *r,
		       u32 from, u32 to)
{
	u32 s;

	for (s = from; s < to; s++) {
		u32 st = cqe(r, s)->status, v = s;

		EXPECT_EQ(s & EDGE_CQE_SEQ_MASK, EDGE_CQE_SEQ(st)) TH_LOG("seq %u", s);
		if (good(s)) {
			EXPECT_EQ((u32)EDGE_CQE_DONE, EDGE_CQE_CODE(st)) TH_LOG("seq %u", s);
			EXPECT_EQ(edge_crc32c(~0U, (const u8 *)&v, 4) ^ ~0U,
				  cqe(r, s)->res) TH_LOG("seq %u", s);
		} else {
			EXPECT_EQ((u32)EDGE_CQE_ERROR, EDGE_CQE_CODE(st)) TH_LOG("seq %u", s);
			EXPECT_EQ((u32)EINVAL, cqe(r, s)->res) TH_LOG("seq %u", s);
		}
	}
}

/* N pending requests go as ceil(N / 32) warps, each request its own CQE. */
TEST(batch_ceil_warps)
{
	static const u32 ns[] = { 1, 31, 32, 33, 64, 70, 100, 256 };
	struct rig r;
	u32 i;

	rig_init(_metadata, &r, RPW, GATHER);
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		u64 before = launched(&r), done = r.m.st.completed + r.m.st.errors;
		u32 from = r.tail;

		ring(&r, ns[i]);
		ASSERT_TRUE(run_idle(&r));
		EXPECT_EQ((u64)(ns[i] + RPW - 1) / RPW, launched(&r) - before)
			TH_LOG("%u requests", ns[i]);
		EXPECT_EQ((u64)ns[i], r.m.st.completed + r.m.st.errors - done);
		check_done(_metadata, &r, from, r.tail);
		/* The count a poller reads, stored once a warp: all of them. */
		EXPECT_EQ(r.tail, *emul_word(r.mem.cq, r.mem.layout.cq_tail));
	}
	EXPECT_EQ(0U, r.m.inflight);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/* Unbatched (the default), every request is a warp: as before VER5. */
TEST(batch_default_one_per_warp)
{
	struct rig r;

	rig_init(_metadata, &r, 0, 0);
	ring(&r, 70);
	ASSERT_TRUE(run_idle(&r));
	EXPECT_EQ(70U, launched(&r));
	check_done(_metadata, &r, 0, 70);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * A full warp goes at the step that finds it; a lone request is held
 * (not consumed) for exactly its gather wait, then goes alone.
 */
TEST(batch_gather_timeout)
{
	struct rig r;
	u64 t0;

	rig_init(_metadata, &r, RPW, GATHER);
	ring(&r, RPW);
	t0 = edge_model_now(&r.m);
	EXPECT_EQ((u32)RPW, edge_model_consume(&r.m));
	EXPECT_EQ(1U, launched(&r));
	edge_model_schedule(&r.m);
	ASSERT_TRUE(run_idle(&r));

	t0 = edge_model_now(&r.m);
	ring(&r, 1);
	EXPECT_EQ(0U, edge_model_consume(&r.m));
	EXPECT_EQ((u32)RPW, sq_head(&r));
	/* Nothing to act on before the timer: the front end may sleep. */
	EXPECT_FALSE(edge_model_doorbell_pending(&r.m));
	/* The gather timer is the next event, GATHER ns on. */
	EXPECT_EQ((u64)t0 + GATHER, edge_model_next_time(&r.m));
	while (launched(&r) == 1 && edge_model_now(&r.m) < t0 + 10 * GATHER)
		step(&r);
	EXPECT_EQ(2U, launched(&r));
	EXPECT_EQ((u64)t0 + GATHER, edge_model_now(&r.m));
	EXPECT_EQ((u32)RPW + 1, sq_head(&r));
	ASSERT_TRUE(run_idle(&r));
	check_done(_metadata, &r, 0, RPW + 1);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/* More requests while one is held: they go with it when the warp fills. */
TEST(batch_gather_fills)
{
	struct rig r;
	u64 t0;

	rig_init(_metadata, &r, RPW, GATHER);
	t0 = edge_model_now(&r.m);
	ring(&r, 10);
	EXPECT_EQ(0U, edge_model_consume(&r.m));
	ring(&r, RPW - 10);
	EXPECT_EQ((u32)RPW, edge_model_consume(&r.m));
	EXPECT_EQ(1U, launched(&r));
	EXPECT_EQ(t0, edge_model_now(&r.m));
	edge_model_schedule(&r.m);
	ASSERT_TRUE(run_idle(&r));
	/* The stale timer launched nothing. */
	EXPECT_EQ(1U, launched(&r));
	check_done(_metadata, &r, 0, RPW);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * Cancel (teardown) with one warp in flight and a partial one gathering:
 * every request gets a status, none is lost; and unregister refuses
 * while requests are gathered.
 */
TEST(batch_cancel_mid_gather)
{
	struct rig r;
	u32 s;

	rig_init(_metadata, &r, RPW, GATHER);
	ring(&r, RPW + 8);
	EXPECT_EQ((u32)RPW, edge_model_consume(&r.m));
	edge_model_schedule(&r.m);
	EXPECT_EQ((u32)RPW, r.m.inflight);
	EXPECT_EQ(-EBUSY, edge_model_unregister(&r.m, r.id, &r));
	EXPECT_EQ((u32)RPW + 8, edge_model_cancel(&r.m, r.id));
	for (s = 0; s < RPW + 8; s++)
		EXPECT_EQ((u32)EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, s),
			  cqe(&r, s)->status) TH_LOG("seq %u", s);
	EXPECT_EQ(0U, r.m.inflight);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_model_next_time(&r.m));
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/* The first warp done, the partial one still gathering, then cancel. */
TEST(batch_cancel_after_a_warp)
{
	struct rig r;
	u32 s;

	/* A gather wait far longer than the warp's 1 us. */
	rig_init(_metadata, &r, RPW, 100 * GATHER);
	ring(&r, RPW + 8);
	while (r.m.st.completed + r.m.st.errors < RPW)
		step(&r);
	EXPECT_EQ(1U, launched(&r));
	EXPECT_EQ(8U, edge_model_cancel(&r.m, r.id));
	check_done(_metadata, &r, 0, RPW);
	for (s = RPW; s < RPW + 8; s++)
		EXPECT_EQ((u32)EDGE_CQE_STATUS(EDGE_CQE_CANCELLED, s),
			  cqe(&r, s)->status) TH_LOG("seq %u", s);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

/*
 * The warp's cost (fn/warp_cost.h): a full warp is warp_cycles, lanes in
 * lockstep make it so for any count without memory share, and the
 * memory share scales with the requests.
 */
TEST(batch_warp_cycles)
{
	struct edge_kdesc k = { 0 };

	k.warp_cycles = 2300;
	k.requests_per_warp = 32;
	EXPECT_EQ(2300U, edge_warp_cycles(&k, 32));
	EXPECT_EQ(2300U, edge_warp_cycles(&k, 1));
	k.ws.mem_pct = 50;
	EXPECT_EQ(2300U, edge_warp_cycles(&k, 32));
	EXPECT_EQ(1725U, edge_warp_cycles(&k, 16));
	/* 2300 * (50 * 32 + 50) / 3200 = 1185.9: rounded up. */
	EXPECT_EQ(1186U, edge_warp_cycles(&k, 1));
	k.ws.mem_pct = 100;
	k.warp_cycles = 1;
	EXPECT_EQ(1U, edge_warp_cycles(&k, 1));
	k.requests_per_warp = 1;
	k.warp_cycles = 700;
	EXPECT_EQ(700U, edge_warp_cycles(&k, 1));
}

/* A partial warp of a memory-bound kernel runs for its modelled time. */
TEST(batch_partial_warp_timed)
{
	struct rig r;
	struct edge_register reg = emul_reg_one_warp();
	struct edge_kdesc k;
	u64 t0;

	/* Through the registration path, with half the time memory's. */
	memset(&r, 0, sizeof(r));
	reg.func = EDGE_FN_CRC32C;
	reg.param_size = PSZ;
	reg.ring_entries = RING;
	reg.warp_cycles = 7000;	/* 10 us */
	reg.ws.mem_pct = 50;
	reg.flags = EDGE_REGISTER_WARP_BATCH;
	reg.requests_per_warp = RPW;
	reg.gather_ns = GATHER;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &reg, &k));
	r.db = calloc(1, PAGE);
	ASSERT_NE(NULL, r.db);
	ASSERT_EQ(0, edge_model_init(&r.m, edge_p(), NULL));
	edge_ring_layout(RING, PSZ, PAGE, &r.mem.layout);
	r.mem.doorbells = r.db;
	r.mem.sq = calloc(1, r.mem.layout.sq_size);
	r.mem.cq = calloc(1, r.mem.layout.cq_size);
	ASSERT_EQ(0, edge_model_register(&r.m, &k, &r.mem, &r, &r.id));
	/* 16 requests: launched at GATHER, done 7.5 us later. */
	t0 = edge_model_now(&r.m);
	ring(&r, 16);
	while (r.m.st.completed + r.m.st.errors < 16)
		step(&r);
	EXPECT_EQ(t0 + GATHER + 7500, edge_model_now(&r.m));
	/* A full warp: 10 us. */
	t0 = edge_model_now(&r.m);
	ring(&r, RPW);
	while (r.m.st.completed + r.m.st.errors < 16 + RPW)
		step(&r);
	EXPECT_EQ(t0 + 10000, edge_model_now(&r.m));
	check_done(_metadata, &r, 0, 16 + RPW);
	rig_fini(&r);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * edge_model_schedule_run() is edge_model_schedule() then
 * edge_model_run_budget() to now or to the next event, in one call, so
 * that the launches the pass starts run in place (emul/gpu/preempt.c,
 * edge_preempt_run_deferred()); edge_model_run_next() is
 * edge_model_run_budget() to the next event's time.  Two models are
 * driven the same way, as
 * drv/frontend.c steps in virtual time and in real time, one with each:
 * every step must do the same work, and the clocks, the statistics, the
 * random state and every CQ must end up identical.
 */
#include "emul_test.h"
#include "model.h"
#include "validate.h"

#define PAGE	4096U
#define NQ	4
#define RING	16U

struct rig {
	struct edge_model m;
	u32 *db;
	u64 *sum;
	struct edge_ring_mem mem[NQ];
	u32 id[NQ];
	u32 tail[NQ];
};

static void rig_init(struct __test_metadata *_metadata, struct rig *r)
{
	struct edge_kdesc k;
	u32 i;

	memset(r, 0, sizeof(*r));
	r->db = calloc(1, PAGE);
	ASSERT_NE(NULL, r->db);
	r->sum = (u64 *)(r->db + EDGE_EKT_ENTRIES);
	ASSERT_EQ(0, edge_model_init(&r->m, edge_p(), NULL));
	for (i = 0; i < NQ; i++) {
		struct edge_register reg = emul_reg_one_warp();
		struct edge_ring_mem *mem = &r->mem[i];

		reg.ring_entries = RING;
		reg.priority = 1;
		/* Event warps of 1 cycle, 1000 ns and 2000 ns ... */
		reg.warp_cycles = i ? 700 * i : 1;
		if (i == NQ - 1) {
			/* ... beside TB kernels that fill cores and end. */
			reg.priority = 0;
			reg.grid_x = 128;
			reg.block_x = 512;
			reg.warp_cycles = 7000;
		}
		ASSERT_EQ(0, edge_validate_register(edge_p(), &reg, &k));
		edge_ring_layout(RING, 8, PAGE, &mem->layout);
		mem->doorbells = r->db;
		mem->summary = r->sum;
		mem->sq = calloc(1, mem->layout.sq_size);
		mem->cq = calloc(1, mem->layout.cq_size);
		ASSERT_NE(NULL, mem->sq);
		ASSERT_NE(NULL, mem->cq);
		ASSERT_EQ(0, edge_model_register(&r->m, &k, mem, &r->m,
						 &r->id[i]));
	}
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

/* Reap every completion, then ring up to @n more events on entry @q. */
static void ring(struct rig *r, u32 q, u32 n)
{
	struct edge_ring_mem *mem = &r->mem[q];
	u32 done = *emul_word(mem->cq, mem->layout.cq_tail);

	*emul_word(mem->cq, mem->layout.cq_head) = done;
	if (n > RING - (r->tail[q] - done))
		n = RING - (r->tail[q] - done);
	if (!n)
		return;
	r->tail[q] += n;
	__atomic_store_n(&r->db[r->id[q]], r->tail[q], __ATOMIC_RELEASE);
	__atomic_fetch_or(r->sum, BIT_ULL(r->id[q]), __ATOMIC_SEQ_CST);
}

/*
 * drv/frontend.c's step, the old way (@joined false) or the new (a step
 * of virtual time that consumed nothing runs edge_model_run_next()).
 */
static u32 step(struct rig *r, bool joined, bool virt, u32 budget)
{
	struct edge_model *m = &r->m;
	u32 work = edge_model_consume(m);

	if (work && joined)
		return work + edge_model_schedule_run(m, virt, budget);
	if (!work && joined && virt)
		return edge_model_run_next(m, budget);
	if (work)
		edge_model_schedule(m);
	return work + edge_model_run_budget(m, virt ? edge_model_next_time(m) :
					    edge_model_now(m), budget);
}

/*
 * @held false: model a holds nothing back (eng.pops_next false), so no
 * launch and no preempting event warp's first step runs in place; b
 * holds them.
 */
static void compare_held(struct __test_metadata *_metadata, bool virt,
			 u32 budget, bool held)
{
	static struct rig a, b;
	struct emul_rng rr;
	u32 i, q, wa, wb;

	rig_init(_metadata, &a);
	rig_init(_metadata, &b);
	a.m.eng.pops_next = held;
	emul_rng_seed(&rr, 7 + budget + virt);
	for (i = 0; i < 3000; i++) {
		/* Often several entries at one instant, TBs now and then. */
		for (q = 0; q < NQ; q++) {
			u32 n = emul_rand_below(&rr, q == NQ - 1 ? 12 : 3);

			if (q == NQ - 1 && n > 1)
				n = 0;
			ring(&a, q, n);
			ring(&b, q, n);
		}
		if (!virt && emul_rand_below(&rr, 2)) {
			u64 t = edge_model_now(&a.m) + 500 * emul_rand_below(&rr, 5);

			edge_model_advance(&a.m, t);
			edge_model_advance(&b.m, t);
		}
		wa = step(&a, false, virt, budget);
		wb = step(&b, true, virt, budget);
		ASSERT_EQ(wa, wb) TH_LOG("step %u", i);
		ASSERT_EQ(edge_model_now(&a.m), edge_model_now(&b.m));
	}
	EXPECT_EQ(0, memcmp(&a.m.st, &b.m.st, sizeof(a.m.st)));
	EXPECT_EQ(0, memcmp(&a.m.simt.st, &b.m.simt.st, sizeof(a.m.simt.st)));
	EXPECT_EQ(a.m.simt.rng.s, b.m.simt.rng.s);
	EXPECT_EQ(a.m.eng.len, b.m.eng.len);
	for (q = 0; q < NQ; q++)
		EXPECT_EQ(0, memcmp(a.mem[q].cq, b.mem[q].cq,
				    a.mem[q].layout.cq_size))
			TH_LOG("entry %u's CQ", q);
	EXPECT_NE(0ULL, a.m.st.completed);
	EXPECT_NE(0ULL, a.m.simt.st.preemptions);
	EXPECT_NE(0ULL, a.m.simt.st.ewarps_free);
	rig_fini(&a);
	rig_fini(&b);
}

static void compare(struct __test_metadata *_metadata, bool virt, u32 budget)
{
	compare_held(_metadata, virt, budget, true);
}

TEST(schedrun_virtual_time)
{
	compare(_metadata, true, 4096);
}

TEST(schedrun_virtual_time_small_budget)
{
	compare(_metadata, true, 2);
}

TEST(schedrun_real_time)
{
	compare(_metadata, false, 4096);
}

TEST(schedrun_real_time_small_budget)
{
	compare(_metadata, false, 3);
}

/*
 * Against a model that holds nothing back: the steps run in place (the
 * launches, and the first step of a preempting event warp, which moves
 * the clock) are exactly the events they replace.  (fold_test runs the
 * passes of event handlers through the same.)
 */
static void compare_unheld(struct __test_metadata *_metadata, bool virt,
			   u32 budget)
{
	compare_held(_metadata, virt, budget, false);
}

TEST(schedrun_nothing_held_virtual_time)
{
	compare_unheld(_metadata, true, 4096);
}

TEST(schedrun_nothing_held_small_budget)
{
	compare_unheld(_metadata, true, 2);
}

TEST(schedrun_nothing_held_budget_1)
{
	compare_unheld(_metadata, true, 1);
}

TEST(schedrun_nothing_held_real_time)
{
	compare_unheld(_metadata, false, 3);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Where the model draws its lines: an event is late the first
 * nanosecond after its deadline and not at it (emul/model.c's done
 * path: no grace), its deadline counts from its dispatch, not from time
 * 0; and the latency statistics fold as if every sample had been added
 * to one (emul/stats.c: the minimum, the maximum, the percentiles).
 *
 * The event: one warp of 700 cycles on the idle "edge" GPU, done exactly
 * 1000 ns after the poll that takes it (model_test.c,
 * model_duration_exact).
 */
#include "emul_test.h"
#include "model.h"
#include "stats.h"

#define PAGE	4096U

static int owner;

/* Submit one 1000 ns event at @t0 with @deadline; its late count. */
static u64 late_after(struct __test_metadata *_metadata, u64 t0,
		      u64 deadline)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_ring_mem mem;
	struct edge_model m;
	struct edge_kdesc k;
	u32 *db, id, *param;
	u64 late;

	r.deadline_ns = deadline;
	ASSERT_EQ(0, edge_validate_register(edge_p(), &r, &k));
	memset(&mem, 0, sizeof(mem));
	edge_ring_layout(64, 8, PAGE, &mem.layout);
	db = calloc(1, PAGE);
	mem.doorbells = db;
	mem.sq = calloc(1, mem.layout.sq_size);
	mem.cq = calloc(1, mem.layout.cq_size);
	ASSERT_NE(NULL, db);
	ASSERT_NE(NULL, mem.sq);
	ASSERT_NE(NULL, mem.cq);
	ASSERT_EQ(0, edge_model_init(&m, edge_p(), NULL));
	ASSERT_EQ(0, edge_model_register(&m, &k, &mem, &owner, &id));
	edge_model_advance(&m, t0);
	param = (u32 *)((u8 *)mem.sq + mem.layout.sq_entries);
	param[0] = 1;
	__atomic_store_n(&db[id], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(1U, edge_model_poll(&m));
	edge_model_run_until(&m, EDGE_TIME_NEVER);
	EXPECT_EQ(1ULL, m.st.completed);
	EXPECT_EQ(t0 + 1000, edge_model_now(&m));
	late = m.st.late;
	EXPECT_EQ(late, m.ekt.e[id].late);
	edge_model_fini(&m);
	free(mem.sq);
	free(mem.cq);
	free(db);
	return late;
}

TEST(event_late_past_its_deadline_not_at_it)
{
	/* Done at 1000 ns: on time at a deadline of 1000, late below. */
	EXPECT_EQ(0ULL, late_after(_metadata, 0, 1000));
	EXPECT_EQ(1ULL, late_after(_metadata, 0, 999));
	/* 5 % late is late: no grace. */
	EXPECT_EQ(1ULL, late_after(_metadata, 0, 950));
	EXPECT_EQ(1ULL, late_after(_metadata, 0, 910));
	EXPECT_EQ(0ULL, late_after(_metadata, 0, 1100));
	EXPECT_NO_LEAKS();
}

/* The deadline counts from the event's dispatch. */
TEST(event_deadline_from_dispatch)
{
	EXPECT_EQ(0ULL, late_after(_metadata, 50000, 1000));
	EXPECT_EQ(1ULL, late_after(_metadata, 50000, 999));
	EXPECT_EQ(0ULL, late_after(_metadata, 50000, 2000));
	EXPECT_NO_LEAKS();
}

static void lat_of(struct edge_lat *l, const u64 *v, u32 n)
{
	u32 i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++)
		edge_lat_add(l, v[i]);
}

/* Merged statistics are those of all the samples added to one. */
TEST(lat_merge_is_adding_every_sample)
{
	static const u64 a[] = { 7, 300, 12 }, b[] = { 3, 40 };
	static const u64 all[] = { 7, 300, 12, 3, 40 };
	struct edge_lat d, s, one;
	u32 pct;

	lat_of(&d, a, 3);
	lat_of(&s, b, 2);
	lat_of(&one, all, 5);
	edge_lat_merge(&d, &s);
	EXPECT_EQ(3ULL, d.min);
	EXPECT_EQ(300ULL, d.max);
	EXPECT_EQ(5ULL, d.n);
	EXPECT_EQ(one.sum, d.sum);
	EXPECT_EQ(0, memcmp(one.hist, d.hist, sizeof(d.hist)));
	for (pct = 1; pct <= 100; pct++)
		EXPECT_EQ(edge_lat_pct(&one, pct), edge_lat_pct(&d, pct));
	/* The other way round: the smaller minimum stays. */
	lat_of(&d, b, 2);
	lat_of(&s, a, 3);
	edge_lat_merge(&d, &s);
	EXPECT_EQ(3ULL, d.min);
	EXPECT_EQ(300ULL, d.max);
	/* Into an empty one: the other's. */
	memset(&d, 0, sizeof(d));
	edge_lat_merge(&d, &s);
	EXPECT_EQ(7ULL, d.min);
	/* An empty one changes nothing. */
	memset(&s, 0, sizeof(s));
	edge_lat_merge(&d, &s);
	EXPECT_EQ(7ULL, d.min);
	EXPECT_EQ(3ULL, d.n);
}

/* A percentile never understates: the p50 of 1, 2, 6 is 2, not 1. */
TEST(lat_pct_rounds_up)
{
	static const u64 v[] = { 1, 2, 6 };
	struct edge_lat l;

	lat_of(&l, v, 3);
	EXPECT_EQ(2ULL, edge_lat_pct(&l, 50));
	EXPECT_EQ(1ULL, edge_lat_pct(&l, 33));
	EXPECT_EQ(2ULL, edge_lat_pct(&l, 34));
	EXPECT_EQ(6ULL, edge_lat_pct(&l, 100));
	EXPECT_EQ(3ULL, edge_lat_avg(&l));
}

TEST_HARNESS_MAIN

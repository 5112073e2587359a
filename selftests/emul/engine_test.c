// SPDX-License-Identifier: GPL-2.0
/*
 * Discrete-event engine (emul/gpu/engine.c): ordering, clock, capacity,
 * teardown, and a randomized run against a plain reference queue.
 */
#include "emul_test.h"
#include "gpu/engine.h"

/* Pop everything due by @until; fail unless it comes as (time, aux). */
static void expect_pops(struct __test_metadata *_metadata,
			struct edge_engine *e, u64 until,
			const u64 *times, const u32 *seqs, u32 n)
{
	struct edge_ev ev;
	u32 i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(times[i], edge_engine_next_time(e));
		ASSERT_TRUE(edge_engine_pop_due(e, until, &ev))
			TH_LOG("pop %u of %u", i, n);
		EXPECT_EQ(times[i], ev.time) TH_LOG("pop %u", i);
		EXPECT_EQ(seqs[i], ev.aux) TH_LOG("pop %u", i);
		EXPECT_EQ(times[i], e->now);
	}
	EXPECT_FALSE(edge_engine_pop_due(e, until, &ev));
}

TEST(engine_empty)
{
	struct edge_engine e;
	struct edge_ev ev;

	edge_engine_init(&e);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_engine_next_time(&e));
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	EXPECT_EQ(0ULL, e.now);
	/* No room was ever reserved. */
	EXPECT_EQ(-ENOSPC, edge_engine_push(&e, 1, EDGE_EV_TB_DONE, 0, 0, 0));
	EXPECT_EQ(0U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 0));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_pop_order_by_time)
{
	static const u64 in[] = { 50, 10, 40, 20, 30, 5, 45, 1000, 0, 7,
				  999, 3, 64, 63, 65, 1 };
	u64 times[ARRAY_SIZE(in)];
	u32 seqs[ARRAY_SIZE(in)];
	struct edge_engine e;
	struct edge_ev ev;
	u32 i, j;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, ARRAY_SIZE(in)));
	for (i = 0; i < ARRAY_SIZE(in); i++)
		ASSERT_EQ(0, edge_engine_push(&e, in[i], EDGE_EV_TB_DONE,
					      i % 3, i, 100 + i));
	/* Reference: all times differ, so a sort by time is the answer. */
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		times[i] = in[i];
		seqs[i] = i;
	}
	for (i = 1; i < ARRAY_SIZE(in); i++)
		for (j = i; j > 0 && times[j - 1] > times[j]; j--) {
			u64 t = times[j];
			u32 s = seqs[j];

			times[j] = times[j - 1];
			seqs[j] = seqs[j - 1];
			times[j - 1] = t;
			seqs[j - 1] = s;
		}
	/* Fields other than time travel with their event. */
	ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	EXPECT_EQ(0ULL, ev.time);
	EXPECT_EQ(8U, ev.aux);
	EXPECT_EQ((u32)EDGE_EV_TB_DONE, ev.kind);
	EXPECT_EQ(8U % 3, ev.obj);
	EXPECT_EQ(108U, ev.gen);
	expect_pops(_metadata, &e, EDGE_TIME_NEVER, times + 1, seqs + 1,
		    ARRAY_SIZE(in) - 1);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_engine_next_time(&e));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_equal_times_fifo)
{
	static const u64 t[] = { 100, 50, 100, 50, 100 };
	static const u64 wt[] = { 50, 50, 100, 100, 100 };
	static const u32 ws[] = { 1, 3, 0, 2, 4 };
	struct edge_engine e;
	struct edge_ev ev;
	u32 i, want;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 256));

	/* Interleaved: A@100 B@50 C@100 D@50 E@100 leave B D A C E. */
	for (i = 0; i < ARRAY_SIZE(t); i++)
		ASSERT_EQ(0, edge_engine_push(&e, t[i], EDGE_EV_TB_DONE, 0,
					      i, 0));
	expect_pops(_metadata, &e, EDGE_TIME_NEVER, wt, ws, ARRAY_SIZE(t));

	/*
	 * 200 events at one time, pushed while the heap is being churned
	 * by pops of earlier events: they must still leave in push order.
	 */
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, edge_engine_push(&e, 5000, EDGE_EV_TB_DONE, 0,
					      i, 0));
		ASSERT_EQ(0, edge_engine_push(&e, 200 + i, EDGE_EV_TB_DONE,
					      1, 1000 + i, 0));
	}
	for (i = 0; i < 50; i++) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 4999, &ev));
		EXPECT_EQ(1000U + i, ev.aux);
	}
	for (i = 100; i < 200; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 5000, EDGE_EV_TB_DONE, 0,
					      i, 0));
	for (i = 50; i < 100; i++) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 4999, &ev));
		EXPECT_EQ(1000U + i, ev.aux);
	}
	for (want = 0; want < 200; want++) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 5000, &ev));
		EXPECT_EQ(5000ULL, ev.time);
		ASSERT_EQ(want, ev.aux);
	}
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_pop_due_until_moves_clock)
{
	struct edge_engine e;
	struct edge_ev ev;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 8));
	ASSERT_EQ(0, edge_engine_push(&e, 300, EDGE_EV_TB_DONE, 0, 3, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 100, EDGE_EV_TB_DONE, 0, 1, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 200, EDGE_EV_TB_DONE, 0, 2, 0));

	EXPECT_FALSE(edge_engine_pop_due(&e, 99, &ev));
	EXPECT_EQ(0ULL, e.now);
	EXPECT_EQ(3U, e.len);

	ASSERT_TRUE(edge_engine_pop_due(&e, 100, &ev));
	EXPECT_EQ(1U, ev.aux);
	EXPECT_EQ(100ULL, e.now);

	/* Nothing due: the clock does not jump to @until. */
	EXPECT_FALSE(edge_engine_pop_due(&e, 199, &ev));
	EXPECT_EQ(100ULL, e.now);

	/* Due early: the clock moves to the event, not to @until. */
	ASSERT_TRUE(edge_engine_pop_due(&e, 250, &ev));
	EXPECT_EQ(2U, ev.aux);
	EXPECT_EQ(200ULL, e.now);
	EXPECT_EQ(300ULL, edge_engine_next_time(&e));

	ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	EXPECT_EQ(3U, ev.aux);
	EXPECT_EQ(300ULL, e.now);
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	EXPECT_EQ(300ULL, e.now);

	/* An event that was overtaken by advance() leaves the clock alone. */
	ASSERT_EQ(0, edge_engine_push(&e, 400, EDGE_EV_TB_DONE, 0, 4, 0));
	edge_engine_advance(&e, 1000);
	ASSERT_TRUE(edge_engine_pop_due(&e, 1000, &ev));
	EXPECT_EQ(400ULL, ev.time);
	EXPECT_EQ(1000ULL, e.now);
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

/*
 * The kept earliest event (edge_engine_first()) through the corners of
 * the inline take and of the FIFO: a near heap of two with the far
 * root between them, the last event of the near heap taken while the
 * FIFO holds the next, and the FIFO moved down to the start of its array.
 */
TEST(engine_first_kept)
{
	struct edge_engine e;
	struct edge_ev ev;
	u32 i, head = 8, aux = 8;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 32));
	/* Two in the near heap, the far heap's root between them. */
	ASSERT_EQ(0, edge_engine_push_later(&e, 10, EDGE_EV_EWARP, 0, 1, 0));
	ASSERT_EQ(0, edge_engine_push_later(&e, 30, EDGE_EV_EWARP, 0, 4, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 20, EDGE_EV_TB_DONE, 0, 2, 0));
	ASSERT_TRUE(edge_engine_pop_due(&e, 30, &ev));
	ASSERT_EQ(1U, ev.aux);
	/* A tie with the earliest goes after it. */
	ASSERT_EQ(0, edge_engine_push_later(&e, 20, EDGE_EV_EWARP, 0, 3, 0));
	for (i = 2; i <= 4; i++) {
		EXPECT_EQ(i, edge_engine_first(&e)->aux);
		ASSERT_TRUE(edge_engine_pop_due(&e, 30, &ev));
		ASSERT_EQ(i, ev.aux);
	}
	EXPECT_EQ(30ULL, e.now);
	ASSERT_NULL(edge_engine_first(&e));
	edge_engine_fini(&e);

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 32));
	/* Eight of now fill the near heap; the next of now go to the FIFO. */
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_READY, 0, i, 0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_READY, 0, 8 + i,
					      0));
	for (i = 0; i < 8; i++) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 0, &ev));
		ASSERT_EQ(i, ev.aux);
	}
	/* The near heap is empty: the FIFO's head is the earliest. */
	ASSERT_NE(NULL, edge_engine_first(&e));
	EXPECT_EQ(8U, edge_engine_first(&e)->aux);
	EXPECT_FALSE(edge_engine_none_due(&e));
	while (edge_engine_pop_due(&e, 0, &ev))
		;

	/* Eight later events keep the FIFO in use; ten of now cycle in it. */
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 100, EDGE_EV_READY, 0,
					      1000 + i, 0));
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_READY, 0, aux++,
					      0));
	/* Up to the end of the array, then it moves down with the next push. */
	while (e.q_tail < e.cap) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 0, &ev));
		ASSERT_EQ(head++, ev.aux);
		ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_READY, 0, aux++,
					      0));
	}
	ASSERT_TRUE(edge_engine_pop_due(&e, 0, &ev));
	ASSERT_EQ(head++, ev.aux);
	/* Fill the array again, over where the FIFO's head was. */
	while (e.len < e.cap)
		ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_READY, 0, aux++,
					      0));
	EXPECT_EQ(0U, e.q_head);
	EXPECT_EQ(head, edge_engine_first(&e)->aux);
	while (head < aux) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 0, &ev));
		ASSERT_EQ(head++, ev.aux);
	}
	EXPECT_EQ(100ULL, edge_engine_next_time(&e));
	EXPECT_TRUE(edge_engine_none_due(&e));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_push_in_past_is_clamped)
{
	struct edge_engine e;
	struct edge_ev ev;
	u32 i;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 8));
	edge_engine_advance(&e, 1000);
	EXPECT_EQ(1000ULL, e.now);
	/* The clock never goes back. */
	edge_engine_advance(&e, 500);
	EXPECT_EQ(1000ULL, e.now);

	ASSERT_EQ(0, edge_engine_push(&e, 500, EDGE_EV_TB_DONE, 0, 0, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 1000, EDGE_EV_TB_DONE, 0, 1, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 0, EDGE_EV_TB_DONE, 0, 2, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 999, EDGE_EV_TB_DONE, 0, 3, 0));
	ASSERT_EQ(0, edge_engine_push(&e, 1001, EDGE_EV_TB_DONE, 0, 4, 0));
	EXPECT_EQ(1000ULL, edge_engine_next_time(&e));
	/* Clamped events tie at now and keep their push order. */
	for (i = 0; i < 4; i++) {
		ASSERT_TRUE(edge_engine_pop_due(&e, 1000, &ev));
		EXPECT_EQ(1000ULL, ev.time);
		EXPECT_EQ(i, ev.aux);
	}
	EXPECT_FALSE(edge_engine_pop_due(&e, 1000, &ev));
	ASSERT_TRUE(edge_engine_pop_due(&e, 5000, &ev));
	EXPECT_EQ(1001ULL, ev.time);
	EXPECT_EQ(1001ULL, e.now);

	/* A pop moved the clock: later pushes clamp to the new now. */
	ASSERT_EQ(0, edge_engine_push(&e, 1000, EDGE_EV_TB_DONE, 0, 9, 0));
	EXPECT_EQ(1001ULL, edge_engine_next_time(&e));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_push_past_capacity)
{
	static const u64 wt[] = { 38, 38, 39, 40 };
	static const u32 ws[] = { 2, 4, 1, 0 };
	struct edge_engine e;
	struct edge_ev ev;
	u32 i;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 4));
	EXPECT_EQ(4U, e.cap);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 40 - i, EDGE_EV_TB_DONE,
					      0, i, 0));
	EXPECT_EQ(-ENOSPC, edge_engine_push(&e, 1, EDGE_EV_TB_DONE, 0, 99, 0));
	EXPECT_EQ(-ENOSPC, edge_engine_push(&e, 100, EDGE_EV_TB_DONE, 0, 99, 0));
	EXPECT_EQ(4U, e.len);
	/* The refused push left no trace. */
	ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	EXPECT_EQ(37ULL, ev.time);
	EXPECT_EQ(3U, ev.aux);
	/* Room again after a pop. */
	ASSERT_EQ(0, edge_engine_push(&e, 38, EDGE_EV_TB_DONE, 0, 4, 0));
	EXPECT_EQ(-ENOSPC, edge_engine_push(&e, 38, EDGE_EV_TB_DONE, 0, 5, 0));
	expect_pops(_metadata, &e, EDGE_TIME_NEVER, wt, ws, 4);
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_reserve_grows_keeps_contents)
{
	struct edge_engine e;
	struct edge_ev *heap;
	struct edge_ev ev;
	u32 i, n = 0;
	u64 t;

	edge_engine_init(&e);
	/* Growing an empty queue. */
	ASSERT_EQ(0, edge_engine_reserve(&e, 8));
	EXPECT_EQ(8U, e.cap);
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, edge_engine_push(&e, (i * 37) % 5, EDGE_EV_TB_DONE,
					      i, i, i));
	/* Never shrinks, and an equal size is a no-op. */
	heap = e.heap;
	EXPECT_EQ(0, edge_engine_reserve(&e, 4));
	EXPECT_EQ(0, edge_engine_reserve(&e, 8));
	EXPECT_EQ(8U, e.cap);
	EXPECT_EQ(heap, e.heap);
	EXPECT_EQ(8U, e.len);

	ASSERT_EQ(0, edge_engine_reserve(&e, 100));
	EXPECT_EQ(100U, e.cap);
	EXPECT_EQ(8U, e.len);
	for (i = 8; i < 100; i++)
		ASSERT_EQ(0, edge_engine_push(&e, (i * 37) % 5, EDGE_EV_TB_DONE,
					      i, i, i));
	EXPECT_EQ(-ENOSPC, edge_engine_push(&e, 0, EDGE_EV_TB_DONE, 0, 0, 0));

	/* By time, then push order, old and new events alike. */
	for (t = 0; t < 5; t++)
		for (i = 0; i < 100; i++) {
			if ((i * 37) % 5 != t)
				continue;
			ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
			EXPECT_EQ(t, ev.time);
			EXPECT_EQ(i, ev.aux);
			EXPECT_EQ(i, ev.obj);
			EXPECT_EQ(i, ev.gen);
			n++;
		}
	EXPECT_EQ(100U, n);
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST(engine_remove_obj)
{
	struct edge_engine e;
	struct edge_ev ev;
	u32 i, n;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 64));
	/* Few distinct times, so most of the order is tie-breaking. */
	for (i = 0; i < 40; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 10 * ((i * 7) % 3),
					      EDGE_EV_TB_DONE, i % 4, i, 0));
	EXPECT_EQ(10U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 2));
	EXPECT_EQ(30U, e.len);
	EXPECT_EQ(0U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 2));
	EXPECT_EQ(0U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 7));
	EXPECT_EQ(30U, e.len);

	n = 0;
	for (u64 t = 0; t <= 20; t += 10)
		for (i = 0; i < 40; i++) {
			if (i % 4 == 2 || 10 * ((i * 7) % 3) != t)
				continue;
			ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
			EXPECT_EQ(t, ev.time);
			ASSERT_EQ(i, ev.aux);
			EXPECT_EQ(i % 4, ev.obj);
			n++;
		}
	EXPECT_EQ(30U, n);
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));

	/* Removing the only owner empties the queue; room comes back. */
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 5, EDGE_EV_TB_DONE, 3, i, 0));
	EXPECT_EQ(64U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 3));
	EXPECT_EQ(0U, e.len);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_engine_next_time(&e));
	ASSERT_EQ(0, edge_engine_push(&e, 25, EDGE_EV_TB_DONE, 1, 7, 0));
	ASSERT_TRUE(edge_engine_pop_due(&e, 25, &ev));
	EXPECT_EQ(7U, ev.aux);
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

/* Only events of the kind asked for go: objects of kinds share indices. */
TEST(engine_remove_obj_matches_kind)
{
	static const u32 kinds[] = {
		EDGE_EV_READY, EDGE_EV_TB_DONE, EDGE_EV_EWARP,
	};
	struct edge_engine e;
	struct edge_ev ev;
	u64 last = 0;
	u32 i, n = 0;

	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, 32));
	/* Object 5 of every kind, and object 6 of every kind. */
	for (i = 0; i < 12; i++)
		ASSERT_EQ(0, edge_engine_push(&e, 100 - i, kinds[i % 3],
					      5 + (i / 3) % 2, i, 0));
	EXPECT_EQ(2U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 5));
	EXPECT_EQ(0U, edge_engine_remove_obj(&e, EDGE_EV_TB_DONE, 5));
	EXPECT_EQ(2U, edge_engine_remove_obj(&e, EDGE_EV_EWARP, 6));
	EXPECT_EQ(8U, e.len);
	while (edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev)) {
		EXPECT_FALSE(ev.kind == EDGE_EV_TB_DONE && ev.obj == 5);
		EXPECT_FALSE(ev.kind == EDGE_EV_EWARP && ev.obj == 6);
		/* What stays is intact and keeps its time order. */
		EXPECT_EQ(100ULL - ev.aux, ev.time);
		EXPECT_EQ(5U + (ev.aux / 3) % 2, ev.obj);
		EXPECT_GE(ev.time, last);
		last = ev.time;
		n++;
	}
	EXPECT_EQ(8U, n);
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

/* The reference: an unsorted array searched linearly. */
struct ref_ev {
	u64 time;
	u64 order;
	u32 kind;
	u32 obj;
	u32 aux;
	u32 gen;
};

static u32 ref_min(const struct ref_ev *q, u32 n)
{
	u32 i, m = 0;

	for (i = 1; i < n; i++)
		if (q[i].time < q[m].time ||
		    (q[i].time == q[m].time && q[i].order < q[m].order))
			m = i;
	return m;
}

#define RAND_CAP	256
#define RAND_OPS	10000
#define HELD_MAX	4

TEST(engine_random_against_reference)
{
	static struct ref_ev ref[RAND_CAP];
	u32 nref = 0, aux = 0, i, pushes = 0, pops = 0, removes = 0;
	u32 nheld = 0, ordered = 0, later = 0;
	u64 ref_now = 0, order = 0, held[HELD_MAX];
	struct edge_engine e;
	struct emul_rng rng;
	struct edge_ev ev;

	emul_rng_seed(&rng, 0xed6e5eed);
	edge_engine_init(&e);
	ASSERT_EQ(0, edge_engine_reserve(&e, RAND_CAP / 2));

	for (i = 0; i < RAND_OPS; i++) {
		u32 op = emul_rand_below(&rng, 100);

		if (i == RAND_OPS / 2) {
			/* Grow in the middle of the run, contents kept. */
			ASSERT_EQ(0, edge_engine_reserve(&e, RAND_CAP));
		}
		if (op >= 95 && nheld < HELD_MAX &&
		    emul_rand_below(&rng, 2)) {
			/* An order number taken now, its push later. */
			held[nheld++] = edge_engine_take_order(&e);
			ASSERT_EQ(order, held[nheld - 1]);
			order++;
		} else if (op >= 95 && nheld) {
			/* A held push, for now (gpu/preempt.c's launches). */
			u32 j = emul_rand_below(&rng, nheld);
			u64 o = held[j];
			int ret;

			held[j] = held[--nheld];
			ret = edge_engine_push_ordered(&e, ref_now, o,
						       EDGE_EV_EWARP, 5,
						       aux, 0);
			if (nref == e.cap) {
				ASSERT_EQ(-ENOSPC, ret);
				continue;
			}
			ASSERT_EQ(0, ret);
			ref[nref].time = ref_now;
			ref[nref].order = o;
			ref[nref].kind = EDGE_EV_EWARP;
			ref[nref].obj = 5;
			ref[nref].aux = aux++;
			ref[nref].gen = 0;
			nref++;
			ordered++;
		} else if (op < 10) {
			/* An event warp's timed step: later than now. */
			u64 t = ref_now + 1 + emul_rand_below(&rng, 64);
			int ret = edge_engine_push_later(&e, t, EDGE_EV_EWARP,
							 3, aux, 7);

			if (nref == e.cap) {
				ASSERT_EQ(-ENOSPC, ret);
				continue;
			}
			ASSERT_EQ(0, ret);
			ref[nref].time = t;
			ref[nref].order = order++;
			ref[nref].kind = EDGE_EV_EWARP;
			ref[nref].obj = 3;
			ref[nref].aux = aux++;
			ref[nref].gen = 7;
			nref++;
			later++;
		} else if (op < 50) {
			/* Push, sometimes in the past, often on a tie. */
			u64 t = ref_now + emul_rand_below(&rng, 64);
			u32 kind = EDGE_EV_READY + emul_rand_below(&rng, 3);
			u32 obj = emul_rand_below(&rng, 8);
			u32 gen = (u32)emul_rand(&rng);
			int ret;

			if (emul_rand_below(&rng, 4) == 0)
				t = t > 40 ? t - 40 : 0;
			ret = edge_engine_push(&e, t, kind, obj, aux, gen);
			if (nref == e.cap) {
				ASSERT_EQ(-ENOSPC, ret);
				continue;
			}
			ASSERT_EQ(0, ret);
			ref[nref].time = t < ref_now ? ref_now : t;
			ref[nref].order = order++;
			ref[nref].kind = kind;
			ref[nref].obj = obj;
			ref[nref].aux = aux++;
			ref[nref].gen = gen;
			nref++;
			pushes++;
		} else if (op < 85) {
			u64 until = emul_rand_below(&rng, 10) ?
				    ref_now + emul_rand_below(&rng, 48) :
				    EDGE_TIME_NEVER;
			bool got = edge_engine_pop_due(&e, until, &ev);
			u32 m = nref ? ref_min(ref, nref) : 0;

			if (!nref || ref[m].time > until) {
				ASSERT_FALSE(got) TH_LOG("op %u", i);
				continue;
			}
			ASSERT_TRUE(got) TH_LOG("op %u", i);
			ASSERT_EQ(ref[m].time, ev.time) TH_LOG("op %u", i);
			ASSERT_EQ(ref[m].aux, ev.aux) TH_LOG("op %u", i);
			ASSERT_EQ(ref[m].obj, ev.obj);
			ASSERT_EQ(ref[m].gen, ev.gen);
			ASSERT_EQ(ref[m].kind, ev.kind);
			if (ref[m].time > ref_now)
				ref_now = ref[m].time;
			ref[m] = ref[--nref];
			pops++;
		} else if (op < 90) {
			u32 kind = EDGE_EV_READY + emul_rand_below(&rng, 3);
			u32 obj = emul_rand_below(&rng, 9), j, kept = 0;

			for (j = 0; j < nref; j++)
				if (ref[j].kind != kind || ref[j].obj != obj)
					ref[kept++] = ref[j];
			ASSERT_EQ(nref - kept,
				  edge_engine_remove_obj(&e, kind, obj));
			nref = kept;
			removes++;
		} else if (op < 95) {
			u64 to = ref_now + emul_rand_below(&rng, 32);

			if (emul_rand_below(&rng, 4) == 0)
				to = ref_now > 10 ? ref_now - 10 : 0;
			edge_engine_advance(&e, to);
			if (to > ref_now)
				ref_now = to;
		}
		ASSERT_EQ(nref, e.len) TH_LOG("op %u", i);
		ASSERT_EQ(ref_now, e.now) TH_LOG("op %u", i);
		ASSERT_EQ(nref ? ref[ref_min(ref, nref)].time : EDGE_TIME_NEVER,
			  edge_engine_next_time(&e)) TH_LOG("op %u", i);
		/* The earliest event is kept, not searched: the same one. */
		if (nref) {
			ASSERT_EQ(ref[ref_min(ref, nref)].aux,
				  edge_engine_first(&e)->aux) TH_LOG("op %u", i);
		} else {
			ASSERT_NULL(edge_engine_first(&e));
		}
		ASSERT_EQ(!nref || ref[ref_min(ref, nref)].time > ref_now,
			  edge_engine_none_due(&e)) TH_LOG("op %u", i);
	}
	/* Drain in reference order. */
	while (nref) {
		u32 m = ref_min(ref, nref);

		ASSERT_TRUE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
		ASSERT_EQ(ref[m].aux, ev.aux);
		ASSERT_EQ(ref[m].time, ev.time);
		ref[m] = ref[--nref];
	}
	EXPECT_FALSE(edge_engine_pop_due(&e, EDGE_TIME_NEVER, &ev));
	/* The mix exercised every path a fair number of times. */
	EXPECT_GT(pushes, 3000U);
	EXPECT_GT(pops, 2000U);
	EXPECT_GT(removes, 200U);
	EXPECT_GT(ordered, 100U);
	EXPECT_GT(later, 500U);
	edge_engine_fini(&e);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

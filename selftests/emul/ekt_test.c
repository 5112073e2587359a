// SPDX-License-Identifier: GPL-2.0
/*
 * Event kernel table (emul/ekt.c): allocation order, generations, lookup.
 */
#include "emul_test.h"
#include "ekt.h"
#include "limits.h"

TEST(ekt_init_empty)
{
	struct edge_ekt t;
	u32 i;

	ASSERT_EQ(0, edge_ekt_init(&t, EDGE_EKT_ENTRIES));
	EXPECT_EQ((u32)EDGE_EKT_ENTRIES, t.n);
	EXPECT_EQ(0U, t.used);
	for (i = 0; i < t.n; i++) {
		EXPECT_EQ(i, t.e[i].id);
		EXPECT_FALSE(t.e[i].used);
		EXPECT_EQ(NULL, edge_ekt_get(&t, i));
	}
	edge_ekt_fini(&t);
	EXPECT_EQ(NULL, t.e);
	EXPECT_EQ(0U, t.n);
	EXPECT_NO_LEAKS();
}

TEST(ekt_lowest_free_first_and_full)
{
	struct edge_ekt_entry *ent[8];
	struct edge_ekt t;
	u32 i;

	ASSERT_EQ(0, edge_ekt_init(&t, 8));
	for (i = 0; i < 8; i++) {
		ent[i] = edge_ekt_alloc(&t);
		ASSERT_NE(NULL, ent[i]);
		EXPECT_EQ(&t.e[i], ent[i]);
		EXPECT_EQ(i, ent[i]->id);
		EXPECT_TRUE(ent[i]->used);
		EXPECT_EQ(1U, ent[i]->gen);
		EXPECT_EQ(i + 1, t.used);
	}
	EXPECT_EQ(NULL, edge_ekt_alloc(&t));
	EXPECT_EQ(NULL, edge_ekt_alloc(&t));
	EXPECT_EQ(8U, t.used);

	/* Holes are refilled lowest first, whatever the free order. */
	edge_ekt_free(&t, ent[5]);
	edge_ekt_free(&t, ent[2]);
	edge_ekt_free(&t, ent[6]);
	EXPECT_EQ(5U, t.used);
	EXPECT_EQ(&t.e[2], edge_ekt_alloc(&t));
	EXPECT_EQ(&t.e[5], edge_ekt_alloc(&t));
	EXPECT_EQ(&t.e[6], edge_ekt_alloc(&t));
	EXPECT_EQ(NULL, edge_ekt_alloc(&t));
	EXPECT_EQ(8U, t.used);

	for (i = 0; i < 8; i++)
		edge_ekt_free(&t, &t.e[i]);
	EXPECT_EQ(0U, t.used);
	edge_ekt_fini(&t);
	EXPECT_NO_LEAKS();
}

TEST(ekt_reuse_bumps_generation)
{
	struct edge_ekt_entry *a, *b;
	struct edge_ekt t;
	u32 round;

	ASSERT_EQ(0, edge_ekt_init(&t, 4));
	a = edge_ekt_alloc(&t);
	ASSERT_NE(NULL, a);
	b = edge_ekt_alloc(&t);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(1U, b->id);
	EXPECT_EQ(1U, b->gen);

	/* The previous user's state does not survive into the new one. */
	b->owner = &t;
	b->submitted = 7;
	b->completed = 5;
	b->cancelled = 2;
	b->ring.head = 99;
	b->k.func = EDGE_FN_ECHO;
	edge_ekt_free(&t, b);
	EXPECT_EQ(NULL, b->owner);
	EXPECT_EQ(NULL, edge_ekt_get(&t, 1));

	for (round = 2; round < 10; round++) {
		b = edge_ekt_alloc(&t);
		ASSERT_NE(NULL, b);
		EXPECT_EQ(&t.e[1], b);
		EXPECT_EQ(1U, b->id);
		EXPECT_EQ(round, b->gen);
		EXPECT_EQ(NULL, b->owner);
		EXPECT_EQ(0ULL, b->submitted);
		EXPECT_EQ(0ULL, b->completed);
		EXPECT_EQ(0ULL, b->cancelled);
		EXPECT_EQ(0U, b->inflight);
		EXPECT_EQ(0U, b->ring.head);
		EXPECT_EQ(0U, b->k.func);
		edge_ekt_free(&t, b);
	}
	/* Slot 0 was never freed: its generation did not move. */
	EXPECT_EQ(1U, a->gen);
	edge_ekt_free(&t, a);
	edge_ekt_fini(&t);
	EXPECT_NO_LEAKS();
}

TEST(ekt_get_checks_id)
{
	struct edge_ekt_entry *ent;
	struct edge_ekt t;

	ASSERT_EQ(0, edge_ekt_init(&t, 4));
	EXPECT_EQ(NULL, edge_ekt_get(&t, 0));
	ent = edge_ekt_alloc(&t);
	ASSERT_NE(NULL, ent);
	EXPECT_EQ(ent, edge_ekt_get(&t, 0));
	EXPECT_EQ(NULL, edge_ekt_get(&t, 1));	/* unused */
	EXPECT_EQ(NULL, edge_ekt_get(&t, 3));	/* unused, last */
	EXPECT_EQ(NULL, edge_ekt_get(&t, 4));	/* out of range */
	EXPECT_EQ(NULL, edge_ekt_get(&t, 64));
	EXPECT_EQ(NULL, edge_ekt_get(&t, 0x80000000U));
	EXPECT_EQ(NULL, edge_ekt_get(&t, 0xffffffffU));
	edge_ekt_free(&t, ent);
	EXPECT_EQ(NULL, edge_ekt_get(&t, 0));
	edge_ekt_fini(&t);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

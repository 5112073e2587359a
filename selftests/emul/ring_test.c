// SPDX-License-Identifier: GPL-2.0
/*
 * Ring consumer (emul/ring.c): layout, u32 wraparound, hostile producer
 * counts, and what a completion writes.
 */
#include "emul_test.h"
#include "ring.h"
#include "limits.h"

#define PAGE	4096U
#define LINE	64U

struct rbuf {
	struct edge_ring_layout l;
	u32 doorbell;
	void *sq;
	void *cq;
	struct edge_ring r;
};

static void rbuf_init(struct __test_metadata *_metadata, struct rbuf *b,
		      u32 entries, u32 param_size)
{
	memset(b, 0, sizeof(*b));
	edge_ring_layout(entries, param_size, PAGE, &b->l);
	b->sq = calloc(1, b->l.sq_size);
	b->cq = calloc(1, b->l.cq_size);
	ASSERT_NE(NULL, b->sq);
	ASSERT_NE(NULL, b->cq);
	edge_ring_attach(&b->r, entries, param_size, &b->l, &b->doorbell,
			 b->sq, b->cq);
}

static void rbuf_fini(struct rbuf *b)
{
	free(b->sq);
	free(b->cq);
}

static u32 sq_head(struct rbuf *b)
{
	return *emul_word(b->sq, b->l.sq_head);
}

static u32 cq_tail(struct rbuf *b)
{
	return *emul_word(b->cq, b->l.cq_tail);
}

static struct edge_cqe *cqe(struct rbuf *b, u32 slot)
{
	return (struct edge_cqe *)((u8 *)b->cq + b->l.cq_cqes) + slot;
}

/* Start the consumer at @head, as if that many entries had passed. */
static void rbuf_set_head(struct rbuf *b, u32 head)
{
	b->r.head = head;
	b->r.published = head;
}

static bool disjoint(u32 a, u32 alen, u32 b, u32 blen)
{
	return a + alen <= b || b + blen <= a;
}

static bool lines_disjoint(u32 a, u32 alen, u32 b, u32 blen)
{
	return (a + alen - 1) / LINE < b / LINE ||
	       (b + blen - 1) / LINE < a / LINE;
}

static void check_layout(struct __test_metadata *_metadata, u32 entries,
			 u32 psz, u32 page)
{
	struct edge_ring_layout l;
	u32 params = entries * psz, cqes = entries * 8;

	memset(&l, 0xa5, sizeof(l));
	edge_ring_layout(entries, psz, page, &l);

	/* Words aligned for atomic access, arrays on cache lines. */
	ASSERT_EQ(0U, l.sq_head % 4) TH_LOG("entries %u psz %u", entries, psz);
	ASSERT_EQ(0U, l.sq_flags % 4);
	ASSERT_EQ(0U, l.cq_head % 4);
	ASSERT_EQ(0U, l.cq_tail % 4);
	ASSERT_EQ(0U, l.sq_entries % LINE);
	ASSERT_EQ(0U, l.cq_cqes % LINE);

	/* Whole pages, and no page more than needed. */
	ASSERT_EQ(0U, l.sq_size % page) TH_LOG("entries %u psz %u", entries, psz);
	ASSERT_EQ(0U, l.cq_size % page);
	ASSERT_LE(l.sq_entries + params, l.sq_size)
		TH_LOG("params do not fit: entries %u psz %u", entries, psz);
	ASSERT_LE(l.cq_cqes + cqes, l.cq_size)
		TH_LOG("cqes do not fit: entries %u", entries);
	ASSERT_GT(l.sq_entries + params + page, l.sq_size);
	ASSERT_GT(l.cq_cqes + cqes + page, l.cq_size);

	/* Nothing overlaps. */
	ASSERT_TRUE(disjoint(l.sq_head, 4, l.sq_flags, 4));
	ASSERT_TRUE(disjoint(l.sq_head, 4, l.sq_entries, params));
	ASSERT_TRUE(disjoint(l.sq_flags, 4, l.sq_entries, params));
	ASSERT_TRUE(disjoint(l.cq_head, 4, l.cq_tail, 4));
	ASSERT_TRUE(disjoint(l.cq_head, 4, l.cq_cqes, cqes));
	ASSERT_TRUE(disjoint(l.cq_tail, 4, l.cq_cqes, cqes));

	/*
	 * The producer-written CQ head shares no line with what the kernel
	 * writes (tail, CQEs); the kernel's SQ words none with the params
	 * user space writes.
	 */
	ASSERT_TRUE(lines_disjoint(l.cq_head, 4, l.cq_tail, 4))
		TH_LOG("cq head %u and tail %u share a line", l.cq_head,
		       l.cq_tail);
	ASSERT_TRUE(lines_disjoint(l.cq_head, 4, l.cq_cqes, cqes));
	ASSERT_TRUE(lines_disjoint(l.sq_head, 4, l.sq_entries, params));
	ASSERT_TRUE(lines_disjoint(l.sq_flags, 4, l.sq_entries, params));
}

TEST(ring_layout)
{
	static const u32 psizes[] = { 8, 16, 24, 64, 72, 256, 1024, 4096 };
	u32 entries, i, n = 0;

	for (entries = 1; entries <= EDGE_MAX_RING_ENTRIES; entries <<= 1)
		for (i = 0; i < ARRAY_SIZE(psizes); i++) {
			if ((u64)entries * psizes[i] > EDGE_MAX_RING_BYTES)
				continue;
			check_layout(_metadata, entries, psizes[i], PAGE);
			check_layout(_metadata, entries, psizes[i], 16384);
			check_layout(_metadata, entries, psizes[i], 65536);
			n++;
		}
	EXPECT_GT(n, 80U);
}

TEST(ring_layout_small_values)
{
	struct edge_ring_layout l;

	/* One 8-byte entry still takes a page per mapping. */
	edge_ring_layout(1, 8, PAGE, &l);
	EXPECT_EQ(PAGE, l.sq_size);
	EXPECT_EQ(PAGE, l.cq_size);
	/* The largest ring: 4 MiB of params, 32 KiB of CQEs, plus headers. */
	edge_ring_layout(4096, 1024, PAGE, &l);
	EXPECT_EQ(EDGE_MAX_RING_BYTES + PAGE, l.sq_size);
	EXPECT_EQ(4096U * 8 + PAGE, l.cq_size);
}

TEST(ring_attach_points_into_layout)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 16, 32);
	EXPECT_EQ(&b.doorbell, b.r.doorbell);
	EXPECT_EQ(emul_word(b.sq, b.l.sq_head), b.r.sq_head);
	EXPECT_EQ(emul_word(b.sq, b.l.sq_flags), b.r.sq_flags);
	EXPECT_EQ((u8 *)b.sq + b.l.sq_entries, b.r.params);
	EXPECT_EQ(emul_word(b.cq, b.l.cq_tail), b.r.cq_tail);
	EXPECT_EQ(cqe(&b, 0), b.r.cqes);
	EXPECT_EQ(16U, b.r.entries);
	EXPECT_EQ(32U, b.r.param_size);
	EXPECT_EQ(0U, b.r.head);
	EXPECT_EQ(0U, b.r.published);
	/* Entry n at entries + (n & (ring_entries - 1)) * param_size. */
	EXPECT_EQ((const void *)b.r.params, edge_ring_param(&b.r, 0));
	EXPECT_EQ((const void *)(b.r.params + 5 * 32), edge_ring_param(&b.r, 5));
	EXPECT_EQ((const void *)(b.r.params + 15 * 32),
		  edge_ring_param(&b.r, 15));
	EXPECT_EQ((const void *)b.r.params, edge_ring_param(&b.r, 16));
	EXPECT_EQ((const void *)(b.r.params + 3 * 32),
		  edge_ring_param(&b.r, 0xfffffff3));
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_avail_counts_rung_entries)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 8, 8);
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 0));
	b.doorbell = 3;
	EXPECT_EQ(3U, edge_ring_avail(&b.r, 0));
	EXPECT_EQ(3U, edge_ring_avail(&b.r, 5));
	/* Slots still in flight are not free. */
	EXPECT_EQ(2U, edge_ring_avail(&b.r, 6));
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 8));
	b.doorbell = 8;
	EXPECT_EQ(8U, edge_ring_avail(&b.r, 0));
	edge_ring_consume(&b.r, 3);
	EXPECT_EQ(5U, edge_ring_avail(&b.r, 3));
	EXPECT_EQ(3U, b.r.head);
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_u32_wraparound)
{
	u32 start = 0xfffffffcU, seq, i;
	struct rbuf b;

	rbuf_init(_metadata, &b, 8, 16);
	rbuf_set_head(&b, start);
	/* Six entries rung: the producer's count wrapped to 2. */
	b.doorbell = start + 6;
	ASSERT_EQ(2U, b.doorbell);
	EXPECT_EQ(6U, edge_ring_avail(&b.r, 0));
	EXPECT_EQ(4U, edge_ring_avail(&b.r, 4));
	EXPECT_EQ((const void *)(b.r.params + 4 * 16),
		  edge_ring_param(&b.r, start));
	EXPECT_EQ((const void *)(b.r.params + 1 * 16),
		  edge_ring_param(&b.r, start + 5));

	edge_ring_consume(&b.r, 6);
	EXPECT_EQ(2U, b.r.head);
	EXPECT_EQ(2U, sq_head(&b));
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 6));
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 0));

	for (i = 0, seq = start; i < 6; i++, seq++)
		edge_ring_complete(&b.r, seq, EDGE_CQE_DONE, 100 + i);
	EXPECT_EQ(2U, cq_tail(&b));
	for (i = 0, seq = start; i < 6; i++, seq++) {
		struct edge_cqe *c = cqe(&b, seq & 7);

		EXPECT_EQ(100U + i, c->res);
		EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, seq), c->status);
		EXPECT_EQ(seq & EDGE_CQE_SEQ_MASK, EDGE_CQE_SEQ(c->status));
	}
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 0xfffffffcU), cqe(&b, 4)->status);
	EXPECT_EQ(0xfffffc01U, cqe(&b, 4)->status);
	EXPECT_EQ(0x00000001U, cqe(&b, 0)->status);
	EXPECT_EQ(0x00000101U, cqe(&b, 1)->status);
	/* Slots 2 and 3 were never written. */
	EXPECT_EQ(0U, cqe(&b, 2)->status);
	EXPECT_EQ(0U, cqe(&b, 3)->status);

	/* And on across the wrap again. */
	b.doorbell = 2 + 8;
	EXPECT_EQ(8U, edge_ring_avail(&b.r, 0));
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_hostile_tail_behind_head)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 16, 8);
	rbuf_set_head(&b, 100);
	/* 99 - 100 is 0xffffffff entries: clamped to the free room. */
	b.doorbell = 99;
	EXPECT_EQ(16U, edge_ring_avail(&b.r, 0));
	EXPECT_EQ(13U, edge_ring_avail(&b.r, 3));
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 16));
	b.doorbell = 0;
	EXPECT_EQ(16U, edge_ring_avail(&b.r, 0));
	/* Same near the wrap. */
	rbuf_set_head(&b, 5);
	b.doorbell = 0xfffffff0U;
	EXPECT_EQ(6U, edge_ring_avail(&b.r, 10));
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_hostile_tail_far_ahead)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 16, 8);
	b.doorbell = 1000;
	EXPECT_EQ(16U, edge_ring_avail(&b.r, 0));
	EXPECT_EQ(11U, edge_ring_avail(&b.r, 5));
	EXPECT_EQ(1U, edge_ring_avail(&b.r, 15));
	b.doorbell = 17;
	EXPECT_EQ(16U, edge_ring_avail(&b.r, 0));
	b.doorbell = 0x7fffffffU;
	EXPECT_EQ(9U, edge_ring_avail(&b.r, 7));
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_inflight_full_gives_nothing)
{
	static const u32 tails[] = { 0, 1, 4, 5, 1000, 0xffffffffU };
	struct rbuf b;
	u32 i;

	rbuf_init(_metadata, &b, 4, 8);
	for (i = 0; i < ARRAY_SIZE(tails); i++) {
		b.doorbell = tails[i];
		EXPECT_EQ(0U, edge_ring_avail(&b.r, 4)) TH_LOG("tail %u", tails[i]);
	}
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

/*
 * Events complete out of order.  With 4 slots, events 0-3 in flight and
 * 1-3 done first, a producer that rings 3 more (past the unreaped slot 0,
 * as only a hostile one does) gets them only up to slot 0: event 4 would
 * share slot 0 with event 0, still running.  Once 0 completes, 4 goes.
 */
TEST(ring_stops_at_a_busy_slot)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 4, 8);
	b.doorbell = 4;
	EXPECT_EQ(4U, edge_ring_avail(&b.r, 0));
	edge_ring_consume(&b.r, 4);
	edge_ring_complete(&b.r, 1, EDGE_CQE_DONE, 0);
	edge_ring_complete(&b.r, 2, EDGE_CQE_DONE, 0);
	edge_ring_complete(&b.r, 3, EDGE_CQE_DONE, 0);
	b.doorbell = 7;
	/* Three slots are free, but the next in order is busy. */
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 1));
	edge_ring_complete(&b.r, 0, EDGE_CQE_DONE, 0);
	EXPECT_EQ(3U, edge_ring_avail(&b.r, 0));
	/* Now 4 and 5 run, 4 completes; 6 may go, then 7 waits for 5. */
	edge_ring_consume(&b.r, 2);
	edge_ring_complete(&b.r, 4, EDGE_CQE_DONE, 0);
	b.doorbell = 8;
	EXPECT_EQ(2U, edge_ring_avail(&b.r, 1));
	edge_ring_consume(&b.r, 1);		/* 6 */
	EXPECT_EQ(1U, edge_ring_avail(&b.r, 2));	/* 7: slot 3, free */
	b.doorbell = 9;
	/* 8 is slot 0, free (4 done); room is entries - inflight. */
	EXPECT_EQ(2U, edge_ring_avail(&b.r, 2));
	edge_ring_consume(&b.r, 2);		/* 7, 8 */
	b.doorbell = 10;
	/* 9 is slot 1: event 5 still runs there. */
	EXPECT_EQ(0U, edge_ring_avail(&b.r, 4));
	rbuf_fini(&b);
}

TEST(ring_consume_publishes_sq_head)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 8, 8);
	*emul_word(b.sq, b.l.sq_head) = 0xdeadbeef;
	edge_ring_consume(&b.r, 0);
	EXPECT_EQ(0U, sq_head(&b));
	edge_ring_consume(&b.r, 3);
	EXPECT_EQ(3U, b.r.head);
	EXPECT_EQ(3U, sq_head(&b));
	edge_ring_consume(&b.r, 5);
	EXPECT_EQ(8U, sq_head(&b));
	/* The flags word next to it is left alone. */
	EXPECT_EQ(0U, *emul_word(b.sq, b.l.sq_flags));
	/* Consuming publishes no completion. */
	EXPECT_EQ(0U, cq_tail(&b));
	EXPECT_EQ(0U, b.r.published);
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST(ring_complete_writes_slot)
{
	struct rbuf b;
	u32 i;

	rbuf_init(_metadata, &b, 8, 8);
	for (i = 0; i < 8; i++) {
		cqe(&b, i)->status = 0xeeeeeeee;
		cqe(&b, i)->res = 0xeeeeeeee;
	}
	edge_ring_complete(&b.r, 2, EDGE_CQE_DONE, 42);
	EXPECT_EQ(42U, cqe(&b, 2)->res);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE, 2), cqe(&b, 2)->status);
	EXPECT_EQ(0x201U, cqe(&b, 2)->status);
	EXPECT_EQ((u32)EDGE_CQE_DONE, EDGE_CQE_CODE(cqe(&b, 2)->status));
	EXPECT_EQ(2U, EDGE_CQE_SEQ(cqe(&b, 2)->status));
	EXPECT_EQ(1U, b.r.published);
	EXPECT_EQ(1U, cq_tail(&b));
	for (i = 0; i < 8; i++) {
		if (i == 2)
			continue;
		EXPECT_EQ(0xeeeeeeeeU, cqe(&b, i)->status) TH_LOG("slot %u", i);
		EXPECT_EQ(0xeeeeeeeeU, cqe(&b, i)->res) TH_LOG("slot %u", i);
	}

	/* seq & (entries - 1) picks the slot; each call is one more. */
	edge_ring_complete(&b.r, 13, EDGE_CQE_ERROR, EINVAL);
	EXPECT_EQ((u32)EINVAL, cqe(&b, 5)->res);
	EXPECT_EQ(EDGE_CQE_STATUS(EDGE_CQE_ERROR, 13), cqe(&b, 5)->status);
	edge_ring_complete(&b.r, 0x01000007, EDGE_CQE_CANCELLED, ECANCELED);
	EXPECT_EQ((u32)ECANCELED, cqe(&b, 7)->res);
	/* The tag keeps the low 24 bits of the event number. */
	EXPECT_EQ((7U << 8) | EDGE_CQE_CANCELLED, cqe(&b, 7)->status);
	EXPECT_EQ(3U, cq_tail(&b));
	EXPECT_EQ(3U, b.r.published);
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

/*
 * The status of lap k never reads as that of lap k + 1 in one slot: from
 * the start, across the 24-bit wrap of the tag, and across the u32 wrap.
 */
TEST(ring_status_tag_differs_per_lap)
{
	static const u32 sizes[] = { 1, 2, 8, 64, 4096 };
	static const u32 bases[] = { 0, 0x00ffff00U, 0x7fffff00U, 0xffffff00U };
	u32 i, j, lap, slot, checked = 0;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 entries = sizes[i];
		struct rbuf b;

		rbuf_init(_metadata, &b, entries, 8);
		for (j = 0; j < ARRAY_SIZE(bases); j++)
			for (slot = 0; slot < entries; slot += 1 + entries / 8) {
				/* Lap 0 starts at a multiple of entries. */
				u32 seq0 = (bases[j] & ~(entries - 1)) + slot;
				u32 prev = 0;

				for (lap = 0; lap < 600; lap++) {
					u32 seq = seq0 + lap * entries;
					u32 st;

					edge_ring_complete(&b.r, seq,
							   EDGE_CQE_DONE, lap);
					st = cqe(&b, slot)->status;
					ASSERT_EQ(EDGE_CQE_STATUS(EDGE_CQE_DONE,
								  seq), st);
					ASSERT_EQ(lap, cqe(&b, slot)->res);
					if (lap)
						ASSERT_NE(prev, st)
							TH_LOG("entries %u seq %u",
							       entries, seq);
					prev = st;
					checked++;
				}
			}
		rbuf_fini(&b);
	}
	EXPECT_GT(checked, 50000U);
	EXPECT_NO_LEAKS();
}

TEST(ring_set_flags_writes_whole_word)
{
	struct rbuf b;

	rbuf_init(_metadata, &b, 4, 8);
	*emul_word(b.sq, b.l.sq_flags) = 0xffff0000U;
	edge_ring_set_flags(&b.r, EDGE_SQ_NEED_WAKEUP);
	EXPECT_EQ(EDGE_SQ_NEED_WAKEUP, *emul_word(b.sq, b.l.sq_flags));
	edge_ring_set_flags(&b.r, 0);
	EXPECT_EQ(0U, *emul_word(b.sq, b.l.sq_flags));
	EXPECT_EQ(0U, sq_head(&b));
	rbuf_fini(&b);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

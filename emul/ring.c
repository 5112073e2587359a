// SPDX-License-Identifier: GPL-2.0
/*
 * Ring consumer logic, shared by edge.ko and the host tests.
 */
#include "ring.h"

#define EDGE_CACHELINE	64

static u32 round_up_u32(u32 v, u32 to)
{
	return (v + to - 1) / to * to;
}

/*
 * The producer-written words (CQ head) and the consumer-written ones
 * (SQ head, CQ tail) sit on separate cache lines so that polling one side
 * does not bounce the other's line.
 */
void edge_ring_layout(u32 entries, u32 param_size, u32 page_size,
		      struct edge_ring_layout *l)
{
	l->sq_head = 0;
	l->sq_flags = sizeof(u32);
	l->sq_entries = EDGE_CACHELINE;
	l->sq_size = round_up_u32(l->sq_entries + entries * param_size,
				  page_size);
	l->cq_head = 0;
	l->cq_tail = EDGE_CACHELINE;
	l->cq_cqes = 2 * EDGE_CACHELINE;
	l->cq_size = round_up_u32(l->cq_cqes +
				  entries * (u32)sizeof(struct edge_cqe),
				  page_size);
}

void edge_ring_attach(struct edge_ring *r, u32 entries, u32 param_size,
		      const struct edge_ring_layout *l, u32 *doorbell,
		      void *sq, void *cq)
{
	memset(r, 0, sizeof(*r));
	r->doorbell = doorbell;
	r->sq_head = (u32 *)((u8 *)sq + l->sq_head);
	r->sq_flags = (u32 *)((u8 *)sq + l->sq_flags);
	r->params = (u8 *)sq + l->sq_entries;
	r->cq_tail = (u32 *)((u8 *)cq + l->cq_tail);
	r->cqes = (struct edge_cqe *)((u8 *)cq + l->cq_cqes);
	r->entries = entries;
	r->param_size = param_size;
}

/* A completion's CQE: result first, then the status word (release). */
static inline void ring_write_cqe(struct edge_ring *r, u32 seq, u32 code,
				  u32 res)
{
	u32 slot = seq & (r->entries - 1);
	struct edge_cqe *cqe = &r->cqes[slot];

	r->busy[slot / 64] &= ~BIT_ULL(slot % 64);
	edge_write_once(cqe->res, res);
	edge_store_release(&cqe->status, EDGE_CQE_STATUS(code, seq));
	r->published++;
}

/*
 * Publish one completion: its CQE, then the count that poll() compares
 * with the consumer's head.
 */
void edge_ring_complete(struct edge_ring *r, u32 seq, u32 code, u32 res)
{
	ring_write_cqe(r, seq, code, res);
	edge_store_release(r->cq_tail, r->published);
}

/*
 * One completion of a batch: its CQE, without the count, which
 * edge_ring_publish() stores once for the batch.  A producer that polls
 * the count would otherwise take its cache line back at every request
 * of a batched event warp (make bench-host: the depth-256 ratio 3-5x
 * lower).  A reaper that reads statuses sees each CQE at once.
 */
void edge_ring_complete_quiet(struct edge_ring *r, u32 seq, u32 code, u32 res)
{
	ring_write_cqe(r, seq, code, res);
}

/* The flags word is the kernel's: write it whole, never merge user bits. */
void edge_ring_set_flags(struct edge_ring *r, u32 flags)
{
	edge_write_once(*r->sq_flags, flags);
}

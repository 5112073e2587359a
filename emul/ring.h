/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Submission (parameter) and completion rings: the consumer side.
 *
 * The memory is shared with user space (or with another driver), so every
 * index read from it is hostile: the consumer keeps its own copy of head
 * and clamps what the producer claims to what the ring can hold.
 */
#ifndef _EDGE_RING_H
#define _EDGE_RING_H

#include "edge_compat.h"
#include "limits.h"
#include <linux/edge.h>

/* Byte layout of one entry's two mappings; see struct edge_sq_offsets. */
struct edge_ring_layout {
	u32 sq_size;
	u32 sq_head;
	u32 sq_flags;
	u32 sq_entries;
	u32 cq_size;
	u32 cq_head;
	u32 cq_tail;
	u32 cq_cqes;
};

struct edge_ring {
	u32 *doorbell;		/* producer count (hostile) */
	u32 *sq_head;		/* mirror of @head for the producer */
	u32 *sq_flags;
	u8 *params;
	u32 *cq_tail;		/* mirror of @published */
	struct edge_cqe *cqes;
	u32 entries;		/* power of two */
	u32 param_size;
	u32 head;		/* consumer count: the truth */
	u32 published;		/* completions written */
	/* Slots whose event is in flight: consumed, not yet completed. */
	u64 busy[EDGE_MAX_RING_ENTRIES / 64];
};

void edge_ring_layout(u32 entries, u32 param_size, u32 page_size,
		      struct edge_ring_layout *l);
void edge_ring_attach(struct edge_ring *r, u32 entries, u32 param_size,
		      const struct edge_ring_layout *l, u32 *doorbell,
		      void *sq, void *cq);
void edge_ring_complete(struct edge_ring *r, u32 seq, u32 code, u32 res);
void edge_ring_complete_quiet(struct edge_ring *r, u32 seq, u32 code, u32 res);
void edge_ring_set_flags(struct edge_ring *r, u32 flags);

/* The count of a batch of edge_ring_complete_quiet(), stored once. */
static inline void edge_ring_publish(struct edge_ring *r)
{
	edge_store_release(r->cq_tail, r->published);
}

/*
 * Inline: each runs once an event, and the call cost as much.
 * edge_ring_complete() and edge_ring_complete_quiet() stay calls: the
 * fuzzers wrap them (-Wl,--wrap).
 */
static inline const void *edge_ring_param(const struct edge_ring *r, u32 seq)
{
	return r->params + (size_t)(seq & (r->entries - 1)) * r->param_size;
}

static inline bool edge_ring_slot_busy(const struct edge_ring *r, u32 seq)
{
	u32 slot = seq & (r->entries - 1);

	return r->busy[slot / 64] & BIT_ULL(slot % 64);
}

/*
 * How many new parameter entries the consumer may take now.  The
 * producer's count is trusted for nothing: a count behind head, or ahead
 * by more than the ring holds, is clamped to the free slots, as
 * io_sqring_entries() does.  Events complete out of order, so a free
 * slot count is not enough: the consumer stops at the first slot whose
 * event is still in flight (a producer that rang past an unreaped slot,
 * which only a hostile one does), and the model never holds two events
 * in one slot.
 */
static inline u32 edge_ring_avail(const struct edge_ring *r, u32 inflight)
{
	u32 tail = edge_load_acquire(r->doorbell);
	u32 avail = tail - r->head;
	u32 room = r->entries - inflight;
	u32 n = avail < room ? avail : room, i;

	EDGE_ASSERT(inflight <= r->entries);
	if (!inflight)
		return n;
	for (i = 0; i < n; i++)
		if (edge_ring_slot_busy(r, r->head + i))
			return i;
	return n;
}

/* The entries below the new head have been read: tell the producer. */
static inline void edge_ring_consume(struct edge_ring *r, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 slot = (r->head + i) & (r->entries - 1);

		r->busy[slot / 64] |= BIT_ULL(slot % 64);
	}
	r->head += n;
	edge_store_release(r->sq_head, r->head);
}

#endif /* _EDGE_RING_H */

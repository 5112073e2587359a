// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ring: the ring consumer against a hostile producer.
 *
 * Why: the doorbell page and both ring mappings are shared with user
 * space, writable, and read by the model while it runs (edge.ko's front
 * end thread).  Every word user space can write there is hostile: a tail
 * behind the head or far ahead of it, a scribbled head or flags word,
 * parameter entries rewritten while their events run.  None of it may
 * make the model write outside the ring memory it was given, hold more
 * events than the ring has slots, lose or duplicate a completion, or
 * break its accounting.
 *
 * Input: a 4-byte header, then operations.
 *   header  preset, SIMT policy, dispatch latency; the target entry's ring
 *           size (1..64), parameter size, function (NOP/ECHO) and kernel
 *           shape (single-warp event, partial warp, small TB kernels);
 *           optionally a second, background entry of TB kernels; the
 *           event's run time.
 *   ops     one byte each (plus arguments): store any u32 into an entry's
 *           doorbell word, or head + a little, or produce like libedge;
 *           write any bytes anywhere in an SQ mapping (head and flags
 *           words, parameter entries) or into a CQ mapping's head/tail
 *           lines; poll; run_until a time; a front-end step; advance the
 *           clock (real-time mode); cancel (teardown) and register again;
 *           unregister and register again; flip NEED_WAKEUP; store into
 *           doorbell words no entry owns.
 *
 * Asserted after every model call (fuzz_common.h has the details): the
 * model writes only its own words (sq head after poll/cancel, flags only
 * when told, cqes and cq tail only for completions; no doorbell word,
 * nothing of the parameter entries; exact-size allocations make ASan
 * catch a write past an end); the head moves forward only, by at most
 * ring_entries per poll and never past what the doorbell claims (the
 * io_sqring_entries() clamp); no more than ring_entries events in flight;
 * every consumed event (by sequence number) completes exactly once, as
 * done in a run or cancelled in its entry's teardown (or done during
 * another entry's teardown, when its TB had ended while one of its warps
 * was lent to that entry's event), with its status word carrying its
 * sequence; unregister fails with EBUSY exactly while events
 * are in flight or rung; submitted == completed + errors + rejected +
 * cancelled + in flight at every step, and with nothing in flight at the
 * end; the model never goes quiet with events in flight; the SIMT model
 * stays consistent.
 *
 * Also asserted (since the consumer tracks busy slots): the model never
 * holds two events in one slot, even for a producer that rings a slot
 * whose event is still running (as only a hostile one does): the
 * consumer stops at that slot.  See README, finding 4.
 */
#include "fuzz_common.h"

#define MAX_OPS		256
#define DRAIN_BUDGET	256

static const char *const presets[] = { "edge", "lax", "h100-like" };

struct setup {
	const struct edge_preset *p;
	struct edge_kdesc ka;		/* the target entry */
	struct edge_kdesc kb;		/* the background entry */
	bool has_b;
};

static void setup_from(struct fz_in *in, struct setup *su,
		       struct edge_simt_cfg *cfg)
{
	u8 h0 = fz_u8(in), h1 = fz_u8(in), h2 = fz_u8(in), h3 = fz_u8(in);
	u32 ws, entries, psz, func, grid, block;
	int ret;

	su->p = edge_preset_find(presets[h0 % 3]);
	ws = su->p->warp_size;
	edge_simt_default_cfg(cfg);
	cfg->sched = (h0 >> 2) % 3;
	cfg->dispatch_cycles = (h0 & 0x10) ? 300 : 0;
	cfg->skip_event_exec = (h0 >> 5) & 1;
	cfg->victim = (h0 >> 6) % 3;

	entries = 1U << (h1 % 7);
	psz = 8U << ((h1 >> 3) & 3);
	func = (h1 & 0x20) ? EDGE_FN_ECHO : EDGE_FN_NOP;
	switch (h1 >> 6) {
	case 0:
		grid = 1, block = ws;		/* a single-warp event */
		break;
	case 1:
		grid = 1, block = 1;		/* a partial warp */
		break;
	case 2:
		grid = 2, block = 2 * ws;	/* a small TB kernel */
		break;
	default:
		grid = 1, block = ws + 1;	/* one TB, two warps */
		break;
	}
	ret = fz_kdesc(su->p, &su->ka, func, 15, grid, block, 32, 0, psz,
		       entries, 100 + (u64)h3 * 50, NULL);
	FZ_ASSERT(!ret, "target kdesc");

	su->has_b = h2 & 1;
	ret = fz_kdesc(su->p, &su->kb, EDGE_FN_NOP, (h2 >> 7) ? 15 : 0,
		       1 + (h2 >> 1) % 16 * su->p->num_cores, 256, 32, 0, 8, 8,
		       20000, NULL);
	FZ_ASSERT(!ret, "background kdesc");
}

/* User stores into its mappings: the real memory and the shadow. */
static void user_write(u8 *real, u8 *shadow, u32 size, u32 off,
		       struct fz_in *in, u32 len)
{
	u32 i;

	for (i = 0; i < len && off + i < size; i++) {
		u8 v = fz_u8(in);

		real[off + i] = v;
		shadow[off + i] = v;
	}
}

static void ring_store(struct fz_ctx *c, u32 id, u32 v)
{
	__atomic_store_n(&c->db[id], v, __ATOMIC_RELEASE);
	c->db_shadow[id] = v;
}

static void re_register(struct fz_ctx *c, struct fz_ring *r,
			const struct edge_kdesc *k)
{
	int ret;

	fz_ring_free(r);
	ret = fz_ring_register(c, r, k, true);
	FZ_ASSERT(!ret, "register again: %d", ret);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_prepare(presets, ARRAY_SIZE(presets));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct edge_simt_cfg cfg;
	struct fz_ctx c;
	struct fz_ring ra, rb;
	struct setup su;
	u32 ops = 0;
	int ret;

	if (size < 4)
		return 0;
	setup_from(&in, &su, &cfg);
	fz_model_init(&c, su.p);
	ret = edge_model_set_cfg(c.m, &cfg);
	FZ_ASSERT(!ret, "set_cfg: %d", ret);
	memset(&rb, 0, sizeof(rb));
	ret = fz_ring_register(&c, &ra, &su.ka, true);
	FZ_ASSERT(!ret, "register: %d", ret);
	if (su.has_b) {
		ret = fz_ring_register(&c, &rb, &su.kb, true);
		FZ_ASSERT(!ret, "register: %d", ret);
	}

	while (fz_more(&in) && ops++ < MAX_OPS) {
		u8 op = fz_u8(&in);
		bool use_b = su.has_b && (op & 0x10);
		struct fz_ring *r = use_b ? &rb : &ra;
		const struct edge_kdesc *k = use_b ? &su.kb : &su.ka;
		const struct edge_ring_layout *l = &r->mem.layout;

		switch (op & 15) {
		case 0:		/* any tail at all */
			ring_store(&c, r->id, fz_u32(&in));
			break;
		case 1:		/* a tail near the head, either side */
			ring_store(&c, r->id, r->head + (u32)(s32)(int8_t)fz_u8(&in));
			break;
		case 2:		/* libedge's producer */
			if (r->tail - r->head > r->entries)
				r->tail = r->head;
			fz_produce(&c, r, fz_u8(&in) % 8 + 1, op);
			break;
		case 3: {	/* scribble anywhere in the SQ mapping */
			u32 off = fz_u16(&in) % l->sq_size;

			user_write(r->mem.sq, r->sq_shadow, l->sq_size, off,
				   &in, fz_u8(&in) % 16 + 1);
			break;
		}
		case 4: {	/* scribble on the CQ's head and tail lines */
			u32 off = fz_u8(&in) % l->cq_cqes;

			user_write(r->mem.cq, r->cq_shadow, l->cq_cqes, off,
				   &in, fz_u8(&in) % 8 + 1);
			break;
		}
		case 5: {	/* a forged consumer count */
			u32 v = fz_u32(&in);

			memcpy((u8 *)r->mem.sq + l->sq_head, &v, 4);
			memcpy(r->sq_shadow + l->sq_head, &v, 4);
			break;
		}
		case 6:
			fz_poll(&c);
			break;
		case 7:
			fz_run_until(&c, edge_model_now(c.m) +
				     (u64)fz_u16(&in) * 16);
			break;
		case 8:
			fz_run_until(&c, edge_model_next_time(c.m));
			break;
		case 9:
			fz_step(&c);
			break;
		case 10:
			fz_advance(&c, edge_model_now(c.m) +
				   (u64)fz_u16(&in) * 64);
			break;
		case 11:
			fz_cancel(&c, r);
			re_register(&c, r, k);
			break;
		case 12:
			if (!fz_unregister(&c, r))
				re_register(&c, r, k);
			break;
		case 13:
			fz_set_sq_flags(&c, fz_u8(&in) & EDGE_SQ_NEED_WAKEUP);
			break;
		case 14: {	/* a doorbell word no entry owns */
			u32 id = fz_u8(&in) % EDGE_EKT_ENTRIES;

			if (!c.by_id[id])
				ring_store(&c, id, fz_u32(&in));
			break;
		}
		case 15: {
			u32 i, n = fz_u8(&in) % 16 + 1;

			for (i = 0; i < n; i++)
				fz_step(&c);
			break;
		}
		}
	}
	FZ_ASSERT(!fz_drain(&c, DRAIN_BUDGET),
		  "hang: engine empty with %u in flight", c.m->inflight);
	fz_model_fini(&c);
	fz_ring_free(&ra);
	fz_ring_free(&rb);
	fz_input_done();
	return 0;
}

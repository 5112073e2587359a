// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_register: EDGE_IOC_REGISTER_EVENT's argument, as user space can
 * send it, through edge_validate_register() and into a running model.
 *
 * Why: struct edge_register is the one place where user space describes
 * work to the model.  Whatever validation accepts, the model must be able
 * to run (or cancel) without overflowing, hanging or leaking, on every
 * preset; whatever it rejects must be rejected for a documented reason.
 *
 * Input: the user's buffer, then a script.
 *   bytes [0, 4)       the struct's size field (usize), as the caller set it
 *   bytes [0, usize)   the struct, copied in by edge_copy_in()'s rules
 *                      (drv/fops.c, Documentation/uapi.rst "Struct sizes"):
 *                      usize < EDGE_REGISTER_SIZE_VER0 or > a page is
 *                      E2BIG; a tail beyond sizeof(struct edge_register)
 *                      must be zero (else E2BIG); a shorter struct reads
 *                      zeroes for its missing fields.  An input shorter
 *                      than usize is zero-padded (the rest of the page).
 *   bytes [usize, ...) a script for a well-behaved producer: ring events,
 *                      step the front end, run the next few instants,
 *                      flip the ring flags (NEED_WAKEUP), one byte each.
 *
 * Asserted, for each preset ("edge", "lax", "h100-like"):
 *   - validation is a pure function and agrees with an independent
 *     reading of Documentation/uapi.rst (ref_validate() below);
 *   - an accepted struct gives a descriptor whose every field the model
 *     relies on is in range: ring_entries a power of two <= 4096,
 *     param_size a multiple of 8 in [8, 4096], ring bytes <= 4 MiB, block
 *     threads <= the preset's maximum, registers and shared memory fit a
 *     core (in whole warps, as the model allocates them), num_tbs,
 *     block_threads and warps_per_tb derived consistently, the warp state
 *     within its documented bounds;
 *   - registered in a fresh edge_model with ring memory laid out by
 *     edge_ring_layout() (exact-size allocations: ASan guards the ends),
 *     rung, and run in virtual time for a bounded number of engine events,
 *     every check of fuzz_common.h holds after every model call (memory
 *     ownership, one status per consumed event with the right sequence
 *     and result, accounting, SIMT consistency);
 *   - the model never goes quiet with work in flight (a hang), an idle
 *     entry unregisters, a busy one cancels, and at the end submitted ==
 *     completed + errors + rejected + cancelled with nothing left
 *     anywhere; LeakSanitizer checks the rest.
 */
#include "fuzz_common.h"

_Static_assert(EDGE_REGISTER_SIZE_VER0 == offsetof(struct edge_register, ws),
	       "VER0 ends where ws starts");
_Static_assert(EDGE_REGISTER_SIZE_VER1 ==
	       offsetof(struct edge_register, table_ptr),
	       "VER1 ends where the table starts");
_Static_assert(EDGE_REGISTER_SIZE_VER5 == sizeof(struct edge_register),
	       "VER5 is the whole struct");

#define MAX_SCRIPT	64	/* script steps per preset */
#define MAX_EVENTS	256	/* events rung per preset */
#define RUN_BUDGET	2048	/* engine events per preset */

/* edge_copy_in() over a user buffer of @len bytes (zeroes after it). */
static int copy_in(struct edge_register *reg, const u8 *buf, size_t len,
		   u32 *usizep)
{
	u8 user[FZ_PAGE];
	u32 usize, i;

	if (len < sizeof(u32))
		return -EFAULT;
	memcpy(&usize, buf, sizeof(usize));
	if (usize < EDGE_REGISTER_SIZE_VER0 || usize > FZ_PAGE)
		return -E2BIG;
	memset(user, 0, usize);
	memcpy(user, buf, len < usize ? len : usize);
	/* copy_struct_from_user(): a longer struct's tail must be zero. */
	for (i = sizeof(*reg); i < usize; i++)
		if (user[i])
			return -E2BIG;
	memset(reg, 0, sizeof(*reg));
	memcpy(reg, user, usize < sizeof(*reg) ? usize : sizeof(*reg));
	*usizep = usize;
	return 0;
}

/*
 * Documentation/uapi.rst, "REGISTER_EVENT validation", read on its own
 * (a block "fits one core" as the model allocates it: threads and
 * registers by whole warps, simt.c tb_regs()): the accept/reject decision
 * must match emul/validate.c's.
 */
static bool ref_validate(const struct edge_preset *p,
			 const struct edge_register *r)
{
	const struct edge_warp_state *w = &r->ws;
	unsigned __int128 threads;
	u64 warps;

	if ((r->flags & ~EDGE_REGISTER_WARP_BATCH) || r->func < EDGE_FN_NOP ||
	    r->func > EDGE_FN_MAX || r->priority > EDGE_PRIO_MAX)
		return false;
	if (r->grid_x < 1 || r->grid_y < 1 || r->grid_z < 1 ||
	    r->grid_x > EDGE_MAX_GRID_X || r->grid_y > EDGE_MAX_GRID_YZ ||
	    r->grid_z > EDGE_MAX_GRID_YZ)
		return false;
	if (r->block_x < 1 || r->block_y < 1 || r->block_z < 1)
		return false;
	threads = (unsigned __int128)r->block_x * r->block_y * r->block_z;
	if (threads > p->max_block_threads)
		return false;
	if (r->regs_per_thread < 1 || r->regs_per_thread > p->max_regs_per_thread)
		return false;
	warps = ((u64)threads + p->warp_size - 1) / p->warp_size;
	if (warps * p->warp_size > p->threads_per_core ||
	    warps * p->warp_size * r->regs_per_thread > p->regs_per_core ||
	    r->smem_per_block > p->smem_per_core)
		return false;
	if (r->param_size % 8 || r->param_size < 8 ||
	    r->param_size > EDGE_MAX_PARAM_SIZE)
		return false;
	if (!r->ring_entries || (r->ring_entries & (r->ring_entries - 1)) ||
	    r->ring_entries > EDGE_MAX_RING_ENTRIES)
		return false;
	if ((u64)r->ring_entries * r->param_size > EDGE_MAX_RING_BYTES)
		return false;
	if (r->warp_cycles < 1 || r->warp_cycles > (1ULL << 40))
		return false;
	if (w->p_pipe > 1000 || w->p_load > 1000 || w->p_barrier > 1000 ||
	    w->p_membar > 1000 || w->p_icache > 1000)
		return false;
	if (w->rsd_pct > 100 || w->early_pct > 100 || w->mem_pct > 100 ||
	    w->corun_pct > 10000 || w->ewarp_corun_pct > 10000)
		return false;
	if (w->pipe_cycles > 10000000 || w->load_cycles > 10000000 ||
	    w->barrier_cycles > 10000000 || w->membar_cycles > 10000000 ||
	    w->icache_cycles > 10000000 || w->ibuf_insts > 64)
		return false;
	/* VER3: a deadline of at most 10^12 ns (1000 s); 0 is none. */
	if (r->deadline_ns > 1000000000000ULL)
		return false;
	/*
	 * VER2: a table for LPM4 (whole 16-byte routes) and LPM6 (32-byte
	 * ones) only, at most 1024.
	 */
	if (r->pad)
		return false;
	/*
	 * VER5: batched event warps, with the flag only: 1..32 requests,
	 * above 1 for one TB of at most a warp; a gather wait up to 1 ms.
	 */
	if (r->flags & EDGE_REGISTER_WARP_BATCH) {
		if (r->requests_per_warp < 1 || r->requests_per_warp > 32 ||
		    r->gather_ns > 1000000)
			return false;
		if (r->requests_per_warp > 1 &&
		    ((u64)r->grid_x * r->grid_y * r->grid_z != 1 ||
		     threads > p->warp_size))
			return false;
	} else if (r->requests_per_warp || r->gather_ns) {
		return false;
	}
	if (r->func == EDGE_FN_LPM4)
		return r->table_ptr && r->table_len && r->table_len % 16 == 0 &&
		       r->table_len <= 1024 * 16;
	if (r->func == EDGE_FN_LPM6)
		return r->table_ptr && r->table_len && r->table_len % 32 == 0 &&
		       r->table_len <= 1024 * 32;
	return !r->table_ptr && !r->table_len;
}

static bool is_ewarp(const struct edge_preset *p, const struct edge_kdesc *k)
{
	return k->num_tbs == 1 && k->block_threads <= p->warp_size;
}

/*
 * Known bug 1 (README): validate.c checked block_threads * regs against
 * the core's registers, but the model allocates whole warps
 * (simt.c tb_regs()); a TB kernel whose last warp is partial passed
 * validation and never fit a core.  True when @k is such a kernel.
 */
static bool known_partial_warp_regs(const struct edge_preset *p,
				    const struct edge_kdesc *k)
{
	return !is_ewarp(p, k) &&
	       (u64)k->warps_per_tb * p->warp_size * k->regs_per_thread >
	       p->regs_per_core;
}

/*
 * Known bug 3 (README): a TB whose modelled time rounds to 0 ns ends at
 * the instant it starts, and the next TB of its kernel starts then too,
 * so one edge_model_run_until() call runs the whole grid without time
 * moving (up to 2^63 TBs).  The front end now steps with
 * edge_model_run_budget(), and so do the fuzzers when emul/ has it
 * (fz_run_until()); without it, true when a TB of @k may take 0 ns (the
 * fewest cycles it can draw: 1 with a spread, less its memory-bound
 * share when one core runs) and the grid is too large to run through in
 * a fuzz iteration.
 */
static bool known_zero_time_grid(const struct edge_preset *p,
				 const struct edge_kdesc *k)
{
	u64 lo = k->ws.rsd_pct ? 1 : k->warp_cycles;
	u64 part = lo * k->ws.mem_pct / 100;

	lo = lo - part + part / p->num_cores;
	return !is_ewarp(p, k) && k->num_tbs > 4096 &&
	       lo * 1000000 / p->clock_khz == 0;
}

/* What the model relies on, for an accepted registration. */
static void check_kdesc(const struct edge_preset *p,
			const struct edge_register *r,
			const struct edge_kdesc *k)
{
	u32 bt = r->block_x * r->block_y * r->block_z;
	const struct edge_warp_state *w = &k->ws;

	FZ_ASSERT(k->ring_entries && !(k->ring_entries & (k->ring_entries - 1)) &&
		  k->ring_entries <= EDGE_MAX_RING_ENTRIES, "ring_entries %u",
		  k->ring_entries);
	FZ_ASSERT(k->param_size >= 8 && k->param_size <= EDGE_MAX_PARAM_SIZE &&
		  k->param_size % 8 == 0, "param_size %u", k->param_size);
	FZ_ASSERT((u64)k->ring_entries * k->param_size <= EDGE_MAX_RING_BYTES,
		  "ring bytes");
	FZ_ASSERT(k->block_threads == bt && bt >= 1 &&
		  bt <= p->max_block_threads, "block threads %u", bt);
	FZ_ASSERT(k->num_tbs == (u64)r->grid_x * r->grid_y * r->grid_z &&
		  k->num_tbs >= 1, "num_tbs");
	FZ_ASSERT(k->warps_per_tb == (bt + p->warp_size - 1) / p->warp_size &&
		  k->warps_per_tb >= 1 &&
		  k->warps_per_tb * p->warp_size <= p->threads_per_core,
		  "warps_per_tb %u", k->warps_per_tb);
	FZ_ASSERT(k->regs_per_thread >= 1 &&
		  k->regs_per_thread <= p->max_regs_per_thread &&
		  (u64)bt * k->regs_per_thread <= p->regs_per_core,
		  "regs %u", k->regs_per_thread);
	/* An event warp holds a whole warp's registers (preempt.c). */
	FZ_ASSERT((u64)k->regs_per_thread * p->warp_size <= p->regs_per_core,
		  "event warp registers");
	FZ_ASSERT(!known_partial_warp_regs(p, k),
		  "known bug 1: accepted a TB of %u threads x %u regs = %llu "
		  "registers in whole warps, core has %u (preset %s)", bt,
		  k->regs_per_thread,
		  (unsigned long long)k->warps_per_tb * p->warp_size *
		  k->regs_per_thread, p->regs_per_core, p->name);
	FZ_ASSERT(k->smem_per_block <= p->smem_per_core, "smem");
	FZ_ASSERT(k->warp_cycles >= 1 && k->warp_cycles <= EDGE_MAX_WARP_CYCLES,
		  "warp_cycles");
	FZ_ASSERT(k->func == r->func && k->priority == r->priority &&
		  k->grid[0] == r->grid_x && k->grid[1] == r->grid_y &&
		  k->grid[2] == r->grid_z && k->block[0] == r->block_x &&
		  k->block[1] == r->block_y && k->block[2] == r->block_z &&
		  k->smem_per_block == r->smem_per_block &&
		  k->param_size == r->param_size &&
		  k->ring_entries == r->ring_entries &&
		  k->warp_cycles == r->warp_cycles &&
		  !memcmp(&k->ws, &r->ws, sizeof(k->ws)), "copied fields");
	FZ_ASSERT(!edge_validate_warp_state(w) && w->rsd_pct <= 100 &&
		  w->early_pct <= 100 && w->mem_pct <= 100 &&
		  w->corun_pct <= 10000 && w->ewarp_corun_pct <= 10000 &&
		  w->p_pipe <= 1000 && w->p_load <= 1000 &&
		  w->p_barrier <= 1000 && w->p_membar <= 1000 &&
		  w->p_icache <= 1000 && w->ibuf_insts <= 64 &&
		  w->pipe_cycles <= EDGE_MAX_STALL_CYCLES &&
		  w->load_cycles <= EDGE_MAX_STALL_CYCLES &&
		  w->barrier_cycles <= EDGE_MAX_STALL_CYCLES &&
		  w->membar_cycles <= EDGE_MAX_STALL_CYCLES &&
		  w->icache_cycles <= EDGE_MAX_STALL_CYCLES, "warp state");
}

static void run_model(const struct edge_preset *p, const struct edge_kdesc *k,
		      struct fz_in script)
{
	struct fz_ctx c;
	struct fz_ring r;
	u32 rung = 0, steps = 0, seed = 0x5eed;
	bool hang;
	int ret;

	fz_model_init(&c, p);
	/* Zero-time grids run a full budget per call: keep inputs quick. */
	c.run_budget = 256;
	ret = fz_ring_register(&c, &r, k, false);
	FZ_ASSERT(!ret, "register in an empty model: %d", ret);

	rung += fz_produce(&c, &r, 2, seed);
	while (fz_more(&script) && steps++ < MAX_SCRIPT) {
		u8 b = fz_u8(&script);

		switch (b & 3) {
		case 0:
			if (rung < MAX_EVENTS)
				rung += fz_produce(&c, &r, (b >> 2) + 1, seed + b);
			break;
		case 1:
			fz_step(&c);
			break;
		case 2: {	/* the next few instants, no front-end poll */
			u32 j;

			for (j = 0; j <= (u32)(b >> 2) % 8; j++)
				fz_run_until(&c, edge_model_next_time(c.m));
			break;
		}
		case 3:
			fz_set_sq_flags(&c, (b >> 2) & EDGE_SQ_NEED_WAKEUP);
			break;
		}
	}
	hang = fz_drain(&c, RUN_BUDGET);
	FZ_ASSERT(!hang,
		  "hang: engine empty with %u in flight, %u rung (preset %s, "
		  "grid %llu TBs of %u threads, %u regs, %u smem)",
		  c.m->inflight, c.db[r.id] - r.head, p->name,
		  (unsigned long long)k->num_tbs, k->block_threads,
		  k->regs_per_thread, k->smem_per_block);
	if (!r.npend && c.db[r.id] == r.head) {
		FZ_ASSERT(!fz_unregister(&c, &r), "idle entry stays");
		fz_ring_free(&r);
	}
	fz_model_fini(&c);
	fz_ring_free(&r);
	fz_input_done();
}

static const char *const presets[] = { "edge", "lax", "h100-like" };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_prepare(presets, ARRAY_SIZE(presets));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct edge_register reg;
	u32 usize = 0, i;
	int ret;

	ret = copy_in(&reg, data, size, &usize);
	if (ret)
		return 0;
	for (i = 0; i < ARRAY_SIZE(presets); i++) {
		const struct edge_preset *p = edge_preset_find(presets[i]);
		struct edge_kdesc k, k2;
		struct fz_in script = { NULL, 0 };
		int r1, r2;
		bool ref;

		FZ_ASSERT(p, "preset %s", presets[i]);
		memset(&k, 0xa5, sizeof(k));
		memset(&k2, 0x5a, sizeof(k2));
		r1 = edge_validate_register(p, &reg, &k);
		r2 = edge_validate_register(p, &reg, &k2);
		FZ_ASSERT(r1 == 0 || r1 == -EINVAL, "validate: %d", r1);
		FZ_ASSERT(r1 == r2 && (r1 || !memcmp(&k, &k2, sizeof(k))),
			  "validation is not a pure function");
		ref = ref_validate(p, &reg);
		/* An emul/ with known bug 1 accepts what cannot fit. */
		if (!FUZZ_STRICT && !r1 && !ref && known_partial_warp_regs(p, &k))
			continue;
		FZ_ASSERT(!r1 == ref,
			  "preset %s: validate says %d, the documented rules %s",
			  p->name, r1, ref ? "accept" : "reject");
		if (r1)
			continue;
		check_kdesc(p, &reg, &k);
		/*
		 * The harness's model of a ring assumes functions that leave
		 * the entry alone and always succeed (NOP, ECHO); the
		 * computing ones write their output into it and may fail,
		 * and are covered by selftests/emul/func_test.c instead.
		 */
		if (k.func > EDGE_FN_ECHO)
			continue;
		/* Would never return without a run budget: see above. */
		if (!FUZZ_STRICT && !fz_have_run_budget() &&
		    known_zero_time_grid(p, &k))
			continue;
		if (size > usize) {
			script.p = data + usize;
			script.n = size - usize;
		}
		run_model(p, &k, script);
	}
	return 0;
}

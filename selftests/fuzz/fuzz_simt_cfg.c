// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_simt_cfg: struct edge_simt_cfg through edge_model_set_cfg(), on an
 * idle model and live, while a background kernel and single-warp events
 * run.
 *
 * Why: the configuration comes from /sys/class/edge/edgeN/sched/ (one
 * field at a time, by an administrator, at any moment) and from
 * tools/edge-sim scenario files; drv/sysfs_sched.c hands the whole struct
 * to edge_model_set_cfg() under the model lock while events are in
 * flight.  A bad value must be refused with EINVAL and change nothing;
 * a good one must take effect without breaking what is running.
 *
 * Input:
 *   byte 0         preset ("edge", "lax", "h100-like")
 *   40 bytes       a raw struct edge_simt_cfg, set on the idle model
 *   16 bytes       the background kernel (grid, block, registers, shared
 *                  memory, priority, run time, warp state) and the
 *                  single-warp event kernel (threads, registers, shared
 *                  memory, priority, run time); a shape validation
 *                  refuses falls back to a fixed one
 *   ops            ring background or event entries (a well-behaved
 *                  producer), step, run to a time, set a whole raw
 *                  config, set one field of the current config (as a
 *                  sysfs write does), cancel an entry and register it
 *                  again, flip NEED_WAKEUP, run several steps,
 *                  preempt a resident TB (thread-block preemption),
 *                  make room for the first waiting kernel
 *
 * Asserted:
 *   - edge_simt_preempt_tb() returns 0, -EBUSY or -ENOSPC, and counts a
 *     preemption exactly when it returns 0;
 *   - edge_model_set_cfg() returns 0 or -EINVAL, and 0 exactly when the
 *     config is valid by an independent reading of the knobs' ranges
 *     (ref_cfg_valid(): policy, victim, flush bits, reserve_pct <= 100,
 *     ctx_bytes_per_cycle >= 1, dispatch and issue-wait cycles <= 10^6,
 *     a thread-block policy of the table);
 *   - after -EINVAL nothing changed: the config, the random state, the
 *     reserved cores; after 0 the config is the one given, the random
 *     state is reseeded exactly when the seed changed, and the reserved
 *     cores are the last ceil(n * reserve_pct / 100) under reservation
 *     (at least 1, at most n - 1: each side keeps a core), none otherwise;
 *   - every check of fuzz_common.h after every model call;
 *   - liveness: the run drains (engine empty) only with nothing in flight
 *     or rung, so every launched kernel completes, or is cancelled at the
 *     end, and each gets exactly one status; the accounting holds.
 */
#include "fuzz_common.h"

#define MAX_OPS		128
#define DRAIN_BUDGET	2048

static bool ref_cfg_valid(const struct edge_simt_cfg *cfg)
{
	return cfg->sched <= EDGE_SCHED_PREEMPT &&
	       cfg->victim <= EDGE_VICTIM_BEST &&
	       !(cfg->flush & ~(u32)EDGE_FLUSH_ALL) &&
	       cfg->reserve_pct <= 100 && cfg->ctx_bytes_per_cycle >= 1 &&
	       cfg->dispatch_cycles <= 1000000 &&
	       cfg->sched_wait_cycles <= 1000000 &&
	       cfg->tb_policy < EDGE_TBP_NR;
}

/*
 * Cores reserved for events: ceil(n * reserve_pct / 100) under
 * reservation, none otherwise; each side keeps at least one core.
 */
static u32 expect_reserved(const struct edge_preset *p,
			   const struct edge_simt_cfg *cfg)
{
	u32 n = p->num_cores, r;

	if (cfg->sched != EDGE_SCHED_RESERVE)
		return 0;
	r = (n * cfg->reserve_pct + 99) / 100;
	if (r < 1)
		r = 1;
	return r >= n ? n - 1 : r;
}

/*
 * Known bug 2 (README): reservation with no reserved core.  What it
 * leaves stuck is single-warp kernels waiting for a core, and only them
 * (the background may be single-warp too).
 */
static bool known_no_event_core(const struct edge_simt *s)
{
	u32 i;

	if (FUZZ_STRICT || s->cfg.sched != EDGE_SCHED_RESERVE)
		return false;
	for (i = 0; i < s->p->num_cores; i++)
		if (s->cores[i].reserved)
			return false;
	for (i = 0; i < s->ki_init; i++)
		if (s->ki[i].used && (!s->ki[i].ewarp || s->ki[i].placed))
			return false;
	return true;
}

static void set_cfg(struct fz_ctx *c, const struct edge_simt_cfg *cfg)
{
	struct edge_simt *s = &c->m->simt;
	const struct edge_preset *p = s->p;
	struct edge_simt_cfg old = s->cfg;
	struct edge_rng rng = s->rng;
	bool valid = ref_cfg_valid(cfg), res[256];
	u32 i, n = p->num_cores, want;
	int ret;

	FZ_ASSERT(n <= ARRAY_SIZE(res), "cores %u", n);
	for (i = 0; i < n; i++)
		res[i] = s->cores[i].reserved;
	c->cur = FZ_STEP_NONE;
	ret = edge_model_set_cfg(c->m, cfg);
	FZ_ASSERT(ret == 0 || ret == -EINVAL, "set_cfg: %d", ret);
	FZ_ASSERT(!ret == valid,
		  "set_cfg says %d, the knobs' ranges say %s (sched %u victim %u "
		  "flush %#x reserve %u dispatch %u wait %u ctx %u)", ret,
		  valid ? "valid" : "invalid", cfg->sched, cfg->victim,
		  cfg->flush, cfg->reserve_pct, cfg->dispatch_cycles,
		  cfg->sched_wait_cycles, cfg->ctx_bytes_per_cycle);
	if (ret) {
		FZ_ASSERT(!memcmp(&old, &s->cfg, sizeof(old)) &&
			  rng.s == s->rng.s, "a refused config changed state");
		for (i = 0; i < n; i++)
			FZ_ASSERT(res[i] == s->cores[i].reserved,
				  "a refused config moved core %u", i);
	} else {
		FZ_ASSERT(!memcmp(cfg, &s->cfg, sizeof(*cfg)), "config not set");
		FZ_ASSERT(s->rng.s == (cfg->seed != old.seed ? cfg->seed : rng.s),
			  "rng state");
		want = expect_reserved(p, cfg);
		/* An emul/ with known bug 2 reserves none for 0 %. */
		if (!FUZZ_STRICT && cfg->sched == EDGE_SCHED_RESERVE &&
		    !cfg->reserve_pct && !s->cores[n - 1].reserved)
			want = 0;
		for (i = 0; i < n; i++)
			FZ_ASSERT(s->cores[i].reserved == (i >= n - want),
				  "core %u reserved %d, want the last %u", i,
				  s->cores[i].reserved, want);
		/* Placements made under another policy stay where they are. */
		if (!edge_simt_idle(s) &&
		    (cfg->sched != old.sched ||
		     cfg->reserve_pct != old.reserve_pct))
			c->cfg_changed = true;
	}
	fz_after(c, FZ_STEP_NONE, NULL);
}

/* The u32 knobs come first, then the seed (and a hole before it, maybe). */
#define CFG_WORDS	(offsetof(struct edge_simt_cfg, seed) / sizeof(u32))

static void raw_cfg(struct fz_in *in, struct edge_simt_cfg *cfg)
{
	u32 *w = (u32 *)cfg;
	u32 i;

	_Static_assert(sizeof(*cfg) == offsetof(struct edge_simt_cfg, seed) +
		       sizeof(u64), "the seed is the last field");
	for (i = 0; i < CFG_WORDS; i++)
		w[i] = fz_u32(in);
	cfg->seed = fz_u64(in);
}

/* One field, as a sysfs write of it does; small values are likelier. */
static void field_cfg(struct fz_in *in, struct edge_simt_cfg *cfg)
{
	u8 f = fz_u8(in) % (CFG_WORDS + 1), sel = fz_u8(in);
	u32 v = (sel & 0x80) ? fz_u32(in) : sel & 0x7f;

	if (f < CFG_WORDS)
		((u32 *)cfg)[f] = v;
	else
		cfg->seed = (sel & 0x80) ? fz_u64(in) : sel;
}

static void shapes(struct fz_in *in, const struct edge_preset *p,
		   struct edge_kdesc *bg, struct edge_kdesc *ev)
{
	struct edge_warp_state ws;
	u8 b[16];
	u32 i;
	int ret;

	for (i = 0; i < sizeof(b); i++)
		b[i] = fz_u8(in);
	memset(&ws, 0, sizeof(ws));
	ws.rsd_pct = b[6] % 101;
	ws.corun_pct = b[7] * 4U;
	ws.p_pipe = b[8] * 4U;
	ws.pipe_cycles = b[9];
	ws.ibuf_insts = b[9] % 65;
	ws.p_load = b[10] * 4U;
	ws.load_cycles = b[10] * 8U;
	ws.p_barrier = b[11] * 4U;
	ws.barrier_cycles = b[11] * 4U;
	ws.early_pct = b[11] % 101;
	ws.p_membar = b[6] * 2U;
	ws.membar_cycles = b[7];
	ws.p_icache = b[8] * 2U;
	ws.icache_cycles = b[9] * 2U;
	ws.ewarp_corun_pct = b[12];
	ws.mem_pct = b[13] % 101;

	/* A grid of up to 2 waves of whole-warp blocks (cancel is O(TBs^2)). */
	ret = fz_kdesc(p, bg, EDGE_FN_NOP, b[4] % 16,
		       1 + (b[0] | b[1] << 8) % (2 * p->num_cores *
						 p->tb_slots_per_core),
		       p->warp_size * (1 + b[2] % 32), 1 + b[3] % 64,
		       (b[5] & 0x80) ? (b[5] & 0x7f) * 256U : 0, 8, 8,
		       200 + (u64)b[14] * 64, &ws);
	if (ret)
		FZ_ASSERT(!fz_kdesc(p, bg, EDGE_FN_NOP, 0, 2 * p->num_cores,
				    256, 32, 0, 8, 8, 5000, NULL),
			  "background");

	ret = fz_kdesc(p, ev, EDGE_FN_ECHO, b[15] % 16, 1,
		       1 + b[12] % p->warp_size, 1 + b[13],
		       (b[15] & 0x80) ? 1024 : 0, 8, 64,
		       50 + (u64)b[14] * 8, &ws);
	if (ret)
		FZ_ASSERT(!fz_kdesc(p, ev, EDGE_FN_ECHO, 15, 1, p->warp_size,
				    32, 0, 8, 64, 300, NULL), "event");
}

/*
 * Thread-block preemption of resident TB number @pick: it is taken off
 * its core, or refused (-EBUSY: finishing, leaving, lending warps;
 * -ENOSPC: no saved-context slot) with nothing changed.
 */
static void preempt_tb(struct fz_ctx *c, u32 pick)
{
	struct edge_simt *s = &c->m->simt;
	u64 before = s->st.tb_preemptions;
	struct edge_tb *tb = NULL;
	u32 i, n = 0;
	int ret;

	for (i = 0; i < s->nr_tbs; i++)
		if (s->tbs[i].used && n++ == pick % (s->nr_tbs - s->nr_free_tbs + 1))
			tb = &s->tbs[i];
	if (!tb)
		return;
	ret = edge_simt_preempt_tb(s, tb);
	FZ_ASSERT(!ret || ret == -EBUSY || ret == -ENOSPC, "preempt_tb: %d",
		  ret);
	FZ_ASSERT(s->st.tb_preemptions == before + !ret,
		  "a refused preemption counted");
	fz_after(c, FZ_STEP_NONE, NULL);
}

/* gtx480-pai re-times running TBs (corun_live, gpu/retime.c). */
static const char *const presets[] = { "edge", "lax", "h100-like",
				       "gtx480-pai" };

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
	const struct edge_preset *p;
	struct edge_kdesc bg, ev;
	struct edge_simt_cfg cfg;
	struct fz_ring rb, re;
	struct fz_ctx c;
	u32 ops = 0;
	bool hang;
	int ret;

	if (size < 1 + sizeof(cfg))
		return 0;
	p = edge_preset_find(presets[fz_u8(&in) % ARRAY_SIZE(presets)]);
	fz_model_init(&c, p);
	raw_cfg(&in, &cfg);
	set_cfg(&c, &cfg);
	shapes(&in, p, &bg, &ev);
	ret = fz_ring_register(&c, &rb, &bg, false);
	FZ_ASSERT(!ret, "register: %d", ret);
	ret = fz_ring_register(&c, &re, &ev, false);
	FZ_ASSERT(!ret, "register: %d", ret);

	while (fz_more(&in) && ops++ < MAX_OPS) {
		u8 op = fz_u8(&in);

		switch (op & 15) {
		case 0:
			fz_produce(&c, &rb, (op >> 4) + 1, op);
			break;
		case 1:
			fz_produce(&c, &re, (op >> 4) + 1, op);
			break;
		case 2:
			fz_step(&c);
			break;
		case 3:
			fz_run_until(&c, edge_model_now(c.m) +
				     (u64)fz_u16(&in) * 32);
			break;
		case 4:
			raw_cfg(&in, &cfg);
			set_cfg(&c, &cfg);
			break;
		case 5:
		case 6:
			cfg = c.m->simt.cfg;
			field_cfg(&in, &cfg);
			set_cfg(&c, &cfg);
			break;
		case 7:
			fz_cancel(&c, &re);
			fz_ring_free(&re);
			FZ_ASSERT(!fz_ring_register(&c, &re, &ev, false), "again");
			break;
		case 8:
			fz_cancel(&c, &rb);
			fz_ring_free(&rb);
			FZ_ASSERT(!fz_ring_register(&c, &rb, &bg, false), "again");
			break;
		case 9:
			fz_set_sq_flags(&c, (op >> 4) & EDGE_SQ_NEED_WAKEUP);
			break;
		case 10:
			preempt_tb(&c, fz_u16(&in));
			break;
		case 11:
			/* A preemptive policy makes room for the head kernel. */
			edge_simt_preempt_for_head(&c.m->simt, (op >> 4) * 7);
			fz_after(&c, FZ_STEP_NONE, NULL);
			break;
		default: {
			u32 i;

			for (i = 0; i < (u32)(op >> 4) + 1; i++)
				fz_step(&c);
			break;
		}
		}
	}
	hang = fz_drain(&c, DRAIN_BUDGET);
	FZ_ASSERT(!hang || known_no_event_core(&c.m->simt),
		  "hang: engine empty with %u in flight (background %u, events "
		  "%u), sched %u reserve_pct %u", c.m->inflight, rb.npend,
		  re.npend, c.m->simt.cfg.sched, c.m->simt.cfg.reserve_pct);
	fz_model_fini(&c);
	fz_ring_free(&rb);
	fz_ring_free(&re);
	fz_input_done();
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared machinery of the libFuzzer targets of emul/ (selftests/fuzz/).
 *
 * The targets drive the model as drv/ does: rings in memory laid out by
 * edge_ring_layout(), one doorbell word per EKT id, and the front end's
 * poll / run_until steps.  What they add is an oracle that watches every
 * byte the model may touch:
 *
 *  - every ring mapping and the doorbell page are allocated at their exact
 *    size (ASan's redzones sit right behind them), and the harness keeps a
 *    shadow copy of each: after every model call, every byte the model may
 *    not write must be unchanged, and the words it may write (sq head,
 *    cq tail, the cqes, the flags word) must hold exactly what the
 *    protocol says;
 *  - every parameter entry the model consumes (its internal head moving)
 *    becomes a pending sequence number in its slot; a slot never holds two
 *    (the model never has two events in one slot), the head moves forward
 *    by at most ring_entries per call, and only poll and cancel move it;
 *  - every completion is checked as it is made (the targets are linked
 *    with -Wl,--wrap=edge_ring_complete): its sequence number must be in
 *    flight on that ring, and leaves it; its code is DONE in a run
 *    (with res = the first parameter word for ECHO, 0 for NOP, when the
 *    producer is well-behaved), CANCELLED with res ECANCELED for the entry
 *    a cancel tears down, and DONE for other entries during a cancel
 *    (dropping a cancelled event warp gives its victim TB its warp back,
 *    and a TB that had ended meanwhile finishes then: preempt.c
 *    ew_release()); the cqe then holds EDGE_CQE_STATUS(code, seq) and res;
 *  - after every call the harness reaps the completion ring like a user:
 *    each cqe written in the call must still hold the last completion of
 *    its slot, every other cqe must be untouched, the number of
 *    completions equals what the model says it published (cq tail), and
 *    the owner was notified;
 *  - the model's statistics always satisfy submitted == completed + errors
 *    + rejected + cancelled + in flight, and match the oracle's counts;
 *  - the SIMT model's cores hold exactly what their TBs and event warps
 *    hold, and the engine holds exactly one event per thing waiting for
 *    time (the checks of selftests/emul/simt_rig.h, minus those that a
 *    live configuration change legitimately breaks).
 *
 * Every failure prints what broke and abort()s: libFuzzer reports it as a
 * crash and keeps the input.
 */
#ifndef _FUZZ_COMMON_H
#define _FUZZ_COMMON_H

#include <stdio.h>
#include <stdint.h>
#include "model.h"
#include "limits.h"
#include "gpu/preempt.h"

/*
 * Known emul/ bugs the harness steps around unless built with
 * -DFUZZ_STRICT=1 (make FUZZ_STRICT=1): reported, not fixed here (see
 * selftests/fuzz/README).  With FUZZ_STRICT the reproducers in crashes/
 * fail.
 */
#ifndef FUZZ_STRICT
#define FUZZ_STRICT 0
#endif

#define FZ_PAGE		4096U

#define FZ_ASSERT(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "FUZZ ASSERT %s:%d: %s: " fmt "\n",	\
			__FILE__, __LINE__, #cond, ##__VA_ARGS__);	\
		abort();						\
	}								\
} while (0)

/* A cursor over the fuzz input; reads past the end give zeroes. */
struct fz_in {
	const u8 *p;
	size_t n;
};

static inline u8 fz_u8(struct fz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline u16 fz_u16(struct fz_in *in)
{
	u16 v = fz_u8(in);

	return v | (u16)fz_u8(in) << 8;
}

static inline u32 fz_u32(struct fz_in *in)
{
	u32 v = fz_u16(in);

	return v | (u32)fz_u16(in) << 16;
}

static inline u64 fz_u64(struct fz_in *in)
{
	u64 v = fz_u32(in);

	return v | (u64)fz_u32(in) << 32;
}

static inline bool fz_more(const struct fz_in *in)
{
	return in->n != 0;
}

/* Which model call just returned: what it may have written. */
enum fz_step {
	FZ_STEP_POLL,		/* consumes: sq head */
	FZ_STEP_RUN,		/* completes: cqes, cq tail */
	FZ_STEP_CANCEL,		/* both, for one entry; completes others */
	FZ_STEP_FLAGS,		/* writes every ring's flags word */
	FZ_STEP_NONE,		/* writes nothing (advance, set_cfg, ...) */
};

/*
 * One registered entry as its user sees it, and the oracle's view of it.
 * The producer part (tail/reaped/val) is used by well-behaved drivers
 * only; hostile ones store anything into the doorbell.
 */
struct fz_ring {
	bool live;
	u32 id;
	struct edge_kdesc k;
	struct edge_ring_mem mem;
	u8 *sq_shadow;
	u8 *cq_shadow;
	u32 entries;
	u32 mask;

	/* oracle */
	u32 head;		/* model's consumer count, as last seen */
	u32 published;		/* completions published, as last seen */
	u32 *pend;		/* consumed, not completed: at most entries */
	u32 npend;
	bool hostile;		/* user may scribble: skip the res check */
	u32 *val;		/* per slot: first word written (ECHO) */
	/* completions of the current model call, per slot (last wins) */
	u8 *touched;
	u32 *exp_status;
	u32 *exp_res;
	u32 ncompl;		/* completions in the current call */
	u32 nnotes;		/* notifications in the current call */
	u64 collisions;		/* consumed into a slot still in flight */

	/* producer */
	u32 tail;
	u32 reaped;

	/* this registration's counts */
	u64 consumed, done, cancelled;
};

struct fz_ctx {
	struct edge_model *m;
	u32 *db;			/* EDGE_EKT_ENTRIES words, exact size */
	u32 db_shadow[EDGE_EKT_ENTRIES];
	struct fz_ring *by_id[EDGE_EKT_ENTRIES];
	u32 flags;			/* last set_sq_flags */
	enum fz_step cur;		/* the model call under way */
	struct fz_ring *cancelling;	/* the entry FZ_STEP_CANCEL tears down */
	u64 last_now;
	u8 *ki_evs, *tb_evs, *ew_evs;	/* fz_check_simt() scratch */

	/* across registrations */
	u64 consumed, done, cancelled;
	u64 notes;
	u64 steps;			/* model calls checked */
	u32 simt_check_every;		/* after 32 calls, check every Nth */
	u32 run_budget;			/* events per fz_run_until() */
	bool cfg_changed;		/* a live set_cfg happened */
};

/*
 * From LLVMFuzzerInitialize(), with the presets the target uses: the
 * model's large blocks are kept from one input to the next
 * (fuzz_alloc.c), and a model set up in kept memory is checked to be the
 * one edge_model_init() makes in fresh memory, for each preset.
 */
void fz_prepare(const char *const *presets, unsigned int n);

/* After the model and the rings are freed: none of them leaked. */
void fz_input_done(void);

int fz_model_init(struct fz_ctx *c, const struct edge_preset *p);
void fz_model_fini(struct fz_ctx *c);

/* Well-formed kernel descriptor, through edge_validate_register(). */
int fz_kdesc(const struct edge_preset *p, struct edge_kdesc *k, u32 func,
	     u32 prio, u32 grid_x, u32 block_x, u32 regs, u32 smem,
	     u32 psz, u32 entries, u64 cycles, const struct edge_warp_state *ws);

int fz_ring_register(struct fz_ctx *c, struct fz_ring *r,
		     const struct edge_kdesc *k, bool hostile);
/*
 * Free an entry's memory after the model let go of it (cancel, a
 * successful unregister, or fz_model_fini()); a freed ring is zeroed, so
 * freeing it again is harmless.
 */
void fz_ring_free(struct fz_ring *r);

/* Check everything after a model call (see the top of this file). */
void fz_after(struct fz_ctx *c, enum fz_step step, struct fz_ring *cancelled);

/* Model events per run call, as drv/frontend.c's EDGE_STEP_BUDGET. */
#define FZ_RUN_BUDGET	4096

/* Does emul/ have edge_model_run_budget()? */
bool fz_have_run_budget(void);

/*
 * The front end's calls, each followed by fz_after().  fz_run_until()
 * runs at most c->run_budget (default FZ_RUN_BUDGET) events, when emul/
 * can bound them.
 */
u32 fz_poll(struct fz_ctx *c);
u32 fz_run_until(struct fz_ctx *c, u64 until);
void fz_advance(struct fz_ctx *c, u64 now);
void fz_set_sq_flags(struct fz_ctx *c, u32 flags);
u32 fz_cancel(struct fz_ctx *c, struct fz_ring *r);
int fz_unregister(struct fz_ctx *c, struct fz_ring *r);
/* One front-end step in virtual time: poll, run what is next. */
u32 fz_step(struct fz_ctx *c);

/* A well-behaved producer: write up to @n entries (room allowing), ring. */
u32 fz_produce(struct fz_ctx *c, struct fz_ring *r, u32 n, u32 seed);

/*
 * Run in virtual time until nothing is left to do or @budget engine
 * events ran.  Returns true when the model went quiet with work still in
 * flight or rung: the engine is empty, so it never will run (a hang).
 */
bool fz_drain(struct fz_ctx *c, u64 budget);

/* Full SIMT consistency check (cores, TBs, event warps, engine). */
void fz_check_simt(struct fz_ctx *c);

/* Model statistics == oracle counts; in flight included. */
void fz_check_accounting(struct fz_ctx *c);

#endif /* _FUZZ_COMMON_H */

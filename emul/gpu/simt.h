/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SIMT-core model: kernel queues (KMU/KDU), the SIMT-core scheduler,
 * thread blocks and warps on cores, and the three ways of getting an event
 * warp onto a full GPU (EDGE Section IV): draining, static reservation and
 * warp-level preemption.
 *
 * Time is model nanoseconds on the shared engine; the model thinks in core
 * cycles and converts at the boundary.
 */
#ifndef _EDGE_SIMT_H
#define _EDGE_SIMT_H

#include "edge_compat.h"
#include "gpu/engine.h"
#include "gpu/preset.h"
#include "rng.h"
#include "stats.h"
#include "validate.h"
#include "policy/policy.h"
#include "gpu/quota.h"

#define EDGE_KMU_PENDING	1024	/* kernels waiting for the KDU */
#define EDGE_KDU_RUNNING	32	/* kernels the KDU dispatches from */
#define EDGE_EWARP_PENDING	1024	/* warp-level events waiting */
#define EDGE_EWARP_PER_CORE	4	/* pending event warp table (Fig. 9) */
#define EDGE_DEFERRED		8	/* launches a pass runs in place */
#define EDGE_SIMT_TAGS		64	/* per-kernel statistics slots */
#define EDGE_GAVE_LOG		16	/* res_gen's last steps (a power of 2) */
#define EDGE_GAVE_ALL		(~0U)	/* ... a step that could free any core */

enum edge_sched {
	EDGE_SCHED_DRAIN,	/* wait for a TB to finish */
	EDGE_SCHED_RESERVE,	/* events only run on reserved cores */
	EDGE_SCHED_PREEMPT,	/* warp-level preemption, else drain */
	EDGE_SCHED_NR,
};

enum edge_victim {
	EDGE_VICTIM_OLDEST,
	EDGE_VICTIM_NEWEST,
	EDGE_VICTIM_BEST,	/* first needing no flush, else fewest loads */
	EDGE_VICTIM_NR,
};

/* The four flushing optimisations (EDGE Section IV-D). */
#define EDGE_FLUSH_BOOST	0x1	/* victim priority boost */
#define EDGE_FLUSH_IBUF		0x2	/* i-buffer flush */
#define EDGE_FLUSH_LOADS	0x4	/* load drop and replay */
#define EDGE_FLUSH_BARRIER	0x8	/* barrier skipping */
#define EDGE_FLUSH_ALL		0xf
#define EDGE_FLUSH_NR		4

/* A name a knob takes, and one line on it (gpu/strategy.c). */
struct edge_name {
	const char *name;
	const char *help;
};

/* The strategies' and optimisations' names: the one list of each. */
extern const struct edge_name edge_sched_table[EDGE_SCHED_NR];
extern const struct edge_name edge_victim_table[EDGE_VICTIM_NR];
extern const struct edge_name edge_flush_table[EDGE_FLUSH_NR];
int edge_name_find(const struct edge_name *t, u32 n, const char *name);
const char *edge_name_of(const struct edge_name *t, u32 n, u32 v);
int edge_flush_parse(const char *s, u32 *flush, const char **bad);
void edge_flush_format(u32 flush, char *buf, size_t len);

struct edge_simt_cfg {
	u32 sched;		/* enum edge_sched */
	u32 victim;		/* enum edge_victim */
	u32 flush;		/* EDGE_FLUSH_* */
	u32 reserve_pct;	/* cores reserved for events (RESERVE) */
	u32 dispatch_cycles;	/* EKT/KMU to core, per kernel (EDGE: 300) */
	u32 sched_wait_cycles;	/* issue wait of the youngest warp (GTO) */
	u32 ctx_bytes_per_cycle; /* register save/restore bandwidth */
	u32 skip_event_exec;	/* Fig. 12: an event ends once scheduled */
	u32 tb_policy;		/* enum edge_tb_policy_id */
	u64 seed;
};

/* Per-kernel instance, from launch to completion. */
struct edge_kinst {
	bool used;
	bool ewarp;		/* a single-warp event kernel */
	u32 idx;
	u32 gen;
	struct edge_kdesc k;	/* never written after its launch */
	u64 k_key;		/* whose copy k is (launch_as()), 0: unknown */
	u64 cookie;		/* the launcher's handle */
	u32 tag;		/* statistics slot */
	u64 arrival;		/* ns */
	u64 ready;		/* ns, after the dispatch latency */
	u64 first_start;	/* ns, first TB/warp running; 0 until then */
	u64 tb_ns;		/* its TBs' time resident on cores, summed */
	u64 iso_ns;		/* isolated runtime of its work (for slowdown) */
	u64 tbs_dispatched;
	u64 tbs_done;
	u32 tbs_running;
	u64 order;		/* launch order: FIFO among equal priority */
	u64 rank;		/* queue scheduler's order within a priority */
	bool queued;		/* in the scheduler's queue */
	bool counted;		/* a TB kernel counted in the KMU/KDU */
	bool placed;		/* an event warp holding a core slot */
	bool waited;		/* found no core at first (drained) */
	bool started;		/* its first TB or warp was placed */
	u32 nr_susp;		/* TBs preempted off their core, to resume */
	u32 susp;		/* ... the first of them (edge_simt.susp) */
	u64 ew_epoch;		/* s->ew_epoch when queued (event warps) */
	u64 nofit_gen;		/* s->res_gen + 1 when no core fit its TB */
	/* Its compute quota (gpu/quota.c): cores it may use, and how many */
	u32 qfirst;		/* cores qfirst .. qfirst + qlen - 1 (wrapping) */
	u32 qlen;
	u32 quota;		/* most cores it holds TBs on at once */
	u32 cores_used;		/* cores it holds TBs on now */
	struct edge_kinst *next;	/* queue link */
};

/* Resident TBs of one kernel on one core, from its first to its last. */
struct edge_kcount {
	struct edge_kinst *ki;
	u32 n;
};

/* A TB preempted off its core: the work it has left. */
struct edge_susp {
	u64 cycles;		/* isolated cycles still to run */
	u32 next;		/* the kernel's next one, or the free list */
};

struct edge_tb {
	bool used;
	bool done_pending;	/* ended while a warp was lent out */
	u32 idx;
	u32 gen;		/* bumped per queued completion: stale check */
	u32 gen_id;		/* bumped per allocation: identity */
	u32 core;
	u32 slot;		/* its index in its core's tb[] */
	struct edge_kinst *ki;
	u32 kgen;
	u64 start;		/* ns */
	u64 end;		/* ns, completion (moves when preempted) */
	/*
	 * ns: where start would be had the TB always run at its current
	 * rate; progress is (now - prog_start) / (end - prog_start).  The
	 * start until gpu/retime.c changes its rate.
	 */
	u64 prog_start;
	u32 occ;		/* core occupancy (permille) its rate is for */
	bool retimed;		/* its completion is being moved */
	u64 iso_cycles;		/* isolated duration */
	u32 warps;
	u32 preempted;		/* warps currently lent to event warps */
	bool suspending;	/* preempted: flushing, then saving its context */
	u64 extra_cycles;	/* restoring a preempted TB's context first */
	u64 launch_order;	/* age on its core: smaller is older */
};

enum edge_pstate {
	EDGE_PS_IDLE,
	EDGE_PS_SELECT_WARP,
	EDGE_PS_FLUSH_PIPELINE,
	EDGE_PS_SAVE_HW_CTX,
	EDGE_PS_LAUNCH_IWARP,
	EDGE_PS_IWARP_RUNNING,
	EDGE_PS_IWARP_COMPLETING,
	EDGE_PS_RESTORE_HW_CTX,
};

/* A slot of a core's pending event warp table. */
struct edge_ewarp {
	u32 state;		/* enum edge_pstate */
	u32 gen;
	struct edge_kinst *ki;
	u32 kgen;
	struct edge_tb *victim;	/* NULL: ran on free resources */
	u32 victim_gen;
	bool orphan;		/* its victim's TB was cancelled */
	bool saved;		/* registers saved (no free ones) */
	u32 regs;		/* registers it holds */
	u32 smem;		/* shared memory it holds (free path) */
	u64 flush_cycles;
	u64 run_cycles;
	u64 ctx_cycles;
	u64 replay_cycles;
};

struct edge_core {
	u32 threads;		/* in use */
	u32 warps;
	u32 tbs;
	u32 regs;
	u32 smem;
	bool reserved;		/* for event kernels (RESERVE) */
	bool retime;		/* occupancy changed: re-time its TBs */
	u32 nr_tbs;
	struct edge_tb **tb;	/* resident TBs, tb_slots_per_core of them */
	u32 nr_kc;
	struct edge_kcount *kc;	/* resident TBs by kernel, as many slots */
	struct edge_ewarp ew[EDGE_EWARP_PER_CORE];
};

/* Why a victim could not be preempted at once (Fig. 11b). */
enum edge_stall {
	EDGE_STALL_PIPELINE,
	EDGE_STALL_SCOREBOARD,
	EDGE_STALL_LOAD,
	EDGE_STALL_ICACHE,
	EDGE_STALL_BARRIER,
	EDGE_STALL_MEMBAR,
	EDGE_STALL_NR,
};

struct edge_tag_stats {
	u64 launched;
	u64 done;
	u64 slowdown_sum_milli;		/* sum of (runtime / isolated) * 1000 */
	u64 progress_sum_milli;		/* sum of (isolated / runtime) * 1000 */
};

struct edge_simt_stats {
	struct edge_lat sched;		/* event scheduling latency, cycles */
	struct edge_lat preempt;	/* flush + save latency, cycles */
	u64 stall_cycles[EDGE_STALL_NR];
	u64 stall_count[EDGE_STALL_NR];
	u64 preemptions;
	u64 ewarps_free;		/* started on free resources */
	u64 ewarps_waited;		/* had to wait (drain) */
	u64 tbs_dispatched;
	u64 tbs_done;
	u64 kernels_done;
	u64 tb_preemptions;		/* TBs preempted off their core */
	u64 tb_ctx_cycles;		/* ... their flush, save and restore */
	struct edge_tag_stats tag[EDGE_SIMT_TAGS];
};

/*
 * One statistics tag's st.sched and st.preempt samples, where a caller
 * asks for them (edge_simt_set_tag_lat()): edge-sim's per-stream
 * columns.  Too big for every tag of every device.
 */
struct edge_tag_lat {
	struct edge_lat sched;
	struct edge_lat preempt;
};

typedef void (*edge_simt_done_fn)(void *ctx, u64 cookie, u32 code);

struct edge_simt {
	const struct edge_preset *p;
	struct edge_engine *eng;
	struct edge_simt_cfg cfg;
	struct edge_rng rng;
	edge_simt_done_fn done;
	void *ctx;

	struct edge_core *cores;
	struct edge_tb *tbs;
	u32 nr_tbs;
	struct edge_tb **tb_ptrs;
	u32 *free_tbs;		/* indices of free TBs, a stack */
	u32 *unsettled;		/* TBs started this pass, end not yet set */
	u32 nr_unsettled;
	u32 nr_retime;		/* cores with retime set */
	u32 nr_free_tbs;
	struct edge_kinst *ki;
	u32 nr_ki;
	/*
	 * ki[0 .. ki_init) have been handed out at least once; the rest
	 * are not even zeroed yet.  A run of a few kernels used to zero
	 * every record first (1.2 MB on rtx2080ti): free_ki holds the
	 * freed ones, LIFO, and the next fresh one comes after them, in
	 * the order a list of all of them built up front gave.
	 */
	u32 ki_init;
	struct edge_kinst *free_ki;
	u32 nr_free_ki;
	u32 kmu_len;		/* launched multi-warp kernels not in the KDU */
	u32 kdu_len;
	u32 ewarp_len;		/* event warps waiting for a core */
	/*
	 * The scheduling pass's shortcuts past waiting event warps: slots
	 * of the pending event warp tables in use; queued event warps not
	 * yet counted as waited, and the epoch that marks all queued before
	 * it as waited at once; lower bounds of what queued ones need.
	 */
	u32 ew_busy;
	u32 ew_slots;		/* of them in all: cores * EDGE_EWARP_PER_CORE */
	u32 ew_unwaited;
	u64 ew_epoch;
	u32 ew_min_regs;
	u32 ew_min_smem;
	/*
	 * Bumped whenever a core gives resources back (or reservation
	 * changes): a TB that fit on no core still fits on none until then.
	 * gave_log[g % EDGE_GAVE_LOG] is the core of step g (or
	 * EDGE_GAVE_ALL): after a few steps, only those cores can fit it.
	 */
	u64 res_gen;
	u32 gave_log[EDGE_GAVE_LOG];
	u32 cores_warp_full;	/* cores without room for one more warp */
	/*
	 * Each core's free threads, none when reserved, in one array: the
	 * TB search's first test, without a cache line of each core.
	 */
	u32 *core_free;
	/*
	 * A bit per core (core_words words) that may have room for a TB:
	 * free threads for a warp and a free TB slot.  A core without it
	 * fits no TB, so the TB search skips it 64 at a time: beside a GPU
	 * full of 1024-thread blocks, nineteen of twenty cores it tested
	 * were full, and the tests were most of C-Laius's and MGB's time.
	 */
	u64 *core_room;
	u64 *search;		/* core_room, less what a search may skip */
	/*
	 * Per kernel slot (edge_kinst.idx), core_words words: a bit for
	 * each core it holds TBs on (edge_simt_kcount_add()).
	 */
	u64 *ki_cores;
	u32 core_words;
	struct edge_kinst *queue;	/* every ready, undispatched kernel */
	struct edge_kinst *queue_tail;
	u64 next_order;
	u32 rr_core;		/* round-robin start for TB placement */
	u32 rr_ew;		/* ... and for event warps */
	const struct edge_tb_policy *tbp;	/* the thread-block policy */
	void *tbp_priv;		/* ... and its state */
	struct edge_kcount *kc;	/* the cores' edge_kcount slots */
	struct edge_susp *susp;	/* preempted TBs' work, nr_tbs of them */
	const struct edge_kinst *reporting;	/* in the done callback */
	u32 free_susp;		/* free list of susp, EDGE_SUSP_NONE at end */
	u64 bw_resident;	/* resident TBs' memory demand, MB/s (membw.c) */
	struct edge_app *apps;	/* applications sharing it (gpu/quota.h) */
	/*
	 * Launches of event warps a pass held back to run in place at its
	 * end (gpu/preempt.c, edge_preempt_run_deferred()), with the queue
	 * order each would have had.
	 */
	bool tail_pass;		/* the next pass is its handler's last act */
	bool defer_launch;	/* this pass holds launches back */
	bool in_deferred;	/* running them: passes inside hold none */
	u32 nr_deferred;
	u32 deferred[EDGE_DEFERRED];
	u64 deferred_order[EDGE_DEFERRED];
	struct edge_simt_stats st;
	/* The caller's per-tag latencies, tags below nr_tag_lat; or NULL. */
	struct edge_tag_lat *tag_lat;
	u32 nr_tag_lat;
};

/*
 * Also count each event warp's scheduling and preemption latency (the
 * samples of st.sched and st.preempt) in @t[its tag], for tags below @n;
 * @t stays the caller's.  NULL: none (edge.ko's case).
 */
static inline void edge_simt_set_tag_lat(struct edge_simt *s,
					 struct edge_tag_lat *t, u32 n)
{
	s->tag_lat = t;
	s->nr_tag_lat = t ? n : 0;
}

#define EDGE_SUSP_NONE		0xffffffffU

int edge_simt_init(struct edge_simt *s, const struct edge_preset *p,
		   struct edge_engine *eng, const struct edge_simt_cfg *cfg,
		   edge_simt_done_fn done, void *ctx);
void edge_simt_fini(struct edge_simt *s);
void edge_simt_default_cfg(struct edge_simt_cfg *cfg);
int edge_simt_set_cfg(struct edge_simt *s, const struct edge_simt_cfg *cfg);
bool edge_simt_can_launch(const struct edge_simt *s);
int edge_simt_launch(struct edge_simt *s, const struct edge_kdesc *k,
		     u64 cookie, u32 tag);
int edge_simt_launch_deferred(struct edge_simt *s, const struct edge_kdesc *k,
			      u64 cookie, u32 tag);
int edge_simt_launch_ranked(struct edge_simt *s, const struct edge_kdesc *k,
			    u64 cookie, u32 tag, u64 rank);
void edge_simt_rerank(struct edge_simt *s,
		      bool (*rank)(u64 cookie, u64 *out, void *arg), void *arg);
void edge_simt_schedule(struct edge_simt *s);

/*
 * A scheduling pass that is the last act of an engine event's handler
 * (or of edge_model_schedule_run()): nothing is queued or changed after
 * it before the next event is popped, so the launches of event warps it
 * places on free resources may run in place at its end when they would
 * be the next events popped (edge_preempt_run_deferred()).  Inline, and
 * no call at all with nothing queued (an idle GPU's every completion)
 * unless a core's TBs are to be re-timed (gpu/retime.c).
 */
static inline void edge_simt_schedule_tail(struct edge_simt *s)
{
	if (!s->queue && !s->nr_retime)
		return;
	s->tail_pass = true;
	edge_simt_schedule(s);
}

/* Inline: an event warp's every step converts its length. */
static inline u64 edge_simt_cyc2ns(const struct edge_simt *s, u64 cycles)
{
	/* Split: a stretched TB (~2^49 cycles) times 10^6 overflows u64. */
	u64 q = edge_div64(cycles, s->p->clock_khz);

	/* Past 2^64 ns (585 years): saturate, never wrap to a short time. */
	if (q >= 18446744073709ULL)	/* 2^64 / 10^6 */
		return ~0ULL;
	return q * 1000000ULL +
	       edge_div64((cycles - q * s->p->clock_khz) * 1000000ULL,
			  s->p->clock_khz);
}

/* An event warp: one TB of at most a warp (EDGE's warp-level event). */
static inline bool edge_simt_is_ewarp(const struct edge_simt *s,
				      const struct edge_kdesc *k)
{
	return k->num_tbs == 1 && k->block_threads <= s->p->warp_size;
}

void edge_simt_queue_insert_walk(struct edge_simt *s, struct edge_kinst *ki);
u64 edge_simt_iso_ns(const struct edge_simt *s, const struct edge_kdesc *k);

/*
 * Into the dispatcher's queue, in its order (gpu/dispatch.c); into an
 * empty one without a call: an idle GPU's every event.
 */
static inline void edge_simt_queue_insert(struct edge_simt *s,
					  struct edge_kinst *ki)
{
	if (s->queue) {
		edge_simt_queue_insert_walk(s, ki);
		return;
	}
	ki->next = NULL;
	s->queue = ki;
	s->queue_tail = ki;
}

/* A kernel enters the queue. */
static inline void edge_simt_queue_in(struct edge_simt *s,
				      struct edge_kinst *ki)
{
	ki->queued = true;
	edge_simt_queue_insert(s, ki);
}

/* An event warp entered the queue: not waited yet. */
static inline void edge_simt_ew_queued(struct edge_simt *s,
				       struct edge_kinst *ki)
{
	if (!ki->ewarp)
		return;
	ki->ew_epoch = s->ew_epoch;
	s->ew_unwaited++;
	if (ki->k.regs_per_thread < s->ew_min_regs)
		s->ew_min_regs = ki->k.regs_per_thread;
	if (ki->k.smem_per_block < s->ew_min_smem)
		s->ew_min_smem = ki->k.smem_per_block;
}

/* The kernel record the next launch takes, or NULL when none is free. */
static inline struct edge_kinst *edge_simt_next_ki(const struct edge_simt *s)
{
	if (s->free_ki)
		return s->free_ki;
	return s->ki_init < s->nr_ki ? &s->ki[s->ki_init] : NULL;
}

/*
 * How many kernels of a kind (@ew: event warps) launches would take now,
 * leaving @reserve of the KMU and KDU's room free: the queue's room and
 * a free kernel record each.  edge_simt_launch_as() refuses (-EBUSY) when
 * this is 0; a caller that launches several at once asks it first.
 */
static inline u32 edge_simt_launch_room(const struct edge_simt *s, bool ew,
					u32 reserve)
{
	u32 room = ew ? EDGE_EWARP_PENDING - s->ewarp_len :
		   EDGE_KMU_PENDING + EDGE_KDU_RUNNING - s->kmu_len - s->kdu_len;

	room = room > reserve ? room - reserve : 0;
	return room < s->nr_free_ki ? room : s->nr_free_ki;
}

/*
 * edge_simt_launch_ranked() for a caller that knows what it launches:
 * @tag below EDGE_SIMT_TAGS, and @ew whether @k is an event warp (one
 * TB of at most a warp), as the model's entries know theirs.  @key names
 * @k's contents: non-zero, and never given with other contents (a
 * registration's, edge_ekt_entry.k_key); a kernel slot that holds them
 * already is not copied to again.  The free list is LIFO, so one entry's
 * stream of events reuses one slot and copies its 176-byte descriptor
 * once.  0: copy.  Inline: the model's every event is one, and the call
 * cost as much as a fifth of it.
 */
static inline int edge_simt_launch_as(struct edge_simt *s,
				      const struct edge_kdesc *k, u64 key,
				      u64 cookie, u32 tag, u64 rank, bool ew)
{
	struct edge_kinst *ki = s->free_ki;
	u64 now = s->eng->now;
	u32 cores = s->p->num_cores;

	/* edge_simt_launch_room() > 0, as tests (cheaper than its count). */
	if ((ew && s->ewarp_len >= EDGE_EWARP_PENDING) ||
	    (!ew && s->kmu_len + s->kdu_len >=
	     EDGE_KMU_PENDING + EDGE_KDU_RUNNING))
		return -EBUSY;
	/*
	 * edge_simt_next_ki()'s record, the freed one first: a record is
	 * freed as each event ends, so that is the hot path.
	 */
	if (ki) {
		s->free_ki = ki->next;
	} else {
		if (s->ki_init >= s->nr_ki)
			return -EBUSY;
		ki = &s->ki[s->ki_init];
		memset(ki, 0, sizeof(*ki));
		ki->idx = s->ki_init++;
	}
	s->nr_free_ki--;
	ki->used = true;
	ki->ewarp = ew;
	if (!key || ki->k_key != key) {
		ki->k = *k;
		ki->k_key = key;
	}
	ki->cookie = cookie;
	ki->tag = tag;
	ki->arrival = now;
	ki->first_start = 0;
	ki->tb_ns = 0;
	ki->tbs_dispatched = 0;
	ki->tbs_done = 0;
	ki->tbs_running = 0;
	ki->order = s->next_order++;
	ki->rank = rank;
	ki->next = NULL;
	ki->iso_ns = ew ? 0 : edge_simt_iso_ns(s, k);
	ki->queued = false;
	ki->placed = false;
	ki->waited = false;
	ki->nofit_gen = 0;
	ki->started = false;
	ki->nr_susp = 0;
	ki->susp = EDGE_SUSP_NONE;
	ki->qfirst = 0;
	ki->qlen = cores;
	ki->quota = cores;
	ki->cores_used = 0;
	ki->counted = !ew;
	if (ew)
		s->ewarp_len++;
	else if (s->kdu_len < EDGE_KDU_RUNNING)
		s->kdu_len++;
	else
		s->kmu_len++;
	s->st.tag[ki->tag].launched++;
	if (!ew && s->tbp->kernel_launch)
		s->tbp->kernel_launch(s, ki);
	/* No conversion for no latency (the model's default). */
	ki->ready = s->cfg.dispatch_cycles ?
		    now + edge_simt_cyc2ns(s, s->cfg.dispatch_cycles) : now;
	if (ki->ready > now) {
		int ret = edge_engine_push(s->eng, ki->ready, EDGE_EV_READY,
					   ki->idx, 0, ki->gen);

		EDGE_ASSERT(!ret);
	} else {
		edge_simt_queue_in(s, ki);
		edge_simt_ew_queued(s, ki);
	}
	return 0;
}

/*
 * Rounds up: cyc2ns() rounds down, so below 1 GHz a cycle count survives
 * the round trip exactly (a 2-cycle step reads back as 2, not 1).
 */
static inline u64 edge_simt_ns2cyc(const struct edge_simt *s, u64 ns)
{
	u64 q = edge_div64(ns, 1000000);

	/*
	 * A time past 2^64 cycles saturates, as cyc2ns() does.  Below 2^43
	 * ms no clock under 2 GHz gets there: no division on the way.
	 */
	if (q >= (1ULL << 43) &&
	    q >= edge_div64(~0ULL, s->p->clock_khz) - 1)
		return ~0ULL;
	return q * s->p->clock_khz +
	       edge_div64((ns - q * 1000000) * s->p->clock_khz + 999999,
			  1000000);
}

/* gpu/preempt.c's, declared here for edge_simt_handle() below. */
void edge_preempt_step(struct edge_simt *s, const struct edge_ev *ev);
bool edge_simt_handle_other(struct edge_simt *s, const struct edge_ev *ev);

/*
 * Run one of the SIMT model's engine events; false for an event that
 * is not its own.  Inline for an event warp's step (gpu/preempt.c), an
 * idle GPU's every event, which then costs one call, not two.
 */
static inline bool edge_simt_handle(struct edge_simt *s,
				    const struct edge_ev *ev)
{
	if (ev->kind == EDGE_EV_EWARP) {
		edge_preempt_step(s, ev);
		return true;
	}
	return edge_simt_handle_other(s, ev);
}

u32 edge_simt_cancel(struct edge_simt *s,
		     bool (*match)(u64 cookie, void *arg), void *arg);
u32 edge_simt_engine_room(const struct edge_preset *p);
u32 edge_simt_tbs_per_gpu(const struct edge_simt *s, const struct edge_kdesc *k);
u64 edge_simt_antt_milli(const struct edge_simt *s);
u64 edge_simt_stp_milli(const struct edge_simt *s);
bool edge_simt_idle(const struct edge_simt *s);
u64 edge_simt_done_started(const struct edge_simt *s);
u64 edge_simt_done_tb_ns(const struct edge_simt *s);
void edge_simt_tb_reschedule(struct edge_simt *s, struct edge_tb *tb);
u32 edge_simt_resident(const struct edge_simt *s, const struct edge_kinst *ki,
		       u32 core);
void edge_simt_load(const struct edge_simt *s, u32 *warps, u32 *tbs);
void edge_simt_requeue(struct edge_simt *s);
bool edge_simt_queue_before(const struct edge_simt *s,
			    const struct edge_kinst *a,
			    const struct edge_kinst *b);
int edge_simt_preempt_tb(struct edge_simt *s, struct edge_tb *tb);
u32 edge_simt_make_room(struct edge_simt *s, const struct edge_kinst *ki,
			u32 max, u32 left_pct);
u32 edge_simt_preempt_for_head(struct edge_simt *s, u32 left_pct);

#endif /* _EDGE_SIMT_H */

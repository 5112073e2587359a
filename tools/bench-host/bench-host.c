// SPDX-License-Identifier: GPL-2.0
/*
 * bench-host: the front end's fast path on the host, deterministically.
 *
 * It links emul/ as edge.ko does (-O2, same sources) and drives it as the
 * device's kthread does in virtual time (drv/frontend.c: frontend_step()):
 * a producer writes parameter entries into an entry's SQ and stores its
 * tail in the doorbell page; each step is edge_model_consume(), the
 * scheduling pass, then edge_model_run_budget() to the next model
 * instant, whose completions write the CQ; the producer reaps them and
 * rings again to keep @inflight events in flight.
 *
 *   bench-host model [--preset P] [--entries E] [--inflight D]
 *                    [--events N] [--busy]
 *	N events after a warm-up, each front-end step inside bench_step():
 *	run it under valgrind --tool=callgrind --toggle-collect=bench_step
 *	and divide the instruction count by N (bench-host.sh does).
 *   bench-host time [--preset P] [--events N] [--busy] [--cpu C]
 *	the same step on the wall clock, pinned to CPU C: N events after a
 *	warm-up, each step's edge_model_consume() (what a polled dispatch
 *	waits for: sq.head is stored in it) and its scheduling pass and run
 *	timed apart; p50 ns an event, less the clock reads' own cost.  Built
 *	static for the guest too (make bench runs it there under TCG).
 *   bench-host twothread --depth D [--ms T]
 *	the same path with the producer and the front end on two threads,
 *	against a raw SPSC ring at the same depth: events/s of each.
 *   bench-host cancel [--preset P]
 *	cancel an entry whose kernel fills the GPU: wall-clock ms.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "limits.h"
#include "validate.h"

#define PAGE		4096U
#define PSZ		8U
#define STEP_BUDGET	4096	/* drv/frontend.c's EDGE_STEP_BUDGET */

static void die(const char *what)
{
	fprintf(stderr, "bench-host: %s\n", what);
	exit(1);
}

/* One registered entry as its user sees it. */
struct q {
	struct edge_ring_mem mem;
	u32 entries;
	u32 id;
	u32 tail;	/* producer count */
	u32 reaped;	/* completions read */
};

static u32 *db_page;

/* The page's doorbell summary, on the line after the 64 doorbell words. */
static u64 *db_summary(void)
{
	return (u64 *)((u8 *)db_page + EDGE_EKT_ENTRIES * sizeof(u32));
}

static u32 *word(void *base, u32 off)
{
	return (u32 *)((u8 *)base + off);
}

static void q_alloc(struct q *q, u32 entries)
{
	memset(q, 0, sizeof(*q));
	q->entries = entries;
	edge_ring_layout(entries, PSZ, PAGE, &q->mem.layout);
	q->mem.doorbells = db_page;
	q->mem.summary = db_summary();
	q->mem.sq = aligned_alloc(PAGE, q->mem.layout.sq_size);
	q->mem.cq = aligned_alloc(PAGE, q->mem.layout.cq_size);
	if (!q->mem.sq || !q->mem.cq)
		die("out of memory");
	memset(q->mem.sq, 0, q->mem.layout.sq_size);
	memset(q->mem.cq, 0, q->mem.layout.cq_size);
}

static void q_register(struct edge_model *m, struct q *q,
		       const struct edge_register *r)
{
	struct edge_kdesc k;

	if (edge_validate_register(m->preset, r, &k))
		die("bad registration");
	if (edge_model_register(m, &k, &q->mem, q, &q->id))
		die("register failed");
}

/* Write and ring @n events (the producer's side of libedge). */
static void q_ring(struct q *q, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u64 *p = (u64 *)((u8 *)q->mem.sq + q->mem.layout.sq_entries +
				 (size_t)((q->tail + i) & (q->entries - 1)) * PSZ);
		*p = q->tail + i;
	}
	q->tail += n;
	__atomic_store_n(&db_page[q->id], q->tail, __ATOMIC_RELEASE);
	/* libedge's edge_queue_submit(): the summary bit after the tail. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(db_summary(), __ATOMIC_RELAXED) & BIT_ULL(q->id)))
		__atomic_fetch_or(db_summary(), BIT_ULL(q->id),
				  __ATOMIC_RELEASE);
}

/* Reap the completions published so far; returns how many. */
static u32 q_reap(struct q *q)
{
	u32 t = __atomic_load_n(word(q->mem.cq, q->mem.layout.cq_tail),
				__ATOMIC_ACQUIRE);
	u32 n = t - q->reaped;
	const struct edge_cqe *cqes =
		(const struct edge_cqe *)((u8 *)q->mem.cq + q->mem.layout.cq_cqes);
	u32 i;

	for (i = 0; i < n; i++) {
		u32 st = __atomic_load_n(&cqes[(q->reaped + i) &
					       (q->entries - 1)].status,
					 __ATOMIC_ACQUIRE);

		if ((st & 0xff) != EDGE_CQE_DONE)
			die("an event did not complete DONE");
	}
	q->reaped = t;
	__atomic_store_n(word(q->mem.cq, q->mem.layout.cq_head), t,
			 __ATOMIC_RELEASE);
	return n;
}

/*
 * Consume and place, without running the engine: virtual time would jump
 * to the next event however far it is (a background TB's end).
 */
static void place(struct edge_model *m)
{
	if (edge_model_consume(m))
		edge_model_schedule(m);
}

/*
 * frontend_step() in virtual time.  Always inlined: a separate function
 * would be folded with bench_step() (identical code), and the warm-up
 * would be counted too.
 */
static inline __attribute__((always_inline)) u32 step(struct edge_model *m)
{
	u32 work = edge_model_consume(m);

	if (work)
		return work + edge_model_schedule_run(m, true, STEP_BUDGET);
	return edge_model_run_next(m, STEP_BUDGET);
}

/*
 * A single-warp event kernel (EDGE_FN_NOP), above the background; @rpw
 * requests an event warp (batched when above 1, uapi VER5).
 */
static void event_reg(struct edge_register *r, u32 entries, u32 rpw)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->func = EDGE_FN_NOP;
	r->priority = 1;
	r->grid_x = r->grid_y = r->grid_z = 1;
	r->block_x = 32;
	r->block_y = r->block_z = 1;
	r->regs_per_thread = 16;
	r->param_size = PSZ;
	r->ring_entries = entries;
	r->warp_cycles = 1000;
	if (rpw > 1) {
		r->flags = EDGE_REGISTER_WARP_BATCH;
		r->requests_per_warp = rpw;
	}
}

/*
 * A kernel of TBs that fills every core (threads and registers) and runs
 * far longer than the measurement: every event preempts one of its warps.
 */
static void background_reg(struct edge_register *r, u32 grid_x, u32 tb_threads,
			   u32 regs, u64 cycles)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->func = EDGE_FN_NOP;
	r->priority = 0;
	r->grid_x = grid_x;
	r->grid_y = r->grid_z = 1;
	r->block_x = tb_threads;
	r->block_y = r->block_z = 1;
	r->regs_per_thread = regs;
	r->param_size = PSZ;
	r->ring_entries = 2;
	r->warp_cycles = cycles;
}

struct opts {
	const char *preset;
	u32 entries;
	u32 inflight;
	u32 events;
	bool busy;
	u32 ms;
	int cpu;
	u32 rpw;	/* requests per event warp of qs[0]; 1: unbatched */
};

struct rig {
	struct edge_model m;
	struct q *qs;		/* qs[0] carries the events */
	struct q bg;
	u32 done;		/* events reaped */
	u32 rung;
};

static u32 pow2_at_least(u32 v)
{
	u32 p = 16;

	while (p < v)
		p <<= 1;
	return p;
}

static void rig_init(struct rig *g, const struct opts *o)
{
	const struct edge_preset *p = edge_preset_find(o->preset);
	struct edge_register r;
	u32 i;

	if (!p)
		die("unknown preset");
	memset(g, 0, sizeof(*g));
	db_page = aligned_alloc(PAGE, PAGE);
	if (!db_page)
		die("out of memory");
	memset(db_page, 0, PAGE);
	if (edge_model_init(&g->m, p, NULL))
		die("model init failed");
	if (o->busy) {
		/* 256-thread TBs of 32 registers a thread: threads and
		 * registers of every core run out together. */
		q_alloc(&g->bg, 2);
		background_reg(&r, 1U << 24, 256, 32, 1ULL << 36);
		q_register(&g->m, &g->bg, &r);
		q_ring(&g->bg, 1);
		place(&g->m);
	}
	g->qs = calloc(o->entries, sizeof(*g->qs));
	if (!g->qs)
		die("out of memory");
	for (i = 0; i < o->entries; i++) {
		u32 n = i ? 16 : pow2_at_least(o->inflight);

		q_alloc(&g->qs[i], n);
		event_reg(&r, n, i ? 1 : o->rpw);
		q_register(&g->m, &g->qs[i], &r);
	}
}

/*
 * The measured front-end step: callgrind collects only inside this
 * function (--toggle-collect=bench_step), so the count is the module's
 * path alone; the producer's writes and reaping are user space's.  The
 * warm-up calls step() instead, and is not counted.
 */
noinline u32 bench_step(struct edge_model *m);
noinline u32 bench_step(struct edge_model *m)
{
	return step(m);
}

/* Run until @target more events have completed, @depth in flight. */
static void rig_run(struct rig *g, u32 depth, u32 target, bool measured)
{
	struct q *q = &g->qs[0];
	u32 goal = g->done + target;

	while (g->done < goal) {
		u32 want = g->done + depth;

		if (g->rung < want)
			q_ring(q, want - g->rung), g->rung = want;
		if (measured)
			bench_step(&g->m);
		else
			step(&g->m);
		g->done += q_reap(q);
	}
}

static int cmd_model(const struct opts *o)
{
	struct rig g;
	u32 warm = o->inflight * 2 > 1024 ? o->inflight * 2 : 1024;
	u64 busy_before;

	rig_init(&g, o);
	rig_run(&g, o->inflight, warm, false);
	busy_before = g.m.simt.st.preemptions;
	rig_run(&g, o->inflight, o->events, true);
	/* Every event preempted (busy), or none did (idle). */
	printf("events=%u preemptions=%llu ewarps_free=%llu\n", o->events,
	       (unsigned long long)(g.m.simt.st.preemptions - busy_before),
	       (unsigned long long)g.m.simt.st.ewarps_free);
	return 0;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmd_cancel(const struct opts *o)
{
	const struct edge_preset *p = edge_preset_find(o->preset);
	struct edge_register r;
	struct rig g;
	struct opts oo = *o;
	u64 t0, t1;
	u32 n, tbs;

	if (!p)
		die("unknown preset");
	oo.entries = 1;
	oo.inflight = 1;
	oo.busy = false;
	rig_init(&g, &oo);
	/* Two-warp TBs: the TB slots run out first; twice the GPU's worth. */
	tbs = p->num_cores * p->tb_slots_per_core;
	q_alloc(&g.bg, 2);
	background_reg(&r, 2 * tbs, 2 * p->warp_size, 16, 1ULL << 36);
	q_register(&g.m, &g.bg, &r);
	q_ring(&g.bg, 1);
	place(&g.m);
	/* An event preempting it, so cancel meets an event warp too. */
	q_ring(&g.qs[0], 1);
	place(&g.m);
	if (g.m.simt.st.tbs_dispatched != tbs)
		die("the kernel did not fill the GPU");
	t0 = now_ns();
	n = edge_model_cancel(&g.m, g.bg.id);
	t1 = now_ns();
	if (n != 1)
		die("cancel did not cancel the kernel");
	printf("cancel_fill_%s_ms=%.3f\n",
	       strcmp(o->preset, "h100-like") ? o->preset : "h100",
	       (t1 - t0) / 1e6);
	printf("cancel_fill_tbs=%u\n", tbs);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Of @n samples (sorted here): the median, and the mean of the lowest
 * 99 % (a vCPU that loses its host CPU for milliseconds is not the
 * path).  The mean, unlike the median, is not rounded to the clock's
 * resolution: a host clock counting in steps of 10 ns still averages
 * right over many intervals.
 */
struct stat2 {
	double p50;
	double mean;
};

static struct stat2 stat2(u32 *v, u32 n)
{
	struct stat2 r;
	u32 i, k = n - n / 100;
	u64 sum = 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (i = 0; i < k; i++)
		sum += v[i];
	r.p50 = v[n / 2];
	r.mean = (double)sum / k;
	return r;
}

#define CLOCK_SAMPLES	100000

/*
 * What an interval between two back-to-back clock reads holds: one read's
 * cost (the end of the first, the start of the second).  Under TCG it is
 * a vDSO read of the TSC, or a system call on an HPET.
 */
static struct stat2 clock_cost(void)
{
	static u32 v[CLOCK_SAMPLES];
	u32 i;

	for (i = 0; i < CLOCK_SAMPLES; i++) {
		u64 t0 = now_ns();

		v[i] = (u32)(now_ns() - t0);
	}
	return stat2(v, CLOCK_SAMPLES);
}

static void pin(int cpu);

static void put(const char *name, const char *cfg, double v)
{
	printf("%s_%s=%.0f\n", name, cfg, v < 0 ? 0 : v);
}

/*
 * step() on the wall clock, consume and the rest apart: the producer's
 * writes and reaping stay outside, as in bench_step()'s count.  One
 * event in flight: the entry rings when the last event completed.  An
 * event's time is that of its steps: the edge_model_consume() that takes
 * it (what a polled dispatch waits for: sq.head is stored there), and
 * the rest, its scheduling pass and run and the steps that run it to its
 * completion (their consumes find nothing).  Each interval holds one
 * clock read's cost, taken off at the end.
 */
static int cmd_time(const struct opts *o)
{
	const char *cfg = o->busy ? "busy" : "idle";
	u32 n = 0, steps = 0, consumed = 0, acons = 0, arest = 0;
	struct stat2 c, sc, sr, sw;
	u32 *cons, *rest, *whole;
	struct opts oo = *o;
	u64 t0, t1, t2, loop;
	double spe;
	struct rig g;
	struct q *q;

	oo.entries = 1;
	oo.inflight = 1;
	cons = calloc(o->events, sizeof(*cons));
	rest = calloc(o->events, sizeof(*rest));
	whole = calloc(o->events, sizeof(*whole));
	if (!cons || !rest || !whole)
		die("out of memory");
	if (o->cpu >= 0)
		pin(o->cpu);
	rig_init(&g, &oo);
	q = &g.qs[0];
	rig_run(&g, 1, o->events < 20000 ? 20000 : o->events, false);
	c = clock_cost();
	while (n < o->events) {
		u32 work, done;

		if (g.rung < g.done + 1)
			q_ring(q, 1), g.rung = g.done + 1;
		t0 = now_ns();
		work = edge_model_consume(&g.m);
		t1 = now_ns();
		if (work)
			edge_model_schedule_run(&g.m, true, STEP_BUDGET);
		else
			edge_model_run_next(&g.m, STEP_BUDGET);
		t2 = now_ns();
		steps++;
		if (work)
			acons += (u32)(t1 - t0), consumed++;
		else
			arest += (u32)(t1 - t0);
		arest += (u32)(t2 - t1);
		done = q_reap(q);
		g.done += done;
		if (!done)
			continue;
		cons[n] = acons;
		rest[n] = arest;
		whole[n] = acons + arest;
		acons = 0;
		arest = 0;
		n++;
	}
	/* The same loop, no clock inside: the producer's part included. */
	t0 = now_ns();
	rig_run(&g, 1, o->events, false);
	loop = now_ns() - t0;
	/*
	 * One consuming step an event: its consume interval holds one
	 * clock read, the rest of the event's intervals the others.
	 */
	if (consumed != n)
		die("an event took more than one consuming step");
	spe = (double)steps / n;
	sc = stat2(cons, n);
	sr = stat2(rest, n);
	sw = stat2(whole, n);
	put("model_ns_per_event", cfg, sw.mean - 2 * spe * c.mean);
	put("consume_ns_per_event", cfg, sc.mean - c.mean);
	put("schedule_run_ns_per_event", cfg, sr.mean - (2 * spe - 1) * c.mean);
	put("model_p50_ns_per_event", cfg, sw.p50 - 2 * spe * c.mean);
	put("consume_p50_ns_per_event", cfg, sc.p50 - c.mean);
	put("schedule_run_p50_ns_per_event", cfg, sr.p50 - (2 * spe - 1) * c.mean);
	put("loop_ns_per_event", cfg, (double)loop / o->events);
	printf("time_clock_ns_%s=%.1f\n", cfg, c.mean);
	printf("time_steps_per_event_%s=%.2f\n", cfg, spe);
	free(cons);
	free(rest);
	free(whole);
	return 0;
}

/* Two threads: a producer and the front end (or a raw ring's consumer). */
struct tt {
	struct rig g;
	u32 depth;
	volatile int stop;
	volatile int started;
	pthread_mutex_t lock;	/* drv/'s model lock, taken per step */
	u64 events;
	/* the raw ring: SQ of u64 parameters, CQ of u32 statuses */
	u64 *rsq;
	u32 *rcq;
	u32 rsq_tail __attribute__((aligned(64)));
	u32 rsq_head __attribute__((aligned(64)));
	u32 rcq_tail __attribute__((aligned(64)));
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *model_consumer(void *arg)
{
	struct tt *t = arg;

	pin(1);
	t->started = 1;
	while (!t->stop) {
		pthread_mutex_lock(&t->lock);
		step(&t->g.m);
		pthread_mutex_unlock(&t->lock);
	}
	return NULL;
}

#define RAW_ENTRIES	4096

static void *raw_consumer(void *arg)
{
	struct tt *t = arg;
	u32 head = 0, ctail = 0;

	pin(1);
	t->started = 1;
	while (!t->stop) {
		u32 tail = __atomic_load_n(&t->rsq_tail, __ATOMIC_ACQUIRE);

		while (head != tail) {
			u64 v = t->rsq[head & (RAW_ENTRIES - 1)];

			t->rcq[ctail & (RAW_ENTRIES - 1)] = (u32)v | 1;
			head++;
			ctail++;
		}
		__atomic_store_n(&t->rsq_head, head, __ATOMIC_RELEASE);
		__atomic_store_n(&t->rcq_tail, ctail, __ATOMIC_RELEASE);
	}
	return NULL;
}

static double run_model_tt(u32 depth, u32 ms, u32 rpw)
{
	struct opts o = { "edge", 1, depth, 0, false, 0, -1, rpw };
	struct tt *t = calloc(1, sizeof(*t));
	struct q *q;
	pthread_t th;
	u64 t0, end, done = 0;

	if (!t)
		die("out of memory");
	rig_init(&t->g, &o);
	q = &t->g.qs[0];
	pthread_mutex_init(&t->lock, NULL);
	pin(0);
	pthread_create(&th, NULL, model_consumer, t);
	while (!t->started)
		;
	t0 = now_ns();
	end = t0 + (u64)ms * 1000000ULL;
	while (now_ns() < end) {
		u32 k;

		for (k = 0; k < 256; k++) {
			u32 inflight = q->tail - q->reaped;

			if (inflight < depth)
				q_ring(q, depth - inflight);
			done += q_reap(q);
		}
	}
	end = now_ns();
	t->stop = 1;
	pthread_join(th, NULL);
	return done * 1e9 / (double)(end - t0);
}

static double run_raw_tt(u32 depth, u32 ms)
{
	struct tt *t = calloc(1, sizeof(*t));
	pthread_t th;
	u32 tail = 0, reaped = 0;
	u64 t0, end, done = 0;

	if (!t)
		die("out of memory");
	t->rsq = calloc(RAW_ENTRIES, sizeof(*t->rsq));
	t->rcq = calloc(RAW_ENTRIES, sizeof(*t->rcq));
	if (!t->rsq || !t->rcq)
		die("out of memory");
	pin(0);
	pthread_create(&th, NULL, raw_consumer, t);
	while (!t->started)
		;
	t0 = now_ns();
	end = t0 + (u64)ms * 1000000ULL;
	while (now_ns() < end) {
		u32 k;

		for (k = 0; k < 256; k++) {
			u32 ct;

			while (tail - reaped < depth) {
				t->rsq[tail & (RAW_ENTRIES - 1)] = tail;
				tail++;
			}
			__atomic_store_n(&t->rsq_tail, tail, __ATOMIC_RELEASE);
			ct = __atomic_load_n(&t->rcq_tail, __ATOMIC_ACQUIRE);
			while (reaped != ct) {
				if (!(t->rcq[reaped & (RAW_ENTRIES - 1)] & 1))
					die("raw ring lost an entry");
				reaped++;
				done++;
			}
		}
	}
	end = now_ns();
	t->stop = 1;
	pthread_join(th, NULL);
	return done * 1e9 / (double)(end - t0);
}

static int cmd_twothread(const struct opts *o)
{
	double ev = run_model_tt(o->inflight, o->ms, o->rpw);
	double raw = run_raw_tt(o->inflight, o->ms);

	printf("events_per_s_depth_%u=%.0f\n", o->inflight, ev);
	printf("raw_ring_events_per_s_depth_%u=%.0f\n", o->inflight, raw);
	printf("events_vs_raw_ring_ratio_depth_%u=%.3f\n", o->inflight,
	       raw > 0 ? ev / raw : 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { "edge", 1, 1, 20000, false, 500, -1, 1 };
	int i;

	if (argc < 2)
		die("usage: bench-host model|twothread|cancel|time [options]");
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--busy")) {
			o.busy = true;
			continue;
		}
		if (!v)
			die("option without a value");
		i++;
		if (!strcmp(a, "--preset"))
			o.preset = v;
		else if (!strcmp(a, "--entries"))
			o.entries = (u32)atoi(v);
		else if (!strcmp(a, "--inflight") || !strcmp(a, "--depth"))
			o.inflight = (u32)atoi(v);
		else if (!strcmp(a, "--events"))
			o.events = (u32)atoi(v);
		else if (!strcmp(a, "--ms"))
			o.ms = (u32)atoi(v);
		else if (!strcmp(a, "--cpu"))
			o.cpu = atoi(v);
		else if (!strcmp(a, "--rpw"))
			o.rpw = (u32)atoi(v);
		else
			die("unknown option");
	}
	if (!o.entries || o.entries + o.busy > EDGE_EKT_ENTRIES || !o.inflight ||
	    o.inflight > EDGE_MAX_RING_ENTRIES || !o.events || !o.rpw ||
	    o.rpw > EDGE_MAX_REQUESTS_PER_WARP)
		die("bad option value");
	if (!strcmp(argv[1], "model"))
		return cmd_model(&o);
	if (!strcmp(argv[1], "twothread"))
		return cmd_twothread(&o);
	if (!strcmp(argv[1], "cancel"))
		return cmd_cancel(&o);
	if (!strcmp(argv[1], "time"))
		return cmd_time(&o);
	die("unknown command");
	return 1;
}

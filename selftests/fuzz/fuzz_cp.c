// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cp: the command processor (emul/cp/cp.c) under any sequence of what
 * its users can do: set and clear profiling-table entries (kernel shapes
 * from REGISTER), submit jobs (queue, deadline, kernel lists, valid or
 * not), let time pass, switch the policy, cancel some jobs or all.
 *
 * Why: jobs come from user space through an ioctl and the policy from an
 * administrator at any moment; a bad job must be refused and change
 * nothing, and every accepted job must end exactly once whatever the
 * policy does with it (admission, batching, LAX-P's drops, cancels).
 *
 * Asserted:
 *   - submit returns 0, -EINVAL, -E2BIG or -EBUSY; on error the job
 *     counters are unchanged; -EINVAL exactly when an independent check
 *     of queue, deadline, count and kernel ids says so (when not E2BIG);
 *   - each accepted job's done callback runs exactly once, never for a
 *     refused one; the state reported is DONE, REJECTED or CANCELLED;
 *   - submitted = done + rejected + cancelled + dropped at every step;
 *   - when the engine runs dry the CP and the SIMT model are idle (no job
 *     is stuck), and no profiling entry counts a kernel in flight;
 *   - cancel_all leaves no job and no CP event.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp/cp.h"
#include "gpu/engine.h"
#include "gpu/preset.h"
#include "gpu/simt.h"
#include "fuzz_alloc.h"

#define FZ_JOBS		512
#define MAX_OPS		96

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "FUZZ ASSERT %s:%d: %s\n", __FILE__,	\
			__LINE__, #c);					\
		abort();						\
	}								\
} while (0)

struct fz {
	const u8 *p;
	size_t n;
	struct edge_engine eng;
	struct edge_simt s;
	struct edge_cp *cp;
	u32 ends[FZ_JOBS];
	bool accepted[FZ_JOBS];
	u32 next_cookie;
};

static struct fz F;

static u8 in8(void)
{
	u8 v = 0;

	if (F.n) {
		v = *F.p++;
		F.n--;
	}
	return v;
}

static u32 in32(void)
{
	return in8() | (u32)in8() << 8 | (u32)in8() << 16 | (u32)in8() << 24;
}

static void kernel_done(void *ctx, u64 cookie, u32 code)
{
	(void)ctx;
	CHECK(edge_cp_kernel_done(F.cp, cookie, code));
}

static void job_done(void *ctx, u64 cookie, u32 state, bool met)
{
	(void)ctx;
	CHECK(cookie < FZ_JOBS && F.accepted[cookie]);
	CHECK(state == EDGE_JOB_DONE || state == EDGE_JOB_REJECTED ||
	      state == EDGE_JOB_CANCELLED || state == EDGE_JOB_DROPPED);
	CHECK(!met || state == EDGE_JOB_DONE);
	F.ends[cookie]++;
	CHECK(F.ends[cookie] == 1);
}

static void check_accounting(void)
{
	const struct edge_cp_stats *st = &F.cp->st;
	u64 ended = 0;
	u32 i;

	for (i = 0; i < F.next_cookie; i++)
		ended += F.ends[i];
	CHECK(st->submitted == st->done + st->rejected + st->cancelled +
	      st->dropped + F.cp->active);
	CHECK(ended == st->done + st->rejected + st->cancelled + st->dropped);
	CHECK(st->met <= st->done);
}

/* A kernel shape small enough to fit a core of any preset. */
static void set_class(u32 idx)
{
	const struct edge_preset *p = F.s.p;
	struct edge_kdesc k;
	u32 threads = (in8() % 4 + 1) * p->warp_size * 2;
	int ret;

	memset(&k, 0, sizeof(k));
	k.func = EDGE_FN_NOP;
	k.grid[0] = in8() % 40 + 1;
	k.grid[1] = 1;
	k.grid[2] = 1;
	k.block[0] = threads;
	k.block[1] = 1;
	k.block[2] = 1;
	k.regs_per_thread = in8() % 64 + 1;
	k.smem_per_block = (in8() % 8) * 1024;
	k.num_tbs = k.grid[0];
	k.block_threads = threads;
	k.warps_per_tb = threads / p->warp_size;
	k.param_size = 8;
	k.ring_entries = 1;
	k.warp_cycles = (u64)(in32() % 200000) + 1;
	k.ws.corun_pct = in8() % 120;
	k.ws.rsd_pct = in8() % 60;
	/* Valid shapes only (REGISTER validated them); busy while used. */
	ret = edge_cp_set_class(F.cp, idx % EDGE_CP_CLASSES, &k);
	CHECK(ret == 0 || ret == -EBUSY);
}

static void submit(void)
{
	u16 list[80];
	struct edge_cp_jobdesc d;
	struct edge_cp_stats before = F.cp->st;
	u32 n = in8() % 80, i;
	bool bad = false;
	int ret;

	if (F.next_cookie == FZ_JOBS)
		return;
	for (i = 0; i < n; i++) {
		list[i] = in8() % (EDGE_CP_CLASSES + 2);
		if (list[i] >= EDGE_CP_CLASSES || !F.cp->cls[list[i]].used)
			bad = true;
	}
	memset(&d, 0, sizeof(d));
	d.cookie = F.next_cookie;
	d.queue = in8() % (EDGE_CP_QUEUES + 4);
	d.deadline_ns = (u64)in32() % 20000000;
	d.nr_kernels = n;
	d.kernels = list;
	bad |= d.queue >= EDGE_CP_QUEUES || !d.deadline_ns || !n;
	F.accepted[d.cookie] = true;	/* before: callbacks may run */
	ret = edge_cp_submit(F.cp, &d);
	CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG || ret == -EBUSY);
	if (ret != -E2BIG)
		CHECK((ret == -EINVAL) == bad);
	if (ret) {
		F.accepted[d.cookie] = false;
		CHECK(!memcmp(&before, &F.cp->st, sizeof(before)));
		return;
	}
	F.next_cookie++;
}

static void run_until(u64 until)
{
	struct edge_ev ev;
	u32 steps = 0;

	while (edge_engine_next_time(&F.eng) <= until &&
	       edge_engine_pop_due(&F.eng, until, &ev)) {
		if (!edge_simt_handle(&F.s, &ev))
			CHECK(edge_cp_handle(F.cp, &ev));
		check_accounting();
		CHECK(++steps < 2000000);
	}
}

static bool odd_cookie(u64 cookie, void *arg)
{
	return (cookie & 1) == (uintptr_t)arg;
}

static const char *const presets[] = { "edge", "lax", "h100-like" };

/* What an input sets up, for fz_alloc_check_reuse(). */
struct cp_rig {
	struct edge_engine eng;
	struct edge_simt s;
	struct edge_cp *cp;
};

static void *build_rig(void *arg)
{
	struct cp_rig *r = fz_zalloc(sizeof(*r));
	struct edge_simt_cfg scfg;
	struct edge_cp_cfg ccfg;

	CHECK(r);
	edge_engine_init(&r->eng);
	edge_simt_default_cfg(&scfg);
	CHECK(!edge_simt_init(&r->s, arg, &r->eng, &scfg, kernel_done, NULL));
	r->cp = fz_zalloc(sizeof(*r->cp));
	CHECK(r->cp);
	edge_cp_default_cfg(&ccfg);
	CHECK(!edge_cp_init(r->cp, &r->s, &ccfg, job_done, NULL));
	return r;
}

static void teardown_rig(void *obj)
{
	struct cp_rig *r = obj;

	edge_cp_fini(r->cp);
	fz_free(r->cp);
	edge_simt_fini(&r->s);
	edge_engine_fini(&r->eng);
	fz_free(r);
}

/* Large blocks kept from one input to the next: see fuzz_alloc.c. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	u32 i;

	(void)argc;
	(void)argv;
	fz_alloc_keep(true);
	for (i = 0; i < ARRAY_SIZE(presets); i++)
		fz_alloc_check_reuse(build_rig, teardown_rig,
				     (void *)edge_preset_find(presets[i]),
				     presets[i]);
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct edge_simt_cfg scfg;
	struct edge_cp_cfg ccfg;
	u32 ops = 0, i;
	int ret;

	memset(&F, 0, sizeof(F));
	F.p = data;
	F.n = size;
	edge_engine_init(&F.eng);
	edge_simt_default_cfg(&scfg);
	scfg.seed = in8();
	CHECK(!edge_simt_init(&F.s, edge_preset_find(presets[in8() % 3]),
			      &F.eng, &scfg, kernel_done, NULL));
	F.cp = fz_zalloc(sizeof(*F.cp));
	CHECK(F.cp);
	edge_cp_default_cfg(&ccfg);
	ccfg.policy = in8() % EDGE_POL_NR;
	CHECK(!edge_cp_init(F.cp, &F.s, &ccfg, job_done, NULL));
	for (i = 0; i < 4; i++)
		set_class(in8());
	while (F.n && ops++ < MAX_OPS) {
		switch (in8() % 8) {
		case 0:
		case 1:
		case 2:
			submit();
			break;
		case 3:
			run_until(F.eng.now + (u64)(in32() % 2000000));
			break;
		case 4: {
			u8 pol = in8();

			CHECK(edge_cp_set_policy(F.cp, pol) ==
			      (pol < EDGE_POL_NR ? 0 : -EINVAL));
			break;
		}
		case 5:
			edge_cp_cancel(F.cp, odd_cookie,
				       (void *)(uintptr_t)(in8() & 1));
			check_accounting();
			break;
		case 6:
			set_class(in8());
			break;
		case 7:
			if (in8() & 1) {
				i = in8() % EDGE_CP_CLASSES;
				ret = edge_cp_clear_class(F.cp, i);
				CHECK(ret == 0 || ret == -EBUSY);
				break;
			}
			if (in8() < 16) {
				edge_cp_cancel_all(F.cp);
				CHECK(!F.cp->active);
				check_accounting();
			}
			break;
		}
	}
	run_until(EDGE_TIME_NEVER - 1);
	CHECK(edge_cp_idle(F.cp));
	CHECK(edge_simt_idle(&F.s));
	for (i = 0; i < EDGE_CP_CLASSES; i++)
		CHECK(!F.cp->cls[i].inflight);
	for (i = 0; i < F.next_cookie; i++)
		CHECK(F.ends[i] == 1);
	check_accounting();
	edge_cp_fini(F.cp);
	fz_free(F.cp);
	edge_simt_fini(&F.s);
	edge_engine_fini(&F.eng);
	CHECK(!fz_alloc_in_use());
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test rig around the command processor (emul/cp/cp.c) and the SIMT
 * model below it: a small "lax"-shaped GPU where one kernel can fill it,
 * jobs by cookie, and the accounting that says no job is lost.
 */
#ifndef _CP_RIG_H
#define _CP_RIG_H

#include "emul_test.h"
#include "cp/cp.h"
#include "gpu/engine.h"
#include "gpu/simt.h"

#define US	1000ULL
#define MAXJ	256

struct cprig {
	struct edge_preset p;
	struct edge_engine eng;
	struct edge_simt s;
	struct edge_cp *cp;
	u32 ndone;
	u64 order[MAXJ];	/* cookies, in completion order */
	u32 state[MAXJ];	/* by cookie */
	bool met[MAXJ];
	u32 ends[MAXJ];		/* callbacks per cookie: must be 1 */
	u64 done_at[MAXJ];
};

static struct cprig C;

static void cp_kernel_done(void *ctx, u64 cookie, u32 code)
{
	struct cprig *r = ctx;

	EDGE_ASSERT(edge_cp_kernel_done(r->cp, cookie, code));
}

static void cp_job_done(void *ctx, u64 cookie, u32 state, bool met)
{
	struct cprig *r = ctx;

	EDGE_ASSERT(cookie < MAXJ);
	r->order[r->ndone++] = cookie;
	r->state[cookie] = state;
	r->met[cookie] = met;
	r->ends[cookie]++;
	r->done_at[cookie] = r->eng.now;
}

/* Two CUs of 4 work-group slots (256 threads each): 8 slots in all. */
static void cp_init(struct __test_metadata *_metadata, u32 policy)
{
	struct edge_simt_cfg scfg;
	struct edge_cp_cfg ccfg;

	memset(&C, 0, sizeof(C));
	C.p = *edge_preset_find("lax");
	C.p.num_cores = 2;
	C.p.threads_per_core = 1024;
	edge_engine_init(&C.eng);
	edge_simt_default_cfg(&scfg);
	ASSERT_EQ(0, edge_simt_init(&C.s, &C.p, &C.eng, &scfg, cp_kernel_done, &C));
	C.cp = calloc(1, sizeof(*C.cp));
	ASSERT_NE(NULL, C.cp);
	edge_cp_default_cfg(&ccfg);
	ccfg.policy = policy;
	ASSERT_EQ(0, edge_cp_init(C.cp, &C.s, &ccfg, cp_job_done, &C));
}

static void cp_fini(void)
{
	edge_cp_fini(C.cp);
	free(C.cp);
	edge_simt_fini(&C.s);
	edge_engine_fini(&C.eng);
}

/*
 * A kernel of @wgs work-groups of 256 threads, each @us long alone, and
 * @corun % longer on a full CU.
 */
static void cp_class_corun(struct __test_metadata *_metadata, u32 idx,
			   u32 wgs, u64 us, u32 corun)
{
	struct edge_kdesc k;

	memset(&k, 0, sizeof(k));
	k.func = EDGE_FN_NOP;
	k.grid[0] = wgs;
	k.grid[1] = 1;
	k.grid[2] = 1;
	k.block[0] = 256;
	k.block[1] = 1;
	k.block[2] = 1;
	k.regs_per_thread = 16;
	k.num_tbs = wgs;
	k.block_threads = 256;
	k.warps_per_tb = 256 / C.p.warp_size;
	k.param_size = 8;
	k.ring_entries = 1;
	k.warp_cycles = us * C.p.clock_khz / 1000;
	k.ws.corun_pct = corun;
	ASSERT_EQ(0, edge_cp_set_class(C.cp, idx, &k));
}

/* A kernel of @wgs work-groups of 256 threads, each @us long. */
static void cp_class(struct __test_metadata *_metadata, u32 idx, u32 wgs,
		     u64 us)
{
	cp_class_corun(_metadata, idx, wgs, us, 0);
}

static int cp_submit(u64 cookie, u32 queue, u64 deadline, u32 n,
		     const u16 *kernels)
{
	struct edge_cp_jobdesc d = {
		.cookie = cookie,
		.queue = queue,
		.deadline_ns = deadline,
		.nr_kernels = n,
		.kernels = kernels,
	};

	return edge_cp_submit(C.cp, &d);
}

/* Step the engine until nothing is left (or @until). */
static void cp_run(struct __test_metadata *_metadata, u64 until)
{
	struct edge_ev ev;
	u32 steps = 0;

	while (edge_engine_next_time(&C.eng) <= until &&
	       edge_engine_pop_due(&C.eng, until, &ev)) {
		if (!edge_simt_handle(&C.s, &ev))
			ASSERT_TRUE(edge_cp_handle(C.cp, &ev));
		ASSERT_LT(++steps, 10000000U);
	}
}

/* Every submitted job ended exactly once; the GPU and CP are empty. */
static void cp_all_accounted(struct __test_metadata *_metadata, u32 jobs)
{
	const struct edge_cp_stats *st = &C.cp->st;
	u32 i;

	EXPECT_EQ(jobs, C.ndone);
	for (i = 0; i < jobs; i++)
		EXPECT_EQ(1U, C.ends[i]) TH_LOG("job %u", i);
	EXPECT_EQ((u64)jobs, st->submitted);
	EXPECT_EQ(st->submitted, st->done + st->rejected + st->cancelled +
		  st->dropped);
	EXPECT_TRUE(edge_cp_idle(C.cp));
	EXPECT_TRUE(edge_simt_idle(&C.s));
}

#endif /* _CP_RIG_H */

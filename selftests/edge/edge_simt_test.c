// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMT model inside edge.ko, in virtual time: a background kernel
 * fills every core, single-warp event kernels arrive at the same model
 * instant, and the event scheduling latency the module reports under
 * draining and under warp-level preemption is compared on one seed.
 */
#include "kselftest_harness.h"
#include "edge_selftest.h"

#define BG_TBS		(16 * 8)	/* 8 TBs of 256 threads fill an edge core */
#define NR_EVENTS	16

struct run_result {
	long long sched_n, sched_avg, sched_max, preemptions;
	char stats[4096];
};

/* Loads, stalls and barriers enough that a flush is not free. */
static void background(struct edge_register *r)
{
	edge_register_init(r, EDGE_FN_NOP, 8, 2, 40000);
	r->grid_x = BG_TBS;
	r->block_x = 256;
	r->regs_per_thread = 32;
	r->ws.rsd_pct = 10;
	r->ws.p_pipe = 600;
	r->ws.pipe_cycles = 40;
	r->ws.ibuf_insts = 2;
	r->ws.p_load = 700;
	r->ws.load_cycles = 1500;
	r->ws.p_barrier = 600;
	r->ws.barrier_cycles = 6000;
	r->ws.early_pct = 15;
	r->ws.p_icache = 300;
	r->ws.icache_cycles = 300;
}

/*
 * One deterministic run: everything is rung while virtual time is held,
 * so the background and every event arrive at the same model instant.
 */
static void one_run(struct __test_metadata *_metadata, const char *policy,
		    struct run_result *res)
{
	struct edge_register bg_reg, ev_reg;
	struct edge_queue bg, ev;
	struct edge_cqe cqe;
	struct edge_dev d;
	unsigned int i;

	ASSERT_EQ(0, edge_module_load("virtual_time=1"));
	ASSERT_EQ(0, sched_write("sched/seed", "7"));
	ASSERT_EQ(0, sched_write("sched/policy", policy));
	ASSERT_EQ(0, sched_write("sched/vt_hold", "1"));
	ASSERT_EQ(0, edge_open(&d, EDGE_DEV0));

	background(&bg_reg);
	ASSERT_EQ(0, edge_queue_create(&d, &bg_reg, &bg));
	/* IPv4-like: one warp, ~2300 cycles, fewer registers than the background. */
	edge_register_init(&ev_reg, EDGE_FN_ECHO, 8, NR_EVENTS, 2300);
	ev_reg.regs_per_thread = 16;
	ev_reg.priority = 10;
	ASSERT_EQ(0, edge_queue_create(&d, &ev_reg, &ev));

	/*
	 * The background first: rung in the same poll, the higher-priority
	 * events would be placed first, on an empty GPU.  Time is held, so
	 * the events still arrive at the instant the background started.
	 */
	*(uint32_t *)edge_queue_param(&bg) = 0;
	edge_queue_submit(&bg, 1);
	wait_dispatched(_metadata, &bg, 1);
	wait_placed(_metadata);
	for (i = 0; i < NR_EVENTS; i++)
		*(uint32_t *)edge_queue_param_ahead(&ev, i) = i;
	edge_queue_submit(&ev, NR_EVENTS);
	wait_dispatched(_metadata, &ev, NR_EVENTS);
	ASSERT_EQ(0, sched_write("sched/vt_hold", "0"));

	for (i = 0; i < NR_EVENTS; i++) {
		ASSERT_EQ(0, edge_queue_wait(&ev, &cqe, 10000));
		EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
		EXPECT_EQ(i, cqe.res);
		edge_queue_cqe_seen(&ev);
	}
	ASSERT_EQ(0, edge_queue_wait(&bg, &cqe, 10000));
	EXPECT_EQ(EDGE_CQE_DONE, EDGE_CQE_CODE(cqe.status));
	edge_queue_cqe_seen(&bg);

	ASSERT_EQ(0, edge_sysfs_str(0, "sched/stats", res->stats,
				    sizeof(res->stats)));
	res->sched_n = stat_value(res->stats, "sched_n");
	res->sched_avg = stat_value(res->stats, "sched_avg");
	res->sched_max = stat_value(res->stats, "sched_max");
	res->preemptions = stat_value(res->stats, "preemptions");
	EXPECT_EQ(NR_EVENTS + 1, edge_sysfs_read(0, "completed"));
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));

	ASSERT_EQ(0, edge_queue_destroy(&ev));
	ASSERT_EQ(0, edge_queue_destroy(&bg));
	edge_close(&d);
	ASSERT_EQ(0, edge_module_unload(3000));
}

/* The acceptance check of the SIMT issue, in the module itself. */
TEST(preemption_beats_draining_same_seed)
{
	struct run_result drain, preempt;

	one_run(_metadata, "drain", &drain);
	one_run(_metadata, "preempt", &preempt);
	ksft_print_msg("drain: avg %lld max %lld cycles; preempt: avg %lld max %lld cycles, %lld preemptions\n",
		       drain.sched_avg, drain.sched_max, preempt.sched_avg,
		       preempt.sched_max, preempt.preemptions);
	ASSERT_EQ(NR_EVENTS, drain.sched_n);
	ASSERT_EQ(NR_EVENTS, preempt.sched_n);
	/* Draining cannot preempt; every event waited for a TB. */
	EXPECT_EQ(0, drain.preemptions);
	EXPECT_EQ(NR_EVENTS, preempt.preemptions);
	/* A TB of 40000 cycles ends no sooner than ~3/4 of it with 10 % spread. */
	EXPECT_GT(drain.sched_avg, 20000);
	EXPECT_LT(preempt.sched_avg, drain.sched_avg / 10);
	EXPECT_LT(preempt.sched_max, drain.sched_max);
}

/* Virtual time and one seed: the same inputs give the same statistics. */
TEST(same_seed_same_statistics)
{
	struct run_result a, b;

	one_run(_metadata, "preempt", &a);
	one_run(_metadata, "preempt", &b);
	EXPECT_STREQ(a.stats, b.stats);
}

/* Knobs reject what the model cannot do, and change nothing then. */
TEST(sched_knobs_validate)
{
	char buf[64];

	ASSERT_EQ(0, edge_module_load(""));
	EXPECT_EQ(-EINVAL, sched_write("sched/policy", "fastest"));
	EXPECT_EQ(-EINVAL, sched_write("sched/victim", "random"));
	EXPECT_EQ(-EINVAL, sched_write("sched/flush", "boost+warp"));
	/* One syntax, edge-sim's: names joined by '+'. */
	EXPECT_EQ(-EINVAL, sched_write("sched/flush", "loads,barrier"));
	EXPECT_EQ(-EINVAL, sched_write("sched/flush", "loads+"));
	EXPECT_EQ(-EINVAL, sched_write("sched/reserve_pct", "101"));
	/* Holding time needs virtual time. */
	EXPECT_EQ(-EINVAL, sched_write("sched/vt_hold", "1"));
	EXPECT_EQ(0, sched_write("sched/flush", "loads+barrier"));
	EXPECT_EQ(0, sched_write("sched/victim", "newest"));
	EXPECT_EQ(0, sched_write("sched/policy", "reserve"));

	ASSERT_EQ(0, edge_sysfs_str(0, "sched/flush", buf, sizeof(buf)));
	EXPECT_STREQ("loads+barrier", buf);
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/victim", buf, sizeof(buf)));
	EXPECT_STREQ("newest", buf);
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/policy", buf, sizeof(buf)));
	EXPECT_STREQ("reserve", buf);
	ASSERT_EQ(0, edge_module_unload(3000));
}

/* The policy knobs take the names the policy tables list, and no other. */
TEST(policy_tables_in_sysfs)
{
	char buf[256], *w, *save = NULL, names[256], now[64], *p, *sp = NULL;
	int n = 0;

	ASSERT_EQ(0, edge_module_load(""));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/queue_policies", buf, sizeof(buf)));
	/* Each name is one the knob takes. */
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		EXPECT_EQ(0, sched_write("sched/queue_policy", w)) TH_LOG("%s", w);
		n++;
	}
	EXPECT_LE(14, n);
	EXPECT_EQ(0, sched_write("sched/queue_policy", "rr"));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/tb_policies", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "default"));
	/* The spatial ones (quotas, C-Laius) are there. */
	EXPECT_NE(NULL, strstr(buf, "claius"));
	EXPECT_NE(NULL, strstr(buf, "even"));
	snprintf(names, sizeof(names), "%s", buf);
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/tb_policy", buf, sizeof(buf)));
	EXPECT_STREQ("default", buf);
	EXPECT_EQ(-EINVAL, sched_write("sched/tb_policy", "fastest"));
	EXPECT_EQ(0, sched_write("sched/tb_policy", "default"));
	ASSERT_EQ(0, edge_sysfs_str(0, "sched/tb_policy", buf, sizeof(buf)));
	EXPECT_STREQ("default", buf);
	/* Each thread-block policy is taken at run time, and reads back. */
	for (p = strtok_r(names, " \n", &sp); p; p = strtok_r(NULL, " \n", &sp)) {
		EXPECT_EQ(0, sched_write("sched/tb_policy", p)) TH_LOG("%s", p);
		ASSERT_EQ(0, edge_sysfs_str(0, "sched/tb_policy", now, sizeof(now)));
		EXPECT_STREQ(p, now);
	}
	ASSERT_EQ(0, edge_module_unload(3000));
}

EDGE_FINAL_CHECKS

EDGE_SELFTEST_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * The command processor (emul/cp/cp.c): admission, each policy's order,
 * batching, LAX-P's drops, cancellation and the accounting that says no
 * job is lost.  A small "lax"-shaped GPU where one kernel can fill it.
 */

#include "cp_rig.h"

TEST(cp_policy_names_round_trip)
{
	u32 i;

	for (i = 0; i < EDGE_POL_NR; i++)
		EXPECT_EQ((int)i, edge_cp_policy_find(edge_cp_policy_name(i)));
	EXPECT_EQ(-EINVAL, edge_cp_policy_find("fifo"));
	EXPECT_STREQ("?", edge_cp_policy_name(EDGE_POL_NR));
}

/* Bad jobs are refused and change nothing. */
TEST(cp_submit_rejects_bad_input)
{
	u16 ok[1] = { 0 }, bad[1] = { 5 }, big[EDGE_CP_JOB_CLASSES + 1];
	static u16 longl[EDGE_CP_JOB_KERNELS + 1];
	u32 i;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 1, 10);
	EXPECT_EQ(-EINVAL, cp_submit(0, EDGE_CP_QUEUES, 100 * US, 1, ok));
	EXPECT_EQ(-EINVAL, cp_submit(0, 0, 0, 1, ok));
	EXPECT_EQ(-EINVAL, cp_submit(0, 0, 100 * US, 0, ok));
	EXPECT_EQ(-EINVAL, cp_submit(0, 0, 100 * US, 1, bad));
	EXPECT_EQ(-E2BIG, cp_submit(0, 0, 100 * US, EDGE_CP_JOB_KERNELS + 1,
				    longl));
	for (i = 0; i <= EDGE_CP_JOB_CLASSES; i++) {
		cp_class(_metadata, i, 1, 10);
		big[i] = (u16)i;
	}
	EXPECT_EQ(-E2BIG, cp_submit(0, 0, 100 * US, EDGE_CP_JOB_CLASSES + 1,
				    big));
	EXPECT_EQ(0ULL, C.cp->st.submitted);
	EXPECT_TRUE(edge_cp_idle(C.cp));
	EXPECT_EQ(0U, C.eng.len);
	/* A full job table: EBUSY, and the table is as it was. */
	for (i = 0; i < EDGE_CP_JOBS; i++)
		ASSERT_EQ(0, cp_submit(i, i % EDGE_CP_QUEUES, 1000 * US, 1, ok));
	EXPECT_EQ(-EBUSY, cp_submit(999, 0, 1000 * US, 1, ok));
	EXPECT_EQ((u64)EDGE_CP_JOBS, C.cp->st.submitted);
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, EDGE_CP_JOBS);
	cp_fini();
	EXPECT_NO_LEAKS();
}

/* A profiling entry a job still counts on cannot change or go. */
TEST(cp_class_busy_while_used)
{
	u16 k[2] = { 0, 0 };
	struct edge_kdesc save;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 1, 10);
	save = C.cp->cls[0].k;
	ASSERT_EQ(0, cp_submit(0, 0, 1000 * US, 2, k));
	EXPECT_EQ(-EBUSY, edge_cp_clear_class(C.cp, 0));
	EXPECT_EQ(-EBUSY, edge_cp_set_class(C.cp, 0, &save));
	cp_run(_metadata, 12 * US);	/* first kernel done, second to go */
	EXPECT_EQ(-EBUSY, edge_cp_clear_class(C.cp, 0));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 1);
	EXPECT_EQ(0, edge_cp_clear_class(C.cp, 0));
	EXPECT_FALSE(C.cp->cls[0].used);
	EXPECT_EQ(-EINVAL, edge_cp_clear_class(C.cp, EDGE_CP_CLASSES));
	EXPECT_EQ(0, edge_cp_set_class(C.cp, 0, &save));
	cp_fini();
}

/* Jobs on one compute queue run one after the other, in order. */
TEST(cp_queue_is_fifo)
{
	u16 k[1] = { 0 };
	u32 i;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 1, 10);
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, cp_submit(i, 7, 1000 * US, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	for (i = 0; i < 5; i++)
		EXPECT_EQ((u64)i, C.order[i]);
	/* Serial: the last ends after five runtimes, not one. */
	cp_all_accounted(_metadata, 5);
	EXPECT_GE(C.done_at[4], 50 * US);
	cp_fini();
}

/*
 * A job's kernels run in order: each launches after the one before it
 * completes, so a job of n kernels of t takes at least n t.
 */
TEST(cp_kernels_of_a_job_are_serial)
{
	u16 k[4] = { 0, 0, 0, 0 };

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 1, 10);
	ASSERT_EQ(0, cp_submit(0, 0, 1000 * US, 4, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 1);
	EXPECT_EQ(4ULL, C.cp->st.kernels);
	EXPECT_GE(C.done_at[0], 40 * US);
	EXPECT_LT(C.done_at[0], 50 * US);
	EXPECT_TRUE(C.met[0]);
	cp_fini();
}

/*
 * A GPU filled by a blocker, then three one-kernel jobs that each fill it,
 * of different lengths and deadlines, submitted at once on their own
 * queues: each policy orders them its way once the blocker ends.
 */
static void order_case(struct __test_metadata *_metadata, u32 policy,
		       const u64 *expect)
{
	u16 blocker[1] = { 0 }, k30[1] = { 1 }, k10[1] = { 2 }, k20[1] = { 3 };
	u32 i;

	cp_init(_metadata, policy);
	cp_class(_metadata, 0, 8, 100);	/* fills all 8 slots */
	cp_class(_metadata, 1, 8, 30);	/* so does each job's kernel */
	cp_class(_metadata, 2, 8, 10);
	cp_class(_metadata, 3, 8, 20);
	ASSERT_EQ(0, cp_submit(0, 0, 10000 * US, 1, blocker));
	cp_run(_metadata, 5 * US);
	/* Long + late, short + early, medium + latest deadline. */
	ASSERT_EQ(0, cp_submit(1, 1, 900 * US, 1, k30));
	ASSERT_EQ(0, cp_submit(2, 2, 500 * US, 1, k10));
	ASSERT_EQ(0, cp_submit(3, 3, 1000 * US, 1, k20));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 4);
	EXPECT_EQ(0ULL, C.order[0]);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(expect[i], C.order[i + 1])
			TH_LOG("%s: position %u", edge_cp_policy_name(policy), i);
	cp_fini();
}

TEST(cp_sjf_shortest_first)
{
	static const u64 e[3] = { 2, 3, 1 };

	order_case(_metadata, EDGE_POL_SJF, e);
}

TEST(cp_ljf_longest_first)
{
	static const u64 e[3] = { 1, 3, 2 };

	order_case(_metadata, EDGE_POL_LJF, e);
}

TEST(cp_edf_earliest_deadline_first)
{
	static const u64 e[3] = { 2, 1, 3 };

	order_case(_metadata, EDGE_POL_EDF, e);
}

TEST(cp_rr_in_turn)
{
	/* Deadline- and length-blind: in the order they came. */
	static const u64 e[3] = { 1, 2, 3 };

	order_case(_metadata, EDGE_POL_RR, e);
}

/*
 * A blocker, then a 30 us and a 10 us job under LJF; @to_sjf switches to
 * SJF while they wait.  Returns the cookie that ended first after the
 * blocker.
 */
static u64 ljf_pair(struct __test_metadata *_metadata, bool to_sjf)
{
	u16 blocker[1] = { 0 }, k30[1] = { 1 }, k10[1] = { 2 };
	u64 first;

	cp_init(_metadata, EDGE_POL_LJF);
	cp_class(_metadata, 0, 8, 300);
	cp_class(_metadata, 1, 8, 30);
	cp_class(_metadata, 2, 8, 10);
	EXPECT_EQ(0, cp_submit(0, 0, 10000 * US, 1, blocker));
	cp_run(_metadata, 5 * US);
	EXPECT_EQ(0, cp_submit(1, 1, 10000 * US, 1, k30));
	EXPECT_EQ(0, cp_submit(2, 2, 10000 * US, 1, k10));
	cp_run(_metadata, 50 * US);
	if (to_sjf) {
		EXPECT_EQ(0, edge_cp_set_policy(C.cp, EDGE_POL_SJF));
		EXPECT_EQ(-EINVAL, edge_cp_set_policy(C.cp, EDGE_POL_NR));
	}
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 3);
	first = C.order[1];
	cp_fini();
	return first;
}

/*
 * Switching the policy at run time takes effect for jobs already in
 * flight: their waiting kernels are re-ranked at the next tick.  Without
 * the switch LJF keeps its order, so the first check can fail.
 */
TEST(cp_policy_switch_reranks)
{
	EXPECT_EQ(2ULL, ljf_pair(_metadata, true));
	EXPECT_EQ(1ULL, ljf_pair(_metadata, false));
}

/*
 * LAX admission: once the profiling table knows the kernel, a burst that
 * the GPU cannot finish by the deadline is partly refused, and the jobs
 * it accepts make their deadline.
 */
TEST(cp_lax_admission_refuses_overload)
{
	u16 k[1] = { 0 };
	u32 i, n = 0;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 0, 8, 50);	/* fills the GPU for 50 us */
	ASSERT_EQ(0, cp_submit(n, n, 1000 * US, 1, k));
	n++;
	cp_run(_metadata, EDGE_TIME_NEVER - 1);	/* warm the table */
	EXPECT_NE(0ULL, C.cp->cls[0].lat_ns);
	EXPECT_EQ(0ULL, C.cp->st.rejected);
	/* 40 jobs of 50 us each, one GPU, 300 us: room for about 6. */
	for (i = 0; i < 40; i++, n++)
		ASSERT_EQ(0, cp_submit(n, n, 300 * US, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, n);
	EXPECT_GE(C.cp->st.rejected, 30ULL);
	EXPECT_GE(C.cp->st.met, 4ULL);
	/* What it accepted, it finished in time. */
	EXPECT_EQ(C.cp->st.done, C.cp->st.met);
	for (i = 1; i < n; i++)
		if (C.state[i] == EDGE_JOB_REJECTED)
			EXPECT_FALSE(C.met[i]);
	cp_fini();
}

/* RR takes everything and, overloaded, misses most. */
TEST(cp_rr_takes_everything)
{
	u16 k[1] = { 0 };
	u32 i;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 8, 50);
	for (i = 0; i < 40; i++)
		ASSERT_EQ(0, cp_submit(i, i, 300 * US, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 40);
	EXPECT_EQ(0ULL, C.cp->st.rejected);
	EXPECT_EQ(40ULL, C.cp->st.done);
	EXPECT_LE(C.cp->st.met, 8ULL);
	cp_fini();
}

/* LAX-P ends a job whose deadline has passed, and frees its slots. */
TEST(cp_laxp_drops_late_jobs)
{
	u16 k[1] = { 0 }, longk[1] = { 1 };

	cp_init(_metadata, EDGE_POL_LAXP);
	cp_class(_metadata, 0, 8, 50);
	/*
	 * 200 us alone, so admitted by its offline profile; but on a full
	 * CU each work-group takes three times as long (corun 200 %), and
	 * the job runs far past its deadline.
	 */
	cp_class_corun(_metadata, 1, 8, 200, 200);
	ASSERT_EQ(0, cp_submit(0, 0, 300 * US, 1, longk));
	cp_run(_metadata, 600 * US);
	EXPECT_EQ(1ULL, C.cp->st.dropped);
	EXPECT_EQ((u32)EDGE_JOB_DROPPED, C.state[0]);
	EXPECT_TRUE(edge_simt_idle(&C.s));
	/* The GPU is free again at once: a new job meets its deadline. */
	ASSERT_EQ(0, cp_submit(1, 1, 300 * US, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 2);
	EXPECT_TRUE(C.met[1]);
	cp_fini();
}

/* BatchMaker runs the same kernel of several jobs as one launch. */
TEST(cp_bat_batches_same_kernels)
{
	u16 blocker[1] = { 0 }, k[2] = { 1, 1 };
	u32 i;

	cp_init(_metadata, EDGE_POL_BAT);
	cp_class(_metadata, 0, 8, 100);
	cp_class(_metadata, 1, 1, 10);
	ASSERT_EQ(0, cp_submit(0, 0, 10000 * US, 1, blocker));
	for (i = 1; i <= 6; i++)
		ASSERT_EQ(0, cp_submit(i, i, 10000 * US, 2, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 7);
	/* 1 + 12 kernels in all, fewer launches. */
	EXPECT_LT(C.cp->st.kernels, 13ULL);
	EXPECT_EQ(0U, C.cp->batched);
	cp_fini();
}

static bool match_odd(u64 cookie, void *arg)
{
	(void)arg;
	return cookie & 1;
}

/*
 * Cancelling some jobs anywhere (waiting on a queue, in the CP, with a
 * kernel on the GPU, in a batch) reports each once; the others finish.
 */
TEST(cp_cancel_some_everywhere)
{
	u16 k[3] = { 1, 1, 1 };
	u32 pol, i;

	for (pol = 0; pol < EDGE_POL_NR; pol++) {
		memset(C.ends, 0, sizeof(C.ends));
		cp_init(_metadata, pol);
		cp_class(_metadata, 1, 2, 20);
		for (i = 0; i < 24; i++)
			ASSERT_EQ(0, cp_submit(i, i % 5, 10000 * US, 3, k));
		cp_run(_metadata, 30 * US);
		EXPECT_GE(edge_cp_cancel(C.cp, match_odd, NULL), 1U)
			TH_LOG("%s", edge_cp_policy_name(pol));
		cp_run(_metadata, EDGE_TIME_NEVER - 1);
		cp_all_accounted(_metadata, 24);
		/* Admission may refuse some first; nothing else changes. */
		for (i = 0; i < 24; i++) {
			if (C.state[i] == EDGE_JOB_REJECTED)
				continue;
			EXPECT_EQ(i & 1 ? (u32)EDGE_JOB_CANCELLED :
				  (u32)EDGE_JOB_DONE, C.state[i])
				TH_LOG("%s: job %u", edge_cp_policy_name(pol), i);
		}
		EXPECT_GE(C.cp->st.cancelled, 1ULL);
		EXPECT_EQ(0U, C.cp->batched);
		EXPECT_EQ(0U, C.cp->cls[1].inflight);
		cp_fini();
	}
	EXPECT_NO_LEAKS();
}

/* Teardown: everything ends CANCELLED, and no CP event is left. */
TEST(cp_cancel_all_leaves_nothing)
{
	u16 k[2] = { 1, 1 };
	u32 i;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 1, 4, 20);
	for (i = 0; i < 30; i++)
		ASSERT_EQ(0, cp_submit(i, i % 3, 10000 * US, 2, k));
	cp_run(_metadata, 25 * US);
	edge_cp_cancel_all(C.cp);
	cp_all_accounted(_metadata, 30);
	EXPECT_EQ(0U, C.eng.len);
	cp_fini();
}

/*
 * The CP serves one stream action at a time, four per 2 us: eight jobs
 * submitted at once are inspected by 4 us and their kernels launched at
 * the same pace after that.
 */
TEST(cp_parse_cost)
{
	u16 k[1] = { 0 };
	u32 i;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 1, 1000);
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, cp_submit(i, i, 10000 * US, 1, k));
	cp_run(_metadata, 3900);
	for (i = 0; i < 7; i++)
		EXPECT_EQ((u32)EDGE_JOB_READY, C.cp->jobs[i].state);
	EXPECT_EQ((u32)EDGE_JOB_PARSE, C.cp->jobs[7].state);
	EXPECT_EQ(0ULL, C.cp->st.kernels);
	cp_run(_metadata, 6 * US);
	EXPECT_EQ(4ULL, C.cp->st.kernels);
	cp_run(_metadata, 8 * US);
	EXPECT_EQ(8ULL, C.cp->st.kernels);
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 8);
	cp_fini();
}

/* The costs and periods: checked, applied whole, and they take effect. */
TEST(cp_timing_knobs)
{
	struct edge_cp_cfg cfg, before;
	u16 k[1] = { 0 };

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 0, 1, 10);
	before = C.cp->cfg;
	cfg = before;
	cfg.profile_ns = 999;			/* < 1 us */
	EXPECT_EQ(-EINVAL, edge_cp_set_timing(C.cp, &cfg));
	cfg = before;
	cfg.host_ns = 1000000001;		/* > 1 s */
	EXPECT_EQ(-EINVAL, edge_cp_set_timing(C.cp, &cfg));
	EXPECT_EQ(0, memcmp(&before, &C.cp->cfg, sizeof(before)));
	/* A 1 ms profile period and 2 us per stream action. */
	cfg = before;
	cfg.profile_ns = 1000 * US;
	cfg.parse_ns = 2 * US;
	cfg.policy = EDGE_POL_RR;		/* not the timing's to change */
	EXPECT_EQ(0, edge_cp_set_timing(C.cp, &cfg));
	EXPECT_EQ((u32)EDGE_POL_LAX, C.cp->cfg.policy);
	ASSERT_EQ(0, cp_submit(0, 0, 10000 * US, 1, k));
	cp_run(_metadata, 3 * US);
	EXPECT_EQ(0ULL, C.cp->st.kernels);	/* parse at 2 us, launch at 4 */
	cp_run(_metadata, 4 * US);
	EXPECT_EQ(1ULL, C.cp->st.kernels);
	/* Done at 14 us; with 100 us the table would know it at 100 us. */
	cp_run(_metadata, 500 * US);
	EXPECT_EQ(0ULL, C.cp->cls[0].lat_ns);
	ASSERT_EQ(0, cp_submit(1, 1, 10000 * US, 1, k));
	cp_run(_metadata, 1001 * US);
	EXPECT_NE(0ULL, C.cp->cls[0].lat_ns);
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 2);
	cp_fini();
}

/* Same inputs, same outputs: the run is a pure function of them. */
TEST(cp_deterministic)
{
	u16 k[3] = { 0, 1, 0 };
	u64 first[MAXJ], a_met = 0;
	u32 i, n, rep;

	for (rep = 0; rep < 2; rep++) {
		cp_init(_metadata, EDGE_POL_LAX);
		cp_class(_metadata, 0, 3, 15);
		cp_class(_metadata, 1, 6, 25);
		for (i = 0; i < 60; i++) {
			ASSERT_EQ(0, cp_submit(i, i % 9, 400 * US, 3, k));
			cp_run(_metadata, C.eng.now + (i % 7) * US);
		}
		cp_run(_metadata, EDGE_TIME_NEVER - 1);
		cp_all_accounted(_metadata, 60);
		n = C.ndone;
		if (!rep) {
			memcpy(first, C.order, sizeof(first));
			a_met = C.cp->st.met;
		} else {
			EXPECT_EQ(0, memcmp(first, C.order, n * sizeof(u64)));
			EXPECT_EQ(a_met, C.cp->st.met);
		}
		cp_fini();
	}
}

TEST_HARNESS_MAIN

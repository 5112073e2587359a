// SPDX-License-Identifier: GPL-2.0
/*
 * Each queue policy's defining rule, in a small situation where that
 * rule alone decides the order (emul/policy/simple.c, host.c, lax.c,
 * prema.c; the profiling table, emul/cp/profile.c).  Most tests put jobs
 * straight into the CP's job table of the rig (cp_rig.h) at a chosen
 * time and ask the policy for their ranks, as the CP does before every
 * launch and at every tick; the admission tests (Prophet, Baymax,
 * LAX-SW) submit real jobs.  Each was seen failing with its rule broken
 * (tools/mutants.txt names the mutants).
 */
#include "cp_rig.h"

/* The policy's rank of @j now: what cp.c's rank_now() asks. */
static u64 rank_of(u32 pol, const struct edge_cp_job *j)
{
	const struct edge_cp_policy *p = edge_cp_policies[pol];

	return p->rank ? p->rank(C.cp, j) : 0;
}

/*
 * A job in slot @slot, admitted, that arrived at @arrival (us) with a
 * relative @deadline (us) and @left kernels of entry @cls to go.
 */
static struct edge_cp_job *job(u32 slot, u64 arrival, u64 deadline, u16 cls,
			       u32 left)
{
	struct edge_cp_job *j = &C.cp->jobs[slot];

	memset(j, 0, sizeof(*j));
	j->state = EDGE_JOB_READY;
	j->idx = slot;
	j->cookie = slot;
	j->arrival = arrival * US;
	j->admitted = arrival * US;
	j->deadline = deadline * US;
	j->nr_cls = 1;
	j->cls[0] = cls;
	j->left[0] = left;
	j->nr_kern = left;
	j->static_len = left * C.cp->cls[cls].iso_ns;
	return j;
}

/* The fake jobs leave the table before the rig goes. */
static void fini(void)
{
	memset(C.cp->jobs, 0, sizeof(C.cp->jobs));
	cp_fini();
}

static void at(u64 us)
{
	C.eng.now = us * US;
}

/* Entry @cls measured at @us per kernel (the profiling table's latency). */
static void measured(u16 cls, u64 us)
{
	C.cp->cls[cls].lat_ns = us * US;
	C.cp->cls[cls].svc_ns = us * US;
	C.cp->cls[cls].work_ns = us * US;
}

/*
 * EDF by absolute deadline: a job that came earlier with a longer
 * relative deadline is due first (550 us against 100 + 500 = 600 us).
 */
TEST(edf_absolute_deadline_with_arrivals)
{
	struct edge_cp_job *late_comer, *early;

	cp_init(_metadata, EDGE_POL_EDF);
	cp_class(_metadata, 0, 8, 10);
	early = job(0, 0, 550, 0, 1);
	late_comer = job(1, 100, 500, 0, 1);
	at(120);
	EXPECT_LT(rank_of(EDGE_POL_EDF, early), rank_of(EDGE_POL_EDF, late_comer));
	/* Same arrival: the shorter relative deadline. */
	late_comer = job(1, 0, 500, 0, 1);
	EXPECT_GT(rank_of(EDGE_POL_EDF, early), rank_of(EDGE_POL_EDF, late_comer));
	fini();
}

/*
 * MLFQ: demoted once a third of its deadline has passed since admission,
 * promoted back past two thirds; a new job goes before a demoted one.
 */
TEST(mlfq_demotes_after_a_third_then_promotes)
{
	struct edge_cp_job *old, *young;

	cp_init(_metadata, EDGE_POL_MLFQ);
	cp_class(_metadata, 0, 8, 10);
	old = job(0, 0, 300, 0, 1);
	young = job(1, 100, 300, 0, 1);
	at(99);
	EXPECT_EQ(0ULL, rank_of(EDGE_POL_MLFQ, old));
	at(100);
	EXPECT_LT(rank_of(EDGE_POL_MLFQ, young), rank_of(EDGE_POL_MLFQ, old));
	at(150);
	EXPECT_LT(rank_of(EDGE_POL_MLFQ, young), rank_of(EDGE_POL_MLFQ, old));
	at(201);
	/* Past 2/3: back up, beside the young one (itself now demoted). */
	EXPECT_EQ(0ULL, rank_of(EDGE_POL_MLFQ, old));
	EXPECT_GT(rank_of(EDGE_POL_MLFQ, young), rank_of(EDGE_POL_MLFQ, old));
	fini();
}

/*
 * SRF by the profiling table: the least remaining measured work first,
 * whatever the number of kernels or the arrival (3 x 10 us > 1 x 20 us).
 */
TEST(srf_least_remaining_measured_first)
{
	struct edge_cp_job *three_short, *one_long;

	cp_init(_metadata, EDGE_POL_SRF);
	cp_class(_metadata, 0, 8, 10);
	cp_class(_metadata, 1, 8, 10);
	measured(0, 10);
	measured(1, 20);
	three_short = job(0, 0, 1000, 0, 3);
	one_long = job(1, 5, 1000, 1, 1);
	at(10);
	EXPECT_LT(rank_of(EDGE_POL_SRF, one_long), rank_of(EDGE_POL_SRF, three_short));
	three_short->left[0] = 1;
	EXPECT_LT(rank_of(EDGE_POL_SRF, three_short), rank_of(EDGE_POL_SRF, one_long));
	fini();
}

/*
 * Baymax ranks by QoS headroom on the offline profile (deadline - waited
 * - isolated remaining), refreshed each tick: the least headroom first,
 * a job past all headroom after every job that has some.
 */
TEST(bay_least_headroom_first)
{
	struct edge_cp_job *roomy, *tight, *hopeless;

	cp_init(_metadata, EDGE_POL_BAY);
	cp_class(_metadata, 0, 8, 10);
	measured(0, 500);	/* Baymax does not look at it */
	roomy = job(0, 0, 400, 0, 1);
	tight = job(1, 0, 100, 0, 2);
	hopeless = job(2, 0, 60, 0, 1);
	at(55);
	edge_cp_policies[EDGE_POL_BAY]->tick(C.cp);
	/* 400 - 55 - 10 = 335; 100 - 55 - 20 = 25; 60 - 55 - 10 < 0. */
	EXPECT_EQ(335 * US, roomy->rank);
	EXPECT_EQ(25 * US, tight->rank);
	EXPECT_LT(tight->rank, roomy->rank);
	EXPECT_LT(roomy->rank, hopeless->rank);
	EXPECT_EQ(tight->rank, rank_of(EDGE_POL_BAY, tight));
	fini();
}

/*
 * LAX-P: laxity in steps of 1/16 of the deadline, shortest remaining
 * within a step; jobs predicted to miss after every feasible one.  LAX
 * itself orders by laxity alone.
 */
TEST(laxp_steps_then_shortest_remaining)
{
	struct edge_cp_job *a, *b, *c, *miss;

	cp_init(_metadata, EDGE_POL_LAXP);
	cp_class(_metadata, 0, 8, 10);
	measured(0, 10);
	/*
	 * Deadline 1600 us: steps of 100 us.  a: laxity 1600 - 40 = 1560
	 * (step 15, 40 us left); b: 1600 - 10 = 1590 (step 15, 10 us
	 * left); c: 1600 - 400 - 10 = 1190 (step 11).
	 */
	at(400);
	a = job(0, 400, 1600, 0, 4);
	b = job(1, 400, 1600, 0, 1);
	c = job(2, 0, 1600, 0, 1);
	miss = job(3, 0, 420, 0, 3);	/* 400 waited + 30 left > 420 */
	edge_cp_policies[EDGE_POL_LAXP]->tick(C.cp);
	EXPECT_LT(b->rank, a->rank);	/* one step: the shorter */
	EXPECT_LT(c->rank, b->rank);	/* a step lower: first */
	EXPECT_LT(a->rank, miss->rank);
	EXPECT_EQ((u32)EDGE_JOB_READY, miss->state);	/* late, not past it */

	/* LAX: laxity alone, a before b (1560 > 1590 is false: b, a). */
	C.cp->cfg.policy = EDGE_POL_LAX;
	edge_cp_policies[EDGE_POL_LAX]->tick(C.cp);
	EXPECT_LT(a->rank, b->rank);
	EXPECT_LT(c->rank, a->rank);
	EXPECT_LT(a->rank, miss->rank);
	EXPECT_LT(miss->rank, EDGE_RANK_INF);
	fini();
}

/* PREMA: a job slowed down past its token's worth goes first. */
TEST(prema_tokens_make_a_candidate)
{
	struct edge_cp_job *waited, *fresh;

	cp_init(_metadata, EDGE_POL_PREMA);
	cp_class(_metadata, 0, 8, 10);
	cp_class(_metadata, 1, 8, 10);
	measured(0, 50);
	measured(1, 10);
	/* 10 us alone, waited 40: slowdown 4, 3000 tokens. */
	waited = job(0, 0, 10000, 0, 1);
	waited->static_len = 10 * US;
	fresh = job(1, 40, 10000, 1, 1);
	/* Its interval at its least, 1 us: due at 40 us. */
	ASSERT_EQ(0, edge_cp_param_set(C.cp, "prema_ns", 1000, NULL));
	at(40);
	edge_cp_policies[EDGE_POL_PREMA]->tick(C.cp);
	EXPECT_EQ(3000ULL, edge_prema_tokens(C.cp, waited));
	EXPECT_EQ(0ULL, edge_prema_tokens(C.cp, fresh));
	/* Longer remaining (50 us against 10), yet first. */
	EXPECT_LT(waited->rank, fresh->rank);
	fini();
}

/*
 * The profiling table ages: a kernel measured slow that completes none
 * in a window and has none in flight halves per window, down to its
 * offline profile and not below; one with a kernel in flight keeps it.
 */
TEST(profile_ages_to_the_offline_profile)
{
	struct edge_cp_class *c;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 0, 8, 10);
	c = &C.cp->cls[0];
	ASSERT_EQ(10 * US, c->iso_ns);
	measured(0, 80);
	edge_cp_profile_tick(C.cp);
	EXPECT_EQ(40 * US, c->lat_ns);
	EXPECT_EQ(40 * US, c->svc_ns);
	edge_cp_profile_tick(C.cp);
	EXPECT_EQ(20 * US, c->lat_ns);
	edge_cp_profile_tick(C.cp);
	edge_cp_profile_tick(C.cp);
	EXPECT_EQ(10 * US, c->lat_ns);
	EXPECT_EQ(10 * US, c->svc_ns);
	EXPECT_EQ(c->iso_work_ns, c->work_ns);
	/* In flight: no ageing. */
	measured(0, 80);
	c->inflight = 1;
	edge_cp_profile_tick(C.cp);
	EXPECT_EQ(80 * US, c->lat_ns);
	c->inflight = 0;
	fini();
}

/*
 * The estimates: service time from the measured service (the offline
 * profile only while none is measured); GPU time of a kernel not
 * measured yet from its offline profile, never 0.
 */
TEST(profile_estimates_measured_or_offline)
{
	struct edge_cp_job *j;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 0, 8, 10);
	j = job(0, 0, 1000, 0, 2);
	EXPECT_EQ(20 * US, edge_cp_rem_service(C.cp, j));
	EXPECT_EQ(2 * C.cp->cls[0].iso_work_ns, edge_cp_rem_work(C.cp, j, false));
	EXPECT_NE(0ULL, C.cp->cls[0].iso_work_ns);
	EXPECT_EQ(0ULL, edge_cp_rem_measured(C.cp, j));
	measured(0, 30);
	EXPECT_EQ(60 * US, edge_cp_rem_service(C.cp, j));
	EXPECT_EQ(60 * US, edge_cp_rem_work(C.cp, j, false));
	EXPECT_EQ(2 * C.cp->cls[0].iso_work_ns, edge_cp_rem_work(C.cp, j, true));
	EXPECT_EQ(20 * US, edge_cp_rem_offline(C.cp, j));
	fini();
}

/* Run the rig to @us, and the clock there even with nothing due. */
static void go(struct __test_metadata *_metadata, u64 us)
{
	cp_run(_metadata, us * US);
	if (C.eng.now < us * US)
		edge_engine_advance(&C.eng, us * US);
}

/* The job of cookie @cookie in the table, or NULL. */
static struct edge_cp_job *find(u64 cookie)
{
	u32 i;

	for (i = 0; i < EDGE_CP_JOBS; i++)
		if (C.cp->jobs[i].state != EDGE_JOB_FREE &&
		    C.cp->jobs[i].cookie == cookie)
			return &C.cp->jobs[i];
	return NULL;
}

/*
 * Prophet holds jobs while the admitted ones' footprints fill the GPU,
 * releases the oldest first, and refuses a held job that can no longer
 * make its deadline even alone (waited + offline length > deadline).
 */
TEST(pro_holds_releases_oldest_refuses_late)
{
	u16 blocker[1] = { 0 }, k[1] = { 1 };
	struct edge_cp_job *j;

	cp_init(_metadata, EDGE_POL_PRO);
	cp_class(_metadata, 0, 8, 100);	/* the whole GPU, 100 us */
	cp_class(_metadata, 1, 8, 30);	/* so is each job's */
	ASSERT_EQ(0, cp_submit(0, 0, 10000 * US, 1, blocker));
	go(_metadata, 20);
	/* 1: 30 us long, due 100 us after it came: too late after 90 us. */
	ASSERT_EQ(0, cp_submit(1, 1, 100 * US, 1, k));
	go(_metadata, 21);
	ASSERT_EQ(0, cp_submit(3, 3, 5000 * US, 1, k));
	go(_metadata, 22);
	ASSERT_EQ(0, cp_submit(2, 2, 5000 * US, 1, k));
	go(_metadata, 60);
	/* The blocker's footprint fills the GPU: all three held. */
	j = find(3);
	ASSERT_NE(NULL, j);
	EXPECT_EQ((u32)EDGE_JOB_HELD, j->state);
	EXPECT_EQ((u32)EDGE_JOB_HELD, find(1)->state);
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 4);
	EXPECT_EQ((u32)EDGE_JOB_REJECTED, C.state[1]);
	EXPECT_EQ(1ULL, C.cp->st.rejected);
	/* 3 came before 2: it runs first. */
	EXPECT_EQ((u32)EDGE_JOB_DONE, C.state[3]);
	EXPECT_EQ((u32)EDGE_JOB_DONE, C.state[2]);
	EXPECT_LT(C.done_at[3], C.done_at[2]);
	cp_fini();
}

/*
 * Baymax admits by the offline profile: a kernel measured 100 times
 * slower than its profile (a burst long gone, say) does not refuse a job
 * that the offline profile says fits.  LAX, which measures, refuses it.
 */
static u32 admitted_against_a_bad_measure(struct __test_metadata *_metadata,
					  u32 pol)
{
	u16 k[1] = { 0 };
	u32 rejected;

	cp_init(_metadata, pol);
	cp_class(_metadata, 0, 8, 10);
	measured(0, 1000);
	ASSERT_EQ(0, cp_submit(0, 0, 200 * US, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 1);
	rejected = C.state[0] == EDGE_JOB_REJECTED;
	cp_fini();
	return !rejected;
}

TEST(bay_admits_by_the_offline_profile)
{
	EXPECT_EQ(1U, admitted_against_a_bad_measure(_metadata, EDGE_POL_BAY));
	EXPECT_EQ(0U, admitted_against_a_bad_measure(_metadata, EDGE_POL_LAX));
}

/*
 * LAX-SW ranks a job once, at admission, by the laxity it estimated
 * then (deadline - estimate - waited), and never again: the tighter
 * deadline first, the rank unchanged by time.
 */
TEST(laxsw_static_rank_by_laxity_at_admission)
{
	u16 blocker[1] = { 0 }, k[1] = { 1 };
	struct edge_cp_job *tight, *loose;
	u64 r;

	cp_init(_metadata, EDGE_POL_LAX_SW);
	cp_class(_metadata, 0, 8, 100);
	cp_class(_metadata, 1, 8, 10);
	ASSERT_EQ(0, cp_submit(0, 0, 10000 * US, 1, blocker));
	go(_metadata, 20);
	ASSERT_EQ(0, cp_submit(1, 1, 3000 * US, 1, k));
	ASSERT_EQ(0, cp_submit(2, 2, 900 * US, 1, k));
	go(_metadata, 40);
	loose = find(1);
	tight = find(2);
	ASSERT_NE(NULL, loose);
	ASSERT_NE(NULL, tight);
	ASSERT_TRUE(edge_cp_admitted(loose));
	ASSERT_TRUE(edge_cp_admitted(tight));
	EXPECT_LT(tight->rank, loose->rank);
	/* About the deadline less 10 us and the CP's few us. */
	EXPECT_GT(tight->rank, 850 * US);
	EXPECT_LT(tight->rank, 900 * US);
	EXPECT_GT(loose->rank - tight->rank, 2000 * US);
	r = tight->rank;
	go(_metadata, 101);	/* a tick at 100 us went by */
	EXPECT_EQ(r, tight->rank);
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 3);
	EXPECT_LT(C.done_at[2], C.done_at[1]);
	cp_fini();
}

/*
 * Algorithm 1 counts the CP's own time as processor sharing: a job of 10
 * launches beside one with a single launch left waits for 10 + 1 of
 * them, not 10 + 10.  Here nothing else delays it (the other job's GPU
 * time fits beside it): admitted iff 100 us + 11 x 500 ns < deadline.
 */
TEST(lax_cp_time_is_shared)
{
	struct edge_cp_job *j;
	u64 hold;

	cp_init(_metadata, EDGE_POL_LAX);
	cp_class(_metadata, 0, 1, 10);	/* one WG: 1/8 of the GPU */
	ASSERT_EQ(500U, C.cp->cfg.parse_ns);
	job(0, 0, 100000, 0, 1);		/* admitted, 1 launch left */
	j = job(1, 0, 0, 0, 10);	/* being inspected */
	j->state = EDGE_JOB_PARSE;
	j->deadline = 100 * US + 11 * 500 + 1;
	EXPECT_TRUE(edge_lax_admits(C.cp, j, false, &hold));
	EXPECT_EQ(100 * US, hold);
	j->deadline = 100 * US + 11 * 500;
	EXPECT_FALSE(edge_lax_admits(C.cp, j, false, &hold));
	fini();
}

/* A job is late past its deadline, not at it: its own latency is met. */
static bool met_with(struct __test_metadata *_metadata, u64 deadline,
		     u64 *latency)
{
	u16 k[1] = { 0 };
	bool met;

	cp_init(_metadata, EDGE_POL_RR);
	cp_class(_metadata, 0, 8, 10);
	ASSERT_EQ(0, cp_submit(0, 0, deadline, 1, k));
	cp_run(_metadata, EDGE_TIME_NEVER - 1);
	cp_all_accounted(_metadata, 1);
	EXPECT_EQ((u32)EDGE_JOB_DONE, C.state[0]);
	met = C.met[0];
	*latency = C.done_at[0];
	EXPECT_EQ(met ? 1ULL : 0ULL, C.cp->st.met);
	cp_fini();
	return met;
}

TEST(job_met_at_its_deadline)
{
	u64 lat, l2;

	EXPECT_TRUE(met_with(_metadata, 1000 * US, &lat));
	EXPECT_GT(lat, 10 * US);
	EXPECT_TRUE(met_with(_metadata, lat, &l2));
	EXPECT_EQ(lat, l2);
	EXPECT_FALSE(met_with(_metadata, lat - 1, &l2));
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs through the device model (emul/model.c) as drv/ submits them: the
 * model owns a command processor, jobs name EKT ids their owner
 * registered, the CP admits (or refuses) and runs their kernels through
 * the SIMT model, and every submitted job ends exactly once, DONE,
 * REJECTED or CANCELLED, through the model's job_notify.
 */
#include "emul_test.h"
#include "model.h"
#include "limits.h"

#define PAGE	4096U
#define MAX_ENDS	4096U
#define NIDS		((u32)EDGE_EKT_ENTRIES)

static struct edge_job_end ends[MAX_ENDS];
static void *end_owner[MAX_ENDS];
static u32 nends;

static void rec_job(void *owner, const struct edge_job_end *e)
{
	if (nends < MAX_ENDS) {
		ends[nends] = *e;
		end_owner[nends] = owner;
	}
	nends++;
}

static void no_notify(void *owner, u32 id)
{
	(void)owner;
	(void)id;
}

static int owner_a, owner_b;
static u32 *db_page;
static void *ring_mem[8192];
static u32 nring_mem;

static void jm_init(struct __test_metadata *_metadata, struct edge_model *m)
{
	db_page = calloc(1, PAGE);
	ASSERT_NE(NULL, db_page);
	ASSERT_EQ(0, edge_model_init(m, edge_p(), no_notify));
	m->job_notify = rec_job;
	nends = 0;
	nring_mem = 0;
}

static void jm_fini(struct edge_model *m)
{
	u32 i;

	edge_model_fini(m);
	for (i = 0; i < nring_mem; i++)
		free(ring_mem[i]);
	free(db_page);
	db_page = NULL;
}

/* Register a TB kernel: @tbs TBs of @threads threads, @ns per TB. */
static u32 jm_reg(struct __test_metadata *_metadata, struct edge_model *m,
		  void *owner, u32 tbs, u32 threads, u64 ns)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_ring_mem mem;
	struct edge_kdesc k;
	u32 id = ~0U;

	r.func = EDGE_FN_NOP;
	r.grid_x = tbs;
	r.block_x = threads;
	r.ring_entries = 4;
	r.warp_cycles = ns * 7 / 10;	/* 700 MHz */
	if (edge_validate_register(edge_p(), &r, &k))
		return ~0U;
	memset(&mem, 0, sizeof(mem));	/* no doorbell summary */
	edge_ring_layout(r.ring_entries, r.param_size, PAGE, &mem.layout);
	mem.doorbells = db_page;
	if (nring_mem + 2 > sizeof(ring_mem) / sizeof(ring_mem[0]))
		return ~0U;
	mem.sq = calloc(1, mem.layout.sq_size);
	mem.cq = calloc(1, mem.layout.cq_size);
	ring_mem[nring_mem++] = mem.sq;
	ring_mem[nring_mem++] = mem.cq;
	if (!mem.sq || !mem.cq)
		return ~0U;
	if (edge_model_register(m, &k, &mem, owner, &id))
		return ~0U;
	return id;
}

static int jm_submit(struct edge_model *m, void *owner, u32 queue,
		     u64 deadline, const u16 *kern, u32 n, u64 user_data,
		     u64 *id)
{
	struct edge_model_jobdesc d = {
		.queue = queue,
		.deadline_ns = deadline,
		.nr_kernels = n,
		.kernels = kern,
		.user_data = user_data,
	};

	return edge_model_submit_job(m, owner, &d, id);
}

static void run_all(struct edge_model *m)
{
	edge_model_run_until(m, EDGE_TIME_NEVER);
}

/* Every submitted job has ended, once, and the counters agree. */
static void expect_job_accounting(struct __test_metadata *_metadata,
				  const struct edge_model *m)
{
	u32 i, done = 0, met = 0, rej = 0, can = 0;

	EXPECT_TRUE(edge_cp_idle(m->cp));
	EXPECT_EQ(m->st.jobs_submitted, (u64)nends);
	EXPECT_EQ(m->st.jobs_submitted, m->st.jobs_done +
		  m->st.jobs_rejected + m->st.jobs_cancelled);
	for (i = 0; i < nends && i < MAX_ENDS; i++) {
		done += ends[i].status == EDGE_CQE_DONE;
		met += ends[i].met;
		rej += ends[i].status == EDGE_CQE_REJECTED;
		can += ends[i].status == EDGE_CQE_CANCELLED;
		/* Only a DONE job can have met its deadline. */
		if (ends[i].met)
			EXPECT_EQ((u32)EDGE_CQE_DONE, ends[i].status);
	}
	EXPECT_EQ(m->st.jobs_done, (u64)done);
	EXPECT_EQ(m->st.jobs_met, (u64)met);
	EXPECT_EQ(m->st.jobs_rejected, (u64)rej);
	EXPECT_EQ(m->st.jobs_cancelled, (u64)can);
	/* The CP's own books say the same. */
	EXPECT_EQ(m->cp->st.submitted, m->st.jobs_submitted);
	EXPECT_EQ(m->cp->st.done, m->st.jobs_done);
	EXPECT_EQ(m->cp->st.rejected, m->st.jobs_rejected);
	/* LAX-P's drops past the deadline end CANCELLED too. */
	EXPECT_EQ(m->cp->st.cancelled + m->cp->st.dropped,
		  m->st.jobs_cancelled);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		EXPECT_EQ(0U, m->job_refs[i]);
}

/* Jobs run to the end, in virtual time, with their ids and user data. */
TEST(jobs_run_and_complete)
{
	struct edge_model m;
	u16 kern[3];
	u64 id, ids[10];
	u32 a, b, i;

	jm_init(_metadata, &m);
	a = jm_reg(_metadata, &m, &owner_a, 32, 256, 10000);
	b = jm_reg(_metadata, &m, &owner_a, 4, 64, 3000);
	ASSERT_GT(NIDS, a);
	ASSERT_GT(NIDS, b);
	kern[0] = a;
	kern[1] = b;
	kern[2] = a;
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i, 10000000, kern, 3,
				       100 + i, &ids[i]));
		EXPECT_EQ(i + 1, ids[i]);
	}
	/* An entry a job names is busy until the job ends. */
	EXPECT_EQ(-EBUSY, edge_model_unregister(&m, b, &owner_a));
	/* Counted once per job, however often the job names it. */
	EXPECT_EQ(10U, m.job_refs[b]);
	EXPECT_EQ(10U, m.job_refs[a]);
	run_all(&m);
	ASSERT_EQ(10U, nends);
	for (i = 0; i < 10; i++) {
		EXPECT_EQ((u32)EDGE_CQE_DONE, ends[i].status);
		EXPECT_TRUE(ends[i].met);
		EXPECT_EQ(ends[i].id + 99, ends[i].user_data);
		/* Three kernels, one after the other: 23 us at least. */
		EXPECT_GE(ends[i].latency_ns, 23000ULL);
		EXPECT_EQ(&owner_a, end_owner[i]);
	}
	EXPECT_EQ(10ULL, m.st.jobs_met);
	expect_job_accounting(_metadata, &m);
	/* The SIMT model ran them as TB kernels, not through the rings. */
	EXPECT_EQ(0ULL, m.st.submitted);
	EXPECT_EQ(0U, m.inflight);
	EXPECT_EQ(0, edge_model_unregister(&m, b, &owner_a));
	/* An id that is gone is no longer a kernel of any job. */
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 1000, kern, 3, 0, &id));
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/* Bad jobs fail at submission and change nothing. */
TEST(jobs_bad_input_changes_nothing)
{
	static u16 many[EDGE_CP_JOB_KERNELS + 1];
	struct edge_model m;
	u16 kern[EDGE_CP_JOB_CLASSES + 1];
	u32 a, f, i;
	u64 id = 77;

	jm_init(_metadata, &m);
	a = jm_reg(_metadata, &m, &owner_a, 8, 128, 1000);
	f = jm_reg(_metadata, &m, &owner_b, 8, 128, 1000);
	ASSERT_GT(NIDS, a);
	ASSERT_GT(NIDS, f);
	kern[0] = a;
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, EDGE_CP_QUEUES, 1000, kern,
				     1, 0, &id));
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 0, kern, 1, 0, &id));
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 1000, kern, 0, 0, &id));
	for (i = 0; i < EDGE_CP_JOB_KERNELS + 1; i++)
		many[i] = a;
	EXPECT_EQ(-E2BIG, jm_submit(&m, &owner_a, 0, 1000, many,
				    EDGE_CP_JOB_KERNELS + 1, 0, &id));
	/* Another file's entry, an unused id, one past the table. */
	kern[0] = f;
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 1000, kern, 1, 0, &id));
	kern[0] = 40;
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 1000, kern, 1, 0, &id));
	kern[0] = EDGE_EKT_ENTRIES;
	EXPECT_EQ(-EINVAL, jm_submit(&m, &owner_a, 0, 1000, kern, 1, 0, &id));
	/* More distinct kernels than a job's class list holds. */
	for (i = 0; i <= EDGE_CP_JOB_CLASSES; i++) {
		u32 k = jm_reg(_metadata, &m, &owner_a, 8, 128, 1000);

		ASSERT_GT(NIDS, k);
		kern[i] = k;
	}
	EXPECT_EQ(-E2BIG, jm_submit(&m, &owner_a, 0, 1000, kern,
				    EDGE_CP_JOB_CLASSES + 1, 0, &id));
	EXPECT_EQ(77ULL, id);
	EXPECT_EQ(0ULL, m.st.jobs_submitted);
	EXPECT_EQ(0ULL, m.cp->st.submitted);
	EXPECT_EQ(0ULL, m.job_seq);
	EXPECT_TRUE(edge_cp_idle(m.cp));
	for (i = 0; i < EDGE_EKT_ENTRIES; i++)
		EXPECT_EQ(0U, m.job_refs[i]);
	EXPECT_EQ(EDGE_TIME_NEVER, edge_model_next_time(&m));
	EXPECT_EQ(0U, nends);

	/* A full job table: -EBUSY, and the jobs before it still run. */
	kern[0] = a;
	for (i = 0; i < EDGE_CP_JOBS; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % EDGE_CP_QUEUES,
				       1000000000, kern, 1, i, &id));
	EXPECT_EQ(-EBUSY, jm_submit(&m, &owner_a, 0, 1000, kern, 1, 0, &id));
	EXPECT_EQ((u64)EDGE_CP_JOBS, m.st.jobs_submitted);
	run_all(&m);
	EXPECT_EQ((u64)EDGE_CP_JOBS, m.st.jobs_done);
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/*
 * LAX admission: once the CP has measured the kernel, a burst that the
 * GPU cannot finish by the deadline is mostly refused, and every job
 * still ends once.
 */
TEST(jobs_lax_rejects_burst)
{
	struct edge_model m;
	u32 a, i, done = 0, rej = 0;
	u16 kern[2];
	u64 id;

	jm_init(_metadata, &m);
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("lax")));
	/* 256 TBs of 256 threads fill the GPU twice: ~20 us a kernel. */
	a = jm_reg(_metadata, &m, &owner_a, 256, 256, 10000);
	ASSERT_GT(NIDS, a);
	kern[0] = a;
	kern[1] = a;
	/* Warm-up: LAX's estimates then come from a measured kernel. */
	ASSERT_EQ(0, jm_submit(&m, &owner_a, 0, 1000000000, kern, 2, 0, &id));
	run_all(&m);
	ASSERT_EQ(1U, nends);
	EXPECT_EQ((u32)EDGE_CQE_DONE, ends[0].status);
	EXPECT_NE(0ULL, m.cp->cls[a].lat_ns);

	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % EDGE_CP_QUEUES, 200000,
				       kern, 2, i, &id));
	run_all(&m);
	ASSERT_EQ(101U, nends);
	for (i = 1; i < nends; i++) {
		done += ends[i].status == EDGE_CQE_DONE;
		rej += ends[i].status == EDGE_CQE_REJECTED;
		/* Refused at inspection: no time on the GPU. */
		if (ends[i].status == EDGE_CQE_REJECTED)
			EXPECT_LT(ends[i].latency_ns, 100000ULL);
	}
	EXPECT_EQ(100U, done + rej);
	EXPECT_GT(rej, 50U);
	EXPECT_GT(done, 0U);
	expect_job_accounting(_metadata, &m);

	/* The same burst under EDF: no admission, nothing refused. */
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("edf")));
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % EDGE_CP_QUEUES, 200000,
				       kern, 2, i, &id));
	run_all(&m);
	EXPECT_EQ((u64)rej, m.st.jobs_rejected);
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/*
 * One batch of long and short jobs (one kernel each, every kernel fills
 * the GPU), submitted at one instant, longs first; returns the sum of
 * the short jobs' positions in the completion order (0 + 1 + 2 + 3 when
 * they end first, 4 + 5 + 6 + 7 when last).
 */
static u32 short_positions(struct __test_metadata *_metadata,
			   struct edge_model *m, u32 kl, u32 ks, u32 first_end)
{
	u16 longk[1] = { kl }, shortk[1] = { ks };
	u32 i, pos = 0;
	u64 id;

	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, jm_submit(m, &owner_a, i, 1000000000, longk, 1,
				       1, &id));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, jm_submit(m, &owner_a, 4 + i, 1000000000, shortk,
				       1, 0, &id));
	run_all(m);
	EXPECT_EQ(first_end + 8, nends);
	for (i = first_end; i < nends; i++)
		if (!ends[i].user_data)
			pos += i - first_end;
	return pos;
}

/* The policy switched on a running model orders the next jobs by it. */
TEST(jobs_policy_switch_takes_effect)
{
	struct edge_model m;
	u32 kl, ks, rr, sjf, rr2;

	jm_init(_metadata, &m);
	kl = jm_reg(_metadata, &m, &owner_a, 128, 256, 40000);
	ks = jm_reg(_metadata, &m, &owner_a, 128, 256, 5000);
	ASSERT_GT(NIDS, kl);
	ASSERT_GT(NIDS, ks);
	rr = short_positions(_metadata, &m, kl, ks, 0);
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("sjf")));
	EXPECT_STREQ("sjf", edge_cp_policy_name(edge_model_policy(&m)));
	sjf = short_positions(_metadata, &m, kl, ks, 8);
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("rr")));
	rr2 = short_positions(_metadata, &m, kl, ks, 16);
	TH_LOG("short jobs' completion positions: rr %u sjf %u rr again %u",
	       rr, sjf, rr2);
	/* In turn: the longs, launched first, end first. */
	EXPECT_EQ(4U + 5 + 6 + 7, rr);
	/* Shortest first: only the long already on the GPU ends before. */
	EXPECT_GE(1U + 2 + 3 + 4, sjf);
	EXPECT_EQ(rr, rr2);
	EXPECT_EQ(-EINVAL, edge_model_set_policy(&m, EDGE_POL_NR));
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/*
 * Prophet holds jobs until the GPU has room, and only it admits them: a
 * switch away from it re-inspects the held jobs under the new policy
 * (they, and the jobs queued behind them, would otherwise wait forever).
 */
TEST(jobs_held_survive_policy_switch)
{
	struct edge_model m;
	u32 k, i, n = 0;
	u16 kern[1];
	u64 id;

	jm_init(_metadata, &m);
	/* 256 TBs of 256 threads: twice what the GPU holds. */
	k = jm_reg(_metadata, &m, &owner_a, 256, 256, 50000);
	ASSERT_GT(NIDS, k);
	kern[0] = k;
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("pro")));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % 2, 1000000000, kern,
				       1, i, &id));
	/* Inspected, not yet done: one runs, the others are held. */
	edge_model_run_until(&m, edge_model_now(&m) + 10000);
	for (i = 0; i < EDGE_CP_JOBS; i++)
		n += m.cp->jobs[i].state == EDGE_JOB_HELD;
	EXPECT_EQ(1U, n);
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("rr")));
	/* Bounded: a stuck job keeps the CP ticking for ever. */
	for (i = 0; i < 1000 && !edge_cp_idle(m.cp); i++)
		edge_model_run_until(&m, edge_model_now(&m) + 1000000);
	EXPECT_TRUE(edge_cp_idle(m.cp));
	EXPECT_EQ(4ULL, m.st.jobs_done);
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/* Teardown cancels: a file's jobs, an entry's jobs, the model's. */
TEST(jobs_cancel_on_teardown)
{
	struct edge_model m;
	u16 ka[2], kb[1];
	u32 a, a2, b, i, can_a = 0, done_b = 0;
	u64 id;

	jm_init(_metadata, &m);
	a = jm_reg(_metadata, &m, &owner_a, 128, 256, 50000);
	a2 = jm_reg(_metadata, &m, &owner_a, 16, 256, 5000);
	b = jm_reg(_metadata, &m, &owner_b, 128, 256, 20000);
	ASSERT_GT(NIDS, a);
	ASSERT_GT(NIDS, a2);
	ASSERT_GT(NIDS, b);
	ka[0] = a;
	ka[1] = a2;
	kb[0] = b;
	/* Some waiting behind others on one queue, some on their own. */
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % 3, 1000000000, ka, 2,
				       i, &id));
		ASSERT_EQ(0, jm_submit(&m, &owner_b, 3 + i % 2, 1000000000, kb,
				       1, i, &id));
	}
	/* Part way: kernels in flight, jobs queued. */
	edge_model_run_until(&m, edge_model_now(&m) + 30000);
	EXPECT_EQ(0U, nends);
	EXPECT_EQ(6U, edge_model_cancel_jobs(&m, &owner_a));
	EXPECT_EQ(6U, nends);
	for (i = 0; i < nends; i++) {
		EXPECT_EQ(&owner_a, end_owner[i]);
		can_a += ends[i].status == EDGE_CQE_CANCELLED;
	}
	EXPECT_EQ(6U, can_a);
	EXPECT_EQ(0U, m.job_refs[a]);
	EXPECT_EQ(0U, m.job_refs[a2]);
	EXPECT_EQ(0, edge_model_unregister(&m, a, &owner_a));
	/* The other file's jobs are untouched and run to the end. */
	run_all(&m);
	for (i = 6; i < nends; i++)
		done_b += ends[i].status == EDGE_CQE_DONE &&
			  end_owner[i] == &owner_b;
	EXPECT_EQ(6U, done_b);
	expect_job_accounting(_metadata, &m);

	/* Cancelling an entry (its file went) takes the jobs naming it. */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_b, i, 1000000000, kb, 1, i,
				       &id));
	edge_model_run_until(&m, edge_model_now(&m) + 5000);
	edge_model_cancel(&m, b);
	EXPECT_EQ(15U, nends);
	EXPECT_EQ(9ULL, m.st.jobs_cancelled);
	expect_job_accounting(_metadata, &m);

	/* And the model's end cancels whatever is left. */
	kb[0] = a2;
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, 7, 1000000000, kb, 1, i,
				       &id));
	edge_model_run_until(&m, edge_model_now(&m) + 2000);
	jm_fini(&m);
	EXPECT_EQ(20U, nends);
	for (i = 15; i < 20; i++)
		EXPECT_EQ((u32)EDGE_CQE_CANCELLED, ends[i].status);
	EXPECT_NO_LEAKS();
}

/* Jobs and ring events share the SIMT model; neither starves the other. */
TEST(jobs_beside_ring_events)
{
	struct edge_model m;
	u32 a, i;
	u16 kern[1];
	u64 id;

	jm_init(_metadata, &m);
	a = jm_reg(_metadata, &m, &owner_a, 1, 32, 2000);
	ASSERT_GT(NIDS, a);
	/* A one-warp entry runs in a job as a TB kernel of two warps. */
	EXPECT_EQ(2U, m.cp->cls[a].k.warps_per_tb);
	kern[0] = a;
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i, 1000000000, kern, 1, i,
				       &id));
	/* Ring the entry's doorbell too: its events run as event warps. */
	db_page[a] = 3;
	EXPECT_EQ(3U, edge_model_poll(&m));
	run_all(&m);
	EXPECT_EQ(3ULL, m.st.completed);
	EXPECT_EQ(20ULL, m.st.jobs_done);
	EXPECT_EQ(0U, m.inflight);
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

/*
 * Random interleavings of what the ioctls and release() do: submit,
 * register, unregister, cancel a file's jobs or an entry, switch the
 * policy, step time.  Every job ends exactly once, whatever state it was
 * in, and the books balance at every step.
 */
TEST(jobs_random_ops)
{
	static u8 seen[1u << 16];
	void *owners[2] = { &owner_a, &owner_b };
	u32 ids[2][8], nids[2] = { 0, 0 };
	struct emul_rng r;
	struct edge_model m;
	u32 step, i, seed;
	u64 id, sub = 0;

	for (seed = 1; seed <= 4; seed++) {
		emul_rng_seed(&r, seed);
		memset(seen, 0, sizeof(seen));
		nids[0] = 0;
		nids[1] = 0;
		sub = 0;
		jm_init(_metadata, &m);
		for (step = 0; step < 3000; step++) {
			u32 o = emul_rand_below(&r, 2), op = emul_rand_below(&r, 100);

			if (op < 8 && nids[o] < 8) {
				u32 k = jm_reg(_metadata, &m, owners[o],
					       1 + emul_rand_below(&r, 300),
					       32 * (1 + emul_rand_below(&r, 8)),
					       1000 + emul_rand_below(&r, 30000));

				if (k < NIDS)
					ids[o][nids[o]++] = k;
			} else if (op < 60 && nids[o]) {
				u16 kern[12];
				u32 n = 1 + emul_rand_below(&r, 12);
				int ret;

				for (i = 0; i < n; i++)
					kern[i] = ids[o][emul_rand_below(&r, nids[o])];
				ret = jm_submit(&m, owners[o],
						emul_rand_below(&r, 6),
						20000 + emul_rand_below(&r, 2000000),
						kern, n, 0, &id);
				ASSERT_TRUE(!ret || ret == -EBUSY) TH_LOG("%d", ret);
				if (!ret)
					sub++;
			} else if (op < 63 && nids[o]) {
				u32 j = emul_rand_below(&r, nids[o]);

				if (!edge_model_unregister(&m, ids[o][j], owners[o]))
					ids[o][j] = ids[o][--nids[o]];
			} else if (op < 64) {
				edge_model_cancel_jobs(&m, owners[o]);
			} else if (op < 65 && nids[o]) {
				u32 j = emul_rand_below(&r, nids[o]);

				edge_model_cancel(&m, ids[o][j]);
				ids[o][j] = ids[o][--nids[o]];
			} else if (op < 70) {
				ASSERT_EQ(0, edge_model_set_policy(&m,
					emul_rand_below(&r, EDGE_POL_NR)));
			} else {
				edge_model_run_until(&m, edge_model_now(&m) +
						     emul_rand_below(&r, 20000));
			}
			ASSERT_EQ(sub, m.st.jobs_submitted);
			ASSERT_GE(m.st.jobs_submitted, (u64)nends);
			ASSERT_EQ((u64)nends, m.st.jobs_done +
				  m.st.jobs_rejected + m.st.jobs_cancelled);
		}
		run_all(&m);
		expect_job_accounting(_metadata, &m);
		/* Each id ended once. */
		for (i = 0; i < nends && i < MAX_ENDS; i++) {
			ASSERT_GT(1u << 16, ends[i].id);
			EXPECT_EQ(0, seen[ends[i].id]++);
		}
		TH_LOG("seed %u: %llu jobs, %llu done (%llu met), %llu rejected, %llu cancelled",
		       seed, (unsigned long long)m.st.jobs_submitted,
		       (unsigned long long)m.st.jobs_done,
		       (unsigned long long)m.st.jobs_met,
		       (unsigned long long)m.st.jobs_rejected,
		       (unsigned long long)m.st.jobs_cancelled);
		jm_fini(&m);
	}
	EXPECT_NO_LEAKS();
}

/*
 * The model's trace points through the user-space hook (EDGE_TRACE()):
 * each names the model's engine, and their counts equal the model's own
 * counters, as the kernel's tracepoints do against sysfs
 * (selftests/edge/edge_trace_test.c).
 */
static u64 tp_count[EDGE_TP_NR], tp_sum[EDGE_TP_NR];
static const struct edge_engine *tp_eng;
static u32 tp_wrong_eng;

static void count_tp(const struct edge_engine *eng, u32 tp, u64 a, u64 b,
		     u64 c)
{
	(void)a;
	(void)c;
	if (eng != tp_eng || tp >= EDGE_TP_NR) {
		tp_wrong_eng++;
		return;
	}
	tp_count[tp]++;
	/* The doorbell's events, a job met, a completion's status. */
	tp_sum[tp] += b;
}

TEST(jobs_trace_hook_counts)
{
	struct edge_model m;
	u32 a, e, i;
	u16 kern[2];
	u64 id;

	jm_init(_metadata, &m);
	memset(tp_count, 0, sizeof(tp_count));
	memset(tp_sum, 0, sizeof(tp_sum));
	tp_wrong_eng = 0;
	tp_eng = &m.eng;
	edge_trace_hook = count_tp;
	ASSERT_EQ(0, edge_model_set_policy(&m, edge_cp_policy_find("lax")));
	a = jm_reg(_metadata, &m, &owner_a, 256, 256, 10000);
	e = jm_reg(_metadata, &m, &owner_a, 1, 32, 2000);
	ASSERT_GT(NIDS, a);
	ASSERT_GT(NIDS, e);
	kern[0] = a;
	kern[1] = a;
	ASSERT_EQ(0, jm_submit(&m, &owner_a, 0, 1000000000, kern, 2, 0, &id));
	run_all(&m);
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, jm_submit(&m, &owner_a, i % EDGE_CP_QUEUES, 200000,
				       kern, 2, i, &id));
	db_page[e] = 3;
	EXPECT_EQ(3U, edge_model_poll(&m));
	run_all(&m);
	edge_trace_hook = NULL;

	EXPECT_EQ(0U, tp_wrong_eng);
	EXPECT_EQ(1ULL, tp_count[EDGE_TP_POLICY]);
	EXPECT_EQ(1ULL, tp_count[EDGE_TP_DOORBELL]);
	EXPECT_EQ(m.st.submitted, tp_sum[EDGE_TP_DOORBELL]);
	EXPECT_EQ(m.st.submitted, tp_count[EDGE_TP_DISPATCH]);
	EXPECT_EQ(m.st.completed + m.st.errors, tp_count[EDGE_TP_COMPLETE]);
	EXPECT_EQ(m.simt.st.tbs_dispatched, tp_count[EDGE_TP_TB_PLACE]);
	EXPECT_EQ(m.simt.st.preemptions + m.simt.st.tb_preemptions,
		  tp_count[EDGE_TP_PREEMPT]);
	EXPECT_GT(m.st.jobs_rejected, 50ULL);
	EXPECT_EQ(m.st.jobs_rejected, tp_count[EDGE_TP_JOB_REJECT]);
	EXPECT_EQ(m.st.jobs_done, tp_count[EDGE_TP_JOB_DONE]);
	EXPECT_EQ(m.st.jobs_met, tp_sum[EDGE_TP_JOB_DONE]);
	EXPECT_EQ(m.st.jobs_done, tp_count[EDGE_TP_JOB_ADMIT]);
	expect_job_accounting(_metadata, &m);
	jm_fini(&m);
	EXPECT_NO_LEAKS();
}

TEST_HARNESS_MAIN

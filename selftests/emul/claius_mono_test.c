// SPDX-License-Identifier: GPL-2.0
/*
 * C-Laius (emul/policy/claius.c), a property on generated workloads: a
 * looser QoS target never adds a violation.  Each mix is one service (a
 * chain of 4 - 8 tasks of random grids, block times, memory shares and
 * bandwidths) beside two instances of one batch kernel (1024-thread
 * blocks, compute- to memory-bound), drawn from a seeded generator; none
 * is one of the reproduction's apps.  Its predictor is built as
 * edge-sim's is (every task alone at every 10 % quota, on the model); its
 * queries arrive at about four times its time alone, as in the
 * reproduction, with input sizes of 60, 100 or 140 % of its grids.  For
 * each mix C-Laius runs at a ladder of target multiples (of the service's
 * time alone on the whole GPU); once a multiple meets the target at every
 * query, every looser one must too.
 *
 * What broke it (seen failing): the compensator rolled a query back to
 * its first quota q0 as soon as the tasks done were no longer behind
 * their plan at q0, although the raised tasks still ran late against
 * their own predictions; the next tasks, at q0 again, spent the slack
 * the raise had bought, and the lag came back where only tasks that do
 * not scale were left.  A looser target starts lower (a smaller q0), so
 * it oscillates more: face+MD missed at 3.0 x and met at 2.75 and 3.4 x
 * (Documentation/results/claius/README.rst, "Monotone in the target").
 */
#include "emul_test.h"
#include "gpu/simt.h"

#define MIX_TASKS	8
#define MIX_SIZES	3
#define MIX_QUERIES	10
#define MIX_BATCH	2

static const u32 size_pct[MIX_SIZES] = { 60, 100, 140 };

struct mix {
	u32 n;				/* service tasks */
	struct edge_kdesc k[MIX_TASKS];
	struct edge_kdesc b;		/* the batch kernel */
	struct edge_task_prof prof[MIX_SIZES][MIX_TASKS];
	struct edge_task_prof bprof;
	u64 alone;			/* the service's mean time, whole GPU */
};

static struct edge_kdesc mk(const struct edge_preset *p, u32 tbs, u32 threads,
			    u32 us, u32 mem, u32 bw, u32 corun)
{
	struct edge_kdesc k;

	memset(&k, 0, sizeof(k));
	k.func = EDGE_FN_NOP;
	k.grid[0] = tbs;
	k.grid[1] = 1;
	k.grid[2] = 1;
	k.block[0] = threads;
	k.block[1] = 1;
	k.block[2] = 1;
	k.num_tbs = tbs;
	k.block_threads = threads;
	k.warps_per_tb = threads / p->warp_size;
	k.param_size = 8;
	k.ring_entries = 1;
	k.warp_cycles = (u64)us * p->clock_khz / 1000;
	k.ws.mem_pct = mem;
	k.ws.corun_pct = corun;
	k.ws.rsd_pct = 5;
	k.mem_bw_mbs = bw;
	return k;
}

static void gen(struct mix *m, const struct edge_preset *p, u64 seed)
{
	struct edge_rng r;
	u32 t;

	edge_rng_seed(&r, seed);
	memset(m, 0, sizeof(*m));
	m->n = 4 + edge_rng_below(&r, 5);
	for (t = 0; t < m->n; t++) {
		/* Grids shrink along the chain, as a network's layers do. */
		u32 tbs = (17 + edge_rng_below(&r, 256)) * (m->n - t) / m->n + 8;

		m->k[t] = mk(p, tbs, 256, 150 + edge_rng_below(&r, 750),
			     30 + edge_rng_below(&r, 31),
			     600 + edge_rng_below(&r, 700),
			     10 + edge_rng_below(&r, 6));
		m->k[t].task = t + 1;
	}
	m->b = mk(p, 68 + edge_rng_below(&r, 69), 1024,
		  600 + edge_rng_below(&r, 700), 15 + edge_rng_below(&r, 61),
		  2000 + edge_rng_below(&r, 34000), 10 + edge_rng_below(&r, 26));
	m->b.task = 1;
}

/* The simulation of one run: the rig's callback only counts completions. */
struct sim {
	struct edge_engine eng;
	struct edge_simt s;
	u32 task[1 + 1 + MIX_BATCH];	/* running task, 0 idle */
	u32 size;
	u64 arrival[MIX_QUERIES];
	u32 head, tail;			/* queries arrived, finished */
	u64 next;			/* next arrival */
	u64 pcie_end;
	u64 worst;			/* the largest latency */
	u64 d;				/* profile: the run's end */
};

static struct sim S;
static const struct mix *M;

static void launch_one(u32 app)
{
	struct edge_kdesc k = app == 1 ? M->k[S.task[1] - 1] : M->b;

	k.app = app;
	if (app == 1) {
		k.num_tbs = k.num_tbs * size_pct[S.size] / 100;
		if (!k.num_tbs)
			k.num_tbs = 1;
		k.grid[0] = (u32)k.num_tbs;
	}
	edge_simt_launch_deferred(&S.s, &k, (u64)app << 32 | S.task[app], app);
}

static void on_done(void *ctx, u64 cookie, u32 code)
{
	u32 app = (u32)(cookie >> 32), t = (u32)cookie;

	(void)ctx;
	if (code != EDGE_CQE_DONE)
		return;
	if (app != 1) {
		launch_one(app);
		return;
	}
	if (t < M->n) {
		S.task[1] = t + 1;
		launch_one(1);
		return;
	}
	S.task[1] = 0;
	if (S.eng.now - S.arrival[S.tail] > S.worst)
		S.worst = S.eng.now - S.arrival[S.tail];
	S.tail++;
	S.pcie_end = EDGE_TIME_NEVER;
}

static void on_prof(void *ctx, u64 cookie, u32 code)
{
	(void)ctx;
	(void)cookie;
	(void)code;
	S.d = S.eng.now;
}

static void sim_init(struct __test_metadata *_metadata, const char *policy,
		     edge_simt_done_fn done)
{
	struct edge_simt_cfg cfg;
	int id = edge_tb_policy_find(policy);

	ASSERT_LE(0, id);
	memset(&S, 0, sizeof(S));
	edge_engine_init(&S.eng);
	edge_simt_default_cfg(&cfg);
	cfg.tb_policy = (u32)id;
	ASSERT_EQ(0, edge_simt_init(&S.s, edge_preset_find("rtx2080ti"), &S.eng,
				    &cfg, done, NULL));
}

static void sim_fini(void)
{
	edge_simt_fini(&S.s);
	edge_engine_fini(&S.eng);
}

/* The predictor's sample: @k alone at quota step @q. */
static void profile(struct __test_metadata *_metadata, struct edge_kdesc k,
		    u32 q, struct edge_task_prof *pr)
{
	struct edge_app ap;
	struct edge_ev ev;

	sim_init(_metadata, "mps", on_prof);
	memset(&ap, 0, sizeof(ap));
	ap.nr_tasks = 1;
	ap.quota_pct = q * 10;
	ASSERT_EQ(0, edge_app_set(&S.s, 1, &ap));
	k.app = 1;
	ASSERT_EQ(0, edge_simt_launch(&S.s, &k, 1, 1));
	while (edge_engine_pop_due(&S.eng, edge_engine_next_time(&S.eng), &ev))
		edge_simt_handle(&S.s, &ev);
	pr->ns[q - 1] = S.d ? S.d : 1;
	pr->bw_mbs[q - 1] = edge_div64_64((u64)k.mem_bw_mbs *
					  edge_simt_done_tb_ns(&S.s), pr->ns[q - 1]);
	sim_fini();
}

static void predictor(struct __test_metadata *_metadata, struct mix *m)
{
	u32 t, z, q;
	u64 sum = 0;

	for (t = 0; t < m->n; t++)
		for (z = 0; z < MIX_SIZES; z++)
			for (q = 1; q <= EDGE_QUOTA_STEPS; q++) {
				struct edge_kdesc k = m->k[t];

				k.num_tbs = k.num_tbs * size_pct[z] / 100;
				if (!k.num_tbs)
					k.num_tbs = 1;
				k.grid[0] = (u32)k.num_tbs;
				profile(_metadata, k, q, &m->prof[z][t]);
				if (q == EDGE_QUOTA_STEPS)
					sum += m->prof[z][t].ns[q - 1];
			}
	for (q = 1; q <= EDGE_QUOTA_STEPS; q++)
		profile(_metadata, m->b, q, &m->bprof);
	m->alone = sum / MIX_SIZES;
}

/* C-Laius at a target of @mult_pct % of the time alone: worst / target. */
static u64 run(struct __test_metadata *_metadata, const struct mix *m,
	       u32 mult_pct, u64 seed)
{
	struct edge_rng arr, sz;
	struct edge_app ap;
	struct edge_ev ev;
	u64 target = m->alone * mult_pct / 100, gap = m->alone * 4;
	u32 i;

	M = m;
	sim_init(_metadata, "claius", on_done);
	edge_rng_seed(&arr, seed * 1000003);
	edge_rng_seed(&sz, seed * 7919);
	for (i = 1; i <= 1 + MIX_BATCH; i++) {
		memset(&ap, 0, sizeof(ap));
		ap.qos = i == 1;
		ap.nr_tasks = i == 1 ? m->n : 1;
		ap.chain_budget = target;
		if (i == 1)
			memcpy(ap.prof, m->prof[1], sizeof(m->prof[1]));
		else
			ap.prof[0] = m->bprof;
		ASSERT_EQ(0, edge_app_set(&S.s, i, &ap));
		if (i > 1) {
			S.task[i] = 1;
			launch_one(i);
		}
	}
	S.next = gap / 2 + edge_rng_below(&arr, (u32)gap);
	S.pcie_end = EDGE_TIME_NEVER;
	edge_simt_schedule(&S.s);
	while (S.tail < MIX_QUERIES) {
		u64 te = edge_engine_next_time(&S.eng);

		if (S.next <= te && S.next != EDGE_TIME_NEVER) {
			edge_engine_advance(&S.eng, S.next);
			S.arrival[S.head++] = S.next;
			S.next = S.head < MIX_QUERIES ?
				 S.next + gap / 2 + edge_rng_below(&arr, (u32)gap) :
				 EDGE_TIME_NEVER;
		} else {
			ASSERT_NE(EDGE_TIME_NEVER, te);
			ASSERT_TRUE(edge_engine_pop_due(&S.eng, te, &ev));
			ASSERT_TRUE(edge_simt_handle(&S.s, &ev));
		}
		/* The next query starts when the service is idle. */
		if (!S.task[1] && S.tail < S.head) {
			u64 waited = S.eng.now - S.arrival[S.tail];

			S.size = edge_rng_below(&sz, MIX_SIZES);
			ap = S.s.apps[1];
			memcpy(ap.prof, m->prof[S.size], sizeof(m->prof[S.size]));
			ap.chain_budget = target;
			ASSERT_EQ(0, edge_app_set(&S.s, 1, &ap));
			ASSERT_EQ(0, edge_app_chain_begin(&S.s, 1, target > waited ?
							  target - waited : 0));
			S.task[1] = 1;
			launch_one(1);
			edge_simt_schedule(&S.s);
		}
	}
	sim_fini();
	return edge_div64_64(S.worst * 1000, target);
}

/*
 * Multiples from 2 x (C-Laius's compensator reacts only once a task has
 * ended late: below about 2 x even the paper's own pairs miss) to 4 x.
 */
static const u32 ladder[] = { 200, 225, 250, 275, 300, 340, 400 };

static void mono(struct __test_metadata *_metadata, u32 i)
{
	static struct mix m;
	u32 j, met_at = 0, checked = 0;
	u64 w;

	gen(&m, edge_preset_find("rtx2080ti"), 0x6c61697573ULL + i);
	predictor(_metadata, &m);
	for (j = 0; j < ARRAY_SIZE(ladder); j++) {
		w = run(_metadata, &m, ladder[j], 1 + i);
		TH_LOG("mix %u (%u tasks, batch mem %u %% bw %u) at %u %%: worst %llu permille",
		       i, m.n, m.b.ws.mem_pct, m.b.mem_bw_mbs, ladder[j],
		       (unsigned long long)w);
		if (w <= 1000 && !met_at)
			met_at = ladder[j];
		if (met_at) {
			EXPECT_LE(w, 1000ULL)
				TH_LOG("mix %u: met at %u %%, missed at %u %%",
				       i, met_at, ladder[j]);
			checked++;
		}
	}
	/* Not vacuous: the mix meets its target from some multiple on. */
	EXPECT_LE(1U, checked);
}

/* One test a mix, each within the harness's 30 s under the sanitizers. */
#define MONO(_i)						\
TEST(claius_looser_target_never_adds_a_violation_##_i)	\
{								\
	mono(_metadata, _i);					\
}

MONO(0)
MONO(1)
MONO(2)
MONO(3)
MONO(4)
MONO(5)
MONO(6)
MONO(7)

TEST_HARNESS_MAIN

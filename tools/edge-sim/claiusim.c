// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim claius: user-facing services and batch applications sharing
 * a spatial-multitasking GPU (gpu/quota.c, gpu/membw.c) under one of the
 * spatial thread-block policies, for the C-Laius reproduction.
 *
 * A service answers queries: each is a PCIe transfer, then a chain of
 * tasks (kernels), one after the other; its latency runs from its
 * arrival (queries of one service queue behind each other) to its last
 * task's end.  Its QoS target is a fixed multiple of its p99 latency
 * alone on the GPU under the same arrivals.  A query's input size is one
 * of three classes, which scales its tasks' grids.  A batch application
 * runs its kernels back to back, forever.  The applications file format
 * is in Documentation/edge-sim.rst, "Spatial sharing".
 *
 * Before any run, every task of every application runs alone at each
 * quota step of 10 % (policy "mps"): the duration and the bandwidth it
 * demands make the predictor table that the policies read
 * (edge_app.prof).  Batch throughput is the isolated work (TBs x their
 * isolated time) of the batch kernels completed per second, normalised
 * to the same applications alone on the GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "claiusim.h"
#include "validate.h"
#include "limits.h"
#include "simutil.h"

static const u32 size_pct[SIZES] = { 60, 100, 140 };

struct claius_g cl_g;

/* The line being read, for every message about it. */
static char cwhere[600] = "command line";

#define CWHO	"edge-sim claius"

/* C's syntax (0x, 0), all of it a number, in [min, max]. */
static u64 cnum(const char *v, const char *key, u64 min, u64 max)
{
	return sim_key_num(CWHO, cwhere, key, v, 0, "", min, max);
}

static const char *const claius_kernel_map[][2] = {
	{ "grid_x", "tbs" }, { "block_x", "threads" },
	{ "regs_per_thread", "regs" }, { "smem_per_block", "smem" },
	{ "warp_cycles", "tb_us" }, { "corun_pct", "corun" },
	{ "mem_pct", "mem" }, { "rsd_pct", "rsd" }, { NULL, NULL }
};

/* "task tbs=N threads=T tb_us=U mem=PCT bw=MBS corun=PCT rsd=PCT smem=B" */
static void parse_task(struct capp *a, char *rest)
{
	static const char *const keys[] = {
		"tbs", "threads", "tb_us", "mem", "bw", "corun", "rsd", "smem",
		"regs", NULL
	};
	struct edge_register reg;
	struct edge_kdesc *k;
	char *tok, *save = NULL;
	u64 us = 0;
	u32 threads = 0, tbs = 0, bw = 0;

	if (a->n == EDGE_APP_TASKS)
		sim_bad(CWHO, cwhere, "task", a->name, "at most %u tasks an "
			"application", EDGE_APP_TASKS);
	k = &a->k[a->n];
	memset(&reg, 0, sizeof(reg));
	reg.func = EDGE_FN_NOP;
	reg.regs_per_thread = 32;
	for (tok = strtok_r(rest, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			sim_bad(CWHO, cwhere, tok, "", "expected key=value");
		*eq++ = 0;
		if (!strcmp(tok, "tbs"))
			tbs = (u32)cnum(eq, tok, 1, EDGE_MAX_GRID_X);
		else if (!strcmp(tok, "threads"))
			threads = (u32)cnum(eq, tok, 1, cl_g.p->max_block_threads);
		else if (!strcmp(tok, "tb_us"))
			/* Its cycles (us x MHz) within the model's 2^40. */
			us = cnum(eq, tok, 1, EDGE_MAX_WARP_CYCLES / 4000);
		else if (!strcmp(tok, "mem"))
			reg.ws.mem_pct = (u32)cnum(eq, tok, 0, 0xffffffffULL);
		else if (!strcmp(tok, "bw"))
			bw = (u32)cnum(eq, tok, 0, 0xffffffffULL);
		else if (!strcmp(tok, "corun"))
			reg.ws.corun_pct = (u32)cnum(eq, tok, 0, 0xffffffffULL);
		else if (!strcmp(tok, "rsd"))
			reg.ws.rsd_pct = (u32)cnum(eq, tok, 0, 0xffffffffULL);
		else if (!strcmp(tok, "smem"))
			reg.smem_per_block = (u32)cnum(eq, tok, 0, 0xffffffffULL);
		else if (!strcmp(tok, "regs"))
			reg.regs_per_thread = (u32)cnum(eq, tok, 1, 0xffffffffULL);
		else
			sim_unknown(CWHO, cwhere, "task key", tok, keys);
	}
	if (!tbs)
		sim_bad(CWHO, cwhere, "tbs", "", "missing: from 1 to %u",
			EDGE_MAX_GRID_X);
	if (!threads)
		sim_bad(CWHO, cwhere, "threads", "", "missing: from 1 to %u",
			cl_g.p->max_block_threads);
	if (!us)
		sim_bad(CWHO, cwhere, "tb_us", "", "missing: a TB's time, us");
	reg.grid_x = tbs;
	reg.grid_y = reg.grid_z = 1;
	reg.block_x = threads;
	reg.block_y = reg.block_z = 1;
	reg.param_size = 8;
	reg.ring_entries = 1;
	reg.warp_cycles = us * cl_g.p->clock_khz / 1000;
	/* A task that fits no core would never run: -nan once. */
	sim_validate(CWHO, cwhere, a->name, cl_g.p, &reg, k, claius_kernel_map);
	if (k->warps_per_tb < 2)
		k->warps_per_tb = 2;
	k->mem_bw_mbs = bw;
	k->task = ++a->n;
}

static void load(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	struct capp *cur = NULL;
	unsigned int n = 0;

	if (!f)
		claius_die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *kw, *save = NULL;

		snprintf(cwhere, sizeof(cwhere), "%s:%u", path, ++n);
		if (!strchr(line, '\n') && !feof(f))
			sim_bad(CWHO, cwhere, "line", "", "longer than %zu "
				"characters", sizeof(line) - 2);
		s[strcspn(s, "#\n")] = 0;
		kw = strtok_r(s, " \t", &save);
		if (!kw)
			continue;
		if (!strcmp(kw, "preset")) {
			kw = strtok_r(NULL, " \t", &save);
			cl_g.p = kw ? edge_preset_find(kw) : NULL;
			if (!cl_g.p)
				sim_bad(CWHO, cwhere, "preset", kw ? kw : "",
					"unknown preset (nearest: %s; edge-sim "
					"presets)", sim_nearest(kw ? kw : "",
								preset_names()));
		} else if (!strcmp(kw, "service") || !strcmp(kw, "batch")) {
			char *name = strtok_r(NULL, " \t", &save), *o;

			if (!cl_g.p)
				sim_bad(CWHO, cwhere, kw, name ? name : "",
					"a preset line must come first");
			if (!name || strlen(name) >= sizeof(cur->name) ||
			    strchr(name, ','))
				sim_bad(CWHO, cwhere, kw, name ? name : "",
					"a name of at most %zu characters, "
					"no comma", sizeof(cur->name) - 1);
			if (cl_g.nr == MAX_APPS)
				sim_bad(CWHO, cwhere, kw, name, "at most %u "
					"applications", MAX_APPS);
			if (cur && !cur->n)
				sim_bad(CWHO, cwhere, kw, cur->name,
					"the application before has no task");
			cur = &cl_g.app[cl_g.nr++];
			memset(cur, 0, sizeof(*cur));
			snprintf(cur->name, sizeof(cur->name), "%s", name);
			cur->qos = kw[0] == 's';
			while ((o = strtok_r(NULL, " \t", &save))) {
				if (strncmp(o, "pcie_us=", 8))
					sim_unknown(CWHO, cwhere, "application key",
						    o, (const char *const[]){
							"pcie_us", NULL });
				cur->pcie_ns = cnum(o + 8, "pcie_us", 0,
						    1000000000) * NS_PER_US;
			}
		} else if (!strcmp(kw, "task")) {
			if (!cur)
				sim_bad(CWHO, cwhere, "task", "", "a task "
					"outside an application");
			parse_task(cur, save);
		} else {
			sim_unknown(CWHO, cwhere, "line", kw, (const char *const[]){
				"preset", "service", "batch", "task", NULL });
		}
	}
	if (cur && !cur->n)
		sim_bad(CWHO, cwhere, "batch", cur->name, "an application "
			"with no task");
	fclose(f);
}

/* One run: the applications in @ids as instances 1.., under @policy. */
struct inst {
	const struct capp *a;
	u32 task;		/* running: 1..; 0 idle */
	u32 size;		/* the current query's class */
	u64 work;		/* batch: isolated TB-ns completed */
	u32 over;		/* services: queries over stop_over */
	u32 qhead, qtail;	/* services: queries arrived, started */
	u64 arrival[MAX_Q];
	u32 done;
	u64 lat[MAX_Q];
	u64 next_arrival;	/* EDGE_TIME_NEVER when all arrived */
	u64 pcie_end;		/* EDGE_TIME_NEVER when not transferring */
};

struct run {
	struct edge_engine eng;
	struct edge_simt simt;
	struct inst in[MAX_INST + 1];
	u32 n;
	bool stopping;
	bool missed;		/* a service in stop_over missed for sure */
	u64 t0;
	struct edge_rng arr, sz;
	u32 policy;
	bool trace;
};

static u64 scaled_tbs(const struct edge_kdesc *k, u32 size)
{
	u64 t = k->num_tbs * size_pct[size] / 100;

	return t ? t : 1;
}

static void launch(struct run *r, u32 i)
{
	struct inst *in = &r->in[i];
	struct edge_kdesc k = in->a->k[in->task - 1];

	k.app = i;
	if (in->a->qos) {
		k.num_tbs = scaled_tbs(&k, in->size);
		k.grid[0] = (u32)k.num_tbs;
	}
	if (edge_simt_launch_deferred(&r->simt, &k, (u64)i << 32 | in->task, i))
		claius_die("launch refused");
	if (r->trace && in->a->qos && cl_g.trace)
		fprintf(cl_g.trace, "%s,%s,%u,%llu,%u,%u\n", in->a->name,
			edge_tb_policy_name(r->policy), in->done,
			(unsigned long long)(r->eng.now / NS_PER_US), in->task,
			r->simt.apps[i].cur_pct);
}

/* A service starts its next query: the chain begins with the transfer. */
static void start_query(struct run *r, u32 i)
{
	struct inst *in = &r->in[i];
	struct edge_app ap = r->simt.apps[i];
	u64 waited = r->eng.now - in->arrival[in->qtail];
	u64 target = in->a->alone_p99 * cl_g.mult_pct / 100;

	in->size = edge_rng_below(&r->sz, SIZES);
	/* The query's input size selects its row of the predictor. */
	memcpy(ap.prof, in->a->prof[in->size], sizeof(ap.prof));
	ap.chain_budget = target;
	if (edge_app_set(&r->simt, i, &ap))
		claius_die("app");
	edge_app_chain_begin(&r->simt, i, target > waited ? target - waited : 0);
	in->pcie_end = r->eng.now + in->a->pcie_ns;
}

static void on_done(void *ctx, u64 cookie, u32 code)
{
	struct run *r = ctx;
	u32 i = (u32)(cookie >> 32), t = (u32)cookie;
	struct inst *in = &r->in[i];
	const struct edge_kdesc *k = &in->a->k[t - 1];

	if (code != EDGE_CQE_DONE || r->stopping)
		return;
	if (!in->a->qos) {
		in->work += k->num_tbs * edge_simt_cyc2ns(&r->simt, k->warp_cycles);
		in->task = t % in->a->n + 1;
		launch(r, i);
		return;
	}
	if (t < in->a->n) {
		in->task = t + 1;
		launch(r, i);
		return;
	}
	in->task = 0;
	in->lat[in->done++] = r->eng.now - in->arrival[in->qtail++];
	/* p99 by nearest rank: queries - rank may be over; one more misses. */
	if (cl_g.stop_over[i] && in->lat[in->done - 1] > cl_g.stop_over[i] &&
	    ++in->over > cl_g.queries - (cl_g.queries * 99 + 99) / 100)
		r->missed = true;
	if (r->trace && cl_g.trace)
		fprintf(cl_g.trace, "%s,%s,%u,%llu,0,%llu\n", in->a->name,
			edge_tb_policy_name(r->policy), in->done - 1,
			(unsigned long long)(r->eng.now / NS_PER_US),
			(unsigned long long)(in->lat[in->done - 1] / NS_PER_US));
	if (in->qtail < in->qhead)
		start_query(r, i);
}

static bool match_all(u64 cookie, void *arg)
{
	(void)cookie;
	(void)arg;
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* p99 of @n latencies (nearest rank). */
static u64 p99(u64 *lat, u32 n)
{
	u32 k = (n * 99 + 99) / 100;

	qsort(lat, n, sizeof(*lat), cmp_u64);
	return lat[k ? k - 1 : 0];
}

/*
 * Inter-arrival times uniform in [mean / 2, 3 mean / 2]: at the default
 * load (25 % of the GPU's time at 100 %) a query that meets its target
 * is over before the next one arrives, so a query only queues behind one
 * that missed.
 */
static u64 next_gap(struct run *r, u64 mean)
{
	return mean / 2 + edge_rng_below(&r->arr, (u32)(mean > 0xffffffffULL ?
						      0xffffffffULL : mean));
}


/*
 * @ids[0..n) are application indices; instance i + 1 runs ids[i].
 * @mean_gap: services' mean inter-arrival, ns (0: no queries, a batch
 * run of @span ns).
 */
void claius_run(const u32 *ids, u32 n, u32 policy, u64 span, bool trace,
		struct outcome *o)
{
	static struct run r;
	struct edge_simt_cfg cfg;
	struct edge_ev ev;
	u32 i, services = 0, finished;
	u64 end = EDGE_TIME_NEVER;

	memset(&r, 0, sizeof(r));
	memset(o, 0, sizeof(*o));
	r.n = n;
	r.policy = policy;
	r.trace = trace;
	edge_engine_init(&r.eng);
	edge_simt_default_cfg(&cfg);
	cfg.seed = cl_g.seed;
	cfg.tb_policy = policy;
	if (edge_simt_init(&r.simt, cl_g.p, &r.eng, &cfg, on_done, &r))
		claius_die("model init failed");
	edge_rng_seed(&r.arr, cl_g.seed * 1000003);
	edge_rng_seed(&r.sz, cl_g.seed * 7919);
	for (i = 1; i <= n; i++) {
		struct inst *in = &r.in[i];
		struct edge_app ap;

		in->a = &cl_g.app[ids[i - 1]];
		memset(&ap, 0, sizeof(ap));
		ap.qos = in->a->qos;
		ap.nr_tasks = in->a->n;
		ap.chain_budget = in->a->alone_p99 * cl_g.mult_pct / 100;
		ap.quota_pct = cl_g.fixq[i];
		memcpy(ap.prof, in->a->prof[1], sizeof(ap.prof));
		if (edge_app_set(&r.simt, i, &ap))
			claius_die("app");
		in->pcie_end = EDGE_TIME_NEVER;
		in->next_arrival = EDGE_TIME_NEVER;
		if (in->a->qos) {
			services++;
			in->next_arrival = next_gap(&r, span);
		} else {
			in->task = 1;
			launch(&r, i);
		}
	}
	if (!services)
		end = span;
	edge_simt_schedule(&r.simt);
	for (;;) {
		u64 te = edge_engine_next_time(&r.eng), td = end;
		u32 who = 0;
		bool arrive = false;

		for (i = 1; i <= n; i++) {
			if (r.in[i].next_arrival < td) {
				td = r.in[i].next_arrival;
				who = i;
				arrive = true;
			}
			if (r.in[i].pcie_end < td) {
				td = r.in[i].pcie_end;
				who = i;
				arrive = false;
			}
		}
		if (td != EDGE_TIME_NEVER && td <= te) {
			struct inst *in = &r.in[who];

			edge_engine_advance(&r.eng, td);
			if (!who)
				break;		/* a batch-only run's end */
			if (arrive) {
				in->arrival[in->qhead++] = td;
				in->next_arrival = in->qhead < cl_g.queries ?
					td + next_gap(&r, span) :
					EDGE_TIME_NEVER;
				if (in->qhead == in->qtail + 1 && !in->task)
					start_query(&r, who);
			} else {
				in->pcie_end = EDGE_TIME_NEVER;
				in->task = 1;
				launch(&r, who);
				edge_simt_schedule(&r.simt);
			}
			continue;
		}
		if (te == EDGE_TIME_NEVER)
			claius_die("the GPU ran dry with queries left");
		if (!edge_engine_pop_due(&r.eng, te, &ev))
			break;
		if (!edge_simt_handle(&r.simt, &ev))
			claius_die("engine event of unknown kind %u", ev.kind);
		for (finished = 0, i = 1; i <= n; i++)
			if (r.in[i].a->qos && r.in[i].done == cl_g.queries)
				finished++;
		if ((services && finished == services) || r.missed)
			break;
	}
	o->span = r.eng.now;
	o->missed = r.missed;
	for (i = 1; i <= n; i++) {
		if (r.missed && r.in[i].a->qos)
			o->p99[i] = r.in[i].over > cl_g.queries -
				    (cl_g.queries * 99 + 99) / 100 ? EDGE_TIME_NEVER : 0;
		else if (r.in[i].a->qos)
			o->p99[i] = p99(r.in[i].lat, r.in[i].done);
		else
			o->rate[i] = (double)r.in[i].work / (double)o->span;
	}
	r.stopping = true;
	edge_simt_cancel(&r.simt, match_all, NULL);
	edge_simt_fini(&r.simt);
	edge_engine_fini(&r.eng);
}

static void on_prof_done(void *ctx, u64 cookie, u32 code)
{
	struct run *r = ctx;

	(void)cookie;
	(void)code;
	r->t0 = edge_simt_done_tb_ns(&r->simt);
}

/* One task alone at quota step @q (1..10): the predictor's sample. */
static void profile_one(struct capp *a, u32 t, u32 size, u32 q)
{
	static struct run r;
	struct edge_simt_cfg cfg;
	struct edge_app ap;
	struct edge_kdesc k = a->k[t];
	struct edge_ev ev;
	u64 d;

	memset(&r, 0, sizeof(r));
	edge_engine_init(&r.eng);
	edge_simt_default_cfg(&cfg);
	cfg.seed = cl_g.seed;
	cfg.tb_policy = (u32)edge_tb_policy_find("mps");
	if (edge_simt_init(&r.simt, cl_g.p, &r.eng, &cfg, on_prof_done, &r))
		claius_die("model init failed");
	memset(&ap, 0, sizeof(ap));
	ap.nr_tasks = a->n;
	ap.quota_pct = q * 10;
	edge_app_set(&r.simt, 1, &ap);
	k.app = 1;
	if (a->qos) {
		k.num_tbs = scaled_tbs(&k, size);
		k.grid[0] = (u32)k.num_tbs;
	}
	if (edge_simt_launch(&r.simt, &k, 1, 1))
		claius_die("launch refused");
	while (edge_engine_pop_due(&r.eng, edge_engine_next_time(&r.eng), &ev))
		edge_simt_handle(&r.simt, &ev);
	d = r.eng.now ? r.eng.now : 1;
	a->prof[size][t].ns[q - 1] = d;
	/*
	 * The bandwidth it demands: its TBs' resident time times their
	 * demand, over its duration.  Not what it gets: alone it never gets
	 * more than the peak, and the allocator must see a demand above it.
	 */
	a->prof[size][t].bw_mbs[q - 1] =
		(u64)((double)k.mem_bw_mbs * (double)r.t0 / (double)d);
	edge_simt_fini(&r.simt);
	edge_engine_fini(&r.eng);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The predictor table: every task, size and quota alone. */
static void build_table(void)
{
	double t0 = now_s();
	u32 i, t, z, q;

	for (i = 0; i < cl_g.nr; i++)
		for (t = 0; t < cl_g.app[i].n; t++)
			for (z = 0; z < SIZES; z++)
				for (q = 1; q <= EDGE_QUOTA_STEPS; q++)
					if (cl_g.app[i].qos || z == 1)
						profile_one(&cl_g.app[i], t, z, q);
	for (i = 0; i < cl_g.nr; i++)
		if (!cl_g.app[i].qos)
			for (z = 0; z < SIZES; z++)
				memcpy(cl_g.app[i].prof[z], cl_g.app[i].prof[1],
				       sizeof(cl_g.app[i].prof[1]));
	cl_g.table_s = now_s() - t0;
}

/* Mean inter-arrival of a service's queries. */
u64 claius_gap_ns(const struct capp *a)
{
	u64 sum = 0;
	u32 z, t;

	for (z = 0; z < SIZES; z++)
		for (t = 0; t < a->n; t++)
			sum += a->prof[z][t].ns[EDGE_QUOTA_STEPS - 1];
	sum = sum / SIZES + a->pcie_ns;
	return sum * 100 / cl_g.load_pct;
}

/* Alone figures: a service's p99 (its target's base), a batch rate. */
void claius_measure(u32 id)
{
	struct capp *a = &cl_g.app[id];
	struct outcome o;
	u32 ids[MAX_INST], i;

	if (a->measured)
		return;
	a->measured = true;
	if (a->qos) {
		claius_run(&id, 1, (u32)edge_tb_policy_find("priority"), claius_gap_ns(a),
		    false, &o);
		a->alone_p99 = o.p99[1];
		return;
	}
	for (i = 0; i < cl_g.ninst; i++)
		ids[i] = id;
	claius_run(ids, cl_g.ninst, (u32)edge_tb_policy_find("mps"), 100000000ULL,
	    false, &o);
	for (i = 1; i <= cl_g.ninst; i++)
		a->alone_rate += (u64)(o.rate[i] * 1e6);
}

/**
 * claius_prov() - end a CSV row with its provenance (sim_prov()) and a newline
 * @policy: the thread-block policy the row ran under
 */
void claius_prov(u32 policy)
{
	struct edge_simt_cfg c;

	/* claius_run()'s configuration. */
	edge_simt_default_cfg(&c);
	c.tb_policy = policy;
	sim_prov(stdout, cl_g.p->name, "none", &c, cl_g.seed, 1);
	putchar('\n');
}

static u32 parse_policies(const char *list, u32 *pol)
{
	char buf[256], *tok, *save = NULL;
	u32 n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok && n < EDGE_TBP_NR;
	     tok = strtok_r(NULL, ",", &save)) {
		int p = edge_tb_policy_find(tok);

		if (p < 0)
			claius_die("unknown policy '%s' (edge-sim policies)", tok);
		pol[n++] = (u32)p;
	}
	return n;
}

bool claius_selected(const char *list, const char *name)
{
	char buf[256], *tok, *save = NULL;

	if (!list)
		return true;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

/* One service (instance 1) beside cl_g.ninst instances of one batch app. */
static void pairs(const u32 *pol, u32 np, const char *svcs, const char *bats,
		  const char *trace_pair)
{
	u32 s, b, i, j, ids[MAX_INST];
	struct outcome o;
	char name[40];

	printf("service,batch,policy,p99_us,target_us,p99_per_target,violated,util_pct,"
	       SIM_PROV_COLS "\n");
	for (s = 0; s < cl_g.nr; s++) {
		if (!cl_g.app[s].qos || !claius_selected(svcs, cl_g.app[s].name))
			continue;
		claius_measure(s);
		for (b = 0; b < cl_g.nr; b++) {
			u64 tgt = cl_g.app[s].alone_p99 * cl_g.mult_pct / 100;

			if (cl_g.app[b].qos || !claius_selected(bats, cl_g.app[b].name))
				continue;
			claius_measure(b);
			ids[0] = s;
			for (i = 1; i <= cl_g.ninst; i++)
				ids[i] = b;
			snprintf(name, sizeof(name), "%s+%s", cl_g.app[s].name,
				 cl_g.app[b].name);
			for (j = 0; j < np; j++) {
				double rate = 0;

				claius_run(ids, cl_g.ninst + 1, pol[j], claius_gap_ns(&cl_g.app[s]),
				    trace_pair && !strcmp(trace_pair, name), &o);
				for (i = 2; i <= cl_g.ninst + 1; i++)
					rate += o.rate[i];
				printf("%s,%s,%s,%llu,%llu,%.3f,%d,%.1f",
				       cl_g.app[s].name, cl_g.app[b].name,
				       edge_tb_policy_name(pol[j]),
				       (unsigned long long)(o.p99[1] / NS_PER_US),
				       (unsigned long long)(tgt / NS_PER_US),
				       (double)o.p99[1] / (double)tgt,
				       o.p99[1] > tgt,
				       100.0 * rate * 1e6 / (double)cl_g.app[b].alone_rate);
				claius_prov(pol[j]);
			}
		}
	}
}

static void table(void)
{
	u32 i, t, q;

	printf("app,task,quota_pct,ns,bw_mbs," SIM_PROV_COLS "\n");
	for (i = 0; i < cl_g.nr; i++)
		for (t = 0; t < cl_g.app[i].n; t++)
			for (q = 1; q <= EDGE_QUOTA_STEPS; q++)
				printf("%s,%u,%u,%llu,%llu", cl_g.app[i].name,
				       t + 1, q * 10,
				       (unsigned long long)cl_g.app[i].prof[1][t].ns[q - 1],
				       (unsigned long long)cl_g.app[i].prof[1][t].bw_mbs[q - 1]),
				claius_prov((u32)edge_tb_policy_find("mps"));
}

static void cusage(void)
{
	fputs("usage: edge-sim claius [-q QUERIES] [-m TARGET_PCT] [-l LOAD_PCT] [-i INSTANCES]\n"
	      "         [-s SEED] [-P POLICY,...] [-S SERVICE,...] [-B BATCH,...] [-F]\n"
	      "         [-T TRACE.csv -t SERVICE+BATCH] APPS pairs|groups|table\n"
	      "  pairs: one service beside INSTANCES copies of one batch app, every pair\n"
	      "  groups: two services beside INSTANCES copies of the first batch app (-B);\n"
	      "          static-opt searches the services' split (-F: every split)\n"
	      "  table: the predictor table (isolated runs); its build time on stderr\n",
	      stderr);
	exit(2);
}

int claiusim_main(int argc, char **argv)
{
	const char *pols = "even,priority,baymax,claius-nb,claius-nc,claius";
	const char *svcs = NULL, *bats = NULL, *tpair = NULL, *tfile = NULL;
	u32 pol[EDGE_TBP_NR], np;
	int c;

	/* Each call from nothing: a fuzzer calls it again and again. */
	memset(&cl_g, 0, sizeof(cl_g));
	cl_g.queries = 24;
	cl_g.mult_pct = 340;
	cl_g.load_pct = 25;
	cl_g.ninst = 4;
	cl_g.seed = 1;
	while ((c = getopt(argc, argv, "q:m:l:i:s:P:S:B:T:t:F")) != -1) {
		switch (c) {
		case 'F': cl_g.full = true; break;
		case 'q': cl_g.queries = (u32)sim_key_num(CWHO, "-q", "-q", optarg, 10, "", 1, MAX_Q); break;
		case 'm': cl_g.mult_pct = (u32)sim_key_num(CWHO, "-m", "-m", optarg, 10, "", 1, 100000); break;
		case 'l': cl_g.load_pct = (u32)sim_key_num(CWHO, "-l", "-l", optarg, 10, "", 1, 10000); break;
		case 'i': cl_g.ninst = (u32)sim_key_num(CWHO, "-i", "-i", optarg, 10, "", 1, MAX_INST - 2); break;
		case 's': cl_g.seed = sim_key_num(CWHO, "-s", "-s", optarg, 0, "", 0, ~0ULL); break;
		case 'P': pols = optarg; break;
		case 'S': svcs = optarg; break;
		case 'B': bats = optarg; break;
		case 'T': tfile = optarg; break;
		case 't': tpair = optarg; break;
		default: cusage();
		}
	}
	if (argc - optind != 2 || !cl_g.queries || cl_g.queries > MAX_Q ||
	    !cl_g.mult_pct || !cl_g.load_pct || !cl_g.ninst || cl_g.ninst + 2 > MAX_INST)
		cusage();
	load(argv[optind]);
	if (!cl_g.p || !cl_g.nr)
		claius_die("no preset or no applications in %s", argv[optind]);
	{
		const char *known[MAX_APPS + EDGE_TBP_NR + 1];
		u32 i;

		for (i = 0; i < EDGE_TBP_NR; i++)
			known[i] = edge_tb_policy_name(i);
		known[i] = NULL;
		sim_check_list(CWHO, "-P", pols, known);
		for (i = 0; i < cl_g.nr; i++)
			known[i] = cl_g.app[i].name;
		known[i] = NULL;
		sim_check_list(CWHO, "-S", svcs, known);
		sim_check_list(CWHO, "-B", bats, known);
		if (strcmp(argv[optind + 1], "pairs") &&
		    strcmp(argv[optind + 1], "groups") &&
		    strcmp(argv[optind + 1], "table"))
			sim_unknown(CWHO, "command line", "mode",
				    argv[optind + 1], (const char *const[]){
					"pairs", "groups", "table", NULL });
	}
	np = parse_policies(pols, pol);
	if (sim_parse_only)
		return 0;
	if (tfile) {
		cl_g.trace = fopen(tfile, "w");
		if (!cl_g.trace)
			claius_die("cannot write %s", tfile);
		fprintf(cl_g.trace, "service,policy,query,t_us,task,quota_pct_or_latency_us\n");
	}
	build_table();
	fprintf(stderr, "claius_table_seconds=%.3f\n", cl_g.table_s);
	if (!strcmp(argv[optind + 1], "pairs"))
		pairs(pol, np, svcs, bats, tpair);
	else if (!strcmp(argv[optind + 1], "groups"))
		claius_groups(pol, np, bats);
	else if (!strcmp(argv[optind + 1], "table"))
		table();
	else
		cusage();
	if (cl_g.trace)
		fclose(cl_g.trace);
	return 0;
}

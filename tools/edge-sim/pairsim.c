// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim pairs: two-program workloads on the SIMT model under each
 * thread-block policy, for the reproduction of Pai et al. (SRTF).  A
 * kernels file (scenarios/srtf/ercbench.kernels) lists the kernels; every
 * ordered pair of them runs under every policy, the second arriving a
 * few cycles (up to 100) after the first, or at a share of the first's
 * isolated runtime (-o PCT, Table 6).
 *
 *   edge-sim pairs alone FILE        each kernel alone: runtime, t, %RSD,
 *                                    the predictor's error after one TB
 *   edge-sim pairs run [-o PCT] [-P POLICIES] [-s SEED] FILE
 *                                    one CSV row per workload and policy
 *
 * Cycles are the preset's clock's.  STP = sum of T_alone / T_shared,
 * ANTT = mean of T_shared / T_alone, StrictF = min slowdown / max
 * slowdown; T_shared from the kernel's arrival to its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "gpu/preset.h"
#include "gpu/simt.h"
#include "policy/slicing.h"
#include "simutil.h"
#include "limits.h"
#include "validate.h"

#define MAXK		16
#define PAIR_HEADER	"offset_pct,policy,first,second,alone1,alone2,shared1," \
			"shared2,stp,antt,fairness,tb_preemptions,adaptive_shared," \
			SIM_PROV_COLS

struct pk {
	char name[24];
	u32 r;
	u64 t, runtime;
	struct edge_kdesc k;
};

struct pset {
	char preset[24];
	const struct edge_preset *p;
	u32 corun;
	u32 n;
	struct pk k[MAXK];
};

#define pdie(...)	sim_die("edge-sim pairs", __VA_ARGS__)

/* The line being read, for every message about it. */
static char pwhere[600] = "command line";

#define PWHO	"edge-sim pairs"

/* C's syntax (0x, 0 prefixes), no suffix, in [min, max]. */
static u64 pnum(const char *v, const char *what, u64 min, u64 max)
{
	return sim_key_num(PWHO, pwhere, what, v, 0, "", min, max);
}

static const char *const pairs_kernel_map[][2] = {
	{ "grid_x", "grid" }, { "block_x", "block" },
	{ "regs_per_thread", "regs" }, { "smem_per_block", "smem" },
	{ "warp_cycles", "t" }, { "corun_pct", "corun" },
	{ "rsd_pct", "rsd" }, { NULL, NULL }
};

/*
 * The kernel's base TB time: alone at its full residency its TBs take
 * Table 3's t, after edge_simt_corun()'s stretch at that occupancy.
 */
static void finish_kernel(struct pset *ps, struct pk *k, u32 threads,
			  u32 grid)
{
	const struct edge_preset *p = ps->p;
	struct edge_kdesc *d = &k->k;
	u32 warps = (threads + p->warp_size - 1) / p->warp_size, r, occ;
	u32 per = p->tb_slots_per_core;
	u64 tbregs;

	if (warps < 2)
		warps = 2;	/* one warp would be an event warp */
	d->func = EDGE_FN_NOP;
	d->grid[0] = grid;
	d->grid[1] = d->grid[2] = 1;
	d->block[0] = threads;
	d->block[1] = d->block[2] = 1;
	d->num_tbs = grid;
	d->block_threads = threads;
	d->warps_per_tb = warps;
	d->param_size = 8;
	d->ring_entries = 1;
	d->ws.corun_pct = ps->corun;
	if (p->threads_per_core / (warps * p->warp_size) < per)
		per = p->threads_per_core / (warps * p->warp_size);
	tbregs = (u64)warps * p->warp_size * d->regs_per_thread;
	if (tbregs && p->regs_per_core / tbregs < per)
		per = (u32)(p->regs_per_core / tbregs);
	if (d->smem_per_block && p->smem_per_core / d->smem_per_block < per)
		per = p->smem_per_core / d->smem_per_block;
	r = per;
	if (k->r && r != k->r)
		sim_bad(PWHO, pwhere, "r", "", "kernel %s: the preset gives "
			"R = %u, the file says %u", k->name, r, k->r);
	occ = r * warps * 1000 / (p->threads_per_core / p->warp_size);
	d->warp_cycles = k->t * 100000 / (100000 + (u64)ps->corun * occ);
	k->r = r;
}

static void parse_set(struct pset *ps, const char *path)
{
	static const char *const keys[] = {
		"r", "block", "grid", "regs", "smem", "t", "rsd", "skew",
		"runtime", NULL
	};
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned int n = 0;

	if (!f)
		pdie("%s: %s", path, strerror(errno));
	memset(ps, 0, sizeof(*ps));
	snprintf(ps->preset, sizeof(ps->preset), "edge");
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok;

		snprintf(pwhere, sizeof(pwhere), "%s:%u", path, ++n);
		if (!strchr(line, '\n') && !feof(f))
			sim_bad(PWHO, pwhere, "line", "", "longer than %zu "
				"characters", sizeof(line) - 2);
		tok = strtok_r(line, " \t\n", &save);
		if (!tok || tok[0] == '#')
			continue;
		if (!strcmp(tok, "preset")) {
			tok = strtok_r(NULL, " \t\n", &save);
			if (!tok || !edge_preset_find(tok) ||
			    strlen(tok) >= sizeof(ps->preset))
				sim_bad(PWHO, pwhere, "preset", tok ? tok : "",
					"unknown preset (nearest: %s; edge-sim "
					"presets)", sim_nearest(tok ? tok : "",
								preset_names()));
			if (ps->n)
				sim_bad(PWHO, pwhere, "preset", tok,
					"must come before the kernels");
			snprintf(ps->preset, sizeof(ps->preset), "%s", tok);
		} else if (!strcmp(tok, "corun")) {
			tok = strtok_r(NULL, " \t\n", &save);
			ps->corun = (u32)pnum(tok, "corun", 0, 10000);
		} else if (!strcmp(tok, "kernel")) {
			struct edge_register reg;
			struct edge_kdesc kd;
			struct pk *k;
			u32 threads = 0, grid = 0;

			ps->p = edge_preset_find(ps->preset);
			if (ps->n == MAXK)
				sim_bad(PWHO, pwhere, "kernel", "", "at most %u "
					"kernels", MAXK);
			k = &ps->k[ps->n++];
			tok = strtok_r(NULL, " \t\n", &save);
			if (!tok || strchr(tok, '=') || strchr(tok, ',') ||
			    strlen(tok) >= sizeof(k->name))
				sim_bad(PWHO, pwhere, "kernel", tok ? tok : "",
					"a name of at most %zu characters, no "
					"comma", sizeof(k->name) - 1);
			snprintf(k->name, sizeof(k->name), "%s", tok);
			k->k.regs_per_thread = 16;
			while ((tok = strtok_r(NULL, " \t\n", &save))) {
				char *eq = strchr(tok, '=');

				if (!eq)
					sim_bad(PWHO, pwhere, tok, "",
						"expected key=value");
				*eq++ = 0;
				if (!strcmp(tok, "r"))
					k->r = (u32)pnum(eq, tok, 0, 0xffffffffULL);
				else if (!strcmp(tok, "block"))
					threads = (u32)pnum(eq, tok, 1,
							    ps->p->max_block_threads);
				else if (!strcmp(tok, "grid"))
					grid = (u32)pnum(eq, tok, 1, EDGE_MAX_GRID_X);
				else if (!strcmp(tok, "regs"))
					k->k.regs_per_thread = (u32)pnum(eq, tok, 1,
									 0xffffffffULL);
				else if (!strcmp(tok, "smem"))
					k->k.smem_per_block = (u32)pnum(eq, tok, 0,
									0xffffffffULL);
				else if (!strcmp(tok, "t"))
					k->t = pnum(eq, tok, 1, EDGE_MAX_WARP_CYCLES);
				else if (!strcmp(tok, "rsd"))
					k->k.ws.rsd_pct = (u32)pnum(eq, tok, 0,
								    0xffffffffULL);
				else if (!strcmp(tok, "skew"))
					k->k.tb_skew = (u32)pnum(eq, tok, 0, 1);
				else if (!strcmp(tok, "runtime"))
					k->runtime = pnum(eq, tok, 0, ~0ULL);
				else
					sim_unknown(PWHO, pwhere, "kernel key", tok,
						    keys);
			}
			if (!threads)
				sim_bad(PWHO, pwhere, "block", "", "missing: "
					"from 1 to %u", ps->p->max_block_threads);
			if (!grid)
				sim_bad(PWHO, pwhere, "grid", "", "missing");
			if (!k->t)
				sim_bad(PWHO, pwhere, "t", "", "missing: a TB's "
					"cycles alone");
			/* The model's own rules, on what the file says. */
			memset(&reg, 0, sizeof(reg));
			reg.func = EDGE_FN_NOP;
			reg.grid_x = grid;
			reg.grid_y = reg.grid_z = 1;
			reg.block_x = threads;
			reg.block_y = reg.block_z = 1;
			reg.regs_per_thread = k->k.regs_per_thread;
			reg.smem_per_block = k->k.smem_per_block;
			reg.param_size = 8;
			reg.ring_entries = 1;
			reg.warp_cycles = k->t;
			reg.ws.rsd_pct = k->k.ws.rsd_pct;
			reg.ws.corun_pct = ps->corun;
			sim_validate(PWHO, pwhere, k->name, ps->p, &reg, &kd,
				     pairs_kernel_map);
			finish_kernel(ps, k, threads, grid);
		} else {
			sim_unknown(PWHO, pwhere, "line", tok, (const char *const[]){
				"preset", "corun", "kernel", NULL });
		}
	}
	fclose(f);
	if (!ps->n)
		sim_bad(PWHO, path, "kernel", "", "missing: at least one");
}

/* One run: the model, its kernels launched at their arrivals. */
struct prun {
	struct edge_engine eng;
	struct edge_simt s;
	u64 end_ns[2];
	u32 left;
};

static void on_done(void *ctx, u64 cookie, u32 code)
{
	struct prun *r = ctx;

	(void)code;
	r->end_ns[cookie] = r->eng.now;
	r->left--;
}

/*
 * Run kernels @idx[0..n) of @ps arriving at @arr_cyc[] (ascending) under
 * thread-block policy @pol (or the test policy @tbp); their runtimes from
 * arrival go into @rt_cyc[].  @step, if set, runs after every event.
 */
static void run_set(const struct pset *ps, const u32 *idx, const u64 *arr_cyc,
		    u32 n, u32 pol, const struct edge_tb_policy *tbp, u64 seed,
		    u64 *rt_cyc, u64 *preempts,
		    void (*step)(struct edge_simt *s, void *arg), void *arg)
{
	static struct prun r;
	struct edge_simt_cfg cfg;
	struct edge_ev ev;
	u64 arr_ns[2];
	u32 launched = 0, i;

	memset(&r, 0, sizeof(r));
	edge_engine_init(&r.eng);
	edge_simt_default_cfg(&cfg);
	cfg.sched = EDGE_SCHED_DRAIN;
	cfg.tb_policy = pol;
	cfg.seed = seed;
	if (edge_simt_init(&r.s, ps->p, &r.eng, &cfg, on_done, &r))
		pdie("model init failed");
	if (tbp)
		r.s.tbp = tbp;	/* an observer of edge-sim's own */
	for (i = 0; i < n; i++)
		arr_ns[i] = edge_simt_cyc2ns(&r.s, arr_cyc[i]);
	r.left = n;
	for (;;) {
		u64 te = edge_engine_next_time(&r.eng);

		if (launched < n && arr_ns[launched] <= te) {
			u64 now = arr_ns[launched];

			/* Kernels of one instant, then one pass: both seen. */
			edge_engine_advance(&r.eng, now);
			for (; launched < n && arr_ns[launched] == now; launched++)
				if (edge_simt_launch_deferred(&r.s,
							      &ps->k[idx[launched]].k,
							      launched, launched))
					pdie("launch refused");
			edge_simt_schedule(&r.s);
			continue;
		}
		if (te == EDGE_TIME_NEVER)
			break;
		if (!edge_engine_pop_due(&r.eng, te, &ev))
			break;
		if (!edge_simt_handle(&r.s, &ev))
			pdie("engine event of unknown kind %u", ev.kind);
		if (step)
			step(&r.s, arg);
	}
	if (r.left)
		pdie("kernels left when the engine ran dry");
	for (i = 0; i < n; i++)
		rt_cyc[i] = edge_simt_ns2cyc(&r.s, r.end_ns[i] - arr_ns[i]);
	if (preempts)
		*preempts = r.s.st.tb_preemptions;
	edge_simt_fini(&r.s);
	edge_engine_fini(&r.eng);
}

/* Alone: TB times, and the Simple Slicing predictor watching. */
struct watch {
	struct edge_slicing p;
	u64 n, sum, sumsq, max;
	u64 pred1_ns, at1_ns;
	bool have1;
};

static struct watch W;

static void w_launch(struct edge_simt *s, struct edge_kinst *ki)
{
	edge_slicing_launch(&W.p, s, ki);
}

static void w_end(struct edge_simt *s, struct edge_kinst *ki)
{
	(void)s;
	edge_slicing_end(&W.p, ki);
}

static void w_tb_start(struct edge_simt *s, struct edge_tb *tb)
{
	edge_slicing_tb_start(&W.p, s, tb);
}

static void w_tb_end(struct edge_simt *s, struct edge_tb *tb)
{
	u64 d = edge_simt_ns2cyc(s, s->eng->now - tb->start);
	int slot = edge_slicing_tb_end(&W.p, s, tb);

	W.n++;
	W.sum += d;
	W.sumsq += d * d;
	if (d > W.max)
		W.max = d;
	/* Eq. 2 on the core where the kernel's first TB ended. */
	if (slot >= 0 && !W.have1 &&
	    edge_slicing_pred_core(&W.p, s, slot, tb->core, &W.pred1_ns)) {
		W.have1 = true;
		W.at1_ns = s->eng->now;
	}
}

static const struct edge_tb_policy watcher = {
	.name = "watch",
	.kernel_launch = w_launch,
	.kernel_end = w_end,
	.tb_start = w_tb_start,
	.tb_end = w_tb_end,
};

static u64 isqrt(u64 v)
{
	u64 x = v, y = (x + 1) / 2;

	if (v < 2)
		return v;
	while (y < x) {
		x = y;
		y = (x + v / x) / 2;
	}
	return x;
}


/* The model's configuration each run here uses, for sim_prov(). */
static struct edge_simt_cfg prov_cfg(u32 sched, u32 tb_policy)
{
	struct edge_simt_cfg c;

	edge_simt_default_cfg(&c);
	c.sched = sched;
	c.tb_policy = tb_policy;
	return c;
}

static void alone_table(const struct pset *ps, u64 seed)
{
	struct edge_simt_cfg pc = prov_cfg(EDGE_SCHED_DRAIN, EDGE_TBP_DEFAULT);

	u32 i;

	printf("kernel,r,runtime,paper_runtime,err_pct,eq1_runtime,t,paper_t,"
	       "rsd_pct,max_over_mean,pred1_over_actual," SIM_PROV_COLS "\n");
	for (i = 0; i < ps->n; i++) {
		const struct pk *k = &ps->k[i];
		u64 arr = 0, rt, mean, sd, eq1, per;
		struct edge_simt probe = { .p = ps->p };

		memset(&W, 0, sizeof(W));
		if (edge_slicing_init(&W.p, &probe))
			pdie("out of memory");
		run_set(ps, &i, &arr, 1, EDGE_TBP_DEFAULT, &watcher, seed + i,
			&rt, NULL, NULL, NULL);
		edge_slicing_fini(&W.p);
		mean = W.sum / W.n;
		sd = isqrt(W.sumsq / W.n - mean * mean);
		per = (k->k.num_tbs + ps->p->num_cores - 1) / ps->p->num_cores;
		eq1 = (per + k->r - 1) / k->r * k->t;
		/* The prediction is of the whole run, made at the first end. */
		printf("%s,%u,%llu,%llu,%.1f,%llu,%llu,%llu,%.1f,%.2f,%.2f",
		       k->name, k->r, (unsigned long long)rt,
		       (unsigned long long)k->runtime,
		       k->runtime ? 100.0 * ((double)rt - k->runtime) / k->runtime : 0,
		       (unsigned long long)eq1, (unsigned long long)mean,
		       (unsigned long long)k->t, 100.0 * sd / mean,
		       (double)W.max / mean,
		       W.have1 ? (double)W.pred1_ns / ((double)rt * 1e6 /
						       ps->p->clock_khz) : 0);
		sim_prov(stdout, ps->p->name, "none", &pc, seed, 1);
		putchar('\n');
	}
}

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* SRTF/Adaptive: whether it ever shared in the run. */
static void note_sharing(struct edge_simt *s, void *arg)
{
	*(bool *)arg |= edge_srtf_sharing(s);
}

static void pair_rows(const struct pset *ps, u32 offset, const char *pols,
		      u64 seed)
{
	u64 alone[MAXK];
	u32 i, j, pol;

	for (i = 0; i < ps->n; i++) {
		u64 arr = 0;

		run_set(ps, &i, &arr, 1, EDGE_TBP_DEFAULT, NULL, seed + i,
			&alone[i], NULL, NULL, NULL);
	}
	printf("%s\n", PAIR_HEADER);
	for (pol = 0; pol < EDGE_TBP_NR; pol++) {
		const char *name = edge_tb_policy_name(pol);

		if (pols && !listed(pols, name))
			continue;
		for (i = 0; i < ps->n; i++) {
			for (j = 0; j < ps->n; j++) {
				u32 idx[2] = { i, j };
				u64 arr[2] = { 0, 0 }, rt[2], pre;
				double s1, s2, stp, antt, fair;
				bool shared = false;

				if (i == j)
					continue;
				/* Staggered by up to 100 cycles, by pair. */
				arr[1] = (i * 37 + j * 11) % 101;
				if (offset)
					arr[1] = alone[i] * offset / 100;
				/*
				 * The oracle knows both kernels from the
				 * start (Section 6.2.2): no hand-off.
				 */
				else if (pol == EDGE_TBP_SJF_ORACLE)
					arr[1] = 0;
				run_set(ps, idx, arr, 2, pol, NULL,
					seed + 100 + i * MAXK + j, rt, &pre,
					note_sharing, &shared);
				s1 = (double)rt[0] / alone[i];
				s2 = (double)rt[1] / alone[j];
				stp = 1 / s1 + 1 / s2;
				antt = (s1 + s2) / 2;
				fair = s1 < s2 ? s1 / s2 : s2 / s1;
				struct edge_simt_cfg pc = prov_cfg(EDGE_SCHED_DRAIN, pol);

				printf("%u,%s,%s,%s,%llu,%llu,%llu,%llu,%.4f,%.4f,%.4f,%llu,%d",
				       offset, name, ps->k[i].name, ps->k[j].name,
				       (unsigned long long)alone[i],
				       (unsigned long long)alone[j],
				       (unsigned long long)rt[0],
				       (unsigned long long)rt[1], stp, antt,
				       fair, (unsigned long long)pre, shared);
				/* run_set()'s seeds are seed + i: the first. */
				sim_prov(stdout, ps->p->name, "none", &pc, seed, 1);
				putchar('\n');
			}
		}
	}
}

static void pusage(void)
{
	fprintf(stderr,
		"usage: edge-sim pairs alone [-s SEED] FILE\n"
		"       edge-sim pairs run [-o PCT] [-P POL,POL..] [-s SEED] FILE\n");
	exit(2);
}

int pairsim_main(int argc, char **argv)
{
	static struct pset ps;
	const char *pols = NULL, *mode;
	u32 offset = 0;
	u64 seed = 1;
	int c;

	if (argc < 2)
		pusage();
	mode = argv[1];
	argc--;
	argv++;
	while ((c = getopt(argc, argv, "o:P:s:")) != -1) {
		switch (c) {
		case 'o':
			offset = (u32)sim_key_num(PWHO, "-o", "-o", optarg, 0,
						  "", 0, 100);
			break;
		case 'P':
			pols = optarg;
			break;
		case 's':
			seed = sim_key_num(PWHO, "-s", "-s", optarg, 0, "", 0,
					   ~0ULL);
			break;
		default:
			pusage();
		}
	}
	if (optind != argc - 1)
		pusage();
	if (strcmp(mode, "alone") && strcmp(mode, "run"))
		sim_unknown(PWHO, "command line", "mode", mode,
			    (const char *const[]){ "alone", "run", NULL });
	{
		const char *known[EDGE_TBP_NR + 1];
		u32 i;

		for (i = 0; i < EDGE_TBP_NR; i++)
			known[i] = edge_tb_policy_name(i);
		known[i] = NULL;
		sim_check_list(PWHO, "-P", pols, known);
	}
	parse_set(&ps, argv[optind]);
	if (sim_parse_only)
		return 0;
	if (!strcmp(mode, "alone"))
		alone_table(&ps, seed);
	else if (!strcmp(mode, "run"))
		pair_rows(&ps, offset, pols, seed);
	else
		pusage();
	return 0;
}

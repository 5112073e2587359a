// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim jobs: latency-sensitive jobs with deadlines on the command
 * processor model (emul/cp/cp.c) over the SIMT model, for the LAX
 * reproduction.  A workload file describes the kernels and how a job
 * strings them together; each run submits N jobs with exponential
 * inter-arrival times at one rate under one policy and prints one CSV row.
 * The format is in Documentation/edge-sim.rst, "Job workloads".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <unistd.h>
#include <errno.h>

#include "cp/cp.h"
#include "gpu/preset.h"
#include "rng.h"
#include "gpu/simt.h"
#include "simutil.h"
#include "limits.h"
#include "validate.h"

#define MAX_KERNELS	EDGE_CP_CLASSES
#define JOBS_CSV_HEADER	"workload,rate,jobs_per_s,policy,jobs,met,done,rejected," \
			"dropped,throughput_per_s,p99_us,wasted_pct,kernels," \
			"tight_met,tight_jobs," SIM_PROV_COLS
#define MAX_PARTS	4
#define MAX_SEQ_ITEMS	32
#define MAX_RATES	4
#define MAX_DL		4

struct seqitem {
	u16 cls;
	u32 times;
};

struct seq {
	u32 n;
	struct seqitem it[MAX_SEQ_ITEMS];
};

struct part {
	struct seq pre, step, post;
};

/* Knobs a workload may set: every queue-level policy's, at most. */
#define MAX_PARAMS	16

struct wl {
	char name[32];
	char preset[16];
	u32 jobs;
	u32 runs;		/* independent runs summed per row */
	struct edge_cp_cfg cp;	/* the CP's costs and periods */
	u32 nr_params;		/* queue-level policies' knobs set */
	const char *param[MAX_PARAMS];	/* ... by name (the descriptor's) */
	u64 param_v[MAX_PARAMS];
	u64 seed;
	u32 nr_dl;		/* deadline classes: a job draws one */
	u64 dl_ns[MAX_DL];
	u32 dl_weight[MAX_DL];
	u32 dl_total;
	u32 seq_mean;		/* 0: parts have no step */
	u32 seq_rsd;
	u32 nr_rates;
	char rate_name[MAX_RATES][16];
	u64 rate[MAX_RATES];	/* jobs per second */
	u32 nr_kernels;
	char kname[MAX_KERNELS][24];
	struct edge_kdesc k[MAX_KERNELS];
	u32 nr_parts;
	struct part part[MAX_PARTS];
};

#define jdie(...)	sim_die("edge-sim jobs", __VA_ARGS__)

/* @ns as text, for a message. */
static const char *eq_or(u64 ns)
{
	static char b[24];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)ns);
	return b;
}

/* The line being read ("file:line"), for every message about it. */
static char jwhere[600] = "command line";

#define JWHO	"edge-sim jobs"

/* Decimal, with an optional k (x1000) or M (x1000000), in [min, max]. */
static u64 numr(const char *v, const char *what, u64 min, u64 max)
{
	return sim_key_num(JWHO, jwhere, what, v, 10, "kM", min, max);
}

static u64 num(const char *v, const char *what)
{
	return numr(v, what, 0, ~0ULL);
}

static int kernel_find(const struct wl *w, const char *name)
{
	u32 i;

	for (i = 0; i < w->nr_kernels; i++)
		if (!strcmp(w->kname[i], name))
			return (int)i;
	return -1;
}

/* "A*3,B,C*2" */
static void parse_seq(struct wl *w, struct seq *s, char *v)
{
	char *tok, *save = NULL;

	s->n = 0;
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *star = strchr(tok, '*');
		int k;

		if (s->n == MAX_SEQ_ITEMS)
			sim_bad(JWHO, jwhere, "part", tok, "a sequence of at "
				"most %u items", MAX_SEQ_ITEMS);
		if (star)
			*star = 0;
		k = kernel_find(w, tok);
		if (k < 0) {
			const char *known[MAX_KERNELS + 1];
			u32 j;

			for (j = 0; j < w->nr_kernels; j++)
				known[j] = w->kname[j];
			known[j] = NULL;
			sim_unknown(JWHO, jwhere, "kernel", tok, known);
		}
		s->it[s->n].cls = (u16)k;
		s->it[s->n].times = star ?
			(u32)numr(star + 1, "repeat", 1, EDGE_CP_JOB_KERNELS) : 1;
		s->n++;
	}
}

/* The model's field names, as a workload's kernel line spells them. */
static const char *const jobs_kernel_map[][2] = {
	{ "grid_x", "grid" }, { "block_x", "block" },
	{ "regs_per_thread", "regs" }, { "smem_per_block", "smem" },
	{ "warp_cycles", "ns" }, { "corun_pct", "corun" }, { "mem_pct", "mem" },
	{ "rsd_pct", "rsd" }, { NULL, NULL }
};

static void parse_kernel(struct wl *w, char *rest, const struct edge_preset *p)
{
	static const char *const keys[] = {
		"block", "grid", "regs", "smem", "ns", "corun", "mem", "rsd", NULL
	};
	char *tok, *save = NULL, *name = strtok_r(rest, " \t", &save);
	struct edge_register reg;
	struct edge_kdesc *k;
	u32 threads = 0, grid = 1;
	u64 ns = 0;

	if (!name)
		sim_bad(JWHO, jwhere, "kernel", "", "a kernel needs a name");
	if (w->nr_kernels == MAX_KERNELS)
		sim_bad(JWHO, jwhere, "kernel", name, "at most %u kernels",
			MAX_KERNELS);
	if (strlen(name) >= sizeof(w->kname[0]))
		sim_bad(JWHO, jwhere, "kernel", name, "a name of at most %zu "
			"characters", sizeof(w->kname[0]) - 1);
	k = &w->k[w->nr_kernels];
	memset(&reg, 0, sizeof(reg));
	reg.func = EDGE_FN_NOP;
	reg.regs_per_thread = 16;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char *eq = strchr(tok, '=');

		if (!eq)
			sim_bad(JWHO, jwhere, tok, "", "expected key=value");
		*eq++ = 0;
		if (!strcmp(tok, "block"))
			threads = (u32)numr(eq, "block", 1, p->max_block_threads);
		else if (!strcmp(tok, "grid"))
			grid = (u32)numr(eq, "grid", 1, EDGE_MAX_GRID_X);
		else if (!strcmp(tok, "regs"))
			reg.regs_per_thread = (u32)numr(eq, "regs", 1, 0xffffffffULL);
		else if (!strcmp(tok, "smem"))
			reg.smem_per_block = (u32)numr(eq, "smem", 0, 0xffffffffULL);
		else if (!strcmp(tok, "ns"))
			/* Its cycles must stay within the model's 2^40. */
			ns = numr(eq, "ns", 1, EDGE_MAX_WARP_CYCLES);
		else if (!strcmp(tok, "corun"))
			reg.ws.corun_pct = (u32)numr(eq, "corun", 0, 0xffffffffULL);
		else if (!strcmp(tok, "mem"))
			reg.ws.mem_pct = (u32)numr(eq, "mem", 0, 0xffffffffULL);
		else if (!strcmp(tok, "rsd"))
			reg.ws.rsd_pct = (u32)numr(eq, "rsd", 0, 0xffffffffULL);
		else
			sim_unknown(JWHO, jwhere, "kernel key", tok, keys);
	}
	if (!threads)
		sim_bad(JWHO, jwhere, "block", "", "missing: from 1 to %u",
			p->max_block_threads);
	if (!ns)
		sim_bad(JWHO, jwhere, "ns", "", "missing: a work-group's time, ns");
	reg.grid_x = grid;
	reg.grid_y = reg.grid_z = 1;
	reg.block_x = threads;
	reg.block_y = reg.block_z = 1;
	reg.param_size = 8;
	reg.ring_entries = 1;
	/* A work-group's time at the preset's clock. */
	reg.warp_cycles = ns * p->clock_khz / 1000000;
	if (!reg.warp_cycles)
		sim_bad(JWHO, jwhere, "ns", eq_or(ns), "under one cycle at "
			"%u kHz", p->clock_khz);
	sim_validate(JWHO, jwhere, name, p, &reg, k, jobs_kernel_map);
	/* Two warps at least: a one-warp kernel would be an event warp. */
	if (k->warps_per_tb < 2)
		k->warps_per_tb = 2;
	snprintf(w->kname[w->nr_kernels], sizeof(w->kname[0]), "%s", name);
	w->nr_kernels++;
}

static void parse_part(struct wl *w, char *rest)
{
	char *tok, *save = NULL;
	struct part *pt;

	if (w->nr_parts == MAX_PARTS)
		sim_bad(JWHO, jwhere, "part", rest, "at most %u parts",
			MAX_PARTS);
	pt = &w->part[w->nr_parts++];
	memset(pt, 0, sizeof(*pt));
	for (tok = strtok_r(rest, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			sim_bad(JWHO, jwhere, tok, "", "expected key=value");
		*eq++ = 0;
		if (!strcmp(tok, "pre"))
			parse_seq(w, &pt->pre, eq);
		else if (!strcmp(tok, "step"))
			parse_seq(w, &pt->step, eq);
		else if (!strcmp(tok, "post"))
			parse_seq(w, &pt->post, eq);
		else
			sim_unknown(JWHO, jwhere, "part key", tok,
				    (const char *const[]){ "pre", "step",
							   "post", NULL });
	}
}

static void parse_path(struct wl *w, const char *path, int depth);

/*
 * "7000", or deadline classes "1000:30,10000:70": each job draws one,
 * with those weights (a serving mix of tight and loose requests).
 */
static void parse_deadlines(struct wl *w, char *v)
{
	char *tok, *save = NULL;

	w->nr_dl = 0;
	w->dl_total = 0;
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (w->nr_dl == MAX_DL)
			sim_bad(JWHO, jwhere, "deadline_us", tok,
				"at most %u classes", MAX_DL);
		if (colon)
			*colon++ = 0;
		/* The model's limit on a deadline: 1000 s. */
		w->dl_ns[w->nr_dl] = numr(tok, "deadline_us", 1,
					  EDGE_MAX_DEADLINE_NS / 1000) * 1000;
		w->dl_weight[w->nr_dl] = colon ?
			(u32)numr(colon, "deadline_us weight", 1, 1000000) : 1;
		w->dl_total += w->dl_weight[w->nr_dl++];
	}
}

/* A job's deadline class; one class draws nothing (the paper's files). */
static u64 draw_deadline(const struct wl *w, struct edge_rng *r)
{
	u32 x, i;

	if (w->nr_dl == 1)
		return w->dl_ns[0];
	x = (u32)edge_rng_below(r, w->dl_total);
	for (i = 0; x >= w->dl_weight[i]; i++)
		x -= w->dl_weight[i];
	return w->dl_ns[i];
}

static void parse_line(struct wl *w, const char *path, char *line, int depth)
{
	char *hash = strchr(line, '#'), *key, *rest, *save = NULL;
	const struct edge_param *pp;

	if (hash)
		*hash = 0;
	key = strtok_r(line, " \t\r\n", &save);
	if (!key)
		return;
	rest = strtok_r(NULL, "\r\n", &save);
	if (!rest)
		sim_bad(JWHO, jwhere, key, "", "a value is missing");
	while (isspace((unsigned char)*rest))
		rest++;
	if (!strcmp(key, "include")) {
		char inc[512], here[sizeof(jwhere)];
		const char *slash = strrchr(path, '/');
		int dl = slash ? (int)(slash - path) + 1 : 0;

		snprintf(inc, sizeof(inc), "%.*s%s", dl, path, rest);
		memcpy(here, jwhere, sizeof(here));
		parse_path(w, inc, depth + 1);
		memcpy(jwhere, here, sizeof(here));
	} else if (!strcmp(key, "workload")) {
		if (strlen(rest) >= sizeof(w->name) || strpbrk(rest, ",\""))
			sim_bad(JWHO, jwhere, key, rest, "a name of at most %zu "
				"characters, no comma", sizeof(w->name) - 1);
		snprintf(w->name, sizeof(w->name), "%s", rest);
	} else if (!strcmp(key, "preset")) {
		if (w->nr_kernels)
			sim_bad(JWHO, jwhere, key, rest,
				"must come before the kernels");
		if (!edge_preset_find(rest))
			sim_bad(JWHO, jwhere, key, rest, "unknown preset "
				"(nearest: %s; edge-sim presets)",
				sim_nearest(rest, preset_names()));
		snprintf(w->preset, sizeof(w->preset), "%s", rest);
	} else if (!strcmp(key, "jobs")) {
		w->jobs = (u32)numr(rest, "jobs", 1, 10000000);
	} else if (!strcmp(key, "parse_ns")) {
		w->cp.parse_ns = (u32)numr(rest, "parse_ns", 0, 1000000000);
	} else if (!strcmp(key, "host_ns")) {
		w->cp.host_ns = (u32)numr(rest, "host_ns", 0, 1000000000);
	} else if (!strcmp(key, "profile_us")) {
		w->cp.profile_ns = (u32)numr(rest, "profile_us", 0, 4000000) * 1000;
	} else if ((pp = edge_cp_param_find(key, NULL))) {
		/* A policy's knob, by its descriptor: name and limits. */
		u32 i;

		for (i = 0; i < w->nr_params; i++)
			if (w->param[i] == pp->name)
				break;
		if (i == MAX_PARAMS)
			sim_bad(JWHO, jwhere, key, rest, "at most %u knobs",
				MAX_PARAMS);
		w->param[i] = pp->name;
		w->param_v[i] = numr(rest, key, pp->min, pp->max);
		if (i == w->nr_params)
			w->nr_params++;
	} else if (!strcmp(key, "runs")) {
		w->runs = (u32)numr(rest, "runs", 1, 10000);
	} else if (!strcmp(key, "seed")) {
		w->seed = num(rest, "seed");
	} else if (!strcmp(key, "deadline_us")) {
		parse_deadlines(w, rest);
	} else if (!strcmp(key, "seq")) {
		char *t, *sv = NULL;
		bool m = false, r = false;

		for (t = strtok_r(rest, " \t", &sv); t; t = strtok_r(NULL, " \t", &sv)) {
			if (!strncmp(t, "mean=", 5)) {
				w->seq_mean = (u32)numr(t + 5, "seq mean", 1, 100000);
				m = true;
			} else if (!strncmp(t, "rsd=", 4)) {
				w->seq_rsd = (u32)numr(t + 4, "seq rsd", 0, 100);
				r = true;
			} else {
				sim_bad(JWHO, jwhere, "seq", t, "expected mean=N rsd=PCT");
			}
		}
		if (!m || !r)
			sim_bad(JWHO, jwhere, "seq", "", "expected mean=N rsd=PCT");
	} else if (!strcmp(key, "rate")) {
		char *nm, *v, *sv = NULL;

		nm = strtok_r(rest, " \t", &sv);
		v = strtok_r(NULL, " \t", &sv);
		if (!nm || !v || strtok_r(NULL, " \t", &sv))
			sim_bad(JWHO, jwhere, "rate", rest ? rest : "",
				"expected NAME JOBS_PER_S");
		if (w->nr_rates == MAX_RATES)
			sim_bad(JWHO, jwhere, "rate", nm, "at most %u rates",
				MAX_RATES);
		if (strlen(nm) >= sizeof(w->rate_name[0]) || strchr(nm, ','))
			sim_bad(JWHO, jwhere, "rate", nm, "a name of at most %zu "
				"characters, no comma", sizeof(w->rate_name[0]) - 1);
		snprintf(w->rate_name[w->nr_rates], 16, "%s", nm);
		w->rate[w->nr_rates++] = numr(v, "rate", 1, 1000000000);
	} else if (!strcmp(key, "kernel")) {
		const struct edge_preset *p = edge_preset_find(w->preset);

		parse_kernel(w, rest, p);
	} else if (!strcmp(key, "part")) {
		parse_part(w, rest);
	} else {
		static const char *const fixed[] = {
			"include", "workload", "preset", "jobs", "parse_ns",
			"host_ns", "profile_us", "runs", "seed", "deadline_us",
			"seq", "rate", "kernel", "part",
		};
		const char *known[ARRAY_SIZE(fixed) + MAX_PARAMS + 1];
		u32 n = 0, pol, j;

		for (j = 0; j < ARRAY_SIZE(fixed); j++)
			known[n++] = fixed[j];
		for (pol = 0; pol < EDGE_POL_NR; pol++)
			for (j = 0; j < edge_cp_policies[pol]->nr_params &&
			     n < ARRAY_SIZE(known) - 1; j++)
				known[n++] = edge_cp_policies[pol]->params[j].name;
		known[n] = NULL;
		sim_unknown(JWHO, jwhere, "key", key, known);
	}
}

static void parse_path(struct wl *w, const char *path, int depth)
{
	char line[1024];
	unsigned int n = 0;
	FILE *f;

	if (depth > 4)
		jdie("%s: includes nest too deep", path);
	f = fopen(path, "r");
	if (!f)
		jdie("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		snprintf(jwhere, sizeof(jwhere), "%s:%u", path, ++n);
		if (!strchr(line, '\n') && !feof(f))
			sim_bad(JWHO, jwhere, "line", "", "longer than %zu "
				"characters", sizeof(line) - 2);
		parse_line(w, path, line, depth);
	}
	fclose(f);
}

static void parse_wl(struct wl *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->preset, sizeof(w->preset), "lax");
	w->jobs = 128;
	w->runs = 1;
	w->seed = 1;
	edge_cp_default_cfg(&w->cp);
	parse_path(w, path, 0);
	snprintf(jwhere, sizeof(jwhere), "%s", path);
	if (!w->name[0])
		sim_bad(JWHO, jwhere, "workload", "", "missing: the workload's name");
	if (!w->nr_dl)
		sim_bad(JWHO, jwhere, "deadline_us", "", "missing");
	if (!w->nr_rates)
		sim_bad(JWHO, jwhere, "rate", "", "missing: at least one");
	if (!w->nr_parts)
		sim_bad(JWHO, jwhere, "part", "", "missing: at least one");
}

static u32 add_seq(u16 *out, u32 n, const struct seq *s)
{
	u32 i, t;

	for (i = 0; i < s->n; i++)
		for (t = 0; t < s->it[i].times; t++) {
			if (n == EDGE_CP_JOB_KERNELS)
				jdie("a job has more than %u kernels",
				     EDGE_CP_JOB_KERNELS);
			out[n++] = s->it[i].cls;
		}
	return n;
}

/* One job's kernel list: each part's prologue, seq steps, epilogue. */
static u32 build_job(const struct wl *w, struct edge_rng *r, u16 *out)
{
	u32 seq = 1, n = 0, i, s;

	if (w->seq_mean) {
		/* Drawn in thousandths: the spread of a small mean rounds to 0. */
		seq = (u32)((edge_rng_spread(r, 1000ULL * w->seq_mean,
					     w->seq_rsd) + 500) / 1000);
		if (!seq)
			seq = 1;
	}
	for (i = 0; i < w->nr_parts; i++) {
		n = add_seq(out, n, &w->part[i].pre);
		for (s = 0; s < seq; s++)
			n = add_seq(out, n, &w->part[i].step);
		n = add_seq(out, n, &w->part[i].post);
	}
	return n;
}

struct run {
	struct edge_engine eng;
	struct edge_simt simt;
	struct edge_cp *cp;
	u64 wgs_missed;
	u64 last_done;
	u64 tight_ns;		/* the tightest deadline class */
	u64 *dl;		/* each job's deadline, by cookie */
	u64 tight_met, tight_jobs;
};

static void on_kernel(void *ctx, u64 cookie, u32 code)
{
	struct run *r = ctx;

	if (!edge_cp_kernel_done(r->cp, cookie, code))
		jdie("a kernel that is not the CP's");
}

static void on_job(void *ctx, u64 cookie, u32 state, bool met)
{
	struct run *r = ctx;

	if (state == EDGE_JOB_DONE)
		r->last_done = r->eng.now;
	if (r->dl[cookie] == r->tight_ns) {
		r->tight_jobs++;
		r->tight_met += met;
	}
}

/* Summed over a cell's runs. */
struct result {
	u64 met, done, rejected, dropped, kernels, tight_met, tight_jobs;
	u64 span;		/* first arrival to last completion, ns */
	u64 wgs_all, wgs_met;
	struct edge_lat lat;	/* job latency, us */
};

static void run_one(const struct wl *w, const struct edge_preset *p,
		    u32 rate_idx, u32 policy, u64 seed, struct result *res)
{
	struct edge_simt_cfg scfg;
	struct edge_cp_cfg ccfg;
	struct edge_rng arr, seqr, dlr;
	struct run r;
	struct edge_ev ev;
	u16 *list = malloc(sizeof(u16) * EDGE_CP_JOB_KERNELS);
	u64 next_arrival, mean_ns = 1000000000ULL / w->rate[rate_idx];
	u32 submitted = 0, i;
	u64 first_arrival;

	if (!list)
		jdie("out of memory");
	memset(&r, 0, sizeof(r));
	r.cp = calloc(1, sizeof(*r.cp));
	r.dl = calloc(w->jobs, sizeof(*r.dl));
	if (!r.cp || !r.dl)
		jdie("out of memory");
	r.tight_ns = w->dl_ns[0];
	for (i = 1; i < w->nr_dl; i++)
		if (w->dl_ns[i] < r.tight_ns)
			r.tight_ns = w->dl_ns[i];
	edge_engine_init(&r.eng);
	edge_simt_default_cfg(&scfg);
	/* The same seed for every policy: the same jobs at the same times. */
	scfg.seed = seed + rate_idx;
	if (edge_simt_init(&r.simt, p, &r.eng, &scfg, on_kernel, &r))
		jdie("model init failed");
	ccfg = w->cp;
	ccfg.policy = policy;
	if (edge_cp_init(r.cp, &r.simt, &ccfg, on_job, &r))
		jdie("cp costs or periods out of range");
	for (i = 0; i < w->nr_params; i++)
		if (edge_cp_param_set(r.cp, w->param[i], w->param_v[i], NULL))
			jdie("%s out of range", w->param[i]);
	for (i = 0; i < w->nr_kernels; i++)
		if (edge_cp_set_class(r.cp, i, &w->k[i]))
			jdie("kernel %s rejected", w->kname[i]);
	edge_rng_seed(&arr, seed * 1000003 + rate_idx);
	edge_rng_seed(&seqr, seed * 7919 + rate_idx);
	edge_rng_seed(&dlr, seed * 104729 + rate_idx);
	next_arrival = edge_rng_exp(&arr, mean_ns);
	first_arrival = next_arrival;
	for (;;) {
		u64 te = edge_engine_next_time(&r.eng);

		if (submitted < w->jobs && next_arrival <= te) {
			struct edge_cp_jobdesc d = {
				.cookie = submitted,
				.queue = submitted % EDGE_CP_QUEUES,
				.kernels = list,
			};

			edge_engine_advance(&r.eng, next_arrival);
			d.deadline_ns = draw_deadline(w, &dlr);
			r.dl[submitted] = d.deadline_ns;
			d.nr_kernels = build_job(w, &seqr, list);
			if (edge_cp_submit(r.cp, &d))
				jdie("submit failed");
			submitted++;
			next_arrival += edge_rng_exp(&arr, mean_ns);
			continue;
		}
		if (te == EDGE_TIME_NEVER)
			break;
		if (!edge_engine_pop_due(&r.eng, te, &ev))
			break;
		if (!edge_simt_handle(&r.simt, &ev) && !edge_cp_handle(r.cp, &ev))
			jdie("engine event of unknown kind %u", ev.kind);
	}
	if (!edge_cp_idle(r.cp) || !edge_simt_idle(&r.simt))
		jdie("jobs left when the engine ran dry");
	/* Every job is accounted for, exactly once. */
	if (r.cp->st.done + r.cp->st.rejected + r.cp->st.dropped != w->jobs)
		jdie("%llu done + %llu rejected + %llu dropped != %u jobs",
		     (unsigned long long)r.cp->st.done,
		     (unsigned long long)r.cp->st.rejected,
		     (unsigned long long)r.cp->st.dropped, w->jobs);
	res->met += r.cp->st.met;
	res->done += r.cp->st.done;
	res->rejected += r.cp->st.rejected;
	res->dropped += r.cp->st.dropped;
	res->kernels += r.cp->st.kernels;
	res->tight_met += r.tight_met;
	res->tight_jobs += r.tight_jobs;
	res->span += r.last_done > first_arrival ? r.last_done - first_arrival : 0;
	res->wgs_all += r.cp->st.wgs_all;
	res->wgs_met += r.cp->st.wgs_met;
	edge_lat_merge(&res->lat, &r.cp->st.lat);
	edge_cp_fini(r.cp);
	edge_simt_fini(&r.simt);
	edge_engine_fini(&r.eng);
	free(r.cp);
	free(r.dl);
	free(list);
}

static void jusage(void)
{
	fputs("usage: edge-sim jobs [-P POLICY[,POLICY]...] [-r RATE[,RATE]...] [-R RUNS] [-n] [-H] WORKLOAD\n"
	      "  one CSV row per rate x policy (default: all of both)\n", stderr);
	exit(2);
}

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *s = list;

	if (!list)
		return true;
	while ((s = strstr(s, name))) {
		if ((s == list || s[-1] == ',') && (s[n] == ',' || !s[n]))
			return true;
		s += n;
	}
	return false;
}

int jobsim_main(int argc, char **argv)
{
	static struct wl wl_store;
	const char *pols = NULL, *rates = NULL;
	u32 runs = 0;
	const struct edge_preset *p;
	struct edge_simt_cfg scfg;
	bool header = true;
	struct wl *w;
	int opt;
	u32 ri, pi, k;

	optind = 1;
	while ((opt = getopt(argc, argv, "P:r:R:nH")) != -1) {
		if (opt == 'H') {
			puts(JOBS_CSV_HEADER);
			return 0;
		} else if (opt == 'R')
			runs = (u32)sim_key_num(JWHO, "-R", "-R", optarg, 10,
						"kM", 1, 10000);
		else if (opt == 'P')
			pols = optarg;
		else if (opt == 'r')
			rates = optarg;
		else if (opt == 'n')
			header = false;
		else
			jusage();
	}
	if (optind != argc - 1)
		jusage();
	/* Static: an input error must not leak it (a fuzzer's sim_exit()). */
	w = &wl_store;
	parse_wl(w, argv[optind]);
	if (runs)
		w->runs = runs;
	p = edge_preset_find(w->preset);
	if (!p)
		jdie("unknown preset '%s'", w->preset);
	{
		const char *known[EDGE_POL_NR + MAX_RATES + 1];

		for (pi = 0; pi < EDGE_POL_NR; pi++)
			known[pi] = edge_cp_policy_name(pi);
		known[pi] = NULL;
		sim_check_list(JWHO, "-P", pols, known);
		for (ri = 0; ri < w->nr_rates; ri++)
			known[ri] = w->rate_name[ri];
		known[ri] = NULL;
		sim_check_list(JWHO, "-r", rates, known);
	}
	if (sim_parse_only)
		return 0;
	if (header)
		puts(JOBS_CSV_HEADER);
	for (ri = 0; ri < w->nr_rates; ri++) {
		if (!listed(rates, w->rate_name[ri]))
			continue;
		for (pi = 0; pi < EDGE_POL_NR; pi++) {
			struct result res;
			u64 span;

			if (!listed(pols, edge_cp_policy_name(pi)))
				continue;
			memset(&res, 0, sizeof(res));
			/* Run k uses seed + 1000 k: other jobs, other times. */
			for (k = 0; k < w->runs; k++)
				run_one(w, p, ri, pi, w->seed + 1000ULL * k, &res);
			span = res.span ? res.span : 1;
			printf("%s,%s,%llu,%s,%u,%llu,%llu,%llu,%llu,%.1f,%llu,%.1f,%llu,%llu,%llu",
			       w->name, w->rate_name[ri],
			       (unsigned long long)w->rate[ri],
			       edge_cp_policy_name(pi), w->jobs * w->runs,
			       (unsigned long long)res.met,
			       (unsigned long long)res.done,
			       (unsigned long long)res.rejected,
			       (unsigned long long)res.dropped,
			       res.met * 1e9 / (double)span,
			       (unsigned long long)edge_lat_pct(&res.lat, 99),
			       res.wgs_all ? 100.0 * (double)(res.wgs_all - res.wgs_met) /
					     (double)res.wgs_all : 0.0,
			       (unsigned long long)res.kernels,
			       (unsigned long long)res.tight_met,
			       (unsigned long long)res.tight_jobs);
			/* The model's configuration run_one() uses. */
			edge_simt_default_cfg(&scfg);
			sim_prov(stdout, p->name, edge_cp_policy_name(pi), &scfg,
				 w->seed, w->runs);
			putchar('\n');
		}
	}
	return 0;
}

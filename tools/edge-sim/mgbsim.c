// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim mgb: batch jobs placed across several devices (MGB, Chen,
 * Porter and Pande), for the MGB reproduction.
 *
 * N devices of one preset, each the SIMT model of emul/ on its own
 * engine, stepped in one virtual timeline: the earliest of every
 * device's next event and every job's next host-side step goes first
 * (a job's step before a device event at the same instant, lower indices
 * first), so a run is a pure function of its inputs.
 *
 * A job is a sequence: host time (its start-up), the allocation of its
 * device memory, a copy in, then K times a kernel and host time, a copy
 * out; its memory is held from the allocation to its end.  A pool of
 * workers pulls jobs from a queue filled at t = 0; a worker's job is
 * placed by a placement policy (policy/place.h) when the worker takes it:
 * -EBUSY keeps it waiting (in the worker) until a job ends.  The
 * placement counts the job on its device until it ends; the device's
 * own allocator counts the memory really allocated, and an allocation
 * that does not fit fails: the job crashes (OOM), its worker takes the
 * next job.  Only a memory-blind policy (cg) can get there.
 *
 * Copies take mem / pcie time and use no SM (a copy engine each way,
 * not contended).  Host phases are derived, not given: a job alone on
 * the reference preset (`busy PCT PRESET`) has its kernels running PCT %
 * of its time; its host time is kernel x (100 - PCT) / PCT less its
 * copies, a fifth before the allocation and the rest split after each
 * kernel.  A TB's work is given in ms of the reference preset's clock.
 *
 * The jobs and workloads formats are in Documentation/edge-sim.rst,
 * "Placement across devices".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/preset.h"
#include "gpu/simt.h"
#include "policy/policy.h"
#include "simutil.h"
#include "limits.h"

#define MAX_TYPES	32
#define MAX_JOBS	64
#define MAX_DEVS	8
#define MAX_WL		16
#define MAX_K		16
#define MAX_CG		8
#define NS_PER_MS	1000000ULL
#define MB		(1ULL << 20)

struct jtype {
	char name[24];
	bool large;
	struct edge_place_req req;
	u32 kernels;
	u64 tb_ms;
	u64 kernel_ref_ns;	/* one kernel alone on the reference */
	u64 init_ns, host_ns, cin_ns, cout_ns;
};

struct wload {
	char name[8];
	char mix[8];
	u32 n;
	u32 type[MAX_JOBS];
};

static struct {
	const struct edge_preset *p, *ref;
	u32 busy_pct;
	u64 pcie_mbs;
	struct jtype t[MAX_TYPES];
	u32 nt;
	struct wload w[MAX_WL];
	u32 nw;
	u64 seed;
} g = { .busy_pct = 30, .pcie_mbs = 12000, .seed = 1 };

#define mdie(...)	sim_die("edge-sim mgb", __VA_ARGS__)

/*
 * All of @v a number in C's syntax (decimal, 0x hex, 0 octal), as
 * strtoull(..., 0) has always read mgb's numbers; "abc" or "12x" is
 * refused, not read as 0 or 12.  @what says where, for the message.
 */
static u64 mnum(const char *what, const char *v)
{
	u64 x;

	errno = 0;
	if (!sim_num(v, 0, "", &x))
		mdie("%s: '%s' is not a number", what, v);
	if (errno)
		mdie("%s: '%s' is out of range", what, v);
	return x;
}

/* mnum() for a u32 field: a value past it is refused, not cut short. */
static u32 mnum32(const char *what, const char *v)
{
	u64 x = mnum(what, v);

	if (x > 0xffffffffULL)
		mdie("%s: '%s' is out of range", what, v);
	return (u32)x;
}

/* The kernel of @t on @p: its TBs' work is in cycles of the reference. */
static struct edge_kdesc kdesc(const struct jtype *t,
			       const struct edge_preset *p)
{
	struct edge_kdesc k;

	memset(&k, 0, sizeof(k));
	k.func = EDGE_FN_NOP;
	k.regs_per_thread = 32;
	k.grid[0] = t->req.blocks;
	k.grid[1] = 1;
	k.grid[2] = 1;
	k.block[0] = t->req.threads;
	k.block[1] = 1;
	k.block[2] = 1;
	k.num_tbs = t->req.blocks;
	k.block_threads = t->req.threads;
	k.warps_per_tb = (t->req.threads + p->warp_size - 1) / p->warp_size;
	k.param_size = 8;
	k.ring_entries = 1;
	k.warp_cycles = t->tb_ms * g.ref->clock_khz;
	/* Co-residents on an SM slow each other: +10 % on a full one. */
	k.ws.corun_pct = 10;
	k.ws.rsd_pct = 10;
	return k;
}

/* ---- a run: devices, jobs, workers ---- */

struct dev {
	struct edge_engine eng;
	struct edge_simt simt;
	struct edge_place_dev pd;
	u64 alloc;		/* memory allocated on it, bytes */
	u32 active;		/* kernels launched, not done */
	u64 busy_since, busy_ns;
	struct run *r;
};

struct job {
	const struct jtype *t;
	int dev;		/* -1: not placed */
	u32 step;
	bool running, allocated, crashed, done;
	u64 next;		/* its next host-side step; NEVER in a kernel */
	u64 end;
	u64 klaunch;
	u64 kns[MAX_K];		/* each kernel's launch-to-end time */
	u64 kex[MAX_K];		/* ... and first-TB-to-end time */
};

struct run {
	struct dev d[MAX_DEVS];
	u32 nd;
	struct job j[MAX_JOBS];
	u32 nj;
	u32 qhead;		/* next job of the queue */
	u32 wait[MAX_JOBS];	/* jobs held by workers, no device yet */
	u32 nwait;
	u32 free_workers;
	u32 policy;
	u64 now;
};

static void set_live(struct dev *d)
{
	struct run *r = d->r;
	u32 i;

	d->pd.live_warps = 0;
	for (i = 0; i < r->nj; i++)
		if (r->j[i].dev == (int)(d - r->d) && r->j[i].running &&
		    r->j[i].next == EDGE_TIME_NEVER)
			d->pd.live_warps += edge_place_warps(&d->pd,
							     &r->j[i].t->req);
}

static void job_step(struct run *r, u32 ji);

static void on_done(void *ctx, u64 cookie, u32 code)
{
	struct dev *d = ctx;
	struct run *r = d->r;
	struct job *j = &r->j[cookie];

	if (code != EDGE_CQE_DONE)
		mdie("kernel of job %llu ended with code %u",
		     (unsigned long long)cookie, code);
	r->now = d->eng.now;
	j->kns[(j->step - 2) / 2] = r->now - j->klaunch;
	j->kex[(j->step - 2) / 2] = r->now - d->simt.reporting->first_start;
	if (!--d->active)
		d->busy_ns += r->now - d->busy_since;
	job_step(r, (u32)cookie);
	set_live(d);
}

static bool try_place(struct run *r, u32 ji)
{
	struct edge_place_dev pd[MAX_DEVS];
	struct job *j = &r->j[ji];
	u32 i;
	int at;

	for (i = 0; i < r->nd; i++)
		pd[i] = r->d[i].pd;
	at = edge_place_pick(r->policy, pd, r->nd, &j->t->req);
	if (at < 0)
		return false;
	edge_place_add(&r->d[at].pd, &j->t->req);
	j->dev = at;
	j->running = true;
	j->step = 0;
	j->next = r->now + j->t->init_ns;
	return true;
}

/* Free workers and released devices: waiting jobs first, then the queue. */
static void dispatch(struct run *r)
{
	u32 i, kept = 0;

	for (i = 0; i < r->nwait; i++)
		if (!try_place(r, r->wait[i]))
			r->wait[kept++] = r->wait[i];
	r->nwait = kept;
	while (r->free_workers && r->qhead < r->nj) {
		u32 ji = r->qhead++;

		r->free_workers--;
		if (!try_place(r, ji))
			r->wait[r->nwait++] = ji;
	}
}

static void job_leave(struct run *r, u32 ji)
{
	struct job *j = &r->j[ji];
	struct dev *d = &r->d[j->dev];

	edge_place_sub(&d->pd, &j->t->req);
	if (j->allocated)
		d->alloc -= j->t->req.mem;
	j->running = false;
	j->next = EDGE_TIME_NEVER;
	j->end = r->now;
	r->free_workers++;
	dispatch(r);
}

/*
 * Steps: 0 start-up host time; 1 allocation and copy in; 2 + 2i kernel i;
 * 3 + 2i host time after it; 2 + 2K copy out; 3 + 2K the end.
 */
static void job_step(struct run *r, u32 ji)
{
	struct job *j = &r->j[ji];
	const struct jtype *t = j->t;
	struct dev *d = &r->d[j->dev];
	u32 s = ++j->step, last = 2 + 2 * t->kernels;

	if (s == 1) {
		if (d->alloc + t->req.mem > d->pd.mem_total) {
			j->crashed = true;	/* cudaMalloc: out of memory */
			job_leave(r, ji);
			return;
		}
		d->alloc += t->req.mem;
		j->allocated = true;
		j->next = r->now + t->cin_ns;
	} else if (s < last && !(s & 1)) {
		struct edge_kdesc k = kdesc(t, d->simt.p);

		edge_engine_advance(&d->eng, r->now);
		j->klaunch = r->now;
		j->next = EDGE_TIME_NEVER;
		if (edge_simt_launch_deferred(&d->simt, &k, ji, 0))
			mdie("launch refused");
		if (!d->active++)
			d->busy_since = r->now;
		edge_simt_schedule(&d->simt);
		set_live(d);
	} else if (s < last) {
		j->next = r->now + t->host_ns;
	} else if (s == last) {
		j->next = r->now + t->cout_ns;
	} else {
		j->done = true;
		job_leave(r, ji);
	}
}

struct outcome {
	u32 completed, crashed;
	u64 makespan, turnaround_sum, busy_ns;
	u64 kns[MAX_JOBS][MAX_K];
	u64 kex[MAX_JOBS][MAX_K];
};

static void run(const struct wload *w, u32 ndev, u32 policy, u32 workers,
		struct outcome *o)
{
	static struct run r;
	struct edge_simt_cfg cfg;
	struct edge_ev ev;
	u32 i;

	memset(&r, 0, sizeof(r));
	memset(o, 0, sizeof(*o));
	r.nd = ndev;
	r.policy = policy;
	r.free_workers = workers;
	edge_simt_default_cfg(&cfg);
	for (i = 0; i < ndev; i++) {
		struct dev *d = &r.d[i];

		d->r = &r;
		edge_engine_init(&d->eng);
		cfg.seed = g.seed * 1000003 + i;
		if (edge_simt_init(&d->simt, g.p, &d->eng, &cfg, on_done, d))
			mdie("model init failed");
		edge_place_dev_init(&d->pd, g.p);
	}
	r.nj = w->n;
	for (i = 0; i < r.nj; i++) {
		r.j[i].t = &g.t[w->type[i]];
		r.j[i].dev = -1;
		r.j[i].next = EDGE_TIME_NEVER;
	}
	dispatch(&r);
	for (;;) {
		u64 t = EDGE_TIME_NEVER;
		int who = -1, dv = -1;

		for (i = 0; i < r.nj; i++)
			if (r.j[i].running && r.j[i].next < t) {
				t = r.j[i].next;
				who = (int)i;
			}
		for (i = 0; i < r.nd; i++) {
			u64 te = edge_engine_next_time(&r.d[i].eng);

			if (te < t) {
				t = te;
				dv = (int)i;
				who = -1;
			}
		}
		if (t == EDGE_TIME_NEVER)
			break;
		if (who >= 0) {
			r.now = t;
			job_step(&r, (u32)who);
			continue;
		}
		if (!edge_engine_pop_due(&r.d[dv].eng, t, &ev) ||
		    !edge_simt_handle(&r.d[dv].simt, &ev))
			mdie("engine event of unknown kind");
	}
	if (r.qhead < r.nj || r.nwait)
		mdie("%s: %u jobs never placed (one fits no device?)", w->name,
		     r.nj - r.qhead + r.nwait);
	for (i = 0; i < r.nj; i++) {
		struct job *j = &r.j[i];

		o->completed += j->done;
		o->crashed += j->crashed;
		o->turnaround_sum += j->end;
		if (j->end > o->makespan)
			o->makespan = j->end;
		memcpy(o->kns[i], j->kns, sizeof(j->kns));
		memcpy(o->kex[i], j->kex, sizeof(j->kex));
	}
	for (i = 0; i < r.nd; i++) {
		o->busy_ns += r.d[i].busy_ns;
		edge_simt_fini(&r.d[i].simt);
		edge_engine_fini(&r.d[i].eng);
	}
}

/* One kernel of @t alone on the reference preset, ns. */
static u64 kernel_alone(const struct jtype *t, const struct edge_preset *p)
{
	static struct edge_engine eng;
	static struct edge_simt s;
	struct edge_simt_cfg cfg;
	struct edge_kdesc k = kdesc(t, p);
	struct edge_ev ev;
	u64 d;

	edge_engine_init(&eng);
	edge_simt_default_cfg(&cfg);
	cfg.seed = g.seed;
	if (edge_simt_init(&s, p, &eng, &cfg, NULL, NULL))
		mdie("model init failed");
	if (edge_simt_launch(&s, &k, 1, 0))
		mdie("%s: launch refused", t->name);
	while (edge_engine_pop_due(&eng, edge_engine_next_time(&eng), &ev))
		edge_simt_handle(&s, &ev);
	d = eng.now;
	edge_simt_fini(&s);
	edge_engine_fini(&eng);
	return d;
}

/* ---- input ---- */

static char *next_tok(char **save)
{
	return strtok_r(NULL, " \t\n", save);
}

/* The line being read, for every message about it. */
static char mwhere[600] = "command line";

#define MWHO	"edge-sim mgb"

static void parse_job(char **save, u32 line)
{
	static const char *const keys[] = {
		"mem_mb", "threads", "blocks", "tb_ms", "kernels", NULL
	};
	struct jtype *t;
	char *tok = next_tok(save), *cls = next_tok(save);
	u64 mem_mb = 0;

	(void)line;
	if (g.nt == MAX_TYPES)
		sim_bad(MWHO, mwhere, "job", tok ? tok : "", "at most %u jobs",
			MAX_TYPES);
	t = &g.t[g.nt++];
	if (!tok || strlen(tok) >= sizeof(t->name))
		sim_bad(MWHO, mwhere, "job", tok ? tok : "", "a name of at "
			"most %zu characters", sizeof(t->name) - 1);
	if (!cls || (strcmp(cls, "small") && strcmp(cls, "large")))
		sim_bad(MWHO, mwhere, "class", cls ? cls : "", "small or large");
	strcpy(t->name, tok);
	t->large = !strcmp(cls, "large");
	while ((tok = next_tok(save))) {
		char *eq = strchr(tok, '=');

		if (!eq)
			sim_bad(MWHO, mwhere, tok, "", "expected key=value");
		*eq++ = 0;
		if (!strcmp(tok, "mem_mb"))
			/* 2^24 MB = 16 TB: its bytes far inside a u64. */
			mem_mb = sim_key_num(MWHO, mwhere, tok, eq, 0, "", 1,
					     1ULL << 24);
		else if (!strcmp(tok, "threads"))
			t->req.threads = (u32)sim_key_num(MWHO, mwhere, tok, eq,
							  0, "", 64, 1024);
		else if (!strcmp(tok, "blocks"))
			t->req.blocks = (u32)sim_key_num(MWHO, mwhere, tok, eq,
							 0, "", 1, EDGE_MAX_GRID_X);
		else if (!strcmp(tok, "tb_ms"))
			/* Its cycles at 2 GHz within the model's 2^40. */
			t->tb_ms = sim_key_num(MWHO, mwhere, tok, eq, 0, "", 1,
					       EDGE_MAX_WARP_CYCLES / 2000000);
		else if (!strcmp(tok, "kernels"))
			t->kernels = (u32)sim_key_num(MWHO, mwhere, tok, eq, 0,
						      "", 1, MAX_K);
		else
			sim_unknown(MWHO, mwhere, "job key", tok, keys);
	}
	t->req.mem = mem_mb * MB;
	if (!mem_mb)
		sim_bad(MWHO, mwhere, "mem_mb", "", "missing: from 1 to %llu",
			1ULL << 24);
	if (!t->req.threads)
		sim_bad(MWHO, mwhere, "threads", "", "missing: from 64 to 1024");
	if (!t->req.blocks)
		sim_bad(MWHO, mwhere, "blocks", "", "missing");
	if (!t->tb_ms)
		sim_bad(MWHO, mwhere, "tb_ms", "", "missing");
	if (!t->kernels)
		sim_bad(MWHO, mwhere, "kernels", "", "missing: from 1 to %u",
			MAX_K);
}

static u32 type_of(const char *name, u32 line)
{
	u32 i;

	for (i = 0; i < g.nt; i++)
		if (!strcmp(g.t[i].name, name))
			return i;
	mdie("line %u: no job '%s'", line, name);
	return 0;
}

static void load(const char *path, bool table)
{
	FILE *f = fopen(path, "r");
	char buf[2048], what[320], *save, *tok;
	u32 line = 0;

	if (!f)
		mdie("%s: cannot open", path);
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		snprintf(mwhere, sizeof(mwhere), "%s:%u", path, line);
		tok = strtok_r(buf, " \t\n", &save);
		if (!tok || tok[0] == '#')
			continue;
		if (table) {
			struct wload *w = &g.w[g.nw];

			if (g.nw == MAX_WL || strlen(tok) >= sizeof(w->name))
				mdie("%s:%u: too many workloads or a long name",
				     path, line);
			g.nw++;
			strcpy(w->name, tok);
			tok = next_tok(&save);
			if (!tok || strlen(tok) >= sizeof(w->mix))
				mdie("%s:%u: NAME MIX JOB...", path, line);
			strcpy(w->mix, tok);
			while ((tok = next_tok(&save))) {
				if (w->n == MAX_JOBS)
					mdie("%s:%u: over %u jobs", path, line,
					     MAX_JOBS);
				w->type[w->n++] = type_of(tok, line);
			}
			/* No job: NaN rows once, with exit 0. */
			if (!w->n)
				sim_bad(MWHO, mwhere, "workload", w->name,
					"no job: NAME MIX JOB...");
		} else if (!strcmp(tok, "job")) {
			parse_job(&save, line);
		} else if (!strcmp(tok, "busy")) {
			tok = next_tok(&save);
			snprintf(what, sizeof(what), "%s:%u: busy", path, line);
			g.busy_pct = tok ? mnum32(what, tok) : 0;
			tok = next_tok(&save);
			g.ref = tok ? edge_preset_find(tok) : NULL;
			if (!g.busy_pct || g.busy_pct >= 100 || !g.ref)
				mdie("%s:%u: busy PCT PRESET", path, line);
		} else if (!strcmp(tok, "pcie")) {
			tok = next_tok(&save);
			snprintf(what, sizeof(what), "%s:%u: pcie", path, line);
			g.pcie_mbs = tok ? mnum(what, tok) : 0;
			if (!g.pcie_mbs)
				mdie("%s:%u: pcie MB/s", path, line);
		} else {
			sim_unknown(MWHO, mwhere, "line", tok, (const char *const[]){
				"job", "busy", "pcie", NULL });
		}
	}
	fclose(f);
	if (table && !g.nw)
		sim_bad(MWHO, path, "workload", "", "missing: at least one");
	if (!table && !g.nt)
		sim_bad(MWHO, path, "job", "", "missing: at least one");
}

/* Host phases and copies, from the busy share on the reference. */
static void derive(void)
{
	u32 i;

	for (i = 0; i < g.nt; i++) {
		struct jtype *t = &g.t[i];
		u64 kern, host;

		t->kernel_ref_ns = kernel_alone(t, g.ref);
		kern = t->kernel_ref_ns * t->kernels;
		t->cin_ns = t->req.mem / MB * 1000000000ULL / g.pcie_mbs;
		t->cout_ns = t->cin_ns / 4;
		host = kern * (100 - g.busy_pct) / g.busy_pct;
		host = host > t->cin_ns + t->cout_ns ?
		       host - t->cin_ns - t->cout_ns : 0;
		t->init_ns = host / 5;
		t->host_ns = (host - t->init_ns) / t->kernels;
	}
}

/* ---- output ---- */

/* End a row with its provenance: every device runs the default config. */
static void mgb_prov(void)
{
	struct edge_simt_cfg c;

	edge_simt_default_cfg(&c);
	sim_prov(stdout, g.p->name, "none", &c, g.seed, 1);
	putchar('\n');
}

static void print_types(void)
{
	u32 i;

	printf("job,class,mem_gb,threads,blocks,kernels,kernel_s,host_s,copy_s,alone_s,busy_pct,"
	       SIM_PROV_COLS "\n");
	for (i = 0; i < g.nt; i++) {
		const struct jtype *t = &g.t[i];
		double k = (double)kernel_alone(t, g.p) * t->kernels / 1e9;
		double h = (double)(t->init_ns + t->host_ns * t->kernels) / 1e9;
		double c = (double)(t->cin_ns + t->cout_ns) / 1e9;

		printf("%s,%s,%.2f,%u,%u,%u,%.2f,%.2f,%.2f,%.2f,%.1f",
		       t->name, t->large ? "large" : "small",
		       (double)t->req.mem / (1 << 30), t->req.threads,
		       t->req.blocks, t->kernels, k, h, c, k + h + c,
		       100 * k / (k + h + c));
		mgb_prov();
	}
}

/* Mean of each kernel's time over its time in @base, less 1, in %. */
static double kslow(const struct wload *w, const u64 (*o)[MAX_K],
		    const u64 (*base)[MAX_K])
{
	double sum = 0;
	u32 i, k, n = 0;

	for (i = 0; i < w->n; i++)
		for (k = 0; k < g.t[w->type[i]].kernels; k++) {
			if (!o[i][k] || !base[i][k])
				continue;
			sum += (double)o[i][k] / (double)base[i][k];
			n++;
		}
	return n ? 100 * (sum / n - 1) : 0;
}

static void row(const struct wload *w, u32 ndev, const char *pol,
		u32 workers, const struct outcome *o, const struct outcome *sa)
{
	printf("%s,%u,%s,%u,%s,%s,%u,%u,%u,%.2f,%.2f,%.2f,%.2f,%.1f",
	       g.p->name, ndev, w->name, w->n, w->mix, pol, workers,
	       o->completed, o->crashed, (double)o->makespan / 1e9,
	       (double)o->turnaround_sum / w->n / 1e9,
	       kslow(w, o->kns, sa->kns), kslow(w, o->kex, sa->kex),
	       100.0 * (double)o->busy_ns / ((double)o->makespan * ndev));
	mgb_prov();
}

static u32 parse_list(const char *s, u32 *out, u32 max)
{
	u32 n = 0;

	while (s && *s && n < max) {
		size_t len = strcspn(s, ",");
		char num[32];

		snprintf(num, sizeof(num), "%.*s", (int)len, s);
		if (len >= sizeof(num))
			mdie("-c: '%s' is not a number", num);
		out[n++] = mnum32("-c", num);
		s = s[len] ? s + len + 1 : NULL;
	}
	return n;
}

int mgbsim_main(int argc, char **argv)
{
	static struct outcome sa, o;
	u32 ndev = 2, workers = 10, cg[MAX_CG] = { 3, 4, 5, 6 }, ncg = 4;
	const char *only = NULL, *pols = "mgb-alg2,mgb-alg3,mgb-live";
	bool types = false;
	u32 i, c;
	int opt;

	/* Each call from nothing: a fuzzer calls it again and again. */
	memset(&g, 0, sizeof(g));
	g.busy_pct = 30;
	g.pcie_mbs = 12000;
	g.seed = 1;
	g.p = edge_preset_find("p100");
	while ((opt = getopt(argc, argv, "m:g:W:c:w:P:s:T")) != -1) {
		switch (opt) {
		case 'm':
			g.p = edge_preset_find(optarg);
			if (!g.p)
				sim_unknown(MWHO, "-m", "preset", optarg,
					    preset_names());
			break;
		case 'g':
			ndev = mnum32("-g", optarg);
			break;
		case 'W':
			workers = mnum32("-W", optarg);
			break;
		case 'c':
			ncg = parse_list(optarg, cg, MAX_CG);
			break;
		case 'w':
			only = optarg;
			break;
		case 'P':
			pols = optarg;
			break;
		case 's':
			g.seed = mnum("-s", optarg);
			break;
		case 'T':
			types = true;
			break;
		default:
			mdie("usage: edge-sim mgb [-m PRESET] [-g GPUS] [-W WORKERS] [-c CG,WORKERS] [-w W1,W2] [-P POLICIES] [-s SEED] [-T] JOBS TABLE");
		}
	}
	if (argc - optind != 2 || !ndev || ndev > MAX_DEVS || !workers ||
	    workers > MAX_JOBS)
		mdie("need JOBS and TABLE files; 1..%u GPUs, 1..%u workers",
		     MAX_DEVS, MAX_JOBS);
	g.ref = g.p;
	{
		const char *known[EDGE_PLACE_NR + 1];

		for (i = 0; i < EDGE_PLACE_NR; i++)
			known[i] = edge_place_policy_name(i);
		known[i] = NULL;
		sim_check_list(MWHO, "-P", pols, known);
	}
	load(argv[optind], false);
	load(argv[optind + 1], true);
	{
		const char *known[MAX_WL + 1];

		for (i = 0; i < g.nw; i++)
			known[i] = g.w[i].name;
		known[i] = NULL;
		sim_check_list(MWHO, "-w", only, known);
	}
	if (sim_parse_only)
		return 0;
	derive();
	if (types) {
		print_types();
		return 0;
	}
	printf("preset,gpus,workload,jobs,mix,policy,workers,completed,crashed,makespan_s,turnaround_s,kslow_pct,kexec_pct,busy_pct,"
	       SIM_PROV_COLS "\n");
	for (i = 0; i < g.nw; i++) {
		const struct wload *w = &g.w[i];
		char list[256], *tok, *save;

		if (only) {
			char pat[16];

			snprintf(pat, sizeof(pat), ",%s,", w->name);
			snprintf(list, sizeof(list), ",%s,", only);
			if (!strstr(list, pat))
				continue;
		}
		run(w, ndev, EDGE_PLACE_SA, ndev, &sa);
		row(w, ndev, "sa", ndev, &sa, &sa);
		for (c = 0; c < ncg; c++) {
			run(w, ndev, EDGE_PLACE_CG, cg[c], &o);
			row(w, ndev, "cg", cg[c], &o, &sa);
		}
		snprintf(list, sizeof(list), "%s", pols);
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int id = edge_place_policy_find(tok);

			if (id < 0)
				mdie("unknown placement policy %s", tok);
			run(w, ndev, (u32)id, workers, &o);
			row(w, ndev, tok, workers, &o, &sa);
		}
	}
	return 0;
}

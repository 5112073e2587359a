// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim: run a scenario on the SIMT model in virtual time.
 *
 * The model is emul/ itself (simt.c, preempt.c, engine.c, ...), linked
 * as it is built into edge.ko: this file holds no scheduling policy.  It
 * only reads a scenario (Documentation/edge-sim.rst, simscen.c), launches the
 * background kernels and event streams it describes into a struct
 * edge_simt at their virtual times, steps the shared engine, and prints
 * what the model's statistics say, as one CSV row.
 *
 * A run is a pure function of the scenario and its seed: no wall clock,
 * no unordered iteration, integer time.  The same input gives
 * byte-identical output.
 */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "gpu/simt.h"
#include "validate.h"
#include "fn/func.h"
#include "simscen.h"
#include "simtrace.h"
#include "simutil.h"

static const char *prog = "edge-sim";

#define die(...)	sim_die(prog, __VA_ARGS__)

/* ---------------------------------------------------------------- running */

#define COOKIE_BG	(1ULL << 63)
#define COOKIE_STREAM(c)	((u32)(((c) >> 40) & 0xff))
#define COOKIE_SEQ(c)	((c) & 0xffffffffffULL)

struct stream_rt {
	const struct sdef *d;
	struct edge_kdesc k;
	struct edge_rng rng;
	u64 next;		/* next arrival, ns; EDGE_TIME_NEVER: none */
	u64 generated;
	u64 launched;
	u64 done;
	u64 dropped;
	u64 backlogged;		/* arrivals that waited for the cap */
	u64 backlog;		/* waiting now */
	u32 inflight;
	u64 *launch_ns;		/* per launched event */
	u64 nlaunch_ns;
	u64 *uni;		/* uniform arrival times, ns, sorted */
	u64 nuni, iuni;
	u64 runtime_sum_ns;
	bool blocked;		/* the model refused a launch: wait for it */
};

struct result {
	struct edge_lat sched;		/* event warps, cycles */
	struct edge_lat preempt;
	struct edge_tag_lat stream[MAX_STREAMS];	/* ... per stream */
	u64 stall_cycles[EDGE_STALL_NR];
	u64 stall_count[EDGE_STALL_NR];
	u64 preemptions, ewarps_free, ewarps_waited;
	u64 tbs_dispatched, tbs_iso;
	u64 ev_generated, ev_launched, ev_done, ev_dropped, ev_backlogged;
	u64 ev_runtime_sum;		/* cycles */
	u64 ev_sd_sum_milli, ev_prog_sum_milli;
	u64 remaining_sum, remaining_n;	/* cycles */
	u64 bg_runtime_sum, bg_iso_sum;	/* cycles */
	u64 bg_sd_sum_milli, bg_prog_sum_milli;
	u32 bg_runs;
	u64 antt_emul_sum, stp_emul_sum;
	u64 sim_cycles_sum;
	u32 runs;
};

struct sim {
	struct edge_engine eng;
	struct edge_simt simt;
	const struct scen *sc;
	/* background */
	bool bg;
	struct edge_kdesc bgk;
	u32 bg_chain;
	u64 bg_gap_ns;
	u32 bg_launched, bg_finished;
	u64 bg_next;		/* next launch, ns */
	u64 bg_start, bg_end;	/* ns */
	u64 bg_launch;		/* ns, the running instance's launch */
	bool bg_complete;
	/* streams */
	int ns;
	struct stream_rt s[MAX_STREAMS];
	/* each tag's latencies: the background's (0), then each stream's */
	struct edge_tag_lat tag_lat[1 + MAX_STREAMS];
};

static void build_kdesc(const struct scen *sc, const struct edge_preset *p,
			const char *name, struct edge_kdesc *out)
{
	struct kdef *k = find_kernel((struct scen *)sc, name);

	if (!k)
		die("no kernel named '%s'", name);
	if (edge_validate_register(p, &k->r, out))
		die("kernel %s: the model rejects it on preset %s "
		    "(edge_validate_register)", name, p->name);
}

/* The run -T traces (the first with events), and its scenario. */
static struct sim *traced;
static const struct scen *traced_sc;

static void trace_name(u64 cookie, char *buf, size_t len)
{
	if (cookie & COOKIE_BG)
		snprintf(buf, len, "%s", traced_sc->bg.kernel);
	else
		snprintf(buf, len, "%s",
			 traced_sc->s[COOKIE_STREAM(cookie)].name);
}

/* A kernel of the traced run completed: its slice, launch to now. */
static void trace_kernel(struct sim *m, u64 cookie)
{
	char name[NAME_LEN + 8];
	u64 launch;

	trace_name(cookie, name, sizeof(name));
	if (cookie & COOKIE_BG) {
		launch = m->bg_launch;
	} else {
		struct stream_rt *s = &m->s[COOKIE_STREAM(cookie)];

		launch = s->launch_ns[COOKIE_SEQ(cookie)];
	}
	simtrace_kernel(name, cookie, launch, m->eng.now);
}

static void on_done(void *ctx, u64 cookie, u32 code)
{
	struct sim *m = ctx;
	u64 now = m->eng.now, seq;
	struct stream_rt *s;
	int i;

	if (code != EDGE_CQE_DONE)
		die("kernel completed with code %u", code);
	if (m == traced)
		trace_kernel(m, cookie);
	/* something left the model: a refused launch may fit now */
	for (i = 0; i < m->ns; i++)
		m->s[i].blocked = false;
	if (cookie & COOKIE_BG) {
		if (++m->bg_finished == m->bg_chain) {
			m->bg_end = now;
			m->bg_complete = true;
		} else {
			m->bg_next = now + m->bg_gap_ns;
		}
		return;
	}
	s = &m->s[COOKIE_STREAM(cookie)];
	seq = COOKIE_SEQ(cookie);
	EDGE_ASSERT(seq < s->nlaunch_ns && s->inflight);
	s->runtime_sum_ns += now - s->launch_ns[seq];
	s->inflight--;
	s->done++;
}

static u64 rng_range(struct edge_rng *r, u64 n)
{
	return (u64)(((unsigned __int128)edge_rng_next(r) * n) >> 64);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 next_poisson(struct sim *m, struct stream_rt *s, u64 after)
{
	u64 gap = edge_simt_cyc2ns(&m->simt, edge_rng_exp(&s->rng, s->d->mean));

	return after + (gap ? gap : 1);
}

/* The stream's next arrival after one at @t (ns), or EDGE_TIME_NEVER. */
static u64 stream_next(struct sim *m, struct stream_rt *s, u64 t)
{
	const struct sdef *d = s->d;
	u64 n;

	if (d->count && s->generated >= d->count)
		return EDGE_TIME_NEVER;
	if (d->arrival == ARR_UNIFORM)
		return s->iuni < s->nuni ? s->uni[s->iuni] : EDGE_TIME_NEVER;
	n = next_poisson(m, s, t);
	if (d->to && n >= edge_simt_cyc2ns(&m->simt, d->to))
		return EDGE_TIME_NEVER;
	return n;
}

/* False when the model's queues are full (-EBUSY): nothing changed. */
static bool launch_event(struct sim *m, int i)
{
	struct stream_rt *s = &m->s[i];
	u64 seq = s->nlaunch_ns;
	u64 cookie = ((u64)i << 40) | seq;

	if (edge_simt_launch(&m->simt, &s->k, cookie, 1 + i)) {
		s->blocked = true;
		return false;
	}
	if (seq % 4096 == 0) {
		s->launch_ns = realloc(s->launch_ns,
				       (seq + 4096) * sizeof(*s->launch_ns));
		if (!s->launch_ns)
			die("out of memory");
	}
	s->launch_ns[s->nlaunch_ns++] = m->eng.now;
	s->launched++;
	s->inflight++;
	return true;
}

static bool below_cap(const struct stream_rt *s)
{
	return !s->d->cap || s->inflight < s->d->cap;
}

static void arrive(struct sim *m, int i)
{
	struct stream_rt *s = &m->s[i];
	u64 t = s->next;

	s->generated++;
	if (s->d->arrival == ARR_UNIFORM)
		s->iuni++;
	if (!below_cap(s) || s->backlog || !launch_event(m, i)) {
		if (s->d->overflow == OVF_DROP) {
			s->dropped++;
		} else {
			s->backlog++;
			s->backlogged++;
		}
	}
	s->next = stream_next(m, s, t);
}

/* Earliest host action: a background launch, an arrival, a backlog. */
static u64 host_next(struct sim *m)
{
	u64 t = m->bg && m->bg_launched < m->bg_chain ? m->bg_next :
		EDGE_TIME_NEVER;
	int i;

	for (i = 0; i < m->ns; i++) {
		struct stream_rt *s = &m->s[i];

		if (s->backlog && below_cap(s) && !s->blocked)
			return m->eng.now;
		if (s->next < t)
			t = s->next;
	}
	return t;
}

static void host_step(struct sim *m, u64 t)
{
	int i;

	if (m->bg && m->bg_launched < m->bg_chain && m->bg_next == t) {
		u64 cookie = COOKIE_BG | m->bg_launched;

		if (edge_simt_launch(&m->simt, &m->bgk, cookie, 0))
			die("background launch refused");
		if (!m->bg_launched)
			m->bg_start = t;
		m->bg_launch = t;
		m->bg_launched++;
		m->bg_next = EDGE_TIME_NEVER;
	}
	for (i = 0; i < m->ns; i++) {
		struct stream_rt *s = &m->s[i];

		while (s->backlog && below_cap(s) && !s->blocked &&
		       launch_event(m, i))
			s->backlog--;
		while (s->next == t) {
			if (s->d->stop_bg && m->bg && m->bg_complete) {
				s->next = EDGE_TIME_NEVER;
				break;
			}
			arrive(m, i);
		}
	}
}

/*
 * One simulation.  @events false: the background alone (the isolated
 * reference).  @bg_iso_ns: the isolated background's runtime, the default
 * window of uniform arrivals.
 */
static void simulate(const struct scen *sc, const struct edge_preset *p,
		     u64 seed, bool events, u64 bg_iso_ns, struct sim *m)
{
	struct edge_simt_cfg cfg = sc->cfg;
	struct edge_ev ev;
	u64 until;
	int i;

	memset(m, 0, sizeof(*m));
	m->sc = sc;
	cfg.seed = seed;
	if (!events && cfg.sched == EDGE_SCHED_RESERVE)
		cfg.sched = EDGE_SCHED_DRAIN;	/* isolated: the whole GPU */
	edge_engine_init(&m->eng);
	if (m == traced)
		simtrace_start(&m->eng);
	if (edge_simt_init(&m->simt, p, &m->eng, &cfg, on_done, m))
		die("edge_simt_init failed (bad knobs?)");
	edge_simt_set_tag_lat(&m->simt, m->tag_lat, ARRAY_SIZE(m->tag_lat));
	until = sc->until ? edge_simt_cyc2ns(&m->simt, sc->until) :
		EDGE_TIME_NEVER;

	m->bg_next = EDGE_TIME_NEVER;
	if (sc->bg.set) {
		struct kdef *k = find_kernel((struct scen *)sc, sc->bg.kernel);

		if (!k)
			die("background: no kernel named '%s'", sc->bg.kernel);
		build_kdesc(sc, p, sc->bg.kernel, &m->bgk);
		m->bg = true;
		m->bg_chain = sc->bg.chain ? sc->bg.chain : k->chain;
		if (!m->bg_chain)
			m->bg_chain = 1;
		m->bg_gap_ns = edge_simt_cyc2ns(&m->simt, sc->bg.gap_set ?
						sc->bg.gap : k->gap);
		m->bg_next = edge_simt_cyc2ns(&m->simt, sc->bg.at);
	}
	m->ns = events ? sc->ns : 0;
	for (i = 0; i < m->ns; i++) {
		struct stream_rt *s = &m->s[i];
		const struct sdef *d = &sc->s[i];

		s->d = d;
		build_kdesc(sc, p, d->kernel, &s->k);
		/* each stream its own generator, apart from the model's */
		edge_rng_seed(&s->rng, seed * 0x9e3779b97f4a7c15ULL +
			      0x5eed0000ULL + (u64)i);
		if (d->arrival == ARR_UNIFORM) {
			u64 from = edge_simt_cyc2ns(&m->simt, d->from);
			u64 to = d->to ? edge_simt_cyc2ns(&m->simt, d->to) :
				 bg_iso_ns ? bg_iso_ns : until;
			u64 j;

			if (!d->count)
				die("stream %s: uniform arrivals need a count",
				    d->name);
			if (to == EDGE_TIME_NEVER || to <= from)
				die("stream %s: empty arrival window", d->name);
			s->uni = malloc(d->count * sizeof(*s->uni));
			if (!s->uni)
				die("out of memory");
			for (j = 0; j < d->count; j++)
				s->uni[j] = from + rng_range(&s->rng, to - from);
			qsort(s->uni, d->count, sizeof(*s->uni), cmp_u64);
			s->nuni = d->count;
			s->next = s->uni[0];
		} else {
			if (!d->mean)
				die("stream %s: poisson arrivals need a mean",
				    d->name);
			s->next = next_poisson(m, s, edge_simt_cyc2ns(&m->simt,
								  d->from));
			if (d->to && s->next >= edge_simt_cyc2ns(&m->simt, d->to))
				s->next = EDGE_TIME_NEVER;
		}
	}

	for (;;) {
		u64 tm = edge_engine_next_time(&m->eng);
		u64 th = host_next(m);

		if (tm == EDGE_TIME_NEVER && th == EDGE_TIME_NEVER)
			break;
		/* Model events due at a time run before host actions then. */
		if (tm <= th) {
			if (tm > until)
				break;
			if (edge_engine_pop_due(&m->eng, tm, &ev) &&
			    !edge_simt_handle(&m->simt, &ev))
				die("engine event of unknown kind %u", ev.kind);
			continue;
		}
		if (th > until)
			break;
		edge_engine_advance(&m->eng, th);
		host_step(m, th);
	}
}

static u64 ratio_milli(u64 a, u64 b)
{
	return b ? (u64)(((unsigned __int128)a * 1000 + b / 2) / b) : 0;
}

static void sim_free(struct sim *m)
{
	int i;

	for (i = 0; i < MAX_STREAMS; i++) {
		free(m->s[i].launch_ns);
		free(m->s[i].uni);
	}
	edge_simt_fini(&m->simt);
	edge_engine_fini(&m->eng);
}

static void run_one(const struct scen *sc, const struct edge_preset *p,
		    u64 seed, bool trace, struct result *res)
{
	static struct sim iso, mix;
	const struct edge_simt_stats *st;
	u64 bg_iso_ns = 0;
	int i, k;

	if (sc->bg.set) {
		simulate(sc, p, seed, false, 0, &iso);
		if (!iso.bg_complete)
			die("the isolated background did not finish (until?)");
		bg_iso_ns = iso.bg_end - iso.bg_start;
		res->tbs_iso += iso.simt.st.tbs_dispatched;
		sim_free(&iso);
	}
	if (trace) {
		traced = &mix;
		traced_sc = sc;
	}
	simulate(sc, p, seed, true, bg_iso_ns, &mix);
	if (trace) {
		simtrace_stop();
		traced = NULL;
	}
	st = &mix.simt.st;

	edge_lat_merge(&res->sched, &st->sched);
	edge_lat_merge(&res->preempt, &st->preempt);
	for (k = 0; k < EDGE_STALL_NR; k++) {
		res->stall_cycles[k] += st->stall_cycles[k];
		res->stall_count[k] += st->stall_count[k];
	}
	res->preemptions += st->preemptions;
	res->ewarps_free += st->ewarps_free;
	res->ewarps_waited += st->ewarps_waited;
	res->tbs_dispatched += st->tbs_dispatched;
	for (i = 0; i < mix.ns; i++) {
		struct stream_rt *s = &mix.s[i];
		const struct edge_tag_stats *t = &st->tag[1 + i];

		res->ev_generated += s->generated;
		res->ev_launched += s->launched;
		res->ev_done += s->done;
		res->ev_dropped += s->dropped;
		res->ev_backlogged += s->backlogged;
		res->ev_runtime_sum += edge_simt_ns2cyc(&mix.simt,
							s->runtime_sum_ns);
		res->ev_sd_sum_milli += t->slowdown_sum_milli;
		res->ev_prog_sum_milli += t->progress_sum_milli;
		edge_lat_merge(&res->stream[i].sched, &mix.tag_lat[1 + i].sched);
		edge_lat_merge(&res->stream[i].preempt,
			       &mix.tag_lat[1 + i].preempt);
		if (mix.bg_complete) {
			u64 j;

			for (j = 0; j < s->nlaunch_ns; j++) {
				u64 l = s->launch_ns[j];

				if (l < mix.bg_start || l >= mix.bg_end)
					continue;
				res->remaining_sum +=
					edge_simt_ns2cyc(&mix.simt,
							 mix.bg_end - l);
				res->remaining_n++;
			}
		}
	}
	if (sc->bg.set && mix.bg_complete) {
		u64 run = mix.bg_end - mix.bg_start;

		res->bg_runtime_sum += edge_simt_ns2cyc(&mix.simt, run);
		res->bg_iso_sum += edge_simt_ns2cyc(&mix.simt, bg_iso_ns);
		res->bg_sd_sum_milli += ratio_milli(run, bg_iso_ns);
		res->bg_prog_sum_milli += ratio_milli(bg_iso_ns, run);
		res->bg_runs++;
	}
	res->antt_emul_sum += edge_simt_antt_milli(&mix.simt);
	res->stp_emul_sum += edge_simt_stp_milli(&mix.simt);
	res->sim_cycles_sum += edge_simt_ns2cyc(&mix.simt, mix.eng.now);
	res->runs++;
	sim_free(&mix);
}

/* ---------------------------------------------------------------- output */

/*
 * The columns: these, then each stream's latency columns (its name, a
 * dot, and one of stream_cols: a scenario's own), then SIM_PROV_COLS.
 */
static const char *const csv_cols =
	"label,preset,seed,runs,sched,victim,flush,reserve_pct,"
	"dispatch_cycles,skip_event_exec,background,bg_chain,bg_tb_cycles,"
	"events,ev_kernel,ev_mean,ev_cap,"
	"ev_generated,ev_launched,ev_done,ev_dropped,ev_backlogged,"
	"sched_n,sched_min,sched_avg,sched_p50,sched_p99,sched_max,"
	"preempt_n,preempt_avg,preempt_p99,preempt_max,"
	"preemptions,ewarps_free,ewarps_waited,"
	"stall_pipeline_cyc,stall_scoreboard_cyc,stall_load_cyc,"
	"stall_icache_cyc,stall_barrier_cyc,stall_membar_cyc,"
	"stall_pipeline_n,stall_scoreboard_n,stall_load_n,"
	"stall_icache_n,stall_barrier_n,stall_membar_n,"
	"ev_runtime_avg,ev_slowdown,remaining_bg_avg,"
	"bg_runtime,bg_iso_runtime,bg_slowdown,antt,stp,antt_emul,stp_emul,"
	"tbs_dispatched,sim_cycles";

/* The merged sched_* and preempt_* columns, once per stream. */
static const char *const stream_cols[] = {
	"sched_n", "sched_min", "sched_avg", "sched_p50", "sched_p99",
	"sched_max", "preempt_n", "preempt_avg", "preempt_p99", "preempt_max",
};

/* The header of @sc's rows; with no scenario, without stream columns. */
static void print_header(FILE *o, const struct scen *sc)
{
	size_t c;
	int i;

	fputs(csv_cols, o);
	for (i = 0; sc && i < sc->ns; i++)
		for (c = 0; c < ARRAY_SIZE(stream_cols); c++)
			fprintf(o, ",%s.%s", sc->s[i].name, stream_cols[c]);
	fprintf(o, ",%s\n", SIM_PROV_COLS);
}

/*
 * One latency set as the sched_* (@preempt: preempt_*) columns print it,
 * each value after a comma.
 */
static void print_lat(FILE *o, const struct edge_lat *l, bool preempt)
{
	if (preempt)
		fprintf(o, ",%llu,%llu,%llu,%llu",
			(unsigned long long)l->n,
			(unsigned long long)edge_lat_avg(l),
			(unsigned long long)edge_lat_pct(l, 99),
			(unsigned long long)l->max);
	else
		fprintf(o, ",%llu,%llu,%llu,%llu,%llu,%llu",
			(unsigned long long)l->n,
			(unsigned long long)l->min,
			(unsigned long long)edge_lat_avg(l),
			(unsigned long long)edge_lat_pct(l, 50),
			(unsigned long long)edge_lat_pct(l, 99),
			(unsigned long long)l->max);
}

static double milli(u64 x)
{
	return (double)x / 1000.0;
}

static u64 div_or0(u64 a, u64 b)
{
	return b ? a / b : 0;
}

static void print_row(FILE *o, const struct scen *sc, const char *preset,
		      const struct result *r)
{
	char fl[64], evn[NAME_LEN * MAX_STREAMS + 8] = "", evk[sizeof(evn)] = "";
	const struct kdef *bgk = sc->bg.set ?
		find_kernel((struct scen *)sc, sc->bg.kernel) : NULL;
	u64 ev_sd = div_or0(r->ev_sd_sum_milli, r->ev_done);
	u64 antt, stp;
	int i;

	for (i = 0; i < sc->ns; i++) {
		if (i) {
			strcat(evn, "+");
			strcat(evk, "+");
		}
		strcat(evn, sc->s[i].name);
		strcat(evk, sc->s[i].kernel);
	}
	flush_str(sc->cfg.flush, fl, sizeof(fl));
	/* ANTT and STP over {the background, every event}, per run. */
	antt = div_or0(r->bg_sd_sum_milli + r->ev_sd_sum_milli,
		       r->bg_runs + r->ev_done);
	stp = div_or0(r->bg_prog_sum_milli + r->ev_prog_sum_milli, r->runs);

	fprintf(o, "%s,%s,%llu,%u,%s,%s,%s,%u,%u,%u,",
		sc->label[0] ? sc->label : "-", preset,
		(unsigned long long)sc->cfg.seed, sc->runs,
		edge_sched_table[sc->cfg.sched].name, edge_victim_table[sc->cfg.victim].name, fl,
		sc->cfg.reserve_pct, sc->cfg.dispatch_cycles,
		sc->cfg.skip_event_exec);
	fprintf(o, "%s,%u,%llu,%s,%s,%llu,%u,",
		bgk ? bgk->name : "none",
		bgk ? (sc->bg.chain ? sc->bg.chain : bgk->chain) : 0,
		bgk ? (unsigned long long)bgk->r.warp_cycles : 0ULL,
		sc->ns ? evn : "none", sc->ns ? evk : "none",
		sc->ns ? (unsigned long long)sc->s[0].mean : 0ULL,
		sc->ns ? sc->s[0].cap : 0);
	fprintf(o, "%llu,%llu,%llu,%llu,%llu",
		(unsigned long long)r->ev_generated,
		(unsigned long long)r->ev_launched,
		(unsigned long long)r->ev_done,
		(unsigned long long)r->ev_dropped,
		(unsigned long long)r->ev_backlogged);
	print_lat(o, &r->sched, false);
	print_lat(o, &r->preempt, true);
	fprintf(o, ",%llu,%llu,%llu,",
		(unsigned long long)r->preemptions,
		(unsigned long long)r->ewarps_free,
		(unsigned long long)r->ewarps_waited);
	for (i = 0; i < EDGE_STALL_NR; i++)
		fprintf(o, "%llu,", (unsigned long long)r->stall_cycles[i]);
	for (i = 0; i < EDGE_STALL_NR; i++)
		fprintf(o, "%llu,", (unsigned long long)r->stall_count[i]);
	fprintf(o, "%llu,%.3f,%llu,",
		(unsigned long long)div_or0(r->ev_runtime_sum, r->ev_done),
		milli(ev_sd),
		(unsigned long long)div_or0(r->remaining_sum, r->remaining_n));
	fprintf(o, "%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,",
		(unsigned long long)div_or0(r->bg_runtime_sum, r->bg_runs),
		(unsigned long long)div_or0(r->bg_iso_sum, r->bg_runs),
		milli(div_or0(r->bg_sd_sum_milli, r->bg_runs)),
		milli(antt), milli(stp),
		milli(div_or0(r->antt_emul_sum, r->runs)),
		milli(div_or0(r->stp_emul_sum, r->runs)));
	fprintf(o, "%llu,%llu", (unsigned long long)r->tbs_dispatched,
		(unsigned long long)div_or0(r->sim_cycles_sum, r->runs));
	/* Each stream's own, as stream_cols (the merged ones above). */
	for (i = 0; i < sc->ns; i++) {
		print_lat(o, &r->stream[i].sched, false);
		print_lat(o, &r->stream[i].preempt, true);
	}
	sim_prov(o, preset, "none", &sc->cfg, sc->cfg.seed, sc->runs);
	fputc('\n', o);
}

static void print_scenario(FILE *o, const struct scen *sc)
{
	char fl[64];
	int i;

	flush_str(sc->cfg.flush, fl, sizeof(fl));
	fprintf(o, "# resolved scenario\nlabel %s\npreset %s\nseed %llu\n"
		"runs %u\nuntil %llu\nsched %s\nvictim %s\nflush %s\n"
		"reserve_pct %u\ndispatch_cycles %u\nsched_wait_cycles %u\n"
		"ctx_bytes_per_cycle %u\nskip_event_exec %u\ntb_policy %s\n"
		"queue_policy none\nedge_sim_version %s\n",
		sc->label[0] ? sc->label : "-", sc->preset,
		(unsigned long long)sc->cfg.seed, sc->runs,
		(unsigned long long)sc->until, edge_sched_table[sc->cfg.sched].name,
		edge_victim_table[sc->cfg.victim].name, fl, sc->cfg.reserve_pct,
		sc->cfg.dispatch_cycles, sc->cfg.sched_wait_cycles,
		sc->cfg.ctx_bytes_per_cycle, sc->cfg.skip_event_exec,
		edge_tb_policy_name(sc->cfg.tb_policy), EDGE_SIM_VERSION);
	for (i = 0; i < sc->nk; i++) {
		const struct edge_register *r = &sc->k[i].r;
		const struct edge_warp_state *w = &r->ws;

		fprintf(o, "kernel %s grid=%u,%u,%u block=%u,%u,%u regs=%u "
			"smem=%u cycles=%llu prio=%u chain=%u gap=%llu rsd=%u "
			"corun=%u p_pipe=%u pipe_cycles=%u ibuf=%u p_load=%u "
			"load_cycles=%u p_barrier=%u barrier_cycles=%u "
			"early_pct=%u p_membar=%u membar_cycles=%u "
			"p_icache=%u icache_cycles=%u ewarp_corun=%u mem=%u\n",
			sc->k[i].name,
			r->grid_x, r->grid_y, r->grid_z, r->block_x,
			r->block_y, r->block_z, r->regs_per_thread,
			r->smem_per_block, (unsigned long long)r->warp_cycles,
			r->priority, sc->k[i].chain,
			(unsigned long long)sc->k[i].gap, w->rsd_pct,
			w->corun_pct, w->p_pipe, w->pipe_cycles, w->ibuf_insts,
			w->p_load, w->load_cycles, w->p_barrier,
			w->barrier_cycles, w->early_pct, w->p_membar,
			w->membar_cycles, w->p_icache, w->icache_cycles,
			w->ewarp_corun_pct, w->mem_pct);
	}
	if (sc->bg.set)
		fprintf(o, "background %s chain=%u gap=%llu%s at=%llu\n",
			sc->bg.kernel, sc->bg.chain,
			(unsigned long long)sc->bg.gap,
			sc->bg.gap_set ? "" : "(kernel's)",
			(unsigned long long)sc->bg.at);
	for (i = 0; i < sc->ns; i++) {
		const struct sdef *s = &sc->s[i];

		fprintf(o, "stream %s kernel=%s arrival=%s mean=%llu "
			"count=%llu cap=%u overflow=%s from=%llu to=%llu "
			"stop=%s\n", s->name, s->kernel,
			s->arrival == ARR_UNIFORM ? "uniform" : "poisson",
			(unsigned long long)s->mean,
			(unsigned long long)s->count, s->cap,
			s->overflow == OVF_DROP ? "drop" : "queue",
			(unsigned long long)s->from,
			(unsigned long long)s->to, s->stop_bg ? "bg" : "none");
	}
}

static void usage(FILE *o)
{
	fprintf(o,
		"usage: %s [-s key=value]... [-o file.csv] [-a] [-n] [-p] [-t] "
		"[-T trace.json] scenario\n"
		"       %s -H\n"
		"       %s policies   (the queue, thread-block and placement policies)\n"
		"       %s presets    (the model's devices)\n"
		"       %s functions  (the ABI's event functions)\n"
		"       %s batch [-j N] FILE  (each line's arguments, a run "
		"each, N at once)\n"
		"  -s key=value  override a scenario setting after the file "
		"is read:\n"
		"                a top-level key (sched=drain, seed=3), or "
		"OBJECT.FIELD\n"
		"                for a kernel, a stream or 'background' "
		"(MM.regs=20,\n"
		"                ev.mean=5000, background.kernel=BFS)\n"
		"  -o file.csv   write the CSV there (default: stdout)\n"
		"  -a            append to -o's file instead of truncating\n"
		"  -n            no header line\n"
		"  -H            print the header line only (with a scenario: "
		"its own,\n"
		"                its streams' NAME.sched_* columns "
		"included)\n"
		"  -p            print the resolved scenario to stderr\n"
		"  -t            print wall time and simulated TBs/s to "
		"stderr\n"
		"  -T file.json  write the first run's timeline there (TBs "
		"per core,\n"
		"                preemptions, kernels): Chrome's JSON trace "
		"format,\n"
		"                for Perfetto or chrome://tracing\n"
		"Documentation/edge-sim.rst describes the scenario format.\n",
		prog, prog, prog, prog, prog, prog);
}

int jobsim_main(int argc, char **argv);
int pairsim_main(int argc, char **argv);
int claiusim_main(int argc, char **argv);
int mgbsim_main(int argc, char **argv);

int main(int argc, char **argv);

/*
 * edge-sim batch [-j N] FILE: each line of FILE holds the arguments of one
 * edge-sim command (split at blanks, no quoting), run as a process of its
 * own forked from this one, N at once (default 1).  What `xargs -P N`
 * does, without a shell and an exec for each: EDGE's 180 short
 * simulations spent more time starting than simulating.  Each line's
 * output goes where its arguments say (-o), or where a >FILE or 2>FILE
 * among them sends its standard output or error; a line that fails is
 * named on stderr, and the batch then exits with the first failure's
 * status, after the others.
 */

/* In a batch's child: a >FILE or 2>FILE argument, done; else false. */
static bool batch_redirect(const char *tok, const char *name, int no)
{
	int fd, to;

	if (tok[0] == '>')
		to = 1;
	else if (tok[0] == '2' && tok[1] == '>')
		to = 2;
	else
		return false;
	tok += to;
	if (!*tok)
		die("%s:%d: %s with no file", name, no, to == 1 ? ">" : "2>");
	fd = open(tok, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || dup2(fd, to) < 0)
		die("%s:%d: %s: %s", name, no, tok, strerror(errno));
	close(fd);
	return true;
}

/* A batch's running children: each one's pid and line. */
struct batch_kid {
	pid_t pid;
	int no;
};

/*
 * Wait for one of the batch's @n children; name its line on stderr when
 * it failed, and keep the first failure's status in *@rc.  Returns the
 * slot it held in @kids.
 */
static int batch_wait(struct batch_kid *kids, int n, const char *name,
		      int *rc)
{
	pid_t pid;
	int st, i;

	pid = wait(&st);
	if (pid < 0)
		die("wait: %s", strerror(errno));
	for (i = 0; i < n && kids[i].pid != pid; i++)
		;
	if (i == n)
		die("wait: a child not of the batch");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "%s: batch %s:%d failed\n", prog, name,
			kids[i].no);
		if (!*rc)
			*rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	return i;
}

static int batch_main(int argc, char **argv)
{
	char *buf = NULL, *line, *next, *av[256], *save, *tok;
	int opt, jobs = 1, running = 0, rc = 0, no = 0, slot;
	struct batch_kid kids[64];
	const char *name;
	size_t len = 0;
	FILE *f;

	optind = 1;
	while ((opt = getopt(argc, argv, "j:")) != -1) {
		if (opt != 'j') {
			usage(stderr);
			return 2;
		}
		jobs = (int)sim_key_num(prog, "-j", "-j", optarg, 10, "", 1,
					(u64)ARRAY_SIZE(kids));
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	/*
	 * All of it first: a child's exit() would move a shared read
	 * offset back to where its copy of the stream had read to.
	 */
	name = argv[optind];
	f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	if (!f || getdelim(&buf, &len, '\0', f) < 0)
		die("%s: %s", name, f ? "empty" : strerror(errno));
	if (f != stdin)
		fclose(f);
	for (line = buf; line && *line; line = next) {
		int ac = 0;
		pid_t pid;

		no++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		av[ac++] = argv[-1];
		for (tok = strtok_r(line, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save)) {
			if (ac == (int)ARRAY_SIZE(av) - 1)
				die("%s:%d: too many arguments", name, no);
			av[ac++] = tok;
		}
		if (ac == 1)
			continue;
		if (!strcmp(av[1], "batch"))
			die("%s:%d: a batch in a batch", name, no);
		av[ac] = NULL;
		slot = running;
		if (running == jobs)
			slot = batch_wait(kids, running, name, &rc);
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			int i, j;

			/* The redirections out, the arguments closed up. */
			for (i = j = 1; i < ac; i++)
				if (!batch_redirect(av[i], name, no))
					av[j++] = av[i];
			av[j] = NULL;
			optind = 0;	/* getopt starts afresh */
			exit(main(j, av));
		}
		kids[slot].pid = pid;
		kids[slot].no = no;
		if (slot == running)
			running++;
	}
	free(buf);
	while (running) {
		slot = batch_wait(kids, running, name, &rc);
		kids[slot] = kids[--running];
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct scen sc;
	static struct result res;
	const struct edge_preset *p;
	const char *out = NULL, *over[256], *trace = NULL;
	bool header = true, append = false, print = false, timing = false;
	bool header_only = false;
	struct timespec t0, t1;
	int nover = 0, i, c;
	u64 seed0;
	FILE *o;

	/*
	 * Each run allocates the model (edge_simt_init, a CP's job pool)
	 * and frees it.  glibc gave the freed top of the heap back to the
	 * kernel every time, so every run faulted in and zeroed it again
	 * (45000 page faults for one jobs workload, ~5 % of its time; half
	 * of mgb's, four devices a run).  Keep it: the next run reuses it.
	 * Allocation sizes and contents are the same, so is every result.
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	if (argc > 1 && !strcmp(argv[1], "jobs"))
		return jobsim_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "batch"))
		return batch_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "pairs"))
		return pairsim_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "claius"))
		return claiusim_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "mgb"))
		return mgbsim_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "presets")) {
		const struct edge_preset *q;

		/* The model's table (gpu/preset.c): what preset= takes. */
		printf("name,cores,clock_khz,warp_size,threads_per_core,"
		       "tb_slots_per_core,regs_per_core,smem_per_core,"
		       "max_block_threads,max_regs_per_thread\n");
		for (i = 0; (q = edge_preset_at(i)); i++)
			printf("%s,%u,%u,%u,%u,%u,%u,%u,%u,%u\n", q->name,
			       q->num_cores, q->clock_khz, q->warp_size,
			       q->threads_per_core, q->tb_slots_per_core,
			       q->regs_per_core, q->smem_per_core,
			       q->max_block_threads, q->max_regs_per_thread);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "functions")) {
		/* The model's function table (emul/fn/func.c), by ABI id. */
		for (i = 1; i <= EDGE_FN_MAX; i++) {
			const struct edge_fn_def *f = edge_func_get(i);

			printf("%d %s\n", i, f ? f->name : "?");
		}
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "policies")) {
		/* The policy tables, one level a line: what the keys take. */
		printf("queue:");
		for (i = 0; i < EDGE_POL_NR; i++)
			printf(" %s", edge_cp_policy_name(i));
		printf("\ntb:");
		for (i = 0; i < EDGE_TBP_NR; i++)
			printf(" %s", edge_tb_policy_name(i));
		printf("\nplace:");
		for (i = 0; i < EDGE_PLACE_NR; i++)
			printf(" %s", edge_place_policy_name(i));
		printf("\n");
		return 0;
	}
	while ((c = getopt(argc, argv, "s:o:anHptT:h")) != -1) {
		switch (c) {
		case 's':
			if (nover == (int)ARRAY_SIZE(over))
				die("too many -s");
			over[nover++] = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			append = true;
			break;
		case 'n':
			header = false;
			break;
		case 'H':
			header_only = true;
			break;
		case 'p':
			print = true;
			break;
		case 't':
			timing = true;
			break;
		case 'T':
			trace = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	/* -H alone: the columns every scenario has. */
	if (header_only && optind == argc) {
		print_header(stdout, NULL);
		return 0;
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}

	scen_defaults(&sc);
	parse_file(&sc, argv[optind]);
	for (i = 0; i < nover; i++) {
		char buf[512], *eq;

		if (strlen(over[i]) >= sizeof(buf))
			die("-s %s: too long", over[i]);
		strcpy(buf, over[i]);
		eq = strchr(buf, '=');
		if (!eq)
			die("-s %s: expected key=value", over[i]);
		*eq = 0;
		set_path(&sc, trim(buf), trim(eq + 1), "-s");
	}
	p = edge_preset_find(sc.preset);
	if (!p)
		die("preset=%s: unknown preset (nearest: %s; edge-sim presets)",
		    sc.preset, sim_nearest(sc.preset, preset_names()));
	for (i = 0; i < sc.ns; i++)
		if (!sc.s[i].kernel[0])
			die("stream %s: no kernel", sc.s[i].name);
	if (!sc.bg.set && !sc.ns)
		die("nothing to run: no background and no stream");
	/*
	 * Every kernel the run uses through the model's own validator, now,
	 * naming the line that defined it and the key that fails; a run
	 * never starts with a kernel edge.ko would refuse.
	 */
	if (sc.bg.set) {
		struct kdef *k = find_kernel(&sc, sc.bg.kernel);
		struct edge_kdesc kd;

		if (!k)
			die("background: no kernel named '%s'", sc.bg.kernel);
		sim_validate(prog, k->where[0] ? k->where : argv[optind],
			     k->name, p, &k->r, &kd, scen_kernel_map);
	}
	for (i = 0; i < sc.ns; i++) {
		struct kdef *k = find_kernel(&sc, sc.s[i].kernel);
		struct edge_kdesc kd;

		if (!k)
			die("stream %s: no kernel named '%s'", sc.s[i].name,
			    sc.s[i].kernel);
		sim_validate(prog, k->where[0] ? k->where : argv[optind],
			     k->name, p, &k->r, &kd, scen_kernel_map);
	}
	if (sim_parse_only)
		return 0;
	if (header_only) {
		print_header(stdout, &sc);
		return 0;
	}
	if (print)
		print_scenario(stderr, &sc);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	seed0 = sc.cfg.seed;
	if (trace && simtrace_open(trace, trace_name))
		die("%s: %s", trace, strerror(errno));
	for (i = 0; i < (int)sc.runs; i++)
		run_one(&sc, p, seed0 + (u64)i, trace && !i, &res);
	if (trace && simtrace_close())
		die("%s: %s", trace, strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t1);

	o = stdout;
	if (out) {
		o = fopen(out, append ? "a" : "w");
		if (!o)
			die("%s: %s", out, strerror(errno));
	}
	if (header)
		print_header(o, &sc);
	print_row(o, &sc, p->name, &res);
	if (out && fclose(o))
		die("%s: %s", out, strerror(errno));
	if (timing) {
		double s = (double)(t1.tv_sec - t0.tv_sec) +
			   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		u64 tbs = res.tbs_dispatched + res.tbs_iso;

		fprintf(stderr, "%s: %llu TBs (%llu with events, %llu "
			"isolated) in %.3f s: %.0f TBs/s\n", prog,
			(unsigned long long)tbs,
			(unsigned long long)res.tbs_dispatched,
			(unsigned long long)res.tbs_iso, s,
			s > 0 ? (double)tbs / s : 0.0);
	}
	return 0;
}

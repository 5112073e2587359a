// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim's scenario parser: a scenario file (Documentation/edge-sim.rst)
 * and -s's overrides into a struct scen.  Split from edge-sim.c, which
 * runs the scenario; every message is as it was there.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simscen.h"
#include "simutil.h"

#define die(...)	sim_die("edge-sim", __VA_ARGS__)

/* ---------------------------------------------------------------- parsing */

/*
 * Unsigned decimal with an optional k or K (1e3) or M (1e6) suffix;
 * unlike jobs' and pairs' numbers, no sign and no saturation.
 */
static u64 parse_u64(const char *v, const char *where, const char *key)
{
	return sim_key_num("edge-sim", where, key, v, 10, "kKM", 0, ~0ULL);
}

static u32 parse_u32(const char *v, const char *where, const char *key)
{
	return (u32)sim_key_num("edge-sim", where, key, v, 10, "kKM", 0,
				0xffffffffULL);
}

/* "X" or "X,Y" or "X,Y,Z" */
static void parse_dim3(const char *v, u32 *x, u32 *y, u32 *z,
		       const char *where, const char *key)
{
	char buf[64], *p, *save = NULL;
	u32 d[3] = { 1, 1, 1 };
	int i = 0;

	if (strlen(v) >= sizeof(buf))
		die("%s: %s: too long", where, key);
	strcpy(buf, v);
	for (p = strtok_r(buf, ",x", &save); p; p = strtok_r(NULL, ",x", &save)) {
		if (i == 3)
			die("%s: %s: more than three dimensions", where, key);
		d[i++] = parse_u32(p, where, key);
	}
	if (!i)
		die("%s: %s: empty", where, key);
	*x = d[0];
	*y = d[1];
	*z = d[2];
}


static u32 parse_enum(const char *v, const char *const *names, int n,
		      const char *where, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return (u32)i;
	{
		const char *known[8];

		for (i = 0; i < n && i < 7; i++)
			known[i] = names[i];
		known[i] = NULL;
		sim_bad("edge-sim", where, key, v, "unknown value (nearest: %s)",
			sim_nearest(v, known));
	}
}

/* A name of one of the model's tables (gpu/strategy.c), or exit 2. */
static u32 parse_name(const char *v, const struct edge_name *t, int n,
		      const char *where, const char *key)
{
	const char *names[EDGE_FLUSH_NR + EDGE_SCHED_NR + 1];
	int i;

	for (i = 0; i < n; i++)
		names[i] = t[i].name;
	return parse_enum(v, names, n, where, key);
}

/* none | all | a+b+... of the model's flush names (gpu/strategy.c). */
static u32 parse_flush(const char *v, const char *where)
{
	const char *bad = v;
	u32 f;

	if (!edge_flush_parse(v, &f, &bad))
		return f;
	{
		char word[64];
		size_t len = strcspn(bad, "+");

		snprintf(word, sizeof(word), "%.*s", (int)len, bad);
		if (len)
			parse_name(word, edge_flush_table, EDGE_FLUSH_NR,
				   where, "flush");
		sim_bad("edge-sim", where, "flush", v,
			"none, all, or names joined by '+'");
	}
}

void flush_str(u32 f, char *out, size_t len)
{
	edge_flush_format(f, out, len);
}

static void copy_name(char *dst, const char *src, const char *where)
{
	if (!*src || strlen(src) >= NAME_LEN)
		die("%s: bad name '%s'", where, src);
	strcpy(dst, src);
}

struct kdef *find_kernel(struct scen *sc, const char *name)
{
	int i;

	for (i = 0; i < sc->nk; i++)
		if (!strcmp(sc->k[i].name, name))
			return &sc->k[i];
	return NULL;
}

static struct sdef *find_stream(struct scen *sc, const char *name)
{
	int i;

	for (i = 0; i < sc->ns; i++)
		if (!strcmp(sc->s[i].name, name))
			return &sc->s[i];
	return NULL;
}

static void kernel_defaults(struct kdef *k)
{
	memset(&k->r, 0, sizeof(k->r));
	k->r.size = sizeof(k->r);
	k->r.func = EDGE_FN_NOP;
	k->r.grid_x = k->r.grid_y = k->r.grid_z = 1;
	k->r.block_x = 32;
	k->r.block_y = k->r.block_z = 1;
	k->r.regs_per_thread = 16;
	k->r.param_size = 8;
	k->r.ring_entries = 1;
	k->r.warp_cycles = 1000;
	k->chain = 1;
	k->gap = 0;
}

static const char *const kernel_keys[] = {
	"grid", "block", "regs", "smem", "cycles", "prio", "chain", "gap",
	"rsd", "corun", "p_pipe", "pipe_cycles", "ibuf", "p_load",
	"load_cycles", "p_barrier", "barrier_cycles", "early_pct", "p_membar",
	"membar_cycles", "p_icache", "icache_cycles", "ewarp_corun", "mem",
	NULL
};

/* edge_validate_register_why()'s field names, as a scenario spells them. */
const char *const scen_kernel_map[][2] = {
	{ "grid_x", "grid" }, { "grid_y", "grid" }, { "grid_z", "grid" },
	{ "block_x", "block" }, { "block_y", "block" },
	{ "block_z", "block" }, { "regs_per_thread", "regs" },
	{ "smem_per_block", "smem" }, { "warp_cycles", "cycles" },
	{ "priority", "prio" }, { "rsd_pct", "rsd" }, { "corun_pct", "corun" },
	{ "ibuf_insts", "ibuf" }, { "ewarp_corun_pct", "ewarp_corun" },
	{ "mem_pct", "mem" }, { NULL, NULL }
};

static void set_kernel(struct kdef *k, const char *key, const char *v,
		       const char *where)
{
	struct edge_register *r = &k->r;
	struct edge_warp_state *ws = &r->ws;
	static const struct {
		const char *key;
		size_t off;
	} wsf[] = {
#define WS(f, n) { n, offsetof(struct edge_warp_state, f) }
		WS(rsd_pct, "rsd"), WS(corun_pct, "corun"),
		WS(p_pipe, "p_pipe"), WS(pipe_cycles, "pipe_cycles"),
		WS(ibuf_insts, "ibuf"), WS(p_load, "p_load"),
		WS(load_cycles, "load_cycles"), WS(p_barrier, "p_barrier"),
		WS(barrier_cycles, "barrier_cycles"), WS(early_pct, "early_pct"),
		WS(p_membar, "p_membar"), WS(membar_cycles, "membar_cycles"),
		WS(p_icache, "p_icache"), WS(icache_cycles, "icache_cycles"),
		WS(ewarp_corun_pct, "ewarp_corun"), WS(mem_pct, "mem"),
#undef WS
	};
	size_t i;

	snprintf(k->where, sizeof(k->where), "%s", where);
	if (!strcmp(key, "grid")) {
		parse_dim3(v, &r->grid_x, &r->grid_y, &r->grid_z, where, key);
	} else if (!strcmp(key, "block")) {
		parse_dim3(v, &r->block_x, &r->block_y, &r->block_z, where, key);
	} else if (!strcmp(key, "regs")) {
		r->regs_per_thread = parse_u32(v, where, key);
	} else if (!strcmp(key, "smem")) {
		r->smem_per_block = parse_u32(v, where, key);
	} else if (!strcmp(key, "cycles")) {
		r->warp_cycles = parse_u64(v, where, key);
	} else if (!strcmp(key, "prio")) {
		r->priority = parse_u32(v, where, key);
	} else if (!strcmp(key, "chain")) {
		k->chain = parse_u32(v, where, key);
	} else if (!strcmp(key, "gap")) {
		k->gap = parse_u64(v, where, key);
	} else {
		for (i = 0; i < ARRAY_SIZE(wsf); i++) {
			if (!strcmp(key, wsf[i].key)) {
				*(__u32 *)((char *)ws + wsf[i].off) =
					parse_u32(v, where, key);
				return;
			}
		}
		sim_unknown("edge-sim", where, "kernel key", key, kernel_keys);
	}
}

static void set_background(struct scen *sc, const char *key, const char *v,
			   const char *where)
{
	struct bgdef *b = &sc->bg;

	if (!strcmp(key, "kernel")) {
		if (!strcmp(v, "none")) {
			b->set = false;
			return;
		}
		copy_name(b->kernel, v, where);
		b->set = true;
	} else if (!strcmp(key, "chain")) {
		b->chain = parse_u32(v, where, key);
	} else if (!strcmp(key, "gap")) {
		b->gap = parse_u64(v, where, key);
		b->gap_set = true;
	} else if (!strcmp(key, "at")) {
		b->at = parse_u64(v, where, key);
	} else {
		sim_unknown("edge-sim", where, "background key", key,
			    (const char *const[]){ "kernel", "chain", "gap",
						   "at", NULL });
	}
}

static void set_stream(struct sdef *s, const char *key, const char *v,
		       const char *where)
{
	static const char *const arr[] = { "poisson", "uniform" };
	static const char *const ovf[] = { "queue", "drop" };
	static const char *const stop[] = { "none", "bg" };

	if (!strcmp(key, "kernel"))
		copy_name(s->kernel, v, where);
	else if (!strcmp(key, "arrival"))
		s->arrival = parse_enum(v, arr, 2, where, key);
	else if (!strcmp(key, "mean"))
		s->mean = parse_u64(v, where, key);
	else if (!strcmp(key, "count"))
		s->count = parse_u64(v, where, key);
	else if (!strcmp(key, "cap"))
		s->cap = parse_u32(v, where, key);
	else if (!strcmp(key, "overflow"))
		s->overflow = parse_enum(v, ovf, 2, where, key);
	else if (!strcmp(key, "from"))
		s->from = parse_u64(v, where, key);
	else if (!strcmp(key, "to"))
		s->to = parse_u64(v, where, key);
	else if (!strcmp(key, "stop"))
		s->stop_bg = parse_enum(v, stop, 2, where, key);
	else
		sim_unknown("edge-sim", where, "stream key", key,
			    (const char *const[]){ "kernel", "arrival", "mean",
						   "count", "cap", "overflow",
						   "from", "to", "stop",
						   NULL });
}

static const char *const top_keys[] = {
	"preset", "seed", "runs", "until", "label", "sched", "victim",
	"tb_policy", "flush", "reserve_pct", "dispatch_cycles",
	"sched_wait_cycles", "ctx_bytes_per_cycle", "skip_event_exec", "bg",
	"include", "kernel", "stream", "background", NULL
};

static void set_top(struct scen *sc, const char *key, const char *v,
		    const char *where)
{
	struct edge_simt_cfg *c = &sc->cfg;

	if (!strcmp(key, "preset")) {
		copy_name(sc->preset, v, where);
	} else if (!strcmp(key, "seed")) {
		c->seed = parse_u64(v, where, key);
	} else if (!strcmp(key, "runs")) {
		sc->runs = parse_u32(v, where, key);
		if (!sc->runs)
			sim_bad("edge-sim", where, key, v, "at least 1");
	} else if (!strcmp(key, "until")) {
		sc->until = parse_u64(v, where, key);
	} else if (!strcmp(key, "label")) {
		if (strlen(v) >= sizeof(sc->label) || strpbrk(v, ",\"\n"))
			die("%s: label: too long or has a comma", where);
		strcpy(sc->label, v);
	} else if (!strcmp(key, "sched")) {
		c->sched = parse_name(v, edge_sched_table, EDGE_SCHED_NR,
				      where, key);
	} else if (!strcmp(key, "victim")) {
		c->victim = parse_name(v, edge_victim_table, EDGE_VICTIM_NR,
				       where, key);
	} else if (!strcmp(key, "tb_policy")) {
		int pol = edge_tb_policy_find(v);

		if (pol < 0) {
			const char *known[EDGE_TBP_NR + 1];
			int j;

			for (j = 0; j < EDGE_TBP_NR; j++)
				known[j] = edge_tb_policy_name(j);
			known[j] = NULL;
			sim_bad("edge-sim", where, key, v,
				"unknown thread-block policy (nearest: %s; "
				"edge-sim policies)", sim_nearest(v, known));
		}
		c->tb_policy = pol;
	} else if (!strcmp(key, "flush")) {
		c->flush = parse_flush(v, where);
	} else if (!strcmp(key, "reserve_pct")) {
		c->reserve_pct = (u32)sim_key_num("edge-sim", where, key, v, 10,
						  "", 0, 100);
	} else if (!strcmp(key, "dispatch_cycles")) {
		c->dispatch_cycles = (u32)sim_key_num("edge-sim", where, key, v,
							 10, "kKM", 0, 1000000ULL);
	} else if (!strcmp(key, "sched_wait_cycles")) {
		c->sched_wait_cycles = (u32)sim_key_num("edge-sim", where, key, v,
							 10, "kKM", 0, 1000000ULL);
	} else if (!strcmp(key, "ctx_bytes_per_cycle")) {
		c->ctx_bytes_per_cycle = (u32)sim_key_num("edge-sim", where, key, v,
							 10, "kKM", 1, 4294967295ULL);
	} else if (!strcmp(key, "skip_event_exec")) {
		c->skip_event_exec = parse_u32(v, where, key) ? 1 : 0;
	} else if (!strcmp(key, "bg")) {
		set_background(sc, "kernel", v, where);
	} else {
		sim_unknown("edge-sim", where, "key", key, top_keys);
	}
}

/* "object.field" = value, or "key" = value: the -s form, and the parser's. */
void set_path(struct scen *sc, const char *path, const char *v,
	      const char *where)
{
	char obj[NAME_LEN * 2];
	const char *dot = strchr(path, '.');
	struct kdef *k;
	struct sdef *s;

	if (!dot) {
		set_top(sc, path, v, where);
		return;
	}
	if ((size_t)(dot - path) >= sizeof(obj))
		die("%s: bad key '%s'", where, path);
	memcpy(obj, path, dot - path);
	obj[dot - path] = 0;
	if (!strcmp(obj, "background")) {
		set_background(sc, dot + 1, v, where);
		return;
	}
	k = find_kernel(sc, obj);
	if (k) {
		set_kernel(k, dot + 1, v, where);
		return;
	}
	s = find_stream(sc, obj);
	if (!s)
		die("%s: no kernel or stream named '%s'", where, obj);
	set_stream(s, dot + 1, v, where);
}

char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* The key=value words after an object's name. */
static void parse_kv(char *rest, const char *where,
		     void (*fn)(void *obj, const char *k, const char *v,
				const char *where), void *obj)
{
	char *w, *save = NULL;

	for (w = strtok_r(rest, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(w, '=');

		if (!eq)
			die("%s: expected key=value, got '%s'", where, w);
		*eq = 0;
		fn(obj, w, eq + 1, where);
	}
}

static void kv_kernel(void *o, const char *k, const char *v, const char *w)
{
	set_kernel(o, k, v, w);
}

static void kv_stream(void *o, const char *k, const char *v, const char *w)
{
	set_stream(o, k, v, w);
}

static void kv_bg(void *o, const char *k, const char *v, const char *w)
{
	set_background(o, k, v, w);
}

static void parse_line(struct scen *sc, char *line, const char *file,
		       const char *where)
{
	char *hash = strchr(line, '#'), *cmd, *rest;

	if (hash)
		*hash = 0;
	line = trim(line);
	if (!*line)
		return;
	cmd = line;
	rest = cmd + strcspn(cmd, " \t");
	if (*rest)
		*rest++ = 0;
	rest = trim(rest);

	if (!strcmp(cmd, "include")) {
		char inc[4096];
		const char *slash = strrchr(file, '/');

		if (!*rest)
			die("%s: include needs a file", where);
		if (rest[0] == '/' || !slash)
			snprintf(inc, sizeof(inc), "%s", rest);
		else
			snprintf(inc, sizeof(inc), "%.*s/%s",
				 (int)(slash - file), file, rest);
		parse_file(sc, inc);
	} else if (!strcmp(cmd, "kernel")) {
		char *name = rest, *kv = rest + strcspn(rest, " \t");
		struct kdef *k;

		if (*kv)
			*kv++ = 0;
		k = find_kernel(sc, name);
		if (!k) {
			if (sc->nk == MAX_KERNELS)
				die("%s: too many kernels", where);
			k = &sc->k[sc->nk++];
			copy_name(k->name, name, where);
			kernel_defaults(k);
		}
		parse_kv(kv, where, kv_kernel, k);
	} else if (!strcmp(cmd, "stream")) {
		char *name = rest, *kv = rest + strcspn(rest, " \t");
		struct sdef *s;

		if (*kv)
			*kv++ = 0;
		if (!strcmp(name, "background") || find_kernel(sc, name))
			die("%s: stream '%s' clashes with a kernel name",
			    where, name);
		/* It names CSV columns (NAME.sched_avg) and -s NAME.KEY. */
		if (name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")])
			die("%s: stream '%s': a name is letters, digits, _ "
			    "and -", where, name);
		s = find_stream(sc, name);
		if (!s) {
			if (sc->ns == MAX_STREAMS)
				die("%s: too many streams", where);
			s = &sc->s[sc->ns++];
			memset(s, 0, sizeof(*s));
			copy_name(s->name, name, where);
			s->stop_bg = true;
		}
		parse_kv(kv, where, kv_stream, s);
	} else if (!strcmp(cmd, "background")) {
		char *name = rest, *kv = rest + strcspn(rest, " \t");

		if (*kv)
			*kv++ = 0;
		set_background(sc, "kernel", name, where);
		parse_kv(kv, where, kv_bg, sc);
	} else {
		/* "key value" */
		char *v = rest;

		if (!*v || strchr(v, ' ') || strchr(v, '\t'))
			die("%s: '%s' takes one value", where, cmd);
		set_path(sc, cmd, v, where);
	}
}

void parse_file(struct scen *sc, const char *path)
{
	char line[4096], where[4200];
	FILE *f;
	int n = 0;

	if (++sc->depth > MAX_INCLUDE)
		die("%s: includes nested too deep", path);
	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f))
			die("%s:%d: line too long", path, n);
		snprintf(where, sizeof(where), "%s:%d", path, n);
		parse_line(sc, line, path, where);
	}
	fclose(f);
	sc->depth--;
}

void scen_defaults(struct scen *sc)
{
	memset(sc, 0, sizeof(*sc));
	strcpy(sc->preset, "edge");
	sc->runs = 1;
	edge_simt_default_cfg(&sc->cfg);
	sc->cfg.dispatch_cycles = 300;	/* EDGE Section VI-A */
}

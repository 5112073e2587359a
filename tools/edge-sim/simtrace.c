// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim's timeline: the model's trace points (EDGE_TRACE(), through
 * edge_trace_hook, the hook edge.ko turns into tracepoints) written in
 * Chrome's JSON trace event format, which Perfetto and chrome://tracing
 * open.  Documentation/edge-sim.rst shows one.
 *
 * Process 1 "SIMT cores" holds one thread per (core, lane): a TB is a
 * complete event ("X") from its placement to when it leaves its core
 * (done, or suspended by a TB preemption), on the lowest lane of its core
 * free at its start, so that the slices of a thread never overlap.  A
 * preemption is an instant event ("i") on the victim's lane.  Process 2
 * "kernels" holds every kernel, launch to completion, as an async slice
 * ("b"/"e"; they overlap), from edge-sim's own launch and completion.
 * Times are the model's, ns, written as us with three decimals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/engine.h"
#include "simtrace.h"

#define LANES		64	/* TBs at once on a core, at most */
#define TID(core, lane)	((core) * 100 + (lane))

struct tb_open {
	u64 start;
	u64 cookie;
	u32 core;
	u32 lane;
	bool live;
};

static FILE *out;
static const struct edge_engine *traced;
static simtrace_name_fn namer;
static bool comma;
static struct tb_open *tbs;	/* by TB index */
static u32 ntbs;
static u64 *lanes;		/* per core: lanes in use now */
static u64 *lanes_seen;		/* per core: lanes ever used */
static u32 ncores;
static unsigned long long nevents;

static void ts(u64 ns)
{
	fprintf(out, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

/* The start of one event object, its separator first. */
static void ev(const char *ph, const char *name, unsigned int pid,
	       unsigned int tid, u64 at)
{
	fprintf(out, "%s\n{\"ph\":\"%s\",\"name\":\"%s\",\"pid\":%u,"
		"\"tid\":%u,\"ts\":", comma ? "," : "", ph, name, pid, tid);
	ts(at);
	comma = true;
	nevents++;
}

static void die_oom(void)
{
	fprintf(stderr, "edge-sim: trace: out of memory\n");
	exit(1);
}

static void grow(u32 idx, u32 core)
{
	if (idx >= ntbs) {
		u32 n = idx + 1024;

		tbs = realloc(tbs, n * sizeof(*tbs));
		if (!tbs)
			die_oom();
		memset(tbs + ntbs, 0, (n - ntbs) * sizeof(*tbs));
		ntbs = n;
	}
	if (core >= ncores) {
		u32 n = core + 16;

		lanes = realloc(lanes, n * sizeof(*lanes));
		lanes_seen = realloc(lanes_seen, n * sizeof(*lanes_seen));
		if (!lanes || !lanes_seen)
			die_oom();
		memset(lanes + ncores, 0, (n - ncores) * sizeof(*lanes));
		memset(lanes_seen + ncores, 0, (n - ncores) * sizeof(*lanes));
		ncores = n;
	}
}

static void tb_place(u64 now, u64 cookie, u32 core, u32 idx)
{
	struct tb_open *t;
	u32 lane;

	grow(idx, core);
	t = &tbs[idx];
	lane = ~lanes[core] ? (u32)__builtin_ctzll(~lanes[core]) : LANES - 1;
	lanes[core] |= 1ULL << lane;
	lanes_seen[core] |= 1ULL << lane;
	*t = (struct tb_open){ .start = now, .cookie = cookie, .core = core,
			       .lane = lane, .live = true };
}

static void tb_end(u64 now, u32 idx, const char *why)
{
	struct tb_open *t;
	char name[64];

	if (idx >= ntbs || !tbs[idx].live)
		return;
	t = &tbs[idx];
	namer(t->cookie, name, sizeof(name));
	ev("X", name, 1, TID(t->core, t->lane), t->start);
	fprintf(out, ",\"dur\":");
	ts(now - t->start);
	fprintf(out, ",\"cat\":\"tb\",\"args\":{\"tb\":%u,\"end\":\"%s\"}}",
		idx, why);
	lanes[t->core] &= ~(1ULL << t->lane);
	t->live = false;
}

static void preempt(u64 now, u32 reason, u32 core, u32 victim, u64 flush)
{
	u32 tid = TID(core, 0);

	if (victim < ntbs && tbs[victim].live)
		tid = TID(tbs[victim].core, tbs[victim].lane);
	ev("i", reason == EDGE_TP_PREEMPT_TB ? "preempt tb" : "preempt ewarp",
	   1, tid, now);
	fprintf(out, ",\"s\":\"t\",\"cat\":\"preempt\",\"args\":{\"victim\":%u,"
		"\"flush_cycles\":%llu}}", victim, (unsigned long long)flush);
}

static void hook(const struct edge_engine *eng, u32 tp, u64 a, u64 b, u64 c)
{
	if (eng != traced)
		return;
	switch (tp) {
	case EDGE_TP_TB_PLACE:
		tb_place(eng->now, a, b, c);
		break;
	case EDGE_TP_TB_END:
		tb_end(eng->now, c, "left");
		break;
	case EDGE_TP_PREEMPT:
		preempt(eng->now, a >> 32, (u32)a, b, c);
		break;
	}
}

int simtrace_open(const char *path, simtrace_name_fn name)
{
	out = fopen(path, "w");
	if (!out)
		return -errno;
	namer = name;
	fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	ev("M", "process_name", 1, 0, 0);
	fprintf(out, ",\"args\":{\"name\":\"SIMT cores (TBs)\"}}");
	ev("M", "process_name", 2, 0, 0);
	fprintf(out, ",\"args\":{\"name\":\"kernels\"}}");
	return 0;
}

void simtrace_start(const struct edge_engine *eng)
{
	traced = eng;
	edge_trace_hook = hook;
}

void simtrace_stop(void)
{
	u32 i;

	/* TBs still on their cores when the run stopped (until=). */
	for (i = 0; i < ntbs; i++)
		if (tbs[i].live)
			tb_end(traced->now, i, "run end");
	edge_trace_hook = NULL;
	traced = NULL;
}

void simtrace_kernel(const char *name, u64 id, u64 launch, u64 end)
{
	if (!out)
		return;
	ev("b", name, 2, 0, launch);
	fprintf(out, ",\"cat\":\"kernel\",\"id\":\"0x%llx\"}",
		(unsigned long long)id);
	ev("e", name, 2, 0, end);
	fprintf(out, ",\"cat\":\"kernel\",\"id\":\"0x%llx\"}",
		(unsigned long long)id);
}

int simtrace_close(void)
{
	u32 core, lane;
	int ret;

	if (!out)
		return 0;
	/* Name and order the lanes that were used: "core 3.1". */
	for (core = 0; core < ncores; core++) {
		for (lane = 0; lane < LANES; lane++) {
			char name[32];

			if (!(lanes_seen[core] & (1ULL << lane)))
				continue;
			snprintf(name, sizeof(name), "core %u.%u", core, lane);
			ev("M", "thread_name", 1, TID(core, lane), 0);
			fprintf(out, ",\"args\":{\"name\":\"%s\"}}", name);
			ev("M", "thread_sort_index", 1, TID(core, lane), 0);
			fprintf(out, ",\"args\":{\"sort_index\":%u}}",
				TID(core, lane));
		}
	}
	fprintf(out, "\n]}\n");
	ret = fclose(out) ? -errno : 0;
	out = NULL;
	free(tbs);
	free(lanes);
	free(lanes_seen);
	return ret;
}

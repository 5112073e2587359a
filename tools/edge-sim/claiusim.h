/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge-sim claius (claiusim.c): what its groups (claiusgrp.c) share.
 */
#ifndef _CLAIUSIM_H
#define _CLAIUSIM_H

#include <stdbool.h>
#include <stdio.h>

#include "gpu/preset.h"
#include "rng.h"
#include "gpu/simt.h"
#include "simutil.h"

#define MAX_APPS	16
#define SIZES		3		/* query input classes */
#define MAX_Q		256
#define MAX_INST	6		/* applications in one run */
#define NS_PER_US	1000ULL

struct capp {
	char name[16];
	bool qos;
	u64 pcie_ns;
	u32 n;
	struct edge_kdesc k[EDGE_APP_TASKS];
	struct edge_task_prof prof[SIZES][EDGE_APP_TASKS];
	u64 alone_p99;		/* services: ns */
	u64 alone_rate;		/* batch: isolated work per second alone */
	bool measured;
};

struct claius_g {
	const struct edge_preset *p;
	struct capp app[MAX_APPS];
	u32 nr;
	u32 queries;
	u32 mult_pct;		/* target = mult x alone p99 */
	u32 load_pct;		/* query rate: this % of 1 / alone mean */
	u32 ninst;		/* batch instances beside one service */
	u64 seed;
	double table_s;
	FILE *trace;
	u32 fixq[MAX_INST + 1];	/* a fixed quota per instance, % (static-opt) */
	bool full;		/* static-opt: no pruning (-F) */
	u64 stop_over[MAX_INST + 1];	/* end a run once this one misses */
};

extern struct claius_g cl_g;

struct outcome {
	u64 p99[MAX_INST + 1];
	double rate[MAX_INST + 1];	/* batch work per second */
	u64 span;
	bool missed;			/* ended early: a stop_over missed */
};

#define claius_die(...)	sim_die("edge-sim claius", __VA_ARGS__)
void claius_run(const u32 *ids, u32 n, u32 policy, u64 span, bool trace,
		struct outcome *o);
void claius_measure(u32 id);
u64 claius_gap_ns(const struct capp *a);
bool claius_selected(const char *list, const char *name);
void claius_prov(u32 policy);
void claius_groups(const u32 *pol, u32 np, const char *bats);

#endif /* _CLAIUSIM_H */

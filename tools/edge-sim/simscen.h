/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge-sim's scenario (simscen.c): what a scenario file describes, and
 * the parser that reads it (Documentation/edge-sim.rst) for edge-sim.c,
 * which runs it and prints its row.
 */
#ifndef _EDGE_SIMSCEN_H
#define _EDGE_SIMSCEN_H

#include "gpu/simt.h"

#define MAX_KERNELS	32
#define MAX_STREAMS	8
#define NAME_LEN	32
#define MAX_INCLUDE	8

enum arrival { ARR_POISSON, ARR_UNIFORM };
enum overflow { OVF_QUEUE, OVF_DROP };

struct kdef {
	char name[NAME_LEN];
	struct edge_register r;
	u32 chain;		/* launches when used as the background */
	u64 gap;		/* cycles between a completion and the next */
	char where[96];		/* "file:line" that last set it */
};

struct bgdef {
	bool set;
	char kernel[NAME_LEN];
	u32 chain;		/* 0: the kernel's own default */
	u64 gap;
	bool gap_set;
	u64 at;			/* cycles */
};

struct sdef {
	char name[NAME_LEN];
	char kernel[NAME_LEN];
	u32 arrival;		/* enum arrival */
	u64 mean;		/* cycles between arrivals (poisson) */
	u64 count;		/* 0: unlimited (poisson) */
	u32 cap;		/* max in flight; 0: unlimited */
	u32 overflow;		/* enum overflow */
	u64 from, to;		/* cycles; to == 0: the background's run */
	bool stop_bg;		/* no arrivals once the background is done */
};

struct scen {
	char label[64];
	char preset[NAME_LEN];
	u32 runs;
	u64 until;		/* cycles; 0: until all work is done */
	struct edge_simt_cfg cfg;
	struct kdef k[MAX_KERNELS];
	int nk;
	struct bgdef bg;
	struct sdef s[MAX_STREAMS];
	int ns;
	int depth;		/* include nesting */
};

/* The model's field names beside a scenario's keys (sim_validate()). */
extern const char *const scen_kernel_map[][2];

/* The scenario's defaults: preset edge, one run, EDGE's dispatch time. */
void scen_defaults(struct scen *sc);
/* Read @path (and what it includes) into @sc; a bad line exits 2. */
void parse_file(struct scen *sc, const char *path);
/* "object.field" or "key" = @v, as a line or -s sets it (@where). */
void set_path(struct scen *sc, const char *path, const char *v,
	      const char *where);
/* @s without white space at either end, in place. */
char *trim(char *s);
/* The kernel named @name, or NULL. */
struct kdef *find_kernel(struct scen *sc, const char *name);
/* The flush mask @f as "boost+ibuf+...", into @out. */
void flush_str(u32 f, char *out, size_t len);

#endif /* _EDGE_SIMSCEN_H */

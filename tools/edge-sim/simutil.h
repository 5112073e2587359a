/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What edge-sim's subcommands share (simutil.c): dying with the
 * subcommand's name, and reading a number.
 */
#ifndef _EDGE_SIMUTIL_H
#define _EDGE_SIMUTIL_H

#include <setjmp.h>
#include <stdio.h>

#include "edge_compat.h"

/*
 * Set by a fuzzer only: input errors longjmp there instead of exit(), and
 * each subcommand returns 0 once its input is read and validated.
 */
extern jmp_buf *sim_exit_jmp;
extern bool sim_parse_only;
/* exit(@code), or longjmp to sim_exit_jmp. */
void sim_exit(int code) __attribute__((noreturn));

/* "WHO: message" on stderr, exit(2); printf's format checks every caller. */
void sim_die(const char *who, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* All of @v a number in @base, with at most one suffix of @sfx ("kKM"). */
bool sim_num(const char *v, int base, const char *sfx, u64 *x);

/* "WHO: WHERE: KEY=VAL: reason", exit(2): every bad value of an input. */
void sim_bad(const char *who, const char *where, const char *key,
	     const char *val, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 5, 6)));
/* The nearest of the NULL-terminated @known to @name, by edit distance. */
const char *sim_nearest(const char *name, const char *const *known);
/* "unknown WHAT 'NAME' (nearest: ...)", exit(2). */
void sim_unknown(const char *who, const char *where, const char *what,
		 const char *name, const char *const *known)
	__attribute__((noreturn));
/* @v as key @key's number in [@min, @max], or sim_bad(). */
u64 sim_key_num(const char *who, const char *where, const char *key,
		const char *v, int base, const char *sfx, u64 min, u64 max);

struct edge_preset;
struct edge_register;
struct edge_kdesc;
/* edge_validate_register_why(), or exit 2 naming the input's key (@map). */
void sim_validate(const char *who, const char *where, const char *name,
		  const struct edge_preset *p, const struct edge_register *r,
		  struct edge_kdesc *out, const char *const (*map)[2]);

/* The presets' names, from the model's table, NULL-terminated. */
const char *const *preset_names(void);

/* Each name of the comma list @list in @known, or exit 2 naming it. */
void sim_check_list(const char *who, const char *opt, const char *list,
		    const char *const *known);

/*
 * Provenance: the nine columns every edge-sim CSV ends with, so a row says
 * how it was made.  EDGE_SIM_VERSION is the output's version, raised by
 * hand when a result's meaning changes; not a commit id, which would
 * change every committed CSV at every commit.
 */
#define EDGE_SIM_VERSION	"1"
#define SIM_PROV_COLS	"preset,queue_policy,tb_policy,sched,victim,flush," \
			"seed,runs,edge_sim_version"

struct edge_simt_cfg;
/* ",PRESET,QPOL,...,VERSION" (no newline): SIM_PROV_COLS's values. */
void sim_prov(FILE *o, const char *preset, const char *qpol,
	      const struct edge_simt_cfg *cfg, u64 seed, u32 runs);

#endif /* _EDGE_SIMUTIL_H */

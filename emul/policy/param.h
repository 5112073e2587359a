/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A policy's knobs, as data: every policy (queue, thread-block and
 * placement level) lists its typed parameters in its descriptor, and
 * sysfs, netlink, edgectl and edge-sim loop over the lists.  No file
 * outside a policy names a knob of it: a new knob is one field of the
 * policy's private data and one EDGE_PARAM() line in its params[].
 *
 * A value lives in the policy's private data at its offset.  Names are
 * unique at their level (a test checks): they are sysfs file names
 * (cp/NAME for the queue level), netlink's policy-param names and
 * edge-sim's workload keys.
 */
#ifndef _EDGE_PARAM_H
#define _EDGE_PARAM_H

#include "edge_compat.h"

/* Knobs of all the queue-level policies together, at most (sysfs cp/). */
#define EDGE_CP_PARAMS_MAX	16

enum edge_param_type {
	EDGE_PARAM_U32,
	EDGE_PARAM_U64,
};

/**
 * struct edge_param - one typed knob of a policy
 * @name: its name at its level; unique there
 * @help: one line: what it does, its unit
 * @range: "NAME: from MIN to MAX", the message of a refused value
 * @type: enum edge_param_type, the width of its field
 * @off: its field's offset in the policy's private data
 * @min: the least value it takes
 * @max: the greatest
 * @def: its value when the device is made
 */
struct edge_param {
	const char *name;
	const char *help;
	const char *range;
	u32 type;
	u32 off;
	u64 min;
	u64 max;
	u64 def;
};

/*
 * One knob: @field of struct @st, of C type @ctype (u32 or u64), named
 * @nm (an identifier: its text is the name); decimal literals for @mn,
 * @mx and @df, so that the range message says them as they are.
 */
#define EDGE_PARAM(st, ctype, field, nm, mn, mx, df, hlp) {		\
	.name = #nm,							\
	.help = hlp,							\
	.range = #nm ": from " #mn " to " #mx,				\
	.type = sizeof(ctype) == 8 ? EDGE_PARAM_U64 : EDGE_PARAM_U32,	\
	.off = offsetof(st, field),					\
	.min = mn,							\
	.max = mx,							\
	.def = df,							\
}

const struct edge_param *edge_param_find(const struct edge_param *ps, u32 n,
					 const char *name);
u64 edge_param_get(const struct edge_param *p, const void *priv);
int edge_param_check(const struct edge_param *p, u64 v);
int edge_param_set(const struct edge_param *p, void *priv, u64 v);
void edge_param_defaults(const struct edge_param *ps, u32 n, void *priv);
const char *edge_param_type_name(u32 type);

#endif /* _EDGE_PARAM_H */

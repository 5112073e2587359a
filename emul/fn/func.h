/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builtin event-kernel functions: what an event computes on its
 * parameter entry.  Timing lives in the execution model, not here.
 *
 * The parameter entry is memory the submitter can still write (user space
 * or another driver), so a function reads each input field once, checks
 * it, and never lets a value it read index outside the entry.  A
 * submitter that scribbles on its own entry while it is in flight gets a
 * wrong answer, never an access outside its ring.
 */
#ifndef _EDGE_FUNC_H
#define _EDGE_FUNC_H

#include "edge_compat.h"
#include <linux/edge.h>

struct edge_lpm;
struct edge_lpm6;
struct edge_validate_err;

/**
 * struct edge_fn_def - a builtin event-kernel function (fn/func.c's table)
 * @name: its name in the tools and the documentation
 * @param_size: the least parameter entry it reads, bytes; a smaller one
 *	completes with EINVAL
 * @validate: checks the registration's function-specific fields (its
 *	table): 0, or -EINVAL with @err filled (edge_validate_reject()).
 *	NULL: it takes no table.
 * @state_new: per-registration state from the table (@table_len bytes;
 *	NULL reads as empty): 0 and @state set, -EINVAL, -ENOMEM.  NULL:
 *	none, and @run gets NULL.
 * @state_free: frees it
 * @run: computes on a parameter entry (see edge_func_run()); it may
 *	change its state (MemC's SETs), as only the device's front-end
 *	thread runs functions
 * @cost: the cycles per warp the model charges one event of a
 *	registration (every builtin: what the registration says)
 */
struct edge_fn_def {
	const char *name;
	u32 param_size;
	int (*validate)(const struct edge_register *r,
			struct edge_validate_err *err);
	int (*state_new)(const void *table, u32 table_len, void **state);
	void (*state_free)(void *state);
	u32 (*run)(void *state, void *param, u32 param_size, u32 *res);
	u64 (*cost)(const struct edge_register *r);
};

const struct edge_fn_def *edge_func_get(u32 func);

/*
 * Run @func on a parameter entry, with @state built at registration
 * (edge_func_state_new(); NULL for a function without one).  Writes the
 * function's output into the entry, returns the CQE code and sets @res:
 * the result for EDGE_CQE_DONE, a positive errno for EDGE_CQE_ERROR.
 */
u32 edge_func_run(u32 func, void *state, void *param, u32 param_size,
		  u32 *res);

/*
 * Per-registration state of @func from its table (@table_len bytes; may
 * be NULL, which reads as an empty table).  Returns 0 and sets @state
 * (NULL for functions without state), -EINVAL for a bad table, -ENOMEM.
 */
int edge_func_state_new(u32 func, const void *table, u32 table_len,
			void **state);
void edge_func_state_free(u32 func, void *state);

/* fn_net.c */
u32 edge_fn_udp_ping(void *param, u32 param_size, u32 *res);
u16 edge_csum_fold(u64 sum);
u64 edge_csum_add(u64 sum, const u8 *p, u32 len);

/* fn_icmp.c */
u32 edge_fn_icmp_echo(void *param, u32 param_size, u32 *res);

/* fn_lpm.c: a binary trie of IPv4 prefixes. */
int edge_lpm_build(const struct edge_lpm_entry *t, u32 n,
		   struct edge_lpm **out);
void edge_lpm_free(struct edge_lpm *l);
bool edge_lpm_lookup(const struct edge_lpm *l, u32 addr, u32 *value,
		     u32 *prefix_len);
u32 edge_fn_lpm4(const struct edge_lpm *l, void *param, u32 param_size,
		 u32 *res);
int edge_fn_lpm4_validate(const struct edge_register *r,
			  struct edge_validate_err *err);
int edge_fn_lpm4_state_new(const void *table, u32 table_len, void **state);
void edge_fn_lpm4_state_free(void *state);
u32 edge_fn_lpm4_run(void *state, void *param, u32 param_size, u32 *res);

/* fn_memc.c: the key/value table is the registration's state. */
int edge_fn_memc_state_new(const void *table, u32 table_len, void **state);
void edge_fn_memc_state_free(void *state);
u32 edge_fn_memc_run(void *state, void *param, u32 param_size, u32 *res);

/* fn_lpm6.c: a binary trie of IPv6 prefixes. */
int edge_lpm6_build(const struct edge_lpm6_entry *t, u32 n,
		    struct edge_lpm6 **out);
void edge_lpm6_free(struct edge_lpm6 *l);
bool edge_lpm6_lookup(const struct edge_lpm6 *l, const u8 *addr, u32 *value,
		      u32 *prefix_len);
int edge_fn_lpm6_validate(const struct edge_register *r,
			  struct edge_validate_err *err);
int edge_fn_lpm6_state_new(const void *table, u32 table_len, void **state);
void edge_fn_lpm6_state_free(void *state);
u32 edge_fn_lpm6_run(void *state, void *param, u32 param_size, u32 *res);

/* fn_crc32c.c */
u32 edge_crc32c(u32 crc, const u8 *p, u32 len);
u32 edge_fn_crc32c(void *param, u32 param_size, u32 *res);

#endif /* _EDGE_FUNC_H */

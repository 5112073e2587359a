// SPDX-License-Identifier: GPL-2.0
/*
 * The builtin event-kernel functions, one table (as io_uring's opdef.c):
 * each entry is a function's name, the least parameter entry it reads,
 * its registration check (its table, for LPM4 and LPM6), its
 * per-registration state (the LPM tries, MemC's key/value table), what it
 * computes and what it costs in the model.  Nothing else in the model
 * names a function.
 */
#include "fn/func.h"
#include "validate.h"

/* The model times a builtin by what its registration says. */
static u64 cost_registered(const struct edge_register *r)
{
	return r->warp_cycles;
}

static u32 fn_nop(void *state, void *param, u32 param_size, u32 *res)
{
	(void)state;
	(void)param;
	(void)param_size;
	*res = 0;
	return EDGE_CQE_DONE;
}

static u32 fn_echo(void *state, void *param, u32 param_size, u32 *res)
{
	u32 v;

	(void)state;
	(void)param_size;
	/* The entry is shared memory: read it once, as it is now. */
	memcpy(&v, param, sizeof(v));
	*res = v;
	return EDGE_CQE_DONE;
}

static u32 fn_udp_ping(void *state, void *param, u32 param_size,
		       u32 *res)
{
	(void)state;
	return edge_fn_udp_ping(param, param_size, res);
}

static u32 fn_crc32c(void *state, void *param, u32 param_size, u32 *res)
{
	(void)state;
	return edge_fn_crc32c(param, param_size, res);
}

static u32 fn_icmp_echo(void *state, void *param, u32 param_size,
			u32 *res)
{
	(void)state;
	return edge_fn_icmp_echo(param, param_size, res);
}

static const struct edge_fn_def edge_funcs[EDGE_FN_MAX + 1] = {
	[EDGE_FN_NOP] = {
		.name = "nop",
		.run = fn_nop,
		.cost = cost_registered,
	},
	[EDGE_FN_ECHO] = {
		.name = "echo",
		.param_size = sizeof(u32),
		.run = fn_echo,
		.cost = cost_registered,
	},
	[EDGE_FN_UDP_PING] = {
		.name = "udp_ping",
		.param_size = sizeof(struct edge_pkt_param),
		.run = fn_udp_ping,
		.cost = cost_registered,
	},
	[EDGE_FN_LPM4] = {
		.name = "lpm4",
		.param_size = sizeof(struct edge_lpm_param),
		.validate = edge_fn_lpm4_validate,
		.state_new = edge_fn_lpm4_state_new,
		.state_free = edge_fn_lpm4_state_free,
		.run = edge_fn_lpm4_run,
		.cost = cost_registered,
	},
	[EDGE_FN_CRC32C] = {
		.name = "crc32c",
		.param_size = sizeof(struct edge_crc_param),
		.run = fn_crc32c,
		.cost = cost_registered,
	},
	[EDGE_FN_ICMP_ECHO] = {
		.name = "icmp_echo",
		.param_size = sizeof(struct edge_pkt_param),
		.run = fn_icmp_echo,
		.cost = cost_registered,
	},
	[EDGE_FN_LPM6] = {
		.name = "lpm6",
		.param_size = sizeof(struct edge_lpm6_param),
		.validate = edge_fn_lpm6_validate,
		.state_new = edge_fn_lpm6_state_new,
		.state_free = edge_fn_lpm6_state_free,
		.run = edge_fn_lpm6_run,
		.cost = cost_registered,
	},
	/* The paper's 23,000 cycles a warp of 32 GETs: the registration's. */
	[EDGE_FN_MEMC] = {
		.name = "memc",
		.param_size = sizeof(struct edge_memc_param),
		.state_new = edge_fn_memc_state_new,
		.state_free = edge_fn_memc_state_free,
		.run = edge_fn_memc_run,
		.cost = cost_registered,
	},
};

/**
 * edge_func_get() - a builtin function's entry
 * @func: its id (enum of uapi/linux/edge.h)
 *
 * Return: the entry, or NULL for an id that names none.
 */
const struct edge_fn_def *edge_func_get(u32 func)
{
	return func <= EDGE_FN_MAX && edge_funcs[func].run ?
	       &edge_funcs[func] : NULL;
}

int edge_func_state_new(u32 func, const void *table, u32 table_len,
			void **state)
{
	const struct edge_fn_def *f = edge_func_get(func);

	*state = NULL;
	if (!f || !f->state_new)
		return 0;
	return f->state_new(table, table_len, state);
}

void edge_func_state_free(u32 func, void *state)
{
	const struct edge_fn_def *f = edge_func_get(func);

	if (f && f->state_free)
		f->state_free(state);
}

u32 edge_func_run(u32 func, void *state, void *param, u32 param_size,
		  u32 *res)
{
	const struct edge_fn_def *f = edge_func_get(func);

	if (!f || param_size < f->param_size ||
	    (f->state_new && !state)) {
		*res = EINVAL;
		return EDGE_CQE_ERROR;
	}
	return f->run(state, param, param_size, res);
}

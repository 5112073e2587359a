// SPDX-License-Identifier: GPL-2.0
/*
 * Builtin event-kernel functions: dispatch and per-registration state.
 */
#include "fn/func.h"

int edge_func_state_new(u32 func, const void *table, u32 table_len,
			void **state)
{
	struct edge_lpm *l;
	int ret;

	*state = NULL;
	if (func != EDGE_FN_LPM4)
		return 0;
	ret = edge_lpm_build(table, table ?
			     table_len / (u32)sizeof(struct edge_lpm_entry) : 0,
			     &l);
	if (!ret)
		*state = l;
	return ret;
}

void edge_func_state_free(u32 func, void *state)
{
	if (func == EDGE_FN_LPM4)
		edge_lpm_free(state);
}

u32 edge_func_run(u32 func, const void *state, void *param, u32 param_size,
		  u32 *res)
{
	u32 v;

	switch (func) {
	case EDGE_FN_NOP:
		*res = 0;
		return EDGE_CQE_DONE;
	case EDGE_FN_ECHO:
		if (param_size < sizeof(v))
			break;
		/* The entry is shared memory: read it once, as it is now. */
		memcpy(&v, param, sizeof(v));
		*res = v;
		return EDGE_CQE_DONE;
	case EDGE_FN_UDP_PING:
		return edge_fn_udp_ping(param, param_size, res);
	case EDGE_FN_LPM4:
		if (!state)
			break;
		return edge_fn_lpm4(state, param, param_size, res);
	case EDGE_FN_CRC32C:
		return edge_fn_crc32c(param, param_size, res);
	case EDGE_FN_ICMP_ECHO:
		return edge_fn_icmp_echo(param, param_size, res);
	default:
		break;
	}
	*res = EINVAL;
	return EDGE_CQE_ERROR;
}

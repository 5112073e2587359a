// SPDX-License-Identifier: GPL-2.0
/*
 * Builtin event-kernel functions.
 */
#include "func.h"
#include <linux/edge.h>

u32 edge_func_run(u32 func, void *param, u32 param_size, u32 *res)
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
	default:
		break;
	}
	*res = EINVAL;
	return EDGE_CQE_ERROR;
}

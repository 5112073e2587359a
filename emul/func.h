/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builtin event-kernel functions: what an event computes on its
 * parameter entry.  Timing lives in the execution model, not here.
 */
#ifndef _EDGE_FUNC_H
#define _EDGE_FUNC_H

#include "edge_compat.h"

/*
 * Run @func on a parameter entry.  Returns the CQE code and sets @res:
 * the result for EDGE_CQE_DONE, a positive errno for EDGE_CQE_ERROR.
 */
u32 edge_func_run(u32 func, void *param, u32 param_size, u32 *res);

#endif /* _EDGE_FUNC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Execution model: how long an event kernel occupies the device.
 *
 * This is the minimal model of the spine: every warp runs in parallel for
 * the descriptor's warp_cycles at the preset's clock.  The SIMT-core model
 * replaces it behind the same call.
 */
#ifndef _EDGE_EXEC_H
#define _EDGE_EXEC_H

#include "edge_compat.h"
#include "preset.h"
#include "validate.h"

u64 edge_exec_duration_ns(const struct edge_preset *p,
			  const struct edge_kdesc *k);

#endif /* _EDGE_EXEC_H */

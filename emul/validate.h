/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of what user space asks for, before the model sees it.
 */
#ifndef _EDGE_VALIDATE_H
#define _EDGE_VALIDATE_H

#include "edge_compat.h"
#include "gpu/preset.h"
#include <linux/edge.h>

/* An event kernel as the model holds it: validated, derived fields set. */
struct edge_kdesc {
	u32 func;
	u32 priority;
	u32 grid[3];
	u32 block[3];
	u32 regs_per_thread;
	u32 smem_per_block;
	u32 param_size;
	u32 ring_entries;
	u64 warp_cycles;
	struct edge_warp_state ws;
	/*
	 * The function's table (EDGE_FN_LPM4): @table_len bytes the host
	 * copied in; validation checks the length only and leaves @table
	 * NULL, the host points it at its copy before registering.
	 */
	const void *table;
	u32 table_len;
	u64 num_tbs;		/* grid_x * grid_y * grid_z */
	u32 block_threads;	/* block_x * block_y * block_z */
	u32 warps_per_tb;
	u64 deadline_ns;	/* an event's, from consumption; 0: none */
	/*
	 * TB times drawn right-skewed (edge_rng_skewed()), as RayTracing's
	 * in Pai et al. Fig. 6; 0: symmetric.  Not in the ABI: edge-sim's.
	 */
	u32 tb_skew;
	/*
	 * Spatial sharing (gpu/membw.c, gpu/quota.c): global memory traffic
	 * of one resident TB running at its isolated speed, MB/s (0: the
	 * older mem_pct-only model); the application (MPS client) it belongs
	 * to, 0 for none; its position in its application's chain of tasks,
	 * from 1 (0: not in a chain).
	 */
	u32 mem_bw_mbs;
	u32 app;
	u32 task;
	/*
	 * Batched event warps (uapi VER5): requests gathered into one warp,
	 * 1 when unbatched; how long a partial warp waits for more, model
	 * ns (EDGE_GATHER_NS_DEFAULT applied; unused when 1).
	 */
	u32 requests_per_warp;
	u32 gather_ns;
};

/*
 * Why a description was refused: the field (struct edge_register's or
 * struct edge_warp_state's name), its value, and the rule ("at most",
 * "from 1 to", ...) with its limit.
 */
struct edge_validate_err {
	const char *field;
	u64 value;
	const char *why;
	u64 limit;
};

int edge_validate_warp_state(const struct edge_warp_state *ws);
int edge_validate_warp_state_why(const struct edge_warp_state *ws,
				 struct edge_validate_err *err);
int edge_validate_register_why(const struct edge_preset *p,
			       const struct edge_register *r,
			       struct edge_kdesc *out,
			       struct edge_validate_err *err);
int edge_validate_register(const struct edge_preset *p,
			   const struct edge_register *r,
			   struct edge_kdesc *out);

int edge_validate_reject(struct edge_validate_err *err, const char *field,
			 u64 value, const char *why, u64 limit);

#endif /* _EDGE_VALIDATE_H */

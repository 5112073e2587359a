/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device presets: the shape of the modelled GPU, as data.
 *
 * A preset names the machine a device models; nothing in the model tests a
 * preset's name, so a new GPU is a new row, not a new code path.
 */
#ifndef _EDGE_PRESET_H
#define _EDGE_PRESET_H

#include "edge_compat.h"

struct edge_preset {
	const char *name;
	u32 num_cores;		/* SIMT cores (SMs / CUs) */
	u32 clock_khz;		/* core clock */
	u32 warp_size;
	u32 threads_per_core;
	u32 tb_slots_per_core;	/* resident thread blocks per core */
	u32 regs_per_core;	/* 32-bit registers */
	u32 smem_per_core;	/* bytes of shared memory */
	u32 max_block_threads;
	u32 max_regs_per_thread;
	u32 mem_bw_mbs;		/* peak global memory bandwidth, MB/s; 0: none */
	u32 mem_load_pct;	/* memory-bound time + this % at full load */
	u64 mem_bytes;		/* device (global) memory capacity */
	/*
	 * Co-residency stretch follows the core's occupancy while a TB runs
	 * (gpu/retime.c), as in a cycle-level simulator; otherwise it is
	 * fixed when the TB starts.
	 */
	bool corun_live;
};

/*
 * The table's names in its order, as one literal: for what must be a
 * constant (modinfo, an extack message).  A host test (preset_test.c)
 * checks it against the table, so a new row fails until it is here.
 */
#define EDGE_PRESET_NAMES \
	"edge, lax, h100-like, gtx480-pai, rtx2080ti, p100, v100, v100-32g"

const struct edge_preset *edge_preset_find(const char *name);
const struct edge_preset *edge_preset_default(void);
const struct edge_preset *edge_preset_at(unsigned int i);

#endif /* _EDGE_PRESET_H */

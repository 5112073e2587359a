/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Simple Slicing runtime predictor (Pai et al. Section 4): per kernel
 * and per core, Pred = Active_Kernel_Cycles + (Total_Blocks - Done_Blocks)
 * x t / Resident_Blocks, where t is the duration of the first TB to end on
 * that core in the current slice, and a slice ends at any kernel's launch
 * or end.  A library for thread-block policies (policy/srtf.c) and tools;
 * the core never calls it.  Times are model nanoseconds.
 */
#ifndef _EDGE_SLICING_H
#define _EDGE_SLICING_H

#include "gpu/simt.h"

/* Kernels tracked at once: the Fermi's concurrent kernels, as the paper. */
#define EDGE_SLICING_KERNELS	8

struct edge_slice_core {
	u64 active_ns;		/* Active_Kernel_Cycles, closed intervals */
	u64 since;		/* start of the open one, while resident */
	u32 done;		/* Done_Blocks */
	u64 t_ns;		/* t of this core's slice */
	bool has_t;
	bool reslice;
};

struct edge_slice_kernel {
	const struct edge_kinst *ki;	/* NULL: a free slot */
	u32 residency;		/* Resident_Blocks: R when alone */
	u64 total;		/* Total_Blocks: ceil(blocks / cores) */
	u64 done;		/* blocks done on every core */
	u64 t_ns;		/* the latest t of any core: the initial one */
	bool has_t;
	struct edge_slice_core *c;	/* one per core */
};

struct edge_slicing {
	u32 ncores;
	struct edge_slice_kernel k[EDGE_SLICING_KERNELS];
	struct edge_slice_core *cores;
};

int edge_slicing_init(struct edge_slicing *p, const struct edge_simt *s);
void edge_slicing_fini(struct edge_slicing *p);
int edge_slicing_find(const struct edge_slicing *p,
		      const struct edge_kinst *ki);
int edge_slicing_launch(struct edge_slicing *p, const struct edge_simt *s,
			const struct edge_kinst *ki);
void edge_slicing_end(struct edge_slicing *p, const struct edge_kinst *ki);
void edge_slicing_tb_start(struct edge_slicing *p, const struct edge_simt *s,
			   const struct edge_tb *tb);
int edge_slicing_tb_end(struct edge_slicing *p, const struct edge_simt *s,
			const struct edge_tb *tb);
bool edge_slicing_pred_core(const struct edge_slicing *p,
			    const struct edge_simt *s, int slot, u32 core,
			    u64 *pred_ns);
bool edge_slicing_remaining(const struct edge_slicing *p, int slot,
			    u64 *ns);
u64 edge_slicing_alone(const struct edge_slicing *p, int slot);

#endif /* _EDGE_SLICING_H */

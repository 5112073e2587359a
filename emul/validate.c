// SPDX-License-Identifier: GPL-2.0
/*
 * Registration checks.  Pure functions of their input, so the host fuzzer
 * drives them with the bytes user space could send.
 */
#include "validate.h"
#include "limits.h"

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

/* Probabilities are per mille; times stay far from overflow. */
int edge_validate_warp_state(const struct edge_warp_state *ws)
{
	if (ws->rsd_pct > 100 || ws->corun_pct > 10000 || ws->early_pct > 100 ||
	    ws->ewarp_corun_pct > 10000 || ws->mem_pct > 100)
		return -EINVAL;
	if (ws->p_pipe > 1000 || ws->p_load > 1000 || ws->p_barrier > 1000 ||
	    ws->p_membar > 1000 || ws->p_icache > 1000)
		return -EINVAL;
	if (ws->pipe_cycles > EDGE_MAX_STALL_CYCLES ||
	    ws->load_cycles > EDGE_MAX_STALL_CYCLES ||
	    ws->barrier_cycles > EDGE_MAX_STALL_CYCLES ||
	    ws->membar_cycles > EDGE_MAX_STALL_CYCLES ||
	    ws->icache_cycles > EDGE_MAX_STALL_CYCLES ||
	    ws->ibuf_insts > 64)
		return -EINVAL;
	return 0;
}

/*
 * Returns 0 and fills @out, or -EINVAL: the kernel could never run this
 * event kernel on this device, or a reserved field is set.
 */
int edge_validate_register(const struct edge_preset *p,
			   const struct edge_register *r,
			   struct edge_kdesc *out)
{
	u64 threads, warps, regs;

	if (r->flags)
		return -EINVAL;
	if (r->func == EDGE_FN_INVALID || r->func > EDGE_FN_MAX)
		return -EINVAL;
	if (r->priority > EDGE_PRIO_MAX)
		return -EINVAL;
	if (!r->grid_x || !r->grid_y || !r->grid_z ||
	    r->grid_x > EDGE_MAX_GRID_X ||
	    r->grid_y > EDGE_MAX_GRID_YZ || r->grid_z > EDGE_MAX_GRID_YZ)
		return -EINVAL;
	if (!r->block_x || !r->block_y || !r->block_z)
		return -EINVAL;
	/* Bound each factor first: three u32s can wrap a u64 product. */
	if (r->block_x > p->max_block_threads ||
	    r->block_y > p->max_block_threads ||
	    r->block_z > p->max_block_threads)
		return -EINVAL;
	threads = (u64)r->block_x * r->block_y * r->block_z;
	if (threads > p->max_block_threads)
		return -EINVAL;
	if (!r->regs_per_thread || r->regs_per_thread > p->max_regs_per_thread)
		return -EINVAL;
	/*
	 * A block that cannot fit on one core can never be dispatched, and
	 * cores allocate threads and registers by whole warps: a 33-thread
	 * block holds two warps' worth (found by fuzz_register).
	 */
	warps = (threads + p->warp_size - 1) / p->warp_size;
	regs = warps * p->warp_size * r->regs_per_thread;
	if (warps * p->warp_size > p->threads_per_core ||
	    regs > p->regs_per_core || r->smem_per_block > p->smem_per_core)
		return -EINVAL;
	if (r->param_size < 8 || r->param_size > EDGE_MAX_PARAM_SIZE ||
	    r->param_size % 8)
		return -EINVAL;
	if (!is_pow2(r->ring_entries) ||
	    r->ring_entries > EDGE_MAX_RING_ENTRIES)
		return -EINVAL;
	if ((u64)r->ring_entries * r->param_size > EDGE_MAX_RING_BYTES)
		return -EINVAL;
	if (!r->warp_cycles || r->warp_cycles > EDGE_MAX_WARP_CYCLES)
		return -EINVAL;

	if (edge_validate_warp_state(&r->ws))
		return -EINVAL;
	if (r->pad)
		return -EINVAL;
	/* Only a function that reads a table takes one, and never empty. */
	if (r->func == EDGE_FN_LPM4) {
		if (!r->table_ptr || !r->table_len ||
		    r->table_len % sizeof(struct edge_lpm_entry) ||
		    r->table_len > EDGE_LPM_MAX_ENTRIES *
				   sizeof(struct edge_lpm_entry))
			return -EINVAL;
	} else if (r->table_ptr || r->table_len) {
		return -EINVAL;
	}
	if (r->deadline_ns > EDGE_MAX_DEADLINE_NS)
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->func = r->func;
	out->priority = r->priority;
	out->grid[0] = r->grid_x;
	out->grid[1] = r->grid_y;
	out->grid[2] = r->grid_z;
	out->block[0] = r->block_x;
	out->block[1] = r->block_y;
	out->block[2] = r->block_z;
	out->deadline_ns = r->deadline_ns;
	out->regs_per_thread = r->regs_per_thread;
	out->smem_per_block = r->smem_per_block;
	out->param_size = r->param_size;
	out->ring_entries = r->ring_entries;
	out->warp_cycles = r->warp_cycles;
	out->ws = r->ws;
	out->table_len = r->table_len;
	out->num_tbs = (u64)r->grid_x * r->grid_y * r->grid_z;
	out->block_threads = (u32)threads;
	out->warps_per_tb = (out->block_threads + p->warp_size - 1) /
			    p->warp_size;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Registration checks.  Pure functions of their input, so the host fuzzer
 * drives them with the bytes user space could send.
 */
#include "validate.h"
#include "limits.h"
#include "fn/func.h"

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

/**
 * edge_validate_reject() - refuse a registration, saying why
 * @err: where the refusal goes, or NULL (edge.ko: the errno only)
 * @field: which field failed
 * @value: its value
 * @why: the rule ("at most", "from 1 to", ...)
 * @limit: its limit
 *
 * For a tool to print (edge-sim: "file:line: key=value: reason LIMIT");
 * a function's own check (struct edge_fn_def.validate) says it the same way.
 *
 * Return: -EINVAL.
 */
int edge_validate_reject(struct edge_validate_err *err, const char *field,
			 u64 value, const char *why, u64 limit)
{
	if (err) {
		err->field = field;
		err->value = value;
		err->why = why;
		err->limit = limit;
	}
	return -EINVAL;
}

/* Short, for the many checks below. */
static int reject(struct edge_validate_err *err, const char *field, u64 value,
		  const char *why, u64 limit)
{
	return edge_validate_reject(err, field, value, why, limit);
}

/* Each warp-state field's limit: probabilities per mille, stalls bounded. */
static const struct {
	const char *name;
	size_t off;
	u32 max;
} ws_limits[] = {
#define WS(f, lim) { #f, offsetof(struct edge_warp_state, f), lim }
	WS(rsd_pct, 100), WS(corun_pct, 10000), WS(early_pct, 100),
	WS(ewarp_corun_pct, 10000), WS(mem_pct, 100),
	WS(p_pipe, 1000), WS(p_load, 1000), WS(p_barrier, 1000),
	WS(p_membar, 1000), WS(p_icache, 1000),
	WS(pipe_cycles, EDGE_MAX_STALL_CYCLES),
	WS(load_cycles, EDGE_MAX_STALL_CYCLES),
	WS(barrier_cycles, EDGE_MAX_STALL_CYCLES),
	WS(membar_cycles, EDGE_MAX_STALL_CYCLES),
	WS(icache_cycles, EDGE_MAX_STALL_CYCLES),
	WS(ibuf_insts, 64),
#undef WS
};

/**
 * edge_validate_warp_state_why() - edge_validate_warp_state(), saying why
 * @ws: the warp state
 * @err: where the refused field goes, or NULL
 *
 * Return: 0, or -EINVAL with @err filled.
 */
int edge_validate_warp_state_why(const struct edge_warp_state *ws,
				 struct edge_validate_err *err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ws_limits); i++) {
		u32 v = *(const u32 *)((const char *)ws + ws_limits[i].off);

		if (v > ws_limits[i].max)
			return reject(err, ws_limits[i].name, v, "at most",
				      ws_limits[i].max);
	}
	return 0;
}

int edge_validate_warp_state(const struct edge_warp_state *ws)
{
	return edge_validate_warp_state_why(ws, NULL);
}

/*
 * Batched event warps (VER5): read only with EDGE_REGISTER_WARP_BATCH,
 * else reserved.  A batch is an event warp's, one request a thread: the
 * kernel must be one TB of at most a warp.
 */
static int validate_batch(const struct edge_preset *p,
			  const struct edge_register *r, u64 threads,
			  struct edge_validate_err *err)
{
	u64 tbs = (u64)r->grid_x * r->grid_y * r->grid_z;

	if (!(r->flags & EDGE_REGISTER_WARP_BATCH)) {
		if (r->requests_per_warp)
			return reject(err, "requests_per_warp",
				      r->requests_per_warp,
				      "without EDGE_REGISTER_WARP_BATCH, must be", 0);
		if (r->gather_ns)
			return reject(err, "gather_ns", r->gather_ns,
				      "without EDGE_REGISTER_WARP_BATCH, must be", 0);
		return 0;
	}
	if (!r->requests_per_warp ||
	    r->requests_per_warp > EDGE_MAX_REQUESTS_PER_WARP)
		return reject(err, "requests_per_warp", r->requests_per_warp,
			      "from 1 to", EDGE_MAX_REQUESTS_PER_WARP);
	if (r->requests_per_warp > 1 && (tbs != 1 || threads > p->warp_size))
		return reject(err, "requests_per_warp", r->requests_per_warp,
			      "above 1 only for an event warp (one TB of at most a warp), threads per block at most",
			      p->warp_size);
	if (r->gather_ns > EDGE_MAX_GATHER_NS)
		return reject(err, "gather_ns", r->gather_ns, "at most",
			      EDGE_MAX_GATHER_NS);
	return 0;
}

/**
 * edge_validate_register_why() - edge_validate_register(), saying why
 * @p: the device's preset
 * @r: what user space asks for
 * @out: the kernel description, filled on success
 * @err: where the refused field goes, or NULL
 *
 * The one set of rules: edge.ko's registration and every edge-sim input
 * pass here, so a description the module would refuse never reaches the
 * model in the simulator either.
 *
 * Return: 0 and @out filled, or -EINVAL (@err says which field): the
 * kernel could never run this event kernel on this device, or a reserved
 * field is set.
 */
int edge_validate_register_why(const struct edge_preset *p,
			       const struct edge_register *r,
			       struct edge_kdesc *out,
			       struct edge_validate_err *err)
{
	const struct edge_fn_def *fn;
	u64 threads, warps, regs;
	int ret;

	if (r->flags & ~EDGE_REGISTER_WARP_BATCH)
		return reject(err, "flags", r->flags, "known flags only, at most",
			      EDGE_REGISTER_WARP_BATCH);
	fn = edge_func_get(r->func);
	if (!fn)
		return reject(err, "func", r->func, "no such function, at most", EDGE_FN_MAX);
	if (r->priority > EDGE_PRIO_MAX)
		return reject(err, "priority", r->priority, "at most", EDGE_PRIO_MAX);
	if (!r->grid_x || r->grid_x > EDGE_MAX_GRID_X)
		return reject(err, "grid_x", r->grid_x, "from 1 to", EDGE_MAX_GRID_X);
	if (!r->grid_y || r->grid_y > EDGE_MAX_GRID_YZ)
		return reject(err, "grid_y", r->grid_y, "from 1 to", EDGE_MAX_GRID_YZ);
	if (!r->grid_z || r->grid_z > EDGE_MAX_GRID_YZ)
		return reject(err, "grid_z", r->grid_z, "from 1 to", EDGE_MAX_GRID_YZ);
	/* Bound each factor first: three u32s can wrap a u64 product. */
	if (!r->block_x || r->block_x > p->max_block_threads)
		return reject(err, "block_x", r->block_x, "from 1 to the preset's",
		       p->max_block_threads);
	if (!r->block_y || r->block_y > p->max_block_threads)
		return reject(err, "block_y", r->block_y, "from 1 to the preset's",
		       p->max_block_threads);
	if (!r->block_z || r->block_z > p->max_block_threads)
		return reject(err, "block_z", r->block_z, "from 1 to the preset's",
		       p->max_block_threads);
	threads = (u64)r->block_x * r->block_y * r->block_z;
	if (threads > p->max_block_threads)
		return reject(err, "block", threads, "threads per block, at most the preset's",
		       p->max_block_threads);
	if (!r->regs_per_thread || r->regs_per_thread > p->max_regs_per_thread)
		return reject(err, "regs_per_thread", r->regs_per_thread,
		       "from 1 to the preset's", p->max_regs_per_thread);
	/*
	 * A block that cannot fit on one core can never be dispatched, and
	 * cores allocate threads and registers by whole warps: a 33-thread
	 * block holds two warps' worth (found by fuzz_register).
	 */
	warps = (threads + p->warp_size - 1) / p->warp_size;
	regs = warps * p->warp_size * r->regs_per_thread;
	if (warps * p->warp_size > p->threads_per_core)
		return reject(err, "block", warps * p->warp_size,
		       "threads in whole warps, at most a core's",
		       p->threads_per_core);
	if (regs > p->regs_per_core)
		return reject(err, "regs_per_thread", regs,
		       "registers per block (whole warps), at most a core's",
		       p->regs_per_core);
	if (r->smem_per_block > p->smem_per_core)
		return reject(err, "smem_per_block", r->smem_per_block,
		       "bytes, at most a core's", p->smem_per_core);
	if (r->param_size < 8 || r->param_size > EDGE_MAX_PARAM_SIZE ||
	    r->param_size % 8)
		return reject(err, "param_size", r->param_size, "a multiple of 8 from 8 to",
		       EDGE_MAX_PARAM_SIZE);
	if (!is_pow2(r->ring_entries) ||
	    r->ring_entries > EDGE_MAX_RING_ENTRIES)
		return reject(err, "ring_entries", r->ring_entries, "a power of two up to",
		       EDGE_MAX_RING_ENTRIES);
	if ((u64)r->ring_entries * r->param_size > EDGE_MAX_RING_BYTES)
		return reject(err, "ring_entries", (u64)r->ring_entries * r->param_size,
		       "bytes of ring, at most", EDGE_MAX_RING_BYTES);
	if (!r->warp_cycles || r->warp_cycles > EDGE_MAX_WARP_CYCLES)
		return reject(err, "warp_cycles", r->warp_cycles, "from 1 to",
		       EDGE_MAX_WARP_CYCLES);

	ret = edge_validate_warp_state_why(&r->ws, err);
	if (ret)
		return ret;
	if (r->pad)
		return reject(err, "pad", r->pad, "reserved, must be", 0);
	/* Only a function that reads a table takes one: its check says. */
	if (fn->validate) {
		ret = fn->validate(r, err);
		if (ret)
			return ret;
	} else if (r->table_ptr || r->table_len) {
		return reject(err, "table_len", r->table_len,
		       "this function takes no table, must be", 0);
	}
	if (r->deadline_ns > EDGE_MAX_DEADLINE_NS)
		return reject(err, "deadline_ns", r->deadline_ns, "at most",
		       EDGE_MAX_DEADLINE_NS);
	ret = validate_batch(p, r, threads, err);
	if (ret)
		return ret;

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
	out->warp_cycles = fn->cost(r);
	out->ws = r->ws;
	out->table_len = r->table_len;
	out->num_tbs = (u64)r->grid_x * r->grid_y * r->grid_z;
	out->block_threads = (u32)threads;
	out->warps_per_tb = (out->block_threads + p->warp_size - 1) /
			    p->warp_size;
	out->requests_per_warp = 1;
	if (r->flags & EDGE_REGISTER_WARP_BATCH) {
		out->requests_per_warp = r->requests_per_warp;
		out->gather_ns = r->gather_ns ? r->gather_ns :
				 EDGE_GATHER_NS_DEFAULT;
	}
	return 0;
}

/*
 * edge.ko's entry: the same rules, only the errno (the module has no
 * file and line to name).
 */
int edge_validate_register(const struct edge_preset *p,
			   const struct edge_register *r,
			   struct edge_kdesc *out)
{
	return edge_validate_register_why(p, r, out, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Registration checks (emul/validate.c): one rejecting case and the
 * accepted boundary for every rule, and the derived fields.
 */
#include "emul_test.h"
#include "validate.h"
#include "limits.h"

/* On failure the output must be left exactly as it was. */
#define OUT_TOUCHED	(-12345)

static int try_on(const struct edge_preset *p, const struct edge_register *r,
		  struct edge_kdesc *k)
{
	struct edge_kdesc tmp;
	size_t i;
	int ret;

	memset(&tmp, 0xa5, sizeof(tmp));
	ret = edge_validate_register(p, r, &tmp);
	if (ret) {
		for (i = 0; i < sizeof(tmp); i++)
			if (((u8 *)&tmp)[i] != 0xa5)
				return OUT_TOUCHED;
	} else if (k) {
		*k = tmp;
	}
	return ret;
}

static int try(const struct edge_register *r)
{
	return try_on(edge_p(), r, NULL);
}

/* Set one field of a copy of emul_reg_one_warp() and check the verdict. */
#define CHECK(field, val, want) do {					\
	struct edge_register __r = emul_reg_one_warp();				\
	__r.field = (val);						\
	EXPECT_EQ(want, try(&__r))					\
		TH_LOG("%s = %llu", #field,				\
		       (unsigned long long)__r.field);			\
} while (0)

#define OK	0
#define BAD	(-EINVAL)

TEST(validate_presets)
{
	struct edge_register r = emul_reg_one_warp();

	ASSERT_NE(NULL, edge_p());
	EXPECT_EQ(edge_p(), edge_preset_default());
	EXPECT_STREQ("edge", edge_p()->name);
	EXPECT_NE(NULL, edge_preset_find("lax"));
	EXPECT_NE(NULL, edge_preset_find("h100-like"));
	EXPECT_EQ(NULL, edge_preset_find("nope"));
	EXPECT_EQ(NULL, edge_preset_find(""));
	/* The base request is valid everywhere; an all-zero one nowhere. */
	EXPECT_EQ(OK, try(&r));
	EXPECT_EQ(OK, try_on(edge_preset_find("lax"), &r, NULL));
	EXPECT_EQ(OK, try_on(edge_preset_find("h100-like"), &r, NULL));
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(BAD, try(&r));
}

TEST(validate_flags)
{
	CHECK(flags, 0, OK);
	/* EDGE_REGISTER_WARP_BATCH needs requests_per_warp from 1. */
	CHECK(flags, EDGE_REGISTER_WARP_BATCH, BAD);
	CHECK(flags, 2, BAD);
	CHECK(flags, 0x80000000U, BAD);
	CHECK(flags, 0xffffffffU, BAD);
}

/* VER5: batched event warps, read only with EDGE_REGISTER_WARP_BATCH. */
#define CHECK_BATCH(rpw, gather, want) do {				\
	struct edge_register __r = emul_reg_one_warp();			\
	__r.flags = EDGE_REGISTER_WARP_BATCH;				\
	__r.requests_per_warp = (rpw);					\
	__r.gather_ns = (gather);					\
	EXPECT_EQ(want, try(&__r)) TH_LOG("rpw %u gather %u",		\
					  (u32)(rpw), (u32)(gather));	\
} while (0)

TEST(validate_batch)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_kdesc k;

	/* Without the flag both are reserved. */
	CHECK(requests_per_warp, 1, BAD);
	CHECK(gather_ns, 1, BAD);
	CHECK_BATCH(0, 0, BAD);
	CHECK_BATCH(1, 0, OK);
	CHECK_BATCH(EDGE_MAX_REQUESTS_PER_WARP, 0, OK);
	CHECK_BATCH(EDGE_MAX_REQUESTS_PER_WARP + 1, 0, BAD);
	CHECK_BATCH(32, EDGE_MAX_GATHER_NS, OK);
	CHECK_BATCH(32, EDGE_MAX_GATHER_NS + 1, BAD);
	/* A batch is an event warp's: one TB of at most a warp. */
	r.flags = EDGE_REGISTER_WARP_BATCH;
	r.requests_per_warp = 32;
	r.grid_x = 2;
	EXPECT_EQ(BAD, try(&r));
	r.requests_per_warp = 1;
	EXPECT_EQ(OK, try(&r));
	r = emul_reg_one_warp();
	r.flags = EDGE_REGISTER_WARP_BATCH;
	r.requests_per_warp = 32;
	r.block_x = 64;
	EXPECT_EQ(BAD, try(&r));
	/* Derived: the default gather wait; unbatched is 1 request. */
	r.block_x = 32;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(32, k.requests_per_warp);
	EXPECT_EQ(EDGE_GATHER_NS_DEFAULT, k.gather_ns);
	r.gather_ns = 500;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(500, k.gather_ns);
	r = emul_reg_one_warp();
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(1, k.requests_per_warp);
	EXPECT_EQ(0, k.gather_ns);
}

TEST(validate_func)
{
	CHECK(func, EDGE_FN_INVALID, BAD);
	CHECK(func, EDGE_FN_NOP, OK);
	CHECK(func, EDGE_FN_ECHO, OK);
	/* The last id takes a table (LPM6): one without refuses. */
	CHECK(func, EDGE_FN_ICMP_ECHO, OK);
	CHECK(func, EDGE_FN_LPM6, BAD);
	CHECK(func, EDGE_FN_MAX + 1, BAD);
	CHECK(func, 0xffffffffU, BAD);
}

TEST(validate_priority)
{
	CHECK(priority, 0, OK);
	CHECK(priority, EDGE_PRIO_MAX, OK);
	CHECK(priority, 15, OK);
	CHECK(priority, 16, BAD);
	CHECK(priority, 0xffffffffU, BAD);
}

TEST(validate_grid)
{
	CHECK(grid_x, 0, BAD);
	CHECK(grid_y, 0, BAD);
	CHECK(grid_z, 0, BAD);
	CHECK(grid_x, EDGE_MAX_GRID_X, OK);
	CHECK(grid_x, EDGE_MAX_GRID_X + 1, BAD);
	CHECK(grid_x, 0xffffffffU, BAD);
	CHECK(grid_y, 65535, OK);
	CHECK(grid_y, 65536, BAD);
	CHECK(grid_z, 65535, OK);
	CHECK(grid_z, 65536, BAD);
	CHECK(grid_z, 0xffffffffU, BAD);
}

TEST(validate_block)
{
	struct edge_register r;

	CHECK(block_x, 0, BAD);
	CHECK(block_y, 0, BAD);
	CHECK(block_z, 0, BAD);
	CHECK(block_x, 1024, OK);
	CHECK(block_x, 1025, BAD);
	CHECK(block_y, 32, OK);		/* 32 x 32 x 1 */
	CHECK(block_y, 33, BAD);
	CHECK(block_z, 32, OK);
	CHECK(block_z, 33, BAD);
	CHECK(block_x, 1, OK);

	r = emul_reg_one_warp();
	r.block_x = 8;
	r.block_y = 8;
	r.block_z = 16;
	EXPECT_EQ(OK, try(&r));
	r.block_z = 17;
	EXPECT_EQ(BAD, try(&r));
	r.block_x = 1;
	r.block_y = 1;
	r.block_z = 1024;
	EXPECT_EQ(OK, try(&r));
	r.block_z = 1025;
	EXPECT_EQ(BAD, try(&r));
	/* 1025 threads from factors each within the limit. */
	r.block_x = 41;
	r.block_y = 5;
	r.block_z = 5;
	EXPECT_EQ(BAD, try(&r));
	r.block_x = 41;
	r.block_y = 24;
	r.block_z = 1;				/* 984 */
	EXPECT_EQ(OK, try(&r));
	/* 2^48 */
	r.block_x = 0x10000;
	r.block_y = 0x10000;
	r.block_z = 0x10000;
	EXPECT_EQ(BAD, try(&r));
	r.block_x = 0xffffffffU;
	r.block_y = 0xffffffffU;
	r.block_z = 0xffffffffU;
	EXPECT_EQ(BAD, try(&r));
}

/*
 * block_x * block_y * block_z must not wrap in 64 bits: each request
 * below asks for far more threads than any block may have, but the
 * product modulo 2^64 is small enough to pass the 1024-thread limit.
 */
TEST(validate_block_product_does_not_wrap)
{
	struct edge_register r = emul_reg_one_warp();
	struct edge_kdesc k;

	/* 2^22 * 2^21 * 2^21 = 2^64: wraps to 0 threads. */
	r.block_x = 1U << 22;
	r.block_y = 1U << 21;
	r.block_z = 1U << 21;
	memset(&k, 0, sizeof(k));
	EXPECT_EQ(BAD, try_on(edge_p(), &r, &k))
		TH_LOG("accepted: block_threads %u, warps_per_tb %u",
		       k.block_threads, k.warps_per_tb);

	/* 2^64 + 32: wraps to exactly one warp of 32 threads. */
	r.block_x = 0xd9863832U;
	r.block_y = 0x96a40148U;
	r.block_z = 2;
	ASSERT_EQ(32U, (u32)((u64)r.block_x * r.block_y * r.block_z));
	memset(&k, 0, sizeof(k));
	EXPECT_EQ(BAD, try_on(edge_p(), &r, &k))
		TH_LOG("accepted: block_threads %u, warps_per_tb %u",
		       k.block_threads, k.warps_per_tb);

	/* 2 * 2^64 + 1: wraps to a single thread. */
	r.block_x = 0xb295fa83U;
	r.block_y = 0x42b8e061U;
	r.block_z = 0xb;
	EXPECT_EQ(BAD, try(&r));

	/* 2^31 * 2^31 * 4 = 2^64: 0 again, with the largest factors. */
	r.block_x = 1U << 31;
	r.block_y = 1U << 31;
	r.block_z = 4;
	EXPECT_EQ(BAD, try(&r));
}

TEST(validate_regs)
{
	struct edge_register r;

	CHECK(regs_per_thread, 0, BAD);
	CHECK(regs_per_thread, 1, OK);
	CHECK(regs_per_thread, 255, OK);	/* 32 threads: 8160 regs */
	CHECK(regs_per_thread, 256, BAD);	/* over max_regs_per_thread */
	CHECK(regs_per_thread, 0xffffffffU, BAD);

	/* A block's registers must fit on one core (65536). */
	r = emul_reg_one_warp();
	r.block_x = 1024;
	r.regs_per_thread = 64;			/* exactly 65536 */
	EXPECT_EQ(OK, try(&r));
	r.regs_per_thread = 65;
	EXPECT_EQ(BAD, try(&r));
	r.block_x = 256;
	r.regs_per_thread = 255;		/* 65280 */
	EXPECT_EQ(OK, try(&r));
	/*
	 * Cores allocate whole warps: 257 threads hold 9 warps, 288 threads'
	 * registers (73440), though 257 x 255 = 65535 would fit.
	 */
	r.block_x = 257;
	EXPECT_EQ(BAD, try(&r));
	r.regs_per_thread = 227;		/* 288 x 227 = 65376 */
	EXPECT_EQ(OK, try(&r));
	r.regs_per_thread = 228;		/* 288 x 228 = 65664 */
	EXPECT_EQ(BAD, try(&r));
}

TEST(validate_smem)
{
	struct edge_register r = emul_reg_one_warp();

	CHECK(smem_per_block, 0, OK);
	CHECK(smem_per_block, 48 * 1024, OK);
	CHECK(smem_per_block, 48 * 1024 + 1, BAD);
	CHECK(smem_per_block, 0xffffffffU, BAD);
	/* The limit is the preset's, not a constant. */
	r.smem_per_block = 64 * 1024;
	EXPECT_EQ(BAD, try(&r));
	EXPECT_EQ(OK, try_on(edge_preset_find("lax"), &r, NULL));
	r.smem_per_block = 64 * 1024 + 1;
	EXPECT_EQ(BAD, try_on(edge_preset_find("lax"), &r, NULL));
}

TEST(validate_param_size)
{
	CHECK(param_size, 0, BAD);
	CHECK(param_size, 4, BAD);
	CHECK(param_size, 7, BAD);
	CHECK(param_size, 8, OK);
	CHECK(param_size, 12, BAD);
	CHECK(param_size, 16, OK);
	CHECK(param_size, 4088, OK);
	CHECK(param_size, 4092, BAD);
	CHECK(param_size, EDGE_MAX_PARAM_SIZE, OK);
	CHECK(param_size, 4096, OK);
	CHECK(param_size, 4104, BAD);
	CHECK(param_size, 0xfffffff8U, BAD);
}

TEST(validate_ring_entries)
{
	CHECK(ring_entries, 0, BAD);
	CHECK(ring_entries, 1, OK);
	CHECK(ring_entries, 2, OK);
	CHECK(ring_entries, 3, BAD);
	CHECK(ring_entries, 6, BAD);
	CHECK(ring_entries, 4095, BAD);
	CHECK(ring_entries, EDGE_MAX_RING_ENTRIES, OK);
	CHECK(ring_entries, 4096, OK);
	CHECK(ring_entries, 8192, BAD);
	CHECK(ring_entries, 0x80000000U, BAD);
	CHECK(ring_entries, 0xffffffffU, BAD);
}

TEST(validate_ring_bytes)
{
	struct edge_register r = emul_reg_one_warp();

	/* ring_entries * param_size <= 4 MiB, each within its own limit. */
	r.ring_entries = 4096;
	r.param_size = 1024;
	EXPECT_EQ(OK, try(&r));
	r.param_size = 1032;
	EXPECT_EQ(BAD, try(&r));
	r.param_size = 4096;
	EXPECT_EQ(BAD, try(&r));
	r.ring_entries = 2048;
	r.param_size = 2048;
	EXPECT_EQ(OK, try(&r));
	r.param_size = 2056;
	EXPECT_EQ(BAD, try(&r));
	r.ring_entries = 1024;
	r.param_size = 4096;
	EXPECT_EQ(OK, try(&r));
}

TEST(validate_warp_cycles)
{
	CHECK(warp_cycles, 0, BAD);
	CHECK(warp_cycles, 1, OK);
	CHECK(warp_cycles, EDGE_MAX_WARP_CYCLES, OK);
	CHECK(warp_cycles, EDGE_MAX_WARP_CYCLES + 1, BAD);
	CHECK(warp_cycles, 0xffffffffffffffffULL, BAD);
}

TEST(validate_derived_fields)
{
	const struct edge_preset *lax = edge_preset_find("lax");
	struct edge_register r = emul_reg_one_warp();
	struct edge_kdesc k;

	r.func = EDGE_FN_NOP;
	r.priority = 9;
	r.grid_x = 3;
	r.grid_y = 5;
	r.grid_z = 7;
	r.block_x = 33;
	r.block_y = 2;
	r.block_z = 1;
	r.regs_per_thread = 40;
	r.smem_per_block = 1000;
	r.param_size = 24;
	r.ring_entries = 128;
	r.warp_cycles = 123456789;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ((u32)EDGE_FN_NOP, k.func);
	EXPECT_EQ(9U, k.priority);
	EXPECT_EQ(3U, k.grid[0]);
	EXPECT_EQ(5U, k.grid[1]);
	EXPECT_EQ(7U, k.grid[2]);
	EXPECT_EQ(33U, k.block[0]);
	EXPECT_EQ(2U, k.block[1]);
	EXPECT_EQ(1U, k.block[2]);
	EXPECT_EQ(40U, k.regs_per_thread);
	EXPECT_EQ(1000U, k.smem_per_block);
	EXPECT_EQ(24U, k.param_size);
	EXPECT_EQ(128U, k.ring_entries);
	EXPECT_EQ(123456789ULL, k.warp_cycles);
	EXPECT_EQ(105ULL, k.num_tbs);
	EXPECT_EQ(66U, k.block_threads);
	EXPECT_EQ(3U, k.warps_per_tb);		/* ceil(66 / 32) */

	/* The warp size is the preset's: 64 on LAX. */
	ASSERT_EQ(OK, try_on(lax, &r, &k));
	EXPECT_EQ(2U, k.warps_per_tb);

	r.block_x = 32;
	r.block_y = 1;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(32U, k.block_threads);
	EXPECT_EQ(1U, k.warps_per_tb);
	r.block_x = 1;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(1U, k.warps_per_tb);
	r.block_x = 1024;
	r.regs_per_thread = 8;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ(1024U, k.block_threads);
	EXPECT_EQ(32U, k.warps_per_tb);
	ASSERT_EQ(OK, try_on(lax, &r, &k));
	EXPECT_EQ(16U, k.warps_per_tb);

	/* The largest grid does not overflow num_tbs. */
	r.grid_x = EDGE_MAX_GRID_X;
	r.grid_y = EDGE_MAX_GRID_YZ;
	r.grid_z = EDGE_MAX_GRID_YZ;
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	EXPECT_EQ((u64)EDGE_MAX_GRID_X * EDGE_MAX_GRID_YZ * EDGE_MAX_GRID_YZ,
		  k.num_tbs);
	EXPECT_EQ(9223090559730712575ULL, k.num_tbs);
}

/* VER1: how the warps spend their time.  Zero (VER0 callers) is valid. */
TEST(validate_warp_state)
{
	static const struct {
		size_t off;
		u32 max;
	} f[] = {
		{ offsetof(struct edge_warp_state, rsd_pct), 100 },
		{ offsetof(struct edge_warp_state, corun_pct), 10000 },
		{ offsetof(struct edge_warp_state, p_pipe), 1000 },
		{ offsetof(struct edge_warp_state, pipe_cycles), EDGE_MAX_STALL_CYCLES },
		{ offsetof(struct edge_warp_state, ibuf_insts), 64 },
		{ offsetof(struct edge_warp_state, p_load), 1000 },
		{ offsetof(struct edge_warp_state, load_cycles), EDGE_MAX_STALL_CYCLES },
		{ offsetof(struct edge_warp_state, p_barrier), 1000 },
		{ offsetof(struct edge_warp_state, barrier_cycles), EDGE_MAX_STALL_CYCLES },
		{ offsetof(struct edge_warp_state, early_pct), 100 },
		{ offsetof(struct edge_warp_state, p_membar), 1000 },
		{ offsetof(struct edge_warp_state, membar_cycles), EDGE_MAX_STALL_CYCLES },
		{ offsetof(struct edge_warp_state, p_icache), 1000 },
		{ offsetof(struct edge_warp_state, icache_cycles), EDGE_MAX_STALL_CYCLES },
		{ offsetof(struct edge_warp_state, ewarp_corun_pct), 10000 },
		{ offsetof(struct edge_warp_state, mem_pct), 100 },
	};
	struct edge_register r;
	struct edge_kdesc k;
	u32 i;

	/* Every field has a bound, and the struct is all u32 fields. */
	ASSERT_EQ(sizeof(struct edge_warp_state), ARRAY_SIZE(f) * sizeof(u32));
	EXPECT_EQ((size_t)EDGE_REGISTER_SIZE_VER5, sizeof(struct edge_register));
	EXPECT_EQ((size_t)EDGE_REGISTER_SIZE_VER1,
		  offsetof(struct edge_register, table_ptr));
	EXPECT_EQ((size_t)EDGE_REGISTER_SIZE_VER0,
		  offsetof(struct edge_register, ws));
	r = emul_reg_one_warp();
	ASSERT_EQ(OK, try_on(edge_p(), &r, &k));
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		u32 *v = (u32 *)((u8 *)&r.ws + f[i].off);

		r = emul_reg_one_warp();
		*v = f[i].max;
		EXPECT_EQ(0, edge_validate_warp_state(&r.ws)) TH_LOG("field %u", i);
		ASSERT_EQ(OK, try_on(edge_p(), &r, &k)) TH_LOG("field %u", i);
		/* Copied into the descriptor as given. */
		EXPECT_EQ(0, memcmp(&r.ws, &k.ws, sizeof(k.ws)));
		*v = f[i].max + 1;
		EXPECT_EQ(-EINVAL, edge_validate_warp_state(&r.ws))
			TH_LOG("field %u", i);
		EXPECT_EQ(-EINVAL, try(&r)) TH_LOG("field %u", i);
		*v = 0xffffffffU;
		EXPECT_EQ(-EINVAL, try(&r)) TH_LOG("field %u", i);
	}
	/* All at their largest at once. */
	r = emul_reg_one_warp();
	for (i = 0; i < ARRAY_SIZE(f); i++)
		*(u32 *)((u8 *)&r.ws + f[i].off) = f[i].max;
	EXPECT_EQ(OK, try_on(edge_p(), &r, &k));
}

/*
 * edge_validate_register_why() names the field that failed, with its
 * value and limit, for edge-sim's "file:line: key=value: reason"; and
 * edge_validate_register() is its verdict, the same for every field.
 */
#define WHY(f, val, name, lim) do {					\
	struct edge_register __r = emul_reg_one_warp();			\
	struct edge_validate_err __e = { 0 };				\
	struct edge_kdesc __k;						\
	__r.f = (val);						\
	EXPECT_EQ(-EINVAL, edge_validate_register_why(edge_p(), &__r,	\
						      &__k, &__e));	\
	EXPECT_EQ(-EINVAL, edge_validate_register(edge_p(), &__r, &__k));	\
	ASSERT_NE(NULL, __e.field);					\
	EXPECT_STREQ(name, __e.field);					\
	EXPECT_EQ((u64)(lim), __e.limit) TH_LOG("%s", #f);		\
} while (0)

TEST(validate_why)
{
	const struct edge_preset *p = edge_p();

	WHY(grid_x, 0, "grid_x", EDGE_MAX_GRID_X);
	WHY(grid_y, 65536, "grid_y", EDGE_MAX_GRID_YZ);
	WHY(block_x, p->max_block_threads + 1, "block_x",
	    p->max_block_threads);
	WHY(regs_per_thread, p->max_regs_per_thread + 1, "regs_per_thread",
	    p->max_regs_per_thread);
	WHY(smem_per_block, p->smem_per_core + 1, "smem_per_block",
	    p->smem_per_core);
	WHY(warp_cycles, EDGE_MAX_WARP_CYCLES + 1, "warp_cycles",
	    EDGE_MAX_WARP_CYCLES);
	WHY(priority, EDGE_PRIO_MAX + 1, "priority", EDGE_PRIO_MAX);
	WHY(ws.rsd_pct, 101, "rsd_pct", 100);
	WHY(ws.corun_pct, 10001, "corun_pct", 10000);
	WHY(ws.p_icache, 1001, "p_icache", 1000);
	WHY(ws.ibuf_insts, 65, "ibuf_insts", 64);
	WHY(deadline_ns, EDGE_MAX_DEADLINE_NS + 1, "deadline_ns",
	    EDGE_MAX_DEADLINE_NS);
	WHY(ring_entries, 3, "ring_entries", EDGE_MAX_RING_ENTRIES);
	WHY(flags, 2, "flags", EDGE_REGISTER_WARP_BATCH);
	WHY(flags, EDGE_REGISTER_WARP_BATCH, "requests_per_warp",
	    EDGE_MAX_REQUESTS_PER_WARP);
	WHY(requests_per_warp, 1, "requests_per_warp", 0);
}

TEST_HARNESS_MAIN

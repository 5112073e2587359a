/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the host unit tests of emul/.
 *
 * Every test runs in its own child (the kselftest harness forks), so a
 * sanitizer report, an EDGE_ASSERT() (assert() on the host) or a failed
 * ASSERT_* fails that test alone.
 */
#ifndef _EMUL_TEST_H
#define _EMUL_TEST_H

#include "kselftest_harness.h"
#include "edge_compat.h"
#include "gpu/preset.h"
#include <linux/edge.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

/*
 * The harness ends a test child with _exit(), which skips LeakSanitizer's
 * exit-time check: tests that allocate call this at their end.
 */
static inline int emul_leaks(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __lsan_do_recoverable_leak_check();
#else
	return 0;
#endif
}

#define EXPECT_NO_LEAKS() do {					\
	EXPECT_EQ(0, emul_leaks()) TH_LOG("LeakSanitizer found leaks");	\
} while (0)

/* xorshift64*: a fixed seed gives the same sequence on every host. */
struct emul_rng {
	u64 s;
};

static inline void emul_rng_seed(struct emul_rng *r, u64 seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

static inline u64 emul_rand(struct emul_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* Uniform enough in [0, n) for test inputs; n > 0. */
static inline u32 emul_rand_below(struct emul_rng *r, u32 n)
{
	return (u32)((emul_rand(r) >> 32) % n);
}

/* A u32 word at a byte offset of a shared mapping. */
static inline u32 *emul_word(void *base, u32 off)
{
	return (u32 *)((u8 *)base + off);
}

/* The "edge" preset (EDGE Table II). */
static inline const struct edge_preset *edge_p(void)
{
	return edge_preset_find("edge");
}

/* A valid registration: one ECHO warp, 64 x 8 B ring, 700 cycles (1 us). */
static inline struct edge_register emul_reg_one_warp(void)
{
	struct edge_register r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.func = EDGE_FN_ECHO;
	r.grid_x = 1;
	r.grid_y = 1;
	r.grid_z = 1;
	r.block_x = 32;
	r.block_y = 1;
	r.block_z = 1;
	r.regs_per_thread = 32;
	r.param_size = 8;
	r.ring_entries = 64;
	r.warp_cycles = 700;	/* 1000 ns at 700 MHz */
	return r;
}

#endif /* _EMUL_TEST_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one door between the model (emul/) and its host.
 *
 * emul/ builds into edge.ko and into user-space programs (unit tests,
 * tools/edge-sim, fuzzers).  It needs very little from either: fixed-width
 * types, zeroed allocation, errno values, an assertion, and the ordered
 * accesses to memory shared with user space (ring words).  Keep this file
 * that small: a model that needs more should be reshaped instead.
 */
#ifndef _EDGE_COMPAT_H
#define _EDGE_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/bug.h>
#include <linux/math64.h>
#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/bitops.h>

/* Process context only: the model allocates when work is registered,
 * never while it steps, so the registering task's memcg is charged.
 */
static inline void *edge_zalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL_ACCOUNT);
}

/* Not zeroed: for arrays whose entries are each set before they are read. */
static inline void *edge_alloc(size_t size)
{
	return kvmalloc(size, GFP_KERNEL_ACCOUNT);
}

static inline void edge_free(void *p)
{
	kvfree(p);
}

/* Debug builds assert what drv/ promises; production ones warn once. */
#define EDGE_ASSERT(cond)	WARN_ON_ONCE(!(cond))

static inline u64 edge_div64(u64 a, u32 b)
{
	return div_u64(a, b);
}

static inline u64 edge_div64_64(u64 a, u64 b)
{
	return div64_u64(a, b);
}

/*
 * Ring words shared with user space: acquire pairs with the producer's
 * release of its tail; release orders our writes before a status or count.
 */
#define edge_load_acquire(p)		smp_load_acquire(p)
/* Release: see above. */
#define edge_store_release(p, v)	smp_store_release(p, v)
#define edge_read_once(x)		READ_ONCE(x)
/* Lowest set bit of a non-zero word: a walk of a bitmap of live slots. */
#define edge_ffs64(x)			__ffs64(x)
#define edge_fls64(x)			fls64(x)
#define edge_write_once(x, v)		WRITE_ONCE(x, v)
#define edge_xchg(p, v)			xchg(p, v)	/* full barrier */

/*
 * The model's trace points (trace_points.h): tracepoints of edge.ko,
 * drv/edge_trace.c.  @eng names the device: its model's engine.
 */
struct edge_engine;
void edge_trace(const struct edge_engine *eng, u32 tp, u64 a, u64 b, u64 c);
#define EDGE_TRACE(eng, tp, a, b, c)	edge_trace(eng, tp, a, b, c)
/* Points only edge-sim's timeline wants: not even a call in edge.ko. */
#define EDGE_TRACE_SIM(eng, tp, a, b, c)	do { } while (0)

#else /* user space */

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <assert.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

/* selftests/fuzz/fuzz_alloc.c keeps the model's large blocks across inputs. */
#ifdef EDGE_USER_ALLOC
void *edge_user_alloc(size_t size, bool zero);
void edge_user_free(void *p);
#define edge_zalloc(n)		edge_user_alloc(n, true)
#define edge_alloc(n)		edge_user_alloc(n, false)
#define edge_free(p)		edge_user_free(p)
#else
#define edge_zalloc(n)		calloc(1, n)
#define edge_alloc(n)		malloc(n)
#define edge_free(p)		free(p)
#endif

#define EDGE_ASSERT(cond)	assert(cond)
#define noinline		__attribute_noinline__	/* glibc's sys/cdefs.h */

#define edge_div64(a, b)		((u64)(a) / (u32)(b))
#define edge_div64_64(a, b)		((u64)(a) / (u64)(b))
#define edge_load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define edge_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define edge_read_once(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define edge_write_once(x, v)		__atomic_store_n(&(x), v, __ATOMIC_RELAXED)
#define edge_xchg(p, v)			__atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define edge_ffs64(x)			((u32)__builtin_ctzll(x))
#define edge_fls64(x)			((x) ? 64 - (u32)__builtin_clzll(x) : 0)

/* A user of the model (edge-sim) may watch its trace points (model.c). */
struct edge_engine;
extern void (*edge_trace_hook)(const struct edge_engine *eng, u32 tp,
			       u64 a, u64 b, u64 c);
#define EDGE_TRACE(eng, tp, a, b, c) do {				\
	if (edge_trace_hook)						\
		edge_trace_hook(eng, tp, a, b, c);			\
} while (0)
#define EDGE_TRACE_SIM(eng, tp, a, b, c)	EDGE_TRACE(eng, tp, a, b, c)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

#endif /* __KERNEL__ */

#include "trace_points.h"

#endif /* _EDGE_COMPAT_H */

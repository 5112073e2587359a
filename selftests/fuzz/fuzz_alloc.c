// SPDX-License-Identifier: GPL-2.0
/*
 * The model's allocations in the fuzz targets; see fuzz_alloc.h.
 *
 * Why: every input sets up a model and tears it down.  Its large arrays
 * (the kernel-instance pool alone is 0.9 MB, 2.4 MB on "h100-like"; the
 * CP's kernel-list pool 1 MB) are beyond ASan's primary allocator, so
 * each came from a fresh mmap() and went back by munmap() when it left
 * the quarantine: ~800 page faults an input, their shadow faulted and
 * released again, a TLB shootdown per munmap.  perf on fuzz_cp: 36 % of
 * the samples at edge_simt_init()'s first touch of the pool, 21 % in
 * the page-fault handler, 10 % in munmap's and madvise's cross-CPU
 * calls.  Kept here, a block is mapped once per process and the next
 * model of the same preset gets it back at the same address: the four
 * model targets went from 237 CPU seconds to 34 (README).
 *
 * What ASan still sees: a kept block was allocated by ASan at its exact
 * size, so its redzones stay where they were (an overflow is still a
 * heap-buffer-overflow); while kept it is poisoned, so a use after free
 * is reported (use-after-poison); freeing it again is an assertion; a
 * block in use is not referenced from here (its address is stored
 * masked), so LeakSanitizer still finds a leaked one.  Kept blocks are
 * reused only once no large block is in use (the model that freed them
 * is gone), so within one model's life a freed block is never handed out
 * again: a stale pointer into it stays a report, as with the quarantine.
 *
 * Reproducible: a reused block is zeroed (edge_zalloc) or filled with
 * ASan's malloc fill byte 0xbe (edge_alloc), never left holding an
 * earlier input's bytes, so an input does the same alone as in a run.
 */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "fuzz_common.h"

#define FZ_LIVE_MAX	512		/* large blocks in use at once */
#define FZ_KEPT_MAX	256
#define FZ_KEPT_BYTES	(128U << 20)
#define FZ_REC_MAX	256
/* Stored addresses of blocks in use are masked: not a reference to LSan. */
#define FZ_MASK		((uintptr_t)0xa5a5a5a5a5a5a5a5ULL)

struct fz_blk {
	uintptr_t p;
	size_t size;
	bool ready;		/* kept: its model is gone */
};

static struct fz_blk live[FZ_LIVE_MAX];
static unsigned int nlive;
static struct fz_blk kept[FZ_KEPT_MAX];
static unsigned int nkept;
static size_t kept_bytes;
static bool keep;
static bool fresh;		/* fz_alloc_check_reuse(): no reuse */

/* What fz_alloc_check_reuse() records of one build. */
struct fz_rec {
	uintptr_t p;
	size_t size;
	bool zero;		/* zeroed: its bytes are defined */
	bool reused;
	bool freed;		/* during the build */
	bool model;		/* edge_zalloc() or edge_alloc() */
};

static struct fz_rec *rec;
static unsigned int nrec;

/* FUZZ_KEEP_BLOCKS=0: ASan's allocator for everything, as before. */
static bool keep_allowed(void)
{
	const char *v = getenv("FUZZ_KEEP_BLOCKS");

	return !v || strcmp(v, "0");
}

void fz_alloc_keep(bool on)
{
	keep = on && keep_allowed();
}

static void record(void *p, size_t size, bool zero, bool reused,
		   bool model)
{
	if (!rec)
		return;
	FZ_ASSERT(nrec < FZ_REC_MAX, "more than %u allocations", FZ_REC_MAX);
	rec[nrec++] = (struct fz_rec){ .p = (uintptr_t)p, .size = size,
				       .zero = zero, .reused = reused,
				       .model = model };
}

static void record_free(void *p)
{
	unsigned int i;

	for (i = 0; rec && i < nrec; i++)
		if (rec[i].p == (uintptr_t)p)
			rec[i].freed = true;
}

static void *take_kept(size_t size, bool zero)
{
	unsigned int i;
	void *p;

	if (fresh)
		return NULL;
	for (i = 0; i < nkept; i++)
		if (kept[i].ready && kept[i].size == size)
			break;
	if (i == nkept)
		return NULL;
	p = (void *)kept[i].p;
	kept_bytes -= size;
	kept[i] = kept[--nkept];
	/* No stale copy of its address: LSan must not take it as held. */
	kept[nkept] = (struct fz_blk){ 0 };
	ASAN_UNPOISON_MEMORY_REGION(p, size);
	memset(p, zero ? 0 : 0xbe, size);
	return p;
}

static void *alloc(size_t size, bool zero, bool model)
{
	bool reused = false;
	void *p = NULL;

	if (size >= FZ_BIG) {
		p = take_kept(size, zero);
		reused = !!p;
	}
	if (!p)
		p = zero ? calloc(1, size) : malloc(size);
	if (p && size >= FZ_BIG && keep) {
		FZ_ASSERT(nlive < FZ_LIVE_MAX, "%u large blocks in use", nlive);
		live[nlive++] = (struct fz_blk){ .p = (uintptr_t)p ^ FZ_MASK,
						 .size = size };
	}
	if (p)
		record(p, size, zero, reused, model);
	return p;
}

void *edge_user_alloc(size_t size, bool zero)
{
	return alloc(size, zero, true);
}

void edge_user_free(void *p)
{
	unsigned int i;
	size_t size;

	if (!p)
		return;
	record_free(p);
	for (i = 0; i < nlive; i++)
		if (live[i].p == ((uintptr_t)p ^ FZ_MASK))
			break;
	if (i == nlive) {
		for (i = 0; i < nkept; i++)
			FZ_ASSERT(kept[i].p != (uintptr_t)p,
				  "double free of a kept block %p", p);
		free(p);
		return;
	}
	size = live[i].size;
	live[i] = live[--nlive];
	if (keep && !fresh && nkept < FZ_KEPT_MAX &&
	    kept_bytes + size <= FZ_KEPT_BYTES) {
		ASAN_POISON_MEMORY_REGION(p, size);
		kept[nkept++] = (struct fz_blk){ .p = (uintptr_t)p,
						 .size = size };
		kept_bytes += size;
	} else {
		free(p);
	}
	/* The model that used them is gone: they may serve the next. */
	if (!nlive)
		for (i = 0; i < nkept; i++)
			kept[i].ready = true;
}

unsigned int fz_alloc_in_use(void)
{
	return nlive;
}

void *fz_zalloc(size_t size)
{
	return alloc(size, true, false);
}

void fz_free(void *p)
{
	edge_user_free(p);
}

/* The block of @r that @v points into (or just past), and where. */
static int block_of(const struct fz_rec *r, unsigned int n, u64 v,
		    u64 *off)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (v >= r[i].p && v - r[i].p <= r[i].size) {
			*off = v - r[i].p;
			return (int)i;
		}
	}
	return -1;
}

static void compare(const char *what, const struct fz_rec *a,
		    const struct fz_rec *b, unsigned int n)
{
	unsigned int i;
	size_t o;

	for (i = 0; i < n; i++) {
		const u8 *pa = (const u8 *)a[i].p, *pb = (const u8 *)b[i].p;

		FZ_ASSERT(a[i].size == b[i].size && a[i].zero == b[i].zero &&
			  a[i].freed == b[i].freed,
			  "%s: allocation %u: %zu bytes reused, %zu fresh", what,
			  i, a[i].size, b[i].size);
		/* edge_alloc()'s blocks are undefined until written. */
		if (!a[i].zero || a[i].freed)
			continue;
		for (o = 0; o < a[i].size; o += 8) {
			u64 va = 0, vb = 0, oa, ob;
			size_t len = a[i].size - o < 8 ? a[i].size - o : 8;
			int ka, kb;

			memcpy(&va, pa + o, len);
			memcpy(&vb, pb + o, len);
			if (va == vb)
				continue;
			/* A pointer into the object: the same block, offset. */
			ka = block_of(a, n, va, &oa);
			kb = block_of(b, n, vb, &ob);
			FZ_ASSERT(len == 8 && ka >= 0 && ka == kb && oa == ob,
				  "%s: allocation %u (%zu bytes), offset %zu: "
				  "%#llx in reused memory, %#llx in fresh",
				  what, i, a[i].size, o, (unsigned long long)va,
				  (unsigned long long)vb);
		}
	}
}

void fz_alloc_check_reuse(void *(*build)(void *arg),
			  void (*teardown)(void *obj), void *arg,
			  const char *what)
{
	struct fz_rec *ra, *rb;
	unsigned int i, na, nb, big = 0, reused = 0, model = 0;
	void *a, *b;
	bool was = keep;

	if (!keep_allowed())
		return;
	ra = calloc(FZ_REC_MAX, sizeof(*ra));
	rb = calloc(FZ_REC_MAX, sizeof(*rb));
	FZ_ASSERT(ra && rb, "out of memory");
	keep = true;
	/* Blocks to reuse, then as an input leaves them (or worse). */
	teardown(build(arg));
	FZ_ASSERT(!nlive, "%s: %u large blocks not freed by its teardown",
		  what, nlive);
	for (i = 0; i < nkept; i++) {
		ASAN_UNPOISON_MEMORY_REGION((void *)kept[i].p, kept[i].size);
		memset((void *)kept[i].p, 0xa5, kept[i].size);
		ASAN_POISON_MEMORY_REGION((void *)kept[i].p, kept[i].size);
	}
	rec = ra;
	nrec = 0;
	a = build(arg);
	na = nrec;
	rec = rb;
	nrec = 0;
	fresh = true;
	b = build(arg);
	nb = nrec;
	rec = NULL;
	FZ_ASSERT(na == nb && na, "%s: %u allocations reused, %u fresh", what,
		  na, nb);
	for (i = 0; i < na; i++) {
		big += ra[i].size >= FZ_BIG;
		reused += ra[i].reused;
		model += ra[i].model;
		FZ_ASSERT(!rb[i].reused, "%s: a reused block in the fresh build",
			  what);
	}
	FZ_ASSERT(reused == big, "%s: %u of %u large blocks reused", what,
		  reused, big);
	/*
	 * An emul/ from before EDGE_USER_ALLOC (EMUL_DIR) allocates with
	 * calloc(): only the harness's blocks are kept, nothing to compare.
	 */
	if (model)
		compare(what, ra, rb, na);
	else
		fprintf(stderr, "INFO: fuzz_alloc: %s: emul/ does not allocate "
			"through fuzz_alloc.c: its blocks are not kept\n",
			what);
	teardown(b);
	fresh = false;
	teardown(a);
	keep = was;
	free(ra);
	free(rb);
}

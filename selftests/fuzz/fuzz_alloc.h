/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's allocator in the fuzz targets (fuzz_alloc.c): emul/ is
 * built with EDGE_USER_ALLOC, so edge_zalloc(), edge_alloc() and
 * edge_free() come here.  Blocks of FZ_BIG bytes or more are kept when
 * freed and handed out again, zeroed, to the next model, instead of going
 * back to ASan (which unmaps them: ~800 page faults an input).
 */
#ifndef _FUZZ_ALLOC_H
#define _FUZZ_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#define FZ_BIG		(16U << 10)

/* Keep freed large blocks for reuse (off: every call goes to ASan). */
void fz_alloc_keep(bool on);

/*
 * Large blocks in use, allocated while keeping: 0 once a model is torn
 * down, else it leaked one (LeakSanitizer would see it inputs later).
 */
unsigned int fz_alloc_in_use(void);

/* The harness's own large blocks, the same way as the model's. */
void *fz_zalloc(size_t size);
void fz_free(void *p);

/*
 * Build an object twice, once in kept blocks last written by an earlier
 * object (scribbled over first) and once in fresh ones from ASan, and
 * assert that the two are the same bytes, pointers between their own
 * blocks compared by block and offset: a model set up in reused memory is
 * the model edge_model_init() makes in new memory.  @build allocates the
 * object's root with fz_zalloc() first and returns it; @teardown frees
 * it all.  Also asserts that the first build reused kept blocks.
 */
void fz_alloc_check_reuse(void *(*build)(void *arg),
			  void (*teardown)(void *obj), void *arg,
			  const char *what);

#endif /* _FUZZ_ALLOC_H */

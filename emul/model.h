/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device model: EKT + rings + engine + execution model.
 *
 * Single-threaded by contract: only one caller at a time (in edge.ko, the
 * device's front-end thread, or an ioctl holding drv/'s model lock).
 */
#ifndef _EDGE_MODEL_H
#define _EDGE_MODEL_H

#include "edge_compat.h"
#include "engine.h"
#include "ekt.h"
#include "preset.h"
#include "simt.h"

struct edge_model_stats {
	u64 submitted;		/* parameter entries consumed */
	u64 completed;		/* EDGE_CQE_DONE */
	u64 errors;		/* EDGE_CQE_ERROR */
	u64 rejected;		/* EDGE_CQE_REJECTED */
	u64 cancelled;		/* EDGE_CQE_CANCELLED */
};

/* Called after completions were published on an entry of @owner. */
typedef void (*edge_notify_fn)(void *owner, u32 id);

struct edge_model {
	const struct edge_preset *preset;
	struct edge_ekt ekt;
	struct edge_engine eng;
	struct edge_simt simt;
	struct edge_model_stats st;
	u32 inflight;		/* all entries */
	u32 sq_flags;		/* EDGE_SQ_* every ring shows now */
	edge_notify_fn notify;
};

/* Where a registered entry's shared memory is. */
struct edge_ring_mem {
	u32 *doorbells;		/* one word per EKT id; the entry takes its own */
	void *sq;
	void *cq;
	struct edge_ring_layout layout;
};

int edge_model_init(struct edge_model *m, const struct edge_preset *p,
		    edge_notify_fn notify);
void edge_model_fini(struct edge_model *m);
int edge_model_register(struct edge_model *m, const struct edge_kdesc *k,
			const struct edge_ring_mem *mem, void *owner, u32 *id);
int edge_model_unregister(struct edge_model *m, u32 id, void *owner);
u32 edge_model_cancel(struct edge_model *m, u32 id);
u32 edge_model_poll(struct edge_model *m);
u32 edge_model_consume(struct edge_model *m);
void edge_model_schedule(struct edge_model *m);
u32 edge_model_run_until(struct edge_model *m, u64 until);
u32 edge_model_run_budget(struct edge_model *m, u64 until, u32 budget);
u64 edge_model_next_time(const struct edge_model *m);
u64 edge_model_now(const struct edge_model *m);
void edge_model_advance(struct edge_model *m, u64 now);
bool edge_model_doorbell_pending(const struct edge_model *m);
void edge_model_set_sq_flags(struct edge_model *m, u32 flags);
int edge_model_set_cfg(struct edge_model *m, const struct edge_simt_cfg *cfg);

#endif /* _EDGE_MODEL_H */

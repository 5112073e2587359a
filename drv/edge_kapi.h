/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge in-kernel API: how another driver (a NIC, an FPGA) launches event
 * kernels on an edge device without going through user space, the way
 * the EDGE paper's NIC rings the GPU's doorbell directly.
 *
 * The model is the user ABI's (Documentation/uapi.rst, "The ring
 * protocol"), with kernel memory instead of mappings:
 *
 *  - edge_kq_register() creates an event kernel owned by the calling
 *    module (not by a file); its rings live in kernel memory;
 *  - edge_kq_param() gives the next free parameter entry, edge_kq_submit()
 *    rings the doorbell: no lock, no sleep, any context;
 *  - completions are reaped with edge_kq_peek() / edge_kq_seen(), from the
 *    completion callback or by polling;
 *  - edge_kq_destroy() cancels what is in flight and frees the entry;
 *    edge_kq_unregister() refuses (-EBUSY) while anything is in flight.
 *
 * A caller links against these symbols, so edge.ko cannot be unloaded
 * while the caller is loaded.  A device may be removed at run time
 * (hot-unplug): edge_device_find()'s reference and each queue's keep the
 * struct valid, and the queues' events end cancelled.
 * Documentation/driver-api.rst is the guide.
 */
#ifndef _EDGE_KAPI_H
#define _EDGE_KAPI_H

#include <linux/types.h>
#include <linux/module.h>
#include <linux/edge.h>

struct edge_device;
struct edge_kq;

/**
 * typedef edge_kq_notify_fn - completions were published on a queue
 * @q: the queue
 * @ctx: the pointer given to edge_kq_register()
 *
 * Runs in the device's front-end thread (process context) with the
 * device lock held, or in the task that destroys the queue.  It may reap
 * (edge_kq_peek(), edge_kq_seen()) and submit, and must not register,
 * unregister or destroy a queue (they take the device lock).  Keep it
 * short: the GPU does not dispatch while it runs.
 */
typedef void (*edge_kq_notify_fn)(struct edge_kq *q, void *ctx);

/**
 * struct edge_kq_completion - one completion, as edge_kq_peek() reads it
 * @cqe: status and result, as the user ABI's struct edge_cqe
 * @param: the event's parameter entry, holding the function's output;
 *         valid until edge_kq_seen()
 * @seq: the event's number on its queue (counts from 0)
 * @submit_ns: ktime_get_ns() when the doorbell rang for it
 * @dispatch_ns: ktime_get_ns() when the front end consumed its entry
 */
struct edge_kq_completion {
	struct edge_cqe cqe;
	void *param;
	u32 seq;
	u64 submit_ns;
	u64 dispatch_ns;
};

struct edge_device *edge_device_find(unsigned int index);
void edge_device_release(struct edge_device *ed);

struct edge_kq *__edge_kq_register(struct edge_device *ed,
				   struct edge_register *reg,
				   edge_kq_notify_fn notify, void *ctx,
				   struct module *owner);

/**
 * edge_kq_register() - register an event kernel owned by this module
 * @ed: device, from edge_device_find()
 * @reg: as EDGE_IOC_REGISTER_EVENT's argument; @reg->table_ptr is a kernel
 *       address here.  On success @reg->id is set.  Batched event warps
 *       as the ioctl's: EDGE_REGISTER_WARP_BATCH in @reg->flags and
 *       @reg->requests_per_warp (e.g. EDGE's 32), @reg->gather_ns; each
 *       request still completes in its own completion, its dispatch_ns
 *       when its warp was launched.
 * @notify: completion callback, or NULL to poll with edge_kq_peek()
 * @ctx: passed to @notify
 *
 * Process context; may sleep.  Returns the queue or an ERR_PTR():
 * -EINVAL (the same validation as the ioctl), -EBUSY (EKT full),
 * -ENOMEM.
 */
#define edge_kq_register(ed, reg, notify, ctx) \
	__edge_kq_register(ed, reg, notify, ctx, THIS_MODULE)

int edge_kq_unregister(struct edge_kq *q);
int edge_kq_destroy(struct edge_kq *q);
struct edge_kq *edge_kq_lookup(struct edge_device *ed, u32 id);
void edge_kq_put(struct edge_kq *q);
u32 edge_kq_id(const struct edge_kq *q);
void *edge_kq_param(struct edge_kq *q, u32 k);
int edge_kq_submit(struct edge_kq *q, u32 n);
void edge_kq_dropped(struct edge_kq *q, u32 n);
int edge_kq_peek(struct edge_kq *q, struct edge_kq_completion *c);
void edge_kq_seen(struct edge_kq *q);
u32 edge_kq_inflight(const struct edge_kq *q);
bool edge_kq_unplugged(const struct edge_kq *q);

#endif /* _EDGE_KAPI_H */

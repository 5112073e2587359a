// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel API (edge_kapi.h): event kernels registered by other
 * drivers, rung from any context.
 *
 * A kernel queue is an EKT entry like a file's, whose owner cookie is a
 * struct edge_kq instead of a struct edge_file and whose rings are kernel
 * memory.  The model cannot tell them apart: the front end consumes both
 * the same way, so the in-kernel path measures the same GPU.
 *
 * Locking: the producer side (edge_kq_param(), edge_kq_submit()) and the
 * consumer side (edge_kq_peek(), edge_kq_seen()) touch only ring words,
 * with the ring protocol's acquire/release pairs, like user space; each
 * side is single-threaded by contract (one producer and one reaper per
 * queue, as a NIC's TX ring has).  Registration and teardown take the
 * device's model mutex.  The id -> queue table is read under a spinlock
 * so that edge_kq_lookup() works in atomic context.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/ktime.h>
#include <linux/refcount.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <net/netlink.h>

#include "edge_drv.h"
#include "edge_kapi.h"
#include "netlink.h"
#include "validate.h"

struct edge_kq {
	struct edge_owner owner;	/* first: the model's cookie */
	struct edge_device *ed;
	struct module *mod;		/* the registering module */
	edge_kq_notify_fn notify;
	void *ctx;
	/*
	 * The registration's reference plus one per edge_kq_lookup().  A
	 * queue its module left behind loses the registration's (@dead,
	 * kq_bury() from the module notifier) and is freed with the last
	 * lookup's.
	 */
	refcount_t refs;
	bool dead;
	struct list_head node;		/* in edge_kqs, under edge_kqs_lock */
	struct work_struct free_work;	/* a dead queue's last put */
	u32 id;
	u32 entries;
	u32 param_size;
	u64 mem_bytes;			/* device memory it holds */
	void *sq;
	void *cq;
	struct edge_ring_layout layout;
	u32 *doorbell;
	u64 *summary;			/* the kernel queues' doorbell summary */
	u32 *sq_head;
	u32 *sq_flags;
	u32 *cq_head;
	u8 *params;
	struct edge_cqe *cqes;
	u64 *submit_ns;			/* per slot, written by the producer */
	u64 *dispatch_ns;		/* per slot, by the front end */
	u32 disp_seen;			/* front end: entries time-stamped */
	/* edge_kq_dropped()'s count, not yet sent to the monitors. */
	atomic64_t dropped;
	/* Producer's count; only the producer writes it. */
	u32 tail;
	/* Reaper's count; the producer reads it (acquire) to reuse slots. */
	u32 head;
};

/*
 * Every kernel queue, plugged device or not: a module that goes with
 * queues left is found here even after their device was unplugged.
 */
static LIST_HEAD(edge_kqs);
static DEFINE_MUTEX(edge_kqs_lock);
/* Frees dead queues after their last put; drained at module exit. */
static struct workqueue_struct *edge_kq_wq;

static void kq_free(struct edge_kq *q)
{
	vfree(q->sq);
	vfree(q->cq);
	kvfree(q->submit_ns);
	kvfree(q->dispatch_ns);
	kfree(q);
}

/*
 * @q left the model and the id table: its memory, its device memory and
 * its device reference go.  Process context.
 */
static void kq_release(struct edge_kq *q)
{
	struct edge_device *ed = q->ed;

	mutex_lock(&edge_kqs_lock);
	list_del(&q->node);
	mutex_unlock(&edge_kqs_lock);
	edge_mem_uncharge(ed, q->mem_bytes, 0);
	kq_free(q);
	edge_device_put(ed);
}

static void kq_free_work(struct work_struct *w)
{
	kq_release(container_of(w, struct edge_kq, free_work));
}

/* @q's drops counted and not yet reported; under the device lock. */
static void kq_flush_drops(struct edge_kq *q)
{
	u64 n = atomic64_xchg(&q->dropped, 0);

	if (n)
		edge_nl_ekt_drop_notify(q->ed, q->id, n);
}

/* The model published completions on @q (under the device lock). */
static void kq_notify(struct edge_owner *o, u32 id)
{
	struct edge_kq *q = container_of(o, struct edge_kq, owner);

	if (q->notify)
		q->notify(q, q->ctx);
}

/**
 * edge_device_find() - an edge device by index, with a reference
 * @index: N of /dev/edgeN
 *
 * Devices come and go at run time (netlink's dev del): the reference
 * keeps the struct valid, not the device plugged.  Once it is unplugged,
 * registration fails with -ENODEV, every event of its queues completes
 * as EDGE_CQE_CANCELLED (through the callback) and edge_kq_param()
 * returns NULL; destroy the queues and drop the reference as usual.
 * Process context.
 *
 * Return: the device, or NULL if there is no such device.  Release with
 * edge_device_release().
 */
struct edge_device *edge_device_find(unsigned int index)
{
	return edge_device_get_index(index);
}
EXPORT_SYMBOL_GPL(edge_device_find);

/**
 * edge_device_release() - drop the reference of edge_device_find()
 * @ed: device
 *
 * Process context.  Queues hold references of their own.
 */
void edge_device_release(struct edge_device *ed)
{
	edge_device_put(ed);
}
EXPORT_SYMBOL_GPL(edge_device_release);

/**
 * edge_kq_unplugged() - the queue's device was removed
 * @q: queue
 *
 * Any context.  Its events are cancelled, it takes no new ones: the
 * owner should stop producing and destroy it.
 *
 * Return: true once the device is unplugged.
 */
bool edge_kq_unplugged(const struct edge_kq *q)
{
	return READ_ONCE(q->ed->unplugged) || READ_ONCE(q->dead);
}
EXPORT_SYMBOL_GPL(edge_kq_unplugged);

/* Slot @id of the id table is @q (or empty): under @ed->lock. */
static void kq_slot_set(struct edge_device *ed, u32 id, struct edge_kq *q)
{
	spin_lock_irq(&ed->kq_lock);
	ed->kqs[id] = q;
	if (q)
		ed->kq_map |= BIT_ULL(id);
	else
		ed->kq_map &= ~BIT_ULL(id);
	spin_unlock_irq(&ed->kq_lock);
}

/**
 * __edge_kq_register() - register an event kernel for a module
 * @ed: device
 * @reg: registration, as EDGE_IOC_REGISTER_EVENT's (table_ptr is a kernel
 *       address, size must be sizeof(struct edge_register)); @reg->id is
 *       written on success
 * @notify: completion callback or NULL
 * @ctx: its argument
 * @owner: the module that owns the queue (edge_kq_register() passes
 *         THIS_MODULE)
 *
 * The entry belongs to @owner: only a queue pointer reaches it, and it
 * must be destroyed before @owner unloads (edge.ko destroys, with a
 * warning, any that is left).  Process context.
 *
 * Return: the queue, or ERR_PTR(-EINVAL, -EBUSY, -ENOMEM, -ENODEV: the
 * device was unplugged).
 */
struct edge_kq *__edge_kq_register(struct edge_device *ed,
				   struct edge_register *reg,
				   edge_kq_notify_fn notify, void *ctx,
				   struct module *owner)
{
	struct edge_ring_mem mem;
	struct edge_kdesc k;
	struct edge_kq *q;
	u64 resv_id;
	u32 id;
	int ret;

	might_sleep();
	/*
	 * A module is built against this very header: any other size is a
	 * struct the caller forgot to initialise, not an older ABI.
	 */
	if (!ed || !reg || reg->size != sizeof(*reg))
		return ERR_PTR(-EINVAL);
	ret = edge_validate_register(ed->model.preset, reg, &k);
	if (!ret)
		ret = edge_limit_event(ed, &k);
	if (ret)
		return ERR_PTR(ret);
	k.table = (const void *)(uintptr_t)reg->table_ptr;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->owner.notify = kq_notify;
	q->owner.kernel = true;
	q->ed = ed;
	q->mod = owner;
	q->notify = notify;
	q->ctx = ctx;
	refcount_set(&q->refs, 1);
	INIT_LIST_HEAD(&q->node);
	INIT_WORK(&q->free_work, kq_free_work);
	q->entries = k.ring_entries;
	q->param_size = k.param_size;
	edge_ring_layout(k.ring_entries, k.param_size, PAGE_SIZE, &q->layout);
	q->sq = vzalloc(q->layout.sq_size);
	q->cq = vzalloc(q->layout.cq_size);
	q->submit_ns = kvcalloc(q->entries, sizeof(u64), GFP_KERNEL);
	q->dispatch_ns = kvcalloc(q->entries, sizeof(u64), GFP_KERNEL);
	if (!q->sq || !q->cq || !q->submit_ns || !q->dispatch_ns) {
		kq_free(q);
		return ERR_PTR(-ENOMEM);
	}
	mem.doorbells = ed->kdoorbells;
	mem.summary = edge_db_summary(ed->kdoorbells);
	mem.sq = q->sq;
	mem.cq = q->cq;
	mem.layout = q->layout;
	/* A kernel user has no placement to draw on: tgid 0. */
	ret = edge_mem_charge(ed, reg->mem_bytes, 0, &resv_id);
	if (ret) {
		kq_free(q);
		return ERR_PTR(ret);
	}
	q->mem_bytes = reg->mem_bytes;

	mutex_lock(&ed->lock);
	ret = ed->unplugged ? -ENODEV :
	      edge_model_register(&ed->model, &k, &mem, &q->owner, &id);
	if (!ret) {
		/* The same words the model uses: its attach computed them. */
		const struct edge_ring *r = &ed->model.ekt.e[id].ring;

		q->doorbell = r->doorbell;
		q->summary = mem.summary;
		q->sq_head = r->sq_head;
		q->sq_flags = r->sq_flags;
		q->params = r->params;
		q->cqes = r->cqes;
		q->id = id;
		kq_slot_set(ed, id, q);
		ed->nr_kqs++;
		kref_get(&ed->ref);	/* the queue's; dropped when freed */
		edge_nl_ekt_notify(ed, &ed->model.ekt.e[id], true);
	}
	mutex_unlock(&ed->lock);
	if (ret) {
		edge_mem_uncharge(ed, q->mem_bytes, 0);
		kq_free(q);
		return ERR_PTR(ret);
	}
	q->cq_head = (u32 *)((u8 *)q->cq + q->layout.cq_head);
	mutex_lock(&edge_kqs_lock);
	list_add(&q->node, &edge_kqs);
	mutex_unlock(&edge_kqs_lock);
	reg->id = id;
	return q;
}
EXPORT_SYMBOL_GPL(__edge_kq_register);

/*
 * Take @q out of the id table unless someone holds a lookup reference.
 * Called with the device lock held.
 */
static int kq_unpublish(struct edge_kq *q)
{
	struct edge_device *ed = q->ed;
	int ret = 0;

	spin_lock_irq(&ed->kq_lock);
	if (refcount_read(&q->refs) != 1) {
		ret = -EBUSY;
	} else {
		ed->kqs[q->id] = NULL;
		ed->kq_map &= ~BIT_ULL(q->id);
	}
	spin_unlock_irq(&ed->kq_lock);
	return ret;
}

static void kq_republish(struct edge_kq *q)
{
	kq_slot_set(q->ed, q->id, q);
}

/**
 * edge_kq_unregister() - unregister an idle queue and free it
 * @q: queue from edge_kq_register()
 *
 * The ioctl's semantics: an entry with events in flight, or rung and not
 * yet consumed, is busy.  So is one another driver holds a reference to
 * (edge_kq_lookup()).  Process context.
 *
 * Return: 0 (and @q is freed), or -EBUSY (nothing changed).
 */
int edge_kq_unregister(struct edge_kq *q)
{
	struct edge_device *ed = q->ed;
	int ret;

	might_sleep();
	mutex_lock(&ed->lock);
	ret = kq_unpublish(q);
	if (!ret) {
		/* Unplugged: no new events, but in the model until cancelled. */
		if (ed->unplugged && !ed->cancelled) {
			edge_model_cancel(&ed->model, q->id);
		} else if (!ed->cancelled) {
			/* Built first, sent only if it went. */
			struct sk_buff *ntf;

			kq_flush_drops(q);
			ntf = edge_nl_ekt_msg(ed, edge_ekt_get(&ed->model.ekt,
							       q->id), false);
			ret = edge_model_unregister(&ed->model, q->id,
						    &q->owner);
			if (ret)
				nlmsg_free(ntf);
			else
				edge_nl_xmit(ntf);
		}
		if (ret)
			kq_republish(q);
		else
			ed->nr_kqs--;
	}
	mutex_unlock(&ed->lock);
	if (!ret)
		kq_release(q);
	return ret;
}
EXPORT_SYMBOL_GPL(edge_kq_unregister);

/**
 * edge_kq_destroy() - cancel what is in flight, unregister, free
 * @q: queue from edge_kq_register()
 *
 * Every event in flight or rung and not consumed completes as
 * EDGE_CQE_CANCELLED first (the callback runs for them, in this task).
 * The producer must have stopped.  Process context.
 *
 * Return: 0, or -EBUSY while another driver holds a lookup reference.
 */
int edge_kq_destroy(struct edge_kq *q)
{
	struct edge_device *ed = q->ed;
	int ret;

	might_sleep();
	mutex_lock(&ed->lock);
	ret = kq_unpublish(q);
	if (!ret) {
		/*
		 * Until the unplug cancelled what the model holds, our entry
		 * is in it, even on an unplugged device: out before its rings
		 * go.
		 */
		if (!ed->cancelled) {
			kq_flush_drops(q);
			edge_nl_ekt_notify(ed, edge_ekt_get(&ed->model.ekt,
							    q->id), false);
			edge_model_cancel(&ed->model, q->id);
		}
		ed->nr_kqs--;
	}
	mutex_unlock(&ed->lock);
	if (!ret)
		kq_release(q);
	return ret;
}
EXPORT_SYMBOL_GPL(edge_kq_destroy);

/**
 * edge_kq_lookup() - a kernel queue by its EKT id, with a reference
 * @ed: device
 * @id: EKT id (struct edge_register.id of its registration)
 *
 * Only queues registered through this API are found; a file's entries
 * are its own.  While the reference is held, unregister and destroy of
 * the queue fail with -EBUSY.  Any context.
 *
 * Return: the queue, or NULL.  Release with edge_kq_put().
 */
struct edge_kq *edge_kq_lookup(struct edge_device *ed, u32 id)
{
	struct edge_kq *q = NULL;
	unsigned long flags;

	if (!ed || id >= EDGE_EKT_ENTRIES)
		return NULL;
	spin_lock_irqsave(&ed->kq_lock, flags);
	if (ed->kqs[id]) {
		q = ed->kqs[id];
		refcount_inc(&q->refs);
	}
	spin_unlock_irqrestore(&ed->kq_lock, flags);
	return q;
}
EXPORT_SYMBOL_GPL(edge_kq_lookup);

/**
 * edge_kq_put() - drop a reference from edge_kq_lookup()
 * @q: queue
 *
 * Any context.
 */
void edge_kq_put(struct edge_kq *q)
{
	unsigned long flags;
	bool last;

	/* Under the lock: unpublish reads the count and must see this. */
	spin_lock_irqsave(&q->ed->kq_lock, flags);
	last = refcount_dec_and_test(&q->refs);
	spin_unlock_irqrestore(&q->ed->kq_lock, flags);
	/* Only a dead queue has no registration's reference to keep it. */
	if (last && !WARN_ON_ONCE(!READ_ONCE(q->dead)))
		queue_work(edge_kq_wq, &q->free_work);
}
EXPORT_SYMBOL_GPL(edge_kq_put);

/**
 * edge_kq_id() - the queue's EKT id
 * @q: queue
 *
 * Return: the id another driver passes to edge_kq_lookup().
 */
u32 edge_kq_id(const struct edge_kq *q)
{
	return q->id;
}
EXPORT_SYMBOL_GPL(edge_kq_id);

/**
 * edge_kq_param() - a free parameter entry to fill
 * @q: queue
 * @k: 0 for the next event, k for the k-th after it (batches)
 *
 * A slot is free once its previous event was reaped (edge_kq_seen()):
 * the front end reads an entry, and writes the output into it, until the
 * event completes.  Any context; the producer's side, single-threaded.
 *
 * Return: the entry (param_size bytes), or NULL when the ring is full or
 * the device was unplugged (edge_kq_unplugged()).
 */
void *edge_kq_param(struct edge_kq *q, u32 k)
{
	u32 seq = q->tail + k;

	if (edge_kq_unplugged(q))
		return NULL;
	/* Pairs with edge_kq_seen(): the reaper is done with the slot. */
	if (seq - smp_load_acquire(&q->head) >= q->entries)
		return NULL;
	return q->params + (size_t)(seq & (q->entries - 1)) * q->param_size;
}
EXPORT_SYMBOL_GPL(edge_kq_param);

/*
 * Tell the front end which doorbell rang (uapi "Doorbell summary"): it
 * polls only the entries whose bits it takes.  Producers of other queues
 * set bits of the same word from any context, hence the atomic OR.  The
 * caller's full barrier orders its tail store before our load: a bit
 * seen set is taken after it, by an exchange that then reads the tail.
 */
static void kq_summary_set(struct edge_kq *q)
{
	u64 bit = BIT_ULL(q->id), old = READ_ONCE(*q->summary);

	while (!(old & bit) && !try_cmpxchg(q->summary, &old, old | bit))
		;
}

/**
 * edge_kq_submit() - ring the doorbell for the next @n entries
 * @q: queue
 * @n: entries filled through edge_kq_param(q, 0 .. n - 1)
 *
 * Never sleeps and takes no lock but the front end's wait-queue lock
 * (irq-safe) when it has to wake it: callable from hard and soft
 * interrupt context, NAPI, hrtimers and process context.
 *
 * Return: 0, or -ENODEV when the device was unplugged: nothing was
 * published, the entries are the caller's to count as dropped.  Every
 * entry published (0) completes or is cancelled: the unplug waits for
 * submissions in progress (RCU) before it cancels.
 */
int edge_kq_submit(struct edge_kq *q, u32 n)
{
	u64 now = ktime_get_ns();
	u32 i;

	rcu_read_lock();
	/* Dead: its id may be another queue's now; never ring it. */
	if (edge_kq_unplugged(q)) {
		rcu_read_unlock();
		return -ENODEV;
	}

	for (i = 0; i < n; i++)
		q->submit_ns[(q->tail + i) & (q->entries - 1)] = now;
	/* The reaper reads it (edge_kq_peek()) from another context. */
	WRITE_ONCE(q->tail, q->tail + n);
	/* Entries and time stamps before the count. */
	smp_store_release(q->doorbell, q->tail);
	/*
	 * The NEED_WAKEUP handshake (frontend.c frontend_sleep()): our
	 * tail store before the flag load, against its flag store before
	 * its doorbell load.  It also orders the tail before the summary
	 * load of kq_summary_set().
	 */
	smp_mb();
	kq_summary_set(q);
	if (READ_ONCE(*q->sq_flags) & EDGE_SQ_NEED_WAKEUP)
		edge_frontend_kick(q->ed);
	rcu_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(edge_kq_submit);

/**
 * edge_kq_dropped() - the producer dropped @n events meant for @q
 * @q: queue
 * @n: events it could not submit (ring full, its own FIFO overrun, ...)
 *
 * The events group hears of them (ekt-drop-ntf), coalesced and from
 * process context: this only counts and arms a work item, so any
 * context may call it, hard interrupts included.  Drops after the
 * device was unplugged are not reported (its dev-del-ntf was).
 */
void edge_kq_dropped(struct edge_kq *q, u32 n)
{
	if (!n)
		return;
	/* The unplug waits for us (RCU) before its last round. */
	rcu_read_lock();
	if (!READ_ONCE(q->ed->unplugged)) {
		atomic64_add(n, &q->dropped);
		edge_nl_summary_arm(q->ed);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(edge_kq_dropped);

/*
 * Report what edge_kq_dropped() counted on every kernel queue of @ed.
 * Under the device lock (netlink.c's summary round).
 */
void edge_kapi_flush_drops(struct edge_device *ed)
{
	u64 map = ed->kq_map;
	u32 i;

	while (map) {
		i = __ffs64(map);
		map &= map - 1;
		kq_flush_drops(ed->kqs[i]);
	}
}

/**
 * edge_kq_peek() - the oldest unreaped event's completion, if it is in
 * @q: queue
 * @c: filled when the function returns 1
 *
 * Completions are reaped in submission order.  The output of a
 * computing function is in @c->param.  Any context; the reaper's side,
 * single-threaded.
 *
 * Return: 1 when @c was filled, 0 when that event has not completed or
 * nothing is in flight.
 */
int edge_kq_peek(struct edge_kq *q, struct edge_kq_completion *c)
{
	u32 head = q->head, slot = head & (q->entries - 1), status;

	if (head == READ_ONCE(q->tail))
		return 0;
	/* Pairs with the model's release of the status: res, output. */
	status = smp_load_acquire(&q->cqes[slot].status);
	if (EDGE_CQE_CODE(status) == EDGE_CQE_PENDING ||
	    EDGE_CQE_SEQ(status) != (head & EDGE_CQE_SEQ_MASK))
		return 0;
	c->cqe.status = status;
	c->cqe.res = READ_ONCE(q->cqes[slot].res);
	c->param = q->params + (size_t)slot * q->param_size;
	c->seq = head;
	c->submit_ns = q->submit_ns[slot];
	c->dispatch_ns = q->dispatch_ns[slot];
	return 1;
}
EXPORT_SYMBOL_GPL(edge_kq_peek);

/**
 * edge_kq_seen() - done with the completion edge_kq_peek() returned
 * @q: queue
 *
 * Frees its slot for the producer.  Any context.
 */
void edge_kq_seen(struct edge_kq *q)
{
	/* Our reads of the slot before the producer may reuse it. */
	smp_store_release(&q->head, q->head + 1);
	WRITE_ONCE(*q->cq_head, q->head);
}
EXPORT_SYMBOL_GPL(edge_kq_seen);

/**
 * edge_kq_inflight() - events submitted and not yet reaped
 * @q: queue
 *
 * Return: tail - head as the caller sees them.
 */
u32 edge_kq_inflight(const struct edge_kq *q)
{
	return READ_ONCE(q->tail) - READ_ONCE(q->head);
}
EXPORT_SYMBOL_GPL(edge_kq_inflight);

/*
 * The front end consumed entries: time-stamp them for the latency
 * statistics of edge_kq_peek().  Under the device lock.
 */
void edge_kapi_dispatched(struct edge_device *ed)
{
	u64 map = ed->kq_map, now;
	u32 i;

	if (!map)
		return;
	/*
	 * A read of its own: the step's came before the doorbell loads, so
	 * it may precede a submission the step took.
	 */
	now = ktime_get_ns();
	while (map) {
		struct edge_kq *q;
		u32 head;

		i = __ffs64(map);
		map &= map - 1;
		q = ed->kqs[i];
		head = READ_ONCE(*q->sq_head);
		for (; q->disp_seen != head; q->disp_seen++)
			q->dispatch_ns[q->disp_seen & (q->entries - 1)] = now;
	}
}

/*
 * Take @q, whose module is gone, out of the model and the id table, and
 * drop the registration's reference.  Return true when that was the last
 * (the caller frees @q), false when edge_kq_lookup() holders keep it:
 * it is dead to them (edge_kq_submit() refuses it) and the last
 * edge_kq_put() frees it.  Under edge_kqs_lock.
 */
static bool kq_bury(struct edge_kq *q)
{
	struct edge_device *ed = q->ed;
	bool last;

	mutex_lock(&ed->lock);
	spin_lock_irq(&ed->kq_lock);
	ed->kqs[q->id] = NULL;
	ed->kq_map &= ~BIT_ULL(q->id);
	WRITE_ONCE(q->dead, true);
	last = refcount_dec_and_test(&q->refs);
	spin_unlock_irq(&ed->kq_lock);
	/* Its code is gone: no callback, even for the cancellations. */
	q->notify = NULL;
	if (!ed->cancelled)
		edge_model_cancel(&ed->model, q->id);
	ed->nr_kqs--;
	mutex_unlock(&ed->lock);
	return last;
}

/*
 * A module going away with queues left would leave the model calling
 * into freed code: cancel them, loudly, on every device, plugged or
 * not.  Normal owners destroy their queues in their exit function and
 * never get here.
 */
static int edge_kapi_module_going(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct module *mod = data;
	struct edge_kq *q, *tmp;
	LIST_HEAD(gone);

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&edge_kqs_lock);
	list_for_each_entry_safe(q, tmp, &edge_kqs, node) {
		if (q->mod != mod)
			continue;
		WARN(1, "edge: %s left event kernel %u registered\n",
		     mod->name, q->id);
		if (kq_bury(q))
			list_move(&q->node, &gone);
		else
			list_del_init(&q->node);
	}
	mutex_unlock(&edge_kqs_lock);
	/* Those no other driver holds go now; the rest with the last put. */
	list_for_each_entry_safe(q, tmp, &gone, node) {
		struct edge_device *ed = q->ed;

		list_del(&q->node);
		edge_mem_uncharge(ed, q->mem_bytes, 0);
		kq_free(q);
		edge_device_put(ed);
	}
	return NOTIFY_DONE;
}

static struct notifier_block edge_kapi_nb = {
	.notifier_call = edge_kapi_module_going,
};

int edge_kapi_init(void)
{
	int ret;

	edge_kq_wq = alloc_workqueue("edge_kq", 0, 0);
	if (!edge_kq_wq)
		return -ENOMEM;
	ret = register_module_notifier(&edge_kapi_nb);
	if (ret)
		destroy_workqueue(edge_kq_wq);
	return ret;
}

void edge_kapi_exit(void)
{
	unregister_module_notifier(&edge_kapi_nb);
	destroy_workqueue(edge_kq_wq);
}


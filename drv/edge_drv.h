/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge.ko internals: the Linux side of an emulated device.
 */
#ifndef _EDGE_DRV_H
#define _EDGE_DRV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/workqueue.h>

#include "model.h"
#include "limits.h"

/* Devices at once (/dev/edge0..63); past it, adding one is -ENOSPC. */
#define EDGE_MAX_DEVICES	64

struct edge_kq;

/*
 * Whoever registered an EKT entry: a file (fops.c) or a kernel queue
 * (kapi.c).  The model keeps a pointer to it and calls @notify, under
 * the device lock, when completions were published on entry @id.
 */
struct edge_owner {
	void (*notify)(struct edge_owner *o, u32 id);
	u32 pid;			/* registering tgid; 0 for the kernel */
	bool kernel;			/* a kernel queue's */
};

struct edge_device {
	int index;
	struct device *dev;
	/*
	 * Allocated on its own: an open file's last fput() drops its cdev
	 * reference after ->release(), when this struct may be gone.
	 */
	struct cdev *cdev;
	/*
	 * References: the device table's while plugged, one per open
	 * file, per kernel queue and per edge_device_find().  The model
	 * and the rings are freed with the last one.
	 */
	struct kref ref;
	/*
	 * Hot-unplug, as drm_dev_unplug() (main.c edge_device_unplug()):
	 * @unplugged is set under @lock first, and every call that changes
	 * the model checks it under @lock, so none adds to it after; later
	 * calls get -ENODEV.  @cancelled is set under @lock once the front
	 * end stopped and every entry still in the model was cancelled: until
	 * then an owner letting go (release, kq destroy) takes its entries
	 * out of the model itself before it frees their rings; after it, the
	 * model holds none.  Files and kernel queues live on until their
	 * owners let go.
	 */
	bool unplugged;
	bool cancelled;
	struct list_head files;		/* open files, under @lock */
	/*
	 * Serialises the model: the front-end thread holds it while it
	 * steps, ioctls while they change the EKT.  Never held across a
	 * user copy (mmap_lock nests outside it).
	 */
	struct mutex lock;
	struct edge_model model;
	struct task_struct *thread;
	wait_queue_head_t wait;		/* the front end sleeps here */
	bool virtual_time;
	/*
	 * Real mode: model time = @ts_model + (ktime - @ts_kt) * scale / 100,
	 * rebased whenever the scale changes, so model time never jumps.
	 */
	u64 ts_kt;
	u64 ts_model;
	u32 time_scale_pct;		/* 100: model time is wall time */
	u32 poll_idle_us;		/* busy-poll window before sleeping */
	int cpu;			/* front end's CPU, -1 for any */
	bool vt_hold;			/* virtual time frozen (tests) */
	u64 sleeps;			/* front end went to sleep */
	u64 wakeups;			/* ... and was woken before its timeout */
	/* In-kernel API (kapi.c): doorbell words of kernel queues. */
	u32 *kdoorbells;
	/*
	 * Kernel queues by EKT id, and the ids in use as a bitmap (so that
	 * a step walks the queues there are, not all 64 slots); both
	 * written together under @lock and @kq_lock (kapi.c kq_slot_set()).
	 */
	struct edge_kq *kqs[EDGE_EKT_ENTRIES];
	u64 kq_map;
	spinlock_t kq_lock;		/* lets lookups run in any context */
	u32 nr_kqs;
	/*
	 * Device memory (place.c), under edge_mem_lock: capacity (the
	 * preset's), bytes in use (registrations not covered by a
	 * reservation, plus reservations whole) and their peak, the
	 * registrations refused for it, and the reservations held with
	 * the warps and thread blocks they booked (policy/place.h).
	 */
	u64 mem_total;
	u64 mem_used;
	u64 mem_peak;
	u64 mem_oom;
	u32 mem_resv;
	u32 resv_warps;
	u32 resv_tbs;
	/*
	 * Limits (limits.c), sysfs knobs read without a lock: EKT entries
	 * and percent of @mem_total only privileged and kernel users take,
	 * and one event's thread blocks times warps.
	 */
	u32 ekt_reserved;
	u32 mem_reserved_pct;
	u64 max_event_warps;
	/*
	 * The monitor's summaries (netlink.c): preemptions and kernel-queue
	 * drops, at most one round a second.  Armed from any context by
	 * setting bit 0 of @ntf_armed; the work reads the counts under @lock.
	 */
	struct delayed_work ntf_work;
	unsigned long ntf_armed;
	unsigned long ntf_last;		/* jiffies of the last round */
	u64 ntf_ns;			/* ktime of the last round */
	u64 ntf_preempts;		/* simt counts the last round saw */
	u64 ntf_tb_preempts;
	/*
	 * The front end's pending run of event trace points (edge_trace.c):
	 * consecutive events of one entry that one trace entry can carry
	 * whole.  Under @lock; written only by the front-end thread, which
	 * flushes it after every step.
	 */
	struct edge_trace_run {
		u32 tp;			/* EDGE_TP_DISPATCH or _COMPLETE */
		u32 ekt;
		u32 seq;		/* the first event's */
		u32 n;			/* 0: none pending */
		u64 b, c;		/* what every event of the run shares */
	} trace_run;
};

/*
 * A doorbell page (a file's, or the kernel queues' edge_device.kdoorbells)
 * holds a word per EKT id, then, on a cache line of its own, the summary
 * word its producers set a bit in when they ring (uapi "Doorbell
 * summary").  EDGE_DB_PAGE_BYTES: what a page needs.
 */
#define EDGE_DB_SUMMARY_OFF	(EDGE_EKT_ENTRIES * sizeof(u32))
#define EDGE_DB_PAGE_BYTES	(EDGE_DB_SUMMARY_OFF + 64)

static inline u64 *edge_db_summary(u32 *doorbells)
{
	return (u64 *)((u8 *)doorbells + EDGE_DB_SUMMARY_OFF);
}

/* One entry's rings, as a file registered them. */
struct edge_file_ring {
	void *sq;
	void *cq;
	struct edge_ring_layout layout;
	u64 mem_bytes;			/* device memory it holds */
	u64 resv_id;			/* ... drawn from this placement, or 0 */
	struct edge_user *user;		/* charged with it: a reference */
};

struct edge_file {
	struct edge_owner owner;	/* the model's cookie for our entries */
	struct edge_device *edev;	/* a reference */
	struct list_head node;		/* in edev->files */
	u32 *doorbells;			/* mmap-able page, word per EKT id */
	wait_queue_head_t cq_wait;	/* poll() on completions */
	/* Guards @rings against poll() and mmap() racing unregister. */
	struct mutex rings_lock;
	struct edge_file_ring rings[EDGE_EKT_ENTRIES];
	/*
	 * Job completions wait here for EDGE_IOC_REAP_JOBS.  The indices
	 * and @jobs_pending change under ed->lock; poll() reads them
	 * without it.  Submission keeps jobs_pending plus the waiting
	 * completions within the FIFO, so an end always finds a slot.
	 */
	struct edge_job_cqe jcq[EDGE_JOB_CQ_ENTRIES];
	u32 jcq_head;
	u32 jcq_tail;
	u32 jobs_pending;		/* submitted, not ended */
	struct mutex reap_lock;		/* one reaper at a time */
};

/* fops.c */
extern const struct file_operations edge_fops;
void *edge_vmalloc_user(unsigned long size);
void edge_notify(void *owner, u32 id);
void edge_job_notify(void *owner, const struct edge_job_end *e);

/* main.c */
struct edge_device *edge_device_get_index(unsigned int index);
void edge_device_put(struct edge_device *ed);
int edge_dev_add(const struct edge_preset *p, int virtual_time, int index,
		 struct edge_device **out);
int edge_dev_del(unsigned int index);
extern struct mutex edge_devs_lock;
struct edge_device *edge_dev_at_locked(unsigned int index);

/* kapi.c */
int edge_kapi_init(void);
void edge_kapi_exit(void);
void edge_kapi_dispatched(struct edge_device *ed);
void edge_kapi_flush_drops(struct edge_device *ed);

/* frontend.c */
int edge_frontend_start(struct edge_device *ed);
void edge_frontend_stop(struct edge_device *ed);
void edge_frontend_kick(struct edge_device *ed);
int edge_frontend_set_cpu(struct edge_device *ed, int cpu);
u64 edge_frontend_now(struct edge_device *ed);
void edge_frontend_set_scale(struct edge_device *ed, u32 pct);
/* Emit the front end's pending run of event trace points (edge_trace.c). */
void edge_trace_flush(struct edge_device *ed);

/* mmap.c */
int edge_mmap(struct file *file, struct vm_area_struct *vma);
u64 edge_mmap_sq_offset(u32 id);
u64 edge_mmap_cq_offset(u32 id);

/* limits.c */
#define EDGE_EKT_RESERVED_DEFAULT	8
#define EDGE_MEM_RESERVED_PCT_DEFAULT	10
#define EDGE_MAX_EVENT_WARPS_DEFAULT	BIT_ULL(20)

/*
 * One user's (kuid's) charges, all devices: entries under the users'
 * lock (limits.c), @mem and @resvs under edge_mem_lock (place.c).
 */
struct edge_user {
	struct hlist_node node;
	kuid_t uid;
	u32 refs;			/* one per charge holder */
	u32 entries;
	u32 resvs;
	u64 mem;
};

extern unsigned int edge_max_user_resvs;
extern unsigned long edge_max_user_mem_mb;
struct edge_user *edge_user_get(kuid_t uid);
void edge_user_hold(struct edge_user *u);
void edge_user_put(struct edge_user *u);
int edge_user_charge_entry(struct edge_user *u, bool priv);
void edge_user_uncharge_entry(struct edge_user *u);
int edge_limit_event(struct edge_device *ed, const struct edge_kdesc *k);
int edge_limit_ekt_room(struct edge_device *ed, bool priv);
u64 edge_limit_mem_kept(struct edge_device *ed);
void edge_limits_init(struct edge_device *ed);

/* place.c */
struct edge_mem_view {
	u64 total, used, peak, oom;
	u32 resv;
};

void edge_mem_init(struct edge_device *ed);
int edge_mem_charge(struct edge_device *ed, u64 bytes, u32 tgid, u64 *resv_id);
int edge_mem_charge_user(struct edge_device *ed, u64 bytes, struct pid *tgid,
			 struct edge_user *u, bool priv, u64 *resv_id);
void edge_mem_uncharge(struct edge_device *ed, u64 bytes, u64 resv_id);
void edge_mem_uncharge_user(struct edge_device *ed, u64 bytes, u64 resv_id,
			    struct edge_user *u);
void edge_mem_unplug(struct edge_device *ed);
void edge_mem_view(struct edge_device *ed, struct edge_mem_view *v);
struct edge_place_who {
	u32 portid;			/* the socket: the reservation's owner */
	struct pid *tgid;		/* its registrations draw on it */
	struct edge_user *user;		/* charged with it */
	bool priv;			/* CAP_SYS_ADMIN: no per-user caps */
};

int edge_place(u32 policy, u64 mem, u32 threads, u32 blocks,
	       const struct edge_place_who *who, struct edge_device **out,
	       u64 *id);
int edge_place_release(u32 portid, u64 id);
int edge_place_init(void);
void edge_place_exit(void);

/* sysfs.c, sysfs_sched.c */
extern const struct attribute_group *edge_groups[];
extern const struct attribute_group edge_sched_group;
extern const struct attribute_group edge_cp_group;
void edge_sysfs_cp_init(void);

#endif /* _EDGE_DRV_H */

/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libedge: user-space access to /dev/edgeN rings, as liburing is to
 * io_uring.  It maps what the kernel reports and owns the barriers, so a
 * program never writes a fence by hand.
 *
 * Functions return 0 (or a count) on success and -errno on failure.
 * A queue is used by one thread at a time.
 */
#ifndef _LIBEDGE_H
#define _LIBEDGE_H

#include <stdint.h>
#include <stddef.h>
#include <linux/edge.h>

/*
 * The library's version (libedge.so.MAJOR): MAJOR changes when a function
 * or a struct above changes incompatibly, MINOR when functions are added.
 * edge_version_major()/_minor() report the library actually loaded.
 */
#define LIBEDGE_VERSION_MAJOR	1
#define LIBEDGE_VERSION_MINOR	0

#ifdef __cplusplus
extern "C" {
#endif

int edge_version_major(void);
int edge_version_minor(void);

struct edge_dev {
	int fd;
	struct edge_info info;
	uint32_t *doorbells;		/* the file's doorbell page */
	uint64_t *summary;		/* its doorbell summary; NULL: none */
};

struct edge_queue {
	struct edge_dev *dev;
	uint32_t id;			/* EKT index */
	uint32_t entries;
	uint32_t param_size;
	uint32_t *doorbell;
	uint64_t *summary;		/* the page's summary, or NULL */
	uint64_t summary_bit;		/* 1 << id */
	uint32_t *sq_head;
	uint32_t *sq_flags;
	uint8_t *params;
	uint32_t *cq_head;
	uint32_t *cq_tail;
	struct edge_cqe *cqes;
	void *sq_map;
	size_t sq_len;
	void *cq_map;
	size_t cq_len;
	uint32_t tail;			/* events submitted (doorbell value) */
	uint32_t head;			/* completions reaped */
	uint64_t kicks;			/* KICK ioctls issued */
};

int edge_open(struct edge_dev *d, const char *path);
void edge_close(struct edge_dev *d);

/* A register request for a one-warp kernel; adjust fields, then create. */
void edge_register_init(struct edge_register *reg, uint32_t func,
			uint32_t param_size, uint32_t ring_entries,
			uint64_t warp_cycles);
int edge_queue_create(struct edge_dev *d, struct edge_register *reg,
		      struct edge_queue *q);
int edge_queue_destroy(struct edge_queue *q);

/* Next free parameter entry, or NULL while the ring is full. */
void *edge_queue_param(struct edge_queue *q);
/* The @k-th free entry after that (a batch), or NULL past the free room. */
void *edge_queue_param_ahead(struct edge_queue *q, uint32_t k);
/* Publish @n filled entries: ring the doorbell, kick if the GPU sleeps. */
void edge_queue_submit(struct edge_queue *q, uint32_t n);
/* Events submitted and not reaped. */
uint32_t edge_queue_inflight(const struct edge_queue *q);
/* The kernel's consumer count: entries below it were dispatched. */
uint32_t edge_queue_dispatched(const struct edge_queue *q);

/*
 * Completion of the oldest unreaped event.  peek returns 1 and fills
 * @cqe when it is there, 0 when not; wait blocks in poll() up to
 * @timeout_ms (-1: forever) and returns -ETIME on time-out.  Neither
 * reaps: call edge_queue_cqe_seen() after reading it.
 */
int edge_queue_peek(struct edge_queue *q, struct edge_cqe *cqe);
int edge_queue_wait(struct edge_queue *q, struct edge_cqe *cqe,
		    int timeout_ms);
void edge_queue_cqe_seen(struct edge_queue *q);

/*
 * Jobs (EDGE_IOC_SUBMIT_JOB): a stream of dependent kernels, each named by
 * the EKT id of an event kernel this device handle registered
 * (edge_queue_create()), with a deadline.  edge_job_init() builds one;
 * @kernels must stay valid until edge_job_submit() returns.  Submission
 * sets @job->id; the command processor admits or refuses the job later,
 * and its completion (struct edge_job_cqe: status DONE, REJECTED or
 * CANCELLED, met, latency) comes back through edge_job_reap() (no
 * waiting) or edge_job_wait() (the next one, up to @timeout_ms; -1:
 * forever; -ETIME on time-out), in the order the jobs finish.
 */
void edge_job_init(struct edge_job *job, uint32_t queue,
		   uint64_t deadline_ns, const uint32_t *kernels,
		   uint32_t nr_kernels, uint64_t user_data);
int edge_job_submit(struct edge_dev *d, struct edge_job *job);
int edge_job_reap(struct edge_dev *d, struct edge_job_cqe *cqes,
		  uint32_t nr);
int edge_job_wait(struct edge_dev *d, struct edge_job_cqe *cqe,
		  int timeout_ms);

/* "done", "error", "rejected", "cancelled", "pending" or "unknown". */
const char *edge_cqe_code_name(uint32_t code);

#ifdef __cplusplus
}
#endif

#endif /* _LIBEDGE_H */

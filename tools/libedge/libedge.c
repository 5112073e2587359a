// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libedge: ring access for /dev/edgeN.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "libedge.h"

#define load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define load_relaxed(p)		__atomic_load_n(p, __ATOMIC_RELAXED)

int edge_open(struct edge_dev *d, const char *path)
{
	void *db;
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	d->info.size = sizeof(d->info);
	if (ioctl(d->fd, EDGE_IOC_GET_INFO, &d->info)) {
		ret = -errno;
		goto err;
	}
	db = mmap(NULL, d->info.doorbell_size, PROT_READ | PROT_WRITE,
		  MAP_SHARED, d->fd, d->info.doorbell_offset);
	if (db == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	d->doorbells = db;
	/* A kernel before EDGE_INFO_SIZE_VER1 has no summary: 0 there. */
	if (d->info.size >= EDGE_INFO_SIZE_VER1 && d->info.doorbell_summary &&
	    d->info.doorbell_summary % 8 == 0 &&
	    d->info.doorbell_summary + 8 <= d->info.doorbell_size)
		d->summary = (uint64_t *)((char *)db + d->info.doorbell_summary);
	return 0;
err:
	close(d->fd);
	d->fd = -1;
	return ret;
}

void edge_close(struct edge_dev *d)
{
	if (d->doorbells)
		munmap(d->doorbells, d->info.doorbell_size);
	if (d->fd >= 0)
		close(d->fd);
	d->doorbells = NULL;
	d->summary = NULL;
	d->fd = -1;
}

void edge_register_init(struct edge_register *reg, uint32_t func,
			uint32_t param_size, uint32_t ring_entries,
			uint64_t warp_cycles)
{
	memset(reg, 0, sizeof(*reg));
	reg->size = sizeof(*reg);
	reg->func = func;
	reg->grid_x = reg->grid_y = reg->grid_z = 1;
	reg->block_x = 32;
	reg->block_y = reg->block_z = 1;
	reg->regs_per_thread = 32;
	reg->param_size = param_size;
	reg->ring_entries = ring_entries;
	reg->warp_cycles = warp_cycles;
}

int edge_queue_create(struct edge_dev *d, struct edge_register *reg,
		      struct edge_queue *q)
{
	struct edge_unregister ureg = { .size = sizeof(ureg) };
	void *sq, *cq;
	int ret;

	memset(q, 0, sizeof(*q));
	if (ioctl(d->fd, EDGE_IOC_REGISTER_EVENT, reg))
		return -errno;
	sq = mmap(NULL, reg->sq.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		  d->fd, reg->sq.mmap_offset);
	if (sq == MAP_FAILED) {
		ret = -errno;
		goto err_reg;
	}
	cq = mmap(NULL, reg->cq.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		  d->fd, reg->cq.mmap_offset);
	if (cq == MAP_FAILED) {
		ret = -errno;
		munmap(sq, reg->sq.mmap_size);
		goto err_reg;
	}
	q->dev = d;
	q->id = reg->id;
	q->entries = reg->ring_entries;
	q->param_size = reg->param_size;
	q->doorbell = (uint32_t *)((char *)d->doorbells + reg->doorbell);
	q->summary = reg->id < 64 ? d->summary : NULL;
	q->summary_bit = q->summary ? 1ULL << reg->id : 0;
	q->sq_map = sq;
	q->sq_len = reg->sq.mmap_size;
	q->sq_head = (uint32_t *)((char *)sq + reg->sq.head);
	q->sq_flags = (uint32_t *)((char *)sq + reg->sq.flags);
	q->params = (uint8_t *)sq + reg->sq.entries;
	q->cq_map = cq;
	q->cq_len = reg->cq.mmap_size;
	q->cq_head = (uint32_t *)((char *)cq + reg->cq.head);
	q->cq_tail = (uint32_t *)((char *)cq + reg->cq.tail);
	q->cqes = (struct edge_cqe *)((char *)cq + reg->cq.cqes);
	return 0;
err_reg:
	ureg.id = reg->id;
	ioctl(d->fd, EDGE_IOC_UNREGISTER_EVENT, &ureg);
	return ret;
}

int edge_queue_destroy(struct edge_queue *q)
{
	struct edge_unregister ureg = { .size = sizeof(ureg), .id = q->id };

	if (ioctl(q->dev->fd, EDGE_IOC_UNREGISTER_EVENT, &ureg))
		return -errno;
	munmap(q->sq_map, q->sq_len);
	munmap(q->cq_map, q->cq_len);
	memset(q, 0, sizeof(*q));
	return 0;
}

uint32_t edge_queue_inflight(const struct edge_queue *q)
{
	return q->tail - q->head;
}

uint32_t edge_queue_dispatched(const struct edge_queue *q)
{
	return load_acquire(q->sq_head);
}

/*
 * A slot is free once its previous event was reaped: the kernel reads a
 * parameter entry until that event completes.
 */
void *edge_queue_param_ahead(struct edge_queue *q, uint32_t k)
{
	uint32_t seq = q->tail + k;

	if (seq - q->head >= q->entries)
		return NULL;
	return q->params + (size_t)(seq & (q->entries - 1)) * q->param_size;
}

void *edge_queue_param(struct edge_queue *q)
{
	return edge_queue_param_ahead(q, 0);
}

void edge_queue_submit(struct edge_queue *q, uint32_t n)
{
	q->tail += n;
	/* Parameter stores are visible before the new tail. */
	store_release(q->doorbell, q->tail);
	/*
	 * Pairs with the front end's barrier between setting NEED_WAKEUP
	 * and its last look at the doorbells: either it sees our tail, or
	 * we see its flag and kick.  It also orders the tail before the
	 * summary: a bit seen set here is taken after it by the front end's
	 * exchange, which then reads our tail.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* The front end polls only the doorbells whose bits it takes. */
	if (q->summary && !(load_relaxed(q->summary) & q->summary_bit))
		__atomic_fetch_or(q->summary, q->summary_bit, __ATOMIC_RELEASE);
	if (load_relaxed(q->sq_flags) & EDGE_SQ_NEED_WAKEUP) {
		ioctl(q->dev->fd, EDGE_IOC_KICK, 0);
		q->kicks++;
	}
}

int edge_queue_peek(struct edge_queue *q, struct edge_cqe *cqe)
{
	struct edge_cqe *c = &q->cqes[q->head & (q->entries - 1)];
	uint32_t status;

	if (q->head == q->tail)
		return 0;
	status = load_acquire(&c->status);
	if (EDGE_CQE_CODE(status) == EDGE_CQE_PENDING ||
	    EDGE_CQE_SEQ(status) != (q->head & EDGE_CQE_SEQ_MASK))
		return 0;
	cqe->status = status;
	cqe->res = load_relaxed(&c->res);
	return 1;
}

int edge_queue_wait(struct edge_queue *q, struct edge_cqe *cqe,
		    int timeout_ms)
{
	struct pollfd pfd = { .fd = q->dev->fd, .events = POLLIN };
	int ret;

	if (q->head == q->tail)
		return -EINVAL;
	while (!edge_queue_peek(q, cqe)) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret == 0)
			return edge_queue_peek(q, cqe) ? 0 : -ETIME;
	}
	return 0;
}

void edge_queue_cqe_seen(struct edge_queue *q)
{
	q->head++;
	/* The kernel's poll() compares its tail with this. */
	store_release(q->cq_head, q->head);
}

int edge_version_major(void)
{
	return LIBEDGE_VERSION_MAJOR;
}

int edge_version_minor(void)
{
	return LIBEDGE_VERSION_MINOR;
}

void edge_job_init(struct edge_job *job, uint32_t queue,
		   uint64_t deadline_ns, const uint32_t *kernels,
		   uint32_t nr_kernels, uint64_t user_data)
{
	memset(job, 0, sizeof(*job));
	job->size = sizeof(*job);
	job->queue = queue;
	job->nr_kernels = nr_kernels;
	job->deadline_ns = deadline_ns;
	job->kernels = (uintptr_t)kernels;
	job->user_data = user_data;
}

int edge_job_submit(struct edge_dev *d, struct edge_job *job)
{
	return ioctl(d->fd, EDGE_IOC_SUBMIT_JOB, job) ? -errno : 0;
}

int edge_job_reap(struct edge_dev *d, struct edge_job_cqe *cqes, uint32_t nr)
{
	struct edge_reap_jobs r = {
		.size = sizeof(r),
		.nr = nr > EDGE_JOB_CQ_ENTRIES ? EDGE_JOB_CQ_ENTRIES : nr,
		.cqes = (uintptr_t)cqes,
	};

	if (ioctl(d->fd, EDGE_IOC_REAP_JOBS, &r))
		return -errno;
	return (int)r.nr;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int edge_job_wait(struct edge_dev *d, struct edge_job_cqe *cqe,
		  int timeout_ms)
{
	int64_t end = mono_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
	int ret, left, woke = 0;

	for (;;) {
		ret = edge_job_reap(d, cqe, 1);
		if (ret != 0)
			return ret < 0 ? ret : 0;
		/* Unplugged: the cancelled completions were all reaped. */
		if (woke && (pfd.revents & POLLHUP))
			return -ENODEV;
		/*
		 * poll() also reports an event ring's unreaped completions,
		 * which are not ours to reap: it then returns at once, so
		 * nap instead of spinning on it.
		 */
		if (woke)
			usleep(1000);
		left = timeout_ms < 0 ? -1 : (int)(end - mono_ms());
		if (timeout_ms >= 0 && left <= 0)
			return -ETIME;
		ret = poll(&pfd, 1, left);
		if (ret < 0 && errno != EINTR)
			return -errno;
		woke = ret > 0;
	}
}

const char *edge_cqe_code_name(uint32_t code)
{
	switch (code) {
	case EDGE_CQE_PENDING:
		return "pending";
	case EDGE_CQE_DONE:
		return "done";
	case EDGE_CQE_ERROR:
		return "error";
	case EDGE_CQE_REJECTED:
		return "rejected";
	case EDGE_CQE_CANCELLED:
		return "cancelled";
	}
	return "unknown";
}

// SPDX-License-Identifier: GPL-2.0
/*
 * File operations of /dev/edgeN: open, ioctl, poll, release.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include "edge_drv.h"
#include "netlink.h"
#include "validate.h"

/*
 * Copy a size-versioned struct in, with sched_setattr()'s rules: a size
 * below the first version or above a page, or a larger struct whose tail
 * is not zero, fails with E2BIG and the kernel's size written back into
 * the caller's size field.
 */
static int edge_copy_in(void *karg, u32 ksize, u32 min_size,
			void __user *uarg, u32 *usizep)
{
	u32 usize;
	int ret;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < min_size || usize > PAGE_SIZE)
		goto e2big;
	*usizep = usize;
	ret = copy_struct_from_user(karg, ksize, uarg, usize);
	if (ret == -E2BIG)
		goto e2big;
	return ret;
e2big:
	if (put_user(ksize, (u32 __user *)uarg))
		return -EFAULT;
	return -E2BIG;
}

/* The file's doorbell page holds its words and their summary. */
static_assert(EDGE_DB_PAGE_BYTES <= PAGE_SIZE);

static long edge_get_info(struct edge_device *ed, void __user *uarg)
{
	const struct edge_preset *p = ed->model.preset;
	struct edge_info info = {};
	u32 usize;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	/* An output struct: as sched_getattr(), too small is EINVAL. */
	if (usize < EDGE_INFO_SIZE_VER0 || usize > PAGE_SIZE)
		return -EINVAL;
	info.size = min_t(u32, usize, sizeof(info));
	info.abi_version = EDGE_ABI_VERSION;
	info.ekt_entries = EDGE_EKT_ENTRIES;
	info.max_ring_entries = EDGE_MAX_RING_ENTRIES;
	info.max_param_size = EDGE_MAX_PARAM_SIZE;
	info.max_ring_bytes = EDGE_MAX_RING_BYTES;
	info.max_block_threads = p->max_block_threads;
	info.max_grid_x = EDGE_MAX_GRID_X;
	info.max_grid_yz = EDGE_MAX_GRID_YZ;
	info.max_regs_per_thread = p->max_regs_per_thread;
	info.max_smem_per_block = p->smem_per_core;
	info.prio_max = EDGE_PRIO_MAX;
	info.warp_size = p->warp_size;
	info.num_cores = p->num_cores;
	info.clock_khz = p->clock_khz;
	info.time_mode = ed->virtual_time ? EDGE_TIME_VIRTUAL : EDGE_TIME_REAL;
	info.poll_idle_us = READ_ONCE(ed->poll_idle_us);
	info.doorbell_size = PAGE_SIZE;
	info.doorbell_offset = 0;
	info.doorbell_summary = EDGE_DB_SUMMARY_OFF;
	strscpy(info.preset, p->name, sizeof(info.preset));
	if (copy_to_user(uarg, &info, info.size))
		return -EFAULT;
	return 0;
}

/*
 * Memory user space maps, charged to the caller's memory cgroup as
 * io_uring's rings are: vmalloc_user() has no gfp argument and
 * __vmalloc_node_range() is not exported in 6.1, so this is __vmalloc()
 * with GFP_KERNEL_ACCOUNT, which lacks VM_USERMAP: edge_mmap() maps its
 * pages one by one (mmap.c) instead of with remap_vmalloc_range().
 */
void *edge_vmalloc_user(unsigned long size)
{
	return __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
}

static void edge_free_ring(struct edge_file_ring *fr)
{
	vfree(fr->sq);
	vfree(fr->cq);
	memset(fr, 0, sizeof(*fr));
}

/*
 * A registered entry's ring goes: its device memory and its user's
 * charges with it.
 */
static void edge_drop_ring(struct edge_device *ed, struct edge_file_ring *fr)
{
	struct edge_user *u = fr->user;

	edge_mem_uncharge_user(ed, fr->mem_bytes, fr->resv_id, u);
	edge_free_ring(fr);
	if (u) {
		edge_user_uncharge_entry(u);
		edge_user_put(u);
	}
}

/*
 * Limits (limits.c): the opener's user is charged, and the opener's
 * CAP_SYS_ADMIN (f_cred, not the caller's: a privileged daemon may hand
 * its file on) lifts the per-user caps and reaches the reserved shares.
 */
static long edge_register(struct edge_file *ef, struct file *file,
			  void __user *uarg)
{
	bool priv = file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
	struct edge_device *ed = ef->edev;
	struct edge_register reg;
	struct edge_ring_mem mem;
	struct edge_kdesc k;
	struct edge_file_ring fr = {};
	struct edge_ekt_entry *ent;
	u32 id, gen = 0, usize;
	void *table = NULL;
	int ret;

	ret = edge_copy_in(&reg, sizeof(reg), EDGE_REGISTER_SIZE_VER0, uarg,
			   &usize);
	if (ret)
		return ret;
	ret = edge_validate_register(ed->model.preset, &reg, &k);
	if (!ret)
		ret = edge_limit_event(ed, &k);
	if (ret)
		return ret;
	/* Validation bounded table_len; the model builds from this copy. */
	if (k.table_len) {
		table = memdup_user(u64_to_user_ptr(reg.table_ptr),
				    k.table_len);
		if (IS_ERR(table))
			return PTR_ERR(table);
		k.table = table;
	}

	edge_ring_layout(k.ring_entries, k.param_size, PAGE_SIZE, &fr.layout);
	fr.sq = edge_vmalloc_user(fr.layout.sq_size);
	fr.cq = edge_vmalloc_user(fr.layout.cq_size);
	fr.user = edge_user_get(file->f_cred->uid);
	ret = -ENOMEM;
	if (fr.sq && fr.cq && fr.user)
		ret = edge_user_charge_entry(fr.user, priv);
	if (ret) {
		struct edge_user *u = fr.user;

		kfree(table);
		edge_free_ring(&fr);
		edge_user_put(u);
		return ret;
	}
	mem.doorbells = ef->doorbells;
	mem.summary = edge_db_summary(ef->doorbells);
	mem.sq = fr.sq;
	mem.cq = fr.cq;
	mem.layout = fr.layout;
	/* Last of what can fail on its own: nothing to undo but this. */
	ret = edge_mem_charge_user(ed, reg.mem_bytes, task_tgid(current),
				   fr.user, priv, &fr.resv_id);
	if (ret) {
		kfree(table);
		edge_drop_ring(ed, &fr);
		return ret;
	}
	fr.mem_bytes = reg.mem_bytes;

	mutex_lock(&ed->lock);
	mutex_lock(&ef->rings_lock);
	/*
	 * Under the lock unplug sets it with: no entry after it.  An
	 * unprivileged file finds the last ekt_reserved entries taken.
	 */
	ret = ed->unplugged ? -ENODEV : edge_limit_ekt_room(ed, priv);
	if (!ret)
		ret = edge_model_register(&ed->model, &k, &mem, &ef->owner,
					  &id);
	if (!ret) {
		ef->rings[id] = fr;
		gen = ed->model.ekt.e[id].gen;
		edge_nl_ekt_notify(ed, &ed->model.ekt.e[id], true);
	}
	mutex_unlock(&ef->rings_lock);
	mutex_unlock(&ed->lock);
	kfree(table);
	if (ret) {
		edge_drop_ring(ed, &fr);
		return ret;
	}

	reg.id = id;
	reg.doorbell = id * sizeof(u32);
	memset(&reg.sq, 0, sizeof(reg.sq));
	memset(&reg.cq, 0, sizeof(reg.cq));
	reg.sq.mmap_offset = edge_mmap_sq_offset(id);
	reg.sq.mmap_size = fr.layout.sq_size;
	reg.sq.head = fr.layout.sq_head;
	reg.sq.flags = fr.layout.sq_flags;
	reg.sq.entries = fr.layout.sq_entries;
	reg.cq.mmap_offset = edge_mmap_cq_offset(id);
	reg.cq.mmap_size = fr.layout.cq_size;
	reg.cq.head = fr.layout.cq_head;
	reg.cq.tail = fr.layout.cq_tail;
	reg.cq.cqes = fr.layout.cq_cqes;
	/* An older caller gets its part; a newer one's tail stays zero. */
	reg.size = min_t(u32, usize, sizeof(reg));
	if (copy_to_user(uarg, &reg, reg.size)) {
		/*
		 * An error changes nothing: take the registration back, unless
		 * another thread unregistered it meanwhile (the id may now be
		 * another registration, even another file's).
		 */
		mutex_lock(&ed->lock);
		mutex_lock(&ef->rings_lock);
		ent = ed->cancelled ? NULL : edge_ekt_get(&ed->model.ekt, id);
		if (ent && ent->owner == &ef->owner && ent->gen == gen) {
			edge_nl_ekt_notify(ed, ent, false);
			edge_model_cancel(&ed->model, id);
			edge_drop_ring(ed, &ef->rings[id]);
		}
		mutex_unlock(&ef->rings_lock);
		mutex_unlock(&ed->lock);
		return -EFAULT;
	}
	return 0;
}

static long edge_unregister(struct edge_file *ef, void __user *uarg)
{
	struct edge_device *ed = ef->edev;
	struct edge_unregister ureg;
	struct sk_buff *ntf;
	u32 usize;
	int ret;

	ret = edge_copy_in(&ureg, sizeof(ureg), EDGE_UNREGISTER_SIZE_VER0,
			   uarg, &usize);
	if (ret)
		return ret;
	if (ureg.flags || ureg.pad)
		return -EINVAL;

	mutex_lock(&ed->lock);
	if (ed->unplugged) {
		mutex_unlock(&ed->lock);
		return -ENODEV;
	}
	mutex_lock(&ef->rings_lock);
	/* Told with its final counts once it went; a refusal is quiet. */
	ntf = edge_nl_ekt_msg(ed, edge_ekt_get(&ed->model.ekt, ureg.id),
			      false);
	ret = edge_model_unregister(&ed->model, ureg.id, &ef->owner);
	if (!ret) {
		edge_nl_xmit(ntf);
		edge_drop_ring(ed, &ef->rings[ureg.id]);
	} else {
		nlmsg_free(ntf);
	}
	mutex_unlock(&ef->rings_lock);
	mutex_unlock(&ed->lock);
	return ret;
}

/*
 * EDGE_IOC_SUBMIT_JOB.  The kernel list is copied in and checked before
 * the model lock is taken; the model checks that every id is this file's.
 * Nothing changes on error.  Admission is the CP's, later: a refused job
 * ends as an EDGE_CQE_REJECTED completion.
 */
static long edge_submit_job(struct edge_file *ef, void __user *uarg)
{
	struct edge_job __user *ujob = uarg;
	struct edge_device *ed = ef->edev;
	struct edge_model_jobdesc d;
	struct edge_job job;
	u32 *ids, usize, i;
	u16 *kern = NULL;
	u64 id = 0;
	int ret;

	ret = edge_copy_in(&job, sizeof(job), EDGE_JOB_SIZE_VER0, uarg, &usize);
	if (ret)
		return ret;
	if (job.flags || !job.nr_kernels || !job.deadline_ns ||
	    job.queue >= EDGE_JOB_QUEUES ||
	    job.nr_kernels > EDGE_JOB_MAX_KERNELS)
		return -EINVAL;
	ids = vmemdup_user(u64_to_user_ptr(job.kernels),
			   sizeof(*ids) * job.nr_kernels);
	if (IS_ERR(ids))
		return PTR_ERR(ids);
	kern = kvmalloc_array(job.nr_kernels, sizeof(*kern), GFP_KERNEL);
	if (!kern) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < job.nr_kernels; i++) {
		if (ids[i] >= EDGE_EKT_ENTRIES) {
			ret = -EINVAL;
			goto out;
		}
		kern[i] = ids[i];
	}
	/* The id goes back here: fault now, before anything is queued. */
	if (put_user(job.id, &ujob->id)) {
		ret = -EFAULT;
		goto out;
	}
	d.queue = job.queue;
	d.deadline_ns = job.deadline_ns;
	d.nr_kernels = job.nr_kernels;
	d.kernels = kern;
	d.user_data = job.user_data;

	mutex_lock(&ed->lock);
	if (ed->unplugged) {
		ret = -ENODEV;
	} else if (ef->jobs_pending + (ef->jcq_tail - ef->jcq_head) >=
		   EDGE_JOB_CQ_ENTRIES) {
		ret = -EBUSY;
	} else {
		/* Real time: the job arrives now, not at the last step. */
		if (!ed->virtual_time)
			edge_model_advance(&ed->model, edge_frontend_now(ed));
		ret = edge_model_submit_job(&ed->model, &ef->owner, &d, &id);
		/* Too many distinct kernels is a bad list, not a size. */
		if (ret == -E2BIG)
			ret = -EINVAL;
		if (!ret)
			ef->jobs_pending++;
	}
	mutex_unlock(&ed->lock);
	if (ret)
		goto out;
	edge_frontend_kick(ed);
	/*
	 * Writable a moment ago; if another thread unmapped it since, the
	 * job still runs and its completion carries the id.
	 */
	if (put_user(id, &ujob->id))
		ret = -EFAULT;
out:
	kvfree(kern);
	kvfree(ids);
	return ret;
}

/*
 * EDGE_IOC_REAP_JOBS: copy out up to nr waiting job completions, oldest
 * first, and consume them only once they are copied.
 */
static long edge_reap_jobs(struct edge_file *ef, void __user *uarg)
{
	struct edge_reap_jobs __user *ureap = uarg;
	struct edge_device *ed = ef->edev;
	struct edge_reap_jobs r;
	struct edge_job_cqe *buf;
	u32 usize, n, i;
	int ret;

	ret = edge_copy_in(&r, sizeof(r), EDGE_REAP_JOBS_SIZE_VER0, uarg,
			   &usize);
	if (ret)
		return ret;
	if (r.flags || r.pad || r.nr > EDGE_JOB_CQ_ENTRIES)
		return -EINVAL;
	buf = kvmalloc_array(max_t(u32, r.nr, 1), sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&ef->reap_lock);
	mutex_lock(&ed->lock);
	n = min_t(u32, r.nr, ef->jcq_tail - ef->jcq_head);
	for (i = 0; i < n; i++)
		buf[i] = ef->jcq[(ef->jcq_head + i) % EDGE_JOB_CQ_ENTRIES];
	mutex_unlock(&ed->lock);
	ret = -EFAULT;
	if (put_user(n, &ureap->nr) ||
	    copy_to_user(u64_to_user_ptr(r.cqes), buf, sizeof(*buf) * n))
		goto out;
	/* Copied: now they are reaped (reap_lock kept other reapers out). */
	mutex_lock(&ed->lock);
	WRITE_ONCE(ef->jcq_head, ef->jcq_head + n);
	mutex_unlock(&ed->lock);
	ret = 0;
out:
	mutex_unlock(&ef->reap_lock);
	kvfree(buf);
	return ret;
}

static long edge_ioctl_locked(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct edge_file *ef = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case EDGE_IOC_GET_INFO:
		return edge_get_info(ef->edev, uarg);
	case EDGE_IOC_REGISTER_EVENT:
		return edge_register(ef, file, uarg);
	case EDGE_IOC_UNREGISTER_EVENT:
		return edge_unregister(ef, uarg);
	case EDGE_IOC_SUBMIT_JOB:
		return edge_submit_job(ef, uarg);
	case EDGE_IOC_REAP_JOBS:
		return edge_reap_jobs(ef, uarg);
	case EDGE_IOC_KICK:
		if (arg)
			return -EINVAL;
		edge_frontend_kick(ef->edev);
		return 0;
	default:
		return -ENOTTY;
	}
}

/*
 * Every call on a file of an unplugged device is -ENODEV, but for
 * EDGE_IOC_REAP_JOBS: it reads only the file's own FIFO, and drains the
 * jobs the unplug cancelled, so that no submitted job is lost.  The test
 * here is a fast answer only: each call that changes the model tests the
 * flag again under ed->lock, the lock the unplug sets it under, so the
 * unplug never waits for a call (which may be stalled in a user copy).
 */
static long edge_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct edge_file *ef = file->private_data;

	if (cmd == EDGE_IOC_REAP_JOBS)
		return edge_reap_jobs(ef, (void __user *)arg);
	if (READ_ONCE(ef->edev->unplugged))
		return -ENODEV;
	return edge_ioctl_locked(file, cmd, arg);
}

/* Called by the model, under ed->lock, when completions were published. */
void edge_notify(void *owner, u32 id)
{
	struct edge_owner *o = owner;

	o->notify(o, id);
}

static void edge_file_notify(struct edge_owner *o, u32 id)
{
	struct edge_file *ef = container_of(o, struct edge_file, owner);

	if (wq_has_sleeper(&ef->cq_wait))
		wake_up_poll(&ef->cq_wait, EPOLLIN | EPOLLRDNORM);
}

/* Called by the model, under ed->lock, when a job of @owner ended. */
void edge_job_notify(void *owner, const struct edge_job_end *e)
{
	/* Only files submit jobs: the owner is always a file's. */
	struct edge_file *ef = container_of(owner, struct edge_file, owner);
	struct edge_job_cqe *c;

	edge_nl_job_notify(ef->edev, ef->owner.pid, e);
	/* Submission kept a slot for it; never lose a completion silently. */
	if (WARN_ON_ONCE(ef->jcq_tail - ef->jcq_head >= EDGE_JOB_CQ_ENTRIES ||
			 !ef->jobs_pending))
		return;
	c = &ef->jcq[ef->jcq_tail % EDGE_JOB_CQ_ENTRIES];
	c->user_data = e->user_data;
	c->id = e->id;
	c->status = e->status;
	c->met = e->met;
	c->latency_ns = e->latency_ns;
	ef->jobs_pending--;
	WRITE_ONCE(ef->jcq_tail, ef->jcq_tail + 1);
	if (wq_has_sleeper(&ef->cq_wait))
		wake_up_poll(&ef->cq_wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * Readable while any of this file's completion rings has unreaped entries,
 * or a job completion waits.
 */
static __poll_t edge_poll(struct file *file, poll_table *pt)
{
	struct edge_file *ef = file->private_data;
	__poll_t mask = 0;
	int i;

	poll_wait(file, &ef->cq_wait, pt);
	/* Unplugged: the cancelled completions are in; nothing else comes. */
	if (READ_ONCE(ef->edev->unplugged))
		return EPOLLIN | EPOLLRDNORM | EPOLLERR | EPOLLHUP;
	/* A hint only: EDGE_IOC_REAP_JOBS reads the FIFO under ed->lock. */
	if (READ_ONCE(ef->jcq_tail) != READ_ONCE(ef->jcq_head))
		return EPOLLIN | EPOLLRDNORM;
	mutex_lock(&ef->rings_lock);
	for (i = 0; i < EDGE_EKT_ENTRIES && !mask; i++) {
		struct edge_file_ring *fr = &ef->rings[i];
		u32 *head, *tail;

		if (!fr->cq)
			continue;
		head = fr->cq + fr->layout.cq_head;
		tail = fr->cq + fr->layout.cq_tail;
		/* Pairs with the model's release of the completion count. */
		if (smp_load_acquire(tail) != READ_ONCE(*head))
			mask = EPOLLIN | EPOLLRDNORM;
	}
	mutex_unlock(&ef->rings_lock);
	return mask;
}

/*
 * The device by minor, if it is still the one this inode's cdev belongs
 * to: an open racing an unplug (or a stale node of a reused minor) gets
 * -ENODEV.
 */
static int edge_open(struct inode *inode, struct file *file)
{
	struct edge_device *ed;
	struct edge_file *ef;

	ed = edge_device_get_index(iminor(inode));
	if (!ed)
		return -ENODEV;
	if (ed->cdev != inode->i_cdev) {
		edge_device_put(ed);
		return -ENODEV;
	}
	ef = kvzalloc(sizeof(*ef), GFP_KERNEL_ACCOUNT);
	if (!ef)
		goto err_put;
	ef->doorbells = edge_vmalloc_user(PAGE_SIZE);
	if (!ef->doorbells) {
		kvfree(ef);
		goto err_put;
	}
	ef->owner.notify = edge_file_notify;
	ef->owner.pid = task_tgid_nr(current);
	ef->edev = ed;
	init_waitqueue_head(&ef->cq_wait);
	mutex_init(&ef->rings_lock);
	mutex_init(&ef->reap_lock);
	mutex_lock(&ed->lock);
	list_add(&ef->node, &ed->files);
	mutex_unlock(&ed->lock);
	file->private_data = ef;
	return nonseekable_open(inode, file);
err_put:
	edge_device_put(ed);
	return -ENOMEM;
}

/*
 * Last reference gone (fd closed and every mapping unmapped): whatever is
 * still in flight completes as cancelled, then the memory goes.
 */
static int edge_release(struct inode *inode, struct file *file)
{
	struct edge_file *ef = file->private_data;
	struct edge_device *ed = ef->edev;
	int i;

	mutex_lock(&ed->lock);
	list_del(&ef->node);
	/*
	 * Until the unplug cancelled what the model holds (ed->cancelled),
	 * our entries are in it, even on an unplugged device whose front
	 * end may still run: take them out before their rings go.
	 */
	if (!ed->cancelled) {
		/* Jobs first: each ends CANCELLED (with ef, its completion). */
		edge_model_cancel_jobs(&ed->model, &ef->owner);
	}
	WARN_ON_ONCE(ef->jobs_pending);
	mutex_lock(&ef->rings_lock);
	for (i = 0; i < EDGE_EKT_ENTRIES; i++) {
		if (!ef->rings[i].sq)
			continue;
		if (!ed->cancelled) {
			struct edge_ekt_entry *ent;

			ent = edge_ekt_get(&ed->model.ekt, i);
			if (ent)
				edge_nl_ekt_notify(ed, ent, false);
			edge_model_cancel(&ed->model, i);
		}
		/* Unplugged too: the memory is counted until the file goes. */
		edge_drop_ring(ed, &ef->rings[i]);
	}
	mutex_unlock(&ef->rings_lock);
	mutex_unlock(&ed->lock);
	vfree(ef->doorbells);
	mutex_destroy(&ef->reap_lock);
	mutex_destroy(&ef->rings_lock);
	kvfree(ef);
	edge_device_put(ed);
	return 0;
}

const struct file_operations edge_fops = {
	.owner = THIS_MODULE,
	.open = edge_open,
	.release = edge_release,
	.unlocked_ioctl = edge_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = edge_mmap,
	.poll = edge_poll,
};

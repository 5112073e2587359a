// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of doorbells and rings.
 *
 * User space learns every offset from the kernel (GET_INFO, REGISTER), so
 * the encoding below is private and may change.
 */
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/fs.h>
#include <linux/bits.h>

#include "edge_drv.h"
#include "edge_kcompat.h"

#define EDGE_MMAP_DOORBELL	0ULL
#define EDGE_MMAP_SQ		BIT_ULL(32)
#define EDGE_MMAP_CQ		BIT_ULL(33)
#define EDGE_MMAP_ID_SHIFT	24	/* 16 MiB apart: > EDGE_MAX_RING_BYTES */

u64 edge_mmap_sq_offset(u32 id)
{
	return EDGE_MMAP_SQ | ((u64)id << EDGE_MMAP_ID_SHIFT);
}

u64 edge_mmap_cq_offset(u32 id)
{
	return EDGE_MMAP_CQ | ((u64)id << EDGE_MMAP_ID_SHIFT);
}

/*
 * Map @mem of @size (edge_vmalloc_user(): page-granular, no VM_USERMAP)
 * into @vma, which must cover exactly that.
 */
static int edge_map(struct vm_area_struct *vma, void *mem, u32 size)
{
	unsigned long off;
	int ret;

	if (!mem || vma->vm_end - vma->vm_start != size)
		return -EINVAL;
	/*
	 * A forked child must not ring its parent's doorbells or see its
	 * rings (amdkfd does the same for its doorbell pages).
	 */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYEXEC);
	/*
	 * What remap_vmalloc_range() does, which refuses memory without
	 * VM_USERMAP: each page is referenced by the mapping, so it stays
	 * after an unregister's vfree() (and charged to its memcg until it
	 * is freed).  A failure leaves a partial mapping that mmap_region()
	 * unmaps.
	 */
	for (off = 0; off < size; off += PAGE_SIZE) {
		ret = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page(mem + off));
		if (ret)
			return ret;
	}
	return 0;
}

static int edge_mmap_locked(struct file *file, struct vm_area_struct *vma)
{
	struct edge_file *ef = file->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 kind = off & ~(BIT_ULL(32) - 1);
	u64 id = (off & (BIT_ULL(32) - 1)) >> EDGE_MMAP_ID_SHIFT;
	struct edge_file_ring *fr;
	int ret;

	/* Rings are shared with the kernel by definition; code is not. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;

	if (off == EDGE_MMAP_DOORBELL)
		return edge_map(vma, ef->doorbells, PAGE_SIZE);

	if (id >= EDGE_EKT_ENTRIES ||
	    (off & (BIT_ULL(EDGE_MMAP_ID_SHIFT) - 1)) ||
	    (kind != EDGE_MMAP_SQ && kind != EDGE_MMAP_CQ))
		return -EINVAL;

	mutex_lock(&ef->rings_lock);
	fr = &ef->rings[id];
	if (kind == EDGE_MMAP_SQ)
		ret = edge_map(vma, fr->sq, fr->layout.sq_size);
	else
		ret = edge_map(vma, fr->cq, fr->layout.cq_size);
	mutex_unlock(&ef->rings_lock);
	return ret;
}

/* No new mapping of an unplugged device's memory; old ones stay valid. */
int edge_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct edge_file *ef = file->private_data;

	/*
	 * A hint: the rings are the file's, alive until its release, so a
	 * mapping made while the unplug goes on maps live memory.
	 */
	if (READ_ONCE(ef->edev->unplugged))
		return -ENODEV;
	return edge_mmap_locked(file, vma);
}

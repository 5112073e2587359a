/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API differences between the kernels edge builds against:
 * Debian 12's 6.1 and the 6.12 LTS (Debian 13's, and Debian 12's
 * security archive's).  The rest of drv/ is written against the current
 * API (6.12); each block here gives 6.1 what it lacks, and is the only
 * place that reads LINUX_VERSION_CODE.  Checked against the headers of
 * both (tools/vm/fetch-kernel.sh, make KERNEL=6.1|6.12).
 *
 * What needs nothing here: GENL_MCAST_CAP_SYS_ADMIN (6.6; 6.1.y has the
 * backport, and the build insists on it below); no_llseek (gone in 6.12):
 * nonseekable_open() already makes llseek fail with -ESPIPE on both;
 * netif_rx() (any context since 5.18); strlcpy() (gone in 6.8; drv/ uses
 * strscpy()); genetlink's .ops with resv_start_op (6.1 and later: strict
 * validation of every command).
 */
#ifndef _EDGE_KCOMPAT_H
#define _EDGE_KCOMPAT_H

#include <linux/version.h>
#include <linux/device.h>
#include <linux/mm.h>
#include <net/genetlink.h>

/*
 * The events multicast group tells every user's jobs: root's only.
 * genl_bind() checks the flag; a kernel without it would open the group
 * to all, so the build refuses rather than run so.
 */
#ifndef GENL_MCAST_CAP_SYS_ADMIN
#error "the kernel lacks GENL_MCAST_CAP_SYS_ADMIN: the events group would be open to every user"
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
/* 6.4: class_create() lost its owner argument (the class core keeps none). */
#undef class_create
#define class_create(name)					\
({								\
	static struct lock_class_key __key;			\
	__class_create(THIS_MODULE, name, &__key);		\
})
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/*
 * 6.2: a class's devnode() takes a const device.  EDGE_DEVNODE_ARG is the
 * type of its first argument here.
 */
#define EDGE_DEVNODE_ARG	struct device
#else
#define EDGE_DEVNODE_ARG	const struct device
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
/*
 * 6.3: vm_flags is read-only, changed through these (which also assert
 * the mmap lock and, with per-VMA locks, write-lock the VMA; 6.1 has
 * neither, and ->mmap() runs under the mmap lock anyway).
 */
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/*
 * 6.2: pre_doit() and post_doit() get the split op they run for
 * (struct genl_split_ops); 6.1 passes the genl_ops, which has the same
 * internal_flags.
 */
#define genl_split_ops genl_ops
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
/*
 * 6.2 put a struct genl_info (attrs included) into the dump's info, and
 * 6.6 named the accessor; 6.1's genl_dumpit_info has attrs of its own.
 * Callers only read ->attrs, which both have.
 */
#define genl_info_dump(cb)	genl_dumpit_info(cb)
#endif

#endif /* _EDGE_KCOMPAT_H */

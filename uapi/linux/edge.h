/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * edge: an emulated event-driven GPU front end (EDGE, event kernels).
 *
 * This header is the whole user ABI of /dev/edgeN.  It follows a few rules:
 *  - only fixed-width types, explicit padding, no pointer-sized fields;
 *  - every extensible struct starts with a __u32 size that the caller sets
 *    to sizeof() as it knows it (see "Struct sizes" in
 *    Documentation/uapi.rst: E2BIG rules of sched_setattr());
 *  - reserved and padding fields are written as zero by the caller, or the
 *    call fails with EINVAL;
 *  - user space maps rings with the offsets the kernel reports, never with
 *    a layout it assumes (as io_uring's io_uring_params does).
 */
#ifndef _UAPI_LINUX_EDGE_H
#define _UAPI_LINUX_EDGE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define EDGE_ABI_VERSION	1

/* Builtin event-kernel functions (struct edge_register.func). */
enum edge_func {
	EDGE_FN_INVALID	= 0,
	/* Runs for its modelled time, computes nothing; cqe.res = 0. */
	EDGE_FN_NOP	= 1,
	/* cqe.res = first __u32 of the parameter entry (order checks). */
	EDGE_FN_ECHO	= 2,
	/*
	 * The paper's GPU ping: the entry is a struct edge_pkt_param holding
	 * an IPv4/UDP datagram; answer it in place (addresses and ports
	 * swapped, TTL reset, both checksums recomputed).  cqe.res = the
	 * datagram's length.  ERROR with EBADMSG: a checksum did not verify;
	 * EINVAL: not a well-formed unfragmented IPv4/UDP datagram.
	 */
	EDGE_FN_UDP_PING = 3,
	/*
	 * IPv4 longest-prefix match: the entry is a struct edge_lpm_param;
	 * the table (struct edge_lpm_entry[]) is given at registration.
	 * cqe.res = the matching route's value, EDGE_LPM_MISS when none.
	 */
	EDGE_FN_LPM4	= 4,
	/*
	 * CRC32C (Castagnoli, as iSCSI/ext4/SCTP) of a buffer: the entry is a
	 * struct edge_crc_param; cqe.res = the CRC, also written into it.
	 */
	EDGE_FN_CRC32C	= 5,
	/*
	 * An IPv4 ICMP echo request answered in place: the entry is a struct
	 * edge_pkt_param holding the packet (a 20-byte header, no options);
	 * the reply swaps the addresses, resets the TTL, sets type 0 and
	 * recomputes both checksums; the payload is untouched.  cqe.res =
	 * the packet's length.  ERROR with EBADMSG: a checksum did not
	 * verify; EINVAL: not an unfragmented echo request without options.
	 */
	EDGE_FN_ICMP_ECHO = 6,
	/*
	 * IPv6 longest-prefix match: the entry is a struct edge_lpm6_param;
	 * the table (struct edge_lpm6_entry[]) is given at registration.
	 * cqe.res = the matching route's value, EDGE_LPM_MISS when none.
	 */
	EDGE_FN_LPM6	= 7,
	/*
	 * The EDGE paper's MemC: a memcached GET service over UDP.  The
	 * entry is a struct edge_memc_param holding a SET (key and value
	 * into the registration's table; cqe.res = 0) or a GET datagram
	 * (IPv4/UDP, one frame, "get <key>\r\n"), answered in place with
	 * the value or a miss; cqe.res = the reply's length.  ERROR with
	 * EBADMSG: a checksum did not verify; EINVAL: malformed; ENOSPC: a
	 * SET of a new key into a full table (see EDGE_MEMC_PROBE);
	 * EMSGSIZE: the reply does not fit the entry.
	 */
	EDGE_FN_MEMC	= 8,
	EDGE_FN_MAX	= EDGE_FN_MEMC,
};

/*
 * Parameter entries of the computing functions.  A function writes its
 * output into the entry before it publishes the completion status (with
 * release ordering), so after an acquire load of the status the entry
 * holds the result.  Multi-byte fields are native-endian unless they
 * are said to be in network byte order.
 */

/* EDGE_FN_UDP_PING, EDGE_FN_ICMP_ECHO: @len bytes of packet, IPv4 header first. */
struct edge_pkt_param {
	__u32 len;		/* in: bytes in @data, <= param_size - 8 */
	__u32 resv;		/* ignored */
	__u8  data[];
};

/* EDGE_FN_LPM4 */
struct edge_lpm_param {
	__u32 addr;		/* in: IPv4 address, network byte order */
	__u32 value;		/* out: the route's value, or EDGE_LPM_MISS */
	__u32 prefix_len;	/* out: the route's prefix length, 0..32 */
	__u32 found;		/* out: 1 if a route matched, else 0 */
};

#define EDGE_LPM_MISS		0xffffffffU

/* One route of an EDGE_FN_LPM4 table (struct edge_register.table_ptr). */
struct edge_lpm_entry {
	__u32 prefix;		/* network byte order; host bits must be 0 */
	__u32 prefix_len;	/* 0..32 */
	__u32 value;		/* any, but EDGE_LPM_MISS is ambiguous */
	__u32 resv;		/* must be 0 */
};

#define EDGE_LPM_MAX_ENTRIES	1024

/* EDGE_FN_LPM6 */
struct edge_lpm6_param {
	__u8  addr[16];		/* in: IPv6 address, network byte order */
	__u32 value;		/* out: the route's value, or EDGE_LPM_MISS */
	__u32 prefix_len;	/* out: the route's prefix length, 0..128 */
	__u32 found;		/* out: 1 if a route matched, else 0 */
	__u32 resv;		/* ignored */
};

/* One route of an EDGE_FN_LPM6 table (struct edge_register.table_ptr). */
struct edge_lpm6_entry {
	__u8  prefix[16];	/* network byte order; host bits must be 0 */
	__u32 prefix_len;	/* 0..128 */
	__u32 value;		/* any, but EDGE_LPM_MISS is ambiguous */
	__u32 resv[2];		/* must be 0 */
};

#define EDGE_LPM6_MAX_ENTRIES	1024

/* EDGE_FN_CRC32C: init ~0, reflected 0x82f63b78, final xor ~0. */
struct edge_crc_param {
	__u32 len;		/* in: bytes in @data, <= param_size - 8 */
	__u32 crc;		/* out */
	__u8  data[];
};

/*
 * EDGE_FN_MEMC.  @op EDGE_MEMC_GET: @len bytes of an IPv4/UDP datagram at
 * @data (a 20-byte IP header, no options), whose payload is one memcached
 * UDP frame: an 8-byte frame header (request id, sequence 0, count 1,
 * reserved) and "get <key>\r\n".  The reply replaces it: addresses and
 * ports swapped, the frame header's request id kept (sequence 0, count
 * 1, reserved 0), then "VALUE <key> 0 <bytes>\r\n<value>\r\nEND\r\n",
 * or "END\r\n" on a miss; both checksums computed.  @op EDGE_MEMC_SET:
 * @data holds a struct edge_memc_set.
 */
struct edge_memc_param {
	__u32 len;		/* in: GET: bytes at @data, <= param_size - 8 */
	__u16 op;		/* in: EDGE_MEMC_GET or EDGE_MEMC_SET */
	__u16 hit;		/* out: GET: 1 when the key was found, else 0 */
	__u8  data[];
};

#define EDGE_MEMC_GET		0
#define EDGE_MEMC_SET		1

/* Keys: 1..16 bytes, each printable and not a space (0x21..0x7e). */
#define EDGE_MEMC_MAX_KEY	16
/* Values: 0..64 bytes, any bytes (the EDGE paper's MemC stores 2). */
#define EDGE_MEMC_MAX_VALUE	64
/*
 * The table: 16384 entries (the paper's), open addressing: a key lives
 * within EDGE_MEMC_PROBE slots of its hash's.  A SET of a new key that
 * finds none of them free fails with ENOSPC (at the latest when all 16384
 * are used; at the paper's 8192 keys, half full, 64 taken slots in a row
 * are vanishingly rare); nothing is evicted.
 */
#define EDGE_MEMC_ENTRIES	16384
#define EDGE_MEMC_PROBE		64

/* EDGE_FN_MEMC's SET, at edge_memc_param.data. */
struct edge_memc_set {
	__u8  key_len;		/* 1 .. EDGE_MEMC_MAX_KEY */
	__u8  resv;		/* must be 0 */
	__u16 value_len;	/* 0 .. EDGE_MEMC_MAX_VALUE */
	__u32 resv2;		/* must be 0 */
	__u8  key[EDGE_MEMC_MAX_KEY];
	__u8  value[EDGE_MEMC_MAX_VALUE];
};

#define EDGE_PRIO_MAX		15	/* 0 lowest .. 15 highest, as KFD */

/* struct edge_info.time_mode */
#define EDGE_TIME_REAL		0	/* model time follows ktime */
#define EDGE_TIME_VIRTUAL	1	/* model time jumps to the next event */

/**
 * struct edge_info - EDGE_IOC_GET_INFO: ABI version, limits, model config
 *
 * The caller sets @size to the size it knows (at least
 * EDGE_INFO_SIZE_VER0).  The kernel writes min(@size, its own size) bytes
 * and sets @size to the number of bytes it wrote.  Every other field is
 * written by the kernel.
 */
struct edge_info {
	__u32 size;
	__u32 abi_version;
	__u32 ekt_entries;		/* event kernel table size */
	__u32 max_ring_entries;		/* largest edge_register.ring_entries */
	__u32 max_param_size;		/* largest edge_register.param_size */
	__u32 max_ring_bytes;		/* ring_entries * param_size limit */
	__u32 max_block_threads;	/* block_x * block_y * block_z limit */
	__u32 max_grid_x;
	__u32 max_grid_yz;
	__u32 max_regs_per_thread;
	__u32 max_smem_per_block;	/* bytes */
	__u32 prio_max;			/* EDGE_PRIO_MAX */
	__u32 warp_size;
	__u32 num_cores;		/* SIMT cores of the model */
	__u32 clock_khz;		/* model core clock */
	__u32 time_mode;		/* EDGE_TIME_* */
	__u32 poll_idle_us;		/* front end polls this long, then sleeps */
	__u32 doorbell_size;		/* mmap length of the doorbell page */
	__u64 doorbell_offset;		/* mmap offset of the doorbell page */
	__u8  preset[16];		/* model preset name, NUL terminated */
	/*
	 * VER1: byte offset in the doorbell page of its summary word, a
	 * __u64 whose bit N stands for EKT id N (0: no summary; see
	 * "Doorbell summary" below).
	 */
	__u32 doorbell_summary;
	__u32 resv;			/* written as 0 */
};

#define EDGE_INFO_SIZE_VER0	96
#define EDGE_INFO_SIZE_VER1	104

/*
 * Doorbell summary (EDGE_INFO_SIZE_VER1, doorbell_summary != 0), as
 * hardware aggregates doorbells: after storing an entry's new tail in its
 * doorbell word, the producer sets bit (EKT id) of the summary word with
 * an atomic OR that is a release or stronger (libedge's
 * edge_queue_submit() does).  The front end takes the word each step
 * (atomic exchange with 0) and polls only the entries whose bits it took,
 * so a step costs the same however many entries are registered.
 *
 * The bit is a hint, never a requirement: a doorbell rung without it is
 * still found, by a poll of every registered entry that the front end
 * makes every EDGE_DB_SCAN_STEPS steps, after it wakes and before it
 * sleeps; so older producers keep working, with a dispatch latency of up
 * to EDGE_DB_SCAN_STEPS polling steps.  A bit set for nothing costs one
 * look at that doorbell.
 */
#define EDGE_DB_SCAN_STEPS	64

/**
 * struct edge_sq_offsets - where a submission (parameter) ring lives
 * @mmap_offset: pass to mmap() as offset
 * @mmap_size: pass to mmap() as length (exactly)
 * @head: byte offset of the kernel's consumer count (__u32, read-only for
 *        user space): parameter entries below it have been read
 * @flags: byte offset of the ring flags word (__u32, EDGE_SQ_*)
 * @entries: byte offset of the parameter entry array
 * @resv: zero
 *
 * The producer count (tail) is not in the ring: it is the entry's doorbell
 * word.  Entry n lives at @entries + (n & (ring_entries - 1)) * param_size.
 */
struct edge_sq_offsets {
	__u64 mmap_offset;
	__u32 mmap_size;
	__u32 head;
	__u32 flags;
	__u32 entries;
	__u32 resv[2];
};

/* Set by the kernel when the front end sleeps: ring, then EDGE_IOC_KICK. */
#define EDGE_SQ_NEED_WAKEUP	0x1U

/**
 * struct edge_cq_offsets - where a completion ring lives
 * @mmap_offset: pass to mmap() as offset
 * @mmap_size: pass to mmap() as length (exactly)
 * @head: byte offset of the consumer count (__u32, written by user space
 *        as it reaps; poll() reports EPOLLIN while tail != head)
 * @tail: byte offset of the number of completions the kernel published
 * @cqes: byte offset of the struct edge_cqe array
 * @resv: zero
 *
 * Completion entry n & (ring_entries - 1) belongs to the event submitted
 * as number n (its parameter entry has the same index).
 */
struct edge_cq_offsets {
	__u64 mmap_offset;
	__u32 mmap_size;
	__u32 head;
	__u32 tail;
	__u32 cqes;
	__u32 resv[2];
};

/* Completion codes, in the low 8 bits of edge_cqe.status. */
#define EDGE_CQE_PENDING	0	/* not written yet */
#define EDGE_CQE_DONE		1	/* ran; res holds the function result */
#define EDGE_CQE_ERROR		2	/* failed; res holds a positive errno */
#define EDGE_CQE_REJECTED	3	/* refused by admission; not run */
#define EDGE_CQE_CANCELLED	4	/* torn down before it completed */

/*
 * The status word carries the low 24 bits of the event's number next to
 * the code, so a status left from the previous lap of the ring is never
 * mistaken for this event's.  The kernel writes @res first and then
 * @status with a release store; read @status with an acquire load.
 */
#define EDGE_CQE_CODE(status)		((status) & 0xffU)
#define EDGE_CQE_SEQ(status)		((status) >> 8)
#define EDGE_CQE_SEQ_MASK		0xffffffU
#define EDGE_CQE_STATUS(code, seq)	((((seq) & EDGE_CQE_SEQ_MASK) << 8) | (code))

struct edge_cqe {
	__u32 status;
	__u32 res;
};

/**
 * struct edge_warp_state - how a kernel's warps spend their time
 *
 * The SIMT model draws a victim warp's state from these when it preempts
 * one of the kernel's warps; the flush latency comes out of that state.
 * Probabilities are per mille, times are core cycles, and an all-zero
 * struct describes warps that never stall.  Event warps all issue at the
 * top priority, so each also slows by ewarp_corun_pct per other event
 * warp on its core; warp_cycles is measured with every core busy, and the
 * mem_pct share of it shrinks when fewer cores share the memory.
 */
struct edge_warp_state {
	__u32 rsd_pct;		/* TB duration relative std deviation, % */
	__u32 corun_pct;	/* duration + this % on a fully occupied core */
	__u32 p_pipe;		/* an instruction in the pipeline */
	__u32 pipe_cycles;	/* ... its mean remaining cycles */
	__u32 ibuf_insts;	/* mean instructions waiting in the i-buffer */
	__u32 p_load;		/* waiting on in-flight loads */
	__u32 load_cycles;	/* ... their mean remaining latency */
	__u32 p_barrier;	/* at a CTA barrier (early in the TB) */
	__u32 barrier_cycles;	/* ... mean wait for the TB's other warps */
	__u32 early_pct;	/* "early": the first early_pct % of a TB */
	__u32 p_membar;		/* at a memory barrier */
	__u32 membar_cycles;
	__u32 p_icache;		/* an i-cache miss (early in the TB) */
	__u32 icache_cycles;
	/* event warp: + this % per other event warp on its core */
	__u32 ewarp_corun_pct;
	/* % of a TB's time bound by GPU-wide memory bandwidth */
	__u32 mem_pct;
};

/**
 * struct edge_register - EDGE_IOC_REGISTER_EVENT (edgeRegisterEvent)
 *
 * Fields up to @warp_cycles are written by the caller; @id and the rest
 * by the kernel on success.  On failure nothing is registered.
 */
struct edge_register {
	__u32 size;
	__u32 flags;			/* EDGE_REGISTER_*, else 0 */
	__u32 func;			/* enum edge_func */
	__u32 priority;			/* 0 .. EDGE_PRIO_MAX */
	__u32 grid_x, grid_y, grid_z;
	__u32 block_x, block_y, block_z;
	__u32 regs_per_thread;
	__u32 smem_per_block;		/* bytes */
	__u32 param_size;		/* bytes per entry, multiple of 8 */
	__u32 ring_entries;		/* max in-flight events, power of two */
	__u64 warp_cycles;		/* timing: cycles a TB's warps run */
	__u32 id;			/* out: EKT index */
	__u32 doorbell;			/* out: byte offset in doorbell page */
	struct edge_sq_offsets sq;	/* out */
	struct edge_cq_offsets cq;	/* out */
	/* VER1: the SIMT model */
	struct edge_warp_state ws;	/* in; zero: never stalls */
	/*
	 * VER2: the function's table, copied at registration.  EDGE_FN_LPM4
	 * needs one (struct edge_lpm_entry[], table_len bytes), EDGE_FN_LPM6
	 * too (struct edge_lpm6_entry[]); every other function takes none
	 * (both zero).
	 */
	__u64 table_ptr;		/* in: user address */
	__u32 table_len;		/* in: bytes */
	__u32 pad;			/* must be 0 */
	/*
	 * VER3: each event's deadline, from when the front end takes it from
	 * the ring; 0: none.  Events with one go earliest deadline first
	 * among those of their priority; one that completes after it still
	 * completes (EDGE_CQE_DONE) and counts in sysfs "late".
	 */
	__u64 deadline_ns;
	/*
	 * VER4: device memory the entry holds while it is registered (its
	 * buffers, as the job's cudaMalloc()s), bytes; 0: none.  Charged to
	 * the device at registration: ENOMEM, and nothing registered, when
	 * it does not fit (sysfs mem_oom counts it).  A process that placed
	 * a job on this device (netlink "place") draws it from that
	 * reservation first, so the job is not counted twice.
	 */
	__u64 mem_bytes;
	/*
	 * VER5: batched event warps (EDGE's "requests per event warp"),
	 * read only with EDGE_REGISTER_WARP_BATCH in @flags (without it
	 * both must be 0, and every event is a warp of its own).  The
	 * front end gathers up to @requests_per_warp rung events of the
	 * entry into one event warp, launched once, and completes each in
	 * its own CQE with its own status.  A warp is launched when it is
	 * full, or @gather_ns of model time after the oldest event it
	 * holds was first seen (0: EDGE_GATHER_NS_DEFAULT), so a lone
	 * event is never held longer.  @warp_cycles is then a full warp's
	 * time; a warp of fewer requests is timed as Documentation/uapi.rst
	 * "Batched event warps" says.
	 */
	__u32 requests_per_warp;	/* in: 1 .. EDGE_MAX_REQUESTS_PER_WARP */
	__u32 gather_ns;		/* in: 0 .. EDGE_MAX_GATHER_NS */
};

/* struct edge_register.flags */
#define EDGE_REGISTER_WARP_BATCH	0x1U	/* read requests_per_warp */

/* One request a thread of a 32-thread warp, as EDGE's event kernels. */
#define EDGE_MAX_REQUESTS_PER_WARP	32
/*
 * A partial warp waits at most this long by default: under one IPv4
 * event warp's run time (EDGE: ~2,300 cycles, 3.3 us at the edge
 * preset's 700 MHz), so a lone event waits no longer than it runs.
 */
#define EDGE_GATHER_NS_DEFAULT		3000
#define EDGE_MAX_GATHER_NS		1000000	/* 1 ms */

#define EDGE_REGISTER_SIZE_VER0	136
#define EDGE_REGISTER_SIZE_VER1	200
#define EDGE_REGISTER_SIZE_VER2	216
#define EDGE_REGISTER_SIZE_VER3	224
#define EDGE_REGISTER_SIZE_VER4	232
#define EDGE_REGISTER_SIZE_VER5	240

/**
 * struct edge_unregister - EDGE_IOC_UNREGISTER_EVENT (edgeUnregisterEvent)
 *
 * Fails with EBUSY while the entry has events in flight or rung but not
 * yet consumed; wait for their completions and retry.
 */
struct edge_unregister {
	__u32 size;
	__u32 id;
	__u32 flags;			/* must be 0 */
	__u32 pad;			/* must be 0 */
};

#define EDGE_UNREGISTER_SIZE_VER0	16

/*
 * Jobs (EDGE_IOC_SUBMIT_JOB): a stream of dependent kernels with a
 * deadline, run by the device's command processor on one of its compute
 * queues.  Each kernel is named by the EKT id of an event kernel this
 * file registered; it runs as a TB kernel of that entry's shape, without
 * touching the entry's rings.  Admission is asynchronous: a job the
 * command processor refuses comes back as an EDGE_CQE_REJECTED job
 * completion (EDGE_IOC_REAP_JOBS), not as an error of the submission.
 */
#define EDGE_JOB_QUEUES		128	/* struct edge_job.queue limit */
#define EDGE_JOB_MAX_KERNELS	2048	/* struct edge_job.nr_kernels limit */
#define EDGE_JOB_MAX_CLASSES	16	/* distinct EKT ids in one job */
#define EDGE_JOB_CQ_ENTRIES	256	/* per-file job completion FIFO */

/**
 * struct edge_job - EDGE_IOC_SUBMIT_JOB
 * @size: sizeof() as the caller knows it, at least EDGE_JOB_SIZE_VER0
 * @flags: must be 0
 * @queue: compute queue, < EDGE_JOB_QUEUES; jobs on one queue are
 *         inspected one after the other, in submission order
 * @nr_kernels: number of __u32 at @kernels, 1 .. EDGE_JOB_MAX_KERNELS
 * @deadline_ns: relative to submission, model time, not 0
 * @kernels: user pointer to @nr_kernels EKT ids registered by this file
 * @user_data: returned unchanged in the job's completion
 * @id: out: the job's id, also in its completion
 */
struct edge_job {
	__u32 size;
	__u32 flags;
	__u32 queue;
	__u32 nr_kernels;
	__u64 deadline_ns;
	__u64 kernels;
	__u64 user_data;
	__u64 id;
};

#define EDGE_JOB_SIZE_VER0	48

/**
 * struct edge_job_cqe - a job completion, as EDGE_IOC_REAP_JOBS copies it
 * @user_data: the job's edge_job.user_data
 * @id: the job's edge_job.id
 * @status: EDGE_CQE_DONE, EDGE_CQE_REJECTED or EDGE_CQE_CANCELLED
 * @met: 1 when the job was DONE within its deadline, else 0
 * @latency_ns: submission to completion, model time
 */
struct edge_job_cqe {
	__u64 user_data;
	__u64 id;
	__u32 status;
	__u32 met;
	__u64 latency_ns;
};

/**
 * struct edge_reap_jobs - EDGE_IOC_REAP_JOBS
 * @size: sizeof() as the caller knows it, at least EDGE_REAP_JOBS_SIZE_VER0
 * @nr: in: room at @cqes (entries, at most EDGE_JOB_CQ_ENTRIES);
 *      out: entries copied (0 when none is waiting: no error, no wait)
 * @flags: must be 0
 * @pad: must be 0
 * @cqes: user pointer to @nr struct edge_job_cqe
 */
struct edge_reap_jobs {
	__u32 size;
	__u32 nr;
	__u32 flags;
	__u32 pad;
	__u64 cqes;
};

#define EDGE_REAP_JOBS_SIZE_VER0	24

/*
 * The argument of every ioctl but KICK is a struct whose first field is
 * its size, so the command numbers do not encode a size (as iommufd).
 * KICK takes no argument (pass 0): it wakes a sleeping front end.
 */
#define EDGE_IOC_MAGIC			0xED
#define EDGE_IOC_GET_INFO		_IO(EDGE_IOC_MAGIC, 0x01)
#define EDGE_IOC_REGISTER_EVENT		_IO(EDGE_IOC_MAGIC, 0x02)
#define EDGE_IOC_UNREGISTER_EVENT	_IO(EDGE_IOC_MAGIC, 0x03)
#define EDGE_IOC_KICK			_IO(EDGE_IOC_MAGIC, 0x04)
#define EDGE_IOC_SUBMIT_JOB		_IO(EDGE_IOC_MAGIC, 0x05)
#define EDGE_IOC_REAP_JOBS		_IO(EDGE_IOC_MAGIC, 0x06)

#endif /* _UAPI_LINUX_EDGE_H */

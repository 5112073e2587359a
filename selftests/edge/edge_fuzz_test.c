// SPDX-License-Identifier: GPL-2.0
/*
 * A guest fuzzer of /dev/edge0: 8 processes at once make random calls
 * (open, close, GET_INFO, REGISTER, UNREGISTER, KICK, unknown ioctls,
 * mmap, munmap, mremap, fork, poll) with random and mutated arguments
 * (sizes, flags, reserved fields, offsets, lengths, huge counts, bad
 * pointers) and write random doorbell tails and ring words.  Beside the
 * ioctls they send random messages to the "edge" netlink family: unknown
 * commands, random attribute types, lengths (short, long, overrunning
 * the message) and nesting; dev del and dev set never name edge0, the
 * device under test.
 *
 * What must hold: every call succeeds or fails with an errno its
 * interface documents (anything else fails the test); no process dies
 * of a signal; afterwards nothing is registered or in flight, every
 * submitted event was completed, rejected or cancelled (the sysfs
 * counters balance) and the module unloads.  The debug kernel's run
 * (tools/vm/check-debug.sh) adds: no KASAN, lockdep, WARN or kmemleak
 * report.
 *
 * EDGE_FUZZ_CALLS (default 40000) calls in all, at least (a run that made
 * fewer fails: fuzz.calls_made), EDGE_FUZZ_SEED (default: the time) for a
 * replay; prints the seed and "guest_fuzz_calls=N".
 *
 * Two hostile modes (issue 23), which tools/vm/guest.sh runs too:
 * EDGE_FUZZ_NOBODY=1 runs the fuzzing processes as uid 65534 (netlink
 * writes are then EPERM), and EDGE_FUZZ_UNPLUG=1 has the parent delete
 * edge0 and add it again, over and over, while they fuzz: ENODEV is then
 * a documented answer too, and the counters checked at the end are the
 * last device's.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <grp.h>
#include <sys/wait.h>
#include "kselftest.h"
#include "edge_selftest.h"
#include "edge_nl.h"

#define NPROC		8
#define MAX_FDS		4
#define MAX_ENTS	3	/* live registrations per process */
#define MAX_MAPS	16
#define FORK_CALLS	20
#define EKT_ENTRIES	64	/* edge_info.ekt_entries */

struct shared {
	unsigned long calls;
	unsigned long bad_errno;
	unsigned long registered_ok;
	unsigned long nl_calls, nl_ok;
	unsigned long mapped_ok;
	char first_bad[160];
};

static struct shared *sh;
static bool unplug_mode;
static uint64_t rng;
static unsigned long budget;
static long page;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* A value that tends to sit on a boundary. */
static uint64_t interesting(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 8, 16, 31, 32, 63, 64, 100, 255, 256, 1023,
		1024, 4095, 4096, 4097, 65535, 65536, 1U << 20, 4U << 20,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x10000000000ULL, ~0ULL,
	};

	switch (below(4)) {
	case 0:
		return rnd();
	case 1:
		return rnd() & 0xffff;
	default:
		return v[below(ARRAY_SIZE(v))];
	}
}

struct ent {
	int fdi;
	int fdn;		/* the fd number, for doorbell maps */
	struct edge_register reg;
};

struct map {
	void *addr;
	size_t len;
	int kind;		/* 0 doorbell, 1 sq, 2 cq */
	int fdn;		/* doorbell: the file's fd number */
	struct edge_register reg;
};

struct state {
	int fd[MAX_FDS];
	int nfd;
	struct ent ent[MAX_ENTS];
	int nent;
	struct map map[MAX_MAPS];
	int nmap;
	bool forked;
	/* A page whose end borders an unmapped page: partial structs. */
	uint8_t *edge_page;
	struct enl nl;		/* fd 0: not opened yet */
	bool nl_open;
};

static struct state st;

static void note_call(void)
{
	__atomic_add_fetch(&sh->calls, 1, __ATOMIC_RELAXED);
}

/* A call returned @ret (-1 with errno, or not): is its errno documented? */
static void check_errno(const char *what, long ret, int err, int ok_mask)
{
	static const int errs[] = { EINVAL, E2BIG, EFAULT, EBUSY, ENOMEM,
				    ENOENT, ENOTTY, EPERM, EACCES,
				    EOVERFLOW, EDQUOT };
	unsigned int i;

	note_call();
	if (ret != -1)
		return;
	/* The parent deletes edge0 under us: the device or its node gone. */
	if (unplug_mode && (err == ENODEV || err == ENOENT))
		return;
	for (i = 0; i < ARRAY_SIZE(errs); i++)
		if (errs[i] == err && (ok_mask & (1 << i)))
			return;
	if (__atomic_fetch_add(&sh->bad_errno, 1, __ATOMIC_RELAXED) == 0)
		snprintf(sh->first_bad, sizeof(sh->first_bad), "%s: %s (%d)",
			 what, strerror(err), err);
}

#define E_INVAL		(1 << 0)
#define E_2BIG		(1 << 1)
#define E_FAULT		(1 << 2)
#define E_BUSY		(1 << 3)
#define E_NOMEM		(1 << 4)
#define E_NOENT		(1 << 5)
#define E_NOTTY		(1 << 6)
#define E_PERM		(1 << 7)
#define E_ACCES		(1 << 8)
#define E_OVERFLOW	(1 << 9)
#define E_DQUOT		(1 << 10)

static int pick_fd(void)
{
	if (!st.nfd)
		return -1;
	return below(st.nfd);
}

/* A user pointer: mostly good, sometimes bad or straddling a hole. */
static void *arg_ptr(void *good, size_t len)
{
	switch (below(16)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)interesting();
	case 2:
		if (len > (size_t)page)
			return NULL;
		memcpy(st.edge_page + page - len, good, len);
		return st.edge_page + page - len + below(len ? len : 1);
	default:
		return good;
	}
}

static void op_open(void)
{
	int fd, flags = below(8) ? O_RDWR : O_RDONLY;

	if (st.nfd == MAX_FDS)
		return;
	fd = open(EDGE_DEV0, flags | O_CLOEXEC);
	check_errno("open", fd < 0 ? -1 : 0, errno, 0);
	if (fd >= 0)
		st.fd[st.nfd++] = fd;
}

static void op_close(void)
{
	int i = pick_fd(), j, r;

	if (i < 0)
		return;
	r = close(st.fd[i]);
	check_errno("close", r, errno, 0);
	/* Its entries go with it (mappings stay until unmapped). */
	for (j = 0; j < st.nent;) {
		if (st.ent[j].fdi == i) {
			st.ent[j] = st.ent[--st.nent];
			continue;
		}
		if (st.ent[j].fdi == st.nfd - 1)
			st.ent[j].fdi = i;
		j++;
	}
	st.fd[i] = st.fd[--st.nfd];
}

static void op_get_info(void)
{
	uint8_t buf[8192];
	struct edge_info *info = (void *)buf;
	int i = pick_fd();
	void *p;
	long r;

	if (i < 0)
		return;
	memset(buf, below(2) ? 0 : 0xa5, sizeof(buf));
	info->size = below(2) ? sizeof(*info) : (uint32_t)interesting();
	p = arg_ptr(buf, below(2) ? sizeof(*info) : 64);
	r = ioctl(st.fd[i], EDGE_IOC_GET_INFO, p);
	check_errno("GET_INFO", r, errno, E_INVAL | E_FAULT);
	if (!r && p == buf && (info->abi_version != EDGE_ABI_VERSION ||
		   info->size > sizeof(*info)))
		check_errno("GET_INFO contents", -1, 0, 0);
}

static void mutate_register(struct edge_register *r, uint8_t *tail)
{
	uint32_t *w = (uint32_t *)r;
	int n = 1 + below(3), k;

	switch (below(5)) {
	case 0:
		r->size = EDGE_REGISTER_SIZE_VER0;
		break;
	case 1:
		r->size = EDGE_REGISTER_SIZE_VER1;
		break;
	case 2:
		r->size = sizeof(*r) + below(64);
		if (below(2))
			tail[below(64)] = 1 + below(255);
		break;
	case 3:
		r->size = (uint32_t)interesting();
		break;
	default:
		break;
	}
	if (!below(4))
		return;
	for (k = 0; k < n; k++) {
		unsigned int f = 1 + below(sizeof(*r) / 4 - 1);

		switch (below(3)) {
		case 0:
			w[f] = (uint32_t)interesting();
			break;
		case 1:
			w[f] ^= 1U << below(32);
			break;
		default:
			w[f] = below(2) ? 0 : w[f] * 2;
			break;
		}
	}
}

/*
 * An accepted registration's flags, as the kernel read them (the first
 * @size bytes, the rest zero): known ones only, and with
 * EDGE_REGISTER_WARP_BATCH a request count it allows.
 */
static bool register_flags_ok(const struct edge_register *r)
{
	struct edge_register k;

	memset(&k, 0, sizeof(k));
	memcpy(&k, r, r->size < sizeof(k) ? r->size : sizeof(k));
	if (k.flags & ~EDGE_REGISTER_WARP_BATCH)
		return false;
	if (!(k.flags & EDGE_REGISTER_WARP_BATCH))
		return true;
	return k.requests_per_warp >= 1 &&
	       k.requests_per_warp <= EDGE_MAX_REQUESTS_PER_WARP;
}

static void op_register(void)
{
	struct {
		struct edge_register r;
		uint8_t tail[64];
	} a;
	int i = pick_fd();
	void *p;
	long r;

	if (i < 0)
		return;
	memset(&a, 0, sizeof(a));
	edge_register_init(&a.r, below(4) ? EDGE_FN_ECHO : EDGE_FN_NOP,
			   8 << below(4), 1 << below(7), 700 * (1 + below(50)));
	mutate_register(&a.r, a.tail);
	/* Rings up to 4 MiB are valid, but keep the guest's memory. */
	if ((uint64_t)a.r.ring_entries * a.r.param_size > (256U << 10) &&
	    below(8))
		a.r.ring_entries = 16;
	/* An unknown flag must fail: keeps the count bounded. */
	if (st.nent == MAX_ENTS)
		a.r.flags |= 0x80000000U;
	p = arg_ptr(&a, below(2) ? sizeof(a.r) : 64);
	r = ioctl(st.fd[i], EDGE_IOC_REGISTER_EVENT, p);
	/* An unprivileged user's entries stop at max_user_entries (uapi.rst). */
	check_errno("REGISTER", r, errno,
		    E_INVAL | E_2BIG | E_FAULT | E_BUSY | E_NOMEM |
		    (geteuid() ? E_DQUOT : 0));
	/* Through a shifted copy: the file's release cleans it up. */
	if (!r && p != &a)
		return;
	if (!r) {
		__atomic_add_fetch(&sh->registered_ok, 1, __ATOMIC_RELAXED);
		if (!register_flags_ok(&a.r) || a.r.id >= EKT_ENTRIES ||
		    a.r.ring_entries & (a.r.ring_entries - 1))
			check_errno("REGISTER accepted a bad struct", -1, 0, 0);
		if (st.nent < MAX_ENTS) {
			st.ent[st.nent].fdi = i;
			st.ent[st.nent].fdn = st.fd[i];
			st.ent[st.nent].reg = a.r;
			st.nent++;
		}
	}
}

static void op_unregister(void)
{
	struct {
		struct edge_unregister u;
		uint8_t tail[16];
	} a;
	int i = pick_fd(), e = -1;
	long r;

	if (i < 0)
		return;
	memset(&a, 0, sizeof(a));
	a.u.size = sizeof(a.u);
	if (st.nent && below(2)) {
		e = below(st.nent);
		i = st.ent[e].fdi;
		a.u.id = st.ent[e].reg.id;
	} else {
		a.u.id = below(4) ? below(70) : (uint32_t)interesting();
	}
	if (!below(4)) {
		switch (below(4)) {
		case 0:
			a.u.flags = (uint32_t)interesting();
			break;
		case 1:
			a.u.pad = 1 + below(7);
			break;
		case 2:
			a.u.size = (uint32_t)interesting();
			break;
		default:
			a.u.size = sizeof(a.u) + 1 + below(15);
			a.tail[below(16)] = 1;
			break;
		}
	}
	r = ioctl(st.fd[i], EDGE_IOC_UNREGISTER_EVENT,
		  arg_ptr(&a, sizeof(a.u)));
	check_errno("UNREGISTER", r, errno,
		    E_INVAL | E_2BIG | E_FAULT | E_NOENT | E_BUSY);
	if (!r && e >= 0 && a.u.id == st.ent[e].reg.id)
		st.ent[e] = st.ent[--st.nent];
	else if (!r)
		/* Some entry of this file went: forget which, keep it simple. */
		for (e = 0; e < st.nent; e++)
			if (st.ent[e].fdi == i && st.ent[e].reg.id == a.u.id)
				st.ent[e--] = st.ent[--st.nent];
}

/*
 * SUBMIT_JOB: mostly this file's own entries with short deadlines, and
 * every field mutated now and then; the kernel list through a good, bad or
 * hole-straddling pointer.
 */
static void op_submit_job(void)
{
	struct {
		struct edge_job j;
		uint8_t tail[16];
	} a;
	uint32_t ids[8];
	int i = pick_fd();
	unsigned int k, n;
	long r;

	if (i < 0)
		return;
	memset(&a, 0, sizeof(a));
	n = 1 + below(ARRAY_SIZE(ids));
	for (k = 0; k < n; k++) {
		ids[k] = below(8) ? below(70) : (uint32_t)interesting();
		if (st.nent && below(4)) {
			struct ent *e = &st.ent[below(st.nent)];

			if (e->fdi == i)
				ids[k] = e->reg.id;
		}
	}
	a.j.size = sizeof(a.j);
	a.j.queue = below(4) ? below(8) : (uint32_t)interesting();
	a.j.nr_kernels = n;
	a.j.deadline_ns = below(4) ? 1000 * (1 + below(2000)) : interesting();
	a.j.kernels = (uintptr_t)arg_ptr(ids, n * sizeof(ids[0]));
	a.j.user_data = rnd();
	if (!below(4)) {
		switch (below(6)) {
		case 0:
			a.j.flags = (uint32_t)interesting();
			break;
		case 1:
			a.j.nr_kernels = (uint32_t)interesting();
			break;
		case 2:
			a.j.size = (uint32_t)interesting();
			break;
		case 3:
			a.j.size = sizeof(a.j) + 1 + below(15);
			a.tail[below(16)] = 1;
			break;
		case 4:
			a.j.id = rnd();		/* out-only: ignored */
			break;
		default:
			a.j.deadline_ns = 0;
			break;
		}
	}
	r = ioctl(st.fd[i], EDGE_IOC_SUBMIT_JOB, arg_ptr(&a, sizeof(a.j)));
	check_errno("SUBMIT_JOB", r, errno,
		    E_INVAL | E_2BIG | E_FAULT | E_BUSY | E_NOMEM);
}

/* REAP_JOBS: into a buffer of any room, or a bad one. */
static void op_reap_jobs(void)
{
	struct edge_job_cqe cqes[8];
	struct {
		struct edge_reap_jobs r;
		uint8_t tail[16];
	} a;
	int i = pick_fd();
	long r;

	if (i < 0)
		return;
	memset(&a, 0, sizeof(a));
	a.r.size = sizeof(a.r);
	a.r.nr = below(4) ? below(ARRAY_SIZE(cqes) + 1) :
		 (uint32_t)interesting();
	a.r.cqes = (uintptr_t)arg_ptr(cqes, sizeof(cqes));
	if (a.r.nr > ARRAY_SIZE(cqes) && a.r.cqes == (uintptr_t)cqes)
		a.r.nr = ARRAY_SIZE(cqes);	/* no overrun of the stack */
	if (!below(6)) {
		switch (below(3)) {
		case 0:
			a.r.flags = 1 + below(7);
			break;
		case 1:
			a.r.pad = (uint32_t)interesting() | 1;
			break;
		default:
			a.r.size = sizeof(a.r) + 1 + below(15);
			a.tail[below(16)] = 1;
			break;
		}
	}
	r = ioctl(st.fd[i], EDGE_IOC_REAP_JOBS, arg_ptr(&a, sizeof(a.r)));
	check_errno("REAP_JOBS", r, errno, E_INVAL | E_2BIG | E_FAULT);
}

static void op_ioctl_other(void)
{
	int i = pick_fd();
	unsigned long cmd;
	long r;
	uint8_t buf[256] = { 0 };

	if (i < 0)
		return;
	switch (below(3)) {
	case 0:
		r = ioctl(st.fd[i], EDGE_IOC_KICK, below(2) ? 0 : interesting());
		check_errno("KICK", r, errno, E_INVAL);
		return;
	case 1:
		cmd = _IO(EDGE_IOC_MAGIC, 5 + below(250));
		break;
	default:
		cmd = (uint32_t)rnd();
		break;
	}
	if (cmd == EDGE_IOC_GET_INFO || cmd == EDGE_IOC_REGISTER_EVENT ||
	    cmd == EDGE_IOC_UNREGISTER_EVENT || cmd == EDGE_IOC_KICK ||
	    cmd == EDGE_IOC_SUBMIT_JOB || cmd == EDGE_IOC_REAP_JOBS)
		return;
	/* Generic file ioctls (FIONBIO, FIOCLEX, ...) may succeed. */
	r = ioctl(st.fd[i], cmd, buf);
	check_errno("ioctl", r, errno, E_NOTTY | E_INVAL | E_FAULT);
}

static void op_mmap(void)
{
	int i = pick_fd(), kind = below(3), prot = PROT_READ | PROT_WRITE;
	int flags = MAP_SHARED;
	struct edge_register reg = { 0 };
	uint64_t off = 0;
	size_t len = page;
	void *p;

	if (i < 0 || st.nmap == MAX_MAPS)
		return;
	if (kind && st.nent) {
		struct ent *e = &st.ent[below(st.nent)];

		reg = e->reg;
		/* Mostly its own file; else another one (per-file offsets). */
		if (below(4))
			i = e->fdi;
		off = kind == 1 ? reg.sq.mmap_offset : reg.cq.mmap_offset;
		len = kind == 1 ? reg.sq.mmap_size : reg.cq.mmap_size;
	} else {
		kind = 0;
	}
	switch (below(10)) {
	case 0:
		off = interesting() & ~((uint64_t)page - 1);
		break;
	case 1:
		len = below(2) ? len + page : (size_t)interesting();
		break;
	case 2:
		prot |= PROT_EXEC;
		break;
	case 3:
		flags = MAP_PRIVATE;
		break;
	case 4:
		off += page * (1 + below(4));
		break;
	case 5:
		prot = PROT_READ;
		break;
	default:
		break;
	}
	p = mmap(NULL, len, prot, flags, st.fd[i], off);
	check_errno("mmap", p == MAP_FAILED ? -1 : 0, errno,
		    E_INVAL | E_PERM | E_NOMEM | E_ACCES | E_OVERFLOW);
	if (p == MAP_FAILED)
		return;
	__atomic_add_fetch(&sh->mapped_ok, 1, __ATOMIC_RELAXED);
	st.map[st.nmap].addr = p;
	st.map[st.nmap].len = len;
	/* What it really is: the offset decides, whatever we meant. */
	if (off == 0) {
		st.map[st.nmap].kind = 0;
		st.map[st.nmap].fdn = st.fd[i];
	} else if (kind && off == (kind == 1 ? reg.sq.mmap_offset :
				   reg.cq.mmap_offset)) {
		st.map[st.nmap].kind = kind;
		st.map[st.nmap].reg = reg;
	} else {
		/* Some other ring of that file: do not write into it. */
		st.map[st.nmap].kind = -1;
	}
	if (!(prot & PROT_WRITE))
		st.map[st.nmap].kind = -1;
	st.nmap++;
}

static void op_munmap(void)
{
	int m, r;

	if (!st.nmap)
		return;
	m = below(st.nmap);
	r = munmap(st.map[m].addr, st.map[m].len);
	check_errno("munmap", r, errno, 0);
	st.map[m] = st.map[--st.nmap];
}

/* Growing a ring mapping must fail (VM_DONTEXPAND); moving it may work. */
static void op_mremap(void)
{
	int m;
	void *p;

	if (!st.nmap)
		return;
	m = below(st.nmap);
	p = mremap(st.map[m].addr, st.map[m].len, st.map[m].len + page,
		   MREMAP_MAYMOVE);
	note_call();
	if (p != MAP_FAILED) {
		check_errno("mremap grew a ring mapping", -1, 0, 0);
		st.map[m].addr = p;
		st.map[m].len += page;
	}
}

/* Hostile producers: random doorbell tails, ring words, CQ heads. */
static void op_write_shared(void)
{
	struct map *m;
	uint32_t *w;
	size_t words;

	if (!st.nmap)
		return;
	m = &st.map[below(st.nmap)];
	if (m->kind < 0)
		return;
	words = m->len / 4;
	w = m->addr;
	switch (below(3)) {
	case 0:
		/* A tail: small steps mostly, sometimes anything. */
		if (m->kind == 0) {
			uint32_t k = below(EKT_ENTRIES);
			int e;

			/* Mostly the doorbell of one of this file's entries. */
			for (e = 0; e < st.nent && below(4); e++)
				if (st.ent[e].fdn == m->fdn) {
					k = st.ent[e].reg.id % EKT_ENTRIES;
					break;
				}

			__atomic_store_n(&w[k], below(4) ? w[k] + below(8) :
					 (uint32_t)interesting(), __ATOMIC_SEQ_CST);
		} else {
			w[below(words)] = (uint32_t)rnd();
		}
		break;
	case 1:
		w[below(words)] = (uint32_t)interesting();
		break;
	default:
		/* Read something back: the mapping is alive. */
		(void)__atomic_load_n(&w[below(words)], __ATOMIC_ACQUIRE);
		break;
	}
	note_call();
	if (m->kind == 0 && st.nfd && below(2)) {
		/* Called first: an argument's errno may be read before it. */
		long r = ioctl(st.fd[pick_fd()], EDGE_IOC_KICK, 0);

		check_errno("KICK", r, errno, 0);
	}
}

static void op_poll(void)
{
	struct pollfd p[MAX_FDS];
	int i;

	for (i = 0; i < st.nfd; i++) {
		p[i].fd = st.fd[i];
		p[i].events = POLLIN;
	}
	check_errno("poll", poll(p, st.nfd, 0) < 0 ? -1 : 0, errno, 0);
}

/* Random attributes at @p (room @room); nested ones at depth < 2. */
static size_t nl_rand_attrs(uint8_t *p, size_t room, int depth)
{
	size_t off = 0;
	uint32_t n = below(7), i;

	/*
	 * Mostly the attributes requests take, so that some get through
	 * (each set numbers its own: a number names one of each).
	 */
	static const uint16_t inputs[] = {
		EDGE_A_DEV_INDEX, EDGE_A_DEV_INDEX, EDGE_A_DEV_PRESET,
		EDGE_A_DEV_TIME_MODE, EDGE_A_DEV_POLL_IDLE_US, EDGE_A_DEV_TIME_SCALE_PCT,
		EDGE_A_DEV_CPU, EDGE_A_PLACE_MEM, EDGE_A_PLACE_THREADS,
		EDGE_A_PLACE_BLOCKS, EDGE_A_PLACE_POLICY, EDGE_A_PLACE_ID,
	};

	if (!depth && below(2))
		n = below(3);
	for (i = 0; i < n && off + NLA_HDRLEN + 8 <= room; i++) {
		struct nlattr *a = (void *)(p + off);
		uint32_t len = below(4) ? below(3) * 4 : below(41);

		if (off + NLA_HDRLEN + len > room)
			break;
		a->nla_type = below(4) ? inputs[below(ARRAY_SIZE(inputs))] :
					 below(EDGE_A_STATS_MAX + 4);
		if (below(4))
			len = a->nla_type == EDGE_A_PLACE_MEM ||
			      a->nla_type == EDGE_A_PLACE_ID ? 8 : 4;
		for (uint32_t j = 0; j < len; j++)
			p[off + NLA_HDRLEN + j] = below(3) ? 0 : (uint8_t)rnd();
		if (len == 4 && below(2))	/* a small number */
			p[off + NLA_HDRLEN] = below(8);
		if (depth < 2 && !below(6)) {
			a->nla_type |= NLA_F_NESTED;
			len = nl_rand_attrs(p + off + NLA_HDRLEN,
					    room - off - NLA_HDRLEN, depth + 1);
		}
		a->nla_len = NLA_HDRLEN + len;
		/* Sometimes a length that lies. */
		if (!below(16))
			a->nla_len = below(2) ? below(NLA_HDRLEN) :
				     (uint16_t)(a->nla_len + 4 + below(64));
		off += NLA_ALIGN(NLA_HDRLEN + len);
	}
	return off;
}

/* Never remove or retune edge0: rewrite index 0 of del and set. */
static void nl_spare_edge0(struct enl_msg *m, uint8_t cmd)
{
	uint8_t *p = (uint8_t *)NLMSG_DATA(&m->nlh) + GENL_HDRLEN;
	int len = m->nlh.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	struct nlattr *a = (void *)p;

	if (cmd != EDGE_CMD_DEV_DEL && cmd != EDGE_CMD_DEV_SET)
		return;
	/* Either the first index names another device, or none is sent. */
	enl_put_u32(m, EDGE_A_DEV_INDEX, 1 + below(70));
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == EDGE_A_DEV_INDEX)
			a->nla_type = EDGE_A_DEV_MAX + 1;	/* unknown: EINVAL */
		len -= NLA_ALIGN(a->nla_len);
		a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

static void op_netlink(void)
{
	struct enl_msg m;
	/* Mostly version 2's commands, which start at EDGE_CMD_DEV_GET. */
	uint8_t cmd = below(4) ? EDGE_CMD_DEV_GET +
				 below(EDGE_CMD_MAX - EDGE_CMD_DEV_GET + 1) :
				 below(256);
	size_t room;
	int ret;

	if (!st.nl_open) {
		struct timeval tv = { 1, 0 };

		if (enl_open(&st.nl))
			return;
		setsockopt(st.nl.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		st.nl_open = true;
	}
	enl_msg(&st.nl, &m, cmd, below(3) ? 0 : NLM_F_DUMP);
	room = sizeof(m.buf) - m.nlh.nlmsg_len - 64;
	m.nlh.nlmsg_len += nl_rand_attrs((uint8_t *)m.buf + m.nlh.nlmsg_len,
					 room < 512 ? room : 512, 0);
	nl_spare_edge0(&m, cmd);
	/* Sometimes a message header that lies about its length. */
	if (!below(32))
		m.nlh.nlmsg_len -= below(m.nlh.nlmsg_len - NLMSG_HDRLEN + 1);
	ret = enl_do(&st.nl, &m, NULL, NULL);
	note_call();
	__atomic_add_fetch(&sh->nl_calls, 1, __ATOMIC_RELAXED);
	if (!ret)
		__atomic_add_fetch(&sh->nl_ok, 1, __ATOMIC_RELAXED);
	switch (-ret) {
	case 0: case EINVAL: case ERANGE: case EOPNOTSUPP: case ENODEV:
	case EEXIST: case ENOSPC: case ENOMEM: case EMSGSIZE: case ENOBUFS:
	case EAGAIN: case EPERM:
	/* place: no device has room; place-release: not this socket's. */
	case EBUSY: case ENOENT:
		break;
	default:
		if (__atomic_fetch_add(&sh->bad_errno, 1, __ATOMIC_RELAXED) == 0)
			snprintf(sh->first_bad, sizeof(sh->first_bad),
				 "netlink cmd %u: %s (%d)", cmd, strerror(-ret),
				 ret);
	}
	/* A time-out leaves replies behind: start over with a new socket. */
	if (ret == -EAGAIN) {
		enl_close(&st.nl);
		st.nl_open = false;
	}
}

static void run_calls(unsigned long n);

static void op_fork(void)
{
	pid_t pid;
	int s;

	if (st.forked)
		return;
	pid = fork();
	if (pid < 0) {
		check_errno("fork", -1, errno, E_NOMEM);
		return;
	}
	if (!pid) {
		/* Mappings are not inherited (VM_DONTCOPY); the fds are. */
		st.nmap = 0;
		st.forked = true;
		rng ^= getpid();
		run_calls(FORK_CALLS);
		_exit(0);
	}
	note_call();
	while (waitpid(pid, &s, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(s) || WEXITSTATUS(s))
		check_errno("forked child died", -1, 0, 0);
}

static void run_calls(unsigned long n)
{
	static void (*const ops[])(void) = {
		op_open, op_close, op_get_info, op_register, op_register,
		op_register, op_unregister, op_unregister, op_ioctl_other,
		op_mmap, op_mmap, op_mmap, op_munmap, op_munmap, op_mremap,
		op_write_shared, op_write_shared, op_write_shared, op_poll,
		op_fork, op_submit_job, op_submit_job, op_reap_jobs,
		op_netlink, op_netlink,
	};
	unsigned long end = __atomic_load_n(&sh->calls, __ATOMIC_RELAXED) + n;
	unsigned long mine = 0;

	while (mine++ < n * 4 &&
	       __atomic_load_n(&sh->calls, __ATOMIC_RELAXED) < budget) {
		unsigned int k = below(ARRAY_SIZE(ops));

		/* fork is rare: it is slow under TCG. */
		if (ops[k] == op_fork && below(16))
			continue;
		ops[k]();
		if (st.forked && __atomic_load_n(&sh->calls, __ATOMIC_RELAXED) >= end)
			break;
	}
}

/*
 * EDGE_FUZZ_UNPLUG: delete edge0 and add it back until the fuzzers are
 * done.  Returns the rounds; an add or del that fails is a failed run.
 */
static int unplug_loop(const pid_t *pids, int *unbalanced)
{
	struct enl nl, mon;
	struct enl_reply r, st;
	int rounds = 0, i, live, ret;

	if (enl_open(&nl) || enl_open(&mon) || enl_subscribe(&mon))
		return -1;
	do {
		usleep(5000 + below(20000));
		/* A fuzzer's own random dev add may have taken index 0. */
		ret = enl_dev_del(&nl, 0);
		/* Its last word: every event it took has one outcome. */
		while (!ret && !(ret = enl_next_ntf(&mon, &r, 5000)) &&
		       (r.cmd != EDGE_CMD_DEV_DEL_NTF ||
			enl_u32(&r, EDGE_A_DEV_INDEX)))
			;
		enl_final(&r, &st);
		if (!ret &&
		    (enl_u64(&st, EDGE_A_STATS_SUBMITTED) !=
		     enl_u64(&st, EDGE_A_STATS_COMPLETED) +
		     enl_u64(&st, EDGE_A_STATS_ERRORS) +
		     enl_u64(&st, EDGE_A_STATS_REJECTED) +
		     enl_u64(&st, EDGE_A_STATS_CANCELLED) ||
		     enl_u32(&st, EDGE_A_STATS_INFLIGHT)))
			++*unbalanced;
		if (!ret)
			ret = enl_dev_add(&nl, 0, -1, -1);
		if (ret && ret != -EEXIST) {
			ksft_print_msg("unplug round %d: %s\n", rounds,
				       strerror(-ret));
			rounds = -1;
			break;
		}
		rounds++;
		for (live = 0, i = 0; i < NPROC; i++) {
			siginfo_t si = {};

			if (!waitid(P_PID, pids[i], &si,
				    WEXITED | WNOHANG | WNOWAIT) && !si.si_pid)
				live++;
		}
	} while (live);
	enl_close(&mon);
	enl_close(&nl);
	return rounds;
}

static void child(int idx, uint64_t seed, unsigned long n)
{
	memset(&st, 0, sizeof(st));
	rng = seed * 0x9e3779b97f4a7c15ULL + idx + 1;
	st.edge_page = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st.edge_page == MAP_FAILED)
		_exit(2);
	munmap(st.edge_page + page, page);
	if (getenv("EDGE_FUZZ_NOBODY") &&
	    (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
		_exit(2);
	op_open();
	run_calls(n);
	_exit(0);
}

int main(void)
{
	unsigned long calls = 40000;
	long long sub, done, rej, canc, err;
	const char *s;
	uint64_t seed;
	pid_t pids[NPROC];
	int i, ret, died = 0, unplug_rounds = 0, unbalanced = 0;

	ksft_print_header();
	atexit(edge_selftest_atexit);
	page = sysconf(_SC_PAGESIZE);
	s = getenv("EDGE_FUZZ_CALLS");
	if (s && *s)
		calls = strtoul(s, NULL, 0);
	s = getenv("EDGE_FUZZ_UNPLUG");
	unplug_mode = s && *s == '1';
	s = getenv("EDGE_FUZZ_SEED");
	seed = s && *s ? strtoull(s, NULL, 0) : (uint64_t)now_ns();
	if (geteuid())
		ksft_exit_skip("loading edge.ko needs root\n");
	ksft_set_plan(5);
	ksft_print_msg("seed %llu (EDGE_FUZZ_SEED=%llu replays), %lu calls, %d processes\n",
		       (unsigned long long)seed, (unsigned long long)seed,
		       calls, NPROC);
	ret = edge_module_load("");
	if (ret)
		ksft_exit_fail_msg("insmod: %s\n", strerror(-ret));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	budget = calls;
	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!pids[i])
			child(i, seed, calls);
	}
	if (unplug_mode)
		unplug_rounds = unplug_loop(pids, &unbalanced);
	for (i = 0; i < NPROC; i++) {
		int st_ = edge_reap(pids[i], 0);

		if (!WIFEXITED(st_) || WEXITSTATUS(st_)) {
			ksft_print_msg("process %d: status %#x\n", i, st_);
			died++;
		}
	}
	ksft_test_result(!died && unplug_rounds >= 0, "fuzz.processes_clean\n");
	if (unplug_mode)
		ksft_print_msg("edge0 deleted and added %d times, %d deletions unbalanced\n",
			       unplug_rounds, unbalanced);
	/* The processes stop at the budget: fewer calls is a short run. */
	ksft_test_result(sh->calls >= calls,
			 "fuzz.calls_made (%lu of %lu asked)\n", sh->calls,
			 calls);
	if (sh->bad_errno)
		ksft_print_msg("%lu unexpected results, first: %s\n",
			       sh->bad_errno, sh->first_bad);
	ksft_test_result(!sh->bad_errno, "fuzz.documented_errors (%lu registered, %lu mapped, %lu of %lu netlink messages accepted)\n",
			 sh->registered_ok, sh->mapped_ok, sh->nl_ok,
			 sh->nl_calls);

	/* Every file is gone: the table is empty, every event accounted. */
	sub = edge_sysfs_read(0, "submitted");
	done = edge_sysfs_read(0, "completed");
	rej = edge_sysfs_read(0, "rejected");
	canc = edge_sysfs_read(0, "cancelled");
	err = edge_sysfs_read(0, "errors");
	ksft_print_msg("submitted %lld completed %lld rejected %lld cancelled %lld errors %lld\n",
		       sub, done, rej, canc, err);
	ksft_print_msg("jobs: submitted %lld done %lld rejected %lld cancelled %lld\n",
		       edge_sysfs_read(0, "jobs_submitted"),
		       edge_sysfs_read(0, "jobs_done"),
		       edge_sysfs_read(0, "jobs_rejected"),
		       edge_sysfs_read(0, "jobs_cancelled"));
	ksft_test_result(!unbalanced && sub >= 0 && sub == done + rej + canc + err &&
			 edge_sysfs_read(0, "registered") == 0 &&
			 edge_sysfs_read(0, "inflight") == 0 &&
			 edge_sysfs_read(0, "jobs_submitted") ==
			 edge_sysfs_read(0, "jobs_done") +
			 edge_sysfs_read(0, "jobs_rejected") +
			 edge_sysfs_read(0, "jobs_cancelled"),
			 "fuzz.counters_balance\n");
	ret = edge_module_unload(5000);
	ksft_test_result(!ret && !edge_module_loaded(), "fuzz.rmmod\n");
	printf("guest_fuzz_calls=%lu\n", sh->calls);
	fflush(stdout);
	ksft_finished();
}

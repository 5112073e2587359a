/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the suites that drive edge_nicsim.ko, the sample NIC driver
 * of the in-kernel API ($EDGE_NICSIM_KO, default /edge/edge_nicsim.ko):
 * load and unload it, read and write /sys/kernel/edge_nicsim/.
 *
 * Include after edge_selftest.h.
 */
#ifndef _EDGE_NICSIM_H
#define _EDGE_NICSIM_H

#define NICSIM_SYSFS	"/sys/kernel/edge_nicsim"

static inline const char *nicsim_ko_path(void)
{
	const char *p = getenv("EDGE_NICSIM_KO");

	return p && *p ? p : "/edge/edge_nicsim.ko";
}

static inline int nicsim_loaded(void)
{
	return !access(NICSIM_SYSFS, F_OK);
}

/* rmmod edge_nicsim: 0, or -errno (ENOENT when not loaded). */
static inline int nicsim_unload(void)
{
	if (syscall(__NR_delete_module, "edge_nicsim", O_NONBLOCK))
		return -errno;
	return 0;
}

static inline int nicsim_load(const char *params)
{
	int fd, ret;

	fd = open(nicsim_ko_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

static inline long long nicsim_read(const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), NICSIM_SYSFS "/%s", attr);
	return edge_path_read(path);
}

static inline int nicsim_write(const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), NICSIM_SYSFS "/%s", attr);
	return edge_path_write(path, val);
}

/* Stop the source and wait until every packet sent was reaped. */
static inline int nicsim_stop_drain(unsigned int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	int ret = nicsim_write("running", "0");

	if (ret)
		return ret;
	while (nicsim_read("inflight") != 0) {
		if (now_ns() > end)
			return -ETIME;
		sleep_ms(5);
	}
	return 0;
}

/* Every packet sent has exactly one outcome, every one made is counted. */
struct nicsim_counts {
	long long generated, sent, drop_ring_full, drop_overrun, completed,
		  verified, bad_output, errors, cancelled;
};

static inline void nicsim_counts(struct nicsim_counts *c)
{
	c->generated = nicsim_read("generated");
	c->sent = nicsim_read("sent");
	c->drop_ring_full = nicsim_read("drop_ring_full");
	c->drop_overrun = nicsim_read("drop_overrun");
	c->completed = nicsim_read("completed");
	c->verified = nicsim_read("verified");
	c->bad_output = nicsim_read("bad_output");
	c->errors = nicsim_read("errors");
	c->cancelled = nicsim_read("cancelled");
}

/* Fixture set-up: edge.ko with @eparams, no nicsim left from before. */
#define NICSIM_SETUP(eparams) do {					\
	nicsim_unload();						\
	EDGE_SETUP_LOAD(eparams);					\
} while (0)

#define NICSIM_TEARDOWN() do {						\
	nicsim_unload();						\
	edge_module_unload(3000);					\
} while (0)

#endif /* _EDGE_NICSIM_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge_netrx.ko for the suites: its module, its sysfs files and the test
 * network of tools/vm/netrx-net.sh (the server nr0, SRV_IP, in the
 * initial namespace; the client behind CLI).
 */
#ifndef _EDGE_NETRX_H
#define _EDGE_NETRX_H

#include "edge_selftest.h"

#define NR_SYSFS	"/sys/kernel/edge_netrx"
#define NET		"/edge/netrx-net.sh"
#define CLI		NET " cli "
#define SRV_IP		"198.18.0.1"
#define IGNORE_PINGS	"/proc/sys/net/ipv4/icmp_echo_ignore_all"

static inline const char *netrx_ko(void)
{
	const char *p = getenv("EDGE_NETRX_KO");

	return p && *p ? p : "/edge/edge_netrx.ko";
}

static inline int netrx_load(const char *params)
{
	int fd = open(netrx_ko(), O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

static inline int netrx_unload(void)
{
	return syscall(__NR_delete_module, "edge_netrx", O_NONBLOCK) ? -errno : 0;
}

static inline long long nr_read(const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), NR_SYSFS "/%s", attr);
	return edge_path_read(path);
}

/*
 * A counter the completion raises after it has sent the answer: the
 * client can hold the answer before the count moves (seen on veth, where
 * the reply is delivered inside dev_queue_xmit()).  Read it until it is
 * @want, for up to two seconds; return what it last held.
 */
static inline long long nr_read_until(const char *attr, long long want)
{
	long long v = nr_read(attr);
	int i;

	for (i = 0; v != want && i < 200; i++) {
		usleep(10000);
		v = nr_read(attr);
	}
	return v;
}

static inline int nr_write(const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), NR_SYSFS "/%s", attr);
	return edge_path_write(path, val);
}

/*
 * Wait until "received" holds still for @hold_ms with nothing in flight:
 * frames of a flood that has ended may still sit in the stack's backlog
 * (the debug kernel, or a loaded host, is slow to drain a burst), and
 * would move the counters between one read and the next.  Returns 0, or
 * -ETIMEDOUT when frames or events keep coming for @max_ms.
 */
static inline int nr_quiesce(unsigned int hold_ms, unsigned int max_ms)
{
	uint64_t end = now_ns() + (uint64_t)max_ms * 1000000ULL;
	long long rx = -1, r;

	for (;;) {
		r = nr_read("received");
		if (r == rx && nr_read("inflight") == 0)
			return 0;
		if (now_ns() > end)
			return -ETIMEDOUT;
		rx = r;
		sleep_ms(hold_ms);
	}
}

#endif /* _EDGE_NETRX_H */

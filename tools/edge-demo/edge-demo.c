// SPDX-License-Identifier: GPL-2.0
/*
 * edge-demo: what a new user of /dev/edge0 does first.
 *
 * Registers one event kernel, then launches 1,000 events one by one by
 * writing a parameter entry and ringing the doorbell, and reports the
 * device's limits and the per-event latency from doorbell to completion.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libedge.h"

#define EVENTS		1000
#define SPIN_NS		200000ULL	/* spin this long before poll() */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(const uint64_t *sorted, size_t n, unsigned int p)
{
	size_t i = (n * p + 99) / 100;

	return sorted[i ? i - 1 : 0];
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/edge0";
	static uint64_t lat[EVENTS];
	struct edge_register reg;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe cqe;
	unsigned int i, ok = 0, bad = 0;
	uint64_t t0, t1, kicks;
	int ret;

	ret = edge_open(&d, path);
	if (ret) {
		fprintf(stderr, "edge-demo: open %s: %s\n", path, strerror(-ret));
		return 1;
	}
	printf("device %s: abi %u, preset %s, %u cores at %u MHz, warp %u, %s time\n",
	       path, d.info.abi_version, d.info.preset, d.info.num_cores,
	       d.info.clock_khz / 1000, d.info.warp_size,
	       d.info.time_mode == EDGE_TIME_VIRTUAL ? "virtual" : "real");
	printf("limits: %u event kernels, ring <= %u entries, param <= %u B, block <= %u threads, smem <= %u B, priority 0-%u\n",
	       d.info.ekt_entries, d.info.max_ring_entries,
	       d.info.max_param_size, d.info.max_block_threads,
	       d.info.max_smem_per_block, d.info.prio_max);
	printf("front end: polls %u us after work, then sleeps (NEED_WAKEUP)\n",
	       d.info.poll_idle_us);

	/* IPv4 forwarding's single warp runs ~2300 cycles in EDGE (Sec. VI). */
	edge_register_init(&reg, EDGE_FN_ECHO, 64, 64, 2300);
	ret = edge_queue_create(&d, &reg, &q);
	if (ret) {
		fprintf(stderr, "edge-demo: register: %s\n", strerror(-ret));
		return 1;
	}
	printf("registered event kernel %u: doorbell +%u, %u x %u B parameter ring\n",
	       q.id, reg.doorbell, q.entries, q.param_size);

	t0 = now_ns();
	for (i = 0; i < EVENTS; i++) {
		uint32_t *param = edge_queue_param(&q);
		uint64_t start, spin_end;

		param[0] = i;
		start = now_ns();
		edge_queue_submit(&q, 1);
		spin_end = start + SPIN_NS;
		while (!edge_queue_peek(&q, &cqe) && now_ns() < spin_end)
			;
		if (!edge_queue_peek(&q, &cqe)) {
			ret = edge_queue_wait(&q, &cqe, 5000);
			if (ret) {
				fprintf(stderr, "edge-demo: event %u: %s\n", i,
					strerror(-ret));
				return 1;
			}
		}
		lat[i] = now_ns() - start;
		if (EDGE_CQE_CODE(cqe.status) == EDGE_CQE_DONE && cqe.res == i)
			ok++;
		else
			bad++;
		edge_queue_cqe_seen(&q);
	}
	t1 = now_ns();

	qsort(lat, EVENTS, sizeof(lat[0]), cmp_u64);
	printf("latency doorbell->completion: p50 %.1f us, p99 %.1f us, max %.1f us (modelled run %.1f us)\n",
	       pct(lat, EVENTS, 50) / 1e3, pct(lat, EVENTS, 99) / 1e3,
	       lat[EVENTS - 1] / 1e3, 2300 * 1e3 / d.info.clock_khz);
	kicks = q.kicks;
	ret = edge_queue_destroy(&q);
	if (ret)
		fprintf(stderr, "edge-demo: unregister: %s\n", strerror(-ret));
	printf("demo: events=%u completed=%u wrong=%u kicks=%llu p50_us=%.1f p99_us=%.1f events_per_s=%.0f %s\n",
	       EVENTS, ok, bad, (unsigned long long)kicks,
	       pct(lat, EVENTS, 50) / 1e3, pct(lat, EVENTS, 99) / 1e3,
	       EVENTS * 1e9 / (t1 - t0), ok == EVENTS && !ret ? "OK" : "FAILED");
	edge_close(&d);
	return ok == EVENTS && !ret ? 0 : 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * netrx: the guest-side helpers of edge_netrx.ko's tests, demo and
 * benchmark (tools/vm/netrx-net.sh, selftests/edge/edge_netrx_test.c,
 * tools/vm/netrx-bench.sh).
 *
 *   netrx veth NAME PEER PID     a veth pair, PEER in PID's network
 *                                namespace (libnl-route: busybox's ip
 *                                cannot make one)
 *   netrx ping ADDR COUNT SIZE INTERVAL_US
 *                                ICMP echo over a raw socket, one at a
 *                                time: every reply's id, sequence and
 *                                payload checked against its request
 *   netrx udp ADDR PORT COUNT SIZE INTERVAL_US
 *                                the same over UDP (an echo service)
 *   netrx flood icmp|udp ADDR PORT RATE SECS SIZE
 *                                a sender that paces itself at RATE/s,
 *                                a receiver that counts the answers
 *   netrx udpecho PORT SECS      a user-space UDP echo server (the CPU
 *                                path the benchmark compares with)
 *   netrx busy SECS WARP_CYCLES  keep /dev/edge0's cores full with a
 *                                background kernel for SECS
 *   netrx memcset sysfs|udp ADDR PORT NKEYS
 *                                NKEYS SETs of memc_key(i) to
 *                                memc_value(i): through edge_netrx's
 *                                sysfs memc_set (ADDR, PORT unused) or as
 *                                memcached UDP "set"s (answer STORED)
 *   netrx memc ADDR PORT COUNT NKEYS INTERVAL_US
 *                                memcached UDP GETs of one key each, one
 *                                at a time, keys 0..NKEYS-1 in turn: the
 *                                frame header and "VALUE key 0 2" with
 *                                the key's value checked
 *   netrx memcflood ADDR PORT RATE SECS NKEYS
 *                                flood's pacing with those GETs; a
 *                                receiver checks and counts the answers
 *
 * ping/udp/memc print name=value lines: sent, received, bad (a reply that
 * was not its request's echo, or not the key's value), rtt_p50_ns,
 * rtt_p99_ns, rtt_max_ns; flood prints sent, received, lost, pps;
 * memcflood also bad (pps counts good answers only); memcset sets, bad,
 * ms (the time the SETs took).
 * Exit 1 when a reply was wrong or missing (ping, udp, memc, memcset) or
 * wrong (memcflood), 2 on usage or system errors.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include "libedge.h"

#define MAX_PAYLOAD	1472

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint16_t csum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t sum = 0;

	for (; n > 1; n -= 2, b += 2)
		sum += (uint32_t)b[0] << 8 | b[1];
	if (n)
		sum += (uint32_t)b[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(uint64_t *v, unsigned int n, unsigned int p)
{
	unsigned int i;

	if (!n)
		return 0;
	i = (unsigned int)(((uint64_t)n * p + 99) / 100);
	return v[i ? i - 1 : 0];
}

static void fill(uint8_t *p, unsigned int n, unsigned int seq)
{
	uint32_t x = seq * 2654435761U + 1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static struct sockaddr_in addr_of(const char *a, unsigned int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };

	if (inet_pton(AF_INET, a, &sa.sin_addr) != 1) {
		fprintf(stderr, "netrx: bad address %s\n", a);
		exit(2);
	}
	return sa;
}

static int cmd_veth(char **av)
{
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	if (!sk || nl_connect(sk, NETLINK_ROUTE))
		die("netlink");
	err = rtnl_link_veth_add(sk, av[0], av[1], (pid_t)atoi(av[2]));
	nl_socket_free(sk);
	if (err < 0) {
		fprintf(stderr, "netrx: veth %s/%s: %s\n", av[0], av[1],
			nl_geterror(err));
		return 2;
	}
	return 0;
}

/* An echo request of @size payload bytes: id, @seq, payload from @seq. */
static size_t make_echo(uint8_t *buf, uint16_t id, uint16_t seq,
			unsigned int size)
{
	struct icmphdr *ih = (void *)buf;

	memset(ih, 0, sizeof(*ih));
	ih->type = ICMP_ECHO;
	ih->un.echo.id = htons(id);
	ih->un.echo.sequence = htons(seq);
	fill(buf + sizeof(*ih), size, seq);
	ih->checksum = csum(buf, sizeof(*ih) + size);
	return sizeof(*ih) + size;
}

/*
 * A raw ICMP socket's datagram (IP header first) that is the reply to
 * echo @seq: 1 when it is, byte for byte; 0 when it is another packet
 * (not ours, an old sequence); -1 when it is ours and wrong.
 */
static int check_echo(const uint8_t *pkt, ssize_t n, uint16_t id,
		      uint16_t seq, unsigned int size, uint8_t *want)
{
	const struct iphdr *iph = (const void *)pkt;
	const struct icmphdr *ih;
	size_t hlen;

	if (n < (ssize_t)sizeof(*iph))
		return 0;
	hlen = iph->ihl * 4;
	if (n < (ssize_t)(hlen + sizeof(*ih)))
		return 0;
	ih = (const void *)(pkt + hlen);
	if (ih->type != ICMP_ECHOREPLY || ntohs(ih->un.echo.id) != id)
		return 0;
	if (ntohs(ih->un.echo.sequence) != seq)
		return 0;
	fill(want, size, seq);
	if ((size_t)n != hlen + sizeof(*ih) + size || ih->code ||
	    memcmp(ih + 1, want, size) || csum(ih, sizeof(*ih) + size) ||
	    csum(iph, hlen))
		return -1;
	return 1;
}

static int report(const char *pfx, unsigned int sent, unsigned int got,
		  unsigned int bad, uint64_t *rtt)
{
	qsort(rtt, got, sizeof(*rtt), cmp_u64);
	printf("%ssent=%u\n%sreceived=%u\n%sbad=%u\n", pfx, sent, pfx, got,
	       pfx, bad);
	printf("%srtt_p50_ns=%llu\n%srtt_p99_ns=%llu\n%srtt_max_ns=%llu\n",
	       pfx, (unsigned long long)pct(rtt, got, 50), pfx,
	       (unsigned long long)pct(rtt, got, 99), pfx,
	       (unsigned long long)(got ? rtt[got - 1] : 0));
	return bad || got != sent;
}

/* Wait up to 1 s for a datagram; its length, or -1 on time-out. */
static ssize_t recv_wait(int fd, uint8_t *buf, size_t len, uint64_t end)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t t;

	while ((t = now_ns()) < end) {
		int r = poll(&pfd, 1, (int)((end - t) / 1000000 + 1));

		if (r < 0 && errno != EINTR)
			die("poll");
		if (r > 0)
			return recv(fd, buf, len, 0);
	}
	return -1;
}

static void pause_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	if (us)
		nanosleep(&ts, NULL);
}

static int cmd_ping(char **av)
{
	struct sockaddr_in sa = addr_of(av[0], 0);
	unsigned int count = atoi(av[1]), size = atoi(av[2]);
	unsigned int gap = atoi(av[3]), i, got = 0, bad = 0;
	uint16_t id = (uint16_t)getpid();
	uint8_t out[2048], in[2048], want[2048];
	uint64_t *rtt = calloc(count + 1, sizeof(*rtt));
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (fd < 0 || !rtt)
		die("socket");
	if (size > MAX_PAYLOAD)
		size = MAX_PAYLOAD;
	for (i = 0; i < count; i++) {
		size_t n = make_echo(out, id, (uint16_t)i, size);
		uint64_t t0 = now_ns(), end = t0 + 1000000000ULL;

		if (sendto(fd, out, n, 0, (void *)&sa, sizeof(sa)) != (ssize_t)n)
			die("sendto");
		for (;;) {
			ssize_t r = recv_wait(fd, in, sizeof(in), end);
			int c;

			if (r < 0)
				break;
			c = check_echo(in, r, id, (uint16_t)i, size, want);
			if (c > 0) {
				rtt[got++] = now_ns() - t0;
				break;
			}
			if (c < 0) {
				bad++;
				break;
			}
		}
		pause_us(gap);
	}
	close(fd);
	return report("", count, got, bad, rtt);
}

static int cmd_udp(char **av)
{
	struct sockaddr_in sa = addr_of(av[0], atoi(av[1]));
	unsigned int count = atoi(av[2]), size = atoi(av[3]);
	unsigned int gap = atoi(av[4]), i, got = 0, bad = 0;
	uint8_t out[2048], in[2048];
	uint64_t *rtt = calloc(count + 1, sizeof(*rtt));
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || !rtt || connect(fd, (void *)&sa, sizeof(sa)))
		die("udp socket");
	if (size < 4)
		size = 4;
	if (size > MAX_PAYLOAD)
		size = MAX_PAYLOAD;
	for (i = 0; i < count; i++) {
		uint64_t t0 = now_ns(), end = t0 + 1000000000ULL;

		fill(out, size, i);
		memcpy(out, &i, 4);
		if (send(fd, out, size, 0) != (ssize_t)size)
			die("send");
		for (;;) {
			ssize_t r = recv_wait(fd, in, sizeof(in), end);
			unsigned int s;

			if (r < 0)
				break;
			memcpy(&s, in, 4);
			if (r >= 4 && s != i)
				continue;	/* a late answer */
			if (r != (ssize_t)size || memcmp(in, out, size))
				bad++;
			else
				rtt[got++] = now_ns() - t0;
			break;
		}
		pause_us(gap);
	}
	close(fd);
	return report("", count, got, bad, rtt);
}

struct flood {
	int fd;
	bool icmp;
	uint16_t id;
	volatile bool stop;
	unsigned long received;
};

static void *flood_rx(void *arg)
{
	struct flood *f = arg;
	uint8_t in[2048];

	while (!f->stop) {
		struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, 50) <= 0)
			continue;
		r = recv(f->fd, in, sizeof(in), MSG_DONTWAIT);
		if (r <= 0)
			continue;
		if (f->icmp) {
			const struct iphdr *iph = (const void *)in;
			const struct icmphdr *ih;

			if (r < (ssize_t)(iph->ihl * 4 + sizeof(*ih)))
				continue;
			ih = (const void *)(in + iph->ihl * 4);
			if (ih->type != ICMP_ECHOREPLY ||
			    ntohs(ih->un.echo.id) != f->id)
				continue;
		}
		f->received++;
	}
	return NULL;
}

/*
 * Paced: every millisecond, the packets due by now are sent (a sender
 * that falls behind catches up in bursts, as a NIC's would), and never
 * after SECS: on veth the receiver's whole path runs inside each
 * sendto(), so on a slow kernel one catch-up burst could be a minute of
 * sends past the end (the debug guest's flood tests timed out on it).
 * Answers are counted until 300 ms after the last send.
 */
static int cmd_flood(char **av)
{
	struct flood f = { .icmp = !strcmp(av[0], "icmp") };
	struct sockaddr_in sa = addr_of(av[1], atoi(av[2]));
	unsigned long rate = strtoul(av[3], NULL, 0), sent = 0, due;
	double secs = atof(av[4]);
	unsigned int size = atoi(av[5]);
	uint8_t out[2048];
	uint64_t t0, end, t;
	pthread_t th;
	size_t n;

	if (size > MAX_PAYLOAD)
		size = MAX_PAYLOAD;
	f.id = (uint16_t)getpid();
	f.fd = f.icmp ? socket(AF_INET, SOCK_RAW, IPPROTO_ICMP) :
			socket(AF_INET, SOCK_DGRAM, 0);
	if (f.fd < 0 || (!f.icmp && connect(f.fd, (void *)&sa, sizeof(sa))))
		die("flood socket");
	if (pthread_create(&th, NULL, flood_rx, &f))
		die("pthread_create");
	n = f.icmp ? make_echo(out, f.id, 0, size) : size;
	if (!f.icmp)
		fill(out, size, 1);
	t0 = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while ((t = now_ns()) < end) {
		due = (unsigned long)((double)(t - t0) * rate / 1e9);
		while (sent < due && (sent % 16 || now_ns() < end)) {
			if (f.icmp) {
				struct icmphdr *ih = (void *)out;

				ih->un.echo.sequence = htons((uint16_t)sent);
				ih->checksum = 0;
				ih->checksum = csum(out, n);
			}
			if (sendto(f.fd, out, n, 0, (void *)&sa,
				   sizeof(sa)) < 0 && errno != ENOBUFS &&
			    errno != EAGAIN && errno != ECONNREFUSED)
				die("sendto");
			sent++;
		}
		pause_us(1000);
	}
	pause_us(300000);
	f.stop = true;
	pthread_join(th, NULL);
	printf("sent=%lu\nreceived=%lu\nlost=%lu\npps=%lu\n", sent,
	       f.received, sent > f.received ? sent - f.received : 0,
	       (unsigned long)(f.received / secs));
	return 0;
}

static int cmd_udpecho(char **av)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(atoi(av[0])) };
	uint64_t end = now_ns() + (uint64_t)(atof(av[1]) * 1e9);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	uint8_t buf[2048];

	if (fd < 0 || bind(fd, (void *)&sa, sizeof(sa)))
		die("udpecho bind");
	while (now_ns() < end) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		r = recvfrom(fd, buf, sizeof(buf), 0, (void *)&from, &fl);
		if (r >= 0)
			sendto(fd, buf, r, 0, (void *)&from, fl);
	}
	return 0;
}

/*
 * The background: 16 TBs of 1024 threads using 64 registers each, one
 * per core of the edge preset, whose register file (65536) it fills, so
 * no event warp finds room; two launches in flight so that the next one
 * waits in the queue when one ends; stalls that make a preemption's flush
 * cost something.  Few long TBs, as in the EDGE paper's case: with many
 * short ones, one ends somewhere every few microseconds and draining
 * costs little.
 */
static int cmd_busy(char **av)
{
	uint64_t end = now_ns() + (uint64_t)(atof(av[0]) * 1e9);
	struct edge_register r;
	struct edge_queue q;
	struct edge_dev d;
	struct edge_cqe cqe;
	unsigned long done = 0;

	if (edge_open(&d, "/dev/edge0"))
		die("/dev/edge0");
	edge_register_init(&r, EDGE_FN_NOP, 8, 4, strtoull(av[1], NULL, 0));
	r.grid_x = 16;
	r.block_x = 1024;
	r.regs_per_thread = 64;
	r.ws.rsd_pct = 10;
	r.ws.p_pipe = 600;
	r.ws.pipe_cycles = 40;
	r.ws.ibuf_insts = 2;
	r.ws.p_load = 700;
	r.ws.load_cycles = 1500;
	if (edge_queue_create(&d, &r, &q))
		die("busy: register");
	while (now_ns() < end) {
		while (edge_queue_inflight(&q) < 2) {
			*(uint32_t *)edge_queue_param(&q) = 0;
			edge_queue_submit(&q, 1);
		}
		if (edge_queue_wait(&q, &cqe, 100) == 0) {
			edge_queue_cqe_seen(&q);
			done++;
		}
	}
	while (edge_queue_inflight(&q)) {
		if (edge_queue_wait(&q, &cqe, 10000))
			break;
		edge_queue_cqe_seen(&q);
	}
	edge_queue_destroy(&q);
	edge_close(&d);
	printf("busy_kernels=%lu\n", done);
	return 0;
}

/*
 * MemC's table as the EDGE paper warms it: 16-byte keys, 2-byte values,
 * both printable and a function of the key's number, so that an answer
 * checks itself.
 */
#define MEMC_KEY	16
#define MEMC_FRAME	8

static void memc_key(char *k, unsigned int i)
{
	snprintf(k, MEMC_KEY + 1, "memc%012u", i);
}

static void memc_value(char *v, unsigned int i)
{
	v[0] = 'a' + i % 26;
	v[1] = 'A' + i / 26 % 26;
	v[2] = 0;
}

/* memcached's UDP frame header: request @id, sequence 0 of 1. */
static void memc_frame(uint8_t *p, uint16_t id)
{
	static const uint8_t rest[6] = { 0, 0, 0, 1, 0, 0 };

	p[0] = id >> 8;
	p[1] = id & 0xff;
	memcpy(p + 2, rest, sizeof(rest));
}

static size_t memc_get(uint8_t *p, uint16_t id, unsigned int i)
{
	char k[MEMC_KEY + 1];

	memc_frame(p, id);
	memc_key(k, i);
	return MEMC_FRAME + sprintf((char *)p + MEMC_FRAME, "get %s\r\n", k);
}

/*
 * An answer of @n bytes to a GET: the key's number when it is one frame
 * holding "VALUE key 0 2\r\nvv\r\nEND\r\n" with the key's value, -1 when
 * it is anything else (a miss, a wrong value, a broken frame).  *@id is
 * the frame's request id.
 */
static long memc_answer(const uint8_t *p, ssize_t n, uint16_t *id)
{
	char want[64], v[3];
	unsigned int i;
	size_t wl;

	if (n < MEMC_FRAME)
		return -1;
	*id = (uint16_t)(p[0] << 8 | p[1]);
	if (p[2] || p[3] || p[4] || p[5] != 1 || p[6] || p[7])
		return -1;
	if (n < MEMC_FRAME + 6 + MEMC_KEY ||
	    memcmp(p + MEMC_FRAME, "VALUE memc", 10) ||
	    sscanf((const char *)p + MEMC_FRAME + 10, "%12u", &i) != 1)
		return -1;
	memc_value(v, i);
	wl = snprintf(want, sizeof(want), "VALUE memc%012u 0 2\r\n%s\r\nEND\r\n",
		      i, v);
	if ((size_t)n != MEMC_FRAME + wl || memcmp(p + MEMC_FRAME, want, wl))
		return -1;
	return i;
}

static int memcset_sysfs(unsigned int nkeys)
{
	int fd = open("/sys/kernel/edge_netrx/memc_set", O_WRONLY);
	unsigned int i, bad = 0;
	uint64_t t0 = now_ns();

	if (fd < 0)
		die("memc_set");
	for (i = 0; i < nkeys; i++) {
		char line[64], k[MEMC_KEY + 1], v[3];
		int n;

		memc_key(k, i);
		memc_value(v, i);
		n = snprintf(line, sizeof(line), "%s %s\n", k, v);
		/* One SET per write(), each from the attribute's start. */
		if (pwrite(fd, line, n, 0) != n)
			bad++;
	}
	close(fd);
	printf("sets=%u\nbad=%u\nms=%llu\n", nkeys - bad, bad,
	       (unsigned long long)((now_ns() - t0) / 1000000));
	return !!bad;
}

static int memcset_udp(struct sockaddr_in *sa, unsigned int nkeys)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned int i, bad = 0;
	uint64_t t0 = now_ns();

	if (fd < 0 || connect(fd, (void *)sa, sizeof(*sa)))
		die("memcset socket");
	for (i = 0; i < nkeys; i++) {
		uint8_t out[128], in[256];
		char k[MEMC_KEY + 1], v[3];
		uint64_t end = now_ns() + 1000000000ULL;
		size_t n;
		ssize_t r;

		memc_key(k, i);
		memc_value(v, i);
		memc_frame(out, (uint16_t)i);
		n = MEMC_FRAME + sprintf((char *)out + MEMC_FRAME,
					 "set %s 0 0 2\r\n%s\r\n", k, v);
		if (send(fd, out, n, 0) != (ssize_t)n)
			die("send");
		do {
			r = recv_wait(fd, in, sizeof(in), end);
		} while (r >= 2 && (unsigned int)(in[0] << 8 | in[1]) != (i & 0xffff));
		if (r != MEMC_FRAME + 8 || memcmp(in + MEMC_FRAME, "STORED\r\n", 8))
			bad++;
	}
	close(fd);
	printf("sets=%u\nbad=%u\nms=%llu\n", nkeys - bad, bad,
	       (unsigned long long)((now_ns() - t0) / 1000000));
	return !!bad;
}

static int cmd_memcset(char **av)
{
	struct sockaddr_in sa = addr_of(av[1], atoi(av[2]));
	unsigned int nkeys = atoi(av[3]);

	if (!strcmp(av[0], "sysfs"))
		return memcset_sysfs(nkeys);
	return memcset_udp(&sa, nkeys);
}

static int cmd_memc(char **av)
{
	struct sockaddr_in sa = addr_of(av[0], atoi(av[1]));
	unsigned int count = atoi(av[2]), nkeys = atoi(av[3]);
	unsigned int gap = atoi(av[4]), i, got = 0, bad = 0;
	uint64_t *rtt = calloc(count + 1, sizeof(*rtt));
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	uint8_t out[128], in[2048];

	if (fd < 0 || !rtt || !nkeys || connect(fd, (void *)&sa, sizeof(sa)))
		die("memc socket");
	for (i = 0; i < count; i++) {
		size_t n = memc_get(out, (uint16_t)i, i % nkeys);
		uint64_t t0 = now_ns(), end = t0 + 1000000000ULL;

		if (send(fd, out, n, 0) != (ssize_t)n)
			die("send");
		for (;;) {
			ssize_t r = recv_wait(fd, in, sizeof(in), end);
			uint16_t id = 0;
			long k;

			if (r < 0)
				break;
			k = memc_answer(in, r, &id);
			if (r >= 2 && id != (uint16_t)i)
				continue;	/* a late answer */
			if (k != (long)(i % nkeys))
				bad++;
			else
				rtt[got++] = now_ns() - t0;
			break;
		}
		pause_us(gap);
	}
	close(fd);
	return report("", count, got, bad, rtt);
}

struct memcflood {
	int fd;
	unsigned int nkeys;
	volatile bool stop;
	unsigned long good, bad;
};

static void *memcflood_rx(void *arg)
{
	struct memcflood *f = arg;
	uint8_t in[2048];

	while (!f->stop) {
		struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
		uint16_t id = 0;
		ssize_t r;
		long k;

		if (poll(&pfd, 1, 50) <= 0)
			continue;
		r = recv(f->fd, in, sizeof(in), MSG_DONTWAIT);
		if (r <= 0)
			continue;
		/*
		 * The 16-bit request id wraps within a long flood: the
		 * answer checks itself (its value is its key's).
		 */
		k = memc_answer(in, r, &id);
		if (k < 0 || (unsigned long)k >= f->nkeys)
			f->bad++;
		else
			f->good++;
	}
	return NULL;
}

/* cmd_flood's pacing (see there), with GETs of keys 0..NKEYS-1 in turn. */
static int cmd_memcflood(char **av)
{
	struct memcflood f = { .nkeys = atoi(av[4]) };
	struct sockaddr_in sa = addr_of(av[0], atoi(av[1]));
	unsigned long rate = strtoul(av[2], NULL, 0), sent = 0, due;
	double secs = atof(av[3]);
	uint64_t t0, end, t;
	uint8_t out[128];
	pthread_t th;

	f.fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (f.fd < 0 || !f.nkeys || connect(f.fd, (void *)&sa, sizeof(sa)))
		die("memcflood socket");
	if (pthread_create(&th, NULL, memcflood_rx, &f))
		die("pthread_create");
	t0 = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while ((t = now_ns()) < end) {
		due = (unsigned long)((double)(t - t0) * rate / 1e9);
		while (sent < due && (sent % 16 || now_ns() < end)) {
			size_t n = memc_get(out, (uint16_t)sent,
					    sent % f.nkeys);

			if (send(f.fd, out, n, 0) < 0 && errno != ENOBUFS &&
			    errno != EAGAIN && errno != ECONNREFUSED)
				die("send");
			sent++;
		}
		pause_us(1000);
	}
	pause_us(300000);
	f.stop = true;
	pthread_join(th, NULL);
	printf("sent=%lu\nreceived=%lu\nbad=%lu\nlost=%lu\npps=%lu\n", sent,
	       f.good + f.bad, f.bad,
	       sent > f.good + f.bad ? sent - f.good - f.bad : 0,
	       (unsigned long)(f.good / secs));
	return !!f.bad;
}

static const struct {
	const char *name;
	int argc;
	int (*fn)(char **av);
} cmds[] = {
	{ "veth", 3, cmd_veth }, { "ping", 4, cmd_ping },
	{ "udp", 5, cmd_udp }, { "flood", 6, cmd_flood },
	{ "udpecho", 2, cmd_udpecho }, { "busy", 2, cmd_busy },
	{ "memcset", 4, cmd_memcset }, { "memc", 5, cmd_memc },
	{ "memcflood", 5, cmd_memcflood },
};

int main(int argc, char **argv)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name) && argc - 2 == cmds[i].argc)
			return cmds[i].fn(argv + 2);
	fprintf(stderr, "usage: see the comment at the top of tools/netrx/netrx.c\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * edge_netrx.ko on a real network path: a veth pair between this
 * namespace (nr0, 198.18.0.1, where the module attaches) and a client
 * namespace (nr1, 198.18.0.2), made by ../netrx-net.sh.  The server's
 * stack answers pings (icmp_echo_ignore_all 0, which netrx obeys too) and
 * nothing listens on UDP port 7; the counters tell whose an answer was,
 * and a test that needs silence from the stack sets the sysctl.
 *
 *  - busybox ping gets every reply; ../netrx ping checks each reply's
 *    payload byte for byte against its request, over payload sizes;
 *  - a netfilter hook registered (../edge_nfhook.ko) hands pings to the
 *    stack, which applies it;
 *  - nc -u (Debian's netcat-openbsd) round-trips a message on port 7;
 *  - the counters: received = answered + passed + dropped, each total
 *    the sum of its reasons, answered what the client got;
 *  - malformed frames from an AF_PACKET socket in the client namespace
 *    (truncated, bad IP or ICMP or UDP checksums, fragments, IP options,
 *    VLAN tags, other addresses, random bytes) are passed or dropped with
 *    the reason expected, and never answered (the hostile kinds at
 *    volume: edge_netrx_torture_test.c);
 *  - detach and attach, rmmod edge_netrx, the device deleted, the GPU
 *    unplugged, all while a flood runs, leave the books balanced and
 *    nothing loaded; rmmod edge is refused while edge_netrx uses it;
 *  - attach under fail-nth fault injection (the debug kernel only) fails
 *    cleanly at every allocation, then works.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_netrx.h"

/* The attribute's first line (stats is one; attach may end in one). */
static int nr_str(const char *attr, char *buf, size_t len)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), NR_SYSFS "/%s", attr);
	ret = edge_path_str(path, buf, len);
	if (!ret)
		buf[strcspn(buf, "\n")] = 0;
	return ret;
}

/* Run a shell command; its output in @out, its exit status returned. */
static int run(char *out, size_t len, const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	size_t n = 0;
	FILE *f;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (out && len) {
		n = fread(out, 1, len - 1, f);
		out[n] = 0;
	} else {
		char sink[256];

		while (fread(sink, 1, sizeof(sink), f) > 0)
			;
	}
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

struct books {
	long long received, answered, passed, dropped, inflight;
};

/* The module's totals, and each checked against the sum of its reasons. */
static void books(struct __test_metadata *_metadata, struct books *b)
{
	static const char * const pass[] = {
		"pass_not_ipv4", "pass_vlan", "pass_not_host", "pass_not_ours",
		"pass_options", "pass_fragment", "pass_too_big",
		"pass_malformed", "pass_tot_low", "pass_gso", "pass_martian",
		"pass_udp_sport", "pass_sysctl", "pass_netfilter",
		"pass_memc_frame",
		"pass_memc_cmd", "pass_ring_full", "pass_unplugged",
	};
	static const char * const drop[] = {
		"drop_malformed", "drop_bad_csum", "drop_cancelled",
		"drop_nomem", "drop_xmit",
	};
	long long p = 0, d = 0;
	char buf[256];
	unsigned int i;

	ASSERT_EQ(0, nr_str("stats", buf, sizeof(buf)));
	ASSERT_EQ(5, sscanf(buf, "received %lld answered %lld passed %lld dropped %lld inflight %lld",
			    &b->received, &b->answered, &b->passed,
			    &b->dropped, &b->inflight)) TH_LOG("stats: %s", buf);
	for (i = 0; i < ARRAY_SIZE(pass); i++)
		p += nr_read(pass[i]);
	for (i = 0; i < ARRAY_SIZE(drop); i++)
		d += nr_read(drop[i]);
	EXPECT_EQ(b->passed, p);
	EXPECT_EQ(b->dropped, d);
	EXPECT_EQ(b->answered, nr_read("answered_icmp") + nr_read("answered_udp") +
		  nr_read("answered_memc"));
}

/*
 * Wait for nothing in flight and no frame arriving (a flood's stragglers),
 * then received = answered + passed + dropped.
 */
static void balanced(struct __test_metadata *_metadata, struct books *b)
{
	ASSERT_EQ(0, nr_quiesce(100, 10000)) TH_LOG("frames or events keep coming");
	books(_metadata, b);
	EXPECT_EQ(0, b->inflight);
	EXPECT_EQ(b->received, b->answered + b->passed + b->dropped)
		TH_LOG("received %lld answered %lld passed %lld dropped %lld",
		       b->received, b->answered, b->passed, b->dropped);
}

FIXTURE(netrx) {
	char ignore_old[8];
};

FIXTURE_SETUP(netrx)
{
	int fd;

	netrx_unload();
	run(NULL, 0, NET " down");
	ASSERT_EQ(0, edge_module_load(""));
	ASSERT_EQ(0, netrx_load(""));
	ASSERT_EQ(0, run(NULL, 0, NET " up 2>&1"));
	fd = open(IGNORE_PINGS, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, self->ignore_old, sizeof(self->ignore_old) - 1));
	close(fd);
	ASSERT_EQ(0, edge_path_write(IGNORE_PINGS, "0"));
	ASSERT_EQ(0, nr_write("attach", "nr0"));
}

FIXTURE_TEARDOWN(netrx)
{
	run(NULL, 0, "rmmod edge_nfhook 2>/dev/null");
	nr_write("detach", "1");
	run(NULL, 0, NET " down");
	edge_path_write(IGNORE_PINGS, self->ignore_old[0] ? self->ignore_old : "0");
	netrx_unload();
	edge_module_unload(3000);
}

TEST_F(netrx, busybox_ping_gets_every_reply)
{
	long long a0 = nr_read("answered_icmp");
	char out[4096];
	struct books b;

	ASSERT_EQ(0, run(out, sizeof(out), CLI "ping -c 20 -i 0.05 " SRV_IP))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "20 packets transmitted, 20 packets received"))
		TH_LOG("%s", out);
	EXPECT_EQ(a0 + 20, nr_read("answered_icmp"));
	/* Detached, the same ping gets nothing when the stack ignores pings. */
	ASSERT_EQ(0, nr_write("detach", "1"));
	ASSERT_EQ(0, edge_path_write(IGNORE_PINGS, "1"));
	EXPECT_NE(0, run(out, sizeof(out), CLI "ping -c 2 -W 1 " SRV_IP));
	EXPECT_NE(NULL, strstr(out, "2 packets transmitted, 0 packets received"))
		TH_LOG("%s", out);
	balanced(_metadata, &b);
	EXPECT_LE(20, b.answered);
}

TEST_F(netrx, payload_byte_identical)
{
	static const unsigned int sizes[] = { 0, 1, 7, 56, 57, 1000, 1471, 1472 };
	long long a0 = nr_read("answered_icmp"), p0;
	char out[4096];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(0, run(out, sizeof(out), CLI "/edge/netrx ping " SRV_IP " 10 %u 0",
				 sizes[i])) TH_LOG("size %u: %s", sizes[i], out);
		EXPECT_EQ(10, stat_value(out, "received")) TH_LOG("%s", out);
		EXPECT_EQ(0, stat_value(out, "bad")) TH_LOG("%s", out);
	}
	EXPECT_EQ(a0 + 10 * ARRAY_SIZE(sizes), nr_read("answered_icmp"));
	a0 = nr_read("answered_icmp");
	/* busybox's own payload, a large one. */
	EXPECT_EQ(0, run(out, sizeof(out), CLI "ping -c 3 -s 1400 " SRV_IP))
		TH_LOG("%s", out);
	EXPECT_EQ(a0 + 3, nr_read("answered_icmp"));
	/*
	 * busybox 1.35's -p fills the ICMP code byte with the pattern too
	 * (code 0xa5, where RFC 792 says 0): not an echo request we answer,
	 * so it goes to the stack, which ignores pings here.
	 */
	ASSERT_EQ(0, edge_path_write(IGNORE_PINGS, "1"));
	p0 = nr_read("pass_not_ours");
	EXPECT_NE(0, run(out, sizeof(out), CLI "ping -c 2 -W 1 -s 100 -p a5 " SRV_IP));
	EXPECT_EQ(p0 + 2, nr_read("pass_not_ours"));
}

/*
 * A netfilter hook in the server's namespace (../edge_nfhook.ko: only on
 * a kernel with netfilter): its rules are the stack's to apply, so while
 * it is registered every echo request goes to the stack (pass_netfilter),
 * which refuses it (NF_DROP on LOCAL_IN, a firewall's INPUT rule) or
 * answers it (NF_ACCEPT on PRE_ROUTING); unloaded, the GPU answers again.
 */
#define NFHOOK_KO "/edge/edge_nfhook.ko"

TEST_F(netrx, netfilter_hook_hands_pings_to_stack)
{
	long long a0, p0;
	char out[4096];
	struct books b;

	if (access(NFHOOK_KO, R_OK))
		SKIP(return, "no netfilter in this kernel");
	/* ARP settled: then only the requests reach the hook. */
	ASSERT_EQ(0, run(out, sizeof(out), CLI "ping -c 1 " SRV_IP)) TH_LOG("%s", out);
	a0 = nr_read("answered_icmp");
	p0 = nr_read("pass_netfilter");
	ASSERT_EQ(0, run(out, sizeof(out), "insmod " NFHOOK_KO " pf=2 hooknum=1 drop=1 2>&1"))
		TH_LOG("%s", out);
	EXPECT_NE(0, run(out, sizeof(out), CLI "ping -c 2 -W 1 " SRV_IP));
	EXPECT_NE(NULL, strstr(out, "2 packets transmitted, 0 packets received"))
		TH_LOG("%s", out);
	EXPECT_EQ(a0, nr_read("answered_icmp"));
	EXPECT_EQ(p0 + 2, nr_read("pass_netfilter"));
	EXPECT_EQ(0, run(out, sizeof(out), "cat /sys/module/edge_nfhook/parameters/dropped"));
	EXPECT_EQ(2, atoi(out)) TH_LOG("dropped: %s", out);
	ASSERT_EQ(0, run(NULL, 0, "rmmod edge_nfhook"));
	/* Accepting all, on PRE_ROUTING: the stack answers. */
	ASSERT_EQ(0, run(out, sizeof(out), "insmod " NFHOOK_KO " pf=2 hooknum=0 2>&1"))
		TH_LOG("%s", out);
	EXPECT_EQ(0, run(out, sizeof(out), CLI "ping -c 2 -W 1 " SRV_IP)) TH_LOG("%s", out);
	EXPECT_EQ(a0, nr_read("answered_icmp"));
	EXPECT_EQ(p0 + 4, nr_read("pass_netfilter"));
	ASSERT_EQ(0, run(NULL, 0, "rmmod edge_nfhook"));
	/* No hook: the GPU's again. */
	EXPECT_EQ(0, run(out, sizeof(out), CLI "ping -c 2 -W 1 " SRV_IP)) TH_LOG("%s", out);
	EXPECT_EQ(a0 + 2, nr_read("answered_icmp"));
	EXPECT_EQ(p0 + 4, nr_read("pass_netfilter"));
	balanced(_metadata, &b);
}

TEST_F(netrx, nc_udp_echo)
{
	long long a0 = nr_read("answered_udp");
	char out[4096];

	ASSERT_EQ(0, run(out, sizeof(out),
			 "echo 'edge: hello from the client' | "
			 CLI "/edge/nc/nc -u -w1 " SRV_IP " 7"));
	EXPECT_STREQ("edge: hello from the client\n", out);
	EXPECT_EQ(a0 + 1, nr_read("answered_udp"));
	/* Many, every size: each answer is its request. */
	EXPECT_EQ(0, run(out, sizeof(out), CLI "/edge/netrx udp " SRV_IP " 7 50 1400 0"))
		TH_LOG("%s", out);
	EXPECT_EQ(50, stat_value(out, "received"));
	EXPECT_EQ(0, stat_value(out, "bad"));
	EXPECT_EQ(0, run(out, sizeof(out), CLI "/edge/netrx udp " SRV_IP " 7 20 5 0"));
	EXPECT_EQ(20, stat_value(out, "received"));
	/* Another port is the stack's (nobody listens: no answer). */
	EXPECT_NE(0, run(out, sizeof(out), CLI "/edge/netrx udp " SRV_IP " 9 2 16 0"));
	EXPECT_EQ(0, stat_value(out, "received"));
	EXPECT_EQ(a0 + 71, nr_read("answered_udp"));
}

TEST_F(netrx, counters_equal_what_the_client_sent)
{
	struct books b0, b1;
	char out[4096];

	/* ARP is settled by a first ping; then only the test's frames. */
	ASSERT_EQ(0, run(out, sizeof(out), CLI "ping -c 1 " SRV_IP));
	balanced(_metadata, &b0);
	ASSERT_EQ(0, run(out, sizeof(out), CLI "/edge/netrx ping " SRV_IP " 30 56 0"));
	ASSERT_EQ(0, run(out, sizeof(out), CLI "/edge/netrx udp " SRV_IP " 7 30 64 0"));
	balanced(_metadata, &b1);
	EXPECT_EQ(60, b1.answered - b0.answered);
	/* A neighbour probe may have crossed: passed, never more. */
	EXPECT_LE(60, b1.received - b0.received);
	EXPECT_GE(64, b1.received - b0.received);
	EXPECT_EQ(b1.received - b0.received - 60, b1.passed - b0.passed);
	EXPECT_EQ(0, b1.dropped - b0.dropped);
}

/* ---- malformed frames from an AF_PACKET socket in the client ns ---- */

struct rawsock {
	int fd;
	int ifindex;
	uint8_t src[6], dst[6];
};

static int mac_of(const char *path, uint8_t *mac)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%31s", buf);
	fclose(f);
	if (n != 1)
		return -1;
	return sscanf(buf, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

/* An AF_PACKET socket on nr1, made inside the client namespace. */
static int raw_open(struct rawsock *r)
{
	int self_ns = open("/proc/self/ns/net", O_RDONLY), cli_ns, pid;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	struct ifreq ifr = {};
	char path[64];
	FILE *f;

	if (mac_of("/sys/class/net/nr0/address", r->dst))
		return -1;
	f = fopen("/tmp/netrx-cli.pid", "r");
	if (!f || fscanf(f, "%d", &pid) != 1)
		return -1;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	cli_ns = open(path, O_RDONLY);
	if (self_ns < 0 || cli_ns < 0 || setns(cli_ns, CLONE_NEWNET))
		return -1;
	r->fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	r->ifindex = if_nametoindex("nr1");
	/* sysfs shows the namespace that mounted it: ask the device. */
	snprintf(ifr.ifr_name, IFNAMSIZ, "nr1");
	if (r->fd < 0 || ioctl(r->fd, SIOCGIFHWADDR, &ifr))
		return -1;
	memcpy(r->src, ifr.ifr_hwaddr.sa_data, 6);
	if (setns(self_ns, CLONE_NEWNET))
		return -1;
	close(self_ns);
	close(cli_ns);
	sll.sll_ifindex = r->ifindex;
	if (r->fd < 0 || !r->ifindex ||
	    bind(r->fd, (void *)&sll, sizeof(sll)))
		return -1;
	return 0;
}

static uint16_t csum16(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (; n > 1; n -= 2, p += 2)
		s += (uint32_t)p[0] << 8 | p[1];
	if (n)
		s += (uint32_t)p[0] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * An Ethernet frame to nr0 with an IPv4 packet: proto @proto, @opt
 * bytes of NOP options, @n payload bytes after an ICMP echo header (or a
 * UDP header to port 7).  Returns the frame's length.
 */
static size_t frame(const struct rawsock *r, uint8_t *f, uint8_t proto,
		    unsigned int opt, unsigned int n)
{
	uint8_t *ip = f + 14, *l4;
	unsigned int hlen = 20 + opt, tot = hlen + 8 + n, i;

	memset(f, 0, 14 + tot);
	memcpy(f, r->dst, 6);
	memcpy(f + 6, r->src, 6);
	put16(f + 12, ETH_P_IP);
	ip[0] = 0x40 | hlen / 4;
	put16(ip + 2, tot);
	ip[8] = 64;
	ip[9] = proto;
	memcpy(ip + 12, "\xc6\x12\x00\x02\xc6\x12\x00\x01", 8);
	for (i = 20; i < hlen; i++)
		ip[i] = 1;		/* NOP */
	put16(ip + 10, csum16(ip, hlen));
	l4 = ip + hlen;
	for (i = 0; i < n; i++)
		l4[8 + i] = (uint8_t)(i * 13 + 5);
	if (proto == 1) {
		l4[0] = 8;
		put16(l4 + 4, 0x4242);
		put16(l4 + 6, 1);
		put16(l4 + 2, csum16(l4, 8 + n));
	} else {
		uint8_t ph[12];
		uint32_t s;

		put16(l4, 4000);
		put16(l4 + 2, 7);
		put16(l4 + 4, 8 + n);
		memcpy(ph, ip + 12, 8);
		ph[8] = 0;
		ph[9] = 17;
		put16(ph + 10, 8 + n);
		s = (uint16_t)~csum16(ph, 12);
		s += (uint16_t)~csum16(l4, 8 + n);
		while (s >> 16)
			s = (s & 0xffff) + (s >> 16);
		put16(l4 + 6, (uint16_t)~s ? (uint16_t)~s : 0xffff);
	}
	return 14 + tot;
}

static void refresh_ip_csum(uint8_t *f)
{
	uint8_t *ip = f + 14;

	put16(ip + 10, 0);
	put16(ip + 10, csum16(ip, (ip[0] & 15) * 4));
}

/*
 * Send one frame and wait until the module has seen it and nothing is in
 * flight; returns how @counter moved.  Every frame moves "received" by
 * one, and answered only when @answer.
 */
static long long send_one(struct __test_metadata *_metadata,
			  struct rawsock *r, const uint8_t *f, size_t len,
			  const char *counter)
{
	long long rx0 = nr_read("received"), c0 = nr_read(counter);
	long long a0 = nr_read("answered_icmp") + nr_read("answered_udp");
	uint64_t end = now_ns() + 5000000000ULL;

	EXPECT_EQ((ssize_t)len, send(r->fd, f, len, 0));
	while (nr_read("received") < rx0 + 1 || nr_read("inflight")) {
		if (now_ns() > end)
			break;
		sleep_ms(2);
	}
	/* Any late second frame (ARP) would show here too. */
	sleep_ms(20);
	if (strncmp(counter, "answered", 8))
		EXPECT_EQ(a0, nr_read("answered_icmp") + nr_read("answered_udp"))
			TH_LOG("a frame counted %s was answered", counter);
	return nr_read(counter) - c0;
}

/* A reply on nr1 to the valid echo: IP echo reply, payload intact. */
static int got_reply(struct rawsock *r, const uint8_t *req, size_t len)
{
	uint64_t end = now_ns() + 2000000000ULL;
	uint8_t buf[2048];

	while (now_ns() < end) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(r->fd, buf, sizeof(buf), MSG_DONTWAIT,
				     (void *)&from, &fl);

		if (n < 0) {
			sleep_ms(2);
			continue;
		}
		if (from.sll_pkttype == PACKET_OUTGOING || (size_t)n != len ||
		    buf[12] != 8 || buf[13] != 0 || buf[14 + 9] != 1 ||
		    buf[14 + 20] != 0)
			continue;
		/* Ethernet and IP addresses swapped, payload identical. */
		return !memcmp(buf, req + 6, 6) && !memcmp(buf + 6, req, 6) &&
		       !memcmp(buf + 14 + 12, req + 14 + 16, 4) &&
		       !memcmp(buf + 14 + 16, req + 14 + 12, 4) &&
		       !memcmp(buf + 14 + 24, req + 14 + 24, len - 38) &&
		       !csum16(buf + 14, 20) && !csum16(buf + 34, len - 34);
	}
	return 0;
}

TEST_F(netrx, malformed_frames_passed_or_dropped)
{
	uint8_t f[2048];
	struct rawsock r;
	struct books b;
	char out[1024];
	size_t len;
	unsigned int i;

	ASSERT_EQ(0, raw_open(&r));
	/* ARP settled first, so the frames below are all there is. */
	ASSERT_EQ(0, run(out, sizeof(out), CLI "ping -c 1 " SRV_IP));

	/* Sanity: a well-formed echo is answered, byte for byte. */
	len = frame(&r, f, 1, 0, 32);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "answered_icmp"));
	EXPECT_TRUE(got_reply(&r, f, len));
	len = frame(&r, f, 17, 0, 32);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "answered_udp"));

	/* Truncated: the IP total length runs past the frame. */
	len = frame(&r, f, 1, 0, 32);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len - 10, "pass_malformed"));
	/* Truncated inside the IP header: the stack's. */
	EXPECT_EQ(1, send_one(_metadata, &r, f, 14 + 12, "pass_not_ours"));
	/* A total length below the headers. */
	len = frame(&r, f, 1, 0, 32);
	put16(f + 14 + 2, 24);
	refresh_ip_csum(f);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_tot_low"));
	/* Bad IP header checksum, bad ICMP checksum, bad UDP checksum. */
	len = frame(&r, f, 1, 0, 32);
	f[14 + 10] ^= 0x10;
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "drop_bad_csum"));
	len = frame(&r, f, 1, 0, 32);
	f[14 + 20 + 8 + 3] ^= 0x01;
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "drop_bad_csum"));
	len = frame(&r, f, 17, 0, 32);
	f[14 + 20 + 8 + 3] ^= 0x01;
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "drop_bad_csum"));
	/* Fragments: MF, an offset. */
	len = frame(&r, f, 1, 0, 32);
	f[14 + 6] = 0x20;
	refresh_ip_csum(f);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_fragment"));
	len = frame(&r, f, 1, 0, 32);
	f[14 + 7] = 0x10;
	refresh_ip_csum(f);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_fragment"));
	/* IP options (NOPs): the stack's to answer (it ignores pings here). */
	len = frame(&r, f, 1, 4, 32);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_options"));
	/* A VLAN tag in front of a good echo. */
	len = frame(&r, f, 1, 0, 32);
	memmove(f + 16, f + 12, len - 12);
	put16(f + 12, ETH_P_8021Q);
	put16(f + 14, 5);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len + 4, "pass_vlan"));
	/* Another address, another ICMP type, not for this host's MAC. */
	len = frame(&r, f, 1, 0, 32);
	f[14 + 19] = 9;
	refresh_ip_csum(f);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_not_ours"));
	len = frame(&r, f, 1, 0, 32);
	f[14 + 20] = 13;
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_not_ours"));
	len = frame(&r, f, 1, 0, 32);
	f[0] = 0x02;
	f[5] ^= 0x55;
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_not_host"));
	/* Not IPv4 at all: IPv6's ethertype, then random bytes. */
	len = frame(&r, f, 1, 0, 32);
	put16(f + 12, ETH_P_IPV6);
	EXPECT_EQ(1, send_one(_metadata, &r, f, len, "pass_not_ipv4"));
	srand(15);
	for (i = 0; i < 200; i++) {
		unsigned int n = 14 + rand() % 200, k;
		long long rx0 = nr_read("received");
		long long a0 = nr_read("answered_icmp") + nr_read("answered_udp");
		uint64_t end = now_ns() + 2000000000ULL;

		len = frame(&r, f, i % 2 ? 1 : 17, 0, 64);
		/* Keep the addressing half the time, so the IP path is hit. */
		for (k = i % 2 ? 14 : 12; k < n; k++)
			if (rand() % 4 == 0 || i % 3 == 0)
				f[k] = (uint8_t)rand();
		ASSERT_EQ((ssize_t)n, send(r.fd, f, n, 0));
		while (nr_read("received") < rx0 + 1 && now_ns() < end)
			sleep_ms(1);
		while (nr_read("inflight") && now_ns() < end)
			sleep_ms(1);
		/* A random frame may be a good echo by chance only if intact. */
		EXPECT_EQ(a0, nr_read("answered_icmp") + nr_read("answered_udp"))
			TH_LOG("random frame %u answered", i);
	}
	balanced(_metadata, &b);
	close(r.fd);
}

/* ---- run time attach/detach and teardown, with traffic flowing ---- */

static pid_t flood_start(const char *kind, unsigned int rate, unsigned int secs)
{
	char cmd[256];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), CLI "/edge/netrx flood %s " SRV_IP " 7 %u %u 56 >/dev/null",
		 kind, rate, secs);
	pid = fork();
	if (!pid) {
		execl("/bin/sh", "sh", "-c", cmd, NULL);
		_exit(127);
	}
	return pid;
}

static void flood_wait(pid_t pid)
{
	int st;

	waitpid(pid, &st, 0);
}

TEST_F_TIMEOUT(netrx, detach_attach_under_flood, 120)
{
	pid_t p1 = flood_start("icmp", 20000, 4), p2 = flood_start("udp", 20000, 4);
	long long att0 = nr_read("attaches"), det0 = nr_read("detaches");
	struct books b;
	char ids[64];
	int i;

	sleep_ms(300);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, nr_write("detach", "1"));
		sleep_ms(50);
		ASSERT_EQ(0, nr_write("attach", "nr0"));
		sleep_ms(150);
	}
	flood_wait(p1);
	flood_wait(p2);
	EXPECT_EQ(att0 + 10, nr_read("attaches"));
	EXPECT_EQ(det0 + 10, nr_read("detaches"));
	balanced(_metadata, &b);
	EXPECT_LT(0, b.answered);
	/* The queues came back at the same EKT ids: nothing was left. */
	ASSERT_EQ(0, nr_str("ekt_ids", ids, sizeof(ids)));
	EXPECT_STREQ("icmp 0 udp 1 memc 2", ids);
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
}

TEST_F_TIMEOUT(netrx, rmmod_under_flood, 120)
{
	pid_t p = flood_start("icmp", 20000, 3);
	char out[1024];

	sleep_ms(500);
	/* edge.ko is in use by edge_netrx: refused, nothing changes. */
	EXPECT_NE(0, edge_module_unload_once());
	EXPECT_TRUE(edge_module_loaded());
	EXPECT_EQ(0, netrx_unload());
	EXPECT_EQ(-ENOENT, netrx_unload());
	EXPECT_EQ(0, edge_sysfs_read(0, "inflight"));
	EXPECT_EQ(0, edge_module_unload(3000));
	flood_wait(p);
	/* Both back: it works as before. */
	ASSERT_EQ(0, edge_module_load(""));
	ASSERT_EQ(0, netrx_load("ifname=nr0"));
	EXPECT_EQ(0, run(out, sizeof(out), CLI "ping -c 3 " SRV_IP)) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(netrx, device_deleted_under_flood, 120)
{
	pid_t p = flood_start("icmp", 20000, 2);
	struct books b;
	char name[32];

	sleep_ms(500);
	ASSERT_EQ(0, run(NULL, 0, "ip link del nr0"));
	ASSERT_EQ(0, nr_str("attach", name, sizeof(name)));
	EXPECT_STREQ("", name);
	EXPECT_EQ(-ENODEV, nr_write("detach", "1"));
	flood_wait(p);
	balanced(_metadata, &b);
	EXPECT_EQ(nr_read("attaches"), nr_read("detaches"));
}

TEST_F_TIMEOUT(netrx, gpu_unplugged_under_flood, 120)
{
	pid_t p = flood_start("icmp", 20000, 3);
	struct books b;
	char out[1024];

	sleep_ms(500);
	ASSERT_EQ(0, run(out, sizeof(out), "/edge/edgectl dev del edge0 2>&1"))
		TH_LOG("%s", out);
	sleep_ms(300);
	flood_wait(p);
	balanced(_metadata, &b);
	EXPECT_LT(0, nr_read("pass_unplugged"));
	EXPECT_EQ(0, nr_write("detach", "1"));
	/* No GPU: attach fails, and leaves nothing attached. */
	EXPECT_EQ(-ENODEV, nr_write("attach", "nr0"));
}

TEST_F(netrx, attach_errors_change_nothing)
{
	char name[32];

	EXPECT_EQ(-EBUSY, nr_write("attach", "nr0"));
	ASSERT_EQ(0, nr_write("detach", "1"));
	EXPECT_EQ(-ENODEV, nr_write("detach", "1"));
	EXPECT_EQ(-ENODEV, nr_write("attach", "nosuchdev"));
	EXPECT_EQ(-EOPNOTSUPP, nr_write("attach", "lo"));
	EXPECT_EQ(-EINVAL, nr_write("attach", "a-name-longer-than-ifnamsiz"));
	EXPECT_EQ(-EINVAL, nr_write("attach", "\n"));
	ASSERT_EQ(0, nr_str("attach", name, sizeof(name)));
	EXPECT_STREQ("", name);
	EXPECT_EQ(0, nr_read("inflight"));
	ASSERT_EQ(0, nr_write("attach", "nr0"));
	ASSERT_EQ(0, nr_str("ekt_ids", name, sizeof(name)));
	EXPECT_STREQ("icmp 0 udp 1 memc 2", name);
}

/* ---- fail-nth into attach (the debug kernel has fault injection) ---- */

#define DBG "/sys/kernel/debug"

TEST_F_TIMEOUT(netrx, attach_under_fault_injection, 300)
{
	static const char * const knobs[][2] = {
		{ DBG "/failslab/ignore-gfp-wait", "N" },
		{ DBG "/failslab/verbose", "0" },
		{ DBG "/fail_page_alloc/ignore-gfp-wait", "N" },
		{ DBG "/fail_page_alloc/min-order", "0" },
		{ DBG "/fail_page_alloc/verbose", "0" },
		{ DBG "/fail_usercopy/verbose", "0" },
	};
	char old[ARRAY_SIZE(knobs)][32];
	char path[64], name[32], out[1024];
	unsigned int n, injected = 0, i;
	int fd, ret;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth",
		 (long)syscall(__NR_gettid));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || access(DBG "/failslab", F_OK))
		SKIP(return, "no fault injection in this kernel");
	/* Quiet (no stack trace per fault), restored at the end. */
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		FILE *k = fopen(knobs[i][0], "r");

		ASSERT_NE(NULL, k);
		ASSERT_EQ(1, fscanf(k, "%31s", old[i]));
		fclose(k);
		ASSERT_EQ(0, edge_path_write(knobs[i][0], knobs[i][1]));
	}
	ASSERT_EQ(0, nr_write("detach", "1"));
	for (n = 1; n < 5000; n++) {
		char b[16];
		int l = snprintf(b, sizeof(b), "%u", n);

		ASSERT_EQ(l, pwrite(fd, b, l, 0));
		ret = nr_write("attach", "nr0");
		memset(b, 0, sizeof(b));
		/* fail-nth reads 0 once the fault was injected. */
		l = pread(fd, b, sizeof(b) - 1, 0);
		pwrite(fd, "0", 1, 0);
		if (!ret) {
			if (l > 0 && atoi(b) != 0)
				break;		/* no fault point left */
			/* A fault with a fallback: attached all the same. */
			injected++;
			ASSERT_EQ(0, nr_write("detach", "1"));
			continue;
		}
		injected++;
		/* EFAULT: the write's own copy from user space failed (fail_usercopy). */
		EXPECT_TRUE(ret == -ENOMEM || ret == -EFAULT) TH_LOG("nth %u: %d", n, ret);
		ASSERT_EQ(0, nr_str("attach", name, sizeof(name)));
		ASSERT_STREQ("", name) TH_LOG("nth %u left it attached", n);
	}
	close(fd);
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		edge_path_write(knobs[i][0], old[i]);
	ksft_print_msg("attach: %u faults injected, attached at the %u-th\n",
		       injected, n);
	printf("faults_injected=%u\n", injected);
	EXPECT_LT(5, injected);
	/* Everything was given back: the same EKT ids, and it answers. */
	ASSERT_EQ(0, nr_str("ekt_ids", name, sizeof(name)));
	EXPECT_STREQ("icmp 0 udp 1 memc 2", name);
	EXPECT_EQ(0, run(out, sizeof(out), CLI "ping -c 2 " SRV_IP)) TH_LOG("%s", out);
}

EDGE_FINAL_CHECKS

static void netrx_atexit(void)
{
	netrx_unload();
	run(NULL, 0, NET " down");
}

int main(int argc, char **argv)
{
	/* Not loaded when done, whatever a test left (atexit: last first). */
	atexit(edge_selftest_atexit);
	atexit(netrx_atexit);
	if (access("/edge/netrx-net.sh", X_OK))
		return KSFT_SKIP;
	return test_harness_run(argc, argv);
}

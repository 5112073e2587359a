// SPDX-License-Identifier: GPL-2.0
/*
 * edge_netrx.ko's memcached GET service (EDGE_FN_MEMC, the EDGE paper's
 * MemC): SETs written to /sys/kernel/edge_netrx/memc_set, GETs over UDP
 * from the client namespace of tools/vm/netrx-net.sh answered by the GPU
 * with the values set (a miss with "END"), and requests that are not
 * one well-formed single-key get passed to the stack, counted by reason,
 * never answered by the GPU.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "edge_selftest.h"
#include "edge_netrx.h"

#define MEMC_PORT	11211

/* @cmd's status; its output (stdout) into @out when given. */
static int run_out(char *out, size_t len, const char *cmd)
{
	char sink[256];
	FILE *f = popen(cmd, "r");
	size_t n = 0;
	int st;

	if (!f)
		return -1;
	if (out && len) {
		n = fread(out, 1, len - 1, f);
		out[n] = 0;
	}
	while (fread(sink, 1, sizeof(sink), f) > 0)
		;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *cmd)
{
	return run_out(NULL, 0, cmd);
}

/* A UDP socket made in the client namespace, bound to @port (0: any). */
static int cli_socket_port(uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	int self_ns = open("/proc/self/ns/net", O_RDONLY), cli_ns, pid, fd;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 500000 };
	char path[64];
	FILE *f;

	f = fopen("/tmp/netrx-cli.pid", "r");
	if (!f || fscanf(f, "%d", &pid) != 1)
		return -1;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	cli_ns = open(path, O_RDONLY);
	if (self_ns < 0 || cli_ns < 0 || setns(cli_ns, CLONE_NEWNET))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (setns(self_ns, CLONE_NEWNET))
		return -1;
	close(self_ns);
	close(cli_ns);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    (port && bind(fd, (void *)&sin, sizeof(sin))))
		return -1;
	return fd;
}

/* An ephemeral port: 1024 or above. */
static int cli_socket(void)
{
	return cli_socket_port(0);
}

/*
 * Send one frame (request id @id, @seq, @count) of @text to the server's
 * MemC port; the reply's payload into @out (its length), or -1 when none
 * came within the socket's timeout.
 */
static int ask(int fd, uint16_t id, uint16_t seq, uint16_t count,
	       const char *text, char *out, size_t len)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(MEMC_PORT) };
	uint8_t req[128];
	size_t n = strlen(text);
	ssize_t r;

	inet_pton(AF_INET, SRV_IP, &to.sin_addr);
	req[0] = id >> 8;
	req[1] = id & 0xff;
	req[2] = seq >> 8;
	req[3] = seq & 0xff;
	req[4] = count >> 8;
	req[5] = count & 0xff;
	req[6] = req[7] = 0;
	memcpy(req + 8, text, n);
	if (sendto(fd, req, 8 + n, 0, (void *)&to, sizeof(to)) != (ssize_t)(8 + n))
		return -1;
	r = recv(fd, out, len, 0);
	return r < 0 ? -1 : (int)r;
}

/* A GET of @key must come back as exactly @want after the frame header. */
static int get_is(int fd, uint16_t id, const char *key, const char *want)
{
	char text[64], out[256];
	static const uint8_t hdr[6] = { 0, 0, 0, 1, 0, 0 };
	size_t wl = strlen(want);
	int n;

	snprintf(text, sizeof(text), "get %s\r\n", key);
	n = ask(fd, id, 0, 1, text, out, sizeof(out));
	if (n != (int)(8 + wl) || (uint8_t)out[0] != id >> 8 ||
	    (uint8_t)out[1] != (id & 0xff) || memcmp(out + 2, hdr, 6) ||
	    memcmp(out + 8, want, wl)) {
		fprintf(stderr, "# get %s: %d bytes: %.*s\n", key, n,
			n > 8 ? n - 8 : 0, out + 8);
		return -1;
	}
	return 0;
}

FIXTURE(memc) {
	int fd;
};

FIXTURE_SETUP(memc)
{
	char out[1024];

	netrx_unload();
	run(NET " down");
	ASSERT_EQ(0, edge_module_load(""));
	ASSERT_EQ(0, netrx_load(""));
	ASSERT_EQ(0, run_out(out, sizeof(out), NET " up 2>&1"))
		TH_LOG("%s", out);
	ASSERT_EQ(0, nr_write("attach", "nr0"));
	self->fd = cli_socket();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(memc)
{
	if (self->fd >= 0)
		close(self->fd);
	nr_write("detach", "1");
	run(NET " down");
	netrx_unload();
	edge_module_unload(3000);
}

/* SETs through sysfs, GETs over UDP: hits, a miss, an overwrite. */
TEST_F(memc, gets_see_the_sets)
{
	long long a0 = nr_read("answered_memc"), h0 = nr_read("memc_hits");
	long long s0 = nr_read("memc_sets");

	EXPECT_EQ(MEMC_PORT, nr_read("memc_port"));
	ASSERT_EQ(0, nr_write("memc_set", "foo hi\n"));
	ASSERT_EQ(0, nr_write("memc_set", "0123456789abcdef 42"));
	ASSERT_EQ(0, nr_write("memc_set", "empty \n"));
	EXPECT_EQ(s0 + 3, nr_read("memc_sets"));
	EXPECT_EQ(0, get_is(self->fd, 1, "foo", "VALUE foo 0 2\r\nhi\r\nEND\r\n"));
	EXPECT_EQ(0, get_is(self->fd, 2, "0123456789abcdef",
			    "VALUE 0123456789abcdef 0 2\r\n42\r\nEND\r\n"));
	EXPECT_EQ(0, get_is(self->fd, 3, "empty", "VALUE empty 0 0\r\n\r\nEND\r\n"));
	EXPECT_EQ(0, get_is(self->fd, 4, "nope", "END\r\n"));
	ASSERT_EQ(0, nr_write("memc_set", "foo bye"));
	EXPECT_EQ(0, get_is(self->fd, 0xfffe, "foo",
			    "VALUE foo 0 3\r\nbye\r\nEND\r\n"));
	EXPECT_EQ(a0 + 5, nr_read_until("answered_memc", a0 + 5));
	EXPECT_EQ(h0 + 4, nr_read_until("memc_hits", h0 + 4));
}

/* A SET the table refuses changes nothing and says why. */
TEST_F(memc, bad_sets_fail)
{
	long long s0 = nr_read("memc_sets");
	char v[80];

	EXPECT_EQ(-EINVAL, nr_write("memc_set", "0123456789abcdefg x"));
	EXPECT_EQ(-EINVAL, nr_write("memc_set", "novalue"));
	EXPECT_EQ(-EINVAL, nr_write("memc_set", " x"));
	EXPECT_EQ(-EINVAL, nr_write("memc_set", "a\tb x"));
	EXPECT_EQ(-EINVAL, nr_write("memc_set", "k x\ny"));
	memset(v, 'v', sizeof(v));
	memcpy(v, "k ", 2);
	v[2 + EDGE_MEMC_MAX_VALUE + 1] = 0;
	EXPECT_EQ(-EINVAL, nr_write("memc_set", v));
	v[2 + EDGE_MEMC_MAX_VALUE] = 0;
	EXPECT_EQ(0, nr_write("memc_set", v));
	EXPECT_EQ(s0 + 1, nr_read("memc_sets"));
	EXPECT_EQ(0, get_is(self->fd, 5, "novalue", "END\r\n"));
	/* Detached: no table to set. */
	ASSERT_EQ(0, nr_write("detach", "1"));
	EXPECT_EQ(-ENODEV, nr_write("memc_set", "foo hi"));
}

/*
 * What is not one well-formed single-key get goes to the stack (no
 * memcached listens here: nothing answers), counted by reason.
 */
TEST_F(memc, malformed_requests_pass)
{
	long long a0 = nr_read("answered_memc");
	long long f0 = nr_read("pass_memc_frame"), c0 = nr_read("pass_memc_cmd");
	long long s0 = nr_read("pass_udp_sport");
	char out[256];
	int fd;

	ASSERT_EQ(0, nr_write("memc_set", "foo hi"));
	EXPECT_EQ(-1, ask(self->fd, 1, 1, 1, "get foo\r\n", out, sizeof(out)));
	EXPECT_EQ(-1, ask(self->fd, 2, 0, 2, "get foo\r\n", out, sizeof(out)));
	EXPECT_EQ(-1, ask(self->fd, 3, 0, 1, "gets foo\r\n", out, sizeof(out)));
	EXPECT_EQ(-1, ask(self->fd, 4, 0, 1, "get foo foo\r\n", out, sizeof(out)));
	EXPECT_EQ(-1, ask(self->fd, 5, 0, 1, "get foo\n", out, sizeof(out)));
	EXPECT_EQ(-1, ask(self->fd, 6, 0, 1, "get 0123456789abcdefg\r\n", out,
			  sizeof(out)));
	EXPECT_EQ(f0 + 2, nr_read("pass_memc_frame"));
	EXPECT_EQ(c0 + 4, nr_read("pass_memc_cmd"));
	EXPECT_EQ(a0, nr_read("answered_memc"));
	/* From a well-known port: a reflection, refused. */
	fd = cli_socket_port(999);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ask(fd, 9, 0, 1, "get foo\r\n", out, sizeof(out)));
	close(fd);
	EXPECT_EQ(s0 + 1, nr_read("pass_udp_sport"));
	EXPECT_EQ(a0, nr_read("answered_memc"));
	/* memc_port 0: the service is off, the GET goes to the stack. */
	ASSERT_EQ(0, nr_write("memc_port", "0"));
	EXPECT_EQ(-1, ask(self->fd, 7, 0, 1, "get foo\r\n", out, sizeof(out)));
	EXPECT_EQ(a0, nr_read("answered_memc"));
	/* The echo's port cannot be MemC's too. */
	EXPECT_EQ(-EINVAL, nr_write("memc_port", "7"));
	ASSERT_EQ(0, nr_write("memc_port", "11211"));
	EXPECT_EQ(0, get_is(self->fd, 8, "foo", "VALUE foo 0 2\r\nhi\r\nEND\r\n"));
	EXPECT_EQ(a0 + 1, nr_read_until("answered_memc", a0 + 1));
}

/*
 * SETs while the attachment goes and comes back and the GPU is deleted:
 * each write ends with 0 or the errno of what happened to it (ENODEV:
 * not attached or unplugged; ECANCELED: detached or unplugged in flight;
 * EBUSY: ring full), never hangs, and each is counted once.
 */
TEST_F_TIMEOUT(memc, sets_race_detach_and_unplug, 120)
{
	long long s0 = nr_read("memc_sets"), e0 = nr_read("memc_set_errors");
	int pipefd[2], i, st;
	long long counts[5] = {};
	char out[256];
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* [0] done, [1] ENODEV, [2] ECANCELED, [3] EBUSY, [4] other */
		long long c[5] = {};
		char kv[32];
		int ret, n;

		close(pipefd[0]);
		for (n = 0; n < 3000; n++) {
			snprintf(kv, sizeof(kv), "k%d v%d", n % 64, n);
			ret = nr_write("memc_set", kv);
			c[!ret ? 0 : ret == -ENODEV ? 1 : ret == -ECANCELED ? 2 :
			  ret == -EBUSY ? 3 : 4]++;
			/* Unplugged: nothing more can happen to a SET. */
			if (ret == -ENODEV && access("/sys/class/edge/edge0", F_OK))
				break;
			/* Detached: wait for the attach, not 3000 ENODEVs. */
			if (ret == -ENODEV)
				usleep(1000);
		}
		_exit(write(pipefd[1], c, sizeof(c)) == sizeof(c) ? 0 : 1);
	}
	close(pipefd[1]);
	for (i = 0; i < 6; i++) {
		sleep_ms(30);
		EXPECT_EQ(0, nr_write("detach", "1"));
		sleep_ms(10);
		EXPECT_EQ(0, nr_write("attach", "nr0"));
	}
	sleep_ms(30);
	ASSERT_EQ(0, run_out(out, sizeof(out), "/edge/edgectl dev del edge0 2>&1"))
		TH_LOG("%s", out);
	ASSERT_EQ(sizeof(counts), read(pipefd[0], counts, sizeof(counts)));
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	TH_LOG("sets: done %lld enodev %lld ecanceled %lld ebusy %lld other %lld",
	       counts[0], counts[1], counts[2], counts[3], counts[4]);
	EXPECT_LT(0, counts[0]);
	EXPECT_EQ(0, counts[4]);
	EXPECT_EQ(counts[0], nr_read("memc_sets") - s0);
	EXPECT_EQ(counts[1] + counts[2] + counts[3],
		  nr_read("memc_set_errors") - e0);
	EXPECT_EQ(-ENODEV, nr_write("memc_set", "foo hi"));
}

/* Every frame ended once: answered, passed or dropped, by its reasons. */
TEST_F(memc, books_balance)
{
	static const char * const pass[] = {
		"pass_not_ipv4", "pass_vlan", "pass_not_host", "pass_not_ours",
		"pass_options", "pass_fragment", "pass_too_big",
		"pass_malformed", "pass_tot_low", "pass_gso", "pass_martian",
		"pass_udp_sport", "pass_sysctl", "pass_netfilter",
		"pass_memc_frame",
		"pass_memc_cmd", "pass_ring_full", "pass_unplugged",
	};
	long long rx, ans, passed, dropped, inflight, p = 0;
	char buf[256], out[256];
	unsigned int i;

	ASSERT_EQ(0, nr_write("memc_set", "foo hi"));
	EXPECT_EQ(0, get_is(self->fd, 1, "foo", "VALUE foo 0 2\r\nhi\r\nEND\r\n"));
	EXPECT_EQ(-1, ask(self->fd, 2, 0, 1, "gets foo\r\n", out, sizeof(out)));
	ASSERT_EQ(0, nr_quiesce(100, 10000));
	ASSERT_EQ(0, edge_path_str(NR_SYSFS "/stats", buf, sizeof(buf)));
	ASSERT_EQ(5, sscanf(buf, "received %lld answered %lld passed %lld dropped %lld inflight %lld",
			    &rx, &ans, &passed, &dropped, &inflight));
	for (i = 0; i < ARRAY_SIZE(pass); i++)
		p += nr_read(pass[i]);
	EXPECT_EQ(passed, p);
	EXPECT_EQ(ans, nr_read("answered_icmp") + nr_read("answered_udp") +
		  nr_read("answered_memc"));
	EXPECT_EQ(0, inflight);
	EXPECT_EQ(rx, ans + passed + dropped);
	EXPECT_LE(1, nr_read("answered_memc"));
	EXPECT_LE(1, nr_read("pass_memc_cmd"));
}

EDGE_FINAL_CHECKS

static void memc_atexit(void)
{
	netrx_unload();
	run(NET " down");
}

int main(int argc, char **argv)
{
	/* Not loaded when done, whatever a test left (atexit: last first). */
	atexit(edge_selftest_atexit);
	atexit(memc_atexit);
	if (access(NET, X_OK))
		return KSFT_SKIP;
	return test_harness_run(argc, argv);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal generic netlink client for the "edge" family's kselftests:
 * raw sockets, no library, so that a test sees exactly what the kernel
 * sent (errno, extack message, how a dump was split).
 */
#ifndef _EDGE_NL_H
#define _EDGE_NL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <linux/edge_netlink.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/*
 * More than the largest attribute set's: a reply's attributes are kept
 * by their number in its command's set (one set per object).
 */
#define ENL_A_MAX	31
_Static_assert(EDGE_A_DEV_MAX <= ENL_A_MAX && EDGE_A_STATS_MAX <= ENL_A_MAX &&
	       EDGE_A_EKT_MAX <= ENL_A_MAX && EDGE_A_JOB_MAX <= ENL_A_MAX &&
	       EDGE_A_SCHED_MAX <= ENL_A_MAX && EDGE_A_PLACE_MAX <= ENL_A_MAX,
	       "an attribute set larger than enl_reply's");

struct enl {
	int fd;
	uint16_t family;
	uint32_t version;	/* the family's (CTRL_ATTR_VERSION) */
	uint32_t mcgrp;
	uint32_t seq;
	char ext[256];		/* the last error's extack message */
	uint32_t bad_off;	/* its NLMSGERR_ATTR_OFFS, or 0 */
	/* Its NLMSGERR_ATTR_POLICY's limits: ENL_POL_MIN, _MAX when given. */
	unsigned int pol;
	int64_t pol_min;
	uint64_t pol_max;
};

#define ENL_POL_MIN	1
#define ENL_POL_MAX	2

struct enl_msg {
	union {
		struct nlmsghdr nlh;
		char buf[4096];
	};
};

/* A parsed message, copied: its command and attributes by type. */
struct enl_reply {
	uint8_t cmd;
	uint16_t flags;
	struct nlattr *a[ENL_A_MAX + 1];
	char data[2048];
};

static inline void enl_put(struct enl_msg *m, uint16_t type, const void *d,
			   size_t len)
{
	struct nlattr *a = (void *)(m->buf + NLMSG_ALIGN(m->nlh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, d, len);
	m->nlh.nlmsg_len = NLMSG_ALIGN(m->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static inline void enl_put_u32(struct enl_msg *m, uint16_t type, uint32_t v)
{
	enl_put(m, type, &v, sizeof(v));
}

static inline void enl_put_u64(struct enl_msg *m, uint16_t type, uint64_t v)
{
	enl_put(m, type, &v, sizeof(v));
}

/* A nest: enl_put() its attributes, then enl_nest_end(). */
static inline struct nlattr *enl_nest_start(struct enl_msg *m, uint16_t type)
{
	struct nlattr *a = (void *)(m->buf + NLMSG_ALIGN(m->nlh.nlmsg_len));

	enl_put(m, type | NLA_F_NESTED, NULL, 0);
	return a;
}

static inline void enl_nest_end(struct enl_msg *m, struct nlattr *a)
{
	a->nla_len = m->buf + m->nlh.nlmsg_len - (char *)a;
}

/* A policy's knob to set: one policy-param nest. */
static inline void enl_put_param(struct enl_msg *m, const char *name,
				 uint64_t v)
{
	struct nlattr *n = enl_nest_start(m, EDGE_A_SCHED_POLICY_PARAM);

	enl_put(m, EDGE_A_POLICY_PARAM_NAME, name, strlen(name) + 1);
	enl_put_u64(m, EDGE_A_POLICY_PARAM_VALUE, v);
	enl_nest_end(m, n);
}

/*
 * The policy-param nest of @r named @name: its attribute @t (a u64), or
 * ~0 when the reply has no such knob.
 */
static inline uint64_t enl_param(const struct enl_reply *r, const char *name,
				 int t)
{
	const char *p = r->data, *end = r->data + sizeof(r->data);

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;
		const char *q = p + NLA_HDRLEN, *qend = p + a->nla_len;
		const char *nm = NULL;
		uint64_t v = ~0ULL;

		if (a->nla_len < NLA_HDRLEN || qend > end)
			break;
		while ((a->nla_type & NLA_TYPE_MASK) == EDGE_A_SCHED_POLICY_PARAM &&
		       q + NLA_HDRLEN <= qend) {
			const struct nlattr *b = (const void *)q;

			if (b->nla_len < NLA_HDRLEN)
				break;
			if (b->nla_type == EDGE_A_POLICY_PARAM_NAME)
				nm = q + NLA_HDRLEN;
			if (b->nla_type == t)
				memcpy(&v, q + NLA_HDRLEN, sizeof(v));
			q += NLA_ALIGN(b->nla_len);
		}
		if (nm && !strcmp(nm, name))
			return v;
		p += NLA_ALIGN(a->nla_len);
	}
	return ~0ULL;
}

static inline void enl_put_str(struct enl_msg *m, uint16_t type,
			       const char *s)
{
	enl_put(m, type, s, strlen(s) + 1);
}

static inline void enl_init(struct enl *nl, struct enl_msg *m, uint16_t type,
			    uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g = NLMSG_DATA(&m->nlh);

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	m->nlh.nlmsg_seq = ++nl->seq;
	g->cmd = cmd;
	g->version = EDGE_FAMILY_VERSION;
}

static inline void enl_msg(struct enl *nl, struct enl_msg *m, uint8_t cmd,
			   uint16_t flags)
{
	enl_init(nl, m, nl->family, cmd, flags);
}

static inline void enl_parse(struct nlmsghdr *h, struct enl_reply *r)
{
	struct genlmsghdr *g = NLMSG_DATA(h);
	int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	struct nlattr *a = (void *)r->data;

	memset(r, 0, sizeof(*r));
	if (len > (int)sizeof(r->data))
		len = sizeof(r->data);
	memcpy(r->data, (char *)g + GENL_HDRLEN, len > 0 ? len : 0);
	r->cmd = g->cmd;
	r->flags = h->nlmsg_flags;
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) <= ENL_A_MAX)
			r->a[a->nla_type & NLA_TYPE_MASK] = a;
		len -= NLA_ALIGN(a->nla_len);
		a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

/*
 * A copy of @r that outlives it: its attribute pointers moved into the
 * copy's own data (a plain struct copy would point into @r's).
 */
static inline void enl_reply_copy(struct enl_reply *to,
				  const struct enl_reply *r)
{
	int t;

	*to = *r;
	for (t = 0; t <= ENL_A_MAX; t++)
		if (r->a[t])
			to->a[t] = (void *)(to->data +
					    ((const char *)r->a[t] - r->data));
}

static inline uint32_t enl_u32(const struct enl_reply *r, int t)
{
	return r->a[t] ? *(uint32_t *)((char *)r->a[t] + NLA_HDRLEN) : ~0U;
}

static inline uint64_t enl_u64(const struct enl_reply *r, int t)
{
	uint64_t v = ~0ULL;

	if (r->a[t])
		memcpy(&v, (char *)r->a[t] + NLA_HDRLEN, sizeof(v));
	return v;
}

static inline const char *enl_str(const struct enl_reply *r, int t)
{
	return r->a[t] ? (char *)r->a[t] + NLA_HDRLEN : "";
}

/*
 * A dev-del-ntf's final counters (its stats nest, the stats set's
 * numbers) as a reply of their own in @st; none: all absent.
 */
static inline void enl_final(const struct enl_reply *r, struct enl_reply *st)
{
	const struct nlattr *n = r->a[EDGE_A_DEV_STATS];
	int len = n ? n->nla_len - NLA_HDRLEN : 0;
	struct nlattr *a = (void *)st->data;

	memset(st, 0, sizeof(*st));
	st->cmd = r->cmd;
	if (len > (int)sizeof(st->data))
		len = sizeof(st->data);
	if (len > 0)
		memcpy(st->data, (const char *)n + NLA_HDRLEN, len);
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) <= ENL_A_MAX)
			st->a[a->nla_type & NLA_TYPE_MASK] = a;
		len -= NLA_ALIGN(a->nla_len);
		a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

/* The limits of the policy an extack quotes (NLMSGERR_ATTR_POLICY). */
static inline void enl_ext_policy(struct enl *nl, const struct nlattr *p)
{
	const struct nlattr *a = (const void *)((const char *)p + NLA_HDRLEN);
	int len = p->nla_len - NLA_HDRLEN;

	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		const void *d = (const char *)a + NLA_HDRLEN;
		uint64_t v = 0;

		if (a->nla_len == NLA_HDRLEN + sizeof(v))
			memcpy(&v, d, sizeof(v));
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			nl->pol |= ENL_POL_MIN;
			nl->pol_min = (int64_t)v;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			nl->pol |= ENL_POL_MAX;
			nl->pol_max = v;
			break;
		}
		len -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
}

/* An extack's attributes: its message, offset and policy into nl. */
static inline void enl_ext_tlvs(struct enl *nl, struct nlattr *a, int len)
{
	nl->pol = 0;
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_POLICY)
			enl_ext_policy(nl, a);
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(nl->ext, sizeof(nl->ext), "%s",
				 (char *)a + NLA_HDRLEN);
		if (a->nla_type == NLMSGERR_ATTR_OFFS &&
		    a->nla_len >= NLA_HDRLEN + sizeof(uint32_t))
			memcpy(&nl->bad_off, (char *)a + NLA_HDRLEN,
			       sizeof(nl->bad_off));
		len -= NLA_ALIGN(a->nla_len);
		a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
}

/* The extack message of an NLMSG_ERROR, into nl->ext. */
static inline void enl_ext(struct enl *nl, struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	struct nlattr *a;
	int len;

	nl->ext[0] = 0;
	nl->bad_off = 0;
	nl->pol = 0;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	a = (void *)((char *)e + sizeof(*e) +
		     ((h->nlmsg_flags & NLM_F_CAPPED) ? 0 :
		      NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN)));
	len = (char *)h + h->nlmsg_len - (char *)a;
	enl_ext_tlvs(nl, a, len);
}

/*
 * A dump's error in its NLMSG_DONE: the errno, then (NLM_F_ACK_TLVS) the
 * extack's attributes, as an error ack's.
 */
static inline void enl_done_ext(struct enl *nl, struct nlmsghdr *h)
{
	struct nlattr *a = (void *)((char *)NLMSG_DATA(h) +
				    NLMSG_ALIGN(sizeof(int)));

	if (h->nlmsg_flags & NLM_F_ACK_TLVS)
		enl_ext_tlvs(nl, a, (char *)h + h->nlmsg_len - (char *)a);
}

typedef void (*enl_cb)(const struct enl_reply *r, void *arg);

/*
 * Send @m and read until its ack, error or dump end, calling @cb for
 * every data message.  Reads with a @bufsz buffer (small: the dump is
 * split).  Returns 0 or -errno; *@chunks counts the recv() calls.
 */
static inline int enl_xfer(struct enl *nl, struct enl_msg *m, enl_cb cb,
			   void *arg, size_t bufsz, int *chunks)
{
	static char buf[65536];
	int done = 0;

	if (bufsz > sizeof(buf))
		bufsz = sizeof(buf);
	m->nlh.nlmsg_flags |= NLM_F_ACK;
	if (send(nl->fd, m, m->nlh.nlmsg_len, 0) < 0)
		return -errno;
	nl->ext[0] = 0;
	nl->bad_off = 0;
	nl->pol = 0;
	while (!done) {
		ssize_t n = recv(nl->fd, buf, bufsz, MSG_TRUNC);
		struct nlmsghdr *h;

		if (n < 0)
			return -errno;
		/* A message lost to a short buffer is a failure, not a gap. */
		if ((size_t)n > bufsz)
			return -EMSGSIZE;
		if (chunks)
			(*chunks)++;
		for (h = (void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			struct enl_reply r;

			if (h->nlmsg_seq != m->nlh.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				enl_ext(nl, h);
				return e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				int *err = NLMSG_DATA(h);

				if (*err) {
					enl_done_ext(nl, h);
					return *err;
				}
				done = 1;
				continue;
			}
			enl_parse(h, &r);
			if (cb)
				cb(&r, arg);
		}
	}
	return 0;
}

/*
 * The type of the attribute of @m that the last error named (its
 * extack offset), or -1 when it named none.
 */
static inline int enl_bad_attr(const struct enl *nl, const struct enl_msg *m)
{
	const struct nlattr *a;

	if (nl->bad_off < NLMSG_HDRLEN + GENL_HDRLEN ||
	    nl->bad_off + NLA_HDRLEN > m->nlh.nlmsg_len)
		return -1;
	a = (const void *)(m->buf + nl->bad_off);
	return a->nla_type & NLA_TYPE_MASK;
}

static inline int enl_do(struct enl *nl, struct enl_msg *m, enl_cb cb,
			 void *arg)
{
	return enl_xfer(nl, m, cb, arg, 65536, NULL);
}

/*
 * The id of the family's multicast group @name, from one
 * CTRL_ATTR_MCAST_GROUPS nest @a; 0 when it has none of that name.
 */
static inline uint32_t enl_group(const struct nlattr *a, const char *name)
{
	const struct nlattr *g = (const void *)((const char *)a + NLA_HDRLEN);
	int len = a->nla_len - NLA_HDRLEN;

	/* [ [ name, id ], ... ] */
	while (len >= NLA_HDRLEN && g->nla_len >= NLA_HDRLEN) {
		const struct nlattr *x = (const void *)((const char *)g + NLA_HDRLEN);
		int gl = g->nla_len - NLA_HDRLEN;
		const char *nm = NULL;
		uint32_t id = 0;

		while (gl >= NLA_HDRLEN && x->nla_len >= NLA_HDRLEN) {
			if (x->nla_type == CTRL_ATTR_MCAST_GRP_ID)
				id = *(const uint32_t *)((const char *)x + NLA_HDRLEN);
			if (x->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
				nm = (const char *)x + NLA_HDRLEN;
			gl -= NLA_ALIGN(x->nla_len);
			x = (const void *)((const char *)x + NLA_ALIGN(x->nla_len));
		}
		if (nm && !strcmp(nm, name))
			return id;
		len -= NLA_ALIGN(g->nla_len);
		g = (const void *)((const char *)g + NLA_ALIGN(g->nla_len));
	}
	return 0;
}

/*
 * Family id, its version and the id of its group @grp (0: none of that
 * name), from nlctrl.
 */
static inline int enl_resolve_grp(struct enl *nl, const char *grp)
{
	/* Small: the kernel sizes a dump's messages by our largest read. */
	static char buf[4096];
	struct enl_msg m;
	struct nlmsghdr *h;
	ssize_t n;

	enl_init(nl, &m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	enl_put_str(&m, CTRL_ATTR_FAMILY_NAME, EDGE_FAMILY_NAME);
	if (send(nl->fd, &m, m.nlh.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(nl->fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	h = (void *)buf;
	if (!NLMSG_OK(h, n))
		return -EIO;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	{
		struct nlattr *a = (void *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

		while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN) {
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				nl->family = *(uint16_t *)((char *)a + NLA_HDRLEN);
			if (a->nla_type == CTRL_ATTR_VERSION)
				nl->version = *(uint32_t *)((char *)a + NLA_HDRLEN);
			if (a->nla_type == CTRL_ATTR_MCAST_GROUPS)
				nl->mcgrp = enl_group(a, grp);
			len -= NLA_ALIGN(a->nla_len);
			a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
		}
	}
	return nl->family ? 0 : -ENOENT;
}

/* The family, as every test uses it: its group is EDGE_MCGRP_EVENTS. */
static inline int enl_resolve(struct enl *nl)
{
	return enl_resolve_grp(nl, EDGE_MCGRP_EVENTS);
}

/*
 * A socket on the family, refused (-EPROTONOSUPPORT, nl->ext naming both
 * versions) when the kernel's is not the version this was built for.
 */
static inline int enl_open(struct enl *nl)
{
	int one = 1, ret;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	ret = enl_resolve(nl);
	if (ret)
		return ret;
	/* Another version numbers its commands and attributes otherwise. */
	if (nl->version != EDGE_FAMILY_VERSION) {
		snprintf(nl->ext, sizeof(nl->ext),
			 "the kernel's edge family is version %u, this program speaks version %u",
			 nl->version, EDGE_FAMILY_VERSION);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static inline void enl_close(struct enl *nl)
{
	close(nl->fd);
}

static inline int enl_subscribe(struct enl *nl)
{
	return setsockopt(nl->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			  &nl->mcgrp, sizeof(nl->mcgrp)) ? -errno : 0;
}

/* The next notification, or -errno (-EAGAIN after @ms). */
static inline int enl_next_ntf(struct enl *nl, struct enl_reply *r, int ms)
{
	static char buf[16384];
	static size_t have, off;
	struct nlmsghdr *h;

	for (;;) {
		if (off < have) {
			h = (void *)(buf + off);
			off += NLMSG_ALIGN(h->nlmsg_len);
			if (h->nlmsg_type == NLMSG_ERROR) {
				int e = ((struct nlmsgerr *)NLMSG_DATA(h))->error;

				return e ? e : -EIO;
			}
			enl_parse(h, r);
			return 0;
		}
		{
			struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
			ssize_t n;

			setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				   sizeof(tv));
			n = recv(nl->fd, buf, sizeof(buf), 0);
			if (n < 0)
				return errno == EWOULDBLOCK ? -EAGAIN : -errno;
			have = n;
			off = 0;
		}
	}
}

/* Common requests. */
/* A device; -1 leaves @index, @preset (EDGE_NL_PRESET_*) or @vt out. */
static inline int enl_dev_add(struct enl *nl, int index, int preset, int vt)
{
	struct enl_msg m;

	enl_msg(nl, &m, EDGE_CMD_DEV_ADD, 0);
	if (index >= 0)
		enl_put_u32(&m, EDGE_A_DEV_INDEX, index);
	if (preset >= 0)
		enl_put_u32(&m, EDGE_A_DEV_PRESET, preset);
	if (vt >= 0)
		enl_put_u32(&m, EDGE_A_DEV_TIME_MODE, vt);
	return enl_do(nl, &m, NULL, NULL);
}

static inline int enl_dev_del(struct enl *nl, uint32_t index)
{
	struct enl_msg m;

	enl_msg(nl, &m, EDGE_CMD_DEV_DEL, 0);
	enl_put_u32(&m, EDGE_A_DEV_INDEX, index);
	return enl_do(nl, &m, NULL, NULL);
}

#endif /* _EDGE_NL_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The SIMT knobs that take a name, as tables: how an event warp gets a
 * full GPU (drain, reserve, preempt), which warp it takes (oldest,
 * newest, best) and which flushing optimisations apply (EDGE Section
 * IV-D).  sysfs, netlink, edge-sim and the documentation read these;
 * none keeps a copy.  A flush set is written one way everywhere: none,
 * all, or names joined by '+' (boost+loads).
 */
#include "gpu/simt.h"

const struct edge_name edge_sched_table[EDGE_SCHED_NR] = {
	[EDGE_SCHED_DRAIN] = { "drain", "wait for a TB to finish" },
	[EDGE_SCHED_RESERVE] = { "reserve", "events run on reserved cores only" },
	[EDGE_SCHED_PREEMPT] = { "preempt", "warp-level preemption, else drain" },
};

const struct edge_name edge_victim_table[EDGE_VICTIM_NR] = {
	[EDGE_VICTIM_OLDEST] = { "oldest", "the oldest resident warp" },
	[EDGE_VICTIM_NEWEST] = { "newest", "the newest resident warp" },
	[EDGE_VICTIM_BEST] = { "best", "one needing no flush, else fewest loads" },
};

/* By bit: entry i is flag 1 << i. */
const struct edge_name edge_flush_table[EDGE_FLUSH_NR] = {
	{ "boost", "victim priority boost" },
	{ "ibuf", "i-buffer flush" },
	{ "loads", "load drop and replay" },
	{ "barrier", "barrier skipping" },
};

/**
 * edge_name_find() - an entry of a name table
 * @t: the table
 * @n: its length
 * @name: the name
 *
 * Return: its index, or -EINVAL.
 */
int edge_name_find(const struct edge_name *t, u32 n, const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return (int)i;
	return -EINVAL;
}

/**
 * edge_name_of() - the name of entry @v of a name table, or "?"
 * @t: the table
 * @n: its length
 * @v: the index
 *
 * Return: the name.
 */
const char *edge_name_of(const struct edge_name *t, u32 n, u32 v)
{
	return v < n ? t[v].name : "?";
}

/* The flush bit of the @len characters at @s, or -EINVAL. */
static int flush_word(const char *s, size_t len)
{
	u32 i;

	for (i = 0; i < EDGE_FLUSH_NR; i++)
		if (strlen(edge_flush_table[i].name) == len &&
		    !memcmp(edge_flush_table[i].name, s, len))
			return (int)i;
	return -EINVAL;
}

/**
 * edge_flush_parse() - a flush set from its text
 * @s: "none", "all", or names of edge_flush_table joined by '+'
 * @flush: the EDGE_FLUSH_* bits, set on success
 * @bad: where the first word not understood starts, on error; or NULL
 *
 * Return: 0, or -EINVAL (an unknown or empty word) and @flush unchanged.
 */
int edge_flush_parse(const char *s, u32 *flush, const char **bad)
{
	const char *w = s;
	u32 f = 0;
	int b;

	if (!strcmp(s, "none")) {
		*flush = 0;
		return 0;
	}
	if (!strcmp(s, "all")) {
		*flush = EDGE_FLUSH_ALL;
		return 0;
	}
	for (;;) {
		const char *e = strchr(w, '+');
		size_t len = e ? (size_t)(e - w) : strlen(w);

		b = flush_word(w, len);
		if (b < 0) {
			if (bad)
				*bad = w;
			return -EINVAL;
		}
		f |= 1U << b;
		if (!e)
			break;
		w = e + 1;
	}
	*flush = f;
	return 0;
}

/* Append @w to @buf (@len bytes) at @at; returns the new end. */
static size_t append(char *buf, size_t len, size_t at, const char *w)
{
	while (*w && at + 1 < len)
		buf[at++] = *w++;
	buf[at] = 0;
	return at;
}

/**
 * edge_flush_format() - a flush set as edge_flush_parse() reads it
 * @flush: EDGE_FLUSH_* bits
 * @buf: where the text goes, NUL-terminated
 * @len: its size; 32 holds any set
 */
void edge_flush_format(u32 flush, char *buf, size_t len)
{
	size_t at = 0;
	u32 i;

	if (!len)
		return;
	buf[0] = 0;
	if (!flush || flush == EDGE_FLUSH_ALL) {
		append(buf, len, 0, flush ? "all" : "none");
		return;
	}
	for (i = 0; i < EDGE_FLUSH_NR; i++) {
		if (!(flush & (1U << i)))
			continue;
		if (at)
			at = append(buf, len, at, "+");
		at = append(buf, len, at, edge_flush_table[i].name);
	}
}

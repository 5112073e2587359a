// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_LPM6: IPv6 longest-prefix match, the route lookup of a GPU
 * router's IPv6 side (drv/router/edge_router.c).
 *
 * As LPM4 (fn_lpm.c): the table becomes a binary trie at registration
 * (process context, may allocate); a lookup walks at most 128 nodes and
 * never allocates, so it runs in the front end's step.  A bit at a time
 * rather than a multibit stride: the model charges what the registration
 * says (warp_cycles), not the walk, so the simplest trie is the one to
 * trust.
 */
#include "fn/func.h"
#include "validate.h"

struct lpm6_node {
	u32 child[2];		/* node index; 0 is the root, so 0 = none */
	u32 value;
	u32 prefix_len;
	bool has_route;
};

struct edge_lpm6 {
	struct lpm6_node *node;
	u32 used;
	u32 cap;
};

/* Bit @b (0 = the most significant) of a network-order address. */
static u32 bit_of(const u8 *a, u32 b)
{
	return (a[b / 8] >> (7 - b % 8)) & 1;
}

void edge_lpm6_free(struct edge_lpm6 *l)
{
	if (!l)
		return;
	edge_free(l->node);
	edge_free(l);
}

/* Any bit at or beyond @len set: the prefix has host bits. */
static bool host_bits(const u8 *a, u32 len)
{
	u32 b;

	for (b = len; b < 128; b++)
		if (bit_of(a, b))
			return true;
	return false;
}

/*
 * -EINVAL for a prefix longer than 128, host bits set, a reserved field
 * set, or the same prefix twice (which route wins would be arbitrary).
 */
int edge_lpm6_build(const struct edge_lpm6_entry *t, u32 n,
		    struct edge_lpm6 **out)
{
	struct edge_lpm6 *l;
	u32 i, b;

	*out = NULL;
	l = edge_zalloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	/* Each route adds at most 128 nodes below the root. */
	l->cap = 1 + n * 128;
	l->node = edge_zalloc((size_t)l->cap * sizeof(*l->node));
	if (!l->node) {
		edge_free(l);
		return -ENOMEM;
	}
	l->used = 1;
	for (i = 0; i < n; i++) {
		struct edge_lpm6_entry e;
		u32 cur = 0;

		/* The table is a copy, but read each entry once anyway. */
		memcpy(&e, &t[i], sizeof(e));
		if (e.prefix_len > 128 || e.resv[0] || e.resv[1] ||
		    host_bits(e.prefix, e.prefix_len))
			goto bad;
		for (b = 0; b < e.prefix_len; b++) {
			u32 bit = bit_of(e.prefix, b);

			if (!l->node[cur].child[bit])
				l->node[cur].child[bit] = l->used++;
			cur = l->node[cur].child[bit];
		}
		if (l->node[cur].has_route)
			goto bad;
		l->node[cur].has_route = true;
		l->node[cur].value = e.value;
		l->node[cur].prefix_len = e.prefix_len;
	}
	*out = l;
	return 0;
bad:
	edge_lpm6_free(l);
	return -EINVAL;
}

/* @addr in network order; false when no route covers it. */
bool edge_lpm6_lookup(const struct edge_lpm6 *l, const u8 *addr, u32 *value,
		      u32 *prefix_len)
{
	const struct lpm6_node *best = NULL;
	u32 cur = 0, b;

	for (b = 0;; b++) {
		const struct lpm6_node *nd = &l->node[cur];

		if (nd->has_route)
			best = nd;
		if (b == 128)
			break;
		cur = nd->child[bit_of(addr, b)];
		if (!cur)
			break;
	}
	if (!best)
		return false;
	*value = best->value;
	*prefix_len = best->prefix_len;
	return true;
}

static u32 edge_fn_lpm6(const struct edge_lpm6 *l, void *param,
			u32 param_size, u32 *res)
{
	struct edge_lpm6_param *lp = param;
	u32 value = EDGE_LPM_MISS, plen = 0;
	u8 a[16];
	bool found;

	if (param_size < sizeof(*lp)) {
		*res = EINVAL;
		return EDGE_CQE_ERROR;
	}
	/* Shared memory: the address is read once, into our copy. */
	memcpy(a, lp->addr, sizeof(a));
	found = edge_lpm6_lookup(l, a, &value, &plen);
	edge_write_once(lp->value, value);
	edge_write_once(lp->prefix_len, plen);
	edge_write_once(lp->found, (u32)found);
	*res = value;
	return EDGE_CQE_DONE;
}

/* LPM6's registration: a table of whole routes, never empty. */
int edge_fn_lpm6_validate(const struct edge_register *r,
			  struct edge_validate_err *err)
{
	if (!r->table_ptr || !r->table_len ||
	    r->table_len % sizeof(struct edge_lpm6_entry) ||
	    r->table_len > EDGE_LPM6_MAX_ENTRIES *
			   sizeof(struct edge_lpm6_entry))
		return edge_validate_reject(err, "table_len", r->table_len,
					    "whole LPM6 entries, at most (bytes)",
					    EDGE_LPM6_MAX_ENTRIES *
					    sizeof(struct edge_lpm6_entry));
	return 0;
}

int edge_fn_lpm6_state_new(const void *table, u32 table_len, void **state)
{
	struct edge_lpm6 *l;
	int ret;

	ret = edge_lpm6_build(table, table ?
			      table_len / (u32)sizeof(struct edge_lpm6_entry) :
			      0, &l);
	if (!ret)
		*state = l;
	return ret;
}

void edge_fn_lpm6_state_free(void *state)
{
	edge_lpm6_free(state);
}

u32 edge_fn_lpm6_run(void *state, void *param, u32 param_size, u32 *res)
{
	return edge_fn_lpm6(state, param, param_size, res);
}

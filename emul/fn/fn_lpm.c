// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_LPM4: IPv4 longest-prefix match, the route lookup a NIC's
 * event kernel does per packet.
 *
 * The table becomes a binary trie at registration (process context, may
 * allocate); a lookup walks at most 32 nodes and never allocates, so it
 * runs in the front end's step like any other function.
 */
#include "fn/func.h"
#include "validate.h"

struct lpm_node {
	u32 child[2];		/* node index; 0 is the root, so 0 = none */
	u32 value;
	u32 prefix_len;
	bool has_route;
};

struct edge_lpm {
	struct lpm_node *node;
	u32 used;
	u32 cap;
};

static u32 addr_of(const u8 *b)
{
	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

void edge_lpm_free(struct edge_lpm *l)
{
	if (!l)
		return;
	edge_free(l->node);
	edge_free(l);
}

/*
 * -EINVAL for a prefix longer than 32, host bits set, a reserved field
 * set, or the same prefix twice (which route wins would be arbitrary).
 */
int edge_lpm_build(const struct edge_lpm_entry *t, u32 n,
		   struct edge_lpm **out)
{
	struct edge_lpm *l;
	u32 i, b;

	*out = NULL;
	l = edge_zalloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	/* Each route adds at most 32 nodes below the root. */
	l->cap = 1 + n * 32;
	l->node = edge_zalloc((size_t)l->cap * sizeof(*l->node));
	if (!l->node) {
		edge_free(l);
		return -ENOMEM;
	}
	l->used = 1;
	for (i = 0; i < n; i++) {
		struct edge_lpm_entry e;
		u32 addr, mask, cur = 0;

		memcpy(&e, &t[i], sizeof(e));
		if (e.prefix_len > 32 || e.resv)
			goto bad;
		addr = addr_of((const u8 *)&e.prefix);
		mask = e.prefix_len ? ~0U << (32 - e.prefix_len) : 0;
		if (addr & ~mask)
			goto bad;
		for (b = 0; b < e.prefix_len; b++) {
			u32 bit = (addr >> (31 - b)) & 1;

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
	edge_lpm_free(l);
	return -EINVAL;
}

/* @addr in host order; false when no route covers it. */
bool edge_lpm_lookup(const struct edge_lpm *l, u32 addr, u32 *value,
		     u32 *prefix_len)
{
	const struct lpm_node *best = NULL;
	u32 cur = 0, b;

	for (b = 0;; b++) {
		const struct lpm_node *nd = &l->node[cur];

		if (nd->has_route)
			best = nd;
		if (b == 32)
			break;
		cur = nd->child[(addr >> (31 - b)) & 1];
		if (!cur)
			break;
	}
	if (!best)
		return false;
	*value = best->value;
	*prefix_len = best->prefix_len;
	return true;
}

u32 edge_fn_lpm4(const struct edge_lpm *l, void *param, u32 param_size,
		 u32 *res)
{
	struct edge_lpm_param *lp = param;
	u32 addr, value = EDGE_LPM_MISS, plen = 0;
	bool found;
	u8 a[4];

	if (param_size < sizeof(*lp)) {
		*res = EINVAL;
		return EDGE_CQE_ERROR;
	}
	memcpy(a, &lp->addr, sizeof(a));
	addr = addr_of(a);
	found = edge_lpm_lookup(l, addr, &value, &plen);
	edge_write_once(lp->value, value);
	edge_write_once(lp->prefix_len, plen);
	edge_write_once(lp->found, (u32)found);
	*res = value;
	return EDGE_CQE_DONE;
}

/* LPM4's registration: a table of whole routes, never empty. */
int edge_fn_lpm4_validate(const struct edge_register *r,
			  struct edge_validate_err *err)
{
	if (!r->table_ptr || !r->table_len ||
	    r->table_len % sizeof(struct edge_lpm_entry) ||
	    r->table_len > EDGE_LPM_MAX_ENTRIES * sizeof(struct edge_lpm_entry))
		return edge_validate_reject(err, "table_len", r->table_len,
					    "whole LPM entries, at most (bytes)",
					    EDGE_LPM_MAX_ENTRIES *
					    sizeof(struct edge_lpm_entry));
	return 0;
}

int edge_fn_lpm4_state_new(const void *table, u32 table_len, void **state)
{
	struct edge_lpm *l;
	int ret;

	ret = edge_lpm_build(table, table ?
			     table_len / (u32)sizeof(struct edge_lpm_entry) : 0,
			     &l);
	if (!ret)
		*state = l;
	return ret;
}

void edge_fn_lpm4_state_free(void *state)
{
	edge_lpm_free(state);
}

u32 edge_fn_lpm4_run(void *state, void *param, u32 param_size, u32 *res)
{
	return edge_fn_lpm4(state, param, param_size, res);
}

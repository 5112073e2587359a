// SPDX-License-Identifier: GPL-2.0
/*
 * Event kernel table: a small fixed array, lowest free index first, like
 * the on-chip SRAM table of EDGE Figure 6.
 */
#include "ekt.h"

int edge_ekt_init(struct edge_ekt *t, u32 n)
{
	u32 i;

	t->e = edge_zalloc((size_t)n * sizeof(*t->e));
	if (!t->e)
		return -ENOMEM;
	t->n = n;
	t->used = 0;
	for (i = 0; i < n; i++)
		t->e[i].id = i;
	return 0;
}

void edge_ekt_fini(struct edge_ekt *t)
{
	EDGE_ASSERT(!t->used);
	edge_free(t->e);
	t->e = NULL;
	t->n = 0;
}

bool edge_ekt_room(const struct edge_ekt *t)
{
	return t->used < t->n;
}

/* Returns NULL when the table is full. */
struct edge_ekt_entry *edge_ekt_alloc(struct edge_ekt *t)
{
	u32 i;

	for (i = 0; i < t->n; i++) {
		struct edge_ekt_entry *ent = &t->e[i];
		u32 gen;

		if (ent->used)
			continue;
		gen = ent->gen + 1;
		memset(ent, 0, sizeof(*ent));
		ent->id = i;
		ent->gen = gen;
		ent->used = true;
		t->used++;
		return ent;
	}
	return NULL;
}

void edge_ekt_free(struct edge_ekt *t, struct edge_ekt_entry *ent)
{
	EDGE_ASSERT(ent->used && !ent->inflight);
	ent->used = false;
	ent->owner = NULL;
	t->used--;
}


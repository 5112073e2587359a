// SPDX-License-Identifier: GPL-2.0
/*
 * Policy parameters (policy/param.h): read, checked and written by their
 * descriptor, whatever the policy.
 */
#include "policy/param.h"

/**
 * edge_param_find() - a knob of a params[] list by name
 * @ps: the list
 * @n: its length
 * @name: the knob's name
 *
 * Return: the knob, or NULL when the list has none of that name.
 */
const struct edge_param *edge_param_find(const struct edge_param *ps, u32 n,
					 const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(ps[i].name, name))
			return &ps[i];
	return NULL;
}

/**
 * edge_param_get() - a knob's value
 * @p: the knob
 * @priv: its policy's private data
 *
 * Return: the value, widened to u64.
 */
u64 edge_param_get(const struct edge_param *p, const void *priv)
{
	const u8 *f = (const u8 *)priv + p->off;

	if (p->type == EDGE_PARAM_U64)
		return *(const u64 *)f;
	return *(const u32 *)f;
}

/**
 * edge_param_check() - whether a knob takes a value
 * @p: the knob
 * @v: the value
 *
 * Return: 0, or -ERANGE when @v is outside [@p->min, @p->max] (@p->range
 * says them).
 */
int edge_param_check(const struct edge_param *p, u64 v)
{
	return v < p->min || v > p->max ? -ERANGE : 0;
}

/**
 * edge_param_set() - write a knob, if the value is in its range
 * @p: the knob
 * @priv: its policy's private data
 * @v: the value
 *
 * Return: 0, or -ERANGE when @v is outside [@p->min, @p->max]: then
 * nothing changed (@p->range says the limits).
 */
int edge_param_set(const struct edge_param *p, void *priv, u64 v)
{
	u8 *f = (u8 *)priv + p->off;

	if (edge_param_check(p, v))
		return -ERANGE;
	if (p->type == EDGE_PARAM_U64)
		*(u64 *)f = v;
	else
		*(u32 *)f = (u32)v;
	return 0;
}

/**
 * edge_param_defaults() - every knob of a list at its default
 * @ps: the list
 * @n: its length
 * @priv: the policy's private data
 */
void edge_param_defaults(const struct edge_param *ps, u32 n, void *priv)
{
	u32 i;

	for (i = 0; i < n; i++)
		edge_param_set(&ps[i], priv, ps[i].def);
}

const char *edge_param_type_name(u32 type)
{
	return type == EDGE_PARAM_U64 ? "u64" : "u32";
}
